"""A realistic Claude data export: ``conversations.json``, ``users.json``, ``projects.json``
and ``memories.json`` as Settings → Privacy → Export data delivers them.

It covers every case the importer handles: plain text, a ``thinking`` block before the
answer, ``tool_use`` / ``tool_result`` (web search with ``knowledge`` results, a tool result
answering a ``tool_use`` by id), citations, ``token_budget`` and an unknown block type,
pasted attachments and uploaded files, an empty conversation, messages with no
``created_at`` and a conversation with none, the plain ``text`` field alone (no ``content``),
fields the PAM schema has no home for, and memories in English and Portuguese.
"""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from providergen import write_folder, write_zip

LAYOUTS = ("zip", "folder", "file")


class _Clock:
    """Timestamps as Claude writes them (microseconds, ``Z``), moving forward."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self, seconds: float = 7.25) -> str:
        self.now += timedelta(seconds=seconds)
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _ids(seed: int) -> Any:
    rng = random.Random(seed)
    while True:
        yield str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _block(clock: _Clock, kind: str, **fields: Any) -> dict[str, Any]:
    start = clock.tick(0.5)
    return {
        "start_timestamp": start,
        "stop_timestamp": clock.tick(1.5),
        "flags": None,
        "type": kind,
        **fields,
    }


def _message(
    ids: Any, clock: _Clock, sender: str, blocks: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    created = clock.tick()
    text = "\n\n".join(b["text"] for b in blocks if b["type"] == "text")
    return {
        "uuid": next(ids),
        "text": text,
        "content": blocks,
        "sender": sender,
        "created_at": created,
        "updated_at": clock.tick(0.25),
        "attachments": [],
        "files": [],
        **extra,
    }


def _said(ids: Any, clock: _Clock, sender: str, text: str, **extra: Any) -> dict[str, Any]:
    """A message of one text block without citations."""
    return _message(ids, clock, sender, [_block(clock, "text", text=text, citations=[])], **extra)


def export(seed: int = 0) -> dict[str, Any]:
    """The export's files by name, as JSON values."""
    ids = _ids(seed)
    account = next(ids)
    clock = _Clock(datetime(2026, 3, 14, 9, 26, 53, 512397, tzinfo=UTC))
    project_a, project_b = next(ids), next(ids)
    conversations: list[dict[str, Any]] = []

    def conversation(name: str, messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        created = clock.tick(3600)
        record = {
            "uuid": next(ids),
            "name": name,
            "summary": "",
            "created_at": created,
            "updated_at": clock.tick(600),
            "account": {"uuid": account},
            "chat_messages": messages,
            **extra,
        }
        conversations.append(record)
        return record

    # Plain English chat with a pasted attachment and an uploaded file.
    conversation(
        "Trip planning to Lisbon",
        [
            _said(
                ids,
                clock,
                "human",
                "I'm planning a week in Lisbon in May. I'm vegetarian and I hate crowded places.",
                attachments=[
                    {
                        "file_name": "itinerary.txt",
                        "file_size": 1834,
                        "file_type": "txt",
                        "extracted_content": "Day 1: Alfama\nDay 2: Belém",
                    }
                ],
                files=[
                    {
                        "file_kind": "image",
                        "file_uuid": next(ids),
                        "file_name": "map.png",
                        "preview_url": "/api/files/map.png",
                    }
                ],
            ),
            _said(
                ids,
                clock,
                "assistant",
                "Great choice! For quieter spots, try Jardim da Estrela early in the morning.",
            ),
        ],
        summary="The user plans a vegetarian-friendly, quiet week in Lisbon.",
        is_starred=True,
    )
    # Portuguese chat: extended thinking, then the answer with a citation.
    conversation(
        "Receita de pão de queijo",
        [
            _said(
                ids,
                clock,
                "human",
                "Como faço pão de queijo sem glúten? Minha filha é celíaca.",
            ),
            _message(
                ids,
                clock,
                "assistant",
                [
                    _block(
                        clock,
                        "thinking",
                        thinking="A usuária quer uma receita sem glúten; "
                        "polvilho já é naturalmente sem glúten.",
                        summaries=[{"summary": "Pensando sobre polvilho"}],
                        cut_off=False,
                    ),
                    _block(
                        clock,
                        "text",
                        text="O pão de queijo tradicional já é sem glúten: "
                        "use polvilho azedo, ovos, leite e queijo minas.",
                        citations=[
                            {
                                "uuid": next(ids),
                                "start_index": 0,
                                "end_index": 38,
                                "details": {
                                    "type": "web_search_citation",
                                    "url": "https://receitas.example.br/pao-de-queijo",
                                    "title": "Pão de queijo mineiro",
                                },
                            }
                        ],
                    ),
                ],
            ),
        ],
        project_uuid=project_a,
    )
    # Tool use: web search, its results as a tool message, the answer after it.
    search_id = "toolu_01" + next(ids)[:8]
    conversation(
        "Latest Python release",
        [
            _message(
                ids,
                clock,
                "human",
                [_block(clock, "text", text="What is the latest Python release?", citations=[])],
            ),
            _message(
                ids,
                clock,
                "assistant",
                [
                    _block(clock, "text", text="Let me check.", citations=[]),
                    _block(
                        clock,
                        "tool_use",
                        name="web_search",
                        input={"query": "python latest release"},
                        id=search_id,
                        message="Searching the web",
                        integration_name=None,
                        integration_icon_url=None,
                        is_mcp_app=None,
                        approval_options=None,
                    ),
                    _block(
                        clock,
                        "tool_result",
                        tool_use_id=search_id,
                        name="web_search",
                        content=[
                            {
                                "type": "knowledge",
                                "title": "Python Releases",
                                "url": "https://www.python.org/downloads/",
                                "text": "Python 3.14.1 is the newest release.",
                                "metadata": {
                                    "type": "webpage_metadata",
                                    "site_domain": "python.org",
                                },
                                "is_missing": False,
                            },
                            {"type": "text", "text": "1 result"},
                        ],
                        is_error=False,
                    ),
                    _block(clock, "token_budget"),
                    _block(
                        clock,
                        "tool_use",
                        name="repl",
                        input="print(1 + 1)",
                        id=None,
                        message="Running code",
                    ),
                    _block(
                        clock, "text", text="The newest release is Python 3.14.1.", citations=[]
                    ),
                    _block(clock, "voice_note", title="Resumo", audio_ref="vn-7"),
                ],
            ),
        ],
    )
    # Empty conversation (the user opened a chat and left).
    conversation("", [])
    # Messages without a time: the first takes its next neighbour's, the other its previous.
    loose = [
        _message(
            ids, clock, "human", [], text="Oi! Tudo bem? Quero treinar para uma meia maratona."
        ),
        _message(ids, clock, "assistant", [], text="Claro! Vamos montar um plano de 12 semanas."),
        _message(
            ids,
            clock,
            "human",
            [_block(clock, "text", text="Can we start on Monday?", citations=[])],
            parent_message_uuid="root",
        ),
    ]
    del loose[0]["created_at"]
    loose[2]["created_at"] = None
    conversation("Meia maratona", loose, settings={"preview_feature_uses_artifacts": True})
    # A conversation with no created_at of its own: its first message's time is used.
    timeless = conversation(
        "Sem data",
        [
            _message(
                ids,
                clock,
                "human",
                [_block(clock, "text", text="Lembra do meu gato Miau?", citations=[])],
            )
        ],
    )
    del timeless["created_at"]

    users = [
        {
            "uuid": account,
            "full_name": "João da Silva",
            "email_address": "joao@example.com",
            "verified_phone_number": "+5511987654321",
        }
    ]
    projects = [
        {
            "uuid": project_a,
            "name": "Cozinha sem glúten",
            "description": "Receitas adaptadas para a minha filha celíaca",
            "is_private": True,
            "is_starter_project": False,
            "prompt_template": "Always answer in Brazilian Portuguese and flag gluten.",
            "created_at": "2026-01-05T12:00:00.000000+00:00",
            "updated_at": "2026-02-01T08:30:00.000000+00:00",
            "creator": {"uuid": account, "full_name": "João da Silva"},
            "docs": [
                {
                    "uuid": next(ids),
                    "filename": "farinhas.md",
                    "content": "Polvilho doce, polvilho azedo, farinha de arroz.",
                    "created_at": "2026-01-05T12:05:00.000000+00:00",
                }
            ],
        },
        {
            "uuid": project_b,
            "name": "How to use Claude",
            "description": "",
            "is_private": False,
            "is_starter_project": True,
            "prompt_template": "",
            "created_at": "2025-12-01T00:00:00Z",
            "updated_at": "2025-12-01T00:00:00Z",
            "creator": {"uuid": account, "full_name": "João da Silva"},
            "docs": [],
        },
    ]
    memory_text = (
        "**Work context**\n"
        "João is a backend engineer at a logistics company in São Paulo, working mostly "
        "in Python and PostgreSQL.\n\n"
        "**Personal context**\n"
        "- Has a daughter with celiac disease.\n"
        "- Is vegetarian and prefers quiet places when travelling.\n\n"
        "## Contexto pessoal\n"
        "Está treinando para uma meia maratona em junho.\n"
        "Corre três vezes por semana.\n\n"
        "*Top of mind*\n"
        "1. Planning a week in Lisbon in May.\n"
        "2. Planning a week in Lisbon in May.\n"
    )
    memories = [
        {
            "conversations_memory": memory_text,
            "project_memories": {
                project_a: "**Purpose**\nReceitas sem glúten para a "
                "família.\n\n**Current state**\nTestando pães.",
                project_b: "   ",
            },
            "account_uuid": account,
        }
    ]
    return {
        "conversations.json": conversations,
        "users.json": users,
        "projects.json": projects,
        "memories.json": memories,
    }


def many(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """`count` conversations of the usual shape, for streaming measurements."""
    ids = _ids(seed)
    clock = _Clock(datetime(2025, 1, 1, tzinfo=UTC))
    out = []
    for number in range(count):
        messages = [
            _message(
                ids,
                clock,
                sender,
                [
                    _block(
                        clock,
                        "text",
                        text=f"Mensagem {number}-{turn}: " + "texto " * 40,
                        citations=[],
                    )
                ],
            )
            for turn, sender in enumerate(("human", "assistant") * 5)
        ]
        out.append(
            {
                "uuid": next(ids),
                "name": f"Conversa {number}",
                "summary": "",
                "created_at": clock.tick(60),
                "updated_at": clock.tick(60),
                "account": {"uuid": "acc"},
                "chat_messages": messages,
            }
        )
    return out


def encode(files: dict[str, Any]) -> dict[str, bytes]:
    return {name: json.dumps(value, ensure_ascii=False).encode() for name, value in files.items()}


def write(dest: Path, layout: str, files: dict[str, Any] | None = None) -> Path:
    """Write the export at `dest` (a directory that exists) as a zip, an extracted folder or
    the lone ``conversations.json``; returns the path to import."""
    data = encode(files if files is not None else export())
    if layout == "zip":
        return write_zip(data, dest / "data-2026-03-20-10-00-00.zip")
    if layout == "folder":
        return write_folder(data, dest / "claude-export")
    if layout == "file":
        path = dest / "conversations.json"
        path.write_bytes(data["conversations.json"])
        return path
    raise ValueError(f"unknown layout {layout!r}; one of {LAYOUTS}")
