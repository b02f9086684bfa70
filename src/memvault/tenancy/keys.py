"""The secrets of a server home: API keys (their hashes), the server key, and the keys of the
tenants' vaults wrapped under it.

- **API keys** are 256 random bits (``mvk_`` + base64url). Only their SHA-256 is stored. A
  password hash (scrypt, Argon2) exists to slow the guessing of low-entropy secrets; a random
  256-bit key cannot be guessed, so a slow hash would only cost every request its CPU time and
  rule out finding the token by an indexed lookup of its hash.
- **The server key** is the operator's secret (``$MEMVAULT_SERVER_KEY`` or a key file). It is
  never used directly: HKDF-SHA256 derives from it one key per purpose (the registry's
  database key, the key that wraps tenant keys), so no key serves two purposes.
- **A tenant's vault key** is random (256 bits), kept in the registry encrypted with
  AES-256-GCM under the wrapping key, with the tenant's owner id as associated data (a wrapped
  key moved to another tenant's row does not open). Erasing the tenant deletes it, so every
  copy of its vault file anywhere (a backup, a block the disk remapped) becomes unreadable.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Final

from memvault.errors import InvalidInput, VaultError

if TYPE_CHECKING:
    from memvault.store.serverkey import ServerKey as StoreKey

__all__ = [
    "API_KEY_PREFIX",
    "SERVER_KEY_ENV",
    "SERVER_KEY_FILE_ENV",
    "ServerKey",
    "key_hash",
    "new_api_key",
    "new_token_id",
    "new_vault_key",
    "resolve_server_key",
    "same_key",
]

API_KEY_PREFIX: Final = "mvk_"
SERVER_KEY_ENV: Final = "MEMVAULT_SERVER_KEY"
SERVER_KEY_FILE_ENV: Final = "MEMVAULT_SERVER_KEY_FILE"
#: The shortest server key accepted: 32 characters (e.g. ``openssl rand -hex 32`` gives 64).
#: HKDF does not stretch a weak secret, so a short one is refused rather than used.
MIN_SERVER_KEY: Final = 32
_REGISTRY_INFO: Final = b"memvault server registry key v1"
_WRAP_INFO: Final = b"memvault tenant key wrapping v1"


def new_api_key() -> str:
    """A new API key: ``mvk_`` and 256 random bits, base64url."""
    return API_KEY_PREFIX + secrets.token_urlsafe(32)


def key_hash(api_key: str) -> str:
    """What the registry stores of an API key: its SHA-256, hex."""
    return hashlib.sha256(api_key.encode("utf-8")).hexdigest()


def same_key(given: str, expected: str) -> bool:
    """Whether two keys are equal, compared in constant time (their hashes are)."""
    return hmac.compare_digest(key_hash(given), key_hash(expected))


def new_token_id() -> str:
    """A token's public id (it names the token in lists and logs; it opens nothing)."""
    return "tok_" + secrets.token_hex(8)


def new_vault_key() -> str:
    """A tenant vault's passphrase: 256 random bits, base64url."""
    return secrets.token_urlsafe(32)


def _hkdf(secret: bytes, info: bytes) -> bytes:
    # `cryptography` loads only where a server key is used (not for a personal vault's token).
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)


class ServerKey:
    """The operator's server key and the keys derived from it."""

    def __init__(self, secret: str | bytes) -> None:
        raw = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
        raw = raw.strip()
        if len(raw) < MIN_SERVER_KEY:
            raise InvalidInput(
                f"the server key must be at least {MIN_SERVER_KEY} characters of random data "
                "(e.g. `openssl rand -hex 32`); it encrypts every tenant's vault key",
                "server_key",
            )
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self._registry = _hkdf(raw, _REGISTRY_INFO)
        self._wrap = AESGCM(_hkdf(raw, _WRAP_INFO))
        # What a PostgreSQL store seals its secrets with: derived from the same secret as
        # `memvault.store.serverkey` derives it from $MEMVAULT_SERVER_KEY, so a command run
        # with that key on a tenant's store reads what the server wrote.
        from memvault.store.serverkey import ServerKey as StoreKey

        self._store = StoreKey(raw)

    @property
    def registry_key(self) -> bytes:
        """The registry database's raw 256-bit key."""
        return self._registry

    @property
    def store_key(self) -> StoreKey:
        """The key a PostgreSQL store of a tenant seals its secrets with."""
        return self._store

    def wrap(self, vault_key: str, owner_id: str) -> bytes:
        nonce = os.urandom(12)
        return nonce + self._wrap.encrypt(nonce, vault_key.encode("ascii"), owner_id.encode())

    def unwrap(self, wrapped: bytes, owner_id: str) -> str:
        from cryptography.exceptions import InvalidTag

        try:
            plain = self._wrap.decrypt(wrapped[:12], wrapped[12:], owner_id.encode())
        except InvalidTag:
            raise VaultError(
                f"the key of tenant vault {owner_id} does not decrypt under this server key "
                "(the registry was altered or belongs to another server key)"
            ) from None
        return plain.decode("ascii")


def resolve_server_key(
    server_key: str | bytes | None = None, key_file: Path | str | None = None
) -> ServerKey:
    """The server key from the first source that has one: the argument, the first line of
    `key_file`, ``$MEMVAULT_SERVER_KEY_FILE``'s first line, ``$MEMVAULT_SERVER_KEY``.
    InvalidInput (field "server_key", a usage error) when there is none."""
    if server_key:
        return ServerKey(server_key)
    path = key_file if key_file is not None else os.environ.get(SERVER_KEY_FILE_ENV) or None
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise InvalidInput(
                f"cannot read the server key file {path}: {reason or exc}", "server_key"
            ) from None
        return ServerKey(text.splitlines()[0] if text else "")
    from_env = os.environ.get(SERVER_KEY_ENV)
    if from_env:
        return ServerKey(from_env)
    raise InvalidInput(
        "no server key: a server home's registry and tenant vaults are encrypted with it. "
        f"Set {SERVER_KEY_ENV}, or {SERVER_KEY_FILE_ENV} (or --server-key-file) to a file "
        "holding it (make one with `openssl rand -hex 32`)",
        "server_key",
    )
