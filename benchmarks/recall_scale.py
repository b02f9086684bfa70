"""The scale run of benchmarks/recall.py: a vault of 100,000 memories and 500,000 messages,
built through the bulk library paths, and `Vault.recall` timed on it.

- memories: storegen's realistic PAM memories (cached in benchmarks/data/), written with
  `Vault.add_memories` in batches, one transaction each (the recall index grows in the same
  transactions);
- messages: synthetic conversations of English and Portuguese text — words drawn with a
  Zipf law from the labeled set's own vocabulary plus made-up rare words, so term
  frequencies look like text and not like a shuffled word list — written with
  `Vault.put_conversations` in batches;
- vectors: synthetic unit vectors for every passage, written under the vault's embedder
  (its model and dimension) through the library's embedding path; a query is embedded by
  that embedder, so fused latency includes embedding the question.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any

import orjson

DATA = Path(__file__).resolve().parent / "data"
PASSPHRASE = "benchmark passphrase"
MEMORY_BATCH = 5_000
CONVERSATION_BATCH = 20
#: Made-up rare words added to the vocabulary (names, codes, typos: the long tail).
RARE_WORDS = 40_000


@dataclass
class Built:
    home: Path
    memories: int
    messages: int
    conversations: int
    seconds: dict[str, float] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    conversation_ids: list[str] = field(default_factory=list)
    passages: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "memories": self.memories,
            "messages": self.messages,
            "conversations": self.conversations,
            "passages": self.passages,
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
            "bytes": self.sizes,
        }


# -- text --------------------------------------------------------------------------------------


class TextMaker:
    """Sentences of one language whose words follow a Zipf law over a vocabulary: the
    language's words from the labeled set, most frequent first, then rare made-up words."""

    def __init__(self, texts: Sequence[str], rng: random.Random) -> None:
        counts = Counter(w for t in texts for w in t.split())
        words = [w for w, _ in counts.most_common()]
        letters = "abcdefghijklmnopqrstuvwxyzáéíóúãõç"
        words += [
            "".join(rng.choice(letters) for _ in range(rng.randint(5, 11)))
            for _ in range(RARE_WORDS)
        ]
        self.words = words
        self.weights = list(accumulate(1.0 / (rank + 2.7) ** 1.07 for rank in range(len(words))))
        self.rng = rng

    def sentence(self, low: int, high: int) -> str:
        n = self.rng.randint(low, high)
        text = " ".join(self.rng.choices(self.words, cum_weights=self.weights, k=n))
        return text[:1].upper() + text[1:] + "."

    def message(self) -> str:
        roll = self.rng.random()
        if roll < 0.03:  # a long answer: several passages
            return "\n\n".join(self.sentence(40, 90) for _ in range(self.rng.randint(4, 7)))
        if roll < 0.35:
            return " ".join(self.sentence(6, 20) for _ in range(self.rng.randint(2, 5)))
        return self.sentence(4, 24)


def conversation_documents(
    count: int, per_conversation: int, makers: dict[str, TextMaker], seed: int
) -> Iterator[dict[str, Any]]:
    """`count` PAM conversations (§25) of `per_conversation` messages, alternating user and
    assistant, over a few sessions, half English and half Portuguese."""
    rng = random.Random(seed)
    start = datetime(2023, 1, 1, tzinfo=UTC)
    for number in range(count):
        lang = "en" if number % 2 == 0 else "pt"
        maker = makers[lang]
        cid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        moment = start + timedelta(days=rng.randint(0, 700), hours=rng.randint(0, 23))
        messages = []
        for index in range(per_conversation):
            if index and index % 60 == 0:
                moment += timedelta(days=rng.randint(1, 20))  # a new session
            moment += timedelta(seconds=rng.randint(10, 300))
            messages.append(
                {
                    "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                    "role": "user" if index % 2 == 0 else "assistant",
                    "content": {"type": "text", "text": maker.message()},
                    "created_at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                }
            )
        yield {
            "schema": "portable-ai-memory-conversation",
            "schema_version": "1.0",
            "id": cid,
            "provider": {"name": "chatgpt", "conversation_id": f"scale-{number}"},
            "title": maker.sentence(2, 5).rstrip("."),
            "temporal": {
                "created_at": messages[0]["created_at"],
                "updated_at": messages[-1]["created_at"],
            },
            "participants": [
                {"role": "user", "name": f"Person {number}"},
                {"role": "assistant"},
            ],
            "messages": messages,
        }


# -- the vault ---------------------------------------------------------------------------------


def _memory_documents(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """storegen's memories, cached as compact JSON in benchmarks/data/ (as vault.py does)."""
    from storegen import build_memories

    path = DATA / f"memories-{n}-seed{seed}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(orjson.dumps(build_memories(n, seed)))
    documents: list[dict[str, Any]] = orjson.loads(path.read_bytes())
    return documents


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build_scale_vault(
    home: Path,
    memories: int,
    messages: int,
    per_conversation: int,
    set_texts: dict[str, list[str]],
    say: Callable[[str], None] = print,
) -> Built:
    from memvault.conversation_merge import conversation_row
    from memvault.store.codec import memory_from_json
    from memvault.vault import Vault

    rng = random.Random(5)
    makers = {lang: TextMaker(texts, rng) for lang, texts in set_texts.items()}
    conversations = max(1, messages // per_conversation)
    built = Built(home, memories, conversations * per_conversation, conversations)
    home.parent.mkdir(parents=True, exist_ok=True)
    vault = Vault.init(home, PASSPHRASE)
    importer = vault.background("import")  # the session an import writes in
    try:
        started = time.perf_counter()
        documents = _memory_documents(memories)
        loaded = [memory_from_json(d) for d in documents]
        del documents
        built.seconds["generate memories"] = time.perf_counter() - started
        started = time.perf_counter()
        for at in range(0, len(loaded), MEMORY_BATCH):
            importer.add_memories(loaded[at : at + MEMORY_BATCH])
        built.seconds["add_memories"] = time.perf_counter() - started
        say(
            f"scale: {memories:,} memories added in {built.seconds['add_memories']:.1f} s "
            f"({memories / built.seconds['add_memories']:,.0f}/s)"
        )
        del loaded
        gc.collect()
        generate = put = 0.0
        batch: list[Any] = []
        done = 0
        produced = conversation_documents(conversations, per_conversation, makers, seed=9)
        while True:
            started = time.perf_counter()
            batch = []
            for document in produced:
                built.conversation_ids.append(document["id"])
                batch.append(conversation_row(document))
                if len(batch) == CONVERSATION_BATCH:
                    break
            generate += time.perf_counter() - started
            if not batch:
                break
            started = time.perf_counter()
            importer.put_conversations(batch)
            put += time.perf_counter() - started
            done += len(batch)
            if done % 200 == 0:
                say(f"scale: {done * per_conversation:,} messages stored ({put:.0f} s)")
        built.seconds["generate messages"] = generate
        built.seconds["put_conversations"] = put
        say(
            f"scale: {built.messages:,} messages in {conversations:,} conversations stored in "
            f"{put:.1f} s ({built.messages / put:,.0f} messages/s)"
        )
    finally:
        vault.close()
    built.sizes["vault before vectors"] = dir_size(home)
    return built


def reopen(home: Path, say: Callable[[str], None] = print) -> Built:
    """A scale vault built by an earlier run (`--keep`), described again."""
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as vault:
        ids = [c.id for c in vault.conversations()]
        memories = int(vault.stats()["memories"])
        raw = vault.store.execute_raw
        passages = int(raw("SELECT count(*) FROM recall_passages")[0][0])
        messages = int(
            raw("SELECT count(DISTINCT message_id) FROM recall_passages WHERE kind = 'message'")[0][
                0
            ]
        )
    built = Built(home, memories, messages, len(ids), conversation_ids=ids, passages=passages)
    built.sizes["vault with vectors"] = dir_size(home)
    say(f"scale: reusing {home} ({len(ids):,} conversations, {passages:,} passages)")
    return built


# -- vectors -----------------------------------------------------------------------------------


class SyntheticEmbedder:
    """Unit vectors drawn at random (seeded): the vault stores and searches them as it would
    a model's, at no model's cost. Named after the model whose place it takes."""

    def __init__(self, model: str, dimension: int, seed: int = 3) -> None:
        import numpy

        self.model = model
        self.dimension = dimension
        self._rng = numpy.random.default_rng(seed)

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        import numpy

        block = self._rng.standard_normal((len(texts), self.dimension), dtype=numpy.float32)
        block /= numpy.linalg.norm(block, axis=1, keepdims=True)
        rows: list[list[float]] = block.tolist()
        return rows


def add_vectors(built: Built, model: str, dimension: int, say: Callable[[str], None]) -> None:
    """Synthetic vectors for every passage, through `Vault.embed` (the library's path)."""
    from memvault.vault import Vault

    started = time.perf_counter()
    with Vault.open(built.home, PASSPHRASE) as vault:
        embedded, _, passages = vault.embed(embedder=SyntheticEmbedder(model, dimension))
    built.seconds["embed (synthetic vectors)"] = time.perf_counter() - started
    built.passages = passages
    built.sizes["vault with vectors"] = dir_size(built.home)
    say(
        f"scale: {embedded:,} synthetic {dimension}-dimensional vectors stored in "
        f"{built.seconds['embed (synthetic vectors)']:.1f} s ({passages:,} passages)"
    )


#: What the recall index's tables hold, by the bytes of their rows (SQLCipher here has no
#: dbstat to give pages per table): (label, SQL summing the bytes).
_PAYLOADS: tuple[tuple[str, str], ...] = (
    (
        "recall passages (text, ids, filters)",
        "SELECT sum(length(text) + coalesce(length(conversation_id), 0) "
        "+ coalesce(length(message_id), 0) + coalesce(length(participant), 0) + 40) "
        "FROM recall_passages",
    ),
    (
        "recall full-text index (FTS5 blocks and doc sizes)",
        "SELECT (SELECT sum(length(block)) FROM recall_fts_data) "
        "+ (SELECT coalesce(sum(length(sz)), 0) FROM recall_fts_docsize)",
    ),
    ("recall vectors, float32", "SELECT sum(length(vector) + 16) FROM recall_vectors"),
)


def index_payload(home: Path) -> dict[str, int]:
    """Bytes of the recall index's rows by what they hold (read through the store's raw-SQL
    door for tools; nothing is written), with the bit index of each model's vec0 table."""
    from memvault.vault import Vault

    out: dict[str, int] = {}
    with Vault.open(home, PASSPHRASE) as vault:
        raw = getattr(vault.store, "execute_raw", None)
        if raw is None:
            return out
        for label, sql in _PAYLOADS:
            out[label] = int(raw(sql)[0][0] or 0)
        chunks = [
            str(r[0])
            for r in raw(
                "SELECT name FROM sqlite_master WHERE name LIKE 'recall_vec_%_vector_chunks%'"
            )
        ]
        out["recall vectors, bit index (vec0)"] = sum(
            int(raw(f'SELECT coalesce(sum(length(vectors)), 0) FROM "{name}"')[0][0])
            for name in chunks
        )
    return out


# -- latency -----------------------------------------------------------------------------------


def percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def recall_latency(
    built: Built,
    questions: Sequence[str],
    count: int,
    query_embedder: Any,
    say: Callable[[str], None] = print,
    ranking: Any = None,
) -> dict[str, Any]:
    """`Vault.recall` p50/p95 (ms) of `count` questions, full-text and fused, without and
    with the conversation filter, k=10, ranked by `ranking` (a `Ranking`; None: the
    defaults)."""
    from memvault.vault import Vault

    rng = random.Random(11)
    asked = [questions[i % len(questions)] for i in range(count)]
    scoped = [rng.choice(built.conversation_ids) for _ in range(count)]
    out: dict[str, Any] = {}
    with Vault.open(built.home, PASSPHRASE) as vault:
        for mode in ("fts", "hybrid"):
            for scope in ("vault", "conversation"):
                samples: list[float] = []
                cpu: list[float] = []
                for index, text in enumerate(asked[:5] + asked):
                    filters: dict[str, Any] = {}
                    if scope == "conversation":
                        filters["conversation"] = scoped[index % count]
                    started, started_cpu = time.perf_counter(), time.process_time()
                    vault.recall(
                        text, k=10, mode=mode, embedder=query_embedder, ranking=ranking, **filters
                    )
                    if index >= 5:  # the first five warm the caches
                        samples.append((time.perf_counter() - started) * 1000)
                        cpu.append((time.process_time() - started_cpu) * 1000)
                p50, p95 = statistics.median(samples), percentile(samples, 0.95)
                cpu50, cpu95 = statistics.median(cpu), percentile(cpu, 0.95)
                target = 50 if mode == "fts" else 150
                say(
                    f"Vault.recall {mode:<6} {scope:<12} wall p50 {p50:7.1f} ms  p95 "
                    f"{p95:7.1f} ms (target p95 ≤ {target} ms: "
                    f"{'met' if p95 <= target else 'MISSED'});  CPU p50 {cpu50:7.1f} ms  "
                    f"p95 {cpu95:7.1f} ms;  load average {os.getloadavg()[0]:.1f}"
                )
                out[f"{mode} {scope}"] = {
                    "p50_ms": round(p50, 2),
                    "p95_ms": round(p95, 2),
                    "cpu_p50_ms": round(cpu50, 2),
                    "cpu_p95_ms": round(cpu95, 2),
                    "load_average": round(os.getloadavg()[0], 2),
                }
    return out
