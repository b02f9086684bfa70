"""Small AIMEM bundles for tests: an envelope, a chunk, a checksummed bundle, a bundle file
and the NDJSON stream form (§3.1) of a bundle file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.mapping import aimem_content_hash

PRODUCER = "memoryai-prod"
TENANT = "11111111-1111-4111-8111-111111111111"
KINDS = {"chunks": "chunk", "entities": "entity", "edges": "edge", "chunk_entities": "chunk_entity"}


def envelope(producer: str = PRODUCER, **members: Any) -> dict[str, Any]:
    """The §2.1 envelope members other than `checksum` and the arrays; `members` override."""
    doc: dict[str, Any] = {
        "format": "aimem-bundle",
        "version": "1",
        "producer": producer,
        "tenant_id": TENANT,
        "exported_at": "2026-06-12T10:00:00Z",
        "scope": "FULL",
    }
    doc.update(members)
    return doc


def chunk(
    local: str, content: str, memory_type: str = "fact", *, producer: str = PRODUCER, **extra: Any
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": f"urn:aimem:{producer}:{local}",
        "content": content,
        "content_hash": aimem_content_hash(content),
        "memory_type": memory_type,
        "created_at": "2026-04-01T09:30:00Z",
    }
    record.update(extra)
    return record


def bundle(chunks: list[dict[str, Any]], **members: Any) -> dict[str, Any]:
    """A checksummed bundle of `chunks` with empty edges, entities and links."""
    doc = envelope(**members)
    doc.update(chunks=chunks, edges=[], entities=[], chunk_entities=[])
    doc["checksum"] = bundle_checksum(doc)
    return doc


def graph_bundle(chunks: list[dict[str, Any]], *, entity_prefix: str = "e") -> dict[str, Any]:
    """A checksummed bundle of `chunks` with a graph: an entity (ids ``<entity_prefix><n>``)
    linked to every tenth chunk, and an edge from every other chunk to the next (semantic,
    temporal and an extension type in turn)."""
    count = len(chunks)
    entities = [
        {
            "id": f"urn:aimem:{PRODUCER}:{entity_prefix}{n}",
            "name": f"Entity {n}",
            "kind": "person",
            "created_at": "2026-04-01T09:30:00Z",
        }
        for n in range(0, count, 10)
    ]
    edges = [
        {
            "source_id": chunks[n]["id"],
            "target_id": chunks[n + 1]["id"],
            "edge_type": ("semantic", "temporal", "x-custom")[n % 3],
            "weight": 0.25,
            "created_at": "2026-04-01T09:30:00Z",
        }
        for n in range(0, count - 1, 2)
    ]
    links = [
        {"chunk_id": chunks[n]["id"], "entity_id": f"urn:aimem:{PRODUCER}:{entity_prefix}{n}"}
        for n in range(0, count, 10)
    ]
    doc = envelope()
    doc.update(chunks=chunks, edges=edges, entities=entities, chunk_entities=links)
    doc["checksum"] = bundle_checksum(doc)
    return doc


def write(path: Path, doc: dict[str, Any]) -> Path:
    path.write_bytes(orjson.dumps(doc))
    return path


def to_ndjson(source: Path, target: Path) -> Path:
    """The §3.1 stream form of a bundle file: envelope line, then one tagged record a line."""
    doc = json.loads(source.read_bytes())
    lines = [json.dumps({k: v for k, v in doc.items() if k not in KINDS}, ensure_ascii=False)]
    for array, kind in KINDS.items():
        lines += [json.dumps({"_kind": kind, **r}, ensure_ascii=False) for r in doc.get(array, [])]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
