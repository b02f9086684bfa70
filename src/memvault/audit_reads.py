"""Reading the audit log through a session: verifying its chain, listing its entries.

Behind `Vault.verify_audit`, `audit_log`, `audit_position` and `audit_entries`. The log names
every memory, private ones too, so it is the owner's and background work's (an agent is
refused, docs/access.md). Writing it is `memvault.audit.AuditLog`, inside each change's
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memvault.access import require_privileged
from memvault.audit import AuditReport
from memvault.audit import verify as verify_chain
from memvault.errors import NotFound
from memvault.store.base import AuditEntry

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["entries_after", "log_entries", "position", "verify"]


def verify(vault: Vault) -> AuditReport:
    """`Vault.verify_audit` in `vault`'s session: the chain recomputed (`memvault.audit`)."""
    require_privileged(vault.actor, "verify the audit log")
    return verify_chain(vault._store)


def log_entries(
    vault: Vault,
    *,
    memory_id: str | None = None,
    limit: int | None = None,
) -> list[AuditEntry]:
    """`Vault.audit_log` in `vault`'s session: the last `limit` entries, oldest first."""
    require_privileged(vault.actor, "read the audit log")
    wanted: str | None = None
    if memory_id is not None:
        try:
            wanted = vault.resolve(memory_id)
        except NotFound:
            wanted = memory_id
    if limit is not None and limit <= 0:
        return []
    entries = vault._store.audit_entries(memory_id=wanted, limit=limit, newest_first=True)
    entries.reverse()
    return entries


def position(vault: Vault) -> int:
    """`Vault.audit_position` in `vault`'s session: the last entry's seq, 0 when empty."""
    require_privileged(vault.actor, "read the audit log")
    last = vault._store.last_audit()
    return last.seq if last is not None else 0


def entries_after(
    vault: Vault, *, after_seq: int = 0, actions: Sequence[str] | None = None
) -> list[AuditEntry]:
    """`Vault.audit_entries` in `vault`'s session: the entries after `after_seq`."""
    require_privileged(vault.actor, "read the audit log")
    return vault._store.audit_entries(after_seq=after_seq, actions=actions or ())
