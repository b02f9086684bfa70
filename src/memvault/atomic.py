"""Writing a file atomically: the bytes go to a temporary name beside the target, are flushed
to disk, then renamed over it — an interrupted or failed write leaves the target as it was and
no temporary file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO

__all__ = ["atomic_file", "replace_file", "write_atomic"]


@contextlib.contextmanager
def atomic_file(
    target: str | os.PathLike[str],
    *,
    mode: int | None = None,
    buffering: int = -1,
    guard: Callable[[], contextlib.AbstractContextManager[object]] | None = None,
) -> Iterator[BinaryIO]:
    """A binary file to write `target`'s new content to; it replaces `target` when the block
    ends without an error. `mode`: the permissions it gets (else the temporary file's 0600).
    `guard`: entered around the rename alone (it may refuse it by raising)."""
    path = Path(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb", buffering=buffering) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        with guard() if guard is not None else contextlib.nullcontext():
            os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(target: str | os.PathLike[str], data: bytes, *, mode: int | None = None) -> None:
    """`data` as `target`'s whole content, atomically (`atomic_file`)."""
    with atomic_file(target, mode=mode) as handle:
        handle.write(data)


def replace_file(
    target: Path, write: Callable[[IO[bytes]], Any], *, like: Path | None = None
) -> None:
    """Write `target` through `write`, atomically (`atomic_file`). A new file is 0600; a
    replaced one keeps its mode (or takes that of `like`, the file it is made from)."""
    mode = 0o600
    for existing in (target, like):
        if existing is not None and existing.exists():
            mode = existing.stat().st_mode & 0o777
            break
    with atomic_file(target, mode=mode) as handle:
        write(handle)
