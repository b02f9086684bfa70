"""Bad input gets a clear error, never a traceback, a hang or unbounded memory.

`memvault validate PATH…` exits 1 for a document that is not acceptable JSON or breaks the
spec, and 2 for a target it cannot read at all (missing, not a regular file, permission, a
hostile or damaged zip). Every message names the file and, where there is one, the byte
offset, the JSON path and the rule. Archives are read in memory and never extracted.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_EXPORT, OFFICIAL_STORE, CliOutcome, memvault_script
from memvault import pam
from memvault.formats.pam.validate import validate_path

Run = Callable[..., CliOutcome]

OFFICIAL = OFFICIAL_STORE.read_bytes()
MEMORY_1 = OFFICIAL.index(b'"id": "mem-002-skill"')  # inside $.memories[1]


def write(tmp_path: Path, data: bytes, name: str = "memory-store.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    # Readable by others whatever the umask the tests run under: the unprivileged tests need
    # it readable by anyone.
    path.chmod(0o644)
    return path


def insert(data: bytes, at: int, text: bytes) -> bytes:
    return data[:at] + text + data[at:]


def expect(outcome: CliOutcome, code: int, *needles: str) -> None:
    """Exit code, no traceback, and every needle (file name, offset, path, rule) shown."""
    assert outcome.exit_code == code, outcome.output
    assert "Traceback" not in outcome.output, outcome.output
    for needle in needles:
        assert needle in outcome.output, f"{needle!r} not in:\n{outcome.output}"


def invalid(run_cli: Run, path: Path, *needles: str) -> None:
    # --verbose: every finding, not one line per rule (the needles name single findings)
    expect(run_cli("validate", "--verbose", path), 1, str(path), *needles)


def unreadable(run_cli: Run, path: Path | str, *needles: str) -> None:
    expect(run_cli("validate", path), 2, "unreadable", str(path), *needles)


# -- not JSON at all -------------------------------------------------------------------------


def test_rfc8259_2_not_json(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b"hello, this is not JSON\n")
    invalid(run_cli, path, "not JSON", "'h'", "byte 0", "RFC 8259 §2")


def test_rfc8259_2_binary_garbage_not_json(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, bytes(range(256)) * 4)
    invalid(run_cli, path, "not JSON", "byte 0x00", "RFC 8259 §2")


def test_rfc8259_2_empty_file(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b"")
    invalid(run_cli, path, "json-empty", "file is empty", "RFC 8259 §2")


def test_rfc8259_2_whitespace_only_file(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b" \n\t\r\n" * 100_000)
    invalid(run_cli, path, "json-empty", "only whitespace", "RFC 8259 §2")


@pytest.mark.parametrize(
    ("text", "kind"),
    [(b"[1, 2, 3]", "an array"), (b'"a string"', "a string"), (b"-12.5e3", "a number")],
    ids=["array", "string", "number"],
)
def test_pam_3_top_level_must_be_an_object(
    tmp_path: Path, run_cli: Run, text: bytes, kind: str
) -> None:
    path = write(tmp_path, b"\n" + text + b"\n")
    invalid(run_cli, path, "json-not-object", f"the top-level value is {kind}", "PAM §3", "byte 1")


def test_rfc8259_2_trailing_garbage_after_document(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, OFFICIAL + b"\n\n{}garbage")
    offset = len(OFFICIAL) + 2
    invalid(run_cli, path, "unexpected data after the end", f"byte {offset}", "RFC 8259 §2")


def test_rfc8259_2_trailing_garbage_after_a_megabyte_of_whitespace(
    tmp_path: Path, run_cli: Run
) -> None:
    padding = b" " * (1 << 20)
    path = write(tmp_path, OFFICIAL + padding + b"x")
    invalid(run_cli, path, "unexpected data after the end", f"byte {len(OFFICIAL) + len(padding)}")


def test_pam_3_hundreds_of_thousands_of_top_level_members_refused_quickly(
    tmp_path: Path, run_cli: Run
) -> None:
    """The schemas allow no members beyond the 16 PAM defines; a document with 200,000 is
    refused at once instead of being parsed member by member."""
    data = b"{" + b",".join(b'"k%d": 1' % i for i in range(200_000)) + b"}"
    path = write(tmp_path, data)
    started = time.monotonic()
    invalid(run_cli, path, "too-many-members", "200000 members", "PAM §3")
    assert time.monotonic() - started < 5


# -- truncated -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "where"),
    [
        (b'"schema"', "$"),  # right after the opening brace
        (b'portable-ai-memory",', "$.schema"),  # inside a header string
        (b'"did"', "$.owner"),  # inside a header object
        (b'"content": "User is fluent', "$.memories[0]"),  # inside the first memory
        (b'"id": "mem-005-environment"', "$.memories[4]"),  # inside the last memory
        (b'"id": "rel-002"', "$.relations[1]"),
        (b'"ref": "conversations/conv-003.json"', "$.conversations_index[2]"),
    ],
    ids=["after-brace", "header-string", "owner", "memory-0", "memory-4", "relation", "index"],
)
def test_rfc8259_truncated_json_names_the_member(
    tmp_path: Path, run_cli: Run, marker: bytes, where: str
) -> None:
    cut = OFFICIAL.index(marker) + 8
    path = write(tmp_path, OFFICIAL[:cut])
    needles = ["json-truncated", "the file is truncated", f"byte {cut}"]
    if where != "$":
        needles.append(f"inside {where}")
    invalid(run_cli, path, *needles)


def test_rfc8259_truncated_before_the_final_brace(tmp_path: Path, run_cli: Run) -> None:
    data = OFFICIAL.rstrip()[:-1]
    path = write(tmp_path, data)
    invalid(run_cli, path, "json-truncated", f"byte {len(data)}")


def _large_store(count: int) -> bytes:
    doc = json.loads(OFFICIAL)
    template = doc["memories"]
    doc["memories"] = [dict(template[i % len(template)], id=f"mem-{i:06d}") for i in range(count)]
    return json.dumps(doc, indent=2).encode()


def test_rfc8259_truncated_inside_a_memory_of_a_large_store(tmp_path: Path, run_cli: Run) -> None:
    data = _large_store(6000)
    cut = data.index(b'"id": "mem-004321"') + 100
    path = write(tmp_path, data[:cut])
    invalid(run_cli, path, "json-truncated", "inside $.memories[4321]", f"byte {cut}")


def test_rfc8259_broken_structure_inside_a_memory_of_a_large_store(
    tmp_path: Path, run_cli: Run
) -> None:
    data = _large_store(3000)
    at = data.index(b'"type"', data.index(b'"id": "mem-002500"'))
    path = write(tmp_path, insert(data, at, b"]"))
    invalid(run_cli, path, "json-syntax", "inside $.memories[2500]", f"byte {at}", "found ']'")


# -- encoding --------------------------------------------------------------------------------


def test_rfc8259_8_1_bom_refused(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + OFFICIAL)
    invalid(run_cli, path, "json-bom", "byte order mark", "byte 0", "RFC 8259 §8.1")


def test_rfc8259_8_1_invalid_utf8_in_a_key(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"exported_by"') + 4
    path = write(tmp_path, insert(OFFICIAL, at, b"\xff"))
    invalid(run_cli, path, "json-encoding", "invalid UTF-8", "0xFF", f"byte {at}", "RFC 8259 §8.1")


def test_rfc8259_8_1_invalid_utf8_in_a_header_value(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b"gines/0.5.0")
    path = write(tmp_path, insert(OFFICIAL, at, b"\xc3\x28"))
    invalid(run_cli, path, "json-encoding", "$.exported_by", "0xC3", f"byte {at}", "RFC 8259 §8.1")


def test_rfc8259_8_1_invalid_utf8_in_memory_content(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b"Scrapy web scraping")  # in memories[1].content
    assert at > MEMORY_1
    path = write(tmp_path, insert(OFFICIAL, at, b"\xed\xa0\x80"))  # an encoded surrogate
    invalid(run_cli, path, "json-encoding", "$.memories[1]", "0xED", f"byte {at}", "RFC 8259 §8.1")


def test_rfc8259_8_2_unpaired_surrogate_escape(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b"Scrapy web scraping")
    path = write(tmp_path, insert(OFFICIAL, at, b"\\ud800"))
    invalid(run_cli, path, "json-encoding", "$.memories[1]", "surrogate", "RFC 8259 §8.2")


def test_rfc8259_7_raw_control_character_in_a_string(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b"gines/0.5.0")
    path = write(tmp_path, insert(OFFICIAL, at, b"\x00"))
    invalid(run_cli, path, "control character U+0000", f"byte {at}", "RFC 8259 §7", "$.exported_by")


# -- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_rfc8259_6_nan_and_infinity_refused_in_a_memory(
    tmp_path: Path, run_cli: Run, token: str
) -> None:
    at = OFFICIAL.index(b'"initial": 0.95') + len(b'"initial": ')
    path = write(tmp_path, OFFICIAL[:at] + token.encode() + OFFICIAL[at + 4 :])
    invalid(
        run_cli, path, "json-number", f"{token} is not a JSON number", "$.memories[1]",
        f"byte {at}", "RFC 8259 §6",
    )  # fmt: skip


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_rfc8259_6_nan_and_infinity_refused_in_the_header(
    tmp_path: Path, run_cli: Run, token: str
) -> None:
    at = OFFICIAL.index(b'"confidence": 0.85') + len(b'"confidence": ')
    path = write(tmp_path, OFFICIAL[:at] + token.encode() + OFFICIAL[at + 4 :])
    invalid(run_cli, path, f"{token} is not a JSON number", "$.relations", f"byte {at}")


# -- nesting ---------------------------------------------------------------------------------


def test_nesting_10000_deep_top_level_array(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b"[" * 10_000 + b"]" * 10_000)
    invalid(run_cli, path, "json-not-object", "an array")


def test_nesting_10000_deep_in_a_header_member(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b'{"schema": ' + b'{"a": ' * 10_000 + b"1" + b"}" * 10_001)
    invalid(run_cli, path, "json-depth", "deeper than 200", "$.schema")


def test_nesting_10000_deep_unclosed(tmp_path: Path, run_cli: Run) -> None:
    path = write(tmp_path, b'{"schema": ' + b"[" * 10_000)
    invalid(run_cli, path, "json-truncated", "inside $.schema", f"byte {11 + 10_000}")


def test_nesting_10000_deep_inside_a_memory(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"metadata"', MEMORY_1)
    deep = b'"x-deep": ' + b"[" * 10_000 + b"]" * 10_000 + b", "
    path = write(tmp_path, insert(OFFICIAL, at, deep))
    invalid(run_cli, path, "json-depth", "$.memories[1]", "deeper than 200", "RFC 8259 §9")


def test_rfc8259_9_nesting_300_deep_in_a_header_member(tmp_path: Path, run_cli: Run) -> None:
    """Deeper than memvault's limit (200) but within orjson's (1024): refused by the reader,
    before schema validation, which cannot report on values nested about 255 deep."""
    at = OFFICIAL.index(b'"did"')
    deep = b'"x": ' + b"[" * 300 + b"]" * 300 + b",\n    "
    path = write(tmp_path, insert(OFFICIAL, at, deep))
    too_deep = at + len(b'"x": ') + 199  # the owner object is level 1
    invalid(run_cli, path, "json-depth", "deeper than 200 levels in $.owner", f"byte {too_deep}")


def test_rfc8259_9_nesting_300_deep_in_relations(tmp_path: Path, run_cli: Run) -> None:
    """relations and conversations_index are parsed after the memories, from the counts the
    scanner took on the way: the depth is refused all the same, at the right byte."""
    at = OFFICIAL.index(b'"type": "extends"')
    deep = b'"x": ' + b"[" * 300 + b"]" * 300 + b",\n      "
    path = write(tmp_path, insert(OFFICIAL, at, deep))
    too_deep = at + len(b'"x": ') + 198  # levels 1 and 2 are the array and the relation
    message = "deeper than 200 levels in $.relations"
    invalid(run_cli, path, "json-depth", message, f"byte {too_deep}")


def test_rfc8259_9_nesting_300_deep_inside_a_memory_api_load(tmp_path: Path) -> None:
    at = OFFICIAL.index(b'"metadata"', MEMORY_1)
    path = write(tmp_path, insert(OFFICIAL, at, b'"x": ' + b"[" * 300 + b"]" * 300 + b", "))
    with pytest.raises(pam.PAMError, match=r"deeper than 200 levels in \$\.memories\[1\]"):
        pam.load(path)


def test_rfc8259_9_nesting_300_deep_inside_a_memory(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"metadata"', MEMORY_1)
    path = write(tmp_path, insert(OFFICIAL, at, b'"x": ' + b"[" * 300 + b"]" * 300 + b", "))
    invalid(run_cli, path, "json-depth", "$.memories[1]", "deeper than 200")


# -- duplicate member names ------------------------------------------------------------------


def test_rfc8785_3_1_duplicate_key_top_level(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"schema_version"')
    path = write(tmp_path, insert(OFFICIAL, at, b'"schema_version": "1.0",\n  '))
    invalid(run_cli, path, "json-duplicate-key", "'schema_version'", "RFC 8785 §3.1")


def test_rfc8785_3_1_duplicate_memories_member(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"relations"')
    path = write(tmp_path, insert(OFFICIAL, at, b'"memories": [],\n  '))
    invalid(run_cli, path, "json-duplicate-key", "'memories'", f"byte {at}")


def test_rfc8785_3_1_duplicate_key_inside_a_memory(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"summary"', MEMORY_1)
    path = write(tmp_path, insert(OFFICIAL, at, b'"status": "archived",\n      '))
    invalid(run_cli, path, "json-duplicate-key", "$.memories[1]", "'status'", "mem-002-skill")


def test_rfc8785_3_1_duplicate_key_in_a_memorys_temporal_block(
    tmp_path: Path, run_cli: Run
) -> None:
    at = OFFICIAL.index(b'"updated_at"', OFFICIAL.index(b'"temporal"', MEMORY_1))
    path = write(tmp_path, insert(OFFICIAL, at, b'"created_at": "2020-01-01T00:00:00Z",\n'))
    invalid(run_cli, path, "json-duplicate-key", "$.memories[1]", "'created_at'", "temporal")


def test_rfc8785_3_1_duplicate_key_in_the_owner_block(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"did"')
    path = write(tmp_path, insert(OFFICIAL, at, b'"id": "x",\n    '))
    invalid(run_cli, path, "json-duplicate-key", "'id' in $.owner", f"byte {at}")


def test_rfc8785_3_1_duplicate_key_in_relations(tmp_path: Path, run_cli: Run) -> None:
    at = OFFICIAL.index(b'"type": "extends"')
    path = write(tmp_path, insert(OFFICIAL, at, b'"to": "mem-001-identity",\n      '))
    invalid(run_cli, path, "json-duplicate-key", "'to' in $.relations[1]", f"byte {at}")


def test_rfc8785_3_1_duplicate_key_in_conversations_index(tmp_path: Path, run_cli: Run) -> None:
    second = OFFICIAL.index(b'"id": "conv-002"')
    at = OFFICIAL.index(b'"updated_at"', second)
    extra = b'"updated_at": null,\n        '
    path = write(tmp_path, insert(OFFICIAL, at, extra))
    invalid(
        run_cli, path, "json-duplicate-key", "'updated_at' in $.conversations_index[1].temporal",
        f"byte {at + len(extra)}",  # the second occurrence is the original one
    )  # fmt: skip


def test_rfc8785_3_1_escaped_colon_is_not_a_duplicate(tmp_path: Path, run_cli: Run) -> None:
    """`\\u003a` decodes to ':' — the colon count must not mistake it for a lost member."""
    doc = json.loads(OFFICIAL)
    doc["memories"][1]["metadata"]["note"] = "a:b"
    doc["owner"]["x-note"] = "c:d"
    data = json.dumps(doc, indent=2).encode().replace(b"a:b", b"a\\u003ab")
    data = data.replace(b"c:d", b"c\\\\u003ad")  # an escaped backslash, then text
    result = validate_path(write(tmp_path, data))
    assert not [f for f in result.findings if f.code == "json-duplicate-key"], result.findings


# -- memories of the wrong shape -------------------------------------------------------------


def test_pam_3_memories_not_an_array(tmp_path: Path, run_cli: Run) -> None:
    doc = json.loads(OFFICIAL)
    doc["memories"] = {"count": 5}
    path = write(tmp_path, json.dumps(doc).encode())
    invalid(run_cli, path, "schema-type", "$.memories", 'is not of type "array"')


def test_pam_3_memories_that_are_not_objects(tmp_path: Path, run_cli: Run) -> None:
    doc = json.loads(OFFICIAL)
    doc["memories"] = [doc["memories"][0], 42, "text", None, [1]]
    path = write(tmp_path, json.dumps(doc).encode())
    invalid(
        run_cli, path, "$.memories[1]", "$.memories[2]", "$.memories[3]", "$.memories[4]",
        'a memory must be a JSON object',
    )  # fmt: skip


# -- a 2 GB string ---------------------------------------------------------------------------


@pytest.mark.slow
def test_rfc8259_2_two_gigabyte_string_rejected_from_the_first_byte(tmp_path: Path) -> None:
    """The top level of a PAM document is an object; a 2 GB JSON string is refused on its
    first byte, without reading (or mapping in) the rest: fast and in little memory."""
    path = tmp_path / "memory-store.json"
    probe = textwrap.dedent(
        f"""
        import json, resource, subprocess, sys, time
        start = time.monotonic()
        proc = subprocess.run([{memvault_script()!r}, "validate", {str(path)!r}],
                              capture_output=True, text=True)
        elapsed = time.monotonic() - start
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps({{"code": proc.returncode, "out": proc.stdout + proc.stderr,
                          "elapsed": elapsed, "peak_kib": peak_kib}}))
        """
    )
    chunk = b"a" * (64 << 20)
    try:
        with path.open("wb") as handle:
            handle.write(b'"')
            for _ in range(32):
                handle.write(chunk)
            handle.write(b'"')
        assert path.stat().st_size > 2 << 30
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
        )
    finally:
        path.unlink(missing_ok=True)  # pytest keeps the temporary directories of recent runs
    report = json.loads(done.stdout)
    expect(CliOutcome(report["code"], report["out"]), 1, str(path), "a string", "byte 0")
    assert report["elapsed"] < 10, report
    assert report["peak_kib"] < 150 * 1024, report  # the interpreter and libraries: ~45 MB


# -- targets that cannot be read (exit 2) ----------------------------------------------------


def test_missing_path_exits_2(tmp_path: Path, run_cli: Run) -> None:
    unreadable(run_cli, tmp_path / "nope.json", "no such file or directory")


def test_directory_without_memory_store_exits_2(tmp_path: Path, run_cli: Run) -> None:
    write(tmp_path, b"{}", "embeddings.json")
    unreadable(run_cli, tmp_path, "no memory-store.json in this directory", "PAM §2")


def test_fifo_is_refused_without_opening_it(tmp_path: Path, run_script: Run) -> None:
    """Opening a FIFO for reading blocks until a writer comes: it must be refused unopened.
    Run through the console script with a timeout, so a hang fails instead of hanging."""
    fifo = tmp_path / "memory-store.json"
    os.mkfifo(fifo)
    outcome = run_script("validate", fifo)
    expect(outcome, 2, str(fifo), "not a regular file", "named pipe")


def test_socket_is_refused(run_cli: Run) -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as short:  # AF_UNIX paths are short
        path = Path(short) / "s.json"
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(str(path))
            unreadable(run_cli, path, "not a regular file", "socket")


def test_character_device_is_refused(run_cli: Run) -> None:
    unreadable(run_cli, "/dev/null", "not a regular file", "character device")


def test_fifo_in_an_export_directory_is_not_opened(tmp_path: Path, run_script: Run) -> None:
    os.mkfifo(tmp_path / "memory-store.json")
    expect(run_script("validate", tmp_path), 2, "no memory-store.json")


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A directory any user may enter (tmp_path is private to the test user)."""
    path = Path(tempfile.mkdtemp(prefix="memvault-perm-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for child in sorted(path.rglob("*"), reverse=True):
            child.chmod(0o700)
            child.rmdir() if child.is_dir() else child.unlink()
        path.rmdir()


def _unprivileged(argv: list[str] | None = None, path: Path | None = None) -> CliOutcome:
    """Run `memvault ARGV…` (or print validate_path(PATH) as JSON) in a child that gives up
    root first, if it has it, so file permissions apply (root reads any file). Every memvault
    module is imported first, and two first runs (a validation and a usage error) load what the
    CLI needs, while the interpreter's and the checkout's files are still readable: commands
    import some modules only when they use them, and the checkout may be private to root."""
    action = (
        f"app({argv!r})"
        if argv is not None
        else f"print(json.dumps(validate_path({str(path)!r}).to_json()))"
    )
    code = textwrap.dedent(
        f"""
        import contextlib, importlib, io, json, os, pkgutil, sys
        import memvault
        for module in pkgutil.walk_packages(memvault.__path__, "memvault."):
            if not module.name.endswith("__main__"):  # that one runs the command line
                importlib.import_module(module.name)
        from memvault.cli import app
        from memvault.formats.pam.validate import validate_path
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            app(["validate", os.devnull], standalone_mode=False)
            with contextlib.suppress(SystemExit):  # loads the schemas a store needs
                app(["validate", {str(EXAMPLE_EXPORT / "memory-store.json")!r}])
            with contextlib.suppress(SystemExit):
                app(["validate", "--no-such-option"])
        if os.geteuid() == 0:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
        {action}
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return CliOutcome(proc.returncode, proc.stdout + proc.stderr)


def test_file_without_read_permission_is_unreadable(open_dir: Path) -> None:
    path = write(open_dir, OFFICIAL)
    path.chmod(0)
    outcome = _unprivileged(path=path)
    assert outcome.exit_code == 0, outcome.output
    result = json.loads(outcome.output)
    assert result["exit_code"] == 2 and result["findings"][0]["code"] == "permission"
    assert result["findings"][0]["file"] == str(path)
    assert result["findings"][0]["message"] == "permission denied"


def test_file_without_read_permission_exits_2(open_dir: Path) -> None:
    path = write(open_dir, OFFICIAL)
    path.chmod(0)
    expect(_unprivileged(["validate", str(path)]), 2, str(path))


def test_file_without_read_permission_does_not_stop_the_other_paths(open_dir: Path) -> None:
    path = write(open_dir, OFFICIAL)
    path.chmod(0)
    good = write(open_dir, (EXAMPLE_EXPORT / "memory-store.json").read_bytes(), "good.json")
    outcome = _unprivileged(["validate", str(path), str(good)])
    expect(outcome, 2, str(path), "permission denied", "1 of 2 valid")


def test_unreadable_memory_store_in_an_export_directory_exits_2(open_dir: Path) -> None:
    path = write(open_dir, OFFICIAL)
    path.chmod(0)
    expect(_unprivileged(["validate", str(open_dir)]), 2, str(path), "permission denied")


# -- zip archives ----------------------------------------------------------------------------


def _export_entries() -> list[tuple[str, bytes]]:
    return [
        (p.relative_to(EXAMPLE_EXPORT).as_posix(), p.read_bytes())
        for p in sorted(EXAMPLE_EXPORT.rglob("*.json"))
    ]


def make_zip(path: Path, extra: Sequence[tuple[str | zipfile.ZipInfo, bytes]] = ()) -> Path:
    """The sample export zipped, plus `extra` entries."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [*_export_entries(), *extra]:
            archive.writestr(name, data)
    return path


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.fixture
def zipdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working directory for zip tests; afterwards nothing but the test's own archives may
    have appeared in it or next to it (archives are never extracted)."""
    work = tmp_path / "work"
    work.mkdir()
    before = set(tree(tmp_path))
    monkeypatch.chdir(work)
    yield work
    new = set(tree(tmp_path)) - before
    assert all(p.startswith("work/") and p.endswith(".zip") for p in new), new


def test_valid_zip_is_accepted(zipdir: Path, run_cli: Run) -> None:
    path = make_zip(zipdir / "export.zip")
    expect(run_cli("validate", path), 0, "export zip", "14 memories")


def test_zip_truncated(zipdir: Path, run_cli: Run) -> None:
    data = make_zip(zipdir / "full.zip").read_bytes()
    path = zipdir / "export.zip"
    path.write_bytes(data[: len(data) // 2])
    unreadable(run_cli, path, "bad-zip", "truncated or damaged")


def test_zip_with_corrupt_compressed_data(zipdir: Path, run_cli: Run) -> None:
    data = bytearray(make_zip(zipdir / "full.zip").read_bytes())
    start = data.index(b"memory-store.json") + len("memory-store.json") + 20
    for i in range(start, start + 64):
        data[i] ^= 0x5A
    path = zipdir / "export.zip"
    path.write_bytes(bytes(data))
    unreadable(run_cli, path, "bad-zip", f"{path}:memory-store.json", "cannot read archive entry")


def test_zip_without_memory_store(zipdir: Path, run_cli: Run) -> None:
    path = zipdir / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("embeddings.json", (EXAMPLE_EXPORT / "embeddings.json").read_bytes())
    unreadable(run_cli, path, "no memory-store.json in this zip", "PAM §2")


def test_zip_bomb_extreme_ratio(zipdir: Path, run_cli: Run) -> None:
    path = make_zip(zipdir / "export.zip", [("conversations/bomb.json", b" " * (64 << 20))])
    unreadable(run_cli, path, "zip-bomb", f"{path}:conversations/bomb.json", "exceeds 200:1")


def _patch_central_size(data: bytes, name: bytes, size: int) -> bytes:
    """Rewrite the uncompressed size a zip's central directory declares for `name`."""
    buf = bytearray(data)
    pos = 0
    while (pos := buf.find(b"PK\x01\x02", pos)) >= 0:
        length = int.from_bytes(buf[pos + 28 : pos + 30], "little")
        if bytes(buf[pos + 46 : pos + 46 + length]) == name:
            buf[pos + 24 : pos + 28] = size.to_bytes(4, "little")
            return bytes(buf)
        pos += 4
    raise AssertionError(f"{name!r} not in the central directory")


def test_zip_bomb_entry_declaring_a_huge_size(zipdir: Path, run_cli: Run) -> None:
    data = make_zip(zipdir / "full.zip").read_bytes()
    path = zipdir / "export.zip"
    path.write_bytes(_patch_central_size(data, b"memory-store.json", 0xFFFF_FFF0))
    unreadable(run_cli, path, "zip-bomb", f"{path}:memory-store.json", "4294967280")


def test_zip_entry_larger_than_declared(zipdir: Path, run_cli: Run) -> None:
    data = make_zip(zipdir / "full.zip").read_bytes()
    path = zipdir / "export.zip"
    path.write_bytes(_patch_central_size(data, b"memory-store.json", 100))
    unreadable(run_cli, path, f"{path}:memory-store.json")


@pytest.mark.parametrize("name", ["../evil.json", "conversations/../../evil.json"])
def test_zip_entry_escaping_with_dotdot(zipdir: Path, run_cli: Run, name: str) -> None:
    path = make_zip(zipdir / "export.zip", [(name, b"{}")])
    unreadable(run_cli, path, "zip-path", f"{path}:{name}", "'..'")


@pytest.mark.parametrize("name", ["/tmp/evil.json", "C:/evil.json"])
def test_zip_entry_with_absolute_name(zipdir: Path, run_cli: Run, name: str) -> None:
    path = make_zip(zipdir / "export.zip", [(name, b"{}")])
    unreadable(run_cli, path, "zip-path", f"{path}:{name}", "absolute path")


def test_zip_symlink_entry(zipdir: Path, run_cli: Run) -> None:
    info = zipfile.ZipInfo("conversations/link.json")
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    path = make_zip(zipdir / "export.zip", [(info, b"/etc/passwd")])
    unreadable(run_cli, path, "zip-symlink", f"{path}:conversations/link.json", "symbolic link")


def test_zip_encrypted_entry(zipdir: Path, run_cli: Run) -> None:
    data = bytearray(make_zip(zipdir / "full.zip").read_bytes())
    pos = 0
    while (pos := data.find(b"PK\x01\x02", pos)) >= 0:  # set bit 0 of every entry's flags
        data[pos + 8] |= 0x01
        pos += 4
    path = zipdir / "export.zip"
    path.write_bytes(bytes(data))
    unreadable(run_cli, path, "zip-encrypted", f"{path}:", "encrypted")


def test_zip_nested_zip(zipdir: Path, run_cli: Run) -> None:
    inner = make_zip(zipdir / "inner.zip").read_bytes()
    path = zipdir / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("inner.zip", inner)
    unreadable(run_cli, path, "zip-nested", f"{path}:inner.zip", "nested archives")


def test_zip_memory_store_that_is_itself_a_zip(zipdir: Path, run_cli: Run) -> None:
    inner = make_zip(zipdir / "inner.zip").read_bytes()
    path = zipdir / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("memory-store.json", inner)
    expect(run_cli("validate", path), 1, f"{path}:memory-store.json", "a zip archive, not a JSON")


def test_zip_duplicate_entry_names(zipdir: Path, run_cli: Run) -> None:
    path = zipdir / "export.zip"
    with pytest.warns(UserWarning, match="Duplicate name"):
        make_zip(path, [("memory-store.json", b"{}")])
    unreadable(run_cli, path, "zip-duplicate", f"{path}:memory-store.json")


def test_zip_entry_with_bad_json_names_the_entry(zipdir: Path, run_cli: Run) -> None:
    path = make_zip(zipdir / "export.zip", [("conversations/broken.json", b'{"a": [1, 2')])
    expect(
        run_cli("validate", path), 1, f"{path}:conversations/broken.json", "json-truncated",
        "after $.a[1]",
    )  # fmt: skip


# -- the Python API --------------------------------------------------------------------------


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    return {
        "not-json": write(tmp_path, b"not json", "a.json"),
        "truncated": write(tmp_path, OFFICIAL[:5000], "b.json"),
        "bom": write(tmp_path, b"\xef\xbb\xbf" + OFFICIAL, "c.json"),
        "duplicate": write(
            tmp_path,
            insert(OFFICIAL, OFFICIAL.index(b'"summary"', MEMORY_1), b'"status": "x",'),
            "d.json",
        ),
        "nan": write(tmp_path, OFFICIAL.replace(b"0.95,", b"NaN,", 1), "e.json"),
    }


def test_api_validate_reports_bad_json_as_invalid(tmp_path: Path) -> None:
    for what, path in _bad_files(tmp_path).items():
        result = pam.validate(path)
        assert not result.valid and not result.unreadable and result.exit_code == 1, what
        assert all(f.file == str(path) for f in result.errors), (what, result.errors)


def test_api_validate_reports_unreadable_targets(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    for path in (tmp_path / "missing.json", tmp_path / "fifo.json", tmp_path):
        result = pam.validate(path)
        assert result.unreadable and not result.valid and result.exit_code == 2, path
        assert result.errors and result.errors[0].file == str(path)


def test_api_load_raises_pam_error_naming_file_and_place(tmp_path: Path) -> None:
    expected = {
        "not-json": "not JSON",
        "truncated": "truncated",
        "bom": "byte order mark",
        "duplicate": "duplicate member name 'status' in $.memories[1]",
        "nan": "NaN is not a JSON number in $.memories[1]",
    }
    for what, path in _bad_files(tmp_path).items():
        with pytest.raises(pam.PAMError) as caught:
            pam.load(path)
        assert str(path) in str(caught.value) and expected[what] in str(caught.value), what


def test_api_load_raises_pam_error_for_unreadable_targets(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    bomb = make_zip(tmp_path / "bomb.zip", [("conversations/x.json", b" " * (64 << 20))])
    for path in (tmp_path / "missing.json", tmp_path / "fifo.json", tmp_path, bomb):
        with pytest.raises(pam.PAMError, match=str(path)):
            pam.load(path)


# -- the real console script -----------------------------------------------------------------


def test_console_script_truncated_store(tmp_path: Path, run_script: Run) -> None:
    path = write(tmp_path, OFFICIAL[: len(OFFICIAL) // 2])
    expect(run_script("validate", path), 1, str(path), "truncated", "inside $.memories[")


def test_console_script_json_output_for_bad_input(tmp_path: Path, run_script: Run) -> None:
    bad = write(tmp_path, b"\xef\xbb\xbf{}", "bom.json")
    missing = tmp_path / "missing.json"
    outcome = run_script("validate", "--json", bad, missing)
    expect(outcome, 2)
    results: list[dict[str, Any]] = json.loads(outcome.output)
    assert [r["exit_code"] for r in results] == [1, 2]
    assert results[0]["findings"][0]["code"] == "json-bom"
    assert results[1]["findings"][0]["code"] == "not-found"


def test_console_script_many_bad_targets_at_once(tmp_path: Path, run_script: Run) -> None:
    paths = [
        write(tmp_path, b"", "empty.json"),
        write(tmp_path, b"[]", "array.json"),
        tmp_path / "missing.json",
    ]
    started = time.monotonic()
    outcome = run_script("validate", *paths)
    expect(outcome, 2, "0 of 3 valid", *(str(p) for p in paths))
    assert time.monotonic() - started < 30
