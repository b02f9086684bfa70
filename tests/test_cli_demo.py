"""`make run`'s demo vault: examples/load_demo.py loads examples/memory-store.json through the
Vault API, once; the CLI then reads it like any vault."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from clikit import home, ok
from conftest import REPO
from memvault import pam

__all__ = ["home"]  # fixture

SAMPLE = REPO / "examples" / "memory-store.json"


def load_demo() -> subprocess.CompletedProcess[str]:
    # The environment (MEMVAULT_HOME, passphrase, fast key derivation) comes from `home`.
    return subprocess.run(
        [sys.executable, str(REPO / "examples" / "load_demo.py"), str(SAMPLE)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_demo_vault_holds_the_sample_store(home: Path) -> None:
    first = load_demo()
    assert first.returncode == 0, first.stderr
    assert "14 memories, 6 relations, 2 conversations" in first.stdout
    source = pam.load(SAMPLE)
    stats = ok("stats", "--json").json()
    assert stats["owner_id"] == source.owner.id
    assert stats["memories"] == len(source.memories) == 14
    assert stats["relations"] == 6 and len(stats["relations_by_type"]) == 6
    statuses = {m.status for m in source.memories}
    assert set(stats["by_status"]) == statuses
    listed = ok("list", "--status", "all", "--limit", "0", "--json").json()["memories"]
    kept = {m["id"]: m["content_hash"] for m in listed}
    assert kept == {m.id: m.content_hash for m in source.memories}
    assert ok("audit", "verify", "--json").json()["ok"] is True

    second = load_demo()  # `make run` twice in a row: the vault is kept as it is
    assert second.returncode == 0 and "already" in second.stdout
    again = ok("stats", "--json").json()
    assert {k: v for k, v in again.items() if k != "db_size_bytes"} == {
        k: v for k, v in stats.items() if k != "db_size_bytes"
    }


def test_makefile_run_loads_the_demo_and_shows_stats() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "examples/load_demo.py" in run and "memvault stats" in run
    assert "MEMVAULT_HOME=.demo" in makefile and "MEMVAULT_PASSPHRASE=demo" in makefile
    assert "/.demo/" in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_the_quick_start_list_shows_short_ids_in_a_terminal(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's quick start lists the demo vault in an 80-column terminal: every memory
    fits its id in the 8-character prefix (PAM §4.1 UUID v4 ids, unlike ids that shared 34
    characters and were printed whole, over three lines each)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert load_demo().returncode == 0
    source = pam.load(SAMPLE)
    assert all(uuid.UUID(m.id).version == 4 for m in source.memories)
    table = ok("list", "--status", "all").stdout
    for memory in source.memories:
        assert re.search(rf"^{memory.id[:8]} ", table, re.MULTILINE), (memory.id, table)
    assert not re.search(r"^[0-9a-f]{8}-", table, re.MULTILINE), table


def test_the_demo_memories_provenance_names_conversations_the_vault_holds(home: Path) -> None:
    """PAM §14: every conversation a demo memory's provenance names is in the demo vault (the
    web UI links a memory to it; without the conversations the link led to "not found")."""
    assert load_demo().returncode == 0
    named = {
        m.provenance.conversation_ref
        for m in pam.load(SAMPLE).memories
        if isinstance(m.provenance.conversation_ref, str)
    }
    assert named, "the sample names no conversation"
    for conversation in named:
        shown = ok("conversations", "show", conversation, "--json").json()
        assert shown["id"] == conversation and shown["messages"]
    assert ok("stats", "--json").json()["conversations"] == 2


def test_the_readme_s_curl_recall_answers_from_the_demo_vault(home: Path) -> None:
    """The README's `curl …/v1/recall?q=…` under `memvault serve`, asked of `make run`'s demo
    vault, finds its answer first (it asked where Ana works: in the demo, Ana is a child)."""
    from urllib.parse import parse_qs, urlsplit

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    url = re.search(r'"(http://127\.0\.0\.1:8765/v1/recall\?[^"]+)"', readme)
    assert url, "no recall example in the README"
    query = parse_qs(urlsplit(url.group(1)).query)["q"][0]
    assert load_demo().returncode == 0
    top = ok("recall", query, "--json").json()["results"][0]
    assert "Marina" in query and "Lisbon" in top["text"], (query, top)


def test_the_quick_start_list_never_splits_a_tag_across_lines(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In an 80-column terminal the Tags column broke tags mid-word ("data-engineer" over
    "ing", "communication" over ", style"), which reads as two tags: a tag is whole on its
    line, or cut with an ellipsis (`memvault show` has every tag)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert load_demo().returncode == 0
    tags = {tag for m in pam.load(SAMPLE).memories for tag in m.tags}
    table = ok("list", "--status", "all").stdout
    for line in table.splitlines()[2:-1]:
        cell = line.split("│")[4].strip()
        for piece in filter(None, (p.strip() for p in cell.split(","))):
            assert piece in tags or piece.endswith("…"), (piece, table)
