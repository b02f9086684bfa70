"""AIMEM §2.8 checksum: SHA-256 over RFC 8785 of the bundle without ``checksum``.

`bundle_checksum` and the incremental `CanonicalBundleHasher` are held against the `rfc8785`
package with hashlib on Hypothesis-generated bundles — numbers in exponent ranges, astral and
private-use member names (UTF-16 ordering), extra members anywhere, absent and empty arrays.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.canonical import CanonicalizationError
from memvault.formats.aimem import open_bundle, write_bundle
from memvault.formats.aimem.checksum import (
    ARRAYS,
    CanonicalBundleHasher,
    array_order,
    bundle_checksum,
    canonical_bundle_bytes,
    canonical_order,
)


def reference(bundle: dict[str, Any]) -> str:
    body = {k: v for k, v in bundle.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(rfc8785.dumps(body)).hexdigest()


def incremental(bundle: dict[str, Any], *, sink: list[bytes] | None = None) -> str:
    envelope = {k: v for k, v in bundle.items() if k not in ARRAYS}
    arrays = [a for a in ARRAYS if a in bundle]
    hasher = CanonicalBundleHasher(envelope, arrays, sink=sink.append if sink is not None else None)
    for array in hasher.order:
        hasher.start(array)
        for record in bundle[array]:
            hasher.add(array, record)
    return hasher.finish()


finite = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    finite,
    st.floats(min_value=1e-7, max_value=1e-4),  # ECMAScript writes these as 0.0000x
    st.floats(min_value=1e16, max_value=1e22),  # and these with an exponent from 1e21
)
keys = st.text(
    alphabet=st.sampled_from(
        ["a", "z", "_", "é", "\ue000", "\uffff", "\U0001f600", "\U00010000", "\x7f"]
    ),
    max_size=4,
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=12,
)
records = st.lists(st.dictionaries(keys, values, max_size=5), max_size=4)
envelope_extra = st.dictionaries(
    keys.filter(lambda k: k not in ARRAYS and k != "checksum"), values, max_size=4
)


@st.composite
def bundles(draw: st.DrawFn) -> dict[str, Any]:
    bundle: dict[str, Any] = {
        "format": "aimem-bundle",
        "version": "1",
        "producer": "p",
        "checksum": draw(st.text(max_size=5)),
        "weight_probe": 5e-05,
    }
    bundle.update(draw(envelope_extra))
    for array in ARRAYS:
        if draw(st.booleans()) or array == "chunks":
            bundle[array] = draw(records)
    return bundle


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(bundles())
def test_aimem_2_8_checksum_matches_rfc8785_reference(bundle: dict[str, Any]) -> None:
    """§2.8 steps 1-4, whole and incremental, equal rfc8785 + hashlib on any bundle."""
    expected = reference(bundle)
    assert bundle_checksum(bundle) == expected
    emitted: list[bytes] = []
    assert incremental(bundle, sink=emitted) == expected
    assert b"".join(emitted) == canonical_bundle_bytes(bundle)


@pytest.mark.parametrize(
    ("weight", "text"),
    [(5e-05, "0.00005"), (1e-07, "1e-7"), (0.42, "0.42"), (1.0, "1"), (1e21, "1e+21"), (0, "0")],
)
def test_aimem_2_8_numbers_use_ecmascript_form(weight: float, text: str) -> None:
    """§2.8 / RFC 8785 §3.2.2.3: a weight of 5e-05 is hashed as 0.00005 (not Python's repr)."""
    bundle = {"edges": [{"weight": weight}]}
    assert canonical_bundle_bytes(bundle) == b'{"edges":[{"weight":' + text.encode() + b"}]}"
    repr_form = json.dumps({"edges": [{"weight": weight}]}, separators=(",", ":")).encode()
    if repr_form != canonical_bundle_bytes(bundle):  # e.g. 5e-05: the repr-based hash is wrong
        assert bundle_checksum(bundle) != "sha256:" + hashlib.sha256(repr_form).hexdigest()


def test_aimem_2_8_checksum_member_is_excluded() -> None:
    """§2.8 step 1: the checksum's own value does not enter the hash."""
    a = {"format": "aimem-bundle", "checksum": "sha256:" + "0" * 64, "chunks": []}
    b = {**a, "checksum": "anything"}
    assert (
        bundle_checksum(a)
        == bundle_checksum(b)
        == reference({"format": "aimem-bundle", "chunks": []})
    )


def test_aimem_2_8_member_order_is_utf16() -> None:
    """RFC 8785 §3.2.3: members sort by UTF-16 code units, so U+E000 sorts after U+1F600."""
    assert canonical_order(["\ue000", "\U0001f600", "a"]) == ["a", "\U0001f600", "\ue000"]
    assert array_order() == ["chunk_entities", "chunks", "edges", "entities"]


def test_aimem_2_8_hasher_refuses_out_of_order_feeding() -> None:
    """The incremental hasher must be fed in canonical order; anything else is a bug, not a
    wrong checksum."""
    hasher = CanonicalBundleHasher({"format": "aimem-bundle"}, ARRAYS)
    hasher.add("edges", {"weight": 1})
    with pytest.raises(ValueError, match="canonical order"):
        hasher.add("chunks", {})
    with pytest.raises(ValueError, match="not declared"):
        CanonicalBundleHasher({}, ["chunks", "edges"]).add("entities", {})


def test_aimem_2_8_hasher_writes_unfed_arrays_empty() -> None:
    """A declared array with no records hashes as ``[]`` whether or not it was started."""
    hasher = CanonicalBundleHasher({"format": "aimem-bundle"}, ARRAYS)
    hasher.add("edges", {"weight": 1})
    expected = {
        "format": "aimem-bundle",
        "chunk_entities": [],
        "chunks": [],
        "edges": [{"weight": 1}],
        "entities": [],
    }
    assert hasher.finish() == reference(expected)


def test_aimem_2_8_hasher_empty_and_absent_arrays_differ() -> None:
    """An empty array is part of the canonical form; an absent one is not."""
    empty = incremental({"format": "aimem-bundle", "chunks": [], "edges": []})
    absent = incremental({"format": "aimem-bundle", "chunks": []})
    assert empty == reference({"format": "aimem-bundle", "chunks": [], "edges": []})
    assert absent == reference({"format": "aimem-bundle", "chunks": []})
    assert empty != absent


def test_aimem_2_8_values_without_canonical_form_are_refused() -> None:
    """RFC 8785 has no form for NaN or integers beyond 2^53-1: an error, never a checksum."""
    with pytest.raises(CanonicalizationError):
        bundle_checksum({"chunks": [{"weight": float("nan")}]})
    with pytest.raises(CanonicalizationError):
        bundle_checksum({"chunks": [{"n": 2**60}]})


extra_records = st.dictionaries(keys.map(lambda k: "x-" + k), values, max_size=3)


@st.composite
def valid_bundles(draw: st.DrawFn) -> dict[str, Any]:
    """Valid bundles whose records carry arbitrary extra members and numbers."""
    producer = "hyp"
    n = draw(st.integers(min_value=0, max_value=4))
    chunks = [
        {
            "id": f"urn:aimem:{producer}:c{i}",
            "content": draw(st.text(min_size=1, max_size=20)),
            "memory_type": draw(st.sampled_from(["fact", "goal", "identity"])),
            "created_at": "2026-04-01T09:30:00Z",
            **draw(extra_records),
        }
        for i in range(n)
    ]
    edges = [
        {
            "source_id": chunks[i]["id"],
            "target_id": chunks[(i + 1) % n]["id"],
            "edge_type": "x-rel",
            "weight": draw(st.floats(min_value=0, max_value=1)),
            "created_at": "2026-04-01T09:30:00Z",
            **draw(extra_records),
        }
        for i in range(n)
    ]
    envelope = {
        "format": "aimem-bundle",
        "version": "1",
        "producer": producer,
        "tenant_id": "urn:uuid:f47ac10b-58cc-4372-a567-0e02b2c3d479",
        "exported_at": "2026-06-12T10:00:00Z",
        "scope": "FULL",
        **draw(envelope_extra.map(lambda d: {"x-" + k: v for k, v in d.items()})),
    }
    return {**envelope, "chunks": chunks, "edges": edges, "entities": [], "chunk_entities": []}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(bundle=valid_bundles())
def test_aimem_2_8_streamed_checksum_matches_reference(
    bundle: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """§2.8 / §3.1: the writer's and the streaming reader's checksums, in both forms, equal
    rfc8785 + hashlib over the whole bundle."""
    expected = reference(bundle)
    directory = tmp_path_factory.mktemp("hyp")
    envelope = {k: v for k, v in bundle.items() if k not in ARRAYS}
    for name in ("b.aimem.json", "b.ndjson"):
        summary = write_bundle(directory / name, envelope, bundle["chunks"], bundle["edges"])
        assert summary.checksum == expected
        with open_bundle(directory / name) as reader:
            assert reader.checksum == expected
            records = list(reader.records())
        assert all(r.ok for r in records), [p for r in records for p in r.problems]
        assert [r.value for r in records if r.kind == "chunk"] == bundle["chunks"]
