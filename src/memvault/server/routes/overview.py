"""What the web UI needs beyond the resource routes, each usable by any client:

- ``GET /v1/meta`` — the model's vocabularies: memory types, statuses, relation types and the
  lifecycle transitions PAM §7.1 allows (so a client offers only those).
- ``GET /v1/timeline`` — memories by month of creation, by type and by platform.
- ``GET /v1/graph`` — the relation graph (PAM §13): edges and the memories at their ends.
- ``GET /v1/conversations/{id}/memories`` — the memories derived from a conversation.
- ``POST /v1/import`` — a provider export (ChatGPT, Claude, Gemini, Copilot, Grok: a zip or
  its conversations file) imported in one transaction, as `memvault import` does.
- ``POST /v1/erase`` — erase everything in the vault (AIMEM §5.2), guarded by a confirmation.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import IO, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict

from memvault import shapes
from memvault.errors import InvalidInput
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES, RELATION_TYPES, TRANSITIONS
from memvault.overview import derived_memories, relation_graph, timeline
from memvault.server import bodies
from memvault.server.bodies import body_schema, json_body, validated
from memvault.server.deps import session_for
from memvault.server.responses import JSONAnswer, answer
from memvault.vault import Vault

__all__ = ["CONFIRMATION", "router"]

router = APIRouter(prefix="/v1", tags=["overview"])

Reader = Annotated[Vault, Depends(session_for("memories:read"))]
Importer = Annotated[Vault, Depends(session_for("bundle:import"))]
Eraser = Annotated[Vault, Depends(session_for("erase"))]

#: What `POST /v1/erase` must be sent, word for word.
CONFIRMATION = "erase everything"
_BLOCK = 1 << 16
_ZIP_MAGIC = b"PK\x03\x04"


@router.get("/meta", summary="Memory types, statuses, relation types, §7.1 transitions")
def meta(_vault: Reader) -> JSONAnswer:
    """`{"memory_types", "statuses", "relation_types", "transitions": {from: [to, …]}}`."""
    return answer(
        {
            "memory_types": list(MEMORY_TYPES),
            "statuses": list(MEMORY_STATUSES),
            "relation_types": list(RELATION_TYPES),
            "transitions": {k: list(v) for k, v in TRANSITIONS.items()},
        }
    )


@router.get("/timeline", summary="Memories by month created, by type and by platform")
def memory_timeline(vault: Reader) -> JSONAnswer:
    """`{"months", "by_type": {type: [count per month]}, "by_platform": {…}, "total"}`,
    memories of every status the caller may read."""
    return answer(timeline(vault))


@router.get("/graph", summary="The relation graph (PAM §13)")
def graph(vault: Reader, limit: Annotated[int, Query(ge=1, le=5000)] = 500) -> JSONAnswer:
    """`{"nodes": [{"id", "type", "status", "label"}], "edges": [{"id", "from", "to",
    "type"}], "total_edges", "truncated"}`: the first `limit` relations. The owner's."""
    return answer(relation_graph(vault, limit=limit))


@router.get("/conversations/{conversation_id}/memories", summary="Memories from a conversation")
def conversation_memories(
    vault: Reader,
    conversation_id: str,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> JSONAnswer:
    """`{"conversation", "total", "memories"}`: memories whose provenance names it."""
    vault.get_conversation(conversation_id)  # 404 for a conversation the vault lacks
    return answer(derived_memories(vault, conversation_id, limit=limit))


async def _body(request: Request) -> IO[bytes]:
    return await bodies.spool(request)


@router.post("/import", summary="Import a provider export (zip or conversations file)")
def import_provider_export(
    vault: Importer,
    body: Annotated[IO[bytes], Depends(_body)],
    filename: Annotated[
        str, Query(max_length=255, description="The uploaded file's name (for provenance)")
    ] = "upload",
) -> JSONAnswer:
    """`{"source", "parts": [{"importer", "conversations", "messages", "memories",
    "warnings"}]}` (the shape of `memvault import --json`), all in one transaction; 422 for
    a file no importer recognizes, and nothing imported."""
    from memvault.importers.base import ImportFormatError
    from memvault.importers.ingest import bytes_checksum, ingest, make_context
    from memvault.importers.parts import ingest_parts
    from memvault.input_kind import provider_parts
    from memvault.sources import SourceError, open_target

    name = Path(filename).name or "upload"
    workdir = Path(tempfile.mkdtemp(prefix="memvault-upload-"))
    try:
        with body:
            head = body.read(4)
            body.seek(0)
            path = workdir / ("export.zip" if head == _ZIP_MAGIC else "conversations.json")
            with open(path, "wb") as out:
                shutil.copyfileobj(body, out, _BLOCK)
        checksum = bytes_checksum(path.read_bytes())
        try:
            with open_target(path) as target:
                parts = provider_parts(target)
                if not parts:
                    raise InvalidInput(
                        f"{name} is not a provider export memvault recognizes (ChatGPT, "
                        "Claude, Gemini, Copilot, Grok); nothing was imported",
                        "body",
                    )
                if len(parts) == 1:
                    context = make_context(name, checksum)
                    results = [ingest(vault, parts[0].importer, target, context, readers=0)]
                else:
                    results = ingest_parts(vault, parts, lambda p: make_context(name, checksum))
        # The file the server spooled the body to is nobody's business: errors and warnings
        # name the upload instead.
        except SourceError as exc:
            raise SourceError(name, exc.message, code=exc.code) from None
        except ImportFormatError as exc:
            raise ImportFormatError(exc.where.replace(str(path), name), exc.message) from None
        shown = [r.to_json() for r in results]
        for part in shown:
            part["warnings"] = [w.replace(str(path), name) for w in part.get("warnings", [])]
        return answer({"source": name, "parts": shown})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


class Confirmation(BaseModel):
    """The words the user typed to confirm."""

    model_config = ConfigDict(extra="forbid")

    confirm: str


@router.post(
    "/erase",
    summary="Erase everything in the vault (AIMEM §5.2)",
    openapi_extra=body_schema(Confirmation),
)
def erase_everything(vault: Eraser, body: Annotated[Any, Depends(json_body)]) -> JSONAnswer:
    """Every memory, relation, conversation, vector and passage, for good (the owner, keys,
    settings and audit log stay). The body must be `{"confirm": "erase everything"}`."""
    if validated(Confirmation, body).confirm != CONFIRMATION:
        raise InvalidInput(
            f"erasing everything needs the confirmation {CONFIRMATION!r}; nothing was erased",
            "confirm",
        )
    return answer(shapes.everything_erasure_json(vault.erase_everything()))
