"""Making a store: the one place that names a backend.

The vault and every front end get their store from here (`create_store`, `open_store`), so none
of them constructs a backend class or knows how it keeps its files. Today there is one backend,
the encrypted SQLite file in a vault home (`memvault.store.sqlite`); a second one (PostgreSQL,
bound to a tenant) is chosen here by its location, and nowhere else changes.

PostgreSQL is chosen by ``$MEMVAULT_DATABASE_URL`` (``postgresql://…``): then `create_store` and
`open_store` make a store of the tenant ``$MEMVAULT_TENANT`` (default ``owner``) in that
database, and the home and passphrase are not used (docs/postgres.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from memvault.errors import InvalidInput, VaultExists, VaultNotFound
from memvault.paths import database_path, ensure_home
from memvault.store.base import Store

__all__ = [
    "DATABASE_URL_ENV",
    "TENANT_ENV",
    "create_database_store",
    "create_store",
    "database_location",
    "database_url",
    "migrate_database",
    "open_database_store",
    "open_store",
    "require_passphrase",
]

#: A PostgreSQL URL: vaults live in that database, one per tenant.
DATABASE_URL_ENV: Final = "MEMVAULT_DATABASE_URL"
#: The tenant a store of the database is bound to (default: ``owner``, a personal vault's).
TENANT_ENV: Final = "MEMVAULT_TENANT"


def database_url() -> str | None:
    """``$MEMVAULT_DATABASE_URL`` when set (InvalidInput unless it is a PostgreSQL URL)."""
    url = os.environ.get(DATABASE_URL_ENV, "").strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput(
            f"{DATABASE_URL_ENV} must be a postgresql:// URL (the only database server "
            "memvault keeps vaults in)",
            DATABASE_URL_ENV,
        )
    return url


def database_location() -> str:
    """Where ``$MEMVAULT_DATABASE_URL`` puts the vault, for messages: the tenant and the
    URL without its password."""
    from memvault.store.postgres import redact

    url = database_url()
    return "" if url is None else f"tenant {_tenant(None)!r} in {redact(url)}"


def _tenant(tenant: str | None) -> str:
    from memvault.store.postgres import DEFAULT_TENANT

    return tenant or os.environ.get(TENANT_ENV, "").strip() or DEFAULT_TENANT


def create_database_store(url: str, tenant: str | None = None, **options: Any) -> Store:
    """A new, empty vault of `tenant` (default ``$MEMVAULT_TENANT``, else ``owner``) in the
    PostgreSQL database at `url`, migrated first. Options: ``server_key`` (a
    `memvault.store.serverkey.ServerKey`; default from the environment), ``allow_superuser``.
    Raises VaultExists (the tenant has a vault), StoreError."""
    from memvault.store.postgres import PostgresStore

    return PostgresStore.create(url, _tenant(tenant), **options)


def open_database_store(url: str, tenant: str | None = None, **options: Any) -> Store:
    """The vault of `tenant` in the PostgreSQL database at `url` (pending migrations run).
    Raises VaultNotFound, StoreError."""
    from memvault.store.postgres import PostgresStore

    return PostgresStore.open(url, _tenant(tenant), **options)


def migrate_database(url: str, *, allow_superuser: bool | None = None) -> tuple[int, int]:
    """Migrate the PostgreSQL database at `url` as the role it names: (before, after)."""
    from memvault.store.postgres import migrate

    return migrate(url, allow_superuser=allow_superuser)


def database_connection(url: str, *, allow_superuser: bool | None = None) -> Any:
    """A connection to the database at `url` (for admin tables beside the stores, such as a
    server's tenant registry) whose role row-level security binds: a superuser or BYPASSRLS
    role is refused unless allowed (`allow_superuser`, else ``$MEMVAULT_ALLOW_SUPERUSER``)."""
    from memvault.store.postgres import connect_checked

    return connect_checked(url, allow_superuser=allow_superuser)


def database_connection_lost(exc: BaseException) -> bool:
    """Whether `exc` (a driver error) means the database went away or cannot be reached (a
    restart): what was sent did not commit, and the same request may succeed in a moment."""
    import psycopg

    from memvault.store.postgres import _connection_lost

    return isinstance(exc, psycopg.Error) and _connection_lost(exc)


def redact_database_url(url: str) -> str:
    """The database URL without its password, for messages."""
    from memvault.store.postgres import redact

    return redact(url)


def require_passphrase(passphrase: str) -> str:
    """`passphrase`, or InvalidInput on the field "passphrase" when it is empty."""
    if not passphrase:
        raise InvalidInput("a passphrase is required; the vault is encrypted with it", "passphrase")
    return passphrase


def create_store(
    home: Path, passphrase: str, *, kdf_iter: int | None = None, serving: bool = False
) -> Store:
    """A new, empty store for a vault in the directory `home` (made 0700 when absent),
    encrypted with `passphrase` (`kdf_iter` key-derivation rounds; the backend's default when
    None). Raises VaultExists (nothing touched), HomeNotWritable, InvalidInput, StoreError.
    With ``$MEMVAULT_DATABASE_URL`` set, the tenant's vault in that database instead.
    `serving`: as for `open_store`."""
    from memvault.store.sqlite import CACHE_KIB, SERVER_CACHE_KIB, SQLiteStore

    url = database_url()
    if url is not None:
        return create_database_store(url)

    require_passphrase(passphrase)
    if database_path(home).exists():
        raise VaultExists(f"a vault already exists at {home}; it was left untouched")
    ensure_home(home)
    cache_kib = SERVER_CACHE_KIB if serving else CACHE_KIB
    store = SQLiteStore.create(
        database_path(home), passphrase, kdf_iter=kdf_iter, cache_kib=cache_kib
    )
    if serving:
        store.set_recall_cache_budget(recall_cache_kib())
    return store


def open_store(home: Path, passphrase: str, *, serving: bool = False) -> Store:
    """The store of the existing vault in the directory `home`, unlocked with `passphrase`
    (pending schema migrations run). Raises VaultNotFound (before the passphrase is looked
    at), InvalidInput (an empty passphrase), WrongPassphrase, StoreError. With
    ``$MEMVAULT_DATABASE_URL`` set, the tenant's vault in that database instead.

    `serving`: the vault stays open in a server for its whole life, read a window at a time
    by many requests, so each connection's cache is held small (SQLite: `SERVER_CACHE_KIB`
    instead of the `CACHE_KIB` bulk imports gain from)."""
    from memvault.store.sqlite import CACHE_KIB, SERVER_CACHE_KIB, SQLiteStore

    url = database_url()
    if url is not None:
        return open_database_store(url)

    path = database_path(home)
    if not path.is_file():
        raise VaultNotFound(
            f"no vault at {home} (create one with `memvault init`, or set MEMVAULT_HOME)"
        )
    cache_kib = SERVER_CACHE_KIB if serving else CACHE_KIB
    store = SQLiteStore.open(path, require_passphrase(passphrase), cache_kib=cache_kib)
    if serving:
        store.set_recall_cache_budget(recall_cache_kib())
    return store


#: The environment variable that sets a served vault's recall cache budget (MiB; 0: none).
RECALL_CACHE_ENV = "MEMVAULT_RECALL_CACHE_MIB"


def recall_cache_kib() -> int:
    """A served vault's budget (KiB) for keeping recall's bit index cached between
    whole-vault vector searches: ``$MEMVAULT_RECALL_CACHE_MIB`` MiB, else
    `memvault.store.sqlite.RECALL_CACHE_KIB`. Raises InvalidInput for a value that is not a
    whole number of MiB, 0 or more."""
    from memvault.store.sqlite import RECALL_CACHE_KIB

    text = os.environ.get(RECALL_CACHE_ENV, "").strip()
    if not text:
        return RECALL_CACHE_KIB
    if not text.isdigit():
        raise InvalidInput(
            f"{RECALL_CACHE_ENV}={text!r} is not a whole number of MiB (0 keeps recall's "
            "bit index uncached)",
            RECALL_CACHE_ENV,
        )
    return int(text) * 1024
