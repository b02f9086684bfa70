"""`memvault recall`, `conversations`, `reindex`, `embed`: finding memories and messages again.

Each command parses its options, calls one `Vault` method (`recall`, `reindex`, `embed`,
`get_conversation`, `conversations`) and renders the result; the rules live in
`memvault.recall`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final

import orjson
import typer
from rich.markup import escape
from rich.table import Table

from memvault import shapes
from memvault.cli.common import (
    COMMAND_LINE,
    EXIT_USAGE,
    SHORT_ID,
    JsonOption,
    VaultOptions,
    clip,
    command_group,
    console,
    fail,
    open_vault,
    plural,
    print_json,
    unique_prefixes,
    unset_flag,
    unset_option,
    usage_error,
    vault_command,
)

PANEL = "Recall"

conversations_app = command_group(
    "Read the imported conversations: list, show one (branches included), search them."
)


def register(app: typer.Typer) -> None:
    app.command("recall", rich_help_panel=PANEL)(recall)
    app.add_typer(conversations_app, name="conversations", rich_help_panel=PANEL)
    app.command("reindex", rich_help_panel=PANEL)(reindex)
    app.command("embed", rich_help_panel=PANEL)(embed)
    conversations_app.command("list")(list_conversations)
    conversations_app.command("show")(show_conversation)
    conversations_app.command("search")(search_conversations)


KindOption = Annotated[
    str,
    typer.Option(
        "--kind", metavar="KIND", help="memories, messages or all (both).", show_default=True
    ),
]
ModeOption = Annotated[
    str,
    typer.Option(
        "--mode",
        metavar="MODE",
        help="hybrid (full text and vectors), fts (full text only) or vector.",
        show_default=True,
    ),
]
KOption = Annotated[int, typer.Option("-k", "--k", min=1, help="How many results.")]
ConversationOption = Annotated[
    str | None,
    unset_flag("--conversation", metavar="ID", help="Only this conversation."),
]

#: The fields of a --batch line besides the query and the filters.
_BATCH_FIELDS: Final = frozenset({"query", "k", "mode"})


def _check_choice(value: str, choices: tuple[str, ...], option: str) -> None:
    if value not in choices:
        usage_error(f"{value!r} is not one of {', '.join(choices)}", option)


@vault_command
def recall(
    query: str | None = typer.Argument(
        None,
        metavar="QUERY",
        show_default=False,
        help="What to find, in your own words (any word may match; stop words are ignored; "
        "accents, case and word endings too).",
    ),
    k: KOption = 10,
    conversation: ConversationOption = None,
    kind: KindOption = "all",
    mode: ModeOption = "hybrid",
    include_inactive: bool = typer.Option(
        False,
        "--include-inactive",
        help="Also superseded, retracted, deprecated and archived memories.",
    ),
    batch: Path | None = unset_option(
        "--batch",
        metavar="FILE",
        help='Many queries, one JSON object a line ({"query", "k", "conversation", …}); '
        "prints one JSON line per query.",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Find the memories and conversation messages that answer a question.

    Full text (BM25, word endings and accents folded, English and Portuguese) and, once
    `memvault embed` has computed vectors, meaning; one result a row, with where it comes
    from. Until vectors are complete the results come from the full text, and a note says so.

    Example: memvault recall "where does Ana work?" -k 5 --kind messages

    With --json: {"query", "mode", "vectors_complete", "notes", "results": [{"kind", "id",
    "text", "score", "conversation_id", "message_ids"}]}. With --batch FILE: one line
    {"query", "results": […]} per line of FILE.
    """
    from memvault.recall.engine import KINDS, MODES

    _check_choice(kind, KINDS, "--kind")
    _check_choice(mode, MODES, "--mode")
    if batch is not None:
        if query is not None:
            usage_error("give either QUERY or --batch FILE, not both", "--batch")
        lines = _batch_lines(batch)
        with open_vault(options) as vault:
            embedder = _keyed_embedder(vault)
            for line in lines:
                text = line.pop("query")
                count = line.pop("k", k)
                how = line.pop("mode", mode)
                line.setdefault("kind", kind)
                if conversation is not None:
                    line.setdefault("conversation", conversation)
                if include_inactive:
                    line.setdefault("include_inactive", True)
                result = vault.recall(text, count, mode=how, embedder=embedder, **line)
                sys.stdout.buffer.write(
                    orjson.dumps({"query": text, "results": [h.to_json() for h in result.hits]})
                    + b"\n"
                )
            sys.stdout.flush()
        return
    if query is None:
        usage_error("give a QUERY, or --batch FILE", "QUERY")
    filters: dict[str, Any] = {"kind": kind}
    if conversation is not None:
        filters["conversation"] = conversation
    if include_inactive:
        filters["include_inactive"] = True
    with open_vault(options, arguments=True) as vault:
        result = vault.recall(query, k, mode=mode, embedder=_keyed_embedder(vault), **filters)
    if as_json:
        print_json(shapes.recall_json(query, result))
        return
    for note in result.notes:
        typer.echo(f"note: {note}", err=True)
    out = console()
    if not result.hits:
        out.print(f"Nothing found for {escape(query)!r}.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Score", justify="right", no_wrap=True)
    table.add_column("Kind", no_wrap=True)
    table.add_column("ID", no_wrap=True)
    table.add_column("Text", ratio=1, min_width=24)
    table.add_column("From", ratio=1, min_width=16)
    for hit in result.hits:
        table.add_row(
            f"{hit.score:.3f}",
            hit.kind,
            hit.id[:SHORT_ID],
            escape(clip(hit.text, 160)),
            escape(_provenance(hit)),
        )
    out.print(table)


def _keyed_embedder(vault: Any) -> Any:
    """The vault's endpoint embedder with the key in $MEMVAULT_EMBED_API_KEY, when both are
    there (the library reads no environment); else None: recall uses the vault's own."""
    from memvault.recall.embedders import EMBED_KEY_ENV, load_embedder

    key = os.environ.get(EMBED_KEY_ENV)
    spec = vault.embedder_spec() if key else None
    if spec is None or spec.kind != "openai":
        return None
    return load_embedder(spec, api_key=key)


def _provenance(hit: Any) -> str:
    """Where a hit comes from, in a few words."""
    parts: list[str] = []
    if hit.kind == "message":
        who = hit.participant or hit.role or "?"
        parts.append(f"{who}, {hit.at[:10]}" if hit.at else who)
    if hit.conversation_id:
        title = f" “{clip(hit.title, 40)}”" if hit.title else ""
        parts.append(f"conversation {hit.conversation_id[:SHORT_ID]}{title}")
    if hit.kind == "memory":
        if hit.message_ids:
            parts.append("messages " + ", ".join(m[:SHORT_ID] for m in hit.message_ids))
        if hit.status and hit.status != "active":
            parts.append(hit.status)
    return "; ".join(parts) or "—"


def _batch_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a --batch file, checked before any query runs (exit 1 naming the line
    and the field otherwise)."""
    from memvault.recall.engine import MODES, filters_from
    from memvault.vault import VaultError

    try:
        data = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}", EXIT_USAGE)
    lines: list[dict[str, Any]] = []
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{path}, line {number}"
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            fail(f"{where}: not JSON ({exc})")
        if not isinstance(line, dict):
            fail(f'{where}: each line is a JSON object such as {{"query": "…", "k": 10}}')
        query = line.get("query")
        if not isinstance(query, str) or not query.strip():
            fail(f"{where}: field query: a non-empty string is required")
        count = line.get("k", 10)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            fail(f"{where}: field k: a whole number ≥ 1, not {count!r}")
        mode = line.get("mode", "hybrid")
        if mode not in MODES:
            fail(f"{where}: field mode: one of {', '.join(MODES)}, not {mode!r}")
        filters = {key: value for key, value in line.items() if key not in _BATCH_FIELDS}
        try:
            filters_from(filters)
        except VaultError as exc:
            fail(f"{where}: {exc}")
        lines.append(line)
    return lines


# -- conversations -----------------------------------------------------------------------------


@vault_command
def list_conversations(
    platform: str | None = unset_option("--platform", metavar="NAME", help="Only this platform."),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """List the stored conversations, newest first.

    Example: memvault conversations list --platform chatgpt

    With --json: [{"id", "platform", "title", "created_at", "updated_at", "message_count"}].
    """
    with open_vault(options, arguments=True) as vault:
        page = vault.conversation_page(platform, limit=None)
        rows = [shapes.conversation_summary_json(c) for c in page.items]
        if as_json:
            print_json(rows)
            return
        # Short unique prefixes, as the memory tables show: a full id took two lines of an
        # 80-column terminal, and `conversations show` accepts the prefix.
        names = unique_prefixes(
            vault, [str(r["id"]) for r in rows], resolve=vault.resolve_conversation
        )
    out = console()
    if not rows:
        out.print("No conversations.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("ID", no_wrap=True)
    table.add_column("Platform", no_wrap=True)
    table.add_column("Created", no_wrap=True)
    table.add_column("Msgs", justify="right", no_wrap=True)
    table.add_column("Title", ratio=1)
    for row in rows:
        table.add_row(
            escape(names.get(str(row["id"]), str(row["id"]))),
            escape(str(row["platform"])),
            str(row["created_at"] or "—")[:10],
            str(row["message_count"]),
            escape(clip(str(row["title"] or "—"), 80)),
        )
    out.print(table)
    out.print(plural(len(rows), "conversation"))


@vault_command
def show_conversation(
    conversation_id: str = typer.Argument(
        ..., metavar="ID", help="The conversation's id, or a unique prefix of it."
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Show a conversation's messages in order; each branch (a message answered more than
    once, an edited question) is marked and indented.

    Example: memvault conversations show 6a1f…

    With --json: the PAM conversation document (PAM §25).
    """
    from memvault.recall.threads import thread

    with open_vault(options, arguments=True) as vault:
        stored = vault.get_conversation(vault.resolve_conversation(conversation_id))
    document = dict(stored.document)
    if as_json:
        print_json(document)
        return
    out = console()
    out.print(f"[bold]{escape(stored.title or '(untitled)')}[/]  ")
    out.print(
        f"[dim]{escape(stored.id)} · {escape(stored.platform)} · "
        f"{escape(_minute(stored.created_at) or '—')} · "
        f"{plural(stored.message_count, 'message')}[/]"
    )
    for line in thread(document):
        if not line.text and line.speaker == "system" and line.branch is None:
            continue  # the empty, hidden system message ChatGPT starts every conversation with
        indent = "  " * line.depth
        if line.branch is not None:
            out.print(f"{indent}[yellow]── branch {line.branch[0]} of {line.branch[1]} ──[/]")
        # The minute, and the short id recall's table prints for the same message.
        head = f"{indent}[bold]{escape(line.speaker)}[/] [dim]{escape(_minute(line.at) or '')} "
        head += f"{escape(line.id[:8])}[/]"
        out.print(head)
        for text_line in (line.text or "(no text)").splitlines() or [""]:
            out.print(f"{indent}  {escape(text_line)}")


def _minute(at: object) -> str | None:
    """An ISO 8601 time to the minute, as a person reads it ("2024-05-01 13:01")."""
    if not isinstance(at, str) or len(at) < 16 or at[10] != "T":
        return None if at is None else str(at)
    return f"{at[:10]} {at[11:16]}"


@vault_command
def search_conversations(
    query: str = typer.Argument(..., metavar="QUERY", help="What to find in the messages."),
    k: KOption = 10,
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Find the conversations whose messages answer QUERY, best first, with the best message
    of each (recall over messages only).

    Example: memvault conversations search "trip to Lisbon"

    With --json: [{"conversation_id", "title", "score", "message_id", "text"}].
    """
    with open_vault(options, arguments=True) as vault:
        result = vault.recall(query, k * 5, kind="messages")
        best: dict[str, Mapping[str, Any]] = {}
        for hit in result.hits:
            if hit.conversation_id is not None and hit.conversation_id not in best:
                best[hit.conversation_id] = {
                    "conversation_id": hit.conversation_id,
                    "title": hit.title,
                    "score": round(hit.score, 6),
                    "message_id": hit.id,
                    "text": hit.text,
                }
        rows = list(best.values())[:k]
        if as_json:
            print_json(rows)
            return
        # The short unique prefixes `conversations list` shows and `conversations show` takes.
        names = unique_prefixes(
            vault, [str(r["conversation_id"]) for r in rows], resolve=vault.resolve_conversation
        )
    for note in result.notes:
        typer.echo(f"note: {note}", err=True)
    out = console()
    if not rows:
        out.print(f"No conversation matches {escape(query)!r}.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Score", justify="right", no_wrap=True)
    table.add_column("ID", no_wrap=True)
    table.add_column("Title", ratio=1)
    table.add_column("Best message", ratio=2)
    for row in rows:
        table.add_row(
            f"{row['score']:.3f}",
            escape(names.get(str(row["conversation_id"]), str(row["conversation_id"]))),
            escape(clip(str(row["title"] or "—"), 50)),
            escape(clip(str(row["text"]), 120)),
        )
    out.print(table)


# -- index maintenance -------------------------------------------------------------------------


@vault_command
def reindex(
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Rebuild the recall index from every memory and conversation in the vault.

    Vectors are dropped with the old index; `memvault embed` computes them again.

    Example: memvault reindex

    With --json: {"memories", "conversations"} (how many were indexed).
    """
    with open_vault(options, arguments=True) as vault:
        memories, conversations = vault.reindex()
    if as_json:
        print_json({"memories": memories, "conversations": conversations})
        return
    console().print(
        f"Indexed {plural(memories, 'memory', 'memories')} and "
        f"{plural(conversations, 'conversation')}."
    )


@vault_command
def embed(
    model: str | None = unset_option(
        "--model",
        metavar="NAME",
        help="The embedding model (with --endpoint: the server's model name; without: the "
        "local model, from the [embeddings] extra). Default: the vault's embedder.",
    ),
    endpoint: str | None = unset_option(
        "--endpoint",
        metavar="URL",
        help="An OpenAI-compatible API's base URL (Ollama, llama.cpp, vLLM), e.g. "
        "http://localhost:11434/v1; its key, if any, from $MEMVAULT_EMBED_API_KEY.",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Compute the vectors that recall passages lack (incremental: only the missing ones).

    The model named becomes the vault's embedder: recall embeds queries with it.

    Example: memvault embed --endpoint http://localhost:11434/v1 --model nomic-embed-text

    With --json: {"embedded", "with_vector", "passages"}.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from memvault.recall.embedders import EMBED_KEY_ENV, EmbedderSpec

    if endpoint is not None and model is None:
        usage_error("--endpoint needs --model (the server's model name)", "--model")
    spec = None
    if model is not None:
        spec = (
            EmbedderSpec("openai", model, endpoint)
            if endpoint is not None
            else EmbedderSpec("local", model)
        )
    progress = Progress(TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), transient=True)
    task = progress.add_task("embed", total=None)

    def step(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    with open_vault(options, arguments=True) as vault, progress:
        embedded, done, total = vault.embed(
            spec,
            api_key=os.environ.get(EMBED_KEY_ENV) or None,
            progress=step,
        )
    if as_json:
        print_json({"embedded": embedded, "with_vector": done, "passages": total})
        return
    console().print(
        f"Embedded {plural(embedded, 'passage')}; {done} of {total} passages have vectors."
    )
