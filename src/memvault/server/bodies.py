"""Request bodies: read as a stream, never past the server's limit, and JSON parsed only once
its nesting is known to be bounded.

`spool(request)` copies the body into a temporary file (in memory while small, on disk past
`SPOOL_IN_MEMORY`), refusing it with 413 as soon as it passes `ServerConfig.max_body` — a
declared ``Content-Length`` over the limit is refused before a byte is read. `json_body` is
the dependency for routes that take a JSON document: a request whose ``Content-Type`` is not
JSON (``application/json`` or a ``+json`` type) is refused with 415 before a byte is read; the
spooled bytes are checked for depth (`memvault.jsonread`), then parsed strictly (no duplicate
keys, no NaN); any failure is a 422 problem naming the place. Routes that stream a large body
(bundles) read the spooled file themselves, through `memvault.jsonread.DepthBoundedReader`.
"""

from __future__ import annotations

import asyncio
import tempfile
from typing import IO, Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from memvault.errors import HTTP_TOO_LARGE, HTTP_UNPROCESSABLE, InvalidInput, VaultError
from memvault.jsonread import JSONDocumentError, check_nesting, loads

__all__ = [
    "JSON_DOCUMENT_LIMIT",
    "JSON_MEDIA_TYPE",
    "SPOOL_IN_MEMORY",
    "BodyTimeout",
    "BodyTooLarge",
    "MalformedBody",
    "UnsupportedMediaType",
    "body_schema",
    "is_json_media_type",
    "json_body",
    "parse_json",
    "spool",
    "validated",
]

ModelT = TypeVar("ModelT", bound=BaseModel)

#: Bodies up to this size stay in memory while spooled; larger ones go to a temporary file.
SPOOL_IN_MEMORY = 1024 * 1024
#: The largest JSON document a route parses whole (a memory, a patch): far above any memory,
#: far below the limit of streamed bodies (bundles), which are never parsed whole.
JSON_DOCUMENT_LIMIT = 8 * 1024 * 1024
#: The slowest average rate (bytes/s) a body may arrive at once `ServerConfig.body_timeout`
#: has passed (408 below it).
MIN_BODY_RATE = 64 * 1024
HTTP_TIMEOUT = 408
HTTP_UNSUPPORTED_MEDIA_TYPE = 415
#: The media type a JSON-body route names when it refuses another (RFC 9110 §15.5.16).
JSON_MEDIA_TYPE = "application/json"
#: What errors call the body (jsonread names "the file").
BODY = "request body"


class BodyTooLarge(VaultError):
    """The request body is larger than the server accepts."""

    http_status = HTTP_TOO_LARGE


class BodyTimeout(VaultError):
    """The request body did not arrive in time (a client trickling it): 408."""

    http_status = HTTP_TIMEOUT


class UnsupportedMediaType(VaultError):
    """A JSON-body route was sent a body whose ``Content-Type`` is missing or not JSON: 415,
    naming the type it takes (``headers`` carries ``Accept-Post`` / ``Accept-Patch``)."""

    http_status = HTTP_UNSUPPORTED_MEDIA_TYPE

    def __init__(self, message: str, headers: dict[str, str]) -> None:
        super().__init__(message)
        self.field = "content-type"
        self.headers = headers


class MalformedBody(InvalidInput):
    """The request body is not the JSON the route takes: the detail names the place and rule."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, message: str, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message, field)
        self.code = code


def _limits(request: Request) -> tuple[int, int]:
    config = request.app.state.config
    return config.max_body, config.max_depth


def _too_large(limit: int) -> BodyTooLarge:
    return BodyTooLarge(f"the request body is larger than this server accepts ({limit} bytes)")


async def spool(request: Request, limit: int | None = None) -> IO[bytes]:
    """The request body in a temporary file positioned at its start (the caller closes it).
    BodyTooLarge (413) past `limit` (default: the server's `max_body`)."""
    if limit is None:
        limit = _limits(request)[0]
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    spooled: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115
    grace = float(request.app.state.config.body_timeout)
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        size = 0
        chunks = request.stream().__aiter__()
        while True:
            # The body may take `grace` seconds plus what MIN_BODY_RATE allows for what came.
            allowed = started + grace + size / MIN_BODY_RATE - loop.time()
            try:
                chunk = await asyncio.wait_for(chunks.__anext__(), max(allowed, 0.001))
            except StopAsyncIteration:
                break
            except TimeoutError:
                raise BodyTimeout(
                    f"the request body came too slowly ({size} bytes in "
                    f"{loop.time() - started:.0f} s; at least {MIN_BODY_RATE // 1024} KiB/s "
                    f"after {grace:.0f} s)"
                ) from None
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            spooled.write(chunk)
        spooled.seek(0)
    except BaseException:
        spooled.close()
        raise
    return spooled


def parse_json(raw: bytes, *, max_depth: int, what: str = BODY) -> Any:
    """One JSON value from `raw`: nesting bounded by `max_depth`, then parsed strictly.
    MalformedBody (422) names the byte offset, the JSON path when known, and the rule."""
    try:
        check_nesting(raw, what, limit=max_depth)
        return loads(raw, what)
    except JSONDocumentError as exc:
        raise MalformedBody(str(exc), exc.path, exc.code) from None


def is_json_media_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` value names JSON: ``application/json`` or any structured
    ``+json`` type (RFC 6839 §3.1), parameters such as ``charset`` aside."""
    if not content_type:
        return False
    essence = content_type.split(";", 1)[0].strip().lower()
    kind, slash, subtype = essence.partition("/")
    if not slash or not kind or not subtype:
        return False
    return essence == JSON_MEDIA_TYPE or subtype.endswith("+json")


def _check_json_media_type(request: Request) -> None:
    sent = request.headers.get("content-type")
    if is_json_media_type(sent):
        return
    told = "no Content-Type" if not sent else f"Content-Type {sent.strip()!r}"
    # RFC 5789 §2.2 / the Accept-Post registration: say what the route takes.
    accept = "Accept-Patch" if request.method == "PATCH" else "Accept-Post"
    raise UnsupportedMediaType(
        f"this route takes a JSON body with Content-Type {JSON_MEDIA_TYPE} "
        f"(or a +json type); the request had {told}",
        {accept: JSON_MEDIA_TYPE},
    )


async def json_body(request: Request) -> Any:
    """Dependency: the request's JSON body: 415 unless its ``Content-Type`` is JSON, then
    size- and depth-limited (413, 422): at most the server's `max_body` or
    `JSON_DOCUMENT_LIMIT`, whichever is smaller."""
    _check_json_media_type(request)
    limit, depth = _limits(request)
    with await spool(request, min(limit, JSON_DOCUMENT_LIMIT)) as body:
        raw = body.read()
    if not raw.strip():
        raise MalformedBody("the request body is empty; this route takes a JSON document")
    return parse_json(raw, max_depth=depth)


def validated(model: type[ModelT], body: Any) -> ModelT:
    """`body` as `model` (strict: no type coercion, no unknown members), or MalformedBody
    (422) naming each failing field and what it must be."""
    try:
        return model.model_validate(body, strict=True)
    except ValidationError as exc:
        places = [
            f"{'.'.join(str(p) for p in err['loc']) or '(body)'}: {err['msg']}"
            for err in exc.errors()
        ]
        first = exc.errors()[0]["loc"] if exc.errors() else ()
        raise MalformedBody(
            "the request body is not valid: " + "; ".join(places),
            ".".join(str(p) for p in first) or None,
        ) from None


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`openapi_extra` for a route that reads `model` through `json_body`: the JSON body
        documented in the OpenAPI document as FastAPI would have documented it, with the 415 a
    body of another media type gets."""
    return {
        "requestBody": {
            "required": True,
            "content": {JSON_MEDIA_TYPE: {"schema": model.model_json_schema()}},
        },
        "responses": {
            str(HTTP_UNSUPPORTED_MEDIA_TYPE): {
                "description": "the body's Content-Type is missing or not JSON "
                f"({JSON_MEDIA_TYPE} or a +json type)",
                "content": {"application/problem+json": {}},
            }
        },
    }
