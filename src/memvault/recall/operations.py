"""What the vault does for recall, behind its methods (`Vault.recall`, `reindex`, `embed`,
`set_embedder`): the access rules and the store's recall index, kept out of vault.py."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memvault.access import require_owner
from memvault.errors import InvalidInput
from memvault.recall import vectors
from memvault.recall.embedders import Embedder, EmbedderSpec, load_embedder
from memvault.recall.engine import RecallResult, filters_from, recall
from memvault.recall.indexes import RecallIndex
from memvault.recall.local_model import DEFAULT_MODEL
from memvault.recall.ranking import Ranking
from memvault.store.base import MemoryQuery, Store

if TYPE_CHECKING:
    from memvault.vault import SearchResult, Vault

__all__ = [
    "embed",
    "embedder_spec",
    "recall_in",
    "recall_memories",
    "reindex",
    "set_embedder",
]


def _writer(store: Store) -> vectors.Begin:
    """Transactions on the store's recall index, one a block."""

    @contextlib.contextmanager
    def begin() -> Iterator[RecallIndex]:
        with store.transaction(), store.recall_index() as index:
            yield index

    return begin


def recall_in(
    store: Store,
    text: str,
    k: int,
    *,
    actor: str,
    mode: str,
    ranking: Ranking | None,
    embedder: Embedder | None,
    now: datetime | None,
    filters: dict[str, Any],
) -> RecallResult:
    check_query(text)
    return recall(
        store,
        text,
        k,
        filters_from(filters),
        actor=actor,
        mode=mode,
        ranking=ranking,
        embedder=embedder,
        now=now,
    )


def check_query(text: object) -> None:
    """A recall or search needs words: an empty or blank query finds nothing by design, so it
    is refused (InvalidInput: exit 2 on the command line, 422 over HTTP) rather than
    answered "no memories match ''"."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("the query is empty: give the words to look for", "query")


def reindex(store: Store, actor: str) -> tuple[int, int]:
    """Rebuild the recall index from what the vault holds (owner only): (memories,
    conversations) indexed. Vectors are dropped with the old passages."""
    require_owner(actor, "rebuild the recall index")
    with _writer(store)() as index:
        return index.rebuild()


def embedder_spec(store: Store) -> EmbedderSpec | None:
    return vectors.stored_spec(store)


def set_embedder(store: Store, spec: EmbedderSpec, actor: str) -> None:
    require_owner(actor, "choose the vault's embedder")
    vectors.store_spec(store, spec)


def embed(
    store: Store,
    actor: str,
    *,
    spec: EmbedderSpec | None = None,
    embedder: Embedder | None = None,
    api_key: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int, int]:
    """Compute the vectors passages lack, with `spec` (stored as the vault's embedder) or
    the vault's stored one. `progress(done, total_missing)` after each batch. Returns
    (embedded now, passages with a vector, all passages)."""
    require_owner(actor, "compute embeddings")
    if spec is None:
        spec = embedder_spec(store)
        # A vault with no embedder yet takes the local model (the [embeddings] extra; its
        # absence is reported with the command that installs it).
        named = EmbedderSpec("local", DEFAULT_MODEL) if spec is None and embedder is None else None
        spec = spec or named
    else:
        named = spec
    if embedder is None:
        assert spec is not None
        embedder = load_embedder(spec, api_key=api_key)  # fails before anything is stored
    if named is not None:
        set_embedder(store, named, actor)
    begin = _writer(store)
    with begin() as index:
        done, total = index.coverage(index.model(embedder.model, embedder.dimension))
    missing = total - done
    state = {"done": 0}

    def step(count: int) -> None:
        state["done"] += count
        if progress is not None:
            progress(state["done"], missing)

    embedded = vectors.embed_missing(begin, embedder, progress=step)
    with begin() as index:
        done, total = index.coverage(index.model(embedder.model, embedder.dimension))
    return embedded, done, total


def recall_memories(
    session: Vault, text: str, query: MemoryQuery, *, newest: bool = False
) -> list[SearchResult]:
    """`memvault search`: recall over memories only, with a `MemoryQuery`'s filters (types,
    custom types, statuses, tags, platforms, created since), then its offset and limit over
    the ranked hits; with `newest`, the best matches newest first."""
    from memvault.model import MEMORY_STATUSES
    from memvault.vault import SearchResult

    wanted = query.offset + (query.limit if query.limit is not None else 50)
    if wanted < 1:
        return []
    result = session.recall(
        text,
        wanted,
        kind="memories",
        types=query.types,
        custom_types=query.custom_types,
        tags=query.tags,
        platforms=query.platforms,
        since=query.created_since,
        statuses=MEMORY_STATUSES if query.statuses is None else query.statuses,
    )
    hits = [SearchResult(h.memory, h.score) for h in result.hits if h.memory is not None]
    if newest:
        hits.sort(key=lambda h: str(h.memory.temporal.created_at), reverse=True)
    return hits[query.offset :]
