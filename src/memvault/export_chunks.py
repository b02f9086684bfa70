"""Each memory's AIMEM chunk bytes kept for exports, mapped when an export begins (migration 13).

The stream form's first line is the envelope with the checksum of the whole bundle (AIMEM
§2.8, §3.1), so an export hashes every chunk before its first byte. Mapping a memory to its
chunk is the costly part of that. A write only notes which memories it touched (migration
13's triggers fill ``aimem_export_pending``: added, changed, or an end of a relation
written) and pays nothing more; an export begins with `map_pending`, which maps those and
keeps their chunks in the export cache (migration 6) — so after one write an export maps
that one memory and reads and hashes kept bytes for the rest, and after a bulk import the
first export maps what it brought (the exports after it read kept bytes only).

A chunk is mapped as it stands alone: its chunk id the natural one (`chunk_id_for`), the
graph its ``metadata.aimem`` block carries as it is, every memory it names present. An
export checks each of those against the bundle it makes (`memvault.exchange.aimem_kept`)
and maps again the few that differ (an edge to a memory it leaves out, say).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

import orjson

from memvault.formats.aimem.validate import BundleRules
from memvault.formats.mapping import (
    META_KEY,
    BundleAssembler,
    GraphParts,
    MappingError,
    aimem_block,
    natural_chunk_id,
)
from memvault.model import Access, Memory
from memvault.store.base import CachedChunk, Store, StoreError
from memvault.store.codec import memory_to_json

__all__ = [
    "PRODUCER_META",
    "chunk_refs",
    "map_pending",
    "pending_count",
    "producer_of",
    "standalone_chunk",
]

#: The vault's AIMEM producer namespace, when set (`memvault.exchange.aimem`).
PRODUCER_META: Final = "aimem.producer"
#: Pending memories mapped per write transaction (bounded memory, a short hold of the lock).
_WINDOW: Final = 500
_GRAPH_NAMES: Final = ("edges", "entities", "links")


def producer_of(meta: str | None, owner_id: str) -> str:
    """The AIMEM producer namespace (§2.3): `meta` when set, else ``memvault-`` and 12 hex
    digits of SHA-256 of the owner id."""
    if meta:
        return meta
    return "memvault-" + hashlib.sha256(owner_id.encode("utf-8")).hexdigest()[:12]


def chunk_refs(memory: Mapping[str, Any]) -> tuple[str, ...]:
    """The memory ids a memory's chunk names: ``superseded_by`` and its AIMEM edges'
    targets (an export that leaves one of them out maps the chunk again)."""
    out: list[str] = []
    temporal = memory.get("temporal")
    if isinstance(temporal, dict) and isinstance(temporal.get("superseded_by"), str):
        out.append(temporal["superseded_by"])
    metadata = memory.get("metadata")
    block = metadata.get(META_KEY) if isinstance(metadata, dict) else None
    edges = block.get("edges") if isinstance(block, dict) else None
    if isinstance(edges, list):
        out.extend(e["target_id"] for e in edges if isinstance(e, dict) and "target_id" in e)
    return tuple(str(r) for r in out)


def standalone_chunk(memory: Memory, producer: str, rules: BundleRules) -> CachedChunk | None:
    """The chunk an export writes for `memory` when it is not the bundle's first, every
    memory it names is in the bundle and its graph block stands as it is; None when it
    cannot be mapped or breaks a §2 rule (an export then maps it and says why)."""
    whole = memory_to_json(memory)
    refs = chunk_refs(whole)
    block = aimem_block(whole)
    memory_json = whole
    if isinstance(memory_json.get("embedding_ref"), str):
        # An export kept here carries no vectors: PAM §12.1 wants the reference null then.
        memory_json = {**memory_json, "embedding_ref": None}
    graph = {name: block[name] for name in _GRAPH_NAMES if block is not None and name in block}
    chunk_id = natural_chunk_id(memory.id, producer)  # `chunk_id_for`, quicker
    assembler = BundleAssembler(producer)
    assembler.chunk_ids[memory.id] = chunk_id
    assembler.parts = GraphParts(
        edges={memory.id: graph["edges"]} if "edges" in graph else {},
        entities={memory.id: graph["entities"]} if "entities" in graph else {},
        links={memory.id: graph["links"]} if "links" in graph else {},
    )
    try:
        chunk = assembler.chunk(memory_json, None, first=False)
    except (MappingError, ValueError, TypeError):
        return None
    rules.chunk_ids.clear()
    if any(p.severity == "error" for p in rules.check_chunk(0, chunk)):
        return None
    from memvault.canonical import CanonicalizationError, jcs_dumps

    try:
        canonical = jcs_dumps(chunk)
    except CanonicalizationError:
        return None
    exportable = not (isinstance(memory.access, Access) and not memory.access.is_exportable)
    return CachedChunk(
        memory.id,
        chunk_id,
        orjson.dumps(graph, option=orjson.OPT_SORT_KEYS) if graph else b"{}",
        refs,
        memory.is_dna,
        exportable,
        None if block is None else orjson.dumps(block),
        canonical,
    )


def map_pending(store: Store, *, windows: int | None = None) -> int:
    """Map and keep the chunks of the memories pending (written since their chunk was last
    kept); how many were. Each window of them in its own short write transaction: the
    memories read, mapped and kept with the write lock held, so a write or an erasure comes
    wholly before or after it, and a writer waits for one window at most. `windows` bounds
    how many windows this call maps (the server's background mapping maps one at a time,
    `memvault.server.export_mapping`); None: all that are pending."""
    try:
        if not store.export_pending(1):
            return 0  # none pending (or no export cache): the write lock is not taken
    except StoreError:  # a store at a schema before migration 13 (tests that pin one)
        return 0
    mapped = 0
    while True:
        with store.transaction():
            pending = store.export_pending(_WINDOW)
            if not pending:
                return mapped
            owner = store.get_owner()
            if owner is None:
                return mapped
            producer = producer_of(store.get_meta(PRODUCER_META), owner.id)
            rules = _rules(producer)
            found = store.get_memories(pending)
            chunks = [c for s in found if (c := standalone_chunk(s.memory, producer, rules))]
            store.keep_current_chunks(producer, chunks, pending)
        mapped += len(pending)
        if windows is not None:
            windows -= 1
        if len(pending) < _WINDOW or windows == 0:
            return mapped


def pending_count(store: Store) -> int:
    """How many memories are pending (0 for a store that keeps no export cache)."""
    try:
        return store.export_pending_count() or 0
    except StoreError:  # a store at a schema before migration 13
        return 0


def _rules(producer: str) -> BundleRules:
    return BundleRules(
        {"format": "aimem-bundle", "version": "1", "producer": producer, "scope": "FULL"}
    )
