"""Read PAM documents without building them whole.

A 100,000-memory store is about 100 MB of JSON and 700 MB as Python objects. The reader maps
the file, finds the spans of the top-level members and of each memory with the C span scanner
(`memvault._speedups`), parses the small members at once and hands the memories out one at a
time, so memory stays bounded by one memory plus the mapped file. Without the accelerator it
falls back to parsing the whole document.
"""

from __future__ import annotations

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


@dataclass(slots=True)
class Document:
    """A parsed top level; the `memories` array (if any) is kept as spans until iterated."""

    file: str
    buf: Any
    header: dict[str, Any]
    #: byte spans of memory objects, or None when `memories` was parsed eagerly / is absent
    memory_spans: list[tuple[int, int]] | None = None
    #: parsed memories when the fallback path (or a non-array `memories`) was taken
    memories_value: Any = None
    has_memories: bool = False
    keys: list[str] = field(default_factory=list)

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
        for index, (start, end) in enumerate(self.memory_spans):
            raw = bytes(buf[start:end])
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise jsonread.decode_error(exc, raw, self.file, start) from None
            if check_duplicates:
                jsonread.check_no_duplicate_keys(raw, value, self.file, base=start)
            yield index, raw, value

    def full(self) -> dict[str, Any]:
        """The whole document as one value (materializes every memory)."""
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
    first = buf[start : start + 1]
    if first != b"{":
        kind = {
            b"[": "an array",
            b'"': "a string",
            b"t": "a literal",
            b"f": "a literal",
            b"n": "a literal",
        }.get(bytes(first), "not a JSON object")
        raise JSONDocumentError(
            file,
            f"the top-level value is {kind}; a PAM document is a JSON object",
            start,
            "PAM §3",
            "json-not-object",
        )
    if _speedups is None:
        return _parse_whole(buf, file)
    try:
        members, end = _speedups.object_members(buf, start)
    except ValueError as exc:
        # The scanner only knows structure; let the full parser describe the problem.
        try:
            jsonread.loads(bytes(buf), file)
        except JSONDocumentError as detailed:
            raise detailed from None
        raise JSONDocumentError(file, str(exc), None, "RFC 8259", "json-syntax") from None
    _check_trailing(buf, end, file)
    header: dict[str, Any] = {}
    doc = Document(file, buf, header)
    for key_start, key_end, value_start, value_end in members:
        key = jsonread.loads(bytes(buf[key_start:key_end]), file, base=key_start)
        if key in header or (key == "memories" and doc.has_memories):
            raise JSONDocumentError(
                file,
                f"duplicate top-level member name {key!r}",
                key_start,
                "RFC 8259 §4, RFC 8785 §3.1 (I-JSON)",
                "json-duplicate-key",
            )
        doc.keys.append(key)
        if key == "memories":
            doc.has_memories = True
            if buf[value_start : value_start + 1] == b"[":
                try:
                    spans, _ = _speedups.array_items(buf, value_start)
                except ValueError as exc:
                    raise JSONDocumentError(file, str(exc), None, "RFC 8259") from None
                doc.memory_spans = [(s, e) for s, e in spans]
            else:
                doc.memories_value = jsonread.loads(
                    bytes(buf[value_start:value_end]), file, base=value_start
                )
            continue
        header[key] = jsonread.loads(bytes(buf[value_start:value_end]), file, base=value_start)
    return doc


def _check_trailing(buf: Any, end: int, file: str) -> None:
    tail = bytes(buf[end : end + 4096]).strip(b" \t\r\n")
    if tail or (len(buf) - end > 4096 and bytes(buf[end:]).strip(b" \t\r\n")):
        raise JSONDocumentError(
            file, "unexpected data after the end of the JSON document", end, "RFC 8259 §2"
        )


def _parse_whole(buf: Any, file: str) -> Document:
    value = jsonread.loads(bytes(buf), file)
    header = {k: v for k, v in value.items() if k != "memories"}
    doc = Document(file, buf, header, keys=list(value))
    if "memories" in value:
        doc.has_memories = True
        doc.memories_value = value["memories"]
    return doc
