"""The permission model (docs/access.md) on the paths that went around it: PAM and AIMEM
import and export run as an agent, and the vault's reads that took no actor (keys,
conversations, audit log, export registry, statistics). Issue #16; PAM §9.

Each refusal is checked to leave the vault exactly as it was (`fingerprint`)."""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import pamdocs
from clikit import home as home
from clikit import ok, refused
from exchangekit import (
    T0,
    assert_clean,
    official_conversation,
    put_conversation,
    raw_output,
    read_export,
    state,
)
from memvault.crypto.keys import SigningKey
from memvault.errors import AccessDenied
from memvault.exchange import export_vault, import_into_vault
from memvault.exchange.aimem import export_bundle, import_bundle
from memvault.extract.pipeline import run as extract_run
from memvault.model import Memory, Relation
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import make_vault, pam_memory

AGENT = "agent-x"
LATER = T0 + timedelta(days=1)
EVERYTHING = MemoryQuery(statuses=None, limit=None)
PRIVATE_TEXT = "Private: the owner's bank PIN hint is 4711"


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return make_vault(tmp_path / "vault")


@pytest.fixture
def mems(vault: Vault) -> dict[str, Memory]:
    """A private memory, one `agent-x` may read, one it may read and write, a public one,
    relations among them, and a conversation."""
    put_conversation(vault, official_conversation("conv-001"), now=T0)
    made = {
        "private": pam_memory(PRIVATE_TEXT, visibility="private"),
        "readonly": pam_memory(
            "Shared read-only: prefers tea",
            visibility="shared",
            shared_with=[{"entity": AGENT, "permissions": ["read"]}],
        ),
        "writable": pam_memory(
            "Shared writable: works on memvault",
            visibility="shared",
            shared_with=[{"entity": AGENT, "permissions": ["read", "write"]}],
        ),
        "public": pam_memory("Public: lives in Lisbon", visibility="public"),
    }
    vault.add_memories(list(made.values()), now=T0)
    vault.relate(made["private"].id, made["writable"].id, "related_to", now=T0)
    vault.relate(made["writable"].id, made["readonly"].id, "related_to", now=T0)
    vault.relate(made["public"].id, made["private"].id, "related_to", now=T0)
    return made


def fingerprint(vault: Vault) -> tuple[Any, ...]:
    """Everything an import could change: stats, audit head, registry, every memory,
    every relation, every conversation."""
    memories = {m.id: m.to_json() for m in vault.iter_memories(EVERYTHING)}
    relations = sorted(r.id for m in memories for r in vault.store.relations_of(m))
    conversations = {c.id: c.document for c in vault.conversations()}
    return state(vault), memories, relations, conversations


#: These imports are of files no vault has seen: no export id to recognise them by.
write_store = partial(pamdocs.write_store, export_id=pamdocs.OMIT)


def newer(memory: Memory, **changes: Any) -> dict[str, Any]:
    """`memory` as a later export would carry it, with `changes`."""
    temporal = memory.temporal.evolve(updated_at="2027-01-01T00:00:00Z")
    return memory.evolve(temporal=temporal, **changes).to_json()


def assert_refused_unchanged(vault: Vault, call: Any, *words: str) -> str:
    before = fingerprint(vault)
    with pytest.raises(AccessDenied) as caught:
        call()
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert fingerprint(vault) == before
    assert vault.verify_audit().ok
    return message


# -- 1. import ----------------------------------------------------------------------------------


def test_pam_9_agent_import_cannot_overwrite_a_private_memory(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """The reproduced bypass: `Vault.update` refuses agent-x a private memory (PAM §9); an
    import run as agent-x overwrote it. Now the whole import is refused, naming the memory,
    and the new memory that came before it in the file is not kept either."""
    private = mems["private"]
    with pytest.raises(AccessDenied):
        vault.acting_as(AGENT).update(private.id, summary="agent's summary")
    fresh = pam_memory("An agent's new fact")
    source = write_store(
        tmp_path / "overwrite.json",
        [fresh.to_json(), newer(private, content="overwritten", content_hash=_hash("overwritten"))],
    )
    message = assert_refused_unchanged(
        vault,
        lambda: import_into_vault(vault.acting_as(AGENT), source, now=LATER),
        private.id,
        "PAM §9",
        "nothing was applied",
    )
    assert "private" in message
    assert vault.get(private.id).content == PRIVATE_TEXT
    assert fresh.id not in {m.id for m in vault.iter_memories(EVERYTHING)}
    # The owner's import of the same file is unchanged: it updates.
    result = import_into_vault(vault, source, now=LATER)
    assert result.updated == 1 and vault.get(private.id).content == "overwritten"
    assert vault.verify_audit().ok  # the refused import left the audit chain whole


def test_pam_9_agent_import_cannot_retract_a_memory_it_may_only_read(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """A retraction is a change of the stored memory: the write grant is needed (PAM §9)."""
    readonly = mems["readonly"]
    source = write_store(tmp_path / "retract.json", [newer(readonly, status="retracted")])
    assert_refused_unchanged(
        vault,
        lambda: import_into_vault(vault.acting_as(AGENT), source, now=LATER),
        readonly.id,
        "'write'",
        "PAM §9",
    )
    assert vault.get(readonly.id).status == "active"


def test_pam_9_agent_import_updates_what_it_may_write_and_owns_what_it_creates(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """An agent's import updates memories it holds write on, and creates new ones on which
    it then holds read and write (as `add` does); unchanged memories it may only read pass."""
    writable = mems["writable"]
    fresh = pam_memory("An agent's new fact", visibility="private")
    source = write_store(
        tmp_path / "ok.json",
        [newer(writable, summary="edited by agent"), mems["public"].to_json(), fresh.to_json()],
    )
    result = import_into_vault(vault.acting_as(AGENT), source, now=LATER)
    assert (result.updated, result.created) == (1, 1)
    assert vault.acting_as(AGENT).get(writable.id).summary == "edited by agent"
    created = vault.acting_as(AGENT).get(fresh.id)
    assert created.access.visibility == "shared"  # type: ignore[union-attr]
    grants = {g.entity: tuple(g.permissions) for g in created.access.shared_with}  # type: ignore[union-attr]
    assert grants == {AGENT: ("read", "write")}


def test_pam_9_agent_import_never_changes_an_access_block(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """Even on a memory it may write, visibility and grants are the owner's (as in
    `Vault.update`)."""
    writable = mems["writable"]
    access = writable.access.evolve(visibility="public")  # type: ignore[union-attr]
    source = write_store(tmp_path / "public.json", [newer(writable, access=access)])
    assert_refused_unchanged(
        vault,
        lambda: import_into_vault(vault.acting_as(AGENT), source, now=LATER),
        writable.id,
        "access block",
    )


def test_pam_9_agent_import_of_a_relation_needs_access_to_both_ends(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """A relation to a memory the agent may not read is refused (PAM §9, §13), as
    `Vault.relate` refuses it."""
    relation = Relation(
        id="7a0c4a53-2f0e-4b35-9d8a-0c2f1e3d4b5a",
        from_=mems["writable"].id,
        to=mems["private"].id,
        type="supports",
        created_at="2026-02-01T00:00:00Z",
    )
    source = write_store(
        tmp_path / "relation.json",
        [mems["writable"].to_json(), mems["private"].to_json()],
        relations=[relation.to_json()],
    )
    assert_refused_unchanged(
        vault,
        lambda: import_into_vault(vault.acting_as(AGENT), source, now=LATER),
        mems["private"].id,
        "PAM §9",
    )


def test_pam_9_agent_import_of_conversations_is_refused(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """Conversations are the owner's: an agent's import holding one is refused whole."""
    source = tmp_path / "conversation.json"
    source.write_text(json.dumps(official_conversation("conv-002")), encoding="utf-8")
    assert_refused_unchanged(
        vault,
        lambda: import_into_vault(vault.acting_as(AGENT), source, now=LATER),
        "import conversations",
    )
    assert vault.count_conversations() == 1


def test_pam_9_agent_aimem_import_cannot_overwrite_a_private_memory(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """The same bypass through an AIMEM bundle (AIMEM §2.9 rule 3, a newer chunk): refused,
    nothing applied."""
    private = mems["private"]
    sender = make_vault(tmp_path / "sender")
    sender.add_memories(
        [
            pam_memory("Sender's fact"),
            pam_memory("overwritten", id=private.id, created_at="2026-06-01T00:00:00Z"),
        ],
        now=T0,
    )
    bundle = tmp_path / "sender.aimem.json"
    export_bundle(sender, bundle, now=T0)
    assert_refused_unchanged(
        vault,
        lambda: import_bundle(vault.acting_as(AGENT), bundle, now=LATER),
        private.id,
        "PAM §9",
        "nothing was applied",
    )
    assert vault.get(private.id).content == PRIVATE_TEXT
    assert import_bundle(vault, bundle, now=LATER).updated == 1  # the owner's: applied


# -- 2. export ----------------------------------------------------------------------------------


def test_pam_9_agent_pam_export_holds_only_what_it_may_read(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """The reproduced bypass: a PAM export run as agent-x wrote a private memory out. Now it
    holds the memories it may read (as `Vault.list`), the relations between them, and no
    conversations."""
    out = tmp_path / "agent-export"
    result = export_vault(vault.acting_as(AGENT), out, now=LATER)
    view = read_export(out)
    readable = {m.id for m in vault.acting_as(AGENT).iter_memories(EVERYTHING)}
    assert (
        set(view.memories) == readable == {mems[k].id for k in ("readonly", "writable", "public")}
    )
    assert PRIVATE_TEXT.encode() not in raw_output(out)
    assert mems["private"].id.encode() not in raw_output(out)
    assert len(view.relations) == 1  # writable -> readonly; both others touch the private one
    assert not view.index and not view.conversations
    assert result.withheld == 0 and any(AGENT in w for w in result.warnings)
    assert_clean(out)  # still valid PAM: no dangling superseded_by or relation end


def test_pam_9_owner_pam_export_is_unchanged(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    out = tmp_path / "owner-export"
    export_vault(vault, out, now=LATER)
    view = read_export(out)
    assert set(view.memories) == {m.id for m in mems.values()}
    assert len(view.relations) == 3 and set(view.index) == {"conv-001"}


def test_pam_9_agent_delta_export_is_refused(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    """A delta is built from the owner's export registry and audit log: an agent's export
    is full."""
    export_vault(vault, tmp_path / "base", now=T0)
    with pytest.raises(AccessDenied, match="export registry"):
        export_vault(vault.acting_as(AGENT), tmp_path / "delta", incremental=True, now=LATER)
    assert not (tmp_path / "delta").exists()


def test_pam_9_agent_aimem_export_holds_only_what_it_may_read(
    vault: Vault, mems: dict[str, Memory], tmp_path: Path
) -> None:
    out = tmp_path / "agent.aimem.json"
    export_bundle(vault.acting_as(AGENT), out, now=LATER)
    text = out.read_bytes()
    assert PRIVATE_TEXT.encode() not in text and mems["private"].id.encode() not in text
    assert mems["writable"].id.encode() in text


# -- 3. reads that took no actor ----------------------------------------------------------------


def test_pam_9_keys_are_refused_to_an_agent(vault: Vault) -> None:
    """`keys()` returns private signing keys: the owner's alone."""
    vault.add_key(SigningKey.new("Ed25519").to_record(), now=T0)
    assert vault.keys()[0].private_key is not None
    with pytest.raises(AccessDenied, match="signing keys"):
        vault.acting_as(AGENT).keys()
    with pytest.raises(AccessDenied):
        vault.acting_as("system").keys()


@pytest.mark.parametrize(
    ("read", "words"),
    [
        (lambda v: v.acting_as(AGENT).get_conversation("conv-001"), "conversation 'conv-001'"),
        (lambda v: list(v.acting_as(AGENT).conversations()), "conversations"),
        (lambda v: v.acting_as(AGENT).count_conversations(), "conversations"),
        (lambda v: v.acting_as(AGENT).audit_log(), "audit log"),
        (lambda v: v.acting_as(AGENT).verify_audit(), "audit log"),
        (lambda v: v.acting_as(AGENT).exports(), "export registry"),
        (lambda v: v.acting_as(AGENT).stats(), "statistics"),
    ],
    ids=["get_conversation", "conversations", "count", "audit_log", "verify", "exports", "stats"],
)
def test_pam_9_owner_records_are_refused_to_an_agent(
    vault: Vault, mems: dict[str, Memory], read: Any, words: str
) -> None:
    """Conversations, the audit log, the export registry and statistics are the owner's; no
    PAM §9 grant names them, so an agent is refused and the owner answered."""
    with pytest.raises(AccessDenied, match=words):
        read(vault)
    assert vault.get_conversation("conv-001").id == "conv-001"
    assert vault.acting_as("system").audit_log() and vault.stats()["memories"] == 4


def test_pam_9_extract_as_an_agent_is_refused(vault: Vault, mems: dict[str, Memory]) -> None:
    """Extraction reads the owner's conversations."""
    before = fingerprint(vault)
    with pytest.raises(AccessDenied, match="conversation"):
        extract_run(vault.acting_as(AGENT))
    with pytest.raises(AccessDenied):
        extract_run(vault.acting_as(AGENT), conversations=[])
    assert fingerprint(vault) == before


def test_pam_9_cli_extract_as_an_agent_is_refused(home: Path) -> None:
    """`memvault extract --as agent-x`: one line, exit 1, no traceback."""
    ok("init")
    stderr = refused("extract", "--as", AGENT)
    assert "agent-x" in stderr and "conversations" in stderr


def _hash(text: str) -> str:
    from memvault.canonical import content_hash

    return content_hash(text)
