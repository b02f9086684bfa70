"""`python3 examples/build_examples.py` works outside the venv (issue #15 §7: it failed with
ModuleNotFoundError): run with the interpreter the venv was made from, it runs itself again
with .venv/bin/python and rebuilds the samples byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def _files(root: Path) -> dict[str, bytes]:
    names = ("memory-store.json", "export.zip", "export")
    found = {}
    for name in names:
        path = root / name
        paths = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in paths:
            if file.is_file():
                found[file.relative_to(root).as_posix()] = file.read_bytes()
    return found


def test_build_examples_runs_with_the_system_python(tmp_path: Path) -> None:
    python = getattr(sys, "_base_executable", sys.executable)
    lacks = subprocess.run([python, "-c", "import memvault"], capture_output=True)
    proc = subprocess.run(
        [python, str(EXAMPLES / "build_examples.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    if (REPO / ".venv" / "bin" / "python").exists() or lacks.returncode == 0:
        assert proc.returncode == 0, proc.stderr
        assert _files(tmp_path) == _files(EXAMPLES)
    else:  # no venv to run in: one line saying how to make it
        assert proc.returncode == 1 and "make run" in proc.stderr, proc.stderr
