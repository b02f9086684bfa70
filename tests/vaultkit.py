"""Helpers for the vault and store tests: fast key derivation, PAM memories to feed the vault,
and a check that what the vault wrote is valid PAM."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault.canonical import content_hash
from memvault.formats.pam.schema import validate_memories
from memvault.model import Memory
from memvault.store.base import StoredMemory
from memvault.store.sqlite import SQLiteStore
from memvault.vault import Vault

PASSPHRASE = "correct horse battery staple"
#: Key derivation rounds for test vaults (the real default, 256,000, costs ~0.3 s per open).
FAST_KDF = "2"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    """A new vault in ``tmp_path/home``, closed after the test."""
    v = make_vault(tmp_path / "home")
    try:
        yield v
    finally:
        v.close()


def pam_conversation(
    cid: str,
    messages: list[tuple[str, str, str]],
    *,
    title: str = "Chat",
    names: dict[str, str] | None = None,
    parents: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A PAM conversation (§25) of (id, role, text) messages, a minute apart; `names` the
    participants' names by role, `parents` a message's parent by its id."""
    parents = parents or {}
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {"name": "chatgpt"},
        "title": title,
        "temporal": {"created_at": "2025-03-01T10:00:00Z"},
        "participants": [{"role": r, "name": n} for r, n in (names or {}).items()],
        "messages": [
            {
                "id": mid,
                "role": role,
                "created_at": f"2025-03-01T10:{i:02d}:00Z",
                "content": {"type": "text", "text": text},
                **({"parent_id": parents[mid]} if mid in parents else {}),
            }
            for i, (mid, role, text) in enumerate(messages)
        ],
    }


def make_vault(home: Path, **kwargs: Any) -> Vault:
    kwargs.setdefault("kdf_iter", int(FAST_KDF))
    return Vault.init(home, PASSPHRASE, **kwargs)


def make_store(path: Path) -> SQLiteStore:
    return SQLiteStore.create(path, PASSPHRASE, kdf_iter=2)


def pam_memory(
    content: str,
    *,
    type: str = "fact",
    id: str | None = None,
    status: str = "active",
    custom_type: str | None = None,
    tags: Iterable[str] = (),
    created_at: str = "2025-01-01T10:00:00Z",
    updated_at: str | None = None,
    platform: str = "chatgpt",
    extraction_method: str | None = "api_export",
    confidence: float = 0.8,
    decay_model: str | None = "time_linear",
    last_reinforced: str | None = None,
    visibility: str = "private",
    exportable: bool = True,
    shared_with: Iterable[dict[str, Any]] = (),
    summary: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Memory:
    """A complete PAM memory object (every member present, like the official example)."""
    return Memory.from_json(
        {
            "id": id or str(uuid.uuid4()),
            "type": type,
            "custom_type": custom_type,
            "status": status,
            "content": content,
            "content_hash": content_hash(content),
            "summary": summary,
            "tags": list(tags),
            "confidence": {
                "initial": confidence,
                "current": confidence,
                "decay_model": decay_model,
                "last_reinforced": last_reinforced,
            },
            "temporal": {
                "created_at": created_at,
                "updated_at": updated_at,
                "valid_from": None,
                "valid_until": None,
                "superseded_by": None,
            },
            "provenance": {
                "platform": platform,
                "platform_user_id": None,
                "conversation_ref": None,
                "message_ref": None,
                "extraction_method": extraction_method,
                "extracted_at": None,
                "extractor": None,
            },
            "access": {
                "visibility": visibility,
                "exportable": exportable,
                "shared_with": list(shared_with),
            },
            "embedding_ref": None,
            "metadata": metadata if metadata is not None else {"language": "en"},
        }
    )


def stored(content: str, **kwargs: Any) -> StoredMemory:
    memory = pam_memory(content, **kwargs)
    return StoredMemory(memory, kwargs.get("confidence", 0.8))


def assert_valid_pam(memories: Iterable[Memory]) -> None:
    """Every memory validates against the PAM memory schema (official rules, §4-§11)."""
    documents = [m.to_json() for m in memories]
    errors = [f for f in validate_memories(documents, 0) if f.severity == "error"]
    assert not errors, [f"{f.path}: {f.message}" for f in errors]


def raw_bytes(directory: Path) -> bytes:
    """Every byte of every file in the vault home (database, WAL, shared memory, params)."""
    return b"".join(p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file())


def spawn_ready(script: str, *args: object) -> subprocess.Popen[str]:
    """A Python process running `script` with `args` (a vault it opens derives its key
    fast), once it has printed "ready"; its stdout is a pipe of lines to read what it says
    next."""
    env = dict(os.environ, MEMVAULT_KDF_ITER=FAST_KDF)
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        proc.kill()
        raise AssertionError(f"the process did not start: {line!r} {proc.communicate()[1]}")
    return proc
