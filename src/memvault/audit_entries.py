"""The audit entries of changes that more than one path makes.

A relation, a conversation or an embedding is stored by the vault's own methods and, in
bulk, by the PAM and AIMEM imports (which batch their entries, `AuditBatch`). Each kind of
entry is built here once, so that the same change is recorded the same way whichever path
made it; `via` names the import that did.

Conversations are recorded one entry per conversation (``conversation``: its id, platform and
message count) when one is stored alone, and one entry per platform for a batch stored
together (``conversations``: the ids and the message counts, in the order stored), as an
import stores them: the 36,944 conversations of a 300 MB ChatGPT export made as many entries,
0.44 of the importing process's ~5.3 CPU-s (289 batch entries: 0.04). Readers of what was
stored take both forms (`stored_conversation_ids`); a vault written before the batched form
holds only the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from memvault.audit import PendingEntry
from memvault.model import Relation
from memvault.store.base import StoredConversation, StoredEmbedding

__all__ = [
    "CONVERSATION",
    "CONVERSATIONS",
    "CONVERSATION_ACTIONS",
    "conversation_entries",
    "conversation_entry",
    "embedding_entry",
    "relation_entry",
    "stored_conversation_ids",
]

#: The action of one conversation stored alone: details ``{"conversation_id", "platform",
#: "messages"}``.
CONVERSATION: Final = "conversation"
#: The action of a batch of conversations of one platform stored together: details
#: ``{"platform", "conversation_ids", "messages"}`` (``messages[i]`` counts the messages of
#: ``conversation_ids[i]``; an id stored twice in the batch is listed twice).
CONVERSATIONS: Final = "conversations"
#: Both: what a reader of the conversations stored asks the log for.
CONVERSATION_ACTIONS: Final = (CONVERSATION, CONVERSATIONS)


def relation_entry(
    relation: Relation, content_hash: str | None, actor: str, via: str | None = None
) -> PendingEntry:
    """A relation made or re-weighted, recorded on its source memory (`relation.from_`, whose
    content hash is `content_hash`)."""
    confidence = relation.confidence
    details: dict[str, Any] = {
        "relation_id": relation.id,
        "to": relation.to,
        "type": relation.type,
        "confidence": confidence if isinstance(confidence, int | float) else None,
    }
    if via is not None:
        details["via"] = via
    return PendingEntry("relate", actor, relation.from_, content_hash, details)


def conversation_entry(conversation: StoredConversation, actor: str) -> PendingEntry:
    """A conversation stored, new or changed (PAM §25)."""
    return PendingEntry(
        CONVERSATION,
        actor,
        details={
            "conversation_id": conversation.id,
            "platform": conversation.platform,
            "messages": conversation.message_count,
        },
    )


def conversation_entries(
    conversations: Sequence[StoredConversation], actor: str
) -> list[PendingEntry]:
    """The entries of conversations stored together, new or changed (PAM §25): one
    `conversation_entry` for a single conversation, else one ``conversations`` entry per
    platform, in the order of each platform's first conversation."""
    if len(conversations) == 1:
        return [conversation_entry(conversations[0], actor)]
    by_platform: dict[str, tuple[list[str], list[int]]] = {}
    for conversation in conversations:
        ids, counts = by_platform.setdefault(conversation.platform, ([], []))
        ids.append(conversation.id)
        counts.append(conversation.message_count)
    return [
        PendingEntry(
            CONVERSATIONS,
            actor,
            details={"platform": platform, "conversation_ids": ids, "messages": counts},
        )
        for platform, (ids, counts) in by_platform.items()
    ]


def stored_conversation_ids(action: str, details: Mapping[str, Any]) -> list[str]:
    """The ids of the conversations an audit entry says were stored, in its order: one for a
    ``conversation`` entry, the batch's for a ``conversations`` entry, none for any other."""
    if action == CONVERSATION:
        found = details.get("conversation_id")
        return [found] if isinstance(found, str) else []
    if action == CONVERSATIONS:
        ids = details.get("conversation_ids")
        if isinstance(ids, list):
            return [i for i in ids if isinstance(i, str)]
    return []


def embedding_entry(
    embedding: StoredEmbedding,
    memory_id: str,
    content_hash: str | None,
    actor: str,
    via: str | None = None,
) -> PendingEntry:
    """An embedding of memory `memory_id` stored (PAM §12): its model and size, never the
    vector."""
    details: dict[str, Any] = {"model": embedding.model, "dimensions": embedding.dimensions}
    if via is not None:
        details["via"] = via
    return PendingEntry("embedding", actor, memory_id, content_hash, details)
