"""Letta Agent Files (``.af``): import of both generations, export of memories as memory
blocks of a v2 agent file.

Two generations, neither with a version field (docs/formats.md): a v2 file is an object whose
``agents`` is a list (with ``blocks`` beside it, shared by id); a legacy file is one agent
(``core_memory``, ``messages``, ``version`` = the Letta server's version). Some files are one
JSON *string* holding the document: it is decoded a second time (still depth-bounded).

Import: one memory per core-memory block (content: the block's value; ``human`` → identity,
``persona`` → custom ``agent_persona``, any other label → custom with the label as its
type), block and agent tags as tags, the block's label, description, limit and read-only flag
in ``metadata["letta"]``. v2 blocks carry no times: the file's ``created_at`` (its export
time) is used and ``time_source`` says so; legacy times have no offset and are read as UTC.
Messages are conversation history, not memories: an agent's messages become one PAM
normalized conversation (§25; user, assistant, system and tool roles, reasoning as thoughts,
tool calls; the system prompt as its ``system_instruction``). Tools, rules, LLM and embedding
settings, groups, files and sources are agent settings: counted as not carried. Archival
memory (passages) is not in agent files at all; the summary says so.

Export: a v2 agent file with one agent (``agent-0``) and one block per memory type (memories
read from an agent file go back to their own block), one memory a line; the block's
``metadata.pam`` lists the memories' PAM residues in line order. Only active memories are
written (a block has no status). Each residue says how many lines its memory takes
(``{"lines": n, "memory": {…}}``), so memories with line breaks come back whole. ids follow
the file's ``<prefix>-<n>`` rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from memvault import jsonread
from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.ids import stable_id
from memvault.sources import Target

from .base import (
    RESIDUE,
    Encoded,
    Exporter,
    Records,
    Tally,
    memory_id,
    pam_memory,
    read_whole,
    residue,
    restore,
    tag,
    tags_of,
    time_text,
)
from .reading import HubImporter, HubRead

NAME: Final = "letta"
#: v2: the agent-file schema of letta-ai/letta `letta/schemas/agent_file.py` (2025-07 on).
VERSION: Final = "2"
META: Final = "letta"
#: What a v2 root holds besides `agents` and `blocks`, carried by no memory.
_V2_OTHER: Final = ("groups", "files", "sources", "tools", "mcp_servers", "skills")
_AGENT_SETTINGS: Final = (
    "tools", "tool_ids", "tool_rules", "llm_config", "embedding_config",
    "source_ids", "files_agents", "group_ids", "multi_agent_group",
    "tool_exec_environment_variables",
)  # fmt: skip
BLOCK_LIMIT: Final = 5000


def decode(data: bytes, where: str) -> Any:
    """The document, decoded twice when the file is one JSON string holding it."""
    value = jsonread.loads(data, where)
    if isinstance(value, str):
        value = jsonread.loads(value.encode("utf-8"), f"{where} (its JSON string)")
    return value


class LettaImporter(HubImporter):
    id = ImporterId(NAME, VERSION)
    name = NAME

    def sniff(self, target: Target) -> bool:
        """One file: a v2 document (``"agents"`` near its start), a legacy one
        (``"core_memory"``), or either as a JSON string (``.af`` files written twice)."""
        if target.kind != "file" or len(target.entries) != 1:
            return False
        entry = target.entries[0]
        with entry.stream() as stream:
            head = stream.read(8192).lstrip(b"\xef\xbb\xbf \t\r\n")
        if head[:1] == b'"':
            return b'\\"agents\\"' in head or b'\\"core_memory\\"' in head
        if head[:1] != b"{":
            return False
        if entry.name.lower().endswith(".af"):
            return b'"agents"' in head or b'"core_memory"' in head
        return b'"core_memory"' in head or (b'"agents"' in head and b'"block_ids"' in head)

    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        if len(target.entries) != 1:
            raise ImportFormatError(str(target.path), "an agent file is one .af file")
        entry = target.entries[0]
        document = decode(read_whole(entry), entry.display)
        tally = self.tally()
        context.warnings.append(
            "archival memory (passages) is not in agent files: export it from Letta "
            "separately (agent files carry core memory blocks and messages only)"
        )
        return read_document(document, entry.display, context.imported_at, tally, context)


def read_document(
    document: Any, where: str, now: str, tally: Tally, context: ImportContext | None = None
) -> HubRead:
    if not isinstance(document, Mapping):
        raise ImportFormatError(where, "expected a JSON object (an agent file)")
    if isinstance(document.get("agents"), list):
        return _read_v2(document, where, now, tally, context)
    if isinstance(document.get("core_memory"), list):
        return _read_legacy(document, where, now, tally, context)
    raise ImportFormatError(
        where, "neither 'agents' (a v2 agent file) nor 'core_memory' (a legacy one)"
    )


def _block_type(label: str) -> tuple[str, str | None]:
    if label == "human":
        return "identity", None
    if label == "persona":
        return "custom", "agent_persona"
    return "custom", tag(label) or "letta-block"


def _agent_losses(agent: Mapping[str, Any], tally: Tally) -> None:
    for key in _AGENT_SETTINGS:
        if agent.get(key):
            tally.lost[f"agent {key}"] += 1


def _block_memories(
    block: Mapping[str, Any],
    at: str,
    *,
    created: str,
    updated: str | None,
    time_source: str,
    agent: str | None,
    agent_tags: Sequence[str],
    now: str,
    tally: Tally,
) -> list[dict[str, Any]]:
    label, value = block.get("label"), block.get("value")
    if value is None:
        value = ""  # Letta coerces a null value to ""
    if not isinstance(label, str) or not isinstance(value, str):
        raise ImportFormatError(at, "fields 'label' and 'value': expected strings")
    metadata = block.get("metadata") or block.get("metadata_") or {}
    if not isinstance(metadata, Mapping):
        raise ImportFormatError(at, "field 'metadata': expected an object")
    kept = metadata.get(RESIDUE)
    if isinstance(kept, list):
        lines = value.split("\n")
        out = []
        start = 0
        for number, one in enumerate(kept):
            count = one.get("lines") if isinstance(one, Mapping) else None
            if not isinstance(count, int) or count < 1 or start + count > len(lines):
                raise ImportFormatError(at, f"metadata.{RESIDUE}[{number}]: 'lines' does not fit")
            content = "\n".join(lines[start : start + count])
            start += count
            restored = restore(content, one.get("memory"), f"{at}: metadata.{RESIDUE}[{number}]")
            if restored is not None:
                out.append(restored)
                tally.mapped["memories (from their residue)"] += 1
        if start != len(lines):
            raise ImportFormatError(at, f"metadata.{RESIDUE}: the lines do not match the value")
        return out
    if not value.strip():
        tally.lost["empty blocks"] += 1
        return []
    kind, custom = _block_type(label)
    raw_tags = _listed(block.get("tags"))
    tags = tags_of([t for t in [*raw_tags, *agent_tags] if isinstance(t, str)])
    meta: dict[str, Any] = {"label": label, "time_source": time_source}
    for key in ("id", "description", "limit", "read_only"):
        if block.get(key) is not None:
            meta["block_id" if key == "id" else key] = block[key]
    if agent is not None:
        meta["agent"] = agent
    if metadata:
        meta["metadata"] = dict(metadata)
    tally.mapped["blocks"] += 1
    tally.metadata["block label, description, limit, read-only"] += 1
    return [
        pam_memory(
            value,
            id=memory_id(NAME, "block", str(agent), label, value),
            type=kind,
            custom_type=custom,
            created_at=created,
            updated_at=updated,
            platform=NAME,
            extraction_method="llm_inference",
            extracted_at=now,
            tags=tags,
            metadata={META: meta},
        )
    ]


_ROLES: Final = {"user": "user", "assistant": "assistant", "system": "system", "tool": "tool",
                 "function": "tool"}  # fmt: skip


def _text(content: Any) -> tuple[str, bool]:
    """A Letta message's text (its text parts joined) and whether it is only reasoning."""
    if isinstance(content, str):
        return content, False
    texts: list[str] = []
    thoughts: list[str] = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, Mapping):
            text = part.get("text", part.get("reasoning"))
            if isinstance(text, str):
                (thoughts if part.get("type") == "reasoning" else texts).append(text)
    return ("\n".join(texts), False) if texts else ("\n".join(thoughts), bool(thoughts))


def conversation_of(
    agent: Mapping[str, Any], where: str, fallback: str, tally: Tally, importer: ImporterId,
    context: ImportContext | None,
) -> dict[str, Any] | None:  # fmt: skip
    """An agent's messages as a PAM normalized conversation (§25), or None without any."""
    messages = agent.get("messages")
    if not isinstance(messages, list) or not messages:
        return None
    name = str(agent.get("name") or agent.get("id") or "agent")
    conversation_id = stable_id(NAME, "conversation", name, fallback)
    out: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        at = f"{where}: messages[{index}]"
        if not isinstance(message, Mapping):
            raise ImportFormatError(at, "expected an object (a message)")
        role = _ROLES.get(str(message.get("role")))
        if role is None:
            tally.lost[f"{message.get('role')} messages"] += 1
            continue
        text, thought = _text(message.get("content"))
        made: dict[str, Any] = {
            "id": stable_id(NAME, "message", conversation_id, str(index)),
            "role": role,
            "content": {"type": "text", "text": text},
            "created_at": time_text(message.get("created_at")) or fallback,
        }
        if isinstance(message.get("id"), str):
            made["provider_message_id"] = message["id"]
        if thought:
            made["is_thought"] = True
        if isinstance(message.get("model"), str):
            made["model"] = message["model"]
        calls = []
        for call in _listed(message.get("tool_calls")):
            function = call.get("function") if isinstance(call, Mapping) else None
            if isinstance(function, Mapping) and isinstance(function.get("name"), str):
                arguments = function.get("arguments")
                ident = call.get("id")
                calls.append(
                    {
                        "id": ident if isinstance(ident, str) else None,
                        "name": function["name"],
                        "input": arguments if isinstance(arguments, str) else None,
                    }
                )
        if calls:
            made["tool_calls"] = calls
        out.append(made)
    if not out:
        return None
    tally.mapped["messages (as a conversation)"] += len(out)
    times = sorted(m["created_at"] for m in out)
    roles = [r for r in ("user", "assistant", "system", "tool") if any(m["role"] == r for m in out)]
    document: dict[str, Any] = {
        "schema": "portable-ai-memory-conversation", "schema_version": "1.0",
        "id": conversation_id,
        "provider": {"name": NAME, "conversation_id": name},
        "title": name, "temporal": {"created_at": times[0], "updated_at": times[-1]},
        "participants": [{"role": r} for r in roles], "messages": out,
    }  # fmt: skip
    if isinstance(agent.get("system"), str) and agent["system"]:
        document["system_instruction"] = agent["system"]
        tally.metadata["system prompt (the conversation's system_instruction)"] += 1
    if context is not None:
        document["import_metadata"] = context.import_metadata(importer)
    return document


def _listed(value: Any) -> list[Any]:
    """A field that should be a list, as one (anything else counts as absent)."""
    return value if isinstance(value, list) else []


def _read_v2(
    document: Mapping[str, Any], where: str, now: str, tally: Tally, context: ImportContext | None
) -> HubRead:
    created = time_text(document.get("created_at"))
    time_source = "export" if created else "import"
    blocks = {
        b.get("id"): (index, b)
        for index, b in enumerate(_listed(document.get("blocks")))
        if isinstance(b, Mapping) and isinstance(b.get("id"), str)
    }
    used: set[Any] = set()
    memories: list[dict[str, Any]] = []
    conversations: list[dict[str, Any]] = []
    for number, agent in enumerate(document["agents"]):
        at = f"{where}: agents[{number}]"
        if not isinstance(agent, Mapping):
            raise ImportFormatError(at, "expected an object (an agent)")
        _agent_losses(agent, tally)
        conversation = conversation_of(agent, at, created or now, tally, IMPORTER.id, context)
        if conversation is not None:
            conversations.append(conversation)
        elif agent.get("system"):
            tally.lost["agent system prompt"] += 1
        tags = [t for t in _listed(agent.get("tags")) if isinstance(t, str)]
        block_ids = agent.get("block_ids") or []
        if not isinstance(block_ids, list):
            raise ImportFormatError(at, "block_ids: expected a list")
        for block_id in block_ids:
            found = blocks.get(block_id) if isinstance(block_id, str) else None
            if found is None:
                raise ImportFormatError(at, f"block_ids: {block_id!r} is not in 'blocks'")
            if block_id in used:
                continue  # a block shared between agents is one memory
            used.add(block_id)
            memories.extend(
                _block_memories(
                    found[1],
                    f"{where}: blocks[{found[0]}]",
                    created=created or now,
                    updated=None,
                    time_source=time_source,
                    agent=agent.get("name") if isinstance(agent.get("name"), str) else None,
                    agent_tags=tags,
                    now=now,
                    tally=tally,
                )
            )
    for block_id, (index, block) in blocks.items():
        if block_id not in used:
            memories.extend(
                _block_memories(
                    block,
                    f"{where}: blocks[{index}]",
                    created=created or now,
                    updated=None,
                    time_source=time_source,
                    agent=None,
                    agent_tags=[],
                    now=now,
                    tally=tally,
                )
            )
    for key in _V2_OTHER:
        items = document.get(key)
        if isinstance(items, list) and items:
            tally.lost[key] += len(items)
    return HubRead(memories, [], tally, conversations=conversations)


def _read_legacy(
    document: Mapping[str, Any], where: str, now: str, tally: Tally, context: ImportContext | None
) -> HubRead:
    _agent_losses(document, tally)
    start = time_text(document.get("created_at")) or now
    conversation = conversation_of(document, where, start, tally, IMPORTER.id, context)
    if conversation is None and document.get("system"):
        tally.lost["agent system prompt"] += 1
    tags = [t.get("tag") if isinstance(t, Mapping) else t for t in _listed(document.get("tags"))]
    agent = document.get("name") if isinstance(document.get("name"), str) else None
    memories = []
    for index, block in enumerate(document["core_memory"]):
        at = f"{where}: core_memory[{index}]"
        if not isinstance(block, Mapping):
            raise ImportFormatError(at, "expected an object (a memory block)")
        created = time_text(block.get("created_at")) or time_text(document.get("created_at"))
        updated = time_text(block.get("updated_at"))
        memories.extend(
            _block_memories(
                block,
                at,
                created=created or now,
                updated=updated,
                time_source="block (no offset: read as UTC)" if created else "import",
                agent=agent,
                agent_tags=[t for t in tags if isinstance(t, str)],
                now=now,
                tally=tally,
            )
        )
    conversations = [conversation] if conversation is not None else []
    return HubRead(memories, [], tally, conversations=conversations)


# -- export --------------------------------------------------------------------------------------


def _label(memory: Mapping[str, Any]) -> str:
    meta = (memory.get("metadata") or {}).get(META)
    if isinstance(meta, Mapping) and isinstance(meta.get("label"), str):
        return str(meta["label"])
    kind = memory.get("custom_type") if memory.get("type") == "custom" else memory.get("type")
    return str(kind)


def agent_file(
    memories: Sequence[Mapping[str, Any]], now: datetime, tally: Tally
) -> dict[str, Any]:
    """A v2 agent file whose blocks hold the memories (module docstring)."""
    by_label: dict[str, list[Mapping[str, Any]]] = {}
    for memory in memories:
        if memory.get("status", "active") != "active":
            tally.lost["memories not active (a block has no status)"] += 1
            continue
        by_label.setdefault(_label(memory), []).append(memory)
    blocks = []
    for index, (label, members) in enumerate(by_label.items()):
        lines, residues = [], []
        for memory in members:
            content = str(memory["content"])
            lines.append(content)
            # how many lines of the value the memory takes, then its PAM fields
            residues.append({"lines": content.count("\n") + 1, "memory": residue(memory)})
            tally.mapped["memories"] += 1
            tally.metadata["PAM fields (in the block's metadata.pam)"] += 1
        value = "\n".join(lines)
        block: dict[str, Any] = {
            "id": f"block-{index}", "label": label, "value": value,
            "limit": max(BLOCK_LIMIT, len(value)), "description": f"memvault: {label}",
            "read_only": False, "metadata": {RESIDUE: residues},
        }  # fmt: skip
        original = (members[0].get("metadata") or {}).get(META)
        if len(members) == 1 and isinstance(original, Mapping):
            # A block read from an agent file goes back as it was (X → memvault → X).
            for key in ("description", "limit", "read_only"):
                if key in original:
                    block[key] = original[key]
                elif key == "description":
                    del block[key]
            if isinstance(original.get("metadata"), Mapping):
                block["metadata"] = {**original["metadata"], RESIDUE: residues}
        blocks.append(block)
    agent = {
        "id": "agent-0", "name": "memvault", "agent_type": "letta_v1_agent",
        "description": "Memories exported by memvault as core memory blocks.",
        "system": "You are a helpful assistant. Your memory blocks hold what you know about "
                  "the user; keep them current.",
        "tags": ["memvault"], "block_ids": [b["id"] for b in blocks], "tool_ids": [],
        "source_ids": [], "folder_ids": [], "memory_blocks": [], "tools": [], "tool_rules": [],
        "llm_config": {"model": "gpt-4o-mini", "model_endpoint_type": "openai",
                       "model_endpoint": "https://api.openai.com/v1", "context_window": 128000,
                       "put_inner_thoughts_in_kwargs": True, "temperature": 0.7,
                       "max_tokens": 4096},
        "embedding_config": {"embedding_endpoint_type": "openai",
                             "embedding_endpoint": "https://api.openai.com/v1",
                             "embedding_model": "text-embedding-3-small", "embedding_dim": 1536,
                             "embedding_chunk_size": 300},
        "include_base_tools": True, "include_multi_agent_tools": False,
        "include_base_tool_rules": True, "include_default_source": False,
        "metadata": {}, "message_buffer_autoclear": False, "enable_sleeptime": False,
        "timezone": "UTC", "in_context_message_ids": [], "messages": [], "files_agents": [],
        "group_ids": [],
    }  # fmt: skip
    return {
        "agents": [agent], "groups": [], "blocks": blocks, "files": [], "sources": [],
        "tools": [], "mcp_servers": [], "skills": [], "metadata": {},
        "created_at": now.astimezone(UTC).isoformat(),
    }  # fmt: skip


def _encode(memories: Records, relations: Records, now: datetime, tally: Tally) -> Encoded:
    document = agent_file(memories, now, tally)
    if relations:
        tally.lost["relations (blocks have none)"] += len(relations)
    return orjson.dumps(document, option=orjson.OPT_INDENT_2)


IMPORTER: Final = LettaImporter()
EXPORTER: Final = Exporter(NAME, VERSION, _encode)
