"""Recall: a query in, the best memories and messages out (docs/recall.md).

`recall` runs the full-text list (BM25 over the analysed passages, the query's words as
alternatives), the vector list (when the vault has an embedder and vectors), gives the
full-text hits the vector list missed their exact cosine from their stored vectors, fuses and
weighs them (`memvault.recall.ranking`), keeps the best passage of each memory or message, and
returns hits with their provenance. Who asks decides what may be found (PAM §9): the owner
and background work see everything; an agent sees the memories that are public or shared with
it for reading, and no conversation message (conversations are the owner's).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from memvault.errors import InvalidInput
from memvault.model import MEMORY_STATUSES, Memory
from memvault.recall import vectors
from memvault.recall.embedders import Embedder, EmbedderError, EmbedderSpec, load_embedder
from memvault.recall.index import extraction_sources, memory_conversation, memory_passage
from memvault.recall.indexes import MEMORY, MESSAGE, PassageRecord, RecallIndex, Scope
from memvault.recall.ranking import Ranking, asks_only, cosine, coverage, fuse, weigh
from memvault.store.base import Store
from memvault.store.codec import load_memory
from memvault.vault_inputs import check_actor, is_privileged

__all__ = [
    "KINDS",
    "MODES",
    "RecallFilters",
    "RecallHit",
    "RecallResult",
    "filters_from",
    "recall",
    "rescore",
    "text_coverage",
]

KINDS: Final = ("all", "memories", "messages")
MODES: Final = ("hybrid", "fts", "vector")


@dataclass(frozen=True, slots=True)
class RecallFilters:
    """What recall may return. Memory-only filters (types, tags, statuses) leave messages
    out when set; message-only ones (role, participant) leave memories out."""

    kind: str = "all"
    conversation: str | None = None
    platforms: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    custom_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    role: str | None = None
    participant: str | None = None
    #: Memory statuses that may surface (superseded, retracted, archived … only when listed).
    statuses: tuple[str, ...] = ("active",)


def _words(value: str | Iterable[str] | None, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    out = tuple(value)
    if not all(isinstance(v, str) for v in out):
        raise InvalidInput(f"recall filter {name}: a string or a list of strings", name)
    return out


def _moment(value: datetime | str | None, name: str) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise InvalidInput(
            f"recall filter {name}: {value!r} is not an ISO 8601 date or time", name
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


_FILTER_NAMES: Final = (
    "kind",
    "conversation",
    "platform",
    "platforms",
    "type",
    "types",
    "custom_type",
    "custom_types",
    "tag",
    "tags",
    "since",
    "until",
    "role",
    "participant",
    "status",
    "statuses",
    "include_inactive",
)


def filters_from(options: Mapping[str, Any]) -> RecallFilters:
    """`RecallFilters` from keyword filters (`Vault.recall`'s, or a batch line's): kind,
    conversation, platform(s), type(s), custom_type(s), tag(s), since, until, role,
    participant, status(es), include_inactive. Raises InvalidInput naming the filter and the
    rule."""
    unknown = sorted(set(options) - set(_FILTER_NAMES))
    if unknown:
        raise InvalidInput(
            f"unknown recall filter(s): {', '.join(unknown)} (known: {', '.join(_FILTER_NAMES)})",
            unknown[0],
        )
    kind = options.get("kind") or "all"
    if kind not in KINDS:
        raise InvalidInput(f"recall filter kind: one of {', '.join(KINDS)}, not {kind!r}", "kind")
    statuses = _words(options.get("statuses", options.get("status")), "statuses")
    if options.get("include_inactive"):
        statuses = MEMORY_STATUSES
    for status in statuses:
        if status not in MEMORY_STATUSES:
            raise InvalidInput(
                f"recall filter statuses: {status!r} is not a memory status "
                f"({', '.join(MEMORY_STATUSES)}; PAM §4.1)",
                "statuses",
            )
    text: dict[str, str | None] = {}
    for name in ("conversation", "role", "participant"):
        value = options.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidInput(f"recall filter {name}: a string, not {value!r}", name)
        text[name] = value
    return RecallFilters(
        kind=kind,
        conversation=text["conversation"],
        platforms=_words(options.get("platforms", options.get("platform")), "platforms"),
        types=_words(options.get("types", options.get("type")), "types"),
        custom_types=_words(
            options.get("custom_types", options.get("custom_type")), "custom_types"
        ),
        tags=_words(options.get("tags", options.get("tag")), "tags"),
        since=_moment(options.get("since"), "since"),
        until=_moment(options.get("until"), "until"),
        role=text["role"],
        participant=text["participant"],
        statuses=statuses or ("active",),
    )


@dataclass(frozen=True, slots=True)
class RecallHit:
    """One result: a memory or a message, with where it comes from. `message_ids`: for a
    message, itself; for a memory, its provenance ``message_ref`` and the messages its
    extraction read it from."""

    kind: str  # "memory" | "message"
    id: str
    text: str
    score: float
    conversation_id: str | None
    message_ids: tuple[str, ...]
    role: str | None = None
    participant: str | None = None
    title: str | None = None
    at: str | None = None
    status: str | None = None
    memory: Memory | None = None

    def to_json(self) -> dict[str, Any]:
        """The hit as the batch mode and ``--json`` print it."""
        return {
            "kind": self.kind,
            "id": self.id,
            "text": self.text,
            "score": round(self.score, 6),
            "conversation_id": self.conversation_id,
            "message_ids": list(self.message_ids),
        }


@dataclass(slots=True)
class RecallResult:
    """The hits, best first, and how they were found: `mode` is what ran ("hybrid", "fts",
    "vector"); `vectors_complete` is False when some passages have no vector of the vault's
    model (or there is none), and `notes` say so in words."""

    hits: list[RecallHit] = field(default_factory=list)
    mode: str = "fts"
    vectors_complete: bool = False
    notes: list[str] = field(default_factory=list)


def scope_of(filters: RecallFilters, actor: str) -> Scope:
    """The passages `filters` and `actor` leave, as the index's `Scope`: memory-only filters
    (types, custom types, tags) and an agent (PAM §9: no conversation message) leave messages
    out; message-only ones (role, participant) leave memories out; both at once, nothing."""
    privileged = is_privileged(actor)
    kind = {"all": None, "memories": MEMORY, "messages": MESSAGE}[filters.kind]
    memory_only = bool(filters.types or filters.custom_types or filters.tags) or not privileged
    message_only = filters.role is not None or filters.participant is not None
    empty = memory_only and message_only
    if memory_only:
        empty = empty or kind == MESSAGE
        kind = MEMORY
    if message_only:
        empty = empty or kind == MEMORY
        kind = MESSAGE
    return Scope(
        kind=kind,
        statuses=filters.statuses,
        conversation=filters.conversation,
        platforms=filters.platforms,
        types=filters.types,
        custom_types=filters.custom_types,
        tags=filters.tags,
        since=filters.since,
        until=filters.until,
        role=filters.role,
        participant=filters.participant,
        reader=None if privileged else actor,
        empty=empty,
    )


@functools.lru_cache(maxsize=4)
def _embedder(spec: EmbedderSpec) -> Embedder:
    return load_embedder(spec)


def recall(
    store: Store,
    text: str,
    k: int = 10,
    filters: RecallFilters | None = None,
    *,
    actor: str,
    mode: str = "hybrid",
    ranking: Ranking | None = None,
    embedder: Embedder | None = None,
    now: datetime | None = None,
) -> RecallResult:
    """The `k` best memories and messages for `text` (module docstring), from the `store`'s
    recall index. `embedder` overrides the vault's (tests, a caller holding one already)."""
    actor = check_actor(actor)
    if not isinstance(text, str):
        raise InvalidInput("the recall query must be text", "query")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InvalidInput(f"k must be a whole number ≥ 1, not {k!r}", "k")
    if mode not in MODES:
        raise InvalidInput(f"mode is one of {', '.join(MODES)}, not {mode!r}", "mode")
    filters = filters or RecallFilters()
    ranking = ranking or Ranking()
    depth = ranking.depth(k)
    result = RecallResult(mode=mode)
    scope = scope_of(filters, actor)

    # The query's vector, when vectors are wanted: embedded outside the database lock.
    query_vector: list[float] | None = None
    model: int | None = None
    unavailable = store.vectors_unavailable() if mode != "fts" else None
    if unavailable is not None:
        result.notes.append(unavailable)
        if mode == "vector":
            result.notes.append("answered from full text only")
        result.mode = "fts"
    elif mode != "fts":
        spec = vectors.stored_spec(store)
        if embedder is None and spec is not None:
            try:
                embedder = _embedder(spec)
            except EmbedderError as exc:
                result.notes.append(f"the vault's embedder is unavailable ({exc})")
        if embedder is None:
            if spec is None:
                result.notes.append("no embedder is set for this vault (memvault embed)")
        else:
            with store.recall_index() as index:
                # By name: asking an endpoint for its dimension would cost a request.
                model = index.model(embedder.model)
                full = model is not None and index.complete(model)
                # Counting is for the note only, when some passages wait for a vector.
                done, total = (1, 1) if full else index.coverage(model)
            if model is None or done == 0:
                result.notes.append(
                    f"no passage has a vector of {embedder.model} yet (memvault embed)"
                )
                model = None
            else:
                result.vectors_complete = done >= total
                if done < total:
                    result.notes.append(
                        f"vectors cover {done} of {total} passages (memvault embed adds the rest)"
                    )
                try:
                    query_vector = embedder.embed([text], query=True)[0]
                except EmbedderError as exc:
                    result.notes.append(f"the query could not be embedded ({exc})")
                    model = None
        if query_vector is None:
            if mode == "vector":
                result.notes.append("answered from full text only")
            result.mode = "fts"
        elif mode == "hybrid":
            result.mode = "hybrid"

    with store.recall_index() as index:
        text_hits: list[tuple[int, float]] = []
        if result.mode in ("fts", "hybrid"):
            text_hits = index.search(text, depth, scope)
        vector_hits: list[tuple[int, float]] = []
        if query_vector is not None and model is not None:
            # Fusion counts only the vector list's first hits; vectors alone rank their own.
            wanted = ranking.vector_candidates(k) if result.mode == "hybrid" else depth
            vector_hits = index.nearest(model, query_vector, wanted, scope)
        rescored: dict[int, float] = {}
        covered: dict[int, float] = {}
        if result.mode == "hybrid" and query_vector is not None and model is not None:
            rescored = rescore(index, model, query_vector, text_hits, vector_hits, ranking)
            if vector_hits:
                covered = text_coverage(index, text, text_hits, ranking)
        fused = fuse(text_hits, vector_hits, ranking, rescored, covered)
        result.hits = _hits(index, fused, k, ranking, now)
    return result


def rescore(
    index: RecallIndex,
    model: int,
    query: Sequence[float],
    text_hits: Sequence[tuple[int, float]],
    vector_hits: Sequence[tuple[int, float]],
    ranking: Ranking,
) -> dict[int, float]:
    """Hybrid recall's second stage: the exact cosine similarity of the first
    `ranking.rescore_depth` full-text hits that the vector list did not return, from their
    stored float vectors (the vector index searched approximately, or not that deep)."""
    if not ranking.rescore_depth:
        return {}
    listed = {pid for pid, _ in vector_hits}
    wanted = [pid for pid, _ in text_hits[: ranking.rescore_depth] if pid not in listed]
    if not wanted:
        return {}
    stored = index.vectors(model, wanted)
    return {pid: cosine(query, vector) for pid, vector in stored.items()}


def text_coverage(
    index: RecallIndex, text: str, text_hits: Sequence[tuple[int, float]], ranking: Ranking
) -> dict[int, float]:
    """The `coverage` of the full-text hits weighted fusion counts (the first
    `ranking.text_depth`): the share of the query's words each one's own words hold, its
    context's words (the speaker's name and the conversation's title; a memory's tags and
    type) left out. Empty when `text_coverage` is 0, fusion is `rrf`, or the query has a
    prefix word (``portugues*``: its stems match by prefix, not one by one)."""
    if not ranking.text_coverage or ranking.fusion != "weighted" or "*" in text:
        return {}
    top = [pid for pid, _ in (text_hits[: ranking.text_depth] if ranking.text_depth else text_hits)]
    if not top:
        return {}
    asked = index.query_terms(text)
    rows = index.passages(top)
    titles = index.titles(
        {r.conversation_id for r in rows if r.kind == MESSAGE and r.conversation_id}
    )
    out: dict[int, float] = {}
    for row in rows:
        words = {t for alts in index.query_terms(str(row.text)) for t in alts}
        context = {t for alts in index.query_terms(_context(row, titles)) for t in alts}
        out[row.id] = coverage(asked, words, context)
    return out


def _context(row: PassageRecord, titles: Mapping[str, str | None]) -> str:
    """A passage's context as the index holds it (`memvault.recall.index`): a message's
    speaker and conversation title, a memory's tags and type."""
    if row.kind == MESSAGE:
        title = titles.get(row.conversation_id) if row.conversation_id else None
        return " ".join(w for w in (row.participant, title) if w)
    if row.document is None:
        return ""
    return memory_passage(0, load_memory(row.document)).context


def _hits(
    index: RecallIndex, fused: Mapping[int, float], k: int, ranking: Ranking, now: datetime | None
) -> list[RecallHit]:
    if not fused:
        return []
    moment = (now or datetime.now(UTC)).timestamp()
    best: dict[tuple[str, str | None, str], tuple[float, PassageRecord]] = {}
    for row in index.passages(list(fused)):
        at = row.at_epoch
        confidence: float | None = None
        key: tuple[str, str | None, str]
        if row.kind == MEMORY:
            if row.memory_id is None or row.document is None:
                continue
            memory_doc = orjson.loads(row.document)
            value = (memory_doc.get("confidence") or {}).get("current")
            confidence = float(value) if isinstance(value, (int, float)) else None
            key = (MEMORY, None, str(row.memory_id))
            at = row.memory_at
        else:
            key = (MESSAGE, row.conversation_id, str(row.message_id))
        score = weigh(
            fused[row.id],
            ranking,
            kind=row.kind,
            status=row.status if row.kind == MEMORY else None,
            confidence=confidence,
            at_epoch=at,
            now=moment,
            asks=ranking.question_weight != 1.0 and asks_only(str(row.text)),
        )
        if key not in best or score > best[key][0]:
            best[key] = (score, row)
    ordered = sorted(best.values(), key=lambda item: (-item[0], item[1].id))[:k]
    titles = index.titles({row.conversation_id for _, row in ordered if row.conversation_id})
    return [_hit(score, row, titles) for score, row in ordered]


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _hit(score: float, row: PassageRecord, titles: Mapping[str, str | None]) -> RecallHit:
    conversation = row.conversation_id
    if row.kind == MESSAGE:
        message = row.message_id
        return RecallHit(
            kind="message",
            id=str(message),
            text=str(row.text),
            score=score,
            conversation_id=conversation,
            message_ids=(str(message),),
            role=row.role,
            participant=row.participant,
            title=titles.get(conversation) if conversation else None,
            at=_iso(row.at_epoch),
        )
    assert row.document is not None
    memory = load_memory(row.document)
    refs: list[str] = []
    ref = memory.provenance.message_ref
    if isinstance(ref, str) and ref:
        refs.append(ref)
    for source in extraction_sources(memory):
        _, _, message_id = source.partition("#")
        if message_id:
            refs.append(message_id)
    conversation_id = memory_conversation(memory)
    return RecallHit(
        kind="memory",
        id=memory.id,
        text=memory.content,
        score=score,
        conversation_id=conversation_id,
        message_ids=tuple(dict.fromkeys(refs)),
        title=titles.get(conversation_id) if conversation_id else None,
        at=memory.temporal.created_at if isinstance(memory.temporal.created_at, str) else None,
        status=row.status,
        memory=memory,
    )
