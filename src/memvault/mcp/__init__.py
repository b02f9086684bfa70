"""The Model Context Protocol server: the vault as tools, resources and a prompt for agents
(`memvault mcp` over stdio; Streamable HTTP at ``/mcp`` under `memvault serve`).

Every tool is a few lines over a vault session bound to the caller — the owner, or a PAM §9
agent entity (`--as AGENT`, or a token's identity over HTTP) — so grants apply to each one.
Files are read and written only inside the folders the user allowed (`confine`).

    from memvault.mcp import build_server
    server = build_server(fixed_session(vault.acting_as("agent-x")), allowed=AllowedDirs([...]))
    server.run("stdio")
"""

from __future__ import annotations

from memvault.mcp.confine import AllowedDirs, PathRefused
from memvault.mcp.server import SessionSource, build_server, fixed_session

__all__ = ["AllowedDirs", "PathRefused", "SessionSource", "build_server", "fixed_session"]
