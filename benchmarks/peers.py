"""Peers that memvault is benchmarked against, and how to measure a run of one.

The official PAM SDK (PyPI ``portable-ai-memory``) lives in its own virtualenv,
``benchmarks/.sdk-venv``, so its dependencies never mix with memvault's.
:func:`sdk_venv` creates it on first use and returns the path of its ``pam``
command; :func:`run_measured` runs any command and records its wall time and the
peak resident set size of that child process.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryFile
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
SDK_VENV = BENCH_DIR / ".sdk-venv"
SDK_REQUIREMENT = "portable-ai-memory[cli]==1.0.0"
_STAMP_NAME = ".memvault-sdk-installed"


class PeerSetupError(RuntimeError):
    """A peer tool could not be installed or found."""


@dataclass(frozen=True)
class Measurement:
    """One finished run of a command.

    ``seconds`` is wall-clock time; ``cpu_seconds`` (user + system, from the same
    rusage) is steadier when other work shares the machine.
    """

    argv: list[str]
    returncode: int
    seconds: float
    peak_rss_bytes: int
    stdout: str = field(repr=False)
    stderr: str = field(repr=False)
    cpu_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def summary(self) -> str:
        return (
            f"exit {self.returncode}, {self.seconds:.2f} s wall, {self.cpu_seconds:.2f} s CPU, "
            f"peak RSS {fmt_bytes(self.peak_rss_bytes)}"
        )


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Lock ``directory`` itself so parallel benchmark scripts build the venv once.

    ``venv --clear`` empties the directory but keeps it, so the lock survives.
    """
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _run_step(argv: list[str], what: str) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        raise PeerSetupError(
            f"could not set up the PAM SDK peer: {what} failed "
            f"(exit {proc.returncode}): {' '.join(argv)}\n{tail}"
        )


def sdk_venv(venv: Path = SDK_VENV, requirement: str = SDK_REQUIREMENT) -> Path:
    """Create (once) the virtualenv holding the official PAM SDK; return its ``pam``.

    The venv is made with ``python3 -m venv`` and the SDK installed with pip from
    the package registry. A stamp file records the installed requirement, so later
    calls return at once; a venv left half-built by an interrupted run is rebuilt.
    Raises :class:`PeerSetupError` with pip's output when installation fails.
    """
    pam = venv / "bin" / "pam"
    stamp = venv / _STAMP_NAME
    with _locked(venv):
        if pam.is_file() and stamp.is_file() and stamp.read_text().strip() == requirement:
            return pam
        python = "python3"
        _run_step([python, "-m", "venv", "--clear", str(venv)], "creating the virtualenv")
        vpy = str(venv / "bin" / "python")
        _run_step(
            [vpy, "-m", "pip", "install", "--disable-pip-version-check", "-q", requirement],
            f"pip install {requirement!r}",
        )
        if not pam.is_file():
            raise PeerSetupError(f"{requirement} installed but {pam} is missing")
        stamp.write_text(requirement + "\n")
    return pam


def sdk_python(venv: Path = SDK_VENV) -> Path:
    """The interpreter of the SDK venv (call :func:`sdk_venv` first)."""
    return venv / "bin" / "python"


def median_run(runs: list[Measurement]) -> Measurement:
    """The median of repeated runs by wall time (the one a comparison of medians uses)."""
    return sorted(runs, key=lambda m: m.seconds)[len(runs) // 2]


def run_measured(argv: list[str], *, timeout: float | None = None, **kw: Any) -> Measurement:
    """Run ``argv`` and measure its wall time and peak RSS.

    The peak RSS comes from ``os.wait4`` on this child alone (``ru_maxrss``; on
    Linux it also covers descendants the child itself waited for, so for a
    command that spawns nothing it is exactly the command's peak). Output is
    captured through temporary files, so a chatty child cannot block on a pipe.
    Extra keyword arguments go to :class:`subprocess.Popen` (``cwd``, ``env``,
    ``stdin`` …). On ``timeout`` the child is killed and the measurement is
    returned with its (negative) return code.
    """
    if "stdout" in kw or "stderr" in kw:
        raise TypeError("run_measured captures stdout and stderr itself")
    kw.setdefault("stdin", subprocess.DEVNULL)
    with TemporaryFile() as out, TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, **kw)
        timer: threading.Timer | None = None
        if timeout is not None:
            timer = threading.Timer(timeout, proc.kill)
            timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            if timer is not None:
                timer.cancel()
        seconds = time.perf_counter() - start
        returncode = os.waitstatus_to_exitcode(status)
        proc.returncode = returncode  # already reaped; keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    # ru_maxrss is in KiB on Linux and in bytes on macOS.
    scale = 1 if sys.platform == "darwin" else 1024
    return Measurement(
        argv=list(argv),
        returncode=returncode,
        seconds=seconds,
        peak_rss_bytes=usage.ru_maxrss * scale,
        stdout=stdout,
        stderr=stderr,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
    )


def fmt_bytes(n: float) -> str:
    """``1536`` -> ``'1.5 KiB'``; binary units."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def fmt_ratio(peer: float, ours: float) -> str:
    """How many times the peer's figure is ours: ``peer / ours`` as ``'4.20x'``.

    For time and memory, above 1 means memvault needs less than the peer.
    """
    if ours <= 0:
        return "n/a" if peer <= 0 else "inf"
    return f"{peer / ours:.2f}x"


if __name__ == "__main__":
    pam_path = sdk_venv()
    m = run_measured([str(pam_path), "--help"])
    print(pam_path)
    print(m.summary())
