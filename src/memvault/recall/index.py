"""The recall index: passages of memories and messages, their full-text entries and vectors.

What a backend's recall index (`memvault.recall.indexes`) stores, cut from memories and
conversations the same way on every backend; the store writes the passages as it writes what
they come from, in the same transaction, so the index never lags the data.

A memory is one passage (content and summary; tags and type as context). A message is one
passage or, when long, several (`split`), each keeping the message id. A passage's full-text
entry is the analysed text (`memvault.recall.analysis`); its vectors are dropped with it, so
erasing a memory leaves neither words nor vectors of it behind (AIMEM §5.2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import orjson

from memvault.model import Memory, timestamp_epoch
from memvault.recall import analysis
from memvault.recall.indexes import Passage

__all__ = [
    "MAX_PASSAGE_CHARS",
    "Analysed",
    "Passage",
    "analysed",
    "conversation_passages",
    "extraction_sources",
    "memory_conversation",
    "memory_passage",
    "message_rows",
    "message_rows_json",
    "message_text",
    "split",
]

#: A message longer than this is split into passages of at most this many characters (about
#: 250 words: what a small embedding model reads whole, and short enough that BM25 does not
#: favour a long message for a word it mentions once).
MAX_PASSAGE_CHARS: Final = 1500
#: The shortest piece a split leaves before a break (so a split does not make crumbs).
_MIN_PIECE: Final = 600
_BREAKS: Final = (re.compile(r"\n\s*\n"), re.compile(r"[.!?…]\s"), re.compile(r"\s"))


# -- what is indexed ---------------------------------------------------------------------------


_epoch = timestamp_epoch


def split(text: str, limit: int = MAX_PASSAGE_CHARS) -> list[str]:
    """`text` in pieces of at most `limit` characters, broken at a paragraph, else a sentence,
    else a space (else anywhere), never before `_MIN_PIECE` characters."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = limit
        for pattern in _BREAKS:
            ends = [m.end() for m in pattern.finditer(rest, _MIN_PIECE, limit)]
            if ends:
                cut = ends[-1]
                break
        piece = rest[:cut].strip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].strip()
    if rest:
        pieces.append(rest)
    return pieces


def message_text(message: Mapping[str, Any]) -> str:
    """The words of a PAM message (§25.3): its text, or its parts' texts."""
    content = message.get("content")
    if type(content) is not dict and not isinstance(content, Mapping):
        return content if isinstance(content, str) else ""
    text = content.get("text")
    if isinstance(text, str) and text.strip():
        return text
    parts = content.get("parts")
    if isinstance(parts, list):
        return "\n\n".join(
            p["text"] for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str)
        )
    return ""


def _participants(document: Mapping[str, Any]) -> dict[str, str]:
    """The name a conversation gives each role, where it gives one."""
    names: dict[str, str] = {}
    participants = document.get("participants")
    if isinstance(participants, list):
        for p in participants:
            if isinstance(p, Mapping):
                role, name = p.get("role"), p.get("name")
                if isinstance(role, str) and isinstance(name, str) and name.strip():
                    names.setdefault(role, name.strip())
    return names


def conversation_passages(
    conversation_id: str, platform: str | None, document: Mapping[str, Any]
) -> list[Passage]:
    """The passages of a conversation's messages (PAM §25), in message order."""
    messages = document.get("messages")
    if not isinstance(messages, list):
        return []
    title = document.get("title")
    title = title.strip() if isinstance(title, str) else ""
    names = _participants(document)
    passages: list[Passage] = []
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        message_id = message.get("id")
        if not isinstance(message_id, str):
            continue
        text = message_text(message)
        if not text.strip():
            continue
        role = message.get("role")
        role = role if isinstance(role, str) else None
        name = names.get(role) if role else None
        context = f"{name} {title}" if name else title
        at = _epoch(message.get("created_at"))
        for part, piece in enumerate(split(text)):
            passages.append(
                Passage(
                    "message",
                    None,
                    conversation_id,
                    message_id,
                    part,
                    role,
                    name,
                    platform,
                    at,
                    piece,
                    context,
                )
            )
    return passages


def memory_conversation(memory: Memory) -> str | None:
    """The conversation a memory came from: its provenance, else its first extraction source."""
    ref = memory.provenance.conversation_ref
    if isinstance(ref, str) and ref:
        return ref
    for source in extraction_sources(memory):
        conversation, _, _ = source.partition("#")
        if conversation:
            return conversation
    return None


def extraction_sources(memory: Memory) -> list[str]:
    """``conversation#message`` references of the messages an extraction read the memory
    from (``metadata.extraction.sources``)."""
    meta = memory.metadata if isinstance(memory.metadata, Mapping) else {}
    block = meta.get("extraction")
    sources = block.get("sources") if isinstance(block, Mapping) else None
    return [s for s in sources if isinstance(s, str)] if isinstance(sources, list) else []


def memory_passage(seq: int, memory: Memory) -> Passage:
    """A memory's one passage: content and summary; its tags and type as context."""
    summary = memory.summary if isinstance(memory.summary, str) else ""
    tags = memory.tags if isinstance(memory.tags, (list, tuple)) else ()
    words = [t for t in tags if isinstance(t, str)]
    kind = memory.custom_type if isinstance(memory.custom_type, str) else memory.type
    context = " ".join([*words, str(kind)])
    temporal = memory.temporal
    at = _epoch(temporal.updated_at) or _epoch(temporal.created_at)
    platform = memory.provenance.platform
    body = memory.content if not summary else f"{memory.content}\n{summary}"
    return Passage(
        "memory",
        seq,
        memory_conversation(memory),
        None,
        0,
        None,
        None,
        platform if isinstance(platform, str) else None,
        at,
        body,
        context,
    )


#: A passage ready to write: the ten `Passage` columns before its context, then the analysed
#: text of its words and of its context (`analysis.indexable`).
Analysed = tuple[Any, ...]


def analysed(passage: Passage) -> Analysed:
    indexable = analysis.indexable
    context = indexable(passage.context) if passage.context else ""
    return (*passage[:10], indexable(passage.text), context)


def message_rows(document: Mapping[str, Any]) -> list[list[Any]]:
    """A conversation's message passages, analysed, without its id and platform: what a
    reader process computes while it converts an export (`memvault.importers.pipe`), so the
    writing process only writes them. Each row: message id, part, role, participant, time,
    text, analysed words (None when they are the text: the C tokenizer analyses as it
    indexes, so the text is not sent twice), analysed context."""
    # The rows of `conversation_passages` through `analysed`, in one loop: it runs for every
    # message of an import, in the readers, where the two steps with their tuples and ABC
    # isinstance checks took twice the CPU (0.27 s, not 0.14 s, for the 3,695 conversations
    # of the 30 MB ChatGPT export). A dict is checked by its type first, anything else by
    # `Mapping` still.
    messages = document.get("messages")
    if not isinstance(messages, list):
        return []
    title = document.get("title")
    title = title.strip() if isinstance(title, str) else ""
    names = _participants(document)
    indexable = analysis.indexable
    rows: list[list[Any]] = []
    for message in messages:
        if type(message) is not dict and not isinstance(message, Mapping):
            continue
        message_id = message.get("id")
        if not isinstance(message_id, str):
            continue
        text = message_text(message).strip()
        if not text:
            continue
        role = message.get("role")
        role = role if isinstance(role, str) else None
        name = names.get(role) if role else None
        context = f"{name} {title}" if name else title
        context = indexable(context) if context else ""
        at = _epoch(message.get("created_at"))
        pieces = [text] if len(text) <= MAX_PASSAGE_CHARS else split(text)
        for part, piece in enumerate(pieces):
            words = indexable(piece)
            rows.append(
                [message_id, part, role, name, at, piece, None if words == piece else words,
                 context]
            )  # fmt: skip
    return rows


def message_rows_json(message: bytes, title: object) -> bytes:
    """The `message_rows` of one PAM message (its JSON) in a conversation titled `title`, as
    JSON without the brackets: what the C conversion of an export
    (`memvault.importers._chatgpt_direct`) asks for a message it does not cut itself."""
    rows = message_rows({"title": title, "messages": [orjson.loads(message)]})
    return orjson.dumps(rows)[1:-1]
