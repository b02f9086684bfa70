"""A server's tenants in a PostgreSQL database (issue #19): the registry and the server audit
log in the database, each tenant's vault a store bound to its owner id; erasing a tenant leaves
no row of it in any table (AIMEM §5.2); `memvault tenants` and `memvault serve` with
MEMVAULT_DATABASE_URL; the server refuses a superuser or BYPASSRLS role (exit 2) unless told
to. On the PostgreSQL 15 server (no pgvector) and the pgvector one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

import pgkit
from clikit import ENV_VARS, ok, refused
from exchangekit import official_conversation, put_conversation
from memvault.crypto.keys import SigningKey
from memvault.errors import VaultExists
from memvault.store.base import MemoryQuery, StoreError
from memvault.store.factory import open_database_store
from memvault.store.serverkey import ServerKey as StoreKey
from memvault.tenancy import OWNER, Principal, Tenants, Unauthenticated
from memvault.tenancy.places import residue
from memvault.tenancy.tenants import TenantInfo
from serverkit import SERVER_KEY, app_for, auth, client, new_database, server_home
from test_server_cli import serving

SERVERS = [pytest.param("pg15", id="postgres15"), pytest.param("pgvector", id="pgvector")]


@pytest.fixture(params=SERVERS)
def database(request: pytest.FixtureRequest) -> tuple[pgkit.PostgresServer, str]:
    """A PostgreSQL test server and the URL of a new database of it (application role)."""
    return pgkit.server(request.param), new_database(request.param)


@pytest.fixture
def tenants(database: tuple[pgkit.PostgresServer, str]) -> Iterator[Tenants]:
    with Tenants.database(database[1], SERVER_KEY) as opened:
        yield opened


def session(tenants: Tenants, name: str) -> Any:
    return tenants.session(Principal(name, OWNER, frozenset(), "test"))


def superuser_of(url: str) -> psycopg.Connection[tuple[Any, ...]]:
    """An autocommit superuser connection to the database of `url` (it bypasses row-level
    security: it sees every row there is)."""
    parts = url.rsplit("/", 1)
    port = parts[0].rsplit(":", 1)[1]
    return psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/{parts[1]}", autocommit=True)


def rows_naming(url: str, needle: str) -> dict[str, int]:
    """Every table of the database (the catalog's, not a list kept here) and how many of its
    rows hold `needle` anywhere in their text, read as the superuser."""
    found: dict[str, int] = {}
    with superuser_of(url) as conn:
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            ).fetchall()
        ]
        assert "memories" in tables and "server_tokens" in tables
        for table in tables:
            query = psycopg.sql.SQL("SELECT count(*) FROM {} t WHERE strpos(t::text, %s) > 0")
            row = conn.execute(query.format(psycopg.sql.Identifier(table)), (needle,)).fetchone()
            if row and row[0]:
                found[table] = int(row[0])
    return found


def fill(tenants: Tenants, name: str, text: str) -> TenantInfo:
    """A tenant `name` with a memory, a relation, a conversation, a signing key, an agent
    token and an AIMEM export behind it: a row in most tables."""
    info, _ = tenants.create(name)
    vault = session(tenants, name)
    first = vault.add(f"{text} lives in Lisbon", "fact").memory
    second = vault.add(f"{text} likes green tea", "preference").memory
    vault.relate(first.id, second.id, "related_to")
    put_conversation(vault, official_conversation())
    vault.add_key(SigningKey.new("Ed25519").to_record())
    tenants.issue(name, identity="agent-x", scopes=("memories:read",))
    return info


def test_tenants_registry_and_vaults_live_in_the_database(
    tenants: Tenants, database: tuple[pgkit.PostgresServer, str]
) -> None:
    """A tenant is a store bound to its owner id; its keys are kept as hashes only; the
    server audit log is chained and verifies."""
    info, api_key = tenants.create("alice")
    assert tenants.authenticate(api_key).tenant == "alice"
    vault = session(tenants, "alice")
    vault.add("Alice plays the cello", "fact")
    assert vault.owner.id == info.owner_id
    with pytest.raises(VaultExists):
        tenants.create("alice")
    # The same vault, opened as a store of the tenant's owner id with the server key.
    store = open_database_store(
        database[1], info.owner_id, server_key=StoreKey(SERVER_KEY.encode())
    )
    try:
        assert store.count_memories(MemoryQuery()) == 1
    finally:
        store.close()
    assert rows_naming(database[1], api_key) == {}  # only its hash is kept
    assert [e.action for e in tenants.audit_entries()] == ["tenant.create", "token.issue"]
    assert tenants.verify_audit().ok


def test_the_registry_tables_are_invisible_to_a_tenant_bound_session(
    tenants: Tenants, database: tuple[pgkit.PostgresServer, str]
) -> None:
    """The registry is admin data under forced row-level security of its own: a transaction
    naming a tenant (as every store's does) or nothing reads none of its rows."""
    info, _ = tenants.create("alice")
    with psycopg.connect(database[1]) as conn:
        for setting in (info.owner_id, None):
            with conn.transaction():
                if setting is not None:
                    conn.execute("SELECT set_config('memvault.tenant', %s, true)", (setting,))
                for table in ("server_tenants", "server_tokens", "server_audit", "server_meta"):
                    count = conn.execute(f"SELECT count(*) FROM {table}").fetchone()  # type: ignore[arg-type]
                    assert count == (0,), (table, setting)
        with superuser_of(database[1]) as su:
            forced = su.execute(
                "SELECT relname FROM pg_class WHERE relname LIKE 'server_%' AND relkind = 'r' "
                "AND relrowsecurity AND relforcerowsecurity ORDER BY relname"
            ).fetchall()
        assert [r[0] for r in forced] == [
            "server_audit",
            "server_meta",
            "server_tenants",
            "server_tokens",
        ]


def test_erasing_a_tenant_on_postgres_leaves_no_row_of_it_in_any_table_aimem_5_2(
    tenants: Tenants, database: tuple[pgkit.PostgresServer, str]
) -> None:
    """AIMEM §5.2: the store's erase_everything, then every row with the tenant's id, then
    the registry's rows: a query of every table (as the superuser, who sees all rows) finds
    nothing of the tenant's owner id, name or content. The server audit log keeps the
    record that the erasure happened (names, ids, counts — never content), as a server home
    does; bob's vault is whole."""
    url = database[1]
    alice = fill(tenants, "alice", "Alice-7Q")
    bob = fill(tenants, "bob", "Bob-3Z")
    bob_before = rows_naming(url, bob.owner_id)
    assert rows_naming(url, "Alice-7Q")  # her content is there before
    before = rows_naming(url, alice.owner_id)
    kept = {"memories", "relations", "conversations", "owner", "keys", "audit_log"}
    assert kept | {"recall_passages"} <= set(before), before

    report = tenants.erase("alice")
    assert report.memories == 2 and report.conversations == 1 and report.tokens_revoked == 2

    left = rows_naming(url, alice.owner_id)
    assert set(left) <= {"server_audit"}, left  # only the record of the erasure itself
    assert rows_naming(url, "Alice-7Q") == {}
    with superuser_of(url) as conn:
        tokens = conn.execute("SELECT count(*) FROM server_tokens WHERE tenant = 'alice'")
        assert tokens.fetchone() == (0,)
        audit = conn.execute(
            "SELECT action FROM server_audit WHERE strpos(details, %s) > 0", (alice.owner_id,)
        ).fetchall()
    assert sorted(r[0] for r in audit) == ["tenant.create", "tenant.erase"]
    assert residue(url, tenants._registry, _row(tenants, alice)) == {}  # type: ignore[arg-type]
    assert rows_naming(url, bob.owner_id) == bob_before
    assert session(tenants, "bob").list().total == 2
    assert tenants.verify_audit().ok


def _row(tenants: Tenants, info: TenantInfo) -> Any:
    from memvault.tenancy.registry import TenantRow

    return TenantRow(info.name, info.owner_id, info.created_at, b"")


def test_an_erased_tenants_key_stops_working_on_postgres(tenants: Tenants) -> None:
    _, key = tenants.create("alice")
    tenants.erase("alice")
    with pytest.raises(Unauthenticated):
        tenants.authenticate(key)
    assert tenants.list() == []


def test_the_server_suite_routes_work_on_postgres(
    database: tuple[pgkit.PostgresServer, str],
) -> None:
    """A quick end-to-end of the app over a database (the server suite runs in full on
    every backend: serverkit.BACKENDS)."""
    with server_home(Path("unused"), ("alice",), database[0].name) as home:
        http = client(app_for(home), home.key("alice"))
        made = http.post("/v1/memories", json={"content": "Runs on Postgres", "type": "fact"})
        assert made.status_code == 201
        assert http.get(f"/v1/memories/{made.json()['memory']['id']}").status_code == 200


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def database_env(monkeypatch: pytest.MonkeyPatch) -> str:
    """MEMVAULT_DATABASE_URL naming a new database of the PostgreSQL 15 test server."""
    for name in (*ENV_VARS, "MEMVAULT_SERVER_HOME", "MEMVAULT_SERVER_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    url = new_database("pg15")
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", url)
    monkeypatch.setenv("MEMVAULT_SERVER_KEY", SERVER_KEY)
    return url


def test_tenants_cli_works_with_the_database_url(database_env: str) -> None:
    made = ok("tenants", "create", "alice", "--json").json()
    assert made["tenant"] == "alice" and made["api_key"].startswith("mvk_")
    agent = ok("tenants", "issue", "alice", "--as-agent", "agent-x", "--json").json()
    listed = ok("tenants", "list", "--json").json()["tenants"]
    assert [t["name"] for t in listed] == ["alice"] and len(listed[0]["tokens"]) == 2
    rotated = ok("tenants", "rotate", agent["token_id"], "--json").json()
    assert rotated["api_key"] != agent["api_key"]
    ok("tenants", "revoke", agent["token_id"])
    assert "already exists" in refused("tenants", "create", "alice")
    erased = ok("erase", "--tenant", "alice", "--yes", "--json").json()
    assert erased["tenant"] == "alice" and erased["tokens_revoked"] == 1
    assert ok("tenants", "list", "--json").json()["tenants"] == []
    with Tenants.database(database_env, SERVER_KEY) as tenants:
        assert [e.action for e in tenants.audit_entries()][-1] == "tenant.erase"


def test_a_cli_command_reads_a_served_tenants_vault_with_the_server_key(
    database_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server seals a tenant's secrets as a store opened with $MEMVAULT_SERVER_KEY does:
    `memvault` with MEMVAULT_TENANT set to the tenant's owner id works on its vault."""
    with Tenants.database(database_env, SERVER_KEY) as tenants:
        info, _ = tenants.create("alice")
        session(tenants, "alice").add("Alice keeps bees", "fact")
        session(tenants, "alice").add_key(SigningKey.new("Ed25519").to_record())
    monkeypatch.setenv("MEMVAULT_TENANT", info.owner_id)
    listed = ok("list", "--json").json()
    assert [m["content"] for m in listed["memories"]] == ["Alice keeps bees"]


def test_serve_with_a_database_url_serves_its_tenants(database_env: str) -> None:
    """Through a real `memvault serve` process."""
    key = ok("tenants", "create", "alice", "--json").json()["api_key"]
    env = {k: v for k, v in os.environ.items() if k.startswith("MEMVAULT_")}
    with serving(["--no-embed"], env) as (url, printed):
        made = httpx.post(
            url + "/v1/memories",
            json={"content": "Served from PostgreSQL", "type": "fact"},
            headers=auth(key),
        )
        assert made.status_code == 201, made.text
        got = httpx.get(url + "/v1/memories", headers=auth(key)).json()
        assert [m["content"] for m in got["memories"]] == ["Served from PostgreSQL"]
    assert any("tenants of" in line and "postgresql://" in line for line in printed)


def test_serve_refuses_a_superuser_role_as_a_usage_error(
    database_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A superuser skips row-level security: `serve` exits 2 naming the rule and the way to
    allow it, before anything listens; so do the tenants commands."""
    running = pgkit.server("pg15")
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", running.superuser_url)
    message = refused("serve", "--no-embed", code=2)
    assert "superuser" in message and "MEMVAULT_ALLOW_SUPERUSER" in message
    assert "superuser" in refused("tenants", "list", code=2)


def test_serve_refuses_a_bypassrls_role_as_a_usage_error(
    database_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = pgkit.server("pg15")
    role = f"bypass_{pgkit.new_tenant()[2:10]}"
    with running.superuser() as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'pw' BYPASSRLS")  # type: ignore[arg-type]
    dbname = database_env.rsplit("/", 1)[1]
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", running.url(role, "pw", dbname))
    message = refused("serve", "--no-embed", code=2)
    assert "BYPASSRLS" in message and "pw@" not in message


def test_serve_runs_as_a_superuser_when_told_to(
    database_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MEMVAULT_ALLOW_SUPERUSER=1 is the operator saying so."""
    running = pgkit.server("pg15")
    dbname = database_env.rsplit("/", 1)[1]
    env = {
        "MEMVAULT_DATABASE_URL": running.url("postgres", database=dbname),
        "MEMVAULT_ALLOW_SUPERUSER": "1",
        "MEMVAULT_SERVER_KEY": SERVER_KEY,
    }
    with serving(["--no-embed"], env) as (url, _printed):
        assert httpx.get(url + "/v1/memories").status_code == 401


def test_the_registry_connects_again_after_the_database_dropped_it(
    tenants: Tenants, database: tuple[pgkit.PostgresServer, str]
) -> None:
    """A database restart (here: the registry's backend terminated) costs one failed call,
    not the server: the next call connects again."""
    _, key = tenants.create("alice")
    with superuser_of(database[1]) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    for _attempt in range(2):
        try:
            assert tenants.authenticate(key).tenant == "alice"
            break
        except StoreError:
            continue
    else:
        raise AssertionError("the registry did not connect again")


def test_a_nul_character_is_a_422_problem_not_a_500_on_postgres(
    database: tuple[pgkit.PostgresServer, str],
) -> None:
    """PostgreSQL's text cannot hold U+0000: a filter with one is bad input (422,
    problem+json) rather than a server failure (schemathesis found it), and nothing is
    written."""
    with server_home(Path("unused"), ("alice",), database[0].name) as home:
        http = client(app_for(home), home.key("alice"))
        listed = http.get("/v1/memories", params={"tag": "a\x00b"})
        assert listed.status_code == 422, listed.text
        assert listed.headers["content-type"] == "application/problem+json"
        assert "NUL" in listed.json()["detail"]
        # Content is refused by the vault's own rule before any store sees it.
        made = http.post("/v1/memories", json={"content": "tea\x00time", "type": "fact"})
        assert made.status_code == 422 and made.json()["field"] == "content", made.text
        assert http.get("/v1/memories").json()["total"] == 0
