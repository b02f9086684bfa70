"""Tag edits as one library operation: `Vault.update(id, tags=…, add_tags=…, remove_tags=…)`.

The merge of the stored tags with the tags to add and remove used to be done by the CLI's
`edit` command, from tags it had read before its transaction began; a change made meanwhile
by another writer was lost. The vault now merges inside the update's own transaction."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.vault import AccessDenied, InvalidInput, Vault
from vaultkit import PASSPHRASE, make_vault


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    yield v
    v.close()


def test_add_and_remove_tags_merge_with_the_stored_tags(vault: Vault) -> None:
    memory = vault.add("Lives in Porto", "fact", tags=["home", "city"]).memory
    updated = vault.update(memory.id, add_tags=["travel", "home"], remove_tags=["city"])
    assert updated.tags == ("home", "travel")
    assert vault.get(memory.id).tags == ("home", "travel")
    # `tags` replaces first; additions and removals then apply to it.
    again = vault.update(memory.id, tags=["a", "b"], add_tags=["c"], remove_tags=["a"])
    assert again.tags == ("b", "c")
    last = vault.audit_log()[-1]
    assert (last.action, last.details["changed"]) == ("update", ["tags"])


def test_tag_edit_that_changes_nothing_writes_nothing(vault: Vault) -> None:
    memory = vault.add("Lives in Porto", "fact", tags=["home"]).memory
    entries = vault.verify_audit().entries
    same = vault.update(memory.id, add_tags=["home"], remove_tags=["absent", "Not-A-Tag"])
    assert same.tags == ("home",) and same.temporal.updated_at is None
    assert vault.verify_audit().entries == entries


def test_tags_to_add_follow_the_pam_tag_rule(vault: Vault) -> None:
    """PAM §4.3: an added tag breaking the tag pattern is refused, naming the argument."""
    memory = vault.add("Lives in Porto", "fact").memory
    with pytest.raises(InvalidInput, match="add_tags") as caught:
        vault.update(memory.id, add_tags=["Not A Tag"])
    assert caught.value.field == "add_tags"
    with pytest.raises(InvalidInput, match="remove_tags"):
        vault.update(memory.id, remove_tags="home")
    assert vault.get(memory.id).tags == memory.tags


def test_an_agent_needs_write_to_change_tags(vault: Vault) -> None:
    """PAM §9: adding a tag is a change; an agent without the write grant is refused."""
    memory = vault.add("Lives in Porto", "fact", visibility="shared").memory
    vault.grant(memory.id, "agent-x", ["read"])
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-x").update(memory.id, add_tags=["x"])
    vault.grant(memory.id, "agent-x", ["write"])
    assert vault.acting_as("agent-x").update(memory.id, add_tags=["x"]).tags == ("x",)


def test_concurrent_tag_additions_lose_nothing(vault: Vault, tmp_path: Path) -> None:
    """Two writers (each its own Vault on the same file) add tags to one memory at once:
    each addition merges with the tags stored at that moment, so every tag is kept."""
    memory = vault.add("Lives in Porto", "fact").memory
    per_writer = 15
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def writer(name: str) -> None:
        try:
            with Vault.open(tmp_path / "home", PASSPHRASE) as own:
                start.wait()
                for i in range(per_writer):
                    own.update(memory.id, add_tags=[f"{name}-{i}"])
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    tags = set(vault.get(memory.id).tags)  # type: ignore[arg-type]
    assert tags == {f"{n}-{i}" for n in ("a", "b") for i in range(per_writer)}
    assert vault.verify_audit().ok


def test_an_edit_patch_is_applied_whole_or_not_at_all(vault: Vault) -> None:
    """PAM §9: `Vault.edit` applies fields, grants and revokes in one transaction. An agent
    may change tags (it holds write) but not grant access: the refused grant takes the tag
    change back with it."""
    memory = vault.add("Lives in Porto", "fact", tags=["home"]).memory
    vault.grant(memory.id, "agent-x", ["read", "write"])
    entries = vault.verify_audit().entries
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-x").edit(
            memory.id[:8], add_tags=["x"], grants=[("agent-y", ["read"])]
        )
    assert vault.get(memory.id).tags == ("home",)
    assert vault.verify_audit().entries == entries
    done = vault.edit(
        memory.id[:8],
        add_tags=["travel"],
        summary="Porto",
        grants=[("agent-y", ["read"])],
        revokes=[("agent-x", ["write"])],
    )
    assert done.tags == ("home", "travel") and done.summary == "Porto"
    grants = {g.entity: g.permissions for g in done.access.shared_with}  # type: ignore[union-attr]
    assert grants == {"agent-x": ("read",), "agent-y": ("read",)}
    assert vault.get(memory.id) == done


def test_an_empty_edit_patch_is_refused(vault: Vault) -> None:
    memory = vault.add("Lives in Porto", "fact").memory
    with pytest.raises(InvalidInput, match="nothing to change"):
        vault.edit(memory.id)
