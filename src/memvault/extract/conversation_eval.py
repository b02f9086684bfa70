"""Scoring an extractor against the conversation evaluation set
(``benchmarks/extraction_set/conversations.jsonl``; format and split rule in its README).

A proposed memory matches an expected one of the *same message* when the types are equal, its
content contains every key and none of the forbidden strings (case and diacritics folded);
each expected memory is matched at most once. Precision, recall and F1 are counted per
language and per memory type; the confidence ROC AUC says how well a proposal's confidence
ranks matched proposals above unmatched ones (0.5: no better than chance).

Each conversation goes through a real PAM conversation document (§25), named speakers in
``participants`` and each message's ``raw_metadata.speaker``, so the extractor reads exactly
what an import would give it.
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

__all__ = [
    "Conversation",
    "Expected",
    "Tally",
    "load_conversations",
    "roc_auc",
    "score_conversations",
    "stored",
]

Extractor = Callable[[list[UserMessage]], Iterable[Candidate]]


@dataclass(frozen=True, slots=True)
class Expected:
    type: str
    keys: tuple[str, ...]
    forbid: tuple[str, ...] = ()

    def matches(self, candidate: Candidate) -> bool:
        content = fold(candidate.content)
        return (
            candidate.type == self.type
            and all(fold(k) in content for k in self.keys)
            and not any(fold(f) in content for f in self.forbid)
        )


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    text: str
    at: str
    speaker: str | None
    expect: tuple[Expected, ...]


@dataclass(frozen=True, slots=True)
class Conversation:
    id: str
    split: str
    lang: str
    participants: tuple[str, ...]
    messages: tuple[Message, ...]


@dataclass(slots=True)
class Tally:
    """Counts per memory type, the (confidence, right) pairs, and the errors."""

    proposed: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)
    expected: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    confidences: list[tuple[float, bool]] = field(default_factory=list)
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

    def f1(self, type: str | None = None) -> float:
        p, r = self.precision(type), self.recall(type)
        return 2 * p * r / (p + r) if p + r else 0.0

    def auc(self) -> float:
        return roc_auc(self.confidences)

    @property
    def types(self) -> list[str]:
        return sorted(set(self.proposed) | set(self.expected))


def roc_auc(pairs: Sequence[tuple[float, bool]]) -> float:
    """The probability that a random right proposal has a higher confidence than a random
    wrong one (ties count half); 1.0 when there are no wrong ones, 0.5 with no right ones."""
    right = [c for c, ok in pairs if ok]
    wrong = [c for c, ok in pairs if not ok]
    if not wrong:
        return 1.0
    if not right:
        return 0.5
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / (len(right) * len(wrong))


def load_conversations(path: Path) -> list[Conversation]:
    """Read the set; a malformed line raises ValueError naming the line."""
    out: list[Conversation] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data: dict[str, Any] = orjson.loads(line)
            messages = tuple(
                Message(
                    str(m["role"]),
                    str(m["text"]),
                    str(m["at"]),
                    m.get("speaker"),
                    tuple(
                        Expected(
                            str(x["type"]),
                            tuple(str(k) for k in x["key"]),
                            tuple(str(f) for f in x.get("forbid", ())),
                        )
                        for x in m["expect"]
                    ),
                )
                for m in data["messages"]
            )
            out.append(
                Conversation(
                    str(data["id"]),
                    str(data["split"]),
                    str(data["lang"]),
                    tuple(data.get("participants", ())),
                    messages,
                )
            )
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a labeled conversation ({exc})") from None
    return out


def stored(conversation: Conversation, *, platform: str = "manual") -> StoredConversation:
    """The conversation as a PAM conversation document (§25); message ids ``<id>-m<n>``."""
    cid = f"eval-{conversation.id}"
    participants: list[dict[str, Any]] = [{"role": "assistant", "name": None}]
    participants += [{"role": "user", "name": name} for name in conversation.participants]
    messages: list[dict[str, Any]] = []
    for n, m in enumerate(conversation.messages, 1):
        message: dict[str, Any] = {
            "id": f"{cid}-m{n}",
            "role": m.role,
            "content": {"type": "text", "text": m.text},
            "created_at": m.at,
        }
        if m.speaker:
            message["raw_metadata"] = {"speaker": m.speaker}
        messages.append(message)
    first = conversation.messages[0].at
    document: dict[str, Any] = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {"name": platform},
        "temporal": {"created_at": first},
        "participants": participants,
        "messages": messages,
    }
    return StoredConversation(
        id=cid,
        platform=platform,
        document=document,
        created_at=first,
        updated_at=conversation.messages[-1].at,
        message_count=len(messages),
    )


def score_conversations(
    conversations: Iterable[Conversation], extract: Extractor
) -> dict[str, Tally]:
    """Run `extract` over each conversation's user messages; a Tally per language and
    ``"all"``."""
    tallies: dict[str, Tally] = {}
    for conversation in conversations:
        doc = stored(conversation)
        messages = list(user_messages(doc))
        proposals = list(extract(messages))
        by_message: dict[str, list[Candidate]] = {}
        for candidate in proposals:
            by_message.setdefault(candidate.source.message_id, []).append(candidate)
        for tally in (
            tallies.setdefault(conversation.lang, Tally()),
            tallies.setdefault("all", Tally()),
        ):
            for n, message in enumerate(conversation.messages, 1):
                mid = f"{doc.id}-m{n}"
                found = by_message.get(mid, [])
                used: set[int] = set()
                for want in message.expect:
                    tally.expected[want.type] += 1
                    for index, candidate in enumerate(found):
                        if index not in used and want.matches(candidate):
                            used.add(index)
                            tally.found[want.type] += 1
                            break
                    else:
                        label = f"{want.type}:{','.join(want.keys)}"
                        tally.misses.append((mid, label, message.text))
                for index, candidate in enumerate(found):
                    right = index in used
                    tally.proposed[candidate.type] += 1
                    tally.confidences.append((candidate.confidence, right))
                    tally.pattern_fired[candidate.pattern] += 1
                    if right:
                        tally.correct[candidate.type] += 1
                        tally.pattern_correct[candidate.pattern] += 1
                    else:
                        label = f"{candidate.type} {candidate.confidence}: {candidate.content}"
                        tally.wrong.append((mid, label, message.text))
    return tallies
