"""Recall over HTTP: ``GET /v1/recall?q=&k=&…`` — the memories and conversation messages
that best answer a question, with recall's filters (docs/recall.md). An agent's token finds
only the memories PAM §9 lets it read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request

from memvault import shapes
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES
from memvault.recall.embedders import Embedder, load_embedder
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.vault import Vault

router = APIRouter(prefix="/v1", tags=["recall"])

Reader = Annotated[Vault, Depends(session_for("memories:read"))]
MemoryType = Literal[MEMORY_TYPES]  # type: ignore[valid-type]
Status = Literal[MEMORY_STATUSES]  # type: ignore[valid-type]


def _keyed_embedder(vault: Vault, api_key: str | None) -> Embedder | None:
    """The vault's endpoint embedder with the server's key for it, when both are there;
    else None: recall uses the vault's own."""
    if not api_key:
        return None
    spec = vault.embedder_spec()
    if spec is None or spec.kind != "openai":
        return None
    return load_embedder(spec, api_key=api_key)


@router.get("/recall", summary="Find the memories and messages that answer a question")
def recall(
    request: Request,
    vault: Reader,
    q: Annotated[str, Query(min_length=1, max_length=4096, description="The question")],
    k: Annotated[int, Query(ge=1, le=200)] = 10,
    mode: Literal["hybrid", "fts", "vector"] = "hybrid",
    kind: Literal["all", "memories", "messages"] = "all",
    conversation: str | None = None,
    platform: Annotated[list[str] | None, Query()] = None,
    type: Annotated[list[MemoryType] | None, Query()] = None,
    custom_type: Annotated[list[str] | None, Query()] = None,
    tag: Annotated[list[str] | None, Query()] = None,
    since: Annotated[str | None, Query(description="ISO 8601 date or time")] = None,
    until: Annotated[str | None, Query(description="ISO 8601 date or time")] = None,
    role: str | None = None,
    participant: str | None = None,
    status: Annotated[list[Status] | None, Query()] = None,
    include_inactive: bool = False,
) -> JSONAnswer:
    """`{"query", "mode", "vectors_complete", "notes", "results": [{"kind", "id", "text",
    "score", "conversation_id", "message_ids"}]}`, best first. Until every passage has a
    vector the results come from the full text, and `notes` say so."""
    filters: dict[str, Any] = {"kind": kind, "include_inactive": include_inactive}
    given: dict[str, Any] = {
        "conversation": conversation,
        "platforms": platform,
        "types": type,
        "custom_types": custom_type,
        "tags": tag,
        "since": since,
        "until": until,
        "role": role,
        "participant": participant,
        "statuses": status,
    }
    filters.update({name: value for name, value in given.items() if value is not None})
    embedder = _keyed_embedder(vault, request.app.state.config.embed_api_key)
    result = vault.recall(q, k, mode=mode, embedder=embedder, **filters)
    return answer(shapes.recall_json(q, result))
