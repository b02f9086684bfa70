"""`memvault import` of provider exports: detection by content, --from, the summary table,
--json, clear errors (never a traceback), and PAM input still taking the PAM path."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from clikit import home, mv, ok, snapshot
from conftest import EXAMPLE_EXPORT, memvault_script
from providergen import chatgpt as gen
from providergen import write_folder, write_zip

__all__ = ["home"]  # the fixture, imported for pytest


@pytest.fixture
def vault(home: Path) -> Path:
    ok("init")
    return home


@pytest.fixture
def export_zip(tmp_path: Path) -> Path:
    return write_zip(gen.export(seed=4, count=6), tmp_path / "chatgpt-export.zip")


def test_import_detects_a_chatgpt_zip_and_prints_a_summary(vault: Path, export_zip: Path) -> None:
    run = ok("import", export_zip)
    assert "chatgpt-importer/2026.11" in run.stdout
    lines = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines()[1:] if line}
    assert lines["conversations"] == ["6", "0", "0", "0"]
    assert int(lines["memories"][0]) > 0
    again = ok("import", export_zip)
    assert "Nothing new" in again.stdout
    assert {line.split()[0]: line.split()[1:] for line in again.stdout.splitlines()[1:]}[
        "conversations"
    ] == ["0", "0", "6", "0"]


def test_import_json_summary_and_stats(vault: Path, export_zip: Path) -> None:
    summary = ok("import", export_zip, "--json").json()
    raw = json.loads(gen.export(seed=4, count=6)["conversations.json"])
    expected = sum(1 for c in raw for n in c["mapping"].values() if n["message"])
    assert summary["conversations"] == {"new": 6, "updated": 0, "unchanged": 0, "absent": 0}
    assert summary["messages"] == {"new": expected, "total": expected, "absent": 0}
    stats = ok("stats", "--json").json()
    assert stats["conversations"] == 6
    assert stats["by_platform"] == {"chatgpt": summary["memories"]["new"]}


def test_pam_25_import_metadata_names_the_checksum_of_the_file_read(
    vault: Path, tmp_path: Path
) -> None:
    """The export's checksum is read on a thread while the vault opens: every conversation
    still names the SHA-256 of exactly the bytes imported (PAM §25 import_metadata)."""
    import hashlib

    from memvault.vault import Vault
    from vaultkit import PASSPHRASE

    path = tmp_path / "conversations.json"
    path.write_bytes(gen.export(seed=5, count=3)["conversations.json"])
    ok("import", path)
    expected = "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    with Vault.open(vault, PASSPHRASE) as opened:
        found = {c.document["import_metadata"]["source_checksum"] for c in opened.conversations()}
    assert found == {expected}


def test_a_checksum_read_on_a_thread_is_file_checksum_and_gives_back_its_error(
    tmp_path: Path,
) -> None:
    from memvault.importers.ingest import ChecksumReader, file_checksum, folder_checksum

    path = tmp_path / "export.json"
    path.write_bytes(os.urandom(3 << 20))
    assert ChecksumReader(path).result() == file_checksum(path)
    # a folder export: its files' checksum (PAM §25 source_checksum)
    assert ChecksumReader(tmp_path).result() == folder_checksum(tmp_path)
    with pytest.raises(TypeError):
        ChecksumReader(12).result()  # raised on the thread, raised again here


def test_a_checksum_read_from_the_start_of_the_command_is_cancelled_for_other_inputs(
    tmp_path: Path,
) -> None:
    """`memvault import` starts hashing a file while it tells what the file is: for a
    provider export the import takes that checksum; for standard input, a folder,
    ``--from pam`` or ``--from aimem`` none is started; for anything else it is cancelled,
    the thread gone."""
    from memvault.cli.importing import early_checksum
    from memvault.importers.ingest import file_checksum

    path = tmp_path / "conversations.json"
    path.write_bytes(os.urandom(5 << 20))
    early = early_checksum(str(path), None)
    assert early is not None and early.result() == file_checksum(path)
    assert early_checksum(str(path), "chatgpt") is not None
    for forced in ("pam", "AIMEM", "memory-text"):
        assert early_checksum(str(path), forced) is None
    assert early_checksum("-", None) is None
    assert early_checksum(str(tmp_path / "missing.json"), None) is None
    assert early_checksum(str(tmp_path), None) is None  # a folder: hashed once it is known
    cancelled = early_checksum(str(path), None)
    assert cancelled is not None
    cancelled.cancel()
    assert not cancelled._thread.is_alive()
    with pytest.raises(RuntimeError):
        cancelled.result()


def test_import_from_forces_the_importer(vault: Path, tmp_path: Path) -> None:
    # A conversations file under another name, detected by content…
    path = tmp_path / "backup-2024.json"
    path.write_bytes(gen.export(seed=4, count=3)["conversations.json"])
    assert ok("import", path, "--json").json()["conversations"]["new"] == 3
    # …and a folder, with the provider named.
    folder = write_folder(gen.export(seed=8, count=2), tmp_path / "export")
    assert ok("import", folder, "--from", "chatgpt", "--json").json()["conversations"]["new"] == 2


def test_unknown_provider_is_a_clear_error(vault: Path, export_zip: Path) -> None:
    run = mv("import", export_zip, "--from", "myspace")
    assert run.exit_code == 1
    assert "unknown provider 'myspace'; known:" in run.stderr and "chatgpt" in run.stderr


def test_forcing_the_wrong_importer_changes_nothing(vault: Path, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    before = snapshot()
    run = mv("import", path, "--from", "chatgpt")
    assert run.exit_code == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert "notes.json: expected a JSON array of conversations, found an object" in run.stderr
    assert "nothing was imported" in run.stderr
    assert snapshot() == before


def test_standard_input_needs_memory_text(vault: Path) -> None:
    run = mv("import", "-", input="- a\n")
    assert run.exit_code == 1
    assert "standard input needs --from memory-text" in run.stderr


def test_pam_exports_still_take_the_pam_path(vault: Path) -> None:
    run = ok("import", EXAMPLE_EXPORT)
    assert "Imported export" in run.stdout


def test_no_progress_bar_without_a_terminal(vault: Path, export_zip: Path) -> None:
    run = ok("import", export_zip)
    assert "importing" not in run.stderr and run.stderr == ""


def test_progress_bar_on_a_terminal(home: Path, export_zip: Path) -> None:
    """On a terminal (a pseudo-terminal from `script`), stderr shows bytes and
    conversations while importing; the summary still goes to stdout."""
    ok("init")
    command = f"{memvault_script()} import {export_zip} 1>/dev/null"
    proc = subprocess.run(
        ["script", "-qec", command, "/dev/null"],
        capture_output=True,
        timeout=120,
        env={**os.environ},
        check=False,
    )
    screen = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, screen
    assert "importing" in screen and "conversations" in screen and "kB" in screen
    assert ok("stats", "--json").json()["conversations"] == 6
