"""PAM §18 signatures: the payload, signing, and verification with the §17 DID checks.

The payload (§18.3) is RFC 8785 of ``{"checksum", "export_id", "export_date", "owner_id"}``;
the signature over its UTF-8 bytes is Base64url (RFC 4648 §5). It is written *with* ``=``
padding — RFC 4648 §3.2 requires padding unless the referring specification says otherwise,
PAM does not, and the Appendix D reference (`base64.urlsafe_b64encode`, whose decoder refuses
unpadded input) pads — and read with or without. Per algorithm (§18.2), with JWS (RFC 7518 §3)
semantics:

- ``Ed25519``: EdDSA (RFC 8032), 64 bytes.
- ``ES256`` / ``ES384``: ECDSA P-256 + SHA-256 / P-384 + SHA-384, written as the fixed-width
  ``r || s`` of JWS (64 / 96 bytes), not DER.
- ``RS256`` / ``RS384`` / ``RS512``: RSASSA-PKCS1-v1_5 with SHA-256/384/512 (JWS RS*, not PSS),
  keys of at least 2048/3072/4096 bits.

`verify_document` (a whole document in memory), `verify_signature` (the top-level members
when the caller checked the memories against ``integrity.checksum`` itself — the validator
and a streaming importer) and `verify_buffer` (the bytes of a memory-store file) return a
`VerifyResult`; `sign_document` and `sign_buffer` sign. See docs/signing.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from operator import itemgetter
from typing import IO, Any, Final, Literal

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

from memvault import canonical
from memvault.crypto import did as didkey
from memvault.crypto.keys import (
    ALGORITHMS,
    InvalidKey,
    PrivateKey,
    PublicKey,
    SigningKey,
    b64url_decode,
    b64url_encode,
    check_key,
    decode_public_key,
    describe,
    same_public_key,
)
from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.model import parse_timestamp

__all__ = [
    "SIGNATURE_CODES",
    "VERIFICATION_FAILURES",
    "Problem",
    "SigningError",
    "VerifyResult",
    "check_owner_did",
    "document_checksum",
    "import_warnings",
    "sign_buffer",
    "sign_document",
    "signature_failures",
    "signature_payload",
    "signer",
    "verify_buffer",
    "verify_document",
    "verify_signature",
]

Severity = Literal["error", "warning"]

_HASHES: Final[dict[str, type[hashes.HashAlgorithm]]] = {
    "ES256": hashes.SHA256,
    "ES384": hashes.SHA384,
    "RS256": hashes.SHA256,
    "RS384": hashes.SHA384,
    "RS512": hashes.SHA512,
}
#: JWS r||s width in bytes of each coordinate (RFC 7518 §3.4).
_EC_WIDTH: Final = {"ES256": 32, "ES384": 48}
_ED25519_SIGNATURE: Final = 64
#: RFC 4648 §5 alphabet with optional padding (the length is checked when decoding).
_BASE64URL: Final = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_PAYLOAD_FIELDS: Final = (
    ("checksum", "integrity.checksum", "$.integrity.checksum"),
    ("export_id", "export_id", "$.export_id"),
    ("export_date", "export_date", "$.export_date"),
    ("owner_id", "owner.id", "$.owner.id"),
)


#: Every finding code verification can report (for a front end that treats a failed
#: verification differently, e.g. an import that warns loudly instead of refusing, §21.4).
SIGNATURE_CODES: Final = frozenset(
    {
        "signature-invalid",
        "signature-not-base64url",
        "signature-without-integrity",
        "signature-payload-incomplete",
        "signed-before-export",
        "signature-not-owner-key",
        "key-id-not-owner-key",
        "key-id-not-owner-did-url",
        "key-id-not-signing-key",
        "owner-did-unresolvable",
        "owner-did-not-resolved",
    }
)


#: The findings that say a signature was checked and does not verify (§18.4): the value is
#: wrong or undecodable, or the key is not the owner's did:key. `validate` reports them as
#: warnings, as §21.4 asks ("a warning to the user, not a silent failure"); `verify` exits 1
#: on them and `import` refuses the file unless told otherwise (docs/decisions.md). What a
#: MUST of §18 forbids outright (signed_at before export_date, a payload field missing, no
#: integrity block to sign) stays an error everywhere.
VERIFICATION_FAILURES: Final = frozenset(
    {
        "signature-invalid",
        "signature-not-base64url",
        "signature-not-owner-key",
        "key-id-not-owner-key",
        "key-id-not-signing-key",
    }
)


def signature_failures(findings: Iterable[Any]) -> list[Any]:
    """The findings of a validation that say its signature does not verify or breaks §18:
    what `import`, `merge` and conversions refuse although `validate` may only warn."""
    return [
        f
        for f in findings
        if f.code in SIGNATURE_CODES and (f.severity == "error" or f.code in VERIFICATION_FAILURES)
    ]


class SigningError(VaultError, ValueError):
    """A document that cannot be signed as asked; the message names the field and section."""

    http_status = HTTP_UNPROCESSABLE


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing verification found, shaped like a validation finding."""

    severity: Severity
    code: str
    message: str
    path: str = "$.signature"
    section: str = "PAM §18.4"


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """The verdict on a document's signature.

    `ok`: signed, the signature verifies over the §18.3 payload, the memories match the signed
    checksum, and nothing else is wrong (signed_at order, the owner's did:key). `reason` is
    "verified" or what failed first ("does not verify", "checksum does not match the memories",
    "unsupported algorithm", "malformed public key", …). `problems` holds every error and
    warning; an unsigned document has none (§18.5: it is not rejected) and `signed` False.
    """

    ok: bool
    reason: str
    signed: bool = True
    problems: tuple[Problem, ...] = ()
    algorithm: str | None = None
    key_id: str | None = None
    public_key: PublicKey | None = None
    #: the signature is cryptographically valid over the payload the document carries
    signature_valid: bool = False
    #: True: the memories were checked against integrity.checksum and match
    memories_checked: bool = False
    #: what was checked of owner.did: "did:key matches", "no owner DID", "did:web not resolved"…
    owner_did: str = "no owner DID"

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def status(self) -> str:
        """A short phrase for summaries (`inspect`): "absent", "verified", "invalid: …"."""
        if not self.signed:
            return "absent"
        if self.ok:
            return "verified"
        if self.signature_valid and not self.errors and not self.memories_checked:
            return "signature valid, memories not checked"
        return f"invalid: {self.reason}"


# ---------------------------------------------------------------------------------------------
# Payload
# ---------------------------------------------------------------------------------------------


def _payload_values(doc: Mapping[str, Any]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The payload members present as strings, and (field, path) of those missing."""
    integrity = doc.get("integrity")
    owner = doc.get("owner")
    values = {
        "checksum": integrity.get("checksum") if isinstance(integrity, Mapping) else None,
        "export_id": doc.get("export_id"),
        "export_date": doc.get("export_date"),
        "owner_id": owner.get("id") if isinstance(owner, Mapping) else None,
    }
    present = {k: v for k, v in values.items() if isinstance(v, str)}
    missing = [(name, path) for key, name, path in _PAYLOAD_FIELDS if key not in present]
    return present, missing


def signature_payload(doc: Mapping[str, Any]) -> bytes:
    """The bytes a PAM signature covers (§18.3): RFC 8785 of ``{"checksum":
    integrity.checksum, "export_id", "export_date", "owner_id": owner.id}``.

    Raises SigningError naming the first member that is missing or not a string.
    """
    present, missing = _payload_values(doc)
    if missing:
        name = missing[0][0]
        raise SigningError(
            f"{name} is missing or not a string; the signature payload is built from "
            "integrity.checksum, export_id, export_date and owner.id, which must all be present "
            "and non-null when a document is signed (PAM §18.3)"
        )
    return canonical.jcs_dumps(present)


# ---------------------------------------------------------------------------------------------
# Signing
# ---------------------------------------------------------------------------------------------


def _sign_bytes(payload: bytes, key: PrivateKey, algorithm: str) -> bytes:
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return key.sign(payload)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        der = key.sign(payload, ec.ECDSA(_HASHES[algorithm]()))
        r, s = decode_dss_signature(der)
        width = _EC_WIDTH[algorithm]
        return r.to_bytes(width, "big") + s.to_bytes(width, "big")
    return key.sign(payload, padding.PKCS1v15(), _HASHES[algorithm]())


def _as_signing_key(key: SigningKey | PrivateKey, algorithm: str | None) -> SigningKey:
    if isinstance(key, SigningKey):
        if algorithm is not None and algorithm != key.algorithm:
            check_key(algorithm, key.private_key)
            return SigningKey(algorithm, key.private_key, key.key_id, key.did, key.created_at)
        check_key(key.algorithm, key.private_key)
        return key
    return SigningKey.from_private_key(key, algorithm)


def _timestamp(value: str | datetime, name: str) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    try:
        return parse_timestamp(value)
    except (ValueError, TypeError):
        raise SigningError(f"{name} {value!r} is not an ISO 8601 timestamp") from None


def _format(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _signed_at(signed_at: str | datetime | None, export_date: str) -> str:
    exported = _timestamp(export_date, "export_date")
    if signed_at is None:
        now = datetime.now(UTC)
        if now.microsecond:  # round up: whole seconds, never before the moment of signing
            now = now.replace(microsecond=0) + timedelta(seconds=1)
        if now < exported:
            raise SigningError(
                f"export_date {export_date} is in the future (now {_format(now)}); "
                "signature.signed_at MUST be equal to or after export_date (PAM §18.5)"
            )
        return _format(now)
    moment = _timestamp(signed_at, "signed_at")
    if moment < exported:
        raise SigningError(
            f"signed_at {signed_at} is before export_date {export_date}; it MUST be equal to "
            "or after it (PAM §18.5)"
        )
    return signed_at if isinstance(signed_at, str) else _format(moment)


def _check_owner_did(doc: Mapping[str, Any], key: SigningKey) -> None:
    owner = doc.get("owner")
    owner_did = owner.get("did") if isinstance(owner, Mapping) else None
    if not didkey.is_did_key(owner_did):
        return
    assert isinstance(owner_did, str)
    try:
        owner_key = didkey.resolve_did_key(owner_did)
    except didkey.DIDError as exc:
        raise SigningError(f"owner.did does not resolve (PAM §17.2): {exc}") from None
    if not same_public_key(owner_key, key.private_key):
        raise SigningError(
            f"owner.did is {owner_did}, a did:key of another key than {key.key_id}; a verifier "
            "would find that the signature does not belong to the owner (PAM §17.2). Sign with "
            "the owner's key, or change owner.did"
        )


def sign_document(
    doc: Mapping[str, Any],
    key: SigningKey | PrivateKey,
    *,
    algorithm: str | None = None,
    key_id: str | None = None,
    signed_at: str | datetime | None = None,
    check_checksum: bool = True,
) -> dict[str, Any]:
    """``sign_document(doc, key, *, algorithm=None, key_id=None, signed_at=None,
    check_checksum=True) -> dict``

    A copy of `doc` with a ``signature`` block (§18.1) over the §18.3 payload; nothing else
    is recomputed or changed (member order is kept; an existing signature is replaced).

    - `key`: a `SigningKey` (e.g. from the vault) or a `cryptography` private key; the
      algorithm is the key's (RSA: the strongest its size allows) unless `algorithm` says.
    - `key_id`: default the key's id — its did:key DID URL (Ed25519, P-256, P-384) or its JWK
      thumbprint URI (RSA).
    - `signed_at`: default now (UTC, whole seconds, rounded up); before ``export_date`` it is
      refused (§18.5).
    - `check_checksum`: recompute ``integrity.checksum`` from ``doc["memories"]`` and refuse to
      sign a document it does not match. A streaming exporter that has just computed the
      checksum passes False and may pass the top-level members without ``memories``.

    Raises SigningError (missing payload members, checksum mismatch, signed_at too early,
    the key is not the owner's did:key) or keys.InvalidKey (the key does not fit the
    algorithm, an RSA key below §18.2's size).
    """
    signing_key = _as_signing_key(key, algorithm)
    payload = signature_payload(doc)
    if check_checksum:
        memories = doc.get("memories")
        if not isinstance(memories, list):
            raise SigningError(
                "the document has no memories array to check integrity.checksum against "
                "(pass check_checksum=False to sign the top-level members alone)"
            )
        try:
            computed = canonical.integrity_checksum(memories)
        except (KeyError, TypeError, canonical.CanonicalizationError) as exc:
            raise SigningError(f"the memories cannot be checksummed (PAM §15.2): {exc}") from None
        declared = doc["integrity"]["checksum"]
        if computed != declared:
            raise SigningError(
                f"integrity.checksum does not match the memories (declared {declared}, computed "
                f"{computed}); recompute it before signing (PAM §15.2, §18.3 step 1)"
            )
    _check_owner_did(doc, signing_key)
    when = _signed_at(signed_at, doc["export_date"])
    value = _sign_bytes(payload, signing_key.private_key, signing_key.algorithm)
    block = {
        "algorithm": signing_key.algorithm,
        "public_key": signing_key.encoded_public_key,
        "value": b64url_encode(value, pad=True),
        "signed_at": when,
        "key_id": signing_key.key_id if key_id is None else key_id,
    }
    signed = dict(doc)
    signed["signature"] = block
    return signed


def signer(
    key: SigningKey | PrivateKey,
    *,
    owner_did: str | None = None,
    key_id: str | None = None,
    signed_at: str | datetime | None = None,
) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A signing function for a streaming writer: called with the §18.3 payload fields
    (``checksum``, ``export_id``, ``export_date``, ``owner_id``) once the checksum is known, it
    returns the ``signature`` block. `owner_did` is the document's ``owner.did``: a did:key of
    another key is refused (SigningError), as `sign_document` does."""

    def sign(fields: Mapping[str, Any]) -> dict[str, Any]:
        owner: dict[str, Any] = {"id": fields.get("owner_id")}
        if owner_did is not None:
            owner["did"] = owner_did
        header = {
            "integrity": {"checksum": fields.get("checksum")},
            "export_id": fields.get("export_id"),
            "export_date": fields.get("export_date"),
            "owner": owner,
        }
        signed = sign_document(
            header, key, key_id=key_id, signed_at=signed_at, check_checksum=False
        )
        block: dict[str, Any] = signed["signature"]
        return block

    return sign


# ---------------------------------------------------------------------------------------------
# Verification
# ---------------------------------------------------------------------------------------------


def _verify_bytes(payload: bytes, value: bytes, public: PublicKey, algorithm: str) -> str | None:
    """None if `value` is a valid signature of `payload`, else why not (after "does not
    verify")."""
    try:
        if isinstance(public, ed25519.Ed25519PublicKey):
            if len(value) != _ED25519_SIGNATURE:
                return f"an Ed25519 signature is 64 bytes, this one is {len(value)}"
            public.verify(value, payload)
        elif isinstance(public, ec.EllipticCurvePublicKey):
            width = _EC_WIDTH[algorithm]
            if len(value) != 2 * width:
                return (
                    f"an {algorithm} signature is {2 * width} bytes (r || s, RFC 7518 §3.4), this "
                    f"one is {len(value)}"
                )
            r = int.from_bytes(value[:width], "big")
            s = int.from_bytes(value[width:], "big")
            public.verify(encode_dss_signature(r, s), payload, ec.ECDSA(_HASHES[algorithm]()))
        else:
            assert isinstance(public, rsa.RSAPublicKey)
            public.verify(value, payload, padding.PKCS1v15(), _HASHES[algorithm]())
    except InvalidSignature:
        return "the signature is not valid for this payload and public key"
    except ValueError as exc:  # pragma: no cover - defensive: malformed values
        return str(exc)
    return None


class _Collector:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.reason: str | None = None

    def error(self, reason: str, code: str, message: str, path: str, section: str) -> None:
        if self.reason is None:
            self.reason = reason
        self.problems.append(Problem("error", code, message, path, section))

    def warning(self, code: str, message: str, path: str, section: str) -> None:
        self.problems.append(Problem("warning", code, message, path, section))


def verify_signature(
    header: Mapping[str, Any],
    *,
    checksum_verified: bool | None,
    expected_key: PublicKey | PrivateKey | None = None,
) -> VerifyResult:
    """``verify_signature(header, *, checksum_verified, expected_key=None) -> VerifyResult``

    Verify the ``signature`` of a memory-store whose memories the caller has already checked
    against ``integrity.checksum`` (§18.4 steps 1-2): `checksum_verified` True (they match),
    False (they do not: the signature is then invalid) or None (could not be checked).
    `header` needs the top-level members only. With `expected_key`, a signature by any other
    key fails ("signed by a different key than expected").
    """
    signature = header.get("signature")
    if signature is None:
        return VerifyResult(False, "the document is not signed", signed=False)
    out = _Collector()
    if not isinstance(signature, Mapping):
        out.error(
            "malformed signature block",
            "signature-invalid",
            "signature is not an object (PAM §18.1)",
            "$.signature",
            "PAM §18.1",
        )
        return _result(out, signature_valid=False, memories_checked=False)
    algorithm = signature.get("algorithm")
    key_id = signature.get("key_id") if isinstance(signature.get("key_id"), str) else None
    public: PublicKey | None = None
    value: bytes | None = None
    usable = True

    if algorithm not in ALGORITHMS:
        out.error(
            "unsupported algorithm",
            "signature-invalid",
            f"unsupported algorithm {algorithm!r}: PAM §18.2 defines "
            f"{', '.join(ALGORITHMS)}; the signature cannot be verified",
            "$.signature.algorithm",
            "PAM §18.2",
        )
        usable = False
    raw_value = signature.get("value")
    value_problem: str | None = None
    if isinstance(raw_value, str):
        if not _BASE64URL.fullmatch(raw_value):
            out.error(
                "signature.value is not Base64url",
                "signature-not-base64url",
                "signature.value is not Base64url (RFC 4648 §5: A-Z a-z 0-9 - _, "
                "optional = padding)",
                "$.signature.value",
                "PAM §18.3",
            )
        else:
            try:
                value = b64url_decode(raw_value)
            except InvalidKey:
                # In the alphabet, but no byte string encodes to this length: as a signature
                # it cannot verify (the official example's placeholder is such a value).
                value_problem = (
                    f"signature.value has {len(raw_value.rstrip('='))} Base64url characters, a "
                    "length no byte string encodes to"
                )
    else:
        out.error(
            "signature.value is missing",
            "signature-invalid",
            "signature.value is missing or not a string",
            "$.signature.value",
            "PAM §18.1",
        )
    try:
        public = decode_public_key(signature.get("public_key"))
    except InvalidKey as exc:
        out.error(
            "malformed public key",
            "signature-invalid",
            f"malformed public key: {exc}",
            "$.signature.public_key",
            "PAM §18.1",
        )
    if public is not None and usable:
        assert isinstance(algorithm, str)
        try:
            check_key(algorithm, public)
        except InvalidKey as exc:
            out.error(
                "the public key does not fit the algorithm",
                "signature-invalid",
                f"the public key does not fit the algorithm: {exc}",
                "$.signature.public_key",
                "PAM §18.2",
            )
            usable = False
    if (
        public is not None
        and expected_key is not None
        and not same_public_key(public, expected_key)
    ):
        out.error(
            "signed by a different key than expected",
            "signature-invalid",
            f"signed by a different key than expected: the signature's public key is "
            f"{describe(public)} that is not the expected one",
            "$.signature.public_key",
            "PAM §18.4",
        )

    # The payload (§18.3).
    present, missing = _payload_values(header)
    if not isinstance(header.get("integrity"), Mapping):
        out.error(
            "no integrity block",
            "signature-without-integrity",
            "the signature payload includes integrity.checksum, but there is no integrity block",
            "$.integrity",
            "PAM §18.3",
        )
        missing = [m for m in missing if m[0] != "integrity.checksum"]
    for name, path in missing:
        out.error(
            "the signature payload is incomplete",
            "signature-payload-incomplete",
            f"{name} is missing or not a string, so the signature payload (checksum, "
            "export_id, export_date, owner_id) cannot be built",
            path,
            "PAM §18.3",
        )

    # signed_at (§18.5 rule 3).
    signed = _parse_or_none(signature.get("signed_at"))
    exported = _parse_or_none(header.get("export_date"))
    if signed is not None and exported is not None and signed < exported:
        out.error(
            "signed_at is before export_date",
            "signed-before-export",
            f"signature.signed_at {signature.get('signed_at')} is before export_date "
            f"{header.get('export_date')}",
            "$.signature.signed_at",
            "PAM §18.5",
        )

    # The signature itself (§18.4 steps 3-6).
    signature_valid = False
    if value_problem is not None:
        out.error(
            "does not verify",
            "signature-invalid",
            f"the signature does not verify: {value_problem}",
            "$.signature.value",
            "PAM §18.4",
        )
    elif public is not None and value is not None and usable and not missing:
        assert isinstance(algorithm, str)
        payload = canonical.jcs_dumps(present)
        why = _verify_bytes(payload, value, public, algorithm)
        if why is None:
            signature_valid = True
        else:
            out.error(
                "does not verify",
                "signature-invalid",
                f"the signature does not verify: {why} (payload: RFC 8785 of checksum, "
                "export_id, export_date, owner_id)",
                "$.signature.value",
                "PAM §18.4",
            )
    if checksum_verified is False:
        out.error(
            "checksum does not match the memories",
            "signature-invalid",
            "the signature covers integrity.checksum, and the checksum does not match "
            "the memories: they changed after signing",
            "$.integrity.checksum",
            "PAM §18.4",
        )

    owner_did = _check_did(header, signature, public, key_id, out)
    return _result(
        out,
        signature_valid=signature_valid,
        memories_checked=checksum_verified is True,
        algorithm=algorithm if isinstance(algorithm, str) else None,
        key_id=key_id,
        public_key=public,
        owner_did=owner_did,
    )


def _check_did(
    header: Mapping[str, Any],
    signature: Mapping[str, Any],
    public: PublicKey | None,
    key_id: str | None,
    out: _Collector,
) -> str:
    """§17.2 rule 3 and §18.5 rule 4: the signing key and key_id against the owner's DID."""
    owner = header.get("owner")
    did = owner.get("did") if isinstance(owner, Mapping) else None
    if not isinstance(did, str):
        if key_id is not None and didkey.is_did_key(key_id) and public is not None:
            try:
                named = didkey.resolve_did_key(key_id)
            except didkey.DIDError:
                named = None
            if named is None or not same_public_key(named, public):
                out.error(
                    "key_id names another key",
                    "key-id-not-signing-key",
                    f"signature.key_id {key_id!r} is a did:key of another key than the "
                    "signature's public key",
                    "$.signature.key_id",
                    "PAM §18.1",
                )
        return "no owner DID"
    if not didkey.is_did_key(did):
        if key_id is not None and not key_id.startswith(did + "#"):
            out.warning(
                "key-id-not-owner-did-url",
                f"signature.key_id {key_id!r} is not a DID URL of the owner's DID {did!r}",
                "$.signature.key_id",
                "PAM §18.5",
            )
        method = ":".join(did.split(":", 2)[:2])
        out.warning(
            "owner-did-not-resolved",
            f"owner.did is a {method}; memvault resolves did:key only (offline), so "
            "the signing key was not checked against the owner's DID Document",
            "$.owner.did",
            "PAM §17.2",
        )
        return f"{method} not resolved"
    try:
        owner_key = didkey.resolve_did_key(did)
    except didkey.DIDError as exc:
        out.error(
            "owner.did does not resolve",
            "owner-did-unresolvable",
            f"owner.did does not resolve to a public key: {exc}",
            "$.owner.did",
            "PAM §17.2",
        )
        return "did:key does not resolve"
    status = "did:key matches"
    if public is not None and not same_public_key(owner_key, public):
        out.error(
            "the signature does not belong to the owner",
            "signature-not-owner-key",
            f"the signature's public key is not the key of owner.did {did}: the signature "
            "does not belong to the owner",
            "$.signature.public_key",
            "PAM §17.2",
        )
        status = "did:key is another key"
    expected_id = didkey.key_id(did)
    if key_id is not None and key_id != expected_id:
        out.error(
            "key_id is not the owner's key",
            "key-id-not-owner-key",
            f"signature.key_id {key_id!r} is not {expected_id}, the one verification method "
            "of the owner's did:key",
            "$.signature.key_id",
            "PAM §18.5",
        )
        status = "key_id is not the owner's did:key"
    return status


def check_owner_did(header: Mapping[str, Any]) -> list[Problem]:
    """§17.2 for an unsigned document: an ``owner.did`` that is a did:key must resolve (other
    methods are not resolved). A signed document gets this from `verify_signature`."""
    owner = header.get("owner")
    did = owner.get("did") if isinstance(owner, Mapping) else None
    if not didkey.is_did_key(did):
        return []
    assert isinstance(did, str)
    try:
        didkey.resolve_did_key(did)
    except didkey.DIDError as exc:
        return [
            Problem(
                "error",
                "owner-did-unresolvable",
                f"owner.did does not resolve to a public key: {exc}",
                "$.owner.did",
                "PAM §17.2",
            )
        ]
    return []


def _parse_or_none(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_timestamp(value)
    except (ValueError, TypeError):
        return None


def _result(
    out: _Collector,
    *,
    signature_valid: bool,
    memories_checked: bool,
    algorithm: str | None = None,
    key_id: str | None = None,
    public_key: PublicKey | None = None,
    owner_did: str = "no owner DID",
) -> VerifyResult:
    ok = signature_valid and memories_checked and out.reason is None
    if ok:
        reason = "verified"
    elif out.reason is not None:
        reason = out.reason
    else:
        reason = "the memories were not checked against integrity.checksum"
    return VerifyResult(
        ok,
        reason,
        True,
        tuple(out.problems),
        algorithm,
        key_id,
        public_key,
        signature_valid,
        memories_checked,
        owner_did,
    )


def import_warnings(
    header: Mapping[str, Any],
    *,
    checksum_verified: bool | None = True,
    expected_key: PublicKey | PrivateKey | None = None,
) -> list[str]:
    """What an importer shows the user about a document's signature (§18.5, §21.4: verify,
    warn loudly on failure, never reject an unsigned export): one line per problem, none for
    an unsigned document or a signature that verifies cleanly. `checksum_verified` defaults to
    True for an importer that has already refused documents whose checksum does not match."""
    result = verify_signature(
        header, checksum_verified=checksum_verified, expected_key=expected_key
    )
    if not result.signed:
        return []
    lines = []
    for problem in result.problems:
        if problem.severity == "error":
            lines.append(
                f"SIGNATURE NOT VERIFIED ({result.reason}): {problem.message} "
                f"[{problem.code}, {problem.section}]"
            )
        else:
            lines.append(f"signature: {problem.message} [{problem.code}, {problem.section}]")
    return lines


def _checksum_status(memories: Any, declared: Any) -> tuple[bool | None, list[Problem]]:
    """Whether `memories` produce the `declared` checksum (None: they cannot be checksummed).
    A checksum of the null-stripped memories (portable-ai-memory 1.0.0 SDK) is accepted with a
    warning, as `validate` does (docs/decisions.md)."""
    if not isinstance(memories, list) or not isinstance(declared, str):
        return None, []
    try:
        if canonical.integrity_checksum(memories) == declared:
            return True, []
        if canonical.integrity_checksum(canonical.strip_nulls(memories)) == declared:
            return True, [_NULL_STRIPPED]
    except (KeyError, TypeError, canonical.CanonicalizationError):
        return None, []
    return False, []


_NULL_STRIPPED: Final = Problem(
    "warning",
    "checksum-null-stripped",
    "integrity.checksum matches the memories only with null members removed (as the "
    "portable-ai-memory 1.0.0 SDK computes it)",
    "$.integrity.checksum",
    "PAM §15.2",
)


def _with(result: VerifyResult, extra: list[Problem]) -> VerifyResult:
    if not extra:
        return result
    return VerifyResult(
        result.ok,
        result.reason,
        result.signed,
        (*extra, *result.problems),
        result.algorithm,
        result.key_id,
        result.public_key,
        result.signature_valid,
        result.memories_checked,
        result.owner_did,
    )


def verify_document(
    doc: Mapping[str, Any], *, expected_key: PublicKey | PrivateKey | None = None
) -> VerifyResult:
    """``verify_document(doc, *, expected_key=None) -> VerifyResult``

    §18.4 on a whole document: recompute the checksum from ``doc["memories"]``, compare it
    with ``integrity.checksum``, verify the signature over the payload with
    ``signature.public_key``, check ``signed_at`` and the owner's did:key.
    """
    if doc.get("signature") is None:
        return VerifyResult(False, "the document is not signed", signed=False)
    integrity = doc.get("integrity")
    declared = integrity.get("checksum") if isinstance(integrity, Mapping) else None
    status, extra = _checksum_status(doc.get("memories"), declared)
    return _with(verify_signature(doc, checksum_verified=status, expected_key=expected_key), extra)


# ---------------------------------------------------------------------------------------------
# Memory-store files (bytes or mmap), streamed
# ---------------------------------------------------------------------------------------------


def document_checksum(doc: Any, *, null_stripped: bool = False) -> str | None:
    """The §15.2 checksum of a parsed `memvault.formats.pam.reader.Document`'s memories,
    one memory at a time (None when a memory cannot be read or canonicalized)."""
    from memvault.jsonread import JSONDocumentError

    items: list[tuple[str, bytes]] = []
    try:
        for _, _, memory in doc.iter_memories(check_duplicates=False):
            if not isinstance(memory, dict) or not isinstance(memory.get("id"), str):
                return None
            value = canonical.strip_nulls(memory) if null_stripped else memory
            items.append((memory["id"], canonical.jcs_dumps(value)))
    except (JSONDocumentError, canonical.CanonicalizationError):
        return None
    items.sort(key=itemgetter(0))
    return canonical.checksum_of_canonical(canon for _, canon in items)


def _parse_store(buf: Any, file: str) -> Any:
    from memvault.formats.pam import reader
    from memvault.jsonread import JSONDocumentError

    try:
        doc = reader.parse(buf, file)
        doc.complete_header()
    except JSONDocumentError as exc:
        raise SigningError(f"{file}: {exc.message}") from None
    if doc.kind != "memory-store":
        schema = doc.header.get("schema")
        what = f"its schema is {schema!r}" if schema is not None else 'it has no "schema" member'
        raise SigningError(f"{file}: not a PAM memory-store ({what})")
    return doc


def verify_buffer(
    buf: Any, file: str = "<memory-store>", *, expected_key: PublicKey | PrivateKey | None = None
) -> VerifyResult:
    """`verify_document` on the bytes (or mmap) of a memory-store file, streaming the memories.

    Raises SigningError when the bytes are not a readable memory-store.
    """
    doc = _parse_store(buf, file)
    header = doc.header
    if header.get("signature") is None:
        return VerifyResult(False, "the document is not signed", signed=False)
    integrity = header.get("integrity")
    declared = integrity.get("checksum") if isinstance(integrity, Mapping) else None
    status: bool | None = None
    extra: list[Problem] = []
    if isinstance(declared, str):
        computed = document_checksum(doc)
        if computed is not None:
            status = computed == declared
            if not status and document_checksum(doc, null_stripped=True) == declared:
                status, extra = True, [_NULL_STRIPPED]
    return _with(
        verify_signature(header, checksum_verified=status, expected_key=expected_key), extra
    )


def sign_buffer(
    buf: Any,
    key: SigningKey | PrivateKey,
    out: IO[bytes],
    *,
    file: str = "<memory-store>",
    algorithm: str | None = None,
    key_id: str | None = None,
    signed_at: str | datetime | None = None,
) -> dict[str, Any]:
    """Sign the memory-store in `buf` (bytes or mmap) and write the signed file to `out`.

    The checksum is checked against the memories (streamed) first. The output is the input
    byte for byte except the top-level ``signature`` member, which is replaced (or added after
    the last member): formatting, member order and the memories' bytes are kept. Returns the
    signature block. Raises SigningError, keys.InvalidKey.
    """
    doc = _parse_store(buf, file)
    header = doc.header
    signature_payload(header)  # names a missing member before the memories are read
    computed = document_checksum(doc)
    declared = header["integrity"]["checksum"]
    if computed != declared:
        shown = computed or "not computable: a memory cannot be read or canonicalized"
        raise SigningError(
            f"{file}: integrity.checksum does not match the memories (declared {declared}, "
            f"computed {shown}); fix the document before signing (PAM §15.2, §18.3)"
        )
    signed = sign_document(
        header,
        key,
        algorithm=algorithm,
        key_id=key_id,
        signed_at=signed_at,
        check_checksum=False,
    )
    block: dict[str, Any] = signed["signature"]
    _splice(buf, block, out, file)
    return block


def _splice(buf: Any, block: dict[str, Any], out: IO[bytes], file: str) -> None:
    from memvault import jsonread

    try:
        from memvault import _speedups
    except ImportError:  # pragma: no cover - the extension is part of every normal build
        _speedups = None
    start = jsonread.first_significant_byte(buf, file)
    text = orjson.dumps(block, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ")
    if _speedups is None:  # pragma: no cover
        whole = orjson.loads(bytes(buf))
        whole["signature"] = block
        out.write(orjson.dumps(whole, option=orjson.OPT_INDENT_2) + b"\n")
        return
    members, _ = _speedups.object_members(buf, start)
    replace: tuple[int, int] | None = None
    for key_start, key_end, value_start, value_end in members:
        if orjson.loads(bytes(buf[key_start:key_end])) == "signature":
            replace = (value_start, value_end)
    if replace is not None:
        cut, resume, insert = replace[0], replace[1], text
    else:
        last_end = members[-1][3]
        cut, resume, insert = last_end, last_end, b',\n  "signature": ' + text
    _copy(buf, 0, cut, out)
    out.write(insert)
    _copy(buf, resume, len(buf), out)


def _copy(buf: Any, start: int, end: int, out: IO[bytes]) -> None:
    step = 1 << 20
    for pos in range(start, end, step):
        out.write(buf[pos : min(pos + step, end)])
