"""The per-memory half of memory-store validation, split across CPU cores.

Each memory is parsed, schema-checked, hashed (§6), canonicalized for the integrity checksum
(§15.2), checked for duplicate member names and for temporal, lifecycle and access rules.
What the cross-reference checks need is kept as one small `MemoryFact` per memory.

Memories are independent of each other, so a large store is cut in two ranges and a forked
child validates the second while the parent does the first: validation is CPU-bound and the
machines memvault runs on have more than one core.

`_memory` is the reference for the per-memory checks; `memvault._speedups.memory_run` does
the same in C for every memory it can clear and stops at any other, which `_memory` checks.
"""

from __future__ import annotations

import hashlib
import heapq
import marshal
import mmap
import multiprocessing
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any, Final, NamedTuple

import orjson

from memvault import canonical, jsonread
from memvault.bulk import gc_paused
from memvault.findings import Finding, Severity
from memvault.formats.pam import schema
from memvault.formats.pam.reader import Document
from memvault.jsonread import JSONDocumentError
from memvault.model import parse_timestamp

_BATCH: Final = 1000
#: Below this many memories a second process costs more than it saves.
PARALLEL_THRESHOLD: Final = 20_000
#: The parent's share of the memories when a worker takes the rest.
PARENT_SHARE: Final = 0.5
#: Shared memory for the worker's canonical bytes, per byte of its memories' text.
SHARED_ROOM: Final = 2
_UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", re.I)

try:
    from memvault._speedups import checksum_runs as _c_checksum_runs
    from memvault._speedups import index_facts as _c_index_facts
    from memvault._speedups import memory_run as _c_memory_run
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _c_memory_run = _c_checksum_runs = _c_index_facts = None
#: The C version of `_memory` for memories with nothing to report (None: Python only). It
#: stops at any memory it cannot clear, which `_memory` then checks, so findings are always
#: produced by the Python code; tests/test_speedups_memory.py holds both paths equal.
memory_run: Callable[..., int] | None = _c_memory_run
#: `index_facts` in C (None: Python).
index_facts_fast: Callable[..., list[int]] | None = _c_index_facts
#: Merges the sorted runs and feeds the checksum input to a digest in C (None: Python).
checksum_runs: Callable[[list[Any], Callable[[bytes], None]], None] | None = _c_checksum_runs


class MemoryFact(NamedTuple):
    """What the cross-reference checks need to know about one memory."""

    position: int
    id: str
    status: str
    superseded_by: str | None
    conversation_ref: str | None
    embedding_ref: str | None
    platform: str | None


def index_facts(
    facts: list[tuple[Any, ...]],
    memories: dict[str, MemoryFact],
    by_conversation: dict[str, list[str]],
    with_ref: list[MemoryFact],
) -> list[int]:
    """Index facts by id: the first fact of each id goes into `memories`, its id into
    `by_conversation` under its conversation_ref and, if it has one, the fact into
    `with_ref`. Returns the indices in `facts` of repeated ids."""
    if index_facts_fast is not None:
        return index_facts_fast(facts, MemoryFact, memories, by_conversation, with_ref)
    repeated: list[int] = []
    for i, fields in enumerate(facts):
        if fields[1] in memories:
            repeated.append(i)
            continue
        fact = MemoryFact._make(fields)
        memories[fact.id] = fact
        if fact.conversation_ref is not None:
            by_conversation.setdefault(fact.conversation_ref, []).append(fact.id)
            with_ref.append(fact)
    return repeated


@dataclass(slots=True)
class CanonicalRun:
    """The canonical bytes of a range of memories in document order, in one buffer.

    Keeping one buffer instead of a bytes object per memory halves the memory they take, and
    lets a worker hand them to the parent as one block (`Connection.send_bytes`).
    """

    ids: list[str] = field(default_factory=list)
    blob: bytearray | bytes | memoryview = field(default_factory=bytearray)
    ends: array[int] = field(default_factory=lambda: array("Q"))
    #: positions in id order, once sorted
    order: array[int] | None = None

    def append(self, memory_id: str, canon: bytes) -> None:
        assert isinstance(self.blob, bytearray)
        self.ids.append(memory_id)
        self.blob += canon
        self.ends.append(len(self.blob))

    def sort(self) -> None:
        """Work out the id order now (a worker does it before handing the run over)."""
        if self.order is None:
            ids = self.ids
            self.order = array("Q", sorted(range(len(ids)), key=ids.__getitem__))

    def in_id_order(self) -> Iterator[tuple[str, memoryview]]:
        """(id, canonical bytes) sorted by id; stable for equal ids."""
        self.sort()
        assert self.order is not None
        view = memoryview(self.blob)
        ends = self.ends
        ids = self.ids
        for i in self.order:
            yield ids[i], view[ends[i - 1] if i else 0 : ends[i]]


@dataclass(slots=True)
class MemoryCounts:
    """Memories by type, status, platform and extraction method, and their creation range."""

    by_type: Counter[str] = field(default_factory=Counter)
    by_status: Counter[str] = field(default_factory=Counter)
    by_platform: Counter[str] = field(default_factory=Counter)
    by_method: Counter[str] = field(default_factory=Counter)
    first_created: str | None = None
    last_created: str | None = None

    def merge(self, other: MemoryCounts) -> None:
        self.by_type.update(other.by_type)
        self.by_status.update(other.by_status)
        self.by_platform.update(other.by_platform)
        self.by_method.update(other.by_method)
        for value in (other.first_created, other.last_created):
            if value is not None:
                self.created(value)

    def created(self, value: str) -> None:
        if self.first_created is None or value < self.first_created:
            self.first_created = value
        if self.last_created is None or value > self.last_created:
            self.last_created = value

    def to_json(self) -> dict[str, Any]:
        return {
            "by_type": dict(self.by_type),
            "by_status": dict(self.by_status),
            "by_platform": dict(self.by_platform),
            "by_extraction_method": dict(self.by_method),
            "created_range": [self.first_created, self.last_created],
        }


@dataclass(slots=True)
class PassOutput:
    """Everything one range of memories produced."""

    findings: list[Finding] = field(default_factory=list)
    #: MemoryFact fields as plain tuples (cheaper to build and to send between processes)
    facts: list[tuple[int, str, str, str | None, str | None, str | None, str | None]] = field(
        default_factory=list
    )
    #: RFC 8785 bytes of the memories, for the integrity checksum: one run per range, in
    #: document order of the ranges
    canonical: list[CanonicalRun] = field(default_factory=lambda: [CanonicalRun()])
    checksum_computable: bool = True
    #: some memories could not be read, so references to them cannot be resolved
    incomplete: bool = False
    non_uuid_ids: int = 0
    counts: MemoryCounts = field(default_factory=lambda: MemoryCounts())

    def merge(self, other: PassOutput) -> None:
        """Add the output of the range that follows this one in the document."""
        self.findings.extend(other.findings)
        self.facts.extend(other.facts)
        self.canonical.extend(other.canonical)
        self.checksum_computable &= other.checksum_computable
        self.incomplete |= other.incomplete
        self.non_uuid_ids += other.non_uuid_ids
        self.counts.merge(other.counts)

    def canonical_in_id_order(self) -> Iterator[memoryview]:
        """Every memory's canonical bytes in the §15.2 order (id ascending; stable, so
        memories with equal ids keep their document order, as a stable sort would)."""
        runs = [run.in_id_order() for run in self.canonical]
        for _, canon in heapq.merge(*runs, key=itemgetter(0)):
            yield canon

    def checksum(self) -> str:
        """The §15.2 integrity checksum of the memories (canonical.checksum_of_canonical of
        `canonical_in_id_order`)."""
        if checksum_runs is None:
            return canonical.checksum_of_canonical(self.canonical_in_id_order())  # type: ignore[arg-type]
        for run in self.canonical:
            run.sort()
        digest = hashlib.sha256()
        checksum_runs([(r.ids, r.order, r.blob, r.ends) for r in self.canonical], digest.update)
        return "sha256:" + digest.hexdigest()

    def take_blobs(self) -> list[bytearray | bytes | memoryview]:
        """Remove the canonical buffers (to send them apart from the rest)."""
        blobs = [run.blob for run in self.canonical]
        for run in self.canonical:
            run.blob = b""
        return blobs

    def put_blobs(self, blobs: list[bytes | memoryview]) -> None:
        for run, blob in zip(self.canonical, blobs, strict=True):
            run.blob = blob


@dataclass(frozen=True, slots=True)
class PassContext:
    file: str
    incremental: bool
    since: datetime | None
    since_text: str | None


def run(
    doc: Document, ctx: PassContext, while_waiting: Callable[[], None] | None = None
) -> PassOutput:
    """Validate every memory of `doc`, in two processes when it is large.

    `while_waiting` is work for the parent once its own share is done and the worker's is
    not (the validator parses the rest of the document then); it runs in any case.
    """
    count = doc.memory_count
    if doc.memory_spans is None or count < PARALLEL_THRESHOLD or not _can_fork():
        output = validate_range(doc, 0, count, ctx)
        if while_waiting is not None:
            while_waiting()
        return output
    # Half each: the parent parses the deferred members while the worker finishes, and the
    # worker then hands its output over, which take about as long.
    split = int(count * PARENT_SHARE)
    spans = doc.memory_spans
    # The worker's canonical bytes come back through shared memory (a pipe would copy them
    # twice): room for twice the raw text, which they hardly ever exceed (then: the pipe).
    # Pages never written take no memory.
    shared = mmap.mmap(-1, SHARED_ROOM * (spans[-1][1] - spans[split][0]) + mmap.PAGESIZE)
    mp = multiprocessing.get_context("fork")
    receiver, sender = mp.Pipe(duplex=False)
    child = mp.Process(target=_child, args=(sender, doc, split, count, ctx, shared), daemon=True)
    child.start()
    sender.close()
    try:
        output = validate_range(doc, 0, split, ctx)
        for run in output.canonical:
            run.sort()
        if while_waiting is not None:
            while_waiting()
        try:
            second: PassOutput | BaseException
            second, placed = receiver.recv()
            if isinstance(second, PassOutput):
                second.facts, ids = marshal.loads(receiver.recv_bytes())
                for run, run_ids in zip(second.canonical, ids, strict=True):
                    run.ids = run_ids
                view = memoryview(shared)
                second.put_blobs(
                    [
                        receiver.recv_bytes() if where is None else view[where[0] : where[1]]
                        for where in placed
                    ]
                )
        except EOFError:
            second = RuntimeError("the validation worker exited without a result")
    finally:
        receiver.close()
        child.join()
    if isinstance(second, BaseException):
        # Fall back to doing the second share here rather than failing the validation.
        second = validate_range(doc, split, count, ctx)
    output.merge(second)
    return output


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _child(
    sender: Any, doc: Document, lo: int, hi: int, ctx: PassContext, shared: mmap.mmap
) -> None:
    """Validate memories[lo:hi] and send the output: the facts and ids (marshal: plain
    tuples, lists and str, about twice as fast as pickle), then the canonical bytes, placed in
    `shared` when they fit ((start, end) sent for each) or through the pipe (None)."""
    blobs: list[bytearray | bytes | memoryview] = []
    placed: list[tuple[int, int] | None] = []
    columns = b""
    try:
        result: PassOutput | BaseException = validate_range(doc, lo, hi, ctx)
        if isinstance(result, PassOutput):
            for run in result.canonical:
                run.sort()
            columns = marshal.dumps((result.facts, [run.ids for run in result.canonical]))
            result.facts = []
            for run in result.canonical:
                run.ids = []
            at = 0
            for blob in result.take_blobs():
                if at + len(blob) <= len(shared):
                    shared[at : at + len(blob)] = blob
                    placed.append((at, at + len(blob)))
                    at += len(blob)
                else:
                    placed.append(None)
                    blobs.append(blob)
    except BaseException as exc:  # reported to the parent, which redoes the range
        result = RuntimeError(f"validation worker failed: {exc!r}")
    sender.send((result, placed))
    if isinstance(result, PassOutput):
        sender.send_bytes(columns)
    for blob in blobs:
        sender.send_bytes(blob)
    sender.close()


def validate_range(doc: Document, lo: int, hi: int, ctx: PassContext) -> PassOutput:
    """Validate memories[lo:hi].

    The cyclic garbage collector is paused meanwhile: parsing allocates millions of
    short-lived, acyclic objects, and collections triggered by them cost a third of the time.
    """
    with gc_paused():
        return _validate_range(doc, lo, hi, ctx)


_Parsed = tuple[int, Any, "tuple[int, ...] | None"]


def _validate_range(doc: Document, lo: int, hi: int, ctx: PassContext) -> PassOutput:
    out = PassOutput()
    for first in range(lo, hi, _BATCH):
        last = min(first + _BATCH, hi)
        if memory_run is not None:
            values = _load_batch(doc, first, last)
            if values is not None:
                _fast_batch(memory_run, out, ctx, doc, values, first)
                if doc.memory_spans is not None:
                    release_pages(
                        doc.buf, doc.memory_spans[first][0], doc.memory_spans[last - 1][1]
                    )
                continue
        batch: list[_Parsed]
        if doc.memory_spans is None:
            values = doc.memories_value
            batch = [(i, values[i], None) for i in range(first, last)]
        else:
            batch = _parse_batch(doc, first, last, ctx, out)
        positions: list[int] = []
        memories: list[dict[str, Any]] = []
        for index, memory, span in batch:
            if type(memory) is not dict:
                _not_an_object(out, ctx, index, memory)
                continue
            positions.append(index)
            memories.append(memory)
            _memory(out, ctx, doc, index, span, memory)
        if memories:
            out.findings.extend(schema.validate_memories(memories, positions, file=ctx.file))
        if doc.memory_spans is not None:
            release_pages(doc.buf, doc.memory_spans[first][0], doc.memory_spans[last - 1][1])
    return out


def _load_batch(doc: Document, first: int, last: int) -> list[Any] | None:
    """memories[first:last] as parsed values when they all parse in one go and the scanner
    counted their members; None sends the batch down the general path."""
    spans = doc.memory_spans
    if spans is None:
        values = doc.memories_value
        return values[first:last] if type(values) is list else None
    if len(spans[first]) != 4 or any(span[3] > jsonread.MAX_DEPTH for span in spans[first:last]):
        return None
    # One copy of the items' bytes, bracketed (slicing and concatenating would make two).
    text = bytearray(b"[")
    with memoryview(doc.buf) as view:
        text += view[spans[first][0] : spans[last - 1][1]]
    text += b"]"
    try:
        values = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return values if len(values) == last - first else None


def _fast_batch(
    fast: Callable[..., int],
    out: PassOutput,
    ctx: PassContext,
    doc: Document,
    values: list[Any],
    first: int,
) -> None:
    """`_memory` over a batch, the C accelerator taking every memory it can clear."""
    spans = doc.memory_spans
    run = out.canonical[-1]
    assert isinstance(run.blob, bytearray)
    counts = out.counts
    state: list[Any] = [out.non_uuid_ids, counts.first_created, counts.last_created]
    all_objects = True
    n = len(values)
    k = 0
    while True:
        k = fast(
            values, spans, first, k, run.ids, run.blob, run.ends.append, out.facts,
            counts.by_type, counts.by_status, counts.by_platform, counts.by_method, state,
            hashlib.sha256, canonical.content_hash, _before, ctx.incremental,
        )  # fmt: skip
        if k >= n:
            break
        out.non_uuid_ids, counts.first_created, counts.last_created = state
        memory = values[k]
        index = first + k
        if type(memory) is dict:
            _memory(out, ctx, doc, index, None if spans is None else spans[index], memory)
        else:
            _not_an_object(out, ctx, index, memory)
            all_objects = False
        state = [out.non_uuid_ids, counts.first_created, counts.last_created]
        k += 1
    out.non_uuid_ids, counts.first_created, counts.last_created = state
    if all_objects:
        memories: list[Any] = values
        start: int | list[int] = first
    else:
        memories = [m for m in values if type(m) is dict]
        start = [first + k for k, m in enumerate(values) if type(m) is dict]
    if memories:
        out.findings.extend(schema.validate_memories(memories, start, file=ctx.file))


def _not_an_object(out: PassOutput, ctx: PassContext, index: int, memory: Any) -> None:
    # Reported here, not by the schema: a million non-objects would otherwise cost a million
    # schema errors before the per-rule cap hides them.
    out.findings.append(
        Finding(
            "error", "schema-type", f"a memory must be a JSON object, not {_json_type(memory)}",
            f"$.memories[{index}]", "PAM §4", ctx.file,
        )
    )  # fmt: skip
    out.checksum_computable = False
    out.incomplete = True


def release_pages(buf: Any, start: int, end: int) -> None:
    """Tell the kernel the file pages of buf[start:end] are no longer needed: a mapped file
    otherwise stays resident as it is read, and a 1 GB store would hold 1 GB of memory."""
    if not isinstance(buf, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    first = start - start % mmap.PAGESIZE
    if end > first:
        buf.madvise(mmap.MADV_DONTNEED, first, end - first)


def _parse_batch(
    doc: Document, first: int, last: int, ctx: PassContext, out: PassOutput
) -> list[_Parsed]:
    """Parse memories[first:last] with one orjson call over their bytes (the scanner has
    already checked the separators between them); fall back to one call per memory to name
    the one that is broken."""
    spans = doc.memory_spans
    assert spans is not None
    counted = len(spans[first]) == 4
    if counted and any(span[3] > jsonread.MAX_DEPTH for span in spans[first:last]):
        return _parse_each(doc, first, last, ctx, out)
    chunk = doc.buf[spans[first][0] : spans[last - 1][1]]
    try:
        values = orjson.loads(b"[" + chunk + b"]")
    except orjson.JSONDecodeError:
        return _parse_each(doc, first, last, ctx, out)
    if len(values) != last - first:  # pragma: no cover - the scanner counted the items
        return _parse_each(doc, first, last, ctx, out)
    if not counted:
        return _parse_each(doc, first, last, ctx, out)
    return [(first + k, value, spans[first + k]) for k, value in enumerate(values)]


def _parse_each(
    doc: Document, first: int, last: int, ctx: PassContext, out: PassOutput
) -> list[_Parsed]:
    spans = doc.memory_spans
    assert spans is not None
    parsed: list[_Parsed] = []
    for index in range(first, last):
        span = spans[index]
        start, end = span[0], span[1]
        raw = bytes(doc.buf[start:end])
        where = f"$.memories[{index}]"
        try:
            try:
                memory = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise jsonread.decode_error(exc, raw, ctx.file, start, path=where) from None
            # Deeper than the limit breaks the schema validator; refuse it here.
            jsonread.check_depth(raw, ctx.file, base=start, path=where)
        except JSONDocumentError as error:
            at = f" (byte {error.offset})" if error.offset is not None else ""
            out.findings.append(
                Finding("error", error.code, error.message + at, where, error.rule, ctx.file)
            )
            out.checksum_computable = False
            out.incomplete = True
            continue
        if len(span) != 4:
            span = (start, end, raw.count(b":"), -1)  # colon count; see _memory
        parsed.append((index, memory, span))
    return parsed


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else type(value).__name__


def _finding(
    out: PassOutput,
    ctx: PassContext,
    severity: Severity,
    code: str,
    message: str,
    path: str,
    section: str,
    record: str | None,
) -> None:
    out.findings.append(Finding(severity, code, message, path, section, ctx.file, record))


def _memory(
    out: PassOutput,
    ctx: PassContext,
    doc: Document,
    index: int,
    span: tuple[int, ...] | None,
    memory: dict[str, Any],
) -> None:
    # This runs once per memory of stores with hundreds of thousands of them: paths and
    # messages are only built when there is something to report.
    mid = memory.get("id")
    record = mid if type(mid) is str else None
    members = -1
    try:
        canon: bytes | None
        canon, members = canonical.jcs_dumps(memory, count=True)
    except canonical.CanonicalizationError as exc:
        canon = None
        out.checksum_computable = False
        _finding(
            out, ctx, "error", "not-canonicalizable", f"{exc} (memory cannot be canonicalized)",
            f"$.memories[{index}]", "PAM §15.1 / RFC 8785", record,
        )  # fmt: skip
    # Duplicate member names: orjson keeps the last of them silently, so compare the number
    # of members the scanner saw in the raw text with the number that were parsed. (From a
    # scanner that does not count, span[2] is the raw text's colon count, compared with the
    # canonical text's, which is equal unless a colon was written as an escape.)
    if span is not None and canon is not None:
        suspicious = (
            span[2] != members
            if span[3] >= 0
            else span[2] != canon.count(b":") or b"\\u003" in doc.buf[span[0] : span[1]]
        )
        if suspicious:
            raw = bytes(doc.buf[span[0] : span[1]])
            try:
                jsonread.check_no_duplicate_keys(
                    raw, memory, ctx.file, base=span[0], record=record,
                    path=f"$.memories[{index}]",
                )  # fmt: skip
            except JSONDocumentError as exc:
                _finding(
                    out, ctx, "error", exc.code, exc.message,
                    exc.path or f"$.memories[{index}]", exc.rule, record,
                )  # fmt: skip
    if record is None:
        out.checksum_computable = False
        return
    if canon is not None:
        run = out.canonical[-1]  # CanonicalRun.append, inlined: this runs per memory
        run.ids.append(record)
        blob = run.blob
        assert isinstance(blob, bytearray)
        blob += canon
        run.ends.append(len(blob))
    if _UUID4.fullmatch(record) is None:
        out.non_uuid_ids += 1

    temporal = memory.get("temporal")
    temporal = temporal if type(temporal) is dict else {}
    provenance = memory.get("provenance")
    provenance = provenance if type(provenance) is dict else {}
    status = memory.get("status", "active")
    status = status if type(status) is str else "active"
    superseded_by = temporal.get("superseded_by")
    superseded_by = superseded_by if type(superseded_by) is str else None
    conversation_ref = provenance.get("conversation_ref")
    embedding_ref = memory.get("embedding_ref")
    out.facts.append(
        (
            index,
            record,
            status,
            superseded_by,
            conversation_ref if type(conversation_ref) is str else None,
            embedding_ref if type(embedding_ref) is str else None,
            platform if type(platform := provenance.get("platform")) is str else None,
        )
    )

    content = memory.get("content")
    declared = memory.get("content_hash")
    if type(content) is str and type(declared) is str and len(declared) == 71:
        actual = canonical.content_hash(content)
        if actual != declared:
            _finding(
                out, ctx, "error", "content-hash-mismatch",
                f"content_hash does not match the content: declared {declared}, computed "
                f"{actual} (sha256 of the normalized content)",
                f"$.memories[{index}].content_hash", "PAM §6", record,
            )  # fmt: skip
    if temporal and (
        ctx.incremental or "updated_at" in temporal or temporal.get("valid_until") is not None
    ):
        _temporal(out, ctx, temporal, index, record)
    if superseded_by is not None or status == "superseded":
        _lifecycle(out, ctx, MemoryFact._make(out.facts[-1]), f"$.memories[{index}]")
    access = memory.get("access")
    if type(access) is dict and (access.get("exportable") is False or access.get("shared_with")):
        _access(out, ctx, access, f"$.memories[{index}]", record)

    counts = out.counts
    mtype = memory.get("type")
    if type(mtype) is str:
        if mtype == "custom" and type(memory.get("custom_type")) is str:
            mtype = f"custom:{memory['custom_type']}"
        counts.by_type[mtype] += 1
    counts.by_status[status] += 1
    platform = provenance.get("platform")
    if type(platform) is str:
        counts.by_platform[platform] += 1
    method = provenance.get("extraction_method")
    counts.by_method[method if type(method) is str else "unspecified"] += 1
    created = temporal.get("created_at")
    if type(created) is str:
        if counts.first_created is None or created < counts.first_created:
            counts.first_created = created
        if counts.last_created is None or created > counts.last_created:
            counts.last_created = created


def _before(earlier: Any, later: Any) -> bool | None:
    """Whether timestamp `later` is strictly before `earlier`; None if either is unusable.

    Timestamps of one shape — equal length, same UTC offset ("Z" or "±hh:mm") — compare as
    strings; others are parsed.
    """
    if type(earlier) is not str or type(later) is not str:
        return None
    if len(earlier) == len(later) and (
        (earlier[-1:] == "Z" and later[-1:] == "Z")
        or (earlier[-6:-5] in ("+", "-") and earlier[-6:] == later[-6:])
    ):
        return later < earlier
    try:
        return parse_timestamp(later) < parse_timestamp(earlier)
    except ValueError:
        return None


def _temporal(
    out: PassOutput, ctx: PassContext, temporal: dict[str, Any], index: int, record: str
) -> None:
    path = f"$.memories[{index}]"
    created, updated = temporal.get("created_at"), temporal.get("updated_at")
    if _before(created, updated):
        _finding(
            out,
            ctx,
            "warning",
            "updated-before-created",
            f"updated_at {updated} is before created_at {created}",
            f"{path}.temporal.updated_at",
            "PAM §4.1",
            record,
        )
    valid_from, valid_until = temporal.get("valid_from"), temporal.get("valid_until")
    if _before(valid_from, valid_until):
        _finding(
            out,
            ctx,
            "warning",
            "validity-reversed",
            f"valid_until {valid_until} is before valid_from {valid_from}: the memory is never "
            "valid",
            f"{path}.temporal.valid_until",
            "PAM §4.1",
            record,
        )
    if ctx.incremental and ctx.since is not None:
        stamps = [_parse(t) for t in (created, updated)]
        latest = max((t for t in stamps if t is not None), default=None)
        if latest is not None and latest <= ctx.since:
            _finding(
                out,
                ctx,
                "warning",
                "incremental-memory-before-since",
                f"memory was created and last updated before `since` ({ctx.since_text}); an "
                "incremental export includes only memories created or updated after it",
                f"{path}.temporal",
                "PAM §16.2",
                record,
            )


def _parse(value: Any) -> datetime | None:
    if type(value) is not str:
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        return None


def _lifecycle(out: PassOutput, ctx: PassContext, fact: MemoryFact, path: str) -> None:
    if fact.superseded_by == fact.id:
        _finding(
            out,
            ctx,
            "error",
            "superseded-by-itself",
            "temporal.superseded_by names the memory itself",
            f"{path}.temporal.superseded_by",
            "PAM §7",
            fact.id,
        )
    if fact.status == "superseded" and fact.superseded_by is None:
        _finding(
            out,
            ctx,
            "warning",
            "superseded-without-replacement",
            "status is superseded but temporal.superseded_by does not name the replacement",
            f"{path}.temporal.superseded_by",
            "PAM §7",
            fact.id,
        )
    elif fact.superseded_by is not None and fact.status not in ("superseded", "archived"):
        _finding(
            out,
            ctx,
            "warning",
            "superseded-by-but-not-superseded",
            f"temporal.superseded_by is set but status is {fact.status!r}; it is set when status "
            "becomes superseded",
            f"{path}.status",
            "PAM §7",
            fact.id,
        )


def _access(
    out: PassOutput, ctx: PassContext, access: dict[str, Any], path: str, record: str
) -> None:
    if access.get("exportable") is False:
        _finding(
            out,
            ctx,
            "error",
            "non-exportable-memory-exported",
            "memory is marked exportable: false and must not be included in an export",
            f"{path}.access.exportable",
            "PAM §21.1",
            record,
        )
    grants = access.get("shared_with")
    if access.get("visibility", "private") == "private" and type(grants) is list and grants:
        _finding(
            out,
            ctx,
            "warning",
            "grants-on-private-memory",
            "visibility is private (owner only) but shared_with lists grants",
            f"{path}.access.shared_with",
            "PAM §9",
            record,
        )
