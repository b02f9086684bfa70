"""Crash safety: `kill -9` of a process in the middle of a 10,000-memory `add_memories` batch
(one transaction), at 20 points spread over the batch's duration. After every kill the vault
opens with its passphrase, SQLite's and SQLCipher's integrity checks pass, the audit chain
verifies, and the vault holds either none or all of the batch — memories and audit entries
alike — and takes new writes. ("Never lose data, never half-apply", DESIGN.md; PAM §21.1.)

Each kill gets its own copy of a small vault, so every check runs on ~10,000 memories. The
kill offsets come from a fixed seed and are printed with any failure.
"""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault, pam_memory, spawn_ready

BATCH = 10_000
KILLS = 20
SEED = 20261121

#: The child: builds the batch, opens the vault, says "ready", adds the batch in one
#: add_memories call, then says "done <seconds the call took>".
CHILD = r"""
import sys, time, uuid
from pathlib import Path

from memvault.canonical import content_hash
from memvault.store.codec import memory_from_json
from memvault.vault import Vault

home, tag, count, passphrase = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]


def memory(i):
    content = f"Crash test {tag}: the user noted fact number {i} about {tag}."
    return memory_from_json({
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"memvault-crash/{tag}/{i}")),
        "type": "fact", "custom_type": None, "status": "active",
        "content": content, "content_hash": content_hash(content), "summary": None,
        "tags": [tag, "crash-test"],
        "confidence": {"initial": 0.8, "current": 0.8, "decay_model": "time_linear",
                       "last_reinforced": None},
        "temporal": {"created_at": "2026-01-01T10:00:00Z", "updated_at": None,
                     "valid_from": None, "valid_until": None, "superseded_by": None},
        "provenance": {"platform": "chatgpt", "platform_user_id": None,
                       "conversation_ref": None, "message_ref": None,
                       "extraction_method": "api_export", "extracted_at": None,
                       "extractor": None},
        "access": {"visibility": "private", "exportable": True, "shared_with": []},
        "embedding_ref": None, "metadata": {"language": "en"},
    })


batch = [memory(i) for i in range(count)]
with Vault.open(home, passphrase) as vault:
    print("ready", flush=True)
    start = time.perf_counter()
    vault.acting_as("system:crash-test").add_memories(batch)
    print(f"done {time.perf_counter() - start:.6f}", flush=True)
"""


def _start(home: Path, tag: str) -> subprocess.Popen[str]:
    return spawn_ready(CHILD, home, tag, BATCH, PASSPHRASE)


def _state(home: Path, tag: str) -> tuple[list[str], bool, int, int, int]:
    """integrity problems, audit ok, memories with the tag, all memories, audit entries."""
    with Vault.open(home, PASSPHRASE) as vault:
        problems = vault.check_integrity()
        report = vault.verify_audit()
        tagged = vault.list(MemoryQuery(tags=(tag,), statuses=None, limit=0)).total
        total = vault.list(MemoryQuery(statuses=None, limit=0)).total
        problems += report.problems
        return problems, report.ok, tagged, total, vault.store.count_audit()


def _base_vault(path: Path) -> tuple[int, int]:
    """A small vault with some history: memories, a supersede, a relation."""
    with make_vault(path) as vault:
        vault.add_memories([pam_memory(f"Prior memory {i}", tags=["prior"]) for i in range(50)])
        old = vault.add("The user lives in Porto", "fact").memory
        new = vault.add("The user lives in Lisbon", "fact").memory
        vault.supersede(old.id, new.id)
        vault.relate(new.id, old.id, "related_to")
        return vault.list(MemoryQuery(statuses=None, limit=0)).total, vault.store.count_audit()


@pytest.mark.slow
def test_kill_9_during_a_batch_leaves_none_or_all_of_it(tmp_path: Path) -> None:
    base = tmp_path / "base"
    prior_memories, prior_entries = _base_vault(base)

    # How long the batch takes here, so that the kills spread over all of it.
    probe = tmp_path / "probe"
    shutil.copytree(base, probe)
    proc = _start(probe, "probe")
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    duration = float(out.split()[-1])
    problems, ok, tagged, total, entries = _state(probe, "probe")
    assert (problems, ok, tagged) == ([], True, BATCH)
    assert (total, entries) == (prior_memories + BATCH, prior_entries + BATCH)
    shutil.rmtree(probe)

    # One kill in each twentieth of 1.2 × the batch's duration, at a seeded random point.
    rng = random.Random(SEED)
    offsets = [duration * 1.2 * (i + rng.random()) / KILLS for i in range(KILLS)]
    outcomes: list[str] = []
    for number, offset in enumerate(offsets):
        home = tmp_path / f"kill-{number}"
        shutil.copytree(base, home)
        tag = f"kill-{number}"
        proc = _start(home, tag)
        time.sleep(offset)
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=60)
        where = (
            f"kill {number} at {offset:.3f} s into a {duration:.3f} s batch (seed {SEED}; "
            f"offsets {[round(o, 3) for o in offsets]}; outcomes so far {outcomes})"
        )
        problems, ok, tagged, total, entries = _state(home, tag)
        assert problems == [], f"{where}: {problems}"
        assert ok, where
        if tagged == 0:
            outcome = "none"
            assert (total, entries) == (prior_memories, prior_entries), where
        else:
            outcome = "all"
            assert tagged == BATCH, f"{where}: {tagged} of the {BATCH} memories are there"
            assert (total, entries) == (prior_memories + BATCH, prior_entries + BATCH), where
        assert "done" not in out or outcome == "all", where  # a finished call was committed
        outcomes.append(outcome)
        # The vault takes new writes after the crash.
        with Vault.open(home, PASSPHRASE) as vault:
            vault.add(f"Written after kill {number}", "fact")
            assert vault.verify_audit().ok, where
        shutil.rmtree(home)
    # The early kills land before the commit; the batch takes far longer than one twentieth.
    assert "none" in outcomes, f"offsets {offsets}, batch {duration:.3f} s: {outcomes}"
    print(f"batch {duration:.2f} s; outcomes: {outcomes}")
