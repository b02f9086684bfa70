"""`memvault.targets` at scale: rendering every target over a vault of N memories (default
10,000, English and Portuguese mixed) against the vault's own PAM export of the same memories
to a lone memory-store `.json` (the peer: the one other whole-vault read-and-write, same run),
and `--query` renderings (recall first) against `Vault.recall` alone.

    .venv/bin/python benchmarks/targets.py [--memories N] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from memvault.exchange import export_vault
from memvault.targets import TARGET_NAMES, render
from vaultkit import make_vault, pam_memory

KINDS = ("fact", "fact", "fact", "preference", "instruction", "identity", "skill", "project")
WORDS_EN = ("prefers", "dark", "roast", "coffee", "works", "remotely", "from", "Porto", "cello")
WORDS_PT = ("prefere", "café", "escuro", "trabalha", "remotamente", "no", "Porto", "violoncelo")


def _median(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = make_vault(Path(tmp) / "v")
        memories = []
        for i in range(args.memories):
            words = WORDS_PT if i % 2 else WORDS_EN
            text = " ".join(words[(i + j) % len(words)] for j in range(8)) + f" {i}"
            memories.append(
                pam_memory(text, type=KINDS[i % len(KINDS)], confidence=0.5 + i % 5 / 10,
                           metadata={"language": "pt" if i % 2 else "en"})
            )  # fmt: skip
        vault.add_memories(memories)

        def export() -> None:
            export_vault(vault, Path(tmp) / f"{uuid.uuid4()}.json")

        peer = _median(export, args.rounds)
        print(f"{args.memories} memories, median of {args.rounds} rounds")
        print(f"  PAM export to .json (peer)      {peer * 1000:8.1f} ms")
        for target in TARGET_NAMES:
            own = _median(lambda t=target: render(vault, t), args.rounds)
            print(f"  render {target:<24} {own * 1000:8.1f} ms   export/render {peer / own:5.2f}")
        recall = _median(lambda: vault.recall("coffee Porto", 200, kind="memories"), args.rounds)
        queried = _median(lambda: render(vault, "system-prompt", query="coffee Porto"), args.rounds)
        print(f"  Vault.recall k=200 (peer)       {recall * 1000:8.1f} ms")
        print(
            f"  render system-prompt --query    {queried * 1000:8.1f} ms   "
            f"recall/render {recall / queried:5.2f}"
        )
        vault.close()


if __name__ == "__main__":
    main()
