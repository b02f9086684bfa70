"""The people and animals a person lives with, mentioned in passing ("my son is 4 and won't
sleep", "in simple english please, my wife will read it", "our golden retriever Maple keeps
eating socks", "pra minha namorada, ela chama Júlia"): a relationship memory, wherever the
mention sits in the message — a request about something else included.

Only one's own household counts without a name: a partner, children, pets. A parent, a sibling,
a friend or a colleague mentioned in passing ("is it safe to drive to my mom's", "asking for my
brother") is a relationship only when named ("my brother's wedding, his name is Arjun"): what
one says about them is about them, not about the person (issue #20, "the right person").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memvault.extract.base import fold

__all__ = ["Mention", "mentions"]

#: A capitalised name (case-sensitive in IGNORECASE patterns), not a common capitalised word.
_NAME: Final = r"(?-i:[A-ZÀ-Ý][a-zà-ÿ'’-]+)"
_NOT_NAMES: Final = frozenset(
    [
        "i",
        "the",
        "a",
        "an",
        "he",
        "she",
        "it",
        "they",
        "we",
        "you",
        "my",
        "is",
        "was",
        "and",
        "but",
        "so",
        "ok",
        "yes",
        "no",
        "eu",
        "ele",
        "ela",
        "nós",
        "você",
        "meu",
        "minha",
        "o",
        "os",
        "as",
        "um",
        "uma",
        "e",
        "mas",
        "não",
    ]
)

#: Household words, always a relationship; (English) → the article of "User has …".
_HOUSEHOLD_EN: Final = (
    r"wife|husband|girlfriend|boyfriend|fianc[ée]e?|spouse|son|daughter|sons|daughters|kids|"
    r"children|child|baby|twins|stepson|stepdaughter|toddler|dog|cat|puppy|kitten|dogs|cats|"
    r"retriever|labrador|lab|greyhound|beagle|poodle|terrier|spaniel|husky|collie|dachshund|"
    r"pug|bulldog|corgi|shepherd|chihuahua|rabbit|bunny|parrot|hamster|guinea pig|tortoise"
)
_HOUSEHOLD_PT: Final = (
    r"esposa|marido|mulher|namorada|namorado|noiva|noivo|companheira|companheiro|filha|filho|"
    r"filhas|filhos|bebê|bebé|bebe|gêmeos|gémeos|gemeos|gêmeas|gémeas|gemeas|enteada|enteado|"
    r"gata|gato|gatas|gatos|cachorra|cachorro|cachorros|cão|cao|cães|caes|cadela|coelho|"
    r"coelha|papagaio|calopsita|tartaruga|periquito"
)
#: Named only: parents, siblings, friends, colleagues.
_NAMED_EN: Final = (
    r"mother|mom|mum|father|dad|brother|sister|grandmother|grandfather|grandma|grandpa|aunt|"
    r"uncle|cousin|niece|nephew|best friend|friend|boss|manager|colleague|coworker|co-worker|"
    r"roommate|flatmate|partner|business partner|mentor"
)
_NAMED_PT: Final = (
    r"mãe|mae|pai|irmã|irma|irmão|irmao|avó|avô|avo|tia|tio|prima|primo|sobrinha|sobrinho|"
    r"amiga|amigo|melhor amiga|melhor amigo|chefe|colega|sócia|sócio|socia|socio|sogra|sogro|"
    r"cunhada|cunhado"
)
_FEMININE_PT: Final = frozenset(
    fold(w)
    for w in [
        "esposa",
        "mulher",
        "namorada",
        "noiva",
        "companheira",
        "filha",
        "filhas",
        "enteada",
        "gata",
        "gatas",
        "cachorra",
        "cadela",
        "coelha",
        "tartaruga",
        "calopsita",
        "mãe",
        "irmã",
        "avó",
        "tia",
        "prima",
        "sobrinha",
        "amiga",
        "sócia",
        "sogra",
        "cunhada",
        "gêmeas",
        "gémeas",
    ]
)
_PLURAL_PT: Final = frozenset(
    fold(w)
    for w in [
        "filhas",
        "filhos",
        "gêmeos",
        "gémeos",
        "gemeos",
        "gêmeas",
        "gémeas",
        "gatas",
        "gatos",
        "cachorros",
        "cães",
        "caes",
    ]
)

_ADJ_EN: Final = (
    r"(?:(?:little|older|younger|big|baby|eldest|oldest|youngest|new|rescue|golden|old|"
    r"\d+[- ]year[- ]old|two|three|four)\s+){0,2}"
)
_ADJ_PT: Final = r"(?:(?:mais\s+)?(?:velh[oa]|nov[oa]|pequen[oa]|caçula|mais nov[oa])\s+)?"
_MENTION_EN: Final = re.compile(
    rf"\b(?:my|our)\s+{_ADJ_EN}(?P<rel>{_HOUSEHOLD_EN}|{_NAMED_EN})(?:'s)?\b"
    rf"|\b(?:i|we)(?:'ve| have)?\s+(?:(?:also|just|recently|finally)\s+)?(?:have|got|adopted|has)"
    rf"\s+(?:a|an|one)\s+"
    rf"{_ADJ_EN}(?P<pet>(?:{_HOUSEHOLD_EN}))\s+(?=(?:called|named)\b)",
    re.IGNORECASE,
)
_MENTION_PT: Final = re.compile(
    rf"\b(?:(?:a|o|as|os)\s+)?(?:minha|meu|minhas|meus|nossa|nosso)\s+{_ADJ_PT}"
    rf"(?P<rel>{_HOUSEHOLD_PT}|{_NAMED_PT})\b(?!\s+(?:de|do|da)\s)",
    re.IGNORECASE,
)
#: "eu, o meu marido e os gémeos": the article stands for "my".
_FAMILY_PT: Final = re.compile(
    r"\b(?:eu|meu|minha)\b[^.!?]{0,40}?(?:\be|,)\s+(?:os|as)\s+(?P<rel>gêmeos|gémeos|gemeos|"
    r"gêmeas|gémeas|gemeas|filhos|filhas|miúdos|miudos)\b",
    re.IGNORECASE,
)
#: "this app is my baby", "esse projeto é meu bebê": a figure of speech.
_FIGURE: Final = re.compile(r"(?:\bis|'s|\bé|\bwas|\bera)\s+$", re.IGNORECASE)
#: "with my dog", "com meu marido": a companion in a statement of one's own, part of it.
_WITH: Final = re.compile(r"\b(?:with|com|and|e)\s+(?:(?:o|a)\s+)?$", re.IGNORECASE)
#: Died: "(my cat) Mochi died", "(o meu cão) morreu".
_GONE: Final = re.compile(
    rf"^(?:,?\s+{_NAME},?)?\s+(?:(?:just|recently|sadly)\s+)?(?:died|passed away|passed|"
    r"morreu|faleceu|partiu)\b",
    re.IGNORECASE,
)
#: A name for the one just mentioned, right after it or in the words that follow.
_NAME_AFTER: Final = re.compile(
    rf"^(?:'s)?\s*,?\s+(?:(?:o|a)\s+)?(?P<a>{_NAME})\b(?!\s*(?:'s|’s))"
    rf"|^[^.!?;]{{0,60}}?\b(?:called|named|his name is|her name is|their name is|se chama|"
    rf"chama|chamad[oa]|de nome)\s+(?P<b>{_NAME})\b",
)
_NAMED_LATER: Final = re.compile(
    rf"^[^.!?;]{{0,60}}?\b(?:called|named|his name is|her name is|their name is|se chama|"
    rf"chama|chamad[oa]|de nome)\s+(?P<b>{_NAME})\b",
)
#: A mention inside an unreal or quoted frame: a story, a role, someone's line.
_FRAME: Final = re.compile(
    r"\b(?:story|role-?play|character|pretend|imagine|if i|hypothetically|scene|fala|"
    r"personagem|história|historia|finja|imagine|se eu)\b|[\"“”]",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Mention:
    """A relationship read from a mention: the content, the relation word, the name."""

    content: str
    relation: str
    name: str | None
    language: str
    evidence: str


def mentions(clause: str, after: str = "", language_hint: str | None = None) -> list[Mention]:
    """The relationship memories a clause mentions in passing (see the module docstring);
    `after` is the rest of the message, where a name may follow ("my cat knocked my coffee
    over. her name is Biscuit")."""
    found: list[Mention] = []
    if _FRAME.search(clause):
        return found
    for language, pattern in (("en", _MENTION_EN), ("pt", _MENTION_PT), ("pt", _FAMILY_PT)):
        if language_hint is not None and language != language_hint:
            continue
        for match in pattern.finditer(clause):
            groups = match.groupdict()
            rel_raw = groups.get("rel") or groups.get("pet")
            # "moro com minha namorada": part of the person's own statement — but not in
            # "ela mora comigo e com meu marido", a statement about someone else
            if not rel_raw or (
                _WITH.search(clause[: match.start()])
                and not re.search(r"\b(?:comigo|conosco|with me|with us)\b", clause, re.I)
            ):
                continue
            # "this app is my baby": a figure of speech, not a child
            if fold(rel_raw) in {"baby", "bebe"} and _FIGURE.search(clause[: match.start()]):
                continue
            # "our cat Mochi died last month": one who has died is not of the household now
            if _GONE.match(clause[match.end() :]):
                continue
            rel = " ".join(rel_raw.lower().split())
            # in the words that follow the clause, only a name that is said to be one ("her
            # name is Biscuit"): the first word of the next sentence is capitalised anyway
            # ("…da nossa mãe. Podes sugerir um menu?")
            named = _NAME_AFTER.search(clause[match.end() :]) or _NAMED_LATER.search(
                " " + after.lstrip(" .!;")
            )
            name = (named.groupdict().get("a") or named.group("b")) if named else None
            if name is not None and fold(name) in _NOT_NAMES:
                name = None
            household = re.fullmatch(
                _HOUSEHOLD_EN if language == "en" else _HOUSEHOLD_PT, rel, re.IGNORECASE
            )
            if name is None and not household:
                continue
            found.append(Mention(_content(rel, name, language), rel, name, language, clause))
    return found


def _content(rel: str, name: str | None, language: str) -> str:
    if language == "pt":
        feminine = fold(rel) in _FEMININE_PT
        if name:
            return f"{'A' if feminine else 'O'} {rel} do usuário se chama {name}"
        if fold(rel) in _PLURAL_PT:
            return f"O usuário tem {rel}"
        return f"O usuário tem {'uma' if feminine else 'um'} {rel}"
    if name:
        return f"User's {rel} is named {name}"
    if rel in {"kids", "children", "twins", "sons", "daughters", "dogs", "cats"}:
        return f"User has {rel}"
    return f"User has {'an' if rel[:1] in 'aeiou' else 'a'} {rel}"
