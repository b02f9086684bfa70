"""Where an AIMEM import's CPU goes: the import of `POST /v1/brain/import` run in this process
on a fresh server tenant (a serving SQLite vault, as `memvault serve` opens it), each phase's
CPU time measured, so the figures of benchmarks/aimem_http.py can be taken apart.

    .venv/bin/python benchmarks/aimem_import_phases.py [--chunks 50000] [--event-pass]
        [--two-pass] [--memory-path]

Phases (CPU seconds; "thread" ones are the CPU of the thread that ran them):

- checksum pass (§2.8): `open_bundle` — the bytes scanned, every record parsed and hashed;
- validation: a plain bundle's graph records checked and packed per memory
  (`PackedGraph.build`; its chunks are checked as they are made into rows), else the pass
  that checks every record against §2 and gathers the graph (`_first_pass`);
- mapping: a plain chunk checked and made into its row at once (`ChunkRows.row`), else
  chunk → PAM memory JSON (`chunk_to_memory`), thread;
- adding: PAM checks, dedup, rows, the audit chain — plain chunks' rows
  (`UnitOfWork.add_memory_rows`, `add_memory_documents`), others as `Memory` objects
  (`_Importer._map`'s model objects, `UnitOfWork.add_memories`) — thread, without the
  SQLite writes it hands to another thread; of which the audit chain (`AuditLog.append`);
- SQLite writes: rows, tags, recall passages and their full-text index, encrypted pages
  (`SQLiteStore.write_memories`, the writer thread);
- the rest of the second pass (or of `_Importer._stream`, the one pass over the chunks of a
  plain bundle) and the commit (process CPU less the above).

The peak resident set the import adds to the process is printed too (VmHWM, reset before
the measured import: Linux's ``/proc/self/clear_refs``).

The cyclic collector's share is measured too, by generation: a full (generation 2)
collection scans every tracked object of the process (a served process holds ~40,000 before
any import), so its count matters more than what the import keeps alive; the count follows
how many container objects each batch of chunks keeps alive until the batch is written.
The peer printed in the same run is the SQLite writes alone as chunks per CPU-second: no
import of this design goes faster than that. `--event-pass` reads the bundle with the
ijson event pass instead of the span scanner, `--two-pass` reads a plain bundle's chunks in
two passes (what the import did before `memvault.exchange.aimem_rows`), `--memory-path`
maps every chunk to a `Memory` (what the import did before `memvault.memory_rows`), each
for a comparison in the same conditions.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aimem_http import DATA, SERVER_KEY, ensure_bundle

PHASES = (
    ("checksum", "checksum pass (open_bundle)"),
    ("validate", "validation (or graph checked, packed)"),
    ("map", "mapping (chunk -> PAM JSON, or -> row)"),
    ("add", "adding (without its SQLite writes)"),
    ("audit", "  of which the audit chain"),
    ("write", "SQLite writes (writer thread)"),
)


def _process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _instrument(spent: dict[str, float]) -> Callable[[], None]:
    """Wrap each phase's function to add its CPU time to `spent`; returns what undoes it."""
    from memvault import audit
    from memvault.exchange import aimem, aimem_rows
    from memvault.formats.aimem import reader
    from memvault.store import sqlite
    from memvault.unit_of_work import UnitOfWork

    undo: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str, key: str, clock: Callable[[], float]) -> None:
        original = getattr(owner, name)
        undo.append((owner, name, original))

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return original(*args, **kwargs)
            finally:
                spent[key] = spent.get(key, 0.0) + clock() - start

        setattr(owner, name, timed)

    wrap(reader.BundleReader, "_verify", "checksum", _process_cpu)
    wrap(aimem._Importer, "_first_pass", "validate", _process_cpu)
    wrap(aimem_rows.PackedGraph, "build", "validate", _process_cpu)
    wrap(aimem._Importer, "_second_pass", "second", _process_cpu)
    wrap(aimem._Importer, "_stream", "second", _process_cpu)
    wrap(aimem, "chunk_to_memory", "map", time.thread_time)
    wrap(aimem_rows.ChunkRows, "row", "map", time.thread_time)
    wrap(UnitOfWork, "add_memory_documents", "add", time.thread_time)
    wrap(UnitOfWork, "add_memory_rows", "add", time.thread_time)
    wrap(UnitOfWork, "add_memories", "add", time.thread_time)
    wrap(audit.AuditLog, "append", "audit", time.thread_time)
    wrap(sqlite.SQLiteStore, "write_memories", "write", time.thread_time)

    def restore() -> None:
        for owner, name, original in undo:
            setattr(owner, name, original)

    return restore


def _collector_clock(spent: dict[str, float]) -> Callable[[str, dict[str, Any]], None]:
    started: list[float] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(time.thread_time())
        elif started:
            seconds = time.thread_time() - started.pop()
            generation = info["generation"]
            spent["gc"] = spent.get("gc", 0.0) + seconds
            spent["gc_runs"] = spent.get("gc_runs", 0) + 1
            spent[f"gc{generation}"] = spent.get(f"gc{generation}", 0.0) + seconds
            spent[f"gc{generation}_runs"] = spent.get(f"gc{generation}_runs", 0) + 1

    gc.callbacks.append(callback)
    return callback


def _status_mib(key: str) -> float:
    """A ``/proc/self/status`` figure (VmRSS, VmHWM) in MiB; 0 where there is none."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _reset_peak() -> None:
    """Start VmHWM again from the present resident set (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def run(
    chunks: int,
    *,
    event_pass: bool = False,
    two_pass: bool = False,
    memory_path: bool = False,
    data: Path = DATA,
) -> dict[str, float]:
    """Import a bundle of `chunks` (kept in `data`) and print where the CPU went; returns
    the figures (CPU seconds by phase, ``cpu`` and ``wall``)."""
    from memvault.exchange import aimem
    from memvault.exchange.aimem_wire import import_stream
    from memvault.formats.aimem import reader
    from memvault.tenancy import Tenants

    bundle = ensure_bundle(chunks, data)
    warm = ensure_bundle(max(chunks // 10, 100), data)
    spent: dict[str, float] = {}
    speedups = reader._speedups
    if event_pass:
        reader._speedups = None  # the ijson event pass, as before the span scanner
    fast_path, one_pass = aimem._FAST_PATH, aimem._ONE_PASS
    if two_pass:
        aimem._ONE_PASS = False  # a plain bundle's chunks read in two passes
    if memory_path:
        aimem._FAST_PATH = False  # every chunk a `Memory`, as before `memvault.memory_rows`
    restore = _instrument(spent)
    callback = _collector_clock(spent)
    work = Path(tempfile.mkdtemp(prefix="aimem-phases-", dir=data))
    try:
        with Tenants.open(work / "server", SERVER_KEY) as tenants:
            for name, path in (("warm", warm), ("measured", bundle)):
                spent.clear()
                _, key = tenants.create(name)
                vault = tenants.session(tenants.authenticate(key))
                load = os.getloadavg()[0]
                gc.collect()
                _reset_peak()
                resident = _status_mib("VmRSS")
                cpu, wall = _process_cpu(), time.perf_counter()
                with path.open("rb") as body:
                    result = import_stream(vault, body)
                cpu, wall = _process_cpu() - cpu, time.perf_counter() - wall
                peak = _status_mib("VmHWM")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        restore()
        gc.callbacks.remove(callback)
        reader._speedups = speedups
        aimem._FAST_PATH, aimem._ONE_PASS = fast_path, one_pass
    rest = spent.get("second", 0.0) - spent.get("map", 0.0) - spent.get("add", 0.0)
    rest -= spent.get("write", 0.0)
    path = "Memory objects" if memory_path else "plain chunks to rows"
    if not memory_path:
        path += ", two passes" if two_pass else ", one pass"
    print(
        f"\nAIMEM import of {chunks:,} chunks in process ({'event' if event_pass else 'span'} "
        f"checksum pass, {path}), load average {load:.2f} -> {os.getloadavg()[0]:.2f}: "
        f"{result.created:,} created, wall {wall:.2f} s, CPU {cpu:.2f} s "
        f"({chunks / cpu:,.0f} chunks per CPU-second); peak resident set {peak:.1f} MiB, "
        f"{peak - resident:+.1f} MiB over the {resident:.1f} before it"
    )
    for key, label in PHASES:
        seconds = spent.get(key, 0.0)
        print(f"  {label:<44} {seconds:6.2f} CPU-s  {100 * seconds / cpu:5.1f} %")
    print(f"  {'rest of the second pass, commit':<44} {rest:6.2f} CPU-s  {100 * rest / cpu:5.1f} %")
    print(
        f"  {'of which the cyclic collector':<44} {spent.get('gc', 0.0):6.2f} CPU-s "
        f"({int(spent.get('gc_runs', 0))} collections)"
    )
    for generation in range(3):
        seconds = spent.get(f"gc{generation}", 0.0)
        runs = int(spent.get(f"gc{generation}_runs", 0))
        label = f"generation {generation}"
        print(f"    {label:<42} {seconds:6.2f} CPU-s ({runs} collections)")
    floor = spent.get("write", 0.0)
    print(
        f"  peer, same run: the SQLite writes alone {chunks / max(floor, 1e-3):,.0f} chunks per "
        f"CPU-second; everything but them {chunks / max(cpu - floor, 1e-3):,.0f}"
    )
    return {"cpu": cpu, "wall": wall, "peak_mib": peak, "added_mib": peak - resident, **spent}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=50_000)
    parser.add_argument("--event-pass", action="store_true", help="the ijson checksum pass")
    parser.add_argument(
        "--two-pass", action="store_true", help="a plain bundle's chunks read in two passes"
    )
    parser.add_argument(
        "--memory-path", action="store_true", help="every chunk mapped to a Memory object"
    )
    args = parser.parse_args(argv)
    run(
        args.chunks,
        event_pass=args.event_pass,
        two_pass=args.two_pass,
        memory_path=args.memory_path,
    )


if __name__ == "__main__":
    main()
