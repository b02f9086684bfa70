"""`memvault convert`: what an importer yields, written as PAM files without a vault.

`conversations/<id>.json` per conversation (the normalized conversation, §25) and one
`memory-store.json` with the exported memories and a `conversations_index` entry per
conversation (§14) pointing at its file. Everything is staged and published at once
(`ExportStage`): an error halfway leaves nothing at the target.
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from memvault.errors import ConvertError as ConvertError  # its historical home, kept importable
from memvault.formats.pam.merge import exported_by
from memvault.formats.pam.writer import (
    SPEC_URI,
    STORE_FILE,
    TYPE_REGISTRY,
    ExportStage,
    MemoryStoreWriter,
    WriterError,
    conversation_filename,
    encode_document,
    write_encoded,
)
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    Importer,
    ImportRecord,
)
from memvault.importers.pipe import EncodedConversation, default_readers, reader_processes
from memvault.sources import Target
from memvault.vault_inputs import format_timestamp

#: What `convert_records` writes.
Record = ImportRecord | EncodedConversation


def convert_records(
    records: Iterable[Record],
    output: Path,
    *,
    owner_id: str,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Write the records as a PAM export at `output` (a directory, or a ``.zip``); returns
    counts (conversations, messages, memories)."""
    header = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "spec_uri": SPEC_URI,
        "export_id": str(uuid.uuid4()),
        "exported_by": exported_by(),
        "export_date": format_timestamp(datetime.now(UTC)),
        "owner": {"id": owner_id},
        "export_type": "full",
        "type_registry": TYPE_REGISTRY,
    }
    counts = {"conversations": 0, "messages": 0, "memories": 0}
    seen_memories: set[str] = set()
    try:
        with ExportStage(Path(output), overwrite=overwrite) as stage:
            if not stage.companions:
                raise ConvertError(
                    f"{output}: convert writes a directory or a .zip (conversation files and "
                    "memory-store.json), not a lone .json"
                )
            writer = MemoryStoreWriter(stage.root / STORE_FILE, header, scratch=stage.scratch)
            for record in _collected_now_and_then(records):
                if isinstance(record, ImportedConversation):
                    record = _encoded(record.document)
                if isinstance(record, EncodedConversation):
                    name = conversation_filename(record.id)
                    write_encoded(stage.root / name, record.data)
                    writer.add_conversation(
                        {
                            "id": record.id,
                            "platform": record.platform,
                            "title": record.title,
                            "message_count": record.message_count,
                            "temporal": {
                                "created_at": record.created_at,
                                "updated_at": record.updated_at,
                            },
                            "storage": {"type": "file", "ref": name, "format": "json"},
                        }
                    )
                    counts["conversations"] += 1
                    counts["messages"] += record.message_count
                elif isinstance(record, ImportedMemory):
                    memory_id = str(record.memory["id"])
                    if memory_id in seen_memories:
                        continue
                    seen_memories.add(memory_id)
                    writer.add_memory(record.memory)
                    counts["memories"] += 1
            writer.finish()
            stage.publish()
    except (WriterError, OSError) as exc:
        raise ConvertError(f"could not write {output}: {exc}") from None
    return counts


def _encoded(document: Mapping[str, Any]) -> EncodedConversation:
    """A conversation read in this process, encoded as a reader process would send it."""
    messages = document.get("messages") or []
    temporal = document.get("temporal") or {}
    platform: Any = (document.get("provider") or {}).get("name")  # an importer's: a str
    return EncodedConversation(
        id=document["id"],
        platform=platform,
        title=document.get("title"),
        created_at=temporal.get("created_at"),
        updated_at=temporal.get("updated_at"),
        message_count=len(messages),
        data=encode_document(document, conversation_filename(str(document["id"]))),
    )


def convert_export(
    importer: Importer,
    target: Target,
    context: ImportContext,
    output: Path,
    *,
    owner_id: str,
    overwrite: bool = False,
    readers: int | None = None,
    counted: Callable[[Iterator[Any]], Iterator[Any]] | None = None,
) -> dict[str, Any]:
    """`convert_records` of what `importer` reads from `target`, read and encoded by
    `readers` child processes (`importers.pipe`; by default as many as `ingest` uses, none
    — this process reads — with ``readers=0``): the same files, written while the next
    conversations are converted. `counted` sees the records on their way (progress)."""
    if readers is None:
        readers = default_readers()
    source: AbstractContextManager[Iterable[Record]] = (
        reader_processes(importer, target, context, readers, form="pam")
        if readers
        else nullcontext(importer.read(target, context))
    )
    with source as records:
        if counted is not None:
            records = counted(iter(records))
        return convert_records(records, output, owner_id=owner_id, overwrite=overwrite)


#: Records converted between two garbage collections.
_COLLECT_EVERY: Final = 2000


def _collected_now_and_then(records: Iterable[Record]) -> Iterator[Record]:
    """The records, read with automatic garbage collection off: converting allocates many
    containers, none in cycles, and the collector's scans cost a fifth of the time. A
    collection every few thousand records keeps memory bounded all the same."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        for count, record in enumerate(records, 1):
            yield record
            if count % _COLLECT_EVERY == 0:
                gc.collect()
    finally:
        if enabled:
            gc.enable()
