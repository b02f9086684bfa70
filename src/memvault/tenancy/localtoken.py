"""A personal vault's local token: the one API key that serves the vault over HTTP on this
machine, kept in a file in the vault's home readable by its owner only (as Jupyter keeps its
token). Whoever can read the vault's files is the owner; the file is what a browser or a local
agent is given. It is made on first use; removing the file (`revoke`) makes the next use
create a new one.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Final

from memvault.errors import VaultNotFound
from memvault.paths import FILE_MODE, database_path, restrict_file
from memvault.store.base import StoreFull
from memvault.tenancy.keys import new_api_key

__all__ = [
    "LOCAL_TOKEN_ID",
    "LOCAL_TOKEN_NAME",
    "local_token",
    "local_token_path",
    "new_local_token",
]

LOCAL_TOKEN_NAME: Final = "local-token"
#: The id the local token is listed under.
LOCAL_TOKEN_ID: Final = "local"


def local_token_path(home: Path) -> Path:
    return home / LOCAL_TOKEN_NAME


#: What a write to a full disk (or past a quota or a file size limit) fails with.
_FULL: Final = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _write(path: Path, token: str) -> None:
    # Created owner-only from its first byte (O_CREAT with mode 0600), replaced atomically.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        try:
            os.write(fd, (token + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.errno in _FULL:
            raise StoreFull(
                f"the disk holding {path.parent} is full ({exc.strerror}): the local token "
                f"could not be written to {path}; nothing was changed. Free some space on that "
                "filesystem (`df` shows it) and try again"
            ) from None
        raise
    restrict_file(path)


def local_token(home: Path) -> str:
    """The local token of the vault in `home`, made (and saved, mode 0600) when there is
    none. VaultNotFound when `home` holds neither a vault nor a local token (a home kept
    only for the token of a vault in PostgreSQL holds the token alone)."""
    path = local_token_path(home)
    if not database_path(home).is_file() and not path.is_file():
        raise VaultNotFound(f"no vault at {home}: create one with `memvault init`")
    try:
        text = path.read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        text = ""
    if text:
        restrict_file(path)
        return text
    return new_local_token(home)


def new_local_token(home: Path) -> str:
    """Replace the local token of the vault in `home` with a new one (the old stops working)."""
    token = new_api_key()
    _write(local_token_path(home), token)
    return token
