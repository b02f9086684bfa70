"""One error tree (issue #16, "Build" 5): every exception class memvault defines derives from
`VaultError` and knows its CLI exit code and HTTP status, as docs/errors.md documents them;
the command line maps them in one place (`cli.common.report`)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import memvault
from memvault.errors import VaultError
from memvault.formats.aimem.errors import BundleError, Problem
from pamdocs import REPO

#: Exceptions that are no error: a signal a command raises to itself and catches, never
#: reported (the reason is the value). `decay --dry-run` used to raise one to roll its
#: transaction back; `Vault.decay(dry_run=True)` now writes nothing in the first place. The MCP
#: server's unrecorded export still does.
CONTROL_FLOW: dict[str, str] = {
    "memvault.mcp.transfer._Unrecorded": "rolls back the transaction of an export that must "
    "leave no trace (the MCP memory-store resource is a read, not an export)",
    "memvault.exchange.aimem._NotPlain": "rolls back the one pass of an AIMEM import at the "
    "first record it does not take; the two passes then import the bundle and report",
}
EXIT_CODES = {1, 2}
HTTP_STATUSES = {400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 502, 503, 507}
ROW = re.compile(
    r"^\| `(?P<name>\w+)` \| `(?P<parent>\w+)` \| `(?P<module>[\w.]+)` \| (?P<exit>\d+) \| "
    r"(?P<http>\d+) \|"
)


def _exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of src/memvault, by its dotted name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(memvault.__path__, "memvault."):
        if info.name.endswith(".__main__"):  # running it is the command line
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{value.__qualname__}"] = value
    return found


def _documented() -> dict[str, re.Match[str]]:
    text = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = (ROW.match(line) for line in text.splitlines())
    return {f"{m['module']}.{m['name']}": m for m in rows if m}


def test_sixteen_roots_outside_vault_error_are_one_tree() -> None:
    """Every exception memvault defines is a `VaultError` (there were sixteen roots outside
    it), so ``except VaultError`` catches every failure a user can act on."""
    classes = _exception_classes()
    assert len(classes) > 40  # the walk found the modules
    outside = sorted(
        name
        for name, cls in classes.items()
        if name not in CONTROL_FLOW and not issubclass(cls, VaultError)
    )
    assert not outside, f"not under VaultError: {outside}"
    assert set(CONTROL_FLOW) <= set(classes), "a control-flow signal listed here is gone"


def test_every_error_knows_its_exit_code_and_http_status() -> None:
    for name, cls in _exception_classes().items():
        if name in CONTROL_FLOW:
            continue
        assert issubclass(cls, VaultError)
        assert cls.exit_code in EXIT_CODES, name
        assert cls.http_status in HTTP_STATUSES, name


def test_every_error_maps_as_docs_errors_md_documents() -> None:
    """The table in docs/errors.md lists every class, its parent, exit code and HTTP status."""
    classes = {
        n: c for n, c in _exception_classes().items() if not n.rsplit(".", 1)[1].startswith("_")
    }
    documented = _documented()
    assert sorted(documented) == sorted(classes)
    for name, row in documented.items():
        cls = classes[name]
        assert cls.__bases__[0].__name__ == row["parent"], name
        assert (cls.exit_code, cls.http_status) == (int(row["exit"]), int(row["http"])), name


def test_a_bundle_error_answers_409_for_a_checksum_mismatch() -> None:
    """AIMEM HTTP profile: a checksum mismatch is 409, any other malformed bundle 422 — the
    instance's `http_status` is its first problem's."""
    mismatch = BundleError([Problem("checksum-mismatch", "the checksum differs", status=409)])
    malformed = BundleError([Problem("schema", "not an object")])
    assert (mismatch.http_status, malformed.http_status) == (409, 422)
    assert (mismatch.exit_code, malformed.exit_code) == (1, 1)


def test_backwards_compatible_names_still_import() -> None:
    from memvault.errors import ConvertError, ExportError
    from memvault.exchange import ExchangeError
    from memvault.exchange import ExportError as ExchangeExportError
    from memvault.exchange.aimem import ConvertError as AimemConvertError
    from memvault.importers.convert import ConvertError as ProviderConvertError

    assert AimemConvertError is ConvertError is ProviderConvertError
    assert ExchangeExportError is ExportError and issubclass(ConvertError, ExchangeError)


def test_convert_error_is_defined_once() -> None:
    """`ConvertError` was two classes (exchange and provider conversion); one now."""
    converts = [n for n in _exception_classes() if n.rsplit(".", 1)[1] == "ConvertError"]
    assert converts == ["memvault.errors.ConvertError"]


def _app(error: VaultError) -> typer.Typer:
    from memvault.cli.common import handled, vault_errors

    app = typer.Typer()

    @app.command()
    def fails() -> None:
        raise error

    @app.command()
    def from_a_file() -> None:
        with vault_errors():
            raise error

    for command in app.registered_commands:
        assert command.callback is not None
        command.callback = handled(command.callback)
    return app


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (VaultError("refused"), 1),
        (BundleError([Problem("checksum-mismatch", "bad checksum", status=409)]), 1),
        (memvault.errors.InvalidInput("--confidence: must be in [0, 1]"), 2),
        (memvault.errors.ConflictingInput("memory m1 is retracted"), 1),
    ],
)
def test_the_command_line_maps_an_error_in_one_place(error: VaultError, code: int) -> None:
    """An error a command does not catch is one line on stderr and its class's exit code; a
    malformed value read from a file (inside `vault_errors()`) is the vault refusing, 1."""
    app = _app(error)
    runner = CliRunner()
    result = runner.invoke(app, ["fails"])
    assert (result.exit_code, result.stderr) == (code, f"error: {error}\n")
    assert not isinstance(result.exception, VaultError)
    from_file = runner.invoke(app, ["from-a-file"])
    assert (from_file.exit_code, from_file.stderr) == (1, f"error: {error}\n")


def test_every_command_of_the_application_is_handled() -> None:
    """`build_app` wraps every command, groups' included, in the one handler."""
    from memvault.cli import build_app

    app = build_app(help_text=False)
    callbacks = [c.callback for c in app.registered_commands] + [
        c.callback
        for g in app.registered_groups
        if isinstance(g.typer_instance, typer.Typer)
        for c in g.typer_instance.registered_commands
    ]
    assert callbacks and all(getattr(c, "__wrapped__", None) for c in callbacks)
    assert all(Path(inspect.getfile(c)).name == "common.py" for c in callbacks if c)
