"""The tamper-evident audit log: every change is an entry, entries never hold content (AIMEM
§5.2), and `verify_audit` detects an edited, removed or reordered entry. The tampering tests
change the SQLite rows directly, as an attacker with the passphrase could."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memvault.audit import GENESIS, _quick_hash, entry_hash
from memvault.canonical import jcs_dumps
from memvault.store.base import StoredMemory
from memvault.store.sqlite import SQLiteStore
from memvault.vault import MemoryQuery, Vault
from vaultkit import make_vault, pam_memory


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    a = v.add("User lives in Porto", "fact", tags=["home"]).memory
    b = v.add("User lives in Lisbon", "fact").memory
    v.supersede(a.id, b.id)
    v.add("Prefers tea", "preference")
    v.relate(b.id, a.id, "related_to")
    yield v
    v.close()


def raw(v: Vault, sql: str, *params: object) -> list[object]:
    store = v.store
    assert isinstance(store, SQLiteStore)
    return store.execute_raw(sql, params)


def problems(v: Vault) -> list[str]:
    report = v.verify_audit()
    assert report.ok is (not report.problems)
    return report.problems


def test_every_change_appends_a_chained_entry(vault: Vault) -> None:
    actions = [e.action for e in vault.audit_log()]
    assert actions == ["init", "add", "add", "supersede", "add", "relate"]
    entries = vault.audit_log()
    assert entries[0].prev_hash == GENESIS
    for before, after in itertools.pairwise(entries):
        assert after.prev_hash == before.hash
        assert after.seq == before.seq + 1
    report = vault.verify_audit()
    assert report.ok and report.entries == 6 and report.head == entries[-1].hash


def test_entry_hash_is_sha256_of_rfc8785_without_hash(vault: Vault) -> None:
    import hashlib

    entry = vault.audit_log()[1]
    body = {
        "seq": entry.seq,
        "at": entry.at,
        "actor": entry.actor,
        "action": entry.action,
        "memory_id": entry.memory_id,
        "content_hash": entry.content_hash,
        "details": dict(entry.details),
        "prev_hash": entry.prev_hash,
    }
    assert entry.hash == "sha256:" + hashlib.sha256(jcs_dumps(body)).hexdigest()


@given(
    seq=st.integers(1, 2**40),
    text=st.text(),
    details=st.dictionaries(st.text(max_size=5), st.text(max_size=5) | st.integers(-5, 5)),
    memory_id=st.none() | st.text(max_size=8),
)
def test_fast_entry_hash_equals_the_reference(
    seq: int, text: str, details: dict[str, object], memory_id: str | None
) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates are refused by both
    reference = entry_hash(
        seq=seq,
        at="2026-01-01T00:00:00Z",
        actor=text,
        action="add",
        memory_id=memory_id,
        content_hash=None,
        details=details,
        prev_hash=GENESIS,
    )
    fast = _quick_hash(
        seq,
        orjson.dumps("2026-01-01T00:00:00Z"),
        text,
        "add",
        memory_id,
        None,
        jcs_dumps(details),
        GENESIS,
    )
    assert fast == reference


def test_aimem_5_2_entries_never_hold_content(tmp_path: Path) -> None:
    v = make_vault(tmp_path / "h")
    secret = "Xylophone-Quetzal-secret"
    memory = v.add(f"{secret} is the wifi password", "fact", tags=["wifi-zq"], summary="pw-sum")
    v.update(memory.memory.id, content=f"{secret} changed", summary="pw-sum-2")
    v.add(f"{secret} is the wifi password", "fact")
    v.erase(memory.memory.id)
    rows = raw(v, "SELECT * FROM audit_log")
    text = repr(rows)
    for needle in (secret, "wifi", "pw-sum", "password"):
        assert needle not in text
    v.close()


# -- tampering -----------------------------------------------------------------------------


def test_untouched_log_verifies(vault: Vault) -> None:
    assert problems(vault) == []


def test_edited_entry_is_detected(vault: Vault) -> None:
    raw(vault, "UPDATE audit_log SET actor = 'mallory' WHERE seq = 3")
    assert problems(vault) == ["entry 3 was altered: its hash does not match its fields"]


def test_edited_details_are_detected(vault: Vault) -> None:
    raw(vault, """UPDATE audit_log SET details = '{"type":"identity"}' WHERE seq = 2""")
    assert any("entry 2 was altered" in p for p in problems(vault))


def test_rehashed_edit_breaks_the_next_link(vault: Vault) -> None:
    entry = vault.audit_log()[2]
    forged = entry_hash(
        seq=entry.seq,
        at=entry.at,
        actor="mallory",
        action=entry.action,
        memory_id=entry.memory_id,
        content_hash=entry.content_hash,
        details=entry.details,
        prev_hash=entry.prev_hash,
    )
    raw(vault, "UPDATE audit_log SET actor = 'mallory', hash = ? WHERE seq = 3", forged)
    assert any("entry 4: the link to the previous entry is broken" in p for p in problems(vault))


def test_removed_entry_is_detected(vault: Vault) -> None:
    raw(vault, "DELETE FROM audit_log WHERE seq = 3")
    found = problems(vault)
    assert "entry 3 removed: the log jumps to entry 4" in found
    assert any("entry 4: the link" in p for p in found)


def test_removed_last_entry_is_detected(vault: Vault) -> None:
    raw(vault, "DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)")
    assert any("removed from the end" in p for p in problems(vault))


def test_removed_head_record_is_detected(vault: Vault) -> None:
    raw(vault, "DELETE FROM meta WHERE key = 'audit_head'")
    assert any("record of the last audit entry is missing" in p for p in problems(vault))


def test_reordered_entries_are_detected(vault: Vault) -> None:
    # Swap entries 3 and 4 by renumbering them.
    raw(vault, "UPDATE audit_log SET seq = -3 WHERE seq = 3")
    raw(vault, "UPDATE audit_log SET seq = 3 WHERE seq = 4")
    raw(vault, "UPDATE audit_log SET seq = 4 WHERE seq = -3")
    found = problems(vault)
    assert any("entry 3" in p and "altered" in p for p in found)
    assert any("link to the previous entry is broken" in p for p in found)


def test_swapped_contents_are_detected(vault: Vault) -> None:
    columns = "at, actor, action, memory_id, content_hash, details, prev_hash, hash"
    two = raw(vault, f"SELECT {columns} FROM audit_log WHERE seq = 2")[0]
    three = raw(vault, f"SELECT {columns} FROM audit_log WHERE seq = 3")[0]
    assignments = ", ".join(f"{c.strip()} = ?" for c in columns.split(","))
    raw(vault, f"UPDATE audit_log SET {assignments} WHERE seq = 2", *three)  # type: ignore[misc]
    raw(vault, f"UPDATE audit_log SET {assignments} WHERE seq = 3", *two)  # type: ignore[misc]
    found = problems(vault)
    assert any("entry 2" in p for p in found) and any("entry 3" in p for p in found)


def test_memory_changed_outside_the_vault_is_detected(vault: Vault) -> None:
    memory = vault.list().items[0]
    changed = memory.evolve(content="forged", content_hash="sha256:" + "1" * 64)
    store = vault.store
    store.update_memory(StoredMemory(changed))  # bypasses the vault, so no audit entry
    assert problems(vault) == [
        f"memory {memory.id}: its content hash differs from the one its last audit entry "
        "recorded (changed outside the vault)"
    ]


def test_memory_added_outside_the_vault_is_detected(vault: Vault) -> None:
    sneaky = pam_memory("sneaky", id="sneaky-1")
    vault.store.insert_memories([StoredMemory(sneaky)])
    assert problems(vault) == ["memory sneaky-1 has no audit entry (added outside the vault)"]


def test_erased_memory_coming_back_is_detected(vault: Vault) -> None:
    memory = vault.list().items[0]
    vault.erase(memory.id)
    assert problems(vault) == []
    vault.store.insert_memories([StoredMemory(memory)])
    assert problems(vault) == [f"memory {memory.id} was erased but is present again"]


def test_audit_log_filters_by_memory_and_limit(vault: Vault) -> None:
    memory = vault.list(MemoryQuery(statuses=None, order="created")).items[-1]
    entries = vault.audit_log(memory_id=memory.id[:8])
    assert entries and all(e.memory_id == memory.id for e in entries)
    assert len(vault.audit_log(limit=2)) == 2
    assert vault.audit_log(limit=0) == []


def test_equal_but_differently_typed_details_hash_apart(tmp_path: Path) -> None:
    """1, 1.0 and True are equal in Python but not in JSON; each entry hashes its own form."""
    from memvault.audit import AuditLog, PendingEntry, verify

    v = make_vault(tmp_path / "h")
    log = AuditLog(v.store)
    with v.store.transaction():
        log.append(
            [
                PendingEntry("note", "user", details={"n": 1}),
                PendingEntry("note", "user", details={"n": True}),
                PendingEntry("note", "user", details={"n": 1.5}),
                PendingEntry("note", "user", details={"n": [1, 2]}),
                PendingEntry("note", "user", details={"n": 1}),
            ],
            "2026-01-01T00:00:00Z",
        )
    assert verify(v.store).ok
    v.close()
