"""A unit of work: many writes to the vault in one transaction, their audit entries batched.

    with vault.unit_of_work(now=moment) as work:     # as the session's actor
        added = work.add_memories(memories)                      # Vault.add_memories
        merged = work.merge_memory(stored, incoming, MergePolicy("import"))
        work.put_relations(relations, via="import")
        work.put_embedding(embedding, via="import")
        work.put_conversations(conversations, index_entries=True)

This is how a bulk writer (the PAM and AIMEM imports) changes the vault without touching its
store: every write checks the actor as the single-memory methods do (`memvault.access`,
docs/access.md), and the entries it owes the audit log are appended once, at the end, inside
the same transaction — all of it is applied, or (on any error) none of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Literal

from memvault.access import require_change, require_privileged, require_stored
from memvault.audit import AuditBatch, PendingEntry
from memvault.audit_entries import embedding_entry, relation_entry
from memvault.canonical import jcs_dumps
from memvault.conversation_merge import PutOutcome
from memvault.errors import InvalidInput
from memvault.model import Access, Memory, Relation, parse_timestamp
from memvault.recall.exchange_vectors import into_recall
from memvault.store.base import (
    NewMemoryRow,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
)
from memvault.store.codec import memory_to_json
from memvault.vault_inputs import is_privileged

if TYPE_CHECKING:
    from memvault.vault import BatchResult, Vault

__all__ = [
    "EXCHANGE_META",
    "FINAL_STATUSES",
    "MergeOutcome",
    "MergePolicy",
    "Merged",
    "RelationsPut",
    "UnitOfWork",
    "decay_anchor_of",
    "open_unit",
]

#: Statuses a memory does not leave by an import (PAM §7.1).
FINAL_STATUSES: Final = frozenset({"retracted", "archived"})
#: Vault-wide settings of the exchange kept in the vault's meta table (`Vault.exchange_meta`).
EXCHANGE_META: Final = frozenset({"aimem.producer", "aimem.embedding_models"})
#: Families of such settings, one key per peer: a sync's cursors per remote (`memvault.sync`).
EXCHANGE_META_PREFIXES: Final = ("sync.",)

MergeOutcome = Literal["updated", "unchanged", "final", "older", "duplicate"]


@dataclass(frozen=True, slots=True)
class MergePolicy:
    """How an incoming copy of a stored memory (same id) is merged into it.

    - `via`: what the audit entry of an update names as its source ("import", "aimem");
    - `newer_only`: apply the copy only when its own timestamps are later than the stored
      memory's (a full PAM export); False applies any copy that differs (a delta, PAM §16.3);
    - `final_always_kept`: a memory in a final state (retracted, archived) is kept even against
      a copy of the same status; by default only a copy that would change the status is kept;
    - `list_changed`: the update's audit entry lists the changed top-level fields.
    """

    via: str
    newer_only: bool = True
    final_always_kept: bool = False
    list_changed: bool = True


@dataclass(frozen=True, slots=True)
class Merged:
    """What `UnitOfWork.merge_memory` did: `outcome` "updated" (stored as `memory`),
    "unchanged", "final" (kept: the stored one is retracted or archived), "older" (kept: the
    stored one is newer) or "duplicate" (not applied: active memory `twin` has that content,
    PAM §6 — the caller decides whether that refuses the import or one record)."""

    outcome: MergeOutcome
    memory: Memory
    twin: str | None = None


@dataclass(frozen=True, slots=True)
class RelationsPut:
    """What `UnitOfWork.put_relations` did: `added` relations stored (new or re-weighted),
    `skipped` ones with an end the vault does not hold, or both ends one memory."""

    added: int
    skipped: int


def decay_anchor_of(memory: Memory) -> float | None:
    """The confidence decay starts from (`confidence.initial`, else `current`)."""
    conf = memory.confidence
    for value in (getattr(conf, "initial", None), getattr(conf, "current", None)):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def _last_change(memory: Memory) -> datetime | None:
    for text in (memory.temporal.updated_at, memory.temporal.created_at):
        if isinstance(text, str):
            try:
                return parse_timestamp(text)
            except ValueError:
                continue
    return None


def _newer(incoming: Memory, current: Memory) -> bool:
    a, b = _last_change(incoming), _last_change(current)
    return a is not None and (b is None or a > b)


def keep_local_privacy(current: Memory, incoming: Memory) -> Memory:
    """A memory the owner marked exportable: false here stays so, whatever the sender says."""
    if not isinstance(current.access, Access) or current.access.is_exportable:
        return incoming
    access = incoming.access if isinstance(incoming.access, Access) else Access()
    return incoming.evolve(access=access.evolve(exportable=False))


def _changed_fields(old: Memory, new: Memory) -> list[str]:
    a, b = memory_to_json(old), memory_to_json(new)
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


class UnitOfWork:
    """Writes for one actor at one moment, in the transaction `Vault.unit_of_work` opened.
    Reads here are the bookkeeping the writes need (which ids exist, the stored copy to
    merge into); they are not handed to the actor."""

    def __init__(self, vault: Vault, store: Store, actor: str, moment: datetime) -> None:
        from memvault.vault import format_timestamp

        self._vault = vault
        self._store = store
        self.actor = actor
        self.moment = moment
        self.at = format_timestamp(moment)
        self._audit = AuditBatch(store, self.at)
        #: an agent: creates memories, changes only what it may write (docs/access.md)
        self.restricted = not is_privileged(actor)
        #: imported vectors taken into the recall index, and those kept as received by
        #: "model (dimension)" (`memvault.recall.exchange_vectors`)
        self.vectors_recalled = 0
        self.vectors_kept: dict[str, int] = {}

    # -- audit ----------------------------------------------------------------------------

    def note(self, entry: PendingEntry) -> None:
        """An audit entry of this unit's own (a decision it logs, AIMEM §5.3)."""
        self._audit.append(entry)

    def flush(self) -> None:
        """Append the audit entries gathered so far (in order, before a write that appends
        its own)."""
        self._audit.flush()

    # -- memories -------------------------------------------------------------------------

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """id -> content hash, for those of `memory_ids` the vault holds."""
        return self._store.existing_ids(memory_ids)

    def stored_memories(self, memory_ids: Sequence[str]) -> dict[str, StoredMemory]:
        """id -> the stored memory, for those of `memory_ids` the vault holds."""
        return {s.memory.id: s for s in self._store.get_memories(memory_ids)}

    def add_memories(self, memories: Iterable[Memory]) -> BatchResult:
        """`Vault.add_memories`, inside this unit (dedup, PAM §6; checks; audited)."""
        return self._vault.add_memories(memories, now=self.moment)

    def add_memory_documents(
        self, memories: Sequence[Mapping[str, Any]], *, hashed: bool = False
    ) -> BatchResult | None:
        """New memories given as PAM JSON objects, written as `add_memories` would write them
        but without `Memory` objects (`memvault.memory_rows`), when every one is plainly new
        and the actor is the owner: else None, with nothing written, and the caller gives
        them to `add_memories` (which reinforces, or names the error, as always). `hashed`:
        the caller computed each content hash from its content just now (PAM §6)."""
        if self.restricted:
            return None
        from memvault.memory_rows import add_documents

        return add_documents(self._store, self.actor, self.at, memories, hashed=hashed)

    def add_memory_rows(self, rows: Sequence[NewMemoryRow]) -> BatchResult | None:
        """`add_memory_documents` for memories already made into rows from documents the
        caller checked against the PAM memory schema (`memory_rows.add_rows`): None, with
        nothing written, for anything not plainly new, or an agent's session."""
        if self.restricted:
            return None
        from memvault.memory_rows import add_rows

        return add_rows(self._store, self.actor, self.at, rows)

    def merge_memory(
        self,
        stored: StoredMemory,
        incoming: Memory,
        policy: MergePolicy,
        details: Mapping[str, Any] | None = None,
    ) -> Merged:
        """Merge an incoming copy of a stored memory (same id) by `policy` (see `MergePolicy`,
        PAM §16.3, AIMEM §2.9): the owner's `exportable: false` is kept, a final state is
        kept, one active memory per fact (PAM §6). An update needs the actor's write grant
        and leaves the access block to the owner (AccessDenied otherwise). `details` go into
        the update's audit entry."""
        current = stored.memory
        incoming = keep_local_privacy(current, incoming)
        if jcs_dumps(memory_to_json(current)) == jcs_dumps(memory_to_json(incoming)):
            return Merged("unchanged", current)
        status, new_status = current.effective_status, incoming.effective_status
        if status in FINAL_STATUSES and (policy.final_always_kept or new_status != status):
            return Merged("final", current)
        if policy.newer_only and not _newer(incoming, current):
            return Merged("older", current)
        if new_status == "active" and incoming.content_hash != current.content_hash:
            for twin in self._store.find_by_content_hash(incoming.content_hash):
                if twin.memory.id != current.id and twin.memory.effective_status == "active":
                    return Merged("duplicate", current, twin.memory.id)
        require_change(current, incoming, self.actor)
        self._store.update_memory(StoredMemory(incoming, decay_anchor_of(incoming)))
        entry: dict[str, Any] = {}
        if policy.list_changed:
            entry["changed"] = _changed_fields(current, incoming)
        entry["via"] = policy.via
        entry.update(details or {})
        if incoming.content_hash != current.content_hash:
            entry["previous_content_hash"] = current.content_hash
        self._audit.append(
            PendingEntry("update", self.actor, incoming.id, incoming.content_hash, entry)
        )
        return Merged("updated", incoming)

    # -- relations ------------------------------------------------------------------------

    def put_relations(self, relations: Sequence[Relation], *, via: str) -> RelationsPut:
        """Store relations between memories the vault holds (PAM §13): a new one is
        inserted, one with a stored id and other values replaces it, one the vault has (same
        id, or the same edge under another id) is left alone. An agent needs write on the
        source and read on the target (`Vault.relate`)."""
        if not relations:
            return RelationsPut(0, 0)
        hashes = self._store.existing_ids(sorted({e for r in relations for e in (r.from_, r.to)}))
        # A vault without relations (a first import) need not be asked about each one.
        had_relations = bool(self._store.relation_stats())
        added_ids: set[str] = set()
        added_edges: set[tuple[str, str, str]] = set()
        skipped = added = 0
        for relation in relations:
            source, target = relation.from_, relation.to
            if source not in hashes or target not in hashes or source == target:
                skipped += 1
                continue
            edge = (source, target, relation.type)
            if relation.id in added_ids or edge in added_edges:
                continue
            existing = self._store.relations_of(source) if had_relations else []
            same_id = next((r for r in existing if r.id == relation.id), None)
            if same_id is not None:
                if same_id == relation:
                    continue
                self._require_relation(source, target)
                self._store.update_relation(relation)
            elif any((r.from_, r.to, r.type) == edge for r in existing):
                continue  # the vault already has this edge (under another id)
            else:
                self._require_relation(source, target)
                self._store.insert_relation(relation)
            added_ids.add(relation.id)
            added_edges.add(edge)
            self._audit.append(relation_entry(relation, hashes[source], self.actor, via))
            added += 1
        return RelationsPut(added, skipped)

    def _require_relation(self, source: str, target: str) -> None:
        if self.restricted:
            require_stored(self._store, source, self.actor, "write", "relate")
            require_stored(self._store, target, self.actor, "read", "relate to")

    # -- embeddings -----------------------------------------------------------------------

    def put_embedding(
        self, embedding: StoredEmbedding, *, via: str | None = None, content_hash: str | None = None
    ) -> bool:
        """`Vault.put_embedding` with the audit entry batched: True when stored, False when
        the vault holds this one already. `content_hash`: the memory's, when the caller
        knows it."""
        memory_id = embedding.memory_id
        if self._store.get_embedding(memory_id) == embedding:
            return False
        require_stored(self._store, memory_id, self.actor, "write", "embed")
        if content_hash is None:
            content_hash = self._store.existing_ids([memory_id]).get(memory_id)
        self._store.put_embedding(embedding)
        self._audit.append(embedding_entry(embedding, memory_id, content_hash, self.actor, via))
        if into_recall(self._store, embedding):
            self.vectors_recalled += 1
        else:
            key = f"{embedding.model} ({embedding.dimensions})"
            self.vectors_kept[key] = self.vectors_kept.get(key, 0) + 1
        return True

    # -- conversations --------------------------------------------------------------------

    def put_conversations(
        self, conversations: Iterable[StoredConversation], *, index_entries: bool = False
    ) -> list[PutOutcome]:
        """`Vault.put_conversations`, inside this unit (the entries gathered so far are
        appended first, so the log keeps the order of the writes)."""
        require_privileged(self.actor, "import conversations")
        self._audit.flush()
        return self._vault.put_conversations(
            conversations, index_entries=index_entries, now=self.moment
        )

    # -- exports and the exchange's own state ---------------------------------------------

    def known_exports(self) -> set[str]:
        """The ids of the exports the vault made or took in (bookkeeping: an agent may not
        list the registry, but its import is still matched against it)."""
        return {r.export_id for r in self._store.list_exports()}

    def set_exchange_meta(self, key: str, value: str) -> None:
        """Set a vault-wide exchange setting (`EXCHANGE_META`)."""
        _check_meta_key(key)
        self._store.set_meta(key, value)

    def chunk_digests(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """memory id -> digest of the AIMEM chunk it was imported from (AIMEM §2.9)."""
        return self._store.chunk_digests(memory_ids)

    def put_chunk_digests(self, digests: Mapping[str, str]) -> None:
        """Record the chunks memories were imported from; they go with the memory."""
        if digests:
            self._store.put_chunk_digests(digests)

    def aliases(self, incoming_ids: Iterable[str]) -> dict[str, str]:
        """incoming id -> the memory it was merged into when first imported (PAM §6)."""
        return self._store.aliases(incoming_ids)

    def put_aliases(self, aliases: Mapping[str, str]) -> None:
        """Record incoming ids merged into stored memories; they go with either memory."""
        if aliases:
            self._store.put_aliases(aliases)


def _check_meta_key(key: str) -> None:
    if key not in EXCHANGE_META and not key.startswith(EXCHANGE_META_PREFIXES):
        known = ", ".join(sorted(EXCHANGE_META))
        raise InvalidInput(f"{key!r} is not an exchange setting (one of {known})", "key")


@contextmanager
def open_unit(
    vault: Vault, store: Store, actor: str, moment: datetime, *, bulk: bool = False
) -> Iterator[UnitOfWork]:
    """`Vault.unit_of_work`: the transaction, and the audit entries appended at its end."""
    with store.transaction(), store.bulk_writes() if bulk else nullcontext():
        work = UnitOfWork(vault, store, actor, moment)
        yield work
        work.flush()


def exchange_meta(store: Store, key: str) -> str | None:
    """`Vault.exchange_meta`: a vault-wide exchange setting, or None."""
    _check_meta_key(key)
    return store.get_meta(key)
