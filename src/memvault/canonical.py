"""RFC 8785 canonical JSON, PAM content normalization, and the hashes built on them.

PAM integrity checksums (spec §15) and signature payloads (§18) only verify across
implementations if every one of them produces byte-identical JSON, so this module is the one
place memvault turns values into canonical bytes. The C accelerator
(`memvault._speedups.jcs_dumps`) is used when it is built; `jcs_dumps_python` is the portable
fallback and the second implementation the tests hold against the `rfc8785` package.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal, Protocol, overload

import orjson

from memvault.errors import HTTP_UNPROCESSABLE, VaultError

__all__ = [
    "ACCELERATED",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER",
    "CanonicalizationError",
    "UnsupportedTypeError",
    "checksum_of_canonical",
    "content_hash",
    "integrity_checksum",
    "jcs_dumps",
    "jcs_dumps_python",
    "normalize_content",
    "sha256_prefixed",
    "strip_nulls",
]

MAX_SAFE_INTEGER: Final = 2**53 - 1
"""Largest integer an IEEE 754 double (JSON's number model in RFC 8785) holds exactly."""

MAX_DEPTH: Final = 1000
"""Deepest container nesting accepted; deeper input is an error, never a crash."""

# orjson refuses to nest deeper than ~254 levels, so the Python path hands it pre-serialized
# fragments every _ORJSON_CHUNK levels.
_ORJSON_CHUNK: Final = 128


class _CJcsDumps(Protocol):
    """memvault._speedups.jcs_dumps(obj, /, count=False), as this module calls it."""

    @overload
    def __call__(self, obj: object, /) -> bytes: ...
    @overload
    def __call__(self, obj: object, count: Literal[True], /) -> tuple[bytes, int]: ...


_c_jcs_dumps: _CJcsDumps | None
try:
    from memvault._speedups import jcs_dumps as _fast_jcs_dumps
except ImportError:  # pragma: no cover - the extension is part of the normal build
    _c_jcs_dumps = None
else:
    _c_jcs_dumps = _fast_jcs_dumps

ACCELERATED: Final[bool] = _c_jcs_dumps is not None
"""True when the C implementation of `jcs_dumps` is in use."""


class CanonicalizationError(VaultError, ValueError):
    """A value cannot be written as RFC 8785 JSON (NaN, huge int, non-str key, ...)."""

    http_status = HTTP_UNPROCESSABLE


class UnsupportedTypeError(CanonicalizationError, TypeError):
    """A value of a type JSON has no form for; also a TypeError, as `json.dumps` raises."""


# --------------------------------------------------------------------------------------------
# Numbers: ECMAScript Number::toString (RFC 8785 §3.2.2.3)
# --------------------------------------------------------------------------------------------


def _ecma_number(x: float) -> bytes:
    """Format a finite float the way ECMAScript's Number::toString does."""
    if x == 0.0:
        return b"0"  # +0 and -0
    if abs(x) < 2**53 and x.is_integer():
        return str(int(x)).encode()
    # repr gives the shortest digits that round-trip, as ECMAScript requires.
    text = float.__repr__(x)
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    # value = 0.<digits> * 10**n
    n = len(whole) + (int(exponent) if exponent else 0)
    significant = digits.lstrip("0")
    n -= len(digits) - len(significant)
    digits = significant.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + ("e+" if e >= 0 else "e-")
        out += str(abs(e))
    return (sign + out).encode()


def _float_fragment(x: float) -> orjson.Fragment:
    if math.isnan(x):
        raise CanonicalizationError("NaN is not allowed in RFC 8785 JSON")
    if math.isinf(x):
        raise CanonicalizationError(
            f"{'-' if x < 0 else ''}Infinity is not allowed in RFC 8785 JSON"
        )
    return orjson.Fragment(_ecma_number(x))


def _check_int(x: int) -> int:
    if -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
        return x
    shown = str(x) if x.bit_length() < 1000 else ("(huge)" if x > 0 else "(huge negative)")
    raise CanonicalizationError(
        f"integer {shown} is outside the range RFC 8785 can represent exactly, "
        "-(2**53-1) .. 2**53-1"
    )


def _check_str(s: str) -> str:
    """Reject lone surrogates: RFC 8785 output is UTF-8 (§3.2.2.2)."""
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CanonicalizationError(
                f"lone surrogate U+{ord(s[exc.start]):04X} at index {exc.start} of a string "
                "cannot be encoded as UTF-8 (RFC 8785 section 3.2.2.2)"
            ) from None
    return s


def _scalar(v: object) -> object:
    """Return an orjson-ready stand-in for a non-container value."""
    t = type(v)
    if t is str:
        return _check_str(v)  # type: ignore[arg-type]
    if t is float:
        return _float_fragment(v)  # type: ignore[arg-type]
    if v is None or v is True or v is False:
        return v
    if t is int:
        return _check_int(v)  # type: ignore[arg-type]
    # Subclasses count as their base type; the base-class methods bypass overrides.
    if isinstance(v, int):
        return _check_int(int.__int__(v))
    if isinstance(v, float):
        return _float_fragment(float.__float__(v))
    if isinstance(v, str):
        return _check_str(str.__str__(v))
    raise UnsupportedTypeError(
        f"objects of type {t.__name__} cannot be serialized as RFC 8785 JSON"
    )


# --------------------------------------------------------------------------------------------
# Containers: an iterative walk (no recursion limit) producing what orjson can finish
# --------------------------------------------------------------------------------------------


def _utf16_key(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


class _Frame:
    """One container being rebuilt by `_prepare`."""

    __slots__ = ("is_dict", "items", "key", "keys", "out", "pos", "utf16")

    def __init__(self, container: object, key: str | int | None) -> None:
        self.key = key
        self.pos = 0
        self.out: list[object] = []
        self.utf16 = False
        self.keys: list[str] = []
        if isinstance(container, dict):
            self.is_dict = True
            keys = self.keys
            values: list[object] = []
            subclassed = False
            # dict.items / list.copy / tuple.__iter__ read the underlying storage, as the C
            # encoder does, whatever a subclass overrides.
            for k, v in dict.items(container):
                if type(k) is not str:
                    if not isinstance(k, str):
                        raise CanonicalizationError(
                            f"object keys must be str, not {type(k).__name__} "
                            "(RFC 8785 section 3.2.3)"
                        )
                    k = str.__str__(k)
                    subclassed = True
                if not k.isascii():
                    _check_str(k)
                    # Code point order (orjson) and UTF-16 order (RFC 8785 §3.2.3) differ
                    # only once characters above U+D7FF are involved.
                    if max(k) > "\ud7ff":
                        self.utf16 = True
                keys.append(k)
                values.append(v)
            if subclassed and len(set(keys)) != len(keys):
                raise CanonicalizationError("duplicate object key")
            self.items: list[object] = values
        else:
            self.is_dict = False
            if isinstance(container, list):
                self.items = list.copy(container)
            else:
                self.items = list(tuple.__iter__(container))  # type: ignore[arg-type]

    def finish(self, depth: int) -> object:
        """Build the prepared container; `depth` counts it (the root has depth 1)."""
        result: object
        if not self.is_dict:
            result = self.out
        elif self.utf16:
            members = sorted(
                zip(self.keys, self.out, strict=True), key=lambda kv: _utf16_key(kv[0])
            )
            result = orjson.Fragment(
                b"{"
                + b",".join(
                    orjson.dumps(k) + b":" + orjson.dumps(v, option=orjson.OPT_SORT_KEYS)
                    for k, v in members
                )
                + b"}"
            )
        else:
            result = dict(zip(self.keys, self.out, strict=True))
        if depth % _ORJSON_CHUNK == 0 and not isinstance(result, orjson.Fragment):
            result = orjson.Fragment(orjson.dumps(result, option=orjson.OPT_SORT_KEYS))
        return result


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _json_path(keys: Iterable[str | int | None]) -> str:
    """Render keys as a JSONPath-like location: $.memories[3].confidence.current."""
    parts = ["$"]
    for key in keys:
        if key is None:
            continue
        if isinstance(key, int):
            parts.append(f"[{key}]")
        elif _IDENTIFIER.match(key):
            parts.append(f".{key}")
        else:
            parts.append(f"[{json.dumps(key)}]")
    if len(parts) > 41:  # nesting errors sit 1000 levels down
        parts[21:-20] = [f"…{len(parts) - 41} more…"]
    return "".join(parts)


def _prepare(value: object) -> tuple[object, int]:
    """Copy `value` with floats as ECMAScript-formatted fragments and every rule checked.

    Also returns the number of dict members in `value` (all depths), counted on the way.
    """
    stack: list[_Frame] = []
    current: str | int | None = None
    try:
        if not isinstance(value, dict | list | tuple):
            return _scalar(value), 0
        stack.append(_Frame(value, None))
        members = len(stack[0].keys)
        while True:
            frame = stack[-1]
            items = frame.items
            out = frame.out
            pos = frame.pos
            keys = frame.keys if frame.is_dict else None
            count = len(items)
            descended = False
            while pos < count:
                v = items[pos]
                current = keys[pos] if keys is not None else pos
                pos += 1
                t = type(v)
                if t is str:
                    out.append(v if v.isascii() else _check_str(v))  # type: ignore[attr-defined,arg-type]
                elif t is float:
                    out.append(_float_fragment(v))  # type: ignore[arg-type]
                elif t is dict or t is list or t is tuple or isinstance(v, dict | list | tuple):
                    if len(stack) >= MAX_DEPTH:
                        raise CanonicalizationError(
                            f"nesting deeper than {MAX_DEPTH} levels is not supported"
                        )
                    frame.pos = pos
                    child = _Frame(v, current)
                    members += len(child.keys)  # empty unless a dict
                    stack.append(child)
                    current = None
                    descended = True
                    break
                else:
                    out.append(_scalar(v))
            if descended:
                continue
            stack.pop()
            done = frame.finish(len(stack) + 1)
            if not stack:
                return done, members
            stack[-1].out.append(done)
            current = None
    except CanonicalizationError as exc:
        location = _json_path([*(f.key for f in stack[1:]), current])
        raise type(exc)(f"{exc} at {location}") from None


@overload
def jcs_dumps_python(value: object, *, count: Literal[False] = False) -> bytes: ...
@overload
def jcs_dumps_python(value: object, *, count: Literal[True]) -> tuple[bytes, int]: ...
@overload
def jcs_dumps_python(value: object, *, count: bool) -> bytes | tuple[bytes, int]: ...


def jcs_dumps_python(value: object, *, count: bool = False) -> bytes | tuple[bytes, int]:
    """RFC 8785 bytes of `value`, in Python on top of orjson (the fallback implementation).

    orjson with OPT_SORT_KEYS already escapes strings exactly like JSON.stringify and sorts
    keys by code point; the walk supplies ECMAScript number formatting, the range checks,
    and UTF-16 key order where it differs from code point order. With `count`, returns
    `(bytes, members)` like `jcs_dumps`.
    """
    prepared, members = _prepare(value)
    try:
        data = orjson.dumps(prepared, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError as exc:  # pragma: no cover - _prepare checks everything
        raise CanonicalizationError(str(exc)) from exc
    return (data, members) if count else data


@overload
def jcs_dumps(value: object, *, count: Literal[False] = False) -> bytes: ...
@overload
def jcs_dumps(value: object, *, count: Literal[True]) -> tuple[bytes, int]: ...
@overload
def jcs_dumps(value: object, *, count: bool) -> bytes | tuple[bytes, int]: ...


def jcs_dumps(value: object, *, count: bool = False) -> bytes | tuple[bytes, int]:
    """RFC 8785 (JCS) canonical JSON bytes of `value`: the input to every PAM hash.

    With `count=True`, returns `(bytes, members)`, `members` being the number of object
    members serialized at every depth. A JSON text parsed into `value` by a parser that keeps
    only one of several equal member names (orjson keeps the last) has more members than
    that — `memvault._speedups.array_items(..., stats=True)` counts the text's — so comparing
    the two detects duplicate names without another pass over the bytes.

    Raises CanonicalizationError (a ValueError) naming the problem and where it is.
    """
    if _c_jcs_dumps is None:
        return jcs_dumps_python(value, count=count)
    try:
        if count:
            return _c_jcs_dumps(value, True)
        return _c_jcs_dumps(value)
    except (ValueError, TypeError) as exc:
        fast_error = exc
    # The C encoder knows what went wrong but not where; the Python walk says both.
    try:
        jcs_dumps_python(value)
    except CanonicalizationError as detailed:
        raise detailed from None
    error = UnsupportedTypeError if isinstance(fast_error, TypeError) else CanonicalizationError
    raise error(str(fast_error)) from fast_error


# --------------------------------------------------------------------------------------------
# PAM hashes
# --------------------------------------------------------------------------------------------


def sha256_prefixed(data: bytes) -> str:
    """Format a digest as "sha256:<hex>", as PAM does everywhere (§6.3, §15.3)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def normalize_content(text: str) -> str:
    """PAM §6.1 normalization, in Appendix C's order: strip, lowercase, NFC, collapse spaces.

    Follows the reference code exactly (str.split() collapses every kind of whitespace,
    not only spaces), since content_hash is only useful for dedup if everyone agrees.
    """
    text = text.strip()
    text = text.lower()
    text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


def content_hash(text: str) -> str:
    """PAM §6.2 content hash: "sha256:" + hex(SHA-256(UTF-8(normalize(content)))).

    Equal to hashing `normalize_content(text)`, with the steps that would change nothing
    skipped: NFC of ASCII text is itself, and text without collapsible whitespace is already
    collapsed — every whitespace character but the plain space is non-printable, so printable
    text without a double space has none. Validation hashes every memory: this is hot.
    """
    normalized = text.strip().lower()
    if not normalized.isascii():
        normalized = unicodedata.normalize("NFC", normalized)
    if "  " in normalized or not normalized.isprintable():
        normalized = " ".join(normalized.split())
    return "sha256:" + hashlib.sha256(normalized.encode("utf-8")).hexdigest()


def integrity_checksum(memories: Sequence[Mapping[str, Any]]) -> str:
    """PAM §15.2 checksum: memories sorted by id, RFC 8785 of the array, SHA-256.

    Ids are compared as Python strings (code points), as Appendix C's reference does.
    """
    ordered = sorted(memories, key=lambda memory: memory["id"])
    return sha256_prefixed(jcs_dumps(ordered))


def checksum_of_canonical(items: Iterable[bytes]) -> str:
    """`integrity_checksum` from each memory's canonical bytes, already in id order.

    Hashes "[" + ",".join(items) + "]" incrementally, so a streaming writer never holds the
    whole array.
    """
    digest = hashlib.sha256(b"[")
    first = True
    for item in items:
        if not first:
            digest.update(b",")
        digest.update(item)
        first = False
    digest.update(b"]")
    return "sha256:" + digest.hexdigest()


def strip_nulls(value: Any) -> Any:
    """Copy of `value` without dict members whose value is None (list items stay).

    The portable-ai-memory 1.0.0 SDK checksums such a null-stripped dump, so a checksum that
    matches this form identifies a file written by it rather than a corrupted one.
    """
    if isinstance(value, Mapping):
        return {k: strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [strip_nulls(v) for v in value]
    return value
