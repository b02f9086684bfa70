"""The learned stage of rule extraction: a small classifier over the clauses of user messages
that says which kind of memory a clause states (or none), trained on the dev split of
``benchmarks/extraction_set`` only (`memvault.extract.training`).

Hand-written patterns cover the phrasings they were written from; a clause phrased another
way ("been writing Java for about 6 years", "trabalho com marketing faz tempo") yields
nothing. The classifier reads what the patterns cannot: the words and word pairs of the clause,
and the rules' own signals — why
the rules rejected it (a question, uncertainty…),
whether it speaks in the first person, where it sits in the message, whether part of the
message was set aside as pasted material, and whether a named person of a group is speaking.

One logistic model per memory type (one-vs-rest): ``p = 1 / (1 + e^−(b + Σ w_f))`` over the
clause's binary features. Inference is a few dozen lines of pure Python (no numpy); the weights
are `learned_weights.json` beside this module, reproducible by `python benchmarks/extraction.py
--train` (deterministic). docs/extraction.md has the figures and how it was measured.

`memvault.extract.stage` combines it with the rules; this module only reads clauses.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from memvault.extract.base import fold

__all__ = [
    "TYPES",
    "WEIGHTS_FILE",
    "ClauseContext",
    "Model",
    "clause_features",
    "default_model",
    "language_of",
]

WEIGHTS_FILE: Final = Path(__file__).with_name("learned_weights.json")
#: The PAM memory types the classifier predicts (one model each).
TYPES: Final = (
    "fact",
    "identity",
    "preference",
    "goal",
    "relationship",
    "environment",
    "skill",
    "instruction",
    "project",
)

_WORD: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)?|\d+")
_FIRST_PERSON: Final = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|our|eu|meu|minha|meus|minhas|"
    r"me|mim|comigo|sou|tenho|moro|estou|trabalho)\b"
)
_SECOND_PERSON: Final = re.compile(
    r"\b(?:you|your|you're|voce|vc|tu|teu|tua|seu|sua|pode|podes|consegue)\b"
)
_PT_WORDS: Final = frozenset(
    [
        "eu",
        "e",
        "o",
        "a",
        "os",
        "as",
        "um",
        "uma",
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
        "que",
        "nao",
        "não",
        "com",
        "para",
        "pra",
        "por",
        "meu",
        "minha",
        "sou",
        "tenho",
        "moro",
        "estou",
        "muito",
        "mas",
        "tambem",
        "também",
        "isso",
        "esse",
        "essa",
        "como",
        "mais",
        "ja",
        "já",
        "voce",
        "você",
        "vc",
        "trabalho",
        "gosto",
        "quero",
    ]
)
_EN_WORDS: Final = frozenset(
    [
        "i",
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "and",
        "is",
        "am",
        "are",
        "my",
        "me",
        "it",
        "that",
        "this",
        "for",
        "with",
        "you",
        "your",
        "have",
        "was",
        "i'm",
        "im",
        "but",
        "so",
        "just",
        "not",
        "what",
        "how",
        "can",
        "do",
        "don't",
        "like",
        "want",
    ]
)


@dataclass(frozen=True, slots=True)
class ClauseContext:
    """What the rules know of a clause, beside its words."""

    #: why the rules rejected it (`rules.rejection`), or None
    why: str | None
    #: the memory types the patterns made of it (empty: no pattern matched)
    rule_types: tuple[str, ...]
    #: index and count of the clauses of its message
    index: int
    count: int
    language: str
    #: a named person of a group conversation is speaking
    speaker: bool
    #: part of the message was set aside (code, pasted or task material)
    set_aside: bool
    #: the whole message (read) ends with a question, or asks the assistant for something
    asks: bool


def language_of(text: str) -> str:
    """ "pt" or "en", by the commoner function words of each (a tie is English)."""
    words = _WORD.findall(text.casefold())
    pt = sum(1 for w in words if w in _PT_WORDS)
    en = sum(1 for w in words if w in _EN_WORDS)
    return "pt" if pt > en else "en"


def clause_features(clause: str, context: ClauseContext, *, chars: bool = False) -> list[str]:
    """The binary features of a clause (names; the model's weights are keyed by them)."""
    folded = fold(clause).replace("’", "'")
    words = _WORD.findall(folded)
    out = {f"w:{w}" for w in words}
    out.update(f"b:{a}_{b}" for a, b in pairwise(words))
    if words:
        out.add(f"s1:{words[0]}")
        out.add(f"s2:{'_'.join(words[:2])}")
    if chars:
        for w in words:
            padded = f"<{w}>"
            out.update(f"c:{padded[i : i + 4]}" for i in range(max(1, len(padded) - 3)))
    out.add(f"why:{context.why or 'none'}")
    out.add(f"lang:{context.language}")
    out.add("fp" if _FIRST_PERSON.search(folded) else "no-fp")
    if _SECOND_PERSON.search(folded):
        out.add("you")
    if context.speaker:
        out.add("speaker")
    if context.set_aside:
        out.add("set-aside")
    if context.asks:
        out.add("asks")
    out.add("pos:first" if context.index == 0 else "pos:later")
    if context.index == context.count - 1:
        out.add("pos:last")
    n = len(words)
    out.add("len:" + ("1-3" if n <= 3 else "4-8" if n <= 8 else "9-15" if n <= 15 else "16+"))
    if any(c.isdigit() for c in clause):
        out.add("digit")
    # a capitalised word after the first: a named place, employer, person, tool
    if re.search(r"(?<=\s)(?!I\b|I')[A-ZÀ-Ý]\w", clause):
        out.add("name")
    return sorted(out)


@dataclass(frozen=True, slots=True)
class Model:
    """One logistic model per type over named binary features, and the settings chosen on
    dev for combining it with the rules (`memvault.extract.stage`)."""

    types: tuple[str, ...]
    bias: tuple[float, ...]
    weights: Mapping[str, Sequence[float]]
    #: propose a memory for a clause no pattern handled when p >= this (per type, or "*")
    propose: Mapping[str, float]
    #: confidence = squash(c0 + c1·logit(rule confidence) + c2·logit(p)) for rule memories,
    #: squash(c3 + c4·logit(p)) for learned ones
    combine: Mapping[str, float]
    #: a rule memory whose combined confidence is below this is not proposed
    keep: float
    #: whether character n-grams of the words are features (measured no better on unseen
    #: batches, and three times the weights: off)
    chars: bool = False

    def probabilities(self, features: Sequence[str]) -> dict[str, float]:
        logits = list(self.bias)
        for name in features:
            row = self.weights.get(name)
            if row is not None:
                for i, w in enumerate(row):
                    logits[i] += w
        return {t: _sigmoid(z) for t, z in zip(self.types, logits, strict=True)}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "memvault-clause-classifier/1",
            "types": list(self.types),
            "bias": list(self.bias),
            "propose": dict(self.propose),
            "combine": dict(self.combine),
            "keep": self.keep,
            "chars": self.chars,
            "weights": {k: list(v) for k, v in sorted(self.weights.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        return cls(
            types=tuple(data["types"]),
            bias=tuple(float(b) for b in data["bias"]),
            weights={k: tuple(float(x) for x in v) for k, v in data["weights"].items()},
            propose={k: float(v) for k, v in data["propose"].items()},
            combine={k: float(v) for k, v in data["combine"].items()},
            keep=float(data["keep"]),
            chars=bool(data.get("chars", False)),
        )


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def default_model() -> Model | None:
    """The model shipped with the package (None when its file is missing)."""
    try:
        data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return Model.from_json(data)
