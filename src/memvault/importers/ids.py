"""Deterministic ids for imported records, so that importing the same export twice gives the
same conversations and messages, and a newer export of the same account adds only what is new.

An id is the SHA-1 name hash of UUID v5 (RFC 4122 §4.3) laid out as a UUID v4: version nibble
4, RFC 4122 variant. PAM §4 says ids SHOULD be UUID v4, and a validator cannot tell a hash from
random bits, so memvault's exports pass its own validator. memvault 0.1.0 wrote the same hash
with version nibble 5; `legacy_twin` gives that older id, so an import finds what an older vault
stored (docs/decisions.md, "Imported ids")."""

from __future__ import annotations

import re
import uuid
from typing import Final

#: memvault's namespace for imported records; fixed forever (changing it re-keys every import).
NAMESPACE: Final = uuid.UUID("5b0a7c1e-3f52-5e8a-9c6d-6d656d766175")

#: A derived id's text: the version nibble (index 14) is 4, the variant nibble (19) is 8–b.
_DERIVED: Final = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def name_key(provider: str, kind: str, *parts: str) -> str:
    """The name an id is hashed from: the parts joined unambiguously (length-prefixed)."""
    return "\x1f".join(f"{len(p)}:{p}" for p in (provider, kind, *parts))


def stable_id(provider: str, kind: str, *parts: str) -> str:
    """An id from the provider, the record kind ("conversation", "message", "memory", …) and
    the provider's own identifiers, e.g. ``stable_id("chatgpt", "message", conv_id, node_id)``:
    the UUID v5 hash of the name in the UUID v4 layout."""
    digest = uuid.uuid5(NAMESPACE, name_key(provider, kind, *parts))
    return str(uuid.UUID(bytes=digest.bytes, version=4))


def legacy_twin(record_id: str) -> str | None:
    """The id memvault 0.1.0 gave the record `stable_id` now names `record_id` (the same
    hash, version nibble 5), or None when `record_id` is not in the v4 layout."""
    if _DERIVED.fullmatch(record_id) is None:
        return None
    return f"{record_id[:14]}5{record_id[15:]}"


def converted_owner_id(source_checksum: str) -> str:
    """`owner.id` of a memory-store `memvault convert` writes when none is given: derived
    from the export's checksum, so converting the same export twice writes the same bytes,
    and in the UUID v4 layout PAM §3.1 recommends (docs/decisions.md, "Owner of a converted
    export")."""
    return stable_id("memvault", "owner", source_checksum)
