"""PAM v1.0 over HTTP: a tenant's memory exported as a PAM zip (full, or incremental since
the last export or a moment, PAM §16) and a PAM export imported in one transaction.

- ``GET /v1/pam/export?incremental=&since=`` — ``application/zip``: memory-store.json,
  conversations, embeddings (PAM §15)
- ``POST /v1/pam/import`` — a zip of an export, or a lone memory-store.json; 200 with what was
  imported, 422 with the findings of an invalid one

The files pass through a private temporary directory (0700) that is removed once the answer
is sent: `memvault.exchange.pam` reads and writes files.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from memvault.exchange.pam import export_vault, import_into_vault
from memvault.formats.pam import STORE_FILE
from memvault.server import bodies
from memvault.server.deps import session_for
from memvault.vault import Vault

__all__ = ["router"]

router = APIRouter(tags=["PAM"])

_BLOCK = 1 << 16
_ZIP_MAGIC = b"PK\x03\x04"


def _stream_and_remove(path: Path, workdir: Path) -> Iterator[bytes]:
    try:
        with open(path, "rb") as fh:
            while block := fh.read(_BLOCK):
                yield block
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@router.get(
    "/v1/pam/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}}}},
    summary="Export the tenant's memory as a PAM zip (full or incremental, PAM §16)",
)
def export_pam(
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
    incremental: Annotated[
        bool, Query(description="only what changed since the last export (PAM §16)")
    ] = False,
    since: Annotated[
        str | None, Query(description="only what changed at or after this ISO 8601 time")
    ] = None,
) -> StreamingResponse:
    """A zip of a PAM export. Memories marked `exportable: false` are never in it; an
    agent's token exports what the agent may read, and never a delta."""
    workdir = Path(tempfile.mkdtemp(prefix="memvault-pam-"))
    try:
        target = workdir / "export.zip"
        result = export_vault(vault, target, incremental=incremental, since=since)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    headers = {
        "Content-Disposition": f'attachment; filename="pam-{result.export_id}.zip"',
        "PAM-Export-Id": result.export_id,
        "PAM-Export-Type": result.export_type,
    }
    return StreamingResponse(
        _stream_and_remove(target, workdir), media_type="application/zip", headers=headers
    )


async def _body(request: Request) -> IO[bytes]:
    return await bodies.spool(request)


@router.post(
    "/v1/pam/import",
    summary="Import a PAM export (zip) or memory-store.json in one transaction",
)
def import_pam(
    vault: Annotated[Vault, Depends(session_for("bundle:import"))],
    body: Annotated[IO[bytes], Depends(_body)],
    force: Annotated[
        bool, Query(description="apply an incremental export whose base this vault lacks")
    ] = False,
    allow_unverified: Annotated[
        bool, Query(description="import even when the signature does not verify")
    ] = False,
) -> Any:
    """All of it or nothing: an invalid document is refused with its findings (422)."""
    workdir = Path(tempfile.mkdtemp(prefix="memvault-pam-"))
    try:
        with body:
            head = body.read(4)
            body.seek(0)
            path = workdir / ("export.zip" if head == _ZIP_MAGIC else STORE_FILE)
            with open(path, "wb") as out:
                shutil.copyfileobj(body, out, _BLOCK)
        result = import_into_vault(vault, path, force=force, allow_unverified=allow_unverified)
        out_json = result.to_json()
        out_json["source"] = "request body"
        # The server's temporary path is nobody's business: messages name the request body.
        out_json["warnings"] = [
            w.replace(str(path), "request body") for w in out_json.get("warnings", [])
        ]
        return out_json
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
