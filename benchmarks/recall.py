"""Recall quality on the labeled set (benchmarks/recall_set/) and recall at scale.

```sh
.venv/bin/python benchmarks/recall.py                      # every system, both scopes
.venv/bin/python benchmarks/recall.py --systems bm25,fts   # no embedding model needed
.venv/bin/python benchmarks/recall.py --model M --endpoint http://localhost:11434/v1
.venv/bin/python benchmarks/recall.py --scale              # 100,000 memories + 500,000 messages
```

Vectors come from the local model (`memvault[embeddings]`, its default model) unless
`--model`/`--endpoint` name another; `--ngram-server` uses the test suite's n-gram server
instead (it checks the machinery, its figures say nothing about a model). `--conversations N
--questions Q` runs a slice (the test suite runs one).

**Quality.** The set's export (`--format claude`, the default, gives each conversation's person
a name; `chatgpt` gives none) is imported into a fresh encrypted vault with the console
script (`memvault init`, `memvault import`, then `memvault embed` when a vector system is
asked for), exactly as a person would; then every question is asked through
`Vault.recall(question, k=10, kind="messages", mode=...)`. Systems:

- `bm25`: the peer, measured in the same run — plain BM25 (`rank_bm25.BM25Okapi`, k1 1.5,
  b 0.75) over the raw message texts, lower-cased word tokens, no stemming, no stop words;
- `fts`, `vector`, `hybrid`: memvault's full-text only, vector only, and fused recall.

Scopes: `conversation` ranks within the question's conversation (`conversation=` filter; for
the peer, an index per conversation), `vault` over every message of the vault (no filter).
A question is answered at k when one of its answering messages is among the first k
distinct messages (a hit's `message_ids`); MRR uses the first answering message's rank (0
beyond 10). Two-turn questions also get `all@10`: both messages in the top 10. Figures are
printed per split (dev, held-out), per language and per question kind.

**Scale** (`--scale`): a vault of 100,000 memories (benchmarks/storegen.py) and 500,000
messages (synthetic English and Portuguese text, 1,000 conversations) built through the bulk
library paths (`Vault.add_memories`, `Vault.put_conversations`), synthetic unit vectors for
every passage, then `Vault.recall` latency p50/p95 for full-text and fused recall, with and
without the conversation filter, the index's size on disk, and the chosen local model's
embedding throughput on the set's messages.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SET = Path(__file__).resolve().parent / "recall_set"
PASSPHRASE = "benchmark passphrase"
SYSTEMS = ("bm25", "fts", "vector", "hybrid")
VECTORS = ("vector", "hybrid")
SCOPES = ("conversation", "vault")
#: Splits printed: tuning looks at "dev" alone (`--splits dev`), the held-out one only reports.
SPLITS = ("dev", "heldout", "all")
KINDS = ("fact", "paraphrase", "when", "two_turn")
CUTS = (1, 5, 10)
K = 10


# -- the set -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetMessage:
    id: str
    conversation: str
    role: str
    name: str | None
    text: str


@dataclass(frozen=True)
class SetQuestion:
    id: str
    lang: str
    split: str
    kind: str
    conversation: str
    question: str
    answers: tuple[str, ...]


@dataclass
class RecallSet:
    """The labeled set, or a part of it (`subset`)."""

    root: Path
    conversations: list[dict[str, Any]]
    messages: list[SetMessage]
    questions: list[SetQuestion]

    def conversation_ids(self) -> set[str]:
        return {c["id"] for c in self.conversations}


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def load_set(root: Path = SET) -> RecallSet:
    return RecallSet(
        root=root,
        conversations=list(_jsonl(root / "conversations.jsonl")),
        messages=[
            SetMessage(m["id"], m["conversation"], m["role"], m["name"], m["text"])
            for m in _jsonl(root / "messages.jsonl")
        ],
        questions=[
            SetQuestion(
                q["id"],
                q["lang"],
                q["split"],
                q["kind"],
                q["conversation"],
                q["question"],
                tuple(q["answers"]),
            )
            for q in _jsonl(root / "questions.jsonl")
        ],
    )


def subset(data: RecallSet, per_group: int, questions: int | None = None) -> RecallSet:
    """The first `per_group` conversations of each language and split (and at most
    `questions` questions of each conversation): a small slice with every group in it."""
    kept: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], int] = defaultdict(int)
    for conv in data.conversations:
        group = (conv["lang"], conv["split"])
        if seen[group] < per_group:
            seen[group] += 1
            kept.append(conv)
    ids = {c["id"] for c in kept}
    asked: dict[str, int] = defaultdict(int)
    chosen = []
    for q in data.questions:
        if q.conversation in ids and (questions is None or asked[q.conversation] < questions):
            asked[q.conversation] += 1
            chosen.append(q)
    return RecallSet(data.root, kept, [m for m in data.messages if m.conversation in ids], chosen)


def write_export(data: RecallSet, form: str, target: Path) -> Path:
    """The set's export in `form` ("claude" or "chatgpt"), restricted to `data`'s
    conversations, written under `target`; returns the folder to import."""
    ids = data.conversation_ids()
    out = target / form
    out.mkdir(parents=True, exist_ok=True)
    source = data.root / form
    convs = json.loads((source / "conversations.json").read_text(encoding="utf-8"))
    key = "uuid" if form == "claude" else "id"
    kept = [c for c in convs if c[key] in ids]
    (out / "conversations.json").write_text(json.dumps(kept, ensure_ascii=False), "utf-8")
    if form == "claude":
        accounts = {c["account"]["uuid"] for c in kept}
        users = json.loads((source / "users.json").read_text(encoding="utf-8"))
        chosen = [u for u in users if u["uuid"] in accounts]
        (out / "users.json").write_text(json.dumps(chosen, ensure_ascii=False), "utf-8")
    return out


# -- scoring -----------------------------------------------------------------------------------

#: question id -> the message ids it ranked first, best first (at most K, distinct)
Rankings = dict[str, list[str]]


@dataclass
class Scores:
    n: int = 0
    hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(CUTS, 0))
    reciprocal: float = 0.0
    #: two-turn questions: every answering message in the top K
    complete: int = 0
    multi: int = 0

    def add(self, question: SetQuestion, ranked: Sequence[str]) -> None:
        self.n += 1
        answers = set(question.answers)
        first = next((i for i, m in enumerate(ranked[:K], 1) if m in answers), None)
        if first is not None:
            self.reciprocal += 1.0 / first
            for cut in CUTS:
                if first <= cut:
                    self.hits[cut] += 1
        if len(answers) > 1:
            self.multi += 1
            if answers <= set(ranked[:K]):
                self.complete += 1

    def recall(self, cut: int) -> float:
        return self.hits[cut] / self.n if self.n else math.nan

    @property
    def mrr(self) -> float:
        return self.reciprocal / self.n if self.n else math.nan

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n, "mrr": round(self.mrr, 4)}
        out.update({f"r@{c}": round(self.recall(c), 4) for c in CUTS})
        if self.multi:
            out["all@10"] = round(self.complete / self.multi, 4)
        return out


GROUPS: tuple[tuple[str, Callable[[SetQuestion], bool]], ...] = (
    ("all", lambda q: True),
    ("en", lambda q: q.lang == "en"),
    ("pt", lambda q: q.lang == "pt"),
    *((kind, (lambda k: lambda q: q.kind == k)(kind)) for kind in KINDS),
)


def score(questions: Sequence[SetQuestion], rankings: Rankings) -> dict[str, dict[str, Scores]]:
    """split ("dev", "heldout", "all") -> group -> Scores."""
    table: dict[str, dict[str, Scores]] = defaultdict(lambda: defaultdict(Scores))
    for q in questions:
        ranked = rankings.get(q.id, [])
        for split in (q.split, "all"):
            for group, member in GROUPS:
                if member(q):
                    table[split][group].add(q, ranked)
    return table


# -- the peer: plain BM25 over raw messages ------------------------------------------------------

_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def bm25_rankings(data: RecallSet, scope: str) -> tuple[Rankings, float]:
    """Plain BM25 (`rank_bm25`) over the raw messages; (rankings, seconds per query)."""
    from rank_bm25 import BM25Okapi

    groups: dict[str, list[SetMessage]] = defaultdict(list)
    for m in data.messages:
        groups[m.conversation if scope == "conversation" else ""].append(m)
    indexes = {
        key: (BM25Okapi([_words(m.text) for m in msgs]), [m.id for m in msgs])
        for key, msgs in groups.items()
    }
    rankings: Rankings = {}
    started = time.perf_counter()
    for q in data.questions:
        bm25, ids = indexes[q.conversation if scope == "conversation" else ""]
        scores = bm25.get_scores(_words(q.question))
        order = sorted(range(len(ids)), key=lambda i: -scores[i])[:K]
        rankings[q.id] = [ids[i] for i in order]
    return rankings, (time.perf_counter() - started) / max(1, len(data.questions))


# -- memvault ------------------------------------------------------------------------------------


def memvault_command() -> str:
    """The console script next to this interpreter (the venv's)."""
    script = Path(sys.executable).with_name("memvault")
    return str(script) if script.exists() else "memvault"


def run_cli(home: Path, *args: str) -> str:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": PASSPHRASE}
    done = subprocess.run(
        [memvault_command(), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(
            f"memvault {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return done.stdout


@dataclass
class Imported:
    home: Path
    import_seconds: float
    embed_seconds: float | None
    #: vault message id -> the export's message id (the label's id)
    message_ids: dict[str, str]
    #: the export's conversation id -> vault conversation id
    conversation_ids: dict[str, str]
    #: the questions' vectors, once a vector system has embedded them
    queries: QueryCache | None = None


def import_set(
    data: RecallSet, form: str, home: Path, embed_args: Sequence[str] | None
) -> Imported:
    """A fresh vault at `home` holding the set, through the console script; with
    `embed_args`, `memvault embed` runs too (its options as given)."""
    export = write_export(data, form, home.parent / f"{home.name}-export")
    run_cli(home, "init")
    started = time.perf_counter()
    run_cli(home, "import", str(export))
    import_seconds = time.perf_counter() - started
    embed_seconds = None
    if embed_args is not None:
        started = time.perf_counter()
        run_cli(home, "embed", *embed_args)
        embed_seconds = time.perf_counter() - started
    from memvault.vault import Vault

    message_ids: dict[str, str] = {}
    conversation_ids: dict[str, str] = {}
    with Vault.open(home, PASSPHRASE) as vault:
        for conv in vault.conversations():
            document = conv.document
            provider = document.get("provider") or {}
            conversation_ids[str(provider.get("conversation_id"))] = conv.id
            for message in document.get("messages") or []:
                label = message.get("provider_message_id")
                if isinstance(label, str):
                    message_ids[message["id"]] = label
    return Imported(home, import_seconds, embed_seconds, message_ids, conversation_ids)


class QueryCache:
    """The vault's embedder, remembering each question's vector: the systems and scopes ask
    the same questions, and embedding them once is enough (the scale run times embedding)."""

    def __init__(self, embedder: Any) -> None:
        self.inner = embedder
        self.model: str = embedder.model
        self.dimension: int = embedder.dimension
        self.vectors: dict[str, list[float]] = {}
        self.seconds = 0.0

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            started = time.perf_counter()
            for text, vector in zip(missing, self.inner.embed(missing, query=query), strict=True):
                self.vectors[text] = vector
            self.seconds += time.perf_counter() - started
        return [self.vectors[t] for t in texts]


def vault_rankings(
    data: RecallSet, imported: Imported, mode: str, scope: str
) -> tuple[Rankings, float]:
    """`Vault.recall` for every question; (rankings, seconds per query, without embedding
    the question)."""
    from memvault.recall.embedders import load_embedder
    from memvault.vault import Vault

    rankings: Rankings = {}
    with Vault.open(imported.home, PASSPHRASE) as vault:
        if mode != "fts" and imported.queries is None:
            spec = vault.embedder_spec()
            if spec is not None:
                imported.queries = QueryCache(load_embedder(spec))
        cache = imported.queries if mode != "fts" else None
        before = cache.seconds if cache is not None else 0.0
        started = time.perf_counter()
        for q in data.questions:
            filters: dict[str, Any] = {"kind": "messages", "mode": mode}
            if scope == "conversation":
                filters["conversation"] = imported.conversation_ids[q.conversation]
            if cache is not None:
                filters["embedder"] = cache
            result = vault.recall(q.question, k=K, **filters)
            rankings[q.id] = _distinct(
                imported.message_ids.get(m, m) for hit in result.hits for m in hit.message_ids
            )
        seconds = time.perf_counter() - started
        if cache is not None:
            seconds -= cache.seconds - before
    return rankings, seconds / max(1, len(data.questions))


def _distinct(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))[:K]


# -- the quality run -----------------------------------------------------------------------------


@dataclass
class Result:
    system: str
    scope: str
    per_query: float
    table: dict[str, dict[str, Scores]]


def quality(
    data: RecallSet,
    systems: Sequence[str],
    scopes: Sequence[str],
    form: str,
    embed_args: Sequence[str] | None,
    workdir: Path,
    say: Callable[[str], None] = print,
) -> list[Result]:
    results: list[Result] = []
    for scope in scopes:
        if "bm25" in systems:
            rankings, per_query = bm25_rankings(data, scope)
            results.append(Result("bm25", scope, per_query, score(data.questions, rankings)))
    modes = [s for s in systems if s != "bm25"]
    if modes:
        vectors = any(m in ("vector", "hybrid") for m in modes)
        imported = import_set(data, form, workdir / "vault", embed_args if vectors else None)
        say(
            f"imported {len(data.conversations)} conversations, {len(imported.message_ids)} "
            f"messages ({form} export) in {imported.import_seconds:.2f} s"
            + (
                f"; memvault embed {imported.embed_seconds:.1f} s"
                if imported.embed_seconds is not None
                else ""
            )
        )
        for scope in scopes:
            for mode in modes:
                rankings, per_query = vault_rankings(data, imported, mode, scope)
                results.append(Result(mode, scope, per_query, score(data.questions, rankings)))
    return results


def _group_label(group: str) -> str:
    return {"two_turn": "two-turn"}.get(group, group)


def report(
    results: Sequence[Result],
    data: RecallSet,
    say: Callable[[str], None] = print,
    splits: Sequence[str] = SPLITS,
) -> None:
    systems = list(dict.fromkeys(r.system for r in results))
    scopes = list(dict.fromkeys(r.scope for r in results))
    by = {(r.system, r.scope): r for r in results}
    for scope in scopes:
        title = (
            "within the question's conversation (conversation filter)"
            if scope == "conversation"
            else "over the whole vault (no conversation filter)"
        )
        for split in splits:
            say(f"\n== {title} — split {split} ==")
            head = f"{'group':<12}{'n':>5}  " + "  ".join(
                f"{s:>7} R@1  R@5 R@10  MRR" for s in systems
            )
            say(head)
            for group, _ in GROUPS:
                cells = []
                n = 0
                for system in systems:
                    scores = by[(system, scope)].table.get(split, {}).get(group)
                    if scores is None or not scores.n:
                        cells.append(" " * 27)
                        continue
                    n = scores.n
                    cells.append(
                        f"{'':>7} {scores.recall(1):4.2f} {scores.recall(5):4.2f} "
                        f"{scores.recall(10):4.2f} {scores.mrr:4.2f}"
                    )
                if n:
                    say(f"{_group_label(group):<12}{n:>5}  " + "  ".join(cells))
            multi = [(s, by[(s, scope)].table.get(split, {}).get("two_turn")) for s in systems]
            if any(m and m.multi for _, m in multi):
                say(
                    f"{'  all@10':<12}{'':>5}  "
                    + "  ".join(
                        f"{'':>7} {'':>4} {'':>4} {m.complete / m.multi:4.2f} {'':>4}"
                        if m and m.multi
                        else " " * 27
                        for _, m in multi
                    )
                )
        if "bm25" in systems and list(splits) == list(SPLITS):
            peer = by[("bm25", scope)].table["all"]["all"]
            for system in systems:
                if system == "bm25":
                    continue
                mine = by[(system, scope)].table["all"]["all"]
                say(
                    f"{system} / bm25 ({scope}, all questions): R@10 "
                    f"{_ratio(mine.recall(10), peer.recall(10))}, MRR "
                    f"{_ratio(mine.mrr, peer.mrr)}"
                )
    say("")
    for r in results:
        say(
            f"{r.system:>7} {r.scope:<12} {r.per_query * 1000:8.2f} ms a query"
            + (" (question's vector embedded once, not counted)" if r.system in VECTORS else "")
        )


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×" if b else "n/a"


def results_json(results: Sequence[Result]) -> list[dict[str, Any]]:
    return [
        {
            "system": r.system,
            "scope": r.scope,
            "ms_per_query": round(r.per_query * 1000, 3),
            "splits": {
                split: {group: s.as_json() for group, s in groups.items()}
                for split, groups in r.table.items()
            },
        }
        for r in results
    ]


# -- the scale run -------------------------------------------------------------------------------


def scale(
    memories: int,
    messages: int,
    per_conversation: int,
    queries: int,
    dimension: int,
    workdir: Path,
    embedder_spec: str | None,
    data: RecallSet,
    reuse: bool = False,
    say: Callable[[str], None] = print,
    ranking: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The scale run (module docstring); returns its figures. With `reuse`, a scale vault
    that `--keep` left in `workdir` is timed again instead of built. `ranking`: `Ranking`
    fields recall is timed with (None: the defaults)."""
    import recall_scale
    from memvault.recall.ranking import Ranking

    ranked = Ranking.from_json(ranking or {})

    languages = {c["id"]: c["lang"] for c in data.conversations}
    texts: dict[str, list[str]] = {"en": [], "pt": []}
    for m in data.messages:
        texts[languages[m.conversation]].append(m.text)
    out: dict[str, Any] = {}
    query_embedder: Any = None
    if embedder_spec:
        out["embedding"] = embedding_throughput(embedder_spec, data, say=say)
        query_embedder = load_spec(embedder_spec)
        model, dimension = query_embedder.model, query_embedder.dimension
    else:
        model = f"synthetic-{dimension}"
        query_embedder = recall_scale.SyntheticEmbedder(model, dimension, seed=4)
        say(
            "no --embedder: queries get synthetic vectors too, so fused latency leaves out "
            "embedding the question"
        )
    home = workdir / "scale"
    if reuse and home.exists():
        built = recall_scale.reopen(home, say=say)
    else:
        built = recall_scale.build_scale_vault(
            home, memories, messages, per_conversation, texts, say=say
        )
        recall_scale.add_vectors(built, model, dimension, say)
    for label, size in built.sizes.items():
        say(f"size on disk, {label}: {size / 1e6:,.0f} MB")
    payload = recall_scale.index_payload(built.home)
    for label, size in payload.items():
        say(f"bytes of rows, {label}: {size / 1e6:,.0f} MB")
    out["index_bytes"] = payload
    out["build"] = built.as_json()
    say(f"ranking: vector_depth {ranked.vector_depth}, {dict(ranking or {}) or 'the defaults'}")
    out["ranking"] = dict(ranking or {})
    out["latency"] = recall_scale.recall_latency(
        built,
        [q.question for q in data.questions],
        queries,
        query_embedder,
        say=say,
        ranking=ranked,
    )
    return out


def load_spec(spec_text: str) -> Any:
    from memvault.recall.embedders import EmbedderSpec, load_embedder

    return load_embedder(EmbedderSpec(**parse_spec(spec_text)))


def embedding_throughput(
    spec_text: str, data: RecallSet, say: Callable[[str], None] = print
) -> dict[str, Any]:
    """Passages a second (batches of 32) and queries a second (one at a time) of the model,
    by the wall clock and by the process's CPU time (steadier on a shared machine)."""
    embedder = load_spec(spec_text)
    texts = [m.text for m in data.messages[:512]]
    embedder.embed(texts[:8])  # load the weights before timing
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), 32):
        embedder.embed(texts[start : start + 32])
    passages = len(texts) / (time.perf_counter() - started)
    passages_cpu = len(texts) / (time.process_time() - cpu)
    asked = [q.question for q in data.questions[:100]]
    started, cpu = time.perf_counter(), time.process_time()
    for text in asked:
        embedder.embed([text], query=True)
    per_query = len(asked) / (time.perf_counter() - started)
    per_query_cpu = len(asked) / (time.process_time() - cpu)
    say(
        f"embedding throughput of {embedder.model} ({embedder.dimension} dimensions): "
        f"{passages:.0f} passages/s in batches of 32 ({passages_cpu:.0f} per CPU second), "
        f"{per_query:.0f} queries/s one at a time ({per_query_cpu:.0f} per CPU second); load "
        f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    return {
        "model": embedder.model,
        "dimension": embedder.dimension,
        "passages_per_s": round(passages, 1),
        "passages_per_cpu_s": round(passages_cpu, 1),
        "queries_per_s": round(per_query, 1),
        "queries_per_cpu_s": round(per_query_cpu, 1),
    }


def parse_spec(text: str) -> dict[str, Any]:
    """`local:MODEL`, `local` or `openai:URL@MODEL` → EmbedderSpec fields."""
    kind, _, rest = text.partition(":")
    if kind == "openai":
        url, _, model = rest.rpartition("@")
        return {"kind": "openai", "model": model, "url": url}
    return {"kind": kind, "model": rest or default_local_model()}


# -- main ----------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", type=Path, default=SET, help="the labeled set's folder")
    parser.add_argument("--format", choices=("claude", "chatgpt"), default="claude")
    parser.add_argument(
        "--systems", default=",".join(SYSTEMS), help=f"comma-separated, of {', '.join(SYSTEMS)}"
    )
    parser.add_argument("--scopes", default=",".join(SCOPES), help="conversation, vault")
    parser.add_argument(
        "--splits",
        default=",".join(SPLITS),
        help="the splits printed, of dev, heldout, all: `--splits dev` while tuning keeps "
        "the held-out figures out of sight (--json still holds every split)",
    )
    parser.add_argument(
        "--conversations",
        type=int,
        default=None,
        help="only the first N conversations of each language and split (a slice)",
    )
    parser.add_argument("--questions", type=int, default=None, help="at most N a conversation")
    parser.add_argument(
        "--model",
        default=None,
        help="the embedding model of the vector systems (`memvault embed --model`); default: "
        "the local model's default",
    )
    parser.add_argument(
        "--endpoint", default=None, help="an OpenAI-compatible API's base URL for --model"
    )
    parser.add_argument(
        "--ngram-server",
        action="store_true",
        help="embed with the test suite's n-gram embeddings server (tests/embedserver.py) on "
        "127.0.0.1: checks the machinery without a model; its figures say nothing of a model",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--keep", type=Path, default=None, help="build in this folder, keep it")
    parser.add_argument("--scale", action="store_true", help="the scale run instead")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="--scale with --keep DIR: time the scale vault DIR already holds, do not build",
    )
    parser.add_argument(
        "--scale-ranking",
        default=None,
        help="--scale: a JSON object of Ranking fields recall is timed with (default: the "
        "defaults), e.g. '{\"vector_depth\": 40}'",
    )
    parser.add_argument("--scale-memories", type=int, default=100_000)
    parser.add_argument("--scale-messages", type=int, default=500_000)
    parser.add_argument("--scale-per-conversation", type=int, default=500)
    parser.add_argument("--scale-queries", type=int, default=200)
    parser.add_argument(
        "--scale-dimension", type=int, default=384, help="with --embedder none: vector size"
    )
    parser.add_argument(
        "--embedder",
        default="local",
        help="--scale: the model that embeds queries and whose throughput is printed: "
        "local[:MODEL] (default: the local model), openai:URL@MODEL, or none (synthetic "
        "query vectors of --scale-dimension)",
    )
    args = parser.parse_args(argv)
    systems = [s for s in args.systems.split(",") if s]
    scopes = [s for s in args.scopes.split(",") if s]
    for name in systems:
        if name not in SYSTEMS:
            parser.error(f"--systems: unknown system {name!r} (known: {', '.join(SYSTEMS)})")
    for name in scopes:
        if name not in SCOPES:
            parser.error(f"--scopes: unknown scope {name!r} (known: {', '.join(SCOPES)})")
    splits = [s for s in args.splits.split(",") if s]
    for name in splits:
        if name not in SPLITS:
            parser.error(f"--splits: unknown split {name!r} (known: {', '.join(SPLITS)})")
    data = load_set(args.set)
    if args.conversations is not None or args.questions is not None:
        data = subset(data, args.conversations or 10**6, args.questions)
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="memvault-recall-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        if args.scale:
            figures: Any = scale(
                args.scale_memories,
                args.scale_messages,
                args.scale_per_conversation,
                args.scale_queries,
                args.scale_dimension,
                workdir,
                None if args.embedder == "none" else args.embedder,
                data,
                reuse=args.reuse,
                ranking=json.loads(args.scale_ranking) if args.scale_ranking else None,
            )
        else:
            print(
                f"recall set: {len(data.conversations)} conversations, {len(data.messages)} "
                f"messages, {len(data.questions)} questions"
            )
            with embedding(args, systems, parser) as embed_args:
                results = quality(data, systems, scopes, args.format, embed_args, workdir)
            report(results, data, splits=splits)
            figures = results_json(results)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


@contextlib.contextmanager
def embedding(
    args: argparse.Namespace, systems: Sequence[str], parser: argparse.ArgumentParser
) -> Iterator[list[str] | None]:
    """The options of `memvault embed` for this run (None when no vector system is asked),
    with the n-gram server running when asked for."""
    if not any(s in ("vector", "hybrid") for s in systems):
        yield None
        return
    if args.ngram_server:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from embedserver import MODEL, serve

        with serve() as server:
            print(f"embedding model: {MODEL} (n-gram test server at {server.url})")
            yield ["--model", MODEL, "--endpoint", server.url]
        return
    if args.endpoint and not args.model:
        parser.error("--endpoint needs --model (the server's model name)")
    model = args.model or default_local_model()
    print(f"embedding model: {model}" + (f" at {args.endpoint}" if args.endpoint else " (local)"))
    yield ["--model", model, *(["--endpoint", args.endpoint] if args.endpoint else [])]


def default_local_model() -> str:
    from memvault.recall.local_model import DEFAULT_MODEL

    return DEFAULT_MODEL


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
