"""Tenants and tokens: who may call a server, and which vault a call uses.

`Tenants` is the registry a server runs on: a server home with many tenants (`Tenants.open`),
or one personal vault (`Tenants.personal`). `authenticate` turns an API key into a
`Principal` (a tenant, an identity — the owner or an agent, PAM §9 — and scopes), `session`
gives the vault session it acts in. docs/tenancy.md describes the files and the keys.
"""

from typing import TYPE_CHECKING, Any

from memvault.tenancy.principal import (
    AGENT_SCOPES,
    OWNER,
    SCOPES,
    Principal,
    ScopeMissing,
    Unauthenticated,
)

if TYPE_CHECKING:
    from memvault.tenancy.tenants import (
        SERVER_HOME_ENV,
        TenantErasure,
        TenantInfo,
        Tenants,
        TokenInfo,
        find_server_home,
    )

#: What `memvault.tenancy.tenants` defines, loaded on first use: it opens vaults (the store,
#: SQLCipher), which the principal, the scopes and a personal vault's token do not need.
_LAZY = frozenset(
    {"SERVER_HOME_ENV", "TenantErasure", "TenantInfo", "Tenants", "TokenInfo", "find_server_home"}
)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from memvault.tenancy import tenants

        return getattr(tenants, name)
    raise AttributeError(f"module 'memvault.tenancy' has no attribute {name!r}")


__all__ = [
    "AGENT_SCOPES",
    "OWNER",
    "SCOPES",
    "SERVER_HOME_ENV",
    "Principal",
    "ScopeMissing",
    "TenantErasure",
    "TenantInfo",
    "Tenants",
    "TokenInfo",
    "Unauthenticated",
    "find_server_home",
]
