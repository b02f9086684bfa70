"""did:key (PAM §17): a DID that is its own public key, resolved offline.

A did:key is ``did:key:`` + multibase base58btc (prefix ``z``) of the multicodec-prefixed
public key (https://w3c-ccg.github.io/did-method-key/). memvault derives and resolves it for:

========  ===========  ======================================  ===============
key       multicodec   key bytes                               DID starts with
========  ===========  ======================================  ===============
Ed25519   0xed01       32-byte raw public key                  ``did:key:z6Mk``
P-256     0x1200       33-byte compressed SEC1 point           ``did:key:zDn``
P-384     0x1201       49-byte compressed SEC1 point           ``did:key:z82``
========  ===========  ======================================  ===============

The DID Document of a did:key has one verification method, ``<did>#<multibase>``; that DID URL
is what `key_id` returns and what a signature's ``key_id`` must be when the owner's DID is a
did:key (§18.5 rule 4). Other DID methods are not resolved (did:web would need the network;
see docs/signing.md).
"""

from __future__ import annotations

from typing import Final

import base58
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from memvault.errors import HTTP_UNPROCESSABLE, VaultError

__all__ = [
    "DID_KEY_PREFIX",
    "DIDError",
    "DIDKeyPublicKey",
    "did_key",
    "is_did_key",
    "key_id",
    "multibase_key",
    "parse_multibase_key",
    "resolve_did_key",
    "split_did_url",
]

DID_KEY_PREFIX: Final = "did:key:"
#: Multicodec codes as unsigned varints (https://github.com/multiformats/multicodec).
ED25519_PUB: Final = b"\xed\x01"
P256_PUB: Final = b"\x80\x24"  # 0x1200
P384_PUB: Final = b"\x81\x24"  # 0x1201
_CURVES: Final = {P256_PUB: (ec.SECP256R1(), 33), P384_PUB: (ec.SECP384R1(), 49)}
#: No supported key encodes to more than this many base58 characters; longer input is refused
#: before any decoding work.
_MAX_MULTIBASE: Final = 128

DIDKeyPublicKey = ed25519.Ed25519PublicKey | ec.EllipticCurvePublicKey


class DIDError(VaultError, ValueError):
    """A DID or multibase key that cannot be decoded or derived, with the reason."""

    http_status = HTTP_UNPROCESSABLE


def multibase_key(public_key: DIDKeyPublicKey) -> str:
    """``z`` + base58btc(multicodec + key bytes): the did:key method-specific id (``z6Mk…``)."""
    if isinstance(public_key, ed25519.Ed25519PublicKey):
        raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return "z" + base58.b58encode(ED25519_PUB + raw).decode("ascii")
    if isinstance(public_key, ec.EllipticCurvePublicKey):
        for codec, (curve, _) in _CURVES.items():
            if public_key.curve.name == curve.name:
                point = public_key.public_bytes(
                    serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint
                )
                return "z" + base58.b58encode(codec + point).decode("ascii")
        raise DIDError(f"no did:key encoding for an EC key on curve {public_key.curve.name}")
    raise DIDError(f"no did:key encoding for a {type(public_key).__name__}")


def did_key(public_key: DIDKeyPublicKey) -> str:
    """The did:key of an Ed25519, P-256 or P-384 public key."""
    return DID_KEY_PREFIX + multibase_key(public_key)


def key_id(did: str) -> str:
    """The DID URL of a did:key's one verification method: ``did:key:z…#z…``."""
    if not is_did_key(did):
        raise DIDError(f"{did!r} is not a did:key")
    return f"{did}#{did[len(DID_KEY_PREFIX) :]}"


def is_did_key(value: object) -> bool:
    return isinstance(value, str) and value.startswith(DID_KEY_PREFIX)


def split_did_url(url: str) -> tuple[str, str | None]:
    """``did:key:zA#zA`` → (``did:key:zA``, ``zA``); without a fragment the second is None."""
    did, sep, fragment = url.partition("#")
    return did, (fragment if sep else None)


def parse_multibase_key(text: str) -> DIDKeyPublicKey:
    """The public key in a multibase base58btc multicodec string (``z6Mk…``, ``zDn…``).

    Raises DIDError saying what is wrong (prefix, alphabet, multicodec, length, point).
    """
    if not isinstance(text, str) or not text.startswith("z"):
        raise DIDError("a multibase key must start with 'z' (base58btc)")
    if len(text) > _MAX_MULTIBASE:
        raise DIDError(f"a multibase key is at most {_MAX_MULTIBASE} characters")
    try:
        data = base58.b58decode(text[1:].encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        raise DIDError("not base58btc (Bitcoin alphabet)") from None
    codec, key = data[:2], data[2:]
    if codec == ED25519_PUB:
        if len(key) != 32:
            raise DIDError(f"an Ed25519 key is 32 bytes, this one is {len(key)}")
        return ed25519.Ed25519PublicKey.from_public_bytes(key)
    if codec in _CURVES:
        curve, size = _CURVES[codec]
        if len(key) != size:
            raise DIDError(
                f"a compressed {curve.name} point is {size} bytes, this one is {len(key)}"
            )
        try:
            return ec.EllipticCurvePublicKey.from_encoded_point(curve, key)
        except ValueError:
            raise DIDError(f"not a point on {curve.name}") from None
    raise DIDError(
        f"multicodec 0x{codec.hex()} is not an Ed25519 (0xed01), P-256 (0x1200) or P-384 "
        "(0x1201) public key"
    )


def resolve_did_key(did: str) -> DIDKeyPublicKey:
    """The public key a did:key (or a did:key DID URL) stands for, offline. Raises DIDError."""
    if not is_did_key(did):
        raise DIDError(f"{did!r} is not a did:key")
    base, _ = split_did_url(did)
    try:
        return parse_multibase_key(base[len(DID_KEY_PREFIX) :])
    except DIDError as exc:
        raise DIDError(f"{base} does not resolve: {exc}") from None
