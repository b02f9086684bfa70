"""The MCP memory-server knowledge graph (memory.jsonl) in and out of a vault
(docs/formats.md, "MCP memory")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clikit import home as home
from clikit import ok, refused, snapshot
from hubgen import mcp_memory as gen
from hubkit import by_id, import_refused, pam_memories
from memvault.formats.pam.schema import validate_memories
from memvault.hub.base import Tally
from memvault.hub.mcp_memory import dump_lines, graph_lines, read_graph

NOW = "2026-06-01T12:00:00Z"


def _tally() -> Tally:
    return Tally("mcp-memory", "0.6", "import")


def test_facts_example_imports_as_anchors_observations_and_a_labelled_relation(
    home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "memory.jsonl"
    path.write_text(gen.EXAMPLE, encoding="utf-8")
    ok("init")
    summary = ok("import", path, "--json").json()
    assert summary["format"] == "mcp-memory"
    assert summary["memories"]["new"] == 5  # two anchors, three observations
    assert summary["relations"] == 1
    assert summary["carried"]["mapped"] == {"entities": 2, "observations": 3, "relations": 1}
    assert summary["carried"]["metadata"]["relation labels"] == 1
    listed = ok("list", "--limit", "0", "--json").json()["memories"]
    anchor = next(m for m in listed if m["content"] == "Ana_Pereira")
    assert anchor["type"] == "relationship"
    assert anchor["metadata"]["mcp-memory"]["relations"] == [
        {"to": "Acme_Robotics", "relationType": "works_at", "position": 1}
    ]
    observation = next(m for m in listed if m["content"] == "Prefers metric units")
    assert observation["tags"] == ["person"]
    assert observation["metadata"]["mcp-memory"]["time_source"] == "import"


def test_generated_graph_round_trips_through_the_vault(home: Path, tmp_path: Path) -> None:
    records = gen.graph(random.Random(7), entities=8, relations=12)
    source = gen.write(tmp_path / "memory.jsonl", records)
    ok("init")
    ok("import", source)
    out = tmp_path / "out.jsonl"
    exported = ok("export", "--format", "mcp-memory", "-o", out, "--json").json()
    assert exported["carried"]["lost"] == {}
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert gen.standard(written) == gen.standard(records)
    # Importing the export again changes nothing.
    again = ok("import", out, "--json").json()
    assert again["memories"]["new"] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), trailing=st.booleans())
def test_mcp_to_pam_to_mcp_gives_back_the_same_records(seed: int, trailing: bool) -> None:
    records = gen.graph(random.Random(seed))
    read = read_graph(gen.dumps(records, trailing_newline=trailing), "g", NOW, _tally())
    assert validate_memories(read.memories, 0) == []
    back = graph_lines(read.memories, read.relations, Tally("mcp-memory", "0.6", "export"))
    assert gen.standard(back) == gen.standard(records)


@settings(max_examples=40, deadline=None)
@given(memories=pam_memories(statuses=("active",)))
def test_pam_to_mcp_to_pam_keeps_every_memory(memories: list[dict]) -> None:
    """Type, status, times and tags travel in the entity line's `pam` member."""
    data = dump_lines(graph_lines(memories, [], Tally("mcp-memory", "0.6", "export")))
    read = read_graph(data.decode(), "g", NOW, _tally())
    assert by_id(read.memories) == by_id(memories)
    assert {m["id"]: m.get("metadata") for m in read.memories} == {
        m["id"]: m.get("metadata") for m in memories
    }


def test_memories_not_active_are_left_out_and_counted() -> None:
    memories = [
        {"id": "a", "type": "fact", "status": "retracted", "content": "x",
         "temporal": {"created_at": NOW}},
        {"id": "b", "type": "fact", "status": "active", "content": "y",
         "temporal": {"created_at": NOW}},
    ]  # fmt: skip
    tally = Tally("mcp-memory", "0.6", "export")
    lines = graph_lines(memories, [], tally)
    assert [line["observations"] for line in lines] == [["y"]]
    assert tally.lost == {"memories not active (the graph has no status)": 1}


def test_relations_between_memories_become_relations_between_their_groups() -> None:
    memories = [
        {"id": "a", "type": "fact", "content": "x", "temporal": {"created_at": NOW}},
        {"id": "b", "type": "goal", "content": "y", "temporal": {"created_at": NOW}},
    ]
    rel = {"id": "r", "from": "a", "to": "b", "type": "supports", "created_at": NOW}
    lines = graph_lines(memories, [rel], Tally("mcp-memory", "0.6", "export"))
    assert lines[-1] == {"type": "relation", "from": "memvault:fact", "to": "memvault:goal",
                         "relationType": "supports"}  # fmt: skip
    read = read_graph(dump_lines(lines).decode(), "g", NOW, _tally())
    assert read.relations == [rel]


def test_export_leaves_out_memories_not_exportable(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("add", "Likes jazz", "-t", "preference")
    ok("add", "Allergic to penicillin", "-t", "fact", "--not-exportable")
    out = tmp_path / "g.jsonl"
    exported = ok("export", "--format", "mcp-memory", "-o", out, "--json").json()
    assert "Allergic" not in out.read_text()
    assert exported["carried"]["lost"] == {"memories marked exportable: false (never exported)": 1}


def test_export_refuses_an_existing_path_and_pam_options(home: Path, tmp_path: Path) -> None:
    ok("init")
    out = tmp_path / "g.jsonl"
    out.write_text("keep")
    assert "exists" in refused("export", "--format", "mcp-memory", "-o", out)
    assert out.read_text() == "keep"
    assert "--sign" in refused("export", "--format", "mcp-memory", "-o", out, "--sign", code=2)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"type":"entity","name":"A","entityType":"p","observations":["x"]}\n{oops\n', "line 2"),
        ('{"type":"entity","name":"A","entityType":"p","observations":"x"}\n', "observations"),
        (
            '{"type":"entity","name":"A","entityType":"p","observations":["x"]}\n[1]\n',
            "expected a JSON object",
        ),
        (
            '{"type":"entity","name":"A","entityType":"p","observations":["x"]}\n'
            + '{"type":"relation","from":'
            + "[" * 5000
            + "]" * 5000
            + "}\n",
            "nesting",
        ),
        (
            '{"type":"entity","name":"A","name":"B","entityType":"p","observations":[]}\n',
            "duplicate",
        ),
    ],
)
def test_hostile_graphs_are_refused_with_the_vault_unchanged(
    home: Path, tmp_path: Path, content: str, said: str
) -> None:
    path = tmp_path / "memory.jsonl"
    path.write_text(content, encoding="utf-8")
    import_refused(path, "mcp-memory", said)


def test_a_graph_past_the_size_limit_is_refused(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memvault.hub.base as base

    monkeypatch.setattr(base, "MAX_FILE_BYTES", 1000)
    ok("init")
    before = snapshot()
    path = gen.write(tmp_path / "memory.jsonl", gen.graph(random.Random(1), entities=40))
    assert "limit is 1000" in refused("import", path)
    assert snapshot() == before
