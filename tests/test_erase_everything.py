"""Erasing everything in a vault that is emptied in place rather than deleted as a file
(AIMEM §5.2, a tenant's right to erasure; docs/erasure.md): every memory, relation,
conversation, passage, vector, embedding and export record goes, from the tables and from
the file's bytes; the owner, keys, settings and audit log stay; the audit chain verifies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from embedserver import MODEL, serve
from memvault.errors import AccessDenied
from memvault.paths import database_path
from memvault.recall.embedders import EmbedderSpec
from memvault.store.base import MemoryQuery, StoredConversation
from memvault.vault import Vault
from pagescan import found_slices, recoverable, row_slices
from vaultkit import PASSPHRASE, make_vault

SECRET = "Plumtwistle"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    yield v
    v.close()


def _fill(vault: Vault) -> None:
    first = vault.add(f"Met {SECRET} at the harbour festival", "fact", tags=["people"]).memory
    second = vault.add("Prefers window seats on trains", "preference").memory
    vault.relate(first.id, second.id, "related_to")
    document = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": "conv-1",
        "provider": {"name": "chatgpt"},
        "title": "Festival plans",
        "temporal": {"created_at": "2025-03-01T10:00:00Z"},
        "messages": [
            {
                "id": f"m{i}",
                "role": "user",
                "created_at": "2025-03-01T10:00:00Z",
                "content": {"type": "text", "text": f"{SECRET} said hello number {i} " * 20},
            }
            for i in range(5)
        ],
    }
    vault.put_conversations(
        [StoredConversation("conv-1", "chatgpt", document, "Festival plans", message_count=5)]
    )
    with serve() as server:
        vault.embed(EmbedderSpec("openai", MODEL, server.url))


def _rows(vault: Vault) -> tuple[list[bytes], list[bytes]]:
    """(the stored bytes of every data row, those of what stays: audit log, owner, keys,
    meta)."""
    data = (
        "SELECT document FROM memories",
        "SELECT document FROM conversations",
        "SELECT document FROM relations",
        "SELECT text FROM recall_passages",
        "SELECT vector FROM recall_vectors",
    )
    kept = ("SELECT * FROM audit_log", "SELECT * FROM owner", "SELECT * FROM meta")
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        mine = [
            r[0] if isinstance(r[0], bytes) else str(r[0]).encode()
            for sql in data
            for r in conn.execute(sql)
        ]
        others = [repr(tuple(r)).encode() for sql in kept for r in conn.execute(sql)]
    return mine, others


def test_aimem_5_2_erase_everything_leaves_nothing_in_the_files_bytes(vault: Vault) -> None:
    """AIMEM §5.2: after `erase_everything` no decrypted page (used, free, or in the
    write-ahead log) holds a word of the vault's data or a piece of any data row's exact
    stored bytes (memory documents, the conversation's zstd frame, passages, vectors)."""
    _fill(vault)
    mine, others = _rows(vault)
    pieces = [p for row in mine for p in row_slices(row, others)]
    db = database_path(vault.home)  # type: ignore[arg-type]
    assert recoverable(db, PASSPHRASE, SECRET.encode()) > 0
    assert len(found_slices(db, PASSPHRASE, pieces)) > len(pieces) // 2

    report = vault.erase_everything()

    assert report.durable
    assert report.counts == {
        "memories": 2,
        "relations": 1,
        "conversations": 1,
        "messages": 5,
        "passages": report.counts["passages"],
        "vectors": report.counts["passages"],
        "embeddings": 0,
        "exports": 0,
    }
    assert report.counts["passages"] >= 2 + 5
    for needle in (SECRET.encode(), SECRET.lower().encode(), b"harbour festival"):
        assert recoverable(db, PASSPHRASE, needle) == 0, needle
    assert found_slices(db, PASSPHRASE, pieces) == []


def test_aimem_5_2_erase_everything_keeps_the_vault_and_audits_counts(vault: Vault) -> None:
    """What stays is the vault itself — owner, settings, audit log (ids and hashes) — with
    one entry recording the counts, never content; the chain verifies and the vault takes
    new memories."""
    _fill(vault)
    owner = vault.owner
    report = vault.erase_everything()
    entry = vault.audit_log()[-1]
    assert (entry.action, entry.actor, entry.memory_id) == ("erase-everything", "user", None)
    assert entry.details == report.counts
    assert SECRET not in str([e.details for e in vault.audit_log()])
    assert vault.verify_audit().ok and vault.check_integrity() == []
    assert vault.owner == owner
    stats = vault.stats()
    assert (stats["memories"], stats["relations"], stats["conversations"]) == (0, 0, 0)
    assert vault.recall(SECRET).hits == []
    again = vault.add("A fresh start", "fact").memory
    assert [m.id for m in vault.list(MemoryQuery()).items] == [again.id]


def test_pam_9_an_agent_never_erases_everything(vault: Vault) -> None:
    """PAM §9 / docs/access.md: an erasure request is the owner's; neither an agent nor
    background work may empty the vault."""
    memory = vault.add("Kept", "fact").memory
    vault.grant(memory.id, "agent-x", ["read", "delete"])
    with pytest.raises(AccessDenied, match="agent-x"):
        vault.acting_as("agent-x").erase_everything()
    with pytest.raises(AccessDenied):
        vault.background().erase_everything()
    assert vault.get(memory.id).content == "Kept"
