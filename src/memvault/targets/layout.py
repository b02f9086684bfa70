"""The texts each assistant accepts (PAM §20.2), packed within their limits.

A target is a list of slots — the fields a person pastes somewhere — each with a character
limit, the memory categories it takes, and a style. Memories arrive best first; each goes to
the first slot that takes its category and still has room, else it is left out. A slot's text
is rendered from what it holds and checked against its limit, so no text is ever over it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from memvault.model import Memory
from memvault.targets.language import LABELS
from memvault.targets.selection import category

Style = Literal["grouped", "lines"]

#: Every category, in the order headings appear in a grouped text.
CATEGORIES: Final = ("instruction", "identity", "preference", "decision", "other")
_ALL: Final = frozenset(CATEGORIES)
_HOW: Final = frozenset({"instruction", "decision"})
_WHO: Final = frozenset({"identity", "preference", "other"})

#: ChatGPT's custom-instruction fields hold at most this many characters each.
CHATGPT_FIELD_LIMIT: Final = 1500


@dataclass(frozen=True, slots=True)
class Slot:
    """One text of a target: its name, the label of its title, the categories it takes, its
    style, and whether the budget sets its limit (else `cap` alone does)."""

    name: str
    label: str
    takes: frozenset[str]
    style: Style
    cap: int | None = None
    #: whether the text opens with its title (a system prompt says what the block is)
    titled: bool = False


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    description: str
    default_budget: int
    slots: tuple[Slot, ...]


TARGETS: Final[Mapping[str, Target]] = {
    "system-prompt": Target(
        "system-prompt",
        "one block for any LLM's system prompt",
        6000,
        (Slot("prompt", "title", _ALL, "grouped", titled=True),),
    ),
    "chatgpt": Target(
        "chatgpt",
        "ChatGPT's two custom-instruction fields and a list for its memory",
        3000,
        (
            Slot("about", "chatgpt.about", _WHO, "grouped", CHATGPT_FIELD_LIMIT),
            Slot("respond", "chatgpt.respond", _HOW, "grouped", CHATGPT_FIELD_LIMIT),
            Slot("memory", "chatgpt.memory", _ALL, "lines"),
        ),
    ),
    "claude": Target(
        "claude",
        "the text Claude's memory import and a project's instructions accept",
        6000,
        (
            Slot("project", "claude.project", _HOW, "grouped"),
            Slot("memory", "claude.memory", _ALL, "grouped"),
        ),
    ),
    "gemini": Target(
        "gemini",
        "Gemini's Saved info entries and a Gem's instructions",
        4000,
        (
            Slot("gem", "gemini.gem", _HOW, "grouped"),
            Slot("saved", "gemini.saved", _ALL, "lines"),
        ),
    ),
}


#: A Markdown heading line: ``## Stack``, ``**Purpose**``, ``__Purpose__:``.
_HEADING: Final = re.compile(r"#{1,6}\s+(?P<a>.+?)|\*\*(?P<b>[^*]+)\*\*:?|__(?P<c>[^_]+)__:?")
#: A list item line: ``- x``, ``* x``, ``• x``, ``1. x``.
_ITEM: Final = re.compile(r"(?:[-*+•]|\d+[.)])\s+(?P<text>.+)")
#: Emphasis inside a line (``**x**``, ``__x__``, ``*x*``); a lone ``2*3`` or ``snake_case`` stays.
_EMPHASIS: Final = re.compile(
    r"\*\*(?P<a>[^*]+?)\*\*|(?<![\w])__(?P<b>[^_]+?)__(?![\w])|"
    r"(?<![\w*])\*(?P<c>[^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])"
)


def _plain(text: str) -> str:
    return _EMPHASIS.sub(lambda m: m["a"] or m["b"] or m["c"], " ".join(text.split()))


def item_text(memory: Memory) -> str:
    """A memory as one line of plain text, as pasted into an assistant: line breaks folded,
    Markdown headings as "Heading:", list items joined with "; ", emphasis marks dropped
    (Claude's project memories are Markdown sections)."""
    out = ""
    previous = ""
    for raw in memory.content.splitlines():
        line = raw.strip()
        if not line:
            continue
        heading, item = _HEADING.fullmatch(line), _ITEM.fullmatch(line)
        if heading:
            kind, text = "heading", _plain(heading["a"] or heading["b"] or heading["c"]) + ":"
        elif item:
            kind, text = "item", _plain(item["text"])
        else:
            kind, text = "line", _plain(line)
        if not out:
            out = text
        elif kind == "heading":
            out += ("" if out[-1] in ".!?;:" else ".") + " " + text
        elif kind == "item" and previous == "item":
            # an item that ends its own sentence needs no "; " after it ("disease.; Is…")
            out += (" " if out[-1] in ".!?;:" else "; ") + text
        else:
            out += " " + text
        previous = kind
    return out


@dataclass(slots=True)
class _Filling:
    """What one slot holds so far (category, memory id, line; best first), and the exact
    length of its text."""

    slot: Slot
    limit: int
    language: str
    entries: list[tuple[str, str, str]] = field(default_factory=list)
    categories: set[str] = field(default_factory=set)
    length: int = 0

    @property
    def prefix(self) -> str:
        return f"{LABELS[self.language][self.slot.label]}:\n\n" if self.slot.titled else ""

    def cost(self, cat: str, line: str) -> int:
        """How much longer the text gets with `line` under `cat`."""
        if not self.length:
            return len(self.prefix) + self._cost(cat, line, first=True)
        return self._cost(cat, line, first=False)

    def _cost(self, cat: str, line: str, *, first: bool) -> int:
        if self.slot.style == "lines":
            return len(line) + (0 if first else 1)
        bullet = len(line) + 3  # "\n- " before each item
        if cat in self.categories:
            return bullet
        heading = len(LABELS[self.language][cat]) + 1  # "Heading:"
        # A new group: its heading, and a blank line before it unless it is the first.
        return bullet + heading + (0 if first else 2)

    def add(self, memory_id: str, cat: str, line: str, cost: int) -> None:
        self.entries.append((cat, memory_id, line))
        self.categories.add(cat)
        self.length += cost

    def _ordered(self) -> list[tuple[str, str, str]]:
        """Lines best first; grouped texts by heading (best first within each)."""
        if self.slot.style == "lines":
            return self.entries
        rank = {cat: i for i, cat in enumerate(CATEGORIES)}
        return sorted(self.entries, key=lambda entry: rank[entry[0]])

    def render(self) -> str:
        if not self.entries:
            return ""
        if self.slot.style == "lines":
            return self.prefix + "\n".join(line for _, _, line in self.entries)
        words = LABELS[self.language]
        blocks: list[str] = []
        current = None
        for cat, _, line in self._ordered():
            if cat != current:
                blocks.append(f"{words[cat]}:")
                current = cat
            blocks[-1] += f"\n- {line}"
        return self.prefix + "\n\n".join(blocks)

    def ids(self) -> list[str]:
        return [memory_id for _, memory_id, _ in self._ordered()]


@dataclass(frozen=True, slots=True)
class Text:
    """One rendered text: the slot's name, its title (in the rendering's language), the text,
    its limit in characters and the ids of the memories it carries."""

    name: str
    title: str
    text: str
    limit: int
    memory_ids: tuple[str, ...]


def pack(
    target: Target, memories: Sequence[Memory], budget: int, language: str
) -> tuple[list[Text], int, int]:
    """Fill `target`'s slots with `memories` (best first). Returns the texts, and how many
    memories were left out for want of room and because they are longer than any slot."""
    fillings = [
        _Filling(s, budget if s.cap is None else min(s.cap, budget), language) for s in target.slots
    ]
    over = too_long = 0
    for memory in memories:
        cat = category(memory)
        line = item_text(memory)
        placed = False
        for filling in fillings:
            if cat not in filling.slot.takes:
                continue
            cost = filling.cost(cat, line)
            if filling.length + cost <= filling.limit:
                filling.add(memory.id, cat, line, cost)
                placed = True
                break
        if placed:
            continue
        # Would it fit in an empty slot? Then only room was missing; else it never could.
        if any(
            _Filling(f.slot, f.limit, language).cost(cat, line) <= f.limit
            for f in fillings
            if cat in f.slot.takes
        ):
            over += 1
        else:
            too_long += 1
    texts = []
    words = LABELS[language]
    for filling in fillings:
        text = filling.render()
        # The lengths are counted as the text is rendered; this only guards that promise.
        if len(text) > filling.limit:  # pragma: no cover - would be a counting bug
            raise AssertionError(f"{filling.slot.name}: {len(text)} > {filling.limit}")
        texts.append(
            Text(filling.slot.name, words[filling.slot.label], text, filling.limit,
                 tuple(filling.ids()))
        )  # fmt: skip
    return texts, over, too_long
