"""Whole-vault recall through a real `memvault serve`, with and without the served vault's
recall cache budget (``MEMVAULT_RECALL_CACHE_MIB``): the server process's CPU per query, the
wall time, and its resident memory, both measured in the same run on the same vault.

A served vault holds each connection's page cache small (8 MiB); sqlite-vec's KNN reads every
page of the model's bit index, so without the budget a whole-vault vector search reads and
decrypts all of it again on every query once the index outgrows that cache.

    .venv/bin/python benchmarks/served_recall.py    # 20,000 memories + 150,000 messages
    .venv/bin/python benchmarks/served_recall.py --keep /tmp/sr --reuse

The vault is built as benchmarks/recall.py --scale builds its own (recall_scale), with
synthetic vectors stored under the local model's name and dimension, so the server embeds
each question with the real local model and searches the synthetic vectors.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall_scale

QUESTIONS = [
    "where does my sister work",
    "what did I say about the guitar",
    "training for a marathon",
    "viagem para Lisboa no verão",
    "which tea do I prefer",
    "the dog and the thunderstorms",
    "bicicleta nova para o trabalho",
    "what colour did we paint the kitchen",
]
WORDS = [
    "I",
    "we",
    "my",
    "sister",
    "brother",
    "dog",
    "cat",
    "guitar",
    "kitchen",
    "marathon",
    "training",
    "tea",
    "coffee",
    "work",
    "job",
    "Lisbon",
    "Porto",
    "nurse",
    "doctor",
    "school",
    "book",
    "film",
    "music",
    "weekend",
    "summer",
    "winter",
    "plan",
    "trip",
    "eu",
    "nós",
    "minha",
    "irmã",
    "cão",
    "gato",
    "cozinha",
    "maratona",
    "treino",
    "chá",
    "café",
    "trabalho",
    "viagem",
    "verão",
]


def _sentences(rng: random.Random, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) for _ in range(n)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory_kib(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def build(home: Path, memories: int, messages: int) -> None:
    from memvault.recall.embedders import EmbedderSpec
    from memvault.vault import Vault

    rng = random.Random(3)
    texts = {"en": _sentences(rng, 400), "pt": _sentences(rng, 400)}
    built = recall_scale.build_scale_vault(home, memories, messages, 500, texts)
    recall_scale.add_vectors(built, "use-multilingual-v3", 512, print)
    with Vault.open(home, recall_scale.PASSPHRASE) as vault:
        # Every passage has its vector already: this only names the vault's embedder.
        vault.embed(EmbedderSpec("local", "use-multilingual-v3"))


def measure(home: Path, budget_mib: int | None, queries: int, mode: str) -> dict[str, Any]:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": recall_scale.PASSPHRASE}
    env.pop("MEMVAULT_DATABASE_URL", None)
    if budget_mib is None:
        env.pop("MEMVAULT_RECALL_CACHE_MIB", None)
    else:
        env["MEMVAULT_RECALL_CACHE_MIB"] = str(budget_mib)
    token = (
        subprocess.run(
            [sys.executable, "-m", "memvault", "token"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .split()[-1]
    )
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "memvault", "serve", "--port", str(port), "--no-embed"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120
        ) as http:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if http.get("/v1/stats").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
            for q in QUESTIONS[:3]:  # warm: the model loaded, the first cache fill
                http.get("/v1/recall", params={"q": q, "k": 10, "mode": mode}).raise_for_status()
            cpu0, wall0 = _cpu_seconds(server.pid), time.perf_counter()
            for i in range(queries):
                answer = http.get(
                    "/v1/recall",
                    params={"q": QUESTIONS[i % len(QUESTIONS)], "k": 10, "mode": mode},
                )
                answer.raise_for_status()
            cpu, wall = _cpu_seconds(server.pid) - cpu0, time.perf_counter() - wall0
            memory = _memory_kib(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    return {
        "budget_mib": "default" if budget_mib is None else budget_mib,
        "cpu_ms_per_query": 1000 * cpu / queries,
        "wall_ms_per_query": 1000 * wall / queries,
        "rss_mib": memory.get("VmRSS", 0) / 1024,
        "peak_rss_mib": memory.get("VmHWM", 0) / 1024,
        "load": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--messages", type=int, default=150_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument(
        "--mode", default="vector", help="recall's mode: vector (the KNN alone), hybrid, fts"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="servers per setting, alternated (the noise)"
    )
    args = parser.parse_args(argv)
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="memvault-served-recall-"))
    home = workdir / "vault"
    if not (args.reuse and home.exists()):
        build(home, args.memories, args.messages)
    rows = [
        measure(home, budget, args.queries, args.mode)
        for _ in range(args.rounds)
        for budget in (0, None)
    ]
    for row in rows:
        print(
            f"budget {row['budget_mib']!s:>7} MiB: CPU {row['cpu_ms_per_query']:.1f} ms/query, "
            f"wall {row['wall_ms_per_query']:.1f} ms/query, server RSS {row['rss_mib']:.0f} MiB "
            f"(peak {row['peak_rss_mib']:.0f}), load {row['load'][0]:.1f}"
        )
    without = min(r["cpu_ms_per_query"] for r in rows if r["budget_mib"] == 0)
    within = min(r["cpu_ms_per_query"] for r in rows if r["budget_mib"] != 0)
    print(
        f"{args.mode}, best of {args.rounds}: CPU {without:.1f} ms/query without a budget, "
        f"{within:.1f} with it ({without / within:.2f}x)"
    )


if __name__ == "__main__":
    main()
