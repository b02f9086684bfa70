"""The mutation fuzzer of `make fuzz` (tests/fuzzing.py): a short fixed-seed run of every target
in the ordinary build, each in a fresh process as `make fuzz` runs them. No internal error, no
disagreement between a C path and its Python twin, no peak memory over the fuzzer's limit.
`make fuzz` runs the same targets for minutes against a build with AddressSanitizer and
UndefinedBehaviorSanitizer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import fuzzing

#: Inputs per target: about a second each.
COUNT = 120
SEED = 20261127


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(fuzzing.targets()))
def test_fuzz_target_fixed_seed_run_has_no_findings(tmp_path: Path, name: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            fuzzing.__file__,
            "--one",
            name,
            "--count",
            str(COUNT),
            "--seed",
            str(SEED),
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / f"{name}.json").read_text())
    assert report["inputs"] == COUNT
    assert report["findings"] == []


def test_fuzz_targets_cover_every_c_entry_point_importer_and_format() -> None:
    """Every C extension, every provider importer, PAM and AIMEM have a target."""
    from memvault.importers.detect import REGISTRY

    names = set(fuzzing.targets())
    assert {f"importer.{module}" for module in REGISTRY} <= names
    assert {"speedups.nesting_scan", "speedups.scanner", "speedups.jcs_dumps", "memory_schema",
            "chatgpt.c", "chatgpt.direct", "pam", "aimem", "recall.tokenizer"} <= names  # fmt: skip


def test_fuzz_mutations_are_reproducible_from_the_seed() -> None:
    target = fuzzing.targets()["importer.chatgpt"]
    assert [target.make(random.Random(3)) for _ in range(2)] == [
        target.make(random.Random(3)) for _ in range(2)
    ]


def test_fuzz_finds_an_internal_error(tmp_path: Path) -> None:
    """The fuzzer reports what it is there to find: an exception that is not memvault's own
    error, with the input kept."""
    fuzzing.targets()["broken"] = fuzzing.Target(
        "broken", lambda rng: bytes([rng.randrange(256)]), _broken, fuzzing._save_bytes
    )
    try:
        report = fuzzing.fuzz("broken", 1, count=5, out=tmp_path)
    finally:
        del fuzzing.targets()["broken"]
    assert report.findings == ["internal error: KeyError: 'oops'"]
    assert (tmp_path / "broken.finding-1").is_file()


def _broken(item: bytes, work: Path) -> None:
    raise KeyError("oops")


def test_fuzz_finds_a_process_over_the_memory_limit(tmp_path: Path) -> None:
    """An input that takes the process's peak memory over the limit is a finding, and the
    run stops there (the peak cannot come down). In a fresh process, as `make fuzz` runs
    each target: a test worker's own peak would hide it."""
    script = (
        "import json, sys\n"
        "import fuzzing\n"
        "def greedy(item, work):\n"
        "    block = bytearray(256 << 20)\n"
        "    for at in range(0, len(block), 4096):\n"  # resident, not only reserved
        "        block[at] = 1\n"
        "fuzzing.MEMORY_LIMIT_MB = int(fuzzing.peak_rss_mb()) + 64\n"
        "fuzzing.targets()['greedy'] = fuzzing.Target('greedy', lambda rng: b'x', greedy)\n"
        "report = fuzzing.fuzz('greedy', 1, count=5, stop_at_first=False)\n"
        "print(json.dumps([report.inputs, report.findings]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PYTHONPATH": str(Path(fuzzing.__file__).parent)},
    )
    assert done.returncode == 0, done.stderr
    inputs, findings = json.loads(done.stdout)
    assert inputs == 1
    assert len(findings) == 1 and findings[0].startswith("memory: peak RSS"), findings
