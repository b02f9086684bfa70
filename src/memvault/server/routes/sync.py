"""``GET /v1/sync``: what a sync client (`memvault sync`, `memvault.sync`) needs to know
before it reads or writes anything — the tenant and identity its token acts as (the owner, or
a PAM §9 agent whose view it syncs) and the token's scopes. Any valid token may ask; a bad one
gets the 401 every route gives, before the client touches its own vault."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from memvault.server.deps import principal
from memvault.server.responses import JSONAnswer, answer
from memvault.tenancy import Principal

router = APIRouter(prefix="/v1", tags=["sync"])


@router.get("/sync", summary="The tenant, identity and scopes of the calling token")
def whoami(caller: Annotated[Principal, Depends(principal)]) -> JSONAnswer:
    """`{"tenant", "identity", "scopes"}`: `identity` is "owner" or an agent id."""
    return answer(
        {
            "tenant": caller.tenant,
            "identity": caller.identity,
            "scopes": sorted(caller.scopes),
        }
    )
