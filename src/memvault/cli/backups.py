"""`memvault backup DEST` and `memvault restore SRC` (`memvault.backup`, docs/backup.md).

Exit codes: 0 done; 1 refused (the destination or the home is not empty, the backup does not
verify, a wrong passphrase); 2 usage (no passphrase to be had).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from memvault.cli.common import (
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    console,
    open_vault,
    plural,
    print_json,
    read_passphrase,
    vault_errors,
)

PANEL = "Vault"


def register(app: typer.Typer) -> None:
    app.command("backup", rich_help_panel=PANEL)(backup)
    app.command("restore", rich_help_panel=PANEL)(restore)


def backup(
    dest: Annotated[
        Path, typer.Argument(metavar="DEST", help="A new (or empty) directory for the backup.")
    ],
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Back up the vault, live: a server or another command may keep writing meanwhile.

    A vault file is copied with SQLite's online backup API — one consistent snapshot, still
    encrypted with the vault's passphrase. On PostgreSQL ($MEMVAULT_DATABASE_URL) the tenant
    is backed up as its full PAM export (signed with the vault's key when it has one) and its
    AIMEM bundle; back up the whole database with pg_dump (docs/backup.md).

    Example: memvault backup /backups/vault-2026-11-27

    With --json: {"path", "kind", "taken_at", "owner_id", "bytes", "signed"}.
    """
    from memvault.backup import backup as take

    with open_vault(VaultOptions(home, passphrase_file), arguments=True) as vault:
        result = take(vault, dest)
    if as_json:
        print_json(result.to_json())
        return
    what = "an encrypted copy of the vault" if result.kind == "sqlite-copy" else "its exports"
    signed = " (signed)" if result.signed else ""
    console().print(
        f"[green]✓[/] Backed up {what}{signed} to {result.path} ({result.bytes:,} bytes)."
    )


def restore(
    source: Annotated[
        Path,
        typer.Argument(
            metavar="SRC", exists=True, file_okay=False, help="A directory `backup` wrote."
        ),
    ],
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Restore a backup into an empty home (or, on PostgreSQL, an empty tenant).

    The vault is checked before it is put in place: the backup's passphrase opens it, its
    integrity check passes and its audit chain verifies. A home or tenant that holds anything
    is refused and left as it is.

    Example: MEMVAULT_HOME=~/vault-restored memvault restore /backups/vault-2026-11-27

    With --json: {"target", "kind", "memories", "conversations", "audit_entries"}.
    """
    from memvault.backup import restore_home, restore_into
    from memvault.store.factory import DATABASE_URL_ENV

    options = VaultOptions(home, passphrase_file)
    if os.environ.get(DATABASE_URL_ENV, "").strip():
        from memvault import local
        from memvault.errors import VaultExists

        with vault_errors(arguments=True):
            try:
                vault = local.init_vault()
            except VaultExists:
                vault = local.open_vault()
            try:
                result = restore_into(vault, source)
            finally:
                vault.close()
    else:
        root = options.root
        with vault_errors(arguments=True):
            passphrase = read_passphrase(options)
            result = restore_home(source, root, passphrase)
    if as_json:
        print_json(result.to_json())
        return
    console().print(
        f"[green]✓[/] Restored {plural(result.memories, 'memory', 'memories')} and "
        f"{plural(result.conversations, 'conversation')} into {result.target}; the "
        "integrity check passed and the audit chain "
        f"({plural(result.audit_entries, 'entry', 'entries')}) verifies."
    )
