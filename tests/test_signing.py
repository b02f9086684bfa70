"""PAM §18 signatures: the payload (§18.3), the six algorithms (§18.2), Base64url, what the
signature covers and what it does not, verification (§18.4) and its rules (§18.5)."""

from __future__ import annotations

import base64
import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from memvault.canonical import integrity_checksum, strip_nulls
from memvault.crypto import keys
from memvault.crypto.keys import ALGORITHMS, InvalidKey, SigningKey
from memvault.crypto.signing import (
    SigningError,
    sign_buffer,
    sign_document,
    signature_payload,
    signer,
    verify_buffer,
    verify_document,
    verify_signature,
)
from memvault.formats.pam.validate import validate_path
from pamdocs import lone_store, official, reseal, write

Doc = dict[str, Any]


@pytest.fixture(scope="session")
def signing_keys() -> dict[str, SigningKey]:
    """One key per algorithm, made once (RSA 4096 for RS512 is the slow one)."""
    return {algorithm: SigningKey.new(algorithm) for algorithm in ALGORITHMS}


def unsigned() -> Doc:
    """The sample store: export_id, export_date, owner.id and integrity set; no owner DID."""
    return lone_store()


def signed_with(key: SigningKey, doc: Doc | None = None, **kwargs: Any) -> Doc:
    return sign_document(unsigned() if doc is None else doc, key, **kwargs)


def raw_value(doc: Doc) -> bytes:
    return base64.urlsafe_b64decode(doc["signature"]["value"])


# ---------------------------------------------------------------------------------------------
# §18.3 the payload
# ---------------------------------------------------------------------------------------------


def test_pam_18_3_payload_is_rfc8785_of_checksum_export_id_export_date_owner_id() -> None:
    doc = unsigned()
    payload = signature_payload(doc)
    expected = {
        "checksum": doc["integrity"]["checksum"],
        "export_id": doc["export_id"],
        "export_date": doc["export_date"],
        "owner_id": doc["owner"]["id"],
    }
    assert payload == rfc8785.dumps(expected)
    assert payload == (
        b'{"checksum":"' + doc["integrity"]["checksum"].encode() + b'","export_date":"'
        b"2025-11-03T08:00:00Z" + b'","export_id":"5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9",'
        b'"owner_id":"3f0b8a52-6c1e-4d0a-9a57-2f5d1c8e7b41"}'
    )


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d.pop("integrity"), "integrity.checksum"),
        (lambda d: d["integrity"].pop("checksum"), "integrity.checksum"),
        (lambda d: d.update(export_id=None), "export_id"),
        (lambda d: d.pop("export_date"), "export_date"),
        (lambda d: d["owner"].pop("id"), "owner.id"),
    ],
)
def test_pam_18_3_signing_refuses_without_a_payload_member(
    signing_keys: dict[str, SigningKey], edit: Callable[[Doc], Any], named: str
) -> None:
    doc = unsigned()
    edit(doc)
    with pytest.raises(SigningError) as caught:
        sign_document(doc, signing_keys["Ed25519"], check_checksum=False)
    assert str(caught.value).startswith(named) and "PAM §18.3" in str(caught.value)


def test_pam_18_3_step_1_signing_refuses_a_checksum_that_does_not_match(
    signing_keys: dict[str, SigningKey],
) -> None:
    doc = unsigned()
    doc["memories"][0]["content"] += " (edited)"
    with pytest.raises(SigningError, match=r"integrity.checksum does not match the memories"):
        sign_document(doc, signing_keys["Ed25519"])


def test_pam_18_1_signing_changes_nothing_but_the_signature(
    signing_keys: dict[str, SigningKey],
) -> None:
    doc = unsigned()
    signed = sign_document(doc, signing_keys["ES256"])
    assert doc == unsigned()  # the input is not modified
    assert list(signed) == list(doc)  # member order kept; `signature` replaced in place
    assert {k: v for k, v in signed.items() if k != "signature"} == {
        k: v for k, v in doc.items() if k != "signature"
    }
    block = signed["signature"]
    assert set(block) == {"algorithm", "public_key", "value", "signed_at", "key_id"}


# ---------------------------------------------------------------------------------------------
# §18.2 algorithms
# ---------------------------------------------------------------------------------------------

SIGNATURE_BYTES = {"Ed25519": 64, "ES256": 64, "ES384": 96, "RS256": 256, "RS384": 384}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pam_18_2_every_algorithm_signs_and_verifies(
    signing_keys: dict[str, SigningKey], algorithm: str
) -> None:
    signed = signed_with(signing_keys[algorithm])
    block = signed["signature"]
    assert block["algorithm"] == algorithm
    assert len(raw_value(signed)) == SIGNATURE_BYTES.get(algorithm, 512)
    result = verify_document(signed)
    assert result.ok and result.reason == "verified", result.problems
    assert result.algorithm == algorithm and not result.problems
    assert result.key_id == signing_keys[algorithm].key_id


@pytest.mark.parametrize("algorithm", ["ES256", "ES384"])
def test_pam_18_2_ecdsa_value_is_jws_r_s_not_der(
    signing_keys: dict[str, SigningKey], algorithm: str
) -> None:
    """RFC 7518 §3.4: r and s as fixed-width big-endian integers; a DER value is refused."""
    key = signing_keys[algorithm]
    signed = signed_with(key)
    width = {"ES256": 32, "ES384": 48}[algorithm]
    value = raw_value(signed)
    assert len(value) == 2 * width
    public = key.private_key.public_key()
    assert isinstance(public, ec.EllipticCurvePublicKey)
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    digest = hashes.SHA256() if algorithm == "ES256" else hashes.SHA384()
    der = encode_dss_signature(
        int.from_bytes(value[:width], "big"), int.from_bytes(value[width:], "big")
    )
    public.verify(der, signature_payload(signed), ec.ECDSA(digest))  # the library agrees
    signed["signature"]["value"] = base64.urlsafe_b64encode(der).decode()
    result = verify_document(signed)
    assert result.reason == "does not verify"
    assert "r || s" in result.errors[0].message


@pytest.mark.parametrize("algorithm", ["RS256", "RS384", "RS512"])
def test_pam_18_2_rsa_is_pkcs1_v1_5(signing_keys: dict[str, SigningKey], algorithm: str) -> None:
    from cryptography.hazmat.primitives.asymmetric import padding

    key = signing_keys[algorithm]
    signed = signed_with(key)
    digest = {"RS256": hashes.SHA256(), "RS384": hashes.SHA384(), "RS512": hashes.SHA512()}
    public = key.private_key.public_key()
    assert isinstance(public, rsa.RSAPublicKey)
    public.verify(
        raw_value(signed), signature_payload(signed), padding.PKCS1v15(), digest[algorithm]
    )


@pytest.mark.parametrize(("algorithm", "bits"), [("RS256", 2048), ("RS384", 3072)])
def test_pam_18_2_rsa_sizes_are_the_minimum(
    signing_keys: dict[str, SigningKey], algorithm: str, bits: int
) -> None:
    key = signing_keys[algorithm].private_key
    assert isinstance(key, rsa.RSAPrivateKey) and key.key_size == bits


def test_pam_18_2_rsa_4096_for_rs512(signing_keys: dict[str, SigningKey]) -> None:
    key = signing_keys["RS512"].private_key
    assert isinstance(key, rsa.RSAPrivateKey) and key.key_size == 4096


@pytest.mark.parametrize(("algorithm", "bits"), [("RS256", 1024), ("RS384", 2048)])
def test_pam_18_2_too_small_rsa_keys_are_refused(
    signing_keys: dict[str, SigningKey], algorithm: str, bits: int
) -> None:
    with pytest.raises(InvalidKey, match=r"PAM §18\.2"):
        keys.generate(algorithm, rsa_bits=bits)
    small = signing_keys["RS256"].private_key  # 2048 bits
    if algorithm == "RS384":
        with pytest.raises(InvalidKey, match="at least 3072"):
            sign_document(unsigned(), small, algorithm="RS384")


def test_pam_18_2_verifier_refuses_an_rsa_key_below_the_algorithm_size(
    signing_keys: dict[str, SigningKey],
) -> None:
    signed = signed_with(signing_keys["RS256"])
    signed["signature"]["algorithm"] = "RS512"  # a 2048-bit key claiming RS512
    result = verify_document(signed)
    assert not result.ok and result.reason == "the public key does not fit the algorithm"
    assert "needs at least 4096" in result.errors[0].message


def test_pam_18_2_algorithm_must_fit_the_key(signing_keys: dict[str, SigningKey]) -> None:
    with pytest.raises(InvalidKey, match="cannot be used with ES384"):
        sign_document(unsigned(), signing_keys["ES256"], algorithm="ES384")
    signed = signed_with(signing_keys["Ed25519"])
    signed["signature"]["algorithm"] = "ES256"
    assert verify_document(signed).reason == "the public key does not fit the algorithm"


def test_pam_18_2_unsupported_algorithm(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["signature"]["algorithm"] = "HS256"
    result = verify_document(signed)
    assert result.reason == "unsupported algorithm"
    assert result.errors[0].path == "$.signature.algorithm"
    with pytest.raises(InvalidKey, match="unsupported algorithm"):
        keys.generate("EdDSA")


# ---------------------------------------------------------------------------------------------
# §18.3 what the signature covers
# ---------------------------------------------------------------------------------------------


def _edit_memory(doc: Doc) -> None:
    doc["memories"][3]["content"] = "User moved to Porto"
    reseal(doc, hashes=True)


def _remove_memory(doc: Doc) -> None:
    doc["memories"].pop()
    reseal(doc)


COVERED: dict[str, Callable[[Doc], Any]] = {
    "memory": _edit_memory,
    "memory-removed": _remove_memory,
    "export_id": lambda d: d.update(export_id="0b7c4f3e-1111-4a2b-8c3d-9e8f7a6b5c4d"),
    "export_date": lambda d: d.update(export_date="2025-11-03T08:00:01Z"),
    "owner.id": lambda d: d["owner"].update(id="7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b"),
}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("change", sorted(COVERED))
def test_pam_18_3_changing_a_covered_member_breaks_verification(
    signing_keys: dict[str, SigningKey], algorithm: str, change: str
) -> None:
    signed = signed_with(signing_keys[algorithm], signed_at="2025-11-03T08:00:01Z")
    assert verify_document(signed).ok
    tampered = copy.deepcopy(signed)
    COVERED[change](tampered)
    result = verify_document(tampered)
    assert not result.ok
    assert result.reason == "does not verify", result.problems
    assert any(p.code == "signature-invalid" and p.section == "PAM §18.4" for p in result.errors)


def test_pam_18_4_memories_changed_without_resealing(signing_keys: dict[str, SigningKey]) -> None:
    """The signature is still valid over the old checksum, which the memories no longer
    produce (§18.4 step 2)."""
    signed = signed_with(signing_keys["Ed25519"])
    signed["memories"][0]["tags"] = [*signed["memories"][0].get("tags", []), "edited"]
    result = verify_document(signed)
    assert result.signature_valid and not result.ok
    assert result.reason == "checksum does not match the memories"
    assert result.errors[0].path == "$.integrity.checksum"


NOT_COVERED: dict[str, Callable[[Doc], Any]] = {
    "relations": lambda d: d["relations"].pop(),
    "conversations_index": lambda d: d.update(conversations_index=[]),
    "owner.created_at": lambda d: d["owner"].update(created_at="2020-01-01T00:00:00Z"),
    "exported_by": lambda d: d.update(exported_by="someone-else/9.9.9"),
    "type_registry": lambda d: d.update(type_registry=None),
}


@pytest.mark.parametrize("change", sorted(NOT_COVERED))
def test_pam_18_3_note_relations_and_other_members_are_not_covered(
    signing_keys: dict[str, SigningKey], change: str
) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    NOT_COVERED[change](signed)
    assert verify_document(signed).ok


def test_pam_18_4_a_wrong_key_fails(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    other = SigningKey.new("Ed25519")
    signed["signature"]["public_key"] = other.encoded_public_key
    result = verify_document(signed)
    assert result.reason == "does not verify" and not result.signature_valid


def test_pam_18_4_expected_key(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["ES384"])
    assert verify_document(signed, expected_key=signing_keys["ES384"].public_key).ok
    result = verify_document(signed, expected_key=signing_keys["ES256"].public_key)
    assert result.reason == "signed by a different key than expected"


def test_pam_18_4_value_of_another_document_does_not_verify(
    signing_keys: dict[str, SigningKey],
) -> None:
    """Replay (§18.3): a signature copied onto another export does not verify."""
    key = signing_keys["Ed25519"]
    first = signed_with(key)
    second = unsigned()
    second["export_id"] = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
    second["signature"] = first["signature"]
    assert verify_document(second).reason == "does not verify"


# ---------------------------------------------------------------------------------------------
# §18.5 signed_at
# ---------------------------------------------------------------------------------------------


def test_pam_18_5_signed_at_before_export_date_is_refused_when_signing(
    signing_keys: dict[str, SigningKey],
) -> None:
    with pytest.raises(SigningError, match=r"before export_date .*PAM §18.5"):
        signed_with(signing_keys["Ed25519"], signed_at="2025-11-03T07:59:59Z")


def test_pam_18_5_signed_at_before_export_date_is_an_error_when_verifying(
    signing_keys: dict[str, SigningKey],
) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["signature"]["signed_at"] = "2025-11-03T07:59:59Z"  # not in the payload
    result = verify_document(signed)
    assert result.signature_valid and not result.ok
    assert [(p.code, p.section) for p in result.errors] == [("signed-before-export", "PAM §18.5")]


def test_pam_18_5_signed_at_equal_to_export_date(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["Ed25519"], signed_at="2025-11-03T08:00:00Z")
    assert signed["signature"]["signed_at"] == signed["export_date"]
    assert verify_document(signed).ok


def test_pam_18_5_default_signed_at_is_now_and_not_before_export(
    signing_keys: dict[str, SigningKey],
) -> None:
    doc = unsigned()
    signed = sign_document(doc, signing_keys["Ed25519"])
    assert signed["signature"]["signed_at"] >= doc["export_date"]
    assert signed["signature"]["signed_at"].endswith("Z")
    doc["export_date"] = "2999-01-01T00:00:00Z"
    with pytest.raises(SigningError, match="in the future"):
        sign_document(doc, signing_keys["Ed25519"], check_checksum=False)


# ---------------------------------------------------------------------------------------------
# Base64url (RFC 4648 §5)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pam_18_3_step_5_value_is_padded_base64url(
    signing_keys: dict[str, SigningKey], algorithm: str
) -> None:
    """URL-safe alphabet; '=' padding as RFC 4648 §3.2 requires (PAM does not waive it) and
    as Appendix D writes it."""
    value = signed_with(signing_keys[algorithm])["signature"]["value"]
    assert "+" not in value and "/" not in value
    assert len(value) % 4 == 0
    assert base64.urlsafe_b64encode(base64.urlsafe_b64decode(value)).decode() == value


def test_pam_18_3_unpadded_value_is_accepted(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    assert signed["signature"]["value"].endswith("==")
    signed["signature"]["value"] = signed["signature"]["value"].rstrip("=")
    assert verify_document(signed).ok


@pytest.mark.parametrize("bad", ["+/" * 43, "abc def", "ab==c", "a===", "Zm9v\n"])
def test_pam_18_3_value_not_base64url(signing_keys: dict[str, SigningKey], bad: str) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["signature"]["value"] = bad
    result = verify_document(signed)
    assert [p.code for p in result.errors] == ["signature-not-base64url"]


def test_b64url_round_trip_and_strictness() -> None:
    for n in range(0, 70):
        data = bytes(range(n))
        assert keys.b64url_decode(keys.b64url_encode(data)) == data
        assert keys.b64url_decode(keys.b64url_encode(data, pad=True)) == data
    for bad in ("a", "abcde", "ab+c", "ab/c", "a===", "é"):
        with pytest.raises(InvalidKey):
            keys.b64url_decode(bad)


# ---------------------------------------------------------------------------------------------
# Public key encodings (§18.1 "public key of the signer")
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pam_18_1_public_key_encodings(signing_keys: dict[str, SigningKey], algorithm: str) -> None:
    key = signing_keys[algorithm]
    encoded = key.encoded_public_key
    if algorithm == "Ed25519":
        assert encoded.startswith("z6Mk")
    else:
        jwk = json.loads(encoded)
        assert jwk == keys.jwk(key.private_key)
        assert encoded == rfc8785.dumps(jwk).decode()  # canonical, required members only
        assert jwk["kty"] == ("RSA" if algorithm.startswith("RS") else "EC")
    assert keys.same_public_key(keys.decode_public_key(encoded), key.public_key)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pam_18_1_pem_public_key_accepted_on_input(
    signing_keys: dict[str, SigningKey], algorithm: str
) -> None:
    signed = signed_with(signing_keys[algorithm])
    signed["signature"]["public_key"] = keys.public_key_pem(signing_keys[algorithm].public_key)
    assert verify_document(signed).ok


@pytest.mark.parametrize(
    "public_key",
    [
        "",
        "z6MkNotBase58!",
        "zQ3s" + "1" * 40,
        "{not json",
        '{"kty":"EC","crv":"P-521","x":"AA","y":"AA"}',
        '{"kty":"OKP","crv":"Ed25519","x":"AAAA","d":"AAAA"}',
        "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
        "ssh-ed25519 AAAA",
        "z" * 20000,
        42,
    ],
)
def test_pam_18_1_malformed_public_key(
    signing_keys: dict[str, SigningKey], public_key: object
) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["signature"]["public_key"] = public_key
    result = verify_document(signed)
    assert result.reason == "malformed public key"
    assert result.errors[0].path == "$.signature.public_key"


# ---------------------------------------------------------------------------------------------
# Appendix D and the official example
# ---------------------------------------------------------------------------------------------


def _appendix_d_payload(export: Doc) -> bytes:
    payload = {
        "checksum": export["integrity"]["checksum"],
        "export_id": export["export_id"],
        "export_date": export["export_date"],
        "owner_id": export["owner"]["id"],
    }
    return rfc8785.dumps(payload)


def test_appendix_d_reference_verifies_our_signature(signing_keys: dict[str, SigningKey]) -> None:
    """Appendix D's verify_export, verbatim in substance: raw 32-byte key, urlsafe_b64decode
    (which needs the padding we write)."""
    signed = signed_with(signing_keys["Ed25519"])
    public = signing_keys["Ed25519"].public_key
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    reference_key = ed25519.Ed25519PublicKey.from_public_bytes(raw)
    signature_bytes = base64.urlsafe_b64decode(signed["signature"]["value"])
    reference_key.verify(signature_bytes, _appendix_d_payload(signed))  # raises if invalid


def test_appendix_d_reference_signature_verifies_here(
    signing_keys: dict[str, SigningKey],
) -> None:
    private = signing_keys["Ed25519"].private_key
    assert isinstance(private, ed25519.Ed25519PrivateKey)
    doc = unsigned()
    value = base64.urlsafe_b64encode(private.sign(_appendix_d_payload(doc))).decode("ascii")
    doc["signature"] = {
        "algorithm": "Ed25519",
        "public_key": signing_keys["Ed25519"].encoded_public_key,
        "value": value,
        "signed_at": doc["export_date"],
        "key_id": None,
    }
    assert verify_document(doc).ok


def test_pam_18_4_official_example_placeholder_does_not_verify() -> None:
    result = verify_document(official("example-memory-store.json"))
    assert result.signed and not result.ok and not result.signature_valid
    assert result.reason == "does not verify"
    assert "does not verify" in result.errors[0].message
    assert result.memories_checked  # every other part of it is in order
    assert result.owner_did == "did:key matches"
    assert result.status == "invalid: does not verify"


def test_pam_18_5_unsigned_documents_have_no_problems() -> None:
    for doc in (unsigned(), {**unsigned(), "signature": None}):
        result = verify_document(doc)
        assert not result.signed and not result.ok and not result.problems
        assert result.status == "absent"


def test_verify_signature_never_raises_on_hostile_blocks() -> None:
    header = {k: v for k, v in unsigned().items() if k != "memories"}
    for block in (
        [],
        "sig",
        {},
        {"algorithm": None, "public_key": None, "value": None, "signed_at": None},
        {"algorithm": "Ed25519", "public_key": "z6Mk", "value": "", "signed_at": "x"},
        {"algorithm": "RS256", "public_key": '{"kty":"RSA","n":"AQAB","e":"AQAB"}', "value": "AA"},
    ):
        result = verify_signature({**header, "signature": block}, checksum_verified=True)
        assert not result.ok and result.errors


# ---------------------------------------------------------------------------------------------
# Files: streaming verification, byte-preserving signing; the exporter's signer
# ---------------------------------------------------------------------------------------------


def test_sign_buffer_changes_only_the_signature_member(
    signing_keys: dict[str, SigningKey],
) -> None:
    text = json.dumps(unsigned(), indent=4, ensure_ascii=False).encode()
    out = io.BytesIO()
    block = sign_buffer(text, signing_keys["ES256"], out)
    signed = out.getvalue()
    # `"signature": null` became the block; every other byte is where it was
    head, _, tail = text.partition(b'"signature": null')
    assert signed.startswith(head) and signed.endswith(tail)
    assert json.loads(signed)["signature"] == block
    assert verify_buffer(signed).ok
    assert verify_document(json.loads(signed)).ok


def test_sign_buffer_adds_a_signature_member_when_there_is_none(
    signing_keys: dict[str, SigningKey],
) -> None:
    doc = unsigned()
    del doc["signature"]
    text = json.dumps(doc, separators=(",", ":")).encode()
    out = io.BytesIO()
    sign_buffer(text, signing_keys["Ed25519"], out)
    assert out.getvalue().startswith(text[:-1])
    assert verify_buffer(out.getvalue()).ok
    again = io.BytesIO()  # re-signing replaces the signature
    sign_buffer(out.getvalue(), signing_keys["RS256"], again)
    assert json.loads(again.getvalue())["signature"]["algorithm"] == "RS256"
    assert verify_buffer(again.getvalue()).ok


def test_sign_buffer_refuses_a_tampered_file(signing_keys: dict[str, SigningKey]) -> None:
    doc = unsigned()
    doc["memories"][0]["confidence"]["current"] = 0.01
    with pytest.raises(SigningError, match="does not match the memories"):
        sign_buffer(json.dumps(doc).encode(), signing_keys["Ed25519"], io.BytesIO())


def test_verify_buffer_detects_tampering(signing_keys: dict[str, SigningKey]) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["memories"][2]["content"] += "!"
    result = verify_buffer(json.dumps(signed).encode())
    assert result.reason == "checksum does not match the memories"


def test_verify_buffer_accepts_sdk_null_stripped_checksum(
    signing_keys: dict[str, SigningKey],
) -> None:
    """As `validate` does (docs/decisions.md): the portable-ai-memory SDK checksums the
    memories with null members removed; such a file verifies, with a warning."""
    doc = unsigned()
    doc["integrity"]["checksum"] = integrity_checksum(strip_nulls(doc["memories"]))
    signed = sign_document(doc, signing_keys["Ed25519"], check_checksum=False)
    for result in (verify_buffer(json.dumps(signed).encode()), verify_document(signed)):
        assert result.ok
        assert [p.code for p in result.warnings] == ["checksum-null-stripped"]


def test_signer_for_a_streaming_writer(signing_keys: dict[str, SigningKey]) -> None:
    doc = unsigned()
    sign = signer(signing_keys["ES384"])
    block = sign(
        {
            "checksum": doc["integrity"]["checksum"],
            "export_id": doc["export_id"],
            "export_date": doc["export_date"],
            "owner_id": doc["owner"]["id"],
        }
    )
    doc["signature"] = block
    assert verify_document(doc).ok


def test_signing_key_vault_record_round_trip(signing_keys: dict[str, SigningKey]) -> None:
    for key in signing_keys.values():
        record = key.to_record()
        assert record.private_key is not None
        assert serialization.load_der_private_key(record.private_key, None)  # PKCS#8
        again = SigningKey.from_record(record)
        assert again.key_id == key.key_id and again.algorithm == key.algorithm
        assert keys.same_public_key(again.private_key, key.private_key)
        assert again.did == key.did


def test_signing_key_record_with_a_mismatched_public_key_is_refused(
    signing_keys: dict[str, SigningKey],
) -> None:
    import dataclasses

    record = signing_keys["Ed25519"].to_record()
    forged = dataclasses.replace(
        record, public_key=keys.public_key_der(signing_keys["ES256"].public_key)
    )
    with pytest.raises(InvalidKey, match="does not match"):
        SigningKey.from_record(forged)
    with pytest.raises(InvalidKey, match="no private key"):
        SigningKey.from_record(dataclasses.replace(record, private_key=None))


# ---------------------------------------------------------------------------------------------
# validate verifies (§18.4)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["Ed25519", "ES256", "RS256"])
def test_pam_18_4_validate_verifies_a_signed_document(
    signing_keys: dict[str, SigningKey], algorithm: str, tmp_path: Path
) -> None:
    signed = signed_with(signing_keys[algorithm])
    result = validate_path(write(tmp_path, signed))
    assert result.valid and not result.findings, result.findings
    assert result.facts["memory_store"]["signature"] == "verified"
    signed["owner"]["id"] = "6c8b1f7e-2a3d-4e5f-8a9b-0c1d2e3f4a5b"
    result = validate_path(write(tmp_path, signed))
    # §21.4: a failed verification is "a warning to the user, not a silent failure"
    assert [(f.severity, f.code) for f in result.findings] == [("warning", "signature-invalid")]
    assert "does not verify" in result.findings[0].message and result.exit_code == 0
    assert result.facts["memory_store"]["signature"] != "verified"


def test_pam_18_4_validate_reports_memories_changed_after_signing(
    signing_keys: dict[str, SigningKey], tmp_path: Path
) -> None:
    signed = signed_with(signing_keys["Ed25519"])
    signed["memories"][0]["tags"] = ["changed"]
    result = validate_path(write(tmp_path, signed))
    assert [f.code for f in result.errors] == ["checksum-mismatch"]
    assert [f.code for f in result.warnings] == ["signature-invalid"]


def test_pam_18_1_rsa_public_keys_that_would_be_slow_to_verify_are_refused(
    signing_keys: dict[str, SigningKey],
) -> None:
    key = signing_keys["RS256"].public_key
    assert isinstance(key, rsa.RSAPublicKey)
    n = key.public_numbers().n
    huge_e = {"e": keys.b64url_encode(((1 << 100) + 1).to_bytes(13, "big")), "kty": "RSA"}
    huge_e["n"] = keys.b64url_encode(n.to_bytes(256, "big"))
    with pytest.raises(InvalidKey, match="exponent"):
        keys.decode_public_key(json.dumps(huge_e))
    huge_n = {"e": "AQAB", "kty": "RSA", "n": keys.b64url_encode(b"\xff" * 2049)}
    with pytest.raises(InvalidKey, match="more than 16384 bits"):
        keys.decode_public_key(json.dumps(huge_n))


def test_pam_21_4_import_warnings_are_loud_and_unsigned_is_silent(
    signing_keys: dict[str, SigningKey],
) -> None:
    from memvault.crypto.signing import import_warnings

    assert import_warnings(unsigned()) == []  # §18.5: unsigned is not rejected, nor nagged
    signed = signed_with(signing_keys["Ed25519"])
    assert import_warnings(signed) == []
    signed["export_id"] = "0b7c4f3e-1111-4a2b-8c3d-9e8f7a6b5c4d"
    (line,) = import_warnings(signed)
    assert line.startswith("SIGNATURE NOT VERIFIED (does not verify)") and "PAM §18.4" in line
