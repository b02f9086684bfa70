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

A conversation is erased with its messages and everything indexed from them
(`erase_conversation_stored`); the memories derived from it stay — they are the person's
memory — with their provenance ids as they were. Everything at once (`erase_everything_stored`)
is for a vault that is emptied in place rather than deleted as a file. Both are audited as
counts (docs/erasure.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from memvault.audit import PendingEntry
from memvault.erasure_fence import note_erasure
from memvault.errors import NotFound
from memvault.model import Memory
from memvault.store.base import Store, StoredMemory

__all__ = [
    "CONVERSATION_ERASED",
    "EVERYTHING_ERASED",
    "ConversationErasure",
    "ErasureReport",
    "EverythingErasure",
    "erase_conversation_stored",
    "erase_everything_stored",
    "erase_stored",
]

#: The audit actions of a conversation's erasure and of everything's (a memory's is "erase").
CONVERSATION_ERASED: Final = "erase-conversation"
EVERYTHING_ERASED: Final = "erase-everything"


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
    note_erasure(store)  # an export reading meanwhile is made again (`memvault.erasure_fence`)
    entries.append(PendingEntry("erase", actor, memory.id, memory.content_hash, {}))
    return entries, len(relations)


@dataclass(frozen=True, slots=True)
class ConversationErasure:
    """What erasing a conversation did: its id, how many messages it held, how many recall
    passages and vectors went with them; `durable` as in `ErasureReport`."""

    conversation: str
    messages: int
    passages: int
    vectors: int
    durable: bool


@dataclass(frozen=True, slots=True)
class EverythingErasure:
    """What erasing everything did: the counts `Store.erase_everything` reports (memories,
    relations, conversations, messages, passages, vectors, embeddings, exports); `durable` as
    in `ErasureReport`."""

    counts: dict[str, int]
    durable: bool


def erase_conversation_stored(
    store: Store, conversation_id: str, actor: str
) -> tuple[PendingEntry, dict[str, int]]:
    """Delete a conversation with its messages, passages and vectors; call inside a
    transaction. Returns the audit entry (the id and the counts, never a word of it) and the
    counts. NotFound when the vault holds no such conversation."""
    counts = store.delete_conversation(conversation_id)
    if counts is None:
        raise NotFound(f"no conversation with id {conversation_id!r}")
    note_erasure(store)
    details = {"conversation_id": conversation_id, **counts}
    return PendingEntry(CONVERSATION_ERASED, actor, details=details), counts


def erase_everything_stored(store: Store, actor: str) -> tuple[PendingEntry, dict[str, int]]:
    """Delete every memory, conversation and what is derived from them; call inside a
    transaction. Returns the audit entry (counts only) and the counts."""
    counts = store.erase_everything()
    note_erasure(store)
    return PendingEntry(EVERYTHING_ERASED, actor, details=dict(counts)), counts
