"""Overviews of a vault for charts: when memories were made (by month, by type and by
platform) and the graph of their relations (PAM §13). Read through the session, so an agent
sees only what it may read (PAM §9)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from memvault.store.base import MemoryQuery

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["derived_memories", "relation_graph", "timeline"]

#: A graph node's label: the start of the memory's content.
LABEL_CHARS = 80
#: The longest run of months a timeline fills in (50 years): beyond it, a stray date would
#: make thousands of empty bars, so only the months with memories are listed.
MAX_FILLED_MONTHS = 600


def timeline(vault: Vault, *, statuses: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``{"months": ["2025-01", …], "by_type": {type: [count per month]}, "by_platform":
    {platform: [count per month]}, "total"}``: memories by the month they were created
    (their `temporal.created_at`), every status unless `statuses` says otherwise."""
    types: Counter[tuple[str, str]] = Counter()
    platforms: Counter[tuple[str, str]] = Counter()
    months: set[str] = set()
    total = 0
    query = MemoryQuery(statuses=statuses, limit=None)
    for memory in vault.iter_memories(query):
        month = str(memory.temporal.created_at or "")[:7] or "unknown"
        months.add(month)
        types[(memory.type, month)] += 1
        platforms[(str(memory.provenance.platform or "unknown"), month)] += 1
        total += 1
    ordered = _calendar(months)

    def series(counts: Counter[tuple[str, str]]) -> dict[str, list[int]]:
        keys = sorted({key for key, _month in counts})
        return {key: [counts[(key, month)] for month in ordered] for key in keys}

    return {
        "months": ordered,
        "by_type": series(types),
        "by_platform": series(platforms),
        "total": total,
    }


def _calendar(months: set[str]) -> list[str]:
    """The months in order with the empty ones between the first and the last filled in, so a
    chart's axis reads as continuous time; anything not a ``YYYY-MM`` month goes last."""
    dated = sorted(
        m for m in months if len(m) == 7 and m[4] == "-" and m.replace("-", "").isdigit()
    )
    other = sorted(months.difference(dated))
    if not dated:
        return other
    first, last = (int(m[:4]) * 12 + int(m[5:]) - 1 for m in (dated[0], dated[-1]))
    if last - first >= MAX_FILLED_MONTHS:
        return dated + other
    return [f"{n // 12:04d}-{n % 12 + 1:02d}" for n in range(first, last + 1)] + other


def relation_graph(vault: Vault, *, limit: int = 500) -> dict[str, Any]:
    """``{"nodes": [{"id", "type", "status", "label"}], "edges": [{"id", "from", "to",
    "type"}], "total_edges", "truncated"}``: the first `limit` relations and the memories
    at their ends. The owner's (`Vault.iter_relations`)."""
    edges: list[dict[str, Any]] = []
    total = 0
    for relation in vault.iter_relations():
        total += 1
        if len(edges) < limit:
            edges.append(
                {
                    "id": relation.id,
                    "from": relation.from_,
                    "to": relation.to,
                    "type": relation.type,
                }
            )
    ids = sorted({e["from"] for e in edges} | {e["to"] for e in edges})
    nodes = []
    if ids:
        page = vault.list(MemoryQuery(ids=tuple(ids), statuses=None, limit=None))
        for memory in page.items:
            content = memory.content
            label = content if len(content) <= LABEL_CHARS else content[: LABEL_CHARS - 1] + "…"
            nodes.append(
                {
                    "id": memory.id,
                    "type": memory.type,
                    "status": memory.effective_status,
                    "label": label,
                }
            )
    return {"nodes": nodes, "edges": edges, "total_edges": total, "truncated": total > limit}


def derived_memories(vault: Vault, conversation_id: str, *, limit: int = 200) -> dict[str, Any]:
    """``{"conversation", "total", "memories"}``: the memories (any status) whose provenance
    names the conversation (`provenance.conversation_ref`), newest first, at most `limit`."""
    found = [
        m
        for m in vault.iter_memories(MemoryQuery(statuses=None, limit=None))
        if m.provenance.conversation_ref == conversation_id
    ]
    found.sort(key=lambda m: str(m.temporal.created_at or ""), reverse=True)
    return {
        "conversation": conversation_id,
        "total": len(found),
        "memories": [m.to_json() for m in found[:limit]],
    }
