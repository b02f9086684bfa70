"""Validate a PAM memory-store document in one streaming pass, then check what refers to what.

The pass over `memories` does the per-memory work (schema, content hash, canonical bytes for
the integrity checksum, duplicate member names, temporal order, lifecycle) and keeps only a
few small facts per memory for the cross-reference checks that follow (ids, relations,
supersession, conversations index, embeddings, integrity, signature, incremental fields).

Severity follows the spec: a MUST broken is an error, a SHOULD broken is a warning.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any, Final

from memvault import canonical
from memvault.bulk import gc_paused
from memvault.findings import Finding, Severity, ValidationResult, counted
from memvault.formats.pam import memory_pass, schema
from memvault.formats.pam.memory_pass import MemoryFact
from memvault.formats.pam.reader import Document
from memvault.jsonread import JSONDocumentError
from memvault.model import parse_timestamp

SUPPORTED_MAJOR: Final = 1
IMPLEMENTED_VERSION: Final = (1, 0)
_VERSION = re.compile(r"^([0-9]+)\.([0-9]+)")
#: After this many findings of one rule, further ones are counted, not listed.
_PER_RULE_LIMIT: Final = 50
#: Schema findings a newer minor version can legitimately cause (new optional members, new
#: enum values).
_MINOR_ADDITIONS: Final = frozenset({"schema-additional-properties", "schema-enum"})


@dataclass(slots=True)
class StoreFacts:
    """Facts about a memory-store, for cross-file checks and for `inspect`."""

    memories: dict[str, MemoryFact] = field(default_factory=dict)
    incremental: bool = False
    #: some memories could not be read: references to them are only warnings
    incomplete: bool = False
    schema_version: str | None = None
    counts: memory_pass.MemoryCounts = field(default_factory=memory_pass.MemoryCounts)
    relations_by_type: Counter[str] = field(default_factory=Counter)
    conversations: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    integrity: str = "absent"
    signature: str = "absent"

    @property
    def unresolved_severity(self) -> Severity:
        """A reference to a memory not in the document is an error in a complete full export;
        in a delta it may point into the base, and if some memories could not be read it may
        point at one of those — then it is a warning."""
        return "warning" if self.incremental or self.incomplete else "error"

    def to_json(self) -> dict[str, Any]:
        return {
            "memories": len(self.memories),
            **self.counts.to_json(),
            "relations": dict(self.relations_by_type),
            "conversations": len(self.conversations),
            "integrity": self.integrity,
            "signature": self.signature,
            "export_type": "incremental" if self.incremental else "full",
            "schema_version": self.schema_version,
        }


class Reporter:
    """Adds findings for one file, capping repeats of one rule so output stays readable."""

    def __init__(self, result: ValidationResult, file: str) -> None:
        self.result = result
        self.file = file
        self.counts: Counter[str] = Counter()
        #: set for a document of a newer 1.x: unknown members and enum values may be that
        #: version's backward-compatible additions (§22.3), so they are warnings
        self.newer_minor = False

    def __call__(
        self,
        severity: Severity,
        code: str,
        message: str,
        path: str = "$",
        section: str | None = None,
        record: str | None = None,
    ) -> None:
        if self.newer_minor and severity == "error" and code in _MINOR_ADDITIONS:
            severity = "warning"
            message += " (accepted: may be an addition of the newer 1.x version, PAM §22.3)"
        self.counts[code] += 1
        if self.counts[code] <= _PER_RULE_LIMIT:
            self.result.add(Finding(severity, code, message, path, section, self.file, record))

    def add_all(self, findings: Iterable[Finding]) -> None:
        for f in findings:
            self(f.severity, f.code, f.message, f.path, f.section, f.record)

    def close(self) -> None:
        for code, count in self.counts.items():
            if count > _PER_RULE_LIMIT:
                severity: Severity = next(
                    (f.severity for f in self.result.findings if f.code == code), "warning"
                )
                self.result.add(
                    Finding(
                        severity,
                        code,
                        f"{count - _PER_RULE_LIMIT} more findings of this rule not shown "
                        f"({count} in all)",
                        "$",
                        None,
                        self.file,
                    )
                )


def check_schema_version(value: Any, report: Reporter, what: str) -> bool:
    """§22.3: accept 1.x, refuse another major version. Returns False to stop validating."""
    if not isinstance(value, str):
        return True  # the schema reports a missing or mistyped version
    match = _VERSION.match(value)
    if match is None:
        return True
    major, minor = int(match.group(1)), int(match.group(2))
    if major != SUPPORTED_MAJOR:
        report(
            "error",
            "unsupported-major-version",
            f"{what} is schema_version {value!r}, PAM major version {major}; memvault reads "
            f"major version {SUPPORTED_MAJOR} (1.x) and a major version change is breaking",
            "$.schema_version",
            "PAM §22.3",
        )
        return False
    if (major, minor) > IMPLEMENTED_VERSION:
        report.newer_minor = True
        report(
            "warning",
            "newer-minor-version",
            f"schema_version {value!r} is newer than the 1.0 memvault implements; 1.x additions "
            "are backward compatible, but members added after 1.0 are reported by the schema",
            "$.schema_version",
            "PAM §22.3",
        )
    return True


def _ts(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        return None


def _is_uuid4(value: Any) -> bool:
    return isinstance(value, str) and memory_pass._UUID4.fullmatch(value) is not None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _get(mapping: Any, key: str) -> Any:
    return mapping.get(key) if isinstance(mapping, Mapping) else None


class StoreValidator:
    """Runs every check on one memory-store document."""

    def __init__(self, doc: Document, result: ValidationResult) -> None:
        self.doc = doc
        self.header = doc.header
        self.file = doc.file
        self.report = Reporter(result, doc.file)
        self.facts = StoreFacts()
        self._pass: memory_pass.PassOutput | None = None
        self._checksum_computable = True
        self._non_uuid_ids = 0
        self._since = _ts(self.header.get("since"))
        #: memory ids by provenance.conversation_ref, and the facts that have one
        self._by_conversation: dict[str, list[str]] = {}
        self._with_conversation: list[MemoryFact] = []

    # -- driver ---------------------------------------------------------------------------

    def run(self) -> StoreFacts:
        """Every check, with the cyclic garbage collector paused: the checks build hundreds
        of thousands of acyclic objects (facts, indexes), and collections triggered by them
        would walk them again and again."""
        with gc_paused():
            return self._run()

    def _run(self) -> StoreFacts:
        header = self.header
        self.facts.schema_version = _str_or_none(header.get("schema_version"))
        self.facts.incremental = header.get("export_type") == "incremental"
        if not check_schema_version(header.get("schema_version"), self.report, "this memory-store"):
            return self.facts
        self._memories_pass()
        # The checksum (hashing ~100 MB for a large store, without the GIL) runs beside the
        # checks that follow; its findings are reported in their place all the same.
        checksum = self._start_checksum()
        self._check_header_schema()
        self._check_ids_are_uuids()
        integrity_at = len(self.report.result.findings)
        self._check_relations()
        self._check_supersession_targets()
        self._check_conversations_index()
        self._check_export_fields()
        self._check_integrity(checksum, integrity_at)
        self._check_signature()
        return self.facts

    def _start_checksum(self) -> Callable[[], str] | None:
        """The memories' spec-literal checksum, computed in a thread: a function waiting for
        it (None when no checksum can be computed)."""
        memories = self._pass
        integrity = self.header.get("integrity")
        declared = integrity.get("checksum") if isinstance(integrity, Mapping) else None
        if memories is None or not self._checksum_computable or not isinstance(declared, str):
            return None
        pool = ThreadPoolExecutor(1, thread_name_prefix="memvault-checksum")
        future = pool.submit(memories.checksum)
        pool.shutdown(wait=False)  # the thread ends with the one task
        return future.result

    def finish(self) -> None:
        self.report.close()

    # -- header ---------------------------------------------------------------------------

    def _check_header_schema(self) -> None:
        doc = dict(self.header)
        if self.doc.has_memories:
            # Memory items are validated in batches during the pass; only a `memories` that is
            # not an array is left for the document schema to report.
            value = self.doc.memories_value
            streamed = self.doc.memory_spans is not None or isinstance(value, list)
            doc["memories"] = [] if streamed else value
        findings = schema.validate_document("memory-store", doc, file=self.file)
        self.report.add_all(findings)

    # -- the per-memory pass ---------------------------------------------------------------

    def _complete_header(self) -> None:
        try:
            self.doc.complete_header()
        except JSONDocumentError as exc:
            at = f" (byte {exc.offset})" if exc.offset is not None else ""
            self.report(
                "error", exc.code, exc.message + at, exc.path or "$", exc.rule, exc.record
            )  # fmt: skip
            self.doc.deferred.clear()

    def _while_waiting(self) -> None:
        """Work for the time a large store's second half is checked by a worker process."""
        self._complete_header()
        # The signature checks need these modules later; importing them takes a while.
        import memvault.crypto.signing  # noqa: F401

    def _memories_pass(self) -> None:
        if self.doc.memory_spans is None and not isinstance(self.doc.memories_value, list):
            self._checksum_computable = False
            self._complete_header()
            return
        since = self.header.get("since")
        ctx = memory_pass.PassContext(
            self.file, self.facts.incremental, _ts(since), since if isinstance(since, str) else None
        )
        out = memory_pass.run(self.doc, ctx, while_waiting=self._while_waiting)
        self.report.add_all(out.findings)
        self._pass = out
        self._checksum_computable = out.checksum_computable
        self.facts.incomplete = out.incomplete
        self._non_uuid_ids = out.non_uuid_ids
        facts = self.facts
        facts.counts = out.counts
        memories = facts.memories
        repeated = memory_pass.index_facts(
            out.facts, memories, self._by_conversation, self._with_conversation
        )
        for i in repeated:
            fact = MemoryFact._make(out.facts[i])
            first = memories[fact.id]
            self.report(
                "error",
                "duplicate-memory-id",
                f"memory id {fact.id!r} is used by memories[{first.position}] and "
                f"memories[{fact.position}]; ids must be unique",
                f"$.memories[{fact.position}].id",
                "PAM §4.1",
                fact.id,
            )

    # -- after the pass -------------------------------------------------------------------

    def _check_ids_are_uuids(self) -> None:
        if self._non_uuid_ids:
            self.report(
                "warning",
                "memory-id-not-uuid",
                f"{self._non_uuid_ids} of {len(self.facts.memories)} memory ids are not UUID v4",
                "$.memories",
                "PAM §4.1",
            )

    def _check_integrity(self, checksum: Callable[[], str] | None, at: int) -> None:
        """§15.2-§15.4, its findings placed at position `at` of the result's (where they
        would be had the checks run in order)."""
        findings = self.report.result.findings
        later = findings[at:]
        del findings[at:]
        try:
            self._integrity_findings(checksum)
        finally:
            findings.extend(later)

    def _integrity_findings(self, checksum: Callable[[], str] | None) -> None:
        integrity = self.header.get("integrity")
        count = self.doc.memory_count
        if not isinstance(integrity, Mapping):
            self.facts.integrity = "absent"
            return
        total = integrity.get("total_memories")
        if isinstance(total, int) and not isinstance(total, bool) and total != count:
            self.report(
                "error",
                "total-memories-mismatch",
                f"integrity.total_memories is {total} but the memories array has {count}",
                "$.integrity.total_memories",
                "PAM §15.4",
            )
        declared = integrity.get("checksum")
        if not isinstance(declared, str):
            self.facts.integrity = "invalid"
            return
        if not self._checksum_computable:
            self.facts.integrity = "not computed"
            self.report(
                "warning",
                "checksum-not-computed",
                "integrity.checksum was not checked because some memories are malformed",
                "$.integrity.checksum",
                "PAM §15.2",
            )
            return
        assert checksum is not None
        actual = checksum()
        if actual == declared:
            self.facts.integrity = "ok"
            return
        if self._null_stripped_checksum() == declared:
            self.facts.integrity = "null-stripped"
            self.report(
                "warning",
                "checksum-null-stripped",
                "integrity.checksum matches only when null members are removed from the memories "
                "before canonicalization (as the portable-ai-memory 1.0.0 SDK computes it); the "
                "spec hashes the memories exactly as they appear, explicit nulls included. "
                f"Spec-literal checksum: {actual}",
                "$.integrity.checksum",
                "PAM §15.2",
            )
            return
        self.facts.integrity = "mismatch"
        self.report(
            "error",
            "checksum-mismatch",
            f"integrity.checksum does not match the memories: declared {declared}, computed "
            f"{actual} (RFC 8785 of the memories sorted by id)",
            "$.integrity.checksum",
            "PAM §15.4",
        )

    @staticmethod
    def _checksum(items: list[tuple[str, bytes]]) -> str:
        items.sort(key=itemgetter(0))
        return canonical.checksum_of_canonical(canon for _, canon in items)

    def _null_stripped_checksum(self) -> str | None:
        items: list[tuple[str, bytes]] = []
        try:
            for _, _, memory in self.doc.iter_memories(check_duplicates=False):
                items.append((memory["id"], canonical.jcs_dumps(canonical.strip_nulls(memory))))
        except (JSONDocumentError, canonical.CanonicalizationError, KeyError, TypeError):
            return None
        return self._checksum(items)

    def _check_relations(self) -> None:
        relations = self.header.get("relations")
        if not isinstance(relations, list):
            return
        memories = self.facts.memories
        by_type = self.facts.relations_by_type
        seen: dict[str, int] = {}
        # Runs once per relation of stores with tens of thousands: paths and messages are
        # only built when there is something to report.
        for index, relation in enumerate(relations):
            if type(relation) is not dict and not isinstance(relation, Mapping):
                continue
            rid = relation.get("id")
            rtype = relation.get("type")
            if isinstance(rtype, str):
                by_type[rtype] += 1
            if isinstance(rid, str):
                if rid in seen:
                    self.report(
                        "error",
                        "duplicate-relation-id",
                        f"relation id {rid!r} is used by relations[{seen[rid]}] and "
                        f"relations[{index}]",
                        f"$.relations[{index}].id",
                        "PAM §13.1",
                        rid,
                    )
                else:
                    seen[rid] = index
            source, target = relation.get("from"), relation.get("to")
            if (
                (isinstance(source, str) and source not in memories)
                or (isinstance(target, str) and target not in memories)
                or (source == target and isinstance(target, str))
            ):
                self._relation_ends(index, relation, rid)

    def _relation_ends(self, index: int, relation: Mapping[str, Any], rid: Any) -> None:
        """§13.1: both ends name memories of this export, and not the same one."""
        path = f"$.relations[{index}]"
        severity = self.facts.unresolved_severity
        for end in ("from", "to"):
            target = relation.get(end)
            if isinstance(target, str) and target not in self.facts.memories:
                self.report(
                    severity,
                    "relation-endpoint-unresolved",
                    f"relation {rid!r} {end!r} names memory {target!r}, which is not in this "
                    + (
                        "delta (it may be in the base export)"
                        if self.facts.incremental
                        else "export"
                    ),
                    f"{path}.{end}",
                    "PAM §13.1",
                    target,
                )
        if relation.get("from") == relation.get("to") and isinstance(relation.get("to"), str):
            self.report(
                "warning",
                "relation-self-loop",
                "relation links a memory to itself",
                path,
                "PAM §13.1",
                relation.get("to"),
            )

    def _check_supersession_targets(self) -> None:
        severity = self.facts.unresolved_severity
        for fact in self.facts.memories.values():
            target = fact.superseded_by
            if target is not None and target != fact.id and target not in self.facts.memories:
                self.report(
                    severity,
                    "superseded-by-unresolved",
                    f"temporal.superseded_by names memory {target!r}, which is not in this "
                    + ("delta" if self.facts.incremental else "export"),
                    f"$.memories[{fact.position}].temporal.superseded_by",
                    "PAM §7",
                    fact.id,
                )

    def _check_conversations_index(self) -> None:
        index = self.header.get("conversations_index")
        entries = index if isinstance(index, list) else []
        by_conversation = self._by_conversation
        missing_severity = self.facts.unresolved_severity
        conversations = self.facts.conversations
        no_memories: list[str] = []
        for position, entry in enumerate(entries):
            # The usual entry: derived_memories lists exactly the memories that name it, in
            # document order (every check below passes).
            if (
                type(entry) is dict
                and type(cid := entry.get("id")) is str
                and cid not in conversations
                and entry.get("derived_memories") == by_conversation.get(cid, no_memories)
            ):
                conversations[cid] = entry
                continue
            if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
                continue
            cid = entry["id"]
            path = f"$.conversations_index[{position}]"
            if cid in self.facts.conversations:
                self.report(
                    "error",
                    "duplicate-conversation-id",
                    f"conversation id {cid!r} appears twice in conversations_index",
                    f"{path}.id",
                    "PAM §14",
                    cid,
                )
                continue
            self.facts.conversations[cid] = entry
            derived = entry.get("derived_memories")
            listed = [d for d in derived if isinstance(d, str)] if isinstance(derived, list) else []
            listed_set = set(listed)
            if len(listed_set) != len(listed):
                self.report(
                    "warning",
                    "derived-memories-repeated",
                    "derived_memories lists a memory more than once",
                    f"{path}.derived_memories",
                    "PAM §14.1",
                    cid,
                )
            expected = by_conversation.get(cid, [])
            if len(listed) == len(expected) and listed_set.issuperset(expected):
                continue  # exactly the memories whose conversation_ref names it (§14.1)
            for mid in expected:
                if mid not in listed_set:
                    self.report(
                        "error",
                        "derived-memories-missing",
                        f"memory {mid!r} has provenance.conversation_ref {cid!r} but is not in "
                        "that conversation's derived_memories",
                        f"{path}.derived_memories",
                        "PAM §14.1",
                        mid,
                    )
            for mid in listed:
                listed_fact = self.facts.memories.get(mid)
                if listed_fact is None:
                    self.report(
                        missing_severity,
                        "derived-memory-unresolved",
                        f"derived_memories names memory {mid!r}, which is not in this "
                        + ("delta" if self.facts.incremental else "export"),
                        f"{path}.derived_memories",
                        "PAM §14.1",
                        mid,
                    )
                elif listed_fact.conversation_ref != cid:
                    self.report(
                        "error",
                        "derived-memories-inconsistent",
                        f"derived_memories lists memory {mid!r}, whose provenance.conversation_ref "
                        f"is {listed_fact.conversation_ref!r}, not {cid!r}",
                        f"{path}.derived_memories",
                        "PAM §14.1",
                        mid,
                    )
        self._check_platforms_against_index()
        for cid, mids in by_conversation.items():
            if cid not in self.facts.conversations:
                first = self.facts.memories[mids[0]]
                self.report(
                    "warning",
                    "conversation-ref-unresolved",
                    f"provenance.conversation_ref {cid!r} "
                    f"({counted(len(mids), 'memory', 'memories')}) has no entry in "
                    "conversations_index",
                    f"$.memories[{first.position}].provenance.conversation_ref",
                    "PAM §14.1",
                    first.id,
                )

    def _check_platforms_against_index(self) -> None:
        """§11.4: one platform namespace across provenance.platform and the index."""
        conversations = self.facts.conversations
        platform_of: dict[str, str] = {}
        for cid, entry in conversations.items():
            platform = entry.get("platform")
            if isinstance(platform, str):
                platform_of[cid] = platform
        if not platform_of:
            return
        # Only memories with a conversation_ref can match an entry, unless one has the id "".
        facts = self.facts.memories.values() if "" in conversations else self._with_conversation
        differing = [
            fact
            for fact in facts
            if fact.platform is not None
            and platform_of.get(fact.conversation_ref or "", fact.platform) != fact.platform
        ]
        for fact in differing:
            platform = platform_of[fact.conversation_ref or ""]
            self.report(
                "warning", "platform-differs-from-conversation",
                f"provenance.platform {fact.platform!r} differs from the platform "
                f"{platform!r} of conversation {fact.conversation_ref!r}; the same "
                "identifier namespace is used for both",
                f"$.memories[{fact.position}].provenance.platform", "PAM §11.4", fact.id,
            )  # fmt: skip

    def _check_export_fields(self) -> None:
        header = self.header
        owner_id = _get(header.get("owner"), "id")
        if isinstance(owner_id, str) and not _is_uuid4(owner_id):
            self.report(
                "warning", "owner-id-not-uuid",
                f"owner.id {owner_id!r} is not a UUID v4 (it should be, or another stable id)",
                "$.owner.id", "PAM §3.1",
            )  # fmt: skip
        export_id = header.get("export_id")
        if isinstance(export_id, str) and not _is_uuid4(export_id):
            self.report(
                "warning",
                "export-id-not-uuid",
                f"export_id {export_id!r} is not a UUID v4",
                "$.export_id",
                "PAM §3.2",
            )
        if self.facts.incremental:
            for name in ("base_export_id", "since"):
                if header.get(name) is None:
                    self.report(
                        "warning",
                        f"incremental-without-{name.replace('_', '-')}",
                        f"incremental export without {name}; a consumer cannot tell what this "
                        "delta applies to",
                        f"$.{name}",
                        "PAM §16.2",
                    )
        else:
            for name in ("base_export_id", "since"):
                if header.get(name) is not None:
                    self.report(
                        "warning",
                        "full-export-with-delta-field",
                        f"{name} is set on a full export; it only has meaning for "
                        "export_type incremental",
                        f"$.{name}",
                        "PAM §16.2",
                    )

    def _check_signature(self) -> None:
        """§18.4: verify the signature (memvault.crypto.signing) and report what it found —
        a signature that does not verify is a warning (§21.4, `VERIFICATION_FAILURES`), a
        broken MUST of §18 an error; an absent or null one is no finding (§18.5)."""
        from memvault.crypto.signing import (
            VERIFICATION_FAILURES,
            check_owner_did,
            verify_signature,
        )

        if self.header.get("signature") is None:
            self.facts.signature = "absent"
            for problem in check_owner_did(self.header):  # §17.2: a did:key must resolve
                self.report(
                    problem.severity, problem.code, problem.message, problem.path, problem.section
                )
            return
        checksum = {"ok": True, "null-stripped": True, "mismatch": False}
        result = verify_signature(self.header, checksum_verified=checksum.get(self.facts.integrity))
        self.facts.signature = result.status
        for problem in result.problems:
            failed = problem.code in VERIFICATION_FAILURES
            self.report(
                "warning" if failed else problem.severity,
                problem.code,
                problem.message,
                problem.path,
                problem.section,
            )
