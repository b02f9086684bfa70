"""The server's background embedding: a thread that, every `interval` seconds, computes the
vectors the recall passages of each tenant lack (`Vault.embed`, incremental), so what is
written over HTTP becomes findable by meaning without anyone running `memvault embed`.

Only a vault that names an embedder (`Vault.embedder_spec`: chosen once with `memvault
embed`) is embedded; the others are left to full text. `progress(tenant)` is what
``GET /v1/stats`` shows. A failure (the embeddings endpoint down) is kept in the progress
and tried again on the next round; it never stops the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from memvault.errors import VaultError
from memvault.server.tenant_worker import Sessions, TenantWorker, owner_sessions
from memvault.vault import Vault

__all__ = ["EmbedProgress", "EmbedWorker", "owner_sessions"]


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


class EmbedWorker(TenantWorker[EmbedProgress]):
    """Embeds what is new, in a daemon thread, until `stop`."""

    thread_name = "memvault-embed"
    label = "embedding"

    def __init__(
        self,
        sessions: Sessions,
        *,
        interval: float = 2.0,
        api_key: str | None = None,
        sweep_interval: float | None = None,
    ) -> None:
        sweep = {} if sweep_interval is None else {"sweep_interval": sweep_interval}
        super().__init__(sessions, EmbedProgress, interval=interval, **sweep)
        self._api_key = api_key

    def _work(self, vault: Vault, progress: EmbedProgress) -> bool:
        try:
            if vault.embedder_spec() is None:
                return True
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
            return False  # tried again next round
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
        return True
