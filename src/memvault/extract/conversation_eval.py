"""Scoring an extractor against the conversation evaluation set
(``benchmarks/extraction_set/conversations.jsonl``; format and split rule in its README).

A proposed memory matches an expected one of the *same message* when the types are equal, its
content contains every key and none of the forbidden strings (case and diacritics folded);
each expected memory is matched at most once, each proposal at most once, and as many pairs
are made as can be (a maximum matching: a proposal that could answer two expectations never
takes the only proposal another one could use). Precision, recall and F1 are counted per
language and per memory type; the confidence ROC AUC says how well a proposal's confidence
ranks matched proposals above unmatched ones (0.5: no better than chance; undefined — None —
when all proposals are right or all wrong, with a bootstrap interval for small counts).

`tally_message` is the one scoring of one message's proposals, used here and by the
single-message labeled set (`memvault.extract.evaluation`).

Each conversation goes through a real PAM conversation document (§25), named speakers in
``participants`` and each message's ``raw_metadata.speaker``, so the extractor reads exactly
what an import would give it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

from memvault.extract.base import Candidate, UserMessage, fold, user_messages
from memvault.store.base import StoredConversation

__all__ = [
    "Conversation",
    "Expected",
    "Tally",
    "auc_interval",
    "conversation_of",
    "load_conversations",
    "match",
    "read_labeled",
    "roc_auc",
    "score_conversations",
    "stored",
    "tally_message",
]

Extractor = Callable[[list[UserMessage]], Iterable[Candidate]]
T = TypeVar("T")


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
    #: Every proposal with whether it was right (for fitting the confidence model).
    judged: list[tuple[Candidate, bool]] = field(default_factory=list)

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

    def auc(self) -> float | None:
        return roc_auc(self.confidences)

    def auc_interval(self) -> tuple[float, float] | None:
        return auc_interval(self.confidences)

    @property
    def wrong_count(self) -> int:
        return sum(1 for _, ok in self.confidences if not ok)

    @property
    def types(self) -> list[str]:
        return sorted(set(self.proposed) | set(self.expected))


def roc_auc(pairs: Sequence[tuple[float, bool]]) -> float | None:
    """The probability that a random right proposal has a higher confidence than a random
    wrong one (ties count half); None when there are no wrong ones or no right ones (nothing
    to separate: a set without wrong proposals says nothing about confidence)."""
    right = [c for c, ok in pairs if ok]
    wrong = [c for c, ok in pairs if not ok]
    if not wrong or not right:
        return None
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / (len(right) * len(wrong))


def auc_interval(
    pairs: Sequence[tuple[float, bool]], *, rounds: int = 2000, seed: int = 0
) -> tuple[float, float] | None:
    """A 95 % percentile bootstrap interval of `roc_auc` (proposals resampled with
    replacement; resamples without both right and wrong ones are left out). None when the
    AUC itself is undefined. Deterministic for a given seed."""
    if roc_auc(pairs) is None:
        return None
    rng = random.Random(seed)
    values: list[float] = []
    for _ in range(rounds):
        value = roc_auc([pairs[rng.randrange(len(pairs))] for _ in pairs])
        if value is not None:
            values.append(value)
    values.sort()
    return values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))]


def match(expected: Sequence[Expected], proposals: Sequence[Candidate]) -> dict[int, int]:
    """A maximum matching of expectations to proposals ({expectation index: proposal index}),
    each used at most once (augmenting paths; the sets are a handful per message)."""
    edges = [[j for j, c in enumerate(proposals) if want.matches(c)] for want in expected]
    owner: dict[int, int] = {}  # proposal -> expectation

    def place(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(expected)):
        place(i, set())
    return {i: j for j, i in owner.items()}


def tally_message(
    tally: Tally,
    message_id: str,
    text: str,
    expected: Sequence[Expected],
    proposals: Sequence[Candidate],
) -> None:
    """Count one message: its expectations, its proposals, which match (`match`), the
    (confidence, right) pairs, per-pattern hits, and the misses and wrong proposals."""
    pairs = match(expected, proposals)
    used = set(pairs.values())
    for index, want in enumerate(expected):
        tally.expected[want.type] += 1
        if index in pairs:
            tally.found[want.type] += 1
        else:
            tally.misses.append((message_id, f"{want.type}:{','.join(want.keys)}", text))
    for index, candidate in enumerate(proposals):
        right = index in used
        tally.proposed[candidate.type] += 1
        tally.confidences.append((candidate.confidence, right))
        tally.judged.append((candidate, right))
        tally.pattern_fired[candidate.pattern] += 1
        if right:
            tally.correct[candidate.type] += 1
            tally.pattern_correct[candidate.pattern] += 1
        else:
            label = f"{candidate.type} {candidate.confidence}: {candidate.content}"
            tally.wrong.append((message_id, label, text))


def read_labeled(path: Path, parse: Callable[[dict[str, Any]], T], what: str) -> list[T]:
    """Each non-blank line of a JSONL file through `parse`; a line that is not JSON or lacks
    a field raises ValueError naming the file, the line and `what` it should be."""
    out: list[T] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(parse(orjson.loads(line)))
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not {what} ({exc})") from None
    return out


def _expected(data: dict[str, Any]) -> Expected:
    return Expected(
        str(data["type"]),
        tuple(str(k) for k in data["key"]),
        tuple(str(f) for f in data.get("forbid", ())),
    )


def _conversation(data: dict[str, Any]) -> Conversation:
    messages = tuple(
        Message(
            str(m["role"]),
            str(m["text"]),
            str(m["at"]),
            m.get("speaker"),
            tuple(_expected(x) for x in m["expect"]),
        )
        for m in data["messages"]
    )
    return Conversation(
        str(data["id"]),
        str(data["split"]),
        str(data["lang"]),
        tuple(data.get("participants", ())),
        messages,
    )


def load_conversations(path: Path) -> list[Conversation]:
    """Read the set; a malformed line raises ValueError naming the line."""
    return read_labeled(path, _conversation, "a labeled conversation")


def conversation_of(
    conversation_id: str,
    messages: Sequence[tuple[str, str, str] | tuple[str, str, str, str | None]],
    *,
    platform: str = "manual",
    participants: Sequence[str] = (),
) -> StoredConversation:
    """A valid PAM conversation document (§25) of these (role, text, created_at[, speaker])
    messages; message ids ``<conversation_id>-m<n>``. Named `participants` (people of a group
    conversation) are listed with role ``user``, and a message's speaker goes to its
    ``raw_metadata.speaker`` — exactly what an import gives the extractor."""
    created = messages[0][2] if messages else "2026-01-01T00:00:00Z"
    items: list[dict[str, Any]] = []
    for n, (role, text, at, *rest) in enumerate(messages, 1):
        message: dict[str, Any] = {
            "id": f"{conversation_id}-m{n}",
            "role": role,
            "content": {"type": "text", "text": text},
            "created_at": at,
        }
        if rest and rest[0]:
            message["raw_metadata"] = {"speaker": rest[0]}
        items.append(message)
    document: dict[str, Any] = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": conversation_id,
        "provider": {"name": platform},
        "temporal": {"created_at": created},
        "messages": items,
    }
    if participants:
        document["participants"] = [{"role": "assistant", "name": None}] + [
            {"role": "user", "name": name} for name in participants
        ]
    return StoredConversation(
        id=conversation_id,
        platform=platform,
        document=document,
        created_at=created,
        updated_at=messages[-1][2] if messages else None,
        message_count=len(messages),
    )


def stored(conversation: Conversation, *, platform: str = "manual") -> StoredConversation:
    """The conversation as a PAM conversation document (§25); message ids ``<id>-m<n>``."""
    return conversation_of(
        f"eval-{conversation.id}",
        [(m.role, m.text, m.at, m.speaker) for m in conversation.messages],
        platform=platform,
        participants=conversation.participants,
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
                tally_message(tally, mid, message.text, message.expect, found)
    return tallies
