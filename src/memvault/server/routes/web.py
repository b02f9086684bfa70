"""The web UI (`memvault/web/static`, built from `web/` by the Makefile) and its sign-in.

- ``GET /`` — the page. ``/?token=KEY`` signs the browser in (as Jupyter does): a valid key
  makes a session cookie (HttpOnly, SameSite=Strict) and redirects to ``/`` so the key leaves
  the address bar; without a session the page shows a sign-in form.
- ``GET /assets/…`` — the page's scripts and styles (everything local: the page loads nothing
  from another origin, and its Content-Security-Policy says so).
- ``POST /v1/session`` (the sign-in form: ``{"token"}``), ``GET /v1/session`` (who is signed
  in, and the CSRF token state-changing requests send), ``DELETE /v1/session`` (sign out).

`memvault.server.websession` keeps the sessions and checks the CSRF token.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict

from memvault.errors import InvalidInput, NotFound, VaultError
from memvault.server.bodies import body_schema, json_body, validated
from memvault.server.deps import principal, tenants
from memvault.server.responses import JSONAnswer, answer
from memvault.server.websession import COOKIE, CSRF_HEADER, WebSession, sessions_of
from memvault.tenancy import Principal, Tenants, Unauthenticated

__all__ = ["STATIC", "router"]

router = APIRouter(tags=["web UI"])

#: The built UI (`make web`): index.html and assets/.
STATIC = FilePath(__file__).resolve().parent.parent.parent / "web" / "static"

#: Nothing but this server: no CDN, no inline script, no framing.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
_HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class UINotBuilt(VaultError):
    """The UI's files are missing from this installation."""

    http_status = 503


class SignIn(BaseModel):
    """The sign-in form: an API key (a personal vault's: `memvault token`)."""

    model_config = ConfigDict(extra="forbid")

    token: str


def _with_cookie(response: Response, made: WebSession, request: Request) -> Response:
    response.set_cookie(
        COOKIE,
        made.id,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


def _index() -> Response:
    page = STATIC / "index.html"
    if not page.is_file():
        raise UINotBuilt(
            "the web UI is not built in this installation: run `make web` in the source tree"
        )
    return FileResponse(
        page, media_type="text/html", headers={"Cache-Control": "no-store", **_HEADERS}
    )


@router.get(
    "/",
    summary="The web UI (`?token=KEY` signs the browser in)",
    response_class=Response,
    responses={200: {"content": {"text/html": {}}}, 303: {"description": "signed in"}},
)
def index(
    request: Request,
    registry: Annotated[Tenants, Depends(tenants)],
    token: Annotated[str | None, Query(max_length=512)] = None,
) -> Response:
    """The page; with `token`, a session cookie for a valid key and a redirect to `/`."""
    if token is None:
        return _index()
    try:
        made, _caller = sessions_of(request).sign_in(registry, token)
    except Unauthenticated:
        # The page says the key did not work; the key leaves the address bar either way.
        return RedirectResponse("/#/signin?failed=1", status_code=303, headers=_HEADERS)
    return _with_cookie(RedirectResponse("/", status_code=303, headers=_HEADERS), made, request)


@router.get(
    "/assets/{name}",
    summary="The web UI's scripts and styles",
    response_class=FileResponse,
)
def asset(name: Annotated[str, Path(max_length=255)]) -> Response:
    """A file of the UI's build (404 for anything else)."""
    root = (STATIC / "assets").resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise NotFound(f"no asset {name!r}")
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    # Built names carry a content hash: they never change.
    return FileResponse(
        path,
        media_type=media_type,
        headers={"Cache-Control": "public, max-age=31536000, immutable", **_HEADERS},
    )


def _session_json(caller: Principal, csrf: str | None, registry: Tenants) -> dict[str, Any]:
    return {
        "tenant": caller.tenant,
        "identity": caller.identity,
        "scopes": sorted(caller.scopes),
        "personal": registry.is_personal,
        "csrf": csrf,
        "csrf_header": CSRF_HEADER,
    }


@router.post(
    "/v1/session",
    summary="Sign the browser in with an API key (a session cookie)",
    openapi_extra=body_schema(SignIn),
)
def sign_in(
    request: Request,
    registry: Annotated[Tenants, Depends(tenants)],
    body: Annotated[Any, Depends(json_body)],
) -> Response:
    """Sets the HttpOnly, SameSite=Strict session cookie; answers what `GET /v1/session`
    does. Only a JSON body is taken (a form of another site cannot send one)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise InvalidInput('signing in takes a JSON body ({"token": …})', "content-type")
    made, caller = sessions_of(request).sign_in(registry, validated(SignIn, body).token)
    return _with_cookie(answer(_session_json(caller, made.csrf, registry)), made, request)


@router.get("/v1/session", summary="Who is signed in, and the CSRF token")
def whoami(
    request: Request,
    caller: Annotated[Principal, Depends(principal)],
    registry: Annotated[Tenants, Depends(tenants)],
) -> JSONAnswer:
    """`{"tenant", "identity", "scopes", "personal", "csrf", "csrf_header"}`; `csrf` is null
    for a bearer token (it needs none)."""
    found = sessions_of(request).get(request.cookies.get(COOKIE))
    csrf = found.csrf if found is not None and "authorization" not in request.headers else None
    return answer(_session_json(caller, csrf, registry))


@router.delete("/v1/session", summary="Sign the browser out")
def sign_out(request: Request, _caller: Annotated[Principal, Depends(principal)]) -> JSONAnswer:
    """Forgets the session; the cookie is cleared."""
    sessions_of(request).sign_out(request.cookies.get(COOKIE))
    response = answer({"signed_out": True})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response
