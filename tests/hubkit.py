"""Shared helpers for the hub tests: PAM memories generated with Hypothesis (valid PAM, the
fields a round trip must keep), and the comparison of memories across a round trip."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from clikit import ok, refused, snapshot
from memvault.canonical import content_hash
from memvault.formats.pam.schema import validate_memories

TYPES = ("fact", "preference", "skill", "context", "relationship", "goal", "instruction",
         "identity", "environment", "project", "custom")  # fmt: skip
STATUSES = ("active", "superseded", "deprecated", "retracted", "archived")

_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=60,
).filter(lambda s: s.strip() != "" and s == s.strip())
_tag = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,10}", fullmatch=True)
_seconds = st.integers(min_value=1_500_000_000, max_value=1_900_000_000)


def _stamp(seconds: int) -> str:
    import datetime as dt

    moment = dt.datetime.fromtimestamp(seconds, dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@st.composite
def pam_memories(
    draw: st.DrawFn, *, statuses: Iterable[str] = STATUSES, min_size: int = 1, max_size: int = 8
) -> list[dict[str, Any]]:
    """Valid PAM memories with distinct contents (a vault keeps one active memory per
    content), every type and the given statuses, whole-second UTC times, tags, metadata."""
    chosen = tuple(statuses)
    contents = draw(st.lists(_text, min_size=min_size, max_size=max_size, unique_by=content_hash))
    ids = draw(st.lists(st.uuids(version=4), min_size=len(contents), max_size=len(contents),
                        unique=True))  # fmt: skip
    out = []
    for content, memory_id in zip(contents, ids, strict=True):
        kind = draw(st.sampled_from(TYPES))
        created = draw(_seconds)
        memory: dict[str, Any] = {
            "id": str(memory_id),
            "type": kind,
            "status": draw(st.sampled_from(chosen)),
            "content": content,
            "content_hash": content_hash(content),
            "temporal": {"created_at": _stamp(created)},
            "provenance": {
                "platform": "chatgpt",
                "extraction_method": "manual",
                "extracted_at": _stamp(created),
            },
        }
        if kind == "custom":
            memory["custom_type"] = draw(_tag)
        if draw(st.booleans()):
            memory["temporal"]["updated_at"] = _stamp(created + draw(st.integers(0, 10**6)))
        tags = draw(st.lists(_tag, max_size=3, unique=True))
        if tags:
            memory["tags"] = tags
        if draw(st.booleans()):
            memory["metadata"] = {"note": draw(_text), "n": draw(st.integers(0, 99))}
        out.append(memory)
    assert validate_memories(out, 0) == []
    return out


KEPT = ("id", "type", "custom_type", "status", "content", "content_hash", "tags")


def essentials(memory: Mapping[str, Any]) -> dict[str, Any]:
    """What PAM → X → PAM must keep of a memory: id, type, status, content, tags and times."""
    out = {k: memory.get(k) for k in KEPT}
    temporal = memory.get("temporal") or {}
    out["created_at"] = temporal.get("created_at")
    out["updated_at"] = temporal.get("updated_at")
    out["status"] = out["status"] or "active"
    out["tags"] = sorted(out["tags"] or [])
    return out


def by_id(memories: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(m["id"]): essentials(m) for m in memories}


def listed() -> list[dict[str, Any]]:
    """Every memory of the vault, of any status, as `memvault list --json` gives them."""
    memories: list[dict[str, Any]] = ok("list", "--status", "all", "--limit", "0", "--json").json()[
        "memories"
    ]
    return memories


def import_refused(path: Path, fmt: str, said: str) -> None:
    """`memvault import PATH --from FMT` into a new vault holding one memory is refused,
    saying `said` and that nothing was imported, and leaves the vault as it was."""
    ok("init")
    ok("add", "Likes jazz", "-t", "preference")
    before = snapshot()
    message = refused("import", path, "--from", fmt)
    assert said in message and "nothing was imported" in message
    assert snapshot() == before
