"""The recall index's writes of message passages (an import): each conversation one row and
a range of passage ids (migration 7), and FTS5's larger segments while a bulk load runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault.store import sqlite_recall as recall_index
from memvault.store.sqlite import SQLiteStore
from vaultkit import make_store

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


def _conversation_rows(conn: Any) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT id, conversation_id, platform, first_id, last_id FROM recall_conversations "
        "ORDER BY id"
    ).fetchall()


def test_a_conversation_s_message_passages_are_one_range_of_ids_under_its_row(
    store: SQLiteStore,
) -> None:
    """Migration 7: a message's passage carries its conversation as a small integer, not its
    id and platform; the conversation's row holds the range of its passages' ids."""
    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, 3 * PER_CONVERSATION))
    with store.index_connection() as conn:
        assert _conversation_rows(conn) == [
            (1, "c000000", "chatgpt", 1, 100),
            (2, "c000001", "chatgpt", 101, 200),
            (3, "c000002", "chatgpt", 201, 300),
        ]
        stored = conn.execute(
            "SELECT DISTINCT conversation, conversation_id, platform FROM recall_passages "
            "WHERE id BETWEEN 101 AND 200"
        ).fetchall()
        assert stored == [(2, None, None)]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_conversation_filter_reads_its_range_of_passage_ids(store: SQLiteStore) -> None:
    """The filter is a range of the primary key (no index over conversations to keep up as
    an import writes), checked against the conversation too."""
    from memvault.recall.indexes import Scope

    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, 3 * PER_CONVERSATION))
    with store.index_connection() as conn:
        where, params = recall_index._where(conn, Scope(conversation="c000001"))
        query = (
            "SELECT p.id FROM recall_passages p LEFT JOIN memories m ON m.seq = p.memory_seq "
            f"WHERE {where}"
        )
        found = [r[0] for r in conn.execute(query, params)]
        assert found == list(range(101, 201))
        plan = " ".join(str(r[-1]) for r in conn.execute(f"EXPLAIN QUERY PLAN {query}", params))
        assert "INTEGER PRIMARY KEY (rowid>? AND rowid<?)" in plan, plan


def test_a_conversation_indexed_again_gets_new_passages_and_its_old_ones_go(
    store: SQLiteStore,
) -> None:
    with store.transaction(), store.bulk_writes(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, 5 * PER_CONVERSATION))
        document = {"messages": [{"id": "new", "role": "user", "content": "lighthouse keeper"}]}
        recall_index.index_conversations(conn, [("c000003", "chatgpt", document)], fresh=False)
    with store.index_connection() as conn:
        texts = conn.execute(
            "SELECT p.text FROM recall_passages p JOIN recall_conversations c "
            "ON c.id = p.conversation WHERE c.conversation_id = ?",
            ("c000003",),
        ).fetchall()
        assert [t[0] for t in texts] == ["lighthouse keeper"]
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0] == 401
        assert conn.execute(
            "SELECT first_id, last_id FROM recall_conversations WHERE conversation_id = ?",
            ("c000003",),
        ).fetchone() == (501, 501)


def test_passages_added_to_a_conversation_later_widen_its_range(store: SQLiteStore) -> None:
    """Passages given for a conversation the index holds (`RecallIndex.add_passages`) join it:
    its range grows over whatever lies between, and the filter still keeps only its own."""
    from memvault.recall.indexes import Scope

    with store.transaction(), store.index_connection() as conn:
        recall_index.write_analysed(conn, _rows(0, 2 * PER_CONVERSATION))
        recall_index.write_analysed(conn, _rows(0, 3))  # c000000 again, ids 201-203
    with store.index_connection() as conn:
        assert conn.execute(
            "SELECT first_id, last_id FROM recall_conversations WHERE conversation_id = ?",
            ("c000000",),
        ).fetchone() == (1, 203)
        where, params = recall_index._where(conn, Scope(conversation="c000000"))
        found = conn.execute(
            "SELECT count(*) FROM recall_passages p LEFT JOIN memories m "
            f"ON m.seq = p.memory_seq WHERE {where}",
            params,
        ).fetchone()[0]
        assert found == PER_CONVERSATION + 3


def test_a_failed_bulk_load_leaves_the_index_as_it_was(store: SQLiteStore) -> None:
    with (
        pytest.raises(RuntimeError, match="interrupted"),
        store.transaction(),
        store.bulk_writes(),
        store.index_connection() as conn,
    ):
        recall_index.write_analysed(conn, _rows(0, 1_000))
        raise RuntimeError("interrupted")
    with store.index_connection() as conn:
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0] == 0
        assert _conversation_rows(conn) == []


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
