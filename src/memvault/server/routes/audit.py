"""``GET /v1/audit``: the vault's audit log (ids and hashes, never content: AIMEM §5.2).
It names every memory, private ones too, so it needs the `admin` scope and the owner's
identity (the vault refuses an agent's session)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from memvault import shapes
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.vault import Vault

router = APIRouter(prefix="/v1", tags=["audit"])

Admin = Annotated[Vault, Depends(session_for("admin"))]


@router.get("/audit", summary="The audit log, oldest first")
def audit(
    vault: Admin,
    memory_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=10000)] = 100,
) -> JSONAnswer:
    """`{"entries": [{"seq", "at", "actor", "action", "memory_id", "content_hash",
    "details", "prev_hash", "hash"}]}`: the last `limit` entries (of one memory when
    `memory_id` is given)."""
    entries = vault.audit_log(memory_id=memory_id, limit=limit)
    return answer({"entries": shapes.audit_json(entries)})


@router.get("/audit/verify", summary="Check the audit chain")
def verify(vault: Admin) -> JSONAnswer:
    """`{"ok", "entries", "problems", "head"}`: the chain recomputed, every memory checked
    against its last entry."""
    return answer(shapes.audit_report_json(vault.verify_audit()))
