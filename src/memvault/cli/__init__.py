"""The `memvault` command line. Each command group lives in its own module and only parses
arguments, calls the library and renders the result:

- `vaultcmd`: init, stats, decay, audit, audit verify
- `memories`: add, list, show, edit, search
- `lifecycle`: retract, archive, deprecate, supersede, relate
- `documents`: validate, inspect (PAM files, no vault needed)
"""

from __future__ import annotations

import os
import sys

import typer

from memvault import __version__
from memvault.cli import documents, exchange, lifecycle, memories, signing, vaultcmd

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


vaultcmd.register(app)
memories.register(app)
lifecycle.register(app)
documents.register(app)
exchange.register(app)
signing.register(app)

#: Set to see the traceback of an unexpected error instead of the one-line report.
DEBUG_ENV = "MEMVAULT_DEBUG"


def main() -> None:
    """The console script. Expected failures are reported by the commands themselves; an
    unexpected one (a bug) is still one line, exit 70, unless $MEMVAULT_DEBUG is set."""
    try:
        app()
    except BrokenPipeError:  # e.g. `memvault list | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        print(
            f"memvault: internal error: {type(exc).__name__}: {exc} (please report it; set "
            f"{DEBUG_ENV}=1 to see the traceback)",
            file=sys.stderr,
        )
        sys.exit(70)
