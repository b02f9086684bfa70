"""The files of a vault home, and their owner-only permissions.

Which directory is the home (``$MEMVAULT_HOME``, the platform data directory) is decided by
`memvault.local`, which front ends use; the names of its variables are here because the errors
below name them. The home is created with mode 0700; the database file and its
``-wal``/``-shm`` companions are created with mode 0600 (see `private_database`). Modes are
given where each file is made, never through the umask: the umask is process-wide, and a
server's other threads create files meanwhile.
"""

from __future__ import annotations

import contextlib
import os
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
    "private_database",
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


def private_database(path: Path) -> None:
    """Make the database file at `path` owner-only (0600) before SQLite opens it, creating it
    empty when absent (SQLite takes an empty file for a new database).

    SQLite creates the ``-wal`` and ``-shm`` files (and any rollback journal) with the mode of
    their database file, so a 0600 database keeps them private from their first byte without
    touching the process-wide umask. A path SQLite cannot open either (no such directory) is
    left for SQLite to report.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        restrict_file(path)
    except OSError:
        pass
    else:
        os.close(fd)


def restrict_file(path: Path) -> None:
    """chmod 0600 if the file exists and is more open (belt and braces after creation)."""
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_mode & 0o077:
            path.chmod(FILE_MODE)
