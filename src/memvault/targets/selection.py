"""Which memories a rendering for an assistant may carry, and in what order.

Never: superseded, retracted or archived memories, memories marked ``exportable: false``
(PAM §9, §21.1), memories whose ``valid_until`` has passed. First: DNA-class memories (AIMEM
§5.1 — preferences, identity, instructions, decisions; `Memory.is_dna`), then by confidence,
then the most recently updated. With a query, recall's order instead (`Vault.recall`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from memvault.model import DNA_CUSTOM_TYPES, Access, Confidence, Memory, parse_timestamp
from memvault.store.base import MemoryQuery

if TYPE_CHECKING:
    from memvault.vault import Vault

#: Why a memory was left out (the keys of `Selection.left_out` and `Rendering.left_out`).
SUPERSEDED: Final = "superseded"
RETRACTED: Final = "retracted"
ARCHIVED: Final = "archived"
NOT_EXPORTABLE: Final = "not exportable"
EXPIRED: Final = "no longer valid"
OVER_BUDGET: Final = "over the budget"
TOO_LONG: Final = "longer than the budget"

#: Statuses a rendering never carries, with the reason it gives.
_EXCLUDED_STATUS: Final = {"superseded": SUPERSEDED, "retracted": RETRACTED, "archived": ARCHIVED}
#: How many recall hits a query selection considers.
RECALL_CANDIDATES: Final = 200


@dataclass(frozen=True, slots=True)
class Selection:
    """The memories a rendering may carry, best first, and how many were excluded, by
    reason."""

    memories: list[Memory]
    left_out: Counter[str]


def category(memory: Memory) -> str:
    """The heading a memory goes under: instruction, identity, preference, decision (the
    DNA-class custom types) or other."""
    if memory.type in ("instruction", "identity", "preference"):
        return memory.type
    if memory.type == "custom" and memory.custom_type in DNA_CUSTOM_TYPES:
        return "decision"
    return "other"


def _confidence(memory: Memory) -> float:
    conf = memory.confidence
    if isinstance(conf, Confidence):
        for value in (conf.current, conf.initial):
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    return 0.0


def _recency(memory: Memory) -> str:
    updated = memory.temporal.updated_at
    return updated if isinstance(updated, str) else memory.temporal.created_at


def exclusion(memory: Memory, now: datetime) -> str | None:
    """Why `memory` may never be rendered, or None when it may."""
    reason = _EXCLUDED_STATUS.get(memory.effective_status)
    if reason is not None:
        return reason
    if isinstance(memory.access, Access) and not memory.access.is_exportable:
        return NOT_EXPORTABLE
    until = memory.temporal.valid_until
    if isinstance(until, str):
        try:
            if parse_timestamp(until) < now:
                return EXPIRED
        except ValueError:  # a malformed date says nothing about validity
            pass
    return None


def prioritized(memories: Iterable[Memory]) -> list[Memory]:
    """DNA-class first, active before deprecated, then higher confidence, then more recent."""
    ordered = sorted(memories, key=_recency, reverse=True)
    ordered.sort(key=lambda m: (not m.is_dna, m.effective_status != "active", -_confidence(m)))
    return ordered


def select(vault: Vault, *, query: str | None = None, now: datetime) -> Selection:
    """The memories of `vault` (as its session may read them) a rendering may carry."""
    left_out: Counter[str] = Counter()
    kept: list[Memory] = []
    if query is None:
        every = MemoryQuery(statuses=None, limit=None)
        for memory in vault.iter_memories(every):
            reason = exclusion(memory, now)
            if reason is None:
                kept.append(memory)
            else:
                left_out[reason] += 1
        return Selection(prioritized(kept), left_out)
    result = vault.recall(query, RECALL_CANDIDATES, kind="memories", now=now)
    for hit in result.hits:
        if hit.memory is None:
            continue
        reason = exclusion(hit.memory, now)
        if reason is None:
            kept.append(hit.memory)
        else:
            left_out[reason] += 1
    return Selection(kept, left_out)
