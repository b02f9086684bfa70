"""Interpreter settings for bulk work, each on for a block and back after it — and only where
the process has allowed them.

Both settings are process-wide: fine in a command-line process doing one import, a hazard in
a server worker whose other requests would run with the collector off or the switch interval
changed. So the library's bulk paths ask for them (`gc_paused`, `prompt_switching`) and get
them only inside `interpreter_tuning`, which the CLI enters around its bulk commands (import,
export, merge, convert, validate, extract, decay); everywhere else the two blocks change
nothing.

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

_tuning_lock = threading.Lock()
_tuning_users = 0


@contextlib.contextmanager
def interpreter_tuning() -> Iterator[None]:
    """Allow `gc_paused` and `prompt_switching` to act inside the block (counted: nested and
    concurrent blocks allow until the last one ends). For a process that runs one bulk job
    and nothing else beside it — the CLI, not a server."""
    global _tuning_users
    with _tuning_lock:
        _tuning_users += 1
    try:
        yield
    finally:
        with _tuning_lock:
            _tuning_users -= 1


def tuning_allowed() -> bool:
    """Whether the process is inside `interpreter_tuning`."""
    return _tuning_users > 0


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Automatic collection off inside the block (when `interpreter_tuning` allows it), back
    to what it was after it. Resuming while the block's objects are still alive costs one
    scan of them all: wrap the outermost level at which they die, not an inner one that
    returns them."""
    if not tuning_allowed():
        yield
        return
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
    """The interpreter's switch interval at `PROMPT_SWITCH_INTERVAL` inside the block (when
    `interpreter_tuning` allows it). The setting is process-wide, so it is counted: the first
    block to start sets it, the last to end restores it."""
    global _switching_users, _switching_saved
    if not tuning_allowed():
        yield
        return
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
