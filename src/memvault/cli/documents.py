"""`memvault validate` and `memvault inspect`: check and summarize PAM documents and AIMEM
bundles."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from memvault.cli.common import bulk_command
from memvault.cli.signing import (
    AgeIdentityOption,
    AgePassphraseFileOption,
    age_identities,
    age_passphrase,
)
from memvault.findings import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    EXIT_VALID,
    Finding,
    ValidationResult,
    by_rule,
    counted,
    errors_text,
)
from memvault.formats.pam.validate import validate_path


def register(app: typer.Typer) -> None:
    app.command("validate")(bulk_command(validate))
    app.command("inspect")(inspect)


def _console() -> Console:
    # emoji=False: Rich would otherwise render "did:key:" as "did🔑".
    return Console(highlight=False, soft_wrap=True, emoji=False)


def validate(
    paths: list[Path] = typer.Argument(
        ...,
        readable=False,  # unreadable paths are reported per path (exit 2), not as usage errors
        help="Memory-store, conversation or embeddings files, export directories or .zip; "
        "AIMEM bundles (.aimem.json) and NDJSON streams.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the summary lines."),
    verbose: bool = typer.Option(
        False,
        "--verbose",
        "-v",
        help="List every finding; by default a rule found more than once is one line with a "
        "count (--json always lists every finding).",
    ),
    age_passphrase_file: AgePassphraseFileOption = None,
    age_identity: AgeIdentityOption = None,
) -> None:
    """Check PAM documents against the v1.0 spec: schema, hashes, checksum, references and
    signatures (verified, §18.4). Age-encrypted files are decrypted in memory (§21.1).
    AIMEM bundles and NDJSON streams (detected by content) are checked against every MUST of
    AIMEM §2, the checksum first (a mismatch is the only finding, status 409).

    Example: memvault validate examples/export.zip brain.aimem.json --strict

    Exit status: 0 valid (warnings allowed), 1 invalid, 2 unreadable or usage error.
    """
    secret = age_passphrase(age_passphrase_file)
    identities = age_identities(age_identity)
    results = [_validate_target(p, secret, identities) for p in paths]
    codes = [_exit_code(r, strict) for r in results]
    if as_json:
        payload: Any = [r.to_json() for r in results]
        sys.stdout.buffer.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        console = _console()
        for result in results:
            _render(console, result, quiet=quiet, verbose=verbose)
        if len(results) > 1:
            ok = sum(1 for c in codes if c == EXIT_VALID)
            console.print(f"{ok} of {len(results)} valid")
    raise typer.Exit(max(codes))


#: How a PAM document written schema-first begins (the official examples, memvault's own
#: exports): such a file cannot be an AIMEM bundle, whose members are format, version, …
_PAM_START = re.compile(rb'\s*\{\s*"schema"\s*:\s*"portable-ai-memory')


def _starts_like_pam(path: Path) -> bool:
    """A regular file whose first bytes are those of a PAM document: validated as PAM without
    loading the AIMEM reader (and its COSE and key libraries) to rule out a bundle first."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as handle:
            head = handle.read(256)
    except OSError:
        return False
    return _PAM_START.match(head) is not None


def _validate_target(path: Path, secret: Any, identities: Any) -> ValidationResult:
    """An AIMEM bundle or NDJSON stream (detected by content; also age-encrypted, or the one
    bundle of a zip) or a PAM target."""
    if _starts_like_pam(path):
        return validate_path(path, age_passphrase=secret, age_identities=identities)
    from memvault.formats.aimem.container import validate_bundle_at

    report = validate_bundle_at(path, age_passphrase=secret, age_identities=identities)
    if report is not None:
        return report.to_validation_result()
    result = validate_path(path, age_passphrase=secret, age_identities=identities)
    if result.facts.get("encryption") == "age" and _bundle_inside(result):
        # An age file whose name does not say "bundle" is tried as PAM first (one decryption
        # for PAM files); it held a bundle after all.
        report = validate_bundle_at(
            path, age_passphrase=secret, age_identities=identities, decrypt=True
        )
        if report is not None:
            return report.to_validation_result()
    return result


def _bundle_inside(result: ValidationResult) -> bool:
    """Whether the PAM validator met an AIMEM bundle, or a zip without a PAM export."""
    return result.kind == "aimem-bundle" or any(
        f.code == "no-memory-store" for f in result.findings
    )


def _exit_code(result: ValidationResult, strict: bool) -> int:
    code = result.exit_code
    if strict and code == EXIT_VALID and result.warnings:
        return EXIT_INVALID
    return code


def _render(console: Console, result: ValidationResult, *, quiet: bool, verbose: bool) -> None:
    errors, warnings = result.errors, result.warnings
    if result.unreadable:
        status = "[bold red]✗ unreadable[/]"
    elif errors:
        status = "[bold red]✗ invalid[/]"
    else:
        status = "[bold green]✓ valid[/]"
    detail = []
    store = result.facts.get("memory_store")
    if store:
        detail.append(counted(store["memories"], "memory", "memories"))
    counts = result.facts.get("counts") if result.kind == "aimem-bundle" else None
    if counts:
        detail.append(f"{result.facts.get('form')} form, {counted(counts['chunks'], 'chunk')}")
    detail.append(counted(len(errors), "error"))
    detail.append(counted(len(warnings), "warning"))
    console.print(f"{status} {escape(result.target)}  [dim]{result.kind}; {', '.join(detail)}[/]")
    if quiet:
        return
    if verbose:
        for finding in result.findings:
            _render_finding(console, result, finding)
        return
    for rule in by_rule(result.findings):
        if rule.count == 1:
            _render_finding(console, result, rule.first)
            continue
        first = rule.first
        colour = "red" if rule.severity == "error" else "yellow"
        section = f" [dim]{escape(first.section)}[/]" if first.section else ""
        console.print(
            f"  [{colour}]{rule.severity:<7}[/] [bold]{rule.code}[/] ×{rule.count}{section}"
            f" [dim](first at {escape(first.path)}{_in_file(result, first)}; --verbose lists "
            f"all)[/] {escape(first.message)}"
        )


def _in_file(result: ValidationResult, finding: Finding) -> str:
    if finding.file and finding.file != result.target:
        return f" in {escape(finding.file)}"
    return ""


def _render_finding(console: Console, result: ValidationResult, finding: Finding) -> None:
    colour = "red" if finding.severity == "error" else "yellow"
    where = escape(finding.path)
    if finding.record:
        where += f" [dim](record {escape(finding.record)})[/]"
    section = f" [dim]{escape(finding.section)}[/]" if finding.section else ""
    file = f" [dim]{_in_file(result, finding).lstrip()}[/]" if _in_file(result, finding) else ""
    console.print(
        f"  [{colour}]{finding.severity:<7}[/] [bold]{finding.code}[/] {where}{section}{file}"
    )
    console.print(f"          {escape(finding.message)}")


def inspect(
    path: Path = typer.Argument(
        ..., readable=False, help="A PAM file, export directory or .zip, or an AIMEM bundle."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    age_passphrase_file: AgePassphraseFileOption = None,
    age_identity: AgeIdentityOption = None,
) -> None:
    """Summarize a PAM export: memories by type, status, platform and extraction method, date
    range, relations, conversations, embedding models, integrity and signature status. For an
    AIMEM bundle or NDJSON stream: envelope, record counts and checksum. For a provider export
    (ChatGPT, Claude, Gemini, Copilot, Grok): the provider, the importer that reads it and its
    conversations, messages and memories, with the command that converts or imports it.

    Example: memvault inspect examples/export.zip
    """
    if not _starts_like_pam(path):
        _inspect_provider(path, as_json)
    result = _validate_target(
        path, age_passphrase(age_passphrase_file), age_identities(age_identity)
    )
    if as_json:
        payload = {"target": result.target, "kind": result.kind, "valid": result.valid}
        payload.update(result.facts)
        sys.stdout.buffer.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2) + b"\n")
        raise typer.Exit(_inspect_code(result.unreadable, result.valid))
    console = _console()
    if result.unreadable:
        for finding in result.errors:
            console.print(f"[bold red]✗[/] {escape(finding.file or '')}: {escape(finding.message)}")
        raise typer.Exit(EXIT_UNREADABLE)
    state = (
        "[green]valid[/]"
        if result.valid
        else f"[red]invalid ({errors_text(len(result.errors))})[/]"
    )
    console.print(f"[bold]{escape(result.target)}[/]  {result.kind}, {state}")
    store = result.facts.get("memory_store")
    if store:
        _inspect_store(console, store)
    if result.kind == "aimem-bundle" and "counts" in result.facts:
        _inspect_bundle(console, result.facts)
    embeddings = result.facts.get("embeddings")
    if embeddings:
        models = ", ".join(f"{m} ×{n}" for m, n in embeddings["models"].items()) or "none"
        console.print(f"Embeddings: {embeddings['count']} ({escape(models)})")
    if "conversation_files" in result.facts:
        console.print(f"Conversation files checked: {result.facts['conversation_files']}")
    if result.kind == "unknown" and result.errors:
        # Nothing to summarize: what it is not is the whole story.
        console.print(f"  {escape(result.errors[0].message)}")
    if not result.valid:
        console.print("[dim]Run `memvault validate` for the findings.[/]")
    raise typer.Exit(_inspect_code(result.unreadable, result.valid))


def _inspect_code(unreadable: bool, valid: bool) -> int:
    """As `validate` answers: 0 valid, 1 invalid (the summary is still printed), 2
    unreadable — a script can tell a good file from a bad one without a second command."""
    return EXIT_UNREADABLE if unreadable else EXIT_VALID if valid else EXIT_INVALID


def _inspect_provider(path: Path, as_json: bool) -> None:
    """A provider export (`memvault.importers.survey`): described, then exit 0 (1 when it
    cannot be read to the end). Returns only when `path` is not one."""
    from memvault.importers.survey import survey_export

    survey = survey_export(path)
    if survey is None:
        return
    code = EXIT_VALID if survey.complete else EXIT_INVALID
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(survey.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
        raise typer.Exit(code)
    console = _console()
    name = escape(str(path))
    console.print(
        f"[bold]{name}[/]  {survey.provider} export ({survey.kind}), read by "
        f"{survey.importer_version}"
    )
    partial = "" if survey.complete else " (read until the error below)"
    console.print(
        f"Conversations: {survey.conversations}  Messages: {survey.messages}  "
        f"Memories: {survey.memories}{partial}"
    )
    if survey.error:
        console.print(f"[bold red]✗[/] {escape(survey.error)}")
    for warning in survey.warnings[:5]:
        console.print(f"[yellow]warning:[/] {escape(warning)}")
    if len(survey.warnings) > 5:
        console.print(f"[dim]… and {len(survey.warnings) - 5} more warnings[/]")
    console.print(
        f"It is a provider export, not a PAM document: [bold]memvault convert {name} -o DIR[/] "
        f"writes it as PAM files; [bold]memvault import {name}[/] brings it into your vault."
    )
    raise typer.Exit(code)


def _inspect_bundle(console: Console, facts: dict[str, Any]) -> None:
    legacy = " (legacy name)" if facts.get("legacy_format") else ""
    console.print(
        f"AIMEM v{escape(str(facts.get('version')))} {escape(str(facts.get('format')))}{legacy}, "
        f"{facts['form']} form; producer {escape(str(facts.get('producer')))}, "
        f"tenant {escape(str(facts.get('tenant_id')))}"
    )
    since = f" since {escape(str(facts['since']))}" if "since" in facts else ""
    exported, scope = escape(str(facts.get("exported_at"))), escape(str(facts.get("scope")))
    console.print(f"Exported: {exported}  scope {scope}{since}")
    counts = facts["counts"]
    console.print(
        f"Chunks: {counts['chunks']}  Edges: {counts['edges']}  Entities: {counts['entities']}  "
        f"Chunk-entity links: {counts['chunk_entities']}"
    )
    if "embedding_model" in facts:
        console.print(
            f"Embeddings: {escape(str(facts['embedding_model']))} "
            f"({escape(str(facts.get('embedding_dim')))}d)"
        )
    if facts.get("extra_members"):
        console.print(f"Extra members: {escape(', '.join(facts['extra_members']))}")
    console.print(f"Checksum: {escape(str(facts.get('checksum')))}")


def _inspect_store(console: Console, store: dict[str, Any]) -> None:
    first, last = store["created_range"]
    console.print(
        f"Memories: {store['memories']}  ({store['export_type']} export, "
        f"schema_version {store['schema_version']})"
    )
    if first:
        console.print(f"Created: {first} … {last}")
    grid = Table.grid(padding=(0, 3))
    for _ in range(4):
        grid.add_column()
    columns = [
        ("Type", store["by_type"]),
        ("Status", store["by_status"]),
        ("Platform", store["by_platform"]),
        ("Extraction", store["by_extraction_method"]),
    ]
    tables = []
    for title, counts in columns:
        table = Table(title=title, show_header=False, box=None, padding=(0, 1))
        table.add_column()
        table.add_column(justify="right")
        for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(escape(name), str(count))
        tables.append(table)
    grid.add_row(*tables)
    console.print(grid)
    relations = store["relations"]
    total = sum(relations.values())
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(relations.items()))
    console.print(f"Relations: {total}" + (f" ({kinds})" if kinds else ""))
    console.print(f"Conversations indexed: {store['conversations']}")
    console.print(f"Integrity: {store['integrity']}   Signature: {store['signature']}")
