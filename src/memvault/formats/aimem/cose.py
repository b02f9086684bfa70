"""AIMEM §5.3 bundle authenticity: a detached COSE_Sign1 (RFC 9052) in ``<bundle-name>.sig``.

The signed payload is the canonical bundle bytes the checksum hashes (§2.8: RFC 8785 of the
bundle without ``checksum``); it is detached (the ``payload`` slot is nil), so the ``.sig``
file is small and the bundle stays as it is. Algorithms: EdDSA (Ed25519) and ES256 (P-256),
from the keys `memvault.crypto.keys` already generates and stores. The protected header holds
the algorithm and the key id (``kid``: the signer's did:key URL, ``did:key:z…#z…``), so a
verifier can resolve the public key offline when none is given. A public key is published as a
CBOR COSE_Key (RFC 9052 §7), e.g. at ``/.well-known/aimem-pubkey``.

COSE signing needs the payload whole (Ed25519 is not a streaming signature), so signing and
verifying hold the canonical bytes of the bundle in memory — about the size of the bundle.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from pycose.algorithms import EdDSA, Es256
from pycose.exceptions import CoseException
from pycose.headers import KID, Algorithm
from pycose.keys.cosekey import CoseKey
from pycose.keys.ec2 import EC2Key
from pycose.keys.okp import OKPKey
from pycose.messages.cosemessage import CoseMessage
from pycose.messages.sign1message import Sign1Message

from memvault.atomic import write_atomic
from memvault.crypto import did as didkey
from memvault.crypto.keys import PrivateKey, PublicKey, SigningKey, key_id_for
from memvault.formats.aimem.checksum import CanonicalBundleHasher
from memvault.formats.aimem.errors import BundleError
from memvault.formats.aimem.reader import open_bundle

__all__ = [
    "ALGORITHMS",
    "MAX_SIGNATURE_BYTES",
    "SignatureCheck",
    "bundle_payload",
    "cose_key",
    "public_key_from_cose_key",
    "sign_bundle",
    "sign_payload",
    "signature_path",
    "verify_bundle_signature",
    "verify_payload",
]

#: The COSE algorithms memvault signs bundles with (name → COSE algorithm).
ALGORITHMS: Final = {"Ed25519": EdDSA, "ES256": Es256}
#: A ``.sig`` file larger than this is refused unread (a COSE_Sign1 here is ~200 bytes).
MAX_SIGNATURE_BYTES: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class SignatureCheck:
    """The outcome of verifying a bundle signature.

    `status`: ``verified``, ``unsigned`` (no ``.sig``), ``invalid`` (wrong key, tampered
    bundle, malformed signature) or ``unverifiable`` (no key to check against).
    """

    status: str
    message: str
    algorithm: str | None = None
    key_id: str | None = None
    signature_file: str | None = None

    @property
    def ok(self) -> bool:
        """True only for a verified signature."""
        return self.status == "verified"

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON (``memvault verify --json``)."""
        return {
            "status": self.status,
            "ok": self.ok,
            "message": self.message,
            "algorithm": self.algorithm,
            "key_id": self.key_id,
            "signature_file": self.signature_file,
            "section": "§5.3",
        }


def signature_path(bundle_path: str | os.PathLike[str]) -> Path:
    """``<bundle-name>.sig`` beside the bundle (§5.3), e.g. ``a.aimem.json.sig``."""
    path = Path(bundle_path)
    return path.with_name(path.name + ".sig")


def _algorithm_name(key: PrivateKey | PublicKey) -> str:
    if isinstance(key, ed25519.Ed25519PrivateKey | ed25519.Ed25519PublicKey):
        return "Ed25519"
    if isinstance(key, ec.EllipticCurvePrivateKey | ec.EllipticCurvePublicKey) and isinstance(
        key.curve, ec.SECP256R1
    ):
        return "ES256"
    raise ValueError("AIMEM bundles are signed with Ed25519 or ES256 (P-256) keys only")


def _cose(key: PrivateKey | PublicKey, kid: str | None = None) -> CoseKey:
    name = _algorithm_name(key)
    params: dict[Any, Any] = {"ALG": ALGORITHMS[name]}
    if kid is not None:
        params["KID"] = kid.encode()
    if isinstance(key, ed25519.Ed25519PrivateKey | ed25519.Ed25519PublicKey):
        return OKPKey._from_cryptography_key(key, params)
    assert isinstance(key, ec.EllipticCurvePrivateKey | ec.EllipticCurvePublicKey)
    return EC2Key._from_cryptography_key(key, params)


def cose_key(key: SigningKey | PrivateKey | PublicKey) -> bytes:
    """The public key as a CBOR-encoded COSE_Key (with ``alg`` and ``kid``), for publishing."""
    raw = key.private_key if isinstance(key, SigningKey) else key
    public: PublicKey
    if isinstance(raw, ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey):
        public = raw.public_key()
    else:
        public = raw  # type: ignore[assignment]
    return _cose(public, key_id_for(public)).encode()


def public_key_from_cose_key(data: bytes) -> PublicKey:
    """The public key in a CBOR COSE_Key (OKP Ed25519 or EC2 P-256). Raises ValueError."""
    try:
        key: CoseKey = CoseKey.decode(data)
    except (CoseException, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"not a COSE_Key: {exc}") from None
    if isinstance(key, OKPKey) and key.x:
        return ed25519.Ed25519PublicKey.from_public_bytes(key.x)
    if isinstance(key, EC2Key) and key.x and key.y:
        numbers = ec.EllipticCurvePublicNumbers(
            int.from_bytes(key.x, "big"), int.from_bytes(key.y, "big"), ec.SECP256R1()
        )
        return numbers.public_key()
    raise ValueError("the COSE_Key is not an Ed25519 (OKP) or P-256 (EC2) public key")


def sign_payload(payload: bytes, key: SigningKey | PrivateKey) -> bytes:
    """A tagged COSE_Sign1 over `payload`, detached (payload nil), EdDSA or ES256."""
    private = key.private_key if isinstance(key, SigningKey) else key
    name = _algorithm_name(private)
    kid = key.key_id if isinstance(key, SigningKey) else key_id_for(private)
    message = Sign1Message(phdr={Algorithm: ALGORITHMS[name], KID: kid.encode()})
    message.key = _cose(private)
    encoded: bytes = message.encode(detached_payload=payload)
    return encoded


def _decode(signature: bytes) -> Sign1Message:
    try:
        message = CoseMessage.decode(signature)
    except Exception as exc:  # pycose raises a variety of types on malformed CBOR
        raise ValueError(f"not a COSE_Sign1 message: {exc}") from None
    if not isinstance(message, Sign1Message):
        raise ValueError("the signature is a COSE message but not a COSE_Sign1")
    return message


def verify_payload(
    signature: bytes, payload: bytes, public_key: PublicKey | None = None
) -> SignatureCheck:
    """Verify a detached COSE_Sign1 over `payload`. Without `public_key`, the key is resolved
    from a did:key ``kid``; otherwise the outcome is ``unverifiable``."""
    try:
        message = _decode(signature)
    except ValueError as exc:
        return SignatureCheck("invalid", str(exc))
    alg = message.get_attr(Algorithm)
    raw_kid = message.get_attr(KID)
    kid = raw_kid.decode("utf-8", "replace") if isinstance(raw_kid, bytes) else None
    names = {v: k for k, v in ALGORITHMS.items()}
    name = names.get(alg) if alg is not None else None
    if name is None:
        return SignatureCheck(
            "invalid", f"unsupported COSE algorithm {alg!r}; expected EdDSA or ES256", None, kid
        )
    if message.payload is not None:
        return SignatureCheck(
            "invalid", "the COSE_Sign1 carries a payload; §5.3 signatures are detached", name, kid
        )
    resolved = public_key is None
    if public_key is None:
        if kid is None or not didkey.is_did_key(kid):
            return SignatureCheck(
                "unverifiable",
                "no public key given and the key id is not a did:key to resolve",
                name,
                kid,
            )
        try:
            public_key = didkey.resolve_did_key(kid)
        except didkey.DIDError as exc:
            return SignatureCheck("invalid", f"the key id does not resolve: {exc}", name, kid)
    try:
        if _algorithm_name(public_key) != name:
            return SignatureCheck(
                "invalid",
                f"the signature is {name} but the key is {_algorithm_name(public_key)}",
                name,
                kid,
            )
        message.key = _cose(public_key)
        good = message.verify_signature(detached_payload=payload)
    except (ValueError, CoseException) as exc:
        return SignatureCheck("invalid", f"cannot verify: {exc}", name, kid)
    if not good:
        return SignatureCheck(
            "invalid",
            "the signature does not match the bundle and key (tampered bundle or a different key)",
            name,
            kid,
        )
    return SignatureCheck(
        "verified",
        f"{name} signature by {kid or 'the given key'} verified"
        + ("; key resolved from its did:key id, not pinned" if resolved else ""),
        name,
        kid,
    )


def bundle_payload(bundle_path: str | os.PathLike[str] | IO[bytes]) -> bytes:
    """The §5.3 payload of a bundle file or stream (either form): its canonical bytes (§2.8),
    after the checksum is verified. Raises BundleError."""
    chunks: list[bytes] = []
    with open_bundle(bundle_path) as reader:
        hasher = CanonicalBundleHasher(reader.envelope, reader.arrays, sink=chunks.append)
        for array in hasher.order:
            hasher.start(array)
            for record in reader.iter_array(array):
                hasher.add(array, record)
        hasher.finish()
    return b"".join(chunks)


def sign_bundle(
    bundle_path: str | os.PathLike[str],
    key: SigningKey | PrivateKey,
    *,
    sig_path: str | os.PathLike[str] | None = None,
) -> Path:
    """Sign a bundle file and write ``<bundle-name>.sig`` (atomically); returns its path."""
    signature = sign_payload(bundle_payload(bundle_path), key)
    target = Path(sig_path) if sig_path is not None else signature_path(bundle_path)
    write_atomic(target, signature)
    return target


def verify_bundle_signature(
    bundle_path: str | os.PathLike[str] | IO[bytes],
    public_key: PublicKey | None = None,
    *,
    sig_path: str | os.PathLike[str] | None = None,
) -> SignatureCheck:
    """Verify ``<bundle-name>.sig`` (or `sig_path`, needed for a stream) against the bundle's
    canonical bytes (§5.3).

    ``unsigned`` when there is no ``.sig``; ``invalid`` when the bundle fails its checksum or
    the signature does not verify. Raises BundleError only for an unreadable bundle.
    """
    if sig_path is None and not isinstance(bundle_path, str | os.PathLike):
        raise TypeError("a bundle stream's signature needs sig_path")
    target = Path(sig_path) if sig_path is not None else signature_path(bundle_path)  # type: ignore[arg-type]
    if not target.is_file():
        return SignatureCheck("unsigned", f"no signature file {target.name}", None, None, None)
    if target.stat().st_size > MAX_SIGNATURE_BYTES:
        return SignatureCheck(
            "invalid",
            f"{target.name} is larger than a COSE_Sign1 can be",
            signature_file=str(target),
        )
    signature = target.read_bytes()
    try:
        payload = bundle_payload(bundle_path)
    except BundleError as exc:
        if exc.code == "file-unreadable":
            raise
        return SignatureCheck(
            "invalid", f"the bundle does not verify: {exc}", signature_file=str(target)
        )
    check = verify_payload(signature, payload, public_key)
    return SignatureCheck(check.status, check.message, check.algorithm, check.key_id, str(target))
