"""The `memvault` command line. Each command group lives in its own module and only parses
arguments, calls the library and renders the result:

- `vaultcmd`: init, stats, decay, audit, audit verify
- `memories`: add, list, show, edit, search
- `lifecycle`: retract, archive, deprecate, supersede, relate; `erasing`: erase
- `passphrase`: passphrase change (re-key the vault)
- `documents`: validate, inspect (PAM files, no vault needed)
- `importing`: convert (provider exports to PAM files); provider exports for `import`
- `exchange`: export, import, merge (`bundles`: their AIMEM branch, and `convert --to`)
- `signing`: keys, sign, verify; `extracting`: extract, and `import --extract`
- `recalling`: recall, conversations (list, show, search), reindex, embed
- `serving`: serve (the HTTP API)
- `tenants`: tenants (create, issue, list, revoke, rotate), token
- `db`: db migrate (the PostgreSQL database of $MEMVAULT_DATABASE_URL)
- `mcp`: mcp (the Model Context Protocol server over stdio)
- `syncing`: sync (a vault and a server's tenant kept in step)

`memvault COMMAND` loads only the module of that command (`COMMAND_MODULES`): starting up is
part of every command's time.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from typing import Final

import typer

from memvault import __version__

#: Which module registers each command. `memvault COMMAND` loads only that module (and what it
#: imports), so a command starts without loading the vault, the extractors or the importers
#: it does not use; `memvault --help` loads them all. tests/test_cli_startup.py keeps this
#: table equal to what the modules register.
COMMAND_MODULES: Final = {
    "init": "vaultcmd",
    "stats": "vaultcmd",
    "decay": "vaultcmd",
    "audit": "vaultcmd",
    "add": "memories",
    "list": "memories",
    "show": "memories",
    "edit": "memories",
    "search": "memories",
    "retract": "lifecycle",
    "archive": "lifecycle",
    "deprecate": "lifecycle",
    "supersede": "lifecycle",
    "relate": "lifecycle",
    "erase": "erasing",
    "passphrase": "passphrase",
    "validate": "documents",
    "inspect": "documents",
    "export": "exchange",
    "import": "exchange",
    "merge": "exchange",
    "convert": "importing",
    "sign": "signing",
    "verify": "signing",
    "keys": "signing",
    "extract": "extracting",
    "review": "reviewing",
    "recall": "recalling",
    "conversations": "recalling",
    "reindex": "recalling",
    "embed": "recalling",
    "serve": "serving",
    "tenants": "tenants",
    "token": "tenants",
    "db": "db",
    "backup": "backups",
    "restore": "backups",
    "mcp": "mcp",
    "sync": "syncing",
}
#: Registration order: the order of the panels in `memvault --help`.
MODULES: Final = (
    "vaultcmd",
    "memories",
    "lifecycle",
    "erasing",
    "passphrase",
    "documents",
    "exchange",
    "importing",
    "signing",
    "extracting",
    "reviewing",
    "recalling",
    "serving",
    "tenants",
    "db",
    "backups",
    "mcp",
    "syncing",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"memvault {__version__}")
        raise typer.Exit()


def build_app(modules: Iterable[str] = MODULES, *, help_text: bool = True) -> typer.Typer:
    """The `memvault` application with the commands of `modules` (default: all of them).
    `help_text`: prepare the help to be shown as written (`helptext.prepare`, ~10 ms), for
    a command line that may show help."""
    built = typer.Typer(
        name="memvault",
        help="A local-first vault for the memory AI assistants keep about you (PAM v1.0, "
        "AIMEM v1).",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @built.callback()
    def _root(
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ) -> None:
        """memvault keeps your AI memory in one place you control."""

    for name in modules:
        importlib.import_module(f"memvault.cli.{name}").register(built)
    if help_text:
        from memvault.cli.helptext import prepare

        prepare(built)
    _handle_errors(built)
    return built


def _handle_errors(app: typer.Typer) -> None:
    """Every command's errors mapped in one place (`common.handled`): a command catches an
    error only to add to its message."""
    from memvault.cli.common import handled

    for command in app.registered_commands:
        if command.callback is not None:
            command.callback = handled(command.callback)
    group_callback = app.registered_callback  # `audit` does its work in its callback
    if group_callback is not None and group_callback.callback is not None:
        group_callback.callback = handled(group_callback.callback)
    for group in app.registered_groups:
        if isinstance(group.typer_instance, typer.Typer):
            _handle_errors(group.typer_instance)


#: Command groups: with no subcommand they show their help.
GROUPS: Final = frozenset({"audit", "keys", "conversations", "tenants", "db"})


def _may_show_help(argv: list[str], command: str | None) -> bool:
    words = [a for a in argv if not a.startswith("-")]
    return (
        command not in COMMAND_MODULES
        or "-h" in argv
        or "--help" in argv
        or (command in GROUPS and len(words) < 2)
    )


def _app_for(argv: list[str]) -> typer.Typer:
    """The application `argv` needs: one command's module when the first word names a known
    command, none for a lone --version, every module otherwise (help, typos, no command)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    if command is None and "--version" in argv:
        return build_app(())
    if command in COMMAND_MODULES:
        return build_app([COMMAND_MODULES[command]], help_text=_may_show_help(argv, command))
    return build_app()


def __getattr__(name: str) -> typer.Typer:
    # `from memvault.cli import app` (tests, embedding): the full application, built once.
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(name)


#: Set to see the traceback of an unexpected error instead of the one-line report.
DEBUG_ENV = "MEMVAULT_DEBUG"


def main() -> None:
    """The console script. Expected failures (a `VaultError`) are reported by the handler every
    command runs in (`common.report`); an unexpected one (a bug) is still one line, exit 70,
    unless $MEMVAULT_DEBUG is set."""
    try:
        application = _app_for(sys.argv[1:])
    except KeyboardInterrupt:  # while starting up, before any command ran
        print("\nerror: interrupted; nothing was done", file=sys.stderr)
        sys.exit(130)
    try:
        application()
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
