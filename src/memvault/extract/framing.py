"""What part of a user message speaks about the person.

Real exports are mostly work given to the assistant: text to translate or rewrite, role-play
set-ups, pasted problem statements and job posts, code and error messages, provider
boilerplate. A first-person sentence inside such material is not the person talking about
themselves ("Translate to French: I am a teacher" says nothing about the user). `own_words`
returns the text the extractor may read — possibly empty — and why the rest was left out.
"""

from __future__ import annotations

import re
from typing import Final

from memvault.extract.base import fold

__all__ = ["BOILERPLATE", "own_words"]

_FENCE: Final = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
#: Lines of code, stack traces and error output.
_CODE_LINE: Final = re.compile(
    r"^\s*(?:Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|at \S+:\d+|"
    r"[A-Z][A-Za-z]*(?:Error|Exception|Warning):|\$ |>>> |#include|import \w|from \w+ import|"
    r"def \w+\(|class \w+|function \w+\(|const \w+ =|let \w+ =|SELECT |INSERT |UPDATE |"
    r"console\.log|print\(|\{|\}|<\w+[^>]*>)"
)
#: A message that opens with work for the assistant on some text, or a role to play: nothing
#: in it is the person's own statement.
_TASK: Final = re.compile(
    r"^(?:please\s+|por favor,?\s+|can you\s+|could you\s+|você pode\s+|pode\s+)?"
    r"(?:translate|traduz[ai]?|traduzir|rewrite|re-?write|reescrev[ae]|reformulate|reformul[ae]|"
    r"rephrase|paraphrase|parafraseie|fix (?:the )?(?:grammar|spelling|typos)|corri[gj][ea]|"
    r"proofread|revis[ae]|review this|polish|edit this|make (?:this|it) (?:sound|more|less)|"
    r"deix[ae] (?:esse|este|o) texto|summari[sz]e|resum[ae]|act as|aja como|atue como|"
    r"pretend|finj[ae]|role-?play|let's role-?play|vamos fazer um role-?play|play the role|"
    r"you are (?:a|an|my)\b|você é (?:um|uma|meu|minha)\b|simulate|simule|imagine you|"
    # A problem or a piece of work to do: what follows describes it, not the person.
    r"you are given|given (?:a|an|the)\b|design (?:a|an)\b|implement|solve|write (?:a|an|the|me)\b|"
    r"create (?:a|an)\b|build (?:a|an)\b|generate|dado (?:um|uma)\b|implemente|resolva|"
    r"escreva (?:um|uma)\b|crie (?:um|uma))\b",
    re.IGNORECASE,
)
#: "Here's the problem statement:" then pasted lines: only the line before the paste is kept.
_PASTE_INTRO: Final = re.compile(r":\s*$")
#: A line that names a piece of writing ("I wrote this poem, what do you think?", "Escrevi
#: esse poema"): the lines after it are that writing, not the person speaking.
_MATERIAL: Final = re.compile(
    r"\b(?:this|the following|my|these|esse|este|essa|esta|meu|minha|seguinte)\s+"
    r"(?:poem|song|lyrics|story|verses?|essay|draft|paragraph|text|letter|speech|"
    r"poema|música|musica|letra|história|historia|redação|redacao|rascunho|parágrafo|"
    r"paragrafo|texto|carta|discurso|versos?)\b",
    re.IGNORECASE,
)
#: Provider boilerplate: stock system text and default prompts (folded, matched anywhere).
BOILERPLATE: Final = (
    "what would you like chatgpt to know about you",
    "how would you like chatgpt to respond",
    "i am claude",
    "i'm claude",
    "i am chatgpt",
    "i am gemini",
    "i am copilot",
    "i am grok",
    "an ai assistant made by",
    "a large language model trained by",
    "as an ai language model",
    "you are chatgpt",
    "you are claude",
    "you are a helpful assistant",
    "how to use claude",
)


def own_words(text: str) -> tuple[str, str | None]:
    """(the text that may hold the person's own statements, why anything was dropped)."""
    folded = fold(text).replace("’", "'")
    if any(phrase in folded for phrase in BOILERPLATE):
        return "", "boilerplate"
    stripped = _FENCE.sub("\n", text)
    reason = "code" if stripped != text else None
    lines = [line for line in stripped.splitlines()]
    first = next((line.strip() for line in lines if line.strip()), "")
    if _TASK.match(first):
        return "", "task"
    kept: list[str] = []
    for index, line in enumerate(lines):
        if _CODE_LINE.match(line):
            reason = "code"
            continue
        if (_PASTE_INTRO.search(line) or _MATERIAL.search(line)) and any(
            rest.strip() for rest in lines[index + 1 :]
        ):
            kept.append(line)
            reason = "pasted"
            break
        kept.append(line)
    return "\n".join(kept).strip(), reason


#: A role-play set up for the rest of the chat ("vamos fazer um roleplay: vc é o imperador…",
#: "pretend you're an innkeeper and I'm a traveller", "faz de conta que és empregado num café"):
#: until it ends, what the person says is their character's line, not about themselves.
_ROLE_START: Final = re.compile(
    r"\b(?:role-?play|roleplay|act as|pretend (?:to be|you(?:'re| are)|that you)|let's pretend|"
    r"you(?:'re| are) now\b|stay in character|in character|faz de conta|finge que|finja que|"
    r"fica no personagem|fique no personagem|interpreta(?:r)? (?:o|a|um|uma)\b|"
    r"(?:você|voce|vc|tu) (?:é|és|e|es) (?:o|a|um|uma)\b.{0,80}\be eu (?:sou|vou ser)\b|"
    r"you(?:'re| are) (?:the|a|an)\b.{0,80}\band i(?:'m| am| will be|'ll be)\b)",
    re.IGNORECASE,
)
#: Where the role-play ends: what follows the marker is the person again ("ok stop. for real
#: though I do live in Sheffield", "sai do personagem agora: dou aula de história").
_ROLE_END: Final = re.compile(
    r"\b(?:out of character|ooc|break character|stop the role-?play|end the role-?play|"
    r"ok stop|(?:that|this) was fun|for real though|back to (?:normal|reality)|"
    r"seriously now|sai[ar]? d[oa] personagem|pode parar|para o role-?play|fim do role-?play|"
    r"chega de role-?play|a sério agora|agora a sério|falando sério|fora do personagem)\b"
    r"[\s.,:!-]*",
    re.IGNORECASE,
)


#: A new request to the assistant, out of any role: "Give me three title ideas…", "Explain
#: the difference…", "What's the…": the role-play set up before it is over.
_NEW_REQUEST: Final = re.compile(
    r"^(?:(?:ok|okay|now|so|please|pls|thanks|thank you)[,.!]?\s+)*(?:give me|explain|write|"
    r"translate|summari[sz]e|tell me (?:about|how|what|why)|what(?:'s| is| are| does)|"
    r"how (?:do|does|can|should|to)|can you|could you|help me|list|show me|generate|create|"
    r"make me|suggest|recommend|explique|explica|escreva|escreve|traduz|traduza|resuma|resume|"
    r"me (?:dá|dê|de|explica|ajuda|ajude|passa|mostra)|o que (?:é|são)|como (?:faço|fazer|eu)|"
    r"você pode|voce pode|vc pode|podes|pode me|qual (?:é|a|o)|quais|sugere|sugira|recomenda)\b",
    re.IGNORECASE,
)


#: A turn of dialogue: a question, or words addressed to someone ("O senhor acredita…",
#: "Majestade, …", "Are there rats in this inn?").
_DIALOGUE: Final = re.compile(
    r"\?|\b(?:you|your|você|voce|vc|tu|te|senhor|senhora|majestade|sir|madam)\b", re.IGNORECASE
)


class RoleFrame:
    """Follows one conversation's user messages in order and says what of each the extractor
    may read: nothing of the message that sets up a role-play nor of those inside it, the
    words after the marker of the message that ends it; a new request to the assistant ends
    it too, and is read. Inside it, only a turn of dialogue (a question, words addressed to
    the character) is the role's: a plain statement between the turns is the person's."""

    def __init__(self) -> None:
        self._open: dict[str, bool] = {}

    def read(self, conversation_id: str, text: str) -> str:
        ended = _ROLE_END.search(text)
        if self._open.get(conversation_id) and ended:
            self._open[conversation_id] = False
            return text[ended.end() :]
        if _ROLE_START.search(text):
            self._open[conversation_id] = True
            return ""
        if self._open.get(conversation_id) and _NEW_REQUEST.match(text.strip()):
            self._open[conversation_id] = False
        # a line of the role is dialogue: it asks the character something or speaks to them
        in_role = self._open.get(conversation_id) and _DIALOGUE.search(text)
        return "" if in_role else text
