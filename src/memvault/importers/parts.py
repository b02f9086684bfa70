"""Several providers' exports in one import (a folder holding a ChatGPT export and a Claude
export, each in its own folder): each read by its own importer, all stored in ONE
transaction, so the import is all of them or nothing (docs/decisions.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from memvault.importers.base import ImportContext
from memvault.importers.ingest import IngestResult, ingest

if TYPE_CHECKING:
    from memvault.input_kind import ProviderPart
    from memvault.vault import Vault

__all__ = ["ingest_parts"]


def ingest_parts(
    vault: Vault,
    parts: Sequence[ProviderPart],
    context_for: Callable[[ProviderPart], ImportContext],
    *,
    on_conversation: Callable[[int], None] | None = None,
) -> list[IngestResult]:
    """`ingest` each part with its importer inside one enclosing transaction: a part that
    fails undoes the parts before it. One result per part, in order."""
    results: list[IngestResult] = []
    with vault.transaction():
        for part in parts:
            results.append(
                ingest(
                    vault,
                    part.importer,
                    part.target,
                    context_for(part),
                    on_conversation=on_conversation,
                )
            )
    return results
