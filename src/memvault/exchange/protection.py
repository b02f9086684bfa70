"""How a PAM export is protected: signed with one of the vault's keys (PAM §18) and/or
encrypted with age to a passphrase or to X25519 recipients (PAM §21.1).

`export_hooks` turns that choice into the `ExportHooks` that `export_vault` takes, so every
front end (the CLI's `export --sign/--encrypt`, the server's `/v1/pam/export`) protects an
export the same way:

    hooks = export_hooks(vault, sign=True, passphrase="correct horse")
    export_vault(vault, "backup.zip.age", hooks=hooks)
"""

from __future__ import annotations

from collections.abc import Sequence

from memvault.errors import InvalidInput
from memvault.exchange.pam import ExportHooks
from memvault.vault import Vault

__all__ = ["export_hooks"]


def export_hooks(
    vault: Vault,
    *,
    sign: bool = False,
    key: str | None = None,
    passphrase: str | None = None,
    recipients: Sequence[str] = (),
) -> ExportHooks:
    """The hooks that sign the export with the vault key `key` names (the only key, or the
    owner's DID key, when None; `Vault.signing_key`) and encrypt it to `passphrase` or to the
    ``age1…`` `recipients` — never both.

    Raises InvalidInput (a key without signing, both a passphrase and recipients, an empty
    passphrase), AgeError (a malformed recipient), NotFound / AmbiguousId (no key, or several
    and none chosen), AccessDenied (an agent's session: the keys are the owner's). Checked
    before any export work starts."""
    from memvault.crypto.agefile import encryptor
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import signer

    if key is not None and not sign:
        raise InvalidInput("a signing key was named but signing was not asked for", "key")
    if passphrase is not None and recipients:
        raise InvalidInput(
            "encrypt to a passphrase or to age recipients, not both (PAM §21.1)", "recipients"
        )
    if passphrase is not None and not passphrase:
        raise InvalidInput("the encryption passphrase is empty", "passphrase")
    sign_hook = None
    if sign:
        record = vault.signing_key(key)
        did = vault.owner.did
        sign_hook = signer(
            SigningKey.from_record(record), owner_did=did if isinstance(did, str) else None
        )
    encrypt_hook = None
    if passphrase is not None or recipients:
        encrypt_hook = encryptor(passphrase=passphrase, recipients=tuple(recipients))
    return ExportHooks(sign=sign_hook, encrypt=encrypt_hook)
