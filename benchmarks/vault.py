"""The vault at 100,000 memories: batch inserts, list/filter and full-text search, against
peers measured in the same run, on the same memories.

    .venv/bin/python benchmarks/vault.py [--memories 100000] [--batch 10000] [--queries 200]
                                         [--repeat 1] [--keep]

The memories come from benchmarks/storegen.py (realistic PAM memories: ten types plus custom,
five statuses, English and Brazilian Portuguese, about 5 % repeated contents). In one run:

1. **Inserts.** `Vault.add_memories` in batches (one transaction each) into a fresh encrypted
   vault, with every rule applied: schema check, content hash, dedup and reinforcement, the
   audit chain, the full-text index. Peers, on the same memories in the same batches:
   - `SQLiteStore.insert_memories` — the same encrypted store, without the vault's rules (no
     checks, no dedup, no audit log);
   - the store's SQL alone — `SQLiteStore.write_memories` of parameters built beforehand,
     and the commit: the database's own share of an insert, a floor no Python work in the
     vault can go below;
   - plain stdlib `sqlite3`, unencrypted, with an equivalent minimal schema (the memories
     table with the same indexes, tags, an FTS5 index with the same tokenizer) and the same
     page size, cache size, WAL and ``synchronous=FULL``.
2. **Queries** on the 100k vault, each kind `--queries` times with varied parameters: list
   (newest active), filter by type, status, tag, platform, date range, deep paging; full-text
   search for common and rare English and Portuguese words (with and without accents),
   two-word queries, and common words within one type. The FTS5 queries also run on the
   plain database (the straightforward bm25 query over every match).
3. **Decay** of the whole vault, with a second connection adding a memory every 20 ms
   meanwhile: the run's time and the longest wait of that writer.

Prints the raw figures, then ratios `peer / memvault` of time (above 1: memvault is faster).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from memvault.model import MEMORY_TYPES, Memory
from memvault.store.base import MemoryQuery, StoredMemory
from memvault.store.codec import memory_from_json
from memvault.store.sqlite import CACHE_KIB, DEFAULT_PAGE_SIZE, SQLiteStore
from memvault.vault import Vault
from peers import fmt_bytes, fmt_ratio
from storegen import PLATFORMS, STATUSES, TAGS, build_memories

DATA = Path(__file__).resolve().parent / "data"
PASSPHRASE = "benchmark passphrase"
#: the span storegen spreads creation times over
SPAN_START = datetime(2023, 1, 2, tzinfo=UTC)
SPAN_DAYS = 1125

PLAIN_SCHEMA = """
CREATE TABLE memories (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    type           TEXT NOT NULL,
    status         TEXT NOT NULL,
    content_hash   TEXT NOT NULL,
    platform       TEXT NOT NULL,
    created_epoch  REAL NOT NULL,
    tags_text      TEXT NOT NULL,
    document       TEXT NOT NULL
);
CREATE INDEX memories_content_hash ON memories (content_hash);
CREATE INDEX memories_status_created ON memories (status, created_epoch);
CREATE INDEX memories_type ON memories (type, status);
CREATE INDEX memories_platform ON memories (platform, status);
CREATE INDEX memories_created ON memories (created_epoch);
CREATE TABLE memory_tags (
    tag TEXT NOT NULL, memory_seq INTEGER NOT NULL, PRIMARY KEY (tag, memory_seq)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, summary, tags, status, tokenize = "unicode61 remove_diacritics 2"
);
"""


# -- inputs ------------------------------------------------------------------------------------


def load_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """storegen's memories, cached as compact JSON in benchmarks/data/."""
    path = DATA / f"memories-{n}-seed{seed}.json"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(orjson.dumps(build_memories(n, seed)))
    documents: list[dict[str, Any]] = orjson.loads(path.read_bytes())
    return documents


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _is_portuguese(document: dict[str, Any]) -> bool:
    metadata = document.get("metadata") or {}
    language = metadata.get("language") if isinstance(metadata, dict) else None
    tags = document.get("tags") or []
    return (isinstance(language, str) and language.startswith("pt")) or "pt-br" in tags


_WORD = re.compile(r"\w+")
_STOP = frozenset(
    (
        *("the", "and", "for", "with", "that", "this", "from", "user", "users", "have", "has"),
        *("are", "was", "were", "uses", "use", "when", "what", "prefers", "prefer", "likes"),
        *("like", "wants", "para", "com", "que", "uma", "por", "como", "mais", "usuario"),
        *("usuário", "usuária", "prefere", "gosta", "quer", "está", "são"),
    )
)


@dataclass(frozen=True)
class SearchTerms:
    en_common: list[str]
    en_rare: list[str]
    pt_common: list[str]
    pt_rare: list[str]
    two_words: list[str]


def pick_terms(documents: Sequence[dict[str, Any]], rng: random.Random) -> SearchTerms:
    """Search words by document frequency over the active memories (accents folded, as the
    index folds them): common ones (in ≥ 1 % of them) and rare ones (the 30 least frequent),
    each kind from the memories of its language; Portuguese ones with accents where there are
    any. (storegen writes from templates: at 100,000 memories the rarest words are in a few
    dozen memories.)"""
    everywhere: Counter[str] = Counter()
    spelled: dict[bool, dict[str, str]] = {False: {}, True: {}}
    pairs: list[str] = []
    active = 0
    for document in documents:
        if document.get("status") != "active":
            continue
        active += 1
        portuguese = _is_portuguese(document)
        words = {
            _fold(w): w
            for w in _WORD.findall(unicodedata.normalize("NFC", document["content"].lower()))
            if len(w) >= 4 and not w.isdigit() and w not in _STOP
        }
        everywhere.update(words.keys())
        for folded, word in words.items():
            # Keep an accented spelling when the language has one.
            known = spelled[portuguese].get(folded)
            if known is None or (known == folded and word != folded):
                spelled[portuguese][folded] = word
        if len(words) >= 2 and rng.random() < 0.01:
            pairs.append(" ".join(rng.sample(sorted(words.values()), 2)))

    def common(portuguese: bool) -> list[str]:
        own = spelled[portuguese]
        found = [own[w] for w, n in everywhere.most_common() if n >= active / 100 and w in own]
        if portuguese:
            accented = [w for w in found if _fold(w) != w]
            found = accented[:15] + [w for w in found if w not in accented]
        return found[:30]

    def rare(portuguese: bool) -> list[str]:
        own = spelled[portuguese]
        found = sorted((n, own[w]) for w, n in everywhere.items() if w in own)
        if portuguese:
            found = [(n, w) for n, w in found if _fold(w) != w] or found
        return [w for _, w in found[:30]]

    return SearchTerms(common(False), rare(False), common(True), rare(True), pairs[:200])


# -- timing helpers ----------------------------------------------------------------------------


def _cpu() -> float:
    return time.process_time()


@dataclass(frozen=True)
class Insert:
    label: str
    memories: int
    seconds: float
    cpu_seconds: float
    longest_batch: float
    size: int

    @property
    def rate(self) -> float:
        return self.memories / self.seconds


@dataclass(frozen=True)
class Latency:
    label: str
    samples: list[float]
    results: int

    @property
    def p50(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        return statistics.quantiles(self.samples, n=100, method="inclusive")[94]


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _timed_batches(label: str, items: Sequence[Any], size: int, write: Callable[..., Any]) -> Any:
    gc.collect()
    longest = 0.0
    start, cpu = time.perf_counter(), _cpu()
    for batch in _batches(items, size):
        t = time.perf_counter()
        write(batch)
        longest = max(longest, time.perf_counter() - t)
    return time.perf_counter() - start, _cpu() - cpu, longest


def _dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.iterdir() if p.is_file())


# -- inserts -----------------------------------------------------------------------------------


def insert_vault(memories: Sequence[Memory], batch: int, home: Path) -> tuple[Insert, Vault]:
    vault = Vault.init(home, PASSPHRASE)
    background = vault.background("import")
    seconds, cpu, longest = _timed_batches(
        "vault",
        memories,
        batch,
        lambda chunk: background.add_memories(chunk),
    )
    result = Insert(
        "memvault Vault.add_memories", len(memories), seconds, cpu, longest, _dir_size(home)
    )
    return result, vault


def insert_store(memories: Sequence[Memory], batch: int, directory: Path) -> Insert:
    directory.mkdir(parents=True)
    store = SQLiteStore.create(directory / "vault.db", PASSPHRASE)
    rows = [StoredMemory(m, _anchor(m)) for m in memories]
    try:
        seconds, cpu, longest = _timed_batches("store", rows, batch, store.insert_memories)
    finally:
        store.close()
    return Insert(
        "SQLiteStore.insert_memories", len(rows), seconds, cpu, longest, _dir_size(directory)
    )


def insert_store_sql(memories: Sequence[Memory], batch: int, directory: Path) -> Insert:
    """The encrypted store's statements alone: every batch's parameters built beforehand
    (`SQLiteStore.prepare_memories`, untimed), then written and committed — the part of
    an insert no Python work can take away (`add_memories` runs these same statements)."""
    directory.mkdir(parents=True)
    store = SQLiteStore.create(directory / "vault.db", PASSPHRASE)
    rows = [StoredMemory(m, _anchor(m)) for m in memories]
    prepared = [
        SQLiteStore.prepare_memories(rows[start : start + batch], start + 1)
        for start in range(0, len(rows), batch)
    ]

    def write(chunk: Sequence[Any]) -> None:
        with store.transaction(savepoints=False):
            for item in chunk:
                store.write_memories(item)

    try:
        seconds, cpu, longest = _timed_batches("sql", prepared, 1, write)
    finally:
        store.close()
    return Insert("the store's SQL alone", len(rows), seconds, cpu, longest, _dir_size(directory))


def _anchor(memory: Memory) -> float | None:
    confidence = memory.confidence
    initial = getattr(confidence, "initial", None)
    return float(initial) if isinstance(initial, (int, float)) else None


def _plain_connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA page_size = {DEFAULT_PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = WAL").fetchone()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(f"PRAGMA cache_size = {-CACHE_KIB}")
    return conn


def _epoch(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def insert_plain(documents: Sequence[dict[str, Any]], batch: int, directory: Path) -> Insert:
    """The same memories into a plain database: rows built from the JSON documents."""
    directory.mkdir(parents=True)
    conn = _plain_connect(directory / "plain.db")
    conn.executescript(PLAIN_SCHEMA)
    seq = 0

    def write(chunk: Sequence[dict[str, Any]]) -> None:
        nonlocal seq
        rows, fts, tags = [], [], []
        for d in chunk:
            seq += 1
            tag_list = list(dict.fromkeys(d["tags"]))
            tags_text = " ".join(tag_list)
            rows.append(
                (
                    seq,
                    d["id"],
                    d["type"],
                    d["status"],
                    d["content_hash"],
                    d["provenance"]["platform"],
                    _epoch(d["temporal"]["created_at"]),
                    tags_text,
                    orjson.dumps(d).decode(),
                )
            )
            fts.append((seq, d["content"], d["summary"], tags_text, d["status"]))
            tags.extend((tag, seq) for tag in tag_list)
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany(
            "INSERT INTO memories_fts (rowid, content, summary, tags, status) "
            "VALUES (?, ?, ?, ?, ?)",
            fts,
        )
        conn.executemany("INSERT OR IGNORE INTO memory_tags VALUES (?, ?)", tags)
        conn.execute("COMMIT")

    try:
        seconds, cpu, longest = _timed_batches("plain", documents, batch, write)
    finally:
        conn.close()
    return Insert(
        "plain sqlite3, unencrypted",
        len(documents),
        seconds,
        cpu,
        longest,
        _dir_size(directory),
    )


# -- queries -----------------------------------------------------------------------------------


def measure(label: str, calls: Sequence[Callable[[], int]], warmup: int = 5) -> Latency:
    for call in calls[:warmup]:
        call()
    samples: list[float] = []
    results = 0
    for call in calls:
        start = time.perf_counter()
        results += call()
        samples.append(time.perf_counter() - start)
    return Latency(label, samples, results)


def _cycle(values: Sequence[Any], count: int) -> list[Any]:
    return [values[i % len(values)] for i in range(count)]


def list_queries(
    vault: Vault, count: int, rng: random.Random
) -> list[tuple[str, list[Callable[[], int]]]]:
    def page(query: MemoryQuery) -> Callable[[], int]:
        return lambda: len(vault.list(query).items)

    total = vault.list(MemoryQuery(statuses=None, limit=0)).total
    tags = sorted({t for values in TAGS.values() for t in values})

    def window() -> MemoryQuery:
        start = SPAN_START + timedelta(days=rng.uniform(0, SPAN_DAYS - 30))
        return MemoryQuery(created_since=start, created_until=start + timedelta(days=30))

    return [
        ("list newest active", [page(MemoryQuery())] * count),
        ("list by type", [page(MemoryQuery(types=(t,))) for t in _cycle(MEMORY_TYPES, count)]),
        (
            "list by status",
            [page(MemoryQuery(statuses=(s,))) for s in _cycle(STATUSES, count)],
        ),
        ("list by tag", [page(MemoryQuery(tags=(t,))) for t in _cycle(tags, count)]),
        (
            "list by platform",
            [page(MemoryQuery(platforms=(p,))) for p in _cycle(PLATFORMS, count)],
        ),
        ("list 30-day range", [page(window()) for _ in range(count)]),
        (
            "list deep page",
            [
                page(MemoryQuery(statuses=None, offset=rng.randrange(0, total - 50, 50)))
                for _ in range(count)
            ],
        ),
    ]


def search_texts(terms: SearchTerms, count: int) -> list[tuple[str, list[str]]]:
    pt_all = terms.pt_common + terms.pt_rare
    return [
        ("search EN common word", _cycle(terms.en_common, count)),
        ("search EN rare word", _cycle(terms.en_rare, count)),
        ("search PT common word", _cycle(terms.pt_common, count)),
        ("search PT rare word", _cycle(terms.pt_rare, count)),
        ("search PT without accents", _cycle([_fold(w) for w in pt_all], count)),
        ("search two words", _cycle(terms.two_words, count)),
    ]


_WORD = re.compile(r"(\w+)(\*?)")


def fts_query(text: str, statuses: tuple[str, ...]) -> str | None:
    """The plain schema's FTS5 query: every word (AND), a starred word as a prefix, the
    status an indexed column."""
    terms = [f'"{word}"' + ("*" if star else "") for word, star in _WORD.findall(text)]
    if not terms:
        return None
    query = "{content summary tags} : (" + " ".join(terms) + ")"
    return query + " AND status : (" + " OR ".join(f'"{s}"' for s in statuses) + ")"


def plain_search(conn: sqlite3.Connection, text: str) -> int:
    match = fts_query(text, ("active",))
    if match is None:
        return 0
    rows = conn.execute(
        "SELECT m.document, bm25(memories_fts, 1.0, 1.0, 1.0, 0.0) AS score "
        "FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid "
        "WHERE memories_fts MATCH ? ORDER BY score LIMIT 50",
        (match,),
    ).fetchall()
    return len([orjson.loads(r[0]) for r in rows])


# -- decay -------------------------------------------------------------------------------------


def decay_with_a_writer(vault: Vault, home: Path) -> tuple[float, int, float, int]:
    """Run decay while another connection adds a memory every 20 ms; returns the decay's
    seconds and updated count, and the writer's longest wait and number of writes."""
    other = Vault.open(home, PASSPHRASE)
    stop = threading.Event()
    waits: list[float] = []

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            start = time.perf_counter()
            other.add(f"benchmark writer note {n} {time.time_ns()}", "context")
            waits.append(time.perf_counter() - start)
            time.sleep(0.02)

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.1)
    start = time.perf_counter()
    report = vault.decay(now=SPAN_START + timedelta(days=SPAN_DAYS + 30))
    seconds = time.perf_counter() - start
    time.sleep(0.1)
    stop.set()
    thread.join()
    other.close()
    return seconds, report.updated, max(waits), len(waits)


# -- output ------------------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def print_inserts(runs: dict[str, list[Insert]], batch: int) -> None:
    print(f"\ninserts: {runs['vault'][0].memories:,} memories in batches of {batch:,}")
    print(f"  {'':32} {'inserts/s':>10} {'wall s':>8} {'CPU s':>7} {'longest batch':>14}  size")
    best: dict[str, Insert] = {}
    for key, results in runs.items():
        best[key] = min(results, key=lambda r: r.seconds)
        for r in results:
            mark = "*" if r is best[key] and len(results) > 1 else " "
            print(
                f" {mark}{r.label:32} {r.rate:10,.0f} {r.seconds:8.2f} {r.cpu_seconds:7.2f} "
                f"{r.longest_batch:12.2f} s  {fmt_bytes(r.size)}"
            )
    ours = best["vault"]
    print("  ratio peer / memvault (time per insert; below 1: the peer is faster)")
    for key in ("store", "sql", "plain"):
        peer = best[key]
        print(
            f"    {peer.label:32} {fmt_ratio(peer.seconds, ours.seconds)} wall, "
            f"{fmt_ratio(peer.cpu_seconds, ours.cpu_seconds)} CPU"
        )


def print_latencies(
    ours: Sequence[Latency], peers: dict[str, Latency], queries: int, memories: int
) -> None:
    print(f"\nqueries on {memories:,} memories ({queries} each, ms; results are per query)")
    print(
        f"  {'kind':28} {'p50':>7} {'p95':>7} {'results':>8}   "
        f"{'plain p50':>9} {'p95':>7}   ratio p50 / p95"
    )
    for lat in ours:
        line = (
            f"  {lat.label:28} {_ms(lat.p50)} {_ms(lat.p95)} {lat.results / len(lat.samples):8.1f}"
        )
        peer = peers.get(lat.label)
        if peer is not None:
            line += (
                f"   {_ms(peer.p50):>9} {_ms(peer.p95)}   "
                f"{fmt_ratio(peer.p50, lat.p50)} / {fmt_ratio(peer.p95, lat.p95)}"
            )
        print(line)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1, help="insert runs of each (best kept)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    args = parser.parse_args(argv)

    documents = load_documents(args.memories, args.seed)
    memories = [memory_from_json(d) for d in documents]
    rng = random.Random(args.seed)
    terms = pick_terms(documents, rng)
    workdir = Path(tempfile.mkdtemp(prefix="vault-bench-", dir=DATA))
    print(
        f"memvault vault benchmark: {len(memories):,} memories (storegen seed {args.seed}), "
        f"batches of {args.batch:,}, {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"  work directory {workdir}; Python {sys.version.split()[0]}")
    try:
        runs: dict[str, list[Insert]] = {"vault": [], "store": [], "sql": [], "plain": []}
        vault: Vault | None = None
        home = workdir / "vault"
        for run in range(args.repeat):
            if vault is not None:
                vault.close()
                shutil.rmtree(home)
            result, vault = insert_vault(memories, args.batch, home)
            runs["vault"].append(result)
            runs["store"].append(insert_store(memories, args.batch, workdir / f"store{run}"))
            runs["sql"].append(insert_store_sql(memories, args.batch, workdir / f"sql{run}"))
            runs["plain"].append(insert_plain(documents, args.batch, workdir / f"plain{run}"))
            for key in ("store", "sql"):
                shutil.rmtree(workdir / f"{key}{run}")
        assert vault is not None
        stats = vault.stats()
        print_inserts(runs, args.batch)
        reinforced = args.memories - stats["memories"]
        print(
            f"  the vault holds {stats['memories']:,} memories ({reinforced:,} repeated "
            f"contents reinforced an existing memory), {stats['audit_entries']:,} audit entries"
        )

        kinds = list_queries(vault, args.queries, rng)
        ours = [measure(label, calls) for label, calls in kinds]
        plain = sqlite3.connect(workdir / f"plain{args.repeat - 1}" / "plain.db")
        peers: dict[str, Latency] = {}
        for label, texts in search_texts(terms, args.queries):
            ours.append(measure(label, [lambda t=t: len(vault.search(t)) for t in texts]))  # type: ignore[misc]
            peers[label] = measure(label, [lambda t=t: plain_search(plain, t) for t in texts])  # type: ignore[misc]
        filtered = [
            (word, MemoryQuery(types=(kind,)))
            for word, kind in zip(
                _cycle(terms.en_common + terms.pt_common, args.queries),
                _cycle(MEMORY_TYPES, args.queries),
                strict=True,
            )
        ]
        ours.append(
            measure(
                "search common word, by type",
                [lambda w=w, q=q: len(vault.search(w, q)) for w, q in filtered],  # type: ignore[misc]
            )
        )
        plain.close()
        print_latencies(ours, peers, args.queries, stats["memories"])

        seconds, updated, wait, writes = decay_with_a_writer(vault, home)
        print(
            f"\ndecay of {stats['memories']:,} memories: {seconds:.2f} s, {updated:,} updated; a "
            f"second connection adding a memory every 20 ms meanwhile ({writes} adds) waited "
            f"at most {wait * 1000:.0f} ms"
        )
        vault.close()
    finally:
        if args.keep:
            print(f"\nkept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
