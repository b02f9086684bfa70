"""Where an AIMEM download's time and memory go right after an import: the export of ``GET
/v1/brain/export/stream`` run in this process on a fresh server tenant (a serving SQLite
vault, as `memvault serve` opens it), so the figures of benchmarks/aimem_http.py can be
taken apart.

    .venv/bin/python benchmarks/aimem_export_phases.py [--chunks 10000] [--old-graph]
        [--traced]

After importing the bundle it measures, each with its CPU time, the tracemalloc peak of
what it allocates in Python (`--traced`) and the growth of the process's peak resident size (VmHWM,
reset before each step through /proc/self/clear_refs):

- mapping: the memories the import left pending mapped to their chunks and kept
  (`memvault.export_chunks.map_pending`), and per chunk where it goes: reading the rows,
  the mapping to canonical bytes (of which the RFC 8785 serialisation), the SHA-256 the
  checksum pass adds, the rest (keeping them);
- the first download: the bundle's graph built (`build_graph`) and the chunks read, checked,
  hashed and spooled (`kept_download`), the checksum known;
- the download again (the kept records under a new envelope).

`--old-graph` builds the graph with `BundleAssembler` (as before the streaming builder), for
a comparison in the same conditions.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aimem_http import DATA, SERVER_KEY, ensure_bundle


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> bool:
    """Reset VmHWM to the current resident size (Linux: clear_refs 5)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


@contextmanager
def measured(figures: dict[str, float], name: str, traced: bool) -> Iterator[None]:
    """CPU seconds, VmHWM growth and (`traced`) tracemalloc peak of the block, into
    `figures`."""
    gc.collect()
    from memvault.server.heap import release_freed_memory

    release_freed_memory()
    _reset_peak()
    rss = _status("VmRSS")
    if traced:
        tracemalloc.start()
    cpu, wall = _cpu(), time.perf_counter()
    try:
        yield
    finally:
        figures[f"{name}_cpu_s"] = _cpu() - cpu
        figures[f"{name}_wall_s"] = time.perf_counter() - wall
        if traced:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            figures[f"{name}_traced_mib"] = peak / (1 << 20)
        figures[f"{name}_rss_growth_mib"] = (_status("VmHWM") - rss) / (1 << 20)


def _instrument(store: Any) -> dict[str, float]:
    """CPU seconds `map_pending` spends reading the memories, mapping them and keeping their
    chunks (this store's methods and `standalone_chunk` wrapped; the module's is restored
    by `run`)."""
    from memvault import export_chunks

    spent = {"read": 0.0, "map": 0.0, "keep": 0.0}

    def wrap(owner: Any, name: str, key: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu = _cpu()
            try:
                return original(*args, **kwargs)
            finally:
                spent[key] += _cpu() - cpu

        setattr(owner, name, timed)

    wrap(store, "get_memories", "read")
    wrap(store, "keep_current_chunks", "keep")
    wrap(export_chunks, "standalone_chunk", "map")
    return spent


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    cpu = _cpu()
    out = fn()
    return _cpu() - cpu, out


def mapping_split(vault: Any, sample: int) -> dict[str, float]:
    """Per chunk, on the first `sample` memories (before they are mapped): reading the rows
    (`Memory` objects), mapping them to canonical bytes (`standalone_chunk`), and of that the
    RFC 8785 serialisation; hashing the bytes (what the checksum pass does per chunk)."""
    import hashlib

    import orjson

    from memvault.canonical import jcs_dumps
    from memvault.export_chunks import PRODUCER_META, _rules, producer_of, standalone_chunk

    store = vault._store
    owner = store.get_owner()
    producer = producer_of(store.get_meta(PRODUCER_META), owner.id)
    ids = [str(r[0]) for r in store._all("SELECT id FROM memories ORDER BY seq LIMIT ?", [sample])]
    n = len(ids)
    rules = _rules(producer)
    read, found = _timed(lambda: store.get_memories(ids))
    mapped, chunks = _timed(lambda: [standalone_chunk(s.memory, producer, rules) for s in found])
    canonical = [c.canonical for c in chunks if c is not None]
    parsed = [orjson.loads(c) for c in canonical]
    jcs, _ = _timed(lambda: [jcs_dumps(c) for c in parsed])

    def digest() -> str:
        state = hashlib.sha256()
        for c in canonical:
            state.update(c)
        return state.hexdigest()

    hashed, _ = _timed(digest)
    return {
        "sample": n,
        "read_us": 1e6 * read / n,
        "map_us": 1e6 * mapped / n,
        "jcs_us": 1e6 * jcs / n,
        "hash_us": 1e6 * hashed / n,
        "bytes": sum(map(len, canonical)) / max(len(canonical), 1),
    }


def run(
    chunks: int, *, old_graph: bool = False, traced: bool = False, data: Path = DATA
) -> dict[str, float]:
    from memvault.exchange import aimem_kept
    from memvault.exchange.aimem_wire import export_download, import_stream
    from memvault.tenancy import Tenants

    bundle = ensure_bundle(chunks, data)
    figures: dict[str, float] = {}
    work = Path(tempfile.mkdtemp(prefix="aimem-export-phases-", dir=data))
    from memvault import export_chunks

    builder = aimem_kept.build_graph
    mapper = export_chunks.standalone_chunk
    if old_graph:
        aimem_kept.build_graph = aimem_kept.build_graph_assembled
    try:
        with Tenants.open(work / "server", SERVER_KEY) as tenants:
            _, key = tenants.create("measured")
            vault = tenants.session(tenants.authenticate(key))
            with bundle.open("rb") as body:
                import_stream(vault, body)
            vault.release_memory()
            try:
                split = mapping_split(vault, min(chunks, 2000))
            except (ImportError, AttributeError):
                split = {
                    "sample": 1,
                    "read_rows_us": 0,
                    "fast_us": 0,
                    "read_models_us": 0,
                    "memory_path_us": 0,
                    "same": 0,
                }
            view = vault.export_view()
            spent = _instrument(vault._store)
            with measured(figures, "map", traced):
                mapped = view.map_pending()
            figures.update({f"map_{k}_s": v for k, v in spent.items()})
            with measured(figures, "first", traced):
                download = export_download(vault, form="ndjson")
                for _ in download.blocks:
                    pass
            with measured(figures, "again", traced):
                download = export_download(vault, form="ndjson")
                download.close()
    finally:
        aimem_kept.build_graph = builder
        export_chunks.standalone_chunk = mapper
        shutil.rmtree(work, ignore_errors=True)
    graph = "BundleAssembler" if old_graph else "streaming builder"
    print(
        f"\nAIMEM download right after an import of {chunks:,} chunks, in process ({graph}), "
        f"load average {os.getloadavg()[0]:.2f}; {mapped:,} mapped"
    )
    for name, label in (
        ("map", "mapping what the import left pending"),
        ("first", "first download (graph, read, hash, spool, send)"),
        ("again", "download again (checksum only)"),
    ):
        print(
            f"  {label:<50} CPU {figures[f'{name}_cpu_s']:6.2f} s (wall "
            f"{figures[f'{name}_wall_s']:.2f}); RSS peak +"
            f"{figures[f'{name}_rss_growth_mib']:.1f} MiB"
            + (f"; Python peak {figures[f'{name}_traced_mib']:.1f} MiB" if traced else "")
        )
    per = figures["map_cpu_s"] / max(mapped, 1) * 1e6
    each = {k: 1e6 * figures[f"map_{k}_s"] / max(mapped, 1) for k in ("read", "map", "keep")}
    print(
        f"  mapping per chunk, all of it: {per:.0f} us ({mapped:,} chunks): reading the "
        f"memories {each['read']:.0f} us, mapping them {each['map']:.0f} us, keeping the "
        f"chunks (SQLite writes) {each['keep']:.0f} us, the rest "
        f"{per - sum(each.values()):.0f} us"
    )
    print(
        f"  per chunk on {int(split['sample']):,} (CPU): reading the rows as `Memory` "
        f"{split['read_us']:.0f} us; mapping to canonical bytes {split['map_us']:.0f} us, of "
        f"which RFC 8785 {split['jcs_us']:.0f} us; SHA-256 of the bytes "
        f"{split['hash_us']:.1f} us ({split['bytes']:.0f} bytes a chunk)"
    )
    return {**figures, **split}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--old-graph", action="store_true", help="the graph by BundleAssembler")
    parser.add_argument(
        "--traced", action="store_true", help="also the tracemalloc peak (CPU figures then grow)"
    )
    args = parser.parse_args(argv)
    run(args.chunks, old_graph=args.old_graph, traced=args.traced)


if __name__ == "__main__":
    main()
