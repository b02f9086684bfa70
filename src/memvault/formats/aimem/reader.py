"""Read AIMEM bundles — a ``.aimem.json`` document or an NDJSON stream (§3.1) — streaming.

`open_bundle` detects the form from the content, then makes a first pass that verifies the
checksum (§2.8) before anything else is looked at: it reads the envelope, hashes the canonical
bytes of every record as it streams past and gathers the chunk and entity ids. Only then does
`BundleReader.records` make a second pass and hand out the records one at a time, each with
the problems `BundleRules` finds in it. Memory stays bounded by one record plus the id sets:

- the JSON form is parsed with ``ijson`` (yajl2 C backend): one pass over the parse events for
  the envelope and ids, one ``ijson.items`` pass per record array (in canonical order for the
  hash, in chunks → entities → edges → links order for the records);
- the NDJSON form is read line by line; the records' canonical bytes are spooled to temporary
  files per kind during the first pass, since the hash needs them grouped by array.

An NDJSON stream stands for the bundle with all four arrays (empty when it has no record of a
kind), records without their ``_kind`` tag: its envelope's checksum is that bundle's checksum,
so converting between the forms keeps the checksum.
"""

from __future__ import annotations

import io
import json
import mmap
import os
import shutil
import tempfile
from array import array as int_array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final, Literal

import ijson
import orjson

from memvault import jsonread
from memvault.canonical import MAX_SAFE_INTEGER, CanonicalizationError, jcs_dumps
from memvault.formats.aimem.checksum import ARRAYS, CanonicalBundleHasher
from memvault.formats.aimem.errors import (
    STATUS_CONFLICT,
    BundleError,
    Problem,
    pointer,
)
from memvault.formats.aimem.validate import (
    FORMATS,
    BundleReport,
    BundleRules,
    check_format_version,
    is_checksum,
)
from memvault.jsonread import JSONDocumentError
from memvault.sources import SourceError

try:
    from memvault import _speedups
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _speedups = None

__all__ = [
    "ARRAY_OF",
    "ENVELOPE_MEMBERS",
    "KIND_OF",
    "MAX_LINE_BYTES",
    "MAX_PROBLEMS",
    "BundleReader",
    "Form",
    "Record",
    "as_doubles",
    "bundle_bytes_stream",
    "detect_form",
    "is_bundle_stream",
    "is_envelope",
    "open_bundle",
    "sniff",
    "sniff_stream",
    "validate_bundle",
]

Form = Literal["json", "ndjson"]
#: NDJSON ``_kind`` tag → bundle array (§3.1), and back.
ARRAY_OF: Final = {
    "chunk": "chunks",
    "edge": "edges",
    "entity": "entities",
    "chunk_entity": "chunk_entities",
}
KIND_OF: Final = {array: kind for kind, array in ARRAY_OF.items()}
#: Longest NDJSON line accepted (a chunk of 65,536 astral code points is 256 KiB).
MAX_LINE_BYTES: Final = 16 * 1024 * 1024
#: A validation report keeps at most this many problems (a broken giant bundle has millions).
MAX_PROBLEMS: Final = 1000
#: Records are handed out in this order so ids are known before they are referred to.
_RECORD_ORDER: Final = ("chunks", "entities", "edges", "chunk_entities")
_SNIFF_BYTES: Final = 1 << 20
_BOM: Final = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Record:
    """One record of a bundle: its kind, position in its array, value and problems."""

    kind: str  # "chunk", "edge", "entity" or "chunk_entity"
    index: int
    value: Any
    problems: tuple[Problem, ...] = ()

    @property
    def array(self) -> str:
        """The bundle array the record belongs to (``chunks`` for a chunk...)."""
        return ARRAY_OF[self.kind]

    @property
    def ok(self) -> bool:
        """True when the record has no error (warnings allowed)."""
        return not any(p.severity == "error" for p in self.problems)


def _problem(code: str, message: str, file: str, path: str = "", section: str = "§2") -> Problem:
    return Problem(code, message, path, section, file=file)


def _ijson_message(exc: Exception) -> str:
    raw = exc.args[0] if exc.args else str(exc)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return text.strip().splitlines()[0] if text.strip() else "invalid JSON"


class _IntegerOverflow(BundleError):
    """The fast parser met an integer beyond 64 bits: read again with the exact one."""

    def __init__(self, file: str, message: str) -> None:
        super().__init__(
            [_problem("number-out-of-range", f"an integer beyond 64 bits: {message}", file)]
        )


#: ijson's yajl2 C backend, and its pure-Python one that reads integers of any size.
_FAST: Final[Any] = ijson
_EXACT: Final[Any] = ijson.get_backend("python")
#: What the backends raise for bad input: ijson's errors, UnicodeDecodeError for bytes that are
#: not UTF-8 in a string, and json.JSONDecodeError from the Python backend's string decoding
#: (a raw control character, say).
_PARSE_ERRORS: Final = (ijson.JSONError, UnicodeDecodeError, json.JSONDecodeError)


def _json_error(exc: Exception, file: str, fast: bool = False) -> BundleError:
    if isinstance(exc, UnicodeDecodeError):  # ijson's Python backend decodes as it reads
        bad = exc.object[exc.start : exc.start + 1].hex().upper()
        reason = f"invalid UTF-8 (byte 0x{bad} cannot appear here)"
        return BundleError(
            [
                _problem(
                    "not-utf8",
                    f"the bundle is not UTF-8 text: {reason}",
                    file,
                    section="RFC 8259 §8.1",
                )
            ]
        )
    message = _ijson_message(exc)
    if fast and "integer overflow" in message:
        return _IntegerOverflow(file, message)
    if "premature EOF" in message:
        return BundleError(
            [
                _problem(
                    "json-truncated",
                    "the bundle ends before its JSON does (truncated file?)",
                    file,
                    section="RFC 8259",
                )
            ]
        )
    if "overflow" in message:
        return BundleError(
            [
                _problem(
                    "number-out-of-range",
                    "a number is too large for this reader (integers must fit in 64 bits, "
                    f"others in an IEEE 754 double): {message}",
                    file,
                    section="RFC 8785 §3.2.2.3",
                )
            ]
        )
    if "UTF8" in message or "UTF-8" in message:
        code = "not-utf8"
        message = "the bundle is not UTF-8 text: " + message
    else:
        code = "json-syntax"
        message = "not valid JSON: " + message
    return BundleError([_problem(code, message, file, section="RFC 8259")])


def detect_form(head: bytes) -> Form | None:
    """The form of a bundle from its first bytes: ``ndjson`` when the first line is a complete
    JSON object without ``chunks`` (an NDJSON envelope) or is followed by a line tagged with
    ``_kind``; ``json`` when it starts with ``{`` otherwise; None when it is not an object."""
    stripped = head.lstrip(b" \t\r\n")
    if not stripped.startswith(b"{"):
        return None
    line, newline, rest = stripped.partition(b"\n")
    if newline:
        try:
            first = orjson.loads(line)
        except orjson.JSONDecodeError:
            return "json"
        if isinstance(first, dict) and "chunks" not in first:
            return "ndjson"
        # An envelope line that wrongly holds records, followed by tagged records.
        second = rest.lstrip(b" \t\r\n").partition(b"\n")[0]
        try:
            record = orjson.loads(second) if second else None
        except orjson.JSONDecodeError:
            return "json"
        if isinstance(record, dict) and "_kind" in record:
            return "ndjson"
    return "json"


def sniff(path: str | os.PathLike[str]) -> Form | None:
    """The form of the file at `path` if it is an AIMEM bundle (``format`` says so), else None.
    Never raises for unreadable input."""
    try:
        with open(path, "rb") as fh:
            return sniff_stream(fh)
    except OSError:
        return None


def sniff_stream(fh: IO[bytes]) -> Form | None:
    """`sniff` on a seekable binary stream, read from its start.

    Reads the first line for NDJSON; for the JSON form, parse events up to the top-level
    ``format`` member (stopping early at a PAM ``schema``). Never raises for bad input.
    """
    try:
        fh.seek(0)
        head = fh.read(_SNIFF_BYTES)
        # A byte order mark is an error the validator names (RFC 8259 §8.1): look past it.
        start = len(_BOM) if head.startswith(_BOM) else 0
        head = head[start:]
        form = detect_form(head)
        if form == "ndjson":
            try:
                first = orjson.loads(head.lstrip().partition(b"\n")[0])
            except orjson.JSONDecodeError:
                return None
            return form if isinstance(first, dict) and is_envelope(first) else None
        if form is None and head.lstrip(b" \t\r\n")[:1] == b"[":
            form = "json"  # perhaps a bundle wrapped in an array (`_sniff_json`)
        if form != "json":
            return None
        for backend in (_FAST, _EXACT):
            fh.seek(start)
            try:
                return _sniff_json(backend.basic_parse(_bounded(fh)))
            except ijson.JSONError as exc:
                if "integer overflow" not in _ijson_message(exc):
                    return None
        return None
    except (OSError, ijson.JSONError, ValueError, JSONDocumentError, SourceError):
        return None


def is_bundle_stream(fh: IO[bytes]) -> bool:
    """Whether a forward-only binary stream (a zip member) holds a bundle in either form: its
    first JSON object (the bundle, or the NDJSON envelope line) has an AIMEM ``format``. Reads
    up to that member only; never raises for bad input."""
    try:
        return _sniff_json(_FAST.basic_parse(_bounded(fh))) is not None
    except (OSError, ijson.JSONError, ValueError, JSONDocumentError, SourceError):
        return False


#: The members of the §2.1 envelope besides the optional arrays: a JSON object holding
#: `ENVELOPE_QUORUM` of them is a bundle even when its `format` is wrong or missing, so the
#: validator (not a "not PAM" message) says what is wrong with it (`format-invalid`, 422).
ENVELOPE_MEMBERS: Final = frozenset(
    {"format", "version", "producer", "tenant_id", "exported_at", "scope", "checksum", "chunks"}
)
ENVELOPE_QUORUM: Final = 4


def is_envelope(members: Mapping[str, Any]) -> bool:
    """Whether a top-level object is an AIMEM envelope: its `format` says so, or (no PAM
    `schema` member) it has most of the §2.1 members."""
    if "schema" in members:
        return False
    if members.get("format") in FORMATS:
        return True
    return len(ENVELOPE_MEMBERS.intersection(members)) >= ENVELOPE_QUORUM


def _check_nesting(fh: IO[bytes], file: str) -> None:
    """Refuse a bundle nested deeper than jsonread.MAX_DEPTH before any pass parses it: one
    scan with constant state (ijson's grows with the square of the depth)."""
    fh.seek(0)
    state, offset = 0, 0
    while chunk := fh.read(1 << 20):
        state, over = jsonread.nesting_scan(chunk, state, jsonread.MAX_DEPTH)
        if over >= 0:
            at = offset + over
            prefix = None
            if at <= jsonread.PATH_SEARCH_BYTES:
                fh.seek(0)
                prefix = fh.read(at)
            error = jsonread.nesting_error(file, at, prefix)
            message = f"{error.message} at byte {at}"  # names the JSON path of the value
            raise BundleError([_problem("json-depth", message, file, section=error.rule)])
        offset += len(chunk)
    fh.seek(0)


def _bounded(fh: IO[bytes], file: str = "") -> IO[bytes]:
    """`fh` as ijson may read it: a text nested deeper than jsonread.MAX_DEPTH stops at the
    first bracket too deep (ijson's state grows with the square of the depth)."""
    return io.BufferedReader(jsonread.DepthBoundedReader(fh, file), 1 << 16)


def _sniff_json(events: Iterator[Any]) -> Form | None:
    """The top-level members of a JSON object, up to a declared `format` (or a PAM
    `schema`), then `is_envelope`. An array is looked into as far as its first item, so a
    bundle wrapped in one is still taken for a bundle (and refused as `not-an-object`);
    anything else is no bundle. `events` are ijson's `basic_parse` events: no per-level
    prefix is built, so deep nesting costs no more than its length."""
    depth = 0
    level = 1  # the depth of the envelope's members: 2 inside a top-level array
    member: str | None = None  # the envelope member whose value comes next
    seen: dict[str, Any] = {}
    for event, value in events:
        if member is not None and depth == level:
            if member == "format" and value in FORMATS and event == "string":
                return "json"
            member = None
        if event in ("start_map", "start_array"):
            if depth == 0 and event == "start_array":
                level = 2
            elif depth == 1 and level == 2 and event != "start_map":
                return None
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
            if depth < level:
                break
        elif depth == level and event == "map_key":
            if value == "schema":
                return None
            if value in ENVELOPE_MEMBERS:
                seen[value] = None
                member = value
        elif depth < level:
            return None  # a scalar document, or a scalar first item
    return "json" if is_envelope(seen) else None


class BundleReader:
    """An open, checksum-verified bundle; see the module docstring. Use `open_bundle`.

    After opening: `envelope` (every top-level member but the record arrays), `arrays` (the
    arrays present), `checksum` (as computed), `counts` per array, `chunk_ids`, `entity_ids`,
    `has_embeddings`. `envelope_problems()` and `records()` give the validation results.
    """

    def __init__(self, fh: IO[bytes], file: str, form: Form, owned: bool) -> None:
        self.file = file
        self.form: Form = form
        self._fh = fh
        self._owned = owned
        self.envelope: dict[str, Any] = {}
        self.arrays: list[str] = []
        self.counts: dict[str, int] = dict.fromkeys(ARRAYS, 0)
        self.chunk_ids: set[str] = set()
        self._ids_released = False
        self.entity_ids: set[str] = set()
        self.has_embeddings = False
        self.checksum: str | None = None
        #: records holding integers beyond ±(2^53-1), read as doubles (see `_canonical`)
        self._widened: set[tuple[str, int]] = set()
        self._json: Any = _FAST
        self.rules: BundleRules | None = None
        #: JSON form: each array's records as the checksum pass parsed them, one orjson line
        #: each, so the later passes read them back with orjson instead of parsing the
        #: bundle again (None: not spooled, parse the bundle; see `_spool_items`)
        self._spools: dict[str, IO[bytes]] | None = None
        #: JSON form read by the span scanner (`_hash_spans`): the bundle's bytes (mapped)
        #: and each array's records as (start, end) offsets into them, read back by orjson
        self._buf: Any = None
        self._spans: dict[str, int_array[int]] = {}
        #: each array's records' member counts as the scanner counted them in the text
        self._members: dict[str, int_array[int]] = {}

    # -------------------------------------------------------------------- context manager

    def __enter__(self) -> BundleReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the underlying file (when `open_bundle` opened or spooled it)."""
        self._drop_spools()
        if self._owned:
            self._fh.close()

    def _drop_spools(self) -> None:
        for spool in (self._spools or {}).values():
            spool.close()
        self._spools = None
        self._spans = {}
        buf, self._buf = self._buf, None
        if isinstance(buf, mmap.mmap):
            buf.close()

    # ------------------------------------------------------------------------- first pass

    def _verify(self) -> None:
        if self.form == "json":
            try:
                self._hash_json()
            except _IntegerOverflow:
                # yajl stops at 64-bit integers, but RFC 8785 writes whole doubles up to 1e21
                # as integers: read such a bundle again with ijson's exact (slower) parser.
                self._json = _EXACT
                self._reset()
                self._hash_json()
        else:
            self._scan_ndjson()
        declared = self.envelope.get("checksum")
        # A missing or malformed checksum is an envelope problem (422), reported later.
        if is_checksum(declared) and declared != self.checksum:
            raise BundleError(
                [
                    Problem(
                        "checksum-mismatch",
                        f"the checksum does not match the content: the envelope says "
                        f"{declared}, the bundle hashes to {self.checksum}; nothing in it is "
                        "imported",
                        "/checksum",
                        "§2.8",
                        STATUS_CONFLICT,
                        file=self.file,
                    )
                ]
            )

    def _hash_json(self) -> None:
        if self._json is _FAST and self._hash_spans():
            return
        self._scan_json()
        self._gate()
        hasher = CanonicalBundleHasher(self.envelope, self.arrays)
        self._drop_spools()
        spools: dict[str, IO[bytes]] | None = {}
        for array in hasher.order:
            hasher.start(array)
            spool = _spool_file() if spools is not None else None
            for index, item in enumerate(self._parse_items(array)):
                hasher.add_canonical(array, self._canonical(item, array, index))
                if spool is not None:
                    try:
                        spool.write(orjson.dumps(item, option=orjson.OPT_APPEND_NEWLINE))
                    except (orjson.JSONEncodeError, OSError):
                        # A value orjson cannot write back exactly (an integer beyond 64
                        # bits): the later passes parse the bundle as this one did.
                        spool.close()
                        spool = None
            if spools is not None:
                if spool is None:
                    for kept in spools.values():
                        kept.close()
                    spools = None
                else:
                    spools[array] = spool
        self._spools = spools
        self.checksum = hasher.finish()

    def _hash_spans(self) -> bool:
        """The checksum pass of `_hash_json` over the bytes themselves: the C span scanner
        finds the top-level members and every record (no parse event reaches Python), orjson
        parses each record and the member counts refuse repeated names as ``_scan_json``
        does. False, with nothing kept, for anything unusual (a syntax error, a repeated
        member, an integer orjson does not read, bytes that cannot be mapped): the
        event-by-event pass then reads the bundle and reports what is wrong as before."""
        if _speedups is None:
            return False
        buf = _mapped(self._fh)
        if buf is None:
            return False
        self._buf = buf
        try:
            done = self._scan_spans(buf) and self._hash_items(buf)
        except (ValueError, TypeError, OverflowError, orjson.JSONDecodeError, BundleError):
            # The event pass reports the problem, in the order it always did.
            done = False
        self._members = {}
        if not done:
            self._drop_spools()
            self._reset()
            return False
        return True

    def _hash_items(self, buf: Any) -> bool:
        """Parse each record once: its members counted (a repeated name: False), ids and
        embedding presence gathered, its canonical bytes hashed."""
        assert _speedups is not None
        _release(buf)  # the scan read every page: let them go, each pass reads its own
        self._gate()
        hasher = CanonicalBundleHasher(self.envelope, self.arrays)
        add, canonical, count = hasher.add_canonical, self._canonical, _speedups.member_count
        for array in hasher.order:
            hasher.start(array)
            members = self._members.get(array)
            ids = {"chunks": self.chunk_ids, "entities": self.entity_ids}.get(array)
            chunks = array == "chunks"
            for index, item in enumerate(self._span_items(array)):
                if members is None or count(item) != members[index]:
                    return False
                if isinstance(item, dict):
                    rid = item.get("id")
                    if ids is not None and isinstance(rid, str):
                        ids.add(rid)
                    if chunks and item.get("embedding") is not None:
                        self.has_embeddings = True
                add(array, canonical(item, array, index))
        self.checksum = hasher.finish()
        return True

    def _span_items(self, array: str) -> Iterator[Any]:
        """The records of `array` parsed from their spans, in document order. A mapped
        bundle's pages are let go behind the reader as it goes (`_RELEASE_BYTES` at a time),
        so the mapping adds little to the resident set whatever the bundle's size."""
        spans = self._spans.get(array)
        if not spans:
            return
        buf, loads = self._buf, orjson.loads
        mapped = isinstance(buf, mmap.mmap)
        released = spans[0] - spans[0] % mmap.PAGESIZE
        for index in range(len(spans) // 2):
            end = spans[2 * index + 1]
            yield loads(buf[spans[2 * index] : end])
            if mapped and end - released > _RELEASE_BYTES:
                upto = end - end % mmap.PAGESIZE
                _release(buf, released, upto)
                released = upto
        if mapped:
            _release(buf, released, spans[-1])

    def _scan_spans(self, buf: Any) -> bool:
        """Envelope, arrays, counts and the records' spans from the span scanner; False when
        the bundle needs the event-by-event pass (see `_hash_spans`)."""
        assert _speedups is not None
        start = 0
        while buf[start : start + 1] in (b" ", b"\t", b"\r", b"\n"):
            start += 1
        if buf[start : start + 1] != b"{":
            return False
        members, end, chunk_items = _speedups.object_members(buf, start, items_of=b'"chunks"')
        if buf[end:].strip(b" \t\r\n"):
            return False  # trailing bytes: the event pass names them
        loads, count = orjson.loads, _speedups.member_count
        seen: set[str] = set()
        for key_start, key_end, value_start, value_end, value_members, _ in members:
            key = loads(buf[key_start:key_end])
            if key in seen:
                return False
            seen.add(key)
            if key in ARRAYS and buf[value_start : value_start + 1] == b"[":
                if key == "chunks" and chunk_items is not None and key_end - key_start == 8:
                    items = chunk_items
                else:
                    items, _ = _speedups.array_items(buf, value_start, stats=True)
                self._scan_items(key, items)
                self.arrays.append(key)
                continue
            value = loads(buf[value_start:value_end])
            if count(value) != value_members:
                return False  # a repeated member name inside the value
            self.envelope[key] = as_doubles(value)
        return True

    def _scan_items(self, key: str, items: list[tuple[int, ...]]) -> None:
        """One array's records: their spans and member counts kept (`_hash_items` parses
        them)."""
        spans, members = int_array("q"), int_array("q")
        for item_start, item_end, item_members, _ in items:
            spans.append(item_start)
            spans.append(item_end)
            members.append(item_members)
        self.counts[key] = len(items)
        self._spans[key] = spans
        self._members[key] = members

    def _reset(self) -> None:
        self.envelope, self.arrays = {}, []
        self.counts = dict.fromkeys(ARRAYS, 0)
        self.chunk_ids, self.entity_ids = set(), set()
        self.has_embeddings = False
        self._widened = set()

    def _gate(self) -> None:
        problems = check_format_version(self.envelope, self.file)
        if problems:
            raise BundleError(problems)

    def _canonical(self, item: Any, array: str, index: int) -> bytes:
        try:
            return jcs_dumps(item)
        except CanonicalizationError:
            pass
        # RFC 8785 §3.2.2.3 reads every JSON number as an IEEE 754 double; the parsers hand
        # integers beyond ±(2^53-1) over exactly, so they are widened here, and again when
        # the record is handed out (`_widened`), so the value matches what was hashed.
        try:
            canon = jcs_dumps(as_doubles(item))
        except CanonicalizationError as exc:
            raise BundleError(
                [
                    _problem(
                        "not-canonicalizable",
                        f"a record of {array} has a value RFC 8785 cannot represent: {exc}",
                        self.file,
                        pointer(array, index),
                        "§2.8",
                    )
                ]
            ) from None
        self._widened.add((array, index))
        return canon

    def _scan_json(self) -> None:
        """Envelope, present arrays, counts, ids and embedding presence, in one event pass."""
        fh = self._fh
        fh.seek(0)
        events = self._json.parse(fh, use_float=True)
        try:
            first = next(events, None)
            if first is None or first[1] != "start_map":
                raise BundleError(
                    [
                        _problem(
                            "not-an-object", "the bundle is not a JSON object", self.file, "", "§2"
                        )
                    ]
                )
            for prefix, event, value in events:
                if event == "end_map" and prefix == "":
                    break
                key = value
                if key in self.envelope or key in self.arrays:
                    raise BundleError(
                        [
                            _problem(
                                "duplicate-member",
                                f'the bundle has "{key}" twice',
                                self.file,
                                "/" + key,
                                "RFC 8259",
                            )
                        ]
                    )
                prefix, event, value = next(events)
                if key in ARRAYS and event == "start_array":
                    self.arrays.append(key)
                    self._scan_array(key, events)
                else:
                    self.envelope[key] = as_doubles(self._build(prefix, event, value, events))
            for _ in events:  # reach the end so trailing garbage is reported
                pass
        except _PARSE_ERRORS as exc:
            raise _json_error(exc, self.file, self._json is _FAST) from None
        except StopIteration:
            raise BundleError(
                [
                    _problem(
                        "json-truncated",
                        "the bundle ends before its JSON does",
                        self.file,
                        section="RFC 8259",
                    )
                ]
            ) from None

    def _build(self, prefix: str, event: str, value: Any, events: Iterator[Any]) -> Any:
        builder = ijson.ObjectBuilder()
        builder.event(event, value)
        if event in ("start_map", "start_array"):
            members = _Members(self.file, "/" + prefix)
            members.event(event, value)
            while members.depth:
                _, ev, val = next(events)
                builder.event(ev, val)
                members.event(ev, val)
        return builder.value

    def _scan_array(self, key: str, events: Iterator[Any]) -> None:
        """Count the records of `key`, gather ids and embedding presence, and refuse repeated
        member names inside records. This loop sees every parse event of the bundle."""
        item = key + ".item"
        ids = {"chunks": self.chunk_ids, "entities": self.entity_ids}.get(key)
        id_prefix = item + ".id"
        emb_prefix = item + ".embedding" if key == "chunks" else None
        count = 0
        # member names of each open object inside the current record (None for an array)
        stack: list[set[str] | None] = []
        for prefix, event, value in events:
            if event == "map_key":
                if prefix == key:
                    break  # cannot happen in a well-formed array
                names = stack[-1]
                assert names is not None
                if value in names:
                    raise _Members.duplicate(self.file, value, pointer(key, count - 1))
                names.add(value)
                continue
            if event == "start_map":
                stack.append(set())
            elif event == "start_array":
                stack.append(None)
            elif event == "end_map" or event == "end_array":
                if not stack:  # the end of the array itself
                    break
                stack.pop()
                continue
            if prefix == item:
                count += 1
            elif prefix == id_prefix:
                if ids is not None and event == "string":
                    ids.add(value)
            elif prefix == emb_prefix and event != "null":
                self.has_embeddings = True
        self.counts[key] = count

    def release_chunk_ids(self) -> None:
        """Let the chunk ids the checksum pass gathered go while the chunks are read without
        them (tens of thousands of ids are megabytes); `restore_chunk_ids` reads them again
        before anything that checks references (`records`) runs."""
        self.chunk_ids = set()
        self._ids_released = True

    def restore_chunk_ids(self) -> None:
        """The chunk ids as the checksum pass gathered them, read again from the chunks
        after `release_chunk_ids` (else nothing to do)."""
        if not self._ids_released:
            return
        ids: set[str] = set()
        for item in self.iter_array("chunks"):
            if isinstance(item, dict):
                rid = item.get("id")
                if isinstance(rid, str):
                    ids.add(rid)
        self.chunk_ids = ids
        self._ids_released = False

    def iter_array(self, array: str) -> Iterator[Any]:
        """The records of one array in document order, unvalidated (NDJSON: ``_kind``
        removed). One pass over the input per call."""
        if self.form == "json":
            if array in self.arrays:
                for index, item in enumerate(self._items(array)):
                    yield self._widen(array, index, item)
            return
        lines = self._lines()
        next(lines, None)
        index = 0
        for number, value in lines:
            kind_array, record = self._tagged(number, value)
            if kind_array == array:
                yield self._widen(array, index, record)
                index += 1

    def _widen(self, array: str, index: int, item: Any) -> Any:
        return as_doubles(item) if (array, index) in self._widened else item

    def _items(self, array: str) -> Iterator[Any]:
        """The records of `array` as the checksum pass read them: from its spool when it
        kept one (what was verified, read back by orjson: an order of magnitude cheaper than
        parsing the bundle again), else parsed from the bundle."""
        if array in self._spans:
            yield from self._span_items(array)
            return
        spool = None if self._spools is None else self._spools.get(array)
        if spool is None:
            yield from self._parse_items(array)
            return
        spool.seek(0)
        loads = orjson.loads
        for line in spool:
            yield loads(line)

    def _parse_items(self, array: str) -> Iterator[Any]:
        if array in self.arrays and not self.counts[array]:
            return  # known empty from the first pass: no need to parse the file again
        self._fh.seek(0)
        try:
            yield from self._json.items(self._fh, array + ".item", use_float=True)
        except _PARSE_ERRORS as exc:
            raise _json_error(exc, self.file, self._json is _FAST) from None

    # -------------------------------------------------------------------------- NDJSON

    def _lines(self, *, strict: bool = False) -> Iterator[tuple[int, Any]]:
        """(line number, parsed value) of each non-blank line; raises BundleError. `strict`
        also refuses repeated member names (the first pass; the second reads the same bytes).
        """
        fh = self._fh
        fh.seek(0)
        number = 0
        while True:
            line = fh.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise BundleError(
                    [
                        _problem(
                            "line-too-long",
                            f"line {number} is longer than {MAX_LINE_BYTES} bytes; an NDJSON "
                            "record must fit on one line of at most that",
                            self.file,
                            f"line {number}",
                            "§3.1",
                        )
                    ]
                )
            if number == 1 and line.startswith(_BOM):
                raise BundleError(
                    [
                        _problem(
                            "byte-order-mark",
                            "the stream starts with a byte order mark; JSON text must not",
                            self.file,
                            "line 1",
                            "RFC 8259",
                        )
                    ]
                )
            if not line.strip():
                continue
            try:
                value = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                code = "not-utf8" if "utf-8" in str(exc).lower() else "json-syntax"
                if "infinity" in str(exc):
                    code = "number-out-of-range"
                if code == "json-syntax" and not line.endswith(b"\n") and fh.read(1) == b"":
                    code = "json-truncated"
                raise BundleError(
                    [
                        _problem(
                            code,
                            f"line {number} is not a JSON value: {exc}",
                            self.file,
                            f"line {number}",
                            "§3.1",
                        )
                    ]
                ) from None
            if strict:
                try:
                    jsonread.check_no_duplicate_keys(line, value, self.file)
                except JSONDocumentError as exc:
                    raise BundleError(
                        [
                            _problem(
                                "duplicate-member",
                                f"line {number}: {exc.message} (RFC 8785 needs I-JSON)",
                                self.file,
                                f"line {number}",
                                "RFC 8259",
                            )
                        ]
                    ) from None
            yield number, value

    def _tagged(self, number: int, value: Any) -> tuple[str, dict[str, Any]]:
        if not isinstance(value, dict):
            raise BundleError(
                [
                    _problem(
                        "record-not-object",
                        f"line {number} is not a JSON object",
                        self.file,
                        f"line {number}",
                        "§3.1",
                    )
                ]
            )
        record = dict(value)
        kind = record.pop("_kind", None)
        if kind not in ARRAY_OF:
            raise BundleError(
                [
                    _problem(
                        "ndjson-kind-invalid",
                        f'line {number} has "_kind" {kind!r}; it must be one of '
                        f"{', '.join(ARRAY_OF)}",
                        self.file,
                        f"line {number}",
                        "§3.1",
                    )
                ]
            )
        return ARRAY_OF[kind], record

    def _scan_ndjson(self) -> None:
        """Envelope, counts, ids; the checksum from per-kind spools of canonical records.

        The stream form cannot say whether a kind without records was an empty array or an
        absent one in the bundle it stands for; all four present is what §2.1 asks and is
        tried first, then the kinds without records as absent.
        """
        lines = self._lines(strict=True)
        first = next(lines, None)
        if first is None or not isinstance(first[1], dict):
            raise BundleError(
                [
                    _problem(
                        "not-an-object",
                        "the first line is not the envelope object",
                        self.file,
                        "line 1",
                        "§3.1",
                    )
                ]
            )
        envelope = first[1]
        inline = [a for a in ARRAYS if a in envelope]
        if inline:
            raise BundleError(
                [
                    _problem(
                        "ndjson-envelope-has-records",
                        f"the envelope line holds {', '.join(inline)}; in the stream form "
                        "records come on their own lines",
                        self.file,
                        "line 1",
                        "§3.1",
                    )
                ]
            )
        self.envelope = envelope = as_doubles(envelope)
        self.arrays = list(ARRAYS)
        self._gate()
        # closed in the finally below
        spools = {a: tempfile.TemporaryFile() for a in ARRAYS}  # noqa: SIM115
        try:
            for number, value in lines:
                array, record = self._tagged(number, value)
                canon = self._canonical(record, array, self.counts[array])
                spool = spools[array]
                if self.counts[array]:
                    spool.write(b",")
                spool.write(canon)
                self.counts[array] += 1
                rid = record.get("id")
                if array == "chunks":
                    if isinstance(rid, str):
                        self.chunk_ids.add(rid)
                    if record.get("embedding") is not None:
                        self.has_embeddings = True
                elif array == "entities" and isinstance(rid, str):
                    self.entity_ids.add(rid)
            declared = envelope.get("checksum")
            self.checksum = self._hash_spools(spools, ARRAYS)
            present = [a for a in ARRAYS if self.counts[a]]
            if declared != self.checksum and len(present) < len(ARRAYS):
                fewer = self._hash_spools(spools, present)
                if fewer == declared:
                    self.arrays, self.checksum = present, fewer
        finally:
            for spool in spools.values():
                spool.close()

    def _hash_spools(self, spools: Mapping[str, IO[bytes]], arrays: Iterable[str]) -> str:
        hasher = CanonicalBundleHasher(self.envelope, arrays)
        for array in hasher.order:
            hasher.start(array)
            spool = spools[array]
            spool.seek(0)
            # the spool holds the records comma-joined: feed it as one canonical run
            if self.counts[array]:
                hasher.add_joined(array, _blocks(spool))
        return hasher.finish()

    # ------------------------------------------------------------------------ second pass

    def envelope_problems(self) -> list[Problem]:
        """The §2.1/§2.7/§2.8 problems of the envelope (format and version passed the gate)."""
        self.rules = BundleRules(self.envelope, file=self.file)
        return self.rules.check_envelope(has_embeddings=self.has_embeddings, arrays=self.arrays)

    def records(self) -> Iterator[Record]:
        """Every record with its problems: JSON form chunks, entities, edges, links; NDJSON in
        stream order. Raises BundleError if the input changed since it was verified."""
        rules = self.rules or BundleRules(self.envelope, file=self.file)
        self.rules = rules
        if self.form == "json":
            for array in _RECORD_ORDER:
                if array in self.arrays:
                    for index, item in enumerate(self._items(array)):
                        yield self._record(rules, array, index, item)
            return
        indexes = dict.fromkeys(ARRAYS, 0)
        lines = self._lines()
        next(lines, None)
        for number, value in lines:
            array, record = self._tagged(number, value)
            yield self._record(rules, array, indexes[array], record)
            indexes[array] += 1

    def _record(self, rules: BundleRules, array: str, index: int, item: Any) -> Record:
        item = self._widen(array, index, item)
        if array == "chunks":
            problems = rules.check_chunk(index, item)
        elif array == "entities":
            problems = rules.check_entity(index, item)
        elif array == "edges":
            problems = rules.check_edge(index, item, self.chunk_ids)
        else:
            problems = rules.check_chunk_entity(index, item, self.chunk_ids, self.entity_ids)
        return Record(KIND_OF[array], index, item, tuple(problems))

    def facts(self) -> dict[str, Any]:
        """What `memvault inspect` shows: envelope summary, counts, checksum."""
        env = self.envelope
        keep = (
            "format",
            "version",
            "producer",
            "tenant_id",
            "exported_at",
            "scope",
            "since",
            "embedding_model",
            "embedding_dim",
        )
        facts: dict[str, Any] = {k: env[k] for k in keep if k in env}
        facts["form"] = self.form
        facts["legacy_format"] = env.get("format") == "memoryai-bundle"
        facts["counts"] = dict(self.counts)
        facts["checksum"] = self.checksum
        facts["checksum_verified"] = isinstance(env.get("checksum"), str)
        facts["extra_members"] = sorted(k for k in env if k not in (*keep, "checksum"))
        return facts


class _Members:
    """Refuses repeated member names inside one value, from ijson events: RFC 8785 (and so
    the checksum) is defined for I-JSON only, and a parser keeps one of the two silently."""

    def __init__(self, file: str, path: str) -> None:
        self.file = file
        self.path = path
        self._stack: list[set[str] | None] = []

    @property
    def depth(self) -> int:
        return len(self._stack)

    @staticmethod
    def duplicate(file: str, name: str, path: str) -> BundleError:
        return BundleError(
            [
                _problem(
                    "duplicate-member",
                    f"member name {name!r} appears twice in one object of {path} "
                    "(RFC 8785 needs I-JSON)",
                    file,
                    path,
                    "RFC 8259",
                )
            ]
        )

    def event(self, event: str, value: Any) -> None:
        if event == "map_key":
            names = self._stack[-1]
            assert names is not None
            if value in names:
                raise self.duplicate(self.file, value, self.path)
            names.add(value)
        elif event == "start_map":
            self._stack.append(set())
        elif event == "start_array":
            self._stack.append(None)
        elif event in ("end_map", "end_array"):
            self._stack.pop()


def as_doubles(value: Any) -> Any:
    """`value` with every integer beyond ±(2^53-1) turned into the nearest double, as RFC 8785
    (§3.2.2.3) and every JavaScript consumer read JSON numbers."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if abs(value) > MAX_SAFE_INTEGER else value
    if isinstance(value, dict):
        return {k: as_doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_doubles(v) for v in value]
    return value


#: Bundles up to this size are read into memory for the span scanner; larger ones are mapped.
_READ_WHOLE: Final = 1 << 20


def _mapped(fh: IO[bytes]) -> Any:
    """The bytes of a seekable binary stream for the span scanner: read when small, else a
    read-only map of its file (the page cache holds it, not the heap). None when neither
    works (a stream without a file)."""
    try:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(0)
        if size <= _READ_WHOLE:
            return fh.read()
        rolled = getattr(fh, "_rolled", True)  # a SpooledTemporaryFile still in memory
        if not rolled or not size:
            return None
        return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


#: A mapped bundle's pages are let go behind a pass every this many bytes (`_span_items`).
_RELEASE_BYTES: Final = 1 << 20


def _release(buf: Any, start: int = 0, end: int | None = None) -> None:
    """Drop the pages of a mapped bundle between `start` (page-aligned) and `end` from the
    resident set (the page cache keeps them: reading them again costs a minor fault)."""
    if not isinstance(buf, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    length = (len(buf) if end is None else end) - start
    if length > 0:
        buf.madvise(mmap.MADV_DONTNEED, start, length)


def _spool_file() -> IO[bytes]:
    """An unlinked temporary file for one array's records (the reader closes it)."""
    return tempfile.TemporaryFile()


def _blocks(fh: IO[bytes]) -> Iterator[bytes]:
    while block := fh.read(1 << 20):
        yield block


def _open_source(source: str | os.PathLike[str] | IO[bytes]) -> tuple[IO[bytes], str, bool]:
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            return open(path, "rb"), str(path), True
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise BundleError(
                [
                    _problem(
                        "file-unreadable", f"cannot read {path}: {reason}", str(path), section=""
                    )
                ]
            ) from None
    named = getattr(source, "name", None)
    name = named if isinstance(named, str) else "<stream>"  # a temporary file's name is an fd
    try:
        seekable = source.seekable()
    except (AttributeError, ValueError):
        seekable = False
    if seekable:
        return source, name, False
    # A pipe or socket: spool it so the checksum pass and the record pass can both read it.
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - the reader closes it
    shutil.copyfileobj(source, spool, 1 << 20)
    return spool, name, True


def open_bundle(
    source: str | os.PathLike[str] | IO[bytes],
    *,
    form: Form | None = None,
    name: str | None = None,
) -> BundleReader:
    """Open a bundle (path or binary stream), detect its form and verify its checksum (§2.8).

    Raises `BundleError` when the input cannot be read, is not JSON/NDJSON, is not an AIMEM
    v1 bundle (§2.1, §7: 422) or its checksum does not match (409) — in that order, and before
    any record is looked at. A bundle without a checksum opens; `envelope_problems` reports it.
    `name` is what problems call a stream (default: its file name, else ``<stream>``).
    """
    fh, file, owned = _open_source(source)
    file = name or file
    try:
        if form is None:
            fh.seek(0)
            head = fh.read(_SNIFF_BYTES)
            if head.startswith(_BOM):
                raise BundleError(
                    [
                        _problem(
                            "byte-order-mark",
                            "the bundle starts with a byte order mark; JSON text must not",
                            file,
                            section="RFC 8259",
                        )
                    ]
                )
            detected = detect_form(head)
            if detected is None:
                what = "empty" if not head.strip() else "not a JSON object"
                raise BundleError([_problem("not-an-object", f"the bundle is {what}", file)])
            form = detected
        _check_nesting(fh, file)
        reader = BundleReader(fh, file, form, owned)
        try:
            reader._verify()
        except BaseException:
            reader._drop_spools()  # a mapped body is unmapped now, not when collected
            raise
        return reader
    except BaseException:
        if owned:
            fh.close()
        raise


def validate_bundle(source: str | os.PathLike[str] | IO[bytes]) -> BundleReport:
    """Validate a whole bundle (either form) against every §2 MUST; never raises for bad input.

    A checksum mismatch is the only problem reported when there is one (§2.8: 409).
    """
    name = (
        str(source)
        if isinstance(source, str | os.PathLike)
        else str(getattr(source, "name", "<stream>"))
    )
    report = BundleReport(name)
    try:
        reader = open_bundle(source)
    except BundleError as exc:
        report.problems.extend(exc.problems)
        report.unreadable = exc.code in _UNREADABLE
        if not report.unreadable and isinstance(source, str | os.PathLike):
            try:
                with open(source, "rb") as fh:
                    report.form = detect_form(fh.read(_SNIFF_BYTES).lstrip(_BOM)) or "unknown"
            except OSError:
                pass
        return report
    with reader:
        report.form = reader.form
        kept = report.problems
        overflow = 0
        try:
            for problem in reader.envelope_problems():
                kept.append(problem)
            for record in reader.records():
                for problem in record.problems:
                    if len(kept) < MAX_PROBLEMS:
                        kept.append(problem)
                    else:
                        overflow += 1
        except BundleError as exc:
            kept.extend(exc.problems)
        if overflow:
            kept.append(
                Problem(
                    "too-many-problems",
                    f"{overflow} more problem{'s' * (overflow != 1)} not listed",
                    severity="warning",
                    status=None,
                    file=reader.file,
                )
            )
        report.facts = reader.facts()
        report.facts["chunks_rejected"] = len(
            {
                p.path.split("/")[2]
                for p in kept
                if p.severity == "error" and p.path.startswith("/chunks/")
            }
        )
    return report


_UNREADABLE: Final = frozenset({"file-unreadable"})


def bundle_bytes_stream(data: bytes) -> IO[bytes]:
    """A binary stream over `data`, for callers holding a bundle in memory (HTTP, tests)."""
    return io.BytesIO(data)
