"""Interpreter settings for bulk work, each on for a block and back after it.

- `gc_paused`: memvault's bulk paths (batch inserts, validation, imports) build hundreds of
  thousands of objects that hold no reference cycles. The collector, triggered by allocation
  counts, would scan them again and again for nothing; reference counting frees them all
  the same.
- `prompt_switching`: a helper thread that runs long GIL-free calls (SQLite statements) gets
  the GIL back soon after each one, instead of waiting out the default 5 ms switch interval
  while the calling thread runs Python.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Iterator
from typing import Final

#: The switch interval while `prompt_switching` is on.
PROMPT_SWITCH_INTERVAL: Final = 0.0005


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


_switching_lock = threading.Lock()
_switching_users = 0
_switching_saved = 0.0


@contextlib.contextmanager
def prompt_switching() -> Iterator[None]:
    """The interpreter's switch interval at `PROMPT_SWITCH_INTERVAL` inside the block. The
    setting is process-wide, so it is counted: the first block to start sets it, the last to
    end restores it."""
    global _switching_users, _switching_saved
    with _switching_lock:
        if _switching_users == 0:
            _switching_saved = sys.getswitchinterval()
            sys.setswitchinterval(PROMPT_SWITCH_INTERVAL)
        _switching_users += 1
    try:
        yield
    finally:
        with _switching_lock:
            _switching_users -= 1
            if _switching_users == 0:
                sys.setswitchinterval(_switching_saved)
