"""Signing keys for PAM §18: generation, storage form, and the public-key encodings.

- **Algorithms** (§18.2): Ed25519, ES256 (ECDSA P-256), ES384 (ECDSA P-384), RS256/RS384/RS512
  (RSA of at least 2048/3072/4096 bits; smaller keys are refused for signing and verifying).
- **Storage**: private keys as unencrypted PKCS#8 DER in `KeyRecord.private_key`, which lives
  inside the SQLCipher-encrypted vault database (encrypted with the vault key); public keys as
  SubjectPublicKeyInfo DER.
- **`signature.public_key`** (§18.1 says only "public key of the signer"): Ed25519 as multibase
  base58btc of the multicodec key (``z6Mk…``, as the official example); the others as a JWK
  (RFC 7517/7518) JSON string, canonical (RFC 8785) with only the required members. Accepted on
  input as well: a PEM SubjectPublicKeyInfo, a did:key, a multibase P-256/P-384 key, and a JWK
  for Ed25519 (``"kty":"OKP"``).
- **Key ids**: keys with a did:key (Ed25519, P-256, P-384) are named by its DID URL
  ``did:key:z…#z…``; RSA keys by their RFC 7638 JWK thumbprint URI (RFC 9278),
  ``urn:ietf:params:oauth:jwk-thumbprint:sha-256:…``.

All cryptography is the `cryptography` library's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import orjson
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from memvault.canonical import jcs_dumps
from memvault.crypto import ALGORITHMS
from memvault.crypto import did as didkey
from memvault.errors import HTTP_UNPROCESSABLE, AmbiguousId, NotFound, VaultError
from memvault.store.base import KeyRecord

__all__ = [
    "ALGORITHMS",
    "MAX_RSA_BITS",
    "RSA_MIN_BITS",
    "InvalidKey",
    "PrivateKey",
    "PublicKey",
    "SigningKey",
    "algorithm_for",
    "b64url_decode",
    "b64url_encode",
    "check_key",
    "choose_signing_key",
    "decode_public_key",
    "decode_public_key_der",
    "describe",
    "did_for",
    "encode_public_key",
    "generate",
    "jwk",
    "jwk_thumbprint",
    "key_id_for",
    "private_key_from_pkcs8",
    "private_key_to_pkcs8",
    "public_key_der",
    "public_key_pem",
    "same_public_key",
]

#: §18.2: the smallest RSA modulus for each RSA algorithm.
RSA_MIN_BITS: Final = {"RS256": 2048, "RS384": 3072, "RS512": 4096}
#: Larger RSA keys are refused: they only make hostile input slow to verify.
MAX_RSA_BITS: Final = 16384
_EC_CURVES: Final = {"ES256": "secp256r1", "ES384": "secp384r1"}
_JWK_CURVES: Final = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1()}
_CURVE_JWK_NAMES: Final = {"secp256r1": ("P-256", 32), "secp384r1": ("P-384", 48)}
#: A public key in a signature block longer than this is refused before parsing.
_MAX_PUBLIC_KEY_TEXT: Final = 16384
THUMBPRINT_URN: Final = "urn:ietf:params:oauth:jwk-thumbprint:sha-256:"

PrivateKey = ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey
PublicKey = ed25519.Ed25519PublicKey | ec.EllipticCurvePublicKey | rsa.RSAPublicKey


class InvalidKey(VaultError, ValueError):
    """A key that is malformed, of the wrong kind for an algorithm, or too small."""

    http_status = HTTP_UNPROCESSABLE


# -- Base64url (RFC 4648 §5) -----------------------------------------------------------------


def b64url_encode(data: bytes, *, pad: bool = False) -> str:
    """Base64url (RFC 4648 §5); without ``=`` padding unless `pad` (JWK members are unpadded,
    RFC 7515 §2; PAM signature values are padded, see signing.py)."""
    text = base64.urlsafe_b64encode(data).decode("ascii")
    return text if pad else text.rstrip("=")


def b64url_decode(text: str) -> bytes:
    """Base64url with or without ``=`` padding. Raises InvalidKey for anything else (the
    standard alphabet's ``+`` and ``/``, whitespace, a length no encoding has)."""
    if not isinstance(text, str) or not text.isascii():
        raise InvalidKey("not Base64url (RFC 4648 §5)")
    stripped = text.rstrip("=")
    if len(text) - len(stripped) > 2 or len(stripped) % 4 == 1:
        raise InvalidKey("not Base64url (RFC 4648 §5): impossible length or padding")
    if any(c not in _B64URL_ALPHABET for c in stripped):
        raise InvalidKey("not Base64url (RFC 4648 §5): only A-Z a-z 0-9 - _ and = padding")
    try:
        return base64.urlsafe_b64decode(stripped + "=" * (-len(stripped) % 4))
    except (binascii.Error, ValueError):  # pragma: no cover - the checks above catch it
        raise InvalidKey("not Base64url (RFC 4648 §5)") from None


_B64URL_ALPHABET: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)


# -- generation and checks -------------------------------------------------------------------


def choose_signing_key(
    records: Sequence[KeyRecord], wanted: str | None = None, *, owner_did: str | None = None
) -> KeyRecord:
    """The key to sign with, out of a vault's `records`; every front end chooses this way.

    - `wanted` named: the key whose id is exactly `wanted`; else the one key whose id contains
      it (a prefix such as ``did:key:z6Mk``, or a part such as ``zDn``); else, when `wanted`
      is an algorithm name (§18.2, e.g. ``ES256``), the one key of that algorithm.
    - Nothing named: the only key; else the one key whose did:key is `owner_did` (the key the
      owner's DID is derived from, §17); else AmbiguousId (nothing is chosen silently).

    Raises NotFound when there are no keys or none matches, AmbiguousId (its `candidates`
    are the key ids) when several do."""
    if not records:
        raise NotFound("the vault has no signing keys; create one with `memvault keys generate`")
    if wanted is None:
        if len(records) == 1:
            return records[0]
        mine = [r for r in records if r.did is not None and r.did == owner_did]
        if len(mine) == 1:
            return mine[0]
        ids = [r.key_id for r in records]
        raise AmbiguousId(
            f"the vault has {len(records)} signing keys and none is the owner's DID key; "
            f"name one ({', '.join(ids)})",
            ids,
        )
    exact = [r for r in records if r.key_id == wanted]
    if exact:
        return exact[0]
    matches = [r for r in records if wanted in r.key_id]
    if not matches and wanted in ALGORITHMS:
        matches = [r for r in records if r.algorithm == wanted]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise NotFound(f"no key in the vault matches {wanted!r} (see `memvault keys list`)")
    raise AmbiguousId(
        f"{wanted!r} matches {len(matches)} keys; give more of the id",
        [r.key_id for r in matches],
    )


def generate(algorithm: str, *, rsa_bits: int | None = None) -> PrivateKey:
    """A new private key for `algorithm`. RSA keys get the §18.2 minimum size unless
    `rsa_bits` asks for more (less is refused)."""
    if algorithm == "Ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    if algorithm == "ES256":
        return ec.generate_private_key(ec.SECP256R1())
    if algorithm == "ES384":
        return ec.generate_private_key(ec.SECP384R1())
    if algorithm in RSA_MIN_BITS:
        bits = RSA_MIN_BITS[algorithm] if rsa_bits is None else rsa_bits
        if bits < RSA_MIN_BITS[algorithm] or bits > MAX_RSA_BITS:
            raise InvalidKey(
                f"{algorithm} needs an RSA key of {RSA_MIN_BITS[algorithm]} to {MAX_RSA_BITS} "
                f"bits (PAM §18.2), not {bits}"
            )
        return rsa.generate_private_key(public_exponent=65537, key_size=bits)
    raise InvalidKey(_unsupported(algorithm))


def _unsupported(algorithm: object) -> str:
    return f"unsupported algorithm {algorithm!r}: PAM §18.2 defines {', '.join(ALGORITHMS)}"


def check_key(algorithm: str, key: PrivateKey | PublicKey) -> None:
    """Raise InvalidKey unless `key` is the kind `algorithm` signs with (and big enough)."""
    if algorithm not in ALGORITHMS:
        raise InvalidKey(_unsupported(algorithm))
    public = _public(key)
    if algorithm == "Ed25519":
        ok = isinstance(public, ed25519.Ed25519PublicKey)
    elif algorithm in _EC_CURVES:
        ok = isinstance(public, ec.EllipticCurvePublicKey) and (
            public.curve.name == _EC_CURVES[algorithm]
        )
    else:
        ok = isinstance(public, rsa.RSAPublicKey)
        if ok:
            assert isinstance(public, rsa.RSAPublicKey)
            bits = public.key_size
            if bits < RSA_MIN_BITS[algorithm]:
                raise InvalidKey(
                    f"the RSA key has {bits} bits; {algorithm} needs at least "
                    f"{RSA_MIN_BITS[algorithm]} (PAM §18.2)"
                )
            if bits > MAX_RSA_BITS:
                raise InvalidKey(
                    f"the RSA key has {bits} bits; memvault accepts at most {MAX_RSA_BITS}"
                )
    if not ok:
        raise InvalidKey(f"{describe(public)} cannot be used with {algorithm} (PAM §18.2)")


def algorithm_for(key: PrivateKey | PublicKey) -> str:
    """The algorithm a key signs with. RSA: the strongest its size allows (4096+ bits RS512,
    3072+ RS384, 2048+ RS256) — pass the algorithm explicitly to choose another."""
    public = _public(key)
    if isinstance(public, ed25519.Ed25519PublicKey):
        return "Ed25519"
    if isinstance(public, ec.EllipticCurvePublicKey):
        for algorithm, curve in _EC_CURVES.items():
            if public.curve.name == curve:
                return algorithm
        raise InvalidKey(f"{describe(public)} has no PAM algorithm (P-256 or P-384 are)")
    if isinstance(public, rsa.RSAPublicKey):
        for algorithm in ("RS512", "RS384", "RS256"):
            if public.key_size >= RSA_MIN_BITS[algorithm]:
                check_key(algorithm, public)
                return algorithm
        raise InvalidKey(f"the RSA key has {public.key_size} bits; PAM §18.2 needs 2048 or more")
    raise InvalidKey(f"{describe(public)} has no PAM algorithm")  # pragma: no cover


def describe(key: PrivateKey | PublicKey) -> str:
    public = _public(key)
    if isinstance(public, ed25519.Ed25519PublicKey):
        return "an Ed25519 key"
    if isinstance(public, ec.EllipticCurvePublicKey):
        name = _CURVE_JWK_NAMES.get(public.curve.name, (public.curve.name, 0))[0]
        return f"an EC {name} key"
    if isinstance(public, rsa.RSAPublicKey):
        return f"an RSA {public.key_size}-bit key"
    return f"a {type(public).__name__}"  # pragma: no cover


def _public(key: PrivateKey | PublicKey) -> PublicKey:
    if isinstance(key, ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey):
        return key.public_key()
    return key


# -- serialization ---------------------------------------------------------------------------


def private_key_to_pkcs8(key: PrivateKey) -> bytes:
    """PKCS#8 DER, unencrypted: the vault database that stores it is the encryption."""
    return key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def private_key_from_pkcs8(data: bytes) -> PrivateKey:
    try:
        key = serialization.load_der_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise InvalidKey(f"not a PKCS#8 private key ({exc})") from None
    if not isinstance(
        key, ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey
    ):
        raise InvalidKey(f"a {type(key).__name__} is not a PAM signing key")
    return key


def public_key_der(key: PrivateKey | PublicKey) -> bytes:
    """SubjectPublicKeyInfo DER: the form public keys are stored and compared in."""
    return _public(key).public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def decode_public_key_der(data: bytes) -> PublicKey:
    """A SubjectPublicKeyInfo DER public key (as `KeyRecord.public_key` holds it)."""
    try:
        key = serialization.load_der_public_key(data)
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise InvalidKey(f"not a DER public key ({exc})") from None
    if not isinstance(key, ed25519.Ed25519PublicKey | ec.EllipticCurvePublicKey | rsa.RSAPublicKey):
        raise InvalidKey(f"a {type(key).__name__} is not a PAM signing key")
    return key


def public_key_pem(key: PrivateKey | PublicKey) -> str:
    return (
        _public(key)
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )


def same_public_key(a: PrivateKey | PublicKey, b: PrivateKey | PublicKey) -> bool:
    return public_key_der(a) == public_key_der(b)


def _int_bytes(value: int, size: int | None = None) -> bytes:
    length = size if size is not None else max(1, (value.bit_length() + 7) // 8)
    return value.to_bytes(length, "big")


def jwk(key: PrivateKey | PublicKey) -> dict[str, str]:
    """The public JWK with only its required members (RFC 7638 §3.2 order-independent)."""
    public = _public(key)
    if isinstance(public, ed25519.Ed25519PublicKey):
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return {"crv": "Ed25519", "kty": "OKP", "x": b64url_encode(raw)}
    if isinstance(public, ec.EllipticCurvePublicKey):
        if public.curve.name not in _CURVE_JWK_NAMES:
            raise InvalidKey(f"{describe(public)} has no PAM algorithm")
        name, size = _CURVE_JWK_NAMES[public.curve.name]
        numbers = public.public_numbers()
        return {
            "crv": name,
            "kty": "EC",
            "x": b64url_encode(_int_bytes(numbers.x, size)),
            "y": b64url_encode(_int_bytes(numbers.y, size)),
        }
    numbers_rsa = public.public_numbers()
    return {
        "e": b64url_encode(_int_bytes(numbers_rsa.e)),
        "kty": "RSA",
        "n": b64url_encode(_int_bytes(numbers_rsa.n)),
    }


def jwk_thumbprint(key: PrivateKey | PublicKey) -> str:
    """RFC 7638 thumbprint: Base64url SHA-256 of the canonical required-member JWK."""
    return b64url_encode(hashlib.sha256(jcs_dumps(jwk(key))).digest())


def encode_public_key(key: PrivateKey | PublicKey) -> str:
    """`signature.public_key`: ``z6Mk…`` for Ed25519, a canonical JWK JSON string otherwise."""
    public = _public(key)
    if isinstance(public, ed25519.Ed25519PublicKey):
        return didkey.multibase_key(public)
    return jcs_dumps(jwk(public)).decode("utf-8")


def decode_public_key(text: object) -> PublicKey:
    """Parse `signature.public_key`: multibase (``z…``), did:key, JWK JSON or PEM.

    Raises InvalidKey with the reason.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidKey("the public key is not a non-empty string")
    if len(text) > _MAX_PUBLIC_KEY_TEXT:
        raise InvalidKey(f"the public key is longer than {_MAX_PUBLIC_KEY_TEXT} characters")
    value = text.strip()
    try:
        if value.startswith("z"):
            return didkey.parse_multibase_key(value)
        if value.startswith(didkey.DID_KEY_PREFIX):
            return didkey.resolve_did_key(value)
    except didkey.DIDError as exc:
        raise InvalidKey(f"not a multibase public key: {exc}") from None
    if value.startswith("{"):
        return _from_jwk(value)
    if value.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(value.encode("ascii"))
        except (ValueError, UnsupportedAlgorithm, UnicodeEncodeError) as exc:
            raise InvalidKey(f"not a PEM public key ({exc})") from None
        if isinstance(key, rsa.RSAPublicKey):
            return _bounded_rsa(key)
        if not isinstance(key, ed25519.Ed25519PublicKey | ec.EllipticCurvePublicKey):
            raise InvalidKey(f"a {type(key).__name__} is not a PAM signing key")
        return key
    raise InvalidKey(
        "not a multibase key (z…), did:key, JWK (JSON object) or PEM (-----BEGIN PUBLIC KEY-----)"
    )


#: RSA public exponents are small in practice (65537); a huge one only makes verifying slow.
_MAX_RSA_EXPONENT_BITS: Final = 64


def _bounded_rsa(key: rsa.RSAPublicKey) -> rsa.RSAPublicKey:
    """Refuse RSA public keys that would make verification needlessly slow (hostile input)."""
    numbers = key.public_numbers()
    if numbers.n.bit_length() > MAX_RSA_BITS:
        raise InvalidKey(f"the RSA key has more than {MAX_RSA_BITS} bits")
    if numbers.e.bit_length() > _MAX_RSA_EXPONENT_BITS:
        raise InvalidKey(f"the RSA public exponent is over {_MAX_RSA_EXPONENT_BITS} bits")
    return key


def _member(obj: dict[str, Any], name: str) -> bytes:
    value = obj.get(name)
    if not isinstance(value, str):
        raise InvalidKey(f"the JWK has no string member {name!r}")
    return b64url_decode(value)


def _from_jwk(text: str) -> PublicKey:
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise InvalidKey("the JWK is not valid JSON") from None
    if not isinstance(obj, dict):
        raise InvalidKey("the JWK is not a JSON object")
    if "d" in obj or "p" in obj:
        raise InvalidKey("the JWK holds a private key; a signature block carries public keys only")
    kty = obj.get("kty")
    try:
        if kty == "OKP" and obj.get("crv") == "Ed25519":
            raw = _member(obj, "x")
            if len(raw) != 32:
                raise InvalidKey(f"an Ed25519 JWK has a 32-byte x, this one {len(raw)}")
            return ed25519.Ed25519PublicKey.from_public_bytes(raw)
        if kty == "EC":
            crv = obj.get("crv")
            if crv not in _JWK_CURVES:
                raise InvalidKey(f"EC JWK curve {crv!r} is not P-256 or P-384")
            curve = _JWK_CURVES[crv]
            size = _CURVE_JWK_NAMES[curve.name][1]
            x, y = _member(obj, "x"), _member(obj, "y")
            if len(x) != size or len(y) != size:
                raise InvalidKey(f"{crv} JWK coordinates are {size} bytes each (RFC 7518 §6.2.1)")
            return ec.EllipticCurvePublicKey.from_encoded_point(curve, b"\x04" + x + y)
        if kty == "RSA":
            n = int.from_bytes(_member(obj, "n"), "big")
            e = int.from_bytes(_member(obj, "e"), "big")
            return _bounded_rsa(rsa.RSAPublicNumbers(e, n).public_key())
    except (ValueError, UnsupportedAlgorithm) as exc:
        if isinstance(exc, InvalidKey):
            raise
        raise InvalidKey(f"the JWK is not a valid {kty} public key ({exc})") from None
    raise InvalidKey(f"JWK key type {kty!r} is not OKP (Ed25519), EC or RSA")


# -- ids ------------------------------------------------------------------------------------


def did_for(key: PrivateKey | PublicKey) -> str | None:
    """The key's did:key (Ed25519, P-256, P-384), or None (RSA keys have none here)."""
    public = _public(key)
    if isinstance(public, rsa.RSAPublicKey):
        return None
    try:
        return didkey.did_key(public)
    except didkey.DIDError:
        return None


def key_id_for(key: PrivateKey | PublicKey) -> str:
    """The id memvault gives a key: its did:key DID URL, else its JWK thumbprint URI."""
    did = did_for(key)
    return didkey.key_id(did) if did is not None else THUMBPRINT_URN + jwk_thumbprint(key)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class SigningKey:
    """A private key with the algorithm it signs with and its id (and DID, when it has one)."""

    algorithm: str
    private_key: PrivateKey
    key_id: str
    did: str | None = None
    created_at: str | None = None

    @classmethod
    def new(cls, algorithm: str, *, rsa_bits: int | None = None) -> SigningKey:
        return cls.from_private_key(generate(algorithm, rsa_bits=rsa_bits), algorithm)

    @classmethod
    def from_private_key(cls, key: PrivateKey, algorithm: str | None = None) -> SigningKey:
        algorithm = algorithm_for(key) if algorithm is None else algorithm
        check_key(algorithm, key)
        return cls(algorithm, key, key_id_for(key), did_for(key), _now())

    @classmethod
    def from_record(cls, record: KeyRecord) -> SigningKey:
        """The key in a vault record. Raises InvalidKey for a record without a private key or
        whose private key does not match its public key or algorithm."""
        if record.private_key is None:
            raise InvalidKey(f"key {record.key_id} has no private key in this vault")
        key = private_key_from_pkcs8(record.private_key)
        check_key(record.algorithm, key)
        if public_key_der(key) != record.public_key:
            raise InvalidKey(f"key {record.key_id}: the private key does not match its public key")
        return cls(record.algorithm, key, record.key_id, record.did, record.created_at)

    def to_record(self) -> KeyRecord:
        return KeyRecord(
            key_id=self.key_id,
            algorithm=self.algorithm,
            public_key=public_key_der(self.private_key),
            private_key=private_key_to_pkcs8(self.private_key),
            created_at=self.created_at or _now(),
            did=self.did,
        )

    @property
    def public_key(self) -> PublicKey:
        return self.private_key.public_key()

    @property
    def encoded_public_key(self) -> str:
        return encode_public_key(self.private_key)
