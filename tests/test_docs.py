"""Every command is documented: in the README tour and in its own --help."""

from __future__ import annotations

import re

import typer
import typer.main
from typer.testing import CliRunner

from memvault.cli import app
from pamdocs import REPO

runner = CliRunner()


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    names: list[str] = []
    for name, command in getattr(group, "commands", {}).items():
        if hasattr(command, "commands"):
            names.extend(f"{name} {sub}" for sub in command.commands)
        else:
            names.append(name)
    return names


def test_every_command_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [c for c in _commands() if not re.search(rf"memvault {re.escape(c)}\b", readme)]
    assert not missing, f"README.md does not document: {missing}"


def test_every_command_has_help() -> None:
    for command in _commands():
        result = runner.invoke(app, [*command.split(), "--help"])
        assert result.exit_code == 0, command
        assert len(result.output.strip().splitlines()) > 3, command


def test_readme_starts_with_the_two_commands() -> None:
    head = "\n".join((REPO / "README.md").read_text(encoding="utf-8").splitlines()[:40])
    assert "make run" in head and "make test" in head


def test_the_readme_documentation_list_names_each_document_once_and_it_exists() -> None:
    """The README's closing list of documents: every link resolves to a file, and no document
    is listed twice (docs/scaling.md once was, with two different descriptions)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listing = readme.split("\n## Documentation\n", 1)[1]
    linked = re.findall(r"^- \[[^\]]+\]\(([^)]+)\)", listing, re.MULTILINE)
    assert linked, "no documentation list"
    assert [p for p in linked if not (REPO / p).is_file()] == []
    assert sorted({p for p in linked if linked.count(p) > 1}) == []
