"""Reads a vault's database file the way someone holding the passphrase could, page by page,
bypassing SQLite: decrypts every page of the file (SQLCipher 4 layout) and every frame of its
write-ahead log, so a test can tell whether bytes of an erased memory are still recoverable
anywhere — free pages, unused cell space, stale full-text segments, old log frames.

SQLCipher 4: the first 16 bytes of the file are the KDF salt; the key is PBKDF2-HMAC-SHA512
(passphrase, salt, kdf_iter) → 32 bytes; each page ends in a reserve of a 16-byte IV and the
page HMAC (rounded to the AES block); the rest is AES-256-CBC (page 1 after the salt).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

_HMAC_BYTES = {"HMAC_SHA256": 32, "HMAC_SHA512": 64}
_WAL_HEADER = 32
_FRAME_HEADER = 24


def _reserve(hmac: str) -> int:
    size = 16 + _HMAC_BYTES[hmac]
    return (size + 15) // 16 * 16


def _decrypt(page: bytes, key: bytes, reserve: int, first: bool) -> bytes:
    body_start = 16 if first else 0
    end = len(page) - reserve
    iv = page[end : end + 16]
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return decryptor.update(page[body_start:end]) + decryptor.finalize()


def decrypted_pages(db: Path, passphrase: str) -> list[bytes]:
    """Every page of `db` and of `db`-wal, decrypted (whatever SQLite thinks of them)."""
    params = json.loads(db.with_name(db.stem + ".params.json").read_text())
    page_size = int(params["cipher_page_size"])
    hmac = params.get("cipher_hmac_algorithm", "HMAC_SHA512")
    raw = db.read_bytes()
    key = hashlib.pbkdf2_hmac("sha512", passphrase.encode(), raw[:16], int(params["kdf_iter"]), 32)
    reserve = _reserve(hmac)
    pages = [
        _decrypt(raw[at : at + page_size], key, reserve, at == 0)
        for at in range(0, len(raw) - page_size + 1, page_size)
    ]
    wal = db.with_name(db.name + "-wal")
    if wal.exists():
        log = wal.read_bytes()
        frame = _FRAME_HEADER + page_size
        for at in range(_WAL_HEADER, len(log) - frame + 1, frame):
            number = int.from_bytes(log[at : at + 4], "big")
            page = log[at + _FRAME_HEADER : at + frame]
            pages.append(_decrypt(page, key, reserve, number == 1))
    return pages


def recoverable(db: Path, passphrase: str, needle: bytes) -> int:
    """How many decrypted pages (file and log) contain `needle`."""
    return sum(1 for page in decrypted_pages(db, passphrase) if needle in page)


def row_slices(row: bytes, others: list[bytes], size: int = 24, step: int = 12) -> list[bytes]:
    """Pieces of a stored row's exact bytes, to look for in the decrypted pages: a row longer
    than a page is split across overflow pages, so the whole row is never one needle, but
    each piece lies whole in one page. Pieces that any of `others` (the bytes of rows that
    stay) also holds are left out, and so are pieces of too few distinct bytes (a run of
    zeros in a vector is in every page), so finding one means a copy of this row."""
    pieces = {row[at : at + size] for at in range(0, max(len(row) - size, 0) + 1, step)}
    return sorted(
        p
        for p in pieces
        if len(p) == size and len(set(p)) >= _DISTINCT and not any(p in o for o in others)
    )


#: The fewest distinct byte values a piece needs to be evidence of one row.
_DISTINCT = 8


def found_slices(db: Path, passphrase: str, pieces: list[bytes]) -> list[bytes]:
    """The pieces found in some decrypted page of `db` or its log."""
    # One text to search: a piece matching across the separator would be a false alarm,
    # never a miss.
    text = _SEPARATOR.join(decrypted_pages(db, passphrase))
    return [p for p in pieces if p in text]


_SEPARATOR = b"\x00\xa5page\xa5\x00"
