"""MacPaw Portable Memory `.mem` 1.1.0 bundles in and out of a vault (docs/formats.md,
"Portable Memory")."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clikit import home as home
from clikit import ok
from hubgen import portable_memory as gen
from hubkit import by_id, import_refused, listed, pam_memories
from memvault.formats.pam.schema import validate_memories
from memvault.hub.base import Tally
from memvault.hub.portable_memory import (
    Bundle,
    bundle_files,
    canonical,
    jsonl,
    read_bundle,
    verify,
)

NOW = "2026-06-01T12:00:00Z"
MOMENT = __import__("datetime").datetime(2026, 6, 1, 12, tzinfo=__import__("datetime").UTC)


def _tally() -> Tally:
    return Tally("mem", "1.1.0", "import")


def test_canonical_json_reproduces_the_published_sample_bytes() -> None:
    """Spec §1.1/§1.2: re-serializing the sample bundle's records gives its bytes and hash."""
    records = [json.loads(line) for line in gen.SAMPLE_CONTEXT.splitlines()]
    data = jsonl(records)
    assert data == gen.SAMPLE_CONTEXT.encode()
    assert len(data) == gen.SAMPLE_CONTEXT_BYTES
    assert hashlib.sha256(data).hexdigest() == gen.SAMPLE_CONTEXT_SHA256


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"a": 1.0}, '{"a":1}'),
        ({"a": -0.0}, '{"a":0}'),
        ({"a": 0.7}, '{"a":0.7}'),
        ({"a": 0.30000000000000004}, '{"a":0.30000000000000004}'),
        ({"a": 8000000000000000.0}, '{"a":8000000000000000}'),
        ({"a": 1e21}, '{"a":1e+21}'),
        ({"a": 1e-7}, '{"a":1e-7}'),
        ({"a": 0.000001}, '{"a":0.000001}'),
        ({"a": 123.456, "b": 0}, '{"a":123.456,"b":0}'),
        ({"a": 18446744073709551615}, '{"a":18446744073709551615}'),
        ({"s": "a/b/c"}, '{"s":"a/b/c"}'),
        ({"s": "café — 日本語 😀"}, '{"s":"café — 日本語 😀"}'),
        ({"s": 'x\ty\nz"q\\w'}, '{"s":"x\\ty\\nz\\"q\\\\w"}'),
        ({"s": "\x01\x1f"}, '{"s":"\\u0001\\u001f"}'),
        ({"b": 1, "B": 2, "1": 3}, '{"1":3,"B":2,"b":1}'),
        ({"z": {"y": 1, "x": 2}, "a": [3, 1, 2]}, '{"a":[3,1,2],"z":{"x":2,"y":1}}'),
    ],
)
def test_canonical_json_follows_the_spec_rules(value: object, text: str) -> None:
    """Spec §1.1 (ECMAScript numbers, raw non-ASCII, code-point key order)."""
    assert canonical(value) == text


def test_generated_bundle_imports_episodes_links_and_other_kinds(
    home: Path, tmp_path: Path
) -> None:
    records = gen.bundle(random.Random(2))
    episodes = records["items/episode.jsonl"]
    episodes[3]["deletedAt"] = "2026-07-01T00:00:00Z"
    path = gen.write(tmp_path / "b.mem", records, tombstones=[gen.tombstone(episodes[4]["id"])])
    ok("init")
    summary = ok("import", path, "--json").json()
    assert summary["format"] == "mem"
    carried = summary["carried"]
    assert carried["mapped"]["episodes"] == 5 and carried["mapped"]["episode links"] == 2
    assert carried["lost"]["episodes tombstoned (not imported)"] == 1
    assert carried["lost"]["secretRef records (never imported: they are vault references)"] == 1
    found = listed()
    by_episode = {m["metadata"]["mem"].get("id"): m for m in found if "id" in m["metadata"]["mem"]}
    assert episodes[4]["id"] not in by_episode
    assert by_episode[episodes[3]["id"]]["status"] == "retracted"
    first = by_episode[episodes[0]["id"]]
    assert first["content"] == episodes[0]["details"]
    assert first["temporal"]["created_at"] == episodes[0]["ingestionTime"]
    assert first["temporal"]["valid_from"] == episodes[0]["eventTime"]
    assert first["confidence"]["current"] == episodes[0]["confidence"]
    contents = {m["content"] for m in found}
    assert "units: metric" in contents and "Name: Olena. Lives in Kyiv." in contents
    assert not any("••42" in json.dumps(m) or "bank PIN" in json.dumps(m) for m in found)


def test_a_tombstone_retracts_the_memory_the_vault_holds(home: Path, tmp_path: Path) -> None:
    """Spec §5: tombstones propagate; PAM keeps the memory, retracted (§16.3)."""
    records = gen.bundle(random.Random(3), count=2, extras=False)
    ok("init")
    ok("import", gen.write(tmp_path / "a.mem", records))
    target = records["items/episode.jsonl"][0]["id"]
    later = {"items/episode.jsonl": records["items/episode.jsonl"][1:]}
    summary = ok(
        "import", gen.write(tmp_path / "b.mem", later, tombstones=[gen.tombstone(target)]), "--json"
    ).json()
    assert summary["retracted"] == 1
    [gone] = [m for m in listed() if m["metadata"]["mem"].get("id") == target]
    assert gone["status"] == "retracted"


def test_export_is_canonical_with_checksums_and_tombstones(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("add", "Prefers metric units", "-t", "preference", "--tag", "units")
    secret = ok("add", "Old address: Rua das Flores 12", "-t", "fact", "--json").json()
    ok("retract", secret["memory"]["id"])
    ok("add", "Allergic to penicillin", "-t", "fact", "--not-exportable")
    out = tmp_path / "out.mem"
    summary = ok("export", "--format", "mem", "-o", out, "--json").json()
    assert summary["carried"]["lost"] == {"memories marked exportable: false (never exported)": 1}
    manifest = json.loads((out / "manifest.json").read_text())
    assert (out / "manifest.json").read_text() == gen.canonical(manifest)
    sums = (out / "CHECKSUMS").read_bytes()
    assert manifest["bundleDigest"] == hashlib.sha256(sums).hexdigest()
    assert manifest["format"] == "1.1.0" and manifest["counts"] == {"episode": 1, "tombstone": 1}
    for item in manifest["files"]:
        data = (out / item["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == item["sha256"] and len(data) == item["bytes"]
        assert f"{item['sha256']}  {item['path']}\n".encode() in sums
        assert data.endswith(b"\n")
        for line in data.decode().splitlines():
            assert gen.canonical(json.loads(line)) == line
    every = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    assert b"Rua das Flores" not in every and b"penicillin" not in every
    [tomb] = [json.loads(x) for x in (out / "audit/tombstones.jsonl").read_text().splitlines()]
    assert tomb["op"] == "delete" and tomb["targetID"] == f"ep_{secret['memory']['id']}"


def test_mem_round_trips_through_the_vault(home: Path, tmp_path: Path) -> None:
    records = gen.bundle(random.Random(8), extras=False)
    ok("init")
    ok("import", gen.write(tmp_path / "in.mem", records))
    out = tmp_path / "out.mem"
    ok("export", "--format", "mem", "-o", out)
    back = [json.loads(x) for x in (out / "items/episode.jsonl").read_text().splitlines()]
    for episode in back:
        for key in ("pam", "pam_type"):
            episode["metadata"].pop(key)
    assert back == records["items/episode.jsonl"]
    links = [json.loads(x) for x in (out / "items/episodeLink.jsonl").read_text().splitlines()]
    assert sorted(links, key=json.dumps) == sorted(
        records["items/episodeLink.jsonl"], key=json.dumps
    )


def _bundle_of(files: dict[str, bytes]) -> Bundle:
    return verify(files, "b")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories=pam_memories())
def test_pam_to_mem_to_pam_keeps_memories_and_turns_retractions_into_tombstones(
    memories: list[dict],
) -> None:
    files = bundle_files(memories, [], MOMENT, Tally("mem", "1.1.0", "export"))
    read = read_bundle(_bundle_of(files), NOW, _tally())
    assert validate_memories(read.memories, 0) == []
    kept = [m for m in memories if m["status"] != "retracted"]
    assert by_id(read.memories) == by_id(kept)
    assert sorted(i for i, _ in read.retractions) == sorted(
        m["id"] for m in memories if m["status"] == "retracted"
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_mem_to_pam_to_mem_gives_back_the_same_episodes(seed: int) -> None:
    records = gen.bundle(random.Random(seed), extras=False)
    files = {p: jsonl(r) for p, r in records.items()}
    files["manifest.json"] = canonical({"format": "1.1.0", "files": [
        {"path": p, "sha256": hashlib.sha256(d).hexdigest(), "bytes": len(d)}
        for p, d in files.items()]}).encode()  # fmt: skip
    read = read_bundle(_bundle_of(files), NOW, _tally())
    out = bundle_files(read.memories, read.relations, MOMENT, Tally("mem", "1.1.0", "export"))
    back = [json.loads(x) for x in out["items/episode.jsonl"].decode().splitlines()]
    for episode in back:
        del episode["metadata"]["pam"], episode["metadata"]["pam_type"]
    assert back == records["items/episode.jsonl"]


def _hostile(tmp_path: Path, case: str) -> Path:
    path = gen.write(tmp_path / "h.mem", gen.bundle(random.Random(1), count=3, extras=False))
    manifest = json.loads((path / "manifest.json").read_text())
    if case == "altered":
        with (path / "items/episode.jsonl").open("ab") as handle:
            handle.write(b'{"id":"ep_x"}\n')
    elif case == "escaping":
        manifest["files"][0]["path"] = "../outside.jsonl"
    elif case == "digest":
        manifest["bundleDigest"] = "0" * 64
    elif case == "version":
        manifest["format"] = "2.0.0"
    elif case == "symlink":
        os.symlink("/etc/hostname", path / "items/extra.jsonl")
    elif case == "nested":
        (path / "manifest.json").write_text('{"conformanceLevel":"L1","exportMode":"full","x":'
                                            + "[" * 4000 + "]" * 4000 + "}")  # fmt: skip
        return path
    (path / "manifest.json").write_text(gen.canonical(manifest))
    return path


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("altered", "SHA-256 or size differs"),
        ("escaping", "escapes the bundle"),
        ("digest", "bundleDigest"),
        ("version", "not a 1.x format"),
        ("symlink", "symbolic link"),
        ("nested", "nesting"),
    ],
)
def test_hostile_bundles_are_refused_with_the_vault_unchanged(
    home: Path, tmp_path: Path, case: str, said: str
) -> None:
    """Spec §4 step 1: a bundle that does not verify MUST NOT half-apply."""
    import_refused(_hostile(tmp_path, case), "mem", said)
