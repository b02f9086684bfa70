"""An export racing an erasure never holds the erased data (AIMEM §5.2: "even if the export
request precedes the cascade by milliseconds"; `memvault.erasure_fence`, docs/erasure.md).

The guarantee: an export file that appears after an erasure committed holds none of the
erased data — an export that read the data before the commit is made again from the start —
and an export published before the erasure committed is a faithful copy of the vault as it
was. Tested with threads on one vault: the export reads on the store's read connections
while another thread holds the erasure's transaction open, and publishes after it commits.
"""

from __future__ import annotations

import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault.erasure_fence import ATTEMPTS
from memvault.errors import ExportError
from memvault.exchange import export_bundle, export_vault
from memvault.exchange.pam import ExportHooks
from memvault.vault import Vault
from vaultkit import make_vault

SECRET = b"Snorkelwomp"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    for n in range(300):
        v.add(f"Ordinary memory {n} about the allotment", "fact")
    yield v
    v.close()


def _written(path: Path) -> bytes:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            return b"".join(z.read(n) for n in z.namelist())
    return path.read_bytes()


def _staged(directory: Path, name: str) -> bool:
    """Whether an export's output is written and waits to be renamed into place (a hidden
    file beside the target: the read phase is over)."""
    return any(
        p.name.startswith(f".{name}.") and (p.name.endswith(".tmp") or ".out-" in p.name)
        for p in directory.iterdir()
    )


EXPORTS: dict[str, tuple[str, Callable[[Vault, Path], Any]]] = {
    "PAM zip": ("out.zip", lambda v, p: export_vault(v, p)),
    "AIMEM json": ("out.aimem.json", lambda v, p: export_bundle(v, p)),
    "AIMEM ndjson": ("out.aimem.ndjson", lambda v, p: export_bundle(v, p)),
}


@pytest.mark.parametrize("kind", list(EXPORTS))
def test_aimem_5_2_an_export_that_read_erased_data_is_made_again(
    vault: Vault, tmp_path: Path, kind: str
) -> None:
    """The export reads the memory (the erasure is not committed yet), writes its output, and
    waits to publish it while the erasure's transaction is open; the erasure commits; the
    export then finds that an erasure committed since it began, drops its output and reads
    the vault again: the file that appears does not hold the erased memory, and holds every
    other one."""
    target = vault.add(f"{SECRET.decode()} is the owner's childhood nickname", "fact").memory
    name, export = EXPORTS[kind]
    out = tmp_path / name
    results: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(export(vault, out))
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    exporter = threading.Thread(target=run)
    with vault.store.transaction():
        vault.erase(target.id)  # not committed: readers still see the memory
        exporter.start()
        deadline = time.monotonic() + 60
        while not _staged(tmp_path, name) and not errors:
            assert time.monotonic() < deadline, "the export never reached its publication"
            time.sleep(0.01)
        assert exporter.is_alive() and not out.exists()  # it waits for the write lock
    exporter.join(60)
    assert not errors, errors
    written = _written(out)
    assert SECRET not in written and target.id.encode() not in written
    assert written.count(b"about the allotment") >= 300
    assert vault.store.scrub()


def test_aimem_5_2_an_export_published_before_the_erasure_holds_the_vault_as_it_was(
    vault: Vault, tmp_path: Path
) -> None:
    """The other side of the guarantee: an export published before the erasure committed is
    the vault as it was then (it holds the memory); the next one does not."""
    target = vault.add(f"{SECRET.decode()} is the owner's childhood nickname", "fact").memory
    export_vault(vault, tmp_path / "before.zip")
    vault.erase(target.id)
    export_vault(vault, tmp_path / "after.zip")
    assert SECRET in _written(tmp_path / "before.zip")
    assert SECRET not in _written(tmp_path / "after.zip")


def test_aimem_5_2_an_export_gives_up_while_erasures_keep_committing(
    vault: Vault, tmp_path: Path
) -> None:
    """An erasure the erasure gate cannot hold back committing during every attempt (here:
    the export's own encryption step, on the export's thread, erases one more memory each
    time, before the output is renamed into place — the last attempt too, although it holds
    the vault's write lock): after `ATTEMPTS` tries the export fails with ExportError and
    nothing is left at the target. Erasures from other threads wait for the export instead
    (tests/test_erasure_continual_race.py)."""
    memories = [vault.add(f"Erase me {n}", "fact").memory for n in range(ATTEMPTS)]
    attempts: list[str] = []

    def encrypt(source: Path, destination: Path) -> None:
        vault.erase(memories[len(attempts)].id)
        attempts.append(source.name)
        destination.write_bytes(source.read_bytes())

    out = tmp_path / "out.zip"
    with pytest.raises(ExportError, match="erasures committed"):
        export_vault(vault, out, hooks=ExportHooks(encrypt=encrypt))
    assert len(attempts) == ATTEMPTS
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["vault"]
    assert vault.verify_audit().ok
