"""docs/conformance.md cannot go stale silently.

Every test it names must exist (collected from tests/*.py with ast), every `module:function`
must resolve, every schema node must exist, every finding code must be one memvault emits;
a row that claims to be tested must name a test that cites its section; the summary counts
must equal what the tables say; and every test of tests/test_conformance_pam.py must be named.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest

from conformancekit import (
    CODE_REF,
    KEBAB,
    SECTION,
    TEST_REF,
    ConformanceDoc,
    defined_tests,
    resolve,
    string_constants,
)

REPO: Final = Path(__file__).resolve().parents[1]
DOC: Final = REPO / "docs" / "conformance.md"
TESTS: Final = REPO / "tests"
SRC: Final = REPO / "src" / "memvault"
SCHEMAS: Final = SRC / "formats" / "pam" / "schemas"

SCHEMA_REF: Final = re.compile(r"`([a-z-]+\.schema\.json)#([^`]*)`")
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


CONFORMANCE: Final = ConformanceDoc(DOC, "PAM-", "pam", STATUSES)


@cache
def emitted_codes() -> set[str]:
    """String constants of the modules that report findings (the validator, the JSON reader,
    the source opener) and the codes listed in docs/validation.md (some are f-strings)."""
    emitters = [*(SRC / "formats" / "pam").glob("*.py"), SRC / "jsonread.py", SRC / "sources.py"]
    codes = string_constants(emitters)
    validation = (REPO / "docs" / "validation.md").read_text(encoding="utf-8")
    codes.update(re.findall(r"`([a-z0-9-]+)`", validation))
    return codes


def pointer(document: Any, path: str) -> Any:
    node = document
    for raw in path.split("/")[1:] if path else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


# ---------------------------------------------------------------------------------------------


def test_the_document_has_rows_with_unique_ids() -> None:
    ids = [row.id for row in CONFORMANCE.rows]
    assert len(ids) >= 100, len(ids)
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    assert not duplicates, duplicates
    for row in CONFORMANCE.rows:
        assert re.fullmatch(r"PAM-(\d+(\.\d+)*|C|S)-[0-9a-z]+", row.id), row.id
        assert row.level in ("MUST", "SHOULD"), (row.id, row.level)
        assert SECTION.search(row.sections) or "App. C" in row.sections, row.id


def test_every_named_test_exists() -> None:
    known = defined_tests()
    named = TEST_REF.findall(CONFORMANCE.text)
    assert named
    missing = [f"{f}::{t}" for f, t in named if t not in known.get(f, set())]
    assert not missing, f"docs/conformance.md names tests that do not exist: {missing}"


def test_every_named_function_exists() -> None:
    cells = [row.implemented for row in CONFORMANCE.rows]
    cells += [line for line in CONFORMANCE.text.splitlines() if line.startswith("| G-")]
    refs = [ref for cell in cells for ref in CODE_REF.findall(cell)]
    assert len(refs) > 20
    for module, qualname in refs:
        in_pam = [f"memvault.formats.pam.{module}"] if module in PAM_MODULES else []
        resolve([*in_pam, f"memvault.{module}"], qualname)


def test_every_named_schema_node_exists() -> None:
    refs = SCHEMA_REF.findall(CONFORMANCE.text)
    assert len(refs) > 20
    for name, path in refs:
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        try:
            pointer(schema, path)
        except (KeyError, IndexError, ValueError, TypeError):
            pytest.fail(f"{name}#{path} is not a node of the schema")


def test_every_named_finding_code_is_emitted() -> None:
    known = emitted_codes()
    for row in CONFORMANCE.rows:
        for code in KEBAB.findall(row.implemented):
            if code.startswith("schema-"):
                continue  # built from the JSON Schema keyword
            assert code in known, f"{row.id}: finding code {code!r} is not emitted by memvault"


def test_rows_that_claim_tests_name_a_test_citing_their_section() -> None:
    for row in CONFORMANCE.rows:
        kind = CONFORMANCE.kind(row)
        CONFORMANCE.named_tests(row, ("tested", "validator", "partial"))
        if kind == "planned":
            assert ISSUE.search(row.status), f"{row.id}: planned without an issue number"
        if kind in ("partial", "gap"):
            gap = re.search(r"G-\d+", row.status)
            assert gap and f"| {gap.group(0)} |" in CONFORMANCE.text, f"{row.id}: gap not described"


def test_summary_counts_match_the_tables() -> None:
    summary = " ".join(CONFORMANCE.text.split())  # the paragraph is wrapped
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
    kinds = Counter(CONFORMANCE.kind(row) for row in CONFORMANCE.rows)
    assert total == len(CONFORMANCE.rows)
    assert (fully, validator, partial) == (kinds["tested"], kinds["validator"], kinds["partial"])
    assert implemented == fully + validator + partial
    assert (planned, no_issue, gaps) == (kinds["planned"], kinds["no issue"], kinds["gap"])


def test_every_conformance_test_is_in_the_document() -> None:
    named = {t for f, t in TEST_REF.findall(CONFORMANCE.text) if f == "test_conformance_pam.py"}
    defined = defined_tests()["test_conformance_pam.py"]
    assert defined - named == set(), "tests missing from docs/conformance.md"
