"""The registry of a server whose tenants live in a PostgreSQL database: the same tenants,
tokens and hash-chained server audit log as a server home's ``registry.db``
(`memvault.tenancy.registry`), in three tables of that database.

- ``server_tenants`` (name, owner id, creation time), ``server_tokens`` (the SHA-256 of each
  API key, never the key; identity, scopes, times) and ``server_audit`` (entries chained as
  a vault's audit log, the head kept in ``server_meta``). They are admin data: a token is
  looked up by its key's hash before anyone knows its tenant, so they cannot be keyed on
  the tenant setting the vault tables are. They hold no secret (no key, no vault key: the
  tenant vaults' secrets are sealed with the server key by the store) and no content.
- **Protection.** The tables belong to the application role and nobody else is granted
  anything on them. Row-level security is forced on them too, with a policy that shows
  their rows only to a transaction whose ``memvault.scope`` setting is ``registry``: a
  store bound to a tenant (which sets only ``memvault.tenant``) reads nothing of them, so
  no vault query can reach another tenant's tokens. A superuser or BYPASSRLS role is
  refused, as by the store (`RoleRefused`).
- Created on first use (``CREATE TABLE``, in one transaction under an advisory lock, so
  servers starting together do it once), as the application role; the version is kept in
  ``server_meta`` and is independent of the vault tables' migrations.

One connection, used under a lock (made again when the database dropped it): each call is a
few indexed statements.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any, Final

import psycopg

from memvault.audit import AuditReport
from memvault.store.base import AuditEntry, StoreError, StoreUnavailable
from memvault.store.factory import database_connection as connect_checked
from memvault.store.factory import database_connection_lost
from memvault.store.factory import redact_database_url as redact
from memvault.tenancy.registry import (
    AUDIT_COLUMNS,
    NEW_TOKEN_COLUMNS,
    TOKEN_COLUMNS,
    OneConnection,
    TenantRow,
    TokenRow,
    audit_values,
    chained_entry,
    read_audit,
    read_token,
    token_values,
    verify_chain,
)

__all__ = ["REGISTRY_TABLES", "PgRegistry"]

#: The tables of the registry (admin data; every other table holds one tenant's rows).
REGISTRY_TABLES: Final = ("server_meta", "server_tenants", "server_tokens", "server_audit")
_VERSION: Final = "1"
_HEAD: Final = "audit_head"
#: The advisory lock creating the tables takes ("mvregist" in ASCII).
_SCHEMA_LOCK: Final = 0x6D76726567697374
_SCOPE: Final = "SELECT set_config('memvault.scope', 'registry', true)"
_SCHEMA: Final = """
CREATE TABLE server_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE server_tenants (
    name        text PRIMARY KEY,
    owner_id    text NOT NULL UNIQUE,
    created_at  text NOT NULL
);
CREATE TABLE server_tokens (
    id          text PRIMARY KEY,
    tenant      text NOT NULL,
    key_hash    text NOT NULL UNIQUE,
    identity    text NOT NULL,
    scopes      text NOT NULL,
    created_at  text NOT NULL,
    rotated_at  text,
    revoked_at  text
);
CREATE INDEX server_tokens_tenant ON server_tokens (tenant);
CREATE TABLE server_audit (
    seq        bigint PRIMARY KEY,
    at         text NOT NULL,
    actor      text NOT NULL,
    action     text NOT NULL,
    details    text NOT NULL,
    prev_hash  text NOT NULL,
    hash       text NOT NULL
);
"""
_POLICY: Final = """
REVOKE ALL ON {table} FROM PUBLIC;
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE {table} FORCE ROW LEVEL SECURITY;
CREATE POLICY {table}_registry ON {table}
    USING (current_setting('memvault.scope', true) = 'registry')
    WITH CHECK (current_setting('memvault.scope', true) = 'registry');
"""


class PgRegistry(OneConnection):
    """The registry in the database at a URL. `open` creates its tables when absent."""

    def __init__(
        self, conn: psycopg.Connection[Any], url: str, allow_superuser: bool | None = None
    ) -> None:
        super().__init__()
        self._conn = conn
        self._url = url
        self._allow = allow_superuser

    @classmethod
    def open(cls, url: str, *, allow_superuser: bool | None = None) -> PgRegistry:
        """The registry of the database at `url`, connected as the role the URL names
        (RoleRefused: a superuser or BYPASSRLS role, unless allowed)."""
        conn = connect_checked(url, allow_superuser=allow_superuser)
        registry = cls(conn, url, allow_superuser)
        try:
            with registry.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                row = conn.execute("SELECT to_regclass('server_meta') IS NOT NULL").fetchone()
                if not (row and row[0]):
                    conn.execute(_SCHEMA)
                    for table in REGISTRY_TABLES:
                        conn.execute(_POLICY.format(table=table))
                    conn.execute(
                        "INSERT INTO server_meta (key, value) VALUES ('version', %s)", (_VERSION,)
                    )
            found = registry.get_meta("version")
        except BaseException:
            conn.close()
            raise
        if found != _VERSION:
            conn.close()
            raise StoreError(
                f"{redact(url)}: the server registry has version {found!r}; this memvault "
                f"understands {_VERSION!r}"
            )
        return registry

    @property
    def url(self) -> str:
        return self._url

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _error(self, exc: psycopg.Error) -> StoreError:
        text = f"{redact(self._url)}: the server registry: {str(exc).strip()}"
        if database_connection_lost(exc):
            # The next transaction connects again (a restarted database): 503, try again.
            return StoreUnavailable(f"{text}; nothing is half-applied — try again in a moment")
        return StoreError(text)

    @contextlib.contextmanager
    def _outermost(self) -> Iterator[None]:
        """A transaction in the registry's scope."""
        try:
            if self._conn.closed:  # the server restarted or dropped it: connect again
                self._conn = connect_checked(self._url, allow_superuser=self._allow)
            self._conn.execute(_SCOPE)
        except psycopg.Error as exc:
            with contextlib.suppress(psycopg.Error):
                self._conn.rollback()
            raise self._error(exc) from None
        try:
            yield
        except psycopg.Error as exc:
            with contextlib.suppress(psycopg.Error):
                self._conn.rollback()
            raise self._error(exc) from None
        except BaseException:
            with contextlib.suppress(psycopg.Error):
                self._conn.rollback()
            raise
        try:
            self._conn.commit()
        except psycopg.Error as exc:
            raise self._error(exc) from None

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.transaction():
            return list(self._conn.execute(sql, params).fetchall())

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        with self.transaction():
            return self._conn.execute(sql, params).fetchone()

    def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with self.transaction():
            self._conn.execute(sql, params)

    def get_meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM server_meta WHERE key = %s", (key,))
        return None if row is None else str(row[0])

    def checkpoint(self) -> None:
        """Nothing to do: PostgreSQL's log is the operator's (docs/postgres.md, "Erasure")."""

    # -- tenants ----------------------------------------------------------------------------

    def add_tenant(self, row: TenantRow) -> None:
        self._exec(
            "INSERT INTO server_tenants (name, owner_id, created_at) VALUES (%s, %s, %s)",
            (row.name, row.owner_id, row.created_at),
        )

    def get_tenant(self, name: str) -> TenantRow | None:
        row = self._one(
            "SELECT name, owner_id, created_at FROM server_tenants WHERE name = %s", (name,)
        )
        return None if row is None else TenantRow(row[0], row[1], row[2], b"")

    def tenants(self) -> list[TenantRow]:
        rows = self._all("SELECT name, owner_id, created_at FROM server_tenants ORDER BY name")
        return [TenantRow(r[0], r[1], r[2], b"") for r in rows]

    def delete_tenant(self, name: str) -> None:
        """Remove the tenant and its tokens (its erasure: no row of it stays here; a key it
        had is then unknown, as one never issued)."""
        with self.transaction():
            self._conn.execute("DELETE FROM server_tokens WHERE tenant = %s", (name,))
            self._conn.execute("DELETE FROM server_tenants WHERE name = %s", (name,))

    # -- tokens -----------------------------------------------------------------------------

    def add_token(self, row: TokenRow, key_hash: str) -> None:
        self._exec(
            f"INSERT INTO server_tokens ({NEW_TOKEN_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
            token_values(row, key_hash),
        )

    def token_by_hash(self, key_hash: str) -> TokenRow | None:
        row = self._one(
            f"SELECT {TOKEN_COLUMNS} FROM server_tokens WHERE key_hash = %s", (key_hash,)
        )
        return None if row is None else read_token(row)

    def get_token(self, token_id: str) -> TokenRow | None:
        row = self._one(f"SELECT {TOKEN_COLUMNS} FROM server_tokens WHERE id = %s", (token_id,))
        return None if row is None else read_token(row)

    def tokens(self, tenant: str | None = None) -> list[TokenRow]:
        if tenant is None:
            rows = self._all(
                f"SELECT {TOKEN_COLUMNS} FROM server_tokens ORDER BY tenant, created_at, id"
            )
        else:
            rows = self._all(
                f"SELECT {TOKEN_COLUMNS} FROM server_tokens WHERE tenant = %s "
                "ORDER BY created_at, id",
                (tenant,),
            )
        return [read_token(r) for r in rows]

    def replace_hash(self, token_id: str, key_hash: str, at: str) -> None:
        self._exec(
            "UPDATE server_tokens SET key_hash = %s, rotated_at = %s WHERE id = %s",
            (key_hash, at, token_id),
        )

    def revoke(self, token_ids: list[str], at: str) -> None:
        if token_ids:
            self._exec(
                "UPDATE server_tokens SET revoked_at = %s WHERE id = ANY(%s) "
                "AND revoked_at IS NULL",
                (at, token_ids),
            )

    # -- the server audit log ---------------------------------------------------------------

    def audit(self, actor: str, action: str, details: Mapping[str, Any], at: str) -> AuditEntry:
        """Append one chained entry (inside the caller's transaction, if any); the head row
        is locked, so two servers append one after the other."""
        with self.transaction():
            row = self._conn.execute(
                "SELECT value FROM server_meta WHERE key = %s FOR UPDATE", (_HEAD,)
            ).fetchone()
            entry = chained_entry(None if row is None else str(row[0]), actor, action, details, at)
            self._conn.execute(
                f"INSERT INTO server_audit ({AUDIT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                audit_values(entry),
            )
            self._conn.execute(
                "INSERT INTO server_meta (key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (_HEAD, f"{entry.seq} {entry.hash}"),
            )
            return entry

    def audit_entries(self) -> list[AuditEntry]:
        rows = self._all(f"SELECT {AUDIT_COLUMNS} FROM server_audit ORDER BY seq")
        return [read_audit(r) for r in rows]

    def verify_audit(self) -> AuditReport:
        with self.transaction():
            return verify_chain(self.audit_entries(), self.get_meta(_HEAD))
