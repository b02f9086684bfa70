"""The server key: what a PostgreSQL store encrypts its secrets with (private signing keys).

A database server keeps rows in plaintext (it must, to search them), so secrets are encrypted
by the application before they are written. The operator's server key — the same one a server
home uses (`memvault.tenancy.keys`, the same rules): the first line of the file named by
``$MEMVAULT_SERVER_KEY_FILE``, else ``$MEMVAULT_SERVER_KEY``; at least 32 characters of random
data (``openssl rand -hex 32``) — is never used directly: HKDF-SHA256 derives this purpose's
key from it, so no key serves two purposes. AES-256-GCM; the tenant and the row's key are the
associated data, so a ciphertext copied to another tenant's row or another key's row does not
open. docs/postgres.md, "Secrets: the server key".
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from memvault.store.base import StoreError

__all__ = ["SERVER_KEY_ENV", "SERVER_KEY_FILE_ENV", "ServerKey"]

SERVER_KEY_ENV: Final = "MEMVAULT_SERVER_KEY"
SERVER_KEY_FILE_ENV: Final = "MEMVAULT_SERVER_KEY_FILE"
#: The first bytes of every ciphertext: the format's version (a new key scheme is a new tag).
_TAG: Final = b"mvk1"
_NONCE: Final = 12
#: The shortest server key accepted (as for a server home): HKDF does not stretch a weak secret.
MIN_SERVER_KEY: Final = 32
#: HKDF's info for this purpose (a server home derives its own keys with other infos).
_INFO: Final = b"memvault postgres secrets v1"


class ServerKey:
    """The key derived from the operator's server key for sealing a store's secrets."""

    __slots__ = ("_aead",)

    def __init__(self, secret: bytes) -> None:
        raw = bytes(secret).strip()
        if len(raw) < MIN_SERVER_KEY:
            raise StoreError(
                f"the server key must be at least {MIN_SERVER_KEY} characters of random data "
                "(e.g. `openssl rand -hex 32`)"
            )
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(raw)
        self._aead = AESGCM(derived)

    @classmethod
    def parse(cls, text: str, source: str) -> ServerKey:
        """The server key `text` (StoreError naming `source` when it is too short)."""
        try:
            return cls(text.encode("utf-8"))
        except StoreError as exc:
            raise StoreError(f"{source}: {exc}") from None

    @classmethod
    def from_environment(cls) -> ServerKey | None:
        """The key in the first line of ``$MEMVAULT_SERVER_KEY_FILE``, else in
        ``$MEMVAULT_SERVER_KEY``, else None (the order a server home reads them in)."""
        path = os.environ.get(SERVER_KEY_FILE_ENV)
        if path:
            try:
                content = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise StoreError(f"cannot read the server key file {path}: {exc}") from None
            first = content.splitlines()[0] if content else ""
            return cls.parse(first, f"the server key file {path}")
        text = os.environ.get(SERVER_KEY_ENV)
        if text:
            return cls.parse(text, SERVER_KEY_ENV)
        return None

    def seal(self, plaintext: bytes, context: str) -> bytes:
        nonce = secrets.token_bytes(_NONCE)
        return _TAG + nonce + self._aead.encrypt(nonce, plaintext, context.encode())

    def open(self, sealed: bytes, context: str) -> bytes:
        if not sealed.startswith(_TAG) or len(sealed) < len(_TAG) + _NONCE + 16:
            raise StoreError(f"{context}: the stored secret is not sealed with a server key")
        body = sealed[len(_TAG) :]
        try:
            return self._aead.decrypt(body[:_NONCE], body[_NONCE:], context.encode())
        except InvalidTag:
            raise StoreError(
                f"{context}: the server key does not open this secret (a different key from "
                f"the one it was written with? see {SERVER_KEY_ENV})"
            ) from None
