"""A bundle of plain chunks is imported reading each chunk once after the checksum pass
(`memvault.exchange.aimem_rows`, `_Importer._one_pass`), and stores exactly what the two
passes stored; anything else rolls the one pass back and takes the two passes, so every
refusal is the one it was (AIMEM §2, §2.9, §3.2).

The differential tests import the same bundles once in one pass and once in two
(`aimem._ONE_PASS` off) and compare results or refusals, exports byte for byte, and every
row of the tables the import writes, audit entries included.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import aimemkit
from memvault.exchange import aimem
from memvault.exchange.aimem import BundleRefused, export_bundle, import_bundle
from memvault.exchange.aimem_rows import ChunkRows, PackedGraph
from memvault.exchange.aimem_wire import import_stream
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.aimem.validate import BundleRules
from memvault.formats.mapping import chunk_to_memory, graph_parts
from memvault.memory_rows import plain_row
from test_aimem_import_rows import (
    CORPUS,
    CORPUS_FILES,
    _bundle,
    _chunk_variants,
    _import_all,
    _rows,
)
from vaultkit import make_vault

NOW = datetime(2026, 6, 20, 12, 0, tzinfo=UTC)
PRODUCER = aimemkit.PRODUCER
OWNER = "22222222-2222-4222-8222-222222222222"


def _passes(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of one-pass batches written and of two-pass validation passes run."""
    counts = {"one-pass batches": 0, "two passes": 0}
    add_rows, first_pass = aimem._Importer._add_rows, aimem._Importer._first_pass

    def counted_rows(self: Any, *args: Any) -> Any:
        counts["one-pass batches"] += 1
        return add_rows(self, *args)

    def counted_pass(self: Any) -> Any:
        counts["two passes"] += 1
        return first_pass(self)

    monkeypatch.setattr(aimem._Importer, "_add_rows", counted_rows)
    monkeypatch.setattr(aimem._Importer, "_first_pass", counted_pass)
    return counts


def test_a_plain_bundle_is_read_in_one_pass_and_others_in_two_aimem_2_9(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain chunks (tags PAM cannot hold, pins, zones, extension members, no content_hash
    among them) take the one pass; a bundle with x-pam, or with chunks the vault has, is
    rolled back and read in two passes (so the tests below compare two ways)."""
    counts = _passes(monkeypatch)
    plain = aimemkit.write(tmp_path / "plain.aimem.json", _bundle(2500, seed=1))
    mixed = _bundle(300, seed=2)
    mixed["chunks"][250]["x-pam"] = {"set": {"summary": "a summary from PAM"}}
    mixed["checksum"] = bundle_checksum(mixed)
    vault = make_vault(tmp_path / "v", owner_id=OWNER)
    try:
        assert import_bundle(vault, plain, now=NOW).created == 2500
        assert counts == {"one-pass batches": 3, "two passes": 0}
        mixed_path = aimemkit.write(tmp_path / "mixed.aimem.json", mixed)
        assert import_bundle(vault, mixed_path, now=NOW).created == 300
        assert counts == {"one-pass batches": 3, "two passes": 1}
        again = import_bundle(vault, plain, now=NOW)  # §2.9 rule 1: the vault has them
        assert (again.created, again.unchanged) == (0, 2500)
        # its first batch found the ids in the vault, and was rolled back
        assert counts == {"one-pass batches": 4, "two passes": 2}
    finally:
        vault.close()


def test_one_pass_stores_exactly_what_two_passes_stored_aimem_2_9(tmp_path: Path) -> None:
    """Generated bundles in turn (plain, plain with a late x-pam chunk, one repeating the
    first one's chunks with new ones): the same results, exports byte for byte, rows."""
    plain = _bundle(2600, seed=1)
    late = _bundle(1500, seed=2)
    late["chunks"][1400]["x-pam"] = {"set": {"summary": "s"}}
    late["checksum"] = bundle_checksum(late)
    again = _bundle(1200, seed=1)
    again["chunks"] += _bundle(40, seed=3)["chunks"]
    again["checksum"] = bundle_checksum(again)
    bundles = [
        aimemkit.write(tmp_path / f"{name}.aimem.json", doc)
        for name, doc in (("plain", plain), ("late", late), ("again", again))
    ]
    one = _import_all(tmp_path, "one", bundles, one_pass=True)
    two = _import_all(tmp_path, "two", bundles, one_pass=False)
    assert one[0] == two[0]
    assert one[1] == two[1]
    for table in two[2]:
        assert one[2][table] == two[2][table], table
    assert one[0][0]["created"] == 2600


@pytest.mark.parametrize("rel", CORPUS_FILES)
def test_every_corpus_file_imports_in_one_pass_as_in_two_aimem_4(rel: str, tmp_path: Path) -> None:
    one = _import_all(tmp_path, "one", [CORPUS / rel], one_pass=True)
    two = _import_all(tmp_path, "two", [CORPUS / rel], one_pass=False)
    assert one == two


def test_a_bad_chunk_after_written_batches_rolls_the_one_pass_back_aimem_3_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A malformed chunk after two batches were written: the one pass is rolled back, the
    two passes refuse the bundle with the problems they always named (422), and the vault
    holds nothing of it — no memory, no audit entry."""
    counts = _passes(monkeypatch)
    doc = _bundle(2500, seed=4)
    doc["chunks"][2400]["memory_type"] = "note"
    doc["checksum"] = bundle_checksum(doc)
    path = aimemkit.write(tmp_path / "bad.aimem.json", doc)
    vault = make_vault(tmp_path / "v", owner_id=OWNER)
    try:
        audit_before = len(vault.audit_entries())
        with pytest.raises(BundleRefused) as refused, path.open("rb") as body:
            import_stream(vault, body, now=NOW)
        assert refused.value.status == 422
        assert [p.code for p in refused.value.problems] == ["memory-type-invalid"]
        assert refused.value.problems[0].path == "/chunks/2400/memory_type"
        assert counts == {"one-pass batches": 2, "two passes": 1}
        assert _rows(vault)["memories"] == []
        assert len(vault.audit_entries()) == audit_before
    finally:
        vault.close()
    monkeypatch.undo()
    one = _import_all(tmp_path, "one", [path], one_pass=True)
    two = _import_all(tmp_path, "two", [path], one_pass=False)
    assert one == two


def test_a_plain_chunk_becomes_the_row_the_two_passes_make_aimem_2_2() -> None:
    """`ChunkRows.row` of every corpus chunk and every changed one: None, or — for a chunk
    the validator finds no error in — the row `plain_row` makes of `chunk_to_memory`'s
    memory and the digest of the chunk's fields (§2.9)."""
    chunks = [c for c in _chunk_variants() if isinstance(c, dict)]
    unique = list({str(c.get("id")): c for c in chunks}.values())  # ids are unique in a bundle
    envelope = aimemkit.envelope()
    made = ChunkRows(BundleRules(envelope).producer, PRODUCER, PackedGraph({}))
    taken = 0
    for n, chunk in enumerate(unique):
        out = made.row(chunk)
        if out is None:
            continue
        taken += 1
        problems = BundleRules(envelope).check_chunk(n, chunk)
        assert not [p for p in problems if p.severity == "error"], chunk
        memory, _ = chunk_to_memory(chunk, producer=PRODUCER)
        expected = plain_row(memory)
        assert expected is not None, chunk
        assert out[0] == expected[1]
        assert out[1] == aimem._fields_digest(chunk)
    assert taken > 100
    assert taken < len(unique) - 20  # the changed chunks are mostly left to the two passes


def test_the_packed_graph_gives_each_memory_what_graph_parts_gives_aimem_2_5() -> None:
    """Each memory's edges, entities and links from `PackedGraph` equal `GraphParts`'s."""
    doc = _bundle(400, seed=8)
    chunk_ids = {c["id"] for c in doc["chunks"]}
    entity_ids = {e["id"] for e in doc["entities"]}
    first = doc["chunks"][0]["id"]
    packed = PackedGraph.build(
        BundleRules(doc),
        doc["edges"],
        doc["entities"],
        doc["chunk_entities"],
        chunk_ids,
        entity_ids,
        first,
    )
    assert packed is not None
    parts = graph_parts(doc["edges"], doc["entities"], doc["chunk_entities"], {}, first)
    for chunk_id in chunk_ids:
        assert (packed.of(chunk_id) or {}) == parts.for_memory(chunk_id)
    assert sum(1 for c in chunk_ids if packed.of(c)) > 50
    bad = dict(doc["edges"][0], weight=2.0)
    assert PackedGraph.build(BundleRules(doc), [bad], [], [], chunk_ids, entity_ids, first) is None


def test_a_plain_bundle_on_postgres_imports_in_one_pass_as_in_two_aimem_2_9(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL (rows through the store contract's default `insert_memory_rows`): the
    one pass is taken and stores what two passes store — results and exports byte for
    byte."""
    import pgkit
    from memvault.vault import Vault
    from storekit import new_postgres_store

    pgkit.server("pg15")
    counts = _passes(monkeypatch)
    doc = _bundle(1500, seed=9)
    path = aimemkit.write(tmp_path / "plain.aimem.json", doc)
    made = []
    for one_pass in (True, False):
        monkeypatch.setattr(aimem, "_ONE_PASS", one_pass)
        vault = Vault.create(new_postgres_store("pg15"), owner_id=OWNER)
        try:
            with path.open("rb") as body:
                result = import_stream(vault, body, now=NOW).to_json()
            out = tmp_path / f"{one_pass}.aimem.json"
            export_bundle(vault, out, now=NOW)
            assert vault.verify_audit().ok
            made.append((result, out.read_bytes()))
        finally:
            vault.close()
    assert counts == {"one-pass batches": 2, "two passes": 1}
    assert made[0] == made[1]
    assert made[0][0]["created"] == 1500
