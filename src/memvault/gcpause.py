"""Pausing the cyclic garbage collector around bulk work.

memvault's bulk paths (batch inserts, validation, imports) build hundreds of thousands of
objects that hold no reference cycles. The collector, triggered by allocation counts, would
scan them again and again for nothing; reference counting frees them all the same.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Automatic collection off inside the block, back to what it was after it. Resuming
    while the block's objects are still alive costs one scan of them all: wrap the outermost
    level at which they die, not an inner one that returns them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
