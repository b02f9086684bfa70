"""One JSON shape per result type (issue #16.5, docs/json.md): the command line's `--json`
prints exactly what `memvault.shapes` builds from the library's results — the shapes the HTTP
API will answer with — and every failure has one error body."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from clikit import home as home
from clikit import mv, ok
from memvault import shapes
from memvault.errors import AccessDenied, AmbiguousId, InvalidInput, NotFound, VaultError
from memvault.exchange import ImportRefused
from memvault.findings import Finding
from memvault.local import open_vault
from memvault.recall.operations import recall_memories
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from pamdocs import REPO
from vaultkit import make_vault


@pytest.fixture
def filled(home: Path) -> dict[str, str]:
    ok("init")
    lisbon = ok("add", "Lives in Lisbon", "-t", "fact", "--tag", "home", "--json").json()
    tea = ok("add", "Prefers tea", "-t", "preference", "--json").json()
    ok("relate", lisbon["memory"]["id"], tea["memory"]["id"], "--type", "related_to")
    return {"lisbon": lisbon["memory"]["id"], "tea": tea["memory"]["id"]}


def _vault(home: Path) -> Vault:
    return open_vault(home)


# -- results -----------------------------------------------------------------------------------


def test_cli_json_outputs_are_the_shapes_of_the_library_results(
    home: Path,
    filled: dict[str, str],
) -> None:
    """`list`, `show`, `search`, `stats`, `audit`, `audit verify`: the CLI's JSON equals the
    shape built from the same call to the library."""
    outputs = {
        "list": ok("list", "--json").json(),
        "show": ok("show", filled["lisbon"], "--json").json(),
        "search": ok("search", "lisbon", "--json").json(),
        "stats": ok("stats", "--json").json(),
        "audit": ok("audit", "--limit", "0", "--json").json(),
        "verify": ok("audit", "verify", "--json").json(),
    }
    with _vault(home) as vault:
        memory = vault.get(filled["lisbon"])
        expected = {
            "list": shapes.page_json(vault.list(MemoryQuery())),
            "show": shapes.shown_json(memory, vault.relations(memory.id)),
            # `memvault search` is recall over memories (docs/recall.md)
            "search": shapes.search_json(
                "lisbon", recall_memories(vault, "lisbon", MemoryQuery(limit=20))
            ),
            "stats": shapes.stats_json(vault.stats()),
            "audit": shapes.audit_json(vault.audit_log()),
            "verify": shapes.audit_report_json(vault.verify_audit()),
        }
    outputs["stats"].pop("db_size_bytes")
    expected["stats"].pop("db_size_bytes")
    assert outputs == json.loads(json.dumps(expected))


def test_cli_json_of_changes_are_their_shapes(home: Path, filled: dict[str, str]) -> None:
    """`add` (a reinforcement, PAM §6), `retract`, `erase`, `decay`: the documented keys,
    each value the library's."""
    again = ok("add", "Lives in Lisbon", "-t", "fact", "--json").json()
    assert set(again) == {"created", "reinforced", "memory"} and again["reinforced"] is True
    retracted = ok("retract", filled["tea"], "--json").json()
    assert retracted["status"] == "retracted" and retracted["id"] == filled["tea"]
    decay = ok("decay", "--dry-run", "--json").json()
    assert set(decay) == {"at", "examined", "updated", "protected", "unchanged", "dry_run"}
    erased = ok("erase", filled["tea"], "--yes", "--json").json()
    assert erased == {"erased": [filled["tea"]], "relations_removed": 1, "durable": True}


def test_to_json_picks_the_shape_by_type(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    a = vault.add("Lives in Lisbon", "fact").memory
    b = vault.add("Works at Acme", "fact").memory
    relation = vault.relate(a.id, b.id, "related_to")
    assert shapes.to_json(a) == a.to_json()
    assert shapes.to_json(relation) == relation.to_json()
    entry = vault.audit_log()[-1]
    assert shapes.to_json(entry) == shapes.audit_entry_json(entry)
    assert shapes.to_json(vault.verify_audit())["ok"] is True
    assert shapes.to_json(vault.erase(b.id)) == {
        "erased": [b.id],
        "relations_removed": 1,
        "durable": True,
    }
    finding = Finding("error", "x-code", "a message", "/path")
    assert shapes.to_json(finding) == finding.to_json()  # a result that knows its shape
    with pytest.raises(TypeError, match="no JSON shape for object"):
        shapes.to_json(object())


def test_batch_json_names_every_incoming_memory(tmp_path: Path) -> None:
    """PAM §6: a batch's shape lists what was created, reinforced, skipped, and which stored
    memory each incoming id became."""
    from vaultkit import pam_memory

    vault = make_vault(tmp_path / "vault")
    first = pam_memory("Lives in Lisbon")
    twin = pam_memory("Lives in Lisbon")
    shaped = shapes.batch_json(vault.add_memories([first, twin]))
    assert shaped["created"] == [first.id] and shaped["reinforced"] == [twin.id]
    assert shaped["id_map"] == {first.id: first.id, twin.id: first.id}
    json.dumps(shaped)  # JSON-ready as it is


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            AccessDenied("'agent-x' may not read"),
            {"type": "AccessDenied", "exit_code": 1, "http_status": 403},
        ),
        (NotFound("no memory with id 'x'"), {"type": "NotFound", "http_status": 404}),
        (
            InvalidInput("type 'x' is not a PAM type", "type"),
            {"type": "InvalidInput", "exit_code": 2, "http_status": 422, "field": "type"},
        ),
        (
            AmbiguousId("prefix 'a' is ambiguous", ["a1", "a2"]),
            {"type": "AmbiguousId", "http_status": 400, "candidates": ["a1", "a2"]},
        ),
        (
            ImportRefused("x.json was not imported", [Finding("error", "c", "m", "/p")]),
            {"type": "ImportRefused", "http_status": 422, "findings": [{"code": "c"}]},
        ),
    ],
    ids=["access", "not-found", "invalid", "ambiguous", "import-refused"],
)
def test_error_json_is_one_body_for_every_error(
    error: VaultError, expected: dict[str, Any]
) -> None:
    body = shapes.error_json(error)
    assert set(body) == {"error"}
    inner = body["error"]
    assert inner["message"] == str(error)
    assert {"type", "message", "exit_code", "http_status"} <= set(inner)
    for key, value in expected.items():
        if key == "findings":
            assert [f["code"] for f in inner["findings"]] == [f["code"] for f in value]
        else:
            assert inner[key] == value, key
    json.dumps(body)


@pytest.mark.parametrize(
    ("args", "kind", "code", "status"),
    [
        (["show", "zzzz"], "NotFound", 1, 404),
        (["stats", "--as", "agent-x"], "AccessDenied", 1, 403),
        (["audit", "--as", "agent-x"], "AccessDenied", 1, 403),
        (["add", "x", "-t", "nonsense"], "InvalidInput", 2, 422),
        (["edit", "{lisbon}"], "UsageError", 2, 400),
        (["retract", "{lisbon}", "--as", "agent-x"], "AccessDenied", 1, 403),
    ],
)
def test_cli_json_failure_prints_the_error_body(
    filled: dict[str, str], args: list[str], kind: str, code: int, status: int
) -> None:
    """docs/json.md: with --json a failure prints the error body on stdout, its message on
    stderr (one line, as without --json), and exits with the body's exit code."""
    run = mv(*[a.format(**filled) for a in args], "--json")
    assert run.exit_code == code, (run.stdout, run.stderr)
    body = json.loads(run.stdout)["error"]
    assert (body["type"], body["exit_code"], body["http_status"]) == (kind, code, status)
    assert run.stderr == f"error: {body['message']}\n"


def test_cli_failure_without_json_prints_nothing_on_stdout(filled: dict[str, str]) -> None:
    run = mv("show", "zzzz")
    assert run.exit_code == 1 and run.stdout == ""


def test_cli_json_refused_import_lists_its_findings(home: Path, tmp_path: Path) -> None:
    """A refused import's body carries the validation findings (PAM validation codes)."""
    ok("init")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "portable-ai-memory", "schema_version": "1.0"}))
    run = mv("import", bad, "--json")
    assert run.exit_code == 1, run.stderr
    body = json.loads(run.stdout)["error"]
    assert body["type"] == "ImportRefused" and body["findings"]
    assert all({"severity", "code", "message", "path"} <= set(f) for f in body["findings"])


def test_every_shape_is_documented() -> None:
    """docs/json.md names every shape function of `memvault.shapes`."""
    page = (REPO / "docs" / "json.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(\w+_json|to_json|error_body)`", page))
    public = {n for n in shapes.__all__ if n.endswith("_json") or n in ("to_json", "error_body")}
    assert public - named == set()
