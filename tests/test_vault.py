"""The Vault, the one front door: every public method, its rules and its errors.

Sections cited: PAM §4-§9, §13, §16.3, §17, §21; AIMEM §5.1-§5.2. A failed operation must leave
the vault exactly as it was (`snapshot` compares every memory, relation and audit entry).
"""

from __future__ import annotations

import re
import stat
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memvault import vault as vault_module
from memvault.model import TRANSITIONS, AccessGrant, Memory
from memvault.store.base import ExportRecord, StoredConversation, StoredEmbedding
from memvault.store.migrations import LATEST
from memvault.vault import (
    UNCHANGED,
    AccessDenied,
    AmbiguousId,
    DNAProtected,
    HomeNotWritable,
    InvalidInput,
    InvalidTransition,
    MemoryQuery,
    NotFound,
    Vault,
    VaultError,
    VaultExists,
    VaultNotFound,
    WrongPassphrase,
)
from vaultkit import PASSPHRASE, assert_valid_pam, make_vault, pam_memory

TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
T0 = datetime(2026, 1, 10, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    yield v
    v.close()


def snapshot(v: Vault) -> tuple[Any, ...]:
    memories = sorted(
        (m.to_json() for m in v.iter_memories(MemoryQuery(statuses=None))),
        key=lambda m: m["id"],
    )
    relations = sorted((r.to_json() for r in v.store.iter_relations()), key=lambda r: r["id"])
    return memories, relations, [e.hash for e in v.store.iter_audit()], v.settings


def everything(v: Vault) -> list[Memory]:
    return list(v.iter_memories(MemoryQuery(statuses=None)))


# -- init and open ---------------------------------------------------------------------------


def test_init_creates_the_owner_and_private_files(tmp_path: Path) -> None:
    home = tmp_path / "a" / "home"
    with make_vault(home) as v:
        assert v.home == home
        assert uuid.UUID(v.owner.id).version == 4  # PAM §3.1: SHOULD be UUID v4
        assert TIMESTAMP.fullmatch(str(v.owner.created_at))
        assert v.stats()["audit_entries"] == 1
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for name in ("vault.db", "vault.params.json"):
        assert stat.S_IMODE((home / name).stat().st_mode) == 0o600


def test_init_with_owner_id_and_did(tmp_path: Path) -> None:
    did = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"
    with make_vault(tmp_path / "h", owner_id="owner-7", did=did) as v:
        assert (v.owner.id, v.owner.did) == ("owner-7", did)
    with Vault.open(tmp_path / "h", PASSPHRASE) as v:
        assert v.owner.did == did


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"did": "key:z6Mk"}, "did"),
        ({"owner_id": " "}, "owner_id"),
        ({"kdf_iter": 0}, "kdf_iter"),
    ],
)
def test_pam_17_init_rejects_bad_owner_fields(
    tmp_path: Path, kwargs: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        Vault.init(tmp_path / "h", PASSPHRASE, **kwargs)
    assert caught.value.field == field
    assert not (tmp_path / "h").exists()


def test_second_init_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    make_vault(tmp_path / "h").close()
    before = {p.name: p.read_bytes() for p in (tmp_path / "h").iterdir()}
    with pytest.raises(VaultExists, match="already exists"):
        make_vault(tmp_path / "h")
    assert {p.name: p.read_bytes() for p in (tmp_path / "h").iterdir()} == before


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(VaultNotFound, match="no vault at"):
        Vault.open(tmp_path / "nowhere", PASSPHRASE)
    make_vault(tmp_path / "h").close()
    with pytest.raises(WrongPassphrase, match="wrong passphrase"):
        Vault.open(tmp_path / "h", "guess")
    with pytest.raises(VaultError):  # every user-facing error is a VaultError
        Vault.open(tmp_path / "h", "guess")


def test_unwritable_home_names_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(HomeNotWritable, match=re.escape(str(blocker))):
        make_vault(blocker / "home")
    with pytest.raises(HomeNotWritable, match="not a directory"):
        make_vault(blocker)


def test_vault_reads_no_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The vault takes its home and passphrase as given (issue #16: local concerns live in
    `memvault.local`): the variables a front end reads change nothing here."""
    monkeypatch.setenv("MEMVAULT_HOME", str(tmp_path / "envhome"))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    with pytest.raises(InvalidInput, match="passphrase is required"):
        Vault.init(tmp_path / "h", "")
    make_vault(tmp_path / "h").close()
    with pytest.raises(InvalidInput, match="passphrase is required"):
        Vault.open(tmp_path / "h", "")
    with Vault.open(tmp_path / "h", PASSPHRASE) as v:
        assert v.home == tmp_path / "h"
    assert not (tmp_path / "envhome").exists()


def test_closed_vault_refuses_work(tmp_path: Path) -> None:
    v = make_vault(tmp_path / "h")
    v.close()
    with pytest.raises(VaultError):
        v.add("late", "fact")


# -- add ---------------------------------------------------------------------------------------


def test_pam_4_add_writes_a_complete_valid_memory(vault: Vault) -> None:
    result = vault.add(
        "User lives in Lisbon",
        "fact",
        tags=["home", "city"],
        summary="Lives in Lisbon",
        metadata={"language": "en", "domain": "personal"},
        valid_from="2024-03-01T00:00:00+01:00",
        conversation_ref="conv-1",
        now=T0,
    )
    memory = result.memory
    assert (result.created, result.reinforced) == (True, False)
    assert uuid.UUID(memory.id).version == 4
    assert memory.status == "active"
    assert memory.temporal.created_at == "2026-01-10T12:00:00Z"
    assert memory.temporal.updated_at is None  # never modified
    assert memory.temporal.valid_from == "2024-02-29T23:00:00Z"  # normalized to UTC
    assert memory.provenance.platform == "manual"
    assert memory.provenance.extraction_method == "manual"
    assert memory.provenance.conversation_ref == "conv-1"
    assert memory.confidence.initial == memory.confidence.current == 0.9  # type: ignore[union-attr]
    assert memory.confidence.decay_model == "time_exponential"  # type: ignore[union-attr]
    assert memory.access.visibility == "private"  # type: ignore[union-attr]
    assert vault.get(memory.id) == memory
    assert_valid_pam([memory])


def test_aimem_5_1_dna_memories_default_to_no_decay(vault: Vault) -> None:
    for memory_type, custom in [("identity", None), ("preference", None), ("custom", "pitfall")]:
        memory = vault.add(f"a {memory_type}", memory_type, custom_type=custom).memory
        assert memory.is_dna
        assert memory.confidence.decay_model == "none"  # type: ignore[union-attr]
    pinned = vault.add("pinned fact", "fact", metadata={"pinned": True}).memory
    assert pinned.confidence.decay_model == "none"  # type: ignore[union-attr]
    assert (
        vault.add("explicit", "identity", decay_model="time_linear").memory.confidence.decay_model
        == "time_linear"
    )  # type: ignore[union-attr]


def test_pam_6_same_content_reinforces_never_a_twin(vault: Vault) -> None:
    first = vault.add("User likes green tea", "preference", tags=["tea"], now=T0).memory
    later = T0 + timedelta(days=3)
    again = vault.add("  user LIKES   green tea ", "fact", tags=["drinks"], now=later)
    assert (again.created, again.reinforced) == (False, True)
    memory = again.memory
    assert memory.id == first.id
    assert memory.type == "preference"  # only confidence, timestamps and tags change
    assert memory.tags == ("tea", "drinks")
    assert memory.confidence.current > first.confidence.current  # type: ignore[union-attr,operator]
    assert memory.confidence.current == pytest.approx(0.9 + 0.1 * 0.2)  # type: ignore[union-attr]
    assert memory.confidence.last_reinforced == "2026-01-13T12:00:00Z"  # type: ignore[union-attr]
    assert memory.temporal.updated_at == "2026-01-13T12:00:00Z"
    assert vault.list().total == 1
    assert [e.action for e in vault.audit_log(memory_id=first.id)] == ["add", "reinforce"]
    assert_valid_pam([memory])


def test_pam_6_dedup_only_against_active_memories(vault: Vault) -> None:
    old = vault.add("User lives in Porto", "fact").memory
    vault.retract(old.id)
    fresh = vault.add("User lives in Porto", "fact")
    assert fresh.created and fresh.memory.id != old.id
    assert vault.list(MemoryQuery(statuses=None)).total == 2


@pytest.mark.parametrize(
    ("kwargs", "field", "rule"),
    [
        ({"type": "opinion"}, "type", "PAM memory type"),
        ({"type": "custom"}, "custom_type", "§5.1"),
        ({"type": "fact", "custom_type": "x"}, "custom_type", "§5.1"),
        ({"tags": ["Coffee"]}, "tags", r"\^\[a-z0-9\]"),
        ({"tags": ["-x"]}, "tags", "starting with"),
        ({"tags": "coffee"}, "tags", "list"),
        ({"platform": "ChatGPT"}, "platform", "§11.4"),
        ({"platform": "x"}, "platform", "2-32"),
        ({"extraction_method": "guess"}, "extraction_method", "§11.3"),
        ({"confidence": 1.5}, "confidence", r"\[0, 1\]"),
        ({"confidence": True}, "confidence", r"\[0, 1\]"),
        ({"decay_model": "fast"}, "decay_model", "§8.1"),
        ({"visibility": "friends"}, "visibility", "§9"),
        ({"exportable": "yes"}, "exportable", "true or false"),
        ({"shared_with": [("agent", ["admin"])]}, "permissions", "§9.1"),
        ({"shared_with": [("agent", [])]}, "permissions", "at least one"),
        ({"shared_with": [("user", ["read"])]}, "entity", "reserved"),
        ({"metadata": {"language": "english"}}, "metadata.language", "BCP 47"),
        ({"metadata": {"x": float("nan")}}, "metadata", "JSON"),
        ({"valid_from": "next tuesday"}, "valid_from", "ISO 8601"),
        ({"content": "   "}, "content", "§4.1"),
        ({"summary": 3}, "summary", "text"),
    ],
)
def test_add_rejects_bad_input_naming_field_and_rule(
    vault: Vault, kwargs: dict[str, Any], field: str, rule: str
) -> None:
    before = snapshot(vault)
    args = {"content": "Some content", "type": "fact", **kwargs}
    content, memory_type = args.pop("content"), args.pop("type")
    with pytest.raises(InvalidInput, match=rule) as caught:
        vault.add(content, memory_type, **args)
    assert caught.value.field == field
    assert field.split(".")[0] in str(caught.value) or field == "content"
    assert snapshot(vault) == before


def test_add_with_grants_makes_valid_access_block(vault: Vault) -> None:
    memory = vault.add(
        "Shared fact",
        "fact",
        visibility="shared",
        shared_with=[
            AccessGrant(entity="agent-a", permissions=("read",)),
            {"entity": "agent-b", "permissions": ["write", "read"]},
            ("agent-a", ["delete"]),
        ],
    ).memory
    grants = {g.entity: g.permissions for g in memory.access.shared_with}  # type: ignore[union-attr]
    assert grants == {"agent-a": ("read", "delete"), "agent-b": ("read", "write")}
    assert_valid_pam([memory])


# -- add_memories ------------------------------------------------------------------------------


def test_add_memories_keeps_pam_memories_as_they_are(vault: Vault) -> None:
    batch = [
        pam_memory("Imported fact one", id="mem-1", tags=["x"]),
        pam_memory("Imported retracted", id="mem-2", status="retracted"),
        pam_memory("Imported decision", id="mem-3", type="custom", custom_type="decision"),
    ]
    result = vault.acting_as("system:import").add_memories(batch)
    assert result.created == ["mem-1", "mem-2", "mem-3"]
    assert result.id_map == {"mem-1": "mem-1", "mem-2": "mem-2", "mem-3": "mem-3"}
    for memory in batch:
        assert vault.get(memory.id) == memory
    assert [e.actor for e in vault.audit_log()[-3:]] == ["system:import"] * 3


def test_pam_6_add_memories_dedups_within_batch_and_against_vault(vault: Vault) -> None:
    existing = vault.add("User drinks coffee", "preference", now=T0).memory
    batch = [
        pam_memory("user drinks COFFEE", id="dup-of-vault", created_at="2025-12-01T00:00:00Z"),
        pam_memory("Walks daily", id="walk-1", tags=["health"]),
        pam_memory("  walks   daily ", id="walk-2", tags=["habit"]),
        pam_memory("Walks daily", id="walk-old", status="archived"),
    ]
    result = vault.add_memories(batch, now=T0 + timedelta(days=1))
    assert result.created == ["walk-1", "walk-old"]
    assert result.reinforced == ["dup-of-vault", "walk-2"]
    assert result.id_map["dup-of-vault"] == existing.id
    assert result.id_map["walk-2"] == "walk-1"
    walk = vault.get("walk-1")
    assert walk.tags == ("health", "habit")
    assert walk.temporal.updated_at is None  # still as imported: it is new
    assert walk.confidence.current > 0.8  # type: ignore[union-attr,operator]
    coffee = vault.get(existing.id)
    assert coffee.confidence.current > 0.9  # type: ignore[union-attr,operator]
    # The duplicate was stated (2025-12-01) before the memory existed: reinforcement time is
    # never earlier than the memory itself.
    assert coffee.confidence.last_reinforced == "2026-01-10T12:00:00Z"  # type: ignore[union-attr]
    assert vault.list(MemoryQuery(statuses=("active",))).total == 2
    assert vault.verify_audit().ok


def test_aimem_8_reimport_is_idempotent(vault: Vault) -> None:
    batch = [pam_memory("One", id="m-1"), pam_memory("Two", id="m-2")]
    vault.add_memories(batch)
    before = snapshot(vault)[:2]
    result = vault.add_memories(batch)
    assert result.skipped == ["m-1", "m-2"] and not result.created
    assert snapshot(vault)[:2] == before


def test_add_memories_is_all_or_nothing(vault: Vault) -> None:
    vault.add_memories([pam_memory("Original", id="m-1")])
    before = snapshot(vault)
    good = pam_memory("A good one", id="m-2")
    conflicting = pam_memory("Different content", id="m-1")
    with pytest.raises(InvalidInput, match=r"memories\[1\] \(id m-1\).*different content"):
        vault.add_memories([good, conflicting])
    bad_hash = pam_memory("Text", id="m-3").evolve(content="Other text")
    with pytest.raises(InvalidInput, match=r"memories\[1\].*content_hash does not match"):
        vault.add_memories([good, bad_hash])
    bad_tag = pam_memory("Tagged", id="m-4", tags=["Bad Tag"])
    with pytest.raises(InvalidInput, match=r"memories\[1\] \(id 'm-4'\): tags") as caught:
        vault.add_memories([good, bad_tag])
    assert "PAM" in str(caught.value)
    bad_time = pam_memory("Timed", id="m-5", created_at="2025-01-01 10:00")
    with pytest.raises(InvalidInput, match="created_at"):
        vault.add_memories([good, bad_time])
    with pytest.raises(InvalidInput, match="not a Memory"):
        vault.add_memories([good, {"id": "x"}])  # type: ignore[list-item]
    assert snapshot(vault) == before


def test_add_memories_in_several_chunks(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_module, "_CHUNK", 3)
    batch = [pam_memory(f"memory {i}", id=f"m-{i}") for i in range(8)]
    batch.append(pam_memory("memory 1", id="dup"))  # reinforces m-1, in an earlier chunk
    batch.append(pam_memory("memory 9", id="m-1"))  # same id, other content: refused
    with pytest.raises(InvalidInput, match=r"memories\[9\]"):
        vault.add_memories(batch)
    assert vault.list().total == 0
    result = vault.add_memories(batch[:9])
    assert len(result.created) == 8 and result.reinforced == ["dup"]
    assert vault.list(MemoryQuery(limit=None)).total == 8
    bad = [*batch[:4], pam_memory("x", id="late-bad", tags=["UPPER"])]
    with pytest.raises(InvalidInput, match=r"memories\[4\]"):
        vault.add_memories(bad)
    assert vault.store.check_integrity() == []


# -- get, resolve, list, search ------------------------------------------------------------


def test_resolve_unique_prefix_like_git(vault: Vault) -> None:
    vault.add_memories(
        [pam_memory("a", id="abc123"), pam_memory("b", id="abd456"), pam_memory("c", id="x")]
    )
    assert vault.resolve("abc") == "abc123"
    assert vault.get("abd").content == "b"
    assert vault.resolve("x") == "x"  # an exact id wins
    with pytest.raises(AmbiguousId, match="abc123, abd456") as caught:
        vault.resolve("ab")
    assert caught.value.candidates == ("abc123", "abd456")
    with pytest.raises(NotFound, match="'zzz'"):
        vault.get("zzz")
    with pytest.raises(InvalidInput):
        vault.resolve("  ")


def test_list_filters_and_paging(vault: Vault) -> None:
    for i in range(5):
        vault.add(f"fact {i}", "fact", tags=["t"], now=T0 + timedelta(minutes=i))
    skill = vault.add("a skill", "skill", platform="claude").memory
    vault.retract(skill.id)
    page = vault.list(MemoryQuery(limit=2))
    assert page.total == 5 and [m.content for m in page.items] == ["fact 4", "fact 3"]
    assert vault.list(MemoryQuery(limit=2, offset=4)).items[0].content == "fact 0"
    assert vault.list(MemoryQuery(statuses=None)).total == 6
    assert vault.list(MemoryQuery(platforms=("claude",), statuses=None)).items == [
        vault.get(skill.id)
    ]
    with pytest.raises(InvalidInput, match="limit"):
        vault.list(MemoryQuery(limit=-1))
    with pytest.raises(InvalidInput, match="query"):
        vault.list("type=fact")  # type: ignore[arg-type]


def test_search_english_and_portuguese(vault: Vault) -> None:
    pt = vault.add("Ação de graças em Lisboa", "context").memory
    en = vault.add("User studies Portuguese in LISBON", "goal").memory
    assert [h.memory.id for h in vault.search("acao")] == [pt.id]
    assert [h.memory.id for h in vault.search("lisboa")] == [pt.id]
    assert [h.memory.id for h in vault.search("Lisbon")] == [en.id]
    assert [h.memory.id for h in vault.search("portug*")] == [en.id]
    hits = vault.search("lisboa", order="-created")
    assert [h.memory.id for h in hits] == [pt.id]
    with pytest.raises(InvalidInput, match="order"):
        vault.search("x", order="random")


# -- update --------------------------------------------------------------------------------


def test_update_changes_only_what_is_given(vault: Vault) -> None:
    memory = vault.add("User has a cat", "fact", tags=["pets"], now=T0).memory
    later = T0 + timedelta(hours=1)
    updated = vault.update(memory.id[:8], content="User has two cats", now=later)
    assert updated.content == "User has two cats"
    assert updated.content_hash != memory.content_hash
    assert updated.tags == ("pets",)
    assert updated.temporal.updated_at == "2026-01-10T13:00:00Z"
    assert updated.temporal.created_at == memory.temporal.created_at
    entry = vault.audit_log(memory_id=memory.id)[-1]
    assert entry.action == "update" and entry.content_hash == updated.content_hash
    assert entry.details == {"changed": ["content"], "previous_content_hash": memory.content_hash}
    assert "cat" not in repr(entry)  # never the content
    assert_valid_pam([updated])


def test_updated_at_moves_only_on_real_change(vault: Vault) -> None:
    memory = vault.add("Stable", "fact", tags=["a"], summary="s", now=T0).memory
    entries = vault.stats()["audit_entries"]
    same = vault.update(
        memory.id,
        content="Stable",
        tags=["a"],
        summary="s",
        visibility="private",
        exportable=True,
        type="fact",
        now=T0 + timedelta(days=1),
    )
    assert same == memory
    assert vault.stats()["audit_entries"] == entries
    assert vault.update(memory.id) == memory
    assert UNCHANGED is vault_module.UNCHANGED


def test_update_type_and_custom_type(vault: Vault) -> None:
    memory = vault.add("Use tabs", "fact").memory
    custom = vault.update(memory.id, type="custom", custom_type="procedure")
    assert (custom.type, custom.custom_type) == ("custom", "procedure")
    back = vault.update(memory.id, type="instruction")
    assert (back.type, back.custom_type) == ("instruction", None)
    with pytest.raises(InvalidInput, match=r"§5\.1"):
        vault.update(memory.id, type="custom")
    assert_valid_pam([back])


def test_update_refusals_leave_the_vault_unchanged(vault: Vault) -> None:
    a = vault.add("Alpha", "fact").memory
    vault.add("Beta", "fact")
    gone = vault.add("Gamma", "fact").memory
    vault.retract(gone.id)
    before = snapshot(vault)
    with pytest.raises(InvalidInput, match="same as active memory"):
        vault.update(a.id, content="beta")
    with pytest.raises(InvalidInput, match="retracted"):
        vault.update(gone.id, content="Gamma 2")
    with pytest.raises(InvalidInput, match="tag"):
        vault.update(a.id, tags=["OK", "Not OK"])
    with pytest.raises(NotFound):
        vault.update("missing", content="x")
    assert snapshot(vault) == before
    # Tags of a retracted memory may still change (its statement does not).
    assert vault.update(gone.id, tags=["old"]).tags == ("old",)


# -- access control (PAM §9) -------------------------------------------------------------------


def test_pam_9_access_rules_for_agents(vault: Vault) -> None:
    private = vault.add("Private diary", "fact").memory
    public = vault.add("Public bio", "identity", visibility="public").memory
    shared = vault.add(
        "Shared plan",
        "project",
        visibility="shared",
        shared_with=[("agent-r", ["read"]), ("agent-w", ["read", "write"])],
    ).memory
    # Private: owner only, even with a grant recorded.
    vault.grant(private.id, "agent-r", ["read"])
    vault.update(private.id, visibility="private")
    with pytest.raises(AccessDenied, match="private"):
        vault.acting_as("agent-r").get(private.id)
    assert vault.acting_as("anyone").get(public.id).id == public.id
    assert vault.acting_as("agent-r").get(shared.id).id == shared.id
    with pytest.raises(AccessDenied, match="'read'"):
        vault.acting_as("agent-x").get(shared.id)
    # list and search filter silently.
    seen = {m.id for m in vault.acting_as("agent-r").list().items}
    assert seen == {public.id, shared.id}
    assert vault.acting_as("agent-r").list().total == 2
    assert [h.memory.id for h in vault.acting_as("agent-x").search("plan")] == []
    assert [h.memory.id for h in vault.acting_as("agent-r").search("plan")] == [shared.id]
    # Writing needs "write"; lifecycle changes count as writing.
    with pytest.raises(AccessDenied, match="'write'"):
        vault.acting_as("agent-r").update(shared.id, summary="x")
    assert vault.acting_as("agent-w").update(shared.id, summary="x").summary == "x"
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-r").archive(shared.id)
    with pytest.raises(AccessDenied, match="owner"):
        vault.acting_as("agent-w").update(shared.id, visibility="public")
    with pytest.raises(AccessDenied, match="owner"):
        vault.acting_as("agent-w").grant(shared.id, "agent-x", ["read"])
    # Physical deletion needs "delete".
    with pytest.raises(AccessDenied, match="'delete'"):
        vault.acting_as("agent-w").erase(shared.id)
    vault.acting_as("agent-w").deprecate(shared.id)
    assert vault.get(shared.id).status == "deprecated"


def test_agent_reinforcing_needs_write(vault: Vault) -> None:
    vault.add("Owner's secret", "fact")
    before = snapshot(vault)
    with pytest.raises(AccessDenied, match="reinforce"):
        vault.acting_as("agent-a").add("owner's secret", "fact")
    assert snapshot(vault) == before


def test_grant_and_revoke(vault: Vault) -> None:
    memory = vault.add("Plan", "project").memory
    granted = vault.grant(memory.id, "agent-a", "read")
    assert granted.access.visibility == "shared"  # type: ignore[union-attr]
    granted = vault.grant(memory.id, "agent-a", ["write"])
    assert granted.access.shared_with == (AccessGrant("agent-a", ("read", "write")),)  # type: ignore[union-attr]
    assert vault.grant(memory.id, "agent-a", ["read"]) == granted  # nothing new
    revoked = vault.revoke(memory.id, "agent-a", ["write"])
    assert revoked.access.shared_with == (AccessGrant("agent-a", ("read",)),)  # type: ignore[union-attr]
    assert vault.revoke(memory.id, "agent-a").access.shared_with == ()  # type: ignore[union-attr]
    assert vault.revoke(memory.id, "agent-zzz") == vault.get(memory.id)
    with pytest.raises(InvalidInput, match=r"§9\.1"):
        vault.grant(memory.id, "agent-a", ["own"])
    assert_valid_pam([vault.get(memory.id)])


# -- lifecycle (PAM §7.1) ------------------------------------------------------------------


def _memory_in(vault: Vault, status: str) -> Memory:
    memory = vault.add(f"memory that becomes {status} {uuid.uuid4()}", "fact").memory
    path = {
        "active": [],
        "superseded": ["superseded"],
        "deprecated": ["deprecated"],
        "retracted": ["retracted"],
        "archived": ["archived"],
    }[status]
    for step in path:
        memory = vault.transition(memory.id, step)
    return memory


@pytest.mark.parametrize("current", list(TRANSITIONS))
@pytest.mark.parametrize("target", list(TRANSITIONS))
def test_pam_7_1_transitions_exactly_as_allowed(vault: Vault, current: str, target: str) -> None:
    memory = _memory_in(vault, current)
    if target in TRANSITIONS[current]:
        moved = vault.transition(memory.id, target, now=T0)
        assert moved.status == target
        assert moved.temporal.updated_at == "2026-01-10T12:00:00Z"
        assert_valid_pam([moved])
    else:
        before = snapshot(vault)
        with pytest.raises(InvalidTransition, match=f"is {current}") as caught:
            vault.transition(memory.id, target)
        for allowed in TRANSITIONS[current]:
            assert allowed in str(caught.value)
        assert snapshot(vault) == before


def test_pam_7_1_retracted_is_final(vault: Vault) -> None:
    memory = vault.retract(vault.add("Wrong fact", "fact").memory.id)
    for status in ("active", "archived", "deprecated", "superseded"):
        with pytest.raises(InvalidTransition, match="final"):
            vault.transition(memory.id, status)
    assert vault.get(memory.id).status == "retracted"  # kept, never deleted (PAM §16.3)


def test_transition_rejects_unknown_status(vault: Vault) -> None:
    memory = vault.add("x", "fact").memory
    with pytest.raises(InvalidInput, match="status 'gone'"):
        vault.transition(memory.id, "gone")


def test_shortcuts(vault: Vault) -> None:
    a, b, c = (vault.add(t, "fact").memory for t in ("a", "b", "c"))
    assert vault.retract(a.id).status == "retracted"
    assert vault.archive(b.id).status == "archived"
    assert vault.deprecate(c.id).status == "deprecated"


def test_pam_7_supersede_sets_status_pointer_and_relation(vault: Vault) -> None:
    old = vault.add("User lives in Porto", "fact").memory
    new = vault.add("User lives in Lisbon", "fact").memory
    relation = vault.supersede(old.id[:10], new.id, now=T0)
    assert (relation.from_, relation.to, relation.type) == (new.id, old.id, "supersedes")
    old_now = vault.get(old.id)
    assert old_now.status == "superseded"
    assert old_now.temporal.superseded_by == new.id
    assert vault.relations(old.id) == [relation] == vault.relations(new.id)
    assert_valid_pam([old_now, vault.get(new.id)])


def test_supersede_refusals(vault: Vault) -> None:
    old = vault.add("Old", "fact").memory
    new = vault.add("New", "fact").memory
    dead = vault.retract(vault.add("Dead", "fact").memory.id)
    before = snapshot(vault)
    with pytest.raises(InvalidTransition, match=f"new memory {dead.id} is retracted"):
        vault.supersede(old.id, dead.id)
    with pytest.raises(InvalidTransition, match=f"old memory {dead.id} is retracted"):
        vault.supersede(dead.id, new.id)
    with pytest.raises(InvalidInput, match="itself"):
        vault.supersede(old.id, old.id)
    identity = vault.add("User's name is Ana", "identity").memory
    before = snapshot(vault)
    with pytest.raises(DNAProtected, match=r"AIMEM §5\.1"):
        vault.acting_as("system").supersede(identity.id, new.id)
    assert snapshot(vault) == before
    vault.supersede(identity.id, new.id)  # the user may


# -- relations (PAM §13) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "relation_type",
    ["supports", "contradicts", "extends", "supersedes", "related_to", "derived_from"],
)
def test_pam_13_relation_types(vault: Vault, relation_type: str) -> None:
    a, b = vault.add("a", "fact").memory, vault.add("b", "fact").memory
    relation = vault.relate(a.id, b.id, relation_type, confidence=0.7, now=T0)
    assert relation.type == relation_type and relation.confidence == 0.7
    assert TIMESTAMP.fullmatch(relation.created_at)
    assert vault.get(a.id).status == "active"  # relate never changes a status


def test_relate_rules(vault: Vault) -> None:
    a, b = vault.add("a", "fact").memory, vault.add("b", "fact").memory
    first = vault.relate(a.id, b.id, "supports")
    assert vault.relate(a.id, b.id, "supports") == first  # the same edge again
    stronger = vault.relate(a.id, b.id, "supports", confidence=0.9)
    assert stronger.id == first.id and stronger.confidence == 0.9
    assert vault.relations(a.id) == [stronger]
    before = snapshot(vault)
    with pytest.raises(InvalidInput, match=r"§13\.2"):
        vault.relate(a.id, b.id, "likes")
    with pytest.raises(InvalidInput, match=r"\[0, 1\]"):
        vault.relate(a.id, b.id, "extends", confidence=2)
    with pytest.raises(InvalidInput, match="itself"):
        vault.relate(a.id, a.id, "extends")
    with pytest.raises(NotFound):
        vault.relate(a.id, "ghost", "extends")
    assert snapshot(vault) == before


def test_relations_hide_what_an_agent_cannot_read(vault: Vault) -> None:
    public = vault.add("public", "fact", visibility="public").memory
    private = vault.add("private", "fact").memory
    other = vault.add("other public", "fact", visibility="public").memory
    vault.relate(public.id, private.id, "related_to")
    visible = vault.relate(other.id, public.id, "supports")
    assert vault.acting_as("agent").relations(public.id) == [visible]
    assert len(vault.relations(public.id)) == 2


# -- erasure (AIMEM §5.2) --------------------------------------------------------------------


def test_aimem_5_2_erase_is_complete_and_audited(vault: Vault) -> None:
    old = vault.add("User lives in Porto", "fact").memory
    new = vault.add("User lives in Lisbon", "fact").memory
    vault.supersede(old.id, new.id)
    vault.store.put_embedding(
        StoredEmbedding("e1", new.id, "m", 1, "2026-01-01T00:00:00Z", b"\0\0\0\0")
    )
    vault.erase(new.id)
    with pytest.raises(NotFound):
        vault.get(new.id)
    assert vault.search("lisbon") == []
    assert vault.relations(old.id) == []
    assert vault.store.get_embedding(new.id) is None
    assert vault.get(old.id).temporal.superseded_by is None
    entry = vault.audit_log(memory_id=new.id)[-1]
    assert (entry.action, entry.content_hash) == ("erase", new.content_hash)
    assert vault.verify_audit().ok
    identity = vault.add("Name: Ana", "identity").memory
    with pytest.raises(DNAProtected):
        vault.acting_as("system:cleanup").erase(identity.id)
    vault.erase(identity.id)  # explicit user deletion is honoured


# -- conversations, embeddings, exports, settings, stats -------------------------------------


def test_conversations_embeddings_exports(vault: Vault) -> None:
    conversation = StoredConversation("c1", "chatgpt", {"id": "c1", "messages": []}, "Hi")
    assert vault.put_conversation(conversation) is True
    assert vault.put_conversation(conversation) is False
    assert vault.get_conversation("c1") == conversation
    assert list(vault.conversations()) == [conversation]
    with pytest.raises(NotFound):
        vault.get_conversation("c2")
    with pytest.raises(AccessDenied):
        vault.acting_as("agent").put_conversation(conversation)
    memory = vault.add("embedded", "fact").memory
    embedding = StoredEmbedding("e1", memory.id, "mini", 2, "2026-01-01T00:00:00Z", b"\0" * 8)
    vault.put_embedding(embedding)
    assert vault.get_embedding(memory.id) == embedding
    with pytest.raises(AccessDenied):
        vault.acting_as("agent").get_embedding(memory.id)  # same access as the content
    record = ExportRecord("x1", "exported", "full", "2026-01-01T00:00:00Z", memory_count=1)
    vault.record_export(record)
    assert vault.exports() == [record]
    assert vault.verify_audit().ok


def test_settings(vault: Vault) -> None:
    assert vault.settings.half_life_days == 180
    updated = vault.update_settings(half_life_days=90, linear_rate_per_day=0.01)
    assert (updated.half_life_days, updated.linear_rate_per_day) == (90, 0.01)
    assert vault.settings == updated
    before = snapshot(vault)
    with pytest.raises(InvalidInput, match="half_life_days"):
        vault.update_settings(half_life_days=0)
    with pytest.raises(InvalidInput, match="unknown setting"):
        vault.update_settings(speed=3)
    with pytest.raises(AccessDenied):
        vault.acting_as("agent").update_settings(floor=0.2)
    assert snapshot(vault) == before


def test_stats(vault: Vault) -> None:
    a = vault.add("a", "fact").memory
    b = vault.add("b", "skill", platform="claude", extraction_method=None).memory
    vault.relate(a.id, b.id, "supports")
    vault.retract(b.id)
    stats = vault.stats()
    assert stats["memories"] == 2
    assert stats["by_type"] == {"fact": 1, "skill": 1}
    assert stats["by_status"] == {"active": 1, "retracted": 1}
    assert stats["by_platform"] == {"claude": 1, "manual": 1}
    assert stats["by_extraction_method"] == {"manual": 1, "none": 1}
    assert stats["relations_by_type"] == {"supports": 1}
    assert stats["conversations"] == 0
    assert stats["audit_entries"] == 5
    assert stats["schema_version"] == LATEST
    assert stats["db_size_bytes"] > 0
    assert stats["owner_id"] == vault.owner.id


def test_timestamps_are_utc_seconds(vault: Vault) -> None:
    memory = vault.add("t", "fact", now=datetime(2026, 5, 1, 8, 30, 15, 999, tzinfo=UTC)).memory
    assert memory.temporal.created_at == "2026-05-01T08:30:15Z"
    naive = vault.add("u", "fact", now=datetime(2026, 5, 1, 8, 30, 15)).memory
    assert naive.temporal.created_at == "2026-05-01T08:30:15Z"
    for entry in vault.audit_log():
        assert TIMESTAMP.fullmatch(entry.at)


def test_everything_the_vault_writes_is_valid_pam(vault: Vault) -> None:
    a = vault.add("Lives in Porto", "fact", tags=["home"]).memory
    b = vault.add("Lives in Lisbon", "fact").memory
    vault.supersede(a.id, b.id)
    vault.add("lives in lisbon", "fact")  # reinforcement
    c = vault.add("Prefers tea", "preference", visibility="shared").memory
    vault.grant(c.id, "agent-a", ["read", "write"])
    vault.update(c.id, content="Prefers green tea", summary="tea")
    vault.add_memories([pam_memory("Imported", id="imp-1")])
    vault.decay(now=T0 + timedelta(days=400))
    vault.archive(a.id)
    assert_valid_pam(everything(vault))
