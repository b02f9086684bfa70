"""Open what a user points memvault at: a file, an export directory or a .zip of one —
each possibly age-encrypted (PAM §21.1).

An age file (binary or armored) is decrypted in memory, never to disk, when the caller gives
its passphrase or identities (`open_target(path, age_passphrase=…)`); the plaintext is then
opened like the file it was (a JSON document or a zip of an export). Without them, or with a
wrong passphrase, the target is unreadable with a message that says so.

Zip archives are never extracted to named paths: members are read in memory, or — a large
member of an archive that is a plain file on disk — through an anonymous temporary file that
is mapped, so memory stays bounded (a decrypted archive's members never touch the disk).
Archives are treated as hostile until proven otherwise: encrypted entries, absolute or `..`
paths, symlinks and entries whose uncompressed size or compression ratio is out of bounds are
refused with the entry named.
"""

from __future__ import annotations

import io
import lzma
import mmap
import os
import stat
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any, Final

from memvault import jsonread
from memvault.errors import HTTP_BAD_REQUEST, VaultError

#: Limits for archive entries. A real export with a million memories is about 1 GiB.
MAX_ENTRY_BYTES: Final = 4 << 30
MAX_TOTAL_BYTES: Final = 16 << 30
MAX_RATIO: Final = 200
MAX_ENTRIES: Final = 1_000_000
#: Zip members larger than this are read through an unlinked temporary file and mapped, so a
#: gigabyte export inside a zip costs disk, not memory.
SPOOL_BYTES: Final = 64 << 20
_RATIO_FLOOR: Final = 1 << 20  # small entries may compress arbitrarily well
_ARCHIVE_SUFFIXES: Final = frozenset({".zip", ".jar", ".7z", ".rar", ".tar", ".tgz", ".gz"})
#: What a damaged or hostile archive makes zipfile and the decompressors raise.
_ZIP_ERRORS: Final = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    OSError,
    ValueError,  # includes UnicodeDecodeError for a name flagged UTF-8 that is not
    RuntimeError,  # includes NotImplementedError for an unsupported compression method
    struct.error,
    zlib.error,
    lzma.LZMAError,
)


class SourceError(VaultError):
    """A target that cannot be read. `unreadable` means nothing could be validated."""

    http_status = HTTP_BAD_REQUEST

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
    #: the plaintext of an age-encrypted file
    _data: bytes | None = None
    #: a member of a zip that is a plain file on disk: a large one is read through an
    #: anonymous temporary file instead of memory (never for a decrypted archive, whose
    #: plaintext must not reach the disk)
    _spool: bool = False

    @property
    def archive_name(self) -> str | None:
        """The entry's name in its zip archive (with any leading folder), None outside a
        zip."""
        return None if self._info is None else self._info.filename

    @contextmanager
    def open(self) -> Iterator[Any]:
        """The entry's bytes: a read-only mmap for files, bytes for zip members and decrypted
        files."""
        if self._data is not None:
            yield self._data
            return
        if self._path is not None:
            try:
                handle = self._path.open("rb")
            except OSError as exc:
                raise _os_error(self.display, exc) from None
            with handle:
                try:
                    size = os.fstat(handle.fileno()).st_size
                    mapped = (
                        mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else None
                    )
                except (OSError, ValueError) as exc:
                    raise SourceError(self.display, f"cannot map the file ({exc})") from None
                if mapped is None:
                    yield b""
                    return
                try:
                    yield mapped
                finally:
                    mapped.close()
            return
        assert self._zip is not None and self._info is not None
        if self._spool and self._info.file_size > SPOOL_BYTES:
            with _spooled_zip_entry(self._zip, self._info, self.display) as mapped:
                yield mapped
            return
        yield _read_zip_entry(self._zip, self._info, self.display)

    @contextmanager
    def stream(self) -> Iterator[IO[bytes]]:
        """The entry as a binary file object read incrementally (for inputs of gigabytes):
        memory stays bounded. A zip member that expands past its declared size raises
        SourceError (code ``zip-bomb``) from `read`. A JSON text nested deeper than
        `jsonread.STREAM_MAX_DEPTH` ends before the bracket too deep, so no parser ever builds state
        for more levels than that; the error its reader then raises is replaced by
        SourceError (code ``json-depth``, naming the record and member)."""
        with self._raw_stream() as raw:
            bounded = jsonread.DepthBoundedReader(
                raw, self.display, limit=jsonread.STREAM_MAX_DEPTH
            )
            try:
                yield io.BufferedReader(bounded, 1 << 16)
            except Exception:
                # the reader saw a truncated text and failed on it: the depth is the cause
                if bounded.error is not None and bounded.error.offset is not None:
                    raise self._nesting_error(bounded.error.offset) from None
                raise

    def _nesting_error(self, offset: int) -> SourceError:
        """The too-deep error with the path of the value named: the bytes before it are
        read again (when there are not too many)."""
        prefix = None
        if offset <= jsonread.PATH_SEARCH_BYTES:
            try:
                with self._raw_stream() as again:
                    prefix = again.read(offset)
            except SourceError:
                prefix = None
        error = jsonread.nesting_error(
            self.display, offset, prefix, limit=jsonread.STREAM_MAX_DEPTH
        )
        return SourceError(self.display, f"{error.message} at byte {offset} ({error.rule})",
                           code="json-depth")  # fmt: skip

    @contextmanager
    def _raw_stream(self) -> Iterator[IO[bytes]]:
        if self._data is not None:
            yield io.BytesIO(self._data)
            return
        if self._path is not None:
            try:
                handle = self._path.open("rb")
            except OSError as exc:
                raise _os_error(self.display, exc) from None
            with handle:
                yield handle
            return
        assert self._zip is not None and self._info is not None
        try:
            member = self._zip.open(self._info)
        except _ZIP_ERRORS as exc:
            raise SourceError(
                self.display, f"cannot read archive entry ({exc})", code="bad-zip"
            ) from None
        with member:
            bounded = _BoundedMember(
                member, min(self._info.file_size, MAX_ENTRY_BYTES), self.display
            )
            yield io.BufferedReader(bounded, 1 << 16)


class _BoundedMember(io.RawIOBase):
    """A zip member read as a stream that refuses to expand past its declared size (the
    header's sizes can lie) and turns decompression failures into SourceError."""

    def __init__(self, member: IO[bytes], limit: int, where: str) -> None:
        super().__init__()
        self._member = member
        self._limit = limit
        self._read = 0
        self._where = where

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        try:
            data = self._member.read(len(view))
        except _ZIP_ERRORS as exc:
            raise SourceError(
                self._where, f"cannot read archive entry ({exc})", code="bad-zip"
            ) from None
        self._read += len(data)
        if self._read > self._limit:
            raise SourceError(
                self._where, "entry is larger than its header declares", code="zip-bomb"
            )
        view[: len(data)] = data
        return len(data)


@dataclass(slots=True)
class Target:
    """What the user named: its kind ('file', 'directory', 'zip') and the files in it."""

    path: Path
    kind: str
    entries: list[Entry]
    _zip: zipfile.ZipFile | None = None
    #: "age" when the file was age-encrypted (and was decrypted in memory)
    encryption: str | None = None

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()

    def __enter__(self) -> Target:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def find(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


#: An age passphrase, or a function asked for it only when an age file needs one (e.g. a
#: prompt); None from the function means "none given".
AgePassphrase = str | Callable[[], str | None] | None


def open_target(
    path: str | os.PathLike[str],
    *,
    age_passphrase: AgePassphrase = None,
    age_identities: Sequence[str] = (),
) -> Target:
    """Open a file, directory or zip archive for reading.

    An age-encrypted file is decrypted with `age_passphrase` (a string, or a callable asked
    only when a passphrase-encrypted file is met) or `age_identities` (``AGE-SECRET-KEY-1…``
    lines). SourceError codes: ``age-encrypted`` (nothing to decrypt it with),
    ``age-decrypt`` (wrong passphrase or identities, damaged file).
    """
    p = Path(path)
    shown = str(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise _os_error(shown, exc) from None
    if stat.S_ISDIR(st.st_mode):
        return Target(p, "directory", _directory_entries(p, shown))
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(
            shown, f"not a regular file or directory (it is {_file_type(st.st_mode)})"
        )
    if not os.access(p, os.R_OK):
        raise SourceError(shown, "permission denied", code="permission")
    if _starts_like_age(p):
        return _open_age(p, shown, st.st_size, age_passphrase, age_identities)
    if zipfile.is_zipfile(p):
        return _open_zip(p, shown)
    if _starts_like_zip(p):
        raise SourceError(
            shown,
            "not a readable zip archive: it starts like one but has no end of central directory "
            "(truncated or damaged)",
            code="bad-zip",
        )
    return Target(p, "file", [Entry(p.name, shown, st.st_size, _path=p)])


def _os_error(shown: str, exc: OSError) -> SourceError:
    if isinstance(exc, FileNotFoundError):
        return SourceError(shown, "no such file or directory", code="not-found")
    if isinstance(exc, PermissionError):
        return SourceError(shown, "permission denied", code="permission")
    return SourceError(shown, exc.strerror or str(exc))


def _file_type(mode: int) -> str:
    kinds = (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _starts_like_zip(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
    except OSError:
        return False


def _starts_like_age(path: Path) -> bool:
    from memvault.crypto.agefile import is_age

    try:
        with path.open("rb") as handle:
            return is_age(handle.read(64))
    except OSError:
        return False


def _open_age(
    path: Path,
    shown: str,
    size: int,
    age_passphrase: AgePassphrase,
    age_identities: Sequence[str],
) -> Target:
    from memvault.crypto import agefile

    if size > MAX_ENTRY_BYTES:
        raise SourceError(
            shown, f"age file of {size} bytes is over the {MAX_ENTRY_BYTES} byte limit",
            code="too-large",
        )  # fmt: skip
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _os_error(shown, exc) from None
    passphrase: str | None = None
    if agefile.needs_passphrase(data):
        passphrase = age_passphrase() if callable(age_passphrase) else age_passphrase
        if not passphrase:
            raise SourceError(
                shown,
                "the file is encrypted with age and a passphrase (PAM §21.1); give the "
                f"passphrase (--age-passphrase-file FILE or ${agefile.AGE_PASSPHRASE_ENV})",
                code="age-encrypted",
            )
    elif not age_identities:
        raise SourceError(
            shown,
            "the file is encrypted with age to recipients (PAM §21.1); give an identity that "
            "can decrypt it (AGE-SECRET-KEY-1…)",
            code="age-encrypted",
        )
    try:
        if passphrase is not None:
            plain = agefile.decrypt(data, passphrase=passphrase)
        else:
            plain = agefile.decrypt(data, identities=age_identities)
    except agefile.AgeError as exc:
        raise SourceError(shown, str(exc), code="age-decrypt") from None
    del data
    if plain[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        target = _open_zip(io.BytesIO(plain), shown, path)
        target.encryption = "age"
        return target
    name = path.name[: -len(".age")] if path.name.endswith(".age") else path.name
    entry = Entry(name, shown, len(plain), _data=plain)
    return Target(path, "file", [entry], encryption="age")


def _directory_entries(root: Path, shown: str) -> list[Entry]:
    entries = []
    try:
        for path in sorted(root.rglob("*")):
            # JSON documents and provider CSV exports (Copilot); nothing else is read.
            if path.suffix.lower() not in (".json", ".csv"):
                continue
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            display = f"{shown.rstrip('/')}/{rel}"
            entries.append(Entry(rel, display, path.stat().st_size, _path=path))
    except OSError as exc:
        raise _os_error(getattr(exc, "filename", None) or shown, exc) from None
    return entries


def _open_zip(source: Path | IO[bytes], shown: str, path: Path | None = None) -> Target:
    try:
        archive = zipfile.ZipFile(source)
    except _ZIP_ERRORS as exc:
        raise SourceError(shown, f"not a readable zip archive ({exc})", code="bad-zip") from None
    try:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise SourceError(
                shown, f"archive has more than {MAX_ENTRIES} entries", code="zip-limit"
            )
        total = 0
        entries = []
        seen: set[str] = set()
        for info in infos:
            if info.is_dir():
                continue
            where = f"{shown}:{info.filename}"
            _check_zip_entry(info, where)
            if info.filename in seen:
                raise SourceError(
                    where, "the archive holds two entries with this name", code="zip-duplicate"
                )
            seen.add(info.filename)
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise SourceError(
                    where,
                    f"archive expands to more than {MAX_TOTAL_BYTES >> 30} GiB",
                    code="zip-bomb",
                )
            entries.append(
                Entry(
                    info.filename,
                    where,
                    info.file_size,
                    _zip=archive,
                    _info=info,
                    _spool=isinstance(source, Path),
                )
            )
    except BaseException:
        archive.close()
        raise
    location = path if path is not None else source
    assert isinstance(location, Path)
    return Target(location, "zip", _rebase(entries), archive)


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
    # A gzip-compressed JSON Lines stream (OpenMemory's memories.jsonl.gz) is one compressed
    # file, not an archive; its reader bounds what it expands to.
    if pure.suffix.lower() in _ARCHIVE_SUFFIXES and not pure.name.lower().endswith(".jsonl.gz"):
        raise SourceError(
            where,
            "entry is an archive inside the archive; memvault does not open nested archives "
            "(extract it and validate it on its own)",
            code="zip-nested",
        )
    if info.file_size > MAX_ENTRY_BYTES:
        raise SourceError(
            where,
            f"entry expands to {info.file_size} bytes (limit {MAX_ENTRY_BYTES})",
            code="zip-bomb",
        )
    packed = max(info.compress_size, 1)
    if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * packed:
        raise SourceError(
            where,
            f"compression ratio {info.file_size // packed}:1 exceeds {MAX_RATIO}:1 "
            f"({info.compress_size} bytes declared to expand to {info.file_size})",
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
    except _ZIP_ERRORS as exc:
        raise SourceError(where, f"cannot read archive entry ({exc})", code="bad-zip") from None
    return b"".join(chunks)


@contextmanager
def _spooled_zip_entry(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str
) -> Iterator[mmap.mmap]:
    """A zip member copied, with the same size checks as `_read_zip_entry`, into an anonymous
    temporary file (unlinked at once, mode 0600) and mapped read-only."""
    limit = min(info.file_size, MAX_ENTRY_BYTES)
    with tempfile.TemporaryFile(prefix="memvault-") as spool:
        written = 0
        try:
            with archive.open(info) as handle:
                while chunk := handle.read(1 << 20):
                    written += len(chunk)
                    if written > limit:
                        raise SourceError(
                            where, "entry is larger than its header declares", code="zip-bomb"
                        )
                    spool.write(chunk)
        except _ZIP_ERRORS as exc:
            if isinstance(exc, OSError) and exc.errno is not None:
                raise SourceError(where, f"cannot spool archive entry ({exc})") from None
            raise SourceError(where, f"cannot read archive entry ({exc})", code="bad-zip") from None
        spool.flush()
        if written == 0:
            raise SourceError(where, "entry is empty")
        mapped = mmap.mmap(spool.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            yield mapped
        finally:
            mapped.close()


def _rebase(entries: list[Entry]) -> list[Entry]:
    """Exports are often zipped with their folder: strip one common leading directory."""
    names = [e.name for e in entries]
    if not names or any("/" not in n for n in names):
        return entries
    prefix = names[0].split("/", 1)[0] + "/"
    if not all(n.startswith(prefix) for n in names):
        return entries
    return [
        Entry(e.name[len(prefix) :], e.display, e.size, e._path, e._zip, e._info, e._data, e._spool)
        for e in entries
    ]
