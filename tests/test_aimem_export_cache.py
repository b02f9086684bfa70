"""The kept chunk bytes of AIMEM exports (migration 6, `Store.export_chunk_rows`): an export
that reuses them writes exactly the bytes one that maps every memory writes (§2.8: the same
checksum), and a kept chunk never outlives a change of its memory or of a relation touching
it, nor the memory itself (§5.2)."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest

from aimemkit import bundle, chunk
from memvault.exchange.aimem import fill_bundle, plan_export
from memvault.exchange.aimem_wire import export_download, import_stream
from memvault.formats.aimem import bundle_checksum
from memvault.formats.aimem.writer import BundleWriter
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import make_vault

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
PRODUCER = "memoryai-prod"


def urn(local: str) -> str:
    return f"urn:aimem:{PRODUCER}:{local}"


def graph_bundle() -> bytes:
    """Chunks of every kind the cache must get right: DNA-class, pinned, withheld-able,
    with edges between them, entities and links."""
    chunks = [
        chunk(f"c{i}", f"memory {i}", ("fact", "preference", "decision")[i % 3], tags=["t"])
        for i in range(40)
    ]
    chunks[5]["is_pinned"] = True
    doc = bundle(chunks)
    doc["edges"] = [
        {
            "source_id": urn(f"c{i}"),
            "target_id": urn(f"c{(i * 7) % 40}"),
            "edge_type": "semantic",
            "weight": 0.25,
            "created_at": "2026-04-15T08:00:00Z",
        }
        for i in range(0, 40, 3)
    ]
    doc["entities"] = [
        {"id": urn("e1"), "name": "Lisbon", "kind": "place", "created_at": "2026-01-01T00:00:00Z"}
    ]
    doc["chunk_entities"] = [{"chunk_id": urn("c2"), "entity_id": urn("e1")}]
    doc["checksum"] = bundle_checksum(doc)
    return orjson.dumps(doc)


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    with make_vault(tmp_path / "vault") as made:
        import_stream(made, io.BytesIO(graph_bundle()))
        yield made


def cached(vault: Vault, scope: str = "FULL") -> bytes:
    download = export_download(vault, scope=scope, form="ndjson", now=NOW)
    return b"".join(download.blocks)


def mapped(vault: Vault, tmp_path: Path, scope: str = "FULL") -> bytes:
    """The export with every memory mapped again (an export with embeddings asked for keeps
    nothing; this vault has none, so the bundle is the same)."""
    plan = plan_export(vault, scope=scope, now=NOW, embeddings=True)
    assert plan.generation is None
    writer = BundleWriter(tmp_path / "reference.ndjson", plan.envelope, form="ndjson")
    fill_bundle(writer, plan)
    _, blocks = writer.finish_stream()
    return b"".join(blocks)


def kept_ids(vault: Vault) -> set[str]:
    rows = vault._store.execute_raw("SELECT memory_id FROM aimem_export_cache")  # type: ignore[attr-defined]
    return {row[0] for row in rows}


def memory_ids(vault: Vault) -> list[str]:
    return [m.id for m in vault.iter_memories(MemoryQuery(limit=None))]


@pytest.mark.parametrize("scope", ["FULL", "DNA_ONLY"])
def test_aimem_2_8_kept_chunks_give_the_bytes_of_a_full_mapping(
    vault: Vault, tmp_path: Path, scope: str
) -> None:
    """§2.8: the first export keeps every chunk but the first; the next reuses them and writes
    the same bytes (so the same checksum) as an export that maps every memory."""
    reference = mapped(vault, tmp_path, scope)
    first = cached(vault, scope)
    assert first == reference
    assert len(kept_ids(vault)) >= 10
    assert cached(vault, scope) == reference


def kept_chunk(vault: Vault, memory_id: str) -> bytes:
    rows = vault._store.execute_raw(  # type: ignore[attr-defined]
        "SELECT canonical FROM aimem_export_cache WHERE memory_id = ?", [memory_id]
    )
    [(canonical,)] = rows
    return bytes(canonical)


def test_aimem_2_8_a_changed_memory_is_mapped_again(vault: Vault, tmp_path: Path) -> None:
    """Updating a memory drops its kept chunk and notes it pending (migration 13); the next
    export maps it again as it begins: the kept bytes carry the new content, and the export
    equals a full mapping."""
    cached(vault)
    target = memory_ids(vault)[7]
    assert target in kept_ids(vault)
    vault.update(target, content="memory 7, corrected")
    store = vault._store  # type: ignore[attr-defined]
    assert target not in kept_ids(vault) and store.export_pending(10) == [target]
    after = cached(vault)
    assert b"memory 7, corrected" in kept_chunk(vault, target)
    assert b"memory 7, corrected" in after
    assert after == mapped(vault, tmp_path)


def test_aimem_2_8_a_new_relation_maps_both_ends_again(vault: Vault, tmp_path: Path) -> None:
    """A PAM relation travels as an x-pam edge and in its ends' chunks: adding one drops
    both ends' kept chunks and notes them pending, the next export maps them again, and it
    equals a full mapping."""
    cached(vault)
    ids = memory_ids(vault)
    store = vault._store  # type: ignore[attr-defined]
    graph = store.export_graph_generation()
    vault.relate(ids[10], ids[11], "supports")
    assert not {ids[10], ids[11]} & kept_ids(vault)
    assert sorted(store.export_pending(10)) == sorted([ids[10], ids[11]])
    assert store.export_graph_generation() != graph
    assert cached(vault) == mapped(vault, tmp_path)
    assert {ids[10], ids[11]} <= kept_ids(vault)
    assert store.export_pending(10) == []


def test_aimem_5_2_erased_memory_leaves_no_kept_chunk(vault: Vault, tmp_path: Path) -> None:
    """§5.2: erasing a memory deletes its kept chunk with it; the export no longer holds it
    and still equals a full mapping (the edges to it are left out)."""
    cached(vault)
    target = memory_ids(vault)[14]
    assert target in kept_ids(vault)
    vault.erase(target)
    assert target not in kept_ids(vault)
    after = cached(vault)
    assert b"memory 14" not in after
    assert after == mapped(vault, tmp_path)


def test_kept_chunks_are_not_kept_after_a_write_during_the_export(vault: Vault) -> None:
    """The generation check: chunks read before a write are not kept after it (they may be
    stale), so an export racing a change never leaves stale bytes behind."""
    store = vault._store  # type: ignore[attr-defined]
    generation = store.export_cache_generation()
    vault.update(memory_ids(vault)[3], content="changed meanwhile")
    assert store.export_cache_generation() != generation
    plan = plan_export(vault, now=NOW)
    assert plan.generation is not None
    from memvault.store.base import CachedChunk

    row = CachedChunk(memory_ids(vault)[3], "urn:x", b"{}", (), False, True, None, b"{}")
    assert store.put_export_chunks(PRODUCER, [row], generation) is False
    assert store.put_export_chunks(PRODUCER, [row], plan.generation) is True


def test_an_agents_export_keeps_nothing(vault: Vault) -> None:
    """An agent's export maps what it may read every time: it neither reads nor keeps
    chunks (they are the owner's view)."""
    ids = memory_ids(vault)
    vault.grant(ids[1], "agent-z", ["read"])
    agent = vault.acting_as("agent-z")
    before = {i: kept_chunk(vault, i) for i in kept_ids(vault)}
    plan = plan_export(agent, now=NOW)
    assert plan.generation is None and plan.ids == [ids[1]]
    download = export_download(agent, form="ndjson", now=NOW)
    body = b"".join(download.blocks)
    assert body.count(b'"_kind":"chunk"') == 1
    assert {i: kept_chunk(vault, i) for i in kept_ids(vault)} == before


def test_aimem_5_2_a_streamed_export_racing_an_erasure_never_holds_it(tmp_path: Path) -> None:
    """§5.2 for the stream: the export reads while an erasure's transaction is open (readers
    still see the memory), and may send only after checking that no erasure committed since
    it began; the erasure commits, so the export reads again — the bytes sent hold no trace
    of the erased memory, and every other memory."""
    secret = "Snorkelwomp is the owner's childhood nickname"
    with make_vault(tmp_path / "race") as vault:
        for n in range(300):
            vault.add(f"Ordinary memory {n} about the allotment", "fact")
        target = vault.add(secret, "fact").memory
        sent: list[bytes] = []
        errors: list[BaseException] = []

        def run() -> None:
            try:
                download = export_download(vault, form="ndjson")
                sent.append(b"".join(download.blocks))
            except BaseException as exc:  # handed to the test thread
                errors.append(exc)

        exporter = threading.Thread(target=run)
        with vault.store.transaction():
            vault.erase(target.id)  # not committed yet
            exporter.start()
            time.sleep(1.0)  # the export reads the vault as it was, then waits to send
            assert not sent
        exporter.join(60)
        assert not errors, errors
        [body] = sent
        assert secret.encode() not in body and target.id.encode() not in body
        assert body.count(b"about the allotment") == 300
