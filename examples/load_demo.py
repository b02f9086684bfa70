"""Create the demo vault from a PAM memory-store, through the Vault API (`make run` calls this).

    MEMVAULT_HOME=.demo MEMVAULT_PASSPHRASE=demo python examples/load_demo.py [memory-store.json]

The home and the passphrase are found as the CLI finds them (`memvault.local`: the
environment, else the platform data directory and a prompt at a terminal).

The owner comes from the file; the memories go in with `add_memories` (one transaction: ids,
timestamps, statuses and provenance kept); the relations with `relate`. If a vault is already
there it is left as it is.
"""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

from memvault import local, pam
from memvault.errors import VaultError
from memvault.model import Owner
from memvault.paths import database_path

SAMPLE = Path(__file__).with_name("memory-store.json")


def _ask(new: bool) -> str:
    """Asked only at a terminal, when $MEMVAULT_PASSPHRASE is not set."""
    while True:
        first = getpass.getpass("New passphrase: " if new else "Passphrase: ")
        if not new or first == getpass.getpass("Repeat the passphrase: "):
            return first
        print("the two entries differ; again", file=sys.stderr)


def main(source: Path) -> None:
    home = local.find_home()
    if database_path(home).exists():
        print(f"demo vault already at {home}; leaving it as it is")
        return
    store = pam.load(source)
    owner: Owner = store.owner
    did = owner.did if isinstance(owner.did, str) else None
    with local.init_vault(home, prompt=_ask, owner_id=owner.id, did=did) as vault:
        batch = vault.add_memories(store.memories)
        relations = store.relations if isinstance(store.relations, tuple) else ()
        for r in relations:
            confidence = r.confidence if isinstance(r.confidence, int | float) else None
            vault.relate(batch.id_map[r.from_], batch.id_map[r.to], r.type, confidence=confidence)
    print(
        f"demo vault created at {home} from {source}: {len(batch.created)} memories, "
        f"{len(relations)} relations"
    )


if __name__ == "__main__":
    try:
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE)
    except (VaultError, pam.PAMError) as exc:
        sys.exit(f"error: {exc}")
