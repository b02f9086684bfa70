"""The interface every provider importer implements.

An importer reads a `sources.Target` (the export as a zip, a folder or a single file) and
yields, streaming, two kinds of records:

- `ImportedConversation`: a PAM normalized conversation document (§25; a dict that validates
  against the official conversation schema), with `import_metadata` filled from the context;
- `ImportedMemory`: a PAM memory object (a dict per the memory-store schema, `content_hash`
  computed) for memories the provider itself exports (ChatGPT custom instructions and `bio`
  writes, Claude `memories.json`, a pasted memory list…);
- `ConversationJson`, in place of an `ImportedConversation`, only when the caller asks for it
  (`ImportContext.conversations_as_json`) and the importer can write the document's JSON
  directly (ChatGPT's common conversations).

Importers never touch the vault: the caller stores what they yield, in one transaction.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.sources import Target


@dataclass(frozen=True, slots=True)
class ImporterId:
    """``provider`` is the PAM platform name (§11.4: chatgpt, claude, gemini, copilot, grok…);
    ``version`` is this importer's format version (§25.5), kept when a newer one is added."""

    provider: str
    version: str

    @property
    def importer_version(self) -> str:
        """E.g. ``chatgpt-importer/2026.11``."""
        return f"{self.provider}-importer/{self.version}"


@dataclass(slots=True)
class ImportContext:
    """What every record of one import shares, and where importers report what they met."""

    #: RFC 3339 UTC, the moment of the import (also the `extracted_at` of exported memories)
    imported_at: str
    #: `import_metadata.importer`, e.g. ``memvault/0.4.0``
    importer: str
    #: path of the file or archive the user named, as shown to them
    source_file: str
    #: ``sha256:<hex>`` of that file, when it is a single file or an archive
    source_checksum: str | None = None
    #: non-fatal things worth telling the user (entry, record, what was odd)
    warnings: list[str] = field(default_factory=list)
    #: called with the number of bytes read so far, for progress bars
    progress: Any = None
    #: the reader takes a conversation as `ConversationJson` where the importer can write its
    #: JSON directly (what an import's reader process sends on as it is); else always as
    #: `ImportedConversation`
    conversations_as_json: bool = False

    def import_metadata(
        self, importer: ImporterId, source_file: str | None = None
    ) -> dict[str, Any]:
        """The `import_metadata` block of a conversation (§25)."""
        block: dict[str, Any] = {
            "importer": self.importer,
            "importer_version": importer.importer_version,
            "imported_at": self.imported_at,
            "source_file": source_file or self.source_file,
        }
        if self.source_checksum is not None:
            block["source_checksum"] = self.source_checksum
        return block


@dataclass(frozen=True, slots=True)
class ImportedConversation:
    document: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ConversationColumns:
    """What an index keeps of a conversation beside its document (the vault's conversations
    table, a memory-store's `conversations` list)."""

    id: str
    platform: str
    title: str | None
    created_at: str | None
    updated_at: str | None
    message_count: int


@dataclass(frozen=True, slots=True)
class ConversationJson(ConversationColumns):
    """A conversation as the JSON of its document, keys sorted (what `orjson.dumps(document,
    option=OPT_SORT_KEYS)` makes of the `ImportedConversation` document), with its index
    columns. Only when `ImportContext.conversations_as_json` is set. `passages`: the JSON of
    its recall rows (`memvault.recall.index.message_rows` of the document), where the
    importer cut them as it wrote the document; else None."""

    data: bytes
    passages: bytes | None = None


@dataclass(frozen=True, slots=True)
class ImportedMemory:
    memory: Mapping[str, Any]


ImportRecord = ImportedConversation | ImportedMemory | ConversationJson


@dataclass(frozen=True, slots=True)
class ItemDone:
    """In `Importer.read_shard`: every record of the export's item `index` was yielded."""

    index: int


@dataclass(frozen=True, slots=True)
class ShardEnd:
    """Last of `Importer.read_shard`: warnings that hold only when every shard gives them
    (about the whole export, e.g. feedback for a conversation no shard met)."""

    warnings: tuple[str, ...]


ShardRecord = ImportRecord | ItemDone | ShardEnd


class ImportFormatError(VaultError):
    """The export is not what the importer expects: names the entry, the record and the
    field, e.g. ``conversations.json: conversation 12 (id …): field 'mapping': expected an
    object``."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class Importer(ABC):
    """One provider's export format."""

    id: ImporterId
    #: True when the export names no conversation and the importer derives a conversation's
    #: id from its content (Copilot: the chat's name and first message): a source lacking a
    #: chat's first messages then names it otherwise, and the import finds it by its
    #: messages instead (`importers/same_chat.py`).
    conversation_ids_from_content: ClassVar[bool] = False

    @abstractmethod
    def sniff(self, target: Target) -> bool:
        """True when the target's content (entry names and the first bytes of the main
        file, never the whole file) looks like this provider's export."""

    @abstractmethod
    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        """Yield the conversations and memories of the export, streaming (bounded memory
        however large the input). Raise ImportFormatError for input that cannot be read."""


class Shard:
    """Which items of an export one of several reader processes converts: every `count`-th
    from `number` here; as the readers ask for them (`importers/pipe.py`) in a subclass.
    `mine` is asked about the items in their order (item 0 may be asked about before the
    reading starts); `settle` is called where the items end, and before a reader stops at
    a damaged one, so that the item is someone's and that reader says what stopped it."""

    def __init__(self, number: int, count: int) -> None:
        self.number = number
        self.count = count

    def mine(self, index: int) -> bool:
        """Whether this reader converts item `index`."""
        return index % self.count == self.number

    def settle(self, index: int) -> None:
        """Items up to `index` have a reader (nothing to do when they are dealt in turn)."""

    def ends_run(self, index: int) -> bool:
        """Whether item `index`, this reader's, is the last of the items it took together
        (the merging side is told once a run is done, not after every item)."""
        return True


class ShardableImporter(Importer):
    """An importer whose reading can be split over several processes (`importers/pipe.py`
    forks several readers while the parent writes)."""

    @abstractmethod
    def read_shard(
        self, target: Target, context: ImportContext, shard: Shard
    ) -> Iterator[ShardRecord]:
        """`read` split over several processes: the records of the items `shard.mine`
        gives this one, each item's followed by `ItemDone` (the others' items are skipped,
        not converted), then one `ShardEnd`. Warnings about the export as a whole (made
        before the first item) are given by the reader of item 0 only. Merged in item order
        and with memories kept once by id, the readers yield what `read` does."""
