"""An export never holds data erased before it was published (AIMEM §5.2: "even if the
export request precedes the cascade by milliseconds"), and an export always completes, however
often erasures come (docs/decisions.md).

An export reads the vault in many statements while it writes its file, so an erasure that
committed in the middle would leave the memories read before it in the file. Two mechanisms,
one inside a process and one across processes:

- **The gate** (`exporting`, `erasing`): a readers–writer lock per vault (its store) in this
  process. Exports share it, from before their first read until their output is published;
  an erasure (`Vault.erase…`) has it alone, from before its transaction begins until it
  commits. It is fair: whoever arrives waits only for those who arrived before — an erasure
  for the exports already reading, an export for the erasures already waiting — so neither
  starves, and an export is never overtaken by an erasure of its own process.
- **The counter**, for erasures the gate does not see (another process's: the CLI beside a
  server, a second server on one PostgreSQL database; or an erasure made inside a caller's
  own transaction, which may not wait for the gate): every erasure (`memvault.erasure`) adds
  one to a counter in the vault's meta table, in its own transaction; an export takes the
  counter when it begins (`ErasureFence`) and publishes its output — the rename that makes the
  file appear — under the vault's write lock, after checking that the counter has not moved
  (`ErasureFence.publishing`). If it has, the output is dropped and the export is made again
  (`redone_after_erasure`); the last of `ATTEMPTS` attempts holds the vault's write lock from
  its first read to its publication, so no erasure from anywhere can overtake it.

So an export file that appears after an erasure was acknowledged was read wholly after that
erasure, and holds none of the erased data; an export published before the erasure committed
is a faithful copy of the vault as it was then. Neither ever holds a mix of before and after.
"""

from __future__ import annotations

import functools
import itertools
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final, TypeVar, cast

from memvault.errors import HTTP_CONFLICT, ExportError, VaultError
from memvault.store.base import Store

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = [
    "ATTEMPTS",
    "ERASURES_META_KEY",
    "ErasedMeanwhile",
    "ErasureFence",
    "ErasuresKeptComing",
    "erasing",
    "exporting",
    "exports_running",
    "note_erasure",
    "redone_after_erasure",
]


class ErasuresKeptComing(ExportError):
    """An erasure committed during every attempt of an export, the last one included, which
    held the vault's write lock: only an erasure made on the export's own thread (inside
    its own work) can do that. Nothing was written. HTTP answers 503 with Retry-After."""

    http_status = 503
    retry_after = 1


#: The meta key of the erasure counter.
ERASURES_META_KEY: Final = "erasure.count"
#: How many times an export is made at most: the last attempt holds the vault's write lock.
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


class _Gate:
    """A fair readers–writer lock: exports share it, an erasure has it alone; each waits only
    for those queued before it (first come, first served). A thread that holds it already
    passes through (see `exporting`, `erasing`)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._tickets = itertools.count()
        self._queue: deque[tuple[int, bool]] = deque()  # (ticket, alone), in arrival order
        self._readers = 0
        self._writer = False
        self.held = threading.local()  # .shared / .alone: this thread's holds

    def _may(self, ticket: tuple[int, bool]) -> bool:
        if self._writer:
            return False
        if ticket[1]:  # an erasure: no export reading, and first in line
            return self._readers == 0 and self._queue[0] == ticket
        for ahead in self._queue:  # an export: no erasure waiting before it
            if ahead == ticket:
                return True
            if ahead[1]:
                return False
        return False  # pragma: no cover  (its ticket is queued)

    @contextmanager
    def hold(self, alone: bool) -> Iterator[None]:
        ticket = (next(self._tickets), alone)
        with self._cond:
            self._queue.append(ticket)
            try:
                self._cond.wait_for(lambda: self._may(ticket))
            finally:
                self._queue.remove(ticket)
                self._cond.notify_all()  # whoever queued behind it may go now
            if alone:
                self._writer = True
            else:
                self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                if alone:
                    self._writer = False
                else:
                    self._readers -= 1
                self._cond.notify_all()


_gates: weakref.WeakKeyDictionary[Store, _Gate] = weakref.WeakKeyDictionary()
_gates_lock = threading.Lock()


def _gate(store: Store) -> _Gate:
    with _gates_lock:
        gate = _gates.get(store)
        if gate is None:
            gate = _gates[store] = _Gate()
        return gate


def exports_running(store: Store) -> int:
    """How many exports of this process hold the vault's gate now (background work that
    defers to them reads it)."""
    gate = _gate(store)
    with gate._cond:
        return gate._readers


@contextmanager
def exporting(store: Store) -> Iterator[None]:
    """Hold the vault's gate shared for an export: erasures of this process wait until the
    block ends; an export that finds an erasure waiting waits for it first."""
    gate = _gate(store)
    held = gate.held
    if getattr(held, "shared", 0) or getattr(held, "alone", 0):
        yield  # an export inside an export (or an erasure) of this thread
        return
    with gate.hold(alone=False):
        held.shared = 1
        try:
            yield
        finally:
            held.shared = 0


@contextmanager
def erasing(store: Store) -> Iterator[None]:
    """Hold the vault's gate alone for an erasure: wait for the exports of this process that
    are reading (and the erasures queued before) and keep new ones waiting until the block
    ends. Around the erasure's transaction, from before it begins to after it commits.

    Two erasures do not wait: one made while this thread has a write transaction open (the
    caller's; an export publishing waits for that lock, so waiting here could wait forever)
    and one made by this thread's own export. The counter covers both: an export that read
    what they erased is made again."""
    gate = _gate(store)
    held = gate.held
    if getattr(held, "shared", 0) or getattr(held, "alone", 0) or store.writing():
        yield
        return
    with gate.hold(alone=True):
        held.alone = 1
        try:
            yield
        finally:
            held.alone = 0


def redone_after_erasure(export: _F) -> _F:
    """Run `export(vault, ...)` holding the vault's gate shared (`exporting`), again from the
    start when an erasure the gate does not see committed while it read (its output dropped,
    `ErasureFence.publishing`); the last of `ATTEMPTS` attempts holds the vault's write lock
    throughout, so nothing can overtake it. ErasuresKeptComing only if it is overtaken all
    the same (by an erasure on its own thread)."""

    @functools.wraps(export)
    def run(vault: Vault, *args: object, **kwargs: object) -> object:
        view = vault.export_view()
        with view.exporting():
            for _ in range(ATTEMPTS - 1):
                try:
                    return export(vault, *args, **kwargs)
                except ErasedMeanwhile:
                    continue
            try:
                with view.holding_writes():
                    return export(vault, *args, **kwargs)
            except ErasedMeanwhile:
                raise ErasuresKeptComing(
                    f"erasures committed during each of {ATTEMPTS} attempts to export; nothing "
                    "was written: export again (AIMEM §5.2: an export never holds erased data)"
                ) from None

    return cast(_F, run)
