"""`memvault import`: one transaction (all or nothing), validation first, dedup across
platforms (PAM §6), incremental merge into the vault (§16.3), the registry, and bad input that
leaves the vault unchanged."""

from __future__ import annotations

import contextlib
import json
import shutil
import zipfile
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_EXPORT, CliOutcome
from exchangekit import T0, documents, official_conversation, state
from memvault.canonical import content_hash
from memvault.exchange import (
    ImportConflict,
    ImportHooks,
    ImportRefused,
    UnknownBase,
    export_vault,
    import_into_vault,
)
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from pamdocs import OFFICIAL_EXAMPLES, sample_store, write_store
from vaultkit import PASSPHRASE, make_vault, pam_memory

LATER = T0 + timedelta(days=1)
EVERYTHING = MemoryQuery(statuses=None, limit=None)


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return make_vault(tmp_path / "vault")


def everything(vault: Vault) -> dict[str, Any]:
    return {m.id: m.to_json() for m in vault.iter_memories(EVERYTHING)}


# -- whole exports ----------------------------------------------------------------------------


@pytest.mark.parametrize("source", [EXAMPLE_EXPORT, EXAMPLE_EXPORT.with_suffix(".zip")])
def test_import_the_sample_export(vault: Vault, source: Path) -> None:
    result = import_into_vault(vault, source, now=T0)
    store = documents(source)["memory-store.json"]
    assert result.created == len(store["memories"]) == 14
    assert (result.relations, result.conversations) == (6, 2)
    assert result.embeddings == len(documents(source)["embeddings.json"]["embeddings"])
    assert result.export_id == store["export_id"] and not result.already_imported
    memories = everything(vault)
    for memory in store["memories"]:
        assert memories[memory["id"]] == memory  # kept exactly: ids, timestamps, provenance
    assert vault.verify_audit().ok
    record = vault.exports()[-1]
    assert (record.export_id, record.direction, record.memory_count) == (
        store["export_id"], "imported", 14,
    )  # fmt: skip
    conversation = vault.get_conversation(store["conversations_index"][0]["id"])
    assert conversation.document["schema"] == "portable-ai-memory-conversation"


def test_reimporting_the_same_export_is_a_no_op(vault: Vault) -> None:
    import_into_vault(vault, EXAMPLE_EXPORT, now=T0)
    before = state(vault)
    again = import_into_vault(vault, EXAMPLE_EXPORT.with_suffix(".zip"), now=LATER)
    assert again.already_imported and not again.changed
    assert state(vault) == before


def test_importing_own_export_is_a_no_op(vault: Vault, tmp_path: Path) -> None:
    vault.add("User likes green tea", "preference")
    export_vault(vault, tmp_path / "mine.zip")
    before = state(vault)
    assert import_into_vault(vault, tmp_path / "mine.zip").already_imported
    assert state(vault) == before


def test_memory_level_idempotence_without_export_id(vault: Vault, tmp_path: Path) -> None:
    memories = [pam_memory(f"fact {i}").to_json() for i in range(3)]
    first = write_store(tmp_path / "a.json", memories, export_id=None)
    import_into_vault(vault, first)
    second = write_store(tmp_path / "b.json", memories, export_id=None)
    result = import_into_vault(vault, second)
    assert result.unchanged == 3 and not result.changed


# -- dedup across platforms (PAM §6) ----------------------------------------------------------


def test_same_fact_from_two_platforms_is_one_memory_pam_6(vault: Vault, tmp_path: Path) -> None:
    chatgpt = pam_memory("User lives in Lisbon", platform="chatgpt", tags=["home"])
    vault.add_memories([chatgpt], now=T0)
    claude = pam_memory("  user LIVES in lisbon ", platform="claude", tags=["city"],
                        created_at="2025-06-01T00:00:00Z")  # fmt: skip
    other = pam_memory("User runs marathons", platform="claude")
    relation = {
        "id": "rel-1", "from": claude.id, "to": other.id, "type": "supports",
        "confidence": 0.9, "created_at": "2025-06-01T00:00:00Z",
    }  # fmt: skip
    source = write_store(
        tmp_path / "claude.json", [claude.to_json(), other.to_json()], relations=[relation]
    )
    result = import_into_vault(vault, source, now=LATER)
    assert (result.created, result.reinforced) == (1, 1)
    assert result.merged_into == {claude.id: chatgpt.id}
    survivor = vault.get(chatgpt.id)
    assert survivor.provenance.platform == "chatgpt"  # the first statement's provenance wins
    assert survivor.confidence.current > chatgpt.confidence.current  # type: ignore[union-attr,operator]
    assert survivor.tags == ("home", "city")
    assert vault.stats()["memories"] == 2
    [edge] = vault.relations(chatgpt.id)
    assert (edge.id, edge.from_, edge.to) == ("rel-1", chatgpt.id, other.id)  # remapped
    assert vault.verify_audit().ok


# -- incremental (PAM §16.3) ------------------------------------------------------------------


def _sender(tmp_path: Path) -> tuple[Vault, Path, list[str]]:
    sender = make_vault(tmp_path / "sender")
    ids = [sender.add(f"Sender fact {i}", "fact", now=T0).memory.id for i in range(4)]
    sender.relate(ids[0], ids[1], "extends", now=T0)
    export_vault(sender, tmp_path / "base.zip", now=T0 + timedelta(seconds=1))
    return sender, tmp_path / "base.zip", ids


def test_delta_updates_inserts_and_retracts_pam_16_3(vault: Vault, tmp_path: Path) -> None:
    sender, base, ids = _sender(tmp_path)
    import_into_vault(vault, base, now=T0)
    moment = T0 + timedelta(hours=1)
    sender.retract(ids[0], now=moment)
    sender.update(ids[1], content="Sender fact one, corrected", now=moment)
    new = sender.add("Sender fact added later", "fact", now=moment).memory
    export_vault(sender, tmp_path / "delta.zip", incremental=True, now=moment)
    result = import_into_vault(vault, tmp_path / "delta.zip", now=LATER)
    assert (result.updated, result.created, result.export_type) == (2, 1, "incremental")
    memories = everything(vault)
    assert len(memories) == 5  # nothing deleted
    assert memories[ids[0]]["status"] == "retracted"  # marked, kept (rules 4, 5)
    assert memories[ids[0]]["content"] == "Sender fact 0"
    assert memories[ids[1]]["content"] == "Sender fact one, corrected"
    assert memories[new.id]["content"] == new.content
    assert everything(vault) == everything(sender)
    assert vault.verify_audit().ok
    assert [r.direction for r in vault.exports()] == ["imported", "imported"]


def test_delta_for_an_unknown_base_is_refused_pam_16_3(vault: Vault, tmp_path: Path) -> None:
    sender, _, ids = _sender(tmp_path)
    sender.retract(ids[2], now=T0 + timedelta(hours=1))
    export_vault(sender, tmp_path / "delta", incremental=True, now=T0 + timedelta(hours=1))
    vault.add("Something of my own", "fact")
    before = state(vault)
    with pytest.raises(UnknownBase, match="never exported nor imported"):
        import_into_vault(vault, tmp_path / "delta")
    assert state(vault) == before
    forced = import_into_vault(vault, tmp_path / "delta", force=True)
    assert forced.created == 1 and any("--force" in w for w in forced.warnings)


def test_final_status_is_kept_pam_7_1(vault: Vault, tmp_path: Path) -> None:
    sender, base, ids = _sender(tmp_path)
    import_into_vault(vault, base, now=T0)
    vault.retract(ids[3], now=T0 + timedelta(minutes=5))
    sender.update(ids[3], tags=["changed"], now=T0 + timedelta(hours=1))
    export_vault(sender, tmp_path / "delta", incremental=True, now=T0 + timedelta(hours=1))
    result = import_into_vault(vault, tmp_path / "delta", now=LATER)
    assert result.kept == 1 and "final state" in result.warnings[-1]
    assert vault.get(ids[3]).status == "retracted"


def test_full_import_keeps_the_newer_copy(vault: Vault, tmp_path: Path) -> None:
    memory = pam_memory("A fact that will be edited", created_at="2025-01-01T00:00:00Z")
    older = write_store(tmp_path / "old.json", [memory.to_json()])
    import_into_vault(vault, older, now=T0)
    vault.update(memory.id, tags=["mine"], now=T0 + timedelta(hours=1))
    stale = memory.evolve(summary="stale copy").to_json()
    result = import_into_vault(
        vault, write_store(tmp_path / "stale.json", [stale], export_id=None), now=LATER
    )
    assert result.kept == 1 and vault.get(memory.id).tags == ("mine",)
    fresh = memory.evolve(
        summary="fresh copy", temporal=memory.temporal.evolve(updated_at="2027-01-01T00:00:00Z")
    ).to_json()
    result = import_into_vault(
        vault, write_store(tmp_path / "fresh.json", [fresh], export_id=None), now=LATER
    )
    assert result.updated == 1 and vault.get(memory.id).summary == "fresh copy"


def test_local_privacy_survives_an_update_pam_21_1(vault: Vault, tmp_path: Path) -> None:
    sender, base, ids = _sender(tmp_path)
    import_into_vault(vault, base, now=T0)
    vault.update(ids[2], exportable=False, now=T0 + timedelta(minutes=1))
    sender.update(ids[2], tags=["new"], now=T0 + timedelta(hours=1))
    export_vault(sender, tmp_path / "delta", incremental=True, now=T0 + timedelta(hours=1))
    import_into_vault(vault, tmp_path / "delta", now=LATER)
    memory = vault.get(ids[2])
    assert memory.tags == ("new",) and memory.access.exportable is False  # type: ignore[union-attr]


def test_conflict_rolls_everything_back(vault: Vault, tmp_path: Path) -> None:
    sender, base, ids = _sender(tmp_path)
    import_into_vault(vault, base, now=T0)
    mine = vault.add("Sender fact one, corrected", "fact", now=T0 + timedelta(minutes=1))
    sender.update(ids[1], content="Sender fact one, corrected", now=T0 + timedelta(hours=1))
    sender.add("Also new in the delta", "fact", now=T0 + timedelta(hours=1))
    export_vault(sender, tmp_path / "delta", incremental=True, now=T0 + timedelta(hours=1))
    before = state(vault)
    with pytest.raises(ImportConflict, match=mine.memory.id):
        import_into_vault(vault, tmp_path / "delta", now=LATER)
    assert state(vault) == before


# -- bad input: clear errors, vault unchanged -------------------------------------------------


def test_invalid_document_is_refused_with_findings(vault: Vault, tmp_path: Path) -> None:
    vault.add("Already here", "fact")
    doc = sample_store()
    doc["memories"][0]["content"] = "tampered"  # content_hash and checksum no longer match
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    before = state(vault)
    with pytest.raises(ImportRefused, match="not valid PAM") as caught:
        import_into_vault(vault, path)
    codes = {f.code for f in caught.value.findings}
    assert {"content-hash-mismatch", "checksum-mismatch"} <= codes
    assert state(vault) == before


def test_truncated_zip_is_refused(vault: Vault, tmp_path: Path) -> None:
    data = EXAMPLE_EXPORT.with_suffix(".zip").read_bytes()
    path = tmp_path / "cut.zip"
    path.write_bytes(data[: len(data) // 2])
    before = state(vault)
    with pytest.raises(ImportRefused, match="truncated or damaged"):
        import_into_vault(vault, path)
    assert state(vault) == before


def test_unreadable_paths_are_refused(vault: Vault, tmp_path: Path) -> None:
    with pytest.raises(ImportRefused, match="no such file"):
        import_into_vault(vault, tmp_path / "missing.zip")
    (tmp_path / "notpam").mkdir()
    (tmp_path / "notpam" / "x.json").write_text("{}")
    with pytest.raises(ImportRefused, match=r"memory-store\.json"):
        import_into_vault(vault, tmp_path / "notpam")


def test_a_failure_midway_leaves_nothing(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = state(vault)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(type(vault.store), "put_embedding", broken)  # the last step
    with pytest.raises(RuntimeError, match="disk on fire"):
        import_into_vault(vault, EXAMPLE_EXPORT)
    assert state(vault) == before  # memories, relations, conversations rolled back too


# -- lone companion documents -----------------------------------------------------------------


def test_lone_conversation_and_embeddings_files(vault: Vault, tmp_path: Path) -> None:
    conversation = tmp_path / "conv.json"
    conversation.write_text(json.dumps(official_conversation("conv-lone")))
    assert import_into_vault(vault, conversation).conversations == 1
    assert vault.get_conversation("conv-lone").platform == "claude"
    memory = pam_memory("Has a vector", id="mem-001-identity")
    vault.add_memories([memory])
    embeddings = tmp_path / "emb.json"
    shutil.copy(OFFICIAL_EXAMPLES / "example-embeddings.json", embeddings)
    result = import_into_vault(vault, embeddings)
    assert result.embeddings == 1
    assert any("4 embeddings" in w for w in result.warnings), result.warnings
    # Not the vault's embedding model: kept as received, and the summary says so (PAM §12).
    assert any("kept as received" in w for w in result.warnings), result.warnings
    stored = vault.get_embedding(memory.id)
    assert stored is not None and (stored.id, stored.dimensions) == ("emb-001", 8)


def test_official_example_survives_import_and_export(vault: Vault, tmp_path: Path) -> None:
    source = tmp_path / "official"
    source.mkdir()
    original = json.loads((OFFICIAL_EXAMPLES / "example-memory-store.json").read_text())
    original["signature"] = None  # its placeholder value does not verify (§18.4)
    (source / "memory-store.json").write_text(json.dumps(original))
    shutil.copy(OFFICIAL_EXAMPLES / "example-embeddings.json", source / "embeddings.json")
    (source / "conversations").mkdir()
    shutil.copy(
        OFFICIAL_EXAMPLES / "example-conversation.json", source / "conversations/conv-001.json"
    )
    result = import_into_vault(vault, source)
    assert (result.created, result.relations, result.conversations, result.embeddings) == (
        5,
        3,
        3,
        5,
    )
    export_vault(vault, tmp_path / "out")
    exported = json.loads((tmp_path / "out" / "memory-store.json").read_text())
    assert sorted(exported["memories"], key=lambda m: m["id"]) == sorted(
        original["memories"], key=lambda m: m["id"]
    )
    assert {r["id"]: r for r in exported["relations"]} == {
        r["id"]: r for r in original["relations"]
    }
    entries = {c["id"]: c for c in exported["conversations_index"]}
    assert entries["conv-001"]["storage"]["ref"] == "conversations/conv-001.json"
    assert "storage" not in entries["conv-002"]  # its file was not part of the export
    assert entries["conv-002"]["tags"] == ["scrapy", "web-scraping", "scaling"]
    copy = json.loads((tmp_path / "out/conversations/conv-001.json").read_text())
    assert copy == json.loads((OFFICIAL_EXAMPLES / "example-conversation.json").read_text())


# -- CLI --------------------------------------------------------------------------------------


def test_cli_import(
    vault: Vault,
    tmp_path: Path,
    run_cli: Callable[..., CliOutcome],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    home = tmp_path / "vault"
    vault.close()
    done = run_cli("import", "--home", home, EXAMPLE_EXPORT)
    assert done.exit_code == 0, done.output
    assert "14 new" in done.output and "6 relations, 2 conversations" in done.output
    again = run_cli("import", "--home", home, "--json", EXAMPLE_EXPORT.with_suffix(".zip"))
    assert again.exit_code == 0 and json.loads(again.output)["already_imported"] is True
    doc = sample_store()
    doc["memories"][0]["content_hash"] = content_hash("something else")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    refused = run_cli("import", "--home", home, bad)
    assert refused.exit_code == 1
    assert "not valid PAM" in refused.output and "nothing was changed" in refused.output
    assert "$.memories[0].content_hash" in refused.output
    cut = tmp_path / "cut.zip"
    cut.write_bytes(EXAMPLE_EXPORT.with_suffix(".zip").read_bytes()[:300])
    broken = run_cli("import", "--home", home, cut)
    assert broken.exit_code == 1 and "zip" in broken.output


def test_cli_import_unknown_base(
    tmp_path: Path, run_cli: Callable[..., CliOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    sender, _, ids = _sender(tmp_path)
    sender.retract(ids[0], now=T0 + timedelta(hours=1))
    export_vault(sender, tmp_path / "delta.zip", incremental=True, now=T0 + timedelta(hours=1))
    make_vault(tmp_path / "receiver").close()
    refused = run_cli("import", "--home", tmp_path / "receiver", tmp_path / "delta.zip")
    assert refused.exit_code == 1 and "--force" in refused.output
    forced = run_cli("import", "--home", tmp_path / "receiver", "--force", tmp_path / "delta.zip")
    assert forced.exit_code == 0 and "imported anyway" in forced.output


def test_zip_with_export_folder_inside(vault: Vault, tmp_path: Path) -> None:
    archive = tmp_path / "nested.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for file in EXAMPLE_EXPORT.rglob("*.json"):
            z.write(file, "my-export/" + file.relative_to(EXAMPLE_EXPORT).as_posix())
    assert import_into_vault(vault, archive).created == 14


def test_missing_embeddings_file_is_fine_pam_12_1(vault: Vault, tmp_path: Path) -> None:
    doc = json.loads((OFFICIAL_EXAMPLES / "example-memory-store.json").read_text())
    doc["signature"] = None
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps(doc))  # embedding_refs, but no embeddings.json (rule 3)
    result = import_into_vault(vault, lone)
    assert result.created == 5 and result.embeddings == 0
    assert vault.get_embedding("mem-001-identity") is None


def test_derived_memories_are_advisory_pam_14_1(vault: Vault, tmp_path: Path) -> None:
    import_into_vault(vault, EXAMPLE_EXPORT, now=T0)
    conversation = vault.get_conversation("c2a9e4f1-8d7b-4e6a-b3c5-1f0e9d8c7b6a")
    assert "derived_memories" not in conversation.extra_index  # not stored: rebuilt on export
    added = vault.add("Ran a half marathon in 1:52", "fact", platform="claude",
                      conversation_ref=conversation.id).memory  # fmt: skip
    out = tmp_path / "out"
    export_vault(vault, out)
    entry = next(
        c
        for c in documents(out)["memory-store.json"]["conversations_index"]
        if c["id"] == conversation.id
    )
    assert added.id in entry["derived_memories"]


def test_decrypt_and_verify_hooks(vault: Vault, tmp_path: Path) -> None:
    sealed = tmp_path / "export.zip.enc"
    sealed.write_bytes(b"SEALED" + EXAMPLE_EXPORT.with_suffix(".zip").read_bytes())
    seen: list[Any] = []

    @contextlib.contextmanager
    def decrypt(path: Path) -> Iterator[Path | None]:
        plain = tmp_path / "plain.zip"
        plain.write_bytes(path.read_bytes().removeprefix(b"SEALED"))
        yield plain
        plain.unlink()

    def verify(path: Path, header: Any) -> list[str]:
        seen.append((path.name, header["export_id"]))
        return ["signature: does not verify (test)"]

    result = import_into_vault(vault, sealed, hooks=ImportHooks(decrypt=decrypt, verify=verify))
    assert result.created == 14 and "signature: does not verify (test)" in result.warnings
    assert seen == [("plain.zip", "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9")]
    assert not (tmp_path / "plain.zip").exists()


def test_pam_25_3_conversation_with_an_unresolved_parent_id_is_imported_with_a_warning(
    vault: Vault, tmp_path: Path
) -> None:
    """PAM §25.3: importing a conversation whose `parent_id` names no message of it was
    refused (`parent-unresolved`), though no MUST requires it resolve and the official schema
    accepts it. It is imported as it came, with a warning naming the message."""
    export = tmp_path / "export"
    shutil.copytree(EXAMPLE_EXPORT, export)
    conversation = sorted((export / "conversations").glob("*.json"))[0]
    doc = json.loads(conversation.read_text())
    doc["messages"][-1]["parent_id"] = "a-message-not-in-this-export"
    conversation.write_text(json.dumps(doc))
    result = import_into_vault(vault, export)
    assert any("parent-unresolved" in w or "a-message-not-in-this-export" in w
               for w in result.warnings)  # fmt: skip
    assert result.conversations == 2
    stored = vault.store.get_conversation(doc["id"])
    assert stored is not None
    assert stored.document["messages"][-1]["parent_id"] == ("a-message-not-in-this-export")
