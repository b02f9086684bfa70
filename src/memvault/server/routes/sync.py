"""What a sync client (`memvault sync`, `memvault.sync`) asks besides the PAM exchange routes:

- ``GET /v1/sync`` — the tenant and identity its token acts as (the owner, or a PAM §9 agent
  whose view it syncs) and the token's scopes. Any valid token may ask; a bad one gets the 401
  every route gives, before the client touches its own vault.
- ``GET /v1/sync/erasures?since=T`` — the ids of the memories erased at or after `T` (the
  audit log keeps that, never what they said: AIMEM §5.2), because a PAM export carries no
  deletions. The owner's, with `bundle:export`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from memvault.errors import InvalidInput
from memvault.model import parse_timestamp
from memvault.server.deps import principal, session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.sync import erased_since
from memvault.tenancy import Principal
from memvault.vault import Vault, format_timestamp

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


@router.get("/sync/erasures", summary="Ids of the memories erased since a moment")
def erasures(
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
    since: Annotated[str, Query(description="an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z")],
) -> JSONAnswer:
    """`{"since", "erased": [ids]}`, oldest first. An agent's token is refused (403): the
    audit log is the owner's."""
    try:
        moment = format_timestamp(parse_timestamp(since))
    except ValueError:
        raise InvalidInput(
            f"since={since!r} is not an ISO 8601 date-time such as 2026-01-31T12:00:00Z",
            "since",
        ) from None
    return answer({"since": moment, "erased": erased_since(vault, moment)})
