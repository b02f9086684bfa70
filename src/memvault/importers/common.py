"""What the provider importers share: RFC 3339 formatting of provider times, typed field
access whose errors name the entry, record and field, PAM memory objects for memories a
provider exports, the deterministic time fallback, bounded batches, and streams that put
read-ahead bytes back and report the bytes read to `ImportContext.progress`.

Every function here is part of the output of versioned importers (PAM §25.5): changing what
one returns changes the documents of every importer that uses it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Protocol, TypeVar

from memvault.canonical import content_hash
from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.ids import stable_id

#: A time for records with none anywhere in their file: the Unix epoch, never "now".
EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
#: Integers PAM can hash exactly (RFC 8785 numbers are IEEE doubles).
SAFE_INT: Final = (1 << 53) - 1
UTF8_BOM: Final = b"\xef\xbb\xbf"
_TITLE_CHARS: Final = 100

T = TypeVar("T")


# -- times --------------------------------------------------------------------------------------


def rfc3339(moment: datetime) -> str:
    """RFC 3339 in UTC with a ``Z``, fractional seconds only when there are some (trailing
    zeros dropped)."""
    moment = moment.astimezone(UTC)
    text = (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
    if moment.microsecond:
        text += f".{moment.microsecond:06d}".rstrip("0")
    return text + "Z"


def parse_iso(value: str) -> datetime:
    """An ISO 8601 string as an aware UTC datetime; a time without an offset is UTC (what
    the exports write). Raises ValueError when it is not one."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def fill_times(times: list[datetime | None]) -> list[datetime]:
    """Times for records in file order, where a missing one takes the time of the record
    before it, else the first time of the file, else `EPOCH`: deterministic, never "now"."""
    known = next((t for t in times if t is not None), EPOCH)
    filled: list[datetime] = []
    for moment in times:
        known = moment if moment is not None else known
        filled.append(known)
    return filled


# -- typed field access -------------------------------------------------------------------------


def kind(value: Any) -> str:
    """What a JSON value is, for error messages ("an object", "null"…)."""
    names = {str: "a string", list: "an array", dict: "an object", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


def as_object(value: Any, where: str, what: str) -> Mapping[str, Any]:
    """`value` when it is a JSON object; else ImportFormatError ``<where>: <what>: …``."""
    if not isinstance(value, Mapping):
        raise ImportFormatError(where, f"{what}: expected an object, found {kind(value)}")
    return value


def text_field(record: Mapping[str, Any], key: str, where: str) -> str | None:
    """A string member, None when absent or null."""
    value = record.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ImportFormatError(where, f"field {key!r}: expected a string, found {kind(value)}")


def array_field(record: Mapping[str, Any], key: str, where: str) -> list[Any]:
    """An array member, [] when absent or null."""
    value = record.get(key)
    if value is None:
        return []
    if isinstance(value, list):
        return value
    raise ImportFormatError(where, f"field {key!r}: expected an array, found {kind(value)}")


def iso_field(record: Mapping[str, Any], key: str, where: str) -> datetime | None:
    """An ISO 8601 member as an aware UTC datetime (`parse_iso`); None when absent or
    empty."""
    value = text_field(record, key, where)
    if not value:
        return None
    try:
        return parse_iso(value)
    except ValueError:
        raise ImportFormatError(
            where, f"field {key!r}: {value!r} is not an ISO 8601 timestamp"
        ) from None


def json_reason(exc: Exception) -> str:
    """A JSON parser's message, first line only (yajl adds a drawing of where it stopped,
    and gives its message as bytes: shown as text, not as a bytes literal)."""
    if isinstance(exc, UnicodeDecodeError):  # its first argument is only the codec's name
        return f"invalid UTF-8 ({exc.reason}; RFC 8259 §8.1)"
    detail = exc.args[0] if exc.args else exc
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    text = str(detail).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# -- PAM memory objects -------------------------------------------------------------------------


def exact(value: Any) -> Any:
    """`value` with integers beyond ±(2^53 − 1) written as strings: a memory's metadata must
    canonicalize (RFC 8785) for its hashes, and such numbers would not survive."""
    if isinstance(value, Mapping):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [exact(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE_INT:
        return str(value)
    return value


class ExportedMemories:
    """PAM memory objects (§4) for the memories a provider exports (``api_export``), each
    yielded once: the id comes from the provider, the record kind and its own keys, and a
    memory met again (the same text twice in an export) is not built twice."""

    def __init__(self, provider: str, context: ImportContext) -> None:
        self.provider = provider
        self.context = context
        #: the latest time met in the export: the time of memories that carry none
        self.latest: datetime | None = None
        self._ids: set[str] = set()

    def seen(self, moment: datetime | None) -> None:
        """Note a time met in the export (for `latest`)."""
        if moment is not None and (self.latest is None or moment > self.latest):
            self.latest = moment

    def project_instructions(
        self,
        project: str,
        instructions: str,
        name: str | None,
        created: datetime | None,
        updated: datetime | None,
        user: str | None,
        metadata: Mapping[str, Any],
    ) -> dict[str, Any] | None:
        """The ``instruction`` memory of a project's custom instructions (`build`)."""
        return self.build(
            ("project-instructions", project, content_hash(instructions)),
            "instruction",
            instructions,
            created,
            updated,
            user,
            metadata,
            summary=f"Instructions for the project {name}" if name else None,
        )

    def build(
        self,
        key: tuple[str, ...],
        memory_type: str,
        content: str,
        created: datetime | None,
        updated: datetime | None,
        user: str | None,
        metadata: Mapping[str, Any],
        *,
        summary: str | None = None,
        tags: list[str] | None = None,
        custom_type: str | None = None,
    ) -> dict[str, Any] | None:
        """The memory, or None for an empty or already built one. A record with no time of
        its own takes the latest time met in the export, else (none at all: a lone memories
        file) the import's own time."""
        memory_id = stable_id(self.provider, "memory", *key)
        if memory_id in self._ids or not content.strip():
            return None
        self._ids.add(memory_id)
        first = created or updated or self.latest
        temporal: dict[str, Any] = {
            "created_at": rfc3339(first) if first is not None else self.context.imported_at
        }
        if updated is not None:
            temporal["updated_at"] = rfc3339(updated)
        return {
            "id": memory_id,
            "type": memory_type,
            "custom_type": custom_type,
            "status": "active",
            "content": content,
            "content_hash": content_hash(content),
            "summary": summary,
            "tags": tags or [],
            "temporal": temporal,
            "provenance": {
                "platform": self.provider,
                "platform_user_id": user or None,
                "conversation_ref": None,
                "message_ref": None,
                "extraction_method": "api_export",
                "extracted_at": self.context.imported_at,
                "extractor": self.context.importer,
            },
            "metadata": exact(metadata),
        }


# -- conversations ------------------------------------------------------------------------------


def short_title(text: str | None) -> str | None:
    """A title from a first message: its first line, cut to 100 characters with "…"."""
    if text is None:
        return None
    line = text.strip().split("\n", 1)[0].strip()
    return line if len(line) <= _TITLE_CHARS else line[: _TITLE_CHARS - 1].rstrip() + "…"


def batches(items: Iterable[T], size: Callable[[T], int], limit: int) -> Iterator[list[T]]:
    """`items` in runs whose total `size` stays under `limit` (a larger item is a run of
    its own): how multi-pass importers bound the records they hold at once."""
    batch: list[T] = []
    total = 0
    for item in items:
        if batch and total + size(item) > limit:
            yield batch
            batch, total = [], 0
        batch.append(item)
        total += size(item)
    if batch:
        yield batch


# -- streams ------------------------------------------------------------------------------------


class BinaryReader(Protocol):
    """What the importers read files through: a binary ``read``."""

    def read(self, size: int = -1, /) -> bytes: ...


class Progress:
    """The bytes read so far over all the files of one import, reported to
    `ImportContext.progress` (progress bars); a no-op when nobody listens."""

    def __init__(self, report: Callable[[int], object] | None) -> None:
        self._report = report
        self.total = 0

    def add(self, count: int) -> None:
        if self._report is not None and count:
            self.total += count
            self._report(self.total)

    def counted(self, stream: BinaryReader) -> BinaryReader:
        """`stream` with every byte read from it reported (once per read call: per chunk,
        not per record)."""
        if self._report is None:
            return stream
        return _Counted(stream, self)


@dataclass(slots=True)
class ExportReader:
    """What the reader of a provider's export keeps while it reads: the memories built so far
    (a text met twice is one memory) and the progress it reports."""

    importer: ImporterId
    context: ImportContext
    memories: ExportedMemories = field(init=False)
    progress: Progress = field(init=False)

    def __post_init__(self) -> None:
        self.memories = ExportedMemories(self.importer.provider, self.context)
        self.progress = Progress(self.context.progress)


class _Counted:
    def __init__(self, stream: BinaryReader, progress: Progress) -> None:
        self._stream = stream
        self._progress = progress

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        self._progress.add(len(data))
        return data


class Rejoined(io.RawIOBase):
    """A binary stream whose first bytes were read ahead (to see what it starts with) and
    are given back first. ``read`` hands the read-ahead bytes over whole, so ijson's C parser
    reads it with no copy; ``readinto`` serves `io.BufferedReader`."""

    def __init__(self, head: bytes, rest: BinaryReader) -> None:
        super().__init__()
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size == 0:  # ijson reads nothing to learn whether the stream gives bytes
            return b""
        if self._head:
            data, self._head = self._head, b""
            return data
        return self._rest.read(-1 if size is None else size)

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            count = min(len(view), len(self._head))
            view[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._rest.read(len(view))
        view[: len(data)] = data
        return len(data)
