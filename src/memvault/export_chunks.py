"""Each memory's AIMEM chunk bytes kept current at write time (migration 13).

The stream form's first line is the envelope with the checksum of the whole bundle (AIMEM
§2.8, §3.1), so an export hashes every chunk before its first byte. Mapping a memory to its
chunk is the costly part of that; here it happens when the memory is written instead: the
store lists the memories a transaction wrote (``aimem_export_pending``: added, changed, or an
end of a relation written), and before that transaction commits, `keep_current` maps them
and keeps their chunks in the export cache (migration 6) — so an export right after a bulk
import, or after one write, only reads and hashes kept bytes.

A chunk is mapped as it stands alone: its chunk id the natural one (`chunk_id_for`), the
graph its ``metadata.aimem`` block carries as it is, every memory it names present. An
export checks each of those against the bundle it makes (`memvault.exchange.aimem_kept`)
and maps again the few that differ (an edge to a memory it leaves out, say).
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Final

import orjson

from memvault.formats.aimem.validate import BundleRules
from memvault.formats.mapping import (
    META_KEY,
    BundleAssembler,
    GraphParts,
    MappingError,
    aimem_block,
    chunk_id_for,
)
from memvault.model import MEMORY_STATUSES, Access, Memory
from memvault.store.base import CachedChunk, MemoryQuery, Store, StoreError
from memvault.store.codec import memory_to_json

__all__ = [
    "PRODUCER_META",
    "chunk_refs",
    "keep_current",
    "producer_of",
    "standalone_chunk",
]

#: The vault's AIMEM producer namespace, when set (`memvault.exchange.aimem`).
PRODUCER_META: Final = "aimem.producer"
#: Memories written in one transaction from which it is a bulk write (`keep_current`).
BULK: Final = 1000
#: The most memories a vault may hold for a bulk write to build the export's graph in its
#: transaction: the build holds about 1 KiB per memory on top of what the write holds (at
#: 50,000 memories that lifted the server's peak by ~60 MiB); past it, the first export
#: builds it, once the write's memory is given back.
GRAPH_AT_WRITE: Final = 20_000
_ALL: Final = MemoryQuery(statuses=MEMORY_STATUSES, limit=None)
#: Pending memories mapped per round trip to the store (bounded memory).
_WINDOW: Final = 500
_GRAPH_NAMES: Final = ("edges", "entities", "links")
#: The stores whose writes keep chunks current (one hook per store).
_HOOKED: weakref.WeakSet[Store] = weakref.WeakSet()


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
    chunk_id = chunk_id_for(memory.id, producer)
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


def keep_current(store: Store) -> None:
    """Map the memories `store`'s transactions write, before each commits (once per store;
    a store without an export cache is left alone)."""
    if store in _HOOKED:
        return
    try:
        if store.export_pending(0) is None:
            return
    except StoreError:  # a store at a schema before migration 13 (tests that pin one)
        return
    ref = weakref.ref(store)

    def hook() -> Callable[[], None] | None:
        target = ref()
        if target is None:
            return None
        mapped = _map_pending(target)
        if mapped < BULK or target.count_memories(_ALL) > GRAPH_AT_WRITE:
            return None
        # A bulk write (an import): the graph records of the owner's whole export are built
        # now too, so the export that follows reads kept bytes only. Published once the
        # transaction commits (a rolled-back one could reuse its generation number).
        from memvault.exchange.aimem_kept import prepare_graph

        return prepare_graph(target)

    if store.before_commit(hook):
        _HOOKED.add(store)


def _map_pending(store: Store) -> int:
    """Map and keep the chunks of the memories pending; how many were."""
    pending = store.export_pending(_WINDOW)
    if not pending:
        return 0
    owner = store.get_owner()
    if owner is None:
        return 0
    producer = producer_of(store.get_meta(PRODUCER_META), owner.id)
    rules = _rules(producer)
    mapped = 0
    while pending:
        found = store.get_memories(pending)
        chunks = [c for s in found if (c := standalone_chunk(s.memory, producer, rules))]
        store.keep_current_chunks(producer, chunks, pending)
        mapped += len(pending)
        if len(pending) < _WINDOW:
            break
        pending = store.export_pending(_WINDOW)
    return mapped


def _rules(producer: str) -> BundleRules:
    return BundleRules(
        {"format": "aimem-bundle", "version": "1", "producer": producer, "scope": "FULL"}
    )
