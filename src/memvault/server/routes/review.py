"""The review queue over HTTP: changes background extraction proposed for DNA-class
memories (AIMEM §5.1), for the owner to accept or reject (`memvault.extract.review`).

- ``GET /v1/review`` — the pending proposals, oldest first.
- ``POST /v1/review/{memory_id}/accept`` — the supersession is made (PAM §7.1).
- ``POST /v1/review/{memory_id}/reject`` — the proposed memory is retracted (kept, PAM §7.1).

Only the owner reviews: the library refuses an agent's or background session (403).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from memvault import shapes
from memvault.extract import review as proposals
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.vault import Vault

router = APIRouter(prefix="/v1/review", tags=["review"])

Reader = Annotated[Vault, Depends(session_for("memories:read"))]
Writer = Annotated[Vault, Depends(session_for("memories:write"))]


@router.get("", summary="Changes proposed for DNA-class memories (AIMEM §5.1)")
def pending(vault: Reader) -> JSONAnswer:
    """`{"proposals": [{"memory", "proposes", "targets", "reason", "proposed_at",
    "proposed_by"}]}`: `memory` would supersede `targets` ("supersede") or be superseded by
    them as an older statement ("history")."""
    return answer(shapes.proposals_json(proposals.pending(vault)))


@router.post("/{memory_id}/accept", summary="Accept a proposed change (PAM §7.1)")
def accept(vault: Writer, memory_id: str) -> JSONAnswer:
    """`{"superseded": [{"new", "old"}]}`: the supersessions made (none when the targets are
    no longer active). 409 when the memory is not a pending proposal."""
    return answer(shapes.supersessions_json(proposals.accept(vault, memory_id)))


@router.post("/{memory_id}/reject", summary="Reject a proposed change (PAM §7.1)")
def reject(vault: Writer, memory_id: str) -> JSONAnswer:
    """The proposed memory, now retracted (kept, not deleted). 409 when it is not a pending
    proposal."""
    return answer(shapes.memory_json(proposals.reject(vault, memory_id)))
