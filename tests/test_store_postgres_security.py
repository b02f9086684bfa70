"""Tenancy on PostgreSQL, checked at the SQL level on both test servers (PostgreSQL 15 without
pgvector, PostgreSQL 18 with it): forced row-level security on every tenant table, a session
naming no tenant or another tenant sees nothing of a tenant's rows, superuser and BYPASSRLS
roles refused, the tenant leading every key and index, private keys sealed with the server
key, migrations run as the application role."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import pgkit
from memvault.model import Owner, Relation
from memvault.recall.indexes import Scope
from memvault.store.base import (
    AuditEntry,
    ExportRecord,
    KeyRecord,
    MemoryQuery,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoreError,
)
from memvault.store.factory import create_database_store, migrate_database, open_database_store
from memvault.store.pgmigrations import LATEST, TENANT_TABLES, VECTOR_TABLES
from memvault.store.serverkey import ServerKey
from storekit import new_postgres_store
from vaultkit import stored

SERVERS = [pytest.param("pg15", id="postgres15"), pytest.param("pgvector", id="pgvector")]
SECRET = b"-----PRIVATE KEY MATERIAL 0123456789-----"


@pytest.fixture(params=SERVERS)
def server(request: pytest.FixtureRequest) -> pgkit.PostgresServer:
    return pgkit.server(request.param)


def _tables(server: pgkit.PostgresServer) -> tuple[str, ...]:
    """The tenant tables of the server's database (the vectors' only with pgvector)."""
    return TENANT_TABLES + (VECTOR_TABLES if server.vector else ())


def _fill(store: Store, word: str) -> None:
    """A row in every tenant table (a recall model and vector too: with pgvector through the
    recall index, without it a model's row written directly, as the store makes none)."""
    memory = stored(f"{word} lives in Porto", tags=[word])
    store.insert_memories([memory])
    mid = memory.memory.id
    store.set_owner(Owner(id=f"owner-{word}", created_at="2025-01-01T00:00:00Z"))
    store.set_meta(f"note.{word}", word)
    store.insert_relation(
        Relation(id=f"r-{word}", from_=mid, to=mid, type="supports", created_at="t")
    )
    store.put_conversation(
        StoredConversation(id=f"c-{word}", platform="claude", document={"id": f"c-{word}"})
    )
    store.put_embedding(StoredEmbedding(f"e-{word}", mid, "m", 1, "2025-01-01T00:00:00Z", b"1234"))
    store.record_export(ExportRecord(f"x-{word}", "exported", "full", "2025-01-01T00:00:00Z"))
    store.append_audit(
        AuditEntry(1, "2025-01-01T00:00:00Z", "user", "add", mid, None, {}, "p", "h")
    )
    store.put_key(KeyRecord(f"k-{word}", "Ed25519", b"pub", SECRET, "2025-01-01T00:00:00Z"))
    store.put_chunk_digests({mid: "sha256:x"})
    store.put_aliases({f"alias-{word}": mid})
    with store.transaction(), store.recall_index() as index:
        if store.vectors:  # type: ignore[attr-defined]
            model = index.model("toy", 2, create=True)
            assert model is not None
            (passage,) = index.unembedded(model, 0, 1)
            assert index.put_vectors(model, [(passage.id, [1.0, 0.0])]) == 1
        else:
            store._conn().execute(  # type: ignore[attr-defined]
                "INSERT INTO recall_models (tenant, id, model, dimension) VALUES (%s, 1, 'toy', 2)",
                (_tenant(store),),
            )


@pytest.fixture
def two_tenants(server: pgkit.PostgresServer) -> Iterator[tuple[Store, Store]]:
    a = new_postgres_store(server.name)
    b = new_postgres_store(server.name)
    _fill(a, "alpha")
    _fill(b, "beta")
    yield a, b
    a.close()
    b.close()


def _tenant(store: Store) -> str:
    tenant: str = store.tenant  # type: ignore[attr-defined]
    return tenant


def _counts(
    conn: psycopg.Connection[tuple[object, ...]], tenant: str | None, tables: tuple[str, ...]
) -> dict[str, int]:
    """Rows of each tenant table visible in a transaction naming `tenant` (none: no
    setting), counted as the application role."""
    counts: dict[str, int] = {}
    with conn.transaction():
        if tenant is not None:
            conn.execute("SELECT set_config('memvault.tenant', %s, true)", (tenant,))
        for table in tables:
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()  # type: ignore[arg-type]
            assert row is not None
            counts[table] = int(row[0])  # type: ignore[call-overload]
    return counts


def test_row_level_security_is_enabled_and_forced_on_every_tenant_table(
    server: pgkit.PostgresServer,
) -> None:
    """Every table with a tenant column has RLS on and FORCED (it binds the owner too), and
    a policy; the list of tenant tables is complete."""
    new_postgres_store(server.name).close()
    with server.superuser() as conn:
        with_tenant = {
            str(r[0])
            for r in conn.execute(
                "SELECT table_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND column_name = 'tenant'"
            ).fetchall()
        }
        assert with_tenant == set(_tables(server))
        rows = conn.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity, "
            "(SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid) "
            "FROM pg_class c WHERE relname = ANY(%s) AND relkind = 'r'",
            (list(_tables(server)),),
        ).fetchall()
    assert {r[0]: tuple(r[1:]) for r in rows} == {t: (True, True, 1) for t in _tables(server)}


def test_a_session_naming_no_tenant_sees_no_rows(
    server: pgkit.PostgresServer, two_tenants: tuple[Store, Store]
) -> None:
    """As the application role (the tables' owner), a transaction without the tenant setting
    sees no row of any tenant table, and cannot write one."""
    with psycopg.connect(server.app_url) as conn:
        assert _counts(conn, None, _tables(server)) == dict.fromkeys(_tables(server), 0)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute("INSERT INTO meta (tenant, key, value) VALUES ('x', 'k', 'v')")


def test_a_session_naming_another_tenant_sees_none_of_this_ones(
    server: pgkit.PostgresServer, two_tenants: tuple[Store, Store]
) -> None:
    """A transaction naming tenant B sees B's rows and none of A's: in every table, every
    visible row is B's; writing a row of A while naming B is refused."""
    a, b = two_tenants
    with psycopg.connect(server.app_url) as conn:
        counts = _counts(conn, _tenant(b), _tables(server))
        assert all(n >= 1 for n in counts.values()), counts
        with conn.transaction():
            conn.execute("SELECT set_config('memvault.tenant', %s, true)", (_tenant(b),))
            for table in _tables(server):
                row = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE tenant <> %s",  # type: ignore[arg-type]
                    (_tenant(b),),
                ).fetchone()
                assert row == (0,), table
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute("SELECT set_config('memvault.tenant', %s, true)", (_tenant(b),))
            conn.execute(
                "INSERT INTO meta (tenant, key, value) VALUES (%s, 'k', 'v')", (_tenant(a),)
            )
    # The superuser (who bypasses RLS) sees both: the rows are there.
    with server.superuser() as conn:
        row = conn.execute(
            "SELECT count(DISTINCT tenant) FROM memories WHERE tenant = ANY(%s)",
            ([_tenant(a), _tenant(b)],),
        ).fetchone()
        assert row == (2,)


def test_a_store_sees_only_its_own_tenant(two_tenants: tuple[Store, Store]) -> None:
    """Through the store contract: counts, search, ids, keys and the audit log are per
    tenant; the same memory id may exist in two tenants (the tenant leads the key)."""
    a, b = two_tenants
    assert a.count_memories(MemoryQuery()) == 1
    assert [h.memory.memory.content for h in a.search(MemoryQuery(text="porto"))] == [
        "alpha lives in Porto"
    ]
    assert [k.key_id for k in a.list_keys()] == ["k-alpha"]
    assert a.count_audit() == 1 and a.count_conversations() == 1
    assert a.get_owner() == Owner(id="owner-alpha", created_at="2025-01-01T00:00:00Z")
    twin = stored("same id in another tenant", id="shared-id")
    a.insert_memories([twin])
    b.insert_memories([twin])
    assert a.get_memory("shared-id") is not None and b.get_memory("shared-id") is not None
    assert a.delete_memory("shared-id") is True
    assert b.get_memory("shared-id") is not None


def test_the_store_refuses_a_superuser_role(server: pgkit.PostgresServer) -> None:
    """A superuser skips row-level security: refused unless allowed explicitly."""
    # The tables are the application role's: on a fresh server, a superuser's store opened
    # first would create them as the superuser's, and every later test's store could not
    # migrate (the order depends on how the tests are spread over workers).
    migrate_database(server.app_url)
    with pytest.raises(StoreError, match="superuser"):
        create_database_store(server.superuser_url, pgkit.new_tenant())
    with pytest.raises(StoreError, match="superuser"):
        migrate_database(server.superuser_url)
    allowed = create_database_store(server.superuser_url, pgkit.new_tenant(), allow_superuser=True)
    allowed.close()


def test_the_store_refuses_a_bypassrls_role(
    server: pgkit.PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BYPASSRLS skips row-level security too; MEMVAULT_ALLOW_SUPERUSER=1 allows it."""
    role = f"bypass_{pgkit.new_tenant()[2:10]}"
    with server.superuser() as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'pw' BYPASSRLS")  # type: ignore[arg-type]
        conn.execute(f"GRANT {pgkit.APP_ROLE} TO {role}")  # type: ignore[arg-type]
    url = server.url(role, "pw")
    with pytest.raises(StoreError, match="BYPASSRLS") as refused:
        open_database_store(url, pgkit.new_tenant())
    assert "pw@" not in str(refused.value)  # the password is not repeated in messages
    monkeypatch.setenv("MEMVAULT_ALLOW_SUPERUSER", "1")
    create_database_store(url, pgkit.new_tenant()).close()


def test_every_primary_key_and_btree_index_leads_with_the_tenant(
    server: pgkit.PostgresServer,
) -> None:
    """So the tables distribute by tenant (docs/postgres.md). The GIN indexes (full text,
    tags, recall terms) cannot hold a text column without btree_gin and the HNSW indexes of
    vectors (one per dimension) hold only the vector: they are the documented exception."""
    store = new_postgres_store(server.name)
    _fill(store, "gamma")  # a model of 2 dimensions: its HNSW index, with pgvector
    store.close()
    with server.superuser() as conn:
        rows = conn.execute(
            "SELECT i.indexrelid::regclass::text, am.amname, a.attname "
            "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am am ON am.oid = c.relam "
            "LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
            "WHERE i.indrelid::regclass::text = ANY(%s)",
            (list(_tables(server)),),
        ).fetchall()
    assert len(rows) > len(_tables(server))
    btree = {name: column for name, method, column in rows if method == "btree"}
    assert set(btree.values()) == {"tenant"}, btree
    others = {name: method for name, method, _ in rows if method != "btree"}
    hnsw = {name for name, method in others.items() if method == "hnsw"}
    assert ("recall_vectors_hnsw_2" in hnsw) == server.vector
    assert all(name.startswith("recall_vectors_hnsw_") for name in hnsw)
    assert {name for name in others if name not in hnsw} == {
        "memories_fts",
        "memories_tags",
        "recall_passages_terms",
    }


def test_private_keys_are_sealed_with_the_server_key(two_tenants: tuple[Store, Store]) -> None:
    """The database holds no private key in plaintext; the right server key opens it, another
    key does not, and a store without a server key refuses to store one."""
    a, _ = two_tenants
    key = a.get_key("k-alpha")
    assert key is not None and key.private_key == SECRET
    url = a._url  # type: ignore[attr-defined]
    other = open_database_store(url, _tenant(a), server_key=ServerKey(b"\x01" * 32))
    with pytest.raises(StoreError, match="server key does not open"):
        other.get_key("k-alpha")
    other.close()
    keyless = open_database_store(url, _tenant(a))
    with pytest.raises(StoreError, match="none is set"):
        keyless.put_key(KeyRecord("k2", "Ed25519", b"p", b"secret", "2025-01-01T00:00:00Z"))
    keyless.close()


def test_no_private_key_is_in_the_database_in_plaintext(
    server: pgkit.PostgresServer, two_tenants: tuple[Store, Store]
) -> None:
    with server.superuser() as conn:
        rows = conn.execute("SELECT private_key FROM keys WHERE private_key IS NOT NULL").fetchall()
    assert rows
    assert all(SECRET not in bytes(r[0]) for r in rows)  # type: ignore[arg-type]


def test_migrations_run_as_the_application_role(server: pgkit.PostgresServer) -> None:
    """The tables belong to the application role; migrating again finds nothing to do."""
    new_postgres_store(server.name).close()  # a store migrates when it opens
    assert migrate_database(server.app_url) == (LATEST, LATEST)
    with server.superuser() as conn:
        owners = {
            str(r[0])
            for r in conn.execute(
                "SELECT tableowner FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        }
    assert owners == {pgkit.APP_ROLE}


def test_a_fresh_database_is_migrated_by_the_application_role(
    server: pgkit.PostgresServer,
) -> None:
    """`migrate` on an empty database owned by the application role makes every table."""
    name = f"fresh_{pgkit.new_tenant()[2:10]}"
    with server.superuser("postgres") as conn:
        conn.execute(f"CREATE DATABASE {name} OWNER {pgkit.APP_ROLE}")  # type: ignore[arg-type]
    url = server.url(pgkit.APP_ROLE, pgkit.APP_PASSWORD, database=name)
    assert migrate_database(url) == (0, LATEST)
    assert migrate_database(url) == (LATEST, LATEST)


def test_a_recall_search_sees_only_its_own_tenant(two_tenants: tuple[Store, Store]) -> None:
    """The recall index is per tenant too: the same word in two tenants, each finds its own."""
    a, b = two_tenants
    for store, word in ((a, "alpha"), (b, "beta")):
        with store.recall_index() as index:
            hits = index.search("porto alpha beta", 10, Scope())
            assert [r.text for r in index.passages([p for p, _ in hits])] == [
                f"{word} lives in Porto"
            ]


def test_a_tenant_id_is_checked(server: pgkit.PostgresServer) -> None:
    with pytest.raises(StoreError, match="tenant 'no spaces'"):
        create_database_store(server.app_url, "no spaces")


def test_erasing_everything_leaves_no_data_row_of_the_tenant_in_any_table(
    server: pgkit.PostgresServer, two_tenants: tuple[Store, Store]
) -> None:
    """AIMEM §5.2 on a shared database: after `erase_everything`, a superuser query of every
    data table finds no row of the tenant; what describes the vault (owner, keys, settings,
    the audit log of ids and hashes) stays; the other tenant keeps everything."""
    a, b = two_tenants
    counts = a.erase_everything()  # type: ignore[attr-defined]
    assert counts["memories"] == 1 and counts["conversations"] == 1
    kept = {"owner", "keys", "meta", "audit_log"}
    with server.superuser() as conn:
        for table in _tables(server):
            mine, theirs = (
                conn.execute(
                    f"SELECT count(*) FROM {table} WHERE tenant = %s",  # type: ignore[arg-type]
                    (_tenant(store),),
                ).fetchone()
                for store in (a, b)
            )
            assert theirs is not None and theirs[0] >= 1, table
            assert mine is not None and (mine[0] >= 1 if table in kept else mine[0] == 0), table


def test_stores_of_one_database_share_a_pool_and_keep_their_tenants(
    server: pgkit.PostgresServer,
) -> None:
    """Forty tenants' stores open at once in one process use one pool (a few connections,
    not forty), and writing from threads at once, each still sees only its own rows: the
    tenant is set per transaction, so a connection carries nothing from one to the next."""
    stores = [new_postgres_store(server.name) for _ in range(40)]
    try:

        def write(store: Store) -> None:
            store.insert_memories([stored(f"note of {_tenant(store)}") for _ in range(3)])

        threads = [threading.Thread(target=write, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with server.superuser() as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND pid <> "
                "pg_backend_pid()",
                (pgkit.APP_ROLE,),
            ).fetchone()
        assert row is not None and row[0] <= 12, row  # one pool of at most 10, and slack
        for store in stores:
            notes = store.query_memories(MemoryQuery(limit=None))
            assert [m.memory.content for m in notes] == [f"note of {_tenant(store)}"] * 3
    finally:
        for store in stores:
            store.close()


def test_the_server_key_is_read_as_a_server_home_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At least 32 characters; the key file's first line wins over the variable; a key
    derived per purpose, so the same server key serves a server home and this store."""
    with pytest.raises(StoreError, match="at least 32 characters"):
        ServerKey.parse("too short", "MEMVAULT_SERVER_KEY")
    monkeypatch.delenv("MEMVAULT_SERVER_KEY_FILE", raising=False)
    monkeypatch.delenv("MEMVAULT_SERVER_KEY", raising=False)
    assert ServerKey.from_environment() is None
    monkeypatch.setenv("MEMVAULT_SERVER_KEY", "a" * 64)
    from_env = ServerKey.from_environment()
    assert from_env is not None
    sealed = from_env.seal(SECRET, "ctx")
    key_file = tmp_path / "server.key"
    key_file.write_text("b" * 64 + "\nignored\n", encoding="utf-8")
    monkeypatch.setenv("MEMVAULT_SERVER_KEY_FILE", str(key_file))
    from_file = ServerKey.from_environment()
    assert from_file is not None
    with pytest.raises(StoreError, match="does not open"):
        from_file.open(sealed, "ctx")
    assert ServerKey.parse("a" * 64, "again").open(sealed, "ctx") == SECRET
    with pytest.raises(StoreError, match="does not open"):
        from_env.open(sealed, "another row")
