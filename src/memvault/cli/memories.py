"""`memvault add`, `list`, `show`, `edit`, `search`: the memories themselves.

Each command parses its options, calls one `Vault` method (access control, validation, dedup
and lifecycle rules all live there) and renders the result: a Rich table, or with `--json` the
PAM memory objects.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

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
    confidence_of,
    console,
    fail,
    open_vault,
    print_json,
    text_of,
    type_label,
    unique_prefixes,
    unset_flag,
    unset_option,
    usage_error,
    vault_command,
)
from memvault.model import (
    MEMORY_STATUSES,
    MEMORY_TYPES,
    MISSING,
    Access,
    AccessGrant,
    Confidence,
    Memory,
    Relation,
    parse_timestamp,
)
from memvault.targets.layout import item_text
from memvault.vault import PERMISSIONS, MemoryQuery, Vault, VaultError

PANEL = "Memories"


def register(app: typer.Typer) -> None:
    app.command("add", rich_help_panel=PANEL)(add)
    app.command("list", rich_help_panel=PANEL)(list_memories)
    app.command("show", rich_help_panel=PANEL)(show)
    app.command("edit", rich_help_panel=PANEL)(edit)
    app.command("search", rich_help_panel=PANEL)(search)


# -- filters shared by list and search --------------------------------------------------------

TypeFilter = Annotated[
    list[str] | None,
    unset_flag(
        "--type",
        "-t",
        metavar="TYPE",
        help="Only memories of this PAM type (repeatable: any of them).",
    ),
]
CustomTypeFilter = Annotated[
    list[str] | None,
    unset_flag(
        "--custom-type",
        metavar="NAME",
        help="Only custom memories with this custom_type (repeatable).",
    ),
]
StatusFilter = Annotated[
    list[str] | None,
    unset_flag(
        "--status",
        "-s",
        metavar="STATUS",
        help="Only this status (repeatable): active (the default), superseded, deprecated, "
        "retracted, archived, or all.",
    ),
]
TagFilter = Annotated[
    list[str] | None,
    unset_flag(
        "--tag",
        metavar="TAG",
        help="Only memories with this tag (repeatable: all of them must be present).",
    ),
]
PlatformFilter = Annotated[
    list[str] | None,
    unset_flag(
        "--platform",
        metavar="NAME",
        help="Only memories from this platform, e.g. chatgpt (repeatable: any of them).",
    ),
]
SinceFilter = Annotated[
    str | None,
    unset_flag(
        "--since",
        metavar="DATE",
        help="Only memories created at or after DATE (2025-06-01 or 2025-06-01T10:00:00Z; "
        "UTC unless an offset is given).",
    ),
]
MinConfidenceFilter = Annotated[
    float | None,
    typer.Option(
        "--min-confidence",
        metavar="X",
        min=0.0,
        max=1.0,
        show_default=False,
        help="Only memories whose confidence.current is at least X (0 to 1; the value the "
        "last decay run stored, PAM §8).",
    ),
]
MaxConfidenceFilter = Annotated[
    float | None,
    typer.Option(
        "--max-confidence",
        metavar="X",
        min=0.0,
        max=1.0,
        show_default=False,
        help="Only memories whose confidence.current is at most X (0 to 1).",
    ),
]
LimitOption = Annotated[
    int, typer.Option("--limit", "-n", min=0, help="At most this many (0: no limit).")
]
OffsetOption = Annotated[int, typer.Option("--offset", min=0, help="Skip this many first.")]


def build_query(
    types: list[str] | None,
    custom_types: list[str] | None,
    statuses: list[str] | None,
    tags: list[str] | None,
    platforms: list[str] | None,
    since: str | None,
    limit: int,
    offset: int,
    *,
    min_confidence: float | None = None,
    max_confidence: float | None = None,
) -> MemoryQuery:
    """A `MemoryQuery` from the filter options. Filter values that can never match (a type or
    status PAM does not have, a date that is not one) are usage errors, not empty results."""
    for memory_type in types or ():
        if memory_type not in MEMORY_TYPES:
            usage_error(
                f"{memory_type!r} is not a PAM memory type (§5); use one of "
                f"{', '.join(MEMORY_TYPES)}",
                "--type",
            )
    wanted = statuses or ["active"]
    for status in wanted:
        if status != "all" and status not in MEMORY_STATUSES:
            usage_error(
                f"{status!r} is not a PAM status (§7); use one of "
                f"{', '.join(MEMORY_STATUSES)}, or all",
                "--status",
            )
    created_since = None
    if since is not None:
        try:
            created_since = parse_timestamp(since)
        except ValueError:
            usage_error(
                f"{since!r} is not a date; use 2025-06-01 or 2025-06-01T10:00:00Z", "--since"
            )
    return MemoryQuery(
        types=tuple(types or ()),
        custom_types=tuple(custom_types or ()),
        statuses=None if "all" in wanted else tuple(dict.fromkeys(wanted)),
        tags=tuple(tags or ()),
        platforms=tuple(platforms or ()),
        created_since=created_since,
        min_confidence=min_confidence,
        max_confidence=max_confidence,
        limit=limit or None,
        offset=offset,
    )


# -- add --------------------------------------------------------------------------------------


@vault_command
def add(
    text: str = typer.Argument(
        ..., metavar="TEXT", help="What to remember. '-' reads it from stdin."
    ),
    memory_type: str = typer.Option(
        ...,
        "--type",
        "-t",
        metavar="TYPE",
        help=f"PAM memory type (§5): {', '.join(MEMORY_TYPES)}.",
    ),
    custom_type: str | None = typer.Option(
        None,
        "--custom-type",
        metavar="NAME",
        help='Required with --type custom, e.g. "decision" (PAM §5.1).',
    ),
    tags: list[str] | None = typer.Option(
        None,
        "--tag",
        metavar="TAG",
        help="A tag (repeatable): lowercase letters, digits, '-' and '_' (PAM §4.3).",
    ),
    summary: str | None = typer.Option(None, "--summary", help="A short summary."),
    platform: str = typer.Option(
        "manual", "--platform", help="Where the memory comes from (PAM §11.4)."
    ),
    visibility: str = typer.Option(
        "private", "--visibility", help="private, shared or public (PAM §9)."
    ),
    not_exportable: bool = typer.Option(
        False, "--not-exportable", help="Never include this memory in an export (PAM §9)."
    ),
    confidence: float | None = unset_option(
        "--confidence",
        metavar="0..1",
        help="Initial confidence (PAM §8). Default: the vault's setting, 0.9.",
    ),
    decay_model: str | None = unset_option(
        "--decay-model",
        metavar="MODEL",
        help="time_linear, time_exponential or none (PAM §8.1). Default: none for "
        "DNA-class memories, else the vault's setting.",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Add a memory (the same content again reinforces it).

    Adding the same content as an active memory reinforces that memory (higher confidence)
    instead of creating a twin (PAM §6).

    Example: memvault add "Prefers tea over coffee" --type preference --tag drinks
    """
    content = sys.stdin.read() if text == "-" else text
    with open_vault(options, arguments=True) as vault:
        result = vault.add(
            content,
            memory_type,
            custom_type=custom_type,
            tags=tags or (),
            summary=summary,
            platform=platform,
            visibility=visibility,
            exportable=not not_exportable,
            confidence=confidence,
            decay_model=decay_model,
        )
    memory = result.memory
    if as_json:
        print_json(shapes.add_json(result))
        return
    out = console()
    if result.created:
        out.print(f"[green]✓[/] Added memory [bold]{memory.id}[/] ({escape(type_label(memory))})")
    else:
        out.print(
            f"[cyan]↻[/] Reinforced memory [bold]{memory.id}[/] ({escape(type_label(memory))}): "
            f"the same content was already there (PAM §6); confidence now "
            f"{confidence_of(memory)}"
        )


# -- list -------------------------------------------------------------------------------------


@vault_command
def list_memories(
    types: TypeFilter = None,
    custom_types: CustomTypeFilter = None,
    statuses: StatusFilter = None,
    tags: TagFilter = None,
    platforms: PlatformFilter = None,
    since: SinceFilter = None,
    min_confidence: MinConfidenceFilter = None,
    max_confidence: MaxConfidenceFilter = None,
    limit: LimitOption = 50,
    offset: OffsetOption = 0,
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """List memories, newest first (active ones unless --status says otherwise).

    Example: memvault list --type preference --tag food --since 2025-01-01 --min-confidence 0.7

    With --json: {"total", "offset", "limit", "memories": [PAM memory objects]}.
    """
    query = build_query(
        types,
        custom_types,
        statuses,
        tags,
        platforms,
        since,
        limit,
        offset,
        min_confidence=min_confidence,
        max_confidence=max_confidence,
    )
    with open_vault(options, arguments=True) as vault:
        page = vault.list(query)
        names = {} if as_json else unique_prefixes(vault, [m.id for m in page.items])
    if as_json:
        print_json(shapes.page_json(page))
        return
    out = console()
    if not page.items:
        out.print("No memories match." if page.total == 0 else f"No memories past {offset}.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("ID", overflow="fold", min_width=SHORT_ID)
    table.add_column("Type", no_wrap=True)
    table.add_column("Status", no_wrap=True)
    table.add_column("Conf.", justify="right", no_wrap=True)
    table.add_column("Tags", min_width=10, overflow="ellipsis")  # never a tag split in two
    table.add_column("Content", ratio=1, min_width=24)
    for memory in page.items:
        table.add_row(
            names[memory.id],
            escape(type_label(memory)),
            memory.effective_status,
            confidence_of(memory),
            escape(text_of(memory.tags, "")),
            escape(clip(item_text(memory))),
        )
    out.print(table)
    first = page.offset + 1
    last = page.offset + len(page.items)
    more = f"; --offset {last} for more" if last < page.total else ""
    out.print(f"[dim]{first}–{last} of {page.total}{more}[/]")


# -- show -------------------------------------------------------------------------------------


@vault_command
def show(
    memory_id: str = typer.Argument(..., metavar="ID", help="A memory id or a unique prefix."),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Show every field of a memory and its relations.

    Example: memvault show 9b2e7c4a

    With --json: {"memory": PAM memory object, "relations": [PAM relation objects]}.
    """
    with open_vault(options, arguments=True) as vault:
        memory = vault.get(memory_id)
        relations = vault.relations(memory.id)
        others = _other_ends(vault, memory, relations)
        names = unique_prefixes(vault, [r.to for r in relations] + [r.from_ for r in relations])
    if as_json:
        print_json(shapes.shown_json(memory, relations))
        return
    _render_memory(memory, relations, others, names)


def _other_ends(vault: Vault, memory: Memory, relations: list[Relation]) -> dict[str, Memory]:
    others: dict[str, Memory] = {}
    for relation in relations:
        other = relation.to if relation.from_ == memory.id else relation.from_
        try:
            others[other] = vault.get(other)
        except VaultError:  # erased or unreadable: shown by id only
            continue
    return others


def _render_memory(
    memory: Memory, relations: list[Relation], others: dict[str, Memory], names: dict[str, str]
) -> None:
    out = console()
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(overflow="fold")

    def row(name: str, value: object) -> None:
        grid.add_row(name, escape(text_of(value)))

    row("id", memory.id)
    row("type", type_label(memory))
    row("status", memory.effective_status)
    row("content", memory.content)
    row("content_hash", memory.content_hash)
    row("summary", memory.summary)
    row("tags", memory.tags)
    conf = memory.confidence
    if isinstance(conf, Confidence):
        row(
            "confidence",
            f"{confidence_of(memory)} (initial {text_of(conf.initial)}, model "
            f"{text_of(conf.decay_model)}, last reinforced {text_of(conf.last_reinforced)})",
        )
    temporal = memory.temporal
    row("created_at", temporal.created_at)
    row("updated_at", temporal.updated_at)
    row("valid", f"from {text_of(temporal.valid_from)} until {text_of(temporal.valid_until)}")
    row("superseded_by", temporal.superseded_by)
    prov = memory.provenance
    row("platform", prov.platform)
    row("extraction", f"{text_of(prov.extraction_method)} by {text_of(prov.extractor)}")
    row("extracted_at", prov.extracted_at)
    row("conversation", f"{text_of(prov.conversation_ref)} message {text_of(prov.message_ref)}")
    access = memory.access if isinstance(memory.access, Access) else Access()
    row("visibility", access.effective_visibility)
    row("exportable", access.is_exportable)
    grants = access.shared_with if isinstance(access.shared_with, tuple) else ()
    row(
        "shared_with",
        [f"{g.entity} ({', '.join(g.permissions)})" for g in grants if isinstance(g, AccessGrant)],
    )
    row("embedding_ref", memory.embedding_ref)
    metadata = memory.metadata
    row("metadata", orjson.dumps(metadata).decode() if metadata is not MISSING else None)
    out.print(grid)
    if not relations:
        out.print("[dim]No relations.[/]")
        return
    out.print(f"\n[bold]Relations[/] ({len(relations)})")
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Relation", overflow="fold")
    table.add_column("Conf.", justify="right", no_wrap=True)
    table.add_column("Created", no_wrap=True)
    table.add_column("Other memory", ratio=1)
    for relation in relations:
        verb = relation.type.replace("_", " ")
        if relation.from_ == memory.id:
            other_id, text = relation.to, f"this {verb} {names[relation.to]}"
        else:
            other_id, text = relation.from_, f"{names[relation.from_]} {verb} this"
        other = others.get(other_id)
        table.add_row(
            text,
            text_of(relation.confidence),
            relation.created_at[:10],
            escape(clip(other.content, 60)) if other else "[dim](not readable)[/]",
        )
    out.print(table)


# -- edit -------------------------------------------------------------------------------------


def _split_tags(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _parse_grant(spec: str) -> tuple[str, list[str]]:
    entity, sep, perms = spec.rpartition(":")
    if not sep or not entity or not perms:
        usage_error(
            f"{spec!r} is not ENTITY:PERMISSIONS, e.g. agent-x:read or agent-x:read,write",
            "--grant",
        )
    return entity, [p.strip() for p in perms.split(",") if p.strip()]


def _parse_revoke(spec: str) -> tuple[str, list[str] | None]:
    entity, sep, perms = spec.rpartition(":")
    words = [p.strip() for p in perms.split(",") if p.strip()]
    if sep and entity and words and all(w in PERMISSIONS for w in words):
        return entity, words
    return spec, None


@vault_command
def edit(
    memory_id: str = typer.Argument(..., metavar="ID", help="A memory id or a unique prefix."),
    content: str | None = typer.Option(
        None, "--content", help="New content (gets a new content_hash, PAM §6)."
    ),
    memory_type: str | None = typer.Option(
        None, "--type", "-t", metavar="TYPE", help="New PAM memory type (§5)."
    ),
    custom_type: str | None = typer.Option(
        None, "--custom-type", metavar="NAME", help="New custom_type (with --type custom)."
    ),
    add_tags: list[str] | None = typer.Option(
        None, "--tag", metavar="TAG", help="Add a tag (repeatable)."
    ),
    remove_tags: list[str] | None = typer.Option(
        None, "--untag", metavar="TAG", help="Remove a tag (repeatable)."
    ),
    set_tags: str | None = typer.Option(
        None,
        "--set-tags",
        metavar="TAGS",
        help='Replace all tags with this comma-separated list ("" removes every tag).',
    ),
    summary: str | None = typer.Option(None, "--summary", help='New summary ("" removes it).'),
    exportable: bool | None = unset_option(
        "--exportable/--not-exportable", help="Whether exports may include it (PAM §9)."
    ),
    visibility: str | None = typer.Option(
        None, "--visibility", help="private, shared or public (PAM §9)."
    ),
    grants: list[str] | None = typer.Option(
        None,
        "--grant",
        metavar="ENTITY:PERMS",
        help="Give an agent permissions, e.g. agent-x:read,write (repeatable; PAM §9.1). "
        "A private memory becomes shared.",
    ),
    revokes: list[str] | None = typer.Option(
        None,
        "--revoke",
        metavar="ENTITY[:PERMS]",
        help="Take an agent's permissions away: all of them, or those listed (repeatable).",
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Change a memory: content, type, tags, summary, access, grants.

    Content, type, tags, summary, exportability, visibility and grants; all the changes are
    applied together, or none of them.

    Example: memvault edit 9b2e7c4a --tag travel --grant agent-x:read
    """
    grant_specs = [_parse_grant(g) for g in grants or ()]
    revoke_specs = [_parse_revoke(r) for r in revokes or ()]
    fields: dict[str, Any] = {}
    if content is not None:
        fields["content"] = content
    if memory_type is not None:
        fields["type"] = memory_type
    if custom_type is not None:
        fields["custom_type"] = custom_type or None
    if set_tags is not None:
        fields["tags"] = _split_tags(set_tags)
    if add_tags:
        fields["add_tags"] = add_tags
    if remove_tags:
        fields["remove_tags"] = remove_tags
    if summary is not None:
        fields["summary"] = summary or None
    if exportable is not None:
        fields["exportable"] = exportable
    if visibility is not None:
        fields["visibility"] = visibility
    if not (fields or grant_specs or revoke_specs):
        fail(
            "nothing to change: give --content, --type, --custom-type, --tag, --untag, "
            "--set-tags, --summary, --exportable/--not-exportable, --visibility, --grant or "
            "--revoke",
            EXIT_USAGE,
        )
    with open_vault(options, arguments=True) as vault:
        full_id = vault.resolve(memory_id)
        before = _readable(vault, full_id)
        memory = vault.edit(full_id, grants=grant_specs, revokes=revoke_specs, **fields)
    if as_json:
        print_json(shapes.memory_json(memory))
        return
    out = console()
    if before is None:
        out.print(f"[green]✓[/] Updated memory [bold]{memory.id}[/].")
        return
    changed = _changed_fields(before, memory)
    if changed:
        out.print(f"[green]✓[/] Updated memory [bold]{memory.id}[/]: {', '.join(changed)}.")
    else:
        out.print(f"Nothing changed: memory [bold]{memory.id}[/] already had those values.")


def _readable(vault: Vault, memory_id: str) -> Memory | None:
    try:
        return vault.get(memory_id)
    except VaultError:
        return None


def _changed_fields(before: Memory, after: Memory) -> list[str]:
    """The PAM members that differ (`temporal` by its members, `updated_at` left out)."""
    old, new = before.to_json(), after.to_json()
    changed = [key for key in new if key != "temporal" and new.get(key) != old.get(key)]
    old_t, new_t = old.get("temporal", {}), new.get("temporal", {})
    changed.extend(
        f"temporal.{key}"
        for key in new_t
        if key != "updated_at" and new_t.get(key) != old_t.get(key)
    )
    return changed


# -- search -----------------------------------------------------------------------------------


@vault_command
def search(
    query_text: str = typer.Argument(
        ...,
        metavar="QUERY",
        help="Words to find (any may match, the best matches first; stop words, word endings, "
        'case and accents are ignored: "acao" finds "ação", "shelters" finds "shelter").',
    ),
    types: TypeFilter = None,
    custom_types: CustomTypeFilter = None,
    statuses: StatusFilter = None,
    tags: TagFilter = None,
    platforms: PlatformFilter = None,
    since: SinceFilter = None,
    limit: LimitOption = 20,
    offset: OffsetOption = 0,
    newest: bool = typer.Option(
        False, "--newest", help="Order the best matches by creation time, newest first."
    ),
    options: VaultOptions = COMMAND_LINE,
    as_json: JsonOption = False,
) -> None:
    """Search memories, best matches first: `memvault recall` over memories only.

    Searches content, summary and tags (and, once `memvault embed` has run, meaning), with
    the same filters as list. --newest orders the best matches by creation time instead.

    Example: memvault search "lisboa" --type fact

    With --json: {"query", "results": [{"score", "memory": PAM memory object}]}.
    """
    from memvault.recall.operations import recall_memories

    query = build_query(types, custom_types, statuses, tags, platforms, since, limit, offset)
    with open_vault(options, arguments=True) as vault:
        hits = recall_memories(vault, query_text, query, newest=newest)
        names = {} if as_json else unique_prefixes(vault, [h.memory.id for h in hits])
    if as_json:
        print_json(shapes.search_json(query_text, hits))
        return
    out = console()
    if not hits:
        out.print(f"No memories match {escape(query_text)!r}.")
        return
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Score", justify="right", no_wrap=True)
    table.add_column("ID", overflow="fold", min_width=SHORT_ID)
    table.add_column("Type", no_wrap=True)
    table.add_column("Status", no_wrap=True)
    table.add_column("Content", ratio=1, min_width=24)
    for hit in hits:
        memory = hit.memory
        table.add_row(
            f"{hit.score:.2f}",
            names[memory.id],
            escape(type_label(memory)),
            memory.effective_status,
            escape(clip(item_text(memory))),
        )
    out.print(table)
    out.print(f"[dim]{len(hits)} match{'es' * (len(hits) != 1)}[/]")
