"""The owner's signing keys kept in the vault (PAM §18.2) and the owner's DID (§17).

Behind `Vault.add_key`, `keys` and `signing_key`: the keys (private parts too) live inside
the encrypted database and are the owner's alone; a key's did:key can become the owner's DID,
so exports carry a DID their signature verifies against. Making and reading key files is
`memvault.crypto.keys`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from memvault.access import require_owner
from memvault.audit import PendingEntry
from memvault.errors import InvalidInput
from memvault.model import Owner
from memvault.store.base import KeyRecord
from memvault.vault_inputs import check_owner_fields, format_timestamp

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = ["add_key", "key_records", "signing_key"]


def add_key(
    vault: Vault,
    record: KeyRecord,
    *,
    owner_did: bool = False,
    now: datetime | None = None,
) -> Owner:
    """`Vault.add_key` in `vault`'s session: the key kept, the owner's DID made from it
    when asked, audited; every session of the vault sees the new owner record."""
    require_owner(vault.actor, "add signing keys")
    if owner_did and not record.did:
        raise InvalidInput(
            f"a {record.algorithm} key has no did:key (only Ed25519, ES256 and ES384 keys "
            "do); it cannot be the owner's DID (PAM §17)",
            "owner_did",
        )
    if vault._store.get_key(record.key_id) is not None:
        raise InvalidInput(f"the vault already has a key {record.key_id!r}", "key_id")
    at = format_timestamp(vault._moment(now))
    owner = vault.owner
    entries = [
        PendingEntry(
            "key",
            vault.actor,
            details={"key_id": record.key_id, "algorithm": record.algorithm, "did": record.did},
        )
    ]
    if owner_did and record.did != owner.did:
        check_owner_fields(None, record.did, None)
        previous = owner.did if isinstance(owner.did, str) else None
        owner = owner.evolve(did=record.did)
        entries.append(
            PendingEntry("owner-did", vault.actor, details={"from": previous, "to": record.did})
        )
    with vault._store.transaction():
        vault._store.put_key(record)
        if owner is not vault.owner:
            vault._store.set_owner(owner)
        vault._audit.append(entries, at)
    vault._shared.owner = owner
    return owner


def key_records(vault: Vault) -> list[KeyRecord]:
    """`Vault.keys` in `vault`'s session: private parts included, so the owner's alone."""
    require_owner(vault.actor, "read the signing keys")
    return vault._store.list_keys()


def signing_key(vault: Vault, key_id: str | None = None) -> KeyRecord:
    """`Vault.signing_key` in `vault`'s session (`memvault.crypto.keys.choose_signing_key`)."""
    from memvault.crypto.keys import choose_signing_key

    did = vault.owner.did
    return choose_signing_key(vault.keys(), key_id, owner_did=did if isinstance(did, str) else None)
