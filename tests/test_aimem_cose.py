"""AIMEM §5.3 bundle authenticity: detached COSE_Sign1 (RFC 9052) in ``<bundle-name>.sig``,
EdDSA (Ed25519) and ES256, over the canonical bytes the checksum hashes (§2.8)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cbor2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from aimemkit import envelope
from memvault.crypto.keys import SigningKey
from memvault.formats.aimem import canonical_bundle_bytes, write_bundle
from memvault.formats.aimem.cose import (
    bundle_payload,
    cose_key,
    public_key_from_cose_key,
    sign_bundle,
    sign_payload,
    signature_path,
    verify_bundle_signature,
    verify_payload,
)
from memvault.formats.aimem.reader import open_bundle

P = "memvault-sig"
T0 = "2026-04-01T09:30:00Z"
ENVELOPE = envelope(P)
ALGORITHMS = ["Ed25519", "ES256"]


def make_bundle(tmp_path: Path, suffix: str = ".aimem.json", content: str = "likes tea") -> Path:
    path = tmp_path / ("b" + suffix)
    chunk = {
        "id": f"urn:aimem:{P}:c1",
        "content": content,
        "memory_type": "preference",
        "created_at": T0,
    }
    edge_chunk = {
        "id": f"urn:aimem:{P}:c2",
        "content": "x",
        "memory_type": "fact",
        "created_at": T0,
    }
    edge = {
        "source_id": chunk["id"],
        "target_id": edge_chunk["id"],
        "edge_type": "semantic",
        "weight": 5e-05,
        "created_at": T0,
    }
    write_bundle(path, ENVELOPE, [chunk, edge_chunk], [edge], overwrite=True)
    return path


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("suffix", [".aimem.json", ".ndjson"])
def test_aimem_5_3_sign_and_verify(tmp_path: Path, algorithm: str, suffix: str) -> None:
    """§5.3: a sibling <bundle-name>.sig verifies with the signer's key, in both forms."""
    key = SigningKey.new(algorithm)
    bundle = make_bundle(tmp_path, suffix)
    sig = sign_bundle(bundle, key)
    assert sig == signature_path(bundle) == bundle.with_name(bundle.name + ".sig")
    check = verify_bundle_signature(bundle, key.public_key)
    assert check.ok and check.algorithm == algorithm and check.key_id == key.key_id
    resolved = verify_bundle_signature(bundle)  # key from the did:key kid
    assert resolved.ok and "not pinned" in resolved.message


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_aimem_5_3_payload_is_detached_canonical_bundle(tmp_path: Path, algorithm: str) -> None:
    """§5.3: the COSE_Sign1 payload slot is nil and the signed bytes are the §2.8 canonical
    form, so the SHA-256 of the payload is the bundle's checksum."""
    bundle = make_bundle(tmp_path)
    sig = sign_bundle(bundle, SigningKey.new(algorithm))
    decoded = cbor2.loads(sig.read_bytes())
    assert decoded.tag == 18  # COSE_Sign1
    protected, _unprotected, payload, signature = decoded.value
    assert payload is None
    assert cbor2.loads(protected)[1] == {"Ed25519": -8, "ES256": -7}[algorithm]
    canonical = bundle_payload(bundle)
    with open_bundle(bundle) as reader:
        assert "sha256:" + hashlib.sha256(canonical).hexdigest() == reader.envelope["checksum"]

    assert canonical == canonical_bundle_bytes(json.loads(bundle.read_bytes()))
    assert len(signature) == 64


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_aimem_5_3_tampered_bundle_fails(tmp_path: Path, algorithm: str) -> None:
    """§5.3: a bundle changed after signing — even with a fresh checksum — does not verify."""
    key = SigningKey.new(algorithm)
    bundle = make_bundle(tmp_path)
    sign_bundle(bundle, key)
    sig = signature_path(bundle).read_bytes()
    make_bundle(tmp_path, content="likes coffee")  # valid bundle, new checksum, same name
    assert signature_path(bundle).read_bytes() == sig
    check = verify_bundle_signature(bundle, key.public_key)
    assert check.status == "invalid" and "does not match" in check.message
    # and a byte edit that breaks the checksum is refused too
    bundle.write_bytes(bundle.read_bytes().replace(b"coffee", b"cocoa!"))
    assert verify_bundle_signature(bundle, key.public_key).status == "invalid"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_aimem_5_3_wrong_key_fails(tmp_path: Path, algorithm: str) -> None:
    bundle = make_bundle(tmp_path)
    sign_bundle(bundle, SigningKey.new(algorithm))
    other = SigningKey.new(algorithm)
    check = verify_bundle_signature(bundle, other.public_key)
    assert check.status == "invalid"
    mismatched = SigningKey.new("ES256" if algorithm == "Ed25519" else "Ed25519")
    assert verify_bundle_signature(bundle, mismatched.public_key).status == "invalid"


def test_aimem_5_3_unsigned_and_malformed(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path)
    assert verify_bundle_signature(bundle).status == "unsigned"
    signature_path(bundle).write_bytes(b"\xa1\x01not cbor")
    assert verify_bundle_signature(bundle).status == "invalid"
    # an attached payload is not a §5.3 signature
    key = SigningKey.new("Ed25519")
    detached = cbor2.loads(sign_payload(bundle_payload(bundle), key))
    protected, unprotected, _, signature = detached.value
    attached = cbor2.dumps(cbor2.CBORTag(18, [protected, unprotected, b"payload", signature]))
    assert verify_payload(attached, bundle_payload(bundle), key.public_key).status == "invalid"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_aimem_5_3_cose_key_round_trip(tmp_path: Path, algorithm: str) -> None:
    """§5.3: the public key is published as a CBOR COSE_Key and verifies the signature."""
    key = SigningKey.new(algorithm)
    encoded = cose_key(key)
    decoded = cbor2.loads(encoded)
    assert decoded[1] == (1 if algorithm == "Ed25519" else 2)  # kty OKP / EC2
    assert decoded[2] == key.key_id.encode()
    assert -4 not in decoded  # no private key
    public = public_key_from_cose_key(encoded)
    expected_type = (
        ed25519.Ed25519PublicKey if algorithm == "Ed25519" else ec.EllipticCurvePublicKey
    )
    assert isinstance(public, expected_type)
    bundle = make_bundle(tmp_path)
    sign_bundle(bundle, key)
    assert verify_bundle_signature(bundle, public).ok
    with pytest.raises(ValueError):
        public_key_from_cose_key(b"\x00")


def test_aimem_5_3_rsa_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Ed25519 or ES256"):
        sign_bundle(make_bundle(tmp_path), SigningKey.new("RS256"))
    assert not signature_path(tmp_path / "b.aimem.json").exists()
