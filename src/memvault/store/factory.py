"""Making a store: the one place that names a backend.

The vault and every front end get their store from here (`create_store`, `open_store`), so none
of them constructs a backend class or knows how it keeps its files. Today there is one backend,
the encrypted SQLite file in a vault home (`memvault.store.sqlite`); a second one (PostgreSQL,
bound to a tenant) is chosen here by its location, and nowhere else changes.
"""

from __future__ import annotations

from pathlib import Path

from memvault.errors import InvalidInput, VaultExists, VaultNotFound
from memvault.paths import database_path, ensure_home
from memvault.store.base import Store

__all__ = ["create_store", "open_store", "require_passphrase"]


def require_passphrase(passphrase: str) -> str:
    """`passphrase`, or InvalidInput on the field "passphrase" when it is empty."""
    if not passphrase:
        raise InvalidInput("a passphrase is required; the vault is encrypted with it", "passphrase")
    return passphrase


def create_store(home: Path, passphrase: str, *, kdf_iter: int | None = None) -> Store:
    """A new, empty store for a vault in the directory `home` (made 0700 when absent),
    encrypted with `passphrase` (`kdf_iter` key-derivation rounds; the backend's default when
    None). Raises VaultExists (nothing touched), HomeNotWritable, InvalidInput, StoreError."""
    from memvault.store.sqlite import SQLiteStore

    require_passphrase(passphrase)
    if database_path(home).exists():
        raise VaultExists(f"a vault already exists at {home}; it was left untouched")
    ensure_home(home)
    return SQLiteStore.create(database_path(home), passphrase, kdf_iter=kdf_iter)


def open_store(home: Path, passphrase: str) -> Store:
    """The store of the existing vault in the directory `home`, unlocked with `passphrase`
    (pending schema migrations run). Raises VaultNotFound (before the passphrase is looked
    at), InvalidInput (an empty passphrase), WrongPassphrase, StoreError."""
    from memvault.store.sqlite import SQLiteStore

    path = database_path(home)
    if not path.is_file():
        raise VaultNotFound(
            f"no vault at {home} (create one with `memvault init`, or set MEMVAULT_HOME)"
        )
    return SQLiteStore.open(path, require_passphrase(passphrase))
