"""The tables both store backends keep: the values a record is written as and the record a
row is read back as, in the column order named here.

Only what does not depend on the database lives here; each backend keeps its SQL
(placeholders, the tenant column PostgreSQL puts first, upserts, paging keys).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final

import orjson

from memvault.model import Relation
from memvault.store.base import (
    AuditEntry,
    ExportRecord,
    KeyRecord,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
)
from memvault.store.codec import load_memory
from memvault.store.documents import document_frame, load_document

__all__ = [
    "AUDIT_COLUMNS",
    "CONVERSATION_COLUMNS",
    "EMBEDDING_COLUMNS",
    "EXPORT_COLUMNS",
    "KEY_COLUMNS",
    "RELATION_COLUMNS",
    "audit_values",
    "conversation_values",
    "embedding_values",
    "export_values",
    "pages",
    "read_audit",
    "read_conversation",
    "read_embedding",
    "read_export",
    "read_key",
    "read_memory",
    "relation_values",
]

RELATION_COLUMNS: Final = "id, from_id, to_id, type, created_at, document"
CONVERSATION_COLUMNS: Final = (
    "id, platform, title, created_at, updated_at, message_count, extra_index, document"
)
EMBEDDING_COLUMNS: Final = "id, memory_id, model, dimensions, created_at, vector, storage"
EXPORT_COLUMNS: Final = (
    "export_id, direction, export_type, at, format, base_export_id, since, checksum, "
    "memory_count, path"
)
AUDIT_COLUMNS: Final = "seq, at, actor, action, memory_id, content_hash, details, prev_hash, hash"
KEY_COLUMNS: Final = "key_id, algorithm, public_key, private_key, created_at, did"

_SORTED: Final = orjson.OPT_SORT_KEYS


def read_memory(row: Sequence[Any]) -> StoredMemory:
    """A memory from its (document, decay_anchor) columns."""
    return StoredMemory(load_memory(row[0]), row[1])


def relation_values(relation: Relation) -> tuple[Any, ...]:
    """`RELATION_COLUMNS` of a relation."""
    return (
        relation.id,
        relation.from_,
        relation.to,
        relation.type,
        relation.created_at,
        orjson.dumps(relation.to_json()).decode(),
    )


def conversation_values(c: StoredConversation) -> tuple[Any, ...]:
    """`CONVERSATION_COLUMNS` of a conversation (its document as a compressed frame)."""
    extra = orjson.dumps(dict(c.extra_index), option=_SORTED).decode() if c.extra_index else "{}"
    return (
        c.id,
        c.platform,
        c.title,
        c.created_at,
        c.updated_at,
        c.message_count,
        extra,
        document_frame(c.document),
    )


def read_conversation(row: Sequence[Any]) -> StoredConversation:
    """A conversation from its `CONVERSATION_COLUMNS`."""
    return StoredConversation(
        id=row[0],
        platform=row[1],
        title=row[2],
        created_at=row[3],
        updated_at=row[4],
        message_count=int(row[5]),
        extra_index=orjson.loads(row[6]),
        document=load_document(row[7]),
    )


def embedding_values(e: StoredEmbedding) -> tuple[Any, ...]:
    """`EMBEDDING_COLUMNS` of an embedding."""
    storage = None if e.storage is None else orjson.dumps(dict(e.storage)).decode()
    return (e.id, e.memory_id, e.model, e.dimensions, e.created_at, e.vector, storage)


def read_embedding(row: Sequence[Any]) -> StoredEmbedding:
    """An embedding from its `EMBEDDING_COLUMNS`."""
    return StoredEmbedding(
        id=row[0],
        memory_id=row[1],
        model=row[2],
        dimensions=int(row[3]),
        created_at=row[4],
        vector=None if row[5] is None else bytes(row[5]),
        storage=None if row[6] is None else orjson.loads(row[6]),
    )


def export_values(r: ExportRecord) -> tuple[Any, ...]:
    """`EXPORT_COLUMNS` of an export record."""
    return (
        r.export_id,
        r.direction,
        r.export_type,
        r.at,
        r.format,
        r.base_export_id,
        r.since,
        r.checksum,
        r.memory_count,
        r.path,
    )


def read_export(row: Sequence[Any]) -> ExportRecord:
    """An export record from its `EXPORT_COLUMNS`."""
    return ExportRecord(
        export_id=row[0],
        direction=row[1],
        export_type=row[2],
        at=row[3],
        format=row[4],
        base_export_id=row[5],
        since=row[6],
        checksum=row[7],
        memory_count=int(row[8]),
        path=row[9],
    )


def audit_values(entries: Iterable[AuditEntry]) -> list[tuple[Any, ...]]:
    """`AUDIT_COLUMNS` of each entry."""
    rows: list[tuple[Any, ...]] = []
    # Entries of a batch share their details objects: serialize each one once (the
    # object is held, so its id stays its own).
    texts: dict[int, tuple[Any, str]] = {}
    dumps = orjson.dumps
    for e in entries:
        details = e.details
        known = texts.get(id(details))
        if known is None:
            text = dumps(dict(details), option=_SORTED).decode()
            texts[id(details)] = (details, text)
        else:
            text = known[1]
        row = (e.seq, e.at, e.actor, e.action, e.memory_id, e.content_hash, text)
        rows.append((*row, e.prev_hash, e.hash))
    return rows


def read_audit(row: Sequence[Any]) -> AuditEntry:
    """An audit entry from its `AUDIT_COLUMNS`."""
    return AuditEntry(
        seq=int(row[0]),
        at=row[1],
        actor=row[2],
        action=row[3],
        memory_id=row[4],
        content_hash=row[5],
        details=orjson.loads(row[6]),
        prev_hash=row[7],
        hash=row[8],
    )


def read_key(row: Sequence[Any], private_key: bytes | None) -> KeyRecord:
    """A key from its `KEY_COLUMNS`, with its private key as the backend reads it back."""
    return KeyRecord(
        key_id=row[0],
        algorithm=row[1],
        public_key=bytes(row[2]),
        private_key=private_key,
        created_at=row[4],
        did=row[5],
    )


def pages(
    fetch: Callable[[Any], Sequence[Sequence[Any]]], *, size: int, key: int, after: Any = 0
) -> Iterator[Any]:
    """Every row of a table a page at a time, by a key that only grows: `fetch(last)` gives
    at most `size` rows whose key (column `key`) is past `last` (`after` at first), in key
    order. Bounded memory however large the table."""
    last = after
    while True:
        rows = fetch(last)
        yield from rows
        if len(rows) < size:
            return
        last = int(rows[-1][key])
