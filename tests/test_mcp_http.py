"""The MCP server over Streamable HTTP at ``/mcp`` under the HTTP server, through a real
uvicorn: the same bearer tokens and tenant scoping as the API — refused without a token,
tools run in the token's session and check its scopes (PAM §9 for agents), and no path is
read or written for a remote caller."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from clikit import home as home
from clikit import ok
from mcpkit import call as _call
from mcpkit import drive
from mcpkit import refused as _refused
from serverkit import Home, app_for, auth, running, server_home
from test_server_cli import serving


def _drive(url: str, key: str, body: Callable[[Client], Awaitable[None]]) -> None:
    @asynccontextmanager
    async def connect() -> AsyncIterator[Client]:
        async with httpx2.AsyncClient(headers=auth(key), timeout=60) as http:
            transport = streamable_http_client(f"{url}/mcp", http_client=http)
            async with Client(transport, cache=None) as client:
                yield client

    drive(connect, body)


def _serve(home: Home) -> Any:
    return running(app_for(home))


def test_mcp_over_http_with_a_token_refused_without(tmp_path: Path) -> None:
    with server_home(tmp_path / "home") as home, _serve(home) as url:
        for headers in ({}, auth("not-a-key"), {"Authorization": "Basic abc"}):
            answer = httpx.post(f"{url}/mcp", json={}, headers=headers)
            assert answer.status_code == 401
            assert answer.headers["content-type"].startswith("application/problem+json")
            assert answer.json()["status"] == 401

        async def alice(client: Client) -> None:
            added = await _call(client, "remember", content="Alice lives in Porto")
            memory_id = added["memory"]["id"]
            found = await _call(client, "recall", query="Porto")
            assert [r["id"] for r in found["results"]] == [memory_id]
            updated = await _call(client, "update_memory", id=memory_id, add_tags=["home"])
            assert updated["tags"] == ["home"]
            moved = await _call(
                client, "supersede", old_id=memory_id, content="Alice lives in Lisbon"
            )
            assert moved["superseded"]["status"] == "superseded"
            retracted = await _call(client, "forget", id=moved["new_id"])
            assert retracted["retracted"]["status"] == "retracted"
            exported = await _call(client, "export_memory", format="aimem")
            bundle = json.loads(exported["document"])
            assert len(bundle["chunks"]) == 2
            text = await _refused(client, "export_memory", path=str(tmp_path / "x.json"))
            assert "reads and writes no files" in text
            assert not (tmp_path / "x.json").exists()
            imported = await _call(
                client, "import_memory",
                content=json.loads((await _call(client, "export_memory"))["document"]),
            )  # fmt: skip
            assert imported["kind"] == "pam"

        async def bob(client: Client) -> None:
            # Another tenant's token: none of Alice's memories.
            assert (await _call(client, "list_memories", status="any"))["total"] == 0
            assert (await _call(client, "recall", query="Porto Lisbon"))["results"] == []

        _drive(url, home.key("alice"), alice)
        _drive(url, home.key("bob"), bob)


def test_agent_token_sees_nothing_private_and_scopes_apply(tmp_path: Path) -> None:
    """PAM §9: an agent's token runs the tools in the agent's session."""
    with server_home(tmp_path / "home") as home, _serve(home) as url:
        agent_key = home.agent("alice", "agent-x")
        reader_key = home.scoped("alice", "memories:read")

        async def owner(client: Client) -> None:
            await _call(client, "remember", content="Private: the bank PIN hint")

        async def agent(client: Client) -> None:
            assert (await _call(client, "recall", query="bank PIN"))["results"] == []
            assert (await _call(client, "list_memories"))["total"] == 0
            own = await _call(client, "remember", content="Agent note: prefers tea")
            assert own["memory"]["access"]["shared_with"][0]["entity"] == "agent-x"
            text = await _refused(client, "export_memory")
            assert "bundle:export" in text

        async def reader(client: Client) -> None:
            assert (await _call(client, "list_memories"))["total"] == 2
            text = await _refused(client, "remember", content="x")
            assert "memories:write" in text

        _drive(url, home.key("alice"), owner)
        _drive(url, agent_key, agent)
        _drive(url, reader_key, reader)


def test_mcp_under_memvault_serve_with_the_local_token(home: Path) -> None:
    """`memvault serve` on a personal vault: /mcp answers its local token, and only it."""
    ok("init")
    ok("add", "Runs marathons", "--type", "fact")
    env = {"MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": os.environ["MEMVAULT_PASSPHRASE"]}
    with serving([], env) as (url, _printed):
        token = (home / "local-token").read_text().strip()
        assert httpx.post(f"{url}/mcp", json={}).status_code == 401

        async def body(client: Client) -> None:
            found = await _call(client, "recall", query="marathon")
            assert found["results"][0]["text"] == "Runs marathons"
            added = await _call(client, "remember", content="Trains on Sundays")
            assert added["created"] is True

        _drive(url, token, body)
    assert "Trains on Sundays" in ok("list", "--json").stdout
