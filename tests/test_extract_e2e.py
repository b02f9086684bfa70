"""End to end, for each of the five providers: a generated data export with planted user
statements (English and Portuguese) → `memvault import … --extract` through the CLI into a real
vault → the planted facts are memories of the right type (PAM §5) with provenance (§11) naming
the conversation and message they came from; the later "I moved from Berlin to Lisbon"
supersedes "I live in Berlin" (§13, §16.3: status, `superseded_by`, a `supersedes` relation,
nothing deleted); first-person statements in assistant turns never become memories; importing
the same export again with --extract changes nothing (counts and audit log). Also: a failed
extraction writes no memory and keeps the import (PAM §25.1 "Extract Memories")."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from clikit import home, mv, ok, snapshot
from conftest import EXAMPLE_EXPORT
from memvault.extract.rules import EXTRACTOR
from memvault.vault import Vault
from providergen import chatgpt, claude, copilot, gemini, grok, write_zip
from test_extract_llm import Stub, stub
from test_extract_llm import _memories as llm_reply
from vaultkit import PASSPHRASE

__all__ = ["home", "stub"]  # fixtures

#: When the planted conversations happen: after everything the generators write, the move a
#: month after the first statement.
EARLY = datetime(2026, 6, 1, 9, 0, 0, tzinfo=UTC)
LATE = EARLY + timedelta(days=30)
EARLY_TITLE = "Onde eu moro / where I live"
LATE_TITLE = "Mudança para Lisboa"


@dataclass(frozen=True, slots=True)
class Turn:
    role: str  # "user" or "assistant"
    text: str


#: The first planted conversation: English and Portuguese statements about the user, and an
#: assistant that talks about "itself" in the first person, in both languages.
EARLY_TURNS = (
    Turn("user", "I live in Berlin. I'm allergic to peanuts."),
    Turn("assistant", "Noted! I live in Reykjavik myself and I'm allergic to cats."),
    Turn("user", "Sou engenheira de dados na Nubank. Prefiro respostas curtas."),
    Turn("assistant", "Entendido. Eu moro em Manaus e prefiro chá verde."),
)
#: The second one, a month later: the change of residence.
LATE_TURNS = (
    Turn("user", "I moved from Berlin to Lisbon last week."),
    Turn("assistant", "Congratulations! I moved to Oslo once; I'm a big fan of the fjords."),
)

#: (planted user text, memory type, memory content, conversation title)
EXPECTED = (
    ("I live in Berlin.", "fact", "User lives in Berlin", EARLY_TITLE),
    ("I'm allergic to peanuts.", "fact", "User is allergic to peanuts", EARLY_TITLE),
    (
        "Sou engenheira de dados na Nubank.",
        "identity",
        "A usuária é engenheira de dados na Nubank",
        EARLY_TITLE,
    ),
    ("Prefiro respostas curtas.", "preference", "O usuário prefere respostas curtas", EARLY_TITLE),
    ("I moved from Berlin to Lisbon", "fact", "User lives in Lisbon", LATE_TITLE),
)
#: Words only the planted assistant turns say: none may reach a memory.
ASSISTANT_ONLY = ("reykjavik", "cats", "manaus", "chá verde", "oslo", "fjords")


# -- the exports, one builder per provider ---------------------------------------------------


def _chatgpt(dest: Path) -> Path:
    """conversations.json as the generator writes it, two conversations continued with the
    planted turns (new mapping nodes under `current_node`, as the ChatGPT UI appends them)."""
    convs = chatgpt.conversations(seed=4, count=6)
    for conv, turns, start, title in (
        (convs[1], EARLY_TURNS, EARLY, EARLY_TITLE),
        (convs[4], LATE_TURNS, LATE, LATE_TITLE),
    ):
        conv["title"] = title
        parent = conv["current_node"]
        when = start.timestamp()
        for number, turn in enumerate(turns):
            node = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{conv['id']}/{number}"))
            conv["mapping"][node] = {
                "id": node,
                "parent": parent,
                "children": [],
                "message": {
                    "id": node,
                    "author": {"role": turn.role, "name": None, "metadata": {}},
                    "create_time": when,
                    "update_time": None,
                    "content": chatgpt.text(turn.text),
                    "status": "finished_successfully",
                    "end_turn": True if turn.role == "assistant" else None,
                    "weight": 1.0,
                    "metadata": {"model_slug": "gpt-4o"} if turn.role == "assistant" else {},
                    "recipient": "all",
                    "channel": None,
                },
            }
            conv["mapping"][parent]["children"].append(node)
            parent = node
            when += 40.0
        conv["current_node"] = parent
        conv["update_time"] = when
    files = chatgpt.export(seed=4, count=6)
    files["conversations.json"] = json.dumps(convs, ensure_ascii=False).encode()
    return write_zip(files, dest / "chatgpt-export.zip")


def _claude_stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _claude(dest: Path, *, late: bool = True) -> Path:
    """The generator's export with two more conversations written as its `chat_messages`
    (only the early one with `late=False`: an older export of the same account)."""
    files = claude.export(seed=3)
    account = files["conversations.json"][0]["account"]
    planted = [(EARLY_TURNS, EARLY, EARLY_TITLE), (LATE_TURNS, LATE, LATE_TITLE)]
    for turns, start, title in planted if late else planted[:1]:
        messages = []
        for number, turn in enumerate(turns):
            when = start + timedelta(minutes=number)
            messages.append(
                {
                    "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"claude/{title}/{number}")),
                    "text": turn.text,
                    "content": [
                        {
                            "start_timestamp": _claude_stamp(when),
                            "stop_timestamp": _claude_stamp(when + timedelta(seconds=2)),
                            "flags": None,
                            "type": "text",
                            "text": turn.text,
                            "citations": [],
                        }
                    ],
                    "sender": "human" if turn.role == "user" else "assistant",
                    "created_at": _claude_stamp(when),
                    "updated_at": _claude_stamp(when + timedelta(seconds=3)),
                    "attachments": [],
                    "files": [],
                }
            )
        files["conversations.json"].append(
            {
                "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"claude/{title}")),
                "name": title,
                "summary": "",
                "created_at": _claude_stamp(start),
                "updated_at": _claude_stamp(start + timedelta(minutes=10)),
                "account": account,
                "chat_messages": messages,
            }
        )
    return claude.write(dest, "zip", files)


def _gemini(dest: Path) -> Path:
    """The Takeout activity log with two more conversations, one request/response event per
    exchange (`details`, as the generator's first variant), grouped by their /app/c/ id."""
    log = gemini.events(seed=5)
    model = next(e for e in log if "details" in e)
    planted = []
    for turns, start, cid in (
        (EARLY_TURNS, EARLY, "a1b2c3d4e5f60718"),
        (LATE_TURNS, LATE, "0f1e2d3c4b5a6978"),
    ):
        for number in range(0, len(turns), 2):
            event = copy.deepcopy(model)
            event["time"] = gemini.stamp(start + timedelta(minutes=number))
            event["titleUrl"] = f"https://gemini.google.com/app/c/{cid}"
            event["details"] = [
                {"name": "Request", "value": turns[number].text},
                {"name": "Response", "value": turns[number + 1].text},
            ]
            planted.append(event)
    files = gemini.export(seed=5)
    log = [*reversed(planted), *log]  # Takeout lists the newest first
    files[gemini.ACTIVITY_PATH["en"]] = json.dumps(log, ensure_ascii=False, indent=2).encode()
    return write_zip(files, dest / "takeout-20260701.zip")


def _copilot(dest: Path) -> Path:
    """The dashboard's activity history CSV with two more chats (its Conversation, Time,
    Author, Message columns), the other files as the generator writes them."""
    files = copilot.export(seed=3)
    body = [copilot.cells(r) for r in copilot.rows(seed=3) if r.file == copilot.ACTIVITY]
    for turns, start, title in ((EARLY_TURNS, EARLY, EARLY_TITLE), (LATE_TURNS, LATE, LATE_TITLE)):
        for number, turn in enumerate(turns):
            when = (start + timedelta(seconds=30 * number)).strftime("%Y-%m-%dT%H:%M:%S")
            body.append([title, when, "user" if turn.role == "user" else "AI", turn.text])
    files[copilot.ACTIVITY] = copilot.csv_bytes(
        copilot.HEADERS[copilot.ACTIVITY], body, bom=True, crlf=True
    )
    return write_zip(files, dest / "copilot-export.zip")


def _grok(dest: Path) -> Path:
    """prod-grok-backend.json with two more conversations whose responses are written like
    the generator's (a copy of one of its responses, chained by `parent_response_id`)."""
    files = grok.export(seed=2)
    backend = grok.main_file(files)
    model_conv = backend["conversations"][0]
    model_response = model_conv["responses"][0]
    for turns, start, title in ((EARLY_TURNS, EARLY, EARLY_TITLE), (LATE_TURNS, LATE, LATE_TITLE)):
        cid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"grok/{title}"))
        responses = []
        parent = ""
        for number, turn in enumerate(turns):
            item = copy.deepcopy(model_response)
            response = item["response"]
            response.update(
                {
                    "_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"grok/{title}/{number}")),
                    "conversation_id": cid,
                    "message": turn.text,
                    "sender": "human" if turn.role == "user" else "assistant",
                    "create_time": grok.bson(start + timedelta(minutes=number)),
                    "parent_response_id": parent,
                    "model": "" if turn.role == "user" else "grok-3",
                }
            )
            parent = response["_id"]
            responses.append(item)
        meta = copy.deepcopy(model_conv["conversation"])
        meta.update(
            {
                "id": cid,
                "title": title,
                "create_time": grok.iso(start),
                "modify_time": grok.iso(start + timedelta(minutes=10)),
            }
        )
        backend["conversations"].append({"conversation": meta, "responses": responses})
    return grok.write(dest, "zip", files)


BUILDERS: dict[str, Callable[[Path], Path]] = {
    "chatgpt": _chatgpt,
    "claude": _claude,
    "gemini": _gemini,
    "copilot": _copilot,
    "grok": _grok,
}


# -- reading the vault back --------------------------------------------------------------------


def _memories() -> list[dict[str, Any]]:
    listed = ok("list", "--status", "all", "--limit", "0", "--json").json()
    memories: list[dict[str, Any]] = listed["memories"]
    return memories


def _holding(vault: Path, text: str) -> tuple[str, str, str | None, str]:
    """(conversation id, message id, conversation title, role) of the one stored message
    whose text contains `text`."""
    found = []
    with Vault.open(vault, PASSPHRASE) as opened:
        for conversation in opened.conversations():
            for message in conversation.document["messages"]:
                content = message.get("content") or {}
                if text in str(content.get("text", "")):
                    found.append(
                        (conversation.id, message["id"], conversation.title, message["role"])
                    )
    assert len(found) == 1, (text, found)
    return found[0]


def _role_of(vault: Path, conversation_id: str, message_id: str) -> str:
    with Vault.open(vault, PASSPHRASE) as opened:
        document = opened.get_conversation(conversation_id).document
    (role,) = [m["role"] for m in document["messages"] if m["id"] == message_id]
    return str(role)


def _titles(provider: str) -> dict[str, str]:
    """The title each planted conversation gets: the provider's own, or — Gemini's activity
    log has none — the first request."""
    if provider == "gemini":
        return {EARLY_TITLE: EARLY_TURNS[0].text, LATE_TITLE: LATE_TURNS[0].text}
    return {EARLY_TITLE: EARLY_TITLE, LATE_TITLE: LATE_TITLE}


# -- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", sorted(BUILDERS))
def test_pam_25_1_provider_export_to_vault_to_memories(
    provider: str, home: Path, tmp_path: Path
) -> None:
    ok("init")
    export = BUILDERS[provider](tmp_path)
    payload = ok("import", export, "--extract", "--json").json()
    imported = payload["conversations"]
    extraction = payload["extraction"]
    assert imported["new"] > 2 and imported["updated"] == 0
    # Every conversation the import added was read, and only user messages were.
    assert extraction["conversations"] == imported["new"]
    memories = _memories()
    by_content = {m["content"]: m for m in memories}
    titles = _titles(provider)

    # PAM §5 types, §11 provenance: the platform, the conversation and the very message.
    for text, kind, content, title in EXPECTED:
        assert content in by_content, (content, sorted(by_content))
        memory = by_content[content]
        assert memory["type"] == kind
        conversation_id, message_id, stored_title, role = _holding(home, text)
        assert role == "user" and stored_title == titles[title]
        provenance = memory["provenance"]
        assert provenance["platform"] == provider
        assert provenance["conversation_ref"] == conversation_id
        assert provenance["message_ref"] == message_id
        assert provenance["extractor"] == EXTRACTOR
    assert by_content["O usuário prefere respostas curtas"]["metadata"]["language"] == "pt"

    # §13 / §16.3: the move supersedes the old residence; nothing is deleted.
    berlin, lisbon = by_content["User lives in Berlin"], by_content["User lives in Lisbon"]
    assert berlin["status"] == "superseded" and lisbon["status"] == "active"
    assert berlin["temporal"]["superseded_by"] == lisbon["id"]
    relations = ok("show", lisbon["id"], "--json").json()["relations"]
    assert {(r["type"], r["from"], r["to"]) for r in relations} >= {
        ("supersedes", lisbon["id"], berlin["id"])
    }
    assert [s["old"] for s in extraction["written"]["superseded"]] == [berlin["id"]]
    # Every memory the import and the extraction wrote is still there, the old one included.
    created = extraction["written"]["created"]
    assert len(memories) == payload["memories"]["new"] + len(created)
    assert berlin["id"] in created

    # Nothing an assistant said about "itself" became a memory: every extracted memory
    # points at a user message, and no assistant-only word appears in any memory.
    extracted = [m for m in memories if m["provenance"]["extractor"] == EXTRACTOR]
    assert len(extracted) >= len(EXPECTED)
    for memory in extracted:
        provenance = memory["provenance"]
        role = _role_of(home, provenance["conversation_ref"], provenance["message_ref"])
        assert role == "user", memory["content"]
    for memory in memories:
        for word in ASSISTANT_ONLY:
            assert word not in memory["content"].casefold(), memory["content"]

    # The same export again, with --extract: nothing changes, not even the audit log.
    before = snapshot()
    again = ok("import", export, "--extract", "--json").json()
    assert again["conversations"] == {
        "new": 0,
        "updated": 0,
        "unchanged": imported["new"],
        "absent": 0,
    }
    assert again["extraction"]["conversations"] == 0
    assert again["extraction"]["messages"] == 0
    assert again["extraction"]["actions"] == []
    assert again["extraction"]["written"]["created"] == []
    assert snapshot() == before


def test_a_newer_export_extracts_only_what_it_added_or_changed(home: Path, tmp_path: Path) -> None:
    """The first export has the early conversation; the newer one adds the move. The second
    import reads only the new conversation, and its move supersedes the first import's
    memory."""
    ok("init")
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    first = _claude(first_dir, late=False)
    second = _claude(second_dir)
    one = ok("import", first, "--extract", "--json").json()
    assert one["extraction"]["conversations"] == one["conversations"]["new"]
    berlin = next(m for m in _memories() if m["content"] == "User lives in Berlin")
    two = ok("import", second, "--extract", "--json").json()
    assert two["conversations"]["new"] == 1
    assert two["extraction"]["conversations"] == 1
    assert two["extraction"]["messages"] == 1  # the one user message of the new conversation
    after = {m["content"]: m for m in _memories()}
    assert after["User lives in Berlin"]["id"] == berlin["id"]
    assert after["User lives in Berlin"]["status"] == "superseded"
    lisbon_id = after["User lives in Lisbon"]["id"]
    assert after["User lives in Berlin"]["temporal"]["superseded_by"] == lisbon_id


def test_a_failed_extraction_writes_no_memory_and_keeps_the_import(
    home: Path, tmp_path: Path, stub: Stub
) -> None:
    """The LLM answers the first batch of user messages, then refuses the second: the
    extraction is one transaction of its own, so none of the first batch's memories is
    written; the import (committed before) stays, and `memvault extract` finishes the job.
    The same first answer followed by a good second one does write a memory (the LLM path of
    --extract works, so the failure case can fail)."""
    export = _chatgpt(tmp_path)
    # Stored message ids are derived from the export, so a scratch import tells the id of
    # the Berlin message the first LLM answer will name.
    scratch = tmp_path / "scratch"
    ok("init", "--home", scratch)
    ok("import", export, "--home", scratch)
    _, berlin_id, _, _ = _holding(scratch, "I live in Berlin.")
    answer = llm_reply(
        [{"message_id": berlin_id, "type": "fact", "content": "User lives in Berlin",
          "language": "en", "confidence": 0.9}]
    )  # fmt: skip
    llm = ("--llm-url", stub.url, "--llm-model", "m")

    control = tmp_path / "control"
    ok("init", "--home", control)
    stub.reply(answer)
    stub.reply(llm_reply([]))
    done = ok("import", export, "--extract", *llm, "--home", control, "--json").json()
    (created,) = done["extraction"]["written"]["created"]
    shown = ok("show", created, "--home", control, "--json").json()["memory"]
    assert shown["provenance"]["extraction_method"] == "llm_inference"
    assert shown["provenance"]["message_ref"] == berlin_id

    stub.replies.clear()
    stub.requests.clear()
    ok("init")
    stub.reply(answer)
    stub.raw('{"error": "invalid api key"}', 401)
    run = mv("import", export, "--extract", *llm, "--json")
    assert run.exit_code == 1, (run.stdout, run.stderr)
    assert len(stub.requests) == 2
    assert berlin_id in {m["message_id"] for m in stub.batches()[0]}
    assert "Traceback" not in run.stderr
    assert "extraction failed" in run.stderr and "HTTP 401" in run.stderr
    assert "The import was kept" in run.stderr and "memvault extract" in run.stderr
    payload = json.loads(run.stdout)
    assert "HTTP 401" in payload["extraction"]["error"]
    # The import is there, the extraction left nothing: only the export's own memories.
    assert ok("stats", "--json").json()["conversations"] == payload["conversations"]["new"]
    memories = _memories()
    assert len(memories) == payload["memories"]["new"]
    assert all(m["provenance"]["extraction_method"] != "llm_inference" for m in memories)
    # What the message says to do finishes the job.
    ok("extract")
    assert "User lives in Lisbon" in {m["content"] for m in _memories()}


def test_extract_needs_a_provider_export_and_llm_options_need_extract(
    home: Path, tmp_path: Path
) -> None:
    ok("init")
    before = snapshot()
    run = mv("import", EXAMPLE_EXPORT, "--extract")
    assert run.exit_code == 2 and "--extract reads provider exports" in run.stderr
    run = mv("import", _chatgpt(tmp_path), "--llm-url", "http://127.0.0.1:9/v1")
    assert run.exit_code == 2 and "--extract" in run.stderr
    run = mv("import", _chatgpt(tmp_path), "--extract", "--llm-url", "ftp://example.org")
    assert run.exit_code == 1 and "nothing was imported" in run.stderr
    assert snapshot() == before
