"""Every error as an RFC 7807 problem: ``application/problem+json`` with `type`, `title`,
`status` and `detail`, plus what the error carries (the field at fault, the candidates of an
ambiguous id, the findings of a refused import) under the names `memvault.shapes` gives them.

A `VaultError` answers its own `http_status`; a request FastAPI cannot bind to a route's
parameters answers 422 with the failing places; a route or method that does not exist 404 or
405; anything unexpected 500 with a fixed detail — the traceback goes to the server's log,
never to the client.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from memvault import shapes
from memvault.errors import HTTP_INTERNAL, HTTP_UNPROCESSABLE, VaultError

HTTP_UNAUTHORIZED = 401

__all__ = [
    "PROBLEM_JSON",
    "ProblemResponse",
    "install",
    "problem",
    "problem_of",
]

PROBLEM_JSON = "application/problem+json"
_log = logging.getLogger("memvault.server")
#: The problem types memvault defines: one per error class, e.g. ``urn:memvault:error:NotFound``.
TYPE_PREFIX = "urn:memvault:error:"


class ProblemResponse(Response):
    """A problem body, serialised by orjson (problem details may carry any JSON value)."""

    media_type = PROBLEM_JSON

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def problem(
    status: int,
    detail: str,
    *,
    type: str = "about:blank",
    title: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> ProblemResponse:
    """A problem response. `type` "about:blank" means the status says it all (RFC 7807 §4.2)."""
    body = {"type": type, "title": title or _title(status), "status": status, "detail": detail}
    body.update(extra)
    return ProblemResponse(body, status_code=status, headers=dict(headers or {}))


def problem_of(exc: VaultError, headers: Mapping[str, str] | None = None) -> ProblemResponse:
    """The problem of a vault error: its class as the type, its message as the detail, its
    `http_status`, and the fields `shapes.error_json` gives it (field, candidates,
    findings)."""
    error = shapes.error_json(exc)["error"]
    extra = {
        k: v for k, v in error.items() if k not in ("type", "message", "http_status", "exit_code")
    }
    status = exc.http_status
    return problem(
        status,
        error["message"],
        type=TYPE_PREFIX + error["type"],
        title=_title(status),
        headers=headers,
        **extra,
    )


async def _vault_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, VaultError)
    # RFC 6750 §3: a request without valid credentials is answered with the challenge.
    challenge = {"WWW-Authenticate": "Bearer"} if exc.http_status == HTTP_UNAUTHORIZED else None
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        # RFC 9110 §10.2.3: when to try again (the database restarting, too many failures).
        challenge = {"Retry-After": str(retry_after)}
    carried = getattr(exc, "headers", None)
    if isinstance(carried, Mapping):
        # What the error says the client should send instead (Accept-Post on a 415).
        challenge = {**(challenge or {}), **carried}
    return problem_of(exc, challenge)


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "location": ".".join(str(part) for part in err.get("loc", ())),
            "message": str(err.get("msg", "")),
        }
        for err in exc.errors()
    ]
    detail = "; ".join(f"{e['location']}: {e['message']}" for e in errors) or "invalid request"
    return problem(HTTP_UNPROCESSABLE, detail, errors=errors)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else _title(exc.status_code)
    return problem(exc.status_code, detail, headers=exc.headers)


async def _unexpected(request: Request, exc: Exception) -> Response:
    _log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(
        HTTP_INTERNAL,
        "the server failed to answer this request (an internal error); its log has the details",
    )


def install(app: FastAPI) -> None:
    """Answer every error of `app` as a problem."""
    app.add_exception_handler(VaultError, _vault_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
