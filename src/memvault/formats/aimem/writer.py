"""Write AIMEM bundles — ``.aimem.json`` or NDJSON (§3.1) — from records as they come.

`BundleWriter` takes records one at a time (from generators), checks each against the same
rules the reader applies, and spools its RFC 8785 bytes to a temporary file per array in the
target's directory, so memory holds one record plus the ids. `finish` checks the
cross-references, computes the checksum from the spools (two passes over them, in canonical
order: the checksum sits in the envelope, written first), writes the bundle to a temporary
name beside the target, fsyncs it and renames it into place. Nothing is left behind when a
record is refused or writing fails.

The JSON form is written in canonical form itself (RFC 8785, the checksum in its sorted place),
so its bytes are what §2.8 hashes plus the checksum member. The NDJSON form has the canonical
envelope on the first line, then chunks, entities, edges and chunk-entity links, one per
line, each tagged with ``_kind``. Both forms always carry all four arrays.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from memvault.atomic import atomic_file
from memvault.canonical import CanonicalizationError, jcs_dumps
from memvault.formats.aimem.checksum import ARRAYS, CanonicalBundleHasher, canonical_order
from memvault.formats.aimem.errors import BundleError, Problem, pointer
from memvault.formats.aimem.reader import ARRAY_OF, KIND_OF, Form
from memvault.formats.aimem.validate import BundleRules, check_format_version

__all__ = [
    "BundleWriter",
    "KeptRecords",
    "WriteSummary",
    "form_for_path",
    "sorts_before_last_array",
    "write_bundle",
]

_NDJSON_SUFFIXES: Final = (".ndjson", ".jsonl")
_LINE_ORDER: Final = ("chunks", "entities", "edges", "chunk_entities")


def form_for_path(path: str | os.PathLike[str]) -> Form:
    """``ndjson`` for a ``.ndjson``/``.jsonl`` name, else ``json`` (``.aimem.json``)."""
    return "ndjson" if str(path).lower().endswith(_NDJSON_SUFFIXES) else "json"


@dataclass(frozen=True, slots=True)
class WriteSummary:
    """What `BundleWriter.finish` wrote."""

    path: Path
    form: Form
    checksum: str
    counts: dict[str, int] = field(default_factory=dict)
    bytes_written: int = 0
    warnings: tuple[Problem, ...] = ()


class BundleWriter:
    """Streaming bundle writer; see the module docstring.

    `envelope` holds the top-level members other than the record arrays (a ``checksum`` in it
    is replaced). `form` defaults from the file name (`form_for_path`). An existing file at
    `path` is only replaced with `overwrite`. Use as a context manager, or call `finish` /
    `abort`. Records that break a §2 rule raise `BundleError` at `add` (cross-references at
    `finish`); the target is then left untouched. `guard` is entered around the final rename
    alone (it may refuse it by raising; `memvault.erasure_fence`).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        envelope: Mapping[str, Any],
        *,
        form: Form | None = None,
        overwrite: bool = False,
        guard: Callable[[], AbstractContextManager[object]] | None = None,
    ) -> None:
        self.path = Path(path)
        self._guard = guard
        self.form: Form = form or form_for_path(self.path)
        if self.path.exists() and not overwrite:
            raise FileExistsError(f"{self.path} exists (pass overwrite=True to replace it)")
        self.envelope = {k: v for k, v in envelope.items() if k != "checksum"}
        file = str(self.path)
        problems = [p for p in check_format_version(self.envelope, file)]
        inline = [a for a in ARRAYS if a in self.envelope]
        if inline:
            problems.append(
                Problem(
                    "envelope-has-records",
                    f"pass {', '.join(inline)} as records, not in the envelope",
                    "/" + inline[0],
                    "§2.1",
                    file=file,
                )
            )
        self._rules = BundleRules(self.envelope, file=file)
        # The checksum is computed at finish; a placeholder keeps check_envelope quiet on it.
        probe = BundleRules({**self.envelope, "checksum": "sha256:" + "0" * 64}, file=file)
        problems.extend(probe.check_envelope())
        if any(p.severity == "error" for p in problems):
            raise BundleError(problems)
        self.warnings: list[Problem] = [p for p in problems if p.severity == "warning"]
        self.counts: dict[str, int] = dict.fromkeys(ARRAYS, 0)
        self._pending: list[tuple[str, int, str, str]] = []  # unresolved references
        self._has_embeddings = False
        directory = self.path.parent if str(self.path.parent) else Path(".")
        self._spools: dict[str, IO[bytes]] = {}
        try:
            for array in ARRAYS:
                self._spools[array] = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115
        except OSError:
            self._close_spools()
            raise
        self._done = False

    # ---------------------------------------------------------------------------- records

    def __enter__(self) -> BundleWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None and not self._done:
            self.finish()
        else:
            self.abort()

    def add(self, kind: str, record: Mapping[str, Any]) -> bytes:
        """Add one record; `kind` is ``chunk``/``edge``/``entity``/``chunk_entity`` or the
        array name; returns its RFC 8785 bytes. Raises BundleError when the record breaks a
        §2 rule."""
        if self._done:
            raise ValueError("the writer is finished")
        array = ARRAY_OF.get(kind, kind)
        if array not in ARRAYS:
            raise ValueError(f"unknown record kind {kind!r}")
        index = self.counts[array]
        problems = self._check(array, index, record)
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise BundleError(errors)
        self.warnings.extend(problems)
        try:
            canon = jcs_dumps(record)
        except CanonicalizationError as exc:
            raise BundleError(
                [
                    Problem(
                        "not-canonicalizable",
                        f"RFC 8785 has no form for a value in it: {exc}",
                        pointer(array, index),
                        "§2.8",
                        file=str(self.path),
                    )
                ]
            ) from None
        spool = self._spools[array]
        spool.write(canon)
        spool.write(b"\n")  # canonical JSON has no raw newline: one record per line
        self.counts[array] = index + 1
        return canon

    def add_checked_chunk(self, chunk_id: str, canonical: bytes) -> None:
        """Add a chunk this writer's rules passed before, in its RFC 8785 bytes (a vault's
        kept chunk, without embedding): only its id is checked (unique in the bundle)."""
        if self._done:
            raise ValueError("the writer is finished")
        index = self.counts["chunks"]
        if chunk_id in self._rules.chunk_ids:
            raise BundleError(
                [
                    Problem(
                        "duplicate-chunk-id",
                        f"chunk id {chunk_id!r} is already in this bundle",
                        pointer("chunks", index, "id"),
                        "§2.3",
                        file=str(self.path),
                    )
                ]
            )
        self._rules.chunk_ids.add(chunk_id)
        spool = self._spools["chunks"]
        spool.write(canonical)
        spool.write(b"\n")
        self.counts["chunks"] = index + 1

    def _check(self, array: str, index: int, record: Any) -> list[Problem]:
        rules = self._rules
        if array == "chunks":
            first_embedding = (
                not self._has_embeddings
                and isinstance(record, Mapping)
                and record.get("embedding") is not None
            )
            if first_embedding:
                self._has_embeddings = True
                missing = rules._embedding_envelope(True)
                if missing:
                    return missing
            return rules.check_chunk(index, record)
        if array == "entities":
            return rules.check_entity(index, record)
        if not isinstance(record, Mapping):
            section = "§2.4" if array == "edges" else "§2.6"
            return [rules._not_object(record, pointer(array, index), section, "the record")]
        # References are resolved at finish: an edge may come before its chunks.
        refs = (
            (("source_id", "chunks"), ("target_id", "chunks"))
            if array == "edges"
            else (("chunk_id", "chunks"), ("entity_id", "entities"))
        )
        for name, target in refs:
            ref = record.get(name)
            if isinstance(ref, str):
                self._pending.append(
                    (array, index, name, ref if target == "chunks" else "\0" + ref)
                )
        everything = _Everything()
        if array == "edges":
            return rules.check_edge(index, record, everything)
        return rules.check_chunk_entity(index, record, everything, everything)

    def add_chunk(self, chunk: Mapping[str, Any]) -> bytes:
        """Add a chunk record (§2.2); returns its RFC 8785 bytes."""
        return self.add("chunks", chunk)

    def add_edge(self, edge: Mapping[str, Any]) -> None:
        """Add an edge record (§2.4)."""
        self.add("edges", edge)

    def add_entity(self, entity: Mapping[str, Any]) -> None:
        """Add an entity record (§2.5)."""
        self.add("entities", entity)

    def add_chunk_entity(self, link: Mapping[str, Any]) -> None:
        """Add a chunk-entity link (§2.6)."""
        self.add("chunk_entities", link)

    # ----------------------------------------------------------------------------- finish

    def _unresolved(self) -> list[Problem]:
        chunk_ids, entity_ids = self._rules.chunk_ids, self._rules.entity_ids
        out: list[Problem] = []
        for array, index, name, ref in self._pending:
            if ref.startswith("\0"):
                if ref[1:] in entity_ids:
                    continue
                code, what, section, ref = "link-unknown-entity", "an entity", "§2.6", ref[1:]
            else:
                if ref in chunk_ids:
                    continue
                code = "edge-unknown-chunk" if array == "edges" else "link-unknown-chunk"
                what, section = "a chunk", "§2.4" if array == "edges" else "§2.6"
            out.append(
                Problem(
                    code,
                    f'"{name}" {ref!r} is not the id of {what} in this bundle',
                    pointer(array, index, name),
                    section,
                    file=str(self.path),
                )
            )
        return out

    def finish(self) -> WriteSummary:
        """Check references, compute the checksum, write and rename; returns a summary."""
        if self._done:
            raise ValueError("the writer is finished")
        try:
            checksum = self._checksum()
            envelope = {**self.envelope, "checksum": checksum}
            written = self._publish(envelope)
        except BaseException:
            self.abort()
            raise
        self._done = True
        self._close_spools()
        return WriteSummary(
            self.path, self.form, checksum, dict(self.counts), written, tuple(self.warnings)
        )

    def finish_stream(self, block_size: int = 1 << 16) -> tuple[str, Iterator[bytes]]:
        """Check references and compute the checksum as `finish` does, but write no file:
        return the checksum and the bundle's bytes (this writer's form) as blocks of about
        `block_size` bytes, read from the spools as they are consumed (bounded memory; an
        HTTP response streams them). The spools close when the blocks are exhausted or the
        iterator is closed."""
        if self._done:
            raise ValueError("the writer is finished")
        try:
            checksum = self._checksum()
        except BaseException:
            self.abort()
            raise
        self._done = True
        envelope = {**self.envelope, "checksum": checksum}
        parts = self._json_parts(envelope) if self.form == "json" else self._ndjson_parts(envelope)
        return checksum, self._blocks(parts, block_size)

    def _blocks(self, parts: Iterator[bytes], block_size: int) -> Iterator[bytes]:
        try:
            pending: list[bytes] = []
            size = 0
            for part in parts:
                pending.append(part)
                size += len(part)
                if size >= block_size:
                    yield b"".join(pending)
                    pending, size = [], 0
            if pending:
                yield b"".join(pending)
        finally:
            self._close_spools()

    def keep(self, directory: str | os.PathLike[str] | None = None) -> KeptRecords:
        """The records written so far, kept (`KeptRecords`) to be sent again under another
        envelope without checking or hashing them again. Call it before `finish_stream`;
        the writer is unchanged. Raises BundleError for unresolved references."""
        problems = self._unresolved()
        if problems:
            raise BundleError(problems)
        head = {k: v for k, v in self.envelope.items() if sorts_before_last_array(k)}
        canonical = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115 - KeptRecords closes
        lines = tempfile.TemporaryFile(dir=directory)  # noqa: SIM115
        try:
            # The canonical bundle up to the last array: what every export of these records
            # under an envelope with this `head` starts with.
            hasher = CanonicalBundleHasher(head, ARRAYS, sink=canonical.write)
            for array in hasher.order:
                hasher.start(array)
                for line in self._lines(array):
                    hasher.add_canonical(array, line)
            canonical.write(b"]")
            digest = hasher.state()
            digest.update(b"]")
            for part in self._ndjson_records():
                lines.write(part)
            canonical.flush()
            lines.flush()
        except BaseException:
            canonical.close()
            lines.close()
            raise
        return KeptRecords(head, digest, canonical, lines)

    def canonical_bytes(self) -> bytes:
        """The RFC 8785 bytes of the bundle so far without its checksum: what §2.8 hashes and
        a §5.3 signature signs (held in memory: call it only to sign)."""
        parts: list[bytes] = []
        self._checksum(parts.append)
        return b"".join(parts)

    def _checksum(self, sink: Callable[[bytes], object] | None = None) -> str:
        problems = self._unresolved()
        if problems:
            raise BundleError(problems)
        hasher = CanonicalBundleHasher(self.envelope, ARRAYS, sink=sink)
        for array in hasher.order:
            hasher.start(array)
            for line in self._lines(array):
                hasher.add_canonical(array, line)
        return hasher.finish()

    def _lines(self, array: str) -> Iterator[bytes]:
        spool = self._spools[array]
        spool.flush()
        spool.seek(0)
        for line in spool:
            yield line[:-1]

    def _publish(self, envelope: dict[str, Any]) -> int:
        with atomic_file(self.path, buffering=1 << 20, guard=self._guard) as out:
            parts = self._json_parts(envelope) if self.form == "json" else None
            for part in parts or self._ndjson_parts(envelope):
                out.write(part)
            size = out.tell()
        return size

    def _json_parts(self, envelope: Mapping[str, Any]) -> Iterator[bytes]:
        yield b"{"
        for i, key in enumerate(canonical_order([*envelope, *ARRAYS])):
            if i:
                yield b","
            yield jcs_dumps(key) + b":"
            if key not in ARRAYS:
                yield jcs_dumps(envelope[key])
                continue
            yield b"["
            for n, line in enumerate(self._lines(key)):
                yield b"," + line if n else line
            yield b"]"
        yield b"}\n"

    def _ndjson_parts(self, envelope: Mapping[str, Any]) -> Iterator[bytes]:
        yield jcs_dumps(envelope) + b"\n"
        yield from self._ndjson_records()

    def _ndjson_records(self) -> Iterator[bytes]:
        for array in _LINE_ORDER:
            tag = b'{"_kind":' + jcs_dumps(KIND_OF[array])
            for line in self._lines(array):
                yield tag + (b"," + line[1:] if line != b"{}" else b"}") + b"\n"

    def abort(self) -> None:
        """Drop everything written so far; the target is left as it was."""
        self._done = True
        self._close_spools()

    def _close_spools(self) -> None:
        for spool in self._spools.values():
            spool.close()


def sorts_before_last_array(key: str) -> bool:
    """Whether envelope member `key` comes before the last record array in RFC 8785 order
    (``embedding_dim``, ``embedding_model``: before ``entities``)."""
    return canonical_order([key, ARRAYS[-1]])[0] == key


class KeptRecords:
    """A written bundle's records kept on disk (`BundleWriter.keep`), with the SHA-256 state
    of its canonical form up to the end of the last record array. Every envelope member of a
    standard bundle but ``embedding_*`` sorts after that array (§2.8's order), so the same
    records under a new envelope — another ``exported_at`` — are checksummed by hashing that
    envelope's members alone, and sent by copying the kept bytes: the first byte goes out at
    once. Reads use positioned reads, so several responses may send it at the same time."""

    def __init__(
        self, head: Mapping[str, Any], digest: Any, canonical: IO[bytes], lines: IO[bytes]
    ):
        self.head = dict(head)
        self._digest = digest
        self._canonical = canonical
        self._lines = lines

    def fits(self, envelope: Mapping[str, Any]) -> bool:
        """Whether `envelope` has this bundle's members before the last array."""
        head = {k: v for k, v in envelope.items() if k != "checksum" and sorts_before_last_array(k)}
        return jcs_dumps(head) == jcs_dumps(self.head)

    def checksum(self, envelope: Mapping[str, Any]) -> str:
        """The §2.8 checksum of these records under `envelope` (which must `fit`)."""
        digest = self._digest.copy()
        for key in canonical_order(k for k in envelope if k != "checksum" and k not in self.head):
            digest.update(b"," + jcs_dumps(key) + b":" + jcs_dumps(envelope[key]))
        digest.update(b"}")
        return "sha256:" + str(digest.hexdigest())

    def blocks(
        self, envelope: Mapping[str, Any], form: Form, block_size: int = 1 << 16
    ) -> Iterator[bytes]:
        """The bundle under `envelope` (its checksum set) in `form`, as `finish_stream` gives
        it, in blocks of `block_size` bytes."""
        if form == "ndjson":
            yield jcs_dumps(envelope) + b"\n"
            yield from self._read(self._lines, block_size)
            return
        rest = {k: v for k, v in envelope.items() if k not in self.head}
        yield b"{" + jcs_dumps("checksum") + b":" + jcs_dumps(rest.pop("checksum")) + b","
        yield from self._read(self._canonical, block_size, 1)  # after the kept "{"
        tail = b"".join(
            b"," + jcs_dumps(key) + b":" + jcs_dumps(rest[key]) for key in canonical_order(rest)
        )
        yield tail + b"}\n"

    @staticmethod
    def _read(fh: IO[bytes], block_size: int, offset: int = 0) -> Iterator[bytes]:
        fd = fh.fileno()
        while block := os.pread(fd, block_size, offset):
            offset += len(block)
            yield block

    def close(self) -> None:
        self._canonical.close()
        self._lines.close()


class _Everything:
    """A container holding every string: references are checked at `finish` instead."""

    def __contains__(self, item: object) -> bool:
        return isinstance(item, str)


def write_bundle(
    path: str | os.PathLike[str],
    envelope: Mapping[str, Any],
    chunks: Iterable[Mapping[str, Any]] = (),
    edges: Iterable[Mapping[str, Any]] = (),
    entities: Iterable[Mapping[str, Any]] = (),
    chunk_entities: Iterable[Mapping[str, Any]] = (),
    *,
    form: Form | None = None,
    overwrite: bool = False,
) -> WriteSummary:
    """Write a bundle from iterables of records (consumed once, in this order); see
    `BundleWriter`. Returns the summary, with the checksum."""
    with BundleWriter(path, envelope, form=form, overwrite=overwrite) as writer:
        for array, records in (
            ("chunks", chunks),
            ("entities", entities),
            ("edges", edges),
            ("chunk_entities", chunk_entities),
        ):
            for record in records:
                writer.add(array, record)
        return writer.finish()
