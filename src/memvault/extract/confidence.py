"""The confidence of a rule-extracted memory: how likely it is to be a memory a careful person
would write, from what predicts that on the evaluation set.

A pattern matching says little by itself — "I want to …" gives real goals ("I want to learn the
guitar") and requests about the task at hand ("I want to make the intro shorter") alike. What
tells them apart is in the words: a value pointing at the work in the conversation (the intro,
the slides, the second option, your answers), at the assistant, or at today; a value that is
long or oddly cut; a message that is mostly a request or pasted material; an open pattern (a
goal, a project) rather than a closed one (where one lives, one's job). `features` turns a
statement into those numbers and `score` into a confidence: a logistic model
``p = 1 / (1 + e^−(b + Σ wᵢ·xᵢ))`` whose weights (`WEIGHTS`) were fitted on the dev split of
``benchmarks/extraction_set`` only (`python benchmarks/extraction.py --calibrate` refits and
prints them), squeezed into [0.3, 0.95]. docs/extraction.md has the figures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Final

__all__ = ["FEATURES", "PRIOR", "WEIGHTS", "features", "score"]

#: Types whose patterns capture an open-ended value ("wants to {anything}").
_OPEN: Final = frozenset({"goal", "project"})
_MIDDLE: Final = frozenset({"preference", "environment", "skill", "context"})
#: The assistant, addressed: "your answers", "você explicou".
_ASSISTANT: Final = re.compile(
    r"\b(?:you|your|yours|chatgpt|claude|gemini|copilot|assistant|você|voce|vc|tu|teu|tua|"
    r"suas?|seus?|assistente)\b",
    re.IGNORECASE,
)
#: Things that are the work at hand rather than the person's life.
_WORK_AT_HAND: Final = re.compile(
    r"\b(?:intro|introduction|paragraph|draft|version|option|slides?|code|regex|bug|table|"
    r"column|row|answers?|reply|replies|layout|page|doc|document|file|email|essay|report|"
    r"chart|format|tone|list|function|script|text|sentence|title|prompt|output|step|"
    r"texto|versão|versao|opção|opcao|parágrafo|paragrafo|código|codigo|tabela|coluna|"
    r"respostas?|página|pagina|relatório|relatorio|tópicos|topicos|frase|título|titulo|"
    r"arquivo|formato|lista|função|funcao|introdução|introducao|slide|homework|assignment|"
    r"exercise|question|variables?|logo|template|questão|questao|exercício|exercicio|"
    r"variáveis|variaveis|gráfico|grafico|look|option|better|worse|instead|one-liner|"
    r"theme|color|colour|font|wording|line|lines|section|chapter|cor|fonte|seção|secao|"
    r"capítulo|capitulo|linha|linhas)\b"
    # getting something to work: debugging the task at hand
    r"|\bget\b.*\bto (?:build|compile|run|work|load|match|render)\b",
    re.IGNORECASE,
)
_DEFINITE: Final = re.compile(r"^(?:the|this|that|these|those|o|a|os|as|no|na|nos|nas)\s", re.I)
_DAYS: Final = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|noon|lunch|"
    r"dinner|the meeting|the deadline|the end of the day|eod|segunda|terça|terca|quarta|"
    r"quinta|sexta|sábado|sabado|domingo|amanhã|amanha|almoço|almoco|jantar|reunião|reuniao"
)
#: Today, or a deadline in the next days: a passing state or a chore, not a lasting goal.
_NOW: Final = re.compile(
    r"\b(?:today|tonight|tomorrow|now|right now|this (?:morning|afternoon|evening)|"
    r"hoje|amanhã|amanha|agora|hoje à noite|esta noite|essa noite)\b"
    rf"|\b(?:before|by|for|on|until|antes d[oa]|antes de|até|ate|para|na|no)\s+(?:{_DAYS})\b",
    re.IGNORECASE,
)
_HEDGE: Final = re.compile(
    r"\b(?:a bit|a little|sometimes|somewhat|kinda|more or less|um pouco|às vezes|as vezes|"
    r"thinking about|thinking of|pensando(?: \w+)? em|a pensar(?: \w+)? em|"
    r"meio que|mais ou menos)\b",
    re.IGNORECASE,
)
#: A state that is over: "used to", "grew up", "studied", "left", "saí", "cresci", "estudei".
_PAST: Final = re.compile(
    r"\b(?:used to|grew up|was born|studied|lived|left|quit|went to|was a|were|"
    r"costumava|cresci|nasci|estudei|morei|vivi|saí d[oa]|deixei|trabalhei|"
    r"antes (?:usava|morava|trabalhava))\b",
    re.IGNORECASE,
)
_PRESENT: Final = re.compile(
    r"\b(?:now|nowadays|currently|these days|agora|atualmente|hoje em dia|hoje)\b", re.IGNORECASE
)
_NEGATION: Final = re.compile(r"\b(?:not|never|no|n't|não|nao|nunca|nem)\b|n't\b", re.I)
_REQUEST: Final = re.compile(
    r"\?|(?:^|[.!]\s+)(?:please|can you|could you|would you|help me|give me|write|make|"
    r"create|explain|tell me|show me|list|suggest|por favor|pode|você pode|me ajude|me dá|"
    r"escreva|faça|faz|explique|me diga|sugira)\b"
    # a game or a role to play, anywhere in the message: the statements serve the game
    r"|\b(?:faz de conta|finja|finge|pretend|role-?play|act as|let's play|vamos jogar|"
    r"in character|stay in character|personagem)\b",
    re.IGNORECASE,
)
#: A named thing: a capitalised word (a bare number is as often "question 4" as "5 kg").
_ENTITY: Final = re.compile(r"(?-i:\b(?!I['’])[A-ZÀ-Ý][\wÀ-ÿ'’-]+)")
_THIRD_PERSON_REWRITE: Final = re.compile(r"\b(?:their|them|they|theirs|themselves)\b", re.I)

#: The model's inputs, in order.
FEATURES: Final = (
    "open_pattern",
    "middle_pattern",
    "assistant",
    "work_at_hand",
    "definite",
    "now",
    "hedge",
    "negation",
    "entity",
    "long_value",
    "request_in_message",
    "pronoun_rewrite",
    "set_aside",
    "lexicon",
    "mention",
    "platform",
    "past",
)

#: The weights set by reasoning before fitting (what each feature should do, and how much):
#: the fit is pulled toward them, so a feature the dev split never shows keeps its weight.
PRIOR: Final[Mapping[str, float]] = {
    "open_pattern": -1.0,
    "middle_pattern": -0.5,
    "assistant": -1.5,
    "work_at_hand": -1.5,
    "definite": -0.8,
    "now": -1.0,
    "hedge": -0.5,
    "negation": -0.3,
    "entity": 0.6,
    "long_value": -0.6,
    "request_in_message": -0.4,
    "pronoun_rewrite": -0.3,
    "set_aside": -0.8,
    "lexicon": -0.5,
    "mention": -0.5,
    # a platform named in a statement of use: read from a list, not from the wording
    "platform": -0.5,
    # a state that is over ("I grew up in…", "saí da Ambev", "I studied in Munich", "I used
    # to…"): history, which a careful person writes less often than the present
    "past": -0.6,
}
#: Fitted on the dev split (logistic regression regularised toward `PRIOR`,
#: `benchmarks/extraction.py --calibrate`); "bias" is b. Positive weights raise confidence.
WEIGHTS: Final[Mapping[str, float]] = {
    "bias": 3.83,
    "open_pattern": -1.58,
    "middle_pattern": -0.4,
    "assistant": -1.73,
    "work_at_hand": -1.57,
    "definite": -0.77,
    "now": -0.58,
    "hedge": -1.63,
    "negation": -0.29,
    "entity": -0.23,
    "long_value": 0.84,
    "request_in_message": -0.24,
    "pronoun_rewrite": 0.45,
    "set_aside": -0.74,
    "lexicon": -1.79,
    "mention": -1.47,
    "platform": -0.85,
    "past": -1.45,
}
_LOW, _HIGH = 0.3, 0.95


def features(type: str, value: str, clause: str, message: str, set_aside: bool) -> dict[str, float]:
    """The inputs of `score` for a statement of PAM `type` whose captured `value` (the third-
    person text after the subject and verb) came from `clause` of `message`; `set_aside` when
    part of the message was left out as code, pasted or task material."""
    words = len(value.split())
    # The first word of a clause is capitalised anyway: a named thing is one further on.
    rest = clause.split(" ", 1)[1] if " " in clause else ""
    own = re.sub(r"^(?:i|i'm|eu)\b", "", clause, flags=re.IGNORECASE)
    return {
        "open_pattern": float(type in _OPEN),
        "middle_pattern": float(type in _MIDDLE),
        "assistant": float(bool(_ASSISTANT.search(own))),
        "work_at_hand": float(bool(_WORK_AT_HAND.search(value))),
        "definite": float(bool(_DEFINITE.match(value))),
        "now": float(bool(_NOW.search(clause))),
        "hedge": float(bool(_HEDGE.search(clause))),
        "negation": float(bool(_NEGATION.search(value))),
        "entity": float(bool(_ENTITY.search(rest))),
        "long_value": max(0.0, min(1.0, (words - 4) / 6)),
        "request_in_message": float(bool(_REQUEST.search(message.replace(clause, " ")))),
        "pronoun_rewrite": float(bool(_THIRD_PERSON_REWRITE.search(value))),
        "set_aside": float(set_aside or len(message) > 280),
        # "deixei o Windows, agora estou no Linux": a change, whose present is the statement
        "past": float(bool(_PAST.search(clause)) and not _PRESENT.search(clause)),
    }


def score(inputs: Mapping[str, float], weights: Mapping[str, float] = WEIGHTS) -> float:
    """The confidence (two decimals, in [0.3, 0.95]) of a statement with these `features`."""
    logit = weights.get("bias", 0.0) + sum(weights.get(k, 0.0) * v for k, v in inputs.items())
    p = 1.0 / (1.0 + math.exp(-logit))
    return round(_LOW + (_HIGH - _LOW) * p, 2)
