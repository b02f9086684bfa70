"""Upgrades (docs/backup.md, "Upgrades"): a vault written at an earlier store schema opens and
migrates, and a migration killed with SIGKILL at any moment leaves a vault that opens at the old
version or the new one — never between — and then migrates whole.

Two fixtures: `vault-0.1.0/` (schema 2, memvault 0.1.0) and `vault-schema4/` (schema 4, made by
the code before migrations 5 and 6; `vault-schema4.md`). Each test works on a copy."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memvault.store.sqlite as sqlite_store
from memvault.store.migrations import LATEST, MIGRATIONS
from memvault.vault import Vault

FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: name → (passphrase, schema version, memories, conversations)
VAULTS = {
    "vault-0.1.0": ("fixture-vault-0.1.0", 2, 37, 14),
    "vault-schema4": ("fixture-vault-schema4", 4, 16, 2),
}

#: The child: opens the vault (which migrates it), killing itself with SIGKILL just before the
#: N-th statement of the migration scripts, or just before the commit when N is past them.
CHILD = r"""
import os, signal, sys
import memvault.store.sqlite as store
home, passphrase, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
count = 0
statements = store._statements

def counting(script):
    global count
    for statement in statements(script):
        count += 1
        if count == limit:
            os.kill(os.getpid(), signal.SIGKILL)
        yield statement

store._statements = counting
real_migrate = store.SQLiteStore._migrate

def migrate(self):
    begin = self.transaction

    def transaction(*args, **kwargs):
        outer = begin(*args, **kwargs)

        class Killing:
            def __enter__(self):
                return outer.__enter__()

            def __exit__(self, *exc):
                if limit < 0 and exc[0] is None:
                    os.kill(os.getpid(), signal.SIGKILL)  # all applied, not yet committed
                return outer.__exit__(*exc)

        return Killing()

    self.transaction = transaction
    try:
        real_migrate(self)
    finally:
        del self.transaction

store.SQLiteStore._migrate = migrate
from memvault.vault import Vault
with Vault.open(home, passphrase) as vault:
    print("migrated", count, vault.store.schema_version, flush=True)
"""


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def _version_without_migrating(home: Path, passphrase: str) -> int:
    """``PRAGMA user_version`` read on a read-only connection (opening the store would
    migrate it)."""
    db = home / "vault.db"
    cipher, _ = sqlite_store._CipherParams.read(sqlite_store.SQLiteStore.params_path(db))
    conn = sqlite_store._open_connection(db, passphrase, cipher, 5.0, reader=True)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _check_whole(home: Path, name: str) -> None:
    passphrase, _, memories, conversations = VAULTS[name]
    with Vault.open(home, passphrase) as vault:
        stats = vault.stats()
        assert stats["schema_version"] == LATEST
        assert (stats["memories"], stats["conversations"]) == (memories, conversations)
        assert vault.verify_audit().ok
        assert vault.check_integrity() == []
        assert [v for v, _, _ in vault.store.migrations()] == [m.version for m in MIGRATIONS]  # type: ignore[attr-defined]


def _child(home: Path, passphrase: str, limit: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(home), passphrase, str(limit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("name", sorted(VAULTS))
def test_a_vault_of_an_earlier_schema_opens_and_migrates(name: str, tmp_path: Path) -> None:
    home = _copy(name, tmp_path)
    passphrase, version, _, _ = VAULTS[name]
    assert _version_without_migrating(home, passphrase) == version
    _check_whole(home, name)


def _statement_count(home: Path, passphrase: str) -> int:
    proc = _child(home, passphrase, 10**9)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return int(out.split()[1])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VAULTS))
def test_a_migration_killed_between_statements_leaves_the_old_version_or_the_new(
    name: str, tmp_path: Path
) -> None:
    """SIGKILL before the 1st, 2nd, … statement of the pending migrations and just before
    their commit: each time the vault reads at its old version, then opens, migrates whole
    and verifies."""
    passphrase, version, _, _ = VAULTS[name]
    total = _statement_count(_copy(name, tmp_path / "count"), passphrase)
    assert total > 3
    points = sorted({1, 2, total // 3, total // 2, total - 1, total, -1})
    for limit in points:
        home = _copy(name, tmp_path / f"kill-{limit}")
        proc = _child(home, passphrase, limit)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == -signal.SIGKILL, (limit, err)
        assert _version_without_migrating(home, passphrase) in (version, LATEST), limit
        _check_whole(home, name)


@pytest.mark.slow
def test_a_migration_killed_from_outside_at_timed_moments_leaves_the_old_version_or_the_new(
    tmp_path: Path,
) -> None:
    """kill -9 from another process at several moments of the 0.1.0 vault's upgrade (the
    longest: it fills the recall index): old or new version, never between, then whole."""
    name = "vault-0.1.0"
    passphrase, version, _, _ = VAULTS[name]
    seen: set[int] = set()
    for delay in (0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.5):
        home = _copy(name, tmp_path / f"kill-{delay}")
        proc = _child(home, passphrase, 10**9)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        found = _version_without_migrating(home, passphrase)
        assert found in (version, LATEST), delay
        seen.add(found)
        _check_whole(home, name)
    assert version in seen, "no kill landed before the migration committed"
