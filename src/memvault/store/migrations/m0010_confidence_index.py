"""Migration 10: memories indexed by their stored confidence, with their status.

The memory list filters on the stored ``confidence.current`` (PAM §8; ``MemoryQuery``'s
``min_confidence`` / ``max_confidence``). Without an index the total of a filtered list read
and parsed every document of the status. ``document`` is plain JSON text, so an index on an
expression of it does: ``memories_status_confidence`` keeps, beside the status, the value when
it is a JSON number (a string would compare above every number) and NULL otherwise, computed
when a row is written — no write code changes. An expression index rather than an index on a
VIRTUAL generated column: SQLite reads a count from the expression index alone (a covering
index) but fetches every row for an index on the generated column. The store's condition is
`CONFIDENCE` with the same text, which is how SQLite matches it to the index.

Number 10: 7–9 were taken when it was written; the store applies every migration a vault has
not recorded, gaps or not.
"""

from __future__ import annotations

from typing import Final

#: The stored `confidence.current` of a row of ``memories`` when it is a JSON number.
CONFIDENCE: Final = (
    "(CASE json_type(document, '$.confidence.current') WHEN 'real' THEN "
    "json_extract(document, '$.confidence.current') WHEN 'integer' THEN "
    "json_extract(document, '$.confidence.current') END)"
)

SQL: Final = f"""
CREATE INDEX IF NOT EXISTS memories_status_confidence ON memories (status, {CONFIDENCE});
"""
