"""A vault session bound to its actor (issue #16.1, docs/access.md): who acts is fixed when
the session is made, so no method takes an actor and none can forget it."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memvault.crypto.keys import SigningKey
from memvault.errors import AccessDenied, InvalidInput
from memvault.exchange import aimem, pam
from memvault.extract import pipeline, reconcile
from memvault.importers import ingest, parts
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import make_vault

AGENT = "agent-x"


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return make_vault(tmp_path / "vault")


def _public_callables() -> list[tuple[str, Callable[..., Any]]]:
    found: list[tuple[str, Callable[..., Any]]] = [
        (f"Vault.{name}", member)
        for name, member in inspect.getmembers(Vault, inspect.isfunction)
        if not name.startswith("_")
    ]
    for module in (pam, aimem, pipeline, reconcile, ingest, parts):
        found += [
            (f"{module.__name__}.{name}", member)
            for name, member in inspect.getmembers(module, inspect.isfunction)
            if not name.startswith("_") and member.__module__ == module.__name__
        ]
    return found


def test_no_public_operation_takes_an_actor_argument() -> None:
    """Every Vault method and every module-level operation over a vault (exchange,
    extraction, provider imports) acts as its session's actor: none has an `actor`
    parameter that a caller could leave out and so act as the owner. `acting_as`, which
    makes a session, is the one place an actor is named."""
    taking = [
        name
        for name, function in _public_callables()
        if "actor" in inspect.signature(function).parameters
    ]
    assert taking == ["Vault.acting_as"]


def test_the_vault_as_opened_acts_as_the_owner(vault: Vault) -> None:
    assert vault.actor == "user"
    added = vault.add("Lives in Lisbon", "fact").memory
    assert vault.audit_log()[-1].actor == "user"
    assert vault.get(added.id).id == added.id


def test_a_session_shares_the_vault_and_records_its_actor(vault: Vault) -> None:
    """A session reads and writes the same database: what the agent creates the owner sees
    at once, and the audit log names the agent (PAM §9: the creator holds read and write)."""
    session = vault.acting_as(AGENT)
    assert session.actor == AGENT and session.owner == vault.owner
    created = session.add("Agent's note: the user likes tea", "preference").memory
    assert vault.get(created.id).content == created.content
    assert vault.audit_log()[-1].actor == AGENT
    grants = {g.entity: tuple(g.permissions) for g in created.access.shared_with}  # type: ignore[union-attr]
    assert grants == {AGENT: ("read", "write")}
    assert vault.actor == "user"  # the vault it came from is unchanged


def test_a_sessions_close_leaves_the_vault_open(vault: Vault) -> None:
    """A session owns no database: ending it (a request served) leaves the vault usable;
    closing the vault ends every session."""
    with vault.acting_as(AGENT) as session:
        session.add("Agent's note", "fact")
    assert vault.list().total == 1
    vault.close()
    with pytest.raises(Exception, match="closed"):
        vault.acting_as("system").list()


def test_pam_9_an_agent_session_cannot_make_another_session(vault: Vault) -> None:
    """Only the owner's session makes sessions: an agent cannot act as the owner, as
    background work or as another agent."""
    session = vault.acting_as(AGENT)
    for other in ("user", "system", "agent-y"):
        with pytest.raises(AccessDenied, match="only the owner"):
            session.acting_as(other)


def test_an_empty_actor_is_refused(vault: Vault) -> None:
    with pytest.raises(InvalidInput, match="non-empty"):
        vault.acting_as("")
    with pytest.raises(InvalidInput, match="non-empty"):
        vault.acting_as("   ")


def test_aimem_5_1_background_is_the_owners_background_work(vault: Vault) -> None:
    """`background()` is "system" (or "system:<task>"): owner rights except on DNA-class
    memories (AIMEM §5.1). An agent's work stays the agent's."""
    assert vault.background().actor == "system"
    assert vault.background("import").actor == "system:import"
    agent = vault.acting_as(AGENT)
    assert agent.background("import") is agent
    background = vault.background()
    assert background.background("decay") is background


def test_background_work_decays_and_is_recorded(vault: Vault) -> None:
    """PAM §8: the owner's scheduled decay runs as background work and says so in the log;
    an agent may not run it."""
    vault.add("Works at Acme", "fact", decay_model="time_linear")
    vault.background().decay()
    assert vault.audit_log()[-1].actor == "system"
    with pytest.raises(AccessDenied):
        vault.acting_as(AGENT).decay()


def test_a_new_owner_did_is_seen_by_every_session(vault: Vault) -> None:
    """PAM §17: the owner's DID changed through one session is the owner of all."""
    session = vault.acting_as("system")
    record = SigningKey.new("Ed25519").to_record()
    owner = vault.add_key(record, owner_did=True)
    assert owner.did == record.did
    assert session.owner.did == record.did


def test_sessions_of_one_vault_see_each_others_writes(vault: Vault) -> None:
    agent, background = vault.acting_as(AGENT), vault.acting_as("system:task")
    created = agent.add("An agent's fact", "fact", visibility="public").memory
    assert background.get(created.id).id == created.id
    everything = MemoryQuery(statuses=None, limit=None)
    assert [m.id for m in background.iter_memories(everything)] == [created.id]
