"""`memvault sign` and `memvault verify` on AIMEM bundles (AIMEM §5.3): a bundle, known by its
envelope, is signed with a vault key as a detached COSE_Sign1 in ``<bundle-name>.sig``, and a
tampered bundle fails verification with a clear message and exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aimemkit import bundle, chunk, write
from clikit import home, mv, ok, refused
from memvault.formats.aimem.checksum import bundle_checksum
from memvault.formats.aimem.cose import signature_path

__all__ = ["home"]  # fixtures


def _bundle(tmp_path: Path) -> Path:
    doc = bundle([chunk("c1", "Prefers tea."), chunk("c2", "Lives in Porto.", "fact")])
    return write(tmp_path / "brain.aimem.json", doc)


@pytest.mark.parametrize("algorithm", ["Ed25519", "ES256"])
def test_aimem_5_3_cli_sign_bundle_then_verify(home: Path, tmp_path: Path, algorithm: str) -> None:
    """AIMEM §5.3: `sign` writes <bundle-name>.sig with a vault key (EdDSA or ES256), leaves
    the bundle as it was, and `verify` accepts it — with the key from its did:key id, and
    pinned with --public-key."""
    ok("init")
    key_id = ok("keys", "generate", "--algorithm", algorithm, "--json").json()["key_id"]
    path = _bundle(tmp_path)
    original = path.read_bytes()
    run = ok("sign", path)
    assert "AIMEM §5.3" in run.stdout and algorithm in run.stdout
    assert path.read_bytes() == original
    assert signature_path(path).is_file()
    verified = ok("verify", path, "--json").json()
    assert verified["verified"] is True and verified["kind"] == "aimem-bundle"
    assert verified["key_id"] == key_id
    public = ok("keys", "export-public", key_id).stdout
    key_file = tmp_path / "signer.pem"
    key_file.write_text(public)
    assert ok("verify", path, "--public-key", key_file).exit_code == 0


def test_aimem_5_3_cli_tampered_bundle_fails_verification(home: Path, tmp_path: Path) -> None:
    """AIMEM §5.3: a bundle changed after signing fails `verify` (exit 1) with a message that
    says why — its checksum no longer matches, or, with the checksum recomputed, the signature
    does not match the bundle."""
    ok("init")
    ok("keys", "generate")
    path = _bundle(tmp_path)
    ok("sign", path)
    doc = json.loads(path.read_bytes())
    doc["chunks"][0]["content"] = "Prefers coffee."
    doc["chunks"][0].pop("content_hash")
    path.write_text(json.dumps(doc))
    run = mv("verify", path)
    assert run.exit_code == 1 and "not verified" in run.stdout and "checksum" in run.stdout
    doc["checksum"] = bundle_checksum(doc)
    path.write_text(json.dumps(doc))
    run = mv("verify", path)
    assert run.exit_code == 1
    assert "does not match the bundle" in run.stdout and "AIMEM §5.3" in run.stdout


def test_aimem_5_3_cli_sign_bundle_output_path(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("keys", "generate")
    path = _bundle(tmp_path)
    target = tmp_path / "elsewhere.sig"
    ok("sign", path, "-o", target)
    assert target.is_file() and not signature_path(path).exists()
    target.rename(signature_path(path))
    assert ok("verify", path).exit_code == 0


def test_aimem_5_3_cli_sign_bundle_refuses_a_key_cose_cannot_use(
    home: Path, tmp_path: Path
) -> None:
    """AIMEM bundles are signed with EdDSA or ES256: an RSA vault key is refused (exit 2),
    and nothing is written."""
    ok("init")
    ok("keys", "generate", "--algorithm", "RS256", "--rsa-bits", "2048")
    path = _bundle(tmp_path)
    stderr = refused("sign", path, code=2)
    assert "Ed25519" in stderr and "ES256" in stderr and "RS256" in stderr
    assert not signature_path(path).exists()


def test_aimem_5_3_cli_sign_bundle_has_no_signed_at(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("keys", "generate")
    path = _bundle(tmp_path)
    stderr = refused("sign", path, "--signed-at", "2026-06-12T10:00:00Z", code=2)
    assert "--signed-at" in stderr
    assert not signature_path(path).exists()


def test_aimem_5_3_cli_sign_bundle_with_a_bad_checksum_is_refused(
    home: Path, tmp_path: Path
) -> None:
    """A bundle whose checksum does not match its content is not signed (§2.8 first)."""
    ok("init")
    ok("keys", "generate")
    path = _bundle(tmp_path)
    doc = json.loads(path.read_bytes())
    doc["checksum"] = "sha256:" + "0" * 64
    path.write_text(json.dumps(doc))
    stderr = refused("sign", path)
    assert "checksum" in stderr and "nothing was signed" in stderr
    assert not signature_path(path).exists()


def test_aimem_5_3_cli_sign_bundle_json(home: Path, tmp_path: Path) -> None:
    """`sign --json` of a bundle names the bundle, the signature file, the algorithm and key."""
    ok("init")
    key_id = ok("keys", "generate", "--json").json()["key_id"]
    path = _bundle(tmp_path)
    out = ok("sign", path, "--json").json()
    assert out == {
        "path": str(path),
        "signature_file": str(signature_path(path)),
        "algorithm": "Ed25519",
        "key_id": key_id,
    }
