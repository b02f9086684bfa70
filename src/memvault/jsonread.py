"""Strict JSON reading: one place that turns bytes into JSON values or a clear error.

PAM documents are I-JSON in practice: RFC 8785 canonicalization (which the integrity checksum
and signatures rest on) is only defined for UTF-8 text without duplicate member names, so a
byte order mark, invalid UTF-8, NaN tokens, duplicate keys and runaway nesting are all refused
here with the file, the position and the rule — never a traceback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

_UTF8_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n"


@dataclass(slots=True)
class JSONDocumentError(Exception):
    """Bytes that are not acceptable JSON. `offset` is a byte offset when known."""

    file: str
    message: str
    offset: int | None = None
    rule: str = "RFC 8259"
    code: str = "json-syntax"
    record: str | None = None

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
    size = len(buf)
    pos = 0
    # Skip leading whitespace in bounded steps: a file of gigabytes of spaces must not be
    # copied into memory to find out that it is empty.
    step = 1 << 16
    while pos < size:
        chunk = bytes(buf[pos : pos + step])
        stripped = chunk.lstrip(_WHITESPACE)
        if stripped:
            return pos + len(chunk) - len(stripped)
        pos += len(chunk)
    raise JSONDocumentError(file, "file is empty (no JSON value)", 0, "RFC 8259 §2", "json-empty")


def loads(raw: bytes | bytearray | memoryview, file: str, *, base: int = 0) -> Any:
    """Parse one JSON text, refusing duplicate member names.

    `base` is the offset of `raw` within the file, so positions in errors are file offsets.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise decode_error(exc, raw, file, base) from None
    check_no_duplicate_keys(raw, value, file, base=base)
    return value


def check_no_duplicate_keys(
    raw: bytes | bytearray | memoryview,
    value: Any,
    file: str,
    *,
    base: int = 0,
    canonical: bytes | None = None,
    record: str | None = None,
) -> None:
    """Refuse a text whose objects repeat a member name (RFC 8785 §3.1 needs I-JSON).

    orjson keeps the last of duplicate members silently, so count instead: every member
    contributes exactly one ':' outside strings, and strings contribute the same number of
    ':' before and after parsing unless one was written as the escape \\u003a. If the raw
    text has more colons than a re-serialization of what was parsed, members were dropped.
    `canonical` may pass a re-serialization the caller already has (any orjson/JCS output).
    """
    data = bytes(raw)
    serialized = canonical if canonical is not None else orjson.dumps(value)
    if b"\\u003a" not in data and b"\\u003A" not in data:
        if data.count(b":") == serialized.count(b":"):
            return
    duplicates = find_duplicate_keys(data)
    if duplicates:
        key, where = duplicates[0]
        more = f" (and {len(duplicates) - 1} more)" if len(duplicates) > 1 else ""
        raise JSONDocumentError(
            file,
            f"duplicate member name {key!r} in {where}{more}",
            base,
            "RFC 8259 §4, RFC 8785 §3.1 (I-JSON)",
            "json-duplicate-key",
            record,
        )


def find_duplicate_keys(data: bytes) -> list[tuple[str, str]]:
    """Every repeated member name as (name, description of its object). Slow but exact."""
    found: list[tuple[str, str]] = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                obj = dict(pairs)
                label = obj.get("id")
                where = f"the object with id {label!r}" if isinstance(label, str) else "an object"
                found.append((key, where))
            seen.add(key)
        return dict(pairs)

    try:
        json.loads(data, object_pairs_hook=hook, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return found
    return found


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_error(
    exc: orjson.JSONDecodeError, raw: bytes | bytearray | memoryview, file: str, base: int
) -> JSONDocumentError:
    """Turn an orjson error into one that names the file, the offset and the rule."""
    message = str(exc.msg) if getattr(exc, "msg", None) else str(exc)
    pos = int(exc.pos) if getattr(exc, "pos", None) is not None else None
    offset = base + pos if pos is not None else None
    code = "json-syntax"
    rule = "RFC 8259"
    lowered = message.lower()
    token = bytes(raw[pos : pos + 9]) if pos is not None else b""
    if token.startswith((b"NaN", b"Infinity", b"-Infinity")):
        code, rule = "json-number", "RFC 8259 §6 (no NaN or Infinity)"
        message = f"{token.split(b',')[0].decode('ascii', 'replace')} is not a JSON number"
    elif "utf-8" in lowered or "surrogate" in lowered:
        code, rule = "json-encoding", "RFC 8259 §8.1 (UTF-8)"
    elif "depth" in lowered or "recursion" in lowered:
        code, rule = "json-depth", "nesting limit 1024"
        message = "nesting is deeper than 1024 levels"
    elif "empty" in lowered:
        code, rule = "json-empty", "RFC 8259 §2"
    elif "end of data" in lowered or "eof" in lowered:
        code = "json-truncated"
        message = "unexpected end of data: the file is truncated"
    return JSONDocumentError(file, message, offset, rule, code)
