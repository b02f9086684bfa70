"""Recall: a query in, the best memories and messages out (docs/recall.md).

`recall` runs the full-text list (BM25 over the analysed passages, the query's words as
alternatives), the vector list (when the vault has an embedder and vectors), fuses and weighs
them (`memvault.recall.ranking`), keeps the best passage of each memory or message, and
returns hits with their provenance. Who asks decides what may be found (PAM §9): the owner
and background work see everything; an agent sees the memories that are public or shared with
it for reading, and no conversation message (conversations are the owner's).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import orjson

from memvault.errors import InvalidInput
from memvault.model import MEMORY_STATUSES, Memory
from memvault.recall import analysis, vectors
from memvault.recall.embedders import Embedder, EmbedderError, EmbedderSpec, load_embedder
from memvault.recall.index import extraction_sources, memory_conversation
from memvault.recall.ranking import Ranking, fuse, weigh
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
]

KINDS: Final = ("all", "memories", "messages")
MODES: Final = ("hybrid", "fts", "vector")
#: bm25 column weights: the passage's words, then its context (speaker, title; tags, type).
_BM25: Final = "bm25(recall_fts, 1.0, 0.5)"
#: Full-text candidates taken before filters that only status and kind set, per one wanted.
_OVERSAMPLE: Final = 4

Connect = Callable[[], contextlib.AbstractContextManager[Any]]


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


def _scope(filters: RecallFilters, actor: str) -> tuple[str, list[Any], bool]:
    """SQL conditions over ``recall_passages p`` LEFT JOIN ``memories m``, their parameters,
    and whether any condition beyond status and kind is set (a narrower scope)."""
    clauses: list[str] = []
    params: list[Any] = []
    kind = filters.kind
    narrow = False
    memory_only = bool(filters.types or filters.custom_types or filters.tags) or not (
        is_privileged(actor)
    )
    message_only = filters.role is not None or filters.participant is not None
    if memory_only and message_only:
        return "0", [], True
    if memory_only:
        kind = "messages" if kind == "messages" else "memories"
        if kind == "messages":
            return "0", [], True
    if message_only:
        if kind == "memories":
            return "0", [], True
        kind = "messages"
    if kind == "memories":
        clauses.append("p.kind = 'memory'")
    elif kind == "messages":
        clauses.append("p.kind = 'message'")
    marks = ", ".join("?" * len(filters.statuses))
    clauses.append(f"(p.kind = 'message' OR m.status IN ({marks}))")
    params.extend(filters.statuses)
    if filters.conversation is not None:
        clauses.append("p.conversation_id = ?")
        params.append(filters.conversation)
        narrow = True
    if filters.platforms:
        clauses.append(f"p.platform IN ({', '.join('?' * len(filters.platforms))})")
        params.extend(filters.platforms)
        narrow = True
    if filters.types:
        clauses.append(f"m.type IN ({', '.join('?' * len(filters.types))})")
        params.extend(filters.types)
        narrow = True
    if filters.custom_types:
        clauses.append(f"m.custom_type IN ({', '.join('?' * len(filters.custom_types))})")
        params.extend(filters.custom_types)
        narrow = True
    for tag in filters.tags:
        clauses.append("m.seq IN (SELECT t.memory_seq FROM memory_tags t WHERE t.tag = ?)")
        params.append(tag)
        narrow = True
    if filters.since is not None:
        clauses.append("COALESCE(m.created_epoch, p.at_epoch) >= ?")
        params.append(filters.since.timestamp())
        narrow = True
    if filters.until is not None:
        clauses.append("COALESCE(m.created_epoch, p.at_epoch) <= ?")
        params.append(filters.until.timestamp())
        narrow = True
    if filters.role is not None:
        clauses.append("p.role = ?")
        params.append(filters.role)
        narrow = True
    if filters.participant is not None:
        clauses.append("p.participant = ? COLLATE NOCASE")
        params.append(filters.participant)
        narrow = True
    if not is_privileged(actor):
        # PAM §9: public memories, and shared ones granting this agent read.
        clauses.append(
            "(m.visibility = 'public' OR (m.visibility = 'shared' AND m.seq IN ("
            "SELECT g.memory_seq FROM memory_grants g WHERE g.entity = ? "
            "AND g.permission = 'read')))"
        )
        params.append(actor)
        narrow = True
    return " AND ".join(clauses), params, narrow


_JOINS: Final = "JOIN recall_passages p ON p.id = f.id LEFT JOIN memories m ON m.seq = p.memory_seq"


_STARRED: Final = re.compile(r"([^\W_]+)\*")


def match_expression(conn: Any, text: str) -> str | None:
    """The FTS5 query for `text`: every stem of every word kept, as alternatives (OR). A word
    ending in ``*`` matches as a prefix: its stems do ("portugues*" finds "português",
    "Portuguese" and "portuguesa")."""
    terms = dict.fromkeys(t for word in analysis.query_terms(conn, text) for t in word if t)
    prefixes = {
        t
        for word in _STARRED.findall(text)
        for stems in analysis.query_terms(conn, word)
        for t in stems
    }
    terms.update(dict.fromkeys(prefixes))
    if not terms:
        return None
    alternatives = " OR ".join(
        '"' + t.replace('"', '""') + '"' + ("*" if t in prefixes else "") for t in terms
    )
    return "{body context} : (" + alternatives + ")"


def _fulltext(
    conn: Any,
    match: str,
    where: str,
    params: list[Any],
    narrow: bool,
    depth: int,
    conversation: str | None = None,
) -> list[tuple[int, float]]:
    """(passage id, BM25 as a positive score), best first, at most `depth`."""
    if not narrow:
        # Rank the matches in FTS5 alone, then drop those the status and kind filters do
        # not let through; only if too few are left, rank the filtered matches directly.
        wanted = depth * _OVERSAMPLE
        rows = conn.execute(
            f"WITH f AS (SELECT rowid AS id, {_BM25} AS s FROM recall_fts "
            "WHERE recall_fts MATCH ? ORDER BY s LIMIT ?) "
            f"SELECT f.id, f.s FROM f {_JOINS} WHERE {where} ORDER BY f.s LIMIT ?",
            [match, wanted, *params, depth],
        ).fetchall()
        if len(rows) >= depth:
            return [(int(r[0]), -float(r[1])) for r in rows]
        full = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM recall_fts WHERE recall_fts MATCH ? LIMIT ?)",
            (match, wanted),
        ).fetchone()[0]
        if int(full) < wanted:  # every match was ranked: nothing more to find
            return [(int(r[0]), -float(r[1])) for r in rows]
    inner, inner_params = "", []
    if conversation is not None:
        # Only the rowid range of the conversation's passages (written together, so close
        # together) is matched and scored, not every match in the vault: FTS5 seeks a rowid
        # range in its lists, while a rowid IN (…) would be checked match by match.
        low, high = conn.execute(
            "SELECT min(id), max(id) FROM recall_passages WHERE conversation_id = ?",
            (conversation,),
        ).fetchone()
        if low is None:
            return []
        inner, inner_params = " AND rowid BETWEEN ? AND ?", [int(low), int(high)]
    rows = conn.execute(
        f"SELECT f.id, f.s FROM (SELECT rowid AS id, {_BM25} AS s FROM recall_fts "
        f"WHERE recall_fts MATCH ?{inner}) f {_JOINS} WHERE {where} ORDER BY f.s LIMIT ?",
        [match, *inner_params, *params, depth],
    ).fetchall()
    return [(int(r[0]), -float(r[1])) for r in rows]


@functools.lru_cache(maxsize=4)
def _embedder(spec: EmbedderSpec) -> Embedder:
    return load_embedder(spec)


def _scope_size(conn: Any, where: str, params: list[Any]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM recall_passages p LEFT JOIN memories m ON m.seq = p.memory_seq "
        f"WHERE {where}",
        params,
    ).fetchone()
    return int(row[0])


def recall(
    connect: Connect,
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
    """The `k` best memories and messages for `text` (module docstring). `connect()` gives
    the database connection for the duration of a block. `embedder` overrides the vault's
    (tests, a caller holding one already)."""
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
    where, params, narrow = _scope(filters, actor)

    # The query's vector, when vectors are wanted: embedded outside the database lock.
    query_vector: list[float] | None = None
    model: int | None = None
    if mode != "fts":
        with connect() as conn:
            spec = vectors.stored_spec(conn)
        if embedder is None and spec is not None:
            try:
                embedder = _embedder(spec)
            except EmbedderError as exc:
                result.notes.append(f"the vault's embedder is unavailable ({exc})")
        if embedder is None:
            if spec is None:
                result.notes.append("no embedder is set for this vault (memvault embed)")
        else:
            with connect() as conn:
                # By name: asking an endpoint for its dimension would cost a request.
                model = vectors.model_named(conn, embedder.model)
                full = model is not None and vectors.complete(conn, model)
                # Counting is for the note only, when some passages wait for a vector.
                done, total = (1, 1) if full else vectors.coverage(conn, model)
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

    with connect() as conn:
        text_hits: list[tuple[int, float]] = []
        if result.mode in ("fts", "hybrid"):
            match = match_expression(conn, text)
            if match is not None:
                text_hits = _fulltext(
                    conn, match, where, params, narrow, depth, filters.conversation
                )
        vector_hits: list[tuple[int, float]] = []
        if query_vector is not None and model is not None:
            size = _scope_size(conn, where, params) if narrow else vectors.EXACT_LIMIT + 1
            vector_hits = vectors.nearest(conn, model, query_vector, depth, (where, params), size)
        fused = fuse(text_hits, vector_hits, ranking)
        result.hits = _hits(conn, fused, k, ranking, now)
    return result


def _hits(
    conn: Any, fused: Mapping[int, float], k: int, ranking: Ranking, now: datetime | None
) -> list[RecallHit]:
    if not fused:
        return []
    ids = list(fused)
    marks = ", ".join("?" * len(ids))
    rows = conn.execute(
        "SELECT p.id, p.kind, p.conversation_id, p.message_id, p.role, p.participant, "
        "p.at_epoch, p.text, m.id, m.status, m.document, "
        "COALESCE(m.updated_epoch, m.created_epoch) "
        f"FROM recall_passages p LEFT JOIN memories m ON m.seq = p.memory_seq "
        f"WHERE p.id IN ({marks})",
        ids,
    ).fetchall()
    moment = (now or datetime.now(UTC)).timestamp()
    best: dict[tuple[str, str | None, str], tuple[float, Any]] = {}
    for row in rows:
        pid, kind, conversation, message, _, _, at, _, memory_id, status, document, m_at = row
        confidence: float | None = None
        if kind == "memory":
            if memory_id is None:
                continue
            memory_doc = orjson.loads(document)
            value = (memory_doc.get("confidence") or {}).get("current")
            confidence = float(value) if isinstance(value, (int, float)) else None
            key = ("memory", None, str(memory_id))
            at = m_at
        else:
            key = ("message", conversation, str(message))
        score = weigh(
            fused[int(pid)],
            ranking,
            kind=kind,
            status=status if kind == "memory" else None,
            confidence=confidence,
            at_epoch=at,
            now=moment,
        )
        if key not in best or score > best[key][0]:
            best[key] = (score, row)
    ordered = sorted(best.values(), key=lambda item: (-item[0], item[1][0]))[:k]
    titles = _titles(conn, {row[2] for _, row in ordered if row[2] is not None})
    return [_hit(score, row, titles) for score, row in ordered]


def _titles(conn: Any, conversation_ids: set[str]) -> dict[str, str | None]:
    if not conversation_ids:
        return {}
    ids = list(conversation_ids)
    marks = ", ".join("?" * len(ids))
    return {
        str(r[0]): r[1]
        for r in conn.execute(f"SELECT id, title FROM conversations WHERE id IN ({marks})", ids)
    }


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _hit(score: float, row: Sequence[Any], titles: Mapping[str, str | None]) -> RecallHit:
    _, kind, conversation, message, role, participant, at, text, _, status, document, _ = row
    if kind == "message":
        return RecallHit(
            kind="message",
            id=str(message),
            text=str(text),
            score=score,
            conversation_id=conversation,
            message_ids=(str(message),),
            role=role,
            participant=participant,
            title=titles.get(conversation) if conversation else None,
            at=_iso(at),
        )
    memory = load_memory(document)
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
        status=status,
        memory=memory,
    )
