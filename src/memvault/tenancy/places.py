"""Where a server's tenant vaults live: the one thing `Tenants` asks a backend.

- `HomeVaults`: a server home's directory, one encrypted SQLite vault per tenant under
  ``vaults/<owner id>/``, opened with a random key the registry keeps wrapped under the
  server key; erasing deletes the key, then overwrites and removes the files.
- `DatabaseVaults`: one PostgreSQL database, each tenant's vault a store bound to the
  tenant's owner id (`memvault.store.factory`), its secrets sealed with the server key by
  the store; erasing is the store's `erase_everything`, then the removal of the tenant's
  rows from every table that has a ``tenant`` column (found in the catalog, so a table added
  later is covered), then `residue`: a count over every such table, and over the registry,
  that must find nothing of the tenant.

`Tenants` calls `forget_first` before the registry forgets the tenant and `forget_after`
after it: a database erases the rows first (an interrupted erasure is finished by erasing
again, the tenant still being listed), a home deletes the key first (the files are
unreadable from then on, whatever happens to the wipe).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from memvault.paths import ensure_home
from memvault.tenancy.keys import ServerKey, new_vault_key
from memvault.tenancy.registry import TenantRow
from memvault.tenancy.wipe import wipe_directory
from memvault.vault import Vault

if TYPE_CHECKING:
    from memvault.tenancy.pgregistry import PgRegistry

__all__ = ["ORPHAN_AGE", "TENANT_KDF_ITER", "DatabaseVaults", "HomeVaults", "VaultPlace", "residue"]

#: The KDF iterations of a tenant vault file. Its key is 256 random bits, which no number of
#: PBKDF2 rounds makes harder to guess; the rounds would only slow every connection the store
#: opens (its writer and each reader).
TENANT_KDF_ITER: Final = 1
#: Seconds after which a vault directory no tenant names is an interrupted erasure's leftover.
ORPHAN_AGE: Final = 600.0
_VAULTS: Final = "vaults"


class VaultPlace(Protocol):
    """Where tenant vaults are made, opened and erased."""

    #: What kind of place, for messages and JSON: "server-home" or "database".
    kind: str

    @property
    def location(self) -> str:
        """Where, for messages (a path, or a URL without its password)."""
        ...

    def create(self, owner_id: str) -> tuple[Vault, bytes]:
        """A new, empty vault of `owner_id`, and what the registry keeps to open it again."""
        ...

    def discard(self, owner_id: str) -> None:
        """Remove a vault just made whose tenant could not be registered (it is closed)."""
        ...

    def open(self, row: TenantRow) -> Vault:
        """The vault of a registered tenant."""
        ...

    def forget_first(self, row: TenantRow) -> int:
        """Erase what goes before the registry forgets the tenant (its vault is closed)."""
        ...

    def forget_after(self, row: TenantRow) -> int:
        """Erase what goes after; the number of files or rows removed in all."""
        ...

    def sweep(self, known: set[str]) -> None:
        """Remove what an interrupted erasure left of owners not in `known`."""
        ...


class HomeVaults:
    """Tenant vaults as encrypted SQLite files in a server home."""

    kind = "server-home"

    def __init__(self, home: Path, key: ServerKey) -> None:
        self._home = home
        self._key = key

    @property
    def location(self) -> str:
        return str(self._home)

    def _dir(self, owner_id: str) -> Path:
        return self._home / _VAULTS / owner_id

    def create(self, owner_id: str) -> tuple[Vault, bytes]:
        secret = new_vault_key()
        home = self._dir(owner_id)
        ensure_home(home.parent)
        vault = Vault.init(
            home, secret, owner_id=owner_id, kdf_iter=TENANT_KDF_ITER, serving=True
        )  # open for the server's life: small caches
        return vault, self._key.wrap(secret, owner_id)

    def discard(self, owner_id: str) -> None:
        wipe_directory(self._dir(owner_id))

    def open(self, row: TenantRow) -> Vault:
        return Vault.open(
            self._dir(row.owner_id),
            self._key.unwrap(row.wrapped_key, row.owner_id),
            serving=True,  # open for the server's life: small caches
        )

    def forget_first(self, row: TenantRow) -> int:
        return 0

    def forget_after(self, row: TenantRow) -> int:
        return wipe_directory(self._dir(row.owner_id))

    def sweep(self, known: set[str]) -> None:
        """Only directories untouched for `ORPHAN_AGE` seconds: a tenant being created right
        now in another process has its directory a moment before its registry row."""
        vaults = self._home / _VAULTS
        if not vaults.is_dir():
            return
        for directory in vaults.iterdir():
            if directory.name in known or not directory.is_dir():
                continue
            if time.time() - directory.stat().st_mtime > ORPHAN_AGE:
                wipe_directory(directory)


def tenant_tables(url: str, *, allow_superuser: bool | None = None) -> list[str]:
    """Every table of the database's schema with a ``tenant`` column, the registry's left out
    (they hold the tenants' names, not their rows)."""
    from memvault.store.factory import database_connection as connect_checked
    from memvault.tenancy.pgregistry import REGISTRY_TABLES

    with connect_checked(url, allow_superuser=allow_superuser) as conn:
        rows = conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
            "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') "
            "AND a.attname = 'tenant' AND NOT a.attisdropped ORDER BY c.relname"
        ).fetchall()
    return [str(r[0]) for r in rows if r[0] not in REGISTRY_TABLES]


def residue(
    url: str, registry: PgRegistry, row: TenantRow, *, allow_superuser: bool | None = None
) -> dict[str, int]:
    """What the database still holds of the tenant `row`: rows per table, for every table
    with a ``tenant`` column (read with the tenant's own setting, which row-level security
    requires) and the registry's tenants and tokens. Empty after its erasure."""
    from psycopg import sql

    from memvault.store.factory import database_connection as connect_checked

    found: dict[str, int] = {}
    with connect_checked(url, allow_superuser=allow_superuser) as conn, conn.transaction():
        conn.execute("SELECT set_config('memvault.tenant', %s, true)", (row.owner_id,))
        for table in tenant_tables(url, allow_superuser=allow_superuser):
            query = sql.SQL("SELECT count(*) FROM {} WHERE tenant = %s").format(
                sql.Identifier(table)
            )
            count = conn.execute(query, (row.owner_id,)).fetchone()
            if count and count[0]:
                found[table] = int(count[0])
    if registry.get_tenant(row.name) is not None:
        found["server_tenants"] = 1
    tokens = len(registry.tokens(row.name))
    if tokens:
        found["server_tokens"] = tokens
    return found


class DatabaseVaults:
    """Tenant vaults as stores bound to each tenant's owner id in one PostgreSQL database."""

    kind = "database"

    def __init__(
        self,
        url: str,
        key: ServerKey,
        registry: PgRegistry,
        *,
        allow_superuser: bool | None = None,
    ) -> None:
        self._url = url
        self._key = key
        self._registry = registry
        self._allow = allow_superuser

    @property
    def location(self) -> str:
        from memvault.store.factory import redact_database_url as redact

        return redact(self._url)

    def _options(self) -> dict[str, object]:
        return {"server_key": self._key.store_key, "allow_superuser": self._allow}

    def create(self, owner_id: str) -> tuple[Vault, bytes]:
        from memvault.store.factory import create_database_store

        store = create_database_store(self._url, owner_id, **self._options())
        try:
            return Vault.create(store, owner_id=owner_id), b""
        except BaseException:
            store.close()
            self.discard(owner_id)
            raise

    def discard(self, owner_id: str) -> None:
        self._delete_rows(owner_id)

    def open(self, row: TenantRow) -> Vault:
        from memvault.store.factory import open_database_store

        store = open_database_store(self._url, row.owner_id, **self._options())
        try:
            return Vault(store)
        except BaseException:
            store.close()
            raise

    def _delete_rows(self, owner_id: str) -> None:
        from psycopg import sql

        from memvault.store.factory import database_connection as connect_checked

        tables = tenant_tables(self._url, allow_superuser=self._allow)
        with connect_checked(self._url, allow_superuser=self._allow) as conn, conn.transaction():
            conn.execute("SELECT set_config('memvault.tenant', %s, true)", (owner_id,))
            for table in tables:
                query = sql.SQL("DELETE FROM {} WHERE tenant = %s").format(sql.Identifier(table))
                conn.execute(query, (owner_id,))

    def forget_first(self, row: TenantRow) -> int:
        """The store's `erase_everything` (memories, conversations, recall, AIMEM state),
        then every row left with the tenant's id (owner, keys, settings, audit log)."""
        from memvault.errors import VaultNotFound
        from memvault.store.factory import open_database_store

        try:
            store = open_database_store(self._url, row.owner_id, **self._options())
        except VaultNotFound:
            pass  # an interrupted erasure got this far: its rows go below
        else:
            try:
                store.erase_everything()
            finally:
                store.close()
        self._delete_rows(row.owner_id)
        return 0  # no file: the count of files removed stays 0

    def forget_after(self, row: TenantRow) -> int:
        """Check that nothing of the tenant is left (StoreError naming the tables if not)."""
        from memvault.store.base import StoreError

        left = residue(self._url, self._registry, row, allow_superuser=self._allow)
        if left:
            listed = ", ".join(f"{table} ({count})" for table, count in sorted(left.items()))
            raise StoreError(
                f"erasing tenant {row.name!r} left rows of it in {self.location}: {listed}; "
                "erase it again"
            )
        return 0

    def sweep(self, known: set[str]) -> None:
        """Nothing: rows are erased before the registry forgets their tenant, so an
        interrupted erasure leaves a listed tenant to erase again, never unnamed rows."""
