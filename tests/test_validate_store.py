"""Deep checks on a memory-store (PAM §3–§19, §21–§22): each rule is an error where the spec
says MUST and a warning where it says SHOULD, and names the record and the section."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from memvault.canonical import integrity_checksum, strip_nulls
from memvault.formats.pam.validate import validate_path
from pamdocs import OFFICIAL_EXAMPLES, by_code, lone_store, official, only, reseal, write

OFFICIAL_STORE = OFFICIAL_EXAMPLES / "example-memory-store.json"


def check(tmp_path: Path, doc: dict[str, Any]) -> Any:
    return validate_path(write(tmp_path, doc))


def test_sample_store_is_clean(tmp_path: Path) -> None:
    result = check(tmp_path, lone_store())
    assert result.valid and not result.findings, result.findings


def test_pam_6_content_hash_tampered_names_memory(tmp_path: Path) -> None:
    doc = reseal(lone_store())
    doc["memories"][2]["content"] = doc["memories"][2]["content"] + " Always."
    result = check(tmp_path, reseal(doc))
    finding = only(result, "content-hash-mismatch")
    assert finding.severity == "error" and finding.section == "PAM §6"
    assert finding.record == doc["memories"][2]["id"]
    assert finding.path == "$.memories[2].content_hash"
    assert result.exit_code == 1


def test_pam_6_content_hash_uses_normalized_content(tmp_path: Path) -> None:
    """§6.1: case, surrounding and repeated whitespace and NFD/NFC do not change the hash."""
    doc = lone_store()
    memory = doc["memories"][3]
    memory["content"] = "  " + memory["content"].upper().replace(" ", "   ") + "\n"
    result = check(tmp_path, reseal(doc))
    assert not by_code(result, "content-hash-mismatch")


def test_pam_15_4_checksum_one_character_changed(tmp_path: Path) -> None:
    doc = lone_store()
    checksum = doc["integrity"]["checksum"]
    doc["integrity"]["checksum"] = checksum[:-1] + ("0" if checksum[-1] != "0" else "1")
    result = check(tmp_path, doc)
    finding = only(result, "checksum-mismatch")
    assert finding.severity == "error" and finding.section == "PAM §15.4"
    assert integrity_checksum(doc["memories"]) in finding.message
    assert result.exit_code == 1


def test_pam_15_4_checksum_findings_keep_their_place(tmp_path: Path) -> None:
    """The checksum is computed beside the relation checks; its findings still come before
    theirs, in the order the checks are listed (§15.4 before §13.1)."""
    doc = lone_store()
    checksum = doc["integrity"]["checksum"]
    doc["integrity"]["checksum"] = checksum[:-1] + ("0" if checksum[-1] != "0" else "1")
    doc["relations"][1]["to"] = "00000000-0000-4000-8000-000000000000"
    codes = [f.code for f in check(tmp_path, doc).findings]
    assert codes.index("checksum-mismatch") < codes.index("relation-endpoint-unresolved")
    assert codes.count("checksum-mismatch") == 1


def test_pam_15_4_total_memories_must_equal_length(tmp_path: Path) -> None:
    doc = lone_store()
    doc["integrity"]["total_memories"] += 1
    finding = only(check(tmp_path, doc), "total-memories-mismatch")
    assert finding.severity == "error" and finding.section == "PAM §15.4"


def test_pam_15_4_canonicalization_absent_means_rfc8785(tmp_path: Path) -> None:
    doc = lone_store()
    del doc["integrity"]["canonicalization"]
    result = check(tmp_path, doc)
    assert result.valid and result.facts["memory_store"]["integrity"] == "ok"


def test_pam_15_2_checksum_includes_explicit_nulls(tmp_path: Path) -> None:
    """The checksum is over the memories exactly as they appear: dropping a null changes it."""
    doc = lone_store()
    del doc["memories"][0]["summary"]
    result = check(tmp_path, doc)
    assert only(result, "checksum-mismatch").severity == "error"


def test_pam_15_2_null_stripped_checksum_gets_specific_warning(tmp_path: Path) -> None:
    """A checksum computed on a null-stripped dump (portable-ai-memory 1.0.0 SDK) is named as
    such, not reported as a bare mismatch."""
    doc = lone_store()
    doc["integrity"]["checksum"] = integrity_checksum(strip_nulls(doc["memories"]))
    result = check(tmp_path, doc)
    finding = only(result, "checksum-null-stripped")
    assert finding.severity == "warning" and "null" in finding.message
    assert not by_code(result, "checksum-mismatch")
    assert result.exit_code == 0
    assert result.facts["memory_store"]["integrity"] == "null-stripped"


def test_pam_13_1_relation_target_unresolved(tmp_path: Path) -> None:
    doc = lone_store()
    doc["relations"][1]["to"] = "00000000-0000-4000-8000-000000000000"
    finding = only(check(tmp_path, doc), "relation-endpoint-unresolved")
    assert finding.severity == "error" and finding.section == "PAM §13.1"
    assert finding.record == "00000000-0000-4000-8000-000000000000"
    assert finding.path == "$.relations[1].to"


def test_pam_13_1_relation_ids_unique(tmp_path: Path) -> None:
    doc = lone_store()
    doc["relations"][2]["id"] = doc["relations"][0]["id"]
    assert only(check(tmp_path, doc), "duplicate-relation-id").severity == "error"


def test_pam_5_1_custom_type_on_standard_type(tmp_path: Path) -> None:
    doc = lone_store()
    doc["memories"][0]["custom_type"] = "nickname"
    result = check(tmp_path, reseal(doc))
    finding = only(result, "schema-constant")
    assert finding.section == "PAM §5.1" and finding.record == doc["memories"][0]["id"]
    assert "custom_type must be null" in finding.message
    assert result.exit_code == 1


def test_pam_5_1_custom_requires_custom_type(tmp_path: Path) -> None:
    doc = lone_store()
    custom = next(m for m in doc["memories"] if m["type"] == "custom")
    custom["custom_type"] = None
    result = check(tmp_path, reseal(doc))
    assert any(f.section == "PAM §5.1" and f.record == custom["id"] for f in result.errors)


def test_pam_19_4_any_custom_type_accepted(tmp_path: Path) -> None:
    """§19.4: a custom_type is accepted whatever its registry status (here: unregistered)."""
    doc = lone_store()
    custom = next(m for m in doc["memories"] if m["type"] == "custom")
    custom["custom_type"] = "x-never-registered-anywhere"
    result = check(tmp_path, reseal(doc))
    assert result.valid and not result.findings


def test_pam_4_1_memory_ids_unique(tmp_path: Path) -> None:
    doc = lone_store()
    doc["memories"][5]["id"] = doc["memories"][4]["id"]
    finding = only(check(tmp_path, reseal(doc)), "duplicate-memory-id")
    assert finding.severity == "error" and "memories[4]" in finding.message


def test_pam_4_1_ids_should_be_uuid(tmp_path: Path) -> None:
    doc = lone_store()
    old = doc["memories"][0]["id"]
    doc["memories"][0]["id"] = "mem-0001"
    for relation in doc["relations"]:
        for end in ("from", "to"):
            if relation[end] == old:
                relation[end] = "mem-0001"
    for entry in doc["conversations_index"]:
        entry["derived_memories"] = [
            "mem-0001" if m == old else m for m in entry["derived_memories"]
        ]
    result = check(tmp_path, reseal(doc))
    assert only(result, "memory-id-not-uuid").severity == "warning"
    assert result.valid


def test_pam_7_superseded_by_unresolved(tmp_path: Path) -> None:
    doc = lone_store()
    old = next(m for m in doc["memories"] if m["status"] == "superseded")
    old["temporal"]["superseded_by"] = "11111111-2222-4333-8444-555555555555"
    finding = only(check(tmp_path, reseal(doc)), "superseded-by-unresolved")
    assert finding.severity == "error" and finding.record == old["id"]


def test_pam_7_superseded_should_name_replacement(tmp_path: Path) -> None:
    doc = lone_store()
    old = next(m for m in doc["memories"] if m["status"] == "superseded")
    old["temporal"]["superseded_by"] = None
    finding = only(check(tmp_path, reseal(doc)), "superseded-without-replacement")
    assert finding.severity == "warning" and finding.section == "PAM §7"


def test_pam_7_superseded_by_itself(tmp_path: Path) -> None:
    doc = lone_store()
    old = next(m for m in doc["memories"] if m["status"] == "superseded")
    old["temporal"]["superseded_by"] = old["id"]
    assert only(check(tmp_path, reseal(doc)), "superseded-by-itself").severity == "error"


def test_pam_7_superseded_by_on_active_memory(tmp_path: Path) -> None:
    doc = lone_store()
    active = doc["memories"][0]
    active["temporal"]["superseded_by"] = doc["memories"][1]["id"]
    finding = only(check(tmp_path, reseal(doc)), "superseded-by-but-not-superseded")
    assert finding.severity == "warning"


def test_pam_4_1_temporal_order(tmp_path: Path) -> None:
    doc = lone_store()
    temporal = doc["memories"][0]["temporal"]
    temporal["updated_at"] = "2020-01-01T00:00:00Z"
    temporal["valid_until"] = "2020-01-01T00:00:00+02:00"
    result = check(tmp_path, reseal(doc))
    assert only(result, "updated-before-created").severity == "warning"
    assert only(result, "validity-reversed").severity == "warning"
    assert result.valid


def test_pam_14_1_derived_memories_must_match_provenance(tmp_path: Path) -> None:
    doc = lone_store()
    entry = doc["conversations_index"][0]
    dropped = entry["derived_memories"].pop()
    result = check(tmp_path, doc)
    finding = only(result, "derived-memories-missing")
    assert finding.severity == "error" and finding.record == dropped
    assert finding.section == "PAM §14.1"


def test_pam_14_1_derived_memory_from_other_conversation(tmp_path: Path) -> None:
    doc = lone_store()
    other = doc["conversations_index"][1]["derived_memories"][0]
    doc["conversations_index"][0]["derived_memories"].append(other)
    assert only(check(tmp_path, doc), "derived-memories-inconsistent").record == other


def test_pam_14_1_derived_memory_unknown(tmp_path: Path) -> None:
    doc = lone_store()
    doc["conversations_index"][0]["derived_memories"].append("no-such-memory")
    assert only(check(tmp_path, doc), "derived-memory-unresolved").severity == "error"


def test_pam_14_conversation_ids_unique(tmp_path: Path) -> None:
    doc = lone_store()
    doc["conversations_index"].append(dict(doc["conversations_index"][0], derived_memories=[]))
    assert only(check(tmp_path, doc), "duplicate-conversation-id").severity == "error"


def test_pam_14_1_conversation_ref_without_index_entry(tmp_path: Path) -> None:
    doc = lone_store()
    doc["conversations_index"] = []
    result = check(tmp_path, doc)
    assert {f.severity for f in by_code(result, "conversation-ref-unresolved")} == {"warning"}
    assert result.valid


def test_pam_12_1_lone_store_embedding_refs_reported_unchecked(tmp_path: Path) -> None:
    result = validate_path(OFFICIAL_STORE)
    assert only(result, "embedding-refs-not-checked").severity == "warning"


def test_pam_21_1_non_exportable_memory_in_export(tmp_path: Path) -> None:
    doc = lone_store()
    doc["memories"][1]["access"]["exportable"] = False
    finding = only(check(tmp_path, reseal(doc)), "non-exportable-memory-exported")
    assert finding.severity == "error" and finding.section == "PAM §21.1"


def test_pam_9_grants_on_private_memory(tmp_path: Path) -> None:
    doc = lone_store()
    memory = next(m for m in doc["memories"] if m["access"]["visibility"] == "private")
    memory["access"]["shared_with"] = [{"entity": "agent-x", "permissions": ["read"]}]
    assert only(check(tmp_path, reseal(doc)), "grants-on-private-memory").severity == "warning"


def test_pam_18_5_signed_at_before_export_date(tmp_path: Path) -> None:
    doc = official("example-memory-store.json")
    doc["signature"]["signed_at"] = "2026-02-15T21:59:59Z"
    finding = only(check(tmp_path, doc), "signed-before-export")
    assert finding.severity == "error" and finding.section == "PAM §18.5"


def test_pam_18_3_signature_requires_export_id(tmp_path: Path) -> None:
    doc = official("example-memory-store.json")
    doc["export_id"] = None
    result = check(tmp_path, doc)
    assert any(f.section == "PAM §18.3" and f.path == "$.export_id" for f in result.errors)


def test_pam_18_3_signature_requires_integrity(tmp_path: Path) -> None:
    doc = official("example-memory-store.json")
    del doc["integrity"]
    assert only(check(tmp_path, doc), "signature-without-integrity").severity == "error"


def test_pam_18_5_key_id_should_be_owner_did_url(tmp_path: Path) -> None:
    """For an owner DID that memvault does not resolve (did:web), a SHOULD: a warning."""
    doc = official("example-memory-store.json")
    doc["owner"]["did"] = "did:web:example.com:user:alice"
    doc["signature"]["key_id"] = "did:key:zSomeoneElse#key-1"
    assert only(check(tmp_path, doc), "key-id-not-owner-did-url").severity == "warning"


def test_pam_18_5_key_id_of_a_did_key_owner_must_be_its_verification_method(
    tmp_path: Path,
) -> None:
    """For a did:key owner the DID Document is known offline: a key_id that is not its one
    verification method names a key that is not the owner's. The signature is then not the
    owner's: a warning in validate, as every failed verification (§21.4); verify and import
    refuse it (docs/decisions.md)."""
    doc = official("example-memory-store.json")
    doc["signature"]["key_id"] = "did:key:zSomeoneElse#key-1"
    finding = only(check(tmp_path, doc), "key-id-not-owner-key")
    assert (finding.severity, finding.section) == ("warning", "PAM §18.5")


def test_pam_18_4_placeholder_signature_does_not_verify(tmp_path: Path) -> None:
    """The official example's signature is a placeholder: it does not verify, which §21.4
    wants "a warning to the user, not a silent failure" — so the example is valid, with that
    warning, and the signature status says so."""
    result = validate_path(OFFICIAL_STORE)
    finding = only(result, "signature-invalid")
    assert finding.severity == "warning" and "does not verify" in finding.message
    assert finding.section == "PAM §18.4"
    assert result.errors == [] and result.exit_code == 0
    assert result.facts["memory_store"]["signature"] == "invalid: does not verify"


def test_pam_16_2_incremental_should_name_base_and_since(tmp_path: Path) -> None:
    doc = lone_store()
    doc["export_type"] = "incremental"
    result = check(tmp_path, doc)
    assert by_code(result, "incremental-without-base-export-id")
    assert by_code(result, "incremental-without-since")
    assert result.valid


def test_pam_16_2_incremental_memories_after_since(tmp_path: Path) -> None:
    doc = lone_store()
    doc.update(
        export_type="incremental",
        base_export_id="8c0b5e3a-2f1d-4b6a-9e7c-3d2a1b0c9f8e",
        since="2025-11-02T18:00:00Z",
    )
    result = check(tmp_path, doc)
    found = by_code(result, "incremental-memory-before-since")
    assert len(found) == len(doc["memories"]) and all(f.severity == "warning" for f in found)


def test_pam_16_3_delta_may_reference_base_memories(tmp_path: Path) -> None:
    """In an incremental export, references to memories of the base are warnings, not errors."""
    doc = lone_store()
    doc.update(export_type="incremental", base_export_id="8c0b5e3a-2f1d-4b6a-9e7c-3d2a1b0c9f8e")
    doc["since"] = "2024-01-01T00:00:00Z"
    doc["relations"][0]["to"] = "00000000-0000-4000-8000-00000000base"
    result = check(tmp_path, doc)
    assert only(result, "relation-endpoint-unresolved").severity == "warning"
    assert result.valid


def test_pam_16_2_full_export_with_delta_fields(tmp_path: Path) -> None:
    doc = lone_store()
    doc["since"] = "2025-01-01T00:00:00Z"
    assert only(check(tmp_path, doc), "full-export-with-delta-field").severity == "warning"


@pytest.mark.parametrize("version", ["2.0", "0.9", "10.1"])
def test_pam_22_3_other_major_version_refused(tmp_path: Path, version: str) -> None:
    doc = lone_store()
    doc["schema_version"] = version
    result = check(tmp_path, doc)
    finding = only(result, "unsupported-major-version")
    assert finding.section == "PAM §22.3" and version in finding.message
    assert result.exit_code == 1


@pytest.mark.parametrize("version", ["1.0", "1.0-rc1", "1.3"])
def test_pam_22_3_any_1x_version_accepted(tmp_path: Path, version: str) -> None:
    doc = lone_store()
    doc["schema_version"] = version
    result = check(tmp_path, doc)
    assert result.valid
    assert bool(by_code(result, "newer-minor-version")) == (version == "1.3")


def test_pam_3_2_spec_uri_never_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """§3.2: spec_uri MUST NOT be required to resolve; memvault never opens a connection."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    doc = lone_store()
    doc["spec_uri"] = "https://unreachable.invalid/spec/v1.0"
    assert check(tmp_path, doc).valid


def test_pam_3_1_schema_member_names_document_kind(tmp_path: Path) -> None:
    doc = lone_store()
    doc["schema"] = "something-else"
    result = check(tmp_path, doc)
    finding = only(result, "not-a-pam-document")
    assert finding.section == "PAM §3.1" and result.exit_code == 1
