"""Message passages written from the JSON a reader process sends (`memvault_rows`, the
analysis extension's table-valued function): the values SQLite stores are those orjson reads
from the same JSON and Python binds — text, integers, floats (to the bit), nulls — and an
import whose readers send JSON leaves the recall index (passages, conversation ranges and the
full-text index's own bytes) exactly as the rows written from Python do."""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlcipher3  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.importers.chatgpt import IMPORTER
from memvault.importers.ingest import ingest, make_context
from memvault.recall import analysis
from memvault.sources import open_target
from memvault.store import sqlite_recall as recall_index
from memvault.store.sqlite import SQLiteStore
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_zip
from vaultkit import make_store, make_vault

COLUMNS = "message_id, part, role, participant, at_epoch, text, words, context"


@pytest.fixture(scope="module")
def conn() -> Iterator[Any]:
    made = sqlcipher3.connect(":memory:")
    analysis.prepare(made)
    yield made
    made.close()


def _read(conn: Any, rows: bytes) -> list[tuple[Any, ...]]:
    return conn.execute(f"SELECT rowid, {COLUMNS} FROM memvault_rows(?)", (rows,)).fetchall()


def _bits(value: Any) -> Any:
    """A value with its type, a float by its bits (so -0.0 and 0.0 differ)."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    return (type(value).__name__, value)


texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
values = st.one_of(
    st.none(),
    texts,
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
)
rows = st.lists(st.tuples(*([values] * 8)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(rows)
def test_the_rows_are_what_orjson_reads_and_python_binds(conn: Any, given_rows: Any) -> None:
    data = orjson.dumps([list(r) for r in given_rows])
    read = _read(conn, data)
    expected = orjson.loads(data)
    assert [r[0] for r in read] == list(range(len(expected)))
    for got, want in zip(read, expected, strict=True):
        assert [_bits(v) for v in got[1:]] == [_bits(v) for v in want]


def test_escapes_surrogate_pairs_and_characters_beyond_ascii(conn: Any) -> None:
    text = 'tab\t quote" back\\ slash/ nl\n \x01 é ñ 日本 😀 \u2028'
    data = orjson.dumps([["m", 0, "user", None, 1714564800.25, text, None, "ctx"]])
    assert b"\\u0001" in data
    (row,) = _read(conn, data)
    assert row[6] == text
    # escapes orjson does not write but JSON allows: \/ \b \f and a \u surrogate pair
    spelled = rb'[["m",1,null,null,0.5,"\/\b\f\u00e9\ud83d\ude00","w","c"]]'
    assert _read(conn, spelled)[0][1:] == tuple(orjson.loads(spelled)[0])


def test_true_and_false_are_one_and_zero_as_python_binds_them(conn: Any) -> None:
    assert _read(conn, b'[["m",true,false,null,1,"t",null,""]]')[0][1:4] == ("m", 1, 0)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{}", "no array"),
        (b'[["m",0,"user",null,1.0,"t",null]]', "too few values"),
        (b'[["m",0,"user",null,1.0,"t",null,"c","x"]]', "too many values"),
        (b'[["m",0,"user",null,1.0,"t",null,"c"]', "the end of the rows"),
        (b'[["m",0,"user",null,1.0,"t\\ud800",null,"c"]]', "a lone surrogate"),
        (b'[["m",0,"user",null,1.0,"t\\x",null,"c"]]', "a bad escape"),
        (b'[["m",0,"user",null,1.0.0,"t",null,"c"]]', "a bad number"),
        (b'[["m",0,"user",nul,1.0,"t",null,"c"]]', "an unexpected value"),
        (b"[1]", "no passage"),
        (b'[["m",0,"user",null,1.0,"t\xc3(",null,"c"]]', "a string that is not UTF-8"),
        (b'[["\xed\xa0\x80",0,"user",null,1.0,"t",null,"c"]]', "a string that is not UTF-8"),
        (b'[["m', "an unterminated string"),
        (b'[["m",0,"user",null,1.0,"t",null,"c"] ["m"]]', "no ',' between passages"),
    ],
)
def test_malformed_rows_are_an_error_naming_the_byte(conn: Any, data: bytes, reason: str) -> None:
    pattern = f"memvault_rows: .*{re.escape(reason)} at byte [0-9]+ of the rows"
    with pytest.raises(sqlcipher3.OperationalError, match=pattern):
        _read(conn, data)


def test_no_rows_and_null_give_nothing(conn: Any) -> None:
    assert _read(conn, b"[]") == [] and _read(conn, b" [ ] ") == []
    assert conn.execute("SELECT count(*) FROM memvault_rows(NULL)").fetchone() == (0,)


def test_the_rows_argument_is_required(conn: Any) -> None:
    with pytest.raises(sqlcipher3.OperationalError):
        conn.execute("SELECT * FROM memvault_rows").fetchall()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    made = make_store(tmp_path / "vault.db")
    yield made
    made.close()


def _index(conn: Any) -> tuple[list[Any], ...]:
    return tuple(
        conn.execute(sql).fetchall()
        for sql in (
            "SELECT * FROM recall_passages ORDER BY id",
            "SELECT * FROM recall_conversations ORDER BY id",
            "SELECT id, block FROM recall_fts_data ORDER BY id",
            "SELECT * FROM recall_fts_idx ORDER BY segid, term",
        )
    )


def _conversations(count: int) -> list[tuple[str, str, list[list[Any]]]]:
    """Conversations of 0 to 4 passages, words that differ from the text now and then."""
    made = []
    for n in range(count):
        passages = [
            [f"m{n}-{k}", k % 2, "user" if k % 2 else "assistant", None if k else "Ana",
             1714564800.25 + n + k / 7, f"harbour ferry {n} message {k} ",
             None if k % 3 else f"harbour {k}", f"title {n}"]
            for k in range(n % 5)
        ]  # fmt: skip
        made.append((f"c{n:04d}", "chatgpt", passages))
    return made


def test_passages_as_json_write_the_index_the_rows_write(tmp_path: Path) -> None:
    """The same conversations written as rows and as their JSON (an import's readers): the
    passages, the conversations' id ranges and FTS5's segments are equal, byte for byte —
    the JSON's statement opens no savepoint at which FTS5 would write a segment early."""
    conversations = _conversations(300)
    results = []
    for form in ("rows", "json"):
        store = make_store(tmp_path / f"{form}.db")
        try:
            with (
                store.transaction(savepoints=False),
                store.bulk_writes(),
                store.index_connection() as conn,
            ):
                for start in range(0, len(conversations), 128):
                    batch = conversations[start : start + 128]
                    recall_index.write_messages(
                        conn,
                        [
                            (cid, platform, orjson.dumps(rows) if form == "json" else rows)
                            for cid, platform, rows in batch
                        ],
                    )
            with store.index_connection() as conn:
                results.append(_index(conn))
        finally:
            store.close()
    rows, json = results
    assert json == rows
    assert len(rows[0]) == sum(len(r) for _, _, r in conversations)
    assert len(rows[1]) == sum(1 for _, _, r in conversations if r)


def _imported_index(vault: Vault, path: Path, readers: int) -> tuple[list[Any], ...]:
    with open_target(path) as target:
        ingest(vault, IMPORTER, target, make_context(str(path), None), readers=readers)
    with vault._store.index_connection() as conn:  # type: ignore[attr-defined]
        return _index(conn)


def test_an_import_through_readers_indexes_what_one_reader_indexes(tmp_path: Path) -> None:
    """PAM §25 import: the readers' passages (JSON, cut in C or in Python) index exactly what
    the importing process cuts itself from the documents."""
    path = write_zip(gen.export(seed=12, count=40), tmp_path / "export.zip")
    indexes = []
    for readers in (0, 2):
        with make_vault(tmp_path / f"v{readers}") as vault:
            indexes.append(_imported_index(vault, path, readers))
    alone, read = indexes
    assert read == alone
    assert len(alone[0]) > 100
    assert not any(math.isnan(r[9]) for r in alone[0] if isinstance(r[9], float))


def test_an_integer_beyond_64_bits_is_read_as_the_float_orjson_reads(conn: Any) -> None:
    """Found by `make fuzz` (target recall.rows): an integer literal past 64 bits was
    saturated to the largest int64; orjson reads it as a float, and so does memvault_rows."""
    for literal in (b"18446744073709551616", b"-9223372036854775809", b"1" + b"0" * 80):
        data = b'[["m", ' + literal + b', null, null, null, "t", null, null]]'
        ((_rowid, _message, part, *_rest),) = _read(conn, data)
        assert isinstance(part, float) and part == orjson.loads(data)[0][1]


# -- memvault_write_passages: a batch of conversations' passages written in C ----------------


def _write_batch(store: SQLiteStore, first: int, handle: int, data: bytes) -> Any:
    with store.transaction(savepoints=False), store.index_connection() as conn:
        (answer,) = conn.execute(
            "SELECT memvault_write_passages(?, ?, ?)", (first, handle, data)
        ).fetchone()
    return orjson.loads(answer)


def test_write_passages_answers_each_conversations_count_and_numbers_them(
    store: SQLiteStore,
) -> None:
    """Ids follow each other from the first; a conversation without passages takes no handle;
    each passage's full-text entry is its analysed words, or its text where they are null."""
    row = ["m", 0, "user", None, 1.5, "ferry harbour", None, "Porto trip"]
    worded = ["n", 1, "assistant", "Ana", 2.5, "the text", "ferries", ""]
    data = orjson.dumps([[row, worded], [], [row]])
    assert _write_batch(store, 10, 3, data) == [2, 0, 1]
    with store.index_connection() as conn:
        passages = conn.execute(
            "SELECT id, kind, conversation, message_id, part, role, participant, at_epoch, text "
            "FROM recall_passages ORDER BY id"
        ).fetchall()
        assert passages == [
            (10, "message", 3, "m", 0, "user", None, 1.5, "ferry harbour"),
            (11, "message", 3, "n", 1, "assistant", "Ana", 2.5, "the text"),
            (12, "message", 4, "m", 0, "user", None, 1.5, "ferry harbour"),
        ]
        found = conn.execute(
            "SELECT rowid FROM recall_fts WHERE recall_fts MATCH ? ORDER BY rowid", ("ferri",)
        ).fetchall()
        assert found == [(10,), (11,), (12,)]  # 11 by its words, not its text
        assert (
            conn.execute("SELECT rowid FROM recall_fts WHERE recall_fts MATCH 'text'").fetchall()
            == []
        )


def test_write_passages_of_no_conversations_writes_nothing(store: SQLiteStore) -> None:
    assert _write_batch(store, 1, 1, b" [ ] ") == []
    assert _write_batch(store, 1, 1, b"[[],[ ]]") == [0, 0]
    with store.index_connection() as conn:
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone() == (0,)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{}", "no array of conversations"),
        (b"[{}]", "no array of passages"),
        (b"[[] []]", "no ',' between conversations"),
        (b"[[]] x", "more after the conversations"),
        (b'[[["m",0,"user",null,1.0,"t",null]]]', "too few values"),
        (b'[[["m",0,"user",null,1.0,"t\\ud800",null,"c"]]]', "a lone surrogate"),
        (b'[[["m",0,"user",null,1.0,"t",null,"c"]', "the end of the rows"),
        (b"[[", "the end of the rows"),
        (b'[[["m",0,"user",null,1.0,"\xff",null,"c"]]]', "a string that is not UTF-8"),
    ],
)
def test_a_malformed_batch_is_an_error_naming_the_byte_and_undone(
    store: SQLiteStore, data: bytes, reason: str
) -> None:
    """Nothing of a malformed batch stays: the error ends the caller's transaction."""
    good = b'[["m",0,"user",null,1.0,"harbour",null,"c"]]'
    pattern = f"memvault_write_passages: .*{re.escape(reason)} at byte [0-9]+ of the rows"
    with pytest.raises(sqlcipher3.OperationalError, match=pattern):
        _write_batch(store, 1, 1, b"[" + good + b"," + data[1:] if data.startswith(b"[[") else data)
    with store.index_connection() as conn:
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM recall_fts_docsize").fetchone() == (0,)


def test_a_passage_id_in_use_is_an_integrity_error(store: SQLiteStore) -> None:
    row = b'["m",0,"user",null,1.0,"harbour",null,"c"]'
    _write_batch(store, 1, 1, b"[[" + row + b"]]")
    with pytest.raises(sqlcipher3.IntegrityError, match=r"memvault_write_passages: .*UNIQUE"):
        _write_batch(store, 1, 2, b"[[" + row + b"]]")


def test_the_arguments_are_checked(store: SQLiteStore) -> None:
    for args in ((None, 1, b"[]"), (1, "1", b"[]"), (1, 1, None)):
        with pytest.raises(sqlcipher3.OperationalError, match="integer id, an integer handle"):
            _write_batch(store, *args)  # type: ignore[arg-type]


def test_conversations_given_as_rows_and_as_json_together_are_numbered_in_order(
    tmp_path: Path,
) -> None:
    """One `write_messages` call with both forms, and some conversations without passages:
    the passages and the conversations' ranges are those of all rows."""
    conversations = _conversations(40)
    results = []
    for mixed in (False, True):
        store = make_store(tmp_path / f"{mixed}.db")
        try:
            with (
                store.transaction(savepoints=False),
                store.bulk_writes(),
                store.index_connection() as conn,
            ):
                recall_index.write_messages(
                    conn,
                    [
                        (cid, platform, orjson.dumps(rows) if mixed and n % 3 else rows)
                        for n, (cid, platform, rows) in enumerate(conversations)
                    ],
                )
            with store.index_connection() as conn:
                results.append(_index(conn)[:2])
        finally:
            store.close()
    assert results[0] == results[1]
    assert len(results[0][1]) == sum(1 for _, _, r in conversations if r)
