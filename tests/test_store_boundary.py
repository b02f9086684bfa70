"""Nothing outside `memvault.store` names a storage backend (issue 16, storage contract): the
vault and every front end get their store from `memvault.store.create_store` / `open_store`
and use only the `Store` contract, so a second backend takes every path the first does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import memvault

SOURCE = Path(memvault.__file__).parent
STORE = SOURCE / "store"


def _concrete_store_classes() -> set[str]:
    """The classes defined in `memvault.store` that implement `Store` (directly or not)."""
    bases: dict[str, set[str]] = {}
    for path in STORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id for b in node.bases if isinstance(b, ast.Name)} | {
                    b.attr for b in node.bases if isinstance(b, ast.Attribute)
                }
    found = {"Store"}
    while True:
        more = {name for name, of in bases.items() if of & found} - found
        if not more:
            return found - {"Store"}
        found |= more


def _backend_modules() -> set[str]:
    """The modules of `memvault.store` that hold a concrete store class."""
    names = _concrete_store_classes()
    return {
        path.stem
        for path in STORE.glob("*.py")
        if any(f"class {name}(" in path.read_text(encoding="utf-8") for name in names)
    }


def test_the_sqlite_store_is_found_as_a_concrete_store_class() -> None:
    """The scan below knows what to look for (it would pass vacuously otherwise)."""
    assert "SQLiteStore" in _concrete_store_classes()
    assert "sqlite" in _backend_modules()


def test_no_module_outside_store_names_a_concrete_store_class() -> None:
    """No module outside `memvault/store/` names a concrete store class or imports a
    backend module — not even in a comment or a docstring, which would describe a path
    that no longer exists."""
    classes = _concrete_store_classes()
    modules = _backend_modules()
    pattern = re.compile(
        r"\b(" + "|".join(sorted(classes)) + r")\b"
        r"|memvault\.store\.(" + "|".join(sorted(modules)) + r")\b"
        r"|from memvault\.store import (" + "|".join(sorted(modules)) + r")\b"
    )
    offenders = [
        f"{path.relative_to(SOURCE.parent)}:{number}: {line.strip()}"
        for path in sorted(SOURCE.rglob("*.py"))
        if STORE not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_only_the_vault_reaches_its_store() -> None:
    """DESIGN (one front door): importers, extraction, the exchange and the front ends call
    the session's methods; none reaches for `vault.store`, which would skip its checks."""
    reaching = re.compile(r"\b(?:vault|_vault|session)\.store\b")
    offenders = [
        f"{path.relative_to(SOURCE)}:{number}: {line.strip()}"
        for path in sorted(SOURCE.rglob("*.py"))
        if path.name != "vault.py" and "store" not in path.relative_to(SOURCE).parts[:1]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if reaching.search(line)
    ]
    assert offenders == []


def test_recall_reaches_the_database_only_through_the_store_s_recall_index() -> None:
    """Recall's engine and operations use `Store.recall_index()` (`memvault.recall.indexes`),
    never a connection: no SQL in `memvault/recall/` but the full-text analysis, which is the
    SQLite tokenizer's own glue (its C extension is loaded into each SQLite connection)."""
    sql = re.compile(r"\.execute(many)?\(|index_connection|\bconn\b|sqlcipher3")
    offenders = [
        f"{path.relative_to(SOURCE)}:{number}: {line.strip()}"
        for path in sorted((SOURCE / "recall").glob("*.py"))
        if path.name != "analysis.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if sql.search(line)
    ]
    assert offenders == []
