"""Exports under continual erasure always complete and never hold erased data (AIMEM §5.2;
`memvault.erasure_fence`, docs/decisions.md), on SQLite and PostgreSQL.

Fixed-seed races on one vault: one thread erases memories one after another without a pause
(in an order drawn from a seeded random generator) while another makes exports one after
another. Every export must succeed — none gives up because erasures kept coming (they used
to: an export overtaken by an erasure three times answered 503) — none may hold a memory
whose erasure was acknowledged before it began, and each holds every memory never erased.
"""

from __future__ import annotations

import itertools
import random
import re
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from memvault.exchange import export_bundle, export_vault
from memvault.exchange.aimem_wire import export_download
from memvault.store.base import Store
from memvault.vault import Vault
from storekit import new_pg15_store, new_sqlite_store

BACKENDS = [
    pytest.param(new_sqlite_store, id="sqlite"),
    pytest.param(new_pg15_store, id="postgres15"),
]
MEMORIES = 120
EXPORTS = 6


def _pam(vault: Vault, out: Path) -> bytes:
    export_vault(vault, out, overwrite=True)
    with zipfile.ZipFile(out) as z:
        return b"".join(z.read(n) for n in z.namelist())


def _aimem(vault: Vault, out: Path) -> bytes:
    export_bundle(vault, out.with_suffix(".aimem.json"), overwrite=True)
    return out.with_suffix(".aimem.json").read_bytes()


def _download(vault: Vault, out: Path) -> bytes:
    return b"".join(export_download(vault).blocks)


KINDS: dict[str, Callable[[Vault, Path], bytes]] = {
    "PAM zip": _pam,
    "AIMEM file": _aimem,
    "AIMEM download": _download,
}


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("new_store", BACKENDS)
def test_aimem_5_2_exports_under_continual_erasure_complete_without_erased_data(
    new_store: Callable[[Path], Store], kind: str, tmp_path: Path
) -> None:
    vault = Vault.create(new_store(tmp_path))
    try:
        ids = {
            vault.add(f"Marker{n:03d} is a memory about the allotment", "fact").memory.id: n
            for n in range(MEMORIES)
        }
        order = list(ids)
        random.Random(23).shuffle(order)
        ticks = itertools.count()
        tick_lock = threading.Lock()
        erased_at: dict[int, int] = {}  # marker → the tick its erasure was acknowledged at
        done = threading.Event()
        errors: list[BaseException] = []

        def erase_continually() -> None:
            try:
                for memory_id in order:
                    if done.is_set():
                        return
                    vault.erase(memory_id)
                    with tick_lock:
                        erased_at[ids[memory_id]] = next(ticks)
            except BaseException as exc:  # handed to the test thread
                errors.append(exc)

        eraser = threading.Thread(target=erase_continually)
        eraser.start()
        exports: list[tuple[int, bytes]] = []
        try:
            for n in range(EXPORTS):
                with tick_lock:
                    began = next(ticks)
                exports.append((began, KINDS[kind](vault, tmp_path / f"out{n}.zip")))
        finally:
            done.set()
            eraser.join(120)
        assert not errors, errors
        assert erased_at, "no erasure ran during the exports"
        for tick, written in exports:
            present = {int(m) for m in _markers(written)}
            leaked = {m for m, at in erased_at.items() if at < tick} & present
            assert not leaked, f"an export holds memories erased before it began: {leaked}"
            # It holds every memory never erased.
            assert set(range(MEMORIES)) - set(erased_at) <= present
        assert vault.verify_audit().ok
    finally:
        vault.close()


def _markers(written: bytes) -> list[bytes]:
    return re.findall(rb"Marker(\d{3})", written)
