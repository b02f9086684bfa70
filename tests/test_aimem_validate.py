"""The AIMEM §2 rules one by one (`BundleRules`), beyond what the corpus files show: the
helpers' edge cases, warnings, unknown members kept, and the cap on reported problems."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import rfc8785

from aimemkit import envelope
from memvault.formats.aimem import open_bundle, validate_bundle, write_bundle
from memvault.formats.aimem.reader import MAX_PROBLEMS
from memvault.formats.aimem.validate import (
    BundleRules,
    check_format_version,
    is_utc_timestamp,
    parse_chunk_urn,
)

P = "memvault-rules"
T0 = "2026-04-01T09:30:00Z"
ENVELOPE = envelope(P, exported_at=T0, checksum="sha256:" + "0" * 64)


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("2026-06-12T10:00:00Z", True),
        ("2026-06-12T10:00:00.123456Z", True),
        ("2026-06-12T10:00:00+00:00", True),
        ("2026-06-12t10:00:00z", True),
        ("2026-06-12T10:00:00+01:00", False),
        ("2026-06-12T10:00:00", False),  # no zone: not known to be UTC
        ("2026-02-30T10:00:00Z", False),  # not on the calendar
        ("2026-06-12", False),
        (20260612, False),
    ],
)
def test_aimem_2_1_utc_timestamps(value: object, ok: bool) -> None:
    """§2.1/§2.2: ISO-8601 timestamps in UTC."""
    assert is_utc_timestamp(value) is ok


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        (f"urn:aimem:{P}:chunk-1", (P, "chunk-1")),
        (f"urn:aimem:{P}:" + "~" * 256, (P, "~" * 256)),
        (f"URN:AimeM:{P}:x", (P, "x")),  # RFC 8141: "urn" and the NID are case-insensitive
        (f"urn:aimem:{P}:" + "a" * 257, None),
        (f"urn:aimem:{P}:", None),
        (f"urn:aimem:{P}:a\tb", None),
        (f"urn:aimem:{P}:é", None),
        ("urn:aimem:Upper:x", None),
        ("urn:other:p:x", None),
        (None, None),
    ],
)
def test_aimem_2_3_chunk_urns(value: object, parsed: tuple[str, str] | None) -> None:
    """§2.3: urn:aimem:<producer>:<local>, local printable ASCII without ':' up to 256."""
    assert parse_chunk_urn(value) == parsed


@pytest.mark.parametrize(
    ("tenant", "ok"),
    [
        ("11111111-1111-1111-1111-111111111111", True),
        ("F47AC10B-58CC-4372-A567-0E02B2C3D479", True),
        ("did:web:example.com:users:alice", True),
        ("did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", True),
        ("mailto:alice@example.com", True),
        ("urn:uuid:f47ac10b-58cc-4372-a567-0e02b2c3d479", True),
        ("did:", False),
        ("alice", False),
        ("https://exa mple.com", False),
        (42, False),
    ],
)
def test_aimem_2_1_tenant_id(tenant: object, ok: bool) -> None:
    """§2.1: tenant_id is a UUID (RFC 4122) or a URI, a DID included."""
    problems = BundleRules({**ENVELOPE, "tenant_id": tenant}).check_envelope()
    assert (not problems) is ok, problems


def test_aimem_7_version_gate() -> None:
    """§7: only "1" passes; a later major version is refused with its own code."""
    assert check_format_version(ENVELOPE) == []
    assert check_format_version({**ENVELOPE, "format": "memoryai-bundle"}) == []
    (problem,) = check_format_version({**ENVELOPE, "version": "2"})
    assert problem.code == "version-unsupported" and problem.status == 422
    assert problem.section == "§7" and "major version" in problem.message


def test_aimem_2_2_tags_recommendation_is_a_warning() -> None:
    """§2.2: lowercase ASCII tags are recommended — a warning, never an error."""
    rules = BundleRules(ENVELOPE)
    chunk = {"id": f"urn:aimem:{P}:a", "content": "x", "memory_type": "fact", "created_at": T0}
    problems = rules.check_chunk(0, {**chunk, "tags": ["Café"]})
    assert [(p.code, p.severity, p.status) for p in problems] == [
        ("tag-not-lowercase-ascii", "warning", None)
    ]


def test_aimem_2_2_content_hash_is_over_raw_bytes() -> None:
    """§2.2: content_hash hashes the UTF-8 bytes as they are (no trimming or folding)."""
    content = "  Café\u0301  "
    declared = "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()
    chunk = {
        "id": f"urn:aimem:{P}:a",
        "content": content,
        "content_hash": declared,
        "memory_type": "fact",
        "created_at": T0,
    }
    assert BundleRules(ENVELOPE).check_chunk(0, chunk) == []


def test_aimem_2_unknown_members_are_kept(tmp_path: Path) -> None:
    """Members the draft does not define are kept (and hashed), not reported."""
    path = tmp_path / "x.aimem.json"
    chunk = {
        "id": f"urn:aimem:{P}:a",
        "content": "x",
        "memory_type": "fact",
        "created_at": T0,
        "x-origin": {"app": "y"},
    }
    envelope = {k: v for k, v in ENVELOPE.items() if k != "checksum"}
    write_bundle(path, {**envelope, "x-note": [1, 2]}, [chunk])
    with open_bundle(path) as reader:
        assert reader.envelope["x-note"] == [1, 2]
        (record,) = list(reader.records())
        assert record.value["x-origin"] == {"app": "y"} and record.ok
    assert validate_bundle(path).facts["extra_members"] == ["x-note"]


def test_aimem_2_problem_list_is_capped(tmp_path: Path) -> None:
    """A bundle with a million broken records reports the first MAX_PROBLEMS and a count."""
    chunks = [
        {"id": f"bad-{i}", "content": "x", "memory_type": "fact", "created_at": T0}
        for i in range(MAX_PROBLEMS + 50)
    ]
    bundle = {**ENVELOPE, "chunks": chunks}
    body = {k: v for k, v in bundle.items() if k != "checksum"}
    bundle["checksum"] = "sha256:" + hashlib.sha256(rfc8785.dumps(body)).hexdigest()
    path = tmp_path / "many.aimem.json"
    path.write_text(json.dumps(bundle))
    report = validate_bundle(path)
    assert len(report.errors) == MAX_PROBLEMS
    assert report.warnings[-1].code == "too-many-problems"
    assert "50 more" in report.warnings[-1].message
    assert report.facts["chunks_rejected"] == MAX_PROBLEMS
