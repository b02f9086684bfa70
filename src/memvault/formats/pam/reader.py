"""Read PAM documents without building them whole.

A 100,000-memory store is about 100 MB of JSON and 700 MB as Python objects. The reader maps
the file, finds the spans of the top-level members and of each memory with the C span scanner
(`memvault._speedups`), parses the small members at once and hands the memories out one at a
time, so memory stays bounded by one memory plus the mapped file. Without the accelerator it
falls back to parsing the whole document.
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from memvault import jsonread
from memvault.jsonread import JSONDocumentError

try:
    from memvault import _speedups
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _speedups = None

KIND_BY_SCHEMA: Final = {
    "portable-ai-memory": "memory-store",
    "portable-ai-memory-conversation": "conversation",
    "portable-ai-memory-embeddings": "embeddings",
}
AIMEM_FORMATS: Final = ("aimem-bundle", "memoryai-bundle")
#: Members that can be large and are only needed after the memories: parsed on demand.
DEFERRED_MEMBERS: Final = frozenset({"relations", "conversations_index"})
#: PAM documents have at most 16 top-level members and their schemas allow no others; a
#: document with thousands is refused at once rather than parsed member by member.
MAX_TOP_LEVEL_MEMBERS: Final = 1000


@dataclass(slots=True)
class Document:
    """A parsed top level; the `memories` array (if any) is kept as spans until iterated."""

    file: str
    buf: Any
    header: dict[str, Any]
    #: byte spans of memory objects, or None when `memories` was parsed eagerly / is absent
    #: per memory (start, end) or, from a scanner that counts, (start, end, members, depth):
    #: members = object members in the raw text, depth = its nesting depth
    memory_spans: list[tuple[int, ...]] | None = None
    #: parsed memories when the fallback path (or a non-array `memories`) was taken
    memories_value: Any = None
    has_memories: bool = False
    keys: list[str] = field(default_factory=list)
    #: large members not parsed yet: key -> (start, end, JSON path, the object members and
    #: nesting depth the scanner counted in them); see complete_header
    deferred: dict[str, tuple[int, int, str, int, int]] = field(default_factory=dict)

    def complete_header(self) -> None:
        """Parse the members `parse` deferred (relations, conversations_index) into `header`.

        They are only needed after the memories have been checked, and a validator with a
        worker process parses them while it waits for the worker. Raises JSONDocumentError.
        """
        while self.deferred:
            key, (start, end, path, members, depth) = next(iter(self.deferred.items()))
            del self.deferred[key]
            self.header[key] = jsonread.loads_counted(
                bytes(self.buf[start:end]),
                self.file,
                members=members,
                depth=depth,
                base=start,
                path=path,
            )

    @property
    def kind(self) -> str:
        schema = self.header.get("schema")
        if isinstance(schema, str) and schema in KIND_BY_SCHEMA:
            return KIND_BY_SCHEMA[schema]
        fmt = self.header.get("format")
        if isinstance(fmt, str) and fmt in AIMEM_FORMATS:
            return "aimem-bundle"
        return "unknown"

    @property
    def memory_count(self) -> int:
        if self.memory_spans is not None:
            return len(self.memory_spans)
        return len(self.memories_value) if isinstance(self.memories_value, list) else 0

    def iter_memories(
        self, *, check_duplicates: bool = True
    ) -> Iterator[tuple[int, bytes | None, Any]]:
        """(index, raw bytes or None, parsed memory) for each element of `memories`.

        The validator passes `check_duplicates=False` and checks against the canonical bytes
        it computes anyway, which saves a second serialization per memory.
        """
        if self.memory_spans is None:
            if isinstance(self.memories_value, list):
                for index, memory in enumerate(self.memories_value):
                    yield index, None, memory
            return
        buf = self.buf
        for index, span in enumerate(self.memory_spans):
            start, end = span[0], span[1]
            raw = bytes(buf[start:end])
            path = f"$.memories[{index}]"
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise jsonread.decode_error(exc, raw, self.file, start, path=path) from None
            jsonread.check_depth(raw, self.file, base=start, path=path)
            if check_duplicates:
                jsonread.check_no_duplicate_keys(raw, value, self.file, base=start, path=path)
            yield index, raw, value

    def full(self) -> dict[str, Any]:
        """The whole document as one value (materializes every memory)."""
        self.complete_header()
        doc = dict(self.header)
        if self.has_memories:
            doc["memories"] = (
                [m for _, _, m in self.iter_memories()]
                if self.memory_spans is not None
                else self.memories_value
            )
        return doc


def parse(buf: Any, file: str) -> Document:
    """Parse the top level of a JSON document held in `buf` (bytes or mmap)."""
    start = jsonread.first_significant_byte(buf, file)
    if buf[start : start + 1] != b"{":
        raise _not_an_object(buf, start, file)
    if _speedups is None:
        return _parse_whole(buf, file)
    try:
        # The memories' item spans come from the same pass over the bytes.
        members, end, memory_items = _speedups.object_members(buf, start, items_of=_MEMORIES_KEY)
    except ValueError as exc:
        # The scanner checks structure only and stops at the first problem, which it reports
        # with its offset. Parsing the whole file to describe it would cost memory in
        # proportion to the file, so find the member (and item) it is in instead.
        raise _structure_error(exc, buf, start, file) from None
    _check_trailing(buf, end, file)
    if len(members) > MAX_TOP_LEVEL_MEMBERS:
        raise JSONDocumentError(
            file,
            f"the top-level object has {len(members)} members; PAM documents define at most "
            f"16 and allow no others",
            start,
            "PAM §3 (additionalProperties: false)",
            "too-many-members",
            path="$",
        )
    header: dict[str, Any] = {}
    doc = Document(file, buf, header)
    for key_start, key_end, value_start, value_end, value_members, value_depth in members:
        key = jsonread.loads(bytes(buf[key_start:key_end]), file, base=key_start)
        if key in header or key in doc.deferred or (key == "memories" and doc.has_memories):
            raise JSONDocumentError(
                file,
                f"duplicate top-level member name {key!r}",
                key_start,
                "RFC 8259 §4, RFC 8785 §3.1 (I-JSON)",
                "json-duplicate-key",
                path="$",
            )
        doc.keys.append(key)
        path = "$" + jsonread.member_path(key)
        if key == "memories":
            doc.has_memories = True
            if buf[value_start : value_start + 1] == b"[":
                if memory_items is not None and bytes(buf[key_start:key_end]) == _MEMORIES_KEY:
                    spans = memory_items
                else:  # the name written with escapes, e.g. "memorie\u0073"
                    try:
                        spans, _ = _array_items_with_stats(buf, value_start)
                    except ValueError as exc:  # pragma: no cover - object_members scanned it
                        raise _structure_error(exc, buf, start, file) from None
                doc.memory_spans = spans
                # The scan read every page of the array; they are read again one batch at a
                # time while validating, so let them go now.
                if isinstance(buf, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
                    buf.madvise(mmap.MADV_DONTNEED)
            else:
                doc.memories_value = jsonread.loads(
                    bytes(buf[value_start:value_end]), file, base=value_start, path=path
                )
            continue
        if key in DEFERRED_MEMBERS:
            doc.deferred[key] = (value_start, value_end, path, value_members, value_depth)
            continue
        header[key] = jsonread.loads(
            bytes(buf[value_start:value_end]), file, base=value_start, path=path
        )
    return doc


#: What a document that is not a JSON object starts with, for the message.
_MAGIC: Final = {
    b"PK\x03\x04": "a zip archive, not a JSON document (archives inside archives are not opened)",
    b"\x1f\x8b": "gzip-compressed data, not a JSON document",
}


def _not_an_object(buf: Any, start: int, file: str) -> JSONDocumentError:
    head = bytes(buf[start : start + 8])
    kind = None
    if head[:1] == b"[":
        kind = "an array"
    elif head[:1] == b'"':
        kind = "a string"
    elif head.startswith((b"true", b"false", b"null")):
        kind = "a literal"
    elif head[:1].isdigit() or (head[:1] == b"-" and head[1:2].isdigit()):
        kind = "a number"
    if kind is not None:
        return JSONDocumentError(
            file,
            f"the top-level value is {kind}; a PAM document is a JSON object",
            start,
            "PAM §3",
            "json-not-object",
            path="$",
        )
    what = next((text for magic, text in _MAGIC.items() if head.startswith(magic)), None)
    if what is None:
        found = f"{chr(head[0])!r}" if 0x20 < head[0] < 0x7F else f"byte 0x{head[0]:02X}"
        what = f"not JSON: it starts with {found}, which cannot begin a JSON value"
    return JSONDocumentError(file, f"the file is {what}", start, "RFC 8259 §2", "json-syntax")


#: The raw name whose array items `parse` collects while scanning the top level.
_MEMORIES_KEY: Final = b'"memories"'
_AT_BYTE: Final = re.compile(r" at byte (\d+)")


def _structure_error(exc: ValueError, buf: Any, start: int, file: str) -> JSONDocumentError:
    """A span-scanner error as a JSONDocumentError naming the member or item it is in."""
    text = str(exc)
    match = _AT_BYTE.search(text)
    offset = int(match.group(1)) if match else None
    message = text.replace(match.group(0), "") if match else text
    code, rule = "json-syntax", "RFC 8259"
    if text.startswith("unexpected end of data"):
        code, message = "json-truncated", "unexpected end of data: the file is truncated"
    elif text.startswith("control character"):
        rule = "RFC 8259 §7 (control characters in strings must be escaped)"
    path, where = _locate(buf, start)
    if where:
        message = f"{message} ({where})"
    return JSONDocumentError(file, message, offset, rule, code, path=path)


def _locate(buf: Any, start: int) -> tuple[str, str]:
    """Where the structure scanner gives up: (JSON path, words for the message) naming the
    top-level member, and the item when that member is an array. Walks the members with
    `value_end`, so only the error path pays for it, in no memory beyond one key."""
    assert _speedups is not None
    value_end = _speedups.value_end
    pos = start + 1
    after = ""
    for _ in range(MAX_TOP_LEVEL_MEMBERS):
        pos = jsonread.skip_whitespace(buf, pos, step=256)
        if buf[pos : pos + 1] != b'"':
            return "$", after
        try:
            key_end = value_end(buf, pos)
            key = orjson.loads(bytes(buf[pos:key_end]))
        except (ValueError, orjson.JSONDecodeError):
            return "$", after
        path = "$" + jsonread.member_path(key)
        pos = jsonread.skip_whitespace(buf, key_end, step=256)
        if buf[pos : pos + 1] != b":":
            return "$", f"after the key of {path}"
        pos = jsonread.skip_whitespace(buf, pos + 1, step=256)
        try:
            pos = value_end(buf, pos)
        except ValueError:
            if buf[pos : pos + 1] == b"[":
                return _locate_item(buf, pos, path)
            return path, f"inside {path}"
        pos = jsonread.skip_whitespace(buf, pos, step=256)
        if buf[pos : pos + 1] != b",":
            return "$", f"after {path}"
        pos += 1
        after = f"after {path}"
    return "$", after


#: Whitespace, a comma and whitespace: the gap between two array items.
_NEXT_ITEM: Final = re.compile(rb"[ \t\r\n]*,[ \t\r\n]*")
#: Items walked to name the one an error is in; beyond this the array is named alone.
_LOCATE_ITEMS: Final = 1_000_000


def _locate_item(buf: Any, pos: int, path: str) -> tuple[str, str]:
    assert _speedups is not None
    value_end = _speedups.value_end
    pos = jsonread.skip_whitespace(buf, pos + 1, step=256)
    for index in range(_LOCATE_ITEMS):
        item = f"{path}[{index}]"
        try:
            pos = value_end(buf, pos)
        except ValueError:
            return item, f"inside {item}"
        gap = _NEXT_ITEM.match(buf, pos)
        if gap is None:
            return path, f"after {item}"
        pos = gap.end()
    return path, f"inside {path}, after item {_LOCATE_ITEMS}"


def _array_items_with_stats(buf: Any, pos: int) -> tuple[list[tuple[int, ...]], int]:
    """Item spans with member counts and depths when the accelerator can count them."""
    assert _speedups is not None
    try:
        result: tuple[list[tuple[int, ...]], int] = _speedups.array_items(buf, pos, stats=True)
    except TypeError:  # an accelerator built before stats existed
        result = _speedups.array_items(buf, pos)
    return result


def _check_trailing(buf: Any, end: int, file: str) -> None:
    pos = jsonread.skip_whitespace(buf, end)
    if pos < len(buf):
        raise JSONDocumentError(
            file,
            "unexpected data after the end of the JSON document",
            pos,
            "RFC 8259 §2",
            path="$",
        )


def _parse_whole(buf: Any, file: str) -> Document:
    value = jsonread.loads(bytes(buf), file)
    header = {k: v for k, v in value.items() if k != "memories"}
    doc = Document(file, buf, header, keys=list(value))
    if "memories" in value:
        doc.has_memories = True
        doc.memories_value = value["memories"]
    return doc
