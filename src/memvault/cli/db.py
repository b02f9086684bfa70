"""`memvault db migrate`: bring the PostgreSQL database of ``$MEMVAULT_DATABASE_URL`` to the
latest schema, as the role the URL names (the application role; docs/postgres.md). Exit codes:
0 done, 1 refused (cannot connect, a superuser role, a newer schema), 2 usage (no URL).
"""

from __future__ import annotations

import typer

from memvault.cli.common import JsonOption, command_group, console, print_json, usage_error

PANEL = "Vault"

db_app = command_group("The PostgreSQL database of $MEMVAULT_DATABASE_URL: migrate its schema.")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db", rich_help_panel=PANEL)


@db_app.command("migrate")
def migrate(as_json: JsonOption = False) -> None:
    """Apply the pending schema migrations to the database in $MEMVAULT_DATABASE_URL.

    Runs as the role the URL names — the application role, which owns the tables; a superuser
    or BYPASSRLS role is refused unless $MEMVAULT_ALLOW_SUPERUSER=1. Safe to run again, and
    from several places at once (one migrates, the others wait and find nothing to do). Stores
    also migrate when they open.

    Example: MEMVAULT_DATABASE_URL=postgresql://memvault_app@db/memvault memvault db migrate

    With --json: {"from_version", "to_version"}.
    """
    from memvault.store.factory import DATABASE_URL_ENV, database_url, migrate_database

    url = database_url()
    if url is None:
        usage_error(f"set {DATABASE_URL_ENV} to the postgresql:// URL of the database")
    before, after = migrate_database(url)
    if as_json:
        print_json({"from_version": before, "to_version": after})
    elif before == after:
        console().print(f"The database is at schema version {after}; nothing to do.")
    else:
        console().print(f"[green]✓[/] Migrated the database from version {before} to {after}.")
