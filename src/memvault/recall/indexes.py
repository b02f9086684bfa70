"""The recall index as a store backend implements it: a text index, a vector index and the
passage reads recall needs, behind one small interface (docs/recall.md, "Indexes").

The recall engine (`memvault.recall.engine`) and its operations never write SQL: they ask the
store for a `RecallIndex` (`Store.recall_index()`), a context manager bound to the store's
connection for the block — the writer's inside the caller's transaction (its writes join it),
a reader's otherwise (recall never waits behind an import). What a backend stores is:

- **passages** (`Passage`): one per memory, one or more per message; each gets an integer id,
  larger than every id in use, that its full-text entry and its vectors are keyed by;
- a **text index** over each passage's words and context, ranked by BM25 (or the backend's
  nearest equivalent), the query's words taken as alternatives (never a conjunction);
- **vectors** per model (a name and a dimension: `model()` gives the model's integer id),
  searched by cosine similarity.

Who may see what and which filters apply reach the backend as one `Scope`, so access rules
(PAM §9) are decided here and only translated into the backend's query language there.

The SQLite implementation (`memvault.store.sqlite_recall`) uses FTS5 and sqlite-vec. A
PostgreSQL one maps the same calls onto:

- passages: ``recall_passages (tenant, id bigint, kind, memory_seq, conversation_id,
  message_id, part, role, participant, platform, at_epoch, text, terms tsvector)`` with a GIN
  index on ``terms``; `TextIndex.search` is ``SELECT id, ts_rank_cd(terms, q) FROM
  recall_passages p LEFT JOIN memories m … WHERE terms @@ q AND <scope> ORDER BY 2 DESC
  LIMIT depth``, ``q`` the OR of the query's stems (``to_tsquery('simple', 'a | b | c:*')``,
  the stems from `TextIndex.query_terms`);
- vectors: ``recall_vectors (tenant, model_id, passage_id, embedding vector(n))`` with an HNSW
  (or IVFFlat) index per model using ``vector_cosine_ops``; `VectorIndex.nearest` is ``SELECT
  passage_id, 1 - (embedding <=> $q) FROM recall_vectors JOIN recall_passages p … WHERE
  model_id = $m AND <scope> ORDER BY embedding <=> $q LIMIT depth``;
- `RecallIndex.passages` a join of passages and memories by id (``= ANY($ids)``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, NamedTuple

__all__ = [
    "Passage",
    "PassageRecord",
    "RecallIndex",
    "Scope",
    "TextIndex",
    "Unembedded",
    "VectorIndex",
]

#: The passage kinds.
MEMORY: Final = "memory"
MESSAGE: Final = "message"


@dataclass(frozen=True, slots=True)
class Scope:
    """Which passages a search may return, decided by the engine from the filters and the
    actor, translated by the backend into its own conditions. Every condition holds at once;
    an empty tuple or None sets none."""

    #: "memory", "message", or None for both.
    kind: str | None = None
    #: Memory statuses that may surface (messages have none).
    statuses: tuple[str, ...] = ("active",)
    conversation: str | None = None
    platforms: tuple[str, ...] = ()
    #: Memory types, custom types; every tag listed (memories only).
    types: tuple[str, ...] = ()
    custom_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: A memory's creation, a message's time, inclusive.
    since: datetime | None = None
    until: datetime | None = None
    #: A message's role; its participant (case-insensitive).
    role: str | None = None
    participant: str | None = None
    #: An agent (PAM §9): only memories public, or shared with it with ``read``. None: the
    #: owner or background work, who see everything.
    reader: str | None = None
    #: Nothing can match (contradicting filters): the backend answers at once.
    empty: bool = False

    @property
    def narrow(self) -> bool:
        """Whether a condition beyond kind and status is set: the scope may leave few
        passages, so a backend may filter before it ranks rather than after."""
        return bool(
            self.conversation is not None
            or self.platforms
            or self.types
            or self.custom_types
            or self.tags
            or self.since is not None
            or self.until is not None
            or self.role is not None
            or self.participant is not None
            or self.reader is not None
        )


class Passage(NamedTuple):
    """One passage before it is written (`memvault.recall.index` cuts them)."""

    kind: str  # "memory" | "message"
    #: The store's row key of the memory (None for a message).
    memory_seq: int | None
    conversation_id: str | None
    message_id: str | None
    part: int
    role: str | None
    participant: str | None
    platform: str | None
    at_epoch: float | None
    text: str
    context: str


class PassageRecord(NamedTuple):
    """A passage as recall reads it back for its hits, with its memory's columns (None for
    a message's passage)."""

    id: int
    kind: str
    conversation_id: str | None
    message_id: str | None
    role: str | None
    participant: str | None
    at_epoch: float | None
    text: str
    memory_id: str | None
    status: str | None
    #: The memory's stored document (JSON bytes, `memvault.store.codec.load_memory`).
    document: bytes | str | None
    #: The memory's last update, else creation (epoch seconds).
    memory_at: float | None


class Unembedded(NamedTuple):
    """A passage that has no vector of a model yet, with what its embedding reads."""

    id: int
    text: str
    participant: str | None
    title: str | None


class TextIndex(ABC):
    """Full text over the passages' words and context."""

    @abstractmethod
    def query_terms(self, text: str) -> list[tuple[str, ...]]:
        """For each word of a query that is not a stop word, its alternative index terms
        (its distinct stems, English first: `memvault.recall.analysis`), in order."""

    @abstractmethod
    def search(self, text: str, depth: int, scope: Scope) -> list[tuple[int, float]]:
        """At most `depth` passages matching any of the query's terms within `scope`, as
        (passage id, score > 0), best first. The score is BM25 over the words and, weighed
        half, the context (SQLite FTS5; PostgreSQL's ``ts_rank_cd`` is the nearest): only
        its order within one list matters to fusion, which scales it. A word ending in ``*``
        matches as a prefix. No term left (only stop words): no hit."""


class VectorIndex(ABC):
    """Vectors of passages per model, and their nearest neighbours by cosine similarity."""

    @abstractmethod
    def model(self, name: str, dimension: int | None = None, *, create: bool = False) -> int | None:
        """The id of a model's vectors: by name and dimension, made when `create` and absent;
        by name alone, the most recent of that name. None when there is none."""

    @abstractmethod
    def coverage(self, model: int | None) -> tuple[int, int]:
        """(passages with a vector of the model, all passages)."""

    @abstractmethod
    def complete(self, model: int) -> bool:
        """Whether the model has vectors and every passage has one (cheaply: this runs on
        every recall)."""

    @abstractmethod
    def unembedded(self, model: int, after: int, limit: int) -> list[Unembedded]:
        """Up to `limit` passages above id `after` with no vector of the model, in id order."""

    @abstractmethod
    def put_vectors(self, model: int, vectors: Sequence[tuple[int, Sequence[float]]]) -> int:
        """Store (passage id, vector) pairs of a model, replacing any before; a passage that
        is gone (deleted since it was read) gets none. Returns how many were stored."""

    @abstractmethod
    def nearest(
        self, model: int, query: Sequence[float], depth: int, scope: Scope
    ) -> list[tuple[int, float]]:
        """At most `depth` passages within `scope` nearest `query` by cosine similarity, as
        (passage id, similarity), best first. A backend may search approximately over a
        whole vault (a quantised or graph index, rescored with the exact vectors) and must
        search exactly when the scope leaves few passages."""

    @abstractmethod
    def vectors(self, model: int, passage_ids: Iterable[int]) -> dict[int, list[float]]:
        """The stored vectors of these passages (those that have one), for rescoring."""


class RecallIndex(TextIndex, VectorIndex):
    """The recall index of one store: text, vectors, and the passages themselves."""

    @abstractmethod
    def add_passages(self, passages: Sequence[Passage]) -> int:
        """Write passages with their full-text entries; returns how many. Inside a
        transaction."""

    @abstractmethod
    def delete_memories(self, memory_seqs: Iterable[int]) -> int:
        """Drop the passages of these memories (by the store's row key), with their
        full-text entries and vectors (AIMEM §5.2). Returns how many passages."""

    @abstractmethod
    def delete_conversation(self, conversation_id: str) -> int:
        """Drop the passages of a conversation's messages, with their entries and vectors."""

    @abstractmethod
    def passages(self, passage_ids: Sequence[int]) -> list[PassageRecord]:
        """The passages with these ids that exist, in no particular order."""

    @abstractmethod
    def memory_passages(self, memory_ids: Iterable[str]) -> dict[str, int]:
        """Memory id -> its passage's id, for those of these memories that have one (a
        memory is one passage: `memvault.recall.index`)."""

    @abstractmethod
    def titles(self, conversation_ids: Iterable[str]) -> Mapping[str, str | None]:
        """The titles of these conversations (those that exist)."""

    @abstractmethod
    def rebuild(self) -> tuple[int, int]:
        """Index everything the store holds again, from nothing; vectors are dropped (their
        passages get new ids). Returns (memories, conversations) indexed. In a transaction."""
