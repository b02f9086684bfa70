"""`memvault extract`: turn the conversations stored in the vault into memories about the user
(PAM §25.1 "Extract Memories"), with the offline rules or an OpenAI-compatible LLM endpoint,
reconciled against what the vault already knows. See docs/extraction.md."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Final, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.table import Table

from memvault.cli.common import (
    COMMAND_LINE,
    JsonOption,
    VaultOptions,
    bulk_command,
    clip,
    console,
    fail,
    open_vault,
    plural,
    print_json,
    unset_flag,
    usage_error,
    vault_command,
)
from memvault.extract.settings import LLM_KEY_ENV, LLM_MODEL_ENV, LLM_URL_ENV

if TYPE_CHECKING:
    # The extractors load their patterns and HTTP client: only when `extract` runs.
    from memvault.extract.pipeline import Extractor, Report
    from memvault.extract.reconcile import Action, Kind
    from memvault.vault import Vault

PANEL = "Extraction"


def register(app: typer.Typer) -> None:
    app.command("extract", rich_help_panel=PANEL)(bulk_command(extract))


@dataclass
class _Feedback:
    progress: Progress | None = None
    task: TaskID | None = None

    def on_messages(self, total: int) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, total=total)

    def advance(self, count: int) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.advance(self.task, count)


@contextmanager
def _progress() -> Iterator[_Feedback]:
    """A progress bar of messages read, on stderr, only when stderr is a terminal."""
    feedback = _Feedback()
    if not sys.stderr.isatty():
        yield feedback
        return
    progress = Progress(
        TextColumn("extracting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("messages"),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        feedback.progress = progress
        feedback.task = progress.add_task("extract", total=None)
        yield feedback


_VERBS = {
    "create": "new",
    "reinforce": "reinforces",
    "merge": "merges into",
    "supersede": "supersedes",
    "history": "is older than, so superseded by",
    "propose": "proposed to replace (memvault review)",
    "contradict": "contradicts",
    "skip": "already extracted",
}


def _action_json(action: Action) -> dict[str, Any]:
    c = action.candidate
    return {
        "action": action.kind,
        "type": c.type,
        "content": c.content,
        "language": c.language,
        "confidence": c.confidence,
        "conversation": c.source.conversation_id,
        "message": c.source.message_id,
        "pattern": c.pattern,
        "targets": list(action.target_content),
        "similarity": action.similarity,
        "reason": action.reason,
        "derived": c.derived_from is not None,
    }


def _report_json(report: Report, dry_run: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "dry_run": dry_run,
        "conversations": report.conversations,
        "messages": report.messages,
        "actions": [_action_json(a) for a in report.plan.actions],
        "skipped": [
            {"conversation": s.conversation_id, "message": s.message_id, "reason": s.reason}
            for s in report.skipped
        ],
    }
    if report.applied is not None:
        applied = report.applied
        out["written"] = {
            "created": applied.created,
            "reinforced": applied.reinforced,
            "superseded": [{"new": n, "old": o} for n, o in applied.superseded],
            "contradicts": [{"from": f, "to": t} for f, t in applied.contradicts],
            "proposed": [{"new": n, "present": o} for n, o in applied.proposed],
            "derived_from": [{"from": f, "to": t} for f, t in applied.derived],
        }
    return out


#: Without --verbose: at most this many rows, of new memories only (those that add, supersede
#: or contradict; reinforcements and merges are counted in the summary), and of skipped
#: messages. A 100 MB export once printed 16,823 rows, one per reinforcement.
SHOWN_ROWS: Final = 20
SHOWN_SKIPPED: Final = 5
_NEW_KINDS: Final = frozenset({"create", "supersede", "history", "propose", "contradict"})
_CHANGE_KINDS: Final = frozenset({"supersede", "history", "propose"})


def _shown(listed: list[Action]) -> list[Action]:
    """Without --verbose: every change to what the vault holds as present (supersessions,
    history, proposals) and the first SHOWN_ROWS other new memories."""
    shown: list[Action] = []
    others = 0
    for action in listed:
        if action.kind in _CHANGE_KINDS:
            shown.append(action)
        elif action.kind in _NEW_KINDS and others < SHOWN_ROWS:
            others += 1
            shown.append(action)
    return shown


def _show(report: Report, dry_run: bool, verbose: bool = False) -> None:
    out = console()
    listed = [a for a in report.plan.actions if a.kind != "skip"]
    # Every supersession, piece of history and proposal is listed: they change what the vault
    # holds as present; new memories up to SHOWN_ROWS.
    shown = listed if verbose else _shown(listed)
    if shown:
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("action")
        table.add_column("type")
        table.add_column("memory")
        table.add_column("conf.", justify="right")
        for action in shown:
            memory = escape(clip(action.candidate.content, 70))
            source = action.candidate.derived_from
            if source is not None:
                memory += "\n  [dim]derived from: " + escape(clip(source.content, 60)) + "[/]"
            if action.target_content:
                memory += "\n  [dim]" + _VERBS[action.kind] + ": "
                memory += "; ".join(escape(clip(t, 60)) for t in action.target_content) + "[/]"
            table.add_row(
                action.kind,
                action.candidate.type,
                memory,
                f"{action.candidate.confidence:.2f}",
            )
        out.print(table)
    if len(shown) < len(listed):
        out.print(
            f"[dim]… {plural(len(listed) - len(shown), 'more row')} (reinforcements and "
            "merges included): --verbose lists them all[/]"
        )
    plan = report.plan
    labels: tuple[tuple[Kind, str], ...] = (
        ("create", "new"),
        ("supersede", "new superseding an older one"),
        ("history", "older kept as history"),
        ("propose", "proposed for review (memvault review)"),
        ("contradict", "new contradicting an older one"),
        ("reinforce", "reinforcing an existing one"),
        ("merge", "merged into an existing one"),
        ("skip", "already extracted"),
    )
    counts = ", ".join(f"{plan.count(kind)} {label}" for kind, label in labels if plan.count(kind))
    head = "Dry run, nothing written" if dry_run else "Done"
    out.print(
        f"{head}: {plural(report.messages, 'user message')} in "
        f"{plural(report.conversations, 'conversation')} → "
        f"{counts or 'no memories'}."
    )
    skipped_shown = report.skipped if verbose else report.skipped[:SHOWN_SKIPPED]
    for skipped in skipped_shown:
        typer.echo(
            f"warning: skipped conversation {skipped.conversation_id} message "
            f"{skipped.message_id}: {skipped.reason}",
            err=True,
        )
    if len(skipped_shown) < len(report.skipped):
        hidden = len(report.skipped) - len(skipped_shown)
        typer.echo(
            f"warning: … and {plural(hidden, 'more skipped message')} (--verbose lists them)",
            err=True,
        )


@vault_command
def extract(
    conversation: Annotated[
        str | None,
        unset_flag(
            "--conversation",
            metavar="ID",
            help="Only this stored conversation. Default: every conversation.",
        ),
    ] = None,
    since: Annotated[
        str | None,
        unset_flag(
            "--since",
            metavar="WHEN",
            help="Only messages written at or after this date or RFC 3339 timestamp.",
        ),
    ] = None,
    llm_url: Annotated[
        str | None,
        unset_flag(
            "--llm-url",
            metavar="URL",
            help="An OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (Ollama). "
            f"Default: ${LLM_URL_ENV}; with neither, the offline rules are used. API key: "
            f"${LLM_KEY_ENV}.",
        ),
    ] = None,
    llm_model: Annotated[
        str | None,
        unset_flag(
            "--llm-model", metavar="NAME", help=f"The model to ask. Default: ${LLM_MODEL_ENV}."
        ),
    ] = None,
    llm_timeout: Annotated[
        float,
        typer.Option("--llm-timeout", metavar="SECONDS", min=0.1, help="Per request."),
    ] = 60.0,
    batch_size: Annotated[
        int,
        typer.Option("--batch-size", metavar="N", min=1, help="User messages per LLM request."),
    ] = 20,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="Show what would be written, write nothing."),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="List every memory found, reinforcements and merges too. Default: the new "
            f"ones (at most {SHOWN_ROWS}) and a count of each kind.",
        ),
    ] = False,
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Extract memories about you from the conversations in the vault.

    Reads only your own (user) messages. Each statement found becomes a PAM memory with full
    provenance; the same fact again reinforces the memory that has it, a rewording is merged
    into it, a change ("I moved to Porto", "já não moro em…") supersedes the old memory, and
    a conflict without a clear winner is kept on both sides with a `contradicts` relation.
    The whole run is one transaction.

    Example: memvault extract --dry-run
    """
    from memvault.extract.llm import LLMConfig, LLMExtractor
    from memvault.extract.pipeline import run, vault_embedder
    from memvault.recall.embedders import EMBED_KEY_ENV

    with open_vault(options) as vault:
        config = LLMConfig.from_env(llm_url, llm_model, timeout=llm_timeout, batch_size=batch_size)
        extractor: Extractor | None = LLMExtractor(config) if config is not None else None
        with _progress() as feedback:
            report = run(
                vault,
                conversation=conversation,
                since=since,
                extractor=extractor,
                dry_run=dry_run,
                progress=feedback.advance,
                on_messages=feedback.on_messages,
                embedder=vault_embedder(vault, api_key=os.environ.get(EMBED_KEY_ENV)),
            )
    if as_json:
        print_json(_report_json(report, dry_run))
        return
    _show(report, dry_run, verbose)


# -- import --extract: the same extraction right after a provider import ------------------


def after_import_extraction(
    extract: bool, llm_url: str | None, llm_model: str | None, as_json: bool
) -> ExtractAfterImport | None:
    """The `--extract` step, its LLM settings checked before anything is imported."""
    if not extract:
        if llm_url is not None or llm_model is not None:
            usage_error("--llm-url and --llm-model choose the extractor of --extract", "--extract")
        return None
    from memvault.extract.llm import LLMConfig, LLMError, LLMExtractor

    try:
        config = LLMConfig.from_env(llm_url, llm_model)
    except LLMError as exc:
        fail(f"{exc}; nothing was imported")
    return ExtractAfterImport(LLMExtractor(config) if config is not None else None, as_json)


def extract_needs_provider_export() -> NoReturn:
    usage_error(
        "--extract reads provider exports (ChatGPT, Claude, Gemini, Copilot, Grok); import "
        "PAM files or an AIMEM bundle without it, then run `memvault extract`",
        "--extract",
    )


class ExtractAfterImport:
    """`import --extract`: once the import has committed, in the same vault session, extract
    from the conversations it added or changed (`memvault.extract.pipeline.extract_imported`)."""

    def __init__(self, extractor: Extractor | None, as_json: bool) -> None:
        self.extractor = extractor
        self.as_json = as_json
        self.mark = 0
        self.report: Report | None = None
        self.error: str | None = None

    def before(self, vault: Vault) -> None:
        from memvault.extract.pipeline import audit_mark

        self.mark = audit_mark(vault)

    def after(self, vault: Vault) -> dict[str, Any]:
        from memvault.errors import VaultError
        from memvault.extract.pipeline import changed_since, extract_imported, vault_embedder
        from memvault.recall.embedders import EMBED_KEY_ENV

        try:
            with _progress() as feedback:
                self.report = extract_imported(
                    vault,
                    changed_since(vault, self.mark),
                    extractor=self.extractor,
                    progress=feedback.advance,
                    on_messages=feedback.on_messages,
                    embedder=vault_embedder(vault, api_key=os.environ.get(EMBED_KEY_ENV)),
                )
        except VaultError as exc:
            # The LLM's errors already end with "nothing was written": say it once.
            cause = str(exc).removesuffix("; nothing was written")
            self.error = (
                f"extraction failed: {cause}; no memory was written. The import was kept: run "
                "`memvault extract` to extract from its conversations (messages already "
                "extracted are skipped)"
            )
            return {"extraction": {"error": str(exc)}}
        return {"extraction": _report_json(self.report, False)}

    def show(self) -> None:
        if self.error is not None:
            fail(self.error)
        if self.report is not None and not self.as_json:
            name = self.extractor.name if self.extractor is not None else "rules"
            console().print(f"[green]✓[/] Extracted memories ({escape(name)}):")
            _show(self.report, False)
