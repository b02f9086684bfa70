"""Memories, relations, lifecycle, recall, conversations, stats and audit over HTTP (issue
#18): each route calls the caller's vault session and answers the shape `memvault.shapes`
gives the result (docs/json.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from exchangekit import official_conversation, put_conversation
from memvault.store.base import StoredConversation
from serverkit import BACKENDS, Home, app_for, client, server_home


@pytest.fixture(params=BACKENDS)
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Home]:
    with server_home(tmp_path / "server", backend=request.param) as opened:
        yield opened


@pytest.fixture
def alice(home: Home) -> TestClient:
    return client(app_for(home), home.key("alice"))


def add(http: TestClient, content: str, type: str = "fact", **fields: object) -> dict:
    response = http.post("/v1/memories", json={"content": content, "type": type, **fields})
    assert response.status_code == 201, response.text
    memory: dict = response.json()["memory"]
    return memory


def test_create_answers_201_with_the_pam_memory_and_get_returns_it(alice: TestClient) -> None:
    response = alice.post(
        "/v1/memories", json={"content": "Prefers tea", "type": "preference", "tags": ["drinks"]}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["created"] is True and body["reinforced"] is False
    memory = body["memory"]
    assert memory["content"] == "Prefers tea" and memory["tags"] == ["drinks"]
    got = alice.get(f"/v1/memories/{memory['id']}")
    assert got.status_code == 200 and got.json() == memory
    assert alice.get(f"/v1/memories/{memory['id'][:8]}").json()["id"] == memory["id"]


def test_the_same_content_again_reinforces_with_200_pam_6(alice: TestClient) -> None:
    first = add(alice, "Lives in Lisbon")
    again = alice.post("/v1/memories", json={"content": "Lives in Lisbon", "type": "fact"})
    assert again.status_code == 200
    assert again.json()["reinforced"] is True and again.json()["memory"]["id"] == first["id"]


def test_list_filters_and_pages(alice: TestClient) -> None:
    for n in range(5):
        add(alice, f"fact number {n}", tags=["numbers"])
    add(alice, "likes jazz", "preference")
    page = alice.get("/v1/memories", params={"type": "fact", "limit": 2, "offset": 1}).json()
    assert page["total"] == 5 and page["limit"] == 2 and page["offset"] == 1
    assert len(page["memories"]) == 2
    assert {m["type"] for m in page["memories"]} == {"fact"}
    prefs = alice.get("/v1/memories", params=[("type", "preference"), ("tag", "numbers")])
    assert prefs.json()["total"] == 0


def test_list_filters_by_confidence_bounds_pam_8(alice: TestClient) -> None:
    """`min_confidence`/`max_confidence` bound the stored confidence.current (inclusive);
    out-of-range bounds and a minimum above the maximum answer 422 problem+json."""
    for value in (0.2, 0.5, 0.8, 0.95):
        add(alice, f"sure to {value}", confidence=value)

    def contents(**params: object) -> set[str]:
        page = alice.get("/v1/memories", params=params).json()
        assert page["total"] == len(page["memories"])
        return {m["content"] for m in page["memories"]}

    assert contents(min_confidence=0.8) == {"sure to 0.8", "sure to 0.95"}
    assert contents(max_confidence=0.5) == {"sure to 0.2", "sure to 0.5"}
    assert contents(min_confidence=0.3, max_confidence=0.9) == {"sure to 0.5", "sure to 0.8"}
    for params in ({"min_confidence": 1.5}, {"max_confidence": -0.1}, {"min_confidence": "x"}):
        refused = alice.get("/v1/memories", params=params)
        assert refused.status_code == 422, params
        assert refused.headers["content-type"].startswith("application/problem+json")
    crossed = alice.get("/v1/memories", params={"min_confidence": 0.9, "max_confidence": 0.1})
    assert crossed.status_code == 422
    assert "min_confidence 0.9 is above max_confidence 0.1" in crossed.json()["detail"]


def test_edit_patch_changes_only_what_it_names(alice: TestClient) -> None:
    memory = add(alice, "Works at Acme", tags=["work"], summary="job")
    patched = alice.patch(
        f"/v1/memories/{memory['id']}",
        json={"content": "Works at Initech", "add_tags": ["career"], "summary": None},
    )
    assert patched.status_code == 200, patched.text
    body = patched.json()
    assert body["content"] == "Works at Initech"
    assert body["tags"] == ["work", "career"]
    assert "summary" not in body or body["summary"] is None
    assert body["content_hash"] != memory["content_hash"]


def test_lifecycle_transitions_follow_pam_7_1(alice: TestClient) -> None:
    memory = add(alice, "Owns a bike")
    deprecated = alice.post(f"/v1/memories/{memory['id']}/deprecate")
    assert deprecated.status_code == 200 and deprecated.json()["status"] == "deprecated"
    retracted = alice.post(f"/v1/memories/{memory['id']}/retract").json()
    assert retracted["status"] == "retracted"
    final = alice.post(f"/v1/memories/{memory['id']}/archive")
    assert final.status_code == 409
    assert final.headers["content-type"] == "application/problem+json"
    assert "final" in final.json()["detail"] and "PAM §7.1" in final.json()["detail"]


def test_supersede_records_the_relation(alice: TestClient) -> None:
    old = add(alice, "Lives in Porto")
    new = add(alice, "Lives in Lisbon")
    response = alice.post(f"/v1/memories/{old['id']}/supersede", json={"by": new["id"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["superseded"]["status"] == "superseded"
    assert body["relation"]["type"] == "supersedes"
    assert body["relation"]["from"] == new["id"] and body["relation"]["to"] == old["id"]


def test_relations_are_added_and_listed_both_ways(alice: TestClient) -> None:
    a = add(alice, "Plays piano")
    b = add(alice, "Studied music")
    made = alice.post(
        f"/v1/memories/{a['id']}/relations",
        json={"to": b["id"], "type": "supports", "confidence": 0.8},
    )
    assert made.status_code == 201, made.text
    relation = made.json()
    assert alice.get(f"/v1/memories/{b['id']}/relations").json() == [relation]
    assert alice.get(f"/v1/memories/{a['id']}/relations").json() == [relation]


def test_erase_one_memory_removes_it_aimem_5_2(alice: TestClient) -> None:
    memory = add(alice, "A secret to forget")
    erased = alice.delete(f"/v1/memories/{memory['id']}")
    assert erased.status_code == 200
    assert erased.json()["erased"] == [memory["id"]]
    assert alice.get(f"/v1/memories/{memory['id']}").status_code == 404
    assert alice.get("/v1/recall", params={"q": "secret"}).json()["results"] == []


def test_recall_finds_memories_with_filters(alice: TestClient) -> None:
    add(alice, "Ana works at the Lisbon office", "fact")
    add(alice, "Prefers green tea in the morning", "preference")
    found = alice.get("/v1/recall", params={"q": "where does Ana work", "k": 5}).json()
    assert found["query"] == "where does Ana work"
    assert found["results"][0]["text"] == "Ana works at the Lisbon office"
    assert found["results"][0]["kind"] == "memory"
    only_prefs = alice.get(
        "/v1/recall", params={"q": "Ana works tea", "type": "preference", "mode": "fts"}
    ).json()
    assert [r["text"] for r in only_prefs["results"]] == ["Prefers green tea in the morning"]
    assert alice.get("/v1/recall", params={"q": "x", "kind": "everything"}).status_code == 422


def test_recall_of_an_empty_or_blank_query_is_422(alice: TestClient) -> None:
    """`?q=` and `?q=%20%20` name nothing to look for: 422 problem+json, not an empty list."""
    add(alice, "Ana works at the Lisbon office", "fact")
    for q in ("", "   "):
        answer = alice.get("/v1/recall", params={"q": q})
        assert answer.status_code == 422, (q, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json")


def test_stats_counts_and_hides_the_server_paths(alice: TestClient) -> None:
    add(alice, "one")
    add(alice, "two")
    stats = alice.get("/v1/stats").json()
    assert stats["memories"] == 2 and "home" not in stats
    assert stats["embedding"] is None


def test_audit_lists_entries_and_verifies(alice: TestClient) -> None:
    memory = add(alice, "audited")
    entries = alice.get("/v1/audit", params={"memory_id": memory["id"]}).json()["entries"]
    assert [e["action"] for e in entries] == ["add"]
    assert "audited" not in str(entries)  # ids and hashes, never content (AIMEM §5.2)
    assert alice.get("/v1/audit/verify").json()["ok"] is True


def test_conversations_list_and_get(home: Home, alice: TestClient) -> None:
    from memvault.tenancy import OWNER, Principal

    vault = home.tenants.session(Principal("alice", OWNER, frozenset(), "t"))
    document = official_conversation("conv-1", title="Trip planning")
    put_conversation(vault, document)
    listing = alice.get("/v1/conversations").json()
    assert listing["total"] == 1
    assert listing["conversations"][0]["id"] == "conv-1"
    assert listing["conversations"][0]["message_count"] == len(document["messages"])
    assert alice.get("/v1/conversations/conv-1").json() == document
    assert alice.get("/v1/conversations/nope").status_code == 404
    word = document["messages"][0]["content"]["text"].split()[0]
    messages = alice.get("/v1/recall", params={"q": word, "kind": "messages"}).json()
    assert messages["results"][0]["conversation_id"] == "conv-1"


def test_conversations_list_pages_many_conversations_newest_first(
    home: Home, alice: TestClient
) -> None:
    """600 conversations, listed 100 at a time (from the store's columns, never the
    documents): every one once, newest first, with the total; a platform filter pages too."""
    from memvault.tenancy import OWNER, Principal

    vault = home.tenants.session(Principal("alice", OWNER, frozenset(), "t"))
    batch = []
    for i in range(600):
        document = official_conversation(f"conv-{i:04d}", title=f"Talk {i}")
        document["temporal"]["created_at"] = (
            f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T10:{i % 60:02d}:00Z"
        )
        if i % 4 == 0:
            document["provider"]["name"] = "chatgpt"
        batch.append(
            StoredConversation(
                id=document["id"],
                platform=document["provider"]["name"],
                document=document,
                title=document["title"],
                created_at=document["temporal"]["created_at"],
                message_count=len(document["messages"]),
            )
        )
    vault.put_conversations(batch)
    expected = [c.id for c in sorted(batch, key=lambda c: (c.created_at, c.id), reverse=True)]
    listed: list[str] = []
    for offset in range(0, 700, 100):
        page = alice.get("/v1/conversations", params={"limit": 100, "offset": offset}).json()
        assert (page["total"], page["offset"], page["limit"]) == (600, offset, 100)
        listed += [c["id"] for c in page["conversations"]]
    assert listed == expected
    chatgpt = alice.get("/v1/conversations", params={"platform": "chatgpt", "limit": 1000}).json()
    assert chatgpt["total"] == 150
    assert [c["id"] for c in chatgpt["conversations"]] == [
        i for i in expected if int(i[5:]) % 4 == 0
    ]
    assert alice.get("/v1/conversations", params={"limit": 0}).status_code == 422


def test_erase_a_conversation_removes_it_and_its_messages_aimem_5_2(
    home: Home, alice: TestClient
) -> None:
    from memvault.tenancy import OWNER, Principal

    vault = home.tenants.session(Principal("alice", OWNER, frozenset(), "t"))
    document = official_conversation("conv-1")
    put_conversation(vault, document)
    word = document["messages"][0]["content"]["text"].split()[0]
    erased = alice.delete("/v1/conversations/conv-1")
    assert erased.status_code == 200, erased.text
    assert erased.json()["conversation"] == "conv-1"
    assert erased.json()["messages"] == len(document["messages"])
    assert alice.get("/v1/conversations/conv-1").status_code == 404
    assert alice.get("/v1/recall", params={"q": word, "kind": "messages"}).json()["results"] == []
    assert alice.delete("/v1/conversations/conv-1").status_code == 404
