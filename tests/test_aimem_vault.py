"""AIMEM bundles into and out of a real (encrypted SQLite) vault: `memvault.exchange.aimem`.

Covers §2.8 (checksum first), §2.9 idempotency on (producer, local), §2.7 unsupported
embedding models, §4 Level 3 (an exported bundle re-imports as a no-op), §5.1 DNA-class and
pinned chunks never decayed or superseded by background work, §5.3 signatures and the audit
record of a skipped verification, and PAM §21.1 (exportable: false never exported).
"""

from __future__ import annotations

import base64
import struct
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from aimemkit import bundle, chunk, write
from memvault.crypto import agefile
from memvault.crypto.keys import SigningKey
from memvault.errors import AccessDenied, DNAProtected
from memvault.exchange import ExportError
from memvault.exchange.aimem import (
    BundleRefused,
    export_bundle,
    import_bundle,
    producer_namespace,
)
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.aimem.cose import sign_bundle
from memvault.formats.aimem.reader import open_bundle, validate_bundle
from memvault.formats.mapping import aimem_content_hash
from memvault.model import MISSING
from memvault.store.base import MemoryQuery
from memvault.vault import BACKGROUND_ACTOR, Vault
from vaultkit import make_vault, pam_memory

NOW = datetime(2026, 6, 12, 10, 0, tzinfo=UTC)
CORPUS = Path(__file__).parent / "aimem_corpus"


def sample_bundle() -> dict[str, Any]:
    chunks = [
        chunk("c1", "User prefers PostgreSQL over MongoDB.", "preference", zone="important"),
        chunk("c2", "Chose Rust for the CLI rewrite.", "decision", tags=["stack"]),
        chunk("c3", "Lives in Lisbon.", "fact", is_pinned=True),
        chunk("c4", "Met Ana at the conference.", "episodic", tags=["People", "ana"]),
    ]
    doc = bundle(chunks)
    doc["edges"] = [
        {
            "source_id": chunks[0]["id"],
            "target_id": chunks[1]["id"],
            "edge_type": "hebbian",
            "weight": 0.42,
            "created_at": "2026-04-15T08:00:00Z",
        }
    ]
    doc["entities"] = [
        {
            "id": "ent-pg",
            "name": "PostgreSQL",
            "kind": "technology",
            "created_at": "2026-04-01T09:30:00Z",
        }
    ]
    doc["chunk_entities"] = [{"chunk_id": chunks[0]["id"], "entity_id": "ent-pg"}]
    doc["checksum"] = bundle_checksum(doc)
    return doc


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    v = make_vault(tmp_path / "vault")
    yield v
    v.close()


def audit_state(vault: Vault) -> tuple[int, str | None]:
    entries = vault.audit_log()
    return len(entries), entries[-1].hash if entries else None


def all_memories(vault: Vault) -> list[Any]:
    return list(vault.iter_memories(MemoryQuery(statuses=None, limit=None)))


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


def test_aimem_import_maps_every_chunk_into_the_vault(vault: Vault, tmp_path: Path) -> None:
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", sample_bundle()), now=NOW)
    assert (result.created, result.rejected, result.signature) == (4, [], "unsigned")
    c1 = vault.get("urn:aimem:memoryai-prod:c1")
    assert c1.type == "preference" and c1.metadata["zone"] == "important"
    assert c1.metadata["aimem"]["edges"][0]["target_id"] == "urn:aimem:memoryai-prod:c2"
    assert c1.metadata["aimem"]["entities"][0]["name"] == "PostgreSQL"
    c2 = vault.get("urn:aimem:memoryai-prod:c2")
    assert (c2.type, c2.custom_type, c2.is_dna) == ("custom", "decision", True)
    assert vault.get("urn:aimem:memoryai-prod:c3").pinned
    c4 = vault.get("urn:aimem:memoryai-prod:c4")
    assert c4.tags == ("ana",) and c4.metadata["aimem"]["tags"] == ["People", "ana"]
    assert vault.verify_audit().ok
    assert [e.format for e in vault.exports()] == ["aimem"]


@pytest.mark.parametrize(
    "name", sorted(p.name for p in (CORPUS / "valid").glob("*.aimem.json")), ids=str
)
def test_aimem_4_level_2_every_valid_corpus_bundle_is_ingested(
    vault: Vault, tmp_path: Path, name: str
) -> None:
    """§4 Level 2: each bundle of the valid corpus goes into the vault, every chunk accounted
    for and none rejected; importing it again changes nothing (§2.9)."""
    path = CORPUS / "valid" / name
    with open_bundle(path) as reader:
        chunks = sum(1 for _ in reader.iter_array("chunks")) if "chunks" in reader.arrays else 0
    result = import_bundle(vault, path, now=NOW)
    assert result.rejected == [], result.to_json()
    assert result.created + result.reinforced + result.unchanged == chunks
    assert vault.stats()["memories"] == result.created
    before = audit_state(vault)
    again = import_bundle(vault, path, now=NOW)
    assert (again.changed, again.rejected, again.unchanged) == (False, [], chunks)
    assert audit_state(vault) == before


def test_aimem_2_9_reimport_of_the_same_bundle_is_a_no_op(vault: Vault, tmp_path: Path) -> None:
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    import_bundle(vault, path, now=NOW)
    before = audit_state(vault), vault.stats()["memories"]
    again = import_bundle(vault, path, now=NOW)
    assert (again.created, again.updated, again.unchanged, again.changed) == (0, 0, 4, False)
    assert (audit_state(vault), vault.stats()["memories"]) == before


def test_aimem_2_9_same_created_at_other_content_rejects_that_chunk(
    vault: Vault, tmp_path: Path
) -> None:
    """Rule 2: the conflicting chunk is rejected with a structured problem; the rest of the
    bundle is imported (the draft rejects *the Chunk*, not the bundle)."""
    import_bundle(vault, write(tmp_path / "a.aimem.json", sample_bundle()), now=NOW)
    changed = sample_bundle()
    changed["chunks"][1] = chunk("c2", "Chose Go for the CLI rewrite.", "decision", tags=["stack"])
    changed["chunks"].append(chunk("c5", "A new fact.", "fact"))
    changed["checksum"] = bundle_checksum(changed)
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", changed), now=NOW)
    (problem,) = result.rejected
    assert (problem.code, problem.path, problem.section, problem.status) == (
        "chunk-conflict",
        "/chunks/1",
        "§2.9",
        409,
    )
    assert problem.record == "urn:aimem:memoryai-prod:c2"
    assert "content" in problem.message
    assert result.created == 1
    assert vault.get("urn:aimem:memoryai-prod:c2").content == "Chose Rust for the CLI rewrite."


def test_aimem_2_9_same_created_at_other_fields_is_rejected_too(
    vault: Vault, tmp_path: Path
) -> None:
    """§5.4: any field change under a created_at already imported is refused."""
    import_bundle(vault, write(tmp_path / "a.aimem.json", sample_bundle()), now=NOW)
    changed = sample_bundle()
    changed["chunks"][2]["is_pinned"] = False
    changed["checksum"] = bundle_checksum(changed)
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", changed), now=NOW)
    assert [p.code for p in result.rejected] == ["chunk-conflict"]
    assert "is_pinned" in result.rejected[0].message
    assert vault.get("urn:aimem:memoryai-prod:c3").pinned


def test_aimem_2_9_compares_with_the_chunk_as_imported_not_the_evolved_memory(
    vault: Vault, tmp_path: Path
) -> None:
    """The vault's copy may move on (reinforced with a new tag, pinned by the user); the same
    bundle imported again is still a no-op, and a changed chunk is still a conflict."""
    path = write(tmp_path / "a.aimem.json", sample_bundle())
    import_bundle(vault, path, now=NOW)
    vault.add("Chose Rust for the CLI rewrite.", "custom", custom_type="decision", tags=["cli"])
    assert vault.get("urn:aimem:memoryai-prod:c2").tags == ("stack", "cli")
    again = import_bundle(vault, path, now=NOW)
    assert (again.unchanged, again.rejected) == (4, [])
    changed = sample_bundle()
    changed["chunks"][1]["tags"] = ["stack", "go"]
    changed["checksum"] = bundle_checksum(changed)
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", changed), now=NOW)
    assert [p.record for p in result.rejected] == ["urn:aimem:memoryai-prod:c2"]


def test_aimem_2_9_strict_refuses_the_whole_bundle_on_a_conflict(
    vault: Vault, tmp_path: Path
) -> None:
    import_bundle(vault, write(tmp_path / "a.aimem.json", sample_bundle()), now=NOW)
    before = audit_state(vault)
    changed = sample_bundle()
    changed["chunks"][1] = chunk("c2", "Other content.", "decision")
    changed["chunks"].append(chunk("c9", "Would be new.", "fact"))
    changed["checksum"] = bundle_checksum(changed)
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, write(tmp_path / "b.aimem.json", changed), strict=True, now=NOW)
    assert caught.value.status == 409
    assert audit_state(vault) == before
    assert vault.stats()["memories"] == 4


def test_aimem_2_9_newer_created_at_updates_the_memory(vault: Vault, tmp_path: Path) -> None:
    """Rule 3, memvault's choice: a newer chunk replaces the vault's copy (audited)."""
    import_bundle(vault, write(tmp_path / "a.aimem.json", sample_bundle()), now=NOW)
    newer = sample_bundle()
    newer["chunks"][0] = chunk(
        "c1", "User prefers PostgreSQL 17.", "preference", created_at="2026-05-01T00:00:00Z"
    )
    older = sample_bundle()
    older["chunks"][3] = chunk("c4", "Older text.", "episodic", created_at="2025-01-01T00:00:00Z")
    newer["checksum"] = bundle_checksum(newer)
    older["checksum"] = bundle_checksum(older)
    result = import_bundle(vault, write(tmp_path / "n.aimem.json", newer), now=NOW)
    assert (result.updated, result.unchanged) == (1, 3)
    memory = vault.get("urn:aimem:memoryai-prod:c1")
    assert memory.content == "User prefers PostgreSQL 17."
    assert memory.temporal.created_at == "2026-05-01T00:00:00Z"
    assert vault.audit_log(memory_id=memory.id)[-1].details["via"] == "aimem"
    kept = import_bundle(vault, write(tmp_path / "o.aimem.json", older), now=NOW)
    assert kept.kept == 2  # c4, and c1 whose vault copy is now the newer one
    assert vault.get("urn:aimem:memoryai-prod:c4").content == "Met Ana at the conference."
    assert vault.verify_audit().ok


def test_aimem_2_2_content_hash_mismatch_rejects_the_chunk(vault: Vault, tmp_path: Path) -> None:
    doc = sample_bundle()
    doc["chunks"][3]["content_hash"] = aimem_content_hash("something else")
    doc["checksum"] = bundle_checksum(doc)
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", doc), now=NOW)
    assert [p.code for p in result.rejected] == ["content-hash-mismatch"]
    assert result.created == 3


def test_aimem_2_8_checksum_mismatch_refuses_everything_with_409(
    vault: Vault, tmp_path: Path
) -> None:
    doc = sample_bundle()
    doc["chunks"][0]["content"] = "tampered"
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, write(tmp_path / "b.aimem.json", doc), now=NOW)
    assert caught.value.status == 409
    assert caught.value.problems[0].code == "checksum-mismatch"
    assert vault.stats()["memories"] == 0


def test_aimem_2_4_edge_to_an_unknown_chunk_refuses_the_bundle_with_422(
    vault: Vault, tmp_path: Path
) -> None:
    doc = sample_bundle()
    doc["edges"][0]["target_id"] = "urn:aimem:memoryai-prod:nowhere"
    doc["checksum"] = bundle_checksum(doc)
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, write(tmp_path / "b.aimem.json", doc), now=NOW)
    assert caught.value.status == 422
    assert vault.stats()["memories"] == 0


def test_aimem_7_version_2_is_refused(vault: Vault, tmp_path: Path) -> None:
    doc = sample_bundle()
    doc["version"] = "2"
    doc["checksum"] = bundle_checksum(doc)
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, write(tmp_path / "b.aimem.json", doc), now=NOW)
    assert caught.value.status == 422


def embedded_bundle(model: str) -> dict[str, Any]:
    vector = base64.b64encode(struct.pack("<2f", 0.5, -0.25)).decode()
    return bundle(
        [chunk("e1", "Has an embedding.", "fact", embedding=vector)],
        embedding_model=model,
        embedding_dim=2,
    )


def test_aimem_2_7_embeddings_of_a_supported_model_are_kept(vault: Vault, tmp_path: Path) -> None:
    result = import_bundle(
        vault, write(tmp_path / "b.aimem.json", embedded_bundle("bge-small")), now=NOW
    )
    assert result.embeddings == 1
    stored = vault.get_embedding("urn:aimem:memoryai-prod:e1")
    assert stored is not None and stored.model == "bge-small"
    assert struct.unpack("<2f", stored.vector or b"") == (0.5, -0.25)


def test_aimem_2_7_unsupported_model_drops_embeddings_with_a_warning(
    vault: Vault, tmp_path: Path
) -> None:
    result = import_bundle(
        vault,
        write(tmp_path / "b.aimem.json", embedded_bundle("text-embedding-3-small")),
        embedding_models=["bge-small"],
        now=NOW,
    )
    assert (result.created, result.embeddings, result.embeddings_dropped) == (1, 0, 1)
    (warning,) = result.warnings
    assert warning.startswith("embedding-model-unsupported") and "text-embedding-3-small" in warning
    assert "§2.7" in warning
    assert vault.get_embedding("urn:aimem:memoryai-prod:e1") is None
    assert vault.get("urn:aimem:memoryai-prod:e1").embedding_ref is MISSING  # names nothing


def test_aimem_2_7_a_vault_keeps_the_model_it_adopted(vault: Vault, tmp_path: Path) -> None:
    import_bundle(vault, write(tmp_path / "a.aimem.json", embedded_bundle("bge-small")), now=NOW)
    other = embedded_bundle("text-embedding-3-small")
    other["chunks"][0] = {
        **other["chunks"][0],
        "id": "urn:aimem:memoryai-prod:e2",
        "content": "Another.",
        "content_hash": aimem_content_hash("Another."),
    }
    other["checksum"] = bundle_checksum(other)
    result = import_bundle(vault, write(tmp_path / "b.aimem.json", other), now=NOW)
    assert result.embeddings_dropped == 1
    assert vault.get_embedding("urn:aimem:memoryai-prod:e2") is None


def test_aimem_import_dedups_into_an_existing_memory_and_stays_idempotent(
    vault: Vault, tmp_path: Path
) -> None:
    """PAM §6: the same fact becomes one memory; re-importing the chunk does not reinforce it
    again (§2.9: the URN is remembered)."""
    vault.add("Lives in Lisbon.", "fact", now=NOW)
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    first = import_bundle(vault, path, now=NOW)
    assert (first.created, first.reinforced) == (3, 1)
    before = audit_state(vault)
    again = import_bundle(vault, path, now=NOW)
    assert (again.reinforced, again.unchanged, again.changed) == (0, 4, False)
    assert audit_state(vault) == before


# ---------------------------------------------------------------------------------------------
# §5.3 signatures
# ---------------------------------------------------------------------------------------------


def test_aimem_5_3_signature_verified_when_present(vault: Vault, tmp_path: Path) -> None:
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    key = SigningKey.new("Ed25519")
    sign_bundle(path, key)
    result = import_bundle(vault, path, now=NOW)
    assert result.signature == "verified"
    assert not [e for e in vault.audit_log() if e.action == "signature"]


def test_aimem_5_3_bad_signature_refuses_the_bundle(vault: Vault, tmp_path: Path) -> None:
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    sign_bundle(path, SigningKey.new("Ed25519"))
    other = write(tmp_path / "c.aimem.json", bundle([chunk("z", "Different.", "fact")]))
    (tmp_path / "c.aimem.json.sig").write_bytes((tmp_path / "b.aimem.json.sig").read_bytes())
    before = audit_state(vault)
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, other, now=NOW)
    assert "--allow-unverified" in str(caught.value)
    assert caught.value.problems[0].code == "signature-invalid"
    assert audit_state(vault) == before


def test_aimem_5_3_accepted_unverified_is_a_loud_warning_and_audited(
    vault: Vault, tmp_path: Path
) -> None:
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    sign_bundle(path, SigningKey.new("Ed25519"))
    other = write(tmp_path / "c.aimem.json", bundle([chunk("z", "Different.", "fact")]))
    (tmp_path / "c.aimem.json.sig").write_bytes((tmp_path / "b.aimem.json.sig").read_bytes())
    result = import_bundle(vault, other, allow_unverified=True, now=NOW)
    assert result.signature == "invalid" and result.created == 1
    assert result.warnings[0].startswith("SIGNATURE NOT VERIFIED")
    (entry,) = [e for e in vault.audit_log() if e.action == "signature"]
    assert entry.details["status"] == "invalid"
    assert vault.verify_audit().ok


def test_aimem_5_3_skipped_verification_is_written_to_the_audit_log(
    vault: Vault, tmp_path: Path
) -> None:
    path = write(tmp_path / "b.aimem.json", sample_bundle())
    sign_bundle(path, SigningKey.new("Ed25519"))
    result = import_bundle(vault, path, verify_signature=False, now=NOW)
    assert result.signature == "skipped"
    (entry,) = [e for e in vault.audit_log() if e.action == "signature"]
    assert entry.details["status"] == "skipped"
    assert "signature file is present" in entry.details["reason"]
    assert entry.details["checksum"] == result.checksum
    assert vault.verify_audit().ok


# ---------------------------------------------------------------------------------------------
# §5.1 DNA class
# ---------------------------------------------------------------------------------------------


def test_aimem_5_1_dna_and_pinned_chunks_are_never_decayed_or_superseded(
    vault: Vault, tmp_path: Path
) -> None:
    """Chunks that carry a decaying confidence (x-pam from another memvault) are decayed only
    when they are neither DNA-class nor pinned; background work cannot supersede them."""
    source = make_vault(tmp_path / "source")
    decaying = {"confidence": 0.9, "decay_model": "time_exponential"}
    memories = [
        pam_memory("A decision.", type="custom", custom_type="decision", **decaying),
        pam_memory("A pitfall.", type="custom", custom_type="pitfall", **decaying),
        pam_memory("A procedure.", type="custom", custom_type="procedure", **decaying),
        pam_memory("Pinned fact.", metadata={"pinned": True}, **decaying),
        pam_memory("Plain fact.", **decaying),
        pam_memory("A preference.", type="preference", **decaying),
    ]
    source.add_memories(memories)
    path = tmp_path / "dna.aimem.json"
    export_bundle(source, path, now=NOW)
    source.close()
    import_bundle(vault, path, now=NOW)
    report = vault.decay(datetime(2030, 1, 1, tzinfo=UTC))
    assert report.updated == 1
    for memory in memories:
        current = vault.get(memory.id).confidence.current  # type: ignore[union-attr]
        assert (current == 0.9) == (memory.content != "Plain fact."), memory.content
    newer = vault.add("A newer decision.", "custom", custom_type="decision", now=NOW)
    with pytest.raises(DNAProtected):
        vault.acting_as(BACKGROUND_ACTOR).supersede(memories[0].id, newer.memory.id)
    with pytest.raises(DNAProtected):
        vault.acting_as(BACKGROUND_ACTOR).supersede(memories[3].id, newer.memory.id)


# ---------------------------------------------------------------------------------------------
# Export and Level 3
# ---------------------------------------------------------------------------------------------


def filled_vault(vault: Vault) -> list[Any]:
    memories = [
        pam_memory("Prefers dark mode.", type="preference", tags=["ui"]),
        pam_memory("Works at Acme.", tags=["work"]),
        pam_memory("Secret diary entry.", exportable=False),
        pam_memory("Retracted claim.", status="retracted"),
        pam_memory("Answer in Portuguese.", type="instruction"),
    ]
    vault.add_memories(memories, now=NOW)
    vault.relate(memories[0].id, memories[1].id, "related_to", confidence=0.7, now=NOW)
    vault.relate(memories[1].id, memories[2].id, "supports", now=NOW)
    return memories


def test_aimem_4_level_3_export_reimports_as_a_no_op(vault: Vault, tmp_path: Path) -> None:
    filled_vault(vault)
    import_bundle(vault, write(tmp_path / "in.aimem.json", sample_bundle()), now=NOW)
    for name in ("out.aimem.json", "out.ndjson"):
        result = export_bundle(vault, tmp_path / name, now=NOW)
        assert validate_bundle(tmp_path / name).valid
        before = audit_state(vault), vault.stats()
        again = import_bundle(vault, tmp_path / name, now=NOW)
        assert not again.changed and not again.rejected, again.to_json()
        assert again.unchanged == result.chunks
        assert (audit_state(vault), vault.stats()) == before


def test_pam_21_1_exportable_false_is_never_exported(vault: Vault, tmp_path: Path) -> None:
    memories = filled_vault(vault)
    result = export_bundle(vault, tmp_path / "out.aimem.json", now=NOW)
    assert (result.chunks, result.withheld, result.edges) == (4, 1, 1)
    raw = (tmp_path / "out.aimem.json").read_bytes()
    assert b"Secret diary" not in raw and memories[2].id.encode() not in raw


def test_pam_21_1_a_withheld_memory_is_not_named_by_the_others(
    vault: Vault, tmp_path: Path
) -> None:
    """An AIMEM edge or a superseded_by pointing at a memory marked exportable: false is left
    out: the bundle does not disclose even its id."""
    import_bundle(vault, write(tmp_path / "in.aimem.json", sample_bundle()), now=NOW)
    hidden = "urn:aimem:memoryai-prod:c2"
    vault.supersede("urn:aimem:memoryai-prod:c4", hidden, now=NOW)
    vault.update(hidden, exportable=False, now=NOW)
    result = export_bundle(vault, tmp_path / "out.aimem.json", now=NOW)
    assert (result.chunks, result.withheld, result.edges) == (3, 1, 0)
    raw = (tmp_path / "out.aimem.json").read_bytes()
    assert b"memoryai-prod:c2" not in raw and b"memoryai-prod%3Ac2" not in raw
    before = audit_state(vault)
    again = import_bundle(vault, tmp_path / "out.aimem.json", now=NOW)
    assert not again.changed and not again.rejected
    assert audit_state(vault) == before


def test_aimem_5_2_erased_chunk_never_exported(vault: Vault, tmp_path: Path) -> None:
    """§5.2 item 3: an erased memory is gone from every later export, in both forms — its
    content, its id, and the edge and entity link that named it."""
    import_bundle(vault, write(tmp_path / "in.aimem.json", sample_bundle()), now=NOW)
    erased = "urn:aimem:memoryai-prod:c2"  # the target of c1's hebbian edge
    vault.erase(erased, now=NOW)
    for name in ("out.aimem.json", "out.ndjson"):
        result = export_bundle(vault, tmp_path / name, now=NOW)
        assert (result.chunks, result.edges) == (3, 0)
        raw = (tmp_path / name).read_bytes()
        assert b"Chose Rust" not in raw and b"memoryai-prod:c2" not in raw
        assert b"memoryai-prod%3Ac2" not in raw
        assert validate_bundle(tmp_path / name).valid


def test_aimem_5_5_embeddings_leave_the_vault_only_when_asked(vault: Vault, tmp_path: Path) -> None:
    """§5.5: embeddings can leak content, so an export carries them only with
    `embeddings=True` (`--with-embeddings`)."""
    import_bundle(vault, write(tmp_path / "in.aimem.json", embedded_bundle("bge-small")), now=NOW)
    plain = export_bundle(vault, tmp_path / "plain.aimem.json", now=NOW)
    with open_bundle(tmp_path / "plain.aimem.json") as reader:
        assert "embedding_model" not in reader.envelope
        assert all(c.get("embedding") is None for c in reader.iter_array("chunks"))
    assert plain.embeddings == 0
    asked = export_bundle(vault, tmp_path / "with.aimem.json", embeddings=True, now=NOW)
    with open_bundle(tmp_path / "with.aimem.json") as reader:
        assert (reader.envelope["embedding_model"], reader.envelope["embedding_dim"]) == (
            "bge-small",
            2,
        )
    assert asked.embeddings == 1


def test_aimem_5_5_imported_embeddings_have_the_access_of_the_content(
    vault: Vault, tmp_path: Path
) -> None:
    """§5.5: a vector taken in from a bundle is refused to whoever may not read its chunk."""
    import_bundle(vault, write(tmp_path / "in.aimem.json", embedded_bundle("bge-small")), now=NOW)
    memory_id = "urn:aimem:memoryai-prod:e1"
    assert vault.get_embedding(memory_id) is not None
    with pytest.raises(AccessDenied):
        vault.acting_as("agent").get_embedding(memory_id)
    vault.update(memory_id, visibility="public", now=NOW)
    assert vault.acting_as("agent").get_embedding(memory_id) is not None


def test_aimem_export_scopes(vault: Vault, tmp_path: Path) -> None:
    filled_vault(vault)
    dna = export_bundle(vault, tmp_path / "dna.aimem.json", scope="DNA_ONLY", now=NOW)
    assert dna.chunks == 2  # the preference and the instruction
    later = datetime(2027, 1, 1, tzinfo=UTC)
    vault.add("Learned in 2027.", "fact", now=later)
    since = export_bundle(
        vault, tmp_path / "since.ndjson", scope="SINCE", since="2026-12-01T00:00:00Z", now=later
    )
    assert since.chunks == 1
    with open_bundle(tmp_path / "since.ndjson") as reader:
        assert reader.envelope["scope"] == "SINCE"
        assert reader.envelope["since"] == "2026-12-01T00:00:00Z"
        assert reader.envelope["producer"] == producer_namespace(vault)
    with pytest.raises(ExportError, match="SINCE"):
        export_bundle(vault, tmp_path / "x.aimem.json", scope="SINCE", now=NOW)


def test_aimem_2_3_producer_namespace_is_stable_and_valid(vault: Vault, tmp_path: Path) -> None:
    namespace = producer_namespace(vault)
    assert namespace.startswith("memvault-") and len(namespace) == 21
    assert namespace == producer_namespace(vault)
    other = make_vault(tmp_path / "other")
    assert producer_namespace(other) != namespace
    other.close()


def test_aimem_export_into_another_vault_and_back(vault: Vault, tmp_path: Path) -> None:
    """Memories travel between vaults under their PAM ids (x-pam), so a second vault's
    export re-imports into the first as a no-op too."""
    filled_vault(vault)
    export_bundle(vault, tmp_path / "a.aimem.json", now=NOW)
    second = make_vault(tmp_path / "second")
    imported = import_bundle(second, tmp_path / "a.aimem.json", now=NOW)
    assert imported.created == 4 and imported.relations == 1
    export_bundle(second, tmp_path / "b.aimem.json", now=NOW)
    second.close()
    before = audit_state(vault)
    back = import_bundle(vault, tmp_path / "b.aimem.json", now=NOW)
    assert not back.changed and not back.rejected
    assert audit_state(vault) == before


def test_aimem_export_refuses_to_overwrite(vault: Vault, tmp_path: Path) -> None:
    target = tmp_path / "out.aimem.json"
    target.write_text("keep me")
    with pytest.raises(ExportError, match="exists"):
        export_bundle(vault, target, now=NOW)
    assert target.read_text() == "keep me"


# ---------------------------------------------------------------------------------------------
# Bundles in age files and zips
# ---------------------------------------------------------------------------------------------


def sealed(path: Path, passphrase: str = "pw") -> Path:
    target = path.with_name(path.name + ".age")
    target.write_bytes(agefile.encrypt(path.read_bytes(), passphrase=passphrase))
    return target


def test_aimem_5_3_age_encrypted_bundle_imports_with_its_signature(
    vault: Vault, tmp_path: Path
) -> None:
    """An age file of a bundle is decrypted in memory and imported; its signature is the
    plaintext's (`brain.aimem.json.sig` beside `brain.aimem.json.age`) and is verified."""
    plain = write(tmp_path / "brain.aimem.json", sample_bundle())
    sign_bundle(plain, SigningKey.new("Ed25519"))
    age_file = sealed(plain)
    plain.unlink()
    with pytest.raises(BundleRefused):
        import_bundle(vault, age_file, now=NOW)  # no passphrase: not readable as a bundle
    result = import_bundle(vault, age_file, age_passphrase="pw", now=NOW)
    assert (result.created, result.signature, result.source) == (4, "verified", str(age_file))
    (tmp_path / "brain.aimem.json.sig").write_bytes(b"not a signature")
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, age_file, age_passphrase=lambda: "pw", now=NOW)
    assert caught.value.problems[0].code == "signature-invalid"


def test_aimem_5_3_zipped_bundle_imports_with_its_signature_member(
    vault: Vault, tmp_path: Path
) -> None:
    """The one bundle of a zip is imported; a `<member>.sig` member is its §5.3 signature."""
    plain = write(tmp_path / "brain.aimem.json", sample_bundle())
    signature = sign_bundle(plain, SigningKey.new("ES256")).read_bytes()
    archive = tmp_path / "brain.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("export/brain.aimem.json", plain.read_bytes())
        zf.writestr("export/brain.aimem.json.sig", signature)
    result = import_bundle(vault, archive, now=NOW)
    assert (result.created, result.signature) == (4, "verified")
    assert result.source == f"{archive}:export/brain.aimem.json"
    forged = tmp_path / "forged.zip"
    with zipfile.ZipFile(forged, "w") as zf:
        zf.writestr("other.aimem.json", orjson.dumps(bundle([chunk("z", "Other.")])))
        zf.writestr("other.aimem.json.sig", signature)
    before = audit_state(vault)
    with pytest.raises(BundleRefused) as caught:
        import_bundle(vault, forged, now=NOW)
    assert caught.value.problems[0].code == "signature-invalid"
    assert audit_state(vault) == before
