"""Vectors of recall passages, per model and dimension, with sqlite-vec (docs/recall.md).

Each vector is kept as float32 (``recall_vectors``) and, for search, as its binary
quantisation in a ``vec0`` table of the model (``recall_vec_<id>``, one bit a dimension): a
nearest-neighbour search over the bits is some twenty times faster than over the floats, and
its best candidates are then scored again with the float vectors (cosine), which gives back
almost all of the exact search's quality. When filters leave few passages (a conversation),
they are scored exactly instead.

The embedder a vault uses is stored in its meta table (`EMBEDDER_META`), so a query is
embedded with the same model as the passages.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

import orjson

from memvault.recall.embedders import Embedder, EmbedderSpec

__all__ = [
    "EMBEDDER_META",
    "EXACT_LIMIT",
    "complete",
    "coverage",
    "embed_missing",
    "embed_text",
    "model_id",
    "nearest",
    "pack",
    "stored_spec",
]

#: The meta key holding the vault's embedder (`EmbedderSpec.to_json`).
EMBEDDER_META: Final = "recall.embedder"
#: At most this many passages left by the filters: scored exactly, not through the bit index.
EXACT_LIMIT: Final = 20_000
#: Candidates taken from the bit index per result wanted, before the float rescoring.
#: sqlite-vec's KNN costs about 35 ms of CPU over 600,000 bit vectors plus 0.65 ms per
#: candidate asked (it keeps each chunk's best by selection), so 8 per result (400) took
#: 300 ms where 2 take 70 (benchmarks/recall.py --scale).
OVERSAMPLE: Final = 2
#: Passages embedded per transaction by `embed_missing`.
EMBED_BATCH: Final = 256


def pack(vector: Sequence[float]) -> bytes:
    """float32, little-endian: what sqlite-vec reads as a vector."""
    return struct.pack(f"<{len(vector)}f", *vector)


def stored_spec(conn: Any) -> EmbedderSpec | None:
    """The embedder the vault uses (None until one is set)."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (EMBEDDER_META,)).fetchone()
    if row is None:
        return None
    return EmbedderSpec.from_json(orjson.loads(row[0]))


def store_spec(conn: Any, spec: EmbedderSpec) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (EMBEDDER_META, orjson.dumps(spec.to_json()).decode()),
    )


def model_id(conn: Any, model: str, dimension: int, *, create: bool = False) -> int | None:
    """The id of a model's vectors (and its vec0 table), made when `create` and absent."""
    row = conn.execute(
        "SELECT id FROM recall_models WHERE model = ? AND dimension = ?", (model, dimension)
    ).fetchone()
    if row is not None:
        return int(row[0])
    if not create:
        return None
    cursor = conn.execute(
        "INSERT INTO recall_models (model, dimension) VALUES (?, ?)", (model, dimension)
    )
    new = int(cursor.lastrowid)
    conn.execute(f"CREATE VIRTUAL TABLE recall_vec_{new} USING vec0(bits bit[{int(dimension)}])")
    return new


def model_named(conn: Any, model: str) -> int | None:
    """The id of the vectors of the model with this name (the most recent, should it have
    been used with several dimensions)."""
    row = conn.execute(
        "SELECT id FROM recall_models WHERE model = ? ORDER BY id DESC LIMIT 1", (model,)
    ).fetchone()
    return None if row is None else int(row[0])


def coverage(conn: Any, model: int | None) -> tuple[int, int]:
    """(passages with a vector of the model, all passages)."""
    total = int(conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0])
    if model is None:
        return 0, total
    # Counted over the (passage, model) index, not the table of float vectors, which is
    # some forty times larger.
    done = int(
        conn.execute(
            "SELECT count(*) FROM recall_vectors INDEXED BY recall_vectors_passage "
            "WHERE model_id = ?",
            (model,),
        ).fetchone()[0]
    )
    return done, total


def complete(conn: Any, model: int) -> bool:
    """Whether the model has vectors and every passage has one, in two index look-ups. A
    passage's
    id is one above the largest when it is written (`memvault.recall.index`) and
    `embed_missing` goes in id order, so the passages without a vector are those above the
    last one embedded: none there, none anywhere."""
    last = conn.execute(
        "SELECT max(passage_id) FROM recall_vectors WHERE model_id = ?", (model,)
    ).fetchone()[0]
    if last is None:
        return False
    above = conn.execute("SELECT 1 FROM recall_passages WHERE id > ? LIMIT 1", (last,))
    return above.fetchone() is None


def embed_text(text: str, participant: str | None = None, title: str | None = None) -> str:
    """What is embedded for a passage: the conversation's title on a line of its own, then
    who spoke and the words ("Name: words"). A question names the person ("what did Emily…"); the
    words of a turn rarely do, so without the name a vector cannot tell one person's turn
    from another's (measured: the name adds 15–29 points to dense models, docs/recall.md)."""
    head = (title or "").strip()
    name = (participant or "").strip()
    body = f"{name}: {text}" if name else text
    return f"{head}\n{body}" if head else body


def _missing(conn: Any, model: int, after: int, limit: int) -> list[tuple[int, str]]:
    rows = conn.execute(
        "SELECT p.id, p.text, p.participant, c.title FROM recall_passages p "
        "LEFT JOIN conversations c ON c.id = p.conversation_id "
        "WHERE p.id > ? AND NOT EXISTS "
        "(SELECT 1 FROM recall_vectors v WHERE v.model_id = ? AND v.passage_id = p.id) "
        "ORDER BY p.id LIMIT ?",
        (after, model, limit),
    ).fetchall()
    return [(int(r[0]), embed_text(str(r[1]), r[2], r[3])) for r in rows]


def embed_missing(
    begin: Callable[[], Any],
    embedder: Embedder,
    *,
    batch: int = EMBED_BATCH,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Embed every passage that has no vector of `embedder`'s model yet, `batch` passages a
    transaction (`begin()` opens one and yields the connection), so an interrupted run keeps
    what it did and the next run goes on from there. Returns how many were embedded."""
    done = 0
    last = 0
    with begin() as conn:
        model = model_id(conn, embedder.model, embedder.dimension, create=True)
    assert model is not None
    while True:
        with begin() as conn:
            todo = _missing(conn, model, last, batch)
        if not todo:
            return done
        # Embedding happens outside any transaction: it may take seconds, and the vault
        # stays writable meanwhile.
        vectors = embedder.embed([text for _, text in todo])
        with begin() as conn:
            # A passage deleted meanwhile (its memory updated or erased) gets no vector.
            alive = {
                int(r[0])
                for r in conn.execute(
                    f"SELECT id FROM recall_passages WHERE id IN ({', '.join('?' * len(todo))})",
                    [pid for pid, _ in todo],
                )
            }
            rows = [(pid, pack(vec)) for (pid, _), vec in zip(todo, vectors, strict=True)]
            rows = [r for r in rows if r[0] in alive]
            conn.executemany(
                "INSERT OR REPLACE INTO recall_vectors (model_id, passage_id, vector) "
                "VALUES (?, ?, ?)",
                [(model, pid, blob) for pid, blob in rows],
            )
            conn.executemany(
                f"INSERT OR REPLACE INTO recall_vec_{model} (rowid, bits) "
                "VALUES (?, vec_quantize_binary(?))",
                rows,
            )
        done += len(todo)
        last = todo[-1][0]
        if progress is not None:
            progress(len(todo))


def nearest(
    conn: Any,
    model: int,
    query: Sequence[float],
    depth: int,
    scope: tuple[str, list[Any]] | None,
    scope_size: int,
) -> list[tuple[int, float]]:
    """The `depth` passages nearest `query` (passage id, cosine similarity), best first.
    `scope` (SQL conditions over ``recall_passages p`` and ``memories m``, their parameters)
    limits which passages count; when it leaves at most `EXACT_LIMIT` (`scope_size`), they are
    scored exactly, otherwise the bit index proposes candidates that are filtered and
    rescored."""
    blob = pack(query)
    where, params = scope if scope is not None else ("1", [])
    if scope_size <= EXACT_LIMIT:
        # From the passages the filters leave (an index finds a conversation's) to their
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
            f"SELECT rowid FROM recall_vec_{model} WHERE bits MATCH vec_quantize_binary(?) "
            "AND k = ?",
            (blob, depth * OVERSAMPLE),
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


def iter_models(conn: Any) -> Iterator[tuple[int, str, int]]:
    for r in conn.execute("SELECT id, model, dimension FROM recall_models ORDER BY id"):
        yield int(r[0]), str(r[1]), int(r[2])
