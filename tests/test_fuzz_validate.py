"""Mutated PAM documents never crash the validator (RFC 8259, PAM §3 and the rules behind them).

Hypothesis flips bytes, truncates, inserts `{`, `"`, `\\`, NUL, 0xFF … and deletes runs in the
official example store, the sample export's memory-store and the sample export zip. Whatever
comes out, `validate_path` returns a result: exit code 0 or 1 when the file could be read, 2
only when it could not, and every finding names its file.

A 25,000-memory store is validated in two processes (memory_pass forks above 20,000
memories), so errors planted in the second half must come back from the worker too.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_EXPORT, EXAMPLE_STORE, OFFICIAL_STORE, REPO
from memvault.findings import ValidationResult
from memvault.formats.pam import memory_pass
from memvault.formats.pam.validate import validate_path

SEEDS = {
    "official": OFFICIAL_STORE.read_bytes(),
    "sample": EXAMPLE_STORE.read_bytes(),
}
SAMPLE_ZIP = (EXAMPLE_EXPORT.parent / "export.zip").read_bytes()
TOKENS = [b"{", b"}", b"[", b'"', b"\\", b"\x00", b"\xff", b",", b":", b"NaN", b"\xef\xbb\xbf"]

position = st.integers(min_value=0, max_value=1 << 30)
mutation = st.one_of(
    st.tuples(st.just("flip"), position, st.integers(0, 7)),
    st.tuples(st.just("truncate"), position),
    st.tuples(st.just("insert"), position, st.sampled_from(TOKENS)),
    st.tuples(st.just("delete"), position, st.integers(1, 32)),
)


def mutate(data: bytes, steps: list[tuple[Any, ...]]) -> bytes:
    buf = bytearray(data)
    for step in steps:
        at = step[1] % (len(buf) + 1)
        if step[0] == "flip" and at < len(buf):
            buf[at] ^= 1 << step[2]
        elif step[0] == "truncate":
            del buf[at:]
        elif step[0] == "insert":
            buf[at:at] = step[2]
        elif step[0] == "delete":
            del buf[at : at + step[2]]
    return bytes(buf)


def check(result: Any, path: Path) -> None:
    assert isinstance(result, ValidationResult)
    if result.unreadable:
        assert result.exit_code == 2 and result.errors
    else:
        assert result.exit_code in (0, 1)
    for finding in result.findings:
        assert finding.file and finding.file.startswith(str(path)), finding


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(sorted(SEEDS)), steps=st.lists(mutation, min_size=1, max_size=4))
def test_rfc8259_mutated_store_never_crashes_the_validator(
    workdir: Path, seed: str, steps: list[tuple[Any, ...]]
) -> None:
    path = workdir / "memory-store.json"
    path.write_bytes(mutate(SEEDS[seed], steps))
    check(validate_path(path), path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(mutation, min_size=1, max_size=3))
def test_mutated_export_zip_never_crashes_the_validator(
    workdir: Path, steps: list[tuple[Any, ...]]
) -> None:
    path = workdir / "export.zip"
    path.write_bytes(mutate(SAMPLE_ZIP, steps))
    check(validate_path(path), path)


# -- a store large enough to be validated in two processes -----------------------------------

LARGE = 25_000


@pytest.fixture(scope="module")
def large_store() -> Iterator[tuple[bytes, list[str]]]:
    """The bytes of a generated 25,000-memory store and its memory ids, in order."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import storegen  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    store = storegen.build_store(LARGE)
    yield storegen.dumps_store(store), [m["id"] for m in store["memories"]]


def memory_at(data: bytes, ids: list[str], index: int) -> int:
    """Byte offset of the `"id"` member of memories[index]."""
    return data.index(b'"id": "' + ids[index].encode() + b'"')


def test_large_store_is_validated_in_two_processes(
    large_store: tuple[bytes, list[str]],
) -> None:
    assert LARGE > memory_pass.PARALLEL_THRESHOLD
    assert memory_pass._can_fork()


def test_large_store_errors_in_the_second_half_are_reported(
    tmp_path: Path, large_store: tuple[bytes, list[str]]
) -> None:
    data, ids = large_store
    buf = bytearray(data)
    # Edits from the end backwards, so earlier offsets stay put.
    # memories[24999]: invalid UTF-8 in the content (RFC 8259 §8.1)
    at = buf.index(b'"content": "', memory_at(data, ids, 24_999)) + len(b'"content": "')
    buf[at:at] = b"\xff"
    # memories[24000]: a duplicate member name (RFC 8785 §3.1)
    at = memory_at(data, ids, 24_000)
    buf[at:at] = b'"status": "active",\n      '
    # memories[22222]: NaN (RFC 8259 §6)
    at = buf.index(b'"initial": ', memory_at(data, ids, 22_222)) + len(b'"initial": ')
    end = buf.index(b",", at)
    buf[at:end] = b"NaN"
    # memories[20001]: a content_hash that does not match (PAM §6)
    at = buf.index(b'"content_hash": "sha256:', memory_at(data, ids, 20_001)) + 24
    buf[at : at + 4] = b"0000" if buf[at : at + 4] != b"0000" else b"1111"
    # memories[100] (first half, validated by the parent): the same rule
    at = buf.index(b'"content_hash": "sha256:', memory_at(data, ids, 100)) + 24
    buf[at : at + 4] = b"0000" if buf[at : at + 4] != b"0000" else b"1111"
    path = tmp_path / "memory-store.json"
    path.write_bytes(bytes(buf))

    result = validate_path(path)
    check(result, path)
    found = {(f.code, f.path) for f in result.errors}
    assert ("json-encoding", "$.memories[24999]") in found, result.errors
    assert ("json-duplicate-key", "$.memories[24000]") in found, result.errors
    assert ("json-number", "$.memories[22222]") in found, result.errors
    assert ("content-hash-mismatch", "$.memories[20001].content_hash") in found, result.errors
    assert ("content-hash-mismatch", "$.memories[100].content_hash") in found, result.errors
    assert result.exit_code == 1


def test_large_store_truncated_inside_the_last_memory(
    tmp_path: Path, large_store: tuple[bytes, list[str]]
) -> None:
    data, ids = large_store
    cut = memory_at(data, ids, LARGE - 1) + 200
    path = tmp_path / "memory-store.json"
    path.write_bytes(data[:cut])
    result = validate_path(path)
    check(result, path)
    [error] = result.errors
    assert error.code == "json-truncated"
    assert f"inside $.memories[{LARGE - 1}]" in error.message and f"byte {cut}" in error.message


def test_large_store_structure_broken_in_the_second_half(
    tmp_path: Path, large_store: tuple[bytes, list[str]]
) -> None:
    data, ids = large_store
    at = memory_at(data, ids, 23_456)
    path = tmp_path / "memory-store.json"
    path.write_bytes(data[:at] + b"}" + data[at:])
    result = validate_path(path)
    check(result, path)
    [error] = result.errors
    assert error.code == "json-syntax" and "after $.memories[23456]" in error.message
