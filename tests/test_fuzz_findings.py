"""Regression tests for what the sanitizer build and the mutation fuzzer found (tests/fuzzing.py,
`make fuzz`), one per finding."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clikit import home, mv, ok, snapshot
from providergen import claude, gemini, grok, write_zip

__all__ = ["home"]  # the fixture, imported for pytest

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.slow
def test_ubsan_chatgpt_direct_title_starting_with_an_escape(tmp_path: Path) -> None:
    """UndefinedBehaviorSanitizer: a conversation title that starts with a JSON escape made
    the direct path copy zero bytes from its output buffer before anything was allocated,
    `memcpy(NULL, src, 0)` (_chatgpt_direct.c, `put`). Built here under UBSan (halting on
    the first report), the conversion runs clean."""
    package = tmp_path / "memvault"
    shutil.copytree(SRC / "memvault", package, ignore=shutil.ignore_patterns("__pycache__"))
    module = package / "importers" / ("_chatgpt_direct" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(
        [
            "gcc",
            "-shared",
            "-fPIC",
            "-std=c99",
            "-O1",
            "-g",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
            f"-I{sysconfig.get_paths()['include']}",
            str(package / "importers" / "_chatgpt_direct.c"),
            "-o",
            str(module),
        ],
        check=True,
    )
    script = textwrap.dedent(
        """
        import sys
        from memvault.importers import chatgpt, _chatgpt_direct
        from memvault.importers.ingest import make_context
        assert _chatgpt_direct.__file__.startswith(sys.argv[1]), _chatgpt_direct.__file__
        item = (b'{"id":"c1","title":"\\\\u00e9t\\xc3\\xa9 \\\\"x\\\\"","create_time":1700000000.0,'
                b'"mapping":{"a":{"id":"a","message":{"id":"a","author":{"role":"user"},'
                b'"content":{"content_type":"text","parts":["hi"]}},"parent":null,'
                b'"children":[]}}}')
        context = make_context("conversations.json", "sha256:" + "0" * 64)
        reader = chatgpt._ConversationReader(chatgpt.IMPORTER.id, context, None, {})
        written, _ = reader.direct(item, "conversation 0")
        assert b'"title":"\\xc3\\xa9t\\xc3\\xa9 \\\\"x\\\\""' in written.data, written.data
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"},
        timeout=120,
    )
    assert "runtime error" not in done.stderr, done.stderr
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_aimem_bundle_with_invalid_utf8_is_refused_not_an_internal_error(
    tmp_path: Path,
) -> None:
    """RFC 8259 §8.1: a bundle whose strings hold bytes that are not UTF-8 (an encoded
    surrogate, 0xED 0xA0 0x80) ended `validate` with "internal error: UnicodeDecodeError"."""
    source = Path(__file__).parent / "aimem_corpus" / "valid" / "minimal.aimem.json"
    path = tmp_path / "bad.aimem.json"
    path.write_bytes(source.read_bytes().replace(b'"content": "x"', b'"content": "x\xed\xa0\x80"'))
    run = mv("validate", path)
    assert run.exit_code == 1, run.stdout + run.stderr
    assert "internal error" not in run.stdout + run.stderr
    assert "not-utf8" in run.stdout and "byte 0xED" in run.stdout


@pytest.mark.parametrize("provider", ["claude", "grok", "gemini"])
def test_provider_export_with_invalid_utf8_is_refused_naming_the_file(
    home: Path, tmp_path: Path, provider: str
) -> None:
    """RFC 8259 §8.1: invalid UTF-8 inside a string of a Claude, Grok or Gemini export ended
    `import` with "internal error: UnicodeDecodeError" (exit 70)."""
    if provider == "claude":
        files = claude.encode(claude.export())
        name = "conversations.json"
    elif provider == "grok":
        files = grok.encode(grok.export())
        name = next(n for n in files if n.endswith(grok.MAIN))
    else:
        files = gemini.export()
        name = gemini.ACTIVITY_PATH["en"]
    text = files[name]
    quote = text.index(b'": "') + 4  # inside the first string value
    files[name] = text[:quote] + b"\xed\xa0\x80" + text[quote:]
    json.loads(text)  # the export was valid before
    path = write_zip(files, tmp_path / f"{provider}.zip")
    ok("init")
    before = snapshot()
    run = mv("import", path)
    output = run.stdout + run.stderr
    assert run.exit_code == 1, output
    assert "internal error" not in output
    assert "invalid UTF-8" in output and name.rsplit("/", 1)[-1] in output
    assert snapshot() == before


def test_aimem_bundle_read_exactly_with_a_raw_control_character_is_reported(
    tmp_path: Path,
) -> None:
    """RFC 8259 §7: an integer beyond 64 bits sends the bundle to the exact (pure-Python) JSON
    reader, whose string decoding raises json.JSONDecodeError for a raw control character;
    `validate_bundle` ("never raises for bad input") let it escape."""
    from memvault.formats.aimem.reader import validate_bundle

    source = Path(__file__).parent / "aimem_corpus" / "valid" / "minimal.aimem.json"
    data = source.read_bytes().replace(b'"version": "1"', b'"version": 18446744073709551616', 1)
    data = data.replace(b'"content": "x"', b'"content": "x\x19"', 1)
    path = tmp_path / "control.aimem.json"
    path.write_bytes(data)
    report = validate_bundle(path)
    codes = [problem.code for problem in report.problems]
    assert "json-syntax" in codes, report.problems
    run = mv("validate", path)
    assert run.exit_code == 1 and "internal error" not in run.stdout + run.stderr


def _gemini_zip(tmp_path: Path, change: Callable[[list[dict[str, Any]]], None]) -> Path:
    files = gemini.export()
    name = gemini.ACTIVITY_PATH["en"]
    events = json.loads(files[name])
    change(events)
    files[name] = json.dumps(events).encode()
    return write_zip(files, tmp_path / "gemini.zip")


def test_gemini_title_url_that_is_not_a_url_names_no_conversation(
    home: Path, tmp_path: Path
) -> None:
    """A `titleUrl` with an unclosed IPv6 bracket made urlsplit raise ValueError: import ended
    with "internal error: ValueError: Invalid IPv6 URL". Such a URL names no conversation:
    the event is imported on its own."""

    def change(events: list[dict[str, Any]]) -> None:
        events[0]["titleUrl"] = "https://[gemini.google.com/app/c/0123456789abcdef"

    path = _gemini_zip(tmp_path, change)
    ok("init")
    run = mv("import", path)
    assert run.exit_code == 0, run.stdout + run.stderr


def test_gemini_embedded_json_nested_past_the_limit_is_kept_as_text(
    home: Path, tmp_path: Path
) -> None:
    """RFC 8259 §9: a request held as a JSON string, nested 100,000 deep inside the string
    (where the file's own nesting bound cannot see it), made json.loads recurse: "internal
    error: RecursionError". A string nested past the limit is not read as JSON: it is the
    text itself."""
    deep = "[" * 100_000 + "]" * 100_000

    def change(events: list[dict[str, Any]]) -> None:
        event = next(e for e in events if "userInteractions" in e)
        event["userInteractions"][0]["userInteraction"]["request"] = deep

    path = _gemini_zip(tmp_path, change)
    ok("init")
    run = mv("import", path)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "internal error" not in run.stdout + run.stderr
