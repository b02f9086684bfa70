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

The session's erasures (`Vault.erase`, `erase_many`, `erase_conversation`, `erase_everything`)
are written here too (`erase_memory` …): each checks the session's actor, holds exports off
while it deletes (`memvault.erasure_fence.erasing`), deletes in one transaction with its audit
entries, then scrubs the files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from memvault.access import require, require_owner
from memvault.audit import PendingEntry
from memvault.erasure_fence import erasing, note_erasure
from memvault.errors import InvalidInput, NotFound
from memvault.model import Memory
from memvault.store.base import Store, StoredMemory
from memvault.vault_inputs import format_timestamp

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = [
    "CONVERSATION_ERASED",
    "EVERYTHING_ERASED",
    "ConversationErasure",
    "ErasureReport",
    "EverythingErasure",
    "erase_conversation",
    "erase_conversation_stored",
    "erase_everything",
    "erase_everything_stored",
    "erase_memories",
    "erase_memory",
    "erase_stored",
    "erasure_request",
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


# -- the session's erasures ----------------------------------------------------------------


def erase_memory(vault: Vault, id: str, *, now: datetime | None = None) -> ErasureReport:
    """`Vault.erase` in `vault`'s session: one memory, then the files scrubbed."""
    actor = vault.actor
    at = format_timestamp(vault._moment(now))
    with erasing(vault._store), vault._store.transaction():  # exports first (AIMEM §5.2)
        memory = vault._load(id).memory
        require(memory, actor, "delete", "erase")
        vault._protect_dna(memory, actor, "delete")
        entries, relations = erase_stored(vault._store, memory, actor, at)
        vault._audit.append(entries, at)
    return ErasureReport((memory.id,), relations, vault._store.scrub())


def erasure_request(vault: Vault, ids: Sequence[str]) -> list[Memory]:
    """`Vault.erasure_request` in `vault`'s session: the memories `ids` name, each once."""
    require_owner(vault.actor, "make an erasure request")
    if not ids:
        raise InvalidInput("no memory to erase: give at least one id", "ids")
    found: dict[str, Memory] = {}
    for key in ids:
        memory = vault._load(key).memory
        found.setdefault(memory.id, memory)
    return list(found.values())


def erase_memories(
    vault: Vault, ids: Sequence[str], *, now: datetime | None = None
) -> ErasureReport:
    """`Vault.erase_many` in `vault`'s session: all of them in one transaction, or none."""
    at = format_timestamp(vault._moment(now))
    erased: list[str] = []
    relations = 0
    with erasing(vault._store), vault._store.transaction():
        for memory in vault.erasure_request(ids):
            entries, count = erase_stored(vault._store, memory, vault.actor, at)
            vault._audit.append(entries, at)
            erased.append(memory.id)
            relations += count
    return ErasureReport(tuple(erased), relations, vault._store.scrub())


def erase_conversation(
    vault: Vault, conversation_id: str, *, now: datetime | None = None
) -> ConversationErasure:
    """`Vault.erase_conversation` in `vault`'s session."""
    require_owner(vault.actor, "make an erasure request")
    at = format_timestamp(vault._moment(now))
    with erasing(vault._store), vault._store.transaction():
        entry, counts = erase_conversation_stored(vault._store, conversation_id, vault.actor)
        vault._audit.append([entry], at)
    return ConversationErasure(
        conversation_id,
        counts["messages"],
        counts["passages"],
        counts["vectors"],
        vault._store.scrub(),
    )


def erase_everything(vault: Vault, *, now: datetime | None = None) -> EverythingErasure:
    """`Vault.erase_everything` in `vault`'s session."""
    require_owner(vault.actor, "make an erasure request")
    at = format_timestamp(vault._moment(now))
    with erasing(vault._store), vault._store.transaction():
        entry, counts = erase_everything_stored(vault._store, vault.actor)
        vault._audit.append([entry], at)
    return EverythingErasure(counts, vault._store.scrub())
