"""The one internal model: memories, relations, conversation index entries, owners, integrity
and signature blocks.

It is a superset of the PAM v1.0 memory object (and, through `metadata` and `custom_type`, of
the AIMEM chunk record). Every block remembers which members were present in the document it
came from: an absent member stays absent and an explicit ``null`` stays ``null``, and members
this version does not know (a later PAM 1.x may add optional fields, §22.3) are kept in
``extra``. So ``Block.from_json(d).to_json() == d`` for every valid document, which is what makes
"read a file, write it back, get the same canonical bytes" hold.

Timestamps stay the strings the document carried (RFC 3339 allows several spellings of one
instant, and the integrity checksum is over the spelling); `parse_timestamp` turns them into
datetimes where order matters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any, ClassVar, Final, Self, TypeVar

from memvault.errors import HTTP_UNPROCESSABLE, VaultError

__all__ = [
    "DNA_TYPES",
    "EXTRACTION_METHODS",
    "MEMORY_STATUSES",
    "MEMORY_TYPES",
    "MISSING",
    "RELATION_TYPES",
    "TRANSITIONS",
    "Access",
    "AccessGrant",
    "Confidence",
    "ConversationIndexEntry",
    "ConversationTemporal",
    "Integrity",
    "Memory",
    "MemoryStore",
    "Missing",
    "ModelError",
    "Owner",
    "Provenance",
    "Relation",
    "Signature",
    "StorageRef",
    "Temporal",
    "parse_timestamp",
]

MEMORY_TYPES: Final = (
    "fact",
    "preference",
    "skill",
    "context",
    "relationship",
    "goal",
    "instruction",
    "identity",
    "environment",
    "project",
    "custom",
)
MEMORY_STATUSES: Final = ("active", "superseded", "deprecated", "retracted", "archived")
RELATION_TYPES: Final = (
    "supports",
    "contradicts",
    "extends",
    "supersedes",
    "related_to",
    "derived_from",
)
EXTRACTION_METHODS: Final = (
    "llm_inference",
    "explicit_user_input",
    "api_export",
    "browser_extraction",
    "manual",
)
DECAY_MODELS: Final = ("time_linear", "time_exponential", "none")

#: PAM §7.1: the only lifecycle transitions a memory may take.
TRANSITIONS: Final[Mapping[str, tuple[str, ...]]] = {
    "active": ("superseded", "deprecated", "retracted", "archived"),
    "superseded": ("archived",),
    "deprecated": ("retracted", "archived"),
    "retracted": (),
    "archived": (),
}

#: AIMEM §1/§5.1 DNA-class memory types. PAM has `preference` and `identity`; AIMEM's
#: `decision`, `pitfall` and `procedure` travel in PAM as `custom` with that `custom_type`.
#: `instruction` (how the user wants to be treated) is a standing preference of the user, so
#: memvault treats it as DNA-class too. See docs/model.md.
DNA_TYPES: Final = frozenset({"preference", "identity", "instruction"})
DNA_CUSTOM_TYPES: Final = frozenset({"decision", "pitfall", "procedure"})


class ModelError(VaultError, ValueError):
    """A document does not have the shape the model needs (a required member is missing or
    has the wrong JSON type). Schema validation reports these with more context; this error is
    for code that builds models directly."""

    http_status = HTTP_UNPROCESSABLE


class Missing:
    """The marker for a member that was absent from the document (distinct from ``null``)."""

    _instance: ClassVar[Missing | None] = None

    def __new__(cls) -> Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final = Missing()

B = TypeVar("B", bound="Block")


#: An RFC 3339 leap second (`23:59:60`); `datetime` has no second 60.
_LEAP_SECOND: Final = re.compile(r"(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:)60(?=[.,+\-Zz]|$)")
#: The earliest instant `datetime` holds, for RFC 3339's year 0000.
_EARLIEST: Final = datetime.min.replace(tzinfo=UTC)


def parse_timestamp(value: str) -> datetime:
    """Parse an RFC 3339 / ISO 8601 timestamp into an aware datetime; naive values are taken
    as UTC. Raises ValueError for text that is not a timestamp.

    Two RFC 3339 spellings that schema validation (jsonschema-rs) accepts have no exact
    `datetime`: a leap second (`…T23:59:60Z`) becomes the last microsecond of second 59, and
    year 0000 becomes the earliest datetime (0001-01-01T00:00:00Z). Both keep the order of
    timestamps as far as `datetime` can express it.
    """
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    if text.startswith("0000-"):
        datetime.fromisoformat("0001" + text[4:])  # still has to be a well-formed timestamp
        return _EARLIEST
    leap = _LEAP_SECOND.match(text)
    if leap:
        text = f"{leap.group(1)}59{text[leap.end() :]}"
    parsed = datetime.fromisoformat(text)
    if leap:
        parsed = parsed.replace(microsecond=999_999)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def timestamp_epoch(value: object) -> float | None:
    """Seconds since the epoch of a timestamp given as text (naive taken as UTC); None for
    anything that is not one — for columns kept to filter and sort by, never to reject."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        try:
            moment = parse_timestamp(value)
        except ValueError:
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


# A member spec: (attribute, JSON key, loader, dumper). Loader/dumper convert nested blocks.
_Loader = Callable[[Any], Any]
_Dumper = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _as_list(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _nested(cls: type[Block]) -> tuple[_Loader, _Dumper]:
    def load(value: Any) -> Any:
        return cls.from_json(value) if isinstance(value, Mapping) else value

    def dump(value: Any) -> Any:
        return value.to_json() if isinstance(value, Block) else value

    return load, dump


def _nested_list(cls: type[Block]) -> tuple[_Loader, _Dumper]:
    def load(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        return tuple(cls.from_json(v) if isinstance(v, Mapping) else v for v in value)

    def dump(value: Any) -> Any:
        if not isinstance(value, tuple | list):
            return value
        return [v.to_json() if isinstance(v, Block) else v for v in value]

    return load, dump


_LIST = (_as_tuple, _as_list)


@dataclass(frozen=True, slots=True)
class Block:
    """Base of every model block: JSON in, JSON out, nothing lost."""

    #: (attribute, JSON key, (loader, dumper)) for members that need more than a copy.
    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {}
    #: attribute names whose JSON key differs (Relation.from_ -> "from").
    _KEYS: ClassVar[Mapping[str, str]] = {}
    #: attributes that must be present in the document.
    _REQUIRED: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def _member_keys(cls) -> list[tuple[str, str]]:
        return [(f.name, cls._KEYS.get(f.name, f.name)) for f in fields(cls) if f.name != "extra"]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping):
            raise ModelError(f"{cls.__name__} must be a JSON object, not {type(data).__name__}")
        kwargs: dict[str, Any] = {}
        known: set[str] = set()
        for attr, key in cls._member_keys():
            known.add(key)
            if key in data:
                value = data[key]
                conv = cls._CONVERT.get(attr)
                kwargs[attr] = conv[0](value) if conv else value
            elif attr in cls._REQUIRED:
                raise ModelError(f"{cls.__name__} requires member {key!r}")
        extra = {k: v for k, v in data.items() if k not in known}
        if extra:
            kwargs["extra"] = extra
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attr, key in self._member_keys():
            value = getattr(self, attr)
            if value is MISSING:
                continue
            conv = self._CONVERT.get(attr)
            out[key] = conv[1](value) if conv else value
        extra: Mapping[str, Any] = getattr(self, "extra", {})
        out.update(extra)
        return out

    def evolve(self, **changes: Any) -> Self:
        """A copy with some members changed (blocks are immutable)."""
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Owner(Block):
    """§3.1 owner: `id` required (SHOULD be UUID v4), optional DID (§17)."""

    id: str = ""
    did: str | Missing | None = MISSING
    created_at: str | Missing = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("id",)


@dataclass(frozen=True, slots=True)
class Temporal(Block):
    """§4.1 temporal block; only `created_at` is required."""

    created_at: str = ""
    updated_at: str | Missing | None = MISSING
    valid_from: str | Missing | None = MISSING
    valid_until: str | Missing | None = MISSING
    superseded_by: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("created_at",)


@dataclass(frozen=True, slots=True)
class Provenance(Block):
    """§11 provenance; only `platform` is required."""

    platform: str = ""
    platform_user_id: str | Missing | None = MISSING
    conversation_ref: str | Missing | None = MISSING
    message_ref: str | Missing | None = MISSING
    extraction_method: str | Missing | None = MISSING
    extracted_at: str | Missing | None = MISSING
    extractor: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("platform",)


@dataclass(frozen=True, slots=True)
class Confidence(Block):
    """§8 confidence: system-computed, not user priority."""

    initial: float | Missing = MISSING
    current: float | Missing = MISSING
    decay_model: str | Missing | None = MISSING
    last_reinforced: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AccessGrant(Block):
    """§9.1 one grant: an entity and its permissions (read / write / delete)."""

    entity: str = ""
    permissions: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {"permissions": _LIST}
    _REQUIRED: ClassVar[tuple[str, ...]] = ("entity", "permissions")


@dataclass(frozen=True, slots=True)
class Access(Block):
    """§9 access control. Defaults when absent: private, exportable, no grants."""

    visibility: str | Missing = MISSING
    exportable: bool | Missing = MISSING
    shared_with: tuple[AccessGrant, ...] | Missing = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {
        "shared_with": _nested_list(AccessGrant)
    }

    @property
    def is_exportable(self) -> bool:
        return self.exportable is not False

    @property
    def effective_visibility(self) -> str:
        return self.visibility if isinstance(self.visibility, str) else "private"


@dataclass(frozen=True, slots=True)
class Memory(Block):
    """§4 memory object, the fundamental unit."""

    id: str = ""
    type: str = ""
    content: str = ""
    content_hash: str = ""
    temporal: Temporal = field(default_factory=Temporal)
    provenance: Provenance = field(default_factory=Provenance)
    custom_type: str | Missing | None = MISSING
    status: str | Missing = MISSING
    summary: str | Missing | None = MISSING
    tags: tuple[str, ...] | Missing = MISSING
    confidence: Confidence | Missing = MISSING
    access: Access | Missing = MISSING
    embedding_ref: str | Missing | None = MISSING
    metadata: Mapping[str, Any] | Missing = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {
        "temporal": _nested(Temporal),
        "provenance": _nested(Provenance),
        "tags": _LIST,
        "confidence": _nested(Confidence),
        "access": _nested(Access),
    }
    _REQUIRED: ClassVar[tuple[str, ...]] = (
        "id",
        "type",
        "content",
        "content_hash",
        "temporal",
        "provenance",
    )

    @property
    def effective_status(self) -> str:
        """§4.3: status defaults to active."""
        return self.status if isinstance(self.status, str) else "active"

    @property
    def pinned(self) -> bool:
        """Pinned memories (AIMEM `is_pinned`) are carried in `metadata.pinned`."""
        return isinstance(self.metadata, Mapping) and self.metadata.get("pinned") is True

    @property
    def is_dna(self) -> bool:
        """AIMEM §5.1 DNA class: never decayed, deleted or superseded by background work."""
        return (
            self.type in DNA_TYPES
            or (self.type == "custom" and self.custom_type in DNA_CUSTOM_TYPES)
            or self.pinned
        )


@dataclass(frozen=True, slots=True)
class Relation(Block):
    """§13.1 a typed edge between two memories."""

    id: str = ""
    from_: str = ""
    to: str = ""
    type: str = ""
    created_at: str = ""
    confidence: float | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KEYS: ClassVar[Mapping[str, str]] = {"from_": "from"}
    _REQUIRED: ClassVar[tuple[str, ...]] = ("id", "from_", "to", "type", "created_at")


@dataclass(frozen=True, slots=True)
class ConversationTemporal(Block):
    created_at: str = ""
    updated_at: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("created_at",)


@dataclass(frozen=True, slots=True)
class StorageRef(Block):
    """§14.2 where the full data lives."""

    type: str = ""
    ref: str = ""
    format: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("type", "ref")


@dataclass(frozen=True, slots=True)
class ConversationIndexEntry(Block):
    """§14 a lightweight reference to a conversation."""

    id: str = ""
    platform: str = ""
    temporal: ConversationTemporal = field(default_factory=ConversationTemporal)
    title: str | Missing | None = MISSING
    message_count: int | Missing | None = MISSING
    tags: tuple[str, ...] | Missing = MISSING
    derived_memories: tuple[str, ...] | Missing = MISSING
    storage: StorageRef | Missing = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {
        "temporal": _nested(ConversationTemporal),
        "tags": _LIST,
        "derived_memories": _LIST,
        "storage": _nested(StorageRef),
    }
    _REQUIRED: ClassVar[tuple[str, ...]] = ("id", "platform", "temporal")


@dataclass(frozen=True, slots=True)
class Integrity(Block):
    """§15.3 integrity block."""

    checksum: str = ""
    total_memories: int = 0
    canonicalization: str | Missing = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("checksum", "total_memories")


@dataclass(frozen=True, slots=True)
class Signature(Block):
    """§18.1 signature block."""

    algorithm: str = ""
    public_key: str = ""
    value: str = ""
    signed_at: str = ""
    key_id: str | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _REQUIRED: ClassVar[tuple[str, ...]] = ("algorithm", "public_key", "value", "signed_at")


def _signature_loader(value: Any) -> Any:
    return Signature.from_json(value) if isinstance(value, Mapping) else value


def _signature_dumper(value: Any) -> Any:
    return value.to_json() if isinstance(value, Block) else value


@dataclass(frozen=True, slots=True)
class MemoryStore(Block):
    """§3 the memory-store document."""

    schema: str = "portable-ai-memory"
    schema_version: str = "1.0"
    owner: Owner = field(default_factory=Owner)
    memories: tuple[Memory, ...] = ()
    spec_uri: str | Missing | None = MISSING
    export_id: str | Missing | None = MISSING
    exported_by: str | Missing | None = MISSING
    export_date: str | Missing = MISSING
    relations: tuple[Relation, ...] | Missing = MISSING
    conversations_index: tuple[ConversationIndexEntry, ...] | Missing = MISSING
    integrity: Integrity | Missing = MISSING
    export_type: str | Missing = MISSING
    base_export_id: str | Missing | None = MISSING
    since: str | Missing | None = MISSING
    type_registry: str | Missing | None = MISSING
    signature: Signature | Missing | None = MISSING
    extra: Mapping[str, Any] = field(default_factory=dict)

    _CONVERT: ClassVar[Mapping[str, tuple[_Loader, _Dumper]]] = {
        "owner": _nested(Owner),
        "memories": _nested_list(Memory),
        "relations": _nested_list(Relation),
        "conversations_index": _nested_list(ConversationIndexEntry),
        "integrity": _nested(Integrity),
        "signature": (_signature_loader, _signature_dumper),
    }
    _REQUIRED: ClassVar[tuple[str, ...]] = ("schema", "schema_version", "owner", "memories")

    @property
    def is_incremental(self) -> bool:
        return self.export_type == "incremental"
