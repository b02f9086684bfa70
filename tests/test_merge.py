"""`memvault merge` (PAM §16.3, Appendix E) and incremental exports end to end: a base plus its
delta, merged, equals a full export of the same vault state — also after a chain of deltas, and
also inside a receiving vault. A retraction in a delta marks, never deletes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import CliOutcome
from exchangekit import (
    T0,
    assert_clean,
    official_conversation,
    put_conversation,
    read_export,
    vector,
)
from memvault.canonical import integrity_checksum
from memvault.errors import VaultError
from memvault.exchange import export_vault, import_into_vault
from memvault.formats.pam.merge import MergeError, merge_exports
from memvault.model import MEMORY_TYPES, RELATION_TYPES
from memvault.store.base import StoredEmbedding
from memvault.vault import Vault
from pamdocs import OFFICIAL_EXAMPLES
from vaultkit import make_vault, pam_memory

#: Warnings a delta may legitimately carry: memories re-sent for a change their own timestamps
#: do not show (an import, an embedding), relations into the base.
DELTA_NOTES = (
    "incremental-memory-before-since",
    "relation-endpoint-unresolved",
    "superseded-by-unresolved",
    "superseded-without-replacement",
)


def comparable(path: Path) -> tuple[Any, ...]:
    view = read_export(path)
    return view.memories, view.relations, view.index, view.embeddings, view.conversations


# -- a scripted history -----------------------------------------------------------------------


@dataclass
class History:
    """A vault that changes over time, exporting as it goes."""

    vault: Vault
    root: Path
    clock: datetime = T0
    ids: list[str] = field(default_factory=list)
    exports: list[Path] = field(default_factory=list)

    def tick(self, minutes: int = 1) -> datetime:
        self.clock += timedelta(minutes=minutes)
        return self.clock

    def export(self, name: str, *, incremental: bool) -> Path:
        path = self.root / name
        export_vault(self.vault, path, incremental=incremental, now=self.tick())
        self.exports.append(path)
        self.tick()
        return path


def test_base_plus_delta_equals_full_export_appendix_e(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    put_conversation(vault, official_conversation("conv-001"), now=h.tick())
    ids = [vault.add(f"Base fact {i}", "fact", conversation_ref="conv-001",
                     platform="claude", now=h.tick()).memory.id for i in range(5)]  # fmt: skip
    hidden = vault.add("Hidden for now", "fact", exportable=False, now=h.tick()).memory.id
    vault.relate(ids[0], hidden, "supports", now=h.tick())
    vault.relate(ids[0], ids[1], "extends", now=h.tick())
    base = h.export("base.zip", incremental=False)
    # the changes of the delta
    vault.retract(ids[1], now=h.tick())
    vault.update(ids[2], content="Base fact two, corrected", now=h.tick())
    vault.relate(ids[0], ids[1], "extends", confidence=0.3, now=h.tick())  # re-weighted
    vault.update(hidden, exportable=True, now=h.tick())  # its relation comes along
    vault.add_memories([pam_memory("Imported, dated long ago", created_at="2019-01-01T00:00:00Z")],
                       now=h.tick())  # fmt: skip
    vault.put_embedding(
        StoredEmbedding("e-3", ids[3], "m", 2, "2026-01-01T00:00:00Z", vector(0.5, 0.25)),
        now=h.tick(),
    )
    new = vault.add("Added after the base", "fact", now=h.tick()).memory.id
    vault.supersede(ids[4], new, now=h.tick())
    delta = h.export("delta", incremental=True)
    assert_clean(delta, allowed=DELTA_NOTES)
    merged = tmp_path / "merged.zip"
    result = merge_exports(base, delta, merged)
    assert_clean(merged)
    full = h.export("full", incremental=False)
    assert comparable(merged) == comparable(full)
    assert result.memories == len(read_export(full).memories)
    # the merged document describes the state as of the delta
    header = read_export(merged).header
    delta_header = read_export(delta).header
    assert header["export_id"] == delta_header["export_id"]
    assert header["export_date"] == delta_header["export_date"]
    assert header["export_type"] == "full" and "base_export_id" not in header


def test_retraction_in_a_delta_marks_never_deletes_pam_16_3(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    ids = [vault.add(f"Fact {i}", "fact", now=h.tick()).memory.id for i in range(3)]
    base = h.export("base", incremental=False)
    vault.retract(ids[0], now=h.tick())
    delta = h.export("delta", incremental=True)
    merged = tmp_path / "merged"
    result = merge_exports(base, delta, merged)
    memories = {
        m["id"]: m for m in json.loads((merged / "memory-store.json").read_text())["memories"]
    }
    assert set(memories) == set(ids)  # nothing removed (rule 5)
    assert memories[ids[0]]["status"] == "retracted"  # marked (rule 4)
    assert memories[ids[0]]["content"] == "Fact 0"
    assert (result.updated, result.inserted) == (1, 0)


def test_checksum_and_total_recomputed_pam_16_3(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    vault.add("One", "fact", now=h.tick())
    base = h.export("base.json", incremental=False)
    vault.add("Two", "fact", now=h.tick())
    delta = h.export("delta.json", incremental=True)
    merge_exports(base, delta, tmp_path / "merged.json")
    doc = json.loads((tmp_path / "merged.json").read_text())
    assert doc["integrity"]["total_memories"] == 2 == len(doc["memories"])
    assert doc["integrity"]["checksum"] == integrity_checksum(doc["memories"])
    assert_clean(tmp_path / "merged.json")


def test_a_chain_of_deltas(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    a = vault.add("A", "fact", now=h.tick()).memory.id
    base = h.export("base.zip", incremental=False)
    vault.add("B", "fact", now=h.tick())
    d1 = h.export("d1.zip", incremental=True)
    vault.retract(a, now=h.tick())
    vault.add("C", "fact", now=h.tick())
    d2 = h.export("d2.zip", incremental=True)
    step = tmp_path / "step.zip"
    merge_exports(base, d1, step)
    with pytest.raises(MergeError, match="applies to export"):
        merge_exports(base, d2, tmp_path / "wrong.zip")  # d2's base is d1
    merge_exports(step, d2, tmp_path / "end.zip")
    # two deltas merged together make one delta from the first base
    merge_exports(d1, d2, tmp_path / "d12.zip")
    d12 = read_export(tmp_path / "d12.zip").header
    assert d12["export_type"] == "incremental"
    assert d12["base_export_id"] == read_export(base).header["export_id"]
    merge_exports(base, tmp_path / "d12.zip", tmp_path / "end2.zip")
    full = h.export("full.zip", incremental=False)
    assert comparable(tmp_path / "end.zip") == comparable(full)
    assert comparable(tmp_path / "end2.zip") == comparable(full)


def test_refusals_and_force(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    vault.add("A", "fact", now=h.tick())
    base = h.export("base", incremental=False)
    other = h.export("other", incremental=False)
    vault.add("B", "fact", now=h.tick())
    delta = h.export("delta", incremental=True)  # base: "other"
    with pytest.raises(MergeError, match=r"PAM §16.3 rule 1.*--force"):
        merge_exports(base, delta, tmp_path / "x")
    assert not (tmp_path / "x").exists()
    forced = merge_exports(base, delta, tmp_path / "x", force=True)
    assert forced.warnings and (tmp_path / "x").exists()
    with pytest.raises(MergeError, match="not an incremental export"):
        merge_exports(base, other, tmp_path / "y")
    stranger = make_vault(tmp_path / "s")
    stranger.add("Z", "fact")
    foreign = tmp_path / "foreign"
    export_vault(stranger, foreign)
    with pytest.raises(MergeError, match="owner"):
        merge_exports(foreign, delta, tmp_path / "z", force=False)
    with pytest.raises(MergeError, match="exists"):
        merge_exports(base, delta, tmp_path / "x", force=True)


def test_invalid_input_is_refused_with_findings(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    vault.add("A", "fact", now=h.tick())
    base = h.export("base.json", incremental=False)
    vault.add("B", "fact", now=h.tick())
    delta = h.export("delta.json", incremental=True)
    doc = json.loads(delta.read_text())
    doc["memories"][0]["content"] = "tampered"
    delta.write_text(json.dumps(doc))
    with pytest.raises(MergeError, match="not valid PAM") as caught:
        merge_exports(base, delta, tmp_path / "out.json")
    assert "content-hash-mismatch" in {f.code for f in caught.value.findings}
    assert not (tmp_path / "out.json").exists()


def test_pam_18_4_an_input_whose_signature_does_not_verify_is_refused(tmp_path: Path) -> None:
    """validate reports a failed signature as a warning (§21.4); merge refuses the input all
    the same, as import does: the merged export would carry memories the signer never
    signed. The official example's signature is a placeholder."""
    official = OFFICIAL_EXAMPLES / "example-memory-store.json"
    with pytest.raises(MergeError, match=r"signature of the base .* does not verify") as caught:
        merge_exports(official, official, tmp_path / "out.json")
    assert {f.code for f in caught.value.findings} == {"signature-invalid"}
    assert not (tmp_path / "out.json").exists()


def test_final_status_in_base_is_kept_pam_7_1(tmp_path: Path) -> None:
    memory = pam_memory("Retracted in the base", status="retracted")
    base_doc = _store([memory.to_json()], export_id="3f2e1d0c-1111-4222-8333-944455556666")
    revived = memory.evolve(status="active").to_json()
    delta_doc = _store([revived], export_id="3f2e1d0c-1111-4222-8333-944455556667",
                       export_type="incremental",
                       base_export_id="3f2e1d0c-1111-4222-8333-944455556666",
                       since="2026-01-01T00:00:00Z")  # fmt: skip
    base, delta = tmp_path / "base.json", tmp_path / "delta.json"
    base.write_text(json.dumps(base_doc))
    delta.write_text(json.dumps(delta_doc))
    result = merge_exports(base, delta, tmp_path / "out.json")
    assert result.kept == [memory.id] and "final" in result.warnings[0]
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["memories"][0]["status"] == "retracted"


def _store(memories: list[dict[str, Any]], **header: Any) -> dict[str, Any]:
    return {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "export_date": "2026-02-01T00:00:00Z",
        "owner": {"id": "owner-1"},
        "memories": memories,
        "integrity": {
            "canonicalization": "RFC8785",
            "checksum": integrity_checksum(memories),
            "total_memories": len(memories),
        },
        **header,
    }


def test_cli_merge(tmp_path: Path, run_cli: Callable[..., CliOutcome]) -> None:
    vault = make_vault(tmp_path / "v")
    h = History(vault, tmp_path)
    vault.add("A", "fact", now=h.tick())
    base = h.export("base.zip", incremental=False)
    vault.add("B", "fact", now=h.tick())
    delta = h.export("delta.zip", incremental=True)
    done = run_cli("merge", base, delta, "-o", tmp_path / "m.zip")
    assert done.exit_code == 0, done.output
    assert "2 memories (1 added, 0 updated" in done.output
    as_json = run_cli("merge", base, delta, "-o", tmp_path / "m2.zip", "--json")
    assert json.loads(as_json.output)["memories"] == 2
    wrong = run_cli("merge", delta, base, "-o", tmp_path / "w.zip")
    assert wrong.exit_code == 1 and "not an incremental export" in wrong.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "portable-ai-memory"}')
    refused = run_cli("merge", bad, delta, "-o", tmp_path / "w.zip")
    assert refused.exit_code == 1 and "not valid PAM" in refused.output
    assert "$.owner" in refused.output or "owner" in refused.output


# -- property: any history ----------------------------------------------------------------------

Op = tuple[str, int, int, int]
ops = st.lists(
    st.tuples(
        st.sampled_from(
            ["add", "add", "import_old", "retract", "deprecate", "archive", "tags", "content",
             "relate", "supersede", "embed", "expose", "conversation"]
        ),
        st.integers(0, 30),
        st.integers(0, 30),
        st.integers(0, 30),
    ),
    max_size=14,
)  # fmt: skip


def apply(h: History, op: Op, counter: list[int]) -> None:
    name, a, b, c = op
    vault, ids = h.vault, h.ids
    at = h.tick()
    pick = (lambda n: ids[n % len(ids)]) if ids else None
    counter[0] += 1
    try:
        if name == "add":
            memory_type = MEMORY_TYPES[a % len(MEMORY_TYPES)]
            result = vault.add(
                f"Statement {counter[0]} about {a}",
                memory_type,
                custom_type="pitfall" if memory_type == "custom" else None,
                exportable=b % 4 != 0,
                conversation_ref=f"conv-{c % 2}" if c % 3 == 0 else None,
                platform="claude",
                now=at,
            )
            ids.append(result.memory.id)
        elif name == "import_old":
            memory = pam_memory(f"Old statement {counter[0]}", created_at="2018-02-03T04:05:06Z",
                                status=("active", "deprecated")[a % 2])  # fmt: skip
            vault.add_memories([memory], now=at)
            ids.append(memory.id)
        elif name == "conversation":
            put_conversation(vault, official_conversation(f"conv-{a % 2}", title=f"t{b}"), now=at)
        elif pick is None:
            return
        elif name in ("retract", "deprecate", "archive"):
            getattr(vault, name)(pick(a), now=at)
        elif name == "tags":
            vault.update(pick(a), tags=[f"tag{b}"], now=at)
        elif name == "content":
            vault.update(pick(a), content=f"Rewritten {counter[0]}", now=at)
        elif name == "relate":
            vault.relate(pick(a), pick(b), RELATION_TYPES[c % len(RELATION_TYPES)],
                         confidence=(None, 0.5)[c % 2], now=at)  # fmt: skip
        elif name == "supersede":
            vault.supersede(pick(a), pick(b), now=at)
        elif name == "embed":
            vault.put_embedding(
                StoredEmbedding(
                    f"emb-{counter[0]}",
                    pick(a),
                    "m",
                    2,
                    "2026-01-01T00:00:00Z",
                    vector(a / 4, -b / 8),
                ),
                now=at,
            )
        elif name == "expose":
            vault.update(pick(a), exportable=True, now=at)
    except VaultError:
        pass  # an operation the vault refuses (a §7.1 transition, a twin) changes nothing


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(before=ops, between=ops, after=ops)
# A conversation retitled between two deltas: the receiver's merge once kept the first
# delta's title in the index entry it exports.
@example(before=[], between=[("conversation", 0, 0, 0)], after=[("conversation", 0, 1, 0)])
def test_any_history_merges_to_the_full_export(
    tmp_path_factory: pytest.TempPathFactory, before: list[Op], between: list[Op], after: list[Op]
) -> None:
    root = tmp_path_factory.mktemp("history")
    h = History(make_vault(root / "v"), root)
    counter = [0]
    for op in before:
        apply(h, op, counter)
    base = h.export("base.zip", incremental=False)
    for op in between:
        apply(h, op, counter)
    d1 = h.export("d1", incremental=True)
    for op in after:
        apply(h, op, counter)
    d2 = h.export("d2.zip", incremental=True)
    full = h.export("full", incremental=False)
    # (the ops let memories name a conversation the vault does not have yet, and supersede a
    # memory by a withheld one)
    unindexed = ("conversation-ref-unresolved", "superseded-without-replacement")
    for delta in (d1, d2):
        assert_clean(delta, allowed=(*DELTA_NOTES, *unindexed))
    step, end = root / "step.zip", root / "end"
    merge_exports(base, d1, step)
    merge_exports(step, d2, end)
    assert_clean(end, allowed=unindexed)
    assert comparable(end) == comparable(full)
    # the same chain imported into another vault gives the same state
    receiver = make_vault(root / "r", owner_id=h.vault.owner.id)
    for path in (base, d1, d2):
        import_into_vault(receiver, path, now=h.tick())
    again = root / "again"
    export_vault(receiver, again, now=h.tick())
    assert comparable(again) == comparable(full)
    assert receiver.verify_audit().ok


def test_pam_18_4_merge_allow_unverified_merges_with_a_loud_warning(
    tmp_path: Path, run_cli: Callable[..., CliOutcome]
) -> None:
    """PAM §18.4 (a failed verification SHOULD warn): `merge` had no --allow-unverified, so
    the official example store (its signature a placeholder) could not be merged at all.
    With it the merge is written, the failed signature named in a SIGNATURE NOT VERIFIED
    warning; without it the merge is still refused, nothing written."""
    official = OFFICIAL_EXAMPLES / "example-memory-store.json"
    doc = json.loads(official.read_text())
    doc.pop("signature")
    doc.update(
        export_type="incremental",
        base_export_id=doc["export_id"],
        export_id="3f2e1d0c-1111-4222-8333-944455556699",
        since="2026-01-01T00:00:00Z",
    )
    delta = tmp_path / "delta.json"
    delta.write_text(json.dumps(doc))
    refused = run_cli("merge", official, delta, "-o", tmp_path / "out.json")
    assert refused.exit_code == 1 and "--allow-unverified" in refused.output
    assert not (tmp_path / "out.json").exists()
    done = run_cli("merge", official, delta, "-o", tmp_path / "out.json", "--allow-unverified")
    assert done.exit_code == 0, done.output
    assert "SIGNATURE NOT VERIFIED" in done.output and "signature-invalid" in done.output
    merged = json.loads((tmp_path / "out.json").read_text())
    assert "signature" not in merged and len(merged["memories"]) == len(doc["memories"])
    result = merge_exports(official, delta, tmp_path / "api.json", allow_unverified=True)
    assert result.warnings[0].startswith("SIGNATURE NOT VERIFIED")
