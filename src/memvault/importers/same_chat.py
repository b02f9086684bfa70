"""Finding a conversation by its messages when its id was derived from content a source may
lack (`Importer.conversation_ids_from_content`).

Copilot's export names no conversation: the importer names a chat by its name and the time of
its first message. A source that lacks a chat's first messages (the activity history without
the chat-activity file, an older export) names the same chat otherwise, and the vault would
keep it twice. Message ids do not depend on the conversation (they are derived from the chat,
the moment, the role and the text), so a new conversation whose messages the vault already
holds in a stored conversation of the same platform and title is that conversation: it takes
the stored id, and the vault's merge (`memvault.conversation_merge`) does the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import orjson

from memvault.store.base import StoredConversation
from memvault.store.documents import EncodedDocument, document_json
from memvault.vault import Vault

__all__ = ["SameChat"]


def _document(conversation: StoredConversation) -> dict[str, Any]:
    document = conversation.document
    if isinstance(document, EncodedDocument):
        parsed: dict[str, Any] = orjson.loads(document_json(document.frame))
        return parsed
    return dict(document)


def _message_ids(document: Mapping[str, Any]) -> set[str]:
    messages = document.get("messages")
    if not isinstance(messages, list):
        return set()
    return {m["id"] for m in messages if isinstance(m, dict) and isinstance(m.get("id"), str)}


class SameChat:
    """The stored ids one import adopts for conversations it names otherwise."""

    def __init__(self, vault: Vault, adopted: dict[str, str]) -> None:
        self._vault = vault
        #: incoming conversation id -> the stored id it takes (shared with `LegacyIds`, so
        #: that memories naming the conversation follow it)
        self.adopted = adopted

    def conversations(self, batch: list[StoredConversation]) -> list[StoredConversation]:
        stored = self._vault.conversation_ids(c.id for c in batch)
        return [c if c.id in stored else self._found(c) for c in batch]

    def _found(self, conversation: StoredConversation) -> StoredConversation:
        if conversation.title is None:
            return conversation
        vault = self._vault
        candidates = [
            i
            for i in vault.conversation_ids_titled(conversation.platform, conversation.title)
            if i != conversation.id
        ]
        if not candidates:
            return conversation
        document = _document(conversation)
        messages = _message_ids(document)
        for candidate in candidates:
            held = vault.get_conversation(candidate)
            if messages & _message_ids(held.document):
                self.adopted[conversation.id] = candidate
                document["id"] = candidate
                return dataclasses.replace(
                    conversation,
                    id=candidate,
                    document=EncodedDocument.of(document)
                    if isinstance(conversation.document, EncodedDocument)
                    else document,
                )
        return conversation
