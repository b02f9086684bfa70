"""The registry of a server home: its tenants, their tokens and the server's audit log, in
one small SQLCipher file (``registry.db``) keyed with a key derived from the server key.

- ``tenants``: name, owner id (the PAM ``owner.id`` / AIMEM ``tenant_id`` of its vault, and
  the name of its directory), creation time, the vault key wrapped under the server key.
- ``tokens``: id, tenant, the SHA-256 of the API key (never the key), identity, scopes, when
  made, rotated and revoked. Revoked tokens stay, so an old key is told apart from a wrong one.
- ``audit``: tenant, token and erasure events, hash-chained exactly as a vault's audit log
  (`memvault.audit.entry_hash`, the head kept in ``meta``), so one verifier's rules hold for
  both. Entries hold names, ids, scopes and counts — never a key, a hash of one, or content.

One connection, used under a lock: every call is a few indexed statements. `secure_delete`
zeroes deleted rows (an erased tenant's wrapped key) in the file.
"""

from __future__ import annotations

import contextlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import orjson
import sqlcipher3  # type: ignore[import-untyped]

from memvault.audit import GENESIS, AuditReport, hash_of
from memvault.paths import private_database, restrict_file
from memvault.store.base import AuditEntry, StoreError, WrongPassphrase
from memvault.tenancy.keys import ServerKey
from memvault.vault_inputs import format_timestamp

__all__ = [
    "AUDIT_COLUMNS",
    "NEW_TOKEN_COLUMNS",
    "REGISTRY_NAME",
    "TOKEN_COLUMNS",
    "OneConnection",
    "Registry",
    "TenantRow",
    "TokenRow",
    "audit_values",
    "chained_entry",
    "now_text",
    "read_audit",
    "read_token",
    "token_values",
    "verify_chain",
]

REGISTRY_NAME: Final = "registry.db"
_FORMAT: Final = "memvault-server-registry"
_HEAD: Final = "audit_head"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tenants (
    name TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    wrapped_key BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    identity TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    rotated_at TEXT,
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS tokens_tenant ON tokens (tenant);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    details TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
"""


def now_text() -> str:
    return format_timestamp(datetime.now(UTC))


@dataclass(frozen=True, slots=True)
class TenantRow:
    name: str
    owner_id: str
    created_at: str
    wrapped_key: bytes


@dataclass(frozen=True, slots=True)
class TokenRow:
    id: str
    tenant: str
    identity: str
    scopes: tuple[str, ...]
    created_at: str
    rotated_at: str | None
    revoked_at: str | None


# The rows of tokens and of the audit log, the same in a registry file and in PostgreSQL
# (`memvault.tenancy.pgregistry`); each keeps its SQL.

#: The columns a token is read from (`read_token`).
TOKEN_COLUMNS: Final = "id, tenant, identity, scopes, created_at, rotated_at, revoked_at"
#: The columns a new token is written to (`token_values`).
NEW_TOKEN_COLUMNS: Final = "id, tenant, key_hash, identity, scopes, created_at"
AUDIT_COLUMNS: Final = "seq, at, actor, action, details, prev_hash, hash"


def read_token(row: Any) -> TokenRow:
    return TokenRow(row[0], row[1], row[2], tuple(orjson.loads(row[3])), row[4], row[5], row[6])


def token_values(row: TokenRow, key_hash: str) -> tuple[Any, ...]:
    """`NEW_TOKEN_COLUMNS` of a token: the hash of its key, never the key."""
    scopes = orjson.dumps(sorted(row.scopes)).decode()
    return (row.id, row.tenant, key_hash, row.identity, scopes, row.created_at)


def read_audit(row: Any) -> AuditEntry:
    """A server audit entry from its `AUDIT_COLUMNS`."""
    return AuditEntry(
        int(row[0]), row[1], row[2], row[3], None, None, orjson.loads(row[4]), row[5], row[6]
    )


def audit_values(entry: AuditEntry) -> tuple[Any, ...]:
    """`AUDIT_COLUMNS` of a server audit entry."""
    details = orjson.dumps(entry.details).decode()
    return (entry.seq, entry.at, entry.actor, entry.action, details, entry.prev_hash, entry.hash)


def chained_entry(
    head: str | None, actor: str, action: str, details: Mapping[str, Any], at: str
) -> AuditEntry:
    """The entry that follows the chain whose last entry `head` names (``"<seq> <hash>"``;
    None: the chain is empty); its own head is ``f"{entry.seq} {entry.hash}"``."""
    seq, prev = (0, GENESIS) if head is None else (int(head.split()[0]), head.split()[1])
    entry = AuditEntry(seq + 1, at, actor, action, None, None, dict(details), prev, "")
    return replace(entry, hash=hash_of(entry))


class OneConnection(ABC):
    """A registry's one connection, used under a lock: `transaction` opens a transaction
    (nested calls join it); `_outermost` begins and ends it on the database."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._depth = 0

    @abstractmethod
    def _outermost(self) -> contextlib.AbstractContextManager[None]:
        """Begin the transaction on the database; commit, or roll back on an exception."""

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction (nested calls join it), under the registry's lock."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._depth = 1
            try:
                with self._outermost():
                    yield
            finally:
                self._depth = 0


class Registry(OneConnection):
    """The registry file of a server home. `open` creates it when absent."""

    def __init__(self, conn: Any, path: Path) -> None:
        super().__init__()
        self._conn = conn
        self._path = path

    @classmethod
    def open(cls, home: Path, key: ServerKey) -> Registry:
        path = home / REGISTRY_NAME
        private_database(path)
        try:
            conn = sqlcipher3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=10.0
            )
        except sqlcipher3.Error as exc:
            raise StoreError(f"cannot open the registry {path}: {exc}") from None
        try:
            conn.execute("PRAGMA cipher_log_level = NONE")
            conn.execute(f"PRAGMA key = \"x'{key.registry_key.hex()}'\"")
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlcipher3.DatabaseError:
                raise WrongPassphrase(
                    f"the server key does not open the registry {path} (another server key made it)"
                ) from None
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA secure_delete = ON")
            conn.executescript(_SCHEMA)
        except BaseException:
            conn.close()
            raise
        registry = cls(conn, path)
        found = registry.get_meta("format")
        if found is None:  # new (only this server key's holder could have made it empty)
            with registry.transaction():
                conn.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('format', ?)", (_FORMAT,)
                )
        elif found != _FORMAT:
            conn.close()
            raise StoreError(f"{path} is not a memvault server registry")
        for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            restrict_file(file)
        return registry

    @property
    def path(self) -> Path:
        return self._path

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _outermost(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")  # a write transaction
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        with self._lock:
            return self._conn.execute(sql, params).fetchone()

    def get_meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def checkpoint(self) -> None:
        """Empty the write-ahead log into the file (after an erasure: no old page stays)."""
        with self._lock:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    # -- tenants ----------------------------------------------------------------------------

    def add_tenant(self, row: TenantRow) -> None:
        with self.transaction():
            self._conn.execute(
                "INSERT INTO tenants (name, owner_id, created_at, wrapped_key) VALUES (?,?,?,?)",
                (row.name, row.owner_id, row.created_at, row.wrapped_key),
            )

    def get_tenant(self, name: str) -> TenantRow | None:
        row = self._one(
            "SELECT name, owner_id, created_at, wrapped_key FROM tenants WHERE name = ?", (name,)
        )
        return None if row is None else TenantRow(row[0], row[1], row[2], bytes(row[3]))

    def tenants(self) -> list[TenantRow]:
        rows = self._all(
            "SELECT name, owner_id, created_at, wrapped_key FROM tenants ORDER BY name"
        )
        return [TenantRow(r[0], r[1], r[2], bytes(r[3])) for r in rows]

    def delete_tenant(self, name: str) -> None:
        with self.transaction():
            self._conn.execute("DELETE FROM tenants WHERE name = ?", (name,))

    # -- tokens -----------------------------------------------------------------------------

    def add_token(self, row: TokenRow, key_hash: str) -> None:
        with self.transaction():
            self._conn.execute(
                f"INSERT INTO tokens ({NEW_TOKEN_COLUMNS}) VALUES (?,?,?,?,?,?)",
                token_values(row, key_hash),
            )

    def token_by_hash(self, key_hash: str) -> TokenRow | None:
        row = self._one(f"SELECT {TOKEN_COLUMNS} FROM tokens WHERE key_hash = ?", (key_hash,))
        return None if row is None else read_token(row)

    def get_token(self, token_id: str) -> TokenRow | None:
        row = self._one(f"SELECT {TOKEN_COLUMNS} FROM tokens WHERE id = ?", (token_id,))
        return None if row is None else read_token(row)

    def tokens(self, tenant: str | None = None) -> list[TokenRow]:
        if tenant is None:
            rows = self._all(f"SELECT {TOKEN_COLUMNS} FROM tokens ORDER BY tenant, created_at")
        else:
            rows = self._all(
                f"SELECT {TOKEN_COLUMNS} FROM tokens WHERE tenant = ? ORDER BY created_at",
                (tenant,),
            )
        return [read_token(r) for r in rows]

    def replace_hash(self, token_id: str, key_hash: str, at: str) -> None:
        with self.transaction():
            self._conn.execute(
                "UPDATE tokens SET key_hash = ?, rotated_at = ? WHERE id = ?",
                (key_hash, at, token_id),
            )

    def revoke(self, token_ids: list[str], at: str) -> None:
        with self.transaction():
            self._conn.executemany(
                "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                [(at, token_id) for token_id in token_ids],
            )

    # -- the server audit log ---------------------------------------------------------------

    def audit(self, actor: str, action: str, details: Mapping[str, Any], at: str) -> AuditEntry:
        """Append one chained entry (inside the caller's transaction, if any)."""
        with self.transaction():
            entry = chained_entry(self.get_meta(_HEAD), actor, action, details, at)
            self._conn.execute(
                f"INSERT INTO audit ({AUDIT_COLUMNS}) VALUES (?,?,?,?,?,?,?)",
                audit_values(entry),
            )
            self._conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (_HEAD, f"{entry.seq} {entry.hash}"),
            )
            return entry

    def audit_entries(self) -> list[AuditEntry]:
        rows = self._all(f"SELECT {AUDIT_COLUMNS} FROM audit ORDER BY seq")
        return [read_audit(r) for r in rows]

    def verify_audit(self) -> AuditReport:
        """Recompute the chain (`verify_chain`)."""
        return verify_chain(self.audit_entries(), self.get_meta(_HEAD))


def verify_chain(entries: list[AuditEntry], head: str | None) -> AuditReport:
    """Recompute a server audit chain: an edited, removed or reordered entry, or a `head`
    (``"<seq> <hash>"``) that does not match the last entry, is a problem (as
    `memvault.audit.verify` reports them)."""
    problems: list[str] = []
    prev, expected, last = GENESIS, 1, None
    for entry in entries:
        if entry.seq != expected:
            problems.append(f"entry {expected} removed or out of order (found {entry.seq})")
        if entry.prev_hash != prev:
            problems.append(f"entry {entry.seq}: the link to the previous entry is broken")
        if hash_of(entry) != entry.hash:
            problems.append(f"entry {entry.seq} was altered: its hash does not match")
        prev, expected, last = entry.hash, entry.seq + 1, entry
    if head != (None if last is None else f"{last.seq} {last.hash}"):
        problems.append("the registry's record of the last audit entry does not match the log")
    count = 0 if last is None else last.seq
    return AuditReport(not problems, count, problems, None if last is None else last.hash)
