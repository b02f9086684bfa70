"""A vault survives being killed mid-write (kill -9 at random points of a 10,000-memory batch):
it opens, its files pass SQLite's integrity check, its audit chain verifies, and it holds all of
the batch or none of it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import FAST_KDF, PASSPHRASE, make_vault

WORKER = Path(__file__).with_name("vault_worker.py")
BATCH = 10_000
KILLS = 20


def _start(home: Path, tag: str) -> subprocess.Popen[str]:
    env = dict(os.environ, MEMVAULT_KDF_ITER=FAST_KDF, PYTHONPATH=str(WORKER.parent))
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), str(home), "batch", tag, str(BATCH)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
    return proc


def _count(vault: Vault, tag: str) -> int:
    return vault.list(MemoryQuery(tags=(tag,), statuses=None, limit=1)).total


@pytest.mark.slow
def test_kill_9_mid_batch_leaves_all_or_nothing(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    make_vault(home).close()
    # How long one batch takes here, so the kills are spread over all of it.
    started = time.perf_counter()
    probe = _start(home, "probe")
    assert probe.wait(timeout=300) == 0, probe.stderr.read() if probe.stderr else ""
    duration = time.perf_counter() - started
    rng = random.Random(20261121)
    offsets = sorted(rng.uniform(0.0, duration * 1.1) for _ in range(KILLS))
    outcomes = []
    for attempt, offset in enumerate(offsets):
        tag = f"batch-{attempt}"
        proc = _start(home, tag)
        time.sleep(offset)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        with Vault.open(home, PASSPHRASE) as vault:
            assert vault.check_integrity() == [], f"kill at {offset:.3f}s"
            report = vault.verify_audit()
            assert report.ok, f"kill at {offset:.3f}s: {report.problems}"
            count = _count(vault, tag)
            assert count in (0, BATCH), f"kill at {offset:.3f}s left {count} of {BATCH} memories"
            outcomes.append(count)
    with Vault.open(home, PASSPHRASE) as vault:
        total = vault.list(MemoryQuery(statuses=None, limit=1)).total
    assert total == BATCH + sum(outcomes)
    # The kills landed on both sides of the commit at least once (else the test proved little).
    assert 0 in outcomes, f"offsets {offsets} (batch took {duration:.2f}s)"
