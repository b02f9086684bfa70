"""Time-aware reconciliation: a memory's time is when it was said (`temporal.valid_from`, the
message's time; `created_at` stays the vault's record time). For a single-valued attribute the
newer statement supersedes the older one whatever the order of extraction or import; an older
statement found later becomes history; statements of the same time contradict. Background work
never supersedes a DNA-class memory (AIMEM §5.1): it proposes, and the owner reviews."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from clikit import home, ok
from memvault.errors import AccessDenied, ConflictingInput
from memvault.extract import review
from memvault.extract.evaluation import conversation_of
from memvault.extract.pipeline import run
from memvault.model import Memory
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import PASSPHRASE, assert_valid_pam, make_vault

__all__ = ["home"]  # fixtures

OLD, NEW = "2024-03-01T09:00:00Z", "2025-06-01T09:00:00Z"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    try:
        yield v
    finally:
        v.close()


def _say(vault: Vault, conversation: str, text: str, at: str, speaker: str | None = None) -> None:
    vault.put_conversation(conversation_of(conversation, [("user", text, at)]))


def _all(vault: Vault) -> list[Memory]:
    return list(vault.iter_memories(MemoryQuery(statuses=None, limit=None)))


def _one(vault: Vault, content: str) -> Memory:
    (found,) = [m for m in _all(vault) if m.content == content]
    return found


CHANGES = [
    ("Eu moro em São Paulo.", "Eu moro em Lisboa.",
     "O usuário mora em São Paulo", "O usuário mora em Lisboa"),
    ("Trabalho na Nubank.", "Trabalho na Transportes Atlântico.",
     "O usuário trabalha na Nubank", "O usuário trabalha na Transportes Atlântico"),
    ("I use VS Code.", "I use Neovim.", "User uses VS Code", "User uses Neovim"),
]  # fmt: skip


@pytest.mark.parametrize(("old_text", "new_text", "old", "new"), CHANGES)
@pytest.mark.parametrize("order", ["oldest first", "newest first"])
def test_pam_7_1_the_newer_statement_supersedes_the_older_in_either_import_order(
    vault: Vault, order: str, old_text: str, new_text: str, old: str, new: str
) -> None:
    statements = [("c-old", old_text, OLD), ("c-new", new_text, NEW)]
    if order == "newest first":
        statements.reverse()
    for conversation, text, at in statements:  # one extraction after each import
        _say(vault, conversation, text, at)
        run(vault)
    past, present = _one(vault, old), _one(vault, new)
    assert (present.status, past.status) == ("active", "superseded")
    assert past.temporal.superseded_by == present.id
    assert [(r.from_, r.to, r.type) for r in vault.relations(present.id)] == [
        (present.id, past.id, "supersedes")
    ]
    assert_valid_pam(_all(vault))


def test_a_memory_is_valid_from_when_it_was_said_and_created_when_recorded(vault: Vault) -> None:
    _say(vault, "c1", "I live in Porto.", OLD)
    recorded = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    run(vault, now=recorded)
    memory = _one(vault, "User lives in Porto")
    assert memory.temporal.valid_from == OLD
    assert memory.temporal.created_at == "2026-01-02T03:04:05Z"


def test_an_older_statement_found_later_is_history_not_a_contradiction(vault: Vault) -> None:
    _say(vault, "c-new", "I live in Lisbon.", NEW)
    run(vault)
    _say(vault, "c-old", "I live in Berlin.", OLD)
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == [
        "history",
        "skip",
    ]  # in the order things were said
    berlin = _one(vault, "User lives in Berlin")
    assert berlin.status == "superseded"
    assert not [r for r in vault.relations(berlin.id) if r.type == "contradicts"]


def test_owner_extraction_supersedes_dna_class_and_lists_it_in_its_summary(home: Path) -> None:
    ok("init")
    with Vault.open(home, PASSPHRASE) as vault:
        _say(vault, "c1", "I prefer detailed answers.", OLD)
        _say(vault, "c2", "I prefer concise answers.", NEW)
    out = ok("extract").stdout
    assert "supersede" in out and "supersedes: User prefers detailed answers" in out
    assert "1 new superseding an older one" in out
    with Vault.open(home, PASSPHRASE) as vault:
        assert _one(vault, "User prefers detailed answers").status == "superseded"


def _proposed(vault: Vault) -> tuple[Memory, Memory]:
    _say(vault, "c1", "I prefer detailed answers.", OLD)
    _say(vault, "c2", "I prefer concise answers.", NEW)
    report = run(vault.background("extract"))
    assert [a.kind for a in report.plan.actions] == ["create", "propose"]
    return _one(vault, "User prefers detailed answers"), _one(vault, "User prefers concise answers")


def test_aimem_5_1_background_extraction_proposes_a_dna_change_for_review(vault: Vault) -> None:
    old, new = _proposed(vault)
    assert old.status == new.status == "active"  # nothing superseded silently
    assert [(r.from_, r.to, r.type) for r in vault.relations(new.id)] == [
        (new.id, old.id, "contradicts")
    ]
    (pending,) = review.pending(vault)
    assert (pending.memory.id, [t.id for t in pending.targets]) == (new.id, [old.id])
    assert pending.proposes == "supersede" and pending.proposed_by == "system:extract"
    assert_valid_pam(_all(vault))


def test_the_owner_accepts_a_proposal_and_the_supersession_is_made(vault: Vault) -> None:
    old, new = _proposed(vault)
    assert review.accept(vault, new.id) == [(new.id, old.id)]
    assert vault.get(old.id).temporal.superseded_by == new.id
    assert review.pending(vault) == []
    with pytest.raises(ConflictingInput, match="not a pending proposal"):
        review.accept(vault, new.id)


def test_the_owner_rejects_a_proposal_and_the_proposed_memory_is_retracted(vault: Vault) -> None:
    old, new = _proposed(vault)
    assert review.reject(vault, new.id).status == "retracted"
    assert vault.get(old.id).status == "active"
    assert review.pending(vault) == []


def test_only_the_owner_reviews_proposals(vault: Vault) -> None:
    _, new = _proposed(vault)
    with pytest.raises(AccessDenied):
        review.accept(vault.background("extract"), new.id)
    with pytest.raises(AccessDenied):
        review.pending(vault.acting_as("agent-x"))


def test_memvault_review_lists_accepts_and_rejects(home: Path) -> None:
    ok("init")
    with Vault.open(home, PASSPHRASE) as vault:
        _, new = _proposed(vault)
    listed = ok("review").stdout
    assert "User prefers concise answers" in listed and "would replace" in listed
    assert ok("review", "--json").json()["proposals"][0]["memory"]["id"] == new.id
    made = ok("review", "accept", new.id[:8], "--json").json()
    assert made["superseded"][0]["new"] == new.id
    assert "No proposed changes" in ok("review").stdout


def test_the_summary_lists_every_supersession_however_many_new_memories(home: Path) -> None:
    ok("init")
    with Vault.open(home, PASSPHRASE) as vault:
        things = [
            "jazz",
            "opera",
            "chess",
            "tennis",
            "sushi",
            "hiking",
            "cycling",
            "rowing",
            "knitting",
            "pottery",
            "baking",
            "gardening",
            "surfing",
            "skiing",
            "sailing",
            "fishing",
            "painting",
            "poetry",
            "cinema",
            "theatre",
            "ballet",
            "climbing",
            "running",
            "swimming",
        ]
        likes = " ".join(f"I love {thing}." for thing in things)
        _say(vault, "c1", "I live in Berlin. " + likes, OLD)
        _say(vault, "c2", "I live in Lisbon.", NEW)
    out = ok("extract").stdout
    assert "supersedes: User lives in Berlin" in out
    assert "more row" in out  # the other new memories are cut at SHOWN_ROWS


def test_aimem_5_1_an_older_dna_statement_found_in_the_background_is_proposed_as_history(
    vault: Vault,
) -> None:
    _say(vault, "c-new", "I prefer concise answers.", NEW)
    run(vault)
    _say(vault, "c-old", "I prefer detailed answers.", OLD)
    report = run(vault.background("extract"))
    assert [a.kind for a in report.plan.actions] == ["propose", "skip"]
    present, older = (
        _one(vault, "User prefers concise answers"),
        _one(vault, "User prefers detailed answers"),
    )
    (pending,) = review.pending(vault)
    assert (pending.memory.id, pending.proposes) == (older.id, "history")
    assert review.accept(vault, older.id) == [(present.id, older.id)]
    assert vault.get(older.id).temporal.superseded_by == present.id
    assert vault.get(present.id).status == "active"
