"""The fast path of `Vault.add_memories`: no savepoints inside the batch's transaction (a
failure still undoes all of it), and the page HMAC of new vaults recorded in the parameter
file (existing vaults keep theirs)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlcipher3  # type: ignore[import-untyped]

import memvault.vault as vault_module
from memvault.errors import InvalidInput
from memvault.model import Memory
from memvault.paths import database_path
from memvault.store.base import IntegrityViolation, MemoryQuery, StoreError, WrongPassphrase
from memvault.store.sqlite import NEW_HMAC, SQLiteStore
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_store, make_vault, pam_memory, stored

#: Half of one of add_memories' check-and-write chunks (4,096 memories).
_HALF_CHUNK = 2048


def _batch(n: int, prefix: str = "m") -> list[Memory]:
    return [
        pam_memory(f"The user keeps note number {i} of {prefix}", id=f"{prefix}-{i}", tags=["t"])
        for i in range(n)
    ]


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    yield v
    v.close()


def test_large_insert_without_savepoints_indexes_everything(tmp_path: Path) -> None:
    """A large insert_memories call inside a savepoint-free transaction: every memory ends up
    indexed, and the index agrees with the rows (FTS5 integrity-check)."""
    store = make_store(tmp_path / "vault.db")
    count = 2 * _HALF_CHUNK + 17
    rows = [stored(f"Keeps note number {i} of p", id=f"p-{i}", tags=["t"]) for i in range(count)]
    with store.transaction(savepoints=False):
        assert store.insert_memories(rows) == count
    for i in (0, _HALF_CHUNK - 1, _HALF_CHUNK, 2 * _HALF_CHUNK, count - 1):
        hits = store.search(MemoryQuery(text=f"note {i}"))
        assert [h.memory.memory.id for h in hits] == [f"p-{i}"]
    assert store.count_memories(MemoryQuery(tags=("t",), limit=None)) == count
    assert store.check_integrity() == []
    store.close()


def test_insert_failure_late_in_a_batch_leaves_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    store.insert_memories([stored("Already here", id="dup")])
    rows = [stored(f"Keeps note number {i} of q", id=f"q-{i}") for i in range(2 * _HALF_CHUNK + 5)]
    rows.append(stored("Another text", id="dup"))
    with (
        pytest.raises(IntegrityViolation, match="memory id dup already exists"),
        store.transaction(savepoints=False),
    ):
        store.insert_memories(rows)
    assert store.count_memories(MemoryQuery(limit=None)) == 1
    assert store.search(MemoryQuery(text="note")) == []
    assert store.check_integrity() == []
    store.close()


def test_pam_6_large_batch_through_the_vault(vault: Vault) -> None:
    """A batch over two check-and-write chunks, with in-batch dedup and a bad memory at the end:
    nothing stored; without it, everything, searchable, with a verifying audit chain."""
    batch = _batch(2 * _HALF_CHUNK + 300)
    twin = pam_memory("The user keeps note number 5 of m", id="twin")  # reinforces m-5
    bad = batch[-1].evolve(content="Changed after hashing")
    audit_before = vault.store.count_audit()
    with pytest.raises(InvalidInput, match=rf"memories\[{len(batch)}\].*content_hash"):
        vault.add_memories([*batch[:-1], twin, bad])
    assert vault.list().total == 0
    assert vault.store.count_audit() == audit_before
    result = vault.add_memories([*batch, twin])
    assert len(result.created) == len(batch) and result.reinforced == ["twin"]
    assert vault.list(MemoryQuery(limit=None)).total == len(batch)
    assert [r.memory.id for r in vault.search("note 2299")] == ["m-2299"]
    assert vault.verify_audit().ok
    assert vault.store.check_integrity() == []
    again = vault.add_memories(batch)
    assert len(again.skipped) == len(batch) and not again.created


def test_batch_failure_undoes_everything_without_savepoints(vault: Vault) -> None:
    """Inside add_memories the store makes no savepoints; a failure after the rows, tags,
    full-text entries and audit entries were written still undoes all of them."""
    vault.add_memories([pam_memory("Original", id="m-1")])
    audit_before = vault.store.count_audit()
    batch = [*_batch(50, "n"), pam_memory("Different content", id="n-3")]
    with pytest.raises(InvalidInput, match=r"memories\[50\] \(id n-3\)"):
        vault.add_memories(batch)
    batch = [*_batch(50, "n"), pam_memory("Original", id="m-1").evolve(tags=("Bad Tag",))]
    with pytest.raises(InvalidInput, match=r"memories\[50\]"):
        vault.add_memories(batch)
    assert [m.id for m in vault.list().items] == ["m-1"]
    assert vault.search("note") == []
    assert vault.store.count_audit() == audit_before
    assert vault.verify_audit().ok


def test_pipelined_insert_stores_rows_tags_grants_and_index(vault: Vault) -> None:
    """A batch of several pipeline chunks (the writer thread writes one while the next is
    checked): every row, tag, grant and full-text entry, and the switch interval back."""
    switch = sys.getswitchinterval()
    count = 3 * vault_module._CHUNK + 11
    shared = [{"entity": "agent-a", "permissions": ["read"]}]
    batch = [
        pam_memory(f"The user keeps note number {i} of g", id=f"g-{i}", tags=["t", f"n{i % 7}"])
        for i in range(count - 1)
    ]
    batch.append(
        pam_memory("Shared with an agent", id="g-shared", visibility="shared", shared_with=shared)
    )
    assert len(vault.add_memories(batch).created) == count
    assert sys.getswitchinterval() == switch
    assert vault.list(MemoryQuery(tags=("t",), limit=None)).total == count - 1
    assert [r.memory.id for r in vault.search(f"note {count - 2}")] == [f"g-{count - 2}"]
    assert [m.id for m in vault.acting_as("agent-a").list(MemoryQuery(limit=None)).items] == [
        "g-shared"
    ]
    assert vault.store.check_integrity() == []
    assert vault.verify_audit().ok


def test_a_failing_write_on_the_writer_thread_undoes_the_batch(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer thread fails on its third chunk: the error reaches the caller, nothing of
    the batch stays (rows, index, audit), the switch interval is back and no writer thread
    is left behind."""
    switch = sys.getswitchinterval()
    write = SQLiteStore.write_memories
    calls = []

    def failing(store: SQLiteStore, prepared: Any) -> int:
        calls.append(threading.current_thread().name)
        if len(calls) == 3:
            raise StoreError("disk on fire")
        return write(store, prepared)

    monkeypatch.setattr(SQLiteStore, "write_memories", failing)
    audit_before = vault.store.count_audit()
    with pytest.raises(StoreError, match="disk on fire"):
        vault.add_memories(_batch(4 * vault_module._CHUNK))
    assert all(name.startswith("memvault-writer") for name in calls)
    assert vault.list().total == 0 and vault.search("note") == []
    assert vault.store.count_audit() == audit_before
    assert vault.store.check_integrity() == []
    assert sys.getswitchinterval() == switch
    assert not [t for t in threading.enumerate() if t.name.startswith("memvault-writer")]


def test_concurrent_pipelined_inserts_restore_the_switch_interval(tmp_path: Path) -> None:
    """Two vaults inserting at once from two threads: the process-wide switch interval is
    lowered while either runs and restored only when both are done."""
    switch = sys.getswitchinterval()
    vaults = [make_vault(tmp_path / f"home-{n}") for n in range(2)]
    errors: list[BaseException] = []

    def insert(vault: Vault, prefix: str) -> None:
        try:
            vault.add_memories(_batch(3 * vault_module._CHUNK, prefix))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=insert, args=(v, f"c{n}")) for n, v in enumerate(vaults)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sys.getswitchinterval() == switch
    for vault in vaults:
        assert vault.list(MemoryQuery(limit=None)).total == 3 * vault_module._CHUNK
        vault.close()


def test_nested_transaction_keeps_its_savepoint_by_default(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    with store.transaction():
        store.set_meta("kept", "1")
        with pytest.raises(RuntimeError), store.transaction():
            store.set_meta("undone", "1")
            raise RuntimeError("caught by the caller")
    assert store.get_meta("kept") == "1" and store.get_meta("undone") is None
    store.close()


def test_new_vault_records_its_page_hmac(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    assert store.get_meta("cipher_hmac_algorithm") == NEW_HMAC == "HMAC_SHA256"
    store.close()
    params = orjson.loads((tmp_path / "vault.params.json").read_bytes())
    assert params["cipher_hmac_algorithm"] == "HMAC_SHA256"
    SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE).close()


def _sqlcipher_default_copy(source: Path, target: Path) -> None:
    """A copy of the vault at `source` made with SQLCipher 4's default page HMAC
    (HMAC-SHA512), as every vault made before the parameter file named the algorithm."""
    params = orjson.loads(SQLiteStore.params_path(source).read_bytes())
    conn = sqlcipher3.connect(str(source), isolation_level=None)
    conn.execute(f"PRAGMA key = '{PASSPHRASE}'")
    conn.execute(f"PRAGMA kdf_iter = {params['kdf_iter']}")
    conn.execute(f"PRAGMA cipher_page_size = {params['cipher_page_size']}")
    conn.execute(f"PRAGMA cipher_hmac_algorithm = {params['cipher_hmac_algorithm']}")
    conn.execute(f"ATTACH DATABASE '{target}' AS old KEY '{PASSPHRASE}'")
    conn.execute(f"PRAGMA old.kdf_iter = {params['kdf_iter']}")
    conn.execute(f"PRAGMA old.cipher_page_size = {params['cipher_page_size']}")
    conn.execute("PRAGMA old.cipher_hmac_algorithm = HMAC_SHA512")
    conn.execute("SELECT sqlcipher_export('old')")
    version = conn.execute("PRAGMA main.user_version").fetchone()[0]
    conn.execute(f"PRAGMA old.user_version = {int(version)}")  # not copied by the export
    conn.execute("DETACH DATABASE old")
    conn.close()
    del params["cipher_hmac_algorithm"]
    SQLiteStore.params_path(target).write_bytes(orjson.dumps(params))


def test_existing_hmac_sha512_vault_keeps_opening(tmp_path: Path) -> None:
    """A parameter file without cipher_hmac_algorithm means SQLCipher's default HMAC-SHA512;
    the vault opens and takes batches as before. Naming the wrong algorithm fails like a
    wrong passphrase (the pages do not authenticate)."""
    home = tmp_path / "home"
    v = make_vault(home)
    v.add_memories([pam_memory("Kept across versions", id="m-1")])
    v.close()
    path = database_path(home)
    old_home = tmp_path / "old"
    old_home.mkdir()
    old = old_home / path.name
    _sqlcipher_default_copy(path, old)
    store = SQLiteStore.open(old, PASSPHRASE)
    assert [s.memory.id for s in store.query_memories(MemoryQuery())] == ["m-1"]
    store.close()
    reopened = Vault.open(old_home, PASSPHRASE)
    reopened.add_memories(_batch(2 * _HALF_CHUNK, "o"))
    assert reopened.list(MemoryQuery(limit=None)).total == 2 * _HALF_CHUNK + 1
    assert reopened.verify_audit().ok
    reopened.close()
    params = orjson.loads(SQLiteStore.params_path(old).read_bytes())
    params["cipher_hmac_algorithm"] = "HMAC_SHA256"
    SQLiteStore.params_path(old).write_bytes(orjson.dumps(params))
    with pytest.raises(WrongPassphrase):
        SQLiteStore.open(old, PASSPHRASE)
    params["cipher_hmac_algorithm"] = "HMAC_MD5"
    SQLiteStore.params_path(old).write_bytes(orjson.dumps(params))
    with pytest.raises(WrongPassphrase, match="no valid cipher_hmac_algorithm"):
        SQLiteStore.open(old, PASSPHRASE)
