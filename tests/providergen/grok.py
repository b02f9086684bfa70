"""A realistic Grok data export: ``ttl/30d/export_data/<user uuid>/prod-grok-backend.json``
(conversations, projects, tasks, media posts), its companion files and the uploaded assets,
as grok.com → Settings → Download your data delivers them.

It covers every case the importer handles: both wrappers (``{"conversation", "responses"}``
and ``{"response", "share_link"}``) and bare records, BSON ``$date`` values at every level in
both forms (``{"$numberLong": "<ms>"}`` and an ISO string) next to plain ISO strings, senders
``human`` / ``assistant`` / ``ASSISTANT`` / a model name, branches (an edited prompt and a
regenerated answer), a dangling parent, responses out of time order and one without a time,
a conversation with no parent ids at all, image generation (empty message, generated image
URLs), uploaded files, web search citations, thinking traces and tool steps, an empty
conversation, projects, a scheduled task and media posts with child posts — in English and
Portuguese.
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
MAIN = "prod-grok-backend.json"


class _Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self, seconds: float = 11.5) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def bson(moment: datetime) -> dict[str, Any]:
    return {"$date": {"$numberLong": str(int(moment.timestamp() * 1000))}}


def bson_iso(moment: datetime) -> dict[str, Any]:
    return {"$date": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"}


def _ids(seed: int) -> Any:
    rng = random.Random(seed)
    while True:
        yield str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _response(
    ids: Any, clock: _Clock, conversation: str, sender: str, message: str, parent: str, **extra: Any
) -> dict[str, Any]:
    moment = clock.tick()
    return {
        "_id": next(ids),
        "conversation_id": conversation,
        "message": message,
        "sender": sender,
        "create_time": bson(moment),
        "parent_response_id": parent,
        "manual": False,
        "partial": False,
        "shared": False,
        "query": "",
        "query_type": "",
        "web_search_results": [],
        "xpost_ids": [],
        "generated_image_urls": [],
        "image_attachments": [],
        "file_attachments": [],
        "card_attachments_json": [],
        "steps": [],
        "media_types": [],
        "webpage_urls": [],
        "model": "grok-3" if sender != "human" else "",
        **extra,
    }


def _conversation(
    ids: Any, clock: _Clock, user: str, title: str, responses: list[Any], **extra: Any
) -> dict[str, Any]:
    created = clock.tick(1800)
    return {
        "conversation": {
            "id": responses[0].get("response", responses[0])["conversation_id"]
            if responses
            else next(ids),
            "user_id": user,
            "create_time": iso(created),
            "modify_time": iso(clock.tick(900)),
            "title": title,
            "summary": "",
            "starred": False,
            "system_prompt_name": "",
            "temporary": False,
            "media_types": [],
            "asset_ids": [],
            **extra,
        },
        "responses": responses,
    }


def export(seed: int = 0) -> dict[str, Any]:
    """The files of the export by path (relative to the zip root), as JSON values; asset
    contents as bytes."""
    ids = _ids(seed)
    user = next(ids)
    clock = _Clock(datetime(2025, 11, 2, 18, 22, 41, 123000, tzinfo=UTC))
    conversations = []

    # English, linear through parent ids: web search, citations, thinking, tool steps, X posts.
    c1 = next(ids)
    q = _response(ids, clock, c1, "human", "What are good running shoes for flat feet?", "")
    thinking_start = clock.tick(1)
    a = _response(
        ids,
        clock,
        c1,
        "assistant",
        "For flat feet, look for stability shoes such as the Brooks Adrenaline GTS.",
        q["_id"],
        model="grok-4",
        web_search_results=[
            {
                "url": "https://www.runnersworld.example/flat-feet",
                "title": "Best shoes for flat feet",
                "preview": "Stability matters",
            }
        ],
        cited_web_search_results=[
            {
                "url": "https://www.runnersworld.example/flat-feet",
                "title": "Best shoes for flat feet",
                "preview": "Stability shoes support the arch.",
                "siteName": "Runner's World",
            }
        ],
        thinking_trace="<xai:tool_usage_card><xai:tool_name>web_search</xai:tool_name>"
        "</xai:tool_usage_card> The user asks about flat feet.",
        thinking_start_time=bson(thinking_start),
        thinking_end_time=bson(clock.tick(4)),
        agent_thinking_traces=[{"agent_id": "a1", "thinking_trace": "Check stability models."}],
        steps=[
            {
                "tag_order": ["web_search"],
                "tagged_text": "searching",
                "web_search_results": [],
                "tool_usage_results": [{"tool": "web_search", "ok": True}],
            }
        ],
        xpost_ids=["1855123456789012345"],
        webpage_urls=["https://www.runnersworld.example/flat-feet"],
        metadata={
            "ui_layout": {"reasoning": "expanded"},
            "llm_info": {"modelHash": "abc123", "requested_at": bson(thinking_start)},
            "request_metadata": {"mode": "auto"},
        },
    )
    conversations.append(
        _conversation(
            ids,
            clock,
            user,
            "Running shoes",
            [
                {"response": q, "share_link": None},
                {
                    "response": a,
                    "share_link": {"link_id": "sh-1", "create_time": bson(clock.tick(60))},
                },
            ],
            leaf_response_id=a["_id"],
            starred=True,
            system_prompt_name="default",
        )
    )

    # Portuguese, branched: the prompt was edited (two roots' children), an answer
    # regenerated; "ASSISTANT" and a model name as senders; a dangling parent; one response
    # with no time, one with an ISO $date; the file lists them out of time order.
    c2 = next(ids)
    q1 = _response(ids, clock, c2, "human", "Me sugere um roteiro de 3 dias no Rio?", "")
    a1 = _response(ids, clock, c2, "ASSISTANT", "Dia 1: Pão de Açúcar e Urca.", q1["_id"])
    a1b = _response(
        ids,
        clock,
        c2,
        "grok-3",
        "Dia 1: Cristo Redentor e Santa Teresa.",
        q1["_id"],
        model="grok-4-mini-thinking-tahoe",
    )
    q2 = _response(ids, clock, c2, "human", "E com crianças pequenas?", a1b["_id"])
    a2 = _response(
        ids,
        clock,
        c2,
        "assistant",
        "Com crianças, prefira o AquaRio e a praia do Leme.",
        q2["_id"],
        model="grok-4-auto",
    )
    a2["create_time"] = bson_iso(clock.tick())
    q3 = _response(ids, clock, c2, "human", "Obrigado!", "ffffffff-dead-beef-0000-000000000000")
    del q3["create_time"]
    a3 = _response(
        ids,
        clock,
        c2,
        "assistant",
        "De nada! Boa viagem.",
        q3["_id"],
        error=None,
        model="grok-4-1-non-thinking-w-tool",
    )
    branched = [a2, q1, a1b, q2, a1, q3, a3]
    conversations.append(
        _conversation(
            ids,
            clock,
            user,
            "Roteiro no Rio",
            [{"response": r, "share_link": None} for r in branched],
            summary="Roteiro de viagem",
        )
    )

    # Image generation and an uploaded file.
    c3 = next(ids)
    asset = next(ids)
    q = _response(
        ids,
        clock,
        c3,
        "human",
        "Draw a cat astronaut, in watercolor.",
        "",
        file_attachments=[asset],
        file_attachments_metadata=[{"fileName": "cat.py", "fileMimeType": "text/x-python"}],
    )
    a = _response(
        ids,
        clock,
        c3,
        "assistant",
        "",
        q["_id"],
        query="cat astronaut watercolor",
        query_type="imagine",
        generated_image_urls=[
            "users/u1/generated/0f1e2d3c/image.jpg",
            "https://assets.grok.example/gen/1.jpg",
        ],
        error="",
    )
    conversations.append(
        _conversation(
            ids,
            clock,
            user,
            "Cat astronaut",
            [{"response": q, "share_link": None}, {"response": a, "share_link": None}],
        )
    )

    # An older conversation: no parent ids at all, bare response records, BSON times on the
    # conversation itself.
    c4 = next(ids)
    old = [
        _response(ids, clock, c4, "human", "Qual a capital da Austrália?", ""),
        _response(ids, clock, c4, "assistant", "A capital da Austrália é Camberra.", ""),
    ]
    for r in old:
        del r["parent_response_id"]
    record = _conversation(ids, clock, user, "Capital", old)
    record["conversation"]["create_time"] = bson(clock.tick(5))
    record["conversation"]["modify_time"] = bson_iso(clock.tick(5))
    conversations.append(record)

    # Empty conversation.
    conversations.append(_conversation(ids, clock, user, "", []))

    projects = [
        {
            "project_id": next(ids),
            "user_id": user,
            "name": "Marathon training",
            "description": "Plano para a maratona de Porto Alegre",
            "custom_personality": "Be a strict but encouraging running coach. Use metric units.",
            "preferred_model": "grok-4",
            "conversation_starters": ["Plan my week", "Treino de hoje?"],
            "create_time": bson(clock.tick(100)),
            "modify_time": iso(clock.tick(100)),
            "asset_ids": [],
        },
    ]
    tasks = [
        {
            "task_id": next(ids),
            "user_id": user,
            "title": "Notícias de IA",
            "prompt": "Every weekday at 8:00, summarize the top AI news in Portuguese.",
            "cadence": {"type": "weekly", "days": [1, 2, 3, 4, 5], "time": "08:00"},
            "timezone": "America/Sao_Paulo",
            "status": "ACTIVE",
            "create_time": bson(clock.tick(100)),
            "last_run_time": bson_iso(clock.tick(100)),
        },
    ]
    media_posts = [
        {
            "id": next(ids),
            "user_id": user,
            "create_time": iso(clock.tick(100)),
            "media_type": "MEDIA_POST_TYPE_IMAGE",
            "mime_type": "image/jpeg",
            "link": "https://imagine.grok.example/p/1.jpg",
            "original_prompt": "Um farol ao pôr do sol no litoral gaúcho, estilo aquarela",
            "prompt": "lighthouse sunset watercolor",
            "thumbnail_image_url": "https://imagine.grok.example/t/1.jpg",
            "resolution": {"width": 1024, "height": 768},
            "child_posts": [
                {
                    "id": next(ids),
                    "media_type": "MEDIA_POST_TYPE_VIDEO",
                    "mime_type": "video/mp4",
                    "link": "https://imagine.grok.example/p/1.mp4",
                    "create_time": bson(clock.tick(30)),
                    "mode": "normal",
                }
            ],
        },
        {
            "id": next(ids),
            "user_id": user,
            "create_time": bson(clock.tick(100)),
            "media_type": "MEDIA_POST_TYPE_IMAGE",
            "mime_type": "image/png",
            "link": "https://imagine.grok.example/p/2.png",
            "original_prompt": "",
            "prompt": "",
            "child_posts": [],
        },
    ]
    backend = {
        "conversations": conversations,
        "projects": projects,
        "tasks": tasks,
        "media_posts": media_posts,
    }
    folder = f"ttl/30d/export_data/{user}"
    return {
        f"{folder}/{MAIN}": backend,
        f"{folder}/prod-mc-auth-mgmt-api.json": {
            "user": {
                "userId": user,
                "email": "ana@example.com",
                "givenName": "Ana",
                "familyName": "Souza",
                "createTime": "2024-02-01T10:00:00Z",
            },
            "sessions": [{"createTime": "2025-11-01T10:00:00Z", "userAgent": "Firefox"}],
        },
        f"{folder}/prod-mc-billing.json": {"credits": {"balance": 0}},
        f"{folder}/prod-mc-asset-server/{asset}/content": b"print('miau')\n",
    }


def main_file(files: dict[str, Any]) -> dict[str, Any]:
    return next(v for k, v in files.items() if k.endswith("/" + MAIN))


def many(count: int, seed: int = 1) -> dict[str, Any]:
    """A backend file with `count` conversations of ten responses, for streaming runs."""
    ids = _ids(seed)
    clock = _Clock(datetime(2025, 1, 1, tzinfo=UTC))
    conversations = []
    for number in range(count):
        cid = next(ids)
        parent = ""
        responses = []
        for turn in range(10):
            sender = "human" if turn % 2 == 0 else "assistant"
            text = f"Resposta {number}-{turn}: " + "palavra " * 40
            r = _response(ids, clock, cid, sender, text, parent)
            parent = r["_id"]
            responses.append({"response": r, "share_link": None})
        conversations.append(_conversation(ids, clock, "u", f"Conversa {number}", responses))
    return {"conversations": conversations, "projects": [], "tasks": [], "media_posts": []}


def encode(files: dict[str, Any]) -> dict[str, bytes]:
    return {
        name: value if isinstance(value, bytes) else json.dumps(value, ensure_ascii=False).encode()
        for name, value in files.items()
    }


def write(dest: Path, layout: str, files: dict[str, Any] | None = None) -> Path:
    """Write the export at `dest` as the zip grok.com sends, its extracted folder, or the
    lone prod-grok-backend.json; returns the path to import."""
    data = encode(files if files is not None else export())
    if layout == "zip":
        return write_zip(data, dest / "grok-export.zip")
    if layout == "folder":
        return write_folder(data, dest / "grok-export")
    if layout == "file":
        path = dest / MAIN
        path.write_bytes(next(v for k, v in data.items() if k.endswith("/" + MAIN)))
        return path
    raise ValueError(f"unknown layout {layout!r}; one of {LAYOUTS}")
