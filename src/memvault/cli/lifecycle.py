"""`memvault retract`, `archive`, `deprecate`, `supersede`, `relate`: the lifecycle (PAM §7.1)
and relations (PAM §13). The vault allows exactly the transitions §7.1 lists and names them
when it refuses one; these commands only call it and say what happened."""

from __future__ import annotations

from collections.abc import Callable

import typer
from rich.markup import escape

from memvault import shapes
from memvault.cli.common import (
    COMMAND_LINE,
    JsonOption,
    VaultOptions,
    console,
    open_vault,
    print_json,
    unset_option,
    vault_command,
)
from memvault.model import RELATION_TYPES, Memory
from memvault.vault import Vault

PANEL = "Lifecycle and relations"

IdArgument = typer.Argument(..., metavar="ID", help="A memory id or a unique prefix.")


def register(app: typer.Typer) -> None:
    app.command("retract", rich_help_panel=PANEL)(retract)
    app.command("archive", rich_help_panel=PANEL)(archive)
    app.command("deprecate", rich_help_panel=PANEL)(deprecate)
    app.command("supersede", rich_help_panel=PANEL)(supersede)
    app.command("relate", rich_help_panel=PANEL)(relate)


def _transition(change: Callable[[Vault, str], Memory], doc: str) -> Callable[..., None]:
    """The command that makes one lifecycle transition: `change` is `Vault.retract`,
    `Vault.archive` or `Vault.deprecate`; `doc` its help."""

    @vault_command
    def command(
        memory_id: str = IdArgument,
        options: VaultOptions = COMMAND_LINE,
        as_json: JsonOption = False,
    ) -> None:
        with open_vault(options, arguments=True) as vault:
            memory = change(vault, memory_id)
        if as_json:
            print_json(shapes.memory_json(memory))
            return
        status = memory.effective_status
        console().print(f"[green]✓[/] Memory [bold]{memory.id}[/] is now {status}.")

    command.__doc__ = doc
    return command


retract = _transition(
    Vault.retract,
    """Retract a memory: it was wrong (kept, never deleted).

    A retracted memory is kept (PAM §16.3) but no longer listed as active. Allowed from active
    or deprecated; retracted is final.

    Example: memvault retract 9b2e7c4a
    """,
)
archive = _transition(
    Vault.archive,
    """Archive a memory: kept for history only.

    Allowed from active, superseded or deprecated; archived is final (PAM §7.1).

    Example: memvault archive 9b2e7c4a
    """,
)
deprecate = _transition(
    Vault.deprecate,
    """Deprecate a memory: still valid, no longer prioritized.

    Allowed from active (PAM §7.1).

    Example: memvault deprecate 9b2e7c4a
    """,
)


@vault_command
def supersede(
    old: str = typer.Argument(..., metavar="OLD", help="The memory being replaced (id or prefix)."),
    new: str = typer.Argument(..., metavar="NEW", help="The memory replacing it (id or prefix)."),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Replace memory OLD with memory NEW.

    OLD becomes superseded, its superseded_by points to NEW, and a "supersedes" relation
    NEW → OLD is recorded (PAM §7, §13). Both must be active.

    Example: memvault supersede 1a2b3c4d 5e6f7a8b

    With --json: {"superseded": PAM memory object, "relation": PAM relation object}.
    """
    with open_vault(options, arguments=True) as vault:
        relation = vault.supersede(old, new)
        superseded = vault.get(relation.to)
    if as_json:
        print_json(shapes.superseded_json(superseded, relation))
        return
    console().print(
        f"[green]✓[/] Memory [bold]{relation.to}[/] is now superseded by [bold]{relation.from_}[/]."
    )


@vault_command
def relate(
    from_id: str = typer.Argument(..., metavar="FROM", help="The source memory (id or prefix)."),
    to_id: str = typer.Argument(..., metavar="TO", help="The target memory (id or prefix)."),
    relation_type: str = typer.Option(
        ...,
        "--type",
        "-t",
        metavar="TYPE",
        help=f"The relation (PAM §13.2): {', '.join(RELATION_TYPES)}.",
    ),
    confidence: float | None = unset_option(
        "--confidence", metavar="0..1", help="How sure, in [0, 1]."
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Record a typed relation FROM → TO (supports, contradicts, …).

    Relating the same pair with the same type again keeps the one relation (with the new
    confidence, if given). A "supersedes" relation made here changes no status: use
    `memvault supersede` for that.

    Example: memvault relate 1a2b3c4d 5e6f7a8b --type supports --confidence 0.8

    With --json: the PAM relation object.
    """
    with open_vault(options, arguments=True) as vault:
        relation = vault.relate(from_id, to_id, relation_type, confidence=confidence)
    if as_json:
        print_json(shapes.relation_json(relation))
        return
    score = relation.confidence
    conf = f" (confidence {score})" if isinstance(score, int | float) else ""
    console().print(
        f"[green]✓[/] [bold]{relation.from_}[/] {escape(relation.type)} "
        f"[bold]{relation.to}[/]{conf}  [dim]relation {relation.id}[/]"
    )
