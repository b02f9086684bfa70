"""Recall's ranking beyond fusion (docs/recall.md "Ranking"): a passage made only of questions
weighs less than one that tells something, hybrid recall's second stage gives the full-text
hits the vector list missed their exact cosine from their stored vectors, and a full-text
hit's share of the fusion is weighed by how much of the query its own words hold."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from embedserver import MODEL, EmbedServer
from embedserver import embed_server as embed_server
from memvault.conversation_merge import conversation_row
from memvault.recall.embedders import EmbedderSpec, load_embedder
from memvault.recall.engine import RecallFilters, rescore, scope_of, text_coverage
from memvault.recall.ranking import Ranking, asks_only, cosine, coverage, fuse, weigh
from memvault.vault import Vault
from vaultkit import vault as vault


def _chat(messages: list[tuple[str, str]], user: str | None = None) -> dict[str, Any]:
    """A PAM conversation (§25) of (id, text) user messages, the user named `user`."""
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": "c1",
        "provider": {"name": "chatgpt"},
        "title": "Chat",
        **({"participants": [{"role": "user", "name": user}]} if user else {}),
        "temporal": {"created_at": "2025-03-01T10:00:00Z"},
        "messages": [
            {
                "id": mid,
                "role": "user",
                "created_at": f"2025-03-01T10:{i:02d}:00Z",
                "content": {"type": "text", "text": text},
            }
            for i, (mid, text) in enumerate(messages)
        ],
    }


def test_asks_only_holds_when_every_sentence_of_a_passage_is_a_question() -> None:
    assert asks_only("What should I plant on a shady balcony?")
    assert asks_only("Any tips?  What about water? ")
    assert asks_only('She asked: "why not?"')
    assert asks_only("Qual é o melhor vaso para morangos?")
    assert not asks_only("We planted sunflowers on the balcony. Any tips?")
    assert not asks_only("Is a grey tabby fine in a small flat? Just curious.")
    assert not asks_only("I planted strawberries today")
    assert not asks_only("")


def test_a_passage_made_only_of_questions_weighs_question_weight() -> None:
    ranking = Ranking(question_weight=0.25, recency_weight=0.0)
    common: dict[str, Any] = {
        "kind": "message",
        "status": None,
        "confidence": None,
        "at_epoch": None,
        "now": 0.0,
    }
    assert weigh(0.8, ranking, asks=True, **common) == pytest.approx(0.2)
    assert weigh(0.8, ranking, asks=False, **common) == pytest.approx(0.8)
    with pytest.raises(ValueError, match="question_weight"):
        Ranking(question_weight=-1.0)


def test_a_question_ranks_below_a_statement_that_shares_its_words(vault: Vault) -> None:
    """docs/recall.md "Ranking": "What to plant on a balcony?" matches the query's words
    better than the turn that tells what was planted (it is shorter), but asks only; weighed
    by `question_weight` it falls below the statement. With the weight at 1 BM25's order
    stands, which is what this test would see if the weighing were gone."""
    vault.put_conversation(
        conversation_row(
            _chat(
                [
                    ("ask", "What to plant on a balcony?"),
                    ("tell", "I planted strawberries on the balcony today, hope they survive."),
                ]
            )
        )
    )
    query = "what did I plant on the balcony"
    plain = vault.recall(query, mode="fts", ranking=Ranking(question_weight=1.0))
    assert [h.id for h in plain.hits] == ["ask", "tell"]
    weighed = vault.recall(query, mode="fts")
    assert [h.id for h in weighed.hits] == ["tell", "ask"]


def test_rescored_full_text_hits_count_as_vector_hits_in_fusion() -> None:
    """The second stage's cosine joins the vector list's counted hits: a full-text hit the
    vector list did not return gets the vector weight too, on the same scale."""
    ranking = Ranking(text_weight=0.25, vector_weight=0.75, text_depth=3, vector_depth=1)
    text = [(1, 10.0), (2, 8.0), (3, 2.0)]
    vector = [(4, 0.6), (2, 0.5)]  # 2 is past vector_depth: not counted from the list
    alone = fuse(text, vector, ranking)
    assert alone[1] > alone[2]
    rescored = fuse(text, vector, ranking, {2: 0.5, 1: 0.1})
    assert rescored[2] == pytest.approx(0.25 * 0.75 + 0.75 * 0.5, abs=1e-5)
    assert rescored[1] == pytest.approx(0.25 * 1.0 + 0.75 * 0.1, abs=1e-5)
    assert rescored[2] > rescored[1]
    # A listed hit keeps the list's own similarity: rescoring never counts a passage twice.
    assert fuse(text, vector, ranking, {4: 0.0})[4] == pytest.approx(0.75 * 0.6, abs=1e-5)


def test_cosine_is_the_cosine_similarity() -> None:
    assert cosine([1.0, 0.0], [0.0, 2.0]) == 0.0
    assert cosine([3.0, 4.0], [6.0, 8.0]) == pytest.approx(1.0)
    assert cosine([1.0, 1.0], [1.0, 0.0]) == pytest.approx(1 / math.sqrt(2))
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="dimensions"):
        cosine([1.0], [1.0, 0.0])


def test_hybrid_recall_gives_full_text_hits_the_vector_list_missed_their_exact_cosine(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """The second stage reads the stored float vectors of the full-text hits absent from the
    vector list (through the store's recall index, a real embedder's vectors) and scores
    them by cosine with the query's vector; hits already listed are not read again, and
    `rescore_depth=0` turns the stage off."""
    vault.put_conversation(
        conversation_row(
            _chat(
                [
                    ("m1", "I practise the guitar every evening"),
                    ("m2", "The guitar shop sells strings"),
                    ("m3", "We painted the kitchen yellow"),
                ]
            )
        )
    )
    spec = EmbedderSpec("openai", MODEL, embed_server.url)
    vault.embed(spec)
    embedder = load_embedder(spec)
    query = embedder.embed(["guitar practice"], query=True)[0]
    scope = scope_of(RecallFilters(kind="messages"), "user")
    with vault.store.recall_index() as index:
        model = index.model(MODEL)
        assert model is not None
        text_hits = index.search("guitar practice", 10, scope)
        assert len(text_hits) == 2
        listed = text_hits[:1]  # as if the vector list had returned the first only
        rescored = rescore(index, model, query, text_hits, listed, Ranking())
        missed = text_hits[1][0]
        assert list(rescored) == [missed]
        stored = index.vectors(model, [missed])[missed]
        assert rescored[missed] == pytest.approx(cosine(query, stored))
        assert rescore(index, model, query, text_hits, listed, Ranking(rescore_depth=0)) == {}
        assert rescore(index, model, query, text_hits, text_hits, Ranking()) == {}


def test_coverage_is_the_share_of_the_query_words_a_passage_holds_less_its_context() -> None:
    """A query word the passage's context holds (the speaker's name) is not counted: every
    passage of that speaker holds it. A word counts when any of its alternative stems is
    among the passage's own terms."""
    asked = [("ethan",), ("kitchen",), ("photograph", "fotograf")]
    assert coverage(asked, {"ethan", "kitchen"}, {"ethan", "cole"}) == pytest.approx(0.5)
    assert coverage(asked, {"ethan", "kitchen", "fotograf"}, {"ethan"}) == pytest.approx(1.0)
    assert coverage(asked, {"ethan"}, {"ethan"}) == 0.0
    # Without the context, the name counts like any other word.
    assert coverage(asked, {"ethan"}, set()) == pytest.approx(1 / 3)
    # Nothing left to count: the passage tells nothing the query asks beyond the context.
    assert coverage([("ethan",)], {"ethan"}, {"ethan"}) == 0.0
    assert coverage([], {"ethan"}, set()) == 0.0


def test_weighted_fusion_weighs_a_full_text_hit_by_its_coverage() -> None:
    """docs/recall.md "Ranking": the scaled BM25 score × (1 − w + w × coverage); a hit with
    no coverage given keeps its score whole; `text_coverage=0` and `rrf` ignore coverage."""
    ranking = Ranking(text_weight=0.3, vector_weight=0.7, text_depth=3, vector_depth=10)
    text = [(1, 10.0), (2, 6.0), (3, 2.0)]
    vector = [(4, 0.6), (1, 0.5)]
    whole = fuse(text, vector, ranking)
    assert whole[1] == pytest.approx(0.3 * 1.0 + 0.7 * 0.5, abs=1e-5)
    covered = fuse(text, vector, ranking, covered={1: 0.0, 2: 0.5})
    assert covered[1] == pytest.approx(0.7 * 0.5, abs=1e-5)
    assert covered[2] == pytest.approx(0.3 * 0.5 * 0.5, abs=1e-5)
    assert covered[4] == pytest.approx(whole[4])
    assert covered[4] > covered[1]  # the name-only hit no longer passes the vector hit
    half = fuse(text, vector, Ranking(text_coverage=0.5, vector_depth=10), covered={1: 0.0})
    assert half[1] == pytest.approx(0.3 * 0.5 + 0.7 * 0.5, abs=1e-5)
    off = fuse(text, vector, Ranking(text_coverage=0.0, vector_depth=10), covered={1: 0.0})
    assert off == pytest.approx(whole)
    rrf = Ranking(fusion="rrf")
    assert fuse(text, vector, rrf, covered={1: 0.0}) == fuse(text, vector, rrf)
    with pytest.raises(ValueError, match="text_coverage"):
        Ranking(text_coverage=1.5)


def test_fusion_counts_fifty_vector_hits_by_default() -> None:
    """docs/recall.md "Coverage and depth": the vector list gives fusion its first 50 hits
    (32 left answers the bit index ranked just below out over a whole vault; its cost at
    scale was the page cache, not the depth), as many as full text gives for k=10, and no
    more are asked; `vector_depth` sets it."""
    ranking = Ranking()
    assert (ranking.text_weight, ranking.vector_weight) == (0.3, 0.7)
    assert ranking.vector_depth == 50
    assert ranking.vector_candidates(10) == 50
    assert ranking.vector_candidates(20) == 50
    assert ranking.depth(10) == 50
    assert Ranking(vector_depth=32).vector_candidates(10) == 32


def test_fifty_vector_hits_count_in_fusion_where_thirty_two_left_the_answer_out() -> None:
    """Over a whole vault the answer is often BM25's first hit and the vector list's 40th
    (many passages near in meaning, its words in few). Counted by the vector list too, it
    fuses first (0.3 × 1 + 0.7 × 0.75); with 32 counted it keeps its text share only and
    falls below the 32 counted vector hits (0.7 × 0.76 and more)."""
    text = [(40, 9.0), (1, 8.0), (2, 1.0)]
    vector = [(100 + rank, 0.80 - (rank - 1) * 0.001) for rank in range(1, 40)] + [(40, 0.75)]
    fused = fuse(text, vector, Ranking())
    assert max(fused, key=fused.__getitem__) == 40
    shallow = fuse(text, vector, Ranking(vector_depth=32))
    assert sorted(shallow, key=shallow.__getitem__, reverse=True).index(40) == 32


_INTRO = [
    ("intro", "Hi, I'm Ethan."),
    ("hobby", "Photography has been my weekend thing since March."),
    ("paint", "We painted the kitchen yellow."),
    ("guitar", "The guitar shop sells strings."),
]


def _shares(
    index: Any, query: str, hits: list[tuple[int, float]], name: Callable[[Any], str]
) -> dict[str, float]:
    """Each counted hit's coverage of `query` under the default ranking, by `name(row)`."""
    names = {row.id: name(row) for row in index.passages([p for p, _ in hits])}
    return {names[p]: c for p, c in text_coverage(index, query, hits, Ranking()).items()}


def test_text_coverage_leaves_the_speakers_name_and_the_title_out(vault: Vault) -> None:
    """The engine reads the counted full-text hits' words and context from the store's
    recall index: "Ethan" is the speaker's name, in every one of his passages' context, so
    "Hi, I'm Ethan" holds none of the query's other words; a prefix query is not weighed."""
    vault.put_conversation(conversation_row(_chat(_INTRO, user="Ethan Cole")))
    scope = scope_of(RecallFilters(kind="messages"), "user")
    query = "Ethan kitchen photograph"
    with vault.store.recall_index() as index:
        hits = index.search(query, 10, scope)
        shares = _shares(index, query, hits, lambda row: str(row.message_id))
        assert len(shares) == 3  # the first text_depth hits only
        assert shares.get("paint") == pytest.approx(0.5)  # "kitchen", not "photograph"
        assert shares.get("intro", 0.0) == 0.0
        assert text_coverage(index, query, hits, Ranking(text_coverage=0.0)) == {}
        assert text_coverage(index, "Ethan kitch*", hits, Ranking()) == {}


def test_a_full_text_hit_holding_only_the_speakers_name_keeps_the_vector_hit_first(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """BM25 ranks "Hi, I'm Ethan" first for "What does Ethan photograph?" (the name in its
    words and its context) and gives it the whole text weight; the vectors (a real
    embedder's, through the n-gram server) put the photography turn first. Weighed by its
    coverage (none of the query's words beyond the name), the greeting no longer passes it;
    with `text_coverage=0` it does, as before the weighing."""
    vault.put_conversation(conversation_row(_chat(_INTRO, user="Ethan Cole")))
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    query = "What does Ethan photograph?"
    assert vault.recall(query, mode="fts").hits[0].id == "intro"
    assert vault.recall(query, mode="vector").hits[0].id == "hobby"
    fused = vault.recall(query, mode="hybrid")
    assert fused.mode == "hybrid"
    assert fused.hits[0].id == "hobby"
    unweighed = vault.recall(query, mode="hybrid", ranking=Ranking(text_coverage=0.0))
    assert unweighed.hits[0].id == "intro"


def test_text_coverage_leaves_a_memorys_tags_and_type_out(vault: Vault) -> None:
    """A memory's context is its tags and its type (`memvault.recall.index`): a query word
    among them is not counted, so a memory tagged "garden" covers "garden tomatoes" by
    "tomatoes" alone, wholly; an untagged one holding "garden" but no tomato covers half."""
    tagged = vault.add("Grows tomatoes on the balcony", "fact", tags=["garden"]).memory
    plain = vault.add("The garden needs water every evening", "fact").memory
    scope = scope_of(RecallFilters(kind="memories"), "user")
    query = "garden tomatoes"
    with vault.store.recall_index() as index:
        hits = index.search(query, 10, scope)
        shares = _shares(index, query, hits, lambda row: str(row.memory_id))
    assert shares == {tagged.id: pytest.approx(1.0), plain.id: pytest.approx(0.5)}
