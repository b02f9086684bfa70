"""`Vault.unit_of_work`: the public bulk writes the PAM and AIMEM imports are made of — all or
nothing, audited once at the end, checked against the actor (PAM §9)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.errors import AccessDenied, InvalidInput
from memvault.model import Relation
from memvault.store.base import MemoryQuery, StoredEmbedding
from memvault.unit_of_work import MergePolicy
from memvault.vault import Vault
from vaultkit import make_vault, pam_memory

AGENT = "agent-x"


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    yield v
    v.close()


def _relation(source: str, target: str) -> Relation:
    return Relation.from_json(
        {
            "id": "rel-1",
            "type": "related_to",
            "from": source,
            "to": target,
            "confidence": 0.5,
            "created_at": "2025-01-01T10:00:00Z",
        }
    )


def test_a_unit_of_work_that_fails_applies_nothing(vault: Vault) -> None:
    """Never half-apply: memories, relations, embeddings and their audit entries written in a
    unit that then fails are all gone."""
    entries = len(vault.audit_log())
    a, b = pam_memory("Likes tea."), pam_memory("Lives in Lisbon.")
    with pytest.raises(RuntimeError), vault.unit_of_work() as work:
        assert work.add_memories([a, b]).created == [a.id, b.id]
        assert work.put_relations([_relation(a.id, b.id)], via="test").added == 1
        vector = StoredEmbedding("e-1", a.id, "m", 2, "2025-01-01T10:00:00Z", b"\0" * 8)
        assert work.put_embedding(vector, via="test")
        raise RuntimeError("interrupted")
    assert vault.list().total == 0
    assert len(vault.audit_log()) == entries
    assert vault.verify_audit().ok


def test_a_unit_of_work_audits_every_write_in_order(vault: Vault) -> None:
    a, b = pam_memory("Likes tea."), pam_memory("Lives in Lisbon.")
    with vault.unit_of_work() as work:
        work.add_memories([a, b])
        put = work.put_relations([_relation(a.id, b.id), _relation(a.id, "absent")], via="test")
        assert (put.added, put.skipped) == (1, 1)
    actions = [e.action for e in vault.audit_log()]
    assert actions[-3:] == ["add", "add", "relate"]
    assert vault.relations(a.id)[0].to == b.id
    assert vault.verify_audit().ok


def test_pam_16_3_merge_memory_updates_only_a_newer_copy_by_default(vault: Vault) -> None:
    stored = pam_memory("Likes tea.", updated_at="2025-02-01T10:00:00Z")
    vault.add_memories([stored])
    older = pam_memory(
        "Likes tea.", id=stored.id, summary="older", updated_at="2025-01-15T10:00:00Z"
    )
    newer = pam_memory(
        "Likes tea.", id=stored.id, summary="newer", updated_at="2025-03-01T10:00:00Z"
    )
    with vault.unit_of_work() as work:
        current = work.stored_memories([stored.id])[stored.id]
        assert work.merge_memory(current, older, MergePolicy("import")).outcome == "older"
        merged = work.merge_memory(current, newer, MergePolicy("import"))
        assert merged.outcome == "updated"
    assert vault.get(stored.id).summary == "newer"
    last = vault.audit_log()[-1]
    assert (last.action, last.details["via"], last.details["changed"]) == (
        "update",
        "import",
        ["summary", "temporal"],
    )


def test_pam_6_merge_memory_reports_a_duplicate_instead_of_applying_it(vault: Vault) -> None:
    """PAM §6: one active memory per fact — a copy that would give a memory another active
    memory's content is not applied; the caller decides what that refuses."""
    tea, coffee = pam_memory("Likes tea."), pam_memory("Likes coffee.")
    vault.add_memories([tea, coffee])
    copy = pam_memory("Likes tea.", id=coffee.id, updated_at="2026-01-01T00:00:00Z")
    with vault.unit_of_work() as work:
        current = work.stored_memories([coffee.id])[coffee.id]
        merged = work.merge_memory(current, copy, MergePolicy("import"))
    assert (merged.outcome, merged.twin) == ("duplicate", tea.id)
    assert vault.get(coffee.id).content == "Likes coffee."


def test_pam_9_merge_memory_refuses_an_agent_without_write(vault: Vault) -> None:
    """PAM §9: an agent's bulk write changes only memories it may write; the owner's private
    memory is refused and the whole unit rolled back."""
    private = pam_memory("Private note.")
    vault.add_memories([private])
    copy = pam_memory("Private note, changed.", id=private.id, updated_at="2026-01-01T00:00:00Z")
    with pytest.raises(AccessDenied), vault.acting_as(AGENT).unit_of_work() as work:
        work.add_memories([pam_memory("The agent's own note.")])
        current = work.stored_memories([private.id])[private.id]
        work.merge_memory(current, copy, MergePolicy("import"))
    assert vault.get(private.id).content == "Private note."
    assert vault.list().total == 1


def test_pam_9_an_agents_unit_may_not_store_conversations(vault: Vault) -> None:
    """Conversations are the owner's (docs/access.md)."""
    with pytest.raises(AccessDenied), vault.acting_as(AGENT).unit_of_work() as work:
        work.put_conversations([])


def test_exchange_meta_is_only_the_exchange_settings(vault: Vault) -> None:
    assert vault.exchange_meta("aimem.producer") is None
    with vault.unit_of_work() as work:
        work.set_exchange_meta("aimem.producer", "memvault-test")
        with pytest.raises(InvalidInput, match="not an exchange setting"):
            work.set_exchange_meta("format", "x")
    assert vault.exchange_meta("aimem.producer") == "memvault-test"
    with pytest.raises(InvalidInput):
        vault.exchange_meta("owner")


def test_pam_9_an_agents_export_view_holds_only_what_it_may_read(vault: Vault) -> None:
    """PAM §9, AIMEM §5.5: the bulk reads of an export, as an agent, hold only the memories it
    may read, their embeddings and the relations between them; the owner's reads hold all."""
    public = pam_memory("Public: likes tea.", visibility="public")
    private = pam_memory("Private: the bank PIN hint.")
    vault.add_memories([public, private])
    vault.relate(public.id, private.id, "related_to")
    for memory in (public, private):
        vector = StoredEmbedding(
            f"e-{memory.id}", memory.id, "m", 2, "2025-01-01T10:00:00Z", b"\0" * 8
        )
        vault.put_embedding(vector)
    everything = MemoryQuery(statuses=None, limit=None)
    owner, agent = vault.export_view(), vault.acting_as(AGENT).export_view()
    assert {m.id for m in owner.iter_memories(everything)} == {public.id, private.id}
    assert [m.id for m in agent.iter_memories(everything)] == [public.id]
    assert agent.memories([public.id, private.id]) == [vault.get(public.id)]
    assert agent.memory(private.id) is None and agent.embedding(private.id) is None
    assert agent.embedding(public.id) is not None
    assert agent.existing_ids([public.id, private.id]) == {public.id: public.content_hash}
    assert list(agent.relations()) == [] and len(list(owner.relations())) == 1
    with pytest.raises(AccessDenied):
        agent.conversation("conv-1")
    with pytest.raises(AccessDenied):
        list(agent.audit_since("2000-01-01T00:00:00Z"))
