"""What the MCP server tests share: running a test body against a connected `mcp` client, and
calling a tool expecting its result or its refusal (a tool error, never a traceback)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import anyio
from mcp import Client


def drive(
    connect: Callable[[], AbstractAsyncContextManager[Client]],
    body: Callable[[Client], Awaitable[None]],
) -> None:
    """Run `body` with the client `connect` opens (and closes after)."""

    async def main() -> None:
        async with connect() as client:
            await body(client)

    anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """The structured result of a tool call that succeeds."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The message of a tool call that fails: a tool error, not a traceback."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str) and "Traceback" not in text
    return text
