"""`create_app(config)`: the FastAPI application of a memvault server.

Every module under `memvault.server.routes` that defines ``router`` (a `fastapi.APIRouter`)
is included, found with `pkgutil`: a new resource is a new module and nothing else changes.
Errors are problems (`memvault.server.problems`); the registry of tenants is
``app.state.tenants``, the settings ``app.state.config``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.datastructures import State
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memvault import __version__
from memvault.server import apidocs, problems, routes
from memvault.server.authlimit import FailedAuthentications
from memvault.server.config import ServerConfig
from memvault.server.deps import TENANT_STATE
from memvault.server.embedding import EmbedWorker, owner_sessions
from memvault.server.export_mapping import ExportMapWorker
from memvault.server.idle import IdleRelease
from memvault.server.tenant_worker import TenantWorker

#: The first status of an error: a refused request changed nothing.
HTTP_BAD_REQUEST = 400

__all__ = ["MarkWritten", "create_app", "route_modules"]


def route_modules() -> Iterator[tuple[str, APIRouter]]:
    """``(module name, router)`` of every route module, in name order."""
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{routes.__name__}.{info.name}")
        router = getattr(module, "router", None)
        if isinstance(router, APIRouter):
            yield info.name, router


#: Methods that never change a vault (RFC 9110 §9.2.1).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class MarkWritten:
    """ASGI middleware: after a request that may have changed its tenant's vault (not a safe
    method) and succeeded, mark the tenant dirty for the background workers, so their rounds
    visit only tenants something was written to (`memvault.server.tenant_worker`). After
    every request of a tenant, note that it was used (`memvault.server.idle`: its memory is
    given back once it has been idle a while)."""

    def __init__(self, app: ASGIApp, state: State) -> None:
        self.app = app
        self.state = state

    def workers(self) -> list[TenantWorker[Any]]:
        """The application's workers as they are now (a test may put in its own)."""
        found = (getattr(self.state, name, None) for name in ("embedder", "export_mapper"))
        return [w for w in found if isinstance(w, TenantWorker)]

    def _used(self, scope: Scope) -> None:
        idle = getattr(self.state, "idle_release", None)
        tenant = scope.get("state", {}).get(TENANT_STATE)
        if isinstance(idle, IdleRelease) and isinstance(tenant, str):
            idle.touch(tenant)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The routes note the caller's tenant in this dict (`request.state`), shared even by
        # a copy of the scope.
        scope.setdefault("state", {})
        if scope["method"] in SAFE_METHODS:
            try:
                await self.app(scope, receive, send)
            finally:
                self._used(scope)
            return
        status = 0

        async def noting(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting)
        finally:
            tenant = scope.get("state", {}).get(TENANT_STATE)
            if isinstance(tenant, str) and 0 < status < HTTP_BAD_REQUEST:
                for worker in self.workers():
                    worker.mark_dirty(tenant)
            self._used(scope)


def create_app(config: ServerConfig) -> FastAPI:
    """The application serving `config.tenants`. A background embedding worker runs while
    the application does when `config.embed_interval` is set, a background mapping of
    pending AIMEM chunks when `config.map_interval` is, and the release of idle tenants'
    memory when `config.release_idle_after` is."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        found = (app.state.embedder, app.state.export_mapper, app.state.idle_release)
        workers: list[TenantWorker[Any] | IdleRelease] = [w for w in found if w is not None]
        for worker in workers:
            worker.start()
        try:
            yield
        finally:
            for worker in workers:
                worker.stop()

    app = FastAPI(
        title="memvault",
        version=__version__,
        description="A vault for the memory AI assistants keep: PAM v1.0 and AIMEM Bundle v1 "
        "over HTTP. Every error is an RFC 7807 problem (application/problem+json).",
        lifespan=lifespan,
        # FastAPI's pages load their scripts from a CDN; /docs is served by `apidocs`.
        docs_url=None,
        redoc_url=None,
    )
    app.state.config = config
    app.state.tenants = config.tenants
    app.state.auth_failures = FailedAuthentications(config.auth_failure_limit)
    # A personal vault is one file that its owner's CLI writes beside the server (an import,
    # `memvault extract`): every round visits it, as no request announces those writes. A
    # server home's tenants are written through the server, so rounds there visit only the
    # tenants a request wrote to (and a slow sweep).
    sweep = 0.0 if config.tenants.is_personal else None
    app.state.embedder = (
        None
        if config.embed_interval is None
        else EmbedWorker(
            owner_sessions(config.tenants),
            interval=config.embed_interval,
            api_key=config.embed_api_key,
            sweep_interval=sweep,
        )
    )
    app.state.export_mapper = (
        None
        if config.map_interval is None
        else ExportMapWorker(
            owner_sessions(config.tenants, "export-mapper"),
            interval=config.map_interval,
            sweep_interval=sweep,
        )
    )
    app.state.idle_release = (
        None
        if config.release_idle_after is None
        else IdleRelease(
            owner_sessions(config.tenants, "idle-release"), idle=config.release_idle_after
        )
    )
    problems.install(app)
    apidocs.install(app)
    app.add_middleware(MarkWritten, state=app.state)
    for _name, router in route_modules():
        app.include_router(router)
    return app
