"""A served vault's page cache: a server keeps each tenant's vault open for its whole life,
a writer and a pool of readers per tenant, so each connection's SQLite page cache is held to
`SERVER_CACHE_KIB`; the command line's vaults (bulk imports) keep the larger `CACHE_KIB`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memvault.store.sqlite import BULK_CACHE_KIB, CACHE_KIB, SERVER_CACHE_KIB, SQLiteStore
from memvault.tenancy import Principal, Tenants
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault

SERVER_KEY = "0123456789abcdef" * 4


def _cache_sizes(store: Any) -> tuple[int, int]:
    """(the writer's, a pooled reader's) ``PRAGMA cache_size`` (negative: KiB)."""
    assert isinstance(store, SQLiteStore)
    (writer,) = store.execute_raw("PRAGMA cache_size")[0]
    reader = store._reader()  # a pooled read connection, as a read during a write gets
    try:
        (size,) = reader.execute("PRAGMA cache_size").fetchone()
    finally:
        store._idle_readers.append(reader)
    return int(writer), int(size)


def test_a_vault_opened_for_the_command_line_keeps_the_bulk_import_cache(tmp_path: Path) -> None:
    make_vault(tmp_path / "v").close()
    with Vault.open(tmp_path / "v", PASSPHRASE) as vault:
        assert _cache_sizes(vault.store) == (-CACHE_KIB, -CACHE_KIB)


def test_a_served_vault_holds_every_connection_to_the_server_cache(tmp_path: Path) -> None:
    make_vault(tmp_path / "v").close()
    with Vault.open(tmp_path / "v", PASSPHRASE, serving=True) as vault:
        assert _cache_sizes(vault.store) == (-SERVER_CACHE_KIB, -SERVER_CACHE_KIB)
        # A bulk write never raises a served vault's cache above its own size, and leaves it
        # at that size after.
        store = vault.store
        assert isinstance(store, SQLiteStore)
        with store.cache_limit(BULK_CACHE_KIB):
            assert store.execute_raw("PRAGMA cache_size") == [(-SERVER_CACHE_KIB,)]
        assert store.execute_raw("PRAGMA cache_size") == [(-SERVER_CACHE_KIB,)]


def test_a_server_opens_each_tenant_vault_with_the_server_cache(tmp_path: Path) -> None:
    with Tenants.open(tmp_path / "server", SERVER_KEY) as tenants:
        _, api_key = tenants.create("alice")
        principal: Principal = tenants.authenticate(api_key)
        assert _cache_sizes(tenants.session(principal).store) == (
            -SERVER_CACHE_KIB,
            -SERVER_CACHE_KIB,
        )


def test_a_personal_vault_served_holds_the_server_cache(tmp_path: Path) -> None:
    make_vault(tmp_path / "v").close()
    with Tenants.personal(tmp_path / "v", PASSPHRASE) as tenants:
        vault = tenants.session(tenants.authenticate(tenants.local_token()))
        assert _cache_sizes(vault.store) == (-SERVER_CACHE_KIB, -SERVER_CACHE_KIB)
