"""PAM ↔ AIMEM mapping (`memvault.formats.mapping`): lossless both ways.

Hypothesis generates schema-valid PAM memory stores (with embeddings documents) and valid
AIMEM bundles (every memory type, zones, pins, tags PAM cannot hold, embeddings, edges of
every type with weights, entities and links, extra members, absent arrays, the legacy format)
and checks that PAM → AIMEM → PAM and AIMEM → PAM → AIMEM give back the same RFC 8785 bytes,
and that every intermediate document is valid in its own format. docs/aimem-mapping.md has
the table these tests hold the code to.
"""

from __future__ import annotations

import base64
import copy
import json
import struct
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema_rs
import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aimemkit import envelope
from memvault.canonical import content_hash, jcs_dumps
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.aimem.reader import bundle_bytes_stream, validate_bundle
from memvault.formats.mapping import (
    AIMEM_TYPE_OF,
    PAM_TYPE_OF,
    X_PAM,
    MappingError,
    aimem_content_hash,
    bundle_to_pam,
    chunk_id_for,
    chunk_to_memory,
    pam_to_bundle,
    utc_timestamp,
)
from memvault.model import MEMORY_TYPES, Memory
from official import OFFICIAL_SCHEMAS

REPO: Final = Path(__file__).resolve().parents[1]
SPEC: Final = OFFICIAL_SCHEMAS
AIMEM_TYPES: Final = tuple(PAM_TYPE_OF)
JSON = Any


@cache
def pam_validator(name: str) -> Any:
    schema = json.loads((SPEC / name).read_text())
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def assert_pam_valid(store: JSON, embeddings: JSON | None) -> None:
    errors = [e.message for e in pam_validator("portable-ai-memory.schema.json").iter_errors(store)]
    assert not errors, errors[:3]
    if embeddings is not None:
        validator = pam_validator("portable-ai-memory-embeddings.schema.json")
        errors = [e.message for e in validator.iter_errors(embeddings)]
        assert not errors, errors[:3]


def assert_bundle_valid(bundle: JSON) -> None:
    report = validate_bundle(bundle_bytes_stream(orjson.dumps(bundle)))
    assert report.valid, [str(p) for p in report.errors][:3]


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

LOWER_DIGITS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"
texts = st.one_of(
    st.sampled_from(
        (
            "User prefers PostgreSQL over MongoDB.",
            "Mora em São Paulo 🇧🇷 e trabalha em Lisboa",
            "  Never deploy on Fridays  ",
            "coração ❤️ · ação · ÂNIMO",
        )
    ),
    st.text(min_size=1, max_size=20).filter(lambda t: t.strip()),
)
UTC_TIMES: Final = (
    "2026-04-01T09:30:00Z",
    "2026-04-15T08:00:00.250Z",
    "2024-02-29T00:00:00+00:00",
)
OTHER_TIMES: Final = ("2026-02-15T19:00:00-03:00", "2026-02-16T03:30:00+05:30")
utc_times = st.sampled_from(UTC_TIMES) | st.integers(0, 4_000_000_000).map(
    lambda s: utc_timestamp(f"{1970 + s // 31_536_000:04d}-01-01T00:00:00Z")
)
pam_times = utc_times | st.sampled_from(OTHER_TIMES)
pam_ids = st.uuids().map(str) | st.sampled_from(
    ("mem-1", "mem:2", "mémoire 3", "urn:aimem:memvault:kept", "urn:aimem:other-ns:x1", "a" * 300)
)
scores = st.sampled_from((0, 1, 0.0, 1.0, 0.95, 1e-7, 0.1 + 0.2)) | st.floats(0, 1)
pam_tag = st.builds(
    str.__add__, st.sampled_from(LOWER_DIGITS), st.text(alphabet=LOWER_DIGITS + "_-", max_size=70)
)
json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def nullable(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


def block(
    required: dict[str, st.SearchStrategy[Any]], optional: dict[str, st.SearchStrategy[Any]]
) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(required, optional=optional)


pam_metadata = block(
    {},
    {
        "language": nullable(st.sampled_from(("en", "pt-BR"))),
        "domain": nullable(texts),
        "pinned": st.booleans() | st.just("yes"),
        "zone": st.sampled_from(("critical", "important", "standard", "work")),
        "aimem": json_values,
        "x_app": json_values,
    },
)


@st.composite
def pam_memory(draw: st.DrawFn, memory_id: str) -> dict[str, Any]:
    memory = draw(
        block(
            {
                "id": st.just(memory_id),
                "type": st.sampled_from(MEMORY_TYPES),
                "content": texts,
                "temporal": block(
                    {"created_at": pam_times},
                    {
                        "updated_at": nullable(pam_times),
                        "valid_from": nullable(pam_times),
                        "valid_until": nullable(pam_times),
                        "superseded_by": nullable(pam_ids),
                    },
                ),
                "provenance": block(
                    {"platform": st.sampled_from(("chatgpt", "claude", "manual", "memvault"))},
                    {
                        "platform_user_id": nullable(pam_ids),
                        "conversation_ref": nullable(pam_ids),
                        "extraction_method": st.sampled_from((None, "llm_inference", "manual")),
                        "extracted_at": nullable(pam_times),
                        "extractor": nullable(st.just("memvault/0.1.0")),
                    },
                ),
            },
            {
                "status": st.sampled_from(("active", "superseded", "retracted", "archived")),
                "summary": nullable(texts),
                "tags": st.lists(pam_tag, max_size=3, unique=True),
                "confidence": block(
                    {},
                    {
                        "initial": scores,
                        "current": scores,
                        "decay_model": st.sampled_from((None, "time_linear", "none")),
                        "last_reinforced": nullable(pam_times),
                    },
                ),
                "access": block(
                    {},
                    {
                        "visibility": st.sampled_from(("private", "shared", "public")),
                        "exportable": st.booleans(),
                        "shared_with": st.lists(
                            block(
                                {
                                    "entity": st.sampled_from(("agent-a", "agent-b")),
                                    "permissions": st.just(["read"]),
                                },
                                {},
                            ),
                            max_size=1,
                        ),
                    },
                ),
                "embedding_ref": nullable(pam_ids),
                "metadata": pam_metadata,
            },
        )
    )
    memory["content_hash"] = content_hash(memory["content"])
    if memory["type"] == "custom":
        memory["custom_type"] = draw(
            st.sampled_from(("decision", "pitfall", "procedure", "episodic", "receita 🍲"))
        )
    elif draw(st.booleans()):
        memory["custom_type"] = None
    return memory


FLOAT32_EXACT: Final = st.floats(width=32, allow_nan=False, allow_infinity=False)


@st.composite
def pam_documents(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A PAM memory-store and (maybe) its embeddings document (one embedding per memory at
    most, in memory order: the PAM side of the domain, docs/aimem-mapping.md)."""
    memory_ids = draw(st.lists(pam_ids, max_size=5, unique=True))
    memories = [draw(pam_memory(i)) for i in memory_ids]
    store: dict[str, Any] = draw(
        block(
            {
                "schema": st.just("portable-ai-memory"),
                "schema_version": st.sampled_from(("1.0", "1.1")),
                "owner": block(
                    {"id": st.uuids().map(str) | st.sampled_from(("ana", "did:web:ana.example"))},
                    {
                        "did": nullable(st.just("did:web:example.com:user:ana")),
                        "created_at": pam_times,
                    },
                ),
            },
            {
                "spec_uri": nullable(st.just("https://portable-ai-memory.org/spec/v1.0")),
                "export_id": nullable(st.uuids().map(str)),
                "exported_by": nullable(st.just("memvault/0.1.0")),
                "export_date": pam_times,
                "export_type": st.sampled_from(("full", "incremental")),
                "base_export_id": nullable(st.uuids().map(str)),
                "since": nullable(pam_times),
                "type_registry": nullable(st.just("https://portable-ai-memory.org/types/")),
                "integrity": block(
                    {
                        "checksum": st.just("sha256:" + "0" * 64),
                        "total_memories": st.just(len(memories)),
                    },
                    {"canonicalization": st.just("RFC8785")},
                ),
            },
        )
    )
    store["memories"] = memories
    ends = memory_ids or ["nowhere"]
    if draw(st.booleans()):
        store["relations"] = draw(
            st.lists(
                block(
                    {
                        "id": st.uuids().map(str),
                        "from": st.sampled_from(ends) | st.just("dangling"),
                        "to": st.sampled_from(ends),
                        "type": st.sampled_from(("supports", "supersedes", "related_to")),
                        "created_at": pam_times,
                    },
                    {"confidence": nullable(scores)},
                ),
                max_size=3,
            )
        )
    embeddings: list[dict[str, Any]] = []
    for memory in memories:
        if not draw(st.booleans()):
            continue
        dim = draw(st.sampled_from((2, 3)))
        vector = draw(
            st.lists(
                FLOAT32_EXACT | st.floats(-1e3, 1e3) | st.just(1e300), min_size=dim, max_size=dim
            )
            | st.none()
        )
        emb = draw(
            block(
                {
                    "id": st.uuids().map(str),
                    "memory_id": st.just(memory["id"]),
                    "model": st.sampled_from(("bge-small", "text-embedding-3-small")),
                    "dimensions": st.just(dim),
                    "created_at": pam_times,
                },
                {"vector": st.just(vector), "storage": st.none()},
            )
        )
        embeddings.append(emb)
    document = None
    if embeddings:
        document = {
            "schema": "portable-ai-memory-embeddings",
            "schema_version": "1.0",
            "embeddings": embeddings,
        }
    return store, document


namespaces = st.sampled_from(
    ("memoryai-prod", "memvault", "x", "a-very-long-producer-name-0123456789")
)
local_ids = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters=":"),
    min_size=1,
    max_size=12,
)
aimem_tags = st.lists(
    st.sampled_from(("db", "stack-choice", "Mixed-Case", "two words", "ação", "db"))
    | pam_tag.map(lambda t: t[:64]),
    max_size=4,
)
entity_kinds = st.sampled_from(
    ("person", "organization", "place", "technology", "concept", "x-tool")
)
edge_types = st.sampled_from(("hebbian", "semantic", "temporal", "causal", "x-supports-claim"))
extra_members = st.dictionaries(
    st.sampled_from(("x-score", "x-source", "x-pammy")), json_values, max_size=2
)


@st.composite
def bundles(draw: st.DrawFn) -> dict[str, Any]:
    """A valid AIMEM bundle with at least one chunk (docs/aimem-mapping.md: the AIMEM side)."""
    producer = draw(namespaces)
    locals_ = draw(st.lists(local_ids, min_size=1, max_size=5, unique=True))
    chunk_ids = [f"urn:aimem:{producer}:{local}" for local in locals_]
    dim = draw(st.sampled_from((1, 3)))
    with_embeddings = draw(st.booleans())
    chunks = []
    for chunk_id in chunk_ids:
        content = draw(texts)
        chunk: dict[str, Any] = {"id": chunk_id, "content": content}
        if draw(st.booleans()):
            chunk["content_hash"] = aimem_content_hash(content)
        chunk["memory_type"] = draw(st.sampled_from(AIMEM_TYPES))
        optional = draw(
            block(
                {},
                {
                    "zone": st.sampled_from(("critical", "important", "standard")),
                    "is_pinned": st.booleans(),
                    "tags": aimem_tags,
                },
            )
        )
        chunk.update(optional)
        chunk["created_at"] = draw(utc_times)
        if with_embeddings and draw(st.booleans()):
            vector = draw(st.lists(FLOAT32_EXACT, min_size=dim, max_size=dim))
            chunk["embedding"] = base64.b64encode(struct.pack(f"<{dim}f", *vector)).decode()
        elif draw(st.booleans()):
            chunk["embedding"] = None
        chunk.update(draw(extra_members))
        chunks.append(chunk)
    envelope: dict[str, Any] = {
        "format": draw(st.sampled_from(("aimem-bundle", "memoryai-bundle"))),
        "version": "1",
        "producer": producer,
        "tenant_id": draw(
            st.uuids().map(str) | st.sampled_from(("did:web:ana.example", "https://ana.example/me"))
        ),
        "exported_at": draw(utc_times),
        "scope": draw(st.sampled_from(("FULL", "DNA_ONLY", "SINCE"))),
    }
    if envelope["scope"] == "SINCE":
        envelope["since"] = draw(utc_times)
    if with_embeddings:
        envelope["embedding_model"] = "bge-small"
        envelope["embedding_dim"] = dim
    envelope.update(draw(st.dictionaries(st.just("x-note"), json_values, max_size=1)))
    edges = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "source_id": st.sampled_from(chunk_ids),
                    "target_id": st.sampled_from(chunk_ids),
                    "edge_type": edge_types,
                    "weight": st.sampled_from((0, 1, 0.42, 1.0)) | st.floats(0, 1),
                    "created_at": utc_times,
                },
                optional={"x-origin": json_values},
            ),
            max_size=4,
        )
    )
    entity_ids = draw(
        st.lists(st.sampled_from(("urn:aimem:e:1", "ent-2", "ent-3", "pg")), unique=True)
    )
    entities = [
        {
            "id": entity_id,
            "name": draw(texts),
            "kind": draw(entity_kinds),
            "created_at": draw(utc_times),
            **draw(extra_members),
        }
        for entity_id in entity_ids
    ]
    links = (
        draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "chunk_id": st.sampled_from(chunk_ids),
                        "entity_id": st.sampled_from(entity_ids),
                    },
                    optional={"x-role": texts},
                ),
                max_size=4,
            )
        )
        if entity_ids
        else []
    )
    bundle = dict(envelope)
    bundle["chunks"] = chunks
    for name, records in (("edges", edges), ("entities", entities), ("chunk_entities", links)):
        if records or draw(st.booleans()):
            bundle[name] = records
    bundle["checksum"] = bundle_checksum(bundle)
    return bundle


# ---------------------------------------------------------------------------------------------
# The round trips
# ---------------------------------------------------------------------------------------------

ROUND_TRIP = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@ROUND_TRIP
@given(pam_documents())
def test_pam_to_aimem_to_pam_is_byte_identical(
    doc: tuple[dict[str, Any], dict[str, Any] | None],
) -> None:
    """PAM memory-store (+ embeddings) → AIMEM bundle → PAM: the same canonical bytes, and the
    bundle in between is valid AIMEM (§2)."""
    store, embeddings = doc
    assert_pam_valid(store, embeddings)
    original = copy.deepcopy(doc)
    bundle = pam_to_bundle(store, embeddings, producer="memvault")
    assert (store, embeddings) == original, "the mapping must not change its input"
    assert_bundle_valid(bundle)
    back, back_embeddings = bundle_to_pam(orjson.loads(orjson.dumps(bundle)))
    assert jcs_dumps(back) == jcs_dumps(store)
    assert jcs_dumps(back_embeddings) == jcs_dumps(embeddings)


@ROUND_TRIP
@given(bundles())
def test_aimem_to_pam_to_aimem_is_byte_identical(bundle: dict[str, Any]) -> None:
    """AIMEM bundle → PAM memory-store (+ embeddings) → AIMEM: the same canonical bytes, and
    the PAM documents in between validate against the official PAM schemas."""
    assume(validate_bundle(bundle_bytes_stream(orjson.dumps(bundle))).valid)
    original = copy.deepcopy(bundle)
    store, embeddings = bundle_to_pam(bundle)
    assert bundle == original
    assert_pam_valid(store, embeddings)
    for memory in store["memories"]:
        Memory.from_json(memory)  # the internal model takes it
    again = pam_to_bundle(orjson.loads(orjson.dumps(store)), embeddings, producer="ignored")
    assert jcs_dumps(again) == jcs_dumps(bundle)


@ROUND_TRIP
@given(bundles())
def test_aimem_round_trip_holds_twice(bundle: dict[str, Any]) -> None:
    """The documents the mapping writes map back to themselves (a fixed point, not luck)."""
    assume(validate_bundle(bundle_bytes_stream(orjson.dumps(bundle))).valid)
    store, embeddings = bundle_to_pam(bundle)
    bundle_again = pam_to_bundle(store, embeddings)
    store_again, embeddings_again = bundle_to_pam(bundle_again)
    assert jcs_dumps(store_again) == jcs_dumps(store)
    assert jcs_dumps(embeddings_again) == jcs_dumps(embeddings)


# ---------------------------------------------------------------------------------------------
# The decisions of the mapping table, one by one
# ---------------------------------------------------------------------------------------------

CHUNK: Final = {
    "id": "urn:aimem:memoryai-prod:chunk-1",
    "content": "User prefers PostgreSQL over MongoDB.",
    "content_hash": aimem_content_hash("User prefers PostgreSQL over MongoDB."),
    "memory_type": "preference",
    "zone": "important",
    "is_pinned": False,
    "created_at": "2026-04-01T09:30:00Z",
    "tags": ["db", "stack-choice"],
    "embedding": None,
}


@pytest.mark.parametrize("aimem_type", AIMEM_TYPES)
def test_aimem_2_2_every_memory_type_has_a_pam_home(aimem_type: str) -> None:
    memory, _ = chunk_to_memory({**CHUNK, "memory_type": aimem_type}, producer="memoryai-prod")
    pam_type, custom = PAM_TYPE_OF[aimem_type]
    assert memory["type"] == pam_type
    assert memory.get("custom_type") == custom
    model = Memory.from_json(memory)
    assert model.is_dna == (
        aimem_type in {"preference", "decision", "identity", "pitfall", "procedure"}
    )


def test_aimem_2_2_chunk_fields_land_in_pam_fields_and_metadata() -> None:
    memory, embedding = chunk_to_memory(CHUNK, producer="memoryai-prod")
    assert embedding is None
    assert memory["id"] == CHUNK["id"]
    assert memory["content_hash"] == content_hash(CHUNK["content"])  # PAM §6 normalized hash
    assert memory["temporal"] == {"created_at": "2026-04-01T09:30:00Z"}
    assert memory["provenance"] == {"platform": "memoryai-prod"}
    assert memory["tags"] == ["db", "stack-choice"]
    assert memory["metadata"]["zone"] == "important"
    assert memory["metadata"]["pinned"] is False
    assert memory["metadata"]["aimem"] == {"embedding": None}


def test_pam_types_without_an_aimem_type_keep_their_type_in_x_pam() -> None:
    assert AIMEM_TYPE_OF["instruction"] == "preference"  # DNA-class on both sides
    store = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "owner": {"id": "ana"},
        "memories": [
            {
                "id": "m1",
                "type": "instruction",
                "content": "Answer in Portuguese",
                "content_hash": content_hash("Answer in Portuguese"),
                "temporal": {"created_at": "2026-01-01T10:00:00-03:00"},
                "provenance": {"platform": "claude"},
            }
        ],
    }
    bundle = pam_to_bundle(store, producer="memvault")
    chunk = bundle["chunks"][0]
    assert chunk["id"] == "urn:aimem:memvault:m1"
    assert chunk["memory_type"] == "preference"
    assert chunk["created_at"] == "2026-01-01T13:00:00Z"  # §2.2: UTC
    assert chunk[X_PAM]["set"]["type"] == "instruction"
    assert chunk[X_PAM]["set"]["id"] == "m1"
    assert chunk[X_PAM]["set"]["temporal"] == {"created_at": "2026-01-01T10:00:00-03:00"}
    assert bundle["tenant_id"] == "urn:memvault:owner:ana"  # §2.1: a UUID or a URI
    assert bundle[X_PAM]["set"]["owner"] == {"id": "ana"}
    assert_bundle_valid(bundle)


def test_aimem_2_3_memory_ids_become_chunk_urns_in_the_producer_namespace() -> None:
    assert chunk_id_for("urn:aimem:memvault:abc", "memvault") == "urn:aimem:memvault:abc"
    assert (
        chunk_id_for("urn:aimem:other:abc", "memvault")
        == "urn:aimem:memvault:urn%3Aaimem%3Aother%3Aabc"
    )
    assert chunk_id_for("mémoire 1", "p") == "urn:aimem:p:m%C3%A9moire%201"
    long_id = chunk_id_for("x" * 300, "p")
    assert long_id.startswith("urn:aimem:p:sha256-") and len(long_id) < 100


def test_aimem_2_4_pam_relations_travel_as_x_pam_edges() -> None:
    memories = [
        {
            "id": mid,
            "type": "fact",
            "content": f"fact {mid}",
            "content_hash": content_hash(f"fact {mid}"),
            "temporal": {"created_at": "2026-01-01T00:00:00Z"},
            "provenance": {"platform": "manual"},
        }
        for mid in ("a", "b")
    ]
    store = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "owner": {"id": "11111111-1111-4111-8111-111111111111"},
        "memories": memories,
        "relations": [
            {
                "id": "r1",
                "from": "a",
                "to": "b",
                "type": "supports",
                "created_at": "2026-01-02T00:00:00Z",
                "confidence": 0.8,
            }
        ],
    }
    bundle = pam_to_bundle(store, producer="memvault")
    (edge,) = bundle["edges"]
    assert edge["edge_type"] == "x-pam-supports"
    assert edge["weight"] == 0.8
    assert (edge["source_id"], edge["target_id"]) == (
        "urn:aimem:memvault:a",
        "urn:aimem:memvault:b",
    )
    assert edge[X_PAM] == {"set": {"id": "r1"}}
    back, _ = bundle_to_pam(bundle)
    assert back["relations"] == store["relations"]


def test_aimem_2_4_aimem_edges_entities_and_links_live_in_metadata() -> None:
    a, b = "urn:aimem:p:a", "urn:aimem:p:b"
    chunk_b = {**CHUNK, "id": b, "content": "Other", "content_hash": aimem_content_hash("Other")}
    bundle = {
        **envelope("p"),
        "chunks": [{**CHUNK, "id": a}, chunk_b],
        "edges": [
            {
                "source_id": a,
                "target_id": b,
                "edge_type": "hebbian",
                "weight": 0.42,
                "created_at": "2026-04-15T08:00:00Z",
            }
        ],
        "entities": [
            {
                "id": "e7",
                "name": "PostgreSQL",
                "kind": "technology",
                "created_at": "2026-04-01T09:30:00Z",
            }
        ],
        "chunk_entities": [{"chunk_id": b, "entity_id": "e7"}],
    }
    bundle["checksum"] = bundle_checksum(bundle)
    store, _ = bundle_to_pam(bundle)
    first, second = (m["metadata"]["aimem"] for m in store["memories"])
    assert first["edges"] == [
        {
            "n": 0,
            "target_id": b,
            "edge_type": "hebbian",
            "weight": 0.42,
            "created_at": "2026-04-15T08:00:00Z",
        }
    ]
    assert second["entities"] == [{"n": 0, **bundle["entities"][0]}]
    assert second["links"] == [{"n": 0, "entity_id": "e7"}]
    assert first["bundle"]["producer"] == "p"
    assert "relations" not in store
    assert jcs_dumps(pam_to_bundle(store)) == jcs_dumps(bundle)


def test_aimem_2_7_embedding_becomes_a_pam_embedding() -> None:
    vector = [0.5, -1.25, 3.0]
    encoded = base64.b64encode(struct.pack("<3f", *vector)).decode()
    memory, embedding = chunk_to_memory(
        {**CHUNK, "embedding": encoded}, producer="p", embedding_model="bge-small"
    )
    assert embedding is not None
    assert embedding["vector"] == vector
    assert embedding["model"] == "bge-small" and embedding["dimensions"] == 3
    assert memory["embedding_ref"] == embedding["id"]


def test_a_bundle_without_chunks_cannot_carry_entities() -> None:
    bundle = {
        **envelope("p"),
        "chunks": [],
        "entities": [
            {"id": "e", "name": "n", "kind": "concept", "created_at": "2026-06-12T10:00:00Z"}
        ],
    }
    with pytest.raises(MappingError, match="entities/0"):
        bundle_to_pam(bundle)
