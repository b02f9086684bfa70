"""docs/conformance-aimem.md cannot go stale silently.

Every test it names must exist (collected from tests/*.py with ast), every `module:function`
must resolve, every finding code must be one the AIMEM package emits, every corpus file must
exist with the expectation the row claims, every invalid corpus file must be named by a row, a
row that claims tests must name one citing its section, planned rows must say what brings
them, and the summary counts must equal what the tables say.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Final

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
DOC: Final = REPO / "docs" / "conformance-aimem.md"
CODES_DOC: Final = REPO / "docs" / "aimem.md"
TESTS: Final = REPO / "tests"
AIMEM_SRC: Final = REPO / "src" / "memvault" / "formats" / "aimem"
CORPUS: Final = TESTS / "aimem_corpus"

CORPUS_REF: Final = re.compile(r"corpus:((?:valid|invalid)/[\w.-]+)")
AIMEM_MODULES: Final = ("checksum", "validate", "reader", "writer", "cose", "errors")
STATUSES: Final = ("tested", "partial", "planned", "gap")


CONFORMANCE: Final = ConformanceDoc(DOC, "AIMEM-", "aimem", STATUSES)


@cache
def emitted_codes() -> set[str]:
    """String constants of the AIMEM modules (the codes they report)."""
    return string_constants(AIMEM_SRC.glob("*.py"))


@cache
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
    return data


def test_aimem_conformance_rows_are_well_formed() -> None:
    ids = [row.id for row in CONFORMANCE.rows]
    assert len(ids) >= 50, len(ids)
    duplicates = [i for i, n in Counter(ids).items() if n > 1]
    assert not duplicates, duplicates
    for row in CONFORMANCE.rows:
        assert re.fullmatch(r"AIMEM-\d+(\.\d+)?-[a-z]", row.id), row.id
        assert row.level in ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT"), (row.id, row.level)
        sections = SECTION.findall(row.sections)
        assert sections, row.id
        assert row.id.split("-")[1] == sections[0], f"{row.id}: first section is {sections[0]}"


def test_aimem_conformance_named_tests_exist() -> None:
    known = defined_tests()
    named = TEST_REF.findall(CONFORMANCE.text)
    assert len(named) > 40
    missing = [f"{f}::{t}" for f, t in named if t not in known.get(f, set())]
    assert not missing, f"docs/conformance-aimem.md names tests that do not exist: {missing}"


def test_aimem_conformance_named_functions_exist() -> None:
    refs = [ref for row in CONFORMANCE.rows for ref in CODE_REF.findall(row.implemented)]
    assert len(refs) > 30
    for module, qualname in refs:
        package = "memvault.formats.aimem." if module in AIMEM_MODULES else "memvault."
        resolve([package + module], qualname)


def test_aimem_conformance_named_codes_are_emitted_and_documented() -> None:
    known = emitted_codes()
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", CODES_DOC.read_text(), re.M))
    for row in CONFORMANCE.rows:
        for code in KEBAB.findall(row.implemented):
            assert code in known, f"{row.id}: {code!r} is not emitted by memvault.formats.aimem"
            assert code in documented, f"{row.id}: {code!r} is not in docs/aimem.md"


def test_aimem_every_emitted_code_is_documented() -> None:
    """Each code in the corpus manifest and each Problem code literal is in docs/aimem.md."""
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", CODES_DOC.read_text(), re.M))
    expected = {entry["code"] for entry in manifest()["invalid"].values()}
    assert expected <= documented, expected - documented
    calls = set()
    for path in AIMEM_SRC.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name | ast.Attribute)
                and getattr(node.func, "id", getattr(node.func, "attr", ""))
                in ("Problem", "_problem", "_p")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                calls.add(node.args[0].value)
    assert len(calls) > 30
    assert calls <= documented, calls - documented


def test_aimem_conformance_corpus_references_hold() -> None:
    """A corpus file a row names exists with a code the row lists (invalid) or as valid."""
    data = manifest()
    named: set[str] = set()
    for row in CONFORMANCE.rows:
        row_codes = set(KEBAB.findall(row.implemented))
        for rel in CORPUS_REF.findall(row.tests):
            named.add(rel)
            section = "valid" if rel.startswith("valid/") else "invalid"
            assert rel in data[section], f"{row.id}: {rel} is not in the corpus manifest"
            assert (CORPUS / rel).is_file(), rel
            if section == "invalid":
                code = data["invalid"][rel]["code"]
                assert code in row_codes, f"{row.id}: {rel} expects {code}, not listed in the row"
    unnamed = set(data["invalid"]) - named
    assert not unnamed, f"invalid corpus files no row names: {sorted(unnamed)}"


def test_aimem_conformance_tested_rows_cite_their_section() -> None:
    for row in CONFORMANCE.rows:
        kind = CONFORMANCE.kind(row)
        named = CONFORMANCE.named_tests(row, ("tested", "partial"))
        if kind in ("planned", "partial"):
            assert re.search(r"(planned|partial): \w+", row.status), f"{row.id}: say what brings it"
        if kind == "planned":
            assert not named, f"{row.id}: planned but names tests"


def test_aimem_conformance_summary_counts_match() -> None:
    summary = " ".join(CONFORMANCE.text.split())
    match = re.search(
        r"\*\*Summary:\*\* (\d+) requirements — (\d+) implemented and tested, (\d+) in part "
        r".*?, (\d+) planned, (\d+) gaps",
        summary,
    )
    assert match, "the summary line changed shape"
    total, tested, partial, planned, gaps = map(int, match.groups())
    kinds = Counter(CONFORMANCE.kind(row) for row in CONFORMANCE.rows)
    assert total == len(CONFORMANCE.rows)
    assert (tested, partial, planned, gaps) == (
        kinds["tested"],
        kinds["partial"],
        kinds["planned"],
        kinds["gap"],
    )
