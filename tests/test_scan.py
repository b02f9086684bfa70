"""The structural JSON span scanner in `memvault._speedups` (streaming reads of large files).

The reader hands each span to orjson.loads, so the spans must be exact for valid input, and
invalid or truncated input must always end in a ValueError that says what was expected where,
never in a crash, a hang or spans over garbage.

`array_items(..., stats=True)` also counts each item's object members (':' tokens outside
strings, duplicate names included) and nesting depth; the PAM validator compares the member
count with `jcs_dumps(..., count=True)` of the parsed item to find duplicate names, which
orjson drops silently, so the count must be exact.
"""

from __future__ import annotations

import json
import mmap
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memvault._speedups import array_items, jcs_dumps, object_members, value_end

from official import OFFICIAL_STORE

EXAMPLE_STORE = OFFICIAL_STORE
WHITESPACE = (" ", "\t", "\n", "\r")  # RFC 8259 §2: the only insignificant whitespace

PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------------
# Documents: arbitrary JSON, written with random whitespace
# ---------------------------------------------------------------------------------------------

_text = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(['"', "\\", "\n", "\x00", "\x1f", "{", "}", "[", "]", ",", ":", "😀"]),
    ),
    max_size=12,
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    _text,
)
json_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(_text, children, max_size=5)
    ),
    max_leaves=20,
)
json_objects = st.dictionaries(_text, json_values, max_size=6)
json_arrays = st.lists(json_values, max_size=6)


def _ws(rnd: random.Random) -> str:
    return "".join(rnd.choice(WHITESPACE) for _ in range(rnd.choice((0, 0, 0, 1, 2, 5))))


def _write(value: Any, rnd: random.Random) -> str:
    """Serialize with random insignificant whitespace between every pair of tokens."""
    ascii_only = rnd.random() < 0.5
    if isinstance(value, dict):
        if not value:
            return "{" + _ws(rnd) + "}"
        members = [
            _ws(rnd)
            + json.dumps(k, ensure_ascii=ascii_only)
            + _ws(rnd)
            + ":"
            + _ws(rnd)
            + _write(v, rnd)
            + _ws(rnd)
            for k, v in value.items()
        ]
        return "{" + ",".join(members) + "}"
    if isinstance(value, list):
        if not value:
            return "[" + _ws(rnd) + "]"
        return "[" + ",".join(_ws(rnd) + _write(v, rnd) + _ws(rnd) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


def _check_object(buf: Any, start: int, expected: dict[str, Any], end_expected: int) -> None:
    members, end = object_members(buf, start)
    assert end == end_expected
    assert len(members) == len(expected)
    for (ks, ke, vs, ve), (key, value) in zip(members, expected.items(), strict=True):
        assert buf[ks : ks + 1] == b'"' and buf[ke - 1 : ke] == b'"'
        assert orjson.loads(buf[ks:ke]) == key
        assert orjson.loads(buf[vs:ve]) == value
        assert value_end(buf, vs) == ve
    assert value_end(buf, start) == end


def _check_array(buf: Any, start: int, expected: list[Any], end_expected: int) -> None:
    items, end = array_items(buf, start)
    assert end == end_expected
    assert [orjson.loads(buf[s:e]) for s, e in items] == expected
    for s, e in items:
        assert value_end(buf, s) == e
    assert value_end(buf, start) == end


@PROPERTY
@given(value=json_objects, seed=st.integers(min_value=0, max_value=2**32))
def test_object_members_spans_with_random_whitespace(value: dict[str, Any], seed: int) -> None:
    rnd = random.Random(seed)
    lead, body, trail = _ws(rnd), _write(value, rnd), _ws(rnd)
    buf = (lead + body + trail).encode()
    _check_object(buf, len(lead.encode()), value, len((lead + body).encode()))


@PROPERTY
@given(
    value=json_objects,
    items=json_arrays,
    other=json_values,
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_object_members_items_of_in_the_same_pass(
    value: dict[str, Any], items: list[Any], other: Any, seed: int
) -> None:
    """object_members(items_of=KEY) also gives the item spans (with stats) of the array
    under KEY, exactly as array_items(stats=True) would (not for a non-array value, nor for
    the name written with an escape), and each other member's counts."""
    rnd = random.Random(seed)
    for member in (items, other):
        doc = dict(value)
        doc["memories"] = member
        lead, body = _ws(rnd), _write(doc, rnd)
        buf = (lead + body).encode()
        _check_items_of_change_nothing_else(buf, len(lead.encode()), b'"memories"')
    escaped = b'{"memorie\\u0073": [1, 2]}'
    members, _, found = object_members(escaped, 0, items_of=b'"memories"')
    assert found is None and len(members) == 1


@PROPERTY
@given(value=json_arrays, seed=st.integers(min_value=0, max_value=2**32))
def test_array_items_spans_with_random_whitespace(value: list[Any], seed: int) -> None:
    rnd = random.Random(seed)
    lead, body, trail = _ws(rnd), _write(value, rnd), _ws(rnd)
    buf = (lead + body + trail).encode()
    _check_array(buf, len(lead.encode()), value, len((lead + body).encode()))


@PROPERTY
@given(
    value=st.one_of(json_objects, json_arrays),
    indent=st.sampled_from([None, 0, 1, 2, "\t"]),
    ensure_ascii=st.booleans(),
)
def test_spans_of_json_dumps_output(value: Any, indent: Any, ensure_ascii: bool) -> None:
    buf = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii).encode()
    if isinstance(value, dict):
        _check_object(buf, 0, value, len(buf))
    else:
        _check_array(buf, 0, value, len(buf))


def test_spans_of_the_official_example_store_on_mmap(tmp_path: Path) -> None:
    raw = EXAMPLE_STORE.read_bytes()
    store = orjson.loads(raw)
    path = tmp_path / "store.json"
    path.write_bytes(raw)
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        start = len(raw) - len(raw.lstrip())
        _check_object(mm, start, store, len(raw.rstrip()))
        members, _ = object_members(mm, start)
        spans = {orjson.loads(mm[ks:ke]): (vs, ve) for ks, ke, vs, ve in members}
        vs, ve = spans["memories"]
        _check_array(mm, vs, store["memories"], ve)
        items, _ = array_items(mm, vs, stats=True)
        assert len(items) == len(store["memories"])
        for (s, e, members, depth), memory in zip(items, store["memories"], strict=True):
            assert (members, depth) == _members_and_depth(mm[s:e])
            assert members == jcs_dumps(memory, count=True)[1]


@settings(max_examples=50, deadline=None)
@given(value=st.one_of(json_objects, json_arrays), seed=st.integers(min_value=0, max_value=2**32))
def test_spans_on_mmap_bytearray_and_memoryview(value: Any, seed: int) -> None:
    rnd = random.Random(seed)
    body = _write(value, rnd).encode()
    check = _check_object if isinstance(value, dict) else _check_array
    check(bytearray(body), 0, value, len(body))
    check(memoryview(body), 0, value, len(body))
    with mmap.mmap(-1, len(body)) as mm:
        mm.write(body)
        check(mm, 0, value, len(body))


# ---------------------------------------------------------------------------------------------
# Truncated and broken input
# ---------------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.one_of(json_objects, json_arrays), seed=st.integers(min_value=0, max_value=2**32))
def test_truncation_at_every_offset_raises_value_error(value: Any, seed: int) -> None:
    rnd = random.Random(seed)
    buf = _write(value, rnd).encode()
    spans: Callable[[Any, int], Any] = object_members if isinstance(value, dict) else array_items
    for cut in range(len(buf)):
        piece = buf[:cut]
        for fn in (value_end, spans, _array_items_stats, _members_with_items):
            try:
                result = fn(piece, 0)
            except ValueError as exc:
                assert " at byte " in str(exc)
            else:
                raise AssertionError(f"{fn.__name__} accepted {piece!r}: {result!r}")


def _array_items_stats(buf: Any, pos: int) -> Any:
    return array_items(buf, pos, stats=True)


def _members_with_items(buf: Any, pos: int) -> Any:
    return object_members(buf, pos, items_of=b'"memories"')


def _check_items_of_change_nothing_else(buf: bytes, pos: int, key: bytes) -> None:
    """With items_of, object_members finds the same members, or fails with the same message,
    and the items are array_items(stats=True) of the first member with that raw key."""
    try:
        plain = object_members(buf, pos)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            object_members(buf, pos, items_of=key)
        assert str(info.value) == str(exc)
        return
    members, end, items = object_members(buf, pos, items_of=key)
    assert ([m[:4] for m in members], end) == plain
    first = next((m for m in members if buf[m[0] : m[1]] == key), None)
    if first is None or buf[first[2] : first[2] + 1] != b"[":
        assert items is None
    else:
        assert items == array_items(buf, first[2], stats=True)[0]
    for member in members:
        if member is first and items is not None:
            assert member[4:] == (-1, -1)  # its items carry the counts
        else:  # the value's counts, as array_items(stats=True) gives them for an item
            assert member[4:] == _members_and_depth(buf[member[2] : member[3]])


def _check_stats_change_nothing_else(buf: bytes, pos: int) -> None:
    """With stats, array_items finds the same spans, or fails with the same message."""
    try:
        plain = array_items(buf, pos)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            array_items(buf, pos, stats=True)
        assert str(info.value) == str(exc)
        return
    items, end = array_items(buf, pos, stats=True)
    assert ([(s, e) for s, e, _, _ in items], end) == plain
    for s, e, members, depth in items:
        assert (members, depth) == _members_and_depth(buf[s:e])


def _check_no_crash(buf: bytes, pos: int) -> None:
    _check_stats_change_nothing_else(buf, pos)
    _check_items_of_change_nothing_else(buf, pos, b'"memories"')
    for fn in (value_end, object_members, array_items):
        try:
            result = fn(buf, pos)
        except ValueError as exc:
            assert " at byte " in str(exc) or "outside the data" in str(exc)
            continue
        end = result if isinstance(result, int) else result[1]
        assert pos < end <= len(buf)
        if not isinstance(result, int):
            previous = pos
            for span in result[0]:
                assert list(span) == sorted(span)
                assert previous <= span[0] and span[-1] <= end
                previous = span[-1]


@settings(max_examples=300, deadline=None)
@given(buf=st.binary(max_size=200), data=st.data())
def test_random_bytes_never_crash(buf: bytes, data: st.DataObject) -> None:
    pos = data.draw(st.integers(min_value=0, max_value=len(buf)))
    _check_no_crash(buf, pos)


_jsonish = st.text(alphabet='{}[]",:0123456789 \t\n\\-.eEtruefalsn\x00\x1fé', max_size=60)


@settings(max_examples=400, deadline=None)
@given(text=_jsonish)
def test_scanner_agrees_with_orjson_on_json_like_text(text: str) -> None:
    """Anything orjson accepts the scanner accepts with the same extent; never a crash."""
    buf = text.encode()
    _check_no_crash(buf, 0)
    try:
        orjson.loads(buf)
    except orjson.JSONDecodeError:
        return
    assert value_end(buf, 0) == len(buf.rstrip(b" \t\n\r"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.one_of(json_objects, json_arrays),
    seed=st.integers(min_value=0, max_value=2**32),
    data=st.data(),
)
def test_mutated_documents_never_crash(value: Any, seed: int, data: st.DataObject) -> None:
    rnd = random.Random(seed)
    buf = bytearray(_write(value, rnd).encode())
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        at = data.draw(st.integers(min_value=0, max_value=len(buf) - 1))
        buf[at] = data.draw(st.sampled_from(b'{}[]",: \\\x00a1'))
    _check_no_crash(bytes(buf), 0)
    try:
        orjson.loads(buf)
    except orjson.JSONDecodeError:
        return
    assert value_end(bytes(buf), 0) == len(bytes(buf).rstrip(b" \t\n\r"))


ERRORS = [
    (value_end, b"[1 2]", "expected ',' or ']' at byte 3, found '2'"),
    (array_items, b"[1}", "expected ',' or ']' at byte 2, found '}'"),
    (value_end, b'{"a":1]', "expected ',' or '}' at byte 6, found ']'"),
    (object_members, b'{"a" 1}', "expected ':' at byte 5, found '1'"),
    (object_members, b"{1:2}", "expected a string key or '}' at byte 1, found '1'"),
    (object_members, b'{"a":1,}', "expected a string key at byte 7, found '}'"),
    (object_members, b"[]", "expected '{' at byte 0, found '['"),
    (array_items, b"{}", "expected '[' at byte 0, found '{'"),
    (array_items, b"[,]", "expected a JSON value at byte 1, found ','"),
    (array_items, b"[1,]", "expected a JSON value at byte 3, found ']'"),
    (array_items, b"[\x01]", "expected a JSON value at byte 1, found byte 0x01"),
    (array_items, b"[1,", "unexpected end of data at byte 3 (truncated?)"),
    (object_members, b'{"a":"b', "unexpected end of data at byte 7 (truncated?)"),
    (value_end, b'"abc\\', "unexpected end of data at byte 5 (truncated?)"),
    (value_end, b"", "unexpected end of data at byte 0 (truncated?)"),
    (value_end, b'["a\nb"]', "control character U+000A inside a string at byte 3"),
    (object_members, b'{"k\x00":1}', "control character U+0000 inside a string at byte 3"),
]


@pytest.mark.parametrize(("fn", "buf", "message"), ERRORS)
def test_error_messages_say_what_was_expected_and_where(
    fn: Callable[[Any, int], Any], buf: bytes, message: str
) -> None:
    with pytest.raises(ValueError) as info:
        fn(buf, 0)
    assert str(info.value) == message
    if fn is array_items:
        with pytest.raises(ValueError) as info:
            array_items(buf, 0, stats=True)
        assert str(info.value) == message


def test_start_offset_is_checked() -> None:
    with pytest.raises(ValueError, match="outside the data"):
        value_end(b"[]", 3)
    with pytest.raises(ValueError, match="outside the data"):
        array_items(b"[]", -1)
    with pytest.raises(ValueError, match="end of data"):
        object_members(b"[]", 2)
    with pytest.raises(TypeError):
        value_end("[]", 0)
    with pytest.raises(ValueError, match="outside the data"):
        array_items(b"[]", 3, stats=True)


def test_structure_only_scalars_and_escapes() -> None:
    # Scalars are runs of [A-Za-z0-9+.-]; their validity is orjson's business.
    assert value_end(b"-12.5e+3,", 0) == 8
    assert value_end(b"true]", 0) == 4
    assert array_items(b"[nul, 1x]", 0) == ([(1, 4), (6, 8)], 9)
    # a backslash always takes the next byte with it
    assert value_end(b'"\\"\\\\"', 0) == 6
    # offsets are absolute and whitespace around items is not part of the spans
    assert array_items(b'xx[ 1 ,\t"a"\n]', 2) == ([(4, 5), (8, 11)], 13)
    assert object_members(b'{ "k" :\r[ ] }', 0) == ([(2, 5, 8, 11)], 13)


# ---------------------------------------------------------------------------------------------
# Depth and concurrency
# ---------------------------------------------------------------------------------------------


def test_ten_million_deep_nesting_does_not_crash() -> None:
    depth = 10_000_000
    closed = b"[" * depth + b"]" * depth
    assert value_end(closed, 0) == 2 * depth
    assert array_items(closed, 0) == ([(1, 2 * depth - 1)], 2 * depth)
    assert array_items(closed, 0, stats=True) == ([(1, 2 * depth - 1, 0, depth - 1)], 2 * depth)
    with pytest.raises(ValueError, match=f"unexpected end of data at byte {depth}"):
        value_end(closed[:depth], 0)
    with pytest.raises(ValueError, match="expected ',' or ']'"):
        array_items(b"[" * depth + b"1}", 0)


def test_million_deep_objects() -> None:
    depth = 1_000_000
    buf = b'{"a":' * depth + b"1" + b"}" * depth
    assert value_end(buf, 0) == len(buf)
    members, end = object_members(buf, 0)
    assert members == [(1, 4, 5, len(buf) - 1)] and end == len(buf)
    wrapped = b"[" + buf + b"]"
    assert array_items(wrapped, 0, stats=True) == (
        [(1, len(buf) + 1, depth, depth)],
        len(wrapped),
    )


def test_scanning_from_several_threads() -> None:
    """The scanner runs without the GIL; concurrent scans of one buffer must agree."""
    items = [{"id": f"m{i}", "text": "x" * (i % 50), "n": [i, i / 3]} for i in range(2000)]
    buf = json.dumps(items, indent=1).encode()
    expected = array_items(buf, 0)
    expected_stats = array_items(buf, 0, stats=True)
    assert {(m, d) for _, _, m, d in expected_stats[0]} == {(3, 2)}
    results: list[Any] = []

    def work() -> None:
        for _ in range(5):
            results.append((array_items(buf, 0), array_items(buf, 0, stats=True)))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [(expected, expected_stats)] * 20


# ---------------------------------------------------------------------------------------------
# array_items(stats=True): members and depth of every item
# ---------------------------------------------------------------------------------------------


def _members_and_depth(raw: bytes) -> tuple[int, int]:
    """Reference count of ':' tokens outside strings and of the deepest bracket nesting."""
    colons = depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash: the next byte is part of the escape
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte == 0x3A:
            colons += 1
        elif byte in b"{[":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"}]":
            depth -= 1
    return colons, deepest


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as the json module parsed it: every member, duplicate names kept."""


def _shape(value: Any) -> tuple[int, int, bool]:
    """(members, depth, has duplicate names) of a json.loads(..., object_pairs_hook=_Pairs)."""
    if isinstance(value, _Pairs):
        children = [v for _, v in value]
        members, duplicates = len(value), len({k for k, _ in value}) != len(value)
    elif isinstance(value, list):
        children, members, duplicates = value, 0, False
    else:
        return 0, 0, False
    depth = 0
    for child in children:
        m, d, dup = _shape(child)
        members, depth, duplicates = members + m, max(depth, d), duplicates or dup
    return members, depth + 1, duplicates


_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def _write_string(text: str, rnd: random.Random) -> str:
    """A JSON string for `text`, escaping what must be and, at random, anything else."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\' or code < 0x20 or rnd.random() < 0.2:
            choice = rnd.random()
            if ch in _SHORT_ESCAPES and choice < 0.5:
                out.append(_SHORT_ESCAPES[ch])
            elif code > 0xFFFF:
                high = 0xD800 + ((code - 0x10000) >> 10)
                low = 0xDC00 + ((code - 0x10000) & 0x3FF)
                out.append(f"\\u{high:04x}\\u{low:04X}")
            else:  # ':' becomes \u003a, '{' \u007B, ...
                out.append(f"\\u{code:04x}" if choice < 0.75 else f"\\u{code:04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _write_raw(value: Any, rnd: random.Random) -> str:
    """Like _write, with random string escapes, and now and then a member name repeated.

    A repeated name is written anew (so maybe escaped differently, "a" and "\\u0061") with the
    value of some member of the same object.
    """
    if isinstance(value, dict):
        members = [(k, _write_raw(v, rnd)) for k, v in value.items()]
        if members and rnd.random() < 0.4:
            for _ in range(rnd.choice((1, 1, 2))):
                key = rnd.choice(members)[0]
                other = _write_raw(rnd.choice(list(value.values())), rnd)
                members.insert(rnd.randint(0, len(members)), (key, other))
        if not members:
            return "{" + _ws(rnd) + "}"
        return (
            "{"
            + ",".join(
                _ws(rnd) + _write_string(k, rnd) + _ws(rnd) + ":" + _ws(rnd) + v + _ws(rnd)
                for k, v in members
            )
            + "}"
        )
    if isinstance(value, list):
        if not value:
            return "[" + _ws(rnd) + "]"
        return "[" + ",".join(_ws(rnd) + _write_raw(v, rnd) + _ws(rnd) for v in value) + "]"
    if isinstance(value, str):
        return _write_string(value, rnd)
    return json.dumps(value)


_tricky_chars = st.one_of(
    st.sampled_from([":", "{", "}", "[", "]", '"', "\\", ",", "/", "a", "\n", "\x00", "é", "😀"]),
    st.characters(exclude_categories=["Cs"]),
)
_tricky_keys = st.text(
    alphabet=st.sampled_from(["a", "b", ":", "{", '"', "\\", "é", "😀"]), max_size=3
)
_stats_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(alphabet=_tricky_chars, max_size=10),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(_tricky_keys, children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_stats_values, max_size=6), seed=st.integers(min_value=0, max_value=2**32))
def test_array_items_stats_count_members_and_depth(items: list[Any], seed: int) -> None:
    rnd = random.Random(seed)
    texts = [_write_raw(item, rnd) for item in items]
    lead = _ws(rnd)
    doc = lead + "[" + ",".join(_ws(rnd) + t + _ws(rnd) for t in texts) + _ws(rnd) + "]"
    buf = doc.encode()
    found, end = array_items(buf, len(lead), stats=True)
    assert end == len(buf)
    assert ([(s, e) for s, e, _, _ in found], end) == array_items(buf, len(lead))
    assert len(found) == len(texts)
    for (s, e, members, depth), text in zip(found, texts, strict=True):
        raw = buf[s:e]
        assert raw == text.encode()
        reference_members, reference_depth, duplicates = _shape(
            json.loads(raw, object_pairs_hook=_Pairs)
        )
        assert (members, depth) == _members_and_depth(raw)
        assert (members, depth) == (reference_members, reference_depth)
        # orjson keeps one member per name: the canonical form of what it parsed has as many
        # members as the text exactly when no name is repeated anywhere in the item.
        canonical_members = jcs_dumps(orjson.loads(raw), count=True)[1]
        if duplicates:
            assert members > canonical_members
        else:
            assert members == canonical_members


STATS = [
    (b"1", 0, 0),
    (b"-1.5e3", 0, 0),
    (b'"a:{[\\"b\\":"', 0, 0),
    (b"{}", 0, 1),
    (b"[ ]", 0, 1),
    (b"[[],{}]", 0, 2),
    (b'{"a":[1]}', 1, 2),
    (b'{"a":1,"a":2}', 2, 1),
    (b'{"a":1,"\\u0061":{"b":[[]]}}', 3, 4),
    (b'{"k\\u003a":{"x":{}}}', 2, 3),
    (b'{"\\\\":"\\"","q":"\\":"}', 2, 1),
    (b'{ "a" : { "b" : { "c" : null } } , "d" : [ { } ] }', 4, 3),
]


@pytest.mark.parametrize(("item", "members", "depth"), STATS)
def test_array_items_stats_examples(item: bytes, members: int, depth: int) -> None:
    buf = b"[" + item + b", " + item + b"]"
    second = len(item) + 3
    expected = [(1, 1 + len(item), members, depth), (second, second + len(item), members, depth)]
    assert array_items(buf, 0, stats=True) == (expected, len(buf))
    assert array_items(buf, 0, True) == (expected, len(buf))
    assert array_items(buf, 0, stats=False) == ([s[:2] for s in expected], len(buf))
    assert _members_and_depth(item) == (members, depth)


def test_array_items_stats_arguments() -> None:
    assert array_items(b"[]", 0, stats=True) == ([], 2)
    assert array_items(b'[{"a":1}]', 0, stats=1) == ([(1, 8, 1, 1)], 9)
    assert array_items(b'[{"a":1}]', 0, stats=0) == ([(1, 8)], 9)
    with pytest.raises(TypeError):
        array_items(b"[]", 0, stat=True)
    with pytest.raises(TypeError):
        array_items(b"[]", 0, True, True)
    with pytest.raises(TypeError):
        array_items(buf=b"[]", pos=0)
