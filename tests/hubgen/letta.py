"""Letta agent files (`.af`), as the agent-file README and Letta's schemas describe them:
v2 (`AgentFileSchema`: `agents`, `groups`, `blocks`, `files`, `sources`, `tools`,
`mcp_servers`, `skills`, `metadata`, `created_at`; ids `<prefix>-<n>`), legacy (one agent:
`core_memory`, `messages`, `tags` as `{tag}` objects, `version`, times without an offset),
and either written as one JSON string (some published files are)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

VALUES = (
    "Name: Ana\nLives in Lisbon (since 2026-04)\nPrefers metric units",
    "Works at Acme Robotics as a mechanical engineer.",
    "Has two cats, Pixel and Byte.",
    "Learning Japanese; N4 level.",
)
LABELS = ("human", "preferences", "about_user", "projects")
ID_PREFIXES = ("agent", "group", "block", "file", "source", "tool", "message", "file_agent",
               "mcp_server")  # fmt: skip
ROOT_KEYS = ("agents", "groups", "blocks", "files", "sources", "tools", "mcp_servers",
             "metadata", "created_at")  # fmt: skip


def v2(rng: random.Random, blocks: int = 3) -> dict[str, Any]:
    chosen = rng.sample(range(len(VALUES)), blocks)
    block_list = [
        {"id": f"block-{n}", "label": LABELS[i], "value": VALUES[i], "limit": 5000,
         "description": f"about {LABELS[i]}", "read_only": False, "metadata": {},
         "tags": rng.sample(["Personal", "work"], rng.randint(0, 1))}
        for n, i in enumerate(chosen)
    ]  # fmt: skip
    block_list.append({"id": f"block-{blocks}", "label": "persona",
                       "value": "I am a concise assistant.", "limit": 5000,
                       "read_only": False, "metadata": {}})  # fmt: skip
    return {
        "agents": [{
            "id": "agent-0", "name": "helper", "agent_type": "letta_v1_agent",
            "system": "You are a helpful assistant.", "tags": ["demo"],
            "block_ids": [b["id"] for b in block_list], "tool_ids": ["tool-0"],
            "memory_blocks": [], "tools": [], "tool_rules": [],
            "llm_config": {"model": "gpt-4o-mini", "model_endpoint_type": "openai",
                           "context_window": 128000},
            "embedding_config": {"embedding_endpoint_type": "openai",
                                 "embedding_model": "text-embedding-3-small",
                                 "embedding_dim": 1536},
            "in_context_message_ids": ["message-0"],
            "messages": [{"type": "message", "id": "message-0", "role": "user",
                          "content": [{"type": "text", "text": "I moved to Lisbon last month."}],
                          "agent_id": "agent-0", "created_at": "2026-05-02T09:15:00+00:00"}],
            "files_agents": [], "group_ids": [], "timezone": "UTC",
        }],
        "groups": [], "files": [], "sources": [],
        "tools": [{"id": "tool-0", "name": "send_message", "tool_type": "letta_core",
                   "source_type": "python", "tags": [], "json_schema": {}}],
        "mcp_servers": [], "skills": [], "blocks": block_list,
        "metadata": {"revision_id": "f6cd5a1e519d"},
        "created_at": "2026-05-02T10:00:00+00:00",
    }  # fmt: skip


def legacy(rng: random.Random) -> dict[str, Any]:
    return {
        "agent_type": "memgpt_agent", "name": "old-helper", "version": "0.6.47",
        "created_at": "2025-04-01T03:47:27", "updated_at": "2025-04-01T03:47:27",
        "core_memory": [
            {"label": "human", "value": VALUES[0], "limit": 5000, "description": None,
             "is_template": False, "metadata_": {}, "template_name": None,
             "created_at": "2025-04-01T03:47:27", "updated_at": "2025-04-02T10:00:00"},
            {"label": "persona", "value": "I am Sam.", "limit": 5000, "description": None,
             "is_template": False, "metadata_": {}, "template_name": None,
             "created_at": "2025-04-01T03:47:27", "updated_at": None},
        ],
        "messages": [{"created_at": "2025-04-01T03:47:30", "role": "user", "name": None,
                      "content": [{"type": "text", "text": "hi"}], "tool_calls": [],
                      "tool_returns": [], "tool_call_id": None, "model": "gpt-4",
                      "group_id": None, "updated_at": "2025-04-01T03:47:30"}],
        "in_context_message_indices": [0], "tags": [{"tag": "Legacy Demo"}],
        "system": "You are MemGPT.", "tools": [], "tool_rules": [],
        "llm_config": {"model": "gpt-4"}, "embedding_config": {"embedding_model": "ada"},
        "message_buffer_autoclear": False, "metadata_": None, "multi_agent_group": None,
        "tool_exec_environment_variables": [], "description": None,
    }  # fmt: skip


def double_encoded(document: dict[str, Any]) -> str:
    """The document as one JSON string (the file holds a string that holds the JSON)."""
    return json.dumps(json.dumps(document))


def schema_problems(document: Any) -> list[str]:
    """What the v2 schema as documented requires: the root lists, `<prefix>-<n>` ids unique
    across all entities (what Letta's import validates), blocks with a string label and value,
    agents whose `block_ids` name blocks of the file, messages whose ids are listed."""
    problems = []
    if not isinstance(document, dict):
        return ["root: not an object"]
    for key in ROOT_KEYS:
        if key not in document:
            problems.append(f"root: '{key}' missing")
    if not isinstance(document.get("agents"), list) or not document["agents"]:
        problems.append("root: 'agents' must be a non-empty list")
    seen: set[str] = set()
    pattern = re.compile(rf"({'|'.join(ID_PREFIXES)})-\d+")
    entities = [(k[:-1] if k != "mcp_servers" else "mcp_server", e)
                for k in ("agents", "groups", "blocks", "files", "sources", "tools", "mcp_servers")
                for e in document.get(k) or []]  # fmt: skip
    for agent in document.get("agents") or []:
        entities += [("message", m) for m in agent.get("messages") or []]
    for prefix, entity in entities:
        ident = entity.get("id")
        if (
            not isinstance(ident, str)
            or not pattern.fullmatch(ident)
            or not ident.startswith(prefix + "-")
        ):
            problems.append(f"{prefix}: id {ident!r} is not '{prefix}-<n>'")
        elif ident in seen:
            problems.append(f"id {ident} is not unique")
        seen.add(str(ident))
    block_ids = {b.get("id") for b in document.get("blocks") or []}
    for block in document.get("blocks") or []:
        if not isinstance(block.get("label"), str) or not isinstance(block.get("value"), str):
            problems.append(f"block {block.get('id')}: label and value must be strings")
        if isinstance(block.get("limit"), int) and len(block.get("value", "")) > block["limit"]:
            problems.append(f"block {block.get('id')}: value longer than its limit")
    for agent in document.get("agents") or []:
        for block_id in agent.get("block_ids") or []:
            if block_id not in block_ids:
                problems.append(f"agent {agent.get('id')}: block {block_id} not in the file")
        for key in ("llm_config", "embedding_config", "name", "system"):
            if not agent.get(key):
                problems.append(f"agent {agent.get('id')}: '{key}' missing")
    return problems
