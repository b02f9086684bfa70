"""Migration 5: both full-text indexes delete postings at once (erasure, AIMEM §5.2).

FTS5 keeps an index of segments; by default a deleted row's postings stay in the segments that
hold them, marked deleted by a tombstone, until a merge rewrites those segments. The
``secure-delete`` option (SQLite 3.42+, kept in each table's ``_config``) removes them from the
segments as the row is deleted. Set here on ``memories_fts`` (external content) and
``recall_fts`` (contentless, deleted by rowid: ``contentless_delete``), so every deletion — an
erasure, an update's old text, a conversation re-indexed — drops its postings at once.

It is not enough alone: a term whose postings are all gone can stay as a key of the segment's
page index (measured: an erased conversation's stemmed word was still in a decrypted page),
so `Store.scrub` still merges each index into one segment ('optimize') after an erasure.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO recall_fts (recall_fts, rank) VALUES ('secure-delete', 1);
"""
