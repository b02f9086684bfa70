"""The Grok importer (PAM §25, importer-mappings §5) against generated exports: every text,
timestamp (ISO or BSON ``$date``) and raw field arrives, branches are rebuilt, documents
validate against the official conversation schema, memories are valid PAM memory objects,
and bad input gets a clear error."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from importkit import (
    Arrived,
    check_damaged_values,
    conversation_errors,
    each_layout,
    input_bytes,
    leaves,
    memory_errors,
    peak_heap,
    progress_of,
    refused,
)
from importkit import read as read_with
from memvault.importers.base import ImportContext, ImportFormatError
from memvault.importers.grok import IMPORTER
from memvault.sources import open_target
from providergen import grok as gen


def run(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], ImportContext]:
    return read_with(IMPORTER, path)


#: Provider field → the PAM members it may arrive under (importer-mappings §5).
RENAMED: dict[str, tuple[str, ...]] = {
    "id": ("conversation_id", "provider_message_id", "provider_id"),
    "_id": ("provider_message_id",),
    "user_id": ("account_id", "platform_user_id"),
    "userId": ("platform_user_id",),
    "message": ("text",),
    "preview": ("snippet",),
    "link": ("ref",),
    "original_prompt": ("text", "title"),
    "parent_response_id": ("provider_message_id",),
    "conversation_id": ("conversation_id",),
}


@pytest.fixture(params=gen.LAYOUTS)
def layout(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def by_title(conversations: list[dict[str, Any]]) -> dict[str | None, dict[str, Any]]:
    return {c["title"]: c for c in conversations}


def test_pam_25_every_text_timestamp_and_raw_field_arrives(tmp_path: Path, layout: str) -> None:
    files = gen.export()
    conversations, memories, _ = run(gen.write(tmp_path, layout, files))
    arrived = Arrived(conversations + memories)
    contents = [m["content"] for m in memories]
    walked = {"backend": gen.main_file(files)}
    if layout != "file":
        profile = next(v for k, v in files.items() if k.endswith("auth-mgmt-api.json"))
        walked["user"] = profile["user"]
    checked = 0
    for name, value in walked.items():
        for where, leaf in leaves(value):
            key = where[-1]
            checked += 1
            if leaf == "":
                continue  # an empty title or prompt: null or absent
            if key == "sender" and leaf in ("human", "assistant"):
                continue  # the role says it
            if key in ("givenName", "familyName") or (
                ("projects" in where or "tasks" in where)
                and key in ("name", "description", "title", "prompt")
            ):
                assert any(leaf in c for c in contents), (where, leaf)
            else:
                arrived.check(name, where, leaf, RENAMED)
    assert checked > 150


def test_pam_25_conversations_validate_against_official_schema(tmp_path: Path, layout: str) -> None:
    conversations, _, _ = run(gen.write(tmp_path, layout))
    assert len(conversations) == 7  # 5 conversations (one empty) and 2 media posts
    for document in conversations:
        assert conversation_errors(document) == [], document["title"]
        stamps = [
            document["temporal"]["created_at"],
            *(m["created_at"] for m in document["messages"]),
        ]
        assert all(s.endswith("Z") for s in stamps)


def test_reading_twice_gives_identical_documents(tmp_path: Path, layout: str) -> None:
    path = gen.write(tmp_path, layout)
    assert json.dumps(run(path)[:2], sort_keys=True) == json.dumps(run(path)[:2], sort_keys=True)


def test_zip_folder_and_file_give_the_same_conversations(tmp_path: Path) -> None:
    results = {}
    for layout, path in each_layout(tmp_path, gen):
        conversations, _, _ = run(path)
        for document in conversations:
            del document["import_metadata"]
        results[layout] = conversations
    assert results["zip"] == results["folder"]
    # A lone prod-grok-backend.json has no uploaded files beside it: no sizes.
    assert "size_bytes" not in json.dumps(results["file"])
    sizes = [
        a.pop("size_bytes")
        for c in results["zip"]
        for m in c["messages"]
        for a in m.get("attachments", [])
        if "size_bytes" in a
    ]
    assert sizes == [len(b"print('miau')\n")]
    assert results["zip"] == results["file"]


def test_pam_25_3_branches_are_rebuilt_in_time_order(tmp_path: Path) -> None:
    """§25.3 and importer-mappings §5/§6: parent_response_id → parent_id, children rebuilt,
    a dangling parent repaired, roles normalized case-insensitively."""
    files = gen.export()
    conversations, _, ctx = run(gen.write(tmp_path, "zip", files))
    rio = by_title(conversations)["Roteiro no Rio"]["messages"]
    texts = [m["content"]["text"] for m in rio]
    assert texts == [
        "Me sugere um roteiro de 3 dias no Rio?",
        "Dia 1: Pão de Açúcar e Urca.",
        "Obrigado!",  # no time: its file neighbour's (the answer above), kept after it
        "Dia 1: Cristo Redentor e Santa Teresa.",
        "E com crianças pequenas?",
        "Com crianças, prefira o AquaRio e a praia do Leme.",
        "De nada! Boa viagem.",
    ]
    stamps = [m["created_at"] for m in rio]
    assert [datetime.fromisoformat(s) for s in stamps] == sorted(
        datetime.fromisoformat(s) for s in stamps
    )
    ids = {m["content"]["text"]: m["id"] for m in rio}
    first = rio[0]
    assert first["parent_id"] is None
    assert first["children_ids"] == [
        ids["Dia 1: Pão de Açúcar e Urca."],
        ids["Dia 1: Cristo Redentor e Santa Teresa."],
    ]
    follow_up = rio[4]
    assert follow_up["parent_id"] == ids["Dia 1: Cristo Redentor e Santa Teresa."]
    # The dangling parent is repaired: the message before it in time order.
    thanks = rio[2]
    assert thanks["parent_id"] == rio[1]["id"]
    assert thanks["id"] in rio[1]["children_ids"]
    assert thanks["raw_metadata"]["parent_response_id"] == "ffffffff-dead-beef-0000-000000000000"
    assert any("ffffffff-dead-beef" in w and "Roteiro" not in w for w in ctx.warnings)
    assert rio[-1]["parent_id"] == thanks["id"]
    # Senders: "ASSISTANT" and a model name are the assistant; the value itself is kept.
    assert [m["role"] for m in rio] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
        "assistant",
    ]
    assert rio[1]["raw_metadata"]["sender"] == "ASSISTANT"
    assert rio[3]["raw_metadata"]["sender"] == "grok-3"
    # A conversation without parent ids is linear (§25.3: null and []).
    capital = by_title(conversations)["Capital"]["messages"]
    assert [(m["parent_id"], m["children_ids"]) for m in capital] == [(None, [])] * 2


def test_mappings_5_bson_dates_become_rfc3339_everywhere(tmp_path: Path) -> None:
    """importer-mappings §5 and §7: `$date` values (both forms) at any depth, raw ones
    included, become RFC 3339 UTC; web results become citations."""
    conversations, _, _ = run(gen.write(tmp_path, "zip"))
    assert "$date" not in json.dumps(conversations)
    shoes = by_title(conversations)["Running shoes"]
    answer = shoes["messages"][1]
    assert answer["raw_metadata"]["thinking_start_time"].endswith("Z")
    assert answer["raw_metadata"]["grok_metadata"]["llm_info"]["requested_at"].endswith("Z")
    assert answer["raw_metadata"]["share_link"]["create_time"].endswith("Z")
    assert answer["citations"] == [
        {
            "title": "Best shoes for flat feet",
            "url": "https://www.runnersworld.example/flat-feet",
            "snippet": "Stability shoes support the arch.",
        }
    ]
    assert answer["raw_metadata"]["cited_web_search_results"] == [{"siteName": "Runner's World"}]
    assert shoes["raw_metadata"]["starred"] is True
    capital = by_title(conversations)["Capital"]
    assert capital["temporal"]["created_at"].endswith("Z")


def test_images_files_and_media_posts_are_kept(tmp_path: Path) -> None:
    conversations, _, _ = run(gen.write(tmp_path, "zip"))
    cat = by_title(conversations)["Cat astronaut"]["messages"]
    upload = cat[0]["attachments"][0]
    assert upload["type"] == "file" and upload["size_bytes"] == len(b"print('miau')\n")
    assert upload["ref"] == f"prod-mc-asset-server/{upload['provider_id']}/content"
    assert cat[1]["content"]["text"] == ""
    assert [a["type"] for a in cat[1]["attachments"]] == ["image", "image"]
    assert cat[1]["raw_metadata"]["query_type"] == "imagine"
    post = by_title(conversations)["Um farol ao pôr do sol no litoral gaúcho, estilo aquarela"]
    assert post["raw_metadata"]["grok_record"] == "media_post"
    assert [m["role"] for m in post["messages"]] == ["user", "assistant"]
    media = post["messages"][1]["attachments"]
    assert [(a["type"], a["mime_type"]) for a in media] == [
        ("image", "image/jpeg"),
        ("video", "video/mp4"),
    ]
    empty = [c for c in conversations if c["title"] is None]
    assert len(empty) == 2  # the empty conversation and the post without a prompt
    assert any(c["messages"] == [] for c in empty)


def test_missing_times_fall_back_to_neighbours_never_now(tmp_path: Path) -> None:
    files = gen.export()
    backend = gen.main_file(files)
    lone = backend["conversations"][4]["conversation"]
    del lone["create_time"], lone["modify_time"]
    conversations, _, _ = run(gen.write(tmp_path, "zip", files))
    assert conversations[4]["temporal"]["created_at"] == conversations[3]["temporal"]["created_at"]
    backend["conversations"] = [backend["conversations"][4], *backend["conversations"][:2]]
    conversations, _, _ = run(gen.write(tmp_path / "first", "folder", files))
    assert conversations[0]["temporal"]["created_at"] == conversations[1]["temporal"]["created_at"]
    backend["conversations"], backend["media_posts"] = [backend["conversations"][0]], []
    with pytest.raises(ImportFormatError, match="no timestamp anywhere"):
        run(gen.write(tmp_path / "alone", "folder", files))


def test_pam_4_memories_are_valid_memory_objects(tmp_path: Path) -> None:
    _, memories, ctx = run(gen.write(tmp_path, "zip"))
    assert memory_errors(memories) == []
    kinds = {(m["type"], m["custom_type"]): m for m in memories}
    assert set(kinds) == {
        ("project", None),
        ("instruction", None),
        ("custom", "scheduled_task"),
        ("identity", None),
    }
    assert kinds[("project", None)]["content"] == (
        "Marathon training: Plano para a maratona de Porto Alegre"
    )
    task = kinds[("custom", "scheduled_task")]
    assert task["metadata"]["raw_metadata"]["cadence"]["time"] == "08:00"
    assert task["metadata"]["raw_metadata"]["last_run_time"].endswith("Z")
    assert kinds[("identity", None)]["content"] == "Name: Ana Souza"
    assert all(m["provenance"]["extracted_at"] == ctx.imported_at for m in memories)


def test_sniff_looks_at_names_and_first_bytes(tmp_path: Path) -> None:
    for _, path in each_layout(tmp_path, gen):
        with open_target(path) as target:
            assert IMPORTER.sniff(target)
    renamed = tmp_path / "export.json"
    renamed.write_bytes((tmp_path / "file" / gen.MAIN).read_bytes())
    claude = tmp_path / "conversations.json"
    claude.write_text('[{"uuid": "a", "name": "x", "chat_messages": []}]')
    other = tmp_path / "other.json"
    other.write_text('{"conversations": [{"id": 1}]}')
    with open_target(renamed) as target:
        assert IMPORTER.sniff(target)
    for path in (claude, other):
        with open_target(path) as target:
            assert not IMPORTER.sniff(target)


def test_unknown_top_level_fields_are_reported(tmp_path: Path) -> None:
    files = gen.export()
    gen.main_file(files)["user_settings"] = {"theme": "dark"}
    _, _, ctx = run(gen.write(tmp_path, "file", files))
    assert any("'user_settings' is not imported" in w for w in ctx.warnings)


def _response(backend: dict[str, Any], **changes: Any) -> str:
    backend["conversations"][0]["responses"][0]["response"].update(changes)
    return json.dumps(backend)


BAD_CASES = [
    ("truncated", lambda b: json.dumps(b)[:-300], "not valid JSON .in media_posts"),
    ("root is an array", lambda b: json.dumps([b]), "expected a JSON object with conversations"),
    (
        "conversations an object",
        lambda b: json.dumps({**b, "conversations": 3}),
        "field 'conversations': expected an array",
    ),
    (
        "conversation not an object",
        lambda b: json.dumps({**b, "conversations": ["x"]}),
        "conversations 0: conversation: expected an object",
    ),
    (
        "no conversation id",
        lambda b: json.dumps({**b, "conversations": [{"conversation": {}, "responses": []}]}),
        "field 'conversation.id': missing",
    ),
    ("no response id", lambda b: _response(b, _id=None), r"response 0: field 'response._id'"),
    (
        "bad date",
        lambda b: _response(b, create_time={"$date": {"$numberLong": "soon"}}),
        r"response 0 \(_id .*\): field 'create_time'",
    ),
    (
        "bad ISO",
        lambda b: json.dumps({**b, "projects": [{**b["projects"][0], "create_time": "ontem"}]}),
        "projects 0: field 'create_time': 'ontem'",
    ),
    ("no sender", lambda b: _response(b, sender=None), "field 'sender': missing"),
    (
        "images not strings",
        lambda b: _response(b, generated_image_urls=[{"url": "x"}]),
        r"field 'generated_image_urls'\[0\]: expected a string",
    ),
    (
        "parent not a string",
        lambda b: _response(b, parent_response_id=5),
        "field 'parent_response_id': expected a string",
    ),
]


@pytest.mark.parametrize(("case", "make", "expected"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_malformed_input_gives_a_clear_import_format_error(
    tmp_path: Path, case: str, make: Any, expected: str
) -> None:
    path = tmp_path / gen.MAIN
    path.write_text(make(gen.main_file(gen.export())), encoding="utf-8")
    refused(IMPORTER, path, expected)


def test_the_same_response_id_twice_is_an_error(tmp_path: Path) -> None:
    files = gen.export()
    responses = gen.main_file(files)["conversations"][0]["responses"]
    responses[1]["response"]["_id"] = responses[0]["response"]["_id"]
    with pytest.raises(ImportFormatError, match="the same id twice"):
        run(gen.write(tmp_path, "file", files))


@pytest.mark.slow
def test_backend_streams_with_bounded_memory(tmp_path: Path) -> None:
    """A 7 MB prod-grok-backend.json is read one conversation at a time: the Python heap
    stays a small fraction of the file."""
    path = tmp_path / gen.MAIN
    path.write_text(json.dumps(gen.many(1200), ensure_ascii=False), encoding="utf-8")
    size = path.stat().st_size
    assert size > 5 << 20
    count, peak = peak_heap(IMPORTER, path)
    assert count == 1200
    assert peak < size / 10, (peak, size)


def test_any_damaged_value_is_an_import_format_error_or_valid_output(tmp_path: Path) -> None:
    """One value anywhere in the export replaced by a value of another type: the import
    either fails with ImportFormatError or yields schema-valid conversations and memories
    (never a traceback)."""
    outcomes = check_damaged_values(tmp_path, gen, IMPORTER)
    assert outcomes["error"] > 10 and outcomes["ok"] > 10, outcomes


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    files = gen.export()
    plain = run(gen.write(tmp_path, "file", files))[0]
    path = tmp_path / gen.MAIN
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run(path)[0] == plain


@pytest.mark.parametrize("layout", ["file", "folder"])
def test_progress_advances_and_ends_at_the_size_read(tmp_path: Path, layout: str) -> None:
    """ImportContext.progress: the bytes read so far (the backend file and the profile
    beside it), rising, ending at their size — a byte order mark included."""
    path = gen.write(tmp_path, layout)
    if layout == "file":  # large enough for many reads, with a byte order mark
        data = json.dumps(gen.many(200), ensure_ascii=False).encode()
        path.write_bytes(b"\xef\xbb\xbf" + data)
    seen = progress_of(IMPORTER, path)
    assert len(seen) > 1 and seen == sorted(set(seen))
    read_files = [gen.MAIN, "prod-mc-auth-mgmt-api.json"]
    if layout == "file":
        assert seen[-1] == input_bytes(path)
    else:
        assert seen[-1] == sum(input_bytes(p) for p in path.rglob("*") if p.name in read_files), (
            sorted(p.name for p in path.rglob("*"))
        )


@pytest.mark.parametrize(
    ("sender", "role"),
    [("human", "user"), ("HUMAN", "user"), ("Human", "user"), ("user", "assistant"),
     ("USER", "assistant"), ("grok-4", "assistant"), ("ASSISTANT", "assistant")],
)  # fmt: skip
def test_importer_mappings_5_any_sender_other_than_human_is_the_assistant_even_user(
    tmp_path: Path, sender: str, role: str
) -> None:
    """importer-mappings §5 ("Normalization MUST be case-insensitive and treat any
    non-"human" value as "assistant"") and §6 ("any non-`human` value → assistant"): the
    MUST is followed for "user" too (docs/decisions.md); the sender as written is kept in
    `raw_metadata.sender` whenever it is not "human"/"assistant"."""
    backend = gen.main_file(gen.export())
    first = backend["conversations"][0]["responses"][0]["response"]
    path = tmp_path / gen.MAIN
    path.write_text(_response(backend, sender=sender), encoding="utf-8")
    conversations, _, _ = run(path)
    message = next(
        m for c in conversations for m in c["messages"] if m["provider_message_id"] == first["_id"]
    )
    assert message["role"] == role
    if sender not in ("human", "assistant"):
        assert message["raw_metadata"]["sender"] == sender
