"""An export never holds data erased before it was published (AIMEM §5.2: "even if the
export request precedes the cascade by milliseconds").

An export reads the vault in many statements while it writes its file, so an erasure may
commit in the middle: the memories read before it are in the file, those after are not.
The guarantee, precisely (docs/erasure.md):

- every erasure (`memvault.erasure`) adds one to a counter in the vault's meta table, in
  the erasure's own transaction;
- an export takes the counter when it begins (`ErasureFence`, before its first read) and
  publishes its output — the rename that makes the file appear at its path — under the
  vault's write lock, after checking that the counter has not moved (`ErasureFence.publishing`).
  If it has, an erasure committed while the export was reading: the output is dropped and the
  export is made again from the start (`redone_after_erasure`), up to `ATTEMPTS` times.

So an export file that appears after an erasure was acknowledged (its transaction committed;
`Vault.erase…` returns later still) was read wholly after that erasure, and holds none of the
erased data; an export published before the erasure committed is a faithful copy of the
vault as it was then. Neither ever holds a mix of before and after. The counter lives in the
database, so the rule holds across processes sharing a vault too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar, cast

from memvault.errors import HTTP_CONFLICT, ExportError, VaultError
from memvault.store.base import Store

__all__ = [
    "ATTEMPTS",
    "ERASURES_META_KEY",
    "ErasedMeanwhile",
    "ErasureFence",
    "ErasuresKeptComing",
    "note_erasure",
    "redone_after_erasure",
]


class ErasuresKeptComing(ExportError):
    """Erasures committed during every attempt of an export: nothing was written. Transient —
    the same export succeeds once the erasures pause — so HTTP answers 503 with Retry-After,
    not a 4xx that blames the request."""

    http_status = 503
    retry_after = 1


#: The meta key of the erasure counter.
ERASURES_META_KEY: Final = "erasure.count"
#: How many times an export is made before giving up while erasures keep committing.
ATTEMPTS: Final = 3

_F = TypeVar("_F", bound=Callable[..., object])


class ErasedMeanwhile(VaultError):
    """An erasure committed while an export was being read; its output was dropped."""

    http_status = HTTP_CONFLICT


def _count(store: Store) -> int:
    value = store.get_meta(ERASURES_META_KEY)
    return int(value) if value is not None else 0


def note_erasure(store: Store) -> None:
    """Count an erasure; call inside the erasure's transaction."""
    store.set_meta(ERASURES_META_KEY, str(_count(store) + 1))


class ErasureFence:
    """Taken when an export begins; `publishing` lets its output appear only if no erasure
    committed since."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._mark = _count(store)

    @contextmanager
    def publishing(self) -> Iterator[None]:
        """Hold the vault's write lock while the caller publishes its output (a rename): no
        erasure can commit meanwhile. ErasedMeanwhile, before anything is published, when
        one committed since the fence was taken."""
        with self._store.transaction():
            if _count(self._store) != self._mark:
                raise ErasedMeanwhile(
                    "an erasure committed while the export was being read; its output was "
                    "dropped (AIMEM §5.2)"
                )
            yield


def redone_after_erasure(export: _F) -> _F:
    """Run `export` again from the start when an erasure committed while it read (its output
    dropped, `ErasureFence.publishing`); after `ATTEMPTS` tries, ExportError."""

    @functools.wraps(export)
    def run(*args: object, **kwargs: object) -> object:
        for _ in range(ATTEMPTS - 1):
            try:
                return export(*args, **kwargs)
            except ErasedMeanwhile:
                continue
        try:
            return export(*args, **kwargs)
        except ErasedMeanwhile:
            raise ErasuresKeptComing(
                f"erasures committed during each of {ATTEMPTS} attempts to export; nothing was "
                "written: export again (AIMEM §5.2: an export never holds erased data)"
            ) from None

    return cast(_F, run)
