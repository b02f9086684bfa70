"""Move memories in and out of a vault as AIMEM bundles (draft-vu-aimem-bundle-00).

    result = export_bundle(vault, Path("brain.aimem.json"))              # §2, scope FULL
    result = export_bundle(vault, Path("brain.ndjson"), form="ndjson")   # §3.1 stream form
    result = import_bundle(vault, Path("brain.aimem.json"))              # one transaction

The record mapping is `memvault.formats.mapping`; reading, validating, writing and signatures
are `memvault.formats.aimem`; dedup, lifecycle and the audit chain are `memvault.vault`. This
module applies the bundle rules that need the vault: §2.9 idempotency on the chunk URN, the
§5.3 signature check and its audit record, the §2.7 embedding-model rule, and the export
scopes. docs/aimem-mapping.md records every decision.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal

import orjson

from memvault.audit import PendingEntry
from memvault.bulk import gc_paused
from memvault.canonical import jcs_dumps
from memvault.erasure_fence import ErasureFence, redone_after_erasure
from memvault.errors import AccessDenied, ConvertError, ExportError, ImportRefused, InvalidInput
from memvault.exchange._shared import (
    Importer,
    embedding_json,
    instant,
    record_time,
    stored_embedding,
    utc_moment,
)
from memvault.exchange.aimem_rows import ChunkRows, PackedGraph
from memvault.export_chunks import chunk_refs
from memvault.findings import SIGNATURE_WARNING, counted, errors_text, unverified_warning
from memvault.formats.aimem.checksum import ARRAYS
from memvault.formats.aimem.container import LocatedBundle, locate_bundle
from memvault.formats.aimem.errors import STATUS_CONFLICT, BundleError, Problem
from memvault.formats.aimem.reader import BundleReader, open_bundle
from memvault.formats.aimem.validate import BundleRules
from memvault.formats.aimem.writer import BundleWriter, form_for_path
from memvault.formats.mapping import (
    FORMAT,
    META_KEY,
    VERSION,
    X_PAM,
    BundleAssembler,
    GraphParts,
    MappingError,
    aimem_block,
    bundle_to_pam,
    chunk_fields,
    chunk_id_for,
    chunk_to_memory,
    graph_parts,
    memory_id_of,
    pam_to_bundle,
)
from memvault.model import MEMORY_STATUSES, MISSING, Access, Memory, parse_timestamp
from memvault.recall.exchange_vectors import kept_warning
from memvault.sources import AgePassphrase
from memvault.store.base import (
    CachedChunk,
    ExportRecord,
    MemoryQuery,
    NewMemoryRow,
    StoredMemory,
)
from memvault.store.codec import memory_from_json, memory_to_json
from memvault.unit_of_work import MergePolicy, UnitOfWork
from memvault.vault import Vault, format_timestamp

__all__ = [
    "SCOPES",
    "AimemExportResult",
    "AimemImportResult",
    "BundleRefused",
    "ConvertError",
    "ConvertResult",
    "convert_file",
    "export_bundle",
    "export_envelope",
    "import_bundle",
    "producer_namespace",
    "record_export_made",
]

SCOPES: Final = ("FULL", "DNA_ONLY", "SINCE")
#: Chunks mapped, looked up and written per round trip to the store (bounded memory). 1,000
#: rather than 2,000 kept the peak of a 50,000-chunk import ~9 MiB lower for no more CPU (500:
#: 4 MiB less again, but the per-batch queries cost ~10 % more). Both ways batch alike: the
#: full-text index's segments follow the batches, and the two ways write the same bytes.
_BATCH: Final = 1000
#: Vault-wide exchange settings (`Vault.exchange_meta`): the producer namespace, the embedding
#: models taken in. What is kept per memory (the digest of the chunk it came from, the chunks
#: merged into it) is in the store's own tables, deleted with the memory.
PRODUCER_META: Final = "aimem.producer"
MODELS_META: Final = "aimem.embedding_models"
#: A newer chunk (§2.9 rule 3) updates the memory; a retracted or archived one stays so.
_RULE_3: Final = MergePolicy("aimem", newer_only=False, final_always_kept=True, list_changed=False)
_CHUNK_ONLY: Final = frozenset({"id", "embedding", "x-pam"})
#: Whether imports take `_Importer._fast_batch` (off only to compare the two paths in tests).
_FAST_PATH = True
#: Whether imports of plain bundles take `_Importer._one_pass` (off only to compare).
_ONE_PASS = True


def producer_namespace(vault: Vault) -> str:
    """The vault's AIMEM Producer Namespace (§2.3): the one set in the vault's meta table
    (``aimem.producer``), else ``memvault-`` and 12 hex digits of SHA-256 of the owner id —
    stable for the vault, distinct between vaults, and no personal data in it."""
    stored = vault.exchange_meta(PRODUCER_META)
    if stored:
        return stored
    digest = hashlib.sha256(vault.owner.id.encode("utf-8")).hexdigest()[:12]
    return f"memvault-{digest}"


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class AimemImportResult:
    source: str
    form: str = "json"
    producer: str | None = None
    checksum: str | None = None
    #: §5.3: verified, unsigned, invalid, unverifiable or skipped
    signature: str = "unsigned"
    created: int = 0
    #: chunks whose content matched an active memory, which was reinforced (PAM §6)
    reinforced: int = 0
    #: chunks with a newer created_at than the vault's copy, applied (§2.9 rule 3)
    updated: int = 0
    #: chunks the vault already had, identical (§2.9 rule 1)
    unchanged: int = 0
    #: chunks older than the vault's copy, or whose copy is retracted/archived
    kept: int = 0
    relations: int = 0
    embeddings: int = 0
    embeddings_dropped: int = 0
    #: chunks refused (§2.9 rule 2, §2.2 content_hash): the rest of the bundle was imported
    rejected: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(
            self.created or self.reinforced or self.updated or self.relations or self.embeddings
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "format": "aimem",
            "form": self.form,
            "producer": self.producer,
            "checksum": self.checksum,
            "signature": self.signature,
            "created": self.created,
            "reinforced": self.reinforced,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "kept": self.kept,
            "relations": self.relations,
            "embeddings": self.embeddings,
            "embeddings_dropped": self.embeddings_dropped,
            "rejected": [p.to_json() for p in self.rejected],
            "warnings": self.warnings,
        }


class BundleRefused(ImportRefused):
    """A bundle refused as a whole (nothing imported); `problems` say why, `status` is the
    HTTP status of the AIMEM profile (409 checksum, 422 malformed)."""

    def __init__(self, message: str, problems: Sequence[Problem], status: int) -> None:
        super().__init__(
            f"{message}: " + "; ".join(str(p) for p in problems[:5]),
            [p.to_finding() for p in problems],
            headline=message,
        )
        self.problems = list(problems)
        self.status = status
        self.http_status = status


def import_bundle(
    vault: Vault,
    source: str | Path | LocatedBundle,
    *,
    verify_signature: bool = True,
    allow_unverified: bool = False,
    public_key: Any = None,
    embedding_models: Collection[str] | None = None,
    strict: bool = False,
    refuse_bad_chunks: bool = False,
    age_passphrase: AgePassphrase = None,
    age_identities: Sequence[str] = (),
    now: datetime | None = None,
) -> AimemImportResult:
    """Import an AIMEM bundle (``.aimem.json`` or NDJSON; age-encrypted, decrypted in memory
    with `age_passphrase` or `age_identities`; or the one bundle of a zip) in ONE transaction.

    The checksum is verified before anything else (§2.8, `BundleRefused` status 409); a
    malformed bundle is refused whole (422). A chunk that conflicts with the vault (§2.9 rule
    2: same URN and created_at, other content or fields) or whose content_hash is wrong
    (§2.2) is rejected — listed in `rejected` — and the rest is imported; with `strict` any
    rejection refuses the whole bundle. With `refuse_bad_chunks` a chunk that breaks a §2
    rule (content_hash included) refuses the whole bundle (422) as every other malformed
    record does, and `rejected` holds only §2.9 conflicts with the vault (the HTTP profile,
    docs/server.md). Rules: docs/aimem-mapping.md, "Import into the vault".
    As an agent's session (`vault.acting_as`), a chunk that would change a memory the agent
    may not write refuses the whole bundle (AccessDenied, nothing applied; docs/access.md).
    """
    actor = vault.actor
    moment = utc_moment(now)
    if isinstance(source, LocatedBundle):
        found: LocatedBundle | None = source
    else:
        try:
            found = locate_bundle(
                source,
                age_passphrase=age_passphrase,
                age_identities=list(age_identities),
                decrypt=True,  # the caller says it is a bundle, whatever its name
            )
        except BundleError as exc:
            raise BundleRefused(f"{source} was not imported", exc.problems, exc.status) from None
    path = found.path if found is not None else Path(source)  # type: ignore[arg-type]
    shown = found.display if found is not None else str(path)
    result = AimemImportResult(shown)
    try:
        # Not found as a bundle: open it anyway, for the error that says why it is not one.
        reader = open_bundle(
            found.source() if found is not None else path,
            name=found.display if found is not None and found.stream is not None else None,
        )
    except BundleError as exc:
        raise BundleRefused(f"{shown} was not imported", exc.problems, exc.status) from None
    # Tens of thousands of short-lived objects per import, none in a cycle: the collector is
    # paused where the front end allows it (the CLI), never in a server (memvault.bulk).
    with reader, gc_paused():
        result.form = reader.form
        result.checksum = reader.checksum
        producer = reader.envelope.get("producer")
        result.producer = producer if isinstance(producer, str) else None
        signature_entry = _check_signature(
            found, verify_signature, allow_unverified, public_key, result, actor
        )
        importer = _Importer(vault, reader, result, actor, moment, embedding_models)
        importer.refuse_bad_chunks = refuse_bad_chunks
        try:
            importer.run(signature_entry, strict)
        except BundleError as exc:
            raise BundleRefused(f"{shown} was not imported", exc.problems, exc.status) from None
        except AccessDenied as exc:
            # One transaction: the first memory the agent may not change refuses it all.
            raise AccessDenied(f"{shown} was not imported, nothing was applied: {exc}") from None
    return result


def _check_signature(
    found: LocatedBundle | None,
    verify: bool,
    allow_unverified: bool,
    public_key: Any,
    result: AimemImportResult,
    actor: str,
) -> PendingEntry | None:
    """§5.3: verify ``<bundle>.sig`` when present. One that does not verify (or cannot: no
    key to check it against) refuses the bundle, as for PAM (§18.5), unless
    `allow_unverified`: then it is a loud warning. A verification skipped by choice
    (`verify` False), or accepted unverified, is an audit entry (§5.3: the decision is
    logged)."""
    signed = found is not None and found.signed
    if not verify:
        result.signature = "skipped"
        present = "a signature file is present" if signed else "the bundle is unsigned"
        return PendingEntry(
            "signature",
            actor,
            details={
                "format": "aimem",
                "status": "skipped",
                "reason": f"verification skipped at the user's request ({present})",
                "checksum": result.checksum,
            },
        )
    if found is None or not signed:
        result.signature = "unsigned"
        return None
    check = found.verify_signature(public_key)
    result.signature = check.status
    if check.ok:
        return None
    label = found.signature_label
    if not allow_unverified:
        raise BundleRefused(
            f"{found.display} was not imported: its signature {label} does not verify (AIMEM "
            "§5.3; pass --allow-unverified to import it anyway)",
            [
                Problem(
                    "signature-" + check.status,
                    check.message,
                    "",
                    "§5.3",
                    file=check.signature_file or label,
                )
            ],
            422,
        )
    result.warnings.append(f"{SIGNATURE_WARNING}: {label}: {check.message} (AIMEM §5.3)")
    return PendingEntry(
        "signature",
        actor,
        details={
            "format": "aimem",
            "status": check.status,
            "reason": "imported unverified at the user's request: " + check.message,
            "checksum": result.checksum,
        },
    )


class _Importer(Importer):
    def __init__(
        self,
        vault: Vault,
        reader: BundleReader,
        result: AimemImportResult,
        actor: str,
        moment: datetime,
        embedding_models: Collection[str] | None,
    ) -> None:
        super().__init__(vault, actor, moment)
        self.reader = reader
        self.result = result
        env = reader.envelope
        self.producer = str(env.get("producer"))
        model = env.get("embedding_model")
        self.model = model if isinstance(model, str) else None
        self.keep_embeddings = self._model_supported(embedding_models)
        #: chunk index -> problem, for chunks refused before mapping (§2.2)
        self.refused: dict[int, Problem] = {}
        self.refuse_bad_chunks = False
        self.parts = GraphParts()
        #: plain batches go the way without `Memory` objects (`_fast_batch`)
        self.fast = _FAST_PATH

    def _model_supported(self, explicit: Collection[str] | None) -> bool:
        """§2.7: the vault keeps vectors of the models it was told to (`explicit`), else of
        the models it already took in; a vault that took in none adopts the bundle's."""
        if self.model is None or not self.reader.has_embeddings:
            return True
        if explicit is not None:
            supported = self.model in explicit
        else:
            text = self.vault.exchange_meta(MODELS_META)
            known = orjson.loads(text) if text else []
            supported = not known or self.model in known
        if not supported:
            self.result.warnings.append(
                f"embedding-model-unsupported: embedding_model {self.model!r} is not one this "
                "vault uses; the chunks' embeddings were dropped and nothing was re-embedded "
                "(AIMEM §2.7)"
            )
        return supported

    # -- the two passes ---------------------------------------------------------------------

    def run(self, signature_entry: PendingEntry | None, strict: bool) -> None:
        problems = [p for p in self.reader.envelope_problems() if p.severity == "error"]
        if problems:
            raise BundleError(problems)
        if self._one_pass(signature_entry):
            return
        self._first_pass()
        if strict and self.refused:
            raise BundleError(list(self.refused.values()))
        # Bulk: a bundle's rows are written once and not read back (a smaller page cache).
        with self.vault.unit_of_work(now=self.moment, bulk=True) as work:
            self._second_pass(work)
            self._import_relations(work)
            if (note := kept_warning(work.vectors_kept)) is not None:
                self.result.warnings.append(note)
            if strict and self.result.rejected:
                raise BundleError(self.result.rejected)
            if signature_entry is not None:
                work.note(signature_entry)
            work.flush()
            if self.result.changed:
                self._record()

    def _one_pass(self, signature_entry: PendingEntry | None) -> bool:
        """Import a bundle of plain chunks reading each chunk once (`exchange.aimem_rows`):
        its graph packed first, then each chunk checked and made into its row as it comes,
        written in batches inside the one transaction. False, with nothing written (the
        transaction rolled back), at the first record that is not plain: the two passes
        then import the bundle and name every problem as they always did."""
        reader = self.reader
        count = reader.counts.get("chunks", 0)
        if not (
            self.fast
            and _ONE_PASS
            and reader.form == "json"
            and count
            # every chunk has its own string id (the §2.3 duplicate check, told at once)
            and len(reader.chunk_ids) == count
            and not reader.has_embeddings
        ):
            return False
        head = reader.iter_array("chunks")
        first = next(head, None)
        getattr(head, "close", lambda: None)()  # the rest is read by `_stream`
        if type(first) is not dict or type(first.get("id")) is not str:
            return False
        rules = BundleRules(reader.envelope, file=reader.file)
        graph = PackedGraph.build(
            rules,
            reader.iter_array("edges"),
            reader.iter_array("entities"),
            reader.iter_array("chunk_entities"),
            reader.chunk_ids,
            reader.entity_ids,
            first["id"],
        )
        if graph is None:
            return False
        rows = ChunkRows(rules.producer, self.producer, graph)
        reader.release_chunk_ids()  # the graph was their last reader here
        try:
            with self.vault.unit_of_work(now=self.moment, bulk=True) as work:
                if work.restricted:
                    raise _NotPlain  # an agent's writes are checked memory by memory
                self._stream(work, rows)
                self._import_relations(work)
                if signature_entry is not None:
                    work.note(signature_entry)
                work.flush()
                if self.result.changed:
                    self._record()
        except _NotPlain:
            self.result.created = 0
            reader.restore_chunk_ids()  # the two passes check references against them
            return False
        return True

    def _stream(self, work: UnitOfWork, made: ChunkRows) -> None:
        rows: list[NewMemoryRow] = []
        digests: dict[str, str] = {}
        for chunk in self.reader.iter_array("chunks"):
            out = made.row(chunk)
            if out is None:
                raise _NotPlain
            rows.append(out[0])
            digests[out[0].id] = out[1]
            if len(rows) >= _BATCH:
                self._add_rows(work, rows, digests)
                rows, digests = [], {}
        if rows:
            self._add_rows(work, rows, digests)

    def _add_rows(
        self, work: UnitOfWork, rows: list[NewMemoryRow], digests: dict[str, str]
    ) -> None:
        if work.aliases(digests):
            raise _NotPlain  # §2.9: chunks merged into another memory when first imported
        added = work.add_memory_rows(rows)
        if added is None:
            raise _NotPlain  # one the vault has, by id or active content (PAM §6)
        self.result.created += len(added.created)
        work.put_chunk_digests(digests)

    def _first_pass(self) -> None:
        """Check every record (§2) and gather the graph: edges, entities, links and the chunk
        → memory ids. Chunks are not kept (bounded memory: the records are small)."""
        edges: list[dict[str, Any]] = []
        entities: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        ids: dict[str, str] = {}
        first: str | None = None
        fatal: list[Problem] = []
        for record in self.reader.records():
            errors = [p for p in record.problems if p.severity == "error"]
            if record.kind == "chunk":
                chunk = record.value
                if errors:
                    if not self.refuse_bad_chunks and all(
                        p.code == "content-hash-mismatch" for p in errors
                    ):
                        self.refused[record.index] = errors[0]
                    else:
                        fatal.extend(errors)
                    continue
                memory_id = memory_id_of(chunk)
                if memory_id != chunk["id"]:
                    ids[chunk["id"]] = memory_id
                if first is None:
                    first = memory_id
                continue
            if errors:
                fatal.extend(errors)
                continue
            target = {"edge": edges, "entity": entities, "chunk_entity": links}[record.kind]
            target.append(record.value)
        if fatal:
            raise BundleError(fatal)
        if first is None and entities:
            # §4 Level 2 ingests every valid bundle; entities live in a memory's metadata, and
            # a bundle without chunks has none to hold them: dropped, and said so.
            self.result.warnings.append(
                f"entities-without-chunks: {len(entities)} entities were not imported: the "
                "bundle has no chunks, and the vault keeps entities with the memories they "
                "belong to (AIMEM §2.5)"
            )
            entities = []
        self.ids = ids
        try:
            self.parts = graph_parts(edges, entities, links, _Identity(ids), first)
        except MappingError as exc:
            raise BundleError([Problem("unmappable", str(exc), exc.path, "§2.5")]) from None

    def _chunks(self) -> Iterator[tuple[int, dict[str, Any]]]:
        yield from enumerate(self.reader.iter_array("chunks"))

    def _second_pass(self, work: UnitOfWork) -> None:
        batch: list[tuple[int, dict[str, Any]]] = []
        for item in self._chunks():
            batch.append(item)
            if len(batch) >= _BATCH:
                self._batch(work, batch)
                batch = []
        if batch:
            self._batch(work, batch)

    def _map(self, index: int, chunk: Mapping[str, Any]) -> tuple[Memory, dict[str, Any] | None]:
        memory_id = memory_id_of(chunk)
        try:
            memory_json, embedding = chunk_to_memory(
                chunk,
                producer=self.producer,
                embedding_model=self.model,
                graph=self.parts.for_memory(memory_id),
                path=f"/chunks/{index}",
            )
            return memory_from_json(memory_json), embedding
        except (MappingError, ValueError, TypeError) as exc:
            path = exc.path if isinstance(exc, MappingError) else f"/chunks/{index}"
            raise BundleError(
                [Problem("unmappable", str(exc), path, "§2.2", record=str(chunk.get("id")))]
            ) from None

    def _fast_batch(self, work: UnitOfWork, batch: list[tuple[int, dict[str, Any]]]) -> bool:
        """A batch of plain new chunks — no ``x-pam``, no embedding, none refused, none the
        vault knows by id or alias — mapped to PAM JSON and written without `Memory` objects
        (`UnitOfWork.add_memory_documents`). False, with nothing written, for any other
        batch: `_batch` then maps and imports it as always, naming every error as before."""
        for position, chunk in batch:
            if position in self.refused or X_PAM in chunk or "embedding" in chunk:
                return False
        # Without x-pam a chunk's memory id is its own id (`memory_id_of`).
        ids = [str(chunk["id"]) for _, chunk in batch]
        if work.existing_ids(ids) or work.aliases(ids):
            return False  # §2.9: chunks the vault has, or merged away
        memories: list[dict[str, Any]] = []
        for position, chunk in batch:
            try:
                memory, _ = chunk_to_memory(
                    chunk,
                    producer=self.producer,
                    embedding_model=self.model,
                    graph=self.parts.for_memory(memory_id_of(chunk)),
                    path=f"/chunks/{position}",
                )
            except (ValueError, TypeError):  # MappingError too: `_map` names it
                return False
            memories.append(memory)
        # Without x-pam, each content hash is the one `chunk_to_memory` computed from the
        # content (PAM §6): not computed a second time.
        added = work.add_memory_documents(memories, hashed=True)
        if added is None:
            return False
        self.result.created += len(added.created)
        work.put_chunk_digests(
            {m["id"]: _fields_digest(c) for m, (_, c) in zip(memories, batch, strict=True)}
        )
        return True

    def _batch(self, work: UnitOfWork, batch: list[tuple[int, dict[str, Any]]]) -> None:
        if self.fast and self._fast_batch(work, batch):
            return
        result = self.result
        mapped: list[tuple[int, Mapping[str, Any], Memory, dict[str, Any] | None]] = []
        for position, raw in batch:
            if position in self.refused:
                result.rejected.append(self.refused[position])
                continue
            mapped_memory, mapped_embedding = self._map(position, raw)
            mapped.append((position, raw, mapped_memory, mapped_embedding))
        ids = [m.id for _, _, m, _ in mapped]
        stored = work.stored_memories(sorted(work.existing_ids(ids)))
        # Chunks merged into another memory when first imported (§2.9: nothing to do).
        aliases = work.aliases(i for i in ids if i not in stored)
        new: list[Memory] = []
        new_embeddings: dict[str, dict[str, Any]] = {}
        digests: dict[str, str] = {}
        for index, chunk, memory, embedding in mapped:
            if memory.id in stored:
                self._existing(work, index, chunk, memory, embedding, stored[memory.id])
                continue
            alias = aliases.get(memory.id)
            if alias is not None:
                self.remap[memory.id] = alias
                result.unchanged += 1
                continue
            if embedding is not None and not self.keep_embeddings:
                # §2.7: dropped (never re-embedded), so the memory names no embedding.
                memory = memory.evolve(embedding_ref=MISSING)
                result.embeddings_dropped += 1
                embedding = None
            new.append(memory)
            digests[memory.id] = _fields_digest(chunk)
            if embedding is not None:
                new_embeddings[memory.id] = embedding
        if new:
            try:
                added = work.add_memories(new)
            except InvalidInput as exc:
                raise BundleError([Problem("not-storable", str(exc), "/chunks", "§2.2")]) from None
            result.created += len(added.created)
            result.reinforced += len(added.reinforced)
            result.unchanged += len(added.skipped)
            merged = {incoming: added.id_map[incoming] for incoming in added.reinforced}
            self.remap.update(merged)
            work.put_aliases(merged)
            work.put_chunk_digests({i: digests[i] for i in added.created})
            for memory_id in added.created:
                if memory_id in new_embeddings:
                    self._embedding(work, memory_id, new_embeddings[memory_id], None)

    def _existing(
        self,
        work: UnitOfWork,
        index: int,
        chunk: Mapping[str, Any],
        incoming: Memory,
        embedding: dict[str, Any] | None,
        stored: StoredMemory,
    ) -> None:
        """§2.9 for a chunk whose URN (memory id) the vault has."""
        current = stored.memory
        mine = chunk_fields(memory_to_json(current))
        theirs = {k: v for k, v in chunk.items() if k not in _CHUNK_ONLY}
        mine.pop("embedding", None)
        theirs.pop("embedding", None)
        when_mine = instant(mine["created_at"])
        when_theirs = instant(theirs.get("created_at"))
        digest = _fields_digest(theirs)
        if when_mine is not None and when_mine == when_theirs:
            # Compared with the chunk as first imported (the vault's copy may have moved on:
            # reinforced, tagged, pinned) and with the memory as it is now.
            recorded = work.chunk_digests([current.id]).get(current.id)
            if recorded == digest or jcs_dumps(mine) == jcs_dumps(theirs):
                self.result.unchanged += 1  # rule 1: a no-op
                if embedding is not None:
                    self._embedding(work, current.id, embedding, current)
                return
            differs = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            what = (
                "different content (content_hash)"
                if "content" in differs
                else "different " + ", ".join(differs)
            )
            self._reject(
                index,
                chunk,
                "chunk-conflict",
                f"chunk {chunk['id']} has the created_at of the vault's copy but {what}; a "
                "chunk is never changed in place under the same created_at (AIMEM §2.9 rule 2, "
                "§5.4)",
            )
            return
        if when_theirs is None or when_mine is None or when_theirs < when_mine:
            self.result.kept += 1  # the vault's copy is newer
            return
        # Rule 3 (a newer created_at): memvault updates, keeping local privacy and final states.
        merged = work.merge_memory(
            stored, incoming.evolve(id=current.id), _RULE_3, {"chunk": chunk["id"]}
        )
        if merged.outcome == "final":
            self.result.kept += 1
            self.result.warnings.append(
                f"memory {current.id} is {current.effective_status} in the vault (PAM §7.1); the "
                f"newer chunk {chunk['id']} was not applied"
            )
            return
        if merged.outcome == "duplicate":
            self._reject(
                index,
                chunk,
                "chunk-conflict-duplicate",
                f"chunk {chunk['id']} would give memory {current.id} the content of "
                f"active memory {merged.twin} (PAM §6: one active memory per fact)",
            )
            return
        work.put_chunk_digests({current.id: digest})
        self.result.updated += merged.outcome == "updated"
        if embedding is not None:
            self._embedding(work, current.id, embedding, merged.memory)

    def _reject(self, index: int, chunk: Mapping[str, Any], code: str, message: str) -> None:
        self.result.rejected.append(
            Problem(
                code,
                message,
                f"/chunks/{index}",
                "§2.9",
                STATUS_CONFLICT,
                file=self.reader.file,
                record=str(chunk.get("id")),
            )
        )

    def _embedding(
        self, work: UnitOfWork, memory_id: str, emb: Mapping[str, Any], memory: Memory | None
    ) -> None:
        """Store a chunk's vector (§2.7) unless its model is unsupported (then dropped)."""
        if not self.keep_embeddings:
            self.result.embeddings_dropped += 1
            return
        stored = stored_embedding(emb, memory_id)
        content_hash = None if memory is None else memory.content_hash
        if not work.put_embedding(stored, via="aimem", content_hash=content_hash):
            return
        self.result.embeddings += 1
        if self.vault.exchange_meta(MODELS_META) is None:
            work.set_exchange_meta(MODELS_META, orjson.dumps([stored.model]).decode())

    def _import_relations(self, work: UnitOfWork) -> None:
        """The bundle's ``x-pam`` edges: PAM relations (§13) between memories the vault has."""
        put = self.import_relations(work, self.parts.relations, "aimem")
        self.result.relations += put.added
        if put.skipped:
            self.result.warnings.append(
                f"{put.skipped} PAM relations (x-pam edges) were not imported: an end is not in "
                "the vault or both ends are now one memory"
            )

    def _record(self) -> None:
        env = self.reader.envelope
        checksum = self.reader.checksum or ""
        scope = env.get("scope")
        since = env.get("since")
        self.vault.record_export(
            ExportRecord(
                export_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"aimem-checksum:{checksum}")),
                direction="imported",
                export_type="incremental" if scope == "SINCE" else "full",
                at=record_time(env.get("exported_at"), self.at),
                format="aimem",
                since=since if isinstance(since, str) else None,
                checksum=checksum or None,
                memory_count=self.reader.counts.get("chunks", 0),
                path=self.result.source,
            ),
            now=self.moment,
        )


class _NotPlain(Exception):
    """A record `_Importer._one_pass` does not take: roll back, read the bundle in two passes."""


class _Identity(dict[str, str]):
    """chunk id → memory id where they differ; every other chunk id maps to itself."""

    def __missing__(self, key: str) -> str:
        return key

    def get(self, key: str, default: Any = None) -> Any:
        return dict.get(self, key, key)


def _fields_digest(chunk: Mapping[str, Any]) -> str:
    """SHA-256 of a chunk's own AIMEM fields (RFC 8785), without id, embedding and x-pam."""
    fields = {k: v for k, v in chunk.items() if k not in _CHUNK_ONLY}
    return hashlib.sha256(jcs_dumps(fields)).hexdigest()


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AimemExportResult:
    path: Path
    form: str
    producer: str
    scope: str
    since: str | None
    exported_at: str
    checksum: str
    chunks: int
    edges: int
    entities: int
    chunk_entities: int
    embeddings: int
    #: memories left out because they are marked exportable: false (PAM §21.1)
    withheld: int
    bytes_written: int
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "format": "aimem",
            "form": self.form,
            "producer": self.producer,
            "scope": self.scope,
            "since": self.since,
            "exported_at": self.exported_at,
            "checksum": self.checksum,
            "chunks": self.chunks,
            "edges": self.edges,
            "entities": self.entities,
            "chunk_entities": self.chunk_entities,
            "embeddings": self.embeddings,
            "withheld": self.withheld,
            "bytes": self.bytes_written,
            "warnings": self.warnings,
        }


def _in_scope(memory: Memory, scope: str) -> bool:
    return scope != "DNA_ONLY" or memory.is_dna


@redone_after_erasure
def export_bundle(
    vault: Vault,
    target: str | Path,
    *,
    scope: Literal["FULL", "DNA_ONLY", "SINCE"] | str = "FULL",
    since: str | datetime | None = None,
    form: Literal["json", "ndjson"] | None = None,
    producer: str | None = None,
    embeddings: bool = False,
    overwrite: bool = False,
    now: datetime | None = None,
) -> AimemExportResult:
    """Export the vault as an AIMEM bundle: ``.aimem.json`` or NDJSON (§3.1, `form`, by
    default from the file name).

    `scope` FULL (every memory, any status), DNA_ONLY (§5.1 DNA-class and pinned memories)
    or SINCE (created or updated at or after `since`). Memories marked `exportable: false`
    are never written (PAM §21.1), nor edges, links or relations touching them. Embeddings
    are left out unless `embeddings` (§5.5: they leak content). The bundle is written under a
    temporary name and renamed; the export is recorded in the vault's export registry. An
    erasure that commits while it reads makes it start again: it never publishes erased
    data (AIMEM §5.2, `memvault.erasure_fence`). Raises ExportError (nothing is left at the
    target).
    """
    plan = plan_export(
        vault, scope=scope, since=since, producer=producer, embeddings=embeddings, now=now
    )
    path = Path(target)
    try:
        with BundleWriter(
            path,
            plan.envelope,
            form=form or form_for_path(path),
            overwrite=overwrite,
            guard=plan.fence.publishing if plan.fence is not None else None,
        ) as writer:
            fill_bundle(writer, plan)
            summary = writer.finish()
    except FileExistsError:
        raise ExportError(f"{path} exists; use --overwrite to replace it") from None
    except BundleError as exc:
        raise ExportError(f"could not export to {path}: {exc}") from None
    except (MappingError, OSError) as exc:
        raise ExportError(f"could not export to {path}: {exc}") from None
    record_bundle_export(vault, plan, summary.checksum, str(path))
    return AimemExportResult(
        path=path,
        form=summary.form,
        producer=plan.producer,
        scope=plan.scope,
        since=plan.since,
        exported_at=plan.exported_at,
        checksum=summary.checksum,
        chunks=plan.chunks,
        edges=len(plan.assembler.edges),
        entities=len(plan.assembler.entities),
        chunk_entities=len(plan.assembler.links),
        embeddings=plan.embedded,
        withheld=plan.withheld,
        bytes_written=summary.bytes_written,
        warnings=[str(p) for p in summary.warnings],
    )


@dataclass(slots=True)
class ExportPlan:
    """What an export writes, decided before any record is (`plan_export`): the envelope
    (without checksum), the memories in order, the graph; `fill_bundle` counts into it."""

    vault: Vault
    scope: str
    since: str | None
    producer: str
    exported_at: str
    moment: datetime
    envelope: dict[str, Any]
    ids: list[str]
    assembler: BundleAssembler
    embeddings: bool
    withheld: int = 0
    chunks: int = 0
    embedded: int = 0
    #: the chunks the vault kept from an earlier export, by memory id (`Store` export cache)
    cached: dict[str, CachedChunk] = field(default_factory=dict)
    #: the cache generation read before the memories were: None, no cache for this export
    generation: int | None = None
    #: taken before the first read: the output is published only if no erasure committed
    #: since (AIMEM §5.2, `memvault.erasure_fence`)
    fence: ErasureFence | None = None


def export_envelope(
    vault: Vault,
    *,
    scope: str = "FULL",
    since: str | datetime | None = None,
    producer: str | None = None,
    now: datetime | None = None,
) -> tuple[dict[str, Any], datetime]:
    """An export's envelope without checksum and embedding model (§2.1), and its moment.
    Raises ExportError for a bad scope or `since`."""
    if scope not in SCOPES:
        raise ExportError(f"scope {scope!r} is not one of {', '.join(SCOPES)} (AIMEM §2.1)")
    since_text: str | None = None
    if scope == "SINCE":
        if since is None:
            raise ExportError("scope SINCE needs --since (an ISO 8601 time, AIMEM §2.1)")
        moment_since = since if isinstance(since, datetime) else instant(since)
        if moment_since is None:
            raise ExportError(f"--since {since!r} is not an ISO 8601 date-time")
        since_text = format_timestamp(moment_since)
    elif since is not None:
        raise ExportError("--since goes with --scope SINCE")
    namespace = producer or producer_namespace(vault)
    moment = utc_moment(now)
    did = vault.owner.did
    envelope: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "producer": namespace,
        "tenant_id": did if isinstance(did, str) and did else vault.owner.id,
        "exported_at": format_timestamp(moment),
        "scope": scope,
    }
    if since_text is not None:
        envelope["since"] = since_text
    return envelope, moment


def plan_export(
    vault: Vault,
    *,
    scope: str = "FULL",
    since: str | datetime | None = None,
    producer: str | None = None,
    embeddings: bool = False,
    now: datetime | None = None,
) -> ExportPlan:
    """Pass 1 of an export: which memories go in (ids, in order), the graph they carry, the
    envelope and the embedding model. Raises ExportError for a bad scope or `since`."""
    envelope, moment = export_envelope(vault, scope=scope, since=since, producer=producer, now=now)
    namespace = envelope["producer"]
    exported_at = envelope["exported_at"]
    since_text = envelope.get("since")
    view = vault.export_view()
    fence = view.erasure_fence()  # before the first read (AIMEM §5.2)
    query = MemoryQuery(
        statuses=MEMORY_STATUSES,
        limit=None,
        order="created",
        updated_since=parse_timestamp(since_text) if since_text else None,
    )
    ids: list[str] = []
    withheld = 0
    models: dict[tuple[str, int], int] = {}
    assembler = BundleAssembler(namespace, envelope=envelope)
    cache = None if embeddings else view.cached_chunks(query, namespace)
    cached: dict[str, CachedChunk] = {}
    memories: Iterator[Memory]
    if cache is None:
        memories = vault.iter_memories(query)
    else:
        # The vault keeps each memory's chunk bytes: a kept chunk says all pass 1 needs.
        rows = cache[1]

        def misses() -> Iterator[Memory]:
            for window in _windows(rows):
                loaded = {m.id: m for m in view.memories([i for i, c in window if c is None])}
                for memory_id, chunk in window:
                    if chunk is None:
                        if memory_id in loaded:
                            yield loaded[memory_id]
                        continue
                    if scope == "DNA_ONLY" and not chunk.dna:
                        continue
                    if not chunk.exportable:
                        nonlocal withheld
                        withheld += 1
                        continue
                    ids.append(memory_id)
                    cached[memory_id] = chunk
                    assembler.note(_noted(memory_id, chunk.block), chunk.chunk_id)

        memories = misses()
    for memory in memories:
        if not _in_scope(memory, scope):
            continue
        if isinstance(memory.access, Access) and not memory.access.is_exportable:
            withheld += 1
            continue
        ids.append(memory.id)
        assembler.note(memory_to_json(memory))
        if embeddings:
            stored = view.embedding(memory.id)
            if stored is not None and stored.vector is not None:
                key = (stored.model, stored.dimensions)
                models[key] = models.get(key, 0) + 1
    if models:
        (model, dim), _ = max(models.items(), key=lambda kv: kv[1])
        envelope["embedding_model"] = model
        envelope["embedding_dim"] = dim
        assembler.embedding_model = model
    assembler.envelope = dict(envelope)
    exported = set(ids)
    for relation in view.relations():
        if relation.from_ in exported and relation.to in exported:
            assembler.add_relation(relation.to_json())
    assembler.finish_graph()
    return ExportPlan(
        vault=vault,
        scope=scope,
        since=since_text,
        producer=namespace,
        exported_at=exported_at,
        moment=moment,
        envelope=envelope,
        ids=ids,
        assembler=assembler,
        embeddings=embeddings,
        withheld=withheld,
        cached=cached,
        generation=None if cache is None else cache[0],
        fence=fence,
    )


def _windows(
    rows: Iterator[tuple[str, CachedChunk | None]],
) -> Iterator[list[tuple[str, CachedChunk | None]]]:
    window: list[tuple[str, CachedChunk | None]] = []
    for row in rows:
        window.append(row)
        if len(window) >= _BATCH:
            yield window
            window = []
    if window:
        yield window


def _noted(memory_id: str, block: bytes | None) -> dict[str, Any]:
    """What `BundleAssembler.note` reads of a memory: its id and ``metadata.aimem``."""
    if block is None:
        return {"id": memory_id}
    return {"id": memory_id, "metadata": {META_KEY: orjson.loads(block)}}


def fill_bundle(writer: BundleWriter, plan: ExportPlan) -> None:
    """Pass 2 of an export: every planned memory's chunk, then the entities, edges and links,
    into `writer` (which checks each record against §2). Raises BundleError, MappingError."""
    view = plan.vault.export_view()
    assembler = plan.assembler
    exported = set(plan.ids)
    ids = plan.ids
    keep = plan.generation is not None

    def graph_of(memory_id: str) -> bytes:
        graph = assembler.parts.for_memory(memory_id)
        return orjson.dumps(graph, option=orjson.OPT_SORT_KEYS) if graph else b"{}"

    def reusable(memory_id: str, position: int) -> CachedChunk | None:
        kept = plan.cached.get(memory_id)
        if (
            kept is None
            or position == 0  # the first chunk carries the bundle's own fields
            or kept.chunk_id != assembler.chunk_ids.get(memory_id)
            or not all(r in exported for r in kept.refs)
            or kept.graph != graph_of(memory_id)
        ):
            return None
        return kept

    for start in range(0, len(ids), _BATCH):
        window = ids[start : start + _BATCH]
        hits = {i: reusable(i, start + n) for n, i in enumerate(window)}
        # The kept bytes, read now (pass 1 left them out: bounded memory); a chunk dropped
        # since (its memory changed) is mapped again.
        kept_bytes = view.cached_chunk_bytes(
            plan.producer, [i for i in window if hits[i] is not None]
        )
        for memory_id in window:
            if hits[memory_id] is not None and memory_id not in kept_bytes:
                hits[memory_id] = None
        fresh: list[CachedChunk] = []
        loaded = {m.id: m for m in view.memories([i for i in window if hits[i] is None])}
        for memory_id in window:
            hit = hits[memory_id]
            if hit is not None:
                writer.add_checked_chunk(hit.chunk_id, kept_bytes[memory_id])
                plan.chunks += 1
                continue
            memory = loaded.get(memory_id)
            if memory is None:
                continue  # erased since pass 1
            whole = memory_to_json(memory)
            refs = chunk_refs(whole)
            memory_json = _without_outside_refs(whole, exported)
            emb_json = None
            if plan.embeddings:
                emb = view.embedding(memory.id)
                emb_json = None if emb is None else embedding_json(emb)
            if isinstance(memory_json.get("embedding_ref"), str) and (
                emb_json is None or not assembler.fits(emb_json)
            ):
                # The vector stays behind: PAM §12.1 wants the reference null then,
                # so the bundle converts back to a valid PAM export.
                memory_json["embedding_ref"] = None
            first = plan.chunks == 0
            chunk = assembler.chunk(memory_json, emb_json, first=first)
            plan.embedded += "embedding" in chunk and chunk["embedding"] is not None
            canonical = writer.add_chunk(chunk)
            plan.chunks += 1
            natural = chunk["id"] == chunk_id_for(memory_id, plan.producer)
            if keep and not first and natural and all(r in exported for r in refs):
                block = aimem_block(whole)
                fresh.append(
                    CachedChunk(
                        memory_id,
                        chunk["id"],
                        graph_of(memory_id),
                        refs,
                        memory.is_dna,
                        not (isinstance(memory.access, Access) and not memory.access.is_exportable),
                        None if block is None else orjson.dumps(block),
                        canonical,
                    )
                )
        if keep and fresh and plan.generation is not None:
            view.keep_chunks(plan.producer, fresh, plan.generation)
    for entity in assembler.entities:
        writer.add_entity(entity)
    for edge in assembler.edges:
        writer.add_edge(edge)
    for link in assembler.links:
        writer.add_chunk_entity(link)


def record_bundle_export(vault: Vault, plan: ExportPlan, checksum: str, path: str | None) -> None:
    """The export in the vault's export registry (and its audit entry)."""
    record_export_made(vault, plan.envelope, plan.moment, plan.chunks, checksum, path)


def record_export_made(
    vault: Vault,
    envelope: Mapping[str, Any],
    moment: datetime,
    chunks: int,
    checksum: str,
    path: str | None,
) -> None:
    """An export of `envelope` in the vault's export registry (and its audit entry)."""
    since = envelope.get("since")
    vault.record_export(
        ExportRecord(
            export_id=str(uuid.uuid4()),
            direction="exported",
            export_type="incremental" if envelope.get("scope") == "SINCE" else "full",
            at=str(envelope["exported_at"]),
            format="aimem",
            since=since if isinstance(since, str) else None,
            checksum=checksum,
            memory_count=chunks,
            path=path,
        ),
        now=moment,
    )


def _without_outside_refs(memory: dict[str, Any], exported: set[str]) -> dict[str, Any]:
    """A memory as exported: `superseded_by` and AIMEM edges naming a memory the bundle does
    not hold (withheld as exportable: false, out of scope, erased) are left out, so its
    ``x-pam`` never discloses their ids (as the PAM export does for `superseded_by`)."""
    temporal = memory.get("temporal")
    if isinstance(temporal, dict):
        target = temporal.get("superseded_by")
        if isinstance(target, str) and target not in exported:
            memory["temporal"] = {**temporal, "superseded_by": None}
    metadata = memory.get("metadata")
    block = metadata.get(META_KEY) if isinstance(metadata, dict) else None
    if isinstance(metadata, dict) and isinstance(block, dict):
        edges = block.get("edges")
        if isinstance(edges, list):
            kept = [e for e in edges if not isinstance(e, dict) or e.get("target_id") in exported]
            if len(kept) != len(edges):
                trimmed = {k: v for k, v in block.items() if k != "edges"}
                if kept:
                    trimmed["edges"] = kept
                memory["metadata"] = {**metadata, META_KEY: trimmed}
    return memory


# ---------------------------------------------------------------------------------------------
# Conversion between files, without a vault
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConvertResult:
    path: Path
    to: str
    memories: int
    relations: int
    embeddings: int
    checksum: str | None
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "to": self.to,
            "memories": self.memories,
            "relations": self.relations,
            "embeddings": self.embeddings,
            "checksum": self.checksum,
            "warnings": self.warnings,
        }


def convert_file(
    source: str | Path,
    output: str | Path,
    *,
    to: Literal["aimem", "pam"] | str,
    producer: str = "memvault",
    form: Literal["json", "ndjson"] | None = None,
    overwrite: bool = False,
    allow_unverified: bool = False,
) -> ConvertResult:
    """Convert PAM files to an AIMEM bundle (``to="aimem"``) or a bundle to PAM files
    (``to="pam"``), losslessly (`memvault.formats.mapping`). The input is validated first;
    the output is written under a temporary name and renamed. A PAM output ending in
    ``.json`` is the memory-store alone; any other name is a directory with
    ``memory-store.json`` and, when the bundle has embeddings, ``embeddings.json``.
    A PAM input whose signature does not verify is refused unless `allow_unverified` (then a
    `SIGNATURE_WARNING` first among the warnings, PAM §18.4). Raises ConvertError."""
    src, out = Path(source), Path(output)
    if out.exists() and not overwrite:
        raise ConvertError(f"{out} exists; use --overwrite to replace it")
    if to == "aimem":
        return _pam_to_aimem(src, out, producer, form, overwrite, allow_unverified)
    if to == "pam":
        return _aimem_to_pam(src, out, overwrite)
    raise ConvertError(f"--to {to!r}: convert to aimem or pam")


def _pam_to_aimem(
    src: Path,
    out: Path,
    producer: str,
    form: Literal["json", "ndjson"] | None,
    overwrite: bool,
    allow_unverified: bool = False,
) -> ConvertResult:
    from memvault.crypto.signing import SIGNATURE_CODES, signature_failures
    from memvault.formats.pam import reader
    from memvault.formats.pam.merge import store_entry
    from memvault.formats.pam.validate import validate_path
    from memvault.formats.pam.writer import EMBEDDINGS_FILE
    from memvault.sources import SourceError, open_target

    checked = validate_path(src)
    failed = signature_failures(checked.findings)  # does not verify (§18.4, §21.4)
    if failed and not allow_unverified:
        raise ConvertError(
            f"{src}: its signature does not verify (PAM §18.4; pass --allow-unverified to "
            "convert it anyway)",
            failed,
        )
    errors = [f for f in checked.errors if f.code not in SIGNATURE_CODES]
    if errors or not checked.kind.startswith(("memory-store", "export")):
        if not errors:
            raise ConvertError(f"{src} is a PAM {checked.kind}, not a memory-store or export")
        raise ConvertError(f"{src} is not valid PAM ({errors_text(len(errors))})", errors)
    try:
        with open_target(src) as target:
            entry = store_entry(target)
            if entry is None:
                raise ConvertError(f"{src} has no memory-store.json")
            with entry.open() as buf:
                store = reader.parse(buf, entry.display).full()
            embeddings = None
            found = None if target.kind == "file" else target.find(EMBEDDINGS_FILE)
            if found is not None:
                with found.open() as buf:
                    embeddings = orjson.loads(bytes(buf))
    except SourceError as exc:
        raise ConvertError(f"cannot read {src}: {exc}") from None
    try:
        bundle = pam_to_bundle(store, embeddings, producer=producer)
    except MappingError as exc:
        raise ConvertError(f"{src}: {exc}") from None
    envelope = {k: v for k, v in bundle.items() if k not in ARRAYS}
    try:
        with BundleWriter(out, envelope, form=form, overwrite=overwrite) as writer:
            for record in bundle.get("chunks", []):
                writer.add_chunk(record)
            for record in bundle.get("entities", []):
                writer.add_entity(record)
            for record in bundle.get("edges", []):
                writer.add_edge(record)
            for record in bundle.get("chunk_entities", []):
                writer.add_chunk_entity(record)
            summary = writer.finish()
    except BundleError as exc:
        raise ConvertError(
            f"the bundle for {src} breaks an AIMEM rule: {exc}",
            [p.to_finding() for p in exc.problems],
        ) from None
    except OSError as exc:
        raise ConvertError(f"cannot write {out}: {exc}") from None
    chunks = bundle.get("chunks", [])
    return ConvertResult(
        out,
        "aimem",
        len(chunks),
        len(bundle.get("edges", [])),
        sum(1 for c in chunks if isinstance(c.get("embedding"), str)),
        summary.checksum,
        [unverified_warning(f) for f in failed] + [str(p) for p in summary.warnings],
    )


def _aimem_to_pam(src: Path, out: Path, overwrite: bool) -> ConvertResult:
    import os
    import shutil
    import tempfile

    from memvault.formats.pam.writer import EMBEDDINGS_FILE, STORE_FILE, write_document

    try:
        with open_bundle(src) as reader:
            problems = [p for p in reader.envelope_problems() if p.severity == "error"]
            for record in reader.records():
                problems.extend(p for p in record.problems if p.severity == "error")
            if problems:
                raise BundleError(problems)
            bundle: dict[str, Any] = dict(reader.envelope)
            for name in reader.arrays:
                bundle[name] = list(reader.iter_array(name))
    except BundleError as exc:
        raise ConvertError(
            f"{src} is not a valid AIMEM bundle", [p.to_finding() for p in exc.problems]
        ) from None
    try:
        store, embeddings = bundle_to_pam(bundle)
    except MappingError as exc:
        raise ConvertError(f"{src}: {exc}") from None
    warnings: list[str] = []
    lone = out.suffix.lower() == ".json"
    if lone and embeddings is not None:
        warnings.append(
            f"{counted(len(embeddings['embeddings']), 'embedding was', 'embeddings were')} not "
            "written: a lone memory-store "
            "has no embeddings file (convert to a directory to keep them)"
        )
    parent = out.parent if str(out.parent) else Path(".")
    staged = Path(tempfile.mkdtemp(prefix="." + out.name + ".", dir=parent))
    try:
        write_document(staged / STORE_FILE, store)
        if embeddings is not None and not lone:
            write_document(staged / EMBEDDINGS_FILE, embeddings)
        if out.exists():
            if out.is_dir():
                shutil.rmtree(out)
            else:
                out.unlink()
        if lone:
            os.replace(staged / STORE_FILE, out)
        else:
            os.replace(staged, out)
    except OSError as exc:
        raise ConvertError(f"cannot write {out}: {exc}") from None
    finally:
        if staged.exists():
            shutil.rmtree(staged, ignore_errors=True)
    return ConvertResult(
        out,
        "pam",
        len(store["memories"]),
        len(store.get("relations") or []),
        0 if embeddings is None else len(embeddings["embeddings"]),
        None,
        warnings,
    )
