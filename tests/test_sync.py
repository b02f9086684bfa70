"""`memvault.sync` between a vault file and a real `memvault serve` (uvicorn on 127.0.0.1)
whose tenant is a vault file: pushes, pulls, both, the conflict rules (reinforce, the newer
copy, `contradicts`), a second run that changes nothing, an agent's token, a bad token and an
unreachable server (PAM §16 incremental exports, §13 relations, §9 access)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memvault.model import Confidence, Memory
from memvault.store.base import MemoryQuery
from memvault.sync import HttpRemote, RemoteRefused, RemoteUnreachable, SyncResult, sync
from memvault.vault import Vault
from serverkit import BACKENDS, Home, app_for, client, free_port, running, server_home
from vaultkit import make_vault


@dataclass
class Pair:
    local: Vault
    remote: Vault  # the server's vault of tenant "alice", the same object the server uses
    url: str
    key: str
    home: Home

    def sync(self, key: str | None = None) -> SyncResult:
        with HttpRemote(self.url, key or self.key) as remote:
            return sync(self.local, remote)


@pytest.fixture(params=BACKENDS)
def pair(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Pair]:
    """A laptop vault file and a server on each backend (SQLite files, PostgreSQL 15,
    pgvector)."""
    with server_home(tmp_path / "server", ("alice",), request.param) as home:
        key = home.key("alice")
        remote = home.tenants.session(home.tenants.authenticate(key))
        local = make_vault(tmp_path / "laptop")
        try:
            with running(app_for(home)) as url:
                yield Pair(local, remote, url, key, home)
        finally:
            local.close()


def contents(vault: Vault, *, statuses: tuple[str, ...] | None = ("active",)) -> set[str]:
    query = MemoryQuery(statuses=statuses, limit=None)
    return {m.content for m in vault.iter_memories(query)}


def by_content(vault: Vault, content: str) -> Memory:
    found = [m for m in vault.iter_memories(MemoryQuery(statuses=None, limit=None))]
    matches = [m for m in found if m.content == content]
    assert len(matches) == 1, (content, [m.content for m in found])
    return matches[0]


def test_first_sync_pushes_local_and_pulls_remote_memories(pair: Pair) -> None:
    """PAM §16: the first sync exchanges full exports; both vaults end with both memories."""
    pair.local.add("User lives in Lisbon", "fact")
    pair.remote.add("User prefers green tea", "preference")
    result = pair.sync()
    assert result.first and result.pulled == 1 and result.pushed == 1
    both = {"User lives in Lisbon", "User prefers green tea"}
    assert contents(pair.local) == both and contents(pair.remote) == both
    local_ids = {m.id for m in pair.local.iter_memories(MemoryQuery(limit=None))}
    assert local_ids == {m.id for m in pair.remote.iter_memories(MemoryQuery(limit=None))}


def test_push_only_sends_what_changed_here(pair: Pair) -> None:
    """PAM §16: nothing changed on the server, so the pull brings nothing and the push the new
    memory."""
    pair.sync()
    pair.local.add("User works as a nurse", "fact")
    result = pair.sync()
    assert (result.pulled, result.pushed, result.received, result.sent) == (0, 1, 0, 1)
    assert contents(pair.remote) == {"User works as a nurse"}


def test_pull_only_brings_what_changed_on_the_server(pair: Pair) -> None:
    pair.sync()
    pair.remote.add("User prefers green tea", "preference")
    result = pair.sync()
    assert result.pulled == 1 and result.pushed == 0
    assert contents(pair.local) == {"User prefers green tea"}


def test_second_sync_changes_nothing(pair: Pair) -> None:
    """Running it twice changes nothing: 0 pushed, 0 pulled, 0 changed, and the third run sends
    and receives no memory at all."""
    pair.local.add("User lives in Lisbon", "fact")
    pair.remote.add("User prefers green tea", "preference")
    pair.sync()
    time.sleep(1.1)  # cursors are whole seconds, and "since" includes its second
    second = pair.sync()
    assert (second.pushed, second.pulled, second.changed) == (0, 0, 0), second.to_json()
    assert not second.first and second.conflicts == []
    time.sleep(1.1)  # cursors are whole seconds, and "since" includes its second
    third = pair.sync()
    assert (third.pushed, third.pulled, third.changed, third.sent) == (0, 0, 0, 0)
    assert third.received == 0, third.to_json()


def test_later_changes_travel_as_incremental_exports(pair: Pair) -> None:
    """PAM §16.1/§16.3: after the first sync each side sends a delta; a memory changed on one
    side only takes that side's copy on the other."""
    tea = pair.remote.add("User prefers green tea", "preference").memory
    pair.sync()
    pair.local.add("User works as a nurse", "fact")
    pair.remote.update(tea.id, content="User prefers black tea")
    result = pair.sync()
    assert result.pull["export_type"] == "incremental" and result.push["export_type"] == (
        "incremental"
    )
    assert (result.pulled, result.pushed) == (1, 1) and result.conflicts == []
    expected = {"User prefers black tea", "User works as a nurse"}
    assert contents(pair.local) == expected and contents(pair.remote) == expected
    assert pair.local.get(tea.id).content == "User prefers black tea"


def test_same_content_on_both_sides_reinforces_one_memory(pair: Pair) -> None:
    """PAM §6: the same statement made on both sides becomes one memory, reinforced."""
    pair.local.add("User is vegetarian", "fact")
    pair.remote.add("User is vegetarian", "fact")
    result = pair.sync()
    assert result.pull["reinforced"] == 1 and result.conflicts == []
    assert len(list(pair.local.iter_memories(MemoryQuery(limit=None)))) == 1
    assert len(list(pair.remote.iter_memories(MemoryQuery(limit=None)))) == 1
    confidence = by_content(pair.local, "User is vegetarian").confidence
    assert isinstance(confidence, Confidence) and confidence.last_reinforced is not None


def test_a_supersession_made_locally_reaches_the_remote(pair: Pair) -> None:
    """Newer statements supersede (PAM §7, §13): the old memory superseded, the new active, the
    `supersedes` relation — on the remote too."""
    old = pair.local.add("User lives in Berlin", "fact").memory
    pair.sync()
    new = pair.local.add("User lives in Lisbon", "fact").memory
    pair.local.supersede(old.id, new.id)
    result = pair.sync()
    assert result.pushed == 2, result.to_json()
    moved = pair.remote.get(old.id)
    assert moved.status == "superseded" and moved.temporal.superseded_by == new.id
    assert [(r.type, r.to) for r in pair.remote.relations(new.id)] == [("supersedes", old.id)]
    assert contents(pair.remote) == {"User lives in Lisbon"}


def test_an_older_copy_never_overwrites_a_newer_one(pair: Pair) -> None:
    """A memory changed on both sides, not in its content: the later change wins on both."""
    memory = pair.local.add("User likes jazz", "preference").memory
    pair.sync()
    pair.remote.update(memory.id, add_tags=["remote"], now=datetime.now(UTC))
    pair.local.update(memory.id, add_tags=["local"], now=datetime.now(UTC) + timedelta(hours=1))
    result = pair.sync()
    assert result.conflicts == []
    assert pair.local.get(memory.id).tags == ("local",)
    assert pair.remote.get(memory.id).tags == ("local",)


@pytest.mark.parametrize("newer", ["remote", "local"])
def test_content_changed_on_both_sides_is_recorded_as_contradicts(pair: Pair, newer: str) -> None:
    """A true conflict (PAM §13 `contradicts`): the newer statement keeps the id on both sides,
    the other lives on as its own active memory, related by `contradicts`, and reported."""
    memory = pair.local.add("User drinks coffee", "preference").memory
    pair.sync()
    now = datetime.now(UTC)
    local_at, remote_at = (now, now + timedelta(hours=1))
    if newer == "local":
        local_at, remote_at = remote_at, local_at
    pair.local.update(memory.id, content="User drinks tea", now=local_at)
    pair.remote.update(memory.id, content="User drinks mate", now=remote_at)
    result = pair.sync()
    kept, other = (
        ("User drinks mate", "User drinks tea")
        if newer == "remote"
        else ("User drinks tea", "User drinks mate")
    )
    assert [(c.memory_id, c.kept, c.other, c.winner) for c in result.conflicts] == [
        (memory.id, kept, other, newer)
    ]
    other_id = result.conflicts[0].other_id
    for vault in (pair.local, pair.remote):
        assert vault.get(memory.id).content == kept
        assert vault.get(other_id).content == other and vault.get(other_id).status == "active"
        assert [(r.type, r.to) for r in vault.relations(memory.id)] == [("contradicts", other_id)]
    time.sleep(1.1)
    again = pair.sync()
    assert (again.pushed, again.pulled, again.changed, again.conflicts) == (0, 0, 0, [])


def test_a_retraction_propagates_and_is_kept(pair: Pair) -> None:
    """PAM §16.3: a retracted memory in a delta is marked retracted, never deleted."""
    memory = pair.remote.add("User owns a cat", "fact").memory
    pair.sync()
    pair.local.retract(memory.id)
    pair.sync()
    assert pair.remote.get(memory.id).status == "retracted"


def test_an_agent_token_syncs_only_what_the_agent_may_read(pair: Pair) -> None:
    """PAM §9: an agent's token pulls what it may read and pushes only what it may read here
    (and the remote takes only what it may write)."""
    shared = pair.remote.add(
        "User speaks Portuguese",
        "fact",
        visibility="shared",
        shared_with=[("agent-x", ["read", "write"])],
    ).memory
    pair.remote.add("User's bank is Acme", "fact")  # private: not the agent's
    pair.local.add("User's passport number is X123", "fact")  # private here
    key = pair.home.agent("alice", "agent-x", "bundle:export", "bundle:import")
    result = pair.sync(key)
    assert result.identity == "agent-x" and result.pulled == 1
    assert contents(pair.local) == {"User speaks Portuguese", "User's passport number is X123"}
    assert "User's passport number is X123" not in contents(pair.remote)
    pair.local.update(shared.id, add_tags=["language"], now=datetime.now(UTC) + timedelta(hours=1))
    result = pair.sync(key)
    assert result.pushed == 1
    assert pair.remote.get(shared.id).tags == ("language",)


def test_a_bad_token_is_refused_401_and_the_vault_is_unchanged(pair: Pair) -> None:
    pair.remote.add("User prefers green tea", "preference")
    before = pair.local.audit_position()
    with pytest.raises(RemoteRefused) as refused:
        pair.sync("mvk_not-a-key")
    assert refused.value.status == 401 and "refused the token (401)" in str(refused.value)
    assert pair.local.audit_position() == before
    assert contents(pair.local) == set()


def test_an_unreachable_server_is_a_clear_error_and_the_vault_is_unchanged(
    tmp_path: Path,
) -> None:
    vault = make_vault(tmp_path / "laptop")
    try:
        vault.add("User lives in Lisbon", "fact")
        before = vault.audit_position()
        url = f"http://127.0.0.1:{free_port()}"
        with HttpRemote(url, "mvk_x", timeout=5) as remote, pytest.raises(RemoteUnreachable) as e:
            sync(vault, remote)
        assert str(e.value).startswith(f"cannot reach {url}")
        assert vault.audit_position() == before
    finally:
        vault.close()


def test_sync_endpoint_names_the_tenant_identity_and_scopes_of_the_token(tmp_path: Path) -> None:
    """`GET /v1/sync`: who a key acts as (PAM §9), and the 401 problem for a bad key."""
    with server_home(tmp_path / "server", ("alice",)) as home:
        app = app_for(home)
        owner = client(app, home.key("alice")).get("/v1/sync")
        assert owner.status_code == 200 and owner.json()["identity"] == "owner"
        assert owner.json()["tenant"] == "alice" and "bundle:export" in owner.json()["scopes"]
        agent_key = home.agent("alice", "agent-x", "bundle:export")
        agent = client(app, agent_key).get("/v1/sync").json()
        assert agent == {"tenant": "alice", "identity": "agent-x", "scopes": ["bundle:export"]}
        bad = client(app, "mvk_nope").get("/v1/sync")
        assert bad.status_code == 401
        assert bad.headers["content-type"].startswith("application/problem+json")


def test_erasures_travel_both_ways_beside_the_exports(pair: Pair) -> None:
    """AIMEM §5.2: a PAM export carries no deletions, so the sync erases on the other side what
    was erased on one since the last sync (the owner's audit log: ids, never content)."""
    here = pair.local.add("User's old phone number is 555-0100", "fact").memory
    there = pair.remote.add("User's old address is Rua A, 1", "fact").memory
    kept = pair.local.add("User likes jazz", "preference").memory
    pair.sync()
    pair.local.erase(here.id)
    pair.remote.erase(there.id)
    result = pair.sync()
    assert (result.erased_here, result.erased_there) == ([there.id], [here.id])
    for vault in (pair.local, pair.remote):
        assert contents(vault) == {"User likes jazz"}
        assert vault.get(kept.id).content == "User likes jazz"
    time.sleep(1.1)
    again = pair.sync()
    assert (again.erased_here, again.erased_there, again.changed) == ([], [], 0)


def test_a_key_without_the_erase_scope_syncs_and_says_erasures_were_not_pushed(
    pair: Pair,
) -> None:
    memory = pair.local.add("User's old phone number is 555-0100", "fact").memory
    key = pair.home.scoped("alice", "bundle:export", "bundle:import")
    pair.sync(key)
    pair.local.erase(memory.id)
    pair.local.add("User likes jazz", "preference")
    result = pair.sync(key)
    assert result.pushed == 1 and result.erased_there == []
    assert any("erasures made here were not pushed" in w for w in result.warnings)
    assert "User's old phone number is 555-0100" in contents(pair.remote)


def test_sync_erasures_endpoint_is_the_owners_and_checks_since(tmp_path: Path) -> None:
    with server_home(tmp_path / "server", ("alice",)) as home:
        app = app_for(home)
        key = home.key("alice")
        vault = home.tenants.session(home.tenants.authenticate(key))
        gone = vault.add("Something to forget", "fact").memory
        vault.erase(gone.id)
        owner = client(app, key)
        assert owner.get("/v1/sync/erasures", params={"since": "2000-01-01T00:00:00Z"}).json() == {
            "since": "2000-01-01T00:00:00Z",
            "erased": [gone.id],
        }
        assert (
            owner.get("/v1/sync/erasures", params={"since": "2999-01-01T00:00:00Z"}).json()[
                "erased"
            ]
            == []
        )
        bad = owner.get("/v1/sync/erasures", params={"since": "yesterday"})
        assert bad.status_code == 422 and "since='yesterday'" in bad.json()["detail"]
        agent = client(app, home.agent("alice", "agent-x", "bundle:export"))
        assert (
            agent.get("/v1/sync/erasures", params={"since": "2000-01-01T00:00:00Z"}).status_code
            == 403
        )


def test_sync_warnings_name_the_remote_export_not_a_temporary_file(pair: Pair) -> None:
    """A warning about the pulled export (here a memory naming a conversation the export does
    not hold, PAM §14.1) names the remote's export, never the temporary file the sync
    downloaded it to."""
    from vaultkit import pam_memory

    data = pam_memory("Lives in Porto").to_json()
    data["provenance"]["conversation_ref"] = "elsewhere"
    pair.remote.add_memories([Memory.from_json(data)])
    result = pair.sync()
    pulled = [w for w in result.warnings if w.startswith("pull:")]
    assert pulled, result.warnings
    assert not any("memvault-sync-" in w or "/tmp/" in w for w in result.warnings), pulled
    assert all(w.startswith("pull: the remote's export") for w in pulled), pulled


def test_first_sync_does_not_send_back_what_it_just_received(pair: Pair) -> None:
    """PAM §16: the first sync's push holds only what the server lacks — not the memories (nor
    the relations between them) its pull has just brought, which the server already holds."""
    tea = pair.remote.add("User prefers green tea", "preference").memory
    mate = pair.remote.add("User drinks mate on Sundays", "preference").memory
    pair.remote.relate(tea.id, mate.id, "related_to")
    pair.local.add("User lives in Lisbon", "fact")
    result = pair.sync()
    assert result.first and (result.received, result.pulled) == (2, 2), result.to_json()
    assert (result.sent, result.pushed) == (1, 1), result.to_json()
    assert result.push["unchanged"] == 0 and result.push["relations"] == 0, result.to_json()
    both = {"User lives in Lisbon", "User prefers green tea", "User drinks mate on Sundays"}
    assert contents(pair.local) == both and contents(pair.remote) == both
    assert [r.type for r in pair.local.relations(tea.id)] == ["related_to"]


def test_first_sync_into_an_empty_vault_sends_nothing_back(pair: Pair) -> None:
    """A vault that held nothing receives the server's memories and sends none of them back:
    no push at all."""
    for n in range(5):
        pair.remote.add(f"User visited city number {n}", "fact")
    result = pair.sync()
    assert (result.received, result.pulled, result.sent, result.pushed) == (5, 5, 0, 0)
    assert result.push == {}, result.to_json()


def test_a_later_sync_does_not_send_back_what_it_pulled(pair: Pair) -> None:
    """A delta pulled in a later run is not pushed back in that run either; what changed here
    still is."""
    pair.sync()
    time.sleep(1.1)  # cursors are whole seconds
    pair.remote.add("User prefers green tea", "preference")
    pair.local.add("User works as a nurse", "fact")
    result = pair.sync()
    assert (result.received, result.pulled, result.sent, result.pushed) == (1, 1, 1, 1), (
        result.to_json()
    )
    assert result.push["unchanged"] == 0, result.to_json()


def test_the_next_sync_sends_back_nothing_the_last_one_exchanged(pair: Pair) -> None:
    """PAM §16: a push exports what changed at or after the last push's date, a whole second,
    so the second sync sent back every memory the first one pulled ("42 memories sent (42
    already there)"). What the last sync wrote or sent, unchanged here since, is not sent
    again — in the same second or later."""
    for n in range(5):
        pair.remote.add(f"User visited city number {n}", "fact")
    pair.local.add("User lives in Lisbon", "fact")
    first = pair.sync()
    assert (first.received, first.sent) == (5, 1), first.to_json()
    second = pair.sync()  # at once: the same second as the first's push
    assert (second.sent, second.pushed) == (0, 0), second.to_json()
    assert second.push == {}, second.to_json()
    time.sleep(1.1)
    # The pull may bring back, unchanged, what the server wrote in the first sync's second
    # (its export cannot leave out what a client sent); nothing is sent.
    third = pair.sync()
    assert (third.sent, third.pulled, third.changed) == (0, 0, 0), third.to_json()


def test_a_change_made_right_after_a_sync_is_sent_by_the_next(pair: Pair) -> None:
    """Leaving out what the last sync exchanged never leaves out a change made here after it,
    even within the same second, nor one to a memory the last sync brought."""
    visited = pair.remote.add("User visited Porto", "fact").memory
    pair.sync()
    pair.local.add("User works as a nurse", "fact")
    pair.local.retract(visited.id)
    result = pair.sync()
    assert (result.sent, result.pushed) == (2, 2), result.to_json()
    assert "User works as a nurse" in contents(pair.remote)
    assert by_content(pair.remote, "User visited Porto").status == "retracted"
