"""`memvault convert`: what an importer yields, written as PAM files without a vault.

`conversations/<id>.json` per conversation (the normalized conversation, §25) and one
`memory-store.json` with the exported memories and a `conversations_index` entry per
conversation (§14) pointing at its file. Everything is staged and published at once
(`ExportStage`): an error halfway leaves nothing at the target.
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from memvault.formats.pam.merge import exported_by
from memvault.formats.pam.writer import (
    SPEC_URI,
    STORE_FILE,
    TYPE_REGISTRY,
    ExportStage,
    MemoryStoreWriter,
    WriterError,
    conversation_filename,
    write_document,
)
from memvault.importers.base import ImportedConversation, ImportedMemory, ImportRecord
from memvault.vault_inputs import format_timestamp


class ConvertError(Exception):
    """The output could not be written (it exists, a disk error…)."""


def convert_records(
    records: Iterable[ImportRecord],
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
                    document = record.document
                    name = conversation_filename(str(document["id"]))
                    write_document(stage.root / name, document)
                    messages = document.get("messages") or []
                    temporal = document.get("temporal") or {}
                    entry: dict[str, Any] = {
                        "id": document["id"],
                        "platform": (document.get("provider") or {}).get("name"),
                        "title": document.get("title"),
                        "message_count": len(messages),
                        "temporal": {
                            "created_at": temporal.get("created_at"),
                            "updated_at": temporal.get("updated_at"),
                        },
                        "storage": {"type": "file", "ref": name, "format": "json"},
                    }
                    writer.add_conversation(entry)
                    counts["conversations"] += 1
                    counts["messages"] += len(messages)
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


#: Records converted between two garbage collections.
_COLLECT_EVERY: Final = 2000


def _collected_now_and_then(records: Iterable[ImportRecord]) -> Iterator[ImportRecord]:
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
