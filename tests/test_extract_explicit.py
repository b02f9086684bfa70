"""Remembering one explicit statement (`memvault.extract.explicit.remember`, the MCP
`remember` tool's rule): the rules extractor reads it, reconciliation decides — a new value of
a single-valued slot supersedes the old one, a rewording reinforces, a statement the rules do
not read is added as given (PAM §6 dedup), and only the owner supersedes a DNA-class memory
(AIMEM §5.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.extract.explicit import first_person, remember
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import assert_valid_pam, make_vault


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    try:
        yield v
    finally:
        v.close()


def test_remember_a_new_residence_supersedes_the_old_one(vault: Vault) -> None:
    old = remember(vault, "User lives in São Paulo", platform="mcp")
    assert old.outcome == "added" and old.created
    new = remember(vault, "I live in Lisbon", platform="mcp")
    assert new.outcome == "superseded"
    assert new.superseded == (old.memory.id,)
    assert new.memory.content == "User lives in Lisbon"
    assert new.memory.provenance.extraction_method == "explicit_user_input"
    before = vault.get(old.memory.id)
    assert before.status == "superseded"
    assert before.temporal.superseded_by == new.memory.id
    active = [m.content for m in vault.iter_memories(MemoryQuery(limit=None))]
    assert active == ["User lives in Lisbon"]
    assert_valid_pam(vault.iter_memories(MemoryQuery(statuses=None, limit=None)))


def test_remember_a_rewording_reinforces_the_memory(vault: Vault) -> None:
    first = remember(vault, "I live in Lisbon", platform="mcp")
    again = remember(vault, "User lives in Lisbon.", platform="mcp")
    assert again.outcome == "reinforced" and not again.created
    assert again.memory.id == first.memory.id
    assert len(list(vault.iter_memories(MemoryQuery(limit=None)))) == 1


def test_remember_what_the_rules_do_not_read_is_added_as_given(vault: Vault) -> None:
    added = remember(vault, "Lives in Porto", type="context", tags=("home",), platform="mcp")
    assert added.outcome == "added" and added.created
    assert (added.memory.content, added.memory.type) == ("Lives in Porto", "context")
    assert added.memory.tags == ("home",)
    twin = remember(vault, "Lives in Porto", type="context", platform="mcp")
    assert twin.outcome == "reinforced" and twin.memory.id == added.memory.id


def test_an_agent_proposes_instead_of_superseding_a_dna_class_memory(vault: Vault) -> None:
    owner = remember(vault, "I prefer dark mode", platform="mcp")
    assert owner.memory.type == "preference"
    vault.grant(owner.memory.id, "agent-x", ["read", "write"])
    agent = vault.acting_as("agent-x")
    said = remember(agent, "I prefer light mode", platform="mcp")
    assert said.outcome == "proposed"
    assert said.proposed == (owner.memory.id,)
    assert vault.get(owner.memory.id).status == "active"
    assert said.memory.metadata["review"]["proposed_by"] == "agent-x"


def test_the_owner_supersedes_a_dna_class_memory(vault: Vault) -> None:
    old = remember(vault, "I prefer dark mode", platform="mcp")
    new = remember(vault, "I prefer light mode", platform="mcp")
    assert (new.outcome, new.superseded) == ("superseded", (old.memory.id,))
    assert vault.get(old.memory.id).status == "superseded"


def test_first_person_reads_a_third_person_statement() -> None:
    assert first_person("User lives in Lisbon") == "I live in Lisbon"
    assert first_person("The user is a nurse") == "I am a nurse"
    assert first_person("User watches films") == "I watch films"
    assert first_person("Lives in Porto") is None
