"""A PostgreSQL restart (`pg_ctl restart -m immediate`, a crash) under a store (issue #23): the
transaction in flight fails as StoreUnavailable (HTTP 503 with Retry-After), nothing of it is
applied, and the store serves again by itself as soon as the database accepts connections —
however many restarts came before. The bounds below are for hangs (a pool that lost its
connections for good waits out its whole timeout, 30 s, on every request), not timings."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

import pgkit
from memvault.store.base import StoreUnavailable
from memvault.store.postgres import PostgresStore
from memvault.store.serverkey import ServerKey

#: Seconds within which a store must serve again after a restart (a hang bound).
SERVES_AGAIN_WITHIN = 20.0


@pytest.fixture(scope="module")
def server() -> Iterator[pgkit.PostgresServer]:
    """A durable server of this module's own (a commit survives the crash): restarting the
    shared one would drop other tests' connections."""
    started = pgkit.start_server("restart", pgkit.DEBIAN_BIN, vector=False, durable=True)
    yield started
    started.stop()


@pytest.fixture
def store(server: pgkit.PostgresServer) -> Iterator[PostgresStore]:
    key = ServerKey.parse(pgkit.SERVER_KEY, "test")
    made = PostgresStore.create(server.app_url, pgkit.new_tenant(), server_key=key, pool_size=2)
    yield made
    made.close()


def _serves_again(store: PostgresStore) -> float:
    """Seconds until a read succeeds (StoreUnavailable meanwhile is allowed)."""
    began = time.monotonic()
    while True:
        try:
            store.get_meta("format")
            return time.monotonic() - began
        except StoreUnavailable:
            assert time.monotonic() - began < SERVES_AGAIN_WITHIN, "the store never came back"
            time.sleep(0.05)


def test_a_restart_mid_transaction_fails_it_whole_and_gives_its_connection_back(
    server: pgkit.PostgresServer, store: PostgresStore
) -> None:
    """Three restarts, each in the middle of a write transaction on a pool of two: each
    transaction fails as StoreUnavailable with nothing applied, and afterwards the store
    still has both connections (two transactions at once on two threads succeed). A
    connection the restart broke used to be kept out of the pool (its rollback failed before
    it was given back), so the pool shrank with each restart until every request waited
    30 s for a connection that never came."""
    for n in range(3):
        with (
            pytest.raises(StoreUnavailable, match="nothing is half-applied"),
            store.transaction(),
        ):
            store.set_meta("restart", f"before {n}")
            server.restart()
            store.set_meta("restart", f"after {n}")
        assert _serves_again(store) < SERVES_AGAIN_WITHIN
        assert store.get_meta("restart") is None  # the transaction left nothing

    # Both pooled connections work: two threads hold one each at the same moment.
    both = threading.Barrier(2, timeout=SERVES_AGAIN_WITHIN)
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with store.recall_index():  # a pooled connection of its own, for the block
                both.wait()
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=hold) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    store.set_meta("restart", "written")
    assert store.get_meta("restart") == "written"


def test_a_restart_while_reads_are_idle_in_the_pool_is_not_seen_by_the_next_request(
    server: pgkit.PostgresServer, store: PostgresStore
) -> None:
    """Idle pooled connections the restart broke are checked and replaced when handed out:
    the first read after the database is back succeeds (no 503 for a request that began
    after the restart)."""
    store.set_meta("kept", "yes")
    server.restart()
    assert store.get_meta("kept") == "yes"
