"""Input checking for the vault: every argument a caller hands to `memvault.vault.Vault`.

Each function takes a value as the caller gave it, returns it in the form the vault stores, or
raises `InvalidInput` naming the field and the rule it breaks (with its spec section), before
anything is written. No function here reads or changes the vault; the service in
`memvault.vault` calls them first and then applies the business rules.

The actor strings are defined here too (the owner, background work, agents), since a grant
may not name the owner or background work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from memvault.canonical import content_hash as compute_content_hash
from memvault.canonical import jcs_dumps
from memvault.errors import InvalidInput
from memvault.model import (
    DECAY_MODELS,
    EXTRACTION_METHODS,
    MEMORY_STATUSES,
    MEMORY_TYPES,
    RELATION_TYPES,
    AccessGrant,
    Memory,
    parse_timestamp,
)
from memvault.store.base import MemoryQuery

__all__ = [
    "BACKGROUND_ACTOR",
    "DID_PATTERN",
    "LANGUAGE_PATTERN",
    "OWNER_ACTOR",
    "PERMISSIONS",
    "PLATFORM_PATTERN",
    "SEARCH_ORDERS",
    "TAG_PATTERN",
    "VISIBILITIES",
    "check_actor",
    "check_batch",
    "check_confidence",
    "check_content",
    "check_decay_model",
    "check_entity",
    "check_exportable",
    "check_extraction_method",
    "check_grants",
    "check_id",
    "check_memories",
    "check_metadata",
    "check_owner_fields",
    "check_permissions",
    "check_platform",
    "check_query",
    "check_relation_type",
    "check_search",
    "check_status",
    "check_strings",
    "check_tags",
    "check_type",
    "check_visibility",
    "creator_access",
    "format_timestamp",
    "is_background",
    "is_privileged",
    "optional_text",
    "timestamp_input",
]

OWNER_ACTOR: Final = "user"
BACKGROUND_ACTOR: Final = "system"
VISIBILITIES: Final = ("private", "shared", "public")
PERMISSIONS: Final = ("read", "write", "delete")
SEARCH_ORDERS: Final = ("relevance", "created", "-created", "updated", "-updated")

TAG_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9_-]*")
PLATFORM_PATTERN: Final = re.compile(r"[a-z0-9_-]{2,32}")
LANGUAGE_PATTERN: Final = re.compile(r"[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?")
DID_PATTERN: Final = re.compile(r"did:[a-z0-9]+:.+", re.DOTALL)
_NUMBER: Final = (int, float)
_SEQUENCE: Final = (tuple, list)


def format_timestamp(moment: datetime) -> str:
    """The vault's timestamp form: UTC, ``YYYY-MM-DDTHH:MM:SSZ``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_background(actor: str) -> bool:
    return actor == BACKGROUND_ACTOR or actor.startswith(BACKGROUND_ACTOR + ":")


def is_privileged(actor: str) -> bool:
    return actor == OWNER_ACTOR or is_background(actor)


def check_actor(actor: object) -> str:
    if not isinstance(actor, str) or not actor.strip():
        raise InvalidInput("actor must be a non-empty string", "actor")
    return actor


def timestamp_input(value: object, name: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, str):
        try:
            return format_timestamp(parse_timestamp(value))
        except ValueError:
            pass
    raise InvalidInput(
        f"{name} must be an ISO 8601 date-time such as 2024-05-01T10:00:00Z, not {value!r}",
        name,
    )


def check_tags(tags: object, name: str = "tags") -> tuple[str, ...]:
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput(f"{name} must be a list of strings", name)
    result: list[str] = []
    for tag in tags:
        if not isinstance(tag, str) or not TAG_PATTERN.fullmatch(tag):
            raise InvalidInput(
                f"{name}: tag {tag!r} breaks the PAM tag rule ^[a-z0-9][a-z0-9_-]*$ (§4.3): "
                "lowercase letters, digits, '-' and '_', starting with a letter or digit",
                name,
            )
        if tag not in result:
            result.append(tag)
    return tuple(result)


def check_strings(values: object, name: str) -> tuple[str, ...]:
    """A list of strings, not checked further (e.g. tags to remove: one that is not there,
    valid or not, removes nothing)."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidInput(f"{name} must be a list of strings", name)
    result = tuple(values)
    if not all(isinstance(v, str) for v in result):
        raise InvalidInput(f"{name} must be a list of strings", name)
    return result


def check_type(memory_type: object, custom_type: object) -> str | None:
    if memory_type not in MEMORY_TYPES:
        raise InvalidInput(
            f"type {memory_type!r} is not a PAM memory type (§5); use one of "
            f"{', '.join(MEMORY_TYPES)}",
            "type",
        )
    if memory_type == "custom":
        if not isinstance(custom_type, str) or not custom_type.strip():
            raise InvalidInput(
                'custom_type is required when type is "custom" (PAM §5.1)', "custom_type"
            )
        return custom_type
    if custom_type is not None:
        raise InvalidInput(
            f'custom_type must be empty unless type is "custom" (PAM §5.1); got {custom_type!r} '
            f"with type {memory_type!r}",
            "custom_type",
        )
    return None


def check_content(content: object) -> str:
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content must be non-empty text (PAM §4.1)", "content")
    if "\x00" in content:
        raise InvalidInput("content must not contain NUL characters", "content")
    return content


def check_platform(platform: object) -> str:
    if not isinstance(platform, str) or not PLATFORM_PATTERN.fullmatch(platform):
        raise InvalidInput(
            f"platform {platform!r} breaks the PAM rule ^[a-z0-9_-]{{2,32}}$ (§11.4): 2-32 "
            "lowercase ASCII letters, digits, '-' or '_'",
            "platform",
        )
    return platform


def check_extraction_method(method: object) -> str | None:
    if method is not None and method not in EXTRACTION_METHODS:
        raise InvalidInput(
            f"extraction_method {method!r} is not one of {', '.join(EXTRACTION_METHODS)} "
            "(PAM §11.3)",
            "extraction_method",
        )
    return method if isinstance(method, str) else None


def check_visibility(visibility: object) -> str:
    if visibility not in VISIBILITIES:
        raise InvalidInput(
            f"visibility {visibility!r} must be private, shared or public (PAM §9)", "visibility"
        )
    return str(visibility)


def check_confidence(value: object, name: str = "confidence") -> float:
    if isinstance(value, bool) or not isinstance(value, _NUMBER) or not 0.0 <= float(value) <= 1.0:
        raise InvalidInput(f"{name} must be a number in [0, 1] (PAM §8), not {value!r}", name)
    return float(value)


def check_decay_model(value: object) -> str | None:
    if value is not None and value not in DECAY_MODELS:
        raise InvalidInput(
            f"decay_model {value!r} must be time_linear, time_exponential, none or null (PAM §8.1)",
            "decay_model",
        )
    return value if isinstance(value, str) else None


def check_permissions(permissions: object) -> tuple[str, ...]:
    if isinstance(permissions, str):
        permissions = (permissions,)
    if not isinstance(permissions, Iterable):
        raise InvalidInput("permissions must be a list of read, write, delete", "permissions")
    result: list[str] = []
    for permission in permissions:
        if permission not in PERMISSIONS:
            raise InvalidInput(
                f"permissions: {permission!r} must be read, write or delete (PAM §9.1)",
                "permissions",
            )
        if permission not in result:
            result.append(str(permission))
    if not result:
        raise InvalidInput(
            "permissions: a grant needs at least one permission (PAM §9.1)", "permissions"
        )
    return tuple(p for p in PERMISSIONS if p in result)


def check_entity(entity: object) -> str:
    if not isinstance(entity, str) or not entity.strip():
        raise InvalidInput("entity must be a non-empty string (PAM §9.1)", "entity")
    if is_privileged(entity):
        raise InvalidInput(
            f"entity {entity!r} is reserved: {OWNER_ACTOR!r} is the owner and "
            f"{BACKGROUND_ACTOR!r} background work; grants name agents",
            "entity",
        )
    return entity


def check_grants(shared_with: object) -> tuple[AccessGrant, ...]:
    if isinstance(shared_with, str) or not isinstance(shared_with, Iterable):
        raise InvalidInput("shared_with must be a list of grants", "shared_with")
    merged: dict[str, list[str]] = {}
    entity: object
    permissions: object
    for grant in shared_with:
        if isinstance(grant, AccessGrant):
            entity, permissions = grant.entity, grant.permissions
        elif isinstance(grant, Mapping):
            entity, permissions = grant.get("entity"), grant.get("permissions")
        elif isinstance(grant, _SEQUENCE) and len(grant) == 2:
            entity, permissions = grant[0], grant[1]
        else:
            raise InvalidInput(
                f"a grant must be AccessGrant, {{'entity', 'permissions'}} or (entity, "
                f"permissions), not {grant!r}",
                "shared_with",
            )
        name = check_entity(entity)
        merged.setdefault(name, []).extend(check_permissions(permissions))
    return tuple(
        AccessGrant(entity=e, permissions=tuple(p for p in PERMISSIONS if p in perms))
        for e, perms in merged.items()
    )


def creator_access(
    actor: str, visibility: str, grants: tuple[AccessGrant, ...]
) -> tuple[str, tuple[AccessGrant, ...]]:
    """The access of a memory an agent creates: the agent holds read and write on it (the
    permission model: an agent may create memories and then holds read and write on what it
    created), so `add --as agent` and `show --as agent` agree. A private memory becomes
    shared with its creator alone — private means the owner only, which would lock the
    creator out of what it just wrote. The owner and background work are unchanged."""
    if is_privileged(actor):
        return visibility, grants
    held = {p for g in grants if g.entity == actor for p in g.permissions} | {"read", "write"}
    mine = AccessGrant(entity=actor, permissions=tuple(p for p in PERMISSIONS if p in held))
    others = tuple(g for g in grants if g.entity != actor)
    return ("shared" if visibility == "private" else visibility), (*others, mine)


def check_metadata(metadata: object) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise InvalidInput("metadata must be an object (PAM §10)", "metadata")
    result = dict(metadata)
    language = result.get("language")
    if language is not None and (
        not isinstance(language, str) or not LANGUAGE_PATTERN.fullmatch(language)
    ):
        raise InvalidInput(
            f"metadata.language {language!r} must be a BCP 47 tag like en or pt-BR (PAM §10)",
            "metadata.language",
        )
    try:
        jcs_dumps(result)
    except ValueError as exc:
        raise InvalidInput(f"metadata is not valid JSON: {exc}", "metadata") from None
    return result


def optional_text(value: object, name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidInput(f"{name} must be text or null, not {value!r}", name)


def check_exportable(value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput("exportable must be true or false (PAM §9)", "exportable")
    return value


def check_owner_fields(owner_id: object, did: object, kdf_iter: object) -> None:
    """The arguments of `Vault.init`: owner id (PAM §3.1), DID (§17), KDF iterations."""
    if owner_id is not None and (not isinstance(owner_id, str) or not owner_id.strip()):
        raise InvalidInput("owner_id must be a non-empty string (PAM §3.1)", "owner_id")
    if did is not None and (not isinstance(did, str) or not DID_PATTERN.fullmatch(did)):
        raise InvalidInput(
            f"did {did!r} must be a DID like did:key:z6Mk… (pattern ^did:[a-z0-9]+:.+$, PAM §17)",
            "did",
        )
    if isinstance(did, str):
        # §17.2: an owner DID MUST resolve. A did:key resolves offline, so one that does not
        # is refused here rather than making every export of the vault invalid.
        from memvault.crypto.did import DIDError, is_did_key, resolve_did_key

        if is_did_key(did):
            try:
                resolve_did_key(did)
            except DIDError as exc:
                raise InvalidInput(
                    f"{exc} (PAM §17.2: the owner DID must resolve)", "did"
                ) from None
    if kdf_iter is not None and (
        isinstance(kdf_iter, bool) or not isinstance(kdf_iter, int) or kdf_iter < 1
    ):
        raise InvalidInput("kdf_iter must be a whole number ≥ 1", "kdf_iter")


def check_id(id_or_prefix: object) -> str:
    """A memory id or a unique prefix of one, stripped."""
    if not isinstance(id_or_prefix, str) or not id_or_prefix.strip():
        raise InvalidInput("a memory id (or a unique prefix of one) is required", "id")
    return id_or_prefix.strip()


def check_status(status: object) -> str:
    if status not in MEMORY_STATUSES:
        raise InvalidInput(
            f"status {status!r} is not one of {', '.join(MEMORY_STATUSES)} (PAM §7)", "status"
        )
    return str(status)


def check_relation_type(relation_type: object) -> str:
    if relation_type not in RELATION_TYPES:
        raise InvalidInput(
            f"relation type {relation_type!r} is not one of {', '.join(RELATION_TYPES)} "
            "(PAM §13.2)",
            "type",
        )
    return str(relation_type)


def check_query(query: object) -> MemoryQuery:
    """A `MemoryQuery` (None: the default one) with a sane limit and offset."""
    query = MemoryQuery() if query is None else query
    if not isinstance(query, MemoryQuery):
        raise InvalidInput("query must be a MemoryQuery", "query")
    if query.limit is not None and query.limit < 0:
        raise InvalidInput("limit must be ≥ 0", "limit")
    if query.offset < 0:
        raise InvalidInput("offset must be ≥ 0", "offset")
    low, high = query.min_confidence, query.max_confidence
    if low is not None:
        check_confidence(low, "min_confidence")
    if high is not None:
        check_confidence(high, "max_confidence")
    if low is not None and high is not None and low > high:
        raise InvalidInput(
            f"min_confidence {low} is above max_confidence {high}: no memory could match",
            "min_confidence",
        )
    return query


def check_search(text: object, order: object) -> None:
    if not isinstance(text, str):
        raise InvalidInput("search text must be a string", "text")
    if not text.strip():
        raise InvalidInput("the search text is empty: give the words to look for", "text")
    if order not in SEARCH_ORDERS:
        raise InvalidInput(
            f"order {order!r} must be relevance, created, -created, updated or -updated",
            "order",
        )


def check_batch(batch: Sequence[object]) -> None:
    """Every item of an `add_memories` batch is a `Memory`."""
    for index, memory in enumerate(batch):
        if not isinstance(memory, Memory):
            raise InvalidInput(f"memories[{index}] is not a Memory", "memories")


def check_memories(batch: Sequence[object], start: int = 0) -> list[str]:
    """Check incoming PAM memories against the PAM memory schema and §6; returns each one's
    JSON text. InvalidInput names memories[start + index], the id, the path and the rule."""
    from memvault.formats.pam.schema import validate_memories
    from memvault.store.codec import memory_to_json

    dumps = orjson.dumps
    documents: list[dict[str, Any]] = []
    for index, memory in enumerate(batch):
        if not isinstance(memory, Memory):
            raise InvalidInput(f"memories[{start + index}] is not a Memory", "memories")
        content = memory.content
        if isinstance(content, str) and content.strip():
            if memory.content_hash != compute_content_hash(content):
                raise InvalidInput(
                    f"memories[{start + index}] (id {memory.id!r}): content_hash does not "
                    "match the content (PAM §6: sha256 of the normalized content)",
                    "content_hash",
                )
        elif isinstance(content, str):
            raise InvalidInput(
                f"memories[{start + index}] (id {memory.id!r}): content must be non-empty "
                "text (PAM §4.1)",
                "content",
            )
        documents.append(memory_to_json(memory))
    findings = [f for f in validate_memories(documents, 0) if f.severity == "error"]
    if findings:
        first = findings[0]
        index_text = first.path.partition("[")[2].partition("]")[0]
        index = int(index_text) if index_text.isdigit() else 0
        memory = batch[index]
        memory_id = memory.id if isinstance(memory, Memory) else "?"
        extra = len(findings) - 1
        more = f" (and {extra} more problem{'s' * (extra != 1)})" if extra else ""
        section = f" ({first.section})" if first.section else ""
        field = first.path.split("].", 1)[1] if "]." in first.path else None
        path = first.path.replace("$.memories[", "", 1).partition("]")[2].lstrip(".")
        raise InvalidInput(
            f"memories[{start + index}] (id {memory_id!r}): {path or 'memory'}: "
            f"{first.message}{section}{more}",
            field,
        )
    try:
        return [dumps(d).decode() for d in documents]
    except (TypeError, orjson.JSONEncodeError) as exc:  # pragma: no cover - schema-checked
        raise InvalidInput(f"a memory is not valid JSON: {exc}", "memories") from None
