"""Ctrl-C during an import says what became of it (issue #15 §7: it exited 130 without a
word): the real console script, a large generated export, SIGINT to its process group as a
terminal sends it, then exit 130, "interrupted; nothing was imported" and the vault exactly as
it was."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import memvault_script
from memvault.vault import Vault
from providergen import chatgpt
from vaultkit import FAST_KDF, PASSPHRASE

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def _snapshot(home: Path) -> tuple[str, dict[str, object]]:
    digest = hashlib.sha256((home / "vault.db").read_bytes()).hexdigest()
    with Vault.open(home, PASSPHRASE) as vault:
        stats = vault.stats()
    return digest, {k: stats[k] for k in ("memories", "conversations", "audit_entries")}


def test_ctrl_c_during_an_import_says_nothing_was_imported(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    chatgpt.write_conversations(export, 40_000_000)
    home = tmp_path / "vault"
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(home),
        "MEMVAULT_PASSPHRASE": PASSPHRASE,
        "MEMVAULT_KDF_ITER": FAST_KDF,
    }
    subprocess.run([memvault_script(), "init"], env=env, check=True, capture_output=True)
    before = _snapshot(home)
    proc = subprocess.Popen(
        [memvault_script(), "import", str(export)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        # The import is under way once it has forked the processes that read the export.
        deadline = time.monotonic() + 60
        while not _children(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, "the import ended before it could be interrupted"
        time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (out, err)
    assert err.strip() == "error: interrupted; nothing was imported", err
    assert "Traceback" not in out + err
    assert _snapshot(home) == before


def test_ctrl_c_while_starting_up_says_nothing_was_done() -> None:
    """Before any command runs (loading the command's module), Ctrl-C still gets a line."""
    import sys

    code = (
        "import memvault.cli as cli\n"
        "def interrupted(argv):\n"
        "    raise KeyboardInterrupt\n"
        "cli._app_for = interrupted\n"
        "cli.main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "import", "x.zip"], capture_output=True, text=True
    )
    assert proc.returncode == 130
    assert proc.stderr.strip() == "error: interrupted; nothing was done"
