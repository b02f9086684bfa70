"""A pasted memory list: one memory per item.

What a user copies out of ChatGPT's "Manage memories" screen (one memory per line), the answer
to "repeat the Model Set Context verbatim" (numbered ``1. [2024-05-01]. text`` lines), or any
bullet list (``-``, ``*``, ``•``, ``1.``, ``1)``). Each item becomes a PAM memory object with a
type guessed from its wording (`guess_type`, English and Portuguese; the rules are listed in
docs/importers.md) and a language tag when the wording is clearly Portuguese or English.

Ids come from the platform and the content hash (PAM §6), so pasting the same list twice adds
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from memvault.canonical import content_hash
from memvault.importers.base import (
    ImportContext,
    ImportedMemory,
    Importer,
    ImporterId,
    ImportFormatError,
    ImportRecord,
)
from memvault.importers.ids import stable_id
from memvault.sources import Target

#: Largest pasted list read (a real one is a few kilobytes).
MAX_TEXT_BYTES: Final = 16 << 20

# `1. [2024-05-01]. text`, `2) [2024-05-01] text`, `- text`, `• text`, `1. text`
_ITEM: Final = re.compile(
    r"^\s{0,3}(?:(?P<num>\d{1,5})[.)]|(?P<bullet>[-*•·–—]))\s+"
    r"(?:\[(?P<date>\d{4}-\d{2}-\d{2})\]\.?\s*)?(?P<text>\S.*)$"
)
_DATED: Final = re.compile(r"^\s*\d{1,5}[.)]\s+\[\d{4}-\d{2}-\d{2}\]")


@dataclass(frozen=True, slots=True)
class Item:
    """One pasted memory: its text and the date the list gave it, if any."""

    text: str
    date: str | None
    line: int


def parse_items(text: str) -> list[Item]:
    """Split a pasted list into items.

    Bullets and numbered lines start items; an indented line continues the item above
    (wrapped text); any other non-empty line is an item of its own, except a short line
    ending in ':' (a heading such as "Model Set Context:"), which is dropped. With no bullets
    at all, every non-empty line is one item (the "Manage memories" copy).
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    matches = [_ITEM.match(line) for line in lines]
    items: list[Item] = []
    if not any(matches):
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped and not _heading(stripped):
                items.append(Item(stripped, None, number))
        return items
    current: list[str] = []
    date: str | None = None
    start = 0
    for number, (line, match) in enumerate(zip(lines, matches, strict=True), 1):
        stripped = line.strip()
        if match is not None:
            if current:
                items.append(Item(" ".join(current), date, start))
            current = [match.group("text").strip()]
            date = match.group("date")
            start = number
        elif not stripped or _heading(stripped):
            continue
        elif current and line[:1] in (" ", "\t"):
            current.append(stripped)  # wrapped text of the item above
        else:
            if current:
                items.append(Item(" ".join(current), date, start))
            current, date, start = [stripped], None, number
    if current:
        items.append(Item(" ".join(current), date, start))
    return items


def _heading(line: str) -> bool:
    return line.endswith(":") and len(line) < 80


# ---------------------------------------------------------------------------------------------
# Type and language guesses
# ---------------------------------------------------------------------------------------------

#: (type, pattern) in the order they are tried; the first that matches wins. Patterns are
#: matched on the lower-cased text, English and Portuguese wording side by side.
_RULES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        (
            "instruction",
            r"\b(wants? (you|me|responses|answers)|prefers? (that )?(you|responses|answers)"
            r"|(always|never) (respond|reply|answer|use)|respond in|reply in|answer in"
            r"|don't use|do not use|address (them|him|her)|call (them|him|her)"
            r"|quer que (eu|você|as respostas)|prefere que (eu|você|as respostas)"
            r"|(sempre|nunca) (responda|use|respond)|responda em|não use|trate-o|chame-o)\b",
        ),
        (
            "relationship",
            r"\b(wife|husband|partner|girlfriend|boyfriend|daughter|son|mother|father|mom|dad"
            r"|sister|brother|friend|colleague|boss|dog|cat|pet"
            r"|esposa|marido|namorad[oa]|filh[oa]|mãe|pai|irmã|irmão|amig[oa]|colega|chefe"
            r"|cachorro|cadela|gat[oa])\b",
        ),
        (
            "preference",
            r"\b(likes?|loves?|enjoys?|prefers?|favou?rite|dislikes?|hates?|can't stand"
            r"|gosta|adora|prefere|favorit[oa]|detesta|odeia|curte)\b",
        ),
        (
            "goal",
            r"\b(wants to|plans? to|planning to|goal|aims? to|hopes? to|is learning|trying to"
            r"|quer |planeja|pretende|objetivo|meta é|está aprendendo|sonha em)",
        ),
        (
            "project",
            r"\b(working on|is building|building an?|project|startup|side project"
            r"|trabalhando (em|no|na)|projeto|desenvolvendo|construindo)\b",
        ),
        (
            "skill",
            r"\b(knows?|proficient|experienced|expert|fluent|skilled|speaks|programs in"
            r"|years of experience|sabe|fluente|experiência|domina|especialista|fala )",
        ),
        (
            "environment",
            r"\b(uses?|using|macos|linux|windows|iphone|android|laptop|editor|vs ?code|vim"
            r"|emacs|usa|utiliza|computador)\b",
        ),
        (
            "identity",
            r"\b(name is|named|is called|years old|lives in|is from|was born|born in|pronouns"
            r"|works as|is an? |nationality|chama-se|se chama|nome é|anos de idade|tem \d+ anos"
            r"|mora em|vive em|nasceu|é de |trabalha como|é um |é uma )",
        ),
    )
)

_PORTUGUESE: Final = re.compile(
    r"(ção|ções|ã|õ|\b(não|é|usuário|usuária|você|gosta|mora|trabalha|tem|quer|para|com"
    r"|uma|seu|sua|mas|também)\b)"
)
_ENGLISH: Final = re.compile(
    r"\b(the|is|and|user|likes|has|with|wants|for|their|lives|works|prefers)\b"
)


def guess_type(text: str) -> str:
    """The PAM memory type (§22.1) a memory's wording suggests; "fact" when nothing does."""
    lowered = text.lower()
    for kind, pattern in _RULES:
        if pattern.search(lowered):
            return kind
    return "fact"


def guess_language(text: str) -> str | None:
    """ "pt" or "en" (BCP 47) when the wording says so, else None."""
    lowered = text.lower()
    pt = len(_PORTUGUESE.findall(lowered))
    en = len(_ENGLISH.findall(lowered))
    if pt > en:
        return "pt"
    if en > pt:
        return "en"
    return None


# ---------------------------------------------------------------------------------------------
# Memory objects
# ---------------------------------------------------------------------------------------------


def memory_object(
    content: str,
    *,
    memory_id: str,
    platform: str,
    created_at: str,
    extraction_method: str,
    extracted_at: str,
    extractor: str | None = None,
    memory_type: str | None = None,
    conversation_ref: str | None = None,
    message_ref: str | None = None,
    platform_user_id: str | None = None,
    valid_from: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A PAM memory object (memory-store schema) for a memory the provider exported."""
    meta: dict[str, Any] = dict(metadata or {})
    language = guess_language(content)
    if language is not None:
        meta.setdefault("language", language)
    memory: dict[str, Any] = {
        "id": memory_id,
        "type": memory_type or guess_type(content),
        "status": "active",
        "content": content,
        "content_hash": content_hash(content),
        "temporal": {"created_at": created_at, "valid_from": valid_from},
        "provenance": {
            "platform": platform,
            "platform_user_id": platform_user_id,
            "conversation_ref": conversation_ref,
            "message_ref": message_ref,
            "extraction_method": extraction_method,
            "extracted_at": extracted_at,
            "extractor": extractor,
        },
    }
    if meta:
        memory["metadata"] = meta
    return memory


def item_memories(
    items: list[Item],
    context: ImportContext,
    *,
    platform: str,
    extraction_method: str,
    source: str,
    extractor: str | None = None,
    conversation_ref: str | None = None,
    message_ref: str | None = None,
    fallback_time: str | None = None,
) -> Iterator[ImportedMemory]:
    """Memory objects for parsed items; the id is the platform, `source` and content hash."""
    for item in items:
        digest = content_hash(item.text)
        created = f"{item.date}T00:00:00Z" if item.date else fallback_time or context.imported_at
        yield ImportedMemory(
            memory_object(
                item.text,
                memory_id=stable_id(platform, "memory", source, digest),
                platform=platform,
                created_at=created,
                valid_from=created if item.date else None,
                extraction_method=extraction_method,
                extracted_at=context.imported_at,
                extractor=extractor,
                conversation_ref=conversation_ref,
                message_ref=message_ref,
                metadata={"source": source},
            )
        )


class MemoryTextImporter(Importer):
    """`--from memory-text`: a pasted list, one memory per item (`parse_items`)."""

    id = ImporterId("memory-text", "2026.11")

    def __init__(self, platform: str = "chatgpt") -> None:
        self.platform = platform

    def sniff(self, target: Target) -> bool:
        """Only the unmistakable shape: a single text file whose first item is a numbered,
        dated line (the Model Set Context answer). Other lists need ``--from memory-text``."""
        if target.kind != "file" or len(target.entries) != 1:
            return False
        with target.entries[0].stream() as stream:
            head = stream.read(4096)
        try:
            text = head.decode("utf-8-sig")
        except UnicodeDecodeError:
            return False
        first = next((line for line in text.splitlines() if line.strip()), "")
        if _heading(first.strip()):
            first = next((line for line in text.splitlines()[1:] if line.strip()), "")
        return bool(_DATED.match(first))

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        if len(target.entries) != 1:
            raise ImportFormatError(
                str(target.path), "a pasted memory list is one text file, not a folder or archive"
            )
        entry = target.entries[0]
        with entry.stream() as stream:
            data = stream.read(MAX_TEXT_BYTES + 1)
        if len(data) > MAX_TEXT_BYTES:
            raise ImportFormatError(
                entry.display, f"more than {MAX_TEXT_BYTES} bytes; a memory list is text"
            )
        yield from self.read_text(data, entry.display, context)

    def read_text(self, data: bytes, where: str, context: ImportContext) -> Iterator[ImportRecord]:
        """The memories of a pasted list given as bytes (a file's or standard input's)."""
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise ImportFormatError(
                f"{where}: line {line}", f"not valid UTF-8 text ({exc.reason})"
            ) from None
        if "\x00" in text:
            raise ImportFormatError(where, "binary data, not a text list of memories")
        items = parse_items(text)
        if not items:
            raise ImportFormatError(where, "no memories found (expected one item per line)")
        yield from item_memories(
            items,
            context,
            platform=self.platform,
            extraction_method="manual",
            source="memory-text",
            extractor=extractor_of(context),
        )


def extractor_of(context: ImportContext) -> str | None:
    """`provenance.extractor` must be ``name/x.y.z``; the importer string is, when released."""
    return (
        context.importer
        if re.fullmatch(r"[A-Za-z0-9_-]+/\d+\.\d+\.\d+", context.importer)
        else None
    )


IMPORTER: Final = MemoryTextImporter()
