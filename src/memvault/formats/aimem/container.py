"""Find an AIMEM bundle in what a user names: the bundle file itself, an age-encrypted file
(decrypted in memory, never to disk, as `memvault.sources` does for PAM), or a zip archive
holding one bundle.

    found = locate_bundle(path, age_passphrase="…")   # None: not a bundle (PAM, provider…)
    with open_bundle(found.stream()) as reader: …

A zip that holds a PAM export (`memory-store.json`) is PAM's; a zip holding two bundles is
refused with their names (import or validate them one at a time). The §5.3 signature is the
sibling ``<bundle-name>.sig``: beside the file (for an age file also beside the name without
``.age``), or the member ``<member>.sig`` inside the zip.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING, Final

from memvault.crypto.agefile import is_age, naming
from memvault.formats.aimem.errors import BundleError, Problem
from memvault.formats.aimem.reader import (
    Form,
    detect_form,
    is_bundle_stream,
    sniff,
    sniff_stream,
    validate_bundle,
)
from memvault.formats.aimem.validate import BundleReport
from memvault.formats.pam import STORE_FILE
from memvault.sources import AgePassphrase, Entry, SourceError, Target, open_target

if TYPE_CHECKING:
    from memvault.crypto.keys import PublicKey
    from memvault.formats.aimem.cose import SignatureCheck

# The signature code (`cose`: pycose, cryptography) is imported where a bundle is found,
# not with this module: every `memvault import` asks `locate_bundle` first, and a provider
# export or a PAM file should not pay ~0.1 s of start-up for it.

__all__ = ["LocatedBundle", "is_age_file", "locate_bundle", "validate_bundle_at"]

#: Zip members worth sniffing: a bundle is JSON or NDJSON text.
_TEXT_SUFFIXES: Final = frozenset({".json", ".ndjson", ".jsonl"})
_BUNDLE_NAMES: Final = (".aimem.json.age", ".ndjson.age", ".jsonl.age")
#: `memvault.sources` codes for an age file it cannot decrypt (nothing to decrypt it with,
#: or a wrong passphrase or identity).
_AGE_FAILURES: Final = frozenset({"age-encrypted", "age-decrypt"})


@dataclass(frozen=True, slots=True)
class LocatedBundle:
    """A bundle and where it was found. `data` is the plaintext held in memory (an age file,
    a zip member); None means the bundle is the file at `path`, read from disk."""

    path: Path
    display: str
    form: Form
    data: bytes | None = None
    #: "age" when the file was decrypted
    encryption: str | None = None
    #: the §5.3 signature: a file, or the bytes of a zip member
    signature_file: Path | None = None
    signature_data: bytes | None = None
    signature_name: str | None = None
    #: a seekable binary stream holding the bundle (an HTTP request body spooled by the
    #: server), read instead of `path` or `data`
    stream: IO[bytes] | None = None

    @classmethod
    def from_stream(
        cls, stream: IO[bytes], display: str, signature: bytes | None = None
    ) -> LocatedBundle:
        """A bundle in a seekable binary stream; `signature` the §5.3 COSE_Sign1 delivered
        with it (the ``AIMEM-Signature`` header over HTTP)."""
        stream.seek(0)
        form = detect_form(stream.read(4096).lstrip(b"\xef\xbb\xbf")) or "json"
        stream.seek(0)
        return cls(
            Path(display),
            display,
            form,
            signature_data=signature,
            signature_name="AIMEM-Signature" if signature is not None else None,
            stream=stream,
        )

    def source(self) -> Path | IO[bytes]:
        """What `open_bundle` reads: the path, or a named stream over the plaintext."""
        if self.stream is not None:
            self.stream.seek(0)
            return self.stream
        if self.data is None:
            return self.path
        stream = io.BytesIO(self.data)
        stream.name = self.display  # problems name the file the user gave (and the member)
        return stream

    @property
    def signed(self) -> bool:
        return self.signature_file is not None or self.signature_data is not None

    @property
    def signature_label(self) -> str:
        """The signature's name for messages (``brain.aimem.json.sig``)."""
        if self.signature_file is not None:
            return self.signature_file.name
        if self.signature_name is not None:
            return self.signature_name
        from memvault.formats.aimem.cose import signature_path

        return signature_path(self.display).name

    def verify_signature(self, public_key: PublicKey | None = None) -> SignatureCheck:
        """§5.3: the detached COSE_Sign1 against the bundle's canonical bytes (``unsigned``
        when there is none). Raises BundleError only for an unreadable bundle."""
        from memvault.formats.aimem.cose import (
            MAX_SIGNATURE_BYTES,
            SignatureCheck,
            bundle_payload,
            verify_bundle_signature,
            verify_payload,
        )

        if (self.data is None and self.stream is None) or self.signature_file is not None:
            return verify_bundle_signature(self.source(), public_key, sig_path=self.signature_file)
        if self.signature_data is None:
            return SignatureCheck("unsigned", f"no signature {self.signature_label}")
        if len(self.signature_data) > MAX_SIGNATURE_BYTES:
            return SignatureCheck(
                "invalid", f"{self.signature_label} is larger than a COSE_Sign1 can be"
            )
        try:
            payload = bundle_payload(self.source())
        except BundleError as exc:
            return SignatureCheck("invalid", f"the bundle does not verify: {exc}")
        check = verify_payload(self.signature_data, payload, public_key)
        return SignatureCheck(
            check.status, check.message, check.algorithm, check.key_id, self.signature_label
        )


def locate_bundle(
    path: str | Path,
    *,
    age_passphrase: AgePassphrase = None,
    age_identities: tuple[str, ...] | list[str] = (),
    decrypt: bool | None = None,
) -> LocatedBundle | None:
    """The AIMEM bundle at `path` (recognized by content), or None when `path` holds none.

    An age file is decrypted to look inside when `decrypt` is True, or (None) when its name
    without ``.age`` is a bundle's (``.aimem.json``, ``.ndjson``, ``.jsonl``): decrypting
    costs a passphrase's key derivation, which an age PAM file should not pay twice. An age
    file to decrypt that cannot be decrypted raises `BundleError` (``age-encrypted``: no
    passphrase or identity; ``age-decrypt``: a wrong one), naming the file and why. Raises
    `BundleError` (``zip-several-bundles``, ``zip-unreadable``) for a zip whose bundle cannot
    be chosen or read.
    """
    p = Path(path)
    if not p.is_file():
        return None
    form = sniff(p)
    if form is not None:
        from memvault.formats.aimem.cose import signature_path

        sig = signature_path(p)
        return LocatedBundle(p, str(p), form, signature_file=sig if sig.is_file() else None)
    if decrypt is None:
        decrypt = p.name.lower().endswith(_BUNDLE_NAMES)
    if not decrypt and is_age_file(p):
        return None
    try:
        target = open_target(p, age_passphrase=age_passphrase, age_identities=age_identities)
    except SourceError as exc:
        if exc.code in _AGE_FAILURES and is_age_file(p):
            # Named (or called) a bundle: say it could not be decrypted, and why, rather
            # than read the ciphertext as a bundle that is "not an object".
            raise BundleError([Problem(exc.code, naming(p, exc.message), file=str(p))]) from None
        return None
    try:
        with target:
            if target.kind == "zip":
                return _in_zip(p, target)
            if target.encryption is None:
                return None  # a plain file that is not a bundle
            return _decrypted(p, target.entries[0], target.encryption)
    except SourceError as exc:
        raise BundleError(
            [Problem("zip-unreadable", exc.message, "", None, None, file=exc.target)]
        ) from None


def is_age_file(path: Path) -> bool:
    """Whether `path` starts like an age file (binary or armored)."""

    try:
        with path.open("rb") as handle:
            return is_age(handle.read(64))
    except OSError:
        return False


def _decrypted(path: Path, entry: Entry, encryption: str | None) -> LocatedBundle | None:
    with entry.open() as buf:
        data = bytes(buf)
    form = sniff_stream(io.BytesIO(data))
    if form is None:
        return None
    # `brain.aimem.json.age` is signed as `brain.aimem.json.sig` (the signature is over the
    # plaintext) or, kept beside the encrypted file, `brain.aimem.json.age.sig`.
    from memvault.formats.aimem.cose import signature_path

    plain = path.with_name(entry.name)
    candidates = [signature_path(plain), signature_path(path)]
    sig = next((c for c in candidates if c.is_file()), None)
    return LocatedBundle(path, str(path), form, data, encryption, signature_file=sig)


def _in_zip(path: Path, target: Target) -> LocatedBundle | None:
    if target.find(STORE_FILE) is not None:
        return None
    found: list[Entry] = []
    for entry in target.entries:
        if PurePosixPath(entry.name).suffix.lower() not in _TEXT_SUFFIXES:
            continue
        with entry.stream() as fh:
            if is_bundle_stream(fh):  # reads up to the top-level `format` member only
                found.append(entry)
    if not found:
        return None
    if len(found) > 1:
        names = ", ".join(e.name for e in found)
        raise BundleError(
            [
                Problem(
                    "zip-several-bundles",
                    f"the zip holds {len(found)} AIMEM bundles ({names}); extract them and "
                    "take one at a time",
                    "",
                    None,
                    None,
                    file=str(path),
                )
            ]
        )
    entry = found[0]
    with entry.open() as buf:
        data = bytes(buf)
    form = detect_form(data[:65536]) or "json"
    sig_entry = target.find(entry.name + ".sig")
    signature = None
    if sig_entry is not None:
        with sig_entry.open() as buf:
            signature = bytes(buf)
    return LocatedBundle(
        path,
        entry.display,
        form,
        data,
        target.encryption,
        signature_data=signature,
        signature_name=None if sig_entry is None else sig_entry.display,
    )


def validate_bundle_at(
    path: str | Path,
    *,
    age_passphrase: AgePassphrase = None,
    age_identities: tuple[str, ...] | list[str] = (),
    decrypt: bool | None = None,
) -> BundleReport | None:
    """`validate_bundle` on the bundle `locate_bundle` finds at `path`; None when there is
    none. A zip whose bundle cannot be chosen is an unreadable report naming what it holds."""
    try:
        found = locate_bundle(
            path, age_passphrase=age_passphrase, age_identities=age_identities, decrypt=decrypt
        )
    except BundleError as exc:
        report = BundleReport(str(path), problems=list(exc.problems), unreadable=True)
        return report
    if found is None:
        return None
    report = validate_bundle(found.source())
    if found.encryption is not None:
        report.facts["encryption"] = found.encryption
    return report
