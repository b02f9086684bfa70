"""The offline rules extractor (PAM §25.1 "Extract Memories"): memory types (§5) in English and
Portuguese, statements that must yield nothing, the third-person rewrite, and complete
provenance (§11) on the memories a run writes into a real vault."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.extract.base import UserMessage, user_messages
from memvault.extract.confidence import score
from memvault.extract.evaluation import conversation_of
from memvault.extract.pipeline import run
from memvault.extract.rules import (
    EXTRACTOR,
    clauses,
    extract_message,
    rejection,
)
from memvault.model import Memory
from memvault.store.base import StoredConversation
from vaultkit import assert_valid_pam, make_vault


def _extract(text: str) -> list[tuple[str, str]]:
    message = UserMessage("chatgpt", "c1", "m1", text, "2025-05-01T10:00:00Z")
    return [(c.type, c.content) for c in extract_message(message)]


@pytest.mark.parametrize(
    ("text", "type", "content"),
    [
        ("I'm a data engineer at Acme.", "identity", "User is a data engineer at Acme"),
        ("My name is Priya Raman.", "identity", "User's name is Priya Raman"),
        ("I live in Lisbon with my partner.", "fact", "User lives in Lisbon"),
        ("I'm allergic to peanuts.", "fact", "User is allergic to peanuts"),
        ("I prefer concise answers.", "preference", "User prefers concise answers"),
        ("I can't stand cilantro.", "preference", "User dislikes cilantro"),
        ("I speak English, Spanish and Italian.", "skill",
         "User speaks English, Spanish and Italian"),
        ("My daughter Ana starts school soon.", "relationship", "User's daughter is named Ana"),
        ("I'm training for a half marathon.", "goal", "User is training for a half marathon"),
        ("Please always answer in British English.", "instruction",
         "User wants the assistant to always answer in British English"),
        ("Call me Sam.", "instruction", "User wants to be called Sam"),
        ("I use Neovim with a few plugins.", "environment", "User uses Neovim with a few plugins"),
        ("I'm building a budgeting app with SvelteKit.", "project",
         "User is building a budgeting app with SvelteKit"),
        ("I'm on parental leave until March.", "context", "User is on parental leave until March"),
    ],
)  # fmt: skip
def test_pam_5_english_statements_become_typed_third_person_memories(
    text: str, type: str, content: str
) -> None:
    assert (type, content) in _extract(text)


@pytest.mark.parametrize(
    ("text", "type", "content"),
    [
        ("Sou engenheira de dados na Nubank.", "identity",
         "A usuária é engenheira de dados na Nubank"),
        ("Meu nome é João Pedro.", "identity", "O nome do usuário é João Pedro"),
        ("eu moro em Lisboa", "fact", "O usuário mora em Lisboa"),
        ("Moro no Porto, perto da Ribeira.", "fact", "O usuário mora no Porto"),
        ("prefiro respostas curtas", "preference", "O usuário prefere respostas curtas"),
        ("Não gosto de reuniões longas.", "preference", "O usuário não gosta de reuniões longas"),
        ("Falo português, inglês e espanhol.", "skill",
         "O usuário fala português, inglês e espanhol"),
        ("Minha filha Ana começou a escola.", "relationship", "A filha do usuário se chama Ana"),
        ("Estou treinando para uma meia maratona.", "goal",
         "O usuário está treinando para meia maratona"),
        ("Responda sempre em português.", "instruction",
         "O usuário quer que o assistente responda sempre em português"),
        ("Uso Linux no trabalho.", "environment", "O usuário usa Linux no trabalho"),
        ("Estou desenvolvendo um app de receitas.", "project",
         "O usuário está desenvolvendo um app de receitas"),
        ("Estou de férias até segunda.", "context", "O usuário está de férias até segunda"),
    ],
)  # fmt: skip
def test_pam_5_portuguese_statements_stay_portuguese_in_third_person(
    text: str, type: str, content: str
) -> None:
    assert (type, content) in _extract(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("How do I reverse a list in Python?", "question"),
        ("Do you like jazz", "question"),
        ("Qual é a capital da Austrália?", "question"),
        ("If I were a cat, I'd sleep all day.", "hypothetical"),
        ("Suppose I live in Tokyo, what would rent cost", "hypothetical"),
        ("Se eu fosse rico, moraria em Paris.", "hypothetical"),
        ('My friend said "I\'m moving to Mars".', "reported"),
        ("Minha mãe disse que eu sou teimoso.", "reported"),
        ("Maybe I'll learn the piano someday.", "uncertain"),
        ("Acho que sou alérgico a gatos.", "uncertain"),
        ("Use bullet points for this one.", "one-off"),
    ],
)
def test_questions_hypotheticals_quotes_and_uncertainty_yield_nothing(text: str, why: str) -> None:
    assert next(rejection(c) for c in clauses(text)) == why
    assert _extract(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, that's really helpful!",
        "Bom dia!",
        "Write a poem about the sea.",
        "I want to know why my Docker build fails.",
        "Quero saber por que meu código não compila.",
        "He lives in Seattle and works at Amazon.",
        "My sister is a lawyer in Boston.",
        "Ela prefere chá.",
        "I love that idea, let's do it.",
    ],
)
def test_small_talk_requests_and_other_people_yield_nothing(text: str) -> None:
    assert _extract(text) == []


def test_pam_25_only_user_messages_are_read() -> None:
    """Assistant, system and tool text never becomes a memory about the user, nor does a
    model's hidden reasoning (`is_thought`) or a code part."""
    stored = conversation_of(
        "c1",
        [
            ("system", "You are helpful. I live in the cloud.", "2025-01-01T00:00:00Z"),
            ("assistant", "I prefer to give balanced answers.", "2025-01-01T00:00:01Z"),
            ("tool", "I live in /usr/local/bin", "2025-01-01T00:00:02Z"),
            ("user", "I live in Porto.", "2025-01-01T00:00:03Z"),
        ],
    )
    document = dict(stored.document)
    messages = list(document["messages"])
    messages.append(
        {
            "id": "thought",
            "role": "user",
            "is_thought": True,
            "content": {"type": "text", "text": "I live in Oslo."},
            "created_at": "2025-01-01T00:00:04Z",
        }
    )
    messages.append(
        {
            "id": "multi",
            "role": "user",
            "content": {
                "type": "multipart",
                "parts": [
                    {"type": "code", "text": "I live in Rome."},
                    {"type": "text", "text": "I'm vegetarian."},
                ],
            },
            "created_at": "2025-01-01T00:00:05Z",
        }
    )
    document["messages"] = messages
    found = [
        c.content
        for m in user_messages(StoredConversation("c1", "chatgpt", document))
        for c in extract_message(m)
    ]
    assert found == ["User lives in Porto", "User is vegetarian"]


def test_first_person_words_inside_a_value_become_third_person() -> None:
    assert _extract("My side project is a Discord bot for my gaming group.") == [
        ("project", "User's project is a Discord bot for their gaming group")
    ]
    assert _extract("Estou escrevendo minha dissertação sobre energia solar.") == [
        ("project", "O usuário está escrevendo sua dissertação sobre energia solar")
    ]


def test_a_list_stays_whole_but_a_new_clause_is_cut_off() -> None:
    assert _extract("I prefer short, concise answers.") == [
        ("preference", "User prefers short, concise answers")
    ]
    assert _extract("I'm vegetarian, so no meat in the recipes please.") == [
        ("fact", "User is vegetarian")
    ]


def test_two_statements_in_one_message() -> None:
    assert _extract("Btw I live in Porto now, and I work at Farfetch.") == [
        ("fact", "User lives in Porto"),
        ("fact", "User works at Farfetch"),
    ]


def test_change_and_polarity_are_marked_for_reconciliation() -> None:
    message = UserMessage("chatgpt", "c1", "m1", "I moved from Berlin to Lisbon.", None)
    (moved,) = extract_message(message)
    assert (moved.slot, moved.value, moved.change, moved.polarity) == (
        "residence",
        "lisbon",
        True,
        True,
    )
    message = UserMessage("chatgpt", "c1", "m1", "Já não moro em Berlim.", None)
    (left,) = extract_message(message)
    assert (left.content, left.slot, left.value, left.change, left.polarity) == (
        "O usuário já não mora em Berlim",
        "residence",
        "berlim",
        True,
        False,
    )


def test_confidence_is_the_score_of_the_statement_s_features_and_lower_when_derived() -> None:
    message = UserMessage("chatgpt", "c1", "m1", "I'm a data engineer at Acme.", None)
    stated, derived = extract_message(message)
    assert stated.confidence == score(stated.features)
    assert derived.derived_from is stated
    assert (derived.type, derived.content) == ("fact", "User works at Acme")
    assert derived.confidence < stated.confidence


def test_pam_11_memories_written_by_a_run_have_complete_provenance(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    try:
        vault.put_conversation(
            conversation_of(
                "conv-42",
                [
                    (
                        "user",
                        "Eu moro em Lisboa. I prefer concise answers.",
                        "2025-02-03T04:05:06Z",
                    ),
                    ("assistant", "Noted!", "2025-02-03T04:05:07Z"),
                ],
                platform="claude",
            )
        )
        report = run(vault)
        assert report.applied is not None and len(report.applied.created) == 2
        memories = vault.list().items
        assert_valid_pam(memories)
        by_language = {m.metadata["language"]: m for m in memories}  # type: ignore[index]
        pt: Memory = by_language["pt"]
        en: Memory = by_language["en"]
        assert pt.content == "O usuário mora em Lisboa" and pt.type == "fact"
        assert en.content == "User prefers concise answers" and en.type == "preference"
        for memory in (pt, en):
            p = memory.provenance
            assert p.platform == "claude"
            assert p.conversation_ref == "conv-42"
            assert p.message_ref == "conv-42-m1"
            assert p.extraction_method == "explicit_user_input"
            assert isinstance(p.extracted_at, str) and p.extracted_at.endswith("Z")
            assert p.extractor == EXTRACTOR and EXTRACTOR.startswith("memvault-rules/")
            assert memory.temporal.valid_from == "2025-02-03T04:05:06Z"
            assert memory.tags == ("extracted", memory.type)
            (proposed,) = [
                c
                for c in extract_message(
                    UserMessage(
                        "claude", "c", "m", "Eu moro em Lisboa. I prefer concise answers.", None
                    )
                )
                if c.content == memory.content
            ]
            assert memory.confidence.initial == proposed.confidence  # type: ignore[union-attr]
        # DNA-class types (a preference) do not decay; a fact follows the vault's default.
        assert en.confidence.decay_model == "none"  # type: ignore[union-attr]
        assert pt.confidence.decay_model == vault.settings.default_decay_model  # type: ignore[union-attr]
    finally:
        vault.close()
