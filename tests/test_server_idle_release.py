"""A served vault gives back recall's bit index (and its connections' caches) once its tenant
has had no request for `ServerConfig.release_idle_after` seconds (`memvault.server.idle`), not
only after imports and exports. The clock is injected (or the idle time made short), so no
test waits minutes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from clikit import home, ok, refused  # noqa: F401 - `home` is a fixture
from embedserver import EmbedServer
from embedserver import embed_server as embed_server
from memvault.errors import InvalidInput
from memvault.server.app import create_app
from memvault.server.config import DEFAULT_IDLE_RELEASE, ServerConfig
from memvault.server.idle import IdleRelease
from memvault.server.tenant_worker import owner_sessions
from memvault.store.sqlite import SERVER_CACHE_KIB
from memvault.tenancy import Tenants
from serverkit import auth, running, server_home
from test_recall_bits_cache import QUERIES
from test_served_recall_cache import _filled, _reader_caches
from vaultkit import PASSPHRASE


class Clock:
    """A monotonic clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _noted(idle: IdleRelease, tenant: str, at: float) -> None:
    """Wait until the server has noted `tenant`'s last request at `at`: it notes it once the
    answer is sent, which the client may see first."""
    deadline = time.monotonic() + 10
    while idle.waiting().get(tenant) != at:
        assert time.monotonic() < deadline, (idle.waiting(), tenant, at)
        time.sleep(0.01)


class _CountingRelease(IdleRelease):
    """The releaser, counting the request ends it was told of: a test that moves the clock
    waits for every one, since the answer reaches the client before its end is noted."""

    touches = 0

    def touch(self, tenant: str) -> None:
        super().touch(tenant)
        self.touches += 1


def _all_noted(idle: _CountingRelease, requests: int) -> None:
    deadline = time.monotonic() + 10
    while idle.touches < requests:
        assert time.monotonic() < deadline, (idle.touches, requests)
        time.sleep(0.01)


def _recall_all(http: httpx.Client) -> list[Any]:
    answers = []
    for query in QUERIES:
        found = http.get("/v1/recall", params={"q": query})
        assert found.status_code == 200, found.text
        answers.append([(hit["kind"], hit["id"]) for hit in found.json()["results"]])
    return answers


def test_an_idle_tenant_gives_back_its_recall_cache_after_the_idle_time(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    home_path, _spec = _filled(tmp_path, embed_server)
    clock = Clock()
    with Tenants.personal(home_path, PASSPHRASE) as tenants:
        token = tenants.local_token()
        app = create_app(ServerConfig(tenants))
        # The server's own releaser, on a clock the test moves; its thread looks rarely, the
        # test runs the rounds.
        idle = _CountingRelease(owner_sessions(tenants), idle=300.0, interval=3600.0, clock=clock)
        app.state.idle_release = idle
        tenant = tenants.authenticate(token).tenant
        served = tenants.session(tenants.authenticate(token))
        with running(app) as url, httpx.Client(base_url=url, headers=auth(token)) as http:
            before = _recall_all(http)
            assert max(_reader_caches(served)) > SERVER_CACHE_KIB
            _all_noted(idle, len(QUERIES))
            _noted(idle, tenant, 1000.0)
            assert idle.waiting() == {tenant: 1000.0}
            clock.now += 299.0
            assert idle.run_once() == []
            assert max(_reader_caches(served)) > SERVER_CACHE_KIB  # not idle long enough yet
            clock.now += 1.0
            assert idle.run_once() == [tenant]
            assert all(c == SERVER_CACHE_KIB for c in _reader_caches(served))
            assert served.store._recall_grants == {}  # type: ignore[attr-defined]
            assert idle.waiting() == {}
            assert idle.run_once() == []  # released once, until its next request
            # The next queries read the index again and answer the same.
            assert _recall_all(http) == before
            _noted(idle, tenant, clock.now)
            assert max(_reader_caches(served)) > SERVER_CACHE_KIB


def test_a_request_puts_off_the_release_of_an_idle_tenant(tmp_path: Path) -> None:
    clock = Clock()
    with server_home(tmp_path / "server", ("alice", "bob")) as made:
        app = create_app(ServerConfig(made.tenants))
        idle = IdleRelease(owner_sessions(made.tenants), idle=60.0, interval=3600.0, clock=clock)
        app.state.idle_release = idle
        with running(app) as url, httpx.Client(base_url=url) as http:
            alice = auth(made.key("alice"))
            bob = auth(made.key("bob"))
            assert http.get("/v1/memories", headers=alice).status_code == 200
            _noted(idle, "alice", clock.now)
            clock.now += 50.0
            added = http.post(
                "/v1/memories", headers=bob, json={"content": "Bob likes tea", "type": "preference"}
            )
            assert added.status_code == 201, added.text
            _noted(idle, "bob", clock.now)
            clock.now += 9.0
            # alice's last request is 59 s old: one more second and she would be given back.
            assert http.get("/v1/memories", headers=alice).status_code == 200
            _noted(idle, "alice", clock.now)
            clock.now += 1.0
            assert idle.run_once() == []  # alice used 1 s ago, bob 10 s ago
            clock.now += 50.0
            assert idle.run_once() == ["bob"]  # bob's write is 60 s old, alice's read 51 s
            clock.now += 9.0
            assert idle.run_once() == ["alice"]
            # A refused request (no tenant) notes nobody.
            assert http.get("/v1/memories").status_code == 401
            assert idle.waiting() == {}


def test_a_real_server_gives_back_an_idle_tenants_cache_on_its_own(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    home_path, _spec = _filled(tmp_path, embed_server)
    with Tenants.personal(home_path, PASSPHRASE) as tenants:
        token = tenants.local_token()
        app = create_app(ServerConfig(tenants, release_idle_after=0.5))
        idle = app.state.idle_release
        assert isinstance(idle, IdleRelease) and idle.idle == 0.5
        served = tenants.session(tenants.authenticate(token))
        with running(app) as url, httpx.Client(base_url=url, headers=auth(token)) as http:
            _recall_all(http)
            deadline = time.monotonic() + 20
            while idle.released == 0:
                assert time.monotonic() < deadline, "the idle tenant was never given back"
                time.sleep(0.05)
            assert all(c == SERVER_CACHE_KIB for c in _reader_caches(served))


def test_the_idle_release_is_on_by_default_and_can_be_turned_off(tmp_path: Path) -> None:
    with server_home(tmp_path / "server", ("alice",)) as made:
        assert ServerConfig(made.tenants).release_idle_after == DEFAULT_IDLE_RELEASE == 300.0
        assert isinstance(create_app(ServerConfig(made.tenants)).state.idle_release, IdleRelease)
        off = create_app(ServerConfig(made.tenants, release_idle_after=None))
        assert off.state.idle_release is None
        with pytest.raises(InvalidInput, match="idle time"):
            ServerConfig(made.tenants, release_idle_after=0)


def test_serve_refuses_a_negative_idle_time(home: Path) -> None:  # noqa: F811
    ok("init")
    assert "--release-idle-after" in refused("serve", "--release-idle-after", "-1", code=2)
