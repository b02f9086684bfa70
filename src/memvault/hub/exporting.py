"""A vault's memories written in a hub format (`memvault export --format NAME`)."""

from __future__ import annotations

import importlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memvault.model import Access, Memory
from memvault.store.base import MemoryQuery
from memvault.store.codec import memory_to_json
from memvault.vault import Vault

from .base import Exported, Exporter, HubError
from .reading import FORMATS


def exporter(name: str) -> Exporter:
    """The exporter of a hub format by its ``--format`` name."""
    module = FORMATS.get(name)
    if module is None:
        raise HubError(f"unknown format {name!r}; hub formats: {', '.join(FORMATS)}")
    found = importlib.import_module(f"memvault.hub.{module}").EXPORTER
    assert isinstance(found, Exporter)
    return found


def _exportable(memory: Memory) -> bool:
    return not isinstance(memory.access, Access) or memory.access.is_exportable


def vault_records(vault: Vault) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """What the session may export: every memory of any status but those marked exportable:
    false (counted), and the relations between the memories exported."""
    memories: list[dict[str, Any]] = []
    withheld = 0
    ids: set[str] = set()
    for memory in vault.iter_memories(MemoryQuery(statuses=None, limit=None, order="created")):
        if not _exportable(memory):
            withheld += 1
            continue
        memories.append(memory_to_json(memory))
        ids.add(memory.id)
    relations: dict[str, dict[str, Any]] = {}
    for memory_id in sorted(ids):
        for relation in vault.relations(memory_id):
            if relation.from_ in ids and relation.to in ids:
                relations.setdefault(relation.id, relation.to_json())
    ordered = sorted(relations.values(), key=lambda r: (r["created_at"], r["id"]))
    return memories, ordered, withheld


def export_hub(
    vault: Vault, name: str, output: Path, *, overwrite: bool = False, now: datetime | None = None
) -> Exported:
    """Write the vault's exportable memories in format `name` at `output`."""
    chosen = exporter(name)
    memories, relations, withheld = vault_records(vault)
    tally = chosen.write(
        memories, relations, output, now=now or datetime.now(UTC), overwrite=overwrite
    )
    if withheld:
        tally.lost["memories marked exportable: false (never exported)"] += withheld
    return Exported(output, tally)
