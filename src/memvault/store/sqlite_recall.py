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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any, Final, cast

import orjson

from memvault.model import Memory
from memvault.recall import analysis
from memvault.recall.index import Analysed, analysed, conversation_passages, memory_passage
from memvault.recall.indexes import (
    MESSAGE,
    Passage,
    PassageRecord,
    RecallIndex,
    Scope,
    Unembedded,
)
from memvault.recall.scope_sql import ScopeSQL

__all__ = [
    "BITS_CACHE_MAX_KIB",
    "BITS_HEADROOM_KIB",
    "EXACT_LIMIT",
    "OVERSAMPLE",
    "SQLiteRecallIndex",
    "bits_cache_kib",
    "bulk_load",
    "index_conversations",
    "index_memories",
    "optimize",
    "pack",
    "prepare_connection",
    "rebuild",
    "remove_memories",
    "write_analysed",
    "write_messages",
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
#: Page cache (KiB) a whole-vault vector search leaves beside the bit index, for the query's
#: other pages: its full-text lists, passages and float vectors (`bits_cache_kib`).
BITS_HEADROOM_KIB: Final = 32_768
#: The most a connection's page cache is raised to hold the bit index (KiB).
BITS_CACHE_MAX_KIB: Final = 262_144
#: sqlite-vec keeps a vec0 table's vectors in chunks of this many rows (its default).
_VEC_CHUNK: Final = 1024
#: Pages per byte of rows read by sqlite-vec's KNN: measured 50.2 MB read for 612,187 passages
#: of 512 bits (64 bytes a vector, 8 a rowid): 1.14 times the rows' bytes.
_PAGE_OVERHEAD: Final = 1.15
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
    ``import sqlite_vec`` imports numpy (and its BLAS) when installed, which the store never
    uses: 17 MiB more resident memory in every process that opens a vault, a server's peak
    included (benchmarks/aimem_http.py)."""
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
#: A message's passage: its conversation by `recall_conversations` id (migration 7).
_INSERT_MESSAGE: Final = (
    "INSERT INTO recall_passages (id, kind, conversation, message_id, part, role, participant, "
    "at_epoch, text) VALUES (?, 'message', ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_CONVERSATION: Final = (
    "INSERT INTO recall_conversations (id, conversation_id, platform, first_id, last_id) "
    "VALUES (?, ?, ?, ?, ?)"
)
_INSERT_FTS: Final = "INSERT INTO recall_fts (rowid, body, context) VALUES (?, ?, ?)"
#: Conversations' message passages from their JSON (`MessageRows`), written in C by the
#: analysis extension's `memvault_write_passages`: ids from ?1 on, conversation handles from
#: ?2 on, ?3 the JSON array of the conversations' passage arrays; it answers the JSON array of
#: their numbers of passages.
_WRITE_PASSAGES_JSON: Final = "SELECT memvault_write_passages(?, ?, ?)"

#: The full-text entries FTS5 holds in memory before it writes them as a segment (its
#: ``hashsize``, in bytes) while a bulk load runs, and its own default, set again at the end.
#: With one transaction and no savepoints (an import: `Vault.transaction(bulk=True)`), fewer,
#: larger segments mean less merging: FTS5 alone for the 400,000 passages of the 300 MB
#: ChatGPT import took 1.20 s of CPU with 8 MiB (1.22 s with 16), not 1.55 s with its
#: default (and 1.76 s with a savepoint every 1,500 passages, as each batch made before).
_BULK_HASH_BYTES: Final = 8 << 20
_DEFAULT_HASH_BYTES: Final = 1 << 20

#: A message's passage as the writer takes it: message id, part, role, participant, time,
#: text, analysed words (None: the text itself), analysed context
#: (`memvault.recall.index.message_rows`).
MessageRow = Sequence[Any]
#: A conversation's passages: the rows, or their JSON array as a reader process sent it.
MessageRows = Sequence[MessageRow] | bytes
#: The JSON of no passages.
_NO_ROWS: Final = b"[]"


@dataclass
class _Bulk:
    hashed: bool = False  # FTS5's larger hash set (at the first write: a load that writes
    # nothing, such as a re-import that changes nothing, leaves the file as it was)


#: Bulk loads in progress, by connection (`bulk_load`).
_BULK: dict[int, _Bulk] = {}


@contextlib.contextmanager
def bulk_load(conn: Any) -> Iterator[None]:
    """A scope, inside the caller's write transaction, in which many passages are written
    (an import): FTS5 keeps more pending entries in memory (`_BULK_HASH_BYTES`) and writes
    fewer, larger segments."""
    key = id(conn)
    if key in _BULK:  # nested: the outer scope decides
        yield
        return
    _BULK[key] = _Bulk()
    try:
        yield
    except BaseException:
        if _BULK.pop(key).hashed:
            with contextlib.suppress(Exception):
                _hash_size(conn, _DEFAULT_HASH_BYTES)
        raise
    if _BULK.pop(key).hashed:
        _hash_size(conn, _DEFAULT_HASH_BYTES)


def _hash_size(conn: Any, size: int) -> None:
    """FTS5's ``hashsize`` of the full-text table (kept in its configuration, so it is set
    inside the caller's transaction: a rollback undoes it too)."""
    conn.execute("INSERT INTO recall_fts (recall_fts, rank) VALUES ('hashsize', ?)", (size,))


def _bulk_hash(conn: Any) -> None:
    state = _BULK.get(id(conn))
    if state is not None and not state.hashed:
        _hash_size(conn, _BULK_HASH_BYTES)
        state.hashed = True


def _next_id(conn: Any, table: str) -> int:
    return int(conn.execute(f"SELECT COALESCE(max(id), 0) FROM {table}").fetchone()[0]) + 1


def write_analysed(conn: Any, rows: Sequence[Analysed]) -> int:
    """Write analysed passages of any kind (ids follow the largest in use); a message's
    passages go through its conversation's row (`write_messages`)."""
    if not rows:
        return 0
    memories = [r for r in rows if r[0] != MESSAGE]
    if memories:
        _bulk_hash(conn)
        first = _next_id(conn, "recall_passages")
        conn.executemany(_INSERT_PASSAGE, [(first + i, *r[:10]) for i, r in enumerate(memories)])
        conn.executemany(_INSERT_FTS, [(first + i, r[10], r[11]) for i, r in enumerate(memories)])
    by_conversation: dict[tuple[str, str | None], list[MessageRow]] = {}
    for r in rows:
        if r[0] == MESSAGE:
            by_conversation.setdefault((r[2], r[7]), []).append(
                (r[3], r[4], r[5], r[6], r[8], r[9], r[10], r[11])
            )
    for (conversation_id, platform), messages in by_conversation.items():
        _add_messages(conn, conversation_id, platform, messages)
    return len(rows)


def _add_messages(
    conn: Any, conversation_id: str, platform: str | None, rows: Sequence[MessageRow]
) -> None:
    """Message passages of a conversation that may have some already: its row's id range
    grows to take them in (a range may then hold other passages too: readers check the
    conversation as well as the range)."""
    found = conn.execute(
        "SELECT id FROM recall_conversations WHERE conversation_id = ?", (conversation_id,)
    ).fetchone()
    if found is None:
        write_messages(conn, [(conversation_id, platform, rows)])
        return
    _bulk_hash(conn)
    handle, first = int(found[0]), _next_id(conn, "recall_passages")
    _write_message_rows(conn, [(handle, first, rows)])
    conn.execute(
        "UPDATE recall_conversations SET last_id = ? WHERE id = ?", (first + len(rows) - 1, handle)
    )


def write_messages(conn: Any, conversations: Sequence[tuple[str, str | None, MessageRows]]) -> int:
    """Write the message passages of conversations the index does not hold yet: one
    `recall_conversations` row each, and their passages with ids that follow each other.

    Passages given as JSON (an import's: `memvault.importers.pipe`) are written in C, each
    run of such conversations by one call (`memvault_write_passages`), which reads the JSON
    once and inserts every passage and its full-text entry with single-row statements (no
    statement savepoint: FTS5 keeps its pending entries, as from ``executemany``). Binding them
    from Python cost the writing process more than SQLite's own work: for the 400,000 passages
    of the 300 MB ChatGPT export, ~0.8 CPU-s for the passages (``executemany``), then ~1 CPU-s
    for their full-text entries read back from the JSON into Python. Passages given as rows are
    written by `_write_message_rows`."""
    todo = [c for c in conversations if c[2] and c[2] != _NO_ROWS]
    if not todo:
        return 0
    _bulk_hash(conn)
    handle, first = _next_id(conn, "recall_conversations"), _next_id(conn, "recall_passages")
    heads: list[tuple[int, str, str | None, int, int]] = []
    batches: list[tuple[int, int, Sequence[MessageRow]]] = []
    count = 0
    at = 0
    while at < len(todo):
        given = todo[at][2]
        if isinstance(given, bytes):
            # The run of conversations given as JSON from here, written by one call.
            end = at + 1
            while end < len(todo) and isinstance(todo[end][2], bytes):
                end += 1
            run = todo[at:end]
            joined = b"[" + b",".join(cast(bytes, c[2]) for c in run) + b"]"
            (answer,) = conn.execute(_WRITE_PASSAGES_JSON, (first, handle, joined)).fetchone()
            sizes: list[int] = orjson.loads(answer)
        else:
            end = at + 1
            run = todo[at:end]
            sizes = [len(given)]
            batches.append((handle, first, given))
        for (conversation_id, platform, _), size in zip(run, sizes, strict=True):
            if size <= 0:
                continue
            heads.append((handle, conversation_id, platform, first, first + size - 1))
            handle += 1
            first += size
            count += size
        at = end
    conn.executemany(_INSERT_CONVERSATION, heads)
    if batches:
        _write_message_rows(conn, batches)
    return count


def _entries(first: int, rows: Sequence[MessageRow]) -> Iterable[tuple[Any, ...]]:
    """The full-text entries of passages with ids from `first` on: their analysed words
    (the text itself where None) and context."""
    _, _, _, _, _, texts, words, contexts = zip(*rows, strict=True)
    if words.count(None) < len(words):  # analysed words that are not the text itself
        texts = tuple(t if w is None else w for t, w in zip(texts, words, strict=True))
    return zip(range(first, first + len(rows)), texts, contexts, strict=True)


def _write_message_rows(conn: Any, batches: Sequence[tuple[int, int, Sequence[MessageRow]]]) -> int:
    """Two statements for every batch, their rows made by `zip` over each conversation's
    columns (no Python loop over the passages: at 400,000 passages, a loop that built each
    row's tuples cost the writing process about a second)."""
    passages: list[Iterable[tuple[Any, ...]]] = []
    entries: list[Iterable[tuple[Any, ...]]] = []
    count = 0
    for handle, first, rows in batches:
        ids = range(first, first + len(rows))
        messages, parts, roles, who, at, texts, _, _ = zip(*rows, strict=True)
        passages.append(
            zip(ids, repeat(handle, len(rows)), messages, parts, roles, who, at, texts, strict=True)
        )
        entries.append(_entries(first, rows))
        count += len(rows)
    conn.executemany(_INSERT_MESSAGE, chain.from_iterable(passages))
    conn.executemany(_INSERT_FTS, chain.from_iterable(entries))
    return count


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
    found = conn.execute(
        "SELECT id, first_id, last_id FROM recall_conversations WHERE conversation_id = ?",
        (conversation_id,),
    ).fetchone()
    if found is None:
        return 0, 0
    handle, low, high = (int(v) for v in found)
    removed = _remove_passages(conn, "id BETWEEN ? AND ? AND conversation = ?", (low, high, handle))
    conn.execute("DELETE FROM recall_conversations WHERE id = ?", (handle,))
    return removed


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
    conn.execute("DELETE FROM recall_conversations")
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
    todo: list[tuple[str, str | None, MessageRows]] = []
    for conversation_id, platform, document in conversations:
        if not fresh:
            remove_conversation(conn, conversation_id)
        ready = getattr(document, "passages", None)
        if ready is None:
            ready = [
                (p.message_id, p.part, p.role, p.participant, p.at_epoch, p.text, None, c)
                for p, c in _analysed_messages(
                    conversation_passages(conversation_id, platform, document)
                )
            ]
        todo.append((conversation_id, platform, ready))
    write_messages(conn, todo)


def _analysed_messages(passages: Sequence[Passage]) -> Iterator[tuple[Passage, str]]:
    indexable = analysis.indexable
    for p in passages:
        yield p, indexable(p.context) if p.context else ""


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


class _SQLiteScope(ScopeSQL):
    """A scope's conditions in SQLite (`memvault.recall.scope_sql`). A message's passage
    reaches its conversation through ``recall_conversations`` (migration 7): a conversation
    filter reads the range of ids its passages were written in (the primary key's order),
    a platform filter the conversations of that platform."""

    never = "0"

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self._conn = conn

    def among(self, column: str, values: Sequence[Any]) -> str:
        return f"{column} IN ({', '.join(self.bind(v) for v in values)})"

    def conversation(self, conversation_id: str) -> str:
        found = self._conn.execute(
            "SELECT id, first_id, last_id FROM recall_conversations WHERE conversation_id = ?",
            (conversation_id,),
        ).fetchone()
        if found is None:
            return f"p.conversation_id = {self.bind(conversation_id)}"
        # Bound in the order the marks appear.
        low, high, handle = self.bind(found[1]), self.bind(found[2]), self.bind(found[0])
        sources = self.bind(conversation_id)
        return (
            f"((p.id BETWEEN {low} AND {high} AND p.conversation = {handle}) "
            f"OR p.conversation_id = {sources})"
        )

    def platforms(self, platforms: Sequence[str]) -> str:
        own = self.among("p.platform", platforms)
        theirs = self.among("platform", platforms)
        return f"({own} OR p.conversation IN (SELECT id FROM recall_conversations WHERE {theirs}))"

    def tags(self, tags: Sequence[str]) -> str:
        return " AND ".join(
            f"m.seq IN (SELECT t.memory_seq FROM memory_tags t WHERE t.tag = {self.bind(tag)})"
            for tag in tags
        )

    def participant(self, name: str) -> str:
        return f"p.participant = {self.bind(name)} COLLATE NOCASE"

    def readable(self, reader: str) -> str:
        return (
            "(m.visibility = 'public' OR (m.visibility = 'shared' AND m.seq IN ("
            "SELECT g.memory_seq FROM memory_grants g WHERE g.entity = "
            f"{self.bind(reader)} AND g.permission = 'read')))"
        )


def _where(conn: Any, scope: Scope) -> tuple[str, list[Any]]:
    """SQL conditions of a scope over ``recall_passages p`` LEFT JOIN ``memories m``, and
    their parameters."""
    sql = _SQLiteScope(conn)
    return sql.where(scope), sql.params


_JOINS: Final = "JOIN recall_passages p ON p.id = f.id LEFT JOIN memories m ON m.seq = p.memory_seq"
_STARRED: Final = re.compile(r"([^\W_]+)\*")


def bits_cache_kib(passages: int, dimension: int, headroom_kib: int = BITS_HEADROOM_KIB) -> int:
    """The page cache (KiB) that holds a model's bit index of `passages` vectors of
    `dimension` (the chunks sqlite-vec's KNN reads whole: each vector's bits, its rowid, its
    validity bit) and `headroom_kib` for the query's other pages, at most
    `BITS_CACHE_MAX_KIB`."""
    chunks = -(-max(passages, 0) // _VEC_CHUNK)
    row = -(-dimension // 8) + 8 + 1 / 8
    return min(
        int(chunks * _VEC_CHUNK * row * _PAGE_OVERHEAD / 1024) + headroom_kib, BITS_CACHE_MAX_KIB
    )


class SQLiteRecallIndex(RecallIndex):
    """The recall index on one connection of the store (`SQLiteStore.recall_index`).

    `cache_kib`: the store's page cache per connection (KiB), which a whole-vault vector
    search raises on this connection, when `grow_cache`, to hold the model's bit index and
    `headroom_kib` more (`bits_cache_kib`). The KNN reads every page of the bit index (50 MB
    at 612,000 passages of 512 dimensions); when the cache cannot hold them with the query's
    other pages, the least recently used are the bit index's own, each query evicts and reads
    all of them again, and SQLCipher decrypts each page read: about 55 ms of CPU a query
    there (docs/recall.md, "Cost at scale"). A store that holds its connections' caches
    small (a server's) does not grow them, and one held small for a while (`cache_limit`) is
    left so."""

    def __init__(
        self,
        conn: Any,
        *,
        cache_kib: int | None = None,
        grow_cache: bool = False,
        headroom_kib: int = BITS_HEADROOM_KIB,
        grant: Callable[[int], bool] | None = None,
    ) -> None:
        self._conn = conn
        self._cache_kib = cache_kib
        self._grow_cache = grow_cache and cache_kib is not None
        self._headroom_kib = headroom_kib
        #: a served store's budget: asked for the KiB a raised cache would add
        self._grant = grant

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
        where, params = _where(conn, scope)
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
                "SELECT min(low), max(high) FROM (SELECT first_id AS low, last_id AS high "
                "FROM recall_conversations WHERE conversation_id = ?1 UNION ALL "
                "SELECT min(id), max(id) FROM recall_passages WHERE conversation_id = ?1)",
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
            "LEFT JOIN recall_conversations r ON r.id = p.conversation "
            "LEFT JOIN conversations c ON c.id = COALESCE(p.conversation_id, r.conversation_id) "
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
        # Counted only as far as it matters: past EXACT_LIMIT the bit index is used anyway.
        row = self._conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM recall_passages p "
            f"LEFT JOIN memories m ON m.seq = p.memory_seq WHERE {where} LIMIT ?)",
            [*params, EXACT_LIMIT + 1],
        ).fetchone()
        return int(row[0])

    def nearest(
        self, model: int, query: Sequence[float], depth: int, scope: Scope
    ) -> list[tuple[int, float]]:
        if scope.empty:
            return []
        conn = self._conn
        blob = pack(query)
        where, params = _where(conn, scope)
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
        self._room_for_bits(model)
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

    def _room_for_bits(self, model: int) -> None:
        """The connection's page cache raised to hold the model's bit index (class docstring):
        sized by the largest passage id (one index look-up; passages removed leave gaps, so
        it errs high) and the model's dimension."""
        if self._grant is not None and self._cache_kib is not None:
            self._room_within_budget(model, self._cache_kib)
            return
        if not self._grow_cache or self._cache_kib is None:
            return
        conn = self._conn
        size = int(conn.execute("PRAGMA cache_size").fetchone()[0])
        current = (
            -size
            if size < 0
            else size * int(conn.execute("PRAGMA page_size").fetchone()[0]) // 1024
        )
        if current < self._cache_kib:
            return  # held small for a while (`SQLiteStore.cache_limit`): left so
        found = conn.execute(
            "SELECT (SELECT max(id) FROM recall_passages), dimension FROM recall_models "
            "WHERE id = ?",
            (model,),
        ).fetchone()
        if found is None or found[0] is None:
            return
        wanted = bits_cache_kib(int(found[0]), int(found[1]), self._headroom_kib)
        if wanted > current:
            conn.execute(f"PRAGMA cache_size = {-wanted}")

    def _room_within_budget(self, model: int, cache_kib: int) -> None:
        """A served store's reader: its cache raised to hold the bit index with the store's
        own cache beside it, when the store's budget has room for all of it — a cache that
        holds only part of the index is evicted and read again on every query just the same,
        so it is not raised at all then."""
        assert self._grant is not None
        conn = self._conn
        found = conn.execute(
            "SELECT (SELECT max(id) FROM recall_passages), dimension FROM recall_models "
            "WHERE id = ?",
            (model,),
        ).fetchone()
        if found is None or found[0] is None:
            return
        wanted = bits_cache_kib(int(found[0]), int(found[1]), cache_kib)
        if self._grant(wanted - cache_kib):
            conn.execute(f"PRAGMA cache_size = {-wanted}")

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
                "SELECT p.id, p.kind, COALESCE(p.conversation_id, r.conversation_id), "
                "p.message_id, p.role, p.participant, p.at_epoch, p.text, m.id, m.status, "
                "m.document, COALESCE(m.updated_epoch, m.created_epoch) FROM recall_passages p "
                "LEFT JOIN recall_conversations r ON r.id = p.conversation "
                "LEFT JOIN memories m ON m.seq = p.memory_seq "
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
