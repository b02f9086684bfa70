"""The importer side every hub format shares: what a read gives, the importer base class and
how a read goes into the vault (one transaction, PAM import rules)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from memvault.conversation_merge import conversation_row
from memvault.formats.pam.schema import validate_document, validate_memories
from memvault.importers.base import (
    ImportContext,
    ImportedMemory,
    Importer,
    ImportFormatError,
    ImportRecord,
)
from memvault.model import Relation
from memvault.sources import Target
from memvault.store.codec import memory_from_json
from memvault.unit_of_work import MergePolicy
from memvault.vault import Vault

from .base import Tally

#: The ``--format`` / ``--from`` names of the hub formats, with their modules.
FORMATS: Final = {
    "mcp-memory": "mcp_memory",
    "mem0": "mem0",
    "mem": "portable_memory",
    "letta": "letta",
    "basic-memory": "basic_memory",
}


@dataclass(slots=True)
class HubRead:
    """What a hub importer read: PAM memory objects, PAM relations, and the tally."""

    memories: list[dict[str, Any]]
    relations: list[dict[str, Any]]
    tally: Tally
    #: (memory id, time) of deletions the source records (tombstones): a memory of the vault
    #: with that id is retracted (PAM keeps retracted memories, §16.3)
    retractions: list[tuple[str, str]] = field(default_factory=list)
    #: PAM normalized conversations (§25) the source holds (a Letta agent's messages)
    conversations: list[dict[str, Any]] = field(default_factory=list)


class HubImporter(Importer):
    """A hub format's importer. `read` gives the memories (the importer interface);
    `read_all` the relations and the tally too, which `import_hub` stores."""

    name: str

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        for memory in self.read_all(target, context).memories:
            yield ImportedMemory(memory)

    @abstractmethod
    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        """Read the whole source (memory files are small; each is size-bounded)."""

    def tally(self) -> Tally:
        return Tally(self.name, self.id.version, "import")


@dataclass(slots=True)
class HubImportResult:
    """What `import_hub` did."""

    source: str
    tally: Tally
    created: int = 0
    reinforced: int = 0
    updated: int = 0
    unchanged: int = 0
    relations: int = 0
    retracted: int = 0
    conversations: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "format": self.tally.format,
            "version": self.tally.version,
            "memories": {
                "new": self.created,
                "reinforced": self.reinforced,
                "updated": self.updated,
                "unchanged": self.unchanged,
            },
            "relations": self.relations,
            "retracted": self.retracted,
            "conversations": self.conversations,
            "carried": self.tally.to_json(),
            "warnings": list(self.warnings),
        }


def check_memories(memories: list[dict[str, Any]], where: str) -> None:
    """Refuse mapped memories that are not valid PAM (naming the first few findings)."""
    findings = validate_memories(memories, 0, file=where)
    if findings:
        shown = "; ".join(f"{f.path}: {f.message}" for f in findings[:5])
        raise ImportFormatError(where, f"does not map to valid PAM memories: {shown}")


def import_hub(
    vault: Vault,
    importer: HubImporter,
    target: Target,
    context: ImportContext,
    *,
    now: datetime | None = None,
) -> HubImportResult:
    """Read `target` and store it in ONE transaction, by the rules of a PAM import: a memory
    the vault has by id is merged where the incoming copy is newer, one whose content is an
    active memory's reinforces it, the rest are added; relations follow the ids merged.
    Raises ImportFormatError / SourceError for input that cannot be read: nothing is changed
    then."""
    read = importer.read_all(target, context)
    check_memories(read.memories, str(target.path))
    for document in read.conversations:
        findings = validate_document("conversation", document, file=str(target.path))
        if findings:
            shown = "; ".join(f"{f.path}: {f.message}" for f in findings[:5])
            raise ImportFormatError(str(target.path), f"not a valid PAM conversation: {shown}")
    result = HubImportResult(context.source_file, read.tally)
    result.warnings.extend(context.warnings)
    policy = MergePolicy("import", newer_only=True)
    retract = MergePolicy("import", newer_only=False)
    remap: dict[str, str] = {}
    with vault.unit_of_work(now=now) as work:
        incoming = [memory_from_json(m) for m in read.memories]
        existing = work.existing_ids([m.id for m in incoming])
        new = [m for m in incoming if m.id not in existing]
        if new:
            batch = work.add_memories(new)
            result.created += len(batch.created)
            result.reinforced += len(batch.reinforced)
            result.unchanged += len(batch.skipped)
            remap.update(batch.id_map)
        present = [m for m in incoming if m.id in existing]
        if present:
            stored = work.stored_memories([m.id for m in present])
            for memory in present:
                merged = work.merge_memory(stored[memory.id], memory, policy)
                if merged.outcome == "updated":
                    result.updated += 1
                else:
                    result.unchanged += 1
        if read.retractions:
            ids = [memory_id for memory_id, _ in read.retractions]
            held = work.stored_memories([i for i in ids if i in work.existing_ids(ids)])
            for memory_id, at in read.retractions:
                if memory_id not in held:
                    continue
                current = held[memory_id].memory
                gone = current.evolve(
                    status="retracted", temporal=current.temporal.evolve(updated_at=at)
                )
                if work.merge_memory(held[memory_id], gone, retract).outcome == "updated":
                    result.retracted += 1
        relations = []
        for data in read.relations:
            parsed = Relation.from_json(data)
            relations.append(
                parsed.evolve(
                    from_=remap.get(parsed.from_, parsed.from_), to=remap.get(parsed.to, parsed.to)
                )
            )
        put = work.put_relations(relations, via="import")
        result.relations = put.added
        if read.conversations:
            puts = work.put_conversations([conversation_row(d) for d in read.conversations])
            result.conversations = sum(1 for p in puts if p.outcome != "unchanged")
        work.flush()
    return result
