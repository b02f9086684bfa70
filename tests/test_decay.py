"""Confidence decay and reinforcement (PAM §8) and the DNA-class invariant (AIMEM §5.1)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.decay import (
    DecaySettings,
    decayed_confidence,
    elapsed_days,
    reinforced_confidence,
    round_confidence,
)
from memvault.model import MEMORY_STATUSES, MEMORY_TYPES, Memory
from memvault.vault import (
    AccessDenied,
    AmbiguousId,
    DNAProtected,
    InvalidInput,
    InvalidTransition,
    MemoryQuery,
    NotFound,
    Vault,
)
from vaultkit import make_vault, pam_memory

T0 = datetime(2026, 1, 1, tzinfo=UTC)
DEFAULTS = DecaySettings()


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    yield v
    v.close()


# -- the formulas --------------------------------------------------------------------------


def test_pam_8_1_linear_decay() -> None:
    assert decayed_confidence("time_linear", 0.9, 10, DEFAULTS) == pytest.approx(0.88)
    assert decayed_confidence("time_linear", 0.9, 100, DEFAULTS) == pytest.approx(0.7)
    assert decayed_confidence("time_linear", 0.9, 10_000, DEFAULTS) == DEFAULTS.floor == 0.1


def test_pam_8_1_exponential_decay() -> None:
    assert decayed_confidence("time_exponential", 0.8, 180, DEFAULTS) == pytest.approx(0.4)
    assert decayed_confidence("time_exponential", 0.8, 360, DEFAULTS) == pytest.approx(0.2)
    assert decayed_confidence("time_exponential", 0.8, 5000, DEFAULTS) == 0.1


@pytest.mark.parametrize("model", ["none", None, "unknown"])
def test_pam_8_1_none_never_moves(model: str | None) -> None:
    assert decayed_confidence(model, 0.7, 10_000, DEFAULTS) == 0.7


def test_decay_never_raises_and_respects_a_low_anchor() -> None:
    assert decayed_confidence("time_linear", 0.05, 1000, DEFAULTS) == 0.05
    assert decayed_confidence("time_linear", 0.5, 0, DEFAULTS) == 0.5
    assert decayed_confidence("time_linear", 0.5, -3, DEFAULTS) == 0.5
    assert elapsed_days(T0 + timedelta(days=2), T0) == 0.0
    assert elapsed_days(T0, T0 + timedelta(hours=36)) == 1.5


@given(
    model=st.sampled_from(["time_linear", "time_exponential"]),
    anchor=st.floats(0, 1),
    a=st.floats(0, 5000),
    b=st.floats(0, 5000),
)
def test_decay_is_monotone_and_bounded(model: str, anchor: float, a: float, b: float) -> None:
    early, late = sorted((a, b))
    first = decayed_confidence(model, anchor, early, DEFAULTS)
    second = decayed_confidence(model, anchor, late, DEFAULTS)
    assert second <= first <= round_confidence(anchor)
    assert second >= min(round_confidence(anchor), DEFAULTS.floor)


def test_reinforcement_restores_and_rises() -> None:
    assert reinforced_confidence(0.8, 0.3, 0.2) == pytest.approx(0.84)
    assert reinforced_confidence(None, 0.5, 0.2) == pytest.approx(0.6)
    assert reinforced_confidence(None, None, 0.2) == pytest.approx(0.2)
    assert reinforced_confidence(1.0, 1.0, 0.2) == 1.0


def test_settings_are_checked() -> None:
    assert DecaySettings().evolve(half_life_days=30).half_life_days == 30
    for bad in (
        {"half_life_days": 0},
        {"linear_rate_per_day": -1},
        {"floor": 2},
        {"reinforce_step": "x"},
        {"default_confidence": 1.1},
        {"default_decay_model": "fast"},
        {"floor": float("nan")},
        {"nonsense": 1},
    ):
        with pytest.raises(ValueError):
            DecaySettings().evolve(**bad)
    assert DecaySettings.from_json({"floor": 0.2, "from_the_future": 1}).floor == 0.2


# -- the vault's decay run -----------------------------------------------------------------


def test_vault_decay_updates_only_non_dna_active_memories(vault: Vault) -> None:
    fact = vault.add("Works at Acme", "fact", decay_model="time_linear", now=T0).memory
    expo = vault.add("Plans a trip", "goal", decay_model="time_exponential", now=T0).memory
    frozen = vault.add("Owns a bike", "fact", decay_model="none", now=T0).memory
    identity = vault.add("Name is Ana", "identity", decay_model="time_linear", now=T0).memory
    pinned = vault.add(
        "Pinned", "fact", decay_model="time_linear", metadata={"pinned": True}
    ).memory
    gone = vault.add("Old job", "fact", decay_model="time_linear", now=T0).memory
    vault.archive(gone.id)
    report = vault.background().decay(now=T0 + timedelta(days=100))
    assert (report.examined, report.updated, report.protected) == (5, 2, 2)
    assert vault.get(fact.id).confidence.current == pytest.approx(0.7)  # type: ignore[union-attr]
    assert vault.get(expo.id).confidence.current == pytest.approx(0.9 * 0.5 ** (100 / 180))  # type: ignore[union-attr]
    for unchanged in (frozen, identity, pinned):
        assert vault.get(unchanged.id).confidence == unchanged.confidence
    assert vault.get(gone.id).confidence == gone.confidence
    # Decay is derived state: updated_at does not move; one audit entry records the run.
    assert vault.get(fact.id).temporal.updated_at is None
    last = vault.audit_log()[-1]
    assert (last.action, last.actor, last.details["updated"]) == ("decay", "system", 2)
    # Running again at the same moment changes nothing more.
    assert vault.decay(now=T0 + timedelta(days=100)).updated == 0
    assert vault.verify_audit().ok


def test_vault_decay_follows_the_settings(vault: Vault) -> None:
    fact = vault.add("Works at Acme", "fact", decay_model="time_linear", now=T0).memory
    vault.update_settings(linear_rate_per_day=0.01)
    vault.decay(now=T0 + timedelta(days=10))
    assert vault.get(fact.id).confidence.current == pytest.approx(0.8)  # type: ignore[union-attr]


def test_pam_8_reinforcement_restores_decayed_confidence(vault: Vault) -> None:
    fact = vault.add("Lives in Porto", "fact", decay_model="time_linear", now=T0).memory
    vault.decay(now=T0 + timedelta(days=200))
    assert vault.get(fact.id).confidence.current == pytest.approx(0.5)  # type: ignore[union-attr]
    again = vault.add("lives in porto", "fact", now=T0 + timedelta(days=200)).memory
    assert again.confidence.current == pytest.approx(0.92)  # type: ignore[union-attr]
    # Decay now counts from the reinforcement, from the new anchor.
    vault.decay(now=T0 + timedelta(days=210))
    assert vault.get(fact.id).confidence.current == pytest.approx(0.90)  # type: ignore[union-attr]


def test_imported_memories_decay_from_last_reinforced(vault: Vault) -> None:
    memory = pam_memory(
        "Imported",
        confidence=0.6,
        decay_model="time_linear",
        created_at="2025-01-01T00:00:00Z",
        last_reinforced="2025-12-22T00:00:00Z",
    )
    vault.add_memories([memory])
    vault.decay(now=T0)  # 10 days after last_reinforced
    assert vault.get(memory.id).confidence.current == pytest.approx(0.58)  # type: ignore[union-attr]


def _snapshot(vault: Vault) -> tuple[list[Memory], str | None, int]:
    """Every stored memory (all statuses), the audit chain's head and its length."""
    page = vault.list(MemoryQuery(statuses=tuple(MEMORY_STATUSES), limit=None))
    audit = vault.verify_audit()
    return sorted(page.items, key=lambda m: m.id), audit.head, audit.entries


@pytest.mark.parametrize("chunk", [5000, 2])
def test_decay_dry_run_writes_nothing_and_reports_what_a_real_run_does(
    vault: Vault, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """PAM §8: `Vault.decay(dry_run=True)` computes the run (in one chunk or several) and
    writes neither a memory nor an audit entry; a real run at the same moment then reports
    the same counts (the CLI used to get this by raising inside a transaction)."""
    monkeypatch.setattr("memvault.decay_run.DECAY_CHUNK", chunk)
    for i in range(5):
        vault.add(f"Fact {i}", "fact", decay_model="time_linear", now=T0)
    vault.add("Name is Ana", "identity", now=T0)
    vault.add("Owns a bike", "fact", decay_model="none", now=T0)
    at = T0 + timedelta(days=100)
    before = _snapshot(vault)
    dry = vault.decay(now=at, dry_run=True)
    assert _snapshot(vault) == before
    assert (dry.examined, dry.updated, dry.protected, dry.unchanged) == (7, 5, 1, 1)
    real = vault.decay(now=at)
    assert real == dry
    after = _snapshot(vault)
    assert after[1] != before[1] and after[2] > before[2]
    assert [m.confidence for m in after[0]] != [m.confidence for m in before[0]]
    # Once applied, a dry run at the same moment sees nothing left to change.
    assert vault.decay(now=at, dry_run=True).updated == 0
    assert _snapshot(vault) == after


def test_decay_dry_run_needs_the_same_permission(vault: Vault) -> None:
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-a").decay(dry_run=True)


def test_agents_cannot_run_decay(vault: Vault) -> None:
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-a").decay()
    assert vault.acting_as("user").decay().examined == 0


# -- the DNA-class invariant ---------------------------------------------------------------

memory_specs = st.lists(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(MEMORY_TYPES),
            "custom_type": st.sampled_from(["decision", "pitfall", "procedure", "episodic"]),
            "pinned": st.booleans(),
            "status": st.sampled_from(MEMORY_STATUSES),
            "decay_model": st.sampled_from(["time_linear", "time_exponential", "none", None]),
            "confidence": st.floats(0.05, 1.0),
            "age_days": st.integers(0, 2000),
            "dup": st.booleans(),
        }
    ),
    min_size=1,
    max_size=12,
)
background_ops = st.lists(
    st.one_of(
        st.tuples(st.just("decay"), st.integers(0, 5000)),
        st.tuples(st.just("transition"), st.integers(0, 20), st.sampled_from(MEMORY_STATUSES)),
        st.tuples(st.just("supersede"), st.integers(0, 20), st.integers(0, 20)),
        st.tuples(st.just("erase"), st.integers(0, 20)),
        st.tuples(st.just("update"), st.integers(0, 20)),
        st.tuples(st.just("reinforce"), st.integers(0, 20)),
        st.tuples(st.just("import"), st.integers(0, 20)),
    ),
    max_size=15,
)


def _build(spec: list[dict[str, object]]) -> list[Memory]:
    memories = []
    for i, s in enumerate(spec):
        memory_type = str(s["type"])
        memories.append(
            pam_memory(
                f"memory {i}" if not s["dup"] else "a repeated statement",
                id=f"m-{i}",
                type=memory_type,
                custom_type=str(s["custom_type"]) if memory_type == "custom" else None,
                status=str(s["status"]),
                decay_model=s["decay_model"],  # type: ignore[arg-type]
                confidence=float(s["confidence"]),  # type: ignore[arg-type]
                created_at=(T0 - timedelta(days=int(s["age_days"]))).strftime(  # type: ignore[call-overload]
                    "%Y-%m-%dT%H:%M:%SZ"
                ),
                metadata={"pinned": True} if s["pinned"] else {},
            )
        )
    return memories


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(spec=memory_specs, ops=background_ops, actor=st.sampled_from(["system", "system:x"]))
def test_aimem_5_1_dna_never_decayed_deleted_or_superseded_by_background_work(
    spec: list[dict[str, object]], ops: list[tuple[object, ...]], actor: str
) -> None:
    """AIMEM §5.1: whatever background work does, every DNA-class memory keeps its existence,
    status, content and at least its confidence."""
    with tempfile.TemporaryDirectory() as tmp:
        vault = make_vault(Path(tmp) / "home")
        try:
            vault.add_memories(_build(spec))
            ids = [m.id for m in vault.iter_memories(MemoryQuery(statuses=None))]
            dna_before = {
                m.id: m for m in vault.iter_memories(MemoryQuery(statuses=None)) if m.is_dna
            }
            for op in ops:
                name = op[0]
                try:
                    if name == "decay":
                        vault.acting_as(actor).decay(now=T0 + timedelta(days=int(op[1])))  # type: ignore[call-overload]
                    elif name == "transition":
                        vault.acting_as(actor).transition(ids[int(op[1]) % len(ids)], str(op[2]))  # type: ignore[call-overload]
                    elif name == "supersede":
                        old, new = ids[int(op[1]) % len(ids)], ids[int(op[2]) % len(ids)]  # type: ignore[call-overload]
                        vault.acting_as(actor).supersede(old, new)
                    elif name == "erase":
                        target = ids[int(op[1]) % len(ids)]  # type: ignore[call-overload]
                        vault.acting_as(actor).erase(target)
                    elif name == "update":
                        target = ids[int(op[1]) % len(ids)]  # type: ignore[call-overload]
                        vault.acting_as(actor).update(target, content=f"rewritten {op[1]}")
                    elif name == "reinforce":
                        target = ids[int(op[1]) % len(ids)]  # type: ignore[call-overload]
                        vault.acting_as(actor).add(vault.get(target).content, "fact")
                    elif name == "import":
                        vault.acting_as(actor).add_memories(
                            [pam_memory(f"memory {op[1]}", id=f"new-{op[1]}")]
                        )
                # AmbiguousId: an id erased before, asked again, is only a prefix of others
                # (m-1 of m-10 and m-11); refusing it is right, and not what this tests.
                except (AmbiguousId, DNAProtected, InvalidTransition, InvalidInput, NotFound):
                    pass
            for memory_id, before in dna_before.items():
                after = vault.get(memory_id)
                assert after.status == before.status
                assert after.content == before.content
                assert after.temporal.superseded_by == before.temporal.superseded_by
                current_before = before.confidence.current  # type: ignore[union-attr]
                current_after = after.confidence.current  # type: ignore[union-attr]
                assert current_after >= current_before  # type: ignore[operator]
            assert vault.verify_audit().ok
        finally:
            vault.close()


# -- decay counts from when a thing was said (PAM §8.1) ---------------------------------------


def test_pam_8_1_decay_counts_from_valid_from_when_a_memory_was_said_before_it_was_recorded(
    vault: Vault,
) -> None:
    """A statement made 100 days before the vault recorded it has already decayed 100 days."""
    said = T0 - timedelta(days=100)
    fact = vault.add(
        "Lives in Porto", "fact", decay_model="time_linear", valid_from=said, now=T0
    ).memory
    assert fact.temporal.created_at == "2026-01-01T00:00:00Z"
    vault.decay(now=T0)
    assert vault.get(fact.id).confidence.current == pytest.approx(0.7)  # type: ignore[union-attr]


def test_pam_8_1_decay_falls_back_to_created_at_without_valid_from(vault: Vault) -> None:
    fact = vault.add("Lives in Braga", "fact", decay_model="time_linear", now=T0).memory
    vault.decay(now=T0 + timedelta(days=50))
    assert vault.get(fact.id).confidence.current == pytest.approx(0.8)  # type: ignore[union-attr]


def test_pam_8_1_a_valid_from_in_the_future_does_not_decay_yet(vault: Vault) -> None:
    later = T0 + timedelta(days=30)
    fact = vault.add(
        "Lives in Faro", "fact", decay_model="time_linear", valid_from=later, now=T0
    ).memory
    report = vault.decay(now=T0 + timedelta(days=10))
    assert report.updated == 0
    assert vault.get(fact.id).confidence.current == pytest.approx(0.9)  # type: ignore[union-attr]


def test_pam_8_1_reinforcement_resets_decay_to_when_the_statement_was_made_again(
    vault: Vault,
) -> None:
    """PAM §8.1: decay counts from the last reinforcement — the time the statement was made
    again (its `valid_from`), not the time the vault heard about it."""
    first = T0 - timedelta(days=300)
    again = T0 - timedelta(days=100)
    fact = vault.add(
        "Lives in Évora", "fact", decay_model="time_linear", valid_from=first, now=T0
    ).memory
    reinforced = vault.add("lives in évora", "fact", valid_from=again, now=T0).memory
    conf = reinforced.confidence
    assert conf.last_reinforced == "2025-09-23T00:00:00Z"  # type: ignore[union-attr]
    assert conf.current == pytest.approx(0.92)  # type: ignore[union-attr]
    vault.decay(now=T0)  # 100 days after the statement was made again
    assert vault.get(fact.id).confidence.current == pytest.approx(0.72)  # type: ignore[union-attr]


def test_pam_8_1_a_reinforcement_said_before_the_memory_counts_from_the_memory(
    vault: Vault,
) -> None:
    said = T0 - timedelta(days=10)
    vault.add("Lives in Tavira", "fact", decay_model="time_linear", valid_from=said, now=T0)
    older = vault.add("Lives in Tavira", "fact", valid_from=T0 - timedelta(days=400), now=T0)
    assert older.memory.confidence.last_reinforced == "2025-12-22T00:00:00Z"  # type: ignore[union-attr]


def test_pam_8_1_extracted_memories_decay_from_their_message_time(vault: Vault) -> None:
    """Extraction sets `valid_from` to the message's time, and decay counts from it; a later
    message saying it again reinforces at that message's time."""
    from memvault.extract.evaluation import conversation_of
    from memvault.extract.pipeline import run

    vault.update_settings(default_decay_model="time_linear")
    said = "2025-09-23T00:00:00Z"  # 100 days before T0
    vault.put_conversation(conversation_of("c1", [("user", "I run a lot.", said)]))
    run(vault, now=T0)
    (memory,) = vault.list(MemoryQuery(limit=None)).items
    assert (memory.temporal.valid_from, memory.temporal.created_at) == (
        said,
        "2026-01-01T00:00:00Z",
    )
    vault.decay(now=T0)
    assert vault.get(memory.id).confidence.current == pytest.approx(
        memory.confidence.initial - 0.2  # type: ignore[union-attr,operator]
    )
    again = "2025-12-02T00:00:00Z"  # 30 days before T0
    vault.put_conversation(conversation_of("c2", [("user", "I run a lot.", again)]))
    run(vault, now=T0 + timedelta(days=1))
    assert vault.get(memory.id).confidence.last_reinforced == again  # type: ignore[union-attr]
