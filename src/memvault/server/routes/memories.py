"""Memories over HTTP: list, get, create, edit, lifecycle transitions (PAM §7.1), relations
(PAM §13) and erasure of one memory (AIMEM §5.2).

Each route parses, calls one method of the caller's vault session and answers the shape
`memvault.shapes` gives the result. Access (PAM §9) is the session's: an agent's token lists
only what it may read, and writes only where it has the grant.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from memvault import shapes
from memvault.errors import InvalidInput
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES, parse_timestamp
from memvault.server.bodies import body_schema, json_body, validated
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.store.base import MemoryQuery
from memvault.vault import Vault

router = APIRouter(prefix="/v1/memories", tags=["memories"])

Reader = Annotated[Vault, Depends(session_for("memories:read"))]
Writer = Annotated[Vault, Depends(session_for("memories:write"))]
Eraser = Annotated[Vault, Depends(session_for("erase"))]
Body = Annotated[Any, Depends(json_body)]

MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
StatusFilter = Literal[(*MEMORY_STATUSES, "all")]  # type: ignore[valid-type]
Visibility = Literal["private", "shared", "public"]
RelationType = Literal[
    "supports", "contradicts", "extends", "supersedes", "related_to", "derived_from"
]


class NewMemory(BaseModel):
    """A memory to add (PAM §4); the same content as an active memory reinforces it (§6)."""

    model_config = ConfigDict(extra="forbid")

    content: str
    type: MemoryType
    custom_type: str | None = None
    tags: list[str] = Field(default_factory=list)
    summary: str | None = None
    platform: str = "manual"
    visibility: Visibility = "private"
    exportable: bool = True
    confidence: float | None = None
    decay_model: str | None = None
    shared_with: dict[str, list[str]] = Field(
        default_factory=dict, description="PAM §9 grants: entity → permissions."
    )
    metadata: dict[str, Any] | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    conversation_ref: str | None = None
    message_ref: str | None = None


class MemoryPatch(BaseModel):
    """An edit patch, applied atomically: the fields given change, then the grants are added
    and the revocations made (a `null` permission list revokes everything of that entity)."""

    model_config = ConfigDict(extra="forbid")

    content: str | None = None
    type: MemoryType | None = None
    custom_type: str | None = None
    tags: list[str] | None = None
    add_tags: list[str] | None = None
    remove_tags: list[str] | None = None
    summary: str | None = None
    exportable: bool | None = None
    visibility: Visibility | None = None
    metadata: dict[str, Any] | None = None
    valid_from: str | None = None
    valid_until: str | None = None
    grants: dict[str, list[str]] = Field(default_factory=dict)
    revokes: dict[str, list[str] | None] = Field(default_factory=dict)


class Supersession(BaseModel):
    """The memory that replaces this one (PAM §7.1)."""

    model_config = ConfigDict(extra="forbid")

    by: str


class NewRelation(BaseModel):
    """A typed edge from this memory (PAM §13)."""

    model_config = ConfigDict(extra="forbid")

    to: str
    type: RelationType
    confidence: float | None = None


@router.get("", summary="List memories, newest first")
def list_memories(
    vault: Reader,
    type: Annotated[list[MemoryType] | None, Query()] = None,
    custom_type: Annotated[list[str] | None, Query()] = None,
    status: Annotated[list[StatusFilter] | None, Query()] = None,
    tag: Annotated[list[str] | None, Query()] = None,
    platform: Annotated[list[str] | None, Query()] = None,
    since: Annotated[str | None, Query(description="ISO 8601 date or time")] = None,
    until: Annotated[str | None, Query(description="created before: ISO 8601 date or time")] = None,
    min_confidence: Annotated[
        float | None,
        Query(
            ge=0.0,
            le=1.0,
            description="only memories whose stored confidence.current is at least this "
            "(PAM §8; the value the last decay run wrote)",
        ),
    ] = None,
    max_confidence: Annotated[
        float | None,
        Query(
            ge=0.0,
            le=1.0,
            description="only memories whose stored confidence.current is at most this",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> JSONAnswer:
    """`{"total", "offset", "limit", "memories"}`: active memories unless `status` says
    otherwise (`all`: any status); an agent's token sees only what it may read (PAM §9).
    Confidence bounds are inclusive; a memory without a confidence value matches none, and a
    minimum above the maximum is refused (422)."""
    statuses = list(status or ["active"])
    query = MemoryQuery(
        types=tuple(type or ()),
        custom_types=tuple(custom_type or ()),
        statuses=None if "all" in statuses else tuple(dict.fromkeys(statuses)),
        tags=tuple(tag or ()),
        platforms=tuple(platform or ()),
        created_since=None if since is None else _moment(since, "since"),
        created_until=None if until is None else _moment(until, "until"),
        min_confidence=min_confidence,
        max_confidence=max_confidence,
        limit=limit,
        offset=offset,
    )
    return answer(shapes.page_json(vault.list(query)))


def _moment(value: str, name: str) -> datetime:
    try:
        return parse_timestamp(value)
    except ValueError:
        raise InvalidInput(
            f"{name}: {value!r} is not a date; use 2025-06-01 or 2025-06-01T10:00:00Z", name
        ) from None


@router.post(
    "",
    summary="Add a memory (the same content again reinforces it)",
    status_code=201,
    openapi_extra=body_schema(NewMemory),
)
def create_memory(vault: Writer, body: Body) -> JSONAnswer:
    """201 `{"created": true, "reinforced": false, "memory"}` for a new memory; 200 with
    `reinforced: true` when an active memory had the same content (PAM §6)."""
    new = validated(NewMemory, body)
    fields = new.model_dump(exclude={"content", "type", "shared_with"})
    result = vault.add(new.content, new.type, shared_with=list(new.shared_with.items()), **fields)
    return answer(shapes.add_json(result), 201 if result.created else 200)


@router.get("/{memory_id}", summary="One memory")
def get_memory(vault: Reader, memory_id: str) -> JSONAnswer:
    """The PAM memory object (PAM §4); `memory_id` may be a unique prefix."""
    return answer(shapes.memory_json(vault.get(memory_id)))


@router.patch("/{memory_id}", summary="Edit a memory", openapi_extra=body_schema(MemoryPatch))
def edit_memory(vault: Writer, memory_id: str, body: Body) -> JSONAnswer:
    """Apply an edit patch in one transaction; the memory as it ends up. Only the members
    given change (`null` clears summary, metadata and validity)."""
    patch = validated(MemoryPatch, body)
    given = patch.model_dump(exclude_unset=True)
    grants = given.pop("grants", {})
    revokes = given.pop("revokes", {})
    for many in ("add_tags", "remove_tags"):
        if given.get(many) is None:
            given.pop(many, None)
    memory = vault.edit(
        memory_id, grants=list(grants.items()), revokes=list(revokes.items()), **given
    )
    return answer(shapes.memory_json(memory))


@router.delete("/{memory_id}", summary="Erase a memory (AIMEM §5.2)")
def erase_memory(vault: Eraser, memory_id: str) -> JSONAnswer:
    """Hard-delete the memory with its relations, vectors and index entries; its source
    messages stay (they are conversation data). `{"erased", "relations_removed",
    "durable"}`."""
    return answer(shapes.erasure_json(vault.erase(memory_id)))


@router.post("/{memory_id}/retract", summary="Retract a memory (PAM §7.1)")
def retract(vault: Writer, memory_id: str) -> JSONAnswer:
    """The owner invalidates it; it is kept, never deleted (PAM §16.3)."""
    return answer(shapes.memory_json(vault.retract(memory_id)))


@router.post("/{memory_id}/archive", summary="Archive a memory (PAM §7.1)")
def archive(vault: Writer, memory_id: str) -> JSONAnswer:
    """Kept for history only."""
    return answer(shapes.memory_json(vault.archive(memory_id)))


@router.post("/{memory_id}/deprecate", summary="Deprecate a memory (PAM §7.1)")
def deprecate(vault: Writer, memory_id: str) -> JSONAnswer:
    """Still valid, no longer prioritised."""
    return answer(shapes.memory_json(vault.deprecate(memory_id)))


@router.post(
    "/{memory_id}/supersede",
    summary="Replace a memory by another (PAM §7.1)",
    openapi_extra=body_schema(Supersession),
)
def supersede(vault: Writer, memory_id: str, body: Body) -> JSONAnswer:
    """`{"superseded", "relation"}`: the old memory as it now is and the `supersedes`
    relation recorded (both memories must be active)."""
    by = validated(Supersession, body).by
    relation = vault.supersede(memory_id, by)
    return answer(shapes.superseded_json(vault.get(relation.to), relation))


@router.get("/{memory_id}/relations", summary="A memory's relations (PAM §13)")
def relations(vault: Reader, memory_id: str) -> JSONAnswer:
    """Relations in both directions, oldest first; for an agent, only those whose other end
    it may read too."""
    return answer([shapes.relation_json(r) for r in vault.relations(memory_id)])


@router.post(
    "/{memory_id}/relations",
    summary="Relate a memory to another (PAM §13)",
    status_code=201,
    openapi_extra=body_schema(NewRelation),
)
def relate(vault: Writer, memory_id: str, body: Body) -> JSONAnswer:
    """The relation (the existing one when the same pair and type is related again)."""
    new = validated(NewRelation, body)
    relation = vault.relate(memory_id, new.to, new.type, confidence=new.confidence)
    return answer(shapes.relation_json(relation), 201)
