"""`memvault tenants …`, `memvault token` and `memvault erase --tenant` (issue #18.2, #18.3):
JSON results, the key printed once, usage errors with exit 2, erasure confirmed."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

import pytest

from clikit import mv, ok, refused
from memvault.tenancy import Tenants
from vaultkit import make_vault

SERVER_KEY = "fedcba9876543210" * 4


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A server home in $MEMVAULT_SERVER_HOME, the server key in $MEMVAULT_SERVER_KEY."""
    home = tmp_path / "server"
    monkeypatch.setenv("MEMVAULT_SERVER_HOME", str(home))
    monkeypatch.setenv("MEMVAULT_SERVER_KEY", SERVER_KEY)
    monkeypatch.delenv("MEMVAULT_SERVER_KEY_FILE", raising=False)
    return home


def test_tenants_create_json_prints_the_key_once(server: Path) -> None:
    created = ok("tenants", "create", "alice", "--json").json()
    assert created["tenant"] == "alice" and created["identity"] == "owner"
    assert created["api_key"].startswith("mvk_")
    assert set(created["scopes"]) == {
        "bundle:export",
        "bundle:import",
        "memories:read",
        "memories:write",
        "erase",
        "admin",
    }
    listed = ok("tenants", "list", "--json").json()
    assert created["api_key"] not in str(listed)
    assert hashlib.sha256(created["api_key"].encode()).hexdigest() not in str(listed)
    [tenant] = listed["tenants"]
    assert tenant["name"] == "alice"
    assert [t["id"] for t in tenant["tokens"]] == [created["token_id"]]
    with Tenants.open(server, SERVER_KEY) as tenants:
        assert tenants.authenticate(created["api_key"]).tenant == "alice"


def test_tenants_create_as_agent_with_scopes(server: Path) -> None:
    created = ok(
        "tenants", "create", "alice", "--as-agent", "agent-x", "--scope", "memories:read", "--json"
    ).json()
    assert (created["identity"], created["scopes"]) == ("agent-x", ["memories:read"])


def test_tenants_create_prints_the_key_in_text_too(server: Path) -> None:
    run = ok("tenants", "create", "alice")
    key = run.stdout.strip().splitlines()[-1]
    assert key.startswith("mvk_") and "shown this once" in run.stdout
    with Tenants.open(server, SERVER_KEY) as tenants:
        assert tenants.authenticate(key).identity == "owner"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tenants", "create", "Alice"), "tenant name"),
        (("tenants", "create", "alice", "--scope", "nope"), "unknown scope"),
        (("tenants", "create", "alice", "--as-agent", "user"), "reserved"),
        (("tenants", "create", "alice", "--as-agent", "x", "--scope", "erase"), "owner's"),
    ],
)
def test_tenants_bad_values_are_usage_errors(
    server: Path, args: tuple[str, ...], message: str
) -> None:
    assert message in refused(*args, code=2)
    assert ok("tenants", "list", "--json").json() == {"tenants": []}


def test_tenants_without_a_server_key_is_a_usage_error(
    server: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMVAULT_SERVER_KEY")
    assert "no server key" in refused("tenants", "list", code=2)


def test_tenants_server_key_file_option(server: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_SERVER_KEY")
    key_file = server.parent / "server.key"
    key_file.write_text(SERVER_KEY + "\n")
    ok("tenants", "create", "alice", "--server-key-file", key_file)
    listed = ok("tenants", "list", "--server-key-file", key_file, "--json").json()
    assert [t["name"] for t in listed["tenants"]] == ["alice"]


def test_tenants_create_twice_is_refused(server: Path) -> None:
    ok("tenants", "create", "alice")
    assert "already exists" in refused("tenants", "create", "alice", code=1)


def test_tenants_issue_revoke_rotate_json(server: Path) -> None:
    ok("tenants", "create", "alice")
    issued = ok("tenants", "issue", "alice", "--as-agent", "agent-x", "--json").json()
    rotated = ok("tenants", "rotate", issued["token_id"], "--json").json()
    assert rotated["token_id"] == issued["token_id"] and rotated["api_key"] != issued["api_key"]
    with Tenants.open(server, SERVER_KEY) as tenants:
        assert tenants.authenticate(rotated["api_key"]).identity == "agent-x"
    revoked = ok("tenants", "revoke", issued["token_id"], "--json").json()
    assert revoked["id"] == issued["token_id"] and revoked["active"] is False
    assert revoked["revoked_at"]
    assert "revoked" in refused("tenants", "revoke", issued["token_id"])
    assert "no token" in refused("tenants", "rotate", "tok_nope")
    assert "no tenant" in refused("tenants", "issue", "bob")


def test_erase_tenant_json_after_yes(server: Path) -> None:
    created = ok("tenants", "create", "alice", "--json").json()
    ok("tenants", "create", "bob")
    with Tenants.open(server, SERVER_KEY) as tenants:
        vault = tenants.session(tenants.authenticate(created["api_key"]))
        vault.add("Alice keeps her diary in the blue drawer", "fact")
    erased = ok("erase", "--tenant", "alice", "--yes", "--json").json()
    assert erased["tenant"] == "alice" and erased["memories"] == 1
    assert erased["tokens_revoked"] == 1 and erased["actor"] == "operator"
    assert not (server / "vaults" / erased["owner_id"]).exists()
    listed = ok("tenants", "list", "--json").json()
    assert [t["name"] for t in listed["tenants"]] == ["bob"]
    everything = b"".join(p.read_bytes() for p in server.rglob("*") if p.is_file())
    assert b"blue drawer" not in everything
    with Tenants.open(server, SERVER_KEY) as tenants:
        assert tenants.verify_audit().ok


def test_erase_tenant_needs_confirmation(server: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ok("tenants", "create", "alice")
    assert "--yes" in refused("erase", "--tenant", "alice", code=2)
    monkeypatch.setattr("memvault.local.interactive", lambda: True)  # a terminal
    run = mv("erase", "--tenant", "alice", input="n\n")
    assert run.exit_code == 1 and "not confirmed; nothing was erased" in run.stderr
    assert "Erase tenant alice" in run.stderr
    assert [t["name"] for t in ok("tenants", "list", "--json").json()["tenants"]] == ["alice"]
    ok("erase", "--tenant", "alice", input="y\n")
    assert ok("tenants", "list", "--json").json() == {"tenants": []}


def test_erase_needs_ids_or_a_tenant_not_both(server: Path) -> None:
    assert "one of the three" in refused("erase", code=2)
    assert "one of the three" in refused("erase", "abc", "--tenant", "alice", code=2)


def test_erase_unknown_tenant_is_refused(server: Path) -> None:
    assert "no tenant 'nobody'" in refused("erase", "--tenant", "nobody", "--yes")


def test_token_prints_the_local_token_of_a_personal_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "vault"
    make_vault(home).close()
    monkeypatch.setenv("MEMVAULT_HOME", str(home))
    shown = ok("token", "--json").json()
    assert shown["path"] == str(home / "local-token")
    assert stat.S_IMODE((home / "local-token").stat().st_mode) == 0o600
    assert ok("token").stdout.strip() == shown["token"]  # made once, then the same


def test_token_without_a_vault_is_refused(tmp_path: Path) -> None:
    assert "no vault" in refused("token", "--home", tmp_path / "none")
    assert not (tmp_path / "none").exists()


def test_token_loads_neither_the_vault_nor_the_server_cryptography(tmp_path: Path) -> None:
    """`memvault token` reads or writes one file: it starts without SQLCipher, the vault or
    the key-wrapping cryptography."""
    import os
    import subprocess
    import sys

    home = tmp_path / "vault"
    make_vault(home).close()
    script = (
        "import sys\n"
        f"sys.argv = ['memvault', 'token', '--home', {str(home)!r}]\n"
        "from memvault.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.stdout.strip() == (home / "local-token").read_text().strip()
    loaded = set(run.stderr.split())
    assert "memvault.cli.tenants" in loaded
    for heavy in ("memvault.vault", "sqlcipher3", "cryptography", "memvault.tenancy.tenants"):
        assert heavy not in loaded, heavy
