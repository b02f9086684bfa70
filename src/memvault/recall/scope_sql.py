"""A recall `Scope` as SQL conditions: the logic every SQL backend shares (which filters apply,
how kinds and statuses combine, time through the memory's creation or the message's time),
with each backend writing only what its SQL spells differently (`ScopeSQL` subclasses in
`memvault.store.sqlite_recall` and `memvault.store.postgres_recall`).

The conditions are over ``recall_passages p`` LEFT JOIN ``memories m`` (a message's passage
has no memory: its ``m`` columns are NULL).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from memvault.recall.indexes import MEMORY, MESSAGE, Scope

__all__ = ["ScopeSQL"]


class ScopeSQL(ABC):
    """Builds the WHERE text of a scope and collects its parameters (`params`, in order)."""

    #: A condition that never holds.
    never = "false"
    #: The parameter placeholder.
    mark = "?"

    def __init__(self, params: list[Any] | None = None) -> None:
        #: The parameters bound so far (a list given is appended to).
        self.params: list[Any] = [] if params is None else params

    def bind(self, value: Any) -> str:
        self.params.append(value)
        return self.mark

    @abstractmethod
    def among(self, column: str, values: Sequence[Any]) -> str:
        """`column` equals one of `values` (never empty)."""

    @abstractmethod
    def conversation(self, conversation_id: str) -> str:
        """The passage comes from this conversation (a message's, or a memory's source)."""

    @abstractmethod
    def platforms(self, platforms: Sequence[str]) -> str:
        """The passage's platform (a message's: its conversation's) is one of these."""

    @abstractmethod
    def tags(self, tags: Sequence[str]) -> str:
        """The memory carries every one of these tags."""

    @abstractmethod
    def participant(self, name: str) -> str:
        """The message's participant is `name`, case-insensitively."""

    @abstractmethod
    def readable(self, reader: str) -> str:
        """PAM §9: the memory is public, or shared with `reader` with ``read``."""

    def where(self, scope: Scope) -> str:
        if scope.empty:
            return self.never
        clauses: list[str] = []
        if scope.kind == MEMORY:
            clauses.append("p.kind = 'memory'")
        elif scope.kind == MESSAGE:
            clauses.append("p.kind = 'message'")
        if scope.statuses:
            clauses.append(f"(p.kind = 'message' OR {self.among('m.status', scope.statuses)})")
        else:
            clauses.append("p.kind = 'message'")
        if scope.conversation is not None:
            clauses.append(self.conversation(scope.conversation))
        if scope.platforms:
            clauses.append(self.platforms(scope.platforms))
        if scope.types:
            clauses.append(self.among("m.type", scope.types))
        if scope.custom_types:
            clauses.append(self.among("m.custom_type", scope.custom_types))
        if scope.tags:
            clauses.append(self.tags(scope.tags))
        if scope.since is not None:
            since = self.bind(scope.since.timestamp())
            clauses.append(f"COALESCE(m.created_epoch, p.at_epoch) >= {since}")
        if scope.until is not None:
            until = self.bind(scope.until.timestamp())
            clauses.append(f"COALESCE(m.created_epoch, p.at_epoch) <= {until}")
        if scope.role is not None:
            clauses.append(f"p.role = {self.bind(scope.role)}")
        if scope.participant is not None:
            clauses.append(self.participant(scope.participant))
        if scope.reader is not None:
            clauses.append(self.readable(scope.reader))
        return " AND ".join(clauses)
