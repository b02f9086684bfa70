"""The storage backends the contract suite (test_store_contract.py) runs against, and a
harness for reading while another thread holds a write transaction.

Each entry makes a new, empty store: SQLite in a temporary directory; PostgreSQL 15 (Debian,
no pgvector) and PostgreSQL with pgvector as a store bound to a new tenant of a test server
(`pgkit`), connected as the application role.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

import pgkit
from memvault.store import create_store
from memvault.store.base import Store
from memvault.store.factory import create_database_store
from memvault.store.serverkey import ServerKey
from vaultkit import FAST_KDF, PASSPHRASE

T = TypeVar("T")

#: Makes a new, empty store under the given temporary directory.
NewStore = Callable[[Path], Store]


def new_sqlite_store(tmp: Path) -> Store:
    return create_store(tmp / "home", PASSPHRASE, kdf_iter=int(FAST_KDF))


def new_postgres_store(server: str, tenant: str | None = None) -> Store:
    """A new, empty store of a new tenant (or of `tenant`) on the test server `server`."""
    running = pgkit.server(server)
    return create_database_store(
        running.app_url,
        tenant or pgkit.new_tenant(),
        server_key=ServerKey.parse(pgkit.SERVER_KEY, "the test server key"),
    )


def new_pg15_store(tmp: Path) -> Store:
    return new_postgres_store("pg15")


def new_pgvector_store(tmp: Path) -> Store:
    return new_postgres_store("pgvector")


BACKENDS = [
    pytest.param(new_sqlite_store, id="sqlite"),
    pytest.param(new_pg15_store, id="postgres15"),
    pytest.param(new_pgvector_store, id="pgvector"),
]
#: The backends that keep a recall index (passages, vectors): all of them (PostgreSQL 15 by
#: full text alone: it has no pgvector, and its vector tests check that it says so).
RECALL_BACKENDS = BACKENDS
#: The backends that keep vectors for recall (PostgreSQL only with pgvector).
VECTOR_BACKENDS = [BACKENDS[0], BACKENDS[2]]


def answered_during_write(
    write: Callable[[Callable[[], None]], None], read: Callable[[], T], timeout: float = 60.0
) -> T:
    """`read`'s answer, given on one thread while `write` holds a write transaction open on
    another. `write` gets `hold` and calls it inside its transaction: `hold` returns only once
    `read` has returned (or `timeout` passed), so the writer cannot have committed while the
    reader ran. AssertionError when the reader was not answered meanwhile — it waited for the
    commit — or the writer never called `hold`; an error of either thread is raised here."""
    held, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    answers: list[T] = []
    holding: list[bool] = []

    def hold() -> None:
        holding.append(True)
        held.set()
        release.wait(2 * timeout)

    def run_write() -> None:
        try:
            write(hold)
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)
        finally:
            held.set()

    def run_read() -> None:
        try:
            answers.append(read())
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    writer = threading.Thread(target=run_write)
    writer.start()
    try:
        assert held.wait(timeout), "the writer did not reach its transaction"
        reader = threading.Thread(target=run_read)
        if holding and not errors:
            reader.start()
            reader.join(timeout)
        answered = not reader.is_alive()
    finally:
        release.set()
        writer.join(2 * timeout)
    if errors:
        raise errors[0]
    assert holding, "the writer ended without holding its transaction"
    assert answered, "the reader waited for the write transaction"
    return answers[0]
