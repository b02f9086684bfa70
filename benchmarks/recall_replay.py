"""Replay recall's ranking over the dev split's candidate lists: how fusion settings were tuned.

```sh
.venv/bin/python benchmarks/recall.py --splits dev --keep /tmp/recall-dev   # a vault to read
.venv/bin/python benchmarks/recall_replay.py /tmp/recall-dev/vault \
    --ranking '{}' --ranking '{"text_coverage": 0, "vector_depth": 30}'
```

The candidate lists of every **dev** question (never a held-out one: tuning must not see
them), in both scopes, are read once from a vault that `benchmarks/recall.py --keep` left:
the full-text hits, the vector hits at each depth a setting asks for, the exact cosine of
every full-text hit, the coverage of the first full-text hits, and each passage's message,
time and whether it only asks. Each `--ranking` (a JSON object of `Ranking` fields, `{}` the
defaults) is then replayed through the engine's own steps (`ranking.fuse`, `ranking.weigh`,
one hit per message) and printed with full text and vectors alone under the same setting:
R@1 / R@5 / R@10 / MRR per scope, and the smallest lead of fused recall over both, in
questions. Replaying the defaults gives `benchmarks/recall.py`'s dev figures within a
question or two (the vector list's query vector is embedded in a batch here).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall as bench

SCOPES = ("conversation", "vault")
#: Full-text hits read per question: more than any setting's depth.
TEXT_DEPTH = 100


@dataclass
class Lists:
    """One question's candidates in one scope."""

    text: list[tuple[int, float]]
    #: vector depth asked -> the vector list at that depth
    vector: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    #: passage -> exact cosine, for every full-text hit
    cosine: dict[int, float] = field(default_factory=dict)
    #: passage -> coverage, for the first full-text hits
    coverage: dict[int, float] = field(default_factory=dict)


@dataclass
class Replay:
    questions: list[bench.SetQuestion]
    lists: dict[tuple[str, str], Lists]
    #: passage -> (the export's message id, time, asks only)
    passages: dict[int, tuple[str, float | None, bool]]


def read(
    home: Path,
    rankings: Sequence[Any],
    k: int = bench.K,
    embedder: Any = None,
    data: bench.RecallSet | None = None,
) -> Replay:
    """The dev questions' candidate lists from the vault at `home` (of `data`, the whole set
    by default, a slice as `benchmarks/recall.py --conversations` makes); the questions are
    embedded by the vault's embedder, or by `embedder` (the same model) when given."""
    from memvault.recall import engine
    from memvault.recall.embedders import load_embedder
    from memvault.recall.ranking import Ranking, asks_only, cosine
    from memvault.vault import Vault

    data = data or bench.load_set()
    dev = [q for q in data.questions if q.split == "dev"]
    depths = sorted({r.depth(k) for r in rankings} | {r.vector_candidates(k) for r in rankings})
    covered = max(r.text_depth or TEXT_DEPTH for r in rankings)
    lists: dict[tuple[str, str], Lists] = {}
    with Vault.open(home, bench.PASSPHRASE) as vault:
        labels: dict[str, str] = {}
        conversations: dict[str, str] = {}
        for conv in vault.conversations():
            provider = conv.document.get("provider") or {}
            conversations[str(provider.get("conversation_id"))] = conv.id
            for message in conv.document.get("messages") or []:
                label = message.get("provider_message_id")
                if isinstance(label, str):
                    labels[message["id"]] = label
        if embedder is None:
            spec = vault.embedder_spec()
            if spec is None:
                raise SystemExit(f"{home} has no embedder: keep a vault from a run with vectors")
            embedder = load_embedder(spec)
        vectors = embedder.embed([q.question for q in dev], query=True)
        seen: set[int] = set()
        with vault.store.recall_index() as index:
            model = index.model(embedder.model)
            assert model is not None
            for q, query in zip(dev, vectors, strict=True):
                for scope in SCOPES:
                    conversation = (
                        conversations[q.conversation] if scope == "conversation" else None
                    )
                    where = engine.scope_of(
                        engine.RecallFilters(kind="messages", conversation=conversation), "user"
                    )
                    text = index.search(q.question, TEXT_DEPTH, where)
                    found = Lists(text)
                    for depth in depths:
                        found.vector[depth] = index.nearest(model, query, depth, where)
                    stored = index.vectors(model, [p for p, _ in text])
                    found.cosine = {p: cosine(query, v) for p, v in stored.items()}
                    found.coverage = engine.text_coverage(
                        index, q.question, text, Ranking(text_depth=covered)
                    )
                    lists[(q.id, scope)] = found
                    seen.update(p for p, _ in text)
                    for hits in found.vector.values():
                        seen.update(p for p, _ in hits)
            rows = index.passages(sorted(seen))
    passages = {
        r.id: (labels.get(str(r.message_id), str(r.message_id)), r.at_epoch, asks_only(r.text))
        for r in rows
    }
    return Replay(dev, lists, passages)


def ranked(replay: Replay, key: tuple[str, str], mode: str, ranking: Any, k: int) -> list[str]:
    """The first `k` messages of one question in `mode`, as `engine.recall` ranks them."""
    from memvault.recall.ranking import fuse, weigh

    found = replay.lists[key]
    text = found.text[: ranking.depth(k)] if mode != "vector" else []
    vector: list[tuple[int, float]] = []
    rescored: dict[int, float] = {}
    covered: dict[int, float] = {}
    if mode == "vector":
        vector = found.vector[ranking.depth(k)]
    elif mode == "hybrid":
        vector = found.vector[ranking.vector_candidates(k)]
        listed = {p for p, _ in vector}
        if ranking.rescore_depth:
            rescored = {
                p: found.cosine[p]
                for p, _ in text[: ranking.rescore_depth]
                if p not in listed and p in found.cosine
            }
        if vector and ranking.text_coverage and ranking.fusion == "weighted":
            counted = text[: ranking.text_depth] if ranking.text_depth else text
            covered = {p: found.coverage.get(p, 0.0) for p, _ in counted}
    fused = fuse(text, vector, ranking, rescored, covered)
    now = time.time()
    best: dict[str, tuple[float, int]] = {}
    for pid, score in fused.items():
        label, at, asks = replay.passages[pid]
        weighed = weigh(
            score,
            ranking,
            kind="message",
            status=None,
            confidence=None,
            at_epoch=at,
            now=now,
            asks=ranking.question_weight != 1.0 and asks,
        )
        if label not in best or weighed > best[label][0]:
            best[label] = (weighed, pid)
    order = sorted(best.items(), key=lambda item: (-item[1][0], item[1][1]))
    return [label for label, _ in order[:k]]


def figures(replay: Replay, mode: str, ranking: Any) -> dict[str, bench.Scores]:
    out: dict[str, bench.Scores] = {}
    for scope in SCOPES:
        scores = bench.Scores()
        for q in replay.questions:
            scores.add(q, ranked(replay, (q.id, scope), mode, ranking, bench.K))
        out[scope] = scores
    return out


def _metrics(scores: bench.Scores) -> tuple[float, ...]:
    return (scores.recall(1), scores.recall(5), scores.recall(10), scores.mrr)


def main(argv: Sequence[str] | None = None) -> int:
    from memvault.recall.ranking import Ranking

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("vault", type=Path, help="a vault `benchmarks/recall.py --keep` left")
    parser.add_argument(
        "--ranking",
        action="append",
        default=None,
        help="a JSON object of Ranking fields (repeatable; default: the defaults)",
    )
    args = parser.parse_args(argv)
    try:
        rankings = [Ranking.from_json(json.loads(r)) for r in (args.ranking or ["{}"])]
    except (ValueError, TypeError) as exc:
        parser.error(f"--ranking: {exc}")
    replay = read(args.vault, rankings)
    n = len(replay.questions)
    print(f"dev split: {n} questions, both scopes; R@1 / R@5 / R@10 / MRR")
    for ranking, given in zip(rankings, args.ranking or ["{}"], strict=True):
        peers = [figures(replay, mode, ranking) for mode in ("fts", "vector")]
        fused = figures(replay, "hybrid", ranking)
        lead = min(
            round((a - b) * n)
            for scope in SCOPES
            for peer in peers
            for a, b in zip(_metrics(fused[scope]), _metrics(peer[scope]), strict=True)
        )
        print(f"\n{given}  (smallest lead of fused over both: {lead:+d} questions)")
        for scope in SCOPES:
            cells = "  ".join(
                f"{name} " + " / ".join(f"{x:.3f}" for x in _metrics(table[scope]))
                for name, table in (("fts", peers[0]), ("vector", peers[1]), ("fused", fused))
            )
            print(f"  {scope:<12} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
