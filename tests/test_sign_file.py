"""`memvault.crypto.files.sign_file`: signing a file as the library does it (the `sign` command
is a few lines over it) — a PAM export zip (PAM §18), an AIMEM bundle (§5.3) — and refusing
what cannot be signed before a key is even asked for."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from aimemkit import bundle, chunk, write
from memvault.crypto.files import sign_file
from memvault.crypto.keys import SigningKey
from memvault.crypto.signing import verify_buffer
from memvault.formats.aimem.cose import verify_bundle_signature
from memvault.sources import SourceError, open_target
from pamdocs import EXAMPLES

EXPORT = EXAMPLES / "export"

KEY = SigningKey.new("Ed25519")


def _zip_of_examples(path: Path) -> Path:
    """The sample export zipped with its folder (as users zip exports)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(EXPORT.rglob("*")):
            if file.is_file():
                archive.write(file, "export/" + file.relative_to(EXPORT).as_posix())
    return path


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def test_pam_18_sign_file_signs_the_store_inside_a_zip_and_keeps_every_other_member(
    tmp_path: Path,
) -> None:
    """PAM §18: the zip's memory-store gets its signature (it verifies); every other member
    is kept byte for byte, in the same order."""
    source = _zip_of_examples(tmp_path / "export.zip")
    before = _members(source)
    signed = sign_file(source, KEY)
    assert (signed.path, signed.format, signed.key_id) == (source, "pam", KEY.key_id)
    assert signed.signature is not None and signed.signature["key_id"] == KEY.key_id
    after = _members(source)
    assert list(after) == list(before)
    store = "export/memory-store.json"
    assert {k: v for k, v in after.items() if k != store} == {
        k: v for k, v in before.items() if k != store
    }
    with open_target(source) as opened:
        entry = opened.find("memory-store.json")
        assert entry is not None
        with entry.open() as buf:
            assert verify_buffer(buf, entry.display, expected_key=KEY.public_key).ok


def test_pam_18_sign_file_writes_a_signed_copy_and_leaves_the_input(tmp_path: Path) -> None:
    source = _zip_of_examples(tmp_path / "export.zip")
    before = source.read_bytes()
    signed = sign_file(source, KEY, output=tmp_path / "signed.zip")
    assert signed.path == tmp_path / "signed.zip" and source.read_bytes() == before
    assert set(_members(signed.path)) == set(_members(source))


def test_aimem_5_3_sign_file_writes_a_detached_signature_beside_the_bundle(tmp_path: Path) -> None:
    path = write(tmp_path / "brain.aimem.json", bundle([chunk("c1", "Likes tea.")]))
    before = path.read_bytes()
    signed = sign_file(path, KEY)
    assert signed.format == "aimem" and signed.signature_file == tmp_path / "brain.aimem.json.sig"
    assert path.read_bytes() == before
    assert verify_bundle_signature(path, KEY.public_key).status == "verified"


def test_sign_file_refuses_before_asking_for_the_key(tmp_path: Path) -> None:
    """An input that cannot be signed as asked is refused before the key is asked for (the
    command opens the vault only then)."""
    asked: list[str] = []

    def key() -> SigningKey:
        asked.append("key")
        return KEY

    path = write(tmp_path / "brain.aimem.json", bundle([chunk("c1", "Likes tea.")]))
    with pytest.raises(SourceError, match="no such file"):
        sign_file(tmp_path / "missing.zip", key)
    with pytest.raises(SourceError, match="--signed-at is for PAM documents"):
        sign_file(path, key, signed_at="2026-01-01T00:00:00Z")
    assert asked == []
    assert sign_file(path, key).format == "aimem" and asked == ["key"]


def test_aimem_5_3_sign_file_refuses_a_key_cose_cannot_sign_with(tmp_path: Path) -> None:
    path = write(tmp_path / "brain.aimem.json", bundle([chunk("c1", "Likes tea.")]))
    with pytest.raises(SourceError, match="Ed25519 \\(EdDSA\\) or ES256"):
        sign_file(path, SigningKey.new("ES384"))
    assert not (tmp_path / "brain.aimem.json.sig").exists()
