"""Offline, deterministic memory extraction from user messages (English and Portuguese).

Each user message is cut into clauses; each clause is checked against rejection filters
(questions, hypotheticals, reported speech, uncertainty, one-off task wording) and then against
an ordered list of first-person patterns. The first pattern that matches a clause turns it into
a third-person `Candidate`:

- English statements become English content: ``I live in Lisbon`` → ``User lives in Lisbon``.
- Portuguese statements stay Portuguese: ``eu moro em Lisboa`` → ``O usuário mora em Lisboa``
  (the user's own words are kept; no translation is attempted). ``metadata.language`` says which.

The confidence of each statement comes from what predicts a right one (`confidence`: the kind of
pattern, a value about the task at hand or the assistant, hedges, length…), fitted on the dev
split of ``benchmarks/extraction_set`` (docs/extraction.md). Nothing here touches the network or
the vault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Final

from memvault import __version__
from memvault.extract.base import Candidate, UserMessage, fold
from memvault.extract.confidence import features, score
from memvault.extract.framing import RoleFrame, own_words
from memvault.extract.mentions import Mention, mentions
from memvault.extract.platforms import Platform, platforms

__all__ = [
    "EXTRACTOR",
    "RULES",
    "Rule",
    "clauses",
    "extract_by_message",
    "extract_message",
    "extract_messages",
    "rejection",
]

#: PAM §11 `provenance.extractor` of rule-extracted memories.
EXTRACTOR: Final = f"memvault-rules/{__version__}"
# -- clauses ---------------------------------------------------------------------------------

_SENTENCE: Final = re.compile(
    r"(?<=[.!?;])\s+|\n+|\s+[-–—]\s+"
    # "…at work so if there's a difference, mention it": what follows "so" is another clause.
    r"|,?\s+so\s+(?=(?:if|when|please|can|could|would|don't|do not|no|any|that|the|it|"
    r"mention|make|keep|use|give|tell|lifts)\b)"
)
#: A new first-person clause after "but"/"and" ("I live in Porto but I work in Lisbon").
#: Also after a colon that introduces one ("Quick update: I moved to Lisbon").
_CLAUSE_JOIN: Final = re.compile(
    r",?\s+(?:since|because|as|cause|bc|porque|pq|já que)\s+(?=(?:i'm|i am|i work|i live|"
    r"i have|i've|my|eu sou|sou|moro|trabalho|tenho)\b)"
    r"|(?:,?\s+(?:but|and|so|mas|e|então)|:)\s+"
    r"(?=(?:i|i'm|i've|i'd|my|we|we're|we've|our|eu|minha|meu|moro|sou|"
    r"tenho|trabalho|prefiro|gosto|estou|adoro|amo|odeio|detesto|falo|uso|estudo|programo|"
    r"nasci|corro|curto|me mudei|mudei|vivo|moramos|vivemos|quero|pretendo|sei|comecei|toco|"
    r"agora (?:estou|moro|trabalho|uso|vivo)|não|nao|nunca|já|ja|passo|faço|faco|toco|"
    r"comecei|saí|sai|estou|to|tô)\b)",
    re.IGNORECASE,
)
#: English verbs that open a statement of their own when they follow "and" or a comma without
#: a subject ("I live in Lisbon and work at Nubank", "…, speak German"): the subject "I" is
#: shared. Portuguese first-person verbs carry their subject and are in `_CLAUSE_JOIN`.
_SHARED_SUBJECT: Final = re.compile(
    # "…, like 10 min away" is an approximation, not a liking.
    r"(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)(?=(?:live|work|speak|love|"
    r"like(?!\s+(?:\d|a|an|the|this|that|it|every)\b)|hate|"
    r"dislike|prefer|use|own|study|teach|moved|relocated|enjoy|grew up|was born|have been|"
    r"make|earn|only eat|eat|"
    r"have|don't|do not|am|maintain|run|code|program)\b)",
    re.IGNORECASE,
)
#: A left part whose verb may govern the coordinated one ("I want to live in Lisbon and work
#: at Google": both are wishes): it is not split.
_GOVERNING: Final = re.compile(
    r"\b(?:want|wants|wanna|gonna|will|would|'ll|'d|can|could|should|must|might|may|"
    r"need|plan|planning|hope|hoping|try|trying|going|used|wish|let me|help me|"
    r"(?:like|love|prefer|hate|have|decided|learn|learning) to)\b",
    re.IGNORECASE,
)
_FILLER: Final = re.compile(
    r"^(?:(?:oh|ok|okay|well|so|also|btw|by the way|actually|anyway|fyi|just so you know|"
    r"for context|for the record|some context|quick context|background|context|note|hi|hello|"
    r"hey|yes|yeah|yep|no|nope|right|and|but|honestly|basically|olá|oi|então|bom|bem|aliás|"
    r"ah|enfim|só para você saber|só pra você saber|para contexto|pra contexto|contexto|sim|"
    r"não|e|mas|na verdade|ah sim|a propósito|por sinal)\s*[,:!]\s*"
    r"|(?:also|btw|by the way|actually|anyway|fyi|so|and|oh|well|honestly|basically|now|"
    r"hey|hi|hello|yeah|yep|ok|okay|haha|lol|update|gente|olha|na real|na vida real|"
    r"these days|nowadays|lately|aliás|então|enfim|ah|na verdade|e|mas|a propósito|agora|"
    r"hoje em dia|cara|mano|gente|tipo|pois|olha|hj|detalhe:?|obs:?|ps:?|fwiw|tbh|"
    r"realistically|for real|for real though|seriously|thanks|thank you|cool|great|nice|"
    r"lol ok|ok so|so yeah|oh and|and also|also fyi|quick note|side note|entao|aliás|"
    r"valeu|obrigad[oa]|beleza|blz|boa|ótimo|otimo|perfeito|sim|já agora|ja agora|for context|"
    r"só lembrando que|so lembrando q|só lembrando q|lembrando que|lembrando q|just a reminder|"
    r"reminder|atenção que|atencao que|aviso que|só (?:pra|para) avisar(?: que)?|heads up|"
    r"(?:no|na) (?:meu|minha) (?:trabalho|trampo|emprego|empresa|pc|computador|casa)|"
    r"no pc de casa|em casa|no trabalho|at work|at home|on my (?:laptop|desktop|pc|machine))"
    r"[,:]?\s+)+",
    re.IGNORECASE,
)

#: Rejection filters, in both languages. A clause that matches one yields nothing.
_QUESTION_START: Final = re.compile(
    r"^(?:what|how|why|when(?! you\b)|where|who|whom|which|whose|"
    r"(?:can|could|would) you(?!\s+(?:please\s+)?(?:stop|always|never|remember|keep|call me)\b)|"
    r"will you|"
    r"do you|did you|are you|is it|is there|are there|should i|shall i|can i|could i|may i|"
    r"do i|am i|would it|o que|como|por que|porque|quando|onde|quem|qual|quais|você pode|"
    r"voce pode|será que|sera que|devo|tem como|é possível)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL: Final = re.compile(
    r"\b(?:if|suppose|supposing|imagine|assuming|assume|pretend|hypothetically|"
    r"let's say|lets say|say that|what if|in case|unless|wish|would be|i'd be|"
    r"se eu|se fosse|caso eu|suponha|supondo|imagine|imagina|e se|hipoteticamente|"
    r"digamos que|finja|fingir|quem me dera|seria|gostaria de ser)\b",
    re.IGNORECASE,
)
_REPORTED: Final = re.compile(
    r"\b(?:said|says|told me|tells me|thinks|claims|claimed|wrote|writes|according to|"
    r"quoting|quote|asked me|"
    r"disse|diz que|falou que|contou que|acha que|escreveu|de acordo com|perguntou|"
    r"segundo\s+(?:o|a|os|as|ele|ela|eles|elas|(?-i:[A-Z])\w*))\b"
    r"|[\"“”«»]",
    re.IGNORECASE,
)
_UNCERTAIN: Final = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|may be|not sure|unsure|i guess|i suppose|"
    r"i think i|considering|kind of|sort of|"
    r"talvez|provavelmente|possivelmente|acho que|não sei se|nao sei se|pode ser que|"
    r"quem sabe|sei lá|sei la)\b",
    re.IGNORECASE,
)
_ONE_OFF: Final = re.compile(
    r"\b(?:for this|this time|this one|in this (?:answer|reply|case|one|email|message)|"
    r"for now|right now|here below|nesta resposta|desta vez|por enquanto|neste caso)\b",
    re.IGNORECASE,
)
_CHANGE: Final = re.compile(
    r"\b(?:now|nowadays|these days|anymore|no longer|moved|switched|changed|recently started|"
    r"just started|agora|hoje em dia|já não|ja nao|mudei|me mudei|mudei-me|troquei|passei a|"
    r"não .{1,30} mais|deixei de)\b",
    re.IGNORECASE,
)


def _shared_subject(clause: str) -> Iterator[str]:
    """A clause cut before each verb that shares its subject ("I live in Lisbon and work at
    Nubank" → "I live in Lisbon", "I work at Nubank"); one value with "and" in it ("rock and
    roll", "Procter and Gamble", "Bosnia and Herzegovina") has no verb after it and stays
    whole. Only a first-person statement is cut, and not one that is rejected as a whole or
    whose verb governs the next ("I want to live … and work …")."""
    parts = _SHARED_SUBJECT.split(clause)
    body = _FILLER.sub("", parts[0]).strip()
    if (
        len(parts) == 1
        or not re.match(r"i\b|i'm\b", body, re.IGNORECASE)
        or _GOVERNING.search(parts[0])
        or rejection(clause) is not None
    ):
        yield clause
        return
    yield parts[0]
    for part in parts[1:]:
        yield "I " + part


#: A comma before a new first-person statement ("I'm 41, I live in Galway", "Tenho 45 anos,
#: sou de Manaus") or before a clause of its own — a consequence, an aside, a request or a
#: question ("I'm vegan, so no steakhouse", "I'm a nurse, if that matters", "I love Terry
#: Pratchett, can you do it in his style?", "Tenho asma, é seguro correr no frio?").
_COMMA_CLAUSE: Final = re.compile(
    r",\s+(?=(?:i|i'm|i've|i'd|we're|we've|eu|sou|tenho|moro|vivo|trabalho|falo|uso|prefiro|gosto|"
    r"switched|moved|started|joined|quit|relocated|working|"
    r"adoro|odeio|estou|programo|sei|mudei|quero|so|então|entao|por isso|if|se|can you|"
    r"running|using|based|living|currently|originally|been|comecei|entrei|saí|sai|mudei|faço|"
    r"faco|mexo|toco|programo|corro|curto|nasci|cresci|a ideia|o plano|meu plano|o objetivo|"
    r"the plan|my plan|no pc|no meu|na minha|em casa|no trabalho|at work|at home|"
    r"could you|please|me ajuda|me ajude|pode|podes|é|bora|what|how|right|ok)\b)",
    re.IGNORECASE,
)


#: The opening of a first-person statement: "I'm …", "I have …", "sou …", "tenho …".
_OWN_STATEMENT: Final = re.compile(
    r"(?:i|i'm|i've|i'd|eu (?:sou|tenho|moro|trabalho|estou)|sou|"
    r"tenho|moro|trabalho|estou)\b",
    re.IGNORECASE,
)


def _comma_clauses(sentence: str) -> Iterator[str]:
    """A sentence cut at `_COMMA_CLAUSE` commas — unless what comes before the comma is itself
    a hypothetical, a report, a hedge or a question ("If I were you, I would…"): then the
    sentence stays whole, and is rejected whole. A question after the last comma is cut off
    the statement before it ("eu tenho 30 anos, bora?")."""
    parts = _COMMA_CLAUSE.split(sentence)
    if len(parts) == 1 and sentence.rstrip().endswith("?") and "," in sentence:
        head, _, tail = sentence.rpartition(",")
        parts = [head, tail.strip()]
    if len(parts) > 1 and rejection(parts[0]) in {"hypothetical", "reported", "uncertain"}:
        yield sentence
        return
    if (
        len(parts) > 1
        and _QUESTION_START.match(_FILLER.sub("", parts[0]).strip())
        # "what's a good breakfast, I'm training for a half marathon": a statement of one's
        # own after the question is a clause of its own; anything else belongs to the question
        and not any(_OWN_STATEMENT.match(part) for part in parts[1:])
    ):
        yield sentence
        return
    yield from parts


def clauses(text: str) -> Iterator[str]:
    """The clauses of a message: sentences, split again before a new first-person clause
    (after "and", "but", a colon or a comma), before a clause of its own after a comma, and
    before a verb that shares the subject of the one before."""
    for sentence in _SENTENCE.split(text):
        for clause in (c for part in _CLAUSE_JOIN.split(sentence) for c in _comma_clauses(part)):
            for part in _shared_subject(clause.strip()):
                stripped = part.strip()
                if stripped:
                    yield stripped


def rejection(clause: str) -> str | None:
    """Why a clause yields nothing (question, hypothetical, reported, uncertain, one-off), or
    None when it may be a statement."""
    body = _FILLER.sub("", clause).strip()
    if body.endswith("?") or _QUESTION_START.match(body):
        return "question"
    if _HYPOTHETICAL.search(body):
        return "hypothetical"
    if _REPORTED.search(body):
        return "reported"
    if _UNCERTAIN.search(body):
        return "uncertain"
    # "I'm learning Portuguese right now": now, of an ongoing activity, is not a one-off
    ongoing = re.match(
        r"(?:i'm|i am|eu estou|estou|to|tô)\s+(?:\w+\s+)?\w+(?:ing|ndo)\b", body, re.IGNORECASE
    )
    if _ONE_OFF.search(body.replace("right now", "") if ongoing else body):
        return "one-off"
    return None


# -- values ----------------------------------------------------------------------------------

_CUT_EN: Final = re.compile(
    r"\s+(?:because|since|so that|so|but|which|although|though|while|whereas|and i|"
    r"and my|and we|and this|and that|and it|where i|when i|if|bc|cause|cuz|coz|cos|"
    r"and i'm|and im|and i've|and ive|and need|and want|and have to|and wanna)\b.*$"
    r"|\s*(?:[;(]|:(?!\d)).*$"
    # How long is not part of the value ("learning German for 6 months").
    r"|\s+for\s+(?:about\s+|over\s+|almost\s+|nearly\s+|around\s+|the (?:past|last)\s+)?"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few|a couple"
    r"(?: of)?)\s+(?:years?|months?|weeks?|days?|decades?|yrs?)\b.*$"
    # A comma ends the value only before a new clause ("…, so no meat"), not inside a list
    # ("short, concise answers").
    r"|\s*,\s*(?:but|so|and i|and my|which|because|since|as|please|i|i'm|i've|my|we|it|"
    r"it's|this|that|though|although|who|where|when|especially|except|not|both|just|like|"
    r"mostly|can you|could you|if|lol|haha)\b.*$",
    re.IGNORECASE,
)
_CUT_PT: Final = re.compile(
    r"\s+(?:porque|pois|mas|então|embora|enquanto|e eu|e minha|e meu|onde eu|quando eu|"
    r"se|já que|pq|por causa|por isso|daí|dai|depois de|antes de)\b.*$|\s*(?:[;(]|:(?!\d)).*$"
    r"|\s*,\s*(?:mas|então|porque|pois|que|e|eu|meu|minha|por favor|isso|isto|ele|ela|"
    r"principalmente|exceto|não|nao|tipo|sabe|onde|quando|já|tira|tire|pode|lembrem|"
    r"sério|serio|aliás|alias|kkk|queria|quero|gostava|gostaria|preciso|vou|to|tô|estou|"
    r"tenho|sou|uso|moro|trabalho|faço|fiz)\b.*$",
    re.IGNORECASE,
)
_TRAIL: Final = re.compile(
    r"(?:,?\s+(?:please|pls|plz|thanks|thank you|por favor|pfv|obrigad[oa])|"
    r"\s+(?:too|as well|also|though|btw|lol|haha|também|tambem|né|ne|rs|kkk|now|at all|"
    r"de verdade|for real|right now|at the moment|"
    r"these days|nowadays|anymore|agora|hoje em dia|mais|last (?:week|month|year)|"
    r"mês passado|ano passado|semana passada|recentemente))+$|[\s.!…:)]+$",
    re.IGNORECASE,
)
_PRONOUNS_EN: Final = (
    (re.compile(r"\bmy\b", re.IGNORECASE), "their"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "theirs"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bme\b", re.IGNORECASE), "them"),
    (re.compile(r"\bI'm\b|\bI am\b", re.IGNORECASE), "they are"),
    (re.compile(r"\bI was\b"), "they were"),
    (re.compile(r"\bI've\b"), "they have"),
    (re.compile(r"\bI'd\b"), "they would"),
    (re.compile(r"\bI'll\b"), "they will"),
    (re.compile(r"\bI\b"), "they"),
    (re.compile(r"\bour\b", re.IGNORECASE), "their"),
)
_PRONOUNS_PT: Final = (
    (re.compile(r"\bmeu\b", re.IGNORECASE), "seu"),
    (re.compile(r"\bminha\b", re.IGNORECASE), "sua"),
    (re.compile(r"\bmeus\b", re.IGNORECASE), "seus"),
    (re.compile(r"\bminhas\b", re.IGNORECASE), "suas"),
    (re.compile(r"\beu\s+", re.IGNORECASE), ""),
    # First-person verbs inside a value ("…que estou liderando") become third-person ones.
    (re.compile(r"\bestou\b", re.IGNORECASE), "está"),
    (re.compile(r"\bsou\b", re.IGNORECASE), "é"),
    (re.compile(r"\btenho\b", re.IGNORECASE), "tem"),
    (re.compile(r"\bmoro\b", re.IGNORECASE), "mora"),
    (re.compile(r"\bquero\b", re.IGNORECASE), "quer"),
    (re.compile(r"\bvou\b", re.IGNORECASE), "vai"),
    (re.compile(r"\bfiz\b", re.IGNORECASE), "fez"),
    (re.compile(r"\buso\b", re.IGNORECASE), "usa"),
    (re.compile(r"\blidero\b", re.IGNORECASE), "lidera"),
    (re.compile(r"\bcriei\b", re.IGNORECASE), "criou"),
    (re.compile(r"\bcomecei\b", re.IGNORECASE), "começou"),
)
_MAX_WORDS: Final = 12


def clean(value: str | None, language: str) -> str | None:
    """A captured value, cut at the first clause boundary, without trailing filler, and with
    first-person pronouns turned into third-person ones. None when nothing is left or the
    value is too long to be one fact."""
    if value is None:
        return None
    text = (_CUT_PT if language == "pt" else _CUT_EN).sub("", value.strip())
    previous = None
    while previous != text:
        previous = text
        text = _TRAIL.sub("", text).strip()
    if len(text.split()) > _MAX_WORDS and "," in text:
        # A run-on sentence: the value is what comes before its first comma ("start a poultry
        # farm in Ogun state next year, around 500 broilers to start").
        text = _TRAIL.sub("", text.split(",", 1)[0]).strip()
    if not text or len(text.split()) > _MAX_WORDS:
        return None
    for pattern, replacement in _PRONOUNS_PT if language == "pt" else _PRONOUNS_EN:
        text = pattern.sub(replacement, text)
    return text


def _clean_whole(value: str, language: str) -> str | None:
    """A standing instruction's value, whole: its own clauses ("when I paste notes, always
    give me the action items") are the instruction, so only trailing filler is cut and the
    pronouns are turned (at most 30 words)."""
    text = " ".join(value.split())
    previous = None
    while previous != text:
        previous = text
        text = _TRAIL.sub("", text).strip()
    if not text or len(text.split()) > 30:
        return None
    for pattern, replacement in _PRONOUNS_PT if language == "pt" else _PRONOUNS_EN:
        text = pattern.sub(replacement, text)
    return text


def _key(value: str) -> str:
    return " ".join(fold(value).split())


# -- rules -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hit:
    """What a rule made of a clause (before provenance is attached)."""

    content: str
    slot: str | None
    value: str | None
    polarity: bool = True
    change: bool = False
    derived: tuple[tuple[str, str, str | None, str | None], ...] = ()


Render = Callable[[re.Match[str], str], Hit | None]


@dataclass(frozen=True, slots=True)
class Rule:
    """One first-person pattern: `pattern` is matched at the start of a clause (after
    fillers); `render` writes the third-person content."""

    id: str
    language: str
    type: str
    pattern: re.Pattern[str]
    render: Render


_BARE: Final = str.maketrans("áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ", "aaaaeeiooouucAAAAEEIOOOUUC")


def _accent_free(regex: str) -> str:
    """`regex` also matching its words typed without accents, as chats often are ("nao",
    "violao", "psicologa", "ingles"): an accented letter outside a character class becomes
    a class of itself and its bare letter (classes are left as they are)."""
    out: list[str] = []
    in_class = escaped = False
    for char in regex:
        bare = char.translate(_BARE)
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            out.append(char)
            escaped = True
        elif in_class:  # left as it is: ranges such as À-Ý must stay ranges
            out.append(char)
            in_class = char != "]"
        elif char == "[":
            out.append(char)
            in_class = True
        else:
            out.append(char if bare == char else f"[{char}{bare}]")
    return "".join(out)


def _compile(regex: str) -> re.Pattern[str]:
    return re.compile(r"^(?:" + _accent_free(regex) + r")", re.IGNORECASE)


def _template(
    text: str,
    slot: str | Callable[[dict[str, str]], str] | None = None,
    value: str | None = "v",
    *,
    polarity: bool = True,
    change: bool = False,
    language: str = "en",
    raw: tuple[str, ...] = (),
    lower: tuple[str, ...] = (),
    whole: bool = False,
) -> Render:
    """A renderer filling `text` with the cleaned named groups; `slot` names the subject slot
    (a string, or a function of the groups) whose value is the group `value`."""

    raw_groups = frozenset(raw)

    def render(match: re.Match[str], clause: str) -> Hit | None:
        groups: dict[str, str] = {}
        for name, raw in match.groupdict().items():
            if raw is None:
                groups[name] = ""
                continue
            cleaned = (
                " ".join(raw.split())
                if name in raw_groups
                else _clean_whole(raw, language)
                if whole
                else clean(raw, language)
            )
            if cleaned is None:
                return None
            if name in lower:
                cleaned = cleaned.lower()
            groups[name] = cleaned
        if value is not None and not groups.get(value):
            return None
        the_slot = slot(groups) if callable(slot) else slot
        content = " ".join(text.format(**groups).split())
        return Hit(
            content=content,
            slot=the_slot,
            value=_key(groups[value]) if value is not None else None,
            polarity=polarity,
            change=change or bool(_CHANGE.search(clause)),
        )

    return render


def _head_en(groups: dict[str, str]) -> str:
    """The subject slot of an English preference: its last noun ("concise answers" →
    "answer"), before "over/to/than"."""
    words = re.split(r"\s+(?:over|to|than|instead of|rather than)\s+", groups["v"])[0].split()
    head = fold(words[-1]) if words else ""
    return "prefers:" + (head[:-1] if head.endswith("s") and len(head) > 3 else head)


def _head_pt(groups: dict[str, str]) -> str:
    """The subject slot of a Portuguese preference: its first noun ("respostas curtas" →
    "resposta"), skipping articles."""
    words = [
        w for w in fold(groups["v"]).split() if w not in {"o", "a", "os", "as", "um", "uma", "de"}
    ]
    head = words[0] if words else ""
    return "prefers:" + (head[:-1] if head.endswith("s") and len(head) > 3 else head)


#: Code editors: a person uses one at a time, so a new one replaces the old (slot ``editor``).
_EDITORS: Final = frozenset(
    fold(e)
    for e in (
        "vs code", "vscode", "visual studio code", "neovim", "nvim", "vim", "emacs", "intellij",
        "intellij idea", "pycharm", "sublime text", "sublime", "atom", "zed", "cursor",
        "helix", "xcode", "android studio", "webstorm", "notepad++", "nano",
    )
)  # fmt: skip


#: Tools one switches to ("mudei para o Ubuntu"): editors and operating systems.
_TOOLS: Final = (
    r"vs ?code|visual studio code|neovim|nvim|vim|emacs|intellij|pycharm|sublime|zed|cursor|"
    r"helix|ubuntu|debian|fedora|arch|linux|windows|mac ?os|macos|mac|macbook|iphone|android|"
    r"chrome ?os|nixos|mint|manjaro|pop!?_os|firefox|chrome|safari|brave"
)


def _tool_slot(groups: dict[str, str]) -> str | None:
    value = re.sub(r"^(?:o|a|the)\s+", "", fold(groups["v"]))
    return "editor" if value in _EDITORS else None


def _likes(groups: dict[str, str]) -> str:
    return "likes:" + _key(groups["v"])


# Word lists used inside patterns.
_JOBS_EN: Final = (
    r"engineer|developer|programmer|scientist|designer|teacher|professor|nurse|doctor|"
    r"physician|surgeon|lawyer|attorney|manager|analyst|architect|consultant|student|"
    r"researcher|writer|journalist|editor|accountant|founder|co-?founder|ceo|cto|cfo|"
    r"freelancer|dentist|pharmacist|chef|cook|electrician|plumber|translator|photographer|"
    r"musician|artist|marketer|economist|psychologist|therapist|veterinarian|vet|pilot|"
    r"librarian|administrator|admin|technician|mechanic|paramedic|firefighter|officer|"
    r"entrepreneur|tutor|lecturer|intern|director|lead|specialist|sysadmin|devops|"
    r"statistician|biologist|chemist|physicist|mathematician|farmer|carpenter|barista|"
    r"waiter|waitress|recruiter|coach|trainer|illustrator|animator|producer|copywriter|dba|"
    r"sre|midwife|caregiver|cashier|driver|courier|bartender|paralegal|surveyor|optician|"
    r"receptionist|secretary|assistant|clerk|teller|banker|nanny|babysitter|cleaner|janitor|"
    r"hairdresser|stylist|butcher|baker|tailor|welder|builder|contractor|realtor|agent|"
    r"salesperson|sales rep|rep|actor|actress|singer|dancer|comedian|youtuber|streamer|"
    r"influencer|nutritionist|dietitian|physiotherapist|physio|counsel+or|social worker|carer|"
    r"guard|soldier|police officer|cop|postdoc|principal|headteacher|dean|pastor|priest|"
    r"rabbi|imam|optometrist|radiographer|sonographer|an(?:a)?esthetist|gp|resident|"
    r"registrar|owner|operator|investor|trader|auditor|underwriter|planner|strategist|"
    r"coordinator|supervisor|foreman|inspector|dispatcher|housekeeper|gardener|landscaper|"
    r"dev|swe|sde|pm|qa|ux designer|ui designer|tester|sales|solicitor|barrister|notary|"
    r"magistrate|judge|clinician|engineer|secretary|treasurer|chair(?:man|woman|person)?"
)
_JOBS_PT: Final = (
    r"engenheir[oa]|desenvolvedor(?:a)?|programador(?:a)?|cientista|designer|professor(?:a)?|"
    r"enfermeir[oa]|médic[oa]|medic[oa]|advogad[oa]|gerente|analista|arquitet[oa]|"
    r"consultor(?:a)?|estudante|pesquisador(?:a)?|escritor(?:a)?|jornalista|contador(?:a)?|"
    r"fundador(?:a)?|cofundador(?:a)?|empreendedor(?:a)?|tradutor(?:a)?|fotógraf[oa]|"
    r"músic[oa]|economista|psicólog[oa]|dentista|farmacêutic[oa]|veterinári[oa]|piloto|"
    r"chef|cozinheir[oa]|vendedor(?:a)?|bibliotecári[oa]|técnic[oa]|mecânic[oa]|"
    r"eletricista|dev|product manager|data engineer|freelancer|diretor(?:a)?|"
    r"coordenador(?:a)?|estagiári[oa]|bióloga?o?|químic[oa]|físic[oa]|matemátic[oa]|"
    r"agricultor(?:a)?|barista|recrutador(?:a)?|treinador(?:a)?|ilustrador(?:a)?|"
    r"produtor(?:a)?|redator(?:a)?|administrador(?:a)?|servidor(?:a)? públic[oa]|"
    r"garçom|garçonete|atendente|motorista|caixa|faxineir[oa]|policial|bombeir[oa]|"
    r"cabeleireir[oa]|manicure|pedreiro|porteiro|secretári[oa]|recepcionista|operador(?:a)?|"
    r"auxiliar|assistente|supervisor(?:a)?|corretor(?:a)?|representante|bancári[oa]|artista|"
    r"ator|atriz|cantor(?:a)?|personal trainer|nutricionista|fisioterapeuta|"
    r"fonoaudiólog[oa]|terapeuta|psiquiatra|cuidador(?:a)?|babá|pedagog[oa]|jardineir[oa]|"
    r"entregador(?:a)?|youtuber|influenciador(?:a)?|motoboy|confeiteir[oa]|padeir[oa]|"
    r"costureir[oa]|vigilante|militar|soldado|pastor(?:a)?|investidor(?:a)?|auditor(?:a)?|"
    r"consultor(?:a)?|empresári[oa]|comerciante|lojista|autônom[oa]|bolsista|doutorand[oa]|"
    r"mestrand[oa]|residente|interno|estagiário|"
    r"gestor(?:a)?(?: de [\w]+)?|motorista(?: de aplicativo)?|product manager|data engineer|"
    r"data scientist|ux designer|designer de ux|guia(?: de turismo| turístic[oa])?|"
    r"enfermeir[oa]-chefe|cozinheir[oa]|educador(?:a)?|pintor(?:a)?|escultor(?:a)?"
)
_NATIONALITIES_EN: Final = (
    r"brazilian|portuguese|american|british|english|scottish|irish|german|french|spanish|"
    r"italian|indian|chinese|japanese|korean|canadian|mexican|argentinian|argentine|"
    r"chilean|colombian|peruvian|dutch|belgian|swiss|austrian|swedish|norwegian|danish|"
    r"finnish|polish|ukrainian|russian|greek|turkish|egyptian|nigerian|kenyan|"
    r"south african|australian|angolan|mozambican|cape verdean|filipino|vietnamese|thai|"
    r"indonesian|israeli|iranian|pakistani|czech|hungarian|romanian"
)
_NATIONALITIES_PT: Final = (
    r"brasileir[oa]|portugues(?:a)?|português|angolan[oa]|moçambican[oa]|cabo-verdian[oa]|"
    r"american[oa]|inglês|inglesa|alem[ãa]o|alemã|francês|francesa|espanhol(?:a)?|"
    r"italian[oa]|argentin[oa]|chilen[oa]|colombian[oa]|mexican[oa]|japones(?:a)?|"
    r"japonês|chinês|chinesa|indian[oa]|canadense|holandês|holandesa|suíç[oa]|"
    r"uruguai[oa]|paraguai[oa]|peruan[oa]|venezuelan[oa]"
)
_LANGS_EN: Final = (
    r"english|portuguese|spanish|french|german|italian|japanese|mandarin|chinese|cantonese|"
    r"korean|russian|arabic|dutch|hindi|swedish|polish|turkish|greek|hebrew|catalan|"
    r"ukrainian|czech|finnish|norwegian|danish|romanian|vietnamese|thai|indonesian|tagalog|"
    r"swahili|esperanto|latin"
)
_LANGS_PT: Final = (
    r"português|portugues|inglês|ingles|espanhol|francês|frances|alemão|alemao|italiano|"
    r"japonês|japones|mandarim|chinês|chines|coreano|russo|árabe|arabe|holandês|holandes|"
    r"hindi|sueco|polonês|turco|grego|hebraico|catalão|ucraniano|latim|esperanto|libras"
)
_LANG_LIST_EN: Final = rf"(?:{_LANGS_EN})(?:(?:,\s*|\s+and\s+|,\s*and\s+)(?:{_LANGS_EN}))*"
_LANG_LIST_PT: Final = rf"(?:{_LANGS_PT})(?:(?:,\s*|\s+e\s+)(?:{_LANGS_PT}))*"
_REL_EN: Final = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse|daughter|son|kid|child|"
    r"mother|mom|mum|father|dad|brother|sister|grandmother|grandfather|grandma|grandpa|"
    r"aunt|uncle|cousin|niece|nephew|boss|manager|co-?founder|business partner|colleague|"
    r"coworker|co-worker|best friend|friend|roommate|flatmate|mentor|dog|cat|puppy|"
    r"stepdaughter|stepson|twin|baby|toddler|teammate|therapist|doctor"
)
_REL_PT_F: Final = (
    r"filha|esposa|mulher|mãe|mae|irmã|irma|avó|tia|prima|namorada|noiva|chefe|sócia|"
    r"socia|amiga|melhor amiga|colega|gata|cachorra|companheira|parceira|sobrinha|neta|"
    r"enteada|cunhada|sogra|gestora|terapeuta|médica"
)
_REL_PT_M: Final = (
    r"filho|marido|esposo|pai|irmão|irmao|avô|tio|primo|namorado|noivo|chefe|sócio|socio|"
    r"amigo|melhor amigo|colega|gato|cachorro|cão|cao|companheiro|parceiro|sobrinho|neto|"
    r"enteado|cunhado|sogro|gestor|terapeuta|médico"
)
#: A person's or pet's name: capitalized words (case-sensitive even in IGNORECASE patterns).
_NAME: Final = r"(?-i:[A-ZÀ-Ý][a-zà-ÿ'’-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'’-]+){0,2})"
#: Capitalized words that are not names.
_NOT_NAMES: Final = frozenset(
    fold(w)
    for w in [
        "I",
        "The",
        "A",
        "An",
        "He",
        "She",
        "It",
        "They",
        "We",
        "You",
        "My",
        "Is",
        "Was",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Ele",
        "Ela",
        "Eles",
        "Elas",
        "Eu",
        "Você",
        "Meu",
        "Minha",
        "Hoje",
        "Amanhã",
        "Ontem",
        "Also",
        "Too",
    ]
)
#: Faiths: "I'm Muslim" names no one.
_FAITHS: Final = (
    "muslim|christian|catholic|protestant|jewish|hindu|buddhist|sikh|atheist|agnostic|mormon|"
    "evangelical|orthodox|pagan|spiritist|muçulmano|cristão|católico|judeu|espírita|ateu"
)
_NAT_WORDS: Final = frozenset(
    fold(w)
    for w in re.sub(r"[()?:\[\]]", " ", _NATIONALITIES_EN + "|" + _LANGS_EN + "|" + _FAITHS).split(
        "|"
    )
)
_PLACE: Final = r"(?P<v>[^;.!?]+)"
#: A place name: stops before "with", "since", "for"… ("in Lisbon with my wife" → Lisbon).
#: "and"/"e" before a last capitalized word joins one name: Bosnia and Herzegovina.
_WHERE: Final = (
    r"(?P<v>[^,;.!?]+?)(?=\s+(?:with|since|for|near|and(?!\s+(?-i:[A-Z][a-zà-ÿ]+)\s*(?:[,;.!?]|"
    r"$))|now|"
    r"these days|because|but|last|"
    r"this|next|a few|recently|in (?:19|20)\d\d|(?:\w+ )?(?:years?|months?|weeks?) ago|com|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)|"
    r"desde|há|ha|perto|e(?!\s+(?-i:[A-Z][a-zà-ÿ]+)\s*(?:[,;.!?]|$))|agora|porque|mas|faz|"
    r"hoje em dia|no ano|ano passado|este ano|"
    r"em (?:19|20)\d\d|em (?:janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|"
    r"outubro|novembro|dezembro))\b|\s*[,;.!?]|\s*$)"
)
_REST: Final = r"(?P<v>[^;!?]+)"
_SMALL_NUMBERS_EN: Final = r"a|an|one|two|three|four|five|six|\d+"
_SMALL_NUMBERS_PT: Final = r"um|uma|dois|duas|três|tres|quatro|cinco|seis|\d+"
#: "I want to …" that asks for help right now rather than stating a goal.
_REQUEST_VERBS_EN: Final = (
    r"know|ask|understand|see|check|make sure|find out|confirm|clarify|thank|"
    # "start over", "begin with the intro" ask for help now; "start a podcast" is a goal.
    r"(?:start|begin)(?! (?:a|an|my|our) (?!new (?:chat|conversation|thread))\w)|"
    r"try (?:this|that|it)|be clear|say|mention|add|continue|go back|change|rewrite|fix|"
    r"write (?:an? )?(?:email|letter|message|reply|text|post|note)|send|share|tell you|"
    r"compare|test|debug|convert|translate|summarize|get (?:a|an|the|some|your)|have "
    r"(?:a|an|the)|talk about|discuss|print|"
    # "run the script" asks for help now; "run a marathon" is a goal.
    r"run (?:it|this|that|the (?:code|script|tests?|query|program|command|app|file)|my "
    r"(?:code|script|tests?|query|program))|create a (?:table|list|function|script)|"
    r"order|book|buy|cancel|reply|respond|finish (?:this|the)|do (?:this|that)|use (?:this|"
    r"that|it)|generate|draft|outline|plan (?:a|my|the) (?:trip|day|party|meeting|menu|"
    r"dinner)|read|watch|make (?:a|an|the) (?:list|table|chart|plot|graph|summary)|"
    r"improve (?:this|the|my) (?:text|code|email|paragraph|essay)"
)
_REQUEST_VERBS_PT: Final = (
    r"saber|entender|perguntar|ver|conferir|confirmar|checar|esclarecer|agradecer|"
    r"começar(?! (?:um|uma|meu|minha) (?!nova conversa|novo chat)\w)|"
    r"dizer|mencionar|adicionar|continuar|voltar|"
    # "mudar o título" asks for an edit; "mudar de emprego" is a change of life.
    r"mudar(?! de (?:emprego|carreira|cidade|país|pais|casa|área|area|vida|profissão))|"
    r"reescrever|corrigir|escrever (?:um|uma) "
    r"(?:e-?mail|carta|mensagem|resposta|texto|post)|enviar|mandar|compartilhar|comparar|"
    r"testar|traduzir|resumir|que você|que voce|que vc|uma|um|falar sobre|discutir|"
    r"imprimir|rodar|executar|criar (?:uma|um) (?:tabela|lista|função|script)|pedir|"
    r"comprar|cancelar|responder|fazer (?:isso|isto|uma lista|uma tabela)|gerar|ler|assistir"
)


def _r(
    rule_id: str, language: str, type: str, regex: str, render: Render | str, **kw: object
) -> Rule:
    if type == "instruction":  # a standing instruction is kept whole
        kw.setdefault("whole", True)
    renderer = (
        _template(render, language=language, **kw)  # type: ignore[arg-type]
        if isinstance(render, str)
        else render
    )
    return Rule(rule_id, language, type, _compile(regex), renderer)


def _occupation(language: str) -> Render:
    def render(match: re.Match[str], clause: str) -> Hit | None:
        role = clean(match.group("role"), language)
        org_raw = match.group("org")
        org = clean(org_raw, language) if org_raw else None
        if role is None:
            return None
        nationality = re.match(
            rf"({_NATIONALITIES_EN if language == 'en' else _NATIONALITIES_PT})\s+(?=\S)",
            role,
            re.IGNORECASE,
        )
        prep = (match.group("prep") or "").lower()
        change = bool(_CHANGE.search(clause))
        # Only a named organisation ("at Acme", "na Nubank") makes an employer fact.
        named = org is not None and any(c.isupper() or c.isdigit() for c in org)
        # "a nurse in ohio": where one works, typed in lower case, is still a place.
        named = named or (org is not None and prep in {"in", "em"} and len(org.split()) <= 3)
        # "comecei na farfetch", "no ipo do porto": the article says the lower-case words
        # are a name.
        named = named or (org is not None and prep in {"na", "no"} and len(org.split()) <= 3)
        # A student studies at the school named; it is not an employer.
        named = named and not re.search(r"\b(?:student|estudante|intern|estagiári[oa])$", role)
        # "numa secundária em viseu", "at a school in Mayo": the town of the workplace
        town = (
            re.search(r"\b(?:em|in)\s+(?P<t>[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)$", org)
            if org and not named
            else None
        )
        if language == "pt":
            content = f"O usuário é {role}" + (f" {prep} {org}" if org else "")
            derived = (
                (("fact", f"O usuário trabalha {prep} {org}", "employer", _key(org)),)
                if org and named
                else (("fact", f"O usuário trabalha em {town['t']}", "employer", _key(town["t"])),)
                if town
                else ()
            )
        else:
            # "an engineer", "a UX designer", "a university lecturer"
            vowel = role[:1].lower() in "aeiou" and not re.match(r"u(?:x|ni|s[aeu])", role, re.I)
            article = "an" if vowel else "a"
            content = f"User is {article} {role}" + (f" {prep} {org}" if org else "")
            derived = (
                (
                    (
                        "fact",
                        f"User works {prep if prep in {'for', 'in'} else 'at'} {org}",
                        "employer",
                        _key(org),
                    ),
                )
                if org and named
                else (("fact", f"User works in {town['t']}", "employer", _key(town["t"])),)
                if town
                else ()
            )
        if nationality:
            origin = nationality.group(1)
            derived = (
                *derived,
                (
                    "identity",
                    f"O usuário é {origin}" if language == "pt" else f"User is {origin}",
                    "origin",
                    _key(origin),
                ),
            )
        return Hit(content, "occupation", _key(role), True, change, derived)

    return render


def _relationship(language: str, gender: str = "") -> Render:
    def render(match: re.Match[str], clause: str) -> Hit | None:
        name = match.group("name").strip()
        rel = match.group("rel").lower()
        if fold(name.split()[0]) in _NOT_NAMES or fold(name) in _NAT_WORDS:
            return None
        if language == "pt":
            article = "A" if gender == "f" else "O"
            content = f"{article} {rel} do usuário se chama {name}"
        else:
            content = f"User's {rel} is named {name}"
        return Hit(content, f"relationship:{fold(rel)}:{fold(name)}", fold(name))

    return render


def _name_only(match: re.Match[str], clause: str) -> Hit | None:
    name = match.group("v").strip()
    if fold(name.split()[0]) in _NOT_NAMES or fold(name) in _NAT_WORDS:
        return None
    return Hit(f"User's name is {name}", "name", fold(name))


_CONTRACTIONS: Final = (("o ", "no "), ("a ", "na "), ("os ", "nos "), ("as ", "nas "))


def _em(place: str) -> tuple[str, str]:
    """("em" + the place, the place without its article): "em" contracts with an article —
    em o Porto → no Porto, em a Bahia → na Bahia."""
    lowered = place.lower()
    for article, contraction in _CONTRACTIONS:
        if lowered.startswith(article):
            return contraction + place[len(article) :], place[len(article) :]
    return "em " + place, place


def _residence_pt(match: re.Match[str], clause: str) -> Hit | None:
    place = clean(match.group("v"), "pt")
    if place is None:
        return None
    place_text, _ = _em(place)
    negative = bool(
        re.search(r"\b(?:já não|ja nao|não .* mais|nao .* mais|deixei de)", clause, re.I)
    )
    bare = re.sub(r"^(?:o|a|os|as)\s+", "", place, flags=re.I)
    if negative:
        return Hit(f"O usuário já não mora {place_text}", "residence", _key(bare), False, True)
    return Hit(
        f"O usuário mora {place_text}",
        "residence",
        _key(bare),
        True,
        bool(_CHANGE.search(clause)),
    )


def _routine(match: re.Match[str], clause: str) -> Hit | None:
    value = clean(match.group("v"), "en")
    if value is None:
        return None
    verb, _, rest = match.group("a").lower().partition(" ")
    third = {"go": "goes", "have": "has"}.get(verb, verb + "s")
    phrase = " ".join(w for w in (third, rest) if w)
    return Hit(f"User usually {phrase} {value}", None, _key(value))


_PT_THIRD: Final = {
    "corro": "corre",
    "nado": "nada",
    "pedalo": "pedala",
    "cozinho": "cozinha",
    "leio": "lê",
    "viajo": "viaja",
}


def _habit_pt(match: re.Match[str], clause: str) -> Hit | None:
    verb = _PT_THIRD[match.group("a").lower()]
    return Hit(f"O usuário {verb} {match.group('v').lower()}", None, None)


# -- the first-person clause detector ------------------------------------------------------
# After every specific pattern: a first-person clause whose verb belongs to a lexicon of verbs
# about a person's life (what they do, keep doing, own, suffer from, went through), in any
# wording: "I teach 7th grade science", "I drive a Civic", "I don't drink alcohol", "Dou aula
# de inglês", "Não fumo". The verb decides the PAM type; the value must not point at the work in
# the conversation ("I teach it", "I drink this") — task wording has other verbs (need, want,
# get, try), which are not in the lexicon.

#: (PAM type, verbs); a verb may carry a required continuation (a lookahead).
_LIFE_VERBS_EN: Final = (
    (
        "fact",
        r"teach|drive|ride|commute|cycle|volunteer|coach|sing|rent|own|bake|garden|surf|ski|"
        r"climb|boulder|knit|sew|crochet|dance|swim|hike|meditate|practi[cs]e|lift|box|fish|"
        r"sail|smoke|drink|eat|attend|care for|look after|take care of|suffer from|"
        r"struggle with|homeschool|foster|tutor|mentor|raise|grow|brew|collect|"
        r"live(?=\s+(?:alone|abroad|by myself|on my own|on (?:a|an|the)\b|near|close to|"
        r"with (?:my|a|an|two|three|\d)))|"
        r"do(?=\s+(?:yoga|pilates|crossfit|karate|judo|jiu|bjj|martial|freelance|volunteer|"
        r"ballet|triathlons?|marathons?|stand-?up|improv|therapy|shift work|contract work)\b)|"
        r"go(?=\s+(?:to (?:church|the gym|therapy|university|college|uni|school|night school|"
        r"mass|the mosque|the synagogue|temple|a gym)|climbing|running|swimming|hiking|surfing|"
        r"cycling|bouldering|dancing|fishing|camping|skiing)\b)|"
        r"walk(?=\s+(?:to work|my dog|\w+ (?:km|miles)))|"
        r"work(?=\s+(?:nights|night shifts|part[- ]time|full[- ]time|shifts|weekends|two "
        r"jobs|(?:\w+\s+)?hours|with (?:kids|children|patients|students|clients|animals|"
        r"refugees)|freelance|from (?:a|the) (?:coffee|cafe|café|library|cowork))\b)|"
        r"got(?=\s+(?:a (?:new )?job|promoted|laid off|fired|a (?:dog|cat|puppy|kitten)\b))|"
        r"quit(?=\s+(?:my\b|smoking|drinking|sugar|caffeine|coffee|alcohol|school|college|uni\b|"
        r"university|(?-i:[A-Z])))|left(?=\s+(?:my job|the company|my company|(?-i:[A-Z])\w+ "
        r"(?:last|in)\b))|"
        r"lost(?=\s+my job)|retired|graduated|started(?=\s+(?:a new job|working|my own|"
        r"my first|(?:a|my) (?:phd|masters?|master's|degree|residency|business|company))\b)|"
        r"finished(?=\s+(?:my|a)\s+(?:degree|phd|masters?|master's|bachelor's|residency|"
        r"bootcamp|course|studies))",
    ),
    ("skill", r"(?:code|program|develop|write code)(?=\s+(?:mostly\s+|mainly\s+)?in\b)"),
    (
        "relationship",
        r"got(?=\s+(?:married|engaged|divorced)\b)|adopted|"
        r"(?:have|'ve got|have got)(?=\s+(?:a|an|one|two|three)\s+(?:\w+\s+)?(?:dog|cat|puppy|"
        r"kitten|rabbit|parrot|hamster|horse|tortoise|turtle|snake|lizard)s?\b)",
    ),
)
_LIFE_VERBS_PT: Final = (
    (
        "fact",
        r"dou aulas?|ensino|leciono|dirijo|conduzo|ando de|pedalo|danço|"
        r"cozinho|malho|surfo|escalo|medito|pratico|bebo|fumo|frequento|cuido d[eoa]s?|"
        r"sofro de|durmo|alugo|cultivo|coleciono|"
        # words that are nouns as often as verbs ("acordo de confidencialidade", "desenho
        # técnico", "jogo de dados", "canto superior"): only after "eu" or a negation
        r"(?<=eu )(?:canto|pinto|desenho|treino|nado|como|acordo|jogo)|"
        r"(?<=não |nao )(?:como|durmo|nado|jogo)|"
        r"jogo(?=\s+(?:futebol|vôlei|volei|basquete|tênis|tenis|xadrez|padel|handebol|golfe|"
        r"pôquer|poker|bola|videogame|video game|rpg|truco|sinuca|boliche)\b)|"
        r"faço(?=\s+(?:yoga|ioga|pilates|crossfit|musculação|academia|natação|terapia|jiu|"
        r"karatê|judô|ballet|balé|corrida|trilha|faculdade|mestrado|doutorado|"
        r"doutoramento|licenciatura|plantão|plantões|freela|voluntariado|trabalho voluntário)"
        r"\b)|"
        r"vou(?=\s+(?:à|a|pra|para a) (?:academia|igreja|missa|terapia|faculdade|escola|"
        r"universidade)\b)|"
        r"moro(?=\s+(?:sozinh[oa]|com (?:meu|minha|meus|minhas|a|o|um|uma|dois|duas)\b))|"
        r"trabalho(?=\s+(?:como|com (?:crianças|pacientes|alunos|clientes|animais)|de "
        r"(?:noite|madrugada|plantão)|em turnos|meio período|em dois empregos)\b)|"
        r"sa\u00ed(?=\s+d[oa]\s+(?:emprego|empresa|\w+))|pedi demissão|me formei|me aposentei|"
        r"fui (?:demitid[oa]|promovid[oa])|comecei(?=\s+(?:a trabalhar|um emprego|um novo "
        r"emprego|meu|minha|o mestrado|o doutorado|a faculdade)\b)",
    ),
    (
        "relationship",
        r"me casei|casei|me divorciei|divorciei|noivei|fiquei noiv[oa]|adotei|"
        r"tenho(?=\s+(?:um|uma|dois|duas|três)\s+(?:gat[oa]s?|cachorr[oa]s?|cães|cão|"
        r"coelh[oa]s?|papagaio|calopsita|tartaruga|cavalo|peixes?)\b)",
    ),
)
#: The third person of the Portuguese first-person verbs above.
_PT_LIFE_THIRD: Final = {
    "dou": "dá", "ensino": "ensina", "leciono": "leciona", "dirijo": "dirige", "conduzo": "conduz",
    "ando": "anda", "pedalo": "pedala", "canto": "canta", "danço": "dança", "pinto": "pinta",
    "desenho": "desenha", "cozinho": "cozinha", "treino": "treina", "malho": "malha",
    "nado": "nada", "surfo": "surfa", "escalo": "escala", "medito": "medita",
    "pratico": "pratica", "bebo": "bebe", "fumo": "fuma", "como": "come",
    "frequento": "frequenta", "cuido": "cuida", "sofro": "sofre", "crio": "cria",
    "sigo": "segue", "acordo": "acorda", "durmo": "dorme", "alugo": "aluga",
    "cultivo": "cultiva", "coleciono": "coleciona", "jogo": "joga", "faço": "faz",
    "vou": "vai", "moro": "mora", "trabalho": "trabalha", "saí": "saiu", "pedi": "pediu",
    "me": "se", "fui": "foi", "comecei": "começou", "casei": "casou", "divorciei": "divorciou",
    "noivei": "noivou", "fiquei": "ficou", "adotei": "adotou", "tenho": "tem",
    "formei": "formou", "aposentei": "aposentou", "casei,": "casou",
}  # fmt: skip
#: The English past and irregular forms of the verbs above, in the third person.
_EN_LIFE_THIRD: Final = {
    "got": "got", "quit": "quit", "left": "left", "lost": "lost", "retired": "retired",
    "graduated": "graduated", "started": "started", "finished": "finished",
    "adopted": "adopted", "'ve": "has", "have": "has", "do": "does", "go": "goes",
}  # fmt: skip
#: A value that is the work at hand, or points into the conversation: not a life.
_LIFE_TASK: Final = re.compile(
    r"^(?:it|this|that|these|those|them|here|anything|everything|whatever|something|isso|isto|"
    r"esse|essa|aqui|qualquer coisa|tudo|o código|the code)\b"
    r"|\b(?:the (?:code|script|function|file|text|draft|email|essay|answer|bug|error|query|"
    r"function|test|page|slides?|list|table)|o (?:código|texto|arquivo|e-mail|erro|rascunho)|"
    r"a (?:função|tabela|lista|página))\b"
    # the things of software work: "collect the data from an API", "cuido do deploy"
    r"|\b(?:data|dados|model|modelo|buffer|exception|exceção|token|tokens|repo|repository|"
    r"repositório|api|deploy|server|servidor|database|banco de dados|cache|thread|loop|"
    r"array|string|query|endpoint|bug|bugs|pipeline|branch|commit|cluster|container|"
    r"tutorial|função|funcao|célula|celula|planilha|spreadsheet|column|coluna|row|linha)\b",
    re.IGNORECASE,
)
_ADVERBS_EN: Final = (
    r"(?:(?:usually|often|mostly|also|still|currently|now|regularly|sometimes|normally|only|"
    r"basically|mainly|occasionally|recently|just|finally)\s+)*"
)


def _life_pattern_en(verbs: str) -> str:
    return (
        rf"(?:i|we)\s+{_ADVERBS_EN}(?P<neg>(?:don't|do not|never|no longer)\s+)?"
        rf"(?P<a>{verbs})\b\s*(?P<v>[^;!?]*)"
    )


def _life_pattern_pt(verbs: str) -> str:
    return (
        r"(?:eu\s+)?(?:(?:também|tambem|ainda|sempre|geralmente|normalmente|agora|já|ja)\s+)*"
        rf"(?P<neg>(?:não|nao|nunca)\s+)?(?P<a>{verbs})\b\s*(?P<v>[^;!?]*)"
    )


def _life_value(match: re.Match[str], language: str) -> str | None:
    """The value after a life verb, or None when it is the task at hand (or missing where a
    verb needs one)."""
    # what follows a comma is another clause ("não conduzo, nunca tirei a carta")
    raw = re.split(r"\s*[,;]", match.group("v") or "", maxsplit=1)[0]
    value = clean(raw, language) if raw.strip() else ""
    if value is None or _LIFE_TASK.search(value):
        return None
    return value


def _life_en(match: re.Match[str], clause: str) -> Hit | None:
    value = _life_value(match, "en")
    verb = " ".join(match.group("a").lower().split())
    negative = bool(match.group("neg"))
    if value is None or (not value and not negative and verb not in _EN_LIFE_THIRD):
        return None
    if negative:
        text = (
            f"User doesn't {verb} {value}"
            if not verb.startswith(
                (
                    "got",
                    "quit",
                    "left",
                    "lost",
                    "retired",
                    "graduated",
                    "started",
                    "finished",
                    "adopted",
                )
            )
            else None
        )
        if text is None:
            return None
    else:
        head, _, rest = verb.partition(" ")
        third = _EN_LIFE_THIRD.get(head) or _third_person(head)
        text = f"User {' '.join(w for w in (third, rest) if w)} {value}"
    text = " ".join(text.split())
    return Hit(text, None, _key(text), polarity=not negative, change=bool(_CHANGE.search(clause)))


def _life_pt(match: re.Match[str], clause: str) -> Hit | None:
    value = _life_value(match, "pt")
    verb = " ".join(match.group("a").lower().split())
    negative = bool(match.group("neg"))
    if value is None or (not value and not negative and " " not in verb):
        return None
    head, _, rest = verb.partition(" ")
    third = " ".join(w for w in (_PT_LIFE_THIRD.get(head, head), rest) if w)
    if head == "me":  # me casei → se casou
        third = "se " + _PT_LIFE_THIRD.get(rest, rest)
    text = " ".join(f"O usuário {'não ' if negative else ''}{third} {value}".split())
    return Hit(text, None, _key(text), polarity=not negative, change=bool(_CHANGE.search(clause)))


#: Health conditions by their shape rather than one by one: a named illness, an "-itis" or
#: "-osis" (arthritis, tendinitis, scoliosis), or a bad knee / back / shoulder, injured or not.
_CONDITIONS_EN: Final = (
    r"anxiety|depression|epilepsy|eczema|psoriasis|hypertension|insomnia|tinnitus|lupus|"
    r"fibromyalgia|endometriosis|pcos|ibs|crohn'?s|a hernia|a herniated disc|[a-z]+(?:itis|osis)|"
    r"(?:a|an)\s+(?:(?:bad|dodgy|bum|weak|old|torn|chronic|slipped|injured|\w+ed)\s+)?"
    r"(?:knee|back|hip|shoulder|ankle|wrist|neck|disc|acl|meniscus|hamstring)"
    r"(?:\s+(?:injury|problem|issue|condition))?"
)
#: What one "gets" ("I get really bad motion sickness", "I get migraines").
_SPELLS_EN: Final = (
    r"(?:really\s+|very\s+|pretty\s+|quite\s+)?(?:bad\s+|terrible\s+|awful\s+|severe\s+)?"
    r"(?:motion sickness|sea ?sickness|car ?sickness|migraines|headaches|panic attacks|"
    r"hay fever|nosebleeds|cold sores|seasick|carsick|airsick)"
)
_CONDITIONS_PT: Final = (
    r"ansiedade|depressão|epilepsia|eczema|psoríase|insônia|insónia|lúpus|fibromialgia|"
    r"endometriose|hérnia(?: de disco| discal| inguinal| umbilical)?|[a-zà-ÿ]+(?:ite|ose)|"
    r"(?:uma\s+)?(?:lesão|problema|dor crónica|dor crônica) (?:no|na|nas|nos) [a-zà-ÿ]+"
)
_I_AM: Final = r"i(?:'m|’m| am)"
_I_HAVE: Final = r"i(?:'ve|’ve| have)"
_EU: Final = r"(?:eu\s+)?"

RULES: Final[tuple[Rule, ...]] = (
    # ---- English -------------------------------------------------------------------------
    # instruction: standing requests to the assistant
    _r(
        "en.instruction.call_me",
        "en",
        "instruction",
        rf"(?:please\s+)?(?:call me|address me as|refer to me as)\s+(?P<v>{_NAME})",
        "User wants to be called {v}",
        slot="address",
    ),
    _r(
        "en.instruction.always",
        "en",
        "instruction",
        r"(?:please\s+)?(?:from now on,?\s+|going forward,?\s+|in (?:the )?future,?\s+)?"
        r"(?:always)\s+" + _REST,
        "User wants the assistant to always {v}",
        slot=None,
    ),
    _r(
        "en.instruction.never",
        "en",
        "instruction",
        r"(?:please\s+)?(?:from now on,?\s+|going forward,?\s+)?(?:never|don't ever|do not ever)"
        r"\s+" + _REST,
        "User wants the assistant to never {v}",
        slot=None,
    ),
    _r(
        "en.instruction.from_now_on",
        "en",
        "instruction",
        r"(?:please\s+)?(?:from now on|going forward|for the future|in future|"
        r"in (?:all )?(?:the )?future "
        r"(?:answers|replies|responses|chats)?|by default|in all your (?:answers|replies|"
        r"responses)),?\s+(?:please\s+)?" + _REST,
        # "going forward, don't suggest pork": the assistant is asked not to
        lambda m, c: (
            Hit(t, None, _key(t))
            if (v := _clean_whole(m.group("v"), "en"))
            and (
                t := re.sub(
                    r"^User wants the assistant to (?:don't|do not)\b",
                    "User wants the assistant not to",
                    f"User wants the assistant to {v}",
                )
            )
            else None
        ),
    ),
    _r(
        "en.instruction.from_now_on_after",
        "en",
        "instruction",
        r"(?:(?:please|just|and)\s+)*(?P<v>(?:write|use|reply|answer|respond|keep|give|call|talk|"
        r"speak|format|add|put|avoid|include|explain|stick to|show|make)\b[^;!?]*?)\s*,?\s+"
        r"(?:from now on|going forward|in (?:the )?future|from here on(?: out)?)\s*[.!]?\s*$",
        "User wants the assistant to {v}",
        slot=None,
    ),
    _r(
        "en.instruction.stop",
        "en",
        "instruction",
        r"(?:(?:can|could|would) you\s+(?:please\s+)?|please\s+)?stop\s+(?P<v>(?:starting|using|"
        r"adding|"
        r"saying|apologi[sz]ing|ending|writing|putting|including|giving me|calling me|asking)\b"
        r"[^?!]*)",
        "User wants the assistant to stop {v}",
        slot=None,
    ),
    _r(
        "en.instruction.dont",
        "en",
        "instruction",
        r"(?:please\s+)?(?:don't|do not)\s+(?P<v>(?:use|add|include|put|give me|call me|"
        r"mention|apologi[sz]e|repeat|start|end|sign|recommend|suggest|assume|explain basic|"
        r"say)\b[^;!?]*)",
        "User wants the assistant not to {v}",
        slot=None,
    ),
    _r(
        "en.instruction.when_you",
        "en",
        "instruction",
        r"(?:whenever|every time|each time|when) you\s+(?P<a>[^,]+),\s*(?:please\s+)?"
        r"(?P<v>[^;!?]+)",
        "When the assistant {a}, User wants it to {v}",
        slot=None,
    ),
    _r(
        "en.instruction.want_you",
        "en",
        "instruction",
        r"i (?:want|need|'d like|would like) you to (?:always\s+)?(?P<v>(?:answer|reply|respond|"
        r"write|speak|talk|use|keep|be|explain|give)\b[^;!?]*)",
        "User wants the assistant to {v}",
        slot=None,
    ),
    # identity
    _r(
        "en.identity.name",
        "en",
        "identity",
        rf"my name(?:'s| is)\s+(?P<v>{_NAME})",
        "User's name is {v}",
        slot="name",
    ),
    _r(
        "en.identity.called",
        "en",
        "identity",
        rf"{_I_AM} called\s+(?P<v>{_NAME})",
        "User's name is {v}",
        slot="name",
    ),
    _r(
        "en.identity.age",
        "en",
        "identity",
        rf"{_I_AM}\s+(?P<v>\d{{1,3}})(?:\s+years old|\s*(?:yo|y/o)\b|"
        r"(?:\s+(?:now|btw|lol|already|this year))?\s*(?:[,;.!]|$|(?=\s+(?:and|but|so|with)\b)))",
        "User is {v} years old",
        slot="age",
    ),
    _r(
        "en.identity.age_noun",
        "en",
        "identity",
        rf"{_I_AM}\s+(?:a|an)\s+(?P<v>\d{{1,3}})[- ]?(?:years?|yrs?|y/?o)[- ]old\b",
        "User is {v} years old",
        slot="age",
    ),
    _r(
        "en.identity.pronouns",
        "en",
        "identity",
        r"my pronouns are\s+(?P<v>\w+\s*/\s*\w+(?:\s*/\s*\w+)?)",
        "User's pronouns are {v}",
        slot="pronouns",
    ),
    _r(
        "en.identity.occupation",
        "en",
        "identity",
        rf"(?:(?:{_I_AM}|{_I_HAVE} been|i work as|i've been working as|i have been working as|"
        rf"i (?:make|earn)\s+[\w$£€.,]+(?:\s+a\s+year)?\s+as)\s+(?:a|an)|"
        rf"(?:i work|{_I_AM} working|{_I_AM} employed|i've been working|i have been "
        rf"working|{_I_AM} self[- ]employed|{_I_AM} freelancing|i freelance) as(?:\s+(?:a|an))?|"
        rf"{_I_AM}(?=\s+(?-i:[A-Z])\w+\s+(?:{_JOBS_EN})\b)|"
        # without an article, as people writing a second language often put it ("I am
        # software tester"), or with "the" ("I'm the cofounder"): the job word must end it
        rf"{_I_AM}(?:\s+the(?!\s+(?:[\w-]+\s+){{0,2}}(?:{_JOBS_EN})s?\s+"
        rf"(?:here|of this|on this|for this|in this)\b))?(?!\s+the\b)"
        rf"(?=\s+(?:[\w-]+\s+){{0,2}}(?:{_JOBS_EN})s?(?:[\s,;.!]|$)))"
        rf"\s+(?P<role>(?:[\w+#./-]+\s+){{0,3}}?(?:{_JOBS_EN})s?)"
        r"(?:\s+(?:working\s+|employed\s+)?(?P<prep>at|for|in|with)\s+(?!(?:\w+\s+)?(?:years?|"
        r"months?|weeks?|decades?|"
        r"a while|ages|now)\b)(?P<org>[^,;.!?]+?))?"
        r"(?:\s*(?:[,;.!]|$)|\s+(?=(?:for|since|so|btw|now|and|but|mostly|too|while|who|"
        r"working|living|based|with|speciali[sz]ing|doing|by the way|lol|myself|too|as well|"
        r"actually|by trade|by profession|since|here|i|i'd|i'm|i've|\w+ing)\b))",
        _occupation("en"),
    ),
    _r(
        "en.identity.nationality",
        "en",
        "identity",
        rf"{_I_AM}\s+(?:a\s+)?(?P<v>{_NATIONALITIES_EN})(?:\s+citizen)?\s*(?:[,;.!]|$)",
        "User is {v}",
        slot="origin",
    ),
    _r(
        "en.identity.from",
        "en",
        "identity",
        rf"{_I_AM}\s+(?:originally\s+)?from\s+{_WHERE}",
        "User is from {v}",
        slot="origin",
    ),
    _r(
        "en.identity.im_name",
        "en",
        "identity",
        rf"{_I_AM}\s+(?P<v>{_NAME})\s*(?:[,.!]|$)",
        _name_only,
    ),
    # relationship
    _r(
        "en.relationship.named",
        "en",
        "relationship",
        rf"{_I_HAVE}\s+(?:a|an|one)\s+(?P<rel>{_REL_EN})\s+(?:named|called)\s+(?P<name>{_NAME})",
        _relationship("en"),
    ),
    _r(
        "en.relationship.my_x_is",
        "en",
        "relationship",
        rf"my\s+(?:(?:little|older|younger|big|baby|\d+[- ]year[- ]old)\s+)?(?P<rel>{_REL_EN})"
        rf"(?:'s name is|(?:'s| is) (?:called|named))\s+(?P<name>{_NAME})",
        _relationship("en"),
    ),
    _r(
        "en.relationship.my_x_name",
        "en",
        "relationship",
        rf"my\s+(?:(?:little|older|younger|big|baby|\d+[- ]year[- ]old)\s+)?(?P<rel>{_REL_EN}),?"
        rf"\s+(?P<name>{_NAME})\b",
        _relationship("en"),
    ),
    _r(
        "en.relationship.married",
        "en",
        "relationship",
        rf"{_I_AM}\s+married\s+to\s+(?P<v>{_NAME})",
        "User is married to {v}",
        slot="spouse",
    ),
    _r(
        "en.relationship.count",
        "en",
        "relationship",
        rf"(?:{_I_HAVE}|we(?:'ve| have))\s+(?:got\s+)?(?P<n>{_SMALL_NUMBERS_EN})\s+"
        r"(?P<v>(?:kids|children|sons|daughters|"
        r"brothers|sisters|siblings|grandchildren|son|daughter|brother|sister|kid|child|"
        r"dogs|cats|dog|cat))\b",
        "User has {n} {v}",
        slot=None,
    ),
    # fact
    _r(
        "en.fact.been_in",
        "en",
        "fact",
        rf"(?:{_I_HAVE}|we(?:'ve| have))\s+been\s+(?:living\s+|based\s+)?in\s+"
        r"(?P<v>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)*)\s+(?:for|since)\b",
        "User lives in {v}",
        slot="residence",
    ),
    _r(
        # a home of one's own in a place: "we bought our first house in Derby", "we're in a 2
        # bed apartment in Queens"
        "en.fact.home_in",
        "en",
        "fact",
        r"(?:i|we)(?:'re|'m| are| am)?\s+(?:just\s+|finally\s+|recently\s+)?(?:bought|rent|"
        r"own|got|moved into|in|live in|share)\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+){0,3}?"
        r"(?:house|flat|apartment|apt|condo|place|home|bungalow|cottage|studio)\s+in\s+"
        r"(?=(?-i:[A-Z]))" + _WHERE,
        "User lives in {v}",
        slot="residence",
    ),
    _r(
        "en.fact.live",
        "en",
        "fact",
        r"(?:based|(?:i|we)\s+(?:now\s+|currently\s+|still\s+|do\s+|actually\s+)?live|"
        rf"(?:{_I_AM}|we(?:'re|’re| are))"
        rf"\s+(?:now\s+|currently\s+|still\s+)?(?:living|based|located)|(?:{_I_HAVE}|"
        r"we(?:'ve| have))\s+(?:been\s+living|lived))\s+in\s+(?!(?:a|an)\s)" + _WHERE,
        "User lives in {v}",
        slot="residence",
    ),
    _r(
        "en.fact.moved",
        "en",
        "fact",
        rf"(?:{_I_HAVE}|i|we(?:'ve| have)?)\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|"
        rf"relocated)\s+(?:from\s+(?P<old>[^,;.!?]+?)\s+)?to\s+{_WHERE}",
        "User lives in {v}",
        slot="residence",
        change=True,
    ),
    _r(
        "en.fact.no_longer_live",
        "en",
        "fact",
        r"i\s+(?:no longer|don't|do not)\s+live\s+in\s+(?P<v>[^,;.!?]+?)\s+any\s?more"
        r"|i\s+no longer\s+live\s+in\s+(?P<w>[^,;.!?]+)",
        lambda m, c: _no_longer_en(m),
    ),
    _r(
        "en.fact.born",
        "en",
        "fact",
        rf"i was born in\s+{_WHERE}",
        "User was born in {v}",
        slot="birthplace",
    ),
    _r(
        "en.fact.work_at",
        "en",
        "fact",
        r"i\s+(?:now\s+|currently\s+)?work\s+(?P<p>at|for)\s+(?P<v>(?-i:[A-Z0-9])[^,;.!?]*"
        # a company typed in lower case ("i work at google"): one word, then the clause ends
        r"|(?!(?:home|the|a|an|night|it|this|that|work|my|our|least|all|first|last|times|"
        r"weekends|school|uni|university|college|office|hospital|myself|free|fun|you|them|"
        r"him|her|people|clients|money|a living)\b)[a-z0-9][\w&.-]*(?=\s*(?:[,;.!?]|$)|\s+(?:as|"
        r"and|but|so|now|since|for|in|btw|lol)\b))",
        "User works {p} {v}",
        slot="employer",
    ),
    _r(
        "en.fact.work_at_unnamed",
        "en",
        "fact",
        r"i\s+(?:now\s+|currently\s+)?work\s+(?P<p>at|for|in)\s+(?P<v>(?:a|"
        r"an)\s+(?:[\w-]+\s+){0,3}?"
        r"(?:startup|company|firm|agency|bank|hospital|clinic|school|university|lab|studio|"
        r"consultancy|nonprofit|ngo|charity|restaurant|shop|store|factory|newspaper|"
        r"publisher|retailer|manufacturer|insurer)\b(?:\s+in\s+(?-i:[A-Z])[\w-]+)?)",
        "User works {p} {v}",
        slot=None,
    ),
    _r(
        "en.fact.joining",
        "en",
        "fact",
        rf"{_I_AM}\s+(?:now\s+|officially\s+)?(?:joining|starting (?:a new job )?at|"
        r"moving to work at)\s+(?P<v>(?-i:[A-Z0-9])[^,;.!?]*?)(?=\s+(?:in|on|next|this|from|as|"
        r"after|soon)\b|\s*[,;.!?]|\s*$)",
        "User is joining {v}",
        slot="employer",
        change=True,
    ),
    _r(
        "en.fact.study",
        "en",
        "fact",
        rf"(?:i|{_I_AM})\s+(?:currently\s+)?(?:study|studying|doing (?:a|an) (?:degree|masters?|"
        r"master's|phd|bachelor's|ma|msc|ba|bsc|mba|mres|llm|pgce) in|majoring in)\s+"
        r"(?!for\b|with\b|hard\b|the\b|this\b|it\b)"
        r"(?P<v>[^,;.!?]+?)(?:\s+(?P<p>at|in)\s+(?P<w>(?-i:[A-Z])[^,;.!?]*))?\s*(?:[,;.!]|$)",
        "User studies {v} {p} {w}",
        slot=None,
    ),
    _r(
        "en.fact.joined",
        "en",
        "fact",
        rf"(?:{_I_HAVE}|i)?\s*(?:just\s+|recently\s+)?(?:joined|started (?:a new job )?at)\s+"
        r"(?:an?\s+[\w-]+\s+(?:called|named)\s+)?"
        r"(?P<v>(?-i:[A-Z0-9])[^,;.!?]*?)(?=\s+(?:as|in|on|this|last|a|two|three|\d+)\b|\s*[,;.!?]|$)",
        "User works at {v}",
        slot="employer",
        change=True,
    ),
    _r(
        "en.fact.diet",
        "en",
        "fact",
        rf"(?:{_I_AM}|{_I_HAVE} been)\s+(?:a\s+)?(?:strict\s+)?(?P<v>vegetarian|vegan|"
        r"pescatarian|celiac|coeliac|epileptic|asthmatic|anemic|anaemic|pregnant|gluten[- ]free|"
        r"dairy[- ]free|lactose[- ]free|teetotal|sober|"
        r"lactose[- ]intolerant|gluten[- ]intolerant|diabetic|colou?r ?blind|left-handed|"
        r"right-handed|deaf|blind|dyslexic|autistic|an? (?:early bird|night owl))\b",
        "User is {v}",
        slot=None,
    ),
    _r(
        "en.fact.allergic",
        "en",
        "fact",
        rf"{_I_AM}\s+(?:very\s+|severely\s+)?allergic\s+to\s+{_PLACE}",
        "User is allergic to {v}",
        slot=None,
    ),
    _r(
        "en.fact.have_condition",
        "en",
        "fact",
        rf"{_I_HAVE}\s+(?P<v>(?:type [12] )?diabetes|asthma|adhd|celiac disease|migraines|"
        r"a (?:peanut|nut|gluten|shellfish) allergy|(?:a|an) [\w\s-]*(?:car|house|apartment|"
        r"flat|bike|motorcycle|garden)|" + _CONDITIONS_EN + r")\b",
        "User has {v}",
        slot=None,
    ),
    _r(
        "en.fact.get_condition",
        "en",
        "fact",
        rf"i\s+(?:always\s+|often\s+|usually\s+)?get\s+(?P<v>{_SPELLS_EN})\b",
        "User gets {v}",
        slot=None,
    ),
    _r(
        # a credential one holds: "I already have a biology degree"
        "en.fact.credential",
        "en",
        "fact",
        r"(?:i(?:'ve|’ve)|i\s+(?:already\s+|also\s+)?have)\s+(?:already\s+|got\s+)?"
        r"(?P<v>(?:a|an)\s+(?:[\w-]+\s+){0,2}(?:degree|diploma|masters?|master's|phd|bachelor's|"
        r"licen[cs]e|certificate|certification)(?:\s+in\s+(?:[\w-]+\s*){1,3}?)?)"
        r"(?=\s+(?:and|from|at|but|so|which)\b|\s*[,;.!?]|$)",
        "User has {v}",
        slot=None,
    ),
    _r(
        "en.fact.have_not",
        "en",
        "fact",
        r"(?:i|we)\s+(?:don't|do not)\s+(?:have|own)\s+(?P<v>(?:a|an|any)\s+(?:car|house|"
        r"apartment|flat|bike|motorcycle|garden|pets?|dog|cat|kids|children|tv|smartphone|"
        r"driving licen[cs]e|driver's license))\b",
        "User doesn't have {v}",
        slot=None,
    ),
    _r(
        "en.fact.dont_eat",
        "en",
        "fact",
        r"i\s+(?:don't|do not|never)\s+eat\s+(?P<v>meat|fish|pork|beef|seafood|dairy|eggs|"
        r"gluten|sugar|animal products)\b",
        "User doesn't eat {v}",
        slot=None,
    ),
    # preference
    _r(
        "en.preference.prefer",
        "en",
        "preference",
        r"i\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+|definitely\s+|"
        r"always\s+|now\s+|still\s+)?(?:prefer|would rather have|'d rather have)\s+" + _PLACE,
        "User prefers {v}",
        slot=_head_en,
    ),
    _r(
        "en.preference.like",
        "en",
        "preference",
        r"i\s+(?:really\s+|absolutely\s+|just\s+|also\s+|totally\s+)?(?:like|love|enjoy|adore)"
        r"\s+(?!you\b|it\b|this\b|that\b|the idea\b|your\b)" + _PLACE,
        "User likes {v}",
        slot=_likes,
    ),
    _r(
        "en.preference.fan",
        "en",
        "preference",
        rf"{_I_AM}\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\s+{_PLACE}",
        "User likes {v}",
        slot=_likes,
    ),
    _r(
        "en.preference.dislike",
        "en",
        "preference",
        r"i\s+(?:really\s+|just\s+|honestly\s+)?(?:hate|dislike|detest|can't stand|cannot stand|"
        r"can't handle|cannot handle|can't bear|can't tolerate|don't like|"
        r"do not like|don't enjoy|do not enjoy|don't care for)\s+" + _PLACE,
        "User dislikes {v}",
        slot=_likes,
        polarity=False,
    ),
    _r(
        "en.preference.not_fan",
        "en",
        "preference",
        rf"{_I_AM}\s+not\s+(?:a\s+)?(?:big\s+)?fan\s+of\s+{_PLACE}",
        "User dislikes {v}",
        slot=_likes,
        polarity=False,
    ),
    _r(
        "en.preference.favorite",
        "en",
        "preference",
        r"my\s+(?:all-time\s+)?favou?rite\s+(?P<what>[\w\s-]{2,30}?)\s+(?:is|are)\s+" + _PLACE,
        "User's favorite {what} is {v}",
        slot=lambda g: "favorite:" + _key(g["what"]),
    ),
    # skill
    _r(
        "en.skill.speak",
        "en",
        "skill",
        rf"i\s+(?:also\s+)?(?:speak|can speak|am fluent in|'m fluent in)\s+"
        r"(?P<q>(?:fluent|a (?:little )?bit of|a little|some|basic|decent|good|conversational|"
        r"native)\s+)?"
        rf"(?P<v>(?:{_LANG_LIST_EN})\b|(?-i:[A-Z][a-z]+)(?:(?:,\s*|\s+and\s+|,\s*and\s+)"
        r"(?-i:[A-Z][a-z]+))*(?=\s*(?:[,;.!]|$)|\s+(?:and|at|with|but|too|as|fluently|natively|"
        r"btw)\b))",
        "User speaks {q} {v}",
        slot=None,
        raw=("v",),
    ),
    _r(
        "en.skill.level",
        "en",
        "skill",
        rf"my\s+(?P<l>{_LANGS_EN})\s+is\s+(?:(?:pretty|quite|very|a bit|really|still|only|kinda|"
        r"super)\s+)?(?P<v>basic|rusty|ok|okay|decent|good|bad|poor|fluent|native|intermediate|"
        # "my Portuguese is zero" says there is no skill
        r"advanced|beginner|limited|terrible|weak|solid|conversational|broken)\b",
        "User's {l} is {v}",
        slot=None,
        lower=("l",),
    ),
    _r(
        "en.skill.mother_tongue",
        "en",
        "skill",
        rf"my\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+(?P<v>{_LANGS_EN}|"
        r"(?-i:[A-Z])[a-z]+)\b|(?P<w>{_LANGS_EN}|(?-i:[A-Z])[a-z]+)\s+is\s+my\s+(?P<n>native|first|"
        r"second|third|mother)\s+(?:language|tongue)",
        lambda m, c: Hit(
            f"User's {m.group('n') or 'native'} language is {m.group('v') or m.group('w')}",
            None,
            fold(m.group("v") or m.group("w")),
        ),
    ),
    _r(
        "en.skill.native",
        "en",
        "skill",
        rf"{_I_AM}\s+(?:a\s+)?(?:native|fluent)\s+(?P<v>{_LANGS_EN})\s+speaker",
        "User is a native {v} speaker",
        slot=None,
    ),
    _r(
        "en.skill.good_at",
        "en",
        "skill",
        rf"{_I_AM}\s+(?:very\s+|really\s+|quite\s+|pretty\s+|fairly\s+|more\s+|most\s+)?"
        r"(?P<a>good|great|skilled|proficient|fluent|experienced|an expert|expert|comfortable|"
        r"advanced)\s+(?:(?:speaking|writing|working|coding)\s+)?(?:at|in|with)\s+" + _PLACE,
        "User is {a} in {v}",
        slot=None,
    ),
    _r(
        # "I'm more of a backend person": the side of a craft one works on
        "en.skill.more_of",
        "en",
        "skill",
        rf"{_I_AM}\s+(?:more of|mostly|mainly|more)\s+(?:a|an)\s+"
        r"(?P<v>[\w+#.-]+(?:\s+[\w+#.-]+)?)\s+"
        r"(?:person|guy|girl|dev|developer|type|engineer)\b",
        "User is more of a {v} person",
        slot=None,
    ),
    _r(
        # "I mostly do android dev in kotlin"
        "en.skill.do_dev_in",
        "en",
        "skill",
        r"i\s+(?:mostly\s+|mainly\s+|usually\s+|only\s+)?do\s+(?P<v>(?:[\w-]+\s+)?(?:dev|"
        r"development|programming|coding)\s+(?:in|with)\s+[\w+#.-]+)",
        "User does {v}",
        slot=None,
    ),
    _r(
        "en.skill.years",
        "en",
        "skill",
        rf"{_I_HAVE}\s+(?:over\s+|more than\s+|about\s+|almost\s+)?(?P<n>\d+|a few|several|"
        r"many|two|three|four|five|ten|fifteen|twenty)\+?\s+years?\s+of\s+(?:experience\s+"
        r"(?:in|with|as)\s+"
        + _PLACE
        # "I have 3 years of Python": years of one thing, named in one or two words
        + r"|(?P<w>(?!age\b)[\w+#.-]+(?:\s+[\w+#.-]+)?)(?=\s*(?:[,;.!]|$)))",
        lambda m, c: _years(m, "en"),
        slot=None,
    ),
    _r(
        "en.skill.been_practicing",
        "en",
        "skill",
        rf"{_I_HAVE}\s+been\s+(?P<a>doing|practi[cs]ing|playing|studying)\s+"
        r"(?P<v>[^,;.!?]+?)\s+for\s+(?P<n>(?:over\s+|about\s+)?[\w\s]+?years?)",
        "User has been {a} {v} for {n}",
        slot=None,
    ),
    _r(
        "en.skill.been_doing",
        "en",
        "skill",
        rf"(?:{_I_HAVE}\s+)?been\s+(?P<a>coding|programming|writing|working|playing|developing)\s+"
        r"(?:in|with)?\s*(?P<v>[^,;.!?]+?)\s+for\s+(?P<n>(?:over\s+|about\s+)?[\w\s]+?years?)",
        "User has been {a} in {v} for {n}",
        slot=None,
    ),
    _r(
        "en.skill.been_using",
        "en",
        "skill",
        rf"{_I_HAVE}\s+been\s+(?P<a>using|teaching|speaking|doing)\s+"
        r"(?P<v>[^,;.!?]+?)\s+(?P<p>for|since)\s+(?P<n>[^,;.!?]+)",
        "User has been {a} {v} {p} {n}",
        slot=None,
    ),
    _r(
        "en.skill.played_since",
        "en",
        "skill",
        rf"{_I_HAVE}\s+(?P<a>played|practi[cs]ed|studied|spoken|done|used|sung|danced|"
        r"painted|coded in|programmed in)\s+(?P<v>[^,;.!?]+?)\s+(?P<p>for|since)\s+"
        r"(?P<n>[^,;.!?]+)",
        "User has {a} {v} {p} {n}",
        slot=None,
    ),
    _r(
        "en.skill.know_tool",
        "en",
        "skill",
        r"i\s+(?:already\s+)?know\s+(?:(?P<q>a (?:little )?bit of|a little|some|basic)\s+)?"
        r"(?P<v>(?-i:[A-Z][\w+#.-]*)(?:\s+(?-i:[A-Z0-9][\w+#.-]*))*)"
        r"(?:\s+(?P<w>(?:really |pretty |very |quite )?well|already|inside out))?"
        r"(?=\s*(?:[,;.!]|$)|\s+(?:but|and|from|since|already)\b)",
        "User knows {q} {v} {w}",
        slot=None,
    ),
    _r(
        "en.skill.know_how",
        "en",
        "skill",
        r"i\s+(?:already\s+)?know how to\s+" + _PLACE,
        "User knows how to {v}",
        slot=None,
    ),
    _r(
        "en.skill.can",
        "en",
        "skill",
        r"i\s+can\s+(?P<a>code|program|play|cook|drive|swim|sing|draw|paint|dance|knit|sew|"
        r"read music|ski|surf)\b\s*(?P<v>[^,;.!?]*)",
        "User can {a} {v}",
        value="a",
        slot=None,
    ),
    _r(
        "en.fact.habit",
        "en",
        "fact",
        r"i\s+(?P<a>run|jog|swim|cycle|bike|walk|cook|read|travel)\s+(?P<v>a lot|every day|daily|"
        r"regularly|often|most days|every (?:morning|evening|weekend)|(?:\w+|\d+) times a week)",
        "User {a}s {v}",
        slot=None,
        raw=("a",),
    ),
    _r(
        "en.fact.frequency",
        "en",
        "fact",
        r"i\s+(?P<a>(?!(?:want|need|have to|must|should|will|would|can|could|'ll|'d|ask|use|"
        r"check|see|get|try)\b)[a-z]+)\s+(?P<v>(?:(?!it\b|this\b|that\b|them\b)[^,;.!?])*?\s*"
        r"(?:every (?:day|morning|evening|night|week|weekend|other day)|daily|weekly|on weekends|"
        r"on (?-i:[A-Z])[a-z]+days|(?:\w+|\d+) times a (?:week|month|day)|(?:about |around )?"
        r"\d+\s*(?:km|k|miles|hours|kilometres|kilometers) (?:a|per|each) (?:week|day|month)))",
        lambda m, c: _frequency(m),
    ),
    _r(
        "en.fact.routine",
        "en",
        "fact",
        r"i\s+(?:usually|normally|typically|always)\s+(?P<a>go|wake up|get up|eat|have|start "
        r"work|finish work|work out|sleep)\s+(?P<v>[^,;!?]+)",
        _routine,
    ),
    _r(
        "en.skill.play",
        "en",
        "skill",
        r"i\s+(?:can\s+)?play\s+(?P<q>(?:a (?:little )?bit of|some)\s+)?"
        r"(?!(?:it|this|that|them|with|along|around|games?|a lot|the game|video games)\b)"
        r"(?P<v>(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)(?=\s*(?:[,;.!]|$)|\s+(?:and|but|since|for|in|"
        r"at|with|pretty|quite|very|really|well|badly|too)\b)",
        "User plays {q} {v}",
        slot=None,
    ),
    _r(
        "en.skill.beginner",
        "en",
        "skill",
        rf"{_I_AM}\s+(?:a\s+)?(?:complete\s+|total\s+|absolute\s+)?(?P<a>beginner|novice|newbie|"
        r"intermediate)\s+(?:at|in|with)\s+" + _PLACE,
        "User is a {a} in {v}",
        slot=None,
    ),
    _r(
        "en.goal.learning_for",
        "en",
        "goal",
        rf"{_I_HAVE}\s+been\s+(?:learning|studying)\s+(?P<v>[^,;.!?]+?)\s+(?:for|since)\s+"
        r"[^,;.!?]+",
        "User is learning {v}",
        slot=None,
    ),
    _r(
        "en.fact.grew_up",
        "en",
        "fact",
        r"i\s+grew\s+up\s+(?P<p>in|on|near)\s+" + _WHERE,
        "User grew up {p} {v}",
        slot=None,
    ),
    _r(
        "en.fact.studied",
        "en",
        "fact",
        rf"(?:i\s+(?P<a>studied|majored in|graduated in|graduated from|trained at|trained as|"
        rf"went to)|{_I_HAVE}\s+(?P<b>a "
        r"(?:degree|masters?|master's|phd|bachelor's|diploma) in))\s+"
        r"(?!(?:it|this|that|them|these|those|one|a lot|with)\b)" + _WHERE,
        lambda m, c: _studied_en(m),
    ),
    _r(
        "en.fact.work_in",
        "en",
        "fact",
        r"i\s+(?:now\s+|currently\s+)?work\s+in\s+(?!(?:a|an|the|this|that|it|my)\b)"
        r"(?P<v>[^,;.!?]+?)(?=\s+(?:and|but|so|since|for|now|at)\b|\s*[,;.!?]|\s*$)",
        "User works in {v}",
        slot=None,
    ),
    _r(
        "en.relationship.status",
        "en",
        "relationship",
        rf"{_I_AM}\s+(?P<v>married|divorced|single|engaged|widowed|separated)"
        r"(?:\s+with\s+(?P<w>(?:a|an|one|two|three|four|five|\d+)\s+(?:kids?|children|sons?|"
        r"daughters?)))?(?=\s*(?:[,;.!]|$)|\s+(?:and|but|so|now)\b)",
        lambda m, c: Hit(
            " ".join(f"User is {m.group('v')} with {m.group('w') or ''}".split()).removesuffix(
                " with"
            ),
            "marital",
            fold(m.group("v")),
        ),
    ),
    # goal
    _r(
        "en.goal.career",
        "en",
        "goal",
        rf"{_I_AM}\s+(?:currently\s+|now\s+)?(?:switching|changing|moving)\s+careers?\s+"
        r"(?:from\s+(?P<old>[^,;.!?]+?)\s+)?(?:to|into)\s+" + _PLACE,
        "User is changing careers to {v}",
        slot=None,
        change=True,
    ),
    _r(
        "en.goal.training",
        "en",
        "goal",
        rf"{_I_AM}\s+(?:currently\s+|now\s+)?(?P<a>training|preparing|applying|studying|revising)"
        rf"\s+for\s+(?!(?:it|this|that|the (?:meeting|call|interview|exam|test) "
        rf"(?:today|tomorrow))\b){_PLACE}",
        "User is {a} for {v}",
        lower=("a",),
        slot=None,
    ),
    _r(
        "en.goal.goal_is",
        "en",
        "goal",
        r"my\s+(?:main\s+|big\s+|biggest\s+|long-term\s+|current\s+)?(?:goal|dream|aim|"
        r"objective|plan|resolution)(?:\s+for\s+[\w\s]+?|\s+(?:this|next)\s+\w+)?\s+is\s+to\s+"
        + _PLACE,
        "User's goal is to {v}",
        slot=None,
    ),
    _r(
        "en.goal.trying",
        "en",
        "goal",
        rf"{_I_AM}\s+(?:currently\s+|really\s+)?(?P<a>trying|planning|hoping|aiming|saving up|"
        r"saving|working hard)\s+(?:to|for)\s+(?!.*\b(?:understand|figure out|fix|get this|"
        r"make this|debug|solve)\b)(?!get\b.*\bto (?:work|run|compile|build|load|match|"
        r"render|pass|show)\b)" + _PLACE,
        "User is {a} to {v}",
        slot=None,
    ),
    _r(
        "en.goal.started_learning",
        "en",
        "goal",
        rf"(?:{_I_HAVE}|i)\s+(?:just\s+|recently\s+)?(?:started|begun|began)\s+(?:learning|"
        r"to learn|studying|taking (?:lessons in|\w+ lessons))\s+" + _PLACE,
        "User is learning {v}",
        slot=None,
    ),
    _r(
        "en.goal.trip",
        "en",
        "goal",
        rf"{_I_AM}\s+(?:going|travelling|traveling|flying|heading)\s+to\s+"
        r"(?P<v>(?-i:[A-Z])[^,;.!?]*?)(?:\s+for real)?(?:\s+(?P<w>(?:in|on|next|this)\s+"
        r"(?-i:[A-Z])?\w+))?(?=\s*(?:[,;.!?]|$)|\s+(?:for|with|and|to)\b)",
        "User is going to {v} {w}",
        slot=None,
    ),
    _r(
        "en.goal.learning",
        "en",
        "goal",
        rf"{_I_AM}\s+(?:currently\s+|slowly\s+|still\s+)?learning\s+{_PLACE}",
        "User is learning {v}",
        slot=None,
    ),
    _r(
        "en.goal.thinking",
        "en",
        "goal",
        rf"(?:{_I_AM}|{_I_HAVE} been)\s+(?:seriously\s+|really\s+|also\s+)?thinking\s+(?:about|"
        r"of)\s+"
        r"(?P<v>(?!(?:it|this|that|you|your)\b)\w+ing\b[^,;.!?]*)",
        "User is thinking about {v}",
        slot=None,
    ),
    _r(
        "en.goal.want",
        "en",
        "goal",
        r"i(?:\s+(?:really\s+)?(?:want|hope|plan|intend|aim|would love|would like)|(?:'d|’d)\s+"
        rf"(?:really\s+)?(?:love|like))\s+to\s+(?!(?:{_REQUEST_VERBS_EN})\b)(?:be able to\s+)?"
        + _PLACE,
        "User wants to {v}",
        slot=None,
    ),
    # project
    _r(
        "en.project.working_on",
        "en",
        "project",
        rf"(?:{_I_AM}|we(?:'re| are))\s+(?:currently\s+|now\s+)?(?P<a>working on|building|"
        r"developing|writing|creating|designing|launching|making)\s+"
        r"(?!(?:an?|the|this|that|my)\s+(?:email|message|letter|reply|response|comment|"
        r"question|post|cover letter|quick)\b)" + _PLACE,
        "User is {a} {v}",
        slot=None,
    ),
    _r(
        # the thing first, then that one makes it: "a habit tracker i've been building on
        # weekends", "my side project, a board game I'm designing"
        "en.project.made_thing",
        "en",
        "project",
        r".*?\b(?P<v>(?:a|an|my|our)\s+(?:[\w'-]+\s+){0,5}?[\w'-]+)\s+(?:that\s+|which\s+)?"
        r"(?:i|we)(?:'ve| have|'m| am|'re| are)?\s+(?:been\s+)?(?P<a>building|making|writing|"
        r"developing|designing|coding)\b(?!\s+(?:it|this|that|for you|now|today|right now)\b)",
        lambda m, c: _made_thing(m, "en"),
    ),
    _r(
        "en.project.my_project",
        "en",
        "project",
        r"(?:my|our)\s+(?:current\s+|side\s+|main\s+|new\s+|personal\s+|pet\s+|open[- ]source\s+)*"
        r"(?:project|startup|company|app|book|thesis|podcast|business|side hustle)\s+"
        r"(?:is|is called|is named)\s+" + _PLACE,
        "User's project is {v}",
        slot=None,
    ),
    _r(
        "en.project.maintain",
        "en",
        "project",
        r"(?:i\s+(?:maintain|run(?!\s+(?:a lot|every|daily|regularly|often|most|\w+ times|"
        r"about|around|\d)\b)|"
        # "I started 50mg on monday", "I started yesterday": a dose or a time, not a venture
        rf"own|founded|co-founded|started(?!\s+(?:\d|(?:on|in|at|yesterday|today|last|this|"
        rf"taking|to|with)\b)))|{_I_AM}\s+the\s+(?:founder|"
        r"maintainer|author|creator|lead developer|owner)\s+of)\s+(?:(?:a|an|my own|the)\s+)?"
        + _PLACE,
        "User runs {v}",
        slot=None,
    ),
    # environment
    _r(
        "en.fact.aid",
        "en",
        "fact",
        r"i\s+(?:use|need|wear|have)\s+(?P<v>(?:a|an)\s+(?:wheelchair|cane|walking stick|walker|"
        r"hearing aids?|insulin pump|cpap(?: machine)?|prosthetic \w+|guide dog|mobility scooter|"
        r"crutches)|hearing aids|crutches)\b(?P<w>[^,;.!?]*)",
        "User uses {v} {w}",
        slot=None,
    ),
    _r(
        "en.environment.switch",
        "en",
        "environment",
        r"i(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:switched|migrated|moved over)\s+"
        r"from\s+(?P<old>[^,;.!?]+?)\s+to\s+(?P<v>[^,;.!?]+?)"
        r"(?:\s+(?:last|this|a few|two|three)\s+\w+(?:\s+ago)?|\s+recently)?\s*(?:[,;.!]|$)",
        "User uses {v}",
        slot=_tool_slot,
        change=True,
    ),
    _r(
        "en.environment.use",
        "en",
        "environment",
        r"(?:i|we)\s+(?:mainly\s+|mostly\s+|only\s+|primarily\s+|usually\s+|now\s+)?use\s+"
        rf"(?!(?:it|this|that|them|these|those|your|a lot|the same|{_LANGS_EN})\b)" + _PLACE,
        lambda m, c: _uses(m, c, "en"),
    ),
    _r(
        "en.environment.on",
        "en",
        "environment",
        rf"{_I_AM}\s+(?:on|running|using)\s+(?P<v>(?:a\s+)?(?:mac(?:book)?|macos|windows|linux|"
        r"ubuntu|debian|fedora|arch|nixos|iphone|android|ipad|chromebook|m[1-4]|wsl|"
        r"thinkpad|raspberry pi)[^,;.!?]*)",
        "User is on {v}",
        slot=None,
    ),
    # The tools one works with, said in passing: "I'm on excel for mac", "running fedora 40 on
    # my desktop", "I'm running it on windows 11", "I have postgres installed", "I write
    # mostly typescript at work".
    _r(
        "en.environment.tool",
        "en",
        "environment",
        r"(?:i(?:'m| am)\s+|i\s+|we(?:'re| are)?\s+)?(?:(?:mostly|mainly|usually|now|"
        r"currently)\s+)?"
        r"(?:on|running|using|use|write|run|have)\s+(?:(?:it|this|that|everything|"
        r"mostly|mainly)\s+)?(?:on\s+)?(?:an?\s+)?"
        r"(?P<v>(?:mac(?:book)?(?: air| pro)?|macos|windows(?: \d+)?|linux|ubuntu|debian|fedora|"
        r"arch|nixos|iphone|android|ipad|chromebook|m[1-4]|wsl|thinkpad|raspberry pi|excel|"
        r"google sheets|sheets|notion|obsidian|vs ?code|neovim|vim|emacs|postgres(?:ql)?|mysql|"
        r"sqlite|snowflake|bigquery|docker|kubernetes|python(?: \d[\d.]*)?|node(?: \d+)?|java|"
        r"typescript|javascript|rust|go|react|django|flask|rails|figma|photoshop|lightroom|"
        r"premiere|davinci resolve|blender|unity|unreal|godot|home assistant|aws|azure|gcp|jira|"
        r"salesforce|sap|power bi|tableau)\b(?:\s+\d[\w.]*)?)"
        r"(?=\s*(?:[,;.!?]|$)|\s+(?:for|on|at|btw|now|installed|locally|too|as|with|and|"
        r"which|so|but|via|at)\b)",
        "User uses {v}",
        slot=_tool_slot,
    ),
    _r(
        "en.fact.in_place",
        "en",
        "fact",
        rf"{_I_AM}\s+(?:now\s+|currently\s+|"
        r"based\s+)?in\s+(?P<v>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])"
        r"[\w'-]+)?)(?=\s*(?:[,;.!]|$)|\s+(?:now|these days|at the moment|so|and|but|too)\b)",
        "User is in {v}",
        slot="residence",
    ),
    _r(
        "en.environment.my_device",
        "en",
        "environment",
        r"my\s+(?P<what>laptop|computer|machine|pc|desktop|phone|os|operating system|editor|"
        r"ide|setup|stack|tech stack|server|home server|car|keyboard|monitor|home office|"
        r"shell|terminal|browser)\s+is\s+(?:a\s+|an\s+)?" + _PLACE,
        "User's {what} is {v}",
        slot=None,
    ),
    _r(
        "en.environment.remote",
        "en",
        "environment",
        r"i\s+(?:mostly\s+|usually\s+|mainly\s+)?work\s+(?P<v>remotely|from home|remote|"
        r"in an office|from a coworking space|at night|night shifts)",
        "User works {v}",
        slot=None,
    ),
    # context
    _r(
        "en.context.state",
        "en",
        "context",
        rf"{_I_AM}\s+(?:currently\s+|now\s+|still\s+)?(?P<v>(?:on vacation|on holiday|on leave|"
        r"on (?:parental|maternity|paternity|sick) leave|traveling|travelling|between jobs|"
        r"unemployed|job hunting|looking for (?:a\s+)?(?:new\s+)?job|pregnant|expecting a baby|"
        r"recovering from [^,;.!?]+|studying for [^,;.!?]+|in (?-i:[A-Z])[^,;.!?]* (?:this|"
        r"next) (?:week|month)|moving (?:house|next [\w]+)|retired|in my (?:first|second|"
        r"third|final|last) year [^,;.!?]+)"
        r"(?:\s+(?:until|till|for|since|after|through|this|next|in|at)\b[^,;.!?]*)?)",
        "User is {v}",
        slot=None,
    ),
    _r(
        "en.context.this_period",
        "en",
        "context",
        r"(?P<p>this|next) (?P<w>week|month|weekend|semester|year|summer),?\s+i(?:'m|’m| am|"
        r"'ll be| will be)\s+" + _PLACE,
        "User is {v} {p} {w}",
        slot=None,
    ),
    _r(
        "en.context.just",
        "en",
        "context",
        rf"(?:{_I_HAVE}|i)\s+just\s+(?P<a>started|finished|got|had|lost|graduated|"
        r"become|quit|left|had)\s+" + _PLACE,
        "User just {a} {v}",
        slot=None,
    ),
    # ---- Portuguese ----------------------------------------------------------------------
    _r(
        "pt.instruction.address",
        "pt",
        "instruction",
        r"(?:por favor,?\s+)?(?:trata-me|trate-me|me trata|me trate|fala comigo|fale comigo)\s+"
        r"(?P<v>(?:por|de|como|em)\s+[^,;.!?]+)",
        "O usuário quer que o assistente o trate {v}",
        slot="address",
    ),
    _r(
        "pt.instruction.stop",
        "pt",
        "instruction",
        r"(?:(?:você\s+)?(?:pode|podes|poderia)\s+)?(?:por favor,?\s+)?(?:para|pare|parar) de\s+"
        r"(?P<v>[^?!]+)",
        "O usuário quer que o assistente pare de {v}",
        slot=None,
    ),
    _r(
        "pt.instruction.call_me",
        "pt",
        "instruction",
        rf"(?:por favor,?\s+)?(?:pode\s+)?(?:me chame|me chama|me chamar|chame-me)\s+de\s+"
        rf"(?P<v>{_NAME})",
        "O usuário quer ser chamado de {v}",
        slot="address",
    ),
    _r(
        "pt.instruction.always",
        "pt",
        "instruction",
        r"(?:por favor,?\s+)?(?:a partir de agora,?\s+|daqui (?:pra|para) frente,?\s+)?sempre\s+"
        + _REST,
        "O usuário quer que o assistente sempre {v}",
        slot=None,
    ),
    _r(
        "pt.instruction.verb_always",
        "pt",
        "instruction",
        r"(?:por favor,?\s+)?(?P<a>(?:me\s+)?(?:responda|responde|escreva|escreve|fale|fala|use|"
        r"usa|explique|explica|traga|traz|mostre|mostra|coloque|coloca|dá|dê|de)(?:-me)?)\s+"
        r"(?P<v>sempre\b[^;!?]*)",
        lambda m, c: (
            Hit(t, None, _key(t))
            if (v := _clean_whole(m.group("v"), "pt"))
            and (t := f"O usuário quer que o assistente {_formal_pt(m.group('a'))} {v}")
            else None
        ),
    ),
    _r(
        "pt.instruction.never",
        "pt",
        "instruction",
        # "nunca use…" asks; "nunca entendi…" (a first-person past) tells.
        r"(?:por favor,?\s+)?nunca\s+(?!\w+(?:ei|i|ou)\b|(?:fiz|tive|fui|estive|pude|quis|soube|"
        r"vi|li|dei|disse|trouxe|pus|vim|gostei|senti|tirei)\b)" + _REST,
        "O usuário quer que o assistente nunca {v}",
        slot=None,
    ),
    _r(
        "pt.instruction.from_now_on",
        "pt",
        "instruction",
        r"(?:a partir de agora|daqui (?:pra|para) frente|de agora em diante|por padrão|"
        r"em todas as (?:suas\s+)?respostas),?\s+(?:por favor,?\s+)?" + _REST,
        "O usuário quer que o assistente {v}",
        slot=None,
    ),
    _r(
        "pt.instruction.from_now_on_after",
        "pt",
        "instruction",
        r"(?:(?:por favor|só|e)\s+)*(?P<v>(?:escreva|escreve|use|usa|responda|responde|fale|fala|"
        r"mantenha|mantém|dê|dá|coloque|coloca|evite|evita|explique|explica|mostre|mostra)\b"
        r"[^;!?]*?)\s*,?\s+(?:a partir de agora|daqui (?:pra|para) frente|de agora em diante|"
        r"sempre)\s*[.!]?\s*$",
        lambda m, c: (
            Hit(t, None, _key(t))
            if (v := _clean_whole(m.group("v"), "pt"))
            and (
                t := f"O usuário quer que o assistente {_formal_pt(v.split()[0])} "
                f"{' '.join(v.split()[1:])}".strip()
            )
            else None
        ),
    ),
    _r(
        "pt.instruction.dont",
        "pt",
        "instruction",
        r"(?:por favor,?\s+)?não\s+(?P<v>(?:use|usa|coloque|inclua|escreva|me chame|peça|"
        r"repita|comece|termine|assine|recomende|sugira|assuma|explique o básico|adicione|"
        r"me dê|me de)\b[^;!?]*)",
        "O usuário quer que o assistente não {v}",
        slot=None,
    ),
    _r(
        "pt.instruction.want_you",
        "pt",
        "instruction",
        r"(?:eu\s+)?(?:quero|prefiro|gostaria) que (?:você|voce|vc)\s+(?:sempre\s+)?"
        r"(?P<v>(?:responda|escreva|fale|use|seja|explique|mantenha|me trate)\b[^;!?]*)",
        "O usuário quer que o assistente {v}",
        slot=None,
    ),
    # identity
    _r(
        "pt.identity.name",
        "pt",
        "identity",
        rf"(?:o\s+)?meu nome é\s+(?P<v>{_NAME})",
        "O nome do usuário é {v}",
        slot="name",
    ),
    _r(
        "pt.identity.called",
        "pt",
        "identity",
        rf"{_EU}(?:me chamo|chamo-me)\s+(?P<v>{_NAME})",
        "O nome do usuário é {v}",
        slot="name",
    ),
    _r(
        "pt.identity.age",
        "pt",
        "identity",
        rf"{_EU}tenho\s+(?P<v>\d{{1,3}})\s+anos(?:\s+de idade)?"
        r"(?:\s*(?:[,;.!]|$)|\s+(?:e|mas|então|agora|já)\b)",
        "O usuário tem {v} anos",
        slot="age",
    ),
    _r(
        "pt.identity.occupation",
        "pt",
        "identity",
        rf"{_EU}(?:sou|trabalho como|trabalho de|atuo como)\s+(?:um\s+|uma\s+)?"
        rf"(?P<role>(?:(?-i:[A-Z]{{2,4}})\s+)?(?:{_JOBS_PT})(?:\s+de\s+[\wçãõéíóúâêôà-]+|"
        r"\s+(?:sênior|senior|"
        r"júnior|junior|pleno|backend|front-?end|full[- ]?stack|freelancer?|autônom[oa]|"
        r"de software|de dados|de produto|de ux)|\s+(?!(?:na|no|em|da|do|pela|pelo|numa|num|"
        r"há|ha|desde|faz|e|mas|então|aliás|também|kkk|para|pra)\b)[a-zà-ÿ]+(?:ic[oa]|al|"
        r"eir[oa]|ista|ior|ênior|or|ar))*)"
        r"(?:\s+(?P<prep>na|no|em|da|do|pela|pelo|numa|num|em uma|em um)\s+(?P<org>[^,;.!?]+?))?"
        r"(?:\s*(?:[,;.!]|$)|\s+(?=(?:há|ha|desde|faz|e|mas|então|aliás|também|kkk|enquanto|"
        r"que|trabalhando|morando|com|inclusive|aqui|atualmente)\b))",
        _occupation("pt"),
    ),
    _r(
        "pt.identity.nationality",
        "pt",
        "identity",
        rf"{_EU}sou\s+(?P<v>{_NATIONALITIES_PT})\s*(?:[,;.!]|$)",
        "O usuário é {v}",
        slot="origin",
    ),
    _r(
        "pt.identity.from",
        "pt",
        "identity",
        rf"{_EU}sou\s+(?P<p>de|do|da|dos|das)\s+{_WHERE}",
        "O usuário é {p} {v}",
        slot="origin",
    ),
    # relationship
    _r(
        "pt.relationship.named_f",
        "pt",
        "relationship",
        rf"{_EU}tenho\s+uma\s+(?P<rel>{_REL_PT_F})\s+(?:chamada|que se chama)\s+"
        rf"(?P<name>{_NAME})",
        _relationship("pt", "f"),
    ),
    _r(
        "pt.relationship.named_m",
        "pt",
        "relationship",
        rf"{_EU}tenho\s+um\s+(?P<rel>{_REL_PT_M})\s+(?:chamado|que se chama)\s+"
        rf"(?P<name>{_NAME})",
        _relationship("pt", "m"),
    ),
    _r(
        "pt.relationship.minha",
        "pt",
        "relationship",
        rf"(?:a\s+)?minha\s+(?P<rel>{_REL_PT_F})(?:\s+se chama|\s+é a|,)?\s+(?P<name>{_NAME})\b",
        _relationship("pt", "f"),
    ),
    _r(
        "pt.relationship.meu",
        "pt",
        "relationship",
        rf"(?:o\s+)?meu\s+(?P<rel>{_REL_PT_M})(?:\s+se chama|\s+é o|,)?\s+(?P<name>{_NAME})\b",
        _relationship("pt", "m"),
    ),
    _r(
        "pt.relationship.married",
        "pt",
        "relationship",
        rf"{_EU}sou\s+casad[oa]\s+com\s+(?:a\s+|o\s+)?(?P<v>{_NAME})",
        "O usuário é casado com {v}",
        slot="spouse",
    ),
    _r(
        "pt.relationship.count",
        "pt",
        "relationship",
        rf"{_EU}tenho\s+(?P<n>{_SMALL_NUMBERS_PT})\s+(?P<v>filhos|filhas|filho|filha|irmãos|"
        r"irmãs|irmão|irmã|netos|netas|gatos|gatas|cachorros|cães|gato|cachorro)\b",
        "O usuário tem {n} {v}",
        slot=None,
    ),
    # fact
    _r(
        "pt.fact.no_longer_live",
        "pt",
        "fact",
        rf"{_EU}(?:já não|ja nao|não|nao)\s+(?:moro|vivo)\s+(?:mais\s+)?(?:em|no|na|nos|nas)\s+"
        rf"(?P<v>[^,;.!?]+?)(?:\s+mais)?\s*(?:[,;.!]|$)",
        _residence_pt,
    ),
    _r(
        "pt.fact.left_home",
        "pt",
        "fact",
        rf"{_EU}deixei de (?:morar|viver)\s+(?:em|no|na)\s+{_WHERE}",
        _residence_pt,
    ),
    _r(
        "pt.fact.live",
        "pt",
        "fact",
        rf"(?:{_EU}|agora\s+|hoje\s+|nós\s+|a gente\s+)(?:agora\s+|atualmente\s+|hoje\s+)?"
        r"(?:moro|vivo|resido|estou morando|estou vivendo|moramos|vivemos|mora|"
        r"(?:voltei a|vim|fui|passei a|voltamos a|viemos|fomos) (?:morar|viver))\s+(?:agora\s+)?"
        r"(?P<v>(?:em|no|na|nos|nas)\s+[^,;.!?]+)",
        lambda m, c: _residence_pt_prefixed(m, c),
    ),
    _r(
        "pt.environment.moved_to_tool",
        "pt",
        "environment",
        rf"{_EU}(?:mudei|passei)\s+(?:d[oa]\s+(?P<old>[^,;.!?]+?)\s+)?(?:para|pra)\s+(?:o\s+|a\s+)?"
        rf"(?P<v>(?:{_TOOLS})\b[^,;.!?]*)",
        "O usuário usa {v}",
        slot=_tool_slot,
        change=True,
    ),
    _r(
        "pt.fact.moved",
        "pt",
        "fact",
        rf"{_EU}(?:me mudei|mudei-me|mudei|nos mudamos)\s+(?:de\s+(?P<old>[^,;.!?]+?)\s+)?"
        r"(?:para|pra)\s+(?P<v>[^,;.!?]+)",
        lambda m, c: _moved_pt(m, c),
    ),
    _r(
        "pt.fact.born",
        "pt",
        "fact",
        rf"{_EU}nasci\s+(?P<p>em|no|na)\s+{_WHERE}",
        "O usuário nasceu {p} {v}",
        slot="birthplace",
    ),
    _r(
        "pt.fact.work_at",
        "pt",
        "fact",
        rf"{_EU}(?:agora\s+|atualmente\s+|hoje\s+)?trabalho\s+(?:agora\s+|atualmente\s+|hoje\s+)?"
        r"(?P<p>na|no|em|para a|para o|para)\s+"
        r"(?!casa\b|home\b|remot)(?P<v>(?-i:[A-Z0-9])[^,;.!?]*|(?!(?:área|area|turno|casa|"
        r"escritório|escritorio|empresa|loja|hospital|escola|fábrica|fabrica|banco|clínica|"
        r"clinica|universidade|faculdade|restaurante|cozinha|rua|mesma|mesmo|setor|sector|"
        r"parte|frente|projeto|equipe|equipa|prefeitura|câmara|camara|ti|noite|madrugada|"
        r"fim|final|sábado|sabado|domingo|segunda|terça|quarta|quinta|sexta)\b)"
        r"[\w&.-]+(?=\s*(?:[,;.!?]|$)|\s+(?:como|há|ha|desde|faz|e|mas|com)\b))",
        "O usuário trabalha {p} {v}",
        slot="employer",
    ),
    _r(
        "pt.fact.diet",
        "pt",
        "fact",
        rf"{_EU}sou\s+(?P<v>vegetarian[oa]|vegan[oa]?|celíac[oa]|intolerante (?:à|a) lactose|"
        r"diabétic[oa]|daltônic[oa]|canhot[oa]|destr[oa]|disléxic[oa]|autista|epilétic[oa]|"
        r"asmátic[oa]|anémic[oa]|anêmic[oa]|grávida|intolerante (?:à|a|ao) [\wçãéê]+)\b",
        "O usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.fact.have_condition",
        "pt",
        "fact",
        rf"{_EU}tenho\s+(?P<v>asma|diabetes(?: tipo [12])?|rinite|enxaqueca|TDAH|hipertensão|"
        r"pressão alta|doença celíaca|intolerância (?:à|a) lactose|alergia (?:a|à|ao) [^,;.!?]+|"
        r"(?:um|uma) (?:carro|casa|apartamento|moto|bicicleta|jardim)|" + _CONDITIONS_PT + r")\b",
        "O usuário tem {v}",
        slot=None,
    ),
    _r(
        "pt.fact.had_condition",
        "pt",
        "fact",
        rf"{_EU}tive\s+(?:uma\s+|um\s+)?(?P<v>(?:{_CONDITIONS_PT})(?:\s+(?:no|na)\s+[a-zà-ÿ]+)?)\b",
        "O usuário teve {v}",
        slot=None,
    ),
    _r(
        "pt.fact.quit_habit",
        "pt",
        "fact",
        rf"{_EU}(?:parei|deixei)\s+de\s+(?P<v>(?:fumar|beber|comer carne|comer glúten|comer "
        r"açúcar|tomar café|tomar refrigerante|jogar|correr|apostar))\b",
        "O usuário parou de {v}",
        slot=None,
    ),
    _r(
        "pt.fact.dont_eat",
        "pt",
        "fact",
        rf"{_EU}(?:não|nao|nunca)\s+(?:como|comemos)\s+(?P<v>carne(?: vermelha| de porco| de vaca| "
        r"bovina| suína| suina| branca)?|peixe|porco|"
        r"frutos do mar|laticínios|ovos|glúten|gluten|açúcar|nada de origem animal)\b",
        "O usuário não come {v}",
        slot=None,
    ),
    _r(
        "pt.fact.study",
        "pt",
        "fact",
        rf"{_EU}(?P<verb>estou fazendo|estou a fazer|faço|curso|fiz|tirei|"
        r"estudo)\s+(?P<v>(?:(?:um\s+|o\s+|a\s+)?(?:mestrado|"
        r"doutorado|doutoramento|faculdade|graduação|licenciatura|pós|pós-graduação|curso "
        r"técnico)\s+(?:em|de)\s+)?[^,;.!?]+?)(?:\s+(?P<p>na|no|em)\s+"
        r"(?P<w>(?-i:[A-Z])[^,;.!?]*|[\w-]+))?"
        r"\s*(?:[,;.!]|$)",
        lambda m, c: _study_pt(m),
    ),
    _r(
        "pt.identity.at_org_as",
        "pt",
        "identity",
        rf"{_EU}(?:agora\s+)?(?:estou|comecei|entrei|trabalho)\s+(?:agora\s+)?(?P<prep>na|no)\s+"
        r"(?P<org>[\w&.-]+(?:\s+(?-i:[A-Z0-9])[\w&.-]*)*)(?:\s+[\w-]+)?,?\s+"
        rf"como\s+(?P<role>(?:[\w-]+\s+)?(?:{_JOBS_PT})(?:\s+(?:de|em)\s+[\wçãõéíóúâêôà-]+)?)"
        r"(?=\s*(?:[,;.!]|$)|\s+(?:e|mas|há|desde)\b)",
        _occupation("pt"),
    ),
    _r(
        "pt.fact.allergic",
        "pt",
        "fact",
        rf"{_EU}(?:sou alérgic[oa]|tenho alergia)\s+(?:a|à|ao|de)\s+{_PLACE}",
        "O usuário tem alergia a {v}",
        slot=None,
    ),
    # preference
    _r(
        "pt.preference.prefer",
        "pt",
        "preference",
        rf"{_EU}(?:agora\s+|sempre\s+|geralmente\s+)?prefiro\s+(?:sempre\s+|muito\s+)?(?!que\b)"
        + _PLACE,
        "O usuário prefere {v}",
        slot=_head_pt,
    ),
    _r(
        "pt.preference.like",
        "pt",
        "preference",
        rf"{_EU}(?:realmente\s+|também\s+)?(?:gosto|curto)\s+(?:muito\s+|bastante\s+)?"
        r"(?:de\s+|do\s+|da\s+|dos\s+|das\s+)" + _PLACE,
        "O usuário gosta de {v}",
        slot=_likes,
    ),
    _r(
        "pt.preference.love",
        "pt",
        "preference",
        rf"{_EU}(?:adoro|amo)\s+(?!você|voce|vc\b|isso|isto)" + _PLACE,
        "O usuário adora {v}",
        slot=_likes,
    ),
    _r(
        "pt.preference.dislike",
        "pt",
        "preference",
        rf"{_EU}(?:não gosto|nao gosto)\s+(?:muito\s+)?(?:de\s+|do\s+|da\s+|dos\s+|das\s+)"
        + _PLACE,
        "O usuário não gosta de {v}",
        slot=_likes,
        polarity=False,
    ),
    _r(
        "pt.preference.hate",
        "pt",
        "preference",
        rf"{_EU}(?:odeio|detesto|não suporto|nao suporto)\s+" + _PLACE,
        "O usuário não gosta de {v}",
        slot=_likes,
        polarity=False,
    ),
    _r(
        "pt.preference.favorite_m",
        "pt",
        "preference",
        r"(?:o\s+)?meu\s+(?P<what>[\w\s]{2,25}?)\s+(?:favorito|preferido)\s+é\s+" + _PLACE,
        "O {what} favorito do usuário é {v}",
        slot=lambda g: "favorite:" + _key(g["what"]),
    ),
    _r(
        "pt.preference.favorite_f",
        "pt",
        "preference",
        r"(?:a\s+)?minha\s+(?P<what>[\w\s]{2,25}?)\s+(?:favorita|preferida)\s+é\s+" + _PLACE,
        "A {what} favorita do usuário é {v}",
        slot=lambda g: "favorite:" + _key(g["what"]),
    ),
    # skill
    _r(
        "pt.skill.speak",
        "pt",
        "skill",
        rf"{_EU}(?:também\s+)?falo\s+(?P<q>(?:fluentemente|um pouco de|um pouquinho de|bem|"
        rf"o básico de|razoavelmente)\s+)?(?P<v>{_LANG_LIST_PT})\b",
        "O usuário fala {q} {v}",
        slot=None,
        raw=("v",),
    ),
    _r(
        "pt.skill.good_at",
        "pt",
        "skill",
        rf"{_EU}sou\s+(?:muito\s+|bem\s+|bastante\s+)?(?P<a>bom|boa|fluente|experiente|"
        r"especialista|proficiente|avançad[oa])\s+(?:em|com|no|na|nos|nas)\s+" + _PLACE,
        "O usuário é {a} em {v}",
        slot=None,
    ),
    _r(
        # "sou mais de excel e vba": the side of a craft one works on
        "pt.skill.more_of",
        "pt",
        "skill",
        rf"{_EU}sou mais de\s+(?P<v>[\w+#.-]+(?:\s*(?:,|e)\s*[\w+#.-]+){{0,3}})"
        r"(?=\s*(?:[,;.!?]|$))",
        "O usuário é mais de {v}",
        slot=None,
    ),
    _r(
        "pt.skill.years",
        "pt",
        "skill",
        rf"{_EU}tenho\s+(?:mais de\s+|quase\s+|uns\s+|cerca de\s+)?(?P<n>\d+|dois|três|"
        r"cinco|dez|vários|muitos)\s+anos\s+de\s+(?:experiência\s+(?:em|com|como)\s+"
        + _PLACE
        # "tenho 2 anos de java": years of one thing, named in one or two words
        + r"|(?P<w>(?!idade\b)[\w+#.-]+(?:\s+[\w+#.-]+)?)(?=\s*(?:[,;.!]|$)))",
        lambda m, c: _years(m, "pt"),
        slot=None,
    ),
    _r(
        "pt.skill.program",
        "pt",
        "skill",
        rf"{_EU}(?:programo|codo|desenvolvo)\s+em\s+{_PLACE}",
        "O usuário programa em {v}",
        slot=None,
    ),
    _r(
        "pt.skill.work_with",
        "pt",
        "skill",
        rf"{_EU}(?:mexo|trabalho)\s+(?:muito\s+|bastante\s+)?com\s+"
        r"(?P<v>(?-i:[A-Z][\w+#.-]*)(?:\s+(?:(?-i:[A-Z0-9][\w+#.-]*)|avançado|básico))*"
        r"|(?!(?:isso|isto|esse|essa|ele|ela|eles|elas|o|a|os|as|tudo)\b)[\w+#.-]+"
        r"(?=\s+(?:faz|há|ha|desde)\b))",
        "O usuário trabalha com {v}",
        slot=None,
    ),
    _r(
        "pt.skill.level",
        "pt",
        "skill",
        rf"(?:o\s+)?meu\s+(?P<l>{_LANGS_PT})\s+(?:é|está|ta|tá)\s+(?:(?:bem|muito|meio|bastante|"
        r"super)\s+)?(?P<v>básico|basico|intermediário|intermediario|avançado|avancado|fluente|"
        r"nativo|enferrujado|fraco|bom|ruim|razoável|razoavel|péssimo|pessimo)\b",
        "O {l} do usuário é {v}",
        slot=None,
        lower=("l",),
    ),
    _r(
        "pt.skill.mother_tongue",
        "pt",
        "skill",
        r"(?:a\s+)?minha\s+(?:língua materna|lingua materna|primeira língua|primeira lingua)"
        r"\s+é\s+"
        rf"(?:o\s+)?(?P<v>{_LANGS_PT}|(?-i:[A-Z])[a-z]+)\b",
        "A língua materna do usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.skill.know_thing",
        "pt",
        "skill",
        rf"{_EU}(?:já\s+)?sei\s+(?!(?:lá|la|que|se|disso|nada|não|nao|sim|bem|muito|isso|"
        r"onde|como|quando|qual|quem|o que)\b)(?P<v>[\w+#.-]+(?:\s+e\s+[\w+#.-]+)?)\s*(?:[,;.!]|$)",
        "O usuário sabe {v}",
        slot=None,
    ),
    _r(
        "pt.skill.know_how",
        "pt",
        "skill",
        rf"{_EU}(?:já\s+)?sei\s+(?!se\b|que\b|lá\b|la\b|disso|não|nao)(?P<v>\w+(?:ar|er|ir)\b"
        r"[^,;.!?]*)",
        "O usuário sabe {v}",
        slot=None,
    ),
    _r(
        "pt.skill.play",
        "pt",
        "skill",
        rf"{_EU}(?:também\s+)?(?P<a>toco|jogo)\s+(?!(?:um|uma|meu|minha|isso|isto|esse|essa|"
        r"muito|bastante|com|no|na|todo|toda)\b)(?P<v>(?:o\s+|a\s+)?[\wçãõéíóúâêôà-]+"
        r"(?:\s+[\wçãõéíóúâêôà-]+)?)(?=\s*(?:[,;.!]|$)|\s+(?:e|mas|desde|há|faz|muito|bem|"
        r"mal|aos|pra|para)\b)",
        lambda m, c: _play_pt(m),
    ),
    _r(
        "pt.skill.beginner",
        "pt",
        "skill",
        rf"{_EU}sou\s+(?P<a>iniciante|intermediári[oa]|novat[oa])\s+(?:em|no|na|com)\s+{_PLACE}",
        "O usuário é {a} em {v}",
        slot=None,
    ),
    _r(
        "pt.fact.grew_up",
        "pt",
        "fact",
        rf"{_EU}cresci\s+(?P<p>em|no|na|nos|nas)\s+{_WHERE}",
        "O usuário cresceu {p} {v}",
        slot=None,
    ),
    _r(
        "pt.fact.graduated",
        "pt",
        "fact",
        rf"{_EU}(?:sou\s+formad[oa]|me\s+formei|formei-me|sou\s+licenciad[oa]|sou\s+graduad[oa]|"
        r"tenho\s+(?:graduação|licenciatura|mestrado|doutorado|formação))\s+(?:em|de)\s+" + _WHERE,
        "O usuário se formou em {v}",
        slot=None,
    ),
    _r(
        "pt.fact.work_field",
        "pt",
        "fact",
        rf"{_EU}(?:agora\s+|atualmente\s+)?trabalho\s+(?P<p>com|na área de|na area de)\s+"
        r"(?!(?:isso|isto|ele|ela|eles|elas|você|voce|vc)\b)(?P<v>[^,;.!?]+?)"
        r"(?=\s+(?:e|mas|há|ha|desde|faz|então)\b|\s*[,;.!?]|\s*$)",
        "O usuário trabalha {p} {v}",
        slot=None,
    ),
    _r(
        "pt.goal.trying",
        "pt",
        "goal",
        rf"{_EU}(?:estou|to|tô)\s+(?:tentando|a tentar)\s+(?!(?:{_REQUEST_VERBS_PT})\b)"
        r"(?!(?:entender|resolver|fazer|rodar|compilar|instalar|configurar|achar|descobrir|"
        r"lembrar|consertar|arrumar|deixar|melhorar|ajustar|colocar|tirar|decidir|escolher)\b)"
        r"(?P<v>\w+(?:ar|er|ir)\b[^,;.!?]*)",
        "O usuário está tentando {v}",
        slot=None,
    ),
    # goal
    _r(
        "pt.goal.training",
        "pt",
        "goal",
        rf"{_EU}estou\s+(?:treinando|me preparando|a treinar|a preparar-me)\s+para\s+(?:a\s+|o\s+|"
        r"uma\s+|"
        r"um\s+)?" + _PLACE,
        "O usuário está treinando para {v}",
        slot=None,
    ),
    _r(
        "pt.goal.career",
        "pt",
        "goal",
        r"(?:eu\s+)?estou\s+(?:mudando|trocando)\s+de\s+(?:carreira|profissão|área)\s+"
        r"(?:de\s+(?P<old>[^,;.!?]+?)\s+)?(?:para|pra)\s+" + _PLACE,
        "O usuário está mudando de carreira para {v}",
        slot=None,
        change=True,
    ),
    _r(
        "pt.goal.goal_is",
        "pt",
        "goal",
        r"(?:o\s+|a\s+)?(?:meu|minha)\s+(?:maior\s+|principal\s+|grande\s+)?(?:objetivo|meta|"
        r"sonho|plano)(?:\s+para\s+[\w\s]+?)?\s+é\s+" + _PLACE,
        "O objetivo do usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.goal.started_learning",
        "pt",
        "goal",
        rf"{_EU}(?:comecei|começei|voltei)\s+a\s+(?:aprender|estudar|fazer aulas de)\s+{_PLACE}",
        "O usuário está aprendendo {v}",
        slot=None,
    ),
    _r(
        "pt.goal.learning",
        "pt",
        "goal",
        rf"{_EU}(?:estou|to|tô)\s+(?:aprendendo|estudando)\s+(?!para\b|pra\b)" + _PLACE,
        "O usuário está aprendendo {v}",
        slot=None,
    ),
    _r(
        "pt.goal.saving",
        "pt",
        "goal",
        rf"{_EU}estou\s+(?:juntando dinheiro|economizando|poupando)\s+(?:para|pra)\s+{_PLACE}",
        "O usuário está juntando dinheiro para {v}",
        slot=None,
    ),
    _r(
        "pt.goal.thinking",
        "pt",
        "goal",
        rf"{_EU}(?:estou|ando)\s+(?:pensando|a pensar)\s+(?:seriamente\s+|muito\s+)?em\s+"
        r"(?P<v>\w*(?:ar|er|ir)\b[^,;.!?]*)",
        "O usuário está pensando em {v}",
        slot=None,
    ),
    _r(
        "pt.goal.want",
        "pt",
        "goal",
        rf"(?:{_EU}(?:quero|pretendo|planejo|espero|gostaria de|sonho em)|(?:a|minha)\s+(?:ideia|"
        r"meta|plano)\s+é|(?:o\s+)?meu\s+(?:plano|sonho|objetivo)\s+é)\s+"
        r"(?:muito\s+|mesmo\s+|tanto\s+|um dia\s+)?"
        rf"(?!(?:{_REQUEST_VERBS_PT})\b)(?:conseguir\s+)?(?P<v>\w*(?:ar|er|ir|or)\b[^,;.!?]*)",
        "O usuário quer {v}",
        slot=None,
    ),
    # project
    _r(
        "pt.project.working_on",
        "pt",
        "project",
        rf"{_EU}(?:estou|to|tô)\s+(?P<a>trabalhando|construindo|desenvolvendo|escrevendo|"
        r"criando|montando|lançando|fazendo(?=\s+(?:um|uma)\s+(?:app|aplicativo|site|sistema|api|"
        r"jogo|bot|plataforma|livro|podcast|canal|loja|blog|ferramenta|biblioteca|extensão|"
        r"plugin|programa|saas|startup)\b))\s+(?:em\s+|n[uo]m\s+|n[ua]ma\s+|no\s+|na\s+)?"
        r"(?!(?:um|uma|o|a|esse|essa|este|esta)\s+(?:e-?mail|mensagem|carta|resposta|"
        r"comentário|pergunta|post)\b)" + _PLACE,
        lambda m, c: _project_pt(m, c),
    ),
    _r(
        # "é uma api de reservas … que ando a fazer nos tempos livres"
        "pt.project.made_thing",
        "pt",
        "project",
        r".*?\b(?P<v>(?:um|uma|o meu|a minha|meu|minha)\s+(?:[\w-]+\s+){0,9}?[\w-]+)\s+que\s+"
        r"(?:eu\s+)?(?:ando|estou|to|tô)\s+(?P<a>fazendo|desenvolvendo|construindo|escrevendo|"
        r"criando|montando)\b",
        lambda m, c: _made_thing(m, "pt"),
    ),
    _r(
        "pt.project.my_project",
        "pt",
        "project",
        r"(?:o\s+|a\s+)?(?:meu|minha|nosso|nossa)\s+(?:atual\s+)?(?:projeto|startup|empresa|"
        r"app|aplicativo|livro|tese|dissertação|podcast|negócio)(?:\s+(?:atual|paralelo|"
        r"pessoal|novo|nova))?\s+(?:é|se chama)\s+" + _PLACE,
        "O projeto do usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.project.maintain",
        "pt",
        "project",
        rf"{_EU}(?:mantenho|fundei|criei|administro)\s+(?:um|uma|o|a|meu|minha)?\s*" + _PLACE,
        "O usuário mantém {v}",
        slot=None,
    ),
    # environment
    _r(
        "pt.environment.switch",
        "pt",
        "environment",
        rf"{_EU}troquei\s+(?:o\s+|a\s+)?(?P<old>[^,;.!?]+?)\s+(?:pelo|pela|por)\s+"
        r"(?P<v>[^,;.!?]+?)\s*(?:[,;.!]|$)",
        "O usuário usa {v}",
        slot=_tool_slot,
        change=True,
    ),
    _r(
        "pt.fact.habit",
        "pt",
        "fact",
        rf"{_EU}(?P<a>corro|nado|pedalo|cozinho|leio|viajo)\s+(?P<v>bastante|muito|todo dia|"
        r"todos os dias|diariamente|sempre|(?:\w+|\d+) vezes por semana)",
        _habit_pt,
    ),
    _r(
        "pt.environment.use",
        "pt",
        "environment",
        rf"{_EU}(?:uso|utilizo|usamos)\s+(?:principalmente\s+|mais\s+|só\s+|apenas\s+)?"
        r"(?!(?:isso|isto|esse|essa|muito|bastante|o mesmo)\b)" + _PLACE,
        lambda m, c: _uses(m, c, "pt"),
    ),
    _r(
        "pt.environment.my_device",
        "pt",
        "environment",
        r"(?:o\s+)?meu\s+(?P<what>computador|notebook|laptop|celular|telefone|editor|sistema "
        r"operacional|sistema|servidor|setup|carro|teclado|monitor|terminal|navegador)\s+é\s+"
        r"(?:um\s+|uma\s+)?" + _PLACE,
        "O {what} do usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.environment.remote",
        "pt",
        "environment",
        rf"{_EU}trabalho\s+(?P<v>de casa|remotamente|remoto|em home office|home office|"
        r"em um escritório|num escritório|em coworking|à noite|de madrugada)",
        "O usuário trabalha {v}",
        slot=None,
    ),
    # context
    _r(
        "pt.context.state",
        "pt",
        "context",
        rf"{_EU}(?:estou|to|tô)\s+(?:atualmente\s+|agora\s+)?(?P<v>(?:de férias|de licença[\w\s-]*|"
        r"doente|viajando[^,;.!?]*|desempregad[oa]|procurando (?:um\s+)?(?:novo\s+)?emprego|"
        r"grávida|me recuperando de [^,;.!?]+|estudando para [^,;.!?]+|me mudando[^,;.!?]*|"
        r"aposentad[oa]|no (?:primeiro|segundo|terceiro|último) ano [^,;.!?]+)"
        r"(?:\s+(?:até|desde|por|durante|nesta|esta|na próxima|em|no|na)\b[^,;.!?]*)?)",
        "O usuário está {v}",
        slot=None,
    ),
    _r(
        "pt.context.this_period",
        "pt",
        "context",
        r"(?P<p>esta|essa|nesta|nessa|na próxima|próxima)\s+(?P<w>semana|mês|fim de semana|"
        r"semestre)\s*,?\s*(?:eu\s+)?(?:estou|vou estar|estarei)\s+" + _PLACE,
        "O usuário está {v} ({p} {w})",
        slot=None,
    ),
    _r(
        "pt.environment.swap",
        "pt",
        "environment",
        rf"{_EU}(?:acabei de trocar|troquei)\s+(?:(?:o|a|meu|minha|o meu|a minha)\s+)?"
        r"(?P<old>[^,;.!?]+?)\s+(?:por|pel[oa]|para)\s+(?:(?:um|uma|o|a)\s+)?(?P<v>[^,;.!?]+)",
        "O usuário usa {v}",
        slot=_tool_slot,
        change=True,
    ),
    _r(
        "pt.context.just",
        "pt",
        "context",
        rf"{_EU}acabei de\s+{_PLACE}",
        "O usuário acabou de {v}",
        slot=None,
    ),
    # ---- "I'm …" / "Sou …" with what a person is into, bad at, or lives with ------------------
    _r(
        "en.preference.into",
        "en",
        "preference",
        rf"{_I_AM}\s+(?:really\s+|very\s+|super\s+|so\s+|totally\s+|quite\s+)?(?P<a>into|"
        r"obsessed with|passionate about|crazy about|addicted to|a sucker for|mad about)\s+"
        r"(?!(?:it|this|that|these|those|them|your)\b)" + _PLACE,
        "User is {a} {v}",
        slot=_likes,
        lower=("a",),
    ),
    _r(
        "en.preference.x_fan",
        "en",
        "preference",
        rf"{_I_AM}\s+(?:a\s+)?(?:big\s+|huge\s+|massive\s+|die-?hard\s+|lifelong\s+|total\s+)?"
        r"(?P<v>(?-i:[A-Z])[\w'’.-]*(?:\s+(?-i:[A-Z])[\w'’.-]*){0,2})\s+fan\b",
        "User is a fan of {v}",
        slot=_likes,
    ),
    _r(
        "en.skill.bad_at",
        "en",
        "skill",
        rf"{_I_AM}\s+(?:really\s+|pretty\s+|so\s+|quite\s+|absolutely\s+)?(?:terrible|bad|awful|"
        r"hopeless|rubbish|useless|not (?:very |that |so |great |good )*(?:good|great))\s+"
        r"(?:at|with)\s+(?!(?:it|this|that|these|those|them)\b)" + _PLACE,
        "User is not good at {v}",
        slot=None,
        polarity=False,
    ),
    _r(
        "en.identity.name_aside",
        "en",
        "identity",
        rf"{_I_AM}\s+(?P<v>{_NAME})\s+(?:by the way|btw|here|lol|haha)\b",
        _name_only,
    ),
    _r(
        "en.identity.status",
        "en",
        "identity",
        rf"{_I_AM}\s+(?:now\s+)?(?P<v>self[- ]employed(?!\s+as\b)|freelance(?!\s+as\b)|"
        r"(?:a\s+)?(?:stay[- ]at[- ]home|"
        r"single|working|first[- ]time|new) (?:mom|mum|dad|parent|mother|father)|"
        r"(?:a\s+)?(?:full[- ]time|part[- ]time|grad|graduate|phd|mature) student)\b",
        "User is {v}",
        slot=None,
    ),
    _r(
        "en.fact.condition",
        "en",
        "fact",
        r"i(?:'ve| have)?\s+(?:got\s+|been diagnosed with\s+|suffer from\s+|live with\s+)"
        r"(?P<v>(?:type [12] )?diabetes|asthma|adhd|add|celiac disease|coeliac disease|"
        r"migraines|anxiety|depression|epilepsy|arthritis|crohn'?s|ibs|pcos|endometriosis|"
        r"high blood pressure|hypertension|a bad back|chronic [\w\s]+?|insomnia|tinnitus|"
        r"dyslexia|autism|long covid|lupus|multiple sclerosis|ms|psoriasis|eczema|"
        r"sleep apnea|(?:a|an) (?:\w+ )?allergy|(?:a|an) (?:\w+ )?intolerance|"
        r"a heart condition)\b",
        "User has {v}",
        slot=None,
    ),
    _r(
        "pt.preference.fan",
        "pt",
        "preference",
        rf"{_EU}sou\s+(?:muito\s+|super\s+)?(?:fã|fa)\s+(?:de carteirinha\s+|número um\s+)?"
        r"(?P<p>de|do|da|dos|das)\s+" + _PLACE,
        "O usuário é fã {p} {v}",
        slot=_likes,
        lower=("p",),
    ),
    _r(
        "pt.preference.into",
        "pt",
        "preference",
        rf"{_EU}sou\s+(?:muito\s+|super\s+|completamente\s+)?(?P<a>louc[oa]|apaixonad[oa]|"
        r"viciad[oa]|fanátic[oa])\s+(?P<p>por|em|pelo|pela|pelos|pelas|no|na|nos|nas)\s+"
        r"(?!(?:isso|isto|você|voce|vc)\b)" + _PLACE,
        "O usuário é {a} {p} {v}",
        slot=_likes,
        lower=("a", "p"),
    ),
    _r(
        "pt.preference.curto",
        "pt",
        "preference",
        rf"{_EU}curto\s+(?:muito\s+|bastante\s+)?(?!(?:isso|isto|você|voce|vc|demais)\b)" + _PLACE,
        "O usuário curte {v}",
        slot=_likes,
    ),
    _r(
        "pt.skill.bad_at",
        "pt",
        "skill",
        rf"{_EU}sou\s+(?:muito\s+|bem\s+|super\s+)?(?:péssim[oa]|pessim[oa]|ruim|horrível|"
        r"frac[oa]|uma negação|um zero à esquerda)\s+(?:em|com|no|na|nos|nas)\s+"
        r"(?!(?:isso|isto)\b)" + _PLACE,
        "O usuário não é bom em {v}",
        slot=None,
        polarity=False,
    ),
    _r(
        "pt.identity.status",
        "pt",
        "identity",
        rf"{_EU}sou\s+(?:agora\s+)?(?P<v>autônom[oa]|autonom[oa]|freelancer|dona de casa|"
        r"(?:mãe|pai) solo|(?:mãe|pai) solteir[oa]|concursad[oa]|MEI|servidor(?:a)? públic[oa])\b",
        "O usuário é {v}",
        slot=None,
    ),
    _r(
        "pt.relationship.parent_of",
        "pt",
        "relationship",
        rf"{_EU}sou\s+(?P<a>mãe|mae|pai)\s+(?:de|do|da)\s+" + _PLACE,
        lambda m, c: (
            None
            if (v := clean(m.group("v"), "pt")) is None
            else Hit(
                ("O usuário é pai" if m.group("a").lower() == "pai" else "A usuária é mãe")
                + f" de {v}",
                None,
                _key(v),
            )
        ),
    ),
    _r(
        "pt.fact.degree",
        "pt",
        "fact",
        rf"{_EU}sou\s+(?P<a>doutor(?:a)?|mestre|bacharel|pós-graduad[oa]|especialista)\s+"
        r"(?:em|de)\s+" + _WHERE,
        "O usuário é {a} em {v}",
        slot=None,
        lower=("a",),
    ),
    _r(
        "pt.context.retired",
        "pt",
        "context",
        rf"{_EU}(?:sou|estou|já estou)\s+(?P<v>aposentad[oa])\b",
        "O usuário está {v}",
        slot=None,
    ),
    # ---- the first-person clause detector: a verb of a person's life, any wording -----------
    *(
        _r(f"en.{type}.life", "en", type, _life_pattern_en(verbs), _life_en)
        for type, verbs in _LIFE_VERBS_EN
    ),
    *(
        _r(f"pt.{type}.life", "pt", type, _life_pattern_pt(verbs), _life_pt)
        for type, verbs in _LIFE_VERBS_PT
    ),
)


def _no_longer_en(match: re.Match[str]) -> Hit | None:
    place = clean(match.group("v") or match.group("w"), "en")
    if place is None:
        return None
    return Hit(f"User no longer lives in {place}", "residence", _key(place), False, True)


def _residence_pt_prefixed(match: re.Match[str], clause: str) -> Hit | None:
    """ "moro em Lisboa" / "moro no Porto": the value comes with its preposition ("moro em
    apartamento" is a kind of home, not a place)."""
    text = match.group("v")
    prep, _, rest = text.partition(" ")
    place = clean(rest, "pt")
    if place is None or re.match(
        r"(?:um |uma )?(?:apartamento|apê|ape|casa|kitnet|quitinete|prédio|predio|república|"
        r"republica|condomínio|condominio|quarto)\b",
        place,
        re.IGNORECASE,
    ):
        return None
    prep = prep.lower()
    change = bool(_CHANGE.search(clause))
    return Hit(f"O usuário mora {prep} {place}", "residence", _key(place), True, change)


def _moved_pt(match: re.Match[str], clause: str) -> Hit | None:
    place = clean(match.group("v"), "pt")
    if place is None:
        return None
    place_text, bare = _em(place)
    return Hit(f"O usuário mora {place_text}", "residence", _key(bare), True, True)


#: Writing for the day ("an email I'm writing to my boss"): a task, not a project.
_WRITING: Final = re.compile(
    r"\b(?:e-?mail|message|letter|reply|response|comment|question|post|text|essay|report|"
    r"speech|toast|review|mensagem|carta|resposta|comentário|pergunta|texto|redação|relatório|"
    r"discurso)s?\b",
    re.IGNORECASE,
)


def _made_thing(match: re.Match[str], language: str) -> Hit | None:
    """A thing one makes, named before the verb ("a habit tracker i've been building")."""
    value = clean(match.group("v"), language)
    # an indefinite or one's own thing ("an api for my parents' restaurant"), so software
    # words are no sign of the task at hand here; a pointer into the chat is
    if value is None or _DEICTIC.search(value) or _WRITING.search(value):
        return None
    # "um projeto pessoal que to fazendo…, um app de gastos": the name of the kind says nothing
    if re.fullmatch(
        r"(?:a|an|my|our|um|uma|o meu|a minha|meu|minha)\s+(?:(?:side|personal|pet|little|"
        r"new|pessoal|novo|nova|paralelo)\s+)*(?:project|thing|projeto|coisa|trabalho)"
        r"(?:\s+(?:pessoal|paralelo|novo|nova))?",
        value,
        re.IGNORECASE,
    ):
        return None
    verb = match.group("a").lower()
    subject = "O usuário está" if language == "pt" else "User is"
    return Hit(f"{subject} {verb} {value}", None, _key(value))


def _years(match: re.Match[str], language: str) -> Hit | None:
    """Years of experience in one thing ("3 years of experience in Python", "tenho 2 anos de
    java")."""
    value = clean(match.group("v") or match.group("w"), language)
    if value is None:
        return None
    n = match.group("n")
    if language == "pt":
        text = f"O usuário tem {n} anos de experiência em {value}"
    else:
        text = f"User has {n} years of experience in {value}"
    return Hit(text, None, _key(value))


_FORMAL_PT: Final = {
    "responde": "responda", "escreve": "escreva", "fala": "fale", "usa": "use",
    "explica": "explique", "traz": "traga", "mostra": "mostre", "coloca": "coloque",
    "dá": "dê", "da": "dê", "de": "dê",
}  # fmt: skip


def _formal_pt(verb: str) -> str:
    """An imperative as the statement writes it: "responde-me" → "responda", "me explique" →
    "explique" (the person asking is the user, named already)."""
    word = re.sub(r"^me\s+|-me$", "", verb.lower().strip())
    return _FORMAL_PT.get(word, word)


def _project_pt(match: re.Match[str], clause: str) -> Hit | None:
    verb = match.group("a").lower()
    value = clean(match.group("v"), "pt")
    if value is None:
        return None
    if verb == "trabalhando":
        return Hit(f"O usuário está trabalhando em {value}", None, _key(value))
    return Hit(f"O usuário está {verb} {value}", None, _key(value))


# -- extraction ------------------------------------------------------------------------------


def _tags(rule: Rule) -> tuple[str, ...]:
    return ("extracted", rule.type)


#: Adverbs between the subject and the verb that change nothing of the statement ("I'm also
#: trying to…", "I'm actually 27", "Também falo…").
_INNER_ADVERB: Final = re.compile(
    r"^((?:i|i'm|i've|i am|i have|we|we're)\s+)(?:also|actually|really|honestly|"
    r"only|still|definitely|genuinely|seriously|literally)\s+"
    r"|^((?:eu|eu também|eu tambem)\s+)(?:também|tambem|já|ja|ainda|sempre|hoje|agora|"
    r"atualmente|realmente|só|so)\s+"
    r"|^(?:também|tambem|realmente|sinceramente|já|ja|ainda|só|so|hoje|agora|atualmente)\s+"
    r"(?=\w+[oiu]\b)",
    re.IGNORECASE,
)


#: A chat often drops "I" before a past verb of a life event ("switched from vscode to
#: neovim last month", "started at a fintech called Monzo", "just got married"): the subject
#: is the person.
_DROPPED_AM: Final = re.compile(r"^(?=(?:working|living|based)\s+(?:in|at|as|for)\b)", re.I)
_DROPPED_I: Final = re.compile(
    r"^(?=(?:just\s+|recently\s+|finally\s+)?(?:switched|moved|relocated|joined|quit|"
    r"started (?:at|a new job|working)|"
    r"left|graduated|retired|adopted|got (?:married|engaged|divorced|a new job|promoted))\b)",
    re.IGNORECASE,
)


def _match(clause: str) -> tuple[Rule, Hit] | None:
    body = _DROPPED_AM.sub("I'm ", _DROPPED_I.sub("I ", _FILLER.sub("", clause).strip()))
    previous = None
    while previous != body:
        previous = body
        body = _INNER_ADVERB.sub(lambda m: m.group(1) or m.group(2) or "", body)
    for rule in RULES:
        found = rule.pattern.match(body)
        if found is None:
            continue
        hit = rule.render(found, clause)  # the whole clause: "now" before it is a change
        if hit is not None:
            return rule, hit
    return None


#: "aqui em Curitiba", "here in Leeds" in a statement about oneself: where one lives.
_HERE: Final = re.compile(
    r"\b(?:aqui|cá|ca)\s+(?:em|no|na)\s+(?P<p>[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)"
    r"|\bhere in\s+(?P<q>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)",
    re.IGNORECASE,
)


#: Words that point back into the conversation ("design one like that", "resume this chat",
#: "them all"): a goal or liking with one of them is about the task at hand, not the person.
_DEICTIC: Final = re.compile(
    r"\b(?:it|this|these|those|them|one|ones|chat|conversation|thread|above|below|here|"
    r"isso|isto|esse|essa|esses|essas|este|esta|estes|estas|desse|dessa|deste|desta|todos|"
    r"ela|ele|elas|eles|aquilo|aquele|aquela|aqueles|aquelas|"
    r"todas|conversa)\b|^that\b|\bthat$",
    re.IGNORECASE,
)
#: A choice among the drafts of this chat: "the second version you gave", "the semaphore
#: version better", "option 2", "a versão com tópicos", "keep the whole script under 50 lines".
_CHOICE: Final = re.compile(
    r"\b(?:the|this|that|these|those|o|a|os|as|esse|essa|este|esta)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:version|versions|option|options|draft|look|script|code|function|intro|paragraph|"
    r"answer|reply|layout|design|logo|title|slide|slides|chart|table|prompt|output|"
    r"versão|versao|opção|opcao|rascunho|código|codigo|função|funcao|texto|parágrafo|"
    r"resposta|título|titulo|tabela|gráfico|grafico)\b"
    r"|\b(?:option|opção|opcao|version|versão|versao|draft|número|number)\s*#?\d+\b",
    re.IGNORECASE,
)
#: "this year", "este ano": times, not pointers into the conversation.
_PERIOD: Final = re.compile(
    r"\b(?:this|next|last|este|esta|neste|nesta|esse|essa|nesse|nessa|próximo|próxima)\s+"
    r"(?:year|month|week|"
    r"weekend|summer|spring|fall|autumn|winter|semester|ano|mês|semana|fim de semana|verão|"
    r"semestre)\b",
    re.IGNORECASE,
)
_DEICTIC_TYPES: Final = frozenset({"goal", "preference", "project", "environment"})
#: Feminine forms after "O usuário é …" ("engenheira", "vegetariana", "brasileira"): the
#: statement is written "A usuária é …" so the words agree.
_FEMININE: Final = re.compile(
    r"^O usuário (é|está|estava|foi|ficou) (?=(?:\w+(?:eira|ora|ana|ica|ada|esa|ária|óloga|ógrafa|"
    r"iteta|ina))\b"
    # any other adjective in -a but the common-gender ones (analista, atleta, diplomata)
    r"|(?!uma\b)(?-i:[a-zà-ÿ]+)(?<!ist)(?<!et)(?<!at)(?<!cid)(?<!em)(?<!am)(?<!gui)a\b)"
)


#: "de" and "em" contract with a following article: "não gosta de o novo layout" is written
#: "não gosta do novo layout".
_PT_CONTRACTION: Final = re.compile(r"\b(de|em) (o|a|os|as) ")
_PT_CONTRACTED: Final = {"de": "d", "em": "n"}


def _agree_pt(content: str) -> str:
    content = _PT_CONTRACTION.sub(lambda m: f"{_PT_CONTRACTED[m.group(1)]}{m.group(2)} ", content)
    return _FEMININE.sub(lambda m: f"A usuária {m.group(1)} ", content)


def _about(content: str, speaker: str, language: str) -> str:
    """The statement about a named speaker instead of "User" ("Ana lives in Porto")."""
    if language == "pt":
        content = re.sub(r"^(?:O usuário|A usuária)\b", speaker, content)
        return re.sub(r"\bdo usuário\b|\bda usuária\b", f"de {speaker}", content)
    content = re.sub(r"^User's\b", f"{speaker}'s", content)
    return re.sub(r"^User\b", speaker, content)


def _features(
    rule: Rule, hit: Hit, clause: str, text: str, dropped: str | None
) -> dict[str, float]:
    """What the confidence of this statement is computed from (`confidence.features`): the
    captured value (or the statement after its subject and verb)."""
    value = hit.value if hit.value else hit.content.split(" ", 2)[-1]
    return features(rule.type, value, clause, text, dropped is not None) | {
        "lexicon": float(rule.id.endswith(".life"))
    }


#: Chat spellings of the first person, written out: "im"/"Im" → "I'm", "ive" → "I've",
#: "i" → "I" (so a capitalised-word test does not take it for a name); Portuguese "tô/to" +
#: gerund → "estou"; European Portuguese "estou a aprender" / "ando a escrever" → "estou
#: aprendendo" / "estou escrevendo", the form the patterns know.
_SPELLINGS: Final = (
    (re.compile(r"\b(?-i:[Ii])m\b(?=\s+\w)"), "I'm"),
    (re.compile(r"\b(?-i:[Ii])ve\b(?=\s+\w)"), "I've"),
    (re.compile(r"\b(?-i:i)(?=['’ ])"), "I"),
    (re.compile(r"\b(?:t[ôo]|tou|tô)\s+(?=\w+ndo\b)", re.IGNORECASE), "estou "),
    (
        re.compile(
            r"\b(estou|est[áa]s|est[áa]|estamos|ando|andas|anda|andamos)\s+a\s+(\w+?)(a|e|i)r"
            r"(?=\b(?!\s*(?:-|que)))",
            re.IGNORECASE,
        ),
        lambda m: (
            ("estou" if m.group(1).lower() in {"estou", "ando"} else m.group(1))
            + f" {m.group(2)}{m.group(3)}ndo"
        ),
    ),
)


#: Asides that qualify a statement without making it hypothetical ("I have asthma if that
#: matters", "keep answers short unless I ask for more", "fiz o mestrado na uminho, se isso
#: contar alguma coisa"): left out before the clauses are cut, so "if"/"unless" in them does
#: not reject the statement.
_ASIDE: Final = re.compile(
    r",?\s*\b(?:if (?:that|it|this) (?:matters|helps|is relevant|'s relevant|is useful|"
    r"makes a difference|changes anything)|if relevant|if it's relevant|in case (?:that|it) "
    r"(?:matters|helps)|unless i (?:ask|say|tell you)(?: for more| otherwise| so)?|"
    r"se (?:é que )?isso (?:importa|contar|conta|ajuda|ajudar|interessa|fizer diferença)"
    r"(?: alguma coisa| de alguma coisa| pra algo| para algo)?|caso (?:isso )?(?:importe|ajude)|"
    r"a (?:menos|não ser) que eu (?:peça|diga)(?: mais| o contrário)?)\b"
    r"(?:\s+(?:for|pra|para) (?:anything|\w+(?: \w+)?))?(?=\s*(?:[,;.!]|$))",
    re.IGNORECASE,
)


def _spelled_out(text: str) -> str:
    text = _ASIDE.sub("", text)
    for pattern, replacement in _SPELLINGS:
        text = pattern.sub(replacement, text)
    return text


@dataclass(slots=True)
class Reading:
    """What `extract_message` read of a message, for a stage after it
    (`memvault.extract.stage`): the text it read, why anything was set aside, and each clause
    with why it was rejected (None: it may be a statement)."""

    text: str = ""
    dropped: str | None = None
    clauses: list[tuple[str, str | None]] = field(default_factory=list)


def extract_message(
    message: UserMessage,
    *,
    extractor: str = EXTRACTOR,
    text: str | None = None,
    reading: Reading | None = None,
) -> list[Candidate]:
    """The candidates of one user message (derived candidates included, after the one they
    were inferred from). Only the person's own words are read (`framing.own_words`); in a
    conversation between several named people each statement names its speaker. `text`,
    when given, is the part of the message to read (the rest is a role-play's). `reading`,
    when given, is filled with what was read (`Reading`)."""
    found: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    text, dropped = own_words(message.text if text is None else text)
    text = _spelled_out(text.replace("’", "'"))  # curly apostrophes: "I’m" is "I'm"
    if reading is not None:
        reading.text, reading.dropped = text, dropped
    speaker = message.speaker
    passing: list[tuple[str, Mention]] = []
    used: list[tuple[str, Platform]] = []
    position = 0
    for clause in clauses(text):
        position = max(position, text.find(clause, position) + len(clause))
        why = rejection(clause)
        if reading is not None:
            reading.clauses.append((clause, why))
        matched = None if why is not None else _match(clause)
        if why not in {"hypothetical", "reported"}:
            after = text[position : position + 80]
            passing.extend((clause, mention) for mention in mentions(clause, after))
        if why is not None:
            continue
        used.extend((clause, p) for p in platforms(_FILLER.sub("", clause).strip()))
        if matched is None:
            continue
        rule, hit = matched
        here = _HERE.search(clause)
        if (
            here
            and rule.type not in {"fact", "instruction"}
            and not any(d[2] == "residence" for d in hit.derived)
        ):
            # "sou motorista aqui em bh", "I'm a nurse here in Leeds": where one lives.
            place = here.group("p") or here.group("q")
            text_ = (
                f"O usuário mora {_em(place)[0]}"
                if rule.language == "pt"
                else (f"User lives in {place}")
            )
            hit = replace(hit, derived=(*hit.derived, ("fact", text_, "residence", _key(place))))
        body = hit.content.split(" ", 2)[-1]
        # "uso há uns 10 anos": how long, with the thing left in another clause
        if re.match(r"(?:há|ha|faz|desde|for|since)\b", hit.value or "", re.IGNORECASE):
            continue
        if rule.type in _DEICTIC_TYPES and (
            _DEICTIC.search(_PERIOD.sub("", body).strip())
            or re.match(r"['\"‘“]", body)
            or _CHOICE.search(body)
        ):
            # A value in quotes is a name or a line proposed in the chat ("I like 'Nne's
            # Kitchen', give us 5 more").
            continue
        content = _agree_pt(hit.content) if rule.language == "pt" else hit.content
        if speaker:
            content = _about(content, speaker, rule.language)
        if (rule.type, content) in seen:
            continue
        seen.add((rule.type, content))
        inputs = _features(rule, hit, clause, text, dropped)
        confidence = score(inputs)
        candidate = Candidate(
            type=rule.type,
            content=content,
            language=rule.language,
            confidence=confidence,
            source=message,
            method="explicit_user_input",
            extractor=extractor,
            pattern=rule.id,
            slot=hit.slot,
            value=hit.value,
            polarity=hit.polarity,
            change=hit.change,
            tags=_tags(rule),
            evidence=clause,
            subject=speaker,
            features=inputs,
        )
        found.append(candidate)
        for d_type, d_content, d_slot, d_value in hit.derived:
            found.append(
                replace(
                    candidate,
                    type=d_type,
                    content=_about(d_content, speaker, rule.language) if speaker else d_content,
                    slot=d_slot,
                    value=d_value,
                    # An inference is less sure than the statement it comes from.
                    confidence=round(confidence * 0.9, 2),
                    pattern=rule.id + ".derived",
                    tags=("extracted", "derived", d_type),
                    derived_from=candidate,
                    method="explicit_user_input",
                )
            )
    found.extend(_mentioned(passing, found, message, text, dropped, extractor))
    found.extend(_platformed(used, found, message, text, dropped, extractor))
    return found


def _platformed(
    used: list[tuple[str, Platform]],
    found: list[Candidate],
    message: UserMessage,
    text: str,
    dropped: str | None,
    extractor: str,
) -> Iterator[Candidate]:
    """The platforms of first-person statements of use (`platforms`) that no pattern already
    named: one environment memory each."""
    said = " ".join(fold(c.content) for c in found)
    speaker = message.speaker
    for clause, platform in used:
        # named already, perhaps with another version ("User is on ubuntu 24")
        if re.search(rf"(?<!\w){re.escape(fold(platform.name).split()[0])}(?!\w)", said):
            continue
        if platform.language == "pt":
            content = f"O usuário usa {platform.name}"
        else:
            content = f"User uses {platform.name}"
        if speaker:
            content = _about(content, speaker, platform.language)
        said += " " + fold(content)
        inputs = features("environment", platform.name, clause, text, dropped is not None) | {
            "platform": 1.0
        }
        yield Candidate(
            type="environment",
            content=content,
            language=platform.language,
            confidence=score(inputs),
            source=message,
            method="explicit_user_input",
            extractor=extractor,
            pattern=f"{platform.language}.environment.platform",
            slot="editor" if fold(platform.name) in _EDITORS else None,
            value=_key(platform.name),
            polarity=True,
            change=bool(_CHANGE.search(clause)),
            tags=("extracted", "environment"),
            evidence=clause,
            subject=speaker,
            features=inputs,
        )


def _mentioned(
    passing: list[tuple[str, Mention]],
    found: list[Candidate],
    message: UserMessage,
    text: str,
    dropped: str | None,
    extractor: str,
) -> Iterator[Candidate]:
    """The relationships mentioned in passing (`mentions`) that no pattern already gave."""
    said = " ".join(fold(c.content) for c in found if c.type == "relationship")
    speaker = message.speaker
    for clause, mention in passing:
        known = fold(mention.name) if mention.name else fold(mention.relation)
        if re.search(rf"\b{re.escape(known)}\b", said):
            continue
        content = (
            _about(mention.content, speaker, mention.language) if speaker else (mention.content)
        )
        said += " " + fold(content)
        inputs = features(
            "relationship", mention.name or mention.relation, clause, text, dropped is not None
        ) | {"mention": 1.0}
        yield Candidate(
            type="relationship",
            content=content,
            language=mention.language,
            confidence=score(inputs),
            source=message,
            method="explicit_user_input",
            extractor=extractor,
            pattern=f"{mention.language}.relationship.mention",
            slot=(
                f"relationship:{fold(mention.relation)}:{fold(mention.name)}"
                if mention.name
                else None
            ),
            value=fold(mention.name) if mention.name else fold(mention.relation),
            polarity=True,
            change=False,
            tags=("extracted", "relationship"),
            evidence=clause,
            subject=speaker,
            features=inputs,
        )


def extract_messages(
    messages: Iterable[UserMessage], *, extractor: str = EXTRACTOR
) -> Iterator[Candidate]:
    """The candidates of many user messages, in order (of each conversation, the messages in
    the order they were said: a role-play set up in one frames those after it)."""
    for _, found in extract_by_message(messages, extractor=extractor):
        yield from found


def extract_by_message(
    messages: Iterable[UserMessage], *, extractor: str = EXTRACTOR
) -> Iterator[tuple[UserMessage, list[Candidate]]]:
    """Each user message with its candidates, in order; what is said inside a role-play
    (`framing.RoleFrame`) is the character's, not the person's, and yields nothing."""
    frame = RoleFrame()
    for message in messages:
        text = frame.read(message.conversation_id, message.text)
        if not text.strip():
            yield message, []
            continue
        yield message, extract_message(message, extractor=extractor, text=text)


def _third_person(verb: str) -> str:
    """The English third person singular of a verb: go → goes, bike → bikes, study → studies."""
    irregular = {"go": "goes", "do": "does", "have": "has", "be": "is"}
    if verb in irregular:
        return irregular[verb]
    if re.search(r"(?:s|sh|ch|x|z)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def _frequency(match: re.Match[str]) -> Hit | None:
    """A habit with how often ("I go to the gym four times a week", "I bike to work every
    day"): a fact about the person, in the third person."""
    value = clean(match.group("v"), "en")
    if value is None:
        return None
    verb = _third_person(match.group("a").lower())
    return Hit(f"User {verb} {value}", None, _key(f"{verb} {value}"))


def _study_pt(match: re.Match[str]) -> Hit | None:
    """What the person studies ("Estou fazendo mestrado em linguística na Unicamp"): a fact,
    "O usuário estuda …"; "estudo para a prova" is the task at hand, not a course."""
    value = clean(match.group("v"), "pt")
    if value is None or re.match(r"(?:para|pra|isso|isto|esse|essa|agora|muito)\b", value, re.I):
        return None
    where = match.group("w")
    course = re.match(
        r"(?:um\s+|o\s+|a\s+)?(?:mestrado|doutorado|doutoramento|faculdade|graduação|"
        r"licenciatura|pós|curso)\b",
        value,
        re.I,
    )
    # "faço o backend", "to fazendo aula": a chore, unless it is a course or at a school.
    chore = not re.fullmatch(r"(?-i:[a-zà-ÿ]+)", value) or value.lower() in {"aula", "aulas"}
    if match.group("verb").lower() != "estudo" and not course and not where and chore:
        return None
    past = match.group("verb").lower() in {"fiz", "tirei"}
    if past and not course:
        return None
    value = re.sub(r"^(?:o|a)\s+", "", value)
    verb = "fez" if past else "faz" if course else "estuda"
    text = f"O usuário {verb} {value}" + (f" {match.group('p')} {where.strip()}" if where else "")
    return Hit(text, None, _key(value))


#: Two named tools in one "use" ("I use Poetry for dependencies and VS Code as my editor",
#: "Uso Linux no trabalho e Mac em casa"): cut before "and"/"e" and a capitalised word.
_TOOL_AND: Final = re.compile(r"\s+(?:and|e)\s+(?=(?-i:[A-Z]))")
#: What a tool is used for or where ("for dependencies", "no trabalho"): not part of its name.
_TOOL_USE: Final = re.compile(
    r"\s+(?:for|as|at|in|on|to|no|na|em|para|pra|como)\b.*$", re.IGNORECASE
)


def _uses(match: re.Match[str], clause: str, language: str) -> Hit | None:
    """The tools a person uses, one statement each when two named ones are joined by
    "and"/"e" (the second is derived from the first)."""
    raw = match.group("v")
    parts = _TOOL_AND.split(raw)
    # Split only tools that each come with their own use ("Linux no trabalho e Mac em casa");
    # a plain list ("Node 20 e TypeScript") is one statement.
    if len(parts) > 1 and parts[0][:1].isupper() and _TOOL_USE.search(parts[0]):
        parts = [_TOOL_USE.sub("", part) for part in parts]
    else:
        parts = [raw]
    subject = "O usuário usa" if language == "pt" else "User uses"
    hits = []
    for part in parts:
        value = clean(part, language)
        if value is None:
            return None
        hits.append((f"{subject} {value}", _tool_slot({"v": value}), _key(value)))
    (content, slot, key), *rest = hits
    return Hit(
        content,
        slot,
        key,
        change=bool(_CHANGE.search(clause)),
        derived=tuple(("environment", c, s_, k) for c, s_, k in rest),
    )


def _studied_en(match: re.Match[str]) -> Hit | None:
    """ "I studied economics", "I have a degree in law": what the person studied."""
    value = clean(match.group("v"), "en")
    if value is None:
        return None
    if match.group("b"):
        return Hit(f"User has {match.group('b').lower()} {value}", None, _key(value))
    verb = match.group("a").lower()
    return Hit(f"User {verb} {value}", None, _key(value))


def _play_pt(match: re.Match[str]) -> Hit | None:
    """ "Toco violão", "jogo xadrez": an instrument or a game the person plays."""
    value = clean(match.group("v"), "pt")
    if value is None:
        return None
    verb = "toca" if match.group("a").lower() == "toco" else "joga"
    return Hit(f"O usuário {verb} {value}", None, _key(value))
