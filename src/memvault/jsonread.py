"""Strict JSON reading: one place that turns bytes into JSON values or a clear error.

PAM documents are I-JSON in practice: RFC 8785 canonicalization (which the integrity checksum
and signatures rest on) is only defined for UTF-8 text without duplicate member names, so a
byte order mark, invalid UTF-8, NaN tokens, duplicate keys and runaway nesting are all refused
here with the file, the position and the rule — never a traceback.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, NamedTuple

import orjson

from memvault.errors import HTTP_BAD_REQUEST, VaultError

_UTF8_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n"
#: A string token or one structural character; scalars and whitespace are skipped over.
_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[{}\[\],]', re.S)
#: An escaped colon (\u003a) inside a string, not preceded by an escaped backslash.
_COLON_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*+\\u003[aA]")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NON_NUMBER = re.compile(rb"-?(?:NaN|Infinity)")
#: A string token or a bracket, for measuring nesting.
_NESTING = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.S)
_QUOTED = re.compile(rb'"[^"]*+"')
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')

#: Deepest nesting accepted (RFC 8259 §9 lets a parser set one). A PAM document needs fewer
#: than ten levels; the libraries behind validation stop near 255 (orjson.dumps,
#: jsonschema-rs) or 1024 (orjson.loads), so a limit well below them keeps every later step
#: safe. Deeper input is refused here with the place it happens.
MAX_DEPTH = 200
#: Deepest nesting read from a provider export (or any file read as a stream). The importers
#: put a provider's value at most a few levels deeper in the PAM documents memvault writes
#: (Gemini: 3), so what `convert` writes of an export it accepts stays within MAX_DEPTH.
STREAM_MAX_DEPTH = MAX_DEPTH - 8

try:
    from memvault._speedups import member_count as _member_count
    from memvault._speedups import nesting_scan as _c_nesting_scan
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _member_count = None
    _c_nesting_scan = None
_DEPTH_RULE = f"RFC 8259 §9 (nesting limit {MAX_DEPTH})"


@dataclass(slots=True)
class JSONDocumentError(VaultError):
    """Bytes that are not acceptable JSON. `offset` is a byte offset when known.

    `path` is the JSON path of the value the problem is in, when known; it is also part of
    `message`, so a caller that shows only the message still tells the user where.
    """

    http_status = HTTP_BAD_REQUEST

    file: str
    message: str
    offset: int | None = None
    rule: str = "RFC 8259"
    code: str = "json-syntax"
    record: str | None = None
    path: str | None = None

    def __str__(self) -> str:
        where = f" at byte {self.offset}" if self.offset is not None else ""
        return f"{self.file}: {self.message}{where} ({self.rule})"


def first_significant_byte(buf: Any, file: str) -> int:
    """Offset of the first non-whitespace byte, after refusing a BOM and empty input."""
    head = bytes(buf[:3])
    if head == _UTF8_BOM:
        raise JSONDocumentError(
            file,
            "file starts with a UTF-8 byte order mark; JSON text must not begin with one",
            0,
            "RFC 8259 §8.1",
            "json-bom",
        )
    pos = skip_whitespace(buf, 0)
    if pos < len(buf):
        return pos
    what = "file is empty" if len(buf) == 0 else "file holds only whitespace"
    raise JSONDocumentError(file, f"{what} (no JSON value)", 0, "RFC 8259 §2", "json-empty")


def skip_whitespace(buf: Any, pos: int, *, step: int = 1 << 16) -> int:
    """Offset of the first non-whitespace byte at or after `pos` (len(buf) if none).

    Works in bounded steps: a file of gigabytes of spaces is never copied whole.
    """
    size = len(buf)
    while pos < size:
        chunk = bytes(buf[pos : pos + step])
        stripped = chunk.lstrip(_WHITESPACE)
        if stripped:
            return pos + len(chunk) - len(stripped)
        pos += len(chunk)
    return size


def loads(
    raw: bytes | bytearray | memoryview, file: str, *, base: int = 0, path: str | None = None
) -> Any:
    """Parse one JSON text, refusing duplicate member names.

    `base` is the offset of `raw` within the file, so positions in errors are file offsets;
    `path` is the JSON path of the value, named in errors.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise decode_error(exc, raw, file, base, path=path) from None
    check_depth(raw, file, base=base, path=path)
    check_no_duplicate_keys(raw, value, file, base=base, path=path)
    return value


def loads_counted(
    raw: bytes | bytearray | memoryview,
    file: str,
    *,
    members: int,
    depth: int,
    base: int = 0,
    path: str | None = None,
) -> Any:
    """`loads` for a text the C scanner has measured: `members` object members in the raw
    text (duplicates included) and nesting `depth`. The depth and duplicate checks then cost
    a count over the parsed value instead of passes over the text; only a text that fails
    them is searched for the place to name."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise decode_error(exc, raw, file, base, path=path) from None
    if depth > MAX_DEPTH:
        check_depth(raw, file, base=base, path=path)
    if _member_count is None or _member_count(value) != members:
        check_no_duplicate_keys(raw, value, file, base=base, path=path)
        if _member_count is not None:  # the counts differ: orjson dropped members
            raise _members_dropped(file, base, None, path)
    return value


def check_depth(
    raw: bytes | bytearray | memoryview,
    file: str,
    *,
    base: int = 0,
    path: str | None = None,
    record: str | None = None,
    limit: int = MAX_DEPTH,
) -> None:
    """Refuse well-formed JSON nested deeper than `limit` levels.

    Cheap for ordinary input: a text with no more than `limit` brackets cannot be nested
    deeper than that, so only texts with more brackets are measured.
    """
    data = bytes(raw)
    if data.count(b"{") + data.count(b"[") <= limit:
        return
    # Keep only brackets and quotes, once escaped backslashes and quotes are gone (bytes
    # methods run left to right, as JSON's escapes do), then drop the strings' contents.
    # Removing any two adjacent quotes first is safe (no bracket lies between them) and
    # leaves only the strings that hold brackets for the slower regex.
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = data.translate(None, _NOT_BRACKET_OR_QUOTE).replace(b'""', b"")
    if b'"' in brackets:
        brackets = _QUOTED.sub(b"", brackets)
    depth = 0
    for byte in brackets:
        if byte in (0x5B, 0x7B):  # '[' '{'
            depth += 1
            if depth > limit:
                break
        else:
            depth -= 1
    else:
        return
    offset = base
    depth = 0
    for match in _NESTING.finditer(bytes(raw)):  # again, for the offset of the one too deep
        char = match.group()[:1]
        if char in (b"[", b"{"):
            depth += 1
            if depth > limit:
                offset = base + match.start()
                break
        elif char != b'"':
            depth -= 1
    raise JSONDocumentError(
        file,
        f"nesting is deeper than {limit} levels" + (f" in {path}" if path else ""),
        offset,
        _DEPTH_RULE,
        "json-depth",
        record,
        path,
    )


def _members_dropped(
    file: str, base: int, record: str | None, path: str | None
) -> JSONDocumentError:
    """Duplicate names known from the counts alone, with no place found to name."""
    return JSONDocumentError(
        file,
        "duplicate member names" + (f" in {path}" if path else ""),
        base,
        "RFC 8259 §4, RFC 8785 §3.1 (I-JSON)",
        "json-duplicate-key",
        record,
        path,
    )


class Duplicate(NamedTuple):
    """A repeated member name: the name, the relative JSON path of its object, its offset."""

    key: str
    where: str
    offset: int


def check_no_duplicate_keys(
    raw: bytes | bytearray | memoryview,
    value: Any,
    file: str,
    *,
    base: int = 0,
    canonical: bytes | None = None,
    record: str | None = None,
    path: str | None = None,
) -> None:
    """Refuse a text whose objects repeat a member name (RFC 8785 §3.1 needs I-JSON).

    orjson keeps the last of duplicate members silently, so count instead: every member
    contributes exactly one ':' outside strings, and a ':' inside a string survives parsing
    and re-serialization, once for a literal ':' and once for each \\u003a escape. If the raw
    text has fewer colons (plus escapes) than a re-serialization of what was parsed, members
    were dropped. `canonical` may pass a re-serialization the caller already has (any
    orjson/JCS output). `path` is the JSON path of `raw`, used in the message.
    """
    data = bytes(raw)
    try:
        serialized = canonical if canonical is not None else orjson.dumps(value)
    except TypeError:  # orjson.dumps stops at 255 levels of nesting; walk the text instead
        serialized = None
    if serialized is not None:
        escapes = len(_COLON_ESCAPE.findall(data)) if b"\\u003" in data else 0
        if data.count(b":") + escapes == serialized.count(b":"):
            return
    duplicates = find_duplicate_keys(data)
    if not duplicates and serialized is None:
        return
    if not duplicates:  # the count says members were dropped; never let that pass silently
        raise _members_dropped(file, base, record, path)
    first = duplicates[0]
    where = (path or "") + first.where
    if path is None:
        where = where.lstrip(".")
    if len(where) > 120:
        where = f"{where[:60]}…{where[-50:]}"
    more = f" (and {len(duplicates) - 1} more)" if len(duplicates) > 1 else ""
    raise JSONDocumentError(
        file,
        f"duplicate member name {first.key!r}" + (f" in {where}" if where else "") + more,
        base + first.offset,
        "RFC 8259 §4, RFC 8785 §3.1 (I-JSON)",
        "json-duplicate-key",
        record,
        (path or "$") + first.where,
    )


def find_duplicate_keys(data: bytes) -> list[Duplicate]:
    """Every repeated member name in a well-formed JSON text, in document order.

    A token walk rather than a parse, so it is iterative (no recursion limit) and knows
    where each key is: `where` is relative to the text ('' for its top level, '.temporal',
    '[3]', '["odd key"]'), `offset` the byte offset of the repeated key.
    """
    found: list[Duplicate] = []
    # one frame per open container: [is_object, path, keys seen, array index, last key,
    # expecting a key]
    stack: list[list[Any]] = []
    for match in _TOKEN.finditer(data):
        token = match.group()
        char = token[:1]
        top = stack[-1] if stack else None
        if char == b'"':
            if top is not None and top[0] and top[5]:
                key = json.loads(token)
                if key in top[2]:
                    found.append(Duplicate(key, top[1], match.start()))
                top[2].add(key)
                top[4] = key
                top[5] = False
        elif char in (b"{", b"["):
            if top is None:
                child = ""
            elif top[0]:
                child = top[1] + member_path(top[4])
            else:
                child = f"{top[1]}[{top[3]}]"
            stack.append([char == b"{", child, set(), 0, None, True])
        elif char in (b"}", b"]"):
            if stack:
                stack.pop()
        elif top is not None:  # ','
            if top[0]:
                top[5] = True
            else:
                top[3] += 1
    return found


def member_path(key: str) -> str:
    """The JSON path step for member `key`: `.name`, or `["odd key"]`."""
    return f".{key}" if _IDENTIFIER.fullmatch(key) else f"[{json.dumps(key, ensure_ascii=False)}]"


def decode_error(
    exc: orjson.JSONDecodeError,
    raw: bytes | bytearray | memoryview,
    file: str,
    base: int,
    *,
    path: str | None = None,
) -> JSONDocumentError:
    """Turn an orjson error into one that names the file, the offset, the rule and, when
    `path` is given, the JSON path of the value."""
    message = str(exc.msg) if getattr(exc, "msg", None) else str(exc)
    pos = int(exc.pos) if getattr(exc, "pos", None) is not None else None
    code = "json-syntax"
    rule = "RFC 8259"
    lowered = message.lower()
    non_number = None
    if pos is not None:
        # orjson points at the 'I' of '-Infinity'; look one byte back for the sign.
        back = 1 if pos > 0 and raw[pos - 1 : pos] == b"-" else 0
        non_number = _NON_NUMBER.match(bytes(raw[pos - back : pos + 9]))
    if non_number is not None:
        code, rule = "json-number", "RFC 8259 §6 (no NaN or Infinity)"
        message = f"{non_number.group().decode('ascii')} is not a JSON number"
        pos = (pos or 0) - back
    elif "utf-8" in lowered:
        code, rule = "json-encoding", "RFC 8259 §8.1 (UTF-8)"
        bad = _first_invalid_utf8(raw)
        if bad is not None:
            pos = bad
            message = f"invalid UTF-8 (byte 0x{raw[bad]:02X} cannot appear here)"
        else:
            message = "invalid UTF-8"
    elif "surrogate" in lowered:
        code, rule = "json-encoding", "RFC 8259 §8.2 (unpaired surrogate escape)"
    elif "depth" in lowered or "recursion" in lowered:
        code, rule = "json-depth", _DEPTH_RULE
        message = f"nesting is deeper than {MAX_DEPTH} levels"
    elif "empty" in lowered:
        code, rule = "json-empty", "RFC 8259 §2"
    elif "end of data" in lowered or "eof" in lowered:
        code = "json-truncated"
        message = "unexpected end of data: the file is truncated"
    if path is not None:
        message = f"{message} in {path}"
    offset = base + pos if pos is not None else None
    return JSONDocumentError(file, message, offset, rule, code, path=path)


def _first_invalid_utf8(raw: bytes | bytearray | memoryview) -> int | None:
    try:
        bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


# -- nesting, bounded before anything parses ---------------------------------------------------
#
# ijson keeps state for every open level (its event prefixes grow with depth, so memory is
# quadratic in it) and orjson/yajl recurse. Every JSON reader therefore sees its bytes through
# `DepthBoundedReader` (sources.Entry.stream does it) or `check_nesting`: a byte scan with O(1)
# state that stops at the first bracket opening level MAX_DEPTH + 1.

#: Outside a string: a run of bytes that are neither a quote nor a bracket.
_PLAIN = re.compile(rb'[^"\[\]{}]*+')
#: Inside a string: a run up to (not including) its closing quote or a final lone backslash.
_STRING_BODY = re.compile(rb'(?:[^"\\]++|\\.)*+', re.S)


def nesting_scan_py(
    data: bytes | bytearray | memoryview, state: int, limit: int
) -> tuple[int, int]:
    """The pure-Python twin of the C `nesting_scan` (same state, same answers; the fuzzer
    compares them). `state` packs depth << 2 | in_string << 1 | escaped; returns the new state
    and the offset of the bracket opening level `limit` + 1, or -1."""
    data = bytes(data)
    depth, in_string, escaped = state >> 2, (state >> 1) & 1, state & 1
    pos, size = 0, len(data)
    while pos < size:
        if in_string:
            if escaped:
                escaped, pos = 0, pos + 1
                continue
            match = _STRING_BODY.match(data, pos)
            pos = match.end() if match else pos
            if pos >= size:
                break
            if data[pos] == 0x5C:  # a backslash that is the chunk's last byte
                escaped = 1
            else:
                in_string = 0
            pos += 1
            continue
        match = _PLAIN.match(data, pos)
        pos = match.end() if match else pos
        if pos >= size:
            break
        char = data[pos]
        if char == 0x22:
            in_string = 1
        elif char in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return depth << 2 | in_string << 1 | escaped, pos
        elif depth:
            depth -= 1
        pos += 1
    return depth << 2 | in_string << 1 | escaped, -1


nesting_scan: Callable[[Any, int, int], tuple[int, int]] = (
    _c_nesting_scan if _c_nesting_scan is not None else nesting_scan_py
)

#: A nesting error names the path of the value too deep only when the bytes before it are
#: at most this many (they are walked again, in Python, to find it).
PATH_SEARCH_BYTES = 32 << 20
_PATH_STEPS_SHOWN = 12


def nesting_error(
    file: str, offset: int, prefix: bytes | None = None, *, limit: int = MAX_DEPTH
) -> JSONDocumentError:
    """The error for a text whose bracket at `offset` opens level `limit` + 1; with the
    text's first `offset` bytes (`prefix`), it names the record and member it is in."""
    path = path_at(prefix, offset) if prefix is not None else None
    where = f" in {path}" if path else ""
    return JSONDocumentError(
        file,
        f"nesting is deeper than {limit} levels{where}",
        offset,
        f"RFC 8259 §9 (nesting limit {limit})",
        "json-depth",
        None,
        path,
    )


def check_nesting(buf: Any, file: str, *, limit: int = MAX_DEPTH, step: int = 1 << 22) -> None:
    """Refuse a whole text (bytes or a mapped file) nested deeper than `limit`, in bounded
    steps and before any parser sees it."""
    state, pos, size = 0, 0, len(buf)
    while pos < size:
        chunk = buf[pos : pos + step]
        state, over = nesting_scan(chunk, state, limit)
        if over >= 0:
            at = pos + over
            prefix = bytes(buf[:at]) if at <= PATH_SEARCH_BYTES else None
            raise nesting_error(file, at, prefix, limit=limit)
        pos += len(chunk)


def path_at(data: bytes, offset: int) -> str:
    """The JSON path of the value that starts at `offset` of a text (`data` holds at least the
    text before it), e.g. ``$[3].mapping.node.message.metadata[0][0]…(+190 levels)``: the
    record (the top-level item) and the member are named, a long run of nesting shortened."""
    steps: list[str] = []
    # one frame per open container: [is_object, array index, last key, expecting a key]
    stack: list[list[Any]] = []
    for match in _TOKEN.finditer(data, 0, offset):
        token = match.group()
        char = token[:1]
        top = stack[-1] if stack else None
        if char == b'"':
            if top is not None and top[0] and top[3]:
                try:
                    top[2] = json.loads(token)
                except ValueError:
                    top[2] = token.decode("utf-8", "replace").strip('"')
                top[3] = False
        elif char in (b"{", b"["):
            if top is not None:
                steps.append(member_path(top[2]) if top[0] else f"[{top[1]}]")
            stack.append([char == b"{", 0, "", True])
        elif char in (b"}", b"]"):
            if stack:
                stack.pop()
                if steps:
                    steps.pop()
        elif top is not None:  # ','
            if top[0]:
                top[3] = True
            else:
                top[1] += 1
    top = stack[-1] if stack else None
    if top is not None:
        steps.append(member_path(top[2]) if top[0] else f"[{top[1]}]")
    if len(steps) > _PATH_STEPS_SHOWN:
        hidden = len(steps) - _PATH_STEPS_SHOWN
        return "$" + "".join(steps[:_PATH_STEPS_SHOWN]) + f"…(+{hidden} levels)"
    return "$" + "".join(steps)


class DepthBoundedReader(io.RawIOBase):
    """A binary stream that hands its bytes on only once they are known to nest no deeper
    than `limit`. At the first bracket too deep it ends: the bytes before it are the last it
    gives, then it reports end of file and keeps the JSONDocumentError of `nesting_error` in
    `error` (without the path: the owner may read the prefix again to name it). A parser
    then fails on a truncated text, and the owner of the stream raises `error` instead;
    a sniffer that reads only a head still gets the bytes before the deep part.

    Only a text that starts like JSON (its first byte after a byte order mark and whitespace
    is ``{`` or ``[``) is counted: a CSV, a text file or an image passes through untouched.
    """

    def __init__(self, raw: IO[bytes], file: str, *, limit: int = MAX_DEPTH) -> None:
        super().__init__()
        self._raw = raw
        self._file = file
        self._limit = limit
        self._state = 0
        self._offset = 0
        self._mode: bool | None = None  # None until the first significant byte is seen
        self.error: JSONDocumentError | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.error is not None:
            return 0
        view = memoryview(buffer).cast("B")
        data = self._raw.read(len(view))
        if not data:
            return 0
        if self._mode is None:
            head = data[3:] if self._offset == 0 and data[:3] == _UTF8_BOM else data
            first = head.lstrip(_WHITESPACE)[:1]
            if first:
                self._mode = first in (b"{", b"[")
        if self._mode is not False:
            self._state, over = nesting_scan(data, self._state, self._limit)
            if over >= 0:
                self.error = nesting_error(self._file, self._offset + over, limit=self._limit)
                data = data[:over]
        view[: len(data)] = data
        self._offset += len(data)
        return len(data)
