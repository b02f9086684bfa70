"""Reading CSV from a provider export without letting a hostile file exhaust memory or time.

Python's `csv` module reads a whole record before returning it, so one enormous line (ten
million columns, a gigabyte in one quoted field) would be read entirely before anything could
refuse it. `read_csv` gives `csv.reader` physical lines taken with a length limit from a
streamed text wrapper (`io.TextIOWrapper.readline(limit)`, C speed), and refuses a record
longer than `MAX_RECORD_CHARS`, wider than `MAX_COLUMNS` columns (commas outside quotes are
counted before csv splits the line) or with a field longer than `MAX_FIELD_CHARS` — each
error names the entry and the row. The text is UTF-8 (with or without a byte order mark) or
UTF-16 with its byte order mark, as spreadsheet programs save it. Memory stays at about one
record whatever the file.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator
from typing import IO, Final

from memvault.importers.base import ImportFormatError
from memvault.importers.common import BinaryReader, Rejoined

#: A real export's longest field (one long message) is far below this.
MAX_FIELD_CHARS: Final = 8 << 20
MAX_RECORD_CHARS: Final = 9 << 20
#: A provider's CSV export has a handful of columns.
MAX_COLUMNS: Final = 64
_BUFFER: Final = 1 << 16
_QUOTED: Final = re.compile(r'"[^"]*"?')


def encoding_of(head: bytes) -> str:
    """The codec of CSV bytes starting with `head`: UTF-16 when it starts with its byte
    order mark, else UTF-8 (``utf-8-sig`` drops a UTF-8 byte order mark)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8-sig"


def first_row(head: bytes) -> list[str] | None:
    """The first row (the header) of CSV bytes starting with `head`, None when it is not
    one: for sniffing, from the first bytes only."""
    text = head.decode(encoding_of(head), errors="replace")
    first = text.splitlines()[0] if text else ""
    try:
        return next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return None


class _BoundedLines:
    """Physical lines for `csv.reader`, refusing a record (one or more lines) longer than
    `max_record`, or with more than `max_columns` columns, before csv parses it."""

    def __init__(self, text: IO[str], where: str, what: str, max_record: int, max_columns: int):
        self._text = text
        self._where = where
        self._what = what
        self._max_record = max_record
        self._max_columns = max_columns
        self.record = 1
        self.start_record()

    def start_record(self) -> None:
        self.used = 0
        self._quotes = 0  # quote characters so far: odd means inside a quoted field
        self._separators = 0  # commas outside quotes so far

    def __iter__(self) -> _BoundedLines:
        return self

    def __next__(self) -> str:
        line = self._text.readline(self._max_record - self.used + 1)
        if not line:
            raise StopIteration
        self.used += len(line)
        if self.used > self._max_record:
            raise ImportFormatError(
                f"{self._where}: row {self.record}",
                f"record longer than {self._max_record} characters (not {self._what}, "
                "or a damaged one)",
            )
        if "," in line:
            unquoted = _QUOTED.sub("", '"' * (self._quotes % 2) + line)
            self._separators += unquoted.count(",")
            if self._separators >= self._max_columns:
                raise ImportFormatError(
                    f"{self._where}: row {self.record}",
                    f"more than {self._max_columns} columns; {self._what} has a few",
                )
        self._quotes += line.count('"')
        return line


def read_csv(
    stream: BinaryReader,
    where: str,
    *,
    what: str = "a provider export",
    max_record_chars: int = MAX_RECORD_CHARS,
    max_field_chars: int = MAX_FIELD_CHARS,
    max_columns: int = MAX_COLUMNS,
) -> Iterator[tuple[int, list[str]]]:
    """(row number, fields) of every record of a binary CSV stream, the first row being 1.
    `where` names the entry and `what` the kind of file in errors (``a Copilot export``).
    Strict: a stray quote or a quoted field left open at the end is an error, not a message
    silently glued to the rest of the file."""
    # Only ever raised: a lower process-wide limit set elsewhere would refuse real messages.
    csv.field_size_limit(max(csv.field_size_limit(), max_field_chars))
    head = stream.read(4)
    buffered = io.BufferedReader(Rejoined(head, stream), _BUFFER)
    text = io.TextIOWrapper(buffered, encoding=encoding_of(head), newline="")
    lines = _BoundedLines(text, where, what, max_record_chars, max_columns)
    reader = csv.reader(lines, strict=True)
    number = 0
    while True:
        lines.start_record()
        lines.record = number + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            reason = str(exc)
            if "field limit" in reason:
                reason = f"a field longer than {max_field_chars} characters"
            raise ImportFormatError(
                f"{where}: row {number + 1}", f"not valid CSV ({reason})"
            ) from None
        except UnicodeDecodeError as exc:
            # Text is decoded a chunk ahead of the rows: the byte is in this row or a later
            # one within that chunk.
            raise ImportFormatError(
                f"{where}: row {number + 1}",
                f"not UTF-8 or UTF-16 text ({exc.reason}; in this row or within the "
                f"{len(exc.object)} bytes after it)",
            ) from None
        number += 1
        if len(fields) > max_columns:
            raise ImportFormatError(
                f"{where}: row {number}", f"{len(fields)} columns; {what} has at most {max_columns}"
            )
        yield number, fields
