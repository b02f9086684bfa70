"""Migration 7 (`m0007_compact_message_passages`): a vault whose recall index has the shape of
migration 6 — each message passage with its conversation's id and platform — is carried over
with its passage ids, so its full-text entries and vectors still answer."""

from __future__ import annotations

from pathlib import Path

from memvault.conversation_merge import conversation_row
from memvault.store.migrations import LATEST, m0004_recall_index
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault

#: The recall_passages table as migrations 4 to 6 left it: migration 4's first statement.
_M0006_PASSAGES = m0004_recall_index.SQL.split(";")[0]
assert "CREATE TABLE recall_passages" in _M0006_PASSAGES


def _conversation(cid: str, platform: str, said: list[tuple[str, str, str]]) -> dict[str, object]:
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {"name": platform, "conversation_id": cid},
        "title": f"Chat {cid}",
        "temporal": {"created_at": "2025-03-01T10:00:00Z", "updated_at": "2025-03-01T11:00:00Z"},
        "participants": [{"role": "user", "name": "Ana"}, {"role": "assistant"}],
        "messages": [
            {
                "id": mid,
                "role": role,
                "content": {"type": "text", "text": text},
                "created_at": "2025-03-01T10:30:00Z",
            }
            for mid, role, text in said
        ],
    }


def _back_to_version_6(vault: Vault) -> list[tuple[object, ...]]:
    """Rewrite the vault's recall index as migration 6 kept it; returns its passages."""
    store = vault.store
    with store.transaction(), store.index_connection() as conn:  # type: ignore[attr-defined]
        conn.execute("ALTER TABLE recall_passages RENAME TO recall_passages_new")
        conn.execute("DROP INDEX recall_passages_memory")
        conn.execute("DROP INDEX recall_passages_source")
        conn.execute(_M0006_PASSAGES)
        conn.execute(
            "INSERT INTO recall_passages SELECT p.id, p.kind, p.memory_seq, "
            "COALESCE(p.conversation_id, c.conversation_id), p.message_id, p.part, p.role, "
            "p.participant, COALESCE(p.platform, c.platform), p.at_epoch, p.text "
            "FROM recall_passages_new p LEFT JOIN recall_conversations c "
            "ON c.id = p.conversation"
        )
        conn.execute("DROP TABLE recall_passages_new")
        conn.execute("DROP TABLE recall_conversations")
        conn.execute(
            "CREATE INDEX recall_passages_memory ON recall_passages (memory_seq) "
            "WHERE memory_seq IS NOT NULL"
        )
        conn.execute(
            "CREATE INDEX recall_passages_conversation ON recall_passages (conversation_id)"
        )
        conn.execute("DELETE FROM schema_migrations WHERE version >= 7")
        conn.execute("PRAGMA user_version = 6")
        return conn.execute("SELECT * FROM recall_passages ORDER BY id").fetchall()


def test_a_vault_of_schema_6_is_migrated_keeping_its_passages_and_filters(
    tmp_path: Path,
) -> None:
    vault = make_vault(tmp_path / "vault")
    vault.put_conversations(
        [
            conversation_row(
                _conversation("c-a", "chatgpt", [("a1", "user", "Booked the train to Porto")])
            ),
            conversation_row(
                _conversation(
                    "c-b",
                    "claude",
                    [
                        ("b1", "user", "Which train goes to Porto on Sunday?"),
                        ("b2", "assistant", "The morning train to Porto leaves at nine."),
                    ],
                )
            ),
        ]
    )
    memory = vault.add("Prefers the train to Porto over flying", "preference").memory
    before = {(h.kind, h.id, h.conversation_id) for h in vault.recall("train Porto", k=10).hits}
    old = _back_to_version_6(vault)
    vault.close()
    assert [r[3] for r in old if r[1] == "message"] == ["c-a", "c-b", "c-b"]

    with Vault.open(tmp_path / "vault", PASSPHRASE) as migrated:
        store = migrated.store
        assert store.schema_version == LATEST >= 7  # type: ignore[attr-defined]
        with store.index_connection() as conn:  # type: ignore[attr-defined]
            heads = conn.execute(
                "SELECT conversation_id, platform, first_id, last_id FROM recall_conversations "
                "ORDER BY id"
            ).fetchall()
            rows = conn.execute(
                "SELECT id, kind, conversation, conversation_id, message_id, platform, text "
                "FROM recall_passages ORDER BY id"
            ).fetchall()
        ids = {r[4]: r[0] for r in old if r[1] == "message"}
        assert heads == [
            ("c-a", "chatgpt", ids["a1"], ids["a1"]),
            ("c-b", "claude", ids["b1"], ids["b2"]),
        ]
        assert [r[0] for r in rows] == [r[0] for r in old]  # ids kept: entries and vectors too
        assert all(r[3] is None and r[5] is None for r in rows if r[1] == "message")
        after = {(h.kind, h.id, h.conversation_id) for h in migrated.recall("train Porto").hits}
        assert after == before
        assert ("memory", memory.id, None) in after
        in_b = migrated.recall("train Porto", conversation="c-b", kind="messages").hits
        assert {h.id for h in in_b} == {"b1", "b2"}
        on_claude = migrated.recall("train Porto", platform="claude").hits
        assert {h.id for h in on_claude if h.kind == "message"} == {"b1", "b2"}
        assert [h.id for h in migrated.recall("train", participant="ana").hits] in (
            ["a1", "b1"],
            ["b1", "a1"],
        )
