"""Tenants and tokens (issue #18.2): API keys shown once and kept only as hashes, scopes,
identities (the owner or a PAM §9 agent), isolated tenant vaults, and tenant erasure (AIMEM
§5.2) recorded in the server's hash-chained audit log — on real SQLCipher files."""

from __future__ import annotations

import hashlib
import sqlite3
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlcipher3  # type: ignore[import-untyped]

from memvault.errors import AccessDenied, InvalidInput, NotFound, VaultExists
from memvault.store.base import WrongPassphrase
from memvault.tenancy import SCOPES, Principal, ScopeMissing, Tenants, Unauthenticated
from memvault.tenancy.keys import ServerKey
from memvault.tenancy.registry import REGISTRY_NAME

SERVER_KEY = "0123456789abcdef" * 4
SECRET = "The user's secret allergy is to penicillin"


@pytest.fixture
def tenants(tmp_path: Path) -> Iterator[Tenants]:
    with Tenants.open(tmp_path / "server", SERVER_KEY) as opened:
        yield opened


def _registry_rows(home: Path, sql: str) -> list[tuple[object, ...]]:
    """Read the registry file directly (with the key derived from the server key)."""
    conn = sqlcipher3.connect(str(home / REGISTRY_NAME))
    try:
        conn.execute(f"PRAGMA key = \"x'{ServerKey(SERVER_KEY).registry_key.hex()}'\"")
        return list(conn.execute(sql).fetchall())
    finally:
        conn.close()


def _all_bytes(home: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file())


# -- keys ---------------------------------------------------------------------------------


def test_api_key_is_shown_once_and_only_its_sha256_is_stored(tenants: Tenants) -> None:
    info, api_key = tenants.create("alice")
    assert api_key.startswith("mvk_") and len(api_key) > 40
    rows = _registry_rows(tenants.home, "SELECT id, key_hash FROM tokens")
    assert rows == [(info.tokens[0].id, hashlib.sha256(api_key.encode()).hexdigest())]
    tenants.close()
    # Nowhere in the registry's files (nor the tenant's) is the key itself.
    assert api_key.encode() not in _all_bytes(tenants.home)
    # A listing never carries the key.
    assert api_key not in repr(info)


def test_registry_is_encrypted_and_needs_the_server_key(tmp_path: Path) -> None:
    home = tmp_path / "server"
    with Tenants.open(home, SERVER_KEY) as opened:
        opened.create("alice")
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(home / REGISTRY_NAME).execute("SELECT * FROM tokens").fetchall()
    with pytest.raises(WrongPassphrase, match="server key does not open the registry"):
        Tenants.open(home, "f" * 64)


def test_a_short_or_missing_server_key_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMVAULT_SERVER_KEY", raising=False)
    monkeypatch.delenv("MEMVAULT_SERVER_KEY_FILE", raising=False)
    with pytest.raises(InvalidInput, match="no server key") as missing:
        Tenants.open(tmp_path / "server")
    assert missing.value.field == "server_key" and missing.value.exit_code == 2
    with pytest.raises(InvalidInput, match="at least 32 characters"):
        Tenants.open(tmp_path / "server", "short")
    assert not (tmp_path / "server").exists()


def test_server_key_from_a_key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key_file = tmp_path / "server.key"
    key_file.write_text(SERVER_KEY + "\n")
    monkeypatch.setenv("MEMVAULT_SERVER_KEY_FILE", str(key_file))
    with Tenants.open(tmp_path / "server") as opened:
        _, api_key = opened.create("alice")
    with Tenants.open(tmp_path / "server", SERVER_KEY) as again:
        assert again.authenticate(api_key).tenant == "alice"


def test_server_home_files_are_owner_only(tenants: Tenants) -> None:
    tenants.create("alice")
    assert stat.S_IMODE(tenants.home.stat().st_mode) == 0o700
    for path in tenants.home.rglob("*"):
        if path.is_file():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


# -- authenticate ---------------------------------------------------------------------------


def test_authenticate_a_good_key_gives_its_tenant_identity_and_scopes(tenants: Tenants) -> None:
    info, api_key = tenants.create("alice")
    principal = tenants.authenticate(api_key)
    assert principal == Principal("alice", "owner", frozenset(SCOPES), info.tokens[0].id)


@pytest.mark.parametrize("given", ["", "mvk_unknown", "Bearer x"])
def test_authenticate_an_unknown_or_missing_key_is_401(tenants: Tenants, given: str) -> None:
    tenants.create("alice")
    with pytest.raises(Unauthenticated) as refused:
        tenants.authenticate(given)
    assert refused.value.http_status == 401


def test_authenticate_a_revoked_key_is_401_naming_the_token(tenants: Tenants) -> None:
    info, api_key = tenants.create("alice")
    token_id = info.tokens[0].id
    revoked = tenants.revoke(token_id)
    assert revoked.revoked_at is not None and not revoked.active
    with pytest.raises(Unauthenticated, match=f"token {token_id} was revoked"):
        tenants.authenticate(api_key)
    with pytest.raises(NotFound, match="revoked"):
        tenants.revoke(token_id)
    with pytest.raises(NotFound, match="revoked"):
        tenants.rotate(token_id)


def test_rotate_replaces_the_key_keeping_the_token(tenants: Tenants) -> None:
    info, old_key = tenants.create("alice", scopes=["memories:read"])
    token_id = info.tokens[0].id
    new_key = tenants.rotate(token_id)
    assert new_key != old_key
    with pytest.raises(Unauthenticated):
        tenants.authenticate(old_key)
    principal = tenants.authenticate(new_key)
    assert (principal.token_id, principal.scopes) == (token_id, frozenset({"memories:read"}))
    assert tenants.tokens("alice")[0].rotated_at is not None


def test_revoke_or_rotate_an_unknown_token_is_not_found(tenants: Tenants) -> None:
    with pytest.raises(NotFound, match="no token 'tok_nope'"):
        tenants.revoke("tok_nope")
    with pytest.raises(NotFound):
        tenants.rotate("tok_nope")


# -- scopes and identities --------------------------------------------------------------------


def test_principal_require_refuses_a_scope_the_token_lacks(tenants: Tenants) -> None:
    _, api_key = tenants.create("alice", scopes=["memories:read", "bundle:export"])
    principal = tenants.authenticate(api_key)
    assert principal.require("memories:read") is principal
    with pytest.raises(ScopeMissing, match="lacks the scope 'memories:write'") as refused:
        principal.require("memories:write")
    assert refused.value.http_status == 403 and refused.value.scope == "memories:write"


def test_unknown_scopes_and_empty_scopes_are_refused(tenants: Tenants) -> None:
    with pytest.raises(InvalidInput, match="unknown scope 'memories:delete'"):
        tenants.create("alice", scopes=["memories:delete"])
    with pytest.raises(InvalidInput, match="at least one scope"):
        tenants.create("alice", scopes=[])
    assert tenants.list() == []


def test_pam_9_an_agent_token_cannot_carry_erase_or_admin(tenants: Tenants) -> None:
    tenants.create("alice")
    with pytest.raises(InvalidInput, match="erasure and administration are the owner's"):
        tenants.issue("alice", identity="agent-x", scopes=["memories:read", "erase"])
    token, _ = tenants.issue("alice", identity="agent-x")
    assert set(token.scopes) == {
        "bundle:export",
        "bundle:import",
        "memories:read",
        "memories:write",
    }


@pytest.mark.parametrize("identity", ["user", "system", "system:decay", "", "has space", "-x"])
def test_pam_9_reserved_or_malformed_identities_are_refused(
    tenants: Tenants, identity: str
) -> None:
    """ "user" is the vault's owner and "system…" its background work: an agent so named would
    act with the owner's rights."""
    tenants.create("alice")
    with pytest.raises(InvalidInput) as refused:
        tenants.issue("alice", identity=identity)
    assert refused.value.field == "identity"


@pytest.mark.parametrize("name", ["Alice", "", "a b", "../x", "x" * 64])
def test_bad_tenant_names_are_refused(tenants: Tenants, name: str) -> None:
    with pytest.raises(InvalidInput, match="tenant name"):
        tenants.create(name)
    assert not (tenants.home / "vaults").exists() or not any((tenants.home / "vaults").iterdir())


def test_a_tenant_name_is_created_once(tenants: Tenants) -> None:
    tenants.create("alice")
    with pytest.raises(VaultExists, match="tenant 'alice' already exists"):
        tenants.create("alice")
    assert len(tenants.list()) == 1
    assert len(list((tenants.home / "vaults").iterdir())) == 1


# -- sessions -------------------------------------------------------------------------------


def test_pam_9_an_agent_session_is_refused_what_the_agent_may_not_do(tenants: Tenants) -> None:
    _, owner_key = tenants.create("alice")
    _, agent_key = tenants.issue("alice", identity="agent-x")
    owner = tenants.session(tenants.authenticate(owner_key))
    private = owner.add("Private note of the owner", "fact").memory
    shared = owner.add(
        "Shared with agent-x", "fact", visibility="shared", shared_with=[("agent-x", ["read"])]
    ).memory
    agent = tenants.session(tenants.authenticate(agent_key))
    assert agent.actor == "agent-x"
    assert [m.id for m in agent.list().items] == [shared.id]
    with pytest.raises(AccessDenied):
        agent.get(private.id)
    with pytest.raises(AccessDenied):
        agent.erase(shared.id)
    with pytest.raises(AccessDenied):
        agent.stats()
    with pytest.raises(AccessDenied):
        agent.grant(private.id, "agent-x", "read")


def test_session_of_the_owner_is_the_owners_and_shared(tenants: Tenants) -> None:
    _, api_key = tenants.create("alice")
    principal = tenants.authenticate(api_key)
    first = tenants.session(principal)
    assert first.actor == "user"
    assert tenants.session(principal) is first


def test_two_tenants_are_isolated(tenants: Tenants) -> None:
    alice_info, alice_key = tenants.create("alice")
    bob_info, bob_key = tenants.create("bob")
    alice = tenants.session(tenants.authenticate(alice_key))
    bob = tenants.session(tenants.authenticate(bob_key))
    kept = alice.add(SECRET, "fact").memory
    assert alice.owner.id == alice_info.owner_id != bob.owner.id == bob_info.owner_id
    assert bob.list().items == []
    with pytest.raises(NotFound):
        bob.get(kept.id)
    # Each vault is its own file, with its own key.
    alice_db = tenants.home / "vaults" / alice_info.owner_id / "vault.db"
    bob_db = tenants.home / "vaults" / bob_info.owner_id / "vault.db"
    assert alice_db.is_file() and bob_db.is_file()
    # A principal is its token's: bob's key gives bob's tenant, whatever else is asked.
    assert tenants.authenticate(bob_key).tenant == "bob"


def test_tenant_vault_key_does_not_open_another_tenants_vault(tenants: Tenants) -> None:
    """Each tenant's vault key is wrapped with its owner id as associated data: moved to
    another tenant's row, it does not decrypt."""
    alice, _ = tenants.create("alice")
    bob, _ = tenants.create("bob")
    assert tenants._key is not None and tenants._registry is not None
    wrapped = tenants._registry.get_tenant("alice")
    assert wrapped is not None
    with pytest.raises(Exception, match="does not decrypt"):
        tenants._key.unwrap(wrapped.wrapped_key, bob.owner_id)
    assert len(tenants._key.unwrap(wrapped.wrapped_key, alice.owner_id)) >= 43


def test_session_opens_each_vault_once_from_many_threads(tmp_path: Path) -> None:
    with Tenants.open(tmp_path / "server", SERVER_KEY) as setup:
        keys = [setup.create(name)[1] for name in ("alice", "bob")]
    with Tenants.open(tmp_path / "server", SERVER_KEY) as tenants:
        principals = [tenants.authenticate(k) for k in keys]
        seen: list[tuple[str, int]] = []
        errors: list[BaseException] = []
        barrier = threading.Barrier(16)

        def work(i: int) -> None:
            try:
                principal = principals[i % 2]
                barrier.wait()
                vault = tenants.session(principal)
                vault.add(f"memory {i} of {principal.tenant}", "fact")
                seen.append((principal.tenant, id(vault)))
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        assert len({v for t, v in seen if t == "alice"}) == 1
        assert len({v for t, v in seen if t == "bob"}) == 1
        for principal in principals:
            assert tenants.session(principal).list().total == 8


# -- erasure --------------------------------------------------------------------------------


def test_aimem_5_2_tenant_erasure_leaves_no_file_and_revokes_its_tokens(
    tenants: Tenants,
) -> None:
    info, api_key = tenants.create("alice")
    _, agent_key = tenants.issue("alice", identity="agent-x")
    _, bob_key = tenants.create("bob")
    vault = tenants.session(tenants.authenticate(api_key))
    for i in range(3):
        vault.add(f"{SECRET} #{i}", "fact")
    principal = tenants.authenticate(api_key)
    report = tenants.erase("alice", actor="token:" + principal.token_id)
    assert (report.memories, report.tokens_revoked) == (3, 2)
    assert report.files_removed >= 2
    assert not (tenants.home / "vaults" / info.owner_id).exists()
    for key in (api_key, agent_key):
        with pytest.raises(Unauthenticated, match="revoked"):
            tenants.authenticate(key)
    with pytest.raises(Unauthenticated, match="does not exist"):
        tenants.session(principal)
    assert [t.name for t in tenants.list()] == ["bob"]
    # The other tenant is untouched.
    assert tenants.session(tenants.authenticate(bob_key)).list().total == 0
    with pytest.raises(NotFound):
        tenants.erase("alice")


def test_aimem_5_2_erasure_is_audited_with_counts_never_content(tenants: Tenants) -> None:
    info, api_key = tenants.create("alice")
    tenants.session(tenants.authenticate(api_key)).add(SECRET, "fact")
    tenants.erase("alice", actor="operator")
    report = tenants.verify_audit()
    assert report.ok, report.problems
    entries = tenants.audit_entries()
    assert [e.action for e in entries] == ["tenant.create", "token.issue", "tenant.erase"]
    erased = entries[-1]
    assert erased.actor == "operator" and erased.at
    assert erased.details == {
        "tenant": "alice",
        "owner_id": info.owner_id,
        "memories": 1,
        "conversations": 0,
        "tokens_revoked": 1,
    }
    tenants.close()
    # Neither the secret nor the key is anywhere in the server home's files.
    everything = _all_bytes(tenants.home)
    assert b"penicillin" not in everything and api_key.encode() not in everything
    # The wrapped vault key is gone from the registry (crypto-shredding).
    assert _registry_rows(tenants.home, "SELECT count(*) FROM tenants") == [(0,)]


def test_server_audit_log_detects_an_edited_entry(tenants: Tenants) -> None:
    tenants.create("alice")
    tenants.create("bob")
    assert tenants._registry is not None
    with tenants._registry.transaction():
        tenants._registry._conn.execute(
            'UPDATE audit SET details = \'{"tenant":"mallory"}\' WHERE seq = 3'
        )
    report = tenants.verify_audit()
    assert not report.ok
    assert any("entry 3 was altered" in p for p in report.problems)


# -- a personal vault -----------------------------------------------------------------------


@pytest.fixture
def personal_home(tmp_path: Path) -> Path:
    from vaultkit import make_vault

    home = tmp_path / "vault"
    make_vault(home).close()
    return home


def test_personal_vault_makes_a_local_token_owner_only(personal_home: Path) -> None:
    from vaultkit import PASSPHRASE

    with Tenants.personal(personal_home, PASSPHRASE) as tenants:
        token = tenants.local_token()
        path = personal_home / "local-token"
        assert path.read_text().strip() == token
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        principal = tenants.authenticate(token)
        vault = tenants.session(principal)
        assert principal.identity == "owner" and principal.scopes == frozenset(SCOPES)
        assert principal.tenant == vault.owner.id and vault.actor == "user"
        assert tenants.local_token() == token  # the same on every use
        with pytest.raises(Unauthenticated):
            tenants.authenticate("mvk_" + "x" * 43)
    with Tenants.personal(personal_home, PASSPHRASE) as again:
        assert again.local_token() == token


def test_personal_vault_rotate_and_revoke_the_local_token(personal_home: Path) -> None:
    from vaultkit import PASSPHRASE

    with Tenants.personal(personal_home, PASSPHRASE) as tenants:
        old = tenants.local_token()
        new = tenants.rotate("local")
        with pytest.raises(Unauthenticated):
            tenants.authenticate(old)
        assert tenants.authenticate(new).token_id == "local"
        assert tenants.revoke("local").revoked_at is not None
        with pytest.raises(Unauthenticated):
            tenants.authenticate(new)
        assert tenants.tokens() == []


def test_personal_vault_has_no_other_tenants(personal_home: Path) -> None:
    from vaultkit import PASSPHRASE

    with Tenants.personal(personal_home, PASSPHRASE) as tenants:
        with pytest.raises(InvalidInput, match="personal vault"):
            tenants.create("bob")
        with pytest.raises(InvalidInput, match="personal vault"):
            tenants.erase("bob")
        [only] = tenants.list()
        assert only.tokens[0].id == "local"


def test_aimem_5_2_an_erasure_by_another_process_closes_the_vault_a_server_holds(
    tmp_path: Path,
) -> None:
    """The command line erases a tenant beside a running server: the server's open vault is
    closed at the tenant's next request, which is refused."""
    home = tmp_path / "server"
    with Tenants.open(home, SERVER_KEY) as server:
        info, api_key = server.create("alice")
        principal = server.authenticate(api_key)
        server.session(principal).add(SECRET, "fact")
        with Tenants.open(home, SERVER_KEY) as command_line:
            command_line.erase("alice")
        with pytest.raises(Unauthenticated):
            server.authenticate(api_key)
        with pytest.raises(Unauthenticated, match="does not exist"):
            server.session(principal)
        assert "alice" not in server._vaults
    assert not (home / "vaults" / info.owner_id).exists()


def test_an_interrupted_erasures_leftover_directory_is_removed_on_open(tmp_path: Path) -> None:
    """A vault directory no tenant names (its key already deleted) is removed when the home is
    next opened — once it is old enough not to be a tenant being created."""
    import os

    home = tmp_path / "server"
    with Tenants.open(home, SERVER_KEY) as tenants:
        kept, _ = tenants.create("alice")
    old = home / "vaults" / "leftover-old"
    fresh = home / "vaults" / "leftover-fresh"
    for directory in (old, fresh):
        directory.mkdir()
        (directory / "vault.db").write_bytes(b"ciphertext" * 100)
    os.utime(old, (0, 0))
    with Tenants.open(home, SERVER_KEY):
        pass
    assert not old.exists() and fresh.exists()
    assert (home / "vaults" / kept.owner_id / "vault.db").is_file()


def test_personal_vault_says_where_its_local_token_is(tmp_path: Path, personal_home: Path) -> None:
    from vaultkit import PASSPHRASE

    with Tenants.personal(personal_home, PASSPHRASE) as tenants:
        assert tenants.local_token_path == personal_home / "local-token"
    with Tenants.open(tmp_path / "server", SERVER_KEY) as server:
        assert server.local_token_path is None
        with pytest.raises(InvalidInput, match="no local token"):
            server.local_token()


def test_aimem_5_2_tenant_erasure_overwrites_the_vault_file_in_place(tenants: Tenants) -> None:
    """The database's blocks are overwritten before the file is removed: a second link to the
    same file, made before the erasure, reads only zeros afterwards."""
    info, api_key = tenants.create("alice")
    vault = tenants.session(tenants.authenticate(api_key))
    for i in range(50):
        vault.add(f"{SECRET} #{i}", "fact")
    database = tenants.home / "vaults" / info.owner_id / "vault.db"
    witness = tenants.home.parent / "witness.db"
    witness.hardlink_to(database)
    size = witness.stat().st_size
    assert size > 0 and witness.read_bytes().count(0) < size
    tenants.erase("alice")
    assert not database.exists()
    assert witness.read_bytes() == bytes(witness.stat().st_size)
    assert witness.stat().st_size >= size


def test_aimem_5_2_a_tenant_whose_vault_files_are_gone_is_still_erased(
    tenants: Tenants,
) -> None:
    """An erasure interrupted after the files went (or a damaged vault) does not keep the
    tenant: erasing again revokes its tokens and deletes its key, counting nothing."""
    info, api_key = tenants.create("alice")
    tenants.close()
    for path in (tenants.home / "vaults" / info.owner_id).iterdir():
        path.write_bytes(b"\0" * 4096)
    with Tenants.open(tenants.home, SERVER_KEY) as again:
        report = again.erase("alice")
        assert (report.memories, report.conversations, report.tokens_revoked) == (0, 0, 1)
        with pytest.raises(Unauthenticated):
            again.authenticate(api_key)
        assert again.verify_audit().ok
    assert not (tenants.home / "vaults" / info.owner_id).exists()
