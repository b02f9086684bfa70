"""Tenants and tokens: who may call a server, and which vault a call uses.

`Tenants` is the registry a server runs on: a server home with many tenants (`Tenants.open`),
or one personal vault (`Tenants.personal`). `authenticate` turns an API key into a
`Principal` (a tenant, an identity — the owner or an agent, PAM §9 — and scopes), `session`
gives the vault session it acts in. docs/tenancy.md describes the files and the keys.
"""

from memvault.tenancy.principal import (
    AGENT_SCOPES,
    OWNER,
    SCOPES,
    Principal,
    ScopeMissing,
    Unauthenticated,
)
from memvault.tenancy.tenants import (
    SERVER_HOME_ENV,
    TenantErasure,
    TenantInfo,
    Tenants,
    TokenInfo,
    find_server_home,
)

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
