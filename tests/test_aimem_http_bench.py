"""benchmarks/aimem_http.py end to end on a short slice: a real server process, imports over
HTTP, both exports, the figures it prints. No timing is asserted (timings belong to the
benchmark)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _import(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_aimem_http_benchmark_runs_on_a_slice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _import("aimem_http")
    figures = bench.run(300, 120, peer=False, data=tmp_path)
    out = capsys.readouterr().out
    for label in ("big", "small"):
        assert figures[f"import_{label}_chunks_per_s"] > 0
        assert (
            0 < figures[f"first_byte_{label}_cold_ms"] <= figures[f"stream_{label}_cold_s"] * 1000
        )
        assert 0 < figures[f"first_byte_{label}_ms"] <= figures[f"stream_{label}_s"] * 1000
    assert figures["server_peak_rss_mib"] > 0
    # After an import: at once, and once the background mapping reports nothing pending.
    assert figures["first_byte_after_import_now_ms"] > 0
    assert figures["first_byte_after_import_mapped_ms"] > 0
    assert figures["mapped_after_import_wait_s"] >= 0
    assert "(mapped)" in out and "the worker caught up" in out
    assert "POST /v1/brain/import" in out and "server peak RSS" in out
    assert "records" in out  # the stream's lines were counted
    assert not list(tmp_path.glob("aimem-http-*"))  # the server home was removed


def test_aimem_import_phases_benchmark_runs_on_a_slice_and_restores_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/aimem_import_phases.py: every phase measured, in one pass and in two, the
    cyclic collector's collections counted by generation, the SQLite-writes peer and the
    import's peak resident set printed, and the instrumented functions put back (no timing
    asserted)."""
    from memvault.exchange import aimem, aimem_rows
    from memvault.formats.aimem import reader

    def library() -> tuple[object, ...]:
        return (
            aimem.chunk_to_memory,
            aimem._FAST_PATH,
            aimem._ONE_PASS,
            aimem_rows.ChunkRows.row,
            aimem_rows.PackedGraph.build,
            reader.BundleReader._verify,
            reader._speedups,
        )

    before = library()
    bench = _import("aimem_import_phases")
    for event_pass, two_pass, memory_path in (
        (False, False, False),
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ):
        figures = bench.run(
            400,
            event_pass=event_pass,
            two_pass=two_pass,
            memory_path=memory_path,
            data=tmp_path,
        )
        assert figures["cpu"] > 0 and figures["peak_mib"] > 0
        phases = ("checksum", "validate", "map", "add", "audit", "write")
        assert all(figures[key] > 0 for key in phases)
        by_generation = [figures.get(f"gc{g}_runs", 0) for g in range(3)]
        assert by_generation[0] > 0 and sum(by_generation) == figures["gc_runs"]
    out = capsys.readouterr().out
    assert "generation 0" in out and "generation 2" in out
    assert "SQLite writes alone" in out and "span checksum pass" in out
    assert "event checksum pass" in out
    assert "Memory objects" in out and "plain chunks to rows" in out
    assert "one pass" in out and "two passes" in out and "peak resident set" in out
    assert library() == before
    assert not list(tmp_path.glob("aimem-phases-*"))
