"""Rebuild the sample PAM export in examples/ (run from the repository root).

The samples describe one person, Marina, whose memory came from ChatGPT and Claude: every
memory type and status, all six relation types, two conversations and their embeddings.
Content hashes and the integrity checksum are computed, never typed in, so the files stay
valid when the text changes.

    python3 examples/build_examples.py [DIR]

DIR (default: examples/ itself) is where the files are written. memvault computes the hashes:
run with an interpreter that lacks it, the script runs itself again with the repository's
.venv/bin/python (made by `make run` or `make test`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import uuid
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VENV_PYTHON = HERE.parent / ".venv" / "bin" / "python"

try:
    from memvault.canonical import content_hash, integrity_checksum, sha256_prefixed
except ImportError:
    if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV_PYTHON.parent.parent.resolve():
        os.execv(VENV_PYTHON, [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])
    sys.exit(
        "build_examples.py needs memvault: run `make run` (or `make test`) once to create .venv, "
        "then run this again"
    )
OWNER = {
    "id": "3f0b8a52-6c1e-4d0a-9a57-2f5d1c8e7b41",
    "did": None,
    "created_at": "2025-03-02T09:15:00Z",
}
CHATGPT_CONV = "7d1c2e9a-4b3f-4c8e-9f21-0a6b5d4c3e2f"
CLAUDE_CONV = "c2a9e4f1-8d7b-4e6a-b3c5-1f0e9d8c7b6a"

# (id suffix, type, custom_type, status, content, tags, platform, conversation, lang, domain)
MEMORIES: list[tuple[str, str, str | None, str, str, list[str], str, str | None, str, str]] = [
    ("01", "identity", None, "active",
     "User's name is Marina Duarte; she is Brazilian and lives in Lisbon.",
     ["identity", "location"], "chatgpt", CHATGPT_CONV, "en", "personal"),
    ("02", "skill", None, "active",
     "User is a senior data engineer with eight years of experience in Python, SQL and Apache Spark.",
     ["python", "spark", "data-engineering"], "chatgpt", CHATGPT_CONV, "en", "professional"),
    ("03", "preference", None, "active",
     "User prefers concise answers with code examples over long explanations.",
     ["communication", "style"], "claude", CLAUDE_CONV, "en", "personal"),
    ("04", "instruction", None, "active",
     "Responda sempre em português do Brasil quando a pergunta for em português.",
     ["idioma", "communication"], "claude", CLAUDE_CONV, "pt-BR", "personal"),
    ("05", "project", None, "active",
     "User is building an open-source tool that migrates Airflow DAGs to Dagster.",
     ["airflow", "dagster", "open-source"], "chatgpt", CHATGPT_CONV, "en", "technical"),
    ("06", "goal", None, "active",
     "User is training for the Lisbon half marathon in March and wants to finish under 1h50.",
     ["running", "health"], "claude", CLAUDE_CONV, "en", "health"),
    ("07", "relationship", None, "active",
     "A filha da usuária se chama Ana e tem seis anos.",
     ["family"], "claude", CLAUDE_CONV, "pt-BR", "personal"),
    ("08", "environment", None, "active",
     "User works on a Linux laptop with Neovim, Docker and a local PostgreSQL 16.",
     ["linux", "neovim", "docker", "postgresql"], "chatgpt", CHATGPT_CONV, "en", "technical"),
    ("09", "context", None, "deprecated",
     "User is preparing a talk on data contracts for a meetup in November.",
     ["talk", "data-contracts"], "chatgpt", None, "en", "professional"),
    ("10", "fact", None, "superseded",
     "User lives in Berlin.",
     ["location"], "chatgpt", CHATGPT_CONV, "en", "personal"),
    ("11", "fact", None, "active",
     "User moved from Berlin to Lisbon in 2025.",
     ["location"], "claude", CLAUDE_CONV, "en", "personal"),
    ("12", "preference", None, "retracted",
     "User dislikes Portuguese food.",
     ["food"], "chatgpt", None, "en", "personal"),
    ("13", "custom", "decision", "active",
     "User decided to use DuckDB instead of Pandas for local analytics.",
     ["duckdb", "analytics"], "claude", CLAUDE_CONV, "en", "technical"),
    ("14", "skill", None, "archived",
     "Usuária estudou Haskell na faculdade, mas não usa mais.",
     ["haskell"], "manual", None, "pt-BR", "professional"),
]


def memory_id(suffix: str) -> str:
    """A UUID v4 (PAM §4.1) fixed by `suffix`: ids that differ from their first characters,
    as real ones do, so the tables' short id prefixes stay short (a shared 34-character
    prefix made `memvault list` print every id whole, over three lines)."""
    digest = bytearray(hashlib.sha256(f"memvault-example-memory-{suffix}".encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x40  # version 4
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    return str(uuid.UUID(bytes=bytes(digest)))


def build_memories() -> list[dict[str, Any]]:
    memories = []
    for suffix, mtype, custom, status, content, tags, platform, conv, lang, domain in MEMORIES:
        created = f"2025-{int(suffix) % 9 + 1:02d}-{int(suffix) + 3:02d}T10:{int(suffix):02d}:00Z"
        superseded_by = memory_id("11") if suffix == "10" else None
        decay = "none" if mtype in ("identity", "instruction") else "time_linear"
        memories.append(
            {
                "id": memory_id(suffix),
                "type": mtype,
                "custom_type": custom,
                "status": status,
                "content": content,
                "content_hash": content_hash(content),
                "summary": None,
                "tags": tags,
                "confidence": {
                    "initial": 0.9,
                    "current": 0.9 if decay == "none" else 0.82,
                    "decay_model": decay,
                    "last_reinforced": "2025-11-02T18:00:00Z",
                },
                "temporal": {
                    "created_at": created,
                    "updated_at": "2025-11-02T18:00:00Z",
                    "valid_from": created,
                    "valid_until": None,
                    "superseded_by": superseded_by,
                },
                "provenance": {
                    "platform": platform,
                    "platform_user_id": None,
                    "conversation_ref": conv,
                    "message_ref": None,
                    "extraction_method": "manual" if platform == "manual" else "llm_inference",
                    "extracted_at": created,
                    "extractor": "memvault/0.1.0",
                },
                "access": {
                    "visibility": "shared" if mtype == "skill" else "private",
                    "exportable": True,
                    "shared_with": [{"entity": "agent-career-coach", "permissions": ["read"]}]
                    if mtype == "skill"
                    else [],
                },
                "embedding_ref": f"emb-{suffix}",
                "metadata": {"language": lang, "domain": domain},
            }
        )
    return memories


RELATIONS = [
    ("r1", "11", "10", "supersedes", 1.0),
    ("r2", "05", "02", "extends", 0.8),
    ("r3", "03", "04", "supports", 0.7),
    ("r4", "12", "03", "related_to", 0.4),
    ("r5", "13", "02", "derived_from", 0.6),
    ("r6", "11", "01", "contradicts", 0.3),
]


def build_store(memories: list[dict[str, Any]]) -> dict[str, Any]:
    derived: dict[str, list[str]] = {CHATGPT_CONV: [], CLAUDE_CONV: []}
    for memory in memories:
        conv = memory["provenance"]["conversation_ref"]
        if conv:
            derived[conv].append(memory["id"])
    return {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "spec_uri": "https://portable-ai-memory.org/spec/v1.0",
        "export_id": "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9",
        "exported_by": "memvault/0.1.0",
        "export_date": "2025-11-03T08:00:00Z",
        "owner": OWNER,
        "memories": memories,
        "relations": [
            {
                "id": f"4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c{i:02d}",
                "from": memory_id(src),
                "to": memory_id(dst),
                "type": rtype,
                "confidence": conf,
                "created_at": "2025-11-02T18:00:00Z",
            }
            for i, (_, src, dst, rtype, conf) in enumerate(RELATIONS, start=1)
        ],
        "conversations_index": [
            {
                "id": CHATGPT_CONV,
                "platform": "chatgpt",
                "title": "Planning the Airflow to Dagster migration tool",
                "message_count": 4,
                "temporal": {"created_at": "2025-05-10T19:00:00Z", "updated_at": "2025-05-10T19:20:00Z"},
                "tags": ["dagster", "career"],
                "derived_memories": derived[CHATGPT_CONV],
                "storage": {"type": "file", "ref": f"conversations/{CHATGPT_CONV}.json", "format": "json"},
            },
            {
                "id": CLAUDE_CONV,
                "platform": "claude",
                "title": "Treino para a meia maratona",
                "message_count": 2,
                "temporal": {"created_at": "2025-09-14T07:30:00Z", "updated_at": "2025-09-14T07:31:00Z"},
                "tags": ["running"],
                "derived_memories": derived[CLAUDE_CONV],
                "storage": {"type": "file", "ref": f"conversations/{CLAUDE_CONV}.json", "format": "json"},
            },
        ],
        "integrity": {
            "canonicalization": "RFC8785",
            "checksum": integrity_checksum(memories),
            "total_memories": len(memories),
        },
        "export_type": "full",
        "base_export_id": None,
        "since": None,
        "type_registry": "https://portable-ai-memory.org/types/",
        "signature": None,
    }


def message(mid: str, role: str, text: str, at: str, parent: str | None, children: list[str],
            model: str | None) -> dict[str, Any]:
    return {
        "id": mid,
        "provider_message_id": f"prov-{mid}",
        "role": role,
        "content": {"type": "text", "text": text},
        "created_at": at,
        "parent_id": parent,
        "children_ids": children,
        "model": model,
        "is_thought": False,
        "token_count": None,
        "attachments": [],
        "citations": [],
        "tool_calls": [],
        "raw_metadata": {},
    }


def conversation(cid: str, platform: str, title: str, created: str, updated: str,
                 messages: list[dict[str, Any]], version: str) -> dict[str, Any]:
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": cid,
        "provider": {
            "name": platform,
            "conversation_id": f"{platform}-{cid[:8]}",
            "account_id": None,
            "export_format_version": version,
        },
        "title": title,
        "temporal": {"created_at": created, "updated_at": updated},
        "participants": [{"role": "user", "name": "Marina"}, {"role": "assistant", "name": None}],
        "messages": messages,
        "model": messages[-1]["model"],
        "system_instruction": None,
        "is_archived": False,
        "tags": [],
        "raw_metadata": {},
        "import_metadata": {
            "importer": "memvault/0.1.0",
            "importer_version": f"{platform}-importer/2025.11",
            "imported_at": "2025-11-03T07:59:00Z",
            "source_file": "conversations.json",
            # Stands in for the checksum of the provider's export file these came from.
            "source_checksum": sha256_prefixed(f"{platform}-export-{cid}".encode()),
        },
    }


def build_conversations() -> list[dict[str, Any]]:
    chatgpt = [
        message("m1", "user", "I'm a data engineer and I'm building a tool to move Airflow DAGs to Dagster. Where do I start?",
                "2025-05-10T19:00:00Z", None, ["m2"], None),
        message("m2", "assistant", "Start by mapping operators to Dagster ops and assets; sensors become Dagster sensors.",
                "2025-05-10T19:01:00Z", "m1", ["m3", "m3b"], "gpt-4o"),
        message("m3", "user", "I work on Linux with Neovim and Docker, if that matters.",
                "2025-05-10T19:05:00Z", "m2", [], None),
        message("m3b", "user", "I use Linux, Neovim and Docker with a local PostgreSQL 16.",
                "2025-05-10T19:06:00Z", "m2", [], None),
    ]
    claude = [
        message("c1", "user", "Estou treinando para a meia maratona de Lisboa e quero terminar em menos de 1h50.",
                "2025-09-14T07:30:00Z", None, ["c2"], None),
        message("c2", "assistant", "Ótimo objetivo! Um plano de 12 semanas com três treinos por semana funciona bem.",
                "2025-09-14T07:31:00Z", "c1", [], "claude-sonnet-4"),
    ]
    return [
        conversation(CHATGPT_CONV, "chatgpt", "Planning the Airflow to Dagster migration tool",
                     "2025-05-10T19:00:00Z", "2025-05-10T19:20:00Z", chatgpt, "2025-05"),
        conversation(CLAUDE_CONV, "claude", "Treino para a meia maratona",
                     "2025-09-14T07:30:00Z", "2025-09-14T07:31:00Z", claude, "2025-09"),
    ]


def build_embeddings(memories: list[dict[str, Any]]) -> dict[str, Any]:
    embeddings = []
    for n, memory in enumerate(memories):
        vector = [round(((n * 7 + k * 3) % 17 - 8) / 40, 4) for k in range(8)]
        embeddings.append(
            {
                "id": memory["embedding_ref"],
                "memory_id": memory["id"],
                "model": "example-model-8d",
                "dimensions": 8,
                "created_at": "2025-11-03T07:59:30Z",
                "vector": vector,
                "storage": None,
            }
        )
    return {"schema": "portable-ai-memory-embeddings", "schema_version": "1.0", "embeddings": embeddings}


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(out: Path = HERE) -> None:
    memories = build_memories()
    store = build_store(memories)
    export = out / "export"
    shutil.rmtree(export, ignore_errors=True)
    write(export / "memory-store.json", store)
    for conv in build_conversations():
        write(export / "conversations" / f"{conv['id']}.json", conv)
    write(export / "embeddings.json", build_embeddings(memories))
    # A lone memory-store carries no embeddings, so embedding_ref must be null (§12.1).
    lone = [dict(m, embedding_ref=None) for m in memories]
    lone_store = build_store(lone)
    lone_store["conversations_index"] = [
        {k: v for k, v in entry.items() if k != "storage"} for entry in lone_store["conversations_index"]
    ]
    write(out / "memory-store.json", lone_store)
    with zipfile.ZipFile(out / "export.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(export.rglob("*.json")):
            # A fixed timestamp keeps the archive byte-identical between rebuilds.
            info = zipfile.ZipInfo(f"export/{path.relative_to(export).as_posix()}", (2025, 11, 3, 8, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
