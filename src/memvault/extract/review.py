"""Changes proposed by unattended extraction, for the owner to accept or reject.

Background work (a server, an MCP tool, `vault.background()`) may not supersede a DNA-class
memory (AIMEM §5.1). When extraction running there finds a newer value for a DNA-class slot —
or an older one that should become history — it writes the new memory with a `contradicts`
relation to the present one and flags it in the memory's own metadata (PAM relations allow no
extra members; a memory's `metadata` does)::

    metadata.review = {"status": "pending", "proposes": "supersede" | "history",
                       "targets": [memory ids], "reason": "…", "proposed_at": "…",
                       "proposed_by": "system:…"}

`pending` lists them (``memvault review``); the owner's `accept` applies the supersession
(`Vault.supersede`) and `reject` retracts the proposed memory (PAM §7.1: kept, not deleted).
Either way the flag records the decision (``status`` accepted/rejected, ``decided_at``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final, Literal

from memvault.access import require_owner
from memvault.errors import ConflictingInput
from memvault.model import Memory
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from memvault.vault_inputs import format_timestamp

__all__ = ["Proposal", "accept", "pending", "proposal", "reject"]

REVIEW_KEY: Final = "review"
Proposes = Literal["supersede", "history"]


@dataclass(frozen=True, slots=True)
class Proposal:
    """A pending change: `memory` (active, flagged) would supersede `targets` ("supersede")
    or be superseded by them, as an older statement ("history")."""

    memory: Memory
    proposes: Proposes
    targets: tuple[Memory, ...]
    reason: str
    proposed_at: str
    proposed_by: str


def proposal(
    memory: Memory,
    targets: Sequence[str],
    reason: str,
    at: str,
    actor: str,
    proposes: Proposes = "supersede",
) -> Memory:
    """`memory` flagged as a proposal about `targets` (written by reconciliation)."""
    meta = dict(memory.metadata) if isinstance(memory.metadata, Mapping) else {}
    meta[REVIEW_KEY] = {
        "status": "pending",
        "proposes": proposes,
        "targets": list(targets),
        "reason": reason,
        "proposed_at": at,
        "proposed_by": actor,
    }
    return replace(memory, metadata=meta)


def _flag(memory: Memory) -> Mapping[str, Any] | None:
    meta = memory.metadata if isinstance(memory.metadata, Mapping) else {}
    flag = meta.get(REVIEW_KEY)
    return flag if isinstance(flag, Mapping) else None


def pending(vault: Vault) -> list[Proposal]:
    """The proposals waiting for the owner, oldest first (the owner's session)."""
    require_owner(vault.actor, "review proposed changes")
    found: list[Proposal] = []
    for memory in vault.iter_memories(MemoryQuery(limit=None)):
        flag = _flag(memory)
        if flag is None or flag.get("status") != "pending" or memory.status != "active":
            continue
        ids = [t for t in flag.get("targets", ()) if isinstance(t, str)]
        targets = tuple(vault.get(t) for t in ids)
        proposes: Proposes = "history" if flag.get("proposes") == "history" else "supersede"
        found.append(
            Proposal(
                memory,
                proposes,
                targets,
                str(flag.get("reason", "")),
                str(flag.get("proposed_at", "")),
                str(flag.get("proposed_by", "")),
            )
        )
    return sorted(found, key=lambda p: (p.proposed_at, p.memory.id))


def _open(vault: Vault, id: str) -> tuple[Memory, Mapping[str, Any]]:
    require_owner(vault.actor, "review proposed changes")
    memory = vault.get(id)
    flag = _flag(memory)
    if flag is None or flag.get("status") != "pending":
        raise ConflictingInput(
            f"memory {memory.id} is not a pending proposal (memvault review lists them)", "id"
        )
    return memory, flag


def _decide(
    vault: Vault, memory: Memory, flag: Mapping[str, Any], status: str, now: datetime | None
) -> None:
    meta = dict(memory.metadata) if isinstance(memory.metadata, Mapping) else {}
    at = format_timestamp((now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0))
    meta[REVIEW_KEY] = {**flag, "status": status, "decided_at": at}
    vault.update(memory.id, metadata=meta, now=now)


def accept(vault: Vault, id: str, *, now: datetime | None = None) -> list[tuple[str, str]]:
    """Apply a proposal: (new, old) pairs of the supersessions made. Targets no longer active
    (superseded or retracted since) are left as they are."""
    memory, flag = _open(vault, id)
    made: list[tuple[str, str]] = []
    with vault.transaction():
        _decide(vault, memory, flag, "accepted", now)
        for target in flag.get("targets", ()):
            if not isinstance(target, str) or vault.get(target).status != "active":
                continue
            if flag.get("proposes") == "history":
                if vault.get(memory.id).status == "active":
                    vault.supersede(memory.id, target, now=now)
                    made.append((target, memory.id))
            else:
                vault.supersede(target, memory.id, now=now)
                made.append((memory.id, target))
    return made


def reject(vault: Vault, id: str, *, now: datetime | None = None) -> Memory:
    """Refuse a proposal: the proposed memory is retracted (kept, PAM §7.1)."""
    memory, flag = _open(vault, id)
    with vault.transaction():
        _decide(vault, memory, flag, "rejected", now)
        return vault.retract(memory.id, now=now)
