"""Erasure (AIMEM §5.2): complete — no row, index entry, relation, embedding or per-memory
AIMEM state left — and durable: no recoverable copy of the content in the vault's files,
checked by decrypting every page of the database and its write-ahead log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from aimemkit import bundle, chunk, write
from memvault.errors import AccessDenied, InvalidInput, NotFound
from memvault.exchange.aimem import import_bundle
from memvault.paths import database_path
from memvault.store.base import MemoryQuery, StoredEmbedding
from memvault.vault import Vault
from pagescan import recoverable
from vaultkit import PASSPHRASE, make_vault

SECRET = "quokkazebra"
#: The content of the memory to erase: a word found nowhere else, and a long plain phrase.
CONTENT = f"The user's therapist is Dr {SECRET.capitalize()} at the riverside clinic"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    yield v
    v.close()


def _db(vault: Vault) -> Path:
    assert vault.home is not None
    return database_path(vault.home)


def _fill(vault: Vault, first: int, count: int) -> None:
    for n in range(first, first + count):
        vault.add(f"Ordinary memory number {n} about gardening and tomatoes", "fact")


def test_aimem_5_2_erased_content_is_not_recoverable_from_the_files(vault: Vault) -> None:
    """AIMEM §5.2: after erasure no decrypted page of the database or its write-ahead log
    holds the memory's content or its terms — not a zeroed cell, not a stale full-text
    segment, not an old log frame."""
    _fill(vault, 0, 60)
    target = vault.add(CONTENT, "fact", tags=["health", SECRET + "tag"]).memory
    _fill(vault, 60, 20)
    vault.store.put_embedding(
        StoredEmbedding("emb-1", target.id, "m", 2, "2026-01-01T00:00:00Z", b"QUOKKAVEC")
    )
    db = _db(vault)
    # The scan sees what is there: before erasure the content is found.
    assert recoverable(db, PASSPHRASE, SECRET.encode()) > 0
    assert recoverable(db, PASSPHRASE, b"QUOKKAVEC") > 0
    report = vault.erase(target.id)
    assert report.erased == (target.id,) and report.durable
    needles = (SECRET.encode(), SECRET.capitalize().encode(), b"riverside clinic", b"QUOKKAVEC")
    for needle in needles:
        assert recoverable(db, PASSPHRASE, needle) == 0, needle
    # The others are intact and still found by full-text search.
    assert len(vault.search("tomatoes", MemoryQuery(limit=200))) == 80
    assert vault.search(SECRET) == []
    assert vault.check_integrity() == []


def test_aimem_5_2_erasure_removes_per_memory_aimem_state(vault: Vault, tmp_path: Path) -> None:
    """AIMEM §5.2: what the AIMEM import keeps about a memory — the digest of the chunk it
    came from, and the alias of a chunk merged into it — goes with it."""
    same = "Allergic to penicillin."
    doc = bundle([chunk("c1", same), chunk("c2", same), chunk("c3", "Likes tea.")])
    import_bundle(vault, write(tmp_path / "in.aimem.json", doc))
    first = "urn:aimem:memoryai-prod:c1"
    merged = "urn:aimem:memoryai-prod:c2"
    other = "urn:aimem:memoryai-prod:c3"
    store = vault.store
    assert set(store.chunk_digests([first, merged, other])) == {first, other}
    assert store.aliases([merged]) == {merged: first}
    vault.erase(first)
    assert set(store.chunk_digests([first, merged, other])) == {other}
    assert store.aliases([merged, first]) == {}
    assert store.meta_keys("aimem.") == []
    with pytest.raises(NotFound):
        vault.get(first)
    # Imported again, the chunk comes back as a new memory (docs/decisions.md), audited.
    again = import_bundle(vault, tmp_path / "in.aimem.json")
    assert again.created == 1 and vault.get(first).content == same
    assert vault.verify_audit().ok


def test_aimem_5_2_erase_many_is_all_or_nothing(vault: Vault) -> None:
    """AIMEM §5.2: an erasure request names memories by id or unique prefix; one it cannot
    resolve and nothing is erased."""
    a = vault.add("First to erase", "fact").memory
    b = vault.add("Second to erase", "fact").memory
    kept = vault.add("Kept", "fact").memory
    audit_before = len(vault.audit_log())
    with pytest.raises(NotFound):
        vault.erase_many([a.id, "ffffffffffff"])
    assert vault.store.count_memories(MemoryQuery()) == 3
    assert len(vault.audit_log()) == audit_before
    report = vault.erase_many([a.id[:12], b.id, a.id])
    assert report.erased == (a.id, b.id) and report.durable
    assert [m.id for m in vault.list().items] == [kept.id]
    erased = [e for e in vault.audit_log() if e.action == "erase"]
    assert [(e.memory_id, e.content_hash) for e in erased] == [
        (a.id, a.content_hash),
        (b.id, b.content_hash),
    ]
    # The audit log says that they were erased, never what they said.
    assert all("erase" not in str(e.details) for e in erased)
    assert vault.verify_audit().ok
    with pytest.raises(InvalidInput):
        vault.erase_many([])


def test_aimem_5_2_an_erasure_request_is_the_owners(vault: Vault) -> None:
    """AIMEM §5.2 speaks of the tenant's request: an agent cannot make one, even one with
    the "delete" grant (which lets it erase one memory with `erase`, PAM §9)."""
    memory = vault.add("Shared note", "fact").memory
    vault.grant(memory.id, "agent-d", ["read", "delete"])
    with pytest.raises(AccessDenied, match="owner"):
        vault.acting_as("agent-d").erase_many([memory.id])
    assert vault.get(memory.id).id == memory.id
    assert vault.acting_as("agent-d").erase(memory.id).erased == (memory.id,)


def test_aimem_5_2_erase_inside_a_transaction_is_not_reported_durable(vault: Vault) -> None:
    """Inside a caller's transaction the deletion is not committed yet, so no scrub can
    make it durable: the report says so, and a scrub after the commit does it."""
    memory = vault.add(CONTENT, "fact").memory
    with vault.store.transaction():
        report = vault.erase(memory.id)
    assert report.erased == (memory.id,) and report.durable is False
    assert vault.store.scrub() is True
    assert recoverable(_db(vault), PASSPHRASE, SECRET.encode()) == 0


def _stored_rows(vault: Vault, memory_id: str) -> tuple[list[bytes], list[bytes]]:
    """(the exact stored bytes of a memory's rows — its document, its recall passage's text
    and vectors, its embedding — and those of every other memory's and of the audit log)."""
    mine: list[bytes] = []
    others: list[bytes] = []
    with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
        for seq, mid, document in conn.execute("SELECT seq, id, document FROM memories"):
            rows = [str(document).encode()]
            passages = "SELECT id FROM recall_passages WHERE memory_seq = ?"
            rows += [
                str(r[0]).encode()
                for r in conn.execute(
                    "SELECT text FROM recall_passages WHERE memory_seq = ?", (seq,)
                )
            ]
            rows += [
                bytes(r[0])
                for r in conn.execute(
                    f"SELECT vector FROM recall_vectors WHERE passage_id IN ({passages})", (seq,)
                )
            ]
            rows += [
                bytes(r[0])
                for r in conn.execute("SELECT vector FROM embeddings WHERE memory_id = ?", (mid,))
            ]
            (mine if mid == memory_id else others).extend(rows)
        # What stays by design: the audit log keeps the id and content hash (§5.2).
        others += [repr(tuple(r)).encode() for r in conn.execute("SELECT * FROM audit_log")]
    return mine, others


def test_aimem_5_2_an_erased_memorys_stored_bytes_are_gone_from_the_files(
    vault: Vault,
) -> None:
    """AIMEM §5.2: not only the words — no piece of the exact bytes the memory's rows were
    stored as (its JSON document, its recall passage, the vectors of both its embeddings) is
    left in any decrypted page, used or free, or in the write-ahead log."""
    from embedserver import MODEL, serve
    from memvault.recall.embedders import EmbedderSpec
    from pagescan import found_slices, row_slices

    _fill(vault, 0, 40)
    target = vault.add(CONTENT, "fact", tags=["health"], summary="Sees a therapist weekly").memory
    _fill(vault, 40, 10)
    vault.store.put_embedding(
        StoredEmbedding("emb-1", target.id, "m", 4, "2026-01-01T00:00:00Z", bytes(range(7, 71)))
    )
    with serve() as server:
        vault.embed(EmbedderSpec("openai", MODEL, server.url))
    mine, others = _stored_rows(vault, target.id)
    assert len(mine) == 4  # document, passage, recall vector, embedding
    pieces = [p for row in mine for p in row_slices(row, others)]
    db = _db(vault)
    assert len(found_slices(db, PASSPHRASE, pieces)) > len(pieces) // 2
    assert vault.erase(target.id).durable
    assert found_slices(db, PASSPHRASE, pieces) == []
    assert vault.verify_audit().ok


def test_aimem_5_1_explicit_erasure_is_honoured_for_dna_class_memories(vault: Vault) -> None:
    """AIMEM §5.1: background work may not delete a DNA-class memory, but the owner's
    explicit erasure is honoured — one memory, a request for several, or everything."""
    from memvault.errors import DNAProtected

    identity = vault.add("Name: Ana Quokkazebra", "identity").memory
    pinned = vault.add("Prefers tea to coffee", "preference").memory
    decision = vault.add("Always answer in Portuguese", "instruction").memory
    assert identity.is_dna and pinned.is_dna and decision.is_dna
    with pytest.raises(DNAProtected):
        vault.background().erase(identity.id)
    assert vault.erase(identity.id).erased == (identity.id,)
    assert vault.erase_many([pinned.id]).erased == (pinned.id,)
    assert vault.erase_everything().counts["memories"] == 1
    for memory in (identity, pinned, decision):
        with pytest.raises(NotFound):
            vault.get(memory.id)
    assert recoverable(_db(vault), PASSPHRASE, SECRET.capitalize().encode()) == 0


def test_aimem_5_2_migration_5_turns_on_fts5_secure_delete_in_an_older_vault(
    tmp_path: Path,
) -> None:
    """A vault made by memvault 0.1.0 (schema 2) is migrated on opening: the full-text index
    gets FTS5's `secure-delete` (migration 5; the memories' own index it was also set on is
    gone since migration 8), and an erasure in it leaves no copy."""
    import shutil

    from memvault.store.migrations import LATEST

    fixtures = Path(__file__).resolve().parent / "fixtures"
    home = tmp_path / "vault"
    shutil.copytree(fixtures / "vault-0.1.0", home)
    passphrase = "fixture-vault-0.1.0"
    with Vault.open(home, passphrase) as vault:
        assert vault.store.schema_version == LATEST >= 5
        with vault.store.index_connection() as conn:  # type: ignore[attr-defined]
            config = dict(conn.execute("SELECT k, v FROM recall_fts_config").fetchall())
            assert config.get("secure-delete") == 1
        memory = vault.add(CONTENT, "fact").memory
        assert vault.erase(memory.id).durable
        assert recoverable(database_path(home), passphrase, SECRET.encode()) == 0
