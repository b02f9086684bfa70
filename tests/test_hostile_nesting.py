"""Deep nesting in what a user imports, converts, validates or inspects (RFC 8259 §9 lets a
parser limit it: memvault reads PAM and AIMEM documents up to `jsonread.MAX_DEPTH`, 200 levels,
and provider exports up to `jsonread.STREAM_MAX_DEPTH`, 192, since an importer may put a value
a few levels deeper in the PAM documents it writes).

- A provider export with a value nested past the limit: `import` and `convert` refuse it alike,
  naming the file, the record and member, and the limit — never an internal error (exit 70).
  At the limit both accept it, and what `convert` writes passes `validate`.
- The depth is bounded by a byte scan with constant state before ijson, yajl or orjson sees
  the bytes (`jsonread.DepthBoundedReader`, through `sources.Entry.stream`), so no reader
  builds state for each of 100,000 levels.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from memvault._speedups import nesting_scan as c_nesting_scan

from clikit import home, mv, ok, snapshot
from memvault import jsonread
from memvault.sources import SourceError, open_target
from providergen import chatgpt, claude, gemini, grok, write_folder, write_zip

__all__ = ["home"]  # the fixture, imported for pytest

#: The limit for what is read as a stream: provider exports.
LIMIT = jsonread.STREAM_MAX_DEPTH


def max_depth(data: bytes) -> int:
    """The deepest nesting of a JSON text, by the scanner under test's C twin."""
    if c_nesting_scan(data, 0, 0)[1] < 0:
        return 0
    low, high = 0, 1
    while c_nesting_scan(data, 0, high)[1] >= 0:
        low, high = high, high * 2
    while high - low > 1:  # the smallest limit the text stays within
        mid = (low + high) // 2
        if c_nesting_scan(data, 0, mid)[1] >= 0:
            low = mid
        else:
            high = mid
    return high


def deepen(data: bytes, total: int) -> bytes:
    """`data` (a JSON export file) with a member `x_deep` added to its first record (the first
    object inside an array), holding arrays nested so the file is `total` levels deep."""
    value = json.loads(data)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop(0)
        if isinstance(node, list):
            stack.extend((item, level + 1) for item in node)
        elif isinstance(node, dict):
            if level > 1:
                break
            stack.extend((item, level + 1) for item in node.values())
    else:
        raise AssertionError("no record found")
    deep = total - level  # the record's member value sits one level below the record
    text = json.dumps(value, ensure_ascii=False)
    node["x_deep"] = "PLACEHOLDER"
    text = json.dumps(value, ensure_ascii=False)
    out = text.replace('"PLACEHOLDER"', "[" * deep + "]" * deep, 1).encode()
    assert max_depth(out) == total, (max_depth(out), total)
    return out


def chatgpt_files() -> dict[str, bytes]:
    return chatgpt.export(seed=1, count=2)


def claude_files() -> dict[str, bytes]:
    return claude.encode(claude.export())


def gemini_files() -> dict[str, bytes]:
    return gemini.export()


def grok_files() -> dict[str, bytes]:
    return grok.encode(grok.export())


#: provider → (its files, the JSON file a value is nested in)
PROVIDERS: dict[str, tuple[Callable[[], dict[str, bytes]], str]] = {
    "chatgpt": (chatgpt_files, "conversations.json"),
    "claude": (claude_files, "conversations.json"),
    "gemini": (gemini_files, gemini.ACTIVITY_PATH["en"]),
    "grok": (grok_files, f"{grok.MAIN}"),
}


def export_with_depth(tmp_path: Path, provider: str, total: int, layout: str) -> Path:
    make, base = PROVIDERS[provider]
    files = make()
    name = next(n for n in files if n == base or n.endswith("/" + base))
    files[name] = deepen(files[name], total)
    if layout == "zip":
        return write_zip(files, tmp_path / f"{provider}.zip")
    if layout == "file":
        path = tmp_path / name.rsplit("/", 1)[-1]
        path.write_bytes(files[name])
        return path
    return write_folder(files, tmp_path / provider)


CASES = [
    ("chatgpt", "zip"),
    ("chatgpt", "file"),
    ("claude", "zip"),
    ("claude", "folder"),
    ("gemini", "zip"),
    ("grok", "zip"),
    ("grok", "file"),
]


@pytest.mark.parametrize(("provider", "layout"), CASES)
def test_rfc8259_9_nesting_past_the_limit_is_refused_alike_by_import_and_convert(
    home: Path, tmp_path: Path, provider: str, layout: str
) -> None:
    """RFC 8259 §9: one level past the limit (the deep value nested 300 levels used to
    end `import` with "internal error: TypeError: Recursion limit reached", exit 70, while
    `convert` wrote it). Both refuse, naming the file, record, member and limit; the vault is
    left exactly as it was and convert writes nothing."""
    ok("init")
    before = snapshot()
    path = export_with_depth(tmp_path, provider, LIMIT + 1, layout)
    out = tmp_path / "out"
    for args in (("import", path), ("convert", path, "-o", out)):
        run = mv(*args)
        text = run.stdout + run.stderr
        assert run.exit_code == 1, text
        assert "internal error" not in text and "Traceback" not in text
        assert f"nesting is deeper than {LIMIT} levels" in text, text
        assert f"RFC 8259 §9 (nesting limit {LIMIT})" in text
        assert ".x_deep[0][0]" in text  # the record's member the nesting is in
        assert PROVIDERS[provider][1].rsplit("/", 1)[-1] in text  # the file
    assert not out.exists()
    assert snapshot() == before


@pytest.mark.parametrize(("provider", "layout"), [("chatgpt", "zip"), ("claude", "zip"),
                                                  ("gemini", "zip"), ("grok", "file")])  # fmt: skip
def test_rfc8259_9_nesting_at_the_limit_is_accepted_alike_and_converts_valid(
    home: Path, tmp_path: Path, provider: str, layout: str
) -> None:
    """RFC 8259 §9: exactly the limit is read by both commands, and what convert writes of
    it passes memvault's own validator (its nesting stays within the limit)."""
    ok("init")
    path = export_with_depth(tmp_path, provider, LIMIT, layout)
    imported = mv("import", path)
    assert imported.exit_code == 0, imported.stderr
    out = tmp_path / "out"
    converted = mv("convert", path, "-o", out)
    assert converted.exit_code == 0, converted.stderr
    checked = mv("validate", out)
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_rfc8259_9_the_error_names_the_record_of_a_later_conversation(tmp_path: Path) -> None:
    """The path names which conversation (record) and which member: here the third."""
    files = chatgpt.export(seed=1, count=3)
    items = json.loads(files["conversations.json"])
    items[2]["x_deep"] = "PLACEHOLDER"
    text = json.dumps(items).replace('"PLACEHOLDER"', "[" * 300 + "]" * 300)
    path = tmp_path / "conversations.json"
    path.write_text(text)
    with (
        open_target(path) as target,
        pytest.raises(SourceError) as caught,
        target.entries[0].stream() as stream,
    ):
        json.load(stream)  # fails on the text cut before the deep part
    assert caught.value.code == "json-depth"
    assert "in $[2].x_deep[0][0]" in caught.value.message
    assert "(+" in caught.value.message  # a run of 200 levels is shortened


# -- the scanner ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (b"[]", 1),
        (b'{"a":[{"b":"[[[["}]}', 3),
        (b'["\\"[[", "\\\\", [[]]]', 3),
        (b'"[[[["', 0),
        (b"]]]][", 1),  # extra closers never go below zero
        (b'{"a\\u005b":1}', 1),
    ],
)
def test_nesting_scan_counts_brackets_outside_strings(text: bytes, depth: int) -> None:
    assert max_depth(text) == depth
    for limit in range(0, 5):
        c = c_nesting_scan(text, 0, limit)
        assert c == jsonread.nesting_scan_py(text, 0, limit)
        assert (c[1] >= 0) == (depth > limit)


def test_nesting_scan_carries_strings_and_escapes_across_chunks() -> None:
    """A string or an escape split between two reads: the state carries it over; C and
    Python agree for every split point."""
    text = b'[{"k":"a\\"[[[\\\\"},["x\\\\\\"]"],[[1]]]'
    whole = c_nesting_scan(text, 0, 10)
    for cut in range(len(text) + 1):
        for scan in (c_nesting_scan, jsonread.nesting_scan_py):
            state, over = scan(text[:cut], 0, 10)
            assert over == -1
            assert scan(text[cut:], state, 10) == whole
    assert whole[0] >> 2 == 0  # balanced: back to depth 0, outside any string


def test_nesting_scan_random_texts_agree_with_python() -> None:
    rng = random.Random(5)
    alphabet = b'[]{}"\\ ,:a'
    for _ in range(2000):
        text = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        limit = rng.randint(0, 6)
        assert c_nesting_scan(text, 0, limit) == jsonread.nesting_scan_py(text, 0, limit)


def test_depth_bounded_reader_passes_what_is_not_json_untouched() -> None:
    """CSV, text and binary entries (a Copilot export, a memory text, an image) are not
    counted: brackets in them mean nothing."""
    for data in (b"a,b\n" + b"[" * 5000, b"- note [[[" * 1000, b"\xff\xd8" + b"{" * 5000):
        reader = jsonread.DepthBoundedReader(io.BytesIO(data), "x")
        assert io.BufferedReader(reader).read() == data
    text = b"\xef\xbb\xbf \n" + b"[" * 300
    reader = jsonread.DepthBoundedReader(io.BytesIO(text), "x")
    at = 5 + jsonread.MAX_DEPTH  # the default limit
    assert io.BufferedReader(reader).read() == text[:at]  # ends before the deep bracket
    assert reader.error is not None
    assert reader.error.code == "json-depth" and reader.error.offset == at


def test_check_nesting_names_the_path_of_a_whole_buffer() -> None:
    data = b'{"memories":[{"id":"m","x":' + b"[" * 250 + b"]" * 250 + b"}]}"
    limit = jsonread.MAX_DEPTH
    with pytest.raises(jsonread.JSONDocumentError) as caught:
        jsonread.check_nesting(data, "store.json")
    assert caught.value.path is not None
    assert caught.value.path.startswith("$.memories[0].x[0][0]")
    jsonread.check_nesting(b"[" * limit + b"]" * limit, "ok.json")
