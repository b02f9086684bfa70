"""`memvault backup` and `memvault restore` (docs/backup.md): a consistent, still-encrypted copy
of a live vault taken while a server writes to it, restored into an empty home where it opens,
passes its integrity check, verifies its audit chain and holds every write acknowledged before
the backup began; on PostgreSQL a tenant's signed exports, restored into an empty tenant."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import httpx
import pytest

import pgkit
from conftest import memvault_script
from memvault.backup import MANIFEST, backup, restore_home, restore_into
from memvault.errors import InvalidInput, VaultExists
from memvault.model import Memory
from memvault.server.app import create_app
from memvault.server.config import ServerConfig
from memvault.store.base import MemoryQuery, WrongPassphrase
from memvault.store.postgres import PostgresStore
from memvault.store.serverkey import ServerKey
from memvault.tenancy import Tenants
from memvault.vault import Vault
from serverkit import auth, running
from vaultkit import PASSPHRASE, make_vault


def _cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {
        k: v for k, v in os.environ.items() if k not in ("MEMVAULT_DATABASE_URL", "MEMVAULT_TENANT")
    }
    return subprocess.run(
        [memvault_script(), *map(str, args)],
        capture_output=True,
        text=True,
        env={**base, "MEMVAULT_PASSPHRASE": PASSPHRASE, **(env or {})},
        timeout=120,
    )


def test_backup_is_an_encrypted_copy_that_restores_into_an_empty_home(tmp_path: Path) -> None:
    with make_vault(tmp_path / "home") as vault:
        added = [vault.add(f"fact number {i}", "fact").memory.id for i in range(5)]
        result = backup(vault, tmp_path / "bk")
    assert result.kind == "sqlite-copy"
    data = (tmp_path / "bk" / "vault.db").read_bytes()
    assert not data.startswith(b"SQLite format 3"), "the copy must stay encrypted"
    assert b"fact number" not in data
    manifest = json.loads((tmp_path / "bk" / MANIFEST).read_text())
    assert manifest["kind"] == "sqlite-copy"
    restored = restore_home(tmp_path / "bk", tmp_path / "restored", PASSPHRASE)
    assert restored.memories == 5
    with Vault.open(tmp_path / "restored", PASSPHRASE) as copy:
        assert {m.id for m in _memories(copy)} == set(added)
        assert copy.verify_audit().ok
        assert copy.check_integrity() == []


def test_restore_refuses_a_home_that_is_not_empty_and_leaves_it(tmp_path: Path) -> None:
    with make_vault(tmp_path / "home") as vault:
        vault.add("kept", "fact")
        backup(vault, tmp_path / "bk")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(VaultExists, match="not empty"):
        restore_home(tmp_path / "bk", busy, PASSPHRASE)
    assert [p.name for p in busy.iterdir()] == ["notes.txt"]


def test_restore_with_the_wrong_passphrase_leaves_nothing(tmp_path: Path) -> None:
    with make_vault(tmp_path / "home") as vault:
        backup(vault, tmp_path / "bk")
    with pytest.raises(WrongPassphrase):
        restore_home(tmp_path / "bk", tmp_path / "new", "not the passphrase")
    assert not (tmp_path / "new").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_backup_refuses_a_destination_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "bk").mkdir()
    (tmp_path / "bk" / "x").write_text("x")
    with make_vault(tmp_path / "home") as vault, pytest.raises(VaultExists):
        backup(vault, tmp_path / "bk")
    assert [p.name for p in (tmp_path / "bk").iterdir()] == ["x"]


def test_restore_refuses_a_directory_that_is_not_a_backup(tmp_path: Path) -> None:
    (tmp_path / "junk").mkdir()
    with pytest.raises(InvalidInput, match=r"backup\.json is missing"):
        restore_home(tmp_path / "junk", tmp_path / "new", PASSPHRASE)


def test_backup_under_concurrent_server_writes_restores_a_vault_that_verifies(
    tmp_path: Path,
) -> None:
    """Writers keep adding memories over HTTP to a real server while `memvault backup` runs
    in another process, several times: each backup restores into a vault whose integrity
    check passes and whose audit chain verifies, holding every write acknowledged before
    that backup started (and only whole writes: every memory it holds verifies)."""
    home = tmp_path / "home"
    make_vault(home).close()
    tenants = Tenants.personal(home, PASSPHRASE)
    token = tenants.local_token()
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    errors: list[str] = []

    def writer(n: int, url: str) -> None:
        with httpx.Client(base_url=url, headers=auth(token), timeout=30) as client:
            i = 0
            while not stop.is_set():
                answer = client.post(
                    "/v1/memories", json={"content": f"writer {n} fact {i}", "type": "fact"}
                )
                if answer.status_code != 201:
                    errors.append(answer.text)
                    return
                with lock:
                    acknowledged.append(answer.json()["memory"]["id"])
                i += 1

    try:
        with running(create_app(ServerConfig(tenants))) as url:
            threads = [threading.Thread(target=writer, args=(n, url)) for n in range(3)]
            for thread in threads:
                thread.start()
            taken: list[tuple[Path, set[str]]] = []
            try:
                for round_ in range(3):
                    while len(acknowledged) < 20 * (round_ + 1) and not errors:
                        stop.wait(0.01)
                    with lock:
                        before = set(acknowledged)
                    dest = tmp_path / f"bk{round_}"
                    proc = _cli("backup", dest, "--json", env={"MEMVAULT_HOME": str(home)})
                    assert proc.returncode == 0, proc.stderr
                    taken.append((dest, before))
            finally:
                stop.set()
                for thread in threads:
                    thread.join(30)
    finally:
        tenants.close()
    assert not errors, errors[0]
    for dest, before in taken:
        target = tmp_path / f"restored-{dest.name}"
        proc = _cli("restore", dest, "--json", env={"MEMVAULT_HOME": str(target)})
        assert proc.returncode == 0, proc.stderr
        with Vault.open(target, PASSPHRASE) as copy:
            held = {m.id for m in _memories(copy)}
            assert before <= held, f"{len(before - held)} acknowledged writes missing"
            assert held <= set(acknowledged)
            assert copy.verify_audit().ok
            assert copy.check_integrity() == []


def test_backup_and_restore_are_documented_commands(tmp_path: Path) -> None:
    with make_vault(tmp_path / "home") as vault:
        vault.add("a fact", "fact")
    proc = _cli("backup", tmp_path / "bk", env={"MEMVAULT_HOME": str(tmp_path / "home")})
    assert proc.returncode == 0, proc.stderr
    assert "Backed up an encrypted copy" in proc.stdout
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "f").write_text("x")
    proc = _cli("restore", tmp_path / "bk", env={"MEMVAULT_HOME": str(busy)})
    assert proc.returncode == 1
    assert "not empty" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_tenant_on_postgresql_backs_up_as_signed_exports_and_restores_into_an_empty_tenant(
    tmp_path: Path,
) -> None:
    """PAM §18: the backup's PAM export carries the vault key's signature, which the restore
    checks; the restored tenant holds the same memories and conversations."""
    server = pgkit.server("pg15")
    key = ServerKey.parse(pgkit.SERVER_KEY, "test")
    source = Vault.create(PostgresStore.create(server.app_url, pgkit.new_tenant(), server_key=key))
    try:
        for i in range(4):
            source.add(f"tenant fact {i}", "fact")
        _generate_key(source)
        result = backup(source, tmp_path / "bk")
        expected = {m.content for m in _memories(source)}
    finally:
        source.close()
    assert result.kind == "exports" and result.signed
    assert (tmp_path / "bk" / "bundle.aimem.json").is_file()
    target = Vault.create(PostgresStore.create(server.app_url, pgkit.new_tenant(), server_key=key))
    try:
        restored = restore_into(target, tmp_path / "bk")
        assert restored.memories == 4
        assert {m.content for m in _memories(target)} == expected
        with pytest.raises(VaultExists, match="not empty"):
            restore_into(target, tmp_path / "bk")
    finally:
        target.close()


def _generate_key(vault: Vault) -> None:
    from memvault.crypto.keys import SigningKey

    vault.add_key(SigningKey.new("Ed25519").to_record(), owner_did=True)


def _memories(vault: Vault) -> list[Memory]:
    return vault.list(MemoryQuery(limit=None)).items
