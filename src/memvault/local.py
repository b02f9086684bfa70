"""Opening a vault on this machine: where its home is, where its passphrase comes from.

What a front end running as a local user (the CLI, later the HTTP server) needs before it can
hand the `Vault` a store, kept out of the vault itself, which reads no environment:

- the home: the `home` argument, else ``$MEMVAULT_HOME``, else the platform's user data
  directory (``platformdirs.user_data_dir("memvault")``, e.g. ``~/.local/share/memvault``);
- the passphrase: the `passphrase` argument, else the first line of `passphrase_file`, else
  ``$MEMVAULT_PASSPHRASE``, else the front end's `prompt` — asked only when standard input is
  a terminal, so that a command run from a script fails at once instead of waiting forever.

A missing vault is reported before the passphrase is asked for (and an existing one before a
new passphrase is), so nobody types a passphrase for nothing. A passphrase that cannot be had
is an `InvalidInput` on the field ``"passphrase"``: a usage error for the CLI.

With ``$MEMVAULT_DATABASE_URL`` set, the vault is ``$MEMVAULT_TENANT``'s in that PostgreSQL
database instead, and neither a home nor a passphrase is looked for (docs/postgres.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from memvault.errors import InvalidInput, VaultExists, VaultNotFound
from memvault.paths import HOME_ENV, PASSPHRASE_ENV, database_path

if TYPE_CHECKING:
    # The vault (SQLCipher, the store) loads only when one is opened.
    from memvault.store.base import Store
    from memvault.vault import Vault

__all__ = [
    "HOME_ENV",
    "PASSPHRASE_ENV",
    "PASSPHRASE_FIELD",
    "Prompt",
    "existing_home",
    "find_home",
    "free_home",
    "init_vault",
    "interactive",
    "open_vault",
    "read_passphrase_file",
    "resolve_passphrase",
]

#: The field every passphrase error names (`InvalidInput.field`).
PASSPHRASE_FIELD = "passphrase"

#: Asks for the passphrase: called with ``new=True`` when creating a vault (the front end asks
#: twice). Returns it, or raises to give up.
Prompt = Callable[[bool], str]


def find_home(home: Path | str | None = None) -> Path:
    """The vault home: `home` if given, else ``$MEMVAULT_HOME``, else the platform data dir."""
    if home is not None:
        return Path(home).expanduser()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("memvault"))


def existing_home(home: Path | str | None = None) -> Path:
    """`find_home`, which must hold a vault (VaultNotFound otherwise, saying how to make one)."""
    root = find_home(home)
    if not database_path(root).is_file():
        raise VaultNotFound(
            f"no vault at {root}: create one with `memvault init` (or point --home or "
            f"{HOME_ENV} at an existing one)"
        )
    return root


def free_home(home: Path | str | None = None) -> Path:
    """`find_home`, which must hold no vault yet (VaultExists otherwise; nothing touched)."""
    root = find_home(home)
    if database_path(root).exists():
        raise VaultExists(f"a vault already exists at {root}; it was left untouched")
    return root


def interactive() -> bool:
    """Whether there is a terminal to ask for the passphrase on."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def read_passphrase_file(path: Path | str) -> str:
    """The first line of `path`; InvalidInput naming the file when it cannot be read, is not
    UTF-8 or its first line is empty."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(
            f"cannot read the passphrase file {path}: {exc.strerror or exc}", PASSPHRASE_FIELD
        ) from None
    except UnicodeDecodeError:
        raise InvalidInput(
            f"the passphrase file {path} is not UTF-8 text", PASSPHRASE_FIELD
        ) from None
    passphrase = text.splitlines()[0] if text else ""
    if not passphrase:
        raise InvalidInput(
            f"the passphrase file {path} is empty (the first line is read)", PASSPHRASE_FIELD
        )
    return passphrase


def resolve_passphrase(
    passphrase: str | None = None,
    *,
    passphrase_file: Path | str | None = None,
    prompt: Prompt | None = None,
    new: bool = False,
) -> str:
    """The passphrase from the first source that has one: the argument, the file,
    ``$MEMVAULT_PASSPHRASE``, the prompt (only with a terminal on standard input). With none:
    InvalidInput that says how to give one."""
    if passphrase:
        return passphrase
    if passphrase_file is not None:
        return read_passphrase_file(passphrase_file)
    from_env = os.environ.get(PASSPHRASE_ENV)
    if from_env:
        return from_env
    if prompt is not None and interactive():
        return prompt(new)
    raise InvalidInput(
        "no passphrase: the vault is encrypted with one. Give --passphrase-file FILE or set "
        f"{PASSPHRASE_ENV} (there is no terminal to ask on)",
        PASSPHRASE_FIELD,
    )


def open_vault(
    home: Path | str | None = None,
    passphrase: str | None = None,
    *,
    passphrase_file: Path | str | None = None,
    prompt: Prompt | None = None,
) -> Vault:
    """Open the vault found as `find_home` says, unlocked with the passphrase found as
    `resolve_passphrase` says. Raises VaultNotFound (before any prompt), InvalidInput (no
    passphrase), WrongPassphrase, StoreError."""
    from memvault.vault import Vault

    store = _database_store(create=False)
    if store is not None:
        return _vault_over(store, Vault, create=False)
    root = existing_home(home)
    secret = resolve_passphrase(passphrase, passphrase_file=passphrase_file, prompt=prompt)
    return Vault.open(root, secret)


def init_vault(
    home: Path | str | None = None,
    passphrase: str | None = None,
    *,
    passphrase_file: Path | str | None = None,
    prompt: Prompt | None = None,
    owner_id: str | None = None,
    did: str | None = None,
    kdf_iter: int | None = None,
) -> Vault:
    """Create a vault where `find_home` says, encrypted with the passphrase found as
    `resolve_passphrase` says (the prompt is asked for a new one). Raises VaultExists (before
    any prompt; nothing touched), InvalidInput, HomeNotWritable."""
    from memvault.vault import Vault

    store = _database_store(create=True)
    if store is not None:
        return _vault_over(store, Vault, create=True, owner_id=owner_id, did=did)
    root = free_home(home)
    secret = resolve_passphrase(
        passphrase, passphrase_file=passphrase_file, prompt=prompt, new=True
    )
    return Vault.init(root, secret, owner_id=owner_id, did=did, kdf_iter=kdf_iter)


def _database_store(*, create: bool) -> Store | None:
    """With ``$MEMVAULT_DATABASE_URL`` set, the store of ``$MEMVAULT_TENANT``'s vault in that
    database (a new one with `create`): there the home and the passphrase are not used
    (docs/postgres.md). None without it."""
    from memvault.store.factory import (
        create_database_store,
        database_url,
        open_database_store,
    )

    url = database_url()
    if url is None:
        return None
    return create_database_store(url) if create else open_database_store(url)


def _vault_over(store: Store, vault: type[Vault], *, create: bool, **owner: Any) -> Vault:
    try:
        return vault.create(store, **owner) if create else vault(store)
    except BaseException:
        store.close()
        raise
