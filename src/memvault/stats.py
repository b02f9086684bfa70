"""The vault's statistics: what it holds, counted (memories by type, status, platform and
extraction method, relations by type, conversations, audit entries, database size).

Behind `Vault.stats`. The counts cover private memories and the owner's records too, so an
agent is refused (docs/access.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memvault.access import require_privileged

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["vault_stats"]


def vault_stats(vault: Vault) -> dict[str, Any]:
    """`Vault.stats` in `vault`'s session (the owner's or background work's)."""
    require_privileged(vault.actor, "read the vault's statistics")
    memory_stats = vault._store.memory_stats()
    relations = vault._store.relation_stats()
    return {
        "home": None if vault.home is None else str(vault.home),
        "owner_id": vault.owner.id,
        "memories": sum(memory_stats.get("status", {}).values()),
        "by_type": memory_stats.get("type", {}),
        "by_status": memory_stats.get("status", {}),
        "by_platform": memory_stats.get("platform", {}),
        "by_extraction_method": memory_stats.get("extraction_method", {}),
        "relations": sum(relations.values()),
        "relations_by_type": relations,
        "conversations": vault._store.count_conversations(),
        "audit_entries": vault._store.count_audit(),
        "db_size_bytes": vault._store.size_bytes(),
        "schema_version": vault._store.schema_version,
    }
