"""The dependencies every route uses: who is calling (`principal`), whether the token may do
this (`require(scope)`), and the vault session to do it in (`session`).

The token says the tenant, the identity (the owner, or a PAM §9 agent entity) and the scopes;
the session is the tenant's vault bound to that identity, so every read and write is checked
by the vault itself — an agent's token reaches only what its grants allow, whatever the route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Protocol

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memvault.errors import HTTP_FORBIDDEN, VaultError
from memvault.vault import Vault

__all__ = [
    "BEARER",
    "Forbidden",
    "PrincipalLike",
    "Registry",
    "Unauthorized",
    "principal",
    "require",
    "session",
    "session_for",
]

HTTP_UNAUTHORIZED = 401


class PrincipalLike(Protocol):
    """Who a token speaks for (`memvault.tenancy.Principal`)."""

    @property
    def tenant(self) -> str: ...
    @property
    def identity(self) -> str: ...
    @property
    def scopes(self) -> frozenset[str]: ...
    @property
    def token_id(self) -> str: ...


class Registry(Protocol):
    """What the server needs of the tenant registry (`memvault.tenancy.Tenants`)."""

    def authenticate(self, api_key: str) -> PrincipalLike: ...
    def session(self, principal: PrincipalLike) -> Vault: ...


class Unauthorized(VaultError):
    """No credentials, or credentials no tenant knows (RFC 6750: answered with a
    ``WWW-Authenticate: Bearer`` challenge)."""

    http_status = HTTP_UNAUTHORIZED
    headers = {"WWW-Authenticate": "Bearer"}  # noqa: RUF012 - read only


class Forbidden(VaultError):
    """The token is valid but lacks the scope the route needs."""

    http_status = HTTP_FORBIDDEN


#: Bearer tokens, declared in the OpenAPI document; a missing one is our 401 problem.
BEARER = HTTPBearer(auto_error=False, description="An API key: `memvault tenants create`.")


def principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)],
) -> PrincipalLike:
    """Who is calling: the tenant and identity of the bearer token (401 without one)."""
    if credentials is None:
        raise Unauthorized("this request needs an API key: send 'Authorization: Bearer KEY'")
    registry: Registry = request.app.state.tenants
    try:
        return registry.authenticate(credentials.credentials)
    except VaultError as exc:
        if exc.http_status == HTTP_UNAUTHORIZED:
            raise Unauthorized(str(exc)) from None
        raise


def require(scope: str) -> Callable[..., PrincipalLike]:
    """A dependency giving the caller when its token has `scope` (403 otherwise)."""

    def has_scope(caller: Annotated[PrincipalLike, Depends(principal)]) -> PrincipalLike:
        if scope not in caller.scopes:
            raise Forbidden(
                f"this token lacks the scope {scope!r} (it has: "
                f"{', '.join(sorted(caller.scopes)) or 'none'})"
            )
        return caller

    has_scope.__name__ = f"require_{scope.replace(':', '_')}"
    return has_scope


def session(request: Request, caller: PrincipalLike) -> Vault:
    """The vault session of `caller`: its tenant's vault, bound to its identity."""
    registry: Registry = request.app.state.tenants
    return registry.session(caller)


def session_for(scope: str) -> Callable[..., Vault]:
    """A dependency giving the caller's vault session when its token has `scope`."""
    needs = require(scope)

    def scoped(request: Request, caller: Annotated[PrincipalLike, Depends(needs)]) -> Vault:
        return session(request, caller)

    scoped.__name__ = f"session_{scope.replace(':', '_')}"
    return scoped
