"""`memvault review`: changes unattended extraction proposed for DNA-class memories (AIMEM
§5.1), listed for the owner to accept or reject (`memvault.extract.review`)."""

from __future__ import annotations

import typer
from rich.markup import escape

from memvault import shapes
from memvault.cli.common import (
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    console,
    open_vault,
    print_json,
)

PANEL = "Lifecycle and relations"

review_app = typer.Typer(
    help="Changes background extraction proposed: list them (the default), accept or reject."
    "\n\nExample: memvault review, then memvault review accept 5e6f7a8b",
    no_args_is_help=False,
    invoke_without_command=True,
)
IdArgument = typer.Argument(..., metavar="ID", help="The proposed memory (id or prefix).")


def register(app: typer.Typer) -> None:
    app.add_typer(review_app, name="review", rich_help_panel=PANEL)
    review_app.callback(invoke_without_command=True)(list_proposals)
    review_app.command("accept")(accept)
    review_app.command("reject")(reject)


def list_proposals(
    ctx: typer.Context,
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the changes background work proposed for DNA-class memories.

    Unattended extraction (a server, an MCP tool) may not supersede a DNA-class memory (an
    identity, preference or instruction; AIMEM §5.1): it records the newer statement with a
    `contradicts` relation, flagged here, for you to accept or reject.

    Example: memvault review

    With --json: {"proposals": [{"memory", "proposes", "targets", "reason", …}]}.
    """
    if ctx.invoked_subcommand is not None:
        return
    from memvault.extract.review import pending

    with open_vault(VaultOptions(home, passphrase_file, None)) as vault:
        found = pending(vault)
    if as_json:
        print_json(shapes.proposals_json(found))
        return
    out = console()
    if not found:
        out.print("No proposed changes to review.")
        return
    for p in found:
        verb = "would replace" if p.proposes == "supersede" else "is older than"
        out.print(f"[bold]{p.memory.id}[/] {escape(p.memory.content)}")
        for target in p.targets:
            out.print(f"  {verb} [bold]{target.id}[/] {escape(target.content)}")
        out.print(f"  [dim]{escape(p.reason)} — {p.proposed_by}, {p.proposed_at}[/]")
    out.print("memvault review accept ID | memvault review reject ID")


def accept(
    memory_id: str = IdArgument,
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Accept a proposed change: the supersession is made (PAM §7.1, §13).

    Example: memvault review accept 9b2e7c4a

    With --json: {"superseded": [{"new": ID, "old": ID}]}.
    """
    from memvault.extract import review

    with open_vault(VaultOptions(home, passphrase_file, None), arguments=True) as vault:
        made = review.accept(vault, vault.resolve(memory_id))
    if as_json:
        print_json(shapes.supersessions_json(made))
        return
    for new, old in made:
        console().print(f"[green]✓[/] Memory [bold]{old}[/] is now superseded by [bold]{new}[/].")
    if not made:
        console().print("[green]✓[/] Accepted; nothing left to supersede.")


def reject(
    memory_id: str = IdArgument,
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Reject a proposed change: the proposed memory is retracted (kept, PAM §7.1).

    Example: memvault review reject 9b2e7c4a

    With --json: the retracted PAM memory object.
    """
    from memvault.extract import review

    with open_vault(VaultOptions(home, passphrase_file, None), arguments=True) as vault:
        memory = review.reject(vault, vault.resolve(memory_id))
    if as_json:
        print_json(shapes.memory_json(memory))
        return
    console().print(f"[green]✓[/] Rejected: memory [bold]{memory.id}[/] is now retracted.")
