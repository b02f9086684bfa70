"""Peak memory of `validate`, `inspect` and `import` on input nested 30,000 and 100,000 levels
deep (RFC 8259 §9): a PAM file and a PAM export zip, a ChatGPT export (zipped and its bare
conversations.json), an AIMEM bundle and a zip holding one.

Each command runs as the real console script in a fresh child process, and the peak resident
memory of that child (and anything it starts) is read from `getrusage(RUSAGE_CHILDREN)` in a
fresh measuring process. Every one stays under 200 MB and refuses the input with an error
naming the rule, never an internal error. (Before the nesting was bounded before any parser
saw it, the 212-byte zip below took 2.2 GB and the PAM file 4 GB: ijson keeps state for every
open level and its event prefixes grow with the depth.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from clikit import home, ok
from conftest import memvault_script
from official import OFFICIAL_STORE

__all__ = ["home"]  # the fixture, imported for pytest

LIMIT_MB = 200
DEPTHS = (30_000, 100_000)

#: Runs argv[1:] and prints the child's peak RSS in KiB (Linux reports ru_maxrss in KiB).
MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "sys.stderr.write(done.stdout + done.stderr)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def pam_file(tmp: Path, depth: int) -> Path:
    """The official example store with one memory's metadata nested `depth` levels."""
    text = OFFICIAL_STORE.read_text()
    store = json.loads(text)
    store["memories"][0]["metadata"] = "DEEP"
    path = tmp / "memory-store.json"
    path.write_text(json.dumps(store).replace('"DEEP"', deep(depth)))
    return path


def pam_zip(tmp: Path, depth: int) -> Path:
    source = pam_file(tmp, depth)
    path = tmp / "export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(source, "memory-store.json")
    source.unlink()
    return path


def chatgpt_zip(tmp: Path, depth: int) -> Path:
    """The issue's case: a zip of a few hundred bytes, conversations.json all brackets."""
    path = tmp / "chatgpt.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", deep(depth))
    return path


def chatgpt_file(tmp: Path, depth: int) -> Path:
    path = tmp / "conversations.json"
    path.write_text('[{"title":"x","mapping":{"n":{"id":"n","message":' + deep(depth) + "}}}]")
    return path


def aimem_file(tmp: Path, depth: int) -> Path:
    bundle = json.loads(
        (Path(__file__).parent / "aimem_corpus/valid/minimal.aimem.json").read_text()
    )
    bundle["chunks"][0]["metadata"] = "DEEP"
    path = tmp / "brain.aimem.json"
    path.write_text(json.dumps(bundle).replace('"DEEP"', deep(depth)))
    return path


def aimem_zip(tmp: Path, depth: int) -> Path:
    source = aimem_file(tmp, depth)
    path = tmp / "bundle.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(source, "brain.aimem.json")
    source.unlink()
    return path


INPUTS: dict[str, Callable[[Path, int], Path]] = {
    "pam-file": pam_file,
    "pam-zip": pam_zip,
    "chatgpt-zip": chatgpt_zip,
    "chatgpt-file": chatgpt_file,
    "aimem-file": aimem_file,
    "aimem-zip": aimem_zip,
}


def peak_mb(*args: str | Path) -> tuple[float, int, str]:
    """(peak RSS in MB, exit code, output) of `memvault ARGS…` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, memvault_script(), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    kib, code = done.stdout.split()
    return int(kib) / 1024, int(code), done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_rfc8259_9_deep_nesting_is_refused_under_200_mb(
    home: Path, tmp_path: Path, kind: str, depth: int
) -> None:
    ok("init")
    path = INPUTS[kind](tmp_path, depth)
    for command in ("validate", "inspect", "import"):
        peak, code, output = peak_mb(command, path)
        assert peak < LIMIT_MB, f"{command} {kind} {depth}: peak RSS {peak:.0f} MB"
        assert "internal error" not in output and "Traceback" not in output, output
        assert code != 0 or command == "inspect", (command, output)
        assert code in (0, 1, 2), (command, code, output)
        if command != "inspect":
            assert "nesting" in output or "no memory-store.json" in output, (command, output)
