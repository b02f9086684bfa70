"""One full-text index for memories (migration 8): the memory text filter and search read the
memory passages of the recall index; ``memories_fts`` is gone, from new vaults and from
vaults migrated from schema 6."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.store import sqlite as sqlite_store
from memvault.store.base import MemoryQuery, StoredConversation
from memvault.store.migrations import LATEST, MIGRATIONS
from memvault.store.sqlite import SQLiteStore
from vaultkit import PASSPHRASE, make_store, make_vault, stored


def _tables(store: SQLiteStore) -> set[str]:
    return {str(r[0]) for r in store.execute_raw("SELECT name FROM sqlite_master")}


def _texts(store: SQLiteStore, query: MemoryQuery) -> list[str]:
    return sorted(s.memory.content for s in store.query_memories(query))


def test_a_memory_is_written_to_one_full_text_index(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    try:
        assert not {"memories_fts", "memories_fts_source"} & _tables(store)
        store.insert_memories([stored("I drink green tea every morning")])
        rows = store.execute_raw("SELECT kind, text FROM recall_passages")
        assert rows == [("memory", "I drink green tea every morning")]
    finally:
        store.close()


def test_the_memory_text_filter_needs_every_word_by_its_stems(tmp_path: Path) -> None:
    """Every word must match (AND), each by any of its stems, tags count, status filters."""
    store = make_store(tmp_path / "vault.db")
    try:
        store.insert_memories(
            [
                stored("I am running a marathon in Lisboa"),
                stored("Runs every Sunday", tags=["sport"]),
                stored("Lisboa is home"),
                stored("I used to run in Porto", status="retracted"),
            ]
        )
        active = ("active",)
        assert _texts(store, MemoryQuery(text="run", statuses=active)) == [
            "I am running a marathon in Lisboa",
            "Runs every Sunday",
        ]
        assert _texts(store, MemoryQuery(text="run lisboa", statuses=active)) == [
            "I am running a marathon in Lisboa"
        ]
        assert _texts(store, MemoryQuery(text="sport", statuses=active)) == ["Runs every Sunday"]
        assert _texts(store, MemoryQuery(text="run", statuses=("retracted",))) == [
            "I used to run in Porto"
        ]
        assert _texts(store, MemoryQuery(text="marat*", statuses=active)) == [
            "I am running a marathon in Lisboa"
        ]
        assert store.count_memories(MemoryQuery(text="nothing-like-it", statuses=None)) == 0
        hits = store.search(MemoryQuery(text="lisboa", statuses=active, order="relevance"))
        assert {h.memory.memory.content for h in hits} == {
            "I am running a marathon in Lisboa",
            "Lisboa is home",
        }
        assert all(h.score > 0 for h in hits)
    finally:
        store.close()


def test_memory_search_is_the_memories_only_view_of_recall(tmp_path: Path) -> None:
    """A conversation's message passages share the index but never answer a memory query."""
    store = make_store(tmp_path / "vault.db")
    try:
        store.put_conversation(
            StoredConversation(
                id="conv-1",
                platform="chatgpt",
                document={
                    "id": "conv-1",
                    "messages": [{"id": "m1", "role": "user", "content": "my kayak is yellow"}],
                },
                title="Boats",
                message_count=1,
            )
        )
        store.insert_memories([stored("The kayak is in the garage")])
        kinds = sorted(str(r[0]) for r in store.execute_raw("SELECT kind FROM recall_passages"))
        assert kinds == ["memory", "message"]
        hits = store.search(MemoryQuery(text="kayak", statuses=None, order="relevance"))
        assert [h.memory.memory.content for h in hits] == ["The kayak is in the garage"]
        assert _texts(store, MemoryQuery(text="yellow", statuses=None)) == []
    finally:
        store.close()


def test_an_updated_or_deleted_memory_is_found_by_its_new_words_only(tmp_path: Path) -> None:
    store = make_store(tmp_path / "vault.db")
    try:
        first = stored("I live in Porto")
        store.insert_memories([first])
        moved = first.memory.evolve(content="I live in Braga")
        store.update_memory(type(first)(moved, first.decay_anchor))
        assert _texts(store, MemoryQuery(text="porto", statuses=None)) == []
        assert _texts(store, MemoryQuery(text="braga", statuses=None)) == ["I live in Braga"]
        store.delete_memory(first.memory.id)
        assert _texts(store, MemoryQuery(text="braga", statuses=None)) == []
        assert store.check_integrity() == []
    finally:
        store.close()


def test_migration_8_drops_memories_fts_from_a_vault_at_schema_6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vault made at schema 6 (with ``memories_fts``) opens at the latest schema without it,
    and its memories are found through the recall index as before."""
    home = tmp_path / "vault"
    at_6 = tuple(m for m in MIGRATIONS if m.version <= 6)
    with monkeypatch.context() as patch:
        patch.setattr(sqlite_store, "MIGRATIONS", at_6)
        patch.setattr(sqlite_store, "LATEST", 6)
        with make_vault(home) as vault:
            vault.add("My sister Ana lives in Coimbra", "fact")
            vault.add("Prefers trains to planes", "preference")
            store = vault.store
            assert store.schema_version == 6
            assert {"memories_fts", "memories_fts_source"} <= _tables(store)  # type: ignore[arg-type]
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as vault:
        store = vault.store
        assert store.schema_version == LATEST >= 8
        assert not {"memories_fts", "memories_fts_source"} & _tables(store)  # type: ignore[arg-type]
        assert [v for v, _, _ in store.migrations()] == [m.version for m in MIGRATIONS]  # type: ignore[attr-defined]
        assert [h.memory.content for h in vault.search("coimbra")] == [
            "My sister Ana lives in Coimbra"
        ]
        assert [h.memory.content for h in vault.search("train")] == ["Prefers trains to planes"]
        assert vault.check_integrity() == []
