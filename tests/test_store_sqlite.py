"""What only the SQLCipher store does, on real files: encryption at rest (PAM §21.1:
"Implementations MUST encrypt PAM files at rest when stored locally"), its files, passphrase
and cipher parameters, migrations, locking between processes, FTS5 internals, compressed
conversation documents, its read connections. What every backend must do is in
test_store_contract.py."""

from __future__ import annotations

import stat
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import orjson
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.errors import VaultExists, VaultNotFound
from memvault.model import MISSING, Memory
from memvault.store import codec, documents
from memvault.store.base import (
    MemoryQuery,
    StoredConversation,
    StoredMemory,
    StoreError,
    WrongPassphrase,
)
from memvault.store.migrations import LATEST, MIGRATIONS
from memvault.store.sqlite import DEFAULT_KDF_ITER, KDF_ITER_ENV, SQLiteStore
from memvault.store.sqlite_memory_text import memory_match
from storekit import answered_during_write
from vaultkit import PASSPHRASE, make_store, raw_bytes, stored

T = TypeVar("T")


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


# -- transactions ------------------------------------------------------------------------------


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


def _read_while_writing(store: SQLiteStore, read: Callable[[], T]) -> T:
    """`read` on another thread while a third holds a write transaction: it runs on one of
    the store's read connections (the writer's is taken)."""

    def write(hold: Callable[[], None]) -> None:
        with store.transaction():
            hold()

    return answered_during_write(write, read)


def test_read_connections_are_reopened_with_a_new_passphrase(tmp_path: Path) -> None:
    """The pooled read connections hold the key: a passphrase change closes them (SQLCipher
    re-keys only a database no other connection has open) and later reads open new ones
    with the new passphrase."""
    s = make_store(tmp_path / "vault.db")
    try:
        memory = stored("Read on another thread")
        s.insert_memories([memory])
        assert _read_while_writing(s, lambda: s.get_memory(memory.memory.id)) == memory
        s.rekey("a new passphrase")
        assert _read_while_writing(s, lambda: s.count_memories(MemoryQuery())) == 1
        s.check_passphrase("a new passphrase")
        with pytest.raises(WrongPassphrase):
            s.check_passphrase(PASSPHRASE)
    finally:
        s.close()
    with pytest.raises(StoreError, match="closed"):
        s.get_memory(memory.memory.id)


# -- full-text search ------------------------------------------------------------------------


def test_search_candidate_cap_ranks_recent_matches(store: SQLiteStore) -> None:
    """A query matching more than `search_candidates` memories ranks the most recent ones."""
    store.search_candidates = 3
    items = [stored(f"word {'word ' * (i % 3)}{i}") for i in range(6)]
    store.insert_memories(items)
    got = store.search(MemoryQuery(text="word", order="relevance", limit=None))
    assert {h.memory.memory.id for h in got} == {s.memory.id for s in items[3:]}


def test_search_equals_a_plain_bm25_reference(tmp_path: Path) -> None:
    """`search` ranks exactly what a plain query of the memory passages of the recall index
    does (migration 8): bm25 over every match, the filters tested on each memory, the
    `search_candidates` newest passages kept."""
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
        text = query.text or ""
        scores = s.execute_raw(
            "SELECT f.rowid, p.memory_seq, bm25(recall_fts, 1.0, 0.5) FROM recall_fts f "
            "JOIN recall_passages p ON p.id = f.rowid WHERE recall_fts MATCH ? "
            "AND p.kind = 'memory'",
            (s._read(lambda conn, text=text: memory_match(conn, text)),),
        )
        candidates = sorted((r for r in scores if r[1] in passing), key=lambda r: -r[0])
        ranked = sorted(candidates[: s.search_candidates], key=lambda r: (r[2], -r[1]))
        end = None if query.limit is None else query.offset + query.limit
        expected = [(seq, -score) for _, seq, score in ranked[query.offset : end]]
        got = [(seq_of[h.memory.memory.id], h.score) for h in s.search(query)]
        assert got == expected, query
    s.close()


def test_memory_match_is_always_safe_and_needs_every_word(store: SQLiteStore) -> None:
    """The memory text query on the recall index (migration 8): every word by its stems (AND
    of ORs), a starred word as a prefix, stop words only when nothing else is left, FTS5
    syntax in the text taken as words."""

    def match(text: str) -> str | None:
        return store._read(lambda conn: memory_match(conn, text))

    assert match("") is None
    assert match("  ,;  ") is None
    assert match('acao "lisboa" NOT x') == (
        '{body context} : (("acao" OR "aca") AND ("lisboa" OR "lisbo") AND ("x"))'
    )
    assert match("caf*") == '{body context} : (("caf"*))'
    assert match("the cafés") == '{body context} : (("cafe" OR "caf"))'
    assert match("the") == '{body context} : (("the"))'


# -- conversations ------------------------------------------------------------------------


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
    # Back to version 1: what the later migrations (2 changed no table; 3; 4; 6; 7; 13) added goes;
    # it all comes back on opening.
    for statement in (
        *(
            f"DROP TRIGGER {t}"
            for t in (
                "memories_aimem_cache_update",
                "memories_aimem_cache_delete",
                "relations_aimem_cache_insert",
                "relations_aimem_cache_update",
                "relations_aimem_cache_delete",
            )
        ),
        *(
            f"DROP TRIGGER {t}"
            for t in (
                "memories_aimem_pending_insert",
                "memories_aimem_pending_update",
                "memories_aimem_pending_delete",
                "relations_aimem_pending_insert",
                "relations_aimem_pending_update",
                "relations_aimem_pending_delete",
            )
        ),
        "DROP TABLE aimem_export_pending",
        "DROP TABLE aimem_export_graph_generation",
        "DROP TABLE aimem_export_cache",
        "DROP TABLE aimem_export_cache_generation",
        "DROP TRIGGER memories_aimem_state",
        "DROP TABLE aimem_chunks",
        "DROP TABLE aimem_aliases",
        *(
            f"DROP TABLE {t}"
            for t in (
                "recall_passages",
                "recall_conversations",
                "recall_fts",
                "recall_models",
                "recall_vectors",
            )
        ),
        # Version 1's full-text index of memories (migration 8 dropped it).
        "CREATE VIEW memories_fts_source AS SELECT seq, json_extract(document, '$.content') "
        "AS content, json_extract(document, '$.summary') AS summary, tags_text AS tags, status "
        "FROM memories",
        "CREATE VIRTUAL TABLE memories_fts USING fts5(content, summary, tags, status, "
        "content = 'memories_fts_source', content_rowid = 'seq', "
        "tokenize = 'unicode61 remove_diacritics 2')",
        "DELETE FROM schema_migrations WHERE version >= 2",
        "PRAGMA user_version = 1",
    ):
        s.execute_raw(statement)
    s.close()
    s = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
    try:
        assert s.schema_version == LATEST >= 2
        assert [v for v, _, _ in s.migrations()] == [m.version for m in MIGRATIONS]
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


def test_size_bytes(store: SQLiteStore) -> None:
    size = store.size_bytes()
    assert size is not None and size > 0


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
