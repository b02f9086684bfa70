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

from dataclasses import dataclass
from typing import Final

from memvault.errors import VaultError
from memvault.server.tenant_worker import Sessions, TenantWorker
from memvault.store.base import StoreError
from memvault.vault import Vault

__all__ = ["ExportMapWorker", "MapProgress"]

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


class ExportMapWorker(TenantWorker[MapProgress]):
    """Maps what writes left pending, in a daemon thread, until `stop`."""

    thread_name = "memvault-export-map"
    label = "export mapping"

    def __init__(
        self,
        sessions: Sessions,
        *,
        interval: float = 1.0,
        pause: float = PAUSE,
        sweep_interval: float | None = None,
    ) -> None:
        sweep = {} if sweep_interval is None else {"sweep_interval": sweep_interval}
        super().__init__(sessions, MapProgress, interval=interval, **sweep)
        self._pause = pause

    def _work(self, vault: Vault, progress: MapProgress) -> bool:
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
                from memvault.server.heap import release_vault_memory

                # What mapping left in the writer goes back before the download reads, and
                # what the download left once it is made (as after a sent one).
                vault.release_memory()
                if prepare_download(vault):
                    self._set(progress, prepared=progress.prepared + 1)
                release_vault_memory(vault)
            # Left pending (a download is mapping, the server stopping): visit it again.
            settled = not view.pending_count()
        except (VaultError, StoreError, OSError) as exc:
            self._set(progress, state="failed", error=str(exc), **self._stamp(progress))
            return False
        self._set(progress, state="idle", error=None, **self._stamp(progress))
        return settled
