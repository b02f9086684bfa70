"""PAM v1.0 ↔ AIMEM Bundle v1, lossless both ways.

Two functions do the work, one per direction, on plain JSON values:

- `chunk_to_memory` (AIMEM → PAM) turns a chunk into a PAM memory object (and, when the chunk
  has an embedding, a PAM embedding object). What a chunk says that PAM has a field for goes
  to that field; what PAM has no field for goes to the memory's `metadata` (the one PAM block
  that allows extra members, §10): ``metadata.pinned``, ``metadata.zone`` and
  ``metadata.aimem`` (see docs/aimem-mapping.md for every member).
- `BundleAssembler.chunk` (PAM → AIMEM) turns a memory back into a chunk. What the chunk's
  own fields cannot say goes to the chunk's ``x-pam`` member, as a *patch*: the members of
  the PAM memory that differ from what `chunk_to_memory` would rebuild from the plain chunk
  (``set``), and those it would rebuild that the memory does not have (``unset``).

Because ``x-pam`` is computed by running the other direction and comparing, PAM → AIMEM →
PAM gives back the memory exactly, whatever it holds; AIMEM → PAM → AIMEM gives back the
chunk because every chunk member has a PAM home and `metadata.aimem` keeps the rest. Edges
with an ``x-pam`` member are PAM relations that travelled as AIMEM edges; other edges, the
entities and the chunk–entity links live in the ``metadata.aimem`` of the chunk they belong
to, with their position in the bundle (``n``) so the arrays come back in order. The envelope
members PAM has no header field for ride on the first memory (``metadata.aimem.bundle``); the
PAM header members the envelope cannot say ride in the envelope's ``x-pam``.

`bundle_to_pam` and `pam_to_bundle` apply the mapping to whole documents in memory (the
Hypothesis tests and `memvault convert`); the vault import and export use the record
functions and `BundleAssembler` directly, streaming.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import struct
import tempfile
import uuid
from array import array
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import IO, Any, Final, Protocol

import orjson

from memvault.canonical import content_hash as pam_content_hash
from memvault.canonical import jcs_dumps
from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.formats.aimem.checksum import ARRAYS, bundle_checksum
from memvault.formats.aimem.validate import is_tenant_id, is_utc_timestamp, parse_chunk_urn
from memvault.model import parse_timestamp

__all__ = [
    "AIMEM_TYPE_OF",
    "FORMAT",
    "META_KEY",
    "PAM_TYPE_OF",
    "VERSION",
    "X_PAM",
    "BundleAssembler",
    "GraphParts",
    "MappingError",
    "StreamedGraph",
    "aimem_block",
    "aimem_content_hash",
    "bundle_to_pam",
    "chunk_fields",
    "chunk_id_for",
    "chunk_to_memory",
    "decode_embedding",
    "encode_embedding",
    "envelope_for",
    "graph_parts",
    "memory_id_of",
    "natural_chunk_id",
    "pam_to_bundle",
    "relation_of_edge",
    "utc_timestamp",
]

#: The chunk, edge and envelope member that carries what AIMEM has no field for.
X_PAM: Final = "x-pam"
#: The PAM metadata member that carries what PAM has no field for.
META_KEY: Final = "aimem"
FORMAT: Final = "aimem-bundle"
VERSION: Final = "1"
PAM_SCHEMA: Final = "portable-ai-memory"
EMBEDDINGS_SCHEMA: Final = "portable-ai-memory-embeddings"
#: Edge types of PAM relations travelling as AIMEM edges: ``x-pam-supports`` …
EDGE_TYPE_PREFIX: Final = "x-pam-"
#: The namespace of the deterministic ids given to relations and embeddings rebuilt from a
#: bundle (uuid5; the same bundle gives the same ids every time).
ID_NAMESPACE: Final = uuid.UUID("6f1c5a52-7b1e-4c55-9a1f-2f0f5d3c9e10")

#: AIMEM memory_type → PAM (type, custom_type). AIMEM's decision, pitfall, procedure and
#: episodic have no PAM type: they travel as `custom` (docs/model.md).
PAM_TYPE_OF: Final[Mapping[str, tuple[str, str | None]]] = {
    "fact": ("fact", None),
    "preference": ("preference", None),
    "identity": ("identity", None),
    "goal": ("goal", None),
    "decision": ("custom", "decision"),
    "pitfall": ("custom", "pitfall"),
    "procedure": ("custom", "procedure"),
    "episodic": ("custom", "episodic"),
}
#: PAM type → AIMEM memory_type for the PAM types AIMEM lacks. `instruction` (how the user
#: wants to be treated) is a standing preference, DNA-class in both; the others are facts.
#: The exact PAM type travels in ``x-pam``.
AIMEM_TYPE_OF: Final[Mapping[str, str]] = {
    "fact": "fact",
    "preference": "preference",
    "identity": "identity",
    "goal": "goal",
    "instruction": "preference",
    "skill": "fact",
    "context": "fact",
    "relationship": "fact",
    "environment": "fact",
    "project": "fact",
}
_CUSTOM_AIMEM: Final = frozenset({"decision", "pitfall", "procedure", "episodic"})
_ZONES: Final = frozenset({"critical", "important", "standard"})
_CHUNK_MEMBERS: Final = frozenset(
    {
        "id",
        "content",
        "content_hash",
        "memory_type",
        "zone",
        "is_pinned",
        "created_at",
        "tags",
        "embedding",
        X_PAM,
    }
)
#: Envelope members the PAM header has a home for (or that are recomputed).
_HEADER_MEMBERS: Final = frozenset({"tenant_id", "exported_at", "since", "checksum", X_PAM})
_MAX_LOCAL: Final = 256
_EPOCH: Final = "1970-01-01T00:00:00Z"


class MappingError(VaultError, ValueError):
    """A document the mapping cannot take (not the shape either format requires); `path` is
    a JSON Pointer to the offending member."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


# ---------------------------------------------------------------------------------------------
# Small pieces
# ---------------------------------------------------------------------------------------------


def aimem_content_hash(content: str) -> str:
    """AIMEM §2.2: ``sha256:<hex>`` over the UTF-8 bytes of the content as it is (PAM's
    content_hash is over the *normalized* content; the two differ)."""
    return "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()


def utc_timestamp(value: object) -> str:
    """An AIMEM timestamp (ISO 8601 in UTC) for a PAM one: unchanged when already UTC, else
    the same instant with ``Z``. Text that is no timestamp gives the epoch (the original then
    travels in ``x-pam``)."""
    if is_utc_timestamp(value):
        return str(value)
    if not isinstance(value, str):
        return _EPOCH
    try:
        moment = parse_timestamp(value).astimezone(UTC)
    except (ValueError, OverflowError):
        return _EPOCH
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += f".{moment.microsecond:06d}"
    return text + "Z"


def _pct(text: str, safe: Iterable[int]) -> str:
    allowed = frozenset(safe)
    return "".join(
        chr(b) if b in allowed else f"%{b:02X}" for b in text.encode("utf-8", "surrogatepass")
    )


#: §2.3 local part: printable ASCII without ':' (and '%', which escapes the rest).
_LOCAL_SAFE: Final = frozenset(b for b in range(0x21, 0x7F) if b not in (0x3A, 0x25))


def chunk_id_for(memory_id: str, producer: str) -> str:
    """The chunk URN of a PAM memory id: the id itself when it already is a chunk URN of
    `producer`, else ``urn:aimem:<producer>:<local>`` with the id percent-encoded (ids longer
    than 256 characters encoded get a SHA-256 local part)."""
    parsed = parse_chunk_urn(memory_id)
    if parsed is not None and parsed[0] == producer:
        return memory_id
    local = _pct(memory_id, _LOCAL_SAFE)
    if not local or len(local) > _MAX_LOCAL:
        local = "sha256-" + hashlib.sha256(memory_id.encode("utf-8", "surrogatepass")).hexdigest()
    return f"urn:aimem:{producer}:{local}"


def memory_id_of(chunk: Mapping[str, Any]) -> str:
    """The PAM memory id a chunk becomes: the id its ``x-pam`` names, else the chunk URN."""
    patch = chunk.get(X_PAM)
    if isinstance(patch, Mapping):
        changed = patch.get("set")
        if isinstance(changed, Mapping) and isinstance(changed.get("id"), str):
            return str(changed["id"])
    return str(chunk["id"])


def _tenant_id(owner_id: object) -> str:
    """§2.1: a UUID or a URI. A PAM owner id that is neither becomes a `urn:memvault:owner:`
    URI (the id itself travels in ``x-pam``)."""
    text = owner_id if isinstance(owner_id, str) else ""
    if is_tenant_id(text):  # the validator's own rule, so the two never disagree
        return text
    return "urn:memvault:owner:" + _pct(text, _LOCAL_SAFE)


def _platform(producer: str) -> str:
    """PAM provenance.platform (``^[a-z0-9_-]{2,32}$``) for a producer namespace."""
    return producer if 2 <= len(producer) <= 32 else "aimem"


#: A PAM tag (lowercase ASCII letters and digits, ``_`` and ``-``, not first): what the loop
#: of `_pam_tags_ok` accepts, in one match for the common case.
_PAM_TAG: Final = re.compile(r"[a-z0-9][a-z0-9_-]*")


#: Tags joined with a comma (which no PAM tag holds) that are each a PAM tag.
_PAM_TAG_LIST: Final = re.compile(r"[a-z0-9][a-z0-9_-]*(?:,[a-z0-9][a-z0-9_-]*)*")


def _pam_tags_ok(tags: object) -> bool:
    if type(tags) is list and tags:
        # The common case in one match: strings that, joined, split back into exactly the
        # tags, each a PAM tag, none repeated. Anything else is decided by the loop below.
        try:
            joined = ",".join(tags)
        except TypeError:
            joined = ""
        if (
            joined.count(",") == len(tags) - 1
            and _PAM_TAG_LIST.fullmatch(joined)
            and len(set(tags)) == len(tags)
        ):
            return True
    if not isinstance(tags, list) or len(set(map(str, tags))) != len(tags):
        return False
    match = _PAM_TAG.fullmatch
    if all(type(tag) is str and match(tag) for tag in tags):
        return True  # the fast path: every tag plainly a PAM tag
    for tag in tags:
        if not isinstance(tag, str) or not tag or not tag[0].isascii():
            return False
        if not all(c.isascii() and (c.islower() or c.isdigit() or c in "_-") for c in tag):
            return False
        if not (tag[0].islower() or tag[0].isdigit()):
            return False
    return True


def _aimem_tags(tags: object) -> list[str] | None:
    if not isinstance(tags, list):
        return None
    return [t for t in tags if isinstance(t, str) and 1 <= len(t) <= 64]


def encode_embedding(vector: Sequence[float]) -> str | None:
    """§2.7: base64 of little-endian float32; None when a value has no float32 form."""
    try:
        packed = struct.pack(f"<{len(vector)}f", *vector)
    except (OverflowError, struct.error, TypeError):
        return None
    return base64.b64encode(packed).decode("ascii")


def decode_embedding(text: str) -> list[float]:
    """The float32 values of an §2.7 embedding (MappingError if it is not one)."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise MappingError("the embedding is not base64 (§2.7)") from None
    if len(raw) % 4:
        raise MappingError("the embedding is not a whole number of float32 values (§2.7)")
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


def _equal(a: Any, b: Any) -> bool:
    """JSON equality as RFC 8785 sees it (True is not 1; 1 and 1.0 are the same number)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping):
        return (
            isinstance(b, Mapping)
            and len(a) == len(b)
            and all(k in b and _equal(v, b[k]) for k, v in a.items())
        )
    if isinstance(a, list | tuple):
        return (
            isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(_equal(x, y) for x, y in zip(a, b, strict=True))
        )
    if a is None or b is None:
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


#: orjson options under which equal output bytes mean equal JSON values: anything but JSON
#: types (a datetime, a dataclass, a str or dict subclass) raises instead of being written.
_SAME_BYTES: Final = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _same(a: Any, b: Any) -> bool:
    """`_equal`, with a fast path for the JSON values mapping compares: the same orjson bytes
    are the same JSON value (True is written ``true``, 1 ``1`` and 1.0 ``1.0``, so equal
    bytes never hide a difference `_equal` sees); other bytes, or a value orjson will not
    write, ask `_equal`."""
    if a is b:
        return True
    try:
        if orjson.dumps(a, option=_SAME_BYTES) == orjson.dumps(b, option=_SAME_BYTES):
            return True
    except (orjson.JSONEncodeError, TypeError):
        pass
    return _equal(a, b)


def _diff(base: Mapping[str, Any], actual: Mapping[str, Any]) -> dict[str, Any]:
    """The ``x-pam`` patch that turns `base` into `actual` (empty when they are equal)."""
    changed = {k: v for k, v in actual.items() if k not in base or not _same(base[k], v)}
    removed = [k for k in base if k not in actual]
    patch: dict[str, Any] = {}
    if changed:
        patch["set"] = changed
    if removed:
        patch["unset"] = removed
    return patch


def _apply(target: dict[str, Any], patch: object, path: str) -> None:
    if patch is None:
        return
    if not isinstance(patch, Mapping):
        raise MappingError("x-pam must be an object", path)
    removed = patch.get("unset", [])
    changed = patch.get("set", {})
    if not isinstance(removed, list) or not all(isinstance(k, str) for k in removed):
        raise MappingError("x-pam.unset must be an array of member names", path)
    if not isinstance(changed, Mapping):
        raise MappingError("x-pam.set must be an object", path)
    for key in removed:
        target.pop(key, None)
    target.update(changed)


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# ---------------------------------------------------------------------------------------------
# AIMEM → PAM
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class GraphParts:
    """The bundle's edges, entities and links, grouped by the memory (id) that carries them
    in ``metadata.aimem``, and the PAM relations of the ``x-pam`` edges."""

    edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    entities: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    links: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    relations: list[dict[str, Any]] = field(default_factory=list)

    def for_memory(self, memory_id: str) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for name, table in (("edges", self.edges), ("entities", self.entities)):
            if memory_id in table:
                out[name] = table[memory_id]
        if memory_id in self.links:
            out["links"] = self.links[memory_id]
        return out


def relation_of_edge(edge: Mapping[str, Any], memory_id: Mapping[str, str]) -> dict[str, Any]:
    """The PAM relation an ``x-pam`` edge stands for (`memory_id`: chunk id → memory id)."""
    source = str(edge.get("source_id"))
    target = str(edge.get("target_id"))
    edge_type = str(edge.get("edge_type"))
    relation: dict[str, Any] = {
        "id": str(uuid.uuid5(ID_NAMESPACE, f"relation {source} {edge_type} {target}")),
        "from": memory_id.get(source, source),
        "to": memory_id.get(target, target),
        "type": edge_type.removeprefix(EDGE_TYPE_PREFIX),
        "created_at": edge.get("created_at"),
        "confidence": edge.get("weight"),
    }
    _apply(relation, edge.get(X_PAM), "/edges")
    return relation


def graph_parts(
    edges: Iterable[Mapping[str, Any]],
    entities: Iterable[Mapping[str, Any]],
    links: Iterable[Mapping[str, Any]],
    memory_id: Mapping[str, str],
    first_memory: str | None,
) -> GraphParts:
    """Group a bundle's edges, entities and chunk–entity links by the memory that keeps them
    (`memory_id` maps chunk ids to memory ids). An edge lives with its source, a link with its
    chunk, an entity with the chunk of its first link (an unlinked one with `first_memory`)."""
    parts = GraphParts()
    for n, edge in enumerate(edges):
        if X_PAM in edge:
            parts.relations.append(relation_of_edge(edge, memory_id))
            continue
        source = str(edge.get("source_id"))
        entry = {"n": n, **{k: v for k, v in edge.items() if k != "source_id"}}
        target = entry.get("target_id")
        if isinstance(target, str):
            entry["target_id"] = memory_id.get(target, target)
        parts.edges.setdefault(memory_id.get(source, source), []).append(entry)
    home: dict[str, str] = {}
    for n, link in enumerate(links):
        chunk = str(link.get("chunk_id"))
        owner = memory_id.get(chunk, chunk)
        entity_id = link.get("entity_id")
        if isinstance(entity_id, str):
            home.setdefault(entity_id, owner)
        entry = {"n": n, **{k: v for k, v in link.items() if k != "chunk_id"}}
        parts.links.setdefault(owner, []).append(entry)
    for n, entity in enumerate(entities):
        entity_id = entity.get("id")
        keeper = home.get(entity_id) if isinstance(entity_id, str) else None
        keeper = keeper or first_memory
        if keeper is None:
            raise MappingError(
                "a bundle without chunks cannot carry entities into PAM (they live in the "
                "metadata of a memory)",
                f"/entities/{n}",
            )
        parts.entities.setdefault(keeper, []).append({"n": n, **entity})
    return parts


def chunk_to_memory(
    chunk: Mapping[str, Any],
    *,
    producer: str,
    embedding_model: str | None = None,
    graph: Mapping[str, list[dict[str, Any]]] | None = None,
    bundle: Mapping[str, Any] | None = None,
    path: str = "/chunks/0",
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A PAM memory object (and PAM embedding object, or None) for one chunk.

    `graph` is what `GraphParts.for_memory` gives for it; `bundle` the envelope members the
    first memory carries (``metadata.aimem.bundle``). The chunk must be valid AIMEM (the
    bundle validator's job); MappingError names what makes the mapping impossible."""
    try:
        content = chunk["content"]
        memory_type = chunk["memory_type"]
        created_at = chunk["created_at"]
        chunk_id = chunk["id"]
    except KeyError as exc:
        raise MappingError(f"the chunk has no {exc.args[0]!r} (§2.2)", path) from None
    if memory_type not in PAM_TYPE_OF:
        raise MappingError(f"memory_type {memory_type!r} is not an AIMEM type (§2.2)", path)
    if not isinstance(content, str) or not content:
        raise MappingError("content must be a non-empty string (§2.2)", path)
    pam_type, custom_type = PAM_TYPE_OF[memory_type]
    memory: dict[str, Any] = {"id": chunk_id, "type": pam_type}
    if custom_type is not None:
        memory["custom_type"] = custom_type
    memory["content"] = content
    memory["content_hash"] = pam_content_hash(content)
    memory["temporal"] = {"created_at": created_at}
    memory["provenance"] = {"platform": _platform(producer)}
    aimem: dict[str, Any] = {}
    if "tags" in chunk:
        tags = chunk["tags"]
        if _pam_tags_ok(tags):
            memory["tags"] = list(tags)
        else:
            aimem["tags"] = tags
            if isinstance(tags, list):
                kept = [t for t in tags if isinstance(t, str) and _pam_tags_ok([t])]
                memory["tags"] = list(dict.fromkeys(kept))
    if "content_hash" not in chunk:
        aimem["content_hash"] = False
    embedding: dict[str, Any] | None = None
    if "embedding" in chunk:
        value = chunk["embedding"]
        if isinstance(value, str) and embedding_model is not None:
            vector = decode_embedding(value)
            if encode_embedding(vector) != value:
                aimem["embedding"] = value  # a spelling of the base64 we would not write
            memory_ref = str(uuid.uuid5(ID_NAMESPACE, f"embedding {chunk_id}"))
            embedding = {
                "id": memory_ref,
                "memory_id": memory["id"],
                "model": embedding_model,
                "dimensions": len(vector),
                "created_at": created_at,
                "vector": vector,
            }
            memory["embedding_ref"] = memory_ref
        else:
            aimem["embedding"] = value
    extra = {k: v for k, v in chunk.items() if k not in _CHUNK_MEMBERS}
    if extra:
        aimem["extra"] = extra
    if graph:
        aimem.update(graph)
    if bundle is not None:
        aimem["bundle"] = dict(bundle)
    metadata: dict[str, Any] = {}
    if "is_pinned" in chunk:
        metadata["pinned"] = chunk["is_pinned"]
    if "zone" in chunk:
        metadata["zone"] = chunk["zone"]
    if aimem:
        metadata[META_KEY] = aimem
    if metadata:
        memory["metadata"] = metadata
    patch = chunk.get(X_PAM)
    if patch is not None:
        _apply(memory, patch, path + "/x-pam")
        if isinstance(patch, Mapping) and "embedding" in patch:
            extra_embedding = patch["embedding"]
            if not isinstance(extra_embedding, Mapping):
                raise MappingError("x-pam.embedding must be an object", path + "/x-pam")
            embedding = {**(embedding or {}), **extra_embedding}
    if embedding is not None:
        embedding["memory_id"] = memory["id"]
    return memory, embedding


def bundle_to_pam(
    bundle: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A whole bundle as a PAM memory-store (and embeddings document, or None)."""
    chunks = bundle.get("chunks") or []
    model = bundle.get("embedding_model")
    producer = str(bundle.get("producer"))
    ids = {str(c.get("id")): memory_id_of(c) for c in chunks}
    first = memory_id_of(chunks[0]) if chunks else None
    parts = graph_parts(
        bundle.get("edges") or [],
        bundle.get("entities") or [],
        bundle.get("chunk_entities") or [],
        ids,
        first,
    )
    carried = _carried_envelope(bundle)
    memories: list[dict[str, Any]] = []
    embeddings: list[dict[str, Any]] = []
    for index, chunk in enumerate(chunks):
        memory, embedding = chunk_to_memory(
            chunk,
            producer=producer,
            embedding_model=model if isinstance(model, str) else None,
            graph=parts.for_memory(memory_id_of(chunk)),
            bundle=carried if index == 0 else None,
            path=f"/chunks/{index}",
        )
        memories.append(memory)
        if embedding is not None:
            embeddings.append(embedding)
    store = _pam_header(bundle)
    store["memories"] = memories
    if parts.relations:
        store["relations"] = parts.relations
    _apply(store, bundle.get(X_PAM), "/x-pam")
    document = (
        {"schema": EMBEDDINGS_SCHEMA, "schema_version": "1.0", "embeddings": embeddings}
        if embeddings
        else None
    )
    return store, document


def _carried_envelope(bundle: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope members the PAM header has no field for (kept on the first memory)."""
    carried = {k: v for k, v in bundle.items() if k not in _HEADER_MEMBERS and k not in ARRAYS}
    absent = [a for a in ARRAYS if a not in bundle]
    if absent:
        carried["absent"] = absent
    return carried


def _pam_header(envelope: Mapping[str, Any]) -> dict[str, Any]:
    header: dict[str, Any] = {
        "schema": PAM_SCHEMA,
        "schema_version": "1.0",
        "owner": {"id": envelope.get("tenant_id")},
        "export_date": envelope.get("exported_at"),
        "export_type": "incremental" if envelope.get("scope") == "SINCE" else "full",
    }
    if "since" in envelope:
        header["since"] = envelope["since"]
    return header


# ---------------------------------------------------------------------------------------------
# PAM → AIMEM
# ---------------------------------------------------------------------------------------------


def aimem_block(memory: Mapping[str, Any]) -> dict[str, Any] | None:
    """A memory's ``metadata.aimem`` block (the graph its chunk carried), or None."""
    return _aimem_block(memory)


def _aimem_block(memory: Mapping[str, Any]) -> dict[str, Any] | None:
    """``metadata.aimem`` when it has the shape `chunk_to_memory` writes, else None (then it
    is ordinary metadata and travels in ``x-pam`` like any other)."""
    metadata = memory.get("metadata")
    if not isinstance(metadata, Mapping):
        return None
    block = metadata.get(META_KEY)
    if not isinstance(block, Mapping):
        return None
    for name in ("edges", "entities", "links"):
        if name in block:
            items = block[name]
            if not isinstance(items, list) or not items:
                return None
            for item in items:
                if not isinstance(item, Mapping) or not _is_index(item.get("n")):
                    return None
                if name == "entities" and not isinstance(item.get("id"), str):
                    return None
                if name == "edges" and not isinstance(item.get("target_id"), str):
                    return None
    if "tags" in block and not isinstance(block["tags"], list):
        return None
    if "content_hash" in block and block["content_hash"] is not False:
        return None
    if "embedding" in block and not (
        block["embedding"] is None or isinstance(block["embedding"], str)
    ):
        return None
    for name in ("extra", "bundle"):
        if name in block and not isinstance(block[name], Mapping):
            return None
    known = {"edges", "entities", "links", "tags", "content_hash", "embedding", "extra", "bundle"}
    if set(block) - known:
        return None
    return dict(block)


def _place(items: list[tuple[int, dict[str, Any]]], rest: list[dict[str, Any]]) -> list[Any]:
    """Put `items` (position, record) at their positions and `rest` in the gaps, in order;
    positions that do not fit (repeated, too large) put the items first, in position order."""
    total = len(items) + len(rest)
    positions = [n for n, _ in items]
    if len(set(positions)) == len(positions) and all(n < total for n in positions):
        out: list[Any] = [None] * total
        for n, record in items:
            out[n] = record
        filler = iter(rest)
        return [record if record is not None else next(filler) for record in out]
    return [record for _, record in sorted(items, key=lambda p: p[0])] + rest


class BundleAssembler:
    """PAM → AIMEM for one bundle, in two passes over the memories (so a vault export can
    stream them): `note` each memory (ids and the graph it carries), `add_relation` each
    relation, `finish_graph`, then `chunk` each memory in the same order."""

    def __init__(
        self,
        producer: str,
        *,
        embedding_model: str | None = None,
        envelope: Mapping[str, Any] | None = None,
    ) -> None:
        self.producer = producer
        self.embedding_model = embedding_model
        #: the envelope (without arrays and checksum); set by `set_envelope`
        self.envelope: dict[str, Any] = dict(envelope or {})
        self.chunk_ids: dict[str, str] = {}
        self._used: set[str] = set()
        self._order: list[str] = []
        self._edges: list[tuple[int, dict[str, Any]]] = []
        self._entities: list[tuple[int, dict[str, Any]]] = []
        self._links: list[tuple[int, dict[str, Any]]] = []
        self._relations: list[dict[str, Any]] = []
        self._pending_relations: list[dict[str, Any]] = []
        self.relations_mapped = True
        self.edges: list[dict[str, Any]] = []
        self.entities: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []
        self.parts = GraphParts()
        self._first: str | None = None

    # -- pass 1 --------------------------------------------------------------------------

    def note(self, memory: Mapping[str, Any], chunk_id: str | None = None) -> None:
        """Pass 1 for one memory. `chunk_id`: its chunk id as `chunk_id_for` gives it, when
        the caller kept it (an export's cached chunk), so it is not computed again."""
        memory_id = str(memory.get("id"))
        if chunk_id is None:
            chunk_id = chunk_id_for(memory_id, self.producer)
        if chunk_id in self._used:
            chunk_id = (
                f"urn:aimem:{self.producer}:sha256-"
                + hashlib.sha256(memory_id.encode("utf-8", "surrogatepass")).hexdigest()
            )
        self._used.add(chunk_id)
        self.chunk_ids[memory_id] = chunk_id
        if self._first is None:
            self._first = memory_id
        block = _aimem_block(memory)
        if block is None:
            return
        for entry in block.get("edges", ()):
            self._edges.append((entry["n"], {**entry, "source_id": memory_id}))
        for entry in block.get("entities", ()):
            self._entities.append((entry["n"], dict(entry)))
        for entry in block.get("links", ()):
            self._links.append((entry["n"], {**entry, "chunk_id": memory_id}))

    def add_relation(self, relation: Mapping[str, Any]) -> None:
        self._pending_relations.append(dict(relation))

    def finish_graph(self) -> None:
        """Build the edge, entity and link arrays (with chunk ids) and what `chunk_to_memory`
        would rebuild from them for each memory."""
        ids = self.chunk_ids
        relation_edges: list[dict[str, Any]] = []
        for relation in self._pending_relations:
            source, target = relation.get("from"), relation.get("to")
            if not (isinstance(source, str) and source in ids and target in ids):
                self.relations_mapped = False
                break
            relation_edges.append(self._relation_edge(relation))
        if not self.relations_mapped:
            relation_edges = []
        self._relations = self._pending_relations if self.relations_mapped else []
        # Edges to memories not in the bundle (withheld, erased) cannot be AIMEM edges.
        mapped_edges = []
        for n, edge in self._edges:
            if edge["target_id"] in ids:
                out = {k: v for k, v in edge.items() if k != "n"}
                out["source_id"] = ids[edge["source_id"]]
                out["target_id"] = ids[edge["target_id"]]
                mapped_edges.append((n, out))
        self.edges = _place(mapped_edges, relation_edges)
        seen: set[str] = set()
        entities = []
        for n, entity in self._entities:
            if entity["id"] not in seen:
                seen.add(entity["id"])
                entities.append((n, {k: v for k, v in entity.items() if k != "n"}))
        self.entities = _place(entities, [])
        links = []
        for n, link in self._links:
            if link.get("entity_id") in seen:
                out = {k: v for k, v in link.items() if k != "n"}
                out["chunk_id"] = ids[link["chunk_id"]]
                links.append((n, out))
        self.links = _place(links, [])
        # Pass 1's copies go now: an export holds the graph once as records, once by memory.
        self._edges, self._entities, self._links = [], [], []
        memory_of = {c: m for m, c in ids.items()}
        self.parts = graph_parts(self.edges, self.entities, self.links, memory_of, self._first)

    def _relation_edge(self, relation: Mapping[str, Any]) -> dict[str, Any]:
        ids = self.chunk_ids
        weight = relation.get("confidence")
        if not (
            isinstance(weight, int | float) and not isinstance(weight, bool) and 0 <= weight <= 1
        ):
            weight = 1.0
        edge: dict[str, Any] = {
            "source_id": ids[str(relation["from"])],
            "target_id": ids[str(relation["to"])],
            "edge_type": EDGE_TYPE_PREFIX + str(relation.get("type")),
            "weight": weight,
            "created_at": utc_timestamp(relation.get("created_at")),
        }
        memory_of = {edge["source_id"]: relation["from"], edge["target_id"]: relation["to"]}
        base = relation_of_edge(edge, memory_of)
        edge[X_PAM] = _diff(base, relation)
        return edge

    # -- pass 2 --------------------------------------------------------------------------

    def chunk(
        self,
        memory: Mapping[str, Any],
        embedding: Mapping[str, Any] | None = None,
        *,
        first: bool = False,
    ) -> dict[str, Any]:
        """The chunk of one memory (noted in pass 1); `embedding` is its PAM embedding."""
        memory_id = str(memory.get("id"))
        chunk: dict[str, Any] = {"id": self.chunk_ids[memory_id]}
        chunk.update(chunk_fields(memory))
        if "embedding" not in chunk and embedding is not None and self.fits(embedding):
            encoded = encode_embedding(embedding["vector"])
            if encoded is not None:
                chunk["embedding"] = encoded
        base, base_embedding = chunk_to_memory(
            chunk,
            producer=self.producer,
            embedding_model=self.embedding_model,
            graph=self.parts.for_memory(memory_id),
            bundle=self.carried() if first else None,
        )
        patch = _diff(base, memory)
        if embedding is not None:
            extra = {
                k: v
                for k, v in embedding.items()
                if base_embedding is None
                or k not in base_embedding
                or not _equal(base_embedding[k], v)
            }
            if extra:
                patch["embedding"] = extra
        if patch:
            chunk[X_PAM] = patch
        return chunk

    def fits(self, embedding: Mapping[str, Any]) -> bool:
        """Whether this embedding travels in the bundle (the envelope's model and size)."""
        vector = embedding.get("vector")
        return (
            isinstance(vector, list)
            and bool(vector)
            and embedding.get("model") == self.embedding_model
            and self.embedding_model is not None
            and self.envelope.get("embedding_dim") == len(vector)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in vector)
        )

    def carried(self) -> dict[str, Any]:
        return _carried_envelope({**self.envelope, **{key: [] for key in self.arrays}})

    @property
    def arrays(self) -> list[str]:
        absent = self.envelope.get("absent")
        missing = set(absent) if isinstance(absent, list) else set()
        return [a for a in ARRAYS if a not in missing]

    # -- the envelope -----------------------------------------------------------------------

    def header_patch(self, header: Mapping[str, Any]) -> dict[str, Any]:
        """The envelope's ``x-pam``: what turns the PAM header `chunk_to_memory`'s inverse
        would build into `header` (the memory-store without its memories)."""
        base = _pam_header(self.envelope)
        if self.relations_mapped and self._relations:
            base["relations"] = self._relations
        return _diff(base, header)


def chunk_fields(memory: Mapping[str, Any]) -> dict[str, Any]:
    """The chunk members (all but ``id``, an embedding from the PAM embeddings and ``x-pam``)
    a PAM memory maps to. MappingError when the memory has no content."""
    block = _aimem_block(memory) or {}
    metadata = memory.get("metadata")
    meta = metadata if isinstance(metadata, Mapping) else {}
    content = memory.get("content")
    if not isinstance(content, str) or not content:
        raise MappingError(
            f"memory {memory.get('id')!r}: content must be a non-empty string (PAM §4, AIMEM §2.2)",
            "/content",
        )
    chunk: dict[str, Any] = {"content": content}
    if block.get("content_hash") is not False:
        chunk["content_hash"] = aimem_content_hash(content)
    chunk["memory_type"] = _memory_type(memory)
    if meta.get("zone") in _ZONES:
        chunk["zone"] = meta["zone"]
    if isinstance(meta.get("pinned"), bool):
        chunk["is_pinned"] = meta["pinned"]
    temporal = memory.get("temporal")
    created = temporal.get("created_at") if isinstance(temporal, Mapping) else None
    chunk["created_at"] = utc_timestamp(created)
    if "tags" in block:
        chunk["tags"] = block["tags"]
    elif "tags" in memory:
        tags = _aimem_tags(memory["tags"])
        if tags is not None:
            chunk["tags"] = tags
    if "embedding" in block:
        chunk["embedding"] = block["embedding"]
    for key, value in block.get("extra", {}).items():
        if key not in _CHUNK_MEMBERS:
            chunk[key] = value
    return chunk


def _memory_type(memory: Mapping[str, Any]) -> str:
    pam_type = memory.get("type")
    if pam_type == "custom":
        custom = memory.get("custom_type")
        return str(custom) if custom in _CUSTOM_AIMEM else "fact"
    return AIMEM_TYPE_OF.get(str(pam_type), "fact")


def envelope_for(
    store: Mapping[str, Any],
    *,
    producer: str,
    embedding_model: str | None = None,
    embedding_dim: int | None = None,
    now: str | None = None,
) -> dict[str, Any]:
    """The AIMEM envelope (without arrays and checksum) for a PAM memory-store header: the
    members the first memory carries (a store that came from a bundle), else built here."""
    memories = store.get("memories") or []
    carried: Mapping[str, Any] | None = None
    if memories:
        block = _aimem_block(memories[0])
        if block is not None and isinstance(block.get("bundle"), Mapping):
            carried = block["bundle"]
    owner = store.get("owner")
    owner_id = owner.get("id") if isinstance(owner, Mapping) else None
    envelope: dict[str, Any]
    if carried is not None:
        envelope = dict(carried)
    else:
        incremental = store.get("export_type") == "incremental" and isinstance(
            store.get("since"), str
        )
        envelope = {
            "format": FORMAT,
            "version": VERSION,
            "producer": producer,
            "scope": "SINCE" if incremental else "FULL",
        }
        if embedding_model is not None and embedding_dim is not None:
            envelope["embedding_model"] = embedding_model
            envelope["embedding_dim"] = embedding_dim
    envelope["tenant_id"] = _tenant_id(owner_id)
    export_date = store.get("export_date")
    envelope["exported_at"] = (
        utc_timestamp(export_date) if export_date is not None or now is None else now
    )
    if isinstance(store.get("since"), str):
        envelope["since"] = utc_timestamp(store["since"])
    return envelope


def _embedding_choice(embeddings: Iterable[Mapping[str, Any]]) -> tuple[str | None, int | None]:
    """The model (and dimensions) most embeddings with an inline vector have."""
    counts: dict[tuple[str, int], int] = {}
    for emb in embeddings:
        vector = emb.get("vector")
        model = emb.get("model")
        if isinstance(vector, list) and vector and isinstance(model, str):
            key = (model, len(vector))
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return None, None
    (model, dim), _ = max(counts.items(), key=lambda kv: kv[1])
    return model, dim


def pam_to_bundle(
    store: Mapping[str, Any],
    embeddings: Mapping[str, Any] | None = None,
    *,
    producer: str = "memvault",
    now: str | None = None,
) -> dict[str, Any]:
    """A whole PAM memory-store (and embeddings document) as an AIMEM bundle, checksummed.

    `producer` is the namespace of a store that did not come from a bundle (one that did
    keeps its own)."""
    memories = list(store.get("memories") or [])
    by_memory: dict[str, Mapping[str, Any]] = {}
    for emb in (embeddings or {}).get("embeddings") or []:
        if isinstance(emb, Mapping) and isinstance(emb.get("memory_id"), str):
            by_memory.setdefault(emb["memory_id"], emb)
    model, dim = _embedding_choice(by_memory.values())
    envelope = envelope_for(
        store, producer=producer, embedding_model=model, embedding_dim=dim, now=now
    )
    env_producer = envelope.get("producer")
    assembler = BundleAssembler(
        env_producer if isinstance(env_producer, str) else producer,
        embedding_model=(
            envelope["embedding_model"]
            if isinstance(envelope.get("embedding_model"), str)
            else None
        ),
        envelope=envelope,
    )
    for memory in memories:
        assembler.note(memory)
    for relation in store.get("relations") or []:
        assembler.add_relation(relation)
    assembler.finish_graph()
    chunks = [
        assembler.chunk(m, by_memory.get(str(m.get("id"))), first=i == 0)
        for i, m in enumerate(memories)
    ]
    header = {k: v for k, v in store.items() if k != "memories"}
    bundle: dict[str, Any] = {k: v for k, v in envelope.items() if k != "absent"}
    arrays = assembler.arrays
    if "chunks" in arrays or chunks:
        bundle["chunks"] = chunks
    for name, records in (
        ("edges", assembler.edges),
        ("entities", assembler.entities),
        ("chunk_entities", assembler.links),
    ):
        if name in arrays or records:
            bundle[name] = records
    patch = assembler.header_patch(header)
    if patch:
        bundle[X_PAM] = patch
    bundle["checksum"] = bundle_checksum(bundle)
    return bundle


# ---------------------------------------------------------------------------------------------
# PAM → AIMEM: the graph of a large bundle, streamed
# ---------------------------------------------------------------------------------------------


class GraphRecordCheck(Protocol):
    """What `StreamedGraph.build` checks each record with (`BundleRules`, AIMEM §2.4–§2.6)."""

    def check_entity(self, index: int, entity: Any) -> list[Any]: ...

    def check_edge(self, index: int, edge: Any, chunk_ids: Container[str]) -> list[Any]: ...

    def check_chunk_entity(
        self, index: int, link: Any, chunk_ids: Container[str], entity_ids: Container[str]
    ) -> list[Any]: ...


#: A memory id whose §2.3 local part only escapes ':' (printable ASCII without '%').
_PLAIN_LOCAL: Final = re.compile(r"[\x21-\x24\x26-\x7E]+")


def natural_chunk_id(memory_id: str, producer: str) -> str:
    """`chunk_id_for`, told without encoding byte by byte for the usual ids (a UUID, or a
    chunk URN of another producer)."""
    if _PLAIN_LOCAL.fullmatch(memory_id) and not (
        memory_id[:10].lower() == "urn:aimem:" and memory_id[10:].partition(":")[0] == producer
    ):
        local = memory_id.replace(":", "%3A")
        if len(local) <= _MAX_LOCAL:
            return f"urn:aimem:{producer}:{local}"
    return chunk_id_for(memory_id, producer)


def _digest(text: str) -> int:
    return int.from_bytes(
        hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    )


class _ChunkIds(Container[str]):
    """The bundle's chunk ids, as the 64-bit digests `StreamedGraph` keeps of them."""

    def __init__(self, digests: set[int]) -> None:
        self._digests = digests

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and _digest(value) in self._digests


def _final_positions(ns: list[int], rest: int) -> tuple[list[int], list[int]]:
    """Where `_place` puts each item (`ns`: their ``n`` in note order) and each of `rest`
    records after them: (positions of the items, positions of the rest)."""
    total = len(ns) + rest
    if len(set(ns)) == len(ns) and all(n < total for n in ns):
        taken = set(ns)
        return ns, [p for p in range(total) if p not in taken]
    final = [0] * len(ns)
    for rank, index in enumerate(sorted(range(len(ns)), key=ns.__getitem__)):
        final[index] = rank
    return final, list(range(len(ns), total))


class StreamedGraph:
    """The edge, entity and link arrays of a bundle and the graph each memory's chunk
    carries, as `BundleAssembler` makes them (`note`, `add_relation`, `finish_graph`, then
    `GraphParts.for_memory` per memory) — byte for byte — without holding the graph as
    objects: each memory's ``metadata.aimem`` block goes to a temporary file as noted, its
    records are built one at a time into another (RFC 8785 bytes), and what stays in memory
    is the bundle's memory ids, a 64-bit digest per chunk id and a few integers per record.
    A graph of 50,000 memories held ~50 MiB more as objects at its peak.

    Pass 1: `note` each memory in bundle order (its chunk id the natural one,
    `chunk_id_for`), `add_relation` each relation; then `build` (pass 2: the records, checked
    and placed); then read `records` of each array and `graphs`. `usable` turns False when the
    bundle needs what only `BundleAssembler` does (two memories with one chunk id, a block
    edge carrying ``x-pam``, an unhashable entity reference): the caller then builds it so.
    `close` releases the temporary files."""

    def __init__(self, producer: str) -> None:
        self.producer = producer
        self.usable = True
        self.first: str | None = None
        #: the bundle's memory ids
        self.exported: set[str] = set()
        self._digests: set[int] = set()
        self._entity_ids: set[str] = set()
        self._relations: list[dict[str, Any]] = []
        #: memories carrying a block, in note order, and where it is in `_blocks`
        self._carriers: list[str] = []
        self._block_at = array("q")
        self._blocks: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - `close`
        self._records: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._order: dict[str, list[int]] = {}
        self._at: dict[str, array[int]] = {}
        self._edge_final: list[int] = []
        self._link_final: list[int] = []
        self._entity_final: list[int] = []
        self._entity_json: array[int] = array("q")
        self._entity_home: list[str] = []

    # -- pass 1 --------------------------------------------------------------------------

    def note(self, memory_id: str, chunk_id: str | None, block: bytes | None) -> None:
        """One memory of the bundle, in order: its chunk id (None: `chunk_id_for` gives
        it) and its ``metadata.aimem`` block as JSON bytes (or None)."""
        natural = natural_chunk_id(memory_id, self.producer)
        if chunk_id is not None and chunk_id != natural:
            self.usable = False  # edges name their ends by `chunk_id_for`: assemble it
        chunk_id = natural
        digest = _digest(chunk_id)
        if digest in self._digests or memory_id in self.exported:
            self.usable = False  # two memories with one chunk id: `BundleAssembler` renames
        self._digests.add(digest)
        self.exported.add(memory_id)
        if self.first is None:
            self.first = memory_id
        if block is None:
            return
        parsed = _aimem_block({"metadata": {META_KEY: orjson.loads(block)}})
        if parsed is None or not any(name in parsed for name in ("edges", "entities", "links")):
            return
        try:
            for edge in parsed.get("edges", ()):
                if X_PAM in edge:
                    self.usable = False  # it becomes a relation in `graph_parts`
            for entity in parsed.get("entities", ()):
                self._entity_ids.add(entity["id"])
            for link in parsed.get("links", ()):
                hash(link.get("entity_id"))
        except TypeError:
            self.usable = False
        offset = self._blocks.tell()
        self._blocks.write(block)  # as read: the passes below read its graph members only
        self._carriers.append(memory_id)
        self._block_at.append(offset << 32 | len(block))

    def add_relation(self, relation: Mapping[str, Any]) -> None:
        self._relations.append(dict(relation))

    def _noted_blocks(self) -> Iterable[tuple[str, dict[str, Any]]]:
        self._blocks.flush()
        fd = self._blocks.fileno()
        for memory_id, at in zip(self._carriers, self._block_at, strict=True):
            yield memory_id, orjson.loads(os.pread(fd, at & 0xFFFFFFFF, at >> 32))

    # -- pass 2 --------------------------------------------------------------------------

    def _write(self, kind: str, record: Mapping[str, Any]) -> None:
        data = jcs_dumps(record)
        offset = self._records.tell()
        self._records.write(data)
        self._at[kind].append(offset << 32 | len(data))

    def build(self, rules: GraphRecordCheck | None = None) -> bool:
        """Pass 2: every record built, checked with `rules` when given, written and placed.
        False when a record breaks a rule (or the graph is not `usable`)."""
        if not self.usable:
            return False
        ids = self.exported
        chunk_ids = _ChunkIds(self._digests)
        producer = self.producer
        for kind in ("edges", "entities", "links"):
            self._at[kind] = array("q")
        edge_n: list[int] = []
        entity_n: list[int] = []
        link_n: list[int] = []
        link_owner: list[str] = []
        link_entity: list[Any] = []
        seen: set[str] = set()
        entity_ids: list[str] = []

        def errors(problems: list[Any]) -> bool:
            return any(getattr(p, "severity", "error") == "error" for p in problems)

        for memory_id, block in self._noted_blocks():
            own = natural_chunk_id(memory_id, producer)
            for entry in block.get("edges", ()):
                target = entry["target_id"]
                if target not in ids:
                    continue  # to a memory not in the bundle: not an AIMEM edge
                out = {k: v for k, v in entry.items() if k != "n"}
                out["source_id"] = own
                out["target_id"] = natural_chunk_id(target, producer)
                # Both ends are chunk ids of the bundle by construction (mapped above).
                ends = {own, out["target_id"]}
                if rules is not None and errors(rules.check_edge(len(edge_n), out, ends)):
                    return False
                edge_n.append(entry["n"])
                self._write("edges", out)
            for entry in block.get("entities", ()):
                if entry["id"] in seen:
                    continue
                seen.add(entry["id"])
                out = {k: v for k, v in entry.items() if k != "n"}
                if rules is not None and errors(rules.check_entity(len(entity_n), out)):
                    return False
                entity_n.append(entry["n"])
                entity_ids.append(entry["id"])
                self._write("entities", out)
                data = orjson.dumps(out)
                self._entity_json.append(self._records.tell() << 32 | len(data))
                self._records.write(data)
            for entry in block.get("links", ()):
                if entry.get("entity_id") not in self._entity_ids:
                    continue
                out = {k: v for k, v in entry.items() if k != "n"}
                out["chunk_id"] = own
                if rules is not None and errors(
                    rules.check_chunk_entity(len(link_n), out, {own}, self._entity_ids)
                ):
                    return False
                link_n.append(entry["n"])
                link_owner.append(memory_id)
                link_entity.append(entry.get("entity_id"))
                self._write("links", out)
        # PAM relations between the bundle's memories travel as x-pam edges, after the rest.
        relations = BundleAssembler(producer)
        for relation in self._relations:
            source, target = relation.get("from"), relation.get("to")
            if not (isinstance(source, str) and source in ids and target in ids):
                self._relations, self._at["relations"] = [], array("q")
                break
            relations.chunk_ids[source] = natural_chunk_id(source, producer)
            relations.chunk_ids[str(target)] = natural_chunk_id(str(target), producer)
        else:
            self._at["relations"] = array("q")
        for relation in self._relations:
            edge = relations._relation_edge(relation)
            if rules is not None and errors(rules.check_edge(0, edge, chunk_ids)):
                return False
            self._write("relations", edge)
        extra = len(self._at["relations"])
        self._edge_final, relation_final = _final_positions(edge_n, extra)
        self._link_final, _ = _final_positions(link_n, 0)
        self._entity_final, _ = _final_positions(entity_n, 0)
        self._order = {
            "edges": _inverse(self._edge_final, relation_final),
            "entities": _inverse(self._entity_final, []),
            "links": _inverse(self._link_final, []),
        }
        # An entity lives with the memory of its first link, an unlinked one with the first.
        home: dict[str, str] = {}
        for index in self._order["links"]:
            entity_id = link_entity[index]
            if isinstance(entity_id, str):
                home.setdefault(entity_id, link_owner[index])
        first = self.first or ""
        self._entity_home = [home.get(e) or first for e in entity_ids]
        self._records.flush()
        return True

    # -- the results -----------------------------------------------------------------------

    def _read(self, at: int) -> bytes:
        return os.pread(self._records.fileno(), at & 0xFFFFFFFF, at >> 32)

    def records(self, array_name: str) -> Iterator[bytes]:
        """The RFC 8785 bytes of each record of ``entities``, ``edges`` or
        ``chunk_entities``, in the bundle's order."""
        kind = "links" if array_name == "chunk_entities" else array_name
        at = self._at[kind]
        relations = self._at.get("relations", array("q")) if kind == "edges" else array("q")
        items = len(at)
        for index in self._order[kind]:
            yield self._read(at[index] if index < items else relations[index - items])

    def graphs(self) -> Iterator[tuple[str, bytes]]:
        """(memory id, the graph its chunk carries as `GraphParts.for_memory` gives it,
        JSON with sorted keys as `orjson` writes it) for each memory carrying one."""
        homed: dict[str, list[int]] = {}
        for index, keeper in enumerate(self._entity_home):
            homed.setdefault(keeper, []).append(index)
        edge_index = link_index = 0
        ids = self.exported
        entity_ids = self._entity_ids
        for memory_id, block in self._noted_blocks():
            graph: dict[str, list[dict[str, Any]]] = {}
            edges = []
            for entry in block.get("edges", ()):
                if entry["target_id"] in ids:
                    edges.append(self._entry(entry, self._edge_final[edge_index], "source_id"))
                    edge_index += 1
            links = []
            for entry in block.get("links", ()):
                if entry.get("entity_id") in entity_ids:
                    links.append(self._entry(entry, self._link_final[link_index], "chunk_id"))
                    link_index += 1
            self._add(graph, "edges", edges)
            self._add(graph, "entities", self._entities(homed.pop(memory_id, [])))
            self._add(graph, "links", links)
            if graph:
                yield memory_id, orjson.dumps(graph, option=orjson.OPT_SORT_KEYS)
        for memory_id, indexes in homed.items():  # homes carrying no block (the first)
            graph = {}
            self._add(graph, "entities", self._entities(indexes))
            yield memory_id, orjson.dumps(graph, option=orjson.OPT_SORT_KEYS)

    @staticmethod
    def _entry(entry: Mapping[str, Any], n: int, drop: str) -> dict[str, Any]:
        out = {k: v for k, v in entry.items() if k != drop}
        out["n"] = n
        return out

    @staticmethod
    def _add(
        graph: dict[str, list[dict[str, Any]]], name: str, items: list[dict[str, Any]]
    ) -> None:
        if items:
            items.sort(key=lambda item: int(item["n"]))
            graph[name] = items

    def _entities(self, indexes: list[int]) -> list[dict[str, Any]]:
        out = []
        for index in indexes:
            entity = orjson.loads(self._read(self._entity_json[index]))
            entity["n"] = self._entity_final[index]
            out.append(entity)
        return out

    def close(self) -> None:
        self._blocks.close()
        self._records.close()


def _inverse(final: list[int], rest: list[int]) -> list[int]:
    """Position -> index (the items', then the rest's after them) for `_final_positions`."""
    order = [0] * (len(final) + len(rest))
    for index, position in enumerate(final):
        order[position] = index
    for index, position in enumerate(rest):
        order[position] = len(final) + index
    return order
