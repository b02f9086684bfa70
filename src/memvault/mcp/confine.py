"""The folders an MCP client may make the server read or write (`--allow-dir`): a path is
resolved (symlinks followed, ``..`` removed) and must lie inside one of them. Over HTTP there
are none: a remote caller never names a path on the server's machine."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from memvault.errors import InvalidInput


class PathRefused(InvalidInput):
    """A path outside every allowed folder, or any path where none is allowed."""


class AllowedDirs:
    """The allowed folders, resolved once. Relative paths are taken inside the first."""

    def __init__(self, dirs: Iterable[str | Path] = ()) -> None:
        self.dirs: tuple[Path, ...] = tuple(Path(d).expanduser().resolve() for d in dirs)

    def __bool__(self) -> bool:
        return bool(self.dirs)

    def resolve(self, path: str, field: str) -> Path:
        """`path` made absolute and real; PathRefused unless it is inside an allowed folder."""
        if not self.dirs:
            raise PathRefused(
                f"{field} {path!r} refused: this server reads and writes no files (start it "
                "with --allow-dir DIR, or give the content inline)",
                field,
            )
        given = Path(os.path.expanduser(path))
        absolute = given if given.is_absolute() else self.dirs[0] / given
        real = absolute.resolve()
        for folder in self.dirs:
            if real == folder or real.is_relative_to(folder):
                return real
        allowed = ", ".join(str(d) for d in self.dirs)
        raise PathRefused(
            f"{field} {path!r} refused: {real} is outside the allowed folders ({allowed})",
            field,
        )
