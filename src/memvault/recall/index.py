"""The recall index: passages of memories and messages, their full-text entries and vectors.

Every function here works on a database connection inside the caller's write transaction
(the store calls them as it writes memories and conversations, so the index never lags the
data); none commits. Tables: migration 4 (`memvault.store.migrations.m0004_recall_index`).

A memory is one passage (content and summary; tags and type as context). A message is one
passage or, when long, several (`split`), each keeping the message id. A passage's full-text
entry is the analysed text (`memvault.recall.analysis`); its vectors are dropped with it, so
erasing a memory leaves neither words nor vectors of it behind (AIMEM §5.2).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import orjson

from memvault.model import Memory, timestamp_epoch
from memvault.recall import analysis

__all__ = [
    "MAX_PASSAGE_CHARS",
    "Passage",
    "add_passages",
    "bulk_load",
    "conversation_passages",
    "index_conversations",
    "index_memories",
    "memory_passage",
    "message_rows",
    "message_text",
    "optimize",
    "prepare_connection",
    "rebuild",
    "remove_conversation",
    "remove_everything",
    "remove_memories",
    "split",
    "write_analysed",
]

#: A message longer than this is split into passages of at most this many characters (about
#: 250 words: what a small embedding model reads whole, and short enough that BM25 does not
#: favour a long message for a word it mentions once).
MAX_PASSAGE_CHARS: Final = 1500
#: The shortest piece a split leaves before a break (so a split does not make crumbs).
_MIN_PIECE: Final = 600
_BREAKS: Final = (re.compile(r"\n\s*\n"), re.compile(r"[.!?…]\s"), re.compile(r"\s"))
_CHUNK: Final = 500


class Passage(NamedTuple):
    """One row of the index before it is written."""

    kind: str  # "memory" | "message"
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


def prepare_connection(conn: Any) -> None:
    """Make a new connection able to use the index: the full-text tokenizer and sqlite-vec."""
    analysis.prepare(conn)
    import sqlite_vec

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)


# -- what is indexed ---------------------------------------------------------------------------


_epoch = timestamp_epoch


def split(text: str, limit: int = MAX_PASSAGE_CHARS) -> list[str]:
    """`text` in pieces of at most `limit` characters, broken at a paragraph, else a sentence,
    else a space (else anywhere), never before `_MIN_PIECE` characters."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = limit
        for pattern in _BREAKS:
            ends = [m.end() for m in pattern.finditer(rest, _MIN_PIECE, limit)]
            if ends:
                cut = ends[-1]
                break
        piece = rest[:cut].strip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].strip()
    if rest:
        pieces.append(rest)
    return pieces


def message_text(message: Mapping[str, Any]) -> str:
    """The words of a PAM message (§25.3): its text, or its parts' texts."""
    content = message.get("content")
    if not isinstance(content, Mapping):
        return content if isinstance(content, str) else ""
    text = content.get("text")
    if isinstance(text, str) and text.strip():
        return text
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n\n".join(
            p["text"] for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str)
        )
    return ""


def _participants(document: Mapping[str, Any]) -> dict[str, str]:
    """The name a conversation gives each role, where it gives one."""
    names: dict[str, str] = {}
    participants = document.get("participants")
    if isinstance(participants, list):
        for p in participants:
            if isinstance(p, Mapping):
                role, name = p.get("role"), p.get("name")
                if isinstance(role, str) and isinstance(name, str) and name.strip():
                    names.setdefault(role, name.strip())
    return names


def conversation_passages(
    conversation_id: str, platform: str | None, document: Mapping[str, Any]
) -> list[Passage]:
    """The passages of a conversation's messages (PAM §25), in message order."""
    messages = document.get("messages")
    if not isinstance(messages, list):
        return []
    title = document.get("title")
    title = title.strip() if isinstance(title, str) else ""
    names = _participants(document)
    passages: list[Passage] = []
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        message_id = message.get("id")
        if not isinstance(message_id, str):
            continue
        text = message_text(message)
        if not text.strip():
            continue
        role = message.get("role")
        role = role if isinstance(role, str) else None
        name = names.get(role) if role else None
        context = f"{name} {title}" if name else title
        at = _epoch(message.get("created_at"))
        for part, piece in enumerate(split(text)):
            passages.append(
                Passage(
                    "message",
                    None,
                    conversation_id,
                    message_id,
                    part,
                    role,
                    name,
                    platform,
                    at,
                    piece,
                    context,
                )
            )
    return passages


def memory_conversation(memory: Memory) -> str | None:
    """The conversation a memory came from: its provenance, else its first extraction source."""
    ref = memory.provenance.conversation_ref
    if isinstance(ref, str) and ref:
        return ref
    for source in extraction_sources(memory):
        conversation, _, _ = source.partition("#")
        if conversation:
            return conversation
    return None


def extraction_sources(memory: Memory) -> list[str]:
    """``conversation#message`` references of the messages an extraction read the memory
    from (``metadata.extraction.sources``)."""
    meta = memory.metadata if isinstance(memory.metadata, Mapping) else {}
    block = meta.get("extraction")
    sources = block.get("sources") if isinstance(block, Mapping) else None
    return [s for s in sources if isinstance(s, str)] if isinstance(sources, list) else []


def memory_passage(seq: int, memory: Memory) -> Passage:
    """A memory's one passage: content and summary; its tags and type as context."""
    summary = memory.summary if isinstance(memory.summary, str) else ""
    tags = memory.tags if isinstance(memory.tags, (list, tuple)) else ()
    words = [t for t in tags if isinstance(t, str)]
    kind = memory.custom_type if isinstance(memory.custom_type, str) else memory.type
    context = " ".join([*words, str(kind)])
    temporal = memory.temporal
    at = _epoch(temporal.updated_at) or _epoch(temporal.created_at)
    platform = memory.provenance.platform
    body = memory.content if not summary else f"{memory.content}\n{summary}"
    return Passage(
        "memory",
        seq,
        memory_conversation(memory),
        None,
        0,
        None,
        None,
        platform if isinstance(platform, str) else None,
        at,
        body,
        context,
    )


# -- writing -----------------------------------------------------------------------------------

_INSERT_PASSAGE: Final = (
    "INSERT INTO recall_passages (id, kind, memory_seq, conversation_id, message_id, part, "
    "role, participant, platform, at_epoch, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_FTS: Final = "INSERT INTO recall_fts (rowid, body, context) VALUES (?, ?, ?)"

#: A passage ready to write: the ten `Passage` columns before its context, then the analysed
#: text of its words and of its context (`analysis.indexable`).
Analysed = tuple[Any, ...]


def analysed(passage: Passage) -> Analysed:
    indexable = analysis.indexable
    context = indexable(passage.context) if passage.context else ""
    return (*passage[:10], indexable(passage.text), context)


def message_rows(document: Mapping[str, Any]) -> list[list[Any]]:
    """A conversation's message passages, analysed, without its id and platform: what a
    reader process computes while it converts an export (`memvault.importers.pipe`), so the
    writing process only writes them. Each row: message id, part, role, participant, time,
    text, analysed words (None when they are the text: the C tokenizer analyses as it
    indexes, so the text is not sent twice), analysed context."""
    return [
        [*row[3:7], row[8], row[9], None if row[10] == row[9] else row[10], row[11]]
        for row in map(analysed, conversation_passages("", None, document))
    ]


def add_passages(conn: Any, passages: Sequence[Passage]) -> int:
    """Write passages and their full-text entries (ids follow the largest in use)."""
    return write_analysed(conn, [analysed(p) for p in passages])


#: The lookup index of passages by conversation (migration 4), which a bulk load drops
#: while it writes and makes again at its end (`bulk_load`).
_CONVERSATION_INDEX: Final = "recall_passages_conversation"
_CREATE_CONVERSATION_INDEX: Final = (
    f"CREATE INDEX IF NOT EXISTS {_CONVERSATION_INDEX} ON recall_passages (conversation_id)"
)
#: The page cache (KiB) while the index is made: the sort runs in memory (``temp_store``),
#: and the pages the cache gives back hold it, so the import's peak stays where it was.
_SORT_CACHE_KIB: Final = 2048
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
    brings it back."""
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
        raise
    state = _BULK.pop(key)
    if state.dropped:
        _make_index(conn)


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


def remove_memories(conn: Any, seqs: Iterable[int]) -> None:
    """Drop the passages (words and vectors) of the memories with these seqs."""
    wanted = list(dict.fromkeys(seqs))
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        _remove_passages(conn, f"memory_seq IN ({', '.join('?' * len(chunk))})", chunk)


def index_memories(conn: Any, memories: Iterable[tuple[int, Memory]], *, fresh: bool) -> None:
    """Index memories (seq, memory); unless `fresh` (just inserted), their old passages go
    first."""
    batch = list(memories)
    if not fresh:
        remove_memories(conn, [seq for seq, _ in batch])
    add_passages(conn, [memory_passage(seq, memory) for seq, memory in batch])


def index_conversations(
    conn: Any,
    conversations: Iterable[tuple[str, str | None, Mapping[str, Any]]],
    *,
    fresh: bool,
) -> None:
    """Index conversations (id, platform, document): their messages' passages replace those
    stored before (unless `fresh`: new conversations, nothing to replace). A document a
    reader process analysed already (`message_rows`, carried as its ``passages``) is not
    read again."""
    rows: list[Analysed] = []
    for conversation_id, platform, document in conversations:
        if not fresh:
            _restore_index(conn)
            _remove_passages(conn, "conversation_id = ? AND kind = 'message'", (conversation_id,))
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


def stored_settings(conn: Any, key: str) -> dict[str, Any] | None:
    """A JSON object kept in the vault's meta table (None when absent)."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    value = orjson.loads(row[0])
    return value if isinstance(value, dict) else None
