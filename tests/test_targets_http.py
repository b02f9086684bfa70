"""``GET /v1/export/{target}``: the assistant texts of `memvault.targets` over HTTP, with the
caller's session (PAM §9) and the bundle:export scope."""

from __future__ import annotations

from pathlib import Path

from serverkit import app_for, client, server_home


def test_export_target_over_http_within_limits_and_scoped(tmp_path: Path) -> None:
    with server_home(tmp_path / "home") as home:
        app = app_for(home)
        owner = client(app, home.key("alice"))
        for content, kind in (("Always answer briefly", "instruction"), ("Lives in Porto", "fact")):
            assert owner.post("/v1/memories", json={"content": content, "type": kind}).is_success
        body = owner.get("/v1/export/chatgpt", params={"budget": 1600}).json()
        assert body["target"] == "chatgpt" and body["included"] == 2
        fields = {t["name"]: t for t in body["texts"]}
        assert "Always answer briefly" in fields["respond"]["text"]
        assert fields["about"]["limit"] == 1500 and fields["memory"]["limit"] == 1600
        recalled = owner.get("/v1/export/system-prompt", params={"query": "Porto"}).json()
        assert recalled["included"] == 1 and "Lives in Porto" in recalled["texts"][0]["text"]

        assert owner.get("/v1/export/copilot").status_code == 422
        assert owner.get("/v1/export/claude", params={"budget": 5}).status_code == 422
        assert client(app).get("/v1/export/claude").status_code == 401
        reader = client(app, home.scoped("alice", "memories:read"))
        assert reader.get("/v1/export/claude").status_code == 403
        agent = client(app, home.agent("alice", "agent-x", "bundle:export"))
        assert agent.get("/v1/export/system-prompt").json()["included"] == 0
        other = client(app, home.key("bob")).get("/v1/export/gemini").json()
        assert other["included"] == 0
