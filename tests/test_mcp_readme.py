"""The README's MCP client configurations (Claude Desktop, Claude Code, Cursor, VS Code) are
valid JSON that start a real command: the `memvault` console script, its `mcp` command, and
only options that command has."""

from __future__ import annotations

import json
import re
import tomllib

import typer.main

from memvault.cli import app
from pamdocs import REPO

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode")
_BLOCK = re.compile(r"<!-- mcp-config: ([a-z-]+) -->\n```json\n(.*?)\n```", re.DOTALL)


def _configs() -> dict[str, object]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return {name: json.loads(body) for name, body in _BLOCK.findall(readme)}


def test_readme_has_a_valid_json_configuration_for_each_client() -> None:
    configs = _configs()
    assert set(configs) == set(CLIENTS)
    # VS Code names its servers "servers"; the others "mcpServers".
    for name, config in configs.items():
        assert isinstance(config, dict)
        key = "servers" if name == "vscode" else "mcpServers"
        assert set(config) == {key}, name
        assert set(config[key]) == {"memvault"}, name


def test_each_configuration_names_the_real_command_and_its_options() -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    mcp_command = typer.main.get_command(app).commands["mcp"]  # type: ignore[attr-defined]
    options = {opt for param in mcp_command.params for opt in param.opts}
    for name, config in _configs().items():
        assert isinstance(config, dict)
        server = next(iter(config.values()))["memvault"]
        assert server["command"] in scripts, name
        args = server["args"]
        assert args[0] == "mcp", name
        given = [a for a in args[1:] if a.startswith("--")]
        assert given and set(given) <= options, (name, set(given) - options)
        # every option here takes a value: they alternate
        assert args[1::2] == given, name
        if "type" in server:
            assert server["type"] == "stdio"
