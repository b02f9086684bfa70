"""Process-wide interpreter settings (issue #16, "local concerns out of the vault"): the garbage
collector paused and a short switch interval are for the CLI's bulk commands only. Called as a
library — as a server worker would — the import, export and batch paths leave both as they
were, during the call as well as after it; the CLI's bulk commands still get them.

A sampling thread watches `gc.isenabled()`, `gc.get_threshold()` and `sys.getswitchinterval()`
while the work runs."""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from clikit import ok
from memvault.bulk import PROMPT_SWITCH_INTERVAL, interpreter_tuning, tuning_allowed
from memvault.exchange import export_vault, import_into_vault
from memvault.exchange.aimem import export_bundle, import_bundle
from vaultkit import FAST_KDF, PASSPHRASE, make_vault, pam_memory

#: More memories than one pipelined chunk of `Vault.add_memories` (the threaded write path,
#: where the switch interval was changed).
MEMORIES = 3000


class Seen:
    def __init__(self) -> None:
        self.gc: set[bool] = set()
        self.threshold: set[tuple[int, ...]] = set()
        self.switch: set[float] = set()


@contextmanager
def watching() -> Iterator[Seen]:
    seen, stop = Seen(), threading.Event()

    def sample() -> None:
        while not stop.is_set():
            seen.gc.add(gc.isenabled())
            seen.threshold.add(gc.get_threshold())
            seen.switch.add(sys.getswitchinterval())
            stop.wait(0.0002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield seen
    finally:
        stop.set()
        sampler.join()


def _memories() -> list[object]:
    return [pam_memory(f"bulk memory number {i}", id=f"bulk-{i:05d}") for i in range(MEMORIES)]


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    """A PAM export of `MEMORIES` memories, written as the CLI would (tuning allowed)."""
    with interpreter_tuning(), make_vault(tmp_path / "source") as vault:
        vault.add_memories(_memories())  # type: ignore[arg-type]
        export_vault(vault, tmp_path / "export.zip")
    return tmp_path / "export.zip"


def _untouched(work: Callable[[], object]) -> None:
    assert not tuning_allowed()
    gc_before, switch_before = gc.isenabled(), sys.getswitchinterval()
    threshold_before = gc.get_threshold()
    with watching() as seen:
        work()
    assert seen.gc == {gc_before}, "the collector was switched during a library call"
    assert seen.threshold == {threshold_before}, "the collector's thresholds changed"
    assert seen.switch == {switch_before}, "the switch interval changed during a library call"
    assert (gc.isenabled(), sys.getswitchinterval()) == (gc_before, switch_before)


def test_library_batch_add_leaves_the_interpreter_settings_alone(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        _untouched(lambda: vault.add_memories(_memories()))  # type: ignore[arg-type]
        assert vault.stats()["memories"] == MEMORIES


def test_library_import_and_export_leave_the_interpreter_settings_alone(
    tmp_path: Path, exported: Path
) -> None:
    with make_vault(tmp_path / "v") as vault:
        _untouched(lambda: import_into_vault(vault, exported))
        _untouched(lambda: export_vault(vault, tmp_path / "again.zip"))
        assert vault.stats()["memories"] == MEMORIES


def test_library_aimem_import_leaves_the_interpreter_settings_alone(
    tmp_path: Path, exported: Path
) -> None:
    """The AIMEM import a server runs for `POST /v1/brain/import` (DESIGN: no process-wide
    interpreter tweaks inside a server worker)."""
    bundle = tmp_path / "brain.aimem.json"
    with make_vault(tmp_path / "pam") as vault:
        import_into_vault(vault, exported)
        export_bundle(vault, bundle)
    with make_vault(tmp_path / "v") as vault:
        _untouched(lambda: import_bundle(vault, bundle))
        assert vault.stats()["memories"] == MEMORIES


def test_cli_import_runs_with_the_collector_paused_and_restores_it(
    tmp_path: Path, exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_HOME", str(tmp_path / "cli"))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("MEMVAULT_KDF_ITER", FAST_KDF)
    ok("init")
    gc_before, switch_before = gc.isenabled(), sys.getswitchinterval()
    assert gc_before, "the test expects the collector on to begin with"
    with watching() as seen:
        ok("import", exported)
    assert False in seen.gc, "the CLI's import never paused the collector"
    assert PROMPT_SWITCH_INTERVAL in seen.switch, "the CLI's import kept the switch interval"
    assert (gc.isenabled(), sys.getswitchinterval()) == (gc_before, switch_before)
    assert not tuning_allowed()


def test_interpreter_tuning_is_counted(tmp_path: Path) -> None:
    with interpreter_tuning():
        with interpreter_tuning():
            assert tuning_allowed()
        assert tuning_allowed()
    assert not tuning_allowed()
