"""Export directories and zips (PAM §2): the memory-store, conversations/*.json and
embeddings.json are validated together, so references across files resolve (§12.1, §14, §25)."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from memvault.findings import ValidationResult
from memvault.formats.pam.validate import validate_path
from pamdocs import EXAMPLES, OFFICIAL_EXAMPLES, by_code, only, write


@pytest.fixture
def export(tmp_path: Path) -> Path:
    target = tmp_path / "export"
    shutil.copytree(EXAMPLES / "export", target)
    return target


def edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")


def conversation_files(export: Path) -> list[Path]:
    return sorted((export / "conversations").glob("*.json"))


def test_pam_2_sample_export_directory_and_zip_are_clean() -> None:
    for target in (EXAMPLES / "export", EXAMPLES / "export.zip"):
        result = validate_path(target)
        assert result.valid and not result.findings, result.findings
        assert result.facts["embeddings"]["count"] == 14
        assert result.facts["conversation_files"] == 2


@pytest.mark.parametrize(
    "name", ["example-memory-store.json", "example-conversation.json", "example-embeddings.json"]
)
def test_pam_appendix_a_official_examples_validate(name: str) -> None:
    result = validate_path(OFFICIAL_EXAMPLES / name)
    assert result.exit_code == 0 and not result.errors, result.errors
    if name == "example-memory-store.json":
        # Its signature is a placeholder, and signatures are verified (§18.4): a warning
        # (§21.4); every other part of it is clean.
        assert placeholder_signature_warned(result)


def placeholder_signature_warned(result: ValidationResult) -> bool:
    warned = [f for f in result.warnings if f.code == "signature-invalid"]
    assert [(f.path, f.section) for f in warned] == [("$.signature.value", "PAM §18.4")]
    assert "does not verify" in warned[0].message
    return result.exit_code == 0 and not result.errors


def test_pam_18_5_official_example_without_its_signature_is_valid(tmp_path: Path) -> None:
    doc = json.loads((OFFICIAL_EXAMPLES / "example-memory-store.json").read_text())
    del doc["signature"]
    result = validate_path(write(tmp_path, doc))
    assert result.exit_code == 0 and not result.errors, result.errors


def test_pam_12_1_official_example_as_export_directory(tmp_path: Path) -> None:
    """The three official examples assembled as an export: the refs resolve across files."""
    shutil.copy(OFFICIAL_EXAMPLES / "example-memory-store.json", tmp_path / "memory-store.json")
    shutil.copy(OFFICIAL_EXAMPLES / "example-embeddings.json", tmp_path / "embeddings.json")
    (tmp_path / "conversations").mkdir()
    conversation = tmp_path / "conversations" / "conv-001.json"
    shutil.copy(OFFICIAL_EXAMPLES / "example-conversation.json", conversation)
    result = validate_path(tmp_path)
    # conv-002 and conv-003 are referenced by the index but not shipped with the examples.
    assert len(by_code(result, "conversation-file-missing")) == 2
    assert placeholder_signature_warned(result)


def test_pam_12_1_embedding_ref_requires_embeddings_file(export: Path) -> None:
    (export / "embeddings.json").unlink()
    result = validate_path(export)
    finding = only(result, "embedding-ref-without-embeddings")
    assert finding.severity == "error" and finding.section == "PAM §12.1"


def test_pam_12_1_missing_embeddings_with_null_refs_is_fine(export: Path) -> None:
    """§12.1.3: consumers must not fail when embeddings.json is missing and refs are null."""
    (export / "embeddings.json").unlink()
    shutil.copy(EXAMPLES / "memory-store.json", export / "memory-store.json")
    result = validate_path(export)
    assert result.valid and not by_code(result, "embedding-ref-without-embeddings")


def test_pam_12_1_embedding_ref_unresolved(export: Path) -> None:
    def drop_first(doc: dict[str, Any]) -> None:
        doc["embeddings"].pop(0)

    edit(export / "embeddings.json", drop_first)
    finding = only(validate_path(export), "embedding-ref-unresolved")
    assert finding.severity == "error" and finding.path == "$.memories[0].embedding_ref"


def test_pam_12_1_memory_id_unique_across_embeddings(export: Path) -> None:
    def twin(doc: dict[str, Any]) -> None:
        doc["embeddings"].append(dict(doc["embeddings"][0], id="emb-twin"))

    edit(export / "embeddings.json", twin)
    result = validate_path(export)
    assert only(result, "duplicate-embedding-memory").severity == "error"
    assert only(result, "embedding-not-referenced").severity == "warning"


def test_pam_12_3_embedding_ids_unique(export: Path) -> None:
    def same_id(doc: dict[str, Any]) -> None:
        doc["embeddings"][1]["id"] = doc["embeddings"][0]["id"]

    edit(export / "embeddings.json", same_id)
    assert only(validate_path(export), "duplicate-embedding-id").severity == "error"


def test_pam_12_3_vector_length_matches_dimensions(export: Path) -> None:
    def shorten(doc: dict[str, Any]) -> None:
        doc["embeddings"][2]["vector"].pop()

    edit(export / "embeddings.json", shorten)
    finding = only(validate_path(export), "vector-dimensions-mismatch")
    assert finding.severity == "error" and finding.path == "$.embeddings[2].vector"


def test_pam_12_1_embedding_ref_names_other_memory(export: Path) -> None:
    def swap(doc: dict[str, Any]) -> None:
        first, second = doc["embeddings"][0], doc["embeddings"][1]
        first["memory_id"], second["memory_id"] = second["memory_id"], first["memory_id"]

    edit(export / "embeddings.json", swap)
    assert len(by_code(validate_path(export), "embedding-ref-wrong-memory")) == 2


def test_pam_12_2_embeddings_version_matches_store(export: Path) -> None:
    edit(export / "embeddings.json", lambda doc: doc.update(schema_version="1.1"))
    assert only(validate_path(export), "embeddings-version-mismatch").severity == "error"


def test_pam_25_duplicate_message_ids(export: Path) -> None:
    def dup(doc: dict[str, Any]) -> None:
        doc["messages"][1]["id"] = doc["messages"][0]["id"]

    edit(conversation_files(export)[0], dup)
    result = validate_path(export)
    assert by_code(result, "duplicate-message-id")[0].severity == "error"


def test_pam_25_3_unresolved_parent_and_children_are_warnings(export: Path) -> None:
    """PAM §25.3 states no MUST about parent_id / children_ids resolving, and the official
    conversation schema accepts any string: a dangling one is a warning, the export valid."""

    def dangle(doc: dict[str, Any]) -> None:
        doc["messages"][1]["parent_id"] = "nope"
        doc["messages"][0]["children_ids"].append("ghost")

    edit(conversation_files(export)[0], dangle)
    result = validate_path(export)
    assert only(result, "parent-unresolved").severity == "warning"
    assert only(result, "child-unresolved").severity == "warning"
    assert result.valid


def test_pam_25_3_dag_consistency_warning(export: Path) -> None:
    def unlink(doc: dict[str, Any]) -> None:
        doc["messages"][0]["children_ids"] = []

    edit(conversation_files(export)[0], unlink)
    assert by_code(validate_path(export), "dag-inconsistent")[0].severity == "warning"


def test_pam_25_3_import_metadata_should_be_present(export: Path) -> None:
    edit(conversation_files(export)[0], lambda doc: doc.pop("import_metadata"))
    assert only(validate_path(export), "no-import-metadata").severity == "warning"


def test_pam_14_2_conversation_file_id_matches_index(export: Path) -> None:
    edit(conversation_files(export)[0], lambda doc: doc.update(id="other-id"))
    assert only(validate_path(export), "conversation-id-mismatch").severity == "error"


def test_pam_11_4_provider_name_matches_index_platform(export: Path) -> None:
    edit(conversation_files(export)[0], lambda doc: doc["provider"].update(name="gemini"))
    finding = only(validate_path(export), "platform-namespace-mismatch")
    assert finding.severity == "error" and finding.section == "PAM §11.4"


def test_pam_14_message_count_mismatch(export: Path) -> None:
    edit(conversation_files(export)[0], lambda doc: doc["messages"].pop())
    result = validate_path(export)
    assert only(result, "message-count-mismatch").severity == "warning"


def test_pam_14_2_referenced_conversation_file_missing(export: Path) -> None:
    conversation_files(export)[0].unlink()
    assert only(validate_path(export), "conversation-file-missing").severity == "warning"


def test_pam_14_2_unindexed_conversation_file(export: Path) -> None:
    extra = conversation_files(export)[0].read_text(encoding="utf-8")
    (export / "conversations" / "stray.json").write_text(extra, encoding="utf-8")
    result = validate_path(export)
    assert only(result, "conversation-not-indexed").severity == "warning"


def test_pam_2_zip_with_top_folder_and_errors_name_the_entry(tmp_path: Path, export: Path) -> None:
    edit(export / "embeddings.json", lambda doc: doc["embeddings"][0]["vector"].pop())
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(export.rglob("*.json")):
            zf.write(path, Path("my-export") / path.relative_to(export))
    result = validate_path(archive)
    finding = only(result, "vector-dimensions-mismatch")
    assert finding.file == f"{archive}:my-export/embeddings.json"


def test_pam_2_directory_without_memory_store_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    result = validate_path(tmp_path)
    assert result.unreadable and result.exit_code == 2
    assert "memory-store.json" in result.errors[0].message
