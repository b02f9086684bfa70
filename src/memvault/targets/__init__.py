"""Memories as the text other assistants accept (PAM §20.2): a system prompt for any LLM,
ChatGPT's custom instructions and memory, Claude's memory import and project instructions,
Gemini's Saved info and Gem instructions.

    from memvault.targets import render
    rendering = render(vault, "chatgpt", budget=3000, query=None)

Budgets are in characters (an offline token estimate, characters / 4, is reported beside
them). What may be rendered and in what order: `memvault.targets.selection`; how each target
is laid out: `memvault.targets.layout`; the rules are in docs/targets.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from memvault.errors import InvalidInput
from memvault.targets.language import LANGUAGES, detect
from memvault.targets.layout import CHATGPT_FIELD_LIMIT, TARGETS, Text, pack
from memvault.targets.selection import OVER_BUDGET, TOO_LONG, select

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = [
    "CHARS_PER_TOKEN",
    "CHATGPT_FIELD_LIMIT",
    "MIN_BUDGET",
    "TARGET_NAMES",
    "Rendering",
    "Text",
    "estimate_tokens",
    "render",
]

TARGET_NAMES: Final = tuple(TARGETS)
#: The offline token estimate: about four characters per token for English and Portuguese.
CHARS_PER_TOKEN: Final = 4
#: The smallest budget that holds a heading and a short memory.
MIN_BUDGET: Final = 40


def estimate_tokens(text: str) -> int:
    """A token count that needs no tokenizer: characters / 4, rounded up."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class Rendering:
    """The texts of one target, and what was left out and why."""

    target: str
    language: str
    budget: int
    query: str | None
    texts: tuple[Text, ...]
    included: int
    left_out: Mapping[str, int]

    @property
    def total_left_out(self) -> int:
        return sum(self.left_out.values())

    def summary(self) -> str:
        """One sentence: how many memories went in, how many were left out and why."""
        text = f"{self.included} {'memory' if self.included == 1 else 'memories'} included"
        if not self.left_out:
            return text + "; none left out."
        reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(self.left_out.items()))
        return f"{text}; {self.total_left_out} left out ({reasons})."

    def document(self) -> str:
        """Every text under its title, for a file or the terminal (one text alone: as is)."""
        if len(self.texts) == 1:
            return self.texts[0].text + "\n"
        parts = [f"## {t.title}\n\n{t.text}\n" for t in self.texts if t.text]
        return "\n".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "language": self.language,
            "unit": "characters",
            "budget": self.budget,
            "query": self.query,
            "texts": [
                {
                    "name": t.name,
                    "title": t.title,
                    "text": t.text,
                    "characters": len(t.text),
                    "estimated_tokens": estimate_tokens(t.text),
                    "limit": t.limit,
                    "memory_ids": list(t.memory_ids),
                }
                for t in self.texts
            ],
            "included": self.included,
            "left_out": dict(sorted(self.left_out.items())),
            "summary": self.summary(),
        }


def render(
    vault: Vault,
    target: str,
    *,
    budget: int | None = None,
    query: str | None = None,
    language: str | None = None,
    now: datetime | None = None,
) -> Rendering:
    """``render(vault, target, *, budget=None, query=None, language=None, now=None)
    -> Rendering``

    The memories `vault`'s session may read, as `target` ("system-prompt", "chatgpt",
    "claude", "gemini") takes them: DNA-class first, then confidence, then recency — or, with
    `query`, the memories recall finds for it, best first. Each text is at most `budget`
    characters (default: the target's; ChatGPT's fields never more than 1,500). `language`
    ("en", "pt"; default: the memories') chooses the headings. Raises InvalidInput."""
    spec = TARGETS.get(target)
    if spec is None:
        raise InvalidInput(
            f"unknown target {target!r}; supported: {', '.join(TARGET_NAMES)}", "target"
        )
    if budget is None:
        budget = spec.default_budget
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < MIN_BUDGET:
        raise InvalidInput(
            f"the budget must be a whole number of characters ≥ {MIN_BUDGET}, not {budget!r}",
            "budget",
        )
    if language is not None and language not in LANGUAGES:
        raise InvalidInput(
            f"unknown language {language!r}; supported: {', '.join(LANGUAGES)}", "language"
        )
    if query is not None and not query.strip():
        raise InvalidInput("the query is empty; give words to recall by, or no query", "query")
    moment = now or datetime.now(UTC)
    selection = select(vault, query=query, now=moment)
    chosen = language or detect(selection.memories[:500])
    texts, over, too_long = pack(spec, selection.memories, budget, chosen)
    left_out: Counter[str] = Counter(selection.left_out)
    if over:
        left_out[OVER_BUDGET] += over
    if too_long:
        left_out[TOO_LONG] += too_long
    included = sum(len(t.memory_ids) for t in texts)
    return Rendering(target, chosen, budget, query, tuple(texts), included, left_out)
