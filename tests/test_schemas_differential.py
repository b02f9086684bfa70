"""memvault's own PAM schemas give the same verdict as the official ones (PAM Appendix B).

memvault validates with `src/memvault/formats/pam/schemas/*.json`, written from the spec and
annotated with `x-pam-section` so errors can cite the spec. The DESIGN promise is that those
schemas accept exactly the documents the official schemas (from the `portable-ai-memory` package)
accept. This file holds them to it, for each of the three document kinds, on

(a) the official examples,
(b) the repository's examples (examples/memory-store.json, examples/export/*),
(c) a deterministic catalogue of mutations of a "rich" document that carries every member the
    schema defines (delete every member, null it, change its type, unknown members at every
    level, empty strings, empty arrays, duplicated array items, field-specific bad and good
    values for every pattern / enum / format / range, the §5.1 custom_type rule, the §18.3
    signature rule), and
(d) Hypothesis-driven random chains of such mutations over every base document.

Oracles, all on Draft 2020-12 with `format` asserted:

* jsonschema-rs + our schema (what memvault uses),
* jsonschema-rs + the official schema,
* the pure-Python `jsonschema` + the official schema (second, independent implementation),
* memvault's own entry points (`validate_document`, and for memory stores the split the
  streaming validator uses: the header with `memories: []` plus `validate_memories`).

Our schema must agree with the official one *always*. The Python library is compared wherever
it agrees with jsonschema-rs in principle; the two libraries disagree on a few edge cases,
listed in `LIBRARY_DISAGREEMENTS` and pinned by `test_known_library_disagreements`, and
documents that contain such a value are left out of the three-way comparison (they are still
compared ours-vs-official on jsonschema-rs):

* **trailing newline** — the schemas' patterns end in `$`. Python's `re.search` lets `$` match
  before a final "\\n"; ECMA-262 (the dialect JSON Schema names) and jsonschema-rs do not. So
  `"sha256:<64 hex>\\n"`, `"chatgpt\\n"`, `"en\\n"`... pass in Python and fail in Rust. The same
  holds for `date-time` (rfc3339-validator uses a `$`-anchored regex) and `uri`
  (rfc3986-validator likewise).
* **leap second** — RFC 3339 §5.6 allows `second = 60`; jsonschema-rs accepts
  `23:59:60` (UTC-normalised); rfc3339-validator rejects every second 60.
* **year 0000** — RFC 3339 allows year 0000; jsonschema-rs accepts it, rfc3339-validator
  rejects it (it goes through Python's `datetime`, whose years start at 1).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema  # type: ignore[import-untyped]
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.formats.pam import schema as pam_schema
from official import OFFICIAL_EXAMPLES, OFFICIAL_SCHEMAS

REPO: Final = Path(__file__).resolve().parents[1]
KINDS: Final = ("memory-store", "conversation", "embeddings")
OFFICIAL_SCHEMA: Final = {
    "memory-store": "portable-ai-memory.schema.json",
    "conversation": "portable-ai-memory-conversation.schema.json",
    "embeddings": "portable-ai-memory-embeddings.schema.json",
}
OFFICIAL_EXAMPLE: Final = {
    "memory-store": "example-memory-store.json",
    "conversation": "example-conversation.json",
    "embeddings": "example-embeddings.json",
}

Path_ = tuple[str | int, ...]
JSON = Any


# ---------------------------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------------------------


def _read(path: Path) -> JSON:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def official_schema(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = _read(OFFICIAL_SCHEMAS / OFFICIAL_SCHEMA[kind])
    return schema


@cache
def ours_rs(kind: str) -> Any:
    return jsonschema_rs.validator_for(pam_schema.load_schema(kind), validate_formats=True)


@cache
def official_rs(kind: str) -> Any:
    return jsonschema_rs.validator_for(official_schema(kind), validate_formats=True)


@cache
def official_py(kind: str) -> jsonschema.Draft202012Validator:
    cls = jsonschema.Draft202012Validator
    return cls(official_schema(kind), format_checker=cls.FORMAT_CHECKER)


def memvault_verdicts(kind: str, doc: JSON) -> tuple[bool, bool]:
    """(whole-document verdict, streaming-split verdict) of memvault's own entry points."""
    whole = not pam_schema.validate_document(kind, doc)
    split = whole
    if kind == "memory-store" and isinstance(doc, dict) and isinstance(doc.get("memories"), list):
        header = {**doc, "memories": []}
        memories = doc["memories"]
        split = not pam_schema.validate_document(kind, header) and not (
            pam_schema.validate_memories(memories[:1], 0)
            or pam_schema.validate_memories(memories[1:], 1)
        )
    return whole, split


_LEAP_SECOND = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:60")


def divergence(doc: JSON) -> str | None:
    """The library-disagreement class of a document, if it holds a value of one."""
    for value in _strings(doc):
        if value.endswith("\n"):
            return "trailing-newline"
        if _LEAP_SECOND.search(value):
            return "leap-second"
        if value.startswith("0000-"):
            return "year-zero"
    return None


def _strings(value: JSON) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


class Verdicts:
    """Collects disagreements over many documents and reports them all at once."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.count = 0
        self.valid = 0
        self.python_compared = 0
        self.python_skipped: dict[str, int] = {}
        self.mismatches: list[str] = []

    def check(self, label: str, doc: JSON) -> bool:
        self.count += 1
        official = bool(official_rs(self.kind).is_valid(doc))
        ours = bool(ours_rs(self.kind).is_valid(doc))
        self.valid += official
        problems = []
        if ours != official:
            problems.append(f"ours={ours} official={official}")
        whole, split = memvault_verdicts(self.kind, doc)
        if whole != official:
            problems.append(f"validate_document={whole} official={official}")
        if split != official:
            problems.append(f"split validation={split} official={official}")
        cls = divergence(doc)
        if cls is None:
            self.python_compared += 1
            python = official_py(self.kind).is_valid(doc)
            if python != official:
                problems.append(f"jsonschema={python} jsonschema-rs={official}")
        else:
            self.python_skipped[cls] = self.python_skipped.get(cls, 0) + 1
        if problems:
            self.mismatches.append(f"{label}: {'; '.join(problems)}")
        return official

    def assert_agree(self) -> None:
        shown = "\n  ".join(self.mismatches[:40])
        assert not self.mismatches, (
            f"{len(self.mismatches)} disagreements ({self.kind}):\n  {shown}"
        )


# ---------------------------------------------------------------------------------------------
# Base documents
# ---------------------------------------------------------------------------------------------

HASH: Final = "sha256:" + "0123456789abcdef" * 4
TS: Final = "2026-02-15T22:00:00Z"


def rich_store() -> dict[str, Any]:
    """A memory store that carries every member the schema defines, each non-null."""

    def memory(n: int, type_: str, custom_type: str | None) -> dict[str, Any]:
        """Every member present."""
        return {
            "id": f"mem-{n}",
            "type": type_,
            "custom_type": custom_type,
            "status": "active",
            "content": "Usuário prefere café sem açúcar ☕",
            "content_hash": HASH,
            "summary": "café",
            "tags": ["coffee", "food-and-drink"],
            "confidence": {
                "initial": 0.9,
                "current": 0.85,
                "decay_model": "time_linear",
                "last_reinforced": TS,
            },
            "temporal": {
                "created_at": "2024-06-01T10:00:00Z",
                "updated_at": "2025-01-01T10:00:00+01:00",
                "valid_from": "2024-06-01T10:00:00Z",
                "valid_until": "2030-01-01T00:00:00.5Z",
                "superseded_by": "mem-9",
            },
            "provenance": {
                "platform": "chatgpt",
                "platform_user_id": "user-1",
                "conversation_ref": "conv-1",
                "message_ref": "msg-1",
                "extraction_method": "llm_inference",
                "extracted_at": TS,
                "extractor": "memvault/0.1.0",
            },
            "access": {
                "visibility": "shared",
                "exportable": True,
                "shared_with": [{"entity": "agent-1", "permissions": ["read", "write"]}],
            },
            "embedding_ref": "emb-1",
            "metadata": {"language": "pt-BR", "domain": "personal", "pinned": True},
        }

    return {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "spec_uri": "https://portable-ai-memory.org/spec/v1.0",
        "export_id": "e47ac10b-58cc-4372-a567-0e02b2c3d479",
        "exported_by": "memvault/0.1.0",
        "export_date": TS,
        "owner": {
            "id": "550e8400-e29b-41d4-a716-446655440000",
            "did": "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
            "created_at": "2024-06-01T10:00:00Z",
        },
        "memories": [
            memory(1, "preference", None),
            {
                "id": "mem-2",
                "type": "custom",
                "custom_type": "decision",
                "content": "Use PostgreSQL for the server build 🐘",
                "content_hash": HASH,
                "temporal": {"created_at": "2025-01-01T00:00:00Z"},
                "provenance": {"platform": "claude"},
            },
        ],
        "relations": [
            {
                "id": "rel-1",
                "from": "mem-1",
                "to": "mem-2",
                "type": "supports",
                "confidence": 0.5,
                "created_at": TS,
            }
        ],
        "conversations_index": [
            {
                "id": "conv-1",
                "platform": "chatgpt",
                "title": "Café",
                "message_count": 2,
                "temporal": {"created_at": TS, "updated_at": TS},
                "tags": ["coffee", "food"],
                "derived_memories": ["mem-1", "mem-2"],
                "storage": {"type": "file", "ref": "conversations/conv-1.json", "format": "json"},
            }
        ],
        "integrity": {"canonicalization": "RFC8785", "checksum": HASH, "total_memories": 2},
        "export_type": "incremental",
        "base_export_id": "e47ac10b-58cc-4372-a567-0e02b2c3d470",
        "since": "2026-01-01T00:00:00Z",
        "type_registry": "https://portable-ai-memory.org/types/",
        "signature": {
            "algorithm": "Ed25519",
            "public_key": "z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
            "value": "c2lnbmF0dXJl",
            "signed_at": "2026-02-15T22:00:01Z",
            "key_id": "did:key:z6Mk#z6Mk",
        },
    }


def rich_conversation() -> dict[str, Any]:
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": "conv-1",
        "provider": {
            "name": "chatgpt",
            "conversation_id": "c-1",
            "account_id": "acct-1",
            "export_format_version": "2025-01-export",
        },
        "title": "Férias em Lisboa 🏖️",
        "temporal": {"created_at": TS, "updated_at": "2026-02-16T08:00:00.25-03:00"},
        "participants": [{"role": "user", "name": "Ana", "provider_id": "u-1"}],
        "messages": [
            {
                "id": "msg-1",
                "provider_message_id": "p-1",
                "role": "user",
                "content": {
                    "type": "multipart",
                    "text": "Olá",
                    "parts": [
                        {
                            "type": "code",
                            "text": "print(1)",
                            "language": "python",
                            "mime_type": "text/x-python",
                            "ref": "files/a.py",
                        }
                    ],
                },
                "created_at": TS,
                "parent_id": "msg-0",
                "children_ids": ["msg-2", "msg-3"],
                "model": "gpt-4o",
                "is_thought": False,
                "token_count": 3,
                "attachments": [
                    {
                        "type": "image",
                        "name": "a.png",
                        "mime_type": "image/png",
                        "size_bytes": 10,
                        "ref": "files/a.png",
                        "provider_id": "f-1",
                    }
                ],
                "citations": [
                    {"title": "PAM", "url": "https://portable-ai-memory.org/", "snippet": "…"}
                ],
                "tool_calls": [
                    {"id": "t-1", "name": "search", "input": {"q": "x"}, "output": "ok"}
                ],
                "raw_metadata": {"starred": True},
            }
        ],
        "model": "gpt-4o",
        "system_instruction": "Seja breve.",
        "is_archived": False,
        "tags": ["travel", "lisbon"],
        "raw_metadata": {"gizmo_id": None},
        "import_metadata": {
            "importer": "memvault/0.1.0",
            "importer_version": "chatgpt-importer/2025.01",
            "imported_at": TS,
            "source_file": "conversations.json",
            "source_checksum": HASH,
        },
    }


def rich_embeddings() -> dict[str, Any]:
    return {
        "schema": "portable-ai-memory-embeddings",
        "schema_version": "1.0",
        "embeddings": [
            {
                "id": "emb-1",
                "memory_id": "mem-1",
                "model": "all-MiniLM-L6-v2",
                "dimensions": 3,
                "created_at": TS,
                "vector": [0.1, -0.2, 1e-7],
                "storage": {"type": "vector_db", "ref": "collection/mem-1"},
            },
            {
                "id": "emb-2",
                "memory_id": "mem-2",
                "model": "text-embedding-3-small",
                "dimensions": 1536,
                "created_at": "2026-02-15T22:01:00.000+00:00",
                "vector": None,
                "storage": {"type": "file", "ref": "vectors/mem-2.npy"},
            },
            {
                "id": "emb-3",
                "memory_id": "mem-3",
                "model": "nomic-embed-text-v1.5",
                "dimensions": 768,
                "created_at": "2026-02-15T22:01:00+01:00",
            },
        ],
    }


RICH: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "memory-store": rich_store,
    "conversation": rich_conversation,
    "embeddings": rich_embeddings,
}


def official_examples(kind: str) -> list[tuple[str, JSON]]:
    name = OFFICIAL_EXAMPLE[kind]
    return [(f"official {name}", _read(OFFICIAL_EXAMPLES / name))]


def repo_examples(kind: str) -> list[tuple[str, JSON]]:
    paths = {
        "memory-store": [
            REPO / "examples" / "memory-store.json",
            REPO / "examples" / "export" / "memory-store.json",
        ],
        "conversation": sorted((REPO / "examples" / "export" / "conversations").glob("*.json")),
        "embeddings": [REPO / "examples" / "export" / "embeddings.json"],
    }[kind]
    return [(str(p.relative_to(REPO)), _read(p)) for p in paths]


@cache
def _bases(kind: str) -> tuple[str, ...]:
    docs = [RICH[kind](), *(doc for _, doc in [*official_examples(kind), *repo_examples(kind)])]
    return tuple(json.dumps(_shortened(doc)) for doc in docs)


def _shortened(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with its top-level arrays cut to three items and vectors to four numbers,
    so the pure-Python oracle keeps up with Hypothesis (whole files are checked above)."""
    out = {k: v[:3] if isinstance(v, list) else v for k, v in doc.items()}
    for item in out.get("embeddings", []):
        if isinstance(item.get("vector"), list):
            item["vector"] = item["vector"][:4]
    return out


def bases(kind: str) -> list[JSON]:
    """Fresh copies of the rich document, the official example and the repository's examples."""
    return [json.loads(text) for text in _bases(kind)]


# ---------------------------------------------------------------------------------------------
# Mutation catalogue
# ---------------------------------------------------------------------------------------------


def nodes(value: JSON, path: Path_ = ()) -> Iterator[tuple[Path_, JSON]]:
    """Every (path, value) in a document, the root included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, (*path, index))


def get_at(doc: JSON, path: Path_) -> JSON:
    for step in path:
        doc = doc[step]
    return doc


def set_at(doc: JSON, path: Path_, value: JSON) -> JSON:
    if not path:
        return copy.deepcopy(value)
    out = copy.deepcopy(doc)
    get_at(out, path[:-1])[path[-1]] = copy.deepcopy(value)
    return out


def delete_at(doc: JSON, path: Path_) -> JSON:
    out = copy.deepcopy(doc)
    del get_at(out, path[:-1])[path[-1]]
    return out


def field_name(path: Path_) -> str | None:
    """The member name a value sits under: "tags" for tags, "tags[]" for a tag."""
    if not path:
        return None
    if isinstance(path[-1], str):
        return path[-1]
    if len(path) >= 2 and isinstance(path[-2], str):
        return f"{path[-2]}[]"
    return None


TYPE_SAMPLES: Final[tuple[JSON, ...]] = (0, -1, 2.5, True, "", "x", [], {}, None)

DATE_TIMES: Final = (
    "2026-02-15T22:00:00Z",
    "2026-02-15t22:00:00z",
    "2026-02-15T22:00:00.123456789+05:30",
    "2026-02-15T22:00:00-00:00",
    "2026-02-15T22:00:00+23:59",
    "2024-02-29T00:00:00Z",
    "2026-02-15 22:00:00Z",
    "2026-02-15T22:00:00",
    "2026-02-15",
    "22:00:00Z",
    "2026-02-30T22:00:00Z",
    "2023-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-02-15T24:00:00Z",
    "2026-02-15T22:60:00Z",
    "2026-02-15T22:00:61Z",
    "2026-02-15T22:00:00+24:00",
    "2026-02-15T22:00:00+0530",
    "2026-02-15T22:00:00.Z",
    "2026-02-15T22:00:00,5Z",
    "20260215T220000Z",
    "2026-W07-1T22:00:00Z",
    "１９７０-01-01T00:00:00Z",
    "yesterday",
    "1771192800",
    # library disagreements, see the module docstring
    "2016-12-31T23:59:60Z",
    "0000-01-01T00:00:00Z",
    "2026-02-15T22:00:00Z\n",
)
URIS: Final = (
    "https://portable-ai-memory.org/spec/v1.0",
    "urn:pam:spec:v1.0",
    "mailto:owner@example.org",
    "x:",
    "HTTPS://EXAMPLE.ORG",
    "file:///tmp/spec",
    "https://[::1]:8080/",
    "https://a/%41",
    "portable-ai-memory.org/spec",
    "/spec/v1.0",
    "//example.org/spec",
    "https://exa mple.org",
    "https://example.org/ação",
    "https://a/%zz",
    "https://a/b#c#d",
    "https://a:port/",
    "https://a/{x}",
    "1https://a",
    "https://example.org/\n",
)
PLATFORMS: Final = (
    "chatgpt",
    "ab",
    "claude_2",
    "my-assistant",
    "00",
    "x" * 32,
    "a",
    "x" * 33,
    "ChatGPT",
    "chat gpt",
    "chat.gpt",
    "çhat",
    "chatgpt\n",
)
TAG_VALUES: Final = (
    "ok",
    "a",
    "0day",
    "a-b_c",
    "-lead",
    "_lead",
    "Upper",
    "with space",
    "ação",
    "emoji🙂",
    "",
    "tag\n",
)
HASHES: Final = (
    HASH,
    "sha256:" + "f" * 64,
    "sha256:" + "A" * 64,
    "sha256:" + "a" * 63,
    "sha256:" + "a" * 65,
    "sha256:" + "g" * 64,
    "SHA256:" + "a" * 64,
    "sha1:" + "a" * 40,
    "a" * 64,
    " " + HASH,
    HASH + "\n",
)
SYSTEM_VERSIONS: Final = (
    "gines/0.5.0",
    "Mem_Vault-2/10.20.30",
    "memvault/1.2",
    "memvault/1.2.3-rc1",
    "memvault/v1.2.3",
    "mem vault/1.2.3",
    "/1.2.3",
    "memvault",
    "memvault/1.2.3/4",
    "memvault/1.2.3\n",
)
DIDS: Final = (
    "did:key:z6Mk",
    "did:web:example.com:user:alice",
    "did:pkh:eip155:1:0xab16a96D",
    "did:key:ação",
    "did:KEY:z6Mk",
    "DID:key:z6Mk",
    "did:key:",
    "did::z6Mk",
    "did:key",
    "did:key:z6Mk\n",
)
LANGUAGES: Final = (
    "en",
    "pt-BR",
    "zh-Hans",
    "zh-Hant-TW",
    "fil",
    "EN",
    "pt-br",
    "pt_BR",
    "e",
    "engl",
    "es-419",
    "zh-hans",
    "en-US-x",
    "pt-BR\n",
)
SCORES: Final = (0, 1, 0.0, 1.0, 0.5, 1e-7, -0.0, -1e-9, 1.0000001, 2, -1, "0.5")
COUNTS: Final = (0, 1, 1.0, 10**12, 2**53, -1, 1.5, -0.5, "1")
VERSIONS: Final = (
    "1.0",
    "1.1",
    "2.0",
    "10.20",
    "1.0-rc1",
    "1.0-beta",
    "1.0-alpha12",
    "1",
    "1.0.0",
    "v1.0",
    "1.0-rc-1",
    "1.0-gamma",
    "1.0\n",
)
TYPES: Final = (
    # memory types
    "fact",
    "preference",
    "skill",
    "context",
    "relationship",
    "goal",
    "instruction",
    "identity",
    "environment",
    "project",
    "custom",
    # relation, storage, content, part, attachment types
    "supports",
    "derived_from",
    "file",
    "vector_db",
    "uri",
    "text",
    "multipart",
    "image",
    "code",
    "document",
    # no such type anywhere
    "Fact",
    "facts",
    "decision",
)

#: Candidate values by member name ("name[]" for the items of an array member).
POOLS: Final[dict[str, tuple[JSON, ...]]] = {
    "schema": (
        "portable-ai-memory",
        "portable-ai-memory-conversation",
        "portable-ai-memory-embeddings",
        "Portable-AI-Memory",
    ),
    "schema_version": VERSIONS,
    "spec_uri": URIS,
    "type_registry": URIS,
    "url": URIS,
    "exported_by": SYSTEM_VERSIONS,
    "extractor": SYSTEM_VERSIONS,
    "importer": SYSTEM_VERSIONS,
    "export_date": DATE_TIMES,
    "since": DATE_TIMES,
    "created_at": DATE_TIMES,
    "updated_at": DATE_TIMES,
    "valid_from": DATE_TIMES,
    "valid_until": DATE_TIMES,
    "extracted_at": DATE_TIMES,
    "last_reinforced": DATE_TIMES,
    "signed_at": DATE_TIMES,
    "imported_at": DATE_TIMES,
    "did": DIDS,
    "platform": PLATFORMS,
    "name": PLATFORMS,
    "tags[]": TAG_VALUES,
    "content_hash": HASHES,
    "checksum": HASHES,
    "source_checksum": HASHES,
    "language": LANGUAGES,
    "initial": SCORES,
    "current": SCORES,
    "confidence": SCORES,
    "total_memories": COUNTS,
    "message_count": COUNTS,
    "token_count": COUNTS,
    "size_bytes": COUNTS,
    "dimensions": COUNTS,
    "type": TYPES,
    "status": ("active", "superseded", "deprecated", "retracted", "archived", "Active", "deleted"),
    "visibility": ("private", "shared", "public", "Private", "team"),
    "exportable": (True, False, "false", 0),
    "decay_model": ("time_linear", "time_exponential", "none", "linear", "None"),
    "extraction_method": (
        "llm_inference",
        "explicit_user_input",
        "api_export",
        "browser_extraction",
        "manual",
        "import",
    ),
    "permissions[]": ("read", "write", "delete", "admin", "READ"),
    "role": ("user", "assistant", "system", "tool", "human", "Assistant"),
    "algorithm": ("Ed25519", "ES256", "ES384", "RS256", "RS384", "RS512", "ed25519", "EdDSA"),
    "canonicalization": ("RFC8785", "rfc8785", "JCS"),
    "export_type": ("full", "incremental", "delta", "Full"),
    "is_thought": (True, False, "false"),
    "is_archived": (True, False, 1),
    "input": ({}, {"a": [1]}, "q=x", [], 1),
    "vector[]": (0.1, 0, -1e-300, 1e308, "0.1", True),
    "derived_memories[]": ("mem-x", "", 1),
    "children_ids[]": ("msg-x", "", 1),
}

#: The kinds of mutation, each a generator of (label, document).
Mutator = Callable[[JSON], Iterator[tuple[str, JSON]]]


def _members(doc: JSON) -> Iterator[tuple[Path_, JSON]]:
    return ((path, value) for path, value in nodes(doc) if path)


def mutate_delete(doc: JSON) -> Iterator[tuple[str, JSON]]:
    for path, _ in _members(doc):
        yield f"delete {path}", delete_at(doc, path)


def mutate_retype(doc: JSON) -> Iterator[tuple[str, JSON]]:
    """Each value becomes null and two other seeded-random JSON values of other types."""
    for path, value in nodes(doc):
        others = [s for s in TYPE_SAMPLES[:-1] if type(s) is not type(value)]
        for sample in (None, *random.Random(repr(path)).sample(others, 2)):
            if value is not None or sample is not None:
                yield f"retype {path} -> {sample!r}", set_at(doc, path, sample)


def mutate_unknown_member(doc: JSON) -> Iterator[tuple[str, JSON]]:
    for path, value in nodes(doc):
        if isinstance(value, dict):
            for key in ("x_later_pam", "platform", "id", ""):
                if key not in value:
                    yield f"unknown member {key!r} at {path}", set_at(doc, (*path, key), {"v": 1})


def mutate_empty(doc: JSON) -> Iterator[tuple[str, JSON]]:
    for path, value in _members(doc):
        if isinstance(value, str) and value:
            yield f"empty string at {path}", set_at(doc, path, "")
        elif isinstance(value, list) and value:
            yield f"empty array at {path}", set_at(doc, path, [])


def mutate_duplicate_item(doc: JSON) -> Iterator[tuple[str, JSON]]:
    for path, value in _members(doc):
        if isinstance(value, list) and value:
            yield f"duplicate item in {path}", set_at(doc, path, [*value, value[0]])


def mutate_pools(doc: JSON) -> Iterator[tuple[str, JSON]]:
    for path, value in _members(doc):
        for candidate in POOLS.get(field_name(path) or "", ()):
            if candidate != value or type(candidate) is not type(value):
                yield f"set {path} = {candidate!r}", set_at(doc, path, candidate)


_ABSENT: Final = object()


def mutate_custom_type_rule(doc: JSON) -> Iterator[tuple[str, JSON]]:
    """PAM §5.1: every (type, custom_type) pairing on every memory."""
    if not isinstance(doc, dict) or not isinstance(doc.get("memories"), list):
        return
    types = ("custom", "fact", "preference", "Custom", _ABSENT)
    custom_types = (_ABSENT, None, "", "decision", "Decision with spaces", 5, ["x"])
    for index, memory in enumerate(doc["memories"][:2]):
        for type_, custom in itertools.product(types, custom_types):
            changed = {k: v for k, v in memory.items() if k not in ("type", "custom_type")}
            if type_ is not _ABSENT:
                changed["type"] = type_
            if custom is not _ABSENT:
                changed["custom_type"] = custom
            yield (
                f"memories[{index}] type={type_!r} custom_type={custom!r}",
                set_at(doc, ("memories", index), changed),
            )


def mutate_signature_rule(doc: JSON) -> Iterator[tuple[str, JSON]]:
    """PAM §18.3: a signature needs export_id and export_date, present and non-null."""
    if not isinstance(doc, dict) or doc.get("schema") != "portable-ai-memory":
        return
    signature = {"algorithm": "ES256", "public_key": "k", "value": "v", "signed_at": TS}
    signatures: tuple[JSON, ...] = (_ABSENT, None, signature, {}, [], "sig")
    export_ids = (_ABSENT, None, "e47ac10b-58cc-4372-a567-0e02b2c3d479", "")
    export_dates = (_ABSENT, None, TS, "not a date")
    for sig, export_id, export_date in itertools.product(signatures, export_ids, export_dates):
        changed = {
            k: v for k, v in doc.items() if k not in ("signature", "export_id", "export_date")
        }
        for key, value in (
            ("signature", sig),
            ("export_id", export_id),
            ("export_date", export_date),
        ):
            if value is not _ABSENT:
                changed[key] = copy.deepcopy(value)
        label = f"signature={sig!r} export_id={export_id!r} export_date={export_date!r}"
        yield label, changed


MUTATORS: Final[dict[str, Mutator]] = {
    "delete": mutate_delete,
    "retype": mutate_retype,
    "unknown-member": mutate_unknown_member,
    "empty": mutate_empty,
    "duplicate-item": mutate_duplicate_item,
    "pools": mutate_pools,
    "custom-type-rule": mutate_custom_type_rule,
    "signature-rule": mutate_signature_rule,
}


# ---------------------------------------------------------------------------------------------
# (a), (b): the examples
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_official_and_repository_examples_are_valid_for_every_oracle(kind: str) -> None:
    verdicts = Verdicts(kind)
    for label, doc in [*official_examples(kind), *repo_examples(kind), ("rich", RICH[kind]())]:
        assert verdicts.check(label, doc), f"{label} should be valid"
    verdicts.assert_agree()
    assert verdicts.python_compared == verdicts.count


# ---------------------------------------------------------------------------------------------
# (c): the deterministic catalogue
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_mutation_catalogue_verdicts_agree(kind: str) -> None:
    verdicts = Verdicts(kind)
    by_class: dict[str, list[int]] = {}
    base = RICH[kind]()
    for name, mutator in MUTATORS.items():
        tally = by_class.setdefault(name, [0, 0])
        for label, doc in mutator(base):
            tally[verdicts.check(f"[{name}] {label}", doc)] += 1
    verdicts.assert_agree()

    assert verdicts.count >= 300, verdicts.count
    # The catalogue must exercise both sides of the line, not just break everything.
    assert verdicts.valid >= 50, (verdicts.valid, verdicts.count)
    both_ways = ["delete", "retype", "pools"]
    if kind == "memory-store":
        both_ways += ["custom-type-rule", "signature-rule", "duplicate-item"]
    for name in both_ways:
        assert min(by_class[name]) > 0, (name, "[invalid, valid] =", by_class[name])
    # Unknown members are accepted only in the open blocks (metadata, raw_metadata, tool input).
    rejected, accepted = by_class["unknown-member"]
    assert rejected > 0 and (accepted > 0) is (kind != "embeddings"), by_class["unknown-member"]
    # Python stays a real second oracle: most documents are compared three ways.
    assert verdicts.python_compared >= 0.9 * verdicts.count, verdicts.python_skipped


@pytest.mark.parametrize(
    ("type_", "custom_type", "valid"),
    [
        ("custom", "decision", True),
        ("custom", _ABSENT, False),
        ("custom", None, False),
        ("custom", "", False),
        ("custom", 5, False),
        ("fact", None, True),
        ("fact", _ABSENT, True),
        ("fact", "decision", False),
        ("fact", "", False),
        ("fact", 5, False),
    ],
)
def test_pam_5_1_every_oracle_implements_the_custom_type_rule(
    type_: str, custom_type: JSON, valid: bool
) -> None:
    """IF type == "custom" THEN custom_type MUST be a non-empty string, ELSE null (§5.1)."""
    doc = rich_store()
    memory = doc["memories"][0]
    memory["type"] = type_
    memory.pop("custom_type")
    if custom_type is not _ABSENT:
        memory["custom_type"] = custom_type
    assert ours_rs("memory-store").is_valid(doc) is valid
    assert official_rs("memory-store").is_valid(doc) is valid
    assert official_py("memory-store").is_valid(doc) is valid
    assert memvault_verdicts("memory-store", doc) == (valid, valid)


def test_pam_18_3_every_oracle_implements_the_signature_rule() -> None:
    """A signature (not null) needs export_id and export_date present and non-null (§18.3);
    without one, export_id may be null but export_date is still a date-time string (§3.2)."""
    for label, doc in mutate_signature_rule(rich_store()):
        signature = doc.get("signature", _ABSENT)
        export_id, export_date = doc.get("export_id", _ABSENT), doc.get("export_date", _ABSENT)
        date_ok = export_date is _ABSENT or export_date == TS
        if signature is _ABSENT or signature is None:
            valid = date_ok
        elif isinstance(signature, dict) and signature:
            valid = isinstance(export_id, str) and export_date == TS
        else:
            valid = False
        assert ours_rs("memory-store").is_valid(doc) is valid, label
        assert official_rs("memory-store").is_valid(doc) is valid, label
        assert official_py("memory-store").is_valid(doc) is valid, label


# ---------------------------------------------------------------------------------------------
# Library disagreements, pinned
# ---------------------------------------------------------------------------------------------

#: (kind, path, value, jsonschema-rs verdict, jsonschema verdict); see the module docstring.
LIBRARY_DISAGREEMENTS: Final = (
    ("memory-store", ("memories", 0, "content_hash"), HASH + "\n", False, True),
    ("memory-store", ("memories", 0, "tags", 0), "coffee\n", False, True),
    ("memory-store", ("memories", 0, "provenance", "platform"), "chatgpt\n", False, True),
    ("memory-store", ("owner", "did"), "did:key:z6Mk\n", False, True),
    ("memory-store", ("memories", 0, "metadata", "language"), "en\n", False, True),
    ("memory-store", ("exported_by",), "memvault/0.1.0\n", False, True),
    ("memory-store", ("export_date",), TS + "\n", False, True),
    ("memory-store", ("spec_uri",), "https://portable-ai-memory.org/\n", False, True),
    ("memory-store", ("export_date",), "2016-12-31T23:59:60Z", True, False),
    ("memory-store", ("export_date",), "2016-12-31T15:59:60-08:00", True, False),
    ("memory-store", ("export_date",), "0000-01-01T00:00:00Z", True, False),
    ("conversation", ("provider", "name"), "claude\n", False, True),
    ("conversation", ("messages", 0, "citations", 0, "url"), "https://a.example/\n", False, True),
    ("embeddings", ("embeddings", 0, "created_at"), "2016-12-31T23:59:60Z", True, False),
)


@pytest.mark.parametrize(
    ("kind", "path", "value", "rust", "python"),
    LIBRARY_DISAGREEMENTS,
    ids=[f"{k}:{'.'.join(map(str, p))}={v!r}" for k, p, v, _, _ in LIBRARY_DISAGREEMENTS],
)
def test_known_library_disagreements(
    kind: str, path: Path_, value: str, rust: bool, python: bool
) -> None:
    """jsonschema-rs and jsonschema disagree here; our schema sides with jsonschema-rs (which
    memvault uses), exactly as the official schema does under jsonschema-rs. If this starts
    failing, a library changed: update the docstring above and `divergence`."""
    doc = set_at(RICH[kind](), path, value)
    assert divergence(doc) is not None
    assert official_rs(kind).is_valid(doc) is rust
    assert ours_rs(kind).is_valid(doc) is rust
    assert official_py(kind).is_valid(doc) is python


# ---------------------------------------------------------------------------------------------
# (d): Hypothesis — random chains of mutations over every base document
# ---------------------------------------------------------------------------------------------

_PATTERNS: Final = (
    r"^[a-z0-9_-]{2,32}$",
    r"^[a-z0-9][a-z0-9_-]*$",
    r"^sha256:[a-f0-9]{64}$",
    r"^[a-zA-Z0-9_-]+/[0-9]+\.[0-9]+\.[0-9]+$",
    r"^did:[a-z0-9]+:.+$",
    r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$",
    r"^[0-9]+\.[0-9]+(-(rc|alpha|beta)[0-9]*)?$",
)
_ALL_POOLED: Final = tuple(
    dict.fromkeys(json.dumps(v) for pool in POOLS.values() for v in pool if not isinstance(v, dict))
)

json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def timestamps(draw: st.DrawFn) -> str:
    moment = draw(st.datetimes())
    text = moment.isoformat(sep=draw(st.sampled_from("Tt ")), timespec="auto")
    offset = draw(st.sampled_from(("Z", "z", "+00:00", "-03:00", "+05:45", "+23:59", "")))
    return text + offset


interesting_values = st.one_of(
    st.sampled_from(_ALL_POOLED).map(json.loads),
    st.sampled_from(TYPE_SAMPLES),
    st.one_of([st.from_regex(p, fullmatch=True) for p in _PATTERNS]),
    timestamps(),
    json_values,
)


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> tuple[str, JSON]:
    """A base document after one to four random edits (set, delete, add member, duplicate)."""
    options = bases(kind)
    index = draw(st.integers(0, len(options) - 1))
    doc = options[index]
    steps = [f"base {index}"]
    # mostly one edit, so a verdict rests on one rule rather than on whichever broke first
    for _ in range(draw(st.sampled_from((1, 1, 1, 2, 4)))):
        path = draw(st.sampled_from([path for path, _ in nodes(doc)]))
        target = get_at(doc, path)
        parent = get_at(doc, path[:-1]) if path else None
        action = draw(st.sampled_from(("set", "set", "set", "delete", "add", "duplicate")))
        if action == "delete" and parent is not None:
            del parent[path[-1]]
        elif action == "add" and isinstance(target, dict):
            key = draw(st.sampled_from(("x_later_pam", "id", "type")) | st.text(max_size=6))
            target[key] = draw(json_values)
        elif action == "duplicate" and isinstance(target, list) and target:
            target.append(copy.deepcopy(draw(st.sampled_from(target))))
        else:
            pool = POOLS.get(field_name(path) or "")
            if pool and draw(st.sampled_from((True, True, False))):
                value = draw(st.sampled_from(pool))
            else:
                value = draw(interesting_values)
            value = copy.deepcopy(value)
            if parent is None:
                doc = value
            else:
                parent[path[-1]] = value
        steps.append(f"{action} {path}")
    return " / ".join(steps), doc


def _random_agreement(kind: str) -> Callable[[], None]:
    @settings(
        max_examples=200,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(case=mutated(kind))
    def run(case: tuple[str, JSON]) -> None:
        label, doc = case
        verdicts = Verdicts(kind)
        verdicts.check(label, doc)
        verdicts.assert_agree()

    return run


test_random_mutations_agree_memory_store = _random_agreement("memory-store")
test_random_mutations_agree_conversation = _random_agreement("conversation")
test_random_mutations_agree_embeddings = _random_agreement("embeddings")
