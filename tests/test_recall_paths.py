"""The fast paths of recall (issue 17.5 latency, docs/recall.md): the conversation filter
inside full-text matching, vectors scored from a conversation's passages or through the bit
index, and the completeness of vectors told without counting them."""

from __future__ import annotations

from typing import Any

import pytest

from embedserver import MODEL, EmbedServer
from embedserver import embed_server as embed_server
from memvault.conversation_merge import conversation_row
from memvault.recall.embedders import EmbedderSpec
from memvault.recall.ranking import Ranking
from memvault.store import sqlite_recall
from memvault.vault import Vault
from vaultkit import pam_conversation, pam_memory
from vaultkit import vault as vault


def _conversation(cid: str, messages: list[tuple[str, str]]) -> dict[str, Any]:
    """A PAM conversation (§25) of (id, text) user messages."""
    return pam_conversation(cid, [(mid, "user", text) for mid, text in messages])


def _interleaved(vault: Vault) -> str:
    """Conversation c-a, then c-b, then a memory from c-a: c-b's passages lie between c-a's.
    Returns the memory's id."""
    vault.put_conversation(
        conversation_row(_conversation("c-a", [("a1", "The ferry to Madeira leaves at noon")]))
    )
    vault.put_conversation(
        conversation_row(
            _conversation(
                "c-b", [("b1", "Missed the ferry to Madeira"), ("b2", "Another ferry at six")]
            )
        )
    )
    return vault.add("Takes the ferry to Madeira", "fact", conversation_ref="c-a").memory.id


def test_the_conversation_filter_finds_only_its_passages_when_others_lie_between(
    vault: Vault,
) -> None:
    memory_id = _interleaved(vault)
    hits = vault.recall("ferry Madeira", conversation="c-a", mode="fts").hits
    assert {(h.id, h.conversation_id) for h in hits} == {("a1", "c-a"), (memory_id, "c-a")}
    hits = vault.recall("ferry", conversation="c-b", mode="fts").hits
    assert {h.id for h in hits} == {"b1", "b2"}
    assert vault.recall("ferry", conversation="c-none", mode="fts").hits == []


@pytest.mark.parametrize("exact_limit", [20_000, 0], ids=["exact", "bit-index"])
def test_vectors_keep_the_conversation_filter_exactly_and_through_the_bit_index(
    vault: Vault, embed_server: EmbedServer, monkeypatch: pytest.MonkeyPatch, exact_limit: int
) -> None:
    """With the limit at 0 even one conversation goes through the vec0 KNN and the float
    rescoring; either way only the conversation's passages come back, nearest first."""
    memory_id = _interleaved(vault)
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    monkeypatch.setattr(sqlite_recall, "EXACT_LIMIT", exact_limit)
    result = vault.recall("ferry to Madeira", conversation="c-a", mode="vector")
    assert result.mode == "vector" and result.vectors_complete
    assert {h.id for h in result.hits} == {"a1", memory_id}
    result = vault.recall("Another ferry at six", mode="vector", k=1)
    assert [h.id for h in result.hits] == ["b2"]


def test_recall_tells_missing_vectors_after_a_passage_is_replaced(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """An updated memory gets a new passage, above every embedded one: recall says vectors
    are incomplete, with the counts, until `embed` adds its vector."""
    first = vault.add("Grows tomatoes on the balcony", "fact").memory
    vault.add("Keeps bees in the garden", "fact")
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    assert vault.recall("tomatoes").vectors_complete
    vault.update(first.id, content="Grows peppers on the balcony")
    result = vault.recall("peppers")
    assert not result.vectors_complete
    assert "vectors cover 1 of 2 passages (memvault embed adds the rest)" in result.notes
    assert vault.embed()[0] == 1
    result = vault.recall("peppers")
    assert result.vectors_complete and result.notes == []


def test_hybrid_recall_gives_k_results_past_the_fusion_depths(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """Weighted fusion counts the first `text_depth` and `vector_depth` hits of each list;
    the hits further down keep their order below them, so a `k` larger than both depths
    still gets `k` results, in hybrid mode as in full text alone."""
    vault.add_memories(
        [pam_memory(f"Ferry crossing number {n} to Madeira") for n in range(80)],
    )
    vault.embed(EmbedderSpec("openai", MODEL, embed_server.url))
    ranking = Ranking()
    assert ranking.text_depth + ranking.vector_depth < 60
    result = vault.recall("ferry Madeira", k=60, kind="memories")
    assert result.mode == "hybrid" and len(result.hits) == 60
    assert len(vault.recall("ferry Madeira", k=60, kind="memories", mode="fts").hits) == 60
