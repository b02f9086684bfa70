"""The storage contract (`memvault.store.base.Store`) on the SQLCipher store, on real files.

Encryption at rest is PAM §21.1 ("Implementations MUST encrypt PAM files at rest when stored
locally"); the full-text index must serve English and Portuguese (diacritics folded).
"""

from __future__ import annotations

import stat
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.errors import VaultExists, VaultNotFound
from memvault.model import MISSING, Memory, Owner, Relation
from memvault.store import codec, documents
from memvault.store.base import (
    AuditEntry,
    ExportRecord,
    IntegrityViolation,
    KeyRecord,
    MemoryQuery,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
    StoreError,
    WrongPassphrase,
)
from memvault.store.migrations import LATEST, MIGRATIONS
from memvault.store.sqlite import DEFAULT_KDF_ITER, KDF_ITER_ENV, SQLiteStore, fts_query
from vaultkit import PASSPHRASE, make_store, pam_memory, raw_bytes, stored


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = make_store(tmp_path / "vault.db")
    yield s
    s.close()


def _ids(items: list[StoredMemory]) -> list[str]:
    return [s.memory.id for s in items]


# -- opening, encryption, migrations -----------------------------------------------------------


def test_pam_21_1_database_file_holds_no_plaintext(tmp_path: Path) -> None:
    """PAM §21.1: the database and its WAL contain none of the memory text."""
    s = make_store(tmp_path / "vault.db")
    secret = "Zanzibar-secret-ação-7731"
    s.insert_memories([stored(f"The user's locker code is {secret}", summary="locker code")])
    s.set_meta("note", "meta-secret-9913")
    # Read while the connection is open (data in the WAL) and after closing (checkpointed).
    before_close = raw_bytes(tmp_path)
    assert (tmp_path / "vault.db-wal").exists()
    s.close()
    after_close = raw_bytes(tmp_path)
    for blob in (before_close, after_close):
        for needle in (secret, "locker", "meta-secret-9913", "Zanzibar"):
            assert needle.encode() not in blob
            assert needle.encode("utf-16-le") not in blob
        assert b"SQLite format 3" not in blob


def test_files_are_owner_only(tmp_path: Path) -> None:
    s = make_store(tmp_path / "vault.db")
    s.insert_memories([stored("x is y")])
    for name in ("vault.db", "vault.db-wal", "vault.db-shm", "vault.params.json"):
        mode = stat.S_IMODE((tmp_path / name).stat().st_mode)
        assert mode & 0o077 == 0, f"{name} is {oct(mode)}"
    s.close()


def test_wrong_passphrase_is_a_clear_error(tmp_path: Path) -> None:
    make_store(tmp_path / "vault.db").close()
    with pytest.raises(WrongPassphrase, match="wrong passphrase") as caught:
        SQLiteStore.open(tmp_path / "vault.db", "not the passphrase")
    assert "file is not a database" not in str(caught.value)


def test_wrong_passphrase_with_sqlcipher_default_kdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one test that pays for the real key derivation (256,000 PBKDF2 rounds)."""
    monkeypatch.delenv(KDF_ITER_ENV, raising=False)
    s = SQLiteStore.create(tmp_path / "vault.db", PASSPHRASE)
    assert s.kdf_iter == DEFAULT_KDF_ITER == 256_000
    assert s.get_meta("kdf_iter") == "256000"
    s.close()
    params = orjson.loads((tmp_path / "vault.params.json").read_bytes())
    assert params["kdf_iter"] == 256_000
    SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE).close()
    with pytest.raises(WrongPassphrase):
        SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE + "x")


def test_kdf_iterations_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KDF_ITER_ENV, "3")
    s = SQLiteStore.create(tmp_path / "vault.db", PASSPHRASE)
    assert s.kdf_iter == 3
    s.close()
    assert SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE).kdf_iter == 3
    monkeypatch.setenv(KDF_ITER_ENV, "lots")
    with pytest.raises(StoreError, match="MEMVAULT_KDF_ITER"):
        SQLiteStore.create(tmp_path / "other.db", PASSPHRASE)


def test_missing_params_file_is_named_in_the_error(tmp_path: Path) -> None:
    make_store(tmp_path / "vault.db").close()
    (tmp_path / "vault.params.json").unlink()
    with pytest.raises(WrongPassphrase, match=r"vault\.params\.json is missing"):
        SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)


def test_create_refuses_an_existing_vault(tmp_path: Path) -> None:
    make_store(tmp_path / "vault.db").close()
    before = raw_bytes(tmp_path)
    with pytest.raises(VaultExists):
        SQLiteStore.create(tmp_path / "vault.db", PASSPHRASE, kdf_iter=2)
    assert raw_bytes(tmp_path) == before


def test_empty_passphrase_is_refused(tmp_path: Path) -> None:
    """An empty SQLCipher key means no encryption at all."""
    with pytest.raises(StoreError, match="must not be empty"):
        SQLiteStore.create(tmp_path / "vault.db", "")
    assert not (tmp_path / "vault.db").exists()
    assert not (tmp_path / "vault.params.json").exists()


def test_open_missing_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(VaultNotFound):
        SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
    import sqlite3

    plain = sqlite3.connect(tmp_path / "plain.db")
    plain.execute("CREATE TABLE t (x)")
    plain.commit()
    plain.close()
    with pytest.raises(StoreError, match="unencrypted SQLite database"):
        SQLiteStore.open(tmp_path / "plain.db", PASSPHRASE)
    (tmp_path / "empty.db").write_bytes(b"")
    with pytest.raises(StoreError, match="empty or truncated"):
        SQLiteStore.open(tmp_path / "empty.db", PASSPHRASE)


def test_migrations_are_recorded(store: SQLiteStore) -> None:
    assert store.schema_version == LATEST == MIGRATIONS[-1].version
    applied = store.migrations()
    assert [(v, n) for v, n, _ in applied] == [(m.version, m.name) for m in MIGRATIONS]
    assert all(at.endswith("Z") for _, _, at in applied)


def test_migrations_do_not_rerun_on_open(tmp_path: Path) -> None:
    make_store(tmp_path / "vault.db").close()
    s = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
    assert len(s.migrations()) == len(MIGRATIONS)
    s.close()


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    s = make_store(tmp_path / "vault.db")
    s.execute_raw(f"PRAGMA user_version = {LATEST + 1}")
    s.close()
    with pytest.raises(StoreError, match="newer than this memvault"):
        SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)


def test_check_integrity_is_clean(store: SQLiteStore) -> None:
    store.insert_memories([stored("a b c"), stored("d e f")])
    assert store.check_integrity() == []


# -- transactions ------------------------------------------------------------------------------


def test_transaction_rolls_back_everything(store: SQLiteStore) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.insert_memories([stored("one")])
        store.set_meta("k", "v")
        raise RuntimeError("boom")
    assert store.count_memories(MemoryQuery(statuses=None)) == 0
    assert store.get_meta("k") is None


def test_nested_transaction_joins_and_undoes_only_itself(store: SQLiteStore) -> None:
    with store.transaction():
        store.set_meta("outer", "1")
        with pytest.raises(ValueError), store.transaction():
            store.set_meta("inner", "1")
            raise ValueError("inner fails")
        store.set_meta("after", "1")
    assert store.get_meta("outer") == "1"
    assert store.get_meta("inner") is None
    assert store.get_meta("after") == "1"


def test_one_writer_at_a_time_across_connections(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writer waits for the first instead of failing."""
    first = make_store(tmp_path / "vault.db")
    second = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
    order: list[str] = []
    started = threading.Event()

    def write_second() -> None:
        started.wait()
        with second.transaction():
            order.append("second")
            second.insert_memories([stored("from the second")])

    thread = threading.Thread(target=write_second)
    thread.start()
    with first.transaction():
        first.insert_memories([stored("from the first")])
        started.set()
        thread.join(0.3)  # the second writer is blocked while we hold the lock
        order.append("first")
    thread.join(10)
    assert order == ["first", "second"]
    assert first.count_memories(MemoryQuery()) == 2
    first.close()
    second.close()


def test_busy_timeout_gives_a_clear_error(tmp_path: Path) -> None:
    first = make_store(tmp_path / "vault.db")
    second = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE, busy_timeout=0.1)
    with first.transaction(), pytest.raises(StoreError, match="busy"), second.transaction():
        pass
    first.close()
    second.close()


# -- memories --------------------------------------------------------------------------------


def test_insert_get_roundtrip_keeps_the_document(store: SQLiteStore) -> None:
    memory = pam_memory("User lives in Porto", tags=["home", "city"])
    store.insert_memories([StoredMemory(memory, 0.8)])
    got = store.get_memory(memory.id)
    assert got is not None
    assert got.memory == memory
    assert got.memory.to_json() == memory.to_json()
    assert got.decay_anchor == 0.8
    assert store.get_memory("nope") is None


def test_insert_duplicate_id_is_an_integrity_violation(store: SQLiteStore) -> None:
    memory = pam_memory("x")
    store.insert_memories([StoredMemory(memory)])
    with pytest.raises(IntegrityViolation, match=memory.id):
        store.insert_memories([StoredMemory(pam_memory("y")), StoredMemory(memory)])
    assert store.count_memories(MemoryQuery()) == 1
    twin = pam_memory("z")
    with pytest.raises(IntegrityViolation, match=twin.id):
        store.insert_memories([StoredMemory(twin), StoredMemory(twin)])


def test_update_memory_replaces_and_reindexes(store: SQLiteStore) -> None:
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


def test_get_memories_keeps_order_and_skips_unknown(store: SQLiteStore) -> None:
    items = [stored(f"memory {i}") for i in range(3)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    assert _ids(store.get_memories([ids[2], "missing", ids[0]])) == [ids[2], ids[0]]
    assert store.existing_ids([ids[1], "missing"]) == {ids[1]: items[1].memory.content_hash}


def test_ids_with_prefix(store: SQLiteStore) -> None:
    store.insert_memories(
        [stored("a", id="abc-1"), stored("b", id="abc-2"), stored("c", id="abd-1")]
    )
    assert store.ids_with_prefix("abc") == ["abc-1", "abc-2"]
    assert store.ids_with_prefix("abd") == ["abd-1"]
    assert store.ids_with_prefix("ab", limit=2) == ["abc-1", "abc-2"]
    assert store.ids_with_prefix("x") == []


def test_find_by_content_hash(store: SQLiteStore) -> None:
    a = stored("Same words", status="active")
    b = stored("  same   WORDS ", status="retracted")
    store.insert_memories([a, b, stored("other")])
    assert a.memory.content_hash == b.memory.content_hash
    assert _ids(store.find_by_content_hash(a.memory.content_hash)) == [a.memory.id, b.memory.id]
    by_hash = store.find_by_content_hashes([a.memory.content_hash, "sha256:none"], ("active",))
    assert {h: _ids(v) for h, v in by_hash.items()} == {a.memory.content_hash: [a.memory.id]}


def test_query_filters(store: SQLiteStore) -> None:
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


def test_query_order_limit_offset(store: SQLiteStore) -> None:
    items = [stored(f"m{i}", created_at=f"2025-01-0{i + 1}T00:00:00Z") for i in range(5)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    assert _ids(store.query_memories(MemoryQuery(limit=2))) == [ids[4], ids[3]]
    assert _ids(store.query_memories(MemoryQuery(limit=2, offset=2))) == [ids[2], ids[1]]
    assert _ids(store.query_memories(MemoryQuery(order="created", limit=None))) == ids
    assert store.count_memories(MemoryQuery(limit=1)) == 5


def test_iter_memories_streams_everything(store: SQLiteStore) -> None:
    items = [stored(f"memory number {i}") for i in range(25)]
    store.insert_memories(items)
    got = list(store.iter_memories(MemoryQuery(limit=3), batch=4))
    assert sorted(_ids(got)) == sorted(s.memory.id for s in items)
    assert dict(store.memory_hashes()) == {s.memory.id: s.memory.content_hash for s in items}


def test_delete_memory_removes_everything_about_it(store: SQLiteStore) -> None:
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


def test_memory_stats(store: SQLiteStore) -> None:
    store.insert_memories(
        [
            stored("a", type="fact"),
            stored("b", type="fact", status="retracted"),
            stored("c", type="skill", platform="claude", extraction_method=None),
        ]
    )
    stats = store.memory_stats()
    assert stats["type"] == {"fact": 2, "skill": 1}
    assert stats["status"] == {"active": 2, "retracted": 1}
    assert stats["platform"] == {"chatgpt": 2, "claude": 1}
    assert stats["extraction_method"] == {"api_export": 2, "none": 1}


# -- full-text search ------------------------------------------------------------------------


def test_search_english_and_portuguese_with_diacritics(store: SQLiteStore) -> None:
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


def test_search_ranks_by_bm25(store: SQLiteStore) -> None:
    weak = stored("A long statement that mentions python once among many other words here")
    strong = stored("python python python")
    store.insert_memories([weak, strong])
    got = store.search(MemoryQuery(text="python", order="relevance"))
    assert [h.memory.memory.id for h in got] == [strong.memory.id, weak.memory.id]
    assert got[0].score > got[1].score


def test_search_filters_status_and_other_filters(store: SQLiteStore) -> None:
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


def test_search_in_time_order_and_paging(store: SQLiteStore) -> None:
    items = [stored(f"coffee {i}", created_at=f"2025-01-0{i + 1}T00:00:00Z") for i in range(4)]
    store.insert_memories(items)
    ids = [s.memory.id for s in items]
    got = store.search(MemoryQuery(text="coffee", order="-created", limit=2))
    assert [h.memory.memory.id for h in got] == [ids[3], ids[2]]
    got = store.search(MemoryQuery(text="coffee", order="created", limit=2, offset=1))
    assert [h.memory.memory.id for h in got] == [ids[1], ids[2]]
    assert len(store.search(MemoryQuery(text="coffee", order="relevance", limit=3))) == 3
    assert store.search(MemoryQuery(text="coffee", limit=0)) == []


def test_search_candidate_cap_ranks_recent_matches(store: SQLiteStore) -> None:
    """A query matching more than `search_candidates` memories ranks the most recent ones."""
    store.search_candidates = 3
    items = [stored(f"word {'word ' * (i % 3)}{i}") for i in range(6)]
    store.insert_memories(items)
    got = store.search(MemoryQuery(text="word", order="relevance", limit=None))
    assert {h.memory.memory.id for h in got} == {s.memory.id for s in items[3:]}


def test_search_equals_a_plain_bm25_reference(tmp_path: Path) -> None:
    """Every way `search` narrows its candidates (status in the index; other filters as a list
    of passing memories; none) ranks exactly what a plain query does: bm25 of the words over
    every match, the filters tested on each memory, the `search_candidates` newest kept."""
    import random

    rng = random.Random(7)
    words = ["lisboa", "porto", "café", "chá", "python", "rust", "gato", "cão"]
    s = make_store(tmp_path / "vault.db")
    s.search_candidates = 15
    s.insert_memories(
        [
            stored(
                " ".join(rng.choices(words, k=rng.randint(1, 6))) + f" n{i}",
                type=rng.choice(["fact", "preference", "skill"]),
                status=rng.choice(["active", "active", "active", "retracted", "archived"]),
                tags=rng.sample(["home", "work", "food"], rng.randint(0, 2)),
                platform=rng.choice(["chatgpt", "claude"]),
                summary=rng.choice([None, "lisboa", "rust"]),
            )
            for i in range(300)
        ]
    )
    seq_of = dict(s.execute_raw("SELECT id, seq FROM memories"))
    for _ in range(150):
        query = MemoryQuery(
            text=" ".join(rng.sample(words, rng.randint(1, 2))),
            statuses=rng.choice([None, ("active",), ("active", "archived"), ("retracted",)]),
            types=rng.choice([(), ("fact",)]),
            tags=rng.choice([(), ("work",)]),
            platforms=rng.choice([(), ("claude",)]),
            order="relevance",
            limit=rng.choice([5, 50, None]),
            offset=rng.choice([0, 3]),
        )
        passing = {
            seq_of[m.memory.id]
            for m in s.query_memories(replace(query, text=None, limit=None, offset=0))
        }
        scores = s.execute_raw(
            "SELECT rowid, bm25(memories_fts, 1.0, 1.0, 1.0, 0.0) FROM memories_fts "
            "WHERE memories_fts MATCH ?",
            (fts_query(query.text or ""),),
        )
        candidates = sorted((r for r in scores if r[0] in passing), key=lambda r: -r[0])
        ranked = sorted(candidates[: s.search_candidates], key=lambda r: (r[1], -r[0]))
        end = None if query.limit is None else query.offset + query.limit
        expected = [(seq, -score) for seq, score in ranked[query.offset : end]]
        got = [(seq_of[h.memory.memory.id], h.score) for h in s.search(query)]
        assert got == expected, query
    s.close()


def test_fts_query_is_always_safe() -> None:
    assert fts_query("") is None
    assert fts_query("  ,;  ") is None
    assert fts_query("a", ()) is None
    assert fts_query('acao "lisboa" NOT x') == (
        '{content summary tags} : ("acao" "lisboa" "NOT" "x")'
    )
    assert fts_query("caf*") == '{content summary tags} : ("caf"*)'
    assert fts_query("x", ("active",)) == '{content summary tags} : ("x") AND status : ("active")'


@pytest.fixture(scope="module")
def search_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    s = make_store(tmp_path_factory.mktemp("search") / "vault.db")
    s.insert_memories([stored("Ação em Lisboa")])
    yield s
    s.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=40))
def test_any_search_text_is_accepted(search_store: SQLiteStore, text: str) -> None:
    """No user input is an FTS5 syntax error (PAM content is free text in any language)."""
    search_store.search(MemoryQuery(text=text, order="relevance"))
    search_store.search(MemoryQuery(text=text, order="-created"))
    search_store.query_memories(MemoryQuery(text=text))
    search_store.count_memories(MemoryQuery(text=text))


# -- owner, meta, relations, conversations, embeddings, exports, audit, keys ----------------


def test_meta_and_owner(store: SQLiteStore) -> None:
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


def test_relations(store: SQLiteStore) -> None:
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


def test_conversations(store: SQLiteStore) -> None:
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


def _conversation(text: str = "olá") -> StoredConversation:
    return StoredConversation(
        id="conv-1",
        platform="chatgpt",
        document={"id": "conv-1", "messages": [{"role": "user", "content": text}]},
        title="Hello",
        message_count=1,
    )


def test_conversation_documents_are_stored_as_zstd_frames(store: SQLiteStore) -> None:
    """Schema version 2: the document column holds the zstd frame of the sorted-key JSON,
    a fraction of the text's size for a long conversation."""
    long = _conversation(" ".join(f"message {n} of a long conversation" for n in range(2000)))
    store.put_conversation(long)
    ((kind, value),) = store.execute_raw("SELECT typeof(document), document FROM conversations")
    assert kind == "blob"
    assert value.startswith(documents.MAGIC)
    text = orjson.dumps(long.document, option=orjson.OPT_SORT_KEYS)
    assert zstandard.ZstdDecompressor().decompress(value) == text
    assert len(value) < len(text) / 3
    assert store.get_conversation("conv-1") == long


def test_conversation_documents_a_version_1_vault_kept_as_text_are_read(
    store: SQLiteStore,
) -> None:
    """A document written before schema version 2 (JSON text) reads as before; storing the
    same document again is no change, and a changed one is stored as a frame."""
    conversation = _conversation()
    store.put_conversation(conversation)
    text = orjson.dumps(conversation.document, option=orjson.OPT_SORT_KEYS).decode()
    store.execute_raw("UPDATE conversations SET document = ?", (text,))
    assert store.get_conversation("conv-1") == conversation
    assert [c.document for c in store.iter_conversations()] == [conversation.document]
    assert store.put_conversation(conversation) is False
    assert store.execute_raw("SELECT typeof(document) FROM conversations") == [("text",)]
    assert store.put_conversation(_conversation("oi")) is True
    assert store.execute_raw("SELECT typeof(document) FROM conversations") == [("blob",)]
    assert store.get_conversation("conv-1") == _conversation("oi")


def test_a_version_1_vault_is_migrated_to_version_2_and_keeps_its_documents(
    tmp_path: Path,
) -> None:
    s = make_store(tmp_path / "vault.db")
    conversation = _conversation()
    s.put_conversation(conversation)
    text = orjson.dumps(conversation.document, option=orjson.OPT_SORT_KEYS).decode()
    s.execute_raw("UPDATE conversations SET document = ?", (text,))
    # Back to version 1: what the later migrations (2 changed no table; 3) added goes.
    for statement in (
        "DROP TRIGGER memories_aimem_state",
        "DROP TABLE aimem_chunks",
        "DROP TABLE aimem_aliases",
        "DELETE FROM schema_migrations WHERE version >= 2",
        "PRAGMA user_version = 1",
    ):
        s.execute_raw(statement)
    s.close()
    s = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
    try:
        assert s.schema_version == LATEST >= 2
        assert [v for v, _, _ in s.migrations()] == list(range(1, LATEST + 1))
        assert s.get_conversation("conv-1") == conversation
    finally:
        s.close()


def test_encoded_document_is_the_frame_the_store_keeps(store: SQLiteStore) -> None:
    """An importer's `EncodedDocument` is stored as it is and reads back as the document."""
    conversation = _conversation()
    encoded = documents.EncodedDocument.of(conversation.document)
    assert dict(encoded) == conversation.document
    assert documents.document_frame(encoded) is encoded.frame
    store.add_conversations([replace(conversation, document=encoded)])
    assert store.execute_raw("SELECT document FROM conversations") == [(encoded.frame,)]
    assert store.get_conversation("conv-1") == conversation


def test_a_stored_document_that_is_not_an_object_is_an_error() -> None:
    with pytest.raises(TypeError, match="must be a JSON object"):
        documents.load_document(documents.compress_json(b"[1, 2]"))


def test_embeddings(store: SQLiteStore) -> None:
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


def test_exports_registry(store: SQLiteStore) -> None:
    full = ExportRecord("x1", "exported", "full", "2025-01-01T00:00:00Z", memory_count=3)
    delta = ExportRecord(
        "x2", "imported", "incremental", "2025-02-01T00:00:00Z", base_export_id="x1"
    )
    store.record_export(full)
    store.record_export(delta)
    assert store.list_exports() == [full, delta]


def test_audit_storage(store: SQLiteStore) -> None:
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


def test_keys(store: SQLiteStore) -> None:
    key = KeyRecord("k1", "Ed25519", b"pub", b"secret", "2025-01-01T00:00:00Z", "did:key:z")
    store.put_key(key)
    public_only = KeyRecord("k2", "ES256", b"pub2", None, "2025-02-01T00:00:00Z")
    store.put_key(public_only)
    assert store.get_key("k1") == key
    assert store.get_key("nope") is None
    assert store.list_keys() == [key, public_only]


def test_size_bytes(store: SQLiteStore) -> None:
    size = store.size_bytes()
    assert size is not None and size > 0


def test_closed_store_refuses_writes(tmp_path: Path) -> None:
    s = make_store(tmp_path / "vault.db")
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"), s.transaction():
        pass


# -- the fast JSON codec -------------------------------------------------------------------


def test_codec_covers_every_member_conversion_of_the_model() -> None:
    """If the model gains a nested member, the codec's table must learn it too."""
    from memvault.model import Block

    for cls, table in codec.CONVERSIONS.items():
        assert issubclass(cls, Block)
        assert set(cls._CONVERT) == set(table), cls.__name__


def test_codec_equals_the_model_on_the_official_example() -> None:
    from pamdocs import OFFICIAL_EXAMPLES

    document = orjson.loads((OFFICIAL_EXAMPLES / "example-memory-store.json").read_bytes())
    for data in document["memories"]:
        memory = Memory.from_json(data)
        assert codec.memory_to_json(memory) == memory.to_json() == data
        assert codec.memory_from_json(data) == memory
        assert codec.load_memory(codec.dump_memory(memory)) == memory


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
maybe = st.sampled_from([MISSING, None])


@settings(max_examples=150, deadline=None)
@given(
    summary=st.one_of(maybe, st.text(max_size=5)),
    tags=st.one_of(st.just(MISSING), st.lists(st.text(max_size=3), max_size=3)),
    extra=st.dictionaries(st.sampled_from(["x-a", "x-b"]), json_values, max_size=2),
    confidence=st.one_of(
        st.just(MISSING),
        st.fixed_dictionaries(
            {},
            optional={
                "initial": st.floats(0, 1),
                "decay_model": st.one_of(st.none(), st.just("none")),
                "x-c": json_values,
            },
        ),
    ),
    access=st.one_of(
        st.just(MISSING),
        st.fixed_dictionaries(
            {},
            optional={
                "visibility": st.just("shared"),
                "shared_with": st.lists(
                    st.fixed_dictionaries(
                        {"entity": st.text(max_size=3), "permissions": st.just(["read"])}
                    ),
                    max_size=2,
                ),
            },
        ),
    ),
    metadata=st.one_of(st.just(MISSING), st.dictionaries(st.text(max_size=3), json_values)),
)
def test_codec_equals_the_model_on_generated_memories(
    summary: object,
    tags: object,
    extra: dict[str, object],
    confidence: object,
    access: object,
    metadata: object,
) -> None:
    data: dict[str, object] = {
        "id": "m",
        "type": "fact",
        "content": "c",
        "content_hash": "h",
        "temporal": {"created_at": "t", "x-t": 1},
        "provenance": {"platform": "pp"},
    }
    for key, value in (
        ("summary", summary),
        ("tags", tags),
        ("confidence", confidence),
        ("access", access),
        ("metadata", metadata),
    ):
        if value is not MISSING:
            data[key] = value
    data.update(extra)
    memory = Memory.from_json(data)
    assert codec.memory_from_json(data) == memory
    assert codec.memory_to_json(memory) == memory.to_json() == data


def test_a_savepoint_finished_after_the_store_closed_says_nothing(tmp_path: Path) -> None:
    """Ctrl-C can leave a nested transaction's generator open until it is collected, after
    the CLI closed the vault: its rollback must not raise on the closed connection (it printed
    "Exception ignored … Cannot operate on a closed database" after "interrupted")."""
    store = make_store(tmp_path / "v.db")
    outer = store.transaction()
    outer.__enter__()
    inner = store.transaction()
    inner.__enter__()
    store.close()
    # False: the interrupt goes on as it came, and no other error is raised in its place
    assert inner.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None) is False
    assert outer.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None) is False
