"""`memvault export`, `import` and `merge`: PAM exports in and out of the vault, and merging
an incremental export into its base on files (PAM §16, Appendix E). The rules live in
`memvault.exchange` and `memvault.formats.pam.merge`; these commands parse, call, report."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_USAGE,
    IMPORT_COMMITTED,
    NOTHING_IMPORTED,
    NOTHING_WRITTEN,
    JsonOption,
    VaultOptions,
    bulk_command,
    check_timestamp,
    console,
    done_so_far,
    fail,
    interruptible,
    loud_signature_warnings,
    open_vault,
    plural,
    print_json,
    print_warnings,
    print_withheld,
    refuse_with_findings,
    require_input,
    unset_option,
    usage_error,
    vault_command,
)
from memvault.cli.importing import (
    FromOption,
    PlatformOption,
    choose,
    early_checksum,
    import_provider,
)
from memvault.cli.signing import (
    AgeIdentityOption,
    AgePassphraseFileOption,
    age_identities,
    age_passphrase,
)
from memvault.errors import AmbiguousId
from memvault.importers.detect import load
from memvault.vault import Vault

# memvault.exchange (PAM export and import), the merge and the AIMEM commands are imported by
# the commands that use them: importing a provider export loads none of them.
if TYPE_CHECKING:
    from memvault.exchange import ExportHooks, ImportHooks
    from memvault.formats.aimem.container import LocatedBundle
    from memvault.hub.reading import HubImporter

PANEL = "Exchange"


def register(app: typer.Typer) -> None:
    for name, command, nothing_done in (
        ("export", export, NOTHING_WRITTEN),
        ("import", import_, NOTHING_IMPORTED),
        ("merge", merge, NOTHING_WRITTEN),
    ):
        app.command(name, rich_help_panel=PANEL)(bulk_command(interruptible(nothing_done)(command)))


def export_hooks(
    vault: Vault,
    *,
    sign: bool = False,
    key: str | None = None,
    passphrase: str | None = None,
    recipients: list[str] | None = None,
) -> ExportHooks:
    """Signing (`export --sign`, with a vault key, §18) and encryption (`export --encrypt` to a
    passphrase or `--recipient age1…`, §21.1) for `export_vault` (`memvault.exchange.protection`),
    its refusals worded for the command line."""
    from memvault.crypto.agefile import AgeError
    from memvault.exchange.protection import export_hooks as protection_hooks

    try:
        return protection_hooks(
            vault, sign=sign, key=key, passphrase=passphrase, recipients=recipients or ()
        )
    except AmbiguousId as exc:
        if key is not None:
            raise
        ids = ", ".join(exc.candidates)
        fail(f"the vault has {len(exc.candidates)} keys; choose one with --key ({ids})", EXIT_USAGE)
    except AgeError as exc:
        fail(str(exc), EXIT_USAGE)


def import_hooks(
    passphrase: Callable[[], str | None] | None = None, identities: list[str] | None = None
) -> ImportHooks:
    """Decryption of age files (a passphrase asked for only when one is needed, or X25519
    identities). Signatures are verified by the validation an import starts with; one that
    does not verify refuses the import unless the user allows it (then `SIGNATURE_WARNING`)."""
    from memvault.crypto.agefile import decrypted_path
    from memvault.exchange import ImportHooks

    def decrypt(path: Path) -> AbstractContextManager[Path | None]:
        return decrypted_path(path, passphrase=passphrase, identities=identities or ())

    return ImportHooks(decrypt=decrypt)


@contextmanager
def _age_errors() -> Iterator[None]:
    """An age file that cannot be decrypted: one line, exit 1, nothing changed."""
    from memvault.crypto.agefile import AgeError

    try:
        yield
    except AgeError as exc:
        fail(f"{exc}; nothing was imported")


def _with_age_suffix(output: Path) -> Path:
    return output if output.suffix.lower() == ".age" else output.with_name(output.name + ".age")


# -- export -----------------------------------------------------------------------------------


@vault_command
def export(
    output: Path | None = unset_option(
        "--output",
        "-o",
        metavar="PATH",
        help="Where to write: a directory (memory-store.json, conversations/, embeddings.json), "
        "a path ending in .zip for a zip of it, or .json for the memory-store alone. With "
        "--to: a text file (default: standard output).",
    ),
    to: str | None = unset_option(
        "--to",
        metavar="TARGET",
        help="Text for an assistant instead of an interchange file: system-prompt, chatgpt, "
        "claude or gemini (PAM §20.2). DNA-class memories first, then confidence, then recency.",
    ),
    budget: int | None = unset_option(
        "--budget",
        metavar="N",
        help="With --to: at most N characters per text (≈ N/4 tokens). Default: the target's "
        "(system-prompt 6000, chatgpt 3000 — its two fields never over 1500 —, claude 6000, "
        "gemini 4000).",
    ),
    query: str | None = unset_option(
        "--query",
        metavar="TEXT",
        help="With --to: the memories recall finds for TEXT, best first, instead of all.",
    ),
    format: str = typer.Option(
        "pam",
        "--format",
        metavar="FORMAT",
        help="The interchange format: pam (PAM v1.0) or aimem (an AIMEM bundle, PATH.aimem.json); "
        "or a memory system's: mcp-memory, mem0, mem, letta, basic-memory (docs/formats.md).",
    ),
    scope: str | None = unset_option(
        "--scope",
        metavar="SCOPE",
        help="With --format aimem: FULL (the default), DNA_ONLY (preferences, decisions, "
        "identity, pitfalls, procedures, pinned) or SINCE (with --since); AIMEM §2.1.",
    ),
    stream: bool = typer.Option(
        False,
        "--stream",
        help="With --format aimem: write the NDJSON stream form (AIMEM §3.1), one record per line.",
    ),
    producer: str | None = unset_option(
        "--producer",
        metavar="NAMESPACE",
        help="With --format aimem: the Producer Namespace of the chunk URNs ([a-z0-9-], AIMEM "
        "§2.3). Default: memvault- and 12 hex digits derived from the owner id.",
    ),
    with_embeddings: bool = typer.Option(
        False,
        "--with-embeddings",
        help="With --format aimem: include the vault's embeddings (AIMEM §2.7); left out by "
        "default, since embeddings can leak content (§5.5).",
    ),
    incremental: bool = typer.Option(
        False,
        "--incremental",
        help="Export only what changed since the last PAM export this vault made (PAM §16).",
    ),
    since: str | None = unset_option(
        "--since",
        metavar="TIMESTAMP",
        help="Export only what changed at or after this ISO 8601 time (an incremental export).",
    ),
    strip_platform_ids: bool = typer.Option(
        False,
        "--strip-platform-ids",
        help="Leave out platform user ids and provider account ids (PAM §21.3).",
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace PATH if it exists (otherwise an existing PATH is kept)."
    ),
    sign: bool = typer.Option(
        False,
        "--sign",
        help="Sign the memory-store with a vault key (PAM §18; see `memvault keys generate`).",
    ),
    key: str | None = unset_option(
        "--key",
        metavar="KEY_ID",
        help="With --sign: the key to sign with (an id, a unique part of one, or an "
        "algorithm). Default: the only key, else the owner's DID key, else the most recent.",
    ),
    encrypt: bool = typer.Option(
        False,
        "--encrypt",
        help="Encrypt the export with an age passphrase (PAM §21.1), asked for twice on a "
        "hidden prompt; the output gets .age. `age -d` decrypts it.",
    ),
    encrypt_passphrase_file: Path | None = unset_option(
        "--encrypt-passphrase-file",
        metavar="FILE",
        help="Encrypt with the age passphrase on the first line of FILE (implies --encrypt).",
    ),
    recipient: list[str] | None = unset_option(
        "--recipient",
        metavar="AGE1…",
        help="Encrypt to this age X25519 recipient (age1…) instead of a passphrase. Repeatable.",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Export the vault as PAM v1.0. Memories marked exportable: false are never written.

    The export is written under a temporary name and renamed when complete, validates against
    the PAM schemas, and is recorded in the vault's export registry (the base of the next
    --incremental export).

    Examples: memvault export -o backup.zip ·
    memvault export --incremental -o delta.zip ·
    memvault export --since 2025-06-01T00:00:00Z --strip-platform-ids -o share/ ·
    memvault export --sign --encrypt -o backup.zip  (writes backup.zip.age)
    """
    if to is not None:
        export_target(to, output, budget, query, options, as_json)
        return
    if budget is not None or query is not None:
        usage_error("--budget and --query go with --to", "--budget" if budget else "--query")
    if output is None:
        usage_error("give -o PATH (where to write the export) or --to TARGET", "--output")
    from memvault.hub.reading import FORMATS as HUB_FORMATS

    if format in HUB_FORMATS:
        _hub_export(
            format, output, overwrite, options, as_json,
            scope=scope, stream=stream, producer=producer, with_embeddings=with_embeddings,
            incremental=incremental, since=since, strip_platform_ids=strip_platform_ids,
            sign=sign, encrypt=encrypt or encrypt_passphrase_file is not None or bool(recipient),
        )  # fmt: skip
        return
    from memvault.cli.bundles import export_aimem
    from memvault.exchange import EXPORT_FORMATS, export_vault

    if format == "aimem":
        other = [
            name
            for name, given in (
                ("--incremental", incremental),
                ("--strip-platform-ids", strip_platform_ids),
                ("--sign", sign),
                ("--encrypt", encrypt or encrypt_passphrase_file is not None),
                ("--recipient", bool(recipient)),
            )
            if given
        ]
        if other:
            usage_error(f"{other[0]} is for PAM exports, not --format aimem", other[0])
        export_aimem(
            output, scope, since, stream, producer, with_embeddings, overwrite,
            options, as_json,
        )  # fmt: skip
        return
    if scope is not None or stream or producer is not None or with_embeddings:
        usage_error("--scope, --stream, --producer and --with-embeddings go with --format aimem")
    if format not in EXPORT_FORMATS:
        usage_error(
            f"unknown format {format!r}; supported: {', '.join(EXPORT_FORMATS)}", "--format"
        )
    if incremental and since is not None:
        usage_error("give either --incremental or --since, not both", "--since")
    if since is not None:
        check_timestamp(since, "--since")
    if key is not None and not sign:
        usage_error("--key chooses the signing key; give --sign too", "--key")
    encrypt = encrypt or encrypt_passphrase_file is not None
    if encrypt and recipient:
        usage_error(
            "encrypt to a passphrase (--encrypt) or to --recipient, not both", "--recipient"
        )
    age_secret: str | None = None
    if encrypt:
        age_secret = age_passphrase(encrypt_passphrase_file, new=True)()
        if not age_secret:
            fail(
                "--encrypt needs a passphrase: give --encrypt-passphrase-file or "
                "$MEMVAULT_AGE_PASSPHRASE, or run on a terminal to be asked",
                EXIT_USAGE,
            )
    if encrypt or recipient:
        output = _with_age_suffix(output)
    from memvault.crypto.signing import SigningError

    with open_vault(options) as vault:
        hooks = export_hooks(vault, sign=sign, key=key, passphrase=age_secret, recipients=recipient)
        try:
            result = export_vault(
                vault,
                output,
                format=format,
                incremental=incremental,
                since=since,
                strip_platform_ids=strip_platform_ids,
                overwrite=overwrite,
                hooks=hooks,
            )
        except SigningError as exc:
            fail(f"cannot sign the export: {exc}; nothing was written")
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    kind = "incremental export" if result.export_type == "incremental" else "export"
    out.print(
        f"[green]✓[/] Wrote {kind} [bold]{escape(str(result.path))}[/]: "
        f"{plural(result.memories, 'memory', 'memories')}, {plural(result.relations, 'relation')}, "
        f"{plural(result.conversations, 'conversation')}, {plural(result.embeddings, 'embedding')}."
    )
    if result.export_type == "incremental":
        out.print(f"  since {result.since}, base export {result.base_export_id or '—'}")
    print_withheld(out, result.withheld)
    out.print(f"  export id {result.export_id}, checksum {result.checksum}")
    if result.signed:
        out.print("  signed (PAM §18); check it with `memvault verify`")
    if result.encrypted:
        out.print("  encrypted with age (PAM §21.1)")
    print_warnings(out, result.warnings)


def _hub_export(
    format: str, output: Path, overwrite: bool, options: VaultOptions, as_json: bool,
    **others: object,
) -> None:  # fmt: skip
    """`export --format` of a memory system's format; the PAM and AIMEM options do not go
    with it."""
    from memvault.cli.hub import export_hub_file

    given = [name for name, value in others.items() if value not in (None, False)]
    if given:
        option = "--" + given[0].replace("_", "-")
        usage_error(f"{option} is for PAM or AIMEM exports, not --format {format}", option)
    export_hub_file(format, output, overwrite, options, as_json)


def export_target(
    to: str, output: Path | None, budget: int | None, query: str | None,
    options: VaultOptions, as_json: bool,
) -> None:  # fmt: skip
    """`export --to`: the text an assistant accepts (`memvault.targets`), to a file or stdout;
    what was left out, and why, on stderr (or in the JSON)."""
    from memvault.atomic import write_atomic
    from memvault.targets import TARGET_NAMES, render

    if to not in TARGET_NAMES:
        usage_error(f"unknown target {to!r}; supported: {', '.join(TARGET_NAMES)}", "--to")
    with open_vault(options, arguments=True) as vault:
        rendering = render(vault, to, budget=budget, query=query)
    if output is not None:
        write_atomic(output, rendering.document().encode())
    if as_json:
        print_json(rendering.to_json())
    elif output is None:
        typer.echo(rendering.document(), nl=False)
    typer.echo(rendering.summary(), err=True)


# -- import -----------------------------------------------------------------------------------


@vault_command
def import_(
    path: Path = typer.Argument(
        ...,
        metavar="PATH",
        help="A PAM memory-store, conversation or embeddings file, an export directory, or a "
        ".zip of one; any of the files may be age-encrypted (.age). Or a provider export "
        "(a ChatGPT .zip, its folder or conversations.json), detected by content; '-' reads a "
        "pasted memory list from standard input (with --from memory-text).",
    ),
    from_: FromOption = None,
    platform: PlatformOption = "chatgpt",
    force: bool = typer.Option(
        False,
        "--force",
        help="Apply an incremental export even though its base export is unknown to the vault.",
    ),
    allow_unverified: bool = typer.Option(
        False,
        "--allow-unverified",
        help="Import a signed export whose signature does not verify (refused otherwise), "
        "with a loud warning.",
    ),
    skip_signature_check: bool = typer.Option(
        False,
        "--skip-signature-check",
        help="AIMEM bundles: do not verify <bundle>.sig; the decision is written to the audit "
        "log (AIMEM §5.3).",
    ),
    embedding_model: list[str] | None = unset_option(
        "--embedding-model",
        metavar="MODEL",
        help="AIMEM bundles: keep embeddings of this model (repeatable); others are dropped "
        "with a warning, never re-embedded (AIMEM §2.7). Default: the model the vault took in "
        "first.",
    ),
    strict: bool = typer.Option(
        False,
        "--strict",
        help="AIMEM bundles: refuse the whole bundle when a chunk is rejected (by default the "
        "other chunks are imported).",
    ),
    extract: bool = typer.Option(
        False,
        "--extract",
        help="Provider exports: then extract memories about you from the conversations the "
        "import added or changed, as `memvault extract` does (its summary follows the "
        "import's). The import commits first; the extraction is a second transaction.",
    ),
    llm_url: str | None = unset_option(
        "--llm-url",
        metavar="URL",
        help="With --extract: an OpenAI-compatible endpoint to extract with. Default: "
        "$MEMVAULT_LLM_URL; with neither, the offline rules are used.",
    ),
    llm_model: str | None = unset_option(
        "--llm-model",
        metavar="NAME",
        help="With --extract: the model to ask. Default: $MEMVAULT_LLM_MODEL.",
    ),
    age_passphrase_file: AgePassphraseFileOption = None,
    age_identity: AgeIdentityOption = None,
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Import PAM documents into the vault, in one transaction: all of it or nothing.

    The input is validated first and refused, with its findings, if it is not valid PAM. The
    same fact from two platforms becomes one memory, reinforced; an incremental export updates
    memories by id and marks retractions (never deletes). Importing the same export twice
    changes nothing. An age-encrypted file is decrypted in memory. A signature is verified:
    a signed file whose signature does not verify is refused unless --allow-unverified (then a
    loud warning); an unsigned file imports normally (PAM §18.5).

    A provider's data export (ChatGPT…) becomes PAM normalized conversations and the
    memories the provider exported (custom instructions, the memory tool's writes), in one
    transaction; importing it again changes nothing, a newer export adds what is new. A
    folder holding several providers' exports, each in its own folder, imports each, all in
    one transaction.

    A document that declares itself (a PAM "schema", an AIMEM envelope) is always read as
    what it declares; provider detection is only for what declares nothing. --from skips
    detection: --from pam, --from aimem, --from PROVIDER, or --from memory-text for a pasted
    memory list.
    --extract then extracts memories about you from the conversations the import added or
    changed (rules, or the LLM of --llm-url/--llm-model), in a second transaction: if it
    fails, no memory of it is written, the import stays, and `memvault extract` finishes.

    An AIMEM bundle (.aimem.json or its NDJSON stream form, recognized by content) is
    imported in one transaction after its checksum (and <bundle>.sig, when present) verifies;
    re-importing a chunk is a no-op, and a chunk that conflicts with the vault's copy is
    rejected and listed while the rest is imported (exit status 1; --strict refuses all).

    Examples: memvault import chatgpt-export.zip · memvault import delta/ ·
    memvault import brain.aimem.json ·
    memvault import backup.zip.age --age-passphrase-file pass.txt ·
    memvault import memories.txt --from memory-text ·
    memvault import chatgpt-export.zip --extract
    """
    from memvault.cli.bundles import import_aimem, sealed_bundle

    require_input(path)
    then = None
    if extract or llm_url is not None or llm_model is not None:
        # (loaded only then: an import's start-up is part of its time)
        from memvault.cli.extracting import after_import_extraction

        then = after_import_extraction(extract, llm_url, llm_model, as_json)
    ask_age = age_passphrase(age_passphrase_file)
    identities = age_identities(age_identity)
    checksum = early_checksum(str(path), from_)
    try:
        decided = choose(str(path), from_, ask_age, identities)
    except BaseException:
        if checksum is not None:
            checksum.cancel()
        raise
    hub = _hub_importer(from_, decided.providers)
    if checksum is not None and (decided.kind != "provider" or hub is not None):
        checksum.cancel()
        checksum = None
    if decided.kind != "provider" and then is not None:
        from memvault.cli.extracting import extract_needs_provider_export

        extract_needs_provider_export()
    if decided.bundle is not None:
        import_aimem(
            decided.bundle, options, allow_unverified, skip_signature_check, embedding_model,
            strict, as_json,
        )  # fmt: skip
        return
    if hub is not None:
        from memvault.cli.hub import import_hub_file

        import_hub_file(str(path), hub, options, as_json)
        return
    if decided.kind == "provider":
        import_provider(
            str(path),
            load(from_) if from_ is not None else None,
            options=options,
            passphrase=ask_age,
            identities=identities,
            platform=platform,
            as_json=as_json,
            then=then,
            checksum=checksum,
        )
        return
    from memvault.exchange import ImportRefused, import_into_vault

    hooks = import_hooks(ask_age, identities)
    sealed: LocatedBundle | None = None
    with open_vault(options) as vault, _age_errors():
        try:
            result = import_into_vault(
                vault, path, force=force, allow_unverified=allow_unverified, hooks=hooks
            )
            done_so_far(IMPORT_COMMITTED)
        except ImportRefused as exc:
            sealed = None if decided.declared else sealed_bundle(path, exc, ask_age, identities)
            if sealed is None:
                refuse_with_findings(exc.headline, exc.findings, str(exc), error=exc)
    if sealed is not None:
        import_aimem(
            sealed, options, allow_unverified, skip_signature_check, embedding_model, strict,
            as_json,
        )  # fmt: skip
        return
    loud_signature_warnings(result.warnings)
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    if result.already_imported:
        out.print(
            f"[green]✓[/] Nothing to do: the vault already has export {result.export_id} "
            f"({escape(str(path))})."
        )
        return
    kind = "incremental export" if result.export_type == "incremental" else "export"
    out.print(f"[green]✓[/] Imported {kind} [bold]{escape(str(path))}[/]:")
    out.print(
        f"  memories: {result.created} new, {result.reinforced} merged into existing ones "
        f"(reinforced), {result.updated} updated, {result.unchanged} unchanged, {result.kept} "
        "kept as the vault has them"
    )
    out.print(
        f"  {plural(result.relations, 'relation')}, "
        f"{plural(result.conversations, 'conversation')}, "
        f"{plural(result.embeddings, 'embedding')}"
    )
    print_warnings(out, result.warnings)


def _hub_importer(forced: str | None, providers: tuple[str, ...]) -> HubImporter | None:
    """The hub format's importer when the input is a memory system's file (docs/formats.md)."""
    from memvault.hub.reading import FORMATS, HubImporter

    name = forced or (providers[0] if len(providers) == 1 else None)
    if name is None or name.lower() in ("pam", "aimem"):
        return None
    if name.lower() not in FORMATS and name.lower().replace("_", "-") not in FORMATS:
        return None
    found = load(name)
    return found if isinstance(found, HubImporter) else None


# -- merge ------------------------------------------------------------------------------------


def merge(
    base: Path = typer.Argument(..., metavar="BASE", help="The base export (file, dir or zip)."),
    delta: Path = typer.Argument(
        ..., metavar="DELTA", help="The incremental export to apply to it."
    ),
    output: Path = typer.Option(
        ...,
        "--output",
        "-o",
        metavar="OUT",
        help="Where to write the merged export: a directory, a .zip, or a .json (memory-store "
        "alone).",
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="Merge even if the delta's base_export_id is not BASE's export_id (or it is not "
        "incremental, or the owners differ).",
    ),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace OUT if it exists."),
    allow_unverified: bool = typer.Option(
        False,
        "--allow-unverified",
        help="Merge a signed export whose signature does not verify (refused otherwise), "
        "with a loud warning (PAM §18.4). The merged export is not signed.",
    ),
    as_json: JsonOption = False,
) -> None:
    """Merge an incremental export into its base, without a vault (PAM §16.3, Appendix E).

    Memories of the delta replace those with the same id or are added; retracted memories are
    marked, never removed; the checksum and total are recomputed. The result takes the delta's
    export_id, so the next delta applies to it.

    Example: memvault merge full.zip delta.zip -o merged.zip
    """
    from memvault.formats.pam.merge import MergeError, merge_exports

    require_input(base)
    require_input(delta)
    try:
        result = merge_exports(
            base, delta, output, force=force, overwrite=overwrite, allow_unverified=allow_unverified
        )
    except MergeError as exc:
        if exc.findings:
            refuse_with_findings(
                exc.headline, exc.findings, str(exc), nothing=NOTHING_WRITTEN, error=exc
            )
        fail(str(exc))
    loud_signature_warnings(result.warnings)
    if as_json:
        print_json(
            {
                "path": str(result.path),
                "export_id": result.export_id,
                "memories": result.memories,
                "inserted": result.inserted,
                "updated": result.updated,
                "kept": result.kept,
                "relations": result.relations,
                "conversations": result.conversations,
                "embeddings": result.embeddings,
                "checksum": result.checksum,
                "warnings": result.warnings,
            }
        )
        return
    out = console()
    out.print(
        f"[green]✓[/] Merged into [bold]{escape(str(result.path))}[/]: "
        f"{plural(result.memories, 'memory', 'memories')} ({result.inserted} added, "
        f"{result.updated} updated by the delta), {plural(result.relations, 'relation')}, "
        f"{plural(result.conversations, 'conversation')}, {plural(result.embeddings, 'embedding')}."
    )
    out.print(f"  export id {result.export_id}, checksum {result.checksum}")
    print_warnings(out, result.warnings)
