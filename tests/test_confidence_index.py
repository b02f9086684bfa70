"""The memory list's confidence filter (PAM §8: the stored `confidence.current`) reads an
index on SQLite — migration 10's, on the value with the status — and a vault
made before it is migrated and filters the same. Migrations numbered in a gap below one a
vault has applied still run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

import pgkit
from memvault.store import create_store, open_store
from memvault.store import sqlite as sqlite_store
from memvault.store.base import MemoryQuery
from memvault.store.factory import open_database_store
from memvault.store.migrations import LATEST, MIGRATIONS
from memvault.store.pgmigrations import LATEST as PG_LATEST
from memvault.store.serverkey import ServerKey
from memvault.store.sqlite import _CONFIDENCE_SORT_AT_MOST, SQLiteStore
from storekit import new_postgres_store
from vaultkit import FAST_KDF, PASSPHRASE, stored

#: Confidences of the memories of a test vault, newest last (created a minute apart).
SPREAD = (0.1, 0.35, 0.5, 0.75, 0.9, 1.0)


def _fill(store: SQLiteStore, n: int) -> dict[str, float]:
    memories = [
        stored(
            f"memory {i}",
            confidence=SPREAD[i % len(SPREAD)],
            created_at=f"2025-01-{1 + i // 1440:02d}T{i // 60 % 24:02d}:{i % 60:02d}:00Z",
        )
        for i in range(n)
    ]
    with store.transaction():
        store.insert_memories(memories)
    return {s.memory.content: float(s.memory.confidence.current) for s in memories}  # type: ignore[union-attr, arg-type]


def _new(tmp_path: Path) -> SQLiteStore:
    store = create_store(tmp_path / "home", PASSPHRASE, kdf_iter=int(FAST_KDF))
    assert isinstance(store, SQLiteStore)
    return store


def _plan(store: SQLiteStore, sql: str, params: list[object]) -> str:
    return "; ".join(str(r[-1]) for r in store._all(f"EXPLAIN QUERY PLAN {sql}", params))


def _page(store: SQLiteStore, query: MemoryQuery) -> list[str]:
    return [s.memory.content for s in store.query_memories(query)]


def _expected(values: dict[str, float], low: float, high: float, limit: int) -> list[str]:
    # Newest first: "memory i" was created after every lower i.
    matches = [c for c, v in values.items() if low <= v <= high]
    return sorted(matches, key=lambda c: -int(c.split()[1]))[:limit]


def test_a_vault_of_the_previous_schema_migrates_and_filters_by_confidence_pam_8(
    tmp_path: Path,
) -> None:
    """A vault at the schema before migration 10 (no confidence index) opened by this
    memvault gets it; its memories, written before, are filtered and counted by their stored
    `confidence.current` (PAM §8) through the new index."""
    store = _new(tmp_path)
    values = _fill(store, 300)
    # Back to the schema before migration 10, as a vault written before it is.
    with store.transaction():
        store._conn.execute("DROP INDEX memories_status_confidence")
        # (and before the migrations after it: 13 runs again harmlessly, IF NOT EXISTS)
        store._conn.execute("DELETE FROM schema_migrations WHERE version >= 10")
        previous = max(m.version for m in MIGRATIONS if m.version < 10)
        store._conn.execute(f"PRAGMA user_version = {previous}")
    store.close()
    store = open_store(tmp_path / "home", PASSPHRASE)  # type: ignore[assignment]
    try:
        assert store.schema_version == LATEST >= 10
        assert (10, "confidence_index") in [(v, n) for v, n, _ in store.migrations()]
        for low, high in ((0.75, 1.0), (0.0, 0.35), (0.5, 0.5), (0.91, 0.99)):
            query = MemoryQuery(min_confidence=low, max_confidence=high, limit=20)
            assert _page(store, query) == _expected(values, low, high, 20)
            assert store.count_memories(query) == len(_expected(values, low, high, 10**6))
    finally:
        store.close()


def test_confidence_filters_read_the_status_confidence_index_and_broad_pages_walk_the_time_index(
    tmp_path: Path,
) -> None:
    """The total of a confidence-filtered list reads the status/confidence index (no row); a
    narrow bound's page is read through it and sorted, a broad bound's page walks the
    status/created index newest first (stopping after LIMIT matches, not sorting thousands) —
    and both answer the same as the stored values say (PAM §8). A count with a type filter
    too reads the type's index, not the rows."""
    store = _new(tmp_path)
    try:
        n = 3 * _CONFIDENCE_SORT_AT_MOST
        values = _fill(store, n)
        for low, high in ((1.0, 1.0), (0.5, 1.0)):
            query = MemoryQuery(
                statuses=("active",), min_confidence=low, max_confidence=high, limit=50
            )
            params: list[object] = []
            where = sqlite_store._and(sqlite_store._where(query, params))
            count_plan = _plan(store, f"SELECT count(*) FROM memories m WHERE {where}", params)
            assert "COVERING INDEX memories_status_confidence" in count_plan
            assert store.count_memories(query) == len(_expected(values, low, high, n))
            page_plan = _plan(store, *store._memory_page_sql(query))
            broad = len(_expected(values, low, high, n)) >= _CONFIDENCE_SORT_AT_MOST
            if broad:
                assert "memories_status_created" in page_plan, page_plan
                assert "TEMP B-TREE" not in page_plan, page_plan
            else:
                assert "memories_status_confidence" in page_plan, page_plan
            assert _page(store, query) == _expected(values, low, high, 50)
        # With a type too, the count still reads indexes only: the type's seq list.
        typed = MemoryQuery(statuses=("active",), types=("fact",), min_confidence=0.5)
        params = []
        where = sqlite_store._and(sqlite_store._where(typed, params))
        count_plan = _plan(store, f"SELECT count(*) FROM memories m WHERE {where}", params)
        assert "COVERING INDEX memories_status_confidence" in count_plan, count_plan
        assert "COVERING INDEX memories_type" in count_plan, count_plan
        assert store.count_memories(typed) == len(_expected(values, 0.5, 1.0, n))
        assert store.count_memories(replace(typed, types=("preference",))) == 0
    finally:
        store.close()


def test_a_migration_numbered_below_one_already_applied_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration numbers may leave gaps (7 and 9 were reserved when 10 was written): a vault
    that applied 10 without a migration numbered below it — as one made before that
    migration was merged in — gets it when it opens, recorded in ``schema_migrations``, with
    ``user_version`` left at the highest."""
    below = next(m for m in MIGRATIONS if m.name == "confidence_index")
    monkeypatch.setattr(sqlite_store, "MIGRATIONS", tuple(m for m in MIGRATIONS if m != below))
    store = _new(tmp_path)
    assert below.version not in [v for v, _, _ in store.migrations()]
    assert store.schema_version == LATEST
    store.close()
    monkeypatch.setattr(sqlite_store, "MIGRATIONS", MIGRATIONS)
    store = open_store(tmp_path / "home", PASSPHRASE)  # type: ignore[assignment]
    try:
        assert store.schema_version == LATEST
        assert [v for v, _, _ in store.migrations()] == [m.version for m in MIGRATIONS]
        assert (
            store._one(
                "SELECT count(*) FROM sqlite_master WHERE name = 'memories_status_confidence'"
            )[0]
            == 1
        )
    finally:
        store.close()


def test_a_postgres_tenant_of_the_previous_schema_migrates_and_filters_by_confidence_pam_8() -> (
    None
):
    """A PostgreSQL database at schema 2 (no ``confidence`` column) gets migration 3 when a
    store opens: the column is computed for the memories written before, indexed, and the
    bounds filter and count on it (PAM §8)."""
    server = pgkit.server("pg15")
    store = new_postgres_store("pg15")
    tenant = store.tenant  # type: ignore[attr-defined]
    memories = [stored(f"memory {i}", confidence=c) for i, c in enumerate(SPREAD)]
    store.insert_memories(memories)
    store.close()
    with psycopg.connect(server.app_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE memories DROP COLUMN confidence")
        conn.execute("DELETE FROM memvault_migrations WHERE version = 3")
    store = open_database_store(
        server.app_url, tenant, server_key=ServerKey.parse(pgkit.SERVER_KEY, "the test key")
    )
    try:
        assert PG_LATEST >= 3
        with psycopg.connect(server.app_url) as conn:
            (version,) = conn.execute("SELECT max(version) FROM memvault_migrations").fetchone()  # type: ignore[misc]
            indexes = [r[0] for r in conn.execute("SELECT indexname FROM pg_indexes")]
        assert version == PG_LATEST and "memories_status_confidence" in indexes
        query = MemoryQuery(min_confidence=0.5, max_confidence=0.9)
        found = {s.memory.content for s in store.query_memories(query)}
        assert found == {f"memory {i}" for i, c in enumerate(SPREAD) if 0.5 <= c <= 0.9}
        assert store.count_memories(query) == len(found) == 3
    finally:
        store.close()
