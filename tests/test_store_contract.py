"""The storage contract (`memvault.store.base.Store`): what every backend must do, run against
each one in `storekit.BACKENDS` (the SQLite store today), on real databases.

The full-text index must serve English and Portuguese (diacritics folded); transactions are
all or nothing, one writer at a time, and reads on other threads never wait for a write.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.model import Memory, Owner, Relation
from memvault.store.base import (
    AuditEntry,
    ConversationSummary,
    ExportRecord,
    IntegrityViolation,
    KeyRecord,
    MemoryQuery,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
    StoreError,
)
from memvault.store.sqlite import SQLiteStore
from storekit import BACKENDS, NewStore, answered_during_write
from vaultkit import pam_memory, stored


@pytest.fixture(params=BACKENDS)
def new_store(request: pytest.FixtureRequest) -> NewStore:
    """Makes a new, empty store of the backend under test."""
    maker: NewStore = request.param
    return maker


@pytest.fixture
def store(new_store: NewStore, tmp_path: Path) -> Iterator[Store]:
    s = new_store(tmp_path)
    yield s
    s.close()


def _ids(items: list[StoredMemory]) -> list[str]:
    return [s.memory.id for s in items]


def test_check_integrity_is_clean(store: Store) -> None:
    store.insert_memories([stored("a b c"), stored("d e f")])
    assert store.check_integrity() == []


def test_transaction_rolls_back_everything(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_memories([stored("one")])
        store.set_meta("k", "v")
        raise RuntimeError("boom")
    assert store.count_memories(MemoryQuery(statuses=None)) == 0
    assert store.get_meta("k") is None


def test_nested_transaction_joins_and_undoes_only_itself(store: Store) -> None:
    with store.transaction():
        store.set_meta("outer", "1")
        with pytest.raises(ValueError), store.transaction():
            store.set_meta("inner", "1")
            raise ValueError("inner fails")
        store.set_meta("after", "1")
    assert store.get_meta("outer") == "1"
    assert store.get_meta("inner") is None
    assert store.get_meta("after") == "1"


def test_insert_get_roundtrip_keeps_the_document(store: Store) -> None:
    memory = pam_memory("User lives in Porto", tags=["home", "city"])
    store.insert_memories([StoredMemory(memory, 0.8)])
    got = store.get_memory(memory.id)
    assert got is not None
    assert got.memory == memory
    assert got.memory.to_json() == memory.to_json()
    assert got.decay_anchor == 0.8
    assert store.get_memory("nope") is None


def test_insert_duplicate_id_is_an_integrity_violation(store: Store) -> None:
    memory = pam_memory("x")
    store.insert_memories([StoredMemory(memory)])
    with pytest.raises(IntegrityViolation, match=memory.id):
        store.insert_memories([StoredMemory(pam_memory("y")), StoredMemory(memory)])
    assert store.count_memories(MemoryQuery()) == 1
    twin = pam_memory("z")
    with pytest.raises(IntegrityViolation, match=twin.id):
        store.insert_memories([StoredMemory(twin), StoredMemory(twin)])


def test_update_memory_replaces_and_reindexes(store: Store) -> None:
    memory = pam_memory("Original statement about tea", tags=["drinks"])
    store.insert_memories([StoredMemory(memory)])
    changed = memory.evolve(content="Replaced statement about coffee", tags=("coffee",))
    store.update_memory(StoredMemory(changed, 0.5))
    assert store.get_memory(memory.id) == StoredMemory(changed, 0.5)
    assert _ids([h.memory for h in store.search(MemoryQuery(text="coffee"))]) == [memory.id]
    assert store.search(MemoryQuery(text="tea")) == []
    assert _ids(store.query_memories(MemoryQuery(tags=("coffee",)))) == [memory.id]
    assert store.query_memories(MemoryQuery(tags=("drinks",))) == []
    assert store.check_integrity() == []
    with pytest.raises(StoreError, match="does not exist"):
        store.update_memory(StoredMemory(pam_memory("ghost")))


def test_get_memories_keeps_order_and_skips_unknown(store: Store) -> None:
    items = [stored(f"memory {i}") for i in range(3)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    assert _ids(store.get_memories([ids[2], "missing", ids[0]])) == [ids[2], ids[0]]
    assert store.existing_ids([ids[1], "missing"]) == {ids[1]: items[1].memory.content_hash}


def test_ids_with_prefix(store: Store) -> None:
    store.insert_memories(
        [stored("a", id="abc-1"), stored("b", id="abc-2"), stored("c", id="abd-1")]
    )
    assert store.ids_with_prefix("abc") == ["abc-1", "abc-2"]
    assert store.ids_with_prefix("abd") == ["abd-1"]
    assert store.ids_with_prefix("ab", limit=2) == ["abc-1", "abc-2"]
    assert store.ids_with_prefix("x") == []


def test_readable_ids_with_prefix_are_only_those_the_agent_may_read_pam_9(
    store: Store,
) -> None:
    granted = [{"entity": "agent-x", "permissions": ["read"]}]
    store.insert_memories(
        [
            stored("a", id="abc-1"),
            stored("b", id="abc-2", visibility="public", status="retracted"),
            stored("c", id="abc-3", visibility="shared", shared_with=granted),
            stored("d", id="abc-4", visibility="shared"),
            stored("e", id="abd-5", visibility="public"),
        ]
    )
    assert store.readable_ids_with_prefix("abc", "agent-x") == ["abc-2", "abc-3"]
    assert store.readable_ids_with_prefix("abc", "agent-y") == ["abc-2"]
    assert store.readable_ids_with_prefix("ab", "agent-x", limit=2) == ["abc-2", "abc-3"]
    assert store.readable_ids_with_prefix("abc-1", "agent-x") == []


def test_find_by_content_hash(store: Store) -> None:
    a = stored("Same words", status="active")
    b = stored("  same   WORDS ", status="retracted")
    store.insert_memories([a, b, stored("other")])
    assert a.memory.content_hash == b.memory.content_hash
    assert _ids(store.find_by_content_hash(a.memory.content_hash)) == [a.memory.id, b.memory.id]
    by_hash = store.find_by_content_hashes([a.memory.content_hash, "sha256:none"], ("active",))
    assert {h: _ids(v) for h, v in by_hash.items()} == {a.memory.content_hash: [a.memory.id]}


def test_query_filters(store: Store) -> None:
    items = [
        stored("fact one", type="fact", platform="chatgpt", tags=["a", "b"]),
        stored("pref", type="preference", platform="claude", tags=["a"]),
        stored("old", type="fact", status="archived", created_at="2020-01-01T00:00:00Z"),
        stored("custom", type="custom", custom_type="decision", extraction_method=None),
        stored("hidden", exportable=False, updated_at="2025-06-01T00:00:00Z"),
        stored("public one", visibility="public"),
        stored(
            "shared one",
            visibility="shared",
            shared_with=[{"entity": "agent-x", "permissions": ["read"]}],
        ),
    ]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]

    def q(**kw: object) -> set[str]:
        return set(_ids(store.query_memories(MemoryQuery(limit=None, **kw))))  # type: ignore[arg-type]

    assert q() == set(ids) - {ids[2]}  # active by default
    assert q(statuses=None) == set(ids)
    assert q(statuses=("archived",)) == {ids[2]}
    assert q(statuses=()) == set()
    assert q(types=("preference",)) == {ids[1]}
    assert q(custom_types=("decision",)) == {ids[3]}
    assert q(tags=("a",)) == {ids[0], ids[1]}
    assert q(tags=("a", "b")) == {ids[0]}
    assert q(platforms=("claude",)) == {ids[1]}
    assert q(extraction_methods=("api_export",), statuses=None) == set(ids) - {ids[3]}
    assert q(created_until=datetime(2021, 1, 1, tzinfo=UTC), statuses=None) == {ids[2]}
    assert q(created_since=datetime(2021, 1, 1, tzinfo=UTC)) == set(ids) - {ids[2]}
    assert q(updated_since=datetime(2025, 3, 1, tzinfo=UTC)) == {ids[4]}
    assert q(exportable_only=True) == set(ids) - {ids[2], ids[4]}
    assert q(readable_by="agent-x") == {ids[5], ids[6]}
    assert q(readable_by="agent-y") == {ids[5]}
    assert q(ids=(ids[0], ids[2])) == {ids[0]}
    assert q(text="pref") == {ids[1]}
    assert store.count_memories(MemoryQuery(types=("fact",), statuses=None)) == 5


def test_query_confidence_bounds_are_inclusive_on_the_stored_current_value_pam_8(
    store: Store,
) -> None:
    """min/max confidence test the stored `confidence.current` (PAM §8), bounds included;
    a memory without a numeric current value matches no bound, and the bounds combine with
    the other filters, paging and counting."""
    items = [stored(f"confident {c}", confidence=c) for c in (0.1, 0.5, 0.75, 0.9, 1.0)]
    bare = pam_memory("no confidence block").to_json()
    del bare["confidence"]
    nulled = pam_memory("a null current value").to_json()
    nulled["confidence"]["current"] = None
    odd = [StoredMemory(Memory.from_json(bare), None), StoredMemory(Memory.from_json(nulled), None)]
    old = stored("archived and sure", confidence=0.95, status="archived")
    store.insert_memories([*items, *odd, old])
    ids = {s.memory.content: s.memory.id for s in [*items, *odd, old]}

    def q(**kw: object) -> set[str]:
        found = store.query_memories(MemoryQuery(limit=None, **kw))  # type: ignore[arg-type]
        assert store.count_memories(MemoryQuery(**kw)) == len(found)  # type: ignore[arg-type]
        return {s.memory.content for s in found}

    assert q(min_confidence=0.75) == {"confident 0.75", "confident 0.9", "confident 1.0"}
    assert q(max_confidence=0.5) == {"confident 0.1", "confident 0.5"}
    assert q(min_confidence=0.5, max_confidence=0.9) == {
        "confident 0.5",
        "confident 0.75",
        "confident 0.9",
    }
    assert q(min_confidence=0.0) == {f"confident {c}" for c in (0.1, 0.5, 0.75, 0.9, 1.0)}
    assert q(min_confidence=0.91, max_confidence=0.99) == set()
    assert q(min_confidence=0.9, statuses=None) == {
        "confident 0.9",
        "confident 1.0",
        "archived and sure",
    }
    assert q(min_confidence=0.9, text="sure", statuses=None) == {"archived and sure"}
    ranked = store.search(MemoryQuery(text="confident", min_confidence=0.9, order="relevance"))
    assert {h.memory.memory.content for h in ranked} == {"confident 0.9", "confident 1.0"}
    page = store.query_memories(MemoryQuery(min_confidence=0.5, limit=2, offset=1))
    assert len(page) == 2
    assert {s.memory.id for s in store.iter_memories(MemoryQuery(max_confidence=0.1))} == {
        ids["confident 0.1"]
    }
    assert set(store.memory_ids(MemoryQuery(max_confidence=0.1))) == {ids["confident 0.1"]}


def test_query_order_limit_offset(store: Store) -> None:
    items = [stored(f"m{i}", created_at=f"2025-01-0{i + 1}T00:00:00Z") for i in range(5)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    assert _ids(store.query_memories(MemoryQuery(limit=2))) == [ids[4], ids[3]]
    assert _ids(store.query_memories(MemoryQuery(limit=2, offset=2))) == [ids[2], ids[1]]
    assert _ids(store.query_memories(MemoryQuery(order="created", limit=None))) == ids
    assert store.count_memories(MemoryQuery(limit=1)) == 5


def test_iter_memories_streams_everything(store: Store) -> None:
    items = [stored(f"memory number {i}") for i in range(25)]
    store.insert_memories(items)
    got = list(store.iter_memories(MemoryQuery(limit=3), batch=4))
    assert sorted(_ids(got)) == sorted(s.memory.id for s in items)
    assert dict(store.memory_hashes()) == {s.memory.id: s.memory.content_hash for s in items}


def test_delete_memory_removes_everything_about_it(store: Store) -> None:
    a, b = stored("delete me entirely", tags=["gone"]), stored("keep me")
    store.insert_memories([a, b])
    store.insert_relation(
        Relation(id="r1", from_=b.memory.id, to=a.memory.id, type="supports", created_at="x")
    )
    store.put_embedding(
        StoredEmbedding("e1", a.memory.id, "m", 2, "2025-01-01T00:00:00Z", b"\0" * 8)
    )
    assert store.delete_memory(a.memory.id) is True
    assert store.delete_memory(a.memory.id) is False
    assert store.get_memory(a.memory.id) is None
    assert store.relations_of(b.memory.id) == []
    assert store.get_embedding(a.memory.id) is None
    assert store.search(MemoryQuery(text="delete")) == []
    assert store.query_memories(MemoryQuery(tags=("gone",))) == []
    assert store.check_integrity() == []


def test_memory_stats(store: Store) -> None:
    store.insert_memories(
        [
            stored("a", type="fact"),
            stored("b", type="fact", status="retracted"),
            stored("c", type="skill", platform="claude", extraction_method=None),
            stored("d", type="custom", custom_type="decision"),
        ]
    )
    stats = store.memory_stats()
    # A custom memory counts under custom:<custom_type>, as `inspect` names it (PAM §6).
    assert stats["type"] == {"fact": 2, "custom:decision": 1, "skill": 1}
    assert stats["status"] == {"active": 3, "retracted": 1}
    assert stats["platform"] == {"chatgpt": 3, "claude": 1}
    assert stats["extraction_method"] == {"api_export": 3, "none": 1}


def test_search_english_and_portuguese_with_diacritics(store: Store) -> None:
    items = [
        stored("Ação de graças em Lisboa com a família", metadata={"language": "pt-BR"}),
        stored("User works at the Café Central in VIENNA"),
        stored("Prefers jogging in the mornings", tags=["health"]),
        stored("Mora em São Paulo e gosta de pão de queijo"),
    ]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]

    def hits(text: str) -> list[str]:
        return [h.memory.memory.id for h in store.search(MemoryQuery(text=text, order="relevance"))]

    assert hits("acao") == [ids[0]]
    assert hits("Ação") == [ids[0]]
    assert hits("lisboa") == [ids[0]]
    assert hits("LISBOA familia") == [ids[0]]
    assert hits("cafe vienna") == [ids[1]]
    assert hits("sao paulo") == [ids[3]]
    assert hits("pao") == [ids[3]]
    assert hits("health") == [ids[2]]  # tags are searched
    assert hits("jog*") == [ids[2]]
    assert hits("nothing-like-this") == []
    assert hits("") == []
    assert hits("'\"(){}*^:-") == []


def test_search_ranks_by_bm25(store: Store) -> None:
    weak = stored("A long statement that mentions python once among many other words here")
    strong = stored("python python python")
    store.insert_memories([weak, strong])
    got = store.search(MemoryQuery(text="python", order="relevance"))
    assert [h.memory.memory.id for h in got] == [strong.memory.id, weak.memory.id]
    assert got[0].score > got[1].score


def test_search_filters_status_and_other_filters(store: Store) -> None:
    items = [
        stored("tea is good", status="active"),
        stored("tea was good", status="retracted"),
        stored("tea with friends", type="preference"),
    ]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]

    def hits(**kw: object) -> set[str]:
        query = MemoryQuery(text="tea", order="relevance", **kw)  # type: ignore[arg-type]
        return {h.memory.memory.id for h in store.search(query)}

    assert hits() == {ids[0], ids[2]}
    assert hits(statuses=None) == set(ids)
    assert hits(statuses=("retracted",)) == {ids[1]}
    assert hits(types=("preference",)) == {ids[2]}
    assert hits(statuses=()) == set()
    # The word "active" is not found through the status column.
    assert store.search(MemoryQuery(text="active", order="relevance")) == []


def test_search_in_time_order_and_paging(store: Store) -> None:
    items = [stored(f"coffee {i}", created_at=f"2025-01-0{i + 1}T00:00:00Z") for i in range(4)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    got = store.search(MemoryQuery(text="coffee", order="-created", limit=2))
    assert [h.memory.memory.id for h in got] == [ids[3], ids[2]]
    got = store.search(MemoryQuery(text="coffee", order="created", limit=2, offset=1))
    assert [h.memory.memory.id for h in got] == [ids[1], ids[2]]
    assert len(store.search(MemoryQuery(text="coffee", order="relevance", limit=3))) == 3
    assert store.search(MemoryQuery(text="coffee", limit=0)) == []


@pytest.fixture(scope="module", params=BACKENDS)
def search_store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    s = request.param(tmp_path_factory.mktemp("search"))
    s.insert_memories([stored("Ação em Lisboa")])
    yield s
    s.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=40))
def test_any_search_text_is_accepted(search_store: Store, text: str) -> None:
    """No user input is an FTS5 syntax error (PAM content is free text in any language)."""
    search_store.search(MemoryQuery(text=text, order="relevance"))
    search_store.search(MemoryQuery(text=text, order="-created"))
    search_store.query_memories(MemoryQuery(text=text))
    search_store.count_memories(MemoryQuery(text=text))


def test_meta_and_owner(store: Store) -> None:
    assert store.get_meta("x") is None
    store.set_meta("x", "1")
    store.set_meta("x", "2")
    assert store.get_meta("x") == "2"
    assert store.get_owner() is None
    owner = Owner(id="o-1", did="did:key:z6Mk", created_at="2025-01-01T00:00:00Z")
    store.set_owner(owner)
    assert store.get_owner() == owner
    store.set_owner(owner.evolve(id="o-2"))
    assert store.get_owner() == owner.evolve(id="o-2")


def test_relations(store: Store) -> None:
    r1 = Relation(id="r1", from_="a", to="b", type="supports", created_at="t1", confidence=0.5)
    r2 = Relation(id="r2", from_="c", to="a", type="extends", created_at="t2")
    store.insert_relation(r1)
    store.insert_relations([r2])
    assert store.relations_of("a") == [r1, r2]
    assert store.relations_of("b") == [r1]
    assert list(store.iter_relations()) == [r1, r2]
    assert store.relation_stats() == {"extends": 1, "supports": 1}
    store.update_relation(r1.evolve(confidence=0.9))
    assert store.relations_of("b")[0].confidence == 0.9
    with pytest.raises(IntegrityViolation):
        store.insert_relation(r1)
    with pytest.raises(StoreError):
        store.update_relation(r1.evolve(id="nope"))


def test_conversations(store: Store) -> None:
    conversation = StoredConversation(
        id="conv-1",
        platform="chatgpt",
        document={"id": "conv-1", "messages": [{"role": "user", "content": "olá"}]},
        title="Hello",
        created_at="2025-01-01T00:00:00Z",
        message_count=1,
    )
    assert store.put_conversation(conversation) is True
    assert store.put_conversation(conversation) is False
    assert store.get_conversation("conv-1") == conversation
    assert store.get_conversation("nope") is None
    assert store.put_conversation(replace(conversation, title="Hi")) is True
    assert [c.title for c in store.iter_conversations()] == ["Hi"]
    assert store.count_conversations() == 1


def test_conversation_summaries_page_newest_first_from_columns_only(store: Store) -> None:
    """Many conversations listed a page at a time, newest first (by created_at, those without
    one last, ties by id descending), of one platform or all, with the count matching; the
    pages come from the columns: a conversation whose document cannot be read still lists."""
    rng = random.Random(22)
    batch = []
    for i in range(240):
        day = rng.randrange(1, 29)
        created = None if i % 17 == 0 else f"2025-02-{day:02d}T{i % 24:02d}:00:00Z"
        batch.append(
            StoredConversation(
                id=f"conv-{i:04d}",
                platform="chatgpt" if i % 3 else "claude",
                document={"id": f"conv-{i:04d}", "messages": [{"role": "user", "content": "x"}]},
                title=f"Conversation {i}",
                created_at=created,
                message_count=i % 5,
            )
        )
    with store.transaction():
        store.add_conversations(batch)

    def newest_first(items: list[StoredConversation]) -> list[str]:
        ordered = sorted(items, key=lambda c: (c.created_at or "", c.id), reverse=True)
        return [c.id for c in ordered]

    for platform in (None, "claude"):
        expected = newest_first([c for c in batch if platform in (None, c.platform)])
        pages = [
            store.conversation_summaries(platform, limit=50, offset=offset)
            for offset in range(0, len(expected) + 50, 50)
        ]
        assert [s.id for page in pages for s in page] == expected
        assert store.count_conversations(platform) == len(expected)
        assert store.conversation_summaries(platform, limit=None) == [
            s for page in pages for s in page
        ]
    first = store.conversation_summaries(limit=1)[0]
    source = next(c for c in batch if c.id == first.id)
    assert first == ConversationSummary(
        source.id,
        source.platform,
        source.title,
        source.created_at,
        source.updated_at,
        source.message_count,
    )
    assert store.conversation_summaries(limit=0) == []
    assert store.conversation_summaries("gemini") == []
    # Spoil one stored document: reading it would now fail, listing does not read it.
    placeholder = "?" if isinstance(store, SQLiteStore) else "%s"
    store._write(  # type: ignore[attr-defined]
        f"UPDATE conversations SET document = {placeholder} WHERE id = {placeholder}",
        (b"not a document", first.id),
    )
    assert store.conversation_summaries(limit=1) == [first]


def test_delete_conversation_removes_it_and_its_messages_only(store: Store) -> None:
    """Erasure of one conversation (AIMEM §5.2): its row and messages (and, on a backend
    with a recall index, their passages) go; the other conversation and the memories stay."""
    kept = stored("derived from conv-1")
    store.insert_memories([kept])
    for cid in ("conv-1", "conv-2"):
        store.put_conversation(
            StoredConversation(
                id=cid,
                platform="chatgpt",
                document={"id": cid, "messages": [{"id": "m1", "role": "user", "content": "olá"}]},
                message_count=1,
            )
        )
    counts = store.delete_conversation("conv-1")
    assert counts is not None and counts["messages"] == 1
    assert counts["passages"] >= 0 and counts["vectors"] >= 0
    assert store.delete_conversation("conv-1") is None
    assert store.get_conversation("conv-1") is None
    assert store.conversation_ids(["conv-1", "conv-2"]) == {"conv-2"}
    assert store.get_memory(kept.memory.id) == kept
    assert store.check_integrity() == []


def test_erase_everything_leaves_the_vault_but_none_of_its_data(store: Store) -> None:
    """A whole tenant's erasure where the store cannot just be deleted (AIMEM §5.2): every
    memory, tag, grant, full-text entry, relation, conversation, embedding, AIMEM state row
    and export record goes, in one transaction, with counts; the owner, keys, meta and the
    audit log (hashes, not content) stay, and the store takes new data afterwards."""
    a, b = stored("erase me please", tags=["gone"]), stored("and me too")
    store.insert_memories([a, b])
    store.insert_relation(
        Relation(id="r1", from_=a.memory.id, to=b.memory.id, type="supports", created_at="x")
    )
    store.put_embedding(StoredEmbedding("e1", a.memory.id, "m", 2, "2025-01-01T00:00:00Z", b"1"))
    store.put_conversation(
        StoredConversation("conv-1", "chatgpt", {"id": "conv-1", "messages": []}, message_count=3)
    )
    store.put_chunk_digests({a.memory.id: "sha256:" + "0" * 64})
    store.put_aliases({"urn:x:alias": a.memory.id})
    store.record_export(ExportRecord("x1", "exported", "full", "2025-01-01T00:00:00Z"))
    owner = Owner(id="o-1")
    store.set_owner(owner)
    store.set_meta("setting", "kept")
    key = KeyRecord("k1", "Ed25519", b"pub", b"priv", "2025-01-01T00:00:00Z")
    store.put_key(key)
    audit = AuditEntry(1, "2025-01-01T00:00:00Z", "user", "add", a.memory.id, "h", {}, "p", "q")
    store.append_audit(audit)

    counts = store.erase_everything()

    assert {k: v for k, v in counts.items() if k not in ("passages", "vectors")} == {
        "memories": 2,
        "relations": 1,
        "conversations": 1,
        "messages": 3,
        "embeddings": 1,
        "exports": 1,
    }
    assert counts["passages"] >= 0 and counts["vectors"] >= 0
    assert store.count_memories(MemoryQuery(statuses=None)) == 0
    assert store.search(MemoryQuery(text="erase")) == []
    assert store.query_memories(MemoryQuery(tags=("gone",))) == []
    assert list(store.iter_relations()) == [] and store.count_conversations() == 0
    assert store.get_embedding(a.memory.id) is None and store.list_exports() == []
    assert store.chunk_digests([a.memory.id]) == {} and store.aliases(["urn:x:alias"]) == {}
    assert store.get_owner() == owner and store.get_meta("setting") == "kept"
    assert store.get_key("k1") == key and store.last_audit() == audit
    store.insert_memories([a])  # still a working store
    assert [h.memory.memory.id for h in store.search(MemoryQuery(text="erase"))] == [a.memory.id]
    assert store.check_integrity() == []


def test_embeddings(store: Store) -> None:
    vector = b"\x00\x00\x80\x3f" * 3
    old = StoredEmbedding("e1", "m1", "model-a", 3, "2025-01-01T00:00:00Z", vector)
    store.put_embedding(old)
    assert store.get_embedding("m1") == old
    newer = StoredEmbedding("e2", "m1", "model-b", 3, "2025-02-01T00:00:00Z", None, {"ref": "x"})
    store.put_embedding(newer)
    assert store.get_embedding("m1") == newer
    replaced = StoredEmbedding("e3", "m1", "model-b", 3, "2025-03-01T00:00:00Z", vector)
    store.put_embedding(replaced)  # same (memory, model): replaces
    assert store.get_embedding("m1") == replaced
    assert store.get_embedding("m2") is None


def test_exports_registry(store: Store) -> None:
    full = ExportRecord("x1", "exported", "full", "2025-01-01T00:00:00Z", memory_count=3)
    delta = ExportRecord(
        "x2", "imported", "incremental", "2025-02-01T00:00:00Z", base_export_id="x1"
    )
    store.record_export(full)
    store.record_export(delta)
    assert store.list_exports() == [full, delta]


def test_audit_storage(store: Store) -> None:
    assert store.last_audit() is None
    entries = [
        AuditEntry(i, "2025-01-01T00:00:00Z", "user", "add", f"m{i}", None, {"n": i}, "p", "h")
        for i in range(1, 4)
    ]
    store.append_audit(entries[0])
    store.append_audit_many(entries[1:])
    assert list(store.iter_audit()) == entries
    assert store.last_audit() == entries[-1]
    assert store.count_audit() == 3
    with pytest.raises(IntegrityViolation):
        store.append_audit(entries[0])


def test_keys(store: Store) -> None:
    key = KeyRecord("k1", "Ed25519", b"pub", b"secret", "2025-01-01T00:00:00Z", "did:key:z")
    store.put_key(key)
    public_only = KeyRecord("k2", "ES256", b"pub2", None, "2025-02-01T00:00:00Z")
    store.put_key(public_only)
    assert store.get_key("k1") == key
    assert store.get_key("nope") is None
    assert store.list_keys() == [key, public_only]


def test_closed_store_refuses_writes(new_store: NewStore, tmp_path: Path) -> None:
    s = new_store(tmp_path)
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"), s.transaction():
        pass


def test_a_savepoint_finished_after_the_store_closed_says_nothing(
    new_store: NewStore, tmp_path: Path
) -> None:
    """Ctrl-C can leave a nested transaction's generator open until it is collected, after
    the CLI closed the vault: its rollback must not raise on the closed connection (it printed
    "Exception ignored … Cannot operate on a closed database" after "interrupted")."""
    store = new_store(tmp_path)
    outer = store.transaction()
    outer.__enter__()
    inner = store.transaction()
    inner.__enter__()
    store.close()
    # False: the interrupt goes on as it came, and no other error is raised in its place
    assert inner.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None) is False
    assert outer.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None) is False


# -- batched writes and id sets ---------------------------------------------------------------


def test_insert_memory_batches_stores_every_batch_in_order(store: Store) -> None:
    """Small batches and large ones (which a backend may write while the next is built) all
    land, searchable, with their tags; the count is returned."""
    sizes = [3, 1100, 1, 1030]
    batches = [
        [stored(f"batch {b} note {i}", tags=[f"b{b}"]) for i in range(size)]
        for b, size in enumerate(sizes)
    ]
    with store.transaction():
        assert store.insert_memory_batches(iter(batches)) == sum(sizes)
    assert store.count_memories(MemoryQuery()) == sum(sizes)
    assert [
        len(store.query_memories(MemoryQuery(tags=(f"b{b}",), limit=None))) for b in range(4)
    ] == sizes
    last = batches[3][-1].memory
    assert store.get_memory(last.id) == StoredMemory(last, 0.8)
    assert _ids([h.memory for h in store.search(MemoryQuery(text="batch 3 note 1029"))]) == [
        last.id
    ]
    assert store.insert_memory_batches([]) == 0


def test_insert_memory_batches_with_a_taken_id_leaves_nothing(store: Store) -> None:
    taken = stored("already here")
    store.insert_memories([taken])
    batches = [[stored(f"fresh {i}") for i in range(1100)], [stored("x"), taken]]
    with pytest.raises(IntegrityViolation, match=taken.memory.id), store.transaction():
        store.insert_memory_batches(batches)
    assert store.count_memories(MemoryQuery()) == 1


def test_insert_memory_rows_stores_what_the_memories_would_store(store: Store) -> None:
    """Rows made straight from PAM JSON (`memvault.memory_rows`) land as the same memories
    `insert_memory_batches` stores: read back equal, searchable, by tag, in order."""
    from memvault.memory_rows import plain_row
    from memvault.store.codec import memory_from_json

    documents = [
        {
            "id": f"urn:aimem:p:row-{n}",
            "type": "custom" if n % 3 == 0 else "fact",
            **({"custom_type": "decision"} if n % 3 == 0 else {}),
            "content": f"row note {n} café",
            "content_hash": pam_memory(f"row note {n} café").content_hash,
            "temporal": {"created_at": "2026-04-01T09:30:00Z"},
            "provenance": {"platform": "aimem"},
            "tags": [f"r{n % 4}", "rows"],
            "metadata": {"pinned": n % 2 == 0, "aimem": {"content_hash": False}},
        }
        for n in range(1300)
    ]
    rows = [made[1] for d in documents if (made := plain_row(d)) is not None]
    assert len(rows) == 1300
    with store.transaction():
        assert store.insert_memory_rows(iter([rows[:3], rows[3:1200], rows[1200:]])) == 1300
    assert store.count_memories(MemoryQuery()) == 1300
    assert len(store.query_memories(MemoryQuery(tags=("r1",), limit=None))) == 325
    for n in (0, 1, 1299):
        got = store.get_memory(f"urn:aimem:p:row-{n}")
        assert got == StoredMemory(memory_from_json(documents[n]), None)
    hits = store.search(MemoryQuery(text="row note 1299"))
    assert _ids([h.memory for h in hits])[:1] == ["urn:aimem:p:row-1299"]
    assert store.insert_memory_rows([]) == 0


def test_conversation_batches_id_sets_and_stored_json(store: Store) -> None:
    """`add_conversations` inserts a batch known to be absent; `conversation_ids` says which
    ids are stored; `conversation_json` is the stored document as JSON (None when absent)."""
    batch = [
        StoredConversation(
            id=f"c-{n}",
            platform="claude",
            document={"id": f"c-{n}", "messages": [{"id": f"m-{n}", "content": "oi"}]},
            title="Same title" if n < 2 else f"Title {n}",
            message_count=1,
        )
        for n in range(3)
    ]
    with store.transaction(), store.bulk_writes():
        store.add_conversations(batch)
    assert store.conversation_ids(["c-0", "c-2", "c-9", "c-0"]) == {"c-0", "c-2"}
    assert store.conversation_ids([]) == set()
    assert store.count_conversations("claude") == 3
    assert store.count_conversations("chatgpt") == 0
    assert store.conversation_ids_titled("claude", "Same title") == ["c-0", "c-1"]
    text = store.conversation_json("c-1")
    assert text is not None and orjson.loads(text) == batch[1].document
    assert store.conversation_json("c-9") is None
    with pytest.raises(IntegrityViolation, match="c-0"), store.transaction():
        store.add_conversations([batch[0]])
    assert store.count_conversations() == 3


# -- audit queries ----------------------------------------------------------------------------


def _audit_log(store: Store) -> list[AuditEntry]:
    actions = ["init", "add", "update", "conversation", "add", "update", "erase"]
    entries = [
        AuditEntry(
            seq,
            f"2025-01-01T00:00:0{seq}Z",
            "user",
            action,
            None if action in ("init", "conversation") else f"m{seq % 2}",
            None,
            {"n": seq},
            "p",
            "h",
        )
        for seq, action in enumerate(actions, 1)
    ]
    store.append_audit_many(entries)
    return entries


def test_audit_entries_by_sequence_memory_action_and_limit(store: Store) -> None:
    """The log is queried, not scanned by the caller: entries after a seq, of one memory, of
    some actions, the first or last few."""
    log = _audit_log(store)
    assert store.audit_entries() == log
    assert store.audit_entries(after_seq=5) == log[5:]
    assert store.audit_entries(after_seq=7) == []
    assert store.audit_entries(memory_id="m1") == [e for e in log if e.memory_id == "m1"]
    assert store.audit_entries(memory_id="nobody") == []
    assert store.audit_entries(actions=("conversation", "erase")) == [log[3], log[6]]
    assert store.audit_entries(after_seq=2, actions=["add"]) == [log[4]]
    assert store.audit_entries(limit=2) == log[:2]
    assert store.audit_entries(limit=2, newest_first=True) == [log[6], log[5]]
    assert store.audit_entries(memory_id="m0", limit=1, newest_first=True) == [log[5]]
    assert store.audit_entries(limit=0) == []


# -- concurrency ------------------------------------------------------------------------------


def test_a_reader_is_answered_while_another_thread_holds_a_write(store: Store) -> None:
    """Reads on other threads never wait for a write transaction: while one thread holds an
    uncommitted write, another thread's reads are answered with the last commit; the writing
    thread sees its own writes."""
    before = stored("committed before the write")
    store.insert_memories([before])
    during = stored("written inside the long transaction")
    seen_by_writer: list[StoredMemory | None] = []

    def write(hold: Callable[[], None]) -> None:
        with store.transaction():
            store.insert_memories([during])
            store.set_meta("progress", "half")
            seen_by_writer.append(store.get_memory(during.memory.id))
            hold()

    def read() -> dict[str, object]:
        return {
            "before": store.get_memory(before.memory.id),
            "during": store.get_memory(during.memory.id),
            "count": store.count_memories(MemoryQuery()),
            "meta": store.get_meta("progress"),
            "search": len(store.search(MemoryQuery(text="written"))),
        }

    assert answered_during_write(write, read) == {
        "before": StoredMemory(before.memory, 0.8),
        "during": None,
        "count": 1,
        "meta": None,
        "search": 0,
    }
    assert seen_by_writer == [StoredMemory(during.memory, 0.8)]
    assert store.get_memory(during.memory.id) == StoredMemory(during.memory, 0.8)
    assert store.get_meta("progress") == "half"


def test_conversation_ids_with_prefix(store: Store) -> None:
    for cid in ("abc-1", "abc-2", "abd-1"):
        document = {"id": cid, "messages": [{"role": "user", "content": "olá"}]}
        store.put_conversation(StoredConversation(cid, "chatgpt", document, message_count=1))
    assert store.conversation_ids_with_prefix("abc") == ["abc-1", "abc-2"]
    assert store.conversation_ids_with_prefix("abd") == ["abd-1"]
    assert store.conversation_ids_with_prefix("ab", limit=2) == ["abc-1", "abc-2"]
    assert store.conversation_ids_with_prefix("x") == []
