"""The ChatGPT importer against generated exports shaped like the real ones (PAM §25,
importer-mappings §1): every text, time and raw field arrives, documents validate against the
official conversation schema, memories ChatGPT keeps become PAM memories, importing twice is a
no-op and a newer export adds only what is new."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from memvault.audit_entries import CONVERSATION_ACTIONS, stored_conversation_ids
from memvault.canonical import content_hash
from memvault.importers import chatgpt as importer_module
from memvault.importers.base import ImportedConversation, ImportedMemory, ImportFormatError
from memvault.importers.chatgpt import iso
from memvault.importers.detect import detect
from memvault.importers.ids import stable_id
from memvault.importers.ingest import ingest, make_context
from memvault.sources import open_target
from memvault.vault import Vault
from official import OFFICIAL_SCHEMAS
from providergen import chatgpt as gen
from providergen import write_folder, write_zip
from vaultkit import make_vault

SCHEMAS = OFFICIAL_SCHEMAS
CONVERSATION_SCHEMA = json.loads(
    (SCHEMAS / "portable-ai-memory-conversation.schema.json").read_text(encoding="utf-8")
)
STORE_SCHEMA = json.loads((SCHEMAS / "portable-ai-memory.schema.json").read_text("utf-8"))
CONVERSATION = jsonschema_rs.validator_for(CONVERSATION_SCHEMA)
MEMORY = jsonschema_rs.validator_for(
    {
        "$schema": STORE_SCHEMA["$schema"],
        "$defs": STORE_SCHEMA["$defs"],
        "$ref": "#/$defs/MemoryObject",
    }
)


def read_all(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    with open_target(path) as target:
        context = make_context(str(path), None, now=datetime(2026, 11, 1, tzinfo=UTC))
        records = list(importer_module.IMPORTER.read(target, context))
    conversations = [dict(r.document) for r in records if isinstance(r, ImportedConversation)]
    memories = [dict(r.memory) for r in records if isinstance(r, ImportedMemory)]
    return conversations, memories, context.warnings


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return gen.export(seed=7, count=12)


@pytest.fixture(scope="module")
def raw(files: dict[str, bytes]) -> list[dict[str, Any]]:
    return list(json.loads(files["conversations.json"]))


@pytest.fixture(scope="module")
def imported(
    files: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    path = write_zip(files, tmp_path_factory.mktemp("zip") / "export.zip")
    return read_all(path)


def leaves(value: Any) -> Iterator[Any]:
    """Every scalar inside a JSON value (keys excluded)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def by_provider_id(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["provider_message_id"]: m for m in doc["messages"]}


# -- shapes and schema ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["zip", "zip-in-folder", "folder", "file"])
def test_pam_25_each_input_shape_is_detected_and_validates(
    shape: str, files: dict[str, bytes], tmp_path: Path
) -> None:
    if shape == "zip":
        path = write_zip(files, tmp_path / "export.zip")
    elif shape == "zip-in-folder":
        path = write_zip(files, tmp_path / "export.zip", folder="chatgpt-2026-11-01")
    elif shape == "folder":
        path = write_folder(files, tmp_path / "export")
    else:
        path = tmp_path / "my-chats.json"
        path.write_bytes(files["conversations.json"])
    with open_target(path) as target:
        assert detect(target) is importer_module.IMPORTER
    conversations, memories, _ = read_all(path)
    assert len(conversations) == 12
    for document in conversations:
        errors = [str(e) for e in CONVERSATION.iter_errors(document)]
        assert not errors, (document["id"], errors[:3])
    # The lone file has no user.json: no account id, nothing else differs.
    assert all((c["provider"]["account_id"] is None) == (shape == "file") for c in conversations)
    assert memories


def test_pam_25_import_metadata_is_filled(
    imported: tuple[list[dict[str, Any]], Any, Any],
) -> None:
    for document in imported[0]:
        block = document["import_metadata"]
        assert block["importer_version"] == "chatgpt-importer/2026.11.1"
        assert block["importer"].startswith("memvault/")
        assert block["imported_at"] == "2026-11-01T00:00:00Z"
        assert block["source_file"].endswith("export.zip")


def test_pam_25_ids_are_stable_hashes_of_provider_ids(
    raw: list[dict[str, Any]], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    for conv, doc in zip(raw, imported[0], strict=True):
        assert doc["id"] == stable_id("chatgpt", "conversation", conv["conversation_id"])
        # (message ids are computed in bulk; they must equal stable_id's)
        assert doc["provider"]["conversation_id"] == conv["conversation_id"]
        for node_id, message in by_provider_id(doc).items():
            assert message["id"] == stable_id(
                "chatgpt", "message", conv["conversation_id"], node_id
            )


# -- nothing lost --------------------------------------------------------------------------------


def test_every_message_text_and_raw_field_arrives(
    raw: list[dict[str, Any]], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    """Every scalar of every provider message (text, parts, tool output, quotes, image
    pointers, metadata, status…) is somewhere in its PAM message; only create_time is
    converted (checked below) and the null parts are recorded by position."""
    checked = 0
    for conv, doc in zip(raw, imported[0], strict=True):
        messages = by_provider_id(doc)
        for node_id, node in conv["mapping"].items():
            message = node["message"]
            if message is None:
                assert node_id in doc["raw_metadata"]["empty_nodes"]
                continue
            pam = messages[node_id]
            found = Counter(leaves(pam))
            expected = {k: v for k, v in message.items() if k != "create_time"}
            for value in leaves(expected):
                if value is None:
                    continue  # nulls carry nothing (a null part is kept by position)
                assert value in found, (node_id, value)
                checked += 1
    assert checked > 1000


def test_content_outside_parts_is_text(imported: tuple[list[dict[str, Any]], Any, Any]) -> None:
    texts = []
    for doc in imported[0]:
        for message in doc["messages"]:
            content = message["content"]
            if content["type"] == "text":
                texts.append(content["text"])
            else:
                texts.extend(p.get("text") for p in content["parts"])
    for expected in (
        "print(sum(range(10)))",  # code
        "45",  # execution_output
        "# Lisboa\nCapital de Portugal.",  # tether_browsing_display
        "Lisboa é a capital de Portugal.",  # tether_quote
        "What is in this picture? / O que há nesta imagem?",  # multimodal_text
        "The user wants metric units.",  # thoughts
        "Thought for 4s",  # reasoning_recap
    ):
        assert expected in texts, expected
    code = next(
        p
        for d in imported[0]
        for m in d["messages"]
        for p in m["content"].get("parts", [])
        if p["type"] == "code"
    )
    assert code["language"] == "python"
    image = next(
        p
        for d in imported[0]
        for m in d["messages"]
        for p in m["content"].get("parts", [])
        if p["type"] == "image"
    )
    assert image["ref"] == "file-service://file-Abc123"
    quote = next(
        m for d in imported[0] for m in d["messages"] if m.get("citations")
        and m["citations"][0]["url"] == "https://pt.wikipedia.org/wiki/Lisboa"
    )  # fmt: skip
    assert quote["citations"][0]["title"] == "Lisboa – Wikipédia"


def test_conversation_fields_arrive(
    raw: list[dict[str, Any]], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    for conv, doc in zip(raw, imported[0], strict=True):
        assert doc["title"] == conv["title"]
        assert doc["is_archived"] is conv["is_archived"]
        assert doc["model"] == conv["default_model_slug"]
        found = Counter(leaves(doc))
        rest = {k: v for k, v in conv.items() if k not in ("mapping", "create_time", "update_time")}
        for value in leaves(rest):
            if value is not None:
                assert value in found, (conv["conversation_id"], value)
        assert doc["raw_metadata"]["current_node"] == conv["current_node"]


# -- times ---------------------------------------------------------------------------------------


def test_every_timestamp_arrives_and_missing_ones_fall_back_to_a_neighbour(
    raw: list[dict[str, Any]], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    fallbacks = 0
    for conv, doc in zip(raw, imported[0], strict=True):
        if conv["create_time"]:
            assert doc["temporal"]["created_at"] == iso(conv["create_time"])
        else:
            # No conversation time: the earliest message's.
            assert doc["temporal"]["created_at"] == min(m["created_at"] for m in doc["messages"])
        assert doc["temporal"]["updated_at"] == iso(conv["update_time"])
        messages = by_provider_id(doc)
        by_id = {m["id"]: m for m in doc["messages"]}
        for node_id, node in conv["mapping"].items():
            message = node["message"]
            if message is None:
                continue
            pam = messages[node_id]
            if message["create_time"]:
                assert pam["created_at"] == iso(message["create_time"])
                continue
            fallbacks += 1
            assert pam["raw_metadata"]["create_time"] == message["create_time"]
            if pam["parent_id"] is not None:
                assert pam["created_at"] == by_id[pam["parent_id"]]["created_at"]
            else:
                child = by_id[pam["children_ids"][0]]
                assert pam["created_at"] <= child["created_at"]
            assert pam["created_at"] < "2025-01-01"  # never the moment of the import
    assert fallbacks > 12


def test_iso_keeps_microseconds() -> None:
    assert iso(1714564800.0) == "2024-05-01T12:00:00Z"
    assert iso(1714564800.25) == "2024-05-01T12:00:00.250000Z"
    assert iso(1714564801.123456) == "2024-05-01T12:00:01.123456Z"


# -- the graph -----------------------------------------------------------------------------------


def test_pam_25_3_branches_roots_and_orphans_are_kept(
    raw: list[dict[str, Any]], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    for conv, doc in zip(raw, imported[0], strict=True):
        by_id = {m["id"]: m for m in doc["messages"]}
        kept = [n for n in conv["mapping"].values() if n["message"] is not None]
        assert len(doc["messages"]) == len(kept)
        for message in doc["messages"]:
            for child in message["children_ids"]:
                assert by_id[child]["parent_id"] == message["id"]
            if message["parent_id"] is not None:
                assert message["id"] in by_id[message["parent_id"]]["children_ids"]
        roots = [m for m in doc["messages"] if m["parent_id"] is None]
        # The hidden root (message null) is dropped: its child is a root. Some conversations
        # also hold an orphan and a second root.
        assert len(roots) == (3 if conv is raw[2] or conv is raw[7] else 1)
        # A regeneration (two answers) and an edit (two questions) are branches.
        assert sum(1 for m in doc["messages"] if len(m["children_ids"]) > 1) >= 2
    orphan = next(
        m for d in imported[0] for m in d["messages"]
        if m["raw_metadata"].get("provider_parent") == "node-that-was-deleted"
    )  # fmt: skip
    assert orphan["parent_id"] is None


def test_graph_with_a_cycle_and_damaged_children_still_reads() -> None:
    def msg(text: str, t: float) -> dict[str, Any]:
        return {
            "id": text,
            "author": {"role": "user"},
            "create_time": t,
            "content": {"content_type": "text", "parts": [text]},
        }

    mapping = {
        "a": {"id": "a", "message": msg("a", 10.0), "parent": "b", "children": ["b"]},
        "b": {"id": "b", "message": msg("b", 20.0), "parent": "a", "children": ["a"]},
        "c": {"id": "c", "message": msg("c", 30.0), "parent": "a", "children": []},
    }
    graph = importer_module._Graph(mapping, "test")
    assert sorted(graph.order) == ["a", "b", "c"]
    assert "c" in graph.children["a"]  # listed by its parent link though "a" omits it


def test_a_parent_or_rating_id_that_is_no_string_is_kept_not_a_crash(tmp_path: Path) -> None:
    """Hostile ids: a node whose `parent` is a list, a message whose `id` is an object and a
    rating whose `id` is a list import (the node a root, its parent kept in raw_metadata, the
    rating with the conversation's unmatched ones) instead of failing on an unhashable key."""
    message = {
        "id": {"odd": True},
        "author": {"role": "user"},
        "create_time": 1700000000.0,
        "content": {"content_type": "text", "parts": ["hello"]},
    }
    conversation = {
        "id": "c-1",
        "title": "t",
        "create_time": 1700000000.0,
        "mapping": {"n": {"id": "n", "message": message, "parent": ["x"], "children": []}},
    }
    rating = {"id": ["n"], "conversation_id": "c-1", "rating": "thumbsUp"}
    export = write_folder(
        {
            "conversations.json": json.dumps([conversation]).encode(),
            "message_feedback.json": json.dumps([rating]).encode(),
        },
        tmp_path / "export",
    )
    (doc,), _, _ = read_all(export)
    (converted,) = doc["messages"]
    assert converted["parent_id"] is None
    assert converted["raw_metadata"]["provider_parent"] == ["x"]
    assert converted["raw_metadata"]["message_id"] == {"odd": True}
    assert doc["raw_metadata"]["message_feedback"] == [rating]


# -- memories ChatGPT keeps ----------------------------------------------------------------------


def test_pam_11_custom_instructions_bio_and_model_context_become_memories(
    imported: tuple[list[dict[str, Any]], list[dict[str, Any]], Any],
) -> None:
    conversations, memories, _ = imported
    for memory in memories:
        errors = [str(e) for e in MEMORY.iter_errors(memory)]
        assert not errors, (memory["content"], errors)
        assert memory["content_hash"] == content_hash(memory["content"])  # §6
        assert memory["provenance"]["platform"] == "chatgpt"
        assert memory["provenance"]["platform_user_id"] == gen.ACCOUNT_ID
    by_content = {m["content"]: m for m in memories}
    assert len(by_content) == len(memories)  # custom instructions repeat: kept once
    about_user = by_content[gen.ABOUT_USER]
    assert about_user["provenance"]["extraction_method"] == "explicit_user_input"
    about_model = by_content[gen.ABOUT_MODEL]
    assert about_model["type"] == "instruction"
    bio = [m for m in memories if m["metadata"]["source"] == "chatgpt-bio-tool"]
    assert {m["content"] for m in bio} == {gen.BIO_PORTUGUESE[0], gen.BIO_PORTUGUESE[1]}
    messages = {m["id"]: (d["id"], m) for d in conversations for m in d["messages"]}
    for memory in bio:
        conversation_id, message = messages[memory["provenance"]["message_ref"]]
        assert memory["provenance"]["conversation_ref"] == conversation_id
        assert message["tool_calls"] == [{"name": "bio", "input": memory["content"]}]
        assert memory["provenance"]["extraction_method"] == "api_export"
        assert memory["metadata"]["language"] == "pt"
    context = [m for m in memories if m["metadata"]["source"] == "chatgpt-model-set-context"]
    assert [m["temporal"]["created_at"] for m in context] == [
        "2024-05-01T00:00:00Z",
        "2024-05-03T00:00:00Z",
        "2024-05-07T00:00:00Z",
    ]
    assert {m["type"] for m in context} == {"identity", "preference", "relationship"}
    # The instructions are also the conversations' system instruction.
    with_instructions = [d for d in conversations if d["system_instruction"]]
    assert len(with_instructions) == 4
    assert gen.ABOUT_MODEL in with_instructions[0]["system_instruction"]


def test_feedback_links_by_message_id_and_conversation(
    files: dict[str, bytes], imported: tuple[list[dict[str, Any]], Any, Any]
) -> None:
    """Newer entries name the rated message by `id` (no `message_id`)."""
    feedback = [f for f in json.loads(files["message_feedback.json"]) if "message_id" not in f]
    assert feedback
    messages = {
        (d["provider"]["conversation_id"], m["provider_message_id"]): m
        for d in imported[0]
        for m in d["messages"]
    }
    for entry in feedback:
        message = messages[(entry["conversation_id"], entry["id"])]
        assert message["raw_metadata"]["feedback"] == entry


def test_feedback_older_entries_with_dashless_ids_and_message_id_reach_their_messages(
    files: dict[str, bytes], imported: tuple[list[dict[str, Any]], Any, list[str]]
) -> None:
    """Issue #15 §5: older `message_feedback.json` entries spell the conversation id without
    dashes and name the rated message by `message_id` (their `id` is the rating's own). Each
    reaches the message it rates, written comment and all, and none is reported as belonging
    to a conversation the export lacks (importer-mappings §1: ratings are part of the
    export)."""
    conversations, _, warnings = imported
    older = [f for f in json.loads(files["message_feedback.json"]) if "message_id" in f]
    assert len(older) >= 4 and all("-" not in f["conversation_id"] for f in older)
    assert any("1143" in f["content"] for f in older)  # the user's written comment
    messages = {
        (d["provider"]["conversation_id"].replace("-", ""), m["provider_message_id"]): m
        for d in conversations
        for m in d["messages"]
    }
    for entry in older:
        message = messages[(entry["conversation_id"], entry["message_id"])]
        assert message["raw_metadata"]["feedback"] == entry
    assert not [w for w in warnings if "message_feedback.json" in w]
    every = json.loads(files["message_feedback.json"])
    placed = [m["raw_metadata"]["feedback"] for d in conversations for m in d["messages"]
              if "feedback" in m["raw_metadata"]]  # fmt: skip
    assert sorted(map(json.dumps, placed)) == sorted(map(json.dumps, every))


def test_model_comparisons_are_kept_with_their_conversation(
    files: dict[str, bytes], imported: tuple[list[dict[str, Any]], Any, list[str]]
) -> None:
    """Issue #15 §5: `model_comparisons.json` (the user's choice between two answers) is
    read; each entry is kept whole in its conversation's `raw_metadata.model_comparisons`
    (docs/decisions.md), and one whose conversation the export lacks is reported."""
    conversations, _, warnings = imported
    comparisons = json.loads(files["model_comparisons.json"])
    by_id = {d["provider"]["conversation_id"]: d for d in conversations}
    kept = [c for c in comparisons if c["conversation_id"] in by_id]
    assert kept
    for entry in kept:
        doc = by_id[entry["conversation_id"]]
        assert entry in doc["raw_metadata"]["model_comparisons"]
        errors = [str(e) for e in CONVERSATION.iter_errors(doc)]
        assert not errors, errors
    assert [w for w in warnings if "model_comparisons.json" in w] == [
        f"model_comparisons.json: a model comparison for conversation "
        f"{gen.MISSING_CONVERSATION}, which is not in conversations.json (kept nowhere)"
    ]


def test_feedback_for_an_unknown_message_stays_with_its_conversation(tmp_path: Path) -> None:
    files = gen.export(seed=3, count=2)
    convs = json.loads(files["conversations.json"])
    entry = {"id": "gone", "conversation_id": convs[0]["conversation_id"], "rating": "thumbsDown"}
    files["message_feedback.json"] = json.dumps([entry]).encode()
    documents, _, _ = read_all(write_folder(files, tmp_path / "e"))
    assert documents[0]["raw_metadata"]["message_feedback"] == [entry]


# -- the vault -----------------------------------------------------------------------------------


def vault_state(vault: Vault) -> tuple[Any, ...]:
    stats = vault.stats()
    return (
        stats["memories"],
        stats["conversations"],
        stats["audit_entries"],
        [e.hash for e in vault.audit_log()],
    )


def import_path(vault: Vault, path: Path) -> Any:
    with open_target(path) as target:
        return ingest(vault, detect(target), target, make_context(str(path), None))


def test_reimport_is_a_no_op(files: dict[str, bytes], tmp_path: Path) -> None:
    path = write_zip(files, tmp_path / "export.zip")
    with make_vault(tmp_path / "v") as vault:
        first = import_path(vault, path)
        assert (first.conversations_new, first.memories_new) == (12, 7)
        assert first.messages_new == first.messages_total > 100
        before = vault_state(vault)
        again = import_path(vault, path)
        assert again.conversations_unchanged == 12
        assert (again.conversations_new, again.conversations_updated) == (0, 0)
        assert (again.memories_new, again.memories_reinforced) == (0, 0)
        assert again.memories_unchanged == 7
        assert vault_state(vault) == before


def test_a_newer_export_adds_only_what_is_new(tmp_path: Path) -> None:
    old = gen.export(seed=5, count=10)
    newer = gen.export(seed=5, count=12)  # two more conversations…
    convs = json.loads(newer["conversations.json"])
    first = convs[0]  # …and one continued
    leaf = first["current_node"]
    first["mapping"][leaf]["children"].append("new-node")
    first["mapping"]["new-node"] = {
        "id": "new-node",
        "parent": leaf,
        "children": [],
        "message": {
            "id": "new-node",
            "author": {"role": "user"},
            "create_time": 1800000000.5,
            "content": {"content_type": "text", "parts": ["Obrigada! Mais uma pergunta."]},
        },
    }
    newer["conversations.json"] = json.dumps(convs).encode()
    with make_vault(tmp_path / "v") as vault:
        import_path(vault, write_zip(old, tmp_path / "old.zip"))
        audit = vault.stats()["audit_entries"]
        mark = vault.audit_position()
        result = import_path(vault, write_zip(newer, tmp_path / "new.zip"))
        assert (result.conversations_new, result.conversations_updated) == (2, 1)
        assert result.conversations_unchanged == 9
        added = json.loads(newer["conversations.json"])[10:]
        assert result.messages_new == 1 + sum(
            1 for c in added for n in c["mapping"].values() if n["message"]
        )
        # The new or changed conversations in one batch entry (ids and counts, the two new
        # and the changed one, each once), and one entry per new memory.
        assert vault.stats()["audit_entries"] == audit + 1 + result.memories_new
        (batch,) = vault.audit_entries(after_seq=mark, actions=CONVERSATION_ACTIONS)
        assert len(set(stored_conversation_ids(batch.action, batch.details))) == 3
        stored = vault.get_conversation(stable_id("chatgpt", "conversation", first["id"]))
        texts = [m["content"].get("text") for m in stored.document["messages"]]
        assert "Obrigada! Mais uma pergunta." in texts


def test_a_bad_conversation_midway_changes_nothing(tmp_path: Path) -> None:
    files = gen.export(seed=9, count=10)
    convs = json.loads(files["conversations.json"])
    convs[8]["mapping"] = "broken"
    files["conversations.json"] = json.dumps(convs).encode()
    path = write_zip(files, tmp_path / "bad.zip")
    with make_vault(tmp_path / "v") as vault:
        before = vault_state(vault)
        with pytest.raises(ImportFormatError) as caught:
            import_path(vault, path)
        message = str(caught.value)
        assert "conversations.json: conversation 8" in message
        assert convs[8]["conversation_id"] in message and "'mapping'" in message
        assert vault_state(vault) == before


def test_truncated_json_names_the_conversation(tmp_path: Path) -> None:
    files = gen.export(seed=9, count=4)
    data = files["conversations.json"]
    cut = data.index(b'{"title": "Conversation 2"')
    files["conversations.json"] = data[: cut + 200]
    with make_vault(tmp_path / "v") as vault:
        before = vault_state(vault)
        with pytest.raises(ImportFormatError, match="conversation 2: not valid JSON"):
            import_path(vault, write_folder(files, tmp_path / "e"))
        assert vault_state(vault) == before


def test_unknown_members_anywhere_are_kept(tmp_path: Path) -> None:
    """Members a future export adds — on a node, a message, its content, the conversation —
    land in raw_metadata (PAM §25.3: nothing dropped), and an unknown content type warns."""
    files = gen.export(seed=3, count=1)
    convs = json.loads(files["conversations.json"])
    conv = convs[0]
    conv["new_conversation_flag"] = "conv-extra"
    node_id, node = next((k, n) for k, n in conv["mapping"].items() if n["message"])
    node["node_extra"] = "node-extra"
    node["message"]["new_member"] = {"deep": "message-extra"}
    node["message"]["content"] = {"content_type": "hologram", "text": "beam me", "depth": 3}
    files["conversations.json"] = json.dumps(convs).encode()
    documents, _, warnings = read_all(write_folder(files, tmp_path / "e"))
    message = by_provider_id(documents[0])[node_id]
    assert message["raw_metadata"]["node"] == {"node_extra": "node-extra"}
    assert message["raw_metadata"]["new_member"] == {"deep": "message-extra"}
    assert message["content"] == {"type": "text", "text": "beam me"}
    assert message["raw_metadata"]["content"]["depth"] == 3
    assert documents[0]["raw_metadata"]["new_conversation_flag"] == "conv-extra"
    assert any("content type 'hologram' is not known" in w for w in warnings)
