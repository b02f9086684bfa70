"""Changing the vault's passphrase: the whole database re-encrypted with a key derived from the
new one (`Store.rekey`), atomically — after a crash the vault opens with exactly one of the two
passphrases, and nothing in it is lost.

The cipher parameters in ``vault.params.json`` (iteration count, page size, page HMAC) and the
KDF salt at the head of the database do not change, so the parameter file stays valid for
either passphrase; the change is checked by opening the database afresh with the new one before
it is reported, and recorded in the audit log (who and when, never a passphrase).
"""

from __future__ import annotations

from typing import Final

from memvault.audit import AuditLog, PendingEntry
from memvault.errors import InvalidInput
from memvault.store.base import Store, StoreError

__all__ = ["ACTION", "change_passphrase", "check_new_passphrase"]

#: The audit action of a passphrase change.
ACTION: Final = "passphrase-change"


def check_new_passphrase(old: str, new: str) -> None:
    """InvalidInput for a new passphrase that is empty or the old one."""
    if not new:
        raise InvalidInput(
            "the new passphrase must not be empty (the vault is encrypted with it)", "passphrase"
        )
    if new == old:
        raise InvalidInput(
            "the new passphrase is the one the vault already has; nothing was changed",
            "passphrase",
        )


def change_passphrase(
    store: Store, audit: AuditLog, old: str, new: str, actor: str, at: str
) -> None:
    """Re-key the open `store` from `old` to `new`: `old` must open it (WrongPassphrase
    otherwise, nothing changed — an open vault alone does not allow the change); then a fresh
    connection must open it with `new`; then the change is audited."""
    check_new_passphrase(old, new)
    store.check_passphrase(old)
    store.rekey(new)
    try:
        store.check_passphrase(new)
    except StoreError as exc:  # pragma: no cover - SQLCipher re-keyed but cannot read it back
        raise StoreError(
            f"the vault was re-keyed but does not open with the new passphrase: {exc}"
        ) from None
    with store.transaction():
        audit.append([PendingEntry(ACTION, actor, None, None, {})], at)
