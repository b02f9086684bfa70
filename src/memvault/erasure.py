"""Erasure: the right to erasure (AIMEM §5.2), complete and durable.

Lifecycle changes never delete (PAM §16.3); erasure does, and leaves nothing of the memory:

- its row, tags, grants and full-text entry, its embeddings, every relation that touches it,
  and the ``superseded_by`` of a memory that pointed at it (cleared, audited as an update);
- what the AIMEM exchange keeps per memory: the digest of the chunk it was imported from, its
  own alias and the aliases of chunks that were merged into it (the store deletes them with
  the memory: `Store.chunk_digests`, `Store.aliases`);
- every copy in the database's files (`Store.scrub`): deleted cells and freed pages zeroed,
  the full-text index rewritten without the memory's terms, the write-ahead log emptied.

The audit log records *that* a memory was erased (its id and content hash), never what it
said (§5.2: hashes, not content).
"""

from __future__ import annotations

from dataclasses import dataclass

from memvault.audit import PendingEntry
from memvault.model import Memory
from memvault.store.base import Store, StoredMemory

__all__ = ["ErasureReport", "erase_stored"]


@dataclass(frozen=True, slots=True)
class ErasureReport:
    """What an erasure did.

    `erased`: the full ids, in the order asked. `relations`: relations removed with them.
    `durable`: no copy is left in the database's files; False only when another connection's
    open read kept the write-ahead log from being emptied (the next erasure or checkpoint
    empties it)."""

    erased: tuple[str, ...]
    relations: int
    durable: bool


def erase_stored(
    store: Store, memory: Memory, actor: str, at: str, *, reason: str = "erasure"
) -> tuple[list[PendingEntry], int]:
    """Delete `memory` and everything about it from `store`; call inside a transaction (the
    caller has checked the actor may). Returns the audit entries to append and how many
    relations were removed. `Store.scrub` afterwards removes the copies in the files."""
    entries: list[PendingEntry] = []
    relations = store.relations_of(memory.id)
    for relation in relations:
        other_id = relation.to if relation.from_ == memory.id else relation.from_
        other = store.get_memory(other_id)
        if other is not None and other.memory.temporal.superseded_by == memory.id:
            cleared = other.memory.evolve(
                temporal=other.memory.temporal.evolve(superseded_by=None, updated_at=at)
            )
            store.update_memory(StoredMemory(cleared, other.decay_anchor))
            entries.append(
                PendingEntry(
                    "update",
                    actor,
                    cleared.id,
                    cleared.content_hash,
                    {"changed": ["superseded_by"], "reason": reason},
                )
            )
    store.delete_memory(memory.id)  # and its per-memory AIMEM state with it
    entries.append(PendingEntry("erase", actor, memory.id, memory.content_hash, {}))
    return entries, len(relations)
