"""Provider exports in: `memvault import` for a ChatGPT (or other provider) export or a pasted
memory list, and `memvault convert`, the same importers writing PAM files without a vault.

The rules live in `memvault.importers`; these commands pick the importer, show progress (on a
terminal only, on stderr) and render the summary.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import typer
from rich.markup import escape
from rich.table import Table

from memvault.cli.common import (
    IMPORT_COMMITTED,
    NOTHING_WRITTEN,
    JsonOption,
    VaultOptions,
    bulk_command,
    console,
    done_so_far,
    fail,
    interruptible,
    open_vault,
    plural,
    print_json,
    refuse_with_findings,
    require_input,
    unset_flag,
    usage_error,
)
from memvault.errors import VaultError
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    Importer,
    ImportFormatError,
)
from memvault.importers.detect import load
from memvault.importers.ids import converted_owner_id
from memvault.importers.ingest import (
    ChecksumReader,
    IngestResult,
    bytes_checksum,
    file_checksum,
    ingest,
    make_context,
)
from memvault.importers.memory_text import MemoryTextImporter
from memvault.jsonread import JSONDocumentError
from memvault.sources import AgePassphrase, SourceError, Target, open_target

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from memvault.hub.reading import HubImporter
    from memvault.input_kind import InputKind, ProviderPart
    from memvault.vault import Vault

PANEL = "Exchange"
STDIN = "-"

FromOption = Annotated[
    str | None,
    unset_flag(
        "--from",
        metavar="PROVIDER",
        help="Read the input as this instead of detecting it: a provider's export (chatgpt, "
        "claude, gemini, copilot, grok), memory-text (a pasted memory list; PATH '-' reads "
        "standard input), or, for import, pam (a PAM document or export) or aimem (an AIMEM "
        "bundle).",
    ),
]
PlatformOption = Annotated[
    str,
    typer.Option(
        "--platform",
        help="For --from memory-text: the platform the list came from (PAM §11.4).",
    ),
]


def register(app: typer.Typer) -> None:
    converting = bulk_command(interruptible(NOTHING_WRITTEN)(convert))
    app.command("convert", rich_help_panel=PANEL)(converting)


# -- choosing the importer ----------------------------------------------------------------------


def choose(
    path: str,
    forced: str | None,
    passphrase: AgePassphrase,
    identities: list[str],
    *,
    nothing: str = "nothing was imported",
) -> InputKind:
    """What `path` is (`memvault.input_kind.classify`): an AIMEM bundle, a PAM document or
    export, or provider exports; its refusals as one message (`nothing` ends it)."""
    from memvault.input_kind import FORMAT_NAMES, InputKindError, classify

    if path == STDIN and (forced is None or forced.lower() in FORMAT_NAMES):
        fail("reading standard input needs --from memory-text")
    try:
        return classify(path, forced=forced, age_passphrase=passphrase, age_identities=identities)
    except InputKindError as exc:
        if exc.findings:
            refuse_with_findings(f"{path} was not imported", exc.findings, str(exc), error=exc)
        fail(f"{exc}; {nothing}")
    except SourceError as exc:
        fail(f"{exc}; {nothing}")


# -- progress -----------------------------------------------------------------------------------


@dataclass
class _Feedback:
    """A progress bar on stderr (bytes read and conversations) when stderr is a terminal."""

    total: int | None
    progress: Progress | None = None
    task: TaskID | None = None
    conversations: int = 0
    bytes_read: int = field(default=0)

    def on_bytes(self, read: int) -> None:
        self.bytes_read = read
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, completed=read)

    def on_conversation(self, count: int) -> None:
        self.conversations = count
        if self.progress is not None and self.task is not None and (count < 50 or count % 50 == 0):
            self.progress.update(self.task, conversations=count)


@contextmanager
def _progress(total: int | None) -> Iterator[_Feedback]:
    feedback = _Feedback(total)
    if not sys.stderr.isatty():
        yield feedback
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("importing"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[conversations]} conversations"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        feedback.progress = progress
        feedback.task = progress.add_task("import", total=total, conversations=0)
        yield feedback


def _conversation_bytes(target: Target) -> int | None:
    from memvault.importers.chatgpt import conversations_entry

    entry = conversations_entry(target)
    return entry.size if entry is not None else None


# -- import ----------------------------------------------------------------------------------


class AfterImport(Protocol):
    """More work in the same vault session once a provider import has committed (`import
    --extract`): `before` sees the vault before the import, `after` once it is committed and
    returns what --json adds to the summary, `show` prints below the summary (and may exit
    non-zero). `after` reports its own errors: the import is already in the vault."""

    def before(self, vault: Vault) -> None: ...

    def after(self, vault: Vault) -> dict[str, Any]: ...

    def show(self) -> None: ...


def import_provider(
    path: str,
    importer: Importer | None,
    *,
    options: VaultOptions,
    passphrase: AgePassphrase,
    identities: list[str],
    platform: str,
    as_json: bool,
    then: AfterImport | None = None,
    checksum: ChecksumReader | None = None,
) -> None:
    """`memvault import` of a provider export or pasted list: one transaction, a summary.
    `importer` None: the importers that recognize `path` (`input_kind.provider_parts`),
    several providers' exports in one folder each imported, all in one transaction.
    `checksum`: the export's, if the caller started reading it (`early_checksum`)."""
    if isinstance(importer, MemoryTextImporter) and importer.platform != platform:
        importer = MemoryTextImporter(platform)
    if checksum is None and path != STDIN:
        checksum = ChecksumReader(path)
    results: list[tuple[str, IngestResult]] = []
    with open_vault(options) as vault, _import_errors(path):
        if then is not None:
            then.before(vault)
        if path == STDIN:
            if not isinstance(importer, MemoryTextImporter):
                fail("standard input ('-') can only be read with --from memory-text")
            data = sys.stdin.buffer.read()
            context = make_context("<stdin>", bytes_checksum(data))
            from memvault.importers.ingest import store_records

            result = IngestResult(importer.id.importer_version)
            store_records(vault, importer.read_text(data, "<stdin>", context), result)
            result.warnings.extend(context.warnings)
            results.append((path, result))
        else:
            with (
                open_target(path, age_passphrase=passphrase, age_identities=identities) as target,
                _progress(_conversation_bytes(target)) as feedback,
            ):
                digest = checksum.result() if checksum is not None else None
                parts = _parts(target, importer)
                if len(parts) == 1:
                    context = make_context(path, digest, progress=feedback.on_bytes)
                    result = ingest(
                        vault,
                        parts[0].importer,
                        target,
                        context,
                        on_conversation=feedback.on_conversation,
                    )
                    results.append((path, result))
                else:
                    from memvault.importers.parts import ingest_parts

                    def context_for(part: ProviderPart) -> ImportContext:
                        return make_context(_part_path(path, part), digest)

                    several = ingest_parts(
                        vault, parts, context_for, on_conversation=feedback.on_conversation
                    )
                    results.extend(
                        (_part_path(path, part), r) for part, r in zip(parts, several, strict=True)
                    )
        done_so_far(IMPORT_COMMITTED)
        extra = then.after(vault) if then is not None else None
    if len(results) == 1:
        _summary(results[0][0], results[0][1], as_json, extra)
    else:
        _summaries(path, results, as_json, extra)
    if then is not None:
        then.show()


def early_checksum(path: str, forced: str | None) -> ChecksumReader | None:
    """The checksum of what `memvault import` was given, read from the start of the command
    while it tells what the input is (for a provider export, whose import needs it; cancel it
    otherwise): on an idle machine hashing a 300 MB export was the longest step before the
    import's first write."""
    from memvault.input_kind import FORMAT_NAMES

    if path == STDIN or (forced is not None and forced.lower() in (*FORMAT_NAMES, "memory-text")):
        return None
    # (a file only: a folder's checksum cannot be cancelled midway)
    return ChecksumReader(path) if Path(path).is_file() else None


def _parts(target: Target, importer: Importer | None) -> list[ProviderPart]:
    from memvault.input_kind import InputKindError, ProviderPart, provider_parts

    if importer is not None:
        return [ProviderPart(importer, "", target)]
    try:
        parts = provider_parts(target)
    except InputKindError as exc:
        fail(f"{exc}; nothing was imported")
    if not parts:
        fail(f"{target.path} is not a provider export memvault recognizes; nothing was imported")
    return parts


def _part_path(path: str, part: ProviderPart) -> str:
    return f"{path.rstrip('/')}/{part.root}" if part.root else path


def _summaries(
    path: str, results: list[tuple[str, IngestResult]], as_json: bool, extra: dict[str, Any] | None
) -> None:
    """The summary of an import of several providers' exports: one per export."""
    if as_json:
        parts = [{"source": where, **result.to_json()} for where, result in results]
        print_json({"path": path, "parts": parts, **(extra or {})})
        return
    names = ", ".join(f"{r.importer.split('-importer')[0]} ({where})" for where, r in results)
    console().print(
        f"[green]✓[/] {len(results)} exports in [bold]{escape(path)}[/], imported together: "
        f"{escape(names)}"
    )
    for where, result in results:
        _summary(where, result, False)


@contextmanager
def _import_errors(path: str) -> Iterator[None]:
    try:
        yield
    except (ImportFormatError, SourceError) as exc:
        fail(f"{exc}; nothing was imported")
    except VaultError as exc:
        fail(f"{path}: {exc}; nothing was imported")


def _summary(
    path: str, result: IngestResult, as_json: bool, extra: dict[str, Any] | None = None
) -> None:
    if as_json:
        print_json({**result.to_json(), **(extra or {})})
        return
    out = console()
    changed = result.conversations_new + result.conversations_updated + result.memories_new
    mark = "[green]✓[/]"
    if not changed and not result.memories_reinforced:
        out.print(f"{mark} Nothing new in [bold]{escape(path)}[/] ({result.importer}).")
    else:
        out.print(f"{mark} Imported [bold]{escape(path)}[/] ({result.importer}):")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    table.add_column("new", justify="right")
    table.add_column("updated", justify="right")
    table.add_column("unchanged", justify="right")
    table.add_column("absent", justify="right")
    table.add_row(
        "conversations",
        str(result.conversations_new),
        str(result.conversations_updated),
        str(result.conversations_unchanged),
        str(result.conversations_absent),
    )
    table.add_row(
        "messages",
        str(result.messages_new),
        "",
        str(result.messages_total - result.messages_new),
        str(result.messages_absent),
    )
    table.add_row(
        "memories",
        str(result.memories_new),
        f"{result.memories_reinforced} reinforced" if result.memories_reinforced else "",
        str(result.memories_unchanged),
        "",
    )
    out.print(table)
    if result.conversations_absent or result.messages_absent:
        out.print(
            f"absent: {plural(result.conversations_absent, 'conversation')} and "
            f"{plural(result.messages_absent, 'message')} in the vault were not in this "
            "source; kept (the vault is the archive)."
        )
    shown = result.warnings[:20]
    for warning in shown:
        out.print(f"[yellow]warning:[/] {escape(warning)}")
    if len(result.warnings) > len(shown):
        hidden = len(result.warnings) - len(shown)
        out.print(f"[yellow]… and {plural(hidden, 'more warning')}[/]")


# -- convert ---------------------------------------------------------------------------------


def _refuse_a_taken_output(output: Path, overwrite: bool) -> None:
    """Before reading a byte of the export (a large one takes minutes): an OUT that holds
    something is kept, and the refusal names the option that replaces it."""
    taken = output.exists() and not (output.is_dir() and not any(output.iterdir()))
    if taken and not overwrite:
        fail(
            f"{output} exists and is not an empty directory; choose another path or pass "
            "--overwrite to replace it; nothing was written"
        )


def convert(
    path: str = typer.Argument(
        ...,
        metavar="PATH",
        help="A provider export: a .zip as downloaded, its extracted folder, or its main file; "
        "'-' with --from memory-text reads a pasted list from standard input.",
    ),
    output: Path = typer.Option(
        ...,
        "--output",
        "-o",
        metavar="DIR",
        help="Where to write the PAM files: a new directory (or a .zip).",
    ),
    from_: FromOption = None,
    platform: PlatformOption = "chatgpt",
    owner_id: Annotated[
        str | None,
        unset_flag(
            "--owner-id",
            help="owner.id of the memory-store written (PAM §3.1). Default: a UUID derived "
            "from the export's checksum (the same export, the same id).",
        ),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace DIR if it exists.")
    ] = False,
    to: Annotated[
        str | None,
        unset_flag(
            "--to",
            metavar="FORMAT",
            help="Convert between the interchange formats instead: aimem (PAM files to an "
            "AIMEM bundle, OUT.aimem.json) or pam (an AIMEM bundle to PAM: OUT.json, the "
            "memory-store alone, or a directory). Lossless both ways.",
        ),
    ] = None,
    producer: Annotated[
        str,
        typer.Option(
            "--producer",
            metavar="NAMESPACE",
            help="With --to aimem: the Producer Namespace of the chunk URNs (AIMEM §2.3).",
        ),
    ] = "memvault",
    stream: Annotated[
        bool,
        typer.Option("--stream", help="With --to aimem: write the NDJSON form (AIMEM §3.1)."),
    ] = False,
    allow_unverified: Annotated[
        bool,
        typer.Option(
            "--allow-unverified",
            help="With --to aimem: convert a signed PAM export whose signature does not "
            "verify (refused otherwise), with a loud warning (PAM §18.4).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Convert a provider export to PAM files without a vault.

    Writes conversations/<id>.json (PAM normalized conversations, §25) and memory-store.json
    with the memories the provider exported and an index of the conversations (§14). Nothing
    appears at DIR until everything is written.

    With --to aimem|pam: convert PAM files to an AIMEM bundle or back, without a vault;
    PAM → AIMEM → PAM gives back the same memories byte for byte (docs/aimem-mapping.md).

    Examples: memvault convert chatgpt-export.zip -o pam/ ·
    pbpaste | memvault convert - --from memory-text -o pam/ ·
    memvault convert backup.zip --to aimem -o brain.aimem.json
    """
    require_input(path)
    if to is not None:
        from memvault.cli.bundles import convert_interchange

        convert_interchange(
            path, output, to, producer=producer, stream=stream, overwrite=overwrite,
            allow_unverified=allow_unverified, as_json=as_json,
        )  # fmt: skip
        return
    if allow_unverified:
        usage_error("--allow-unverified goes with --to (provider exports are not signed)")
    if from_ is not None and from_.lower() in ("pam", "aimem"):
        usage_error(
            f"--from {from_}: convert reads provider exports; --to pam|aimem converts "
            "between the interchange formats",
            "--from",
        )
    _refuse_a_taken_output(output, overwrite)
    decided = choose(path, from_, None, [], nothing="nothing was written")
    if decided.kind != "provider":
        what = "an AIMEM bundle" if decided.kind == "aimem" else "a PAM document or export"
        if decided.declared:
            fail(f"{path} is {what} already; convert reads provider exports (or --to pam|aimem)")
        from memvault.importers.detect import not_recognized

        with open_target(path) as target:
            fail(not_recognized(target))
    if len(decided.providers) > 1:
        fail(
            f"{path} holds exports of several providers ({', '.join(decided.providers)}); "
            "convert one at a time (or import them together with `memvault import`)"
        )
    importer = load(from_ or decided.providers[0])
    if isinstance(importer, MemoryTextImporter) and importer.platform != platform:
        importer = MemoryTextImporter(platform)
    from memvault.errors import ConvertError
    from memvault.importers.convert import convert_export, convert_records

    try:
        if path == STDIN:
            if not isinstance(importer, MemoryTextImporter):
                fail("standard input ('-') can only be read with --from memory-text")
            data = sys.stdin.buffer.read()
            context = make_context("<stdin>", bytes_checksum(data))
            summary = convert_records(
                importer.read_text(data, "<stdin>", context),
                output,
                owner_id=owner_id or converted_owner_id(str(context.source_checksum)),
                overwrite=overwrite,
            )
        else:
            with open_target(path) as target, _progress(_conversation_bytes(target)) as fb:
                digest = file_checksum(path)
                context = make_context(path, digest, progress=fb.on_bytes)
                if isinstance(importer, _hub_importer()):
                    owner = owner_id or converted_owner_id(digest or path)
                    summary = _convert_hub(importer, target, context, output, overwrite, owner)
                else:
                    summary = convert_export(
                        importer,
                        target,
                        context,
                        output,
                        owner_id=owner_id or converted_owner_id(digest or path),
                        overwrite=overwrite,
                        counted=lambda records: _counted(records, fb.on_conversation),
                    )
    except (ImportFormatError, SourceError, ConvertError, JSONDocumentError) as exc:
        fail(f"{exc}; nothing was written")
    summary["warnings"] = list(context.warnings)
    summary["importer"] = importer.id.importer_version
    if as_json:
        print_json(summary)
        return
    out = console()
    out.print(
        f"[green]✓[/] Converted [bold]{escape(path)}[/] ({summary['importer']}) to "
        f"[bold]{escape(str(output))}[/]: {plural(summary['conversations'], 'conversation')} "
        f"({plural(summary['messages'], 'message')}), "
        f"{plural(summary['memories'], 'memory', 'memories')}"
    )
    for warning in summary["warnings"][:20]:
        out.print(f"[yellow]warning:[/] {escape(warning)}")


def _hub_importer() -> type[HubImporter]:
    from memvault.hub.reading import HubImporter

    return HubImporter


def _convert_hub(
    importer: HubImporter, target: Target, context: ImportContext, output: Path,
    overwrite: bool, owner_id: str,
) -> dict[str, Any]:  # fmt: skip
    """`convert` of a memory system's file: its memories and conversations as PAM files; what
    was carried (and the relations, which `convert` does not write) among the warnings."""
    from memvault.importers.base import ImportedMemory
    from memvault.importers.convert import convert_records

    read = importer.read_all(target, context)
    records: list[Any] = [ImportedMemory(m) for m in read.memories]
    records += [ImportedConversation(c) for c in read.conversations]
    summary = convert_records(records, output, owner_id=owner_id, overwrite=overwrite)
    context.warnings.extend(line.strip() for line in read.tally.lines())
    if read.relations:
        context.warnings.append(
            f"{plural(len(read.relations), 'relation')} not written: convert writes memories and "
            "conversations; `memvault import` keeps the relations"
        )
    return summary


def _counted(records: Iterator[Any], report: Callable[[int], None]) -> Iterator[Any]:
    from memvault.importers.pipe import EncodedConversation

    count = 0
    for record in records:
        if isinstance(record, ImportedConversation | EncodedConversation):
            count += 1
            report(count)
        yield record
