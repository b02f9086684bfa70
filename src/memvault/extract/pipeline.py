"""One extraction run: read the user messages of the stored conversations, propose candidates
(rules, or an LLM endpoint), plan the reconciliation against the vault, and — unless it is a
dry run — apply the plan in one transaction.

    report = run(vault)                                  # rules, every conversation
    report = run(vault, conversation="conv-001", dry_run=True)
    report = run(vault, extractor=LLMExtractor(LLMConfig(url, model)))

After a provider import (`memvault import … --extract`), only the conversations the import
added or changed are read:

    mark = audit_mark(vault)
    ingest(vault, importer, target, context)             # its own transaction, committed
    report = extract_imported(vault, changed_since(vault, mark))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from memvault.access import require_privileged
from memvault.audit_entries import CONVERSATION_ACTIONS, stored_conversation_ids
from memvault.errors import InvalidInput
from memvault.extract.base import Candidate, UserMessage, user_messages
from memvault.extract.reconcile import ApplyResult, Plan, apply, plan
from memvault.extract.stage import extract_by_message
from memvault.model import parse_timestamp
from memvault.recall.embedders import Embedder, EmbedderError, load_embedder
from memvault.store.base import StoredConversation
from memvault.vault import Vault

__all__ = [
    "Extractor",
    "Report",
    "RulesExtractor",
    "audit_mark",
    "changed_since",
    "collect",
    "extract_imported",
    "run",
    "vault_embedder",
]


@dataclass(frozen=True, slots=True)
class Skipped:
    """A message an extractor could not read (an LLM reply that stayed malformed)."""

    conversation_id: str
    message_id: str
    reason: str


@dataclass(slots=True)
class Proposal:
    candidates: list[Candidate] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


class Extractor(Protocol):
    name: str

    def propose(
        self, messages: list[UserMessage], progress: Callable[[int], None] | None = None
    ) -> Proposal: ...


class RulesExtractor:
    """The offline default: the rules (`memvault.extract.rules`) with their learned stage
    (`memvault.extract.stage`)."""

    name = "rules"

    def propose(
        self, messages: list[UserMessage], progress: Callable[[int], None] | None = None
    ) -> Proposal:
        found: list[Candidate] = []
        for _, candidates in extract_by_message(messages):
            found.extend(candidates)
            if progress is not None:
                progress(1)
        return Proposal(found)


@dataclass(slots=True)
class Report:
    conversations: int
    messages: int
    plan: Plan
    skipped: list[Skipped]
    applied: ApplyResult | None  # None for a dry run


def _since(value: str | datetime | None) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    try:
        return parse_timestamp(value)
    except ValueError:
        raise InvalidInput(
            f"--since {value!r} is not a date or RFC 3339 timestamp (e.g. 2025-01-31 or "
            "2025-01-31T12:00:00Z)",
            "since",
        ) from None


def _after(stamp: str | None, since: datetime) -> bool:
    if stamp is None:
        return True  # undated: cannot be excluded by a date
    try:
        return parse_timestamp(stamp) >= since
    except ValueError:
        return True


def collect(
    vault: Vault,
    *,
    conversation: str | None = None,
    since: str | datetime | None = None,
    conversations: Sequence[str] | None = None,
) -> tuple[int, list[UserMessage]]:
    """The user messages to read: of one conversation, of the listed `conversations` (an
    empty list reads none), or of all; with `since`, only messages written at or after it.
    Returns (number of conversations, messages). Conversations are the owner's: an agent's
    session is refused (AccessDenied, docs/access.md)."""
    start = _since(since)
    chosen: Iterable[StoredConversation]
    if conversations is not None:
        require_privileged(vault.actor, "read conversations")  # an empty list too
        chosen = (vault.get_conversation(cid) for cid in dict.fromkeys(conversations))
    elif conversation:
        chosen = [vault.get_conversation(conversation)]
    else:
        chosen = vault.conversations()
    count = 0
    messages: list[UserMessage] = []
    for stored in chosen:
        # Dates are checked per message: a conversation's own dates may be missing or stale.
        kept = [m for m in user_messages(stored) if start is None or _after(m.created_at, start)]
        if kept or start is None:
            count += 1
        messages.extend(kept)
    return count, messages


def run(
    vault: Vault,
    *,
    conversation: str | None = None,
    since: str | datetime | None = None,
    conversations: Sequence[str] | None = None,
    extractor: Extractor | None = None,
    dry_run: bool = False,
    now: datetime | None = None,
    progress: Callable[[int], None] | None = None,
    on_messages: Callable[[int], None] | None = None,
    embedder: Embedder | None = None,
) -> Report:
    """Extract, reconcile and (unless `dry_run`) write. With an `embedder` (`vault_embedder`)
    the same fact in English and Portuguese is recognised as one. The extractor runs before anything
    is written, so an extractor failure (an LLM endpoint that is down) leaves the vault as it
    was; the writes are one transaction."""
    read, messages = collect(
        vault, conversation=conversation, since=since, conversations=conversations
    )
    if on_messages is not None:
        on_messages(len(messages))
    proposal = (extractor or RulesExtractor()).propose(messages, progress)
    the_plan = plan(vault, proposal.candidates, embedder=embedder)
    applied = None if dry_run else apply(vault, the_plan, now=now)
    return Report(read, len(messages), the_plan, proposal.skipped, applied)


def vault_embedder(vault: Vault, *, api_key: str | None = None) -> Embedder | None:
    """The embedder the vault's recall vectors are made with (`memvault embed`), for telling
    the same fact in two languages apart from two facts; None when the vault has none or its
    model is not installed (then only the rules' own sameness applies)."""
    spec = vault.embedder_spec()
    if spec is None:
        return None
    try:
        return load_embedder(spec, api_key=api_key)
    except EmbedderError:
        return None


# -- after an import ------------------------------------------------------------------------


def audit_mark(vault: Vault) -> int:
    """Where the audit log stands now (the seq of its last entry; 0 when empty). Taken before
    an import, it lets `changed_since` name the conversations that import stored."""
    return vault.audit_position()


def changed_since(vault: Vault, mark: int) -> list[str]:
    """The ids of the conversations stored new or changed after the audit position `mark`,
    each once, in the order they were stored. The audit log is the record of what an import
    wrote: an unchanged conversation of a re-imported export has no entry, so it is not
    read again."""
    found: dict[str, None] = {}
    # `Vault.put_conversations` audits what it stores new or changed (an unchanged
    # conversation gets nothing): one entry for one, one for a batch.
    for entry in vault.audit_entries(after_seq=mark, actions=CONVERSATION_ACTIONS):
        found.update(dict.fromkeys(stored_conversation_ids(entry.action, entry.details)))
    return list(found)


def extract_imported(
    vault: Vault,
    conversation_ids: Sequence[str],
    *,
    extractor: Extractor | None = None,
    now: datetime | None = None,
    progress: Callable[[int], None] | None = None,
    on_messages: Callable[[int], None] | None = None,
    embedder: Embedder | None = None,
) -> Report:
    """Extract from the conversations an import added or changed (`memvault import …
    --extract`), exactly as `run` does over them: the extractor runs before anything is
    written and the memories are written in one transaction of their own, after the import's
    (committed) one. An extractor failure (an LLM endpoint that is down) or a refused write
    leaves no memory of this run behind and the import as it was committed; running
    `memvault extract` then finishes the job (messages already extracted are skipped).
    No conversations (a re-import that changed nothing) reads nothing and writes nothing."""
    return run(
        vault,
        conversations=conversation_ids,
        extractor=extractor,
        now=now,
        progress=progress,
        on_messages=on_messages,
        embedder=embedder,
    )
