"""Give back what an idle tenant's vault holds: after `idle` seconds without a request, a
tenant's vault frees its connections' caches (`memvault.server.heap.release_vault_memory`),
above all recall's bit index, which a whole-vault vector search keeps in its connection's page
cache (up to ``$MEMVAULT_RECALL_CACHE_MIB``, 64 MiB by default) so the next query does not
read and decrypt it again. Imports and exports give their memory back as they end; a tenant
that only ran recall queries would otherwise keep its cache for as long as the server runs.

The server notes each request's tenant when the request ends (`touch`, from the middleware
in `memvault.server.app`); a daemon thread looks every `interval` seconds for the tenants
whose last request is `idle` seconds old and gives their memory back once (a tenant is noted
again by its next request). A connection in use is left alone (`Store.release_memory`), so a
request that runs longer than `idle` loses nothing. The clock is injectable so a test can
move time on instead of waiting minutes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Final

from memvault.errors import VaultError
from memvault.server.config import DEFAULT_IDLE_RELEASE
from memvault.server.tenant_worker import Sessions
from memvault.store.base import StoreError

__all__ = ["DEFAULT_IDLE_RELEASE", "IdleRelease"]

#: The longest the thread sleeps between two looks (seconds): an idle tenant is released
#: at most this long after it became due.
MAX_LOOK_INTERVAL: Final = 30.0

_log = logging.getLogger(__name__)


class IdleRelease:
    """Notes when each tenant was last used and, in a daemon thread until `stop`, gives back
    the memory of the tenants idle for `idle` seconds (`run_once`)."""

    thread_name = "memvault-idle-release"

    def __init__(
        self,
        sessions: Sessions,
        *,
        idle: float = DEFAULT_IDLE_RELEASE,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if idle <= 0:
            raise ValueError("idle must be a positive number of seconds")
        self._sessions = sessions
        self.idle = idle
        #: a fifth of the idle time: a tenant is released within 1.2 × `idle`
        self._interval = interval if interval is not None else min(idle / 5, MAX_LOOK_INTERVAL)
        self._clock = clock
        #: tenant -> the clock when its last request ended, for tenants not released since
        self._used: dict[str, float] = {}
        #: tenants given back since the server started (for tests and the log)
        self.released = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def touch(self, tenant: str) -> None:
        """A request of `tenant` has just ended."""
        now = self._clock()
        with self._lock:
            self._used[tenant] = now

    def waiting(self) -> dict[str, float]:
        """The tenants used since their last release, with the clock of their last request."""
        with self._lock:
            return dict(self._used)

    def run_once(self) -> list[str]:
        """Give back the memory of every tenant idle for `idle` seconds; returns their names."""
        now = self._clock()
        with self._lock:
            due = [name for name, at in self._used.items() if now - at >= self.idle]
            for name in due:
                del self._used[name]
        if not due:
            return []
        from memvault.server.heap import release_vault_memory

        released = []
        try:
            for name, vault in self._sessions(due):
                with self._lock:
                    if name in self._used:  # a request came meanwhile: not idle any more
                        continue
                try:
                    release_vault_memory(vault)
                except (VaultError, StoreError) as exc:  # closed or erased meanwhile
                    _log.warning("could not give back tenant %s's memory: %s", name, exc)
                    continue
                released.append(name)
        except VaultError as exc:  # the registry is closing
            _log.warning("idle release skipped: %s", exc)
        self.released += len(released)
        return released

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

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.run_once()
