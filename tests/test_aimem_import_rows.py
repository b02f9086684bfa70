"""AIMEM imports write plain new chunks straight to the store's rows, without `Memory` objects
(`memvault.memory_rows`, issue 18's ≥ 10,000 chunks/s), and store exactly what the `Memory`
path stored.

The differential tests import the same bundles — every valid file of the AIMEM reference
corpus, and generated bundles with every shape the fast path takes or hands back (x-pam,
embeddings, tags PAM cannot hold, repeated content, chunks the vault already has) — once
with the fast path and once without (`aimem._FAST_PATH` off), into vaults of the same owner,
and compare the import results, the exports byte for byte, and the rows of every table the
import writes (audit entries included). Bad bundles are refused with the same problems.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

import aimemkit
from memvault.exchange import aimem
from memvault.exchange.aimem import BundleRefused, export_bundle, import_bundle
from memvault.exchange.aimem_wire import import_stream
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.mapping import _pam_tags_ok, chunk_to_memory
from memvault.memory_rows import plain_row
from memvault.store.codec import dump_memory, memory_from_json
from memvault.vault import Vault
from vaultkit import make_vault

CORPUS = Path(__file__).parent / "aimem_corpus"
NOW = datetime(2026, 6, 20, 12, 0, tzinfo=UTC)
PRODUCER = aimemkit.PRODUCER
OWNER = "22222222-2222-4222-8222-222222222222"
#: The tables an import writes, each with the columns that order its rows.
TABLES = {
    "memories": "seq",
    "memory_tags": "memory_seq, tag",
    "memory_grants": "memory_seq, entity, permission",
    "relations": "id",
    "embeddings": "memory_id",
    "recall_passages": "id",
    "recall_fts_data": "id",
    "recall_fts_idx": "segid, term, pgno",
    "recall_fts_docsize": "id",
    "aimem_chunks": "memory_id",
    "aimem_aliases": "alias_id",
    "aimem_export_pending": "memory_id",
    "exports": "export_id",
}

CORPUS_FILES = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.aimem.json"))


def _bundle(count: int, *, seed: int = 0) -> dict[str, Any]:
    """`count` chunks of every memory type with tags (PAM tags, and tags PAM cannot hold),
    pins, zones, extension members, non-ASCII and escaped text, custom types; some with
    x-pam or an embedding; edges, entities and links."""
    chunks: list[dict[str, Any]] = []
    kinds = ("fact", "preference", "identity", "goal", "decision", "pitfall", "procedure")
    for n in range(count):
        content = f'memory {seed}-{n}: café ☕ "quoted" \\ tab\t  spaced  {"é" * (n % 3)}'
        extra: dict[str, Any] = {}
        if n % 3 == 0:
            extra["tags"] = ["work", f"tag-{n % 7}", "z9_x-y"]
        if n % 13 == 0:
            extra["tags"] = ["Mixed Case", "ok"]  # not PAM tags: kept in metadata
        if n % 17 == 0:
            extra["tags"] = ["dup", "dup"]
        if n % 5 == 0:
            extra.update(is_pinned=n % 10 == 0, zone=("critical", "important", "standard")[n % 3])
        if n % 11 == 0:
            extra["x-origin"] = {"app": "test", "n": n, "weights": [0.5, 5e-05, 1e21]}
        if n % 19 == 0:
            extra["created_at"] = "2026-04-01T09:30:00.123456Z"
        record = aimemkit.chunk(f"c{seed}-{n}", content, kinds[n % len(kinds)], **extra)
        if n % 23 == 0:
            record.pop("content_hash")  # optional (§2.2)
        chunks.append(record)
    return aimemkit.graph_bundle(chunks, entity_prefix=f"e{seed}-")


def _generated(tmp_path: Path) -> dict[str, Path]:
    """Generated bundles: plain ones of several batches; one with x-pam, an embedding and
    repeated content among plain chunks; one repeating an earlier bundle's chunks."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    plain = _bundle(4500, seed=1)
    mixed = _bundle(300, seed=2)
    mixed["chunks"][5]["x-pam"] = {"set": {"summary": "a summary from PAM"}}
    mixed["chunks"][7]["content"] = mixed["chunks"][8]["content"]  # PAM §6: reinforced
    mixed["chunks"][7]["content_hash"] = mixed["chunks"][8]["content_hash"]
    mixed["embedding_model"] = "test-model"
    mixed["embedding_dim"] = 2
    mixed["chunks"][9]["embedding"] = "AACAPwAAAEA="  # [1.0, 2.0], float32 LE
    mixed["checksum"] = bundle_checksum(mixed)
    again = _bundle(2100, seed=1)  # the first 2,100 chunks of `plain` again
    again["chunks"] += _bundle(50, seed=3)["chunks"]
    again["checksum"] = bundle_checksum(again)
    return {
        "plain": aimemkit.write(tmp_path / "plain.aimem.json", plain),
        "mixed": aimemkit.write(tmp_path / "mixed.aimem.json", mixed),
        "again": aimemkit.write(tmp_path / "again.aimem.json", again),
    }


@pytest.fixture
def memory_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Imports without the fast path: every chunk mapped to a `Memory` (the old path)."""
    monkeypatch.setattr(aimem, "_FAST_PATH", False)
    yield


def _rows(vault: Vault) -> dict[str, Any]:
    """Every row of the tables an import writes, and the audit entries after the vault's
    own first ones (the chain's hashes start from entries stamped when the vault was made)."""
    conn = vault._store._conn  # type: ignore[attr-defined]
    rows = {
        table: conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
        for table, order in TABLES.items()
    }
    rows["audit"] = conn.execute(
        "SELECT seq, at, actor, action, memory_id, content_hash, details FROM audit_log "
        "WHERE at = ? ORDER BY seq",
        (NOW.strftime("%Y-%m-%dT%H:%M:%SZ"),),
    ).fetchall()
    return rows


def _import_all(
    tmp_path: Path,
    name: str,
    bundles: list[Path],
    *,
    fast: bool | None = None,
    one_pass: bool | None = None,
) -> Any:
    """Import `bundles` in turn into a new vault of a fixed owner, with the rows path
    (`fast`) and the one pass (`one_pass`) on or off as given: each result (or refusal), the
    export's bytes and the rows."""
    vault = make_vault(tmp_path / name, owner_id=OWNER)
    patch = pytest.MonkeyPatch()
    if fast is not None:
        patch.setattr(aimem, "_FAST_PATH", fast)
    if one_pass is not None:
        patch.setattr(aimem, "_ONE_PASS", one_pass)
    try:
        results = []
        for bundle in bundles:
            try:
                with bundle.open("rb") as body:
                    result = import_stream(vault, body, now=NOW).to_json()
                result.pop("source")
                results.append(result)
            except BundleRefused as exc:
                results.append((exc.status, [p.to_json() for p in exc.problems]))
        rows = _rows(vault)  # before the export adds its own record
        out = tmp_path / f"{name}.aimem.json"
        export_bundle(vault, out, now=NOW)
        assert vault.verify_audit().ok
        return results, out.read_bytes(), rows
    finally:
        patch.undo()
        vault.close()


def test_plain_chunks_store_exactly_what_the_memory_path_stored_aimem_2_9(
    tmp_path: Path,
) -> None:
    """The differential test: the generated bundles imported in turn (new chunks, a mixed
    batch that goes the old way, chunks the vault has), each path: same results, exports
    byte for byte, rows and audit entries."""
    bundles = list(_generated(tmp_path / "bundles").values())
    fast = _import_all(tmp_path, "fast", bundles, fast=True)
    slow = _import_all(tmp_path, "slow", bundles, fast=False)
    assert fast[0] == slow[0]
    assert fast[1] == slow[1]
    assert fast[2].keys() == slow[2].keys()
    for table in fast[2]:
        assert fast[2][table] == slow[2][table], table
    assert fast[0][0]["created"] == 4500
    assert len(fast[2]["memories"]) > 4500


@pytest.mark.parametrize("rel", CORPUS_FILES)
def test_every_corpus_file_imports_as_the_memory_path_imports_it_aimem_4(
    rel: str, tmp_path: Path
) -> None:
    """Each reference corpus file, valid or not: the same result or the same refusal, the
    same export and rows."""
    fast = _import_all(tmp_path, "fast", [CORPUS / rel], fast=True)
    slow = _import_all(tmp_path, "slow", [CORPUS / rel], fast=False)
    assert fast == slow


def test_the_fast_path_is_taken_for_plain_batches_and_not_for_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain batches never build a `Memory`; a batch with x-pam does (so the test above
    compares the two paths, not one path twice)."""
    bundles = _generated(tmp_path / "bundles")
    mapped: list[int] = []
    original = aimem._Importer._map

    def counted(self: Any, index: int, chunk: Any) -> Any:
        mapped.append(index)
        return original(self, index, chunk)

    monkeypatch.setattr(aimem._Importer, "_map", counted)
    vault = make_vault(tmp_path / "v", owner_id=OWNER)
    try:
        import_bundle(vault, bundles["plain"], now=NOW)
        assert mapped == []
        import_bundle(vault, bundles["mixed"], now=NOW)
        assert len(mapped) == 300
    finally:
        vault.close()


def test_an_agents_import_takes_the_memory_path_pam_9(tmp_path: Path) -> None:
    """An agent's session writes memories as created by it (`as_created_by`): its imports
    never take the fast path, and store what they stored before."""
    results = []
    for fast in (True, False):
        vault = make_vault(tmp_path / f"v{fast}", owner_id=OWNER)
        patch = pytest.MonkeyPatch()
        patch.setattr(aimem, "_FAST_PATH", fast)
        try:
            agent = vault.acting_as("agent-x")
            import_bundle(agent, _generated(tmp_path / f"b{fast}")["plain"], now=NOW)
            results.append(_rows(vault)["memories"])
        finally:
            patch.undo()
            vault.close()
    assert results[0] == results[1]
    assert "agent-x" in results[0][0][-1]


def test_a_refused_bundle_is_refused_with_the_same_problems_aimem_3_2(tmp_path: Path) -> None:
    """A chunk the mapping or the PAM checks refuse, found by the fast path, is refused by
    the old path with the same problems: 422, nothing written."""
    doc = _bundle(2500, seed=4)
    doc["chunks"][2100]["created_at"] = "2026-04-01T09:30:00Z"
    doc["chunks"][2200]["tags"] = ["ok", 5]  # not PAM tags: kept in metadata, still stored
    doc["checksum"] = bundle_checksum(doc)
    path = aimemkit.write(tmp_path / "b.aimem.json", doc)
    stale = dict(doc, checksum="sha256:" + "2" * 64)
    stale_path = aimemkit.write(tmp_path / "stale.aimem.json", stale)
    for bundle in (path, stale_path):
        fast = _import_all(tmp_path, f"fast-{bundle.stem}", [bundle], fast=True)
        slow = _import_all(tmp_path, f"slow-{bundle.stem}", [bundle], fast=False)
        assert fast == slow
    refused = _import_all(tmp_path, "refused", [stale_path], fast=True)[0][0]
    assert refused[0] == 409


def test_plain_row_gives_the_memory_paths_document_and_columns() -> None:
    """`plain_row` of a mapped chunk: the document `dump_memory` writes for its `Memory`,
    byte for byte, for custom types, tags, pins and graph metadata."""
    doc = _bundle(60, seed=5)
    seen = 0
    for chunk in doc["chunks"]:
        memory, _ = chunk_to_memory(chunk, producer=PRODUCER)
        made = plain_row(memory)
        assert made is not None
        document, row = made
        model = memory_from_json(memory)
        assert row.document == dump_memory(model)
        assert list(document) == list(orjson.loads(dump_memory(model)))
        assert row.tags == list(dict.fromkeys(model.tags or ()))
        seen += 1
    assert seen == 60


def test_plain_row_leaves_every_other_shape_to_the_memory_path() -> None:
    memory, _ = chunk_to_memory(aimemkit.chunk("a", "some text"), producer=PRODUCER)
    assert plain_row(memory) is not None
    for change in (
        {"status": "archived"},
        {"summary": "s"},
        {"content_hash": "sha256:" + "0" * 64},
        {"content": "   "},
        {"temporal": {"created_at": "2026-04-01T09:30:00Z", "updated_at": None}},
        {"temporal": {"created_at": "not a time"}},
        {"provenance": {"platform": "x", "conversation_ref": "c"}},
        {"custom_type": None},
        {"tags": ["a", 1]},
        {"tags": "a"},
        {"metadata": {"extraction": {"sources": ["c#m"]}}},
        {"access": {"visibility": "shared"}},
    ):
        assert plain_row({**memory, **change}) is None, change


@pytest.mark.parametrize(
    "tags",
    [
        ["a", "b"],
        ["a,b"],
        ["a", "a"],
        ["A"],
        [""],
        [],
        ["a", 1],
        ["a-b_c", "9x"],
        ["-a"],
        ["a", "b,"],
        ["ab", ","],
        ["é"],
        ["a\n"],
        [["a"]],
        "ab",
    ],
)
def test_pam_tags_are_told_apart_as_the_tag_loop_tells_them(tags: Any) -> None:
    """The joined-match shortcut of `_pam_tags_ok` agrees with the loop it stands before
    (PAM §4 tags: lowercase letters, digits, ``_`` and ``-``, not first; none repeated)."""
    expected = (
        isinstance(tags, list)
        and len(set(map(str, tags))) == len(tags)
        and all(
            isinstance(t, str)
            and t
            and t[0].isascii()
            and (t[0].islower() or t[0].isdigit())
            and all(c.isascii() and (c.islower() or c.isdigit() or c in "_-") for c in t)
            for t in tags
        )
    )
    assert _pam_tags_ok(tags) is expected


def _chunk_variants() -> list[Any]:
    """Chunks of the reference corpus and generated ones, each also with one member changed
    to something `check_chunk` has a rule about; some repeated (duplicate ids)."""
    chunks: list[Any] = []
    for path in sorted(CORPUS.rglob("*.aimem.json")):
        try:
            doc = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("chunks"), list):
            chunks += doc["chunks"]
    chunks += _bundle(120, seed=6)["chunks"]
    base = aimemkit.chunk("v", "some text", tags=["a", "b"], zone="critical", is_pinned=True)
    changes: list[dict[str, Any]] = [
        {"id": 5},
        {"id": "urn:aimem:other-producer:v"},
        {"id": "urn:aimem:memoryai-prod:has space"},
        {"content": ""},
        {"content": 5},
        {"content": "\ud800 lone surrogate"},
        {"content_hash": "sha256:" + "A" * 64},
        {"content_hash": "sha256:" + "0" * 64},
        {"content_hash": None},
        {"memory_type": "note"},
        {"memory_type": ["fact"]},
        {"zone": "hot"},
        {"zone": ["critical"]},
        {"is_pinned": "false"},
        {"is_pinned": 1},
        {"created_at": "2026-04-01T09:30:00+02:00"},
        {"created_at": "2026-02-30T09:30:00Z"},
        {"created_at": 5},
        {"tags": "a"},
        {"tags": ["Upper"]},
        {"tags": ["é"]},
        {"tags": [""]},
        {"tags": ["x" * 65]},
        {"tags": [1]},
        {"embedding": "AACAPwAAAEA="},
        {"embedding": None},
        {"x-pam": {"set": {"summary": "s"}}},
        {"extra-member": [1, 2]},
    ]
    for n, change in enumerate(changes):
        chunks.append({**base, "id": f"urn:aimem:{PRODUCER}:v{n}", **change})
    for missing in ("id", "content", "memory_type", "created_at"):
        chunks.append({k: v for k, v in base.items() if k != missing})
    chunks += [base, base, "not a chunk", ["a"], None]
    return chunks


def test_clean_chunks_are_told_at_once_as_the_full_check_tells_them_aimem_2_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`check_chunk`'s one-pass test of a clean chunk gives what the rule-by-rule check
    gives — the same problems (none), the same ids recorded — for every chunk of the
    corpus and every kind of change, in the same order (duplicates included)."""
    from memvault.formats.aimem import validate

    chunks = _chunk_variants()
    envelope = aimemkit.envelope()
    results = []
    for clean in (True, False):
        monkeypatch.setattr(validate, "_CLEAN_CHUNKS", clean)
        rules = validate.BundleRules(envelope, file="b.aimem.json")
        found = [[p.to_json() for p in rules.check_chunk(n, c)] for n, c in enumerate(chunks)]
        results.append((found, sorted(rules.chunk_ids)))
    assert results[0] == results[1]
    assert sum(1 for problems in results[0][0] if not problems) > 100
    assert sum(1 for problems in results[0][0] if problems) > 30


def test_clean_edges_are_told_at_once_as_the_full_check_tells_them_aimem_2_4(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`check_edge`'s one-pass test of a clean edge gives what the rule-by-rule check gives,
    for every edge of the corpus and generated bundles and one change per rule."""
    from memvault.formats.aimem import validate

    edges: list[Any] = []
    for path in sorted(CORPUS.rglob("*.aimem.json")):
        try:
            doc = orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("edges"), list):
            edges += doc["edges"]
    doc = _bundle(60, seed=7)
    edges += doc["edges"]
    chunk_ids = {c["id"] for c in doc["chunks"]} | {
        f"urn:aimem:{PRODUCER}:{n}" for n in ("a", "b", "c", "c1", "c2", "c3")
    }
    base = dict(doc["edges"][0])
    for change in (
        {"source_id": "urn:aimem:memoryai-prod:nowhere"},
        {"target_id": 5},
        {"edge_type": "x-"},
        {"edge_type": "x-mine"},
        {"edge_type": "friend"},
        {"edge_type": ["semantic"]},
        {"weight": 1.5},
        {"weight": -0.1},
        {"weight": True},
        {"weight": "0.5"},
        {"weight": 1},
        {"weight": float("nan")},
        {"created_at": "2026-04-01T09:30:00+02:00"},
        {"created_at": None},
        {"x-extra": [1]},
    ):
        edges.append({**base, **change})
    for missing in ("source_id", "target_id", "edge_type", "weight", "created_at"):
        edges.append({k: v for k, v in base.items() if k != missing})
    edges += ["not an edge", None]
    results = []
    for clean in (True, False):
        monkeypatch.setattr(validate, "_CLEAN_CHUNKS", clean)
        rules = validate.BundleRules(aimemkit.envelope(), file="b.aimem.json")
        results.append(
            [[p.to_json() for p in rules.check_edge(n, e, chunk_ids)] for n, e in enumerate(edges)]
        )
    assert results[0] == results[1]
    assert sum(1 for problems in results[0] if not problems) > 30
    assert sum(1 for problems in results[0] if problems) > 15
