"""Removing a tenant vault's files for good: each file (the database, its write-ahead log and
shared memory, its parameter file) is overwritten with zeros, flushed to disk, and unlinked,
then the directory is removed.

Overwriting in place is what a filesystem allows; on copy-on-write filesystems and SSDs the old
blocks may survive elsewhere, which is why a tenant's vault key is also deleted from the
registry (crypto-shredding: a surviving block is ciphertext nobody can decrypt).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

__all__ = ["wipe_directory", "wipe_file"]

_BLOCK: Final = 1 << 20


def wipe_file(path: Path) -> int:
    """Overwrite `path` with zeros, fsync, unlink. Returns the bytes overwritten (0 when the
    file is absent)."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return 0
    try:
        size = os.fstat(fd).st_size
        zeros = bytes(min(size, _BLOCK))
        done = 0
        while done < size:
            done += os.write(fd, zeros[: min(_BLOCK, size - done)])
        os.fsync(fd)
    finally:
        os.close(fd)
    path.unlink()
    return size


def wipe_directory(directory: Path) -> int:
    """`wipe_file` every file under `directory`, then remove it and its subdirectories.
    Returns how many files were removed."""
    if not directory.is_dir():
        return 0
    removed = 0
    for root, dirs, files in os.walk(directory, topdown=False):
        for name in files:
            wipe_file(Path(root) / name)
            removed += 1
        for name in dirs:
            (Path(root) / name).rmdir()
    directory.rmdir()
    return removed
