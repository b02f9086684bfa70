"""The memory list's confidence filter at scale (issue #22): one page and its total, with and
without `min_confidence`/`max_confidence`, on a vault of 100,000 memories.

```sh
.venv/bin/python benchmarks/memory_filters.py                  # 100,000 memories, SQLite
.venv/bin/python benchmarks/memory_filters.py --memories 20000
```

A personal vault gets `--memories` of storegen's memories (benchmarks/storegen.py, whose
confidence values spread over [0.1, 1]). Each case lists the first page (50, newest first)
and counts every match through `Vault.list`, the call `GET /v1/memories` makes, `--runs`
times; the peer, measured in the same run, is the same list without a confidence bound. It
prints the median wall and CPU time of each case, its ratio to the peer, and SQLite's query
plan of the filtered page (the filter rides on the status/created index: no index of its own).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from memvault.store.base import MemoryQuery  # noqa: E402
from memvault.store.codec import memory_from_json  # noqa: E402
from memvault.store.sqlite import _CONFIDENCE  # noqa: E402
from memvault.vault import Vault  # noqa: E402
from storegen import build_memories  # noqa: E402

CASES: dict[str, MemoryQuery] = {
    "no bound (peer)": MemoryQuery(),
    "min 0.5": MemoryQuery(min_confidence=0.5),
    "min 0.9": MemoryQuery(min_confidence=0.9),
    "max 0.2": MemoryQuery(max_confidence=0.2),
    "0.4-0.6, type fact": MemoryQuery(min_confidence=0.4, max_confidence=0.6, types=("fact",)),
    "min 0.999 (rare)": MemoryQuery(min_confidence=0.999),
}


def fill(home: Path, n: int) -> Vault:
    from vaultkit import make_vault

    vault: Vault = make_vault(home)
    background = vault.background("import")
    documents = build_memories(n, 0)
    for start in range(0, n, 10_000):
        background.add_memories(memory_from_json(d) for d in documents[start : start + 10_000])
    return vault


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        vault = fill(Path(tmp) / "vault", args.memories)
        try:
            rows: list[tuple[str, int, float, float]] = []
            for name, query in CASES.items():
                vault.list(query)  # warm the page cache
                walls, cpus = [], []
                for _ in range(args.runs):
                    w, c = time.perf_counter(), cpu()
                    page = vault.list(query)
                    walls.append(time.perf_counter() - w)
                    cpus.append(cpu() - c)
                rows.append((name, page.total, statistics.median(walls), statistics.median(cpus)))
            plan = vault._store._all(  # type: ignore[attr-defined]
                "EXPLAIN QUERY PLAN SELECT m.document FROM memories m WHERE m.status IN ('active')"
                f" AND {_CONFIDENCE} >= 0.9 "
                "ORDER BY m.created_epoch DESC, m.seq DESC LIMIT 50",
                (),
            )
        finally:
            vault.close()
    peer_wall, peer_cpu = rows[0][2], rows[0][3]
    print(f"{args.memories:,} memories, {args.runs} runs, load {os.getloadavg()[0]:.2f}")
    print(f"{'case':<22} {'matches':>8} {'wall ms':>8} {'cpu ms':>8} {'x peer (cpu)':>13}")
    for name, total, wall, used in rows:
        ratio = used / peer_cpu if peer_cpu else float("nan")
        print(f"{name:<22} {total:>8,} {wall * 1e3:>8.1f} {used * 1e3:>8.1f} {ratio:>13.2f}")
    print(f"peer wall {peer_wall * 1e3:.1f} ms")
    print("plan of the filtered page:", "; ".join(str(r[-1]) for r in plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
