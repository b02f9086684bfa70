"""`memvault passphrase change` and `Vault.change_passphrase`: the vault re-encrypted with a new
passphrase — the old one stops working, the new one opens everything (memories, keys, the
audit chain), a wrong old one changes nothing, and a crash in the middle leaves a vault that
opens with exactly one of the two, nothing lost."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clikit import home, ids, mv, ok, refused, sample_vault, snapshot
from memvault.errors import AccessDenied, InvalidInput
from memvault.store.base import MemoryQuery, StoreError, WrongPassphrase
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault, pam_memory

__all__ = ["home", "ids", "sample_vault"]  # fixtures

NEW = "a brand new passphrase"


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text + "\n", encoding="utf-8")
    return path


def test_passphrase_change_old_stops_working_new_opens_everything(
    home: Path, ids: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the change the old passphrase is refused, and the new one opens the memories,
    the signing keys and an intact audit chain, exactly as they were."""
    ok("keys", "generate")
    before = snapshot()
    keys_before = ok("keys", "list", "--json").json()
    params_before = (home / "vault.params.json").read_bytes()
    new_file = _file(tmp_path, "new.txt", NEW)
    run = ok("passphrase", "change", "--new-passphrase-file", new_file)
    assert "new passphrase" in run.stdout
    assert (home / "vault.params.json").read_bytes() == params_before
    assert "wrong passphrase" in refused("stats")  # $MEMVAULT_PASSPHRASE is the old one
    with pytest.raises(WrongPassphrase):
        Vault.open(home, PASSPHRASE)
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", NEW)
    after = snapshot()
    stats, memories, audit = after
    assert stats.pop("audit_entries") == before[0].pop("audit_entries") + 1
    assert (stats, memories) == before[:2]
    changes = [e for e in audit if e["action"] == "passphrase-change"]
    assert len(changes) == 1 and changes[0]["actor"] == "user"
    assert [e for e in audit if e not in changes] == before[2]
    assert ok("keys", "list", "--json").json() == keys_before
    assert "intact" in ok("audit", "verify").stdout
    with Vault.open(home, NEW) as vault:
        assert vault.check_integrity() == []


def test_passphrase_change_wrong_old_passphrase_changes_nothing(
    home: Path, ids: dict[str, str], tmp_path: Path
) -> None:
    """A wrong current passphrase is refused (exit 1) and the vault keeps the one it had."""
    before = snapshot()
    wrong = _file(tmp_path, "wrong.txt", "not the passphrase")
    new_file = _file(tmp_path, "new.txt", NEW)
    stderr = refused(
        "passphrase", "change", "--passphrase-file", wrong, "--new-passphrase-file", new_file
    )
    assert "wrong passphrase" in stderr and "not changed" in stderr
    assert snapshot() == before
    with pytest.raises(WrongPassphrase):
        Vault.open(home, NEW)


def test_passphrase_change_needs_a_new_passphrase_without_a_terminal(
    home: Path, ids: dict[str, str]
) -> None:
    before = snapshot()
    stderr = refused("passphrase", "change", code=2)
    assert "--new-passphrase-file" in stderr
    assert snapshot() == before


def test_passphrase_change_refuses_the_same_passphrase(
    home: Path, ids: dict[str, str], tmp_path: Path
) -> None:
    same = _file(tmp_path, "same.txt", PASSPHRASE)
    before = snapshot()
    assert "already has" in refused("passphrase", "change", "--new-passphrase-file", same)
    assert snapshot() == before


def test_passphrase_change_refused_while_another_process_has_the_vault_open(
    home: Path, ids: dict[str, str], tmp_path: Path
) -> None:
    """Re-keying needs the vault to itself: while another connection has it open the change
    is refused and nothing changes."""
    new_file = _file(tmp_path, "new.txt", NEW)
    with Vault.open(home, PASSPHRASE) as other:
        stderr = refused("passphrase", "change", "--new-passphrase-file", new_file)
        assert "open in another process" in stderr
        assert other.stats()["memories"] == 20
    with Vault.open(home, PASSPHRASE) as vault:
        assert vault.stats()["memories"] == 20


def test_change_passphrase_library_checks(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    try:
        with pytest.raises(WrongPassphrase):
            vault.change_passphrase("wrong", NEW)
        with pytest.raises(InvalidInput):
            vault.change_passphrase(PASSPHRASE, "")
        with pytest.raises(AccessDenied, match="owner"):
            vault.acting_as("agent-x").change_passphrase(PASSPHRASE, NEW)
        with pytest.raises(StoreError):
            vault.store.rekey("")
    finally:
        vault.close()
    with Vault.open(tmp_path / "v", PASSPHRASE) as again:
        assert again.stats()["memories"] == 0


_CHILD = """
import sys
from memvault.vault import Vault
vault = Vault.open(sys.argv[1], sys.argv[2])
print("start", flush=True)
vault.change_passphrase(sys.argv[2], sys.argv[3])
print("done", flush=True)
"""


def test_passphrase_change_is_atomic_when_the_process_is_killed(tmp_path: Path) -> None:
    """A process killed (SIGKILL) at any moment of the change leaves a vault that opens with
    exactly one of the two passphrases, with every memory and an intact audit chain."""
    template = tmp_path / "template"
    vault = make_vault(template)
    count = 4000
    vault.add_memories([pam_memory(f"memory {n} " + "lorem ipsum " * 20) for n in range(count)])
    vault.close()
    # Killed after a delay (before, during or after the re-encryption), and once at the
    # moment its rollback journal appears (in the middle of the transaction, for sure).
    outcomes = {}
    for delay in (0.0, 0.01, 0.03, 0.07, 0.15, 0.4, None):
        home = tmp_path / f"try-{delay}"
        shutil.copytree(template, home)
        journal = home / "vault.db-journal"
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(home), PASSPHRASE, NEW],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "start"
        if delay is None:
            deadline = time.monotonic() + 30
            while not journal.exists() and time.monotonic() < deadline:
                time.sleep(0.0005)
            assert journal.exists()
        else:
            time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        hot = journal.exists()
        opened = []
        for passphrase in (PASSPHRASE, NEW):
            try:
                with Vault.open(home, passphrase) as reopened:
                    assert reopened.store.count_memories(MemoryQuery(limit=None)) == count
                    assert reopened.verify_audit().ok
                    assert reopened.check_integrity() == []
                opened.append(passphrase)
            except WrongPassphrase:
                pass
        assert len(opened) == 1, (delay, hot, opened)
        outcomes[delay] = (hot, opened[0] == NEW)
    # Killed mid-transaction, the journal holds the old pages: the old passphrase opens it.
    assert outcomes[None] == (True, False)


def test_passphrase_change_cli_is_documented() -> None:
    assert mv("passphrase", "change", "--help").exit_code == 0


def _converse(argv: list[str], env: dict[str, str], replies: list[tuple[str, str]]) -> str:
    """Run `argv` on a pseudo-terminal (its controlling terminal, as a person's shell would
    give it), answering each prompt of `replies` when it appears; returns all it printed."""
    import pty
    import select
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(argv[0], argv, env)
    seen = b""
    try:
        for prompt, answer in replies:
            deadline = time.monotonic() + 60
            while prompt.encode() not in seen and time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.5)
                if ready:
                    seen += os.read(fd, 4096)
            assert prompt.encode() in seen, seen
            seen = seen.replace(prompt.encode(), b"<asked>", 1)
            # A hidden prompt turns echo off (flushing what was typed) only after it shows
            # its text: answer once it has, or the answer would be thrown away.
            while termios.tcgetattr(fd)[3] & termios.ECHO and time.monotonic() < deadline:
                time.sleep(0.01)
            os.write(fd, answer.encode() + b"\n")
        while True:
            ready, _, _ = select.select([fd], [], [], 30)
            if not ready:
                break
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    finally:
        deadline = time.monotonic() + 30
        done, status = os.waitpid(pid, os.WNOHANG)
        while not done and time.monotonic() < deadline:
            time.sleep(0.05)
            done, status = os.waitpid(pid, os.WNOHANG)
        if not done:  # still waiting for input: never hang the suite
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, seen
    return seen.decode("utf-8", "replace")


def test_passphrase_change_asks_for_the_new_passphrase_twice_at_a_terminal(
    home: Path, ids: dict[str, str]
) -> None:
    """At a terminal the new passphrase is asked for, hidden, twice; the old one comes from
    $MEMVAULT_PASSPHRASE."""
    from conftest import memvault_script

    output = _converse(
        [memvault_script(), "passphrase", "change"],
        dict(os.environ),
        [("New passphrase:", NEW), ("Repeat the new passphrase:", NEW)],
    )
    assert NEW not in output  # hidden input
    assert "now encrypted with the new passphrase" in output
    with Vault.open(home, NEW) as vault:
        assert vault.stats()["memories"] == 20
