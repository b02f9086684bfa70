"""`memvault mcp`: the vault as a Model Context Protocol server over stdio, for Claude
Desktop, Claude Code, Cursor, VS Code and other MCP clients (`memvault.mcp`)."""

from __future__ import annotations

from pathlib import Path

import typer

from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_USAGE,
    JsonOption,
    VaultOptions,
    fail,
    open_vault,
    unset_option,
    usage_error,
    vault_command,
)

PANEL = "Agents"


def register(app: typer.Typer) -> None:
    app.command("mcp", rich_help_panel=PANEL)(mcp)


@vault_command
def mcp(
    allow_dir: list[Path] | None = unset_option(
        "--allow-dir",
        metavar="DIR",
        help="A folder export_memory may write to and import_memory read from (repeatable). "
        "Without one, files are refused and content travels inline.",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Serve the vault to an MCP client over stdio: tools remember, recall, forget,
    list_memories, update_memory, supersede, export_memory, import_memory; the memory store
    and a memory context as resources; a memory_context prompt.

    With --as AGENT the client acts as that PAM §9 entity: it sees and changes only what the
    agent's grants allow. The passphrase comes from --passphrase-file or $MEMVAULT_PASSPHRASE
    (stdin carries the protocol, so there is no prompt).

    Example (Claude Desktop, Cursor, VS Code): {"command": "memvault", "args": ["mcp",
    "--as", "agent-desktop", "--allow-dir", "~/Documents/memvault"]}

    --json: a failure before the server starts (no passphrase, a wrong one) is also printed
    as a JSON error body on stdout, for the program that started it; once it runs, stdout
    carries the protocol only.
    """
    try:
        from memvault.mcp import AllowedDirs, build_server, fixed_session
    except ModuleNotFoundError as exc:
        if exc.name != "mcp" and not (exc.name or "").startswith("mcp."):
            raise
        fail("the MCP server needs the mcp package: pip install 'memvault[mcp]'", EXIT_USAGE)
    folders = allow_dir or []
    for folder in folders:
        if not folder.expanduser().is_dir():
            usage_error(f"{folder} is not a folder", "--allow-dir")
    with open_vault(options, arguments=True) as vault:
        server = build_server(fixed_session(vault), allowed=AllowedDirs(folders))
        server.run("stdio")
