"""AIMEM exports from kept chunks (migration 13, `memvault.export_chunks`,
`memvault.exchange.aimem_kept`): a write only notes the memories it touched as pending; an
export maps those when it begins, and after every kind of write — import, create, update,
lifecycle, relation, erasure — the kept path is taken and writes exactly the bytes of an
export that maps every memory from scratch (§2.8: the same checksum), in both scopes and
both forms."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest

from aimemkit import bundle, chunk
from memvault.exchange.aimem import fill_bundle, plan_export
from memvault.exchange.aimem_kept import kept_download
from memvault.exchange.aimem_wire import export_download, import_stream
from memvault.export_chunks import map_pending
from memvault.formats.aimem import bundle_checksum
from memvault.formats.aimem.writer import BundleWriter
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import make_vault

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
PRODUCER = "memoryai-prod"


def urn(local: str) -> str:
    return f"urn:aimem:{PRODUCER}:{local}"


def graph_bundle(prefix: str = "c", created_at: str | None = None, n: int = 30) -> bytes:
    """Chunks with edges between them (one to a memory the bundle lacks), entities, links."""
    chunks = [
        chunk(f"{prefix}{i}", f"memory {prefix}{i}", ("fact", "preference", "goal")[i % 3])
        for i in range(n)
    ]
    if created_at is not None:
        for c in chunks:
            c["created_at"] = created_at
    chunks[4]["is_pinned"] = True
    doc = bundle(chunks)
    edges = [
        {
            "source_id": urn(f"{prefix}{i}"),
            "target_id": urn(f"{prefix}{(i * 7) % n}"),
            "edge_type": "semantic",
            "weight": 0.5,
            "created_at": "2026-04-15T08:00:00Z",
        }
        for i in range(0, n, 3)
    ]
    doc["edges"] = edges
    doc["entities"] = [
        {"id": urn("e1"), "name": "Lisbon", "kind": "place", "created_at": "2026-01-01T00:00:00Z"},
        {"id": urn("e2"), "name": "Porto", "kind": "place", "created_at": "2026-01-01T00:00:00Z"},
    ]
    doc["chunk_entities"] = [
        {"chunk_id": urn(f"{prefix}2"), "entity_id": urn("e1")},
        {"chunk_id": urn(f"{prefix}5"), "entity_id": urn("e2")},
    ]
    doc["checksum"] = bundle_checksum(doc)
    return orjson.dumps(doc)


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    with make_vault(tmp_path / "vault") as made:
        yield made


def from_scratch(vault: Vault, tmp_path: Path, scope: str, form: str) -> bytes:
    """Every memory mapped again (an export with embeddings asked for reads no kept chunk;
    these vaults have no vectors, so the bundle is the same)."""
    plan = plan_export(vault, scope=scope, now=NOW, embeddings=True)
    assert plan.generation is None
    name = tmp_path / ("reference.ndjson" if form == "ndjson" else "reference.aimem.json")
    writer = BundleWriter(name, plan.envelope, form=form)  # type: ignore[arg-type]
    fill_bundle(writer, plan)
    _, blocks = writer.finish_stream()
    return b"".join(blocks)


def from_kept(vault: Vault, scope: str, form: str) -> bytes:
    """The kept download, as `export_download` makes it: the pending memories mapped first."""
    vault.export_view().map_pending()
    state = vault.export_view().export_state()
    assert state is not None
    made = kept_download(vault, scope=scope, since=None, now=NOW, state=state)
    assert made is not None, "the export did not come from the kept chunks"
    try:
        return b"".join(made.records.blocks(made.envelope, form))  # type: ignore[arg-type]
    finally:
        made.records.close()


def ids(vault: Vault) -> list[str]:
    return [m.id for m in vault.iter_memories(MemoryQuery(limit=None, order="created"))]


def writes(tmp_path: Path) -> list[tuple[str, Callable[[Vault], object]]]:
    def add(v: Vault) -> object:
        return v.add("Plain memory added over the front door", "fact", tags=["added"])

    return [
        ("import", lambda v: import_stream(v, io.BytesIO(graph_bundle()))),
        ("create", add),
        ("update content", lambda v: v.update(ids(v)[7], content="memory c7, corrected")),
        ("update tags", lambda v: v.update(ids(v)[8], add_tags=["tagged-later"])),
        ("withhold", lambda v: v.update(ids(v)[9], exportable=False)),
        ("withhold an edge target", lambda v: v.update(ids(v)[21], exportable=False)),
        ("export again", lambda v: v.update(ids(v)[21], exportable=True)),
        ("retract", lambda v: v.retract(ids(v)[10])),
        ("archive", lambda v: v.archive(ids(v)[11])),
        ("supersede", lambda v: v.supersede(ids(v)[12], ids(v)[13])),
        ("relate", lambda v: v.relate(ids(v)[14], ids(v)[15], "supports")),
        ("erase an edge target", lambda v: v.erase(ids(v)[0])),
        ("erase a relation end", lambda v: v.erase(ids(v)[14])),
        ("erase the first", lambda v: v.erase(ids(v)[0])),
        ("import more", lambda v: import_stream(v, io.BytesIO(graph_bundle("d", n=12)))),
        (
            "import newer",
            lambda v: import_stream(
                v, io.BytesIO(graph_bundle("d", created_at="2026-09-01T00:00:00Z", n=12))
            ),
        ),
    ]


def test_aimem_2_8_kept_exports_equal_from_scratch_exports_after_every_kind_of_write(
    vault: Vault, tmp_path: Path
) -> None:
    """§2.8 differential: after each write of a sequence, the export read from the kept
    chunks (those the write left pending mapped as it begins) has the bytes (so the
    checksum) of one that maps every memory, for scopes FULL and DNA_ONLY and both forms;
    the export left no memory pending."""
    store = vault._store  # type: ignore[attr-defined]
    for label, write in writes(tmp_path):
        write(vault)
        for scope in ("FULL", "DNA_ONLY"):
            for form in ("ndjson", "json"):
                expected = from_scratch(vault, tmp_path, scope, form)
                assert from_kept(vault, scope, form) == expected, (label, scope, form)
                assert store.export_pending(10) == [], label


def test_aimem_3_1_the_stream_after_a_write_is_the_kept_export(
    vault: Vault, tmp_path: Path
) -> None:
    """§3.1 through `export_download`: after a bulk import and after one write, the stream
    equals the from-scratch export, its envelope (with the checksum) the first line."""
    import_stream(vault, io.BytesIO(graph_bundle()))
    for step in range(2):
        if step:
            vault.add("One more memory, written after the import", "fact")
        download = export_download(vault, form="ndjson", now=NOW)
        body = b"".join(download.blocks)
        assert body == from_scratch(vault, tmp_path, "FULL", "ndjson")
        first = orjson.loads(body.split(b"\n", 1)[0])
        assert first["checksum"] == download.checksum


def test_aimem_5_2_an_erased_memory_leaves_nothing_kept(vault: Vault) -> None:
    """§5.2: erasing a memory takes its kept chunk and its pending mark with it, and the
    next kept export does not hold it."""
    import_stream(vault, io.BytesIO(graph_bundle()))
    target = ids(vault)[6]
    store = vault._store  # type: ignore[attr-defined]
    map_pending(store)
    vault.update(ids(vault)[7], content="memory c7, pending when c6 is erased")
    vault.erase(target)
    rows = store.execute_raw(
        "SELECT count(*) FROM aimem_export_cache WHERE memory_id = ?", [target]
    )
    assert rows[0][0] == 0 and target not in (store.export_pending(100) or [])
    assert b"memory c6" not in from_kept(vault, "FULL", "ndjson")


def test_a_write_only_notes_its_memory_pending_and_the_export_maps_it(vault: Vault) -> None:
    """A write maps nothing (its memory's kept chunk is dropped, its id noted pending); the
    export that follows maps that memory alone, and one after it maps none."""
    import_stream(vault, io.BytesIO(graph_bundle()))
    store = vault._store  # type: ignore[attr-defined]
    assert map_pending(store) == 30  # the import's memories: mapped by the first export
    target = ids(vault)[3]
    vault.update(target, content="memory c3, corrected")
    rows = store.execute_raw(
        "SELECT count(*) FROM aimem_export_cache WHERE memory_id = ?", [target]
    )
    assert rows[0][0] == 0 and store.export_pending(10) == [target]
    download = export_download(vault, form="ndjson", now=NOW)
    body = b"".join(download.blocks)
    assert b"memory c3, corrected" in body
    assert store.export_pending(10) == [] and map_pending(store) == 0
    rows = store.execute_raw(
        "SELECT count(*) FROM aimem_export_cache WHERE memory_id = ?", [target]
    )
    assert rows[0][0] == 1


def test_a_write_that_rolls_back_notes_nothing_pending(vault: Vault) -> None:
    """The pending marks are written in the writing transaction: one that rolls back leaves
    the kept chunk as it was, and nothing pending."""
    import_stream(vault, io.BytesIO(graph_bundle()))
    store = vault._store  # type: ignore[attr-defined]
    map_pending(store)
    target = ids(vault)[3]
    before = store.execute_raw(
        "SELECT canonical FROM aimem_export_cache WHERE memory_id = ?", [target]
    )
    with pytest.raises(RuntimeError), vault.store.transaction():
        vault.update(target, content="never committed")
        raise RuntimeError("rolled back")
    after = store.execute_raw(
        "SELECT canonical FROM aimem_export_cache WHERE memory_id = ?", [target]
    )
    assert after == before and before and store.export_pending(10) == []


def appended_runs(vault: Vault, scope: str) -> int:
    """How many runs of chunks the kept download of `scope` is made of (one more each time
    an export appended the memories added since the last one)."""
    from memvault.exchange.aimem import producer_namespace
    from memvault.exchange.aimem_kept import AppendableRecords

    kept = vault.export_view().kept(("aimem-download", scope, "None", producer_namespace(vault)))
    records = getattr(kept, "records", None)
    return records.runs if isinstance(records, AppendableRecords) else 0


def test_aimem_2_8_an_export_after_memories_are_added_appends_them_to_the_last_one(
    vault: Vault, tmp_path: Path
) -> None:
    """§2.8/§3.1 differential through `export_download`: when memories were only added since
    the last export, the next one hashes on from the state kept after its last chunk and
    sends its records with the new chunks appended (its runs grow by one; a memory withheld
    or outside the scope adds none); after any other write it reads the kept chunks again.
    Either way every body equals the from-scratch export, in both scopes and both forms."""

    def add(v: Vault) -> object:  # another content each time: the same one reinforces
        return v.add(f"Plain memory {len(ids(v))} added after the export", "fact", tags=["x"])

    steps: list[tuple[str, Callable[[Vault], object], bool]] = [
        ("add", add, True),
        ("add another", add, True),
        ("add withheld", lambda v: v.add("Not for export", "fact", exportable=False), False),
        ("update", lambda v: v.update(ids(v)[3], content="memory c3, corrected"), False),
        ("add after the update", add, True),
        ("relate", lambda v: v.relate(ids(v)[-1], ids(v)[5], "supports"), False),
        ("import plain chunks", lambda v: import_stream(v, io.BytesIO(orjson.dumps(
            bundle([chunk(f"p{i}", f"plain chunk {i}") for i in range(3)])))), False),
        ("erase", lambda v: v.erase(ids(v)[-1]), False),
        ("add after the erasure", add, True),
    ]  # fmt: skip
    import_stream(vault, io.BytesIO(graph_bundle()))
    for scope in ("FULL", "DNA_ONLY"):
        b"".join(export_download(vault, scope=scope, form="ndjson", now=NOW).blocks)
    for label, write, appends in steps:
        write(vault)
        for scope in ("FULL", "DNA_ONLY"):
            runs = appended_runs(vault, scope)
            for n, form in enumerate(("ndjson", "json")):
                download = export_download(vault, scope=scope, form=form, now=NOW)
                body = b"".join(download.blocks)
                assert body == from_scratch(vault, tmp_path, scope, form), (label, scope, form)
                if n == 0 and scope == "FULL":  # (the memories added are not DNA)
                    grown = appended_runs(vault, scope) == runs + 1
                    assert grown == (appends and runs > 0), (label, scope)


def test_an_added_memory_whose_id_is_a_chunk_urn_is_not_appended(
    vault: Vault, tmp_path: Path
) -> None:
    """A memory added with a chunk URN for its id (an imported chunk) may export under
    another memory's chunk id: the export reads the kept chunks again instead of appending
    it, and equals the from-scratch export."""
    import_stream(vault, io.BytesIO(graph_bundle()))
    b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    state = vault.export_view().export_state()
    assert state is not None
    import_stream(vault, io.BytesIO(orjson.dumps(bundle([chunk("p1", "plain chunk")]))))
    after = vault.export_view().export_state()
    assert after is not None and after[0] == state[0]  # only added
    body = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    assert body == from_scratch(vault, tmp_path, "FULL", "ndjson")
    assert appended_runs(vault, "FULL") == 1


def test_the_kept_graph_records_are_read_from_disk_and_are_the_exported_ones(
    vault: Vault,
) -> None:
    """The graph kept per vault holds its records and each memory's graph in a temporary
    file, not in memory: what it reads back is the export's edges, entities and links (the
    NDJSON lines after the chunks), and each carrier's graph as its kept chunk carries it."""
    from memvault.exchange.aimem import producer_namespace
    from memvault.exchange.aimem_kept import KeptGraph

    import_stream(vault, io.BytesIO(graph_bundle()))
    body = b"".join(export_download(vault, form="ndjson", now=NOW).blocks)
    graph = vault.export_view().kept(("aimem-graph", "FULL", "None", producer_namespace(vault)))
    assert isinstance(graph, KeptGraph) and graph.spool.fileno() >= 0
    lines = body.split(b"\n")
    tail = b"".join(line + b"\n" for line in lines if line and b'"_kind":"chunk"' not in line)
    kept = b"".join(graph.lines(a) for a in ("entities", "edges", "chunk_entities"))
    assert kept and tail.endswith(kept)
    edges, count = graph.canonical("edges")
    assert count == len(orjson.loads(b"[" + edges + b"]")) > 0
    store = vault._store  # type: ignore[attr-defined]
    for memory_id, graph_bytes in graph.graphs().items():
        rows = store.execute_raw(
            "SELECT graph FROM aimem_export_cache WHERE memory_id = ?", [memory_id]
        )
        assert rows and rows[0][0] == graph_bytes == graph.graph_of(memory_id)
