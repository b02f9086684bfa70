"""AIMEM §2.8 bundle checksum: SHA-256 of the RFC 8785 form of the bundle without `checksum`.

RFC 8785 sorts object members by their UTF-16 code units, so the canonical bundle is the
envelope members and the four record arrays interleaved in that order — for the standard
members: ``chunk_entities``, ``chunks``, ``edges``, ``embedding_dim``, ``embedding_model``,
``entities``, ``exported_at``, ``format``, ``producer``, ``scope``, ``since``, ``tenant_id``,
``version`` (extra members fall in wherever they sort). Each array keeps document order.

`CanonicalBundleHasher` produces those bytes incrementally — the envelope first, then each
array's records in turn, in `array_order()` — so a reader or writer can hash a bundle of any
size while its records stream past. Numbers are formatted by `memvault.canonical.jcs_dumps`
(ECMAScript Number::toString): a weight of ``5e-05`` is hashed as ``0.00005``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from memvault.canonical import jcs_dumps

__all__ = [
    "ARRAYS",
    "CanonicalBundleHasher",
    "array_order",
    "bundle_checksum",
    "canonical_bundle_bytes",
    "canonical_order",
]

#: The four record arrays of a bundle (§2.1), in canonical (sorted) order.
ARRAYS: Final = ("chunk_entities", "chunks", "edges", "entities")
_PREFIX: Final = "sha256:"


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be")


def canonical_order(keys: Iterable[str]) -> list[str]:
    """`keys` in RFC 8785 member order (by UTF-16 code units)."""
    return sorted(keys, key=_utf16)


def array_order(present: Iterable[str] = ARRAYS) -> list[str]:
    """The record arrays among `present`, in the order a hasher must be fed them."""
    return canonical_order(a for a in present if a in ARRAYS)


def bundle_checksum(bundle: Mapping[str, Any]) -> str:
    """``"sha256:" + hex(SHA-256(RFC 8785(bundle without "checksum"))))`` (§2.8).

    Raises `memvault.canonical.CanonicalizationError` for values RFC 8785 has no form for
    (NaN, integers beyond ±(2^53-1), non-string keys).
    """
    return _PREFIX + hashlib.sha256(canonical_bundle_bytes(bundle)).hexdigest()


def canonical_bundle_bytes(bundle: Mapping[str, Any]) -> bytes:
    """The RFC 8785 bytes of `bundle` without ``checksum``: what §2.8 hashes and §5.3 signs."""
    return jcs_dumps({k: v for k, v in bundle.items() if k != "checksum"})


class CanonicalBundleHasher:
    """Hash (and optionally emit) the canonical bundle bytes while records stream past.

    `envelope` holds the top-level members other than the record arrays (``checksum`` is
    ignored); `arrays` names the record arrays the bundle has (absent arrays are not part of
    the canonical form, an empty one is). Feed each array's records with `add` or
    `add_canonical`, array by array in `order` (a declared array never fed is written
    empty; feeding an array after a later one raises ValueError), then call `finish`. `sink`,
    when given,
    receives every canonical byte string as well (the COSE payload of §5.3).
    """

    def __init__(
        self,
        envelope: Mapping[str, Any],
        arrays: Iterable[str] = ARRAYS,
        *,
        sink: Callable[[bytes], object] | None = None,
    ) -> None:
        self._digest = hashlib.sha256()
        self._sink = sink
        present = set(arrays)
        unknown = present - set(ARRAYS)
        if unknown:
            raise ValueError(f"not record arrays: {sorted(unknown)}")
        clash = present & set(envelope)
        if clash:
            raise ValueError(f"members both in the envelope and as arrays: {sorted(clash)}")
        self._envelope = {k: v for k, v in envelope.items() if k != "checksum"}
        self._arrays = frozenset(present)
        self._plan = canonical_order([*self._envelope, *present])
        self.order: list[str] = array_order(present)
        self._pos = 0  # next member of _plan to emit
        self._current: str | None = None  # array being fed
        self._count = 0  # records in the current array
        self._finished: str | None = None
        self._emit(b"{")

    def _emit(self, data: bytes) -> None:
        self._digest.update(data)
        if self._sink is not None:
            self._sink(data)

    def _member_prefix(self, key: str) -> None:
        if self._pos > 0:
            self._emit(b",")
        self._emit(jcs_dumps(key) + b":")

    def _advance_to(self, array: str | None) -> None:
        """Close the current array and emit envelope members up to `array` (None: all)."""
        if self._current is not None:
            self._emit(b"]")
            self._current = None
        while self._pos < len(self._plan):
            key = self._plan[self._pos]
            if key == array:
                self._member_prefix(key)
                self._emit(b"[")
                self._pos += 1
                self._current = key
                self._count = 0
                return
            self._member_prefix(key)
            # A declared array passed over without records is empty.
            self._emit(b"[]" if key in self._arrays else jcs_dumps(self._envelope[key]))
            self._pos += 1
        if array is not None:
            raise ValueError(f"array {array!r} fed out of canonical order or not declared")

    def start(self, array: str) -> None:
        """Begin `array` (optional: `add` begins it); needed for an empty array."""
        if self._finished is not None:
            raise ValueError("hasher already finished")
        if self._current != array:
            self._advance_to(array)

    def add_canonical(self, array: str, record: bytes) -> None:
        """Feed one record of `array` already in RFC 8785 form."""
        self.start(array)
        if self._count:
            self._emit(b",")
        self._emit(record)
        self._count += 1

    def add_joined(self, array: str, blocks: Iterable[bytes]) -> None:
        """Feed a run of records of `array` already canonical and joined by commas (as a
        spool file holds them), in blocks of any size; the run must hold at least one record.
        """
        self.start(array)
        if self._count:
            self._emit(b",")
        for block in blocks:
            self._emit(block)
        self._count += 1

    def state(self) -> Any:
        """A copy of the SHA-256 state over what was fed so far (`hashlib` object)."""
        return self._digest.copy()

    def add(self, array: str, record: Any) -> bytes:
        """Feed one record of `array`; returns its canonical bytes."""
        canon = jcs_dumps(record)
        self.add_canonical(array, canon)
        return canon

    def finish(self) -> str:
        """Emit the rest of the envelope and return ``"sha256:<hex>"``."""
        if self._finished is None:
            self._advance_to(None)
            self._emit(b"}")
            self._finished = _PREFIX + self._digest.hexdigest()
        return self._finished
