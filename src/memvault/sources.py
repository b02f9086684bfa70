"""Open what a user points memvault at: a file, an export directory or a .zip of one.

Zip archives are read in memory, never extracted, and are treated as hostile until proven
otherwise: encrypted entries, absolute or `..` paths, symlinks and entries whose uncompressed
size or compression ratio is out of bounds are refused with the entry named.
"""

from __future__ import annotations

import mmap
import os
import stat
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

#: Limits for archive entries. A real export with a million memories is about 1 GiB.
MAX_ENTRY_BYTES: Final = 4 << 30
MAX_TOTAL_BYTES: Final = 16 << 30
MAX_RATIO: Final = 200
MAX_ENTRIES: Final = 1_000_000
_RATIO_FLOOR: Final = 1 << 20  # small entries may compress arbitrarily well


class SourceError(Exception):
    """A target that cannot be read. `unreadable` means nothing could be validated."""

    def __init__(self, target: str, message: str, *, code: str = "unreadable") -> None:
        super().__init__(f"{target}: {message}")
        self.target = target
        self.message = message
        self.code = code


@dataclass(frozen=True, slots=True)
class Entry:
    """One file inside a target. `name` is relative to the export root."""

    name: str
    display: str
    size: int
    _path: Path | None = None
    _zip: zipfile.ZipFile | None = None
    _info: zipfile.ZipInfo | None = None

    @contextmanager
    def open(self) -> Iterator[Any]:
        """The entry's bytes: a read-only mmap for files, bytes for zip members."""
        if self._path is not None:
            with self._path.open("rb") as handle:
                if self.size == 0:
                    yield b""
                    return
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                try:
                    yield mapped
                finally:
                    mapped.close()
            return
        assert self._zip is not None and self._info is not None
        yield _read_zip_entry(self._zip, self._info, self.display)


@dataclass(slots=True)
class Target:
    """What the user named: its kind ('file', 'directory', 'zip') and the files in it."""

    path: Path
    kind: str
    entries: list[Entry]
    _zip: zipfile.ZipFile | None = None

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()

    def __enter__(self) -> Target:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def find(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


def open_target(path: str | os.PathLike[str]) -> Target:
    """Open a file, directory or zip archive for reading."""
    p = Path(path)
    shown = str(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise SourceError(shown, "no such file or directory", code="not-found") from None
    except PermissionError:
        raise SourceError(shown, "permission denied", code="permission") from None
    except OSError as exc:
        raise SourceError(shown, exc.strerror or str(exc)) from None
    if stat.S_ISDIR(st.st_mode):
        return Target(p, "directory", _directory_entries(p, shown))
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(shown, "not a regular file or directory")
    if not os.access(p, os.R_OK):
        raise SourceError(shown, "permission denied", code="permission")
    if zipfile.is_zipfile(p):
        return _open_zip(p, shown)
    return Target(p, "file", [Entry(p.name, shown, st.st_size, _path=p)])


def _directory_entries(root: Path, shown: str) -> list[Entry]:
    entries = []
    for path in sorted(root.rglob("*.json")):
        if path.is_symlink() or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        entries.append(Entry(rel, f"{shown.rstrip('/')}/{rel}", path.stat().st_size, _path=path))
    return entries


def _open_zip(path: Path, shown: str) -> Target:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceError(shown, f"not a readable zip archive ({exc})", code="bad-zip") from None
    try:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise SourceError(
                shown, f"archive has more than {MAX_ENTRIES} entries", code="zip-limit"
            )
        total = 0
        entries = []
        for info in infos:
            if info.is_dir():
                continue
            where = f"{shown}:{info.filename}"
            _check_zip_entry(info, where)
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise SourceError(
                    where,
                    f"archive expands to more than {MAX_TOTAL_BYTES >> 30} GiB",
                    code="zip-bomb",
                )
            entries.append(Entry(info.filename, where, info.file_size, _zip=archive, _info=info))
    except BaseException:
        archive.close()
        raise
    return Target(path, "zip", _rebase(entries), archive)


def _check_zip_entry(info: zipfile.ZipInfo, where: str) -> None:
    name = info.filename
    pure = PurePosixPath(name.replace("\\", "/"))
    if pure.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise SourceError(where, "absolute path in archive", code="zip-path")
    if ".." in pure.parts:
        raise SourceError(where, "path escapes the archive ('..')", code="zip-path")
    if info.flag_bits & 0x1:
        raise SourceError(
            where, "entry is encrypted; memvault reads unencrypted archives", code="zip-encrypted"
        )
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise SourceError(where, "entry is a symbolic link", code="zip-symlink")
    if info.file_size > MAX_ENTRY_BYTES:
        raise SourceError(
            where,
            f"entry expands to {info.file_size} bytes (limit {MAX_ENTRY_BYTES})",
            code="zip-bomb",
        )
    if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise SourceError(
            where,
            f"compression ratio {info.file_size // max(info.compress_size, 1)}:1 exceeds {MAX_RATIO}:1",
            code="zip-bomb",
        )


def _read_zip_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str) -> bytes:
    # The header's sizes can lie; stop reading at the declared size plus one chunk.
    limit = min(info.file_size, MAX_ENTRY_BYTES)
    chunks = []
    read = 0
    try:
        with archive.open(info) as handle:
            while True:
                chunk = handle.read(1 << 20)
                if not chunk:
                    break
                read += len(chunk)
                if read > limit:
                    raise SourceError(
                        where, "entry is larger than its header declares", code="zip-bomb"
                    )
                chunks.append(chunk)
    except (zipfile.BadZipFile, EOFError, OSError, RuntimeError) as exc:
        raise SourceError(where, f"cannot read archive entry ({exc})", code="bad-zip") from None
    return b"".join(chunks)


def _rebase(entries: list[Entry]) -> list[Entry]:
    """Exports are often zipped with their folder: strip one common leading directory."""
    names = [e.name for e in entries]
    if not names or any("/" not in n for n in names):
        return entries
    prefix = names[0].split("/", 1)[0] + "/"
    if not all(n.startswith(prefix) for n in names):
        return entries
    return [
        Entry(e.name[len(prefix) :], e.display, e.size, e._path, e._zip, e._info) for e in entries
    ]
