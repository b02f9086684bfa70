"""The per-memory half of memory-store validation, split across CPU cores.

Each memory is parsed, schema-checked, hashed (§6), canonicalized for the integrity checksum
(§15.2), checked for duplicate member names and for temporal, lifecycle and access rules.
What the cross-reference checks need is kept as one small `MemoryFact` per memory.

Memories are independent of each other, so a large store is cut in two ranges and a forked
child validates the second while the parent does the first: validation is CPU-bound and the
machines memvault runs on have more than one core.
"""

from __future__ import annotations

import gc
import multiprocessing
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, NamedTuple

import orjson

from memvault import canonical, jsonread
from memvault.findings import Finding, Severity
from memvault.formats.pam import schema
from memvault.formats.pam.reader import Document
from memvault.jsonread import JSONDocumentError
from memvault.model import parse_timestamp

_BATCH: Final = 1000
#: Below this many memories a second process costs more than it saves.
PARALLEL_THRESHOLD: Final = 20_000
_UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", re.I)


class MemoryFact(NamedTuple):
    """What the cross-reference checks need to know about one memory."""

    position: int
    id: str
    status: str
    superseded_by: str | None
    conversation_ref: str | None
    embedding_ref: str | None


@dataclass(slots=True)
class PassOutput:
    """Everything one range of memories produced."""

    findings: list[Finding] = field(default_factory=list)
    facts: list[MemoryFact] = field(default_factory=list)
    #: (id, RFC 8785 bytes) of every memory, for the integrity checksum
    canonical: list[tuple[str, bytes]] = field(default_factory=list)
    checksum_computable: bool = True
    #: some memories could not be read, so references to them cannot be resolved
    incomplete: bool = False
    non_uuid_ids: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    by_status: Counter[str] = field(default_factory=Counter)
    by_platform: Counter[str] = field(default_factory=Counter)
    by_method: Counter[str] = field(default_factory=Counter)
    first_created: str | None = None
    last_created: str | None = None

    def merge(self, other: PassOutput) -> None:
        self.findings.extend(other.findings)
        self.facts.extend(other.facts)
        self.canonical.extend(other.canonical)
        self.checksum_computable &= other.checksum_computable
        self.incomplete |= other.incomplete
        self.non_uuid_ids += other.non_uuid_ids
        self.by_type.update(other.by_type)
        self.by_status.update(other.by_status)
        self.by_platform.update(other.by_platform)
        self.by_method.update(other.by_method)
        for value in (other.first_created, other.last_created):
            if value is not None:
                self._created(value)

    def _created(self, value: str) -> None:
        if self.first_created is None or value < self.first_created:
            self.first_created = value
        if self.last_created is None or value > self.last_created:
            self.last_created = value


@dataclass(frozen=True, slots=True)
class PassContext:
    file: str
    incremental: bool
    since: datetime | None
    since_text: str | None


def run(doc: Document, ctx: PassContext) -> PassOutput:
    """Validate every memory of `doc`, in two processes when it is large."""
    count = doc.memory_count
    if doc.memory_spans is None or count < PARALLEL_THRESHOLD or not _can_fork():
        return validate_range(doc, 0, count, ctx)
    middle = count // 2
    mp = multiprocessing.get_context("fork")
    receiver, sender = mp.Pipe(duplex=False)
    child = mp.Process(target=_child, args=(sender, doc, middle, count, ctx), daemon=True)
    child.start()
    sender.close()
    try:
        output = validate_range(doc, 0, middle, ctx)
        try:
            second: PassOutput | BaseException = receiver.recv()
        except EOFError:
            second = RuntimeError("the validation worker exited without a result")
    finally:
        receiver.close()
        child.join()
    if isinstance(second, BaseException):
        # Fall back to doing the second half here rather than failing the validation.
        second = validate_range(doc, middle, count, ctx)
    output.merge(second)
    return output


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _child(sender: Any, doc: Document, lo: int, hi: int, ctx: PassContext) -> None:
    try:
        result: PassOutput | BaseException = validate_range(doc, lo, hi, ctx)
    except BaseException as exc:  # reported to the parent, which redoes the range
        result = RuntimeError(f"validation worker failed: {exc!r}")
    sender.send(result)
    sender.close()


def validate_range(doc: Document, lo: int, hi: int, ctx: PassContext) -> PassOutput:
    """Validate memories[lo:hi].

    The cyclic garbage collector is paused meanwhile: parsing allocates millions of
    short-lived, acyclic objects, and collections triggered by them cost a third of the time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _validate_range(doc, lo, hi, ctx)
    finally:
        if enabled:
            gc.enable()


def _validate_range(doc: Document, lo: int, hi: int, ctx: PassContext) -> PassOutput:
    out = PassOutput()
    batch: list[Any] = []
    batch_start = lo
    spans = doc.memory_spans
    values = doc.memories_value if spans is None else None
    buf = doc.buf
    for index in range(lo, hi):
        raw: bytes | None = None
        if spans is not None:
            start, end = spans[index]
            raw = bytes(buf[start:end])
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
        else:
            assert values is not None
            memory = values[index]
        if type(memory) is not dict:
            # Reported here, not by the schema: a million non-objects would otherwise cost a
            # million schema errors before the per-rule cap hides them.
            out.findings.append(
                Finding(
                    "error",
                    "schema-type",
                    f"a memory must be a JSON object, not {_json_type(memory)}",
                    f"$.memories[{index}]",
                    "PAM §4",
                    ctx.file,
                )
            )
            out.checksum_computable = False
            out.incomplete = True
            continue
        if not batch:
            batch_start = index
        batch.append(memory)
        _memory(out, ctx, index, raw, memory)
        if len(batch) >= _BATCH:
            out.findings.extend(schema.validate_memories(batch, batch_start, file=ctx.file))
            batch = []
    if batch:
        out.findings.extend(schema.validate_memories(batch, batch_start, file=ctx.file))
    return out


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
    out: PassOutput, ctx: PassContext, index: int, raw: bytes | None, memory: dict[str, Any]
) -> None:
    path = f"$.memories[{index}]"
    mid = memory.get("id")
    record = mid if type(mid) is str else None
    try:
        canon: bytes | None = canonical.jcs_dumps(memory)
    except canonical.CanonicalizationError as exc:
        canon = None
        out.checksum_computable = False
        _finding(
            out,
            ctx,
            "error",
            "not-canonicalizable",
            f"{exc} (memory cannot be canonicalized)",
            path,
            "PAM §15.1 / RFC 8785",
            record,
        )
    if raw is not None and canon is not None:
        try:
            jsonread.check_no_duplicate_keys(raw, memory, ctx.file, canonical=canon, record=record)
        except JSONDocumentError as exc:
            _finding(out, ctx, "error", exc.code, exc.message, path, exc.rule, record)
    if record is None:
        out.checksum_computable = False
        return
    if canon is not None:
        out.canonical.append((record, canon))
    if _UUID4.fullmatch(record) is None:
        out.non_uuid_ids += 1

    temporal = memory.get("temporal")
    temporal = temporal if type(temporal) is dict else {}
    provenance = memory.get("provenance")
    provenance = provenance if type(provenance) is dict else {}
    status = memory.get("status", "active")
    status = status if type(status) is str else "active"
    superseded_by = temporal.get("superseded_by")
    conversation_ref = provenance.get("conversation_ref")
    embedding_ref = memory.get("embedding_ref")
    fact = MemoryFact(
        index,
        record,
        status,
        superseded_by if type(superseded_by) is str else None,
        conversation_ref if type(conversation_ref) is str else None,
        embedding_ref if type(embedding_ref) is str else None,
    )
    out.facts.append(fact)

    content = memory.get("content")
    declared = memory.get("content_hash")
    if type(content) is str and type(declared) is str and len(declared) == 71:
        actual = canonical.content_hash(content)
        if actual != declared:
            _finding(
                out,
                ctx,
                "error",
                "content-hash-mismatch",
                f"content_hash does not match the content: declared {declared}, computed "
                f"{actual} (sha256 of the normalized content)",
                f"{path}.content_hash",
                "PAM §6",
                record,
            )
    if temporal:
        _temporal(out, ctx, temporal, path, record)
    _lifecycle(out, ctx, fact, path)
    access = memory.get("access")
    if type(access) is dict:
        _access(out, ctx, access, path, record)

    mtype = memory.get("type")
    if type(mtype) is str:
        if mtype == "custom" and type(memory.get("custom_type")) is str:
            mtype = f"custom:{memory['custom_type']}"
        out.by_type[mtype] += 1
    out.by_status[status] += 1
    platform = provenance.get("platform")
    if type(platform) is str:
        out.by_platform[platform] += 1
    method = provenance.get("extraction_method")
    out.by_method[method if type(method) is str else "unspecified"] += 1
    created = temporal.get("created_at")
    if type(created) is str:
        out._created(created)


def _before(earlier: Any, later: Any) -> bool | None:
    """Whether timestamp `later` is strictly before `earlier`; None if either is unusable.

    Same-shaped UTC timestamps ("…Z" of equal length) compare as strings; others are parsed.
    """
    if type(earlier) is not str or type(later) is not str:
        return None
    if len(earlier) == len(later) and earlier[-1:] == "Z" and later[-1:] == "Z":
        return later < earlier
    try:
        return parse_timestamp(later) < parse_timestamp(earlier)
    except ValueError:
        return None


def _temporal(
    out: PassOutput, ctx: PassContext, temporal: dict[str, Any], path: str, record: str
) -> None:
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


def sorted_canonical(items: Sequence[tuple[str, bytes]]) -> list[bytes]:
    """Canonical bytes in the §15.2 order (memory id ascending)."""
    return [canon for _, canon in sorted(items, key=lambda item: item[0])]
