"""mem0 and OpenMemory in and out of a vault (docs/formats.md, "mem0 and OpenMemory")."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clikit import home as home
from clikit import ok
from hubgen import mem0 as gen
from hubkit import by_id, import_refused, listed, pam_memories
from memvault.canonical import content_hash
from memvault.formats.pam.schema import validate_memories
from memvault.hub.base import Tally
from memvault.hub.mem0 import get_all_items, read_items

NOW = "2026-06-01T12:00:00Z"
FACTS_EXAMPLE = {
    "results": [
        {
            "id": "3f1c9a52-8d0e-4c1b-9a57-2b6f0c8e1d44",
            "memory": "Prefers window seats on long flights",
            "hash": gen.md5("Prefers window seats on long flights"),
            "created_at": "2026-05-01T08:30:00+00:00",
            "updated_at": "2026-05-01T08:30:00+00:00",
            "user_id": "ana",
            "metadata": {"source": "chat"},
        }
    ]
}


def _tally() -> Tally:
    return Tally("mem0", "2.0", "import")


def test_get_all_output_imports_with_the_pam_hash_recomputed(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(FACTS_EXAMPLE))
    ok("init")
    summary = ok("import", path, "--json").json()
    assert summary["format"] == "mem0" and summary["memories"]["new"] == 1
    [memory] = listed()
    assert memory["id"] == "3f1c9a52-8d0e-4c1b-9a57-2b6f0c8e1d44"
    assert memory["content_hash"] == content_hash("Prefers window seats on long flights")
    assert memory["metadata"]["mem0"]["hash"] == gen.md5("Prefers window seats on long flights")
    assert memory["metadata"]["mem0"]["metadata"] == {"source": "chat"}
    assert memory["provenance"]["platform_user_id"] == "ana"
    assert memory["temporal"]["created_at"] == "2026-05-01T08:30:00Z"


def test_us_pacific_times_are_normalised_to_utc_and_the_original_kept() -> None:
    document = gen.get_all(random.Random(3), pacific=True)
    read = read_items(document, "m", NOW, _tally())
    for item, memory in zip(document["results"], read.memories, strict=True):
        assert item["created_at"].endswith("-07:00")
        assert memory["temporal"]["created_at"].endswith("Z")
        assert memory["metadata"]["mem0"]["original_times"]["created_at"] == item["created_at"]
    assert read.tally.metadata["times with a non-UTC offset (normalised to UTC)"] == 12


@pytest.mark.parametrize("paged", [False, True])
def test_platform_list_bare_or_paged_maps_categories_and_replacement(paged: bool) -> None:
    document = gen.platform_list(random.Random(5), paged=paged)
    items = document["results"] if paged else document
    items[0]["categories"] = ["user_preferences", "travel"]
    items[1]["replaced_by"] = items[2]["id"]
    read = read_items(document, "m", NOW, _tally())
    assert validate_memories(read.memories, 0) == []
    first, second = read.memories[0], read.memories[1]
    assert first["type"] == "preference" and first["tags"] == ["user_preferences", "travel"]
    assert second["status"] == "superseded"
    assert second["temporal"]["superseded_by"] == items[2]["id"]
    assert first["metadata"]["mem0"]["lifecycle_state"] == "active"


def test_openmemory_export_zip_maps_states_apps_and_categories(home: Path, tmp_path: Path) -> None:
    path = gen.openmemory_zip(random.Random(9), tmp_path / "memories_export.zip")
    ok("init")
    summary = ok("import", path, "--json").json()
    assert summary["memories"]["new"] == 5
    with zipfile.ZipFile(path) as archive:
        tables = json.loads(archive.read("memories.json"))
    expected = {"active": "active", "paused": "deprecated", "archived": "archived",
                "deleted": "retracted"}  # fmt: skip
    stored = {m["id"]: m for m in listed()}
    for row in tables["memories"]:
        memory = stored[row["id"]]
        assert memory["status"] == expected[row["state"]]
        assert memory["provenance"]["platform"] == "openmemory"
        assert memory["metadata"]["mem0"]["app"] == "cursor"
        assert memory["provenance"]["platform_user_id"] == "ana"


def test_openmemory_stream_alone_is_read(home: Path, tmp_path: Path) -> None:
    full = gen.openmemory_zip(random.Random(4), tmp_path / "full.zip")
    only = tmp_path / "stream.zip"
    with zipfile.ZipFile(full) as source, zipfile.ZipFile(only, "w") as target:
        target.writestr("memories.jsonl.gz", source.read("memories.jsonl.gz"))
    ok("init")
    assert ok("import", only, "--from", "openmemory", "--json").json()["memories"]["new"] == 5


def test_mem0_round_trips_through_the_vault(home: Path, tmp_path: Path) -> None:
    document = gen.get_all(random.Random(11), pacific=False)
    source = tmp_path / "mem0.json"
    source.write_text(json.dumps(document))
    ok("init")
    ok("import", source)
    out = tmp_path / "back.json"
    ok("export", "--format", "mem0", "-o", out)
    back = {i["id"]: i for i in json.loads(out.read_text())["results"]}
    for item in document["results"]:
        got = back[item["id"]]
        for key in ("memory", "hash", "created_at", "updated_at", "user_id"):
            assert got[key] == item[key], key
    assert ok("import", out, "--json").json()["memories"]["new"] == 0


@settings(max_examples=40, deadline=None)
@given(memories=pam_memories(statuses=("active",)))
def test_pam_to_mem0_to_pam_keeps_every_memory(memories: list[dict]) -> None:
    items = get_all_items(memories, Tally("mem0", "2.0", "export"))
    assert all(i["hash"] == gen.md5(i["memory"]) for i in items)
    read = read_items(json.loads(json.dumps({"results": items})), "m", NOW, _tally())
    assert by_id(read.memories) == by_id(memories)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_mem0_to_pam_to_mem0_gives_back_the_same_items(seed: int) -> None:
    document = gen.get_all(random.Random(seed), pacific=False)
    read = read_items(document, "m", NOW, _tally())
    items = get_all_items(read.memories, Tally("mem0", "2.0", "export"))
    for item, back in zip(document["results"], items, strict=True):
        assert {k: back[k] for k in ("id", "memory", "hash", "created_at", "updated_at")} == {
            k: item[k] for k in ("id", "memory", "hash", "created_at", "updated_at")
        }


def test_memories_not_active_are_not_exported_and_counted() -> None:
    memories = [
        {"id": "a", "type": "fact", "status": "retracted", "content": "x",
         "temporal": {"created_at": NOW}},
    ]  # fmt: skip
    tally = Tally("mem0", "2.0", "export")
    assert get_all_items(memories, tally) == []
    assert tally.lost == {"memories not active (mem0 has no status)": 1}


@pytest.mark.parametrize(
    ("document", "said"),
    [
        ('{"results": [{"id": "x", "memory": "ok"}, {"id": "y"}]}', "memory 2"),
        ('{"results": [{"id": "x", "memory": "ok", "categories": "travel"}]}', "categories"),
        ('{"results": [{"id": "x", "memory": "ok", "created_at": "yesterday"}]}', "created_at"),
        (
            '{"results": [{"id": "x", "memory": "ok"}], "z": ' + "[" * 3000 + "]" * 3000 + "}",
            "nesting",
        ),
        ('{"results": [{"id": "x", "memory": "ok"', "truncated"),
    ],
)
def test_hostile_mem0_files_are_refused_with_the_vault_unchanged(
    home: Path, tmp_path: Path, document: str, said: str
) -> None:
    path = tmp_path / "mem0.json"
    path.write_text(document)
    import_refused(path, "mem0", said)


@pytest.mark.parametrize(
    ("table", "value"), [("apps", 7), ("categories", 1.5), ("category_ids", 3)]
)
def test_openmemory_members_that_should_be_lists_are_refused_naming_them(
    home: Path, tmp_path: Path, table: str, value: object
) -> None:
    """A number where OpenMemory's export has a list (found by `make fuzz`): refused naming
    the member, the vault unchanged; not an internal error."""
    path = gen.openmemory_zip(random.Random(9), tmp_path / "memories_export.zip")
    with zipfile.ZipFile(path) as archive:
        tables = json.loads(archive.read("memories.json"))
    if table == "category_ids":
        tables["memories"][0][table] = value
    else:
        tables[table] = value
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("memories.json", json.dumps(tables))
    import_refused(broken, "openmemory", f"field '{table}': expected a list")
