"""Build the AIMEM conformance corpus in this directory (``python tests/aimem_corpus/build.py``).

Every file is written from a Python value by the standard `json` module — pretty-printed,
not canonical, so readers must canonicalize before hashing — with a checksum computed by the
`rfc8785` package, independent of memvault. Invalid bundles break exactly one MUST of the
AIMEM draft each and carry a correct checksum (unless the checksum is the rule broken), so
the rule under test is the only finding. ``expected.json`` maps each file to the code, HTTP
status, JSON path and section expected, and the forms (JSON, NDJSON) it applies to.
`tests/test_aimem_corpus.py` checks that building again gives the same files.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rfc8785

HERE = Path(__file__).resolve().parent
P = "memvault-corpus"
T0 = "2026-04-01T09:30:00Z"


def urn(local: str, producer: str = P) -> str:
    return f"urn:aimem:{producer}:{local}"


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def checksum(bundle: dict[str, Any]) -> str:
    body = {k: v for k, v in bundle.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(rfc8785.dumps(doubles(body))).hexdigest()


def doubles(value: Any) -> Any:
    """RFC 8785 reads JSON numbers as doubles: an integer beyond 2^53 is hashed as one."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53 - 1:
        return float(value)
    if isinstance(value, dict):
        return {k: doubles(v) for k, v in value.items()}
    if isinstance(value, list):
        return [doubles(v) for v in value]
    return value


def base() -> dict[str, Any]:
    """A small valid bundle using every record kind."""
    c1 = "User prefers PostgreSQL over MongoDB."
    return {
        "format": "aimem-bundle",
        "version": "1",
        "producer": P,
        "tenant_id": "11111111-1111-1111-1111-111111111111",
        "exported_at": "2026-06-12T10:00:00Z",
        "scope": "FULL",
        "checksum": "",
        "chunks": [
            {
                "id": urn("chunk-1"),
                "content": c1,
                "content_hash": sha(c1),
                "memory_type": "preference",
                "zone": "important",
                "is_pinned": False,
                "created_at": T0,
                "tags": ["db", "stack-choice"],
                "embedding": None,
            },
            {
                "id": urn("chunk-2"),
                "content": "Deploys go out on Tuesdays.",
                "memory_type": "fact",
                "created_at": "2026-04-02T08:00:00.250Z",
            },
            {
                "id": urn("chunk-3"),
                "content": "Never run migrations on Fridays.",
                "memory_type": "pitfall",
                "created_at": "2026-04-03T08:00:00+00:00",
            },
        ],
        "edges": [
            {
                "source_id": urn("chunk-1"),
                "target_id": urn("chunk-2"),
                "edge_type": "semantic",
                "weight": 0.42,
                "created_at": "2026-04-15T08:00:00Z",
            }
        ],
        "entities": [
            {"id": urn("entity-7"), "name": "PostgreSQL", "kind": "technology", "created_at": T0}
        ],
        "chunk_entities": [{"chunk_id": urn("chunk-1"), "entity_id": urn("entity-7")}],
    }


def embedding(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode("ascii")


Mutation = Callable[[dict[str, Any]], None]


def _set(*path: Any, value: Any) -> Mutation:
    def apply(bundle: dict[str, Any]) -> None:
        target: Any = bundle
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return apply


def _drop(*path: Any) -> Mutation:
    def apply(bundle: dict[str, Any]) -> None:
        target: Any = bundle
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return apply


def _both(*mutations: Mutation) -> Mutation:
    def apply(bundle: dict[str, Any]) -> None:
        for mutation in mutations:
            mutation(bundle)

    return apply


def _with_embeddings(bundle: dict[str, Any]) -> None:
    bundle["embedding_dim"] = 4
    bundle["embedding_model"] = "bge-small-en-v1.5"
    bundle["chunks"][0]["embedding"] = embedding([0.25, -1.0, 3.5, 0.0])
    bundle["chunks"][1]["embedding"] = embedding([1.0, 2.0, 3.0, 4.0])


LONG = ("memvault 🧠 " * 6554)[:65536]  # 65,536 code points, astral ones included

VALID: dict[str, Mutation] = {
    "minimal": _both(
        _set("edges", value=[]),
        _set("entities", value=[]),
        _set("chunk_entities", value=[]),
        _set(
            "chunks",
            value=[{"id": urn("a"), "content": "x", "memory_type": "fact", "created_at": T0}],
        ),
    ),
    "full": lambda b: None,
    "legacy-format-name": _set("format", value="memoryai-bundle"),
    "weight-5e-05": _set("edges", 0, "weight", value=5e-05),
    "weight-bounds": lambda b: b["edges"].extend(
        [
            {**b["edges"][0], "weight": 0},
            {**b["edges"][0], "weight": 1},
            {**b["edges"][0], "weight": 1e-07},
        ]
    ),
    "x-extensions": _both(
        _set("edges", 0, "edge_type", value="x-supersedes"),
        _set("entities", 0, "kind", value="x-project"),
    ),
    "content-65536-codepoints": _both(
        _set("chunks", 1, "content", value=LONG), _set("chunks", 1, "content_hash", value=sha(LONG))
    ),
    "embeddings": _with_embeddings,
    "scope-since": _both(
        _set("scope", value="SINCE"), _set("since", value="2026-03-01T00:00:00+00:00")
    ),
    "scope-dna-only": _both(
        _set("scope", value="DNA_ONLY"), _set("chunks", 1, "memory_type", value="decision")
    ),
    "tenant-did": _set(
        "tenant_id", value="did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"
    ),
    "tenant-uri": _set("tenant_id", value="https://example.com/users/42"),
    "extra-members": _both(
        _set("x-memvault-note", value={"kept": True}),
        _set("chunks", 0, "x-source", value="chatgpt"),
        _set("chunks", 0, "x-\U0001f600", value=1),
        _set("chunks", 0, "x-\ue000", value=2),
    ),
    "optional-arrays-absent": _both(_drop("edges"), _drop("entities"), _drop("chunk_entities")),
    "no-chunks": _both(
        _set("chunks", value=[]), _set("edges", value=[]), _set("chunk_entities", value=[])
    ),
    "urn-case-insensitive-prefix": _both(
        _set("chunks", 1, "id", value="URN:AIMEM:" + P + ":b"),
        _set("edges", 0, "target_id", value="URN:AIMEM:" + P + ":b"),
    ),
    # 2^60 as an integer literal: hashed as the double 1152921504606847000 (RFC 8785)
    "integer-beyond-2-53": _set("chunks", 0, "x-count", value=2**60),
    # beyond 64 bits: a reader must not stop at its parser's integer limit
    "integer-beyond-64-bits": _set("x-serial", value=123456789012345678901234567890),
    "all-memory-types": lambda b: b["chunks"].extend(
        {
            "id": urn(f"t-{t}"),
            "content": t,
            "memory_type": t,
            "created_at": T0,
            "zone": z,
            "is_pinned": True,
        }
        for t, z in zip(
            ("identity", "pitfall", "procedure", "episodic", "goal"),
            ("critical", "standard", "important", "critical", "standard"),
            strict=True,
        )
    ),
}

# name: (mutation, code, status, path, section, forms)
INVALID: dict[str, tuple[Mutation, str, int, str, str, tuple[str, ...]]] = {
    "checksum-mismatch": (
        _set("chunks", 0, "tags", value=["db"]),
        "checksum-mismatch",
        409,
        "/checksum",
        "§2.8",
        ("json", "ndjson"),
    ),
    "checksum-missing": (
        _drop("checksum"),
        "checksum-missing",
        422,
        "/checksum",
        "§2.8",
        ("json", "ndjson"),
    ),
    "checksum-uppercase": (
        _set("checksum", value="UPPER"),
        "checksum-malformed",
        422,
        "/checksum",
        "§2.8",
        ("json", "ndjson"),
    ),
    "format-wrong": (
        _set("format", value="aimem"),
        "format-invalid",
        422,
        "/format",
        "§2.1",
        ("json",),
    ),
    "version-2": (
        _set("version", value="2"),
        "version-unsupported",
        422,
        "/version",
        "§7",
        ("json", "ndjson"),
    ),
    "version-number": (
        _set("version", value=1),
        "version-invalid",
        422,
        "/version",
        "§2.1",
        ("json", "ndjson"),
    ),
    "version-missing": (
        _drop("version"),
        "version-missing",
        422,
        "/version",
        "§2.1",
        ("json", "ndjson"),
    ),
    "producer-missing": (
        _drop("producer"),
        "envelope-missing-field",
        422,
        "/producer",
        "§2.1",
        ("json", "ndjson"),
    ),
    "tenant-missing": (
        _drop("tenant_id"),
        "envelope-missing-field",
        422,
        "/tenant_id",
        "§2.1",
        ("json", "ndjson"),
    ),
    "exported-at-missing": (
        _drop("exported_at"),
        "envelope-missing-field",
        422,
        "/exported_at",
        "§2.1",
        ("json", "ndjson"),
    ),
    "scope-missing": (
        _drop("scope"),
        "envelope-missing-field",
        422,
        "/scope",
        "§2.1",
        ("json", "ndjson"),
    ),
    "chunks-missing": (
        _both(_drop("chunks"), _drop("edges"), _drop("chunk_entities")),
        "envelope-missing-field",
        422,
        "/chunks",
        "§2.1",
        ("json",),
    ),
    "chunks-not-array": (
        _both(_set("chunks", value={}), _drop("edges"), _drop("chunk_entities")),
        "array-invalid",
        422,
        "/chunks",
        "§2.1",
        ("json",),
    ),
    "producer-uppercase": (
        _set("producer", value="MemVault"),
        "producer-invalid",
        422,
        "/producer",
        "§2.1",
        ("json", "ndjson"),
    ),
    "producer-64-chars": (
        _set("producer", value="p" * 64),
        "producer-invalid",
        422,
        "/producer",
        "§2.1",
        ("json", "ndjson"),
    ),
    "tenant-not-uuid-or-uri": (
        _set("tenant_id", value="alice smith"),
        "tenant-id-invalid",
        422,
        "/tenant_id",
        "§2.1",
        ("json", "ndjson"),
    ),
    "tenant-bad-did": (
        _set("tenant_id", value="did:Key:"),
        "tenant-id-invalid",
        422,
        "/tenant_id",
        "§2.1",
        ("json", "ndjson"),
    ),
    "exported-at-not-utc": (
        _set("exported_at", value="2026-06-12T12:00:00+02:00"),
        "timestamp-not-utc",
        422,
        "/exported_at",
        "§2.1",
        ("json", "ndjson"),
    ),
    "exported-at-not-iso": (
        _set("exported_at", value="12/06/2026"),
        "timestamp-invalid",
        422,
        "/exported_at",
        "§2.1",
        ("json", "ndjson"),
    ),
    "scope-unknown": (
        _set("scope", value="PARTIAL"),
        "scope-invalid",
        422,
        "/scope",
        "§2.1",
        ("json", "ndjson"),
    ),
    "since-missing": (
        _set("scope", value="SINCE"),
        "since-missing",
        422,
        "/since",
        "§2.1",
        ("json", "ndjson"),
    ),
    "since-not-timestamp": (
        _both(_set("scope", value="SINCE"), _set("since", value="march")),
        "timestamp-invalid",
        422,
        "/since",
        "§2.1",
        ("json", "ndjson"),
    ),
    "chunk-not-object": (
        _set("chunks", 2, value="a chunk"),
        "record-not-object",
        422,
        "/chunks/2",
        "§2.2",
        ("json",),
    ),
    "chunk-id-missing": (
        _drop("chunks", 2, "id"),
        "field-missing",
        422,
        "/chunks/2/id",
        "§2.2",
        ("json", "ndjson"),
    ),
    "chunk-content-missing": (
        _drop("chunks", 2, "content"),
        "field-missing",
        422,
        "/chunks/2/content",
        "§2.2",
        ("json", "ndjson"),
    ),
    "chunk-memory-type-missing": (
        _drop("chunks", 2, "memory_type"),
        "field-missing",
        422,
        "/chunks/2/memory_type",
        "§2.2",
        ("json", "ndjson"),
    ),
    "chunk-created-at-missing": (
        _drop("chunks", 2, "created_at"),
        "field-missing",
        422,
        "/chunks/2/created_at",
        "§2.2",
        ("json", "ndjson"),
    ),
    "chunk-id-not-urn": (
        _set("chunks", 2, "id", value="chunk-2"),
        "chunk-id-invalid",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "chunk-id-local-colon": (
        _set("chunks", 2, "id", value=urn("a:b")),
        "chunk-id-invalid",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "chunk-id-local-space": (
        _set("chunks", 2, "id", value=urn("a b")),
        "chunk-id-invalid",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "chunk-id-local-257": (
        _set("chunks", 2, "id", value=urn("l" * 257)),
        "chunk-id-invalid",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "chunk-id-other-producer": (
        _set("chunks", 2, "id", value=urn("b", "someone-else")),
        "chunk-id-producer-mismatch",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "chunk-id-duplicate": (
        _set("chunks", 2, "id", value=urn("chunk-1")),
        "duplicate-chunk-id",
        422,
        "/chunks/2/id",
        "§2.3",
        ("json", "ndjson"),
    ),
    "content-empty": (
        _set("chunks", 2, "content", value=""),
        "content-invalid",
        422,
        "/chunks/2/content",
        "§2.2",
        ("json", "ndjson"),
    ),
    "content-not-string": (
        _set("chunks", 2, "content", value=["x"]),
        "content-invalid",
        422,
        "/chunks/2/content",
        "§2.2",
        ("json", "ndjson"),
    ),
    # PAM §6 normalizes before hashing; AIMEM hashes the raw UTF-8 bytes.
    "content-hash-normalized": (
        _set("chunks", 0, "content_hash", value=sha("user prefers postgresql over mongodb.")),
        "content-hash-mismatch",
        422,
        "/chunks/0/content_hash",
        "§2.2",
        ("json", "ndjson"),
    ),
    "content-hash-uppercase": (
        _set("chunks", 0, "content_hash", value=sha("x").upper().replace("SHA256", "sha256")),
        "content-hash-malformed",
        422,
        "/chunks/0/content_hash",
        "§2.2",
        ("json", "ndjson"),
    ),
    "memory-type-unknown": (
        _set("chunks", 2, "memory_type", value="opinion"),
        "memory-type-invalid",
        422,
        "/chunks/2/memory_type",
        "§2.2",
        ("json", "ndjson"),
    ),
    "zone-unknown": (
        _set("chunks", 0, "zone", value="urgent"),
        "zone-invalid",
        422,
        "/chunks/0/zone",
        "§2.2",
        ("json", "ndjson"),
    ),
    "is-pinned-string": (
        _set("chunks", 0, "is_pinned", value="yes"),
        "is-pinned-invalid",
        422,
        "/chunks/0/is_pinned",
        "§2.2",
        ("json", "ndjson"),
    ),
    "chunk-created-at-not-utc": (
        _set("chunks", 2, "created_at", value="2026-04-02T08:00:00-05:00"),
        "timestamp-not-utc",
        422,
        "/chunks/2/created_at",
        "§2.2",
        ("json", "ndjson"),
    ),
    "tags-not-array": (
        _set("chunks", 0, "tags", value="db"),
        "tags-invalid",
        422,
        "/chunks/0/tags",
        "§2.2",
        ("json", "ndjson"),
    ),
    "tag-empty": (
        _set("chunks", 0, "tags", value=["db", ""]),
        "tag-invalid",
        422,
        "/chunks/0/tags/1",
        "§2.2",
        ("json", "ndjson"),
    ),
    "tag-65-codepoints": (
        _set("chunks", 0, "tags", value=["t" * 65]),
        "tag-invalid",
        422,
        "/chunks/0/tags/0",
        "§2.2",
        ("json", "ndjson"),
    ),
    "edge-unknown-source": (
        _set("edges", 0, "source_id", value=urn("ghost")),
        "edge-unknown-chunk",
        422,
        "/edges/0/source_id",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-unknown-target": (
        _set("edges", 0, "target_id", value=urn("entity-7")),
        "edge-unknown-chunk",
        422,
        "/edges/0/target_id",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-type-unknown": (
        _set("edges", 0, "edge_type", value="friend"),
        "edge-type-invalid",
        422,
        "/edges/0/edge_type",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-type-bare-x": (
        _set("edges", 0, "edge_type", value="x-"),
        "edge-type-invalid",
        422,
        "/edges/0/edge_type",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-weight-above-1": (
        _set("edges", 0, "weight", value=1.5),
        "edge-weight-invalid",
        422,
        "/edges/0/weight",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-weight-negative": (
        _set("edges", 0, "weight", value=-5e-05),
        "edge-weight-invalid",
        422,
        "/edges/0/weight",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-weight-string": (
        _set("edges", 0, "weight", value="0.5"),
        "edge-weight-invalid",
        422,
        "/edges/0/weight",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-weight-missing": (
        _drop("edges", 0, "weight"),
        "field-missing",
        422,
        "/edges/0/weight",
        "§2.4",
        ("json", "ndjson"),
    ),
    "edge-created-at-not-utc": (
        _set("edges", 0, "created_at", value="2026-04-15 08:00"),
        "timestamp-not-utc",
        422,
        "/edges/0/created_at",
        "§2.4",
        ("json", "ndjson"),
    ),
    "entity-kind-unknown": (
        _set("entities", 0, "kind", value="software"),
        "entity-kind-invalid",
        422,
        "/entities/0/kind",
        "§2.5",
        ("json", "ndjson"),
    ),
    "entity-name-missing": (
        _drop("entities", 0, "name"),
        "field-missing",
        422,
        "/entities/0/name",
        "§2.5",
        ("json", "ndjson"),
    ),
    "entity-id-duplicate": (
        lambda b: b["entities"].append(dict(b["entities"][0])),
        "duplicate-entity-id",
        422,
        "/entities/1/id",
        "§2.5",
        ("json", "ndjson"),
    ),
    "link-unknown-chunk": (
        _set("chunk_entities", 0, "chunk_id", value=urn("ghost")),
        "link-unknown-chunk",
        422,
        "/chunk_entities/0/chunk_id",
        "§2.6",
        ("json", "ndjson"),
    ),
    "link-unknown-entity": (
        _set("chunk_entities", 0, "entity_id", value=urn("chunk-2")),
        "link-unknown-entity",
        422,
        "/chunk_entities/0/entity_id",
        "§2.6",
        ("json", "ndjson"),
    ),
    "embedding-not-base64": (
        _both(_with_embeddings, _set("chunks", 0, "embedding", value="not base64!")),
        "embedding-invalid",
        422,
        "/chunks/0/embedding",
        "§2.7",
        ("json", "ndjson"),
    ),
    "embedding-wrong-length": (
        _both(_with_embeddings, _set("chunks", 1, "embedding", value=embedding([1.0, 2.0, 3.0]))),
        "embedding-dim-mismatch",
        422,
        "/chunks/1/embedding",
        "§2.7",
        ("json", "ndjson"),
    ),
    "embedding-dim-missing": (
        _both(_with_embeddings, _drop("embedding_dim")),
        "embedding-envelope-missing",
        422,
        "/embedding_dim",
        "§2.7",
        ("json", "ndjson"),
    ),
    "embedding-model-missing": (
        _both(_with_embeddings, _drop("embedding_model")),
        "embedding-envelope-missing",
        422,
        "/embedding_model",
        "§2.7",
        ("json", "ndjson"),
    ),
    "embedding-model-empty": (
        _both(_with_embeddings, _set("embedding_model", value="")),
        "embedding-model-invalid",
        422,
        "/embedding_model",
        "§2.7",
        ("json", "ndjson"),
    ),
    "entity-name-empty": (
        _set("entities", 0, "name", value=""),
        "entity-name-invalid",
        422,
        "/entities/0/name",
        "§2.5",
        ("json", "ndjson"),
    ),
    "entity-id-number": (
        lambda b: b["entities"].append({**b["entities"][0], "id": 7}),
        "entity-id-invalid",
        422,
        "/entities/1/id",
        "§2.5",
        ("json", "ndjson"),
    ),
    "entity-created-at-missing": (
        _drop("entities", 0, "created_at"),
        "field-missing",
        422,
        "/entities/0/created_at",
        "§2.5",
        ("json", "ndjson"),
    ),
    "link-chunk-id-missing": (
        _drop("chunk_entities", 0, "chunk_id"),
        "field-missing",
        422,
        "/chunk_entities/0/chunk_id",
        "§2.6",
        ("json", "ndjson"),
    ),
    "edge-not-object": (
        _set("edges", 0, value=[1]),
        "record-not-object",
        422,
        "/edges/0",
        "§2.4",
        ("json",),
    ),
    "embedding-dim-string": (
        _both(_with_embeddings, _set("embedding_dim", value="4")),
        "embedding-dim-invalid",
        422,
        "/embedding_dim",
        "§2.7",
        ("json", "ndjson"),
    ),
}


def _raw_cases() -> dict[str, tuple[bytes, str, str, int, str, str]]:
    """Files broken below the bundle level, as bytes: (data, suffix, code, status, path,
    section)."""
    good = _render(_finish(base()))
    envelope_line, record_line = _ndjson(_finish(base())).split(b"\n")[:2]
    return {
        "truncated": (good[: len(good) // 2], ".aimem.json", "json-truncated", 422, "", "RFC 8259"),
        "not-utf8": (
            good.replace(b"Deploys", b"Depl\xffys"),
            ".aimem.json",
            "not-utf8",
            422,
            "",
            "RFC 8259",
        ),
        "number-overflow": (
            good.replace(b'"weight": 0.42', b'"weight": 1e400', 1),
            ".aimem.json",
            "number-out-of-range",
            422,
            "",
            "RFC 8785 §3.2.2.3",
        ),
        "syntax-error": (
            good.replace(b'"scope": "FULL",', b'"scope": FULL,'),
            ".aimem.json",
            "json-syntax",
            422,
            "",
            "RFC 8259",
        ),
        "byte-order-mark": (
            b"\xef\xbb\xbf" + good,
            ".aimem.json",
            "byte-order-mark",
            422,
            "",
            "RFC 8259",
        ),
        "top-level-array": (b"[" + good + b"]", ".aimem.json", "not-an-object", 422, "", "§2"),
        "ndjson-unknown-kind": (
            envelope_line
            + b"\n"
            + record_line.replace(b'"_kind": "chunk"', b'"_kind": "memo"')
            + b"\n",
            ".ndjson",
            "ndjson-kind-invalid",
            422,
            "line 2",
            "§3.1",
        ),
        "ndjson-record-not-object": (
            envelope_line + b'\n["chunk"]\n',
            ".ndjson",
            "record-not-object",
            422,
            "line 2",
            "§3.1",
        ),
        "duplicate-member-in-chunk": (
            good.replace(
                b'"memory_type": "preference"',
                b'"memory_type": "preference", "memory_type": "fact"',
                1,
            ),
            ".aimem.json",
            "duplicate-member",
            422,
            "/chunks/0",
            "RFC 8259",
        ),
        "ndjson-duplicate-member": (
            envelope_line
            + b"\n"
            + record_line.replace(b'"_kind": "chunk"', b'"_kind": "chunk", "_kind": "edge"')
            + b"\n",
            ".ndjson",
            "duplicate-member",
            422,
            "line 2",
            "RFC 8259",
        ),
        "ndjson-envelope-with-chunks": (
            envelope_line[:-1] + b', "chunks": []}\n' + record_line + b"\n",
            ".ndjson",
            "ndjson-envelope-has-records",
            422,
            "line 1",
            "§3.1",
        ),
        "ndjson-truncated-line": (
            envelope_line + b"\n" + record_line[:40],
            ".ndjson",
            "json-truncated",
            422,
            "line 2",
            "§3.1",
        ),
    }


def _finish(bundle: dict[str, Any]) -> dict[str, Any]:
    if "checksum" in bundle:
        bundle["checksum"] = checksum(bundle)
    return bundle


def _render(bundle: dict[str, Any]) -> bytes:
    return (json.dumps(bundle, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


ARRAY_KIND = {
    "chunks": "chunk",
    "entities": "entity",
    "edges": "edge",
    "chunk_entities": "chunk_entity",
}


def _ndjson(bundle: dict[str, Any]) -> bytes:
    """The NDJSON form (§3.1) of a bundle value, as `tests/test_aimem_corpus.py` derives it."""
    envelope = {k: v for k, v in bundle.items() if k not in ARRAY_KIND}
    lines = [json.dumps(envelope, ensure_ascii=False)]
    for array, kind in ARRAY_KIND.items():
        for record in bundle.get(array, []):
            lines.append(json.dumps({"_kind": kind, **record}, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def build(directory: Path) -> dict[str, Any]:
    """Write every corpus file into `directory`; returns the manifest (also written)."""
    (directory / "valid").mkdir(parents=True, exist_ok=True)
    (directory / "invalid").mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {"valid": {}, "invalid": {}}
    for name, mutation in VALID.items():
        bundle = base()
        mutation(bundle)
        rel = f"valid/{name}.aimem.json"
        (directory / rel).write_bytes(_render(_finish(bundle)))
        manifest["valid"][rel] = {"forms": ["json", "ndjson"]}
    for name, (mutation, code, status, path, section, forms) in INVALID.items():
        bundle = copy.deepcopy(base())
        if code.startswith("checksum-"):
            _finish(bundle)  # then break the checksum rule itself
            mutation(bundle)
        else:
            mutation(bundle)
            _finish(bundle)
        rel = f"invalid/{name}.aimem.json"
        (directory / rel).write_bytes(_render(bundle))
        manifest["invalid"][rel] = {
            "code": code,
            "status": status,
            "path": path,
            "section": section,
            "forms": list(forms),
        }
    for name, (data, suffix, code, status, path, section) in _raw_cases().items():
        rel = f"invalid/{name}{suffix}"
        (directory / rel).write_bytes(data)
        form = "ndjson" if suffix == ".ndjson" else "json"
        manifest["invalid"][rel] = {
            "code": code,
            "status": status,
            "path": path,
            "section": section,
            "forms": [form],
        }
    (directory / "expected.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
