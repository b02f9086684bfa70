"""Write PAM exports as streams: memory-store.json, embeddings.json and conversation files.

Memory stays bounded however many memories go through. A memory is turned into its RFC 8785
bytes as soon as it is added and is never held as an object again. The integrity checksum
(PAM §15.2) needs those bytes in id order while memories arrive in whatever order the vault
keeps them, so `ExternalSorter` keeps a bounded run in memory, spills sorted runs to a
temporary file, and merges the runs when the document is written — memories come out sorted by
id, one per line, and the checksum is hashed on the way out. Relations and conversations index
entries go through the same sorter (deterministic output), and `derived_memories` is rebuilt
from the memories' `provenance.conversation_ref` (PAM §14.1: exactly the memories of this
document that name the conversation).

Nothing is written where the user asked until it is complete: `ExportStage` builds everything
in a hidden directory next to the target and renames it into place (a directory), or zips it
into a hidden file and renames that (a `.zip`). An interrupted export leaves no partial output.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import math
import os
import re
import shutil
import struct
import tempfile
import uuid
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

import orjson

from memvault.canonical import jcs_dumps
from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.formats.pam import STORE_FILE

__all__ = [
    "CONVERSATIONS_DIR",
    "EMBEDDINGS_FILE",
    "SPEC_URI",
    "STORE_FILE",
    "TYPE_REGISTRY",
    "EmbeddingsWriter",
    "ExportStage",
    "ExternalSorter",
    "MemoryStoreWriter",
    "StoreSummary",
    "WriterError",
    "conversation_filename",
    "encode_document",
    "output_mode",
    "write_document",
    "write_encoded",
]

EMBEDDINGS_FILE: Final = "embeddings.json"
CONVERSATIONS_DIR: Final = "conversations"
SPEC_URI: Final = "https://portable-ai-memory.org/spec/v1.0"
TYPE_REGISTRY: Final = "https://portable-ai-memory.org/types/"

#: Bytes a sorter keeps in memory (payloads, keys and an estimate of Python's per-record
#: overhead) before it spills a run to disk. An export uses four sorters.
RUN_BYTES = 16 << 20
#: What one (key, payload) record costs in memory beyond its bytes: the tuple, two objects.
_RECORD_OVERHEAD: Final = 160
#: The order of the top-level members this writer puts before `memories` (PAM §3).
_HEADER_ORDER: Final = (
    "schema",
    "schema_version",
    "spec_uri",
    "export_id",
    "exported_by",
    "export_date",
    "owner",
    "export_type",
    "base_export_id",
    "since",
    "type_registry",
)
#: Members the writer computes itself; a header must not carry them.
_COMPUTED: Final = frozenset(
    {"memories", "relations", "conversations_index", "integrity", "signature"}
)
_SAFE_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,150}")
_RECORD: Final = struct.Struct("<II")
#: zlib level for zipped exports: 1 packs PAM JSON to about a fifth (level 6: a sixth) in a
#: third of the time.
ZIP_LEVEL: Final = 1
_PRIVATE_FILE: Final = 0o600
_PRIVATE_DIR: Final = 0o700


class WriterError(VaultError, ValueError):
    """A document cannot be written as asked (duplicate ids, a value that is not JSON, a
    target that exists). The message names the record."""

    http_status = HTTP_UNPROCESSABLE


# ---------------------------------------------------------------------------------------------
# External sort
# ---------------------------------------------------------------------------------------------


class ExternalSorter:
    """Sort (key, payload) records by key with bounded memory.

    Records are kept in memory until their payloads pass `run_bytes` (default: the module's
    RUN_BYTES at the time the sorter is made); then the run is sorted
    and appended to one spill file in `directory`. Iterating merges the runs (stable: records
    with equal keys come out in the order they were added within a run, runs in order).
    Keys are compared as Python strings (code points), as PAM's checksum order requires.
    """

    def __init__(self, directory: Path, *, run_bytes: int | None = None) -> None:
        self._directory = directory
        self._run_bytes = RUN_BYTES if run_bytes is None else run_bytes
        self._records: list[tuple[str, bytes]] = []
        self._size = 0
        self._spill: IO[bytes] | None = None
        self._runs: list[tuple[int, int]] = []  # (offset, records)
        self.count = 0

    def add(self, key: str, payload: bytes) -> None:
        self._records.append((key, payload))
        self._size += len(payload) + len(key) + _RECORD_OVERHEAD
        self.count += 1
        if self._size >= self._run_bytes:
            self._flush()

    def _flush(self) -> None:
        if not self._records:
            return
        if self._spill is None:
            self._spill = tempfile.TemporaryFile(dir=self._directory, prefix=".sort-")  # noqa: SIM115
        self._records.sort(key=_first)
        spill = self._spill
        offset = spill.seek(0, os.SEEK_END)
        pack = _RECORD.pack
        for key, payload in self._records:
            raw = key.encode("utf-8", "surrogatepass")
            spill.write(pack(len(raw), len(payload)))
            spill.write(raw)
            spill.write(payload)
        self._runs.append((offset, len(self._records)))
        self._records = []
        self._size = 0

    def __iter__(self) -> Iterator[tuple[str, bytes]]:
        if self._spill is None:
            self._records.sort(key=_first)
            yield from self._records
            return
        self._flush()
        self._spill.flush()
        streams = [self._read_run(offset, count) for offset, count in self._runs]
        yield from heapq.merge(*streams, key=_first)

    def _read_run(self, offset: int, count: int) -> Iterator[tuple[str, bytes]]:
        assert self._spill is not None
        # Positioned reads (pread): the runs are merged interleaved from one file.
        fd = self._spill.fileno()
        buffer = b""
        start = 0
        position = offset

        def take(size: int) -> bytes:
            nonlocal buffer, start, position
            while len(buffer) - start < size:
                chunk = os.pread(fd, max(1 << 16, size), position)
                if not chunk:
                    raise WriterError("a sort run ended early (the scratch file was damaged)")
                position += len(chunk)
                buffer = buffer[start:] + chunk
                start = 0
            data = buffer[start : start + size]
            start += size
            return data

        unpack = _RECORD.unpack
        size = _RECORD.size
        for _ in range(count):
            key_len, payload_len = unpack(take(size))
            key = take(key_len).decode("utf-8", "surrogatepass")
            yield key, take(payload_len)

    def close(self) -> None:
        self._records = []
        if self._spill is not None:
            self._spill.close()
            self._spill = None


def _first(record: tuple[str, bytes]) -> str:
    return record[0]


# ---------------------------------------------------------------------------------------------
# memory-store.json
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoreSummary:
    """What `MemoryStoreWriter.finish` wrote."""

    checksum: str
    total_memories: int
    relations: int
    conversations: int
    #: conversation ids that memories reference but no index entry describes (PAM §14.1 can
    #: only be checked where both exist; a validator reports these as warnings)
    unindexed_conversations: list[str] = field(default_factory=list)
    signed: bool = False


#: Given the signature payload fields of PAM §18.3 (checksum, export_id, export_date,
#: owner_id), returns the `signature` block to write, or None for none.
Signer = Callable[[Mapping[str, Any]], Mapping[str, Any] | None]


class MemoryStoreWriter:
    """Write one memory-store.json, streaming.

    Use: create with the header members (schema, owner, export_id, …; `memories`,
    `relations`, `conversations_index`, `integrity` and `signature` are the writer's), call
    `add_memory` for every memory in any order, `add_relation` and `add_conversation` for the
    others, then `finish`. `derived_memories` of index entries is recomputed from the memories
    (whatever the entry carried), and the integrity block is computed (PAM §14.1, §15).
    """

    def __init__(
        self,
        path: Path,
        header: Mapping[str, Any],
        *,
        scratch: Path | None = None,
        run_bytes: int | None = None,
    ) -> None:
        bad = sorted(_COMPUTED.intersection(header))
        if bad:
            raise WriterError(f"the writer computes {', '.join(bad)} itself")
        self._path = path
        self._header = dict(header)
        scratch = scratch if scratch is not None else path.parent
        self._memories = ExternalSorter(scratch, run_bytes=run_bytes)
        self._relations = ExternalSorter(scratch, run_bytes=run_bytes)
        self._entries = ExternalSorter(scratch, run_bytes=run_bytes)
        self._derived = ExternalSorter(scratch, run_bytes=run_bytes)
        self._finished = False

    # -- adding -------------------------------------------------------------------------------

    def add_memory(self, memory: Mapping[str, Any]) -> bytes:
        """Add one PAM memory object; returns its RFC 8785 bytes (what the checksum covers)."""
        memory_id = memory.get("id")
        if not isinstance(memory_id, str):
            raise WriterError(f"a memory needs a string id, not {memory_id!r}")
        try:
            canonical = jcs_dumps(memory)
        except ValueError as exc:
            raise WriterError(f"memory {memory_id}: {exc}") from None
        self._memories.add(memory_id, canonical)
        provenance = memory.get("provenance")
        if isinstance(provenance, Mapping):
            ref = provenance.get("conversation_ref")
            if isinstance(ref, str):
                self._derived.add(ref, memory_id.encode("utf-8", "surrogatepass"))
        return canonical

    def add_relation(self, relation: Mapping[str, Any]) -> None:
        self._add(self._relations, "relation", relation)

    def add_conversation(self, entry: Mapping[str, Any]) -> None:
        """Add a conversations_index entry (PAM §14); its `derived_memories` is replaced."""
        entry = {k: v for k, v in entry.items() if k != "derived_memories"}
        self._add(self._entries, "conversations_index entry", entry)

    @staticmethod
    def _add(sorter: ExternalSorter, what: str, value: Mapping[str, Any]) -> None:
        key = value.get("id")
        if not isinstance(key, str):
            raise WriterError(f"a {what} needs a string id, not {key!r}")
        try:
            sorter.add(key, jcs_dumps(value))
        except ValueError as exc:
            raise WriterError(f"{what} {key}: {exc}") from None

    # -- writing ------------------------------------------------------------------------------

    def finish(self, *, sign: Signer | None = None) -> StoreSummary:
        """Write the file. `sign`, when given, is called with the §18.3 payload fields once the
        checksum is known, and the block it returns is written as `signature`."""
        if self._finished:
            raise WriterError("the memory-store was already written")
        self._finished = True
        try:
            with _private_open(self._path) as out:
                return self._write(out, sign)
        finally:
            for sorter in (self._memories, self._relations, self._entries, self._derived):
                sorter.close()

    def _write(self, out: IO[bytes], sign: Signer | None) -> StoreSummary:
        header = self._header
        members: list[str] = [k for k in _HEADER_ORDER if k in header]
        members += [k for k in header if k not in _HEADER_ORDER]
        out.write(b"{")
        for key in members:
            out.write(_member(key, header[key]) + b",\n")
        # memories, in id order, hashed as they go (PAM §15.2)
        out.write(b'"memories":[')
        digest = hashlib.sha256(b"[")
        total = 0
        previous: str | None = None
        for memory_id, canonical in self._memories:
            if memory_id == previous:
                raise WriterError(f"two memories have the id {memory_id!r}")
            previous = memory_id
            if total:
                out.write(b",")
                digest.update(b",")
            out.write(b"\n")
            out.write(canonical)
            digest.update(canonical)
            total += 1
        digest.update(b"]")
        checksum = "sha256:" + digest.hexdigest()
        out.write(b"\n],\n")
        relations = self._write_sorted(out, "relations", self._relations)
        conversations, unindexed = self._write_index(out)
        integrity = {"canonicalization": "RFC8785", "checksum": checksum, "total_memories": total}
        out.write(_member("integrity", integrity))
        signed = False
        if sign is not None:
            block = sign(
                {
                    "checksum": checksum,
                    "export_id": header.get("export_id"),
                    "export_date": header.get("export_date"),
                    "owner_id": (header.get("owner") or {}).get("id"),
                }
            )
            if block is not None:
                out.write(b",\n" + _member("signature", dict(block)))
                signed = True
        out.write(b"}\n")
        return StoreSummary(checksum, total, relations, conversations, unindexed, signed)

    @staticmethod
    def _write_sorted(out: IO[bytes], name: str, sorter: ExternalSorter) -> int:
        out.write(f'"{name}":['.encode())
        count = 0
        previous: str | None = None
        for key, canonical in sorter:
            if key == previous:
                raise WriterError(f"two {name} have the id {key!r}")
            previous = key
            out.write(b",\n" if count else b"\n")
            out.write(canonical)
            count += 1
        out.write(b"\n],\n" if count else b"],\n")
        return count

    def _write_index(self, out: IO[bytes]) -> tuple[int, list[str]]:
        """Merge-join the index entries with the (conversation, memory) pairs, both in
        conversation id order, so each entry gets exactly its memories (PAM §14.1)."""
        out.write(b'"conversations_index":[')
        derived = _grouped(self._derived)
        pending = next(derived, None)
        unindexed: list[str] = []
        count = 0
        previous: str | None = None
        for cid, raw in self._entries:
            if cid == previous:
                raise WriterError(f"two conversations_index entries have the id {cid!r}")
            previous = cid
            while pending is not None and pending[0] < cid:
                unindexed.append(pending[0])
                pending = next(derived, None)
            ids: list[str] = []
            if pending is not None and pending[0] == cid:
                ids = pending[1]
                pending = next(derived, None)
            entry = orjson.loads(raw)
            entry["derived_memories"] = sorted(ids)
            out.write(b",\n" if count else b"\n")
            out.write(jcs_dumps(entry))
            count += 1
        while pending is not None:
            unindexed.append(pending[0])
            pending = next(derived, None)
        out.write(b"\n],\n" if count else b"],\n")
        return count, unindexed


def _grouped(sorter: ExternalSorter) -> Iterator[tuple[str, list[str]]]:
    current: str | None = None
    ids: list[str] = []
    for key, payload in sorter:
        if key != current:
            if current is not None:
                yield current, ids
            current, ids = key, []
        ids.append(payload.decode("utf-8", "surrogatepass"))
    if current is not None:
        yield current, ids


def _member(key: str, value: Any) -> bytes:
    try:
        return orjson.dumps(key) + b":" + jcs_dumps(value)
    except ValueError as exc:
        raise WriterError(f"{key}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# embeddings.json and conversation files
# ---------------------------------------------------------------------------------------------


class EmbeddingsWriter:
    """Write embeddings.json (PAM §12.2) one embedding at a time. The file is created on the
    first embedding; with none, nothing is written (embeddings MAY be omitted, §12.1)."""

    def __init__(self, path: Path, *, schema_version: str = "1.0") -> None:
        self._path = path
        self._schema_version = schema_version
        self._out: IO[bytes] | None = None
        self._memory_ids: set[str] = set()
        self._ids: set[str] = set()
        self.count = 0

    def add(self, embedding: Mapping[str, Any]) -> None:
        memory_id = embedding.get("memory_id")
        emb_id = embedding.get("id")
        if not isinstance(memory_id, str) or not isinstance(emb_id, str):
            raise WriterError("an embedding needs string id and memory_id")
        # §12.1 rule 6: at most one embedding per memory; ids are unique (§12.3).
        if memory_id in self._memory_ids:
            raise WriterError(f"memory {memory_id} already has an embedding in this file")
        if emb_id in self._ids:
            raise WriterError(f"two embeddings have the id {emb_id!r}")
        self._memory_ids.add(memory_id)
        self._ids.add(emb_id)
        vector = embedding.get("vector")
        if isinstance(vector, list) and not all(
            isinstance(v, int | float) and math.isfinite(v) for v in vector
        ):
            raise WriterError(f"embedding {emb_id}: the vector holds a value that is not a number")
        try:
            # Not canonicalized: no checksum covers embeddings, and orjson keeps a whole float
            # a float (1e16 stays 1e16, where RFC 8785 would write an integer).
            data = orjson.dumps(embedding, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError) as exc:
            raise WriterError(f"embedding {emb_id}: {exc}") from None
        if self._out is None:
            self._out = _private_open(self._path)
            self._out.write(
                b'{"schema":"portable-ai-memory-embeddings",'
                + b'"schema_version":'
                + orjson.dumps(self._schema_version)
                + b',\n"embeddings":['
            )
        self._out.write(b",\n" if self.count else b"\n")
        self._out.write(data)
        self.count += 1

    def close(self) -> int:
        """Finish the file; returns how many embeddings it holds (0: no file)."""
        if self._out is not None:
            self._out.write(b"\n]}\n")
            self._out.close()
            self._out = None
        return self.count

    def abort(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


def conversation_filename(conversation_id: str) -> str:
    """`conversations/<id>.json` when the id is a safe file name, else a name derived from
    the SHA-256 of the id (ids come from providers and may hold '/', '..' or anything)."""
    if _SAFE_NAME.fullmatch(conversation_id) and not conversation_id.endswith("."):
        name = conversation_id
    else:
        digest = hashlib.sha256(conversation_id.encode("utf-8", "surrogatepass"))
        name = "conv-" + digest.hexdigest()
    return f"{CONVERSATIONS_DIR}/{name}.json"


def write_document(path: Path, document: Mapping[str, Any]) -> None:
    """Write one small PAM document (a conversation) as RFC 8785 JSON."""
    write_encoded(path, encode_document(document, path.name))


def encode_document(document: Mapping[str, Any], name: str) -> bytes:
    """The bytes `write_document` writes: RFC 8785 JSON and a newline. WriterError names the
    file (`name`) when the document has no RFC 8785 form."""
    try:
        return jcs_dumps(document) + b"\n"
    except ValueError as exc:
        raise WriterError(f"{name}: {exc}") from None


def write_encoded(path: Path, data: bytes) -> None:
    """Write a document already encoded (`encode_document`), owner-only, with one write
    call (a conversion writes tens of thousands of these small files)."""
    path.parent.mkdir(mode=_PRIVATE_DIR, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _PRIVATE_FILE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _private_open(path: Path) -> IO[bytes]:
    """A new file, owner-only (PAM files hold personal information, §21.1)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _PRIVATE_FILE)
    return os.fdopen(fd, "wb", buffering=1 << 20)


# ---------------------------------------------------------------------------------------------
# Staging and publishing
# ---------------------------------------------------------------------------------------------


def output_mode(target: Path) -> str:
    """How an export to `target` is published: "zip" (``.zip``), "file" (``.json``, the
    memory-store alone) or "directory" (anything else). An encrypted export names the file
    it encrypts: ``x.zip.age`` and ``x.age`` are zips, ``x.json.age`` a memory-store."""
    suffixes = [s.lower() for s in target.suffixes]
    if suffixes and suffixes[-1] == ".age":
        return "file" if suffixes[-2:-1] == [".json"] else "zip"
    if suffixes and suffixes[-1] == ".zip":
        return "zip"
    if suffixes and suffixes[-1] == ".json":
        return "file"
    return "directory"


class ExportStage:
    """A hidden scratch directory next to `target`, published as a directory, a zip or a
    single memory-store file.

    ``with ExportStage(target) as stage: … write into stage.root … stage.publish()``.
    `target` ending in ``.zip`` is published as a zip archive, ending in ``.json`` as the lone
    memory-store (companion files are left out), anything else as a directory (see
    `output_mode`; ``.age`` names an encrypted zip or memory-store). Leaving the
    block without `publish` (an error, an interrupt) removes everything; a target that exists
    is refused unless `overwrite`. `transform`, if given to `publish`, turns the finished file
    (zip or memory-store) into the final one — e.g. encryption.
    """

    def __init__(self, target: Path, *, overwrite: bool = False) -> None:
        self.target = Path(target)
        self.overwrite = overwrite
        self.mode = output_mode(self.target)
        parent = self.target.parent
        if not parent.is_dir():
            raise WriterError(f"{parent} is not a directory (the export is written inside it)")
        if not overwrite:
            self._check_free()
        token = uuid.uuid4().hex[:12]
        self.root = parent / f".{self.target.name}.partial-{token}"
        self._scratch = parent / f".{self.target.name}.scratch-{token}"
        self._published = False

    @property
    def companions(self) -> bool:
        """Whether conversation files and embeddings.json are part of the output."""
        return self.mode != "file"

    def _check_free(self) -> None:
        target = self.target
        if target.is_dir():
            if self.mode == "directory" and not any(target.iterdir()):
                return
            raise WriterError(
                f"{target} exists and is not an empty directory; choose another path or allow "
                "overwriting"
            )
        if target.exists():
            raise WriterError(f"{target} exists; choose another path or allow overwriting")

    @property
    def scratch(self) -> Path:
        """Where sort runs go (never part of the output)."""
        return self._scratch

    def __enter__(self) -> ExportStage:
        os.mkdir(self.root, _PRIVATE_DIR)
        os.mkdir(self._scratch, _PRIVATE_DIR)
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self._scratch, ignore_errors=True)
        if not self._published:
            shutil.rmtree(self.root, ignore_errors=True)

    def files(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("*") if p.is_file())

    def publish(
        self,
        transform: Callable[[Path, Path], None] | None = None,
        *,
        guard: Callable[[], contextlib.AbstractContextManager[object]] | None = None,
    ) -> Path:
        """Move the staged export into place (atomically for a zip or a file). `guard` is
        entered around the final rename alone (it may refuse it by raising)."""
        guarded = guard if guard is not None else contextlib.nullcontext
        if self.mode == "directory":
            if transform is not None:
                raise WriterError(
                    "a directory export cannot be transformed (encrypted); write a .zip"
                )
            with guarded():
                self._publish_directory()
        else:
            packed = self.target.parent / f".{self.target.name}.out-{uuid.uuid4().hex[:12]}"
            try:
                if self.mode == "zip":
                    self._zip(packed)
                else:
                    os.replace(self.root / STORE_FILE, packed)
                if transform is not None:
                    final = packed.with_name(packed.name + ".t")
                    try:
                        transform(packed, final)
                    except BaseException:
                        with contextlib.suppress(OSError):
                            final.unlink()
                        raise
                    os.replace(final, packed)
                self._check_target_replaceable()
                with guarded():
                    os.replace(packed, self.target)
            except BaseException:
                with contextlib.suppress(OSError):
                    packed.unlink()
                raise
            shutil.rmtree(self.root, ignore_errors=True)
        self._published = True
        return self.target

    def _check_target_replaceable(self) -> None:
        if self.target.is_dir():
            raise WriterError(f"{self.target} is a directory; a file cannot replace it")
        if not self.overwrite and self.target.exists():
            raise WriterError(f"{self.target} appeared while exporting; it was left untouched")

    def _zip(self, path: Path) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _PRIVATE_FILE)
        with (
            os.fdopen(fd, "wb") as handle,
            zipfile.ZipFile(
                handle, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=ZIP_LEVEL
            ) as archive,
        ):
            for file in self.files():
                name = file.relative_to(self.root).as_posix()
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info._compresslevel = ZIP_LEVEL  # type: ignore[attr-defined]  # 3.11-3.13
                info.external_attr = (0o100000 | _PRIVATE_FILE) << 16
                with file.open("rb") as src, archive.open(info, "w", force_zip64=True) as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)

    def _publish_directory(self) -> None:
        target = self.target
        if target.is_dir() and not any(target.iterdir()):
            target.rmdir()
        if target.exists():
            if not self.overwrite:
                raise WriterError(f"{target} appeared while exporting; it was left untouched")
            if not target.is_dir():
                raise WriterError(f"{target} is a file; an export directory cannot replace it")
            old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:12]}"
            os.replace(target, old)
            try:
                os.replace(self.root, target)
            except BaseException:
                os.replace(old, target)
                raise
            shutil.rmtree(old, ignore_errors=True)
            return
        os.replace(self.root, target)


def iter_chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Lists of up to `size` items."""
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
