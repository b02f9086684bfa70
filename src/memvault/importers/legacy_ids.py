"""Importing into a vault made by memvault 0.1.0, whose imported records carry ids with
version nibble 5 where `ids.stable_id` now writes 4 (the same hash: `ids.legacy_twin`).

A record the vault holds under its older id keeps that id: an incoming conversation, message
or memory whose id is absent but whose twin is stored takes the twin, so importing the same
export again adds nothing and nothing a user already exported or signed is renamed (the audit
log, which names every id, stays as it was). docs/decisions.md, "Imported ids"."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, Final

import orjson

from memvault.importers.ids import legacy_twin
from memvault.store.base import StoredConversation
from memvault.store.documents import EncodedDocument, document_json
from memvault.vault import Vault

__all__ = ["LegacyIds"]

_UUID: Final = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


class LegacyIds:
    """The older ids one import adopts, gathered as its batches are stored."""

    def __init__(self, vault: Vault) -> None:
        self._vault = vault
        #: incoming id -> the id the vault already has (conversations and their messages)
        self.adopted: dict[str, str] = {}
        #: whether the vault held no conversation before the import's first write (then it
        #: holds no older id, and what the import stores never is one: nothing to look up)
        self._fresh: bool | None = None

    def conversations(self, batch: list[StoredConversation]) -> list[StoredConversation]:
        """`batch`, each conversation the vault holds under its older id renamed to it
        (its messages too: the stored ones carry the older ids)."""
        if self._fresh:
            return batch  # (a look-up per batch: 0.2 CPU-s of a 300 MB import's writing)
        twins = {c.id: t for c in batch if (t := legacy_twin(c.id)) is not None}
        if not twins:
            return batch
        stored = self._vault.conversation_ids([*twins, *twins.values()])
        if self._fresh is None:  # before the import's first write
            self._fresh = not stored and self._vault.count_conversations() == 0
        older = {new: old for new, old in twins.items() if new not in stored and old in stored}
        if not older:
            return batch
        return [self._renamed(c) if c.id in older else c for c in batch]

    def _renamed(self, conversation: StoredConversation) -> StoredConversation:
        document = conversation.document
        text = (
            document_json(document.frame)
            if isinstance(document, EncodedDocument)
            else orjson.dumps(dict(document), option=orjson.OPT_SORT_KEYS)
        )
        ids = {conversation.id}
        messages = orjson.loads(text).get("messages")
        if isinstance(messages, list):
            ids.update(
                m["id"] for m in messages if isinstance(m, dict) and isinstance(m.get("id"), str)
            )
        renames = {i: t for i in ids if (t := legacy_twin(i)) is not None}
        self.adopted.update(renames)
        wanted = {i.encode(): t.encode() for i, t in renames.items()}
        # Each id is a 36-character hash: renaming its every occurrence renames the message
        # ids and the parent and child references to them, and nothing else.
        renamed = _UUID.sub(lambda m: wanted.get(m.group(0), m.group(0)), text)
        new_document = orjson.loads(renamed)
        return dataclasses.replace(
            conversation,
            id=renames[conversation.id],
            document=EncodedDocument.of(new_document)
            if isinstance(document, EncodedDocument)
            else new_document,
        )

    def memories(self, memories: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """`memories` (PAM memory objects), each the vault holds under its older id renamed
        to it, and references to adopted conversations and messages renamed with them."""
        twins = {
            m["id"]: t
            for m in memories
            if isinstance(m.get("id"), str) and (t := legacy_twin(m["id"])) is not None
        }
        present = self._vault.memory_hashes([*twins, *twins.values()]) if twins else {}
        older = {new: old for new, old in twins.items() if new not in present and old in present}
        refs = self._conversation_refs(memories)
        if not older and not refs:
            return memories
        return [self._memory(m, older, refs) for m in memories]

    def _conversation_refs(self, memories: list[Mapping[str, Any]]) -> dict[str, str]:
        """Adopted ids, and the older ids of conversations memories name that this import did
        not carry but the vault holds under them."""
        refs = dict(self.adopted)
        named = {
            ref
            for m in memories
            if isinstance(ref := _provenance(m).get("conversation_ref"), str) and ref not in refs
        }
        twins = {n: t for n in named if (t := legacy_twin(n)) is not None}
        if twins:
            stored = self._vault.conversation_ids([*twins, *twins.values()])
            refs.update({n: t for n, t in twins.items() if n not in stored and t in stored})
        return refs

    @staticmethod
    def _memory(
        memory: Mapping[str, Any], older: Mapping[str, str], refs: Mapping[str, str]
    ) -> Mapping[str, Any]:
        out = dict(memory)
        if memory.get("id") in older:
            out["id"] = older[memory["id"]]
        provenance = _provenance(memory)
        conversation = provenance.get("conversation_ref")
        if isinstance(conversation, str) and conversation in refs:
            changed = dict(provenance)
            changed["conversation_ref"] = refs[conversation]
            message = provenance.get("message_ref")
            if isinstance(message, str):
                changed["message_ref"] = refs.get(message) or legacy_twin(message) or message
            out["provenance"] = changed
        return out


def _provenance(memory: Mapping[str, Any]) -> Mapping[str, Any]:
    provenance = memory.get("provenance")
    return provenance if isinstance(provenance, Mapping) else {}
