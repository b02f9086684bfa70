"""The recall index of the PostgreSQL store (`memvault.recall.indexes`): passages with a
``tsvector`` and a GIN index, and vectors with pgvector where the extension is installed
(tables: migration 2, `memvault.store.pgmigrations.p0002_recall_index`).

The store writes the index as it writes memories and conversations, on the connection of its
write transaction (`index_memories`, `index_conversations`, `remove_memories`, …), so the index
never lags the data and a rollback takes both back; recall reads it through
`PostgresRecallIndex`, bound to one connection and one tenant for a block
(`PostgresStore.recall_index`). Every statement names the tenant (row-level security binds it
too), and none joins across tenants.

**Full text**, the same rules as the SQLite index (`memvault.recall.analysis`), in PostgreSQL's
own terms:

- a passage's words (weight A) and its context (weight B) are folded here (lower case, no
  diacritics: "açúcar" and "acucar" are one word), then analysed by both the ``english`` and
  the ``portuguese`` text-search configurations, whose Snowball stemmers are the ones the
  SQLite index links (libstemmer), so both stems of every word are index terms;
- a query's words are folded the same way, the stop words of `memvault.recall.analysis`
  (English and Portuguese) dropped, and each left is stemmed by the same two dictionaries
  (``ts_lexize``); the query is the OR of every stem (never a conjunction), a word ending in
  ``*`` a prefix of its stems (``:*``);
- the rank is ``ts_rank_cd`` (cover density) with the context weighed half and the length
  normalised by its logarithm. It is not BM25: it has no inverse document frequency (a rare
  word counts as much as a common one) and no term-frequency saturation; passages that match
  more of the query's words, closer together, rank first. Fusion uses only the order within
  the list (`memvault.recall.ranking`).

**Vectors** (pgvector): ``recall_vectors.embedding`` is a ``vector``; each dimension in use
has a partial HNSW index on ``embedding::vector(n)`` with ``vector_cosine_ops`` (made with the
first model of that dimension). A search whose tenant and scope leave at most `EXACT_LIMIT`
vectors is exact (the tenant's rows, found by their B-tree index, scored with ``<=>``); a
larger one asks the HNSW index for candidates (pgvector 0.8's iterative scan goes on until
enough of them are the tenant's) and scores them exactly. Without pgvector the store keeps no
vectors: recall is full text only, and making a model says why.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import psycopg

from memvault.model import Memory
from memvault.recall.analysis import NOT_STOP_WORDS, STOP_WORD_LANGUAGES
from memvault.recall.index import conversation_passages, memory_passage
from memvault.recall.indexes import (
    Passage,
    PassageRecord,
    RecallIndex,
    Scope,
    Unembedded,
)
from memvault.recall.scope_sql import ScopeSQL
from memvault.store.base import StoreError

__all__ = [
    "EXACT_LIMIT",
    "NO_VECTORS",
    "PostgresRecallIndex",
    "fold",
    "index_conversations",
    "index_memories",
    "remove_conversation",
    "remove_everything",
    "remove_memories",
]

#: At most this many vectors left by the tenant, model and scope: searched exactly.
EXACT_LIMIT: Final = 20_000
#: Candidates asked of the HNSW index per result wanted, before the exact rescoring.
OVERSAMPLE: Final = 4
#: pgvector indexes at most this many dimensions of a ``vector`` with HNSW.
HNSW_MAX_DIMENSION: Final = 2000
NO_VECTORS: Final = (
    "this PostgreSQL database has no pgvector extension, so its vaults keep no vectors: "
    "recall is full text only (a superuser runs CREATE EXTENSION vector; docs/postgres.md)"
)
#: ts_rank_cd weights {D, C, B, A}: the context (B) counts half of the words (A).
_WEIGHTS: Final = "'{0.1, 0.2, 0.5, 1.0}'"
#: Rank normalisation 1: divided by 1 + the logarithm of the passage's length.
_RANK: Final = f"ts_rank_cd({_WEIGHTS}, p.terms, %s::tsquery, 1)"
_WORD: Final = re.compile(r"[^\W_]+(\*?)")
_BATCH: Final = 2000
#: The characters of a passage analysed for full text: a ``tsvector`` holds at most 1 MB, and
#: only a memory (messages are split into passages of 1,500) can be longer.
MAX_INDEXED_CHARS: Final = 100_000
_MIGRATION_LOCK: Final = 0x6D656D7661756C74


def fold(text: str) -> str:
    """Lower case, diacritics removed (NFKD without combining marks), NULs dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c != "\x00").casefold()


@functools.cache
def stop_words() -> frozenset[str]:
    """The stop words of `memvault.recall.analysis` (English, Brazilian and Portuguese lists,
    less its kept content words), folded as passages are: an entry that folds to several
    words ("don't") makes each a stop word."""
    from stopwords import get_stopwords

    words = {
        part
        for language in STOP_WORD_LANGUAGES
        for word in get_stopwords(language)
        for part in re.findall(r"[^\W_]+", fold(word))
    }
    return frozenset(words - NOT_STOP_WORDS)


def _clean(text: str | None) -> str:
    return "" if text is None else text.replace("\x00", "")


# -- writing -----------------------------------------------------------------------------------

_INSERT: Final = (
    "INSERT INTO recall_passages (tenant, id, kind, memory_seq, conversation_id, message_id, "
    "part, role, participant, platform, at_epoch, text, context, terms) "
    "SELECT %s, u.id, u.kind, u.memory_seq, u.conversation_id, u.message_id, u.part, u.role, "
    "u.participant, u.platform, u.at_epoch, u.text, u.context, "
    "setweight(to_tsvector('english', u.words) || to_tsvector('portuguese', u.words), 'A') || "
    "setweight(to_tsvector('english', u.ctx) || to_tsvector('portuguese', u.ctx), 'B') "
    "FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::text[], %s::text[], "
    "%s::integer[], %s::text[], %s::text[], %s::text[], %s::double precision[], %s::text[], "
    "%s::text[], %s::text[], %s::text[]) AS u(id, kind, memory_seq, conversation_id, "
    "message_id, part, role, participant, platform, at_epoch, text, context, words, ctx)"
)


def _next_id(conn: psycopg.Connection[Any], tenant: str) -> int:
    """One above the tenant's largest passage id (the store's per-tenant write lock makes it
    the only writer)."""
    row = conn.execute(
        "SELECT COALESCE(max(id), 0) FROM recall_passages WHERE tenant = %s", (tenant,)
    ).fetchone()
    return int(row[0]) + 1 if row is not None else 1


def add_passages(conn: psycopg.Connection[Any], tenant: str, passages: Sequence[Passage]) -> int:
    """Write passages with their full-text entries, a few statements a batch."""
    if not passages:
        return 0
    first = _next_id(conn, tenant)
    for start in range(0, len(passages), _BATCH):
        chunk = passages[start : start + _BATCH]
        columns: list[list[Any]] = [[] for _ in range(14)]
        for offset, p in enumerate(chunk):
            text, context = _clean(p.text), _clean(p.context)
            values = (
                first + start + offset,
                p.kind,
                p.memory_seq,
                p.conversation_id,
                p.message_id,
                p.part,
                p.role,
                p.participant,
                p.platform,
                p.at_epoch,
                text,
                context,
                fold(text[:MAX_INDEXED_CHARS]),
                fold(context[:MAX_INDEXED_CHARS]),
            )
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        conn.execute(_INSERT, (tenant, *columns))
    return len(passages)


def _remove(
    conn: psycopg.Connection[Any], tenant: str, vectors: bool, where: str, params: Sequence[Any]
) -> tuple[int, int]:
    """Delete the passages `where` selects (over ``recall_passages``), with their vectors.
    Returns (passages, vectors) deleted."""
    ids = [
        int(r[0])
        for r in conn.execute(
            f"DELETE FROM recall_passages WHERE tenant = %s AND {where} RETURNING id",
            (tenant, *params),
        ).fetchall()
    ]
    if not ids or not vectors:
        return len(ids), 0
    gone = conn.execute(
        "DELETE FROM recall_vectors WHERE tenant = %s AND passage_id = ANY(%s)", (tenant, ids)
    ).rowcount
    return len(ids), max(gone, 0)


def remove_memories(
    conn: psycopg.Connection[Any], tenant: str, vectors: bool, seqs: Iterable[int]
) -> int:
    """Drop the passages (words and vectors) of the memories with these seqs (AIMEM §5.2)."""
    wanted = list(dict.fromkeys(seqs))
    if not wanted:
        return 0
    return _remove(conn, tenant, vectors, "memory_seq = ANY(%s)", (wanted,))[0]


def remove_conversation(
    conn: psycopg.Connection[Any], tenant: str, vectors: bool, conversation_id: str
) -> tuple[int, int]:
    """Drop the passages (words and vectors) of a conversation's messages; those of memories
    derived from it stay (the memories do). Returns (passages, vectors)."""
    return _remove(
        conn,
        tenant,
        vectors,
        "conversation_id = %s AND kind = 'message'",
        (conversation_id,),
    )


def remove_everything(conn: psycopg.Connection[Any], tenant: str, vectors: bool) -> tuple[int, int]:
    """Drop every passage, vector and model of the tenant: (passages, vectors)."""
    gone = 0
    if vectors:
        gone = conn.execute("DELETE FROM recall_vectors WHERE tenant = %s", (tenant,)).rowcount
    passages = conn.execute("DELETE FROM recall_passages WHERE tenant = %s", (tenant,)).rowcount
    conn.execute("DELETE FROM recall_models WHERE tenant = %s", (tenant,))
    return max(passages, 0), max(gone, 0)


def index_memories(
    conn: psycopg.Connection[Any],
    tenant: str,
    vectors: bool,
    memories: Sequence[tuple[int, Memory]],
    *,
    fresh: bool,
) -> int:
    """Index memories (seq, memory). Unless `fresh` (just inserted), a memory whose words and
    context are unchanged keeps its passage (and its vectors), its other columns brought up
    to date; one whose words changed gets a new passage, which waits for its vector. Returns
    the number of passages written."""
    new = [memory_passage(seq, memory) for seq, memory in memories]
    if fresh or not new:
        return add_passages(conn, tenant, new)
    rows = conn.execute(
        "SELECT memory_seq, id, text, context FROM recall_passages "
        "WHERE tenant = %s AND memory_seq = ANY(%s)",
        (tenant, [p.memory_seq for p in new]),
    ).fetchall()
    old = {int(r[0]): (int(r[1]), str(r[2]), str(r[3])) for r in rows}
    replace: list[Passage] = []
    for p in new:
        assert p.memory_seq is not None
        kept = old.get(p.memory_seq)
        if kept is not None and kept[1:] == (_clean(p.text), _clean(p.context)):
            conn.execute(
                "UPDATE recall_passages SET conversation_id = %s, platform = %s, at_epoch = %s "
                "WHERE tenant = %s AND id = %s",
                (p.conversation_id, p.platform, p.at_epoch, tenant, kept[0]),
            )
        else:
            replace.append(p)
    remove_memories(conn, tenant, vectors, [p.memory_seq for p in replace if p.memory_seq])
    return add_passages(conn, tenant, replace)


def index_conversations(
    conn: psycopg.Connection[Any],
    tenant: str,
    vectors: bool,
    conversations: Iterable[tuple[str, str | None, Mapping[str, Any]]],
    *,
    fresh: bool,
) -> int:
    """Index conversations (id, platform, document): their messages' passages replace those
    stored before (unless `fresh`). Returns the number of passages written."""
    passages: list[Passage] = []
    for conversation_id, platform, document in conversations:
        if not fresh:
            remove_conversation(conn, tenant, vectors, conversation_id)
        passages.extend(conversation_passages(conversation_id, platform, document))
    return add_passages(conn, tenant, passages)


def _stored_memories(
    conn: psycopg.Connection[Any], tenant: str
) -> Iterator[list[tuple[int, Memory]]]:
    from memvault.store.codec import load_memory

    last = 0
    while True:
        rows = conn.execute(
            "SELECT seq, document FROM memories WHERE tenant = %s AND seq > %s "
            "ORDER BY seq LIMIT 1000",
            (tenant, last),
        ).fetchall()
        if not rows:
            return
        yield [(int(seq), load_memory(document)) for seq, document in rows]
        last = int(rows[-1][0])


def _stored_conversations(
    conn: psycopg.Connection[Any], tenant: str
) -> Iterator[list[tuple[str, str, Mapping[str, Any]]]]:
    from memvault.store.documents import load_document

    last = 0
    while True:
        rows = conn.execute(
            "SELECT seq, id, platform, document FROM conversations WHERE tenant = %s "
            "AND seq > %s ORDER BY seq LIMIT 200",
            (tenant, last),
        ).fetchall()
        if not rows:
            return
        yield [(str(r[1]), str(r[2]), load_document(bytes(r[3]))) for r in rows]
        last = int(rows[-1][0])


# -- reading -----------------------------------------------------------------------------------


class _PostgresScope(ScopeSQL):
    """A scope's conditions in PostgreSQL (`memvault.recall.scope_sql`): arrays for lists,
    the memory's tag and reader arrays."""

    mark = "%s"

    def among(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} = ANY({self.bind(list(values))})"

    def conversation(self, conversation_id: str) -> str:
        return f"p.conversation_id = {self.bind(conversation_id)}"

    def platforms(self, platforms: Sequence[str]) -> str:
        return self.among("p.platform", platforms)

    def tags(self, tags: Sequence[str]) -> str:
        return f"m.tags @> {self.bind(list(tags))}::text[]"

    def participant(self, name: str) -> str:
        return f"lower(p.participant) = lower({self.bind(name)})"

    def readable(self, reader: str) -> str:
        return (
            "(m.visibility = 'public' OR (m.visibility = 'shared' AND "
            f"m.readers @> {self.bind([reader])}::text[]))"
        )


def _where(scope: Scope, params: list[Any]) -> str:
    """SQL conditions of a scope over ``recall_passages p`` LEFT JOIN ``memories m``; their
    parameters are appended to `params`."""
    return _PostgresScope(params).where(scope)


_MEMORIES: Final = "LEFT JOIN memories m ON m.tenant = p.tenant AND m.seq = p.memory_seq"


def _vector_literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(repr(float(v)) for v in vector) + "]"


def _parse_vector(text: str) -> list[float]:
    return [float(v) for v in text.strip("[]").split(",")] if text.strip("[]") else []


def ensure_hnsw(conn: psycopg.Connection[Any], dimension: int) -> None:
    """The HNSW index of a dimension's vectors, made once for every tenant (by the first
    model of that dimension; one maker at a time)."""
    if dimension > HNSW_MAX_DIMENSION:
        return  # searched exactly
    name = f"recall_vectors_hnsw_{int(dimension)}"
    found = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()
    if found is not None and found[0]:
        return
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
    conn.execute(
        f"CREATE INDEX IF NOT EXISTS {name} ON recall_vectors USING hnsw "
        f"((embedding::vector({int(dimension)})) vector_cosine_ops) "
        f"WHERE dimension = {int(dimension)}"
    )


class PostgresRecallIndex(RecallIndex):
    """The recall index of one tenant on one connection (`PostgresStore.recall_index`)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        tenant: str,
        *,
        vectors: bool,
        iterative_scan: bool = False,
    ) -> None:
        self._conn = conn
        self._tenant = tenant
        self._vectors = vectors
        self._iterative = iterative_scan

    # -- text --------------------------------------------------------------------------------

    def _words(self, text: str) -> list[tuple[str, bool]]:
        stop = stop_words()
        out: list[tuple[str, bool]] = []
        for match in _WORD.finditer(fold(text)):
            word = match.group(0).rstrip("*")
            if word not in stop:
                out.append((word, bool(match.group(1))))
        return out

    def _stems(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        if not words:
            return []
        rows = self._conn.execute(
            "SELECT w, ts_lexize('english_stem', w), ts_lexize('portuguese_stem', w) "
            "FROM unnest(%s::text[]) WITH ORDINALITY AS u(w, n) ORDER BY n",
            (list(words),),
        ).fetchall()
        out: list[tuple[str, ...]] = []
        for word, english, portuguese in rows:
            stems = [s for s in (*(english or ()), *(portuguese or ())) if s]
            out.append(tuple(dict.fromkeys(stems or [word])))
        return out

    def query_terms(self, text: str) -> list[tuple[str, ...]]:
        return self._stems([w for w, _ in self._words(text)])

    def tsquery(self, text: str) -> str | None:
        """The query for `text`: every stem of every word kept, as alternatives (OR); the
        stems of a word ending in ``*`` as prefixes. None when no word is left."""
        words = self._words(text)
        alternatives: dict[str, None] = {}
        for (_, prefix), stems in zip(words, self._stems([w for w, _ in words]), strict=True):
            for stem in stems:
                literal = "'" + stem.replace("\\", "\\\\").replace("'", "''") + "'"
                alternatives[literal + (":*" if prefix else "")] = None
        return " | ".join(alternatives) or None

    def search(self, text: str, depth: int, scope: Scope) -> list[tuple[int, float]]:
        if scope.empty or depth < 1:
            return []
        query = self.tsquery(text)
        if query is None:
            return []
        params: list[Any] = [query, self._tenant, query]
        where = _where(scope, params)
        params.append(depth)
        rows = self._conn.execute(
            f"SELECT p.id, {_RANK} AS s FROM recall_passages p {_MEMORIES} "
            f"WHERE p.tenant = %s AND p.terms @@ %s::tsquery AND {where} "
            "ORDER BY s DESC, p.id LIMIT %s",
            params,
        ).fetchall()
        # A floor keeps every hit's score positive (a cover too spread out may rank 0).
        return [(int(r[0]), max(float(r[1]), 1e-9)) for r in rows]

    # -- vectors -----------------------------------------------------------------------------

    def model(self, name: str, dimension: int | None = None, *, create: bool = False) -> int | None:
        if dimension is None:
            row = self._conn.execute(
                "SELECT id FROM recall_models WHERE tenant = %s AND model = %s "
                "ORDER BY id DESC LIMIT 1",
                (self._tenant, name),
            ).fetchone()
            return None if row is None else int(row[0])
        row = self._conn.execute(
            "SELECT id FROM recall_models WHERE tenant = %s AND model = %s AND dimension = %s",
            (self._tenant, name, dimension),
        ).fetchone()
        if row is not None:
            return int(row[0])
        if not create:
            return None
        if not self._vectors:
            raise StoreError(NO_VECTORS)
        ensure_hnsw(self._conn, dimension)
        made = self._conn.execute(
            "INSERT INTO recall_models (tenant, id, model, dimension) SELECT %s, "
            "COALESCE(max(id), 0) + 1, %s, %s FROM recall_models WHERE tenant = %s RETURNING id",
            (self._tenant, name, dimension, self._tenant),
        ).fetchone()
        assert made is not None
        return int(made[0])

    def _count_passages(self) -> int:
        row = self._conn.execute(
            "SELECT count(*) FROM recall_passages WHERE tenant = %s", (self._tenant,)
        ).fetchone()
        return int(row[0]) if row is not None else 0

    def coverage(self, model: int | None) -> tuple[int, int]:
        total = self._count_passages()
        if model is None or not self._vectors:
            return 0, total
        row = self._conn.execute(
            "SELECT count(*) FROM recall_vectors WHERE tenant = %s AND model_id = %s",
            (self._tenant, model),
        ).fetchone()
        return (int(row[0]) if row is not None else 0), total

    def complete(self, model: int) -> bool:
        """Two index look-ups: ids grow with each write and vectors are computed in id order,
        so none above the last passage with a vector means none anywhere."""
        if not self._vectors:
            return False
        last = self._conn.execute(
            "SELECT max(passage_id) FROM recall_vectors WHERE tenant = %s AND model_id = %s",
            (self._tenant, model),
        ).fetchone()
        if last is None or last[0] is None:
            return False
        above = self._conn.execute(
            "SELECT 1 FROM recall_passages WHERE tenant = %s AND id > %s LIMIT 1",
            (self._tenant, int(last[0])),
        ).fetchone()
        return above is None

    def unembedded(self, model: int, after: int, limit: int) -> list[Unembedded]:
        if not self._vectors:
            return []
        rows = self._conn.execute(
            "SELECT p.id, p.text, p.participant, c.title FROM recall_passages p "
            "LEFT JOIN conversations c ON c.tenant = p.tenant AND c.id = p.conversation_id "
            "WHERE p.tenant = %s AND p.id > %s AND NOT EXISTS (SELECT 1 FROM recall_vectors v "
            "WHERE v.tenant = p.tenant AND v.model_id = %s AND v.passage_id = p.id) "
            "ORDER BY p.id LIMIT %s",
            (self._tenant, after, model, limit),
        ).fetchall()
        return [Unembedded(int(r[0]), str(r[1]), r[2], r[3]) for r in rows]

    def put_vectors(self, model: int, vectors: Sequence[tuple[int, Sequence[float]]]) -> int:
        if not vectors:
            return 0
        if not self._vectors:
            raise StoreError(NO_VECTORS)
        row = self._conn.execute(
            "SELECT dimension FROM recall_models WHERE tenant = %s AND id = %s",
            (self._tenant, model),
        ).fetchone()
        if row is None:
            raise StoreError(f"no embedding model {model} in this vault")
        dimension = int(row[0])
        for pid, vector in vectors:
            if len(vector) != dimension:
                raise StoreError(
                    f"passage {pid}: a vector of {len(vector)} dimensions for a model of "
                    f"{dimension}"
                )
        # Only passages that still exist (one deleted since it was read gets none).
        written = self._conn.execute(
            "INSERT INTO recall_vectors (tenant, model_id, passage_id, dimension, embedding) "
            "SELECT %s, %s, p.id, %s, u.v::vector FROM unnest(%s::bigint[], %s::text[]) "
            "AS u(id, v) JOIN recall_passages p ON p.tenant = %s AND p.id = u.id "
            "ON CONFLICT (tenant, model_id, passage_id) DO UPDATE SET "
            "embedding = excluded.embedding, dimension = excluded.dimension",
            (
                self._tenant,
                model,
                dimension,
                [pid for pid, _ in vectors],
                [_vector_literal(v) for _, v in vectors],
                self._tenant,
            ),
        ).rowcount
        return max(written, 0)

    def nearest(
        self, model: int, query: Sequence[float], depth: int, scope: Scope
    ) -> list[tuple[int, float]]:
        if scope.empty or not self._vectors or depth < 1:
            return []
        conn = self._conn
        literal = _vector_literal(query)
        row = conn.execute(
            "SELECT dimension FROM recall_models WHERE tenant = %s AND id = %s",
            (self._tenant, model),
        ).fetchone()
        if row is None:
            return []
        dimension = int(row[0])
        if dimension != len(query):
            raise StoreError(
                f"a query vector of {len(query)} dimensions for a model of {dimension}"
            )
        params: list[Any] = [literal, self._tenant, model]
        where = _where(scope, params)
        exact = dimension > HNSW_MAX_DIMENSION or self._few(model, scope, where, params[3:])
        if exact:
            # The tenant's vectors of the model (by their primary key), scored exactly; the
            # uncast ``<=>`` does not match the HNSW index's expression.
            rows = conn.execute(
                "SELECT p.id, v.embedding <=> %s::vector AS d FROM recall_vectors v "
                "JOIN recall_passages p ON p.tenant = v.tenant AND p.id = v.passage_id "
                f"{_MEMORIES} WHERE v.tenant = %s AND v.model_id = %s AND {where} "
                "ORDER BY d, p.id LIMIT %s",
                [*params, depth],
            ).fetchall()
            return [(int(r[0]), 1.0 - float(r[1])) for r in rows]
        wanted = depth * OVERSAMPLE
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(max(40, wanted)),))
        if self._iterative:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        cast = f"vector({dimension})"
        rows = conn.execute(
            "WITH c AS MATERIALIZED (SELECT v.passage_id, "
            f"v.embedding::{cast} <=> %s::{cast} AS d FROM recall_vectors v "
            f"WHERE v.tenant = %s AND v.model_id = %s AND v.dimension = {dimension} "
            f"ORDER BY v.embedding::{cast} <=> %s::{cast} LIMIT %s) "
            f"SELECT p.id, c.d FROM c JOIN recall_passages p ON p.tenant = %s "
            f"AND p.id = c.passage_id {_MEMORIES} WHERE {where} ORDER BY c.d, p.id LIMIT %s",
            [literal, self._tenant, model, literal, wanted, self._tenant, *params[3:], depth],
        ).fetchall()
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows]

    def _few(self, model: int, scope: Scope, where: str, params: Sequence[Any]) -> bool:
        """Whether the tenant's vectors of the model within the scope number at most
        `EXACT_LIMIT` (counted no further)."""
        if scope.narrow:
            sql = (
                "SELECT count(*) FROM (SELECT 1 FROM recall_vectors v JOIN recall_passages p "
                f"ON p.tenant = v.tenant AND p.id = v.passage_id {_MEMORIES} "
                f"WHERE v.tenant = %s AND v.model_id = %s AND {where} LIMIT %s) s"
            )
            args: list[Any] = [self._tenant, model, *params, EXACT_LIMIT + 1]
        else:
            sql = (
                "SELECT count(*) FROM (SELECT 1 FROM recall_vectors WHERE tenant = %s "
                "AND model_id = %s LIMIT %s) s"
            )
            args = [self._tenant, model, EXACT_LIMIT + 1]
        row = self._conn.execute(sql, args).fetchone()
        return row is not None and int(row[0]) <= EXACT_LIMIT

    def vectors(self, model: int, passage_ids: Iterable[int]) -> dict[int, list[float]]:
        ids = list(dict.fromkeys(passage_ids))
        if not ids or not self._vectors:
            return {}
        rows = self._conn.execute(
            "SELECT passage_id, embedding::text FROM recall_vectors WHERE tenant = %s "
            "AND model_id = %s AND passage_id = ANY(%s)",
            (self._tenant, model, ids),
        ).fetchall()
        return {int(r[0]): _parse_vector(str(r[1])) for r in rows}

    # -- passages ----------------------------------------------------------------------------

    def add_passages(self, passages: Sequence[Passage]) -> int:
        return add_passages(self._conn, self._tenant, passages)

    def delete_memories(self, memory_seqs: Iterable[int]) -> int:
        return remove_memories(self._conn, self._tenant, self._vectors, memory_seqs)

    def delete_conversation(self, conversation_id: str) -> int:
        return remove_conversation(self._conn, self._tenant, self._vectors, conversation_id)[0]

    def passages(self, passage_ids: Sequence[int]) -> list[PassageRecord]:
        ids = list(dict.fromkeys(passage_ids))
        if not ids:
            return []
        rows = self._conn.execute(
            "SELECT p.id, p.kind, p.conversation_id, p.message_id, p.role, p.participant, "
            "p.at_epoch, p.text, m.id, m.status, m.document, "
            f"COALESCE(m.updated_epoch, m.created_epoch) FROM recall_passages p {_MEMORIES} "
            "WHERE p.tenant = %s AND p.id = ANY(%s)",
            (self._tenant, ids),
        ).fetchall()
        return [PassageRecord(int(r[0]), *r[1:]) for r in rows]

    def memory_passages(self, memory_ids: Iterable[str]) -> dict[str, int]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        rows = self._conn.execute(
            "SELECT m.id, p.id FROM recall_passages p JOIN memories m ON m.tenant = p.tenant "
            "AND m.seq = p.memory_seq WHERE p.tenant = %s AND p.kind = 'memory' "
            "AND m.id = ANY(%s)",
            (self._tenant, ids),
        ).fetchall()
        return {str(r[0]): int(r[1]) for r in rows}

    def titles(self, conversation_ids: Iterable[str]) -> dict[str, str | None]:
        ids = list(dict.fromkeys(conversation_ids))
        if not ids:
            return {}
        rows = self._conn.execute(
            "SELECT id, title FROM conversations WHERE tenant = %s AND id = ANY(%s)",
            (self._tenant, ids),
        ).fetchall()
        return {str(r[0]): r[1] for r in rows}

    def rebuild(self) -> tuple[int, int]:
        conn, tenant = self._conn, self._tenant
        remove_everything(conn, tenant, self._vectors)
        memories = conversations = 0
        for batch in _stored_memories(conn, tenant):
            index_memories(conn, tenant, self._vectors, batch, fresh=True)
            memories += len(batch)
        for chunk in _stored_conversations(conn, tenant):
            index_conversations(conn, tenant, self._vectors, chunk, fresh=True)
            conversations += len(chunk)
        return memories, conversations
