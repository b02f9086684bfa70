"""The full-text analysis re-expressed in Python, to check the C extension against: tokens split
and folded with Python's own Unicode tables (as FTS5's unicode61 splits and folds, with
``remove_diacritics 2``), then stemmed by PyStemmer (the Snowball English and Portuguese
stemmers, the Snowball release Debian's libstemmer has). And a deterministic corpus of English
and Portuguese text to compare them on.

The two agree on every character of `AGREED` (what English and Portuguese text is made of, plus
CJK ideographs, digits, punctuation and older emoji). Outside it they differ where unicode61's
tables (Unicode 6.1) differ from Python's; `KNOWN_DIFFERENCES` lists the ones
tests/test_recall_analysis.py pins down.
"""

from __future__ import annotations

import random
import unicodedata

import Stemmer

ENGLISH = Stemmer.Stemmer("english")
PORTUGUESE = Stemmer.Stemmer("portuguese")

#: Combining marks the corpus uses (NFD-written Portuguese): inside a token unicode61 drops
#: them, before one they separate.
MARKS = "\u0300\u0301\u0302\u0303\u0308\u0327"
#: Emoji from Unicode 6.1 or older: separators for unicode61 as for Python (later emoji are
#: unassigned in unicode61's tables, which make them token characters).
EMOJI = "😀😂😍🎉👍✅❤★☕🚀"
#: Latin letters whose unicode61 folding is not "the base letter of the NFD form".
_LATIN_EXCEPTIONS = frozenset("ǠǡǢǣǼǽǾǿẛſİµ")


def _latin(ch: str) -> bool:
    return ord(ch) < 0x250 or 0x1E00 <= ord(ch) < 0x1F00


def agreed(ch: str) -> bool:
    """Whether unicode61 and this module treat `ch` alike."""
    cp = ord(ch)
    if cp < 0x80 or ch in MARKS or ch in EMOJI or 0x4E00 <= cp <= 0x9FFF or 0x2010 <= cp < 0x2028:
        return True
    return 0xA0 <= cp < 0x250 and ch not in _LATIN_EXCEPTIONS


def _token_char(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category[0] in "LN" or category == "Co"


def fold(ch: str) -> str:
    """Simple case folding, then (Latin letters) the base letter of the NFD form."""
    low = ch.casefold()
    if len(low) != 1:
        low = ch.lower() if len(ch.lower()) == 1 else ch
    if _latin(low):
        base = "".join(c for c in unicodedata.normalize("NFD", low) if not unicodedata.combining(c))
        if len(base) == 1 and _latin(base):
            return base
    return low


def tokens(text: str) -> list[str]:
    """The folded tokens of `text`, as unicode61 with remove_diacritics 2 gives them."""
    found: list[str] = []
    current: list[str] | None = None
    for ch in text:
        if _token_char(ch):
            current = current if current is not None else []
            current.append(fold(ch))
        elif current is not None and ch in MARKS:
            continue  # a diacritic inside a token: dropped, the token goes on
        elif current is not None:
            found.append("".join(current))
            current = None
    if current is not None:
        found.append("".join(current))
    return found


def terms(text: str) -> list[tuple[str, ...]]:
    """What memvault_terms gives: (folded token, English stem[, Portuguese stem if other])."""
    out: list[tuple[str, ...]] = []
    for token in tokens(text):
        en = ENGLISH.stemWord(token)
        pt = PORTUGUESE.stemWord(token)
        out.append((token, en) if en == pt else (token, en, pt))
    return out


# -- corpus ------------------------------------------------------------------------------------

ENGLISH_WORDS = (
    "shelter shelters sheltered volunteer volunteering volunteered career careers counseling "
    "running runs ran happily happiness generalization generous organization organizing "
    "relational conditional international studies studying studied cats dogs children "
    "the a of and to in is was what did when where who why how meeting meetings remember "
    "remembered doctor's appointment appointments birthday birthdays naïve café résumé "
    "coöperate façade jalapeño über fiancée daïs Zoë Chloë Renée hiking hiked flies flying "
    "argued arguing agreement agreements skies sky dying lying news gently early only "
    "Mr. O'Brien can't won't it's Saturday's 3pm 2024-05-01 v2.0 e-mail C++ x86_64 "
)
PORTUGUESE_WORDS = (
    "ações ação acoes acao coração corações informação informações não nao são sao "
    "também tambem você voce médico médica consulta consultas trabalho trabalhando "
    "trabalhei trabalhava gosto gosta gostaria chá café pão pães mãe irmã irmãos avó "
    "avô João José Conceição Luís Inês Ângela São Paulo Brasília Portugal lição lições "
    "canção canções português portuguesa crianças criança está estão é à às após "
    "voluntário voluntária abrigo abrigos desenvolvimento desenvolvimentos felizmente "
    "rapidamente organização organizações aniversário aniversários reunião reuniões "
    "ótimo óculos pôr avô ônibus açúcar açaí caféína fênix ímã órgão "
)
WORDS = ENGLISH_WORDS.split() + PORTUGUESE_WORDS.split()
PUNCTUATION = list(" .,;:!?()[]{}\"'-—–…/\\@#$%&*+=<>|~^_`\n\t\r")
CJK = ["東京", "学校", "中文", "記憶", "金庫"]


def _case(word: str, rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return word.upper()
    if kind == 1:
        return word.title()
    if kind == 2:
        return "".join(c.upper() if rng.random() < 0.5 else c for c in word)
    if kind == 3:  # written decomposed (NFD), as some keyboards and exports do
        return unicodedata.normalize("NFD", word)
    return word


def text(rng: random.Random) -> str:
    """One text: words in both languages, mixed case and NFD, digits, punctuation, emoji, CJK,
    now and then a very long token, sometimes nothing at all."""
    if rng.random() < 0.03:
        return rng.choice(["", " ", "...", "\n\t", "😀"])
    parts: list[str] = []
    for _ in range(rng.randint(1, 60)):
        roll = rng.random()
        if roll < 0.75:
            parts.append(_case(rng.choice(WORDS), rng))
        elif roll < 0.82:
            parts.append(str(rng.randrange(10 ** rng.randint(1, 12))))
        elif roll < 0.88:
            parts.append(rng.choice(EMOJI) * rng.randint(1, 3))
        elif roll < 0.92:
            parts.append(rng.choice(CJK))
        elif roll < 0.95:
            parts.append(rng.choice(MARKS) + rng.choice(WORDS))  # a mark before a word
        elif roll < 0.97:  # a very long token, with or without accents
            parts.append(rng.choice(["a", "é", "ção", "xy", "Ü"]) * rng.randint(60, 3000))
        else:
            parts.append("".join(rng.choice(PUNCTUATION) for _ in range(rng.randint(1, 5))))
        parts.append(rng.choice([" ", " ", " ", ", ", ". ", "\n", "-", "'", "/", ""]))
    return "".join(parts)


def corpus(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [text(rng) for _ in range(count)]
