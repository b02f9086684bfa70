"""What the PAM and AIMEM exchanges share: the moment of an exchange, embeddings as JSON
and as stored, and the importer's common part (the vault, the actor, the ids merged away,
relations)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from memvault.model import Relation, parse_timestamp
from memvault.store.base import StoredEmbedding
from memvault.unit_of_work import RelationsPut, UnitOfWork
from memvault.vault import Vault, format_timestamp

__all__ = [
    "Importer",
    "embedding_json",
    "instant",
    "record_time",
    "stored_embedding",
    "utc_moment",
]


def utc_moment(now: datetime | None) -> datetime:
    moment = datetime.now(UTC) if now is None else now
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0)


def instant(value: object) -> datetime | None:
    """An ISO 8601 time as a datetime, None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        return None


def record_time(export_date: object, fallback: str) -> str:
    """When an export taken in was made, for the export registry (`fallback`: now)."""
    moment = instant(export_date)
    return fallback if moment is None else format_timestamp(moment)


def embedding_json(stored: StoredEmbedding) -> dict[str, Any]:
    """A stored embedding as a PAM embedding object (PAM §12)."""
    vector: list[float] | None = None
    if stored.vector is not None:
        values = array("f")
        values.frombytes(stored.vector)
        if sys.byteorder == "big":  # pragma: no cover - the vault stores little-endian
            values.byteswap()
        vector = values.tolist()
    return {
        "id": stored.id,
        "memory_id": stored.memory_id,
        "model": stored.model,
        "dimensions": stored.dimensions,
        "created_at": stored.created_at,
        "vector": vector,
        "storage": None if stored.storage is None else dict(stored.storage),
    }


def stored_embedding(emb: Mapping[str, Any], memory_id: str | None = None) -> StoredEmbedding:
    """A PAM embedding object (or an AIMEM chunk's, mapped) as the vault stores it: the
    vector as little-endian float32. `memory_id`: the memory it belongs to, when not its
    own ``memory_id``."""
    vector = emb.get("vector")
    data = None
    if isinstance(vector, list):
        values = array("f", (float(v) for v in vector))
        if sys.byteorder == "big":  # pragma: no cover - the vault stores little-endian
            values.byteswap()
        data = values.tobytes()
    storage = emb.get("storage")
    return StoredEmbedding(
        id=str(emb.get("id")),
        memory_id=str(emb.get("memory_id")) if memory_id is None else memory_id,
        model=str(emb.get("model")),
        dimensions=int(emb.get("dimensions") or 0),
        created_at=str(emb.get("created_at")),
        vector=data,
        storage=dict(storage) if isinstance(storage, Mapping) else None,
    )


class Importer:
    """The part of an import both formats share: who imports into which vault at what
    moment, and the incoming ids that now live under another memory's id (dedup, PAM §6)."""

    def __init__(self, vault: Vault, actor: str, moment: datetime) -> None:
        self.vault = vault
        self.actor = actor
        self.moment = moment
        self.at = format_timestamp(moment)
        #: incoming memory ids merged into other memories (dedup): id -> survivor
        self.remap: dict[str, str] = {}

    def import_relations(
        self, work: UnitOfWork, relations: Iterable[Mapping[str, Any]], via: str
    ) -> RelationsPut:
        """PAM relations (§13) between memories the vault holds, their ends followed to the
        memories incoming ones were merged into; one that does not parse is skipped."""
        parsed: list[Relation] = []
        unparsed = 0
        for data in relations:
            try:
                relation = Relation.from_json(data)
            except ValueError:
                unparsed += 1
                continue
            parsed.append(
                relation.evolve(
                    from_=self.remap.get(relation.from_, relation.from_),
                    to=self.remap.get(relation.to, relation.to),
                )
            )
        put = work.put_relations(parsed, via=via)
        return RelationsPut(put.added, put.skipped + unparsed)
