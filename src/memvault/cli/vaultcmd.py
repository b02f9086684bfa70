"""`memvault init`, `stats`, `decay`, `audit` and `audit verify`: the vault as a whole."""

from __future__ import annotations

import typer
from rich.columns import Columns
from rich.markup import escape
from rich.table import Table

from memvault import shapes
from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_REFUSED,
    SHORT_ID,
    ActorOption,
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    bulk_command,
    console,
    create_vault,
    fail,
    open_vault,
    plural,
    print_json,
    text_of,
    unique_prefixes,
    unset_option,
    vault_command,
)

PANEL = "Vault"


def register(app: typer.Typer) -> None:
    app.command("init", rich_help_panel=PANEL)(init)
    app.command("stats", rich_help_panel=PANEL)(stats)
    app.command("decay", rich_help_panel=PANEL)(bulk_command(decay))
    app.add_typer(audit_app, name="audit", rich_help_panel=PANEL)


# -- init -------------------------------------------------------------------------------------


def init(
    owner_id: str | None = unset_option(
        "--owner-id", metavar="ID", help="The owner's id (PAM §3.1). Default: a new UUID v4."
    ),
    did: str | None = unset_option(
        "--did", metavar="DID", help="The owner's DID, e.g. did:key:z6Mk… (PAM §17)."
    ),
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create an encrypted vault and its owner.

    Without --passphrase-file or $MEMVAULT_PASSPHRASE it asks for a new passphrase twice. An
    existing vault is never touched.

    Example: MEMVAULT_HOME=~/my-vault memvault init --did did:key:z6MkhaXgBZD…

    With --json: {"home", "owner_id", "did"}.
    """
    options = VaultOptions(home, passphrase_file)
    vault = create_vault(options, owner_id=owner_id, did=did)
    with vault:
        owner = vault.owner
        if vault.home is None:  # in $MEMVAULT_DATABASE_URL
            from memvault.store.factory import database_location

            where = database_location()
        else:
            where = str(vault.home)
    owner_did = owner.did if isinstance(owner.did, str) else None
    if as_json:
        print_json({"home": where, "owner_id": owner.id, "did": owner_did})
        return
    out = console()
    if vault.home is None:  # a tenant's vault in $MEMVAULT_DATABASE_URL
        out.print(f"[green]✓[/] Created a vault for {escape(where)}")
        out.print(
            f"  owner  {escape(owner.id)}" + (f"  ({escape(owner_did)})" if owner_did else "")
        )
        return
    out.print(f"[green]✓[/] Created an encrypted vault at [bold]{escape(where)}[/]")
    out.print(f"  owner  {escape(owner.id)}" + (f"  ({escape(owner_did)})" if owner_did else ""))
    out.print("[dim]  Keep the passphrase safe: without it the vault cannot be opened.[/]")


# -- stats ------------------------------------------------------------------------------------


@vault_command
def stats(
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Count what the vault holds.

    Memories by type, status, platform and extraction method, relations by type,
    conversations, audit entries, database size.

    Example: memvault stats

    With --json: the counts as an object (see README).
    """
    with open_vault(options, arguments=True) as vault:
        numbers = vault.stats()
    if as_json:
        print_json(shapes.stats_json(numbers))
        return
    out = console()
    out.print(
        f"Vault [bold]{escape(str(numbers['home']))}[/]  [dim](encrypted, schema "
        f"{numbers['schema_version']}, {_size(numbers['db_size_bytes'])})[/]"
    )
    out.print(f"Owner {escape(str(numbers['owner_id']))}")
    out.print(
        f"Memories: [bold]{numbers['memories']}[/]   Relations: {numbers['relations']}   "
        f"Conversations: {numbers['conversations']}   Audit entries: {numbers['audit_entries']}"
    )
    columns = [
        ("Type", numbers["by_type"]),
        ("Status", numbers["by_status"]),
        ("Platform", numbers["by_platform"]),
        ("Extraction", numbers["by_extraction_method"]),
        ("Relation", numbers["relations_by_type"]),
    ]
    tables = []
    for title, counts in columns:
        if not counts:
            continue
        table = Table(
            title=title, title_justify="left", title_style="bold", show_header=False, box=None
        )
        table.add_column(no_wrap=True)
        table.add_column(justify="right")
        for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(escape(str(name)), str(count))
        tables.append(table)
    if tables:
        out.print(Columns(tables, padding=(1, 3)))


def _size(size: object) -> str:
    if not isinstance(size, int):
        return "size unknown"
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} bytes"  # pragma: no cover


# -- decay ------------------------------------------------------------------------------------


@vault_command
def decay(
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Compute and report the changes, write nothing."
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Apply confidence decay (PAM §8) to active memories.

    Recomputes the confidence of active memories with a decaying model. DNA-class memories
    (identity, preference, instruction, custom decision/pitfall/procedure, pinned) are never
    decayed (AIMEM §5.1). Safe to run any time, and twice.

    Example: memvault decay --dry-run

    With --json: {"at", "examined", "updated", "protected", "unchanged", "dry_run"}.
    """
    with open_vault(options, arguments=True) as vault:
        # The owner's decay is background work ("system"); an agent's session stays its own.
        report = vault.background().decay(dry_run=dry_run)
    if as_json:
        print_json(shapes.decay_json(report, dry_run))
        return
    verb = "would update" if dry_run else "updated"
    console().print(
        f"{'Dry run: ' if dry_run else '[green]✓[/] '}examined {report.examined} active "
        f"memories: {verb} {report.updated}, {report.protected} DNA-class left untouched, "
        f"{report.unchanged} unchanged" + ("; nothing was written." if dry_run else ".")
    )


# -- audit ------------------------------------------------------------------------------------

audit_app = typer.Typer(
    no_args_is_help=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@audit_app.callback(invoke_without_command=True)
@vault_command
def audit(
    ctx: typer.Context,
    memory_id: str | None = typer.Option(
        None, "--memory", "-m", metavar="ID", help="Only the entries of this memory (id or prefix)."
    ),
    limit: int = typer.Option(20, "--limit", "-n", min=0, help="The last N entries (0: all)."),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Show the audit log (or check it: `memvault audit verify`).

    The last --limit entries, oldest first: who did what, when, to which memory (ids and
    content hashes only, never content).

    Example: memvault audit --memory 9b2e7c4a --limit 5

    With --json: a list of entries {"seq", "at", "actor", "action", "memory_id",
    "content_hash", "details", "prev_hash", "hash"}.
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = {"options": options, "json": as_json}
        return
    with open_vault(options, arguments=True) as vault:
        entries = vault.audit_log(memory_id=memory_id, limit=limit or None)
        if not as_json:
            mentioned = [e.memory_id for e in entries]
            mentioned += [str(e.details.get(k)) for e in entries for k in ("by", "to")]
            names = unique_prefixes(vault, [m for m in mentioned if m and m != "None"])
    if as_json:
        print_json(shapes.audit_json(entries))
        return
    out = console()
    if not entries:
        out.print("No audit entries match.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Seq", justify="right", no_wrap=True, min_width=3)
    table.add_column("At", no_wrap=True, min_width=20)
    table.add_column("Actor", overflow="fold", min_width=5)
    table.add_column("Action", no_wrap=True, min_width=6)
    table.add_column("Memory", overflow="fold", min_width=SHORT_ID)
    table.add_column("Details", ratio=1, min_width=20, overflow="fold")
    for entry in entries:
        details = ", ".join(f"{k}={_detail(v, names)}" for k, v in entry.details.items())
        table.add_row(
            str(entry.seq),
            entry.at,
            escape(entry.actor),
            entry.action,
            names.get(entry.memory_id or "", entry.memory_id or "—"),
            escape(details),
        )
    out.print(table)


def _detail(value: object, names: dict[str, str]) -> str:
    if isinstance(value, str) and value in names:
        return names[value]  # a memory id, abbreviated
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_detail(v, names) for v in value) + "]"
    return text_of(value)


@audit_app.command("verify")
def verify(
    ctx: typer.Context,
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check the audit hash chain; exit 1 if it is broken.

    Checks every entry's hash, the links between entries, the head, and every memory against
    its last entry. Exit 1 when anything was edited, removed or reordered, naming the entry.

    Example: memvault audit verify

    With --json: {"ok", "entries", "problems", "head"}.
    """
    parent = ctx.obj if isinstance(ctx.obj, dict) else {}
    inherited = parent.get("options") or VaultOptions()
    options = VaultOptions(
        home or inherited.home,
        passphrase_file or inherited.passphrase_file,
        actor or inherited.actor,
    )
    with open_vault(options, arguments=True) as vault:
        report = vault.verify_audit()
    if as_json or parent.get("json"):
        print_json(shapes.audit_report_json(report))
    else:
        out = console()
        if report.ok:
            out.print(
                f"[green]✓[/] Audit chain intact: {plural(report.entries, 'entry', 'entries')}, "
                f"head {escape(report.head or '—')}"
            )
        else:
            out.print(
                f"[red]✗[/] Audit chain broken: {plural(len(report.problems), 'problem')} in "
                f"{plural(report.entries, 'entry', 'entries')}"
            )
            for problem in report.problems:
                out.print(f"  {escape(problem)}")
    if not report.ok:
        first = report.problems[0] if report.problems else "see above"
        fail(f"the audit log does not verify: {first}", EXIT_REFUSED)
