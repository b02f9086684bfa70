"""age-encrypted files (PAM §21.1: "Encrypt PAM files at rest"), with `pyrage`.

What memvault writes opens with the standard `age` command-line tool and the reverse:
``age -d file.age`` (passphrase) or ``age -d -i key.txt file.age`` (an X25519 identity).

- `encrypt(data, passphrase=… | recipients=[…])`: a binary age file (``armor=True`` for the
  PEM-like ASCII form). Recipients are ``age1…`` X25519 public keys.
- `decrypt(data, passphrase=… | identities=[…])`: the plaintext; a wrong passphrase or a file
  for other identities raises `AgeDecryptError` with a message for users.
- `is_age(head)`: whether bytes start like an age file (binary ``age-encryption.org/v1`` or
  armored ``-----BEGIN AGE ENCRYPTED FILE-----``).

Passphrase files use scrypt, which age tunes to take about a second: decrypting one costs
that much CPU on purpose.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

import pyrage  # type: ignore[import-untyped]  # no type information published

from memvault.atomic import write_atomic
from memvault.crypto import AGE_PASSPHRASE_ENV
from memvault.errors import HTTP_UNPROCESSABLE, VaultError

__all__ = [
    "AGE_PASSPHRASE_ENV",
    "ARMOR_HEADER",
    "BINARY_HEADER",
    "AgeDecryptError",
    "AgeError",
    "decrypt",
    "decrypted_path",
    "encrypt",
    "encryptor",
    "generate_identity",
    "is_age",
    "naming",
    "needs_passphrase",
    "write_encrypted",
]

BINARY_HEADER: Final = b"age-encryption.org/v1\n"
ARMOR_HEADER: Final = b"-----BEGIN AGE ENCRYPTED FILE-----"


class AgeError(VaultError, ValueError):
    """Encryption or decryption with age failed; the message says why."""

    http_status = HTTP_UNPROCESSABLE


class AgeDecryptError(AgeError):
    """The file cannot be decrypted: a wrong passphrase, other identities, or damaged data."""


def is_age(head: bytes) -> bool:
    """Whether `head` (the first bytes of a file, 64 are plenty) starts an age file."""
    stripped = head.lstrip(b" \t\r\n")
    return head.startswith(BINARY_HEADER) or stripped.startswith(ARMOR_HEADER)


def needs_passphrase(data: bytes) -> bool:
    """Whether an age file is passphrase-encrypted (an scrypt stanza) rather than encrypted to
    recipients. Reads the header only; armored files are de-armored first."""
    return b"\n-> scrypt " in _header(data)


def _header(data: bytes) -> bytes:
    """An age file's header (up to its MAC line), de-armored; empty when unreadable."""
    head = data[:65536]
    if head.lstrip(b" \t\r\n").startswith(ARMOR_HEADER):
        body = b"".join(
            line.strip()
            for line in head.lstrip(b" \t\r\n").splitlines()[1:]
            if line.strip() and not line.startswith(b"-----")
        )
        try:
            head = base64.b64decode(body[: len(body) // 4 * 4])
        except (binascii.Error, ValueError):
            return b""
    header, _, _ = head.partition(b"\n---")
    return header


def _scrypt_work_factor(data: bytes) -> int | None:
    """The log2 of the scrypt work factor an age passphrase file asks for (its stanza
    ``-> scrypt SALT LOG_N``); None when the file has no well-formed scrypt stanza."""
    for line in _header(data).split(b"\n"):
        parts = line.split(b" ")
        if len(parts) == 4 and parts[:2] == [b"->", b"scrypt"] and parts[3].isdigit():
            return int(parts[3])
    return None


def _recipients(recipients: Sequence[str]) -> list[pyrage.x25519.Recipient]:
    parsed = []
    for text in recipients:
        try:
            parsed.append(pyrage.x25519.Recipient.from_str(text.strip()))
        except pyrage.RecipientError:
            raise AgeError(f"{text!r} is not an age recipient (age1… X25519 public key)") from None
    return parsed


def _identities(identities: Sequence[str]) -> list[pyrage.x25519.Identity]:
    parsed = []
    for text in identities:
        for line in text.splitlines() or [text]:
            line = line.strip()
            if not line or line.startswith("#"):
                continue  # age key files carry comments
            try:
                parsed.append(pyrage.x25519.Identity.from_str(line))
            except pyrage.IdentityError:
                raise AgeError("not an age identity (AGE-SECRET-KEY-1…)") from None
    if not parsed:
        raise AgeError("no age identity given (AGE-SECRET-KEY-1…)")
    return parsed


def encrypt(
    data: bytes,
    *,
    passphrase: str | None = None,
    recipients: Sequence[str] = (),
    armor: bool = False,
) -> bytes:
    """Encrypt `data` to a passphrase or to ``age1…`` recipients (exactly one of the two)."""
    if (passphrase is None) == (not recipients):
        raise AgeError("encrypt to a passphrase or to recipients (one of the two)")
    try:
        if passphrase is not None:
            if not passphrase:
                raise AgeError("the passphrase is empty")
            return bytes(pyrage.passphrase.encrypt(data, passphrase, armored=armor))
        return bytes(pyrage.encrypt(data, _recipients(recipients), armored=armor))
    except pyrage.EncryptError as exc:
        raise AgeError(f"age encryption failed: {exc}") from None


def decrypt(data: bytes, *, passphrase: str | None = None, identities: Sequence[str] = ()) -> bytes:
    """Decrypt an age file with a passphrase or with X25519 identities.

    Raises AgeDecryptError with a message a user can act on (never a traceback).
    """
    if (passphrase is None) == (not identities):
        raise AgeError("decrypt with a passphrase or with identities (one of the two)")
    try:
        if passphrase is not None:
            return _decrypt_with_passphrase(data, passphrase)
        return bytes(pyrage.decrypt(data, _identities(identities)))
    except pyrage.DecryptError as exc:
        detail = str(exc).rstrip(".")
        if passphrase is not None:
            if not needs_passphrase(data):
                raise AgeDecryptError(
                    "cannot decrypt the age file with a passphrase: it is encrypted to "
                    "recipients (give an identity)"
                ) from None
            raise AgeDecryptError(
                f"cannot decrypt the age file: wrong passphrase ({detail})"
            ) from None
        raise AgeDecryptError(
            f"cannot decrypt the age file with the given identities ({detail})"
        ) from None


#: Attempts at a passphrase decryption refused for excessive work (see below).
_WORK_ATTEMPTS: Final = 4
#: The work factor (log2 N) of the small scrypt age times to size this machine, and the
#: lowest it could refuse: it accepts up to 16 times (2^4) what takes a second, and a second
#: is never under that small scrypt's work.
_PROBE_LOG_N: Final = 10
_LOWEST_REFUSED_LOG_N: Final = _PROBE_LOG_N + 4 + 1


def _decrypt_with_passphrase(data: bytes, passphrase: str) -> bytes:
    """pyrage's passphrase decryption, tried again when it refuses the file's work factor.

    age (rage) accepts an scrypt work factor up to 16 times what takes about a second here,
    and measures that second anew at each decryption by timing a tiny scrypt (about a
    millisecond) on the wall clock. On a busy machine the thread may be descheduled during
    that millisecond: the machine looks many times slower than it is, and a file this very
    machine encrypted a moment ago is refused as "excessive work". A new measurement a
    moment later is a fair one, so the refusal is tried again a few times before it is
    believed (then it raises AgeDecryptError saying so).

    pyrage gives every failure as one exception type with an English message, so which
    failure it was is told apart without the message: a refusal comes before the key
    derivation, a wrong passphrase after it, and the derivation the file asks for costs this
    thread far more CPU than the refusal's tiny scrypt (`_refused_before_deriving`)."""
    log_n = _scrypt_work_factor(data)
    for attempt in range(_WORK_ATTEMPTS):
        started = time.thread_time()
        try:
            return bytes(pyrage.passphrase.decrypt(data, passphrase))
        except pyrage.DecryptError as exc:
            spent = time.thread_time() - started
            if not _refused_before_deriving(log_n, spent):
                raise
            if attempt == _WORK_ATTEMPTS - 1:
                raise AgeDecryptError(
                    "cannot decrypt the age file here: its passphrase's key derivation "
                    "(scrypt) asks for more work than this machine accepts now — it was made "
                    "on a much faster machine, or this one is very busy. Try again when it is "
                    "less busy, or decrypt it with the `age` command "
                    f"({str(exc).rstrip('.')})"
                ) from None
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def _refused_before_deriving(log_n: int | None, spent: float) -> bool:
    """Whether a failed passphrase decryption that took `spent` CPU seconds of this thread
    stopped before the scrypt derivation of work factor 2^`log_n`.

    The refusal costs about one scrypt of 2^10 (age's timing probe); the derivation costs
    2^(log_n - 10) of them. The line is drawn at their geometric mean, at least 2^2.5 (5.6
    times) from either for every work factor age can refuse, which is far more than the
    difference between this scrypt and age's own. A work factor age never refuses, or a
    file without a readable scrypt stanza, is never taken for a refusal."""
    if log_n is None or log_n < _LOWEST_REFUSED_LOG_N:
        return False
    probe = _probe_cpu_seconds()
    return bool(spent < probe * 2.0 ** ((log_n - _PROBE_LOG_N) / 2))


@functools.cache
def _probe_cpu_seconds() -> float:
    """This thread's CPU time for one scrypt of 2^10 (r=8, p=1), age's timing probe: the
    least of three, as CPU time is not inflated by descheduling but by cold caches."""
    best = float("inf")
    for _ in range(3):
        started = time.thread_time()
        hashlib.scrypt(b"", salt=b"", n=1 << _PROBE_LOG_N, r=8, p=1, dklen=32)
        best = min(best, time.thread_time() - started)
    return max(best, 1e-6)


def generate_identity() -> tuple[str, str]:
    """A new X25519 identity: (``AGE-SECRET-KEY-1…``, its ``age1…`` recipient)."""
    identity = pyrage.x25519.Identity.generate()
    return str(identity), str(identity.to_public())


def write_encrypted(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    passphrase: str | None = None,
    recipients: Sequence[str] = (),
    armor: bool = False,
) -> Path:
    """Encrypt `data` and write it to `path` atomically (a temporary name in the same
    directory, then rename), with owner-only permissions (0600)."""
    target = Path(path)
    sealed = encrypt(data, passphrase=passphrase, recipients=recipients, armor=armor)
    write_atomic(target, sealed, mode=0o600)
    return target


def encryptor(
    *, passphrase: str | None = None, recipients: Sequence[str] = (), armor: bool = False
) -> Callable[[Path, Path], None]:
    """A function ``(src, dst)`` that writes `src` encrypted to `dst` (0600): for an exporter
    that encrypts its finished file before renaming it into place."""
    if (passphrase is None) == (not recipients):
        raise AgeError("encrypt to a passphrase or to recipients (one of the two)")
    if recipients:
        _recipients(recipients)  # refuse a malformed recipient before any work

    def encrypt_file(src: Path, dst: Path) -> None:
        data = Path(src).read_bytes()
        sealed = encrypt(data, passphrase=passphrase, recipients=recipients, armor=armor)
        fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(sealed)
            handle.flush()
            os.fsync(handle.fileno())

    return encrypt_file


@contextlib.contextmanager
def decrypted_path(
    path: str | os.PathLike[str],
    *,
    passphrase: str | Callable[[], str | None] | None = None,
    identities: Sequence[str] = (),
) -> Iterator[Path | None]:
    """A readable path to the plaintext of an age file, for code that wants a path; None when
    `path` is not an age file. The plaintext lives in an anonymous in-memory file (Linux
    ``memfd``), never on disk, and is gone when the block ends. Raises AgeError (no
    passphrase or identities, or they do not decrypt it)."""
    source = Path(path)
    if not source.is_file():
        yield None
        return
    with source.open("rb") as handle:
        if not is_age(handle.read(64)):
            yield None
            return
    data = source.read_bytes()
    try:
        if needs_passphrase(data):
            given = passphrase() if callable(passphrase) else passphrase
            if not given:
                raise AgeError(f"{source} is encrypted with an age passphrase; none was given")
            plain = decrypt(data, passphrase=given)
        else:
            if not identities:
                raise AgeError(f"{source} is encrypted with age to recipients; no identity given")
            plain = decrypt(data, identities=identities)
    except AgeDecryptError as exc:
        raise AgeDecryptError(naming(source, str(exc))) from None
    del data
    fd = os.memfd_create("memvault-age", 0)
    try:
        _write_all(fd, plain)
        yield Path(f"/proc/self/fd/{fd}")
    finally:
        os.close(fd)


def naming(path: str | os.PathLike[str], why: str) -> str:
    """A decryption failure's message (`AgeDecryptError`'s words, or any reason) that names
    the file it is about: "cannot decrypt brain.aimem.json.age: wrong passphrase (…)"."""
    if "the age file" in why:
        return why.replace("the age file", str(path), 1)
    return f"{path} could not be decrypted: {why}"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[: 1 << 24])
        view = view[written:]
