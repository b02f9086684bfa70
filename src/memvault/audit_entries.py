"""The audit entries of changes that more than one path makes.

A relation, a conversation or an embedding is stored by the vault's own methods and, in
bulk, by the PAM and AIMEM imports (which batch their entries, `AuditBatch`). Each kind of
entry is built here once, so that the same change is recorded the same way whichever path
made it; `via` names the import that did.
"""

from __future__ import annotations

from typing import Any

from memvault.audit import PendingEntry
from memvault.model import Relation
from memvault.store.base import StoredConversation, StoredEmbedding

__all__ = ["conversation_entry", "embedding_entry", "relation_entry"]


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
        "conversation",
        actor,
        details={
            "conversation_id": conversation.id,
            "platform": conversation.platform,
            "messages": conversation.message_count,
        },
    )


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
