"""A decay run over a vault (PAM §8, AIMEM §5.1): what `Vault.decay` does.

`memvault.decay` holds the formulas, as pure functions; this module applies them to a vault's
memories through its session: in chunks, one transaction and one audit entry each, so other
writers wait at most one chunk, never the whole run.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from memvault.audit import PendingEntry
from memvault.bulk import gc_paused
from memvault.canonical import jcs_dumps, sha256_prefixed
from memvault.decay import (
    DECAYING_MODELS,
    DecaySettings,
    anchor_of,
    confidence_block,
    decay_start,
    decayed_confidence,
    elapsed_days,
    is_number,
    round_confidence,
)
from memvault.errors import AccessDenied
from memvault.model import DNA_TYPES, MEMORY_TYPES, parse_timestamp
from memvault.store.base import MemoryQuery, StoredMemory
from memvault.vault_inputs import format_timestamp, is_privileged

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["DECAY_CHUNK", "DECAY_PAUSE", "DecayReport", "decay_chunk", "run_decay"]

#: decay commits after this many memories (one transaction, one audit entry each) and pauses
#: this long before the next chunk, for writers waiting for the lock (stores poll every ms).
DECAY_CHUNK: Final = 5000
DECAY_PAUSE: Final = 0.01


@dataclass(frozen=True, slots=True)
class DecayReport:
    """What `Vault.decay` did. `protected` counts DNA-class memories left untouched."""

    at: str
    examined: int
    updated: int
    protected: int
    unchanged: int


def run_decay(vault: Vault, now: datetime | None, *, dry_run: bool) -> DecayReport:
    """`Vault.decay` in `vault`'s session (`now`: the session's clock when None)."""
    actor = vault.actor
    if not is_privileged(actor):
        raise AccessDenied(f"only the owner or background work may run decay, not {actor!r}")
    store = vault._store
    moment = vault._moment(now)
    at = format_timestamp(moment)
    settings = vault.settings
    # DNA types are left out in the query already; custom DNA and pinned memories are
    # skipped by `decay_chunk`. The candidates' ids are read once, from an index; each
    # chunk reads its memories (and checks them again) inside its own transaction.
    non_dna = tuple(t for t in MEMORY_TYPES if t not in DNA_TYPES)
    ids = store.memory_ids(MemoryQuery(statuses=("active",), types=non_dna, limit=None))
    totals = [0, 0, 0, 0]  # examined, updated, protected, unchanged
    parts = max(1, -(-len(ids) // DECAY_CHUNK))
    for part in range(parts):
        chunk = ids[part * DECAY_CHUNK : (part + 1) * DECAY_CHUNK]
        with store.transaction(), gc_paused():
            examined = protected = 0
            if part == 0:
                protected = examined = store.count_memories(
                    MemoryQuery(statuses=("active",), types=tuple(DNA_TYPES), limit=None)
                )
            candidates = [
                s
                for s in store.get_memories(chunk)
                if s.memory.effective_status == "active" and s.memory.type in non_dna
            ]
            updates, digest_items, counts = decay_chunk(candidates, moment, settings)
            examined += counts[0]
            protected += counts[1]
            if not dry_run:
                _write_chunk(vault, updates, digest_items, at, (examined, protected), (part, parts))
        for i, value in enumerate((examined, len(updates), protected, counts[2])):
            totals[i] += value
        if part + 1 < parts and not dry_run:
            # Let a writer that waited for this chunk in before the next one.
            time.sleep(DECAY_PAUSE)
    return DecayReport(at, *totals)


def _write_chunk(
    vault: Vault,
    updates: list[StoredMemory],
    digest_items: list[list[Any]],
    at: str,
    counts: tuple[int, int],
    part: tuple[int, int],
) -> None:
    """Write one decay chunk's changes and its audit entry (inside its transaction)."""
    if updates:
        vault._store.update_memories(updates)
    details: dict[str, Any] = {
        "updated": len(updates),
        "examined": counts[0],
        "protected": counts[1],
        "changes_digest": sha256_prefixed(jcs_dumps(digest_items)),
    }
    if part[1] > 1:
        details["part"] = f"{part[0] + 1}/{part[1]}"
    vault._audit.append([PendingEntry("decay", vault.actor, details=details)], at)


def decay_chunk(
    candidates: Iterable[StoredMemory], moment: datetime, settings: DecaySettings
) -> tuple[list[StoredMemory], list[list[Any]], tuple[int, int, int]]:
    """The decayed memories among `candidates` (active, not of a DNA type), the digest
    items of the changes, and the counts (examined, protected, unchanged)."""
    examined = protected = unchanged = 0
    updates: list[StoredMemory] = []
    digest_items: list[Any] = []
    # Memories imported together share timestamps: parse each text once.
    since_cache: dict[str, datetime | None] = {}
    for stored in candidates:
        examined += 1
        memory = stored.memory
        if memory.is_dna:
            protected += 1
            continue
        conf = confidence_block(memory)
        if conf is None or conf.decay_model not in DECAYING_MODELS:
            unchanged += 1
            continue
        anchor = anchor_of(stored)
        if anchor is None:
            unchanged += 1
            continue
        since_text = decay_start(memory)
        if since_text in since_cache:
            since = since_cache[since_text]
        else:
            try:
                since = parse_timestamp(since_text)
            except ValueError:
                since = None
            since_cache[since_text] = since
        if since is None:
            unchanged += 1
            continue
        value = decayed_confidence(
            str(conf.decay_model), anchor, elapsed_days(since, moment), settings
        )
        if is_number(conf.current) and round_confidence(float(conf.current)) == value:  # type: ignore[arg-type]
            unchanged += 1
            continue
        updates.append(StoredMemory(memory.evolve(confidence=conf.evolve(current=value)), anchor))
        digest_items.append([memory.id, value])
    return updates, digest_items, (examined, protected, unchanged)
