"""An AIMEM download made from kept bytes alone (the owner's export, without embeddings).

Every memory's chunk is kept, mapped when an export begins if it was written since
(`memvault.export_chunks.map_pending`), and the graph records (edges, entities, links) and
the graph each memory carries are kept per vault while nothing that shapes them changes
(`KeptGraph`). A download then reads the chunks' kept
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

import bisect
import functools
import hashlib
import os
import tempfile
from array import array
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, Final

import orjson

from memvault.canonical import CanonicalizationError, jcs_dumps
from memvault.exchange.aimem import (
    _noted,
    _without_outside_refs,
    export_envelope,
    record_export_made,
)
from memvault.formats.aimem.checksum import ARRAYS, CanonicalBundleHasher, canonical_order
from memvault.formats.aimem.reader import KIND_OF, Form
from memvault.formats.aimem.validate import BundleRules, parse_chunk_urn
from memvault.formats.aimem.writer import KeptRecords, sorts_before_last_array
from memvault.formats.mapping import (
    BundleAssembler,
    GraphParts,
    MappingError,
    StreamedGraph,
    chunk_id_for,
)
from memvault.model import MEMORY_STATUSES, parse_timestamp
from memvault.store.base import MemoryQuery
from memvault.store.codec import memory_to_json
from memvault.vault import Vault

__all__ = [
    "AppendableRecords",
    "KeptGraph",
    "appended_download",
    "build_graph",
    "build_graph_assembled",
    "kept_download",
]

#: More chunks than this to map again, and the full export is as quick.
_MOST_MISSES: Final = 256
_EMPTY_GRAPH: Final = b"{}"
#: Chunks read back from the spool, hashed and written per step.
_SPOOL_WINDOW: Final = 2000
#: Appended runs one kept download may carry before the next is made whole again.
_MOST_RUNS: Final = 32
#: How an NDJSON chunk line begins (its "_kind" member, then the chunk's own members).
_CHUNK_TAG: Final = b'{"_kind":' + jcs_dumps(KIND_OF["chunks"]) + b","


@dataclass(slots=True)
class KeptGraph:
    """The graph records of an export and what they depended on: the graph generation
    (`Store.export_graph_generation`), the bundle's first memory, and which of the memories
    they name (`targets`: edge and relation ends, the memories carrying graph blocks) were in
    the bundle (`present`). While those hold, another export has the same graph. Everything
    but a sorted array of the targets' 64-bit digests is kept on disk (`spool`, a temporary
    file): the server keeps a graph per tenant for as long as it runs, and in memory its
    index alone (memory ids, targets) held ~9.5 MiB for a vault of 50,000 memories."""

    generation: int
    first: str
    #: the graphs, then for each of "entities", "edges" and "chunk_entities" its records
    #: canonical and joined by commas, and their NDJSON lines, then the index: a line per
    #: memory carrying a graph (its id as a JSON string, a tab, offset << 32 | size of its
    #: graph), then the targets and those present, a JSON string a line (one small parse
    #: each: one parse of the whole index held ~14 times its size at its peak)
    spool: IO[bytes]
    #: array -> (offset, size, records) of its canonical run, (offset, size) of its lines
    arrays: dict[str, tuple[int, int, int, int, int]]
    #: (offset, size) of the index's three parts in `spool`
    index_at: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    #: the targets' digests (`_digest`), sorted: whether a memory may be one, at once
    target_digests: array[int]

    def _read(self, offset: int, size: int) -> bytes:
        return os.pread(self.spool.fileno(), size, offset) if size else b""

    def graph_index(self) -> dict[str, int]:
        """memory id -> where the graph its chunk carries is in `spool`, read from disk."""
        out: dict[str, int] = {}
        for line in self._read(*self.index_at[0]).splitlines():
            name, _, at = line.rpartition(b"\t")
            out[orjson.loads(name)] = int(at)
        return out

    def targets(self) -> frozenset[str]:
        return frozenset(_ids(self._read(*self.index_at[1])))

    def present(self) -> frozenset[str]:
        return frozenset(_ids(self._read(*self.index_at[2])))

    def graphs(self) -> dict[str, bytes]:
        """memory id -> the graph its chunk carries, for those carrying one (read at once)."""
        graph_at = self.graph_index()
        if not graph_at:
            return {}
        end = max((at >> 32) + (at & 0xFFFFFFFF) for at in graph_at.values())
        blob = memoryview(self._read(0, end))
        return {m: bytes(blob[at >> 32 : (at >> 32) + (at & 0xFFFFFFFF)]) for m, at in
                graph_at.items()}  # fmt: skip

    def graph_of(self, memory_id: str, graph_at: Mapping[str, int] | None = None) -> bytes | None:
        """The graph `memory_id`'s chunk carries (None: none); `graph_at`: the index, when
        the caller read it (`graph_index`) to look up many."""
        at = (self.graph_index() if graph_at is None else graph_at).get(memory_id)
        return None if at is None else self._read(at >> 32, at & 0xFFFFFFFF)

    def canonical(self, array: str) -> tuple[bytes, int]:
        """The records of `array` canonical and joined by commas, and how many there are."""
        offset, size, count, _, _ = self.arrays[array]
        return self._read(offset, size), count

    def lines(self, array: str) -> bytes:
        """The NDJSON lines of `array`'s records."""
        _, _, _, offset, size = self.arrays[array]
        return self._read(offset, size)

    def may_name(self, memory_id: str) -> bool:
        """False when `memory_id` is surely not among the targets (True: it may be)."""
        digests = self.target_digests
        digest = _digest(memory_id)
        at = bisect.bisect_left(digests, digest)
        return at < len(digests) and digests[at] == digest

    def holds(self, generation: int, first: str, exported: set[str]) -> bool:
        if generation != self.generation or first != self.first:
            return False
        return frozenset(t for t in self.targets() if t in exported) == self.present()


#: A run of kept bytes: a part of a spool file (file, start, stop), or bytes.
_Part = tuple[IO[bytes], int, int] | bytes


def _read_parts(parts: list[_Part], block_size: int) -> Iterator[bytes]:
    for part in parts:
        if isinstance(part, bytes):
            if part:
                yield part
            continue
        fh, offset, stop = part
        fd = fh.fileno()
        while offset < stop and (block := os.pread(fd, min(block_size, stop - offset), offset)):
            offset += len(block)
            yield block


class AppendableRecords(KeptRecords):
    """`KeptRecords` that memories added since can be appended to without reading the others
    again. Besides the SHA-256 state at the end of the last array, it keeps the state right
    after the last chunk, and each form's bytes as the part up to the last chunk (`chunks`,
    `chunk_lines`) and the part after it (`tail`, `tail_lines`: the rest of the arrays, whose
    records do not change when a memory with no graph is added). `appended` gives the
    records with more chunks at the end: the checksum is that state fed the new chunks and
    the tail (AIMEM §2.8), so the first byte of an export after a memory is added costs the
    new chunks, not the whole vault."""

    def __init__(
        self,
        head: dict[str, Any],
        digest: Any,
        chunk_state: Any,
        chunks: list[_Part],
        tail: list[_Part],
        chunk_lines: list[_Part],
        tail_lines: list[_Part],
        tail_bytes: bytes | None = None,
        dangling: frozenset[str] = frozenset(),
    ) -> None:
        self.head = head
        #: Ids the chunks name (``superseded_by``, edges) that were not in the bundle: a
        #: memory added with one of them changes a chunk already kept.
        self.dangling = dangling
        self._digest = digest
        self._chunk_state = chunk_state
        self._chunks = chunks
        self._tail = tail
        self._chunk_lines = chunk_lines
        self._tail_lines = tail_lines
        self._tail_bytes = tail_bytes

    @property
    def runs(self) -> int:
        """How many parts the chunks are kept in (one more with each append)."""
        return len(self._chunks)

    def _tail_canonical(self) -> bytes:
        if self._tail_bytes is None:
            self._tail_bytes = b"".join(_read_parts(self._tail, 1 << 20))
        return self._tail_bytes

    def appended(self, canonical: list[bytes]) -> AppendableRecords:
        """These records with the chunks `canonical` (RFC 8785 bytes, in storage order)
        after the last one; the files are shared, nothing is copied."""
        joined = b"," + b",".join(canonical)
        chunk_state = self._chunk_state.copy()
        chunk_state.update(joined)
        tail = self._tail_canonical()
        digest = chunk_state.copy()
        digest.update(tail)  # from the "]" closing the chunks to the end of the last array
        tag = _CHUNK_TAG
        lines = b"".join(tag + c[1:] + b"\n" for c in canonical)
        return AppendableRecords(
            self.head, digest, chunk_state,
            [*self._chunks, joined], self._tail,
            [*self._chunk_lines, lines], self._tail_lines, tail, self.dangling,
        )  # fmt: skip

    def blocks(
        self, envelope: Mapping[str, Any], form: Form, block_size: int = 1 << 16
    ) -> Iterator[bytes]:
        if form == "ndjson":
            yield jcs_dumps(envelope) + b"\n"
            yield from _read_parts([*self._chunk_lines, *self._tail_lines], block_size)
            return
        rest = {k: v for k, v in envelope.items() if k not in self.head}
        yield b"{" + jcs_dumps("checksum") + b":" + jcs_dumps(rest.pop("checksum")) + b","
        first, *others = self._chunks
        assert not isinstance(first, bytes)
        fh, start, stop = first
        yield from _read_parts([(fh, start + 1, stop), *others, *self._tail], block_size)
        tail = b"".join(
            b"," + jcs_dumps(key) + b":" + jcs_dumps(rest[key]) for key in canonical_order(rest)
        )
        yield tail + b"}\n"

    def close(self) -> None:
        for part in (*self._chunks, *self._tail, *self._chunk_lines, *self._tail_lines):
            if not isinstance(part, bytes):
                part[0].close()


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
    """The graph of an export of `scope` as the full export makes it (`plan_export`'s pass
    1 over the kept chunks, keeping nothing per memory but its id), its records checked
    against §2; None for an empty bundle, a memory without a kept chunk, or a graph that
    breaks a rule (the full export then says why). Streamed (`StreamedGraph`): the records
    go to temporary files as they are made, not held as objects; a bundle that needs what
    only `BundleAssembler` does is built by `build_graph_assembled`."""
    envelope, _ = export_envelope(vault, scope=scope, since=since, producer=producer)
    view = vault.export_view()
    found = view.cached_chunks(_query(envelope.get("since")), producer)
    if found is None:
        return None
    builder = StreamedGraph(producer)
    try:
        targets: set[str] = set()
        for memory_id, kept in found[1]:
            if kept is None:
                return None
            if scope == "DNA_ONLY" and not kept.dna:
                continue
            if not kept.exportable:
                continue
            builder.note(memory_id, kept.chunk_id, kept.block)
            if kept.graph != _EMPTY_GRAPH:
                targets.add(memory_id)
                targets.update(kept.refs)
            if not builder.usable:
                break
        first = builder.first
        if first is None:
            return None
        exported = builder.exported
        _add_relations(view, exported, targets, builder.add_relation)
        if not builder.usable:
            return build_graph_assembled(vault, scope, since, producer, generation)
        try:
            if not builder.build(BundleRules(envelope)):
                return None
            targets.add(first)
            graphs = _noting(builder.graphs(), targets)
            records = {
                name: functools.partial(builder.records, name)
                for name in ("entities", "edges", "chunk_entities")
            }
            return _kept_graph(generation, first, targets, exported, graphs, records)
        except CanonicalizationError:
            return None
    finally:
        builder.close()


def _add_relations(
    view: Any, exported: Container[str], targets: set[str], add: Callable[[Any], object]
) -> None:
    """The vault's relations into a graph builder (`add`) where both ends are exported, and
    both ends of every relation into `targets`."""
    for relation in view.relations():
        targets.add(relation.from_)
        targets.add(relation.to)
        if relation.from_ in exported and relation.to in exported:
            add(relation.to_json())


def _noting(graphs: Iterator[tuple[str, bytes]], targets: set[str]) -> Iterator[tuple[str, bytes]]:
    """`graphs`, adding each memory that carries one to `targets`."""
    for memory_id, graph in graphs:
        targets.add(memory_id)
        yield memory_id, graph


def build_graph_assembled(
    vault: Vault, scope: str, since: str | datetime | None, producer: str, generation: int
) -> KeptGraph | None:
    """`build_graph` made by `BundleAssembler` (every record and each memory's graph held
    as objects at once): what `build_graph` falls back to for a bundle `StreamedGraph`
    leaves to it."""
    envelope, _ = export_envelope(vault, scope=scope, since=since, producer=producer)
    view = vault.export_view()
    query = _query(envelope.get("since"))
    found = view.cached_chunks(query, producer)
    if found is None:
        return None
    assembler = BundleAssembler(producer, envelope=envelope)
    targets: set[str] = set()
    first: str | None = None
    for memory_id, kept in found[1]:
        if kept is None:
            return None
        if scope == "DNA_ONLY" and not kept.dna:
            continue
        if not kept.exportable:
            continue
        if first is None:
            first = memory_id
        assembler.note(_noted(memory_id, kept.block), kept.chunk_id)
        if kept.graph != _EMPTY_GRAPH:
            targets.add(memory_id)
            targets.update(kept.refs)
    if first is None:
        return None
    exported = assembler.chunk_ids
    _add_relations(view, exported, targets, assembler.add_relation)
    assembler.finish_graph()
    parts = assembler.parts
    carriers = set(parts.edges) | set(parts.entities) | set(parts.links)
    targets.update(carriers)
    targets.add(first)
    rules = BundleRules(envelope)
    rules.chunk_ids = set(exported.values())
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
    graphs = ((m, orjson.dumps(parts.for_memory(m), option=orjson.OPT_SORT_KEYS)) for m in carriers)
    made = {name: functools.partial(iter, written) for name, written in records.items()}
    return _kept_graph(generation, first, targets, exported, graphs, made)


def _kept_graph(
    generation: int,
    first: str,
    targets: set[str],
    exported: Container[str],
    graphs: Iterable[tuple[str, bytes]],
    records: Mapping[str, Callable[[], Iterable[bytes]]],
) -> KeptGraph:
    """The `KeptGraph` of graphs and records made, spooled to its temporary file."""
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the KeptGraph
    graph_at: dict[str, int] = {}
    offset = 0
    for memory_id, graph in graphs:  # one at a time: orjson's bytes keep ~4 KiB of room each
        graph_at[memory_id] = offset << 32 | len(graph)
        spool.write(graph)
        offset += len(graph)
    arrays: dict[str, tuple[int, int, int, int, int]] = {}
    for name, made in records.items():
        # Written a record at a time, twice: canonical and joined by commas, then as lines.
        count = size = 0
        for record in made():
            spool.write(b"," + record if count else record)
            size += len(record) + (1 if count else 0)
            count += 1
        tag = b'{"_kind":' + jcs_dumps(KIND_OF[name])
        lines = 0
        for record in made():
            line = tag + (b"," + record[1:] if record != b"{}" else b"}") + b"\n"
            spool.write(line)
            lines += len(line)
        arrays[name] = (offset, size, count, offset + size, lines)
        offset += size + lines
    parts: list[tuple[int, int]] = []
    for index_lines in (
        (orjson.dumps(m) + b"\t%d\n" % at for m, at in graph_at.items()),
        (orjson.dumps(t) + b"\n" for t in targets),
        (orjson.dumps(t) + b"\n" for t in targets if t in exported),
    ):
        start = offset
        for line in index_lines:  # a line at a time: the index is not held twice
            spool.write(line)
            offset += len(line)
        parts.append((start, offset - start))
    spool.flush()
    digests = array("Q", sorted({_digest(t) for t in targets}))
    index_at = (parts[0], parts[1], parts[2])
    return KeptGraph(generation, first, spool, arrays, index_at, digests)


def _ids(lines: bytes) -> list[str]:
    return [orjson.loads(line) for line in lines.splitlines()]


def _digest(text: str) -> int:
    """A 64-bit digest of `text` (BLAKE2b): sets of them stand for sets of ids in memory."""
    data = text.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest())


def _graph_key(scope: str, since: str | datetime | None, producer: str) -> tuple[str, ...]:
    return ("aimem-graph", scope, str(since), producer)


def _errors(problems: list[Any]) -> bool:
    return any(p.severity == "error" for p in problems)


@dataclass(slots=True)
class KeptDownload:
    """What `kept_download` made: the records kept (`KeptRecords`), the envelope with its
    checksum, and the counts. Not yet in the export registry (`record`)."""

    records: KeptRecords
    envelope: dict[str, Any]
    checksum: str
    chunks: int
    withheld: int
    moment: datetime
    #: `Store.export_graph_generation` the records were made under
    graph_generation: int | None = None

    def record(self, vault: Vault) -> None:
        """The export in the vault's export registry (and its audit entry)."""
        record_export_made(vault, self.envelope, self.moment, self.chunks, self.checksum, None)


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
    windows = view.chunks_in_order(query, producer)
    if generation is None or windows is None:
        return None
    # The graph first, when it must be built: its peak (every memory's id, chunk id and
    # graph as objects) then does not add to what the pass below holds (each memory's id,
    # size, refs and graph bytes).
    key = _graph_key(scope, since, producer)
    graph = view.kept(key)
    if not isinstance(graph, KeptGraph) or graph.generation != generation:
        built = build_graph(vault, scope, since, producer, generation)
        if built is None:
            return None
        view.keep(key, built)
    ids: list[str] = []
    # Two memories with one chunk id send the export the full way: told by 64-bit digests
    # (a coincidence of two costs a full export, never a wrong one), not 50,000 strings.
    chunk_ids: set[int] = set()
    sizes = array("q")  # a machine word a chunk, not an int object
    withheld = 0
    # (id, refs, where its kept graph is in `graphs`, -1 for none) to check
    checks: list[tuple[str, str, int]] = []
    # One pass over the kept chunks: their bytes go to a spool as they are read (each page
    # decrypted once, memory bounded by a window), checked once every id is known; the
    # graphs they carry to another.
    raw = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    graphs = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    try:
        graphs_end = 0
        for window in windows:
            out: list[bytes] = []
            for memory_id, chunk_id, refs, dna, exportable, graph, canonical, _ in window:
                if chunk_id is None:
                    return None  # not kept (a vault from before migration 13, unmappable)
                if scope == "DNA_ONLY" and not dna:
                    continue
                if not exportable:
                    withheld += 1
                    continue
                ids.append(memory_id)
                chunk_ids.add(_digest(chunk_id))
                sizes.append(len(canonical))
                out.append(canonical)
                if graph != _EMPTY_GRAPH:
                    checks.append((memory_id, refs, graphs_end << 32 | len(graph)))
                    graphs.write(graph)
                    graphs_end += len(graph)
                elif refs:
                    checks.append((memory_id, refs, -1))
            raw.write(b"".join(out))
        graphs.flush()
        made = _from_spool(vault, view, raw, ids, chunk_ids, sizes, checks, graphs, scope, since,
                           envelope, generation)  # fmt: skip
    finally:
        raw.close()
        graphs.close()
    if made is None:
        return None
    try:
        if view.export_state() != state:
            made.close()
            return None  # written while it read: the full export reads again
        with fence.publishing():  # ErasedMeanwhile: read again (AIMEM §5.2)
            pass
        checksum = made.checksum(envelope)
    except BaseException:
        made.close()
        raise
    envelope = {**envelope, "checksum": checksum}
    return KeptDownload(made, envelope, checksum, len(ids), withheld, moment, generation)


def appended_download(
    vault: Vault,
    kept: AppendableRecords,
    *,
    kept_state: tuple[int, ...],
    graph_generation: int,
    chunks: int,
    withheld: int,
    scope: str,
    since: str | datetime | None,
    now: datetime | None,
    state: tuple[int, ...],
) -> KeptDownload | None:
    """The download of `scope` as the last one (`kept`, made at `kept_state`) with the
    memories added since at its end: only those are read, and hashed on from the SHA-256
    state kept after the last chunk (AIMEM §2.8). `state` is `export_state` as read before
    anything else. None unless nothing but memories was added since (no memory changed or
    deleted, no relation written: the first member of the state; the graph generation
    unchanged), each added one kept, naming no other memory and carrying no graph, and
    named by no chunk kept or graph record (its id not among `dangling`, the graph's
    targets, or another memory's chunk id): then the bundle is the kept one with those
    chunks appended, as the full export writes it."""
    if since is not None or scope not in ("FULL", "DNA_ONLY") or kept.runs >= _MOST_RUNS:
        return None
    if len(state) != 2 or len(kept_state) != 2 or state[0] != kept_state[0]:
        return None
    if state[1] <= kept_state[1]:
        return None
    view = vault.export_view()
    fence = view.erasure_fence()  # before the first read (AIMEM §5.2)
    envelope, moment = export_envelope(vault, scope=scope, since=since, now=now)
    if not kept.fits(envelope):
        return None
    producer = envelope["producer"]
    generation = view.graph_generation()
    graph = view.kept(_graph_key(scope, since, producer))
    if generation != graph_generation or not isinstance(graph, KeptGraph):
        return None
    if graph.generation != generation:
        return None
    windows = view.chunks_in_order(_query(None), producer, after=kept_state[1])
    if windows is None:
        return None
    added: list[bytes] = []
    named: list[str] = []
    withheld_now = 0
    for window in windows:
        for memory_id, chunk_id, refs, dna, exportable, kept_graph, canonical, _ in window:
            if chunk_id is None or refs or kept_graph != _EMPTY_GRAPH:
                return None
            if memory_id in kept.dangling or graph.may_name(memory_id):
                return None
            if parse_chunk_urn(memory_id) is not None:
                return None  # an id that is a chunk URN: its chunk id may be another's
            named.append(chunk_id)
            if scope == "DNA_ONLY" and not dna:
                continue
            if not exportable:
                withheld_now += 1
                continue
            added.append(canonical)
    # A memory whose id is an added chunk's id would export under that chunk id too.
    if named and view.existing_ids(named):
        return None
    if view.export_state() != state:
        return None  # written while it read: the caller reads again
    with fence.publishing():  # ErasedMeanwhile: read again (AIMEM §5.2)
        pass
    records = kept.appended(added) if added else kept
    checksum = records.checksum(envelope)
    envelope = {**envelope, "checksum": checksum}
    return KeptDownload(
        records, envelope, checksum, chunks + len(added), withheld + withheld_now, moment,
        generation,
    )  # fmt: skip


def _from_spool(
    vault: Vault,
    view: Any,
    raw: Any,
    ids: list[str],
    chunk_ids: set[int],
    sizes: array[int],
    checks: list[tuple[str, str, int]],
    kept_graphs: IO[bytes],
    scope: str,
    since: str | datetime | None,
    envelope: dict[str, Any],
    generation: int,
) -> KeptRecords | None:
    """Check the chunks read against the bundle's graph and ids, map again those that fail
    (and the first), and make the records (`_spool`)."""
    producer = envelope["producer"]
    if not ids or len(chunk_ids) != len(ids):
        return None  # empty, or two memories with one natural chunk id: the full export
    chunk_ids.clear()  # checked: its memory goes before the graph may be built
    exported = set(ids)
    key = _graph_key(scope, since, producer)
    graph = view.kept(key)
    if not isinstance(graph, KeptGraph) or not graph.holds(generation, ids[0], exported):
        graph = build_graph(vault, scope, since, producer, generation)
        if graph is None:
            return None
        view.keep(key, graph)
        if not graph.holds(generation, ids[0], exported):
            return None  # written meanwhile
    misses = {ids[0]}  # the first chunk carries the bundle's own fields: mapped each time
    fd = kept_graphs.fileno()
    graph_at = graph.graph_index()
    for memory_id, refs, at in checks:
        kept_graph = _EMPTY_GRAPH if at < 0 else os.pread(fd, at & 0xFFFFFFFF, at >> 32)
        if kept_graph != (graph.graph_of(memory_id, graph_at) or _EMPTY_GRAPH) or not all(
            r in exported for r in refs.split()
        ):
            misses.add(memory_id)
    checked = {c[0] for c in checks}
    # A memory the bundle gives a graph its kept chunk does not carry: mapped again.
    misses.update(m for m in graph_at if m in exported and m not in checked)
    del graph_at
    if len(misses) > _MOST_MISSES:
        return None
    fresh = _map_again(vault, graph, envelope, producer, ids, exported, misses)
    if fresh is None:
        return None
    raw.seek(0)
    dangling = frozenset(r for c in checks for r in c[1].split() if r not in exported)
    return _spool(graph, raw, sizes, ids, fresh, envelope, dangling)


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
    assembler.parts = GraphParts()
    graph_at = graph.graph_index()
    for memory in memories:
        kept = graph.graph_of(memory.id, graph_at)
        if kept is not None:
            for name, items in orjson.loads(kept).items():
                getattr(assembler.parts, name)[memory.id] = items
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
    raw: Any,
    sizes: array[int],
    ids: list[str],
    fresh: dict[str, bytes],
    envelope: dict[str, Any],
    dangling: frozenset[str],
) -> AppendableRecords:
    """The bundle's records, hashed as they are written to two temporary files (the
    canonical form up to its last array, and the NDJSON lines): `KeptRecords`."""
    head = {k: v for k, v in envelope.items() if k != "checksum" and sorts_before_last_array(k)}
    canonical = tempfile.TemporaryFile()  # noqa: SIM115 - KeptRecords closes it
    lines = tempfile.TemporaryFile()  # noqa: SIM115
    try:
        hasher = CanonicalBundleHasher(head, ARRAYS, sink=canonical.write)
        wanted = len(ids)
        chunk_tag = _CHUNK_TAG
        chunk_state: Any = None
        split = line_split = 0
        for array in hasher.order:
            hasher.start(array)
            if array != "chunks":
                joined, count = graph.canonical(array)
                if count:
                    hasher.add_joined(array, [joined])
                continue
            for start in range(0, wanted, _SPOOL_WINDOW):
                stop = min(start + _SPOOL_WINDOW, wanted)
                block = memoryview(raw.read(sum(sizes[start:stop])))
                out: list[bytes] = []
                offset = 0
                for position in range(start, stop):
                    size = sizes[position]
                    again = fresh.get(ids[position])
                    out.append(again if again is not None else bytes(block[offset : offset + size]))
                    offset += size
                hasher.add_joined("chunks", [b",".join(out)])
                lines.write(b"".join(chunk_tag + d[1:] + b"\n" for d in out))
            # Where the last chunk ends: what a memory added later is appended at.
            chunk_state = hasher.state()
            split, line_split = canonical.tell(), lines.tell()
        canonical.write(b"]")
        digest = hasher.state()
        digest.update(b"]")
        for array in ("entities", "edges", "chunk_entities"):
            lines.write(graph.lines(array))
        canonical.flush()
        lines.flush()
    except BaseException:
        canonical.close()
        lines.close()
        raise
    end, line_end = canonical.tell(), lines.tell()
    return AppendableRecords(
        head, digest, chunk_state,
        [(canonical, 0, split)], [(canonical, split, end)],
        [(lines, 0, line_split)], [(lines, line_split, line_end)], dangling=dangling,
    )  # fmt: skip
