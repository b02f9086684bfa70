"""PAM §17 decentralized identity: did:key derived from, and resolved offline to, the signing
key; and the §17.2 / §18.5 checks that a signature belongs to the owner's DID."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import base58
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from memvault.crypto import did as didkey
from memvault.crypto.keys import SigningKey, encode_public_key, same_public_key
from memvault.crypto.signing import (
    SigningError,
    sign_document,
    signature_failures,
    verify_document,
)
from memvault.formats.pam.validate import validate_path
from pamdocs import lone_store, official, only, write

#: The did:key method specification's Ed25519 example (w3c-ccg/did-method-key).
SPEC_ED25519_DID = "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp"
#: The owner DID of the official PAM example (§17.1 lists it too).
OFFICIAL_DID = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"


# ---------------------------------------------------------------------------------------------
# did:key encoding and resolution
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("did", [SPEC_ED25519_DID, OFFICIAL_DID])
def test_pam_17_3_did_key_spec_vector_resolves_to_a_32_byte_ed25519_key(did: str) -> None:
    key = didkey.resolve_did_key(did)
    assert isinstance(key, ed25519.Ed25519PublicKey)
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert len(raw) == 32
    # multicodec 0xed01 (varint ed 01) + the key, base58btc with the multibase "z"
    assert base58.b58decode(did[len("did:key:z") :]) == b"\xed\x01" + raw
    assert didkey.did_key(key) == did


@pytest.mark.parametrize(
    ("curve", "prefix", "point_size"),
    [(ec.SECP256R1(), "did:key:zDn", 33), (ec.SECP384R1(), "did:key:z82", 49)],
)
def test_pam_17_3_did_key_round_trips_for_ec_keys(
    curve: ec.EllipticCurve, prefix: str, point_size: int
) -> None:
    key = ec.generate_private_key(curve).public_key()
    did = didkey.did_key(key)
    assert did.startswith(prefix)
    data = base58.b58decode(did[len("did:key:z") :])
    assert len(data) == 2 + point_size  # multicodec 0x1200 / 0x1201 + compressed point
    assert same_public_key(didkey.resolve_did_key(did), key)


def test_pam_17_3_did_key_round_trips_for_ed25519() -> None:
    for _ in range(20):
        key = ed25519.Ed25519PrivateKey.generate().public_key()
        did = didkey.did_key(key)
        assert did.startswith("did:key:z6Mk")
        assert same_public_key(didkey.resolve_did_key(did), key)


def test_pam_18_1_key_id_is_the_did_url_of_the_one_verification_method() -> None:
    assert (
        didkey.key_id(OFFICIAL_DID) == official("example-memory-store.json")["signature"]["key_id"]
    )
    fragment = OFFICIAL_DID.removeprefix("did:key:")
    assert didkey.key_id(OFFICIAL_DID) == f"{OFFICIAL_DID}#{fragment}"
    assert didkey.split_did_url(didkey.key_id(OFFICIAL_DID)) == (OFFICIAL_DID, fragment)
    # a DID URL resolves like its DID
    assert same_public_key(
        didkey.resolve_did_key(didkey.key_id(OFFICIAL_DID)), didkey.resolve_did_key(OFFICIAL_DID)
    )


def test_pam_18_1_the_official_public_key_is_the_owner_did_key() -> None:
    doc = official("example-memory-store.json")
    assert "did:key:" + doc["signature"]["public_key"] == doc["owner"]["did"]


@pytest.mark.parametrize(
    ("did", "words"),
    [
        ("did:key:6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", "'z'"),
        ("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooW0", "base58"),
        ("did:key:z" + base58.b58encode(b"\xe7\x01" + b"\x02" * 33).decode(), "multicodec"),
        ("did:key:z" + base58.b58encode(b"\xed\x01" + b"\x01" * 31).decode(), "32 bytes"),
        ("did:key:z" + base58.b58encode(b"\x80\x24" + b"\x05" * 33).decode(), "secp256r1"),
        ("did:key:z" + "2" * 500, "at most"),
        ("did:web:example.com", "not a did:key"),
    ],
)
def test_pam_17_2_malformed_did_key_is_a_clear_error(did: str, words: str) -> None:
    with pytest.raises(didkey.DIDError) as caught:
        didkey.resolve_did_key(did)
    assert words.lower() in str(caught.value).lower()


def test_pam_17_3_no_did_key_for_rsa() -> None:
    key = SigningKey.new("RS256")
    assert key.did is None
    assert key.key_id.startswith("urn:ietf:params:oauth:jwk-thumbprint:sha-256:")


# ---------------------------------------------------------------------------------------------
# Verification against the owner's DID
# ---------------------------------------------------------------------------------------------


def _owned(did: str | None) -> dict[str, Any]:
    """The official example without its signature, owner.did set to `did` (or removed)."""
    doc = official("example-memory-store.json")
    doc["owner"]["did"] = did
    if did is None:
        del doc["owner"]["did"]
    del doc["signature"]
    return doc


@pytest.mark.parametrize("algorithm", ["Ed25519", "ES256", "ES384"])
def test_pam_17_2_signature_by_the_owner_did_key_verifies(algorithm: str) -> None:
    key = SigningKey.new(algorithm)
    assert key.did is not None
    signed = sign_document(_owned(key.did), key)
    assert signed["signature"]["key_id"] == didkey.key_id(key.did)
    result = verify_document(signed)
    assert result.ok, result.problems
    assert result.owner_did == "did:key matches" and not result.problems


def test_pam_17_2_signature_by_another_key_than_the_owner_did_is_an_error() -> None:
    owner, intruder = SigningKey.new("Ed25519"), SigningKey.new("Ed25519")
    doc = sign_document(_owned(None), intruder)
    doc["owner"]["did"] = owner.did  # not covered by the payload: only owner.id is
    result = verify_document(doc)
    assert result.signature_valid and not result.ok
    codes = {p.code: p for p in result.errors}
    assert set(codes) == {"signature-not-owner-key", "key-id-not-owner-key"}
    problem = codes["signature-not-owner-key"]
    assert problem.section == "PAM §17.2" and "does not belong to the owner" in problem.message
    assert result.reason == "the signature does not belong to the owner"


def test_pam_18_5_key_id_must_be_the_owner_did_key_verification_method() -> None:
    key = SigningKey.new("Ed25519")
    assert key.did is not None
    signed = sign_document(_owned(key.did), key, key_id=f"{key.did}#key-1")
    result = verify_document(signed)
    assert [p.code for p in result.errors] == ["key-id-not-owner-key"]
    assert result.errors[0].path == "$.signature.key_id"
    assert result.errors[0].section == "PAM §18.5"


def test_pam_17_2_public_key_in_another_encoding_still_matches_the_owner() -> None:
    """An ES256 key written as a JWK matches the owner's zDn… did:key (the keys compare, not
    their spellings)."""
    key = SigningKey.new("ES256")
    signed = sign_document(_owned(key.did), key)
    assert signed["signature"]["public_key"].startswith('{"crv":"P-256"')
    assert verify_document(signed).ok


@pytest.mark.parametrize(
    "did", ["did:web:example.com:user:alice", "did:ion:EiAnKD8-jfdd0MDcZUjAbRgaThBrMxPTFOxcnfJ"]
)
def test_pam_17_2_other_did_methods_are_not_resolved_warning(did: str) -> None:
    key = SigningKey.new("Ed25519")
    signed = sign_document(_owned(did), key, key_id=f"{did}#key-1")
    result = verify_document(signed)
    assert result.ok, result.problems
    assert [(p.severity, p.code) for p in result.problems] == [
        ("warning", "owner-did-not-resolved")
    ]
    assert "not resolved" in result.owner_did
    assert result.problems[0].section == "PAM §17.2"


def test_pam_18_5_key_id_not_a_did_url_of_a_did_web_owner_is_a_warning() -> None:
    key = SigningKey.new("Ed25519")
    signed = sign_document(_owned("did:web:example.com"), key)  # key_id: its did:key URL
    result = verify_document(signed)
    assert result.ok
    assert {p.code for p in result.warnings} == {
        "key-id-not-owner-did-url",
        "owner-did-not-resolved",
    }


def test_pam_17_2_owner_did_key_that_does_not_resolve_is_an_error() -> None:
    key = SigningKey.new("Ed25519")
    signed = sign_document(_owned(None), key)
    signed["owner"]["did"] = "did:key:zNotAKey0"
    result = verify_document(signed)
    assert [p.code for p in result.errors] == ["owner-did-unresolvable"]


def test_pam_18_1_key_id_naming_another_did_key_is_an_error_without_owner_did() -> None:
    key, other = SigningKey.new("Ed25519"), SigningKey.new("Ed25519")
    signed = sign_document(_owned(None), key, key_id=other.key_id)
    assert [p.code for p in verify_document(signed).errors] == ["key-id-not-signing-key"]


def test_pam_17_2_signing_refuses_a_key_that_is_not_the_owner_did_key() -> None:
    owner, other = SigningKey.new("Ed25519"), SigningKey.new("ES256")
    with pytest.raises(SigningError, match="does not belong to the owner"):
        sign_document(_owned(owner.did), other)


def test_pam_17_3_encoded_public_key_of_ed25519_is_the_did_key_id() -> None:
    key = SigningKey.new("Ed25519")
    assert key.did == "did:key:" + encode_public_key(key.private_key)


def test_pam_17_2_validate_checks_that_an_owner_did_key_resolves(tmp_path: Path) -> None:
    """Signed or not, an owner did:key that cannot be decoded is not resolvable (MUST)."""
    doc = lone_store()
    doc["owner"]["did"] = "did:key:z6MkNotAKey0"
    finding = only(validate_path(write(tmp_path, doc)), "owner-did-unresolvable")
    assert (finding.severity, finding.section, finding.path) == (
        "error",
        "PAM §17.2",
        "$.owner.did",
    )
    doc["owner"]["did"] = SPEC_ED25519_DID
    assert not validate_path(write(tmp_path, doc)).findings


def test_pam_17_2_validate_reports_a_signature_of_another_key_than_the_owner(
    tmp_path: Path,
) -> None:
    owner, intruder = SigningKey.new("Ed25519"), SigningKey.new("ES256")
    doc = sign_document(_owned(None), intruder)
    doc["owner"]["did"] = owner.did
    result = validate_path(write(tmp_path, doc))
    # failed verifications: warnings in validate (§21.4), refusals where the data is used
    warned = {f.code for f in result.warnings}
    assert {"signature-not-owner-key", "key-id-not-owner-key"} <= warned
    assert not result.errors
    assert {f.code for f in signature_failures(result.findings)} == {
        "signature-not-owner-key",
        "key-id-not-owner-key",
    }
    assert result.facts["memory_store"]["signature"] == (
        "invalid: the signature does not belong to the owner"
    )
