"""Two processes writing to one vault at once lose nothing: SQLite's single writer with a busy
timeout serializes them, and the audit chain stays whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import FAST_KDF, PASSPHRASE, make_vault

WORKER = Path(__file__).with_name("vault_worker.py")
PER_WRITER = 1_000


@pytest.mark.slow
def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    make_vault(home).close()
    env = dict(os.environ, MEMVAULT_KDF_ITER=FAST_KDF, PYTHONPATH=str(WORKER.parent))
    writers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home), "mixed", tag, str(PER_WRITER), "50"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for tag in ("writer-a", "writer-b")
    ]
    for proc in writers:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert out.splitlines()[-1] == "done"
    with Vault.open(home, PASSPHRASE) as vault:
        for tag in ("writer-a", "writer-b"):
            assert vault.list(MemoryQuery(tags=(tag,), statuses=None, limit=1)).total == PER_WRITER
        report = vault.verify_audit()
        assert report.ok, report.problems
        assert vault.check_integrity() == []
