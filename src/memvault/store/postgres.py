"""The PostgreSQL store: many tenants in one database, one store bound to one tenant.

- **Tenancy.** A store is opened for one tenant and every statement names it; each row
  carries its tenant, which leads every primary key and B-tree index. Row-level security,
  forced on every tenant table (migration 1, `memvault.store.pgmigrations`), lets a
  transaction see and write only the rows of the tenant its ``memvault.tenant`` setting
  names; the store sets it (``set_config(..., true)``: for that transaction only) at the
  start of each. A session naming no tenant sees no rows.
- **Roles.** The store refuses to run as a superuser or a role with BYPASSRLS (they skip
  row-level security) unless told to (``allow_superuser=True``, ``$MEMVAULT_ALLOW_SUPERUSER``).
  Migrations run as the same application role, when a store opens or `migrate` is called.
- **Secrets.** Private signing keys are sealed with the operator's server key
  (`memvault.store.serverkey`) before they are written. Content is kept in plaintext (the
  server searches it): encryption at rest is the operator's storage encryption
  (docs/security.md).
- **Concurrency.** A pool of connections (psycopg_pool). A write transaction holds one
  connection for the thread that opened it and takes a per-tenant advisory lock, so one
  writer per tenant at a time across processes; reads on other threads run on other pooled
  connections and see the last commit; reads on the writing thread see its writes.
- **Full text.** Content, summary and tags, diacritics folded here ("acao" finds "ação"),
  indexed under PostgreSQL's ``english`` and ``portuguese`` configurations; every word of a
  query must match under either; ``ts_rank`` orders by relevance.
- **Recall**: passages of memories and messages, their full text and (with pgvector) their
  vectors, written in the transaction that writes what they come from
  (`memvault.store.postgres_recall`); without pgvector, recall is full text only (said when
  the store opens, and by `memvault embed`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit

import orjson
import psycopg
import psycopg_pool
from psycopg import errors as pgerrors

from memvault.errors import EXIT_USAGE, HTTP_UNPROCESSABLE, VaultExists, VaultNotFound
from memvault.model import Access, AccessGrant, Memory, Owner, Relation, timestamp_epoch
from memvault.store import postgres_recall as recall
from memvault.store import tables
from memvault.store.base import (
    AuditEntry,
    ConversationSummary,
    ExportRecord,
    IntegrityViolation,
    KeyRecord,
    MemoryQuery,
    SearchHit,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
    StoreError,
    StoreUnavailable,
)
from memvault.store.codec import dump_memory
from memvault.store.documents import document_json
from memvault.store.pgmigrations import LATEST, MIGRATIONS
from memvault.store.pgmigrations.p0002_recall_index import VECTORS_SQL
from memvault.store.postgres_recall import PostgresRecallIndex, fold
from memvault.store.serverkey import SERVER_KEY_ENV, ServerKey

__all__ = [
    "ALLOW_SUPERUSER_ENV",
    "DEFAULT_TENANT",
    "PostgresStore",
    "RoleRefused",
    "UnstorableText",
    "connect_checked",
    "migrate",
    "redact",
]

ALLOW_SUPERUSER_ENV: Final = "MEMVAULT_ALLOW_SUPERUSER"
#: The tenant of a store opened without one: a personal vault's (``$MEMVAULT_TENANT``).
DEFAULT_TENANT: Final = "owner"
FORMAT: Final = "memvault-vault"
#: The advisory lock migrations take (any constant; "memvault" in ASCII).
_MIGRATION_LOCK: Final = 0x6D656D7661756C74
_TENANT_RE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_TOKEN: Final = re.compile(r"(\w+)(\*?)")
#: Words of a search query beyond this many are ignored.
_MAX_WORDS: Final = 64
_SET_TENANT: Final = "SELECT set_config('memvault.tenant', %s, true)"
#: How long a writer waits for another writer of the same tenant (seconds).
_LOCK_WAIT: Final = 10
#: A transaction that adds at least this many rows to a table, and at least a tenth of what
#: its statistics counted, analyses the table once it commits (`_analyse_bulk_writes`).
_ANALYZE_ROWS: Final = 1000
_ANALYZE_SHARE: Final = 0.1
#: How long that ANALYZE waits for another one (or autovacuum's) before leaving it to them.
_ANALYZE_LOCK_WAIT: Final = 2
_T = TypeVar("_T")
_log = logging.getLogger("memvault.store")

_ORDERS: Final = {
    "created": "m.created_epoch ASC, m.seq ASC",
    "-created": "m.created_epoch DESC, m.seq DESC",
    "updated": "COALESCE(m.updated_epoch, m.created_epoch) ASC, m.seq ASC",
    "-updated": "COALESCE(m.updated_epoch, m.created_epoch) DESC, m.seq DESC",
}
_MEMORY_COLUMNS: Final = (
    "type, custom_type, status, content_hash, platform, extraction_method, created_epoch, "
    "updated_epoch, exportable, visibility, decay_anchor, tags, readers, document"
)
_FTS: Final = "to_tsvector('english', %s) || to_tsvector('portuguese', %s)"
_INSERT_MEMORY: Final = (
    f"INSERT INTO memories (tenant, id, {_MEMORY_COLUMNS}, fts) "
    f"VALUES (%s, %s, {', '.join(['%s'] * 14)}, {_FTS})"
)
_UPDATE_MEMORY: Final = (
    "UPDATE memories SET "
    + ", ".join(f"{c.strip()} = %s" for c in _MEMORY_COLUMNS.split(","))
    + f", fts = {_FTS} WHERE tenant = %s AND id = %s"
)


def redact(url: str) -> str:
    """The database URL without its password, for messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "the database URL"
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()


def check_tenant(tenant: str) -> str:
    if not _TENANT_RE.fullmatch(tenant):
        raise StoreError(
            f"tenant {tenant!r}: a tenant id is 1-128 letters, digits, '.', '_', ':' or '-', "
            "starting with a letter or digit"
        )
    return tenant


def tsquery_params(text: str) -> list[str]:
    """The lexeme literals of a query: each word of `text` (folded), quoted for to_tsquery,
    ``:*`` after a word ending in ``*`` (a prefix). Empty when the text has no words."""
    words: list[str] = []
    for word, star in _TOKEN.findall(text):
        for part in _TOKEN.findall(fold(word)):
            literal = "'" + part[0].replace("\\", "\\\\").replace("'", "''") + "'"
            words.append(literal + (":*" if star else ""))
    return words[:_MAX_WORDS]


def _tsquery(words: list[str], params: list[Any]) -> str:
    """SQL for a tsquery where every word matches under english or portuguese."""
    parts = []
    for word in words:
        parts.append("(to_tsquery('english', %s) || to_tsquery('portuguese', %s))")
        params.extend((word, word))
    return " && ".join(parts)


def _tags(memory: Memory) -> list[str]:
    tags = memory.tags
    if not tags or not isinstance(tags, (tuple, list)):
        return []
    return list(dict.fromkeys(t for t in tags if isinstance(t, str)))


def _readers(memory: Memory) -> list[str]:
    access = memory.access
    if not isinstance(access, Access) or not isinstance(access.shared_with, (tuple, list)):
        return []
    found: dict[str, None] = {}
    for grant in access.shared_with:
        if (
            isinstance(grant, AccessGrant)
            and isinstance(grant.permissions, (tuple, list))
            and "read" in grant.permissions
        ):
            found[grant.entity] = None
    return list(found)


def _epoch(value: object, memory_id: str, field: str) -> float:
    epoch = timestamp_epoch(value)
    if epoch is None:
        raise StoreError(
            f"memory {memory_id}: temporal.{field} {value!r} is not an ISO 8601 timestamp "
            "(PAM §4.1)"
        )
    return epoch


def _memory_values(stored: StoredMemory) -> tuple[Any, ...]:
    """The `_MEMORY_COLUMNS` of a memory, then its full-text text twice."""
    m = stored.memory
    created = _epoch(m.temporal.created_at, m.id, "created_at")
    updated = m.temporal.updated_at
    access = m.access
    custom = m.custom_type
    method = m.provenance.extraction_method
    tags = _tags(m)
    summary = m.summary if isinstance(m.summary, str) else ""
    # A tsvector holds at most 1 MB: the words of the first characters only.
    text = fold(" ".join((m.content, summary, " ".join(tags)))[: recall.MAX_INDEXED_CHARS])
    return (
        m.type,
        custom if isinstance(custom, str) else None,
        m.effective_status,
        m.content_hash,
        m.provenance.platform,
        method if isinstance(method, str) else None,
        created,
        _epoch(updated, m.id, "updated_at") if isinstance(updated, str) else None,
        not (isinstance(access, Access) and not access.is_exportable),
        access.effective_visibility if isinstance(access, Access) else "private",
        stored.decay_anchor,
        tags,
        _readers(m),
        stored.document if stored.document is not None else dump_memory(m),
        text,
        text,
    )


def _dt_epoch(value: datetime) -> float:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def _any(column: str, values: Sequence[Any], params: list[Any]) -> str:
    """`column` equal to one of `values`: a plain ``=`` for one value, so the planner can walk
    an index on (tenant, column, order) in order and stop at the LIMIT."""
    if len(values) == 1:
        params.append(values[0])
        return f"{column} = %s"
    params.append(list(values))
    return f"{column} = ANY(%s)"


#: A page sorts at most this many matches of its confidence bounds (read through their
#: index); a bound matching more walks the status/created index instead
#: (benchmarks/memory_filters.py).
_CONFIDENCE_SORT_AT_MOST: Final = 2000


def _where(
    query: MemoryQuery,
    tenant: str,
    params: list[Any],
    *,
    text: bool = True,
    walk_created: bool = False,
) -> str:
    """The query's filters on ``memories m`` (ANDed), the tenant first. With `walk_created`
    the confidence bounds are written so that no index serves them ("+ 0"): a page of a broad
    bound walks the status/created index newest first and stops after LIMIT matches."""
    clauses = ["m.tenant = %s"]
    params.append(tenant)
    if query.ids:
        clauses.append(_any("m.id", query.ids, params))
    if query.types:
        clauses.append(_any("m.type", query.types, params))
    if query.custom_types:
        clauses.append(_any("m.custom_type", query.custom_types, params))
    if query.statuses is not None:
        if query.statuses:
            clauses.append(_any("m.status", query.statuses, params))
        else:
            clauses.append("false")
    if query.tags:
        clauses.append("m.tags @> %s::text[]")
        params.append(list(query.tags))
    if query.platforms:
        clauses.append(_any("m.platform", query.platforms, params))
    if query.extraction_methods:
        clauses.append(_any("m.extraction_method", query.extraction_methods, params))
    if query.created_since is not None:
        clauses.append("m.created_epoch >= %s")
        params.append(_dt_epoch(query.created_since))
    if query.created_until is not None:
        clauses.append("m.created_epoch <= %s")
        params.append(_dt_epoch(query.created_until))
    if query.updated_since is not None:
        clauses.append("COALESCE(m.updated_epoch, m.created_epoch) >= %s")
        params.append(_dt_epoch(query.updated_since))
    if query.exportable_only:
        clauses.append("m.exportable")
    if query.min_confidence is not None or query.max_confidence is not None:
        # The stored `confidence.current` (PAM §8) when it is a JSON number: the generated
        # column of migration 3, indexed after the tenant and the status.
        column = "(m.confidence + 0)" if walk_created else "m.confidence"
        if query.min_confidence is not None:
            clauses.append(f"{column} >= %s")
            params.append(float(query.min_confidence))
        if query.max_confidence is not None:
            clauses.append(f"{column} <= %s")
            params.append(float(query.max_confidence))
    if query.readable_by is not None:
        clauses.append(
            "(m.visibility = 'public' OR (m.visibility = 'shared' AND m.readers @> %s::text[]))"
        )
        params.append([query.readable_by])
    if text and query.text is not None:
        words = tsquery_params(query.text)
        if words:
            clauses.append(f"m.fts @@ ({_tsquery(words, params)})")
        else:
            clauses.append("false")
    return " AND ".join(clauses)


def _limit(query: MemoryQuery, params: list[Any]) -> str:
    if query.limit is None and not query.offset:
        return ""
    params.extend((query.limit, query.offset))
    return " LIMIT %s OFFSET %s"


class RoleRefused(StoreError):
    """The database URL names a superuser or a BYPASSRLS role, which row-level security does
    not bind: a usage error (connect as the application role, or allow it explicitly)."""

    exit_code = EXIT_USAGE


class UnstorableText(StoreError):
    """A value holds a NUL character (U+0000), which PostgreSQL's text cannot: bad input (a
    usage error, HTTP 422), never a server failure."""

    exit_code = EXIT_USAGE
    http_status = HTTP_UNPROCESSABLE


def _role_check(conn: psycopg.Connection[Any], url: str, allow_superuser: bool) -> None:
    row = conn.execute(
        "SELECT current_user, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if row is None or allow_superuser:
        return
    user, superuser, bypass = row
    if superuser or bypass:
        raise RoleRefused(
            f"{redact(url)}: the role {user!r} is a "
            f"{'superuser' if superuser else 'role with BYPASSRLS'}, which row-level security "
            "does not bind; connect as the application role (docs/postgres.md), or set "
            f"{ALLOW_SUPERUSER_ENV}=1 to run as it anyway"
        )


def _schema_version(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT to_regclass('memvault_migrations') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    found = conn.execute("SELECT COALESCE(max(version), 0) FROM memvault_migrations").fetchone()
    return int(found[0]) if found is not None else 0


#: Seconds one reconnection attempt of the pool keeps trying (see `_acquire`).
_RECONNECT_WINDOW: Final = 5.0
#: SQLSTATEs of a server shutting down or refusing connections while it starts (class 57P).
_SHUTDOWN_STATES: Final = frozenset({"57P01", "57P02", "57P03"})


def _connection_lost(exc: psycopg.Error) -> bool:
    """Whether `exc` means the server went away or cannot be reached (class 08, a shutdown, or
    a connection the client lost without a SQLSTATE): the transaction did not commit."""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = exc.sqlstate
    return state is None or state.startswith("08") or state in _SHUTDOWN_STATES


def _connect(url: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(url, **_CONNECT_OPTIONS)
    except psycopg.Error as exc:
        text = f"cannot connect to {redact(url)}: {str(exc).strip()}"
        if _connection_lost(exc):  # down or restarting: worth trying again (HTTP 503)
            raise StoreUnavailable(text) from None
        raise StoreError(text) from None


def connect_checked(url: str, *, allow_superuser: bool | None = None) -> psycopg.Connection[Any]:
    """A connection to `url` whose role row-level security binds (RoleRefused for a superuser
    or BYPASSRLS role unless allowed: `allow_superuser`, else ``$MEMVAULT_ALLOW_SUPERUSER``)."""
    conn = _connect(url)
    try:
        _role_check(conn, url, _allow_superuser(allow_superuser))
        conn.commit()
    except BaseException:
        conn.close()
        raise
    return conn


def migrate(url: str, *, allow_superuser: bool | None = None) -> tuple[int, int]:
    """Bring the database at `url` to the latest schema, as the role the URL names (the
    application role): (version before, version after). One migrator at a time."""
    allow = _allow_superuser(allow_superuser)
    with _connect(url) as conn:
        _role_check(conn, url, allow)
        conn.commit()
        return _migrate(conn, url)


def _migrate(conn: psycopg.Connection[Any], url: str) -> tuple[int, int]:
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS memvault_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            before = _schema_version(conn)
            if before > LATEST:
                raise StoreError(
                    f"{redact(url)} has schema version {before}, newer than this memvault "
                    f"understands ({LATEST}); upgrade memvault"
                )
            for migration in MIGRATIONS:
                if migration.version > before:
                    conn.execute(migration.sql)
                    conn.execute(
                        "INSERT INTO memvault_migrations (version, name) VALUES (%s, %s)",
                        (migration.version, migration.name),
                    )
    except psycopg.Error as exc:
        raise StoreError(f"{redact(url)}: migrating failed: {str(exc).strip()}") from None
    return before, LATEST


def _allow_superuser(value: bool | None) -> bool:
    if value is not None:
        return value
    return os.environ.get(ALLOW_SUPERUSER_ENV, "").strip().lower() in ("1", "true", "yes")


@dataclass(eq=False)
class _SharedPool:
    """The connection pool of one database URL, shared by the stores of this process."""

    key: tuple[str, bool]
    pool: psycopg_pool.ConnectionPool[Any]
    #: Whether the database has pgvector (recall keeps vectors only then).
    vectors: bool
    #: Whether its pgvector has iterative index scans (0.8 and later).
    iterative_scan: bool = False
    users: int = 0


_pools: dict[tuple[str, bool], _SharedPool] = {}
_pools_lock = threading.Lock()
#: Seconds a statement waits for a pooled connection.
_POOL_WAIT: Final = 30.0
#: Seconds of one wait for a pooled connection (`PostgresStore._getconn`).
_POOL_SLICE: Final = 2.0
#: Options of every pooled connection: a connection attempt gives up after 10 s (a busy host), and
#: TCP keepalives find a peer that vanished without closing (a host down, a network cut)
#: within about a minute instead of the kernel's two hours.
_CONNECT_OPTIONS: Final[dict[str, Any]] = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}


def _acquire(url: str, allow_superuser: bool, size: int) -> _SharedPool:
    """The pool of `url` (made on first use: the role checked, the schema migrated)."""
    key = (url, allow_superuser)
    with _pools_lock:
        shared = _pools.get(key)
        if shared is None:
            with _connect(url) as conn:
                _role_check(conn, url, allow_superuser)
                conn.commit()
                _migrate(conn, url)
                version = _vector_version(conn, url)
            pool: psycopg_pool.ConnectionPool[Any] = psycopg_pool.ConnectionPool(
                url,
                kwargs=dict(_CONNECT_OPTIONS),
                min_size=1,
                max_size=max(2, size),
                open=False,
                name="memvault",
                # A connection the server dropped (a restart) is replaced, not handed out.
                check=psycopg_pool.ConnectionPool.check_connection,
                # A reconnection backs off exponentially without bound until this many seconds;
                # kept short, a restarted database is reached again within seconds (the next
                # request starts a fresh attempt), not after a backoff of a minute.
                reconnect_timeout=_RECONNECT_WINDOW,
            )
            try:
                pool.open(wait=True, timeout=10)
            except psycopg_pool.PoolTimeout:
                pool.close()
                raise StoreError(f"cannot open connections to {redact(url)}") from None
            shared = _pools[key] = _SharedPool(
                key, pool, version is not None, version is not None and version >= (0, 8)
            )
        shared.users += 1
        return shared


def _vector_version(conn: psycopg.Connection[Any], url: str) -> tuple[int, ...] | None:
    """pgvector's version in the database (None without it: recall by full text only, said
    here), its vectors table made if the extension came after migration 2."""
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        _log.info(
            "%s has no pgvector extension: recall is full text only (no vectors)", redact(url)
        )
        return None
    found = conn.execute("SELECT to_regclass('recall_vectors') IS NOT NULL").fetchone()
    if found is None or not found[0]:
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                conn.execute(VECTORS_SQL)
        except psycopg.Error as exc:
            raise StoreError(f"{redact(url)}: making the vectors table failed: {exc}") from None
    conn.commit()
    return tuple(int(part) for part in re.findall(r"\d+", str(row[0]))[:3])


def _release(shared: _SharedPool) -> None:
    with _pools_lock:
        shared.users -= 1
        if shared.users > 0:
            return
        if _pools.get(shared.key) is shared:
            del _pools[shared.key]
    shared.pool.close(timeout=1.0)


def _analyse_bulk_writes(conn: psycopg.Connection[Any], added: Mapping[str, int] | None) -> None:
    """ANALYZE the tables a just-committed transaction added many rows to.

    PostgreSQL plans on a table's statistics, which autovacuum refreshes a while after a bulk
    load (up to a minute, more on a busy server). Until then a table filled by a large import
    — a new tenant's, say — still looks empty or small, and the memory list is planned for a
    handful of rows: four times slower at 100,000 memories (benchmarks/memory_filters.py).
    So a transaction that added at least `_ANALYZE_ROWS` rows to a table, and at least
    `_ANALYZE_SHARE` of the rows its statistics counted (autovacuum's own rule of thumb),
    analyses it right after its commit, in a transaction of its own: ANALYZE samples a
    bounded number of rows whatever the table's size, and blocks no reader or writer. It
    is an optimisation: one that cannot run now (a concurrent ANALYZE holding the table, a
    role that does not own it) is left to autovacuum, and the committed write stands."""
    big = sorted(table for table, rows in (added or {}).items() if rows >= _ANALYZE_ROWS)
    if not big:
        return
    try:
        known = conn.execute(
            "SELECT t.name, greatest(c.reltuples, 0) FROM unnest(%s::text[]) AS t(name) "
            "JOIN pg_class c ON c.oid = to_regclass(t.name)",
            (big,),
        ).fetchall()
        stale = [
            str(name) for name, rows in known if added and added[name] >= _ANALYZE_SHARE * rows
        ]
        if stale:
            conn.execute(f"SET LOCAL lock_timeout = '{_ANALYZE_LOCK_WAIT}s'")
            for table in stale:  # names of this module's tables, never user input
                conn.execute(f"ANALYZE {table}")
        conn.commit()
    except psycopg.Error as exc:
        _log.info("statistics left to autovacuum after a bulk write: %s", exc)
        with contextlib.suppress(psycopg.Error):
            conn.rollback()


class _ThreadState(threading.local):
    conn: psycopg.Connection[Any] | None = None
    depth: int = 0
    flat: bool = False
    #: rows the outermost transaction added, by table (`_analyse_bulk_writes`)
    added: dict[str, int] | None = None


class PostgresStore(Store):
    """`Store` on a PostgreSQL database, bound to one tenant. Made with `create` or `open`."""

    def __init__(
        self, shared: _SharedPool, url: str, tenant: str, server_key: ServerKey | None
    ) -> None:
        self._shared = shared
        self._pool = shared.pool
        self._url = url
        self._tenant = tenant
        self._server_key = server_key
        #: Whether the database has pgvector: recall keeps vectors (else full text only).
        self.vectors = shared.vectors
        self._state = _ThreadState()
        self._closed = False

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def connect(
        cls,
        url: str,
        tenant: str = DEFAULT_TENANT,
        *,
        server_key: ServerKey | None = None,
        allow_superuser: bool | None = None,
        pool_size: int = 10,
    ) -> PostgresStore:
        """A store of `tenant` on the database at `url`, migrated to the latest schema, whether
        or not the tenant holds a vault yet. Refuses a superuser or BYPASSRLS role unless
        `allow_superuser` (default: ``$MEMVAULT_ALLOW_SUPERUSER``). `server_key` defaults
        to ``$MEMVAULT_SERVER_KEY`` / ``$MEMVAULT_SERVER_KEY_FILE``.

        Stores of one URL in one process share a pool of `pool_size` connections (made, with
        the role checked and the schema migrated, by the first): every transaction names its
        tenant itself, so a connection carries nothing from one tenant to the next, and a
        server with a thousand tenants opens tens of connections, not thousands."""
        check_tenant(tenant)
        allow = _allow_superuser(allow_superuser)
        key = server_key if server_key is not None else ServerKey.from_environment()
        shared = _acquire(url, allow, pool_size)
        return cls(shared, url, tenant, key)

    @classmethod
    def create(cls, url: str, tenant: str = DEFAULT_TENANT, **options: Any) -> PostgresStore:
        """A new, empty vault for `tenant` (VaultExists when the tenant has one)."""
        store = cls.connect(url, tenant, **options)
        try:
            with store.transaction():
                if store.get_meta("format") is not None:
                    raise VaultExists(
                        f"tenant {tenant!r} already has a vault in {redact(url)}; it was left "
                        "untouched"
                    )
                store.set_meta("format", FORMAT)
                store.set_meta("created_at", datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
        except BaseException:
            store.close()
            raise
        return store

    @classmethod
    def open(cls, url: str, tenant: str = DEFAULT_TENANT, **options: Any) -> PostgresStore:
        """The vault of `tenant` (VaultNotFound when the tenant has none)."""
        store = cls.connect(url, tenant, **options)
        if store.get_meta("format") != FORMAT:
            store.close()
            raise VaultNotFound(
                f"tenant {tenant!r} has no vault in {redact(url)} (create one with "
                "`memvault init`, or set MEMVAULT_TENANT)"
            )
        return store

    @property
    def tenant(self) -> str:
        return self._tenant

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Give the shared pool back (closed with its last store). A transaction still open on
        another thread is rolled back when it ends."""
        if not self._closed:
            self._closed = True
            _release(self._shared)

    @contextlib.contextmanager
    def recall_index(self) -> Iterator[PostgresRecallIndex]:
        """The tenant's recall index: on this thread's transaction (its writes join it), else
        on a pooled connection for the block (recall never waits for a writer)."""
        conn = self._state.conn
        if conn is not None:
            try:
                yield self._recall(conn)
            except psycopg.Error as exc:
                raise self._error(exc) from None
            return
        if self._closed:
            raise StoreError("the vault is closed")
        conn = self._getconn()
        try:
            conn.execute(_SET_TENANT, (self._tenant,))
            yield self._recall(conn)
        except psycopg.Error as exc:
            raise self._error(exc) from None
        finally:
            self._give_back(conn)

    def vectors_unavailable(self) -> str | None:
        return None if self.vectors else recall.NO_VECTORS

    def _recall(self, conn: psycopg.Connection[Any]) -> PostgresRecallIndex:
        return PostgresRecallIndex(
            conn,
            self._tenant,
            vectors=self.vectors,
            iterative_scan=self._shared.iterative_scan,
        )

    @property
    def schema_version(self) -> int:
        return self._read(_schema_version)

    def _error(self, exc: psycopg.Error, what: str = "") -> StoreError:
        detail = getattr(getattr(exc, "diag", None), "message_detail", None) or ""
        text = f"{what}{': ' if what else ''}{str(exc).strip()} {detail}".strip()
        if isinstance(exc, psycopg.DataError) and "NUL" in str(exc):
            # Raised by psycopg before the statement is sent: nothing was written.
            return UnstorableText(
                f"{what}{': ' if what else ''}a text value (a field or a filter) contains a NUL "
                "character (U+0000), which PostgreSQL cannot store or compare; nothing was done"
            )
        if isinstance(exc, pgerrors.IntegrityError):
            return IntegrityViolation(text)
        if isinstance(exc, pgerrors.LockNotAvailable):
            return StoreError(f"another writer held tenant {self._tenant!r} too long: {text}")
        if _connection_lost(exc):
            return StoreUnavailable(
                f"{redact(self._url)} is unreachable or dropped the connection ({text}); "
                "nothing is half-applied — try again in a moment"
            )
        return StoreError(f"{redact(self._url)}: {text}")

    def writing(self) -> bool:
        return self._state.depth > 0

    @contextlib.contextmanager
    def transaction(self, *, savepoints: bool = True) -> Iterator[None]:
        """`Store.transaction`: nested ones are savepoints (none under savepoints=False)."""
        state = self._state
        if self._closed:
            raise StoreError("the vault is closed")
        if state.depth and state.flat:
            state.depth += 1
            try:
                yield
            finally:
                state.depth -= 1
            return
        if state.depth:
            conn = state.conn
            assert conn is not None
            name = f"sp{state.depth}"
            flat = state.flat
            try:
                conn.execute(f"SAVEPOINT {name}")
            except psycopg.Error as exc:
                raise self._error(exc, "could not begin a nested transaction") from None
            state.depth += 1
            state.flat = not savepoints
            try:
                yield
            except BaseException:
                if not self._closed:
                    with contextlib.suppress(psycopg.Error):
                        conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                        conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            else:
                try:
                    conn.execute(f"RELEASE SAVEPOINT {name}")
                except psycopg.Error as exc:
                    raise self._error(exc) from None
            finally:
                state.depth -= 1
                state.flat = flat
            return
        conn = self._getconn()
        try:
            try:
                conn.execute(_SET_TENANT, (self._tenant,))
                conn.execute(f"SET LOCAL lock_timeout = '{_LOCK_WAIT}s'")
                conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (self._tenant,)
                )
            except psycopg.Error as exc:
                raise self._error(exc, "could not begin a transaction") from None
            state.conn, state.depth, state.flat = conn, 1, not savepoints
            state.added = {}
            try:
                yield
            except BaseException:
                if not self._closed:
                    with contextlib.suppress(psycopg.Error):
                        conn.rollback()
                raise
            else:
                try:
                    conn.commit()
                except psycopg.Error as exc:
                    raise self._error(exc, "could not commit") from None
                _analyse_bulk_writes(conn, state.added)
            finally:
                state.conn, state.depth, state.flat, state.added = None, 0, False, None
        finally:
            self._give_back(conn)

    def _added(self, table: str, rows: int) -> None:
        """Count rows this thread's transaction added to `table` (`_analyse_bulk_writes`)."""
        added = self._state.added
        if added is not None and rows:
            added[table] = added.get(table, 0) + rows

    # -- helpers --------------------------------------------------------------------------

    def _getconn(self) -> psycopg.Connection[Any]:
        """A pooled connection, checked alive, within `_POOL_WAIT` seconds (StoreUnavailable
        after). Asked for in slices: after a database restart every idle connection is
        broken and the pool's attempts to replace them may give up while the database is
        still starting; a waiter no attempt serves would wait out its whole timeout, so each
        slice that comes to nothing sweeps the broken idle connections away and asks again
        (which makes the pool grow back)."""
        deadline = time.monotonic() + _POOL_WAIT
        while True:
            left = deadline - time.monotonic()
            try:
                conn: psycopg.Connection[Any] = self._pool.getconn(
                    timeout=max(0.01, min(_POOL_SLICE, left))
                )
                return conn
            except psycopg_pool.PoolClosed:
                raise StoreError("the vault is closed") from None
            except psycopg_pool.PoolTimeout:
                if time.monotonic() >= deadline:
                    raise StoreUnavailable(
                        f"no connection to {redact(self._url)} came free in "
                        f"{_POOL_WAIT:.0f} s (the pool is exhausted or the server is "
                        "unreachable)"
                    ) from None
            with contextlib.suppress(psycopg_pool.PoolClosed):
                self._pool.check()

    def _give_back(self, conn: psycopg.Connection[Any]) -> None:
        """Return `conn` to the pool, rolled back. Always returned, even when the rollback
        fails: a connection the server dropped (a restart) fails it, and one kept out of the
        pool would shrink it for good — after a few restarts every request would wait for a
        connection that never comes. The pool replaces a broken one."""
        try:
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                conn.rollback()
        except psycopg.Error:
            pass
        finally:
            with contextlib.suppress(psycopg_pool.PoolClosed, ValueError):
                self._pool.putconn(conn)

    def _read(self, run: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """`run` on this thread's transaction, or on a pooled connection in a transaction of
        its own that names the tenant."""
        conn = self._state.conn
        if conn is not None:
            try:
                return run(conn)
            except psycopg.Error as exc:
                raise self._error(exc) from None
        if self._closed:
            raise StoreError("the vault is closed")
        conn = self._getconn()
        try:
            conn.execute(_SET_TENANT, (self._tenant,))
            return run(conn)
        except psycopg.Error as exc:
            raise self._error(exc) from None
        finally:
            self._give_back(conn)

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._read(lambda c: c.execute(sql, params).fetchall())

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._read(lambda c: c.execute(sql, params).fetchone())

    def _conn(self) -> psycopg.Connection[Any]:
        conn = self._state.conn
        assert conn is not None, "only inside a transaction"
        return conn

    def _exec(self, sql: str, params: Sequence[Any] = (), what: str = "") -> int:
        """One write statement inside this thread's transaction; the rows it touched."""
        try:
            return self._conn().execute(sql, params).rowcount
        except psycopg.Error as exc:
            raise self._error(exc, what) from None

    def _many(self, sql: str, rows: Sequence[Sequence[Any]], what: str = "") -> None:
        if not rows:
            return
        try:
            with self._conn().cursor() as cursor:
                cursor.executemany(sql, rows)
        except psycopg.Error as exc:
            raise self._error(exc, what) from None

    def _write(self, sql: str, params: Sequence[Any] = (), what: str = "") -> int:
        with self.transaction():
            return self._exec(sql, params, what)

    # -- settings and owner ---------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._one(
            "SELECT value FROM meta WHERE tenant = %s AND key = %s", (self._tenant, key)
        )
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._write(
            "INSERT INTO meta (tenant, key, value) VALUES (%s, %s, %s) "
            "ON CONFLICT (tenant, key) DO UPDATE SET value = excluded.value",
            (self._tenant, key, value),
        )

    def delete_meta(self, keys: Iterable[str]) -> int:
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return 0
        return self._write(
            "DELETE FROM meta WHERE tenant = %s AND key = ANY(%s)", (self._tenant, wanted)
        )

    def meta_keys(self, prefix: str, *, value: str | None = None) -> list[str]:
        sql = "SELECT key FROM meta WHERE tenant = %s AND starts_with(key, %s)"
        params: list[Any] = [self._tenant, prefix]
        if value is not None:
            sql += " AND value = %s"
            params.append(value)
        return [str(r[0]) for r in self._all(sql + " ORDER BY key", params)]

    def get_owner(self) -> Owner | None:
        row = self._one("SELECT document FROM owner WHERE tenant = %s", (self._tenant,))
        return None if row is None else Owner.from_json(orjson.loads(row[0]))

    def set_owner(self, owner: Owner) -> None:
        self._write(
            "INSERT INTO owner (tenant, id, document) VALUES (%s, %s, %s) ON CONFLICT (tenant) "
            "DO UPDATE SET id = excluded.id, document = excluded.document",
            (self._tenant, owner.id, orjson.dumps(owner.to_json()).decode()),
        )

    # -- memories -------------------------------------------------------------------------

    def insert_memories(self, memories: Iterable[StoredMemory]) -> int:
        """One batch of rows; a taken id is found by the rows not inserted (the server
        does not name the key of a conflict on a table with row-level security)."""
        batch = list(memories)
        rows = [(self._tenant, s.memory.id, *_memory_values(s)) for s in batch]
        if not rows:
            return 0
        ids = [row[1] for row in rows]
        if len(set(ids)) != len(ids):
            seen: set[str] = set()
            twin = next(i for i in ids if i in seen or seen.add(i))  # type: ignore[func-returns-value]
            raise IntegrityViolation(f"memory {twin} is twice in one insert")
        with self.transaction():
            seqs: set[tuple[str, int]] = set()
            try:
                with self._conn().cursor() as cursor:
                    cursor.executemany(
                        _INSERT_MEMORY + " ON CONFLICT (tenant, id) DO NOTHING RETURNING id, seq",
                        rows,
                        returning=True,
                    )
                    while True:
                        seqs.update((str(r[0]), int(r[1])) for r in cursor.fetchall())
                        if not cursor.nextset():
                            break
            except psycopg.Error as exc:
                raise self._error(exc, "memory") from None
            inserted = dict(seqs)
            if len(inserted) != len(ids):
                taken = next(i for i in ids if i not in inserted)
                raise IntegrityViolation(f"memory {taken} already exists")
            passages = self._index(
                recall.index_memories,
                [(inserted[s.memory.id], s.memory) for s in batch],
                fresh=True,
            )
            self._added("memories", len(rows))
            self._added("recall_passages", passages)
        return len(rows)

    def _index(self, write: Callable[..., Any], items: Any, **options: Any) -> Any:
        """A write of the recall index inside this thread's transaction."""
        try:
            return write(self._conn(), self._tenant, self.vectors, items, **options)
        except psycopg.Error as exc:
            raise self._error(exc, "recall index") from None

    def update_memory(self, memory: StoredMemory) -> None:
        if self.update_memories([memory]) != 1:
            raise StoreError(f"memory {memory.memory.id} does not exist")

    def update_memories(self, memories: Iterable[StoredMemory]) -> int:
        batch = list({m.memory.id: m for m in memories}.values())
        updated: list[tuple[int, Memory]] = []
        with self.transaction():
            for stored in batch:
                try:
                    row = (
                        self._conn()
                        .execute(
                            _UPDATE_MEMORY + " RETURNING seq",
                            (*_memory_values(stored), self._tenant, stored.memory.id),
                        )
                        .fetchone()
                    )
                except psycopg.Error as exc:
                    raise self._error(exc, "memory") from None
                if row is not None:
                    updated.append((int(row[0]), stored.memory))
            self._index(recall.index_memories, updated, fresh=False)
        return len(updated)

    _stored = staticmethod(tables.read_memory)

    def get_memory(self, memory_id: str) -> StoredMemory | None:
        row = self._one(
            "SELECT document, decay_anchor FROM memories WHERE tenant = %s AND id = %s",
            (self._tenant, memory_id),
        )
        return None if row is None else self._stored(row)

    def get_memories(self, memory_ids: Sequence[str]) -> list[StoredMemory]:
        rows = self._all(
            "SELECT id, document, decay_anchor FROM memories WHERE tenant = %s AND id = ANY(%s)",
            (self._tenant, list(memory_ids)),
        )
        by_id = {r[0]: self._stored(r[1:]) for r in rows}
        return [by_id[i] for i in memory_ids if i in by_id]

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        rows = self._all(
            "SELECT id, content_hash FROM memories WHERE tenant = %s AND id = ANY(%s)",
            (self._tenant, list(memory_ids)),
        )
        return {str(i): str(h) for i, h in rows}

    def ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        rows = self._all(
            "SELECT id FROM memories WHERE tenant = %s AND starts_with(id, %s) "
            "ORDER BY id LIMIT %s",
            (self._tenant, prefix, limit),
        )
        return [str(r[0]) for r in rows]

    def find_by_content_hash(self, content_hash: str) -> list[StoredMemory]:
        rows = self._all(
            "SELECT document, decay_anchor FROM memories WHERE tenant = %s AND content_hash = %s "
            "ORDER BY seq",
            (self._tenant, content_hash),
        )
        return [self._stored(r) for r in rows]

    def find_by_content_hashes(
        self, content_hashes: Iterable[str], statuses: tuple[str, ...] | None = None
    ) -> dict[str, list[StoredMemory]]:
        params: list[Any] = [self._tenant, list(set(content_hashes))]
        sql = (
            "SELECT content_hash, document, decay_anchor FROM memories "
            "WHERE tenant = %s AND content_hash = ANY(%s)"
        )
        if statuses is not None:
            sql += " AND status = ANY(%s)"
            params.append(list(statuses))
        found: dict[str, list[StoredMemory]] = {}
        for row in self._all(sql + " ORDER BY seq", params):
            found.setdefault(str(row[0]), []).append(self._stored(row[1:]))
        return found

    def query_memories(self, query: MemoryQuery) -> list[StoredMemory]:
        if query.text is not None and query.order == "relevance":
            return [hit.memory for hit in self.search(query)]
        sql, params = self._memory_page_sql(query)
        return [self._stored(r) for r in self._all(sql, params)]

    def _memory_page_sql(self, query: MemoryQuery) -> tuple[str, list[Any]]:
        """The statement `query_memories` runs for a time-ordered page, with its parameters."""
        params: list[Any] = []
        walk = self._broad_confidence_bounds(query)
        where = _where(query, self._tenant, params, walk_created=walk)
        order = _ORDERS.get(query.order, _ORDERS["-created"])
        sql = f"SELECT m.document, m.decay_anchor FROM memories m WHERE {where} ORDER BY {order}"
        sql += _limit(query, params)
        return sql, params

    def _broad_confidence_bounds(self, query: MemoryQuery) -> bool:
        """Whether the query's confidence bounds match more than a page should sort: counted
        (up to that cap) on the tenant/status/confidence index alone. The planner cannot
        tell without fresh statistics, and sorting every match of a broad bound is slow."""
        if query.min_confidence is None and query.max_confidence is None:
            return False
        if query.statuses == ():
            return False
        bounds = MemoryQuery(
            statuses=query.statuses,
            min_confidence=query.min_confidence,
            max_confidence=query.max_confidence,
        )
        params: list[Any] = []
        where = _where(bounds, self._tenant, params)
        params.append(_CONFIDENCE_SORT_AT_MOST)
        row = self._one(
            f"SELECT count(*) FROM (SELECT 1 FROM memories m WHERE {where} LIMIT %s) AS b", params
        )
        return int(row[0]) >= _CONFIDENCE_SORT_AT_MOST

    def count_memories(self, query: MemoryQuery) -> int:
        params: list[Any] = []
        row = self._one(
            f"SELECT count(*) FROM memories m WHERE {_where(query, self._tenant, params)}", params
        )
        return int(row[0])

    def search(self, query: MemoryQuery) -> list[SearchHit]:
        """Full-text search: ranked by ``ts_rank`` (``order="relevance"``), or in a time
        order with every score 0."""
        if query.limit == 0 or query.text is None:
            return []
        words = tsquery_params(query.text)
        if not words or query.statuses == ():
            return []
        if query.order != "relevance" and query.order in _ORDERS:
            params: list[Any] = []
            where = _where(query, self._tenant, params)
            sql = (
                f"SELECT m.document, m.decay_anchor FROM memories m WHERE {where} "
                f"ORDER BY {_ORDERS[query.order]}"
            )
            sql += _limit(query, params)
            return [SearchHit(self._stored(r), 0.0) for r in self._all(sql, params)]
        params = []
        match = _tsquery(words, params)
        where = _where(replace(query, text=None), self._tenant, params, text=False)
        sql = (
            f"SELECT m.document, m.decay_anchor, ts_rank(m.fts, q.q, 1) AS score "
            f"FROM memories m, (SELECT {match} AS q) q WHERE m.fts @@ q.q AND {where} "
            "ORDER BY score DESC, m.seq DESC"
        )
        sql += _limit(query, params)
        return [SearchHit(self._stored(r), float(r[2])) for r in self._all(sql, params)]

    def iter_memories(self, query: MemoryQuery, batch: int = 1000) -> Iterator[StoredMemory]:
        """Every match in storage order: the seqs read once, each batch fetched (with the
        filters tested again) when it is reached."""
        params: list[Any] = []
        where = _where(query, self._tenant, params)
        seqs = [
            int(r[0])
            for r in self._all(f"SELECT m.seq FROM memories m WHERE {where} ORDER BY m.seq", params)
        ]
        for start in range(0, len(seqs), batch):
            params = []
            where = _where(query, self._tenant, params)
            params.append(seqs[start : start + batch])
            rows = self._all(
                f"SELECT m.document, m.decay_anchor FROM memories m WHERE {where} "
                "AND m.seq = ANY(%s) ORDER BY m.seq",
                params,
            )
            for row in rows:
                yield self._stored(row)

    def memory_ids(self, query: MemoryQuery) -> list[str]:
        params: list[Any] = []
        where = _where(replace(query, text=None), self._tenant, params)
        rows = self._all(f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.seq", params)
        return [str(r[0]) for r in rows]

    def memory_hashes(self) -> Iterator[tuple[str, str]]:
        sql = (
            "SELECT id, content_hash, seq FROM memories WHERE tenant = %s AND seq > %s "
            "ORDER BY seq LIMIT 5000"
        )
        rows = tables.pages(lambda last: self._all(sql, (self._tenant, last)), size=5000, key=2)
        for memory_id, content_hash, _ in rows:
            yield str(memory_id), str(content_hash)

    def delete_memory(self, memory_id: str) -> bool:
        t = self._tenant
        with self.transaction():
            gone = self._one(
                "DELETE FROM memories WHERE tenant = %s AND id = %s RETURNING seq", (t, memory_id)
            )
            existed = gone is not None
            if existed:
                self._index(recall.remove_memories, [int(gone[0])])
            self._exec(
                "DELETE FROM relations WHERE tenant = %s AND (from_id = %s OR to_id = %s)",
                (t, memory_id, memory_id),
            )
            self._exec(
                "DELETE FROM embeddings WHERE tenant = %s AND memory_id = %s", (t, memory_id)
            )
            self._exec(
                "DELETE FROM aimem_chunks WHERE tenant = %s AND memory_id = %s", (t, memory_id)
            )
            self._exec(
                "DELETE FROM aimem_aliases WHERE tenant = %s AND (memory_id = %s OR alias_id = %s)",
                (t, memory_id, memory_id),
            )
        return existed

    def delete_conversation(self, conversation_id: str) -> dict[str, int] | None:
        """Erase one conversation (its messages are part of its row) with its messages'
        recall passages and vectors; memories derived from it stay."""
        with self.transaction():
            row = self._one(
                "DELETE FROM conversations WHERE tenant = %s AND id = %s RETURNING message_count",
                (self._tenant, conversation_id),
            )
            if row is None:
                return None
            passages, vectors = self._index(recall.remove_conversation, conversation_id)
        return {"messages": int(row[0]), "passages": passages, "vectors": vectors}

    def erase_everything(self) -> dict[str, int]:
        """Every memory, relation, conversation, embedding, recall passage, vector and model,
        AIMEM state row and export record of this tenant, in one transaction; the owner, keys,
        meta and audit log stay."""
        t = (self._tenant,)
        with self.transaction():
            row = self._one(
                "SELECT count(*), COALESCE(sum(message_count), 0) FROM conversations "
                "WHERE tenant = %s",
                t,
            )
            try:
                passages, vectors = recall.remove_everything(
                    self._conn(), self._tenant, self.vectors
                )
            except psycopg.Error as exc:
                raise self._error(exc, "recall index") from None
            counts = {
                "memories": self._exec("DELETE FROM memories WHERE tenant = %s", t),
                "relations": self._exec("DELETE FROM relations WHERE tenant = %s", t),
                "conversations": self._exec("DELETE FROM conversations WHERE tenant = %s", t),
                "messages": int(row[1]),
                "passages": passages,
                "vectors": vectors,
                "embeddings": self._exec("DELETE FROM embeddings WHERE tenant = %s", t),
                "exports": self._exec("DELETE FROM exports WHERE tenant = %s", t),
            }
            self._exec("DELETE FROM aimem_chunks WHERE tenant = %s", t)
            self._exec("DELETE FROM aimem_aliases WHERE tenant = %s", t)
        return counts

    def scrub(self) -> bool:
        """PostgreSQL keeps a deleted row's old version until VACUUM reclaims it, and its
        write-ahead log and backups keep their copies: the store cannot promise none is left
        (docs/postgres.md, "Erasure"), so it says so."""
        return False

    def check_passphrase(self, passphrase: str) -> None:
        raise StoreError(
            "a PostgreSQL vault has no passphrase: its secrets are sealed with the server key "
            f"(${SERVER_KEY_ENV}) and its storage is encrypted by the operator"
        )

    def rekey(self, passphrase: str) -> None:
        self.check_passphrase(passphrase)

    def memory_stats(self) -> dict[str, dict[str, int]]:
        stats: dict[str, dict[str, int]] = {}
        for column in ("type", "status", "platform", "extraction_method"):
            rows = self._all(
                f"SELECT COALESCE({column}, 'none'), count(*) FROM memories WHERE tenant = %s "
                "GROUP BY 1 ORDER BY 2 DESC, 1",
                (self._tenant,),
            )
            stats[column] = {str(k): int(v) for k, v in rows}
        return stats

    # -- relations ------------------------------------------------------------------------

    def _relation_row(self, relation: Relation) -> tuple[Any, ...]:
        return (self._tenant, *tables.relation_values(relation))

    _INSERT_RELATION: Final = (
        f"INSERT INTO relations (tenant, {tables.RELATION_COLUMNS}) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s)"
    )

    def insert_relation(self, relation: Relation) -> None:
        self.insert_relations([relation])

    def insert_relations(self, relations: Iterable[Relation]) -> int:
        rows = [self._relation_row(r) for r in relations]
        with self.transaction():
            self._many(self._INSERT_RELATION, rows, "relation")
            self._added("relations", len(rows))
        return len(rows)

    def update_relation(self, relation: Relation) -> None:
        row = self._relation_row(relation)
        if not self._write(
            "UPDATE relations SET from_id = %s, to_id = %s, type = %s, created_at = %s, "
            "document = %s WHERE tenant = %s AND id = %s",
            (*row[2:], self._tenant, relation.id),
        ):
            raise StoreError(f"relation {relation.id} does not exist")

    def relations_of(self, memory_id: str) -> list[Relation]:
        rows = self._all(
            "SELECT document FROM relations WHERE tenant = %s AND (from_id = %s OR to_id = %s) "
            "ORDER BY created_at, seq",
            (self._tenant, memory_id, memory_id),
        )
        return [Relation.from_json(orjson.loads(r[0])) for r in rows]

    def iter_relations(self) -> Iterator[Relation]:
        sql = (
            "SELECT document, seq FROM relations WHERE tenant = %s AND seq > %s "
            "ORDER BY seq LIMIT 1000"
        )
        for row in tables.pages(
            lambda last: self._all(sql, (self._tenant, last)), size=1000, key=1
        ):
            yield Relation.from_json(orjson.loads(row[0]))

    def relation_stats(self) -> dict[str, int]:
        rows = self._all(
            "SELECT type, count(*) FROM relations WHERE tenant = %s GROUP BY type "
            "ORDER BY 2 DESC, 1",
            (self._tenant,),
        )
        return {str(k): int(v) for k, v in rows}

    # -- conversations and embeddings -----------------------------------------------------

    _CONVERSATION_COLUMNS: Final = tables.CONVERSATION_COLUMNS

    def _conversation_row(self, c: StoredConversation) -> tuple[Any, ...]:
        return (self._tenant, *tables.conversation_values(c))

    _INSERT_CONVERSATION: Final = (
        f"INSERT INTO conversations (tenant, {_CONVERSATION_COLUMNS}) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    )

    def put_conversation(self, conversation: StoredConversation) -> bool:
        row = self._conversation_row(conversation)
        with self.transaction():
            existing = self._one(
                "SELECT platform, title, created_at, updated_at, message_count, extra_index, "
                "document FROM conversations WHERE tenant = %s AND id = %s",
                (self._tenant, conversation.id),
            )
            if (
                existing is not None
                and tuple(existing[:6]) == row[2:8]
                and document_json(bytes(existing[6])) == document_json(row[8])
            ):
                return False
            self._exec(
                self._INSERT_CONVERSATION + " ON CONFLICT (tenant, id) DO UPDATE SET "
                "platform = excluded.platform, title = excluded.title, "
                "created_at = excluded.created_at, updated_at = excluded.updated_at, "
                "message_count = excluded.message_count, extra_index = excluded.extra_index, "
                "document = excluded.document",
                row,
                "conversation",
            )
            self._index(
                recall.index_conversations,
                [(conversation.id, conversation.platform, conversation.document)],
                fresh=existing is None,
            )
        return True

    def add_conversations(self, conversations: Iterable[StoredConversation]) -> None:
        batch = list(conversations)
        rows = [self._conversation_row(c) for c in batch]
        with self.transaction():
            # Named here: the server does not name a conflict's key under row-level security.
            taken = self.conversation_ids(row[1] for row in rows)
            if taken:
                raise IntegrityViolation(f"conversation {min(taken)} already exists")
            self._many(self._INSERT_CONVERSATION, rows, "conversation")
            passages = self._index(
                recall.index_conversations,
                [(c.id, c.platform, c.document) for c in batch],
                fresh=True,
            )
            self._added("conversations", len(rows))
            self._added("recall_passages", passages)

    def conversation_ids(self, ids: Iterable[str]) -> set[str]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return set()
        rows = self._all(
            "SELECT id FROM conversations WHERE tenant = %s AND id = ANY(%s)",
            (self._tenant, wanted),
        )
        return {str(r[0]) for r in rows}

    def conversation_ids_titled(self, platform: str, title: str) -> list[str]:
        rows = self._all(
            "SELECT id FROM conversations WHERE tenant = %s AND platform = %s AND title = %s "
            "ORDER BY id",
            (self._tenant, platform, title),
        )
        return [str(r[0]) for r in rows]

    _conversation = staticmethod(tables.read_conversation)

    def get_conversation(self, conversation_id: str) -> StoredConversation | None:
        row = self._one(
            f"SELECT {self._CONVERSATION_COLUMNS} FROM conversations WHERE tenant = %s AND id = %s",
            (self._tenant, conversation_id),
        )
        return None if row is None else self._conversation(row)

    def conversation_json(self, conversation_id: str) -> bytes | None:
        row = self._one(
            "SELECT document FROM conversations WHERE tenant = %s AND id = %s",
            (self._tenant, conversation_id),
        )
        return None if row is None else document_json(bytes(row[0]))

    def iter_conversations(self) -> Iterator[StoredConversation]:
        sql = (
            f"SELECT {tables.CONVERSATION_COLUMNS}, seq FROM conversations "
            "WHERE tenant = %s AND seq > %s ORDER BY seq LIMIT 200"
        )
        for row in tables.pages(lambda last: self._all(sql, (self._tenant, last)), size=200, key=8):
            yield tables.read_conversation(row)

    def count_conversations(self, platform: str | None = None) -> int:
        if platform is None:
            row = self._one("SELECT count(*) FROM conversations WHERE tenant = %s", (self._tenant,))
        else:
            row = self._one(
                "SELECT count(*) FROM conversations WHERE tenant = %s AND platform = %s",
                (self._tenant, platform),
            )
        return int(row[0])

    def conversation_summaries(
        self, platform: str | None = None, *, limit: int | None = 50, offset: int = 0
    ) -> list[ConversationSummary]:
        # Columns only: the (TOASTed) documents are never read.
        params: list[Any] = [self._tenant]
        where = "tenant = %s"
        if platform is not None:
            where += " AND platform = %s"
            params.append(platform)
        rows = self._all(
            "SELECT id, platform, title, created_at, updated_at, message_count "
            f"FROM conversations WHERE {where} "
            "ORDER BY coalesce(created_at, '') COLLATE \"C\" DESC, id DESC LIMIT %s OFFSET %s",
            [*params, limit, offset],
        )
        return [ConversationSummary(*row) for row in rows]

    def put_embedding(self, embedding: StoredEmbedding) -> None:
        self._write(
            f"INSERT INTO embeddings (tenant, {tables.EMBEDDING_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (tenant, memory_id, model) DO UPDATE SET id = excluded.id, "
            "dimensions = excluded.dimensions, created_at = excluded.created_at, "
            "vector = excluded.vector, storage = excluded.storage",
            (self._tenant, *tables.embedding_values(embedding)),
            "embedding",
        )

    def get_embedding(self, memory_id: str) -> StoredEmbedding | None:
        row = self._one(
            f"SELECT {tables.EMBEDDING_COLUMNS} FROM embeddings "
            "WHERE tenant = %s AND memory_id = %s ORDER BY created_at DESC, seq DESC LIMIT 1",
            (self._tenant, memory_id),
        )
        return None if row is None else tables.read_embedding(row)

    # -- per-memory AIMEM state -------------------------------------------------------------

    def _pairs(self, sql: str, keys: Iterable[str]) -> dict[str, str]:
        """The (key, value) rows `sql` selects for the tenant and `keys` (its two %s)."""
        rows = self._all(sql, (self._tenant, list(dict.fromkeys(keys))))
        return {str(k): str(v) for k, v in rows}

    def _put_pairs(self, sql: str, pairs: Mapping[str, str]) -> None:
        """`sql` (tenant, key, value) for each of `pairs`, in one transaction."""
        with self.transaction():
            self._many(sql, [(self._tenant, k, v) for k, v in pairs.items()])

    def chunk_digests(self, memory_ids: Iterable[str]) -> dict[str, str]:
        sql = "SELECT memory_id, digest FROM aimem_chunks WHERE tenant = %s AND memory_id = ANY(%s)"
        return self._pairs(sql, memory_ids)

    def put_chunk_digests(self, digests: Mapping[str, str]) -> None:
        self._put_pairs(
            "INSERT INTO aimem_chunks (tenant, memory_id, digest) VALUES (%s, %s, %s) "
            "ON CONFLICT (tenant, memory_id) DO UPDATE SET digest = excluded.digest",
            digests,
        )

    def aliases(self, incoming_ids: Iterable[str]) -> dict[str, str]:
        sql = (
            "SELECT alias_id, memory_id FROM aimem_aliases WHERE tenant = %s AND alias_id = ANY(%s)"
        )
        return self._pairs(sql, incoming_ids)

    def put_aliases(self, aliases: Mapping[str, str]) -> None:
        self._put_pairs(
            "INSERT INTO aimem_aliases (tenant, alias_id, memory_id) VALUES (%s, %s, %s) "
            "ON CONFLICT (tenant, alias_id) DO UPDATE SET memory_id = excluded.memory_id",
            aliases,
        )

    # -- exports, audit, keys ---------------------------------------------------------------

    def record_export(self, record: ExportRecord) -> None:
        self._write(
            f"INSERT INTO exports (tenant, {tables.EXPORT_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (tenant, export_id, direction) DO UPDATE SET "
            "export_type = excluded.export_type, at = excluded.at, format = excluded.format, "
            "base_export_id = excluded.base_export_id, since = excluded.since, "
            "checksum = excluded.checksum, memory_count = excluded.memory_count, "
            "path = excluded.path",
            (self._tenant, *tables.export_values(record)),
            "export",
        )

    def list_exports(self) -> list[ExportRecord]:
        rows = self._all(
            f"SELECT {tables.EXPORT_COLUMNS} FROM exports WHERE tenant = %s ORDER BY at, seq",
            (self._tenant,),
        )
        return [tables.read_export(r) for r in rows]

    _AUDIT_COLUMNS: Final = tables.AUDIT_COLUMNS

    def append_audit(self, entry: AuditEntry) -> None:
        self.append_audit_many([entry])

    def append_audit_many(self, entries: Iterable[AuditEntry]) -> None:
        rows = [(self._tenant, *row) for row in tables.audit_values(entries)]
        with self.transaction():
            self._many(
                f"INSERT INTO audit_log (tenant, {self._AUDIT_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                rows,
                "audit log",
            )

    _audit = staticmethod(tables.read_audit)

    def last_audit(self) -> AuditEntry | None:
        row = self._one(
            f"SELECT {self._AUDIT_COLUMNS} FROM audit_log WHERE tenant = %s "
            "ORDER BY seq DESC LIMIT 1",
            (self._tenant,),
        )
        return None if row is None else self._audit(row)

    def iter_audit(self) -> Iterator[AuditEntry]:
        sql = (
            f"SELECT {tables.AUDIT_COLUMNS} FROM audit_log WHERE tenant = %s AND seq > %s "
            "ORDER BY seq LIMIT 5000"
        )
        rows = tables.pages(
            lambda last: self._all(sql, (self._tenant, last)), size=5000, key=0, after=-1
        )
        return map(tables.read_audit, rows)

    def audit_entries(
        self,
        *,
        after_seq: int = 0,
        memory_id: str | None = None,
        actions: Iterable[str] = (),
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[AuditEntry]:
        params: list[Any] = [self._tenant, after_seq]
        sql = f"SELECT {self._AUDIT_COLUMNS} FROM audit_log WHERE tenant = %s AND seq > %s"
        if memory_id is not None:
            sql += " AND memory_id = %s"
            params.append(memory_id)
        wanted = list(dict.fromkeys(actions))
        if wanted:
            sql += " AND action = ANY(%s)"
            params.append(wanted)
        sql += f" ORDER BY seq {'DESC' if newest_first else 'ASC'}"
        if limit is not None:
            sql += " LIMIT %s"
            params.append(max(limit, 0))
        return [self._audit(r) for r in self._all(sql, params)]

    def count_audit(self) -> int:
        row = self._one("SELECT count(*) FROM audit_log WHERE tenant = %s", (self._tenant,))
        return int(row[0])

    def _key_context(self, key_id: str) -> str:
        return f"tenant {self._tenant} key {key_id}"

    def put_key(self, key: KeyRecord) -> None:
        sealed: bytes | None = None
        if key.private_key is not None:
            if self._server_key is None:
                raise StoreError(
                    f"key {key.key_id}: a private key is stored only sealed with the server "
                    f"key, and none is set (${SERVER_KEY_ENV} or ${SERVER_KEY_ENV}_FILE; "
                    "docs/postgres.md)"
                )
            sealed = self._server_key.seal(key.private_key, self._key_context(key.key_id))
        self._write(
            "INSERT INTO keys (tenant, key_id, algorithm, public_key, private_key, created_at, "
            "did) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (tenant, key_id) DO UPDATE "
            "SET algorithm = excluded.algorithm, public_key = excluded.public_key, "
            "private_key = excluded.private_key, created_at = excluded.created_at, "
            "did = excluded.did",
            (
                self._tenant,
                key.key_id,
                key.algorithm,
                key.public_key,
                sealed,
                key.created_at,
                key.did,
            ),
            "key",
        )

    def _key(self, row: Any) -> KeyRecord:
        private: bytes | None = None
        if row[3] is not None:
            context = self._key_context(row[0])
            if self._server_key is None:
                raise StoreError(
                    f"{context}: the private key is sealed with the server key, and none is "
                    f"set (${SERVER_KEY_ENV})"
                )
            private = self._server_key.open(bytes(row[3]), context)
        return tables.read_key(row, private)

    def get_key(self, key_id: str) -> KeyRecord | None:
        row = self._one(
            f"SELECT {tables.KEY_COLUMNS} FROM keys WHERE tenant = %s AND key_id = %s",
            (self._tenant, key_id),
        )
        return None if row is None else self._key(row)

    def list_keys(self) -> list[KeyRecord]:
        rows = self._all(
            f"SELECT {tables.KEY_COLUMNS} FROM keys WHERE tenant = %s ORDER BY created_at, key_id",
            (self._tenant,),
        )
        return [self._key(r) for r in rows]
