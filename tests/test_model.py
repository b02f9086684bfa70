"""The internal model (`memvault.model`): reading a PAM document and writing it back is lossless.

The promise (docs/model.md): `MemoryStore.from_json(doc).to_json()` has the same RFC 8785
canonical bytes as `doc` — absent members stay absent, explicit nulls stay null, numbers keep
their JSON type, and members a later PAM 1.x may add (§22.3) are carried through. Hypothesis
generates schema-valid memory stores with every optional member independently absent, null
(where the schema allows null) or set, with Portuguese text and emoji, and floats such as 1.0,
0.95 and 1e-7; a second strategy adds unknown members at every level.
"""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.canonical import jcs_dumps
from memvault.model import (
    DNA_TYPES,
    MEMORY_TYPES,
    MISSING,
    Access,
    AccessGrant,
    Block,
    Confidence,
    ConversationIndexEntry,
    Integrity,
    Memory,
    MemoryStore,
    Missing,
    ModelError,
    Owner,
    Provenance,
    Relation,
    Signature,
    StorageRef,
    Temporal,
    parse_timestamp,
)
from official import OFFICIAL_SCHEMAS, OFFICIAL_STORE

REPO: Final = Path(__file__).resolve().parents[1]
JSON = Any


@cache
def official_validator() -> Any:
    schema = json.loads((OFFICIAL_SCHEMAS / "portable-ai-memory.schema.json").read_text())
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def assert_identical(actual: JSON, expected: JSON, path: str = "$") -> None:
    """Equal as JSON *and* of the same Python types all the way down (1.0 stays a float, an
    array stays a list, a missing member is not a null one)."""
    assert type(actual) is type(expected), f"{path}: {type(actual)} != {type(expected)}"
    if isinstance(expected, dict):
        assert list(sorted(actual)) == list(sorted(expected)), f"{path}: members differ"
        for key in expected:
            assert_identical(actual[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert len(actual) == len(expected), f"{path}: lengths differ"
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_identical(a, e, f"{path}[{index}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def assert_round_trips(doc: JSON) -> MemoryStore:
    original = copy.deepcopy(doc)
    store = MemoryStore.from_json(doc)
    out = store.to_json()
    assert jcs_dumps(out) == jcs_dumps(original)
    assert_identical(out, original)
    assert doc == original, "reading must not change the document"
    # and once more, from what was written
    assert jcs_dumps(MemoryStore.from_json(out).to_json()) == jcs_dumps(original)
    return store


# ---------------------------------------------------------------------------------------------
# Strategies: schema-valid PAM memory stores
# ---------------------------------------------------------------------------------------------

PORTUGUESE: Final = (
    "Usuário prefere café sem açúcar",
    "Mora em São Paulo 🇧🇷 e trabalha em Lisboa",
    "coração ❤️ · ação · pão · órgão · ÂNIMO",
    "Não gosta de reuniões às sextas-feiras 😅",
    "Fala português, inglês e espanhol 🗣️",
    "Prefiro respostas curtas — sem rodeios",
)
texts = st.one_of(
    st.sampled_from(PORTUGUESE),
    st.text(min_size=1, max_size=24),
    st.text(
        alphabet="açãéêíóôõúüçÁÉÍÓÚÃÕ 🙂🚀👩🏽‍💻\u0301\u00a0\t\n\\\"'", min_size=1, max_size=12
    ),
)
LOWER_DIGITS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"
ids = st.one_of(
    st.uuids().map(str),
    st.builds("{}-{}".format, st.sampled_from(("mem", "conv", "rel", "emb")), st.integers(0, 9999)),
)
scores = st.one_of(
    st.sampled_from((0, 1, 0.0, 1.0, 0.95, 0.5, 1e-7, 0.1 + 0.2, 5e-324, 0.9999999999999999)),
    st.floats(min_value=0, max_value=1),
)
counts = st.one_of(st.sampled_from((0, 1, 2**53 - 1)), st.integers(min_value=0, max_value=10**9))
TIMESTAMPS: Final = (
    "2026-02-15T22:00:00Z",
    "2026-02-15T22:00:00.123Z",
    "2026-02-15T22:00:00.123456789Z",
    "2026-02-15T19:00:00-03:00",
    "2026-02-16T03:30:00+05:30",
    "2024-02-29T00:00:00+00:00",
    "1999-12-31T23:59:59.999999-00:00",
)
timestamps = st.one_of(
    st.sampled_from(TIMESTAMPS),
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 1, 1)).map(
        lambda moment: moment.isoformat() + "Z"
    ),
)
platforms = st.one_of(
    st.sampled_from(("chatgpt", "claude", "gemini", "copilot", "grok", "local", "manual")),
    st.text(alphabet=LOWER_DIGITS + "_-", min_size=2, max_size=32),
)
tag = st.builds(
    str.__add__,
    st.sampled_from(LOWER_DIGITS),
    st.text(alphabet=LOWER_DIGITS + "_-", max_size=15),
)
tags = st.lists(tag, max_size=4, unique=True)
system_versions = st.builds(
    "{}/{}.{}.{}".format,
    st.text(alphabet=LOWER_DIGITS + "ABCXYZ_-", min_size=1, max_size=10),
    *(st.integers(0, 999) for _ in range(3)),
)
hashes = st.binary(min_size=32, max_size=32).map(lambda b: "sha256:" + b.hex())
languages = st.sampled_from(("en", "pt", "pt-BR", "pt-PT", "zh-Hans", "zh-Hant-TW", "es-MX"))
json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def nullable(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


def block(
    required: dict[str, st.SearchStrategy[Any]],
    optional: dict[str, st.SearchStrategy[Any]],
) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object whose optional members are each independently present or absent."""
    return st.fixed_dictionaries(required, optional=optional)


temporal = block(
    {"created_at": timestamps},
    {
        "updated_at": nullable(timestamps),
        "valid_from": nullable(timestamps),
        "valid_until": nullable(timestamps),
        "superseded_by": nullable(ids),
    },
)
provenance = block(
    {"platform": platforms},
    {
        "platform_user_id": nullable(ids),
        "conversation_ref": nullable(ids),
        "message_ref": nullable(ids),
        "extraction_method": st.sampled_from(
            (None, "llm_inference", "explicit_user_input", "api_export", "browser_extraction")
        ),
        "extracted_at": nullable(timestamps),
        "extractor": nullable(system_versions),
    },
)
confidence = block(
    {},
    {
        "initial": scores,
        "current": scores,
        "decay_model": st.sampled_from((None, "time_linear", "time_exponential", "none")),
        "last_reinforced": nullable(timestamps),
    },
)
grant = block(
    {
        "entity": ids,
        "permissions": st.lists(
            st.sampled_from(("read", "write", "delete")), min_size=1, max_size=3, unique=True
        ),
    },
    {},
)
access = block(
    {},
    {
        "visibility": st.sampled_from(("private", "shared", "public")),
        "exportable": st.booleans(),
        "shared_with": st.lists(grant, max_size=2),
    },
)
metadata = block(
    {},
    {
        "language": nullable(languages),
        "domain": nullable(texts),
        "pinned": st.booleans(),
        "zone": st.sampled_from(("work", "home")),
    },
)


@st.composite
def memories(draw: st.DrawFn) -> dict[str, Any]:
    memory = draw(
        block(
            {
                "id": ids,
                "type": st.sampled_from(MEMORY_TYPES),
                "content": texts,
                "content_hash": hashes,
                "temporal": temporal,
                "provenance": provenance,
            },
            {
                "status": st.sampled_from(
                    ("active", "superseded", "deprecated", "retracted", "archived")
                ),
                "summary": nullable(texts),
                "tags": tags,
                "confidence": confidence,
                "access": access,
                "embedding_ref": nullable(ids),
                "metadata": metadata,
            },
        )
    )
    if memory["type"] == "custom":
        memory["custom_type"] = draw(st.sampled_from(("decision", "pitfall", "receita 🍲")))
    elif draw(st.booleans()):
        memory["custom_type"] = None
    return memory


relations = block(
    {
        "id": ids,
        "from": ids,
        "to": ids,
        "type": st.sampled_from(
            ("supports", "contradicts", "extends", "supersedes", "related_to", "derived_from")
        ),
        "created_at": timestamps,
    },
    {"confidence": nullable(scores)},
)
conversation_entries = block(
    {
        "id": ids,
        "platform": platforms,
        "temporal": block({"created_at": timestamps}, {"updated_at": nullable(timestamps)}),
    },
    {
        "title": nullable(texts),
        "message_count": nullable(counts),
        "tags": tags,
        "derived_memories": st.lists(ids, max_size=3),
        "storage": block(
            {
                "type": st.sampled_from(("file", "database", "object_storage", "vector_db", "uri")),
                "ref": texts,
            },
            {"format": nullable(st.sampled_from(("json", "jsonl")))},
        ),
    },
)
signatures = block(
    {
        "algorithm": st.sampled_from(("Ed25519", "ES256", "ES384", "RS256", "RS384", "RS512")),
        "public_key": texts,
        "value": st.text(alphabet=LOWER_DIGITS + "ABCDEFXYZ_-", min_size=8, max_size=40),
        "signed_at": timestamps,
    },
    {"key_id": nullable(st.just("did:key:z6Mk#z6Mk"))},
)


@st.composite
def stores(draw: st.DrawFn) -> dict[str, Any]:
    doc = draw(
        block(
            {
                "schema": st.just("portable-ai-memory"),
                "schema_version": st.sampled_from(("1.0", "1.1", "1.0-rc1")),
                "owner": block(
                    {"id": ids},
                    {
                        "did": nullable(st.just("did:web:example.com:user:ana")),
                        "created_at": timestamps,
                    },
                ),
                "memories": st.lists(memories(), max_size=4),
            },
            {
                "spec_uri": nullable(st.just("https://portable-ai-memory.org/spec/v1.0")),
                "export_id": nullable(st.uuids().map(str)),
                "exported_by": nullable(system_versions),
                "export_date": timestamps,
                "relations": st.lists(relations, max_size=2),
                "conversations_index": st.lists(conversation_entries, max_size=2),
                "integrity": block(
                    {"checksum": hashes, "total_memories": counts},
                    {"canonicalization": st.just("RFC8785")},
                ),
                "export_type": st.sampled_from(("full", "incremental")),
                "base_export_id": nullable(st.uuids().map(str)),
                "since": nullable(timestamps),
                "type_registry": nullable(st.just("https://portable-ai-memory.org/types/")),
            },
        )
    )
    signature = draw(st.sampled_from(("absent", "null", "object")))
    if signature == "null":
        doc["signature"] = None
    elif signature == "object":
        doc["signature"] = draw(signatures)
        doc["export_id"] = draw(st.uuids().map(str))
        doc["export_date"] = draw(timestamps)
    return doc


def _objects(value: JSON) -> list[dict[str, Any]]:
    """Every JSON object in a document."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            found.extend(_objects(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_objects(item))
    return found


@st.composite
def stores_from_a_later_pam(draw: st.DrawFn) -> dict[str, Any]:
    """A store as a later PAM 1.x might write it: unknown members on (some) objects at every
    level, including names the model uses elsewhere or for itself ("extra", "from_")."""
    doc = draw(stores())
    doc["x_pam_1_1_root"] = draw(json_values)
    for obj in _objects(doc):
        if draw(st.booleans()):
            key = draw(
                st.sampled_from(("x_future", "extra", "from_", "platform", "id", "")) | st.text()
            )
            obj.setdefault(key, draw(json_values))
    return doc


HYPOTHESIS: Final = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@HYPOTHESIS
@given(doc=stores())
def test_generated_stores_are_valid_and_round_trip_to_the_same_canonical_bytes(
    doc: dict[str, Any],
) -> None:
    assert official_validator().is_valid(doc), "the generator must produce PAM 1.0 documents"
    assert_round_trips(doc)


@HYPOTHESIS
@given(doc=stores_from_a_later_pam())
def test_pam_22_3_unknown_members_at_every_level_round_trip(doc: dict[str, Any]) -> None:
    store = assert_round_trips(doc)
    assert store.extra["x_pam_1_1_root"] == doc["x_pam_1_1_root"]


@HYPOTHESIS
@given(memory=memories())
def test_memory_round_trips_on_its_own(memory: dict[str, Any]) -> None:
    out = Memory.from_json(copy.deepcopy(memory)).to_json()
    assert_identical(out, memory)


# ---------------------------------------------------------------------------------------------
# Real documents
# ---------------------------------------------------------------------------------------------

DOCUMENTS: Final = {
    "official example": OFFICIAL_STORE,
    "examples/memory-store.json": REPO / "examples" / "memory-store.json",
    "examples/export/memory-store.json": REPO / "examples" / "export" / "memory-store.json",
}


@pytest.mark.parametrize("name", DOCUMENTS)
def test_example_stores_round_trip_byte_identically(name: str) -> None:
    doc = json.loads(DOCUMENTS[name].read_text(encoding="utf-8"))
    store = assert_round_trips(doc)
    assert len(store.memories) == len(doc["memories"])
    assert all(isinstance(m, Memory) for m in store.memories)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_pam_22_3_unknown_member_on_every_object_of_the_examples_round_trips(name: str) -> None:
    doc = json.loads(DOCUMENTS[name].read_text(encoding="utf-8"))
    objects = _objects(doc)
    for number, obj in enumerate(objects):
        obj[f"x_pam_1_{number}"] = {"added_in": "1.1", "values": [1.0, 0.95, 1e-7, None, "ação 🚀"]}
    store = assert_round_trips(doc)
    assert store.extra and store.owner.extra and store.memories[0].temporal.extra
    assert len(objects) > 40


def test_official_example_reads_into_the_model() -> None:
    doc = json.loads(DOCUMENTS["official example"].read_text(encoding="utf-8"))
    store = MemoryStore.from_json(doc)
    assert store.schema == "portable-ai-memory"
    assert isinstance(store.owner, Owner) and store.owner.did.startswith("did:key:")  # type: ignore[union-attr]
    assert isinstance(store.signature, Signature) and store.signature.algorithm == "Ed25519"
    assert isinstance(store.integrity, Integrity) and store.integrity.total_memories == 5
    assert not store.is_incremental
    first = store.memories[0]
    assert isinstance(first.temporal, Temporal) and isinstance(first.provenance, Provenance)
    assert isinstance(first.confidence, Confidence) and first.confidence.initial == 1.0
    assert first.custom_type is None and first.temporal.valid_until is None
    assert isinstance(first.access, Access) and first.access.shared_with == ()
    second = store.memories[1]
    assert isinstance(second.access, Access)
    assert second.access.shared_with == (
        AccessGrant(entity="agent-work-assistant", permissions=("read",)),
    )
    assert isinstance(store.relations, tuple) and isinstance(store.relations[0], Relation)
    assert store.relations[0].from_ == "mem-002-skill"
    entry = store.conversations_index[0]  # type: ignore[index]
    assert isinstance(entry, ConversationIndexEntry) and isinstance(entry.storage, StorageRef)


# ---------------------------------------------------------------------------------------------
# Absent is not null
# ---------------------------------------------------------------------------------------------

MINIMAL_MEMORY: Final = {
    "id": "mem-1",
    "type": "fact",
    "content": "Gosta de pão de queijo 🧀",
    "content_hash": "sha256:" + "0" * 64,
    "temporal": {"created_at": "2026-02-15T22:00:00Z"},
    "provenance": {"platform": "manual"},
}


@pytest.mark.parametrize(
    ("member", "attribute"),
    [("summary", "summary"), ("custom_type", "custom_type"), ("embedding_ref", "embedding_ref")],
)
def test_absent_and_null_members_stay_distinct(member: str, attribute: str) -> None:
    absent = Memory.from_json(MINIMAL_MEMORY)
    null = Memory.from_json({**MINIMAL_MEMORY, member: None})
    assert getattr(absent, attribute) is MISSING
    assert getattr(null, attribute) is None
    assert member not in absent.to_json()
    assert null.to_json()[member] is None
    assert jcs_dumps(absent.to_json()) != jcs_dumps(null.to_json())
    assert absent != null


def test_nested_nulls_and_absences_stay_distinct() -> None:
    doc = {
        **MINIMAL_MEMORY,
        "temporal": {"created_at": "2026-02-15T22:00:00Z", "valid_until": None},
        "provenance": {"platform": "manual", "extractor": None},
    }
    memory = Memory.from_json(doc)
    assert memory.temporal.valid_until is None and memory.temporal.updated_at is MISSING
    assert memory.provenance.extractor is None and memory.provenance.extracted_at is MISSING
    assert_identical(memory.to_json(), doc)


@pytest.mark.parametrize("signature", ["absent", None])
def test_pam_18_signature_absent_and_null_stay_distinct(signature: str | None) -> None:
    doc: dict[str, Any] = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "owner": {"id": "owner-1"},
        "memories": [MINIMAL_MEMORY],
    }
    if signature is None:
        doc["signature"] = None
    store = assert_round_trips(doc)
    assert store.signature is (MISSING if signature == "absent" else None)


def test_empty_arrays_stay_empty_arrays() -> None:
    doc = {**MINIMAL_MEMORY, "tags": [], "access": {"shared_with": []}}
    memory = Memory.from_json(doc)
    assert memory.tags == ()
    assert_identical(memory.to_json(), doc)


# ---------------------------------------------------------------------------------------------
# Defaults and derived properties
# ---------------------------------------------------------------------------------------------


def memory(**members: Any) -> Memory:
    return Memory.from_json({**MINIMAL_MEMORY, **members})


@pytest.mark.parametrize(
    ("members", "dna"),
    [
        ({"type": "preference"}, True),
        ({"type": "identity"}, True),
        ({"type": "instruction"}, True),
        ({"type": "fact"}, False),
        ({"type": "skill"}, False),
        ({"type": "goal"}, False),
        ({"type": "custom", "custom_type": "decision"}, True),
        ({"type": "custom", "custom_type": "pitfall"}, True),
        ({"type": "custom", "custom_type": "procedure"}, True),
        ({"type": "custom", "custom_type": "episodic"}, False),
        ({"type": "custom", "custom_type": "Decision"}, False),
        ({"type": "fact", "custom_type": "decision"}, False),  # invalid (§5.1), not DNA
        ({"type": "fact", "metadata": {"pinned": True}}, True),
        ({"type": "fact", "metadata": {"pinned": "true"}}, False),
        ({"type": "fact", "metadata": {"pinned": False}}, False),
        ({"type": "fact", "metadata": {}}, False),
    ],
)
def test_aimem_5_1_is_dna(members: dict[str, Any], dna: bool) -> None:
    assert memory(**members).is_dna is dna


def test_dna_types_are_pam_types() -> None:
    assert set(MEMORY_TYPES) >= DNA_TYPES


@pytest.mark.parametrize(
    ("members", "status"),
    [
        ({}, "active"),
        ({"status": "active"}, "active"),
        ({"status": "superseded"}, "superseded"),
        ({"status": "retracted"}, "retracted"),
        ({"status": "archived"}, "archived"),
    ],
)
def test_pam_4_3_status_defaults_to_active(members: dict[str, Any], status: str) -> None:
    assert memory(**members).effective_status == status


def test_pam_4_3_absent_status_stays_absent_when_written() -> None:
    assert "status" not in memory().to_json()


@pytest.mark.parametrize(
    ("access", "exportable", "visibility"),
    [
        ({}, True, "private"),
        ({"exportable": True}, True, "private"),
        ({"exportable": False}, False, "private"),
        ({"visibility": "shared"}, True, "shared"),
        ({"visibility": "public", "exportable": False}, False, "public"),
    ],
)
def test_pam_9_access_defaults(access: dict[str, Any], exportable: bool, visibility: str) -> None:
    block_ = Access.from_json(access)
    assert block_.is_exportable is exportable
    assert block_.effective_visibility == visibility
    assert block_.to_json() == access


def test_pam_9_access_defaults_without_any_document() -> None:
    assert Access().is_exportable is True
    assert Access().effective_visibility == "private"
    assert Access().to_json() == {}


# ---------------------------------------------------------------------------------------------
# parse_timestamp
# ---------------------------------------------------------------------------------------------

MOMENT: Final = datetime(2026, 2, 15, 22, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "2026-02-15T22:00:00Z",
        "2026-02-15t22:00:00z",
        "2026-02-15T22:00:00+00:00",
        "2026-02-15T22:00:00-00:00",
        "2026-02-15T19:00:00-03:00",
        "2026-02-16T03:30:00+05:30",
        "2026-02-15T22:00:00",  # naive: taken as UTC
        "2026-02-15 22:00:00Z",
        " 2026-02-15T22:00:00Z ",
        "2026-02-15T22:00:00.000000000Z",
    ],
)
def test_parse_timestamp_spellings_of_one_instant(text: str) -> None:
    parsed = parse_timestamp(text)
    assert parsed == MOMENT
    assert parsed.tzinfo is not None


def test_parse_timestamp_keeps_the_offset() -> None:
    parsed = parse_timestamp("2026-02-15T19:00:00-03:00")
    assert parsed.utcoffset() == timedelta(hours=-3)
    assert parsed.tzinfo == timezone(timedelta(hours=-3))


def test_parse_timestamp_naive_is_utc() -> None:
    assert parse_timestamp("2026-02-15T22:00:00").tzinfo is UTC


def test_parse_timestamp_fractions_beyond_microseconds_are_truncated() -> None:
    assert parse_timestamp("2026-02-15T22:00:00.123456789Z").microsecond == 123456


def test_parse_timestamp_orders_across_offsets() -> None:
    earlier = parse_timestamp("2026-02-15T23:00:00+05:00")  # 18:00Z
    later = parse_timestamp("2026-02-15T19:00:00-03:00")  # 22:00Z
    assert earlier < later


def test_parse_timestamp_rfc3339_leap_second() -> None:
    """jsonschema-rs accepts `23:59:60`; it sorts after :59 and before the next minute."""
    leap = parse_timestamp("2016-12-31T23:59:60Z")
    assert parse_timestamp("2016-12-31T23:59:59Z") < leap < parse_timestamp("2017-01-01T00:00:00Z")
    assert parse_timestamp("2016-12-31T15:59:60.5-08:00") == leap


def test_parse_timestamp_year_zero_is_the_earliest_instant() -> None:
    assert parse_timestamp("0000-01-01T00:00:00Z") == datetime.min.replace(tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_timestamp("0000-13-01T00:00:00Z")


@pytest.mark.parametrize("text", ["", "yesterday", "2026-02-30T00:00:00Z", "2026-02-15T25:00:00Z"])
def test_parse_timestamp_rejects_non_timestamps(text: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamp(text)


# ---------------------------------------------------------------------------------------------
# Shape errors
# ---------------------------------------------------------------------------------------------

REQUIRED: Final[list[tuple[type[Block], dict[str, Any], str]]] = [
    *((Memory, MINIMAL_MEMORY, key) for key in MINIMAL_MEMORY),
    (Temporal, {"created_at": "2026-02-15T22:00:00Z"}, "created_at"),
    (Provenance, {"platform": "manual"}, "platform"),
    (Owner, {"id": "owner-1"}, "id"),
    (AccessGrant, {"entity": "agent", "permissions": ["read"]}, "entity"),
    (AccessGrant, {"entity": "agent", "permissions": ["read"]}, "permissions"),
    *(
        (Relation, {"id": "r", "from": "a", "to": "b", "type": "supports", "created_at": "x"}, key)
        for key in ("id", "from", "to", "type", "created_at")
    ),
    (
        ConversationIndexEntry,
        {"id": "c", "platform": "claude", "temporal": {"created_at": "x"}},
        "temporal",
    ),
    (StorageRef, {"type": "file", "ref": "x"}, "ref"),
    (Integrity, {"checksum": "sha256:0", "total_memories": 0}, "total_memories"),
    (
        Signature,
        {"algorithm": "Ed25519", "public_key": "k", "value": "v", "signed_at": "x"},
        "value",
    ),
    *(
        (
            MemoryStore,
            {
                "schema": "portable-ai-memory",
                "schema_version": "1.0",
                "owner": {"id": "o"},
                "memories": [],
            },
            key,
        )
        for key in ("schema", "schema_version", "owner", "memories")
    ),
]


@pytest.mark.parametrize(
    ("cls", "doc", "key"), REQUIRED, ids=[f"{c.__name__}.{k}" for c, _, k in REQUIRED]
)
def test_missing_required_member_is_a_model_error(
    cls: type[Block], doc: dict[str, Any], key: str
) -> None:
    assert cls.from_json(doc).to_json() == doc  # complete, it reads
    incomplete = {k: v for k, v in doc.items() if k != key}
    with pytest.raises(ModelError, match=f"{cls.__name__} requires member '{key}'"):
        cls.from_json(incomplete)


def test_missing_member_inside_a_nested_block_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="Temporal requires member 'created_at'"):
        MemoryStore.from_json(
            {
                "schema": "portable-ai-memory",
                "schema_version": "1.0",
                "owner": {"id": "o"},
                "memories": [{**MINIMAL_MEMORY, "temporal": {}}],
            }
        )


@pytest.mark.parametrize("value", [[], "memory", 3, None])
def test_a_block_that_is_not_an_object_is_a_model_error(value: Any) -> None:
    with pytest.raises(ModelError, match="must be a JSON object"):
        Memory.from_json(value)


def test_model_error_is_a_value_error() -> None:
    assert issubclass(ModelError, ValueError)


# ---------------------------------------------------------------------------------------------
# Blocks are values
# ---------------------------------------------------------------------------------------------


def test_blocks_are_frozen_and_evolve_makes_a_changed_copy() -> None:
    original = memory()
    with pytest.raises(FrozenInstanceError):
        original.status = "retracted"  # type: ignore[misc]
    retracted = original.evolve(status="retracted")
    assert retracted.effective_status == "retracted" and original.effective_status == "active"
    assert retracted.to_json() == {**MINIMAL_MEMORY, "status": "retracted"}


def test_equal_documents_give_equal_blocks() -> None:
    assert memory() == memory()
    assert memory() != memory(status="active")


def test_relation_from_is_written_as_from() -> None:
    doc = {"id": "r", "from": "a", "to": "b", "type": "supports", "created_at": "x"}
    relation = Relation.from_json(doc)
    assert relation.from_ == "a"
    assert relation.to_json() == doc
    assert "from_" not in relation.to_json()


def test_missing_is_a_falsy_singleton_that_survives_copy_and_pickle() -> None:
    assert Missing() is MISSING
    assert not MISSING
    assert repr(MISSING) == "MISSING"
    assert copy.copy(MISSING) is MISSING and copy.deepcopy(MISSING) is MISSING
    assert pickle.loads(pickle.dumps(MISSING)) is MISSING
    restored = pickle.loads(pickle.dumps(memory()))
    assert restored == memory() and restored.summary is MISSING
