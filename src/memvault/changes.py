"""Changing a memory (PAM §7, §9): its fields, its tags and who may read or change it.

`Vault.update`, `edit`, `grant` and `revoke` are written here, behind the session's methods:
each loads the memory, checks the session's actor as vault.py does (`memvault.access`),
writes the changed memory and its audit entry in one transaction, and writes nothing when
nothing really changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from memvault.access import access_of, grants_of, require, require_owner
from memvault.audit import PendingEntry
from memvault.canonical import content_hash as compute_content_hash
from memvault.errors import AccessDenied, ConflictingInput, InvalidInput
from memvault.model import MISSING, AccessGrant, Memory
from memvault.store.base import StoredMemory
from memvault.vault_inputs import (
    PERMISSIONS,
    check_content,
    check_entity,
    check_exportable,
    check_metadata,
    check_permissions,
    check_strings,
    check_tags,
    check_type,
    check_visibility,
    format_timestamp,
    is_privileged,
    optional_text,
    timestamp_input,
)

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["UNCHANGED", "Unchanged", "edit", "grant", "revoke", "save", "update"]

_SEQUENCE: Final = (tuple, list)


class Unchanged:
    """Marker for "leave this field as it is" in `Vault.update`."""

    _instance: Unchanged | None = None

    def __new__(cls) -> Unchanged:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNCHANGED"

    def __bool__(self) -> bool:
        return False


UNCHANGED: Final = Unchanged()


def update(
    vault: Vault,
    id: str,
    *,
    content: str | Unchanged = UNCHANGED,
    type: str | Unchanged = UNCHANGED,
    custom_type: str | Unchanged | None = UNCHANGED,
    tags: Iterable[str] | Unchanged = UNCHANGED,
    add_tags: Iterable[str] = (),
    remove_tags: Iterable[str] = (),
    summary: str | Unchanged | None = UNCHANGED,
    exportable: bool | Unchanged = UNCHANGED,
    visibility: str | Unchanged = UNCHANGED,
    metadata: Mapping[str, Any] | Unchanged | None = UNCHANGED,
    valid_from: datetime | str | Unchanged | None = UNCHANGED,
    valid_until: datetime | str | Unchanged | None = UNCHANGED,
    now: datetime | None = None,
) -> Memory:
    """`Vault.update` in `vault`'s session: the fields given change, the others stay."""
    actor = vault.actor
    at = format_timestamp(vault._moment(now))
    adding = check_tags(add_tags, "add_tags")
    removing = set(check_strings(remove_tags, "remove_tags"))
    with vault._store.transaction():
        stored = vault._load(id)
        memory = stored.memory
        require(memory, actor, "write", "change")
        vault._protect_dna(memory, actor, "change")
        changes: dict[str, Any] = {}
        changed: list[str] = []
        access_change = not isinstance(visibility, Unchanged) or not isinstance(
            exportable, Unchanged
        )
        if access_change and not is_privileged(actor):
            raise AccessDenied(
                f"only the owner may change the visibility or exportability of memory "
                f"{memory.id} (PAM §9)"
            )
        new_type = memory.type
        new_custom = memory.custom_type if isinstance(memory.custom_type, str) else None
        if not isinstance(type, Unchanged):
            new_type = type
            if isinstance(custom_type, Unchanged) and type != "custom":
                new_custom = None
        if not isinstance(custom_type, Unchanged):
            new_custom = custom_type
        if new_type != memory.type or new_custom != (
            memory.custom_type if isinstance(memory.custom_type, str) else None
        ):
            checked = check_type(new_type, new_custom)
            changes["type"] = new_type
            changes["custom_type"] = checked
            changed.append("type")
        if not isinstance(content, Unchanged):
            text = check_content(content)
            if text != memory.content:
                digest = compute_content_hash(text)
                if digest != memory.content_hash:
                    twin = vault._active_twin(digest)
                    if twin is not None and twin.memory.id != memory.id:
                        raise ConflictingInput(
                            f"the new content is the same as active memory {twin.memory.id} "
                            "(PAM §6); supersede or reinforce that memory instead",
                            "content",
                        )
                changes["content"] = text
                changes["content_hash"] = digest
                changed.append("content")
        if ("content" in changes or "type" in changes) and memory.effective_status not in (
            "active",
            "deprecated",
        ):
            raise ConflictingInput(
                f"memory {memory.id} is {memory.effective_status}: its content and type are "
                "kept as they were (PAM §16.3); add a new memory instead",
                "status",
            )
        if not isinstance(tags, Unchanged) or adding or removing:
            old = memory.tags if isinstance(memory.tags, tuple) else ()
            base = old if isinstance(tags, Unchanged) else check_tags(tags)
            tag_list = tuple(t for t in dict.fromkeys([*base, *adding]) if t not in removing)
            if tag_list != old:
                changes["tags"] = tag_list
                changed.append("tags")
        if not isinstance(summary, Unchanged):
            text_or_none = optional_text(summary, "summary")
            if text_or_none != (memory.summary if memory.summary is not MISSING else None):
                changes["summary"] = text_or_none
                changed.append("summary")
        access = access_of(memory)
        if not isinstance(visibility, Unchanged):
            value = check_visibility(visibility)
            if value != access.effective_visibility:
                access = access.evolve(visibility=value)
                changed.append("visibility")
        if (
            not isinstance(exportable, Unchanged)
            and check_exportable(exportable) != access.is_exportable
        ):
            access = access.evolve(exportable=exportable)
            changed.append("exportable")
        if "visibility" in changed or "exportable" in changed:
            changes["access"] = access
        if not isinstance(metadata, Unchanged):
            meta = check_metadata(metadata)
            if meta != (dict(memory.metadata) if isinstance(memory.metadata, Mapping) else {}):
                changes["metadata"] = meta
                changed.append("metadata")
        temporal = memory.temporal
        validity: tuple[tuple[str, object], ...] = (
            ("valid_from", valid_from),
            ("valid_until", valid_until),
        )
        for name, given in validity:
            if isinstance(given, Unchanged):
                continue
            stamp = timestamp_input(given, name)
            if stamp != (getattr(temporal, name) or None):
                temporal = temporal.evolve(**{name: stamp})
                changed.append(name)
        if not changed:
            return memory
        changes["temporal"] = temporal.evolve(updated_at=at)
        updated = memory.evolve(**changes)
        save(
            vault,
            stored,
            updated,
            "update",
            actor,
            {"changed": changed, "previous_content_hash": memory.content_hash}
            if "content" in changed
            else {"changed": changed},
            at,
        )
    return updated


def edit(
    vault: Vault,
    id: str,
    *,
    grants: Iterable[tuple[str, Iterable[str] | str]] = (),
    revokes: Iterable[tuple[str, Iterable[str] | str | None]] = (),
    now: datetime | None = None,
    **fields: Any,
) -> Memory:
    """`Vault.edit` in `vault`'s session: one patch of fields, grants and revokes."""
    grant_list = list(grants)
    revoke_list = list(revokes)
    if not (fields or grant_list or revoke_list):
        raise InvalidInput("nothing to change: the edit names no field, grant or revoke")
    with vault._store.transaction():
        full_id = vault.resolve(id)
        memory: Memory | None = None
        if fields:
            memory = vault.update(full_id, now=now, **fields)
        for entity, permissions in grant_list:
            memory = vault.grant(full_id, entity, permissions, now=now)
        for entity, permissions_or_all in revoke_list:
            memory = vault.revoke(full_id, entity, permissions_or_all, now=now)
    assert memory is not None
    return memory


def grant(
    vault: Vault,
    id: str,
    entity: str,
    permissions: Iterable[str] | str,
    *,
    now: datetime | None = None,
) -> Memory:
    """`Vault.grant` in `vault`'s session (PAM §9.1)."""
    require_owner(vault.actor, "grant access")
    name = check_entity(entity)
    perms = check_permissions(permissions)
    at = format_timestamp(vault._moment(now))
    with vault._store.transaction():
        stored = vault._load(id)
        memory = stored.memory
        access = access_of(memory)
        grants = list(grants_of(memory))
        for i, g in enumerate(grants):
            if isinstance(g, AccessGrant) and g.entity == name:
                have = tuple(g.permissions) if isinstance(g.permissions, _SEQUENCE) else ()
                merged = tuple(p for p in PERMISSIONS if p in have or p in perms)
                grants[i] = g.evolve(permissions=merged)
                break
        else:
            grants.append(AccessGrant(entity=name, permissions=perms))
        new_access = access.evolve(shared_with=tuple(grants))
        if access.effective_visibility == "private":
            new_access = new_access.evolve(visibility="shared")
        if new_access == access:
            return memory
        updated = memory.evolve(access=new_access, temporal=memory.temporal.evolve(updated_at=at))
        save(
            vault,
            stored,
            updated,
            "grant",
            vault.actor,
            {"entity": name, "permissions": list(perms)},
            at,
        )
    return updated


def revoke(
    vault: Vault,
    id: str,
    entity: str,
    permissions: Iterable[str] | str | None = None,
    *,
    now: datetime | None = None,
) -> Memory:
    """`Vault.revoke` in `vault`'s session (PAM §9.1)."""
    require_owner(vault.actor, "revoke access")
    if not isinstance(entity, str) or not entity:
        raise InvalidInput("entity must be a non-empty string (PAM §9.1)", "entity")
    removing = PERMISSIONS if permissions is None else check_permissions(permissions)
    at = format_timestamp(vault._moment(now))
    with vault._store.transaction():
        stored = vault._load(id)
        memory = stored.memory
        access = access_of(memory)
        grants: list[AccessGrant] = []
        for g in grants_of(memory):
            if isinstance(g, AccessGrant) and g.entity == entity:
                have = tuple(g.permissions) if isinstance(g.permissions, _SEQUENCE) else ()
                left = tuple(p for p in have if p not in removing)
                if left:
                    grants.append(g.evolve(permissions=left))
            else:
                grants.append(g)
        if tuple(grants) == grants_of(memory):
            return memory
        updated = memory.evolve(
            access=access.evolve(shared_with=tuple(grants)),
            temporal=memory.temporal.evolve(updated_at=at),
        )
        save(
            vault,
            stored,
            updated,
            "revoke",
            vault.actor,
            {"entity": entity, "permissions": list(removing)},
            at,
        )
    return updated


def save(
    vault: Vault,
    stored: StoredMemory,
    updated: Memory,
    action: str,
    actor: str,
    details: Mapping[str, Any],
    at: str,
) -> None:
    """Store `updated` in place of `stored` (its decay anchor kept) with the audit entry
    that says what changed, inside the caller's transaction."""
    vault._store.update_memory(StoredMemory(updated, stored.decay_anchor))
    vault._audit.append(
        [PendingEntry(action, actor, updated.id, updated.content_hash, details)], at
    )
