"""Memory quality of the offline rules extractor on what real exports are full of: requests to
the assistant, pasted and translated text, code, provider boilerplate — none of it a memory —
and well-formed third-person statements in English and Portuguese (no "they’m", no truncated
times, Portuguese agreement, no first person left). Each case was a wrong memory before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.conversation_eval import (
    Expected,
    Tally,
    auc_interval,
    load_conversations,
    match,
    roc_auc,
    score_conversations,
    tally_message,
)
from memvault.extract.framing import own_words
from memvault.extract.rules import extract_message, extract_messages
from memvault.extract.training import batch_of

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
        ("from now on answer in metric please", "User wants the assistant to answer in metric"),
        ("From now on, answer in metric, thanks!", "User wants the assistant to answer in metric"),
        ("a partir de agora responda em português por favor", "responda em português"),
    ],
)
def test_a_closing_please_or_thanks_is_not_part_of_the_memory(text: str, content: str) -> None:
    """Issue #20.6, well-formed text: politeness that closes a request is not its value."""
    found = _extract(text)
    assert found and found[0][0] == "instruction", found
    assert found[0][1].endswith(content) or content in found[0][1], found
    assert not any(w in found[0][1].lower() for w in ("please", "thanks", "por favor"))


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


def test_roc_auc_is_undefined_without_a_wrong_or_a_right_proposal() -> None:
    """A set with no wrong proposals says nothing about confidence: not a perfect 1.0."""
    assert roc_auc([(0.9, True), (0.5, True)]) is None
    assert roc_auc([(0.9, False)]) is None
    assert auc_interval([(0.9, True)]) is None


def test_auc_interval_brackets_the_auc_and_is_wide_for_few_wrong_proposals() -> None:
    pairs = [(0.9, True)] * 30 + [(0.6, True)] * 10 + [(0.7, False), (0.5, False)]
    auc = roc_auc(pairs)
    low, high = auc_interval(pairs)  # type: ignore[misc]
    assert auc is not None and low <= auc <= high
    assert high - low > 0.1


def test_scoring_matches_as_many_expectations_as_it_can() -> None:
    """The first proposal could answer either expectation; a greedy match would give it to
    the first and leave the second unmatched though the other proposal answers only it."""
    message = UserMessage("manual", "c", "m", "I love jazz and I love rock.", None)

    def proposal(content: str) -> Candidate:
        return Candidate("preference", content, "en", 0.8, message, "explicit_user_input", "t", "p")

    expected = [Expected("preference", ("jazz",)), Expected("preference", ("rock",))]
    proposals = [proposal("User loves jazz and rock"), proposal("User loves rock")]
    assert match(expected, proposals) == {0: 0, 1: 1}
    tally = Tally()
    tally_message(tally, "m", message.text, expected, proposals)
    assert (tally.precision(), tally.recall()) == (1.0, 1.0)


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


def test_the_blind_heldout_supplement_is_heldout_bilingual_and_mostly_without_memories() -> None:
    """The hand-written blind part of the held-out split: about 300 user messages, half in each
    language, named speakers in some conversations, most messages with no memory."""
    blind = [c for c in load_conversations(SET) if "-blind-" in c.id]
    assert {c.split for c in blind} == {"heldout"}
    for lang in ("en", "pt"):
        users = [m for c in blind if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 150, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in blind if c.lang == lang), lang


def test_the_realistic_dev_supplement_is_dev_bilingual_and_mostly_without_memories() -> None:
    """The hand-written realistic part of the dev split (`*-real-*`): about 250 user messages,
    half in each language, named speakers in some conversations, most messages with no memory."""
    real = [c for c in load_conversations(SET) if "-real-" in c.id]
    assert {c.split for c in real} == {"dev"}
    for lang in ("en", "pt"):
        users = [m for c in real if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 110, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in real if c.lang == lang), lang


def test_the_second_blind_batch_is_dealt_into_two_dev_halves_in_both_languages() -> None:
    """`real2_*.py` and `blind2_*.py`: one population per language, dealt alternately, each
    half with group conversations and mostly messages without memories. `blind2` was held out
    until its figures were recorded, then became dev (the third batch is held out)."""
    conversations = load_conversations(SET)
    for kind, split in (("-real2-", "dev"), ("-blind2-", "dev")):
        half = [c for c in conversations if kind in c.id]
        assert {c.split for c in half} == {split}, kind
        for lang in ("en", "pt"):
            users = [m for c in half if c.lang == lang for m in c.messages if m.role == "user"]
            assert len(users) >= 150, (kind, lang)
            assert sum(1 for m in users if not m.expect) > len(users) / 2, (kind, lang)
            assert any(len(c.participants) > 1 for c in half if c.lang == lang), (kind, lang)


def test_the_extraction_benchmark_measures_only_the_conversations_named_by_only() -> None:
    """`benchmarks/extraction.py --only=-blind-` measures the first blind supplement alone: its
    counts in the header, held-out tables only (the supplement has no dev conversation)."""
    blind = [c for c in load_conversations(SET) if "-blind-" in c.id]
    users = sum(1 for c in blind for m in c.messages if m.role == "user")
    script = ROOT / "benchmarks" / "extraction.py"
    done = subprocess.run(
        [sys.executable, str(script), "--only=-blind-"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f"{len(blind)} conversations, {users} user messages" in done.stdout
    assert "heldout · en" in done.stdout and "heldout · pt" in done.stdout
    assert "dev ·" not in done.stdout


#: The dev batches written to train the learned stage: the rules were never tuned on them.
TRAINING_ONLY = ("-train4a-", "-train4b-", "-train5a-", "-train5b-", "-train5c-")


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_rules_meet_precision_and_recall_targets_in_each_language(split: str) -> None:
    """Targets of the template splits and of the dev split without its blind part. The blind
    batches (`*-blind-*`, `*-blind2-*`, `*-blind3-*` ids, written by people who never read the
    extractor) are measured apart: their figures are in docs/extraction.md;
    `test_the_blind_heldout_supplement_is_...` checks their shape. Nor are the training
    batches (`TRAINING_ONLY`): the rules were never tuned on them."""
    part = [
        c
        for c in load_conversations(SET)
        if c.split == split
        and "blind" not in c.id
        and not any(batch in c.id for batch in TRAINING_ONLY)
    ]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.9, (lang, tallies[lang].wrong)
        assert tallies[lang].recall() >= 0.7, (lang, tallies[lang].misses)


def test_rules_meet_precision_and_recall_targets_on_the_realistic_dev_part_in_each_language() -> (
    None
):
    """The second realistic batch's dev half (`*-real2-*`, tuned on): precision and recall
    targets hold there. Its other half (`*-blind2-*`, held out until its figures were recorded)
    did not reach them: the figures are in docs/extraction.md."""
    part = [c for c in load_conversations(SET) if "-real2-" in c.id]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.9, (lang, tallies[lang].wrong)
        assert tallies[lang].recall() >= 0.7, (lang, tallies[lang].misses)


def test_rules_meet_the_targets_on_the_whole_dev_split_blind_batch_included() -> None:
    """The dev split the rules were tuned on, the second blind batch included (tuned on since
    it became dev): precision and recall targets hold in each language. The training batches
    (`TRAINING_ONLY`) are dev for the learned stage only: the rules were never tuned on them."""
    part = [
        c
        for c in load_conversations(SET)
        if c.split == "dev" and not any(batch in c.id for batch in TRAINING_ONLY)
    ]
    assert len({c.id.split("-")[1] for c in part}) >= 6  # chat, extra, real, real2, blind2, group
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.9, (lang, tallies[lang].wrong)
        assert tallies[lang].recall() >= 0.7, (lang, tallies[lang].misses)


def test_on_the_second_blind_batch_rules_reach_the_recall_target_in_english_only() -> None:
    """`*-blind2-*`, dev since its held-out figures were recorded (recall .37 / .29 then):
    precision at least 0.85 in each language; recall reaches 0.7 in English, and stays below it
    in Portuguese (0.58: figures in docs/extraction.md)."""
    part = [c for c in load_conversations(SET) if "-blind2-" in c.id]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.85, (lang, tallies[lang].wrong)
    assert tallies["en"].recall() >= 0.7, tallies["en"].misses
    assert 0.5 <= tallies["pt"].recall() < 0.7


def test_rules_confidence_separates_right_from_wrong_on_the_dev_split_in_each_language() -> None:
    """The dev split without its blind parts and its training batches, as the precision and
    recall targets above (the blind batches' figures are in docs/extraction.md)."""
    part = [
        c
        for c in load_conversations(SET)
        if c.split == "dev"
        and "blind" not in c.id
        and not any(batch in c.id for batch in TRAINING_ONLY)
    ]
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].wrong_count >= 5, lang  # enough wrong proposals to rank
        auc = tallies[lang].auc()
        assert auc is not None and auc >= 0.8, (lang, auc)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I want to make the intro shorter and punchier.",
            "I want to learn how to play the guitar.",
        ),
        ("I prefer the version with bullet points.", "I prefer dark mode in every app."),
        (
            "I'm working on the slides for tomorrow.",
            "I'm working on a board game about space trade.",
        ),
        ("I'm learning a lot from your answers.", "I'm learning Japanese for a trip to Osaka."),
        ("Quero deixar o texto mais curto.", "Quero aprender a tocar violão."),
        ("Estou montando os slides para amanhã.", "Estou aprendendo japonês para uma viagem."),
    ],
)
def test_a_statement_about_the_task_at_hand_gets_less_confidence_than_one_about_the_person(
    text: str, expected: str
) -> None:
    """Confidence is a filter: the same pattern gives a lower confidence to a value about the
    work in the conversation, the assistant, or today than to one about the person's life —
    or no memory at all when the value names a draft of this chat ("the intro", "the
    version with bullet points", "os slides")."""
    junk = extract_message(UserMessage("chatgpt", "c1", "m1", text, None))
    (real,) = extract_message(UserMessage("chatgpt", "c1", "m2", expected, None))
    assert all(c.confidence < 0.7 for c in junk), [c.features for c in junk]
    assert real.confidence >= 0.7, real.features


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I live in Lisbon and work at Nubank.",
         [("fact", "User lives in Lisbon"), ("fact", "User works at Nubank")]),
        ("Moro em Lisboa e trabalho na Nubank.",
         [("fact", "O usuário mora em Lisboa"), ("fact", "O usuário trabalha na Nubank")]),
        ("I'm a nurse and live in Porto.",
         [("identity", "User is a nurse"), ("fact", "User lives in Porto")]),
        ("I love jazz and hate country music.",
         [("preference", "User likes jazz"), ("preference", "User dislikes country music")]),
        ("I live in Berlin, work at Siemens and speak German.",
         [("fact", "User lives in Berlin"), ("fact", "User works at Siemens"),
          ("skill", "User speaks German")]),
        ("Moro em Recife e adoro surfar.",
         [("fact", "O usuário mora em Recife"), ("preference", "O usuário adora surfar")]),
    ],
)  # fmt: skip
def test_several_clauses_sharing_a_subject_each_become_a_memory(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I like rock and roll.", [("preference", "User likes rock and roll")]),
        ("I work at Procter and Gamble.", [("fact", "User works at Procter and Gamble")]),
        ("I live in Bosnia and Herzegovina.", [("fact", "User lives in Bosnia and Herzegovina")]),
        ("Trabalho na Procter e Gamble.", [("fact", "O usuário trabalha na Procter e Gamble")]),
        ("Moro na Bósnia e Herzegovina.", [("fact", "O usuário mora na Bósnia e Herzegovina")]),
        ("Gosto de arroz e feijão.", [("preference", "O usuário gosta de arroz e feijão")]),
        ("I live in Lisbon and Maria lives in Porto.", [("fact", "User lives in Lisbon")]),
        # A wish governs both verbs: one goal, not a goal and a fact.
        ("I want to live in Lisbon and work at Google.",
         [("goal", "User wants to live in Lisbon and work at Google")]),
        # A hypothetical covers both clauses.
        ("Suppose I live in Paris and work at Google.", []),
    ],
)  # fmt: skip
def test_one_value_with_and_in_it_is_not_split(text: str, found: list[tuple[str, str]]) -> None:
    assert _extract(text) == found


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


def test_portuguese_de_and_em_contract_with_an_article() -> None:
    assert _extract("Odeio o cheiro da cebola crua.") == [
        ("preference", "O usuário não gosta do cheiro da cebola crua")
    ]
    assert _extract("Estou trabalhando em o projeto Atlas.") == [
        ("project", "O usuário está trabalhando no projeto Atlas")
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I want to start a podcast about urban gardening.",
         [("goal", "User wants to start a podcast about urban gardening")]),
        ("Quero começar um podcast sobre hortas urbanas.",
         [("goal", "O usuário quer começar um podcast sobre hortas urbanas")]),
        ("I want to start over.", []),
        ("I want to start a new chat.", []),
        ("Quero começar de novo.", []),
        ("Quero começar uma nova conversa.", []),
    ],
)  # fmt: skip
def test_starting_something_of_ones_own_is_a_goal_starting_over_is_a_request(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


def test_the_benchmark_scores_memories_written_elsewhere_with_the_same_matcher(
    tmp_path: Path,
) -> None:
    """`--proposals` scores a second annotator's memories (one JSON object a line) exactly as
    an extractor's: here every expectation of one conversation written out as a memory, plus
    one wrong memory, gives recall 1 and one wrong proposal; a malformed line is named."""
    import json

    conversation = next(c for c in load_conversations(SET) if c.id == "en-real2-001")
    lines = [
        {
            "message_id": f"eval-{conversation.id}-m{n}",
            "type": expect.type,
            "content": "User " + " ".join(expect.keys),
        }
        for n, message in enumerate(conversation.messages, 1)
        for expect in message.expect
    ]
    expected = len(lines)
    lines.append({"message_id": f"eval-{conversation.id}-m1", "type": "fact", "content": "x"})
    written = tmp_path / "second.jsonl"
    written.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    script = ROOT / "benchmarks" / "extraction.py"
    done = subprocess.run(
        [sys.executable, str(script), "--proposals", str(written), "--only", conversation.id],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    overall = [line.split() for line in done.stdout.splitlines() if "overall" in line][-1]
    assert overall[1:5] == [str(expected + 1), str(expected), str(expected), str(expected)]
    assert "1 wrong of" in done.stdout

    written.write_text('{"message_id": "x"}\n', encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, str(script), "--proposals", str(written)], capture_output=True, text=True
    )
    assert bad.returncode != 0
    assert "second.jsonl: line 1" in bad.stderr


def test_the_third_blind_batch_is_heldout_bilingual_with_groups_and_mostly_without_memories() -> (
    None
):
    """`blind3_*.py` (ids `*-blind3-*`): written blind, held out, at least 200 user messages
    per language, group conversations in each, most messages without a memory."""
    third = [c for c in load_conversations(SET) if "-blind3-" in c.id]
    assert {c.split for c in third} == {"heldout"}
    for lang in ("en", "pt"):
        users = [m for c in third if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 200, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in third if c.lang == lang), lang


def test_the_training_batches_are_dev_bilingual_with_groups_and_mostly_without_memories() -> None:
    """`train4a_*.py` and `train4b_*.py` (ids `*-train4a-*`, `*-train4b-*`): written blind to
    train the learned stage, split dev, group conversations in each language, most messages
    without a memory, appended after every other conversation."""
    conversations = load_conversations(SET)
    training = [c for c in conversations if any(b in c.id for b in TRAINING_ONLY)]
    assert {c.split for c in training} == {"dev"}
    for lang in ("en", "pt"):
        users = [m for c in training if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 200, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in training if c.lang == lang), lang
    first = next(i for i, c in enumerate(conversations) if c in training)
    assert all("-blind3-" not in c.id for c in conversations[first:])


def test_the_fourth_blind_batch_is_heldout_bilingual_with_groups_and_mostly_without_memories() -> (
    None
):
    """`blind4_*.py` (ids `*-blind4-*`): written blind, held out, at least 200 user messages
    per language, group conversations in each, most messages without a memory, after every
    earlier batch and followed only by later ones (`train5*`, `blind5`)."""
    conversations = load_conversations(SET)
    fourth = [c for c in conversations if "-blind4-" in c.id]
    assert {c.split for c in fourth} == {"heldout"}
    start = conversations.index(fourth[0])
    assert conversations[start : start + len(fourth)] == fourth
    later = {batch_of(c.id) for c in conversations[start + len(fourth) :]}
    assert later <= {"train5a", "train5b", "train5c", "blind5"}, later
    for lang in ("en", "pt"):
        users = [m for c in fourth if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 200, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in fourth if c.lang == lang), lang


def test_the_fifth_training_batches_are_dev_bilingual_after_the_fourth_blind_batch() -> None:
    """`train5a_*.py`, `train5b_*.py`, `train5c_*.py` (ids `*-train5a-*` …): written blind to
    train the learned stage, split dev, in each language at least 200 user messages with
    most of them without a memory, appended after the fourth blind batch so every earlier
    conversation keeps its id and bytes."""
    conversations = load_conversations(SET)
    fifth = [c for c in conversations if batch_of(c.id) in {"train5a", "train5b", "train5c"}]
    assert {c.split for c in fifth} == {"dev"}
    last_fourth = max(i for i, c in enumerate(conversations) if "-blind4-" in c.id)
    assert conversations.index(fifth[0]) > last_fourth
    for lang in ("en", "pt"):
        users = [m for c in fifth if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 200, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang


def test_the_fifth_blind_batch_is_heldout_bilingual_with_groups_and_last_in_the_set() -> None:
    """`blind5_*.py` (ids `*-blind5-*`): written blind, held out, at least 200 user messages
    per language, group conversations in each, most messages without a memory, last in the
    set (after the fifth training batches)."""
    conversations = load_conversations(SET)
    fifth = [c for c in conversations if "-blind5-" in c.id]
    assert {c.split for c in fifth} == {"heldout"}
    assert conversations[-len(fifth) :] == fifth
    for lang in ("en", "pt"):
        users = [m for c in fifth if c.lang == lang for m in c.messages if m.role == "user"]
        assert len(users) >= 200, lang
        assert sum(1 for m in users if not m.expect) > len(users) / 2, lang
        assert any(len(c.participants) > 1 for c in fifth if c.lang == lang), lang
