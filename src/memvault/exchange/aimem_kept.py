"""An AIMEM download made from kept bytes alone (the owner's export, without embeddings).

Every memory's chunk is kept as the memory is written (`memvault.export_chunks`), and the
graph records (edges, entities, links) and the graph each memory carries are kept per vault
while nothing that shapes them changes (`KeptGraph`). A download then reads the chunks' kept
bytes in storage order, checks each against the bundle it makes (its chunk id unique, every
memory it names in the bundle, the graph it carries the one the bundle gives it), maps only
the first chunk (it carries the bundle's own fields) and any that fail a check, and hashes
the bytes as it spools them: no model object per memory, and the checksum — the stream's
first line — is known after one pass over stored bytes (AIMEM §2.8, §3.1).

`kept_download` answers None whenever it cannot tell the result is the bytes a full export
writes (an agent's export, embeddings, a memory without a kept chunk, the vault written
while it read, too many chunks to map again): the caller then exports the full way.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import orjson

from memvault.canonical import CanonicalizationError, jcs_dumps
from memvault.exchange.aimem import (
    _without_outside_refs,
    export_envelope,
    plan_export,
    record_export_made,
)
from memvault.formats.aimem.checksum import ARRAYS, CanonicalBundleHasher
from memvault.formats.aimem.reader import KIND_OF
from memvault.formats.aimem.validate import BundleRules
from memvault.formats.aimem.writer import KeptRecords, sorts_before_last_array
from memvault.formats.mapping import BundleAssembler, GraphParts, MappingError, chunk_id_for
from memvault.model import MEMORY_STATUSES, parse_timestamp
from memvault.store.base import MemoryQuery
from memvault.store.codec import memory_to_json
from memvault.vault import Vault

__all__ = ["KeptGraph", "build_graph", "kept_download"]

#: More chunks than this to map again, and the full export is as quick.
_MOST_MISSES: Final = 256
_EMPTY_GRAPH: Final = b"{}"


@dataclass(slots=True)
class KeptGraph:
    """The graph records of an export and what they depended on: the graph generation
    (`Store.export_graph_generation`), the bundle's first memory, and which of the memories
    they name (`targets`: edge and relation ends, the memories carrying graph blocks) were in
    the bundle (`present`). While those hold, another export has the same graph."""

    generation: int
    first: str
    targets: frozenset[str]
    present: frozenset[str]
    parts: GraphParts
    #: memory id -> the graph its chunk carries (canonical JSON), for those carrying one
    graphs: dict[str, bytes]
    #: canonical lines of "entities", "edges" and "chunk_entities"
    records: dict[str, list[bytes]]

    def holds(self, generation: int, first: str, exported: set[str]) -> bool:
        return (
            generation == self.generation
            and first == self.first
            and frozenset(t for t in self.targets if t in exported) == self.present
        )


def _query(since_text: str | None) -> MemoryQuery:
    return MemoryQuery(
        statuses=MEMORY_STATUSES,
        limit=None,
        order="created",
        updated_since=parse_timestamp(since_text) if since_text else None,
    )


def build_graph(
    vault: Vault, scope: str, since: str | datetime | None, producer: str, generation: int
) -> KeptGraph | None:
    """The graph of an export of `scope` as the full export makes it (`plan_export`), its
    records checked against §2; None for an empty bundle or one whose graph breaks a rule
    (the full export then says why)."""
    plan = plan_export(vault, scope=scope, since=since, producer=producer)
    if not plan.ids:
        return None
    assembler = plan.assembler
    parts = assembler.parts
    carriers = set(parts.edges) | set(parts.entities) | set(parts.links)
    graphs = {
        memory_id: orjson.dumps(parts.for_memory(memory_id), option=orjson.OPT_SORT_KEYS)
        for memory_id in carriers
    }
    targets = {plan.ids[0], *carriers}
    for memory_id, kept in plan.cached.items():
        if kept.graph != _EMPTY_GRAPH:
            targets.add(memory_id)
            targets.update(kept.refs)
    for relation in vault.export_view().relations():
        targets.add(relation.from_)
        targets.add(relation.to)
    rules = BundleRules(plan.envelope)
    rules.chunk_ids = set(assembler.chunk_ids.values())
    records: dict[str, list[bytes]] = {"entities": [], "edges": [], "chunk_entities": []}
    try:
        for n, entity in enumerate(assembler.entities):
            if _errors(rules.check_entity(n, entity)):
                return None
            records["entities"].append(jcs_dumps(entity))
        for n, edge in enumerate(assembler.edges):
            if _errors(rules.check_edge(n, edge, rules.chunk_ids)):
                return None
            records["edges"].append(jcs_dumps(edge))
        for n, link in enumerate(assembler.links):
            if _errors(rules.check_chunk_entity(n, link, rules.chunk_ids, rules.entity_ids)):
                return None
            records["chunk_entities"].append(jcs_dumps(link))
    except CanonicalizationError:
        return None
    exported = set(plan.ids)
    return KeptGraph(
        generation,
        plan.ids[0],
        frozenset(targets),
        frozenset(t for t in targets if t in exported),
        parts,
        graphs,
        records,
    )


def _errors(problems: list[Any]) -> bool:
    return any(p.severity == "error" for p in problems)


@dataclass(slots=True)
class KeptDownload:
    """What `kept_download` made: the records kept (`KeptRecords`), the envelope with its
    checksum, and the counts."""

    records: KeptRecords
    envelope: dict[str, Any]
    checksum: str
    chunks: int
    withheld: int
    moment: datetime


def kept_download(
    vault: Vault,
    *,
    scope: str,
    since: str | datetime | None,
    now: datetime | None,
    state: tuple[int, ...],
) -> KeptDownload | None:
    """The download of `scope` from kept bytes (see the module docstring), its records kept
    in temporary files; None when it cannot be made so. `state` is `export_state` as read
    before anything else: the result holds only if it still is."""
    view = vault.export_view()
    fence = view.erasure_fence()  # before the first read (AIMEM §5.2)
    envelope, moment = export_envelope(vault, scope=scope, since=since, now=now)
    producer = envelope["producer"]
    query = _query(envelope.get("since"))
    generation = view.graph_generation()
    index = view.export_index(query, producer)
    if generation is None or index is None:
        return None
    ids: list[str] = []
    chunk_ids: set[str] = set()
    withheld = 0
    checks: list[tuple[str, str, bytes]] = []  # (id, refs, graph) to check
    for memory_id, chunk_id, refs, dna, exportable, graph, _seq in index:
        if chunk_id is None:
            return None  # not kept (a vault from before migration 13, a chunk unmappable)
        if scope == "DNA_ONLY" and not dna:
            continue
        if not exportable:
            withheld += 1
            continue
        ids.append(memory_id)
        chunk_ids.add(chunk_id)
        if refs or graph != _EMPTY_GRAPH:
            checks.append((memory_id, refs, graph))
    del index
    if not ids or len(chunk_ids) != len(ids):
        return None  # empty, or two memories with one natural chunk id: the full export
    exported = set(ids)
    key = ("aimem-graph", scope, str(since), producer)
    graph = view.kept(key)
    if not isinstance(graph, KeptGraph) or not graph.holds(generation, ids[0], exported):
        graph = build_graph(vault, scope, since, producer, generation)
        if graph is None:
            return None
        view.keep(key, graph)
        if not graph.holds(generation, ids[0], exported):
            return None  # written meanwhile
    misses = {ids[0]}  # the first chunk carries the bundle's own fields: mapped each time
    graphs = graph.graphs
    for memory_id, refs, kept_graph in checks:
        if kept_graph != graphs.get(memory_id, _EMPTY_GRAPH) or not all(
            r in exported for r in refs.split()
        ):
            misses.add(memory_id)
    checked = {c[0] for c in checks}
    # A memory the bundle gives a graph its kept chunk does not carry: mapped again.
    misses.update(m for m in graphs if m in exported and m not in checked)
    if len(misses) > _MOST_MISSES:
        return None
    fresh = _map_again(vault, graph, envelope, producer, ids, exported, misses)
    if fresh is None:
        return None
    rows = view.chunk_bytes_in_order(query, producer)
    if rows is None:
        return None
    records = _spool(graph, rows, ids, fresh, envelope)
    if records is None:
        return None
    try:
        if view.export_state() != state:
            records.close()
            return None  # written while it read: the full export reads again
        with fence.publishing():  # ErasedMeanwhile: read again (AIMEM §5.2)
            pass
        checksum = records.checksum(envelope)
    except BaseException:
        records.close()
        raise
    envelope = {**envelope, "checksum": checksum}
    record_export_made(vault, envelope, moment, len(ids), checksum, None)
    return KeptDownload(records, envelope, checksum, len(ids), withheld, moment)


def _map_again(
    vault: Vault,
    graph: KeptGraph,
    envelope: dict[str, Any],
    producer: str,
    ids: list[str],
    exported: set[str],
    misses: set[str],
) -> dict[str, bytes] | None:
    """The chunks of `misses` mapped in the bundle's context (None: one cannot be)."""
    view = vault.export_view()
    memories = view.memories([i for i in ids if i in misses])
    if len(memories) != len(misses):
        return None  # erased or changed meanwhile
    assembler = BundleAssembler(producer, envelope=envelope)
    assembler.parts = graph.parts
    rules = BundleRules(envelope)
    out: dict[str, bytes] = {}
    for memory in memories:
        assembler.chunk_ids[memory.id] = chunk_id_for(memory.id, producer)
        whole = memory_to_json(memory)
        memory_json = _without_outside_refs(whole, exported)
        if isinstance(memory_json.get("embedding_ref"), str):
            memory_json["embedding_ref"] = None
        try:
            chunk = assembler.chunk(memory_json, None, first=memory.id == ids[0])
            rules.chunk_ids.clear()
            if _errors(rules.check_chunk(0, chunk)):
                return None
            out[memory.id] = jcs_dumps(chunk)
        except (MappingError, ValueError, TypeError, CanonicalizationError):
            return None
    return out


def _spool(
    graph: KeptGraph,
    rows: Any,
    ids: list[str],
    fresh: dict[str, bytes],
    envelope: dict[str, Any],
) -> KeptRecords | None:
    """The bundle's records, hashed as they are written to two temporary files (the
    canonical form up to its last array, and the NDJSON lines): `KeptRecords`."""
    head = {k: v for k, v in envelope.items() if k != "checksum" and sorts_before_last_array(k)}
    canonical = tempfile.TemporaryFile()  # noqa: SIM115 - KeptRecords closes it
    lines = tempfile.TemporaryFile()  # noqa: SIM115
    try:
        hasher = CanonicalBundleHasher(head, ARRAYS, sink=canonical.write)
        position = 0
        wanted = len(ids)
        chunk_tag = b'{"_kind":' + jcs_dumps(KIND_OF["chunks"]) + b","
        for array in hasher.order:
            hasher.start(array)
            if array != "chunks":
                kept = graph.records[array]
                if kept:
                    hasher.add_joined(array, [b",".join(kept)])
                continue
            for window in rows:
                out: list[bytes] = []
                for canonical_bytes, _seq, memory_id in window:
                    if position < wanted and memory_id == ids[position]:
                        data = fresh.get(memory_id, canonical_bytes)
                        if data is None:
                            raise _Changed
                        out.append(data)
                        position += 1
                if out:
                    hasher.add_joined("chunks", [b",".join(out)])
                    lines.write(b"".join(chunk_tag + d[1:] + b"\n" for d in out))
            if position != wanted:
                raise _Changed
        canonical.write(b"]")
        digest = hasher.state()
        digest.update(b"]")
        for array in ("entities", "edges", "chunk_entities"):
            tag = b'{"_kind":' + jcs_dumps(KIND_OF[array])
            lines.write(
                b"".join(
                    tag + (b"," + line[1:] if line != b"{}" else b"}") + b"\n"
                    for line in graph.records[array]
                )
            )
        canonical.flush()
        lines.flush()
    except _Changed:
        canonical.close()
        lines.close()
        return None
    except BaseException:
        canonical.close()
        lines.close()
        raise
    return KeptRecords(head, digest, canonical, lines)


class _Changed(Exception):
    """The vault changed between the reads of one export."""
