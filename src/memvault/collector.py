"""The cyclic garbage collector run less often while a bulk request works, in any process.

An AIMEM import maps tens of thousands of chunks, each into a dozen container objects (the
memory model, its row, its audit entry) that reference counting frees: none is ever part of
a cycle. At Python's default first-generation threshold (700 container allocations) the
collector runs every few chunks, and as the batch in flight survives into the older
generations it scans the whole heap again and again — about 1 CPU-second of a 50,000-chunk
import, more in a server whose heap is larger (benchmarks/aimem_http.py).

`fewer_collections` raises the first-generation threshold to `BULK_THRESHOLD` for the block.
Unlike `memvault.bulk.gc_paused` nothing is switched off, so it is safe in a server: a cycle
made meanwhile, by this request or another, is still collected, after at most that many
allocations instead of 700. The setting is process-wide, so it is counted: the first block
to start raises it, the last to end restores what it was.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from typing import Final

__all__ = ["BULK_THRESHOLD", "fewer_collections"]

#: The first-generation threshold inside `fewer_collections`: container allocations (net of
#: deallocations) between two automatic collections.
BULK_THRESHOLD: Final = 100_000

_lock = threading.Lock()
_users = 0
_saved: tuple[int, ...] = ()


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Automatic collections at most every `BULK_THRESHOLD` allocations inside the block
    (never more rarely than they already were), as they were after the last block ends."""
    global _users, _saved
    with _lock:
        if _users == 0:
            _saved = gc.get_threshold()
            if _saved[0] and _saved[0] < BULK_THRESHOLD:
                gc.set_threshold(BULK_THRESHOLD, *_saved[1:])
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                gc.set_threshold(*_saved)
