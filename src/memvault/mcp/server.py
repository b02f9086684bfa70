"""The MCP server: tools, resources and a prompt, each a few lines over the caller's vault
session. `build_server(source, allowed=…)` makes it; `source` gives the session a request runs
in — one fixed session over stdio (`fixed_session`), the token's over HTTP."""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Final, ParamSpec, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ToolAnnotations
from pydantic import Field, ValidationError

from memvault import __version__, shapes
from memvault.errors import InvalidInput, VaultError
from memvault.extract.explicit import remember as remember_statement
from memvault.mcp import transfer
from memvault.mcp.confine import AllowedDirs
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES
from memvault.store.base import MemoryQuery
from memvault.vault import Vault

P = ParamSpec("P")
R = TypeVar("R")

#: The session a request runs in, from its MCP context and the token scope it needs
#: (`memvault.tenancy.SCOPES`; a stdio session, the user's own, needs none).
SessionSource = Callable[[Context | None, str], Vault]

READ: Final = "memories:read"
WRITE: Final = "memories:write"
ERASE: Final = "erase"
EXPORT: Final = "bundle:export"
IMPORT: Final = "bundle:import"

INSTRUCTIONS: Final = (
    "memvault is the user's memory vault (PAM v1.0). Call `recall` with the user's question "
    "before answering from memory; call `remember` for a durable fact, preference or "
    "instruction the user states; `supersede` when one replaces an older memory; `forget` "
    "retracts (kept, marked invalid) and erases only with confirm: true."
)

#: The MCP context of the resource being read: static resources take no context argument.
_READING: contextvars.ContextVar[Context | None] = contextvars.ContextVar("reading", default=None)


def fixed_session(vault: Vault) -> SessionSource:
    """Every request runs in `vault` (the owner's, or an agent's `acting_as` session)."""
    return lambda _ctx, _scope: vault


def _vault_errors(tool: Callable[P, R]) -> Callable[P, R]:
    """A refusal from the vault reaches the caller as the tool's error, in the vault's words
    (the SDK would hide an unexpected exception's message)."""

    @functools.wraps(tool)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return tool(*args, **kwargs)
        except VaultError as exc:
            raise ToolError(str(exc) or type(exc).__name__) from exc

    return run


def _hints(
    *, read_only: bool, destructive: bool = False, idempotent: bool = False
) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


class _Server(MCPServer):
    """MCPServer that lets a static resource know whose request it answers."""

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        token = _READING.set(context)
        try:
            return await super().read_resource(uri, context)
        finally:
            _READING.reset(token)

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        """A prompt asked wrongly (an argument missing, a blank query) is the caller's
        mistake: an invalid-params error in the vault's words, not a logged traceback."""
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as exc:
            cause: BaseException | None = exc
            while cause is not None and not isinstance(cause, VaultError):
                cause = cause.__cause__
            message = str(cause if cause is not None else exc)
            raise MCPError(INVALID_PARAMS, f"{name}: {message}") from None

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(bad_arguments(name, exc.__cause__)) from exc.__cause__
            raise


def bad_arguments(tool: str, error: ValidationError) -> str:
    """Arguments the input schema refuses, in words: the SDK's text is pydantic's, with a
    link to its documentation site. Names the argument and the rule, never the value given
    (it is the caller's data)."""
    problems = []
    for found in error.errors():
        where = ".".join(str(part) for part in found["loc"]) or "arguments"
        if found["type"] == "missing":
            problems.append(f"the argument {where!r} is required")
        else:
            problems.append(f"argument {where!r}: {found['msg'][:1].lower()}{found['msg'][1:]}")
    return f"{tool}: {'; '.join(problems)}"


def _one_of(first: tuple[str, object], second: tuple[str, object], *, what: str = "") -> None:
    """Exactly one of two alternative arguments, the mistake named: neither, or both."""
    (a, a_value), (b, b_value) = first, second
    if a_value is not None and b_value is not None:
        raise InvalidInput(f"give either {a} or {b}, not both", b)
    if a_value is None and b_value is None:
        raise InvalidInput(f"give {a}{' ' + what if what else ''} or {b}", a)


Id = Annotated[str, Field(description="A memory id, or a unique prefix of one.")]
Tags = Annotated[list[str], Field(description="Tags (lowercase words).")]


def build_server(source: SessionSource, *, allowed: AllowedDirs | None = None) -> MCPServer:
    """The memvault MCP server over sessions from `source`; files only inside `allowed`
    (none: every path refused — the HTTP transport's rule)."""
    folders = allowed or AllowedDirs()
    server = _Server(
        name="memvault",
        title="memvault",
        description="A local-first vault for the memory AI assistants keep about a person.",
        instructions=INSTRUCTIONS,
        version=__version__,
        # The SDK's INFO lines name every refused call; stderr is the client's log.
        log_level="WARNING",
    )

    def tool(
        *, read_only: bool, destructive: bool = False, idempotent: bool = False
    ) -> Callable[[Callable[P, R]], Callable[P, R]]:
        def register(fn: Callable[P, R]) -> Callable[P, R]:
            server.add_tool(
                _vault_errors(fn),
                # The docstring without its source indentation (Python before 3.13 keeps it):
                # the client's model reads this text.
                description=inspect.cleandoc(fn.__doc__ or ""),
                annotations=_hints(
                    read_only=read_only, destructive=destructive, idempotent=idempotent
                ),
                structured_output=True,
            )
            return fn

        return register

    @tool(read_only=False)
    def remember(
        ctx: Context,
        content: Annotated[str, Field(description="The memory, one self-contained statement.")],
        type: Annotated[
            str,
            Field(
                description="PAM type: fact, preference, skill, context, relationship, goal, "
                "instruction, identity, environment, project or custom."
            ),
        ] = "fact",
        tags: Tags | None = None,
        custom_type: Annotated[
            str | None, Field(description="With type custom: its name, e.g. decision.")
        ] = None,
    ) -> dict[str, Any]:
        """Remember something about the user. The vault reconciles it: the same fact again,
        or a rewording, reinforces the memory already there (PAM §6); a new value of something
        the user has one of (where they live, their employer, name…) supersedes the old one;
        a statement the vault recognises takes the type it recognises.
        Returns the memory and what happened: outcome added, reinforced, superseded (with
        the old ids), proposed or contradicts."""
        session = source(ctx, WRITE)
        result = remember_statement(
            session, content, type, custom_type=custom_type, tags=tuple(tags or ()),
            platform="mcp",
        )  # fmt: skip
        return shapes.remembered_json(result)

    @tool(read_only=True, idempotent=True)
    def recall(
        ctx: Context,
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        k: Annotated[int, Field(ge=1, le=100, description="How many results.")] = 10,
        kind: Annotated[
            str, Field(description="all, memories or messages (conversation turns).")
        ] = "all",
        types: Annotated[list[str] | None, Field(description="Only these memory types.")] = None,
        tags: Annotated[
            list[str] | None, Field(description="Only memories with every tag.")
        ] = None,
        since: Annotated[str | None, Field(description="ISO 8601: not before.")] = None,
        until: Annotated[str | None, Field(description="ISO 8601: not after.")] = None,
        include_inactive: Annotated[
            bool, Field(description="Also superseded, retracted and archived memories.")
        ] = False,
        conversation: Annotated[
            str | None, Field(description="Only this conversation's messages and memories.")
        ] = None,
        platform: Annotated[
            str | None, Field(description="Only from this platform (chatgpt, claude, …).")
        ] = None,
        role: Annotated[
            str | None, Field(description="Only messages of this role (user, assistant).")
        ] = None,
    ) -> dict[str, Any]:
        """Find the memories and conversation messages that best answer `query`, best first,
        each with its provenance (the conversation and messages it comes from)."""
        session = source(ctx, READ)
        result = session.recall(
            query, k, kind=kind, types=types, tags=tags, since=since, until=until,
            include_inactive=include_inactive, conversation=conversation, platform=platform,
            role=role,
        )  # fmt: skip
        hits = []
        for hit in result.hits:
            item = hit.to_json()
            if hit.memory is not None:
                item["memory"] = shapes.memory_json(hit.memory)
            hits.append(item)
        return {"query": query, "mode": result.mode, "results": hits, "notes": result.notes}

    @tool(read_only=False, destructive=True)
    def forget(
        ctx: Context,
        id: Id,
        erase: Annotated[
            bool,
            Field(description="Erase it for good instead of retracting it; needs confirm."),
        ] = False,
        confirm: Annotated[
            bool, Field(description="true to confirm an erasure: it cannot be undone.")
        ] = False,
    ) -> dict[str, Any]:
        """Forget a memory: retract it (kept, marked no longer true, PAM §7 and §16.3), or with
        erase and confirm both true, erase it and every trace of it (AIMEM §5.2)."""
        if not erase:
            return {"retracted": shapes.memory_json(source(ctx, WRITE).retract(id))}
        if not confirm:
            raise InvalidInput(
                "erasing cannot be undone: call forget again with erase and confirm both true, "
                "or without erase to retract",
                "confirm",
            )
        return shapes.erasure_json(source(ctx, ERASE).erase(id))

    @tool(read_only=True, idempotent=True)
    def list_memories(
        ctx: Context,
        types: Annotated[list[str] | None, Field(description="Only these types.")] = None,
        tags: Annotated[
            list[str] | None, Field(description="Only memories with every tag.")
        ] = None,
        status: Annotated[
            str,
            Field(description="active, superseded, deprecated, retracted, archived or any."),
        ] = "active",
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> dict[str, Any]:
        """List memories, newest first, one page at a time (`total` counts them all)."""
        # A type or status PAM lacks can never match: the caller's mistake, not "no memories".
        for wanted in types or ():
            if wanted not in MEMORY_TYPES:
                raise InvalidInput(
                    f"{wanted!r} is not a PAM memory type (§5); use one of "
                    f"{', '.join(MEMORY_TYPES)}",
                    "types",
                )
        if status != "any" and status not in MEMORY_STATUSES:
            raise InvalidInput(
                f"{status!r} is not a PAM status (§7); use one of "
                f"{', '.join(MEMORY_STATUSES)}, or any",
                "status",
            )
        query = MemoryQuery(
            types=tuple(types or ()), tags=tuple(tags or ()),
            statuses=None if status == "any" else (status,), limit=limit, offset=offset,
        )  # fmt: skip
        return shapes.page_json(source(ctx, READ).list(query))

    @tool(read_only=False, destructive=True, idempotent=True)
    def update_memory(
        ctx: Context,
        id: Id,
        content: Annotated[str | None, Field(description="The new content.")] = None,
        type: Annotated[str | None, Field(description="The new PAM type.")] = None,
        tags: Annotated[list[str] | None, Field(description="Replace every tag.")] = None,
        add_tags: Annotated[list[str] | None, Field(description="Tags to add.")] = None,
        remove_tags: Annotated[list[str] | None, Field(description="Tags to remove.")] = None,
    ) -> dict[str, Any]:
        """Correct a memory in place (a typo, a tag). When the fact itself changed, use
        supersede instead, so the old one stays in history."""
        changes: dict[str, Any] = {
            k: v for k, v in (("content", content), ("type", type), ("tags", tags)) if v is not None
        }
        return shapes.memory_json(
            source(ctx, WRITE).edit(
                id, add_tags=add_tags or (), remove_tags=remove_tags or (), **changes
            )
        )

    @tool(read_only=False)
    def supersede(
        ctx: Context,
        old_id: Annotated[str, Field(description="The memory being replaced.")],
        content: Annotated[
            str | None, Field(description="The replacing memory's content (a new memory).")
        ] = None,
        new_id: Annotated[
            str | None, Field(description="Or: an existing memory that replaces it.")
        ] = None,
        type: Annotated[
            str | None, Field(description="With content: its type (default: the old one's).")
        ] = None,
    ) -> dict[str, Any]:
        """Replace a memory with a newer one (PAM §7.1): the old becomes superseded and points
        to the new. Give the new memory's content, or the id of one already in the vault."""
        _one_of(("content", content), ("new_id", new_id), what="(a new memory)")
        session = source(ctx, WRITE)
        with session.transaction():
            if content is not None:
                old = session.get(old_id)
                # Without a type the replacement is of the old one's kind, custom name included.
                custom = old.custom_type if isinstance(old.custom_type, str) else None
                new_id = session.add(
                    content, type or old.type, custom_type=None if type else custom,
                    platform="mcp", extraction_method="explicit_user_input",
                ).memory.id  # fmt: skip
            assert new_id is not None
            relation = session.supersede(old_id, new_id)
            old = session.get(relation.to)
        return {**shapes.superseded_json(old, relation), "new_id": relation.from_}

    @tool(read_only=False)
    def export_memory(
        ctx: Context,
        format: Annotated[
            str, Field(description="pam (PAM v1.0) or aimem (an AIMEM v1 bundle).")
        ] = "pam",
        path: Annotated[
            str | None,
            Field(
                description="Where to write it, inside a folder the user allowed (a folder, "
                ".zip or .json for PAM; .aimem.json for AIMEM). Omit to get it inline."
            ),
        ] = None,
        overwrite: Annotated[bool, Field(description="Replace the file if it exists.")] = False,
    ) -> dict[str, Any]:
        """Export the memories you may read, portably (GDPR Art. 20): as PAM or AIMEM, to a
        file or inline. Memories marked exportable: false are never included."""
        session = source(ctx, EXPORT)
        if path is None:
            document, result = transfer.export_inline(session, format)
            return {"result": result, "document": document}
        target = folders.resolve(path, "path")
        return {"result": transfer.export_file(session, format, target, overwrite)}

    @tool(read_only=False)
    def import_memory(
        ctx: Context,
        path: Annotated[
            str | None,
            Field(
                description="A PAM file or export, an AIMEM bundle or a provider export (ChatGPT, "
                "Claude, Gemini, Copilot, Grok), inside a folder the user allowed."
            ),
        ] = None,
        content: Annotated[
            dict[str, Any] | str | None,
            Field(description="Or: a PAM document or AIMEM bundle (a JSON object, or its text)."),
        ] = None,
    ) -> dict[str, Any]:
        """Import memories, all or nothing (one transaction). Duplicates reinforce what the
        vault already holds instead of adding twins."""
        _one_of(("path", path), ("content", content))
        session = source(ctx, IMPORT)
        if content is not None:
            return transfer.import_inline(session, content)
        assert path is not None
        return transfer.import_file(session, folders.resolve(path, "path"))

    @server.resource(
        "memvault://memory-store",
        name="memory-store",
        title="Memory store (PAM)",
        description="Every memory the caller may read, as a PAM v1.0 memory-store document.",
        mime_type="application/json",
    )
    def memory_store() -> str:
        try:
            return transfer.export_inline(source(_READING.get(), EXPORT), "pam", record=False)[0]
        except VaultError as exc:
            from mcp.server.mcpserver.exceptions import ResourceError

            raise ResourceError(str(exc)) from exc

    def context_text(ctx: Context | None, query: str) -> str:
        from memvault.targets import render

        try:
            text = render(source(ctx, READ), "system-prompt", query=query).document()
        except VaultError as exc:
            from mcp.server.mcpserver.exceptions import ResourceError

            raise ResourceError(str(exc)) from exc
        # A prompt of nothing but a line break reads as a failure; say what was found.
        # The topic is not repeated: the text shows only what the vault holds.
        return text if text.strip() else "The vault holds no memory about this topic.\n"

    @server.resource(
        "memvault://context/{query}",
        name="memory-context",
        title="Memory context",
        description="The memories most relevant to {query}, as a block of text for a prompt.",
        mime_type="text/plain",
    )
    def memory_context(query: str, ctx: Context) -> str:
        return context_text(ctx, query)

    @server.prompt(
        name="memory_context",
        title="Memory context",
        description="The user's memories most relevant to a topic, to start a conversation with.",
    )
    def memory_context_prompt(
        query: Annotated[str, Field(description="The topic or question.")], ctx: Context
    ) -> str:
        return context_text(ctx, query)

    return server
