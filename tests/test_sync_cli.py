"""`memvault sync URL --token T` against a real `memvault serve` (uvicorn on 127.0.0.1): the
summary in text and JSON, a second run that changes nothing, and clear one-line errors for a
bad token and an unreachable server (PAM §16)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clikit import home, ok, refused
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from serverkit import app_for, free_port, running, server_home

__all__ = ["home"]  # a fixture: a vault home in the environment


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, Vault]]:
    with server_home(tmp_path / "server", ("alice",)) as served:
        key = served.key("alice")
        remote = served.tenants.session(served.tenants.authenticate(key))
        with running(app_for(served)) as url:
            yield url, key, remote


@pytest.mark.usefixtures("home")
def test_sync_command_pulls_pushes_and_a_second_run_changes_nothing(
    server: tuple[str, str, Vault],
) -> None:
    url, key, remote = server
    ok("init")
    ok("add", "User lives in Lisbon", "--type", "fact")
    remote.add("User prefers green tea", "preference")
    text = ok("sync", url, "--token", key).stdout
    assert f"synced with {url}, tenant alice as the owner (first sync" in text
    assert "from the server: 1 memory received (1 new here)" in text
    assert "to the server: 1 memory sent (1 new there)" in text
    assert {m.content for m in remote.iter_memories(MemoryQuery(limit=None))} == {
        "User lives in Lisbon",
        "User prefers green tea",
    }
    time.sleep(1.1)  # export dates are whole seconds
    again = ok("sync", url, "--token", key, "--json").json()
    assert (again["pulled"], again["pushed"], again["changed"]) == (0, 0, 0)
    assert again["first"] is False and again["conflicts"] == []


@pytest.mark.usefixtures("home")
def test_sync_summary_says_what_moved_each_way_and_sends_nothing_back(
    server: tuple[str, str, Vault],
) -> None:
    """The first sync of an empty vault receives the server's memories and sends none of them
    back; the summary says so in words, one line a direction."""
    url, key, remote = server
    ok("init")
    for n in range(3):
        remote.add(f"User visited city number {n}", "fact")
    text = ok("sync", url, "--token", key).stdout
    assert "from the server: 3 memories received (3 new here)" in text, text
    assert "to the server: nothing sent" in text, text
    assert "sent 3" not in text and "pushed 0" not in text
    time.sleep(1.1)  # export dates are whole seconds
    again = ok("sync", url, "--token", key).stdout
    assert "nothing changed on either side" in again, again


@pytest.mark.usefixtures("home")
def test_sync_command_with_a_bad_token_says_401_and_changes_nothing(
    server: tuple[str, str, Vault],
) -> None:
    url, _, remote = server
    ok("init")
    remote.add("User prefers green tea", "preference")
    before = ok("audit", "--json").json()
    message = refused("sync", url, "--token", "mvk_wrong")
    assert "refused the token (401)" in message and message.count("\n") == 1
    assert ok("audit", "--json").json() == before


@pytest.mark.usefixtures("home")
def test_sync_command_to_an_unreachable_server_is_one_clear_line() -> None:
    ok("init")
    url = f"http://127.0.0.1:{free_port()}"
    message = refused("sync", url, "--token", "mvk_x", "--timeout", "5")
    assert message.startswith(f"error: cannot reach {url}") and message.count("\n") == 1
