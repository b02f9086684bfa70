"""Starting on a full disk (issue #23): `memvault serve` and the command line, on a vault whose
filesystem is full, say so — the disk, the path, what to do — and exit 1 (StoreFull,
docs/errors.md: 507 over HTTP), never "internal error" nor "wrong passphrase"; the vault is
left as it was and no temporary file stays behind.

The full filesystem is a small tmpfs made for the test (as root), else the child runs with
RLIMIT_FSIZE 0 (every write that grows a file fails, as on a full disk)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import pgkit
from diskkit import small_filesystem
from memvault.store.postgres import PostgresStore
from memvault.store.serverkey import ServerKey
from memvault.vault import Vault
from serverkit import free_port
from vaultkit import FAST_KDF, PASSPHRASE

SIZE_KIB = 2048


def fill(directory: Path) -> None:
    """Take every free block of the filesystem holding `directory`."""
    with open(directory / "filler", "wb", buffering=0) as out:
        for block in (1 << 16, 1 << 12, 1):  # large blocks, then down to the last byte
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * block)


def _limit(mounted: bool) -> Callable[[], None] | None:
    if mounted:
        return None
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def _memvault(env: dict[str, str], mounted: bool, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memvault", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit(mounted),
    )


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(values)
    return env


def _digest(home: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(home.iterdir())
        if p.is_file()
    }


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(("serve", "--no-embed"), id="serve"),
        pytest.param(("list",), id="list"),
        pytest.param(("add", "a fact on a full disk", "--type", "fact"), id="add"),
    ],
)
def test_a_vault_on_a_full_disk_says_the_disk_is_full_at_start_up(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """SQLite writes its WAL index beside the vault file before the first read: on a full disk
    that fails before the key is tried (it used to be reported as a wrong passphrase)."""
    with small_filesystem(tmp_path / "disk", SIZE_KIB) as mounted:
        home = tmp_path / "disk" / "vault"
        env = _env(
            MEMVAULT_HOME=str(home), MEMVAULT_PASSPHRASE=PASSPHRASE, MEMVAULT_KDF_ITER=FAST_KDF
        )
        # Made by the command line, as a user would: its process ends, SQLite removes its log.
        for setup in (("init",), ("add", "Kept through a full disk", "--type", "fact")):
            assert _memvault(env, True, *setup).returncode == 0
        if mounted:
            fill(tmp_path / "disk")
        before = _digest(home)
        args = [*command, "--port", str(free_port())] if command[0] == "serve" else command
        run = _memvault(env, mounted, *args)
        assert run.returncode == 1, run.stderr
        message = run.stderr
        assert f"the disk holding the vault at {home} is full" in message, message
        assert "Free some space" in message and "nothing was changed" in message
        assert "internal error" not in message and "passphrase" not in message
        assert "Traceback" not in message
        after = _digest(home)
        # SQLite may leave its empty WAL files; the vault file itself is untouched.
        assert after["vault.db"] == before["vault.db"]
        assert not [n for n in after if n.endswith(".tmp")]
    if mounted:
        return
    vault = Vault.open(home, PASSPHRASE)
    try:
        assert [m.content for m in vault.list().items] == ["Kept through a full disk"]
    finally:
        vault.close()


def test_serve_of_a_database_vault_whose_home_is_on_a_full_disk_says_so(tmp_path: Path) -> None:
    """A vault in PostgreSQL keeps its local token in a home on local disk: when that disk is
    full, `memvault serve` says which file it could not write and exits 1 (it used to be an
    internal error), leaving no temporary file."""
    server = pgkit.server("pg15")
    tenant = pgkit.new_tenant()
    key = ServerKey.parse(pgkit.SERVER_KEY, "test")
    Vault.create(PostgresStore.create(server.app_url, tenant, server_key=key)).close()
    with small_filesystem(tmp_path / "disk", SIZE_KIB) as mounted:
        home = tmp_path / "disk" / "home"
        home.mkdir()
        if mounted:
            fill(tmp_path / "disk")
        env = _env(
            MEMVAULT_HOME=str(home),
            MEMVAULT_DATABASE_URL=server.app_url,
            MEMVAULT_TENANT=tenant,
            MEMVAULT_SERVER_KEY=pgkit.SERVER_KEY,
        )
        run = _memvault(env, mounted, "serve", "--no-embed", "--port", str(free_port()))
        assert run.returncode == 1, run.stderr
        assert f"the disk holding {home} is full" in run.stderr, run.stderr
        assert f"could not be written to {home / 'local-token'}" in run.stderr
        assert "internal error" not in run.stderr and "Traceback" not in run.stderr
        assert list(home.iterdir()) == []
