"""Every public vault operation refused to an agent without the grant (issue #16 "Must
show"; PAM §9, docs/access.md): the Vault's methods, PAM and AIMEM import and export,
extraction and provider imports, each through an agent's session — and the same through the
command line's `--as`. Each refusal raises AccessDenied naming the agent and leaves the
vault exactly as it was; a meta-test keeps the table complete as methods are added."""

from __future__ import annotations

import inspect
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import pamdocs
from clikit import home as home
from clikit import ok, refused
from exchangekit import T0, official_conversation, put_conversation, state
from memvault.crypto.keys import SigningKey
from memvault.errors import AccessDenied, AmbiguousId, NotFound
from memvault.exchange import export_bundle, export_vault, import_bundle, import_into_vault
from memvault.extract.pipeline import run as extract_run
from memvault.importers.ingest import IngestResult, store_records
from memvault.model import Memory
from memvault.store.base import MemoryQuery, StoredConversation, StoredEmbedding
from memvault.vault import Vault
from vaultkit import PASSPHRASE, make_vault, pam_memory

AGENT = "agent-x"
LATER = T0 + timedelta(days=1)
EVERYTHING = MemoryQuery(statuses=None, limit=None)
SECRET = "Private: the owner's bank PIN hint is 4711"


@dataclass
class World:
    """A vault holding two private memories (no grant to the agent), a relation, a
    conversation, a signing key and an embedding; and files an agent might import."""

    vault: Vault
    private: Memory
    other: Memory
    tmp: Path

    @property
    def agent(self) -> Vault:
        return self.vault.acting_as(AGENT)


@pytest.fixture
def world(tmp_path: Path) -> World:
    vault = make_vault(tmp_path / "vault")
    put_conversation(vault, official_conversation("conv-001"), now=T0)
    private = pam_memory(SECRET, visibility="private")
    other = pam_memory("Private: the owner's second secret", visibility="private")
    vault.add_memories([private, other], now=T0)
    vault.relate(private.id, other.id, "related_to", now=T0)
    vault.add_key(SigningKey.new("Ed25519").to_record(), now=T0)
    vault.put_embedding(
        StoredEmbedding("e1", private.id, "mini", 2, "2026-01-01T00:00:00Z", b"\0" * 8), now=T0
    )
    return World(vault, private, other, tmp_path)


def fingerprint(vault: Vault) -> tuple[Any, ...]:
    """Everything an operation could change: stats, audit head, export registry, every
    memory, relation, conversation, embedding and key, the settings and the owner."""
    memories = {m.id: m.to_json() for m in vault.iter_memories(EVERYTHING)}
    relations = sorted(r.id for m in memories for r in vault.relations(m))
    conversations = {c.id: c.document for c in vault.conversations()}
    embeddings = {m: vault.get_embedding(m) for m in memories}
    records = vault.keys()
    keys = sorted(record.key_id for record in records)
    settings = vault.settings.to_json()
    return state(vault), memories, relations, conversations, embeddings, keys, settings


# -- the operations ----------------------------------------------------------------------------


def _pam_overwrite(w: World) -> Any:
    """The reproduced bypass (issue #16): a PAM file that overwrites a private memory."""
    changed = w.private.evolve(
        content="overwritten by the agent",
        temporal=w.private.temporal.evolve(updated_at="2027-01-01T00:00:00Z"),
    )
    changed = changed.evolve(content_hash=_hash(changed.content))
    path = pamdocs.write_store(
        w.tmp / "overwrite.json", [changed.to_json()], export_id=pamdocs.OMIT
    )
    return import_into_vault(w.agent, path, now=LATER)


def _hash(text: str) -> str:
    from memvault.canonical import content_hash

    return content_hash(text)


def _aimem_overwrite(w: World) -> Any:
    sender = make_vault(w.tmp / "sender")
    sender.add_memories(
        [pam_memory("overwritten", id=w.private.id, created_at="2026-06-01T00:00:00Z")], now=T0
    )
    bundle = w.tmp / "sender.aimem.json"
    export_bundle(sender, bundle, now=T0)
    sender.close()
    return import_bundle(w.agent, bundle, now=LATER)


def _conversation(conversation_id: str) -> StoredConversation:
    document = official_conversation(conversation_id)
    return StoredConversation(
        id=conversation_id,
        platform=document["provider"]["name"],
        document=document,
        title=document.get("title"),
        created_at=document["temporal"]["created_at"],
        message_count=len(document["messages"]),
    )


def _provider_import(w: World) -> Any:
    """A provider import (ChatGPT, Claude…) stores conversations: the owner's."""
    return store_records(w.agent, [_conversation("conv-002")], IngestResult("test/1"))


def _embedding(w: World) -> StoredEmbedding:
    return StoredEmbedding("e2", w.private.id, "mini", 2, "2026-01-01T00:00:00Z", b"\1" * 8)


#: Operation name -> (what the agent's session does, a word the refusal names).
REFUSED: dict[str, tuple[Callable[[World], Any], str]] = {
    # memories without a grant (PAM §9)
    "get": (lambda w: w.agent.get(w.private.id), "private"),
    "relations": (lambda w: w.agent.relations(w.private.id), "private"),
    "add": (lambda w: w.agent.add(SECRET, "fact"), "private"),  # a twin: reinforces it
    "add_memories": (lambda w: w.agent.add_memories([pam_memory(SECRET)]), "private"),
    "update": (lambda w: w.agent.update(w.private.id, summary="agent's"), "private"),
    "edit": (lambda w: w.agent.edit(w.private.id, add_tags=["x"]), "private"),
    "retract": (lambda w: w.agent.retract(w.private.id), "private"),
    "archive": (lambda w: w.agent.archive(w.private.id), "private"),
    "deprecate": (lambda w: w.agent.deprecate(w.private.id), "private"),
    "transition": (lambda w: w.agent.transition(w.private.id, "archived"), "private"),
    "supersede": (lambda w: w.agent.supersede(w.private.id, w.other.id), "private"),
    "relate": (lambda w: w.agent.relate(w.private.id, w.other.id, "supports"), "private"),
    "erase": (lambda w: w.agent.erase(w.private.id), "private"),
    "erase_many": (lambda w: w.agent.erase_many([w.private.id]), "erasure"),
    "erasure_request": (lambda w: w.agent.erasure_request([w.private.id]), "erasure"),
    "erase_conversation": (lambda w: w.agent.erase_conversation("conv-001"), "erasure"),
    "erase_everything": (lambda w: w.agent.erase_everything(), "erasure"),
    "grant": (lambda w: w.agent.grant(w.private.id, AGENT, ["read"]), "grant"),
    "revoke": (lambda w: w.agent.revoke(w.private.id, AGENT), "revoke"),
    "get_embedding": (lambda w: w.agent.get_embedding(w.private.id), "private"),
    "put_embedding": (lambda w: w.agent.put_embedding(_embedding(w)), "private"),
    # the vault's own records: the owner's
    "keys": (lambda w: w.agent.keys(), "signing keys"),
    "signing_key": (lambda w: w.agent.signing_key(), "signing keys"),
    "add_key": (lambda w: w.agent.add_key(SigningKey.new("Ed25519").to_record()), "keys"),
    "get_conversation": (lambda w: w.agent.get_conversation("conv-001"), "conversation"),
    "conversations": (lambda w: list(w.agent.conversations()), "conversations"),
    "count_conversations": (lambda w: w.agent.count_conversations(), "conversations"),
    "conversation_page": (lambda w: w.agent.conversation_page(), "conversations"),
    "put_conversation": (lambda w: w.agent.put_conversation(_conversation("c2")), "conversat"),
    "put_conversations": (
        lambda w: w.agent.put_conversations([_conversation("c2")]),
        "conversations",
    ),
    "audit_log": (lambda w: w.agent.audit_log(), "audit log"),
    "iter_relations": (lambda w: list(w.agent.iter_relations()), "every relation"),
    "backup_to": (lambda w: w.agent.backup_to(w.tmp / "copy.db"), "back the vault up"),
    "audit_position": (lambda w: w.agent.audit_position(), "audit log"),
    "store": (lambda w: w.agent.store, "store directly"),
    "audit_entries": (lambda w: w.agent.audit_entries(after_seq=0), "audit log"),
    "conversation_ids": (lambda w: w.agent.conversation_ids(["conv-001"]), "conversations"),
    "resolve_conversation": (lambda w: w.agent.resolve_conversation("conv"), "conversation"),
    "conversation_ids_titled": (
        lambda w: w.agent.conversation_ids_titled("chatgpt", "a title"),
        "conversations",
    ),
    "memory_hashes": (lambda w: w.agent.memory_hashes([w.private.id]), "memories by id"),
    "verify_audit": (lambda w: w.agent.verify_audit(), "audit log"),
    "exports": (lambda w: w.agent.exports(), "export registry"),
    "stats": (lambda w: w.agent.stats(), "statistics"),
    "check_integrity": (lambda w: w.agent.check_integrity(), "integrity"),
    "decay": (lambda w: w.agent.decay(), "decay"),
    "decay dry run": (lambda w: w.agent.decay(dry_run=True), "decay"),
    "update_settings": (lambda w: w.agent.update_settings(floor=0.2), "settings"),
    "change_passphrase": (
        lambda w: w.agent.change_passphrase(PASSPHRASE, "another passphrase"),
        "passphrase",
    ),
    "acting_as": (lambda w: w.agent.acting_as("user"), "only the owner"),
    "reindex": (lambda w: w.agent.reindex(), "recall index"),
    "embed": (lambda w: w.agent.embed(), "embeddings"),
    # module-level operations over a session
    "import PAM": (_pam_overwrite, "PAM §9"),
    "import AIMEM": (_aimem_overwrite, "PAM §9"),
    "export PAM incremental": (
        lambda w: export_vault(w.agent, w.tmp / "delta", incremental=True, now=LATER),
        "export registry",
    ),
    "extract": (lambda w: extract_run(w.agent), "conversations"),
    "provider import": (_provider_import, "conversations"),
}

#: Public Vault methods an agent may call: what they return or change is limited by its
#: grants (above, refused where it has none), or they change nothing of the vault's.
LIMITED: dict[str, str] = {
    "list": "only what it may read (test_vault.py, test_pam_9_export_holds_only…)",
    "iter_memories": "only what it may read",
    "search": "only what it may read",
    "recall": "only the memories it may read, no conversation message (docs/recall.md)",
    "embedder_spec": "the name (and URL) of the vault's embedding model; no secret",
    "add_memories_unless_known": "a memory the vault has is left out, written by nobody",
    "resolve": "an id prefix to an id; reading the memory is checked by `get`",
    "record_export": "bookkeeping of its own import or export (docs/access.md)",
    "background": "returns the agent's own session",
    "unit_of_work": "each write checked as the one-memory methods check it (test_unit_of_work.py)",
    "export_view": "only the memories it may read; conversations, audit log refused",
    "exchange_meta": "vault-wide exchange settings (producer namespace, models), no memory data",
    "close": "a session closes nothing",
    "release_memory": "frees connection memory; no vault data read or changed",
    "schema_version": "the store's schema version, no memory data",
    "transaction": "groups the session's own calls, each still checked",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_pam_9_every_operation_is_refused_to_an_agent_without_the_grant(
    world: World, name: str
) -> None:
    """PAM §9 / docs/access.md: an agent with no grant is refused, the refusal names it,
    and nothing of the vault moved (memories, relations, conversations, embeddings, keys,
    settings, audit log, export registry)."""
    operation, word = REFUSED[name]
    before = fingerprint(world.vault)
    with pytest.raises(AccessDenied) as caught:
        operation(world)
    message = str(caught.value)
    assert AGENT in message and word in message, message
    assert fingerprint(world.vault) == before
    assert world.vault.get(world.private.id).content == SECRET
    assert world.vault.verify_audit().ok


def test_every_public_vault_method_is_in_the_refusal_table() -> None:
    """A method added to Vault without deciding what an agent may do with it fails here."""
    public = {n for n, _ in inspect.getmembers(Vault, inspect.isfunction) if n[0] != "_"}
    assert public - set(REFUSED) - set(LIMITED) == set()


def test_pam_9_the_owner_may_do_what_the_agent_was_refused(world: World) -> None:
    """The same vault answers the owner (the refusals are about the actor, not the data)."""
    assert world.vault.get(world.private.id).content == SECRET
    assert world.vault.keys() and world.vault.stats()["memories"] == 2
    assert _pam_overwrite_as(world, world.vault).updated == 1


def _pam_overwrite_as(w: World, session: Vault) -> Any:
    changed = w.private.evolve(
        content="overwritten by the owner",
        temporal=w.private.temporal.evolve(updated_at="2027-01-01T00:00:00Z"),
    )
    changed = changed.evolve(content_hash=_hash(changed.content))
    path = pamdocs.write_store(w.tmp / "owner.json", [changed.to_json()], export_id=pamdocs.OMIT)
    return import_into_vault(session, path, now=LATER)


@pytest.mark.parametrize(
    "export",
    [
        lambda w, out: export_vault(w.agent, out / "pam", now=LATER),
        lambda w, out: export_vault(w.agent, out / "pam.zip", now=LATER),
        lambda w, out: export_bundle(w.agent, out / "bundle.aimem.json", now=LATER),
        lambda w, out: export_bundle(
            w.agent, out / "bundle.aimem.ndjson", embeddings=True, now=LATER
        ),
    ],
    ids=["PAM directory", "PAM zip", "AIMEM json", "AIMEM ndjson with embeddings"],
)
def test_pam_9_an_agents_export_never_writes_a_private_memory(
    world: World, export: Callable[[World, Path], Any]
) -> None:
    """The reproduced bypass (issue #16): a PAM export run as agent-x wrote a private
    memory out. An agent's export holds only what it may read: here nothing of the owner's
    — no private memory, relation, embedding or conversation."""
    out = world.tmp / "out"
    out.mkdir()
    public = world.vault.add("Public: lives in Lisbon", "fact", visibility="public").memory
    export(world, out)
    written = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    for archive in out.rglob("*.zip"):
        with zipfile.ZipFile(archive) as z:
            written += b"".join(z.read(n) for n in z.namelist())
    assert SECRET.encode() not in written
    assert world.private.id.encode() not in written and world.other.id.encode() not in written
    assert b"conv-001" not in written
    assert public.id.encode() in written


def test_pam_16_an_agents_export_is_never_the_base_of_the_owners_delta(world: World) -> None:
    """PAM §16: an incremental export applies to the base it names; the owner's next delta
    is based on the owner's last export, not on the export of what agent-x may read (which
    the owner's receivers never had). The agent's export is audited all the same."""
    full = export_vault(world.vault, world.tmp / "full", now=T0)
    agent = export_vault(world.agent, world.tmp / "agent", now=LATER)
    assert world.vault.audit_log()[-1].actor == AGENT
    assert [r.export_id for r in world.vault.exports()] == [full.export_id]
    world.vault.add("A new fact", "fact", now=LATER)
    delta = export_vault(world.vault, world.tmp / "delta", incremental=True, now=LATER)
    assert delta.base_export_id == full.export_id != agent.export_id


# -- the command line: --as on every command that reads or writes the vault --------------------


def _refusal(session: Vault, id_or_prefix: str) -> tuple[type[BaseException], str]:
    """What `resolve` raises for this id or prefix: the error's type and message."""
    with pytest.raises((NotFound, AmbiguousId)) as caught:
        session.resolve(id_or_prefix)
    return type(caught.value), str(caught.value)


@pytest.fixture
def prefixed(tmp_path: Path) -> Vault:
    """Two private memories under the prefix "dd-", one under "ee-", and a public one
    beside a private one under "ff-"."""
    vault = make_vault(tmp_path / "prefixed")
    vault.add_memories(
        [
            pam_memory("Private one", id="dd-private-1"),
            pam_memory("Private two", id="dd-private-2"),
            pam_memory("Private three", id="ee-private-3"),
            pam_memory("Private four", id="ff-private-4"),
            pam_memory("Public", id="ff-public-5", visibility="public"),
        ],
        now=T0,
    )
    return vault


@pytest.mark.parametrize("prefix", ["dd-", "dd-private", "ee-", "ee-private-"])
def test_pam_9_a_prefix_of_memories_an_agent_may_not_read_answers_as_an_unknown_one(
    prefixed: Vault, prefix: str
) -> None:
    """PAM §9: an agent resolving an id prefix that only memories it may not read carry —
    ambiguous ("dd-") or unique ("ee-") — gets exactly the answer of a prefix nothing
    carries, so a prefix never tells it that a private memory exists."""
    agent = prefixed.acting_as(AGENT)
    unknown = "zz" + prefix[2:]
    answer = _refusal(agent, prefix)
    assert answer == (NotFound, _refusal(agent, unknown)[1].replace(unknown, prefix))
    assert answer[0] is NotFound and "private" not in answer[1].replace(prefix, "")
    with pytest.raises(NotFound):
        agent.get(prefix)


def test_pam_9_an_agents_prefix_resolves_among_what_it_may_read(prefixed: Vault) -> None:
    """The public memory is the agent's one match for "ff-", though a private one carries
    the prefix too; the owner sees both."""
    agent = prefixed.acting_as(AGENT)
    assert agent.resolve("ff-") == "ff-public-5"
    assert agent.get("ff-").content == "Public"
    owner = _refusal(prefixed, "ff-")
    assert owner[0] is AmbiguousId and "ff-private-4" in owner[1]
    assert prefixed.resolve("ee-") == "ee-private-3"
    assert _refusal(prefixed, "dd-")[0] is AmbiguousId


@pytest.fixture
def cli_vault(home: Path, tmp_path: Path) -> dict[str, str]:
    """A vault (through the CLI) with a private memory and a key; a PAM file overwriting
    that memory, as an agent might bring."""
    ok("init")
    memory = ok("add", SECRET, "-t", "fact", "--json").json()["memory"]
    ok("keys", "generate")
    changed = Memory.from_json(memory)
    changed = changed.evolve(
        content="overwritten by the agent",
        content_hash=_hash("overwritten by the agent"),
        temporal=changed.temporal.evolve(updated_at="2027-01-01T00:00:00Z"),
    )
    source = pamdocs.write_store(
        tmp_path / "overwrite.json", [changed.to_json()], export_id=pamdocs.OMIT
    )
    return {"id": memory["id"], "source": str(source), "tmp": str(tmp_path)}


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["keys", "list"], "signing keys"),
        (["keys", "generate"], "keys"),
        (["keys", "export-public", "z6Mk"], "signing keys"),
        (["audit"], "audit log"),
        (["audit", "verify"], "audit log"),
        (["stats"], "statistics"),
        (["decay"], "decay"),
        (["extract"], "conversations"),
        (["erase", "{id}", "--yes"], "erasure"),
        (["erase", "--conversation", "conv-001", "--yes"], "erasure"),
        (["show", "{id}"], "read"),
        (["edit", "{id}", "--summary", "x"], "change"),
        (["retract", "{id}"], "status"),
        (["export", "-o", "{tmp}/delta", "--incremental"], "export registry"),
        (["import", "{source}"], "PAM §9"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_pam_9_cli_as_agent_is_refused(
    cli_vault: dict[str, str], args: list[str], word: str
) -> None:
    """`--as agent-x` on a command the agent may not run: one line naming the agent and
    the rule, exit 1, no traceback, and the vault as it was (`stats`, `list`, `audit`)."""
    before = _cli_snapshot()
    stderr = refused(*[a.format(**cli_vault) for a in args], "--as", AGENT)
    assert AGENT in stderr and word in stderr, stderr
    assert stderr.count("\n") == 1
    assert _cli_snapshot() == before


def _cli_snapshot() -> tuple[Any, ...]:
    stats = ok("stats", "--json").json()
    stats.pop("db_size_bytes", None)
    memories = ok("list", "--status", "all", "--limit", "0", "--json").json()
    return stats, memories, ok("audit", "--limit", "0", "--json").json()


def test_pam_9_cli_export_as_agent_holds_only_what_it_may_read(
    cli_vault: dict[str, str], tmp_path: Path
) -> None:
    """`memvault export --as agent-x` (PAM and AIMEM): the private memory is not written,
    the public one is; the command says whose view it wrote."""
    public = ok("add", "Public: lives in Lisbon", "-t", "fact", "--visibility", "public", "--json")
    public_id = public.json()["memory"]["id"]
    pam = ok("export", "-o", tmp_path / "agent.json", "--as", AGENT, "--json").json()
    assert any(AGENT in w for w in pam["warnings"])
    aimem_path = tmp_path / "agent.aimem.json"
    ok("export", "--format", "aimem", "-o", aimem_path, "--as", AGENT)
    for path in (tmp_path / "agent.json", aimem_path):
        text = path.read_bytes()
        assert SECRET.encode() not in text and cli_vault["id"].encode() not in text
        assert public_id.encode() in text
    ok("export", "-o", tmp_path / "owner.json")
    assert cli_vault["id"].encode() in (tmp_path / "owner.json").read_bytes()


def test_pam_9_cli_import_as_agent_creates_its_own_memories(
    cli_vault: dict[str, str], tmp_path: Path
) -> None:
    """`memvault import --as agent-x` of a file holding only new memories: created, the
    agent holding read and write on them; the owner's private memory untouched."""
    fresh = pam_memory("An agent's new fact", visibility="private")
    source = pamdocs.write_store(tmp_path / "fresh.json", [fresh.to_json()], export_id=pamdocs.OMIT)
    ok("import", source, "--as", AGENT)
    shown = ok("show", fresh.id, "--as", AGENT, "--json").json()["memory"]
    assert shown["access"]["shared_with"] == [{"entity": AGENT, "permissions": ["read", "write"]}]
    assert ok("show", cli_vault["id"], "--json").json()["memory"]["content"] == SECRET


def test_pam_9_cli_list_and_search_as_agent_are_limited(cli_vault: dict[str, str]) -> None:
    ok("add", "Public: lives in Lisbon", "-t", "fact", "--visibility", "public")
    listed = ok("list", "--as", AGENT, "--json").json()
    assert [m["content"] for m in listed["memories"]] == ["Public: lives in Lisbon"]
    found = ok("search", "PIN", "--as", AGENT, "--json").json()
    assert found["results"] == []


def test_cli_as_an_empty_name_is_a_usage_error(cli_vault: dict[str, str]) -> None:
    stderr = refused("stats", "--as", "", code=2)
    assert "non-empty" in stderr
