"""What every vault command shares: the `--home` / `--passphrase-file` / `--as` / `--json`
options, opening the vault, asking for the passphrase, turning a `VaultError` into one line on
stderr, and printing JSON.

Exit codes of the vault commands: 0 done; 1 the vault refused or failed (the message is the
library's: it names the id, field or rule); 2 the command line itself is wrong (an unknown
option, a malformed value, a missing passphrase with no terminal to ask on).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import orjson
import typer
from rich.console import Console
from rich.markup import escape

from memvault import local, shapes
from memvault.errors import (
    AmbiguousId,
    InvalidInput,
    VaultError,
)
from memvault.model import MISSING, Memory
from memvault.paths import HOME_ENV, PASSPHRASE_ENV

if TYPE_CHECKING:
    from memvault.findings import Finding

    # The vault (SQLCipher, the store, the audit log) loads when a command opens one.
    from memvault.vault import Vault

P = ParamSpec("P")
R = TypeVar("R")

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
#: Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: How many characters of an id the tables show (`show` and friends accept any unique prefix).
SHORT_ID = 8


def unset_flag(*flags: str, metavar: str | None = None, help: str) -> Any:
    """`unset_option` for an ``Annotated`` parameter type (whose default is given with ``=``):
    an option that is None unless given, its absent default not shown in --help."""
    return typer.Option(*flags, metavar=metavar, show_default=False, help=help)


HomeOption = Annotated[
    Path | None,
    unset_flag(
        "--home",
        metavar="PATH",
        help=f"The vault directory. Default: ${HOME_ENV}, else the platform's user data "
        "directory (e.g. ~/.local/share/memvault).",
    ),
]
PassphraseFileOption = Annotated[
    Path | None,
    typer.Option(
        "--passphrase-file",
        metavar="FILE",
        exists=True,
        dir_okay=False,
        show_default=False,
        help=f"Read the passphrase from the first line of FILE. Default: ${PASSPHRASE_ENV}, "
        "else a hidden prompt.",
    ),
]
#: The one `--as` of every command that reads or writes the vault: the session `open_vault`
#: makes acts as this agent (docs/access.md).
ActorOption = Annotated[
    str | None,
    unset_flag(
        "--as",
        metavar="AGENT",
        help="Act as this agent entity: the vault allows only what its grants allow (PAM §9). "
        "Default: the owner.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@dataclass(frozen=True, slots=True)
class VaultOptions:
    """Where the vault is, how to unlock it, and who is acting (`--as`; None: the owner)."""

    home: Path | None = None
    passphrase_file: Path | None = None
    actor: str | None = None

    @property
    def root(self) -> Path:
        return local.find_home(self.home)


def command_group(help: str) -> typer.Typer:
    """A group of subcommands (`memvault keys …`): given no subcommand, it shows its help."""
    return typer.Typer(
        help=help, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]}
    )


def unset_option(*flags: str, metavar: str | None = None, help: str) -> Any:
    """An option that is None unless given (``--flag VALUE``), its absent default not shown
    in --help (the help says what happens without it)."""
    return typer.Option(None, *flags, metavar=metavar, show_default=False, help=help)


#: The default of a `vault_command`'s ``options`` parameter, which the command line gives.
COMMAND_LINE = VaultOptions()


def grouped_options(
    name: str, build: Callable[..., Any], **options: Any
) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator for commands sharing a group of options: the command's parameter `name` is
    given on the command line as `options` (parameter name: its ``Annotated`` type, each
    defaulting to None), in its place in --help; the command gets ``build(**their values)``."""

    def decorate(command: Callable[..., R]) -> Callable[..., R]:
        signature = inspect.signature(command, eval_str=True)
        parameters: list[inspect.Parameter] = []
        for parameter in signature.parameters.values():
            if parameter.name != name:
                parameters.append(parameter)
                continue
            parameters += [
                parameter.replace(name=option, annotation=annotation, default=None)
                for option, annotation in options.items()
            ]

        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> R:
            given = {option: kwargs.pop(option, None) for option in options}
            return command(*args, **{name: build(**given)}, **kwargs)

        # What Typer reads the command line from.
        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        run.__annotations__["return"] = signature.return_annotation
        return run

    return decorate


#: A command that opens the vault: its ``options: VaultOptions = COMMAND_LINE`` parameter is
#: given on the command line as --home, --passphrase-file and --as.
vault_command = grouped_options(
    "options",
    VaultOptions,
    home=HomeOption,
    passphrase_file=PassphraseFileOption,
    actor=ActorOption,
)


# -- output ---------------------------------------------------------------------------------


def console() -> Console:
    # emoji=False: Rich would otherwise render "did:key:" as "did🔑".
    return Console(highlight=False, soft_wrap=True, emoji=False)


#: Whether the running command was given --json (set by `handled`): its failures then also
#: print the error body (`memvault.shapes`) on stdout, for the program reading it.
_JSON_OUTPUT: contextvars.ContextVar[bool] = contextvars.ContextVar("json_output", default=False)
#: Whether the running command has printed its JSON result: a failure reported after it (an
#: audit chain that does not verify) adds no second document to stdout.
_JSON_PRINTED: contextvars.ContextVar[bool] = contextvars.ContextVar("json_printed", default=False)


def fail(
    message: str, code: int = EXIT_REFUSED, *, body: Mapping[str, Any] | None = None
) -> NoReturn:
    """One line on stderr, then exit with `code`. With --json, the error body too, on stdout
    (`body`, else `shapes.command_error_json`)."""
    if _JSON_OUTPUT.get() and not _JSON_PRINTED.get():
        print_json(shapes.command_error_json(message, code) if body is None else body)
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def usage_error(message: str, option: str | None = None) -> NoReturn:
    """A usage error (exit 2), reported the way Typer reports a bad option value."""
    raise typer.BadParameter(message, param_hint=f"'{option}'" if option else None)


def require_input(path: str | Path) -> None:
    """An input path the command line names must exist ('-', standard input, always does):
    else one line, "no such file", exit 2 — before anything tries to read it as PAM."""
    if str(path) != "-" and not os.path.lexists(path):
        fail(f"{path}: no such file or directory", EXIT_USAGE)


def check_timestamp(value: str, option: str) -> None:
    """A date or date-time option (`--since`) that does not parse is a usage error."""
    from memvault.model import parse_timestamp

    try:
        parse_timestamp(value)
    except ValueError:
        usage_error(f"{value!r} is not an ISO 8601 date-time such as 2025-01-31T12:00:00Z", option)


def print_json(payload: Any) -> None:
    _JSON_PRINTED.set(True)
    sys.stdout.flush()
    sys.stdout.buffer.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.buffer.flush()


def short(memory_id: str | None) -> str:
    return "—" if not memory_id else memory_id[:SHORT_ID]


def _shared_length(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def unique_prefixes(vault: Vault, memory_ids: Iterable[str | None]) -> dict[str, str]:
    """The shortest prefix (at least `SHORT_ID` characters) that `vault.resolve` maps back to
    each id, like git's abbreviated hashes: what the tables show, and what `show` accepts.
    Ids the vault does not know (an erased memory) are given in full."""
    found: dict[str, str] = {}
    for full in memory_ids:
        if not full or full in found:
            continue
        length = SHORT_ID
        while length < len(full):
            try:
                if vault.resolve(full[:length]) == full:
                    break
                length += 1  # another id is exactly this prefix (ids need not be UUIDs)
            except AmbiguousId as exc:
                shared = [_shared_length(full, c) for c in exc.candidates if c != full]
                length = max(length, *shared) + 1
            except VaultError:
                length = len(full)
        found[full] = full[:length]
    return found


def text_of(value: object, empty: str = "—") -> str:
    """A model value for display: absent and null become `empty`."""
    if value is MISSING or value is None:
        return empty
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value) or empty
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def clip(text: str, width: int = 72) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def type_label(memory: Memory) -> str:
    custom = memory.custom_type
    return f"custom:{custom}" if isinstance(custom, str) else memory.type


def confidence_of(memory: Memory) -> str:
    conf = memory.confidence
    current = None if conf is MISSING else getattr(conf, "current", None)
    return f"{current:.2f}" if isinstance(current, int | float) else "—"


# -- errors ---------------------------------------------------------------------------------


def report(exc: VaultError, *, arguments: bool = True) -> NoReturn:
    """The one place the command line maps an error memvault raised: its message on stderr,
    exit with the code its class knows (`VaultError.exit_code`, docs/errors.md).

    `arguments`: the values the command handed the vault were the command line's own, so a
    value the vault finds malformed (`InvalidInput`) is a usage error, exit 2 — as the README
    promises. Where values come from files (`import`), it is the vault refusing the data,
    exit 1."""
    code = exc.exit_code
    if code == EXIT_USAGE and not arguments:
        code = EXIT_REFUSED
    fail(str(exc) or type(exc).__name__, code, body=shapes.error_json(exc, exit_code=code))


@contextlib.contextmanager
def vault_errors(*, arguments: bool = False) -> Iterator[None]:
    """Every `VaultError` raised inside becomes its message on stderr and its exit code
    (`report`). The messages are written for users: they name the id, field or path and the
    rule."""
    try:
        yield
    except VaultError as exc:
        report(exc, arguments=arguments)


def handled(command: Callable[P, R]) -> Callable[P, R]:
    """A command whose errors escaping it are reported by `report` (`build_app` wraps every
    command in it), so a command catches an error only to add to what it says."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = _JSON_OUTPUT.set(bool(kwargs.get("as_json")) or _JSON_OUTPUT.get())
        printed = _JSON_PRINTED.set(False)
        try:
            return command(*args, **kwargs)
        except VaultError as exc:
            report(exc)
        finally:
            _JSON_PRINTED.reset(printed)
            _JSON_OUTPUT.reset(token)

    return run


NOTHING_IMPORTED = "nothing was imported"
NOTHING_WRITTEN = "nothing was written"
IMPORT_COMMITTED = (
    "the import had already been committed and stays; what came after it was not done"
)
#: What the running command has done so far, for the message of a Ctrl-C (`interruptible`).
_DONE: list[str] = []


def interruptible(nothing_done: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A command that says, on Ctrl-C, what it leaves behind before exiting 130:
    `nothing_done` until it calls `done_so_far` (once a transaction has committed: the vault
    rolls back one that has not)."""

    def decorate(command: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(command)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            _DONE.append(nothing_done)
            try:
                return command(*args, **kwargs)
            except KeyboardInterrupt:
                typer.echo("", err=True)  # past the ^C the terminal echoed
                fail(f"interrupted; {_DONE[-1]}", EXIT_INTERRUPTED)
            finally:
                _DONE.pop()

        return run

    return decorate


def bulk_command(command: Callable[P, R]) -> Callable[P, R]:
    """A command that reads, writes or checks whole files (import, export, convert,
    validate…): run inside `memvault.bulk.interpreter_tuning`, so that the library's bulk
    paths may pause the garbage collector and shorten the switch interval — process-wide
    settings that are this process's to change, as a server worker's are not."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        from memvault.bulk import interpreter_tuning

        with interpreter_tuning():
            return command(*args, **kwargs)

    return run


def done_so_far(text: str) -> None:
    """What a Ctrl-C from now on leaves behind (see `interruptible`)."""
    if _DONE:
        _DONE[-1] = text


# -- the passphrase -------------------------------------------------------------------------


def _ask(new: bool) -> str:
    """The hidden prompt `memvault.local` calls when there is a terminal (twice for a new
    vault); Ctrl-D or Ctrl-C at it: exit 2."""
    try:
        value: str = typer.prompt(
            "New passphrase" if new else "Passphrase",
            hide_input=True,
            confirmation_prompt="Repeat the passphrase" if new else False,
            err=True,
        )
    except typer.Abort:
        fail("no passphrase given", EXIT_USAGE)
    return value


@contextlib.contextmanager
def _passphrase_usage() -> Iterator[None]:
    """A passphrase that cannot be had (no source, an unreadable file) is a usage error:
    exit 2 with `memvault.local`'s message, which says how to give one."""
    try:
        yield
    except InvalidInput as exc:
        if exc.field != local.PASSPHRASE_FIELD:
            raise
        fail(str(exc), EXIT_USAGE)


def read_passphrase(options: VaultOptions, *, new: bool = False) -> str:
    """The passphrase from `--passphrase-file`, else ``$MEMVAULT_PASSPHRASE``, else a hidden
    prompt (asked twice when creating a vault): `memvault.local.resolve_passphrase`. With no
    terminal and no passphrase: exit 2 with a message that says how to give one — never a
    prompt that waits forever."""
    with _passphrase_usage():
        return local.resolve_passphrase(
            passphrase_file=options.passphrase_file, prompt=_ask, new=new
        )


# -- opening the vault ----------------------------------------------------------------------


@contextlib.contextmanager
def open_vault(options: VaultOptions, *, arguments: bool = False) -> Iterator[Vault]:
    """Open the vault for one command (`memvault.local.open_vault`) and yield the session
    the command acts in: the owner's, or with `--as AGENT` the agent's (`Vault.acting_as`),
    made here and nowhere else. Errors inside the block are reported as `vault_errors` does
    (`arguments`: the command hands the vault only its command line's values). A missing
    vault is reported before the passphrase is asked for."""
    with vault_errors(arguments=arguments):
        with _passphrase_usage():
            vault = local.open_vault(
                options.home, passphrase_file=options.passphrase_file, prompt=_ask
            )
        try:
            yield vault if options.actor is None else _session(vault, options.actor)
        finally:
            vault.close()


def _session(vault: Vault, actor: str) -> Vault:
    try:
        return vault.acting_as(actor)
    except InvalidInput as exc:  # an empty name
        usage_error(str(exc), "--as")


def create_vault(options: VaultOptions, *, owner_id: str | None, did: str | None) -> Vault:
    """`memvault.local.init_vault`: the passphrase asked for (twice) only when the home is
    free."""
    with vault_errors(arguments=True), _passphrase_usage():
        return local.init_vault(
            options.home,
            passphrase_file=options.passphrase_file,
            prompt=_ask,
            owner_id=owner_id,
            did=did,
        )


#: How many validation findings a refused import or merge lists.
SHOWN_FINDINGS = 20


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``3 memories``, ``1 relation``."""
    return f"{count} {singular if count == 1 else plural_form or singular + 's'}"


def refuse_with_findings(
    headline: str,
    findings: Sequence[Finding],
    full: str,
    *,
    nothing: str = "nothing was changed",
    error: VaultError | None = None,
) -> NoReturn:
    """A refused import or merge: the headline, then the findings (at most `SHOWN_FINDINGS`),
    exit 1 — or `full` alone when there are no findings. With --json the error body (of
    `error`, findings included) goes to stdout."""
    body = None if error is None else shapes.error_json(error, exit_code=EXIT_REFUSED)
    if not findings:
        fail(full, body=body)
    if _JSON_OUTPUT.get() and not _JSON_PRINTED.get():
        print_json(body or shapes.command_error_json(full, EXIT_REFUSED))
    typer.echo(f"error: {headline}; {nothing}", err=True)
    for finding in findings[:SHOWN_FINDINGS]:
        where = f"{finding.file}: " if finding.file else ""
        # the rule's code names it for a search or a bug report (format-invalid, …)
        rule = f"{finding.code}, {finding.section}" if finding.section else finding.code
        typer.echo(f"  {where}{finding.path}: {finding.message} ({rule})", err=True)
    if len(findings) > SHOWN_FINDINGS:
        typer.echo(f"  … and {len(findings) - SHOWN_FINDINGS} more", err=True)
    raise typer.Exit(EXIT_REFUSED)


def print_warnings(out: Console, warnings: Iterable[str]) -> None:
    """A command's warnings after its summary; one about data whose signature does not verify
    (`--allow-unverified`) in bold red (PAM §18.4)."""
    from memvault.findings import SIGNATURE_WARNING

    for warning in warnings:
        if warning.startswith(SIGNATURE_WARNING):
            out.print(f"[bold red]WARNING: {escape(warning)}[/]")
        else:
            out.print(f"[yellow]warning:[/] {escape(warning)}")


def print_withheld(out: Console, withheld: int) -> None:
    """How many memories an export left out for being marked exportable: false (PAM §21.1)."""
    if withheld:
        verb = "was" if withheld == 1 else "were"
        out.print(
            f"  {plural(withheld, 'memory', 'memories')} marked exportable: false {verb} left out."
        )


def loud_signature_warnings(warnings: Sequence[str]) -> None:
    """Data used although its signature does not verify (`--allow-unverified`): each such
    warning on stderr, whatever else is printed (PAM §18.4 SHOULD warn)."""
    from memvault.findings import SIGNATURE_WARNING

    for warning in warnings:
        if warning.startswith(SIGNATURE_WARNING):
            typer.echo(f"WARNING: {warning}", err=True)
