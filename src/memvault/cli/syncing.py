"""`memvault sync URL --token T`: keep this vault and a `memvault serve` tenant in step
(`memvault.sync`)."""

from __future__ import annotations

from typing import Any

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
from memvault.findings import counted

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
    incremental exports).

    Same content reinforces, the newer copy wins, content changed on both sides keeps both
    statements joined by `contradicts` (reported). What the pull has just brought is not sent
    back. The summary gives one line a direction: the memories received
    from the server and what became of them here (new, updated, merged, already here), then
    those sent and what became of them there. Running it again changes nothing. An agent's
    token syncs only what that agent may read and write.

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
    out.print(side_line("from the server", "received", "here", result.received, result.pull))
    out.print(side_line("to the server", "sent", "there", result.sent, result.push))
    if result.erased_here or result.erased_there:
        out.print(
            f"erased: {counted(len(result.erased_here), 'memory', 'memories')} here "
            f"(erased on the server), {counted(len(result.erased_there), 'memory', 'memories')}"
            " on the server (erased here)"
        )
    if not result.changed:
        out.print("nothing changed on either side")
    for conflict in result.conflicts:
        out.print(
            f"conflict {short(conflict.memory_id)}: kept {conflict.kept!r} ({conflict.winner}, "
            f"newer); {conflict.other!r} kept as {short(conflict.other_id)}, contradicts it"
        )
    for warning in result.warnings:
        out.print(f"warning: {warning}")


#: What an import report counts, in the words a sync's summary uses (``{where}``: here/there).
_EFFECTS = (
    ("created", "new {where}"),
    ("updated", "updated {where}"),
    ("reinforced", "merged {where} with the same content"),
    ("unchanged", "already {where}"),
)
_ALSO = (
    ("relations", "relation", None),
    ("conversations", "conversation", None),
    ("embeddings", "embedding", None),
)


def side_line(label: str, verb: str, where: str, travelled: int, report: dict[str, Any]) -> str:
    """One direction of a sync in plain words: how many memories travelled and what became of
    them on the receiving side, plus relations, conversations and embeddings applied, e.g.
    ``from the server: 27 memories received (27 new here)``."""
    also = [
        counted(int(report.get(key) or 0), noun, plural)
        for key, noun, plural in _ALSO
        if report.get(key)
    ]
    if not travelled and not also:
        return f"{label}: nothing {verb}"
    effects = [
        f"{report.get(key)} {words.format(where=where)}"
        for key, words in _EFFECTS
        if report.get(key)
    ]
    text = f"{label}: {counted(travelled, 'memory', 'memories')} {verb}"
    if effects:
        text += f" ({', '.join(effects)})"
    if also:
        text += "; " + ", ".join(also)
    return text
