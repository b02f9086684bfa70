"""`memvault inspect` of a provider export (ChatGPT, Claude, Gemini, Copilot, Grok; zip, folder
or main file, detected as `memvault import` detects it): says what it is, counts what it
holds by streaming the importer — the same counts `convert` reports — and points to
`convert` and `import`, instead of failing as "not a PAM document"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from clikit import mv, ok
from providergen import chatgpt, claude, copilot, gemini, grok, write_folder, write_zip

#: provider → how to write a sample export of it under a directory.
WRITERS: dict[str, Callable[[Path], Path]] = {
    "chatgpt": lambda d: write_zip(chatgpt.export(), d / "chatgpt-export.zip"),
    "claude": lambda d: claude.write(d, "folder"),
    "gemini": lambda d: write_zip(gemini.export(), d / "takeout.zip"),
    "copilot": lambda d: write_folder(copilot.export(), d / "copilot-export"),
    "grok": lambda d: grok.write(d, "zip"),
}


@pytest.mark.parametrize("provider", sorted(WRITERS))
def test_inspect_provider_export_says_what_it_is(tmp_path: Path, provider: str) -> None:
    """inspect names the provider and importer, and counts conversations, messages and
    memories exactly as `convert` does; exit 0."""
    source = WRITERS[provider](tmp_path)
    facts = ok("inspect", source, "--json").json()
    assert facts["kind"] == "provider-export" and facts["provider"] == provider
    assert facts["importer_version"].startswith(f"{provider}-importer/")
    assert facts["complete"] is True and facts["error"] is None
    converted = ok("convert", source, "-o", tmp_path / "pam", "--json").json()
    assert converted["importer"] == facts["importer_version"]
    counts = {k: facts[k] for k in ("conversations", "messages", "memories")}
    assert counts == {k: converted[k] for k in counts}
    assert counts["conversations"] > 0 and counts["messages"] > 0


def test_inspect_provider_export_points_to_convert_and_import(tmp_path: Path) -> None:
    source = WRITERS["chatgpt"](tmp_path)
    run = ok("inspect", source)
    assert "chatgpt export (zip)" in run.stdout and "chatgpt-importer/" in run.stdout
    assert "Conversations: 12" in run.stdout
    assert f"memvault convert {source}" in run.stdout and f"memvault import {source}" in run.stdout
    assert "not a PAM document" in run.stdout  # said as what it is, not as a failure
    assert "✗" not in run.stdout


def test_inspect_lone_provider_file(tmp_path: Path) -> None:
    """The lone conversations.json of a ChatGPT export is recognized too."""
    files = chatgpt.export()
    lone = tmp_path / "conversations.json"
    lone.write_bytes(files["conversations.json"])
    facts = ok("inspect", lone, "--json").json()
    assert (facts["provider"], facts["container"]) == ("chatgpt", "file")
    assert facts["conversations"] == 12


def test_inspect_broken_provider_export_names_the_error(tmp_path: Path) -> None:
    """An export its importer cannot read to the end: exit 1, the error names the entry and
    record, and the counts read until then are given."""
    conversations = json.loads(chatgpt.export()["conversations.json"])
    conversations[3]["mapping"] = "not an object"
    lone = tmp_path / "conversations.json"
    lone.write_text(json.dumps(conversations))
    run = mv("inspect", lone, "--json")
    assert run.exit_code == 1
    facts = json.loads(run.stdout)
    assert facts["complete"] is False and "mapping" in facts["error"]
    assert "Traceback" not in run.stdout + run.stderr


def test_inspect_pam_and_aimem_are_not_taken_for_provider_exports() -> None:
    """A document that declares itself is inspected as what it declares."""
    from conftest import EXAMPLE_STORE

    facts = ok("inspect", EXAMPLE_STORE, "--json").json()
    assert facts["kind"] != "provider-export"
    corpus = Path(__file__).parent / "aimem_corpus" / "valid" / "minimal.aimem.json"
    assert ok("inspect", corpus, "--json").json()["kind"] == "aimem-bundle"
