"""The learned stage of rule extraction (`memvault.extract.learned`, `memvault.extract.stage`,
`memvault.extract.training`): a clause classifier trained on the dev split, combined with the
rules, that never brings back what the rules' framing set aside."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from memvault.extract.base import UserMessage
from memvault.extract.conversation_eval import Conversation, Expected, Message
from memvault.extract.learned import TYPES, WEIGHTS_FILE, Model, default_model
from memvault.extract.rules import extract_messages as rules_only
from memvault.extract.stage import LEARNED, extract_messages, third_person
from memvault.extract.training import batch_of, collect, fit


def _message(
    text: str, n: int = 1, conversation: str = "c1", speaker: str | None = None
) -> UserMessage:
    return UserMessage("manual", conversation, f"{conversation}-m{n}", text, None, speaker)


def _eager(type: str = "fact") -> Model:
    """A model sure that every clause states a memory of `type`."""
    return Model(
        types=TYPES,
        bias=tuple(10.0 if t == type else -10.0 for t in TYPES),
        weights={},
        propose={"*": 0.5},
        combine={"c0": 0.0, "c1": 1.0, "c2": 0.0, "c3": 0.0, "c4": 1.0},
        keep=0.0,
    )


def _learned(messages: list[UserMessage], model: Model) -> list[tuple[str, str]]:
    return [
        (c.type, c.content) for c in extract_messages(messages, model=model) if c.pattern == LEARNED
    ]


def test_learned_stage_states_a_clause_no_pattern_handled_in_the_third_person() -> None:
    found = _learned([_message("spent ten years teaching maths in Leeds")], _eager("fact"))
    assert found == [("fact", "User spent ten years teaching maths in Leeds")]


@pytest.mark.parametrize(
    "text",
    [
        "Translate to French: I am a teacher and I live in Paris.",
        "If I were rich I would live in a castle in Scotland",
        'My sister said "I love living in Paris"',
        "let's role-play: you are the innkeeper and I'm a weary traveller from the north",
        "What would you like ChatGPT to know about you? I am a baker",
        "```\nI am a string inside code\n```",
    ],
)
def test_learned_stage_never_brings_back_framed_statements(text: str) -> None:
    """Translation, hypotheticals, quotations, role-play, provider boilerplate and code stay
    the rules' (framing), whatever the classifier would say."""
    assert _learned([_message(text)], _eager()) == []


@pytest.mark.parametrize(
    "text",
    [
        "my boss is from Texas and he hates remote work",
        "and my coworkers mostly use Windows laptops",
        "a minha irmã trabalha num hospital em Braga",
        "meus amigos preferem praia",
    ],
)
def test_learned_stage_states_nothing_whose_subject_is_another_person_issue_20(
    text: str,
) -> None:
    """What the person says about others is not a memory about them: a clause whose subject
    is another person ("my boss …", "a minha irmã …") is never a learned memory."""
    assert _learned([_message(text)], _eager("relationship")) == []


def test_learned_stage_leaves_clauses_a_pattern_handled_to_the_rules() -> None:
    message = _message("I live in Lisbon")
    found = list(extract_messages([message], model=_eager("preference")))
    assert [(c.type, c.content) for c in found] == [("fact", "User lives in Lisbon")]


def test_learned_stage_names_the_speaker_of_a_group_conversation() -> None:
    found = _learned([_message("I mostly play RPGs", speaker="Ana")], _eager("preference"))
    assert found == [("preference", "Ana mostly plays RPGs")]


def test_without_a_model_the_default_is_the_rules_alone() -> None:
    messages = [_message("I live in Lisbon and I love jazz"), _message("been coding for years", 2)]
    assert [(c.type, c.content, c.confidence) for c in extract_messages(messages, model=None)] == [
        (c.type, c.content, c.confidence) for c in rules_only(messages)
    ]


@pytest.mark.parametrize(
    ("clause", "language", "content"),
    [
        ("I'm into 70s rock", "en", "User is into 70s rock"),
        (
            "i've done the Google data analytics certificate",
            "en",
            "User has done the Google data analytics certificate",
        ),
        ("I mostly play RPGs", "en", "User mostly plays RPGs"),
        ("I quit my job at the bank", "en", "User quit their job at the bank"),
        ("my cat is called Biscuit", "en", "User's cat is called Biscuit"),
        ("trabalho com marketing faz tempo", "pt", "O usuário trabalha com marketing faz tempo"),
        ("eu sou engenheira de produção", "pt", "A usuária é engenheira de produção"),
        ("hoje sou dev pleno numa fintech", "pt", "O usuário é dev pleno numa fintech"),
        ("comecei a estudar japonês", "pt", "O usuário começou a estudar japonês"),
        ("não como carne", "pt", "O usuário não come carne"),
        # a pronoun after the verb turns with it (issue #20: no first person left)
        ("mudei-me de Setúbal para Évora", "pt", "O usuário mudou-se de Setúbal para Évora"),
        ("formei-me em Direito em Coimbra", "pt", "O usuário formou-se em Direito em Coimbra"),
        ("chamo-me Rita", "pt", "O usuário chama-se Rita"),
    ],
)
def test_third_person_rewrite_of_a_clause(clause: str, language: str, content: str) -> None:
    assert third_person(clause, language) == content


@pytest.mark.parametrize(
    ("clause", "language"),
    [
        ("they're all on macbooks and notion, which is new for me", "en"),
        ("no pub crawl please lol, though I'd love some trad music", "en"),
        ("is there a support group for families in Porto Alegre?", "en"),
        ("tem algum grupo de apoio pra familiares aqui em porto alegre?", "pt"),
        ("é um raspberry pi 4 que tenho cá em casa com o nextcloud", "pt"),
    ],
)
def test_no_learned_memory_without_a_first_person_statement_issue_20(
    clause: str, language: str
) -> None:
    """Issue #20 (well-formed text): a clause with no first-person subject or verb to turn,
    or a question, gives no learned memory rather than "User: <the clause>"."""
    assert third_person(clause, language) is None


def test_shipped_model_is_read_and_scores_a_clause() -> None:
    model = default_model()
    assert model is not None and WEIGHTS_FILE.stat().st_size < 2_000_000
    assert model.types == TYPES and 0.0 < model.propose["*"] <= 1.0
    found = list(extract_messages([_message("I live in Lisbon")]))
    assert [(c.type, c.content) for c in found] == [("fact", "User lives in Lisbon")]


def test_inference_needs_no_numpy() -> None:
    """The base install has no numpy: extraction with the learned stage runs without it."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from memvault.extract.base import UserMessage\n"
        "from memvault.extract.stage import extract_messages\n"
        "m = UserMessage('manual', 'c', 'c-m1', 'I live in Lisbon', None)\n"
        "print([c.content for c in extract_messages([m])])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "User lives in Lisbon" in out.stdout


def _conversation(cid: str, texts: list[tuple[str, tuple[Expected, ...]]]) -> Conversation:
    return Conversation(
        cid,
        "dev",
        "en",
        (),
        tuple(Message("user", t, "2025-01-01T00:00:00Z", None, e) for t, e in texts),
    )


def test_training_labels_the_clause_that_holds_the_key_terms() -> None:
    conversation = _conversation(
        "en-real2-001",
        [
            (
                "can you help with my CV? I have been a nurse in Ohio for ten years",
                (Expected("identity", ("nurse",)), Expected("fact", ("lives", "Ohio"))),
            )
        ],
    )
    (sample,) = collect([conversation])
    labelled = {r.clause: labels for r, labels in zip(sample.read, sample.labels, strict=True)}
    assert labelled["can you help with my CV?"] == set()
    assert labelled["I have been a nurse in Ohio for ten years"] == {"identity", "fact"}
    assert batch_of(conversation.id) == "real2"


def test_training_is_deterministic() -> None:
    """The same samples give the same weights (no random seed in the fit)."""
    texts = [
        ("I live in Porto", (Expected("fact", ("Porto",)),)),
        ("I love jazz", (Expected("preference", ("jazz",)),)),
        ("fix this bug please", ()),
        ("I live in Braga", (Expected("fact", ("Braga",)),)),
    ]
    samples = collect([_conversation("en-chat-001", texts), _conversation("en-chat-002", texts)])
    first, second = fit(samples, steps=20, min_count=1), fit(samples, steps=20, min_count=1)
    assert first == second and first[1]
    _, weights = first
    assert max(weights["w:live"][TYPES.index("fact")], 0.0) > 0.0


def test_weights_file_is_the_training_commands_output_format() -> None:
    model = Model.from_json(Model.from_json(_eager().to_json()).to_json())
    assert model == _eager()
    assert Path(WEIGHTS_FILE).name == "learned_weights.json"


@pytest.mark.parametrize(
    "text",
    [
        # the issue's junk from real exports: requests to the assistant, pointers into the chat
        "I want to resume this chat from where we stopped.",
        "I want to design one like that, but blue.",
        "I like them all, pick one for me.",
        "I want you to then sort the list by date.",
        "Here's the problem:\nGiven an array, it never grows or shrinks. I want the output sorted.",
        "I need the intro shorter and the tone friendlier",
        "quero que o texto fique mais curto",
        "honestly I hate this error",
        "I'm so tired today",
        # framing and other people
        "Translate to French: I am a teacher and I live in Paris.",
        "Rewrite this in a formal tone: I'm a nurse and I hate Mondays.",
        "Finja que você é um recrutador. Eu sou candidato a engenheiro na Nubank.",
        "My sister lives in Boston and works at Google.",
        "o meu chefe mora em Braga",
        "my boss is from Texas and he hates remote work",
        'My dad always said "I am a lucky man".',
        "Hi, I am Claude, an AI assistant made by Anthropic.",
    ],
)
def test_the_shipped_stage_adds_no_memory_to_requests_framing_or_other_people(text: str) -> None:
    """The default extractor (rules + the shipped learned stage) on the issue's junk and on
    framed statements: nothing, exactly as the rules alone."""
    message = _message(text)
    assert [(c.type, c.content) for c in extract_messages([message])] == []


#: The dev batches written only to train the learned stage: the rules were never tuned on them.
TRAINING_ONLY = ("-train4a-", "-train4b-", "-train5a-", "-train5b-", "-train5c-")


def _dev_set() -> list[Conversation]:
    from memvault.extract.conversation_eval import load_conversations

    root = Path(__file__).resolve().parent.parent
    return [
        c
        for c in load_conversations(root / "benchmarks/extraction_set/conversations.jsonl")
        if c.split == "dev"
    ]


def test_the_default_extractor_meets_the_targets_on_the_dev_split() -> None:
    """Rules + learned stage on the dev batches the rules were tuned on (and the stage trained
    on): precision >= .9 and recall >= .7 in each language (docs/extraction.md has the
    held-out figures, which do not, and the training batches' below)."""
    from memvault.extract.conversation_eval import score_conversations

    part = [c for c in _dev_set() if not any(batch in c.id for batch in TRAINING_ONLY)]
    assert len({c.id.split("-")[1] for c in part}) >= 6  # chat, extra, group, real, real2, blind2
    tallies = score_conversations(part, lambda messages: extract_messages(messages))
    for lang in ("en", "pt"):
        assert tallies[lang].precision() >= 0.9, (lang, tallies[lang].wrong)
        assert tallies[lang].recall() >= 0.7, (lang, tallies[lang].misses)


def test_the_default_extractor_finds_more_than_the_rules_on_the_training_batches() -> None:
    """The training batches (`*-train4a-*` … `*-train5c-*`, never tuned on by the rules): the
    stage trained on them lifts recall by at least .05 over the rules alone in each language,
    without losing precision."""
    from memvault.extract.conversation_eval import score_conversations

    part = [c for c in _dev_set() if any(batch in c.id for batch in TRAINING_ONLY)]
    stage = score_conversations(part, lambda messages: extract_messages(messages))
    rules = score_conversations(part, lambda messages: rules_only(messages))
    for lang in ("en", "pt"):
        assert stage[lang].recall() >= rules[lang].recall() + 0.05, lang
        assert stage[lang].precision() >= rules[lang].precision(), lang


def test_the_benchmark_names_the_extractor_it_measures() -> None:
    """`benchmarks/extraction.py` measures the default (rules + learned stage) unless told
    `--rules-only`."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "extraction.py"
    for flags, name in (([], "rules + learned stage"), (["--rules-only"], "rules alone")):
        done = subprocess.run(
            [sys.executable, str(script), "--only", "en-real-00", *flags],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert f"extractor: {name}" in done.stdout


def test_an_inferred_memory_points_at_its_rescored_statement_pam_13() -> None:
    """PAM §13 `derived_from`: after the stage rescores a statement, the memory inferred from
    it points at the rescored one, and is no surer than it."""
    (identity, residence) = list(extract_messages([_message("I am a nurse here in Leeds")]))
    assert (identity.content, residence.content) == ("User is a nurse", "User lives in Leeds")
    assert residence.derived_from is identity
    assert residence.confidence <= identity.confidence


def test_an_inference_goes_with_the_statement_the_stage_dropped() -> None:
    strict = Model.from_json(_eager().to_json() | {"keep": 0.99})
    assert list(extract_messages([_message("I am a nurse here in Leeds")], model=strict)) == []


def test_the_rules_report_the_clauses_they_read() -> None:
    """`rules.Reading`: the text read and each clause with why it was rejected, for the stage."""
    from memvault.extract.rules import Reading, extract_message

    reading = Reading()
    extract_message(_message("I live in Porto. Can you suggest a gym?"), reading=reading)
    assert reading.clauses == [("I live in Porto.", None), ("Can you suggest a gym?", "question")]
    assert reading.dropped is None and reading.text.startswith("I live in Porto")


def test_out_of_fold_scores_each_batch_with_a_model_trained_without_it() -> None:
    """`training.out_of_fold`: a word seen only in one batch carries no weight when that
    batch is scored (its model never saw it), and does in the model trained on both."""
    from memvault.extract.training import out_of_fold, probabilities

    a = [("I live in Zanzibar", (Expected("fact", ("Zanzibar",)),)), ("fix it", ())]
    b = [("I live in Porto", (Expected("fact", ("Porto",)),)), ("fix that", ())]
    samples = collect([_conversation("en-one-001", a), _conversation("en-two-001", b)])
    oof = out_of_fold(samples, log=lambda _: None, min_count=1, steps=50)
    bias, weights = fit(samples, min_count=1, steps=50)
    assert "w:zanzibar" in weights
    zanzibar = samples[0].read[0]
    inside = probabilities(bias, weights, zanzibar.features)["fact"]
    assert oof[0][0]["fact"] < inside


def test_the_learning_curve_trains_on_shares_of_the_other_batches_only() -> None:
    """`training.curve`: one point per share and draw (the whole once), each scoring the held
    batch alone with a classifier trained on the others."""
    from memvault.extract.training import curve

    held = [("I live in Zanzibar", (Expected("fact", ("Zanzibar",)),))]
    other = [("I live in Porto", (Expected("fact", ("Porto",)),)), ("fix that", ())]
    samples = collect(
        [
            _conversation("en-held-001", held),
            *(_conversation(f"en-other-{n:03}", other) for n in range(4)),
        ]
    )
    points = curve(samples, _eager(), "held", fractions=(0.5, 1.0), seeds=(0, 1))
    assert [fraction for fraction, _, _ in points] == [0.5, 0.5, 1.0]
    for _, auc, tallies in points:
        assert 0.0 <= auc <= 1.0
        assert sum(tallies["all"].expected.values()) == 1  # the held batch's one expectation


def _sure(type: str | None, *, keep: float = 0.0) -> Model:
    """A model sure that every clause states a memory of `type` (None: of no type)."""
    return replace(
        _eager(type or "fact"),
        bias=tuple(10.0 if t == type else -10.0 for t in TYPES),
        keep=keep,
    )


@pytest.mark.parametrize(
    ("text", "expected", "model", "loss"),
    [
        # no clause the stage reads holds the memory
        ("fix that please", Expected("fact", ("Zanzibar",)), _sure("fact"), "not read"),
        # the framing gate: a hypothetical never becomes a learned memory
        (
            "if I lived in Braga I would cycle to work",
            Expected("fact", ("Braga",)),
            _sure("fact"),
            "gated",
        ),
        # a rule memory of it, dropped below `keep`
        ("I live in Porto", Expected("fact", ("Porto",)), _sure("fact", keep=1.0), "dropped"),
        # no memory: the classifier's probability of its type is below `propose`
        ("I mostly play RPGs", Expected("preference", ("RPGs",)), _sure(None), "below threshold"),
        # proposed with another type
        ("I mostly play RPGs", Expected("preference", ("RPGs",)), _sure("fact"), "another type"),
        # the right type, a key missing from the content
        (
            "I mostly play RPGs",
            Expected("preference", ("RPGs", "xbox")),
            _sure("preference"),
            "content",
        ),
    ],
)
def test_recall_loss_tells_where_each_missed_memory_is_lost(
    text: str, expected: Expected, model: Model, loss: str
) -> None:
    """`training.recall_loss`: each expected memory the stage misses, counted where it is lost
    (candidate generation, classification, rewrite/type), per batch and language."""
    from memvault.extract.training import LOSSES, recall_loss

    samples = collect([_conversation("en-train9-001", [(text, (expected,))])])
    probs = [[model.probabilities(r.features) for r in s.read] for s in samples]
    assert recall_loss(samples, probs, model) == {("train9", "en"): {loss: 1}}
    assert loss in dict(LOSSES)


def test_recall_loss_counts_nothing_for_a_memory_found() -> None:
    from memvault.extract.training import recall_loss

    samples = collect(
        [_conversation("en-blind9-001", [("I mostly play RPGs", (Expected("fact", ("RPGs",)),))])]
    )
    probs = [[_sure("fact").probabilities(r.features) for r in s.read] for s in samples]
    assert recall_loss(samples, probs, _sure("fact")) == {("blind9", "en"): {}}


def test_shortfall_is_what_precision_recall_and_auc_lack_to_reach_the_targets_issue_20() -> None:
    """The settings' criterion: P >= .9, R >= .7, AUC >= .8 (issue #20.2); what each lacks is
    added up, an undefined AUC counting as .5."""
    from memvault.extract.conversation_eval import Tally
    from memvault.extract.training import shortfall

    tally = Tally()
    tally.proposed["fact"], tally.correct["fact"] = 10, 8  # P .8
    tally.expected["fact"], tally.found["fact"] = 16, 8  # R .5
    assert shortfall(tally) == pytest.approx(0.1 + 0.2 + 0.3)
    tally.proposed["fact"], tally.correct["fact"] = 10, 10
    tally.expected["fact"], tally.found["fact"] = 10, 10
    tally.confidences = [(0.9, True), (0.2, False)]
    assert shortfall(tally) == 0.0


def test_settings_choice_takes_the_most_cautious_of_equal_settings() -> None:
    """`training.choose`: where every setting of the grid falls equally short (nothing for the
    stage to add), the highest proposing and keeping thresholds."""
    from memvault.extract.training import KEEP, PROPOSE, choose

    texts = [
        ("I live in Porto", (Expected("fact", ("Porto",)),)),
        ("fix that please", ()),
        ("I work at Nubank", (Expected("fact", ("Nubank",)),)),
    ]
    samples = collect(
        [_conversation(f"en-train9-{n:03}", texts) for n in range(2)]
        + [_conversation(f"en-blind9-{n:03}", texts) for n in range(2)]
    )
    probs = [[{t: 0.0 for t in TYPES} for _ in s.read] for s in samples]
    propose, keep, _ = choose(samples, probs, log=lambda _: None)
    assert (propose, keep) == (max(PROPOSE), max(KEEP))


def test_the_shipped_settings_are_a_point_of_the_grid_the_choice_tries() -> None:
    from memvault.extract.training import KEEP, PROPOSE

    model = default_model()
    assert model is not None
    assert model.propose["*"] in PROPOSE and model.keep in KEEP
