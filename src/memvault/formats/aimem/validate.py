"""The MUSTs of AIMEM §2 (and §7), checked record by record as a bundle is read.

`BundleRules` holds what the checks need across records — the envelope's producer and
embedding settings, the ids seen so far (duplicates) — and checks one envelope or record at a
time, so the streaming reader validates bundles of any size with memory bounded by the id
sets. Cross-references (edge ends, chunk-entity links) are checked against id sets the caller
passes in (the reader gathers them in its first pass).

Members the draft does not define are kept, not reported: the draft has no rule against them,
they are covered by the checksum, and the PAM mapping carries them losslessly.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Collection, Container, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from memvault.canonical import sha256_prefixed
from memvault.findings import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, ValidationResult
from memvault.formats.aimem.errors import STATUS_UNPROCESSABLE, Problem, pointer

__all__ = [
    "DNA_TYPES",
    "EDGE_TYPES",
    "ENTITY_KINDS",
    "FORMATS",
    "LEGACY_FORMAT",
    "MEMORY_TYPES",
    "SCOPES",
    "VERSION",
    "ZONES",
    "BundleReport",
    "BundleRules",
    "BundleValidationResult",
    "check_format_version",
    "is_checksum",
    "is_chunk_urn",
    "is_tenant_id",
    "is_utc_timestamp",
    "parse_chunk_urn",
]

FORMAT: Final = "aimem-bundle"
LEGACY_FORMAT: Final = "memoryai-bundle"
FORMATS: Final = (FORMAT, LEGACY_FORMAT)
VERSION: Final = "1"
SCOPES: Final = ("FULL", "DNA_ONLY", "SINCE")
MEMORY_TYPES: Final = (
    "fact",
    "preference",
    "decision",
    "identity",
    "pitfall",
    "procedure",
    "episodic",
    "goal",
)
DNA_TYPES: Final = ("preference", "decision", "identity", "pitfall", "procedure")
ZONES: Final = ("critical", "important", "standard")
EDGE_TYPES: Final = ("hebbian", "semantic", "temporal", "causal")
ENTITY_KINDS: Final = ("person", "organization", "place", "technology", "concept")
ARRAY_NAMES: Final = ("chunks", "edges", "entities", "chunk_entities")
MAX_LOCAL_ID: Final = 256
MAX_TAG: Final = 64
#: Whether `BundleRules.check_chunk` tells clean chunks at once (off only to compare the two
#: ways in tests).
_CLEAN_CHUNKS = True
MIN_CONTENT_ACCEPTED: Final = 65_536

_NAMESPACE = re.compile(r"[a-z0-9-]{1,63}")
_LOCAL = re.compile(rf"[\x21-\x39\x3b-\x7e]{{1,{MAX_LOCAL_ID}}}")
_URN = re.compile(r"(?i:urn:aimem):([^:]*):(.*)", re.S)
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]+")
_DID = re.compile(
    r"did:[a-z0-9]+:(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2}|:)*(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})"
)
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]00:?00)")
_ANY_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?.*")
_HASH = re.compile(r"sha256:[0-9a-f]{64}")
_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def is_producer_namespace(text: str) -> bool:
    """A Producer Namespace (§2.3): 1-63 lower-case ASCII letters, digits or hyphens."""
    return _NAMESPACE.fullmatch(text) is not None


def check_format_version(envelope: Mapping[str, Any], file: str | None = None) -> list[Problem]:
    """The gate before everything else: is this an AIMEM v1 bundle at all (§2.1, §7)?

    A bundle of another major version is refused (422) before its checksum is looked at,
    since a v1 consumer cannot know how a later version computes it.
    """
    problems: list[Problem] = []
    fmt = envelope.get("format")
    if fmt not in FORMATS:
        got = "missing" if "format" not in envelope else repr(fmt)
        problems.append(
            Problem(
                "format-invalid",
                f'"format" is {got}; an AIMEM bundle says "{FORMAT}" '
                f'(or the legacy "{LEGACY_FORMAT}")',
                "/format",
                "§2.1",
                file=file,
            )
        )
    version = envelope.get("version")
    if version != VERSION:
        if "version" not in envelope:
            problems.append(
                Problem(
                    "version-missing",
                    '"version" is missing; AIMEM v1 requires "1"',
                    "/version",
                    "§2.1",
                    file=file,
                )
            )
        elif isinstance(version, str) and version.split(".")[0].isdigit():
            problems.append(
                Problem(
                    "version-unsupported",
                    f'"version" is {version!r}: a bundle of another major version is refused '
                    f"(§7: breaking changes increment the major version and a v1 consumer "
                    f'must reject them); this consumer reads version "1" only',
                    "/version",
                    "§7",
                    file=file,
                )
            )
        else:
            problems.append(
                Problem(
                    "version-invalid",
                    f'"version" is {version!r}; it must be the string "1"',
                    "/version",
                    "§2.1",
                    file=file,
                )
            )
    return problems


def is_tenant_id(value: Any) -> bool:
    """A §2.1 `tenant_id`: a UUID (8-4-4-4-12 hex) or a URI; one starting ``did:`` must be a
    syntactically valid DID."""
    if not isinstance(value, str):
        return False
    if _UUID.fullmatch(value):
        return True
    if value[:4].lower() == "did:":
        return bool(_DID.fullmatch(value))
    return bool(_URI.fullmatch(value))


def is_checksum(value: Any) -> bool:
    """A well-formed §2.8 checksum: ``sha256:`` and 64 lowercase hex digits."""
    return isinstance(value, str) and bool(_HASH.fullmatch(value))


def is_utc_timestamp(value: Any) -> bool:
    """An ISO-8601 date and time in UTC (``Z`` or ``+00:00``) that exists on the calendar."""
    if not isinstance(value, str) or not _TIMESTAMP.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def parse_chunk_urn(value: Any) -> tuple[str, str] | None:
    """``(producer, local)`` of a well-formed ``urn:aimem:<producer>:<local>`` (§2.3), else None.

    The ``urn`` prefix and the NID are case-insensitive (RFC 8141 §3.1).
    """
    if not isinstance(value, str):
        return None
    match = _URN.fullmatch(value)
    if not match:
        return None
    producer, local = match.group(1), match.group(2)
    if not _NAMESPACE.fullmatch(producer) or not _LOCAL.fullmatch(local):
        return None
    return producer, local


def is_chunk_urn(value: Any, producer: str | None = None) -> bool:
    """True for a well-formed chunk URN (§2.3), in `producer`'s namespace when given."""
    parsed = parse_chunk_urn(value)
    return parsed is not None and (producer is None or parsed[0] == producer)


def _type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class BundleRules:
    """Checks the envelope and each record of one bundle; see the module docstring.

    Create it with the envelope (the top-level members other than the record arrays), then
    call `check_envelope` once and a `check_*` method per record.
    """

    def __init__(self, envelope: Mapping[str, Any], *, file: str | None = None) -> None:
        self.envelope = envelope
        self.file = file
        producer = envelope.get("producer")
        self.producer: str | None = (
            producer if isinstance(producer, str) and _NAMESPACE.fullmatch(producer) else None
        )
        dim = envelope.get("embedding_dim")
        if isinstance(dim, float) and dim.is_integer():
            dim = int(dim)  # 4.0 is the JSON integer 4 (JSON Schema counts it as one too)
        self.embedding_dim: int | None = (
            dim if isinstance(dim, int) and not isinstance(dim, bool) and dim > 0 else None
        )
        self.chunk_ids: set[str] = set()
        self.entity_ids: set[str] = set()
        #: created_at values found valid (`_clean_chunk`): a bundle repeats a few of them
        self._valid_times: set[str] = set()

    def _p(
        self,
        code: str,
        message: str,
        path: str,
        section: str,
        record: str | None = None,
        *,
        severity: str = "error",
    ) -> Problem:
        if severity == "warning":
            return Problem(code, message, path, section, None, "warning", self.file, record)
        return Problem(
            code, message, path, section, STATUS_UNPROCESSABLE, "error", self.file, record
        )

    # ---------------------------------------------------------------------------- envelope

    def check_envelope(
        self, *, has_embeddings: bool = False, arrays: Collection[str] | None = None
    ) -> list[Problem]:
        """Every envelope MUST of §2.1 (and §2.7 when `has_embeddings`), format/version aside.

        `arrays` names the record arrays the bundle has (None: not checked). ``chunks`` is
        required; ``edges``, ``entities`` and ``chunk_entities`` may be absent (§2.4-§2.6 say
        "if present"). A record member that is not an array is in the envelope and refused.
        """
        env = self.envelope
        out: list[Problem] = []
        if arrays is not None and "chunks" not in arrays and "chunks" not in env:
            out.append(
                self._p(
                    "envelope-missing-field",
                    'the bundle has no "chunks" array (§2.1)',
                    "/chunks",
                    "§2.1",
                )
            )
        for name in ARRAY_NAMES:
            if name in env:
                out.append(
                    self._p(
                        "array-invalid",
                        f'"{name}" is {_type(env[name])}; it must be an array of records',
                        pointer(name),
                        "§2.1",
                    )
                )
        for name in ("producer", "tenant_id", "exported_at", "scope"):
            if name not in env:
                out.append(
                    self._p(
                        "envelope-missing-field",
                        f'the envelope has no "{name}" (required by §2.1)',
                        pointer(name),
                        "§2.1",
                    )
                )
        producer = env.get("producer")
        if "producer" in env and self.producer is None:
            out.append(
                self._p(
                    "producer-invalid",
                    f'"producer" is {_short(producer)}; a Producer Namespace is 1-63 characters of '
                    "[a-z0-9-]",
                    "/producer",
                    "§2.1",
                )
            )
        tenant = env.get("tenant_id")
        if "tenant_id" in env and not is_tenant_id(tenant):
            out.append(
                self._p(
                    "tenant-id-invalid",
                    f'"tenant_id" is {_short(tenant)}; it must be a UUID (RFC 4122) or a URI '
                    "(a DID included)",
                    "/tenant_id",
                    "§2.1",
                )
            )
        if "exported_at" in env:
            out.extend(self._timestamp(env["exported_at"], "/exported_at", "§2.1", None))
        scope = env.get("scope")
        if "scope" in env and scope not in SCOPES:
            out.append(
                self._p(
                    "scope-invalid",
                    f'"scope" is {_short(scope)}; it must be one of {", ".join(SCOPES)}',
                    "/scope",
                    "§2.1",
                )
            )
        if scope == "SINCE" and "since" not in env:
            out.append(
                self._p(
                    "since-missing",
                    'scope is "SINCE" but the envelope has no "since" timestamp',
                    "/since",
                    "§2.1",
                )
            )
        if "since" in env:
            out.extend(self._timestamp(env["since"], "/since", "§2.1", None))
        checksum = env.get("checksum")
        if "checksum" not in env:
            out.append(
                self._p(
                    "checksum-missing", 'the envelope has no "checksum" (§2.8)', "/checksum", "§2.8"
                )
            )
        elif not isinstance(checksum, str) or not _HASH.fullmatch(checksum):
            out.append(
                self._p(
                    "checksum-malformed",
                    f'"checksum" is {_short(checksum)}; expected "sha256:" and 64 '
                    "lowercase hex digits",
                    "/checksum",
                    "§2.8",
                )
            )
        out.extend(self._embedding_envelope(has_embeddings))
        return out

    def _embedding_envelope(self, has_embeddings: bool) -> list[Problem]:
        env = self.envelope
        out: list[Problem] = []
        if "embedding_dim" in env and self.embedding_dim is None:
            out.append(
                self._p(
                    "embedding-dim-invalid",
                    f'"embedding_dim" is {_short(env["embedding_dim"])}; it must be '
                    "a positive integer",
                    "/embedding_dim",
                    "§2.7",
                )
            )
        model = env.get("embedding_model")
        if "embedding_model" in env and (not isinstance(model, str) or not model):
            out.append(
                self._p(
                    "embedding-model-invalid",
                    f'"embedding_model" is {_short(model)}; it must be a non-empty string',
                    "/embedding_model",
                    "§2.7",
                )
            )
        if has_embeddings:
            for name in ("embedding_dim", "embedding_model"):
                if name not in env:
                    out.append(
                        self._p(
                            "embedding-envelope-missing",
                            f'chunks carry embeddings but the envelope has no "{name}"',
                            pointer(name),
                            "§2.7",
                        )
                    )
        return out

    def _timestamp(self, value: Any, path: str, section: str, record: str | None) -> list[Problem]:
        if is_utc_timestamp(value):
            return []
        if isinstance(value, str) and _ANY_TIMESTAMP.fullmatch(value):
            msg = f"{_short(value)} is not an ISO-8601 timestamp in UTC (end it in Z or +00:00)"
            return [self._p("timestamp-not-utc", msg, path, section, record)]
        msg = f"{_short(value)} is not an ISO-8601 UTC timestamp (e.g. 2026-06-12T10:00:00Z)"
        return [self._p("timestamp-invalid", msg, path, section, record)]

    def _required(
        self,
        record: Mapping[str, Any],
        names: tuple[str, ...],
        base: str,
        section: str,
        what: str,
        rid: str | None,
    ) -> list[Problem]:
        return [
            self._p(
                "field-missing",
                f'{what} has no "{name}" (required by {section})',
                base + pointer(name),
                section,
                rid,
            )
            for name in names
            if name not in record
        ]

    def _not_object(self, value: Any, path: str, section: str, what: str) -> Problem:
        return self._p(
            "record-not-object", f"{what} is {_type(value)}, not an object", path, section
        )

    # ------------------------------------------------------------------------------- chunks

    def check_chunk(self, index: int, chunk: Any, array: str = "chunks") -> list[Problem]:
        """§2.2 ChunkRecord, §2.3 id, §2.7 embedding; records the id for duplicate checks."""
        if _CLEAN_CHUNKS and self._clean_chunk(chunk):
            return []
        base = f"/chunks/{index}" if array == "chunks" else pointer(array, index)
        if not isinstance(chunk, Mapping):
            return [self._not_object(chunk, base, "§2.2", f"chunk {index}")]
        rid = chunk.get("id") if isinstance(chunk.get("id"), str) else None
        out = self._required(
            chunk, ("id", "content", "memory_type", "created_at"), base, "§2.2", "the chunk", rid
        )
        if "id" in chunk:
            out.extend(self._chunk_id(chunk["id"], base, rid))
        if "content" in chunk:
            out.extend(self._content(chunk, base, rid))
        if "memory_type" in chunk and chunk["memory_type"] not in MEMORY_TYPES:
            out.append(
                self._p(
                    "memory-type-invalid",
                    f'"memory_type" is {_short(chunk["memory_type"])}; it must be one '
                    f"of {', '.join(MEMORY_TYPES)}",
                    base + "/memory_type",
                    "§2.2",
                    rid,
                )
            )
        if "zone" in chunk and chunk["zone"] not in ZONES:
            out.append(
                self._p(
                    "zone-invalid",
                    f'"zone" is {_short(chunk["zone"])}; it must be one of {", ".join(ZONES)}',
                    base + "/zone",
                    "§2.2",
                    rid,
                )
            )
        if "is_pinned" in chunk and not isinstance(chunk["is_pinned"], bool):
            out.append(
                self._p(
                    "is-pinned-invalid",
                    f'"is_pinned" is {_type(chunk["is_pinned"])}; it must be a boolean',
                    base + "/is_pinned",
                    "§2.2",
                    rid,
                )
            )
        if "created_at" in chunk:
            out.extend(self._timestamp(chunk["created_at"], base + "/created_at", "§2.2", rid))
        if "tags" in chunk:
            out.extend(self._tags(chunk["tags"], base + "/tags", rid))
        if chunk.get("embedding") is not None:
            out.extend(self._embedding(chunk["embedding"], base + "/embedding", rid))
        return out

    def _clean_chunk(self, chunk: Any) -> bool:
        """True when `check_chunk` would find nothing at all (no error, no warning) in a
        chunk without an embedding, told in one pass over its members; the id is then
        recorded as `_chunk_id` records it. False for anything else, with nothing
        recorded: `check_chunk` then names each problem (the common case of a large
        bundle costs a third as much)."""
        if type(chunk) is not dict:
            return False
        chunk_id, content = chunk.get("id"), chunk.get("content")
        created = chunk.get("created_at")
        if (
            type(chunk_id) is not str
            or type(content) is not str
            or not content
            or chunk.get("memory_type") not in MEMORY_TYPES
            or type(created) is not str
            or chunk.get("embedding") is not None
        ):
            return False
        if "zone" in chunk and chunk["zone"] not in ZONES:
            return False
        if "is_pinned" in chunk and type(chunk["is_pinned"]) is not bool:
            return False
        if "tags" in chunk:
            tags = chunk["tags"]
            if type(tags) is not list:
                return False
            for tag in tags:
                if (
                    type(tag) is not str
                    or not 1 <= len(tag) <= MAX_TAG
                    or not tag.isascii()
                    or tag != tag.lower()
                ):
                    return False
        if created not in self._valid_times:
            if not is_utc_timestamp(created):
                return False
            if len(self._valid_times) < 4096:
                self._valid_times.add(created)
        if "content_hash" in chunk:
            declared = chunk["content_hash"]
            if type(declared) is not str or not _HASH.fullmatch(declared):
                return False
            try:
                if sha256_prefixed(content.encode("utf-8")) != declared:
                    return False
            except UnicodeEncodeError:
                return False
        parsed = parse_chunk_urn(chunk_id)
        if parsed is None or (self.producer is not None and parsed[0] != self.producer):
            return False
        if chunk_id in self.chunk_ids:
            return False
        self.chunk_ids.add(chunk_id)
        return True

    def _chunk_id(self, value: Any, base: str, rid: str | None) -> list[Problem]:
        path = base + "/id"
        parsed = parse_chunk_urn(value)
        if parsed is None:
            return [
                self._p(
                    "chunk-id-invalid",
                    f"chunk id {_short(value)} is not urn:aimem:<producer>:<local> (producer "
                    r"[a-z0-9-]{1,63}; local 1-256 printable ASCII [\x21-\x7E] without ':')",
                    path,
                    "§2.3",
                    rid,
                )
            ]
        out: list[Problem] = []
        if self.producer is not None and parsed[0] != self.producer:
            out.append(
                self._p(
                    "chunk-id-producer-mismatch",
                    f'chunk id {value!r} is in namespace "{parsed[0]}", not the envelope\'s '
                    f'producer "{self.producer}"',
                    path,
                    "§2.3",
                    rid,
                )
            )
        assert isinstance(value, str)
        if value in self.chunk_ids:
            out.append(
                self._p(
                    "duplicate-chunk-id",
                    f"chunk id {value!r} appears more than once",
                    path,
                    "§2.3",
                    rid,
                )
            )
        else:
            self.chunk_ids.add(value)
        return out

    def _content(self, chunk: Mapping[str, Any], base: str, rid: str | None) -> list[Problem]:
        content = chunk["content"]
        if not isinstance(content, str) or not content:
            what = "empty" if content == "" else _type(content)
            return [
                self._p(
                    "content-invalid",
                    f'"content" is {what}; it must be a non-empty string',
                    base + "/content",
                    "§2.2",
                    rid,
                )
            ]
        if "content_hash" not in chunk:
            return []
        declared = chunk["content_hash"]
        if not isinstance(declared, str) or not _HASH.fullmatch(declared):
            return [
                self._p(
                    "content-hash-malformed",
                    f'"content_hash" is {_short(declared)}; expected lowercase '
                    '"sha256:<64 hex digits>"',
                    base + "/content_hash",
                    "§2.2",
                    rid,
                )
            ]
        try:
            actual = sha256_prefixed(content.encode("utf-8"))
        except UnicodeEncodeError:
            return [
                self._p(
                    "content-invalid",
                    '"content" holds an unpaired surrogate; it is not valid UTF-8 text',
                    base + "/content",
                    "§2.2",
                    rid,
                )
            ]
        if actual != declared:
            return [
                self._p(
                    "content-hash-mismatch",
                    f'"content_hash" {declared} does not match the UTF-8 bytes of "content" '
                    f"({actual}); the chunk is rejected",
                    base + "/content_hash",
                    "§2.2",
                    rid,
                )
            ]
        return []

    def _tags(self, tags: Any, path: str, rid: str | None) -> list[Problem]:
        if not isinstance(tags, list):
            return [
                self._p(
                    "tags-invalid",
                    f'"tags" is {_type(tags)}; it must be an array of strings',
                    path,
                    "§2.2",
                    rid,
                )
            ]
        out: list[Problem] = []
        for i, tag in enumerate(tags):
            if not isinstance(tag, str) or not 1 <= len(tag) <= MAX_TAG:
                what = _type(tag) if not isinstance(tag, str) else f"{len(tag)} code points long"
                out.append(
                    self._p(
                        "tag-invalid",
                        f"tag {_short(tag)} is {what}; tags are strings of 1-{MAX_TAG} code points",
                        f"{path}/{i}",
                        "§2.2",
                        rid,
                    )
                )
            elif not (tag.isascii() and tag == tag.lower()):
                out.append(
                    self._p(
                        "tag-not-lowercase-ascii",
                        f"tag {_short(tag)} is not lowercase ASCII (recommended)",
                        f"{path}/{i}",
                        "§2.2",
                        rid,
                        severity="warning",
                    )
                )
        return out

    def _embedding(self, value: Any, path: str, rid: str | None) -> list[Problem]:
        if not isinstance(value, str) or not _B64.fullmatch(value) or len(value) % 4:
            what = "not valid base64 (RFC 4648 §4, padded)"
            if not isinstance(value, str):
                what = _type(value)
            return [
                self._p(
                    "embedding-invalid",
                    f"the embedding is {what}; it must be base64 of little-endian float32 values",
                    path,
                    "§2.7",
                    rid,
                )
            ]
        try:
            raw = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return [
                self._p(
                    "embedding-invalid",
                    "the embedding is not valid base64 (RFC 4648)",
                    path,
                    "§2.7",
                    rid,
                )
            ]
        if len(raw) % 4:
            return [
                self._p(
                    "embedding-invalid",
                    f"the embedding decodes to {len(raw)} bytes, not a whole number of "
                    "float32 values",
                    path,
                    "§2.7",
                    rid,
                )
            ]
        if self.embedding_dim is not None and len(raw) != 4 * self.embedding_dim:
            return [
                self._p(
                    "embedding-dim-mismatch",
                    f"the embedding has {len(raw) // 4} float32 values but the "
                    f"envelope declares embedding_dim {self.embedding_dim}",
                    path,
                    "§2.7",
                    rid,
                )
            ]
        return []

    # ------------------------------------------------------------------------------- others

    def check_entity(self, index: int, entity: Any) -> list[Problem]:
        """§2.5 entity record; records the id for duplicate and link checks."""
        base = f"/entities/{index}"
        if not isinstance(entity, Mapping):
            return [self._not_object(entity, base, "§2.5", f"entity {index}")]
        rid = entity.get("id") if isinstance(entity.get("id"), str) else None
        out = self._required(
            entity, ("id", "name", "kind", "created_at"), base, "§2.5", "the entity", rid
        )
        eid = entity.get("id")
        if "id" in entity:
            if not isinstance(eid, str) or not eid:
                out.append(
                    self._p(
                        "entity-id-invalid",
                        f"entity id {_short(eid)} is not a non-empty string",
                        base + "/id",
                        "§2.5",
                        rid,
                    )
                )
            elif eid in self.entity_ids:
                out.append(
                    self._p(
                        "duplicate-entity-id",
                        f"entity id {eid!r} appears more than once",
                        base + "/id",
                        "§2.5",
                        rid,
                    )
                )
            else:
                self.entity_ids.add(eid)
        name = entity.get("name")
        if "name" in entity and (not isinstance(name, str) or not name):
            out.append(
                self._p(
                    "entity-name-invalid",
                    f'"name" is {_short(name)}; it must be a non-empty string',
                    base + "/name",
                    "§2.5",
                    rid,
                )
            )
        out.extend(
            self._vocabulary(entity, "kind", ENTITY_KINDS, "entity-kind-invalid", base, "§2.5", rid)
        )
        if "created_at" in entity:
            out.extend(self._timestamp(entity["created_at"], base + "/created_at", "§2.5", rid))
        return out

    def _vocabulary(
        self,
        record: Mapping[str, Any],
        member: str,
        known: Sequence[str],
        code: str,
        base: str,
        section: str,
        rid: str | None,
    ) -> list[Problem]:
        """§2.4 `edge_type`, §2.5 `kind`: one of `known` or an ``x-`` extension (not bare)."""
        value = record.get(member)
        if member not in record or value in known:
            return []
        if isinstance(value, str) and value.startswith("x-") and value[2:]:
            return []
        message = (
            f'"{member}" is {_short(value)}; it must be one of {", ".join(known)} or an "x-" '
            "extension"
        )
        return [self._p(code, message, base + "/" + member, section, rid)]

    def check_edge(self, index: int, edge: Any, chunk_ids: Container[str]) -> list[Problem]:
        """§2.4 edge record; both ends must be chunk ids of this bundle (`chunk_ids`)."""
        if _CLEAN_CHUNKS and self._clean_edge(edge, chunk_ids):
            return []
        base = f"/edges/{index}"
        if not isinstance(edge, Mapping):
            return [self._not_object(edge, base, "§2.4", f"edge {index}")]
        rid = f"{edge.get('source_id')} -> {edge.get('target_id')}"
        out = self._required(
            edge,
            ("source_id", "target_id", "edge_type", "weight", "created_at"),
            base,
            "§2.4",
            "the edge",
            rid,
        )
        for end in ("source_id", "target_id"):
            if end in edge:
                ref = edge[end]
                if not isinstance(ref, str) or ref not in chunk_ids:
                    out.append(
                        self._p(
                            "edge-unknown-chunk",
                            f'"{end}" {_short(ref)} is not the id of a chunk in this bundle',
                            base + pointer(end),
                            "§2.4",
                            rid,
                        )
                    )
        out.extend(
            self._vocabulary(edge, "edge_type", EDGE_TYPES, "edge-type-invalid", base, "§2.4", rid)
        )
        weight = edge.get("weight")
        if "weight" in edge and (
            isinstance(weight, bool)
            or not isinstance(weight, int | float)
            or not 0.0 <= weight <= 1.0
        ):
            out.append(
                self._p(
                    "edge-weight-invalid",
                    f'"weight" is {_short(weight)}; it must be a number in [0.0, 1.0]',
                    base + "/weight",
                    "§2.4",
                    rid,
                )
            )
        if "created_at" in edge:
            out.extend(self._timestamp(edge["created_at"], base + "/created_at", "§2.4", rid))
        return out

    def _clean_edge(self, edge: Any, chunk_ids: Container[str]) -> bool:
        """True when `check_edge` would find nothing, told in one pass (as `_clean_chunk`)."""
        if type(edge) is not dict:
            return False
        source, target = edge.get("source_id"), edge.get("target_id")
        kind, weight, created = edge.get("edge_type"), edge.get("weight"), edge.get("created_at")
        if (
            type(source) is not str
            or type(target) is not str
            or source not in chunk_ids
            or target not in chunk_ids
            or type(created) is not str
        ):
            return False
        if not (type(weight) is float or type(weight) is int) or not 0.0 <= weight <= 1.0:
            return False
        if kind not in EDGE_TYPES and not (
            type(kind) is str and kind.startswith("x-") and kind[2:]
        ):
            return False
        if created not in self._valid_times:
            if not is_utc_timestamp(created):
                return False
            if len(self._valid_times) < 4096:
                self._valid_times.add(created)
        return True

    def check_chunk_entity(
        self, index: int, link: Any, chunk_ids: Container[str], entity_ids: Container[str]
    ) -> list[Problem]:
        """§2.6 link: `chunk_id` must be a chunk and `entity_id` an entity of this bundle."""
        base = f"/chunk_entities/{index}"
        if not isinstance(link, Mapping):
            return [self._not_object(link, base, "§2.6", f"chunk-entity link {index}")]
        rid = f"{link.get('chunk_id')} -> {link.get('entity_id')}"
        out = self._required(link, ("chunk_id", "entity_id"), base, "§2.6", "the link", rid)
        for name, ids, what in (
            ("chunk_id", chunk_ids, "chunk"),
            ("entity_id", entity_ids, "entity"),
        ):
            if name in link:
                ref = link[name]
                if not isinstance(ref, str) or ref not in ids:
                    out.append(
                        self._p(
                            "link-unknown-" + what,
                            f'"{name}" {_short(ref)} is not the id of an {what} in this bundle'
                            if what == "entity"
                            else f'"{name}" {_short(ref)} is not the id of a chunk in this bundle',
                            base + pointer(name),
                            "§2.6",
                            rid,
                        )
                    )
        return out


@dataclass(slots=True)
class BundleReport:
    """The outcome of validating one bundle: its problems and facts (counts, checksum...)."""

    target: str
    form: str = "unknown"
    problems: list[Problem] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    #: True when the target could not be read at all (missing file, not JSON, truncated).
    unreadable: bool = False

    @property
    def errors(self) -> list[Problem]:
        """The problems of severity "error"."""
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The problems of severity "warning"."""
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def valid(self) -> bool:
        """Readable and without errors (warnings allowed)."""
        return not self.unreadable and not self.errors

    @property
    def status(self) -> int:
        """The HTTP status the profile gives the outcome: 200, 409 or 422."""
        errors = self.errors
        if self.unreadable or not errors:
            return STATUS_UNPROCESSABLE if self.unreadable else 200
        return errors[0].status or STATUS_UNPROCESSABLE

    @property
    def exit_code(self) -> int:
        """The CLI exit status: 0 valid, 1 invalid, 2 unreadable."""
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_INVALID if self.errors else EXIT_VALID

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (the CLI's ``validate --json`` entry for a bundle)."""
        return {
            "target": self.target,
            "kind": "aimem-bundle",
            "form": self.form,
            "valid": self.valid,
            "status": self.status,
            "exit_code": self.exit_code,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "findings": [p.to_json() for p in self.problems],
            "facts": self.facts,
        }

    def to_validation_result(self) -> BundleValidationResult:
        """The report as a `memvault.findings.ValidationResult` (for the PAM renderers) whose
        `to_json` is this report's (with each problem's HTTP status)."""
        result = BundleValidationResult(
            self.target, "aimem-bundle", unreadable=self.unreadable, report=self
        )
        result.extend(p.to_finding() for p in self.problems)
        result.facts = dict(self.facts)
        return result


@dataclass(slots=True)
class BundleValidationResult(ValidationResult):
    """A `ValidationResult` for a bundle; its JSON form is the `BundleReport`'s."""

    report: BundleReport | None = None

    def to_json(self) -> dict[str, Any]:
        """`BundleReport.to_json` (code, path, section and status of every problem)."""
        if self.report is None:
            return ValidationResult.to_json(self)
        return self.report.to_json()
