"""The recall index of the SQLite store (`memvault.recall.indexes`): FTS5 and sqlite-vec in
the vault's own encrypted database (tables: migration 4, `m0004_recall_index`).

The store writes the index as it writes memories and conversations, on its writer connection
inside the same transaction (`index_memories`, `index_conversations`, `remove_memories`), so
the index never lags the data; recall reads it through `SQLiteRecallIndex`, bound to a
connection for one block (`SQLiteStore.recall_index`). None of this commits.

Full text: ``recall_fts``, contentless FTS5 with the ``memvault`` tokenizer (Snowball English
and Portuguese stems, diacritics folded: `memvault.recall.analysis`), BM25 over two columns
(the passage's words; its context, weighed half). A query's stems are alternatives (OR).

Vectors: each is kept as float32 (``recall_vectors``) and, for search, as its binary
quantisation in a ``vec0`` table of the model (``recall_vec_<id>``, one bit a dimension): a
nearest-neighbour search over the bits is some twenty times faster than over the floats, and
its best candidates are then scored again with the float vectors (cosine), which gives back
almost all of the exact search's quality. When the scope leaves few passages (a
conversation), they are scored exactly instead.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import math
import os
import re
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from memvault.model import Memory
from memvault.recall import analysis
from memvault.recall.index import Analysed, analysed, conversation_passages, memory_passage
from memvault.recall.indexes import (
    MEMORY,
    MESSAGE,
    Passage,
    PassageRecord,
    RecallIndex,
    Scope,
    Unembedded,
)

__all__ = [
    "BULK_DEFER_ROWS",
    "EXACT_LIMIT",
    "OVERSAMPLE",
    "SQLiteRecallIndex",
    "bulk_load",
    "index_conversations",
    "index_memories",
    "optimize",
    "pack",
    "prepare_connection",
    "rebuild",
    "remove_memories",
    "write_analysed",
]

#: At most this many passages left by the scope: scored exactly, not through the bit index.
EXACT_LIMIT: Final = 20_000
#: Candidates taken from the bit index per result wanted, before the float rescoring.
#: sqlite-vec's KNN over 612,000 bit vectors costs about 1 ms of CPU per candidate asked
#: (it keeps each chunk's best by selection): 8 per result (400) took 300 ms, 2 (60 for
#: fused recall's 30) 64 ms, 1 (30) 32 ms, which brings fused recall's CPU p95 from 158 to 96
#: ms there (benchmarks/recall.py --scale). On the labeled set 1 and 2 give the same figures
#: (dev, whole vault: fused R@10 / MRR .656 / .542 and .649 / .544; vectors alone .505 /
#: .306 and .502 / .305); at scale, synthetic vectors cannot tell.
OVERSAMPLE: Final = 1.0
#: bm25 column weights: the passage's words, then its context (speaker, title; tags, type).
_BM25: Final = "bm25(recall_fts, 1.0, 0.5)"
#: Full-text candidates taken before filters that only status and kind set, per one wanted.
_TEXT_OVERSAMPLE: Final = 4
_CHUNK: Final = 500


def prepare_connection(conn: Any) -> None:
    """Make a new connection able to use the index: the full-text tokenizer and sqlite-vec."""
    analysis.prepare(conn)
    conn.enable_load_extension(True)
    try:
        conn.load_extension(_vec_extension())
    finally:
        conn.enable_load_extension(False)


@functools.cache
def _vec_extension() -> str:
    """The path of sqlite-vec's loadable extension, found without importing the package:
    ``import sqlite_vec`` imports numpy (and its BLAS) when installed, which a server never
    uses — 14 MiB of its resident memory from the start (benchmarks/aimem_http.py)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("sqlite-vec is not installed (pip install sqlite-vec)")
    return os.path.join(next(iter(spec.submodule_search_locations)), "vec0")


def pack(vector: Sequence[float]) -> bytes:
    """float32, little-endian: what sqlite-vec reads as a vector."""
    return struct.pack(f"<{len(vector)}f", *vector)


def unpack(blob: bytes) -> list[float]:
    return list(struct.unpack(f"<{len(blob) // 4}f", blob))


# -- writing -----------------------------------------------------------------------------------

_INSERT_PASSAGE: Final = (
    "INSERT INTO recall_passages (id, kind, memory_seq, conversation_id, message_id, part, "
    "role, participant, platform, at_epoch, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_FTS: Final = "INSERT INTO recall_fts (rowid, body, context) VALUES (?, ?, ?)"

#: The lookup index of passages by conversation (migration 4), which a bulk load drops
#: while it writes and makes again at its end (`bulk_load`).
_CONVERSATION_INDEX: Final = "recall_passages_conversation"
_CREATE_CONVERSATION_INDEX: Final = (
    f"CREATE INDEX IF NOT EXISTS {_CONVERSATION_INDEX} ON recall_passages (conversation_id)"
)
#: The page cache (KiB) while the index is made: the sort runs in memory (``temp_store``),
#: and the pages the cache gives back hold it, so the import's peak stays where it was.
_SORT_CACHE_KIB: Final = 2048
#: The full-text entries FTS5 holds in memory before it writes them as a segment (its
#: ``hashsize``, in bytes) while a bulk load runs, and its own default, set again at the end.
#: With one transaction and no savepoints (an import: `Vault.transaction(bulk=True)`), fewer,
#: larger segments mean less merging: FTS5 alone for the 400,000 passages of the 300 MB
#: ChatGPT import took 1.20 s of CPU with 8 MiB (1.22 s with 16), not 1.55 s with its
#: default (and 1.76 s with a savepoint every 1,500 passages, as each batch made before).
_BULK_HASH_BYTES: Final = 8 << 20
_DEFAULT_HASH_BYTES: Final = 1 << 20
#: A bulk load drops the conversation index once it has written this many passages, and as
#: many as the index held before (so making it again costs at most about twice the rows the
#: load wrote; a small import into a large vault keeps it).
BULK_DEFER_ROWS: Final = 50_000


@dataclass
class _Bulk:
    held: int  # passages in the index when the load began (the largest id: an upper bound)
    written: int = 0
    dropped: bool = False
    kept: bool = False  # needed by a lookup: not dropped again in this load
    hashed: bool = False  # FTS5's larger hash set (at the first write: a load that writes
    # nothing, such as a re-import that changes nothing, leaves the file as it was)


#: Bulk loads in progress, by connection (`bulk_load`).
_BULK: dict[int, _Bulk] = {}


@contextlib.contextmanager
def bulk_load(conn: Any) -> Iterator[None]:
    """A scope, inside the caller's write transaction, in which many passages are written
    (an import): past `BULK_DEFER_ROWS` the passages' conversation index is dropped and made
    again, sorted in one pass, when the scope ends. Its keys (conversation and message ids)
    come in no order, so keeping it up row by row touched a random page of it for every
    passage: 40 % of the index's writing time on the 300 MB ChatGPT import
    (benchmarks/importers.py), and its pages went in and out of the bulk page cache. Inside
    the scope only a conversation's re-indexing reads passages by conversation: it makes the
    index again first, for the rest of the scope. Dropped inside the transaction: a rollback
    brings it back. Meanwhile FTS5 keeps more pending entries in memory (`_BULK_HASH_BYTES`)."""
    key = id(conn)
    if key in _BULK:  # nested: the outer scope decides
        yield
        return
    held = int(conn.execute("SELECT COALESCE(max(id), 0) FROM recall_passages").fetchone()[0])
    _BULK[key] = _Bulk(held)
    try:
        yield
    except BaseException:
        state = _BULK.pop(key)
        if state.dropped:
            # The caller's transaction is usually rolled back now (which restores the index);
            # if it is kept, the index must be there. A failure here is not the one to report.
            with contextlib.suppress(Exception):
                conn.execute(_CREATE_CONVERSATION_INDEX)
        if state.hashed:
            with contextlib.suppress(Exception):
                _hash_size(conn, _DEFAULT_HASH_BYTES)
        raise
    state = _BULK.pop(key)
    if state.hashed:
        _hash_size(conn, _DEFAULT_HASH_BYTES)
    if state.dropped:
        _make_index(conn)


def _hash_size(conn: Any, size: int) -> None:
    """FTS5's ``hashsize`` of the full-text table (kept in its configuration, so it is set
    inside the caller's transaction: a rollback undoes it too)."""
    conn.execute("INSERT INTO recall_fts (recall_fts, rank) VALUES ('hashsize', ?)", (size,))


def _make_index(conn: Any) -> None:
    (cache,) = conn.execute("PRAGMA cache_size").fetchone()
    conn.execute(f"PRAGMA cache_size = {-_SORT_CACHE_KIB}")
    try:
        conn.execute(_CREATE_CONVERSATION_INDEX)
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")


def _restore_index(conn: Any) -> None:
    """The conversation index made again now if a bulk load dropped it (and kept from then)."""
    state = _BULK.get(id(conn))
    if state is None:
        return
    if state.dropped:
        _make_index(conn)
        state.dropped = False
    state.kept = True


def _defer_index(conn: Any, rows: int) -> None:
    state = _BULK.get(id(conn))
    if state is None:
        return
    state.written += rows
    if not state.hashed:
        _hash_size(conn, _BULK_HASH_BYTES)
        state.hashed = True
    if not (state.dropped or state.kept) and state.written >= max(BULK_DEFER_ROWS, state.held):
        conn.execute(f"DROP INDEX IF EXISTS {_CONVERSATION_INDEX}")
        state.dropped = True


def write_analysed(conn: Any, rows: Sequence[Analysed]) -> int:
    """Write analysed passages with two statements for the batch (ids follow the largest
    in use)."""
    if not rows:
        return 0
    _defer_index(conn, len(rows))
    first = int(conn.execute("SELECT COALESCE(max(id), 0) FROM recall_passages").fetchone()[0])
    first += 1
    conn.executemany(_INSERT_PASSAGE, [(first + i, *r[:10]) for i, r in enumerate(rows)])
    conn.executemany(_INSERT_FTS, [(first + i, r[10], r[11]) for i, r in enumerate(rows)])
    return len(rows)


def _vector_tables(conn: Any) -> list[str]:
    return [f"recall_vec_{int(r[0])}" for r in conn.execute("SELECT id FROM recall_models")]


def _remove_passages(conn: Any, where: str, params: Sequence[Any]) -> tuple[int, int]:
    """Delete the passages `where` selects, with their full-text entries and vectors.
    Returns (passages, vectors) deleted."""
    ids = [int(r[0]) for r in conn.execute(f"SELECT id FROM recall_passages WHERE {where}", params)]
    if not ids:
        return 0, 0
    tables = _vector_tables(conn)
    vectors = 0
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        conn.execute(f"DELETE FROM recall_fts WHERE rowid IN ({marks})", chunk)
        deleted = conn.execute(f"DELETE FROM recall_vectors WHERE passage_id IN ({marks})", chunk)
        vectors += max(int(deleted.rowcount), 0)
        for table in tables:
            conn.execute(f"DELETE FROM {table} WHERE rowid IN ({marks})", chunk)
        conn.execute(f"DELETE FROM recall_passages WHERE id IN ({marks})", chunk)
    return len(ids), vectors


def remove_memories(conn: Any, seqs: Iterable[int]) -> int:
    """Drop the passages (words and vectors) of the memories with these seqs."""
    wanted = list(dict.fromkeys(seqs))
    removed = 0
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        where = f"memory_seq IN ({', '.join('?' * len(chunk))})"
        removed += _remove_passages(conn, where, chunk)[0]
    return removed


def remove_conversation(conn: Any, conversation_id: str) -> tuple[int, int]:
    """Drop the passages (words and vectors) of a conversation's messages; the passages of
    memories derived from it stay (the memories do). Returns (passages, vectors)."""
    _restore_index(conn)
    return _remove_passages(conn, "conversation_id = ? AND kind = 'message'", (conversation_id,))


def remove_everything(conn: Any) -> tuple[int, int]:
    """Drop every passage, full-text entry and vector (and each model's vector table: made
    again with its first vector). Returns (passages, vectors) dropped."""
    passages = int(conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0])
    vectors = int(conn.execute("SELECT count(*) FROM recall_vectors").fetchone()[0])
    for table in _vector_tables(conn):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.execute("DELETE FROM recall_vectors")
    conn.execute("DELETE FROM recall_models")
    conn.execute("DELETE FROM recall_passages")
    conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('delete-all')")
    return passages, vectors


def index_memories(conn: Any, memories: Iterable[tuple[int, Memory]], *, fresh: bool) -> None:
    """Index memories (seq, memory); unless `fresh` (just inserted), their old passages go
    first."""
    batch = list(memories)
    if not fresh:
        remove_memories(conn, [seq for seq, _ in batch])
    write_analysed(conn, [analysed(memory_passage(seq, memory)) for seq, memory in batch])


def index_conversations(
    conn: Any,
    conversations: Iterable[tuple[str, str | None, Mapping[str, Any]]],
    *,
    fresh: bool,
) -> None:
    """Index conversations (id, platform, document): their messages' passages replace those
    stored before (unless `fresh`: new conversations, nothing to replace). A document a
    reader process analysed already (`memvault.recall.index.message_rows`, carried as its
    ``passages``) is not read again."""
    rows: list[Analysed] = []
    for conversation_id, platform, document in conversations:
        if not fresh:
            remove_conversation(conn, conversation_id)
        ready = getattr(document, "passages", None)
        if ready is not None:
            rows.extend(
                (
                    "message",
                    None,
                    conversation_id,
                    m,
                    part,
                    role,
                    who,
                    platform,
                    at,
                    text,
                    text if w is None else w,
                    c,
                )
                for m, part, role, who, at, text, w, c in ready
            )
        else:
            rows.extend(map(analysed, conversation_passages(conversation_id, platform, document)))
    write_analysed(conn, rows)


def _stored_memories(conn: Any) -> Iterator[list[tuple[int, Memory]]]:
    from memvault.store.codec import load_memory

    last = 0
    while True:
        rows = conn.execute(
            "SELECT seq, document FROM memories WHERE seq > ? ORDER BY seq LIMIT 1000", (last,)
        ).fetchall()
        if not rows:
            return
        yield [(int(seq), load_memory(document)) for seq, document in rows]
        last = int(rows[-1][0])


def _stored_conversations(conn: Any) -> Iterator[list[tuple[str, str, dict[str, Any]]]]:
    from memvault.store.documents import load_document

    last = 0
    while True:
        rows = conn.execute(
            "SELECT rowid, id, platform, document FROM conversations WHERE rowid > ? "
            "ORDER BY rowid LIMIT 200",
            (last,),
        ).fetchall()
        if not rows:
            return
        yield [(str(r[1]), str(r[2]), load_document(r[3])) for r in rows]
        last = int(rows[-1][0])


def rebuild(conn: Any) -> tuple[int, int]:
    """Index everything the vault holds again, from nothing (vectors are dropped: their
    passages get new ids; `memvault embed` computes them again). Returns (memories,
    conversations) indexed."""
    remove_everything(conn)
    memories = conversations = 0
    for batch in _stored_memories(conn):
        index_memories(conn, batch, fresh=True)
        memories += len(batch)
    for chunk in _stored_conversations(conn):
        index_conversations(conn, chunk, fresh=True)
        conversations += len(chunk)
    return memories, conversations


def optimize(conn: Any) -> None:
    """Merge the full-text index into one segment, so no deleted passage's terms are left in
    an older one (erasure, AIMEM §5.2)."""
    conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('optimize')")


# -- reading -----------------------------------------------------------------------------------


def _where(scope: Scope) -> tuple[str, list[Any]]:
    """SQL conditions of a scope over ``recall_passages p`` LEFT JOIN ``memories m``, and
    their parameters."""
    if scope.empty:
        return "0", []
    clauses: list[str] = []
    params: list[Any] = []
    if scope.kind == MEMORY:
        clauses.append("p.kind = 'memory'")
    elif scope.kind == MESSAGE:
        clauses.append("p.kind = 'message'")
    marks = ", ".join("?" * len(scope.statuses))
    clauses.append(
        f"(p.kind = 'message' OR m.status IN ({marks}))" if marks else "p.kind = 'message'"
    )
    params.extend(scope.statuses)
    if scope.conversation is not None:
        clauses.append("p.conversation_id = ?")
        params.append(scope.conversation)
    if scope.platforms:
        clauses.append(f"p.platform IN ({', '.join('?' * len(scope.platforms))})")
        params.extend(scope.platforms)
    if scope.types:
        clauses.append(f"m.type IN ({', '.join('?' * len(scope.types))})")
        params.extend(scope.types)
    if scope.custom_types:
        clauses.append(f"m.custom_type IN ({', '.join('?' * len(scope.custom_types))})")
        params.extend(scope.custom_types)
    for tag in scope.tags:
        clauses.append("m.seq IN (SELECT t.memory_seq FROM memory_tags t WHERE t.tag = ?)")
        params.append(tag)
    if scope.since is not None:
        clauses.append("COALESCE(m.created_epoch, p.at_epoch) >= ?")
        params.append(scope.since.timestamp())
    if scope.until is not None:
        clauses.append("COALESCE(m.created_epoch, p.at_epoch) <= ?")
        params.append(scope.until.timestamp())
    if scope.role is not None:
        clauses.append("p.role = ?")
        params.append(scope.role)
    if scope.participant is not None:
        clauses.append("p.participant = ? COLLATE NOCASE")
        params.append(scope.participant)
    if scope.reader is not None:
        # PAM §9: public memories, and shared ones granting this agent read.
        clauses.append(
            "(m.visibility = 'public' OR (m.visibility = 'shared' AND m.seq IN ("
            "SELECT g.memory_seq FROM memory_grants g WHERE g.entity = ? "
            "AND g.permission = 'read')))"
        )
        params.append(scope.reader)
    return " AND ".join(clauses), params


_JOINS: Final = "JOIN recall_passages p ON p.id = f.id LEFT JOIN memories m ON m.seq = p.memory_seq"
_STARRED: Final = re.compile(r"([^\W_]+)\*")


class SQLiteRecallIndex(RecallIndex):
    """The recall index on one connection of the store (`SQLiteStore.recall_index`)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    # -- text --------------------------------------------------------------------------------

    def query_terms(self, text: str) -> list[tuple[str, ...]]:
        return analysis.query_terms(self._conn, text)

    def match_expression(self, text: str) -> str | None:
        """The FTS5 query for `text`: every stem of every word kept, as alternatives (OR). A
        word ending in ``*`` matches as a prefix: its stems do ("portugues*" finds
        "português", "Portuguese" and "portuguesa")."""
        terms = dict.fromkeys(t for word in self.query_terms(text) for t in word if t)
        prefixes = {
            t for word in _STARRED.findall(text) for stems in self.query_terms(word) for t in stems
        }
        terms.update(dict.fromkeys(prefixes))
        if not terms:
            return None
        alternatives = " OR ".join(
            '"' + t.replace('"', '""') + '"' + ("*" if t in prefixes else "") for t in terms
        )
        return "{body context} : (" + alternatives + ")"

    def search(self, text: str, depth: int, scope: Scope) -> list[tuple[int, float]]:
        match = self.match_expression(text)
        if match is None or scope.empty:
            return []
        conn = self._conn
        where, params = _where(scope)
        if not scope.narrow:
            # Rank the matches in FTS5 alone, then drop those the status and kind filters do
            # not let through; only if too few are left, rank the filtered matches directly.
            wanted = depth * _TEXT_OVERSAMPLE
            rows = conn.execute(
                f"WITH f AS (SELECT rowid AS id, {_BM25} AS s FROM recall_fts "
                "WHERE recall_fts MATCH ? ORDER BY s LIMIT ?) "
                f"SELECT f.id, f.s FROM f {_JOINS} WHERE {where} ORDER BY f.s LIMIT ?",
                [match, wanted, *params, depth],
            ).fetchall()
            if len(rows) >= depth:
                return [(int(r[0]), -float(r[1])) for r in rows]
            full = conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM recall_fts WHERE recall_fts MATCH ? LIMIT ?)",
                (match, wanted),
            ).fetchone()[0]
            if int(full) < wanted:  # every match was ranked: nothing more to find
                return [(int(r[0]), -float(r[1])) for r in rows]
        if scope.conversation is not None:
            # Only the rowid range of the conversation's passages (written together, so close
            # together) is matched and scored, not every match in the vault: FTS5 seeks a
            # rowid range in its lists, while a rowid IN (…) would be checked match by match.
            # MATERIALIZED: matched once, then joined. Flattened, SQLite walked the
            # conversation's passages and ran the whole MATCH again for each one (0.5 ms a
            # passage: 120 ms of CPU a query at p50 over a 600,000-passage vault, 3 ms so).
            low, high = conn.execute(
                "SELECT min(id), max(id) FROM recall_passages WHERE conversation_id = ?",
                (scope.conversation,),
            ).fetchone()
            if low is None:
                return []
            rows = conn.execute(
                f"WITH f AS MATERIALIZED (SELECT rowid AS id, {_BM25} AS s FROM recall_fts "
                "WHERE recall_fts MATCH ? AND rowid BETWEEN ? AND ?) "
                f"SELECT f.id, f.s FROM f {_JOINS} WHERE {where} ORDER BY f.s LIMIT ?",
                [match, int(low), int(high), *params, depth],
            ).fetchall()
            return [(int(r[0]), -float(r[1])) for r in rows]
        rows = conn.execute(
            f"SELECT f.id, f.s FROM (SELECT rowid AS id, {_BM25} AS s FROM recall_fts "
            f"WHERE recall_fts MATCH ?) f {_JOINS} WHERE {where} ORDER BY f.s LIMIT ?",
            [match, *params, depth],
        ).fetchall()
        return [(int(r[0]), -float(r[1])) for r in rows]

    # -- vectors -----------------------------------------------------------------------------

    def model(self, name: str, dimension: int | None = None, *, create: bool = False) -> int | None:
        if dimension is None:
            row = self._conn.execute(
                "SELECT id FROM recall_models WHERE model = ? ORDER BY id DESC LIMIT 1", (name,)
            ).fetchone()
            return None if row is None else int(row[0])
        row = self._conn.execute(
            "SELECT id FROM recall_models WHERE model = ? AND dimension = ?", (name, dimension)
        ).fetchone()
        if row is not None:
            return int(row[0])
        if not create:
            return None
        cursor = self._conn.execute(
            "INSERT INTO recall_models (model, dimension) VALUES (?, ?)", (name, dimension)
        )
        new = int(cursor.lastrowid)
        self._conn.execute(
            f"CREATE VIRTUAL TABLE recall_vec_{new} USING vec0(bits bit[{int(dimension)}])"
        )
        return new

    def coverage(self, model: int | None) -> tuple[int, int]:
        total = int(self._conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0])
        if model is None:
            return 0, total
        # Counted over the (passage, model) index, not the table of float vectors, which is
        # some forty times larger.
        done = int(
            self._conn.execute(
                "SELECT count(*) FROM recall_vectors INDEXED BY recall_vectors_passage "
                "WHERE model_id = ?",
                (model,),
            ).fetchone()[0]
        )
        return done, total

    def complete(self, model: int) -> bool:
        """In two index look-ups: a passage's id is one above the largest when it is written
        and `memvault.recall.vectors.embed_missing` goes in id order, so the passages without
        a vector are those above the last one embedded: none there, none anywhere."""
        last = self._conn.execute(
            "SELECT max(passage_id) FROM recall_vectors WHERE model_id = ?", (model,)
        ).fetchone()[0]
        if last is None:
            return False
        above = self._conn.execute("SELECT 1 FROM recall_passages WHERE id > ? LIMIT 1", (last,))
        return above.fetchone() is None

    def unembedded(self, model: int, after: int, limit: int) -> list[Unembedded]:
        rows = self._conn.execute(
            "SELECT p.id, p.text, p.participant, c.title FROM recall_passages p "
            "LEFT JOIN conversations c ON c.id = p.conversation_id "
            "WHERE p.id > ? AND NOT EXISTS "
            "(SELECT 1 FROM recall_vectors v WHERE v.model_id = ? AND v.passage_id = p.id) "
            "ORDER BY p.id LIMIT ?",
            (after, model, limit),
        ).fetchall()
        return [Unembedded(int(r[0]), str(r[1]), r[2], r[3]) for r in rows]

    def put_vectors(self, model: int, vectors: Sequence[tuple[int, Sequence[float]]]) -> int:
        if not vectors:
            return 0
        marks = ", ".join("?" * len(vectors))
        alive = {
            int(r[0])
            for r in self._conn.execute(
                f"SELECT id FROM recall_passages WHERE id IN ({marks})", [p for p, _ in vectors]
            )
        }
        rows = [(pid, pack(vec)) for pid, vec in vectors if pid in alive]
        self._conn.executemany(
            "INSERT OR REPLACE INTO recall_vectors (model_id, passage_id, vector) VALUES (?, ?, ?)",
            [(model, pid, blob) for pid, blob in rows],
        )
        self._conn.executemany(
            f"INSERT OR REPLACE INTO recall_vec_{int(model)} (rowid, bits) "
            "VALUES (?, vec_quantize_binary(?))",
            rows,
        )
        return len(rows)

    def _scope_size(self, where: str, params: list[Any]) -> int:
        row = self._conn.execute(
            "SELECT count(*) FROM recall_passages p LEFT JOIN memories m ON m.seq = p.memory_seq "
            f"WHERE {where}",
            params,
        ).fetchone()
        return int(row[0])

    def nearest(
        self, model: int, query: Sequence[float], depth: int, scope: Scope
    ) -> list[tuple[int, float]]:
        if scope.empty:
            return []
        conn = self._conn
        blob = pack(query)
        where, params = _where(scope)
        size = self._scope_size(where, params) if scope.narrow else EXACT_LIMIT + 1
        if size <= EXACT_LIMIT:
            # From the passages the scope leaves (an index finds a conversation's) to their
            # vectors: CROSS JOIN keeps SQLite from walking every vector of the model instead.
            rows = conn.execute(
                "SELECT p.id, vec_distance_cosine(v.vector, ?) AS d FROM recall_passages p "
                "CROSS JOIN recall_vectors v ON v.model_id = ? AND v.passage_id = p.id "
                f"LEFT JOIN memories m ON m.seq = p.memory_seq WHERE {where} ORDER BY d LIMIT ?",
                [blob, model, *params, depth],
            ).fetchall()
            return [(int(r[0]), 1.0 - float(r[1])) for r in rows]
        # The bit index's k nearest (a KNN query of vec0), then their float vectors, looked up
        # by key, filtered and scored exactly.
        candidates = [
            int(r[0])
            for r in conn.execute(
                f"SELECT rowid FROM recall_vec_{int(model)} WHERE bits MATCH "
                "vec_quantize_binary(?) AND k = ?",
                (blob, math.ceil(depth * OVERSAMPLE)),
            )
        ]
        if not candidates:
            return []
        marks = ", ".join("?" * len(candidates))
        rows = conn.execute(
            "SELECT p.id, vec_distance_cosine(v.vector, ?) AS d FROM recall_passages p "
            "CROSS JOIN recall_vectors v ON v.model_id = ? AND v.passage_id = p.id "
            f"LEFT JOIN memories m ON m.seq = p.memory_seq WHERE p.id IN ({marks}) AND {where} "
            "ORDER BY d LIMIT ?",
            [blob, model, *candidates, *params, depth],
        ).fetchall()
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows]

    def vectors(self, model: int, passage_ids: Iterable[int]) -> dict[int, list[float]]:
        ids = list(passage_ids)
        out: dict[int, list[float]] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            for pid, blob in self._conn.execute(
                "SELECT passage_id, vector FROM recall_vectors "
                f"WHERE model_id = ? AND passage_id IN ({marks})",
                [model, *chunk],
            ):
                out[int(pid)] = unpack(blob)
        return out

    # -- passages ----------------------------------------------------------------------------

    def add_passages(self, passages: Sequence[Passage]) -> int:
        return write_analysed(self._conn, [analysed(p) for p in passages])

    def delete_memories(self, memory_seqs: Iterable[int]) -> int:
        return remove_memories(self._conn, memory_seqs)

    def delete_conversation(self, conversation_id: str) -> int:
        return remove_conversation(self._conn, conversation_id)[0]

    def passages(self, passage_ids: Sequence[int]) -> list[PassageRecord]:
        out: list[PassageRecord] = []
        ids = list(passage_ids)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = self._conn.execute(
                "SELECT p.id, p.kind, p.conversation_id, p.message_id, p.role, p.participant, "
                "p.at_epoch, p.text, m.id, m.status, m.document, "
                "COALESCE(m.updated_epoch, m.created_epoch) "
                "FROM recall_passages p LEFT JOIN memories m ON m.seq = p.memory_seq "
                f"WHERE p.id IN ({marks})",
                chunk,
            ).fetchall()
            out.extend(PassageRecord(int(r[0]), *r[1:]) for r in rows)
        return out

    def memory_passages(self, memory_ids: Iterable[str]) -> dict[str, int]:
        ids = list(dict.fromkeys(memory_ids))
        out: dict[str, int] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            for memory_id, pid in self._conn.execute(
                "SELECT m.id, p.id FROM recall_passages p JOIN memories m ON m.seq = p.memory_seq "
                f"WHERE p.kind = 'memory' AND m.id IN ({marks})",
                chunk,
            ):
                out[str(memory_id)] = int(pid)
        return out

    def titles(self, conversation_ids: Iterable[str]) -> dict[str, str | None]:
        ids = list(dict.fromkeys(conversation_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        return {
            str(r[0]): r[1]
            for r in self._conn.execute(
                f"SELECT id, title FROM conversations WHERE id IN ({marks})", ids
            )
        }

    def rebuild(self) -> tuple[int, int]:
        return rebuild(self._conn)
