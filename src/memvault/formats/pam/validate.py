"""Validate what a user points at: one PAM document (kind detected from its content), an
export directory, or a .zip of one. Companion files are checked together with the
memory-store, so references across files resolve (§12.1, §14.1, §14.2)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from memvault.bulk import gc_paused
from memvault.findings import Finding, ValidationResult
from memvault.formats.pam import STORE_FILE, companion_checks, reader
from memvault.formats.pam.reader import Document
from memvault.formats.pam.store_checks import Reporter, StoreFacts, StoreValidator
from memvault.jsonread import JSONDocumentError
from memvault.sources import AgePassphrase, Entry, SourceError, Target, open_target

EMBEDDINGS_FILE = "embeddings.json"
_KNOWN_SCHEMAS = ", ".join(f'"{s}"' for s in reader.KIND_BY_SCHEMA)


def validate_path(
    path: str | os.PathLike[str],
    *,
    age_passphrase: AgePassphrase = None,
    age_identities: Sequence[str] = (),
) -> ValidationResult:
    """Validate a PAM file, export directory or zip; an age-encrypted one is decrypted in
    memory with `age_passphrase` or `age_identities` (see `memvault.sources.open_target`).

    The garbage collector is paused until the document and what the checks built from it
    (hundreds of thousands of acyclic objects for a large store) are gone again."""
    with gc_paused():
        return _validate_path(path, age_passphrase, age_identities)


def _validate_path(
    path: str | os.PathLike[str], age_passphrase: AgePassphrase, age_identities: Sequence[str]
) -> ValidationResult:
    result = ValidationResult(str(path))
    try:
        target = open_target(path, age_passphrase=age_passphrase, age_identities=age_identities)
    except SourceError as exc:
        return _unreadable(result, exc)
    if target.encryption is not None:
        result.facts["encryption"] = target.encryption
    try:
        with target:
            if target.kind == "file":
                _validate_single(target.entries[0], result)
            else:
                _validate_export(target, result)
    except SourceError as exc:
        return _unreadable(result, exc)
    return result


def validate_value(document: Mapping[str, Any], name: str = "<document>") -> ValidationResult:
    """Validate a document already in memory (a dict as parsed from JSON)."""
    import orjson

    result = ValidationResult(name)
    try:
        raw = orjson.dumps(document)
    except TypeError as exc:
        result.add(Finding("error", "not-json", f"not a JSON value: {exc}", "$", None, name))
        return result
    with gc_paused():
        _validate_buffer(raw, name, result)
    return result


def _unreadable(result: ValidationResult, exc: SourceError) -> ValidationResult:
    result.unreadable = True
    result.add(Finding("error", exc.code, exc.message, "$", None, exc.target))
    return result


def _parse(buf: Any, file: str, result: ValidationResult) -> Document | None:
    try:
        return reader.parse(buf, file)
    except JSONDocumentError as exc:
        where = f" (byte {exc.offset})" if exc.offset is not None else ""
        result.add(
            Finding(
                "error", exc.code, exc.message + where, exc.path or "$", exc.rule, file, exc.record
            )
        )
        return None


def _validate_single(entry: Entry, result: ValidationResult) -> None:
    with entry.open() as buf:
        _validate_buffer(buf, entry.display, result)


def _validate_buffer(buf: Any, file: str, result: ValidationResult) -> None:
    doc = _parse(buf, file, result)
    if doc is None:
        return
    result.kind = doc.kind
    report = Reporter(result, file)
    try:
        if doc.kind == "memory-store":
            facts = _store(doc, result)
            companion_checks.check_embedding_refs(facts, None, report, context_known=False)
            result.facts["memory_store"] = facts.to_json()
        elif doc.kind == "conversation":
            companion_checks.check_conversation(doc.full(), report)
            result.facts["conversations"] = 1
        elif doc.kind == "embeddings":
            full = doc.full()
            companion_checks.check_embeddings(full, report)
            result.facts["embeddings"] = _embedding_facts(full)
        else:
            _unknown_kind(doc, report)
    finally:
        report.close()


def _store(doc: Document, result: ValidationResult) -> StoreFacts:
    validator = StoreValidator(doc, result)
    try:
        return validator.run()
    finally:
        validator.finish()


def _unknown_kind(doc: Document, report: Reporter) -> None:
    if doc.kind == "aimem-bundle":
        report(
            "error",
            "unsupported-kind",
            "this is an AIMEM bundle; this version of memvault validates PAM documents only",
            "$.format",
        )
        return
    declared = doc.header.get("schema")
    what = f'"schema" is {declared!r}' if "schema" in doc.header else 'there is no "schema" member'
    report(
        "error",
        "not-a-pam-document",
        f"not a PAM document: {what}; expected one of {_KNOWN_SCHEMAS}",
        "$.schema",
        "PAM §3.1",
    )


def _embedding_facts(doc: Mapping[str, Any]) -> dict[str, Any]:
    items = doc.get("embeddings")
    models: Counter[str] = Counter()
    for emb in items if isinstance(items, list) else []:
        if isinstance(emb, Mapping) and isinstance(emb.get("model"), str):
            models[f"{emb['model']} ({emb.get('dimensions')}d)"] += 1
    return {"count": len(items) if isinstance(items, list) else 0, "models": dict(models)}


def _validate_export(target: Target, result: ValidationResult) -> None:
    result.kind = f"export {target.kind}"
    store_entry = target.find(STORE_FILE)
    if store_entry is None:
        raise SourceError(
            str(target.path),
            f"no {STORE_FILE} in this {target.kind}; a PAM export needs it (PAM §2)",
            code="no-memory-store",
        )
    with store_entry.open() as buf:
        doc = _parse(buf, store_entry.display, result)
        if doc is None:
            return
        if doc.kind != "memory-store":
            report = Reporter(result, store_entry.display)
            _unknown_kind(doc, report)
            report.close()
            return
        facts = _store(doc, result)
    result.facts["memory_store"] = facts.to_json()
    store_report = Reporter(result, store_entry.display)
    embeddings = _companion(target.find(EMBEDDINGS_FILE), "embeddings", result)
    emb_report = None
    if embeddings is not None:
        emb_entry = target.find(EMBEDDINGS_FILE)
        assert emb_entry is not None
        emb_report = Reporter(result, emb_entry.display)
        companion_checks.check_embeddings(embeddings, emb_report)
        result.facts["embeddings"] = _embedding_facts(embeddings)
    companion_checks.check_embedding_refs(
        facts, embeddings, store_report, emb_report, context_known=True
    )
    store_report.close()
    if emb_report is not None:
        emb_report.close()
    result.facts["conversation_files"] = _conversations(target, facts, result)


def _companion(entry: Entry | None, kind: str, result: ValidationResult) -> dict[str, Any] | None:
    if entry is None:
        return None
    with entry.open() as buf:
        doc = _parse(buf, entry.display, result)
        if doc is None:
            return None
        if doc.kind != kind:
            report = Reporter(result, entry.display)
            report(
                "error",
                "wrong-document-kind",
                f"{PurePosixPath(entry.name).name} should be a PAM {kind} document, found "
                f"{doc.kind}",
                "$.schema",
                "PAM §2",
            )
            report.close()
            return None
        return doc.full()


def _conversations(target: Target, facts: StoreFacts, result: ValidationResult) -> int:
    """Check every conversation file the index references, and report unreferenced ones."""
    referenced: dict[str, Mapping[str, Any]] = {}
    store_file = target.find(STORE_FILE)
    store_report = Reporter(result, store_file.display if store_file else STORE_FILE)
    for cid, entry in facts.conversations.items():
        storage = entry.get("storage")
        if not isinstance(storage, Mapping) or storage.get("type") != "file":
            continue
        ref = storage.get("ref")
        if not isinstance(ref, str):
            continue
        name = PurePosixPath(ref.replace("\\", "/"))
        if name.is_absolute() or ".." in name.parts:
            store_report(
                "error",
                "storage-ref-escapes-export",
                f"storage.ref {ref!r} points outside the export",
                "$.conversations_index",
                "PAM §14.2",
                cid,
            )
            continue
        key = name.as_posix().removeprefix("./")
        referenced[key] = entry
        if target.find(key) is None:
            store_report(
                "warning",
                "conversation-file-missing",
                f"conversation {cid!r} references {ref!r}, which is not in the export",
                "$.conversations_index",
                "PAM §14.2",
                cid,
            )
    checked = 0
    for conv_entry in target.entries:
        if not conv_entry.name.startswith("conversations/"):
            continue
        index_entry = referenced.get(conv_entry.name)
        with conv_entry.open() as buf:
            doc = _parse(buf, conv_entry.display, result)
            if doc is None:
                continue
            report = Reporter(result, conv_entry.display)
            if doc.kind != "conversation":
                report(
                    "error",
                    "wrong-document-kind",
                    f"files under conversations/ are PAM conversation documents; found {doc.kind}",
                    "$.schema",
                    "PAM §2",
                )
            else:
                checked += 1
                companion_checks.check_conversation(
                    doc.full(),
                    report,
                    entry=index_entry,
                    ref=conv_entry.name,
                    store_version=facts.schema_version,
                )
                if index_entry is None:
                    report(
                        "warning",
                        "conversation-not-indexed",
                        "no conversations_index entry references this file",
                        "$",
                        "PAM §14.2",
                        None,
                    )
            report.close()
    store_report.close()
    return checked
