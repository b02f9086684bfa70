"""The page cache a whole-vault vector search needs (docs/recall.md, "Cost at scale"): the
KNN of sqlite-vec reads every page of the model's bit index, so a connection whose page cache
cannot hold them beside the query's other pages reads (and SQLCipher decrypts) all of them
again on every query. Recall raises the connection's cache to hold them; it never changes
what recall finds, nor the cache of a store that holds its caches small (a server's)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from embedserver import MODEL, EmbedServer
from embedserver import embed_server as embed_server
from memvault.conversation_merge import conversation_row
from memvault.recall.embedders import EmbedderSpec, load_embedder
from memvault.recall.engine import RecallFilters, recall, scope_of
from memvault.store.sqlite import BULK_CACHE_KIB, CACHE_KIB, SERVER_CACHE_KIB
from memvault.store.sqlite_recall import (
    BITS_CACHE_MAX_KIB,
    BITS_HEADROOM_KIB,
    SQLiteRecallIndex,
    bits_cache_kib,
)
from memvault.vault import Vault
from memvault.vault_inputs import OWNER_ACTOR
from vaultkit import PASSPHRASE, make_vault, pam_conversation
from vaultkit import vault as vault

_TOPICS = (
    "I practise the guitar every evening after work",
    "We painted the kitchen yellow last spring",
    "My sister moved to Lisbon for a nursing job",
    "The dentist said to floss more often",
    "Our dog Biscuit hates thunderstorms",
    "I am training for a half marathon in October",
    "Vou a Lisboa visitar a minha avó no verão",
    "Comprei uma bicicleta nova para ir ao trabalho",
    "The guitar shop sells strings and picks",
    "I switched from coffee to green tea in the mornings",
)
_NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
QUERIES = (
    "guitar practice",
    "what colour is the kitchen",
    "where does my sister work",
    "dog afraid of storms",
    "running a race",
    "viagem para Lisboa",
    "bicicleta",
    "morning drink",
)


def _fill(vault: Vault, embed_server: EmbedServer) -> EmbedderSpec:
    """Three conversations and two memories, every passage embedded."""
    for c in range(3):
        messages = [
            (f"c{c}m{i}", "user" if i % 2 == 0 else "assistant", f"{text} ({c}.{i})")
            for i, text in enumerate(_TOPICS)
        ]
        vault.put_conversation(conversation_row(pam_conversation(f"conv-{c}", messages)))
    vault.add("I prefer green tea to coffee", "preference")
    vault.add("My sister is a nurse in Lisbon", "fact")
    spec = EmbedderSpec("openai", MODEL, embed_server.url)
    vault.embed(spec)
    return spec


def _cache_kib(conn: Any) -> int:
    return -int(conn.execute("PRAGMA cache_size").fetchone()[0])


def _answers(vault: Vault, spec: EmbedderSpec) -> list[list[tuple[str, str, float]]]:
    """Every query's hits, at one moment (recency counts whole days from it)."""
    embedder = load_embedder(spec)
    out = []
    for query in QUERIES:
        result = recall(vault.store, query, 10, actor=OWNER_ACTOR, embedder=embedder, now=_NOW)
        assert result.mode == "hybrid"
        out.append([(h.kind, h.id, h.score) for h in result.hits])
    return out


def test_bits_cache_kib_holds_the_bit_index_and_the_headroom() -> None:
    """612,187 passages of 512 bits: sqlite-vec's KNN read 50.2 MB of pages there (64 bytes
    of bits and 8 of rowid a passage, in chunks of 1,024); the cache holds that and the
    headroom, and never more than its ceiling."""
    bits = bits_cache_kib(612_187, 512) - BITS_HEADROOM_KIB
    assert 50.2e6 / 1024 <= bits <= 1.05 * 50.2e6 / 1024
    assert bits_cache_kib(0, 512) == BITS_HEADROOM_KIB
    assert bits_cache_kib(1, 384, headroom_kib=0) == bits_cache_kib(1024, 384, headroom_kib=0)
    assert bits_cache_kib(10_000_000, 1024) == BITS_CACHE_MAX_KIB


def test_a_whole_vault_vector_search_raises_the_page_cache_to_hold_the_bit_index(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """With a headroom that the store's cache cannot hold beside the bit index, the bit
    index's search raises the connection's cache to both; asked again, it stays there."""
    spec = _fill(vault, embed_server)
    query = load_embedder(spec).embed(["guitar practice"], query=True)[0]
    scope = scope_of(RecallFilters(), "user")
    with vault.store.index_connection() as conn:
        assert _cache_kib(conn) == CACHE_KIB
        index = SQLiteRecallIndex(
            conn, cache_kib=CACHE_KIB, grow_cache=True, headroom_kib=CACHE_KIB
        )
        model = index.model(MODEL)
        assert model is not None
        last = int(conn.execute("SELECT max(id) FROM recall_passages").fetchone()[0])
        dimension = int(
            conn.execute("SELECT dimension FROM recall_models WHERE id = ?", (model,)).fetchone()[0]
        )
        assert index.nearest(model, query, 5, scope)
        wanted = bits_cache_kib(last, dimension, CACHE_KIB)
        assert wanted > CACHE_KIB
        assert _cache_kib(conn) == wanted
        index.nearest(model, query, 5, scope)
        assert _cache_kib(conn) == wanted
        # A conversation's passages are scored exactly, without the bit index: no change.
        conn.execute(f"PRAGMA cache_size = {-CACHE_KIB}")
        narrow = scope_of(RecallFilters(conversation="conv-1"), "user")
        assert index.nearest(model, query, 5, narrow)
        assert _cache_kib(conn) == CACHE_KIB


def test_the_store_grows_no_cache_held_small_for_a_bulk_write(
    vault: Vault, embed_server: EmbedServer
) -> None:
    """Inside `cache_limit` (an import's bulk writes) the search leaves the cache as held."""
    spec = _fill(vault, embed_server)
    query = load_embedder(spec).embed(["guitar practice"], query=True)[0]
    store: Any = vault.store
    with store.cache_limit(BULK_CACHE_KIB), store.index_connection() as conn:
        index = SQLiteRecallIndex(
            conn, cache_kib=CACHE_KIB, grow_cache=True, headroom_kib=CACHE_KIB
        )
        model = index.model(MODEL)
        assert model is not None
        assert index.nearest(model, query, 5, scope_of(RecallFilters(), "user"))
        assert _cache_kib(conn) == BULK_CACHE_KIB


def test_a_served_vault_without_a_recall_cache_budget_keeps_its_small_page_cache(
    tmp_path: Path, embed_server: EmbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server holds each connection's cache to SERVER_CACHE_KIB for its whole life: with
    no budget for recall's bit index (``MEMVAULT_RECALL_CACHE_MIB=0``) recall over the whole
    vault leaves it so, though the bit index and the headroom exceed it
    (tests/test_served_recall_cache.py has the budget)."""
    monkeypatch.setenv("MEMVAULT_RECALL_CACHE_MIB", "0")
    home = tmp_path / "home"
    with make_vault(home) as made:
        spec = _fill(made, embed_server)
    with Vault.open(home, PASSPHRASE, serving=True) as served:
        _answers(served, spec)
        with served.store.index_connection() as conn:
            assert _cache_kib(conn) == SERVER_CACHE_KIB


def test_recall_finds_the_same_hits_in_the_same_order_whatever_the_page_cache(
    tmp_path: Path, embed_server: EmbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cost fix changes the page cache only: every query gives the same hits, in the same
    order, with the same scores, on a store whose cache grew to hold the bit index, on the
    same store before, and on a served store whose cache never grows."""
    home = tmp_path / "home"
    with make_vault(home) as made:
        spec = _fill(made, embed_server)
    monkeypatch.setenv("MEMVAULT_RECALL_CACHE_MIB", "0")
    with Vault.open(home, PASSPHRASE, serving=True) as served:
        small = _answers(served, spec)
    with Vault.open(home, PASSPHRASE) as opened:
        before = _answers(opened, spec)
        query = load_embedder(spec).embed(["guitar"], query=True)[0]
        with opened.store.index_connection() as conn:
            index = SQLiteRecallIndex(
                conn, cache_kib=CACHE_KIB, grow_cache=True, headroom_kib=CACHE_KIB
            )
            model = index.model(MODEL)
            assert model is not None
            index.nearest(model, query, 5, scope_of(RecallFilters(), "user"))
            grown = _cache_kib(conn)
        assert grown > CACHE_KIB
        after = _answers(opened, spec)
        with opened.store.index_connection() as conn:
            assert _cache_kib(conn) == grown  # the answers above ran on the grown cache
    assert all(len(hits) >= 3 for hits in before)
    assert after == before
    assert small == before
