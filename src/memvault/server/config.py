"""How a server runs: where it listens, how much it reads, and the TLS rule (PAM §21.1).

`ServerConfig` is what `create_app` takes. Building one checks the binding rule, so no front
end can start a server that sends PAM data over a network in the clear: an address other than
a loopback one needs a certificate and key, or the explicit statement that a TLS-terminating
proxy stands in front (`behind_tls_proxy`).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvault.errors import InvalidInput
from memvault.jsonread import MAX_DEPTH

if TYPE_CHECKING:
    from memvault.tenancy import Tenants

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_HOST",
    "DEFAULT_IDLE_RELEASE",
    "DEFAULT_MAX_BODY",
    "DEFAULT_PORT",
    "ServerConfig",
    "check_binding",
    "is_loopback",
]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: Largest request body read (bytes): a bundle of ~100,000 memories fits; more is refused
#: with 413 before it is all received.
DEFAULT_MAX_BODY = 256 * 1024 * 1024
#: Seconds of grace a request body gets; after it, it must have arrived at `MIN_BODY_RATE`
#: on average, so a client trickling bytes cannot hold a worker (408).
DEFAULT_BODY_TIMEOUT = 30.0
#: Seconds without a request after which a tenant's vault gives back its caches, recall's
#: bit index above all (`memvault.server.idle`).
DEFAULT_IDLE_RELEASE = 300.0


def is_loopback(host: str) -> bool:
    """True for an address that never leaves the machine: 127.0.0.0/8, ::1, "localhost"."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def check_binding(
    host: str, tls_cert: Path | None, tls_key: Path | None, behind_tls_proxy: bool
) -> None:
    """Refuse to serve PAM data in the clear over a network (PAM §21.1): a non-loopback
    `host` needs both `tls_cert` and `tls_key`, or `behind_tls_proxy`. One of cert and key
    without the other is refused wherever the server binds."""
    if (tls_cert is None) != (tls_key is None):
        missing = "--tls-key" if tls_key is None else "--tls-cert"
        raise InvalidInput(f"TLS needs both a certificate and a key: {missing} is missing", "tls")
    for name, path in (("tls_cert", tls_cert), ("tls_key", tls_key)):
        if path is not None and not path.is_file():
            raise InvalidInput(f"{name}: no such file: {path}", name)
    if is_loopback(host) or tls_cert is not None or behind_tls_proxy:
        return
    raise InvalidInput(
        f"refusing to serve on {host} without TLS: memories cross a network only over TLS "
        "(PAM §21.1); give --tls-cert and --tls-key, or --behind-tls-proxy when a reverse "
        "proxy terminates TLS in front of this server",
        "host",
    )


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """A server's settings. `tenants` is the registry requests authenticate against and get
    their vault session from (a personal vault's single tenant, or a server home's many).

    `max_body` bounds every request body (413 past it); `max_depth` the nesting of a JSON
    body (422 past it). `embed_interval` (seconds) is how often the background worker looks
    for passages without vectors; None: no worker. `embed_api_key` is the key of an
    OpenAI-compatible embeddings endpoint a vault names (the library reads no
    environment). `map_interval` (seconds) is how often the background mapping looks for
    memories whose AIMEM chunk a write left pending (`memvault.server.export_mapping`);
    None: no worker, the next download maps them. `release_idle_after` (seconds) is how
    long a tenant goes without a request before its vault gives back its caches (recall's
    bit index above all; `memvault.server.idle`); None: only imports and exports do."""

    tenants: Tenants
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_body: int = DEFAULT_MAX_BODY
    max_depth: int = MAX_DEPTH
    tls_cert: Path | None = None
    tls_key: Path | None = None
    behind_tls_proxy: bool = False
    embed_interval: float | None = None
    embed_api_key: str | None = field(default=None, repr=False)
    map_interval: float | None = None
    #: Seconds a request body may take beyond what `MIN_BODY_RATE` allows (408 past it).
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    #: Failed authentications an address may make per minute before it gets 429.
    auth_failure_limit: int = 20
    release_idle_after: float | None = DEFAULT_IDLE_RELEASE

    def __post_init__(self) -> None:
        if not 0 < self.port < 65536:
            raise InvalidInput(f"port {self.port} is not between 1 and 65535", "port")
        if self.max_body <= 0:
            raise InvalidInput("the body limit must be a positive number of bytes", "max_body")
        if self.body_timeout <= 0:
            raise InvalidInput(
                "the body timeout must be a positive number of seconds", "body_timeout"
            )
        if self.auth_failure_limit < 1:
            raise InvalidInput(
                "the failed-authentication limit must be at least 1", "auth_failure_limit"
            )
        if self.map_interval is not None and self.map_interval <= 0:
            raise InvalidInput(
                "the mapping interval must be a positive number of seconds", "map_interval"
            )
        if self.release_idle_after is not None and self.release_idle_after <= 0:
            raise InvalidInput(
                "the idle time before memory is given back must be a positive number of seconds",
                "release_idle_after",
            )
        if not 0 < self.max_depth <= MAX_DEPTH:
            raise InvalidInput(f"the nesting limit must be in 1..{MAX_DEPTH}", "max_depth")
        check_binding(self.host, self.tls_cert, self.tls_key, self.behind_tls_proxy)

    @property
    def url(self) -> str:
        """The address clients use (https when this server holds the certificate)."""
        scheme = "https" if self.tls_cert is not None else "http"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}"

    def uvicorn_options(self) -> dict[str, Any]:
        """Keyword arguments for `uvicorn.Config`: address, TLS files, and forwarded headers
        trusted only from a proxy the operator named."""
        options: dict[str, Any] = {"host": self.host, "port": self.port}
        if self.tls_cert is not None:
            options["ssl_certfile"] = str(self.tls_cert)
            options["ssl_keyfile"] = str(self.tls_key)
        options["proxy_headers"] = self.behind_tls_proxy
        return options
