"""Erasing one conversation (AIMEM §5.2, GDPR Art. 17; docs/erasure.md): the conversation,
its messages, their recall passages, full-text entries and vectors go — from the tables and
from the file's bytes (decrypted pages, free pages, write-ahead log: the erased texts and the
exact stored bytes of the erased rows, the compressed document frame included); the memories
derived from it stay; the audit log records the id and counts, never a word."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clikit import home as home
from clikit import ok, refused
from embedserver import MODEL, EmbedServer, serve
from memvault.errors import AccessDenied, NotFound
from memvault.exchange import export_vault
from memvault.model import Memory
from memvault.paths import database_path
from memvault.recall.embedders import EmbedderSpec
from memvault.store.base import StoredConversation
from memvault.vault import Vault
from pagescan import found_slices, recoverable, row_slices
from vaultkit import PASSPHRASE, make_vault, pam_memory

SECRET = "zxqvortle"
#: What the erased conversation says: a word found nowhere else and a plain phrase.
SAID = f"My sister {SECRET.capitalize()} was admitted to the cardiology ward on Tuesday"
WORDS = [
    "garden",
    "tomato",
    "basil",
    "river",
    "window",
    "kettle",
    "violin",
    "harbour",
    "lantern",
    "meadow",
]


def _chatter(rng: random.Random, n: int) -> str:
    """Varied ordinary words, so the compressed frame is many pages of high-entropy bytes."""
    return " ".join(f"{rng.choice(WORDS)}{rng.randrange(10_000)}" for _ in range(n))


def _conversation(cid: str, said: str, seed: int) -> StoredConversation:
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {
            "id": f"{cid}-m{i}",
            "role": "user" if i % 2 == 0 else "assistant",
            "created_at": f"2025-03-01T10:{i:02d}:00Z",
            "content": {"type": "text", "text": said if i == 3 else _chatter(rng, 120)},
        }
        for i in range(12)
    ]
    document = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {"name": "chatgpt"},
        "title": f"Chat {cid}",
        "temporal": {"created_at": "2025-03-01T10:00:00Z"},
        "messages": messages,
    }
    return StoredConversation(
        id=cid,
        platform="chatgpt",
        document=document,
        title=document["title"],
        created_at="2025-03-01T10:00:00Z",
        message_count=len(messages),
    )


@pytest.fixture
def embed_server() -> Iterator[EmbedServer]:
    with serve() as running:
        yield running


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    yield v
    v.close()


def _derived(cid: str) -> Memory:
    """A memory extracted from the conversation: it names it in its provenance."""
    memory = pam_memory("The user's sister is in hospital")
    provenance = memory.provenance.evolve(conversation_ref=cid, message_ref=f"{cid}-m3")
    return memory.evolve(provenance=provenance)


def _rows(vault: Vault, cid: str) -> tuple[list[bytes], list[bytes]]:
    """(the stored bytes of the conversation's rows, the stored bytes of every row that
    stays): its document frame, its passages' texts and vectors; the others' likewise and
    every memory's document."""
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        mine = [
            bytes(r[0])
            for r in conn.execute("SELECT document FROM conversations WHERE id = ?", (cid,))
        ]
        others = [
            bytes(r[0])
            for r in conn.execute("SELECT document FROM conversations WHERE id <> ?", (cid,))
        ]
        # A message's passage names its conversation through recall_conversations.
        handle = "(SELECT id FROM recall_conversations WHERE conversation_id = ?)"
        for kind_is_mine, sql in (
            (True, f"conversation = {handle} AND kind = 'message'"),
            (False, f"NOT (conversation IS {handle} AND kind = 'message')"),
        ):
            texts = conn.execute(f"SELECT text FROM recall_passages WHERE {sql}", (cid,))
            vectors = conn.execute(
                "SELECT vector FROM recall_vectors WHERE passage_id IN "
                f"(SELECT id FROM recall_passages WHERE {sql})",
                (cid,),
            )
            found = [str(r[0]).encode() for r in texts] + [bytes(r[0]) for r in vectors]
            (mine if kind_is_mine else others).extend(found)
        others += [str(r[0]).encode() for r in conn.execute("SELECT document FROM memories")]
        others += [repr(tuple(r)).encode() for r in conn.execute("SELECT * FROM audit_log")]
    return mine, others


def test_aimem_5_2_an_erased_conversation_is_gone_from_the_files_bytes(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """AIMEM §5.2: after `erase_conversation` no decrypted page of the database — used or
    free — nor of its write-ahead log holds the conversation's words, nor any piece of the
    exact bytes its rows were stored as (the zstd frame of its document, its passages' texts,
    its vectors); the other conversation, the memory derived from it and the audit chain are
    intact."""
    target, kept = _conversation("conv-erase", SAID, 1), _conversation("conv-keep", "Hello", 2)
    vault.put_conversations([target, kept])
    derived = _derived("conv-erase")
    vault.add_memories([derived])
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    db = database_path(vault.home)  # type: ignore[arg-type]
    mine, others = _rows(vault, "conv-erase")
    assert len(mine) > 20  # the frame, 12 messages' passages and their vectors
    pieces = [p for row in mine for p in row_slices(row, others)]
    # The scan sees what is there: before the erasure the words and the bytes are found.
    needles = (SECRET[:7].encode(), SECRET.capitalize().encode(), b"cardiology ward")
    assert all(recoverable(db, PASSPHRASE, needle) > 0 for needle in needles)
    assert len(found_slices(db, PASSPHRASE, pieces)) > len(pieces) // 2

    report = vault.erase_conversation("conv-erase")

    assert (report.conversation, report.messages, report.durable) == ("conv-erase", 12, True)
    assert report.passages >= 12 and report.vectors == report.passages
    for needle in needles:  # the text, and the full-text index's stemmed term
        assert recoverable(db, PASSPHRASE, needle) == 0, needle
    assert found_slices(db, PASSPHRASE, pieces) == []
    assert vault.get_conversation("conv-keep").message_count == 12
    with pytest.raises(NotFound):
        vault.get_conversation("conv-erase")
    hits = vault.recall(f"{SECRET} cardiology ward", kind="messages").hits
    assert hits and {h.conversation_id for h in hits} == {"conv-keep"}
    assert vault.verify_audit().ok and vault.check_integrity() == []


def test_aimem_5_2_memories_derived_from_an_erased_conversation_stay(
    vault: Vault, tmp_path: Path
) -> None:
    """The memories extracted from a conversation are the person's memory: they stay, still
    found by recall, their provenance naming the conversation's id (which now resolves to
    nothing; a PAM export says so) — docs/erasure.md."""
    vault.put_conversations([_conversation("conv-erase", SAID, 1)])
    derived = _derived("conv-erase")
    vault.add_memories([derived])
    vault.erase_conversation("conv-erase")
    kept = vault.get(derived.id)
    assert kept.provenance.conversation_ref == "conv-erase"
    assert [h.id for h in vault.recall("sister hospital").hits] == [derived.id]
    assert vault.count_conversations() == 0
    exported = export_vault(vault, tmp_path / "after.zip")
    assert exported.memories == 1 and exported.conversations == 0
    assert any("conv-erase" in w and "not in the vault" in w for w in exported.warnings)


def test_aimem_5_2_a_conversations_erasure_is_audited_as_counts_never_content(
    vault: Vault,
) -> None:
    """AIMEM §5.2: the audit entry says that a conversation was erased — its id, how many
    messages, passages and vectors — and nothing it said; the chain still verifies."""
    vault.put_conversations([_conversation("conv-erase", SAID, 1)])
    vault.erase_conversation("conv-erase")
    entry = vault.audit_log()[-1]
    assert (entry.action, entry.actor, entry.memory_id) == ("erase-conversation", "user", None)
    assert entry.details == {
        "conversation_id": "conv-erase",
        "messages": 12,
        "passages": 12,
        "vectors": 0,
    }
    assert SECRET not in str([e.details for e in vault.audit_log()])
    assert vault.verify_audit().ok


def test_erasing_an_unknown_conversation_is_not_found_and_changes_nothing(vault: Vault) -> None:
    vault.put_conversations([_conversation("conv-keep", "Hello", 2)])
    before = len(vault.audit_log())
    with pytest.raises(NotFound, match="conv-nope"):
        vault.erase_conversation("conv-nope")
    assert len(vault.audit_log()) == before and vault.count_conversations() == 1


def test_pam_9_an_agent_never_erases_a_conversation(vault: Vault) -> None:
    """PAM §9 / docs/access.md: conversations are the owner's, and so is an erasure
    request: an agent is refused, and nothing changes."""
    vault.put_conversations([_conversation("conv-erase", SAID, 1)])
    with pytest.raises(AccessDenied, match="agent-x"):
        vault.acting_as("agent-x").erase_conversation("conv-erase")
    with pytest.raises(AccessDenied):
        vault.background().erase_conversation("conv-erase")
    assert vault.count_conversations() == 1


# -- the command line --------------------------------------------------------------------------


def _cli_conversation(home: Path) -> None:
    ok("init")
    v = Vault.open(home, PASSPHRASE)
    try:
        v.put_conversations([_conversation("conv-erase", SAID, 1)])
    finally:
        v.close()


def test_cli_erase_conversation_with_yes(home: Path) -> None:
    """`memvault erase --conversation ID --yes --json`: the counts, and the conversation gone."""
    _cli_conversation(home)
    shown = ok("erase", "--conversation", "conv-erase", "--yes", "--json").json()
    assert shown == {
        "conversation": "conv-erase",
        "messages": 12,
        "passages": 12,
        "vectors": 0,
        "durable": True,
    }
    assert ok("stats", "--json").json()["conversations"] == 0
    assert "conv-erase" in refused("erase", "--conversation", "conv-erase", "--yes")


def test_cli_erase_conversation_needs_confirmation(home: Path) -> None:
    """Without a terminal and without --yes nothing is erased (exit 2); ids and
    --conversation together are a usage error."""
    _cli_conversation(home)
    assert "--yes" in refused("erase", "--conversation", "conv-erase", code=2)
    assert "conversation" in refused(
        "erase", "abc", "--conversation", "conv-erase", "--yes", code=2
    )
    assert "one of the three" in refused("erase", "--yes", code=2)
    assert ok("stats", "--json").json()["conversations"] == 1


def test_pam_9_cli_erase_conversation_as_agent_is_refused(home: Path) -> None:
    _cli_conversation(home)
    stderr = refused("erase", "--conversation", "conv-erase", "--yes", "--as", "agent-x")
    assert "agent-x" in stderr and "erasure" in stderr
    assert ok("stats", "--json").json()["conversations"] == 1
