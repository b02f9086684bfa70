"""RFC 8785 canonical JSON and the PAM hashes built on it (PAM §6, §15, Appendix C).

Both implementations of `jcs_dumps` (the C extension and the Python one on orjson) are held
against the `rfc8785` package, which is what PAM Appendix C names as the Python JCS library.
"""

from __future__ import annotations

import collections
import enum
import hashlib
import importlib
import json
import math
import struct
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault import canonical
from memvault.canonical import (
    CanonicalizationError,
    UnsupportedTypeError,
    checksum_of_canonical,
    content_hash,
    integrity_checksum,
    jcs_dumps,
    jcs_dumps_python,
    normalize_content,
    sha256_prefixed,
    strip_nulls,
)
from official import OFFICIAL_STORE

EXAMPLE_STORE = OFFICIAL_STORE


def _speedups_dumps(value: object) -> bytes:
    from memvault import _speedups

    result: bytes = _speedups.jcs_dumps(value)
    return result


# Every check below runs against the C extension, the public entry point (C with a Python
# re-run for error messages) and the pure-Python implementation.
IMPLEMENTATIONS: dict[str, Callable[[object], bytes]] = {
    "c": _speedups_dumps,
    "public": jcs_dumps,
    "python": jcs_dumps_python,
}
impls = pytest.mark.parametrize("dumps", list(IMPLEMENTATIONS.values()), ids=list(IMPLEMENTATIONS))

DIFFERENTIAL = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

MAX_SAFE = 2**53 - 1


def _from_bits(bits: int) -> float:
    value: float = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    return value


finite_floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    # the ranges where ECMAScript and Python's repr disagree on notation
    st.floats(min_value=1e16, max_value=1e21),
    st.floats(min_value=-1e21, max_value=-1e16),
    st.floats(min_value=1e-7, max_value=1e-4),
    st.floats(min_value=-1e-4, max_value=-1e-7),
    st.floats(min_value=1e-8, max_value=1e-6),
    st.floats(min_value=1e20, max_value=1e22),
    # subnormals
    st.floats(min_value=0.0, max_value=2.2250738585072014e-308, exclude_min=True),
    # whole floats (1.0 must be written "1")
    st.integers(min_value=-MAX_SAFE, max_value=MAX_SAFE).map(float),
    # short decimals, the realistic case (confidence 0.95)
    st.builds(
        lambda m, e: float(f"{m}e{e}"),
        st.integers(min_value=-(10**17), max_value=10**17),
        st.integers(min_value=-30, max_value=30),
    ),
    # any bit pattern that is finite
    st.integers(min_value=0, max_value=2**64 - 1)
    .map(_from_bits)
    .filter(lambda x: math.isfinite(x)),
    st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1.7976931348623157e308, 1e21, 1e-7]),
)

safe_ints = st.integers(min_value=-MAX_SAFE, max_value=MAX_SAFE)

_interesting_chars = st.one_of(
    st.characters(max_codepoint=0x7F),
    st.characters(min_codepoint=0x00, max_codepoint=0x1F),  # control characters
    st.sampled_from(['"', "\\", "/", "\x7f", "\u2028", "\u2029", "\ufeff", "\x80", "\xff"]),
    st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF),  # above the surrogates
    st.characters(min_codepoint=0x10000),  # astral: emoji and friends
    st.characters(exclude_categories=["Cs"]),
)
json_text = st.text(alphabet=_interesting_chars, max_size=20)

# Keys from a small alphabet so that siblings share prefixes and astral characters meet
# U+E000..U+FFFF at the same position: where UTF-16 order and code point order disagree.
_key_chars = st.sampled_from(
    ["a", "b", "\x00", "\x7f", "é", "\u20ac", "\ue000", "\uffff", "\ufb33", "😀", "\U00010000"]
)
json_keys = st.one_of(st.text(alphabet=_key_chars, max_size=4), json_text)

json_scalars = st.one_of(st.none(), st.booleans(), safe_ints, finite_floats, json_text)

json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(json_keys, children, max_size=6),
    ),
    max_leaves=40,
)

# ---------------------------------------------------------------------------------------------
# Differential tests against rfc8785
# ---------------------------------------------------------------------------------------------


def _assert_matches_oracle(value: Any) -> bytes:
    """Both implementations must produce exactly the reference library's bytes."""
    expected = rfc8785.dumps(value)
    assert _speedups_dumps(value) == expected
    assert jcs_dumps_python(value) == expected
    return expected


@DIFFERENTIAL
@given(value=json_values)
def test_rfc8785_3_2_matches_reference_library_on_arbitrary_json(value: Any) -> None:
    _assert_matches_oracle(value)


@DIFFERENTIAL
@given(value=finite_floats)
def test_rfc8785_3_2_2_3_numbers_match_reference_library(value: float) -> None:
    out = _assert_matches_oracle(value)
    _assert_matches_oracle([value, -value])
    assert float(out) == value  # the text reads back as the same double


@settings(max_examples=200, deadline=None)
@given(value=st.dictionaries(json_keys, safe_ints, max_size=12))
def test_rfc8785_3_2_3_keys_sorted_by_utf16_units(value: dict[str, int]) -> None:
    out = _assert_matches_oracle(value)
    assert list(json.loads(out)) == sorted(value, key=lambda k: k.encode("utf-16-be"))


@DIFFERENTIAL
@given(value=json_text)
def test_rfc8785_3_2_2_2_strings_match_reference_library(value: str) -> None:
    out = _assert_matches_oracle(value)
    assert json.loads(out) == value


# ---------------------------------------------------------------------------------------------
# Explicit examples
# ---------------------------------------------------------------------------------------------

# RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
RFC8785_APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@impls
@pytest.mark.parametrize(("bits", "expected"), RFC8785_APPENDIX_B)
def test_rfc8785_appendix_b_number_serialization(
    dumps: Callable[[object], bytes], bits: str, expected: str
) -> None:
    value = _from_bits(int(bits, 16))
    assert dumps(value) == expected.encode()
    assert rfc8785.dumps(value) == expected.encode()


NUMBER_EXAMPLES = [
    (1.0, "1"),
    (-1.0, "-1"),
    (0.0, "0"),
    (-0.0, "0"),
    (0.95, "0.95"),
    (1e21, "1e+21"),
    (1e20, "100000000000000000000"),
    (1e16, "10000000000000000"),
    (1.5e16, "15000000000000000"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (1e-6, "0.000001"),
    (0.00001, "0.00001"),
    (0.0001, "0.0001"),
    (5e-324, "5e-324"),
    (0.1 + 0.2, "0.30000000000000004"),
    (123456789.125, "123456789.125"),
    (2**53 - 1, "9007199254740991"),
    (-(2**53 - 1), "-9007199254740991"),
    (True, "true"),
    (False, "false"),
    (None, "null"),
]


@impls
@pytest.mark.parametrize(("value", "expected"), NUMBER_EXAMPLES)
def test_rfc8785_3_2_2_3_number_examples(
    dumps: Callable[[object], bytes], value: object, expected: str
) -> None:
    assert dumps(value) == expected.encode()


@impls
def test_rfc8785_3_2_3_sorting_example(dumps: Callable[[object], bytes]) -> None:
    """The example of RFC 8785 §3.2.3: "\\r" < "1" < U+0080 < U+00F6 < € < 😀 < U+FB33."""
    value = {
        "\u20ac": "Euro Sign",
        "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh",
        "1": "One",
        "\U0001f600": "Emoji: Grinning Face",
        "\u0080": "Control",
        "\u00f6": "Latin Small Letter O With Diaeresis",
    }
    assert list(json.loads(dumps(value)).values()) == [
        "Carriage Return",
        "One",
        "Control",
        "Latin Small Letter O With Diaeresis",
        "Euro Sign",
        "Emoji: Grinning Face",
        "Hebrew Letter Dalet With Dagesh",
    ]


@impls
def test_rfc8785_3_2_3_astral_key_sorts_before_private_use_key(
    dumps: Callable[[object], bytes],
) -> None:
    # Code point order would put U+E000 first; UTF-16 order puts the surrogate pair first.
    assert dumps({"\ue000": 1, "😀": 2}) == '{"😀":2,"\ue000":1}'.encode()
    assert dumps({"x\uffff": 1, "x\U00010000": 2}) == '{"x\U00010000":2,"x\uffff":1}'.encode()
    nested: Any = {"k": [{"\ue000": 1, "😀": {"\uffff": 0, "\U0001f600": 0}}]}
    assert dumps(nested) == rfc8785.dumps(nested)


@impls
def test_rfc8785_3_2_4_full_example(dumps: Callable[[object], bytes]) -> None:
    source = (
        '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        ' "literals": [null, true, false]}'
    )
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert dumps(json.loads(source)) == expected.encode()


@impls
def test_rfc8785_3_2_2_2_string_escapes(dumps: Callable[[object], bytes]) -> None:
    assert dumps('"\\\b\f\n\r\t') == b'"\\"\\\\\\b\\f\\n\\r\\t"'
    assert dumps("\x00\x01\x0b\x1f") == b'"\\u0000\\u0001\\u000b\\u001f"'
    # everything else literally, as UTF-8, including DEL, U+2028 and the solidus
    assert dumps("\x7f\u2028\u2029/é😀") == '"\x7f\u2028\u2029/é😀"'.encode()


@impls
def test_rfc8785_3_2_1_no_whitespace_and_nested_containers(
    dumps: Callable[[object], bytes],
) -> None:
    value = {"b": [1, {"d": [], "c": {}}, (2, 3)], "a": None}
    assert dumps(value) == b'{"a":null,"b":[1,{"c":{},"d":[]},[2,3]]}'


class _Color(enum.IntEnum):
    RED = 7


class _Name(enum.StrEnum):
    ALICE = "alice"


class _LoudStr(str):
    def __str__(self) -> str:
        return "NOT THIS"


class _Float(float):
    def __repr__(self) -> str:
        return "NOT THIS"


class _Int(int):
    def __int__(self) -> int:
        return 0

    def __index__(self) -> int:
        return 0


@impls
def test_subclasses_are_serialized_as_their_base_type(dumps: Callable[[object], bytes]) -> None:
    value = {
        "color": _Color.RED,
        "name": _Name.ALICE,
        _LoudStr("loud"): _LoudStr("quiet"),
        "f": _Float(0.5),
        "i": _Int(12),
        "od": collections.OrderedDict([("z", 1), ("y", 2)]),
        "bool": True,  # bool is an int subclass but must not become 1
    }
    expected = (
        b'{"bool":true,"color":7,"f":0.5,"i":12,"loud":"quiet","name":"alice","od":{"y":2,"z":1}}'
    )
    assert dumps(value) == expected


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

INVALID = [
    pytest.param(float("nan"), "NaN", id="nan"),
    pytest.param(float("inf"), "Infinity", id="inf"),
    pytest.param(float("-inf"), "-Infinity", id="-inf"),
    pytest.param(2**53, "9007199254740992", id="2**53"),
    pytest.param(-(2**53), "-9007199254740992", id="-(2**53)"),
    pytest.param(10**400, "outside the range", id="huge-int"),
    pytest.param({1: "x"}, "keys must be str", id="int-key"),
    pytest.param({None: "x"}, "keys must be str", id="none-key"),
    pytest.param({(1, 2): "x"}, "keys must be str", id="tuple-key"),
    pytest.param("a\ud800b", "surrogate", id="lone-surrogate"),
    pytest.param({"\udfff": 1}, "surrogate", id="lone-surrogate-key"),
]


@pytest.mark.parametrize("dumps", [jcs_dumps, jcs_dumps_python], ids=["public", "python"])
@pytest.mark.parametrize(("value", "fragment"), INVALID)
def test_rfc8785_3_2_2_invalid_values_raise_canonicalization_error(
    dumps: Callable[[object], bytes], value: object, fragment: str
) -> None:
    with pytest.raises(CanonicalizationError) as info:
        dumps([value])
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(("value", "fragment"), INVALID)
def test_c_extension_raises_value_error(value: object, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        _speedups_dumps([value])
    assert fragment in str(info.value)


@impls
def test_unsupported_types_raise_type_error(dumps: Callable[[object], bytes]) -> None:
    for value in (object(), b"bytes", {1, 2}, 1j):
        with pytest.raises(TypeError):
            dumps({"a": [value]})
    with pytest.raises(UnsupportedTypeError):
        jcs_dumps({"a": [b"bytes"]})


@pytest.mark.parametrize("dumps", [jcs_dumps, jcs_dumps_python], ids=["public", "python"])
def test_error_message_names_the_json_path(dumps: Callable[[object], bytes]) -> None:
    memories: list[dict[str, Any]] = [{"confidence": {"current": 0.5}} for _ in range(5)]
    memories[3]["confidence"]["current"] = float("nan")
    with pytest.raises(CanonicalizationError) as info:
        dumps({"memories": memories})
    assert str(info.value) == (
        "NaN is not allowed in RFC 8785 JSON at $.memories[3].confidence.current"
    )
    with pytest.raises(CanonicalizationError, match=r'at \$\["odd key"\]\[1\]$'):
        dumps({"odd key": [0, 2**60]})
    with pytest.raises(CanonicalizationError, match=r"keys must be str.* at \$\.a\.b$"):
        dumps({"a": {"b": {1: 2}}})


def test_duplicate_keys_from_str_subclasses_are_rejected() -> None:
    class Weird(str):
        def __hash__(self) -> int:
            return 1

        def __eq__(self, other: object) -> bool:
            return other is self

    value = {Weird("a"): 1, "a": 2}
    for dumps in IMPLEMENTATIONS.values():
        with pytest.raises(ValueError, match="duplicate"):
            dumps(value)


def _nested_lists(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


@impls
def test_nesting_up_to_1000_levels_is_accepted(dumps: Callable[[object], bytes]) -> None:
    value = _nested_lists(1000)
    assert dumps(value) == b"[" * 1000 + b"]" * 1000
    # a mix of objects and arrays with floats at every level, deeper than orjson nests
    mixed: Any = 0.5
    for level in range(999):
        mixed = {"\ue000": level + 0.25, "😀": mixed} if level % 2 else [mixed, 1.0]
    assert dumps(mixed) == IMPLEMENTATIONS["c"](mixed)


@impls
def test_nesting_deeper_than_1000_levels_is_an_error_not_a_crash(
    dumps: Callable[[object], bytes],
) -> None:
    with pytest.raises(ValueError, match="nesting deeper than 1000"):
        dumps(_nested_lists(1001))
    with pytest.raises(ValueError, match="nesting deeper than 1000"):
        dumps(_nested_lists(100_000))
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises(ValueError, match="nesting deeper than 1000"):
        dumps(cyclic)


def test_public_errors_are_canonicalization_errors_for_deep_nesting() -> None:
    with pytest.raises(CanonicalizationError):
        jcs_dumps(_nested_lists(1001))


# ---------------------------------------------------------------------------------------------
# count=True: the number of object members serialized (duplicate-name detection, see test_scan)
# ---------------------------------------------------------------------------------------------


def _speedups_counted(value: object) -> tuple[bytes, int]:
    from memvault import _speedups

    result: tuple[bytes, int] = _speedups.jcs_dumps(value, count=True)
    return result


COUNTING: dict[str, Callable[[object], tuple[bytes, int]]] = {
    "c": _speedups_counted,
    "public": lambda value: jcs_dumps(value, count=True),
    "python": lambda value: jcs_dumps_python(value, count=True),
}
counting = pytest.mark.parametrize("dumps", list(COUNTING.values()), ids=list(COUNTING))


def _members(value: Any) -> int:
    """Reference member count: every key of every dict, at any depth."""
    count, todo = 0, [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            count += len(item)
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return count


@DIFFERENTIAL
@given(value=json_values)
def test_count_is_the_member_count_in_c_and_python(value: Any) -> None:
    expected = (rfc8785.dumps(value), _members(value))
    for dumps in COUNTING.values():
        assert dumps(value) == expected
    from memvault import _speedups

    assert _speedups.jcs_dumps(value, True) == expected
    assert _speedups.jcs_dumps(value, count=False) == expected[0]
    assert jcs_dumps(value, count=False) == jcs_dumps_python(value, count=False) == expected[0]


@counting
def test_count_examples(dumps: Callable[[object], tuple[bytes, int]]) -> None:
    assert dumps(None) == (b"null", 0)
    assert dumps("a:b") == (b'"a:b"', 0)
    assert dumps({}) == (b"{}", 0)
    assert dumps([{}, [], ()]) == (b"[{},[],[]]", 0)
    assert dumps({"b": [{"c": 1}, {}], "a": {"d": {"e": None}}}) == (
        b'{"a":{"d":{"e":null}},"b":[{"c":1},{}]}',
        5,
    )
    # keys and strings with ':' in them are still one member each
    assert dumps({"k:": "v:", ":": "{", '"\\:': "\\u003a"}) == (
        b'{"\\"\\\\:":"\\\\u003a",":":"{","k:":"v:"}',
        3,
    )


@counting
def test_count_of_subclasses_and_deep_nesting(dumps: Callable[[object], tuple[bytes, int]]) -> None:
    value = {
        _LoudStr("loud"): _LoudStr("quiet"),
        "od": collections.OrderedDict([("z", 1), ("y", 2)]),
        "t": ({"x": 0},),
    }
    assert dumps(value) == (b'{"loud":"quiet","od":{"y":2,"z":1},"t":[{"x":0}]}', 6)
    # 1000 levels: across the Python path's orjson chunks (every 128 levels)
    deep: Any = {}
    for level in range(999):
        deep = {"a": deep, "b": level} if level % 3 else [deep, {"c": 0.5}]
    assert dumps(deep) == (IMPLEMENTATIONS["c"](deep), _members(deep))


@pytest.mark.parametrize("dumps", [jcs_dumps, jcs_dumps_python], ids=["public", "python"])
def test_count_keeps_the_error_behaviour(dumps: Callable[..., Any]) -> None:
    memories: list[dict[str, Any]] = [{"confidence": {"current": 0.5}} for _ in range(5)]
    memories[3]["confidence"]["current"] = float("nan")
    with pytest.raises(CanonicalizationError) as info:
        dumps({"memories": memories}, count=True)
    assert str(info.value) == (
        "NaN is not allowed in RFC 8785 JSON at $.memories[3].confidence.current"
    )
    with pytest.raises(UnsupportedTypeError):
        dumps([b"bytes"], count=True)
    with pytest.raises(CanonicalizationError, match="nesting deeper than 1000"):
        dumps(_nested_lists(1001), count=True)


def test_c_count_argument() -> None:
    from memvault import _speedups

    value = {"a": {"b": 1}}
    assert _speedups.jcs_dumps(value) == b'{"a":{"b":1}}'
    assert _speedups.jcs_dumps(value, count=1) == (b'{"a":{"b":1}}', 2)
    assert _speedups.jcs_dumps(value, count=0) == b'{"a":{"b":1}}'
    assert _speedups.jcs_dumps(value, False) == b'{"a":{"b":1}}'
    with pytest.raises(TypeError, match="missing required positional argument 'obj'"):
        _speedups.jcs_dumps()
    with pytest.raises(TypeError, match="missing required positional argument 'obj'"):
        _speedups.jcs_dumps(obj=value)
    with pytest.raises(TypeError, match="at most 2 positional arguments"):
        _speedups.jcs_dumps(value, True, True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'counts'"):
        _speedups.jcs_dumps(value, counts=True)
    with pytest.raises(TypeError, match="multiple values for argument 'count'"):
        _speedups.jcs_dumps(value, True, count=True)
    with pytest.raises(ValueError, match="NaN"):
        _speedups.jcs_dumps([float("nan")], count=True)
    with pytest.raises(ZeroDivisionError):
        _speedups.jcs_dumps(value, count=_Unbooleanable())


class _Unbooleanable:
    def __bool__(self) -> bool:
        raise ZeroDivisionError


def test_count_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canonical, "_c_jcs_dumps", None)
    value = {"b": [{"c": 1.5}], "a": None}
    assert canonical.jcs_dumps(value, count=True) == (b'{"a":null,"b":[{"c":1.5}]}', 3)
    assert canonical.jcs_dumps(value) == b'{"a":null,"b":[{"c":1.5}]}'
    with pytest.raises(CanonicalizationError, match=r"at \$\.b\[0\]\.c$"):
        canonical.jcs_dumps({"b": [{"c": math.inf}]}, count=True)


# ---------------------------------------------------------------------------------------------
# The extension is part of the build
# ---------------------------------------------------------------------------------------------


def test_speedups_extension_is_built_and_used() -> None:
    module = importlib.import_module("memvault._speedups")
    for name in ("jcs_dumps", "value_end", "object_members", "array_items"):
        assert callable(getattr(module, name))
    assert canonical.ACCELERATED is True


# ---------------------------------------------------------------------------------------------
# PAM §6 content hash
# ---------------------------------------------------------------------------------------------


def _appendix_c_normalize_content(content: str) -> str:
    """PAM Appendix C reference, verbatim."""
    text = content.strip()
    text = text.lower()
    text = unicodedata.normalize("NFC", text)
    text = " ".join(text.split())
    return text


def _appendix_c_compute_content_hash(content: str) -> str:
    """PAM Appendix C reference, verbatim."""
    normalized = _appendix_c_normalize_content(content)
    hash_hex = hashlib.sha256(normalized.encode("utf-8")).hexdigest()
    return f"sha256:{hash_hex}"


def _appendix_c_compute_integrity_checksum(memories: list[Any]) -> str:
    """PAM Appendix C reference, verbatim."""
    sorted_memories = sorted(memories, key=lambda m: m["id"])
    canonical_bytes = rfc8785.dumps(sorted_memories)
    hash_hex = hashlib.sha256(canonical_bytes).hexdigest()
    return f"sha256:{hash_hex}"


def _example_store() -> dict[str, Any]:
    store: dict[str, Any] = json.loads(EXAMPLE_STORE.read_text(encoding="utf-8"))
    return store


def test_pam_6_content_hash_matches_official_example() -> None:
    memories = _example_store()["memories"]
    assert memories
    for memory in memories:
        assert content_hash(memory["content"]) == memory["content_hash"], memory["id"]


content_text = st.lists(
    st.one_of(
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(
            [
                " ",
                "\t",
                "\n",
                "\r",
                "\x0b",
                "\x0c",
                "\x1c",
                "\x85",
                "\xa0",
                "\u2028",
                "\u3000",
                "e\u0301",
                "\u212b",
                "İ",
                "ẞ",
                "Σ",
                "  ",
            ]
        ),
    ),
    max_size=40,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=content_text)
def test_pam_6_content_hash_matches_appendix_c(text: str) -> None:
    assert normalize_content(text) == _appendix_c_normalize_content(text)
    assert content_hash(text) == _appendix_c_compute_content_hash(text)


def test_pam_6_1_normalization_pipeline() -> None:
    assert normalize_content("  Hello   WORLD \n") == "hello world"
    assert normalize_content("a\t\n b") == "a b"
    assert normalize_content("Cafe\u0301") == "caf\u00e9"  # NFC composes
    assert normalize_content("") == ""


def test_pam_6_3_content_hash_format() -> None:
    digest = content_hash("User prefers dark mode")
    assert digest.startswith("sha256:")
    assert len(digest) == 71
    assert all(c in "0123456789abcdef" for c in digest[7:])
    assert content_hash("  user PREFERS dark   mode") == digest


def test_sha256_prefixed() -> None:
    assert sha256_prefixed(b"") == (
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


# ---------------------------------------------------------------------------------------------
# PAM §15 integrity checksum
# ---------------------------------------------------------------------------------------------


def test_pam_15_2_integrity_checksum_matches_official_example() -> None:
    store = _example_store()
    assert integrity_checksum(store["memories"]) == store["integrity"]["checksum"]
    assert store["integrity"]["total_memories"] == len(store["memories"])


def test_pam_15_2_checksum_is_independent_of_input_order() -> None:
    memories = _example_store()["memories"]
    assert integrity_checksum(list(reversed(memories))) == integrity_checksum(memories)


def test_pam_15_2_checksum_of_canonical_agrees_with_integrity_checksum() -> None:
    memories = _example_store()["memories"]
    ordered = sorted(memories, key=lambda m: m["id"])
    streamed = checksum_of_canonical(jcs_dumps(m) for m in ordered)
    assert streamed == integrity_checksum(memories) == _example_store()["integrity"]["checksum"]
    assert checksum_of_canonical([]) == sha256_prefixed(b"[]") == integrity_checksum([])


memory_like = st.fixed_dictionaries(
    {"id": st.text(alphabet=_key_chars, max_size=6), "content": json_text},
    optional={
        "confidence": st.dictionaries(st.sampled_from(["initial", "current"]), finite_floats),
        "metadata": st.dictionaries(json_keys, json_scalars, max_size=3),
        "tags": st.lists(json_text, max_size=3),
    },
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories=st.lists(memory_like, max_size=5, unique_by=lambda m: str(m["id"])))
def test_pam_15_2_checksum_matches_appendix_c_reference(memories: list[dict[str, Any]]) -> None:
    expected = _appendix_c_compute_integrity_checksum(memories)
    assert integrity_checksum(memories) == expected
    ordered = sorted(memories, key=lambda m: m["id"])
    assert checksum_of_canonical(jcs_dumps(m) for m in ordered) == expected


def test_strip_nulls_drops_null_members_but_keeps_null_items() -> None:
    value = {"a": None, "b": [None, {"c": None, "d": 1}], "e": {"f": None}, "g": 0, "h": ""}
    assert strip_nulls(value) == {"b": [None, {"d": 1}], "e": {}, "g": 0, "h": ""}
    assert strip_nulls([None, 1]) == [None, 1]
    assert strip_nulls(None) is None
    assert value["a"] is None  # the input is not modified


def test_strip_nulls_gives_a_different_checksum_for_the_official_example() -> None:
    """The portable-ai-memory 1.0.0 SDK's null-stripped checksum is not the §15.2 one."""
    store = _example_store()
    stripped = integrity_checksum(strip_nulls(store["memories"]))
    assert stripped != store["integrity"]["checksum"]
    assert stripped == _appendix_c_compute_integrity_checksum(strip_nulls(store["memories"]))
