"""Microsoft Copilot: the Privacy Dashboard export, CSV files (PAM importer mappings §4).

Layouts, told apart by their header row (column order free, names case-insensitive):

- ``activity-history`` — `copilot-activity-history.csv`: Conversation, Time, Author, Message;
- ``chat-activity`` — `copilot-chat-activity.csv` and
  `copilot-in-Microsoft-365-apps-activity.csv`: CreatedAt, MessageContent, Author, ChatName;
- ``windows-apps`` — `windows-apps-copilot-activity-history.csv`: Timestamp, ClientApp,
  Prompt (the user's prompts only).

The export has no ids. A message is known by its chat name, UTC instant, role and first 100
UTF-16 code units, so the same chat in two files (they overlap) is read once, and a message
whose AI text Microsoft cut to 100 UTF-16 code units plus ``...`` (an emoji counts two; one
cut in half is written as U+FFFD) merges with its full copy when one exists; when none does,
it is kept and flagged ``raw_metadata.truncated``. Messages of one chat name
form one conversation until a gap of more than `CHAT_GAP` (docs/importers.md).

CSV is read by `csvsafe.read_csv` (UTF-8 or UTF-16 with a byte order mark; records, fields and
columns bounded, so a hostile file fails fast with the row named instead of filling memory).
As for Gemini, a first pass keeps a small index per row and later passes load the rows of a
batch of conversations, so memory stays bounded.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, Final

from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    Importer,
    ImporterId,
    ImportFormatError,
    ImportRecord,
)
from memvault.importers.common import (
    Progress,
    batches,
    fill_times,
    parse_iso,
    rfc3339,
    short_title,
)
from memvault.importers.csvsafe import first_row, read_csv
from memvault.importers.ids import stable_id
from memvault.sources import Entry, SourceError, Target

PROVIDER: Final = "copilot"
#: Messages of one chat name further apart than this belong to different conversations.
CHAT_GAP: Final = timedelta(hours=3)
#: Microsoft cuts some AI messages to this many UTF-16 code units and appends "...".
TRUNCATED_AT: Final = 100
_ELLIPSIS: Final = "..."
_REPLACEMENT: Final = "\ufffd"
#: Upper bound (characters of message text) of the rows held in memory at once.
BATCH_CHARS: Final = 32 << 20
_SNIFF_BYTES: Final = 4096
_EXPORT_FORMAT: Final = "privacy-dashboard-csv"

_USER_AUTHORS: Final = frozenset({"user", "human", "you", "me", "usuário", "usuario", "você"})
_SYSTEM_AUTHORS: Final = frozenset({"system"})
_TOOL_AUTHORS: Final = frozenset({"tool", "function"})


@dataclass(frozen=True, slots=True)
class _Layout:
    name: str
    chat: str
    time: str
    text: str
    author: str | None

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(c for c in (self.chat, self.time, self.text, self.author) if c)


LAYOUTS: Final = (
    _Layout("activity-history", chat="Conversation", time="Time", text="Message", author="Author"),
    _Layout(
        "chat-activity", chat="ChatName", time="CreatedAt", text="MessageContent", author="Author"
    ),
    _Layout("windows-apps", chat="ClientApp", time="Timestamp", text="Prompt", author=None),
)
_KNOWN_FILES: Final = frozenset(
    {
        "copilot-activity-history.csv",
        "copilot-chat-activity.csv",
        "copilot-in-microsoft-365-apps-activity.csv",
        "windows-apps-copilot-activity-history.csv",
    }
)


class CopilotImporter(Importer):
    id = ImporterId(PROVIDER, "2026.11.1")
    conversation_ids_from_content = True

    def sniff(self, target: Target) -> bool:
        if any(_basename(e.name) in _KNOWN_FILES for e in target.entries):
            return True
        candidates = [e for e in target.entries if target.kind == "file" or _is_csv(e)]
        return any(_sniff_layout(e) is not None for e in candidates)

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        files = _csv_files(target, context)
        # The first pass reads every file whole, once: it is what the progress bar counts.
        progress = Progress(context.progress)
        rows = [
            row
            for n, (entry, layout) in enumerate(files)
            for row in _index(n, entry, layout, progress)
        ]
        for batch in batches(_conversations(_messages(rows)), lambda c: c.size, BATCH_CHARS):
            wanted = {(r.file, r.number) for chat in batch for m in chat.messages for r in m.rows}
            loaded = _load_rows(files, wanted)
            for chat in batch:
                yield ImportedConversation(_document(chat, files, loaded, context))


IMPORTER: Final = CopilotImporter()


# -- finding the files and their layout -------------------------------------------------------


def _basename(name: str) -> str:
    return name.rsplit("/", 1)[-1].lower()


def _is_csv(entry: Entry) -> bool:
    return entry.name.lower().endswith(".csv")


def _sniff_layout(entry: Entry) -> _Layout | None:
    try:
        with entry.stream() as stream:
            head = stream.read(_SNIFF_BYTES)
    except SourceError:
        return None
    header = first_row(head)
    return _layout_of(header) if header is not None else None


def _layout_of(header: list[str]) -> _Layout | None:
    names = {h.strip().lower() for h in header}
    for layout in LAYOUTS:
        if all(c.lower() in names for c in layout.required):
            return layout
    return None


def _csv_files(target: Target, context: ImportContext) -> list[tuple[Entry, _Layout]]:
    if target.kind == "file":
        entries = list(target.entries)
    else:
        entries = sorted((e for e in target.entries if _is_csv(e)), key=lambda e: e.name)
    files = []
    for entry in entries:
        layout = _sniff_layout(entry)
        if layout is not None:
            files.append((entry, layout))
        elif target.kind == "file" or _basename(entry.name) in _KNOWN_FILES:
            raise ImportFormatError(
                f"{entry.display}: row 1 (header)",
                "not a Copilot export header; expected one of "
                + "; ".join(", ".join(layout.required) for layout in LAYOUTS),
            )
        else:  # another file of the Privacy Dashboard export (browsing, search…)
            context.warnings.append(f"{entry.display}: not a Copilot conversation file, skipped")
    if not files:
        raise ImportFormatError(str(target.path), "no Copilot conversation CSV file in it")
    return files


# -- reading CSV, bounded ---------------------------------------------------------------------


def _records(entry: Entry, progress: Progress | None) -> Iterator[tuple[int, list[str]]]:
    """(row number, fields) of every record, the header being row 1; the bytes read are
    reported to `progress` when one is given."""
    try:
        with entry.stream() as raw:
            stream = progress.counted(raw) if progress is not None else raw
            yield from read_csv(stream, entry.display, what="a Copilot export")
    except SourceError as exc:
        raise ImportFormatError(exc.target, exc.message) from None


def _rows_of(
    entry: Entry, layout: _Layout, progress: Progress | None = None
) -> Iterator[tuple[int, dict[str, str]]]:
    """Each data row as {header: value}, its column count checked against the header."""
    header: list[str] | None = None
    for number, fields in _records(entry, progress):
        if header is None:
            header = [h.strip() for h in fields]
            continue
        if fields == [] or fields == [""]:
            continue  # a blank line
        if len(fields) != len(header):
            raise ImportFormatError(
                f"{entry.display}: row {number}",
                f"{len(fields)} columns where the header has {len(header)}",
            )
        yield number, dict(zip(header, fields, strict=True))


def _column(row: dict[str, str], name: str) -> str:
    if name in row:  # the usual spelling
        return row[name]
    for key, value in row.items():
        if key.lower() == name.lower():
            return value
    raise KeyError(name)  # unreachable: the layout was chosen because the column exists


# -- pass 1: a small index of every row --------------------------------------------------------


@dataclass(slots=True)
class _Row:
    file: int
    number: int
    chat: str
    time: datetime | None
    role: str
    #: digests (16 bytes: the index stays small) of `match_prefix` and of the whole text
    prefix: bytes
    digest: bytes
    length: int
    truncated: bool


_US_TIME: Final = re.compile(
    r"^(\d{1,2})/(\d{1,2})/(\d{4})[ T]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?"
    r"\s*([AaPp][Mm])?\s*(Z|UTC|GMT|[+-]\d{1,2}:?\d{2})?$"
)
_FRACTION: Final = re.compile(r"(\.\d{6})\d+")


def parse_time(value: str) -> datetime | None:
    """ISO 8601 (``2026-02-17T14:36:11``, with or without fraction and offset) or
    ``M/D/YYYY H:MM[:SS] [AM|PM] [+HH:MM]``, as UTC; no offset means UTC. None when empty;
    ValueError when unreadable."""
    value = value.strip()
    if not value:
        return None
    match = _US_TIME.match(value)
    if match is None:
        return parse_iso(_FRACTION.sub(r"\1", value))
    month, day, year, hour, minute, second, fraction, half, offset = match.groups()
    hour_n = int(hour)
    if half is not None:
        if not 1 <= hour_n <= 12:
            raise ValueError(f"hour {hour_n} with {half}")
        hour_n = hour_n % 12 + (12 if half.lower() == "pm" else 0)
    micro = int((fraction or "0").ljust(7, "0")[:6])
    parsed = datetime(
        int(year), int(month), int(day), hour_n, int(minute), int(second or 0), micro,
        tzinfo=_offset(offset),
    )  # fmt: skip
    return parsed.astimezone(UTC)


def _offset(text: str | None) -> timezone:
    if text is None or text.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:-2]), int(digits[-2:])
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _role(author: str, where: str) -> str:
    name = author.strip().lower()
    if not name:
        raise ImportFormatError(where, "field 'Author': empty (expected user, AI or a name)")
    if name in _USER_AUTHORS:
        return "user"
    if name in _SYSTEM_AUTHORS:
        return "system"
    if name in _TOOL_AUTHORS:
        return "tool"
    return "assistant"  # "AI", "Copilot", "assistant" or another assistant name


def utf16_units(text: str) -> int:
    """The length of `text` in UTF-16 code units, as Microsoft counts it: a character beyond
    U+FFFF (most emoji) is two."""
    return len(text) + sum(1 for c in text if c > "\uffff")


def _utf16_prefix(text: str, units: int) -> str:
    """The longest prefix of whole characters of `text` at most `units` UTF-16 units long."""
    if len(text) <= units // 2 or (len(text) <= units and text.isascii()):
        return text
    count = 0
    for i, c in enumerate(text):
        count += 2 if c > "\uffff" else 1
        if count > units:
            return text[:i]
    return text


def is_truncated(text: str, role: str) -> bool:
    """Microsoft's cut: an AI message of exactly 100 UTF-16 code units followed by "..."
    (importer-mappings §4 counts nothing; the cut is .NET's, by UTF-16 unit)."""
    return (
        role == "assistant"
        and text.endswith(_ELLIPSIS)
        and TRUNCATED_AT // 2 + len(_ELLIPSIS) <= len(text) <= TRUNCATED_AT + len(_ELLIPSIS)
        and utf16_units(text) == TRUNCATED_AT + len(_ELLIPSIS)
    )


def match_prefix(text: str, truncated: bool) -> str:
    """What a full text and its cut copy share: the first 100 UTF-16 units in whole
    characters. A cut that split an emoji in two ends in U+FFFD, which stands for half a
    character the full text has whole, so it is left out."""
    if truncated:
        body = text[: -len(_ELLIPSIS)]
        return body[:-1] if body.endswith(_REPLACEMENT) else body
    return _utf16_prefix(text, TRUNCATED_AT)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _index(n: int, entry: Entry, layout: _Layout, progress: Progress) -> Iterator[_Row]:
    chats: dict[str, str] = {}  # one string per chat name, shared by its rows
    for number, row in _rows_of(entry, layout, progress):
        where = f"{entry.display}: row {number}"
        stamp = _column(row, layout.time)
        try:
            when = parse_time(stamp)
        except ValueError:
            raise ImportFormatError(
                where,
                f"field '{layout.time}': {stamp!r} is not a timestamp (ISO 8601 or "
                "M/D/YYYY H:MM:SS +HH:MM)",
            ) from None
        role = _role(_column(row, layout.author), where) if layout.author else "user"
        text = _column(row, layout.text)
        truncated = is_truncated(text, role)
        yield _Row(
            file=n,
            number=number,
            chat=chats.setdefault(name := _column(row, layout.chat).strip(), name),
            time=when,
            role=role,
            prefix=_digest(match_prefix(text, truncated)),
            digest=_digest(text),
            length=len(text),
            truncated=truncated,
        )


def _fill_times(rows: list[_Row]) -> None:
    """A row without a time takes the time of the row before it in its file, else the first
    time of the file, else the Unix epoch (`fill_times`): deterministic, never "now"."""
    by_file: dict[int, list[_Row]] = {}
    for row in rows:
        by_file.setdefault(row.file, []).append(row)
    for file_rows in by_file.values():
        for row, moment in zip(file_rows, fill_times([r.time for r in file_rows]), strict=True):
            row.time = moment


# -- messages and conversations ----------------------------------------------------------------


@dataclass(slots=True)
class _Message:
    #: the row whose text is kept (a full copy before a truncated one), then the other copies
    rows: list[_Row]
    #: disambiguates different texts that share chat, instant, role and first 100 UTF-16 units
    variant: int

    @property
    def first(self) -> _Row:
        return self.rows[0]

    @property
    def time(self) -> datetime:
        assert self.first.time is not None
        return self.first.time


@dataclass(slots=True)
class _Chat:
    name: str
    messages: list[_Message] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(r.length for m in self.messages for r in m.rows)


_ROLE_ORDER: Final = {"system": 0, "user": 1, "tool": 2, "assistant": 3}


def _messages(rows: list[_Row]) -> list[_Message]:
    _fill_times(rows)
    same: dict[tuple[str, datetime, str, bytes], list[_Row]] = {}
    for row in rows:
        assert row.time is not None
        same.setdefault((row.chat, row.time, row.role, row.prefix), []).append(row)
    messages = []
    for copies in same.values():
        full = sorted({r.digest for r in copies if not r.truncated})
        texts = full or sorted({r.digest for r in copies})
        for variant, digest in enumerate(texts):
            kept = [r for r in copies if r.digest == digest]
            if full and variant == 0:
                # Cut copies agree with the full text on its first 100 UTF-16 units.
                kept += [r for r in copies if r.truncated]
            messages.append(_Message(kept, variant))
    return messages


def _conversations(messages: list[_Message]) -> list[_Chat]:
    by_name: dict[str, list[_Message]] = {}
    for message in messages:
        by_name.setdefault(message.first.chat, []).append(message)
    chats: list[_Chat] = []
    for name, named in by_name.items():
        named.sort(key=lambda m: (m.time, _ROLE_ORDER[m.first.role], m.first.digest))
        chat = _Chat(name)
        for message in named:
            if chat.messages and message.time - chat.messages[-1].time > CHAT_GAP:
                chats.append(chat)
                chat = _Chat(name)
            chat.messages.append(message)
        chats.append(chat)
    chats.sort(key=lambda c: (c.messages[0].time, c.name))
    return chats


def _load_rows(
    files: list[tuple[Entry, _Layout]], wanted: set[tuple[int, int]]
) -> dict[tuple[int, int], dict[str, str]]:
    needed = {n for n, _ in wanted}
    loaded = {}
    for n, (entry, layout) in enumerate(files):
        if n not in needed:
            continue
        for number, row in _rows_of(entry, layout):
            if (n, number) in wanted:
                loaded[(n, number)] = row
    return loaded


# -- documents -----------------------------------------------------------------------------------


def _document(
    chat: _Chat,
    files: list[tuple[Entry, _Layout]],
    loaded: dict[tuple[int, int], dict[str, str]],
    context: ImportContext,
) -> dict[str, Any]:
    start = rfc3339(chat.messages[0].time)
    messages: list[dict[str, Any]] = []
    for message in chat.messages:
        first = message.first
        layout = files[first.file][1]
        text = _column(loaded[(first.file, first.number)], layout.text)
        sources = []
        for row in message.rows:
            row_entry, row_layout = files[row.file]
            columns = loaded[(row.file, row.number)]
            source: dict[str, Any] = {"file": row_entry.name, "row": row.number}
            source["layout"] = row_layout.name
            for key, value in columns.items():
                # The text is the message's content; a copy that differs (cut) is kept here.
                if key.lower() != row_layout.text.lower() or value != text:
                    source[key] = value
            if row.time is not None and not _column(columns, row_layout.time).strip():
                source["time_missing"] = True
            sources.append(source)
        created = rfc3339(message.time)
        messages.append(
            {
                "id": stable_id(
                    PROVIDER,
                    "message",
                    first.chat,
                    created,
                    first.role,
                    # What a full text and its cut copy share, so a source holding only the
                    # cut names the message as one holding the full text does.
                    match_prefix(text, first.truncated),
                    str(message.variant),
                ),
                "role": first.role,
                "content": {"type": "text", "text": text},
                "created_at": created,
                "parent_id": None,
                "children_ids": [],
                "raw_metadata": {"truncated": first.truncated, "rows": sources},
            }
        )
    title = chat.name or next(
        (m["content"]["text"] for m in messages if m["role"] == "user" and m["content"]["text"]),
        None,
    )
    roles = {m["role"] for m in messages}
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": stable_id(PROVIDER, "conversation", chat.name, start),
        "provider": {
            "name": PROVIDER,
            "conversation_id": None,
            "export_format_version": _EXPORT_FORMAT,
        },
        "title": short_title(title),
        "temporal": {"created_at": start, "updated_at": rfc3339(chat.messages[-1].time)},
        "participants": [
            {"role": role, "name": "Copilot" if role == "assistant" else None}
            for role in ("user", "assistant", "system", "tool")
            if role in roles
        ],
        "messages": messages,
        "raw_metadata": {
            "chat_name": chat.name,
            "grouping": f"chat name, gap ≤ {int(CHAT_GAP.total_seconds() // 60)} min",
            "files": sorted({files[r.file][0].name for m in chat.messages for r in m.rows}),
        },
        "import_metadata": context.import_metadata(CopilotImporter.id),
    }
