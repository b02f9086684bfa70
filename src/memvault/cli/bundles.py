"""AIMEM bundles on the command line: the `--format aimem` branch of `export`, bundles given
to `import` (either form, in an age file or a zip), and `convert --to aimem|pam`. The rules
live in `memvault.exchange.aimem` and `memvault.formats.mapping`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from memvault.cli.common import (
    EXIT_REFUSED,
    IMPORT_COMMITTED,
    NOTHING_WRITTEN,
    VaultOptions,
    check_timestamp,
    console,
    done_so_far,
    fail,
    loud_signature_warnings,
    open_vault,
    plural,
    print_json,
    print_warnings,
    print_withheld,
    refuse_with_findings,
    usage_error,
)

# memvault.exchange and the AIMEM validator are imported where used: `memvault import` of a
# provider export should not pay for loading them.
if TYPE_CHECKING:
    from memvault.exchange import ImportRefused
    from memvault.formats.aimem.container import LocatedBundle
    from memvault.sources import AgePassphrase


def sealed_bundle(
    path: Path, refused: ImportRefused, ask_age: AgePassphrase, identities: list[str]
) -> LocatedBundle | None:
    """An age file whose name does not say "bundle" is imported as PAM first (one decryption
    for PAM files); when PAM found a bundle in it (or a zip with no PAM export), the bundle."""
    from memvault.formats.aimem.container import is_age_file, locate_bundle
    from memvault.formats.aimem.errors import BundleError

    codes = {f.code for f in refused.findings}
    if not codes & {"unsupported-kind", "no-memory-store"} or not is_age_file(path):
        return None
    try:
        return locate_bundle(path, age_passphrase=ask_age, age_identities=identities, decrypt=True)
    except BundleError:
        return None


def export_aimem(
    output: Path,
    scope: str | None,
    since: str | None,
    stream: bool,
    producer: str | None,
    with_embeddings: bool,
    overwrite: bool,
    options: VaultOptions,
    as_json: bool,
) -> None:
    """`memvault export --format aimem`: the vault as an AIMEM bundle (memvault.exchange.aimem)."""
    from memvault.exchange import ExportError
    from memvault.exchange.aimem import SCOPES, export_bundle
    from memvault.formats.aimem.validate import is_producer_namespace

    chosen = (scope or ("SINCE" if since is not None else "FULL")).upper()
    if chosen not in SCOPES:
        usage_error(f"{scope!r}: use FULL, DNA_ONLY or SINCE (AIMEM §2.1)", "--scope")
    if chosen == "SINCE" and since is None:
        usage_error("--scope SINCE needs --since TIMESTAMP", "--since")
    if since is not None:
        check_timestamp(since, "--since")
    if producer is not None and not is_producer_namespace(producer):
        usage_error(
            f"{producer!r}: a Producer Namespace is 1-63 characters of [a-z0-9-] (AIMEM §2.3)",
            "--producer",
        )
    with open_vault(options) as vault:
        try:
            result = export_bundle(
                vault,
                output,
                scope=chosen,
                since=since,
                form="ndjson" if stream else None,
                producer=producer,
                embeddings=with_embeddings,
                overwrite=overwrite,
            )
        except ExportError as exc:
            fail(f"{exc}; nothing was written")
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    form = "NDJSON stream" if result.form == "ndjson" else "bundle"
    out.print(
        f"[green]✓[/] Wrote AIMEM {form} [bold]{escape(str(result.path))}[/] ({result.scope}): "
        f"{plural(result.chunks, 'chunk')}, {plural(result.edges, 'edge')}, "
        f"{plural(result.entities, 'entity', 'entities')}, "
        f"{plural(result.embeddings, 'embedding')}."
    )
    print_withheld(out, result.withheld)
    out.print(f"  producer {result.producer}, checksum {result.checksum}")
    print_warnings(out, result.warnings)


def import_aimem(
    bundle: LocatedBundle,
    options: VaultOptions,
    allow_unverified: bool,
    skip_signature_check: bool,
    embedding_models: list[str] | None,
    strict: bool,
    as_json: bool,
) -> None:
    """`memvault import BUNDLE`: an AIMEM bundle into the vault (memvault.exchange.aimem)."""
    from memvault.exchange import ImportRefused
    from memvault.exchange.aimem import import_bundle

    with open_vault(options) as vault:
        try:
            result = import_bundle(
                vault,
                bundle,
                verify_signature=not skip_signature_check,
                allow_unverified=allow_unverified,
                embedding_models=embedding_models or None,
                strict=strict,
            )
            done_so_far(IMPORT_COMMITTED)
        except ImportRefused as exc:
            # the AIMEM HTTP profile's status (409 checksum, 422 malformed), as validate gives it
            status = getattr(exc, "status", None)
            headline = f"{exc.headline} (status {status})" if status else exc.headline
            refuse_with_findings(headline, exc.findings, str(exc), error=exc)
    loud_signature_warnings(result.warnings)
    for problem in result.rejected:
        typer.echo(f"error: chunk rejected: {problem}", err=True)
    if as_json:
        print_json(result.to_json())
    else:
        out = console()
        out.print(f"[green]✓[/] Imported AIMEM bundle [bold]{escape(bundle.display)}[/]:")
        out.print(
            f"  chunks: {result.created} new, {result.reinforced} merged into existing memories "
            f"(reinforced), {result.updated} updated (newer created_at), {result.unchanged} "
            f"unchanged, {result.kept} kept as the vault has them, {len(result.rejected)} "
            "rejected"
        )
        out.print(
            f"  {plural(result.relations, 'relation')}, {plural(result.embeddings, 'embedding')}; "
            f"signature: {result.signature}"
        )
        print_warnings(out, result.warnings)
    if result.rejected:
        typer.echo(
            f"error: {plural(len(result.rejected), 'chunk')} rejected (listed above); the rest of "
            "the bundle was imported",
            err=True,
        )
        raise typer.Exit(EXIT_REFUSED)


def convert_interchange(
    path: str,
    output: Path,
    to: str,
    *,
    producer: str,
    stream: bool,
    overwrite: bool,
    as_json: bool,
    allow_unverified: bool = False,
) -> None:
    """`memvault convert FILE --to aimem|pam -o OUT`: PAM files ↔ an AIMEM bundle, without a
    vault, losslessly (memvault.formats.mapping)."""
    from memvault.errors import ConvertError
    from memvault.exchange.aimem import convert_file
    from memvault.formats.aimem.validate import is_producer_namespace

    target = to.lower()
    if target not in ("aimem", "pam"):
        usage_error(f"{to!r}: convert to aimem or pam", "--to")
    if not is_producer_namespace(producer):
        usage_error(
            f"{producer!r}: a Producer Namespace is 1-63 characters of [a-z0-9-] (AIMEM §2.3)",
            "--producer",
        )
    try:
        result = convert_file(
            path,
            output,
            to=target,
            producer=producer,
            form="ndjson" if stream else None,
            overwrite=overwrite,
            allow_unverified=allow_unverified,
        )
    except ConvertError as exc:
        if exc.findings:
            refuse_with_findings(
                str(exc), exc.findings, str(exc), nothing=NOTHING_WRITTEN, error=exc
            )
        fail(f"{exc}; {NOTHING_WRITTEN}")
    loud_signature_warnings(result.warnings)
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    what = "AIMEM bundle" if result.to == "aimem" else "PAM"
    out.print(
        f"[green]✓[/] Converted [bold]{escape(path)}[/] to {what} "
        f"[bold]{escape(str(result.path))}[/]: {plural(result.memories, 'memory', 'memories')}, "
        f"{plural(result.relations, 'relation' if result.to == 'pam' else 'edge')}, "
        f"{plural(result.embeddings, 'embedding')}."
    )
    if result.checksum:
        out.print(f"  checksum {result.checksum}")
    print_warnings(out, result.warnings)
