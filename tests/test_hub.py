"""What every hub format shares (docs/formats.md): detection by content, one format per
input, and inputs past the size bound refused with the vault unchanged."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from clikit import home as home
from clikit import ok, refused, snapshot
from hubgen import basic_memory, letta, mcp_memory, mem0, portable_memory
from memvault.importers.detect import importers
from memvault.sources import open_target


def _mcp(tmp: Path) -> Path:
    return mcp_memory.write(tmp / "memory.jsonl", mcp_memory.graph(random.Random(1)))


def _mem0(tmp: Path) -> Path:
    path = tmp / "mem0.json"
    path.write_text(json.dumps(mem0.get_all(random.Random(1))))
    return path


def _platform(tmp: Path) -> Path:
    path = tmp / "platform.json"
    path.write_text(json.dumps(mem0.platform_list(random.Random(1), paged=False)))
    return path


def _openmemory(tmp: Path) -> Path:
    return mem0.openmemory_zip(random.Random(1), tmp / "memories_export.zip")


def _mem(tmp: Path) -> Path:
    return portable_memory.write(tmp / "b.mem", portable_memory.bundle(random.Random(1)))


def _letta(tmp: Path) -> Path:
    path = tmp / "agent.af"
    path.write_text(json.dumps(letta.v2(random.Random(1))))
    return path


def _letta_legacy(tmp: Path) -> Path:
    path = tmp / "old.af"
    path.write_text(letta.double_encoded(letta.legacy(random.Random(1))))
    return path


def _notes(tmp: Path) -> Path:
    basic_memory.folder(random.Random(1), tmp / "notes")
    return tmp / "notes"


SAMPLES: dict[str, tuple[str, Callable[[Path], Path]]] = {
    "mcp-memory": ("mcp-memory", _mcp),
    "mem0 get_all": ("mem0", _mem0),
    "mem0 platform list": ("mem0", _platform),
    "OpenMemory zip": ("mem0", _openmemory),
    ".mem bundle": ("mem", _mem),
    "Letta v2": ("letta", _letta),
    "Letta legacy, JSON in a string": ("letta", _letta_legacy),
    "basic-memory folder": ("basic-memory", _notes),
}


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_each_format_is_recognized_by_exactly_one_importer(tmp_path: Path, sample: str) -> None:
    expected, make = SAMPLES[sample]
    with open_target(make(tmp_path)) as target:
        found = [importer.id.provider for _name, importer in importers() if importer.sniff(target)]
    assert found == [expected]


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_import_detects_each_format_and_reports_what_was_carried(
    home: Path, tmp_path: Path, sample: str
) -> None:
    expected, make = SAMPLES[sample]
    ok("init")
    summary = ok("import", make(tmp_path), "--json").json()
    assert summary["format"] == expected
    assert summary["memories"]["new"] > 0
    assert set(summary["carried"]) == {"format", "version", "direction", "mapped", "metadata",
                                       "lost"}  # fmt: skip
    (tmp_path / "x").mkdir()
    text = ok("import", make(tmp_path / "x")).stdout
    assert "mapped:" in text and "kept in metadata:" in text and "not carried:" in text


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_inputs_past_the_size_bound_are_refused_with_the_vault_unchanged(
    home: Path, tmp_path: Path, sample: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memvault.hub.base as base

    _expected, make = SAMPLES[sample]
    path = make(tmp_path)
    ok("init")
    ok("add", "Likes jazz", "-t", "preference")
    before = snapshot()
    monkeypatch.setattr(base, "MAX_FILE_BYTES", 300)
    message = refused("import", path)
    assert "the limit is 300" in message and "nothing was imported" in message
    assert snapshot() == before


@pytest.mark.parametrize("name", ["mcp-memory", "mem0", "mem", "letta", "basic-memory"])
def test_every_format_exports_an_empty_vault(home: Path, tmp_path: Path, name: str) -> None:
    ok("init")
    out = tmp_path / f"out-{name}"
    summary = ok("export", "--format", name, "-o", out, "--json").json()
    assert summary["carried"]["mapped"] == {} and out.exists()


@pytest.mark.parametrize("name", ["mem", "basic-memory"])
def test_a_directory_export_is_owner_only_and_replaces_the_old_one(
    home: Path, tmp_path: Path, name: str
) -> None:
    """A tree format written as a directory is built under a temporary name and renamed:
    owner-only, as every export (docs/formats.md); with --overwrite it replaces what was
    there, nothing of the old directory kept and no temporary name left behind."""
    ok("init")
    ok("add", "Likes jazz", "-t", "preference")
    out = tmp_path / "exports" / "out"
    out.mkdir(parents=True)
    (out / "stale.txt").write_text("from before")
    refused("export", "--format", name, "-o", out)
    ok("export", "--format", name, "-o", out, "--overwrite")
    assert out.stat().st_mode & 0o777 == 0o700
    assert not (out / "stale.txt").exists() and any(out.rglob("*"))
    assert [p.name for p in out.parent.iterdir()] == ["out"]


def test_convert_writes_a_format_as_pam_files_and_says_what_it_left_out(
    tmp_path: Path,
) -> None:
    """`memvault convert` of a memory system's file: memories (and conversations) as PAM,
    the tally and the relations it does not write among its warnings."""
    source = _mcp(tmp_path)
    out = tmp_path / "pam"
    summary = ok("convert", source, "-o", out, "--json").json()
    assert summary["memories"] > 0
    assert any(w.startswith("mapped:") for w in summary["warnings"])
    assert any("not written" in w for w in summary["warnings"])
    store = json.loads((out / "memory-store.json").read_text())
    assert len(store["memories"]) == summary["memories"]


@pytest.mark.parametrize("name", ["mem", "basic-memory"])
def test_zip_exports_import_back(home: Path, tmp_path: Path, name: str) -> None:
    """`.mem` bundles and basic-memory folders are also written and read as a zip."""
    ok("init")
    ok("add", "Prefers metric units", "-t", "preference", "--tag", "units")
    ok("add", "Wants to learn the cello", "-t", "goal")
    out = tmp_path / f"{name}.zip"
    ok("export", "--format", name, "-o", out)
    before = {m["id"]: m for m in ok("list", "--json").json()["memories"]}
    again = tmp_path / "again"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMVAULT_HOME", str(again))
        ok("init")
        summary = ok("import", out, "--json").json()
        assert summary["format"] == name and summary["memories"]["new"] == 2
        after = {m["id"]: m for m in ok("list", "--json").json()["memories"]}
    assert {i: (m["content"], m["type"], m.get("tags")) for i, m in after.items()} == {
        i: (m["content"], m["type"], m.get("tags")) for i, m in before.items()
    }


def test_an_openmemory_stream_expanding_past_the_bound_is_refused(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzip
    import zipfile

    import memvault.hub.base as base

    path = tmp_path / "stream.zip"
    line = json.dumps({"id": "x", "content": "y" * 200}) + "\n"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("memories.jsonl.gz", gzip.compress((line * 50).encode()))
    ok("init")
    before = snapshot()
    monkeypatch.setattr(base, "MAX_FILE_BYTES", 2000)
    message = refused("import", path, "--from", "openmemory")
    assert "expands past 2000 bytes" in message and "nothing was imported" in message
    assert snapshot() == before
