"""Helpers for the HTTP server tests: a server with two tenants and their keys — on each
backend, `BACKENDS`: a server home of SQLite vault files, or a new database of the
PostgreSQL 15 (no pgvector) or the pgvector test server (`pgkit`) — an app over it, and a
real uvicorn server on a free loopback port."""

from __future__ import annotations

import itertools
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

import pgkit
import storekit
from memvault.server.app import create_app
from memvault.server.config import ServerConfig
from memvault.tenancy import Tenants
from memvault.vault import Vault

SERVER_KEY = "k" * 64
#: Where a test server's tenants live: `server_home`'s `backend`.
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("pg15", id="postgres15"),
    pytest.param("pgvector", id="pgvector"),
]
#: The backends that keep vectors for recall (PostgreSQL only with pgvector,
#: `storekit.VECTOR_BACKENDS`): background embedding is tested on these.
VECTOR_BACKENDS = [
    backend
    for backend in BACKENDS
    if backend.id in {vector.id for vector in storekit.VECTOR_BACKENDS}
]


def new_database(server: str) -> str:
    """A new, empty database of the PostgreSQL test server `server`, owned by the
    application role (with the vector extension on the pgvector server, which a superuser
    makes): its URL as the application role."""
    running = pgkit.server(server)
    name = f"mv_{uuid.uuid4().hex[:16]}"
    with running.superuser("postgres") as conn:
        conn.execute(f"CREATE DATABASE {name} OWNER {pgkit.APP_ROLE}")
    if running.vector:
        with running.superuser(name) as conn:
            conn.execute("CREATE EXTENSION vector")
    return running.url(pgkit.APP_ROLE, pgkit.APP_PASSWORD, name)


def open_tenants(path: Path, backend: str = "sqlite") -> Tenants:
    """The tenants of a new server: a server home at `path`, or a new database of the
    PostgreSQL test server `backend` ("pg15", "pgvector")."""
    if backend == "sqlite":
        return Tenants.open(path, SERVER_KEY)
    return Tenants.database(new_database(backend), SERVER_KEY)


@dataclass
class Home:
    """A server home: `tenants`, and for each tenant name its keys by role."""

    tenants: Tenants
    keys: dict[str, dict[str, str]] = field(default_factory=dict)

    def key(self, tenant: str, role: str = "owner") -> str:
        return self.keys[tenant][role]

    def agent(self, tenant: str, identity: str, *scopes: str) -> str:
        """A new key for agent `identity` of `tenant` (default scopes: read and write)."""
        _, api_key = self.tenants.issue(
            tenant, identity=identity, scopes=scopes or ("memories:read", "memories:write")
        )
        return api_key

    def scoped(self, tenant: str, *scopes: str) -> str:
        """A new owner key of `tenant` with only `scopes`."""
        _, api_key = self.tenants.issue(tenant, scopes=scopes)
        return api_key

    def fresh(self) -> tuple[str, str]:
        """A new tenant (name, owner key): an empty vault for one test."""
        name = f"t{next(_FRESH)}"
        _, key = self.tenants.create(name)
        self.keys[name] = {"owner": key}
        return name, key

    def vault(self, tenant: str) -> Vault:
        """The owner's session of `tenant`'s vault, to look at what a request did."""
        return self.tenants._vault(tenant)


_FRESH = itertools.count(1)


def home_on_each_backend(names: tuple[str, ...] = ("alice", "bob")) -> Any:
    """A module-scoped ``home`` fixture: a `server_home` with the tenants `names` on each of
    `BACKENDS` (``home = home_on_each_backend()`` in a test module)."""

    @pytest.fixture(scope="module", params=BACKENDS)
    def home(
        tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
    ) -> Iterator[Home]:
        with server_home(tmp_path_factory.mktemp("server"), names, request.param) as made:
            yield made

    return home


@contextmanager
def server_home(
    path: Path, names: tuple[str, ...] = ("alice", "bob"), backend: str = "sqlite"
) -> Iterator[Home]:
    """A server (`open_tenants`) with the tenants `names`, each with an owner key."""
    with open_tenants(path, backend) as tenants:
        home = Home(tenants)
        for name in names:
            _, api_key = tenants.create(name)
            home.keys[name] = {"owner": api_key}
        yield home


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def client(app: FastAPI, key: str | None = None) -> TestClient:
    """A TestClient that answers unexpected errors as the server would (a 500 problem)."""
    test_client = TestClient(app, raise_server_exceptions=False)
    if key is not None:
        test_client.headers.update(auth(key))
    return test_client


def app_for(home: Home, **options: Any) -> FastAPI:
    return create_app(ServerConfig(home.tenants, **options))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running(app: FastAPI, port: int | None = None, **options: Any) -> Iterator[str]:
    """`app` served by uvicorn on 127.0.0.1 in a thread (`options`: more of uvicorn's, e.g.
    TLS files); yields its base URL and stops it."""
    port = port or free_port()
    options = {"host": "127.0.0.1", "port": port, **options}
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    scheme = "https" if "ssl_certfile" in options else "http"
    try:
        yield f"{scheme}://127.0.0.1:{options['port']}"
    finally:
        server.should_exit = True
        thread.join(20)
