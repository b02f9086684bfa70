"""Exchanged embeddings and the recall index (PAM §12, AIMEM §2.7; docs/decisions.md,
"Exchanged embeddings are recall vectors").

An export writes a memory's vector from the recall index for the vault's embedding model (the
one `memvault embed` computes and recall queries with), falling back to a vector kept as it
was imported. An import puts an incoming vector into the recall index when its model is the
vault's and its dimension that model's, so recall by vector works at once; any other vector
is kept as received (the `embeddings` table), so nothing is lost.
"""

from __future__ import annotations

import sys
import uuid
from array import array
from collections.abc import Callable, Mapping
from typing import Final

from memvault.recall.indexes import RecallIndex
from memvault.recall.vectors import stored_spec
from memvault.store.base import Store, StoredEmbedding

__all__ = ["ExportedVectors", "into_recall", "kept_warning"]

#: Names the id of an embedding exported from the recall index (stable across exports).
_ID_SPACE: Final = uuid.UUID("5f0d7c1e-3b7a-4d2e-9a51-6c1f0e8b2d44")


def _pack(vector: list[float]) -> bytes:
    values = array("f", vector)
    if values.itemsize != 4:  # pragma: no cover - float32 everywhere memvault runs
        raise ValueError("float32 is not 4 bytes here")
    if sys.byteorder == "big":  # pragma: no cover - the vault stores little-endian
        values.byteswap()
    return values.tobytes()


def _unpack(data: bytes) -> list[float]:
    values = array("f")
    values.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return values.tolist()


class ExportedVectors:
    """The embeddings an export writes (PAM §12.1 rule 6: one per memory, the preferred one):
    a memory's recall vector of the vault's model when it has one, else the embedding kept as
    imported. The vault's model is looked up once per export."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._model: tuple[str, int] | bool | None = False  # False: not looked up yet

    def _vault_model(self) -> tuple[str, int] | None:
        if self._model is False:
            spec = stored_spec(self._store)
            model = None
            if spec is not None:
                with self._store.recall_index() as index:
                    found = index.model(spec.model)
                model = None if found is None else (spec.model, found)
            self._model = model
        assert self._model is not True
        return self._model

    def embedding(
        self, memory_id: str, created_at: Callable[[], str], kept: StoredEmbedding | None
    ) -> StoredEmbedding | None:
        """A kept embedding of the same model lends its id and time, so a round trip keeps
        them; otherwise the id is derived from the memory and the model, and the time is
        the memory's last update (`created_at()`)."""
        vault_model = self._vault_model()
        if vault_model is None:
            return kept
        name, model = vault_model
        with self._store.recall_index() as index:
            passage = index.memory_passages([memory_id]).get(memory_id)
            vector = None if passage is None else index.vectors(model, [passage]).get(passage)
        if vector is None:
            return kept
        dimension = len(vector)
        same = kept is not None and kept.model == name and kept.dimensions == dimension
        return StoredEmbedding(
            id=kept.id
            if same and kept is not None
            else str(uuid.uuid5(_ID_SPACE, f"{memory_id}\n{name}\n{dimension}")),
            memory_id=memory_id,
            model=name,
            dimensions=dimension,
            created_at=kept.created_at if same and kept is not None else created_at(),
            vector=_pack(vector),
        )


def _recall_model(index: RecallIndex, name: str, dimension: int) -> int | None:
    """The recall model to take a vector of `name` and `dimension` in: the vault's vectors
    of that model, made when the vault has none of that name yet; None when the vault's
    vectors of that name have another dimension."""
    exact = index.model(name, dimension)
    if exact is not None:
        return exact
    if index.model(name) is not None:
        return None
    return index.model(name, dimension, create=True)


def into_recall(store: Store, embedding: StoredEmbedding) -> bool:
    """Put an imported embedding's vector into the recall index when its model is the
    vault's embedding model and its dimension that model's (inside the importing
    transaction, after the memory's passage was written). False when it is not taken: no
    inline vector, another model or dimension, no embedder chosen, or no passage."""
    spec = stored_spec(store)
    if spec is None or embedding.model != spec.model or embedding.vector is None:
        return False
    vector = _unpack(embedding.vector)
    if not vector or len(vector) != embedding.dimensions:
        return False
    with store.recall_index() as index:
        passage = index.memory_passages([embedding.memory_id]).get(embedding.memory_id)
        if passage is None:
            return False
        model = _recall_model(index, spec.model, len(vector))
        if model is None:
            return False
        return index.put_vectors(model, [(passage, vector)]) == 1


def kept_warning(kept: Mapping[str, int]) -> str | None:
    """The import summary's line for vectors kept as received and not used by recall."""
    if not kept:
        return None
    models = ", ".join(f"{count} of {model}" for model, count in sorted(kept.items()))
    return (
        f"embeddings kept as received, not used by recall ({models}): not the vault's "
        "embedding model and dimension; `memvault embed` computes the vault's own"
    )
