"""The memory list's confidence filter at scale (issue #22): one page and its total, with and
without `min_confidence`/`max_confidence`, on a vault of 100,000 memories.

```sh
.venv/bin/python benchmarks/memory_filters.py                  # 100,000 memories, SQLite
.venv/bin/python benchmarks/memory_filters.py --backend postgres
.venv/bin/python benchmarks/memory_filters.py --memories 20000
.venv/bin/python benchmarks/memory_filters.py --backend postgres --no-analyze
```

A store — a personal vault's SQLite file, or a tenant of a throwaway PostgreSQL 15 started by
the test harness (tests/pgkit.py) — gets `--memories` of storegen's memories
(benchmarks/storegen.py, whose confidence values spread over [0.1, 1]). Each case lists the
first page (50, newest first) and counts every match — what `Vault.list` asks the store for
`GET /v1/memories` — `--runs` times; the peer, measured in the same run, is the same list
without a confidence bound. It prints the median wall time and the CPU time of this process
(on PostgreSQL the server's work is in the wall time only), the ratio to the peer, and the
query plans of a narrow and a broad bound's page (the narrow one read through the
status/confidence index and sorted, the broad one walking the status/created index) and of a
broad bound's total (the status/confidence index alone).

On PostgreSQL the benchmark runs its own ANALYZE after the load, as autovacuum would a while
later; `--no-analyze` leaves it out, turns autovacuum off, and lists right after the load, on
the statistics the store itself leaves (it analyses a table a large write filled) — what a
user gets in the first minute after a large import. The load's wall time is
printed, so what the store's ANALYZE costs shows beside what it saves.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from memvault.store.base import MemoryQuery, Store, StoredMemory  # noqa: E402
from memvault.store.codec import memory_from_json  # noqa: E402
from memvault.unit_of_work import decay_anchor_of  # noqa: E402
from storegen import build_memories  # noqa: E402

CASES: dict[str, MemoryQuery] = {
    "no bound (peer)": MemoryQuery(),
    "min 0.5": MemoryQuery(min_confidence=0.5),
    "min 0.9": MemoryQuery(min_confidence=0.9),
    "max 0.2": MemoryQuery(max_confidence=0.2),
    "0.4-0.6, type fact": MemoryQuery(min_confidence=0.4, max_confidence=0.6, types=("fact",)),
    "min 0.999 (rare)": MemoryQuery(min_confidence=0.999),
}


def fill(store: Store, n: int) -> None:
    documents = build_memories(n, 0)
    for start in range(0, n, 10_000):
        batch = []
        for document in documents[start : start + 10_000]:
            memory = memory_from_json(document)
            batch.append(StoredMemory(memory, decay_anchor_of(memory)))
        with store.transaction():
            store.insert_memories(batch)


@contextmanager
def opened(backend: str, tmp: Path, *, autovacuum: bool = True) -> Iterator[Store]:
    if backend == "sqlite":
        from storekit import new_sqlite_store

        store = new_sqlite_store(tmp)
        try:
            yield store
        finally:
            store.close()
        return
    import pgkit
    from memvault.store.factory import create_database_store
    from memvault.store.serverkey import ServerKey

    server = pgkit.start_server("filters", pgkit.DEBIAN_BIN, vector=False)
    try:
        if not autovacuum:
            # The first minute after a load, however long the load took: autovacuum has not
            # come by yet, and only the store's own statistics are there.
            with server.superuser() as conn:
                conn.execute("ALTER SYSTEM SET autovacuum = off")
                conn.execute("SELECT pg_reload_conf()")
        key = ServerKey.parse(pgkit.SERVER_KEY, "the benchmark's server key")
        store = create_database_store(server.app_url, "bench", server_key=key)
        try:
            yield store
        finally:
            store.close()
    finally:
        server.stop()


def listed(store: Store, query: MemoryQuery) -> int:
    """The page and the total, as `Vault.list` asks for them."""
    store.query_memories(query)
    return store.count_memories(query)


def _where_of(store: Store, query: MemoryQuery, params: list[Any]) -> str:
    """The WHERE clause the store counts `query`'s matches with."""
    if store.__class__.__name__ == "SQLiteStore":
        from memvault.store import sqlite

        return sqlite._and(sqlite._where(query, params))
    from memvault.store import postgres

    return postgres._where(query, store._tenant, params)  # type: ignore[attr-defined]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--no-analyze",
        action="store_true",
        help="PostgreSQL: list right after the load, without the benchmark's own ANALYZE",
    )
    args = parser.parse_args(argv)
    plan: list[Any] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        opened(args.backend, Path(tmp), autovacuum=not args.no_analyze) as store,
    ):
        started = time.perf_counter()
        fill(store, args.memories)
        fill_wall = time.perf_counter() - started
        analyse_wall = 0.0
        if args.backend == "postgres" and not args.no_analyze:
            # The statistics a running database has: autovacuum analyses a table within a
            # minute of a bulk load like this one, and a plan chosen on the empty table's
            # statistics (every estimate a handful of rows) is not what users get.
            started = time.perf_counter()
            with store.transaction():
                store._conn().execute("ANALYZE memories")  # type: ignore[attr-defined]
                store._conn().execute("ANALYZE recall_passages")  # type: ignore[attr-defined]
            analyse_wall = time.perf_counter() - started
        rows: list[tuple[str, int, float, float]] = []
        for name, query in CASES.items():
            listed(store, query)  # warm the caches
            walls, cpus = [], []
            for _ in range(args.runs):
                w, c = time.perf_counter(), cpu()
                total = listed(store, query)
                walls.append(time.perf_counter() - w)
                cpus.append(cpu() - c)
            rows.append((name, total, statistics.median(walls), statistics.median(cpus)))
        # The plans of a narrow and a broad bound's page, and of a broad bound's total.
        explain = "EXPLAIN QUERY PLAN" if args.backend == "sqlite" else "EXPLAIN"
        for name in ("max 0.2", "min 0.5"):
            sql, params = store._memory_page_sql(CASES[name])  # type: ignore[attr-defined]
            steps = store._all(f"{explain} {sql}", params)  # type: ignore[attr-defined]
            plan.append((f"page, {name}", [str(r[-1]).strip() for r in steps]))
        params = []
        where = _where_of(store, MemoryQuery(statuses=("active",), min_confidence=0.5), params)
        steps = store._all(f"{explain} SELECT count(*) FROM memories m WHERE {where}", params)  # type: ignore[attr-defined]
        plan.append(("total, min 0.5", [str(r[-1]).strip() for r in steps]))
    peer_wall, peer_cpu = rows[0][2], rows[0][3]
    analysed = (
        ""
        if args.backend == "sqlite"
        else ", the store's statistics only"
        if args.no_analyze
        else f", then ANALYZE of memories and recall_passages in {analyse_wall:.2f} s wall"
    )
    print(
        f"{args.backend}: {args.memories:,} memories (loaded in {fill_wall:.1f} s wall"
        f"{analysed}), {args.runs} runs, load {os.getloadavg()[0]:.2f}"
    )
    print(f"{'case':<22} {'matches':>8} {'wall ms':>8} {'cpu ms':>8} {'x peer (cpu)':>13}")
    for name, total, wall, used in rows:
        ratio = used / peer_cpu if peer_cpu else float("nan")
        print(f"{name:<22} {total:>8,} {wall * 1e3:>8.1f} {used * 1e3:>8.1f} {ratio:>13.2f}")
    print(f"peer wall {peer_wall * 1e3:.1f} ms")
    for name, steps in plan:
        print(f"plan ({name}):", "; ".join(steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
