"""The files of a vault home, and their owner-only permissions.

Which directory is the home (``$MEMVAULT_HOME``, the platform data directory) is decided by
`memvault.local`, which front ends use; the names of its variables are here because the errors
below name them. The home is created with mode 0700; the database file and its
``-wal``/``-shm`` companions are created with mode 0600 (see `private_umask`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from memvault.errors import HomeNotWritable

__all__ = [
    "DB_NAME",
    "DIR_MODE",
    "FILE_MODE",
    "HOME_ENV",
    "PARAMS_NAME",
    "PASSPHRASE_ENV",
    "database_path",
    "ensure_home",
    "params_path",
    "private_umask",
    "restrict_file",
]

HOME_ENV: Final = "MEMVAULT_HOME"
#: The vault passphrase, when not given otherwise.
PASSPHRASE_ENV: Final = "MEMVAULT_PASSPHRASE"
DB_NAME: Final = "vault.db"
#: Plain-text, non-secret parameters needed before the database can be decrypted (the KDF
#: iteration count); see docs/vault.md.
PARAMS_NAME: Final = "vault.params.json"
DIR_MODE: Final = 0o700
FILE_MODE: Final = 0o600


def database_path(home: Path) -> Path:
    return home / DB_NAME


def params_path(home: Path) -> Path:
    return home / PARAMS_NAME


def ensure_home(home: Path) -> Path:
    """Create the home (0700, parents as needed) and check that it can be written.

    Raises HomeNotWritable naming the path when it cannot be created or written.
    """
    try:
        home.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    except FileExistsError:
        raise HomeNotWritable(
            f"vault home {home} exists and is not a directory (set {HOME_ENV} to another path)"
        ) from None
    except OSError as exc:
        raise HomeNotWritable(
            f"cannot create the vault home {home}: {exc.strerror or exc} "
            f"(set {HOME_ENV} to a writable directory)"
        ) from None
    if not home.is_dir():
        raise HomeNotWritable(f"vault home {home} is not a directory")
    if not os.access(home, os.W_OK | os.X_OK):
        raise HomeNotWritable(
            f"vault home {home} is not writable (set {HOME_ENV} to a writable directory)"
        )
    return home


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Create files as owner-only (umask 077) for the duration of the block.

    SQLite creates the ``-wal`` and ``-shm`` files itself, with the process umask, so the
    umask — not a chmod afterwards — is what keeps them private from their first byte. The
    umask is process-wide: keep the block short (opening a database).
    """
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


def restrict_file(path: Path) -> None:
    """chmod 0600 if the file exists and is more open (belt and braces after creation)."""
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_mode & 0o077:
            path.chmod(FILE_MODE)
