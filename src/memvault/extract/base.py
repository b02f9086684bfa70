"""What every extractor shares: the user messages of a PAM normalized conversation (§25) and
the `Candidate` an extractor proposes for each statement it finds.

Only messages with the normalized role ``user`` are read (never assistant, system or tool
text), and only their text parts (code, images and files are not statements about the user).
Model "thinking" messages (`is_thought`) are skipped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from memvault.store.base import StoredConversation

__all__ = [
    "Candidate",
    "UserMessage",
    "fold",
    "tokens",
    "user_messages",
]

#: Single-valued subject slots: a person has one of each at a time, so two different values
#: are either a change (supersede) or a conflict (contradicts). See docs/extraction.md.
SINGLE_VALUED_SLOTS: Final = frozenset(
    {
        "name",
        "age",
        "residence",
        "employer",
        "occupation",
        "birthplace",
        "origin",
        "pronouns",
        "editor",
    }
)


@dataclass(frozen=True, slots=True)
class UserMessage:
    """One user message, with where it came from (for PAM §11 provenance)."""

    platform: str
    conversation_id: str
    message_id: str
    text: str
    created_at: str | None
    #: The named person speaking, in a conversation between several named people (each
    #: message's ``raw_metadata.speaker``, or ``name``); None when the user is one person.
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory an extractor proposes, before reconciliation against the vault.

    - `content`: the third-person statement (``User lives in Lisbon`` /
      ``O usuário mora em Lisboa``);
    - `slot`/`value`: the subject slot the statement fills (``residence`` / ``lisbon``),
      used by reconciliation; `polarity` is False for a negative statement (dislikes, no
      longer lives in…);
    - `change`: the statement says something changed ("I moved to…", "now I prefer…"), so it
      replaces an older value of its slot rather than conflicting with it;
    - `pattern`: which rule (or ``llm``) produced it, for calibration and reports;
    - `derived_from`: the candidate this one was inferred from (PAM §13 `derived_from`).
    """

    type: str
    content: str
    language: str
    confidence: float
    source: UserMessage
    method: str
    extractor: str
    pattern: str
    slot: str | None = None
    value: str | None = None
    polarity: bool = True
    change: bool = False
    tags: tuple[str, ...] = ()
    derived_from: Candidate | None = None
    evidence: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: Who the memory is about when a conversation has several named people (their name);
    #: None for the vault's person. Reconciliation never merges different subjects.
    subject: str | None = None
    #: What the confidence was computed from (`memvault.extract.confidence.features`), for
    #: calibration and reports; not stored with the memory.
    features: Mapping[str, float] = field(default_factory=dict)

    @property
    def single_valued(self) -> bool:
        return self.slot is not None and self.slot in SINGLE_VALUED_SLOTS


def _text_of(content: object) -> str:
    if not isinstance(content, Mapping):
        return ""
    if content.get("type") == "text":
        text = content.get("text")
        return text if isinstance(text, str) else ""
    parts = content.get("parts")
    if not isinstance(parts, list):
        return ""
    texts = [
        p["text"]
        for p in parts
        if isinstance(p, Mapping) and p.get("type") == "text" and isinstance(p.get("text"), str)
    ]
    return "\n".join(texts)


def _speaker(message: Mapping[str, Any]) -> str | None:
    raw = message.get("raw_metadata")
    if isinstance(raw, Mapping):
        for key in ("speaker", "name", "author"):
            value = raw.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None


def speakers(conversation: StoredConversation) -> frozenset[str]:
    """The named human participants of a conversation (PAM §25 ``participants`` with role
    ``user`` and a name, and the speakers its user messages name)."""
    document = conversation.document
    names: set[str] = set()
    participants = document.get("participants")
    if isinstance(participants, list):
        for p in participants:
            if isinstance(p, Mapping) and p.get("role") == "user":
                name = p.get("name")
                if isinstance(name, str) and name.strip():
                    names.add(name.strip())
    messages = document.get("messages")
    if isinstance(messages, list):
        for m in messages:
            if isinstance(m, Mapping) and m.get("role") == "user":
                name = _speaker(m)
                if name:
                    names.add(name)
    return frozenset(names)


def user_messages(conversation: StoredConversation) -> Iterator[UserMessage]:
    """The user messages of a stored conversation, in document order. In a conversation
    between several named people each message carries its speaker."""
    document = conversation.document
    messages = document.get("messages")
    if not isinstance(messages, list):
        return
    several = len(speakers(conversation)) > 1
    for message in messages:
        if not isinstance(message, Mapping) or message.get("role") != "user":
            continue
        if message.get("is_thought") is True:
            continue
        text = _text_of(message.get("content"))
        if not text.strip():
            continue
        created = message.get("created_at")
        yield UserMessage(
            platform=conversation.platform,
            conversation_id=conversation.id,
            message_id=str(message.get("id", "")),
            text=text,
            created_at=created if isinstance(created, str) else conversation.created_at,
            speaker=_speaker(message) if several else None,
        )


_WORD: Final = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
#: Words that carry no meaning of their own for similarity (both languages, folded).
STOPWORDS: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "be",
        "been",
        "am",
        "user",
        "users",
        "s",
        "his",
        "her",
        "their",
        "its",
        "that",
        "this",
        "it",
        "as",
        "by",
        "from",
        "very",
        "really",
        "o",
        "os",
        "as",
        "um",
        "uma",
        "uns",
        "umas",
        "de",
        "do",
        "da",
        "dos",
        "das",
        "em",
        "no",
        "na",
        "nos",
        "nas",
        "para",
        "por",
        "com",
        "e",
        "ou",
        "mas",
        "usuario",
        "usuarios",
        "que",
        "se",
        "ao",
        "aos",
        "muito",
    ]
)


def fold(text: str) -> str:
    """Lower case without diacritics ("Lisboa" and "lisbôa" fold alike)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> frozenset[str]:
    """The meaningful folded words of a text, plural "s" stripped, for similarity."""
    words = (w.replace("’", "'") for w in _WORD.findall(fold(text)))
    out: set[str] = set()
    for word in words:
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.add(word)
    return frozenset(out)
