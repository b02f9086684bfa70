"""benchmarks/aimem_export_phases.py on a short slice: an import, then the mapping, the first
download (graph streamed or assembled) and the download again, each with its figures. No
timing is asserted (timings belong to the benchmark)."""

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


@pytest.mark.parametrize("old_graph", [False, True])
def test_aimem_export_phases_benchmark_runs_on_a_slice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old_graph: bool
) -> None:
    bench = _import("aimem_export_phases")
    figures = bench.run(300, old_graph=old_graph, traced=True, data=tmp_path)
    out = capsys.readouterr().out
    assert ("BundleAssembler" if old_graph else "streaming builder") in out
    for step in ("map", "first", "again"):
        assert figures[f"{step}_cpu_s"] >= 0
        assert figures[f"{step}_traced_mib"] >= 0
    assert figures["map_map_s"] > 0 and figures["map_read_s"] > 0
    assert figures["sample"] == 300 and figures["bytes"] > 0
    from memvault import export_chunks
    from memvault.exchange import aimem_kept

    # What the benchmark swapped in is back.
    assert aimem_kept.build_graph.__name__ == "build_graph"
    assert export_chunks.standalone_chunk.__name__ == "standalone_chunk"
