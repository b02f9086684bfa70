"""Which language a rendering speaks (English or Portuguese), and its words.

The memories say it: PAM §10 ``metadata.language`` where they carry it, else the function
words of their text. A rendering's headings follow the majority; ties and silence are English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from memvault.model import Memory

LANGUAGES: Final = ("en", "pt")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words frequent in one language and rare in the other (no shared spellings).
_PT: Final = _words(
    "não é são está estou tenho gosto prefiro minha meu meus minhas uma umas uns com para "
    "pelo pela pelos pelas do da dos das no na nos nas em que eu ele ela você como mais "
    "também sempre nunca sou trabalho moro"
)
_EN: Final = _words(
    "the is are am was i my me mine an with for of in on at to and that you he she prefer "
    "like likes always never work live lives have has use uses"
)
_WORD: Final = re.compile(r"[^\W\d_]+", re.UNICODE)

#: The words of every rendering, per language.
LABELS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {
        "title": "What you should know about me",
        "instruction": "How to respond",
        "identity": "About me",
        "preference": "Preferences",
        "decision": "Decisions",
        "other": "Other things to know",
        "chatgpt.about": "What should ChatGPT know about you?",
        "chatgpt.respond": "How should ChatGPT respond?",
        "chatgpt.memory": 'Memories to paste (one at a time: "Remember that …")',
        "claude.memory": "Memory to import into Claude",
        "claude.project": "Project instructions",
        "gemini.saved": "Saved info (one entry per line)",
        "gemini.gem": "Gem instructions",
        "remember": "Remember that",
    },
    "pt": {
        "title": "O que você deve saber sobre mim",
        "instruction": "Como responder",
        "identity": "Sobre mim",
        "preference": "Preferências",
        "decision": "Decisões",
        "other": "Outras coisas a saber",
        "chatgpt.about": "O que o ChatGPT deve saber sobre você?",
        "chatgpt.respond": "Como o ChatGPT deve responder?",
        "chatgpt.memory": 'Memórias para colar (uma de cada vez: "Lembre-se de que …")',
        "claude.memory": "Memória para importar no Claude",
        "claude.project": "Instruções do projeto",
        "gemini.saved": "Informações salvas (uma entrada por linha)",
        "gemini.gem": "Instruções do Gem",
        "remember": "Lembre-se de que",
    },
}


def _tag_language(memory: Memory) -> str | None:
    meta = memory.metadata
    if isinstance(meta, Mapping):
        tag = meta.get("language")
        if isinstance(tag, str) and tag:
            primary = tag.split("-", 1)[0].lower()
            if primary in LANGUAGES:
                return primary
    return None


def text_language(text: str) -> str | None:
    """The language ("en" or "pt") of `text` by its function words; None when it has
    neither's."""
    pt = en = 0
    for word in _WORD.findall(text.lower()):
        if word in _PT:
            pt += 1
        elif word in _EN:
            en += 1
    if pt == en:
        return None
    return "pt" if pt > en else "en"


def detect(memories: Iterable[Memory]) -> str:
    """The language most of `memories` are in: their PAM §10 tag, else their words."""
    votes = {"en": 0, "pt": 0}
    for memory in memories:
        found = _tag_language(memory) or text_language(memory.content)
        if found is not None:
            votes[found] += 1
    return "pt" if votes["pt"] > votes["en"] else "en"
