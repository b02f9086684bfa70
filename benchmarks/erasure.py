"""What a durable erasure costs (docs/erasure.md): erasing one conversation, one memory, and
everything, in an encrypted vault holding many conversations, against the plain deletion of
the same rows measured in the same run on the same vault.

    .venv/bin/python benchmarks/erasure.py [--conversations 2000] [--memories 5000] [--repeat 7]

- **Durable** (`Vault.erase_conversation`, `Vault.erase`): the rows deleted with
  `secure_delete` and FTS5 `secure-delete`, the audit entry, then `Store.scrub` — both
  full-text indexes merged into one segment and the write-ahead log truncated — so no copy is
  left in the file.
- **Plain** (the peer): `Store.delete_conversation` / `Store.delete_memory` in one
  transaction, nothing else — what a deletion costs when a copy may stay in free pages, older
  index segments and the log.

Each is run `--repeat` times on different conversations (memories), alternating, and the
median is printed with the ratio durable / plain (the price of "gone from the file's bytes").
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memvault.store.base import StoredConversation
from memvault.vault import Vault

WORDS = ("garden", "tomato", "basil", "river", "window", "kettle", "violin", "harbour")


def _conversation(cid: str, rng: random.Random, messages: int = 20) -> StoredConversation:
    document = {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {"name": "chatgpt"},
        "title": f"Chat {cid}",
        "temporal": {"created_at": "2025-03-01T10:00:00Z"},
        "messages": [
            {
                "id": f"{cid}-m{i}",
                "role": "user" if i % 2 == 0 else "assistant",
                "created_at": "2025-03-01T10:00:00Z",
                "content": {
                    "type": "text",
                    "text": " ".join(
                        f"{rng.choice(WORDS)}{rng.randrange(100_000)}" for _ in range(60)
                    ),
                },
            }
            for i in range(messages)
        ],
    }
    return StoredConversation(cid, "chatgpt", document, f"Chat {cid}", message_count=messages)


def _build(home: Path, conversations: int, memories: int) -> Vault:
    vault = Vault.init(home, "benchmark passphrase", kdf_iter=2)
    rng = random.Random(0)
    for start in range(0, conversations, 500):
        end = min(conversations, start + 500)
        vault.put_conversations([_conversation(f"c{i}", rng) for i in range(start, end)])
    for n in range(memories):
        words = " ".join(rng.choice(WORDS) for _ in range(12))
        vault.add(f"Memory {n}: {words}", "fact")
    vault.store.scrub()
    return vault


def _timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=2000)
    parser.add_argument("--memories", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memvault-erasure-"))
    try:
        vault = _build(root / "vault", args.conversations, args.memories)
        store = vault.store
        with store.index_connection() as conn:  # type: ignore[attr-defined]
            passages = int(conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0])
        size = store.size_bytes() or 0
        print(
            f"vault: {args.conversations:,} conversations, {args.memories:,} memories, "
            f"{passages:,} recall passages, {size / 2**20:.0f} MiB"
        )
        ids = [m.id for m in vault.list().items]
        durable_c: list[float] = []
        plain_c: list[float] = []
        durable_m: list[float] = []
        plain_m: list[float] = []
        for n in range(args.repeat):

            def plain_conversation(cid: str = f"c{2 * n}") -> None:
                with store.transaction():
                    store.delete_conversation(cid)

            def plain_memory(mid: str = ids[2 * n]) -> None:
                with store.transaction():
                    store.delete_memory(mid)

            plain_c.append(_timed(plain_conversation))
            durable_c.append(_timed(lambda n=n: vault.erase_conversation(f"c{2 * n + 1}")))
            plain_m.append(_timed(plain_memory))
            durable_m.append(_timed(lambda n=n: vault.erase(ids[2 * n + 1])))
        everything = _timed(vault.erase_everything)
        vault.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    rows = (
        ("one conversation", durable_c, plain_c),
        ("one memory", durable_m, plain_m),
    )
    print(f"{'erasure':<18}{'durable (ms)':>14}{'plain (ms)':>12}{'durable / plain':>17}")
    for name, durable, plain in rows:
        d, p = statistics.median(durable) * 1000, statistics.median(plain) * 1000
        print(f"{name:<18}{d:>14.1f}{p:>12.1f}{d / p:>16.1f}x")
    print(f"{'everything':<18}{everything * 1000:>14.1f}")


if __name__ == "__main__":
    sys.exit(main())
