"""Move memories in and out of a vault as PAM v1.0 exports.

    result = export_vault(vault, Path("out.zip"))                      # full export
    result = export_vault(vault, Path("delta/"), incremental=True)      # since the last one
    report = import_into_vault(vault, Path("export.zip"))               # one transaction

This module orchestrates; the rules live where they belong: PAM document writing in
`memvault.formats.pam.writer`, validation in `memvault.formats.pam.validate`, dedup, lifecycle
and the audit chain in `memvault.vault`. docs/exchange.md explains what is exported, what never
is, the incremental rules and the dedup decision.

Signing and encryption plug in through `ExportHooks` and `ImportHooks` (the crypto module
supplies them; this module only calls them at the right moment):

- `ExportHooks.sign(payload)` is called with the PAM §18.3 payload fields (checksum, export_id,
  export_date, owner_id) once the checksum is known; the block it returns is written as the
  memory-store's `signature`.
- `ExportHooks.encrypt(src, dst)` turns the finished single file (the zip, or the lone
  memory-store) into the encrypted one before it is renamed into place.
- `ImportHooks.decrypt(path)` is a context manager giving a plain path for an encrypted input
  (or None when the input is not encrypted); `ImportHooks.verify(path, header)` checks a
  signature and returns warnings (a failed verification is a loud warning, §18.5/§21.4).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from memvault.access import may
from memvault.audit_entries import CONVERSATION_ACTIONS, stored_conversation_ids
from memvault.erasure_fence import redone_after_erasure
from memvault.errors import HTTP_CONFLICT, AccessDenied, ExchangeError, ExportError, ImportRefused
from memvault.exchange._shared import (
    Importer,
    embedding_json,
    record_time,
    stored_embedding,
    utc_moment,
)
from memvault.export_view import ExportView
from memvault.findings import SIGNATURE_WARNING, Finding, counted, errors_text
from memvault.formats.pam import reader
from memvault.formats.pam.merge import exported_by, file_ref, iter_embeddings, store_entry
from memvault.formats.pam.validate import validate_path
from memvault.formats.pam.writer import (
    EMBEDDINGS_FILE,
    SPEC_URI,
    STORE_FILE,
    TYPE_REGISTRY,
    EmbeddingsWriter,
    ExportStage,
    MemoryStoreWriter,
    Signer,
    WriterError,
    conversation_filename,
    iter_chunks,
    write_document,
)
from memvault.jsonread import JSONDocumentError
from memvault.model import Access, Memory, Relation, parse_timestamp
from memvault.recall.exchange_vectors import kept_warning
from memvault.sources import SourceError, Target, open_target
from memvault.store.base import ExportRecord, MemoryQuery, StoredConversation
from memvault.store.codec import memory_from_json, memory_to_json
from memvault.unit_of_work import Merged, MergePolicy, UnitOfWork
from memvault.vault import Vault, format_timestamp
from memvault.vault_inputs import is_privileged

__all__ = [
    "EXPORT_FORMATS",
    "SIGNATURE_WARNING",
    "ExchangeError",
    "ExportError",
    "ExportHooks",
    "ExportResult",
    "HeldByReceiver",
    "ImportConflict",
    "ImportHooks",
    "ImportRefused",
    "ImportResult",
    "UnknownBase",
    "export_vault",
    "import_into_vault",
]

EXPORT_FORMATS: Final = ("pam",)
CONVERSATION_SCHEMA: Final = "portable-ai-memory-conversation"
#: Memories fetched, checked and written per vault round trip.
_CHUNK: Final = 2000
#: Conversations handed to the vault per call (bounded memory: documents can be large).
_CONVERSATIONS: Final = 200


# ---------------------------------------------------------------------------------------------
# Errors, hooks, results
# ---------------------------------------------------------------------------------------------


class UnknownBase(ImportRefused):
    """An incremental export whose base the vault never made nor imported (PAM §16.3)."""


class ImportConflict(ExchangeError):
    """Applying the input would break a vault rule; the whole import was rolled back."""

    http_status = HTTP_CONFLICT


@dataclass(frozen=True, slots=True)
class ExportHooks:
    """Where signing and encryption plug into an export (see the module docstring)."""

    sign: Signer | None = None
    encrypt: Callable[[Path, Path], None] | None = None


@dataclass(frozen=True, slots=True)
class ImportHooks:
    """Where decryption and signature verification plug into an import."""

    decrypt: Callable[[Path], AbstractContextManager[Path | None]] | None = None
    verify: Callable[[Path, Mapping[str, Any]], list[str]] | None = None


@dataclass(frozen=True, slots=True)
class ExportResult:
    path: Path
    export_id: str
    export_type: str
    export_date: str
    base_export_id: str | None
    since: str | None
    checksum: str
    memories: int
    relations: int
    conversations: int
    embeddings: int
    #: memories left out because they are marked exportable: false (PAM §21.1)
    withheld: int
    signed: bool = False
    encrypted: bool = False
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "export_id": self.export_id,
            "export_type": self.export_type,
            "export_date": self.export_date,
            "base_export_id": self.base_export_id,
            "since": self.since,
            "checksum": self.checksum,
            "memories": self.memories,
            "relations": self.relations,
            "conversations": self.conversations,
            "embeddings": self.embeddings,
            "withheld": self.withheld,
            "signed": self.signed,
            "encrypted": self.encrypted,
            "warnings": self.warnings,
        }


@dataclass(slots=True)
class ImportResult:
    source: str
    export_id: str | None = None
    export_type: str = "full"
    base_export_id: str | None = None
    #: the vault had already made or imported this export: nothing was done
    already_imported: bool = False
    created: int = 0
    #: incoming memories whose content matched an active memory, which was reinforced
    reinforced: int = 0
    updated: int = 0
    unchanged: int = 0
    #: memories the vault kept as they were (final status, or the vault's copy is newer)
    kept: int = 0
    relations: int = 0
    conversations: int = 0
    embeddings: int = 0
    #: incoming id -> the id it lives under in the vault, where they differ (dedup)
    merged_into: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(
            self.created
            or self.reinforced
            or self.updated
            or self.relations
            or self.conversations
            or self.embeddings
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "export_id": self.export_id,
            "export_type": self.export_type,
            "base_export_id": self.base_export_id,
            "already_imported": self.already_imported,
            "created": self.created,
            "reinforced": self.reinforced,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "kept": self.kept,
            "relations": self.relations,
            "conversations": self.conversations,
            "embeddings": self.embeddings,
            "merged_into": self.merged_into,
            "warnings": self.warnings,
        }


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def _since_text(since: str | datetime) -> str:
    if isinstance(since, datetime):
        return format_timestamp(since)
    try:
        return format_timestamp(parse_timestamp(since))
    except ValueError:
        raise ExportError(
            f"--since {since!r} is not an ISO 8601 date-time such as 2025-01-31T12:00:00Z"
        ) from None


def _exportable(memory: Memory) -> bool:
    return not isinstance(memory.access, Access) or memory.access.is_exportable


@dataclass(slots=True)
class _Plan:
    """What goes into one export."""

    export_type: str
    since: str | None = None
    base_export_id: str | None = None
    #: for a delta: memory, relation and conversation ids the audit log says changed
    memory_ids: set[str] = field(default_factory=set)
    relation_ids: set[str] = field(default_factory=set)
    conversation_ids: set[str] = field(default_factory=set)
    #: memories whose exportability changed: relations to them may be new to the receiver
    exposed_ids: set[str] = field(default_factory=set)
    #: memories at one end of a relation made or changed since
    relation_sources: set[str] = field(default_factory=set)


def _plan(
    vault: Vault,
    incremental: bool,
    since: str | datetime | None,
    warnings: list[str],
    actor: str,
) -> _Plan:
    if incremental and since is not None:
        raise ExportError("give either --incremental or --since, not both")
    if not incremental and since is None:
        return _Plan("full")
    # The base of a PAM delta is a PAM export: an AIMEM bundle has no export_id a PAM
    # receiver (or `memvault merge`) could match base_export_id against (PAM §16.2).
    # The export registry and the audit log a delta is built from are the owner's, so an
    # agent's export is always full (docs/access.md): AccessDenied here.
    registry = vault.exports()
    made = [r for r in registry if r.direction == "exported" and r.format == "pam"]
    if incremental:
        if not made:
            raise ExportError(
                "the vault has made no PAM export yet, so there is nothing to be incremental "
                "to: make a full export first (memvault export -o PATH)"
            )
        base = made[-1]
        plan = _Plan("incremental", _since_text(base.at), base.export_id)
    else:
        assert since is not None
        text = _since_text(since)
        earlier = [r for r in made if _since_text(r.at) <= text]
        base_id = earlier[-1].export_id if earlier else None
        if base_id is None:
            warnings.append(
                f"no export made by this vault at or before {text}: the delta names no "
                "base_export_id (PAM §16.2), so a receiver cannot check what it applies to"
            )
        plan = _Plan("incremental", text, base_id)
    _changes_since(vault.export_view(), plan)
    return plan


#: Audit actions that change no memory object (only a relation, or nothing exported).
_NOT_A_MEMORY_CHANGE: Final = frozenset({"relate", "erase", "export", "import"})


def _changes_since(view: ExportView, plan: _Plan) -> None:
    """Collect from the audit log what changed at or after `since`: also memories imported
    since then with older timestamps of their own, embeddings added, relations made or
    re-weighted, conversations stored, memories made exportable again."""
    assert plan.since is not None
    since = plan.since
    for entry in view.audit_since(since):
        memory_id = entry.memory_id
        details = entry.details
        if memory_id is not None and entry.action not in _NOT_A_MEMORY_CHANGE:
            plan.memory_ids.add(memory_id)
        relation_id = details.get("relation_id")
        if isinstance(relation_id, str) and memory_id is not None:
            plan.relation_ids.add(relation_id)
            plan.relation_sources.add(memory_id)
        if entry.action in CONVERSATION_ACTIONS:  # one conversation, or a batch of them
            plan.conversation_ids.update(stored_conversation_ids(entry.action, details))
        changed = details.get("changed")
        if (
            entry.action == "update"
            and memory_id is not None
            and isinstance(changed, Sequence)
            and ("exportable" in changed or "access" in changed)
        ):
            plan.exposed_ids.add(memory_id)
    # A memory exported again brings back relations to it, and the pointer of the memories
    # it superseded (which was null while it was withheld).
    for memory_id in sorted(plan.exposed_ids):
        for relation in view.relations_of(memory_id):
            if relation.type == "supersedes" and relation.from_ == memory_id:
                plan.memory_ids.add(relation.to)


@dataclass(frozen=True, slots=True)
class HeldByReceiver:
    """What an export leaves out because its receiver already holds it as it is here."""

    memories: AbstractSet[str] = frozenset()
    relations: AbstractSet[str] = frozenset()
    conversations: AbstractSet[str] = frozenset()


class _Exporter:
    held: HeldByReceiver = HeldByReceiver()

    def __init__(
        self,
        vault: Vault,
        stage: ExportStage,
        writer: MemoryStoreWriter,
        plan: _Plan,
        strip_platform_ids: bool,
        actor: str,
    ) -> None:
        self.vault = vault
        self.actor = actor
        #: an agent's export holds only what it may read (PAM §9, docs/access.md)
        self.restricted = not is_privileged(actor)
        self.view = vault.export_view()
        self.stage = stage
        self.writer = writer
        self.plan = plan
        self.strip = strip_platform_ids
        self.embeddings = (
            EmbeddingsWriter(stage.root / EMBEDDINGS_FILE) if stage.companions else None
        )
        #: ids of memories withheld (exportable: false): relations to them are dropped
        self.withheld: set[str] = set()
        #: exportability of memories looked up for references (superseded_by, relations)
        self._exportable_cache: dict[str, bool] = {}
        self.delta_ids: set[str] = set()
        self.referenced_conversations: set[str] = set()
        total = self.view.count_memories(MemoryQuery(statuses=None, limit=None))
        exportable = self.view.count_memories(
            MemoryQuery(statuses=None, limit=None, exportable_only=True)
        )
        self.any_withheld = exportable != total
        self.memories = 0
        self.relations = 0
        self.conversations = 0

    # -- memories -----------------------------------------------------------------------------

    def memories_source(self) -> Iterator[Memory]:
        if self.plan.export_type == "full":
            query = MemoryQuery(statuses=None, limit=None)
            yield from self.vault.iter_memories(query)
            return
        assert self.plan.since is not None
        seen: set[str] = set()
        query = MemoryQuery(
            statuses=None, limit=None, updated_since=parse_timestamp(self.plan.since)
        )
        for memory in self.view.iter_memories(query):
            seen.add(memory.id)
            yield memory
        rest = sorted(self.plan.memory_ids - seen)
        for chunk in iter_chunks(rest, _CHUNK):
            yield from self.view.memories(chunk)

    def write_memories(self) -> None:
        incremental = self.plan.export_type == "incremental"
        for memory in self.memories_source():
            if memory.id in self.held.memories:
                continue
            if self.restricted and not may(memory, self.actor, "read"):
                continue  # not withheld: an agent is not told what it may not read
            if not _exportable(memory):
                self.withheld.add(memory.id)
                continue
            document = memory_to_json(memory)
            _drop_placeholder_conversation(document)
            self._fix_supersession(document)
            if self.strip:
                _strip_memory(document)
            self._attach_embedding(document)
            self.writer.add_memory(document)
            self.memories += 1
            if incremental:
                self.delta_ids.add(memory.id)
                ref = (document.get("provenance") or {}).get("conversation_ref")
                if isinstance(ref, str):
                    self.referenced_conversations.add(ref)

    def _is_exportable(self, memory_id: str) -> bool:
        """Whether a memory the vault has (a relation end) is part of the export. After the
        memories of a full export, `withheld` holds every memory left out."""
        if memory_id in self.withheld:
            return False
        if self.restricted:
            return self._lookup(memory_id)
        if not self.any_withheld or self.plan.export_type == "full":
            return True
        return self._lookup(memory_id)

    def _lookup(self, memory_id: str) -> bool:
        """Whether `memory_id` exists in the vault and may be exported (cached): by an agent,
        only if it may read it."""
        known = self._exportable_cache.get(memory_id)
        if known is None:
            if self.any_withheld or self.restricted:
                memory = self.view.memory(memory_id)
                known = (
                    memory is not None and _exportable(memory) and may(memory, self.actor, "read")
                )
            else:
                known = bool(self.view.existing_ids([memory_id]))
            if len(self._exportable_cache) < 10_000:
                self._exportable_cache[memory_id] = known
        return known

    def _fix_supersession(self, document: dict[str, Any]) -> None:
        """`superseded_by` naming a withheld memory would disclose its id, and one naming a
        memory the vault does not have (merged away by dedup, erased) would dangle; one naming
        the memory itself means nothing (an error for PAM §7 validators). All become null."""
        temporal = document.get("temporal")
        if isinstance(temporal, dict):
            target = temporal.get("superseded_by")
            if isinstance(target, str) and (
                target == document["id"] or target in self.withheld or not self._lookup(target)
            ):
                temporal["superseded_by"] = None

    def _attach_embedding(self, document: dict[str, Any]) -> None:
        """§12.1: embedding_ref names the memory's exported embedding, or is null."""
        if self.embeddings is None:
            if document.get("embedding_ref") is not None:
                document["embedding_ref"] = None
            return
        stored = self.view.embedding(document["id"])
        if stored is None:
            if document.get("embedding_ref") is not None:
                document["embedding_ref"] = None
            return
        self.embeddings.add(embedding_json(stored))
        document["embedding_ref"] = stored.id

    # -- relations ------------------------------------------------------------------------

    def write_relations(self) -> None:
        if self.plan.export_type == "full":
            relations: Iterable[Relation] = self.view.relations()
        else:
            relations = self._delta_relations()
        for relation in relations:
            if relation.id in self.held.relations:
                continue
            if not (self._is_exportable(relation.from_) and self._is_exportable(relation.to)):
                continue
            self.writer.add_relation(relation.to_json())
            self.relations += 1

    def _delta_relations(self) -> Iterator[Relation]:
        assert self.plan.since is not None
        found: dict[str, Relation] = {}
        since = parse_timestamp(self.plan.since)
        plan = self.plan
        ends = self.delta_ids | plan.memory_ids | plan.relation_sources | plan.exposed_ids
        for memory_id in sorted(ends):
            for relation in self.view.relations_of(memory_id):
                if relation.id in found:
                    continue
                if (
                    relation.id in self.plan.relation_ids
                    or relation.from_ in self.plan.exposed_ids
                    or relation.to in self.plan.exposed_ids
                    or _at_or_after(relation.created_at, since)
                ):
                    found[relation.id] = relation
        return iter(found.values())

    # -- conversations --------------------------------------------------------------------

    def write_conversations(self) -> None:
        if self.restricted:
            return  # conversations are the owner's (docs/access.md)
        if self.plan.export_type == "full":
            conversations: Iterable[StoredConversation] = self.vault.conversations()
        else:
            wanted = sorted(self.plan.conversation_ids | self.referenced_conversations)
            conversations = (
                c for c in (self.view.conversation(i) for i in wanted) if c is not None
            )
        for conversation in conversations:
            if conversation.id in self.held.conversations:
                continue
            entry = self._index_entry(conversation)
            if entry is not None:
                self.writer.add_conversation(entry)
                self.conversations += 1

    def _index_entry(self, conversation: StoredConversation) -> dict[str, Any] | None:
        document = dict(conversation.document)
        has_document = document.get("schema") == CONVERSATION_SCHEMA
        entry: dict[str, Any] = {"id": conversation.id, "platform": conversation.platform}
        if conversation.title is not None:
            entry["title"] = conversation.title
        entry["message_count"] = conversation.message_count
        temporal: dict[str, Any] = {}
        doc_temporal = document.get("temporal")
        created = conversation.created_at or (
            doc_temporal.get("created_at") if isinstance(doc_temporal, Mapping) else None
        )
        if created is not None:
            temporal["created_at"] = created
        if conversation.updated_at is not None:
            temporal["updated_at"] = conversation.updated_at
        entry["temporal"] = temporal
        # What the columns do not capture (tags, a non-file storage, explicit nulls, unknown
        # members) comes from the index entry as it was imported.
        entry.update(conversation.extra_index)
        entry.pop("derived_memories", None)
        if not isinstance(entry.get("temporal"), Mapping) or "created_at" not in entry["temporal"]:
            return None
        storage = entry.get("storage")
        if isinstance(storage, Mapping) and storage.get("type") == "file":
            entry.pop("storage")  # its file, if any, is the document below
        if has_document and self.stage.companions:
            if self.strip:
                _strip_conversation(document)
            name = conversation_filename(conversation.id)
            write_document(self.stage.root / name, document)
            entry["storage"] = {"type": "file", "ref": name, "format": "json"}
        return entry

    def close_embeddings(self) -> int:
        return 0 if self.embeddings is None else self.embeddings.close()

    def abort(self) -> None:
        if self.embeddings is not None:
            self.embeddings.abort()


def _at_or_after(text: str, moment: datetime) -> bool:
    try:
        return parse_timestamp(text) >= moment
    except ValueError:
        return False


def _drop_placeholder_conversation(document: dict[str, Any]) -> None:
    """A memory remembered by hand (`remember`, the MCP tool) once got its platform as
    `conversation_ref` ("mcp", "manual"): no conversation has that id, so every export warned
    that the conversations_index lacks it (PAM §14.1). Such a memory comes from no
    conversation: its export says so (no conversation_ref, no message_ref), however old the
    vault. `extraction_method` "explicit_user_input" keeps saying how it was made (§11)."""
    provenance = document.get("provenance")
    if (
        isinstance(provenance, dict)
        and provenance.get("extraction_method") == "explicit_user_input"
        and provenance.get("conversation_ref") is not None
        and provenance.get("conversation_ref") == provenance.get("platform")
    ):
        provenance["conversation_ref"] = None
        provenance["message_ref"] = None


def _strip_memory(document: dict[str, Any]) -> None:
    """§21.3: no platform user id in a shared export."""
    provenance = document.get("provenance")
    if isinstance(provenance, dict) and provenance.get("platform_user_id") is not None:
        provenance["platform_user_id"] = None


def _strip_conversation(document: dict[str, Any]) -> None:
    """§21.3: no provider account id in a shared export."""
    provider = document.get("provider")
    if isinstance(provider, Mapping) and provider.get("account_id") is not None:
        document["provider"] = {**provider, "account_id": None}


@redone_after_erasure
def export_vault(
    vault: Vault,
    target: str | Path,
    *,
    format: str = "pam",
    incremental: bool = False,
    since: str | datetime | None = None,
    strip_platform_ids: bool = False,
    overwrite: bool = False,
    hooks: ExportHooks | None = None,
    now: datetime | None = None,
    held_by_receiver: HeldByReceiver | None = None,
) -> ExportResult:
    """Export the vault as PAM to `target`: a directory, a `.zip`, or a `.json` (the lone
    memory-store, without conversations and embeddings).

    `held_by_receiver` names memories, relations and conversations the receiver is known to
    hold exactly as they are here (a sync's pull has just brought them): they are not
    written, and relations to those memories still are (`memvault.sync`).

    A full export by default; `incremental=True` exports what changed since the last export
    this vault made, `since` what changed at or after that moment (PAM §16). Memories marked
    `exportable: false` are never written, nor relations touching them (§21.1);
    `strip_platform_ids` nulls `provenance.platform_user_id` and conversations'
    `provider.account_id` (§21.3). The export is recorded in the vault's export registry.
    As an agent's session (`vault.acting_as`): only the memories it may read, the relations
    between them, no conversations, and never a delta (docs/access.md). An erasure that
    commits while it reads makes it start again: it never publishes erased data (AIMEM §5.2,
    `memvault.erasure_fence`). Raises ExportError (nothing is left at the target),
    AccessDenied.
    """
    if format not in EXPORT_FORMATS:
        raise ExportError(f"format {format!r} is not supported; use one of {EXPORT_FORMATS}")
    hooks = hooks or ExportHooks()
    path = Path(target)
    if path.suffix.lower() == ".age" and hooks.encrypt is None:
        raise ExportError(f"{path} names an age-encrypted file; encrypt the export or drop .age")
    warnings: list[str] = []
    actor = vault.actor
    fence = vault.export_view().erasure_fence()  # before the first read (AIMEM §5.2)
    plan = _plan(vault, incremental, since, warnings, actor)
    export_id = str(uuid.uuid4())
    export_date = format_timestamp(utc_moment(now))
    header: dict[str, Any] = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "spec_uri": SPEC_URI,
        "export_id": export_id,
        "exported_by": exported_by(),
        "export_date": export_date,
        "owner": vault.owner.to_json(),
        "export_type": plan.export_type,
    }
    if plan.export_type == "incremental":
        header["base_export_id"] = plan.base_export_id
        header["since"] = plan.since
    header["type_registry"] = TYPE_REGISTRY
    try:
        with ExportStage(path, overwrite=overwrite) as stage:
            writer = MemoryStoreWriter(stage.root / STORE_FILE, header, scratch=stage.scratch)
            exporter = _Exporter(vault, stage, writer, plan, strip_platform_ids, actor)
            exporter.held = held_by_receiver or HeldByReceiver()
            try:
                exporter.write_memories()
                exporter.write_relations()
                exporter.write_conversations()
            except BaseException:
                exporter.abort()
                raise
            embeddings = exporter.close_embeddings()
            summary = writer.finish(sign=hooks.sign)
            stage.publish(hooks.encrypt, guard=fence.publishing)
    except (WriterError, OSError) as exc:
        raise ExportError(f"could not export to {path}: {exc}") from None
    if exporter.restricted:
        warnings.append(
            f"exported as {actor!r}: only the memories it may read, the relations between "
            "them, and no conversations (they are the owner's; PAM §9, docs/access.md)"
        )
    elif summary.unindexed_conversations:
        shown = ", ".join(summary.unindexed_conversations[:5])
        warnings.append(
            f"{counted(len(summary.unindexed_conversations), 'conversation')} referenced by "
            f"memories but not in the vault, so without an index entry: {shown}"
        )
    vault.record_export(
        ExportRecord(
            export_id=export_id,
            direction="exported",
            export_type="incremental" if plan.export_type == "incremental" else "full",
            at=export_date,
            format="pam",
            base_export_id=plan.base_export_id,
            since=plan.since,
            checksum=summary.checksum,
            memory_count=summary.total_memories,
            path=str(path),
        ),
        now=now,
    )
    return ExportResult(
        path=path,
        export_id=export_id,
        export_type=plan.export_type,
        export_date=export_date,
        base_export_id=plan.base_export_id,
        since=plan.since,
        checksum=summary.checksum,
        memories=summary.total_memories,
        relations=summary.relations,
        conversations=summary.conversations,
        embeddings=embeddings,
        withheld=len(exporter.withheld),
        signed=summary.signed,
        encrypted=hooks.encrypt is not None,
        warnings=warnings,
    )


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


def _finding_text(finding: Finding) -> str:
    where = f"{finding.file}: " if finding.file else ""
    section = f" ({finding.section})" if finding.section else ""
    return f"{where}{finding.path}: {finding.message}{section}"


def _refuse_invalid(path: Path, allow_unverified: bool = False) -> list[str]:
    """Validate first (PAM schemas and rules); refuse with the findings. Returns warnings.

    A signed document whose signature does not verify (`SIGNATURE_CODES`) is refused too: a
    signature that is present and wrong means the file was changed after signing or signed by
    someone else, and importing it would pass off altered memories as the signer's. §18.5
    forbids rejecting *unsigned* exports, which import normally. With `allow_unverified` the
    user accepts such a file knowingly: the findings come first among the warnings, marked
    SIGNATURE NOT VERIFIED, so they cannot be missed (docs/decisions.md)."""
    from memvault.crypto.signing import SIGNATURE_CODES, signature_failures

    result = validate_path(path)
    # validate reports a signature that does not verify as a warning (§21.4); for an import
    # it is a refusal all the same.
    signature = signature_failures(result.findings)
    errors = [f for f in result.errors if f.code not in SIGNATURE_CODES]
    if not allow_unverified:
        errors = signature + errors
    unverified = [f"{SIGNATURE_WARNING}: {_finding_text(f)} [{f.code}]" for f in signature]
    if not errors:
        return unverified + [_finding_text(f) for f in result.warnings if f not in signature]
    shown = "; ".join(_finding_text(f) for f in errors[:5])
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    if signature and not allow_unverified:
        headline = (
            f"{path} was not imported: its signature does not verify (PAM §18.5; pass "
            "--allow-unverified to import it anyway)"
        )
    else:
        headline = f"{path} was not imported: it is not valid PAM ({errors_text(len(errors))})"
    raise ImportRefused(f"{headline}: {shown}{more}", errors, headline=headline)


def import_into_vault(
    vault: Vault,
    source: str | Path,
    *,
    force: bool = False,
    allow_unverified: bool = False,
    hooks: ImportHooks | None = None,
    now: datetime | None = None,
) -> ImportResult:
    """Import PAM documents (a memory-store, conversation or embeddings file; an export
    directory; a zip of one) into the vault, in ONE transaction: all of it or nothing.

    The input is validated first; an invalid one is refused (`ImportRefused`, with the
    findings), and so is a signed one whose signature does not verify, unless
    `allow_unverified`. An incremental export must apply to an export this vault made or imported
    (`UnknownBase` otherwise, unless `force`). Importing an export the vault already made or
    imported does nothing. Rules: docs/exchange.md, "Import". As an agent's session
    (`vault.acting_as`) it creates memories and changes only those the agent may write;
    anything else refuses it whole (AccessDenied, nothing applied; docs/access.md).
    """
    hooks = hooks or ImportHooks()
    path = Path(source)
    actor = vault.actor
    decrypted: AbstractContextManager[Path | None] = (
        hooks.decrypt(path) if hooks.decrypt is not None else contextlib.nullcontext(None)
    )
    with decrypted as plain:
        readable = path if plain is None else plain
        warnings = _refuse_invalid(readable, allow_unverified)
        try:
            with open_target(readable) as target:
                importer = _Importer(vault, target, str(path), actor, now, force)
                importer.result.warnings.extend(warnings)
                if hooks.verify is not None:
                    verify = hooks.verify
                    importer.verify_header = lambda header: verify(readable, header)
                return importer.run()
        except (SourceError, JSONDocumentError) as exc:
            raise ImportRefused(f"{path} was not imported: {exc}") from None
        except AccessDenied as exc:
            # One transaction: the first memory the agent may not change refuses it all.
            raise AccessDenied(f"{path} was not imported, nothing was applied: {exc}") from None


class _Importer(Importer):
    def __init__(
        self,
        vault: Vault,
        target: Target,
        source: str,
        actor: str,
        now: datetime | None,
        force: bool,
    ) -> None:
        super().__init__(vault, actor, utc_moment(now))
        self.target = target
        self.force = force
        self.result = ImportResult(source)
        self.verify_header: Callable[[Mapping[str, Any]], list[str]] | None = None

    def run(self) -> ImportResult:
        entry = store_entry(self.target)
        assert entry is not None
        with entry.open() as buf:
            doc = reader.parse(buf, entry.display)
            if self.target.kind != "file" or doc.kind == "memory-store":
                return self._import_store(doc)
            with self.vault.unit_of_work(now=self.moment) as work:
                if doc.kind == "conversation":
                    self._import_conversations(work, [], documents=[doc.full()])
                elif doc.kind == "embeddings":
                    self._import_embeddings(work, buf, entry.display)
            return self.result

    # -- the memory-store -----------------------------------------------------------------

    def _import_store(self, doc: reader.Document) -> ImportResult:
        doc.complete_header()
        header = doc.header
        result = self.result
        export_id = header.get("export_id")
        result.export_id = export_id if isinstance(export_id, str) else None
        result.export_type = "incremental" if header.get("export_type") == "incremental" else "full"
        base = header.get("base_export_id")
        result.base_export_id = base if isinstance(base, str) else None
        if self.verify_header is not None:
            result.warnings.extend(self.verify_header(header))
        with self.vault.unit_of_work(now=self.moment) as work:
            known = work.known_exports()
            if result.export_id is not None and result.export_id in known:
                result.already_imported = True
                return result
            incremental = result.export_type == "incremental"
            if incremental and result.base_export_id not in known:
                message = (
                    f"{result.source} is an incremental export of base {base!r}, which this "
                    "vault never exported nor imported (PAM §16.3: a delta applies to a known "
                    "base)"
                )
                if not self.force:
                    raise UnknownBase(message + "; import the base first, or use --force")
                result.warnings.append(message + "; imported anyway (--force)")
            owner = header.get("owner")
            owner_id = owner.get("id") if isinstance(owner, Mapping) else None
            if owner_id != self.vault.owner.id:
                result.warnings.append(
                    f"the export belongs to owner {owner_id!r}, this vault to "
                    f"{self.vault.owner.id!r}; its memories were imported as the vault owner's"
                )
            self._import_memories(work, doc, incremental)
            self._import_relations(work, header.get("relations") or [])
            self._import_conversations(work, header.get("conversations_index") or [])
            emb_entry = None if self.target.kind == "file" else self.target.find(EMBEDDINGS_FILE)
            if emb_entry is not None:
                with emb_entry.open() as buf:
                    self._import_embeddings(work, buf, emb_entry.display)
            work.flush()
            integrity = header.get("integrity")
            checksum = integrity.get("checksum") if isinstance(integrity, Mapping) else None
            record_id = result.export_id or (
                str(uuid.uuid5(uuid.NAMESPACE_URL, f"pam-checksum:{checksum}"))
                if isinstance(checksum, str)
                else str(uuid.uuid4())
            )
            since = header.get("since")
            export_date = header.get("export_date")
            self.vault.record_export(
                ExportRecord(
                    export_id=record_id,
                    direction="imported",
                    export_type="incremental" if incremental else "full",
                    at=record_time(export_date, self.at),
                    format="pam",
                    base_export_id=result.base_export_id,
                    since=since if isinstance(since, str) else None,
                    checksum=checksum if isinstance(checksum, str) else None,
                    memory_count=doc.memory_count,
                    path=result.source,
                ),
                now=self.moment,
            )
        return result

    def _import_memories(self, work: UnitOfWork, doc: reader.Document, incremental: bool) -> None:
        incoming = (
            memory_from_json(value) for _, _, value in doc.iter_memories(check_duplicates=False)
        )
        # An incremental export is applied as it is (PAM §16.3); a full one only where its
        # copy is newer than the vault's.
        policy = MergePolicy("import", newer_only=not incremental)
        for chunk in iter_chunks(incoming, _CHUNK):
            existing = work.existing_ids([m.id for m in chunk])
            # Copies of stored memories first: a new memory is then checked for a twin (PAM
            # §6) against what the vault holds after the export, not before (a memory whose
            # content moved on frees its old content for another).
            present = [m for m in chunk if m.id in existing]
            if present:
                stored = work.stored_memories([m.id for m in present])
                for memory in present:
                    merged = work.merge_memory(stored[memory.id], memory, policy)
                    self._count(merged, memory)
            new = [m for m in chunk if m.id not in existing]
            if new:
                batch = work.add_memories(new)
                self.result.created += len(batch.created)
                self.result.reinforced += len(batch.reinforced)
                self.result.unchanged += len(batch.skipped)
                for incoming_id in batch.reinforced:
                    self.remap[incoming_id] = batch.id_map[incoming_id]
        self.result.merged_into = dict(self.remap)

    def _count(self, merged: Merged, incoming: Memory) -> None:
        """Count what merging an incoming memory with the vault's copy did (PAM §16.3)."""
        current = merged.memory
        if merged.outcome == "updated":
            self.result.updated += 1
        elif merged.outcome == "unchanged":
            self.result.unchanged += 1
        elif merged.outcome == "final":
            self.result.kept += 1
            self.result.warnings.append(
                f"memory {current.id} is {current.effective_status} in the vault, a final "
                f"state (PAM §7.1); the incoming copy ({incoming.effective_status}) was not "
                "applied"
            )
        elif merged.outcome == "older":
            self.result.kept += 1
        else:
            raise ImportConflict(
                f"memory {current.id} would get the same content as active memory "
                f"{merged.twin} (PAM §6: one active memory per fact); retract or "
                "supersede one of them and import again. Nothing was imported."
            )

    # -- relations ------------------------------------------------------------------------

    def _import_relations(self, work: UnitOfWork, relations: Sequence[Mapping[str, Any]]) -> None:
        put = self.import_relations(work, relations, "import")
        self.result.relations += put.added
        if put.skipped:
            self.result.warnings.append(
                f"{counted(put.skipped, 'relation was', 'relations were')} not imported: an "
                "end is not in the vault (a delta "
                "relation into a base this vault lacks) or both ends are now one memory"
            )

    # -- conversations ----------------------------------------------------------------------

    def _import_conversations(
        self,
        work: UnitOfWork,
        index: Sequence[Mapping[str, Any]],
        documents: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """The conversations of the index (with their files when the export has them), the
        conversation files the index does not name, and lone conversation `documents`: stored
        through `Vault.put_conversations` a few at a time (an export may hold tens of
        thousands). The vault is the archive: an export that knows less (an index entry
        without its file, an older copy) never takes away what the vault holds."""
        pending: list[StoredConversation] = []

        def put(row: StoredConversation) -> None:
            pending.append(row)
            if len(pending) >= _CONVERSATIONS:
                flush()

        def flush() -> None:
            if pending:
                outcomes = work.put_conversations(pending, index_entries=True)
                self.result.conversations += sum(o.outcome != "unchanged" for o in outcomes)
                pending.clear()

        # Conversations are the owner's (docs/access.md): an agent's import that holds one is
        # refused whole (by `UnitOfWork.put_conversations`).
        taken: set[str] = set()
        for entry in index:
            ref = file_ref(entry)
            found = None if ref is None or self.target.kind == "file" else self.target.find(ref)
            if found is not None:
                taken.add(found.name)
                with found.open() as buf:
                    document = reader.parse(buf, found.display).full()
                put(_conversation_row(document, entry, file_found=True))
            else:
                put(_conversation_row({}, entry, file_found=False))
        for lone in documents:
            put(_conversation_row(lone, None))
        if self.target.kind != "file":
            for file in self.target.entries:
                if file.name.startswith("conversations/") and file.name not in taken:
                    with file.open() as buf:
                        doc = reader.parse(buf, file.display)
                        if doc.kind == "conversation":
                            put(_conversation_row(doc.full(), None))
        flush()

    # -- embeddings -----------------------------------------------------------------------

    def _import_embeddings(self, work: UnitOfWork, buf: Any, file: str) -> None:
        """Embeddings of memories in the vault (PAM §12). Those of incoming memories merged
        into another one are left out: the survivor keeps its own."""
        _, items = iter_embeddings(buf, file)
        missing = 0
        for chunk in iter_chunks(items, 500):
            ids = [e.get("memory_id") for e in chunk]
            present = work.existing_ids([i for i in ids if isinstance(i, str)])
            for emb in chunk:
                memory_id = emb.get("memory_id")
                if not isinstance(memory_id, str) or memory_id in self.remap:
                    continue
                if memory_id not in present:
                    missing += 1
                    continue
                stored = stored_embedding(emb)
                if work.put_embedding(stored, content_hash=present[memory_id]):
                    self.result.embeddings += 1
        if missing:
            self.result.warnings.append(
                f"{counted(missing, 'embedding belongs', 'embeddings belong')} to memories that "
                "are not in the vault; left out"
            )
        if (note := kept_warning(work.vectors_kept)) is not None:
            self.result.warnings.append(note)


def _conversation_row(
    document: Mapping[str, Any],
    entry: Mapping[str, Any] | None,
    *,
    file_found: bool = True,
) -> StoredConversation:
    """A conversation as the vault stores it, from its index entry (and file, when found) or
    from its file alone. The validator checked the platform."""
    extra: dict[str, Any] = {}
    if entry is not None:
        extra = {k: v for k, v in entry.items() if k not in ("id", "derived_memories")}
        if file_found:
            extra.pop("storage", None)
        cid = str(entry["id"])
        platform = str(entry["platform"])
        title = entry.get("title")
        temporal = entry.get("temporal") or {}
        count = entry.get("message_count")
    else:
        cid = str(document["id"])
        provider = document.get("provider") or {}
        platform = str(provider.get("name"))
        title = document.get("title")
        temporal = document.get("temporal") or {}
        count = None
    messages = document.get("messages")
    if not isinstance(count, int):
        count = len(messages) if isinstance(messages, list) else 0
    return StoredConversation(
        id=cid,
        platform=platform,
        document=dict(document),
        title=title if isinstance(title, str) else None,
        created_at=temporal.get("created_at"),
        updated_at=temporal.get("updated_at"),
        message_count=count,
        extra_index=extra,
    )
