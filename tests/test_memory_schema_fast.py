"""The C pre-check of memory objects (`memvault._memory_schema.unclear`) against the
reference, jsonschema-rs with memvault's memory-store schema (PAM §4-§9, §12).

The pre-check may leave any memory to the reference, but a memory it clears must be one the
reference accepts: otherwise `validate` would call an invalid memory valid. Hypothesis
mutates real memories (the samples in examples/ and the official example) one member at a
time, into every kind of wrong value, and checks exactly that. The other tests show that it
does clear the memories people actually have, and that `validate_memories` reports the same
findings with and without it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memvault._memory_schema import unclear

from memvault.formats.pam import schema
from pamdocs import lone_store, official

SEEDS: list[dict[str, Any]] = [
    *lone_store()["memories"],
    *official("example-memory-store.json")["memories"],
]
PROPERTY = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference_accepts(memory: Any) -> bool:
    return bool(schema._validator("memory-store", "Memory", True).is_valid([memory]))


def cleared(memory: Any) -> bool:
    return unclear([memory]) == []


@contextmanager
def reference_only() -> Iterator[None]:
    saved = schema.unclear_memories
    schema.unclear_memories = None
    try:
        yield
    finally:
        schema.unclear_memories = saved


# -- values -----------------------------------------------------------------------------------

_timestamps = st.builds(
    lambda y, mo, d, h, mi, s, frac, sep, zone: (
        f"{y:04d}-{mo:02d}-{d:02d}{sep}{h:02d}:{mi:02d}:{s:02d}{frac}{zone}"
    ),
    st.sampled_from([0, 1, 1900, 1999, 2000, 2023, 2024, 2100, 9999]),
    st.integers(0, 13),
    st.integers(0, 32),
    st.integers(0, 24),
    st.integers(0, 60),
    st.integers(0, 61),
    st.sampled_from(["", ".5", ".123456", ".123456789", ".1234567890", "."]),
    st.sampled_from(["T", "t", " ", "_"]),
    st.sampled_from(
        ["Z", "z", "+00:00", "-00:00", "+05:30", "-23:59", "+24:00", "+05:60", "+0530", "", "+5:30"]
    ),
)
# fmt: off
_NOTABLE_STRINGS = [
    "", " ", "a", "ab", "fact", "custom", "active", "archived", "en", "pt-BR",
    "zh-Hant-TW", "en-us", "EN", "chatgpt", "claude-2", "A", "a" * 33, "-x", "_x",
    "read", "write", "delete", "private", "public", "none", "time_linear", "manual",
    "memvault/1.2.3", "memvault/1.2", "x/1.2.3.4", "sha256:" + "a" * 64,
    "sha256:" + "A" * 64, "sha256:" + "a" * 63, "md5:" + "a" * 64, "tag-1", "Tag",
    "2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "2024-01-01T00:00:00",
    "é", "ｆａｃｔ", "fact\n", "\x00",
]
# fmt: on
_strings = st.one_of(st.text(max_size=12), st.sampled_from(_NOTABLE_STRINGS), _timestamps)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 1, 2, -1, 10**20, -(10**20)]),
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.0000001, -0.1, 1e-300, 1e300]),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    _strings,
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(_strings, inner, max_size=3),
    ),
    max_leaves=6,
)
_KNOWN_KEYS = [
    "id", "type", "custom_type", "status", "content", "content_hash", "summary", "tags",
    "confidence", "temporal", "provenance", "access", "embedding_ref", "metadata",
    "initial", "current", "decay_model", "last_reinforced", "created_at", "updated_at",
    "valid_from", "valid_until", "superseded_by", "platform", "platform_user_id",
    "conversation_ref", "message_ref", "extraction_method", "extracted_at", "extractor",
    "visibility", "exportable", "shared_with", "entity", "permissions", "language", "domain",
    "x-extra", "",
]  # fmt: skip


def _containers(value: Any) -> list[Any]:
    """Every dict and list inside value, value first."""
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
    return found


@st.composite
def mutated_memories(draw: st.DrawFn) -> dict[str, Any]:
    memory = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(_containers(memory)))
        action = draw(st.sampled_from(["set", "set", "delete", "add"]))
        if isinstance(target, dict):
            if action == "delete" and target:
                del target[draw(st.sampled_from(sorted(target)))]
            elif action == "set" and target:
                target[draw(st.sampled_from(sorted(target)))] = draw(_values)
            else:
                key = draw(st.one_of(st.sampled_from(_KNOWN_KEYS), st.text(max_size=6)))
                target[key] = draw(_values)
        elif action == "delete" and target:
            del target[draw(st.integers(0, len(target) - 1))]
        elif action == "set" and target:
            target[draw(st.integers(0, len(target) - 1))] = draw(_values)
        else:
            target.append(draw(st.one_of(_values, st.sampled_from(target or [None]))))
    return memory


# -- tests ------------------------------------------------------------------------------------


@PROPERTY
@given(memory=mutated_memories())
def test_pam_4_a_memory_cleared_in_c_is_valid_for_the_schema(memory: dict[str, Any]) -> None:
    """§4-§9: whatever the mutation, a memory the C check clears is one the reference
    schema validator accepts."""
    if cleared(memory):
        assert reference_accepts(memory), memory


@PROPERTY
@given(
    stamp=_timestamps,
    where=st.sampled_from(
        [
            ("temporal", "created_at"),
            ("temporal", "updated_at"),
            ("temporal", "valid_until"),
            ("confidence", "last_reinforced"),
            ("provenance", "extracted_at"),
        ]
    ),
)
def test_pam_4_1_date_times_cleared_in_c_are_rfc3339(stamp: str, where: tuple[str, str]) -> None:
    """§4.1 timestamps (format date-time): the C check clears only what the reference
    accepts, over calendar edge cases, leap days, leap seconds, offsets and separators."""
    memory = copy.deepcopy(SEEDS[0])
    memory.setdefault(where[0], {})[where[1]] = stamp
    if cleared(memory):
        assert reference_accepts(memory), stamp


@pytest.mark.parametrize(
    "stamp",
    [
        "2024-02-29T12:00:00Z",
        "2023-12-31T23:59:59Z",
        "2024-01-01T00:00:00.123456+05:30",
        "2000-02-29T00:00:00.5-03:00",
        "1999-06-30T08:15:00.123456789Z",
    ],
)
def test_common_date_times_are_cleared(stamp: str) -> None:
    memory = copy.deepcopy(SEEDS[0])
    memory["temporal"]["created_at"] = stamp
    assert reference_accepts(memory) and cleared(memory)


@pytest.mark.parametrize(
    "stamp",
    ["2023-02-29T12:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01"],
)
def test_impossible_date_times_are_left_to_the_reference(stamp: str) -> None:
    memory = copy.deepcopy(SEEDS[0])
    memory["temporal"]["created_at"] = stamp
    assert not cleared(memory) and not reference_accepts(memory)


def test_the_sample_and_official_memories_are_all_cleared() -> None:
    """The point of the pre-check: valid memories as exporters write them never reach the
    slower reference (custom types, access grants, metadata, nulls included)."""
    assert all(reference_accepts(m) for m in SEEDS)
    assert unclear(SEEDS) == []


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda m: m.pop("content_hash"), "required member missing"),
        (lambda m: m.update(extra=1), "additionalProperties: false"),
        (lambda m: m.update(type="custom", custom_type=None), "§5.1 custom needs custom_type"),
        (lambda m: m.update(type="fact", custom_type="x"), "§5.1 custom_type null otherwise"),
        (lambda m: m.update(tags=["a", "a"]), "uniqueItems"),
        (lambda m: m.update(tags=["A"]), "tag pattern"),
        (lambda m: m["provenance"].update(platform="x"), "PlatformId minLength 2"),
        (lambda m: m.update(confidence={"initial": True}), "a bool is not a number"),
        (lambda m: m.update(confidence={"current": 1.5}), "Score maximum 1"),
        (lambda m: m.update(metadata={"language": "english"}), "language pattern"),
        (lambda m: m.update(access={"shared_with": [{"entity": "a", "permissions": []}]}),
         "minItems"),
        (lambda m: m.update(content=""), "NonEmptyString"),
    ],
)  # fmt: skip
def test_each_rule_broken_is_left_to_the_reference(change: Any, why: str) -> None:
    memory = copy.deepcopy(SEEDS[0])
    change(memory)
    assert not cleared(memory), why
    assert not reference_accepts(memory), why


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(st.one_of(mutated_memories(), st.sampled_from(SEEDS)), max_size=8))
def test_validate_memories_same_findings_with_and_without_the_pre_check(
    batch: list[dict[str, Any]],
) -> None:
    """The findings, their paths (shifted to the memory's place in the document) and their
    records are the same whether the C check runs first or not."""
    fast = schema.validate_memories(batch, 7, file="store.json")
    with reference_only():
        slow = schema.validate_memories(batch, 7, file="store.json")
    assert fast == slow
