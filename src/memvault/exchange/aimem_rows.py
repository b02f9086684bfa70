"""Plain AIMEM chunks straight to store rows, in one pass over the chunks (AIMEM §2, §2.9).

An import used to read every chunk three times — the checksum pass, the validation pass
that also gathered the bundle's graph, and the pass that mapped it (chunk → PAM memory
object → row) — and held the graph as nested lists and dicts for the whole import. Here,
for a bundle whose chunks are all plain (no ``x-pam``, no embedding, none the vault knows,
each clean under §2.2 and §2.3), each chunk is checked and made into its row as it is read
after the checksum pass, and the graph waits in `PackedGraph`: each memory's edges,
entities and links as the JSON bytes of their entries, parsed when its chunk comes.

What this module makes is exactly what the two-pass way makes for such a chunk — the
validator's verdict (`BundleRules.check_chunk`), the mapping (`chunk_to_memory`), the row
(`memory_rows.plain_row`) and the chunk digest — and it answers None for anything else.
`tests/test_aimem_import_rows.py` holds the two ways to the same rows, exports and audit
entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Final

import orjson

from memvault.canonical import content_hash as pam_content_hash
from memvault.canonical import jcs_dumps, sha256_prefixed
from memvault.formats.aimem.validate import (
    _LOCAL,
    MAX_TAG,
    ZONES,
    BundleRules,
    is_utc_timestamp,
    parse_chunk_urn,
)
from memvault.formats.mapping import (
    _CHUNK_MEMBERS,
    META_KEY,
    PAM_TYPE_OF,
    X_PAM,
    _pam_tags_ok,
    _platform,
)
from memvault.memory_rows import schema_clean
from memvault.model import timestamp_epoch
from memvault.store.base import NewMemoryRow

__all__ = ["ChunkRows", "PackedGraph"]

#: Distinct timestamps remembered as valid (a bundle repeats a few of them).
_TIMES: Final = 4096
_ZONES: Final = frozenset(ZONES)


class PackedGraph:
    """A bundle's edges, entities and chunk–entity links grouped by the memory that keeps
    them (as `formats.mapping.graph_parts` groups them, chunk ids being memory ids), each
    memory's part kept as the JSON bytes of what `GraphParts.for_memory` gives for it
    rather than as objects: a few MiB instead of tens, and nothing for the cyclic collector
    to scan while the chunks are written."""

    __slots__ = ("_parts",)

    def __init__(self, parts: dict[str, bytes]) -> None:
        self._parts = parts

    @classmethod
    def build(
        cls,
        rules: BundleRules,
        edges: Iterable[Any],
        entities: Iterable[Any],
        links: Iterable[Any],
        chunk_ids: set[str],
        entity_ids: set[str],
        first: str,
    ) -> PackedGraph | None:
        """The graph of a bundle whose records `rules` finds no error in and none of whose
        edges is an ``x-pam`` relation; None otherwise (the two-pass way then reports
        them). `first`: the first chunk's id (the keeper of an entity without links)."""
        try:
            return cls._build(rules, edges, entities, links, chunk_ids, entity_ids, first)
        except TypeError:  # an entry orjson cannot write (an integer beyond 64 bits)
            return None

    @classmethod
    def _build(
        cls,
        rules: BundleRules,
        edges: Iterable[Any],
        entities: Iterable[Any],
        links: Iterable[Any],
        chunk_ids: set[str],
        entity_ids: set[str],
        first: str,
    ) -> PackedGraph | None:
        # memory id -> each member's entries, comma-joined JSON
        tables: tuple[dict[str, bytearray], ...] = ({}, {}, {})
        by_edge, by_entity, by_link = tables
        check_edge = rules.check_edge
        for n, edge in enumerate(edges):
            if _errors(check_edge(n, edge, chunk_ids)) or X_PAM in edge:
                return None
            entry = {"n": n, **{k: v for k, v in edge.items() if k != "source_id"}}
            _add(by_edge, edge["source_id"], entry)
        check_entity = rules.check_entity
        listed = list(enumerate(entities))
        for n, entity in listed:
            if _errors(check_entity(n, entity)):
                return None
        home: dict[str, str] = {}
        check_link = rules.check_chunk_entity
        for n, link in enumerate(links):
            if _errors(check_link(n, link, chunk_ids, entity_ids)):
                return None
            owner = link["chunk_id"]
            home.setdefault(link["entity_id"], owner)
            _add(by_link, owner, {"n": n, **{k: v for k, v in link.items() if k != "chunk_id"}})
        for n, entity in listed:
            _add(by_entity, home.get(entity["id"]) or first, {"n": n, **entity})
        parts: dict[str, bytes] = {}
        for memory_id in dict.fromkeys([*by_edge, *by_entity, *by_link]):
            members = [
                b'"%s":[%s]' % (name, table[memory_id])
                for name, table in ((b"edges", by_edge), (b"entities", by_entity))
                if memory_id in table
            ]
            if memory_id in by_link:
                members.append(b'"links":[%s]' % by_link[memory_id])
            parts[memory_id] = b"{" + b",".join(members) + b"}"
        return cls(parts)

    def of(self, memory_id: str) -> dict[str, Any] | None:
        """What `GraphParts.for_memory` gives for the memory (None for nothing), parsed now."""
        held = self._parts.get(memory_id)
        return None if held is None else orjson.loads(held)


def _add(table: dict[str, bytearray], owner: str, entry: dict[str, Any]) -> None:
    data = orjson.dumps(entry)  # TypeError (JSONEncodeError) for what it cannot write
    held = table.get(owner)
    if held is None:
        table[owner] = bytearray(data)
    else:
        held += b","
        held += data


def _errors(problems: Iterable[Any]) -> bool:
    return any(p.severity == "error" for p in problems)


class ChunkRows:
    """Plain chunks of one bundle to (PAM document, row, chunk digest), or None."""

    def __init__(self, producer: str | None, bundle_producer: str, graph: PackedGraph) -> None:
        #: the envelope's producer when it is a namespace (`BundleRules.producer`)
        self.producer = producer
        self.platform = _platform(bundle_producer)
        self.graph = graph
        self._times: dict[str, float] = {}
        # §2.3: an id in the producer's namespace, told by its prefix and local part
        self._prefix = f"urn:aimem:{producer}:" if producer is not None else "\x00"
        self._cut = len(self._prefix)

    def row(self, chunk: Any) -> tuple[NewMemoryRow, str] | None:
        """The `NewMemoryRow` `plain_row` makes of the PAM memory object `chunk_to_memory`
        maps a plain chunk to, that object checked against the PAM memory schema, and the
        digest of the chunk's own fields (§2.9); None for a chunk that is not plainly valid
        and new-shaped (`BundleRules.check_chunk` would name a problem, it carries
        ``x-pam`` or an embedding, its memory breaks the PAM schema, or it has a shape
        `plain_row` leaves to the `Memory` way). Nothing of it is kept but the row."""
        if type(chunk) is not dict or X_PAM in chunk or "embedding" in chunk:
            return None
        chunk_id, content = chunk.get("id"), chunk.get("content")
        created, kind = chunk.get("created_at"), chunk.get("memory_type")
        if (
            type(chunk_id) is not str
            or type(content) is not str
            or not content.strip()
            or type(created) is not str
            or type(kind) is not str
            or kind not in PAM_TYPE_OF
        ):
            return None
        metadata: dict[str, Any] = {}
        if "is_pinned" in chunk:
            pinned = chunk["is_pinned"]
            if type(pinned) is not bool:
                return None
            metadata["pinned"] = pinned
        if "zone" in chunk:
            zone = chunk["zone"]
            if type(zone) is not str or zone not in _ZONES:
                return None
            metadata["zone"] = zone
        epoch = self._times.get(created)
        if epoch is None:
            if not is_utc_timestamp(created):
                return None
            epoch = timestamp_epoch(created)
            if epoch is None:
                return None
            if len(self._times) < _TIMES:
                self._times[created] = epoch
        if "content_hash" in chunk:
            declared = chunk["content_hash"]
            try:
                if type(declared) is not str or sha256_prefixed(content.encode()) != declared:
                    return None
            except UnicodeEncodeError:
                return None
        if not (chunk_id.startswith(self._prefix) and _LOCAL.fullmatch(chunk_id, self._cut)):
            parsed = parse_chunk_urn(chunk_id)  # "URN:AIMEM:" is one too (RFC 8141 §3.1)
            if parsed is None or (self.producer is not None and parsed[0] != self.producer):
                return None
        # The members of metadata.aimem in the order `chunk_to_memory` writes them.
        aimem: dict[str, Any] = {}
        tags: list[str] | None = None
        if "tags" in chunk:
            given = chunk["tags"]
            if type(given) is not list:
                return None
            for tag in given:
                # Not lowercase ASCII is a warning only (§2.2): kept as AIMEM tags below.
                if type(tag) is not str or not 1 <= len(tag) <= MAX_TAG:
                    return None
            if _pam_tags_ok(given):
                tags = list(given)
            else:
                aimem["tags"] = given
                kept = [t for t in given if _pam_tags_ok([t])]
                tags = list(dict.fromkeys(kept))
        if "content_hash" not in chunk:
            aimem["content_hash"] = False
        if not chunk.keys() <= _CHUNK_MEMBERS:
            extra = {k: v for k, v in chunk.items() if k not in _CHUNK_MEMBERS}
            if extra:
                aimem["extra"] = extra
        graph = self.graph.of(chunk_id)
        if graph:
            aimem.update(graph)
        if aimem:
            metadata[META_KEY] = aimem
        pam_type, custom = PAM_TYPE_OF[kind]
        digest = pam_content_hash(content)
        document: dict[str, Any] = {
            "id": chunk_id,
            "type": pam_type,
            "content": content,
            "content_hash": digest,
            "temporal": {"created_at": created},
            "provenance": {"platform": self.platform},
        }
        if custom is not None:
            document["custom_type"] = custom
        if tags is not None:
            document["tags"] = tags
        if metadata:
            document["metadata"] = metadata
        label = custom if custom is not None else pam_type
        try:
            text = orjson.dumps(document).decode()
        except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, say
            return None
        if not schema_clean(document):
            return None
        row = NewMemoryRow(
            chunk_id,
            pam_type,
            custom,
            "active",
            digest,
            self.platform,
            None,
            epoch,
            None,
            1,
            "private",
            None,
            tags if tags is not None else [],
            text,
            None,
            epoch,
            content,
            f"{' '.join(tags)} {label}" if tags else label,
        )
        try:
            return row, fields_digest(chunk, chunk_id)
        except ValueError:  # CanonicalizationError: not a value RFC 8785 writes
            return None


def fields_digest(chunk: Mapping[str, Any], chunk_id: str) -> str:
    """SHA-256 of a chunk's own fields without its id (RFC 8785), for a chunk without
    embedding and ``x-pam`` (what `exchange.aimem._fields_digest` computes): the canonical
    chunk with its one ``"id"`` member cut out, since RFC 8785 sorts members and a chunk's
    ``content`` sorts before ``id``."""
    canonical = jcs_dumps(chunk)
    member = b',"id":' + jcs_dumps(chunk_id)
    if canonical.count(member) != 1:
        return hashlib.sha256(jcs_dumps({k: v for k, v in chunk.items() if k != "id"})).hexdigest()
    return hashlib.sha256(canonical.replace(member, b"", 1)).hexdigest()
