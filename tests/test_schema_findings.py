"""Schema errors as findings: the JSON path, the code, the message and the spec section.

`memvault.formats.pam.schema` turns jsonschema-rs errors into `Finding`s. Each names the JSON
path of the offending value ("$.memories[3].tags[0]"), a stable code from the keyword
("schema-pattern", "schema-required", ...), the section of PAM v1.0 behind the rule (from the
`x-pam-section` annotations in memvault's schemas), and for memories the memory id as `record`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest

from memvault.findings import Finding
from memvault.formats.pam.schema import (
    json_path,
    load_schema,
    validate_document,
    validate_memories,
)
from official import OFFICIAL_EXAMPLES
from pam_sections import PAM_SECTIONS

REPO: Final = Path(__file__).resolve().parents[1]
Doc = dict[str, Any]


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def store() -> Doc:
    """The repository's sample store: 14 memories, index 12 is the one `custom` memory."""
    doc: Doc = json.loads(_text(REPO / "examples" / "memory-store.json"))
    return doc


def official(name: str) -> Doc:
    doc: Doc = json.loads(_text(OFFICIAL_EXAMPLES / name))
    return doc


def conversation() -> Doc:
    return official("example-conversation.json")


def embeddings() -> Doc:
    return official("example-embeddings.json")


def only(findings: list[Finding]) -> Finding:
    assert len(findings) == 1, findings
    return findings[0]


def store_finding(edit: Callable[[Doc], Any]) -> Finding:
    """The one finding `validate_document` reports after `edit` on the sample store."""
    doc = store()
    edit(doc)
    return only(validate_document("memory-store", doc, file="memory-store.json"))


def test_sample_documents_have_no_findings() -> None:
    assert validate_document("memory-store", store()) == []
    assert validate_document("memory-store", official("example-memory-store.json")) == []
    assert validate_document("conversation", conversation()) == []
    assert validate_document("embeddings", embeddings()) == []
    assert validate_memories(store()["memories"], 0) == []


# ---------------------------------------------------------------------------------------------
# Memory store, section by section
# ---------------------------------------------------------------------------------------------


def test_pam_3_additional_root_member() -> None:
    found = store_finding(lambda d: d.update(exported_with="x"))
    assert (found.code, found.path, found.section) == (
        "schema-additional-properties",
        "$",
        "PAM §3",
    )
    assert "exported_with" in found.message
    assert found.file == "memory-store.json" and found.record is None


def test_pam_3_1_required_root_member() -> None:
    found = store_finding(lambda d: d.pop("owner"))
    assert (found.code, found.path, found.section) == ("schema-required", "$", "PAM §3.1")
    assert '"owner"' in found.message


def test_pam_3_1_schema_identifier_is_a_constant() -> None:
    found = store_finding(lambda d: d.update(schema="portable-ai-memory-v2"))
    assert (found.code, found.path, found.section) == ("schema-constant", "$.schema", "PAM §3.1")


def test_pam_3_1_memories_must_be_an_array() -> None:
    found = store_finding(lambda d: d.update(memories={}))
    assert (found.code, found.path, found.section) == ("schema-type", "$.memories", "PAM §3.1")


def test_pam_3_2_export_date_format() -> None:
    found = store_finding(lambda d: d.update(export_date="15/02/2026"))
    assert (found.code, found.path, found.section) == ("schema-format", "$.export_date", "PAM §3.2")
    assert "date-time" in found.message


def test_pam_3_2_exported_by_pattern() -> None:
    found = store_finding(lambda d: d.update(exported_by="memvault 0.1"))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.exported_by",
        "PAM §3.2",
    )


def test_pam_3_2_spec_uri_format() -> None:
    found = store_finding(lambda d: d.update(spec_uri="portable ai memory"))
    assert (found.code, found.path, found.section) == ("schema-format", "$.spec_uri", "PAM §3.2")


def test_pam_4_1_required_memory_member() -> None:
    found = store_finding(lambda d: d["memories"][5].pop("temporal"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[5]",
        "PAM §4.1",
    )
    assert found.record == store()["memories"][5]["id"]


def test_pam_4_1_content_must_not_be_empty() -> None:
    found = store_finding(lambda d: d["memories"][0].update(content=""))
    assert found.code == "schema-min-length"
    assert (found.path, found.section) == ("$.memories[0].content", "PAM §4.1")


def test_pam_4_1_temporal_created_at_format() -> None:
    found = store_finding(lambda d: d["memories"][2]["temporal"].update(created_at="ontem"))
    assert found.code == "schema-format"
    assert (found.path, found.section) == ("$.memories[2].temporal.created_at", "PAM §4.1")


def test_pam_4_3_tag_pattern() -> None:
    found = store_finding(lambda d: d["memories"][3]["tags"].__setitem__(0, "Não"))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.memories[3].tags[0]",
        "PAM §4.3",
    )
    assert found.record == store()["memories"][3]["id"]


def test_pam_4_3_tags_are_unique() -> None:
    found = store_finding(lambda d: d["memories"][3]["tags"].append(d["memories"][3]["tags"][0]))
    assert (found.code, found.path, found.section) == (
        "schema-unique-items",
        "$.memories[3].tags",
        "PAM §4.3",
    )


def test_pam_4_3_additional_memory_member() -> None:
    found = store_finding(lambda d: d["memories"][1].update(priority=1))
    assert found.code == "schema-additional-properties"
    assert (found.path, found.section) == ("$.memories[1]", "PAM §4")


def test_pam_5_unknown_memory_type() -> None:
    found = store_finding(lambda d: d["memories"][0].update(type="opinion"))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.memories[0].type",
        "PAM §5",
    )


def test_pam_5_1_custom_type_must_be_null_for_standard_types() -> None:
    found = store_finding(lambda d: d["memories"][1].update(custom_type="decision"))
    assert (found.code, found.path, found.section) == (
        "schema-constant",
        "$.memories[1].custom_type",
        "PAM §5.1",
    )
    assert found.message == 'custom_type must be null unless type is "custom"'


def test_pam_5_1_custom_type_is_required_for_custom() -> None:
    found = store_finding(lambda d: d["memories"][12].pop("custom_type"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[12]",
        "PAM §5.1",
    )
    assert found.message == 'custom_type is required when type is "custom"'


@pytest.mark.parametrize(
    ("value", "code"), [(None, "schema-type"), ("", "schema-min-length"), (7, "schema-type")]
)
def test_pam_5_1_custom_type_must_be_a_non_empty_string_for_custom(value: Any, code: str) -> None:
    found = store_finding(lambda d: d["memories"][12].update(custom_type=value))
    assert (found.code, found.path, found.section) == (
        code,
        "$.memories[12].custom_type",
        "PAM §5.1",
    )
    assert found.message == 'custom_type must be a non-empty string when type is "custom"'


def test_pam_5_1_standard_type_with_empty_custom_type_reports_once() -> None:
    found = store_finding(lambda d: d["memories"][1].update(custom_type=""))
    assert found.section == "PAM §5.1" and found.path == "$.memories[1].custom_type"
    assert found.message == 'custom_type must be null unless type is "custom"'


def test_pam_5_1_is_not_reported_for_a_memory_without_type() -> None:
    """A missing type is one error (§4.1), not also a §5.1 one about custom_type."""
    found = store_finding(lambda d: d["memories"][0].pop("type"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[0]",
        "PAM §4.1",
    )
    assert '"type"' in found.message


def test_pam_6_3_content_hash_pattern() -> None:
    found = store_finding(lambda d: d["memories"][3].update(content_hash="sha256:ABC"))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.memories[3].content_hash",
        "PAM §6.3",
    )
    assert "sha256:ABC" in found.message


def test_pam_7_status_enum() -> None:
    found = store_finding(lambda d: d["memories"][4].update(status="deleted"))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.memories[4].status",
        "PAM §7",
    )


@pytest.mark.parametrize(("value", "code"), [(1.01, "schema-maximum"), (-0.1, "schema-minimum")])
def test_pam_8_confidence_range(value: float, code: str) -> None:
    found = store_finding(lambda d: d["memories"][0]["confidence"].update(current=value))
    assert (found.code, found.path, found.section) == (
        code,
        "$.memories[0].confidence.current",
        "PAM §8",
    )


def test_pam_8_1_decay_model_enum() -> None:
    found = store_finding(lambda d: d["memories"][0]["confidence"].update(decay_model="linear"))
    assert found.code == "schema-enum" and found.section == "PAM §8.1"
    assert found.path == "$.memories[0].confidence.decay_model"


def test_pam_9_visibility_enum() -> None:
    found = store_finding(
        lambda d: d["memories"][0].setdefault("access", {}).update(visibility="team")
    )
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.memories[0].access.visibility",
        "PAM §9",
    )


def test_pam_9_1_grant_permissions_are_not_empty() -> None:
    grant = {"entity": "agent-1", "permissions": []}
    found = store_finding(lambda d: d["memories"][0].update(access={"shared_with": [grant]}))
    assert found.code == "schema-min-items" and found.section == "PAM §9.1"
    assert found.path == "$.memories[0].access.shared_with[0].permissions"


def test_pam_10_language_pattern() -> None:
    found = store_finding(
        lambda d: d["memories"][0].setdefault("metadata", {}).update(language="pt_BR")
    )
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.memories[0].metadata.language",
        "PAM §10",
    )


def test_pam_10_metadata_accepts_extra_members() -> None:
    doc = store()
    doc["memories"][0].setdefault("metadata", {})["zone"] = "work"
    assert validate_document("memory-store", doc) == []


def test_pam_11_1_platform_is_required() -> None:
    found = store_finding(lambda d: d["memories"][2]["provenance"].pop("platform"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.memories[2].provenance",
        "PAM §11.1",
    )


def test_pam_11_2_extractor_pattern() -> None:
    found = store_finding(lambda d: d["memories"][2]["provenance"].update(extractor="memvault"))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.memories[2].provenance.extractor",
        "PAM §11.2",
    )


def test_pam_11_3_extraction_method_enum() -> None:
    found = store_finding(
        lambda d: d["memories"][2]["provenance"].update(extraction_method="scraped")
    )
    assert found.code == "schema-enum" and found.section == "PAM §11.3"


@pytest.mark.parametrize("platform", ["ChatGPT", "c", "x" * 33, "chat gpt"])
def test_pam_11_4_platform_identifier(platform: str) -> None:
    doc = store()
    doc["memories"][4]["provenance"]["platform"] = platform
    findings = validate_document("memory-store", doc)
    assert findings and {f.path for f in findings} == {"$.memories[4].provenance.platform"}
    assert {f.section for f in findings} == {"PAM §11.4"}
    assert {f.code for f in findings} <= {
        "schema-pattern",
        "schema-min-length",
        "schema-max-length",
    }


def test_pam_11_4_platform_in_conversations_index() -> None:
    found = store_finding(lambda d: d["conversations_index"][0].update(platform="Claude"))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.conversations_index[0].platform",
        "PAM §11.4",
    )


def test_pam_11_4_provider_name_in_conversation() -> None:
    doc = conversation()
    doc["provider"]["name"] = "Anthropic Claude"
    found = only(validate_document("conversation", doc))
    assert (found.code, found.path, found.section) == (
        "schema-pattern",
        "$.provider.name",
        "PAM §11.4",
    )


def test_pam_13_2_relation_type() -> None:
    found = store_finding(lambda d: d["relations"][0].update(type="likes"))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.relations[0].type",
        "PAM §13.2",
    )


def test_pam_13_1_relation_required_member() -> None:
    found = store_finding(lambda d: d["relations"][1].pop("from"))
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.relations[1]",
        "PAM §13.1",
    )


def test_pam_14_2_storage_type() -> None:
    storage = {"type": "s3", "ref": "bucket/conv-1.json"}
    found = store_finding(lambda d: d["conversations_index"][0].update(storage=storage))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.conversations_index[0].storage.type",
        "PAM §14.2",
    )


def test_pam_15_3_integrity_total_memories_is_not_negative() -> None:
    found = store_finding(lambda d: d["integrity"].update(total_memories=-1))
    assert (found.code, found.path, found.section) == (
        "schema-minimum",
        "$.integrity.total_memories",
        "PAM §15.3",
    )


def test_pam_15_1_canonicalization_enum() -> None:
    found = store_finding(lambda d: d["integrity"].update(canonicalization="JCS"))
    assert found.code == "schema-enum" and found.section == "PAM §15.1"


def test_pam_17_1_owner_did_pattern() -> None:
    found = store_finding(lambda d: d["owner"].update(did="did:Key:z6Mk"))
    assert (found.code, found.path, found.section) == ("schema-pattern", "$.owner.did", "PAM §17.1")


SIGNATURE: Final = {
    "algorithm": "Ed25519",
    "public_key": "z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
    "value": "c2ln",
    "signed_at": "2026-02-15T22:00:01Z",
}


@pytest.mark.parametrize("member", ["export_id", "export_date"])
def test_pam_18_3_signature_requires_export_id_and_export_date(member: str) -> None:
    def edit(doc: Doc) -> None:
        doc["signature"] = dict(SIGNATURE)
        doc.pop(member)

    found = store_finding(edit)
    assert (found.code, found.path, found.section) == ("schema-required", "$", "PAM §18.3")
    assert f'"{member}"' in found.message


def test_pam_18_3_signature_requires_non_null_export_id() -> None:
    def edit(doc: Doc) -> None:
        doc["signature"] = dict(SIGNATURE)
        doc["export_id"] = None

    found = store_finding(edit)
    assert (found.code, found.path, found.section) == ("schema-type", "$.export_id", "PAM §18.3")


def test_pam_3_2_export_date_is_never_null_signature_or_not() -> None:
    """export_date is `string` in §3.2 already; with a signature §18.3 says the same, and the
    finding is reported once."""
    for signature in (None, dict(SIGNATURE)):
        doc = store()
        doc.update(signature=signature, export_date=None)
        found = only(validate_document("memory-store", doc))
        assert (found.code, found.path, found.section) == (
            "schema-type",
            "$.export_date",
            "PAM §3.2",
        )


def test_pam_18_3_null_signature_needs_no_export_id() -> None:
    doc = store()
    doc["signature"] = None
    doc.pop("export_id", None)
    assert validate_document("memory-store", doc) == []


def test_pam_18_1_signature_block_members() -> None:
    def edit(doc: Doc) -> None:
        doc["signature"] = {k: v for k, v in SIGNATURE.items() if k != "value"}

    found = store_finding(edit)
    assert (found.code, found.path, found.section) == (
        "schema-required",
        "$.signature",
        "PAM §18.1",
    )


def test_pam_18_2_signature_algorithm() -> None:
    found = store_finding(lambda d: d.update(signature={**SIGNATURE, "algorithm": "HS256"}))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.signature.algorithm",
        "PAM §18.2",
    )


def test_pam_19_1_type_registry_format() -> None:
    found = store_finding(lambda d: d.update(type_registry="types registry"))
    assert (found.code, found.path, found.section) == (
        "schema-format",
        "$.type_registry",
        "PAM §19.1",
    )


# ---------------------------------------------------------------------------------------------
# Conversation and embeddings documents
# ---------------------------------------------------------------------------------------------


def test_pam_25_3_message_role() -> None:
    doc = conversation()
    doc["messages"][1]["role"] = "human"
    found = only(validate_document("conversation", doc, file="conversations/conv-001.json"))
    assert (found.code, found.path, found.section) == (
        "schema-enum",
        "$.messages[1].role",
        "PAM §25.3",
    )
    assert found.file == "conversations/conv-001.json" and found.record is None


def test_pam_25_conversation_required_member() -> None:
    doc = conversation()
    doc.pop("provider")
    found = only(validate_document("conversation", doc))
    assert (found.code, found.path, found.section) == ("schema-required", "$", "PAM §25")


def test_pam_12_3_embedding_dimensions() -> None:
    doc = embeddings()
    doc["embeddings"][2]["dimensions"] = 0
    found = only(validate_document("embeddings", doc))
    assert (found.code, found.path, found.section) == (
        "schema-minimum",
        "$.embeddings[2].dimensions",
        "PAM §12.3",
    )


def test_pam_12_2_embeddings_root() -> None:
    doc = embeddings()
    doc["schema"] = "portable-ai-memory"
    found = only(validate_document("embeddings", doc))
    assert (found.code, found.path, found.section) == ("schema-constant", "$.schema", "PAM §12.2")


# ---------------------------------------------------------------------------------------------
# validate_memories: batches of a streamed memories array
# ---------------------------------------------------------------------------------------------


def test_validate_memories_reports_document_indices_and_memory_ids() -> None:
    memories = store()["memories"]
    memories[8]["tags"][0] = "Bad Tag"
    memories[10]["content_hash"] = "md5:0"
    batch = memories[7:11]
    findings = validate_memories(batch, 7, file="memory-store.json")
    assert [(f.path, f.record, f.section) for f in findings] == [
        ("$.memories[8].tags[0]", memories[8]["id"], "PAM §4.3"),
        ("$.memories[10].content_hash", memories[10]["id"], "PAM §6.3"),
    ]
    assert {f.file for f in findings} == {"memory-store.json"}
    assert {f.severity for f in findings} == {"error"}


def test_validate_memories_equals_validate_document_for_the_same_memories() -> None:
    doc = store()
    doc["memories"][2]["custom_type"] = "x"
    doc["memories"][12].pop("custom_type")
    doc["memories"][5]["provenance"]["platform"] = "X"
    doc["memories"][9]["tags"] = ["a", "a"]
    doc["memories"][13]["extra_member"] = True
    whole = validate_document("memory-store", doc)
    batched = [
        finding
        for start in range(0, len(doc["memories"]), 4)
        for finding in validate_memories(doc["memories"][start : start + 4], start)
    ]
    assert sorted(map(Finding.to_json, batched), key=str) == sorted(
        map(Finding.to_json, whole), key=str
    )


def test_validate_memories_memory_without_id_has_no_record() -> None:
    memory = copy.deepcopy(store()["memories"][0])
    memory.pop("id")
    found = only(validate_memories([memory], 41))
    assert (found.code, found.path, found.record, found.section) == (
        "schema-required",
        "$.memories[41]",
        None,
        "PAM §4.1",
    )


def test_validate_memories_item_that_is_not_an_object() -> None:
    found = only(validate_memories(["a memory"], 3))
    assert (found.code, found.path, found.record, found.section) == (
        "schema-type",
        "$.memories[3]",
        None,
        "PAM §4",
    )


def test_validate_memories_valid_batch_has_no_findings() -> None:
    assert validate_memories(store()["memories"][3:9], 3) == []
    assert validate_memories([], 1000) == []


# ---------------------------------------------------------------------------------------------
# Paths, messages, and the schemas themselves
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "path"),
    [
        ([], "$"),
        (["memories", 3, "tags", 0], "$.memories[3].tags[0]"),
        (["metadata", "zone name"], '$.metadata["zone name"]'),
        (["raw_metadata", "1st"], '$.raw_metadata["1st"]'),
        (["raw_metadata", ""], '$.raw_metadata[""]'),
        (["raw_metadata", 'quo"te'], '$.raw_metadata["quo\\"te"]'),
        (["metadata", "ação"], "$.metadata.ação"),
    ],
)
def test_json_path(parts: list[str | int], path: str) -> None:
    assert json_path(parts) == path


def test_long_messages_are_shortened() -> None:
    found = store_finding(lambda d: d["memories"][0].update(content_hash="x" * 1000))
    assert len(found.message) <= 300 and found.message.endswith("…")


def test_several_errors_are_all_reported_in_document_order() -> None:
    doc = store()
    doc["memories"][1]["status"] = "gone"
    doc["memories"][6]["tags"] = ["OK"]
    doc["relations"][0]["type"] = "loves"
    paths = [f.path for f in validate_document("memory-store", doc)]
    assert paths == ["$.memories[1].status", "$.memories[6].tags[0]", "$.relations[0].type"]


def _sections(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("x-pam-section", "x-pam-section-required"):
                found.append(value)
            else:
                found.extend(_sections(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_sections(value))
    return found


@pytest.mark.parametrize("kind", ["memory-store", "conversation", "embeddings"])
def test_every_cited_section_exists_in_the_spec(kind: str) -> None:
    headings = PAM_SECTIONS
    sections = _sections(load_schema(kind))
    assert sections, "the schema cites no section"
    for section in sections:
        assert section.startswith("§") and section[1:] in headings, section
