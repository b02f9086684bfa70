"""A server's background work over every tenant: a daemon thread that, every `interval`
seconds, runs one round over each tenant's owner session and keeps each tenant's progress
for ``GET /v1/stats``. The embedding worker (`memvault.server.embedding`) and the AIMEM chunk
mapper (`memvault.server.export_mapping`) are two kinds of it; each says only what a round
does for one tenant (`_work`)."""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

from memvault.errors import VaultError
from memvault.vault import Vault

__all__ = ["TenantWorker", "owner_sessions"]


class _Progress(Protocol):
    runs: int
    last_run: str | None


P = TypeVar("P", bound=_Progress)


def owner_sessions(
    tenants: Any, identity: str = "embedder"
) -> Callable[[], Iterable[tuple[str, Vault]]]:
    """``() -> [(tenant, owner session)]`` over every tenant of a `memvault.tenancy.Tenants`
    (a personal vault's one tenant, or each tenant of a server home), the sessions made
    under `identity`."""
    from memvault.tenancy import OWNER, Principal

    def sessions() -> Iterable[tuple[str, Vault]]:
        if tenants.is_personal:
            names = [tenants.authenticate(tenants.local_token()).tenant]
        else:
            names = [info.name for info in tenants.list()]
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
        sessions: Callable[[], Iterable[tuple[str, Vault]]],
        progress: Callable[[], P],
        *,
        interval: float,
    ) -> None:
        self._sessions = sessions
        self._new_progress = progress
        self._interval = interval
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

    def run_once(self) -> None:
        """One round over every tenant."""
        try:
            sessions = list(self._sessions())
        except VaultError as exc:  # the registry is closing
            # The subclass's module names the logger, as it did before the two shared this.
            logging.getLogger(type(self).__module__).warning(
                "%s round skipped: %s", self.label, exc
            )
            return
        for tenant, vault in sessions:
            if self._stop.is_set():
                return
            with self._lock:
                progress = self._progress.setdefault(tenant, self._new_progress())
            self._work(vault, progress)

    @abstractmethod
    def _work(self, vault: Vault, progress: P) -> None:
        """What one round does for one tenant (its owner session and its progress)."""

    @staticmethod
    def _stamp(progress: P) -> dict[str, Any]:
        at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return {"runs": progress.runs + 1, "last_run": at}

    def _set(self, progress: P, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(progress, name, value)
