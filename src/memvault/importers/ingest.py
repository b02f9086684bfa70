"""Store what an importer yields in the vault: in one transaction, streaming.

Conversations are written in small batches as they arrive (never all held at once); memories
are gathered (a provider exports few) and added at the end, still inside the same transaction,
so an error anywhere — a damaged conversation halfway through a gigabyte file — leaves the
vault exactly as it was. Importing the same export again changes nothing
(`Vault.put_conversations` ignores `import_metadata`; `Vault.add_memories_unless_known` skips
memories the vault already has); a newer export of the same account adds only what is new.
The export is read and converted by child processes while this one writes (`pipe`).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from memvault import __version__
from memvault.bulk import gc_paused
from memvault.conversation_merge import conversation_row
from memvault.errors import InvalidInput
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    Importer,
    ImportRecord,
)
from memvault.importers.legacy_ids import LegacyIds
from memvault.importers.pipe import default_readers, reader_processes
from memvault.importers.same_chat import SameChat
from memvault.model import Memory
from memvault.sources import Target
from memvault.store.base import StoredConversation
from memvault.vault import Vault, format_timestamp

#: The task the owner's provider imports run as: background work (``"system:import"``, owner
#: rights, DNA-protected memories kept; `Vault.background`). An agent's stays the agent's.
IMPORT_TASK: Final = "import"
IMPORT_ACTOR: Final = "system:" + IMPORT_TASK
#: Conversations per `put_conversations` call.
BATCH: Final = 128

__all__ = [
    "IMPORT_ACTOR",
    "IMPORT_TASK",
    "ChecksumReader",
    "IngestResult",
    "bytes_checksum",
    "file_checksum",
    "folder_checksum",
    "ingest",
    "make_context",
    "store_records",
]


@dataclass(slots=True)
class IngestResult:
    """What one import did."""

    importer: str
    conversations_new: int = 0
    conversations_updated: int = 0
    conversations_unchanged: int = 0
    #: conversations of the imported providers in the vault that the source did not hold
    #: (kept: the vault is the archive)
    conversations_absent: int = 0
    messages_new: int = 0
    messages_total: int = 0
    #: stored messages of the source's conversations that the source did not hold (kept)
    messages_absent: int = 0
    memories_new: int = 0
    memories_reinforced: int = 0
    memories_unchanged: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "importer": self.importer,
            "conversations": {
                "new": self.conversations_new,
                "updated": self.conversations_updated,
                "unchanged": self.conversations_unchanged,
                "absent": self.conversations_absent,
            },
            "messages": {
                "new": self.messages_new,
                "total": self.messages_total,
                "absent": self.messages_absent,
            },
            "memories": {
                "new": self.memories_new,
                "reinforced": self.memories_reinforced,
                "unchanged": self.memories_unchanged,
            },
            "warnings": list(self.warnings),
        }


def make_context(
    source_file: str,
    checksum: str | None,
    *,
    progress: Callable[[int], None] | None = None,
    now: datetime | None = None,
) -> ImportContext:
    """The context of one import: now, memvault's version, the file the user named."""
    moment = now or datetime.now(UTC)
    return ImportContext(
        imported_at=format_timestamp(moment),
        importer=f"memvault/{__version__}",
        source_file=source_file,
        source_checksum=checksum,
        progress=progress,
    )


def file_checksum(path: Any) -> str | None:
    """``sha256:<hex>`` of an export (`import_metadata.source_checksum`, PAM §25): of a file's
    bytes, read in chunks; of a folder, `folder_checksum`; None for anything else."""
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        return folder_checksum(p)
    if not p.is_file():
        return None
    digest = hashlib.sha256()
    with p.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def bytes_checksum(data: bytes) -> str:
    """``sha256:<hex>`` of an export read whole (standard input)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def folder_checksum(root: Any) -> str:
    """``sha256:<hex>`` of an extracted export: of the files an import reads (`.json` and
    `.csv`, regular files, symbolic links left out, as `memvault.sources` reads a folder),
    in the order of their relative POSIX names' UTF-8 bytes, each hashed as its name, a NUL,
    its size in decimal, a NUL and its bytes. The same files give the same checksum wherever
    the folder is and whatever else it holds (docs/decisions.md, "Checksum of a folder")."""
    from pathlib import Path

    base = Path(root)
    files = sorted(
        (p.relative_to(base).as_posix().encode(), p)
        for p in base.rglob("*")
        if p.suffix.lower() in (".json", ".csv") and not p.is_symlink() and p.is_file()
    )
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name + b"\0" + str(path.stat().st_size).encode() + b"\0")
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return "sha256:" + digest.hexdigest()


class ChecksumReader:
    """`file_checksum(path)` read on a thread from the moment this is made, so that it
    overlaps the work before the import needs it — telling what the input is, opening the
    vault, whose key derivation also runs without Python's lock (0.3 s of hashing for a
    300 MB export, the longest of them). `result` waits for it, and raises what reading
    raised; `cancel` stops it (the input was not a provider export after all)."""

    def __init__(self, path: Any) -> None:
        self._checksum: str | None = None
        self._error: BaseException | None = None
        self._cancelled = threading.Event()
        self._thread = threading.Thread(
            target=self._read, args=(path,), name="memvault-checksum", daemon=True
        )
        self._thread.start()

    def _read(self, path: Any) -> None:
        from pathlib import Path

        try:
            if not Path(path).is_file():
                self._checksum = file_checksum(path)
                return
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                while not self._cancelled.is_set() and (chunk := handle.read(1 << 20)):
                    digest.update(chunk)
            self._checksum = "sha256:" + digest.hexdigest()
        except BaseException as exc:  # handed to the thread that asks for the result
            self._error = exc

    def cancel(self) -> None:
        """Stop reading (within a megabyte) and wait for the thread to end."""
        self._cancelled.set()
        self._thread.join()

    def result(self) -> str | None:
        self._thread.join()  # and the thread is gone before the import forks its readers
        if self._cancelled.is_set():
            raise RuntimeError("the checksum was cancelled")
        if self._error is not None:
            raise self._error
        return self._checksum


def stored(document: Any) -> StoredConversation:
    """A conversation document as the vault stores it (its index columns filled)."""
    return conversation_row(document)


def store_records(
    vault: Vault,
    records: Iterable[ImportRecord | StoredConversation],
    result: IngestResult,
    *,
    on_conversation: Callable[[int], None] | None = None,
    same_chat: bool = False,
) -> IngestResult:
    """Store records in ONE transaction (all or nothing); counts go into `result`.
    A conversation may come ready to store (`StoredConversation`, from `reader_process`).
    With `same_chat` (`Importer.conversation_ids_from_content`) a new conversation whose
    messages the vault holds under another id of the same title takes that id. The owner's
    records are written by its background work (`IMPORT_ACTOR`); an agent's session is
    refused on the first conversation (they are the owner's, docs/access.md)."""
    vault = vault.background(IMPORT_TASK)
    memories: list[Mapping[str, Any]] = []
    batch: list[StoredConversation] = []
    seen = 0
    # The ids the source holds, by platform: the vault's other conversations of those
    # platforms are the ones absent from the source.
    held: dict[str, set[str]] = {}
    legacy = LegacyIds(vault)
    found = SameChat(vault, legacy.adopted) if same_chat else None

    def flush() -> None:
        named = legacy.conversations(batch)
        if found is not None:
            named = found.conversations(named)
        for conversation in named:
            held.setdefault(conversation.platform, set()).add(conversation.id)
        for put in vault.put_conversations(named):
            if put.outcome == "new":
                result.conversations_new += 1
            elif put.outcome == "updated":
                result.conversations_updated += 1
            else:
                result.conversations_unchanged += 1
            result.messages_new += put.new_messages
            result.messages_absent += put.absent_messages
        batch.clear()

    # The collector off while the records stream in (when the front end allows it:
    # `memvault.bulk`): every conversation's frame, passages and audit entry are objects
    # without cycles, freed by their counts; its scans were some 7 % of the writing process's
    # CPU in the 300 MB ChatGPT import (perf: gc_collect_main and its visits).
    with vault.transaction(bulk=True), gc_paused():
        for record in records:
            if isinstance(record, ImportedConversation | StoredConversation):
                conversation = (
                    stored(record.document) if isinstance(record, ImportedConversation) else record
                )
                result.messages_total += conversation.message_count
                batch.append(conversation)
                seen += 1
                if on_conversation is not None:
                    on_conversation(seen)
                if len(batch) >= BATCH:
                    flush()
            elif isinstance(record, ImportedMemory):
                memories.append(record.memory)
        if batch:
            flush()
        for platform, ids in sorted(held.items()):
            in_vault = vault.count_conversations(platform)
            result.conversations_absent += in_vault - len(ids)
        if memories:
            parsed = []
            for memory in legacy.memories(memories):
                try:
                    parsed.append(Memory.from_json(memory))
                except (TypeError, ValueError, KeyError) as exc:
                    raise InvalidInput(
                        f"memory {memory.get('id')}: not a PAM memory object ({exc})", "memory"
                    ) from None
            added, known = vault.add_memories_unless_known(parsed)
            result.memories_new += len(added.created)
            result.memories_reinforced += len(added.reinforced)
            result.memories_unchanged += len(known) + len(added.skipped)
    return result


def ingest(
    vault: Vault,
    importer: Importer,
    target: Target,
    context: ImportContext,
    *,
    on_conversation: Callable[[int], None] | None = None,
    readers: int | None = None,
) -> IngestResult:
    """Read `target` with `importer` and store everything in one transaction.

    The export is read and converted by `readers` child processes (`reader_processes`) while
    this one writes to the vault; by default one per core (at most two) where the platform
    can fork, none (this process reads) with ``readers=0``.

    Raises ImportFormatError / SourceError for unreadable input and InvalidInput for records
    the vault refuses; in every case nothing was changed."""
    result = IngestResult(importer.id.importer_version)
    if readers is None:
        readers = default_readers()
    if readers > 0:
        with reader_processes(importer, target, context, readers) as records:
            store_records(
                vault,
                records,
                result,
                on_conversation=on_conversation,
                same_chat=importer.conversation_ids_from_content,
            )
    else:
        store_records(
            vault,
            importer.read(target, context),
            result,
            on_conversation=on_conversation,
            same_chat=importer.conversation_ids_from_content,
        )
    result.warnings.extend(context.warnings)
    return result
