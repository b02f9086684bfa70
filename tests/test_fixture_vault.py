"""A vault written by an earlier memvault still opens, reads and takes imports: the fixture in
`tests/fixtures/vault-0.1.0/` (see its .md) is copied and used through the CLI and the API, so a
change to the store's schema is tested as the migration of a vault a user already has."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import memvault_script
from memvault.vault import Vault

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PASSPHRASE = "fixture-vault-0.1.0"
OWNER = "7d3f1c2a-0b4e-4c8a-9f61-2e5d8a9b0c11"


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    copy = tmp_path / "vault"
    shutil.copytree(FIXTURES / "vault-0.1.0", copy)
    yield copy


def _cli(home: Path, *args: str | Path) -> tuple[int, str]:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": PASSPHRASE}
    proc = subprocess.run(
        [memvault_script(), *map(str, args)], capture_output=True, text=True, env=env, timeout=120
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_the_0_1_0_vault_opens_and_its_contents_are_all_there(home: Path) -> None:
    with Vault.open(home, PASSPHRASE) as vault:
        stats = vault.stats()
        assert stats["owner_id"] == OWNER
        assert stats["memories"] == 37
        assert stats["relations"] == 6
        assert stats["conversations"] == 14
        assert len(vault.keys()) == 1
        assert vault.verify_audit().ok


def test_the_0_1_0_vault_answers_the_cli(home: Path) -> None:
    code, out = _cli(home, "search", "tea", "--json")
    assert code == 0, out
    hits = json.loads(out)["results"]
    assert [h["memory"]["content"] for h in hits] == ["Prefers tea over coffee"]
    code, out = _cli(home, "audit", "verify")
    assert code == 0, out


def test_reimporting_into_the_0_1_0_vault_adds_nothing(home: Path) -> None:
    """The ChatGPT export the vault was made from, imported again, is a no-op: the ids an
    importer derives today must find what the older code stored."""
    code, out = _cli(home, "import", FIXTURES / "vault-0.1.0-chatgpt.zip", "--json")
    assert code == 0, out
    summary = json.loads(out)
    with Vault.open(home, PASSPHRASE) as vault:
        stats = vault.stats()
    assert stats["memories"] == 37, summary
    assert stats["conversations"] == 14, summary


def test_the_0_1_0_vault_exports_valid_pam(home: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "store.json"
    code, out = _cli(home, "export", "-o", out_file)
    assert code == 0, out
    code, out = _cli(home, "validate", out_file)
    assert code == 0, out
