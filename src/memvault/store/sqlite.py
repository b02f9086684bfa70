"""The embedded store: one SQLCipher 4 database file, encrypted at rest (PAM §21.1).

- **Encryption.** ``sqlcipher3`` (SQLCipher 4: AES-256 pages, an HMAC per page, PBKDF2-
  HMAC-SHA512 key derivation). New vaults authenticate pages with HMAC-SHA256 (measured ~20 %
  cheaper commits than SQLCipher's HMAC-SHA512 default on CPUs with SHA extensions, and the
  same 256-bit security level as the AES-256 key); vaults whose parameter file names no
  algorithm were made with HMAC-SHA512 and keep it. The key is derived from the passphrase
  with ``kdf_iter`` iterations (SQLCipher's default, 256,000, unless ``MEMVAULT_KDF_ITER`` or
  the `create` argument says otherwise). These parameters are needed *before* the database
  can be decrypted, so they are kept in the plain-text parameter file beside the database
  (``vault.params.json``, no secrets) as well as in the encrypted ``meta`` table.
- **Concurrency.** WAL journal, a busy timeout (10 s by default), and every write inside
  ``BEGIN IMMEDIATE``: one writer at a time, readers never blocked. A nested `transaction()`
  joins the outer one (as a savepoint, so a failure inside it that the caller catches undoes
  only the inner part; none for a batch insert, which any failure ends). In one process, the
  store has one writing connection and a pool of read-only ones opened with the same key: a
  read runs on the writer's connection when it is free or when the reading thread holds the
  write transaction (so it sees its own uncommitted writes), and otherwise on a pooled read
  connection, so reads on other threads never wait behind a long write (they see the last
  commit).
- **Full text.** FTS5 with external content over content, summary and tags, tokenizer
  ``unicode61 remove_diacritics 2``: case and diacritics are folded, so "acao" finds "ação"
  and "Lisboa" finds "lisboa". Triggers keep it in step in the same transaction.
- **Migrations** (`memvault.store.migrations`) run when the database is opened.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

import orjson
import sqlcipher3  # type: ignore[import-untyped]

from memvault.bulk import gc_paused, prompt_switching
from memvault.errors import VaultExists, VaultNotFound
from memvault.model import (
    Access,
    AccessGrant,
    Memory,
    Owner,
    Relation,
    timestamp_epoch,
)
from memvault.paths import FILE_MODE, private_database, restrict_file
from memvault.recall.index import analysed
from memvault.recall.indexes import Passage
from memvault.store import sqlite_recall as recall_index
from memvault.store import tables
from memvault.store.base import (
    MEMORY_STAT_COLUMNS,
    AuditEntry,
    CachedChunk,
    ConversationSummary,
    ExportRecord,
    IntegrityViolation,
    KeyRecord,
    MemoryQuery,
    NewMemoryRow,
    SearchHit,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
    StoreError,
    StoreFull,
    StoreUnavailable,
    WrongPassphrase,
)
from memvault.store.codec import dump_memory
from memvault.store.documents import document_json
from memvault.store.migrations import LATEST, MIGRATIONS, Migration
from memvault.store.migrations.m0010_confidence_index import CONFIDENCE
from memvault.store.sqlite_memory_text import MEMORY_BM25, memory_match, text_clause
from memvault.store.sqlite_recall import SQLiteRecallIndex

__all__ = [
    "DEFAULT_BUSY_TIMEOUT",
    "DEFAULT_KDF_ITER",
    "KDF_ITER_ENV",
    "NEW_HMAC",
    "SEARCH_CANDIDATES",
    "SQLiteStore",
    "default_kdf_iter",
]

#: SQLCipher 4's own default PBKDF2-HMAC-SHA512 iteration count.
DEFAULT_KDF_ITER: Final = 256_000
#: Environment variable overriding the iteration count of *new* vaults (tests set it low).
KDF_ITER_ENV: Final = "MEMVAULT_KDF_ITER"
DEFAULT_BUSY_TIMEOUT: Final = 10.0
FORMAT: Final = "memvault-vault"
_PARAMS_FORMAT: Final = "memvault-vault-params"
#: 16 KiB pages: a quarter of the per-page AES and HMAC work of SQLCipher's 4 KiB default,
#: measured ~25% faster for batch inserts.
DEFAULT_PAGE_SIZE: Final = 16384
_PAGE_SIZES: Final = (1024, 2048, 4096, 8192, 16384, 32768, 65536)
#: Page HMAC of new vaults, and the one a parameter file without ``cipher_hmac_algorithm``
#: means (SQLCipher 4's default, which every vault made before the field existed uses).
NEW_HMAC: Final = "HMAC_SHA256"
_OLD_HMAC: Final = "HMAC_SHA512"
_HMACS: Final = ("HMAC_SHA256", "HMAC_SHA512")
#: Page cache per connection (KiB). Batch inserts into random-key indexes (UUIDs, hashes)
#: are ~40% faster with a cache this size than with SQLite's 2 MiB default.
CACHE_KIB: Final = 65536
#: The page cache while an import writes conversations (`SQLiteStore.cache_limit`). Their
#: documents are written once and never read back during the import; with the whole
#: `CACHE_KIB` the 300 MB ChatGPT import's writing process peaked at 122 MiB, with this 74
#: MiB, no slower (the id index it revisits is a few MiB).
BULK_CACHE_KIB: Final = 16384
#: The page cache per connection of a vault a server serves (`SQLiteStore.open`'s
#: `cache_kib`): a server keeps a writer and a pool of readers per tenant open for its whole
#: life, and requests read a window at a time; with `CACHE_KIB` each connection an export
#: touched grew to 64 MiB (an AIMEM download of 50,000 chunks peaked 60 MiB higher).
SERVER_CACHE_KIB: Final = 8192
#: What a served store's read connections may add to their page caches, together, to keep
#: recall's bit index between whole-vault vector searches (`set_recall_cache_budget`;
#: `$MEMVAULT_RECALL_CACHE_MIB` for a server): the bit index of 612,000 passages of 512
#: dimensions is 49 MB, and re-read with a small cache it costs ~55 ms of CPU a query.
RECALL_CACHE_KIB: Final = 65536
#: Key stretching this cheap or cheaper, and `release_memory` opens connections afresh
#: (tenant vaults are opened with their key: one iteration, ~0.5 ms a connection).
_REOPEN_KDF_ITER: Final = 1000
_SQLITE_HEADER: Final = b"SQLite format 3\x00"
_CHUNK: Final = 500  # ids per IN (...) list
#: Rows per window of an export's reads in storage order (`export_index`).
_INDEX_WINDOW: Final = 1000
#: Seconds between tries for the write lock while another connection holds it.
_BUSY_POLL: Final = 0.001
#: Seconds an erasure waits for other connections' reads to end before it empties the
#: write-ahead log (it reports a copy left behind rather than wait the whole busy timeout).
_SCRUB_WAIT: Final = 1.0
#: Relevance search ranks at most this many matches (the most recently added ones).
SEARCH_CANDIDATES: Final = 2000
#: From the first batch this big on, `insert_memory_batches` writes on a helper thread while
#: the caller builds the next batch (a vault chunk holds up to 1,024, fewer when some of its
#: memories reinforce others); smaller ones are written on the caller's thread, the helper
#: thread costing more than it saves.
_PIPELINE_MIN: Final = 256
_T = TypeVar("_T")
_R = TypeVar("_R")


def _unchanged(value: Any) -> Any:
    return value


def _bind_directly() -> None:
    """Let None and bytes parameters reach SQLite without sqlcipher3's adapter search.

    sqlcipher3 binds int, float, str and bytearray at once, but sends every other value
    (None and bytes included) through its adaptation protocol: an adapter looked up, then
    ``__adapt__`` and ``__conform__`` asked for and not found, about a microsecond a value
    (callgrind: an eighth of the instructions of writing an import's recall passages, where
    each row has a None). A registered adapter is found first: these two give each value
    back as it is, so they bind as before (NULL, BLOB). Process-wide, like every sqlcipher3
    adapter; the values bound are unchanged."""
    sqlcipher3.register_adapter(type(None), _unchanged)
    sqlcipher3.register_adapter(bytes, bytes)  # an exact bytes object: itself


_bind_directly()


def default_kdf_iter() -> int:
    """The KDF iteration count for a new vault: ``$MEMVAULT_KDF_ITER`` or 256,000."""
    text = os.environ.get(KDF_ITER_ENV)
    if not text:
        return DEFAULT_KDF_ITER
    try:
        value = int(text)
    except ValueError:
        raise StoreError(f"{KDF_ITER_ENV}={text!r} is not a whole number") from None
    if value < 1:
        raise StoreError(f"{KDF_ITER_ENV} must be at least 1, not {value}")
    return value


_epoch = timestamp_epoch


def _dt_epoch(value: datetime) -> float:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def _now_text() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quote(text: str) -> str:
    if "\x00" in text:
        raise StoreError("a passphrase cannot contain a NUL character")
    return "'" + text.replace("'", "''") + "'"


@dataclass(slots=True)
class PreparedMemories:
    """The parameters for inserting `count` memories with seqs from `first_seq`
    (`SQLiteStore.prepare_memories`), flat, as multi-row statements take them: 15 per memory
    row, 2 per tag row."""

    first_seq: int
    count: int
    rows: list[Any] = field(default_factory=list)
    tags: list[Any] = field(default_factory=list)
    grants: list[tuple[str, str, int]] = field(default_factory=list)
    #: (seq, memory) of each row, for the recall index.
    memories: list[tuple[int, Memory]] = field(default_factory=list)
    #: Or, for rows made without a `Memory` (`SQLiteStore.prepare_memory_rows`), their
    #: recall passages as they are (analysed as they are written).
    passages: list[Passage] | None = None


@functools.cache
def _values_list(rows: int, width: int) -> str:
    row = "(" + ", ".join("?" * width) + ")"
    return ", ".join([row] * rows)


def _multi_row(prefix: str, width: int, flat: list[Any]) -> Iterator[tuple[str, list[Any]]]:
    """(statement, parameters) inserting the rows of `flat` (`width` values each), at most
    `_ROWS_PER_STATEMENT` rows per statement."""
    step = _ROWS_PER_STATEMENT * width
    for start in range(0, len(flat), step):
        params = flat[start : start + step]
        yield prefix + _values_list(len(params) // width, width), params


def _memory_row(
    stored: StoredMemory, tags: list[str] | None = None, seq: int | None = None
) -> tuple[Any, ...]:
    """The memories-table row of a memory: seq first when given, then id, document last."""
    m = stored.memory
    temporal = m.temporal
    created = _epoch(temporal.created_at)
    if created is None:
        raise StoreError(
            f"memory {m.id}: temporal.created_at {temporal.created_at!r} is not an ISO 8601 "
            "timestamp (PAM §4.1)"
        )
    updated = temporal.updated_at
    access = m.access
    custom = m.custom_type
    provenance = m.provenance
    method = provenance.extraction_method
    document = stored.document
    row = (
        m.id,
        m.type,
        custom if isinstance(custom, str) else None,
        m.effective_status,
        m.content_hash,
        provenance.platform,
        method if isinstance(method, str) else None,
        created,
        None if updated is None else _epoch(updated),
        0 if isinstance(access, Access) and not access.is_exportable else 1,
        access.effective_visibility if isinstance(access, Access) else "private",
        stored.decay_anchor,
        " ".join(_tags(m) if tags is None else tags),
        document if document is not None else dump_memory(m),
    )
    return row if seq is None else (seq, *row)


def _tags(memory: Memory) -> list[str]:
    """The memory's distinct string tags, in order."""
    tags = memory.tags
    if not tags or not isinstance(tags, (tuple, list)):
        return []
    try:
        return [t for t in dict.fromkeys(tags) if isinstance(t, str)]
    except TypeError:  # an unhashable item (never in a valid memory)
        return list(dict.fromkeys(t for t in tags if isinstance(t, str)))


def _grants(memory: Memory) -> list[tuple[str, str]]:
    access = memory.access
    if not isinstance(access, Access) or not isinstance(access.shared_with, (tuple, list)):
        return []
    pairs: dict[tuple[str, str], None] = {}
    for grant in access.shared_with:
        if isinstance(grant, AccessGrant) and isinstance(grant.permissions, (tuple, list)):
            for permission in grant.permissions:
                if isinstance(permission, str):
                    pairs[(grant.entity, permission)] = None
    return list(pairs)


def _fts_values(memory: Memory, tags: list[str] | None = None) -> tuple[str, str | None, str, str]:
    """What the full-text index holds for a memory: content, summary, tags, status."""
    summary = memory.summary
    return (
        memory.content,
        summary if isinstance(summary, str) else None,
        " ".join(_tags(memory) if tags is None else tags),
        memory.effective_status,
    )


_MEMORY_COLUMNS: Final = (
    "seq, id, type, custom_type, status, content_hash, platform, extraction_method, "
    "created_epoch, updated_epoch, exportable, visibility, decay_anchor, tags_text, document"
)
_INSERT_MEMORY_ROWS: Final = f"INSERT INTO memories ({_MEMORY_COLUMNS}) VALUES "
#: The columns of a memories row between id and document, in `_memory_row` order.
_UPDATABLE: Final = (
    "type",
    "custom_type",
    "status",
    "content_hash",
    "platform",
    "extraction_method",
    "created_epoch",
    "updated_epoch",
    "exportable",
    "visibility",
    "decay_anchor",
    "tags_text",
)
_STATUS: Final = _UPDATABLE.index("status")
#: SQLite's index for the UNIQUE constraint on memories.id (migration 1).
_ID_INDEX: Final = "sqlite_autoindex_memories_1"
_TAGS_TEXT: Final = _UPDATABLE.index("tags_text")
_TAG_INSERT: Final = "INSERT OR IGNORE INTO memory_tags (tag, memory_seq) VALUES (?, ?)"
_TAG_INSERT_ROWS: Final = "INSERT OR IGNORE INTO memory_tags (tag, memory_seq) VALUES "
#: Rows per multi-row statement (15 parameters each for memories: well under SQLite's
#: 32,766).
_ROWS_PER_STATEMENT: Final = 1000
_GRANT_INSERT: Final = (
    "INSERT OR IGNORE INTO memory_grants (entity, permission, memory_seq) VALUES (?, ?, ?)"
)

_ORDERS: Final = {
    "created": "m.created_epoch ASC, m.seq ASC",
    "-created": "m.created_epoch DESC, m.seq DESC",
    "updated": "COALESCE(m.updated_epoch, m.created_epoch) ASC, m.seq ASC",
    "-updated": "COALESCE(m.updated_epoch, m.created_epoch) DESC, m.seq DESC",
}


def _in(column: str, values: Sequence[Any], params: list[Any]) -> str:
    params.extend(values)
    return f"{column} IN ({', '.join('?' * len(values))})"


def _where(
    query: MemoryQuery,
    params: list[Any],
    *,
    with_text: bool = True,
    ordered: bool = False,
    match: str | None = None,
    walk_created: bool = False,
) -> list[str]:
    """SQL conditions (ANDed) for the query's filters, on the memories table aliased ``m``.

    With `ordered`, the full-text condition is written so that SQLite walks the ORDER BY index
    and tests each row against the (bloom-filtered) match set, stopping after LIMIT rows,
    instead of fetching every match and sorting them all (slow for a very common word)."""
    clauses: list[str] = []
    # Ids are the most selective filter there is: look the rows up by id and test the other
    # filters on them ("+" keeps SQLite from walking another filter's index instead).
    m = "+m." if query.ids else "m."
    # With a confidence bound, the status/confidence index leads rather than an index whose
    # every row would have its document parsed for the bound. A count reads no row: the
    # type, custom type and platform become seq lists read from their own indexes (as tags
    # do), since fetching each match's row from the encrypted file costs ~10 µs.
    bounded = query.min_confidence is not None or query.max_confidence is not None
    led = "+m." if query.ids or bounded else "m."
    as_list = bounded and not ordered and not query.ids

    def column_in(column: str, values: Sequence[Any]) -> str:
        if as_list:
            inner = _in(f"c.{column}", values, params)
            return f"m.seq IN (SELECT c.seq FROM memories c WHERE {inner})"
        return _in(f"{led}{column}", values, params)

    if query.ids:
        clauses.append(_in("m.id", query.ids, params))
    if query.types:
        clauses.append(column_in("type", query.types))
    if query.custom_types:
        clauses.append(column_in("custom_type", query.custom_types))
    if query.statuses is not None:
        clauses.append(_in(f"{m}status", query.statuses, params) if query.statuses else "0")
    for tag in query.tags:
        # IN (subquery) rather than EXISTS: SQLite builds the tag's seq list once (with a
        # bloom filter) instead of probing memory_tags for every row; counting the matches
        # of a tag at 100,000 memories takes a quarter of the time.
        clauses.append("m.seq IN (SELECT t.memory_seq FROM memory_tags t WHERE t.tag = ?)")
        params.append(tag)
    if query.platforms:
        clauses.append(column_in("platform", query.platforms))
    if query.extraction_methods:
        clauses.append(_in(f"{m}extraction_method", query.extraction_methods, params))
    if query.created_since is not None:
        clauses.append(f"{m}created_epoch >= ?")
        params.append(_dt_epoch(query.created_since))
    if query.created_until is not None:
        clauses.append(f"{m}created_epoch <= ?")
        params.append(_dt_epoch(query.created_until))
    if query.updated_since is not None:
        clauses.append("COALESCE(m.updated_epoch, m.created_epoch) >= ?")
        params.append(_dt_epoch(query.updated_since))
    if query.exportable_only:
        clauses.append(f"{m}exportable = 1")
    clauses.extend(_confidence_bounds(query, params, walk_created=walk_created))
    if query.readable_by is not None:
        clauses.append(
            f"({m}visibility = 'public' OR (m.visibility = 'shared' AND m.seq IN ("
            "SELECT g.memory_seq FROM memory_grants g WHERE g.entity = ? "
            "AND g.permission = 'read')))"
        )
        params.append(query.readable_by)
    if with_text and query.text is not None:
        # `match`: the query's text as the recall index matches it (`_match`); None, no words.
        if match is None:
            clauses.append("0")
        else:
            clauses.append(text_clause("+m.seq" if ordered else "m.seq"))
            params.append(match)
    return clauses


#: The indexed confidence expression, on the memories table aliased ``m``.
_CONFIDENCE: Final = CONFIDENCE.replace("document", "m.document")


def _confidence_bounds(
    query: MemoryQuery, params: list[Any], *, walk_created: bool = False
) -> list[str]:
    """Conditions for the query's confidence bounds (inclusive; PAM §8) on the stored
    `confidence.current` when it is a number: the expression migration 10 indexes with the
    status. With `walk_created` ("+": not through that index) a page walks the created index
    newest first and stops after LIMIT matches, rather than sorting every match of a broad
    bound."""
    column = f"+{_CONFIDENCE}" if walk_created else _CONFIDENCE
    clauses: list[str] = []
    if query.min_confidence is not None:
        clauses.append(f"{column} >= ?")
        params.append(float(query.min_confidence))
    if query.max_confidence is not None:
        clauses.append(f"{column} <= ?")
        params.append(float(query.max_confidence))
    return clauses


#: A page sorts at most this many matches of its confidence bounds (read through their
#: index); a bound matching more walks the created index instead, where a page meets its
#: LIMIT matches within a few thousand rows (benchmarks/memory_filters.py).
_CONFIDENCE_SORT_AT_MOST: Final = 2000


def _and(clauses: list[str]) -> str:
    return " AND ".join(clauses) if clauses else "1"


def _limit(query: MemoryQuery, params: list[Any]) -> str:
    if query.limit is None and not query.offset:
        return ""
    params.append(-1 if query.limit is None else query.limit)
    params.append(query.offset)
    return " LIMIT ? OFFSET ?"


class SQLiteStore(Store):
    """`Store` on one SQLCipher database file. Create with `create`, open with `open`."""

    #: How many matches relevance search ranks at most (see `search`).
    search_candidates: int = SEARCH_CANDIDATES

    def __init__(
        self,
        conn: Any,
        path: Path,
        cipher: _CipherParams,
        passphrase: str,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        cache_kib: int = CACHE_KIB,
    ) -> None:
        #: The one writing connection; `_lock` is held while it is used.
        self._conn = conn
        #: Every connection's page cache (KiB): `CACHE_KIB`, or what `open` was given.
        self._cache_kib = cache_kib
        #: A served store's budget for readers' caches raised to hold the bit index, and
        #: what each reader (by id) holds of it (`set_recall_cache_budget`).
        self._recall_budget_kib = 0
        self._recall_grants: dict[int, int] = {}
        self._path = path
        self._cipher = cipher
        #: Kept to open read connections (`_reader`) with the same key.
        self._passphrase = passphrase
        self._busy_timeout = busy_timeout
        self._lock = threading.RLock()
        self._depth = 0
        #: Inside a transaction opened with savepoints=False: nested ones make none.
        self._flat = False
        self._closed = False
        #: Read-only connections not in use right now, and every one opened (to close them).
        self._idle_readers: list[Any] = []
        self._readers: set[Any] = set()
        self._readers_lock = threading.Lock()

    # -- opening --------------------------------------------------------------------------

    @staticmethod
    def params_path(path: Path) -> Path:
        """The plain-text parameter file of the database at `path` (``vault.params.json``)."""
        return path.with_name(path.stem + ".params.json")

    @classmethod
    def create(
        cls,
        path: Path,
        passphrase: str,
        *,
        kdf_iter: int | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        cache_kib: int = CACHE_KIB,
    ) -> SQLiteStore:
        """Create a new encrypted database at `path` and migrate it to the latest schema
        (`cache_kib`: as for `open`).

        Raises VaultExists if a database (or its parameter file) is already there, and
        StoreError for an empty passphrase or a bad iteration count or page size.
        """
        if not passphrase:
            raise StoreError("the passphrase must not be empty (the vault is encrypted with it)")
        iterations = default_kdf_iter() if kdf_iter is None else kdf_iter
        if iterations < 1:
            raise StoreError(f"kdf_iter must be at least 1, not {iterations}")
        if cache_kib < 1:
            raise StoreError(f"cache_kib must be at least 1, not {cache_kib}")
        if page_size not in _PAGE_SIZES:
            raise StoreError(f"page_size must be one of {', '.join(map(str, _PAGE_SIZES))}")
        params = cls.params_path(path)
        if path.exists():
            raise VaultExists(f"a vault already exists at {path}; it was left untouched")
        cipher = _CipherParams(iterations, page_size, NEW_HMAC)
        try:
            fd = os.open(params, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            raise VaultExists(
                f"a vault already exists at {path.parent} ({params.name} is there); "
                "it was left untouched"
            ) from None
        except OSError as exc:
            raise StoreError(f"cannot create {params}: {exc.strerror or exc}") from None
        store: SQLiteStore | None = None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(orjson.dumps(cipher.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
                handle.flush()
                os.fsync(handle.fileno())
            store = cls._connect(path, passphrase, cipher, busy_timeout, cache_kib=cache_kib)
            store._migrate()
            with store.transaction():
                store.set_meta("format", FORMAT)
                store.set_meta("kdf_iter", str(iterations))
                store.set_meta("cipher", "sqlcipher4")
                store.set_meta("cipher_page_size", str(page_size))
                store.set_meta("cipher_hmac_algorithm", cipher.hmac_algorithm)
                store.set_meta("created_at", _now_text())
            return store
        except BaseException:
            if store is not None:
                store.close()
            for leftover in (path, *_companions(path), params):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()
            raise

    @classmethod
    def open(
        cls,
        path: Path,
        passphrase: str,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        cache_kib: int = CACHE_KIB,
    ) -> SQLiteStore:
        """Open an existing database, checking the passphrase and running pending migrations.
        `cache_kib`: each connection's page cache (a server's vaults: `SERVER_CACHE_KIB`).

        Raises VaultNotFound, WrongPassphrase, or StoreError (not a memvault vault, written by
        a newer version).
        """
        if not path.is_file():
            raise VaultNotFound(f"no vault at {path.parent} ({path.name} does not exist)")
        params = cls.params_path(path)
        cipher, note = _CipherParams.read(params)
        with open(path, "rb") as handle:
            header = handle.read(16)
        if header == _SQLITE_HEADER:
            raise StoreError(f"{path} is an unencrypted SQLite database, not a memvault vault")
        if len(header) < 16:
            raise StoreError(f"{path} is empty or truncated; it is not a memvault vault")
        if cache_kib < 1:
            raise StoreError(f"cache_kib must be at least 1, not {cache_kib}")
        store = cls._connect(path, passphrase, cipher, busy_timeout, note=note, cache_kib=cache_kib)
        try:
            store._check_format()
            store._migrate()
        except BaseException:
            store.close()
            raise
        return store

    @classmethod
    def _connect(
        cls,
        path: Path,
        passphrase: str,
        cipher: _CipherParams,
        busy_timeout: float,
        note: str = "",
        cache_kib: int = CACHE_KIB,
    ) -> SQLiteStore:
        conn = _open_connection(path, passphrase, cipher, busy_timeout, note, cache_kib=cache_kib)
        for file in (path, *_companions(path)):
            restrict_file(file)
        return cls(conn, path, cipher, passphrase, busy_timeout, cache_kib)

    def _check_format(self) -> None:
        row = self._conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).fetchone()
        value = self.get_meta("format") if row[0] else None
        if value != FORMAT:
            raise StoreError(f"{self._path} is an encrypted database but not a memvault vault")

    def _migrate(self) -> None:
        current = self.schema_version
        if current > LATEST:
            raise StoreError(
                f"the vault at {self._path.parent} has schema version {current}, newer than "
                f"this memvault understands ({LATEST}); upgrade memvault"
            )
        if not self._pending_migrations():
            return
        with self.transaction():
            # Re-read inside the write lock: another process may have migrated meanwhile.
            current = self.schema_version
            for migration in self._pending_migrations():
                for statement in _statements(migration.sql):
                    self._conn.execute(statement)
                if migration.run is not None:
                    migration.run(self._conn)
                self._conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, _now_text()),
                )
                current = max(current, migration.version)
                self._conn.execute(f"PRAGMA user_version = {current}")

    def _pending_migrations(self) -> list[Migration]:
        """The migrations this vault has not recorded, in order: by the set applied rather
        than the highest, so one numbered in a gap below an applied migration still runs."""
        if self.schema_version == 0:
            return list(MIGRATIONS)
        rows = self._conn.execute("SELECT version FROM schema_migrations").fetchall()
        applied = {int(r[0]) for r in rows}
        return [m for m in MIGRATIONS if m.version not in applied]

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self._path

    @property
    def kdf_iter(self) -> int:
        return self._cipher.kdf_iter

    def close(self) -> None:
        """Close the writing connection (after a transaction running on another thread ends)
        and the read connections (one in use is closed when its read ends)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()
                self._close_idle_readers()

    def release_memory(self) -> int:
        """Free what the idle connections hold (`Store.release_memory`): each one's page
        cache, and the prepared statements, which keep the values last bound to them — after
        an import of 50,000 chunks the writer held 11 MiB of statements (multi-row inserts
        and their parameters) besides its 8 MiB cache, for as long as the server ran. The
        DB-API module cannot empty its statement cache, so when a connection opens cheaply
        (a key, not a passphrase to stretch: a server's tenant vaults) the writer is
        replaced by a fresh one and the idle readers are closed (opened again when a read
        needs one); otherwise only the page caches are emptied (``PRAGMA shrink_memory``).
        The writer is left alone while a transaction holds it, and so is a reader in use.
        Returns the bytes SQLite gave back (all connections of the process)."""
        before = _memory_used()
        cheap = self._cipher.kdf_iter <= _REOPEN_KDF_ITER
        if self._lock.acquire(blocking=False):
            try:
                if not self._closed and not self._depth:
                    if self._recall_grants.pop(id(self._conn), None) is not None:
                        self._conn.execute(f"PRAGMA cache_size = {-self._cache_kib}")
                    self._conn.execute("PRAGMA shrink_memory")
                    if cheap:
                        fresh = _open_connection(
                            self._path, self._passphrase, self._cipher, self._busy_timeout,
                            cache_kib=self._cache_kib,
                        )  # fmt: skip
                        self._conn, old = fresh, self._conn
                        old.close()
            finally:
                self._lock.release()
        if cheap:
            self._close_idle_readers()
        else:
            with self._readers_lock:
                idle, self._idle_readers = self._idle_readers, []
            for conn in idle:
                try:
                    if self._recall_grants.pop(id(conn), None) is not None:
                        conn.execute(f"PRAGMA cache_size = {-self._cache_kib}")
                    conn.execute("PRAGMA shrink_memory")
                finally:
                    self._return_reader(conn)
        return max(0, before - _memory_used())

    def _close_idle_readers(self) -> int:
        """Close the read connections not in use; returns how many are in use."""
        with self._readers_lock:
            for conn in self._idle_readers:
                self._recall_grants.pop(id(conn), None)
                conn.close()
                self._readers.discard(conn)
            self._idle_readers.clear()
            return len(self._readers)

    @contextlib.contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """The page cache held to `BULK_CACHE_KIB` (`cache_limit`), and the recall index's
        bulk load (`memvault.store.sqlite_recall.bulk_load`: larger full-text segments),
        inside the caller's transaction."""
        with self.cache_limit(BULK_CACHE_KIB), self._lock:
            if self._depth:
                with recall_index.bulk_load(self._conn):
                    yield
            else:
                yield

    @contextlib.contextmanager
    def cache_limit(self, kib: int) -> Iterator[None]:
        """The page cache held to `kib` KiB (never above the store's own size) while the block
        runs, then the store's size again: for bulk writes of rows that are written once and
        not read back, which would otherwise fill the cache for nothing (`BULK_CACHE_KIB`)."""
        with self._lock:
            if self._closed:
                raise StoreError("the vault is closed")
            self._conn.execute(f"PRAGMA cache_size = {-min(int(kib), self._cache_kib)}")
            try:
                yield
            finally:
                if not self._closed:
                    self._conn.execute(f"PRAGMA cache_size = {-self._cache_kib}")

    def writing(self) -> bool:
        # The lock is reentrant: this thread gets it at once when it holds it (or nobody does).
        if not self._lock.acquire(blocking=False):
            return False
        try:
            return self._depth > 0
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def transaction(self, *, savepoints: bool = True) -> Iterator[None]:
        """A write transaction (`Store.transaction`). A nested one is a savepoint, so a failure
        inside it that the caller catches undoes only the inner part — unless an enclosing
        one was opened with ``savepoints=False``: for work that lets every failure end the
        whole transaction (a batch insert), where the savepoints' page copies cost ~3 % of
        the time."""
        with self._lock:
            if self._closed:
                raise StoreError("the vault is closed")
            if self._depth and self._flat:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            flat = self._flat
            if self._depth:
                name = f"sp{self._depth}"
                self._conn.execute(f"SAVEPOINT {name}")
                self._depth += 1
                self._flat = not savepoints
                try:
                    yield
                except BaseException:
                    # A savepoint left open by an interrupt (Ctrl-C) can be finished only when
                    # the generator is collected, after the vault was closed: closing already
                    # discarded everything uncommitted, so there is nothing left to undo.
                    # SQLite itself rolls back the whole transaction on some errors (a full
                    # disk: SQLITE_FULL): no savepoint is left to undo, the outermost
                    # transaction reports the error.
                    if not self._closed and self._conn.in_transaction:
                        self._conn.execute(f"ROLLBACK TO {name}")
                        self._conn.execute(f"RELEASE {name}")
                    raise
                else:
                    self._conn.execute(f"RELEASE {name}")
                finally:
                    self._depth -= 1
                    self._flat = flat
                return
            self._begin()
            self._depth = 1
            self._flat = not savepoints
            try:
                yield
            except BaseException as exc:
                self._rollback()
                if isinstance(exc, sqlcipher3.OperationalError) and _is_full(exc):
                    raise _busy_error(exc, self._path) from None
                raise
            else:
                try:
                    self._conn.execute("COMMIT")
                except sqlcipher3.Error as exc:
                    self._rollback()
                    if _is_full(exc):
                        raise _busy_error(exc, self._path) from None
                    raise StoreError(f"could not commit to {self._path}: {exc}") from None
            finally:
                self._depth = 0
                self._flat = False

    def _begin(self) -> None:
        """BEGIN IMMEDIATE: take the write lock, waiting up to the busy timeout while another
        connection holds it.

        SQLite's own busy handler sleeps ever longer between tries (up to 100 ms), so a waiting
        writer seldom hits the short gaps between another process's back-to-back transactions
        and starves until that process stops writing (decay's chunks, an import's batches).
        This tries again every millisecond instead (SQLite's handler is off meanwhile)."""
        try:
            self._conn.execute("PRAGMA busy_timeout = 0")
            deadline = time.monotonic() + self._busy_timeout
            while True:
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlcipher3.OperationalError as exc:
                    if not _is_busy(exc) or time.monotonic() >= deadline:
                        raise _busy_error(exc, self._path) from None
                time.sleep(_BUSY_POLL)
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")

    def _rollback(self) -> None:
        with contextlib.suppress(sqlcipher3.Error):
            self._conn.execute("ROLLBACK")

    @property
    def schema_version(self) -> int:
        return int(self._one("PRAGMA user_version")[0])

    def migrations(self) -> list[tuple[int, str, str]]:
        """(version, name, applied_at) of every applied migration."""
        return [
            (int(v), str(n), str(a))
            for v, n, a in self._all(
                "SELECT version, name, applied_at FROM schema_migrations ORDER BY version"
            )
        ]

    # -- helpers --------------------------------------------------------------------------

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        rows: list[Any] = self._read(lambda conn: conn.execute(sql, params).fetchall())
        return rows

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._read(lambda conn: conn.execute(sql, params).fetchone())

    def _read(self, run: Callable[[Any], _T]) -> _T:
        """`run` on a connection for one read statement: the writer's when this thread holds
        its lock (its own transaction: uncommitted writes are seen) or the lock is free,
        otherwise a pooled read connection (another thread is writing: the read sees the last
        commit instead of waiting for it)."""
        if self._lock.acquire(blocking=False):
            try:
                if self._closed:
                    raise StoreError("the vault is closed")
                return self._run(run, self._conn)
            finally:
                self._lock.release()
        conn = self._reader()
        try:
            return self._run(run, conn)
        finally:
            self._return_reader(conn)

    def _return_reader(self, conn: Any) -> None:
        with self._readers_lock:
            if self._closed or conn not in self._readers:
                conn.close()  # the store closed, or was re-keyed, meanwhile
                self._readers.discard(conn)
            else:
                self._idle_readers.append(conn)

    def _run(self, run: Callable[[Any], _T], conn: Any) -> _T:
        try:
            return run(conn)
        except sqlcipher3.OperationalError as exc:
            raise _busy_error(exc, self._path) from None

    def _reader(self) -> Any:
        """A read connection of the pool, opened (with the same key) when none is free."""
        while True:
            with self._readers_lock:
                if self._closed:
                    raise StoreError("the vault is closed")
                if self._idle_readers:
                    return self._idle_readers.pop()
                passphrase = self._passphrase
            conn = _open_connection(
                self._path,
                passphrase,
                self._cipher,
                self._busy_timeout,
                reader=True,
                cache_kib=self._cache_kib,
            )
            with self._readers_lock:
                if not self._closed and passphrase == self._passphrase:
                    self._readers.add(conn)
                    return conn
            conn.close()  # closed or re-keyed while it opened: the loop says which

    def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self.transaction():
            try:
                count: int = self._conn.execute(sql, params).rowcount
            except sqlcipher3.IntegrityError as exc:
                raise IntegrityViolation(str(exc)) from None
            return count

    # -- settings and owner ---------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def delete_meta(self, keys: Iterable[str]) -> int:
        wanted = list(dict.fromkeys(keys))
        removed = 0
        with self.transaction():
            for start in range(0, len(wanted), _CHUNK):
                part = wanted[start : start + _CHUNK]
                marks = ", ".join("?" * len(part))
                cursor = self._conn.execute(f"DELETE FROM meta WHERE key IN ({marks})", part)
                removed += cursor.rowcount
        return removed

    def meta_keys(self, prefix: str, *, value: str | None = None) -> list[str]:
        # A range on the primary key: prefix <= key < prefix + U+10FFFF.
        sql = "SELECT key FROM meta WHERE key >= ? AND key < ?"
        params: list[Any] = [prefix, prefix + "\U0010ffff"]
        if value is not None:
            sql += " AND value = ?"
            params.append(value)
        return [str(r[0]) for r in self._all(sql + " ORDER BY key", params)]

    def get_owner(self) -> Owner | None:
        row = self._one("SELECT document FROM owner WHERE singleton = 1")
        return None if row is None else Owner.from_json(orjson.loads(row[0]))

    def set_owner(self, owner: Owner) -> None:
        self._write(
            "INSERT INTO owner (singleton, id, document) VALUES (1, ?, ?) "
            "ON CONFLICT (singleton) DO UPDATE SET id = excluded.id, document = excluded.document",
            (owner.id, orjson.dumps(owner.to_json()).decode()),
        )

    # -- memories -------------------------------------------------------------------------

    def insert_memories(self, memories: Iterable[StoredMemory]) -> int:
        """Insert in one transaction: the rows and their tags and grants, each with batched
        statements, then their full-text entries with one INSERT … SELECT from the rows just
        written."""
        batch = list(memories)
        if not batch:
            return 0
        with self.transaction():
            return self.write_memories(self.prepare_memories(batch, self.next_memory_seq()))

    def insert_memory_batches(self, batches: Iterable[Sequence[StoredMemory]]) -> int:
        """`Store.insert_memory_batches`. From the first batch of `_PIPELINE_MIN` memories on,
        a helper thread writes each batch (`write_memories`: multi-row statements, during
        which SQLite does not hold the GIL) while this thread takes the next one from
        `batches` — checking and building it — and prepares it, then waits for the write
        before handing it over: a third fewer seconds per memory on a large batch."""
        return self._insert_batches(batches, self.prepare_memories)

    def insert_memory_rows(self, batches: Iterable[Sequence[NewMemoryRow]]) -> int:
        """`Store.insert_memory_rows`: as `insert_memory_batches`, the rows as they come."""
        return self._insert_batches(batches, self.prepare_memory_rows)

    def _insert_batches(
        self,
        batches: Iterable[Sequence[_R]],
        prepare: Callable[[Sequence[_R], int], PreparedMemories],
    ) -> int:
        count = 0
        with self.transaction():
            pending = iter(batches)
            for rows in pending:
                if len(rows) >= _PIPELINE_MIN:
                    return count + self._pipelined(rows, pending, prepare)
                if rows:
                    count += self.write_memories(prepare(rows, self.next_memory_seq()))
        return count

    def _pipelined(
        self,
        first: Sequence[_R],
        rest: Iterator[Sequence[_R]],
        prepare: Callable[[Sequence[_R], int], PreparedMemories],
    ) -> int:
        """Write `first` and then every batch of `rest` on a helper thread, inside the
        transaction this thread holds (which does no database work meanwhile)."""
        seq = self.next_memory_seq()
        count = 0
        with (
            prompt_switching(),  # the writer gets the GIL back soon after each statement
            ThreadPoolExecutor(1, thread_name_prefix="memvault-writer") as writer,
        ):
            writing: Future[int] | None = None
            rows: Sequence[_R] | None = first
            while rows is not None:
                prepared = prepare(rows, seq)
                seq += len(rows)
                if writing is not None:
                    count += writing.result()
                writing = writer.submit(self.write_memories, prepared)
                rows = next(rest, None)
            count += writing.result() if writing is not None else 0
            # Leaving the executor waits for a write still running (after an error here),
            # so the transaction is rolled back only once the connection is free.
        return count

    def next_memory_seq(self) -> int:
        """The seq the next inserted memory gets. Inside BEGIN IMMEDIATE nobody else writes,
        so the seqs from here on are the caller's to assign."""
        row = self._one("SELECT COALESCE(max(seq), 0) FROM memories")
        return int(row[0]) + 1

    @staticmethod
    def prepare_memories(memories: Sequence[StoredMemory], first_seq: int) -> PreparedMemories:
        """The statements' parameters for inserting `memories` with seqs from `first_seq`:
        Python work only, no database access, so that a caller can prepare the next batch
        while `write_memories` writes this one on another thread."""
        prepared = PreparedMemories(first_seq, len(memories))
        with gc_paused():
            rows, tags, grants = prepared.rows, prepared.tags, prepared.grants
            add_row, add_tags = rows.extend, tags.extend
            for seq, stored in enumerate(memories, start=first_seq):
                memory = stored.memory
                tag_list = _tags(memory)
                add_row(_memory_row(stored, tag_list, seq))
                prepared.memories.append((seq, memory))
                if tag_list:
                    add_tags([value for tag in tag_list for value in (tag, seq)])
                access = memory.access
                if isinstance(access, Access) and access.shared_with:
                    grants.extend((entity, perm, seq) for entity, perm in _grants(memory))
        return prepared

    @staticmethod
    def prepare_memory_rows(rows: Sequence[NewMemoryRow], first_seq: int) -> PreparedMemories:
        """`prepare_memories` for rows made without a `Memory` (`NewMemoryRow`): the same
        parameters, and each row's recall passage as `memory_passage` gives it."""
        prepared = PreparedMemories(first_seq, len(rows), passages=[])
        passages = prepared.passages
        assert passages is not None
        # The tag rows' two columns gathered apart and interleaved once at the end (a
        # (tag, seq) pair per tag cost more than the rest of a row).
        names: list[str] = []
        seqs: list[int] = []
        with gc_paused():
            add_row, add_passage = prepared.rows.extend, passages.append
            add_names, add_seqs = names.extend, seqs.extend
            for seq, row in enumerate(rows, start=first_seq):
                tag_list = row.tags
                add_row((seq, *row[:12], " ".join(tag_list), row.document))
                if tag_list:
                    add_names(tag_list)
                    add_seqs([seq] * len(tag_list))
                add_passage(
                    Passage(
                        "memory",
                        seq,
                        row.conversation_id,
                        None,
                        0,
                        None,
                        None,
                        row.platform,
                        row.at_epoch,
                        row.text,
                        row.context,
                    )
                )
        tags = prepared.tags
        tags.extend(names)  # the right length, then each column into its place
        tags.extend(seqs)
        tags[0::2], tags[1::2] = names, seqs
        return prepared

    def write_memories(self, prepared: PreparedMemories) -> int:
        """Write what `prepare_memories` built, inside the caller's transaction. It uses the
        connection and nothing else of the store (not its lock), so it may run on a helper
        thread while the thread that owns the transaction does no database work of its own.
        Multi-row statements: SQLite then runs each for a thousand rows without taking
        Python's GIL back in between, as executemany does for every row."""
        if not prepared.count:
            return 0
        conn = self._conn
        base = prepared.first_seq - 1
        try:
            for sql, params in _multi_row(_INSERT_MEMORY_ROWS, 15, prepared.rows):
                conn.execute(sql, params)
        except sqlcipher3.IntegrityError:
            raise self._id_clash(prepared, base) from None
        for sql, params in _multi_row(_TAG_INSERT_ROWS, 2, prepared.tags):
            conn.execute(sql, params)
        if prepared.grants:
            conn.executemany(_GRANT_INSERT, prepared.grants)
        if prepared.passages is None:
            recall_index.index_memories(conn, prepared.memories, fresh=True)
        else:
            recall_index.write_analysed(conn, [analysed(p) for p in prepared.passages])
        return prepared.count

    def _id_clash(self, prepared: PreparedMemories, base: int) -> IntegrityViolation:
        """Which id of a failed insert was already there (or repeated within it)."""
        ids = [prepared.rows[i] for i in range(1, len(prepared.rows), 15)]
        # Rows of this batch inserted before the failing statement have seq > base.
        taken = sorted(
            str(r[0])
            for start in range(0, len(ids), _CHUNK)
            for r in self._conn.execute(
                "SELECT id FROM memories WHERE seq <= ? AND id IN "
                f"({', '.join('?' * len(ids[start : start + _CHUNK]))})",
                (base, *ids[start : start + _CHUNK]),
            )
        )
        clash = taken or sorted(i for i, n in Counter(ids).items() if n > 1)
        return IntegrityViolation(
            f"memory id {clash[0]} already exists" if clash else "duplicate memory id"
        )

    def update_memory(self, memory: StoredMemory) -> None:
        if self.update_memories([memory]) != 1:
            raise StoreError(f"memory {memory.memory.id} does not exist")

    def update_memories(self, memories: Iterable[StoredMemory]) -> int:
        """Replace existing memories (unknown ids are skipped; the count says how many were
        replaced; of several with one id the last wins), with batched statements.

        Only what changed is written: a row's indexed columns only when their values change
        (SQLite rewrites the entries of every index whose column an UPDATE sets, changed or
        not), the full-text entry, tags and grants only when theirs do. Changing only the
        document (decay, reinforcement) touches no index at all."""
        batch = list({m.memory.id: m for m in memories}.values())
        if not batch:
            return 0
        with self.transaction():
            old = self._index_state([m.memory.id for m in batch])
            updates: dict[tuple[int, ...], list[tuple[Any, ...]]] = {}
            reindex: list[tuple[int, Memory, list[str]]] = []
            recall: list[tuple[int, Memory]] = []
            count = 0
            for stored in batch:
                memory = stored.memory
                previous = old.get(memory.id)
                if previous is None:
                    continue
                count += 1
                seq, old_fts, old_grants, old_columns = previous
                tag_list = _tags(memory)
                row = _memory_row(stored, tag_list)
                changed = tuple(i for i, value in enumerate(row[1:-1]) if value != old_columns[i])
                updates.setdefault(changed, []).append(
                    (*(row[1 + i] for i in changed), row[-1], seq)
                )
                new_fts = _fts_values(memory, tag_list)
                if new_fts[:3] != old_fts[:3] or row[1:3] != old_columns[:2]:
                    recall.append((seq, memory))  # its words or its type changed
                if new_fts[2] != old_fts[2] or set(_grants(memory)) != old_grants:
                    reindex.append((seq, memory, tag_list))
            for changed, rows in updates.items():
                assignments = "".join(f"{_UPDATABLE[i]} = ?, " for i in changed)
                self._conn.executemany(
                    f"UPDATE memories SET {assignments}document = ? WHERE seq = ?", rows
                )
            for start in range(0, len(reindex), _CHUNK):
                params: list[Any] = []
                where = _in("memory_seq", [r[0] for r in reindex[start : start + _CHUNK]], params)
                self._conn.execute(f"DELETE FROM memory_tags WHERE {where}", params)
                self._conn.execute(f"DELETE FROM memory_grants WHERE {where}", params)
            if reindex:
                self._conn.executemany(
                    _TAG_INSERT, [(tag, seq) for seq, _, tags in reindex for tag in tags]
                )
                self._conn.executemany(
                    _GRANT_INSERT,
                    [(e, p, seq) for seq, memory, _ in reindex for e, p in _grants(memory)],
                )
            if recall:
                recall_index.index_memories(self._conn, recall, fresh=False)
        return count

    def _index_state(
        self, memory_ids: Sequence[str]
    ) -> dict[str, tuple[int, tuple[Any, ...], set[tuple[str, str]], tuple[Any, ...]]]:
        """By id, as stored now: seq, full-text values (content, summary, tags, status),
        grants, and the values of the `_UPDATABLE` columns."""
        state: dict[str, tuple[int, tuple[Any, ...], set[tuple[str, str]], tuple[Any, ...]]] = {}
        ids = list(dict.fromkeys(memory_ids))
        columns = ", ".join(f"m.{c}" for c in _UPDATABLE)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            params: list[Any] = []
            where = _in("m.id", chunk, params)
            # What the recall index analysed (content, summary), on the rows asked for.
            rows = self._all(
                "SELECT m.seq, m.id, json_extract(m.document, '$.content'), "
                f"json_extract(m.document, '$.summary'), {columns} "
                f"FROM memories m WHERE {where}",
                params,
            )
            by_seq: dict[int, set[tuple[str, str]]] = {int(r[0]): set() for r in rows}
            if by_seq:
                params = []
                where = _in("memory_seq", list(by_seq), params)
                for entity, permission, seq in self._all(
                    f"SELECT entity, permission, memory_seq FROM memory_grants WHERE {where}",
                    params,
                ):
                    by_seq[int(seq)].add((str(entity), str(permission)))
            for row in rows:
                seq, memory_id, content, summary, *values = row
                # Exactly what the full-text index holds (it is filled from the same view).
                fts = (content, summary, values[_TAGS_TEXT], values[_STATUS])
                state[str(memory_id)] = (int(seq), fts, by_seq[int(seq)], tuple(values))
        return state

    _stored = staticmethod(tables.read_memory)

    def get_memory(self, memory_id: str) -> StoredMemory | None:
        row = self._one("SELECT document, decay_anchor FROM memories WHERE id = ?", (memory_id,))
        return None if row is None else self._stored(row)

    def get_memories(self, memory_ids: Sequence[str]) -> list[StoredMemory]:
        found: dict[str, StoredMemory] = {}
        ids = list(dict.fromkeys(memory_ids))
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            params: list[Any] = []
            sql = (
                f"SELECT document, decay_anchor FROM memories m WHERE {_in('m.id', chunk, params)}"
            )
            for row in self._all(sql, params):
                stored = self._stored(row)
                found[stored.memory.id] = stored
        return [found[i] for i in memory_ids if i in found]

    def existing_ids(self, memory_ids: Iterable[str]) -> dict[str, str]:
        ids = list(dict.fromkeys(memory_ids))
        found: dict[str, str] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            params: list[Any] = []
            sql = f"SELECT id, content_hash FROM memories m WHERE {_in('m.id', chunk, params)}"
            found.update((str(i), str(h)) for i, h in self._all(sql, params))
        return found

    def ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        # A range on the primary-key index: prefix <= id < prefix + U+10FFFF.
        rows = self._all(
            "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (prefix, prefix + "\U0010ffff", limit),
        )
        return [str(r[0]) for r in rows]

    def readable_ids_with_prefix(self, prefix: str, reader: str, limit: int = 10) -> list[str]:
        params: list[Any] = [prefix, prefix + "\U0010ffff"]
        where = _and(
            _where(MemoryQuery(statuses=None, readable_by=reader), params, with_text=False)
        )
        rows = self._all(
            f"SELECT m.id FROM memories m WHERE m.id >= ? AND m.id < ? AND {where} "
            "ORDER BY m.id LIMIT ?",
            [*params, limit],
        )
        return [str(r[0]) for r in rows]

    def find_by_content_hash(self, content_hash: str) -> list[StoredMemory]:
        rows = self._all(
            "SELECT document, decay_anchor FROM memories WHERE content_hash = ? ORDER BY seq",
            (content_hash,),
        )
        return [self._stored(r) for r in rows]

    def find_by_content_hashes(
        self, content_hashes: Iterable[str], statuses: tuple[str, ...] | None = None
    ) -> dict[str, list[StoredMemory]]:
        hashes = list(dict.fromkeys(content_hashes))
        found: dict[str, list[StoredMemory]] = {}
        for start in range(0, len(hashes), _CHUNK):
            chunk = hashes[start : start + _CHUNK]
            params: list[Any] = []
            clauses = [_in("m.content_hash", chunk, params)]
            if statuses is not None:
                # "+": look rows up by the content-hash index, never by the status index
                # (which would scan every active memory).
                clauses.append(_in("+m.status", statuses, params) if statuses else "0")
            sql = (
                "SELECT document, decay_anchor FROM memories m "
                f"WHERE {_and(clauses)} ORDER BY m.seq"
            )
            for row in self._all(sql, params):
                stored = self._stored(row)
                found.setdefault(stored.memory.content_hash, []).append(stored)
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
        match = self._match(query)
        where = _and(_where(query, params, ordered=True, match=match, walk_created=walk))
        order = _ORDERS.get(query.order, _ORDERS["-created"])
        sql = f"SELECT m.document, m.decay_anchor FROM memories m WHERE {where} ORDER BY {order}"
        sql += _limit(query, params)
        return sql, params

    def _broad_confidence_bounds(self, query: MemoryQuery) -> bool:
        """Whether the query's confidence bounds match more than a page should sort: counted
        (up to that cap) on the status/confidence index alone, which reads no row."""
        if query.min_confidence is None and query.max_confidence is None:
            return False
        params: list[Any] = []
        clauses = _confidence_bounds(query, params)
        if query.statuses is not None:
            if not query.statuses:
                return False
            clauses.insert(0, _in("m.status", query.statuses, []))
            params[:0] = query.statuses
        params.append(_CONFIDENCE_SORT_AT_MOST)
        row = self._one(
            f"SELECT count(*) FROM (SELECT 1 FROM memories m WHERE {_and(clauses)} LIMIT ?)",
            params,
        )
        return int(row[0]) >= _CONFIDENCE_SORT_AT_MOST

    def count_memories(self, query: MemoryQuery) -> int:
        params: list[Any] = []
        where = _and(_where(query, params, match=self._match(query)))
        row = self._one(f"SELECT count(*) FROM memories m WHERE {where}", params)
        return int(row[0])

    def _match(self, query: MemoryQuery) -> str | None:
        """The FTS5 query on the recall index for the query's text (`memory_match`)."""
        text = query.text
        if text is None:
            return None
        return self._read(lambda conn: memory_match(conn, text))

    def search(self, query: MemoryQuery) -> list[SearchHit]:
        """Full-text search, bm25-ranked (``order="relevance"``) or in a time order (then
        every score is 0).

        Relevance ranking scores at most `search_candidates` matches: when a query matches
        more memories than that (a very common word), the most recently indexed matches that
        pass the filters are the ones ranked. Queries matching fewer are ranked exactly. This
        keeps every search within milliseconds at 100,000 memories (docs/vault.md). The
        match is on the memory passages of the recall index (`sqlite_memory_text`)."""
        if query.limit == 0:
            return []
        match = self._match(replace(query, text=query.text or ""))
        if match is None or query.statuses == ():
            return []
        if query.order != "relevance" and query.order in _ORDERS:
            # Walk the time index and keep the matches: fast for common words (it stops after
            # `limit` hits) and for rare ones (the match set is tiny). No relevance score.
            ordered_params: list[Any] = []
            clauses = _where(query, ordered_params, ordered=True, match=match)
            sql = (
                "SELECT m.document, m.decay_anchor, 0.0 FROM memories m "
                f"WHERE {_and(clauses)} ORDER BY {_ORDERS[query.order]}"
            )
            sql += _limit(query, ordered_params)
            return [SearchHit(self._stored(r), 0.0) for r in self._all(sql, ordered_params)]
        # The memory passages of the recall index that match, newest first, joined to their
        # memories and filtered; bm25 scores the first `search_candidates` of them.
        # CROSS JOIN: the match drives (FTS5 would run it again for every row it is probed
        # with); "+" keeps SQLite walking the match, not a filter's index.
        params: list[Any] = [match]
        where = _and(_where(query, params, with_text=False))
        params.append(self.search_candidates)
        scored = (
            f"SELECT p.memory_seq AS seq, {MEMORY_BM25} AS score FROM recall_fts "
            "CROSS JOIN recall_passages p ON p.id = recall_fts.rowid "
            "CROSS JOIN memories m ON m.seq = +p.memory_seq "
            f"WHERE recall_fts MATCH ? AND p.kind = 'memory' AND {where} "
            "ORDER BY recall_fts.rowid DESC LIMIT ?"
        )
        top = _limit(query, params)
        sql = (
            f"WITH scored AS ({scored}), "
            f"top AS (SELECT seq, score FROM scored ORDER BY score, seq DESC{top}) "
            "SELECT m.document, m.decay_anchor, top.score FROM top "
            "JOIN memories m ON m.seq = top.seq ORDER BY top.score, top.seq DESC"
        )
        rows = self._all(sql, params)
        return [SearchHit(self._stored(r), -float(r[2])) for r in rows]

    def iter_memories(self, query: MemoryQuery, batch: int = 1000) -> Iterator[StoredMemory]:
        """Every matching memory in storage order, fetched in batches.

        The seqs of the matches are read once, when iteration starts (one index query, the
        way the planner likes best); each batch is then fetched by seq when its first item is
        asked for — inside whatever transaction the caller holds at that moment — with the
        filters applied again, so a memory that stopped matching meanwhile is left out.
        Memories added after iteration started are not included."""
        params: list[Any] = []
        match = self._match(query)
        where = _and(_where(query, params, match=match))
        seqs = [
            int(r[0])
            for r in self._all(f"SELECT m.seq FROM memories m WHERE {where} ORDER BY m.seq", params)
        ]
        for start in range(0, len(seqs), batch):
            params = []
            clauses = _where(query, params, match=match)
            clauses.append(_in("m.seq", seqs[start : start + batch], params))
            # NOT INDEXED: look the rows up by seq, never by scanning a filter's index.
            rows = self._all(
                "SELECT m.document, m.decay_anchor FROM memories m NOT INDEXED "
                f"WHERE {_and(clauses)} ORDER BY m.seq",
                params,
            )
            for row in rows:
                yield self._stored(row)

    def memory_ids(self, query: MemoryQuery) -> list[str]:
        """The ids from the id index (which holds each id with its seq), the matches from the
        filters' indexes: no memory row is read (at 100,000 memories, a tenth of the time of
        reading the ids from the rows)."""
        params: list[Any] = []
        where = _and(_where(query, params, with_text=False))
        try:
            rows = self._all(
                f"SELECT i.id FROM memories i INDEXED BY {_ID_INDEX} WHERE i.seq IN "
                f"(SELECT m.seq FROM memories m WHERE {where}) ORDER BY i.seq",
                params,
            )
        except StoreError:  # pragma: no cover - a schema without that index
            rows = self._all(f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.seq", params)
        return [str(r[0]) for r in rows]

    def memory_hashes(self) -> Iterator[tuple[str, str]]:
        sql = "SELECT id, content_hash, seq FROM memories WHERE seq > ? ORDER BY seq LIMIT 5000"
        for memory_id, content_hash, _ in tables.pages(
            lambda last: self._all(sql, (last,)), size=5000, key=2
        ):
            yield str(memory_id), str(content_hash)

    def delete_memory(self, memory_id: str) -> bool:
        with self.transaction():
            state = self._index_state([memory_id]).get(memory_id)
            if state is not None:
                seq = state[0]
                self._conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (seq,))
                self._conn.execute("DELETE FROM memory_grants WHERE memory_seq = ?", (seq,))
                recall_index.remove_memories(self._conn, [seq])
                self._conn.execute("DELETE FROM memories WHERE seq = ?", (seq,))
            self._conn.execute(
                "DELETE FROM relations WHERE from_id = ? OR to_id = ?", (memory_id, memory_id)
            )
            self._conn.execute("DELETE FROM embeddings WHERE memory_id = ?", (memory_id,))
        return state is not None

    def delete_conversation(self, conversation_id: str) -> dict[str, int] | None:
        with self.transaction():
            row = self._conn.execute(
                "SELECT message_count FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if row is None:
                return None
            passages, vectors = recall_index.remove_conversation(self._conn, conversation_id)
            self._conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        return {"messages": int(row[0]), "passages": passages, "vectors": vectors}

    def erase_everything(self) -> dict[str, int]:
        with self.transaction():
            conn = self._conn

            def count(sql: str) -> int:
                return int(conn.execute(sql).fetchone()[0])

            counts = {
                "memories": count("SELECT count(*) FROM memories"),
                "relations": count("SELECT count(*) FROM relations"),
                "conversations": count("SELECT count(*) FROM conversations"),
                "messages": count("SELECT COALESCE(sum(message_count), 0) FROM conversations"),
                "embeddings": count("SELECT count(*) FROM embeddings"),
                "exports": count("SELECT count(*) FROM exports"),
            }
            counts["passages"], counts["vectors"] = recall_index.remove_everything(conn)
            # The per-memory state first: the trigger on memories then finds nothing to do.
            for table in (
                "aimem_chunks",
                "aimem_aliases",
                "memory_tags",
                "memory_grants",
                "memories",
                "relations",
                "embeddings",
                "conversations",
                "exports",
            ):
                conn.execute(f"DELETE FROM {table}")
        return counts

    def scrub(self) -> bool:
        """AIMEM §5.2: no recoverable copy of deleted rows. `secure_delete` (set on every
        connection) zeroes deleted cells and freed pages as they are written; the full-text
        index keeps a deleted row's terms in its older segments until they are merged, so
        'optimize' rewrites it into one segment without them; the write-ahead log keeps the
        pages as they were before, so it is checkpointed and truncated to nothing. Returns
        False when that could not be done now: inside a transaction (the deletion is not
        committed yet), or when another connection's open read kept the log from being
        emptied for `_SCRUB_WAIT` seconds."""
        with self._lock:
            if self._depth:
                return False
            with self.transaction():
                recall_index.optimize(self._conn)
            self._conn.execute(f"PRAGMA busy_timeout = {int(_SCRUB_WAIT * 1000)}")
            try:
                busy, _, _ = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                self._conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            return int(busy) == 0

    def check_passphrase(self, passphrase: str) -> None:
        """Open the database afresh with `passphrase` (WrongPassphrase when it does not
        decrypt it) and close it again."""
        type(self).open(self._path, passphrase, busy_timeout=self._busy_timeout).close()

    def rekey(self, passphrase: str) -> None:
        """Re-encrypt the whole database with a new passphrase (SQLCipher ``PRAGMA rekey``);
        the cipher parameters (``vault.params.json``) stay as they are.

        Atomic: SQLCipher rewrites every page in one transaction, and it is run under a
        rollback journal — whose saved pages are the old ones, played back whole if the
        process dies — rather than the write-ahead log, whose readers would need the new key
        before they could read that it changed. Afterwards the database opens with exactly
        one of the two passphrases. Needs the vault to itself: leaving WAL mode fails while
        another connection has it open (StoreError, nothing changed)."""
        if not passphrase:
            raise StoreError("the new passphrase must not be empty")
        with self._lock:
            if self._closed:
                raise StoreError("the vault is closed")
            if self._depth:
                raise StoreError("rekey() cannot run inside a transaction")
            conn = self._conn
            in_use = StoreError(
                f"the vault at {self._path.parent} is open in another process; close it and "
                "try again (the passphrase was not changed)"
            )
            # This store's read connections hold the old key: closed now, reopened with the
            # new one when next needed. One in use makes the change wait (StoreError).
            if self._close_idle_readers():
                raise StoreError(
                    f"the vault at {self._path.parent} is being read on another thread; try "
                    "again (the passphrase was not changed)"
                )
            try:
                busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if busy:
                    raise in_use
                mode = conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
            except sqlcipher3.OperationalError as exc:
                if _is_busy(exc):
                    raise in_use from None
                raise StoreError(f"database error in {self._path}: {exc}") from None
            try:
                if str(mode).lower() != "delete":
                    raise in_use
                try:
                    conn.execute(f"PRAGMA rekey = {_quote(passphrase)}")
                except sqlcipher3.Error as exc:
                    raise StoreError(
                        f"could not re-encrypt {self._path}: {exc}; the passphrase was not changed"
                    ) from None
                with self._readers_lock:
                    self._passphrase = passphrase
            finally:
                conn.execute("PRAGMA journal_mode = WAL").fetchone()

    def memory_stats(self) -> dict[str, dict[str, int]]:
        stats: dict[str, dict[str, int]] = {}
        for name, column in MEMORY_STAT_COLUMNS.items():
            rows = self._all(
                f"SELECT COALESCE({column}, 'none'), count(*) FROM memories "
                f"GROUP BY 1 ORDER BY 2 DESC, 1"
            )
            stats[name] = {str(k): int(v) for k, v in rows}
        return stats

    # -- relations ------------------------------------------------------------------------

    _relation_row = staticmethod(tables.relation_values)
    _INSERT_RELATION: Final = (
        f"INSERT INTO relations ({tables.RELATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
    )

    def insert_relation(self, relation: Relation) -> None:
        self._write(self._INSERT_RELATION, self._relation_row(relation))

    def insert_relations(self, relations: Iterable[Relation]) -> int:
        """Insert many relations in one statement batch (importers)."""
        rows = [self._relation_row(r) for r in relations]
        with self.transaction():
            try:
                self._conn.executemany(self._INSERT_RELATION, rows)
            except sqlcipher3.IntegrityError as exc:
                raise IntegrityViolation(f"relation: {exc}") from None
        return len(rows)

    def update_relation(self, relation: Relation) -> None:
        row = self._relation_row(relation)
        if not self._write(
            "UPDATE relations SET from_id = ?, to_id = ?, type = ?, created_at = ?, document = ? "
            "WHERE id = ?",
            (*row[1:], row[0]),
        ):
            raise StoreError(f"relation {relation.id} does not exist")

    def relations_of(self, memory_id: str) -> list[Relation]:
        rows = self._all(
            "SELECT document FROM relations WHERE from_id = ? OR to_id = ? "
            "ORDER BY created_at, rowid",
            (memory_id, memory_id),
        )
        return [Relation.from_json(orjson.loads(r[0])) for r in rows]

    def iter_relations(self) -> Iterator[Relation]:
        sql = "SELECT document, rowid FROM relations WHERE rowid > ? ORDER BY rowid LIMIT 1000"
        for row in tables.pages(lambda last: self._all(sql, (last,)), size=1000, key=1):
            yield Relation.from_json(orjson.loads(row[0]))

    def relation_stats(self) -> dict[str, int]:
        rows = self._all("SELECT type, count(*) FROM relations GROUP BY type ORDER BY 2 DESC, 1")
        return {str(k): int(v) for k, v in rows}

    # -- conversations and embeddings -----------------------------------------------------

    def put_conversation(self, conversation: StoredConversation) -> bool:
        values = tables.conversation_values(conversation)
        row, frame = values[1:7], values[7]
        with self.transaction():
            existing = self._one(
                "SELECT platform, title, created_at, updated_at, message_count, extra_index, "
                "document FROM conversations WHERE id = ?",
                (conversation.id,),
            )
            # Documents compared as JSON: an older vault keeps the text, not a frame.
            if (
                existing is not None
                and tuple(existing[:6]) == row
                and document_json(existing[6]) == document_json(frame)
            ):
                return False
            self._conn.execute(
                f"INSERT INTO conversations ({tables.CONVERSATION_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET platform = excluded.platform, "
                "title = excluded.title, created_at = excluded.created_at, "
                "updated_at = excluded.updated_at, message_count = excluded.message_count, "
                "extra_index = excluded.extra_index, document = excluded.document",
                values,
            )
            recall_index.index_conversations(
                self._conn,
                [(conversation.id, conversation.platform, conversation.document)],
                fresh=existing is None,
            )
        return True

    def conversation_ids(self, ids: Iterable[str]) -> set[str]:
        """Which of `ids` are stored conversations (one query per 500 ids)."""
        wanted = list(dict.fromkeys(ids))
        found: set[str] = set()
        for at in range(0, len(wanted), 500):
            chunk = wanted[at : at + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self._all(f"SELECT id FROM conversations WHERE id IN ({marks})", chunk)
            found.update(str(row[0]) for row in rows)
        return found

    def conversation_ids_titled(self, platform: str, title: str) -> list[str]:
        rows = self._all(
            "SELECT id FROM conversations WHERE platform = ? AND title = ? ORDER BY id",
            (platform, title),
        )
        return [str(row[0]) for row in rows]

    def add_conversations(self, conversations: Iterable[StoredConversation]) -> None:
        """Insert conversations known to be absent (`conversation_ids`): one statement for
        the batch, no read-back; a present id fails the transaction."""
        batch = list(conversations)
        rows = [tables.conversation_values(c) for c in batch]
        with self.transaction():
            before = self._conn.total_changes
            try:
                self._conn.executemany(
                    f"INSERT INTO conversations ({tables.CONVERSATION_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
            except sqlcipher3.IntegrityError:
                # The rows before the failing one were inserted, one change each.
                clash = rows[min(self._conn.total_changes - before, len(rows) - 1)][0]
                raise IntegrityViolation(f"conversation {clash} already exists") from None
            recall_index.index_conversations(
                self._conn, [(c.id, c.platform, c.document) for c in batch], fresh=True
            )

    _conversation = staticmethod(tables.read_conversation)
    _CONVERSATION_COLUMNS: Final = tables.CONVERSATION_COLUMNS

    def conversation_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        # A range on the primary-key index, as for memory ids.
        rows = self._all(
            "SELECT id FROM conversations WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            (prefix, prefix + "\U0010ffff", limit),
        )
        return [str(r[0]) for r in rows]

    def get_conversation(self, conversation_id: str) -> StoredConversation | None:
        row = self._one(
            f"SELECT {self._CONVERSATION_COLUMNS} FROM conversations WHERE id = ?",
            (conversation_id,),
        )
        return None if row is None else self._conversation(row)

    def conversation_json(self, conversation_id: str) -> bytes | None:
        """A stored conversation document's JSON text, not parsed (None when absent)."""
        row = self._one("SELECT document FROM conversations WHERE id = ?", (conversation_id,))
        return None if row is None else document_json(row[0])

    def iter_conversations(self) -> Iterator[StoredConversation]:
        sql = (
            f"SELECT {tables.CONVERSATION_COLUMNS}, rowid FROM conversations "
            "WHERE rowid > ? ORDER BY rowid LIMIT 200"
        )
        return map(
            tables.read_conversation,
            tables.pages(lambda last: self._all(sql, (last,)), size=200, key=8),
        )

    def count_conversations(self, platform: str | None = None) -> int:
        if platform is None:
            return int(self._one("SELECT count(*) FROM conversations")[0])
        return int(
            self._one("SELECT count(*) FROM conversations WHERE platform = ?", (platform,))[0]
        )

    def conversation_summaries(
        self, platform: str | None = None, *, limit: int | None = 50, offset: int = 0
    ) -> list[ConversationSummary]:
        # The document is the row's last column: a scan of the others never reads it.
        where, params = ("WHERE platform = ?", [platform]) if platform is not None else ("", [])
        rows = self._all(
            "SELECT id, platform, title, created_at, updated_at, message_count "
            f"FROM conversations {where} ORDER BY coalesce(created_at, '') DESC, id DESC "
            "LIMIT ? OFFSET ?",
            [*params, -1 if limit is None else limit, offset],
        )
        return [ConversationSummary(*row) for row in rows]

    def put_embedding(self, embedding: StoredEmbedding) -> None:
        self._write(
            f"INSERT OR REPLACE INTO embeddings ({tables.EMBEDDING_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            tables.embedding_values(embedding),
        )

    def get_embedding(self, memory_id: str) -> StoredEmbedding | None:
        row = self._one(
            f"SELECT {tables.EMBEDDING_COLUMNS} FROM embeddings WHERE memory_id = ? "
            "ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (memory_id,),
        )
        return None if row is None else tables.read_embedding(row)

    # -- per-memory AIMEM state (a trigger deletes it with the memory: migration 3) --------

    def _pairs(self, sql: str, keys: Iterable[str]) -> dict[str, str]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, str] = {}
        for start in range(0, len(wanted), _CHUNK):
            part = wanted[start : start + _CHUNK]
            marks = ", ".join("?" * len(part))
            found.update((str(k), str(v)) for k, v in self._all(sql.format(marks=marks), part))
        return found

    def export_cache_generation(self) -> int | None:
        return int(self._one("SELECT n FROM aimem_export_cache_generation WHERE id = 1")[0])

    def export_state(self) -> tuple[int, ...] | None:
        # Updates and deletes of memories and every write of a relation count in the
        # generation (migration 6's triggers); an insert raises max(seq) (seq only grows
        # until a delete, which counts). Both are index lookups, not scans.
        row = self._one(
            "SELECT (SELECT n FROM aimem_export_cache_generation WHERE id = 1), "
            "(SELECT COALESCE(max(seq), 0) FROM memories)"
        )
        return (int(row[0]), int(row[1]))

    def export_chunk_rows(
        self, query: MemoryQuery, producer: str, *, with_bytes: bool = True
    ) -> Iterator[tuple[str, CachedChunk | None]] | None:
        return self._export_chunk_rows(query, producer, with_bytes)

    def _export_chunk_rows(
        self, query: MemoryQuery, producer: str, with_bytes: bool
    ) -> Iterator[tuple[str, CachedChunk | None]]:
        # A window of rows at a time (bounded memory), by seq: a window never sees a
        # memory twice; one added meanwhile comes at the end (an export after it).
        canonical = "c.canonical" if with_bytes else "NULL"
        after = 0
        while True:
            params: list[Any] = [producer]
            where = _and([*_where(query, params, match=self._match(query)), "m.seq > ?"])
            params.extend((after, _CHUNK))
            rows = self._all(
                "SELECT m.id, c.chunk_id, c.graph, c.refs, c.dna, c.exportable, c.block, "
                # NOT INDEXED: each window walks the rowid (seq) from `after` and stops at
                # the limit; through the status index every window re-read and sorted every
                # memory (quadratic: a first export of 50,000 took 54 CPU-s with an 8 MiB
                # page cache, 12 with 64 MiB).
                f"{canonical}, m.seq FROM memories m NOT INDEXED LEFT JOIN aimem_export_cache c "
                f"ON c.memory_id = m.id AND c.producer = ? WHERE {where} ORDER BY m.seq LIMIT ?",
                params,
            )
            for r in rows:
                yield (
                    str(r[0]),
                    None
                    if r[1] is None
                    # BLOB columns come back as bytes: no copies (this runs once per memory).
                    else CachedChunk(
                        r[0], r[1], r[2], tuple(r[3].split()), r[4] == 1, r[5] == 1, r[6],
                        r[7] if r[7] is not None else b"",
                    ),
                )  # fmt: skip
            if len(rows) < _CHUNK:
                return
            after = int(rows[-1][8])

    def export_chunk_bytes(self, producer: str, memory_ids: Sequence[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for start in range(0, len(memory_ids), _CHUNK):
            window = memory_ids[start : start + _CHUNK]
            marks = ", ".join("?" * len(window))
            for memory_id, canonical in self._all(
                "SELECT memory_id, canonical FROM aimem_export_cache "
                f"WHERE producer = ? AND memory_id IN ({marks})",
                [producer, *window],
            ):
                out[str(memory_id)] = canonical
        return out

    def put_export_chunks(
        self, producer: str, chunks: Sequence[CachedChunk], generation: int
    ) -> bool:
        # Never wait for the write lock: an export must not queue behind a writer (an
        # erasure's transaction, say) to keep what is only a speed-up; the next one keeps it.
        if not self._lock.acquire(blocking=False):
            return False
        try:
            return self._put_export_chunks(producer, chunks, generation)
        finally:
            self._lock.release()

    def _put_export_chunks(
        self, producer: str, chunks: Sequence[CachedChunk], generation: int
    ) -> bool:
        with self.transaction():
            if self.export_cache_generation() != generation:
                return False
            self._conn.executemany(
                "INSERT OR REPLACE INTO aimem_export_cache (memory_id, producer, chunk_id, "
                "graph, refs, dna, exportable, block, canonical) "
                "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM memories WHERE id = ?)",
                [
                    (
                        c.memory_id,
                        producer,
                        c.chunk_id,
                        c.graph,
                        " ".join(c.refs),
                        int(c.dna),
                        int(c.exportable),
                        c.block,
                        c.canonical,
                        c.memory_id,
                    )
                    for c in chunks
                ],
            )
        return True

    def export_pending(self, limit: int) -> list[str] | None:
        return [str(r[0]) for r in self._all(
            "SELECT memory_id FROM aimem_export_pending LIMIT ?", [limit]
        )]  # fmt: skip

    def export_pending_count(self) -> int | None:
        row = self._one("SELECT count(*) FROM aimem_export_pending")
        return int(row[0]) if row is not None else 0

    def keep_current_chunks(
        self, producer: str, chunks: Sequence[CachedChunk], memory_ids: Sequence[str]
    ) -> None:
        with self.transaction():
            for start in range(0, len(memory_ids), _CHUNK):
                window = memory_ids[start : start + _CHUNK]
                marks = ", ".join("?" * len(window))
                # Deleted first (not replaced): a dropped block counts in the graph generation.
                self._conn.execute(
                    f"DELETE FROM aimem_export_cache WHERE memory_id IN ({marks})", window
                )
                self._conn.execute(
                    f"DELETE FROM aimem_export_pending WHERE memory_id IN ({marks})", window
                )
            self._conn.executemany(
                "INSERT INTO aimem_export_cache (memory_id, producer, chunk_id, graph, refs, "
                "dna, exportable, block, canonical) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        c.memory_id, producer, c.chunk_id, c.graph, " ".join(c.refs),
                        int(c.dna), int(c.exportable), c.block, c.canonical,
                    )
                    for c in chunks
                ],
            )  # fmt: skip

    def export_graph_generation(self) -> int | None:
        return int(self._one("SELECT n FROM aimem_export_graph_generation WHERE id = 1")[0])

    def export_chunks_in_order(
        self, query: MemoryQuery, producer: str, *, after: int = 0
    ) -> Iterator[list[tuple[Any, ...]]] | None:
        return self._chunks_in_order(query, producer, after)

    def _chunks_in_order(
        self, query: MemoryQuery, producer: str, after: int
    ) -> Iterator[list[tuple[Any, ...]]]:
        # Windows by seq (NOT INDEXED: see `_export_chunk_rows`): bounded memory, and one
        # pass over the pages, each decrypted once; from `after` on, a walk of the rowid's
        # b-tree from there.
        while True:
            params: list[Any] = [producer]
            where = _and([*_where(query, params, match=self._match(query)), "m.seq > ?"])
            params.extend((after, _INDEX_WINDOW))
            rows = self._all(
                "SELECT m.id, c.chunk_id, c.refs, c.dna, c.exportable, c.graph, c.canonical, "
                "m.seq FROM memories m NOT INDEXED LEFT JOIN aimem_export_cache c "
                f"ON c.memory_id = m.id AND c.producer = ? WHERE {where} ORDER BY m.seq LIMIT ?",
                params,
            )
            yield rows
            if len(rows) < _INDEX_WINDOW:
                return
            after = int(rows[-1][7])

    def chunk_digests(self, memory_ids: Iterable[str]) -> dict[str, str]:
        sql = "SELECT memory_id, digest FROM aimem_chunks WHERE memory_id IN ({marks})"
        return self._pairs(sql, memory_ids)

    def put_chunk_digests(self, digests: Mapping[str, str]) -> None:
        with self.transaction():
            self._conn.executemany(
                "INSERT INTO aimem_chunks (memory_id, digest) VALUES (?, ?) "
                "ON CONFLICT (memory_id) DO UPDATE SET digest = excluded.digest",
                list(digests.items()),
            )

    def aliases(self, incoming_ids: Iterable[str]) -> dict[str, str]:
        sql = "SELECT alias_id, memory_id FROM aimem_aliases WHERE alias_id IN ({marks})"
        return self._pairs(sql, incoming_ids)

    def put_aliases(self, aliases: Mapping[str, str]) -> None:
        with self.transaction():
            self._conn.executemany(
                "INSERT INTO aimem_aliases (alias_id, memory_id) VALUES (?, ?) "
                "ON CONFLICT (alias_id) DO UPDATE SET memory_id = excluded.memory_id",
                list(aliases.items()),
            )

    # -- exports, audit, keys -------------------------------------------------------------

    def record_export(self, record: ExportRecord) -> None:
        self._write(
            f"INSERT OR REPLACE INTO exports ({tables.EXPORT_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            tables.export_values(record),
        )

    def list_exports(self) -> list[ExportRecord]:
        rows = self._all(f"SELECT {tables.EXPORT_COLUMNS} FROM exports ORDER BY at, rowid")
        return [tables.read_export(r) for r in rows]

    _AUDIT_INSERT: Final = (
        f"INSERT INTO audit_log ({tables.AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    _AUDIT_COLUMNS: Final = tables.AUDIT_COLUMNS

    def append_audit(self, entry: AuditEntry) -> None:
        self.append_audit_many([entry])

    def append_audit_many(self, entries: Iterable[AuditEntry]) -> None:
        rows = tables.audit_values(entries)
        with self.transaction():
            try:
                self._conn.executemany(self._AUDIT_INSERT, rows)
            except sqlcipher3.IntegrityError as exc:
                raise IntegrityViolation(f"audit log: {exc}") from None

    _audit = staticmethod(tables.read_audit)

    def last_audit(self) -> AuditEntry | None:
        row = self._one(f"SELECT {self._AUDIT_COLUMNS} FROM audit_log ORDER BY seq DESC LIMIT 1")
        return None if row is None else self._audit(row)

    def iter_audit(self) -> Iterator[AuditEntry]:
        def page(last: int | None) -> list[Any]:
            after, params = ("", ()) if last is None else ("WHERE seq > ? ", (last,))
            return self._all(
                f"SELECT {tables.AUDIT_COLUMNS} FROM audit_log {after}ORDER BY seq LIMIT 5000",
                params,
            )

        return map(tables.read_audit, tables.pages(page, size=5000, key=0, after=None))

    def audit_entries(
        self,
        *,
        after_seq: int = 0,
        memory_id: str | None = None,
        actions: Iterable[str] = (),
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[AuditEntry]:
        """`Store.audit_entries`, one query: a range on the seq key, the other filters tested
        on its rows, LIMIT in the database."""
        params: list[Any] = [after_seq]
        clauses = ["seq > ?"]
        if memory_id is not None:
            clauses.append("memory_id = ?")
            params.append(memory_id)
        wanted = list(dict.fromkeys(actions))
        if wanted:
            clauses.append(_in("action", wanted, params))
        sql = (
            f"SELECT {self._AUDIT_COLUMNS} FROM audit_log WHERE {_and(clauses)} "
            f"ORDER BY seq {'DESC' if newest_first else 'ASC'}"
        )
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(limit, 0))
        return [self._audit(row) for row in self._all(sql, params)]

    def count_audit(self) -> int:
        return int(self._one("SELECT count(*) FROM audit_log")[0])

    def put_key(self, key: KeyRecord) -> None:
        self._write(
            f"INSERT OR REPLACE INTO keys ({tables.KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            (key.key_id, key.algorithm, key.public_key, key.private_key, key.created_at, key.did),
        )

    @staticmethod
    def _key(row: Any) -> KeyRecord:
        return tables.read_key(row, None if row[3] is None else bytes(row[3]))

    def get_key(self, key_id: str) -> KeyRecord | None:
        row = self._one(f"SELECT {tables.KEY_COLUMNS} FROM keys WHERE key_id = ?", (key_id,))
        return None if row is None else self._key(row)

    def list_keys(self) -> list[KeyRecord]:
        rows = self._all(f"SELECT {tables.KEY_COLUMNS} FROM keys ORDER BY created_at, key_id")
        return [self._key(r) for r in rows]

    # -- maintenance ----------------------------------------------------------------------

    def size_bytes(self) -> int | None:
        total = 0
        for file in (self._path, *_companions(self._path)):
            with contextlib.suppress(FileNotFoundError):
                total += file.stat().st_size
        return total

    def check_integrity(self) -> list[str]:
        """SQLite's ``integrity_check``, SQLCipher's per-page HMAC check, and the FTS5
        index's own check. Empty when all is well."""
        problems = [
            str(r[0]) for r in self._all("PRAGMA integrity_check") if str(r[0]).lower() != "ok"
        ]
        problems += [str(r[0]) for r in self._all("PRAGMA cipher_integrity_check")]
        try:
            with self.transaction():
                # Contentless: FTS5 checks its own structures (no content to compare).
                self._conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('integrity-check')")
        except (sqlcipher3.Error, StoreError) as exc:
            problems.append(f"full-text index: {exc}")
        return problems

    def backup_to(self, target: Path) -> bool:
        """Copy the database to the new file `target` with SQLite's online backup API, keyed
        with the same passphrase and cipher parameters (the copy stays encrypted), and write
        its parameter file beside it. The copy is one read snapshot taken on a connection of
        its own: in WAL mode writers go on meanwhile, and what they commit after the snapshot
        is not in the copy. Raises StoreError (the target exists, a disk error)."""
        if target.exists():
            raise StoreError(f"cannot back up to {target}: it exists")
        with self._readers_lock:
            passphrase = self._passphrase
        source = _open_connection(
            self._path, passphrase, self._cipher, self._busy_timeout, reader=True
        )
        try:
            copy = _open_connection(target, passphrase, self._cipher, self._busy_timeout)
            try:
                # One step (pages=-1, the default): one read transaction, one snapshot.
                source.backup(copy)
                copy.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                copy.close()
        except sqlcipher3.Error as exc:
            raise StoreError(f"cannot back up {self._path} to {target}: {exc}") from None
        finally:
            source.close()
        params = self.params_path(target)
        fd = os.open(params, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(orjson.dumps(self._cipher.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
        return True

    @contextlib.contextmanager
    def index_connection(self) -> Iterator[Any]:
        """A connection for the recall index, which lives in the same database. Inside this
        thread's transaction it is the writer's (the index's writes join that transaction);
        otherwise it is chosen as every read's is, so recall is answered while another thread
        imports."""
        if self._lock.acquire(blocking=False):
            try:
                if self._closed:
                    raise StoreError("the vault is closed")
                yield self._conn
            finally:
                self._lock.release()
            return
        conn = self._reader()
        try:
            yield conn
        finally:
            self._return_reader(conn)

    def set_recall_cache_budget(self, kib: int) -> None:
        """Let the read connections of a store whose caches are held small (a server's)
        raise their page caches, together by at most `kib` KiB, to keep recall's bit index
        between whole-vault vector searches; 0 keeps them small. `release_memory` gives it
        back."""
        with self._readers_lock:
            self._recall_budget_kib = max(0, int(kib))

    def _grant_bits_cache(self, conn: Any, kib: int) -> bool:
        """Whether reader `conn` may hold `kib` KiB more than the store's cache (the budget
        counts what the other readers hold)."""
        with self._readers_lock:
            key = id(conn)
            others = sum(v for k, v in self._recall_grants.items() if k != key)
            if others + kib > self._recall_budget_kib:
                return False
            self._recall_grants[key] = kib
            return True

    @contextlib.contextmanager
    def recall_index(self) -> Iterator[SQLiteRecallIndex]:
        with self.index_connection() as conn:
            grant = None
            if self._cache_kib < CACHE_KIB and self._recall_budget_kib:
                grant = functools.partial(self._grant_bits_cache, conn)
            # A store whose caches are held small (a server's: SERVER_CACHE_KIB) keeps them
            # so, but for the bit index within its budget.
            yield SQLiteRecallIndex(
                conn,
                cache_kib=self._cache_kib,
                grow_cache=self._cache_kib >= CACHE_KIB,
                grant=grant,
            )

    def execute_raw(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run SQL directly on the decrypted database, outside every vault rule. For tests
        and repair tools only (e.g. tampering with the audit log to prove it is detected)."""
        with self.transaction():
            rows: list[Any] = self._conn.execute(sql, params).fetchall()
            return rows


@dataclass(frozen=True, slots=True)
class _CipherParams:
    """What is needed before the database can be decrypted (the plain-text params file)."""

    kdf_iter: int = DEFAULT_KDF_ITER
    page_size: int = 4096
    hmac_algorithm: str = _OLD_HMAC

    def to_json(self) -> dict[str, Any]:
        return {
            "format": _PARAMS_FORMAT,
            "cipher": "sqlcipher4",
            "kdf_iter": self.kdf_iter,
            "cipher_page_size": self.page_size,
            "cipher_hmac_algorithm": self.hmac_algorithm,
        }

    @classmethod
    def read(cls, path: Path) -> tuple[_CipherParams, str]:
        """The parameters in `path`, or SQLCipher's defaults and a note saying why."""
        default = cls()
        try:
            document = orjson.loads(path.read_bytes())
        except FileNotFoundError:
            return default, f" ({path.name} is missing; tried SQLCipher's defaults)"
        except (OSError, orjson.JSONDecodeError):
            return default, f" ({path.name} is unreadable; tried SQLCipher's defaults)"
        if not isinstance(document, dict):
            return default, f" ({path.name} is not a JSON object; tried SQLCipher's defaults)"
        kdf = document.get("kdf_iter")
        page = document.get("cipher_page_size", 4096)
        if not isinstance(kdf, int) or isinstance(kdf, bool) or kdf < 1:
            return default, f" ({path.name} has no valid kdf_iter; tried SQLCipher's defaults)"
        if page not in _PAGE_SIZES:
            return default, f" ({path.name} has no valid cipher_page_size)"
        hmac = document.get("cipher_hmac_algorithm", _OLD_HMAC)
        if hmac not in _HMACS:
            return default, f" ({path.name} has no valid cipher_hmac_algorithm)"
        return cls(kdf, page, hmac), ""


@functools.cache
def _memory_used_function() -> Any:
    try:
        from sqlcipher3 import _sqlite3  # the extension SQLite is linked into

        function = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    except (ImportError, AttributeError, OSError):
        return None
    function.restype = ctypes.c_int64
    return function


def _memory_used() -> int:
    """SQLite's heap in use in this process (bytes; 0 when it cannot be read)."""
    function = _memory_used_function()
    return int(function()) if function is not None else 0


def _open_connection(
    path: Path,
    passphrase: str,
    cipher: _CipherParams,
    busy_timeout: float,
    note: str = "",
    *,
    reader: bool = False,
    cache_kib: int = CACHE_KIB,
) -> Any:
    """A connection to the database at `path`, keyed and set up; every connection of a store
    (the writer and the read ones) is made here, so each is set up alike. A `reader` may only
    read (``query_only``); `cache_kib` is its page cache."""
    if not passphrase:
        raise WrongPassphrase(f"the passphrase for the vault at {path.parent} is empty")
    private_database(path)
    try:
        conn = sqlcipher3.connect(
            str(path),
            isolation_level=None,
            check_same_thread=False,
            timeout=busy_timeout,
        )
    except sqlcipher3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from None
    try:
        # A wrong key is reported by WrongPassphrase; SQLCipher's own log would also
        # print "hmac check failed" to stderr.
        conn.execute("PRAGMA cipher_log_level = NONE")
        conn.execute(f"PRAGMA key = {_quote(passphrase)}")
        conn.execute(f"PRAGMA kdf_iter = {int(cipher.kdf_iter)}")
        conn.execute(f"PRAGMA cipher_page_size = {int(cipher.page_size)}")
        if cipher.hmac_algorithm != _OLD_HMAC:  # one of _HMACS, checked when read
            conn.execute(f"PRAGMA cipher_hmac_algorithm = {cipher.hmac_algorithm}")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlcipher3.DatabaseError as exc:
            if _is_full(exc):
                # SQLite makes its WAL index and log beside the file before the first
                # read: on a full disk that fails, and the key was never tried.
                raise _full_at_open(exc, path) from None
            raise WrongPassphrase(
                f"wrong passphrase: it does not decrypt the vault at {path.parent}{note}"
            ) from None
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        if reader:
            conn.execute("PRAGMA query_only = ON")
        else:
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA secure_delete = ON")
        # Sorts and temporary indexes stay in memory, never in an unencrypted file.
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute(f"PRAGMA cache_size = {-int(cache_kib)}")
        recall_index.prepare_connection(conn)
        # Touch the WAL index now: SQLite makes its files here, with the database's mode.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def _companions(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _is_full(exc: Exception) -> bool:
    """SQLITE_FULL, or the I/O error a write past RLIMIT_FSIZE (EFBIG) gives."""
    text = str(exc)
    return "disk is full" in text or "disk I/O error" in text


def _is_disk_full(path: Path) -> bool:
    """Whether the filesystem holding `path` has no block left for this user."""
    try:
        stat = os.statvfs(path.parent)
    except OSError:
        return False
    return stat.f_bavail == 0


def _full_at_open(exc: Exception, path: Path) -> StoreFull:
    full = _is_disk_full(path)
    return StoreFull(
        f"the disk holding the vault at {path.parent} is {'full' if full else 'full or failing'} "
        f"({exc}): the vault cannot be opened, because SQLite writes its log beside "
        f"{path.name} before the first read; nothing was changed. Free some space on that "
        "filesystem (`df` shows it) and try again"
    )


def _is_busy(exc: Exception) -> bool:
    text = str(exc)
    return "locked" in text or "busy" in text


def _busy_error(exc: Exception, path: Path) -> StoreError:
    if _is_busy(exc):
        # Nothing was written; the same request succeeds once the other writer is done (503).
        return StoreUnavailable(
            f"the vault at {path.parent} is busy: another process held the write lock past the "
            "busy timeout; try again"
        )
    if _is_full(exc):
        return StoreFull(
            f"the disk holding the vault at {path.parent} is full or failing ({exc}): the "
            "transaction was rolled back and nothing was written; free some space and try again"
        )
    return StoreError(f"database error in {path}: {exc}")


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into statements (triggers contain ';' inside BEGIN…END)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buffer += line
        if sqlcipher3.complete_statement(buffer):
            statement = buffer.strip()
            if statement:
                yield statement
            buffer = ""
    if buffer.strip():
        yield buffer.strip()
