"""Shared test fixtures: where the example documents are, and ways to run the CLI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memvault.cli import app
from official import OFFICIAL_EXAMPLES, OFFICIAL_STORE  # noqa: F401  (re-exported to tests)

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_EXPORT = REPO / "examples" / "export"
EXAMPLE_STORE = EXAMPLE_EXPORT / "memory-store.json"


@dataclass(frozen=True, slots=True)
class CliOutcome:
    exit_code: int
    output: str  # stdout and stderr together


@pytest.fixture
def run_cli() -> Callable[..., CliOutcome]:
    """Run `memvault ARGS…` in-process; an exception escaping the command fails the test."""

    def run(*args: str | Path) -> CliOutcome:
        result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
        return CliOutcome(result.exit_code, result.output)

    return run


def memvault_script() -> str:
    """The installed `memvault` console script of this interpreter's environment."""
    script = Path(sys.executable).with_name("memvault")
    return str(script) if script.exists() else shutil.which("memvault") or "memvault"


@pytest.fixture
def run_script() -> Callable[..., CliOutcome]:
    """Run the real `memvault` console script in a subprocess (60 s limit)."""

    def run(*args: str | Path) -> CliOutcome:
        proc = subprocess.run(
            [memvault_script(), *(str(a) for a in args)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return CliOutcome(proc.returncode, proc.stdout + proc.stderr)

    return run


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the PostgreSQL servers this process started (tests/pgkit.py), if any."""
    pgkit = sys.modules.get("pgkit")
    if pgkit is not None:
        pgkit.stop_all()
