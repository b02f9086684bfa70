"""What an export reads from the vault, on behalf of one actor (`Vault.export_view`).

An exporter streams the whole vault, so it reads in bulk (memories by the thousand, relations
and embeddings as it writes each memory) rather than through the one-memory methods; it still
reads through the vault: conversations and the audit log are the owner's (AccessDenied for an
agent, docs/access.md), and an agent sees only the memories it may read (PAM §9) — and their
embeddings, and the relations between them.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from memvault.access import may, require_privileged
from memvault.erasure_fence import ErasureFence, exporting, exports_running
from memvault.model import Memory, Relation
from memvault.recall.exchange_vectors import ExportedVectors
from memvault.store.base import (
    AuditEntry,
    CachedChunk,
    MemoryQuery,
    Store,
    StoredConversation,
    StoredEmbedding,
)
from memvault.vault_inputs import is_privileged

__all__ = ["ExportView"]

#: What exports keep per vault between calls (`ExportView.keep`), gone with the store.
_KEPT: weakref.WeakKeyDictionary[Store, dict[Hashable, Any]] = weakref.WeakKeyDictionary()


class ExportView:
    def __init__(self, store: Store, actor: str) -> None:
        self._store = store
        self.actor = actor
        self._everything = is_privileged(actor)
        self._vectors = ExportedVectors(store)

    def _readable(self, memory: Memory) -> bool:
        return self._everything or may(memory, self.actor, "read")

    def erasure_fence(self) -> ErasureFence:
        """Taken before the export's first read: its output is published only if no erasure
        committed meanwhile (`memvault.erasure_fence`, AIMEM §5.2)."""
        return ErasureFence(self._store)

    def exporting(self) -> AbstractContextManager[None]:
        """Hold the vault's erasure gate shared for the export's whole run: erasures of this
        process wait for it (`memvault.erasure_fence.exporting`, AIMEM §5.2)."""
        return exporting(self._store)

    def exports_running(self) -> int:
        """How many exports of this vault are under way in this process
        (`memvault.erasure_fence.exports_running`)."""
        return exports_running(self._store)

    def holding_writes(self) -> AbstractContextManager[None]:
        """The vault's write lock (a transaction) for the block: no erasure of any process
        commits meanwhile (an export's last attempt, `memvault.erasure_fence`)."""
        return self._store.transaction()

    def count_memories(self, query: MemoryQuery) -> int:
        """How many memories `query` matches in the vault (the owner's count: an export
        tells how many it withheld only to the owner)."""
        return self._store.count_memories(query)

    def iter_memories(self, query: MemoryQuery) -> Iterator[Memory]:
        """Every memory `query` matches that the actor may read, streamed."""
        return (s.memory for s in self._store.iter_memories(query) if self._readable(s.memory))

    def memories(self, memory_ids: Sequence[str]) -> list[Memory]:
        """The memories of `memory_ids` the vault holds and the actor may read, in order."""
        found = (s.memory for s in self._store.get_memories(memory_ids))
        return [memory for memory in found if self._readable(memory)]

    def memory(self, memory_id: str) -> Memory | None:
        stored = self._store.get_memory(memory_id)
        return None if stored is None or not self._readable(stored.memory) else stored.memory

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """id -> content hash of those of `memory_ids` the actor may read."""
        if self._everything:
            return self._store.existing_ids(memory_ids)
        return {m.id: m.content_hash for m in self.memories(list(memory_ids))}

    def embedding(self, memory_id: str) -> StoredEmbedding | None:
        """A memory's embedding, with the access of its content (AIMEM §5.5): its recall
        vector of the vault's model, else the one kept as imported
        (`memvault.recall.exchange_vectors`)."""
        if not self._everything and self.memory(memory_id) is None:
            return None

        def memory_time() -> str:
            # Only an embedding exported under a new id needs it: one more read then.
            memory = self.memory(memory_id)
            if memory is None:
                return ""
            updated = memory.temporal.updated_at
            return updated if isinstance(updated, str) else memory.temporal.created_at

        kept = self._store.get_embedding(memory_id)
        return self._vectors.embedding(memory_id, memory_time, kept)

    def cached_chunks(
        self, query: MemoryQuery, producer: str
    ) -> tuple[int, Iterator[tuple[str, CachedChunk | None]]] | None:
        """The memories `query` matches with their kept AIMEM chunks (`Store.export_chunk_rows`)
        and the generation to keep new ones under; None when the store keeps none or the
        actor is not the owner (an agent's export maps what it may read, every time)."""
        if not self._everything:
            return None
        generation = self._store.export_cache_generation()
        if generation is None:
            return None
        rows = self._store.export_chunk_rows(query, producer, with_bytes=False)
        return None if rows is None else (generation, rows)

    def cached_chunk_bytes(self, producer: str, memory_ids: Sequence[str]) -> dict[str, bytes]:
        """The kept chunks' bytes of `memory_ids` (`cached_chunks` leaves them out: an
        export reads them a window at a time, as it writes them)."""
        if not self._everything or not memory_ids:
            return {}
        return self._store.export_chunk_bytes(producer, memory_ids)

    def chunks_in_order(
        self, query: MemoryQuery, producer: str, *, after: int = 0
    ) -> Iterator[list[tuple[Any, ...]]] | None:
        """`Store.export_chunks_in_order` for the owner's export (None for an agent's, or
        when the store keeps no chunks)."""
        if not self._everything:
            return None
        return self._store.export_chunks_in_order(query, producer, after=after)

    def graph_generation(self) -> int | None:
        """`Store.export_graph_generation` (None for an agent's export)."""
        return self._store.export_graph_generation() if self._everything else None

    def export_state(self) -> tuple[int, ...] | None:
        """`Store.export_state` for the owner's export (None for an agent's, or when the
        store cannot tell): equal values, the same memories and relations."""
        return self._store.export_state() if self._everything else None

    def kept(self, key: Hashable) -> Any:
        """What `keep` kept under `key` for this vault (its store), or None."""
        return _KEPT.get(self._store, {}).get(key)

    def keep(self, key: Hashable, value: Any) -> None:
        """Keep `value` under `key` for this vault while its store is open (in this
        process). What it replaces is not closed here: a response may still read it."""
        _KEPT.setdefault(self._store, {})[key] = value

    def keep_chunks(self, producer: str, chunks: Sequence[CachedChunk], generation: int) -> None:
        """Keep the chunks an export wrote, unless the vault changed since `generation`."""
        if self._everything and chunks:
            self._store.put_export_chunks(producer, chunks, generation)

    def map_pending(self, *, windows: int | None = None) -> int:
        """Map and keep the chunks of the memories written since theirs was kept, for the
        owner's export (`memvault.export_chunks.map_pending`, at most `windows` windows of
        them); how many were."""
        if not self._everything:
            return 0
        from memvault.export_chunks import map_pending

        return map_pending(self._store, windows=windows)

    def pending_count(self) -> int:
        """How many memories wait for `map_pending` (0 for an agent: its export maps all)."""
        if not self._everything:
            return 0
        from memvault.export_chunks import pending_count

        return pending_count(self._store)

    def relations(self) -> Iterator[Relation]:
        return (r for r in self._store.iter_relations() if self._between_readable(r))

    def relations_of(self, memory_id: str) -> list[Relation]:
        return [r for r in self._store.relations_of(memory_id) if self._between_readable(r)]

    def _between_readable(self, relation: Relation) -> bool:
        return self._everything or len(self.existing_ids([relation.from_, relation.to])) == 2

    def conversation(self, conversation_id: str) -> StoredConversation | None:
        require_privileged(self.actor, f"read conversation {conversation_id!r}")
        return self._store.get_conversation(conversation_id)

    def audit_since(self, since: str) -> Iterator[AuditEntry]:
        """Audit entries at or after `since` (UTC ``YYYY-MM-DDTHH:MM:SSZ``: text order is
        time order), for an incremental export (PAM §16)."""
        require_privileged(self.actor, "read the audit log")
        return (entry for entry in self._store.iter_audit() if entry.at >= since)
