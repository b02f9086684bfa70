"""Versioned schema migrations of the PostgreSQL store (`memvault.store.postgres`).

One module per migration, ``pNNNN_<name>.py`` with a ``SQL`` script; `MIGRATIONS` lists them in
order. They run as the application role (the one the store connects as: `memvault db
migrate`, or when a store opens), one at a time across processes (an advisory lock), each in
the transaction that records it in ``memvault_migrations``. A released migration never
changes: a change is a new migration. Independent of the SQLite store's numbering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from memvault.store.pgmigrations import p0001_initial, p0002_recall_index, p0003_confidence_index

__all__ = ["LATEST", "MIGRATIONS", "TENANT_TABLES", "VECTOR_TABLES", "PgMigration"]


@dataclass(frozen=True, slots=True)
class PgMigration:
    version: int
    name: str
    sql: str


MIGRATIONS: Final[tuple[PgMigration, ...]] = (
    PgMigration(1, "initial", p0001_initial.SQL),
    PgMigration(2, "recall_index", p0002_recall_index.SQL),
    PgMigration(3, "confidence_index", p0003_confidence_index.SQL),
)
LATEST: Final = MIGRATIONS[-1].version
#: Every table that holds tenant data (each has forced row-level security), but for
#: `VECTOR_TABLES`, which exist only where pgvector is installed.
TENANT_TABLES: Final = p0001_initial.TENANT_TABLES + p0002_recall_index.TENANT_TABLES[:2]
VECTOR_TABLES: Final = p0002_recall_index.TENANT_TABLES[2:]
