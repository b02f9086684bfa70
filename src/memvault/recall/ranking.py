"""How recall orders what it finds (docs/recall.md, "Ranking"): the full-text and vector lists
fused into one score, then weighed by status, confidence, recency and whether a passage only
asks.

Fusion, by default, is a weighted sum of the two lists' scores, each on a 0..1 scale: BM25
min-max scaled over the first `text_depth` full-text hits, cosine similarity as it is (a fixed
scale: a list of poor neighbours stays poor instead of being stretched to 1). A passage found
by both lists gets both contributions; hits past a list's depth keep only their order, below
every counted hit. Measured on long multi-session conversations
(benchmarks/recall.py, dev split), plain reciprocal-rank fusion (k=60) ranked *below* BM25
alone, while weighted fusion of scaled scores ranked above both. Reciprocal-rank fusion is kept
as an option (``fusion="rrf"``).

A full-text hit's share of the fusion is weighed by how much of the question it answers in
its own words (`coverage`): BM25's first hit is scaled to 1 whatever it matched, and within a
conversation the first hit is often the turn that only names the person asked about ("Hi, I'm
Ethan") — a word every passage of that person holds in its context. Counting the query's
words the passage's own words hold, less those its context holds (the speaker's name, the
conversation's title, a memory's tags and type), lets such a hit keep the vector list's
place instead of pushing a better one out of the first `k`.

Hybrid recall has a second stage before fusion: the full-text hits the vector list did not
return get their exact cosine similarity from their stored vectors (`rescore_depth`), so every
candidate is judged by both lists, not only those the approximate vector search happened to
return. And a passage made only of questions ("What should I plant on a shady balcony?")
weighs `question_weight`: it asks, it tells nothing, yet it shares the words and the form of
a question put to recall, which is what full text and vectors reward.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final

__all__ = ["FUSIONS", "SCALES", "Ranking", "asks_only", "cosine", "coverage", "fuse", "weigh"]

FUSIONS: Final = ("weighted", "rrf")
#: How a list's scores are brought to 0..1 before weighted fusion: "max" (divided by the
#: best), "minmax" (over the list), "cosine" (as they are, clipped at 0; for cosine scores).
SCALES: Final = ("max", "minmax", "cosine")
_DAY: Final = 86_400.0
#: The score of a hit past both lists' depths at rank 1 (÷ its rank): far below any counted
#: hit's score (BM25 and cosine scaled to 0..1).
_TAIL: Final = 1e-6


@dataclass(frozen=True, slots=True)
class Ranking:
    """The knobs of recall's ranking (docs/recall.md lists them with their defaults)."""

    #: "weighted" (normalised scores, summed with the weights below) or "rrf".
    fusion: str = "weighted"
    #: Weight of the full-text score in weighted fusion.
    text_weight: float = 0.3
    #: Weight of the vector score in weighted fusion.
    vector_weight: float = 0.7
    #: How each list's scores are scaled to 0..1 (`SCALES`).
    text_scale: str = "minmax"
    vector_scale: str = "cosine"
    #: How many of each list's first hits weighted fusion counts (0: all it is given); those
    #: further down keep only their order, below every counted hit. BM25's long tail holds
    #: passages sharing one common word; counting it crowds out vector hits. Over a whole
    #: vault the bit index ranks by bits, and the deeper the vector list, the more answers
    #: the exact cosine puts first (dev, whole vault, fused R@10: .796 at 32, .807 at 40,
    #: .813 at 50; docs/recall.md "Coverage and depth").
    text_depth: int = 3
    vector_depth: int = 50
    #: How far weighted fusion weighs a counted full-text hit by the share of the query's
    #: words its own words hold, its context's words left out (`coverage`): its scaled
    #: score × (1 − w + w × share). 0: not at all (BM25's order alone).
    text_coverage: float = 1.0
    #: k of reciprocal-rank fusion: 1 / (k + rank).
    rrf_k: int = 60
    #: How far confidence counts: a memory's score × (1 − w + w × confidence).
    confidence_weight: float = 0.3
    #: How far recency counts: score × (1 − w + w × 0.5^(age / half-life)).
    recency_weight: float = 0.1
    recency_half_life_days: float = 365.0
    #: Multipliers of a memory in a status other than active, when asked for.
    status_weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "active": 1.0,
            "deprecated": 0.6,
            "superseded": 0.5,
            "archived": 0.5,
            "retracted": 0.3,
        }
    )
    #: Multiplier of a passage made only of questions (`asks_only`): it asks, it states
    #: nothing, yet it looks like the question put to recall.
    question_weight: float = 0.25
    #: Hybrid recall's second stage: how many of the full-text list's first hits that the
    #: vector list did not return get their exact cosine similarity from their stored vectors
    #: (0: none). They join the vector list's counted hits, scaled as they are.
    rescore_depth: int = 10
    #: Multipliers by kind, to favour memories or messages.
    memory_weight: float = 1.0
    message_weight: float = 1.0
    #: Candidates taken from each list per result wanted (at least `min_candidates`).
    candidates_per_result: int = 5
    min_candidates: int = 50

    def __post_init__(self) -> None:
        if self.fusion not in FUSIONS:
            raise ValueError(f"fusion is one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        for name in ("text_scale", "vector_scale"):
            if getattr(self, name) not in SCALES:
                raise ValueError(
                    f"{name} is one of {', '.join(SCALES)}, not {getattr(self, name)!r}"
                )
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (int, float)) and (value < 0 or math.isnan(value)):
                raise ValueError(f"ranking {f.name} must be a number ≥ 0, not {value!r}")
        if self.text_coverage > 1:
            raise ValueError(
                f"ranking text_coverage is between 0 and 1, not {self.text_coverage!r}"
            )

    def depth(self, k: int) -> int:
        """Candidates taken from the full-text list for `k` results."""
        return max(k * self.candidates_per_result, self.min_candidates)

    def vector_candidates(self, k: int) -> int:
        """Candidates taken from the vector list for `k` results: weighted fusion counts only
        the first `vector_depth` (the rest would only order the tail, which the full-text
        list fills), so no more are asked for — each costs the vector index time."""
        if self.fusion == "weighted" and self.vector_depth:
            return min(self.depth(k), max(self.vector_depth, k))
        return self.depth(k)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ranking:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown ranking setting(s): {', '.join(unknown)}")
        return cls(**dict(data))


def scaled(hits: Sequence[tuple[int, float]], scale: str, depth: int = 0) -> dict[int, float]:
    """The first `depth` hits (all when 0), their scores brought to 0..1 by `scale`."""
    if depth:
        hits = hits[:depth]
    if not hits:
        return {}
    if scale == "cosine":
        return {pid: min(max(s, 0.0), 1.0) for pid, s in hits}
    scores = [s for _, s in hits]
    high, low = max(scores), min(scores)
    if scale == "max":
        if high <= 0:
            return {pid: 0.0 for pid, _ in hits}
        return {pid: s / high for pid, s in hits}
    if high - low < 1e-9:
        return {pid: 1.0 for pid, _ in hits}
    return {pid: (s - low) / (high - low) for pid, s in hits}


_SENTENCE_BREAK: Final = re.compile(r"(?<=[.!?…？])\s+")
#: What may follow a sentence's last mark: closing quotes and brackets, markdown emphasis.
_CLOSERS: Final = " \t\r\n\"'”’»)]*_~"


def asks_only(text: str) -> bool:
    """Whether every sentence of `text` is a question (ends with "?"): "Any tips for a shady
    balcony?" asks only; "We planted sunflowers. Any tips?" tells something too."""
    if not text.rstrip(_CLOSERS).endswith(("?", "？")):
        return False  # the last sentence tells: no need to split the rest
    sentences = [s.rstrip(_CLOSERS) for s in _SENTENCE_BREAK.split(text.strip())]
    sentences = [s for s in sentences if s]
    return bool(sentences) and all(s.endswith(("?", "？")) for s in sentences)


def coverage(
    asked: Sequence[Sequence[str]], words: Collection[str], context: Collection[str]
) -> float:
    """The share of a query's words that a passage's own words hold, 0..1. `asked`: each
    query word's alternative index terms (`TextIndex.query_terms`); `words`, `context`: the
    index terms of the passage's text and of its context. A query word its context holds
    (the speaker's or the person's name, the conversation's title, a memory's tag) is left
    out: every passage of that person or conversation has it, so it tells nothing of what
    this one says. No word left: 0."""
    counted = [alts for alts in asked if not any(a in context for a in alts)]
    if not counted:
        return 0.0
    return sum(1 for alts in counted if any(a in words for a in alts)) / len(counted)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors of one length (0 when either has no direction)."""
    if len(a) != len(b):
        raise ValueError(f"vectors of {len(a)} and {len(b)} dimensions")
    # map(mul) and sum: a few microseconds a vector, where a generator took fifty times more.
    norms = math.sqrt(sum(map(operator.mul, a, a)) * sum(map(operator.mul, b, b)))
    return sum(map(operator.mul, a, b)) / norms if norms > 0 else 0.0


def fuse(
    text: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    ranking: Ranking,
    rescored: Mapping[int, float] | None = None,
    covered: Mapping[int, float] | None = None,
) -> dict[int, float]:
    """One score per passage from the full-text hits (id, BM25 as a positive number, best
    first) and the vector hits (id, cosine similarity, best first). `rescored`: the exact
    cosine similarity of full-text hits the vector list lacks (hybrid recall's second
    stage); they count as vector hits, beside the list's first `vector_depth`. `covered`:
    the `coverage` of counted full-text hits (a hit absent keeps its score whole), which
    weighs their full-text score by `text_coverage` in weighted fusion."""
    if ranking.fusion == "rrf":
        fused: dict[int, float] = {}
        for hits in (text, vector):
            for rank, (pid, _) in enumerate(hits, start=1):
                fused[pid] = fused.get(pid, 0.0) + 1.0 / (ranking.rrf_k + rank)
        return fused
    if not vector:
        # Full text alone: BM25 ÷ the best, so every hit found keeps a score above 0 (min-max
        # would give the last one 0, and nothing left for confidence and recency to weigh).
        return scaled(text, "max")
    if not text:
        return scaled(vector, ranking.vector_scale)
    t = scaled(text, ranking.text_scale, ranking.text_depth)
    if covered and ranking.text_coverage:
        w = ranking.text_coverage
        t = {pid: s * (1.0 - w + w * covered.get(pid, 1.0)) for pid, s in t.items()}
    counted = list(vector[: ranking.vector_depth] if ranking.vector_depth else vector)
    if rescored:
        listed = {pid for pid, _ in counted}
        counted += [(pid, s) for pid, s in rescored.items() if pid not in listed]
    v = scaled(counted, ranking.vector_scale)
    # Every hit, counted or past its list's depth, also gets a tail score from its best rank
    # in either list: too small to pass a counted hit, it orders the hits the depths leave
    # out (so `k` beyond the depths still gets `k` results) and breaks exact ties.
    best: dict[int, int] = {}
    for hits in (text, vector):
        for rank, (pid, _) in enumerate(hits, start=1):
            best[pid] = min(rank, best.get(pid, rank))
    return {
        pid: ranking.text_weight * t.get(pid, 0.0)
        + ranking.vector_weight * v.get(pid, 0.0)
        + _TAIL / rank
        for pid, rank in best.items()
    }


def weigh(
    score: float,
    ranking: Ranking,
    *,
    kind: str,
    status: str | None,
    confidence: float | None,
    at_epoch: float | None,
    now: float,
    asks: bool = False,
) -> float:
    """A fused score weighed by the kind, a memory's status and confidence, age, and whether
    the passage only asks (`asks_only`)."""
    score *= ranking.memory_weight if kind == "memory" else ranking.message_weight
    if asks:
        score *= ranking.question_weight
    if status is not None:
        score *= ranking.status_weights.get(status, 1.0)
    if confidence is not None and 0.0 <= confidence <= 1.0:
        w = ranking.confidence_weight
        score *= 1.0 - w + w * confidence
    if at_epoch is not None and ranking.recency_weight:
        # In whole days: the same query gives the same scores all day long.
        age = math.floor(max(0.0, now - at_epoch) / _DAY)
        w = ranking.recency_weight
        score *= 1.0 - w + w * 0.5 ** (age / max(ranking.recency_half_life_days, 1e-9))
    return score
