"""docs/conformance.md cannot go stale silently.

Every test it names must exist (collected from tests/*.py with ast), every `module:function`
must resolve, every schema node must exist, every finding code must be one memvault emits;
a row that claims to be tested must name a test that cites its section; the summary counts
must equal what the tables say; and every test of tests/test_conformance_pam.py must be named.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest

REPO: Final = Path(__file__).resolve().parents[1]
DOC: Final = REPO / "docs" / "conformance.md"
TESTS: Final = REPO / "tests"
SRC: Final = REPO / "src" / "memvault"
SCHEMAS: Final = SRC / "formats" / "pam" / "schemas"

TEST_REF: Final = re.compile(r"\b(test_\w+\.py)::(\w+)")
CODE_REF: Final = re.compile(r"`([a-z][a-z0-9_]*):([A-Za-z_][\w.]*)`")
SCHEMA_REF: Final = re.compile(r"`([a-z-]+\.schema\.json)#([^`]*)`")
KEBAB: Final = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`")
SECTION: Final = re.compile(r"§(\d+(?:\.\d+)*)")
ISSUE: Final = re.compile(r"#(\d+)")
#: Modules named in the table, relative to memvault.formats.pam or memvault.
PAM_MODULES: Final = (
    "store_checks",
    "memory_pass",
    "companion_checks",
    "validate",
    "reader",
    "schema",
)
STATUSES: Final = ("tested", "validator", "partial", "planned", "no issue", "gap")


@dataclass(frozen=True)
class Row:
    id: str
    sections: str
    requirement: str
    level: str
    implemented: str
    tests: str
    status: str


@cache
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


@cache
def rows() -> tuple[Row, ...]:
    found = []
    for line in doc_text().splitlines():
        if not line.startswith("| PAM-"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        assert len(cells) == 7, f"a row needs 7 cells (is there a stray '|'?): {line[:80]}"
        found.append(Row(*cells))
    return tuple(found)


@cache
def defined_tests() -> dict[str, set[str]]:
    """Test names defined at module level in each tests/*.py (functions and assignments)."""
    names: dict[str, set[str]] = {}
    for path in TESTS.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Assign):
                found.update(t.id for t in node.targets if isinstance(t, ast.Name))
        names[path.name] = {n for n in found if n.startswith(("test_", "Test"))}
    return names


@cache
def emitted_codes() -> set[str]:
    """String constants of the modules that report findings (the validator, the JSON reader,
    the source opener) and the codes listed in docs/validation.md (some are f-strings)."""
    codes: set[str] = set()
    emitters = [*(SRC / "formats" / "pam").glob("*.py"), SRC / "jsonread.py", SRC / "sources.py"]
    for path in emitters:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                codes.add(node.value)
    validation = (REPO / "docs" / "validation.md").read_text(encoding="utf-8")
    codes.update(re.findall(r"`([a-z0-9-]+)`", validation))
    return codes


def resolve(module: str, qualname: str) -> Any:
    candidates = [f"memvault.formats.pam.{module}"] if module in PAM_MODULES else []
    candidates.append(f"memvault.{module}")
    for name in candidates:
        try:
            obj: Any = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for part in qualname.split("."):
            obj = getattr(obj, part)
        return obj
    raise AssertionError(f"no module {module!r} in memvault")


def pointer(document: Any, path: str) -> Any:
    node = document
    for raw in path.split("/")[1:] if path else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def citation(sections: str) -> re.Pattern[str]:
    """What a test name contains when it cites one of `sections`: `pam_12_1_` (and any
    subdivision, like `pam_12_1_3_`) for §12.1, or a parent section (`pam_12_`, not
    `pam_12_2_`); `appendix_c` for Appendix C."""
    options = []
    for section in SECTION.findall(sections):
        parts = section.split(".")
        options.append(f"pam_{'_'.join(parts)}_")
        options += [f"pam_{'_'.join(parts[:k])}_(?!\\d)" for k in range(1, len(parts))]
    if "App. C" in sections:
        options.append("appendix_c")
    return re.compile("|".join(options))


def status_kind(row: Row) -> str:
    kind = next((s for s in STATUSES if row.status.startswith(s)), None)
    assert kind is not None, f"{row.id}: unknown status {row.status!r}"
    return kind


# ---------------------------------------------------------------------------------------------


def test_the_document_has_rows_with_unique_ids() -> None:
    ids = [row.id for row in rows()]
    assert len(ids) >= 100, len(ids)
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    assert not duplicates, duplicates
    for row in rows():
        assert re.fullmatch(r"PAM-(\d+(\.\d+)*|C|S)-[0-9a-z]+", row.id), row.id
        assert row.level in ("MUST", "SHOULD"), (row.id, row.level)
        assert SECTION.search(row.sections) or "App. C" in row.sections, row.id


def test_every_named_test_exists() -> None:
    known = defined_tests()
    named = TEST_REF.findall(doc_text())
    assert named
    missing = [f"{f}::{t}" for f, t in named if t not in known.get(f, set())]
    assert not missing, f"docs/conformance.md names tests that do not exist: {missing}"


def test_every_named_function_exists() -> None:
    cells = [row.implemented for row in rows()]
    cells += [line for line in doc_text().splitlines() if line.startswith("| G-")]
    refs = [ref for cell in cells for ref in CODE_REF.findall(cell)]
    assert len(refs) > 20
    for module, qualname in refs:
        resolve(module, qualname)


def test_every_named_schema_node_exists() -> None:
    refs = SCHEMA_REF.findall(doc_text())
    assert len(refs) > 20
    for name, path in refs:
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        try:
            pointer(schema, path)
        except (KeyError, IndexError, ValueError, TypeError):
            pytest.fail(f"{name}#{path} is not a node of the schema")


def test_every_named_finding_code_is_emitted() -> None:
    known = emitted_codes()
    for row in rows():
        for code in KEBAB.findall(row.implemented):
            if code.startswith("schema-"):
                continue  # built from the JSON Schema keyword
            assert code in known, f"{row.id}: finding code {code!r} is not emitted by memvault"


def test_rows_that_claim_tests_name_a_test_citing_their_section() -> None:
    for row in rows():
        kind = status_kind(row)
        named = [t for _, t in TEST_REF.findall(row.tests)]
        if kind in ("tested", "validator", "partial"):
            assert named, f"{row.id} is {row.status!r} but names no test"
            cites = citation(row.sections)
            assert any(cites.search(name + "_") for name in named), (
                f"{row.id}: none of {named} cites {row.sections}"
            )
        if kind == "planned":
            assert ISSUE.search(row.status), f"{row.id}: planned without an issue number"
        if kind in ("partial", "gap"):
            gap = re.search(r"G-\d+", row.status)
            assert gap and f"| {gap.group(0)} |" in doc_text(), f"{row.id}: gap not described"


def test_summary_counts_match_the_tables() -> None:
    summary = " ".join(doc_text().split())  # the paragraph is wrapped
    match = re.search(
        r"\*\*Summary:\*\* (\d+) requirements — (\d+) implemented and tested \((\d+) fully; "
        r"(\d+) where .*?; (\d+) in part.*?\), (\d+) planned .*?, (\d+) with no issue yet, "
        r"(\d+) gaps",
        summary,
    )
    assert match, "the summary line changed shape"
    total, implemented, fully, validator, partial, planned, no_issue, gaps = map(
        int, match.groups()
    )
    kinds = Counter(status_kind(row) for row in rows())
    assert total == len(rows())
    assert (fully, validator, partial) == (kinds["tested"], kinds["validator"], kinds["partial"])
    assert implemented == fully + validator + partial
    assert (planned, no_issue, gaps) == (kinds["planned"], kinds["no issue"], kinds["gap"])


def test_every_conformance_test_is_in_the_document() -> None:
    named = {t for f, t in TEST_REF.findall(doc_text()) if f == "test_conformance_pam.py"}
    defined = defined_tests()["test_conformance_pam.py"]
    assert defined - named == set(), "tests missing from docs/conformance.md"
