"""A large write into PostgreSQL leaves the written tables analysed: a memory page listed in the
first minute after a big import into a new tenant is planned on statistics that count its
rows, not on an empty table's (which made it four times slower, docs/decisions.md). Autovacuum
is turned off on this server, so what analyses the tables is the store alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pgkit
from memvault.store.base import Store
from memvault.store.factory import create_database_store
from memvault.store.serverkey import ServerKey
from vaultkit import stored


@pytest.fixture(scope="module")
def server() -> Iterator[pgkit.PostgresServer]:
    running = pgkit.start_server("bulkstats", pgkit.DEBIAN_BIN, vector=False)
    try:
        with running.superuser() as conn:
            conn.execute("ALTER SYSTEM SET autovacuum = off")
            conn.execute("SELECT pg_reload_conf()")
        yield running
    finally:
        running.stop()


def store_of(server: pgkit.PostgresServer) -> Store:
    return create_database_store(
        server.app_url,
        pgkit.new_tenant(),
        server_key=ServerKey.parse(pgkit.SERVER_KEY, "the test server key"),
    )


def counted(server: pgkit.PostgresServer, table: str) -> float:
    """The rows the planner's statistics count in `table` (-1: never analysed)."""
    with server.superuser() as conn:
        row = conn.execute(
            "SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", (table,)
        ).fetchone()
    assert row is not None
    return float(row[0])  # type: ignore[arg-type]


def insert(store: Store, prefix: str, count: int) -> None:
    with store.transaction():
        store.insert_memories(stored(f"{prefix} memory number {n}") for n in range(count))


def test_a_bulk_insert_into_a_new_tenant_leaves_its_tables_analysed(
    server: pgkit.PostgresServer,
) -> None:
    store = store_of(server)
    try:
        assert counted(server, "memories") <= 0  # a new database: no statistics yet
        insert(store, "small", 50)  # a small write leaves statistics to autovacuum
        assert counted(server, "memories") <= 0
        insert(store, "bulk", 2000)  # one import of many rows, in batches
        assert counted(server, "memories") == 2050
        assert counted(server, "recall_passages") == 2050
    finally:
        store.close()
    other = store_of(server)  # a second tenant sharing the tables
    try:
        insert(other, "few", 150)  # under a tenth of what the statistics count
        assert counted(server, "memories") == 2050
        insert(other, "more", 1000)
        assert counted(server, "memories") == 3200
    finally:
        other.close()


def test_a_rolled_back_bulk_insert_analyses_nothing(server: pgkit.PostgresServer) -> None:
    before = counted(server, "memories")
    store = store_of(server)
    try:
        with pytest.raises(RuntimeError), store.transaction():
            store.insert_memories(stored(f"undone memory {n}") for n in range(1500))
            raise RuntimeError("the import fails after its writes")
        assert counted(server, "memories") == before
    finally:
        store.close()
