"""Versioned schema migrations for the SQLite store.

Each migration is a module ``mNNNN_<name>.py`` with a ``SQL`` script; `MIGRATIONS` lists them in
order. `SQLiteStore` applies the pending ones when it opens a database, inside one write
transaction, and records each in ``schema_migrations`` (version, name, applied_at) and in
``PRAGMA user_version``. A migration never changes once released: a change is a new migration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from memvault.store.migrations import (
    m0001_initial,
    m0002_compressed_conversations,
    m0003_aimem_state,
)

__all__ = ["LATEST", "MIGRATIONS", "Migration"]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "initial", m0001_initial.SQL),
    Migration(2, "compressed_conversations", m0002_compressed_conversations.SQL),
    Migration(3, "aimem_state", m0003_aimem_state.SQL),
)
LATEST: Final = MIGRATIONS[-1].version
