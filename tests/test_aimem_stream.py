"""Streaming AIMEM bundles: large inputs with bounded memory, both forms (§3.1), and the
reader's handling of broken streams (bad JSON, truncation, non-UTF-8, giant lines, pipes).

The memory tests run the writer and the reader in a child process and read its peak RSS
(``ru_maxrss``), against a child that only imports the package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memvault.formats.aimem import (
    BundleError,
    BundleWriter,
    open_bundle,
    validate_bundle,
    write_bundle,
)
from memvault.formats.aimem.reader import MAX_LINE_BYTES, detect_form, sniff

P = "memvault-stream"
T0 = "2026-04-01T09:30:00Z"
ENVELOPE = {
    "format": "aimem-bundle",
    "version": "1",
    "producer": P,
    "tenant_id": "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
    "exported_at": "2026-06-12T10:00:00Z",
    "scope": "FULL",
}

CHILD = r"""
import hashlib, json, resource, sys, time
mode, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
from memvault.formats.aimem import open_bundle, write_bundle
envelope = json.loads(sys.argv[4])
P = envelope["producer"]
def chunks():
    for i in range(count):
        text = f"memory {i}: " + ("the user likes long walks and short meetings; " * 12)
        yield {"id": f"urn:aimem:{P}:c{i}", "content": text,
               "content_hash": "sha256:" + hashlib.sha256(text.encode()).hexdigest(),
               "memory_type": "fact", "created_at": "2026-04-01T09:30:00Z", "tags": ["bulk"]}
def edges():
    for i in range(1, count):
        yield {"source_id": f"urn:aimem:{P}:c{i-1}", "target_id": f"urn:aimem:{P}:c{i}",
               "edge_type": "temporal", "weight": 5e-05, "created_at": "2026-04-01T09:30:00Z"}
start = time.perf_counter()
out = {}
if mode == "write":
    summary = write_bundle(path, envelope, chunks(), edges())
    out = {"checksum": summary.checksum, "bytes": summary.bytes_written}
elif mode == "read":
    n = errors = 0
    with open_bundle(path) as reader:
        errors += len(reader.envelope_problems())
        for record in reader.records():
            n += 1
            errors += len(record.problems)
        out = {"records": n, "errors": errors, "checksum": reader.checksum}
out["seconds"] = time.perf_counter() - start
out["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
"""


def child(mode: str, path: Path, count: int) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(path), str(count), json.dumps(ENVELOPE)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".aimem.json", ".ndjson"])
def test_aimem_3_1_large_bundle_streams_with_bounded_memory(tmp_path: Path, suffix: str) -> None:
    """§3.1: a bundle over 16 MiB is written and read back (checksum verified, every record
    validated) while the process grows by less than the bundle's own size."""
    baseline = child("idle", tmp_path / "none", 0)["maxrss_kib"]
    path = tmp_path / ("big" + suffix)
    count = 30_000
    written = child("write", path, count)
    size = path.stat().st_size
    assert size > 16 * 1024 * 1024
    read = child("read", path, count)
    assert read["records"] == 2 * count - 1
    assert read["errors"] == 0
    assert read["checksum"] == written["checksum"]
    for run in (written, read):
        grown = (run["maxrss_kib"] - baseline) * 1024
        assert grown < size / 2, f"{run}: grew {grown / 2**20:.1f} MiB for {size / 2**20:.1f} MiB"


@pytest.mark.slow
def test_aimem_3_1_giant_ndjson_line_is_refused(tmp_path: Path) -> None:
    """§3.1: a line longer than the reader's limit is a clear error, not a memory blow-up."""
    path = tmp_path / "giant.ndjson"
    with path.open("wb") as out:
        out.write(json.dumps({**ENVELOPE, "checksum": "sha256:" + "0" * 64}).encode() + b"\n")
        out.write(b'{"_kind":"chunk","content":"' + b"a" * (MAX_LINE_BYTES + 10) + b'"}\n')
    with pytest.raises(BundleError) as caught:
        open_bundle(path)
    assert caught.value.code == "line-too-long"
    assert "line 2" in str(caught.value)


def small_bundle(tmp_path: Path, suffix: str = ".aimem.json") -> Path:
    path = tmp_path / ("small" + suffix)
    write_bundle(
        path,
        ENVELOPE,
        [
            {
                "id": f"urn:aimem:{P}:c{i}",
                "content": f"c{i}",
                "memory_type": "goal",
                "created_at": T0,
            }
            for i in range(3)
        ],
        [
            {
                "source_id": f"urn:aimem:{P}:c0",
                "target_id": f"urn:aimem:{P}:c1",
                "edge_type": "causal",
                "weight": 1,
                "created_at": T0,
            }
        ],
    )
    return path


@pytest.mark.parametrize("suffix", [".aimem.json", ".ndjson"])
def test_aimem_3_1_forms_are_detected_by_content(tmp_path: Path, suffix: str) -> None:
    """The reader tells the forms apart by content, whatever the file is called."""
    path = small_bundle(tmp_path, suffix)
    renamed = path.rename(tmp_path / "bundle.data")
    expected = "json" if suffix == ".aimem.json" else "ndjson"
    assert sniff(renamed) == expected
    with open_bundle(renamed) as reader:
        assert reader.form == expected
        assert [r.kind for r in reader.records()].count("chunk") == 3
    assert detect_form(b"[1]") is None
    assert detect_form(b'{"chunks": []}\n') == "json"
    assert detect_form(b'{"format": "aimem-bundle"}\n{"_kind": "chunk"}\n') == "ndjson"


def test_aimem_3_1_both_forms_have_one_checksum(tmp_path: Path) -> None:
    """The NDJSON form carries the checksum of the equivalent bundle (records without _kind)."""
    a = validate_bundle(small_bundle(tmp_path, ".aimem.json"))
    b = validate_bundle(small_bundle(tmp_path, ".ndjson"))
    assert a.valid and b.valid
    assert a.facts["checksum"] == b.facts["checksum"]


def test_aimem_3_1_ndjson_lines_and_order(tmp_path: Path) -> None:
    """§3.1: the first line is the envelope without the arrays; then one tagged record a line."""
    lines = small_bundle(tmp_path, ".ndjson").read_bytes().splitlines()
    envelope = json.loads(lines[0])
    assert not {"chunks", "edges", "entities", "chunk_entities"} & set(envelope)
    kinds = [json.loads(line)["_kind"] for line in lines[1:]]
    assert kinds == ["chunk", "chunk", "chunk", "edge"]


def test_aimem_reader_reads_a_pipe(tmp_path: Path) -> None:
    """A non-seekable stream (a pipe) is spooled, so both passes can read it."""
    path = small_bundle(tmp_path)
    read_fd, write_fd = os.pipe()
    data = path.read_bytes()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only writes and exits
        os.close(read_fd)
        os.write(write_fd, data)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as stream:
        report = validate_bundle(stream)
    os.waitpid(pid, 0)
    assert report.valid and report.facts["counts"]["chunks"] == 3


@pytest.mark.parametrize(
    ("mangle", "code"),
    [
        (lambda b: b[:-20], "json-truncated"),
        (lambda b: b.replace(b'"c1"', b'"c\xff1"', 1), "not-utf8"),
        (lambda b: b.replace(b'"scope":"FULL"', b'"scope":FULL', 1), "json-syntax"),
        (lambda b: b + b"{}", "json-syntax"),
        (lambda b: b"", "not-an-object"),
        (lambda b: b.replace(b'"producer"', b'"producer":"x","producer"', 1), "duplicate-member"),
    ],
    ids=["truncated", "non-utf8", "syntax", "trailing", "empty", "duplicate-member"],
)
def test_aimem_broken_json_is_a_clear_error(tmp_path: Path, mangle: Any, code: str) -> None:
    """Bad JSON, truncation, non-UTF-8: one error naming the file and the rule, no traceback."""
    path = small_bundle(tmp_path)
    path.write_bytes(mangle(path.read_bytes()))
    report = validate_bundle(path)
    assert [p.code for p in report.errors] == [code]
    assert report.errors[0].file == str(path)
    assert report.status == 422 and report.exit_code == 1


def test_aimem_missing_file_is_unreadable(tmp_path: Path) -> None:
    report = validate_bundle(tmp_path / "absent.aimem.json")
    assert report.unreadable and report.exit_code == 2
    assert report.errors[0].code == "file-unreadable"


def test_aimem_writer_refuses_bad_records_and_leaves_nothing(tmp_path: Path) -> None:
    """§2: the writer applies the reader's rules; a refused bundle leaves no file behind."""
    path = tmp_path / "out.aimem.json"
    with pytest.raises(BundleError) as caught:
        write_bundle(
            path,
            ENVELOPE,
            [{"id": "chunk-1", "content": "x", "memory_type": "fact", "created_at": T0}],
        )
    assert caught.value.code == "chunk-id-invalid"
    with pytest.raises(BundleError) as caught:
        write_bundle(
            path,
            ENVELOPE,
            [{"id": f"urn:aimem:{P}:a", "content": "x", "memory_type": "fact", "created_at": T0}],
            [
                {
                    "source_id": f"urn:aimem:{P}:a",
                    "target_id": f"urn:aimem:{P}:zz",
                    "edge_type": "hebbian",
                    "weight": 0.5,
                    "created_at": T0,
                }
            ],
        )
    assert caught.value.code == "edge-unknown-chunk"
    with pytest.raises(BundleError) as caught:
        BundleWriter(path, {**ENVELOPE, "version": "2"})
    assert caught.value.code == "version-unsupported"
    assert list(tmp_path.iterdir()) == []


def test_aimem_writer_edges_may_come_before_chunks(tmp_path: Path) -> None:
    """Records are taken as they come: references are resolved when the writer finishes."""
    path = tmp_path / "out.ndjson"
    with BundleWriter(path, ENVELOPE) as writer:
        writer.add_edge(
            {
                "source_id": f"urn:aimem:{P}:a",
                "target_id": f"urn:aimem:{P}:b",
                "edge_type": "x-custom",
                "weight": 5e-05,
                "created_at": T0,
            }
        )
        for local in "ab":
            writer.add_chunk(
                {
                    "id": f"urn:aimem:{P}:{local}",
                    "content": local,
                    "memory_type": "fact",
                    "created_at": T0,
                }
            )
        writer.add_entity(
            {"id": f"urn:aimem:{P}:e", "name": "E", "kind": "x-thing", "created_at": T0}
        )
        writer.add_chunk_entity({"chunk_id": f"urn:aimem:{P}:a", "entity_id": f"urn:aimem:{P}:e"})
    report = validate_bundle(path)
    assert report.valid, [str(p) for p in report.problems]
    assert report.facts["counts"] == {"chunk_entities": 1, "chunks": 2, "edges": 1, "entities": 1}
    assert b'"weight":0.00005' in path.read_bytes()


def test_aimem_writer_does_not_overwrite_by_default(tmp_path: Path) -> None:
    path = small_bundle(tmp_path)
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        small_bundle(tmp_path)
    assert path.read_bytes() == before
    summary = write_bundle(path, ENVELOPE, overwrite=True)
    assert summary.counts["chunks"] == 0 and validate_bundle(path).valid
