"""Full-text matching of memories in the SQLite store, on the recall index (migration 8).

A memory has one full-text entry: its passage in the recall index (``recall_fts`` and
``recall_passages``, `memvault.store.sqlite_recall`), its content and summary as the words,
its tags and type as the context. The store's memory text filter (`MemoryQuery.text`) and
relevance search read those memory passages — the memories-only view of recall — instead of
an index of their own, so a memory is analysed and written once.

A query matches a memory when every word of it does (AND), as on PostgreSQL: a word by any of
its stems (English, Portuguese), a word ending in ``*`` as a prefix. Stop words are left out
unless the query has nothing else. Punctuation is ignored, so no input is a syntax error.
"""

from __future__ import annotations

import re
from typing import Any, Final

from memvault.recall import analysis

__all__ = ["MEMORY_BM25", "memory_match", "text_clause"]

_TOKEN: Final = re.compile(r"(\w+)(\*?)")
#: bm25 column weights of the recall index: the words, then the context (tags, type).
MEMORY_BM25: Final = "bm25(recall_fts, 1.0, 0.5)"


def memory_match(conn: Any, text: str) -> str | None:
    """The FTS5 query on ``recall_fts`` for memory text `text` (`conn` has the analysis
    loaded), or None when the text has no words."""
    required: list[str] = []
    stopped: list[str] = []
    stop = analysis.stop_words(conn)
    for word, star in _TOKEN.findall(text):
        for token, *stems in analysis.terms(conn, word):
            alternatives = dict.fromkeys(s for s in (*stems, token if star else "") if s)
            if not alternatives:
                continue
            mark = "*" if star else ""
            group = " OR ".join('"' + t.replace('"', '""') + '"' + mark for t in alternatives)
            (stopped if token in stop and not star else required).append(f"({group})")
    groups = required or stopped
    if not groups:
        return None
    return "{body context} : (" + " AND ".join(groups) + ")"


def text_clause(column: str) -> str:
    """SQL: `column` (a memory seq) is the seq of a memory whose passage matches the MATCH
    parameter. CROSS JOIN: the match drives (the rows it finds are few next to the memories,
    and FTS5 runs a MATCH again for every row it is probed with)."""
    return (
        f"{column} IN (SELECT p.memory_seq FROM recall_fts f CROSS JOIN recall_passages p "
        "ON p.id = f.rowid WHERE recall_fts MATCH ? AND p.kind = 'memory')"
    )
