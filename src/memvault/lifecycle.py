"""A memory's lifecycle (PAM §7.1): its status moves, and one memory superseding another.

Behind `Vault.transition` (and `retract`, `archive`, `deprecate`) and `Vault.supersede`: a
memory changes status only along PAM §7.1's transitions, is kept, never deleted (§16.3), and
each move is audited in the transaction that makes it.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from memvault.access import require
from memvault.audit import PendingEntry
from memvault.changes import save
from memvault.errors import InvalidInput, InvalidTransition
from memvault.model import TRANSITIONS, Memory, Relation
from memvault.store.base import StoredMemory
from memvault.vault_inputs import check_status, format_timestamp

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["check_transition", "supersede", "transition"]


def transition(vault: Vault, id: str, status: str, *, now: datetime | None = None) -> Memory:
    """`Vault.transition` in `vault`'s session: one move along PAM §7.1."""
    actor = vault.actor
    status = check_status(status)
    at = format_timestamp(vault._moment(now))
    with vault._store.transaction():
        stored = vault._load(id)
        memory = stored.memory
        require(memory, actor, "write", "change the status of")
        vault._protect_dna(memory, actor, f"move to {status}")
        check_transition(memory, status)
        updated = memory.evolve(status=status, temporal=memory.temporal.evolve(updated_at=at))
        save(
            vault,
            stored,
            updated,
            "transition",
            actor,
            {"from": memory.effective_status, "to": status},
            at,
        )
    return updated


def check_transition(memory: Memory, status: str) -> None:
    """Raise InvalidTransition unless PAM §7.1 lets `memory` move to `status`, naming its
    status and the moves allowed from it."""
    current = memory.effective_status
    allowed = TRANSITIONS.get(current, ())
    if status in allowed:
        return
    if not allowed:
        raise InvalidTransition(
            f"memory {memory.id} is {current}, which is final: no transition is allowed "
            f"(PAM §7.1), not even to {status}"
        )
    raise InvalidTransition(
        f"memory {memory.id} is {current}; PAM §7.1 allows {current} → "
        f"{' | '.join(allowed)}, not {current} → {status}"
    )


def supersede(vault: Vault, old: str, new: str, *, now: datetime | None = None) -> Relation:
    """`Vault.supersede` in `vault`'s session: `new` replaces `old` (PAM §7, §13)."""
    actor = vault.actor
    at = format_timestamp(vault._moment(now))
    with vault._store.transaction():
        old_stored = vault._load(old)
        new_stored = vault._load(new)
        old_memory, new_memory = old_stored.memory, new_stored.memory
        if old_memory.id == new_memory.id:
            raise InvalidInput(f"a memory cannot supersede itself ({old_memory.id})", "new")
        require(old_memory, actor, "write", "supersede")
        require(new_memory, actor, "read", "read")
        vault._protect_dna(old_memory, actor, "supersede")
        for role, memory in (("old", old_memory), ("new", new_memory)):
            if memory.effective_status != "active":
                raise InvalidTransition(
                    f"cannot supersede: the {role} memory {memory.id} is "
                    f"{memory.effective_status}, and both must be active (PAM §7.1 allows "
                    "only active → superseded, and a replacement must be current)"
                )
        updated = old_memory.evolve(
            status="superseded",
            temporal=old_memory.temporal.evolve(superseded_by=new_memory.id, updated_at=at),
        )
        relation = Relation(
            id=str(uuid.uuid4()),
            from_=new_memory.id,
            to=old_memory.id,
            type="supersedes",
            created_at=at,
            confidence=None,
        )
        vault._store.update_memory(StoredMemory(updated, old_stored.decay_anchor))
        vault._store.insert_relation(relation)
        vault._audit.append(
            [
                PendingEntry(
                    "supersede",
                    actor,
                    old_memory.id,
                    old_memory.content_hash,
                    {"by": new_memory.id, "relation_id": relation.id},
                )
            ],
            at,
        )
    return relation
