"""The server's background embedding: a thread that, every `interval` seconds, computes the
vectors the recall passages of each tenant lack (`Vault.embed`, incremental), so what is
written over HTTP becomes findable by meaning without anyone running `memvault embed`.

Only a vault that names an embedder (`Vault.embedder_spec`: chosen once with `memvault
embed`) is embedded; the others are left to full text. `progress(tenant)` is what
``GET /v1/stats`` shows. A failure (the embeddings endpoint down) is kept in the progress
and tried again on the next round; it never stops the server.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from memvault.errors import VaultError
from memvault.vault import Vault

__all__ = ["EmbedProgress", "EmbedWorker", "owner_sessions"]

_log = logging.getLogger("memvault.server.embedding")


@dataclass(slots=True)
class EmbedProgress:
    """One tenant's embedding: `state` is "waiting" (before the first round), "embedding",
    "idle" (every passage has a vector) or "failed" (`error` says why); `embedded` counts
    the vectors computed since the server started, `with_vector` of `passages` have one, and
    `pending` are still to do in the round under way. `failures` counts the failed rounds since
    the server started and `last_error` keeps the latest one's reason after a later round
    succeeds, so a failure between two looks at the stats is still seen."""

    state: str = "waiting"
    embedded: int = 0
    pending: int = 0
    with_vector: int = 0
    passages: int = 0
    runs: int = 0
    last_run: str | None = None
    error: str | None = None
    failures: int = 0
    last_error: str | None = None


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


class EmbedWorker:
    """Embeds what is new, in a daemon thread, until `stop`."""

    def __init__(
        self,
        sessions: Callable[[], Iterable[tuple[str, Vault]]],
        *,
        interval: float = 2.0,
        api_key: str | None = None,
    ) -> None:
        self._sessions = sessions
        self._interval = interval
        self._api_key = api_key
        self._progress: dict[str, EmbedProgress] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._round = threading.Condition()
        self._rounds = 0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="memvault-embed", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def progress(self, tenant: str) -> dict[str, Any]:
        """The tenant's `EmbedProgress` as JSON (state "waiting" before its first round)."""
        with self._lock:
            return asdict(self._progress.get(tenant) or EmbedProgress())

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
        """One round over every tenant whose vault names an embedder."""
        try:
            sessions = list(self._sessions())
        except VaultError as exc:  # the registry is closing
            _log.warning("embedding round skipped: %s", exc)
            return
        for tenant, vault in sessions:
            if self._stop.is_set():
                return
            self._embed(tenant, vault)

    def _embed(self, tenant: str, vault: Vault) -> None:
        with self._lock:
            progress = self._progress.setdefault(tenant, EmbedProgress())
        try:
            if vault.embedder_spec() is None:
                return
            self._set(progress, state="embedding")

            def step(done: int, missing: int) -> None:
                self._set(progress, pending=missing - done)

            embedded, with_vector, passages = vault.embed(api_key=self._api_key, progress=step)
        except (VaultError, OSError) as exc:
            self._set(
                progress,
                state="failed",
                error=str(exc),
                failures=progress.failures + 1,
                last_error=str(exc),
                **self._stamp(progress),
            )
            return
        self._set(
            progress,
            state="idle",
            error=None,
            pending=0,
            embedded=progress.embedded + embedded,
            with_vector=with_vector,
            passages=passages,
            **self._stamp(progress),
        )

    @staticmethod
    def _stamp(progress: EmbedProgress) -> dict[str, Any]:
        at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return {"runs": progress.runs + 1, "last_run": at}

    def _set(self, progress: EmbedProgress, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(progress, name, value)
