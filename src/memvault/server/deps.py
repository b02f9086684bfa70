"""The dependencies every route uses: who is calling (`principal`), whether the token may do
this (`require(scope)`), and the vault session to do it in (`session`, `session_for`).

The token says the tenant, the identity (the owner, or a PAM §9 agent entity) and the scopes
(`memvault.tenancy`); the session is the tenant's vault bound to that identity, so every read
and write is checked by the vault itself — an agent's token reaches only what its grants
allow, whatever the route.
"""

# No `from __future__ import annotations`: FastAPI reads the closures' annotations below at
# run time, and `Depends(needs)` names a local it could not resolve from a string.
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from memvault.server.authlimit import FailedAuthentications
from memvault.server.websession import cookie_principal
from memvault.tenancy import Principal, Tenants, Unauthenticated
from memvault.vault import Vault

__all__ = ["BEARER", "TENANT_STATE", "principal", "require", "session", "session_for", "tenants"]

#: Bearer tokens, declared in the OpenAPI document; a missing one is our 401 problem.
BEARER = HTTPBearer(
    auto_error=False,
    description="An API key: `memvault tenants create`, or a personal vault's local token "
    "(`memvault token`).",
)


def tenants(request: Request) -> Tenants:
    """The registry the server runs on."""
    registry: Tenants = request.app.state.tenants
    return registry


def principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)],
) -> Principal:
    """Who is calling: the tenant and identity of the bearer token, or of the web UI's
    session cookie (`memvault.server.websession`, CSRF-checked); 401 without either; 429 for
    an address that failed too often (`memvault.server.authlimit`)."""
    limiter: FailedAuthentications = request.app.state.auth_failures
    client = request.client.host if request.client is not None else "unknown"
    limiter.check(client)  # 429 once an address has failed too often: no key is checked
    if credentials is None:
        signed_in = cookie_principal(request, tenants(request))
        if signed_in is not None:
            return _noted(request, signed_in)
        # Asking without any key (a browser before sign-in) guesses nothing: not counted.
        raise Unauthenticated("this request needs an API key: send 'Authorization: Bearer KEY'")
    try:
        return _noted(request, tenants(request).authenticate(credentials.credentials))
    except Unauthenticated:
        limiter.failed(client)
        raise


#: Where the caller's tenant is noted in the request's state: a successful write marks that
#: tenant for the background workers (`memvault.server.app`).
TENANT_STATE = "memvault_tenant"


def _noted(request: Request, caller: Principal) -> Principal:
    setattr(request.state, TENANT_STATE, caller.tenant)
    return caller


def require(scope: str) -> Callable[..., Principal]:
    """A dependency giving the caller when its token has `scope` (403 otherwise)."""

    def has_scope(caller: Annotated[Principal, Depends(principal)]) -> Principal:
        return caller.require(scope)

    has_scope.__name__ = f"require_{scope.replace(':', '_')}"
    return has_scope


def session(request: Request, caller: Principal) -> Vault:
    """The vault session of `caller`: its tenant's vault, bound to its identity."""
    return tenants(request).session(caller)


def session_for(scope: str) -> Callable[..., Vault]:
    """A dependency giving the caller's vault session when its token has `scope`."""
    needs = require(scope)

    def scoped(request: Request, caller: Annotated[Principal, Depends(needs)]) -> Vault:
        return session(request, caller)

    scoped.__name__ = f"session_{scope.replace(':', '_')}"
    return scoped
