"""``GET /v1/stats``: the vault's statistics (`Vault.stats`) and, when the server embeds in
the background, how far that is (`embedding`); likewise its mapping of AIMEM chunks
(`export_mapping`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from memvault import shapes
from memvault.server.deps import require, session
from memvault.server.responses import JSONAnswer, answer
from memvault.tenancy import Principal

router = APIRouter(prefix="/v1", tags=["stats"])


@router.get("/stats", summary="The vault's statistics")
def stats(
    request: Request, caller: Annotated[Principal, Depends(require("memories:read"))]
) -> JSONAnswer:
    """`Vault.stats()` (docs/json.md) without the server's file paths, plus `embedding`:
    `null` when no background worker runs, else `{"state", "embedded", "pending",
    "with_vector", "passages", "runs", "last_run", "error", "failures", "last_error"}` for
    this tenant; and `export_mapping`: `null` when no background mapping of AIMEM chunks
    runs, else `{"state", "mapped", "runs", "last_run", "error", "pending"}` (`pending`: the
    memories whose chunk is still to map, counted now; an agent's token sees 0)."""
    body: dict[str, Any] = shapes.stats_json(session(request, caller).stats())
    body.pop("home", None)  # where the server keeps its files is not the caller's business
    worker = request.app.state.embedder
    body["embedding"] = None if worker is None else worker.progress(caller.tenant)
    mapper = request.app.state.export_mapper
    if mapper is None:
        body["export_mapping"] = None
    else:
        # `pending` is read now, not at the worker's last round: an import that answered
        # since shows at once.
        body["export_mapping"] = {
            **mapper.progress(caller.tenant),
            "pending": session(request, caller).export_view().pending_count(),
        }
    return answer(body)
