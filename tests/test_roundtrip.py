"""Round trip: vault → export → import into an empty vault → export again gives the same
memories, relations, conversations and embeddings, byte for byte in RFC 8785 form (PAM §15.1).
Once with a vault holding every memory type, status, relation type and access setting, and as a
Hypothesis property over generated vaults. Every export on the way validates clean with
memvault's validator and against the official schemas (PAM §2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exchangekit import (
    T0,
    assert_clean,
    official_conversation,
    put_conversation,
    read_export,
    rich_vault,
)
from memvault.exchange import export_vault, import_into_vault
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES, RELATION_TYPES
from memvault.store.base import MemoryQuery, StoredEmbedding
from memvault.vault import Vault
from vaultkit import make_vault, pam_memory


def round_trip(vault: Vault, root: Path, name: str) -> tuple[Path, Path, Vault]:
    first = root / f"first-{name}"
    export_vault(vault, first)
    receiver = make_vault(root / f"receiver-{name}", owner_id=vault.owner.id)
    result = import_into_vault(receiver, first)
    assert not result.reinforced and not result.kept
    second = root / f"second-{name}"
    export_vault(receiver, second)
    return first, second, receiver


@pytest.mark.parametrize("name", ["dir", "export.zip"])
def test_every_kind_of_memory_survives_the_round_trip(tmp_path: Path, name: str) -> None:
    vault = make_vault(tmp_path / "vault")
    rich_vault(vault)
    first, second, receiver = round_trip(vault, tmp_path, name)
    assert_clean(first, allowed=("superseded-without-replacement",))
    a, b = read_export(first), read_export(second)
    assert a.canonical == b.canonical
    memories = [m for m in receiver.iter_memories(MemoryQuery(statuses=None, limit=None))]
    assert {m.type for m in memories} == set(MEMORY_TYPES)
    assert {m.status for m in memories} == set(MEMORY_STATUSES)
    assert {r["type"] for r in map(_json, a.relations.values())} == set(RELATION_TYPES)
    assert {m.access.visibility for m in memories} == {"private", "shared", "public"}  # type: ignore[union-attr]
    assert len(a.conversations) == 2 and len(a.embeddings) == 2
    assert receiver.verify_audit().ok


def _json(data: bytes) -> Any:
    import orjson

    return orjson.loads(data)


# -- generated vaults -------------------------------------------------------------------------

words = st.text(
    alphabet=st.sampled_from(list('abcxyz ÁçãéñøßЖж中文🙂"\\\t\n ')), min_size=1, max_size=24
)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53) + 1, 2**53 - 1),
    # (a whole float from 2**53 up is written by RFC 8785 as an integer the validator refuses
    # as beyond exact range: the vault should not accept one, see docs/exchange.md)
    st.floats(-1e15, 1e15),
    words,
)
memory_spec = st.fixed_dictionaries(
    {
        "text": words,
        "type": st.sampled_from(MEMORY_TYPES),
        "status": st.sampled_from(MEMORY_STATUSES),
        "tags": st.lists(st.sampled_from(["a", "b-1", "x_y", "z9"]), max_size=3, unique=True),
        "access": st.sampled_from(["private", "shared", "public"]),
        "exportable": st.booleans(),
        "platform": st.sampled_from(["chatgpt", "claude", "gemini"]),
        "user": st.one_of(st.none(), words),
        "conversation": st.sampled_from([None, 0, 1]),
        "confidence": st.floats(0, 1),
        "summary": st.one_of(st.none(), words),
        "extra": json_scalar,
        "superseded_by": st.one_of(st.none(), st.integers(0, 20)),
    }
)
vault_spec = st.fixed_dictionaries(
    {
        "memories": st.lists(memory_spec, min_size=1, max_size=8),
        "relations": st.lists(
            st.tuples(st.integers(0, 20), st.integers(0, 20), st.sampled_from(RELATION_TYPES),
                      st.one_of(st.none(), st.floats(0, 1))),
            max_size=6,
        ),
        "embeddings": st.lists(
            st.tuples(st.integers(0, 20), st.lists(st.floats(width=32, allow_nan=False,
                                                             allow_infinity=False),
                                                   min_size=1, max_size=4)),
            max_size=4,
        ),
        "conversations": st.integers(0, 2),
        "container": st.sampled_from(["dir", "out.zip"]),
    }
)  # fmt: skip

PLATFORM_OF_CONVERSATION = ("claude", "chatgpt")


def build(vault: Vault, spec: dict[str, Any]) -> None:
    for n in range(spec["conversations"]):
        document = official_conversation(f"conv-{n}", title=f"Conversation {n}")
        document["provider"] = {**document["provider"], "name": PLATFORM_OF_CONVERSATION[n]}
        put_conversation(vault, document, now=T0)
    specs = spec["memories"]
    memories = []
    for i, m in enumerate(specs):
        memory = pam_memory(
            f"{m['text']} #{i}",
            type=m["type"],
            custom_type="procedure" if m["type"] == "custom" else None,
            status=m["status"],
            tags=m["tags"],
            visibility=m["access"],
            exportable=m["exportable"],
            shared_with=[{"entity": "agent:x", "permissions": ["read"]}]
            if m["access"] == "shared"
            else [],
            confidence=m["confidence"],
            summary=m["summary"],
            platform=m["platform"],
            metadata={"language": "en", "extra": m["extra"]},
        )
        conversation = m["conversation"]
        if conversation is not None and conversation < spec["conversations"]:
            platform = PLATFORM_OF_CONVERSATION[conversation]
            provenance = memory.provenance.evolve(
                platform=platform, conversation_ref=f"conv-{conversation}"
            )
        else:
            provenance = memory.provenance
        memory = memory.evolve(provenance=provenance.evolve(platform_user_id=m["user"]))
        memories.append(memory)
    for i, m in enumerate(specs):
        target = m["superseded_by"]
        if m["status"] == "superseded" and target is not None and target < len(memories):
            memories[i] = memories[i].evolve(
                temporal=memories[i].temporal.evolve(superseded_by=memories[target].id)
            )
    vault.add_memories(memories, now=T0)
    ids = [m.id for m in memories]
    for a, b, kind, confidence in spec["relations"]:
        if a < len(ids) and b < len(ids) and a != b:
            vault.relate(ids[a], ids[b], kind, confidence=confidence, now=T0)
    for n, (index, values) in enumerate(spec["embeddings"]):
        if index < len(ids):
            import struct

            vault.put_embedding(
                StoredEmbedding(f"emb-{n}", ids[index], "gen", len(values),
                                "2026-01-01T00:00:00Z", struct.pack(f"<{len(values)}f", *values)),
                now=T0,
            )  # fmt: skip


#: Findings generated data can legitimately cause (they describe the data, not the export).
DATA_NOTES = (
    "superseded-without-replacement",
    "superseded-by-self",
    "conversation-ref-unresolved",
    "supersession-not-superseded",
    "relation-self-loop",
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(spec=vault_spec)
def test_generated_vaults_round_trip(
    tmp_path_factory: pytest.TempPathFactory, spec: dict[str, Any]
) -> None:
    root = tmp_path_factory.mktemp("roundtrip")
    vault = make_vault(root / "vault")
    build(vault, spec)
    first, second, receiver = round_trip(vault, root, spec["container"])
    assert_clean(first, allowed=DATA_NOTES)
    assert read_export(first).canonical == read_export(second).canonical
    withheld = [m for m in spec["memories"] if not m["exportable"]]
    assert len(read_export(first).memories) == len(spec["memories"]) - len(withheld)
    assert receiver.verify_audit().ok
