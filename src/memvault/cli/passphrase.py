"""`memvault passphrase change`: re-encrypt the vault with a new passphrase
(`Vault.change_passphrase`, `memvault.rekey`); this command only asks for the two passphrases.

Exit codes: 0 changed; 1 refused (wrong current passphrase, the vault open in another
process, the new one equal to the old); 2 usage (a passphrase that cannot be had).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from memvault import local
from memvault.cli.common import (
    EXIT_USAGE,
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    command_group,
    console,
    fail,
    print_json,
    read_passphrase,
    vault_errors,
)
from memvault.errors import VaultError

PANEL = "Vault"

passphrase_app = command_group("The passphrase the vault is encrypted with.")


def register(app: typer.Typer) -> None:
    app.add_typer(passphrase_app, name="passphrase", rich_help_panel=PANEL)


def _new_passphrase(home: Path | None, new_file: Path | None) -> str:
    """From --new-passphrase-file, else asked twice at the terminal; never from the
    environment (its variable holds the current passphrase)."""
    if new_file is not None:
        return read_passphrase(VaultOptions(home, new_file))
    if not local.interactive():
        fail(
            "no new passphrase: give --new-passphrase-file FILE (there is no terminal to ask "
            "on); the passphrase was not changed",
            EXIT_USAGE,
        )
    try:
        value: str = typer.prompt(
            "New passphrase",
            hide_input=True,
            confirmation_prompt="Repeat the new passphrase",
            err=True,
        )
    except typer.Abort:
        fail("no new passphrase given; the passphrase was not changed", EXIT_USAGE)
    return value


@passphrase_app.command("change")
def change(
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    new_passphrase_file: Annotated[
        Path | None,
        typer.Option(
            "--new-passphrase-file",
            metavar="FILE",
            exists=True,
            dir_okay=False,
            show_default=False,
            help="Read the new passphrase from the first line of FILE. Default: a hidden "
            "prompt, asked twice.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Re-encrypt the vault with a new passphrase.

    Asks for the current passphrase (--passphrase-file, $MEMVAULT_PASSPHRASE or a prompt) and the
    new one (--new-passphrase-file or a prompt, twice). Every page of the database is
    re-encrypted in one transaction: if it is interrupted, the vault opens with exactly one
    of the two passphrases and nothing in it is lost. Memories, keys and the audit log are
    kept as they are; the change is recorded in the audit log. Close other memvault
    processes using the vault first.

    Example: memvault passphrase change
    """
    options = VaultOptions(home, passphrase_file)
    with vault_errors():
        root = local.existing_home(home)
    old = read_passphrase(options)
    new = _new_passphrase(home, new_passphrase_file)
    from memvault.vault import Vault

    try:
        vault = Vault.open(root, old)
        try:
            vault.change_passphrase(old, new)
        finally:
            vault.close()
    except VaultError as exc:
        fail(
            f"{exc}; the passphrase was not changed" if "not changed" not in str(exc) else str(exc)
        )
    if as_json:
        print_json({"home": str(root), "changed": True})
        return
    console().print(
        f"[green]✓[/] The vault at {root} is now encrypted with the new passphrase; the old "
        "one no longer opens it."
    )
