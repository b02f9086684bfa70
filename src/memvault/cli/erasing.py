"""`memvault erase`: the owner's right to erasure (AIMEM §5.2). The vault resolves the ids,
refuses anyone but the owner, erases everything about the memories and scrubs the files
(`Vault.erasure_request`, `Vault.erase_many`); with ``--conversation`` it erases one
conversation (`Vault.erase_conversation`), with ``--tenant`` a whole tenant of a server home
(`memvault.tenancy.Tenants.erase`). This command asks for confirmation and says what
happened.

Exit codes: 0 erased; 1 refused (an unknown id, not the owner, not confirmed); 2 usage
(no confirmation possible: no terminal and no --yes).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from memvault import shapes
from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_REFUSED,
    EXIT_USAGE,
    JsonOption,
    VaultOptions,
    clip,
    console,
    fail,
    open_vault,
    plural,
    print_json,
    short,
    unset_flag,
    usage_error,
    vault_command,
)
from memvault.cli.tenants import ServerHomeOption, ServerKeyFileOption, erase_tenant

PANEL = "Lifecycle and relations"


def register(app: typer.Typer) -> None:
    app.command("erase", rich_help_panel=PANEL)(erase)


def _terminal() -> bool:
    """Whether there is a person at a terminal to confirm (stdin is a TTY)."""
    import sys

    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


@vault_command
def erase(
    memory_ids: Annotated[
        list[str] | None,
        typer.Argument(metavar="ID...", help="Memory ids or unique prefixes.", show_default=False),
    ] = None,
    conversation: Annotated[
        str | None,
        unset_flag(
            "--conversation",
            metavar="ID",
            help="Erase this conversation with its messages (not the memories from it).",
        ),
    ] = None,
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", "-y", help="Do not ask for confirmation (needed without a terminal)."
        ),
    ] = False,
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
    tenant: Annotated[
        str | None,
        unset_flag(
            "--tenant",
            metavar="NAME",
            help="Erase a whole tenant of a server home: its vault's files, its vault key and "
            "its tokens (with --server-home, --server-key-file).",
        ),
    ] = None,
    server_home: ServerHomeOption = None,
    server_key_file: ServerKeyFileOption = None,
) -> None:
    """Erase memories for good: the right to erasure (AIMEM §5.2).

    Unlike retract or archive, which keep a memory (PAM §16.3), this deletes it with its
    relations, embeddings, full-text entry and AIMEM import state, and leaves no copy in the
    vault's files. The audit log records that it was erased (id and content hash), never
    what it said. Only the owner may erase (an agent given with --as is refused). Asks for
    confirmation; without a terminal, --yes is required.

    Example: memvault erase 9b2e7c4a 5e6f7a8b --yes

    With --json: {"erased": [ids], "relations_removed": N, "durable": true}.

    With --conversation ID: erase that conversation, its messages and their recall passages
    and vectors; the memories derived from it stay. With --json: {"conversation", "messages",
    "passages", "vectors", "durable"}.

    With --tenant NAME: the whole tenant of a server home (AIMEM §5.2); the server's audit
    log records the counts, time and actor. --json: {"tenant", "memories", "conversations",
    "tokens_revoked", "files_removed", "at", "actor", "owner_id"}.
    """
    if [bool(memory_ids), conversation is not None, tenant is not None].count(True) != 1:
        usage_error("give IDs, --conversation or --tenant (one of the three)")
    if tenant is not None:
        return erase_tenant(tenant, yes, server_home, server_key_file, as_json)
    if not yes and not _terminal():
        fail(
            "erasure cannot be undone: confirm with --yes (there is no terminal to ask on); "
            "nothing was erased",
            EXIT_USAGE,
        )
    if conversation is not None:
        _erase_conversation(options, conversation, yes, as_json)
        return
    assert memory_ids is not None
    with open_vault(options) as vault:
        memories = vault.erasure_request(memory_ids)
        if not yes:
            out = console()
            for memory in memories:
                out.print(f"  [bold]{short(memory.id)}[/]  {escape(clip(memory.content))}")
            what = plural(len(memories), "memory", "memories")
            if not typer.confirm(f"Erase {what} for good? This cannot be undone", err=True):
                fail("not confirmed; nothing was erased", EXIT_REFUSED)
        report = vault.erase_many(memory_ids)
    if as_json:
        print_json(shapes.erasure_json(report))
        return
    out = console()
    names = ", ".join(short(i) for i in report.erased)
    relations = f" and {plural(report.relations, 'relation')}" if report.relations else ""
    pronoun = "it" if len(report.erased) == 1 else "they"
    out.print(
        f"[green]✓[/] Erased {plural(len(report.erased), 'memory', 'memories')} ({names})"
        f"{relations} (AIMEM §5.2); the audit log records that, not what {pronoun} said."
    )
    if not report.durable:
        _not_durable(out)


def _not_durable(out: Console) -> None:
    out.print(
        "[yellow]warning:[/] another process has the vault open, so an old copy stays in "
        "its write-ahead log until that process closes the vault."
    )


def _erase_conversation(options: VaultOptions, conversation: str, yes: bool, as_json: bool) -> None:
    with open_vault(options) as vault:
        if not yes:
            found = vault.get_conversation(conversation)
            title = escape(clip(found.title or "(untitled)"))
            messages = plural(found.message_count, "message")
            console().print(f"  [bold]{escape(conversation)}[/]  {title} ({messages})")
            if not typer.confirm(
                "Erase this conversation for good? This cannot be undone", err=True
            ):
                fail("not confirmed; nothing was erased", EXIT_REFUSED)
        report = vault.erase_conversation(conversation)
    if as_json:
        print_json(shapes.conversation_erasure_json(report))
        return
    out = console()
    out.print(
        f"[green]✓[/] Erased conversation {escape(report.conversation)}: "
        f"{plural(report.messages, 'message')}, {plural(report.passages, 'recall passage')} "
        f"and {plural(report.vectors, 'vector')} (AIMEM §5.2); the memories from it stay, and "
        "the audit log records the counts, not what was said."
    )
    if not report.durable:
        _not_durable(out)
