"""New memories from their PAM JSON straight to the rows the store keeps, without `Memory`
objects: the import's fast path (`UnitOfWork.add_memory_documents`).

`Vault.add_memories` takes `Memory` objects, turns each back into JSON to check it against
the PAM schema, and the store reads its columns off the object again. For a bundle of tens
of thousands of new memories that round trip is most of the import's Python time. Here a
memory given as the JSON object an exchange mapped (`memvault.formats.mapping`) is checked
as `add_memories` checks it — content hash (PAM §6), the PAM memory schema — and becomes a
`NewMemoryRow` at once.

Only what is plainly new takes this path: an owner's session, every memory of a simple
shape (`plain_row`), no id or content the vault or the batch already holds, no schema
finding. Anything else answers None before a byte is written, and the caller hands the same
memories to `add_memories`, which decides reinforcement and names every error as always.
`tests/test_aimem_import_rows.py` holds the two paths to the same rows and audit entries.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import orjson

from memvault.audit import AuditLog, PendingEntry
from memvault.canonical import content_hash as compute_content_hash
from memvault.errors import InvalidInput
from memvault.model import Memory, timestamp_epoch
from memvault.store.base import IntegrityViolation, NewMemoryRow, Store

if TYPE_CHECKING:
    from memvault.vault import BatchResult

__all__ = ["add_documents", "add_rows", "plain_row", "schema_clean"]

#: The members of a PAM memory object in the order `memory_to_json` writes them, so the
#: stored document is byte for byte the one the `Memory` path stores.
_ORDER: Final = tuple(key for _, key in Memory._member_keys())
#: The members a plain memory may have (anything else: the `Memory` path).
_PLAIN: Final = frozenset(
    {"id", "type", "content", "content_hash", "temporal", "provenance", "custom_type", "tags"}
    | {"metadata"}
)
#: Whether members in this order are in `_ORDER`'s (a bundle's memories share a few orders).
_ORDERED: dict[tuple[str, ...], bool] = {}
#: Rows per store batch (as `add_memories` checks and inserts them).
_BATCH: Final = 1024


def plain_row(
    memory: Mapping[str, Any], *, hashed: bool = False
) -> tuple[dict[str, Any], NewMemoryRow] | None:
    """The document (members in `memory_to_json` order) and row of a PAM memory object of
    the plain shape an exchange maps a simple record to: id, type, content and its hash, a
    `temporal` of `created_at` alone, a `provenance` of `platform` alone, optionally a string
    `custom_type`, string `tags` and a `metadata` object without an ``extraction`` block. None
    for any other shape, or a content hash that does not match (the `Memory` path says why).
    `hashed`: the caller computed the content hash from the content itself just now (PAM §6),
    so it is not computed again."""
    if type(memory) is not dict or not memory.keys() <= _PLAIN:
        return None
    memory_id, kind, content = memory["id"], memory["type"], memory["content"]
    digest, temporal, provenance = memory["content_hash"], memory["temporal"], memory["provenance"]
    if (
        type(memory_id) is not str
        or type(kind) is not str
        or type(content) is not str
        or not content.strip()
        or type(temporal) is not dict
        or len(temporal) != 1
        or type(provenance) is not dict
        or len(provenance) != 1
    ):
        return None
    created, platform = temporal.get("created_at"), provenance.get("platform")
    if type(created) is not str or type(platform) is not str:
        return None
    epoch = timestamp_epoch(created)
    if epoch is None or type(digest) is not str:
        return None
    if not hashed and digest != compute_content_hash(content):
        return None
    custom = memory.get("custom_type")
    if custom is not None and type(custom) is not str:
        return None
    if "custom_type" in memory and custom is None:
        return None
    tags = memory.get("tags", [])
    if type(tags) is not list:
        return None
    try:
        words = " ".join(tags)  # a TypeError: a tag that is not a string
    except TypeError:
        return None
    metadata = memory.get("metadata")
    if metadata is not None and (type(metadata) is not dict or "extraction" in metadata):
        return None
    if "metadata" in memory and metadata is None:
        return None
    label = custom if custom is not None else kind
    keys = tuple(memory)
    ordered = _ORDERED.get(keys)
    if ordered is None:
        ordered = _ORDERED[keys] = list(keys) == [key for key in _ORDER if key in memory]
    document = memory if ordered else {key: memory[key] for key in _ORDER if key in memory}
    distinct = tags if len(set(tags)) == len(tags) else list(dict.fromkeys(tags))
    row = NewMemoryRow(
        memory_id,
        kind,
        custom,
        "active",
        digest,
        platform,
        None,
        epoch,
        None,
        1,
        "private",
        None,
        distinct,
        orjson.dumps(document).decode(),
        None,
        epoch,
        content,
        f"{words} {label}" if tags else label,
    )
    return document, row


def add_documents(
    store: Store,
    actor: str,
    at: str,
    memories: Sequence[Mapping[str, Any]],
    *,
    hashed: bool = False,
) -> BatchResult | None:
    """Add new memories given as PAM JSON (an owner's session: `actor` is privileged) in
    the caller's transaction, with their "add" audit entries stamped `at`, as
    `Vault.add_memories` would. None, with nothing written, when any of them needs that
    path instead (see the module's docstring). `hashed`: as for `plain_row`."""
    documents: list[dict[str, Any]] = []
    rows: list[NewMemoryRow] = []
    for memory in memories:
        made = plain_row(memory, hashed=hashed)
        if made is None:
            return None
        documents.append(made[0])
        rows.append(made[1])
    from memvault.formats.pam.schema import validate_memories

    if any(f.severity == "error" for f in validate_memories(documents, 0)):
        return None
    return add_rows(store, actor, at, rows)


def add_rows(store: Store, actor: str, at: str, rows: Sequence[NewMemoryRow]) -> BatchResult | None:
    """`add_documents` for memories already made into rows as `plain_row` makes them, from
    documents the caller has checked against the PAM memory schema (`schema_clean`): the
    same checks of the vault, rows and audit entries, or None with nothing written."""
    from memvault.vault import BatchResult

    ids = [row.id for row in rows]
    hashes = [row.content_hash for row in rows]
    # One memory per id and per active content (PAM §6): a repeat reinforces, on the other path.
    if len(set(ids)) != len(ids) or len(set(hashes)) != len(hashes):
        return None
    with store.transaction(savepoints=False):
        if store.existing_ids(ids):
            return None
        if store.find_by_content_hashes(hashes, statuses=("active",)):
            return None
        try:
            store.insert_memory_rows(rows[i : i + _BATCH] for i in range(0, len(rows), _BATCH))
        except IntegrityViolation as exc:  # pragma: no cover - the ids were checked above
            raise InvalidInput(str(exc), "id") from None
        AuditLog(store).append(_add_entries(rows, actor), at)
    result = BatchResult()
    result.created.extend(ids)
    result.id_map.update(zip(ids, ids, strict=True))
    return result


def schema_clean(document: dict[str, Any]) -> bool:
    """Whether one PAM memory object has no error under the PAM memory schema (what
    `add_documents` asks of a batch), asked as it is made, so that it need not be kept."""
    unclear = _schema().unclear_memories
    if unclear is not None and not unclear([document]):
        return True  # the C check cleared it
    return not any(f.severity == "error" for f in _schema().validate_memories([document], 0))


@functools.cache
def _schema() -> Any:
    """`memvault.formats.pam.schema`, imported once it is first needed (it loads the PAM
    schemas)."""
    from memvault.formats.pam import schema

    return schema


def _add_entries(rows: Sequence[NewMemoryRow], actor: str) -> Iterator[PendingEntry]:
    """The "add" entries `Vault._add_entry` writes, one details object per distinct type
    and platform (the audit log canonicalizes each once); made as the log takes them."""
    shared: dict[tuple[str, str | None, str], dict[str, Any]] = {}
    for row in rows:
        key = (row.type, row.custom_type, row.platform)
        details = shared.get(key)
        if details is None:
            details = {"type": row.type, "status": "active"}
            if row.custom_type is not None:
                details["custom_type"] = row.custom_type
            details["platform"] = row.platform
            shared[key] = details
        yield PendingEntry("add", actor, row.id, row.content_hash, details)
