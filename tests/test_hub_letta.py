"""Letta agent files (.af) into a vault, and a vault's memories out as memory blocks of a v2
agent file (docs/formats.md, "Letta")."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clikit import home as home
from clikit import ok
from hubgen import letta as gen
from hubkit import by_id, import_refused, listed, pam_memories
from memvault.formats.pam.schema import validate_memories
from memvault.hub.base import Tally
from memvault.hub.letta import agent_file, decode, read_document

NOW = "2026-06-01T12:00:00Z"
MOMENT = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _tally() -> Tally:
    return Tally("letta", "2", "import")


@pytest.mark.parametrize("twice", [False, True])
def test_v2_agent_file_blocks_become_memories(home: Path, tmp_path: Path, twice: bool) -> None:
    document = gen.v2(random.Random(1))
    path = tmp_path / "agent.af"
    path.write_text(gen.double_encoded(document) if twice else json.dumps(document))
    ok("init")
    summary = ok("import", path, "--json").json()
    assert summary["format"] == "letta"
    assert summary["memories"]["new"] == len(document["blocks"])
    assert summary["conversations"] == 1
    assert summary["carried"]["mapped"]["messages (as a conversation)"] == 1
    assert summary["carried"]["lost"]["tools"] == 1
    assert any("archival memory" in w for w in summary["warnings"])
    stored = {m["metadata"]["letta"]["label"]: m for m in listed()}
    persona = stored["persona"]
    assert persona["type"] == "custom" and persona["custom_type"] == "agent_persona"
    assert persona["temporal"]["created_at"] == "2026-05-02T10:00:00Z"
    assert persona["metadata"]["letta"]["time_source"] == "export"
    for block in document["blocks"]:
        assert stored[block["label"]]["content"] == block["value"]
        assert "demo" in stored[block["label"]]["tags"]


def test_agent_messages_become_a_conversation_of_the_vault(home: Path, tmp_path: Path) -> None:
    """Messages are history, not memories: a PAM normalized conversation (§25)."""
    path = tmp_path / "agent.af"
    path.write_text(json.dumps(gen.v2(random.Random(3))))
    ok("init")
    ok("import", path)
    [listed] = ok("conversations", "list", "--json").json()
    assert listed["platform"] == "letta" and listed["message_count"] == 1
    shown = ok("conversations", "show", listed["id"], "--json").json()
    text = json.dumps(shown)
    assert "I moved to Lisbon last month." in text
    assert ok("import", path, "--json").json()["conversations"] == 0


def test_legacy_agent_file_reads_core_memory_with_naive_times_as_utc() -> None:
    read = read_document(gen.legacy(random.Random(2)), "old.af", NOW, _tally())
    assert validate_memories(read.memories, 0) == []
    human, persona = read.memories
    assert human["type"] == "identity"
    assert human["temporal"] == {"created_at": "2025-04-01T03:47:27Z",
                                 "updated_at": "2025-04-02T10:00:00Z"}  # fmt: skip
    assert human["tags"] == ["legacy-demo"]
    assert persona["custom_type"] == "agent_persona"
    [conversation] = read.conversations
    assert conversation["system_instruction"] == "You are MemGPT."
    assert conversation["messages"][0]["created_at"] == "2025-04-01T03:47:30Z"


def test_export_is_a_v2_agent_file_that_validates(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("add", "Name is Marina Duarte", "-t", "identity")
    ok("add", "Prefers dark roast coffee", "-t", "preference")
    ok("add", "Likes jazz", "-t", "preference")
    gone = ok("add", "Lives in Porto", "-t", "fact", "--json").json()["memory"]["id"]
    ok("retract", gone)
    out = tmp_path / "memvault.af"
    summary = ok("export", "--format", "letta", "-o", out, "--json").json()
    assert summary["carried"]["lost"] == {"memories not active (a block has no status)": 1}
    document = json.loads(out.read_text())
    assert gen.schema_problems(document) == []
    blocks = {b["label"]: b for b in document["blocks"]}
    assert blocks["preference"]["value"].split("\n") == [
        "Prefers dark roast coffee",
        "Likes jazz",
    ] or blocks["preference"]["value"].split("\n") == ["Likes jazz", "Prefers dark roast coffee"]
    assert "Lives in Porto" not in out.read_text()


def test_letta_round_trips_through_the_vault(home: Path, tmp_path: Path) -> None:
    document = gen.v2(random.Random(4))
    source = tmp_path / "in.af"
    source.write_text(json.dumps(document))
    ok("init")
    ok("import", source)
    out = tmp_path / "out.af"
    ok("export", "--format", "letta", "-o", out)
    back = json.loads(out.read_text())
    assert gen.schema_problems(back) == []

    def essentials(blocks: list[dict]) -> list[tuple]:
        return sorted((b["label"], b["value"], b["limit"], b.get("description"), b["read_only"])
                      for b in blocks)  # fmt: skip

    assert essentials(back["blocks"]) == essentials(document["blocks"])
    again = ok("import", out, "--json").json()
    assert again["memories"]["new"] == 0


@settings(max_examples=40, deadline=None)
@given(memories=pam_memories(statuses=("active",)))
def test_pam_to_letta_to_pam_keeps_every_memory(memories: list[dict]) -> None:
    document = agent_file(memories, MOMENT, Tally("letta", "2", "export"))
    assert gen.schema_problems(document) == []
    read = read_document(decode(json.dumps(document).encode(), "a.af"), "a.af", NOW, _tally())
    assert by_id(read.memories) == by_id(memories)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), blocks=st.integers(1, 4))
def test_letta_to_pam_to_letta_gives_back_the_same_blocks(seed: int, blocks: int) -> None:
    document = gen.v2(random.Random(seed), blocks=blocks)
    read = read_document(document, "a.af", NOW, _tally())
    back = agent_file(read.memories, MOMENT, Tally("letta", "2", "export"))
    assert sorted((b["label"], b["value"], b["limit"], b["read_only"]) for b in back["blocks"]) == (
        sorted((b["label"], b["value"], b["limit"], b["read_only"]) for b in document["blocks"])
    )


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"agents": [{"block_ids": ["block-9"]}], "blocks": []}', "block-9"),
        ('{"agents": [], "blocks": [{"id": "block-0", "label": 3, "value": "x"}]}', "label"),
        ('"{\\"agents\\": ' + "[" * 3000 + "]" * 3000 + '}"', "nesting"),
        ('{"agents": [', "truncated"),
        ('"just a string"', "expected"),
    ],
)
def test_hostile_agent_files_are_refused_with_the_vault_unchanged(
    home: Path, tmp_path: Path, content: str, said: str
) -> None:
    path = tmp_path / "bad.af"
    path.write_text(content)
    import_refused(path, "letta", said)
