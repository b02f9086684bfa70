"""The recall benchmark's machinery (benchmarks/recall.py) and its labeled set
(benchmarks/recall_set/), on a small fixed slice: the set is what its generator makes, its
labels point at messages of the right conversation, the scoring counts what it says, and the
benchmark runs end to end. No timing is asserted (timings belong to the benchmark)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = REPO / "benchmarks"


def _import(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return _import("recall")


@pytest.fixture(scope="module")
def full_set(bench: Any) -> Any:
    return bench.load_set()


def test_recall_set_is_what_its_generator_makes() -> None:
    """The committed set equals the seeded generator's output, file for file."""
    recallgen = _import("recallgen")
    assert recallgen.main(["--check"]) == 0


def test_recall_set_check_notices_a_changed_file(tmp_path: Path) -> None:
    recallgen = _import("recallgen")
    assert recallgen.main(["--out", str(tmp_path)]) == 0
    assert recallgen.main(["--out", str(tmp_path), "--check"]) == 0
    questions = tmp_path / "questions.jsonl"
    questions.write_text(questions.read_text(encoding="utf-8")[:-200], encoding="utf-8")
    assert recallgen.main(["--out", str(tmp_path), "--check"]) == 1


def test_recall_set_has_500_questions_in_both_languages_splits_and_kinds(full_set: Any) -> None:
    questions = full_set.questions
    assert len(questions) >= 500
    by_lang = Counter(q.lang for q in questions)
    assert by_lang["en"] >= 200 and by_lang["pt"] >= 200
    assert set(Counter(q.kind for q in questions)) == {"fact", "paraphrase", "when", "two_turn"}
    assert {q.split for q in questions} == {"dev", "heldout"}
    assert len(full_set.conversations) >= 20
    # A conversation is wholly in one split.
    splits = {c["id"]: c["split"] for c in full_set.conversations}
    assert all(splits[q.conversation] == q.split for q in questions)


def test_recall_set_labels_name_messages_of_the_question_s_conversation(full_set: Any) -> None:
    where = {m.id: m for m in full_set.messages}
    for q in full_set.questions:
        assert q.answers, q.id
        for answer in q.answers:
            assert where[answer].conversation == q.conversation, q.id
            assert where[answer].role == "user", q.id
        assert (len(q.answers) == 2) == (q.kind == "two_turn"), q.id


def test_recall_set_conversations_span_several_sessions_with_the_person_named(
    full_set: Any,
) -> None:
    for conv in full_set.conversations:
        assert conv["sessions"] >= 6 and conv["messages"] >= 80
    users = [m for m in full_set.messages if m.role == "user"]
    assert all(m.name for m in users)
    assert any("ç" in m.text or "ã" in m.text for m in users)  # Portuguese with accents


def test_recall_set_exports_carry_the_same_messages(full_set: Any) -> None:
    """Both exports hold every message of messages.jsonl under the same id and text."""
    texts = {m.id: m.text for m in full_set.messages}
    root = full_set.root
    claude = json.loads((root / "claude/conversations.json").read_text(encoding="utf-8"))
    seen = {m["uuid"]: m["text"] for c in claude for m in c["chat_messages"]}
    assert seen == texts
    chatgpt = json.loads((root / "chatgpt/conversations.json").read_text(encoding="utf-8"))
    nodes = {
        key: node["message"]["content"]["parts"][0]
        for c in chatgpt
        for key, node in c["mapping"].items()
        if node["message"] is not None
    }
    assert nodes == texts
    users = json.loads((root / "claude/users.json").read_text(encoding="utf-8"))
    assert sorted(u["full_name"] for u in users) == sorted(
        c["person"] for c in full_set.conversations
    )


def test_scores_count_recall_at_k_mrr_and_both_turns(bench: Any) -> None:
    q = bench.SetQuestion("q1", "en", "dev", "fact", "c", "?", ("m3",))
    two = bench.SetQuestion("q2", "pt", "heldout", "two_turn", "c", "?", ("m1", "m9"))
    rankings = {"q1": ["m1", "m2", "m3"], "q2": ["m9", "m4", "m1"]}
    table = bench.score([q, two], rankings)
    overall = table["all"]["all"]
    assert overall.n == 2
    assert overall.recall(1) == 0.5  # q2 at rank 1, q1 at rank 3
    assert overall.recall(5) == 1.0
    assert overall.mrr == pytest.approx((1 / 3 + 1) / 2)
    assert table["all"]["two_turn"].as_json()["all@10"] == 1.0
    assert table["dev"]["en"].n == 1 and table["heldout"]["pt"].n == 1
    missed = bench.score([q], {"q1": [f"m{i}" for i in range(4, 20)]})
    assert missed["all"]["all"].recall(10) == 0.0 and missed["all"]["all"].mrr == 0.0


def test_subset_keeps_every_language_and_split(full_set: Any, bench: Any) -> None:
    part = bench.subset(full_set, 1, 5)
    assert len(part.conversations) == 4
    assert {(c["lang"], c["split"]) for c in part.conversations} == {
        ("en", "dev"), ("en", "heldout"), ("pt", "dev"), ("pt", "heldout")
    }  # fmt: skip
    assert len(part.questions) == 20
    ids = part.conversation_ids()
    assert all(m.conversation in ids for m in part.messages)


def test_bm25_peer_finds_a_turn_that_shares_the_question_s_words(full_set: Any, bench: Any) -> None:
    part = bench.subset(full_set, 1)
    rankings, _ = bench.bm25_rankings(part, "conversation")
    when = [q for q in part.questions if q.kind == "when"]
    assert when
    # "When did X move to Leeds?" shares the city with its turn: BM25 finds most of them.
    found = sum(1 for q in when if set(q.answers) & set(rankings[q.id]))
    assert found >= len(when) * 0.8


@pytest.fixture(scope="module")
def slice_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the slice's run is kept (its vault: `run/vault`)."""
    return tmp_path_factory.mktemp("recall-bench")


@pytest.fixture(scope="module")
def slice_output(bench: Any, slice_dir: Path) -> tuple[str, list[dict[str, Any]]]:
    """The benchmark on a fixed slice (one conversation of each language and split, four
    questions each), every system: the set imported through the console script, vectors
    from the test suite's n-gram embeddings server (a real HTTP server on 127.0.0.1)."""
    import contextlib
    import io

    work = slice_dir
    figures = work / "figures.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = bench.main(
            [
                "--conversations", "1", "--questions", "4", "--ngram-server",
                "--json", str(figures), "--keep", str(work / "run"),
            ]
        )  # fmt: skip
    assert code == 0
    return out.getvalue(), json.loads(figures.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_recall_benchmark_slice_prints_every_split_and_scope(
    slice_output: tuple[str, list[dict[str, Any]]],
) -> None:
    out, figures = slice_output
    assert "recall set: 4 conversations, " in out
    assert "embedding model: ngram-256" in out
    for scope in ("within the question's conversation", "over the whole vault"):
        for split in ("dev", "heldout", "all"):
            assert f"== {scope}" in out and f"split {split} ==" in out
    assert [(f["system"], f["scope"]) for f in figures] == [
        ("bm25", "conversation"),
        ("bm25", "vault"),
        ("fts", "conversation"),
        ("vector", "conversation"),
        ("hybrid", "conversation"),
        ("fts", "vault"),
        ("vector", "vault"),
        ("hybrid", "vault"),
    ]
    for entry in figures:
        overall = entry["splits"]["all"]["all"]
        assert overall["n"] == 16
        assert overall["r@1"] <= overall["r@5"] <= overall["r@10"] <= 1
        assert set(entry["splits"]) == {"dev", "heldout", "all"}


@pytest.mark.slow
def test_recall_benchmark_finds_answers_through_the_vault(
    slice_output: tuple[str, list[dict[str, Any]]],
) -> None:
    """Hits map back to the set's message ids: memvault's full-text recall answers questions
    (a broken id mapping would score zero)."""
    _, figures = slice_output
    fts = next(f for f in figures if f["system"] == "fts" and f["scope"] == "conversation")
    when = fts["splits"]["all"]["when"]
    assert when["n"] > 0 and when["r@10"] >= 0.8


@pytest.mark.slow
def test_recall_replay_gives_the_benchmarks_dev_figures(
    bench: Any, slice_output: tuple[str, list[dict[str, Any]]], slice_dir: Path
) -> None:
    """benchmarks/recall_replay.py (how fusion settings are tuned, dev split only) replays
    the engine's ranking over the candidate lists it reads: with the defaults it scores the
    dev questions as `benchmarks/recall.py` did through `Vault.recall`, for every system."""
    from embedserver import MODEL, serve
    from memvault.recall.embedders import OpenAIEmbedder
    from memvault.recall.ranking import Ranking

    replay = _import("recall_replay")
    _, figures = slice_output
    home = slice_dir / "run" / "vault"
    with serve() as server:
        data = replay.read(
            home,
            [Ranking()],
            embedder=OpenAIEmbedder(server.url, MODEL),
            data=bench.subset(bench.load_set(), 1, 4),
        )
    assert data.questions and {q.split for q in data.questions} == {"dev"}
    for mode in ("fts", "vector", "hybrid"):
        replayed = replay.figures(data, mode, Ranking())
        for scope in ("conversation", "vault"):
            measured = next(f for f in figures if (f["system"], f["scope"]) == (mode, scope))
            dev = measured["splits"]["dev"]["all"]
            scores = replayed[scope]
            assert scores.n == dev["n"]
            assert [round(scores.recall(c), 4) for c in (1, 5, 10)] == [
                dev["r@1"],
                dev["r@5"],
                dev["r@10"],
            ]
            assert round(scores.mrr, 4) == dev["mrr"]
