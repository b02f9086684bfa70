"""A small filesystem for full-disk tests and the fault campaign (benchmarks/faults.py)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def small_filesystem(path: Path, size_kib: int) -> Iterator[bool]:
    """A tmpfs of `size_kib` at `path` when it can be mounted (True), else a plain directory
    (False: the caller limits its child with RLIMIT_FSIZE)."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0700", "tmpfs", str(path)],
            capture_output=True,
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(path)], capture_output=True)
