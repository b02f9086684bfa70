"""A generator of ChatGPT data exports shaped like the real ones.

`export(seed, conversations)` returns the files of an export (`conversations.json`,
`message_feedback.json` in its older and newer spellings, `model_comparisons.json`,
`user.json`, `chat.html`, an image asset) covering what real exports
hold beyond the plain case: content outside `parts` (`code`, `execution_output`,
`tether_browsing_display`, `tether_quote`, `multimodal_text` with image dicts and nulls,
`thoughts`, `reasoning_recap`), a branching `mapping` (edits and regenerations), several
roots, orphans, `message: null`, `create_time` 0 or null, custom instructions
(`user_editable_context`), the memory tool (`bio`), the model's memory context
(`model_editable_context`), feedback, English and Portuguese text.

`write_conversations(path, target_bytes, seed)` streams a large `conversations.json` to disk
(for benchmarks) without holding it in memory.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ACCOUNT_ID = "user-4ZxQ9kTm2bLr8vYd"
BASE_TIME = 1714564800.0  # 2024-05-01T12:00:00Z

ENGLISH = [
    "Can you help me plan a week of vegetarian dinners?",
    "Here is a plan with seven dinners, each under thirty minutes.",
    "Explain how a B-tree keeps itself balanced when keys are inserted.",
    "When a node overflows it splits and the median key moves up to the parent.",
    "Write a haiku about the sea at night.",
    "Dark water breathing / the moon pours its silver out / no shore in the dark",
    "What is the difference between TCP and UDP?",
    "TCP is connection-oriented and reliable; UDP sends datagrams without guarantees.",
]
PORTUGUESE = [
    "Você pode me ajudar a planejar uma viagem a Lisboa em outubro?",
    "Claro! Em outubro o tempo em Lisboa é ameno; sugiro três dias na cidade e um em Sintra.",
    "Como funciona a fotossíntese, explicado para uma criança de dez anos?",
    "As plantas usam a luz do sol, a água e o ar para fazer o seu próprio alimento.",
    "Qual é a diferença entre 'por que', 'porque', 'por quê' e 'porquê'?",
    "'Por que' pergunta, 'porque' explica, 'por quê' fecha a frase e 'porquê' é substantivo.",
]
BIO_ENGLISH = [
    "User's name is Marta and she lives in Porto.",
    "User prefers concise answers with code examples in Python.",
    "User is learning Rust to build a command-line tool.",
]
BIO_PORTUGUESE = [
    "O usuário gosta de café sem açúcar.",
    "O usuário trabalha como engenheira de dados em São Paulo.",
]
ABOUT_USER = "I am a data engineer in Porto. I speak Portuguese and English."
ABOUT_MODEL = "Answer briefly, use metric units, and show code in Python."
MODEL_SET_CONTEXT = (
    "1. [2024-05-01]. User's name is Marta.\n"
    "2. [2024-05-03]. User prefers dark mode in every editor.\n"
    "3. [2024-05-07]. O usuário mora no Porto com o cachorro Bento.\n"
)
USER_PROFILE_WRAPPER = (
    "The user provided the following information about themselves. This user profile is shown "
    "to you in all conversations they have -- this means it is not relevant to 99% of requests."
    "\nOnly acknowledge the profile when the request is directly related.\nUser profile:\n```"
    "{}```"
)
USER_INSTRUCTIONS_WRAPPER = (
    "The user provided the additional info about how they would like you to respond:\n```{}```"
)


class _Builder:
    """Builds one conversation's `mapping` node by node."""

    def __init__(self, rng: random.Random, start: float) -> None:
        self.rng = rng
        self.mapping: dict[str, Any] = {}
        self.clock = start
        self.last: str | None = None

    def node_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def add(
        self,
        parent: str | None,
        message: dict[str, Any] | None,
        *,
        node_id: str | None = None,
        link: bool = True,
    ) -> str:
        key = node_id or self.node_id()
        if message is not None:
            message.setdefault("id", key)
        self.mapping[key] = {"id": key, "message": message, "parent": parent, "children": []}
        if link and parent is not None and parent in self.mapping:
            self.mapping[parent]["children"].append(key)
        self.last = key
        return key

    def tick(self) -> float:
        self.clock += self.rng.randint(2, 90) + self.rng.random()
        return round(self.clock, 6)

    def message(
        self,
        role: str,
        content: dict[str, Any],
        *,
        name: str | None = None,
        create_time: Any = "tick",
        recipient: str = "all",
        metadata: dict[str, Any] | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        when = self.tick() if create_time == "tick" else create_time
        meta = dict(metadata or {})
        if role == "assistant":
            meta.setdefault("model_slug", "gpt-4o")
            meta.setdefault("finish_details", {"type": "stop", "stop_tokens": [200002]})
        return {
            "author": {"role": role, "name": name, "metadata": {}},
            "create_time": when,
            "update_time": None,
            "content": content,
            "status": "finished_successfully",
            "end_turn": True if role == "assistant" else None,
            "weight": 1.0,
            "metadata": meta,
            "recipient": recipient,
            "channel": None,
            **extra,
        }


def text(value: str) -> dict[str, Any]:
    return {"content_type": "text", "parts": [value]}


def conversation(rng: random.Random, index: int, *, full: bool = True) -> dict[str, Any]:
    """One conversation. With `full`, every special case appears (by index, so a set of a few
    conversations covers all of them); without, a plain branching chat (benchmarks)."""
    start = BASE_TIME + index * 3600.0
    b = _Builder(rng, start)
    lang = PORTUGUESE if index % 2 else ENGLISH
    root = b.add(None, None, node_id="client-created-root")
    hidden = b.add(
        root,
        b.message(
            "system",
            text(""),
            create_time=None,
            metadata={"is_visually_hidden_from_conversation": True},
        ),
    )
    parent = hidden
    if full and index % 3 == 0:
        parent = b.add(
            parent,
            b.message(
                "system",
                {
                    "content_type": "user_editable_context",
                    "user_profile": USER_PROFILE_WRAPPER.format(ABOUT_USER),
                    "user_instructions": USER_INSTRUCTIONS_WRAPPER.format(ABOUT_MODEL),
                },
                metadata={
                    "is_visually_hidden_from_conversation": True,
                    "is_user_system_message": True,
                },
            ),
        )
    if full and index % 4 == 1:
        parent = b.add(
            parent,
            b.message(
                "system",
                {"content_type": "model_editable_context", "model_set_context": MODEL_SET_CONTEXT,
                 "repository": None, "repo_summary": None},
                create_time=0,
            ),
        )  # fmt: skip
    turns = 2 if full else rng.randint(2, 6)
    for turn in range(turns):
        question = lang[(2 * (index + turn)) % len(lang)]
        answer = lang[(2 * (index + turn) + 1) % len(lang)]
        user = b.add(parent, b.message("user", text(question)))
        first = b.add(user, b.message("assistant", text(answer)))
        if turn == 0:
            # A regeneration: a second answer to the same question (a branch).
            b.add(user, b.message("assistant", text(answer + " (regenerated)")))
            # An edit: the same turn asked differently, a sibling of the first question.
            edited = b.add(parent, b.message("user", text(question + " — edited")))
            b.add(edited, b.message("assistant", text(answer + " [after edit]")))
        parent = first
    if not full:
        return _wrap(b, index, rng, parent)
    case = index % 6
    if case == 0:
        call = b.add(
            parent,
            b.message(
                "assistant",
                {"content_type": "code", "language": "python",
                 "response_format_name": None, "text": "print(sum(range(10)))"},
                recipient="python",
            ),
        )  # fmt: skip
        out = b.add(
            call,
            b.message(
                "tool",
                {"content_type": "execution_output", "text": "45"},
                name="python",
                metadata={"aggregate_result": {"status": "success", "run_id": "r-1"}},
            ),
        )
        parent = b.add(out, b.message("assistant", text("The sum is 45.")))
    elif case == 1:
        browse = b.add(
            parent,
            b.message(
                "tool",
                {"content_type": "tether_browsing_display",
                 "result": "# Lisboa\nCapital de Portugal.", "summary": "Página sobre Lisboa",
                 "assets": None, "tether_id": None},
                name="browser",
            ),
        )  # fmt: skip
        parent = b.add(
            browse,
            b.message(
                "tool",
                {"content_type": "tether_quote", "url": "https://pt.wikipedia.org/wiki/Lisboa",
                 "domain": "pt.wikipedia.org", "text": "Lisboa é a capital de Portugal.",
                 "title": "Lisboa – Wikipédia", "tether_id": None},
                name="browser",
            ),
        )  # fmt: skip
    elif case == 2:
        parent = b.add(
            parent,
            b.message(
                "user",
                {
                    "content_type": "multimodal_text",
                    "parts": [
                        {"content_type": "image_asset_pointer",
                         "asset_pointer": "file-service://file-Abc123", "size_bytes": 48213,
                         "width": 640, "height": 480, "fovea": None,
                         "metadata": {"dalle": None, "sanitized": True}},
                        None,
                        "What is in this picture? / O que há nesta imagem?",
                    ],
                },
                metadata={"attachments": [{"id": "file-Abc123", "name": "foto.png",
                                           "size": 48213, "mime_type": "image/png"}]},
            ),
        )  # fmt: skip
        parent = b.add(parent, b.message("assistant", text("A cat on a windowsill.")))
    elif case == 3:
        bio = (BIO_ENGLISH + BIO_PORTUGUESE)[index % 5]
        call = b.add(parent, b.message("assistant", text(bio), recipient="bio"))
        parent = b.add(
            call, b.message("tool", text("Model set context updated."), name="bio", create_time=0)
        )
    elif case == 4:
        think = b.add(
            parent,
            b.message(
                "assistant",
                {"content_type": "thoughts", "thoughts": [
                    {"summary": "Checking units", "content": "The user wants metric units."}],
                 "source_analysis_msg_id": "a-1"},
            ),
        )  # fmt: skip
        recap = b.add(
            think,
            b.message(
                "assistant", {"content_type": "reasoning_recap", "content": "Thought for 4s"}
            ),
        )
        parent = b.add(recap, b.message("assistant", text("It is 21 °C today.")))
    else:
        # A message whose time is null, then one whose time is 0.
        parent = b.add(parent, b.message("user", text(lang[0] + " (again)"), create_time=None))
        parent = b.add(parent, b.message("assistant", text(lang[1] + " (again)"), create_time=0))
    if index % 5 == 2:
        # An orphan (its parent is not in the mapping) and a second root.
        b.add("node-that-was-deleted", b.message("user", text("Orphaned question")), link=False)
        b.add(None, b.message("assistant", text("A second root")))
    return _wrap(b, index, rng, parent)


def _wrap(b: _Builder, index: int, rng: random.Random, current: str) -> dict[str, Any]:
    conv_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    create = BASE_TIME + index * 3600.0 + 0.25
    return {
        "title": f"Conversa {index}" if index % 2 else f"Conversation {index}",
        "create_time": create if index % 7 != 3 else None,
        "update_time": round(b.clock + 1.5, 6),
        "mapping": b.mapping,
        "moderation_results": [],
        "current_node": current,
        "plugin_ids": None,
        "conversation_id": conv_id,
        "conversation_template_id": "g-abc" if index % 4 == 0 else None,
        "gizmo_id": "g-abc" if index % 4 == 0 else None,
        "gizmo_type": None,
        "is_archived": index % 9 == 4,
        "is_starred": None,
        "safe_urls": ["https://pt.wikipedia.org/wiki/Lisboa"] if index % 6 == 1 else [],
        "default_model_slug": "gpt-4o",
        "conversation_origin": None,
        "voice": None,
        "async_status": None,
        "disabled_tool_ids": [],
        "is_do_not_remember": False,
        "memory_scope": "global_enabled",
        "sugar_item_id": None,
        "id": conv_id,
    }


def conversations(seed: int, count: int, *, full: bool = True) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [conversation(rng, i, full=full) for i in range(count)]


def _first_assistant(conv: dict[str, Any]) -> str:
    return next(
        k for k, n in conv["mapping"].items()
        if n["message"] and n["message"]["author"]["role"] == "assistant"
    )  # fmt: skip


def feedback_for(convs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ratings of the first assistant answer of two conversations in three, in the file's
    two spellings:

    - newer entries (every third conversation) have no `message_id`: their `id` is the rated
      message's id;
    - older entries (the next conversation of each three) spell the conversation id without
      dashes and name the rated message by `message_id`, their `id` being the rating's own;
      every other one carries the user's written comment in `content`.
    """
    entries = []
    for index, conv in enumerate(convs):
        node = _first_assistant(conv)
        if index % 3 == 0:
            entries.append(
                {
                    "id": node,
                    "conversation_id": conv["conversation_id"],
                    "user_id": ACCOUNT_ID,
                    "rating": "thumbsUp" if index % 2 == 0 else "thumbsDown",
                    "create_time": "2024-05-02T10:00:00.000000+00:00",
                    "workspace_id": None,
                    "content": '{"tags": ["helpful"], "text": "Boa resposta"}',
                    "storage_protocol": "zstd::1.5.5",
                    "update_time": None,
                }
            )
        elif index % 3 == 1:
            comment = (
                '{"tags": ["not-factually-correct"], "text": "A data está errada: foi em 1143 🙁"}'
                if index % 2
                else "{}"
            )
            entries.append(
                {
                    "id": str(uuid.UUID(int=index + 1, version=4)),
                    "message_id": node,
                    "conversation_id": conv["conversation_id"].replace("-", ""),
                    "user_id": ACCOUNT_ID,
                    "rating": "thumbsDown",
                    "create_time": "2023-09-14T08:30:00.000000+00:00",
                    "workspace_id": None,
                    "content": comment,
                    "storage_protocol": "zstd::1.5.5",
                    "update_time": None,
                }
            )
    return entries


#: The conversation id of the comparison whose conversation the export does not hold.
MISSING_CONVERSATION = "0d6f3b52-9c1e-4a55-8f0e-6a3d2b1c4e7f"


def comparisons_for(convs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`model_comparisons.json`: the user's choice between two answers ("Which response do
    you prefer?") in the second conversation, and one in a conversation the export lacks."""
    entries = []
    for conversation_id in (convs[1]["conversation_id"] if len(convs) > 1 else None,
                            MISSING_CONVERSATION):  # fmt: skip
        if conversation_id is None:
            continue
        entries.append(
            {
                "id": str(uuid.UUID(int=len(entries) + 99, version=4)),
                "user_id": ACCOUNT_ID,
                "conversation_id": conversation_id,
                "create_time": "2024-05-03T09:12:44.512000+00:00",
                "workspace_id": None,
                "input": {
                    "messages": [
                        {
                            "author": {"role": "user"},
                            "content": {"content_type": "text", "parts": [PORTUGUESE[0]]},
                        }
                    ]
                },
                "output": {
                    "feedback_step": {
                        "type": "comparison",
                        "original_turn": [{"content": {"parts": [PORTUGUESE[1]]}}],
                        "new_turn": [{"content": {"parts": ["Sim! Outubro é ótimo em Lisboa."]}}],
                        "completion_comparison_rating": "new",
                        "new_completion_placement": "left",
                    }
                },
                "metadata": {"model": "gpt-4o"},
                "storage_protocol": "zstd::1.5.5",
            }
        )
    return entries


def export(seed: int = 7, count: int = 12, *, full: bool = True) -> dict[str, bytes]:
    """The files of one export, by name."""
    convs = conversations(seed, count, full=full)
    user = {"id": ACCOUNT_ID, "email": "marta@example.org", "chatgpt_plus_user": True,
            "phone_number": None}  # fmt: skip
    return {
        "conversations.json": json.dumps(convs, ensure_ascii=False).encode(),
        "message_feedback.json": json.dumps(feedback_for(convs), ensure_ascii=False).encode(),
        "model_comparisons.json": json.dumps(comparisons_for(convs), ensure_ascii=False).encode(),
        "user.json": json.dumps(user).encode(),
        "chat.html": b"<html><body><script>var jsonData = [];</script></body></html>",
        "shared_conversations.json": b"[]",
        "file-Abc123-foto.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
    }


def iter_conversations(seed: int) -> Iterator[dict[str, Any]]:
    """Endless plain and special conversations, mixed as in a long-used account."""
    rng = random.Random(seed)
    index = 0
    while True:
        yield conversation(rng, index, full=index % 4 == 0)
        index += 1


def write_conversations(path: Path, target_bytes: int, seed: int = 11) -> int:
    """Stream a `conversations.json` of about `target_bytes`; returns the conversation count."""
    written = 0
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for conv in iter_conversations(seed):
            chunk = ("," if count else "") + json.dumps(conv, ensure_ascii=False)
            out.write(chunk)
            written += len(chunk.encode())
            count += 1
            if written >= target_bytes:
                break
        out.write("]")
    return count
