"""Migration 8: memories have one full-text index, the recall index's (migration 4).

Every memory was written to two FTS5 indexes: ``memories_fts`` (migration 1, external content
over the ``memories_fts_source`` view, unstemmed), which the store's memory text filter and
search read, and the recall index (``recall_fts`` with ``recall_passages``: the memory's
content and summary as its words, its tags and type as context; stemmed in English and
Portuguese), which recall reads. The second write cost as much as the first. From here the
memory text filter and `memvault search` read the memory passages of the recall index (the
memories-only view of recall, as on PostgreSQL every word is matched by its stems), and
``memories_fts`` goes. Its postings are dropped with the table (secure-delete, migration 5,
zeroes freed pages as they are written).
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
DROP TABLE IF EXISTS memories_fts;
DROP VIEW IF EXISTS memories_fts_source;
"""
