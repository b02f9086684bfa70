"""Atomic file writing, written once (`memvault.atomic`; issue #16 found it written four
times), and the PAM store file's name written once."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from memvault.atomic import atomic_file, write_atomic
from pamdocs import REPO

SOURCES = sorted((REPO / "src" / "memvault").rglob("*.py"))


def test_write_atomic_replaces_the_file_with_the_mode_asked(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    write_atomic(target, b"new", mode=0o600)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_a_failed_write_leaves_the_target_as_it_was_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")

    class Stop(Exception):
        pass

    with pytest.raises(Stop), atomic_file(target) as handle:
        handle.write(b"half of the new")
        raise Stop
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_atomic_file_writing_is_written_once() -> None:
    """A temporary file renamed over its target: only memvault/atomic.py makes one."""
    makers = [
        p.relative_to(REPO).as_posix()
        for p in SOURCES
        if re.search(r"\bmkstemp\(|NamedTemporaryFile\(", p.read_text(encoding="utf-8"))
    ]
    assert makers == ["src/memvault/atomic.py"]


def test_the_memory_store_file_name_is_written_once() -> None:
    """``"memory-store.json"`` (PAM §2) as a string in code: one constant, STORE_FILE."""
    holders = [
        p.relative_to(REPO).as_posix()
        for p in SOURCES
        if '"memory-store.json"' in p.read_text(encoding="utf-8")
    ]
    assert holders == ["src/memvault/formats/pam/__init__.py"]
