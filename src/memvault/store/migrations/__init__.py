"""Versioned schema migrations for the SQLite store.

Each migration is a module ``mNNNN_<name>.py`` with a ``SQL`` script (and, when existing data
must be filled in, a ``run`` function); `MIGRATIONS` lists them in
order; numbers may leave gaps. `SQLiteStore` applies the pending ones — every one not yet
recorded in ``schema_migrations``, so one numbered below a migration already applied still
runs — when it opens a database, inside one write transaction, and records each in
``schema_migrations`` (version, name, applied_at); ``PRAGMA user_version`` holds the highest.
A migration never changes once released: a change is a new migration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from memvault.store.migrations import (
    m0001_initial,
    m0002_compressed_conversations,
    m0003_aimem_state,
    m0004_recall_index,
    m0005_fts_secure_delete,
    m0006_aimem_export_cache,
    m0007_compact_message_passages,
    m0008_one_memory_fulltext,
    m0010_confidence_index,
    m0013_aimem_export_current,
)

__all__ = ["LATEST", "MIGRATIONS", "Migration"]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str
    #: Work done after the script, on the connection, in the same transaction (filling a
    #: new table from what the vault holds).
    run: Callable[[Any], None] | None = None


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "initial", m0001_initial.SQL),
    Migration(2, "compressed_conversations", m0002_compressed_conversations.SQL),
    Migration(3, "aimem_state", m0003_aimem_state.SQL),
    Migration(4, "recall_index", m0004_recall_index.SQL),
    Migration(5, "fts_secure_delete", m0005_fts_secure_delete.SQL),
    Migration(6, "aimem_export_cache", m0006_aimem_export_cache.SQL),
    Migration(
        7,
        "compact_message_passages",
        m0007_compact_message_passages.SQL,
        m0007_compact_message_passages.run,
    ),
    Migration(8, "one_memory_fulltext", m0008_one_memory_fulltext.SQL),
    # 9 is reserved; `SQLiteStore` applies whichever migration a vault has not recorded.
    Migration(10, "confidence_index", m0010_confidence_index.SQL),
    Migration(13, "aimem_export_current", m0013_aimem_export_current.SQL),
)
LATEST: Final = max(m.version for m in MIGRATIONS)
