"""The errors the vault raises. Every message is user-facing: it names the id, field or path,
and the rule (with its spec section where there is one), so a front end prints it as is.

`memvault.vault` re-exports all of them; the storage layer's errors (`StoreError`,
`WrongPassphrase`, …) derive from `VaultError` too, so ``except VaultError`` catches every
failure a user can act on.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "AccessDenied",
    "AmbiguousId",
    "ConflictingInput",
    "DNAProtected",
    "HomeNotWritable",
    "InvalidInput",
    "InvalidTransition",
    "NotFound",
    "VaultError",
    "VaultExists",
    "VaultNotFound",
]


class VaultError(Exception):
    """Base of every error the vault raises on purpose. The message is meant for the user."""


class VaultNotFound(VaultError):
    """There is no vault at the given home."""


class VaultExists(VaultError):
    """`Vault.init` found a vault already there (it never overwrites one)."""


class HomeNotWritable(VaultError):
    """The vault home (MEMVAULT_HOME or the platform data directory) cannot be written."""


class NotFound(VaultError):
    """No memory (or relation, conversation…) with that id or id prefix."""


class AmbiguousId(VaultError):
    """An id prefix matches more than one memory."""

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[str, ...] = tuple(candidates)


class InvalidInput(VaultError):
    """A value breaks a rule; the message names the field and the rule."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ConflictingInput(InvalidInput):
    """A well-formed value that what the vault holds refuses (a memory's status, another
    memory's content): the vault refused it, where an `InvalidInput` is malformed in itself
    (a front end reports the first as a refusal, the second as a usage error)."""


class InvalidTransition(VaultError):
    """A lifecycle change PAM §7.1 does not allow; the message names the allowed ones."""


class AccessDenied(VaultError):
    """The acting agent lacks the permission (PAM §9) the operation needs."""


class DNAProtected(VaultError):
    """Background work (actor "system") tried to decay, delete, supersede or change a DNA-class
    memory (AIMEM §5.1)."""
