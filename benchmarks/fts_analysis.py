"""Full-text indexing speed of recall's analysis: FTS5 insertion of conversation messages into an
encrypted vault database (sqlcipher3), in one transaction as an import does, with

1. plain ``unicode61 remove_diacritics 2`` (no stemming: the ceiling);
2. Python-side stemming: each message tokenised and folded in Python, each word stemmed with
   PyStemmer (English and Portuguese, a word cache), the stems handed to (1);
3. memvault's tokenizer (``memvault.recall.analysis``: unicode61 folding and Snowball English and
   Portuguese stems in C, inside FTS5);
4. FTS5's own ``porter unicode61 remove_diacritics 2`` (English only), for scale.

    .venv/bin/python benchmarks/fts_analysis.py [--megabytes 40] [--repeat 3]

The messages have the lengths of those of the ChatGPT export generator
(tests/providergen/chatgpt.py), but their words are drawn from a Zipf distribution over a
vocabulary of `--vocabulary` English- and Portuguese-looking words (the generator itself uses a
few hundred words, which no word cache would ever miss; real conversations use tens of
thousands), with accents, capitals and punctuation. The modes run interleaved `--repeat` times;
the median of
each is printed in MB/s of message text (UTF-8) per wall second and per CPU second (the steadier
figure on this shared machine), then the ratios memvault / peer of both.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import random
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sqlcipher3  # type: ignore[import-untyped]
import Stemmer

from memvault.recall import analysis

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))

from providergen import chatgpt  # noqa: E402

WORD = re.compile(r"\w+")


def lengths(megabytes: float) -> list[int]:
    """Message lengths (UTF-8 bytes) of generated ChatGPT conversations, `megabytes` in all."""
    target = int(megabytes * 1_000_000)
    found: list[int] = []
    seed = 0
    while sum(found) < target:
        for conversation in chatgpt.conversations(seed, 50):
            for node in conversation["mapping"].values():
                content = ((node.get("message") or {}).get("content")) or {}
                for part in content.get("parts") or []:
                    if isinstance(part, str) and part:
                        found.append(len(part.encode()))
        seed += 1
    return found


SYLLABLES = [c + v for c in "bcdfghjklmnprstvz" for v in ("a", "e", "i", "o", "u", "ã", "é")]
ENDINGS = ["", "", "s", "ing", "ed", "ly", "tion", "ness", "er", "ção", "ções", "mente", "ando",
           "ado", "os", "as", "ência", "ável"]  # fmt: skip


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        stem = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice([1, 2, 2, 3, 3, 4])))
        words.add(stem + rng.choice(ENDINGS))
    return sorted(words)


def messages(megabytes: float, size: int, seed: int = 0) -> list[str]:
    """Texts of the generated messages' lengths, of Zipf-distributed words (s = 1)."""
    rng = random.Random(seed)
    words = vocabulary(size, rng)
    rng.shuffle(words)
    weights = list(itertools.accumulate(1 / rank for rank in range(1, size + 1)))
    total = weights[-1]
    found: list[str] = []
    for length in lengths(megabytes):
        parts: list[str] = []
        used = 0
        while used < length:
            word = words[bisect.bisect_left(weights, rng.random() * total)]
            if rng.random() < 0.05:
                word = word.capitalize()
            parts.append(word)
            parts.append(rng.choice(" " * 12 + ",.?!\n"))
            used += len(word) + 1
        found.append("".join(parts))
    return found


class PythonStems:
    """Python-side analysis: fold (casefold, NFD without combining marks), then the English and
    Portuguese PyStemmer stems of each word, cached by word."""

    def __init__(self) -> None:
        self.english = Stemmer.Stemmer("english")
        self.portuguese = Stemmer.Stemmer("portuguese")
        self.cache: dict[str, str] = {}

    def word(self, word: str) -> str:
        folded = "".join(
            c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)
        )
        en = self.english.stemWord(folded)
        pt = self.portuguese.stemWord(folded)
        return en if en == pt else f"{en} {pt}"

    def __call__(self, text: str) -> str:
        cache = self.cache
        out = []
        for word in WORD.findall(text.casefold()):
            stems = cache.get(word)
            if stems is None:
                stems = cache[word] = self.word(word)
            out.append(stems)
        return " ".join(out)


def insert(
    texts: list[str], tokenize: str, transform: Callable[[str], str] | None
) -> tuple[float, float]:
    """Wall and CPU seconds to index `texts` into a fresh encrypted database, in one
    transaction (everything runs in this thread: CPU seconds are the steadier figure on a busy
    machine)."""
    with tempfile.TemporaryDirectory(prefix="memvault-fts-") as tmp:
        conn = sqlcipher3.connect(str(Path(tmp) / "bench.db"), isolation_level=None)
        conn.execute("PRAGMA key = 'benchmark'")
        analysis.prepare(conn)
        conn.execute(f"CREATE VIRTUAL TABLE passages USING fts5(text, tokenize='{tokenize}')")
        rows: Iterator[tuple[Any, ...]]
        start, cpu = time.perf_counter(), time.process_time()
        conn.execute("BEGIN")
        if transform is None:
            rows = ((text,) for text in texts)
        else:
            rows = ((transform(text),) for text in texts)
        conn.executemany("INSERT INTO passages(text) VALUES (?)", rows)
        conn.execute("COMMIT")
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        conn.close()
    return seconds, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=40.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--vocabulary", type=int, default=50_000)
    args = parser.parse_args(argv)

    texts = messages(args.megabytes, args.vocabulary)
    size = sum(len(text.encode()) for text in texts)
    print(
        f"{len(texts):,} messages, {size / 1e6:.1f} MB of text, {args.vocabulary:,} words; "
        f"{args.repeat} rounds, medians"
    )
    modes: dict[str, tuple[str, Callable[[], Callable[[str], str] | None]]] = {
        "unicode61 (no stemming)": ("unicode61 remove_diacritics 2", lambda: None),
        "Python stems + unicode61": ("unicode61 remove_diacritics 2", PythonStems),
        "memvault tokenizer (C)": (analysis.TOKENIZE, lambda: None),
        "porter unicode61 (EN only)": ("porter unicode61 remove_diacritics 2", lambda: None),
    }
    wall: dict[str, list[float]] = {name: [] for name in modes}
    cpu: dict[str, list[float]] = {name: [] for name in modes}
    for round_ in range(args.repeat):
        for name, (tokenize, make) in modes.items():
            seconds, cpu_seconds = insert(texts, tokenize, make())  # a fresh word cache
            wall[name].append(seconds)
            cpu[name].append(cpu_seconds)
            print(
                f"  round {round_ + 1}: {name:28} {seconds:7.2f} s wall {cpu_seconds:7.2f} s CPU",
                flush=True,
            )
    mb = size / 1e6
    by_wall = {name: mb / statistics.median(runs) for name, runs in wall.items()}
    by_cpu = {name: mb / statistics.median(runs) for name, runs in cpu.items()}
    print(f"\n{'':28} {'MB/s wall':>10} {'MB/s CPU':>10}")
    for name in modes:
        print(f"{name:28} {by_wall[name]:10.1f} {by_cpu[name]:10.1f}")
    ours = "memvault tokenizer (C)"
    print(f"\n{'memvault / peer':28} {'wall':>10} {'CPU':>10}")
    for name in modes:
        if name != ours:
            ratio_wall = by_wall[ours] / by_wall[name]
            ratio_cpu = by_cpu[ours] / by_cpu[name]
            print(f"{name:28} {ratio_wall:9.2f}x {ratio_cpu:9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
