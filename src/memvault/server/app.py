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

from fastapi import APIRouter, FastAPI

from memvault import __version__
from memvault.server import apidocs, problems, routes
from memvault.server.authlimit import FailedAuthentications
from memvault.server.config import ServerConfig
from memvault.server.embedding import EmbedWorker, owner_sessions
from memvault.server.export_mapping import ExportMapWorker

__all__ = ["create_app", "route_modules"]


def route_modules() -> Iterator[tuple[str, APIRouter]]:
    """``(module name, router)`` of every route module, in name order."""
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{routes.__name__}.{info.name}")
        router = getattr(module, "router", None)
        if isinstance(router, APIRouter):
            yield info.name, router


def create_app(config: ServerConfig) -> FastAPI:
    """The application serving `config.tenants`. A background embedding worker runs while
    the application does when `config.embed_interval` is set, and a background mapping of
    pending AIMEM chunks when `config.map_interval` is."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        workers = [w for w in (app.state.embedder, app.state.export_mapper) if w is not None]
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
    app.state.embedder = (
        None
        if config.embed_interval is None
        else EmbedWorker(
            owner_sessions(config.tenants),
            interval=config.embed_interval,
            api_key=config.embed_api_key,
        )
    )
    app.state.export_mapper = (
        None
        if config.map_interval is None
        else ExportMapWorker(
            owner_sessions(config.tenants, "export-mapper"), interval=config.map_interval
        )
    )
    problems.install(app)
    apidocs.install(app)
    for _name, router in route_modules():
        app.include_router(router)
    return app
