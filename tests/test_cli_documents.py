"""`memvault validate` and `memvault inspect` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from memvault.cli import app
from pamdocs import EXAMPLES, OFFICIAL_EXAMPLES, lone_store, write

runner = CliRunner()
OFFICIAL_STORE = str(OFFICIAL_EXAMPLES / "example-memory-store.json")


def test_validate_official_example_exits_0_and_warns_that_its_signature_does_not_verify() -> None:
    """The official example is valid; its signature is a placeholder that does not verify
    (PAM §18.4), which §21.4 wants as a warning to the user, not a silent failure."""
    result = runner.invoke(app, ["validate", OFFICIAL_STORE])
    assert result.exit_code == 0, result.output
    assert "✓ valid" in result.output and "0 errors" in result.output
    assert "warning signature-invalid" in result.output and "does not verify" in result.output


def test_validate_all_official_examples_together() -> None:
    paths = [str(p) for p in sorted(OFFICIAL_EXAMPLES.glob("*.json"))]
    result = runner.invoke(app, ["validate", *paths])
    assert result.exit_code == 0, result.output
    assert "3 of 3 valid" in result.output


def test_validate_invalid_exits_1_and_names_memory_and_section(tmp_path: Path) -> None:
    doc = lone_store()
    doc["memories"][0]["content"] += "!"
    result = runner.invoke(app, ["validate", str(write(tmp_path, doc))])
    assert result.exit_code == 1
    assert "content-hash-mismatch" in result.output
    assert doc["memories"][0]["id"] in result.output and "PAM §6" in result.output


def test_validate_unreadable_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_validate_worst_exit_code_wins(tmp_path: Path) -> None:
    bad = lone_store()
    bad["integrity"]["total_memories"] = 0
    paths = [str(EXAMPLES / "memory-store.json"), str(write(tmp_path, bad))]
    assert runner.invoke(app, ["validate", *paths]).exit_code == 1
    paths.append(str(tmp_path / "nothing-here"))
    assert runner.invoke(app, ["validate", *paths]).exit_code == 2


def test_validate_json_output_is_machine_readable() -> None:
    result = runner.invoke(app, ["validate", "--json", OFFICIAL_STORE])
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload[0]["valid"] is True and payload[0]["kind"] == "memory-store"
    codes = {f["code"] for f in payload[0]["findings"]}
    assert "signature-invalid" in codes
    finding = payload[0]["findings"][0]
    assert set(finding) == {"severity", "code", "message", "path", "section", "file", "record"}


def test_validate_strict_turns_warnings_into_failure() -> None:
    assert runner.invoke(app, ["validate", "--strict", OFFICIAL_STORE]).exit_code == 1
    assert runner.invoke(app, ["validate", "--strict", str(EXAMPLES / "export")]).exit_code == 0


def test_validate_quiet_prints_summary_only() -> None:
    result = runner.invoke(app, ["validate", "-q", OFFICIAL_STORE])
    assert result.exit_code == 0 and len(result.output.strip().splitlines()) == 1


def test_validate_without_arguments_is_a_usage_error() -> None:
    assert runner.invoke(app, ["validate"]).exit_code == 2


def test_inspect_shows_counts_integrity_and_signature() -> None:
    result = runner.invoke(app, ["inspect", str(EXAMPLES / "export.zip")])
    assert result.exit_code == 0, result.output
    for text in (
        "Memories: 14",
        "custom:decision",
        "chatgpt",
        "llm_inference",
        "Relations: 6",
        "Conversations indexed: 2",
        "Integrity: ok",
        "Signature: absent",
        "example-model-8d",
    ):
        assert text in result.output, text


def test_inspect_of_a_file_that_is_no_document_says_why(tmp_path: Path) -> None:
    """An empty file, a JSON array or an object with no "schema" has nothing to summarize:
    inspect says why on the next line, not only "invalid (1 error)"."""
    cases = {b"": "file is empty", b"[1, 2]": "array", b'{"foo": 1}': 'no "schema" member'}
    for body, why in cases.items():
        path = tmp_path / "x.json"
        path.write_bytes(body)
        result = runner.invoke(app, ["inspect", str(path)], env={"COLUMNS": "200"})
        assert "unknown, invalid (1 error)" in result.output, result.output
        assert why in result.output, (body, result.output)


def test_inspect_official_example_reports_signature_does_not_verify() -> None:
    result = runner.invoke(app, ["inspect", "--json", OFFICIAL_STORE])
    payload = json.loads(result.stdout)
    store = payload["memory_store"]
    assert store["signature"] == "invalid: does not verify" and store["integrity"] == "ok"
    assert store["by_platform"] == {"claude": 3, "chatgpt": 2}
    assert store["created_range"] == ["2024-06-01T10:00:00Z", "2025-06-01T10:00:00Z"]


def test_console_script_runs_and_exits_with_status() -> None:
    exe = Path(sys.executable).with_name("memvault")
    ok = subprocess.run([exe, "validate", str(EXAMPLES / "export")], capture_output=True, text=True)
    assert ok.returncode == 0 and "Traceback" not in ok.stderr
    strict = [exe, "validate", "--strict", OFFICIAL_STORE]  # its signature warning fails it
    bad = subprocess.run(strict, capture_output=True, text=True)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    version = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("memvault ")
