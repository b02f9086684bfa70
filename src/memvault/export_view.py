"""What an export reads from the vault, on behalf of one actor (`Vault.export_view`).

An exporter streams the whole vault, so it reads in bulk (memories by the thousand, relations
and embeddings as it writes each memory) rather than through the one-memory methods; it still
reads through the vault: conversations and the audit log are the owner's (AccessDenied for an
agent, docs/access.md), and what an agent may read of the memories is for the exporter to
filter with `memvault.access.may` as it writes (PAM §9).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from memvault.access import require_privileged
from memvault.model import Memory, Relation
from memvault.store.base import AuditEntry, MemoryQuery, Store, StoredConversation, StoredEmbedding

__all__ = ["ExportView"]


class ExportView:
    def __init__(self, store: Store, actor: str) -> None:
        self._store = store
        self.actor = actor

    def count_memories(self, query: MemoryQuery) -> int:
        return self._store.count_memories(query)

    def iter_memories(self, query: MemoryQuery) -> Iterator[Memory]:
        """Every memory `query` matches, streamed (not filtered for the actor)."""
        return (stored.memory for stored in self._store.iter_memories(query))

    def memories(self, memory_ids: Sequence[str]) -> list[Memory]:
        """The memories of `memory_ids` the vault holds, in that order."""
        return [stored.memory for stored in self._store.get_memories(memory_ids)]

    def memory(self, memory_id: str) -> Memory | None:
        stored = self._store.get_memory(memory_id)
        return None if stored is None else stored.memory

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        return self._store.existing_ids(memory_ids)

    def embedding(self, memory_id: str) -> StoredEmbedding | None:
        return self._store.get_embedding(memory_id)

    def relations(self) -> Iterator[Relation]:
        return self._store.iter_relations()

    def relations_of(self, memory_id: str) -> list[Relation]:
        return self._store.relations_of(memory_id)

    def conversation(self, conversation_id: str) -> StoredConversation | None:
        require_privileged(self.actor, f"read conversation {conversation_id!r}")
        return self._store.get_conversation(conversation_id)

    def audit_since(self, since: str) -> Iterator[AuditEntry]:
        """Audit entries at or after `since` (UTC ``YYYY-MM-DDTHH:MM:SSZ``: text order is
        time order), for an incremental export (PAM §16)."""
        require_privileged(self.actor, "read the audit log")
        return (entry for entry in self._store.iter_audit() if entry.at >= since)
