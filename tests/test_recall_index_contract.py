"""The recall index contract (`memvault.recall.indexes.RecallIndex`, handed out by
`Store.recall_index()`): what every backend's text index, vector index and passage reads must
do, run against each store in `storekit.RECALL_BACKENDS` (the backends that keep one) on real
databases.

The store indexes what it writes (memories, conversations) in the same transaction; the index
searches with the query's words as alternatives, stemmed in English and Portuguese with
diacritics folded, within a `Scope` (kind, status, conversation, platform, type, tag, time,
role, participant, and an agent's PAM §9 reading rights); it keeps vectors per model and finds
the nearest by cosine similarity; erasure drops a memory's words and vectors (AIMEM §5.2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memvault.recall.indexes import Passage, Scope
from memvault.store.base import Store, StoredConversation, StoreError
from storekit import (
    RECALL_BACKENDS,
    VECTOR_BACKENDS,
    NewStore,
    answered_during_write,
    new_pg15_store,
)
from vaultkit import stored

EVERY_STATUS = ("active", "superseded", "retracted", "archived", "deprecated")


@pytest.fixture(params=RECALL_BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    maker: NewStore = request.param
    made = maker(tmp_path)
    yield made
    made.close()


@pytest.fixture(params=VECTOR_BACKENDS)
def vector_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A store of a backend that keeps vectors."""
    maker: NewStore = request.param
    made = maker(tmp_path)
    yield made
    made.close()


def _conversation(
    cid: str,
    messages: list[tuple[str, str, str]],
    *,
    platform: str = "claude",
    title: str = "A chat",
    day: int = 1,
) -> StoredConversation:
    """A conversation of (message id, role, text), the user named Maria."""
    return StoredConversation(
        id=cid,
        platform=platform,
        title=title,
        document={
            "id": cid,
            "title": title,
            "participants": [{"role": "user", "name": "Maria"}],
            "messages": [
                {
                    "id": mid,
                    "role": role,
                    "created_at": f"2025-03-{day:02d}T10:{i:02d}:00Z",
                    "content": {"type": "text", "text": text},
                }
                for i, (mid, role, text) in enumerate(messages)
            ],
        },
        message_count=len(messages),
    )


@pytest.fixture
def filled(store: Store) -> Store:
    return _fill(store)


@pytest.fixture
def vector_filled(vector_store: Store) -> Store:
    return _fill(vector_store)


def _fill(store: Store) -> Store:
    """Three memories (one superseded, one public, one shared with agent-x for reading) and
    two conversations on two platforms."""
    store.insert_memories(
        [
            stored(
                "Maria volunteers at the animal shelters",
                id="m-shelter",
                tags=["pets"],
                created_at="2024-06-01T00:00:00Z",
            ),
            stored("Maria drove a blue car", id="m-old", status="superseded"),
            stored(
                "Maria prefere café sem açúcar",
                id="m-cafe",
                type="preference",
                visibility="public",
                platform="claude",
                created_at="2025-02-01T00:00:00Z",
            ),
            stored(
                "Maria's passport expires in 2031",
                id="m-shared",
                visibility="shared",
                shared_with=[{"entity": "agent-x", "permissions": ["read"]}],
            ),
        ]
    )
    store.put_conversation(
        _conversation(
            "c-1",
            [
                ("u1", "user", "I adopted a puppy from the shelter last week"),
                ("a1", "assistant", "Congratulations on the new puppy!"),
            ],
            day=1,
        )
    )
    store.put_conversation(
        _conversation(
            "c-2",
            [("u2", "user", "Comprei uma bicicleta nova para ir ao trabalho")],
            platform="chatgpt",
            title="Bicicletas",
            day=20,
        )
    )
    return store


def _found(store: Store, text: str, scope: Scope | None = None, depth: int = 20) -> list[str]:
    """The memory or message ids of a search's passages, best first."""
    with store.recall_index() as index:
        hits = index.search(text, depth, scope or Scope())
        assert all(score > 0 for _, score in hits)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        records = {r.id: r for r in index.passages([pid for pid, _ in hits])}
    return [str(records[pid].memory_id or records[pid].message_id) for pid, _ in hits]


# -- text ----------------------------------------------------------------------------------------


def test_what_the_store_writes_is_searchable_in_the_same_transaction(store: Store) -> None:
    with store.transaction():
        store.insert_memories([stored("Keeps bees in the garden", id="m-bees")])
        assert _found(store, "bees") == ["m-bees"]
    assert _found(store, "bees") == ["m-bees"]


def test_a_rolled_back_write_leaves_nothing_in_the_index(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_memories([stored("Keeps bees in the garden", id="m-bees")])
        raise RuntimeError("undo")
    assert _found(store, "bees") == []


def test_query_words_are_alternatives_stemmed_in_english_and_portuguese(filled: Store) -> None:
    # "shelters" and "shelter" share a stem; "zebra" matches nothing and does not veto.
    assert set(_found(filled, "zebra shelters")) == {"m-shelter", "u1"}
    assert _found(filled, "volunteering") == ["m-shelter"]
    assert _found(filled, "bicicleta") == ["u2"]
    # Diacritics folded both ways.
    assert _found(filled, "acucar cafe") == ["m-cafe"]
    assert _found(filled, "açúcar") == ["m-cafe"]


def test_a_query_of_stop_words_finds_nothing_and_a_starred_word_is_a_prefix(filled: Store) -> None:
    assert _found(filled, "what did the") == []
    assert _found(filled, "") == []
    assert _found(filled, "bicic*") == ["u2"]
    with filled.recall_index() as index:
        (word,) = index.query_terms("the shelters")  # "the": a stop word
        assert word[0] == "shelter"


def test_more_matching_words_rank_first(filled: Store) -> None:
    assert _found(filled, "adopted puppy shelter")[0] == "u1"


def test_the_context_speaker_and_title_is_searchable(filled: Store) -> None:
    assert _found(filled, "bicicletas", Scope(kind="message")) == ["u2"]


def test_depth_limits_the_hits(filled: Store) -> None:
    assert len(_found(filled, "maria puppy shelter", depth=2)) == 2


# -- scope ---------------------------------------------------------------------------------------


def test_scope_kind_and_status(filled: Store) -> None:
    assert _found(filled, "car") == []  # superseded: active only by default
    assert _found(filled, "car", Scope(statuses=EVERY_STATUS)) == ["m-old"]
    assert set(_found(filled, "shelter", Scope(kind="memory"))) == {"m-shelter"}
    assert set(_found(filled, "shelter", Scope(kind="message"))) == {"u1"}
    assert _found(filled, "shelter", Scope(empty=True)) == []


def test_scope_conversation_platform_role_and_participant(filled: Store) -> None:
    assert set(_found(filled, "puppy bicicleta", Scope(conversation="c-2"))) == {"u2"}
    assert _found(filled, "puppy", Scope(conversation="c-none")) == []
    assert _found(filled, "puppy bicicleta", Scope(platforms=("chatgpt",))) == ["u2"]
    assert _found(filled, "puppy", Scope(role="assistant")) == ["a1"]
    assert _found(filled, "puppy", Scope(participant="MARIA")) == ["u1"]


def test_scope_types_tags_and_time(filled: Store) -> None:
    assert _found(filled, "maria", Scope(types=("preference",))) == ["m-cafe"]
    assert _found(filled, "maria", Scope(tags=("pets",))) == ["m-shelter"]
    since = datetime(2025, 1, 1, tzinfo=UTC)
    until = datetime(2025, 3, 10, tzinfo=UTC)
    found = _found(filled, "maria puppy bicicleta cafe shelter", Scope(since=since, until=until))
    # m-shelter (made in 2024) and u2 (said on 03-20) fall outside; m-old is superseded.
    assert set(found) == {"m-cafe", "m-shared", "u1", "a1"}


def test_an_agent_reads_only_public_memories_and_those_shared_with_it_pam_9(
    filled: Store,
) -> None:
    words = "maria passport cafe shelter"
    assert set(_found(filled, words, Scope(kind="memory", reader="agent-x"))) == {
        "m-cafe",
        "m-shared",
    }
    assert _found(filled, words, Scope(kind="memory", reader="agent-y")) == ["m-cafe"]


# -- passages ------------------------------------------------------------------------------------


def test_passages_carry_what_hits_show(filled: Store) -> None:
    with filled.recall_index() as index:
        hits = index.search("puppy shelter volunteers", 10, Scope())
        records = {
            str(r.memory_id or r.message_id): r for r in index.passages([p for p, _ in hits])
        }
        assert index.passages([10**9]) == []
        titles = index.titles(["c-1", "c-2", "c-none"])
    memory, message = records["m-shelter"], records["u1"]
    assert memory.kind == "memory" and memory.status == "active"
    document = memory.document
    assert document is not None
    assert "animal shelters" in (document if isinstance(document, str) else document.decode())
    assert memory.memory_at == datetime(2024, 6, 1, tzinfo=UTC).timestamp()
    assert message.kind == "message" and message.conversation_id == "c-1"
    assert (message.role, message.participant) == ("user", "Maria")
    assert message.text == "I adopted a puppy from the shelter last week"
    assert message.at_epoch == datetime(2025, 3, 1, 10, 0, tzinfo=UTC).timestamp()
    assert titles == {"c-1": "A chat", "c-2": "Bicicletas"}


def test_a_replaced_conversation_keeps_only_its_new_messages(filled: Store) -> None:
    filled.put_conversation(_conversation("c-1", [("u9", "user", "Now I have a kitten")]))
    assert _found(filled, "puppy kitten") == ["u9"]


def test_passages_added_and_deleted_through_the_index(store: Store) -> None:
    passage = Passage(
        "message", None, "c-x", "x1", 0, "user", None, "claude", None, "lighthouse keeper", ""
    )
    with store.transaction(), store.recall_index() as index:
        assert index.add_passages([passage, passage._replace(message_id="x2")]) == 2
    assert set(_found(store, "lighthouse")) == {"x1", "x2"}
    with store.transaction(), store.recall_index() as index:
        assert index.delete_conversation("c-x") == 2
    assert _found(store, "lighthouse") == []


def test_rebuild_indexes_everything_again(filled: Store) -> None:
    before = _found(filled, "maria puppy bicicleta shelter")
    with filled.transaction(), filled.recall_index() as index:
        assert index.rebuild() == (4, 2)
    assert _found(filled, "maria puppy bicicleta shelter") == before


def test_a_search_is_answered_while_another_thread_writes(filled: Store) -> None:
    def write(hold: Callable[[], None]) -> None:
        with filled.transaction():
            filled.insert_memories([stored("Keeps a puppy diary", id="m-diary")])
            hold()

    assert set(answered_during_write(write, lambda: _found(filled, "puppy"))) == {"u1", "a1"}


# -- vectors -------------------------------------------------------------------------------------


def _unit(*values: float) -> list[float]:
    norm = math.sqrt(sum(v * v for v in values))
    return [v / norm for v in values]


def _embed_all(store: Store, model: int, vector_of: Callable[[str], list[float]]) -> int:
    with store.transaction(), store.recall_index() as index:
        todo = index.unembedded(model, 0, 100)
        return index.put_vectors(model, [(p.id, vector_of(p.text)) for p in todo])


def _vector_of(text: str) -> list[float]:
    """Eight dimensions: pets, drinks, travel, then the same for every text (negative where a
    topic is absent, so a quantised index tells the topics apart too)."""
    lower = text.lower()
    return _unit(
        1.0 if any(w in lower for w in ("puppy", "shelter", "pets")) else -0.5,
        1.0 if "café" in lower else -0.5,
        1.0 if any(w in lower for w in ("passport", "bicicleta", "car")) else -0.5,
        *_REST,
    )


_REST = (0.3, -0.2, 0.1, -0.1, 0.2)
TRAVEL = _unit(-0.5, -0.5, 1.0, *_REST)


def test_models_are_made_once_and_found_by_name(vector_store: Store) -> None:
    with vector_store.transaction(), vector_store.recall_index() as index:
        assert index.model("m", 8) is None
        first = index.model("m", 8, create=True)
        assert first is not None and index.model("m", 8, create=True) == first
        second = index.model("m", 16, create=True)
        assert second is not None and second != first
        assert index.model("m") == second  # the most recent of that name
        assert index.model("other") is None


def test_vectors_coverage_completeness_and_what_is_left(vector_filled: Store) -> None:
    with vector_filled.transaction(), vector_filled.recall_index() as index:
        model = index.model("toy", 8, create=True)
        assert model is not None
        assert index.coverage(model) == (0, 7) and not index.complete(model)
        todo = index.unembedded(model, 0, 100)
        assert len(todo) == 7 and [p.id for p in todo] == sorted(p.id for p in todo)
        named = {p.text: p for p in todo}["I adopted a puppy from the shelter last week"]
        assert (named.participant, named.title) == ("Maria", "A chat")
        assert index.unembedded(model, todo[2].id, 2) == todo[3:5]
        pairs = [(p.id, _vector_of(p.text)) for p in todo[:3]]
        assert index.put_vectors(model, [*pairs, (10**9, _vector_of("gone"))]) == 3
        assert index.coverage(model) == (3, 7) and not index.complete(model)
        assert index.unembedded(model, 0, 100) == todo[3:]
        stored_vectors = index.vectors(model, [todo[0].id, todo[1].id, 10**9])
        assert set(stored_vectors) == {todo[0].id, todo[1].id}
        assert stored_vectors[todo[0].id] == pytest.approx(pairs[0][1], abs=1e-6)
    _embed_all(vector_filled, model, _vector_of)
    with vector_filled.recall_index() as index:
        assert index.coverage(model) == (7, 7) and index.complete(model)
        assert index.coverage(None) == (0, 7)


def test_nearest_by_cosine_over_the_vault_and_within_a_scope(vector_filled: Store) -> None:
    with vector_filled.transaction(), vector_filled.recall_index() as index:
        model = index.model("toy", 8, create=True)
    assert model is not None
    _embed_all(vector_filled, model, _vector_of)

    def nearest(scope: Scope, depth: int = 3) -> list[tuple[str, float]]:
        with vector_filled.recall_index() as index:
            hits = index.nearest(model, TRAVEL, depth, scope)
            records = {r.id: r for r in index.passages([p for p, _ in hits])}
        return [(str(records[p].memory_id or records[p].message_id), s) for p, s in hits]

    whole = nearest(Scope())
    assert {name for name, _ in whole[:2]} == {"m-shared", "u2"}  # travel; m-old is superseded
    assert all(-1.0 <= s <= 1.0 for _, s in whole)
    assert [s for _, s in whole] == sorted((s for _, s in whole), reverse=True)
    assert whole[0][1] == pytest.approx(
        sum(a * b for a, b in zip(TRAVEL, _vector_of("passport"), strict=True)),
        abs=1e-4,
    )
    assert {n for n, _ in nearest(Scope(conversation="c-1"), 5)} == {"u1", "a1"}
    assert "m-old" in {n for n, _ in nearest(Scope(statuses=EVERY_STATUS), 3)}
    assert {n for n, _ in nearest(Scope(kind="memory", reader="agent-y"), 5)} == {"m-cafe"}
    assert nearest(Scope(empty=True)) == []


def test_erasing_a_memory_drops_its_words_and_vectors_aimem_5_2(vector_filled: Store) -> None:
    with vector_filled.transaction(), vector_filled.recall_index() as index:
        model = index.model("toy", 8, create=True)
    assert model is not None
    _embed_all(vector_filled, model, _vector_of)
    assert vector_filled.delete_memory("m-shared")
    assert _found(vector_filled, "passport") == []
    with vector_filled.recall_index() as index:
        assert index.coverage(model) == (6, 6)
        hits = index.nearest(model, TRAVEL, 10, Scope(statuses=EVERY_STATUS))
        assert "m-shared" not in {r.memory_id for r in index.passages([p for p, _ in hits])}


def test_an_updated_memory_is_found_by_its_new_words_and_waits_for_a_vector(
    vector_filled: Store,
) -> None:
    with vector_filled.transaction(), vector_filled.recall_index() as index:
        model = index.model("toy", 8, create=True)
    assert model is not None
    _embed_all(vector_filled, model, _vector_of)
    (old,) = vector_filled.get_memories(["m-shelter"])
    vector_filled.update_memory(
        stored("Maria rides horses", id="m-shelter", created_at="2024-06-01T00:00:00Z")
    )
    assert old is not None
    assert _found(vector_filled, "shelters", Scope(kind="memory")) == []
    assert _found(vector_filled, "horses") == ["m-shelter"]
    with vector_filled.recall_index() as index:
        assert not index.complete(model)
        assert [p.text for p in index.unembedded(model, 0, 10)] == ["Maria rides horses"]


def test_postgres_without_pgvector_keeps_no_vectors_and_says_so(tmp_path: Path) -> None:
    """PostgreSQL 15 without the vector extension recalls by full text only: no model, no
    vectors, every passage waiting, and making a model names the missing extension."""
    store = _fill(new_pg15_store(tmp_path))
    try:
        assert store.vectors is False  # type: ignore[attr-defined]
        with store.transaction(), store.recall_index() as index:
            assert index.model("toy", 8) is None
            with pytest.raises(StoreError, match="no pgvector extension"):
                index.model("toy", 8, create=True)
            assert index.coverage(None) == (0, 7)
            assert index.nearest(1, TRAVEL, 3, Scope()) == []
        assert set(_found(store, "puppy")) == {"u1", "a1"}
    finally:
        store.close()


def test_a_memory_passage_is_found_by_its_memory_id_for_exchanged_embeddings(
    filled: Store,
) -> None:
    """PAM §12 / AIMEM embeddings move through the memory's one passage."""
    with filled.recall_index() as index:
        found = index.memory_passages(["m-shelter", "m-cafe", "no-such-memory"])
        assert set(found) == {"m-shelter", "m-cafe"}
        records = {r.id: r for r in index.passages(list(found.values()))}
    assert {records[pid].memory_id for pid in found.values()} == {"m-shelter", "m-cafe"}
    assert all(records[found[m]].memory_id == m for m in found)
