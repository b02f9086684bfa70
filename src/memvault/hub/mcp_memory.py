"""The MCP reference memory server's knowledge graph (``memory.jsonl``), both directions.

The file is JSON Lines: entity lines ``{"type":"entity","name","entityType","observations"}``
and relation lines ``{"type":"relation","from","to","relationType"}``; no ids, no times, no
metadata. The server keeps the first entity of a name, relations unique on (from, to,
relationType) and observations unique within an entity; it skips lines of any other type.

Import (docs/formats.md): each entity becomes an *anchor* memory (content: the entity's
name; type relationship for people and organizations, else context) and each observation
its own memory (content verbatim, type guessed from the wording, the entity type as a tag).
A relation becomes a PAM relation between the two anchors: its type when the label is a PAM
relation type, else ``related_to``; the original label is kept in the source anchor's
metadata (PAM relations have no metadata). The file has no times: memories take the import
time, and say so (``time_source``).

Export: memories that came from this format rebuild their entities, observations in their
order, and their relations with their labels. Other memories are grouped into one entity per
PAM type (``memvault:<type>``). Each entity line carries an extra member ``pam`` with the
memories' PAM residue (id, type, status, times, tags, metadata) and their relations; the
server reads such lines and drops the member the next time it saves (zod strips unknown
keys), so the graph itself stays valid. Memories that are not active are left out (the graph
has no status) and counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

import orjson

from memvault import jsonread
from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.memory_text import guess_type
from memvault.sources import Target

from .base import (
    RELATION_TYPES,
    RESIDUE,
    Encoded,
    Exporter,
    Records,
    Tally,
    memory_id,
    pam_memory,
    read_whole,
    relation,
    residue,
    restore,
    strings,
    tag,
    text_field,
    text_of,
)
from .reading import HubImporter, HubRead

NAME: Final = "mcp-memory"
#: The server version whose file layout this follows (@modelcontextprotocol/server-memory).
VERSION: Final = "0.6"
META: Final = "mcp-memory"
_HEAD: Final = re.compile(rb'^\s*\{.{0,2000}?"type"\s*:\s*"(entity|relation)"', re.S)
_PEOPLE: Final = frozenset({"person", "people", "organization", "organisation", "company", "org"})
GROUP_PREFIX: Final = "memvault:"


class McpMemoryImporter(HubImporter):
    id = ImporterId(NAME, VERSION)
    name = NAME

    def sniff(self, target: Target) -> bool:
        """One file whose first line is an entity or relation line."""
        if target.kind != "file" or len(target.entries) != 1:
            return False
        with target.entries[0].stream() as stream:
            head = stream.read(4096)
        first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
        return bool(_HEAD.match(first)) and b'"name"' in first + b'"from"'

    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        if len(target.entries) != 1:
            raise ImportFormatError(str(target.path), "an MCP memory graph is one .jsonl file")
        entry = target.entries[0]
        text = text_of(read_whole(entry), entry.display)
        return read_graph(text, entry.display, context.imported_at, self.tally())


def parse_lines(text: str, where: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Entity and relation records of a graph file (blank lines skipped); other lines counted.
    A line that is not a JSON object, or an entity or relation missing a field, is refused."""
    entities: list[dict[str, Any]] = []
    relations: list[dict[str, Any]] = []
    other = 0
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        at = f"{where}: line {number}"
        value = jsonread.loads(line.encode(), at)
        if not isinstance(value, dict):
            raise ImportFormatError(at, "expected a JSON object (an entity or a relation)")
        kind = value.get("type")
        if kind == "entity":
            text_field(value, "name", at)
            text_field(value, "entityType", at)
            strings(value.get("observations"), at, "observations")
            entities.append(value)
        elif kind == "relation":
            for name in ("from", "to", "relationType"):
                text_field(value, name, at)
            relations.append(value)
        else:
            other += 1
    return entities, relations, other


def _anchor_type(entity_type: str) -> str:
    return "relationship" if entity_type.lower() in _PEOPLE else "context"


def _entity_memory(
    content: str,
    id: str,
    type: str,
    now: str,
    entity: Mapping[str, Any],
    role: Mapping[str, Any],
) -> dict[str, Any]:
    """A memory the server's `entity` holds (its anchor or an observation), with where it
    came from in its metadata (`role`: what the memory is in the entity)."""
    name, kind = entity["name"], entity["entityType"]
    return pam_memory(
        content,
        id=id,
        type=type,
        created_at=now,
        platform=NAME,
        extraction_method="llm_inference",
        extracted_at=now,
        tags=[t for t in [tag(kind)] if t],
        metadata={META: {"entity": name, "entityType": kind, **role, "time_source": "import"}},
    )


def read_graph(text: str, where: str, now: str, tally: Tally) -> HubRead:
    """A graph file's text as PAM memories and relations (module docstring)."""
    entities, lines, other = parse_lines(text, where)
    if other:
        tally.lost["lines of another type"] += other
    memories: list[dict[str, Any]] = []
    pam_relations: list[dict[str, Any]] = []
    anchors: dict[str, str] = {}
    anchor_memory: dict[str, dict[str, Any]] = {}
    for number, entity in enumerate(entities, 1):
        name, kind = entity["name"], entity["entityType"]
        at = f"{where}: entity {number} ({name!r})"
        if name in anchors:
            tally.lost["entities repeating a name (the server keeps the first)"] += 1
            continue
        extra = entity.get(RESIDUE)
        kept = extra if isinstance(extra, Mapping) else {}
        observations: list[str] = []
        for observation in entity["observations"]:
            if observation in observations:
                tally.lost["repeated observations"] += 1
            else:
                observations.append(observation)
        anchor_residue = kept.get("anchor")
        restored_anchor = restore(name, anchor_residue, at) if anchor_residue else None
        if restored_anchor is not None:
            memories.append(restored_anchor)
            anchors[name] = restored_anchor["id"]
            anchor_memory[name] = restored_anchor
            tally.mapped["memories (from their residue)"] += 1
        elif extra is None:
            anchor = _entity_memory(
                name,
                memory_id(NAME, "entity", name),
                _anchor_type(kind),
                now,
                entity,
                {"role": "anchor", "position": number, "relations": []},
            )
            memories.append(anchor)
            anchors[name] = anchor["id"]
            anchor_memory[name] = anchor
            tally.mapped["entities"] += 1
            tally.metadata["entity name and type"] += 1
        residues = kept.get("observations")
        for index, observation in enumerate(observations):
            kept_one = (
                residues[index] if isinstance(residues, list) and index < len(residues) else None
            )
            restored = restore(observation, kept_one, f"{at}: observation {index + 1}")
            if restored is not None:
                memories.append(restored)
                tally.mapped["memories (from their residue)"] += 1
                continue
            memories.append(
                _entity_memory(
                    observation,
                    memory_id(NAME, "observation", name, observation),
                    guess_type(observation),
                    now,
                    entity,
                    {"role": "observation", "index": index},
                )
            )
            tally.mapped["observations"] += 1
        for kept_relation in kept.get("relations") or []:
            if isinstance(kept_relation, Mapping):
                pam_relations.append(dict(kept_relation))
                tally.mapped["relations (from their residue)"] += 1
    seen: set[tuple[str, str, str]] = set()
    for position, line in enumerate(lines, 1):
        source, target, label = line["from"], line["to"], line["relationType"]
        if (source, target, label) in seen:
            tally.lost["repeated relations"] += 1
            continue
        seen.add((source, target, label))
        if source not in anchor_memory or target not in anchor_memory:
            if source in anchors or target in anchors or not _grouped(source, target):
                tally.lost["relations to an entity not in the file"] += 1
            continue
        meta = anchor_memory[source].get("metadata", {}).get(META)
        if isinstance(meta, dict):
            labels = meta.setdefault("relations", [])
            if not any((x.get("to"), x.get("relationType")) == (target, label) for x in labels):
                labels.append({"to": target, "relationType": label, "position": position})
                tally.metadata["relation labels"] += 1
        kind = label if label in RELATION_TYPES else "related_to"
        pam_relations.append(relation(anchors[source], anchors[target], kind, now))
        tally.mapped["relations"] += 1
    return HubRead(memories, pam_relations, tally)


def _grouped(source: str, target: str) -> bool:
    """Relations between memvault's type groups restate the residue's relations."""
    return source.startswith(GROUP_PREFIX) and target.startswith(GROUP_PREFIX)


# -- export -------------------------------------------------------------------------------------


def _meta(memory: Mapping[str, Any]) -> Mapping[str, Any] | None:
    metadata = memory.get("metadata")
    meta = metadata.get(META) if isinstance(metadata, Mapping) else None
    return meta if isinstance(meta, Mapping) else None


def graph_lines(
    memories: Sequence[Mapping[str, Any]], relations: Sequence[Mapping[str, Any]], tally: Tally
) -> list[dict[str, Any]]:
    """The graph's records (module docstring): entities first, then relations."""
    entities: dict[str, dict[str, Any]] = {}
    extras: dict[str, dict[str, Any]] = {}
    entity_of: dict[str, str] = {}
    order: list[tuple[str, int, Mapping[str, Any]]] = []
    labelled: set[tuple[str, str]] = set()
    positions: dict[str, int] = {}
    for memory in memories:
        if memory.get("status", "active") != "active":
            tally.lost["memories not active (the graph has no status)"] += 1
            continue
        meta = _meta(memory)
        if meta is not None and isinstance(meta.get("entity"), str):
            name = meta["entity"]
            entity_type = str(meta.get("entityType") or "entity")
        else:
            kind = memory.get("custom_type") if memory.get("type") == "custom" else memory["type"]
            name, entity_type = f"{GROUP_PREFIX}{kind}", "memvault-memories"
            meta = None
        entity = entities.setdefault(
            name, {"type": "entity", "name": name, "entityType": entity_type, "observations": []}
        )
        extra = extras.setdefault(name, {"anchor": None, "observations": [], "relations": []})
        entity_of[str(memory["id"])] = name
        if meta is not None and meta.get("role") == "anchor":
            extra["anchor"] = residue(memory)
            position = meta.get("position")
            if isinstance(position, int):
                positions[name] = position
            for item in meta.get("relations") or []:
                if isinstance(item, Mapping):
                    labelled.add((name, str(item.get("to"))))
            continue
        index = meta.get("index") if meta is not None else None
        order.append((name, index if isinstance(index, int) else 1 << 30, memory))
        tally.mapped["memories"] += 1
        tally.metadata["PAM fields (in the 'pam' member)"] += 1
    order.sort(key=lambda item: item[1])  # stable: observations keep their index order
    for name, _index, memory in order:
        content = str(memory["content"])
        if content in entities[name]["observations"]:
            tally.lost["memories repeating an observation of their entity"] += 1
            continue
        entities[name]["observations"].append(content)
        extras[name]["observations"].append(residue(memory))
    out_relations: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()

    def add(source: str, target: str, label: str) -> None:
        if (source, target, label) not in seen:
            seen.add((source, target, label))
            out_relations.append(
                {"type": "relation", "from": source, "to": target, "relationType": label}
            )

    labels: list[tuple[int, str, str, str]] = []
    for memory in memories:
        meta = _meta(memory)
        if (
            meta is None
            or meta.get("role") != "anchor"
            or memory.get("status", "active") != "active"
        ):
            continue
        for item in meta.get("relations") or []:
            if isinstance(item, Mapping) and str(item.get("to")) in entities:
                position = item.get("position")
                labels.append((position if isinstance(position, int) else 1 << 30,
                               str(meta.get("entity")), str(item["to"]),
                               str(item.get("relationType"))))  # fmt: skip
    for _position, source_name, target_name, label in sorted(labels, key=lambda x: x[0]):
        add(source_name, target_name, label)
        tally.mapped["relations"] += 1
    for rel in relations:
        source, target = entity_of.get(str(rel.get("from"))), entity_of.get(str(rel.get("to")))
        if source is None or target is None:
            tally.lost["relations to memories not exported"] += 1
            continue
        if (source, target) in labelled:
            continue  # the anchor's label says it
        extras[source]["relations"].append(dict(rel))
        if source != target:
            add(source, target, str(rel.get("type")))
        tally.mapped["relations"] += 1
    lines = []
    for name, entity in sorted(entities.items(), key=lambda item: positions.get(item[0], 1 << 30)):
        extra = extras[name]
        if not extra["relations"]:
            del extra["relations"]
        lines.append({**entity, RESIDUE: extra})
    return lines + out_relations


def dump_lines(records: Sequence[Mapping[str, Any]]) -> bytes:
    """JSON Lines as the server writes them: one compact object a line, ending in a newline."""
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


def _encode(memories: Records, relations: Records, now: datetime, tally: Tally) -> Encoded:
    return dump_lines(graph_lines(memories, relations, tally))


IMPORTER: Final = McpMemoryImporter()
EXPORTER: Final = Exporter(NAME, VERSION, _encode)
