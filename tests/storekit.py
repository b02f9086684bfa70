"""The storage backends the contract suite (test_store_contract.py) runs against.

Each entry makes a new, empty store in a temporary directory. A second backend is one more
`pytest.param` here (PostgreSQL: a store bound to a fresh schema or tenant of a test server).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memvault.store import create_store
from memvault.store.base import Store
from vaultkit import FAST_KDF, PASSPHRASE

#: Makes a new, empty store under the given temporary directory.
NewStore = Callable[[Path], Store]


def new_sqlite_store(tmp: Path) -> Store:
    return create_store(tmp / "home", PASSPHRASE, kdf_iter=int(FAST_KDF))


BACKENDS = [
    pytest.param(new_sqlite_store, id="sqlite"),
]
