"""Large zip members are read through an anonymous temporary file and mapped (bounded memory),
with the same hostile-archive checks; a decrypted archive's members never reach the disk."""

from __future__ import annotations

import mmap
import struct
import zipfile
from pathlib import Path

import pytest

from memvault import sources
from memvault.crypto import agefile
from memvault.formats.pam.validate import validate_path
from pamdocs import EXAMPLES

STORE = (EXAMPLES / "memory-store.json").read_bytes()


def _zip(path: Path, data: bytes = STORE) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("export/memory-store.json", data)
    return path


def test_large_member_of_a_zip_on_disk_is_mapped_from_a_spool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "SPOOL_BYTES", 16)
    with sources.open_target(_zip(tmp_path / "export.zip")) as target:
        entry = target.find("memory-store.json")
        assert entry is not None
        with entry.open() as data:
            assert isinstance(data, mmap.mmap)
            assert data[:] == STORE


def test_spooled_zip_validates_exactly_like_one_read_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _zip(tmp_path / "export.zip")
    in_memory = validate_path(path)
    monkeypatch.setattr(sources, "SPOOL_BYTES", 16)
    spooled = validate_path(path)
    assert spooled.valid and in_memory.valid
    assert spooled.findings == in_memory.findings


def test_spooled_member_larger_than_its_header_is_a_zip_bomb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The header's uncompressed size is lowered after writing: the spool stops reading at the
    declared size, as the in-memory reader does."""
    path = _zip(tmp_path / "lying.zip")
    raw = bytearray(path.read_bytes())
    declared = len(STORE) // 2
    central = raw.rfind(b"PK\x01\x02")
    struct.pack_into("<I", raw, central + 24, declared)  # central directory: uncompressed size
    local = raw.find(b"PK\x03\x04")
    struct.pack_into("<I", raw, local + 22, declared)  # local header: uncompressed size
    path.write_bytes(bytes(raw))
    monkeypatch.setattr(sources, "SPOOL_BYTES", 16)
    with sources.open_target(path) as target:
        entry = target.find("memory-store.json")
        assert entry is not None
        with pytest.raises(sources.SourceError) as caught, entry.open():
            pass
    assert caught.value.code in {"zip-bomb", "bad-zip"}
    assert "memory-store.json" in str(caught.value)


def test_members_of_a_decrypted_archive_are_never_spooled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PAM §21.1: the plaintext of an age file stays in memory."""
    plain = _zip(tmp_path / "export.zip")
    sealed = tmp_path / "export.zip.age"
    sealed.write_bytes(agefile.encrypt(plain.read_bytes(), passphrase="correct horse"))
    monkeypatch.setattr(sources, "SPOOL_BYTES", 16)
    with sources.open_target(sealed, age_passphrase="correct horse") as target:
        entry = target.find("memory-store.json")
        assert entry is not None and not entry._spool
        with entry.open() as data:
            assert not isinstance(data, mmap.mmap)
            assert bytes(data) == STORE
