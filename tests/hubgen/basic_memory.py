"""basic-memory notes, as its `docs/NOTE-FORMAT.md` describes them: YAML frontmatter
(`title`, `type`, `permalink`, `tags` as a list or a comma-separated string, `created`,
`modified`, other keys kept), a `# Title`, prose with `[[wiki links]]`, observations
`- [category] content #tag (context)` and relations `- relation_type [[Target]] (context)`
(a multi-word type quoted), under the customary `## Observations` and `## Relations`
headings; task checkboxes and timestamps in brackets are not observations."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

PEOPLE = ("Ana Pereira", "Joana Pereira", "Rui Costa", "Acme Robotics", "Lisbon Office")
OBSERVATIONS = (
    ("preference", "Prefers metric units #units"),
    ("location", "Lives in Lisbon since April 2026"),
    ("fact", "Has two cats #pets #home"),
    ("skill", "Speaks Portuguese and English"),
    ("goal", "Wants to run a marathon in 2027 #health"),
    ("decision", "Chose SQLite for the prototype"),
    ("hobby", "Plays chess on Sundays"),
)
RELATIONS = ("works_at", "knows", "sister of", "part_of", "supports")

EXAMPLE = """---
title: Ana Pereira
type: person
permalink: main/people/ana-pereira
tags: [family, lisbon]
created: 2026-04-20T10:00:00Z
source: chat-import
---
# Ana Pereira

- [preference] Prefers metric units #units
- [location] Lives in Lisbon since April 2026 (said on 2026-05-02)
- works_at [[Acme Robotics]]
- "sister of" [[Joana Pereira]]
"""
"""The facts file's example note (§3.5)."""


def note(rng: random.Random, title: str, others: list[str]) -> dict[str, Any]:
    chosen = rng.sample(OBSERVATIONS, rng.randint(1, 4))
    # Each note's own wording: the same text in two notes would be one memory (PAM §6).
    observations = [
        (c, f"{title}: {t}", "said in May" if rng.random() < 0.3 else None) for c, t in chosen
    ]
    relations = [(rng.choice(RELATIONS), rng.choice(others)) for _ in range(rng.randint(0, 2))]
    return {
        "title": title,
        "type": rng.choice(("person", "project", "note")),
        "permalink": "main/" + title.lower().replace(" ", "-"),
        "tags": rng.sample(["family", "work", "lisbon"], rng.randint(0, 2)),
        "created": "2026-04-20T10:00:00Z",
        "observations": observations,
        "relations": list(dict.fromkeys(relations)),
    }


def render(spec: dict[str, Any], *, comma_tags: bool = False) -> str:
    tags = ", ".join(spec["tags"]) if comma_tags else "[" + ", ".join(spec["tags"]) + "]"
    lines = [
        "---", f"title: {spec['title']}", f"type: {spec['type']}",
        f"permalink: {spec['permalink']}", f"tags: {tags}", f"created: {spec['created']}",
        "---", f"# {spec['title']}", "",
        f"Notes about {spec['title']}; see also [[{PEOPLE[0]}]].", "",
        "- [ ] a task, not an observation", "- [x] a done task", "", "## Observations",
    ]  # fmt: skip
    for category, text, context in spec["observations"]:
        lines.append(f"- [{category}] {text}" + (f" ({context})" if context else ""))
    lines += ["", "## Relations"]
    for kind, target in spec["relations"]:
        shown = f'"{kind}"' if " " in kind else kind
        lines.append(f"- {shown} [[{target}]]")
    return "\n".join(lines) + "\n"


def folder(rng: random.Random, root: Path, count: int = 4) -> list[dict[str, Any]]:
    titles = list(PEOPLE[:count])
    specs = [note(rng, t, [o for o in titles if o != t]) for t in titles]
    for index, spec in enumerate(specs):
        path = root / ("people" if spec["type"] == "person" else "notes") / f"{spec['title']}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(spec, comma_tags=index % 2 == 1), encoding="utf-8")
    return specs
