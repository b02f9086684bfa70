"""Recall over memories and conversation messages (issue 17, docs/recall.md): stemming,
Portuguese with and without accents, filters, status, PAM §9 access, erasure (AIMEM §5.2),
the recall index kept in step with every write, and vectors through a real HTTP embedder."""

from __future__ import annotations

from typing import Any

import pytest

from embedserver import MODEL, EmbedServer, serve
from embedserver import embed_server as embed_server
from memvault.conversation_merge import conversation_row
from memvault.errors import AccessDenied, InvalidInput
from memvault.recall import analysis
from memvault.recall.embedders import EmbedderSpec
from memvault.recall.ranking import Ranking, fuse
from memvault.vault import Vault
from vaultkit import pam_conversation
from vaultkit import vault as vault

AGENT = "agent-x"


_conversation = pam_conversation


def _ids(vault: Vault, query: str, **filters: Any) -> list[str]:
    return [h.id for h in vault.recall(query, **filters).hits]


# -- analysis ------------------------------------------------------------------------------------


def test_analysis_folds_case_and_accents_and_keeps_both_languages_stems(vault: Vault) -> None:
    """The analysis contract (`query_terms`): diacritics and case folded; the English and the
    Portuguese stem of each word, one when they agree."""
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        assert analysis.query_terms(conn, "Ações SÃO") == analysis.query_terms(conn, "acoes sao")
        shelters = analysis.query_terms(conn, "shelters")
        assert len(shelters) == 1 and "shelter" in shelters[0]
        assert analysis.query_terms(conn, "volunteering")[0][0] == "volunt"
        assert all(len(set(stems)) == len(stems) for stems in analysis.query_terms(conn, "a b"))


def test_query_terms_drop_english_and_portuguese_stop_words(vault: Vault) -> None:
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        terms = analysis.query_terms(conn, "What did the user do at the shelters? O que é a casa")
        flat = [t for word in terms for t in word]
        assert "what" not in flat and "the" not in flat and "que" not in flat
        assert any("shelter" in word for word in terms)
        assert any(t.startswith("cas") for t in flat)
        assert analysis.query_terms(conn, "the of and") == []


# -- full text -------------------------------------------------------------------------------


def test_a_question_in_other_words_finds_the_message_through_stemming(vault: Vault) -> None:
    """Issue 17 cause 4: "shelters" finds "shelter", "volunteer" finds "volunteering"."""
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c1",
                [
                    ("m1", "user", "Yesterday I went volunteering at the animal shelter."),
                    ("m2", "assistant", "How lovely! Did you enjoy it?"),
                ],
            )
        )
    )
    hits = vault.recall("Which shelters does she volunteer at?").hits
    assert hits[0].kind == "message"
    assert hits[0].id == "m1"
    assert hits[0].conversation_id == "c1"
    assert hits[0].message_ids == ("m1",)


def test_query_words_are_alternatives_not_a_conjunction(vault: Vault) -> None:
    """Issue 17 cause 1: not every word of a question must be in the answer."""
    vault.add("Allergic to peanuts since childhood", "fact")
    assert _ids(vault, "what food allergies does the user have, peanuts or shellfish?")


def test_portuguese_is_found_with_and_without_accents(vault: Vault) -> None:
    memory = vault.add("Trabalha com ações sociais em São Paulo", "fact").memory
    message_doc = _conversation("c-pt", [("m-pt", "user", "A reunião de orçamento é amanhã")])
    vault.put_conversation(conversation_row(message_doc))
    assert _ids(vault, "acoes sociais sao paulo")[0] == memory.id
    assert _ids(vault, "ações sociais em São Paulo")[0] == memory.id
    assert _ids(vault, "reuniao orcamento")[0] == "m-pt"
    assert _ids(vault, "reuniões do orçamento")[0] == "m-pt"  # plural and accents


def test_a_query_of_stop_words_only_finds_nothing(vault: Vault) -> None:
    vault.add("The user is here and there", "fact")
    assert vault.recall("the and is").hits == []


def test_the_conversation_filter_keeps_one_conversation(vault: Vault) -> None:
    for cid in ("c-a", "c-b"):
        vault.put_conversation(
            conversation_row(
                _conversation(cid, [(f"{cid}-1", "user", "Booked the train to Porto")])
            )
        )
    assert set(_ids(vault, "train to Porto")) == {"c-a-1", "c-b-1"}
    hits = vault.recall("train to Porto", conversation="c-b").hits
    assert [(h.id, h.conversation_id) for h in hits] == [("c-b-1", "c-b")]


def test_kind_filter_and_role_and_participant(vault: Vault) -> None:
    vault.add("Likes hiking in the Alps", "preference")
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c1",
                [("u1", "user", "I love hiking"), ("a1", "assistant", "Hiking is great")],
                names={"user": "Caroline"},
            )
        )
    )
    assert {h.kind for h in vault.recall("hiking", kind="memories").hits} == {"memory"}
    assert {h.kind for h in vault.recall("hiking", kind="messages").hits} == {"message"}
    assert _ids(vault, "hiking", role="assistant") == ["a1"]
    assert _ids(vault, "hiking", participant="caroline") == ["u1"]
    # The speaker's name is part of what a message is found by.
    assert _ids(vault, "what did Caroline say?")[0] == "u1"


def test_a_long_message_is_split_into_passages_that_keep_its_id(vault: Vault) -> None:
    filler = " ".join(f"Paragraph about gardening and tomatoes number {i}." for i in range(80))
    text = filler + "\n\nFinally, my passport number expires in 2031."
    vault.put_conversation(conversation_row(_conversation("c1", [("long", "user", text)])))
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        parts = conn.execute(
            "SELECT count(*) FROM recall_passages WHERE message_id = 'long'"
        ).fetchone()[0]
    assert parts > 1
    hits = vault.recall("passport expiry").hits
    assert [h.id for h in hits] == ["long"]  # one hit per message, its best passage
    assert "passport" in hits[0].text


def test_a_memory_hit_carries_its_provenance_messages(vault: Vault) -> None:
    memory = vault.add(
        "Works as a nurse in Coimbra",
        "fact",
        conversation_ref="c9",
        message_ref="m9",
        metadata={"extraction": {"sources": ["c9#m9", "c9#m12"]}},
    ).memory
    hit = vault.recall("nurse Coimbra").hits[0]
    assert (hit.kind, hit.id, hit.conversation_id) == ("memory", memory.id, "c9")
    assert hit.message_ids == ("m9", "m12")
    assert hit.to_json() == {
        "kind": "memory",
        "id": memory.id,
        "text": "Works as a nurse in Coimbra",
        "score": round(hit.score, 6),
        "conversation_id": "c9",
        "message_ids": ["m9", "m12"],
    }


# -- status, access, erasure -------------------------------------------------------------------


def test_a_superseded_memory_is_hidden_unless_asked_for(vault: Vault) -> None:
    old = vault.add("Lives in Lisbon", "fact").memory
    new = vault.add("Lives in Porto, moved from Lisbon", "fact").memory
    vault.supersede(old.id, new.id)
    assert _ids(vault, "Lisbon") == [new.id]
    assert set(_ids(vault, "Lisbon", include_inactive=True)) == {old.id, new.id}
    assert _ids(vault, "Lisbon", statuses=["superseded"]) == [old.id]
    retracted = vault.add("Owns a red bicycle", "fact").memory
    vault.retract(retracted.id)
    assert _ids(vault, "red bicycle") == []


def test_an_agent_recalls_only_what_its_grants_allow_pam_9(vault: Vault) -> None:
    """PAM §9: an agent finds public memories and those shared with it for reading; no private
    memory and no conversation message (conversations are the owner's)."""
    private = vault.add("Garden has roses", "fact").memory
    public = vault.add("Garden has tulips", "fact", visibility="public").memory
    shared = vault.add("Garden has lilies", "fact", visibility="shared").memory
    vault.grant(shared.id, AGENT, ["read"])
    other = vault.add("Garden has daisies", "fact", visibility="shared").memory
    vault.grant(other.id, "agent-y", ["read"])
    vault.put_conversation(conversation_row(_conversation("c1", [("m1", "user", "garden")])))
    owner_sees = set(_ids(vault, "garden"))
    assert {private.id, public.id, shared.id, other.id, "m1"} <= owner_sees
    agent = vault.acting_as(AGENT)
    assert set(_ids(agent, "garden")) == {public.id, shared.id}
    assert _ids(agent, "garden", kind="messages") == []


def test_erasing_a_memory_removes_its_passages_and_vectors_aimem_5_2(
    vault: Vault, embed_server: EmbedServer
) -> None:
    memory = vault.add("Secret diagnosis of migraine", "fact").memory
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    vault.erase(memory.id)
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        assert conn.execute("SELECT count(*) FROM recall_passages").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM recall_vectors").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM recall_vec_1").fetchone()[0] == 0
    assert vault.recall("migraine diagnosis").hits == []


def test_an_updated_memory_is_found_by_its_new_words_only(vault: Vault) -> None:
    memory = vault.add("Drives a blue car", "fact").memory
    vault.update(memory.id, content="Rides a green motorbike")
    assert _ids(vault, "blue car") == []
    assert _ids(vault, "green motorbike") == [memory.id]


def test_bad_filters_name_the_filter(vault: Vault) -> None:
    with pytest.raises(InvalidInput, match="kind"):
        vault.recall("x", kind="everything")
    with pytest.raises(InvalidInput, match="colour"):
        vault.recall("x", colour="red")
    with pytest.raises(InvalidInput, match="since"):
        vault.recall("x", since="yesterday")
    with pytest.raises(InvalidInput, match="k must"):
        vault.recall("x", 0)


def test_only_the_owner_rebuilds_the_index(vault: Vault) -> None:
    with pytest.raises(AccessDenied):
        vault.acting_as(AGENT).reindex()


# -- vectors -----------------------------------------------------------------------------------


def test_recall_without_vectors_answers_from_full_text_and_says_so(vault: Vault) -> None:
    vault.add("Plays the cello", "skill")
    result = vault.recall("cello")
    assert result.mode == "fts"
    assert not result.vectors_complete
    assert any("no embedder" in note for note in result.notes)
    assert [h.text for h in result.hits] == ["Plays the cello"]


def test_vector_recall_finds_what_full_text_cannot(vault: Vault, embed_server: EmbedServer) -> None:
    """Through a real OpenAI-compatible HTTP embedder (character n-gram vectors): "guitarist"
    shares no stem with "guitar", so only the vectors connect them."""
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c1",
                [
                    ("m1", "user", "I practise the guitar every evening"),
                    ("m2", "user", "I bought new running shoes"),
                ],
            )
        )
    )
    assert vault.recall("guitarist", mode="fts").hits == []
    embedded, done, total = vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    assert (embedded, done, total) == (2, 2, 2)
    assert vault.embedder_spec() == EmbedderSpec("openai", MODEL, embed_server.url)
    result = vault.recall("guitarist", mode="vector", k=1)
    assert result.mode == "vector" and result.vectors_complete and result.notes == []
    assert [h.id for h in result.hits] == ["m1"]
    assert vault.recall("guitarist", k=1).hits[0].id == "m1"  # hybrid
    # Incremental: only the new passage is embedded, and until then recall says so.
    vault.add("Wants to be a guitarist", "fact")
    assert not vault.recall("guitarist").vectors_complete
    assert vault.embed()[0] == 1
    assert vault.recall("guitarist").vectors_complete


def test_passages_are_embedded_with_who_spoke_and_the_title(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """docs/recall.md "Vectors": a question names the person, a turn rarely does; the vector
    of a passage is computed from the title and the speaker's name before its words (the
    passage's own text, shown and full-text indexed, stays as it was)."""
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c1",
                [("m1", "user", "I practise the guitar"), ("m2", "assistant", "Nice")],
                title="Evening plans",
                names={"user": "Emily Carter"},
            )
        )
    )
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    embedded = sorted(t for batch in embed_server.inputs[1:] for t in batch)  # [0]: its probe
    assert embedded == ["Evening plans\nEmily Carter: I practise the guitar", "Evening plans\nNice"]
    assert [h.text for h in vault.recall("guitar", mode="vector", k=1).hits] == [
        "I practise the guitar"
    ]


def test_an_unreachable_embedder_falls_back_to_full_text(vault: Vault) -> None:
    with serve() as running:
        vault.add("Speaks Japanese", "skill")
        vault.embed(EmbedderSpec("openai", MODEL, running.url))
        url = running.url
    result = vault.recall("Japanese")
    assert result.mode == "fts"
    assert any(url in note or "embedded" in note for note in result.notes)
    assert [h.text for h in result.hits] == ["Speaks Japanese"]


def test_weighted_fusion_normalises_each_list_and_rrf_is_an_option() -> None:
    text = [(1, 10.0), (2, 5.0)]
    vector = [(2, 0.9), (3, 0.5)]
    old_scales = Ranking(
        text_weight=0.5, vector_weight=0.5, text_scale="max", vector_scale="minmax"
    )
    assert fuse(text, vector, old_scales) == pytest.approx({1: 0.5, 2: 0.75, 3: 0.0}, abs=1e-5)
    rrf = fuse(text, vector, Ranking(fusion="rrf"))
    assert rrf[2] == pytest.approx(1 / 62 + 1 / 61)
    with pytest.raises(ValueError, match="fusion"):
        Ranking(fusion="max")


def test_default_fusion_min_max_scales_bm25_keeps_cosine_and_sums_both_lists() -> None:
    """docs/recall.md "Ranking": BM25 min-max over its first `text_depth` hits, cosine on its
    own fixed scale (a weak vector list is not stretched to 1), a passage in both lists gets
    both contributions."""
    text = [(1, 10.0), (2, 6.0), (4, 2.0)]
    vector = [(2, 0.5), (3, 0.25)]
    fused = fuse(text, vector, Ranking(text_weight=0.4, vector_weight=0.6))
    expected = {1: 0.4, 2: 0.4 * 0.5 + 0.6 * 0.5, 3: 0.15, 4: 0.0}
    assert fused == pytest.approx(expected, abs=1e-5)
    assert max(fused, key=fused.__getitem__) == 2  # found by both lists
    # Only the first text_depth full-text hits count; those past it keep their order, below
    # every counted hit (so k beyond the depths still gets k results).
    more = [*text, (5, 1.0)]
    shallow = fuse(more, vector, Ranking(text_weight=0.4, vector_weight=0.6, text_depth=2))
    assert shallow[2] == pytest.approx(0.6 * 0.5, abs=1e-5)
    assert sorted(shallow, key=shallow.__getitem__, reverse=True) == [1, 2, 3, 4, 5]
    assert 0 < shallow[5] < shallow[4] < 1e-5
    # One list alone: the vectors' own scale; full text ÷ its best, every hit above 0.
    assert fuse([], vector, Ranking()) == {2: 0.5, 3: 0.25}
    assert fuse(text, [], Ranking()) == pytest.approx({1: 1.0, 2: 0.6, 4: 0.2})
    with pytest.raises(ValueError, match="vector_scale"):
        Ranking(vector_scale="zscore")


def test_confidence_and_recency_weigh_memories(vault: Vault) -> None:
    sure = vault.add("Favourite colour is green", "preference", confidence=0.95).memory
    unsure = vault.add("Favourite colour is green maybe", "preference", confidence=0.1).memory
    ids = _ids(vault, "favourite colour green", ranking=Ranking(confidence_weight=1.0))
    assert ids.index(sure.id) < ids.index(unsure.id)


def test_a_word_ending_in_a_star_matches_as_a_prefix_of_its_stems(vault: Vault) -> None:
    ids = {
        vault.add(text, "fact").memory.id
        for text in ("Fala português", "Answer in Portuguese", "Toca guitarra portuguesa")
    }
    assert set(_ids(vault, "portugues*")) == ids


def test_a_paraphrase_is_found_through_the_local_models_vectors(vault: Vault) -> None:
    """Issue 17 cause 5: "career path" shares no word with "counselor"; the local model of the
    [embeddings] extra (a real model, installed with its weights) connects them, in English
    and across to Portuguese, while full text alone finds nothing."""
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c1",
                [
                    ("m1", "user", "I have been thinking about becoming a school counselor"),
                    ("m2", "user", "We painted the kitchen walls yellow last weekend"),
                    ("m3", "user", "My sister adopted two kittens from the animal rescue"),
                    ("m4", "user", "Eu trabalho como enfermeira num hospital em Lisboa"),
                ],
            )
        )
    )
    assert vault.recall("what career path is she considering?", mode="fts").hits == []
    assert vault.embed(EmbedderSpec("local", "use-multilingual-v3")) == (4, 4, 4)
    assert _ids(vault, "what career path is she considering?", k=1) == ["m1"]
    assert _ids(vault, "pets in the family", k=1) == ["m3"]
    assert _ids(vault, "what is her job? she works as a nurse", k=1, mode="vector") == ["m4"]
