"""PAM v1.0 requirements that no other test names by section.

docs/conformance.md lists every normative requirement with the tests that cover it; the tests
here close the gaps that table showed. The validator tests break a single rule of a valid
document (or keep a document that the rule must not reject) and assert the finding's code,
severity, section and JSON path, through `validate_path` as a user would run it. The vault and
exchange tests at the end use a real encrypted vault and real export files.
"""

from __future__ import annotations

import json
import shutil
import socket
import uuid
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from exchangekit import assert_clean, documents, vector
from memvault.crypto.did import did_key
from memvault.errors import InvalidInput
from memvault.exchange import export_vault, import_into_vault
from memvault.findings import Finding, ValidationResult
from memvault.formats.pam.validate import validate_path
from memvault.store.base import StoredEmbedding
from memvault.vault import Vault
from pamdocs import EXAMPLES, by_code, lone_store, official, only, reseal, write
from vaultkit import PASSPHRASE, make_vault, pam_memory

Doc = dict[str, Any]


def check(tmp_path: Path, doc: Doc) -> ValidationResult:
    return validate_path(write(tmp_path, doc))


def one(result: ValidationResult, code: str, severity: str, section: str, path: str) -> Finding:
    """The single finding of `code`, checked for severity, section and JSON path."""
    finding = only(result, code)
    assert (finding.severity, finding.section, finding.path) == (severity, section, path), finding
    return finding


def schema_error(tmp_path: Path, edit: Callable[[Doc], Any], *, memories: bool = False) -> Finding:
    """The one finding after `edit` on the sample store; it must be the only finding."""
    doc = lone_store()
    edit(doc)
    result = check(tmp_path, reseal(doc) if memories else doc)
    assert len(result.findings) == 1, result.findings
    finding = result.findings[0]
    assert finding.severity == "error" and result.exit_code == 1
    return finding


@pytest.fixture
def export(tmp_path: Path) -> Path:
    """A copy of the sample export directory (memory-store, embeddings, two conversations)."""
    target = tmp_path / "export"
    shutil.copytree(EXAMPLES / "export", target)
    return target


def edit_file(path: Path, change: Callable[[Doc], Any]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")


def first_conversation(export: Path) -> Path:
    return sorted((export / "conversations").glob("*.json"))[0]


# ---------------------------------------------------------------------------------------------
# §3 root structure
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["v1.0", "1", "1.0.0", "1.0-final"])
def test_pam_3_1_schema_version_pattern(tmp_path: Path, version: str) -> None:
    found = schema_error(tmp_path, lambda d: d.update(schema_version=version))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.schema_version",
        "PAM §3.1",
    )


def test_pam_3_2_export_id_should_be_uuid_v4(tmp_path: Path) -> None:
    doc = lone_store()
    doc["export_id"] = "export-2025-11-03"
    result = check(tmp_path, doc)
    finding = one(result, "export-id-not-uuid", "warning", "PAM §3.2", "$.export_id")
    assert "export-2025-11-03" in finding.message
    assert result.exit_code == 0


def test_pam_3_2_export_id_uuid_v4_and_null_are_silent(tmp_path: Path) -> None:
    for value in ("e47ac10b-58cc-4372-a567-0e02b2c3d479", None):
        doc = lone_store()
        doc["export_id"] = value
        assert not by_code(check(tmp_path, doc), "export-id-not-uuid"), value


@pytest.mark.parametrize(
    ("member", "value", "section"),
    [
        ("spec_uri", 5, "PAM §3.2"),
        ("export_id", 5, "PAM §3.2"),
        ("exported_by", 5, "PAM §3.2"),
        ("owner", "me", "PAM §3.1"),
        ("relations", {}, "PAM §13"),
        ("integrity", [], "PAM §15.3"),
        ("type_registry", 5, "PAM §19.1"),
        ("signature", "signed", "PAM §18.1"),
    ],
)
def test_pam_3_2_root_member_types(tmp_path: Path, member: str, value: Any, section: str) -> None:
    doc = lone_store()
    doc[member] = value
    result = check(tmp_path, doc)
    one(result, "schema-type", "error", section, f"$.{member}")
    assert result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# §4 memory object, §8 confidence, §9 access, §11 provenance
# ---------------------------------------------------------------------------------------------


def test_pam_4_1_temporal_created_at_is_required(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path, lambda d: d["memories"][3]["temporal"].pop("created_at"), memories=True
    )
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[3].temporal",
        "PAM §4.1",
    )
    assert found.record == lone_store()["memories"][3]["id"]


@pytest.mark.parametrize(
    ("member", "value", "section"),
    [
        ("summary", 5, "PAM §4.3"),
        ("tags", "coffee", "PAM §4.3"),
        ("embedding_ref", 5, "PAM §12.1"),
        ("confidence", [], "PAM §8"),
        ("access", "private", "PAM §9"),
        ("metadata", [], "PAM §10"),
        ("temporal", "2025", "PAM §4.1"),
    ],
)
def test_pam_4_3_memory_member_types(tmp_path: Path, member: str, value: Any, section: str) -> None:
    doc = lone_store()
    doc["memories"][7][member] = value
    result = check(tmp_path, reseal(doc))
    finding = one(result, "schema-type", "error", section, f"$.memories[7].{member}")
    assert finding.record == doc["memories"][7]["id"]


@pytest.mark.parametrize(("value", "code"), [(1.5, "schema-maximum"), (-0.01, "schema-minimum")])
def test_pam_8_confidence_initial_range(tmp_path: Path, value: float, code: str) -> None:
    found = schema_error(
        tmp_path, lambda d: d["memories"][1]["confidence"].update(initial=value), memories=True
    )
    assert (found.code, found.path, found.section) == (
        code,
        "$.memories[1].confidence.initial",
        "PAM §8",
    )


def test_pam_8_last_reinforced_is_a_timestamp(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path,
        lambda d: d["memories"][1]["confidence"].update(last_reinforced="last week"),
        memories=True,
    )
    assert (found.code, found.path, found.section) == (
        "schema-format",
        "$.memories[1].confidence.last_reinforced",
        "PAM §8",
    )


def test_pam_9_exportable_is_boolean(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path, lambda d: d["memories"][0]["access"].update(exportable="no"), memories=True
    )
    assert (found.code, found.path, found.section) == (
        "schema-type",
        "$.memories[0].access.exportable",
        "PAM §9",
    )


def test_pam_9_1_permissions_enum(tmp_path: Path) -> None:
    def edit(doc: Doc) -> None:
        doc["memories"][1]["access"]["shared_with"][0]["permissions"] = ["read", "share"]

    found = schema_error(tmp_path, edit, memories=True)
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.memories[1].access.shared_with[0].permissions[1]",
        "PAM §9.1",
    )


def test_pam_9_1_permissions_are_unique(tmp_path: Path) -> None:
    def edit(doc: Doc) -> None:
        doc["memories"][1]["access"]["shared_with"][0]["permissions"] = ["read", "read"]

    found = schema_error(tmp_path, edit, memories=True)
    assert (found.code, found.path, found.section) == (
        "schema-unique-items",
        "$.memories[1].access.shared_with[0].permissions",
        "PAM §9.1",
    )


def test_pam_9_1_grant_requires_entity(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path,
        lambda d: d["memories"][1]["access"]["shared_with"][0].pop("entity"),
        memories=True,
    )
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[1].access.shared_with[0]",
        "PAM §9.1",
    )
    assert '"entity"' in found.message


def test_pam_9_exportable_absent_defaults_to_true(tmp_path: Path) -> None:
    """§9: `exportable` defaults to true, so a memory without it is no §21.1 violation."""
    doc = lone_store()
    del doc["memories"][0]["access"]["exportable"]
    result = check(tmp_path, reseal(doc))
    assert result.valid and not result.findings, result.findings


def test_pam_11_2_extracted_at_is_a_timestamp(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path,
        lambda d: d["memories"][2]["provenance"].update(extracted_at="03/11/2025"),
        memories=True,
    )
    assert (found.code, found.path, found.section) == (
        "schema-format",
        "$.memories[2].provenance.extracted_at",
        "PAM §11",
    )


@pytest.mark.parametrize("platform", ["ChatGPT", "x", "y" * 33, "chat.gpt", "claudé"])
def test_pam_11_4_platform_pattern(tmp_path: Path, platform: str) -> None:
    doc = lone_store()
    doc["memories"][6]["provenance"]["platform"] = platform
    result = check(tmp_path, reseal(doc))
    errors = result.errors
    assert errors and {f.path for f in errors} == {"$.memories[6].provenance.platform"}
    assert {(f.severity, f.section) for f in errors} == {("error", "PAM §11.4")}
    assert {f.record for f in errors} == {doc["memories"][6]["id"]}


def test_pam_11_4_recommended_platform_identifiers_accepted(tmp_path: Path) -> None:
    for platform in ("chatgpt", "claude", "gemini", "grok", "perplexity", "copilot", "local"):
        doc = lone_store()
        doc["memories"][8]["provenance"]["platform"] = platform
        assert check(tmp_path, reseal(doc)).valid, platform


# ---------------------------------------------------------------------------------------------
# §12 embeddings
# ---------------------------------------------------------------------------------------------


def test_pam_12_1_3_missing_embeddings_file_is_not_a_failure(tmp_path: Path) -> None:
    """A consumer must not fail when embeddings.json is missing and every embedding_ref is
    null: neither for a lone memory-store nor for a zipped export without embeddings.json."""
    doc = lone_store()
    assert all(m["embedding_ref"] is None for m in doc["memories"])
    lone = check(tmp_path, doc)
    assert lone.valid and not lone.findings, lone.findings

    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("memory-store.json", json.dumps(doc))
    result = validate_path(archive)
    assert result.valid and result.exit_code == 0 and not result.findings, result.findings
    assert "embeddings" not in result.facts


def test_pam_12_2_embeddings_file_of_the_wrong_kind(export: Path) -> None:
    shutil.copy(first_conversation(export), export / "embeddings.json")
    result = validate_path(export)
    finding = one(result, "wrong-document-kind", "error", "PAM §2", "$.schema")
    assert finding.file == str(export / "embeddings.json") and result.exit_code == 1
    assert "embeddings" in finding.message


def test_pam_12_3_embedding_requires_model(export: Path) -> None:
    edit_file(export / "embeddings.json", lambda d: d["embeddings"][4].pop("model"))
    result = validate_path(export)
    finding = one(result, "schema-required", "error", "PAM §12.3", "$.embeddings[4]")
    assert '"model"' in finding.message and finding.file == str(export / "embeddings.json")


def test_pam_12_3_embedding_created_at_is_a_timestamp(export: Path) -> None:
    edit_file(export / "embeddings.json", lambda d: d["embeddings"][0].update(created_at="now"))
    one(
        validate_path(export),
        "schema-format",
        "error",
        "PAM §12.3",
        "$.embeddings[0].created_at",
    )


def test_pam_12_3_embedding_memory_id_must_name_a_memory(export: Path) -> None:
    def stray(doc: Doc) -> None:
        extra = dict(doc["embeddings"][0], id="emb-stray", memory_id="no-such-memory")
        doc["embeddings"].append(extra)

    edit_file(export / "embeddings.json", stray)
    result = validate_path(export)
    finding = one(
        result, "embedding-memory-unresolved", "error", "PAM §12.3", "$.embeddings[14].memory_id"
    )
    assert finding.record == "emb-stray" and finding.file == str(export / "embeddings.json")
    assert result.exit_code == 1


def test_pam_12_3_embedding_of_unknown_memory_in_a_delta_is_a_warning(export: Path) -> None:
    """In an incremental export the memory may be in the base export (§16)."""
    edit_file(
        export / "memory-store.json",
        lambda d: d.update(
            export_type="incremental",
            base_export_id="8c0b5e3a-2f1d-4b6a-9e7c-3d2a1b0c9f8e",
            since="2024-01-01T00:00:00Z",
        ),
    )
    edit_file(
        export / "embeddings.json",
        lambda d: d["embeddings"].append(dict(d["embeddings"][0], id="emb-x", memory_id="base-m")),
    )
    result = validate_path(export)
    assert only(result, "embedding-memory-unresolved").severity == "warning"
    assert result.valid


def test_pam_12_3_embedding_without_vector_or_storage(export: Path) -> None:
    edit_file(export / "embeddings.json", lambda d: d["embeddings"][3].update(vector=None))
    result = validate_path(export)
    finding = one(result, "embedding-without-vector", "warning", "PAM §12.3", "$.embeddings[3]")
    assert finding.record == "emb-04" and result.exit_code == 0


def test_pam_12_3_vector_stored_externally_is_fine(export: Path) -> None:
    def external(doc: Doc) -> None:
        doc["embeddings"][3].update(vector=None, storage={"type": "vector_db", "ref": "vec/04"})

    edit_file(export / "embeddings.json", external)
    result = validate_path(export)
    assert result.valid and not result.findings, result.findings


# ---------------------------------------------------------------------------------------------
# §13 relations, §14 conversations index
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "code"), [(1.2, "schema-maximum"), (-1, "schema-minimum")])
def test_pam_13_1_relation_confidence_range(tmp_path: Path, value: float, code: str) -> None:
    found = schema_error(tmp_path, lambda d: d["relations"][2].update(confidence=value))
    assert (found.code, found.path, found.section) == (
        code,
        "$.relations[2].confidence",
        "PAM §13.1",
    )


def test_pam_13_1_relation_created_at_is_a_timestamp(tmp_path: Path) -> None:
    found = schema_error(tmp_path, lambda d: d["relations"][0].update(created_at="2025-13-01"))
    assert (found.code, found.path, found.section) == (
        "schema-format",
        "$.relations[0].created_at",
        "PAM §13.1",
    )


def test_pam_13_1_relation_self_loop_warning(tmp_path: Path) -> None:
    doc = lone_store()
    relation = doc["relations"][3]
    relation["to"] = relation["from"]
    result = check(tmp_path, doc)
    finding = one(result, "relation-self-loop", "warning", "PAM §13.1", "$.relations[3]")
    assert finding.record == relation["from"] and result.exit_code == 0


def test_pam_14_index_entry_requires_platform(tmp_path: Path) -> None:
    found = schema_error(tmp_path, lambda d: d["conversations_index"][1].pop("platform"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.conversations_index[1]",
        "PAM §14",
    )
    assert '"platform"' in found.message


def test_pam_14_index_entry_requires_created_at(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path, lambda d: d["conversations_index"][0]["temporal"].pop("created_at")
    )
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.conversations_index[0].temporal",
        "PAM §14",
    )


def test_pam_14_1_derived_memories_repeated(tmp_path: Path) -> None:
    doc = lone_store()
    entry = doc["conversations_index"][1]
    entry["derived_memories"].append(entry["derived_memories"][0])
    result = check(tmp_path, doc)
    finding = one(
        result,
        "derived-memories-repeated",
        "warning",
        "PAM §14.1",
        "$.conversations_index[1].derived_memories",
    )
    assert finding.record == entry["id"] and result.exit_code == 0


def test_pam_14_2_storage_requires_type_and_ref(tmp_path: Path) -> None:
    def edit(doc: Doc) -> None:
        doc["conversations_index"][0]["storage"] = {"type": "file"}

    found = schema_error(tmp_path, edit)
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.conversations_index[0].storage",
        "PAM §14.2",
    )
    assert '"ref"' in found.message


@pytest.mark.parametrize("ref", ["../outside.json", "/etc/passwd", "conversations/../../x.json"])
def test_pam_14_2_storage_ref_outside_the_export_is_refused(export: Path, ref: str) -> None:
    def escape(doc: Doc) -> None:
        doc["conversations_index"][0]["storage"] = {"type": "file", "ref": ref, "format": "json"}

    edit_file(export / "memory-store.json", escape)
    result = validate_path(export)
    finding = one(
        result, "storage-ref-escapes-export", "error", "PAM §14.2", "$.conversations_index"
    )
    assert (
        finding.record
        == json.loads((export / "memory-store.json").read_text())["conversations_index"][0]["id"]
    )
    assert result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# §15 integrity
# ---------------------------------------------------------------------------------------------


def test_pam_15_1_memory_that_cannot_be_canonicalized(tmp_path: Path) -> None:
    """An integer beyond ±(2**53-1) has no RFC 8785 form: the memory is reported and the
    checksum is not compared (rather than reported as a mismatch)."""
    doc = reseal(lone_store())
    doc["memories"][4]["metadata"]["big"] = 2**53 + 1
    result = check(tmp_path, doc)
    finding = one(result, "not-canonicalizable", "error", "PAM §15.1 / RFC 8785", "$.memories[4]")
    assert finding.record == doc["memories"][4]["id"]
    one(result, "checksum-not-computed", "warning", "PAM §15.2", "$.integrity.checksum")
    assert not by_code(result, "checksum-mismatch")
    assert result.facts["memory_store"]["integrity"] == "not computed"


@pytest.mark.parametrize("member", ["checksum", "total_memories"])
def test_pam_15_3_integrity_required_members(tmp_path: Path, member: str) -> None:
    found = schema_error(tmp_path, lambda d: d["integrity"].pop(member))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.integrity",
        "PAM §15.3",
    )
    assert f'"{member}"' in found.message


@pytest.mark.parametrize("checksum", ["sha256:ABC", "md5:" + "0" * 32, "0" * 64])
def test_pam_15_3_checksum_format(tmp_path: Path, checksum: str) -> None:
    doc = lone_store()
    doc["integrity"]["checksum"] = checksum
    result = check(tmp_path, doc)
    one(result, "schema-pattern", "error", "PAM §15.3", "$.integrity.checksum")
    assert result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# §16 incremental exports
# ---------------------------------------------------------------------------------------------


def test_pam_16_1_export_type_enum(tmp_path: Path) -> None:
    found = schema_error(tmp_path, lambda d: d.update(export_type="delta"))
    assert (found.code, found.path, found.section) == ("schema-enum", "$.export_type", "PAM §16.1")


def test_pam_16_1_export_type_defaults_to_full(tmp_path: Path) -> None:
    """Without `export_type` the export is full (self-contained): a delta field is out of
    place and a reference to a memory that is not there is an error, not a warning."""
    doc = lone_store()
    del doc["export_type"]
    doc["since"] = "2025-01-01T00:00:00Z"
    doc["relations"][0]["to"] = "00000000-0000-4000-8000-000000000000"
    result = check(tmp_path, doc)
    one(result, "full-export-with-delta-field", "warning", "PAM §16.2", "$.since")
    assert only(result, "relation-endpoint-unresolved").severity == "error"
    assert result.facts["memory_store"]["export_type"] == "full"


def test_pam_16_2_since_is_a_timestamp(tmp_path: Path) -> None:
    doc = lone_store()
    doc.update(
        export_type="incremental",
        base_export_id="8c0b5e3a-2f1d-4b6a-9e7c-3d2a1b0c9f8e",
        since="yesterday",
    )
    result = check(tmp_path, doc)
    one(result, "schema-format", "error", "PAM §16.2", "$.since")
    assert result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# §17 DID, §18 signatures
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "did",
    [
        "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
        "did:web:example.com:user:alice",
        "did:ion:EiAnKD8-jfdd0MDcZUjAbRgaThBrMxPTFOxcnfJhI7Ukaw",
        "did:pkh:eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb",
    ],
)
def test_pam_17_1_any_did_method_accepted(tmp_path: Path, did: str) -> None:
    doc = lone_store()
    doc["owner"]["did"] = did
    result = check(tmp_path, doc)
    assert result.valid and not result.findings, result.findings


def test_pam_17_2_owner_id_required_even_with_did(tmp_path: Path) -> None:
    found = schema_error(
        tmp_path, lambda d: d.update(owner={"did": "did:web:example.com:user:alice"})
    )
    assert (found.code, found.path) == ("schema-required", "$.owner")
    assert found.section == "PAM §3.1" and '"id"' in found.message


def test_pam_18_5_signed_at_equal_to_export_date_is_fine(tmp_path: Path) -> None:
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import sign_document

    key = SigningKey.new("Ed25519")
    doc = official("example-memory-store.json")
    doc["owner"]["did"] = key.did  # the official placeholder key has no private half
    doc = sign_document(doc, key, signed_at=doc["export_date"])
    assert doc["signature"]["signed_at"] == doc["export_date"]
    result = check(tmp_path, doc)
    assert not by_code(result, "signed-before-export")
    assert result.exit_code == 0 and not result.errors, result.errors
    assert result.facts["memory_store"]["signature"] == "verified"


def test_pam_18_5_signed_at_compared_as_instants(tmp_path: Path) -> None:
    """22:00:00Z is 23:30:00+01:30; 21:59:59Z written as 23:29:59+01:30 is before it."""
    doc = official("example-memory-store.json")
    doc["export_date"] = "2026-02-15T22:00:00Z"
    doc["signature"]["signed_at"] = "2026-02-15T23:30:00+01:30"
    assert not by_code(check(tmp_path, doc), "signed-before-export")
    doc["signature"]["signed_at"] = "2026-02-15T23:29:59+01:30"
    one(check(tmp_path, doc), "signed-before-export", "error", "PAM §18.5", "$.signature.signed_at")


@pytest.mark.parametrize("signature", ["absent", None])
def test_pam_18_5_unsigned_export_is_not_rejected(tmp_path: Path, signature: str | None) -> None:
    doc = lone_store()
    doc.pop("signature", None)
    if signature != "absent":
        doc["signature"] = signature
    result = check(tmp_path, doc)
    assert result.valid and not result.findings, result.findings
    assert result.facts["memory_store"]["signature"] == "absent"


# ---------------------------------------------------------------------------------------------
# §19.4 type registry, §22.3 versioning
# ---------------------------------------------------------------------------------------------


def test_pam_19_4_unregistered_custom_type_accepted_without_the_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any custom_type is accepted, and the registry is never consulted (no network)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    doc = lone_store()
    doc["type_registry"] = "https://registry.invalid/types/"
    custom = next(m for m in doc["memories"] if m["type"] == "custom")
    custom["custom_type"] = "Not Registered · anywhere"
    result = check(tmp_path, reseal(doc))
    assert result.valid and not result.findings, result.findings


def test_pam_22_3_companion_files_of_another_major_version_refused(export: Path) -> None:
    edit_file(first_conversation(export), lambda d: d.update(schema_version="2.0"))
    edit_file(export / "embeddings.json", lambda d: d.update(schema_version="2.0"))
    result = validate_path(export)
    found = by_code(result, "unsupported-major-version")
    assert sorted(Path(f.file or "").name for f in found) == [
        first_conversation(export).name,
        "embeddings.json",
    ]
    assert {(f.severity, f.section, f.path) for f in found} == {
        ("error", "PAM §22.3", "$.schema_version")
    }
    assert result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# §25 conversation files
# ---------------------------------------------------------------------------------------------


def test_pam_25_3_message_content_type_enum(export: Path) -> None:
    edit_file(first_conversation(export), lambda d: d["messages"][0]["content"].update(type="html"))
    result = validate_path(export)
    finding = one(result, "schema-enum", "error", "PAM §25.3", "$.messages[0].content.type")
    assert finding.file == str(first_conversation(export))


def test_pam_25_2_conversation_schema_identifier(export: Path) -> None:
    edit_file(first_conversation(export), lambda d: d.update(schema="portable-ai-memory"))
    result = validate_path(export)
    finding = one(result, "wrong-document-kind", "error", "PAM §2", "$.schema")
    assert finding.file == str(first_conversation(export)) and result.exit_code == 1


# ---------------------------------------------------------------------------------------------
# The vault and PAM exchange: owner identity, embeddings on import
# ---------------------------------------------------------------------------------------------


def store_header(path: Path) -> Doc:
    """The memory-store of an export (file, directory or zip), without its memories."""
    docs = documents(path)
    store = docs.get("memory-store.json") or next(iter(docs.values()))
    return {k: v for k, v in store.items() if k != "memories"}


def test_pam_3_1_owner_id_is_the_same_in_every_export(tmp_path: Path) -> None:
    """Official schema, Owner: `id` is "a UUID v4 or a stable unique identifier that persists
    across exports" — full and incremental, after reopening, after importing another owner's
    export."""
    home = tmp_path / "vault"
    with make_vault(home) as vault:
        owner = vault.owner.id
        vault.add("Lives in Lisbon", "fact")
        export_vault(vault, tmp_path / "full.json")
        vault.add("Works at Acme", "fact")
        export_vault(vault, tmp_path / "delta.zip", incremental=True)
    with make_vault(tmp_path / "other") as other:
        stranger = other.owner.id
        other.add("Plays the cello", "skill")
        export_vault(other, tmp_path / "foreign.json")
    with Vault.open(home, PASSPHRASE) as vault:
        result = import_into_vault(vault, tmp_path / "foreign.json")
        assert result.created == 1
        assert any(stranger in warning for warning in result.warnings), result.warnings
        assert vault.owner.id == owner
        export_vault(vault, tmp_path / "after-import")
    assert uuid.UUID(owner).version == 4 and stranger != owner
    for name in ("full.json", "delta.zip", "after-import"):
        header = store_header(tmp_path / name)
        assert header["owner"]["id"] == owner, name
        assert_clean(tmp_path / name, allowed=("incremental-memory-before-since",))


def test_pam_17_2_vault_refuses_an_owner_did_key_that_does_not_resolve(tmp_path: Path) -> None:
    """A did:key resolves offline; one that does not would make every export of the vault
    invalid (`owner-did-unresolvable`), so the vault is not created with it."""
    for bad in ("did:key:z6MkBOGUS0OIl", "did:key:z6Mk"):
        with pytest.raises(InvalidInput) as caught:
            make_vault(tmp_path / "bad", did=bad)
        assert caught.value.field == "did" and "§17.2" in str(caught.value), bad
        assert not (tmp_path / "bad").exists()


def test_pam_17_2_owner_did_is_written_in_every_export(tmp_path: Path) -> None:
    """§17.2 rule 1 recommends `owner.did` for shared exports: a vault whose owner has a DID
    writes it in every export, and the export validates (the did:key resolves, rule 2)."""
    did = did_key(Ed25519PrivateKey.generate().public_key())
    with make_vault(tmp_path / "vault", did=did) as vault:
        vault.add("Lives in Lisbon", "fact")
        export_vault(vault, tmp_path / "full.zip")
        vault.add("Works at Acme", "fact")
        export_vault(vault, tmp_path / "delta.json", incremental=True)
    for name in ("full.zip", "delta.json"):
        assert store_header(tmp_path / name)["owner"]["did"] == did, name
        assert_clean(tmp_path / name, allowed=("incremental-memory-before-since",))
        assert validate_path(tmp_path / name).facts["memory_store"]["signature"] == "absent"


def test_pam_12_1_5_content_not_the_embedding_decides_what_is_imported(tmp_path: Path) -> None:
    """§12.1 rule 5: `content` is always the authoritative source, never the embedding. Two
    memories with the same vector stay two memories with their own content; a memory whose
    content the vault already has is merged into it by content hash (§6) and its embedding is
    not attached to the survivor; the imported memories are found by their content."""
    same = vector(0.25, -0.5, 1.0)
    with make_vault(tmp_path / "sender") as sender:
        lisbon = sender.add("Lives in Lisbon", "fact").memory
        acme = sender.add("Works at Acme", "fact").memory
        for name, memory in (("e-lisbon", lisbon), ("e-acme", acme)):
            sender.put_embedding(
                StoredEmbedding(name, memory.id, "mini-3d", 3, "2026-01-01T00:00:00Z", same)
            )
        export_vault(sender, tmp_path / "export")
    assert (tmp_path / "export" / "embeddings.json").is_file()
    with make_vault(tmp_path / "receiver") as receiver:
        known = receiver.add("lives in LISBON", "fact").memory  # same §6 hash, no embedding
        result = import_into_vault(receiver, tmp_path / "export")
        assert (result.created, result.reinforced) == (1, 1)
        assert result.merged_into == {lisbon.id: known.id}
        assert receiver.get(known.id).content == "lives in LISBON"
        assert receiver.get_embedding(known.id) is None
        imported = receiver.get(acme.id)
        assert (imported.content, imported.content_hash) == (acme.content, acme.content_hash)
        embedding = receiver.get_embedding(acme.id)
        assert embedding is not None and embedding.vector == same
        assert [hit.memory.id for hit in receiver.search("acme")] == [acme.id]
        assert [hit.memory.id for hit in receiver.search("lisbon")] == [known.id]


def test_pam_19_4_vault_takes_and_exports_unregistered_custom_types(tmp_path: Path) -> None:
    """The vault accepts any custom_type, typed by the owner or imported, and exports it as
    it is; nothing consults the type registry."""
    unregistered = "Not Registered · anywhere"
    imported = pam_memory("Keeps a grocery list", type="custom", custom_type="grocery_list_v0")
    with make_vault(tmp_path / "vault") as vault:
        added = vault.add("Buys oat milk", "custom", custom_type=unregistered).memory
        vault.add_memories([imported])
        export_vault(vault, tmp_path / "export.json")
    store = documents(tmp_path / "export.json")["export.json"]
    written = {m["id"]: m["custom_type"] for m in store["memories"]}
    assert written == {added.id: unregistered, imported.id: "grocery_list_v0"}
    assert_clean(tmp_path / "export.json")


# -- former gaps G-1, G-2, G-4: implemented, now tested ------------------------------------------


def test_pam_25_2_conversation_schema_version_must_match_the_store(export: Path) -> None:
    """Official conversation schema (§25.2): `schema_version` "MUST match the memory-store
    schema version" — a conversation file of another version is an error (was gap G-1)."""
    edit_file(first_conversation(export), lambda doc: doc.update(schema_version="1.1"))
    result = validate_path(export)
    finding = only(result, "conversation-version-mismatch")
    assert (finding.severity, finding.section) == ("error", "PAM §25.2")
    assert finding.file is not None and finding.file.endswith(first_conversation(export).name)


def test_pam_25_3_import_metadata_members_should_be_present(export: Path) -> None:
    """§25.3: normalized conversations SHOULD record the importer version, the source file
    and the source checksum — each one missing or null is a warning naming it, not only a
    wholly absent block (was gap G-2)."""

    def thin(doc: Doc) -> None:
        doc["import_metadata"] = {"importer": "x/1", "imported_at": "2026-01-01T00:00:00Z"}
        doc["import_metadata"]["source_file"] = None

    edit_file(first_conversation(export), thin)
    found = by_code(validate_path(export), "import-metadata-incomplete")
    assert sorted(f.path for f in found) == [
        "$.import_metadata.importer_version",
        "$.import_metadata.source_checksum",
        "$.import_metadata.source_file",
    ]
    assert all((f.severity, f.section) == ("warning", "PAM §25.3") for f in found)


def test_pam_3_1_owner_id_should_be_uuid_v4(tmp_path: Path) -> None:
    """memory-store-schema.md §3.1 (Owner): `id` "SHOULD be UUID v4" — another stable
    identifier is a warning, and valid (was gap G-4)."""
    doc = lone_store()
    doc["owner"]["id"] = "local-user"
    result = check(tmp_path, doc)
    finding = only(result, "owner-id-not-uuid")
    assert (finding.severity, finding.path) == ("warning", "$.owner.id")
    assert result.valid
    doc["owner"]["id"] = str(uuid.uuid4())
    assert by_code(check(tmp_path, doc), "owner-id-not-uuid") == []


def test_pam_22_3_additions_of_a_newer_minor_version_are_warnings(tmp_path: Path) -> None:
    """§22.3: a minor version makes backward-compatible additions ("new optional fields, new
    enum values"): in a 1.1 document, an unknown member or enum value is a warning and the
    document is valid; in a 1.0 document it stays an error (was gap G-5)."""
    doc = lone_store()
    doc["schema_version"] = "1.1"
    doc["added_in_1_1"] = True
    doc["memories"][0]["added_in_1_1"] = "x"
    doc["memories"][1]["type"] = "a_type_added_in_1_1"
    result = check(tmp_path, reseal(doc))
    assert result.valid, [str(f) for f in result.errors]
    demoted = by_code(result, "schema-additional-properties") + by_code(result, "schema-enum")
    assert sorted(f.path for f in demoted) == ["$", "$.memories[0]", "$.memories[1].type"]
    assert all(f.severity == "warning" and "PAM §22.3" in f.message for f in demoted)
    doc["schema_version"] = "1.0"
    assert not check(tmp_path, reseal(doc)).valid


def test_pam_11_4_memory_platform_differs_from_its_conversation(export: Path) -> None:
    """§11.4: one identifier namespace across the schemas — a memory whose
    `provenance.platform` ("openai") is not the platform of the conversation its
    `conversation_ref` names ("chatgpt") is reported (a warning: a memory may come from
    another platform than the conversation; was gap G-6)."""
    store = export / "memory-store.json"
    doc = json.loads(store.read_text(encoding="utf-8"))
    platform_of = {c["id"]: c["platform"] for c in doc["conversations_index"]}
    memory = next(
        m
        for m in doc["memories"]
        if platform_of.get(m["provenance"].get("conversation_ref")) == "chatgpt"
    )
    memory["provenance"]["platform"] = "openai"
    store.write_text(json.dumps(reseal(doc), indent=2), encoding="utf-8")
    finding = only(validate_path(export), "platform-differs-from-conversation")
    assert (finding.severity, finding.section, finding.record) == (
        "warning",
        "PAM §11.4",
        memory["id"],
    )
