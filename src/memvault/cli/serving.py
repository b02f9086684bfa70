"""`memvault serve`: the vault over HTTP (`memvault.server`).

On a personal vault (`--home`, ``$MEMVAULT_HOME``) it serves that vault as one tenant whose
key is the local token; with a server home (`--server-home`, ``$MEMVAULT_SERVER_HOME``) it
serves every tenant of it; with ``$MEMVAULT_DATABASE_URL`` and ``$MEMVAULT_TENANT`` (and no
server home), that tenant's vault as a personal vault; with ``$MEMVAULT_DATABASE_URL`` alone
(and no `--server-home`), every tenant of that PostgreSQL database (refusing a superuser or
BYPASSRLS role: exit 2). The rules (the TLS rule of PAM §21.1, the limits) live in
`memvault.server.config`; this module parses, builds the server and runs it until Ctrl-C.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from memvault.cli.common import (
    HomeOption,
    JsonOption,
    PassphraseFileOption,
    VaultOptions,
    console,
    fail,
    print_json,
    read_passphrase,
    unset_flag,
    vault_errors,
)
from memvault.errors import InvalidInput

if TYPE_CHECKING:
    from memvault.tenancy import Tenants

PANEL = "Server"


def register(app: typer.Typer) -> None:
    app.command("serve", rich_help_panel=PANEL)(serve)


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (loopback unless TLS).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8765,
    tls_cert: Annotated[
        Path | None,
        unset_flag("--tls-cert", metavar="FILE", help="TLS certificate (PEM)."),
    ] = None,
    tls_key: Annotated[
        Path | None,
        unset_flag("--tls-key", metavar="FILE", help="TLS key (PEM)."),
    ] = None,
    behind_tls_proxy: Annotated[
        bool,
        typer.Option(
            "--behind-tls-proxy",
            help="A reverse proxy in front terminates TLS (needed to bind a non-loopback "
            "address without --tls-cert; PAM §21.1). Trusts its X-Forwarded-* headers.",
        ),
    ] = False,
    max_body: Annotated[
        int,
        typer.Option("--max-body", metavar="BYTES", min=1, help="Largest request body."),
    ] = 256 * 1024 * 1024,
    body_timeout: Annotated[
        float,
        typer.Option(
            "--body-timeout",
            metavar="SECONDS",
            min=0.1,
            help="Grace for a request body; after it the body must arrive at 64 KiB/s or "
            "more (408 otherwise).",
        ),
    ] = 30.0,
    release_idle_after: Annotated[
        float,
        typer.Option(
            "--release-idle-after",
            metavar="SECONDS",
            min=0.0,
            help="Give back a vault's caches (recall's bit index above all) once it has "
            "had no request for this long; 0: only after imports and exports.",
        ),
    ] = 300.0,
    embed: Annotated[
        bool,
        typer.Option(
            "--embed/--no-embed",
            help="Embed new passages in the background for vaults that name an embedder "
            "(`memvault embed` chose one).",
        ),
    ] = True,
    server_home: Annotated[
        Path | None,
        unset_flag(
            "--server-home",
            metavar="PATH",
            help="Serve the tenants of this server home (default: $MEMVAULT_DATABASE_URL's "
            "PostgreSQL database, else $MEMVAULT_SERVER_HOME; without any, the personal "
            "vault; with $MEMVAULT_DATABASE_URL and $MEMVAULT_TENANT, that tenant's vault "
            "as a personal vault).",
        ),
    ] = None,
    server_key_file: Annotated[
        Path | None,
        unset_flag(
            "--server-key-file",
            metavar="FILE",
            help="The server home's key (default: $MEMVAULT_SERVER_KEY_FILE, "
            "$MEMVAULT_SERVER_KEY).",
        ),
    ] = None,
    print_token: Annotated[
        bool,
        typer.Option(
            "--print-token",
            help="On a personal vault, print the local token itself too (for a demo; it "
            "grants everything).",
        ),
    ] = False,
    home: HomeOption = None,
    passphrase_file: PassphraseFileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Serve the vault over HTTP: memories, recall, AIMEM and PAM exchange (docs/server.md).

    Binds 127.0.0.1:8765 by default. Any other address needs --tls-cert and --tls-key, or
    --behind-tls-proxy (PAM §21.1: memories cross a network only over TLS). On a personal
    vault it prints the URL and where the local token is (send it as 'Authorization: Bearer
    TOKEN'); Ctrl-C stops it.

    --json: print where it serves as one JSON object instead, for the program that started
    it: {"url", "docs", "tenants", "home", "token_path", "web", "token"} — "tenants" is
    "personal", "server-home" or "database" ("home" then the URL without its password), the
    last three on a personal vault ("web" is the web UI's sign-in address), "token" only with
    --print-token.
    A failure before it serves is a JSON error body.

    Example: memvault serve --port 8765
    """
    import uvicorn

    from memvault.local import existing_home
    from memvault.recall.embedders import EMBED_KEY_ENV
    from memvault.server.app import create_app
    from memvault.server.config import ServerConfig
    from memvault.store.factory import TENANT_ENV, database_url
    from memvault.tenancy import SERVER_HOME_ENV, Tenants
    from memvault.tenancy.localtoken import local_token_path

    use_server_home = server_home is not None or bool(os.environ.get(SERVER_HOME_ENV))
    with vault_errors(arguments=True):
        url = None if server_home is not None else database_url()
        one_tenant = bool(os.environ.get(TENANT_ENV, "").strip())
        if url is not None and one_tenant and not use_server_home:
            # $MEMVAULT_TENANT names one vault of the database: served as a personal vault.
            tenants = _database_tenant(VaultOptions(home, passphrase_file).root)
        elif url is not None:
            # A superuser or BYPASSRLS role is refused here (RoleRefused: a usage error).
            tenants = Tenants.database(url, key_file=server_key_file)
        elif use_server_home:
            tenants = Tenants.open(server_home, key_file=server_key_file)
        else:
            options = VaultOptions(home, passphrase_file)
            root = existing_home(
                options.root
            )  # a missing vault is reported before the passphrase is asked
            tenants = Tenants.personal(root, read_passphrase(options))
        try:
            config = ServerConfig(
                tenants,
                host=host,
                port=port,
                max_body=max_body,
                body_timeout=body_timeout,
                tls_cert=tls_cert,
                tls_key=tls_key,
                behind_tls_proxy=behind_tls_proxy,
                embed_interval=2.0 if embed else None,
                map_interval=1.0,
                embed_api_key=os.environ.get(EMBED_KEY_ENV) or None,
                release_idle_after=release_idle_after or None,
            )
        except InvalidInput:
            tenants.close()
            raise
    try:
        _check_listenable(config.host, config.port)
        app = create_app(config)
        if as_json:
            started: dict[str, object] = {
                "url": config.url,
                "docs": f"{config.url}/docs",
                "tenants": tenants.kind,
                "home": tenants.location,
            }
            if tenants.is_personal:
                started["token_path"] = str(local_token_path(tenants.home))
                started["web"] = f"{config.url}/?token={tenants.local_token()}"
                if print_token:
                    started["token"] = tenants.local_token()
            print_json(started)
        else:
            _print_started(config.url, tenants, print_token=print_token)
        uvicorn.run(app, log_level="warning", **config.uvicorn_options())
    finally:
        tenants.close()


def _check_listenable(host: str, port: int) -> None:
    """Fail before printing where it serves when the address cannot be listened on (a port
    another server holds): uvicorn would say so only after the addresses were printed, in its
    own words, and exit 3. Bound as uvicorn binds (SO_REUSEADDR), then let go at once."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        why = "already in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        fail(f"cannot listen on {host}:{port}: {why}; choose another port with --port")


def _print_started(url: str, tenants: Tenants, *, print_token: bool) -> None:
    from memvault.tenancy.localtoken import local_token_path

    out = console()
    out.print(f"memvault serving on [bold]{url}[/] (OpenAPI: {url}/docs)")
    if tenants.is_personal:
        out.print(
            f"local token: {local_token_path(tenants.home)} "
            "(send it as 'Authorization: Bearer TOKEN'; `memvault token` prints it)"
        )
        # The web UI's address signs the browser in, as Jupyter's does.
        out.print(f"web UI: {url}/?token={tenants.local_token()}", soft_wrap=True)
        if print_token:
            out.print(f"token: {tenants.local_token()}", soft_wrap=True)
    else:
        out.print(f"tenants of {tenants.location} (keys: `memvault tenants create`)")
    out.print("Ctrl-C stops it.")


def _database_tenant(root: Path) -> Tenants:
    """The vault of ``$MEMVAULT_TENANT`` in the PostgreSQL database of
    ``$MEMVAULT_DATABASE_URL``, served as one tenant; its local token is kept in the home."""
    from memvault.local import open_vault
    from memvault.paths import ensure_home
    from memvault.tenancy import Tenants
    from memvault.tenancy.localtoken import local_token_path, new_local_token

    vault = open_vault()
    try:
        if not local_token_path(ensure_home(root)).is_file():
            new_local_token(root)
    except BaseException:
        vault.close()
        raise
    return Tenants(root, personal=vault)
