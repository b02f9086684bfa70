"""`Tenants`: the registry a server runs on — who may call it (API keys → `Principal`), and
the vault each principal's requests use.

Three kinds (where a server's tenant vaults live is a `memvault.tenancy.places.VaultPlace`):

- **A server home** (`Tenants.open`): many tenants, each one owner (PAM ``owner.id``, AIMEM
  ``tenant_id``) with its own encrypted vault file under ``vaults/<owner id>/``, opened with a
  random key kept wrapped under the server key (`memvault.tenancy.keys`); the registry
  (`memvault.tenancy.registry`) holds the tenants, the hashes of their API keys and the
  server's audit log.
- **A database** (`Tenants.database`, ``$MEMVAULT_DATABASE_URL``): many tenants in one
  PostgreSQL database, each one's vault a store bound to its owner id, the registry in the
  database too (`memvault.tenancy.pgregistry`).
- **A personal vault** (`Tenants.personal`): the one vault in a home, served as one tenant
  named by its owner id, with one token, the local token (`memvault.tenancy.localtoken`).

`session(principal)` gives the vault session the principal acts in: each tenant's vault is
opened once and shared by every thread (the store has one writer and a pool of readers); the
owner gets the owner's session, an agent ``vault.acting_as(agent)`` — so PAM §9 is enforced by
the vault, not by the server.
"""

from __future__ import annotations

import builtins
import os
import re
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

import platformdirs

from memvault.audit import AuditReport
from memvault.errors import InvalidInput, NotFound, VaultError, VaultExists
from memvault.paths import ensure_home
from memvault.store.base import AuditEntry
from memvault.tenancy.keys import (
    ServerKey,
    key_hash,
    new_api_key,
    new_token_id,
    resolve_server_key,
    same_key,
)
from memvault.tenancy.localtoken import (
    LOCAL_TOKEN_ID,
    local_token,
    local_token_path,
    new_local_token,
)
from memvault.tenancy.places import ORPHAN_AGE, TENANT_KDF_ITER, HomeVaults, VaultPlace
from memvault.tenancy.principal import (
    OWNER,
    SCOPES,
    Principal,
    Unauthenticated,
    check_identity,
    check_scopes,
)
from memvault.tenancy.registry import Registry, TenantRow, TokenRow, now_text
from memvault.vault import Vault

if TYPE_CHECKING:
    from memvault.tenancy.pgregistry import PgRegistry
from memvault.vault_inputs import format_timestamp

__all__ = [
    "OPERATOR",
    "ORPHAN_AGE",
    "SERVER_HOME_ENV",
    "TENANT_KDF_ITER",
    "TenantErasure",
    "TenantInfo",
    "Tenants",
    "TokenInfo",
    "check_tenant_name",
    "find_server_home",
]

SERVER_HOME_ENV: Final = "MEMVAULT_SERVER_HOME"
#: Who the audit log names when the command line acts on the registry: the server's operator.
OPERATOR: Final = "operator"
_NAME: Final = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")


def find_server_home(home: Path | str | None = None) -> Path:
    """The server home: `home` if given, else ``$MEMVAULT_SERVER_HOME``, else the platform's
    user data directory for ``memvault-server`` (e.g. ``~/.local/share/memvault-server``)."""
    if home is not None:
        return Path(home).expanduser()
    env = os.environ.get(SERVER_HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("memvault-server"))


def check_tenant_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidInput(
            f"tenant name {name!r} must be 1–63 lowercase letters, digits, '-' or '_', "
            "starting with a letter or digit",
            "tenant",
        )
    return name


@dataclass(frozen=True)
class TokenInfo:
    """A token as listed: never its key (shown once, when made) nor the key's hash."""

    id: str
    tenant: str
    identity: str
    scopes: tuple[str, ...]
    created_at: str
    rotated_at: str | None = None
    revoked_at: str | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True)
class TenantInfo:
    """A tenant: its name, its owner id (its vault's PAM ``owner.id``, the AIMEM
    ``tenant_id``), when it was made, and its tokens."""

    name: str
    owner_id: str
    created_at: str
    tokens: tuple[TokenInfo, ...] = ()


@dataclass(frozen=True)
class TenantErasure:
    """What erasing a tenant did (AIMEM §5.2): counts, never content."""

    tenant: str
    owner_id: str
    memories: int
    conversations: int
    tokens_revoked: int
    files_removed: int
    at: str
    actor: str


def _token_info(row: TokenRow) -> TokenInfo:
    return TokenInfo(
        row.id,
        row.tenant,
        row.identity,
        tuple(sorted(row.scopes)),
        row.created_at,
        row.rotated_at,
        row.revoked_at,
    )


class Tenants:
    """The tenants a server serves. Make with `open` (a server home) or `personal` (one
    personal vault); `close` closes every vault it opened. Thread-safe."""

    def __init__(
        self,
        home: Path,
        *,
        registry: Registry | PgRegistry | None = None,
        key: ServerKey | None = None,
        place: VaultPlace | None = None,
        personal: Vault | None = None,
    ) -> None:
        self._home = home
        self._registry = registry
        self._key = key
        self._place = place
        self._personal = personal
        self._vaults: dict[str, Vault] = {}
        self._lock = threading.RLock()
        self._closed = False

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        home: Path | str | None = None,
        server_key: str | bytes | None = None,
        *,
        key_file: Path | str | None = None,
    ) -> Tenants:
        """The server home `home` (`find_server_home`; made 0700 with its registry when
        new), unlocked with the server key (`resolve_server_key`: the argument, `key_file`,
        ``$MEMVAULT_SERVER_KEY_FILE``, ``$MEMVAULT_SERVER_KEY``). Raises InvalidInput (no
        or a short server key), WrongPassphrase (another server key made the registry),
        HomeNotWritable, StoreError."""
        key = resolve_server_key(server_key, key_file)
        root = ensure_home(find_server_home(home))
        registry = Registry.open(root, key)
        tenants = cls(root, registry=registry, key=key, place=HomeVaults(root, key))
        tenants._sweep()
        return tenants

    @classmethod
    def database(
        cls,
        url: str,
        server_key: str | bytes | None = None,
        *,
        key_file: Path | str | None = None,
        allow_superuser: bool | None = None,
    ) -> Tenants:
        """The tenants of the PostgreSQL database at `url` (``$MEMVAULT_DATABASE_URL``): the
        registry in its ``server_*`` tables (`memvault.tenancy.pgregistry`, made when
        absent), each tenant's vault a store bound to its owner id, the stores' secrets
        sealed with the server key (found as for `open`). Raises InvalidInput (no server
        key), RoleRefused (a superuser or BYPASSRLS role, unless `allow_superuser` or
        ``$MEMVAULT_ALLOW_SUPERUSER``), StoreError."""
        from memvault.store.factory import redact_database_url as redact
        from memvault.tenancy.pgregistry import PgRegistry
        from memvault.tenancy.places import DatabaseVaults

        key = resolve_server_key(server_key, key_file)
        registry = PgRegistry.open(url, allow_superuser=allow_superuser)
        place = DatabaseVaults(url, key, registry, allow_superuser=allow_superuser)
        return cls(Path(redact(url)), registry=registry, key=key, place=place)

    def _sweep(self) -> None:
        """Remove what an interrupted erasure left (`VaultPlace.sweep`)."""
        assert self._registry is not None and self._place is not None
        self._place.sweep({row.owner_id for row in self._registry.tenants()})

    @classmethod
    def personal(cls, home: Path | str, passphrase: str) -> Tenants:
        """The personal vault in `home`, served as one tenant (named by its owner id) with
        one token, the local token (made now when the home has none: `local_token`). Raises
        as `Vault.open`."""
        root = Path(home).expanduser()
        vault = Vault.open(root, passphrase, serving=True)
        try:
            local_token(root)
        except BaseException:
            vault.close()
            raise
        return cls(root, personal=vault)

    @property
    def home(self) -> Path:
        return self._home

    @property
    def kind(self) -> str:
        """ "personal", "server-home" or "database"."""
        if self._place is None:
            return "personal"
        return self._place.kind

    @property
    def location(self) -> str:
        """Where the vaults are, for messages: a home's path, or a database URL without its
        password."""
        return str(self._home) if self._place is None else self._place.location

    @property
    def local_token_path(self) -> Path | None:
        """Where a personal vault's local token is kept (None for a server home)."""
        return None if self._personal is None else local_token_path(self._home)

    @property
    def is_personal(self) -> bool:
        return self._personal is not None

    def close(self) -> None:
        """Close every vault opened (and the registry). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for vault in self._vaults.values():
                vault.close()
            self._vaults.clear()
            if self._personal is not None:
                self._personal.close()
            if self._registry is not None:
                self._registry.close()

    def __enter__(self) -> Tenants:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _server(self, what: str) -> Registry | PgRegistry:
        if self._closed:
            raise VaultError("the tenants registry is closed")
        if self._registry is None:
            raise InvalidInput(
                f"a personal vault is served as its one tenant: it cannot {what} (use a "
                "server home: --server-home or $MEMVAULT_SERVER_HOME)",
                "tenant",
            )
        return self._registry

    # -- authenticating ---------------------------------------------------------------------

    def authenticate(self, api_key: str | None) -> Principal:
        """The principal `api_key` acts as; Unauthenticated (401) when it is missing,
        unknown, revoked or replaced by a rotation, or its tenant was erased."""
        if not api_key:
            raise Unauthenticated("no API key was given")
        if self._personal is not None:
            path = local_token_path(self._home)
            try:
                expected = path.read_text(encoding="ascii").strip()
            except (OSError, UnicodeDecodeError):
                expected = ""
            if not expected or not same_key(api_key, expected):
                raise Unauthenticated(
                    "unknown API key: it is not this vault's local token (see `memvault token`)"
                )
            owner = self._personal.owner.id
            return Principal(owner, OWNER, frozenset(SCOPES), LOCAL_TOKEN_ID)
        registry = self._server("authenticate")
        row = registry.token_by_hash(key_hash(api_key))
        if row is None:
            raise Unauthenticated("unknown API key (never issued, or replaced by a rotation)")
        if row.revoked_at is not None:
            raise Unauthenticated(f"the API key of token {row.id} was revoked at {row.revoked_at}")
        return Principal(row.tenant, row.identity, frozenset(row.scopes), row.id)

    # -- sessions ---------------------------------------------------------------------------

    def session(self, principal: Principal) -> Vault:
        """The session `principal` acts in: its tenant's vault (opened on first use, then
        shared), as the owner or ``acting_as`` its agent identity (PAM §9)."""
        vault = self._vault(principal.tenant)
        if principal.identity == OWNER:
            return vault
        return vault.acting_as(principal.identity)

    def _vault(self, tenant: str) -> Vault:
        with self._lock:
            if self._closed:
                raise VaultError("the tenants registry is closed")
            if self._personal is not None:
                if tenant != self._personal.owner.id:
                    raise Unauthenticated(f"this server serves no tenant {tenant!r}")
                return self._personal
            # The registry is asked every time: a tenant erased by another process (the
            # command line, beside a running server) is closed here at its next request.
            row = self._server("open a tenant").get_tenant(tenant)
            vault = self._vaults.get(tenant)
            if vault is not None:
                if row is not None and vault.owner.id == row.owner_id:
                    return vault
                del self._vaults[tenant]
                vault.close()
            if row is None:
                raise Unauthenticated(f"tenant {tenant!r} does not exist (it was erased?)")
            assert self._place is not None
            vault = self._place.open(row)
            self._vaults[tenant] = vault
            return vault

    # -- tenants and tokens -----------------------------------------------------------------

    def create(
        self,
        name: str,
        *,
        scopes: Iterable[str] | None = None,
        identity: str = OWNER,
        actor: str = OPERATOR,
    ) -> tuple[TenantInfo, str]:
        """A new tenant `name` with an empty vault, and its first API key (for `identity`,
        with `scopes`: all of them for the owner by default). The key is returned once; only
        its hash is kept. Raises InvalidInput (a bad name, identity or scope), VaultExists."""
        registry = self._server("create tenants")
        check_tenant_name(name)
        identity = check_identity(identity)
        chosen = check_scopes(scopes, identity)
        place = self._place
        assert place is not None
        with self._lock:
            if registry.get_tenant(name) is not None:
                raise VaultExists(f"tenant {name!r} already exists; it was left untouched")
            owner_id = str(uuid.uuid4())
            vault, wrapped = place.create(owner_id)
            try:
                at = now_text()
                row = TenantRow(name, owner_id, at, wrapped)
                with registry.transaction():
                    registry.add_tenant(row)
                    registry.audit(
                        actor, "tenant.create", {"tenant": name, "owner_id": owner_id}, at
                    )
                    token, api_key = self._issue(registry, name, identity, chosen, actor, at)
            except BaseException:
                vault.close()
                place.discard(owner_id)
                raise
            self._vaults[name] = vault
        return TenantInfo(name, owner_id, at, (token,)), api_key

    def issue(
        self,
        tenant: str,
        *,
        scopes: Iterable[str] | None = None,
        identity: str = OWNER,
        actor: str = OPERATOR,
    ) -> tuple[TokenInfo, str]:
        """A new API key for `tenant`, acting as `identity` with `scopes`; returned once."""
        registry = self._server("issue tokens")
        identity = check_identity(identity)
        chosen = check_scopes(scopes, identity)
        with registry.transaction():
            if registry.get_tenant(tenant) is None:
                raise NotFound(f"no tenant {tenant!r}")
            return self._issue(registry, tenant, identity, chosen, actor, now_text())

    @staticmethod
    def _issue(
        registry: Registry | PgRegistry,
        tenant: str,
        identity: str,
        scopes: frozenset[str],
        actor: str,
        at: str,
    ) -> tuple[TokenInfo, str]:
        api_key = new_api_key()
        row = TokenRow(new_token_id(), tenant, identity, tuple(sorted(scopes)), at, None, None)
        with registry.transaction():
            registry.add_token(row, key_hash(api_key))
            registry.audit(
                actor,
                "token.issue",
                {
                    "tenant": tenant,
                    "token_id": row.id,
                    "identity": identity,
                    "scopes": list(row.scopes),
                },
                at,
            )
        return _token_info(row), api_key

    def list(self) -> builtins.list[TenantInfo]:
        """Every tenant, by name, with its tokens (ids, identities, scopes, times)."""
        if self._personal is not None:
            owner = self._personal.owner
            created = owner.created_at if isinstance(owner.created_at, str) else ""
            return [TenantInfo(owner.id, owner.id, created, tuple(self.tokens()))]
        registry = self._server("list tenants")
        by_tenant: dict[str, builtins.list[TokenInfo]] = {}
        for token in registry.tokens():
            by_tenant.setdefault(token.tenant, []).append(_token_info(token))
        return [
            TenantInfo(t.name, t.owner_id, t.created_at, tuple(by_tenant.get(t.name, ())))
            for t in registry.tenants()
        ]

    def tenant(self, name: str) -> TenantInfo:
        for info in self.list():
            if info.name == name:
                return info
        raise NotFound(f"no tenant {name!r}")

    def tokens(self, tenant: str | None = None) -> builtins.list[TokenInfo]:
        """The tokens (of `tenant`, or all), revoked ones included."""
        if self._personal is not None:
            owner = self._personal.owner.id
            path = local_token_path(self._home)
            try:
                made = datetime.fromtimestamp(path.stat().st_mtime, UTC)
            except FileNotFoundError:
                return []
            return [
                TokenInfo(
                    LOCAL_TOKEN_ID, owner, OWNER, tuple(sorted(SCOPES)), format_timestamp(made)
                )
            ]
        return [_token_info(r) for r in self._server("list tokens").tokens(tenant)]

    def _token(self, registry: Registry | PgRegistry, token_id: str) -> TokenRow:
        row = registry.get_token(token_id)
        if row is None:
            raise NotFound(f"no token {token_id!r}")
        if row.revoked_at is not None:
            raise NotFound(f"token {token_id} was revoked at {row.revoked_at}")
        return row

    def revoke(self, token_id: str, *, actor: str = OPERATOR) -> TokenInfo:
        """Revoke a token: its key stops working at once. NotFound when unknown or revoked."""
        if self._personal is not None:
            self._local_only(token_id)
            listed = self.tokens()
            if not listed:
                raise NotFound(f"token {LOCAL_TOKEN_ID!r} was already revoked")
            local_token_path(self._home).unlink(missing_ok=True)
            return replace(listed[0], revoked_at=now_text())
        registry = self._server("revoke tokens")
        with registry.transaction():
            row = self._token(registry, token_id)
            at = now_text()
            registry.revoke([row.id], at)
            registry.audit(actor, "token.revoke", {"tenant": row.tenant, "token_id": row.id}, at)
        return _token_info(registry.get_token(token_id) or row)

    def rotate(self, token_id: str, *, actor: str = OPERATOR) -> str:
        """A new key for the token (same id, identity and scopes); the old key stops working
        at once. Returned once. NotFound when unknown or revoked."""
        if self._personal is not None:
            self._local_only(token_id)
            return new_local_token(self._home)
        registry = self._server("rotate tokens")
        api_key = new_api_key()
        with registry.transaction():
            row = self._token(registry, token_id)
            at = now_text()
            registry.replace_hash(row.id, key_hash(api_key), at)
            registry.audit(actor, "token.rotate", {"tenant": row.tenant, "token_id": row.id}, at)
        return api_key

    def _local_only(self, token_id: str) -> None:
        if token_id != LOCAL_TOKEN_ID:
            raise NotFound(f"no token {token_id!r}: a personal vault has one, {LOCAL_TOKEN_ID!r}")

    def local_token(self) -> str:
        """A personal vault's local token (made when there is none)."""
        if self._personal is None:
            raise InvalidInput(
                "a server home has no local token: make a tenant's key with "
                "`memvault tenants create`",
                "token",
            )
        return local_token(self._home)

    # -- erasure ----------------------------------------------------------------------------

    def erase(self, name: str, *, actor: str = OPERATOR) -> TenantErasure:
        """Erase the tenant `name` for good (AIMEM §5.2, GDPR Art. 17): its tokens are
        revoked, its vault key deleted from the registry (every copy of its file becomes
        unreadable), its vault closed and its files overwritten and removed. The server's
        audit log records that it happened — counts, time, actor — never what the vault held.
        NotFound when there is no such tenant."""
        registry = self._server("erase a tenant (erase its memories with `memvault erase`)")
        place = self._place
        assert place is not None
        with self._lock:
            row = registry.get_tenant(name)
            if row is None:
                raise NotFound(f"no tenant {name!r}")
            memories = conversations = 0
            vault: Vault | None = None
            try:
                vault = self._vault(name)
                stats = vault.stats()
                memories, conversations = int(stats["memories"]), int(stats["conversations"])
            except VaultError:
                # Its files are gone or damaged (an interrupted erasure): nothing to count,
                # and nothing stops the erasure.
                pass
            if vault is not None:
                self._vaults.pop(name, None)
                vault.close()
            files = place.forget_first(row)
            at = now_text()
            with registry.transaction():
                active = [t.id for t in registry.tokens(name) if t.revoked_at is None]
                registry.revoke(active, at)
                registry.delete_tenant(name)
                registry.audit(
                    actor,
                    "tenant.erase",
                    {
                        "tenant": name,
                        "owner_id": row.owner_id,
                        "memories": memories,
                        "conversations": conversations,
                        "tokens_revoked": len(active),
                    },
                    at,
                )
            registry.checkpoint()
            files += place.forget_after(row)
        return TenantErasure(
            name, row.owner_id, memories, conversations, len(active), files, at, actor
        )

    # -- the server's audit log -------------------------------------------------------------

    def audit_entries(self) -> builtins.list[AuditEntry]:
        return self._server("keep a server audit log").audit_entries()

    def verify_audit(self) -> AuditReport:
        return self._server("keep a server audit log").verify_audit()
