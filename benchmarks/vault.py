"""Vault throughput and latency at 100,000 memories, against a plain SQLite peer.

    .venv/bin/python benchmarks/vault.py [--memories 100000] [--batch 10000] [--queries 200]

Inserts realistic memories (benchmarks/storegen.py) through `Vault.add_memories` in batches
into a fresh encrypted vault, then times listing with filters and full-text search (English and
Portuguese, common and rare words). The peer, measured in the same run on the same data, is the
standard library's unencrypted `sqlite3` with a minimal table and an FTS5 index: what the same
inserts and queries cost without encryption and without the vault's rules (validation, dedup,
audit chain, access control). Prints throughput, p50/p95 latencies and the ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memvault.model import Memory
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from storegen import build_memories

PASSPHRASE = "benchmark passphrase"
WORDS = [
    "python", "lisboa", "lisbon", "marathon", "coffee", "dagster", "kubernetes", "postgresql",
    "ação", "acao", "café", "filha", "prefers", "concise", "project", "trabalho", "família",
    "running", "documentation", "berlin",
]  # fmt: skip


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return p50 * 1000, p95 * 1000


def timed(fn: Callable[[int], Any], repeat: int) -> list[float]:
    """Seconds of each of `repeat` calls fn(0), fn(1), …"""
    out = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - start)
    return out


def vault_run(memories: list[Memory], batch: int, queries: int, home: Path) -> dict[str, Any]:
    results: dict[str, Any] = {}
    vault = Vault.init(home, PASSPHRASE)
    start = time.perf_counter()
    for i in range(0, len(memories), batch):
        vault.add_memories(memories[i : i + batch])
    results["insert"] = len(memories) / (time.perf_counter() - start)
    rng = random.Random(7)
    sample = [memories[rng.randrange(len(memories))] for _ in range(queries)]
    kinds: dict[str, Callable[[int], MemoryQuery]] = {
        "list by type": lambda i: MemoryQuery(types=(sample[i].type,), limit=50),
        "list by tag": lambda i: MemoryQuery(
            tags=(sample[i].tags[0],) if sample[i].tags else (), limit=50
        ),
        "list by platform": lambda i: MemoryQuery(
            platforms=(sample[i].provenance.platform,), limit=50
        ),
        "list all statuses, page 20": lambda i: MemoryQuery(statuses=None, limit=50, offset=1000),
        "list created since": lambda i: MemoryQuery(
            created_since=datetime(2024, 1 + i % 12, 1, tzinfo=UTC), limit=50
        ),
    }
    for name, make in kinds.items():
        results[name] = percentiles(timed(lambda i, make=make: vault.list(make(i)), queries))
    results["search"] = percentiles(timed(lambda i: vault.search(WORDS[i % len(WORDS)]), queries))
    vault.close()
    return results


def peer_run(memories: list[Memory], batch: int, queries: int, path: Path) -> dict[str, Any]:
    """The same data in plain, unencrypted SQLite with FTS5."""
    results: dict[str, Any] = {}
    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA journal_mode = WAL;
        CREATE TABLE memories (id TEXT PRIMARY KEY, type TEXT, status TEXT, platform TEXT,
                               created TEXT, doc TEXT);
        CREATE INDEX memories_type ON memories (type, created);
        CREATE TABLE tags (memory_id TEXT, tag TEXT);
        CREATE INDEX tags_tag ON tags (tag);
        CREATE VIRTUAL TABLE fts USING fts5 (content, tokenize = 'unicode61 remove_diacritics 2');
        """
    )
    rows = [m.to_json() for m in memories]
    start = time.perf_counter()
    for i in range(0, len(rows), batch):
        chunk = rows[i : i + batch]
        with db:
            db.executemany(
                "INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        r["id"], r["type"], r.get("status", "active"), r["provenance"]["platform"],
                        r["temporal"]["created_at"], json.dumps(r),
                    )
                    for r in chunk
                ],
            )  # fmt: skip
            db.executemany(
                "INSERT INTO tags VALUES (?, ?)", [(r["id"], t) for r in chunk for t in r["tags"]]
            )
            db.executemany("INSERT INTO fts (rowid, content) VALUES (NULL, ?)",
                           [(r["content"],) for r in chunk])  # fmt: skip
    results["insert"] = len(rows) / (time.perf_counter() - start)
    results["search"] = percentiles(
        timed(
            lambda i: db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 50",
                (WORDS[i % len(WORDS)],),
            ).fetchall(),
            queries,
        )
    )
    types = sorted({r["type"] for r in rows})
    results["list by type"] = percentiles(
        timed(
            lambda i: db.execute(
                "SELECT doc FROM memories WHERE type = ? ORDER BY created DESC LIMIT 50",
                (types[i % len(types)],),
            ).fetchall(),
            queries,
        )
    )
    db.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    memories = [Memory.from_json(m) for m in build_memories(args.memories)]
    with tempfile.TemporaryDirectory() as tmp:
        ours = vault_run(memories, args.batch, args.queries, Path(tmp) / "vault")
        peer = peer_run(memories, args.batch, args.queries, Path(tmp) / "plain.db")
    print(f"\n{args.memories:,} memories, batches of {args.batch:,}, {args.queries} queries each")
    print(
        f"  insert  memvault vault {ours['insert']:>9,.0f}/s   "
        f"plain sqlite3 {peer['insert']:>9,.0f}/s   ratio {peer['insert'] / ours['insert']:.2f}x"
    )
    for name, value in ours.items():
        if name == "insert":
            continue
        p50, p95 = value
        line = f"  {name:<28} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms"
        if name in peer:
            q50, q95 = peer[name]
            line += (
                f"   plain sqlite3 p50 {q50:6.2f} ms p95 {q95:6.2f} ms (p95 ratio {p95 / q95:.1f}x)"
            )
        print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
