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
