"""``GET /v1/export/{target}``: the text an assistant accepts (`memvault.targets`, PAM §20.2)
— a system prompt, ChatGPT's custom instructions and memory list, Claude's memory import and
project instructions, Gemini's Saved info and Gem instructions — in the shape
`memvault export --to TARGET --json` prints (docs/targets.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query

from memvault import shapes
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.targets import MIN_BUDGET, render
from memvault.vault import Vault

router = APIRouter(prefix="/v1", tags=["export"])

Target = Literal["system-prompt", "chatgpt", "claude", "gemini"]


@router.get("/export/{target}", summary="Memories as the text an assistant accepts")
def export_target(
    target: Target,
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
    budget: Annotated[
        int | None, Query(ge=MIN_BUDGET, description="Characters per text (≈ tokens × 4).")
    ] = None,
    query: Annotated[
        str | None, Query(min_length=1, description="Recall's memories for this text instead.")
    ] = None,
) -> JSONAnswer:
    """DNA-class memories first, then confidence, then recency (or recall's order with
    `query`); never superseded, retracted or non-exportable ones; each text within its limit
    (ChatGPT's fields never over 1,500 characters); what was left out, and why."""
    return answer(shapes.to_json(render(vault, target, budget=budget, query=query)))
