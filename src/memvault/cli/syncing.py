"""`memvault sync URL --token T`: keep this vault and a `memvault serve` tenant in step
(`memvault.sync`)."""

from __future__ import annotations

import typer

from memvault.cli.common import (
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    console,
    open_vault,
    print_json,
    short,
)

PANEL = "Server"
TOKEN_ENV = "MEMVAULT_TOKEN"


def register(app: typer.Typer) -> None:
    app.command("sync", rich_help_panel=PANEL)(sync_command)


def sync_command(
    url: str = typer.Argument(..., metavar="URL", help="The server, e.g. https://vault.example"),
    token: str = typer.Option(
        ...,
        "--token",
        envvar=TOKEN_ENV,
        metavar="KEY",
        show_default=False,
        help=f"The tenant's API key (memvault tenants create / issue). Default: ${TOKEN_ENV}.",
    ),
    timeout: float = typer.Option(60.0, "--timeout", min=1, help="Seconds to wait for the server."),
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Pull what changed on the server and push what changed here since the last sync (PAM §16
    incremental exports). Same content reinforces, the newer copy wins, content changed on both
    sides keeps both statements joined by `contradicts` (reported). Running it again changes
    nothing. An agent's token syncs only what that agent may read and write.

    Example: MEMVAULT_TOKEN=mvk_… memvault sync https://vault.example
    """
    from memvault.sync import HttpRemote, sync

    with (
        open_vault(VaultOptions(home, passphrase_file)) as vault,
        HttpRemote(url, token, timeout=timeout) as remote,
    ):
        result = sync(vault, remote)
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    who = "the owner" if result.identity == "owner" else f"agent {result.identity}"
    first = " (first sync: full exports)" if result.first else ""
    out.print(f"synced with {result.remote}, tenant {result.tenant} as {who}{first}")
    out.print(
        f"pulled {result.pulled}, pushed {result.pushed}, changed {result.changed} "
        f"(memories received {result.received}, sent {result.sent})"
    )
    if result.erased_here or result.erased_there:
        out.print(
            f"erased here {len(result.erased_here)} (erased on the server), "
            f"on the server {len(result.erased_there)} (erased here)"
        )
    for conflict in result.conflicts:
        out.print(
            f"conflict {short(conflict.memory_id)}: kept {conflict.kept!r} ({conflict.winner}, "
            f"newer); {conflict.other!r} kept as {short(conflict.other_id)}, contradicts it"
        )
    for warning in result.warnings:
        out.print(f"warning: {warning}")
