"""Reconciling extracted memories with the vault: the same fact reinforces (PAM §6), a
rewording merges, a change supersedes (PAM §7.1, §13 `supersedes`), a conflict without a
winner is kept on both sides (§13 `contradicts`), an inference is linked (§13 `derived_from`),
and a whole run is one transaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.errors import InvalidTransition
from memvault.extract.base import tokens, user_messages
from memvault.extract.evaluation import conversation_of
from memvault.extract.pipeline import run
from memvault.extract.reconcile import NEAR_DUPLICATE, apply, jaccard, plan
from memvault.extract.rules import extract_messages
from memvault.model import Memory
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import assert_valid_pam, make_vault


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    try:
        yield v
    finally:
        v.close()


def _say(vault: Vault, conversation: str, text: str, at: str) -> None:
    vault.put_conversation(conversation_of(conversation, [("user", text, at)]))


def _all(vault: Vault) -> list[Memory]:
    return list(vault.iter_memories(MemoryQuery(statuses=None, limit=None)))


def _one(vault: Vault, content: str) -> Memory:
    (found,) = [m for m in _all(vault) if m.content == content]
    return found


def test_pam_6_the_same_fact_again_reinforces_without_a_twin(vault: Vault) -> None:
    _say(vault, "c1", "I live in Lisbon.", "2025-01-01T00:00:00Z")
    run(vault)
    before = _one(vault, "User lives in Lisbon").confidence
    _say(vault, "c2", "Btw, I live in Lisbon.", "2025-02-01T00:00:00Z")
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == ["skip", "reinforce"]
    memory = _one(vault, "User lives in Lisbon")
    assert memory.confidence.current > before.current  # type: ignore[union-attr]
    assert memory.confidence.last_reinforced is not None  # type: ignore[union-attr]
    assert memory.metadata["extraction"]["sources"] == ["c1#c1-m1", "c2#c2-m1"]  # type: ignore[index]
    assert len(_all(vault)) == 1


def test_a_near_duplicate_is_merged_into_the_memory_that_has_it(vault: Vault) -> None:
    _say(vault, "c1", "I prefer concise answers.", "2025-01-01T00:00:00Z")
    _say(vault, "c2", "I really prefer short, concise answers.", "2025-02-01T00:00:00Z")
    report = run(vault)
    kinds = [a.kind for a in report.plan.actions]
    assert kinds == ["create", "merge"]
    assert report.plan.actions[1].similarity == 0.75
    (memory,) = _all(vault)
    assert memory.content == "User prefers concise answers"
    assert memory.confidence.current > memory.confidence.initial  # type: ignore[union-attr,operator]


def test_near_duplicate_threshold_separates_rewordings_from_other_facts() -> None:
    """The measured basis of NEAR_DUPLICATE (docs/extraction.md)."""
    same = [
        ("User prefers concise answers", "User prefers short, concise answers"),
        ("User likes hiking", "User likes hiking in the mountains"),
        ("User uses Neovim", "User uses Neovim daily"),
        ("O usuário gosta de cozinhar", "O usuário gosta muito de cozinhar"),
        ("User is learning Japanese", "User is learning Japanese on Duolingo"),
    ]
    different = [
        ("User prefers concise answers", "User prefers dark roast coffee"),
        ("User likes hiking", "User likes jazz"),
        ("User uses Neovim", "User uses Kubernetes on GCP"),
        ("User is learning Japanese", "User is learning to play guitar"),
        ("O usuário gosta de cozinhar", "O usuário gosta de ficção científica"),
    ]
    assert all(jaccard(tokens(a), tokens(b)) >= NEAR_DUPLICATE for a, b in same)
    assert all(jaccard(tokens(a), tokens(b)) < NEAR_DUPLICATE for a, b in different)


def test_pam_7_1_a_move_supersedes_the_old_residence(vault: Vault) -> None:
    _say(vault, "c1", "I live in Berlin.", "2024-01-01T00:00:00Z")
    run(vault)
    _say(vault, "c2", "I moved from Berlin to Lisbon last spring.", "2025-06-01T00:00:00Z")
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == ["skip", "supersede"]
    old = _one(vault, "User lives in Berlin")
    new = _one(vault, "User lives in Lisbon")
    assert old.status == "superseded"  # kept, never deleted
    assert old.temporal.superseded_by == new.id
    assert new.status == "active"
    relations = vault.relations(new.id)
    assert [(r.from_, r.to, r.type) for r in relations] == [(new.id, old.id, "supersedes")]
    assert_valid_pam(_all(vault))


def test_pam_7_1_ja_nao_moro_supersedes_in_portuguese(vault: Vault) -> None:
    _say(vault, "c1", "Eu moro em Berlim.", "2024-01-01T00:00:00Z")
    _say(vault, "c2", "Já não moro em Berlim.", "2025-01-01T00:00:00Z")
    run(vault)
    old = _one(vault, "O usuário mora em Berlim")
    new = _one(vault, "O usuário já não mora em Berlim")
    assert (old.status, old.temporal.superseded_by) == ("superseded", new.id)


def test_now_i_prefer_supersedes_the_earlier_preference_on_the_same_subject(vault: Vault) -> None:
    _say(vault, "c1", "I prefer detailed answers.", "2024-01-01T00:00:00Z")
    _say(vault, "c2", "Now I prefer concise answers.", "2025-01-01T00:00:00Z")
    run(vault)
    assert _one(vault, "User prefers detailed answers").status == "superseded"
    assert _one(vault, "User prefers concise answers").status == "active"


def test_pam_13_statements_of_the_same_time_that_disagree_contradict(vault: Vault) -> None:
    _say(vault, "c1", "I'm a teacher.", "2024-01-01T00:00:00Z")
    _say(vault, "c2", "I'm a nurse.", "2024-01-01T00:00:30Z")
    _say(vault, "c3", "I love jazz. ", "2024-01-01T00:00:00Z")
    _say(vault, "c4", "I hate jazz.", "2024-01-01T00:00:00Z")
    report = run(vault)
    assert [a.kind for a in report.plan.actions].count("contradict") == 2
    teacher, nurse = _one(vault, "User is a teacher"), _one(vault, "User is a nurse")
    likes, dislikes = _one(vault, "User likes jazz"), _one(vault, "User dislikes jazz")
    for old, new in ((teacher, nurse), (likes, dislikes)):
        assert old.status == new.status == "active"
        assert [(r.from_, r.to, r.type) for r in vault.relations(new.id)] == [
            (new.id, old.id, "contradicts")
        ]


def test_aimem_5_1_background_work_proposes_instead_of_superseding_dna(vault: Vault) -> None:
    _say(vault, "c1", "I prefer detailed answers.", "2024-01-01T00:00:00Z")
    _say(vault, "c2", "Now I prefer concise answers.", "2025-01-01T00:00:00Z")
    report = run(vault.acting_as("system:extract"))
    assert [a.kind for a in report.plan.actions] == ["create", "propose"]
    assert _one(vault, "User prefers detailed answers").status == "active"


def test_pam_13_an_inferred_memory_is_derived_from_its_source(vault: Vault) -> None:
    _say(vault, "c1", "I'm a data engineer at Acme.", "2025-01-01T00:00:00Z")
    run(vault)
    role = _one(vault, "User is a data engineer at Acme")
    employer = _one(vault, "User works at Acme")
    assert [(r.from_, r.to, r.type) for r in vault.relations(employer.id)] == [
        (employer.id, role.id, "derived_from")
    ]
    assert employer.confidence.initial < role.confidence.initial  # type: ignore[union-attr,operator]


def test_a_second_run_over_the_same_conversations_changes_nothing(vault: Vault) -> None:
    _say(vault, "c1", "I live in Berlin. I'm a data engineer at Acme.", "2024-01-01T00:00:00Z")
    _say(vault, "c2", "I moved to Lisbon. I prefer concise answers.", "2025-01-01T00:00:00Z")
    run(vault)
    memories = sorted((m.id, m.content_hash, m.status, str(m.confidence)) for m in _all(vault))
    audit = len(vault.audit_log())
    again = run(vault)
    assert {a.kind for a in again.plan.actions} == {"skip"}
    assert sorted((m.id, m.content_hash, m.status, str(m.confidence)) for m in _all(vault)) == (
        memories
    )
    assert len(vault.audit_log()) == audit


def test_a_run_is_one_transaction_nothing_is_half_written(vault: Vault) -> None:
    """A plan made, then the vault changes under it (another writer retracts the memory the
    plan supersedes): applying fails at the supersession, after several memories were
    already added inside the run — and none of them stays."""
    _say(vault, "c1", "I live in Berlin.", "2024-01-01T00:00:00Z")
    run(vault)
    berlin = _one(vault, "User lives in Berlin")
    _say(
        vault,
        "c2",
        "I'm a nurse. I love jazz. I moved to Lisbon.",
        "2025-01-01T00:00:00Z",
    )
    candidates = list(extract_messages(user_messages(vault.get_conversation("c2"))))
    the_plan = plan(vault, candidates)
    assert [a.kind for a in the_plan.actions] == ["create", "create", "supersede"]
    vault.retract(berlin.id)
    memories = sorted((m.id, m.status) for m in _all(vault))
    audit = vault.audit_log()
    with pytest.raises(InvalidTransition):
        apply(vault, the_plan)
    assert sorted((m.id, m.status) for m in _all(vault)) == memories
    assert vault.audit_log() == audit
    assert vault.verify_audit().ok


def test_dry_run_plans_without_writing(vault: Vault) -> None:
    _say(vault, "c1", "I live in Berlin. I moved to Lisbon.", "2024-01-01T00:00:00Z")
    audit = vault.audit_log()
    report = run(vault, dry_run=True)
    assert [a.kind for a in report.plan.actions] == ["create", "supersede"]
    assert report.applied is None
    assert _all(vault) == [] and vault.audit_log() == audit
