"""Merge an incremental PAM export into its base, on files, without a vault (PAM §16.3,
Appendix E).

    merge_exports("full/", "delta.zip", "merged.zip")

The rules (docs/exchange.md, "Merge"):

- the delta's `base_export_id` must be the base's `export_id`, the delta must be incremental
  and both must belong to the same owner — else `MergeError`, unless `force`;
- every memory of the delta replaces the base memory with the same id, or is inserted (§16.3
  rules 2 and 4: a retraction in the delta marks the base memory retracted); no memory is ever
  removed (rule 5). One exception keeps §7.1: a memory that is retracted or archived in the base
  (final states) is not moved out of that state by a delta — the base copy is kept and the
  conflict reported;
- relations, conversations index entries, conversation files and embeddings are merged by id
  (by memory for embeddings, §12.1 rule 6), the delta winning; `derived_memories` is rebuilt
  from the merged memories (§14.1) and `embedding_ref` made to name the memory's embedding in
  the output (§12.1);
- the integrity block is recomputed (rule 3). The result describes the state as of the delta:
  it takes the delta's `export_id` and `export_date` — so the next delta, whose base is this
  delta, applies to it — and the base's `export_type`, `base_export_id` and `since` (merging a
  delta into a full export gives a full export). A signature is not carried over (the signed
  checksum changed).

Both inputs are validated first; an invalid one is refused with its findings. Memory stays
bounded: memories stream from both files through the writer's external sort; only the ids and
statuses of the delta's memories and the embedding ids are held.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Final

import orjson

from memvault import __version__
from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.findings import Finding, counted, errors_text, unverified_warning
from memvault.formats.pam import reader
from memvault.formats.pam.validate import validate_path
from memvault.formats.pam.writer import (
    EMBEDDINGS_FILE,
    STORE_FILE,
    EmbeddingsWriter,
    ExportStage,
    MemoryStoreWriter,
    WriterError,
    conversation_filename,
)
from memvault.jsonread import JSONDocumentError
from memvault.sources import Entry, SourceError, Target, open_target

try:
    from memvault import _speedups
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _speedups = None

__all__ = [
    "FINAL_STATUSES",
    "MergeError",
    "MergeResult",
    "exported_by",
    "file_ref",
    "iter_embeddings",
    "merge_exports",
    "store_entry",
]

#: PAM §7.1: no transition leaves these.
FINAL_STATUSES: Final = frozenset({"retracted", "archived"})
_HEADER_DROP: Final = frozenset(
    {"memories", "relations", "conversations_index", "integrity", "signature"}
)


def exported_by() -> str:
    """`memvault/<semver>` (the schema wants name/MAJOR.MINOR.PATCH)."""
    parts = __version__.split(".")
    core = [p if p.isdigit() else "".join(c for c in p if c.isdigit()) or "0" for p in parts[:3]]
    core += ["0"] * (3 - len(core))
    return "memvault/" + ".".join(str(int(p)) for p in core)


class MergeError(VaultError, ValueError):
    """The two exports cannot be merged; the message says why, `findings` lists validation
    errors when an input is invalid."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(
        self, message: str, findings: list[Finding] | None = None, *, headline: str | None = None
    ) -> None:
        super().__init__(message)
        self.findings = findings or []
        #: the message without the findings (for front ends that list them)
        self.headline = headline or message


@dataclass(frozen=True, slots=True)
class MergeResult:
    path: Path
    export_id: str | None
    memories: int
    inserted: int
    updated: int
    #: ids whose base copy was kept because it is retracted/archived and the delta's is not
    kept: list[str] = field(default_factory=list)
    relations: int = 0
    conversations: int = 0
    embeddings: int = 0
    checksum: str = ""
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Reading helpers (also used by memvault.exchange)
# ---------------------------------------------------------------------------------------------


def store_entry(target: Target) -> Entry | None:
    """The memory-store of a target: the file itself, or memory-store.json of a dir/zip."""
    if target.kind == "file":
        return target.entries[0]
    return target.find(STORE_FILE)


def iter_embeddings(buf: Any, file: str) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The top-level members of an embeddings document (without `embeddings`) and an iterator
    over its embeddings, parsed one at a time from `buf`."""
    if _speedups is None:  # pragma: no cover - fallback without the accelerator
        whole = orjson.loads(bytes(buf))
        listed = whole.pop("embeddings", [])
        return whole, iter(listed if isinstance(listed, list) else [])
    start = 0
    while bytes(buf[start : start + 1]) in (b" ", b"\t", b"\r", b"\n"):
        start += 1
    try:
        members, _ = _speedups.object_members(buf, start)
    except ValueError as exc:
        raise JSONDocumentError(file, str(exc), None, "RFC 8259") from None
    header: dict[str, Any] = {}
    spans: list[tuple[int, ...]] = []
    for key_start, key_end, value_start, value_end in members:
        key = orjson.loads(bytes(buf[key_start:key_end]))
        if key == "embeddings" and bytes(buf[value_start : value_start + 1]) == b"[":
            spans, _ = _speedups.array_items(buf, value_start)
        else:
            header[key] = orjson.loads(bytes(buf[value_start:value_end]))

    def items() -> Iterator[dict[str, Any]]:
        for span in spans:
            value = orjson.loads(bytes(buf[span[0] : span[1]]))
            if isinstance(value, dict):
                yield value

    return header, items()


def file_ref(entry: Mapping[str, Any]) -> str | None:
    """The export-relative path of an index entry's conversation file, if it has one."""
    storage = entry.get("storage")
    if not isinstance(storage, Mapping) or storage.get("type") != "file":
        return None
    ref = storage.get("ref")
    if not isinstance(ref, str):
        return None
    name = PurePosixPath(ref.replace("\\", "/"))
    if name.is_absolute() or ".." in name.parts:
        return None
    return name.as_posix().removeprefix("./")


def _check_valid(path: Path, what: str, allow_unverified: bool = False) -> list[str]:
    """Refuse an input that is not valid PAM, or whose signature does not verify (which
    `validate` reports as a warning, §21.4): merging would pass its memories off as the
    signer's — unless the user allows it (`allow_unverified`, §18.4: then a loud warning,
    returned)."""
    from memvault.crypto.signing import SIGNATURE_CODES, signature_failures

    result = validate_path(path)
    failed = signature_failures(result.findings)
    errors = [f for f in result.errors if f.code not in SIGNATURE_CODES]
    if not allow_unverified:
        errors = failed + errors
    if errors:
        shown = "; ".join(_finding_text(f) for f in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        headline = (
            f"the signature of the {what} {path} does not verify (PAM §18.4; pass "
            "--allow-unverified to merge it anyway)"
            if failed and not allow_unverified
            else f"the {what} {path} is not valid PAM ({errors_text(len(errors))})"
        )
        raise MergeError(f"{headline}: {shown}{more}", errors, headline=headline)
    return [unverified_warning(f) for f in failed]


def _finding_text(finding: Finding) -> str:
    where = f"{finding.file}: " if finding.file else ""
    section = f" ({finding.section})" if finding.section else ""
    return f"{where}{finding.path}: {finding.message}{section}"


# ---------------------------------------------------------------------------------------------
# Merge
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Source:
    target: Target
    store: Entry
    doc: reader.Document

    @property
    def header(self) -> dict[str, Any]:
        return self.doc.header


def _open(path: Path, stack: contextlib.ExitStack) -> _Source:
    """Open an export for reading; everything opened is closed with `stack`."""
    target = stack.enter_context(open_target(path))
    entry = store_entry(target)
    if entry is None:  # pragma: no cover - validation found it
        raise MergeError(f"{path}: no {STORE_FILE} (PAM §2)")
    buf = stack.enter_context(entry.open())
    doc = reader.parse(buf, entry.display)
    doc.complete_header()
    return _Source(target, entry, doc)


def merge_exports(
    base: str | os.PathLike[str],
    delta: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    force: bool = False,
    overwrite: bool = False,
    now: datetime | None = None,
    allow_unverified: bool = False,
) -> MergeResult:
    """Merge the incremental export `delta` into `base` and write the result to `out` (a
    directory, a `.zip`, or a `.json` for the memory-store alone). A signed input whose
    signature does not verify is refused unless `allow_unverified` (then a
    `SIGNATURE_WARNING` first among the warnings). Raises MergeError."""
    base_path, delta_path, out_path = Path(base), Path(delta), Path(out)
    try:
        unverified = _check_valid(base_path, "base", allow_unverified)
        unverified += _check_valid(delta_path, "delta", allow_unverified)
        with contextlib.ExitStack() as stack:
            base_src = _open(base_path, stack)
            delta_src = _open(delta_path, stack)
            result = _merge(base_src, delta_src, out_path, force, overwrite, now)
        result.warnings[:0] = unverified
        return result
    except (SourceError, JSONDocumentError, WriterError) as exc:
        raise MergeError(str(exc)) from None


def _merge(
    base: _Source,
    delta: _Source,
    out: Path,
    force: bool,
    overwrite: bool,
    now: datetime | None,
) -> MergeResult:
    warnings: list[str] = []
    bh, dh = base.header, delta.header

    problems: list[str] = []
    if dh.get("export_type") != "incremental":
        problems.append(
            f"{delta.store.display} is not an incremental export (export_type is "
            f"{dh.get('export_type', 'full')!r}, PAM §16.1)"
        )
    if dh.get("base_export_id") != bh.get("export_id"):
        # (a full export as the delta names no base: that is said above, once)
        if dh.get("base_export_id") is not None:
            problems.append(
                f"the delta applies to export {dh.get('base_export_id')!r}, but the base is "
                f"export {bh.get('export_id')!r} (PAM §16.3 rule 1)"
            )
        elif dh.get("export_type") == "incremental":
            problems.append(
                f"the delta names no base_export_id; the base is export "
                f"{bh.get('export_id')!r} (PAM §16.3 rule 1)"
            )
    base_owner = (bh.get("owner") or {}).get("id")
    delta_owner = (dh.get("owner") or {}).get("id")
    if base_owner != delta_owner:
        problems.append(
            f"the base belongs to owner {base_owner!r} and the delta to {delta_owner!r}"
        )
    if problems and not force:
        raise MergeError("; ".join(problems) + " (use --force to merge anyway)")
    warnings.extend(f"{p} (merged anyway: --force)" for p in problems)

    header = {k: v for k, v in bh.items() if k not in _HEADER_DROP}
    header["export_id"] = dh.get("export_id") or str(uuid.uuid4())
    moment = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    header["export_date"] = dh.get("export_date") or moment
    header["exported_by"] = exported_by()
    if header.get("export_type", "full") == "full":
        header.pop("base_export_id", None)
        header.pop("since", None)

    # The delta's memories: id -> status (what the base pass needs to decide).
    delta_status: dict[str, str] = {}
    for _, _, memory in delta.doc.iter_memories():
        if isinstance(memory, dict) and isinstance(memory.get("id"), str):
            delta_status[memory["id"]] = str(memory.get("status", "active"))

    with ExportStage(out, overwrite=overwrite) as stage:
        companions = stage.companions
        emb_of: dict[str, str] = {}
        if companions:
            emb_of = _embedding_plan(base, delta)
        writer = MemoryStoreWriter(stage.root / STORE_FILE, header, scratch=stage.scratch)
        kept: list[str] = []
        updated = 0
        for _, _, memory in base.doc.iter_memories():
            memory_id = memory["id"]
            if memory_id in delta_status:
                status = str(memory.get("status", "active"))
                if status in FINAL_STATUSES and delta_status[memory_id] != status:
                    kept.append(memory_id)
                    writer.add_memory(_with_embedding(memory, emb_of, companions))
                else:
                    updated += 1
                continue
            writer.add_memory(_with_embedding(memory, emb_of, companions))
        kept_set = set(kept)
        for _, _, memory in delta.doc.iter_memories():
            if memory["id"] not in kept_set:
                writer.add_memory(_with_embedding(memory, emb_of, companions))
        inserted = len(delta_status) - updated - len(kept)
        if kept:
            warnings.append(
                f"{counted(len(kept), 'memory', 'memories')} retracted or archived in the base "
                "that the delta would change; PAM §7.1 makes those states final, so the base "
                f"copies were kept: {', '.join(kept[:10])}{' …' if len(kept) > 10 else ''}"
            )

        relations: dict[str, Any] = {}
        for src in (base, delta):
            for relation in src.header.get("relations") or []:
                relations[relation["id"]] = relation
        for relation in relations.values():
            writer.add_relation(relation)
        relations_count = len(relations)
        relations.clear()

        conversations = _merge_conversations(base, delta, stage, writer, companions)
        embeddings = 0
        if companions:
            embeddings = _write_embeddings(base, delta, stage, set(emb_of.values()))
        summary = writer.finish()
        stage.publish()
    return MergeResult(
        path=out,
        export_id=header["export_id"],
        memories=summary.total_memories,
        inserted=inserted,
        updated=updated,
        kept=kept,
        relations=relations_count,
        conversations=conversations,
        embeddings=embeddings,
        checksum=summary.checksum,
        warnings=warnings,
    )


def _with_embedding(
    memory: dict[str, Any], emb_of: Mapping[str, str], companions: bool
) -> dict[str, Any]:
    """§12.1: in an export with companions, embedding_ref names the memory's embedding in
    embeddings.json, or is null."""
    if companions:
        ref = emb_of.get(memory["id"])
        if ref is not None or memory.get("embedding_ref") is not None:
            memory["embedding_ref"] = ref
    return memory


def _embeddings_of(src: _Source) -> Iterator[dict[str, Any]]:
    if src.target.kind == "file":
        return
    entry = src.target.find(EMBEDDINGS_FILE)
    if entry is None:
        return
    with entry.open() as buf:
        _, items = iter_embeddings(buf, entry.display)
        yield from items


def _embedding_plan(base: _Source, delta: _Source) -> dict[str, str]:
    """memory id -> id of its embedding in the output (the delta's wins, §12.1 rule 6)."""
    plan: dict[str, str] = {}
    for src in (base, delta):
        for emb in _embeddings_of(src):
            if isinstance(emb.get("memory_id"), str) and isinstance(emb.get("id"), str):
                plan[emb["memory_id"]] = emb["id"]
    return plan


def _write_embeddings(base: _Source, delta: _Source, stage: ExportStage, wanted: set[str]) -> int:
    out = EmbeddingsWriter(stage.root / EMBEDDINGS_FILE, schema_version="1.0")
    delta_memories = {e["memory_id"] for e in _embeddings_of(delta) if "memory_id" in e}
    try:
        for emb in _embeddings_of(base):
            if emb.get("memory_id") not in delta_memories and emb.get("id") in wanted:
                out.add(emb)
        for emb in _embeddings_of(delta):
            if emb.get("id") in wanted:
                out.add(emb)
    except BaseException:
        out.abort()
        raise
    return out.close()


def _merge_conversations(
    base: _Source,
    delta: _Source,
    stage: ExportStage,
    writer: MemoryStoreWriter,
    companions: bool,
) -> int:
    entries: dict[str, tuple[dict[str, Any], _Source]] = {}
    for src in (base, delta):
        for entry in src.header.get("conversations_index") or []:
            entries[entry["id"]] = (dict(entry), src)
    written: set[str] = set()
    for cid, (entry, src) in entries.items():
        if companions:
            ref = file_ref(entry)
            if ref is not None:
                other = base if src is delta else delta
                found = src.target.find(ref) if src.target.kind != "file" else None
                if found is None and other.target.kind != "file":
                    other_entry = next(
                        (
                            e
                            for e in other.header.get("conversations_index") or []
                            if e.get("id") == cid
                        ),
                        None,
                    )
                    other_ref = file_ref(other_entry) if other_entry else None
                    found = other.target.find(other_ref) if other_ref else None
                if found is None:
                    entry.pop("storage", None)
                else:
                    name = conversation_filename(cid)
                    if name not in written:
                        written.add(name)
                        path = stage.root / name
                        path.parent.mkdir(mode=0o700, exist_ok=True)
                        with found.open() as buf:
                            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                            with os.fdopen(fd, "wb") as handle:
                                handle.write(bytes(buf))
                    entry["storage"] = {"type": "file", "ref": name, "format": "json"}
        writer.add_conversation(entry)
    return len(entries)
