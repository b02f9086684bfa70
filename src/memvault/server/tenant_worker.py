"""A server's background work over its tenants: a daemon thread that, every `interval`
seconds, runs one round over the tenants with something to do and keeps each tenant's
progress for ``GET /v1/stats``. The embedding worker (`memvault.server.embedding`) and the
AIMEM chunk mapper (`memvault.server.export_mapping`) are two kinds of it; each says only what
a round does for one tenant (`_work`).

A round is event-driven: a write marks its tenant dirty (`mark_dirty`; the server does it
after every successful request that may change a vault, `memvault.server.app`), and a round
opens the sessions of the dirty tenants only — a server of many idle tenants opens none.
A tenant whose work is not finished (a failure to try again, chunks a download is mapping)
stays dirty. A slow sweep over every tenant (the first round, then every `sweep_interval`
seconds) catches what no request announced: a vault file written beside the server, work
left from before the server started. A personal vault, which its owner's CLI writes beside
the server, is swept every round (`memvault.server.app`)."""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

from memvault.errors import VaultError
from memvault.vault import Vault

__all__ = ["SWEEP_INTERVAL", "Sessions", "TenantWorker", "owner_sessions"]

#: Seconds between two sweeps over every tenant, dirty or not.
SWEEP_INTERVAL = 300.0

#: ``sessions(names)``: ``[(tenant, owner session)]`` of the tenants `names`, or of every
#: tenant when `names` is None.
Sessions = Callable[[Collection[str] | None], Iterable[tuple[str, "Vault"]]]


class _Progress(Protocol):
    runs: int
    last_run: str | None


P = TypeVar("P", bound=_Progress)


def owner_sessions(tenants: Any, identity: str = "embedder") -> Sessions:
    """``sessions(names)`` over a `memvault.tenancy.Tenants` (a personal vault's one tenant,
    or the tenants of a server home): the owner sessions of the tenants `names` (every
    tenant when None), made under `identity`. Only the sessions asked for are opened."""
    from memvault.tenancy import OWNER, Principal

    def sessions(wanted: Collection[str] | None = None) -> Iterable[tuple[str, Vault]]:
        if tenants.is_personal:
            names = [tenants.authenticate(tenants.local_token()).tenant]
        else:
            names = [info.name for info in tenants.list()]
        if wanted is not None:
            names = [name for name in names if name in wanted]
        for name in names:
            try:
                vault = tenants.session(Principal(name, OWNER, frozenset(), identity))
            except VaultError:  # erased meanwhile
                continue
            yield name, vault

    return sessions


class TenantWorker(ABC, Generic[P]):
    """Runs `_work` for each tenant, round after round, in a daemon thread until `stop`."""

    #: The thread's name, and what the log calls a round's work.
    thread_name = "memvault-worker"
    label = "background"

    def __init__(
        self,
        sessions: Sessions,
        progress: Callable[[], P],
        *,
        interval: float,
        sweep_interval: float = SWEEP_INTERVAL,
    ) -> None:
        self._sessions = sessions
        self._new_progress = progress
        self._interval = interval
        self._sweep_interval = sweep_interval
        #: when the next sweep over every tenant is due (monotonic): the first round sweeps
        self._next_sweep = 0.0
        #: tenants a write has touched since their last round
        self._dirty: set[str] = set()
        self._progress: dict[str, P] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._round = threading.Condition()
        self._rounds = 0

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def progress(self, tenant: str) -> dict[str, Any]:
        """The tenant's progress as JSON (state "waiting" before its first round)."""
        with self._lock:
            current: Any = self._progress.get(tenant) or self._new_progress()  # a dataclass
            return asdict(current)

    def wait_rounds(self, count: int, timeout: float) -> bool:
        """Wait until `count` rounds more have run (for tests and benchmarks)."""
        with self._round:
            target = self._rounds + count
            return self._round.wait_for(lambda: self._rounds >= target, timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            with self._round:
                self._rounds += 1
                self._round.notify_all()
            self._stop.wait(self._interval)

    def mark_dirty(self, tenant: str) -> None:
        """Visit `tenant` in the next round: a write may have left it work."""
        with self._lock:
            self._dirty.add(tenant)

    def dirty(self) -> set[str]:
        """The tenants the next round visits (besides a sweep)."""
        with self._lock:
            return set(self._dirty)

    def run_once(self, *, sweep: bool | None = None) -> None:
        """One round: over the dirty tenants, or over every tenant when a sweep is due (or
        `sweep` says so). A round with nothing dirty and no sweep opens no session."""
        now = time.monotonic()
        if sweep is None:
            sweep = now >= self._next_sweep
        with self._lock:
            wanted, self._dirty = self._dirty, set()
        if sweep:
            self._next_sweep = now + self._sweep_interval
        elif not wanted:
            return
        try:
            sessions = list(self._sessions(None if sweep else wanted))
        except VaultError as exc:  # the registry is closing
            with self._lock:
                self._dirty |= wanted  # not visited: still to do
            # The subclass's module names the logger, as it did before the two shared this.
            logging.getLogger(type(self).__module__).warning(
                "%s round skipped: %s", self.label, exc
            )
            return
        for index, (tenant, vault) in enumerate(sessions):
            if self._stop.is_set():
                with self._lock:
                    self._dirty.update(name for name, _ in sessions[index:])
                return
            with self._lock:
                progress = self._progress.setdefault(tenant, self._new_progress())
            if not self._work(vault, progress):
                self.mark_dirty(tenant)

    @abstractmethod
    def _work(self, vault: Vault, progress: P) -> bool:
        """What one round does for one tenant (its owner session and its progress): True
        when nothing is left to do for it, False to visit it again next round (a failure
        to try again, work left unfinished)."""

    @staticmethod
    def _stamp(progress: P) -> dict[str, Any]:
        at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return {"runs": progress.runs + 1, "last_run": at}

    def _set(self, progress: P, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(progress, name, value)
