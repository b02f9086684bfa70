"""What the recall index costs an import's writing process, part by part: the floor under
`memvault import` with the index built (benchmarks/importers.py).

    .venv/bin/python benchmarks/recall_writes.py [--megabytes 30] [--times 10]

Imports the ChatGPT export of benchmarks/data/chatgpt-<MB>mb (made by benchmarks/importers.py)
into a fresh vault, takes the message passages the import indexed, and writes them `--times`
times (10 × the 30 MB export's passages ≈ the 300 MB export's) into fresh encrypted vaults, one
part of the index at a time, each in one transaction, in batches of 1,500 passages (an import's
batch of conversations), timing the CPU of this process:

1. the ``recall_passages`` rows alone (their conversation index dropped, as a bulk load does);
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
_PASSAGES = f"INSERT INTO recall_passages (id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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
            "SELECT p.kind, p.memory_seq, p.conversation_id, p.message_id, p.part, p.role, "
            "p.participant, p.platform, p.at_epoch, p.text, "
            "COALESCE(p.participant || ' ', '') || COALESCE(c.title, '') "
            "FROM recall_passages p LEFT JOIN conversations c ON c.id = p.conversation_id "
            "WHERE kind = 'message'"
        ).fetchall()
    vault.close()
    return [tuple(r) for r in rows]


def timed(write: Callable[[Any, int, Rows], None], conn: Any, rows: Rows, times: int) -> float:
    start = time.process_time()
    next_id = 1
    for _ in range(times):
        for at in range(0, len(rows), _BATCH):
            batch = rows[at : at + _BATCH]
            write(conn, next_id, batch)
            next_id += len(batch)
    conn.execute("COMMIT")
    return time.process_time() - start


def in_vault(
    scratch: Path, rows: Rows, times: int, write: Callable[[Any, int, Rows], None], *setup: str
) -> float:
    folder = Path(tempfile.mkdtemp(dir=scratch))
    store = make_store(folder / "vault.db")
    try:
        conn = store._conn
        conn.execute("BEGIN IMMEDIATE")
        for statement in setup:
            conn.execute(statement)
        return timed(write, conn, rows, times)
    finally:
        store.close()
        shutil.rmtree(folder)


def passage_rows(conn: Any, first: int, batch: Rows) -> None:
    conn.executemany(_PASSAGES, [(first + i, *r[:10]) for i, r in enumerate(batch)])


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
            "recall_passages rows alone": in_vault(
                scratch,
                rows,
                args.times,
                passage_rows,
                "DROP INDEX recall_passages_conversation",
            ),
            "  the same rows, unencrypted in-memory SQLite": timed(
                passage_rows, _memory_table(), rows, args.times
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
    conn.execute(
        "CREATE TABLE recall_passages (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
        "memory_seq INTEGER, conversation_id TEXT, message_id TEXT, part INTEGER NOT NULL, "
        "role TEXT, participant TEXT, platform TEXT, at_epoch REAL, text TEXT NOT NULL)"
    )
    conn.execute("BEGIN")
    return conn


if __name__ == "__main__":
    main()
