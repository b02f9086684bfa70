"""What the recall index costs an import's writing process, part by part: the floor under
`memvault import` with the index built (benchmarks/importers.py).

    .venv/bin/python benchmarks/recall_writes.py [--megabytes 30] [--times 10]

Imports the ChatGPT export of benchmarks/data/chatgpt-<MB>mb (made by benchmarks/importers.py)
into a fresh vault, takes the message passages the import indexed, and writes them `--times`
times (10 × the 30 MB export's passages ≈ the 300 MB export's) into fresh encrypted vaults, one
part of the index at a time, each in one transaction, in batches of 1,500 passages (an import's
batch of conversations), timing the CPU of this process:

1. the ``recall_passages`` rows alone, as migration 7 keeps them (a message's conversation by
   the integer id of its ``recall_conversations`` row, written too), and as migrations 4-6 kept
   them (with the conversation's id and platform, and the index over conversation ids made
   once at the end, as a bulk load did);
2. the same rows into an unencrypted in-memory SQLite table of the same columns (the stdlib's
   SQLite: what SQLite itself costs, without encryption or a file);
3. the ``recall_fts`` entries alone: FTS5's default in-memory hash (1 MiB) with a savepoint per
   batch (what an import did before), without savepoints, and with the bulk load's hash
   (`memvault.store.sqlite_recall._BULK_HASH_BYTES`).

CPU time, not wall time: on a shared machine it is the steadier figure.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))

from memvault.importers.chatgpt import ChatGPTImporter  # noqa: E402
from memvault.importers.ingest import ingest, make_context  # noqa: E402
from memvault.sources import open_target  # noqa: E402
from memvault.store.sqlite_recall import _BULK_HASH_BYTES  # noqa: E402
from vaultkit import make_store, make_vault  # noqa: E402

_COLUMNS = (
    "kind, memory_seq, conversation_id, message_id, part, role, participant, platform, "
    "at_epoch, text"
)
_OLD_PASSAGES = (
    f"INSERT INTO old_passages (id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: Migrations 4-6: every message passage with its conversation's id and platform.
_OLD_TABLE = (
    "CREATE TABLE old_passages (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
    "memory_seq INTEGER, conversation_id TEXT, message_id TEXT, part INTEGER NOT NULL, "
    "role TEXT, participant TEXT, platform TEXT, at_epoch REAL, text TEXT NOT NULL)"
)
_PASSAGES = (
    "INSERT INTO recall_passages (id, kind, conversation, message_id, part, role, participant, "
    "at_epoch, text) VALUES (?, 'message', ?, ?, ?, ?, ?, ?, ?)"
)
_CONVERSATIONS = (
    "INSERT INTO recall_conversations (id, conversation_id, platform, first_id, last_id) "
    "VALUES (?, ?, ?, ?, ?)"
)
_FTS = "INSERT INTO recall_fts (rowid, body, context) VALUES (?, ?, ?)"
_BATCH = 1500

Rows = Sequence[tuple[Any, ...]]


def passages(source: Path, scratch: Path) -> Rows:
    """The message passages (with their context) an import of `source` indexes."""
    vault = make_vault(scratch / "import")
    with open_target(str(source)) as target:
        ingest(vault, ChatGPTImporter(), target, make_context(str(source), None))
    with vault._store.index_connection() as conn:
        rows = conn.execute(
            "SELECT p.kind, p.memory_seq, r.conversation_id, p.message_id, p.part, p.role, "
            "p.participant, r.platform, p.at_epoch, p.text, "
            "COALESCE(p.participant || ' ', '') || COALESCE(c.title, '') "
            "FROM recall_passages p JOIN recall_conversations r ON r.id = p.conversation "
            "LEFT JOIN conversations c ON c.id = r.conversation_id "
            "WHERE kind = 'message' ORDER BY p.id"
        ).fetchall()
    vault.close()
    return [tuple(r) for r in rows]


_OLD_INDEX = "CREATE INDEX old_passages_conversation ON old_passages (conversation_id)"


def timed(
    write: Callable[[Any, int, Rows], None],
    conn: Any,
    rows: Rows,
    times: int,
    last: str | None = None,
) -> float:
    start = time.process_time()
    next_id = 1
    for _ in range(times):
        for at in range(0, len(rows), _BATCH):
            batch = rows[at : at + _BATCH]
            write(conn, next_id, batch)
            next_id += len(batch)
    if last is not None:
        conn.execute(last)
    conn.execute("COMMIT")
    return time.process_time() - start


def in_vault(
    scratch: Path,
    rows: Rows,
    times: int,
    write: Callable[[Any, int, Rows], None],
    *setup: str,
    last: str | None = None,
) -> float:
    folder = Path(tempfile.mkdtemp(dir=scratch))
    store = make_store(folder / "vault.db")
    try:
        conn = store._conn
        conn.execute("BEGIN IMMEDIATE")
        for statement in setup:
            conn.execute(statement)
        return timed(write, conn, rows, times, last)
    finally:
        store.close()
        shutil.rmtree(folder)


def old_passage_rows(conn: Any, first: int, batch: Rows) -> None:
    conn.executemany(_OLD_PASSAGES, [(first + i, *r[:10]) for i, r in enumerate(batch)])


#: The conversation of the last passage written and its recall_conversations id.
_LAST: list[Any] = [None, 0]


def passage_rows(conn: Any, first: int, batch: Rows) -> None:
    """Migration 7's rows: a conversation row for each conversation the batch starts (with
    the range of its ids; a repeated export's conversations get ids of their own), and the
    passages pointing at it."""
    heads: list[list[Any]] = []
    rows: list[tuple[Any, ...]] = []
    for i, r in enumerate(batch, first):
        if r[2] != _LAST[0]:
            _LAST[0], _LAST[1] = r[2], _LAST[1] + 1
            heads.append([_LAST[1], f"{r[2]}/{_LAST[1]}", r[7], i, i])
        elif heads:
            heads[-1][4] = i
        rows.append((i, _LAST[1], r[3], r[4], r[5], r[6], r[8], r[9]))
    conn.executemany(_CONVERSATIONS, heads)
    conn.executemany(_PASSAGES, rows)


def fts_rows(conn: Any, first: int, batch: Rows) -> None:
    conn.executemany(_FTS, [(first + i, r[9], r[10]) for i, r in enumerate(batch)])


def fts_rows_savepoint(conn: Any, first: int, batch: Rows) -> None:
    conn.execute("SAVEPOINT batch")
    fts_rows(conn, first, batch)
    conn.execute("RELEASE batch")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--megabytes", type=int, default=30)
    parser.add_argument("--times", type=int, default=10)
    args = parser.parse_args()
    source = BENCH / "data" / f"chatgpt-{args.megabytes}mb" / "conversations.json"
    if not source.exists():
        raise SystemExit(f"{source} is missing: run benchmarks/importers.py --megabytes N first")
    with tempfile.TemporaryDirectory(dir=BENCH / "data") as name:
        scratch = Path(name)
        rows = passages(source, scratch)
        chars = sum(len(r[9]) for r in rows) * args.times
        print(f"{len(rows) * args.times:,} message passages ({chars:,} characters), CPU seconds:")
        hash_size = "INSERT INTO recall_fts (recall_fts, rank) VALUES ('hashsize', {})"
        figures = {
            "recall_passages rows as migrations 4-6 kept them, conversation index at the end": (
                in_vault(scratch, rows, args.times, old_passage_rows, _OLD_TABLE, last=_OLD_INDEX)
            ),
            "  the same rows, unencrypted in-memory SQLite": timed(
                old_passage_rows, _memory_table(), rows, args.times
            ),
            "recall_passages and recall_conversations rows (migration 7)": in_vault(
                scratch, rows, args.times, passage_rows
            ),
            "recall_fts alone, a savepoint per batch, 1 MiB hash": in_vault(
                scratch, rows, args.times, fts_rows_savepoint
            ),
            "recall_fts alone, no savepoints, 1 MiB hash": in_vault(
                scratch, rows, args.times, fts_rows
            ),
            f"recall_fts alone, no savepoints, {_BULK_HASH_BYTES >> 20} MiB hash (bulk load)": (
                in_vault(scratch, rows, args.times, fts_rows, hash_size.format(_BULK_HASH_BYTES))
            ),
        }
        for label, seconds in figures.items():
            print(f"  {label}: {seconds:.2f} s")


def _memory_table() -> Any:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute(_OLD_TABLE)
    conn.execute("BEGIN")
    return conn


if __name__ == "__main__":
    main()
