"""Recall on a PostgreSQL vault, on both test servers: `Vault.recall` over memories and
messages by full text (English and Portuguese stems, diacritics folded, filters, PAM §9 for an
agent); vectors through the test embeddings server with pgvector, and full text only without
it (said when vectors are asked for); erasure drops passages and vectors (AIMEM §5.2); and
`memvault recall`, `search`, `embed`, `reindex` with MEMVAULT_DATABASE_URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pgkit
from clikit import mv, ok
from embedserver import MODEL, serve
from memvault.conversation_merge import conversation_row
from memvault.recall.embedders import OpenAIEmbedder
from memvault.recall.engine import text_coverage
from memvault.recall.indexes import Passage, Scope
from memvault.recall.ranking import Ranking
from memvault.store.base import StoreError
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_zip
from storekit import new_postgres_store
from test_recall import _conversation

SERVERS = [pytest.param("pg15", id="postgres15"), pytest.param("pgvector", id="pgvector")]


@pytest.fixture(params=SERVERS)
def server(request: pytest.FixtureRequest) -> pgkit.PostgresServer:
    return pgkit.server(request.param)


@pytest.fixture
def vault(server: pgkit.PostgresServer) -> Iterator[Vault]:
    created = Vault.create(new_postgres_store(server.name))
    _fill(created)
    yield created
    created.close()


def _fill(vault: Vault) -> None:
    vault.put_conversation(
        conversation_row(
            _conversation(
                "conv-1",
                [
                    ("m1", "user", "I adopted a dog named Biscuit last spring"),
                    ("m2", "assistant", "Congratulations on adopting Biscuit!"),
                ],
                title="New puppy",
                names={"user": "Maria"},
            )
        )
    )
    vault.put_conversation(
        conversation_row(
            _conversation(
                "conv-2", [("n1", "user", "Comprei uma bicicleta nova para ir ao trabalho")]
            )
        )
    )
    vault.add("Has a dog called Biscuit", "fact", conversation_ref="conv-1", message_ref="m1")
    vault.add("Prefere café sem açúcar", "preference", visibility="public")


def _ids(vault: Vault, query: str, **filters: object) -> list[str]:
    return [hit.id for hit in vault.recall(query, **filters).hits]  # type: ignore[arg-type]


def test_recall_on_postgres_finds_messages_and_memories_by_full_text(vault: Vault) -> None:
    """Issue 17 on PostgreSQL: words as alternatives, stemmed ("adopting" finds "adopted"),
    with their provenance; full text only, said so, before any embedding."""
    result = vault.recall("adopting dogs zebra", k=5)
    assert result.mode == "fts" and result.vectors_complete is False
    said = "no pgvector extension" if vault.store.vectors_unavailable() else "no embedder"
    assert any(said in note for note in result.notes)
    hits = {hit.id: hit for hit in result.hits}
    assert {"m1", "m2"} <= set(hits)
    assert hits["m1"].conversation_id == "conv-1" and hits["m1"].message_ids == ("m1",)
    assert hits["m1"].participant == "Maria" and hits["m1"].title == "New puppy"
    (memory,) = [h for h in result.hits if h.kind == "memory"]
    assert memory.message_ids == ("m1",) and "Biscuit" in memory.text


def test_portuguese_with_and_without_accents_and_the_filters_on_postgres(vault: Vault) -> None:
    assert len(_ids(vault, "acucar")) == 1 and _ids(vault, "açúcar") == _ids(vault, "acucar")
    assert _ids(vault, "bicicletas trabalhar") == ["n1"]
    assert _ids(vault, "dog bicicleta", conversation="conv-2") == ["n1"]
    assert set(_ids(vault, "biscuit", kind="messages")) == {"m1", "m2"}
    assert _ids(vault, "biscuit", role="user", kind="messages") == ["m1"]


def test_an_agent_recalls_only_what_it_may_read_on_postgres_pam_9(vault: Vault) -> None:
    agent = vault.acting_as("agent-x")
    hits = agent.recall("biscuit dog cafe acucar").hits
    assert [h.kind for h in hits] == ["memory"]  # the public one; no message, no private memory
    assert "café" in hits[0].text


def test_a_superseded_memory_is_hidden_unless_asked_for_on_postgres(vault: Vault) -> None:
    (old,) = [h for h in vault.recall("biscuit", kind="memories").hits]
    new = vault.add("Has two dogs, Biscuit and Crumb", "fact").memory
    vault.supersede(old.id, new.id)
    assert [h.text for h in vault.recall("biscuit", kind="memories").hits] == [
        "Has two dogs, Biscuit and Crumb"
    ]
    every = vault.recall("biscuit", kind="memories", include_inactive=True).hits
    assert {h.id for h in every} >= {old.id}


def test_erasure_on_postgres_drops_passages_and_vectors_aimem_5_2(
    vault: Vault, server: pgkit.PostgresServer
) -> None:
    if server.vector:
        with serve() as endpoint:
            assert vault.embed(embedder=OpenAIEmbedder(endpoint.url, MODEL))[0] == 5
    erased = vault.erase_conversation("conv-1")
    assert (erased.messages, erased.passages) == (2, 2)
    assert erased.vectors == (2 if server.vector else 0)
    assert _ids(vault, "biscuit", kind="messages") == []
    (memory,) = vault.recall("biscuit", kind="memories").hits  # derived memories stay
    vault.erase(memory.id)
    assert _ids(vault, "biscuit") == []
    everything = vault.erase_everything()
    assert everything.counts["passages"] == 2  # the other memory and message
    assert everything.counts["vectors"] == (2 if server.vector else 0)
    assert _ids(vault, "bicicleta cafe") == []
    with server.superuser() as conn:
        tenant = vault.store.tenant  # type: ignore[attr-defined]
        tables = ["recall_passages", "recall_models"] + (
            ["recall_vectors"] if server.vector else []
        )
        for table in tables:
            row = conn.execute(
                f"SELECT count(*) FROM {table} WHERE tenant = %s",  # type: ignore[arg-type]
                (tenant,),
            ).fetchone()
            assert row == (0,), table


def test_vectors_with_pgvector_and_full_text_only_without(
    vault: Vault, server: pgkit.PostgresServer
) -> None:
    """With pgvector the vault embeds its passages (the OpenAI-compatible test server) and
    recall fuses both lists; on PostgreSQL 15, which has none, embedding says why and recall
    answers from full text."""
    with serve() as endpoint:
        embedder = OpenAIEmbedder(endpoint.url, MODEL)
        if not server.vector:
            with pytest.raises(StoreError, match="no pgvector extension"):
                vault.embed(embedder=embedder)
            result = vault.recall("puppy adoption", embedder=embedder)
            assert result.mode == "fts" and result.hits
            assert any("no pgvector extension" in note for note in result.notes)
            return
        assert vault.embed(embedder=embedder) == (5, 5, 5)
        assert vault.embed(embedder=embedder) == (0, 5, 5)  # incremental
        hybrid = vault.recall("adopting Biscuit", embedder=embedder)
        assert hybrid.mode == "hybrid" and hybrid.vectors_complete
        by_meaning = vault.recall("biscuits", mode="vector", embedder=embedder, k=2)
        assert by_meaning.mode == "vector"
        assert {h.id for h in by_meaning.hits} & {"m1", "m2"}
        vault.add("Biscuit sleeps on the sofa", "fact")
        waiting = vault.recall("biscuit", embedder=embedder)
        assert waiting.vectors_complete is False
        assert any("vectors cover 5 of 6" in note for note in waiting.notes)


def test_reindex_on_postgres_builds_the_same_index(vault: Vault) -> None:
    before = [(h.kind, h.id) for h in vault.recall("biscuit bicicleta cafe", k=10).hits]
    assert vault.reindex() == (2, 2)
    assert [(h.kind, h.id) for h in vault.recall("biscuit bicicleta cafe", k=10).hits] == before


# -- the CLI on MEMVAULT_DATABASE_URL -----------------------------------------------------------


@pytest.fixture
def database_env(server: pgkit.PostgresServer, monkeypatch: pytest.MonkeyPatch) -> str:
    tenant = pgkit.new_tenant()
    for name in ("MEMVAULT_HOME", "MEMVAULT_PASSPHRASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMVAULT_DATABASE_URL", server.app_url)
    monkeypatch.setenv("MEMVAULT_TENANT", tenant)
    monkeypatch.setenv("MEMVAULT_SERVER_KEY", pgkit.SERVER_KEY)
    return tenant


def test_cli_import_recall_search_embed_on_postgres(
    database_env: str, server: pgkit.PostgresServer, tmp_path: Path
) -> None:
    """An import is recalled at once by full text; `search` is recall over memories; `embed`
    makes vectors with pgvector (then recall is hybrid) and, without it, fails clearly,
    changing nothing."""
    ok("init")
    export = write_zip(gen.export(seed=4, count=6), tmp_path / "chatgpt-export.zip")
    ok("import", export)
    ok("add", "Prefers green tea in the morning", "--type", "preference")
    payload = ok("recall", "green tea", "--json").json()
    assert payload["mode"] == "fts" and payload["results"][0]["kind"] == "memory"
    found = ok("search", "teas", "--json").json()
    assert [r["memory"]["content"] for r in found["results"]] == [
        "Prefers green tea in the morning"
    ]
    messages = ok("recall", "the", "--kind", "messages", "--json").json()["results"]
    assert messages == []  # a stop word alone
    with serve() as endpoint:
        if not server.vector:
            run = mv("embed", "--endpoint", endpoint.url, "--model", MODEL)
            assert run.exit_code != 0 and "no pgvector extension" in run.stderr
            assert "Traceback" not in run.stderr
            assert "no pgvector extension" in ok("recall", "green tea").stderr
            return
        run = ok("embed", "--endpoint", endpoint.url, "--model", MODEL, "--json").json()
        assert run["embedded"] == run["passages"] == run["with_vector"] > 1
        hybrid = ok("recall", "green tea", "--json").json()
        assert hybrid["mode"] == "hybrid" and hybrid["vectors_complete"] is True
        assert hybrid["results"][0]["kind"] == "memory"
    rebuilt = ok("reindex", "--json").json()
    assert rebuilt["conversations"] == 6 and rebuilt["memories"] >= 1
    again = ok("recall", "green tea", "--json").json()
    assert again["results"][0]["text"] == "Prefers green tea in the morning"


def test_a_large_scope_is_searched_through_the_hnsw_index_per_tenant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `EXACT_LIMIT` vectors the search may ask pgvector's HNSW index (shared by every
    tenant) for candidates; the iterative scan goes on until this tenant's are found, so
    another tenant's many vectors, nearer the query, do not crowd them out: the answer is the
    exact one."""
    from memvault.store import postgres_recall
    from test_recall_index_contract import TRAVEL, _embed_all, _fill, _vector_of

    crowd, store = new_postgres_store("pgvector"), new_postgres_store("pgvector")
    try:
        with crowd.transaction(), crowd.recall_index() as index:
            index.add_passages(
                [
                    Passage("message", None, "c-x", f"x{i}", 0, "user", None, None, None, "car", "")
                    for i in range(300)
                ]
            )
            model = index.model("toy", 8, create=True)
            assert model is not None
            todo = index.unembedded(model, 0, 1000)
            index.put_vectors(model, [(p.id, TRAVEL) for p in todo])
        _fill(store)
        with store.transaction(), store.recall_index() as index:
            mine = index.model("toy", 8, create=True)
        assert mine is not None
        _embed_all(store, mine, _vector_of)
        with store.recall_index() as index:
            exact = index.nearest(mine, TRAVEL, 3, Scope())
        monkeypatch.setattr(postgres_recall, "EXACT_LIMIT", 2)
        with store.recall_index() as index:
            # The planner walks a small tenant's rows by key and sorts them (exact, and cheaper
            # than the graph); without sorting it must take the HNSW index, as for a large one.
            index._conn.execute("SET LOCAL enable_sort = off")  # type: ignore[attr-defined]
            approximate = index.nearest(mine, TRAVEL, 3, Scope())
            plan = "\n".join(
                str(r[0])
                for r in index._conn.execute(  # type: ignore[attr-defined]
                    "EXPLAIN SELECT passage_id FROM recall_vectors WHERE tenant = %s "
                    "AND model_id = %s AND dimension = 8 "
                    "ORDER BY embedding::vector(8) <=> %s::vector(8) LIMIT 12",
                    (store.tenant, mine, str(TRAVEL)),  # type: ignore[attr-defined]
                ).fetchall()
            )
        assert "recall_vectors_hnsw_8" in plan
        assert [p for p, _ in approximate] == [p for p, _ in exact]
        assert [s for _, s in approximate] == pytest.approx([s for _, s in exact], abs=1e-5)
    finally:
        crowd.close()
        store.close()


def test_a_very_long_memory_is_stored_and_found_by_its_first_words(vault: Vault) -> None:
    """A tsvector holds at most 1 MB: a memory of a million distinct words is kept whole and
    found by the words of its first 100,000 characters."""
    words = " ".join(f"w{i}x" for i in range(300_000))
    added = vault.add(f"Zanzibar notes {words}", "fact").memory
    assert len(vault.get(added.id).content) > 1_000_000
    assert [h.id for h in vault.recall("zanzibar", kind="memories").hits] == [added.id]


def test_fusion_coverage_reads_words_and_context_from_the_postgres_index(vault: Vault) -> None:
    """docs/recall.md "Ranking": the share of the query's words a full-text hit's own words
    hold, through the PostgreSQL recall index — a message's speaker and title, a memory's
    tags and type, are context and not counted."""
    vault.add("Grows tomatoes on the balcony", "fact", tags=["garden"])
    every = Ranking(text_depth=0)
    with vault.store.recall_index() as index:

        def shares(query: str) -> dict[str, float]:
            hits = index.search(query, 10, Scope())
            rows = {r.id: r for r in index.passages([p for p, _ in hits])}
            return {
                str(rows[p].message_id or rows[p].memory_id): c
                for p, c in text_coverage(index, query, hits, every).items()
            }

        found = shares("Maria dog puppy")
        # m1: "dog" (Maria and "New puppy" are its context); m2, the assistant's, holds neither
        # "Maria" nor "dog"; the memory holds "dog" of the three (its context is its type).
        assert found["m1"] == pytest.approx(1.0)
        assert found["m2"] == 0.0
        (memory,) = [c for key, c in found.items() if key not in ("m1", "m2")]
        assert memory == pytest.approx(1 / 3)
        assert list(shares("garden tomatoes").values()) == [pytest.approx(1.0)]
