"""Keys, did:key, signatures (PAM §17, §18) and age-encrypted files (§21.1).

- `memvault.crypto.keys`: generate and store signing keys; public-key encodings.
- `memvault.crypto.did`: did:key from an Ed25519/P-256/P-384 key, resolved offline.
- `memvault.crypto.signing`: the §18.3 payload, `sign_document`, `verify_document`.
- `memvault.crypto.agefile`: age encryption with a passphrase or ``age1…`` recipients.

Every primitive comes from `cryptography` and `pyrage`; nothing here is hand-written crypto.
The names below are imported on first use, so a command that never signs does not pay for
loading the cryptography libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

#: PAM §18.2 signature algorithms.
ALGORITHMS: Final = ("Ed25519", "ES256", "ES384", "RS256", "RS384", "RS512")
#: Where the CLI looks for an age passphrase before asking on the terminal.
AGE_PASSPHRASE_ENV: Final = "MEMVAULT_AGE_PASSPHRASE"

if TYPE_CHECKING:
    from memvault.crypto.keys import InvalidKey, SigningKey
    from memvault.crypto.signing import (
        SigningError,
        VerifyResult,
        sign_document,
        signature_payload,
        verify_document,
        verify_signature,
    )

__all__ = [
    "AGE_PASSPHRASE_ENV",
    "ALGORITHMS",
    "InvalidKey",
    "SigningError",
    "SigningKey",
    "VerifyResult",
    "sign_document",
    "signature_payload",
    "verify_document",
    "verify_signature",
]

_LAZY: Final = {
    "InvalidKey": "keys",
    "SigningKey": "keys",
    "SigningError": "signing",
    "VerifyResult": "signing",
    "sign_document": "signing",
    "signature_payload": "signing",
    "verify_document": "signing",
    "verify_signature": "signing",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memvault.crypto' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"memvault.crypto.{module}"), name)
