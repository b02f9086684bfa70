"""Create the demo vault from a PAM memory-store, through the Vault API (`make run` calls this).

    MEMVAULT_HOME=.demo MEMVAULT_PASSPHRASE=demo python examples/load_demo.py [memory-store.json]

The home and the passphrase are found as the CLI finds them (`memvault.local`: the
environment, else the platform data directory and a prompt at a terminal).

The owner comes from the file; the memories go in with `add_memories` (one transaction: ids,
timestamps, statuses and provenance kept); the relations with `relate`; the conversations its
index names with `put_conversations`, read from `conversations/` beside the file, else from the
sample export (examples/export/conversations/), so the memories' provenance links resolve. If
a vault is already there it is left as it is.
"""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path

from memvault import local, pam
from memvault.errors import VaultError
from memvault.model import Owner
from memvault.paths import database_path
from memvault.store.base import StoredConversation

SAMPLE = Path(__file__).with_name("memory-store.json")
SAMPLE_CONVERSATIONS = Path(__file__).with_name("export") / "conversations"


def conversations(store: pam.MemoryStore, source: Path) -> list[StoredConversation]:
    """The PAM §25 conversations the store's index names, from their files."""
    index = store.conversations_index if isinstance(store.conversations_index, tuple) else ()
    found = []
    for entry in index:
        for folder in (source.parent / "conversations", SAMPLE_CONVERSATIONS):
            path = folder / f"{entry.id}.json"
            if path.is_file():
                document = json.loads(path.read_text(encoding="utf-8"))
                temporal = document.get("temporal") or {}
                found.append(
                    StoredConversation(
                        id=document["id"],
                        platform=document["provider"]["name"],
                        document=document,
                        title=document.get("title"),
                        created_at=temporal.get("created_at"),
                        updated_at=temporal.get("updated_at"),
                        message_count=len(document.get("messages") or ()),
                    )
                )
                break
    return found


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
        talks = conversations(store, source)
        vault.put_conversations(talks)
    print(
        f"demo vault created at {home} from {source}: {len(batch.created)} memories, "
        f"{len(relations)} relations, {len(talks)} conversations"
    )


if __name__ == "__main__":
    try:
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE)
    except (VaultError, pam.PAMError) as exc:
        sys.exit(f"error: {exc}")
