"""The storage contract: everything the vault needs from a database, and nothing more.

The vault (`memvault.vault`) holds every business rule — lifecycle, dedup, access control,
decay, the audit chain. A store only keeps and finds rows, inside transactions, so that the
embedded SQLite store and a PostgreSQL store can stand behind the same vault unchanged.

Nothing outside `memvault.store` names a backend: stores are made by `memvault.store.open_store`
and `create_store`, and what one backend does faster than another is a method here (batched
inserts, id sets, audit queries), with a plain default built on the abstract methods that a
backend overrides with its best way. docs/vault.md, "Storage contract".

Memories are kept as the PAM memory object (`memvault.model.Memory`) plus a little internal
state (`StoredMemory`); timestamps in filters are timezone-aware datetimes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

import orjson

from memvault.errors import HTTP_CONFLICT, HTTP_FORBIDDEN, VaultError
from memvault.model import Memory, Owner, Relation
from memvault.recall.indexes import RecallIndex


class StoreError(VaultError):
    """A storage failure the user can act on (message says what and where)."""


class StoreUnavailable(StoreError):
    """The database could not be reached, or dropped the connection (a server restarting): the
    transaction rolled back (or, lost during its commit, committed whole), and the same request
    may succeed in a moment (HTTP 503 with ``Retry-After: retry_after``)."""

    http_status = 503
    #: Seconds a client should wait before it tries again.
    retry_after = 1


class StoreFull(StoreError):
    """The disk holding the database is full (or failing): the transaction was rolled back.
    HTTP 507 Insufficient Storage."""

    http_status = 507


class WrongPassphrase(StoreError):
    """The vault exists but the key does not open it."""

    http_status = HTTP_FORBIDDEN


class IntegrityViolation(StoreError):
    """A write broke a uniqueness or reference constraint (e.g. a duplicate id)."""

    http_status = HTTP_CONFLICT


#: What `Store.memory_stats` groups by, and the SQL of each: a custom memory counts under
#: ``custom:<custom_type>`` (PAM §6), as `memvault inspect` names it.
MEMORY_STAT_COLUMNS: Final = {
    "type": "CASE WHEN type = 'custom' AND custom_type IS NOT NULL "
    "THEN 'custom:' || custom_type ELSE type END",
    "status": "status",
    "platform": "platform",
    "extraction_method": "extraction_method",
}


@dataclass(frozen=True, slots=True)
class StoredMemory:
    """A memory as the vault keeps it.

    `decay_anchor` is the confidence the memory had when last reinforced; decay (PAM §8) is
    computed from it and `confidence.last_reinforced`, and reinforcement resets it. It is
    internal: exports carry only the PAM `confidence` block.

    `document`, when set, is ``memory.to_json()`` already serialized as compact JSON (a caller
    that had to build it anyway saves the store from doing it again); it must describe exactly
    `memory`. Stores may ignore it.
    """

    memory: Memory
    decay_anchor: float | None = None
    document: str | None = field(default=None, compare=False, repr=False)


class NewMemoryRow(NamedTuple):
    """A new memory as the stores keep it, made by the vault straight from its PAM JSON
    (`memvault.memory_rows`), without a `Memory` object: the values of its columns, its
    distinct tags, its document (compact JSON text, exactly what `StoredMemory.document`
    would hold) and what its recall passage needs besides its row key."""

    id: str
    type: str
    custom_type: str | None
    status: str
    content_hash: str
    platform: str
    extraction_method: str | None
    created_epoch: float
    updated_epoch: float | None
    exportable: int
    visibility: str
    decay_anchor: float | None
    tags: list[str]
    document: str
    #: the recall passage: the conversation it came from, its time, its text, its context
    conversation_id: str | None
    at_epoch: float | None
    text: str
    context: str


@dataclass(frozen=True, slots=True)
class MemoryQuery:
    """Filters for listing memories. Empty tuples mean "any"; `statuses=None` means any status.

    Every filter narrows the result (AND); several values in one filter are alternatives (OR),
    except `tags`, which must all be present.
    """

    ids: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    custom_types: tuple[str, ...] = ()
    statuses: tuple[str, ...] | None = ("active",)
    tags: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()
    extraction_methods: tuple[str, ...] = ()
    created_since: datetime | None = None
    created_until: datetime | None = None
    updated_since: datetime | None = None
    exportable_only: bool = False
    #: bounds (inclusive) on the stored `confidence.current` (PAM §8): the value the last
    #: decay run wrote, the one lists show and exports carry — not one decayed to this
    #: moment. A memory without a numeric `confidence.current` matches no bound.
    min_confidence: float | None = None
    max_confidence: float | None = None
    #: only memories this agent entity may read (PAM §9): visibility "public", or "shared"
    #: with a grant to the entity that includes "read". None: no access filter (the owner).
    readable_by: str | None = None
    #: full-text query (FTS); with `text`, results are ordered by relevance unless `order` says
    text: str | None = None
    order: Literal["created", "-created", "updated", "-updated", "relevance"] = "-created"
    limit: int | None = 50
    offset: int = 0


@dataclass(frozen=True, slots=True)
class SearchHit:
    memory: StoredMemory
    #: higher is better; comparable only within one result list
    score: float


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One link of the tamper-evident audit chain. Never holds memory content, only ids and
    content hashes (AIMEM §5.2: an auditor learns *that* something happened, not *what*)."""

    seq: int
    at: str
    actor: str
    action: str
    memory_id: str | None
    content_hash: str | None
    details: Mapping[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class ExportRecord:
    """An export the vault made or an import it took in (PAM §16 needs the base export)."""

    export_id: str
    direction: Literal["exported", "imported"]
    export_type: Literal["full", "incremental"]
    at: str
    format: str = "pam"
    base_export_id: str | None = None
    since: str | None = None
    checksum: str | None = None
    memory_count: int = 0
    path: str | None = None


@dataclass(frozen=True, slots=True)
class KeyRecord:
    """A signing key. `private_key` is stored inside the encrypted database."""

    key_id: str
    algorithm: str
    public_key: bytes
    private_key: bytes | None
    created_at: str
    did: str | None = None


@dataclass(frozen=True, slots=True)
class CachedChunk:
    """A memory's AIMEM chunk as an export wrote it (RFC 8785 bytes, `canonical`), and what
    those bytes depended on: the chunk id, the graph it carried (`graph`, canonical JSON), the
    memory ids it named (`refs`: superseded_by, edge targets), whether the memory is
    DNA-class and exportable, and its ``metadata.aimem`` block (`block`, JSON, or None)."""

    memory_id: str
    chunk_id: str
    graph: bytes
    refs: tuple[str, ...]
    dna: bool
    exportable: bool
    block: bytes | None
    canonical: bytes


@dataclass(frozen=True, slots=True)
class StoredEmbedding:
    id: str
    memory_id: str
    model: str
    dimensions: int
    created_at: str
    #: little-endian float32
    vector: bytes | None
    storage: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    """A stored conversation without its document: what a list of conversations shows."""

    id: str
    platform: str
    title: str | None
    created_at: str | None
    updated_at: str | None
    message_count: int


@dataclass(frozen=True, slots=True)
class StoredConversation:
    """A PAM normalized conversation (§25) as a JSON document; messages are part of it."""

    id: str
    platform: str
    document: Mapping[str, Any]
    title: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    message_count: int = 0
    extra_index: Mapping[str, Any] = field(default_factory=dict)


class Store(ABC):
    """A database behind the vault. All writes happen inside `transaction()`."""

    # -- lifecycle ------------------------------------------------------------------------

    @abstractmethod
    def close(self) -> None: ...

    def release_memory(self) -> int:
        """Give back what the store's idle connections hold between requests (a server
        calls it once a large request is done); bytes released, where the store can tell.
        Nothing a later call needs is lost: it is read or prepared again."""
        return 0

    @abstractmethod
    def transaction(self, *, savepoints: bool = True) -> AbstractContextManager[None]:
        """A write transaction: all of it or nothing. One writer at a time; other writers
        wait (up to the busy timeout); readers on other threads never wait for it. Reads on
        the thread that holds it see its uncommitted writes. Nesting is allowed and joins the
        outer transaction; a failure inside a nested one that the caller catches undoes only
        the nested part — unless an enclosing one was opened with ``savepoints=False``, which
        promises that every failure inside ends the whole transaction (a batch write), so the
        backend may skip the bookkeeping for partial undo."""

    def writing(self) -> bool:
        """Whether this thread has a write transaction open on the store (a call made inside
        one joins it instead of waiting for other work first)."""
        return False

    def bulk_writes(self) -> AbstractContextManager[None]:
        """A scope for writing many rows that are written once and not read back (an
        import's conversations): a backend may hold its caches smaller meanwhile."""
        return nullcontext()

    def recall_index(self) -> AbstractContextManager[RecallIndex]:
        """The store's recall index (`memvault.recall.indexes`) for one block: inside the
        caller's transaction its writes join it; outside, its reads never wait behind another
        thread's write. A backend that keeps no recall index says so."""
        raise StoreError(f"{type(self).__name__} keeps no recall index, so it cannot recall")

    def vectors_unavailable(self) -> str | None:
        """Why the recall index keeps no vectors (recall is then full text only), or None
        when it keeps them."""
        return None

    @property
    def kdf_iter(self) -> int | None:
        """Key-derivation iterations of an encrypted store (the vault's "init" audit entry
        records them); None when the backend derives no key from a passphrase."""
        return None

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The migration level of the open database."""

    # -- settings and owner ---------------------------------------------------------------

    @abstractmethod
    def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    def delete_meta(self, keys: Iterable[str]) -> int:
        """Remove these meta keys (absent ones are ignored); returns how many were there."""

    @abstractmethod
    def meta_keys(self, prefix: str, *, value: str | None = None) -> list[str]:
        """The meta keys starting with `prefix` (only those holding `value`, if given)."""

    @abstractmethod
    def get_owner(self) -> Owner | None: ...

    @abstractmethod
    def set_owner(self, owner: Owner) -> None: ...

    # -- memories ---------------------------------------------------------------------------

    @abstractmethod
    def insert_memories(self, memories: Iterable[StoredMemory]) -> int:
        """Insert new memories; an existing id raises IntegrityViolation. Returns the count."""

    @abstractmethod
    def update_memory(self, memory: StoredMemory) -> None:
        """Replace a memory with the same id (it must exist)."""

    def update_memories(self, memories: Iterable[StoredMemory]) -> int:
        """Replace many memories (each must exist); returns the count. Backends batch this."""
        count = 0
        for memory in memories:
            self.update_memory(memory)
            count += 1
        return count

    @abstractmethod
    def get_memory(self, memory_id: str) -> StoredMemory | None: ...

    @abstractmethod
    def get_memories(self, memory_ids: Sequence[str]) -> list[StoredMemory]:
        """The memories with these ids, in the given order; unknown ids are skipped."""

    @abstractmethod
    def ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Memory ids starting with `prefix` (for git-like abbreviations)."""

    def readable_ids_with_prefix(self, prefix: str, reader: str, limit: int = 10) -> list[str]:
        """Memory ids starting with `prefix` among those the agent `reader` may read (PAM §9:
        public, or shared with it with ``read``), in id order: an agent's abbreviations never
        tell it that a memory it may not read exists. This default filters the readable ids;
        a backend answers from its indexes."""
        query = MemoryQuery(statuses=None, readable_by=reader, limit=None)
        return sorted(i for i in self.memory_ids(query) if i.startswith(prefix))[:limit]

    @abstractmethod
    def find_by_content_hash(self, content_hash: str) -> list[StoredMemory]: ...

    def find_by_content_hashes(
        self, content_hashes: Iterable[str], statuses: tuple[str, ...] | None = None
    ) -> dict[str, list[StoredMemory]]:
        """Memories by content hash, for many hashes at once (batch dedup); only the given
        statuses when `statuses` is set. Hashes without a memory are absent from the result."""
        found: dict[str, list[StoredMemory]] = {}
        for content_hash in set(content_hashes):
            hits = [
                m
                for m in self.find_by_content_hash(content_hash)
                if statuses is None or m.memory.effective_status in statuses
            ]
            if hits:
                found[content_hash] = hits
        return found

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """Of these ids, the ones that exist, with their content hash."""
        return {m.memory.id: m.memory.content_hash for m in self.get_memories(list(memory_ids))}

    def memory_ids(self, query: MemoryQuery) -> list[str]:
        """The ids of every matching memory, in storage order (limit, offset and text are
        ignored): a cheap snapshot for work done in chunks. Backends answer from an index."""
        return [s.memory.id for s in self.iter_memories(query)]

    def memory_hashes(self) -> Iterator[tuple[str, str]]:
        """(id, content_hash) of every memory, any status (for audit cross-checks)."""
        for stored in self.iter_memories(MemoryQuery(statuses=None)):
            yield stored.memory.id, stored.memory.content_hash

    def insert_memory_batches(self, batches: Iterable[Sequence[StoredMemory]]) -> int:
        """Insert the memories of each batch (as `insert_memories`), in order, inside the
        caller's transaction; returns the count. `batches` is consumed lazily, so a backend
        may write one batch while the caller's generator checks and builds the next."""
        return sum(self.insert_memories(batch) for batch in batches)

    def insert_memory_rows(self, batches: Iterable[Sequence[NewMemoryRow]]) -> int:
        """`insert_memory_batches` for memories the vault made rows of straight from their
        PAM JSON (`NewMemoryRow`: checked, new, no agent's grants to add). This default reads
        each document back into a `Memory`; a backend writes the rows as they are."""
        from memvault.store.codec import load_memory

        return self.insert_memory_batches(
            [StoredMemory(load_memory(row.document), row.decay_anchor, row.document) for row in b]
            for b in batches
        )

    @abstractmethod
    def query_memories(self, query: MemoryQuery) -> list[StoredMemory]: ...

    @abstractmethod
    def count_memories(self, query: MemoryQuery) -> int:
        """How many memories match, ignoring limit and offset."""

    @abstractmethod
    def search(self, query: MemoryQuery) -> list[SearchHit]:
        """Full-text search on content, summary and tags (query.text), with the filters.
        Diacritics are folded, so "acao" finds "ação"."""

    @abstractmethod
    def iter_memories(self, query: MemoryQuery, batch: int = 1000) -> Iterator[StoredMemory]:
        """Every matching memory, fetched in batches (for exports and decay)."""

    @abstractmethod
    def delete_memory(self, memory_id: str) -> bool:
        """Physically delete (erasure only — lifecycle changes never delete). Also removes
        its relations, embeddings and full-text entry. Returns whether it existed."""

    @abstractmethod
    def delete_conversation(self, conversation_id: str) -> dict[str, int] | None:
        """Physically delete a conversation (erasure only) with its messages and everything
        indexed from them: recall passages, their full-text entries and vectors. Memories
        derived from it are not touched. Returns the counts ``{"messages", "passages",
        "vectors"}``, or None when there is no such conversation. A backend without a recall
        index counts 0 passages and vectors."""

    @abstractmethod
    def erase_everything(self) -> dict[str, int]:
        """Physically delete every memory, relation, conversation, embedding, recall passage
        and vector, every piece of per-memory exchange state and the export registry, in one
        transaction, for a store that cannot simply be deleted (a tenant's rows in a shared
        database; a personal vault emptied in place). What describes the vault rather than
        its data stays: the owner, signing keys, settings (meta) and the audit log (ids and
        content hashes, never content: AIMEM §5.2). Returns the counts of what was deleted:
        ``{"memories", "relations", "conversations", "messages", "passages", "vectors",
        "embeddings", "exports"}``. `scrub` afterwards removes the copies in the files."""

    @abstractmethod
    def check_passphrase(self, passphrase: str) -> None:
        """WrongPassphrase unless `passphrase` opens the store afresh (a new connection, not
        the open one). A backend without a passphrase raises StoreError."""

    @abstractmethod
    def rekey(self, passphrase: str) -> None:
        """Re-encrypt the database with a new passphrase, atomically (it then opens with exactly
        one of the two, whatever happens). Outside any transaction; StoreError when another
        connection has the database open."""

    def backup_to(self, target: Path) -> bool:
        """Copy the whole store into the new file `target`, consistent while others write, as
        it is kept (still encrypted); False when the backend is no file to copy (a database
        server: its tenant is backed up as exports, memvault.backup)."""
        return False

    @abstractmethod
    def scrub(self) -> bool:
        """Leave no recoverable copy of deleted rows in the database's files (erasure, AIMEM
        §5.2). Returns False when a copy could not be removed yet (called inside a
        transaction, or another connection's open read holds it); True when none is left."""

    @abstractmethod
    def memory_stats(self) -> dict[str, dict[str, int]]:
        """Counts of all memories by "type", "status", "platform", "extraction_method"."""

    # -- relations ----------------------------------------------------------------------------

    @abstractmethod
    def insert_relation(self, relation: Relation) -> None: ...

    def insert_relations(self, relations: Iterable[Relation]) -> int:
        """Insert many new relations (an existing id raises IntegrityViolation); the count."""
        count = 0
        for relation in relations:
            self.insert_relation(relation)
            count += 1
        return count

    @abstractmethod
    def relations_of(self, memory_id: str) -> list[Relation]:
        """Relations where the memory is `from` or `to`."""

    @abstractmethod
    def iter_relations(self) -> Iterator[Relation]: ...

    @abstractmethod
    def update_relation(self, relation: Relation) -> None:
        """Replace a relation with the same id (it must exist)."""

    @abstractmethod
    def relation_stats(self) -> dict[str, int]:
        """Counts of relations by type."""

    # -- conversations and embeddings -----------------------------------------------------

    @abstractmethod
    def put_conversation(self, conversation: StoredConversation) -> bool:
        """Insert or replace; returns True when something changed."""

    def add_conversations(self, conversations: Iterable[StoredConversation]) -> None:
        """Insert conversations known to be absent (`conversation_ids`), as one batch; an id
        already stored raises IntegrityViolation."""
        batch = list(conversations)
        taken = self.conversation_ids(c.id for c in batch)
        if taken:
            raise IntegrityViolation(f"conversation {min(taken)} already exists")
        for conversation in batch:
            self.put_conversation(conversation)

    @abstractmethod
    def get_conversation(self, conversation_id: str) -> StoredConversation | None: ...

    def conversation_json(self, conversation_id: str) -> bytes | None:
        """A stored conversation's document as JSON text (None when absent), for comparing
        an incoming version without building the stored one's objects. Backends return the
        text they keep; this default serializes the parsed document."""
        stored = self.get_conversation(conversation_id)
        return (
            None
            if stored is None
            else orjson.dumps(dict(stored.document), option=orjson.OPT_SORT_KEYS)
        )

    @abstractmethod
    def iter_conversations(self) -> Iterator[StoredConversation]: ...

    @abstractmethod
    def count_conversations(self, platform: str | None = None) -> int:
        """How many conversations are stored (of `platform` only, when given)."""

    @abstractmethod
    def conversation_summaries(
        self, platform: str | None = None, *, limit: int | None = 50, offset: int = 0
    ) -> list[ConversationSummary]:
        """One page of stored conversations (of `platform` only, when given), newest first:
        by `created_at` descending (those without one last), then by id descending. Read
        from the conversations' columns, never from their documents."""

    @abstractmethod
    def conversation_ids(self, ids: Iterable[str]) -> set[str]:
        """Which of `ids` are stored conversations."""

    @abstractmethod
    def conversation_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Conversation ids starting with `prefix`, in id order (for git-like abbreviations)."""

    @abstractmethod
    def conversation_ids_titled(self, platform: str, title: str) -> list[str]:
        """The ids of the stored conversations of `platform` with this title, in id order."""

    @abstractmethod
    def put_embedding(self, embedding: StoredEmbedding) -> None: ...

    @abstractmethod
    def get_embedding(self, memory_id: str) -> StoredEmbedding | None: ...

    # -- per-memory AIMEM state: deleted with the memory it is about ------------------------

    # -- the AIMEM export cache (optional: a store without one returns None / False) ----------

    def export_cache_generation(self) -> int | None:
        """A number that changes whenever a memory or relation is written (None: this store
        keeps no export cache). Read it before reading what `put_export_chunks` will keep."""
        return None

    def export_state(self) -> tuple[int, ...] | None:
        """A value that differs whenever a memory or relation was added, changed or deleted
        since it was last read (None: this store cannot tell): an export made while it is
        the same is the same bundle, and may be sent again under a new envelope."""
        return None

    def export_chunk_rows(
        self, query: MemoryQuery, producer: str, *, with_bytes: bool = True
    ) -> Iterator[tuple[str, CachedChunk | None]] | None:
        """Every memory `query` matches, in storage order (as `iter_memories`), with its kept
        chunk for `producer` when there is one — a memory changed since has none; without
        `with_bytes`, the chunks' `canonical` is empty (`export_chunk_bytes` reads it
        later). Streamed, not read at once. None: this store keeps no export cache."""
        return None

    def export_chunk_bytes(self, producer: str, memory_ids: Sequence[str]) -> dict[str, bytes]:
        """memory id -> the kept chunk's RFC 8785 bytes for `producer`, for those of
        `memory_ids` that still have one (none: this store keeps no export cache)."""
        return {}

    def put_export_chunks(
        self, producer: str, chunks: Sequence[CachedChunk], generation: int
    ) -> bool:
        """Keep `chunks` — unless a memory or relation was written since `generation` was
        read (then nothing is kept: the bytes may be stale), or another thread holds the
        write lock (an export never waits for a writer to keep a speed-up). True when kept."""
        return False

    def export_pending(self, limit: int) -> list[str] | None:
        """Up to `limit` ids of memories written since their chunk was last kept
        (`keep_current_chunks`), None: this store keeps no export cache."""
        return None

    def export_pending_count(self) -> int | None:
        """How many memories are pending (`export_pending`), None: no export cache."""
        return None

    def keep_current_chunks(
        self, producer: str, chunks: Sequence[CachedChunk], memory_ids: Sequence[str]
    ) -> None:
        """In the current transaction: `memory_ids` are no longer pending, and their kept
        chunks for `producer` are `chunks` (those of them that could be mapped). A store
        without an export cache lists none pending: nothing to keep."""
        return None

    def export_graph_generation(self) -> int | None:
        """A number that changes whenever the graph an export carries may have (a kept chunk
        with a graph block written or dropped, a relation written, a memory deleted)."""
        return None

    def export_chunks_in_order(
        self, query: MemoryQuery, producer: str, *, after: int = 0
    ) -> Iterator[list[tuple[Any, ...]]] | None:
        """Every memory `query` matches, in storage order, in windows of rows (id, chunk
        id, refs, dna, exportable, graph, canonical, seq) with its kept chunk for `producer`,
        or NULLs without one; `after`: only those stored after the memory of that seq (the
        second member of `export_state`). None: this store keeps no export cache."""
        return None

    @abstractmethod
    def chunk_digests(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """memory id -> digest of the AIMEM chunk it was imported from (AIMEM §2.9), for
        those of `memory_ids` that have one."""

    @abstractmethod
    def put_chunk_digests(self, digests: Mapping[str, str]) -> None:
        """Record (or replace) the chunk digests of stored memories. Deleting a memory
        deletes its digest (AIMEM §5.2)."""

    @abstractmethod
    def aliases(self, incoming_ids: Iterable[str]) -> dict[str, str]:
        """incoming memory id -> the stored memory it was merged into (PAM §6), for those
        of `incoming_ids` that have one."""

    @abstractmethod
    def put_aliases(self, aliases: Mapping[str, str]) -> None:
        """Record (or replace) aliases: incoming id -> stored memory. Deleting a memory
        deletes the aliases naming it, on either side (AIMEM §5.2)."""

    # -- exports, audit, keys ---------------------------------------------------------------

    @abstractmethod
    def record_export(self, record: ExportRecord) -> None: ...

    @abstractmethod
    def list_exports(self) -> list[ExportRecord]: ...

    @abstractmethod
    def append_audit(self, entry: AuditEntry) -> None: ...

    def append_audit_many(self, entries: Iterable[AuditEntry]) -> None:
        """Append entries in order (one batch write where the backend can)."""
        for entry in entries:
            self.append_audit(entry)

    @abstractmethod
    def count_audit(self) -> int: ...

    @abstractmethod
    def last_audit(self) -> AuditEntry | None: ...

    @abstractmethod
    def iter_audit(self) -> Iterator[AuditEntry]:
        """Entries in storage order (by seq)."""

    def audit_entries(
        self,
        *,
        after_seq: int = 0,
        memory_id: str | None = None,
        actions: Iterable[str] = (),
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[AuditEntry]:
        """The entries with seq > `after_seq`, of one memory and of these actions when given,
        by seq (descending with `newest_first`), at most `limit` of them (the first `limit`
        in that order). Backends answer with a query; this default filters `iter_audit`."""
        wanted = frozenset(actions)
        found = [
            e
            for e in self.iter_audit()
            if e.seq > after_seq
            and (memory_id is None or e.memory_id == memory_id)
            and (not wanted or e.action in wanted)
        ]
        if newest_first:
            found.reverse()
        return found if limit is None else found[: max(limit, 0)]

    @abstractmethod
    def put_key(self, key: KeyRecord) -> None: ...

    @abstractmethod
    def get_key(self, key_id: str) -> KeyRecord | None: ...

    @abstractmethod
    def list_keys(self) -> list[KeyRecord]: ...

    # -- maintenance ------------------------------------------------------------------------

    def size_bytes(self) -> int | None:
        """Bytes the database takes on disk, when the backend knows."""
        return None

    def check_integrity(self) -> list[str]:
        """Problems the database engine finds in its own files (empty: healthy)."""
        return []
