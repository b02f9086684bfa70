"""`memvault export`: layout (PAM §2), header and integrity (§3, §15), consistency of the
conversations index (§14.1) and embedding refs (§12.1), what is never exported (§21.1, §21.3),
incremental exports (§16), the registry, atomic output and bounded memory."""

from __future__ import annotations

import json
import re
import uuid
import zipfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import CliOutcome
from exchangekit import (
    SECRET,
    T0,
    assert_clean,
    documents,
    raw_output,
    read_export,
    rich_vault,
    state,
    vector,
)
from memvault.canonical import integrity_checksum, jcs_dumps
from memvault.exchange import ExportError, ExportHooks, export_vault
from memvault.formats.pam import writer
from memvault.formats.pam.writer import ExternalSorter, MemoryStoreWriter, conversation_filename
from memvault.store.base import MemoryQuery, StoredEmbedding
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault, pam_memory

LATER = T0 + timedelta(hours=1)
ALLOWED = ("superseded-without-replacement",)  # the memory whose successor is withheld


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    v = make_vault(tmp_path / "vault")
    rich_vault(v)
    return v


def store_of(path: Path) -> dict[str, Any]:
    docs = documents(path)
    return docs.get("memory-store.json") or next(iter(docs.values()))


# -- layout and header ------------------------------------------------------------------------


def test_directory_layout_pam_2(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "export"
    result = export_vault(vault, out, now=LATER)
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert names == sorted(
        [
            "memory-store.json",
            "embeddings.json",
            "conversations/conv-001.json",
            conversation_filename("conv/odd id"),
        ]
    )
    assert result.memories == 14 and result.withheld == 2
    assert (result.relations, result.conversations, result.embeddings) == (7, 2, 2)
    assert (out.stat().st_mode & 0o777) == 0o700
    assert all((p.stat().st_mode & 0o777) == 0o600 for p in out.rglob("*.json"))


def test_zip_layout_pam_2(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "export.zip"
    export_vault(vault, out, now=LATER)
    with zipfile.ZipFile(out) as archive:
        names = sorted(archive.namelist())
    assert "memory-store.json" in names and "embeddings.json" in names
    assert [n for n in names if n.startswith("conversations/")]
    assert read_export(out).canonical == read_export(_dir_export(vault, tmp_path)).canonical


def _dir_export(vault: Vault, tmp_path: Path) -> Path:
    out = tmp_path / "again"
    export_vault(vault, out, now=LATER)
    return out


def test_header_pam_3_and_integrity_pam_15(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "export"
    result = export_vault(vault, out, now=LATER)
    store = store_of(out)
    assert uuid.UUID(store["export_id"]).version == 4 and store["export_id"] == result.export_id
    assert re.fullmatch(r"memvault/\d+\.\d+\.\d+", store["exported_by"])
    assert store["export_date"] == "2026-03-01T13:00:00Z"
    assert store["owner"] == vault.owner.to_json()
    assert store["export_type"] == "full"
    assert "base_export_id" not in store and "since" not in store
    assert store["integrity"] == {
        "canonicalization": "RFC8785",
        "checksum": integrity_checksum(store["memories"]),
        "total_memories": len(store["memories"]),
    }
    assert result.checksum == store["integrity"]["checksum"]
    ids = [m["id"] for m in store["memories"]]
    assert ids == sorted(ids)  # written in checksum order


@pytest.mark.parametrize("name", ["export", "export.zip", "memory-store.json"])
def test_every_export_validates_clean_pam_2(vault: Vault, tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    export_vault(vault, out, now=LATER)
    assert_clean(out, allowed=ALLOWED)


def test_lone_memory_store_has_no_embedding_refs_pam_12_1(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "store.json"
    result = export_vault(vault, out, now=LATER)
    assert result.embeddings == 0
    assert all(m["embedding_ref"] is None for m in store_of(out)["memories"])
    assert all("storage" not in c for c in store_of(out)["conversations_index"])


# -- consistency ------------------------------------------------------------------------------


def test_conversations_index_matches_provenance_pam_14_1(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "export"
    export_vault(vault, out, now=LATER)
    store = store_of(out)
    for entry in store["conversations_index"]:
        expected = sorted(
            m["id"] for m in store["memories"] if m["provenance"]["conversation_ref"] == entry["id"]
        )
        assert entry["derived_memories"] == expected and expected
        ref = entry["storage"]["ref"]
        assert json.loads((out / ref).read_text())["id"] == entry["id"]
    conv = next(c for c in store["conversations_index"] if c["id"] == "conv-001")
    assert conv["tags"] == ["infrastructure", "networking", "datacenter"]


def test_embedding_refs_match_embeddings_pam_12_1(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "export"
    export_vault(vault, out, now=LATER)
    store = store_of(out)
    embeddings = json.loads((out / "embeddings.json").read_text())["embeddings"]
    by_id = {e["id"]: e for e in embeddings}
    refs = {m["id"]: m["embedding_ref"] for m in store["memories"] if m["embedding_ref"]}
    assert len(refs) == len(embeddings) == 2
    for memory_id, ref in refs.items():
        assert by_id[ref]["memory_id"] == memory_id
    vectors = {e["id"]: e["vector"] for e in embeddings}
    assert vectors["emb-1"] == [pytest.approx(0.1), -2.5, 3.0]
    assert vectors["emb-2"] is None
    assert by_id["emb-2"]["storage"] == {"type": "uri", "ref": "s3://v/2"}


# -- never exported ---------------------------------------------------------------------------


def _withheld_ids(vault: Vault) -> list[str]:
    everything = MemoryQuery(statuses=None, limit=None)
    return [
        m.id
        for m in vault.iter_memories(everything)
        if m.to_json()["access"]["exportable"] is False
    ]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("dir", {}),
        ("export.zip", {}),
        ("store.json", {}),
        ("stripped.zip", {"strip_platform_ids": True}),
        ("delta", {"incremental": True}),
        ("since.zip", {"since": "2000-01-01T00:00:00Z"}),
    ],
)
def test_exportable_false_never_written_pam_21_1(
    vault: Vault, tmp_path: Path, name: str, options: dict[str, Any]
) -> None:
    if options.get("incremental"):
        export_vault(vault, tmp_path / "base", now=T0 - timedelta(days=1))
    out = tmp_path / name
    result = export_vault(vault, out, now=LATER, **options)
    data = raw_output(out)
    withheld = _withheld_ids(vault)
    assert len(withheld) == 2 and result.withheld == 2
    assert SECRET.encode() not in data
    for memory_id in withheld:
        assert memory_id.encode() not in data  # not as a memory, relation end, pointer, ref
    assert b"emb-secret" not in data
    assert_clean(
        out,
        allowed=(*ALLOWED, "incremental-memory-before-since", "incremental-without-base-export-id"),
    )


def test_strip_platform_ids_pam_21_3(vault: Vault, tmp_path: Path) -> None:
    plain, stripped = tmp_path / "plain", tmp_path / "stripped"
    export_vault(vault, plain, now=LATER)
    export_vault(vault, stripped, now=LATER, strip_platform_ids=True)
    assert b'"platform_user_id":"user-0"' in raw_output(plain)
    assert b"acct-42" in raw_output(plain)
    data = raw_output(stripped)
    assert b"user-0" not in data and b"acct-42" not in data and b"acc-uuid" not in data
    for memory in store_of(stripped)["memories"]:
        assert memory["provenance"]["platform_user_id"] is None
    assert_clean(stripped, allowed=ALLOWED)


# -- incremental ------------------------------------------------------------------------------


def test_incremental_needs_an_earlier_export_pam_16(vault: Vault, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="make a full export first"):
        export_vault(vault, tmp_path / "delta", incremental=True)
    with pytest.raises(ExportError, match="not both"):
        export_vault(vault, tmp_path / "delta", incremental=True, since="2025-01-01T00:00:00Z")
    with pytest.raises(ExportError, match="ISO 8601"):
        export_vault(vault, tmp_path / "delta", since="yesterday")
    assert not (tmp_path / "delta").exists()


def test_incremental_fields_and_content_pam_16_2(vault: Vault, tmp_path: Path) -> None:
    base = export_vault(vault, tmp_path / "base", now=LATER)
    memories = {m.content: m for m in vault.iter_memories()}
    retracted = next(m for c, m in memories.items() if c.startswith("Memory 0 "))
    moment = LATER + timedelta(hours=1)
    vault.retract(retracted.id, now=moment)
    added = vault.add("Brand new fact", "fact", now=moment).memory
    delta_path = tmp_path / "delta.zip"
    delta = export_vault(vault, delta_path, incremental=True, now=moment + timedelta(minutes=1))
    store = store_of(delta_path)
    assert store["export_type"] == "incremental" == delta.export_type
    assert store["base_export_id"] == base.export_id
    assert store["since"] == base.export_date == "2026-03-01T13:00:00Z"
    ids = {m["id"]: m for m in store["memories"]}
    assert set(ids) == {retracted.id, added.id}
    assert ids[retracted.id]["status"] == "retracted"  # retractions travel (§16)
    assert_clean(delta_path)
    registry = [(r.export_id, r.direction, r.export_type) for r in vault.exports()]
    assert registry == [
        (base.export_id, "exported", "full"),
        (delta.export_id, "exported", "incremental"),
    ]
    record = vault.exports()[-1]
    assert (record.base_export_id, record.since) == (base.export_id, base.export_date)
    assert (record.checksum, record.memory_count) == (delta.checksum, 2)


def test_delta_carries_memories_imported_with_old_timestamps_pam_16(
    vault: Vault, tmp_path: Path
) -> None:
    export_vault(vault, tmp_path / "base", now=LATER)
    old = pam_memory("Learned long ago, imported today", created_at="2019-05-05T05:05:05Z")
    vault.add_memories([old], now=LATER + timedelta(hours=2))
    out = tmp_path / "delta"
    export_vault(vault, out, incremental=True, now=LATER + timedelta(hours=3))
    assert [m["id"] for m in store_of(out)["memories"]] == [old.id]
    # the validator notes that its own timestamps are older than `since`: expected
    assert_clean(out, allowed=("incremental-memory-before-since",))


def test_since_picks_the_base_from_the_registry_pam_16_2(vault: Vault, tmp_path: Path) -> None:
    first = export_vault(vault, tmp_path / "first", now=LATER)
    result = export_vault(vault, tmp_path / "since", since="2026-03-01T14:00:00+01:00", now=LATER)
    assert result.since == "2026-03-01T13:00:00Z" and result.base_export_id == first.export_id
    lone = make_vault(tmp_path / "empty")
    orphan = export_vault(lone, tmp_path / "orphan", since="2020-01-01T00:00:00Z")
    assert orphan.base_export_id is None and "no export made" in orphan.warnings[0]


# -- atomic output, bounded memory ------------------------------------------------------------


@pytest.mark.parametrize("name", ["out", "out.zip"])
def test_interrupted_export_leaves_nothing(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    before = state(vault)
    original = MemoryStoreWriter.add_memory
    calls = 0

    def failing(self: MemoryStoreWriter, memory: Any) -> bytes:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt
        return original(self, memory)

    monkeypatch.setattr(MemoryStoreWriter, "add_memory", failing)
    target = tmp_path / "exports"
    target.mkdir()
    with pytest.raises(KeyboardInterrupt):
        export_vault(vault, target / name)
    assert list(target.iterdir()) == []  # no partial file, no hidden scratch
    assert state(vault) == before  # not recorded either


def test_failed_zip_leaves_nothing(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: Any, path: Path) -> None:
        path.write_bytes(b"PK\x03\x04 half a zip")
        raise OSError("disk full")

    monkeypatch.setattr(writer.ExportStage, "_zip", broken)
    target = tmp_path / "exports"
    target.mkdir()
    with pytest.raises(ExportError, match="disk full"):
        export_vault(vault, target / "out.zip")
    assert list(target.iterdir()) == []


def test_existing_target_is_kept_unless_overwrite(vault: Vault, tmp_path: Path) -> None:
    out = tmp_path / "out.zip"
    out.write_bytes(b"precious")
    with pytest.raises(ExportError, match="exists"):
        export_vault(vault, out)
    assert out.read_bytes() == b"precious"
    export_vault(vault, out, overwrite=True)
    assert zipfile.is_zipfile(out)
    directory = tmp_path / "dir"
    directory.mkdir()
    (directory / "keep.txt").write_text("x")
    with pytest.raises(ExportError, match="not an empty directory"):
        export_vault(vault, directory)
    export_vault(vault, directory, overwrite=True)
    assert not (directory / "keep.txt").exists() and (directory / "memory-store.json").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    export_vault(vault, empty)  # an empty directory is fine
    assert (empty / "memory-store.json").exists()


def test_spilled_sort_writes_the_same_document(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export_vault(vault, tmp_path / "memory", now=LATER)
    monkeypatch.setattr(writer, "RUN_BYTES", 700)  # a run of about one memory
    export_vault(vault, tmp_path / "spilled", now=LATER)
    assert read_export(tmp_path / "memory").canonical == read_export(tmp_path / "spilled").canonical


def test_external_sorter_orders_and_keeps_equal_keys_stable(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    records = [
        (rng.choice(["b", "a", "é", "z", "ab", "\U0001f600"]), str(i).encode()) for i in range(500)
    ]
    sorter = ExternalSorter(tmp_path, run_bytes=300)
    for key, payload in records:
        sorter.add(key, payload)
    out = list(sorter)
    sorter.close()
    assert [k for k, _ in out] == sorted(k for k, _ in records)
    for key in {k for k, _ in records}:
        expected = [p for k, p in records if k == key]
        assert [p for k, p in out if k == key] == expected
    assert list(tmp_path.iterdir()) == []  # spill files are anonymous


def test_writer_checksum_is_pam_15_2(tmp_path: Path) -> None:
    memories = [pam_memory(f"fact {i}", id=f"id-{i:03}").to_json() for i in (5, 1, 3)]
    memories[0]["confidence"]["current"] = 1.0  # RFC 8785 writes 1
    out = MemoryStoreWriter(tmp_path / "s.json", {"schema": "portable-ai-memory"}, run_bytes=10)
    for m in memories:
        out.add_memory(m)
    summary = out.finish()
    assert summary.checksum == integrity_checksum(memories)
    written = json.loads((tmp_path / "s.json").read_text())
    assert [jcs_dumps(m) for m in written["memories"]] == [
        jcs_dumps(m) for m in sorted(memories, key=lambda m: m["id"])
    ]


def test_dangling_supersession_pointer_is_nulled_pam_7(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    memory = pam_memory("was superseded by a memory merged away", status="superseded")
    memory = memory.evolve(temporal=memory.temporal.evolve(superseded_by="no-such-memory"))
    vault.add_memories([memory])
    out = tmp_path / "out"
    export_vault(vault, out)
    assert store_of(out)["memories"][0]["temporal"]["superseded_by"] is None


def test_sign_and_encrypt_hooks(vault: Vault, tmp_path: Path) -> None:
    payloads: list[dict[str, Any]] = []

    def sign(payload: Any) -> dict[str, Any]:
        payloads.append(dict(payload))
        return {"algorithm": "Ed25519", "public_key": "z6Mk", "value": "c2ln",
                "signed_at": payload["export_date"]}  # fmt: skip

    def encrypt(src: Path, dst: Path) -> None:
        dst.write_bytes(b"ENCRYPTED" + src.read_bytes())

    with pytest.raises(ExportError, match="cannot be transformed"):
        export_vault(vault, tmp_path / "dir", hooks=ExportHooks(encrypt=encrypt))
    with pytest.raises(ExportError, match="age-encrypted"):
        export_vault(vault, tmp_path / "plain.zip.age")
    result = export_vault(vault, tmp_path / "signed.zip", hooks=ExportHooks(sign=sign), now=LATER)
    assert result.signed
    assert payloads == [
        {
            "checksum": result.checksum,
            "export_id": result.export_id,
            "export_date": result.export_date,
            "owner_id": vault.owner.id,
        }
    ]
    assert store_of(tmp_path / "signed.zip")["signature"]["value"] == "c2ln"
    for name, magic in (("out.zip.age", b"ENCRYPTEDPK"), ("store.json.age", b'ENCRYPTED{"schema"')):
        out = tmp_path / name
        result = export_vault(vault, out, hooks=ExportHooks(encrypt=encrypt))
        assert result.encrypted and out.read_bytes().startswith(magic)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


# -- CLI --------------------------------------------------------------------------------------


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)


def test_cli_export(
    vault: Vault, tmp_path: Path, run_cli: Callable[..., CliOutcome], cli_env: None
) -> None:
    home = tmp_path / "vault"
    vault.close()
    done = run_cli("export", "--home", home, "-o", tmp_path / "out.zip")
    assert done.exit_code == 0, done.output
    assert "14 memories" in done.output and "2 memories marked exportable: false" in done.output
    again = run_cli("export", "--home", home, "-o", tmp_path / "out.zip")
    assert again.exit_code == 1 and "exists" in again.output
    delta = run_cli("export", "--home", home, "--incremental", "--json", "-o", tmp_path / "d.zip")
    assert delta.exit_code == 0, delta.output
    payload = json.loads(delta.output)
    assert payload["export_type"] == "incremental" and payload["memories"] == 0
    both = run_cli("export", "--home", home, "--incremental", "--since", "2025-01-01T00:00:00Z",
                   "-o", tmp_path / "x")  # fmt: skip
    assert both.exit_code == 2
    bad = run_cli("export", "--home", home, "--format", "xml", "-o", tmp_path / "x")
    assert bad.exit_code == 2 and "pam" in bad.output


def test_only_the_most_recent_embedding_is_exported_pam_12_1(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    memory = vault.add("Has two embeddings", "fact").memory
    for n, (model, created) in enumerate([("old-model", "2025-01-01T00:00:00Z"),
                                          ("new-model", "2026-01-01T00:00:00Z")]):  # fmt: skip
        vault.put_embedding(StoredEmbedding(f"e{n}", memory.id, model, 1, created, vector(n)))
    out = tmp_path / "out"
    export_vault(vault, out)
    embeddings = json.loads((out / "embeddings.json").read_text())["embeddings"]
    assert [(e["id"], e["model"]) for e in embeddings] == [("e1", "new-model")]
    assert store_of(out)["memories"][0]["embedding_ref"] == "e1"


def test_pam_16_2_incremental_base_is_the_last_pam_export_not_an_aimem_bundle(
    tmp_path: Path,
) -> None:
    """PAM §16.2/§16.3: `export --incremental` took an AIMEM export made in between as its
    base, so `merge` then refused the PAM base and the delta as a pair. The base of a PAM
    incremental export is the last PAM export; base + delta merge."""
    from memvault.exchange.aimem import export_bundle
    from memvault.formats.pam.merge import merge_exports

    vault = make_vault(tmp_path / "v")
    vault.add("Lives in Lisbon", "fact")
    base = export_vault(vault, tmp_path / "base.json")
    vault.add("Prefers tea", "preference")
    export_bundle(vault, tmp_path / "between.aimem.json")
    assert [r.format for r in vault.exports()] == ["pam", "aimem"]
    delta = export_vault(vault, tmp_path / "delta.json", incremental=True)
    assert delta.base_export_id == base.export_id
    merged = merge_exports(tmp_path / "base.json", tmp_path / "delta.json", tmp_path / "m.json")
    assert merged.memories == 2


def test_pam_16_2_incremental_without_a_pam_export_is_refused(tmp_path: Path) -> None:
    """An AIMEM bundle alone is no base for a PAM delta: make a full PAM export first."""
    from memvault.exchange.aimem import export_bundle

    vault = make_vault(tmp_path / "v")
    vault.add("Lives in Lisbon", "fact")
    export_bundle(vault, tmp_path / "only.aimem.json")
    with pytest.raises(ExportError, match="no PAM export yet"):
        export_vault(vault, tmp_path / "delta.json", incremental=True)


def test_a_vaults_old_mcp_conversation_ref_exports_without_a_warning_pam_14_1(
    tmp_path: Path,
) -> None:
    """Memories remembered by hand once stored their platform ("mcp", "manual") as
    conversation_ref. Read-side fix: such a ref names no conversation, so the export writes
    it (and message_ref) as null and warns of no missing conversations_index entry. A real
    conversation's ref is kept, and its missing entry still warned of."""
    vault = make_vault(tmp_path / "vault")
    for content, platform in (("Likes tea", "mcp"), ("Lives in Porto", "manual")):
        vault.add(
            content, "fact", platform=platform, conversation_ref=platform,
            message_ref=str(uuid.uuid4()), extraction_method="explicit_user_input",
        )  # fmt: skip
    real = vault.add("Works at ACME", "fact", platform="chatgpt", conversation_ref="conv-gone")
    stored = {m.content: m.provenance.conversation_ref for m in vault.iter_memories()}
    assert stored["Likes tea"] == "mcp"  # the vault itself is left as it was
    for incremental in (False, True):
        target = tmp_path / f"out-{incremental}.json"
        since = "2000-01-01T00:00:00Z" if incremental else None
        result = export_vault(vault, target, since=since)
        assert [w for w in result.warnings if "mcp" in w or "manual" in w] == [], result.warnings
        assert any("conv-gone" in w for w in result.warnings), result.warnings
        document = json.loads(target.read_text())
        refs = {m["content"]: m["provenance"] for m in document["memories"]}
        for content in ("Likes tea", "Lives in Porto"):
            assert refs[content]["conversation_ref"] is None
            assert refs[content]["message_ref"] is None
        assert refs["Works at ACME"]["conversation_ref"] == real.memory.provenance.conversation_ref
    vault.close()
