"""Who a request acts as: a `Principal` (a tenant, an identity, the scopes of its token), and
the two errors a front end answers before a vault is touched — no valid credentials (401) and
a token without the scope an operation needs (403).

An identity is the tenant's owner (``"owner"``) or a named agent: a PAM §9 entity, the name
its grants (``shared_with``) use. The vault's own actors are never identities a token can
carry: ``"user"`` is what the vault calls its owner and ``"system…"`` its background work, so
an agent named either would act with the owner's rights.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from memvault.errors import AccessDenied, InvalidInput, VaultError
from memvault.vault_inputs import BACKGROUND_ACTOR, OWNER_ACTOR

__all__ = [
    "AGENT_SCOPES",
    "OWNER",
    "SCOPES",
    "Principal",
    "ScopeMissing",
    "Unauthenticated",
    "check_identity",
    "check_scopes",
]

#: What a token may be used for (issue #18): AIMEM bundles out and in, memories read and
#: written, erasure, and the tenant's administration (its tokens).
SCOPES: Final = (
    "bundle:export",
    "bundle:import",
    "memories:read",
    "memories:write",
    "erase",
    "admin",
)
#: The identity of a tenant's owner.
OWNER: Final = "owner"
#: The scopes an agent's token may carry: erasure and administration are the owner's (PAM §9:
#: the vault lets only its owner erase or change grants), so a token never promises them.
AGENT_SCOPES: Final = ("bundle:export", "bundle:import", "memories:read", "memories:write")
#: An agent id: a PAM §9 entity name — letters, digits and ``. _ : @ / -``, up to 128.
_AGENT: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}")

#: 401 Unauthorized; the errors module names the statuses of the vault's own errors.
HTTP_UNAUTHORIZED: Final = 401


class Unauthenticated(VaultError):
    """No API key, or one that is unknown, revoked or replaced by a rotation: the request is
    not made on anyone's behalf (HTTP 401)."""

    http_status = HTTP_UNAUTHORIZED


class ScopeMissing(AccessDenied):
    """The token is valid but its scopes do not include the one the operation needs (403)."""

    def __init__(self, message: str, scope: str) -> None:
        super().__init__(message)
        self.scope = scope


def check_identity(identity: object) -> str:
    """`identity` if it is ``"owner"`` or a well-formed agent id; InvalidInput (field
    "identity") otherwise — the vault's own actor names are refused."""
    if not isinstance(identity, str):
        raise InvalidInput("identity must be a string: 'owner' or an agent id", "identity")
    if identity == OWNER:
        return identity
    if identity in (OWNER_ACTOR, BACKGROUND_ACTOR) or identity.startswith(BACKGROUND_ACTOR + ":"):
        raise InvalidInput(
            f"identity {identity!r} is reserved (the vault's own name for its owner or its "
            "background work); name the agent otherwise, or use 'owner' (PAM §9)",
            "identity",
        )
    if not _AGENT.fullmatch(identity):
        raise InvalidInput(
            f"agent id {identity!r} must be 1–128 letters, digits or . _ : @ / - starting "
            "with a letter or digit (a PAM §9 entity name)",
            "identity",
        )
    return identity


def check_scopes(scopes: Iterable[str] | None, identity: str) -> frozenset[str]:
    """The scopes a token for `identity` gets: all of `SCOPES` for the owner and
    `AGENT_SCOPES` for an agent when `scopes` is None; else `scopes`, each of which must be
    known and, for an agent, one an agent may hold. InvalidInput (field "scopes") otherwise."""
    allowed = SCOPES if identity == OWNER else AGENT_SCOPES
    if scopes is None:
        return frozenset(allowed)
    chosen = frozenset(scopes)
    unknown = sorted(chosen - set(SCOPES))
    if unknown:
        raise InvalidInput(
            f"unknown scope {', '.join(map(repr, unknown))}: the scopes are {', '.join(SCOPES)}",
            "scopes",
        )
    refused = sorted(chosen - set(allowed))
    if refused:
        raise InvalidInput(
            f"an agent's token cannot carry {', '.join(map(repr, refused))}: erasure and "
            f"administration are the owner's (PAM §9); {identity!r} may have "
            f"{', '.join(AGENT_SCOPES)}",
            "scopes",
        )
    if not chosen:
        raise InvalidInput("a token needs at least one scope", "scopes")
    return chosen


@dataclass(frozen=True)
class Principal:
    """Who an authenticated request acts as: the `tenant` (its name), the `identity`
    (``"owner"`` or an agent id, PAM §9), the `scopes` of its token and that token's id."""

    tenant: str
    identity: str
    scopes: frozenset[str]
    token_id: str

    @property
    def is_owner(self) -> bool:
        return self.identity == OWNER

    def has(self, scope: str) -> bool:
        return scope in self.scopes

    def require(self, scope: str) -> Principal:
        """This principal, or ScopeMissing (403) naming the scope and the token."""
        if scope not in self.scopes:
            held = ", ".join(sorted(self.scopes)) or "none"
            raise ScopeMissing(
                f"token {self.token_id} lacks the scope {scope!r} (it has: {held})", scope
            )
        return self
