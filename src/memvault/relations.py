"""Relations between memories (PAM §13): typed edges, read as access allows (PAM §9).

Behind `Vault.relate`, `relations` and `iter_relations`. A `supersedes` edge made here
changes no status; `memvault.lifecycle.supersede` does both.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from memvault.access import may, require, require_privileged
from memvault.audit_entries import relation_entry
from memvault.errors import InvalidInput
from memvault.model import Relation
from memvault.vault_inputs import (
    check_confidence,
    check_relation_type,
    format_timestamp,
    is_privileged,
)

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["all_relations", "relate", "relations_of"]


def relate(
    vault: Vault,
    from_id: str,
    to_id: str,
    type: str,
    *,
    confidence: float | None = None,
    now: datetime | None = None,
) -> Relation:
    """`Vault.relate` in `vault`'s session: a typed edge, made once per pair and type."""
    actor = vault.actor
    type = check_relation_type(type)
    conf = None if confidence is None else check_confidence(confidence, "confidence")
    at = format_timestamp(vault._moment(now))
    with vault._store.transaction():
        source = vault._load(from_id).memory
        target = vault._load(to_id).memory
        if source.id == target.id:
            raise InvalidInput(f"a memory cannot be related to itself ({source.id})", "to")
        require(source, actor, "write", "relate")
        require(target, actor, "read", "read")
        for existing in vault._store.relations_of(source.id):
            if existing.from_ == source.id and existing.to == target.id and existing.type == type:
                if conf is None or existing.confidence == conf:
                    return existing
                relation = existing.evolve(confidence=conf)
                vault._store.update_relation(relation)
                vault._audit.append([relation_entry(relation, source.content_hash, actor)], at)
                return relation
        relation = Relation(
            id=str(uuid.uuid4()),
            from_=source.id,
            to=target.id,
            type=type,
            created_at=at,
            confidence=conf,
        )
        vault._store.insert_relation(relation)
        vault._audit.append([relation_entry(relation, source.content_hash, actor)], at)
    return relation


def relations_of(vault: Vault, id: str) -> list[Relation]:
    """`Vault.relations` in `vault`'s session: an agent sees an edge only when it may read
    both ends."""
    actor = vault.actor
    memory = vault.get(id)
    found = vault._store.relations_of(memory.id)
    if is_privileged(actor):
        return found
    others = {r.to if r.from_ == memory.id else r.from_ for r in found}
    readable = {
        s.memory.id
        for s in vault._store.get_memories(sorted(others))
        if may(s.memory, actor, "read")
    }
    return [r for r in found if (r.to if r.from_ == memory.id else r.from_) in readable]


def all_relations(vault: Vault) -> Iterator[Relation]:
    """`Vault.iter_relations` in `vault`'s session (the owner's or background work's)."""
    require_privileged(vault.actor, "read every relation")
    yield from vault._store.iter_relations()
