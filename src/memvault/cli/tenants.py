"""`memvault tenants create | issue | list | revoke | rotate` (a server home's tenants and
their API keys) and `memvault token` (a personal vault's local token). Each parses, calls
`memvault.tenancy.Tenants`, renders. A new key is printed once: only its hash is kept.

Exit codes: 0 done; 1 refused (an existing tenant, an unknown or revoked token, a wrong server
key); 2 usage (a bad name, scope or agent id, no server key).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from memvault import shapes
from memvault.cli.common import (
    HomeOption,
    JsonOption,
    command_group,
    console,
    grouped_options,
    print_json,
    unset_flag,
    vault_errors,
)
from memvault.tenancy.keys import SERVER_KEY_ENV, SERVER_KEY_FILE_ENV
from memvault.tenancy.principal import SCOPES

if TYPE_CHECKING:
    from memvault.tenancy import Tenants, TokenInfo

PANEL = "Server"
SERVER_HOME_ENV = "MEMVAULT_SERVER_HOME"

ServerHomeOption = Annotated[
    Path | None,
    unset_flag(
        "--server-home",
        metavar="PATH",
        help=f"The server home (tenants' vaults, the registry). Default: ${SERVER_HOME_ENV}, "
        "else the platform's user data directory (e.g. ~/.local/share/memvault-server). "
        "Without it, $MEMVAULT_DATABASE_URL (when set) names a PostgreSQL database instead.",
    ),
]
ServerKeyFileOption = Annotated[
    Path | None,
    unset_flag(
        "--server-key-file",
        metavar="FILE",
        help=f"Read the server key from the first line of FILE. Default: ${SERVER_KEY_FILE_ENV}, "
        f"else ${SERVER_KEY_ENV}.",
    ),
]
ScopeOption = Annotated[
    list[str] | None,
    unset_flag(
        "--scope",
        metavar="SCOPE",
        help=f"A scope of the key (repeat for more): {', '.join(SCOPES)}. Default: all for the "
        "owner; bundle and memory scopes for an agent.",
    ),
]
AgentOption = Annotated[
    str | None,
    unset_flag(
        "--as-agent",
        metavar="ID",
        help="The key acts as this agent (a PAM §9 entity: it sees what grants allow). "
        "Default: the tenant's owner.",
    ),
]

tenants_app = command_group(
    "A server's tenants (one vault each, in a server home or the PostgreSQL database of "
    "$MEMVAULT_DATABASE_URL) and their API keys."
)


def register(app: typer.Typer) -> None:
    app.add_typer(tenants_app, name="tenants", rich_help_panel=PANEL)
    app.command("token", rich_help_panel=PANEL)(token)


def open_tenants(server_home: Path | None, server_key_file: Path | None) -> Tenants:
    """The server home named by the options (or the environment) — or, without
    --server-home, the database of ``$MEMVAULT_DATABASE_URL`` when set — unlocked with the
    server key; errors reported as every command's are."""
    from memvault.store.factory import database_url
    from memvault.tenancy import Tenants

    with vault_errors(arguments=True):
        url = database_url() if server_home is None else None
        if url is not None:
            return Tenants.database(url, key_file=server_key_file)
        return Tenants.open(server_home, key_file=server_key_file)


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """Where a server's tenants are and how to unlock them (--server-home,
    --server-key-file)."""

    server_home: Path | None = None
    server_key_file: Path | None = None

    def open(self) -> Tenants:
        return open_tenants(self.server_home, self.server_key_file)


#: The default of a `server_command`'s ``server`` parameter, which the command line gives.
SERVER_COMMAND_LINE = ServerOptions()
#: A command on a server's tenants: its ``server: ServerOptions = SERVER_COMMAND_LINE``
#: parameter is given on the command line as --server-home and --server-key-file.
server_command = grouped_options(
    "server",
    ServerOptions,
    server_home=ServerHomeOption,
    server_key_file=ServerKeyFileOption,
)


def _show_key(token: TokenInfo, api_key: str, as_json: bool, what: str) -> None:
    if as_json:
        print_json(shapes.token_key_json(token, api_key))
        return
    out = console()
    out.print(
        f"[green]✓[/] {what}: token {token.id} of tenant {escape(token.tenant)} as "
        f"{escape(token.identity)} ({', '.join(token.scopes)})"
    )
    out.print("API key (shown this once; only its hash is kept):")
    typer.echo(api_key)


@tenants_app.command("create")
@server_command
def create(
    name: Annotated[str, typer.Argument(help="The tenant's name (lowercase, digits, - or _).")],
    scope: ScopeOption = None,
    as_agent: AgentOption = None,
    server: ServerOptions = SERVER_COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Create a tenant (an empty encrypted vault) and print its first API key, once.

    Example: memvault tenants create alice --json

    With --json: {"tenant", "api_key", "scopes", "token_id", "identity"}.
    """
    with server.open() as tenants, vault_errors(arguments=True):
        info, api_key = tenants.create(name, scopes=scope, identity=as_agent or "owner")
    _show_key(info.tokens[0], api_key, as_json, f"Created tenant {escape(name)}")


@tenants_app.command("issue")
@server_command
def issue(
    name: Annotated[str, typer.Argument(help="The tenant.")],
    scope: ScopeOption = None,
    as_agent: AgentOption = None,
    server: ServerOptions = SERVER_COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Issue another API key for a tenant (its owner's, or an agent's with --as-agent).

    Example: memvault tenants issue alice --as-agent agent-x --scope memories:read

    With --json: {"tenant", "api_key", "scopes", "token_id", "identity"}.
    """
    with server.open() as tenants, vault_errors(arguments=True):
        token, api_key = tenants.issue(name, scopes=scope, identity=as_agent or "owner")
    _show_key(token, api_key, as_json, "Issued")


@tenants_app.command("list")
@server_command
def list_tenants(
    server: ServerOptions = SERVER_COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """List the tenants and their tokens (ids, identities, scopes; never a key).

    Example: memvault tenants list --server-home /srv/memvault

    With --json: {"tenants": [{"name", "owner_id", "created_at", "tokens": [...]}]}.
    """
    with server.open() as tenants:
        listed = tenants.list()
    if as_json:
        print_json(shapes.tenants_json(listed))
        return
    out = console()
    if not listed:
        out.print("No tenants. Create one with `memvault tenants create NAME`.")
        return
    for tenant in listed:
        out.print(f"[bold]{escape(tenant.name)}[/]  {tenant.owner_id}  {tenant.created_at}")
        for t in tenant.tokens:
            state = "active" if t.active else f"revoked {t.revoked_at}"
            out.print(
                f"  {t.id}  {escape(t.identity)}  {', '.join(t.scopes)}  {t.created_at}  {state}"
            )


@tenants_app.command("revoke")
@server_command
def revoke(
    token_id: Annotated[str, typer.Argument(metavar="TOKEN_ID", help="The token's id (tok_…).")],
    server: ServerOptions = SERVER_COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Revoke a token: its API key stops working at once.

    Example: memvault tenants revoke tok_3f9c0d51a2b4e7c8

    With --json: the token {"id", "tenant", "identity", "scopes", …, "revoked_at"}.
    """
    with server.open() as tenants, vault_errors(arguments=True):
        token = tenants.revoke(token_id)
    if as_json:
        print_json(shapes.token_json(token))
        return
    console().print(f"[green]✓[/] Revoked token {token.id} of tenant {escape(token.tenant)}.")


@tenants_app.command("rotate")
@server_command
def rotate(
    token_id: Annotated[str, typer.Argument(metavar="TOKEN_ID", help="The token's id (tok_…).")],
    server: ServerOptions = SERVER_COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Give a token a new API key (same id, identity and scopes); the old key stops working.

    Example: memvault tenants rotate tok_3f9c0d51a2b4e7c8

    With --json: {"tenant", "api_key", "scopes", "token_id", "identity"}.
    """
    with server.open() as tenants, vault_errors(arguments=True):
        api_key = tenants.rotate(token_id)
        [token] = [t for t in tenants.tokens() if t.id == token_id]
    _show_key(token, api_key, as_json, "Rotated")


def token(
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print the local token of a personal vault (made on first use, kept owner-only in the
    vault's home): the API key `memvault serve` accepts for this vault.

    Example: curl -H "Authorization: Bearer $(memvault token)" http://127.0.0.1:8765/v1/stats

    With --json: {"token", "path"}.
    """
    from memvault import local
    from memvault.tenancy.localtoken import local_token, local_token_path

    with vault_errors(arguments=True):
        root = local.existing_home(home)
        value = local_token(root)
    if as_json:
        print_json({"token": value, "path": str(local_token_path(root))})
        return
    typer.echo(value)


def erase_tenant(
    name: str,
    yes: bool,
    server_home: Path | None,
    server_key_file: Path | None,
    as_json: bool,
) -> None:
    """`memvault erase --tenant NAME`: confirmed as every erasure is (--yes without a
    terminal), then `Tenants.erase`."""
    from memvault.cli.common import EXIT_REFUSED, EXIT_USAGE, fail, plural
    from memvault.local import interactive

    if not yes and not interactive():
        fail(
            "erasure cannot be undone: confirm with --yes (there is no terminal to ask on); "
            "nothing was erased",
            EXIT_USAGE,
        )
    with open_tenants(server_home, server_key_file) as tenants, vault_errors(arguments=True):
        info = tenants.tenant(name)
        if not yes and not typer.confirm(
            f"Erase tenant {name} ({info.owner_id}), its whole vault and its "
            f"{plural(len(info.tokens), 'token')}, for good? This cannot be undone",
            err=True,
        ):
            fail("not confirmed; nothing was erased", EXIT_REFUSED)
        report = tenants.erase(name)
    if as_json:
        print_json(shapes.tenant_erasure_json(report))
        return
    removed = (
        f"{plural(report.files_removed, 'file')} overwritten and removed"
        if report.files_removed
        else "every row of it removed from the database"
    )
    console().print(
        f"[green]✓[/] Erased tenant {escape(name)}: "
        f"{plural(report.memories, 'memory', 'memories')}, "
        f"{plural(report.conversations, 'conversation')}, "
        f"{plural(report.tokens_revoked, 'token')} revoked, "
        f"{removed} (AIMEM §5.2); the server's audit log records that, not what the vault held."
    )
