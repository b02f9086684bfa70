"""Helpers for tests that build PAM documents: copies of the sample export, resealing after
an edit (so only the rule under test fires), and finding lookups."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from memvault.canonical import content_hash, integrity_checksum
from memvault.findings import Finding, ValidationResult
from official import OFFICIAL_EXAMPLES, OFFICIAL_SCHEMAS  # noqa: F401  (re-exported to tests)

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


@cache
def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def sample_store() -> dict[str, Any]:
    """A fresh copy of the sample export's memory-store (14 memories, relations, index)."""
    return copy.deepcopy(_load(EXAMPLES / "export" / "memory-store.json"))


def lone_store() -> dict[str, Any]:
    """The sample memory-store without companion files (embedding_ref all null)."""
    return copy.deepcopy(_load(EXAMPLES / "memory-store.json"))


def official(name: str) -> dict[str, Any]:
    return copy.deepcopy(_load(OFFICIAL_EXAMPLES / name))


def reseal(doc: dict[str, Any], *, hashes: bool = False) -> dict[str, Any]:
    """Recompute integrity (and, if asked, content hashes) after editing memories."""
    if hashes:
        for memory in doc["memories"]:
            memory["content_hash"] = content_hash(memory["content"])
    doc["integrity"]["total_memories"] = len(doc["memories"])
    doc["integrity"]["checksum"] = integrity_checksum(doc["memories"])
    return doc


def write(directory: Path, doc: Any, name: str = "memory-store.json") -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def by_code(result: ValidationResult, code: str) -> list[Finding]:
    return [f for f in result.findings if f.code == code]


def only(result: ValidationResult, code: str) -> Finding:
    found = by_code(result, code)
    assert len(found) == 1, f"expected one {code!r}, got {result.findings}"
    return found[0]


#: The export id `write_store` gives a document unless told otherwise.
EXPORT_ID = "0b7e5f3c-9a41-4d8e-8c1a-2f3e4d5c6b7a"
#: `write_store(..., export_id=OMIT)`: no export_id member at all.
OMIT = "<omit>"


def write_store(
    path: Path,
    memories: list[dict[str, Any]],
    *,
    export_id: str | None = EXPORT_ID,
    **header: Any,
) -> Path:
    """A memory-store of another tool holding `memories` (checksum computed), written to
    `path`; `header` adds or replaces top-level members; `export_id=OMIT` leaves it out."""
    doc: dict[str, Any] = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "export_id": export_id,
        "exported_by": "othertool/1.2.3",
        "export_date": "2026-02-01T00:00:00Z",
        "owner": {"id": "owner-1"},
        "memories": memories,
        "relations": header.pop("relations", []),
        "integrity": {
            "canonicalization": "RFC8785",
            "checksum": integrity_checksum(memories),
            "total_memories": len(memories),
        },
        **header,
    }
    if export_id == OMIT:
        del doc["export_id"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path
