"""Scoring an extractor against a labeled set (``tests/extraction_eval/messages.jsonl``).

Each line of the set is one message::

    {"id": "tune-en-001", "split": "tune" | "heldout", "lang": "en", "role": "user",
     "text": "I'm a data engineer at Acme Corp.",
     "expect": [{"type": "identity", "key": ["engineer", "acme"]}, …]}

A proposed memory matches an expected one when the types are equal and every key term occurs
in its content (case and diacritics folded); the matching and the counts are those of the
conversation set (`memvault.extract.conversation_eval.tally_message`).
Precision = matched proposals / proposals; recall = matched expectations / expectations;
both per memory type and overall. Messages are run through a real PAM conversation document
(`user_messages`), so a non-user role must yield nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memvault.extract.base import Candidate, UserMessage, user_messages
from memvault.extract.conversation_eval import (
    Expected,
    Tally,
    conversation_of,
    read_labeled,
    tally_message,
)
from memvault.store.base import StoredConversation

__all__ = ["EvalItem", "Score", "conversation_of", "load_set", "score"]

Extractor = Callable[[Iterable[UserMessage]], Iterable[Candidate]]


@dataclass(frozen=True, slots=True)
class EvalItem:
    id: str
    split: str
    lang: str
    role: str
    text: str
    expect: tuple[tuple[str, tuple[str, ...]], ...]


#: The counts of a run: the same `Tally` the conversation set is scored with.
Score = Tally


def _item(data: dict[str, Any]) -> EvalItem:
    return EvalItem(
        str(data["id"]),
        str(data["split"]),
        str(data["lang"]),
        str(data["role"]),
        str(data["text"]),
        tuple((str(e["type"]), tuple(str(k) for k in e["key"])) for e in data["expect"]),
    )


def load_set(path: Path) -> list[EvalItem]:
    """Read the labeled set; a malformed line raises ValueError naming the line."""
    return read_labeled(path, _item, "a labeled message")


def _conversation(item: EvalItem) -> StoredConversation:
    return conversation_of(f"eval-{item.id}", [(item.role, item.text, "2026-01-01T00:00:00Z")])


def score(items: Iterable[EvalItem], extract: Extractor) -> Score:
    """Run `extract` over every item and count hits per type and per pattern (the scoring of
    `memvault.extract.conversation_eval.tally_message`)."""
    result = Score()
    for item in items:
        proposals = list(extract(user_messages(_conversation(item))))
        expected = [Expected(type, keys) for type, keys in item.expect]
        tally_message(result, item.id, item.text, expected, proposals)
    return result
