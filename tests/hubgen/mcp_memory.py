"""MCP reference memory server graphs (`memory.jsonl`), as its `saveGraph` writes them: one
compact JSON object a line, every entity line first (`type`, `name`, `entityType`,
`observations`), then every relation line (`type`, `from`, `to`, `relationType`); entity names
unique, observations unique within an entity, relations unique on (from, to, relationType)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

ENTITY_TYPES = ("person", "organization", "project", "place", "event", "concept")
WORDS = (
    "prefers metric units", "moved to Lisbon", "likes green tea", "works remotely",
    "speaks Portuguese", "builds warehouse robots", "plays chess on Sundays",
    "is allergic to cats", "uses Neovim", "wants to learn the cello", "ships on Fridays",
    "São Paulo office", "naïve café order", "has two kids", "reads sci-fi",
)  # fmt: skip
VERBS = ("works_at", "knows", "manages", "lives_in", "part of", "supports", "related_to")

EXAMPLE = (
    '{"type":"entity","name":"Ana_Pereira","entityType":"person","observations":'
    '["Prefers metric units","Moved to Lisbon in April 2026"]}\n'
    '{"type":"entity","name":"Acme_Robotics","entityType":"organization","observations":'
    '["Builds warehouse robots"]}\n'
    '{"type":"relation","from":"Ana_Pereira","to":"Acme_Robotics","relationType":"works_at"}'
)
"""The facts file's example (§4.3), without a trailing newline as early servers saved it."""


def graph(rng: random.Random, entities: int = 6, relations: int = 8) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    names = [
        f"{rng.choice(('Ana', 'Rui', 'Acme', 'Lisbon', 'Chess'))}_{i}" for i in range(entities)
    ]
    for name in names:
        observations = rng.sample(WORDS, rng.randint(0, 4))
        out.append(
            {
                "type": "entity",
                "name": name,
                "entityType": rng.choice(ENTITY_TYPES),
                "observations": [f"{o} ({name})" for o in observations],
            }
        )
    seen = set()
    for _ in range(relations if entities > 1 else 0):
        source, target = rng.sample(names, 2)
        verb = rng.choice(VERBS)
        if (source, target, verb) not in seen:
            seen.add((source, target, verb))
            out.append({"type": "relation", "from": source, "to": target, "relationType": verb})
    return out


def dumps(records: list[dict[str, Any]], *, trailing_newline: bool = True) -> str:
    text = "\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
    return text + ("\n" if trailing_newline else "")


def write(path: Path, records: list[dict[str, Any]], *, trailing_newline: bool = True) -> Path:
    path.write_text(dumps(records, trailing_newline=trailing_newline), encoding="utf-8")
    return path


def standard(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as the server itself keeps them (unknown members dropped)."""
    keys = {"entity": ("type", "name", "entityType", "observations"),
            "relation": ("type", "from", "to", "relationType")}  # fmt: skip
    return [{k: r[k] for k in keys[r["type"]]} for r in records if r.get("type") in keys]
