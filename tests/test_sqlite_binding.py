"""How the SQLite store's connections bind parameters: None and bytes reach SQLite as NULL and
BLOB through adapters registered for them (`memvault.store.sqlite._bind_directly`), not
through sqlcipher3's search for an adaptation, which cost about a microsecond a value."""

from __future__ import annotations

from pathlib import Path

import sqlcipher3  # type: ignore[import-untyped]

from memvault.store import sqlite as sqlite_store
from vaultkit import make_store


def test_none_and_bytes_have_adapters_that_give_them_back_unchanged() -> None:
    adapters = sqlcipher3.adapters
    protocol = sqlcipher3.PrepareProtocol
    blob = b"\x00\x01 bytes"
    assert adapters[(type(None), protocol)](None) is None
    assert adapters[(bytes, protocol)](blob) is blob
    assert sqlite_store._unchanged(blob) is blob


def test_none_and_bytes_parameters_are_stored_as_null_and_blob(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    try:
        with store.transaction(), store.index_connection() as conn:
            conn.execute("CREATE TABLE bound (n, b, s, i, f)")
            conn.executemany(
                "INSERT INTO bound VALUES (?, ?, ?, ?, ?)",
                [(None, b"\xff\x00", "text", 7, 1.5), (None, b"", "", 0, 0.0)],
            )
            rows = conn.execute(
                "SELECT typeof(n), typeof(b), b, typeof(s), typeof(i), typeof(f) FROM bound"
            ).fetchall()
        assert [tuple(r) for r in rows] == [
            ("null", "blob", b"\xff\x00", "text", "integer", "real"),
            ("null", "blob", b"", "text", "integer", "real"),
        ]
    finally:
        store.close()
