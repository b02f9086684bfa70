"""The Claude importer (PAM §25, importer-mappings §2) against generated exports: every text,
timestamp and raw field arrives, documents validate against the official conversation
schema, memories are valid PAM memory objects, and bad input gets a clear error."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from importkit import (
    IMPORTED_AT,
    Arrived,
    check_damaged_values,
    conversation_errors,
    each_layout,
    input_bytes,
    instant,
    leaves,
    memory_errors,
    peak_heap,
    progress_of,
    refused,
)
from importkit import read as read_with
from memvault.importers.base import ImportContext, ImportFormatError
from memvault.importers.claude import IMPORTER
from memvault.sources import open_target
from providergen import claude as gen


def run(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], ImportContext]:
    return read_with(IMPORTER, path)


#: Provider field → the PAM members it may arrive under (importer-mappings §2).
RENAMED: dict[str, tuple[str, ...]] = {
    "uuid": (
        "conversation_id",
        "provider_message_id",
        "provider_id",
        "project_uuid",
        "account_id",
        "platform_user_id",
    ),
    "name": ("title",),
    "thinking": ("text",),
    "text": ("snippet",),
    "file_name": ("name",),
    "file_size": ("size_bytes",),
    "file_uuid": ("provider_id",),
    "account_uuid": ("platform_user_id",),
}


@pytest.fixture(params=gen.LAYOUTS)
def layout(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def export() -> dict[str, Any]:
    return gen.export()


def test_pam_25_every_text_timestamp_and_raw_field_arrives(
    tmp_path: Path, layout: str, export: dict[str, Any]
) -> None:
    """Walk the generated export: each value is found in what the importer yields (as is,
    or as the same instant for timestamps), except the few the mapping transforms."""
    path = gen.write(tmp_path, layout, export)
    conversations, memories, _ = run(path)
    arrived = Arrived(conversations + memories)
    contents = [m["content"] for m in memories]
    by_provider_id: dict[str, list[dict[str, Any]]] = {}
    for conversation in conversations:
        for message in conversation["messages"]:
            by_provider_id.setdefault(message["provider_message_id"], []).append(message)
    files = export if layout != "file" else {"conversations.json": export["conversations.json"]}
    checked = 0
    for name, value in files.items():
        for where, leaf in leaves(value):
            key = where[-1]
            checked += 1
            if leaf == "" or (leaf is None and key == "created_at"):
                continue  # empty title → null; a missing time falls back (tested below)
            if key == "sender":
                assert leaf in ("human", "assistant")
            elif key == "conversations_memory":
                for line in leaf.splitlines():
                    words = line.strip("#*-0123456789. ")
                    assert (
                        not words
                        or any(words in c for c in contents)
                        or any(m["metadata"].get("section") == words for m in memories)
                    ), line
            elif name == "projects.json" and key in ("name", "description"):
                assert any(leaf in c for c in contents), leaf  # "name: description"
            elif where[-2:-1] == ("project_memories",):  # project uuid → text
                assert not leaf.strip() or any(  # whitespace only: nothing to remember
                    m["content"] == leaf and m["metadata"]["project_uuid"] == key for m in memories
                ), (where, leaf)
            elif key == "text" and "chat_messages" in where and len(where) == 4:
                parts = by_provider_id[value[where[0]]["chat_messages"][where[2]]["uuid"]]
                texts = [
                    t
                    for m in parts
                    if not m.get("is_thought") and m["role"] != "tool"
                    for t in (
                        [m["content"]["text"]]
                        if m["content"]["type"] == "text"
                        else [p["text"] for p in m["content"]["parts"]]
                    )
                ]
                assert leaf == "\n\n".join(texts) or arrived.value(leaf), (name, where)
            else:
                arrived.check(name, where, leaf, RENAMED)
    assert checked > 100


def test_pam_25_conversations_validate_against_official_schema(tmp_path: Path, layout: str) -> None:
    conversations, _, _ = run(gen.write(tmp_path, layout))
    assert len(conversations) == 6  # the empty one is kept
    for document in conversations:
        assert conversation_errors(document) == [], document["title"]
        for message in document["messages"]:
            assert message["created_at"].endswith("Z")
            assert datetime.fromisoformat(message["created_at"]).tzinfo is not None


def test_reading_twice_gives_identical_documents(tmp_path: Path, layout: str) -> None:
    path = gen.write(tmp_path, layout)
    first, second = run(path)[:2], run(path)[:2]
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_zip_folder_and_file_give_the_same_conversations(tmp_path: Path) -> None:
    results = {}
    for layout, path in each_layout(tmp_path, gen):
        conversations, _, _ = run(path)
        for document in conversations:
            del document["import_metadata"]
            for who in document["participants"]:
                who.pop("name", None)  # names come from users.json, absent from a lone file
        results[layout] = conversations
    assert results["zip"] == results["folder"] == results["file"]


def test_pam_25_3_roles_thinking_tools_and_attachments(tmp_path: Path) -> None:
    """§25.3 and importer-mappings §2: human → user; only the thinking part is a thought;
    tool_use → tool_calls, tool_result → a tool message; attachments and files merged."""
    conversations, _, _ = run(gen.write(tmp_path, "zip"))
    by_title = {c["title"]: c for c in conversations}
    trip = by_title["Trip planning to Lisbon"]["messages"]
    assert [m["role"] for m in trip] == ["user", "assistant"]
    assert [(a["type"], a["name"]) for a in trip[0]["attachments"]] == [
        ("document", "itinerary.txt"),
        ("image", "map.png"),
    ]
    assert trip[0]["raw_metadata"]["attachments"][0]["extracted_content"].startswith("Day 1")
    # Only the thinking part of the answer is a thought.
    bread = by_title["Receita de pão de queijo"]["messages"]
    assert [(m["role"], m.get("is_thought", False)) for m in bread] == [
        ("user", False),
        ("assistant", True),
        ("assistant", False),
    ]
    assert bread[1]["provider_message_id"] == bread[2]["provider_message_id"]
    assert bread[1]["id"] != bread[2]["id"]
    assert bread[2]["citations"][0]["url"] == "https://receitas.example.br/pao-de-queijo"
    # tool_use → tool_calls; tool_result → a tool message; the answer after it.
    search = by_title["Latest Python release"]["messages"]
    assert [m["role"] for m in search] == ["user", "assistant", "tool", "assistant"]
    assert search[1]["tool_calls"][0]["name"] == "web_search"
    assert search[1]["tool_calls"][0]["output"] == "1 result"  # answered by tool_use_id
    assert search[2]["citations"][0] == {
        "title": "Python Releases",
        "url": "https://www.python.org/downloads/",
        "snippet": "Python 3.14.1 is the newest release.",
    }
    assert search[3]["tool_calls"] == [{"id": None, "name": "repl", "input": "print(1 + 1)"}]
    kinds = [b["type"] for b in search[3]["raw_metadata"]["content_blocks"]]
    assert kinds == ["token_budget", "tool_use", "text", "voice_note"]
    assert all(m["parent_id"] is None and m["children_ids"] == [] for m in search)


def test_missing_timestamps_fall_back_to_neighbours(tmp_path: Path, export: dict[str, Any]) -> None:
    conversations, _, _ = run(gen.write(tmp_path, "zip", export))
    by_title = {c["title"]: c for c in conversations}
    source = {c["name"]: c for c in export["conversations.json"]}
    loose = by_title["Meia maratona"]["messages"]
    second = instant(source["Meia maratona"]["chat_messages"][1]["created_at"])
    assert instant(loose[0]["created_at"]) == second  # no time: the next neighbour's
    assert instant(loose[2]["created_at"]) == second  # null time: the previous one's
    timeless = by_title["Sem data"]
    first = source["Sem data"]["chat_messages"][0]["created_at"]
    assert instant(timeless["temporal"]["created_at"]) == instant(first)


def test_pam_25_conversation_with_no_time_takes_a_neighbours(tmp_path: Path) -> None:
    """No time anywhere in a conversation: the previous conversation's, or for the first
    one the next one's; never the time of the import."""
    files = gen.export()
    empty = files["conversations.json"][3]
    assert empty["chat_messages"] == []
    del empty["created_at"], empty["updated_at"]
    conversations, _, _ = run(gen.write(tmp_path, "zip", files))
    assert conversations[3]["temporal"]["created_at"] == conversations[2]["temporal"]["created_at"]
    files["conversations.json"] = [empty, *files["conversations.json"][4:]]
    conversations, _, _ = run(gen.write(tmp_path / "first", "folder", files))
    assert conversations[0]["messages"] == []
    assert conversations[0]["temporal"]["created_at"] == conversations[1]["temporal"]["created_at"]
    files["conversations.json"] = [empty]
    with pytest.raises(ImportFormatError, match="no timestamp anywhere"):
        run(gen.write(tmp_path / "alone", "folder", files))


def test_pam_4_memories_are_valid_memory_objects(tmp_path: Path) -> None:
    _, memories, ctx = run(gen.write(tmp_path, "zip"))
    assert memory_errors(memories) == []
    by_type: dict[str, list[str]] = {}
    for memory in memories:
        by_type.setdefault(memory["type"], []).append(memory["content"])
        assert memory["provenance"]["extraction_method"] == "api_export"
        assert memory["provenance"]["extracted_at"] == ctx.imported_at
    assert by_type["identity"] == ["Name: João da Silva"]
    assert "Has a daughter with celiac disease." in by_type["context"]
    # The same item twice in memories.json is one memory.
    assert by_type["context"].count("Planning a week in Lisbon in May.") == 1
    assert len(by_type["context"]) == 5
    assert "Cozinha sem glúten: Receitas adaptadas para a minha filha celíaca" in by_type["project"]
    assert any(c.startswith("**Purpose**") for c in by_type["project"])  # project_memories
    assert by_type["instruction"] == ["Always answer in Brazilian Portuguese and flag gluten."]
    assert len({m["id"] for m in memories}) == len(memories)
    assert any("project_memories" in w for w in ctx.warnings)


def test_sniff_looks_at_names_and_first_bytes(tmp_path: Path) -> None:
    for _, path in each_layout(tmp_path, gen):
        with open_target(path) as target:
            assert IMPORTER.sniff(target)
    chatgpt = tmp_path / "chatgpt.json"
    chatgpt.write_text('[{"title": "x", "mapping": {}, "create_time": 1.0}]')
    grok = tmp_path / "prod-grok-backend.json"
    grok.write_text('{"conversations": [{"conversation": {"id": "a"}, "responses": []}]}')
    (tmp_path / "other").mkdir()
    projects = tmp_path / "other" / "projects.json"  # the name alone is not enough
    projects.write_text('[{"id": 1, "title": "Kanban"}]')
    for path in (chatgpt, grok, projects, tmp_path / "other"):
        with open_target(path) as target:
            assert not IMPORTER.sniff(target)


BAD_CASES = [
    ("truncated", lambda c: json.dumps(c)[:-40], "not valid JSON"),
    ("root is a string", lambda c: '"conversations"', "expected a JSON array"),
    (
        "conversation not an object",
        lambda c: json.dumps([*c[:2], 7]),
        "conversation 2: conversation: expected an object",
    ),
    (
        "no uuid",
        lambda c: json.dumps([{k: v for k, v in c[0].items() if k != "uuid"}]),
        "field 'uuid'",
    ),
    (
        "chat_messages an object",
        lambda c: json.dumps([{**c[0], "chat_messages": {}}]),
        "field 'chat_messages': expected an array",
    ),
    (
        "bad time",
        lambda c: json.dumps([{**c[0], "created_at": "yesterday"}]),
        "field 'created_at': 'yesterday'",
    ),
    (
        "unknown sender",
        lambda c: json.dumps(
            [{**c[0], "chat_messages": [{**c[0]["chat_messages"][0], "sender": "robot"}]}]
        ),
        "message 0 .*field 'sender'",
    ),
    (
        "block not an object",
        lambda c: json.dumps(
            [{**c[0], "chat_messages": [{**c[0]["chat_messages"][0], "content": ["hi"]}]}]
        ),
        "content block 0: content block: expected an object",
    ),
    (
        "text not a string",
        lambda c: json.dumps([{**c[0], "name": 5}]),
        "field 'name': expected a string",
    ),
]


@pytest.mark.parametrize(("case", "make", "expected"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_malformed_input_gives_a_clear_import_format_error(
    tmp_path: Path, case: str, make: Any, expected: str
) -> None:
    files = gen.export()
    path = tmp_path / "conversations.json"
    path.write_text(make(files["conversations.json"]), encoding="utf-8")
    refused(IMPORTER, path, expected)


def test_malformed_memories_file_names_the_field(tmp_path: Path) -> None:
    files = gen.export()
    files["memories.json"][0]["project_memories"] = {"p1": ["not", "text"]}
    with pytest.raises(
        ImportFormatError, match=r"memories.json: record 0: project_memories\['p1'\]"
    ):
        run(gen.write(tmp_path, "folder", files))


@pytest.mark.slow
def test_conversations_stream_with_bounded_memory(tmp_path: Path) -> None:
    """A 7 MB conversations.json is read one conversation at a time: the Python heap
    stays a small fraction of the file."""
    path = tmp_path / "conversations.json"
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for batch in range(3):
            chunk = gen.many(500, seed=batch)
            out.write(("," if batch else "") + json.dumps(chunk, ensure_ascii=False)[1:-1])
        out.write("]")
    size = path.stat().st_size
    assert size > 5 << 20
    count, peak = peak_heap(IMPORTER, path)
    assert count == 1500
    assert peak < size / 10, (peak, size)


def test_a_lone_memories_file_is_read_by_its_content(tmp_path: Path) -> None:
    path = tmp_path / "claude-memories-backup.json"
    path.write_text(json.dumps(gen.export()["memories.json"]), encoding="utf-8")
    with open_target(path) as target:
        assert IMPORTER.sniff(target)
    conversations, memories, _ = run(path)
    assert conversations == []
    assert {m["type"] for m in memories} == {"context", "project"}
    # No time anywhere in the file: the time of the import, the only one there is.
    assert {m["temporal"]["created_at"] for m in memories} == {IMPORTED_AT}


def test_any_damaged_value_is_an_import_format_error_or_valid_output(tmp_path: Path) -> None:
    """One value anywhere in the export replaced by a value of another type: the import
    either fails with ImportFormatError or yields schema-valid conversations and memories
    (never a traceback)."""
    outcomes = check_damaged_values(tmp_path, gen, IMPORTER)
    assert outcomes["error"] > 10 and outcomes["ok"] > 10, outcomes


def test_a_byte_order_mark_and_leading_whitespace_are_accepted(tmp_path: Path) -> None:
    """Files saved by Windows editors start with a UTF-8 BOM; JSON allows leading space."""
    files = gen.export()
    plain = run(gen.write(tmp_path, "file", files))[0]
    path = tmp_path / "conversations.json"
    path.write_bytes(b"\xef\xbb\xbf \n" + path.read_bytes())
    assert run(path)[0] == plain


@pytest.mark.parametrize("layout", gen.LAYOUTS)
def test_progress_advances_and_ends_at_the_size_read(tmp_path: Path, layout: str) -> None:
    """ImportContext.progress: the bytes read so far over every file of the export, rising,
    ending at the size of the file, or of the export's files (a BOM and all)."""
    files = gen.export()
    if layout == "file":  # large enough for many reads
        files["conversations.json"] = gen.many(200)
    path = gen.write(tmp_path, layout, files)
    if layout == "file":
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    seen = progress_of(IMPORTER, path)
    assert len(seen) > 1 and seen == sorted(set(seen))
    if layout == "zip":  # uncompressed sizes
        with open_target(path) as target:
            assert seen[-1] == sum(e.size for e in target.entries if e.name.endswith(".json"))
    else:
        assert seen[-1] == input_bytes(path)
