"""The server's background embedding (issue #18): what is written over HTTP gets its
vectors without `memvault embed`, progress shows in ``GET /v1/stats``, and a failing
embeddings endpoint is reported there, then recovered from."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from embedserver import MODEL, EmbedServer, serve
from memvault.recall.embedders import EmbedderSpec
from memvault.tenancy import OWNER, Principal
from serverkit import VECTOR_BACKENDS, Home, app_for, client, server_home


@pytest.fixture(params=VECTOR_BACKENDS)  # background embedding fills the vector index
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Home]:
    with server_home(tmp_path / "server", backend=request.param) as opened:
        yield opened


@pytest.fixture
def embeddings() -> Iterator[EmbedServer]:
    with serve() as server:
        yield server


def until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_new_memories_get_vectors_in_the_background(home: Home, embeddings: EmbedServer) -> None:
    vault = home.tenants.session(Principal("alice", OWNER, frozenset(), "t"))
    vault.embed(EmbedderSpec("openai", MODEL, embeddings.url))  # alice's vault names one
    app = app_for(home, embed_interval=0.05)
    with client(app, home.key("alice")) as alice, client(app, home.key("bob")) as bob:
        for text in ("Ana shelters stray cats", "The flight to Oslo leaves at nine"):
            made = alice.post("/v1/memories", json={"content": text, "type": "fact"})
            assert made.status_code == 201
        bob.post("/v1/memories", json={"content": "Bob's own", "type": "fact"})

        def embedded() -> bool:
            progress = alice.get("/v1/stats").json()["embedding"]
            return progress["state"] == "idle" and progress["with_vector"] == 2

        until(embedded)
        progress = alice.get("/v1/stats").json()["embedding"]
        assert progress["passages"] == 2 and progress["embedded"] == 2
        assert progress["error"] is None and progress["runs"] >= 1
        found = alice.get("/v1/recall", params={"q": "shelter", "mode": "vector"}).json()
        assert found["vectors_complete"] is True
        assert found["results"][0]["text"] == "Ana shelters stray cats"
        # bob's vault names no embedder: it is left to full text.
        assert bob.get("/v1/stats").json()["embedding"]["state"] == "waiting"
        sent = [text for batch in embeddings.inputs for text in batch]
        assert "Bob's own" not in " ".join(sent)


def test_a_failing_endpoint_shows_in_stats_and_is_retried(
    home: Home, embeddings: EmbedServer
) -> None:
    vault = home.tenants.session(Principal("alice", OWNER, frozenset(), "t"))
    vault.embed(EmbedderSpec("openai", MODEL, embeddings.url))
    for _ in range(3):
        embeddings.fail(status=503)
    app = app_for(home, embed_interval=0.3)
    with client(app, home.key("alice")) as alice:
        alice.post("/v1/memories", json={"content": "Ana shelters stray cats", "type": "fact"})

        def recovered() -> bool:
            progress = alice.get("/v1/stats").json()["embedding"]
            return progress["state"] == "idle" and progress["with_vector"] == 1

        until(recovered)
        # The failed round is over, yet the stats still tell of it.
        progress = alice.get("/v1/stats").json()["embedding"]
        assert progress["failures"] == 1 and progress["error"] is None
        assert "503" in progress["last_error"]
    assert app.state.embedder._thread is None  # stopped with the application


def test_a_tenant_worker_must_say_what_a_round_does() -> None:
    """`TenantWorker` is the shared loop of the server's background workers: a kind of it
    that does not say what a round does for a tenant (`_work`) cannot be made."""
    from memvault.server.tenant_worker import TenantWorker

    class Silent(TenantWorker[Any]):
        pass

    with pytest.raises(TypeError, match="_work"):
        Silent(lambda: [], dict, interval=1.0)  # type: ignore[abstract]
