"""Confidence decay and reinforcement (PAM §8), as pure functions.

PAM records the decay *model* of a memory (``confidence.decay_model``) and leaves the rates to
the implementation (§8.1). memvault's rates live in the vault settings (`DecaySettings`,
`Vault.settings`) and the formulas are:

- ``time_linear``:      c(t) = max(min(a, floor), a − rate_per_day · days)
- ``time_exponential``: c(t) = max(min(a, floor), a · 2^(−days / half_life_days))
- ``none`` or null:     never moves.

where ``a`` is the *decay anchor* — the confidence the memory had when it was last reinforced
(``confidence.initial`` if it never was) — and ``days`` the time since
``confidence.last_reinforced``, or, if never reinforced, since the memory was said:
``temporal.valid_from`` (an extracted memory's message time) when present, else
``temporal.created_at`` (when the vault recorded it). Decay is a pure
function of those values, so running it twice, or late, gives the same result; it never raises
a confidence above the anchor, and never lowers one below the floor (a memory whose anchor is
already below the floor stays where it is).

Reinforcement (the same content stated again, PAM §6 dedup) restores the decayed confidence to
its anchor and then moves it a fixed fraction of the way to 1.0:
``r = b + (1 − b) · step`` with ``b = max(anchor, current)``; ``r`` becomes the new anchor and
``last_reinforced`` becomes the time the statement was made again (its message's time, never
later than now nor earlier than the memory's own).

Defaults (documented in docs/vault.md): linear 0.002 per day, half-life 180 days, floor 0.1,
reinforcement step 0.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Self

from memvault.model import Confidence, Memory

if TYPE_CHECKING:
    from memvault.store.base import StoredMemory

__all__ = [
    "DECAYING_MODELS",
    "DecaySettings",
    "anchor_of",
    "confidence_block",
    "decay_start",
    "decayed_confidence",
    "elapsed_days",
    "is_number",
    "reinforced_confidence",
    "round_confidence",
    "said_at",
]

#: The models that move; "none" and null never do.
DECAYING_MODELS: Final = frozenset({"time_linear", "time_exponential"})
_DECIMALS: Final = 6
_NUMBER: Final = (int, float)


@dataclass(frozen=True, slots=True)
class DecaySettings:
    """The implementation-defined parameters of PAM §8.1, and defaults for new memories.

    `default_decay_model` applies to new non-DNA memories added without a model; DNA-class
    memories (AIMEM §5.1) get "none".
    """

    linear_rate_per_day: float = 0.002
    half_life_days: float = 180.0
    floor: float = 0.1
    reinforce_step: float = 0.2
    default_confidence: float = 0.9
    default_decay_model: str = "time_exponential"

    def evolve(self, **changes: Any) -> Self:
        """A copy with some settings changed, each checked (`ValueError` names the rule)."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(
                f"unknown setting {unknown[0]!r}; settings are: {', '.join(sorted(known))}"
            )
        updated = replace(self, **changes)
        updated.check()
        return updated

    def check(self) -> None:
        """Raise ValueError naming the first setting that is out of range."""
        for name in ("linear_rate_per_day", "half_life_days", "floor", "reinforce_step"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"setting {name} must be a number, not {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"setting {name} must be finite, not {value!r}")
        if self.linear_rate_per_day < 0:
            raise ValueError("setting linear_rate_per_day must be ≥ 0")
        if self.half_life_days <= 0:
            raise ValueError("setting half_life_days must be > 0")
        if not 0 <= self.floor <= 1:
            raise ValueError("setting floor must be in [0, 1]")
        if not 0 <= self.reinforce_step <= 1:
            raise ValueError("setting reinforce_step must be in [0, 1]")
        confidence = self.default_confidence
        if (
            isinstance(confidence, bool)
            or not isinstance(confidence, (int, float))
            or not 0 <= confidence <= 1
        ):
            raise ValueError("setting default_confidence must be a number in [0, 1]")
        if self.default_decay_model not in (*sorted(DECAYING_MODELS), "none"):
            raise ValueError(
                "setting default_decay_model must be time_linear, time_exponential or none "
                "(PAM §8.1)"
            )

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecaySettings:
        """Settings from stored JSON; unknown keys (from a later version) are ignored."""
        known = {f.name for f in fields(cls)}
        return cls().evolve(**{k: v for k, v in data.items() if k in known})


def round_confidence(value: float) -> float:
    """Confidences are stored with 6 decimals (enough for decay to move them day by day)."""
    return round(min(1.0, max(0.0, value)), _DECIMALS)


def elapsed_days(since: datetime, now: datetime) -> float:
    """Days from `since` to `now`; 0 if `since` is in the future (clock skew never raises)."""
    return max(0.0, (now - since).total_seconds() / 86400.0)


def decayed_confidence(
    model: str | None, anchor: float, days: float, settings: DecaySettings
) -> float:
    """Confidence after `days` of decay from `anchor` under `model` (PAM §8.1).

    Unknown models and "none"/None return the anchor unchanged.
    """
    if model not in DECAYING_MODELS or days <= 0:
        return round_confidence(anchor)
    lowest = min(anchor, settings.floor)
    if model == "time_linear":
        value = anchor - settings.linear_rate_per_day * days
    else:
        value = anchor * math.pow(0.5, days / settings.half_life_days)
    return round_confidence(max(lowest, value))


def reinforced_confidence(anchor: float | None, current: float | None, step: float) -> float:
    """The confidence after a reinforcement: restore to the anchor, then a `step` of the way
    to 1.0. Never lower than before."""
    candidates = [v for v in (anchor, current) if v is not None]
    base = max(candidates) if candidates else 0.0
    return round_confidence(base + (1.0 - base) * step)


def is_number(value: object) -> bool:
    """A JSON number (a bool is not one)."""
    return isinstance(value, _NUMBER) and not isinstance(value, bool)


def confidence_block(memory: Memory) -> Confidence | None:
    """The memory's confidence block, None when it has none."""
    return memory.confidence if isinstance(memory.confidence, Confidence) else None


def anchor_of(stored: StoredMemory) -> float | None:
    """The decay anchor of a stored memory: the one stored with it, else its
    ``confidence.initial``, else its ``confidence.current`` (None without a confidence)."""
    if stored.decay_anchor is not None:
        return stored.decay_anchor
    conf = confidence_block(stored.memory)
    if conf is None:
        return None
    if is_number(conf.initial):
        return float(conf.initial)  # type: ignore[arg-type]
    if is_number(conf.current):
        return float(conf.current)  # type: ignore[arg-type]
    return None


def said_at(memory: Memory) -> str:
    """When a memory was said: `temporal.valid_from` (the message's time, for an extracted
    memory) when it has one, else `temporal.created_at` (when the vault recorded it)."""
    start = memory.temporal.valid_from
    return start if isinstance(start, str) else memory.temporal.created_at


def decay_start(memory: Memory) -> str:
    """Where decay counts from (PAM §8.1 "time since last reinforcement"): the last
    reinforcement, else when the memory was said (`said_at`)."""
    conf = memory.confidence
    if isinstance(conf, Confidence) and isinstance(conf.last_reinforced, str):
        return conf.last_reinforced
    return said_at(memory)
