"""`memvault sign`, `verify`, `keys generate`, `keys list`, `keys export-public`: PAM §17-§18
signatures with keys kept in the vault, and AIMEM §5.3 detached COSE signatures of bundles
(`memvault.formats.aimem.cose`); and the age-passphrase options other commands share.

Exit codes: `verify` 0 verified, 1 not verified (unsigned, or the reason it failed), 2 the file
cannot be read (missing, not a memory-store, an age file without its passphrase). `sign` and
`keys` 0 done, 1 refused, 2 usage.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    JsonOption,
    VaultOptions,
    command_group,
    fail,
    open_vault,
    print_json,
    unset_flag,
    unset_option,
    vault_command,
)
from memvault.crypto import AGE_PASSPHRASE_ENV, ALGORITHMS
from memvault.errors import AmbiguousId
from memvault.formats.pam import STORE_FILE
from memvault.sources import SourceError, open_target
from memvault.store.base import KeyRecord

if TYPE_CHECKING:  # the cryptography libraries are loaded by the commands that use them
    from memvault.crypto.keys import PublicKey, SigningKey
    from memvault.crypto.signing import VerifyResult
    from memvault.vault import Vault

PANEL = "Signatures"


def console() -> Console:
    # emoji=False: Rich would show the ":key:" of "did:key:…" as an emoji.
    return Console(highlight=False, soft_wrap=True, emoji=False)


keys_app = command_group(
    "Signing keys kept in the vault (PAM §18.2): generate, list, export the public part."
)


def register(app: typer.Typer) -> None:
    app.command("sign", rich_help_panel=PANEL)(sign)
    app.command("verify", rich_help_panel=PANEL)(verify)
    app.add_typer(keys_app, name="keys", rich_help_panel=PANEL)


# -- age passphrases, shared with validate / inspect / import / export ------------------------

AgePassphraseFileOption = Annotated[
    Path | None,
    unset_flag(
        "--age-passphrase-file",
        metavar="FILE",
        help="For age-encrypted input (PAM §21.1): read its passphrase from the first line of "
        f"FILE. Default: ${AGE_PASSPHRASE_ENV}, else a hidden prompt when there is a "
        "terminal.",
    ),
]
AgeIdentityOption = Annotated[
    list[Path] | None,
    unset_flag(
        "--age-identity",
        metavar="FILE",
        help="For input encrypted to age recipients: an identity file (AGE-SECRET-KEY-1…, as "
        "written by age-keygen). Repeatable.",
    ),
]


def _first_line(path: Path, what: str) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read the {what} file {path}: {exc.strerror or exc}", EXIT_USAGE)
    except UnicodeDecodeError:
        fail(f"the {what} file {path} is not UTF-8 text", EXIT_USAGE)
    line = text.splitlines()[0] if text else ""
    if not line:
        fail(f"the {what} file {path} is empty (the first line is read)", EXIT_USAGE)
    return line


def _interactive() -> bool:
    try:
        return os.isatty(0)
    except (AttributeError, ValueError, OSError):
        return False


def age_passphrase(passphrase_file: Path | None, *, new: bool = False) -> Callable[[], str | None]:
    """The age passphrase, asked for only when an age file needs one: from `passphrase_file`,
    else ``$MEMVAULT_AGE_PASSPHRASE``, else a hidden prompt (twice when `new`); None when
    there is none and no terminal to ask on. Asked once however many files need it."""
    cache: list[str | None] = []

    def ask() -> str | None:
        if cache:
            return cache[0]
        value: str | None
        if passphrase_file is not None:
            value = _first_line(passphrase_file, "age passphrase")
        elif os.environ.get(AGE_PASSPHRASE_ENV):
            value = os.environ[AGE_PASSPHRASE_ENV]
        elif _interactive():
            try:
                value = typer.prompt(
                    "New age passphrase" if new else "Passphrase of the age file",
                    hide_input=True,
                    confirmation_prompt="Repeat it" if new else False,
                    err=True,
                )
            except typer.Abort:
                value = None
        else:
            value = None
        cache.append(value)
        return value

    return ask


def age_identities(files: list[Path] | None) -> list[str]:
    """The contents of `--age-identity` files (comments allowed, as age-keygen writes)."""
    identities = []
    for path in files or []:
        try:
            identities.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read the age identity file {path}: {exc}", EXIT_USAGE)
    return identities


# -- keys -------------------------------------------------------------------------------------


def _record_json(record: KeyRecord) -> dict[str, Any]:
    from memvault.crypto import keys

    return {
        "key_id": record.key_id,
        "algorithm": record.algorithm,
        "did": record.did,
        "created_at": record.created_at,
        "public_key": keys.encode_public_key(keys.decode_public_key_der(record.public_key)),
    }


@keys_app.command("generate")
@vault_command
def keys_generate(
    algorithm: str = typer.Option(
        "Ed25519",
        "--algorithm",
        "-a",
        metavar="ALG",
        help=f"One of {', '.join(ALGORITHMS)} (PAM §18.2). Ed25519 is recommended.",
    ),
    rsa_bits: int | None = unset_option(
        "--rsa-bits",
        metavar="N",
        help="RSA modulus size; at least 2048/3072/4096 for RS256/RS384/RS512 (the default).",
    ),
    owner_did: bool = typer.Option(
        False,
        "--owner-did",
        help="Make the new key's did:key the owner's DID (Ed25519, ES256, ES384), so exports "
        "carry a DID their signatures verify against (PAM §17).",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Create a signing key and keep it in the vault.

    The private key is stored (PKCS#8) inside the vault database, which is encrypted with the
    vault's passphrase; it never leaves the vault. Ed25519, ES256 and ES384 keys get a did:key
    (PAM §17); --owner-did makes it the owner's DID.

    Example: memvault keys generate --algorithm Ed25519 --owner-did
    """
    if algorithm not in ALGORITHMS:
        fail(
            f"unknown algorithm {algorithm!r}; use one of {', '.join(ALGORITHMS)} (PAM §18.2)",
            EXIT_USAGE,
        )
    from memvault.crypto.keys import InvalidKey, SigningKey

    try:
        key = SigningKey.new(algorithm, rsa_bits=rsa_bits)
    except InvalidKey as exc:
        fail(str(exc), EXIT_USAGE)
    record = key.to_record()
    # arguments=True: a key the vault refuses (a duplicate id, no did:key for --owner-did)
    # is the command line's fault, exit 2; an agent's --as is refused, exit 1.
    with open_vault(options, arguments=True) as vault:
        owner = vault.add_key(record, owner_did=owner_did)
        current_did = owner.did if isinstance(owner.did, str) else None
    if as_json:
        print_json({**_record_json(record), "owner_did": current_did})
        return
    out = console()
    out.print(f"Generated {algorithm} key [bold]{escape(record.key_id)}[/]")
    if record.did:
        out.print(f"DID: {escape(record.did)}")
        if owner_did:
            out.print("The owner's DID is now this did:key (PAM §17).")
        elif current_did is None:
            out.print(
                "[dim]The vault owner has no DID; this did:key is the kind PAM §17 recommends "
                "(--owner-did makes it the owner's).[/]"
            )
        elif current_did != record.did and current_did.startswith("did:key:"):
            out.print(
                f"[yellow]The owner's DID is {escape(current_did)}, another key: signatures by "
                "this key will not verify as the owner's (PAM §17.2).[/]"
            )


@keys_app.command("list")
@vault_command
def keys_list(
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """List the vault's signing keys: id, algorithm, DID and creation time.

    Example: memvault keys list
    """
    with open_vault(options) as vault:
        records = vault.keys()
    if as_json:
        print_json([_record_json(r) for r in records])
        return
    out = console()
    if not records:
        out.print("No keys. Create one with `memvault keys generate`.")
        return
    for record in records:
        out.print(f"[bold]{record.algorithm}[/]  created {record.created_at}")
        out.print(f"  key id: {escape(record.key_id)}")
        if record.did:
            out.print(f"  DID:    {escape(record.did)}")


@keys_app.command("export-public")
@vault_command
def keys_export_public(
    key: str = typer.Argument(..., metavar="KEY", help="Key id, or a unique part of one."),
    output: Path | None = unset_option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write to FILE (created 0600) instead of standard output.",
    ),
    form: str = typer.Option(
        "pem",
        "--format",
        metavar="FORMAT",
        help="pem (SubjectPublicKeyInfo), jwk, or block (as in signature.public_key).",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Print the public half of a vault key, e.g. for `memvault verify --public-key`.

    Only the public key is ever written; the private key stays in the vault.

    Example: memvault keys export-public 3f9c --format jwk -o ana.jwk

    With --json: {"key_id", "algorithm", "did", "format", "public_key", "path"} (path: the
    file of -o, else null).
    """
    if form not in ("pem", "jwk", "block"):
        fail(f"unknown format {form!r}; use pem, jwk or block", EXIT_USAGE)
    with open_vault(options) as vault:
        record = chosen_key(vault, key)
    from memvault.crypto import keys

    public = keys.decode_public_key_der(record.public_key)
    if form == "pem":
        text = keys.public_key_pem(public)
    elif form == "jwk":
        import orjson

        text = orjson.dumps(keys.jwk(public)).decode() + "\n"
    else:
        text = keys.encode_public_key(public) + "\n"
    if output is not None:
        from memvault.atomic import replace_file

        replace_file(output, lambda handle: handle.write(text.encode()))
    if as_json:
        print_json(
            {
                "key_id": record.key_id,
                "algorithm": record.algorithm,
                "did": record.did,
                "format": form,
                "public_key": text.rstrip("\n") if form != "pem" else text,
                "path": None if output is None else str(output),
            }
        )
    elif output is None:
        typer.echo(text, nl=False)
    else:
        console().print(f"Wrote the public key of {escape(record.key_id)} to {escape(str(output))}")


def chosen_key(vault: Vault, wanted: str | None) -> KeyRecord:
    """`Vault.signing_key`, its refusal to guess worded for the command line."""
    try:
        return vault.signing_key(wanted)
    except AmbiguousId as exc:
        if wanted is not None:
            raise
        ids = ", ".join(exc.candidates)
        fail(f"the vault has {len(exc.candidates)} keys; choose one with --key ({ids})", EXIT_USAGE)


# -- sign -------------------------------------------------------------------------------------


@vault_command
def sign(
    file: Path = typer.Argument(
        ...,
        metavar="FILE",
        help="A memory-store.json, an export directory or a .zip of one, or an AIMEM bundle "
        "(.aimem.json or NDJSON).",
    ),
    output: Path | None = unset_option(
        "--output",
        "-o",
        metavar="OUT",
        help="Write the signed file (or zip) to OUT. Default: replace FILE (atomically). For "
        "an AIMEM bundle: the signature file. Default: <bundle-name>.sig.",
    ),
    key: str | None = unset_option(
        "--key",
        "-k",
        metavar="KEY",
        help="The vault key to sign with: its id, a unique part of it, or its algorithm when "
        "the vault has one key of it. Default: the only key, or the one whose did:key is the "
        "owner's DID.",
    ),
    signed_at: str | None = unset_option(
        "--signed-at",
        metavar="TIME",
        help="signature.signed_at (ISO 8601). Default: now. Never before export_date (§18.5).",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Sign a PAM memory-store (PAM §18) or an AIMEM bundle (§5.3) with a key from the vault.

    The signature covers the integrity checksum, export_id, export_date and owner.id
    (§18.3), so the file must carry all four and its checksum must match its memories. Only
    the top-level `signature` member changes; every other byte is kept. In an export directory
    or zip, the memory-store.json inside is signed.

    An AIMEM bundle (.aimem.json or NDJSON, known by its envelope) is signed the AIMEM way
    (§5.3): a detached COSE_Sign1 (EdDSA with an Ed25519 key, ES256 with a P-256 key) over
    its canonical bytes, written to <bundle-name>.sig (or -o OUT); the bundle is unchanged.

    Example: memvault sign backup.zip --key 3f9c

    With --json: {"path", "signature": the signature block written (PAM §18.1)}; for a
    bundle {"path", "signature_file", "algorithm", "key_id"}.
    """
    from memvault.crypto.files import sign_file
    from memvault.crypto.keys import SigningKey
    from memvault.formats.aimem.errors import BundleError

    def signing_key() -> SigningKey:
        with open_vault(options) as vault:
            record = chosen_key(vault, key)
        return SigningKey.from_record(record)  # an unusable key: exit 1 (common.report)

    try:
        signed = sign_file(file, signing_key, output=output, signed_at=signed_at)
    except SourceError as exc:
        fail(str(exc), EXIT_USAGE)
    except BundleError as exc:
        fail(f"{exc}; nothing was signed")
    except OSError as exc:
        fail(f"cannot write {output or file}: {exc.strerror or exc}")
    if as_json:
        if signed.signature_file is not None:
            print_json(
                {
                    "path": str(signed.path),
                    "signature_file": str(signed.signature_file),
                    "algorithm": signed.algorithm,
                    "key_id": signed.key_id,
                }
            )
        else:
            print_json({"path": str(signed.path), "signature": signed.signature})
        return
    where, by = escape(str(signed.path)), f"{signed.algorithm} key {escape(signed.key_id)}"
    if signed.signature_file is not None:
        shown = escape(str(signed.signature_file))
        console().print(f"Signed {where} with {by}: detached COSE_Sign1 in {shown} (AIMEM §5.3)")
    else:
        assert signed.signature is not None
        console().print(f"Signed {where} with {by} at {signed.signature['signed_at']}")


# -- verify -----------------------------------------------------------------------------------


def verify(
    file: Path = typer.Argument(
        ...,
        metavar="FILE",
        help="A memory-store.json, an export directory or a .zip of one, or an AIMEM bundle "
        "(.aimem.json or NDJSON) with its <bundle-name>.sig.",
    ),
    public_key: str | None = unset_option(
        "--public-key",
        metavar="KEY",
        help="Require this signer: a file (PEM, JWK) or the key itself (z6Mk…, did:key:…, "
        "JWK). Without it, any key verifies, subject to the owner's did:key.",
    ),
    age_passphrase_file: AgePassphraseFileOption = None,
    age_identity: AgeIdentityOption = None,
    as_json: JsonOption = False,
) -> None:
    """Verify the signature of a PAM memory-store (PAM §18.4, §17) or an AIMEM bundle (§5.3).

    Recomputes the integrity checksum from the memories, verifies the signature over the
    checksum, export_id, export_date and owner.id, checks signed_at, and — when owner.did is a
    did:key — that the signing key and key_id are the owner's. Exit 0 verified; 1 not
    verified (unsigned, or the reason); 2 unreadable.

    For an AIMEM bundle: verifies the detached COSE_Sign1 in <bundle-name>.sig over the
    canonical bundle (AIMEM §5.3); --public-key also takes a COSE_Key file.

    Example: memvault verify backup.zip --public-key ana.jwk
    """
    from memvault.crypto.signing import SigningError, verify_buffer
    from memvault.formats.aimem import sniff

    if file.is_file() and sniff(file) is not None:
        _verify_bundle(file, public_key, as_json)
    expected = _expected_key(public_key) if public_key is not None else None
    try:
        with _store_buffer(file, age_passphrase_file, age_identity) as (buf, display):
            result = verify_buffer(buf, display, expected_key=expected)
    except SourceError as exc:
        fail(exc.message if exc.target in exc.message else str(exc), EXIT_USAGE)
    except SigningError as exc:
        fail(str(exc), EXIT_USAGE)
    _report(file, result, as_json)


def _verify_bundle(file: Path, public_key: str | None, as_json: bool) -> NoReturn:
    """AIMEM §5.3: check ``<bundle>.sig`` (a detached COSE_Sign1) against the bundle."""
    from memvault.formats.aimem.cose import public_key_from_cose_key, verify_bundle_signature
    from memvault.formats.aimem.errors import BundleError

    expected: PublicKey | None = None
    if public_key is not None:
        candidate = Path(public_key)
        try:
            raw = candidate.read_bytes() if candidate.is_file() else None
        except OSError as exc:
            fail(f"cannot read the public key file {public_key}: {exc.strerror or exc}", EXIT_USAGE)
        try:
            expected = public_key_from_cose_key(raw) if raw is not None else None
        except ValueError:
            expected = None
        if expected is None:
            expected = _expected_key(public_key)
    try:
        check = verify_bundle_signature(file, expected)
    except BundleError as exc:
        fail(str(exc), EXIT_USAGE)
    code = EXIT_OK if check.ok else EXIT_REFUSED
    if as_json:
        print_json(
            {
                "target": str(file),
                "kind": "aimem-bundle",
                "verified": check.ok,
                "signed": check.status != "unsigned",
                **check.to_json(),
            }
        )
        raise typer.Exit(code)
    out = console()
    if check.ok:
        out.print(
            f"[bold green]✓ verified[/] {escape(str(file))}  [dim]{escape(check.message)} "
            f"(AIMEM §5.3, {escape(check.signature_file or '')})[/]"
        )
    else:
        out.print(
            f"[bold red]✗ not verified[/] {escape(str(file))}: {escape(check.message)} "
            "[dim](AIMEM §5.3)[/]"
        )
    raise typer.Exit(code)


def _expected_key(text: str) -> PublicKey:
    from memvault.crypto import keys

    candidate = Path(text)
    value = text
    try:
        if len(text) < 4096 and candidate.is_file():
            value = candidate.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read the public key file {text}: {exc}", EXIT_USAGE)
    try:
        return keys.decode_public_key(value)
    except keys.InvalidKey as exc:
        fail(f"--public-key: {exc}", EXIT_USAGE)


@contextmanager
def _store_buffer(
    file: Path, passphrase_file: Path | None, identities: list[Path] | None
) -> Iterator[tuple[Any, str]]:
    with open_target(
        file,
        age_passphrase=age_passphrase(passphrase_file),
        age_identities=age_identities(identities),
    ) as target:
        entry = target.entries[0] if target.kind == "file" else target.find(STORE_FILE)
        if entry is None:
            raise SourceError(str(file), f"no {STORE_FILE} in this {target.kind} (PAM §2)")
        with entry.open() as buf:
            yield buf, entry.display


def _report(file: Path, result: VerifyResult, as_json: bool) -> NoReturn:
    code = EXIT_OK if result.ok else EXIT_REFUSED
    if as_json:
        print_json(
            {
                "target": str(file),
                "verified": result.ok,
                "signed": result.signed,
                "reason": result.reason,
                "algorithm": result.algorithm,
                "key_id": result.key_id,
                "owner_did": result.owner_did,
                "problems": [
                    {
                        "severity": p.severity,
                        "code": p.code,
                        "message": p.message,
                        "path": p.path,
                        "section": p.section,
                    }
                    for p in result.problems
                ],
            }
        )
        raise typer.Exit(code)
    out = console()
    if result.ok:
        out.print(
            f"[bold green]✓ verified[/] {escape(str(file))}  [dim]{result.algorithm}, key "
            f"{escape(result.key_id or '—')}; owner DID: {escape(result.owner_did)}[/]"
        )
    elif not result.signed:
        out.print(f"[bold red]✗ not verified[/] {escape(str(file))}: the document is not signed")
    else:
        out.print(f"[bold red]✗ not verified[/] {escape(str(file))}: {escape(result.reason)}")
    for problem in result.problems:
        colour = "red" if problem.severity == "error" else "yellow"
        out.print(
            f"  [{colour}]{problem.severity:<7}[/] {problem.code} {problem.path} "
            f"{problem.section}\n          {escape(problem.message)}"
        )
    raise typer.Exit(code)
