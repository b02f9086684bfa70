"""What the tests that keep a conformance document honest share (docs/conformance.md for PAM,
docs/conformance-aimem.md for AIMEM): its table rows, the tests defined in tests/*.py, the
test-name citation of a spec section, and resolving a `module:function` reference."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Final

TESTS: Final = Path(__file__).resolve().parent
TEST_REF: Final = re.compile(r"\b(test_\w+\.py)::(\w+)")
CODE_REF: Final = re.compile(r"`([a-z][a-z0-9_]*):([A-Za-z_][\w.]*)`")
KEBAB: Final = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`")
SECTION: Final = re.compile(r"§(\d+(?:\.\d+)*)")


@dataclass(frozen=True)
class Row:
    id: str
    sections: str
    requirement: str
    level: str
    implemented: str
    tests: str
    status: str


class ConformanceDoc:
    """A conformance document: rows whose id starts with `prefix` ("PAM-"), test names
    citing `spec` ("pam": ``pam_12_1_``), statuses from `statuses` (a row's status starts
    with one)."""

    def __init__(self, path: Path, prefix: str, spec: str, statuses: tuple[str, ...]) -> None:
        self.path, self.prefix, self.spec, self.statuses = path, prefix, spec, statuses

    @cached_property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        found = []
        for line in self.text.splitlines():
            if not line.startswith(f"| {self.prefix}"):
                continue
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            assert len(cells) == 7, f"a row needs 7 cells (is there a stray '|'?): {line[:80]}"
            found.append(Row(*cells))
        return tuple(found)

    def kind(self, row: Row) -> str:
        """The status a row's status cell starts with."""
        kind = next((s for s in self.statuses if row.status.startswith(s)), None)
        assert kind is not None, f"{row.id}: unknown status {row.status!r}"
        return kind

    def citation(self, sections: str) -> re.Pattern[str]:
        """What a test name contains when it cites one of `sections`: `pam_12_1_` (and any
        subdivision, like `pam_12_1_3_`) for §12.1, or a parent section (`pam_12_`, not
        `pam_12_2_`); `appendix_c` for Appendix C."""
        options = []
        for section in SECTION.findall(sections):
            parts = section.split(".")
            options.append(f"{self.spec}_{'_'.join(parts)}_")
            options += [f"{self.spec}_{'_'.join(parts[:k])}_(?!\\d)" for k in range(1, len(parts))]
        if "App. C" in sections:
            options.append("appendix_c")
        return re.compile("|".join(options))

    def named_tests(self, row: Row, claiming: Iterable[str]) -> list[str]:
        """The tests a row names; when its status is one of `claiming`, asserted to be at
        least one, and one citing the row's section."""
        named = [t for _, t in TEST_REF.findall(row.tests)]
        if self.kind(row) in claiming:
            assert named, f"{row.id} is {row.status!r} but names no test"
            cites = self.citation(row.sections)
            assert any(cites.search(name + "_") for name in named), (
                f"{row.id}: none of {named} cites {row.sections}"
            )
        return named


def string_constants(paths: Iterable[Path]) -> set[str]:
    """Every string constant in the Python files `paths`: the finding codes a module can
    report are among them."""
    found: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


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


def resolve(modules: Iterable[str], qualname: str) -> Any:
    """`qualname` in the first of `modules` that exists."""
    for name in modules:
        try:
            obj: Any = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for part in qualname.split("."):
            obj = getattr(obj, part)
        return obj
    raise AssertionError(f"none of {list(modules)} exists")
