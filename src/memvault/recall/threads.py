"""A conversation's messages as a person reads them: in order, with its branches (PAM §25.3
``parent_id``: a message answered more than once, a question edited and asked again)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from memvault.recall.index import message_text

__all__ = ["Line", "thread"]


@dataclass(frozen=True, slots=True)
class Line:
    """One message to show: `depth` levels of branching in, and `branch` (i, n) when it
    starts the i-th of n branches from the same parent."""

    id: str
    speaker: str
    at: str | None
    text: str
    depth: int
    branch: tuple[int, int] | None


def thread(document: Mapping[str, Any]) -> Iterator[Line]:
    """The messages depth first from each root, siblings in document order. A message whose
    parent is not in the conversation starts a root of its own."""
    messages = [
        m
        for m in document.get("messages") or []
        if isinstance(m, Mapping) and isinstance(m.get("id"), str)
    ]
    names: dict[str, str] = {}
    for p in document.get("participants") or []:
        if isinstance(p, Mapping) and isinstance(p.get("name"), str) and p.get("role"):
            names.setdefault(str(p["role"]), str(p["name"]))
    known = {m["id"] for m in messages}
    children: dict[str | None, list[Mapping[str, Any]]] = {}
    for message in messages:
        parent = message.get("parent_id")
        key = parent if isinstance(parent, str) and parent in known else None
        children.setdefault(key, []).append(message)
    seen: set[str] = set()
    # (message, depth, branch) — a stack, so a long conversation needs no recursion.
    stack: list[tuple[Mapping[str, Any], int, tuple[int, int] | None]] = [
        (m, 0, None) for m in reversed(children.get(None, []))
    ]
    while stack:
        message, depth, branch = stack.pop()
        mid = str(message["id"])
        if mid in seen:
            continue
        seen.add(mid)
        role = str(message.get("role") or "?")
        at = message.get("created_at")
        # A model's thinking (Claude's extended thinking) is not what it said.
        thinking = " (thinking)" if message.get("is_thought") is True else ""
        yield Line(
            mid,
            names.get(role, role) + thinking,
            at if isinstance(at, str) else None,
            message_text(message),
            depth,
            branch,
        )
        kids = children.get(mid, [])
        if len(kids) == 1:
            stack.append((kids[0], depth, None))
        else:
            for i, kid in reversed(list(enumerate(kids, start=1))):
                stack.append((kid, depth + 1, (i, len(kids))))
