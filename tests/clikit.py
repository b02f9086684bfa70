"""Helpers for the vault CLI tests: a vault home in the environment (fast key derivation), a
way to run `memvault` in-process with stdout and stderr apart, twenty sample memories, and a
snapshot of everything a user can see, to prove a refused command changed nothing."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memvault.cli import app
from vaultkit import FAST_KDF, PASSPHRASE

#: Cleared for every vault-file test: the database ones would send every command to PostgreSQL.
ENV_VARS = (
    "MEMVAULT_HOME",
    "MEMVAULT_PASSPHRASE",
    "MEMVAULT_KDF_ITER",
    "MEMVAULT_DEBUG",
    "MEMVAULT_DATABASE_URL",
    "MEMVAULT_TENANT",
)


@dataclass(frozen=True, slots=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        assert self.exit_code == 0, self.stderr or self.stdout
        return json.loads(self.stdout)


def mv(*args: str | Path, input: str | None = None) -> Run:
    """`memvault ARGS…` in-process. An exception escaping a command fails the test: the CLI
    must turn every expected failure into a message and an exit code."""
    result = CliRunner().invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def ok(*args: str | Path, input: str | None = None) -> Run:
    run = mv(*args, input=input)
    assert run.exit_code == 0, f"memvault {' '.join(map(str, args))}: {run.stderr or run.stdout}"
    return run


def refused(*args: str | Path, code: int = 1) -> str:
    """Run a command that must fail with `code`; return its stderr (one line, no traceback)."""
    run = mv(*args)
    assert run.exit_code == code, (run.exit_code, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    return run.stderr


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty vault home in MEMVAULT_HOME, the passphrase in MEMVAULT_PASSPHRASE."""
    path = tmp_path / "vault"
    _fast_vault_env(monkeypatch, path)
    return path


#: (key, content, options): twenty memories, every PAM type (custom twice), English and
#: Portuguese, with and without accents.
SAMPLES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "lisbon",
        "User lives in Lisbon, near the river",
        ("-t", "fact", "--tag", "home", "--tag", "city"),
    ),
    ("lisboa", "O utilizador mora em Lisboa desde 2019", ("-t", "fact", "--tag", "home")),
    ("coffee", "Prefers dark roast coffee without sugar", ("-t", "preference", "--tag", "food")),
    ("morning", "Prefere reuniões de manhã, antes das dez", ("-t", "preference")),
    (
        "python",
        "Writes Python and Rust; comfortable with SQLite internals",
        ("-t", "skill", "--tag", "code"),
    ),
    ("languages", "Fala português, inglês e espanhol fluentemente", ("-t", "skill")),
    (
        "talk",
        "Currently preparing a talk about local-first software",
        ("-t", "context", "--tag", "work"),
    ),
    ("saopaulo", "Viaja para São Paulo em março", ("-t", "context", "--tag", "travel")),
    (
        "sister",
        "Has a sister named Ana who is a doctor in Porto",
        ("-t", "relationship", "--tag", "family"),
    ),
    ("marathon", "Wants to run a half marathon in 2026", ("-t", "goal", "--tag", "health")),
    ("guitar", "Quer aprender a tocar guitarra portuguesa", ("-t", "goal")),
    ("answer", "Answer in Portuguese when the question is in Portuguese", ("-t", "instruction")),
    ("name", "Name is Marina Duarte; she is Brazilian", ("-t", "identity", "--summary", "Marina")),
    ("debian", "Uses Debian on a ThinkPad with Neovim", ("-t", "environment", "--tag", "code")),
    (
        "macos",
        "Work laptop runs macOS with a corporate VPN",
        (
            "-t",
            "environment",
            "--platform",
            "claude",
            "--confidence",
            "0.6",
            "--decay-model",
            "time_linear",
        ),
    ),
    (
        "memvault",
        "Building memvault, a vault for AI memory",
        ("-t", "project", "--tag", "code", "--tag", "work"),
    ),
    ("acao", "Projeto de ação climática na associação do bairro", ("-t", "project")),
    (
        "sqlcipher",
        "Decided to encrypt the vault with SQLCipher",
        ("-t", "custom", "--custom-type", "decision", "--tag", "work"),
    ),
    (
        "recipe",
        "A receita de pão de queijo da avó usa polvilho",
        ("-t", "custom", "--custom-type", "recipe", "--tag", "food"),
    ),
    ("allergy", "Allergic to penicillin", ("-t", "fact", "--not-exportable", "--tag", "health")),
)


def _fast_vault_env(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMVAULT_HOME", str(home))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("MEMVAULT_KDF_ITER", FAST_KDF)


@pytest.fixture(scope="session")
def sample_vault(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The twenty SAMPLES added through the CLI, once per session (tests get a copy)."""
    path = tmp_path_factory.mktemp("sample") / "vault"
    found: dict[str, str] = {}
    with pytest.MonkeyPatch.context() as monkeypatch:
        _fast_vault_env(monkeypatch, path)
        ok("init")
        for key, content, options in SAMPLES:
            payload = ok("add", content, *options, "--json").json()
            assert payload["created"] is True
            found[key] = payload["memory"]["id"]
    return path, found


@pytest.fixture
def ids(home: Path, sample_vault: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """A vault in `home` holding the twenty SAMPLES; their ids by key."""
    shutil.copytree(sample_vault[0], home)
    return dict(sample_vault[1])


def snapshot() -> tuple[Any, ...]:
    """Everything a user can see of the vault (not the file size, which may change)."""
    stats = ok("stats", "--json").json()
    stats.pop("db_size_bytes", None)
    memories = ok("list", "--status", "all", "--limit", "0", "--json").json()
    audit = ok("audit", "--limit", "0", "--json").json()
    return stats, memories, audit
