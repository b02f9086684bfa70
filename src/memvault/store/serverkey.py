"""The server key: what a PostgreSQL store encrypts its secrets with (private signing keys).

A database server keeps rows in plaintext (it must, to search them), so secrets are encrypted
by the application before they are written, with a 256-bit key the operator gives in
``$MEMVAULT_SERVER_KEY`` (64 hex digits, or 32 bytes in base64) or in a file named by
``$MEMVAULT_SERVER_KEY_FILE`` (the same text). AES-256-GCM; the tenant and the row's key are
the associated data, so a ciphertext copied to another tenant's row or another key's row does
not open. docs/postgres.md, "Server key".
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from pathlib import Path
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from memvault.store.base import StoreError

__all__ = ["SERVER_KEY_ENV", "SERVER_KEY_FILE_ENV", "ServerKey"]

SERVER_KEY_ENV: Final = "MEMVAULT_SERVER_KEY"
SERVER_KEY_FILE_ENV: Final = "MEMVAULT_SERVER_KEY_FILE"
#: The first bytes of every ciphertext: the format's version (a new key scheme is a new tag).
_TAG: Final = b"mvk1"
_NONCE: Final = 12


class ServerKey:
    """A 32-byte AES-256-GCM key bound to nothing but itself; `seal`/`open` take the context."""

    __slots__ = ("_aead",)

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise StoreError(f"a server key is 32 bytes (256 bits), not {len(key)}")
        self._aead = AESGCM(key)

    @classmethod
    def parse(cls, text: str, source: str) -> ServerKey:
        """64 hex digits or base64 of 32 bytes; StoreError naming `source` otherwise."""
        text = text.strip()
        try:
            raw = bytes.fromhex(text) if len(text) == 64 else base64.b64decode(text, validate=True)
        except (ValueError, binascii.Error):
            raw = b""
        if len(raw) != 32:
            raise StoreError(
                f"{source}: a server key is 64 hex digits or the base64 of 32 bytes "
                "(make one with `python -c 'import secrets; print(secrets.token_hex(32))'`)"
            )
        return cls(raw)

    @classmethod
    def from_environment(cls) -> ServerKey | None:
        """The key in ``$MEMVAULT_SERVER_KEY``, else in the file ``$MEMVAULT_SERVER_KEY_FILE``,
        else None."""
        text = os.environ.get(SERVER_KEY_ENV)
        if text:
            return cls.parse(text, SERVER_KEY_ENV)
        path = os.environ.get(SERVER_KEY_FILE_ENV)
        if path:
            try:
                content = Path(path).read_text(encoding="ascii")
            except (OSError, UnicodeDecodeError) as exc:
                raise StoreError(f"cannot read the server key file {path}: {exc}") from None
            return cls.parse(content, f"the server key file {path}")
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
