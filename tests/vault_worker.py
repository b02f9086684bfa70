"""A separate process that writes to a vault, for the crash and concurrency tests.

    python tests/vault_worker.py HOME batch TAG N          one add_memories batch of N memories
    python tests/vault_worker.py HOME mixed TAG N BATCH    N memories: batches of BATCH and
                                                           single adds, alternating

Prints "ready" once everything is built and the vault is open, then "done" at the end.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

from memvault.model import Memory
from memvault.vault import Vault
from vaultkit import PASSPHRASE, pam_memory


def memories(tag: str, n: int, start: int = 0) -> list[Memory]:
    return [
        pam_memory(
            f"Memory {i} of {tag}: the user wrote note number {i}.",
            tags=[tag],
            id=str(uuid.uuid4()),
        )
        for i in range(start, start + n)
    ]


def main() -> None:
    home, mode, tag, n = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    with Vault.open(home, PASSPHRASE) as vault:
        if mode == "batch":
            batch = memories(tag, n)
            print("ready", flush=True)
            vault.add_memories(batch)
        else:
            size = int(sys.argv[5])
            print("ready", flush=True)
            done = 0
            while done < n:
                if (done // size) % 2 == 0:
                    vault.add_memories(memories(tag, min(size, n - done), done))
                    done += min(size, n - done)
                else:
                    vault.add(f"Memory {done} of {tag}: a single note.", "fact", tags=[tag])
                    done += 1
    print("done", flush=True)


if __name__ == "__main__":
    main()
