"""The review queue over HTTP (AIMEM §5.1): the changes background extraction proposed for
DNA-class memories are listed for the owner, who accepts (the supersession is made) or rejects
(the proposed memory is retracted); errors are problem+json and the vault is left as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from memvault.server.app import create_app
from memvault.server.config import ServerConfig
from memvault.server.websession import CSRF_HEADER
from memvault.tenancy import Tenants
from serverkit import SERVER_KEY
from vaultkit import PASSPHRASE
from webkit import propose, with_proposal

PROBLEM = "application/problem+json"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Tenants]]:
    home = with_proposal(tmp_path / "vault")
    with Tenants.personal(home, PASSPHRASE) as tenants:
        client = TestClient(create_app(ServerConfig(tenants)), base_url="http://127.0.0.1:8765")
        client.headers["Authorization"] = f"Bearer {tenants.local_token()}"
        with client:
            yield client, tenants


def test_aimem_5_1_get_review_lists_the_proposal_with_its_target(
    served: tuple[TestClient, Tenants],
) -> None:
    client, _ = served
    (found,) = client.get("/v1/review").json()["proposals"]
    assert found["memory"]["content"] == "User prefers concise answers"
    assert [t["content"] for t in found["targets"]] == ["User prefers detailed answers"]
    assert found["proposes"] == "supersede" and found["proposed_by"] == "system:extract"


def test_accepting_a_proposal_makes_the_supersession_and_empties_the_queue(
    served: tuple[TestClient, Tenants],
) -> None:
    client, _ = served
    (found,) = client.get("/v1/review").json()["proposals"]
    new, old = found["memory"]["id"], found["targets"][0]["id"]
    made = client.post(f"/v1/review/{new}/accept")
    assert made.status_code == 200 and made.json() == {"superseded": [{"new": new, "old": old}]}
    assert client.get(f"/v1/memories/{old}").json()["status"] == "superseded"
    assert client.get("/v1/review").json() == {"proposals": []}
    again = client.post(f"/v1/review/{new}/accept")
    assert again.status_code == 409 and again.headers["content-type"] == PROBLEM
    assert "not a pending proposal" in again.json()["detail"]


def test_rejecting_a_proposal_retracts_the_proposed_memory_pam_7_1(
    served: tuple[TestClient, Tenants],
) -> None:
    client, _ = served
    (found,) = client.get("/v1/review").json()["proposals"]
    new, old = found["memory"]["id"], found["targets"][0]["id"]
    rejected = client.post(f"/v1/review/{new}/reject")
    assert rejected.status_code == 200 and rejected.json()["status"] == "retracted"
    assert client.get(f"/v1/memories/{old}").json()["status"] == "active"
    assert client.get("/v1/review").json() == {"proposals": []}


def test_reviewing_an_unknown_or_unflagged_memory_is_a_problem_and_changes_nothing(
    served: tuple[TestClient, Tenants],
) -> None:
    client, _ = served
    (found,) = client.get("/v1/review").json()["proposals"]
    missing = client.post("/v1/review/00000000-0000-4000-8000-000000000000/accept")
    assert missing.status_code == 404 and missing.headers["content-type"] == PROBLEM
    target = found["targets"][0]["id"]
    unflagged = client.post(f"/v1/review/{target}/reject")
    assert unflagged.status_code == 409 and unflagged.headers["content-type"] == PROBLEM
    assert client.get(f"/v1/memories/{target}").json()["status"] == "active"
    assert len(client.get("/v1/review").json()["proposals"]) == 1


def test_only_the_owner_reviews_an_agents_token_is_refused(tmp_path: Path) -> None:
    with Tenants.open(tmp_path / "server", SERVER_KEY) as tenants:
        _, owner_key = tenants.create("acme")
        propose(tenants.session(tenants.authenticate(owner_key)))
        _, agent_key = tenants.issue(
            "acme", identity="agent-x", scopes=["memories:read", "memories:write"]
        )
        with TestClient(create_app(ServerConfig(tenants))) as client:
            owner = {"Authorization": f"Bearer {owner_key}"}
            agent = {"Authorization": f"Bearer {agent_key}"}
            listed = client.get("/v1/review", headers=agent)
            assert listed.status_code == 403 and listed.headers["content-type"] == PROBLEM
            (found,) = client.get("/v1/review", headers=owner).json()["proposals"]
            refused = client.post(f"/v1/review/{found['memory']['id']}/accept", headers=agent)
            assert refused.status_code == 403
            assert len(client.get("/v1/review", headers=owner).json()["proposals"]) == 1


def test_a_cookie_signed_review_needs_the_csrf_header(
    served: tuple[TestClient, Tenants],
) -> None:
    client, tenants = served
    del client.headers["Authorization"]
    client.get("/", params={"token": tenants.local_token()}, follow_redirects=False)
    csrf = client.get("/v1/session").json()["csrf"]
    (found,) = client.get("/v1/review").json()["proposals"]
    path = f"/v1/review/{found['memory']['id']}/accept"
    assert client.post(path).status_code == 403
    assert client.post(path, headers={CSRF_HEADER: csrf}).status_code == 200
