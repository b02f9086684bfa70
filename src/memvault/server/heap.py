"""Give the memory a large request freed back to the operating system.

glibc keeps what a request frees in the heap of the thread that freed it (each worker thread
has its own arena), so after an import of 50,000 chunks the next export, on another thread,
grows the process again beside memory nobody uses: the server's resident size climbs with
each large request. `malloc_trim(0)` returns the free pages of every arena; called once a
large request is done (an AIMEM import, or after an export's last byte), it took the
server's peak in benchmarks/aimem_http.py from 245 to 230 MiB (the export after a write:
245 to 223). It is a call, not a setting: nothing of the allocator's behaviour changes.
Elsewhere than glibc it does nothing.

`release_vault_memory` first has the tenant's vault free what its idle SQLite connections
hold (`Vault.release_memory`: page caches and prepared statements, 11 to 19 MiB per tenant
after an import of 50,000 chunks), which a server would otherwise hold per tenant for as
long as it runs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["release_freed_memory", "release_vault_memory"]


@functools.cache
def _trim() -> Any:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc: no malloc_trim
        return None


def release_freed_memory() -> bool:
    """Return the heaps' free pages to the system; True when some were (glibc only)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False


def release_vault_memory(vault: Vault) -> None:
    """What `vault`'s idle connections hold, then the heaps' free pages, back to the system."""
    vault.release_memory()
    release_freed_memory()
