"""The permission model (docs/access.md): who may read, write or delete what.

PAM §9 grants read / write / delete on memories to named entities; the vault settles the
rest. The owner and background work may do everything (background work is kept off DNA-class
memories elsewhere); an agent reads what visibility and grants allow, writes only with the
write grant, and the vault's own records (conversations, signing keys, the audit log, the
export registry, statistics) are the owner's. Every check here raises `AccessDenied` naming
the actor, the memory or record, and the rule; the vault and the exchange modules call these
and nothing else decides access.
"""

from __future__ import annotations

from typing import Final

from memvault.errors import AccessDenied, NotFound
from memvault.model import Access, AccessGrant, Memory
from memvault.store.base import Store
from memvault.vault_inputs import OWNER_ACTOR, check_actor, creator_access, is_privileged

__all__ = [
    "access_of",
    "as_created_by",
    "grants_of",
    "may",
    "require",
    "require_change",
    "require_owner",
    "require_privileged",
    "require_relation",
    "require_relation_between",
    "require_stored",
]

_SEQUENCE: Final = (tuple, list)


def access_of(memory: Memory) -> Access:
    return memory.access if isinstance(memory.access, Access) else Access()


def grants_of(memory: Memory) -> tuple[AccessGrant, ...]:
    """The memory's grants (PAM §9.1), none when it has no list of them."""
    shared = access_of(memory).shared_with
    return tuple(shared) if isinstance(shared, _SEQUENCE) else ()


def may(memory: Memory, actor: str, permission: str) -> bool:
    """PAM §9 as the vault enforces it (docs/access.md)."""
    if is_privileged(actor):
        return True
    visibility = access_of(memory).effective_visibility
    if permission == "read" and visibility == "public":
        return True
    if visibility == "private":
        return False
    return any(
        g.entity == actor and isinstance(g.permissions, _SEQUENCE) and permission in g.permissions
        for g in grants_of(memory)
        if isinstance(g, AccessGrant)
    )


def require(memory: Memory, actor: str, permission: str, what: str) -> None:
    """Raise AccessDenied unless `actor` holds `permission` on `memory` (PAM §9)."""
    if not may(memory, actor, permission):
        visibility = access_of(memory).effective_visibility
        reason = (
            "it is private (owner only)"
            if visibility == "private"
            else f"no grant gives {actor!r} the {permission!r} permission"
        )
        raise AccessDenied(f"{actor!r} may not {what} memory {memory.id}: {reason} (PAM §9)")


def require_owner(actor: str, what: str) -> None:
    """Raise AccessDenied unless `actor` is the owner (grants, keys, settings, erasure)."""
    check_actor(actor)
    if actor != OWNER_ACTOR:
        raise AccessDenied(f"only the owner may {what}; {actor!r} is not the owner (PAM §9)")


def require_privileged(actor: str, what: str) -> None:
    """Raise AccessDenied unless `actor` is the owner or background work: the vault's own
    records (conversations, the audit log, the export registry) are the owner's, and no
    PAM §9 grant names them, so an agent is refused."""
    check_actor(actor)
    if not is_privileged(actor):
        raise AccessDenied(
            f"{actor!r} may not {what}: only the owner (or the vault's background work) may; "
            "PAM §9 grants give agents access to memories only"
        )


def require_change(current: Memory, incoming: Memory, actor: str, what: str = "change") -> None:
    """An import replacing `current` with `incoming` (an update, a retraction, a supersession
    are all changes of the stored memory): the write grant is needed (PAM §9), and the access
    block (visibility, exportable, grants) is the owner's alone, as in `Vault.update`."""
    if is_privileged(actor):
        return
    require(current, actor, "write", what)
    if access_of(current).to_json() != access_of(incoming).to_json():
        raise AccessDenied(
            f"{actor!r} may not change the access block (visibility, exportable, grants) of "
            f"memory {current.id}: only the owner may (PAM §9)"
        )


def require_relation(source: Memory, target: Memory, actor: str) -> None:
    """A relation is stored with its source: writing one needs write on the source and read
    on the target, as `Vault.relate` asks (PAM §9, §13)."""
    require(source, actor, "write", "relate")
    require(target, actor, "read", "relate to")


def require_stored(store: Store, memory_id: str, actor: str, permission: str, what: str) -> None:
    """`require` for a memory named by id (an import's embedding, a relation end)."""
    if is_privileged(actor):
        return
    stored = store.get_memory(memory_id)
    if stored is None:
        raise NotFound(f"no memory with id {memory_id!r}")
    require(stored.memory, actor, permission, what)


def require_relation_between(store: Store, source: str, target: str, actor: str) -> None:
    """`require_relation` for two memories named by id."""
    require_stored(store, source, actor, "write", "relate")
    require_stored(store, target, actor, "read", "relate to")


def as_created_by(memory: Memory, actor: str) -> Memory:
    """`memory` as an agent creates it (a batch add, an import): the agent holds read and
    write on it, as `Vault.add` gives it (`creator_access`). The owner's are unchanged."""
    if is_privileged(actor):
        return memory
    access = access_of(memory)
    visibility, grants = creator_access(actor, access.effective_visibility, grants_of(memory))
    return memory.evolve(access=access.evolve(visibility=visibility, shared_with=grants))
