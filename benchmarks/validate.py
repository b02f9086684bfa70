"""Validation and canonicalization speed, against the official PAM SDK and `rfc8785`.

    .venv/bin/python benchmarks/validate.py [--memories 100000] [--repeat 3]

Builds a realistic 100,000-memory store (about 115 MB of compact JSON) with
benchmarks/storegen.py, then, in one run:

1. `memvault validate FILE` against the official SDK's `pam validate FILE`
   (portable-ai-memory 1.0.0, in its own venv): wall time and peak RSS of each process,
   `--repeat` runs of each, interleaved, the median compared.
2. memvault's RFC 8785 serialization (C accelerator and pure-Python fallback) against the
   `rfc8785` package on the store's 100,000 memories.

Prints the figures and the ratios (peer / memvault: above 1 means memvault is faster or
smaller). The SDK computes the checksum on a null-stripped dump, so it is also timed on a
copy of the store written without null members, which it accepts.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from peers import Measurement, fmt_bytes, fmt_ratio, median_run, run_measured, sdk_venv

DATA = Path(__file__).resolve().parent / "data"
_WRITE = """
import sys
from pathlib import Path
import orjson
path, n, omit = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "True"
path.parent.mkdir(parents=True, exist_ok=True)
path.write_bytes(orjson.dumps(build_store(n, omit_nulls=omit)))
"""


def _time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_validate(store: Path, stripped: Path, repeat: int) -> None:
    """Each tool `repeat` times, interleaved (memvault, then the SDK on each file), so that
    a slow spell of the machine falls on both; the median run of each is compared."""
    memvault = Path(sys.executable).with_name("memvault")
    pam = sdk_venv()
    runs: dict[str, list[Measurement]] = {"ours": [], "sdk": [], "sdk_stripped": []}
    for _ in range(repeat):
        run = run_measured([str(memvault), "validate", "-q", str(store)])
        if run.returncode != 0:
            raise SystemExit(f"memvault validate failed:\n{run.stdout}\n{run.stderr}")
        runs["ours"].append(run)
        runs["sdk"].append(run_measured([str(pam), "validate", str(store)]))
        runs["sdk_stripped"].append(run_measured([str(pam), "validate", str(stripped)]))
    ours, sdk, sdk_stripped = (median_run(runs[k]) for k in ("ours", "sdk", "sdk_stripped"))
    times = {k: " ".join(f"{m.seconds:.2f}" for m in v) for k, v in runs.items()}
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nvalidate {store.name} ({fmt_bytes(store.stat().st_size)}); load average {load}")
    print(f"  memvault validate      {ours.summary()}")
    print(
        f"    (all runs: memvault {times['ours']} s; SDK {times['sdk']} s; "
        f"SDK, no nulls {times['sdk_stripped']} s)"
    )
    print(f"  pam validate           {sdk.summary()}  (rejects spec-literal checksums)")
    print(f"  pam validate (no nulls){sdk_stripped.summary()}")
    for label, peer in (("spec-literal file", sdk), ("null-stripped file", sdk_stripped)):
        print(
            f"  ratio vs SDK on the {label}: time {fmt_ratio(peer.seconds, ours.seconds)}, "
            f"peak RSS {fmt_ratio(peer.peak_rss_bytes, ours.peak_rss_bytes)}"
        )


def bench_jcs(store: Path, repeat: int) -> None:
    import rfc8785

    from memvault import canonical

    memories = orjson.loads(store.read_bytes())["memories"]
    fast = _time(lambda: canonical.jcs_dumps(memories), repeat)
    python = _time(lambda: canonical.jcs_dumps_python(memories), 1)
    oracle = _time(lambda: rfc8785.dumps(memories), 1)
    same = canonical.jcs_dumps(memories) == rfc8785.dumps(memories)
    print(f"\nRFC 8785 of {len(memories):,} memories (output identical to rfc8785: {same})")
    print(f"  memvault jcs_dumps (C)       {fast:.3f} s")
    print(f"  memvault jcs_dumps_python    {python:.3f} s")
    print(f"  rfc8785.dumps                {oracle:.3f} s")
    print(
        f"  ratio rfc8785 / memvault C: {fmt_ratio(oracle, fast)}; "
        f"/ Python: {fmt_ratio(oracle, python)}"
    )
    if not same:
        raise SystemExit("canonical output differs from rfc8785")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # Compact JSON, as exporters commonly write it: about 1.1 KB per memory. Written by a
    # separate process: a child's peak RSS counts the memory of the process that forks it, so
    # this one must stay small until the measurements are done.
    store = DATA / f"store-{args.memories}-compact.json"
    stripped = DATA / f"store-{args.memories}-compact-no-nulls.json"
    for path, omit_nulls in ((store, False), (stripped, True)):
        if not path.exists():
            subprocess.run(
                [sys.executable, "-c", _WRITE, str(path), str(args.memories), str(omit_nulls)],
                check=True,
                cwd=Path(__file__).resolve().parent,
            )
    bench_validate(store, stripped, args.repeat)
    bench_jcs(store, args.repeat)


if __name__ == "__main__":
    main()
