"""The `memvault` command line. Each command group lives in its own module and only parses
arguments, calls the library and renders the result."""

from __future__ import annotations

import typer

from memvault import __version__
from memvault.cli import documents

app = typer.Typer(
    name="memvault",
    help="A local-first vault for the memory AI assistants keep about you (PAM v1.0, AIMEM v1).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"memvault {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """memvault keeps your AI memory in one place you control."""


documents.register(app)


def main() -> None:
    app()
