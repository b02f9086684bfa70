"""mem0 and OpenMemory: import of every shape a person can get their memories out in, and
export in the shape mem0's `get_all` returns, so they can go back.

Read (docs/formats.md):

- the library's ``Memory.get_all()``: ``{"results": [item…]}`` (mem0 1.x also ``relations``,
  graph triples between entities, not memories: kept in no memory, counted);
- the platform's ``GET /v1/memories/``: a bare array, or ``{count, next, previous,
  results}`` when paged (``POST /v3/memories/`` answers the envelope too); older wrappers
  ``{"memories": […]}`` and ``{"data": […]}`` are read as well;
- OpenMemory's export zip (``memories.json``, its relational tables; or, alone,
  ``memories.jsonl.gz``, one logical record a line), or its extracted folder.

An item's ``memory`` (OpenMemory: ``content``) is the content; mem0's ``hash`` (MD5 of the
raw text) is kept in metadata and the PAM content hash computed. Times are normalised to
UTC: mem0 wrote US/Pacific offsets before March 2026, and a time without an offset is read as
UTC (OpenMemory's database keeps naive UTC); a rewritten time keeps its original text in
metadata. Platform categories become tags and suggest the type; ``replaced_by`` makes the
memory superseded; OpenMemory's states map active → active, paused → deprecated, archived →
archived, deleted → retracted. Every other field goes to ``metadata["mem0"]``.

Export: ``{"results": [item…]}`` with ``id``, ``memory`` (the text, ready for ``add``),
``hash`` (MD5 of it, as mem0 computes), ``created_at``/``updated_at`` (UTC offsets), and
``metadata`` holding the PAM residue under ``pam``. Only active memories are written: mem0
has no status, and adding a retracted memory back would revive it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from memvault import jsonread
from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.memory_text import guess_type
from memvault.sources import Entry, Target

from .base import (
    RESIDUE,
    Encoded,
    Exporter,
    Records,
    Tally,
    file_limit,
    pam_memory,
    parse_time,
    read_whole,
    residue,
    restore,
    tags_of,
    utc_text,
)
from .reading import HubImporter, HubRead

NAME: Final = "mem0"
#: mem0 2.0 (`get_all` of the library, `/v1/memories/` and `/v3/memories/` of the platform)
#: and OpenMemory's export version "1".
VERSION: Final = "2.0"
META: Final = "mem0"
#: Default platform categories that say a type (`custom-categories.mdx`).
CATEGORY_TYPES: Final = {
    "user_preferences": "preference",
    "personal_details": "identity",
    "professional_details": "fact",
    "family": "relationship",
    "hobbies": "preference",
    "food": "preference",
    "music": "preference",
    "milestones": "fact",
}
#: OpenMemory `MemoryState` → PAM status.
STATES: Final = {
    "active": "active",
    "paused": "deprecated",
    "archived": "archived",
    "deleted": "retracted",
}
_PROMOTED: Final = ("user_id", "agent_id", "run_id", "actor_id", "role", "attributed_to")
_OPENMEMORY: Final = "memories.json"
_OPENMEMORY_STREAM: Final = "memories.jsonl.gz"
_HEAD_ITEMS: Final = re.compile(rb'"(memory|content)"\s*:')


def _head(entry: Entry) -> bytes:
    with entry.stream() as stream:
        return stream.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")


def _openmemory_entries(target: Target) -> tuple[Entry | None, Entry | None]:
    tables = stream = None
    for entry in target.entries:
        base = entry.name.rsplit("/", 1)[-1]
        if base == _OPENMEMORY:
            tables = entry
        elif base == _OPENMEMORY_STREAM:
            stream = entry
    return tables, stream


class Mem0Importer(HubImporter):
    id = ImporterId(NAME, VERSION)
    name = NAME

    def sniff(self, target: Target) -> bool:
        """A JSON file of mem0 items (``"memory"`` members, in ``results`` or an array), or
        OpenMemory's export (``memories.json`` whose tables start with ``user`` and ``apps``,
        or ``memories.jsonl.gz``)."""
        tables, stream = _openmemory_entries(target)
        if target.kind != "file":
            if stream is not None:
                return True
            if tables is None:
                return False
            head = _head(tables)
            return head[:1] == b"{" and b'"apps"' in head and b'"user"' in head
        if len(target.entries) != 1:
            return False
        head = _head(target.entries[0])
        if head[:1] == b"[":
            return bool(re.match(rb'\[\s*\{[^{}\[\]]{0,400}?"memory"\s*:', head, re.S))
        if head[:1] != b"{":
            return False
        if b'"apps"' in head and b'"user"' in head and b'"memories"' in head:
            return True
        wrapped = re.match(rb'\{\s*"(results|memories|data|count)"\s*:', head)
        return wrapped is not None and b'"memory"' in head

    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        tally = self.tally()
        tables, stream = _openmemory_entries(target)
        if target.kind != "file" or (tables is not None and _is_tables(tables)):
            if tables is not None:
                return read_openmemory(_json(tables), tables.display, context.imported_at, tally)
            if stream is not None:
                return read_openmemory_stream(stream, context.imported_at, tally)
            raise ImportFormatError(str(target.path), f"no {_OPENMEMORY} or {_OPENMEMORY_STREAM}")
        entry = target.entries[0]
        return read_items(_json(entry), entry.display, context.imported_at, tally)


def _is_tables(entry: Entry) -> bool:
    head = _head(entry)
    return head[:1] == b"{" and b'"apps"' in head and b'"user"' in head


def _json(entry: Entry) -> Any:
    return jsonread.loads(read_whole(entry), entry.display)


# -- items ---------------------------------------------------------------------------------------


def items_of(document: Any, where: str, tally: Tally) -> list[Any]:
    """The items of any of mem0's list shapes."""
    if isinstance(document, list):
        return document
    if not isinstance(document, Mapping):
        raise ImportFormatError(where, "expected a JSON array or object of mem0 memories")
    for key in ("results", "memories", "data"):
        items = document.get(key)
        if isinstance(items, list):
            relations = document.get("relations")
            if isinstance(relations, list) and relations:
                tally.lost["graph relations (entity triples, not memories)"] += len(relations)
            if document.get("next"):
                tally.lost["later pages (the file is one page: 'next' is set)"] += 1
            return items
    raise ImportFormatError(where, "field 'results': expected a list of mem0 memories")


def _time(value: object, field: str, where: str, meta: dict[str, Any], tally: Tally) -> str | None:
    if value is None:
        return None
    moment = parse_time(value)
    if moment is None:
        raise ImportFormatError(where, f"field '{field}': not an ISO 8601 time ({value!r})")
    offset = moment.utcoffset()
    if offset is not None and offset.total_seconds() != 0:
        meta.setdefault("original_times", {})[field] = value
        tally.metadata["times with a non-UTC offset (normalised to UTC)"] += 1
    return utc_text(moment)


def _type(categories: Sequence[str], text: str) -> str:
    for category in categories:
        found = CATEGORY_TYPES.get(category.lower())
        if found:
            return found
    return guess_type(text)


def item_memory(
    item: Any, where: str, now: str, tally: Tally, *, platform: str = NAME
) -> dict[str, Any]:
    """One mem0 item (library, platform or OpenMemory record) as a PAM memory."""
    if not isinstance(item, Mapping):
        raise ImportFormatError(where, "expected an object (a mem0 memory)")
    text = item.get("memory", item.get("content"))
    if not isinstance(text, str) or not text.strip():
        raise ImportFormatError(where, "field 'memory': expected a non-empty string")
    item_id = item.get("id")
    if not isinstance(item_id, str) or not item_id:
        raise ImportFormatError(where, "field 'id': expected a string")
    user_meta = item.get("metadata")
    if user_meta is not None and not isinstance(user_meta, Mapping):
        raise ImportFormatError(where, "field 'metadata': expected an object or null")
    kept = user_meta.get(RESIDUE) if isinstance(user_meta, Mapping) else None
    restored = restore(text, kept, f"{where}: metadata.{RESIDUE}")
    if restored is not None:
        tally.mapped["memories (from their residue)"] += 1
        return restored
    meta: dict[str, Any] = {}
    for key, value in item.items():
        if key in ("id", "memory", "content", "created_at", "updated_at", "categories"):
            continue
        if value is None:
            continue
        meta[key] = value
        tally.metadata[key] += 1
    digest = item.get("hash")
    if (
        isinstance(digest, str)
        and digest != hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()
    ):
        tally.metadata["hash not matching the text (kept as it was)"] += 1
    raw_categories = item.get("categories") or []
    if not isinstance(raw_categories, list) or not all(isinstance(c, str) for c in raw_categories):
        raise ImportFormatError(where, "field 'categories': expected a list of strings")
    created = _time(item.get("created_at"), "created_at", where, meta, tally)
    updated = _time(item.get("updated_at"), "updated_at", where, meta, tally)
    if created is None:
        created = updated or now
        meta["time_source"] = "updated_at" if updated else "import"
        tally.metadata["memories without created_at"] += 1
    expiration = item.get("expiration_date")
    valid_until = None
    if isinstance(expiration, str):
        moment = parse_time(expiration)
        valid_until = None if moment is None else utc_text(moment)
    status = "active"
    state = item.get("state")
    if isinstance(state, str):
        status = STATES.get(state, "active")
        if state not in STATES:
            tally.metadata["unknown states (kept in metadata, memory active)"] += 1
    if isinstance(item.get("replaced_by"), str):
        status = "superseded"
    user_id = item.get("user_id")
    memory = pam_memory(
        text,
        id=item_id,
        type=_type(raw_categories, text),
        status=status,
        created_at=created,
        updated_at=updated,
        valid_until=valid_until,
        platform=platform,
        extraction_method="llm_inference",
        extracted_at=now,
        tags=tags_of(raw_categories),
        platform_user_id=user_id if isinstance(user_id, str) else None,
        metadata={META: meta} if meta else None,
    )
    if status == "superseded":
        memory["temporal"]["superseded_by"] = item["replaced_by"]
    tally.mapped["memories"] += 1
    return memory


def read_items(document: Any, where: str, now: str, tally: Tally) -> HubRead:
    memories = [
        item_memory(item, f"{where}: memory {index}", now, tally)
        for index, item in enumerate(items_of(document, where, tally), 1)
    ]
    return HubRead(_superseded_known(memories, tally), [], tally)


def _superseded_known(memories: list[dict[str, Any]], tally: Tally) -> list[dict[str, Any]]:
    """`superseded_by` must name a memory of the import; else it is kept in metadata."""
    ids = {m["id"] for m in memories}
    for memory in memories:
        newer = memory["temporal"].get("superseded_by")
        if newer is not None and newer not in ids:
            del memory["temporal"]["superseded_by"]
            tally.lost["'replaced_by' naming a memory not in the file (kept in metadata)"] += 1
    return memories


# -- OpenMemory ----------------------------------------------------------------------------------


def _listed(record: Mapping[str, Any], name: str, where: str) -> list[Any]:
    """A member that holds a list, or nothing (absent, null, empty)."""
    value = record.get(name)
    if not value:
        return []
    if not isinstance(value, list):
        raise ImportFormatError(where, f"field '{name}': expected a list")
    return value


def read_openmemory(tables: Any, where: str, now: str, tally: Tally) -> HubRead:
    """OpenMemory's ``memories.json``: each memory with its app's and categories' names."""
    if not isinstance(tables, Mapping) or not isinstance(tables.get("memories"), list):
        raise ImportFormatError(where, "field 'memories': expected a list (OpenMemory export)")
    apps = {
        a.get("id"): a.get("name")
        for a in _listed(tables, "apps", where)
        if isinstance(a, Mapping) and isinstance(a.get("id"), str)
    }
    categories = {
        c.get("id"): c.get("name")
        for c in _listed(tables, "categories", where)
        if isinstance(c, Mapping) and isinstance(c.get("id"), str)
    }
    user = tables.get("user")
    user_id = user.get("user_id") if isinstance(user, Mapping) else None
    for table in ("status_history", "access_controls"):
        rows = tables.get(table)
        if isinstance(rows, list) and rows:
            tally.lost[f"{table} rows"] += len(rows)
    memories = []
    for index, row in enumerate(tables["memories"], 1):
        at = f"{where}: memories[{index - 1}]"
        if not isinstance(row, Mapping):
            raise ImportFormatError(at, "expected an object")
        item = {k: v for k, v in row.items() if k not in ("category_ids", "app_id", "user_id")}
        listed = _listed(row, "category_ids", at)
        names = [categories.get(c) for c in listed if isinstance(c, str)]
        item["categories"] = [n for n in names if isinstance(n, str)]
        if isinstance(row.get("app_id"), str) and row.get("app_id") in apps:
            item["app"] = apps[row.get("app_id")]
        if isinstance(user_id, str):
            item["user_id"] = user_id
        memories.append(item_memory(item, at, now, tally, platform="openmemory"))
    return HubRead(memories, [], tally)


def read_openmemory_stream(entry: Entry, now: str, tally: Tally) -> HubRead:
    """OpenMemory's ``memories.jsonl.gz`` (one logical record a line), size-bounded."""
    packed = read_whole(entry)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as unpacked:
            data = unpacked.read(file_limit() + 1)
    except (OSError, EOFError) as exc:
        raise ImportFormatError(entry.display, f"not a readable gzip stream ({exc})") from None
    if len(data) > file_limit():
        raise ImportFormatError(entry.display, f"expands past {file_limit()} bytes")
    memories = []
    for number, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        at = f"{entry.display}: line {number}"
        memories.append(
            item_memory(jsonread.loads(line, at), at, now, tally, platform="openmemory")
        )
    return HubRead(memories, [], tally)


# -- export --------------------------------------------------------------------------------------


def _offset_text(value: str) -> str:
    moment = parse_time(value)
    assert moment is not None
    return moment.astimezone(UTC).isoformat()


def get_all_items(memories: Sequence[Mapping[str, Any]], tally: Tally) -> list[dict[str, Any]]:
    """Active memories as mem0 `get_all` items (module docstring)."""
    items = []
    for memory in memories:
        if memory.get("status", "active") != "active":
            tally.lost["memories not active (mem0 has no status)"] += 1
            continue
        text = str(memory["content"])
        temporal = memory["temporal"]
        item: dict[str, Any] = {
            "id": memory["id"],
            "memory": text,
            "hash": hashlib.md5(text.encode(), usedforsecurity=False).hexdigest(),
            "created_at": _offset_text(temporal["created_at"]),
            "updated_at": _offset_text(temporal.get("updated_at") or temporal["created_at"]),
            "metadata": {RESIDUE: residue(memory)},
        }
        provenance = memory.get("provenance") or {}
        if isinstance(provenance.get("platform_user_id"), str):
            item["user_id"] = provenance["platform_user_id"]
        items.append(item)
        tally.mapped["memories"] += 1
        tally.metadata["PAM fields (in metadata.pam)"] += 1
    return items


def _encode(memories: Records, relations: Records, now: datetime, tally: Tally) -> Encoded:
    items = get_all_items(memories, tally)
    if relations:
        tally.lost["relations (mem0 links no memories)"] += len(relations)
    return orjson.dumps({"results": items}, option=orjson.OPT_INDENT_2)


IMPORTER: Final = Mem0Importer()
EXPORTER: Final = Exporter(NAME, VERSION, _encode)
