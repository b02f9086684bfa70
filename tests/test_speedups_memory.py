"""The C per-memory checks (`memvault._speedups.memory_run`) against the Python reference
(`memory_pass._memory`): for any memory — valid, or breaking any per-memory rule of PAM §4.1,
§6, §7, §9, §15.1 and §21.1, or with duplicate member names (RFC 8259 §4) — both paths give
byte-identical findings, facts, canonical bytes and counts."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_EXPORT, OFFICIAL_STORE
from memvault import canonical
from memvault.findings import ValidationResult
from memvault.formats.pam import memory_pass, reader
from memvault.formats.pam.memory_pass import PassContext, PassOutput
from memvault.formats.pam.validate import validate_path
from memvault.model import parse_timestamp

UUIDS = [
    "0b0c4c5e-8e0f-4d7b-9a51-8f2b0a2f6c11",
    "7D3F1A2B-4C5D-4E6F-8A9B-0C1D2E3F4A5B",  # upper case is accepted
    "1a2b3c4d-5e6f-1a2b-8c3d-4e5f6a7b8c9d",  # version 1
    "1a2b3c4d-5e6f-4a2b-7c3d-4e5f6a7b8c9d",  # wrong variant
    "not-a-uuid",
    "",
    "ǅ1a2b3c4-5e6f-4a2b-8c3d-4e5f6a7b8c9d",
]
TEXTS = [
    "User prefers dark mode",
    "  User Prefers   DARK mode \n",
    "Prefere exemplos PRÁTICOS em perguntas sobre BGP",
    "ÀÉÎÕÜ ×÷ ß ÿ µ Þ",
    "soft\xadhyphen",
    "no\xa0break",
    "next\x85line",
    "\x1cfile separator\x1f",
    "tab\tinside",
    "ΣΊΣΥΦΟΣ İstanbul",
    "e\u0301 combining",
    "emoji 🙂 text",
    "",
    " ",
    "a  b",
]
STAMPS = [
    "2024-01-01T00:00:00Z",
    "2023-06-01T12:00:00Z",
    "2024-01-01T00:00:00.123456Z",
    "2024-01-01T00:00:00+02:00",
    "2023-12-31T23:00:00-03:00",
    "2024-01-01T00:00:00+00:00",
    "2024-01-01t00:00:00z",
    "2016-12-31T23:59:60Z",
    "2016-12-31T23:59:59.5Z",
    "0000-06-01T00:00:00Z",
    "0001-01-01T00:00:00.5Z",
    "2024-02-30T00:00:00Z",
    "2024-02-30T00:00:00.25Z",
    "2023-12-31T23:59:59.999Z",
    "2024-01-01T00:00:00 Z",
    "not a time",
    "",
    "Z",
]


def _hash_for(content: Any, mode: str) -> Any:
    if mode == "right" and isinstance(content, str):
        return canonical.content_hash(content)
    if mode == "wrong":
        return "sha256:" + "0" * 64
    if mode == "upper" and isinstance(content, str):
        return canonical.content_hash(content).upper()
    if mode == "short":
        return "sha256:abc"
    if mode == "number":
        return 7
    return None


@st.composite
def memories(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 30)) == 0:
        return draw(st.sampled_from([None, 1, "text", [], True, 2.5]))
    memory: dict[str, Any] = {}
    ident = draw(st.sampled_from([*UUIDS, 5, None, "absent"]))
    if ident != "absent":
        memory["id"] = ident
    memory["type"] = draw(st.sampled_from(["preference", "fact", "custom", "bogus", 3]))
    if draw(st.booleans()):
        memory["custom_type"] = draw(st.sampled_from(["hobby", None, "", 1]))
    content = draw(st.sampled_from([*TEXTS, None, 12]))
    memory["content"] = content
    mode = draw(st.sampled_from(["right", "right", "wrong", "upper", "short", "number", "none"]))
    if mode != "none":
        memory["content_hash"] = _hash_for(content, mode)
    status = draw(st.sampled_from(["active", "superseded", "archived", "retracted", None, 4]))
    if status is not None:
        memory["status"] = status
    temporal: Any = {}
    for key in ("created_at", "updated_at", "valid_from", "valid_until"):
        if draw(st.booleans()):
            temporal[key] = draw(st.sampled_from([*STAMPS, None, 3]))
    superseded = draw(st.sampled_from(["none", "self", "other", "null", "number"]))
    if superseded != "none":
        temporal["superseded_by"] = {
            "self": ident,
            "other": UUIDS[0],
            "null": None,
            "number": 9,
        }[superseded]
    if draw(st.integers(0, 10)) == 0:
        temporal = draw(st.sampled_from([None, "x", []]))
    memory["temporal"] = temporal
    provenance: Any = {}
    for key, choices in (
        ("platform", ["chatgpt", "claude", None, 1]),
        ("conversation_ref", ["conv-1", "conv-2", None, 1]),
        ("extraction_method", ["llm_inference", "explicit_statement", None, 2]),
    ):
        if draw(st.booleans()):
            provenance[key] = draw(st.sampled_from(choices))
    if draw(st.integers(0, 10)) == 0:
        provenance = draw(st.sampled_from([None, "x"]))
    memory["provenance"] = provenance
    if draw(st.booleans()):
        memory["embedding_ref"] = draw(st.sampled_from(["emb-1", None, 2]))
    if draw(st.booleans()):
        access: Any = {}
        if draw(st.booleans()):
            access["exportable"] = draw(st.sampled_from([True, False, None, 0]))
        if draw(st.booleans()):
            access["visibility"] = draw(st.sampled_from(["private", "shared", "public", None]))
        if draw(st.booleans()):
            access["shared_with"] = draw(
                st.sampled_from([[], [{"entity": "x"}], "someone", {"a": 1}, None, 1])
            )
        if draw(st.integers(0, 10)) == 0:
            access = draw(st.sampled_from(["x", None, []]))
        memory["access"] = access
    if draw(st.integers(0, 15)) == 0:
        memory["metadata"] = {"big": 2**60}  # beyond I-JSON: not canonicalizable (§15.1)
    if draw(st.integers(0, 15)) == 0:
        memory["metadata"] = {"nested": [{"deep": {"x": 1.5}}], "": "empty key"}
    return memory


def _text(memory: Any, duplicate: bool) -> bytes:
    raw = json.dumps(memory, ensure_ascii=False).encode()
    if duplicate and isinstance(memory, dict) and memory:
        # the same member name twice; the parser keeps the last (RFC 8259 §4)
        raw = b'{"status": "active", ' + raw[1:] if raw != b"{}" else raw
    return raw


@contextmanager
def python_only() -> Iterator[None]:
    """Every accelerator of the memory pass off: the Python reference path."""
    saved = memory_pass.memory_run, memory_pass.checksum_runs, memory_pass.index_facts_fast
    memory_pass.memory_run = memory_pass.checksum_runs = memory_pass.index_facts_fast = None
    try:
        yield
    finally:
        memory_pass.memory_run, memory_pass.checksum_runs, memory_pass.index_facts_fast = saved


def _summary(out: PassOutput) -> dict[str, Any]:
    return {
        "findings": out.findings,
        "facts": out.facts,
        "canonical": [(r.ids, bytes(r.blob), list(r.ends)) for r in out.canonical],
        "computable": out.checksum_computable,
        "incomplete": out.incomplete,
        "non_uuid": out.non_uuid_ids,
        "counts": out.counts.to_json(),
    }


def _both(doc: reader.Document, ctx: PassContext) -> tuple[dict[str, Any], dict[str, Any]]:
    assert memory_pass.memory_run is not None, "the C accelerator is part of every build"
    fast = _summary(memory_pass.validate_range(doc, 0, doc.memory_count, ctx))
    with python_only():
        slow = _summary(memory_pass.validate_range(doc, 0, doc.memory_count, ctx))
    return fast, slow


def _contexts(incremental: bool, since: str | None) -> PassContext:
    return PassContext(
        "memory-store.json", incremental, parse_timestamp(since) if since else None, since
    )


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)  # fmt: skip
@given(
    items=st.lists(st.tuples(memories(), st.integers(0, 8)), min_size=1, max_size=12),
    incremental=st.booleans(),
    since=st.sampled_from([None, "2024-01-01T00:00:00Z", "2023-01-01T00:00:00+01:00"]),
)
def test_pam_4_to_21_c_checks_give_the_python_findings(
    items: list[tuple[Any, int]], incremental: bool, since: str | None
) -> None:
    """Memories read from a file (spans counted by the scanner, so duplicates show)."""
    texts = [_text(memory, flag == 0) for memory, flag in items]
    data = b'{"schema": "portable-ai-memory", "memories": [' + b",".join(texts) + b"]}"
    doc = reader.parse(data, "memory-store.json")
    assert doc.memory_spans is not None
    fast, slow = _both(doc, _contexts(incremental, since))
    assert fast == slow


@settings(max_examples=150, deadline=None)
@given(items=st.lists(memories(), min_size=1, max_size=12), incremental=st.booleans())
def test_pam_4_c_checks_on_memories_in_memory(items: list[Any], incremental: bool) -> None:
    """Memories already parsed (no spans): the same findings on both paths."""
    doc = reader.Document(
        "memory-store.json",
        b"",
        {"schema": "portable-ai-memory"},
        memories_value=copy.deepcopy(items),
        has_memories=True,
    )
    fast, slow = _both(doc, _contexts(incremental, "2024-01-01T00:00:00Z"))
    assert fast == slow


def test_pam_6_latin1_content_hash_is_the_python_hash() -> None:
    """Every Latin-1 character in a content, hashed by C, matches canonical.content_hash."""
    chars = "".join(chr(c) for c in range(0x100))
    contents = [chars, chars.upper(), f"  {chars[0x20:0x7F]}  ", chars[0xA1:]]
    contents += [chr(c) + "Ab" + chr(c) for c in range(0x100)]
    items = [
        {"id": UUIDS[0], "content": text, "content_hash": canonical.content_hash(text)}
        for text in contents
    ]
    data = orjson.dumps({"schema": "portable-ai-memory", "memories": items})
    doc = reader.parse(data, "memory-store.json")
    out = memory_pass.validate_range(doc, 0, doc.memory_count, _contexts(False, None))
    assert [f for f in out.findings if f.code == "content-hash-mismatch"] == []
    fast, slow = _both(doc, _contexts(False, None))
    assert fast == slow


def _same(path: Path) -> ValidationResult:
    fast = validate_path(path)
    with python_only():
        slow = validate_path(path)
    assert fast.findings == slow.findings
    assert fast.facts == slow.facts
    return fast


def test_pam_sample_and_official_stores_validate_the_same_on_both_paths(tmp_path: Path) -> None:
    """The sample export, the official example and a copy of the sample broken in every
    per-memory rule give equal results on both paths."""
    for path in (EXAMPLE_EXPORT, EXAMPLE_EXPORT / "memory-store.json", OFFICIAL_STORE):
        _same(path)
    doc = json.loads((EXAMPLE_EXPORT / "memory-store.json").read_text(encoding="utf-8"))
    memories_ = doc["memories"]
    memories_[0]["content_hash"] = "sha256:" + "1" * 64
    memories_[1]["temporal"]["updated_at"] = "1999-01-01T00:00:00Z"
    memories_[2]["temporal"]["valid_until"] = "1999-01-01T00:00:00+01:00"
    memories_[3]["temporal"]["superseded_by"] = memories_[3]["id"]
    memories_[4]["status"] = "superseded"
    memories_[5]["access"] = {"exportable": False}
    memories_[6]["access"] = {"visibility": "private", "shared_with": [{"entity": "a"}]}
    memories_[7]["id"] = "not-a-uuid"
    path = tmp_path / "memory-store.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = _same(path)
    codes = {f.code for f in result.findings}
    assert {
        "content-hash-mismatch",
        "updated-before-created",
        "validity-reversed",
        "superseded-by-itself",
        "superseded-without-replacement",
        "non-exportable-memory-exported",
        "grants-on-private-memory",
        "memory-id-not-uuid",
    } <= codes, codes


@contextmanager
def python_tail() -> Iterator[None]:
    saved = memory_pass.checksum_runs, memory_pass.index_facts_fast
    memory_pass.checksum_runs = memory_pass.index_facts_fast = None
    try:
        yield
    finally:
        memory_pass.checksum_runs, memory_pass.index_facts_fast = saved


@settings(max_examples=200, deadline=None)
@given(
    runs=st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(["a", "b", "B", "é", "𝄞", "\uffff", "ab", ""]),
                st.sampled_from([b"{}", b'{"a":1}', b"x" * 70_000]),
            ),
            max_size=20,
        ),
        max_size=4,
    )
)
def test_pam_15_2_checksum_of_sorted_runs_is_the_python_checksum(
    runs: list[list[tuple[str, bytes]]],
) -> None:
    """§15.2: merging runs by id (equal ids in document order) and hashing
    "[" + ",".join(items) + "]" in C gives canonical.checksum_of_canonical of the stable sort."""
    out = PassOutput(canonical=[])
    for items in runs:
        run = memory_pass.CanonicalRun()
        for ident, canon in items:
            run.append(ident, canon)
        out.canonical.append(run)
    everything = [item for items in runs for item in items]
    expected = canonical.checksum_of_canonical(
        canon for _, canon in sorted(everything, key=lambda item: item[0])
    )
    assert memory_pass.checksum_runs is not None
    assert out.checksum() == expected
    with python_tail():
        assert out.checksum() == expected


def test_pam_15_2_checksum_crosses_digest_chunks() -> None:
    """Items larger than the C side's 4 MiB buffer, and separators at its boundary."""
    run = memory_pass.CanonicalRun()
    chunk = 1 << 22
    sizes = [chunk - 2, 1, chunk + 5, 3, 2 * chunk, chunk - 3 - (2 * chunk + 5 + 1 + 3) % chunk]
    for n, size in enumerate(sizes):
        run.append(f"id{n:02d}", bytes([65 + n]) * size)
    out = PassOutput(canonical=[run])
    expected = canonical.checksum_of_canonical(bytes([65 + n]) * s for n, s in enumerate(sizes))
    assert out.checksum() == expected


@settings(max_examples=200, deadline=None)
@given(
    facts=st.lists(
        st.tuples(
            st.integers(0, 100),
            st.sampled_from(["m1", "m2", "m3", "m4"]),
            st.sampled_from(["active", "superseded"]),
            st.sampled_from([None, "m1"]),
            st.sampled_from([None, "c1", "c2", ""]),
            st.sampled_from([None, "e1"]),
            st.sampled_from([None, "chatgpt"]),
        ),
        max_size=20,
    )
)
def test_pam_4_1_fact_index_is_the_python_index(facts: list[tuple[Any, ...]]) -> None:
    """Ids indexed once (§4.1: a repeated id is reported), grouped by conversation (§14.1)."""
    results = []
    for context in (python_tail, _no_change):
        with context():
            memories: dict[str, memory_pass.MemoryFact] = {}
            groups: dict[str, list[str]] = {}
            with_ref: list[memory_pass.MemoryFact] = []
            repeated = memory_pass.index_facts(facts, memories, groups, with_ref)
            assert all(type(f) is memory_pass.MemoryFact for f in memories.values())
            results.append((repeated, memories, groups, with_ref))
    assert results[0] == results[1]


@contextmanager
def _no_change() -> Iterator[None]:
    assert memory_pass.index_facts_fast is not None
    yield


def _store_result(tmp_path: Path, doc: dict[str, Any]) -> ValidationResult:
    from pamdocs import reseal, write

    return _same(write(tmp_path, reseal(doc)))


def test_pam_11_4_platform_differing_from_its_conversation_is_reported_per_memory(
    tmp_path: Path,
) -> None:
    from pamdocs import lone_store

    doc = lone_store()
    first_conv = doc["conversations_index"][0]["id"]
    changed = [
        i
        for i, m in enumerate(doc["memories"])
        if m["provenance"].get("conversation_ref") == first_conv
    ]
    for i in changed[:2]:
        doc["memories"][i]["provenance"]["platform"] = "gemini"
    result = _store_result(tmp_path, doc)
    found = [f for f in result.findings if f.code == "platform-differs-from-conversation"]
    assert [f.path for f in found] == [f"$.memories[{i}].provenance.platform" for i in changed[:2]]
    assert found[0].message == (
        "provenance.platform 'gemini' differs from the platform 'chatgpt' of conversation "
        f"{first_conv!r}; the same identifier namespace is used for both"
    )


def test_pam_14_1_derived_memories_in_another_order_are_accepted(tmp_path: Path) -> None:
    from pamdocs import lone_store

    doc = lone_store()
    doc["conversations_index"][0]["derived_memories"].reverse()
    result = _store_result(tmp_path, doc)
    assert not [f for f in result.findings if f.code.startswith("derived-")], result.findings


def test_pam_14_1_derived_memories_missing_and_repeated_still_reported(tmp_path: Path) -> None:
    from pamdocs import lone_store

    doc = lone_store()
    entry = doc["conversations_index"][0]
    dropped = entry["derived_memories"].pop()
    entry["derived_memories"].append(entry["derived_memories"][0])
    result = _store_result(tmp_path, doc)
    codes = [(f.code, f.record) for f in result.findings if f.code.startswith("derived-")]
    assert ("derived-memories-repeated", entry["id"]) in codes
    assert ("derived-memories-missing", dropped) in codes


def test_pam_13_1_relation_findings_in_order(tmp_path: Path) -> None:
    from pamdocs import lone_store

    doc = lone_store()
    ids = [m["id"] for m in doc["memories"]]
    doc["relations"] = [
        {"id": "r1", "from": ids[0], "to": ids[1], "type": "related_to"},
        {"id": "r1", "from": ids[2], "to": ids[2], "type": "related_to"},
        {"id": "r3", "from": "ghost", "to": "phantom", "type": "supports"},
        "not a relation",
    ]
    result = _store_result(tmp_path, doc)
    found = [
        (f.code, f.path)
        for f in result.findings
        if f.code in ("duplicate-relation-id", "relation-self-loop", "relation-endpoint-unresolved")
    ]
    assert found == [
        ("duplicate-relation-id", "$.relations[1].id"),
        ("relation-self-loop", "$.relations[1]"),
        ("relation-endpoint-unresolved", "$.relations[2].from"),
        ("relation-endpoint-unresolved", "$.relations[2].to"),
    ]
    assert result.facts["memory_store"]["relations"] == {"related_to": 2, "supports": 1}


@pytest.mark.parametrize("room", [2, 0])
def test_pam_two_processes_give_the_one_process_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, room: int
) -> None:
    """A store checked by a worker and the parent (canonical bytes returned through shared
    memory, or through the pipe when they do not fit) validates as in one process: same
    findings in the same order, same checksum verdict (§15.2)."""
    from pamdocs import lone_store, reseal, write

    doc = lone_store()
    doc["memories"][1]["content_hash"] = "sha256:" + "2" * 64
    doc["memories"][12]["temporal"]["superseded_by"] = doc["memories"][12]["id"]
    doc["memories"][13]["id"] = doc["memories"][2]["id"]
    path = write(tmp_path, reseal(doc))
    alone = validate_path(path)
    monkeypatch.setattr(memory_pass, "PARALLEL_THRESHOLD", 4)
    monkeypatch.setattr(memory_pass, "SHARED_ROOM", room)
    split = validate_path(path)
    assert split.findings == alone.findings
    assert split.facts == alone.facts
    assert split.facts["memory_store"]["integrity"] == "ok"
    assert {"content-hash-mismatch", "superseded-by-itself", "duplicate-memory-id"} <= {
        f.code for f in split.findings
    }
