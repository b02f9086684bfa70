"""The AIMEM HTTP profile (draft §3): export a tenant's memory as a bundle, whole or streamed,
import one, and publish the key its exports are signed with (§5.3).

- ``GET /v1/brain/export?scope=&since=`` — the bundle, ``application/aimem-bundle+json``
- ``GET /v1/brain/export/stream?scope=&since=`` — NDJSON: the envelope with the checksum of
  the whole bundle first, then one ``_kind``-tagged record a line
- ``POST /v1/brain/import`` — 200 with inserted / updated / skipped and ``rejected``; 409
  checksum mismatch; 422 malformed; 401 without credentials; 403 without the scope
- ``GET /.well-known/aimem-pubkey`` — the tenant's signing key as a COSE_Key (RFC 9052)

Exports carry ``AIMEM-Signature`` (base64 of a detached COSE_Sign1 over the canonical
bundle) when the tenant has a signing key; an import verifies the header when one is sent.
The rules are `memvault.exchange.aimem_wire`; the session is the token's (an agent's token
exports what the agent may read).
"""

from __future__ import annotations

import base64
import binascii
from typing import IO, Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.background import BackgroundTask

from memvault.errors import AccessDenied, InvalidInput, NotFound, VaultError
from memvault.exchange.aimem import BundleRefused
from memvault.exchange.aimem_wire import (
    BundleDownload,
    export_download,
    import_stream,
    import_summary,
    rejection,
)
from memvault.server import bodies, problems
from memvault.server.deps import session_for
from memvault.server.heap import release_vault_memory
from memvault.vault import Vault

__all__ = ["SIGNATURE_HEADER", "router"]

router = APIRouter(tags=["AIMEM"])

#: §5.3: the detached COSE_Sign1 over the canonical bundle, base64 (RFC 4648 §4).
SIGNATURE_HEADER = "AIMEM-Signature"
COSE_KEY_MEDIA_TYPE = "application/cose-key"
Scope = Literal["FULL", "DNA_ONLY", "SINCE"]
SinceQuery = Annotated[
    str | None, Query(description="ISO 8601 lower bound; required with scope SINCE (§2.1)")
]
ScopeQuery = Annotated[Scope, Query(description="FULL, DNA_ONLY or SINCE (§2.1)")]


def _signing_key(vault: Vault) -> Any:
    """The tenant's key to sign exports with, or None: no key, or a session (an agent's)
    that may not use the owner's keys."""
    from memvault.crypto.keys import SigningKey

    try:
        key = SigningKey.from_record(vault.signing_key())
    except (NotFound, AccessDenied, VaultError):
        return None
    # §5.3 signatures are COSE EdDSA or ES256: an RSA or P-384 key does not sign bundles.
    return key if key.algorithm in ("Ed25519", "ES256") else None


def _download_response(download: BundleDownload, vault: Vault) -> StreamingResponse:
    headers = {"AIMEM-Checksum": download.checksum}
    if download.signature is not None:
        headers[SIGNATURE_HEADER] = base64.b64encode(download.signature).decode("ascii")
    # Once the last byte is sent, the export's freed memory goes back to the system, and
    # what the tenant's idle connections hold.
    return StreamingResponse(
        download.blocks,
        media_type=download.media_type,
        headers=headers,
        background=BackgroundTask(release_vault_memory, vault),
    )


def _export(vault: Vault, scope: str, since: str | None, form: str) -> StreamingResponse:
    if since is not None and scope != "SINCE":
        raise InvalidInput("since goes with scope=SINCE (AIMEM §2.1)", "since")
    if since is None and scope == "SINCE":
        raise InvalidInput("scope=SINCE needs since (an ISO 8601 time, AIMEM §2.1)", "since")
    download = export_download(
        vault, scope=scope, since=since, form=form, sign_with=_signing_key(vault)
    )
    return _download_response(download, vault)


@router.get(
    "/v1/brain/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/aimem-bundle+json": {}}}},
    summary="Export the tenant's memory as an AIMEM bundle (§3.1)",
)
def export_bundle(
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
    scope: ScopeQuery = "FULL",
    since: SinceQuery = None,
) -> StreamingResponse:
    """The bundle (`application/aimem-bundle+json`); memories marked `exportable: false`
    are never in it. `AIMEM-Signature` when the tenant has a signing key."""
    return _export(vault, scope, since, "json")


@router.get(
    "/v1/brain/export/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
    summary="Export as NDJSON, envelope (with the checksum) first (§3.1)",
)
def export_stream(
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
    scope: ScopeQuery = "FULL",
    since: SinceQuery = None,
) -> StreamingResponse:
    """The stream form: the envelope line, then chunks, entities, edges and links, each a
    line tagged with `_kind`. Sent from spooled records: memory stays bounded."""
    return _export(vault, scope, since, "ndjson")


async def _body(request: Request) -> IO[bytes]:
    """The request body spooled (size-limited: 413), before the route runs in the pool."""
    return await bodies.spool(request)


def _signature(value: str | None) -> bytes | None:
    if value is None:
        return None
    text = value.strip()
    try:
        padded = text + "=" * (-len(text) % 4)
        if "-" in text or "_" in text:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInput(
            f"the {SIGNATURE_HEADER} header is not base64 (a detached COSE_Sign1, AIMEM §5.3)",
            SIGNATURE_HEADER,
        ) from None


@router.post(
    "/v1/brain/import",
    summary="Import an AIMEM bundle in one transaction (§3.2)",
    responses={
        409: {"description": "checksum mismatch (§2.8)"},
        422: {"description": "malformed bundle"},
    },
)
def import_bundle(
    vault: Annotated[Vault, Depends(session_for("bundle:import"))],
    body: Annotated[IO[bytes], Depends(_body)],
    aimem_signature: Annotated[str | None, Header(alias=SIGNATURE_HEADER)] = None,
    allow_unverified: Annotated[
        bool, Query(description="import even when the signature does not verify (audited)")
    ] = False,
) -> Any:
    """The body is a bundle (JSON or NDJSON). Its checksum is verified first (409); a
    malformed bundle or chunk refuses it whole (422); a chunk in conflict with the vault
    (§2.9 rule 2) is listed in `rejected` and every accepted chunk commits together."""
    with body:
        signature = _signature(aimem_signature)
        try:
            result = import_stream(
                vault, body, signature=signature, allow_unverified=allow_unverified
            )
        except BundleRefused as exc:
            return problems.problem(
                exc.status,
                str(exc),
                type=problems.TYPE_PREFIX + "BundleRefused",
                errors=[rejection(p) for p in exc.problems],
            )
        finally:
            release_vault_memory(vault)  # what the import freed and left held, to the system
    return import_summary(result)


@router.get(
    "/.well-known/aimem-pubkey",
    response_class=Response,
    responses={200: {"content": {COSE_KEY_MEDIA_TYPE: {}}}},
    summary="The tenant's export signing key as a COSE_Key (§5.3)",
)
def aimem_pubkey(
    vault: Annotated[Vault, Depends(session_for("bundle:export"))],
) -> Response:
    """The public key `AIMEM-Signature` headers of this tenant's exports verify against
    (RFC 8615, COSE_Key, CBOR). 404 when the tenant has no signing key."""
    from memvault.formats.aimem.cose import cose_key

    key = _signing_key(vault)
    if key is None:
        raise NotFound("this tenant has no signing key (memvault keys generate)")
    return Response(cose_key(key), media_type=COSE_KEY_MEDIA_TYPE)
