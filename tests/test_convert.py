"""`memvault convert`: a provider export to PAM files without a vault — conversation files
valid against the official conversation schema (§25), a memory-store valid PAM (§3, §14
index entries pointing at the files), nothing left behind on error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import jsonschema_rs
import pytest

from clikit import mv, ok
from memvault.formats.pam.validate import validate_path
from official import OFFICIAL_SCHEMAS
from pamdocs import REPO
from providergen import chatgpt as gen
from providergen import write_zip

SCHEMA = json.loads(
    (OFFICIAL_SCHEMAS / "portable-ai-memory-conversation.schema.json").read_text("utf-8")
)
CONVERSATION = jsonschema_rs.validator_for(SCHEMA)


def test_pam_25_convert_writes_valid_conversations_and_store(tmp_path: Path) -> None:
    source = write_zip(gen.export(seed=6, count=8), tmp_path / "export.zip")
    out = tmp_path / "pam"
    summary = ok("convert", source, "-o", out, "--json").json()
    assert summary["conversations"] == 8 and summary["memories"] > 0
    files = sorted((out / "conversations").glob("*.json"))
    assert len(files) == 8
    for path in files:
        document = json.loads(path.read_text("utf-8"))
        assert not list(CONVERSATION.iter_errors(document)), path
        assert path.name == f"{document['id']}.json"
    store = json.loads((out / "memory-store.json").read_text("utf-8"))
    assert len(store["memories"]) == summary["memories"]
    refs = {e["storage"]["ref"] for e in store["conversations_index"]}
    assert refs == {f"conversations/{p.name}" for p in files}
    result = validate_path(out)
    assert not result.errors, [str(f) for f in result.errors[:5]]


def test_convert_memory_text_from_standard_input(tmp_path: Path) -> None:
    out = tmp_path / "pam.zip"
    summary = ok(
        "convert", "-", "--from", "memory-text", "-o", out, "--json",
        input="1. [2024-05-01]. User's name is Marta.\n2. [2024-05-02]. Gosta de chá.\n",
    ).json()  # fmt: skip
    assert summary == {
        "conversations": 0,
        "messages": 0,
        "memories": 2,
        "warnings": [],
        "importer": "memory-text-importer/2026.11",
    }
    assert not validate_path(out).errors


def test_convert_refuses_an_existing_output_and_unknown_input(tmp_path: Path) -> None:
    source = write_zip(gen.export(seed=6, count=2), tmp_path / "export.zip")
    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    run = mv("convert", source, "-o", out)
    assert run.exit_code == 1 and "exists" in run.stderr
    assert "--overwrite" in run.stderr, run.stderr  # the way to replace it, named
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    run = mv("convert", other, "-o", tmp_path / "new")
    assert run.exit_code == 1
    assert "not an export memvault recognizes" in run.stderr
    assert "chatgpt: conversations.json" in run.stderr  # what was looked for
    assert not (tmp_path / "new").exists()


def test_convert_refuses_pam_input(tmp_path: Path) -> None:
    run = mv("convert", REPO / "examples" / "export", "-o", tmp_path / "x")
    assert run.exit_code == 1
    assert "is a PAM document or export already" in run.stderr


def test_convert_error_midway_leaves_nothing(tmp_path: Path) -> None:
    files = gen.export(seed=6, count=6)
    convs = json.loads(files["conversations.json"])
    convs[4]["mapping"] = []
    files["conversations.json"] = json.dumps(convs).encode()
    source = write_zip(files, tmp_path / "export.zip")
    run = mv("convert", source, "-o", tmp_path / "out")
    assert run.exit_code == 1
    assert "conversation 4" in run.stderr and "nothing was written" in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.zip"]


def _converted(source: Path, out: Path, readers: int) -> dict[str, object]:
    from memvault.importers.chatgpt import IMPORTER
    from memvault.importers.convert import convert_export
    from memvault.importers.ingest import make_context
    from memvault.sources import open_target

    context = make_context(str(source), None, now=datetime(2026, 11, 21, tzinfo=UTC))
    with open_target(source) as target:
        summary = convert_export(IMPORTER, target, context, out, owner_id=OWNER, readers=readers)
    return {**summary, "warnings": context.warnings}


OWNER = "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f"


def test_pam_25_convert_with_reader_processes_writes_the_same_files(tmp_path: Path) -> None:
    """Two reader processes encode the conversations (RFC 8785) while this one writes:
    byte for byte the files one process writes, the same memories and index, the same
    warnings in the same order."""
    files = gen.export(seed=11, count=40)
    source = write_zip(files, tmp_path / "export.zip")
    alone = _converted(source, tmp_path / "alone", readers=0)
    shared = _converted(source, tmp_path / "shared", readers=2)
    assert alone == shared and alone["conversations"] == 40
    names = sorted(p.name for p in (tmp_path / "alone" / "conversations").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "shared" / "conversations").iterdir())
    for name in names:
        assert (tmp_path / "alone" / "conversations" / name).read_bytes() == (
            tmp_path / "shared" / "conversations" / name
        ).read_bytes()
    stores = [
        json.loads((tmp_path / run / "memory-store.json").read_text("utf-8"))
        for run in ("alone", "shared")
    ]
    for key in ("memories", "conversations_index"):
        assert stores[0][key] == stores[1][key]
    assert not validate_path(tmp_path / "shared").errors


def test_a_conversation_without_an_rfc_8785_form_is_the_same_error_with_readers(
    tmp_path: Path,
) -> None:
    """An integer beyond ±(2^53 − 1) has no RFC 8785 form: the error names the file, with
    or without reader processes, and nothing is written."""
    from memvault.importers.convert import ConvertError

    files = gen.export(seed=6, count=4)
    convs = json.loads(files["conversations.json"])
    convs[2]["huge_counter"] = 2**60
    files["conversations.json"] = json.dumps(convs).encode()
    source = write_zip(files, tmp_path / "export.zip")
    messages = []
    for readers in (0, 2):
        with pytest.raises(ConvertError) as caught:
            _converted(source, tmp_path / f"out{readers}", readers=readers)
        messages.append(str(caught.value).replace(f"out{readers}", "out"))
        assert not (tmp_path / f"out{readers}").exists()
    assert messages[0] == messages[1]
    assert "conversations/" in messages[0] and ".json" in messages[0]
