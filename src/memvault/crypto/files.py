"""Signing a file in place: a PAM memory-store, an export directory or zip (PAM §18), or an
AIMEM bundle (§5.3, a detached signature beside it).

    signed = sign_file(Path("export.zip"), key)                   # the store inside is signed
    signed = sign_file(Path("brain.aimem.json"), key)             # brain.aimem.json.sig

A PAM document gets its top-level `signature` member (every other byte is kept); a zip is
rewritten member by member with the memory-store replaced. Every file is written under a
temporary name and renamed, so a failure leaves the input as it was.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from memvault.atomic import replace_file
from memvault.formats.pam import STORE_FILE
from memvault.sources import SourceError, open_target

if TYPE_CHECKING:
    from memvault.crypto.keys import SigningKey

__all__ = ["SignedFile", "sign_file"]


@dataclass(frozen=True, slots=True)
class SignedFile:
    """What `sign_file` wrote. `path`: the file signed (PAM: the output, else the input);
    `signature`: the PAM §18.1 block written; `signature_file`: an AIMEM bundle's detached
    COSE_Sign1."""

    path: Path
    format: Literal["pam", "aimem"]
    algorithm: str
    key_id: str
    signature: dict[str, Any] | None = None
    signature_file: Path | None = None


def sign_file(
    file: Path,
    key: SigningKey | Callable[[], SigningKey],
    *,
    output: Path | None = None,
    signed_at: str | None = None,
) -> SignedFile:
    """Sign `file` with `key` (or the key a function returns, asked only once the input is
    known to be signable: opening a vault for it can wait): a PAM memory-store, export
    directory (signed in place) or zip (`output`: write the signed copy there instead), or an
    AIMEM bundle (`output`: where its signature goes, else ``<bundle-name>.sig``).
    `signed_at` (PAM only): the signature's time. Raises SourceError for an input that cannot
    be signed as asked (exit 2 in the CLI), SigningError for a document that cannot be signed,
    BundleError, OSError."""
    from memvault.formats.aimem import sniff

    if not file.exists():
        raise SourceError(str(file), "no such file or directory")
    if file.is_file() and sniff(file) is not None:
        if signed_at is not None:
            raise SourceError(
                str(file), "--signed-at is for PAM documents; an AIMEM signature (§5.3) has no time"
            )
        return _sign_bundle(file, key if not callable(key) else key(), output)
    block = _sign_pam(file, output, key if not callable(key) else key(), signed_at)
    return SignedFile(output or file, "pam", block["algorithm"], block["key_id"], signature=block)


def _sign_bundle(file: Path, key: SigningKey, output: Path | None) -> SignedFile:
    """AIMEM §5.3: ``<bundle-name>.sig`` (or `output`), a detached COSE_Sign1."""
    from memvault.formats.aimem.cose import ALGORITHMS, sign_bundle

    if key.algorithm not in ALGORITHMS:
        raise SourceError(
            str(file),
            f"AIMEM bundles are signed with Ed25519 (EdDSA) or ES256 keys (AIMEM §5.3); key "
            f"{key.key_id} is {key.algorithm}: choose another with --key",
            code="unsuitable-key",
        )
    written = sign_bundle(file, key, sig_path=output)
    return SignedFile(file, "aimem", key.algorithm, key.key_id, signature_file=written)


def _sign_pam(
    file: Path, output: Path | None, key: SigningKey, signed_at: str | None
) -> dict[str, Any]:
    if file.is_dir():
        store = file / STORE_FILE
        if not store.is_file():
            raise SourceError(str(file), f"no {STORE_FILE} in this directory (PAM §2)")
        if output is not None:
            raise SourceError(
                str(file), "a directory is signed in place; drop -o (or copy the directory first)"
            )
        return _sign_store(store, store, key, signed_at)
    with file.open("rb") as handle:
        head = handle.read(64)
    from memvault.crypto.agefile import is_age

    if is_age(head):
        raise SourceError(
            str(file),
            "the file is age-encrypted; decrypt it (age -d), sign, then encrypt it "
            "again — or sign when exporting (memvault export --sign --encrypt)",
        )
    if zipfile.is_zipfile(file):
        return _sign_zip(file, output or file, key, signed_at)
    return _sign_store(file, output or file, key, signed_at)


def _sign_store(
    source: Path, target: Path, key: SigningKey, signed_at: str | None
) -> dict[str, Any]:
    from memvault.crypto.signing import sign_buffer

    with open_target(source) as opened:
        entry = opened.entries[0]
        with entry.open() as buf:
            blocks: list[dict[str, Any]] = []
            replace_file(
                target,
                lambda out: blocks.append(
                    sign_buffer(buf, key, out, file=entry.display, signed_at=signed_at)
                ),
                like=source,
            )
    return blocks[0]


def _sign_zip(source: Path, target: Path, key: SigningKey, signed_at: str | None) -> dict[str, Any]:
    """The zip again, member by member, the memory-store signed on the way."""
    from memvault.crypto.signing import sign_buffer

    with open_target(source) as opened, zipfile.ZipFile(source) as archive:
        entry = opened.find(STORE_FILE)
        if entry is None or entry.archive_name is None:
            raise SourceError(str(source), f"no {STORE_FILE} in this zip (PAM §2)")
        store_name = entry.archive_name
        blocks: list[dict[str, Any]] = []

        def write(out: IO[bytes]) -> None:
            with zipfile.ZipFile(out, "w") as new:
                for info in archive.infolist():
                    big = info.file_size > (1 << 31)
                    with new.open(_clone(info), "w", force_zip64=big) as member:
                        if info.filename == store_name:
                            with entry.open() as buf:
                                blocks.append(
                                    sign_buffer(
                                        buf, key, member, file=entry.display, signed_at=signed_at
                                    )
                                )
                            continue
                        with archive.open(info) as src:
                            while chunk := src.read(1 << 20):
                                member.write(chunk)

        replace_file(target, write, like=source)
    return blocks[0]


def _clone(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    copy.compress_type = info.compress_type
    copy.external_attr = info.external_attr
    copy.comment = info.comment
    return copy
