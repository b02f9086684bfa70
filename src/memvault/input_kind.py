"""What an import reads: a PAM document or export, an AIMEM bundle, or one or more provider
exports — decided here, once, for every front end (`memvault import`, `convert`, later the
server).

The order is the rule: a document that declares itself is read as what it declares, whatever
else it holds, and content sniffing is only for documents that declare nothing.

1. ``--from pam`` / ``--from aimem`` / ``--from PROVIDER``: what the user says.
2. An AIMEM bundle, recognized by its envelope (`formats.aimem.reader.is_envelope`): its
   ``format``, or most of the §2.1 members when ``format`` is wrong or missing — so the
   bundle's validator, not a "not PAM" message, says what is wrong with it.
3. A PAM document (a JSON object whose top-level ``schema`` is ``portable-ai-memory…``,
   wherever that member stands) or a PAM export (a folder or zip with ``memory-store.json``).
   Memories that came from a provider keep the provider's fields in their metadata; such a
   document must never be taken for that provider's export, or its signature would go
   unverified.
4. The provider importers' `sniff`. A folder or zip with several providers' exports, each in
   its own top-level folder, is several parts, imported together (docs/decisions.md); several
   providers mixed in one folder are refused, naming what was found.
5. Nothing recognized: the PAM reader reads it and says what it cannot read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, Literal

import ijson

from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.findings import Finding
from memvault.formats.pam import STORE_FILE
from memvault.importers.base import Importer
from memvault.importers.detect import DetectionError, importers, load
from memvault.sources import AgePassphrase, SourceError, Target, open_target

if TYPE_CHECKING:
    from memvault.formats.aimem.container import LocatedBundle

__all__ = [
    "FORMAT_NAMES",
    "InputKind",
    "InputKindError",
    "ProviderPart",
    "classify",
    "declares_pam",
    "provider_parts",
]

Kind = Literal["pam", "aimem", "provider"]
#: `--from` names that are interchange formats rather than providers.
FORMAT_NAMES: Final = ("pam", "aimem")
_PAM_SCHEMA: Final = "portable-ai-memory"
_BOM: Final = b"\xef\xbb\xbf"


class InputKindError(VaultError):
    """The input cannot be read as anything memvault imports, or not as what was asked.
    `findings` name what is wrong when the input is a zip whose bundle cannot be chosen."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, message: str, findings: Sequence[Finding] = ()) -> None:
        super().__init__(message)
        self.findings = list(findings)


@dataclass(frozen=True, slots=True)
class ProviderPart:
    """One provider's export inside what the user named: `root` is its folder ('' for the
    whole target), `target` the entries under it, named relative to it."""

    importer: Importer
    root: str
    target: Target

    @property
    def provider(self) -> str:
        return self.importer.id.provider


@dataclass(frozen=True, slots=True)
class InputKind:
    """The decision. `declared`: the document said what it is (PAM `schema`, AIMEM `format`
    or envelope) or the user did (`--from`); `bundle` for AIMEM; `providers` (importer
    names, one per part) for provider exports."""

    kind: Kind
    declared: bool = False
    bundle: LocatedBundle | None = None
    providers: tuple[str, ...] = ()


def classify(
    path: str | Path,
    *,
    forced: str | None = None,
    age_passphrase: AgePassphrase = None,
    age_identities: Sequence[str] = (),
) -> InputKind:
    """What `path` is (see the module docstring). Raises `InputKindError` for an unknown
    `forced` name, ``--from aimem`` on something holding no bundle, several providers'
    exports that cannot be told apart, or a zip whose bundle cannot be chosen (with its
    findings); `SourceError` for an archive refused before anything is read."""
    if forced is not None:
        return _forced(path, forced.lower(), age_passphrase, age_identities)
    from memvault.formats.aimem.container import locate_bundle
    from memvault.formats.aimem.errors import BundleError

    identities = list(age_identities)
    try:
        bundle = locate_bundle(path, age_passphrase=age_passphrase, age_identities=identities)
    except BundleError as exc:
        findings = [p.to_finding() for p in exc.problems]
        raise InputKindError(f"{path} was not imported: {exc}", findings) from None
    if bundle is not None:
        return InputKind("aimem", declared=True, bundle=bundle)
    try:
        target = open_target(path, age_passphrase=age_passphrase, age_identities=identities)
    except SourceError as exc:
        if exc.code.startswith(("zip", "bad-zip")):
            raise
        return InputKind("pam")  # the PAM reader says why it cannot be read
    with target:
        if declares_pam(target):
            return InputKind("pam", declared=True)
        parts = provider_parts(target)
    if not parts:
        return InputKind("pam")
    return InputKind("provider", providers=tuple(p.provider for p in parts))


def _forced(
    path: str | Path, name: str, age_passphrase: AgePassphrase, identities: Sequence[str]
) -> InputKind:
    if name == "pam":
        return InputKind("pam", declared=True)
    if name == "aimem":
        bundle = _forced_bundle(path, age_passphrase, identities)
        return InputKind("aimem", declared=True, bundle=bundle)
    try:
        importer = load(name)
    except DetectionError as exc:
        raise InputKindError(f"{exc}; or pam, aimem for the interchange formats") from None
    return InputKind("provider", declared=True, providers=(importer.id.provider,))


def _forced_bundle(
    path: str | Path, age_passphrase: AgePassphrase, identities: Sequence[str]
) -> LocatedBundle:
    """``--from aimem``: the bundle found in `path` (an age file is decrypted, whatever its
    name); a plain file that does not look like one is still read as one, so the bundle
    validator names what it lacks."""
    from memvault.formats.aimem.container import LocatedBundle, is_age_file, locate_bundle
    from memvault.formats.aimem.errors import BundleError
    from memvault.formats.aimem.reader import detect_form

    try:
        found = locate_bundle(
            path, age_passphrase=age_passphrase, age_identities=list(identities), decrypt=True
        )
    except BundleError as exc:
        findings = [p.to_finding() for p in exc.problems]
        raise InputKindError(f"{path} was not imported: {exc}", findings) from None
    if found is not None:
        return found
    p = Path(path)
    if p.is_dir():
        raise InputKindError(
            f"{path} is a folder; --from aimem reads a bundle file (or an age file or zip of one)"
        )
    if not p.is_file():
        raise InputKindError(f"{path}: no such file (--from aimem reads a bundle file)")
    if is_age_file(p) or _is_zip(p):
        raise InputKindError(f"{path} holds no AIMEM bundle (--from aimem)")
    with p.open("rb") as handle:
        form = detect_form(handle.read(1 << 16)) or "json"
    return LocatedBundle(p, str(p), form)


def _is_zip(path: Path) -> bool:
    import zipfile

    return zipfile.is_zipfile(path)


# -- PAM: the document declares itself -------------------------------------------------------


def declares_pam(target: Target) -> bool:
    """A PAM export (``memory-store.json`` in a folder or zip), or one file that is a JSON
    object whose top-level ``schema`` names ``portable-ai-memory``. The whole top level is
    read (the member may come last, as in canonical JSON), value by value, never held."""
    if target.kind != "file":
        return any(e.name.rsplit("/", 1)[-1] == STORE_FILE for e in target.entries)
    try:
        with target.entries[0].stream() as stream:
            return _schema_declared(_without_bom(stream))
    except (SourceError, OSError):
        return False


def _schema_declared(stream: IO[bytes]) -> bool:
    depth = 0
    want_schema = False
    try:
        for event, value in ijson.basic_parse(stream):
            if want_schema:
                return isinstance(value, str) and value.startswith(_PAM_SCHEMA)
            if event in ("start_map", "start_array"):
                if depth == 0 and event == "start_array":
                    return False
                depth += 1
            elif event in ("end_map", "end_array"):
                depth -= 1
                if depth == 0:
                    return False
            elif depth == 1 and event == "map_key" and value == "schema":
                want_schema = True
            elif depth == 0:
                return False  # a scalar document
    except (ijson.JSONError, ValueError, OSError, RecursionError):
        return False
    return False


class _SkipBom:
    """A read-only stream past a leading UTF-8 byte order mark (ijson would refuse it)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._head = stream.read(len(_BOM))
        if self._head == _BOM:
            self._head = b""

    def read(self, size: int = -1) -> bytes:
        if size == 0:
            return b""  # ijson asks read(0) to learn whether the stream gives bytes
        if self._head:
            head, self._head = self._head, b""
            if size is None or size < 0:
                return head + self._stream.read()
            return head + self._stream.read(max(0, size - len(head)))
        return self._stream.read(size)


def _without_bom(stream: IO[bytes]) -> Any:
    return _SkipBom(stream)


# -- providers --------------------------------------------------------------------------------


def provider_parts(target: Target) -> list[ProviderPart]:
    """The provider exports in `target`: one part (the whole target) when one provider's
    sniff recognizes it; one part per top-level folder when several do and each folder is
    one provider's export; [] when none does. Raises `InputKindError` naming the providers
    when several are found and cannot be told apart (mixed in one folder)."""
    found = [importer for _name, importer in importers() if importer.sniff(target)]
    if not found:
        return []
    if len(found) == 1 or target.kind == "file":
        return [ProviderPart(found[0], "", target)]
    parts: list[ProviderPart] = []
    mixed: list[str] = []
    for root, sub in _folders(target):
        here = [importer for importer in found if importer.sniff(sub)]
        if len(here) > 1:
            mixed.append(f"{root or 'the top folder'} ({', '.join(_names(here))})")
        elif here:
            parts.append(ProviderPart(here[0], root, sub))
    covered = {p.provider for p in parts}
    if mixed or covered != {i.id.provider for i in found}:
        where = "; ".join(mixed) if mixed else "the same files"
        raise InputKindError(
            f"{target.path} holds exports of several providers ({', '.join(_names(found))}) "
            f"that cannot be told apart: {where}. Put each provider's export in its own "
            "folder, or name one with --from PROVIDER"
        )
    return parts


def _names(found: Sequence[Importer]) -> list[str]:
    return [i.id.provider for i in found]


def _folders(target: Target) -> Iterator[tuple[str, Target]]:
    """The target split by top-level folder (files at the top are one more group, ''), each
    group's entries renamed relative to its folder. The groups share the target's archive,
    which stays open (and is closed) with the target."""
    groups: dict[str, list[Any]] = {}
    for entry in target.entries:
        root, sep, rest = entry.name.partition("/")
        if sep:
            groups.setdefault(root, []).append(replace(entry, name=rest))
        else:
            groups.setdefault("", []).append(entry)
    for root, entries in sorted(groups.items()):
        yield root, Target(target.path, target.kind, entries, target._zip, target.encryption)
