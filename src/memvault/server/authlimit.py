"""A limit on failed authentications per client address: a burst of bad tokens (someone
guessing keys) is answered 429 with ``Retry-After`` instead of being checked, while every other
client goes on being served.

Each address may fail `limit` times within `window` seconds; past that, every request from it
is refused — before its key is looked at, so a guess that happens to be right tells nothing —
until its oldest failure leaves the window. The address is the peer's, or the one a trusted
TLS proxy forwards (`ServerConfig.behind_tls_proxy`). Bounded: at most `max_clients` addresses
are remembered, the stalest dropped first.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Final

from memvault.errors import VaultError

__all__ = ["FailedAuthentications", "TooManyFailures"]

HTTP_TOO_MANY: Final = 429


class TooManyFailures(VaultError):
    """Too many failed authentications from this address: wait `retry_after` seconds."""

    http_status = HTTP_TOO_MANY

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FailedAuthentications:
    """Failed authentications per client address within a sliding window. Thread-safe."""

    def __init__(
        self,
        limit: int = 20,
        window: float = 60.0,
        *,
        max_clients: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self._max_clients = max_clients
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float] | None:
        failures = self._failures.get(client)
        if failures is None:
            return None
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[client]
            return None
        return failures

    def check(self, client: str) -> None:
        """TooManyFailures (429) when `client` has used up its failures."""
        with self._lock:
            now = self._clock()
            failures = self._recent(client, now)
            if failures is None or len(failures) < self.limit:
                return
            wait = max(1, math.ceil(failures[0] + self.window - now))
        raise TooManyFailures(
            f"too many failed authentications from {client} ({self.limit} within "
            f"{self.window:.0f} s); try again in {wait} s",
            wait,
        )

    def failed(self, client: str) -> None:
        """Count one failed authentication of `client`."""
        with self._lock:
            now = self._clock()
            failures = self._recent(client, now)
            if failures is None:
                failures = self._failures[client] = deque()
                while len(self._failures) > self._max_clients:
                    self._failures.popitem(last=False)
            failures.append(now)
            self._failures.move_to_end(client)
