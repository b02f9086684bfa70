"""Helpers for the export / import / merge tests: a vault with everything in it, reading an
export back, checking it against our validator and the official schemas, and a fingerprint of
a vault's state for "nothing changed" checks."""

from __future__ import annotations

import copy
import json
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from struct import pack
from typing import Any

import jsonschema_rs

from memvault.canonical import jcs_dumps
from memvault.findings import Finding
from memvault.formats.pam.validate import validate_path
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES, RELATION_TYPES, Memory
from memvault.sources import open_target
from memvault.store.base import StoredConversation, StoredEmbedding
from memvault.vault import Vault
from pamdocs import OFFICIAL_EXAMPLES, OFFICIAL_SCHEMAS
from vaultkit import pam_memory

T0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
OFFICIAL_SCHEMA_FILES = {
    "portable-ai-memory": "portable-ai-memory.schema.json",
    "portable-ai-memory-conversation": "portable-ai-memory-conversation.schema.json",
    "portable-ai-memory-embeddings": "portable-ai-memory-embeddings.schema.json",
}
SECRET = "The secret never leaves the vault: 7f3a-private"


@cache
def official_validator(schema: str) -> Any:
    document = json.loads((OFFICIAL_SCHEMAS / OFFICIAL_SCHEMA_FILES[schema]).read_text())
    return jsonschema_rs.validator_for(document, validate_formats=True)


def documents(path: Path) -> dict[str, dict[str, Any]]:
    """Every JSON document of an export (file, directory or zip), by name."""
    out: dict[str, dict[str, Any]] = {}
    with open_target(path) as target:
        for entry in target.entries:
            with entry.open() as buf:
                out[entry.name] = json.loads(bytes(buf))
    return out


def raw_output(path: Path) -> bytes:
    """Every byte an export consists of (zip members decompressed)."""
    if path.is_dir():
        return b"".join(p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file())
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            return b"".join(archive.read(n) for n in sorted(archive.namelist()))
    return path.read_bytes()


def assert_clean(path: Path, *, allowed: tuple[str, ...] = ()) -> None:
    """No finding from `memvault validate` (but the `allowed` warning codes), and every
    document valid against the official schema of its kind."""
    result = validate_path(path)
    unexpected = [f for f in result.findings if f.severity == "error" or f.code not in allowed]
    assert not unexpected, [_text(f) for f in unexpected]
    for name, doc in documents(path).items():
        errors = [e.message for e in official_validator(doc["schema"]).iter_errors(doc)]
        assert not errors, (name, errors[:5])


def _text(finding: Finding) -> str:
    return f"{finding.severity} {finding.code} {finding.file} {finding.path}: {finding.message}"


@dataclass(frozen=True)
class ExportView:
    """An export read back, in comparable form."""

    header: dict[str, Any]
    memories: dict[str, bytes]  # id -> RFC 8785 bytes
    relations: dict[str, bytes]
    index: dict[str, bytes]
    conversations: dict[str, bytes]  # conversation id -> document bytes
    embeddings: dict[str, bytes]  # memory id -> embedding bytes

    @property
    def canonical(self) -> tuple[Any, ...]:
        return (self.memories, self.relations, self.index, self.conversations, self.embeddings)


def read_export(path: Path) -> ExportView:
    docs = documents(path)
    store = docs.get("memory-store.json") or next(iter(docs.values()))
    header = {k: v for k, v in store.items() if k != "memories"}
    conversations = {
        d["id"]: jcs_dumps(d) for n, d in docs.items() if n.startswith("conversations/")
    }
    embeddings = {
        e["memory_id"]: jcs_dumps(e) for e in docs.get("embeddings.json", {}).get("embeddings", [])
    }
    return ExportView(
        header,
        {m["id"]: jcs_dumps(m) for m in store["memories"]},
        {r["id"]: jcs_dumps(r) for r in store.get("relations", [])},
        {c["id"]: jcs_dumps(c) for c in store.get("conversations_index", [])},
        conversations,
        embeddings,
    )


def state(vault: Vault) -> tuple[Any, ...]:
    """What must not move when an operation is refused: stats, audit head, registry."""
    stats = vault.stats()
    stats.pop("db_size_bytes", None)
    log = vault.audit_log()
    head = log[-1].hash if log else None
    return stats, head, len(log), [r.export_id for r in vault.exports()]


def vector(*values: float) -> bytes:
    return pack(f"<{len(values)}f", *values)


def official_conversation(conversation_id: str = "conv-001", **changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (OFFICIAL_EXAMPLES / "example-conversation.json").read_text()
    )
    document["id"] = conversation_id
    document.update(changes)
    return copy.deepcopy(document)


def put_conversation(vault: Vault, document: dict[str, Any], *, now: datetime = T0) -> None:
    vault.put_conversation(
        StoredConversation(
            id=document["id"],
            platform=document["provider"]["name"],
            document=document,
            title=document.get("title"),
            created_at=document["temporal"]["created_at"],
            updated_at=document["temporal"].get("updated_at"),
            message_count=len(document["messages"]),
            extra_index={"tags": list(document.get("tags", []))},
        ),
        now=now,
    )


def rich_vault(vault: Vault, *, now: datetime = T0) -> dict[str, Memory]:
    """Fill `vault` with every memory type, status, relation type and access setting, two
    conversations, embeddings, platform user ids and one non-exportable memory."""
    put_conversation(vault, official_conversation("conv-001"), now=now)
    second = official_conversation("conv/odd id", title="Second conversation")
    second["provider"] = {**second["provider"], "name": "chatgpt", "account_id": "acct-42"}
    put_conversation(vault, second, now=now)
    memories: dict[str, Memory] = {}
    batch: list[Memory] = []
    for i, memory_type in enumerate(MEMORY_TYPES):
        status = MEMORY_STATUSES[i % len(MEMORY_STATUSES)]
        memory = pam_memory(
            f"Memory {i} of type {memory_type}, with ação and 🙂",
            type=memory_type,
            custom_type="decision" if memory_type == "custom" else None,
            status=status,
            tags=[f"t{i}", "shared-tag"],
            created_at=f"2025-0{1 + i % 9}-0{1 + i % 9}T10:00:00Z",
            updated_at="2025-10-01T10:00:00-03:00" if i % 2 else None,
            platform=("claude", "chatgpt", "gemini")[i % 3],
            visibility=("private", "shared", "public")[i % 3],
            shared_with=[{"entity": "agent:coder", "permissions": ["read", "write"]}]
            if i % 3 == 1
            else [],
            confidence=(1.0, 0.75, 0.123456789)[i % 3],
            decay_model=("none", "time_linear", "time_exponential")[i % 3],
            summary=f"summary {i}" if i % 2 else None,
            metadata={"language": "pt-BR", "domain": "tests", "n": i},
        )
        provenance = memory.provenance.evolve(
            platform_user_id=f"user-{i}" if i % 2 == 0 else None,
            conversation_ref=("conv-001", "conv/odd id", None)[i % 3],
        )
        memory = memory.evolve(provenance=provenance)
        if status == "superseded":  # replaced by the first memory (active)
            memory = memory.evolve(temporal=memory.temporal.evolve(superseded_by=batch[0].id))
        memories[memory_type] = memory
        batch.append(memory)
    secret = pam_memory(SECRET, exportable=False, platform="claude")
    secret = secret.evolve(provenance=secret.provenance.evolve(conversation_ref="conv-001"))
    memories["secret"] = secret
    batch.append(secret)
    vault.add_memories(batch, now=now)
    ids = [m.id for m in batch[:-1]]
    for i, relation_type in enumerate(RELATION_TYPES):
        confidence = (None, 0.5, 1.0)[i % 3]
        vault.relate(ids[i], ids[i + 1], relation_type, confidence=confidence, now=now)
    vault.relate(ids[0], secret.id, "related_to", now=now)
    vault.relate(secret.id, ids[1], "supports", now=now)
    later = now + timedelta(minutes=1)
    old, new = (
        vault.add("Old address: Porto", "fact", now=later),
        vault.add("New address: Lisbon", "fact", now=later),
    )
    vault.supersede(old.memory.id, new.memory.id, now=later)
    hidden_successor = vault.add("Hidden successor", "fact", exportable=False, now=later)
    pointing = vault.add("Superseded by a hidden memory", "fact", now=later)
    vault.supersede(pointing.memory.id, hidden_successor.memory.id, now=later)
    memories["old"], memories["new"] = old.memory, new.memory
    memories["pointing"] = pointing.memory
    memories["hidden"] = hidden_successor.memory
    vault.put_embedding(
        StoredEmbedding(
            "emb-1", ids[0], "mini-3d", 3, "2026-01-01T00:00:00Z", vector(0.1, -2.5, 3)
        ),
        now=now,
    )
    vault.put_embedding(
        StoredEmbedding(
            "emb-2",
            ids[1],
            "mini-3d",
            3,
            "2026-01-01T00:00:00Z",
            None,
            {"type": "uri", "ref": "s3://v/2"},
        ),
        now=now,
    )
    vault.put_embedding(
        StoredEmbedding(
            "emb-secret", secret.id, "mini-3d", 3, "2026-01-01T00:00:00Z", vector(1, 2, 3)
        ),
        now=now,
    )
    return memories
