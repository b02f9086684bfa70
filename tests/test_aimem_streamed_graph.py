"""The bundle graph built streamed (`memvault.formats.mapping.StreamedGraph`, used by
`memvault.exchange.aimem_kept.build_graph`) is byte for byte what `BundleAssembler` builds:
the edge, entity and link records in the bundle's order (AIMEM §2.4–§2.6) and the graph each
memory's chunk carries (``metadata.aimem``), on generated graphs whose positions are in
order, shuffled, repeated or beyond the arrays, with relations, and on vaults that imported
the reference corpus and generated bundles, after erasures, in both scopes."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from aimemkit import bundle, chunk, graph_bundle
from memvault.canonical import jcs_dumps
from memvault.exchange.aimem import export_envelope
from memvault.exchange.aimem_kept import KeptGraph, build_graph, build_graph_assembled
from memvault.exchange.aimem_wire import export_download, import_stream
from memvault.formats.aimem.validate import BundleRules
from memvault.formats.mapping import BundleAssembler, StreamedGraph
from memvault.vault import Vault
from vaultkit import make_vault

CORPUS = Path(__file__).parent / "aimem_corpus" / "valid"
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
ENVELOPE = {"format": "aimem-bundle", "version": "1", "producer": "p", "scope": "FULL"}


def _memories(seed: int, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """PAM memories whose ``metadata.aimem`` blocks carry edges, entities and links at
    positions chosen by `seed` (in order, shuffled, repeated, past the end), and relations."""
    rng = random.Random(seed)
    ids = [f"m{i}" for i in range(count)]
    mode = seed % 4
    positions: dict[str, int] = {"edges": 0, "entities": 0, "links": 0}

    def n(kind: str) -> int:
        positions[kind] += 1
        if mode == 0:
            return positions[kind] - 1
        if mode == 1:
            return rng.randrange(3 * count)
        if mode == 2:
            return rng.randrange(max(count // 3, 1))  # repeated positions
        return positions[kind] - 1 + rng.randrange(4)  # gaps, some past the end

    entity_ids = [f"urn:aimem:p:e{k}" for k in range(max(count // 4, 1))]
    memories = []
    for memory_id in ids:
        block: dict[str, Any] = {}
        if rng.random() < 0.6:
            block["edges"] = [
                {
                    "n": n("edges"),
                    "target_id": rng.choice([*ids, "gone"]),  # one that is not in the bundle
                    "edge_type": rng.choice(["semantic", "temporal", "x-own"]),
                    "weight": rng.choice([0.5, 1, 5e-05, 0.25]),
                    "created_at": "2026-04-01T09:30:00Z",
                }
                for _ in range(rng.randrange(1, 4))
            ]
        if rng.random() < 0.3:
            block["entities"] = [
                {
                    "n": n("entities"),
                    "id": rng.choice(entity_ids),  # the same entity noted twice: the first
                    "name": f"Entity {rng.randrange(100)}",
                    "kind": "person",
                    "created_at": "2026-04-01T09:30:00Z",
                }
            ]
        if rng.random() < 0.3:
            block["links"] = [
                {"n": n("links"), "entity_id": rng.choice([*entity_ids, "urn:aimem:p:none"])}
            ]
        if rng.random() < 0.1:
            block["tags"] = ["x"]
        memory: dict[str, Any] = {"id": memory_id, "content": f"memory {memory_id}"}
        if block:
            memory["metadata"] = {"aimem": block}
        memories.append(memory)
    relations = [
        {
            "id": f"r{k}",
            "from": rng.choice(ids),
            "to": rng.choice(ids),
            "type": "supports",
            "confidence": 0.75,
            "created_at": "2026-04-01T09:30:00Z",
        }
        for k in range(rng.randrange(3))
    ]
    return memories, relations


def _assembled(
    memories: list[dict[str, Any]], relations: list[dict[str, Any]]
) -> tuple[dict[str, list[bytes]], dict[str, bytes]]:
    assembler = BundleAssembler("p", envelope=ENVELOPE)
    for memory in memories:
        assembler.note(memory)
    for relation in relations:
        assembler.add_relation(relation)
    assembler.finish_graph()
    records = {
        "entities": [jcs_dumps(e) for e in assembler.entities],
        "edges": [jcs_dumps(e) for e in assembler.edges],
        "chunk_entities": [jcs_dumps(e) for e in assembler.links],
    }
    parts = assembler.parts
    graphs = {
        m: orjson.dumps(parts.for_memory(m), option=orjson.OPT_SORT_KEYS)
        for m in set(parts.edges) | set(parts.entities) | set(parts.links)
    }
    return records, graphs


def _streamed(
    memories: list[dict[str, Any]], relations: list[dict[str, Any]]
) -> tuple[dict[str, list[bytes]], dict[str, bytes]] | None:
    graph = StreamedGraph("p")
    try:
        for memory in memories:
            block = memory.get("metadata", {}).get("aimem")
            graph.note(memory["id"], None, None if block is None else orjson.dumps(block))
        for relation in relations:
            graph.add_relation(relation)
        if not graph.build(BundleRules(dict(ENVELOPE))):
            return None
        records = {a: list(graph.records(a)) for a in ("entities", "edges", "chunk_entities")}
        return records, dict(graph.graphs())
    finally:
        graph.close()


@pytest.mark.parametrize("seed", range(40))
def test_streamed_graph_is_byte_for_byte_the_assembled_one(seed: int) -> None:
    """AIMEM §2.4–§2.6: every record, in the bundle's order, and each memory's graph equal
    `BundleAssembler`'s, whether the positions the blocks kept fit the arrays or not."""
    memories, relations = _memories(seed, 5 + seed * 3)
    streamed = _streamed(memories, relations)
    assert streamed is not None
    assert streamed == _assembled(memories, relations)


def test_streamed_graph_leaves_two_memories_with_one_chunk_id_to_the_assembler() -> None:
    """A memory whose id is another's chunk id: `BundleAssembler` gives one of them a
    SHA-256 chunk id, so the streamed graph says it is not usable (the caller assembles)."""
    graph = StreamedGraph("p")
    try:
        graph.note("a", None, None)
        graph.note("urn:aimem:p:a", None, None)
        assert not graph.usable
        assert not graph.build()
    finally:
        graph.close()


def test_streamed_graph_refuses_a_record_that_breaks_a_rule() -> None:
    """AIMEM §2.4: an edge weight above 1 fails the check; `build` says so (the export then
    takes the full path, which names the rule)."""
    memories = [
        {
            "id": "a",
            "content": "a",
            "metadata": {
                "aimem": {
                    "edges": [
                        {
                            "n": 0,
                            "target_id": "b",
                            "edge_type": "semantic",
                            "weight": 2,
                            "created_at": "2026-04-01T09:30:00Z",
                        }
                    ]
                }
            },
        },
        {"id": "b", "content": "b"},
    ]
    assert _streamed(memories, []) is None


# -- on vaults: `build_graph` (streamed) against `build_graph_assembled` ------------------------


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    with make_vault(tmp_path / "vault") as made:
        yield made


def _both(vault: Vault, scope: str) -> tuple[KeptGraph | None, KeptGraph | None]:
    view = vault.export_view()
    view.map_pending()
    envelope, _ = export_envelope(vault, scope=scope, since=None)
    generation = view.graph_generation()
    assert generation is not None
    producer = envelope["producer"]
    return (
        build_graph(vault, scope, None, producer, generation),
        build_graph_assembled(vault, scope, None, producer, generation),
    )


def _same(streamed: KeptGraph | None, assembled: KeptGraph | None) -> None:
    assert (streamed is None) == (assembled is None)
    if streamed is None or assembled is None:
        return
    assert streamed.first == assembled.first
    assert streamed.targets() == assembled.targets()
    assert streamed.present() == assembled.present()
    assert streamed.target_digests == assembled.target_digests
    assert streamed.graphs() == assembled.graphs()
    for array in ("entities", "edges", "chunk_entities"):
        assert streamed.canonical(array) == assembled.canonical(array)
        assert streamed.lines(array) == assembled.lines(array)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.aimem.json")), ids=lambda p: p.name)
def test_kept_graph_streamed_equals_assembled_on_the_reference_corpus(
    vault: Vault, path: Path
) -> None:
    """Each valid file of the AIMEM reference corpus imported: the graph kept for its
    exports is the same streamed as assembled, in both scopes."""
    import_stream(vault, io.BytesIO(path.read_bytes()))
    for scope in ("FULL", "DNA_ONLY"):
        _same(*_both(vault, scope))


def test_kept_graph_streamed_equals_assembled_after_erasures_and_relations(
    vault: Vault, tmp_path: Path
) -> None:
    """A generated graph bundle, then memories erased (edges to them dropped, positions
    past the arrays), relations written (x-pam edges after the others), a memory withheld
    from exports: the streamed graph equals the assembled one, and the download made from it
    equals the export made from scratch (AIMEM §2.8: the same bytes, the same checksum)."""
    chunks = [chunk(f"c{i}", f"memory c{i}", ("fact", "preference")[i % 2]) for i in range(60)]
    import_stream(vault, io.BytesIO(orjson.dumps(graph_bundle(chunks))))
    streamed, assembled = _both(vault, "FULL")
    assert streamed is not None and streamed.graphs() and streamed.canonical("edges")[1]
    _same(streamed, assembled)
    ids = [m.id for m in vault.export_view().iter_memories(_all())]
    vault.erase(ids[3])
    vault.erase(ids[10])  # it carried an entity's link
    vault.relate(ids[0], ids[5], "supports", confidence=0.5)
    vault.relate(ids[7], ids[2], "extends")
    for scope in ("FULL", "DNA_ONLY"):
        _same(*_both(vault, scope))
    assert vault.export_view().relations_of(ids[0])
    body = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    from memvault.exchange.aimem import fill_bundle, plan_export
    from memvault.formats.aimem.writer import BundleWriter

    plan = plan_export(vault, scope="FULL", now=NOW, embeddings=True)
    writer = BundleWriter(tmp_path / "scratch.ndjson", plan.envelope, form="ndjson")
    fill_bundle(writer, plan)
    writer.finish()
    assert body == (tmp_path / "scratch.ndjson").read_bytes()


def _all() -> Any:
    from memvault.model import MEMORY_STATUSES
    from memvault.store.base import MemoryQuery

    return MemoryQuery(statuses=MEMORY_STATUSES, limit=None, order="created")


@pytest.mark.parametrize(
    "memory_id",
    [
        "2f1c5a52-7b1e-4c55-9a1f-2f0f5d3c9e10",
        "plain",
        "with:colon",
        "with%percent",
        "with space",
        "naïve",
        "",
        "x" * 256,
        "x" * 257,
        "urn:aimem:p:already",
        "urn:aimem:other:chunk",
        "URN:AIMEM:p:shouting",
        "urn:aimem:p",
        "urn:aimem:p:",
        "urn:aimem:p:bad local",
        "urn:aimem:pp:x",
        ":" * 86,
        ":" * 85 + "x",
        "\x7f",
    ],
)
def test_natural_chunk_id_is_chunk_id_for(memory_id: str) -> None:
    """AIMEM §2.3: the quick way to a memory's chunk URN gives what `chunk_id_for` gives."""
    from memvault.formats.mapping import chunk_id_for, natural_chunk_id

    assert natural_chunk_id(memory_id, "p") == chunk_id_for(memory_id, "p")


def test_kept_graph_index_on_disk_reads_back_every_id() -> None:
    """The kept graph's index is lines in its spool: ids with newlines, tabs, quotes,
    backslashes and non-ASCII read back exactly, and the digests in memory tell a target
    from a memory the graph does not name."""
    from memvault.exchange.aimem_kept import _kept_graph

    odd = ["plain", "new\nline", "tab\there", 'quote"d', "back\\slash", "naïve ✓", "cr\rlf\r\n"]
    graphs = [(m, orjson.dumps({"edges": [{"n": i}]})) for i, m in enumerate(odd)]
    targets = {*odd, "gone"}
    records = {name: list for name in ("entities", "edges", "chunk_entities")}
    graph = _kept_graph(7, "plain", targets, set(odd), iter(graphs), records)
    try:
        assert graph.graph_index().keys() == set(odd)
        assert graph.graphs() == dict(graphs)
        assert graph.targets() == targets
        assert graph.present() == set(odd)
        assert all(graph.may_name(t) for t in targets)
        assert not graph.may_name("not named")
        assert graph.holds(7, "plain", set(odd))
        assert not graph.holds(7, "plain", {*odd, "gone"})  # a target came back
        assert not graph.holds(8, "plain", set(odd))
        assert graph.canonical("edges") == (b"", 0)
    finally:
        graph.spool.close()


def test_a_download_that_mapped_many_memories_gives_the_writer_back_first(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A download that maps a bulk of pending memories hands what the writer connection
    gathered doing it (page cache, prepared statements) back before it reads (a fresh
    writer), and sends the same bytes as the next download, which maps none."""
    from memvault.exchange import aimem_wire

    chunks = [chunk(f"c{i}", f"memory c{i}") for i in range(20)]
    import_stream(vault, io.BytesIO(orjson.dumps(graph_bundle(chunks))))
    monkeypatch.setattr(aimem_wire, "_RELEASE_AFTER", 20)
    store = vault._store  # type: ignore[attr-defined]
    writer = store._conn
    first = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    assert store._conn is not writer
    writer = store._conn
    again = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    assert store._conn is writer  # nothing mapped: nothing to give back
    assert first == again


def test_two_memories_with_one_chunk_id_are_assembled_and_export_as_from_scratch(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AIMEM §2.3: a memory whose id is the vault's own chunk URN of another memory's id
    ("x" beside ``urn:aimem:<producer>:x``): the streamed builder leaves the graph to
    `BundleAssembler` (which gives one of them a SHA-256 chunk id), and the download is the
    from-scratch export."""
    from memvault.exchange import aimem_kept
    from memvault.exchange.aimem import fill_bundle, plan_export, producer_namespace
    from memvault.formats.aimem.writer import BundleWriter

    producer = producer_namespace(vault)
    first = chunk("x", "memory a", producer=producer)
    second = chunk("y", "memory b", producer=producer)
    second["x-pam"] = {"set": {"id": "x"}}
    import_stream(vault, io.BytesIO(orjson.dumps(bundle([first, second], producer=producer))))
    assembled: list[str] = []
    original = aimem_kept.build_graph_assembled

    def watched(*args: Any) -> KeptGraph | None:
        assembled.append(args[3])
        return original(*args)

    monkeypatch.setattr(aimem_kept, "build_graph_assembled", watched)
    body = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    assert assembled == [producer]
    plan = plan_export(vault, scope="FULL", now=NOW, embeddings=True)
    writer = BundleWriter(tmp_path / "scratch.ndjson", plan.envelope, form="ndjson")
    fill_bundle(writer, plan)
    writer.finish()
    assert body == (tmp_path / "scratch.ndjson").read_bytes()
