"""Checks for the companion files of a PAM export: conversation files (§25) and
embeddings.json (§12), each on its own and against the memory-store they accompany."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memvault.findings import counted
from memvault.formats.pam import schema
from memvault.formats.pam.store_checks import (
    Reporter,
    StoreFacts,
    _str_or_none,
    _ts,
    check_schema_version,
)


def check_conversation(
    doc: Mapping[str, Any],
    report: Reporter,
    *,
    entry: Mapping[str, Any] | None = None,
    ref: str | None = None,
    store_version: str | None = None,
) -> None:
    """A normalized conversation file; `entry` is its conversations_index entry, if any, and
    `store_version` the schema_version of the memory-store it comes with."""
    if not check_schema_version(doc.get("schema_version"), report, "this conversation"):
        return
    version = doc.get("schema_version")
    if store_version is not None and isinstance(version, str) and version != store_version:
        report(
            "error", "conversation-version-mismatch",
            f"conversation file is schema_version {version!r}, the memory-store "
            f"{store_version!r}; they must match",
            "$.schema_version", "PAM §25.2",
        )  # fmt: skip
    report.add_all(schema.validate_document("conversation", doc, file=report.file))
    cid = _str_or_none(doc.get("id"))
    messages = doc.get("messages")
    messages = messages if isinstance(messages, list) else []
    ids: dict[str, int] = {}
    for index, message in enumerate(messages):
        if isinstance(message, Mapping) and isinstance(message.get("id"), str):
            mid: str = message["id"]
            if mid in ids:
                report(
                    "error",
                    "duplicate-message-id",
                    f"message id {mid!r} is used by messages[{ids[mid]}] and messages[{index}]",
                    f"$.messages[{index}].id",
                    "PAM §25.3",
                    mid,
                )
            else:
                ids[mid] = index
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            continue
        message_id = _str_or_none(message.get("id"))
        parent = message.get("parent_id")
        # A dangling parent_id / children_ids is a warning: §25.3 says the fields preserve a
        # provider's branching but states no MUST, and the official schema accepts them; the
        # conversation is kept as it came (docs/decisions.md).
        if isinstance(parent, str) and parent not in ids:
            report(
                "warning",
                "parent-unresolved",
                f"parent_id {parent!r} is not a message of this conversation",
                f"$.messages[{index}].parent_id",
                "PAM §25.3",
                message_id,
            )
        elif isinstance(parent, str) and message_id is not None:
            parent_children = messages[ids[parent]].get("children_ids")
            if isinstance(parent_children, list) and message_id not in parent_children:
                report(
                    "warning",
                    "dag-inconsistent",
                    f"message {message_id!r} names {parent!r} as parent, but the parent's "
                    "children_ids does not list it",
                    f"$.messages[{index}].parent_id",
                    "PAM §25.3",
                    message_id,
                )
        children = message.get("children_ids")
        for child in children if isinstance(children, list) else []:
            if isinstance(child, str) and child not in ids:
                report(
                    "warning",
                    "child-unresolved",
                    f"children_ids names {child!r}, which is not a message of this conversation",
                    f"$.messages[{index}].children_ids",
                    "PAM §25.3",
                    message_id,
                )
    temporal = doc.get("temporal")
    if isinstance(temporal, Mapping):
        created, updated = _ts(temporal.get("created_at")), _ts(temporal.get("updated_at"))
        if created and updated and updated < created:
            report(
                "warning",
                "updated-before-created",
                "conversation updated_at is before created_at",
                "$.temporal.updated_at",
                "PAM §25",
                cid,
            )
    metadata = doc.get("import_metadata")
    if isinstance(metadata, Mapping):
        for name in ("importer_version", "source_file", "source_checksum"):
            if metadata.get(name) is None:
                report(
                    "warning", "import-metadata-incomplete",
                    f"import_metadata.{name} is missing; it should be recorded for auditability "
                    "and re-import",
                    f"$.import_metadata.{name}", "PAM §25.3", cid,
                )  # fmt: skip
    if "import_metadata" not in doc:
        report(
            "warning",
            "no-import-metadata",
            "no import_metadata: importer version, source file and source checksum should be "
            "recorded",
            "$",
            "PAM §25.3",
            cid,
        )
    if entry is not None:
        _against_index(doc, entry, len(messages), report, ref)


def _against_index(
    doc: Mapping[str, Any], entry: Mapping[str, Any], count: int, report: Reporter, ref: str | None
) -> None:
    cid = doc.get("id")
    if cid != entry.get("id"):
        report(
            "error",
            "conversation-id-mismatch",
            f"conversations_index entry {entry.get('id')!r} references {ref!r}, whose id is "
            f"{cid!r}",
            "$.id",
            "PAM §14.2",
            _str_or_none(cid),
        )
    provider = doc.get("provider")
    name = provider.get("name") if isinstance(provider, Mapping) else None
    if isinstance(name, str) and name != entry.get("platform"):
        report(
            "error",
            "platform-namespace-mismatch",
            f"provider.name {name!r} differs from the index entry's platform "
            f"{entry.get('platform')!r}; both use the same platform namespace",
            "$.provider.name",
            "PAM §11.4",
            _str_or_none(cid),
        )
    declared = entry.get("message_count")
    if isinstance(declared, int) and not isinstance(declared, bool) and declared != count:
        report(
            "warning",
            "message-count-mismatch",
            f"conversations_index says message_count {declared}, the file has "
            f"{counted(count, 'message')}",
            "$.messages",
            "PAM §14",
            _str_or_none(cid),
        )


def check_embeddings(doc: Mapping[str, Any], report: Reporter) -> None:
    """embeddings.json on its own (§12.1–§12.3)."""
    if not check_schema_version(doc.get("schema_version"), report, "this embeddings file"):
        return
    report.add_all(schema.validate_document("embeddings", doc, file=report.file))
    embeddings = doc.get("embeddings")
    ids: dict[str, int] = {}
    memory_ids: dict[str, int] = {}
    for index, emb in enumerate(embeddings if isinstance(embeddings, list) else []):
        if not isinstance(emb, Mapping):
            continue
        path = f"$.embeddings[{index}]"
        eid = _str_or_none(emb.get("id"))
        if eid is not None:
            if eid in ids:
                report(
                    "error",
                    "duplicate-embedding-id",
                    f"embedding id {eid!r} is used by embeddings[{ids[eid]}] and "
                    f"embeddings[{index}]",
                    f"{path}.id",
                    "PAM §12.3",
                    eid,
                )
            ids.setdefault(eid, index)
        mid = _str_or_none(emb.get("memory_id"))
        if mid is not None:
            if mid in memory_ids:
                report(
                    "error",
                    "duplicate-embedding-memory",
                    f"memory {mid!r} has more than one embedding (embeddings[{memory_ids[mid]}] "
                    f"and embeddings[{index}]); memory_id must be unique",
                    f"{path}.memory_id",
                    "PAM §12.1",
                    mid,
                )
            memory_ids.setdefault(mid, index)
        vector = emb.get("vector")
        dims = emb.get("dimensions")
        if isinstance(vector, list) and isinstance(dims, int) and len(vector) != dims:
            report(
                "error",
                "vector-dimensions-mismatch",
                f"vector has {len(vector)} values but dimensions is {dims}",
                f"{path}.vector",
                "PAM §12.3",
                eid,
            )
        if vector is None and emb.get("storage") is None:
            report(
                "warning",
                "embedding-without-vector",
                "neither an inline vector nor a storage reference",
                path,
                "PAM §12.3",
                eid,
            )


def check_embedding_refs(
    facts: StoreFacts,
    embeddings: Mapping[str, Any] | None,
    report: Reporter,
    embeddings_report: Reporter | None = None,
    *,
    context_known: bool,
) -> None:
    """memory.embedding_ref against embeddings.json (§12.1).

    Findings about memories go to `report` (the memory-store's), findings about embeddings to
    `embeddings_report`. `context_known` is True for an export directory or zip, where the
    absence of embeddings.json is itself a fact; for a lone memory-store file it is unknown.
    """
    refs = {f.embedding_ref: f for f in facts.memories.values() if f.embedding_ref is not None}
    if embeddings is None:
        if refs and context_known:
            first = next(iter(refs.values()))
            report(
                "error",
                "embedding-ref-without-embeddings",
                f"{counted(len(refs), 'memory has', 'memories have')} an embedding_ref but the "
                "export has no "
                "embeddings.json; embedding_ref must be null when embeddings are omitted",
                f"$.memories[{first.position}].embedding_ref",
                "PAM §12.1",
                first.id,
            )
        elif refs:
            report(
                "warning",
                "embedding-refs-not-checked",
                f"{counted(len(refs), 'memory references', 'memories reference')} embeddings; "
                "embeddings.json is not part of "
                "this validation, so embedding_ref was not resolved (validate the export "
                "directory to check it)",
                "$.memories",
                "PAM §12.1",
            )
        return
    emb_report = embeddings_report or report
    version = embeddings.get("schema_version")
    store_version = facts.schema_version
    if store_version is not None and isinstance(version, str) and version != store_version:
        emb_report(
            "error",
            "embeddings-version-mismatch",
            f"embeddings.json is schema_version {version!r}, the memory-store {store_version!r}; "
            "they must match",
            "$.schema_version",
            "PAM §12.2",
        )
    items = embeddings.get("embeddings")
    by_id = {
        e["id"]: e
        for e in (items if isinstance(items, list) else [])
        if isinstance(e, Mapping) and isinstance(e.get("id"), str)
    }
    for ref, fact in refs.items():
        emb = by_id.get(ref)
        path = f"$.memories[{fact.position}].embedding_ref"
        if emb is None:
            report(
                "error",
                "embedding-ref-unresolved",
                f"embedding_ref {ref!r} is not an embedding in embeddings.json",
                path,
                "PAM §12.1",
                fact.id,
            )
        elif emb.get("memory_id") != fact.id:
            report(
                "error",
                "embedding-ref-wrong-memory",
                f"embedding_ref {ref!r} names an embedding of memory {emb.get('memory_id')!r}",
                path,
                "PAM §12.1",
                fact.id,
            )
    severity = facts.unresolved_severity
    for position, emb in enumerate(items if isinstance(items, list) else []):
        if not isinstance(emb, Mapping) or not isinstance(emb.get("id"), str):
            continue
        eid = emb["id"]
        mid = emb.get("memory_id")
        path = f"$.embeddings[{position}].memory_id"
        if isinstance(mid, str) and mid not in facts.memories:
            emb_report(
                severity,
                "embedding-memory-unresolved",
                f"embedding {eid!r} belongs to memory {mid!r}, which is not in the memory-store",
                path,
                "PAM §12.3",
                eid,
            )
        elif isinstance(mid, str) and facts.memories[mid].embedding_ref != eid:
            emb_report(
                "warning",
                "embedding-not-referenced",
                f"embedding {eid!r} belongs to memory {mid!r}, whose embedding_ref is "
                f"{facts.memories[mid].embedding_ref!r}",
                path,
                "PAM §12.1",
                eid,
            )
