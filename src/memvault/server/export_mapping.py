"""The server's background mapping of AIMEM chunks: a thread that, every `interval` seconds,
maps the memories a write left pending (an import above all) to their chunks and keeps them
(`memvault.export_chunks.map_pending`), so the download that comes after it finds every chunk
kept and sends its first byte at once instead of mapping them all first.

A write only notes which memories it touched (migration 13); an owner's download maps those
first. This worker does the same work earlier, after the write has answered, at low
priority: one window of memories (500) at a time, each in its own short write transaction
under the export's erasure gate (`ExportView.exporting`, AIMEM §5.2) — the gate and the lock
are let go and the thread pauses between windows, so a write or an erasure waits for one
window at most. A download that comes first maps what is still pending itself, as without
the worker; the two never map a memory twice (each window reads what is pending with the
write lock held), and the worker leaves a tenant alone for the round while one of its
downloads is under way (it would only take that download's CPU). Once a round has mapped
some and none is left pending, the worker also makes the owner's full download from the
kept chunks without sending it (`memvault.exchange.aimem_wire.prepare_download`: its
records are kept for the next download), so the first download after an import costs what
a repeat download does.
`progress(tenant)` is what ``GET /v1/stats`` shows beside the live count of memories still
pending.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Final

from memvault.errors import VaultError
from memvault.store.base import StoreError
from memvault.vault import Vault

__all__ = ["ExportMapWorker", "MapProgress"]

_log = logging.getLogger("memvault.server.export_mapping")

#: Seconds the thread sleeps between two windows: the writer and the GIL are free for others.
PAUSE: Final = 0.01


@dataclass(slots=True)
class MapProgress:
    """One tenant's background mapping: `state` is "waiting" (before its first round),
    "mapping", "idle" (nothing was left pending at the end of the round) or "failed"
    (`error` says why); `mapped` counts the memories mapped since the server started,
    `prepared` the downloads made ready after a round that mapped some, `runs` the rounds,
    `last_run` when the latest ended."""

    state: str = "waiting"
    mapped: int = 0
    prepared: int = 0
    runs: int = 0
    last_run: str | None = None
    error: str | None = None


class ExportMapWorker:
    """Maps what writes left pending, in a daemon thread, until `stop`."""

    def __init__(
        self,
        sessions: Callable[[], Iterable[tuple[str, Vault]]],
        *,
        interval: float = 1.0,
        pause: float = PAUSE,
    ) -> None:
        self._sessions = sessions
        self._interval = interval
        self._pause = pause
        self._progress: dict[str, MapProgress] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._run, name="memvault-export-map", daemon=True
            )
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def progress(self, tenant: str) -> dict[str, Any]:
        """The tenant's `MapProgress` as JSON (state "waiting" before its first round)."""
        with self._lock:
            return asdict(self._progress.get(tenant) or MapProgress())

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self._interval)

    def run_once(self) -> None:
        """One round over every tenant: map what is pending, a window at a time."""
        try:
            sessions = list(self._sessions())
        except VaultError as exc:  # the registry is closing
            _log.warning("export mapping round skipped: %s", exc)
            return
        for tenant, vault in sessions:
            if self._stop.is_set():
                return
            self._map(tenant, vault)

    def _map(self, tenant: str, vault: Vault) -> None:
        with self._lock:
            progress = self._progress.setdefault(tenant, MapProgress())
        try:
            view = vault.export_view()
            mapped = 0
            while not self._stop.is_set() and view.pending_count():
                if view.exports_running():
                    # A download is under way: it maps what is pending itself and keeps
                    # its records; working beside it would only take its CPU.
                    mapped = 0
                    break
                self._set(progress, state="mapping")
                # The download's own gate: an erasure waits for this one window, and an
                # export that finds an erasure waiting lets it go first.
                with view.exporting():
                    done = view.map_pending(windows=1)
                mapped += done
                self._set(progress, mapped=progress.mapped + done)
                if not done:
                    break
                self._stop.wait(self._pause)  # low priority: others get the writer
            if (
                mapped
                and not self._stop.is_set()
                and not view.pending_count()
                and not view.exports_running()
            ):
                from memvault.exchange.aimem_wire import prepare_download

                if prepare_download(vault):
                    self._set(progress, prepared=progress.prepared + 1)
        except (VaultError, StoreError, OSError) as exc:
            self._set(progress, state="failed", error=str(exc), **self._stamp(progress))
            return
        self._set(progress, state="idle", error=None, **self._stamp(progress))

    @staticmethod
    def _stamp(progress: MapProgress) -> dict[str, Any]:
        at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return {"runs": progress.runs + 1, "last_run": at}

    def _set(self, progress: MapProgress, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(progress, name, value)
