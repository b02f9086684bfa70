"""Conversations over HTTP: list, get (the PAM conversation document, §25) and erase.
Conversations are the owner's: an agent's token is refused by the vault (PAM §9)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from memvault import shapes
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.vault import Vault

router = APIRouter(prefix="/v1/conversations", tags=["conversations"])

Reader = Annotated[Vault, Depends(session_for("memories:read"))]
Eraser = Annotated[Vault, Depends(session_for("erase"))]


@router.get("", summary="List conversations, newest first")
def list_conversations(
    vault: Reader,
    platform: str | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> JSONAnswer:
    """`{"total", "offset", "limit", "conversations": [{"id", "platform", "title",
    "created_at", "updated_at", "message_count"}]}`: one page, newest first (those without
    `created_at` last), read without loading any conversation's messages."""
    page = vault.conversation_page(platform, limit=limit, offset=offset)
    return answer(
        {
            "total": page.total,
            "offset": offset,
            "limit": limit,
            "conversations": [shapes.conversation_summary_json(c) for c in page.items],
        }
    )


@router.get("/{conversation_id}", summary="One conversation, messages included")
def get_conversation(vault: Reader, conversation_id: str) -> JSONAnswer:
    """The PAM conversation document (PAM §25)."""
    return answer(dict(vault.get_conversation(conversation_id).document))


@router.delete("/{conversation_id}", summary="Erase a conversation (AIMEM §5.2)")
def erase_conversation(vault: Eraser, conversation_id: str) -> JSONAnswer:
    """Hard-delete the conversation with its messages, recall passages and vectors; the
    memories derived from it stay. `{"conversation", "messages", "passages", "vectors",
    "durable"}`."""
    return answer(shapes.conversation_erasure_json(vault.erase_conversation(conversation_id)))
