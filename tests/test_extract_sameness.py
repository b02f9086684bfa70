"""The same fact once, about the right person: statements that differ only in case,
punctuation or spacing are one memory; the same fact in English and Portuguese is one memory
when an embedder is available (the local multilingual model here) and, without one, when a
single-valued slot holds the same value; in a conversation between several named people each
memory names its person, and statements of different people are never merged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memvault.extract.conversation_eval import Conversation, Message, stored
from memvault.extract.evaluation import conversation_of
from memvault.extract.pipeline import run
from memvault.extract.reconcile import normal_form
from memvault.model import Memory
from memvault.recall.local_model import DEFAULT_MODEL, load_local
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import make_vault

OLD, NEW = "2024-03-01T09:00:00Z", "2025-06-01T09:00:00Z"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    try:
        yield v
    finally:
        v.close()


@pytest.fixture(scope="module")
def embedder() -> Any:
    return load_local(DEFAULT_MODEL)


def _say(vault: Vault, conversation: str, text: str, at: str) -> None:
    vault.put_conversation(conversation_of(conversation, [("user", text, at)]))


def _active(vault: Vault) -> list[str]:
    return sorted(m.content for m in vault.iter_memories(MemoryQuery(limit=None)))


def _all(vault: Vault) -> list[Memory]:
    return list(vault.iter_memories(MemoryQuery(statuses=None, limit=None)))


def test_case_punctuation_and_spacing_do_not_make_another_memory(vault: Vault) -> None:
    assert normal_form("O usuário mora em  Lisboa.") == normal_form("o usuário mora em Lisboa")
    vault.add("O usuário mora em Lisboa.", "fact")
    _say(vault, "c1", "Moro em Lisboa.", NEW)
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == ["reinforce"]
    assert _active(vault) == ["O usuário mora em Lisboa."]


def test_the_same_fact_in_english_and_portuguese_is_one_memory_with_an_embedder(
    vault: Vault, embedder: Any
) -> None:
    _say(vault, "c1", "I live in Lisbon.", OLD)
    _say(vault, "c2", "Moro em Lisboa.", OLD)
    report = run(vault, embedder=embedder)
    assert [a.kind for a in report.plan.actions] == ["create", "merge"]
    assert _active(vault) == ["User lives in Lisbon"]
    _say(vault, "c3", "Moro em Berlim.", OLD)  # another city is not the same fact
    assert [a.kind for a in run(vault, embedder=embedder).plan.actions][-1] == "contradict"


def test_without_an_embedder_the_same_slot_and_value_merges_across_languages(
    vault: Vault,
) -> None:
    _say(vault, "c1", "I work at Nubank.", OLD)
    _say(vault, "c2", "Trabalho na Nubank.", OLD)
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == ["create", "merge"]
    assert _active(vault) == ["User works at Nubank"]


def test_without_an_embedder_a_translated_value_is_a_change_in_time_order(vault: Vault) -> None:
    # "Lisbon" and "Lisboa" share no word: the rules alone see two values; the newer wins.
    _say(vault, "c1", "I live in Lisbon.", OLD)
    _say(vault, "c2", "Moro em Lisboa.", NEW)
    run(vault)
    assert _active(vault) == ["O usuário mora em Lisboa"]


def _group(*turns: tuple[str, str]) -> Conversation:
    messages = tuple(
        Message("user", text, f"2025-01-01T09:0{n}:00Z", speaker, ())
        for n, (speaker, text) in enumerate(turns)
    )
    return Conversation("g1", "dev", "en", ("Ana", "Bruno"), messages)


def test_in_a_conversation_between_named_people_each_memory_names_its_person(
    vault: Vault,
) -> None:
    vault.put_conversation(
        stored(
            _group(
                ("Ana", "I live in Porto."),
                ("Bruno", "I live in Porto."),
                ("Ana", "I love hiking."),
                ("Bruno", "My sister lives in Braga."),
            )
        )
    )
    report = run(vault)
    assert [a.kind for a in report.plan.actions] == ["create", "create", "create"]
    assert _active(vault) == ["Ana likes hiking", "Ana lives in Porto", "Bruno lives in Porto"]
    subjects = {m.content: m.metadata["extraction"]["subject"] for m in _all(vault)}  # type: ignore[index]
    assert subjects["Bruno lives in Porto"] == "Bruno"


def test_statements_of_different_people_never_reinforce_each_other(vault: Vault) -> None:
    vault.put_conversation(
        stored(_group(("Ana", "I work at Acme."), ("Bruno", "I work at Globex.")))
    )
    report = run(vault)
    # Different people: neither a merge nor a contradiction, nor a supersession.
    assert [a.kind for a in report.plan.actions] == ["create", "create"]
    assert _active(vault) == ["Ana works at Acme", "Bruno works at Globex"]
