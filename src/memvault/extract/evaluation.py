"""Scoring an extractor against a labeled set (``tests/extraction_eval/messages.jsonl``).

Each line of the set is one message::

    {"id": "tune-en-001", "split": "tune" | "heldout", "lang": "en", "role": "user",
     "text": "I'm a data engineer at Acme Corp.",
     "expect": [{"type": "identity", "key": ["engineer", "acme"]}, …]}

A proposed memory matches an expected one when the types are equal and every key term occurs
in its content (case and diacritics folded). Each expected memory is matched at most once.
Precision = matched proposals / proposals; recall = matched expectations / expectations;
both per memory type and overall. Messages are run through a real PAM conversation document
(`user_messages`), so a non-user role must yield nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from memvault.extract.base import Candidate, UserMessage, fold, user_messages
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


@dataclass(slots=True)
class Score:
    """Counts per memory type (and per pattern, for calibration)."""

    proposed: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)
    expected: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    pattern_fired: Counter[str] = field(default_factory=Counter)
    pattern_correct: Counter[str] = field(default_factory=Counter)
    misses: list[tuple[str, str, str]] = field(default_factory=list)
    wrong: list[tuple[str, str, str]] = field(default_factory=list)

    def precision(self, type: str | None = None) -> float:
        proposed = self.proposed[type] if type else sum(self.proposed.values())
        correct = self.correct[type] if type else sum(self.correct.values())
        return correct / proposed if proposed else 1.0

    def recall(self, type: str | None = None) -> float:
        expected = self.expected[type] if type else sum(self.expected.values())
        found = self.found[type] if type else sum(self.found.values())
        return found / expected if expected else 1.0

    @property
    def types(self) -> list[str]:
        return sorted(set(self.proposed) | set(self.expected))


def load_set(path: Path) -> list[EvalItem]:
    """Read the labeled set; a malformed line raises ValueError naming the line."""
    items: list[EvalItem] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data: dict[str, Any] = orjson.loads(line)
            expect = tuple(
                (str(e["type"]), tuple(str(k) for k in e["key"])) for e in data["expect"]
            )
            items.append(
                EvalItem(
                    str(data["id"]),
                    str(data["split"]),
                    str(data["lang"]),
                    str(data["role"]),
                    str(data["text"]),
                    expect,
                )
            )
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a labeled message ({exc})") from None
    return items


def conversation_of(
    conversation_id: str,
    messages: Sequence[tuple[str, str, str]],
    *,
    platform: str = "manual",
) -> StoredConversation:
    """A minimal valid PAM conversation (§25) with these (role, text, created_at) messages;
    message ids are ``<conversation_id>-m<n>``."""
    created = messages[0][2] if messages else "2026-01-01T00:00:00Z"
    document: dict[str, Any] = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": conversation_id,
        "provider": {"name": platform},
        "temporal": {"created_at": created},
        "messages": [
            {
                "id": f"{conversation_id}-m{n}",
                "role": role,
                "content": {"type": "text", "text": text},
                "created_at": at,
            }
            for n, (role, text, at) in enumerate(messages, 1)
        ],
    }
    return StoredConversation(
        id=conversation_id,
        platform=platform,
        document=document,
        created_at=created,
        updated_at=messages[-1][2] if messages else None,
        message_count=len(messages),
    )


def _conversation(item: EvalItem) -> StoredConversation:
    return conversation_of(f"eval-{item.id}", [(item.role, item.text, "2026-01-01T00:00:00Z")])


def _matches(candidate: Candidate, type: str, keys: Sequence[str]) -> bool:
    content = fold(candidate.content)
    return candidate.type == type and all(fold(k) in content for k in keys)


def score(items: Iterable[EvalItem], extract: Extractor) -> Score:
    """Run `extract` over every item and count hits per type and per pattern."""
    result = Score()
    for item in items:
        proposals = list(extract(user_messages(_conversation(item))))
        used: set[int] = set()
        for type, keys in item.expect:
            result.expected[type] += 1
            for index, candidate in enumerate(proposals):
                if index not in used and _matches(candidate, type, keys):
                    used.add(index)
                    result.found[type] += 1
                    break
            else:
                result.misses.append((item.id, f"{type}:{','.join(keys)}", item.text))
        for index, candidate in enumerate(proposals):
            result.proposed[candidate.type] += 1
            result.pattern_fired[candidate.pattern] += 1
            if index in used:
                result.correct[candidate.type] += 1
                result.pattern_correct[candidate.pattern] += 1
            else:
                result.wrong.append((item.id, f"{candidate.type}: {candidate.content}", item.text))
    return result
