"""The vault over a PostgreSQL store, on both test servers: the same session (owner, agent)
adds, reads, lists, searches, updates and verifies its audit log as on a vault file; and the
CLI with MEMVAULT_DATABASE_URL works on a tenant's vault in the database (PAM §6 dedup, §9
access, the audit chain)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import pgkit
from clikit import mv, ok, refused
from memvault.crypto.keys import SigningKey
from memvault.errors import AccessDenied, VaultExists, VaultNotFound
from memvault.store.base import MemoryQuery, StoredConversation
from memvault.store.factory import open_database_store
from memvault.store.serverkey import ServerKey
from memvault.vault import Vault
from storekit import new_postgres_store

SERVERS = [pytest.param("pg15", id="postgres15"), pytest.param("pgvector", id="pgvector")]


@pytest.fixture(params=SERVERS)
def server(request: pytest.FixtureRequest) -> pgkit.PostgresServer:
    return pgkit.server(request.param)


@pytest.fixture
def vault(server: pgkit.PostgresServer) -> Iterator[Vault]:
    created = Vault.create(new_postgres_store(server.name))
    yield created
    created.close()


def test_add_get_list_search_update_on_postgres(vault: Vault) -> None:
    first = vault.add("Mora em São Paulo e gosta de pão de queijo", "fact", tags=["home"])
    assert first.created
    again = vault.add("  mora em SÃO PAULO e gosta de pão de queijo ", "fact")
    assert again.reinforced and again.memory.id == first.memory.id  # PAM §6: no twin
    tea = vault.add("Prefers green tea in the morning", "preference").memory
    assert vault.get(first.memory.id[:8]) == vault.get(first.memory.id)
    page = vault.list()
    assert page.total == 2 and {m.id for m in page.items} == {first.memory.id, tea.id}
    assert [r.memory.id for r in vault.search("pao")] == [first.memory.id]
    changed = vault.update(tea.id, content="Prefers black coffee", add_tags=["drinks"])
    assert changed.content == "Prefers black coffee" and "drinks" in changed.tags
    assert vault.search("tea") == [] and [r.memory.id for r in vault.search("coffee")] == [tea.id]
    vault.retract(tea.id)
    assert vault.list().total == 1
    assert vault.list(MemoryQuery(statuses=None)).total == 2


def test_audit_chain_verifies_on_postgres(vault: Vault) -> None:
    added = vault.add("User lives in Porto", "fact").memory
    vault.update(added.id, add_tags=["city"])
    vault.archive(added.id)
    report = vault.verify_audit()
    assert report.ok, report.problems
    assert report.entries == 4  # init, add, update, archive
    assert [e.action for e in vault.audit_log()][:1] == ["init"]


def test_an_agent_session_sees_only_what_it_may_read_on_postgres(vault: Vault) -> None:
    """PAM §9 access turned into SQL on PostgreSQL too."""
    private = vault.add("Private note", "fact").memory
    shared = vault.add(
        "Shared with agent-x", "fact", visibility="shared", shared_with=[("agent-x", ["read"])]
    ).memory
    agent = vault.acting_as("agent-x")
    assert [m.id for m in agent.list().items] == [shared.id]
    with pytest.raises(AccessDenied):
        agent.get(private.id)
    with pytest.raises(AccessDenied):
        agent.verify_audit()


def test_a_signing_key_round_trips_sealed_on_postgres(vault: Vault) -> None:
    """The vault keeps the private key; the store seals it with the server key."""
    record = SigningKey.new("Ed25519").to_record()
    vault.add_key(record)
    assert vault.signing_key(record.key_id).private_key == record.private_key


def test_erasure_on_postgres_removes_the_memory(vault: Vault) -> None:
    gone = vault.add("Forget this entirely", "fact", tags=["secret"]).memory
    report = vault.erase(gone.id)
    assert report.erased == (gone.id,)
    # Dead row versions stay until VACUUM (and in the WAL): not promised gone (docs/postgres.md).
    assert report.durable is False
    assert vault.list(MemoryQuery(statuses=None)).total == 0
    assert vault.search("forget") == []
    assert vault.verify_audit().ok


def test_erasing_a_conversation_and_everything_on_postgres(vault: Vault) -> None:
    """AIMEM §5.2 through the vault: one conversation, then all of the tenant's data; the
    owner and the audit chain (ids and counts, never content) stay and verify."""
    vault.put_conversation(
        StoredConversation("conv-1", "claude", {"id": "conv-1", "messages": []}, message_count=2)
    )
    vault.put_conversation(
        StoredConversation("conv-2", "claude", {"id": "conv-2", "messages": []}, message_count=1)
    )
    vault.add("Lives in Porto", "fact")
    one = vault.erase_conversation("conv-1")
    assert (one.conversation, one.messages) == ("conv-1", 2)
    assert vault.conversation_ids(["conv-1", "conv-2"]) == {"conv-2"}
    everything = vault.erase_everything()
    assert everything.counts["memories"] == 1 and everything.counts["conversations"] == 1
    assert everything.durable is False  # dead row versions wait for VACUUM (docs/postgres.md)
    assert vault.list(MemoryQuery(statuses=None)).total == 0 and vault.count_conversations() == 0
    assert vault.verify_audit().ok


def test_a_tenant_has_one_vault(server: pgkit.PostgresServer) -> None:
    tenant = pgkit.new_tenant()
    key = ServerKey.parse(pgkit.SERVER_KEY, "test")
    with pytest.raises(VaultNotFound, match=tenant):
        open_database_store(server.app_url, tenant, server_key=key)
    Vault.create(new_postgres_store(server.name, tenant)).close()
    with pytest.raises(VaultExists, match=tenant):
        new_postgres_store(server.name, tenant)
    with Vault(open_database_store(server.app_url, tenant, server_key=key)) as reopened:
        assert reopened.stats()["audit_entries"] == 1


# -- the CLI on MEMVAULT_DATABASE_URL -----------------------------------------------------------


@pytest.fixture
def database_env(server: pgkit.PostgresServer, monkeypatch: pytest.MonkeyPatch) -> str:
    """MEMVAULT_DATABASE_URL, a new MEMVAULT_TENANT and the server key set; no home, no
    passphrase."""
    tenant = pgkit.new_tenant()
    for name in ("MEMVAULT_HOME", "MEMVAULT_PASSPHRASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", server.app_url)
    monkeypatch.setenv("MEMVAULT_TENANT", tenant)
    monkeypatch.setenv("MEMVAULT_SERVER_KEY", pgkit.SERVER_KEY)
    return tenant


def test_cli_init_add_list_stats_audit_on_postgres(database_env: str) -> None:
    created = ok("init", "--json").json()
    assert created["home"] == f"tenant {database_env!r} in " + created["home"].split(" in ", 1)[1]
    assert "memvault-test-password" not in created["home"]
    added = ok("add", "Prefers green tea", "--type", "preference", "--tag", "drinks", "--json")
    memory_id = added.json()["memory"]["id"]
    listed = ok("list", "--json").json()
    assert [m["id"] for m in listed["memories"]] == [memory_id]
    assert [r["memory"]["id"] for r in ok("search", "tea", "--json").json()["results"]] == [
        memory_id
    ]
    assert ok("stats", "--json").json()["memories"] == 1
    assert "already has a vault" in refused("init")
    assert ok("audit", "verify", "--json").json()["ok"] is True


def test_cli_without_a_vault_for_the_tenant_says_how_to_make_one(database_env: str) -> None:
    assert "memvault init" in refused("list")


def test_cli_rejects_a_database_url_that_is_not_postgresql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", "mysql://somewhere/db")
    run = mv("list")
    assert run.exit_code == 2 and "postgresql://" in run.stderr


def test_cli_db_migrate(database_env: str) -> None:
    assert ok("db", "migrate", "--json").json()["to_version"] >= 1
    assert "nothing to do" in ok("db", "migrate").stdout


def test_cli_db_migrate_needs_a_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_DATABASE_URL", raising=False)
    run = mv("db", "migrate")
    assert run.exit_code == 2 and "MEMVAULT_DATABASE_URL" in run.stderr


def test_cli_with_an_unreachable_database_says_so_without_the_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", "postgresql://app:hunter2@127.0.0.1:1/memvault")
    message = refused("list")
    assert "cannot connect to postgresql://app:***@127.0.0.1:1/memvault" in message
    assert "hunter2" not in message
