"""Deterministic ids for imported records (UUID v5), so that importing the same export twice
gives the same conversations and messages, and a newer export of the same account adds only
what is new."""

from __future__ import annotations

import uuid
from typing import Final

#: memvault's namespace for imported records; fixed forever (changing it re-keys every import).
NAMESPACE: Final = uuid.UUID("5b0a7c1e-3f52-5e8a-9c6d-6d656d766175")


def stable_id(provider: str, kind: str, *parts: str) -> str:
    """A UUID v5 from the provider, the record kind ("conversation", "message", "memory", …)
    and the provider's own identifiers, e.g. ``stable_id("chatgpt", "message", conv_id,
    node_id)``. Parts are joined unambiguously (length-prefixed)."""
    key = "\x1f".join(f"{len(p)}:{p}" for p in (provider, kind, *parts))
    return str(uuid.uuid5(NAMESPACE, key))
