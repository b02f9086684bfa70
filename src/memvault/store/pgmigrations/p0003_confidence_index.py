"""Migration 3: memories indexed by their stored confidence, tenant and status first.

The memory list filters on the stored ``confidence.current`` (PAM §8; ``MemoryQuery``'s
``min_confidence`` / ``max_confidence``). Without an index the total of a filtered list parsed
every document of the tenant's status as ``json``. ``confidence`` is a STORED generated column
— the value when it is a JSON number, as ``float8``, NULL otherwise — so no write code
changes: PostgreSQL computes it when a row is written (adding it rewrites the table once).
``memories_status_confidence`` indexes it after the tenant and the status. A column rather
than an expression index: the planner prices the expression as one cheap operator, so it
preferred a sequential scan parsing every document over the index, while a column's filter
costs what it costs and counts can read the index alone.
"""

from __future__ import annotations

from typing import Final

_VALUE: Final = "(document::json #> '{confidence,current}')"

SQL: Final = f"""
ALTER TABLE memories ADD COLUMN confidence float8 GENERATED ALWAYS AS (
    CASE WHEN json_typeof{_VALUE} = 'number' THEN {_VALUE}::text::float8 END
) STORED;
CREATE INDEX memories_status_confidence ON memories (tenant, status, confidence);
"""
