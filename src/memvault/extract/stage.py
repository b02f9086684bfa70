"""Rule extraction with its learned stage (`memvault.extract.learned`): the offline default.

For each clause of a user message the rules read (`rules.clauses`, after `framing` set aside
what is not the person's own words), the clause classifier gives a probability per memory type.

- A rule memory's confidence becomes a combination of the rule's confidence and the
  classifier's probability of its type (weights fitted on dev); one below the threshold chosen
  on dev is not proposed.
- A clause no pattern turned into a memory of type T, whose probability for T reaches the
  threshold chosen on dev, becomes a memory of type T whose content is the clause rewritten in
  the third person (`third_person`): ``been writing Java for about 6 years`` → ``User has
  been writing Java for about 6 years``.
- Framing stays the rules': a clause rejected as hypothetical or reported (quotation, what
  others said), and anything `framing` set aside (requests on pasted text, translation,
  role-play, provider boilerplate), never becomes a learned memory.

Without a model file (`learned.default_model()` is None) this is the rules alone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Final

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.confidence import _REQUEST
from memvault.extract.framing import RoleFrame
from memvault.extract.learned import (
    ClauseContext,
    Model,
    clause_features,
    default_model,
    language_of,
)
from memvault.extract.rules import (
    _FILLER,
    _PRONOUNS_EN,
    _PRONOUNS_PT,
    EXTRACTOR,
    _about,
    _agree_pt,
    _third_person,
    extract_message,
)
from memvault.extract.rules import (
    Reading as RulesReading,
)

__all__ = [
    "DEFAULT",
    "LEARNED",
    "Reading",
    "extract_by_message",
    "extract_messages",
    "readings",
    "third_person",
]

#: The rules' rejections that are framing (not about the person as they are): never learned.
_FRAMED: Final = frozenset({"hypothetical", "reported"})
_LOW, _HIGH = 0.3, 0.95
#: A clause whose subject is another person ("my boss is from Texas", "a minha irmã mora em
#: Braga"), unless the person is in it too ("my wife and I"): what someone says about others
#: is not a memory about them (issue #20), so the stage never states it.
_OTHER_SUBJECT: Final = re.compile(
    r"^(?:(?:and|but|so|also|e|mas|também)\s+)?(?:my|our|a minha|o meu|as minhas|os meus|"
    r"minha|meu|minhas|meus|nossa|nosso)\s+(?:\w+\s+)?(?:boss|manager|sister|brother|mom|mum|"
    r"mother|dad|father|parents?|wife|husband|partner|girlfriend|boyfriend|son|daughter|kids?|"
    r"children|friend|friends|coworkers?|colleagues?|roommate|neighbou?r|chefe|gerente|irmãs?|"
    r"irmãos?|mãe|pai|pais|esposa|marido|mulher|namorad[oa]|filh[oa]s?|amig[oa]s?|colegas?|"
    r"vizinh[oa])\b(?!\s+(?:and I|and me|e eu)\b)",
    re.IGNORECASE,
)
#: The `Candidate.pattern` of a learned memory.
LEARNED: Final = "learned"


class _Default:
    """The shipped model (`learned.default_model`)."""


DEFAULT: Final = _Default()


@dataclass(frozen=True, slots=True)
class Reading:
    """One clause as the learned stage sees it."""

    clause: str
    context: ClauseContext
    features: list[str]
    #: the rule memories made of this clause
    found: list[Candidate]


def _read(
    message: UserMessage, read: RulesReading, found: list[Candidate], chars: bool
) -> tuple[list[Reading], list[Candidate]]:
    """The clauses the rules read with their features, each with the rule memories made of
    it; and the rule memories no clause accounts for."""
    by_clause: dict[str, list[Candidate]] = {}
    for candidate in found:
        by_clause.setdefault(candidate.evidence, []).append(candidate)
    asks = "?" in read.text or bool(_REQUEST.search(read.text))
    out: list[Reading] = []
    count = len(read.clauses)
    for index, (clause, why) in enumerate(read.clauses):
        mine = by_clause.pop(clause, [])
        rule_language = next((c.language for c in mine if c.language), None)
        context = ClauseContext(
            why=why,
            rule_types=tuple(sorted({c.type for c in mine})),
            index=index,
            count=count,
            language=rule_language or language_of(read.text),
            speaker=message.speaker is not None,
            set_aside=read.dropped is not None,
            asks=asks,
        )
        out.append(Reading(clause, context, clause_features(clause, context, chars=chars), mine))
    rest = [c for cs in by_clause.values() for c in cs]
    return out, rest


def readings(
    messages: Iterable[UserMessage], *, chars: bool = False, extractor: str = EXTRACTOR
) -> Iterator[tuple[UserMessage, list[Reading], list[Candidate]]]:
    """Each user message with its clauses (`Reading`) and the rule memories no clause
    accounts for; what is said inside a role-play is read as nothing (`framing.RoleFrame`)."""
    frame = RoleFrame()
    for message in messages:
        text = frame.read(message.conversation_id, message.text)
        if not text.strip():
            yield message, [], []
            continue
        read = RulesReading()
        found = extract_message(message, extractor=extractor, text=text, reading=read)
        clauses_, rest = _read(message, read, found, chars)
        yield message, clauses_, rest


def _logit(p: float) -> float:
    p = min(0.99, max(0.01, p))
    return math.log(p / (1 - p))


def _squash(z: float) -> float:
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return round(_LOW + (_HIGH - _LOW) * p, 2)


def rule_confidence(model: Model, confidence: float, p: float) -> float:
    """A rule memory's confidence combined with the classifier's probability of its type."""
    c = model.combine
    q = (confidence - _LOW) / (_HIGH - _LOW)
    return _squash(c["c0"] + c["c1"] * _logit(q) + c["c2"] * _logit(p))


def learned_confidence(model: Model, p: float) -> float:
    c = model.combine
    return _squash(c["c3"] + c["c4"] * _logit(p))


def _threshold(model: Model, type: str) -> float:
    return model.propose.get(type, model.propose.get("*", 1.0))


def apply_model(
    model: Model,
    message: UserMessage,
    reading: Reading,
    extractor: str = EXTRACTOR,
    probs: Mapping[str, float] | None = None,
    renamed: dict[int, Candidate | None] | None = None,
) -> list[Candidate]:
    """The memories of one clause: its rule memories, rescored (and dropped below
    `model.keep`); and, for a clause no pattern made anything of, a learned memory of the
    type the classifier holds likeliest, when likely enough. `probs` (the classifier's
    probabilities of this clause) are computed unless given. `renamed` maps each rule memory
    of the message (by id) to what it became (None: dropped), so that a memory inferred from
    another (PAM §13 `derived_from`) points at the rescored one, and goes with a dropped one."""
    probs = model.probabilities(reading.features) if probs is None else probs
    renamed = {} if renamed is None else renamed
    out: list[Candidate] = []
    for original in reading.found:
        candidate, parent = original, original.derived_from
        if parent is not None and id(parent) in renamed:
            new_parent = renamed[id(parent)]
            if new_parent is None:  # an inference from a statement that was dropped
                renamed[id(original)] = None
                continue
            candidate = replace(candidate, derived_from=new_parent)
        confidence = rule_confidence(model, candidate.confidence, probs.get(candidate.type, 0.5))
        if candidate.derived_from is not None:
            # an inference is no surer than the statement it comes from
            confidence = min(confidence, candidate.derived_from.confidence)
        kept = replace(candidate, confidence=confidence) if confidence >= model.keep else None
        renamed[id(original)] = kept
        if kept is not None:
            out.append(kept)
    if reading.found or reading.context.why in _FRAMED or not probs:
        return out
    if _OTHER_SUBJECT.match(reading.clause.strip()):
        return out
    type, p = max(probs.items(), key=lambda kv: kv[1])
    if p < _threshold(model, type):
        return out
    language = reading.context.language
    content = third_person(reading.clause, language, message.speaker)
    if content is None:
        return out
    out.append(
        Candidate(
            type=type,
            content=content,
            language=language,
            confidence=learned_confidence(model, p),
            source=message,
            method="explicit_user_input",
            extractor=extractor,
            pattern=LEARNED,
            tags=("extracted", type, "learned"),
            evidence=reading.clause,
            subject=message.speaker,
            features={"learned": p},
        )
    )
    return out


def extract_by_message(
    messages: Iterable[UserMessage],
    *,
    model: Model | _Default | None = DEFAULT,
    extractor: str = EXTRACTOR,
) -> Iterator[tuple[UserMessage, list[Candidate]]]:
    """Each user message with its memories: the rules' (`rules.extract_by_message`), rescored
    and completed by the learned stage. `model=None` is the rules alone."""
    chosen = default_model() if isinstance(model, _Default) else model
    if chosen is None:
        from memvault.extract.rules import extract_by_message as rules_only

        yield from rules_only(messages, extractor=extractor)
        return
    for message, read, rest in readings(messages, chars=chosen.chars, extractor=extractor):
        found = list(rest)
        renamed: dict[int, Candidate | None] = {}
        for reading in read:
            found.extend(apply_model(chosen, message, reading, extractor, renamed=renamed))
        yield message, found


def extract_messages(
    messages: Iterable[UserMessage],
    *,
    model: Model | _Default | None = DEFAULT,
    extractor: str = EXTRACTOR,
) -> Iterator[Candidate]:
    for _, found in extract_by_message(messages, model=model, extractor=extractor):
        yield from found


# -- the third person ------------------------------------------------------------------------

_EN_SUBJECT: Final = (
    (re.compile(r"^(?:i'm|i am|im)\s+", re.I), "User is "),
    (re.compile(r"^(?:i've|i have|ive)\s+", re.I), "User has "),
    (re.compile(r"^i was\s+", re.I), "User was "),
    (re.compile(r"^(?:i'd|i would)\s+", re.I), "User would "),
    (re.compile(r"^(?:i'll|i will)\s+", re.I), "User will "),
    (re.compile(r"^i (?:can't|cannot|can not)\s+", re.I), "User cannot "),
    (re.compile(r"^i (?:don't|do not|dont)\s+", re.I), "User does not "),
    (re.compile(r"^i (?:didn't|did not|didnt)\s+", re.I), "User did not "),
    (re.compile(r"^i (?:can|could|should|must|might|may|did|never)\s+", re.I), None),
    (re.compile(r"^(?:been|got|gotten)\s+", re.I), None),
    # a chat drops "I" before a past verb: "spent ten years teaching", "worked at Nubank"
    (
        re.compile(
            r"^(?=(?:\w+ed|spent|went|grew|left|made|took|met|began|became|built|taught|"
            r"quit|did|had|was)\s)",
            re.I,
        ),
        "User ",
    ),
    (re.compile(r"^my\s+", re.I), "User's "),
)
_PT_VERBS: Final = {
    "sou": "é", "estou": "está", "tenho": "tem", "moro": "mora", "vivo": "vive",
    "faço": "faz", "faco": "faz", "vou": "vai", "sei": "sabe", "posso": "pode",
    "quero": "quer", "gosto": "gosta", "prefiro": "prefere", "fui": "foi", "fiz": "fez",
    "tive": "teve", "trabalho": "trabalha", "falo": "fala", "uso": "usa", "escrevo": "escreve",
    "corro": "corre", "aprendo": "aprende", "leio": "lê", "curto": "curte", "assisto": "assiste",
    "durmo": "dorme", "sigo": "segue", "sofro": "sofre", "nasci": "nasceu", "cresci": "cresceu",
    "vivi": "viveu", "saí": "saiu", "sai": "saiu", "decidi": "decidiu", "consegui": "conseguiu",
    "estava": "estava", "era": "era", "ando": "anda", "toco": "toca", "dou": "dá",
    "estudo": "estuda", "programo": "programa", "adoro": "adora", "amo": "ama", "odeio": "odeia",
    "preciso": "precisa", "pretendo": "pretende", "penso": "pensa", "comecei": "começou",
    "tô": "está", "to": "está", "tou": "está", "bebo": "bebe", "como": "come", "divido": "divide",
    "chamo": "chama", "sinto": "sente", "ganho": "ganha",
}  # fmt: skip
_PT_REFLEXIVE: Final = re.compile(r"^me\s+(?=\w+(?:ei|o|i)\b)", re.I)
_ENCLITIC_PT: Final = re.compile(r"^-me\b", re.I)


def _en(body: str) -> str | None:
    for pattern, subject in _EN_SUBJECT:
        found = pattern.match(body)
        if found is None:
            continue
        if subject is None:  # the verb stays as it is
            head = found.group(0)
            head = re.sub(r"^i\s+", "", head, flags=re.I)
            if head.lower().startswith(("been", "got")):
                head = "has " + head if head.lower().startswith("been") else head
            return "User " + head + _turn(body[found.end() :], "en")
        return subject + _turn(body[found.end() :], "en")
    verb = re.match(
        r"^i\s+(?:(also|really|still|just|usually|mostly|only|now)\s+)?(\w+)\b", body, re.I
    )
    if verb:
        word = verb.group(2)
        lower = word.lower()
        past = lower.endswith("ed") or lower in {
            "was", "had", "got", "went", "grew", "left", "made", "took", "met", "began", "came",
            "did", "wrote", "became", "ran", "built", "bought", "taught", "spent", "lost", "quit",
        }  # fmt: skip
        third = lower if past else _third_person(lower)
        adverb = f"{verb.group(1)} " if verb.group(1) else ""
        return f"User {adverb}{third}" + _turn(body[verb.end() :], "en")
    # no first-person subject or verb to turn: a prefix such as "User:" over the clause reads
    # as junk ("User: they're all on macbooks"), so no learned memory is made of it
    return None


def _pt(body: str) -> str | None:
    body = re.sub(
        r"^(?:(?:hoje|agora|atualmente|também|tambem|ainda|eu)\s+)+", "", body, flags=re.I
    )
    reflexive = _PT_REFLEXIVE.match(body)
    prefix = "se " if reflexive else ""
    if reflexive:
        body = body[reflexive.end() :]
    first = re.match(
        r"^(?:(não|nao|já|ja|também|tambem|ainda|sempre|só|so)\s+)?(\w+)\b", body, re.I
    )
    if first:
        adverb = f"{first.group(1)} " if first.group(1) else ""
        word = first.group(2).lower()
        third = _PT_VERBS.get(word)
        if third is None and len(word) > 3 and word.endswith("ei"):
            third = word[:-2] + "ou"
        if third is not None:
            # a pronoun after the verb (European Portuguese): "mudei-me" → "mudou-se"
            rest = _ENCLITIC_PT.sub("-se", body[first.end() :], count=1)
            rest = _turn(rest, "pt")
            return _agree_pt(f"O usuário {adverb}{prefix}{third}{rest}")
    return None


def _turn(text: str, language: str) -> str:
    for pattern, replacement in _PRONOUNS_PT if language == "pt" else _PRONOUNS_EN:
        text = pattern.sub(replacement, text)
    if language == "en":
        text = re.sub(r"\bwe\b", "they", text, flags=re.I)
        text = re.sub(r"\bthey am\b", "they are", text)
    return text


def third_person(clause: str, language: str, speaker: str | None = None) -> str | None:
    """A clause rewritten as a statement about the person ("I'm into 70s stuff" → "User is
    into 70s stuff"; "trabalho com marketing" → "O usuário trabalha com marketing"), with the
    speaker's name in a group conversation; None when nothing is left."""
    body = _FILLER.sub("", clause).strip().rstrip(" .,;:!-—–")
    # a question asks; it does not state anything about the person
    if len(body.split()) < 2 or body.endswith("?"):
        return None
    content = _pt(body) if language == "pt" else _en(body)
    if content is None:
        return None
    content = " ".join(content.split())
    return _about(content, speaker, language) if speaker else content
