"""Remembering one explicit statement: the rules extractor reads it, reconciliation decides.

A statement the user (or an assistant on their behalf) asks to remember — "I live in Lisbon",
"User lives in Lisbon" — goes through the same path as an extraction run: the rules find its
subject slot, `reconcile.plan` compares it with the vault and `reconcile.apply` writes the
outcome in one transaction. An explicit statement is said *now*, so it replaces an older value
of a single-valued slot (supersede) and a rewording of a memory already there reinforces it.
When the rules find nothing in the text it is added as given (the vault's own dedup, PAM §6).

Only the owner's session supersedes DNA-class memories: background work and agent sessions
propose the change for the owner's review (AIMEM §5.1, `extract/review.py`).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Final, Literal

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.reconcile import Plan, apply, plan
from memvault.extract.rules import extract_message
from memvault.model import DNA_TYPES, Memory
from memvault.vault import Vault
from memvault.vault_inputs import OWNER_ACTOR, format_timestamp

__all__ = ["Remembered", "remember"]

Outcome = Literal["added", "reinforced", "superseded", "proposed", "contradicts"]

#: A third-person statement read as the person's own words, so that "User lives in Lisbon"
#: fills the same slot as "I live in Lisbon" (the rules read first-person text).
_THIRD_PERSON: Final = re.compile(r"^\s*(?:the\s+)?user\s+(\w+)\b", re.IGNORECASE)
_IRREGULAR: Final = {"is": "am", "has": "have", "does": "do", "was": "was"}


def first_person(text: str) -> str | None:
    """A third-person statement in the first person: "User lives in Lisbon" → "I live in
    Lisbon"; None when the text is not about "User"."""
    match = _THIRD_PERSON.match(text)
    if match is None:
        return None
    verb = match.group(1)
    lower = verb.casefold()
    if lower in _IRREGULAR:
        base = _IRREGULAR[lower]
    elif lower.endswith("ies"):
        base = lower[:-3] + "y"
    elif lower.endswith(("ches", "shes", "sses", "xes", "oes")):
        base = lower[:-2]
    elif lower.endswith("s") and not lower.endswith("ss"):
        base = lower[:-1]
    else:
        base = lower
    return f"I {base}{text[match.end() :]}"


@dataclass(frozen=True, slots=True)
class Remembered:
    """What remembering did: `memory` is the memory the statement lives in now; `outcome`
    the first thing that happened to it; `superseded` the ids it replaced; `proposed` the
    ids a proposal is about (for the owner's review)."""

    outcome: Outcome
    memory: Memory
    created: bool
    superseded: tuple[str, ...] = ()
    proposed: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()


def candidates(text: str, *, platform: str, now: datetime) -> list[Candidate]:
    """The candidates the rules find in one explicit statement, said at `now`."""
    message = UserMessage(
        platform=platform,
        conversation_id="",  # said by hand: no conversation (PAM §11 conversation_ref null)
        message_id=str(uuid.uuid4()),
        text=text,
        created_at=format_timestamp(now.astimezone(UTC).replace(microsecond=0)),
    )
    found = extract_message(message)
    if not found:
        rewritten = first_person(text)
        if rewritten is not None:
            found = extract_message(replace(message, text=rewritten))
    # Said now, on purpose: a new value of a slot is a change, not a conflict.
    return [replace(c, change=True, method="explicit_user_input") for c in found]


def _guard_dna(vault: Vault, the_plan: Plan) -> Plan:
    """Only the owner supersedes a DNA-class memory; an agent's statement becomes a
    proposal (background work is already held to it by `reconcile.plan`)."""
    if vault.actor == OWNER_ACTOR:
        return the_plan
    actions = []
    for action in the_plan.actions:
        dna = action.candidate.type in DNA_TYPES or any(
            vault.get(t).is_dna for t in action.targets if not t.startswith("new:")
        )
        if action.kind == "supersede" and dna:
            reason = f"{action.reason}; DNA-class, so proposed for the owner's review"
            action = replace(action, kind="propose", reason=reason)
        actions.append(action)
    return Plan(actions)


def _plain(
    vault: Vault,
    content: str,
    type: str,
    tags: tuple[str, ...],
    custom_type: str | None,
    platform: str,
    now: datetime | None,
) -> Remembered:
    """The statement as given, with the vault's own dedup (PAM §6)."""
    added = vault.add(
        content, type, custom_type=custom_type, tags=tags, platform=platform,
        extraction_method="explicit_user_input", now=now,
    )  # fmt: skip
    return Remembered("added" if added.created else "reinforced", added.memory, added.created)


def remember(
    vault: Vault,
    content: str,
    type: str = "fact",
    *,
    tags: tuple[str, ...] = (),
    custom_type: str | None = None,
    platform: str = "manual",
    now: datetime | None = None,
) -> Remembered:
    """Remember one explicit statement with reconciliation (see the module docstring)."""
    moment = now or datetime.now(UTC)
    found = [] if custom_type is not None else candidates(content, platform=platform, now=moment)
    if not found:
        return _plain(vault, content, type, tags, custom_type, platform, now)
    found = [replace(c, tags=(*c.tags, *tags)) for c in found]
    the_plan = _guard_dna(vault, plan(vault, found))
    result = apply(vault, the_plan, now=now)
    first = the_plan.actions[0]
    if first.key is None:  # nothing to write (cannot happen for a fresh statement)
        return _plain(vault, content, type, tags, custom_type, platform, now)
    memory_id = result.id_map.get(first.key, first.key)
    created = memory_id in result.created
    mine = [pair for pair in result.superseded if pair[0] == memory_id]
    proposed = tuple(old for new, old in result.proposed if new == memory_id)
    contradicts = tuple(
        old for new, old in result.contradicts if new == memory_id and old not in proposed
    )
    outcome: Outcome
    if mine:
        outcome = "superseded"
    elif proposed:
        outcome = "proposed"
    elif contradicts:
        outcome = "contradicts"
    else:
        outcome = "added" if created else "reinforced"
    return Remembered(
        outcome,
        vault.get(memory_id),
        created,
        tuple(old for _, old in mine),
        proposed,
        contradicts,
    )
