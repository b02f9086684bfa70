"""What opening a SQLite vault loads into the process: a server keeps every tenant's vault
open, so what an open costs in resident memory is paid for its whole life."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.vaultkit import make_vault


def test_opening_a_vault_loads_sqlite_vec_without_importing_numpy(tmp_path: Path) -> None:
    """sqlite-vec's Python package imports numpy (and its BLAS) when it is installed; the
    store loads the extension from its path instead, so a fresh process that opens a vault
    and queries a vec0 function has no numpy in it."""
    make_vault(tmp_path / "vault").close()
    code = textwrap.dedent(
        f"""
        import sys
        from memvault.vault import Vault
        vault = Vault.open({str(tmp_path / "vault")!r}, {"correct horse battery staple"!r})
        store = vault._store
        version = store._conn.execute("SELECT vec_version()").fetchone()[0]
        vault.close()
        print(version, "numpy" in sys.modules, "sqlite_vec" in sys.modules)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert out[0].startswith("v")
    assert out[1:] == ["False", "False"]
