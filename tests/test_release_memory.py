"""What a server's idle SQLite connections hold is given back once a large request is done
(`Store.release_memory`, `Vault.release_memory`, `memvault.server.heap.release_vault_memory`):
their page caches, and the prepared statements an import leaves bound to its last values."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import orjson

from aimemkit import bundle, chunk
from memvault.exchange.aimem_wire import export_download, import_stream
from memvault.store.base import MemoryQuery
from memvault.store.sqlite import SQLiteStore, _memory_used
from memvault.vault import Vault
from serverkit import app_for, client, running, server_home
from vaultkit import PASSPHRASE, make_vault


def _bundle(n: int, prefix: str = "c") -> bytes:
    chunks = [chunk(f"{prefix}{i}", f"memory {prefix}{i} " + "words " * 40) for i in range(n)]
    return orjson.dumps(bundle(chunks))


def _writer(vault: Vault) -> SQLiteStore:
    store = vault.store
    assert isinstance(store, SQLiteStore)
    return store


def test_a_tenant_vault_gives_back_its_connections_statements_and_cache(tmp_path: Path) -> None:
    """A tenant's vault (opened with its key: connections are cheap to open) releases the
    writer's page cache and the statements the import bound, by a fresh writer; the idle
    readers are closed. The vault reads and writes as before after it."""
    with server_home(tmp_path / "server", ("alice",)) as home:
        vault = home.vault("alice")
        import_stream(vault, io.BytesIO(_bundle(600)))
        store = _writer(vault)
        store._return_reader(store._reader())  # one idle reader
        held = _memory_used()
        writer = store._conn
        released = vault.release_memory()
        assert released > 1 << 20 and _memory_used() < held - (1 << 20)
        assert store._conn is not writer and not store._idle_readers
        assert sum(1 for _ in vault.iter_memories(MemoryQuery(limit=None))) == 600
        vault.add("Written after the release", "fact")
        assert sum(1 for _ in vault.iter_memories(MemoryQuery(limit=None))) == 601


def test_a_writer_inside_a_transaction_is_left_alone(tmp_path: Path) -> None:
    """A release while another thread's transaction holds the writer does not touch it: the
    transaction commits what it wrote."""
    with server_home(tmp_path / "server", ("alice",)) as home:
        vault = home.vault("alice")
        store = _writer(vault)
        entered, done = threading.Event(), threading.Event()

        def write() -> None:
            with store.transaction():
                vault.add("Written while a release runs", "fact")
                entered.set()
                done.wait(10)

        thread = threading.Thread(target=write)
        thread.start()
        assert entered.wait(10)
        writer = store._conn
        vault.release_memory()
        assert store._conn is writer
        done.set()
        thread.join(10)
        assert [m.content for m in vault.iter_memories(MemoryQuery(limit=None))] == [
            "Written while a release runs"
        ]


def test_a_passphrase_vault_keeps_its_connections_and_only_empties_their_caches(
    tmp_path: Path,
) -> None:
    """A vault opened with a passphrase to stretch (a personal vault served) keeps its
    connections — opening one again costs the key derivation — and gives back their page
    caches only."""
    with make_vault(tmp_path / "v", kdf_iter=4000) as made:
        made.close()
    with Vault.open(tmp_path / "v", PASSPHRASE, serving=True) as vault:
        import_stream(vault, io.BytesIO(_bundle(300)))
        store = _writer(vault)
        writer = store._conn
        vault.release_memory()
        assert store._conn is writer
        assert sum(1 for _ in vault.iter_memories(MemoryQuery(limit=None))) == 300


def test_the_server_releases_the_tenants_connections_after_an_import_and_an_export(
    tmp_path: Path,
) -> None:
    """Through the routes (a TestClient, then a real uvicorn server): once the import has
    answered, and once the export's last byte is sent, the tenant's writer is a fresh
    connection, so nothing the request bound stays held."""
    import httpx

    with server_home(tmp_path / "server", ("alice",)) as home:
        app = app_for(home)
        key = home.key("alice")
        store = _writer(home.vault("alice"))
        writer = store._conn
        with client(app, key) as http:
            answer = http.post(
                "/v1/brain/import",
                content=_bundle(200),
                headers={"Content-Type": "application/aimem-bundle+json"},
            )
            assert answer.status_code == 200, answer.text
            assert store._conn is not writer
            writer = store._conn
            assert http.get("/v1/brain/export/stream").status_code == 200
        assert store._conn is not writer
        writer = store._conn
        with running(app) as url:
            got = httpx.get(url + "/v1/brain/export", headers={"Authorization": f"Bearer {key}"})
            assert got.status_code == 200
            assert len(orjson.loads(got.content)["chunks"]) == 200
            deadline = time.monotonic() + 10  # the release runs once the response is sent
            while store._conn is writer and time.monotonic() < deadline:
                time.sleep(0.02)
        assert store._conn is not writer
        download = export_download(home.vault("alice"), form="json")
        assert len(orjson.loads(b"".join(download.blocks))["chunks"]) == 200
