"""PAM v1.0 over HTTP: a tenant's memory exported as a PAM zip (full, or incremental since
the last export or a moment, PAM §16) and a PAM export imported in one transaction.

- ``GET /v1/pam/export?incremental=&since=&sign=&key=`` — ``application/zip``:
  memory-store.json, conversations, embeddings (PAM §15), signed with a vault key on request
  (PAM §18)
- ``POST /v1/pam/export`` — the same, asked for in a JSON body that may also ask for age
  encryption to a passphrase or to recipients (PAM §21.1): ``application/age`` then. A
  passphrase never travels in a URL (where logs and browser history keep it).
- ``POST /v1/pam/import`` — a zip of an export, or a lone memory-store.json; 200 with what was
  imported, 422 with the findings of an invalid one

The files pass through a private temporary directory (0700) that is removed once the answer
is sent: `memvault.exchange.pam` reads and writes files.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from memvault.errors import ImportRefused, InvalidInput
from memvault.exchange.pam import ExportHooks, export_vault, import_into_vault
from memvault.exchange.protection import export_hooks
from memvault.formats.pam import STORE_FILE
from memvault.server import bodies
from memvault.server.bodies import body_schema, json_body, validated
from memvault.server.deps import session_for
from memvault.vault import Vault

__all__ = ["router"]

router = APIRouter(tags=["PAM"])

_BLOCK = 1 << 16
#: The media type of an age file (age-encryption.org/v1).
_AGE = "application/age"
_ZIP_MAGIC = b"PK\x03\x04"


def _stream_and_remove(path: Path, workdir: Path) -> Iterator[bytes]:
    try:
        with open(path, "rb") as fh:
            while block := fh.read(_BLOCK):
                yield block
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


Exporter = Annotated[Vault, Depends(session_for("bundle:export"))]


class Encryption(BaseModel):
    """age encryption of the export (PAM §21.1): to a passphrase or to X25519 recipients."""

    model_config = ConfigDict(extra="forbid")

    passphrase: str | None = Field(default=None, description="an age passphrase (scrypt)")
    recipients: list[str] = Field(default_factory=list, description="age X25519 recipients")


class ExportRequest(BaseModel):
    """What to export and how to protect it."""

    model_config = ConfigDict(extra="forbid")

    incremental: bool = Field(default=False, description="only what changed since the last export")
    since: str | None = Field(default=None, description="only what changed at or after this time")
    sign: bool = Field(default=False, description="sign with a vault key (PAM §18)")
    key: str | None = Field(default=None, description="the vault key to sign with")
    encrypt: Encryption | None = None


def _exported(
    vault: Vault, hooks: ExportHooks, *, incremental: bool, since: str | None
) -> StreamingResponse:
    """Export into a private temporary directory and stream the file, removed once sent."""
    encrypted = hooks.encrypt is not None
    workdir = Path(tempfile.mkdtemp(prefix="memvault-pam-"))
    try:
        target = workdir / ("export.zip.age" if encrypted else "export.zip")
        result = export_vault(vault, target, incremental=incremental, since=since, hooks=hooks)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    name = f"pam-{result.export_id}.zip" + (".age" if encrypted else "")
    headers = {
        "Content-Disposition": f'attachment; filename="{name}"',
        "PAM-Export-Id": result.export_id,
        "PAM-Export-Type": result.export_type,
        "PAM-Signed": "true" if result.signed else "false",
    }
    return StreamingResponse(
        _stream_and_remove(target, workdir),
        media_type=_AGE if encrypted else "application/zip",
        headers=headers,
    )


@router.get(
    "/v1/pam/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}}}},
    summary="Export the tenant's memory as a PAM zip (full or incremental, PAM §16)",
)
def export_pam(
    vault: Exporter,
    incremental: Annotated[
        bool, Query(description="only what changed since the last export (PAM §16)")
    ] = False,
    since: Annotated[
        str | None, Query(description="only what changed at or after this ISO 8601 time")
    ] = None,
    sign: Annotated[
        bool, Query(description="sign memory-store.json with a vault key (PAM §18)")
    ] = False,
    key: Annotated[
        str | None,
        Query(
            description="with sign: the vault key (id, a unique part of one, or its "
            "algorithm); default: the only key, or the owner's DID key"
        ),
    ] = None,
) -> StreamingResponse:
    """A zip of a PAM export. Memories marked `exportable: false` are never in it; an
    agent's token exports what the agent may read, and never a delta. Signing uses the
    owner's keys: an agent's token is refused (403). For an encrypted export, POST."""
    hooks = export_hooks(vault, sign=sign, key=key)
    return _exported(vault, hooks, incremental=incremental, since=since)


@router.post(
    "/v1/pam/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}, _AGE: {}}}},
    summary="Export as a PAM zip, signed and/or age-encrypted as the body asks (PAM §18, §21.1)",
    openapi_extra=body_schema(ExportRequest),
)
def export_pam_protected(vault: Exporter, body: Annotated[Any, Depends(json_body)]) -> Any:
    """The export `GET /v1/pam/export` makes, asked for in a JSON body: `sign` (and `key`)
    as there, and `encrypt`: `{"passphrase": "…"}` or `{"recipients": ["age1…"]}` — then
    the answer is the zip encrypted with age (`application/age`, `pam-<id>.zip.age`).
    Secrets go in the body, never in the URL."""
    asked = validated(ExportRequest, body)
    encryption = asked.encrypt
    hooks = export_hooks(
        vault,
        sign=asked.sign,
        key=asked.key,
        passphrase=None if encryption is None else encryption.passphrase,
        recipients=() if encryption is None else encryption.recipients,
    )
    if encryption is not None and hooks.encrypt is None:
        raise InvalidInput(
            "encrypt: give a passphrase or at least one age recipient (PAM §21.1)", "encrypt"
        )
    return _exported(vault, hooks, incremental=asked.incremental, since=asked.since)


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
        try:
            result = import_into_vault(vault, path, force=force, allow_unverified=allow_unverified)
        except ImportRefused as exc:
            raise _refused_body(exc, path) from None
        out_json = result.to_json()
        out_json["source"] = _BODY
        # The server's temporary path is nobody's business: messages name the request body.
        out_json["warnings"] = [w.replace(str(path), _BODY) for w in out_json.get("warnings", [])]
        return out_json
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


#: How answers name what was posted (never the file the server spooled it to).
_BODY = "request body"


def _refused_body(exc: ImportRefused, path: Path) -> ImportRefused:
    """The refusal `exc` of the spooled `path`, told of the request body instead; an AIMEM
    bundle posted here is pointed to the route that takes it."""

    def told(text: str) -> str:
        return text.replace(str(path), _BODY)

    findings = [
        dataclasses.replace(f, file=_BODY if f.file else f.file, message=told(f.message))
        for f in exc.findings
    ]
    message, headline = told(str(exc)), told(exc.headline)
    if any(f.code == "unsupported-kind" and "AIMEM" in f.message for f in findings):
        hint = " (POST an AIMEM bundle to /v1/brain/import)"
        message, headline = message + hint, headline + hint
    return ImportRefused(message, findings, headline=headline)
