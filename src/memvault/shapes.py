"""One JSON shape per result type: what the CLI prints with ``--json`` and what the HTTP API
answers are built here and nowhere else, so the two cannot drift apart (issue #16.5).

`to_json(result)` picks the shape by the result's type; the functions below it are the
shapes of results that need more than their object (a search's query, a decay's dry run, a
memory shown with its relations). Memories and relations are PAM objects (PAM §4, §13.1),
exactly as the vault keeps them. An error is one body, whatever raised it (`error_json`)::

    {"error": {"type": "AccessDenied", "message": "...", "exit_code": 1, "http_status": 403,
               "field": ..., "candidates": [...], "findings": [...]}}

(the last three only when the error carries them). docs/json.md lists every shape.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from memvault.audit import AuditReport
from memvault.erasure import ConversationErasure, ErasureReport, EverythingErasure
from memvault.errors import EXIT_REFUSED, EXIT_USAGE, HTTP_BAD_REQUEST, VaultError
from memvault.model import Memory, Relation
from memvault.store.base import AuditEntry

if TYPE_CHECKING:
    from memvault.extract.explicit import Remembered
    from memvault.extract.review import Proposal
    from memvault.recall.engine import RecallResult
    from memvault.store.base import ConversationSummary, StoredConversation
    from memvault.tenancy import TenantErasure, TenantInfo, TokenInfo
    from memvault.vault import AddResult, BatchResult, DecayReport, Page, SearchResult

__all__ = [
    "add_json",
    "audit_entry_json",
    "audit_json",
    "audit_report_json",
    "batch_json",
    "command_error_json",
    "conversation_erasure_json",
    "conversation_summary_json",
    "decay_json",
    "erasure_json",
    "error_body",
    "error_json",
    "everything_erasure_json",
    "memory_json",
    "page_json",
    "plain",
    "proposals_json",
    "recall_json",
    "relation_json",
    "remembered_json",
    "search_json",
    "shown_json",
    "stats_json",
    "superseded_json",
    "supersessions_json",
    "tenant_erasure_json",
    "tenant_json",
    "tenants_json",
    "to_json",
    "token_json",
    "token_key_json",
]


def plain(value: Any) -> Any:
    """Mappings and tuples (audit details, statistics) as JSON-ready dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


@functools.singledispatch
def to_json(result: Any) -> Any:
    """The JSON shape of `result`, by its type. A result that knows its own shape (import
    and export results, validation results: a ``to_json()`` method) gives it."""
    own = getattr(result, "to_json", None)
    if callable(own):
        return own()
    raise TypeError(f"no JSON shape for {type(result).__name__}")


# -- memories and relations ----------------------------------------------------------------


@to_json.register
def memory_json(memory: Memory) -> dict[str, Any]:
    """The PAM memory object (PAM §4), exactly as the vault keeps it."""
    return memory.to_json()


@to_json.register
def relation_json(relation: Relation) -> dict[str, Any]:
    """The PAM relation object (PAM §13.1)."""
    return relation.to_json()


def shown_json(memory: Memory, relations: Iterable[Relation]) -> dict[str, Any]:
    """A memory with its relations, both directions: ``{"memory", "relations"}``."""
    return {"memory": memory_json(memory), "relations": [relation_json(r) for r in relations]}


def superseded_json(superseded: Memory, relation: Relation) -> dict[str, Any]:
    """A supersession (PAM §7.1): the old memory as it now is, and the relation recorded."""
    return {"superseded": memory_json(superseded), "relation": relation_json(relation)}


def add_json(result: AddResult) -> dict[str, Any]:
    """``{"created", "reinforced", "memory"}``: the memory added, or the one it reinforced
    (PAM §6)."""
    return {
        "created": result.created,
        "reinforced": result.reinforced,
        "memory": memory_json(result.memory),
    }


def remembered_json(result: Remembered) -> dict[str, Any]:
    """``{"outcome", "created", "reinforced", "superseded", "proposed", "contradicts",
    "memory"}``: one remembered statement after reconciliation; `superseded`, `proposed` and
    `contradicts` list the ids of the memories it replaced, proposes to replace, or disagrees
    with."""
    return {
        "outcome": result.outcome,
        "created": result.created,
        "reinforced": result.outcome == "reinforced",
        "superseded": list(result.superseded),
        "proposed": list(result.proposed),
        "contradicts": list(result.contradicts),
        "memory": memory_json(result.memory),
    }


def batch_json(result: BatchResult) -> dict[str, Any]:
    """``{"created", "reinforced", "skipped", "id_map"}``: incoming ids, in the order given
    (`reinforced`: those whose twin was reinforced instead, PAM §6); `id_map` maps every
    incoming id to the id it lives under in the vault."""
    return {
        "created": list(result.created),
        "reinforced": list(result.reinforced),
        "skipped": list(result.skipped),
        "id_map": dict(result.id_map),
    }


def page_json(page: Page[Memory]) -> dict[str, Any]:
    """``{"total", "offset", "limit", "memories"}``: one page of a listing."""
    return {
        "total": page.total,
        "offset": page.offset,
        "limit": page.limit,
        "memories": [memory_json(m) for m in page.items],
    }


def search_json(query: str, results: Sequence[SearchResult]) -> dict[str, Any]:
    """``{"query", "results": [{"score", "memory"}]}``, best first."""
    return {
        "query": query,
        "results": [{"score": r.score, "memory": memory_json(r.memory)} for r in results],
    }


def recall_json(query: str, result: RecallResult) -> dict[str, Any]:
    """``{"query", "mode", "vectors_complete", "notes", "results": [{"kind", "id", "text",
    "score", "conversation_id", "message_ids"}]}``: a recall, best first (docs/recall.md)."""
    return {
        "query": query,
        "mode": result.mode,
        "vectors_complete": result.vectors_complete,
        "notes": list(result.notes),
        "results": [h.to_json() for h in result.hits],
    }


def conversation_summary_json(
    conversation: StoredConversation | ConversationSummary,
) -> dict[str, Any]:
    """``{"id", "platform", "title", "created_at", "updated_at", "message_count"}``: a stored
    conversation without its messages (the PAM conversation document, §25, is the full
    shape)."""
    return {
        "id": conversation.id,
        "platform": conversation.platform,
        "title": conversation.title,
        "created_at": conversation.created_at,
        "updated_at": conversation.updated_at,
        "message_count": conversation.message_count,
    }


# -- the vault's records ---------------------------------------------------------------------


def stats_json(stats: Mapping[str, Any]) -> dict[str, Any]:
    """`Vault.stats()`: ``{"home", "owner_id", "memories", "by_type", …}`` (README)."""
    shaped: dict[str, Any] = plain(stats)
    return shaped


@to_json.register
def audit_entry_json(entry: AuditEntry) -> dict[str, Any]:
    """``{"seq", "at", "actor", "action", "memory_id", "content_hash", "details",
    "prev_hash", "hash"}``: ids and hashes, never content (AIMEM §5.2)."""
    shaped: dict[str, Any] = plain(asdict(entry))
    return shaped


def audit_json(entries: Iterable[AuditEntry]) -> list[dict[str, Any]]:
    """A list of audit entries, oldest first."""
    return [audit_entry_json(e) for e in entries]


@to_json.register
def audit_report_json(report: AuditReport) -> dict[str, Any]:
    """``{"ok", "entries", "problems", "head"}``: a check of the audit chain."""
    return asdict(report)


@to_json.register
def conversation_erasure_json(report: ConversationErasure) -> dict[str, Any]:
    """``{"conversation", "messages", "passages", "vectors", "durable"}`` (AIMEM §5.2)."""
    return {
        "conversation": report.conversation,
        "messages": report.messages,
        "passages": report.passages,
        "vectors": report.vectors,
        "durable": report.durable,
    }


def proposals_json(found: Sequence[Proposal]) -> dict[str, Any]:
    """``{"proposals": [{"memory", "proposes", "targets", "reason", "proposed_at",
    "proposed_by"}]}``: changes background work proposed for DNA-class memories (AIMEM §5.1)."""
    return {
        "proposals": [
            {
                "memory": memory_json(p.memory),
                "proposes": p.proposes,
                "targets": [memory_json(t) for t in p.targets],
                "reason": p.reason,
                "proposed_at": p.proposed_at,
                "proposed_by": p.proposed_by,
            }
            for p in found
        ]
    }


def supersessions_json(made: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """``{"superseded": [{"new", "old"}]}``: the supersessions an accepted proposal made."""
    return {"superseded": [{"new": new, "old": old} for new, old in made]}


@to_json.register
def everything_erasure_json(report: EverythingErasure) -> dict[str, Any]:
    """``{"erased": {what: count}, "durable"}`` (AIMEM §5.2)."""
    return {"erased": dict(report.counts), "durable": report.durable}


@to_json.register
def erasure_json(report: ErasureReport) -> dict[str, Any]:
    """``{"erased", "relations_removed", "durable"}`` (AIMEM §5.2)."""
    return {
        "erased": list(report.erased),
        "relations_removed": report.relations,
        "durable": report.durable,
    }


def token_json(token: TokenInfo) -> dict[str, Any]:
    """``{"id", "tenant", "identity", "scopes", "created_at", "rotated_at", "revoked_at",
    "active"}``: a token as listed — never its key nor the key's hash."""
    return {**asdict(token), "scopes": list(token.scopes), "active": token.active}


def token_key_json(token: TokenInfo, api_key: str) -> dict[str, Any]:
    """``{"tenant", "api_key", "scopes", "token_id", "identity"}``: a key just made (a new
    tenant's, an issued or a rotated one), shown this once."""
    return {
        "tenant": token.tenant,
        "api_key": api_key,
        "scopes": list(token.scopes),
        "token_id": token.id,
        "identity": token.identity,
    }


def tenant_json(tenant: TenantInfo) -> dict[str, Any]:
    """``{"name", "owner_id", "created_at", "tokens": [tokens]}``."""
    return {
        "name": tenant.name,
        "owner_id": tenant.owner_id,
        "created_at": tenant.created_at,
        "tokens": [token_json(t) for t in tenant.tokens],
    }


def tenants_json(tenants: Iterable[TenantInfo]) -> dict[str, Any]:
    """``{"tenants": [tenants]}``, by name."""
    return {"tenants": [tenant_json(t) for t in tenants]}


def tenant_erasure_json(report: TenantErasure) -> dict[str, Any]:
    """``{"tenant", "owner_id", "memories", "conversations", "tokens_revoked",
    "files_removed", "at", "actor"}``: what erasing a tenant did (AIMEM §5.2), counts only."""
    return asdict(report)


def decay_json(report: DecayReport, dry_run: bool) -> dict[str, Any]:
    """``{"at", "examined", "updated", "protected", "unchanged", "dry_run"}`` (PAM §8)."""
    return {**asdict(report), "dry_run": dry_run}


# -- errors ----------------------------------------------------------------------------------


def error_body(
    type: str, message: str, exit_code: int, http_status: int, **extra: Any
) -> dict[str, Any]:
    """The one error body: ``{"error": {"type", "message", "exit_code", "http_status",
    …extra}}`` — `type` the error's class name, `message` what the CLI prints on stderr."""
    return {
        "error": {
            "type": type,
            "message": message,
            "exit_code": exit_code,
            "http_status": http_status,
            **extra,
        }
    }


def error_json(exc: VaultError, *, exit_code: int | None = None) -> dict[str, Any]:
    """The error body of a `VaultError`: its class, message, exit code (`exit_code` when the
    front end reports it otherwise, as the CLI does a malformed value read from a file) and
    HTTP status, with what it carries: the `field` at fault, the `candidates` of an
    ambiguous id, the validation `findings` of a refused import."""
    extra: dict[str, Any] = {}
    field = getattr(exc, "field", None)
    if isinstance(field, str):
        extra["field"] = field
    candidates = getattr(exc, "candidates", None)
    if candidates:
        extra["candidates"] = list(candidates)
    findings = getattr(exc, "findings", None)
    if findings:
        extra["findings"] = [f.to_json() for f in findings]
    return error_body(
        type(exc).__name__,
        str(exc) or type(exc).__name__,
        exc.exit_code if exit_code is None else exit_code,
        exc.http_status,
        **extra,
    )


def command_error_json(message: str, exit_code: int) -> dict[str, Any]:
    """A failure a front end finds itself, before or after the vault (an option's value,
    an unconfirmed erasure): `UsageError` (exit 2, HTTP 400) or `CommandError` (exit 1)."""
    if exit_code == EXIT_USAGE:
        return error_body("UsageError", message, exit_code, HTTP_BAD_REQUEST)
    return error_body("CommandError", message, exit_code or EXIT_REFUSED, HTTP_BAD_REQUEST)
