"""Migration 5: both full-text indexes delete for good (erasure, AIMEM §5.2).

FTS5 keeps an index of segments; by default a deleted row's terms stay in the segments that
hold them, marked deleted, until a merge rewrites those segments — so an erased memory's or
message's words were recoverable from the file until `Store.scrub` merged the whole index.
The ``secure-delete`` option (SQLite 3.42+, kept in the table's ``_config``) removes them from
the segments as the row is deleted. Set here on ``memories_fts`` (external content) and
``recall_fts`` (contentless, deleted by rowid: ``contentless_delete``), so every deletion
— erasure, an update's old text, a conversation re-indexed — leaves no term behind.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO recall_fts (recall_fts, rank) VALUES ('secure-delete', 1);
"""
