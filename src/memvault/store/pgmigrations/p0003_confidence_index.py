"""Migration 3: memories indexed by their stored confidence, tenant and status first.

The memory list filters on the stored ``confidence.current`` (PAM §8; ``MemoryQuery``'s
``min_confidence`` / ``max_confidence``). Without an index the total of a filtered list parsed
every document of the tenant's status as ``json``. ``memories_status_confidence`` is an
expression index on that value — a JSON number as ``float8``, NULL otherwise — so no write
code changes: PostgreSQL computes it when a row is written. `CONFIDENCE` is the expression;
the store's condition is written with the same text so that the planner matches the index.
"""

from __future__ import annotations

from typing import Final

_VALUE: Final = "(document::json #> '{confidence,current}')"

#: The stored `confidence.current` of a row of ``memories`` when it is a JSON number.
CONFIDENCE: Final = f"(CASE WHEN json_typeof{_VALUE} = 'number' THEN {_VALUE}::text::float8 END)"

SQL: Final = f"""
CREATE INDEX memories_status_confidence ON memories (tenant, status, {CONFIDENCE});
"""
