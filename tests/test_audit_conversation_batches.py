"""Conversations stored together are audited together (PAM §25 conversations, the audit log):
an import's batch of conversations makes one ``conversations`` entry per platform — their ids
and message counts, never a word of them — instead of one entry per conversation. Everything
that reads what was stored from the log reads both forms: the incremental PAM export (§16),
the extraction after an import, erasure; and a vault written with one entry per conversation
(the fixture of memvault 0.1.0) reads as before."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memvault.audit_entries import (
    CONVERSATION,
    CONVERSATIONS,
    conversation_entries,
    stored_conversation_ids,
)
from memvault.errors import NotFound
from memvault.exchange import export_vault
from memvault.extract.pipeline import audit_mark, changed_since
from memvault.importers import ingest as ingest_module
from memvault.importers.base import ImportedConversation
from memvault.importers.chatgpt import IMPORTER
from memvault.importers.ingest import ingest, make_context, stored
from memvault.sources import open_target
from memvault.store.base import StoredConversation
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_folder, write_zip
from vaultkit import make_vault

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _import(vault: Vault, tmp_path: Path, *, seed: int = 3, count: int = 17) -> list[str]:
    """A generated ChatGPT export imported (two reader processes); the ids of the
    conversations the vault holds after it, in the order the export holds them."""
    path = write_zip(gen.export(seed=seed, count=count), tmp_path / f"export-{seed}.zip")
    with open_target(path) as target:
        result = ingest(vault, IMPORTER, target, make_context(str(path), None, now=NOW), readers=2)
    assert result.conversations_new == count
    return [c.id for c in vault.conversations()]


def _batches(vault: Vault) -> list[dict[str, Any]]:
    return [dict(e.details) for e in vault.audit_log() if e.action == CONVERSATIONS]


def _delta_conversations(path: Path) -> set[str]:
    store = json.loads((path / "memory-store.json").read_text())
    return {entry["id"] for entry in store["conversations_index"]}


def test_pam_25_an_import_audits_each_batch_of_conversations_as_one_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five conversations a batch: 17 conversations make four entries, which together list
    every conversation once, in the order stored, with its message count; no per-conversation
    entry is written."""
    monkeypatch.setattr(ingest_module, "BATCH", 5)
    with make_vault(tmp_path / "v") as vault:
        ids = _import(vault, tmp_path)
        batches = _batches(vault)
        assert [len(b["conversation_ids"]) for b in batches] == [5, 5, 5, 2]
        listed = [cid for b in batches for cid in b["conversation_ids"]]
        assert sorted(listed) == sorted(ids) and len(set(listed)) == 17
        counts = {c.id: c.message_count for c in vault.conversations()}
        for batch in batches:
            assert set(batch) == {"platform", "conversation_ids", "messages"}
            assert batch["platform"] == "chatgpt"
            assert batch["messages"] == [counts[c] for c in batch["conversation_ids"]]
        assert not [e for e in vault.audit_log() if e.action == CONVERSATION]


def test_pam_25_a_batch_entry_names_ids_and_counts_never_content(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        _import(vault, tmp_path, count=6)
        (batch,) = _batches(vault)
        text = json.dumps(batch)
        for conversation in vault.conversations():
            if conversation.title:
                assert conversation.title not in text
            for message in conversation.document["messages"]:
                words = message["content"].get("text") or ""
                if len(words) > 12:
                    assert words not in text


def test_the_audit_chain_verifies_after_a_batched_import(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        _import(vault, tmp_path)
        report = vault.verify_audit()
        assert report.ok, report.problems


def test_pam_16_an_incremental_export_after_a_batched_import_carries_its_conversations(
    tmp_path: Path,
) -> None:
    with make_vault(tmp_path / "v") as vault:
        vault.add("Likes green tea", "preference")
        base = export_vault(vault, tmp_path / "base")
        ids = _import(vault, tmp_path)
        delta = export_vault(
            vault, tmp_path / "delta", incremental=True, now=datetime.now(UTC) + timedelta(1)
        )
        assert delta.base_export_id == base.export_id
        assert _delta_conversations(tmp_path / "delta") == set(ids)
        assert delta.conversations == len(ids)


def test_pam_16_conversations_stored_one_at_a_time_export_incrementally_as_before(
    tmp_path: Path,
) -> None:
    """A lone conversation stored is still one ``conversation`` entry (the form every vault
    written before the batched one holds), and the incremental export reads it."""
    documents = [stored(d) for d in _documents(tmp_path, count=3)]
    with make_vault(tmp_path / "v") as vault:
        vault.add("Likes green tea", "preference")
        export_vault(vault, tmp_path / "base")
        for conversation in documents:
            vault.put_conversations([conversation])
        singles = [e for e in vault.audit_log() if e.action == CONVERSATION]
        assert [e.details["conversation_id"] for e in singles] == [c.id for c in documents]
        assert not _batches(vault)
        export_vault(
            vault, tmp_path / "delta", incremental=True, now=datetime.now(UTC) + timedelta(1)
        )
        assert _delta_conversations(tmp_path / "delta") == {c.id for c in documents}


def _documents(tmp_path: Path, *, count: int) -> list[dict[str, Any]]:
    """The documents the ChatGPT importer makes of a generated export."""
    folder = write_folder(gen.export(seed=8, count=count), tmp_path / "docs")
    with open_target(folder) as target:
        return [
            dict(r.document)
            for r in IMPORTER.read(target, make_context("docs", None, now=NOW))
            if isinstance(r, ImportedConversation)
        ]


def test_aimem_5_2_erasing_one_conversation_of_a_batch(tmp_path: Path) -> None:
    """One conversation of an imported batch erased: it is gone, the others stay, the erasure
    is audited (the id and counts), the chain verifies, and an incremental export taken after
    it holds the batch's other conversations and not the erased one (the batch's entry still
    names it: the log is never rewritten)."""
    with make_vault(tmp_path / "v") as vault:
        vault.add("Likes green tea", "preference")
        export_vault(vault, tmp_path / "base")
        ids = _import(vault, tmp_path)
        gone = ids[4]
        vault.erase_conversation(gone)
        with pytest.raises(NotFound):
            vault.get_conversation(gone)
        assert [c.id for c in vault.conversations()] == [i for i in ids if i != gone]
        erased = [e for e in vault.audit_log() if e.details.get("conversation_id") == gone]
        assert [e.action for e in erased] == ["erase-conversation"]
        assert gone in _batches(vault)[0]["conversation_ids"]
        assert vault.verify_audit().ok
        export_vault(
            vault, tmp_path / "delta", incremental=True, now=datetime.now(UTC) + timedelta(1)
        )
        assert _delta_conversations(tmp_path / "delta") == set(ids) - {gone}


def test_extraction_after_an_import_reads_the_conversations_of_its_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`memvault import --extract` reads what the import stored from the log: every
    conversation of every batch, each once, in the order stored."""
    monkeypatch.setattr(ingest_module, "BATCH", 4)
    with make_vault(tmp_path / "v") as vault:
        mark = audit_mark(vault)
        _import(vault, tmp_path, count=9)
        # Batches of 4, 4 and 1: the last, alone, is a one-conversation entry.
        entries = [e for e in vault.audit_log() if e.action in (CONVERSATION, CONVERSATIONS)]
        assert [e.action for e in entries] == [CONVERSATIONS, CONVERSATIONS, CONVERSATION]
        listed = [cid for e in entries for cid in stored_conversation_ids(e.action, e.details)]
        assert changed_since(vault, mark) == listed and len(set(listed)) == 9
        again = audit_mark(vault)
        # The same export again: nothing changes, nothing is audited.
        path = write_zip(gen.export(seed=3, count=9), tmp_path / "again.zip")
        with open_target(path) as target:
            ingest(vault, IMPORTER, target, make_context(str(path), None), readers=0)
        assert changed_since(vault, again) == []


def test_a_vault_written_with_one_entry_per_conversation_reads_as_before(tmp_path: Path) -> None:
    """memvault 0.1.0's vault (tests/fixtures/vault-0.1.0.md) holds one ``conversation``
    entry per conversation: the extraction's reader finds all 14, an incremental export since
    before them carries them, and the chain verifies after a batched import into it."""
    home = tmp_path / "vault"
    shutil.copytree(FIXTURES / "vault-0.1.0", home)
    with Vault.open(home, "fixture-vault-0.1.0") as vault:
        held = {c.id for c in vault.conversations()}
        assert len(held) == 14
        assert set(changed_since(vault, 0)) == held
        assert not _batches(vault)
        export_vault(
            vault,
            tmp_path / "delta",
            since="2000-01-01T00:00:00Z",
            now=datetime.now(UTC) + timedelta(1),
        )
        assert _delta_conversations(tmp_path / "delta") == held
        ids = _import(vault, tmp_path, seed=21, count=5)
        assert len(ids) == 19
        assert vault.verify_audit().ok
        assert set(changed_since(vault, 0)) == set(ids)


def test_conversation_entries_one_alone_a_batch_per_platform() -> None:
    def row(cid: str, platform: str, messages: int) -> StoredConversation:
        return StoredConversation(cid, platform, {}, message_count=messages)

    (alone,) = conversation_entries([row("a", "chatgpt", 3)], "system:import")
    assert (alone.action, dict(alone.details)) == (
        CONVERSATION,
        {"conversation_id": "a", "platform": "chatgpt", "messages": 3},
    )
    mixed = conversation_entries(
        [row("a", "chatgpt", 3), row("b", "claude", 1), row("c", "chatgpt", 0)], "owner"
    )
    assert [(e.action, e.actor, dict(e.details)) for e in mixed] == [
        (CONVERSATIONS, "owner", {"platform": "chatgpt", "conversation_ids": ["a", "c"],
                                  "messages": [3, 0]}),
        (CONVERSATIONS, "owner", {"platform": "claude", "conversation_ids": ["b"],
                                  "messages": [1]}),
    ]  # fmt: skip
    assert [stored_conversation_ids(e.action, e.details) for e in mixed] == [["a", "c"], ["b"]]
    assert stored_conversation_ids(CONVERSATION, {"conversation_id": "a"}) == ["a"]
    assert stored_conversation_ids("erase-conversation", {"conversation_id": "a"}) == []
