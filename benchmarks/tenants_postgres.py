"""Many tenants in one PostgreSQL beside one tenant holding the same rows, measured in one
run: p50/p95 of a full-text search, a count and an import (a batch of new memories in one
transaction) in one tenant's store — a tenant of PER_TENANT memories alone in the database,
the same among TENANTS such tenants, and a single tenant of TENANTS × PER_TENANT memories
(docs/scaling.md).

The question it answers: does a tenant's work cost more because a thousand others share the
tables? Every key and index leads with the tenant, so it should not, beyond the larger index
pages. Recall's own index is not on PostgreSQL yet, so the full-text search of the store
stands in for it.

Starts its own PostgreSQL (Debian's 15) with the test harness (tests/pgkit.py: initdb in a
temporary directory, 127.0.0.1, stopped at the end), connects as the application role, makes
the text-search match operator LEAKPROOF (docs/postgres.md) and analyses the tables after the
load, as autovacuum would.

Usage: ``python benchmarks/tenants_postgres.py [--tenants 1000] [--per-tenant 100]
[--samples 200]`` (1,000 × 1,000 is the million-memory figure; it takes a while).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import pgkit  # noqa: E402
from memvault.model import Memory  # noqa: E402
from memvault.store.base import MemoryQuery, Store, StoredMemory  # noqa: E402
from memvault.store.factory import create_database_store, open_database_store  # noqa: E402
from memvault.store.serverkey import ServerKey  # noqa: E402
from storegen import build_memories  # noqa: E402

WORDS = ["coffee", "lisboa", "python", "gosta", "meeting", "acao", "prefers", "trabalho"]
IMPORT_BATCH = 50


def percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.95) - 1)]


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def with_ids(memories: list[StoredMemory], prefix: str) -> list[StoredMemory]:
    """The same memories under ids of their own (each tenant's rows distinct, as in life)."""
    return [
        StoredMemory(s.memory.evolve(id=f"{prefix}-{i:07d}"), s.decay_anchor)
        for i, s in enumerate(memories)
    ]


def load(store: Store, memories: list[StoredMemory]) -> None:
    with store.transaction():
        store.insert_memory_batches(memories[i : i + 1000] for i in range(0, len(memories), 1000))


def measure(
    stores: list[Store], samples: int, rng: random.Random
) -> dict[str, tuple[float, float]]:
    """p50/p95 (ms) of search, count and import, each in a store picked at random."""
    search, count, imports = [], [], []
    batch = [StoredMemory(Memory.from_json(m), 0.8) for m in build_memories(IMPORT_BATCH, seed=7)]
    for n in range(samples):
        store = rng.choice(stores)
        query = MemoryQuery(text=rng.choice(WORDS), order="relevance", limit=20)
        search.append(timed(partial(store.search, query)))
        count.append(timed(partial(store.count_memories, MemoryQuery())))
        if n < samples // 4:  # imports add rows: fewer of them
            fresh = with_ids(batch, f"imp{n:05d}")
            imports.append(timed(partial(load, store, fresh)))
    return {
        "search": percentiles(search),
        "count": percentiles(count),
        f"import {IMPORT_BATCH}": percentiles(imports),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=1000)
    parser.add_argument("--per-tenant", type=int, default=100)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args(argv)
    template = [
        StoredMemory(Memory.from_json(m), 0.8) for m in build_memories(args.per_tenant, seed=1)
    ]
    total = args.tenants * args.per_tenant
    key = ServerKey.parse(pgkit.SERVER_KEY, "the benchmark server key")
    rng = random.Random(1)
    try:
        server = pgkit.server("pg15")
        with server.superuser() as conn:
            conn.execute("ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF")
        # The same small tenant alone in the database first: what sharing it costs.
        alone = create_database_store(server.app_url, "many-00000", server_key=key)
        load(alone, with_ids(template, "m00000"))
        with server.superuser() as conn:
            conn.execute("VACUUM ANALYZE memories")
        figures_alone = measure([alone], args.samples, rng)
        alone.close()
        with server.superuser() as conn:  # its imports out again: every tenant starts equal
            conn.execute("DELETE FROM memories WHERE id LIKE 'imp%'")
        start = time.perf_counter()
        many = []
        for t in range(args.tenants):
            if t:
                store = create_database_store(server.app_url, f"many-{t:05d}", server_key=key)
                load(store, with_ids(template, f"m{t:05d}"))
            else:  # loaded already
                store = open_database_store(server.app_url, "many-00000", server_key=key)
            many.append(store)
        loaded_many = time.perf_counter() - start
        start = time.perf_counter()
        one = create_database_store(server.app_url, "one", server_key=key)
        for t in range(args.tenants):
            load(one, with_ids(template, f"o{t:05d}"))
        loaded_one = time.perf_counter() - start
        with server.superuser() as conn:
            conn.execute("VACUUM ANALYZE memories")
        figures_many = measure(many, args.samples, rng)
        figures_one = measure([one], args.samples, rng)
        # A cross-tenant admin query (docs/scaling.md): outside row-level security, as an
        # operator's role does it — every tenant's rows read, against one tenant's count.
        with server.superuser() as conn:
            admin = percentiles(
                [
                    timed(
                        lambda: conn.execute(
                            "SELECT tenant, count(*) FROM memories GROUP BY tenant"
                        ).fetchall()
                    )
                    for _ in range(10)
                ]
            )
        for store in [*many, one]:
            store.close()
    finally:
        pgkit.stop_all()
    print(
        f"{args.tenants:,} tenants × {args.per_tenant:,} memories vs 1 tenant × {total:,}, "
        f"one PostgreSQL 15 ({2 * total:,} memories in all); load {loaded_many:.0f} s vs "
        f"{loaded_one:.0f} s"
    )
    print(
        f"p50/p95 in ms of one tenant of {args.per_tenant:,} memories alone in the database "
        f"(alone), among {args.tenants:,} such tenants (among), and of the one tenant of "
        f"{total:,} (big); the ratios of the p95s"
    )
    heads = ("alone p50", "alone p95", "among p50", "among p95", "big p50", "big p95")
    ratios = ("among/alone", "among/big")
    print(f"{'':11}" + "".join(f"{h:>10}" for h in heads) + "".join(f"{r:>12}" for r in ratios))
    for name, (p50, p95) in figures_many.items():
        a50, a95 = figures_alone[name]
        o50, o95 = figures_one[name]
        row = (a50, a95, p50, p95, o50, o95)
        print(
            f"{name:11}"
            + "".join(f"{v:10.2f}" for v in row)
            + f"{p95 / a95:12.2f}{p95 / o95:12.2f}"
        )
    count_p95 = figures_many["count"][1]
    print(
        f"cross-tenant count per tenant (all {2 * total:,} rows, superuser): p50 {admin[0]:.1f} "
        f"ms, p95 {admin[1]:.1f} ms = {admin[1] / count_p95:.0f}× one tenant's count p95"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
