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
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from memvault.cli.common import (
    IMPORT_COMMITTED,
    NOTHING_WRITTEN,
    JsonOption,
    VaultOptions,
    console,
    done_so_far,
    fail,
    interruptible,
    open_vault,
    plural,
    print_json,
    require_input,
)
from memvault.errors import VaultError
from memvault.importers.base import (
    ImportedConversation,
    Importer,
    ImportFormatError,
)
from memvault.importers.detect import DetectionError, detect, load, looks_like_pam
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
from memvault.sources import AgePassphrase, SourceError, Target, open_target

if TYPE_CHECKING:
    from memvault.vault import Vault

PANEL = "Exchange"
#: Archives refused before anything is read: reported as they are, whatever the content.
_ARCHIVE_REFUSALS = frozenset(
    {"zip-bomb", "zip-path", "zip-symlink", "zip-nested", "zip-encrypted", "zip-duplicate",
     "zip-limit", "bad-zip"}
)  # fmt: skip
STDIN = "-"

FromOption = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="PROVIDER",
        show_default=False,
        help="Read the input as this provider's export instead of detecting it: chatgpt, "
        "claude, gemini, copilot, grok, or memory-text (a pasted memory list; PATH '-' reads "
        "standard input).",
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
    app.command("convert", rich_help_panel=PANEL)(interruptible(NOTHING_WRITTEN)(convert))


# -- choosing the importer ----------------------------------------------------------------------


def choose(
    path: str,
    forced: str | None,
    passphrase: AgePassphrase,
    identities: list[str],
    *,
    strict: bool = False,
) -> Importer | None:
    """The importer for `path` (forced by name, or detected), or None when the input is not
    a provider export (the PAM import reads it and reports what it cannot read). With
    `strict` (convert: there is no PAM path) every failure is reported here."""
    if forced is not None:
        try:
            return load(forced)
        except DetectionError as exc:
            fail(str(exc))
    if path == STDIN:
        fail("reading standard input needs --from memory-text")
    try:
        with open_target(path, age_passphrase=passphrase, age_identities=identities) as target:
            try:
                return detect(target)
            except DetectionError:
                if looks_like_pam(target):
                    return None
                raise
    except DetectionError as exc:
        if strict:
            fail(str(exc))
        return None  # the PAM path reports what it could not read, as it always has
    except SourceError as exc:
        if strict:
            fail(f"{exc}; nothing was written")
        if exc.code in _ARCHIVE_REFUSALS:
            fail(f"{exc}; nothing was imported")
        return None


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
    importer: Importer,
    *,
    options: VaultOptions,
    passphrase: AgePassphrase,
    identities: list[str],
    platform: str,
    as_json: bool,
    then: AfterImport | None = None,
) -> None:
    """`memvault import` of a provider export or pasted list: one transaction, a summary."""
    if isinstance(importer, MemoryTextImporter) and importer.platform != platform:
        importer = MemoryTextImporter(platform)
    checksum = ChecksumReader(path) if path != STDIN else None
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
        else:
            with (
                open_target(path, age_passphrase=passphrase, age_identities=identities) as target,
                _progress(_conversation_bytes(target)) as feedback,
            ):
                digest = checksum.result() if checksum is not None else None
                context = make_context(path, digest, progress=feedback.on_bytes)
                result = ingest(
                    vault,
                    importer,
                    target,
                    context,
                    on_conversation=feedback.on_conversation,
                )
        done_so_far(IMPORT_COMMITTED)
        extra = then.after(vault) if then is not None else None
    _summary(path, result, as_json, extra)
    if then is not None:
        then.show()


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
        typer.Option(
            "--owner-id",
            show_default=False,
            help="owner.id of the memory-store written (PAM §3.1). Default: a UUID derived "
            "from the export's checksum (the same export, the same id).",
        ),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace DIR if it exists.")
    ] = False,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="FORMAT",
            show_default=False,
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
            as_json=as_json,
        )  # fmt: skip
        return
    importer = choose(path, from_, None, [], strict=True)
    if importer is None:
        fail(f"{path} is a PAM document or export already; convert reads provider exports")
    if isinstance(importer, MemoryTextImporter) and importer.platform != platform:
        importer = MemoryTextImporter(platform)
    from memvault.importers.convert import ConvertError, convert_export, convert_records

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
                summary = convert_export(
                    importer,
                    target,
                    context,
                    output,
                    owner_id=owner_id or converted_owner_id(digest or path),
                    overwrite=overwrite,
                    counted=lambda records: _counted(records, fb.on_conversation),
                )
    except (ImportFormatError, SourceError, ConvertError) as exc:
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


def _counted(records: Iterator[Any], report: Callable[[int], None]) -> Iterator[Any]:
    from memvault.importers.pipe import EncodedConversation

    count = 0
    for record in records:
        if isinstance(record, ImportedConversation | EncodedConversation):
            count += 1
            report(count)
        yield record
