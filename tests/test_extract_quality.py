"""Memory quality of the offline rules extractor on what real exports are full of: requests to
the assistant, pasted and translated text, code, provider boilerplate — none of it a memory —
and well-formed third-person statements in English and Portuguese (no "they’m", no truncated
times, Portuguese agreement, no first person left). Each case was a wrong memory before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memvault.extract.base import UserMessage
from memvault.extract.conversation_eval import load_conversations, roc_auc, score_conversations
from memvault.extract.framing import own_words
from memvault.extract.rules import extract_message, extract_messages

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "benchmarks" / "extraction_set" / "conversations.jsonl"


def _extract(text: str) -> list[tuple[str, str]]:
    message = UserMessage("chatgpt", "c1", "m1", text, "2025-05-01T10:00:00Z")
    return [(c.type, c.content) for c in extract_message(message)]


@pytest.mark.parametrize(
    "text",
    [
        "I want to resume this chat from where we stopped.",
        "I want to design one like that, but blue.",
        "I like them all, pick one for me.",
        "I want you to then sort the list by date.",
        "Here's the problem:\nGiven an array, it never grows or shrinks. I want the output sorted.",
        "Translate to French: I am a teacher and I live in Paris.",
        "Traduza para o inglês: Eu sou professora e moro em Recife.",
        "Rewrite this in a formal tone: I'm a nurse and I hate Mondays.",
        "Act as a Linux terminal. I am root and I live in /home/root.",
        "Finja que você é um recrutador. Eu sou candidato a engenheiro na Nubank.",
        "```python\nprint('I am a robot and I live in the cloud')\n```\nwhy?",
        "Traceback (most recent call last):\nValueError: I live in a bad state",
        "Hi, I am Claude, an AI assistant made by Anthropic.",
        "What would you like ChatGPT to know about you to provide better responses?",
        "Design a ring buffer; it never grows or shrinks. Always return the oldest item first.",
        "My sister lives in Boston and works at Google.",
        "Minha irmã mora em Recife e trabalha na Stone.",
        'My dad always said "I am a lucky man".',
    ],
)
def test_requests_pastes_code_boilerplate_and_other_people_are_not_memories(text: str) -> None:
    assert _extract(text) == []


def test_a_task_on_pasted_text_is_named_as_such() -> None:
    assert own_words("Translate to French: I am a teacher.") == ("", "task")
    assert own_words("Job post:\nI am the hiring manager.") == ("Job post:", "pasted")
    assert own_words("I live in Porto.") == ("I live in Porto.", None)


def test_curly_apostrophes_are_rewritten_to_third_person() -> None:
    found = _extract("My goal is to make sure I’m ready for the marathon in May.")
    assert found == [("goal", "User's goal is to make sure they are ready for the marathon in May")]


def test_i_run_a_lot_is_a_habit_not_a_project() -> None:
    assert _extract("I run a lot.") == [("fact", "User runs a lot")]
    assert _extract("Corro bastante.") == [("fact", "O usuário corre bastante")]


def test_a_time_of_day_is_not_cut_at_its_colon() -> None:
    assert _extract("I like to run at 6:30 in the morning.") == [
        ("preference", "User likes to run at 6:30 in the morning")
    ]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Sou vegetariana.", "A usuária é vegetariana"),
        ("Sou brasileira.", "A usuária é brasileira"),
        ("Sou engenheira na Nubank.", "A usuária é engenheira na Nubank"),
        ("Sou engenheiro na Nubank.", "O usuário é engenheiro na Nubank"),
    ],
)
def test_portuguese_statements_agree_in_gender(text: str, content: str) -> None:
    assert content in [c for _, c in _extract(text)]


def test_portuguese_first_person_inside_a_value_is_rewritten() -> None:
    assert _extract("Estou trabalhando em um projeto que estou liderando na empresa.") == [
        ("project", "O usuário está trabalhando em um projeto que está liderando na empresa")
    ]


def test_self_statements_in_one_message_each_become_a_memory() -> None:
    found = _extract(
        "I’m 30 and I’m switching careers from accounting to UX design. I love sketching "
        "interfaces on paper. I want to become a product designer at a small studio."
    )
    assert [t for t, _ in found] == ["identity", "goal", "preference", "goal"]


def test_an_editor_switch_names_the_new_editor_in_the_editor_slot() -> None:
    message = UserMessage("chatgpt", "c1", "m1", "I switched from VS Code to Neovim.", None)
    (found,) = extract_message(message)
    assert (found.content, found.slot, found.change) == ("User uses Neovim", "editor", True)


def test_roc_auc_ranks_right_above_wrong_and_counts_ties_half() -> None:
    assert roc_auc([(0.9, True), (0.5, False)]) == 1.0
    assert roc_auc([(0.5, True), (0.9, False)]) == 0.0
    assert roc_auc([(0.7, True), (0.7, False)]) == 0.5


def test_the_evaluation_set_is_what_its_generator_writes() -> None:
    script = ROOT / "benchmarks" / "extraction_set" / "generate.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True)
    assert done.returncode == 0, done.stderr


def test_the_evaluation_set_is_large_bilingual_and_mostly_without_memories() -> None:
    conversations = load_conversations(SET)
    users = [m for c in conversations for m in c.messages if m.role == "user"]
    assert len(users) >= 600
    assert {c.lang for c in conversations} == {"en", "pt"}
    assert {c.split for c in conversations} == {"dev", "heldout"}
    assert sum(1 for m in users if not m.expect) > len(users) / 2
    assert any(len(c.participants) > 1 for c in conversations)


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_rules_meet_precision_and_recall_targets_in_each_language(split: str) -> None:
    part = [c for c in load_conversations(SET) if c.split == split]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.9, (lang, tallies[lang].wrong)
        assert tallies[lang].recall() >= 0.7, (lang, tallies[lang].misses)


def test_rules_confidence_separates_right_from_wrong_on_the_dev_split() -> None:
    part = [c for c in load_conversations(SET) if c.split == "dev"]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    assert tallies["all"].auc() >= 0.8


def test_claudes_stock_project_is_archived_boilerplate_not_a_memory(tmp_path: Path) -> None:
    from importkit import read
    from memvault.importers.claude import IMPORTER
    from providergen import claude as gen

    _, memories, _ = read(IMPORTER, gen.write(tmp_path, "zip"))
    (stock,) = [m for m in memories if m["content"].startswith("How to use Claude")]
    assert (stock["status"], stock["tags"]) == ("archived", ["provider-boilerplate"])
    others = [m for m in memories if m["type"] == "project" and m is not stock]
    assert others and all(m["status"] == "active" for m in others)


def test_context_given_with_a_question_is_still_the_persons_own() -> None:
    assert _extract("Explain how taxes work in Portugal. I live in Lisbon.") == [
        ("fact", "User lives in Lisbon")
    ]
