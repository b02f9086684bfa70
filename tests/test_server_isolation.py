"""Tenant isolation and agent tokens over HTTP (issue #18, PAM §9): with two tenants, every
endpoint tried with the other tenant's ids answers nothing of the other tenant; an agent's
token sees and changes only what its grants allow; erasing a tenant leaves the other whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from exchangekit import official_conversation, put_conversation
from memvault.tenancy import OWNER, Principal
from serverkit import BACKENDS, Home, app_for, client, server_home

SECRET = "Alice's bank PIN is 4921"


@pytest.fixture(params=BACKENDS)
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Home]:
    with server_home(tmp_path / "server", backend=request.param) as opened:
        yield opened


def owner_session(home: Home, tenant: str) -> Any:
    return home.tenants.session(Principal(tenant, OWNER, frozenset(), "test"))


def snapshot(http: TestClient) -> Any:
    """What alice holds, as alice's owner token sees it."""
    memories = http.get("/v1/memories", params={"status": "all", "limit": 1000}).json()
    audit = http.get("/v1/audit", params={"limit": 10000}).json()
    return memories, audit


def test_every_endpoint_with_the_other_tenants_ids_answers_nothing_of_it(home: Home) -> None:
    app = app_for(home)
    alice, bob = client(app, home.key("alice")), client(app, home.key("bob"))
    first = alice.post("/v1/memories", json={"content": SECRET, "type": "fact"}).json()
    second = alice.post("/v1/memories", json={"content": "Alice likes jazz", "type": "fact"})
    a1, a2 = first["memory"]["id"], second.json()["memory"]["id"]
    put_conversation(owner_session(home, "alice"), official_conversation("alice-conv"))
    bob.post("/v1/memories", json={"content": "Bob likes jazz", "type": "fact"})
    before = snapshot(alice)

    tries = [
        bob.get(f"/v1/memories/{a1}"),
        bob.get(f"/v1/memories/{a1[:8]}"),
        bob.patch(f"/v1/memories/{a1}", json={"content": "changed"}),
        bob.delete(f"/v1/memories/{a1}"),
        bob.post(f"/v1/memories/{a1}/retract"),
        bob.post(f"/v1/memories/{a1}/archive"),
        bob.post(f"/v1/memories/{a1}/deprecate"),
        bob.post(f"/v1/memories/{a1}/supersede", json={"by": a2}),
        bob.get(f"/v1/memories/{a1}/relations"),
        bob.post(f"/v1/memories/{a1}/relations", json={"to": a2, "type": "supports"}),
        bob.get("/v1/conversations/alice-conv"),
        bob.delete("/v1/conversations/alice-conv"),
    ]
    for response in tries:
        assert response.status_code == 404, (response.request.url, response.text)
        assert SECRET not in response.text and "jazz" not in response.text.replace(
            "Bob likes jazz", ""
        )
    listing = bob.get("/v1/memories", params={"status": "all"}).json()
    assert [m["content"] for m in listing["memories"]] == ["Bob likes jazz"]
    assert bob.get("/v1/conversations").json()["total"] == 0
    found = bob.get("/v1/recall", params={"q": "bank PIN jazz", "mode": "fts"}).json()
    assert [r["text"] for r in found["results"]] == ["Bob likes jazz"]
    assert bob.get("/v1/stats").json()["memories"] == 1
    bob_audit = bob.get("/v1/audit", params={"limit": 10000}).json()["entries"]
    assert a1 not in str(bob_audit) and a2 not in str(bob_audit)
    assert bob.get("/v1/audit", params={"memory_id": a1}).json()["entries"] == []
    assert snapshot(alice) == before


def test_an_agent_token_sees_only_what_its_grants_allow_pam_9(home: Home) -> None:
    app = app_for(home)
    alice = client(app, home.key("alice"))
    agent = client(app, home.agent("alice", "assistant-x"))

    def add(content: str, **fields: Any) -> str:
        made = alice.post("/v1/memories", json={"content": content, "type": "fact", **fields})
        assert made.status_code == 201, made.text
        memory_id: str = made.json()["memory"]["id"]
        return memory_id

    private = add(SECRET)
    readable = add(
        "Alice travels to Oslo", visibility="shared", shared_with={"assistant-x": ["read"]}
    )
    writable = add(
        "Alice drinks tea at Oslo airport",
        visibility="shared",
        shared_with={"assistant-x": ["read", "write"]},
    )
    other_agent = add(
        "Alice's Oslo hotel", visibility="shared", shared_with={"someone-else": ["read"]}
    )
    put_conversation(owner_session(home, "alice"), official_conversation("alice-conv"))

    listing = agent.get("/v1/memories").json()
    assert {m["id"] for m in listing["memories"]} == {readable, writable}
    assert listing["total"] == 2
    found = agent.get("/v1/recall", params={"q": "Oslo bank PIN hotel", "mode": "fts"}).json()
    assert {r["id"] for r in found["results"]} == {readable, writable}
    assert agent.get(f"/v1/memories/{private}").status_code == 403
    assert agent.get(f"/v1/memories/{other_agent}").status_code == 403
    assert SECRET not in agent.get(f"/v1/memories/{private}").text
    assert agent.get(f"/v1/memories/{readable}").json()["content"] == "Alice travels to Oslo"
    assert agent.patch(f"/v1/memories/{readable}", json={"tags": ["x"]}).status_code == 403
    patched = agent.patch(f"/v1/memories/{writable}", json={"add_tags": ["travel"]})
    assert patched.status_code == 200 and patched.json()["tags"] == ["travel"]
    # The owner's alone: visibility, grants, conversations, statistics, audit, erasure.
    assert agent.patch(f"/v1/memories/{writable}", json={"visibility": "public"}).status_code == 403
    assert agent.get("/v1/conversations").status_code == 403
    assert agent.get("/v1/conversations/alice-conv").status_code == 403
    assert agent.get("/v1/stats").status_code == 403
    assert agent.get("/v1/audit").status_code == 403
    assert agent.delete(f"/v1/memories/{writable}").status_code == 403
    assert agent.delete("/v1/tenant").status_code == 403
    # What it adds is its own session's work, recorded as the agent's.
    made = agent.post("/v1/memories", json={"content": "Agent note", "type": "fact"})
    assert made.status_code == 201
    entries = alice.get("/v1/audit", params={"memory_id": made.json()["memory"]["id"]}).json()
    assert entries["entries"][0]["actor"] == "assistant-x"


def test_erasing_a_tenant_over_http_leaves_the_other_whole_aimem_5_2(home: Home) -> None:
    app = app_for(home)
    alice, bob = client(app, home.key("alice")), client(app, home.key("bob"))
    alice.post("/v1/memories", json={"content": SECRET, "type": "fact"})
    bob.post("/v1/memories", json={"content": "Bob likes jazz", "type": "fact"})
    erased = bob.delete("/v1/tenant")
    assert erased.status_code == 200, erased.text
    report = erased.json()
    assert report["tenant"] == "bob" and report["memories"] == 1
    assert report["actor"].startswith("token:")
    assert bob.get("/v1/memories").status_code == 401
    assert alice.get("/v1/memories").json()["memories"][0]["content"] == SECRET
    assert [t.name for t in home.tenants.list()] == ["alice"]
