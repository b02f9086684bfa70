"""The recall index's bulk load (an import): its lookup index by conversation is made once at
the end rather than kept up row by row, and is there whenever something needs it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault.store import sqlite_recall as recall_index
from memvault.store.sqlite import SQLiteStore
from vaultkit import make_store

INDEX = "recall_passages_conversation"
PER_CONVERSATION = 100


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    made = make_store(tmp_path / "vault.db")
    yield made
    made.close()


def _rows(first: int, count: int, word: str = "harbour") -> list[tuple[Any, ...]]:
    """`count` message passages, `PER_CONVERSATION` to a conversation, from conversation
    `first`."""
    rows = []
    for n in range(count):
        conversation = f"c{first + n // PER_CONVERSATION:06d}"
        text = f"{word} message {n}"
        rows.append(
            ("message", None, conversation, f"m{n}", 0, "user", None, "chatgpt", None, text,
             text, "a title")
        )  # fmt: skip
    return rows


def _has_index(conn: Any) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (INDEX,))
    return row.fetchone() is not None


def _lookup_plan(conn: Any) -> str:
    rows = conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM recall_passages WHERE conversation_id = ?", ("c0",)
    ).fetchall()
    return " ".join(str(r[-1]) for r in rows)


def test_a_bulk_load_makes_the_conversation_index_once_at_its_end(store: SQLiteStore) -> None:
    count = recall_index.BULK_DEFER_ROWS + 5_000
    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        for at in range(0, count, 5_000):
            recall_index.write_analysed(conn, _rows(at // PER_CONVERSATION, 5_000))
        assert not _has_index(conn)  # past the threshold: not kept up row by row
    with store.index_connection() as conn:
        assert _has_index(conn)
        assert INDEX in _lookup_plan(conn)
        found = conn.execute(
            "SELECT count(*) FROM recall_passages WHERE conversation_id = ?", ("c000007",)
        ).fetchone()[0]
        assert found == PER_CONVERSATION
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_small_bulk_load_keeps_the_index_row_by_row(store: SQLiteStore) -> None:
    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, 1_000))
        assert _has_index(conn)


def test_a_conversation_indexed_again_inside_a_bulk_load_finds_its_index_there(
    store: SQLiteStore,
) -> None:
    count = recall_index.BULK_DEFER_ROWS
    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, count))
        assert not _has_index(conn)
        document = {"messages": [{"id": "new", "role": "user", "content": "lighthouse keeper"}]}
        recall_index.index_conversations(conn, [("c000003", "chatgpt", document)], fresh=False)
        assert _has_index(conn)
        recall_index.write_analysed(conn, _rows(count // PER_CONVERSATION, count))
        assert _has_index(conn)  # needed once: kept for the rest of the load
    with store.index_connection() as conn:
        texts = conn.execute(
            "SELECT text FROM recall_passages WHERE conversation_id = ?", ("c000003",)
        ).fetchall()
        assert [t[0] for t in texts] == ["lighthouse keeper"]


def test_a_failed_bulk_load_leaves_the_index_as_it_was(store: SQLiteStore) -> None:
    dropped = []
    with (
        pytest.raises(RuntimeError, match="interrupted"),
        store.transaction(),
        store.bulk_writes(),
        store.index_connection() as conn,
    ):
        recall_index.write_analysed(conn, _rows(0, recall_index.BULK_DEFER_ROWS))
        dropped.append(not _has_index(conn))
        raise RuntimeError("interrupted")
    assert dropped == [True]
    with store.index_connection() as conn:
        assert _has_index(conn)
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0] == 0


def _hash_size(conn: Any) -> int | None:
    row = conn.execute("SELECT v FROM recall_fts_config WHERE k = 'hashsize'").fetchone()
    return None if row is None else int(row[0])


def test_a_bulk_load_holds_more_full_text_entries_in_memory_then_gives_the_default_back(
    store: SQLiteStore,
) -> None:
    """Fewer, larger FTS5 segments while an import writes; the vault keeps FTS5's default."""
    with store.transaction(savepoints=False), store.bulk_writes(), store.index_connection() as c:
        recall_index.write_analysed(c, _rows(0, 3_000, word="lighthouse"))
        assert _hash_size(c) == recall_index._BULK_HASH_BYTES
    with store.index_connection() as conn:
        assert _hash_size(conn) == recall_index._DEFAULT_HASH_BYTES
        found = conn.execute(
            "SELECT count(*) FROM recall_fts WHERE recall_fts MATCH 'lighthous'"
        ).fetchone()[0]
        assert found == 3_000


def test_a_bulk_load_that_writes_nothing_leaves_the_full_text_configuration_alone(
    store: SQLiteStore,
) -> None:
    """A re-import that changes nothing must leave the vault's file as it was (AIMEM §4's
    no-op re-import): the larger hash is set only when a passage is written."""
    with store.index_connection() as conn:
        before = _hash_size(conn)
    with store.transaction(savepoints=False), store.bulk_writes(), store.index_connection() as c:
        assert _hash_size(c) == before
    with store.index_connection() as conn:
        assert _hash_size(conn) == before


def test_a_failed_bulk_load_gives_the_default_full_text_memory_back(store: SQLiteStore) -> None:
    with (
        pytest.raises(RuntimeError, match="interrupted"),
        store.transaction(savepoints=False),
        store.bulk_writes(),
        store.index_connection() as conn,
    ):
        recall_index.write_analysed(conn, _rows(0, 100))
        raise RuntimeError("interrupted")
    with store.index_connection() as conn:
        assert _hash_size(conn) in (None, recall_index._DEFAULT_HASH_BYTES)


def test_the_rows_a_reader_sends_are_the_passages_the_writer_would_cut() -> None:
    """`message_rows` (an import's readers) gives the rows of `conversation_passages` through
    `analysed`, whatever shape each message has."""
    from types import MappingProxyType

    from memvault.recall.index import analysed, conversation_passages, message_rows

    long = "\n\n".join(
        f"Paragraph {n} about the harbour and its lighthouse." * 12 for n in range(6)
    )
    document = {
        "title": "  Harbour notes ",
        "participants": [{"role": "user", "name": " Ana "}, {"role": "assistant"}],
        "messages": [
            {
                "id": "m1",
                "role": "user",
                "content": {"text": "Olá, farol!"},
                "created_at": "2025-01-02T03:04:05Z",
            },
            {
                "id": "m2",
                "role": "assistant",
                "content": {"parts": [{"text": "one"}, {"text": "two"}]},
            },
            {"id": "m3", "role": "user", "content": "  plain text  "},
            {"id": "m4", "role": "user", "content": {"text": "   "}},
            {"id": 5, "role": "user", "content": "a number for an id"},
            "not a message",
            MappingProxyType(
                {"id": "m6", "role": "tool", "content": MappingProxyType({"text": "proxy"})}
            ),
            {"id": "m7", "role": "assistant", "content": long, "created_at": "not a time"},
        ],
    }
    expected = [
        [*row[3:7], row[8], row[9], None if row[10] == row[9] else row[10], row[11]]
        for row in map(analysed, conversation_passages("", None, document))
    ]
    assert message_rows(document) == expected
    assert [row[0] for row in expected].count("m7") > 1  # the long one was split
    assert {row[0] for row in expected} == {"m1", "m2", "m3", "m6", "m7"}
    assert message_rows({"messages": "not a list"}) == []
