"""The fast AIMEM import path (issue 18's ≥ 10,000 chunks/s) reads and stores exactly what the
event-by-event path did.

The JSON form's checksum pass (§2.8) runs over the bundle's bytes with the C span scanner and
orjson (`BundleReader._hash_spans`) instead of ijson's parse events; anything unusual falls
back to the event pass, which names the problem. These tests read every reference corpus
file and generated bundles both ways (the event path: `_speedups` taken away) and compare
everything the reader gives, then import the same bundles both ways into vaults of the same
owner and compare their exports byte for byte.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

import aimemkit
from memvault.exchange.aimem import BundleRefused, export_bundle, import_bundle
from memvault.exchange.aimem_wire import import_stream
from memvault.formats.aimem import reader as reader_module
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.aimem.errors import BundleError
from memvault.formats.aimem.reader import open_bundle
from vaultkit import make_vault

CORPUS = Path(__file__).parent / "aimem_corpus"
NOW = datetime(2026, 6, 20, 12, 0, tzinfo=UTC)
PRODUCER = aimemkit.PRODUCER
OWNER = "22222222-2222-4222-8222-222222222222"


@pytest.fixture
def event_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reader without the C span scanner: the event-by-event checksum pass."""
    monkeypatch.setattr(reader_module, "_speedups", None)
    yield


def _read(source: Path | io.IOBase) -> Any:
    """Everything a reader gives about a bundle, or the problems it was refused with."""
    try:
        reader = open_bundle(source)  # type: ignore[arg-type]
    except BundleError as exc:
        return ("refused", [p.to_json() for p in exc.problems])
    with reader:
        envelope_problems = [p.to_json() for p in reader.envelope_problems()]
        try:
            records = [
                (r.kind, r.index, r.value, [p.to_json() for p in r.problems])
                for r in reader.records()
            ]
        except BundleError as exc:
            records = [("refused", [p.to_json() for p in exc.problems])]
        return (
            reader.form,
            reader.checksum,
            reader.envelope,
            reader.arrays,
            reader.counts,
            sorted(reader.chunk_ids),
            sorted(reader.entity_ids),
            reader.has_embeddings,
            envelope_problems,
            records,
            list(reader.iter_array("chunks")),
            list(reader.iter_array("edges")),
        )


def _both_ways(monkeypatch: pytest.MonkeyPatch, source: Path) -> tuple[Any, Any]:
    fast = _read(source)
    with monkeypatch.context() as patch:
        patch.setattr(reader_module, "_speedups", None)
        slow = _read(source)
    return fast, slow


CORPUS_FILES = sorted(
    str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.aimem.json") if p.is_file()
)


@pytest.mark.parametrize("rel", CORPUS_FILES)
def test_span_reader_reads_every_corpus_file_as_the_event_reader_does_aimem_2_8(
    rel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same checksum, envelope, counts, ids, records, problems — or the same refusal."""
    fast, slow = _both_ways(monkeypatch, CORPUS / rel)
    assert fast == slow


def _graph_bundle(count: int, *, pad: int = 0) -> dict[str, Any]:
    """A bundle of `count` chunks with tags, pins, zones, extensions, x-pam, non-ASCII and
    escaped text, edges, entities and links; `pad` characters more in each content."""
    chunks: list[dict[str, Any]] = []
    for n in range(count):
        content = f'fact number {n}: café ☕ "quoted" \\ tab\t{"x" * pad}'
        extra: dict[str, Any] = {}
        if n % 3 == 0:
            extra["tags"] = ["work", f"tag-{n % 7}"]
        if n % 4 == 0:
            extra["tags"] = ["Mixed Case", "ok"]  # not PAM tags: kept in metadata
        if n % 5 == 0:
            extra.update(is_pinned=True, zone=("critical", "important", "standard")[n % 3])
        if n % 11 == 0:
            extra["x-origin"] = {"app": "test", "n": n, "weights": [0.5, 5e-05, 1e21]}
        chunks.append(
            aimemkit.chunk(
                f"c{n}", content, ("fact", "preference", "episodic", "decision")[n % 4], **extra
            )
        )
    return aimemkit.graph_bundle(chunks)


def _variants(tmp_path: Path) -> dict[str, Path]:
    """Generated bundles, small (read whole) and over 1 MiB (mapped), and odd spellings."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    small = _graph_bundle(40)
    big = _graph_bundle(2500, pad=200)
    paths = {
        "small": aimemkit.write(tmp_path / "small.aimem.json", small),
        "big": aimemkit.write(tmp_path / "big.aimem.json", big),
    }
    text = orjson.dumps(small)
    # Pretty-printed, with whitespace around everything.
    paths["indented"] = tmp_path / "indented.aimem.json"
    paths["indented"].write_bytes(b"\n  " + orjson.dumps(small, option=orjson.OPT_INDENT_2))
    # The "chunks" name written with an escape: the scanner's item list is for "chunks" only.
    paths["escaped-name"] = tmp_path / "escaped.aimem.json"
    paths["escaped-name"].write_bytes(text.replace(b'"chunks":', b'"chunk\\u0073":', 1))
    # A member repeated inside a chunk (§2.8 needs I-JSON), in a big bundle (mapped).
    dup = orjson.dumps(big).replace(
        b'"memory_type":"fact"', b'"memory_type":"fact","memory_type":"fact"', 1
    )
    paths["duplicate-in-chunk"] = tmp_path / "dup.aimem.json"
    paths["duplicate-in-chunk"].write_bytes(dup)
    # A member repeated in the envelope, trailing bytes, a truncated document.
    paths["duplicate-envelope"] = tmp_path / "dupenv.aimem.json"
    paths["duplicate-envelope"].write_bytes(
        text.replace(b'"scope":"FULL"', b'"scope":"FULL","scope":"FULL"')
    )
    paths["trailing"] = tmp_path / "trailing.aimem.json"
    paths["trailing"].write_bytes(text + b" x")
    paths["truncated"] = tmp_path / "truncated.aimem.json"
    paths["truncated"].write_bytes(orjson.dumps(big)[:-1000])
    # Integers beyond 2^53 and beyond 2^64 (RFC 8785 reads them as doubles).
    wide = _graph_bundle(6)
    wide["chunks"][1]["x-big"] = 9007199254740993
    wide["chunks"][2]["x-huge"] = 0
    wide["checksum"] = "sha256:" + "0" * 64
    huge = orjson.dumps(wide).replace(b'"x-huge":0', b'"x-huge":123456789012345678901234567890')
    paths["wide-integers"] = tmp_path / "wide.aimem.json"
    paths["wide-integers"].write_bytes(huge)
    # A stale checksum (409) and a chunk that is not an object (422).
    stale = dict(big, checksum="sha256:" + "1" * 64)
    paths["stale"] = aimemkit.write(tmp_path / "stale.aimem.json", stale)
    broken = _graph_bundle(5)
    broken["chunks"][2] = "not a chunk"
    broken["checksum"] = bundle_checksum(broken)
    paths["chunk-not-object"] = aimemkit.write(tmp_path / "broken.aimem.json", broken)
    return paths


def test_span_reader_reads_generated_bundles_as_the_event_reader_does_aimem_2_8(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, path in _variants(tmp_path).items():
        fast, slow = _both_ways(monkeypatch, path)
        assert fast == slow, name


def test_span_reader_reads_a_request_body_spooled_to_disk_aimem_3_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTTP route's body: a SpooledTemporaryFile, mapped once it is on disk, read whole
    while it is in memory."""
    for name in ("big", "small"):
        data = _variants(tmp_path)[name].read_bytes()
        bodies = []
        for _ in range(2):
            body = tempfile.SpooledTemporaryFile(max_size=1 << 20)  # noqa: SIM115 - closed below
            body.write(data)
            body.seek(0)
            bodies.append(body)
        fast = _read(bodies[0])
        with monkeypatch.context() as patch:
            patch.setattr(reader_module, "_speedups", None)
            slow = _read(bodies[1])
        for body in bodies:
            body.close()
        assert fast == slow, name
        assert fast[1] == orjson.loads(data)["checksum"]


def _export(tmp_path: Path, name: str, bundle: Path, *, event: bool) -> tuple[Any, bytes]:
    """Import `bundle` into a new vault of a fixed owner (one path or the other) and export
    it: the result and the exported bytes."""
    vault = make_vault(tmp_path / name, owner_id=OWNER)
    try:
        patch = pytest.MonkeyPatch()
        if event:
            patch.setattr(reader_module, "_speedups", None)
        try:
            with bundle.open("rb") as body:
                result = import_stream(vault, body, now=NOW)
        finally:
            patch.undo()
        out = tmp_path / f"{name}.aimem.json"
        export_bundle(vault, out, now=NOW)
        return result.to_json(), out.read_bytes()
    finally:
        vault.close()


def test_fast_import_stores_exactly_what_the_event_path_stored_aimem_2_9(tmp_path: Path) -> None:
    """The differential test of issue 18: the same bundles imported both ways give the same
    result and byte-identical exports (every stored field, relation and entity)."""
    bundles = [CORPUS / rel for rel in CORPUS_FILES if rel.startswith("valid/")]
    variants = _variants(tmp_path / "variants")
    bundles += [variants["small"], variants["big"], variants["indented"]]
    assert len(bundles) > 5
    for n, bundle in enumerate(bundles):
        fast = _export(tmp_path, f"fast{n}", bundle, event=False)
        slow = _export(tmp_path, f"slow{n}", bundle, event=True)
        fast[0]["source"] = slow[0]["source"]
        assert fast == slow, bundle.name


def test_fast_import_refuses_what_the_event_path_refused_aimem_2_8(tmp_path: Path) -> None:
    """409 for a stale checksum and 422 for a malformed chunk, with the same problems, and
    the vault left as it was."""
    variants = _variants(tmp_path / "variants")
    for name, status in (("stale", 409), ("chunk-not-object", 422), ("duplicate-in-chunk", 422)):
        refusals = []
        for event in (False, True):
            vault = make_vault(tmp_path / f"{name}-{event}", owner_id=OWNER)
            patch = pytest.MonkeyPatch()
            if event:
                patch.setattr(reader_module, "_speedups", None)
            try:
                with pytest.raises(BundleRefused) as refused:
                    import_bundle(vault, variants[name], now=NOW)
                assert vault.stats()["memories"] == 0
            finally:
                patch.undo()
                vault.close()
            assert refused.value.status == status
            refusals.append([p.to_json() for p in refused.value.problems])
        assert refusals[0] == refusals[1], name


def test_span_reader_never_runs_the_event_pass_on_a_plain_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast path is taken (read whole and mapped); a bundle it cannot read plainly (a
    member repeated inside a chunk) goes to the event pass, which names the problem."""
    variants = _variants(tmp_path)
    calls: list[str] = []
    scan = reader_module.BundleReader._scan_json

    def counted(self: Any) -> None:
        calls.append(self.file)
        scan(self)

    monkeypatch.setattr(reader_module.BundleReader, "_scan_json", counted)
    for name in ("small", "big", "indented", "escaped-name"):
        with open_bundle(variants[name]) as opened:
            assert opened.checksum is not None
    assert calls == []
    with pytest.raises(BundleError) as refused:
        open_bundle(variants["duplicate-in-chunk"])
    assert refused.value.code == "duplicate-member"
    assert calls == [str(variants["duplicate-in-chunk"])]
