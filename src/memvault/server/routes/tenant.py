"""``DELETE /v1/tenant``: erase the caller's whole tenant (AIMEM §5.2, GDPR Art. 17) —
every memory, conversation, vector and log of its vault, and its tokens. Needs the `erase`
scope and the owner's identity; the server's audit log records that it happened (counts,
time, the token), never what the vault held."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Depends

from memvault.errors import AccessDenied
from memvault.server.deps import require, tenants
from memvault.server.responses import JSONAnswer, answer
from memvault.tenancy import Principal, Tenants

router = APIRouter(prefix="/v1", tags=["tenant"])


@router.delete("/tenant", summary="Erase this tenant, everything of it (AIMEM §5.2)")
def erase_tenant(
    caller: Annotated[Principal, Depends(require("erase"))],
    registry: Annotated[Tenants, Depends(tenants)],
) -> JSONAnswer:
    """`{"tenant", "owner_id", "memories", "conversations", "tokens_revoked",
    "files_removed", "at", "actor"}`. Every token of the tenant stops working, this one
    included."""
    if not caller.is_owner:
        raise AccessDenied("only the tenant's owner may erase the tenant (PAM §9)")
    report = registry.erase(caller.tenant, actor=f"token:{caller.token_id}")
    return answer(asdict(report))
