"""The errors memvault raises. Every message is user-facing: it names the id, field or path,
and the rule (with its spec section where there is one), so a front end prints it as is.

One tree: every error memvault raises on purpose derives from `VaultError` — the vault's own
(here), the store's (`StoreError`, `WrongPassphrase`, …), and those of the formats, the
importers and the cryptography, which keep their historical second base (`ValueError` …) so
old ``except`` clauses still hold. Each class knows how a front end reports it: `exit_code`
for the command line, `http_status` for HTTP (the AIMEM HTTP profile's statuses where a
finding has one). A front end maps errors in one place (the CLI: `cli.common.vault_errors`);
docs/errors.md lists the tree. `memvault.vault` re-exports the vault's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from memvault.findings import Finding

__all__ = [
    "EXIT_REFUSED",
    "EXIT_USAGE",
    "HTTP_BAD_REQUEST",
    "HTTP_CONFLICT",
    "HTTP_FORBIDDEN",
    "HTTP_INTERNAL",
    "HTTP_NOT_FOUND",
    "HTTP_TOO_LARGE",
    "HTTP_UNPROCESSABLE",
    "HTTP_UPSTREAM",
    "AccessDenied",
    "AmbiguousId",
    "ConflictingInput",
    "ConvertError",
    "DNAProtected",
    "ExchangeError",
    "ExportError",
    "HomeNotWritable",
    "ImportRefused",
    "InvalidInput",
    "InvalidTransition",
    "NotFound",
    "VaultError",
    "VaultExists",
    "VaultNotFound",
]


#: Exit codes of the command line (README "Exit status"): the vault or the data refused, or
#: the command line itself (an option's value) is wrong.
EXIT_REFUSED: Final = 1
EXIT_USAGE: Final = 2

#: HTTP statuses: a malformed request; access denied; not found; a conflict with what is held
#: (AIMEM HTTP profile: a checksum mismatch); too large; invalid (AIMEM: a malformed bundle);
#: an internal failure; a service memvault called failed.
HTTP_BAD_REQUEST: Final = 400
HTTP_FORBIDDEN: Final = 403
HTTP_NOT_FOUND: Final = 404
HTTP_CONFLICT: Final = 409
HTTP_TOO_LARGE: Final = 413
HTTP_UNPROCESSABLE: Final = 422
HTTP_INTERNAL: Final = 500
HTTP_UPSTREAM: Final = 502


class VaultError(Exception):
    """Root of every error memvault raises on purpose. The message is meant for the user.

    `exit_code` and `http_status` say how a front end reports it; a subclass sets its own
    (an instance may too: a bundle's status depends on its first problem)."""

    exit_code: int = EXIT_REFUSED
    http_status: int = HTTP_INTERNAL


class VaultNotFound(VaultError):
    """There is no vault at the given home."""

    http_status = HTTP_NOT_FOUND


class VaultExists(VaultError):
    """`Vault.init` found a vault already there (it never overwrites one)."""

    http_status = HTTP_CONFLICT


class HomeNotWritable(VaultError):
    """The vault home (MEMVAULT_HOME or the platform data directory) cannot be written."""


class NotFound(VaultError):
    """No memory (or relation, conversation…) with that id or id prefix."""

    http_status = HTTP_NOT_FOUND


class AmbiguousId(VaultError):
    """An id prefix matches more than one memory (conversation, key). On the command line a
    usage error, exit 2: the id typed is too short to name one; the message lists the
    candidates."""

    exit_code = EXIT_USAGE
    http_status = HTTP_BAD_REQUEST

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[str, ...] = tuple(candidates)


class InvalidInput(VaultError):
    """A value breaks a rule; the message names the field and the rule. Malformed input: a
    usage error when the value is the command line's own (the CLI reports one read from a
    file as the vault refusing the data, exit 1)."""

    exit_code = EXIT_USAGE
    http_status = HTTP_UNPROCESSABLE

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ConflictingInput(InvalidInput):
    """A well-formed value that what the vault holds refuses (a memory's status, another
    memory's content): the vault refused it, where an `InvalidInput` is malformed in itself
    (a front end reports the first as a refusal, the second as a usage error)."""

    exit_code = EXIT_REFUSED
    http_status = HTTP_CONFLICT


class InvalidTransition(VaultError):
    """A lifecycle change PAM §7.1 does not allow; the message names the allowed ones."""

    http_status = HTTP_CONFLICT


class AccessDenied(VaultError):
    """The acting agent lacks the permission (PAM §9) the operation needs."""

    http_status = HTTP_FORBIDDEN


class DNAProtected(VaultError):
    """Background work (actor "system") tried to decay, delete, supersede or change a DNA-class
    memory (AIMEM §5.1)."""

    http_status = HTTP_FORBIDDEN


class ExchangeError(VaultError):
    """An export, import or conversion that could not be done; the vault is unchanged."""

    http_status = HTTP_UNPROCESSABLE


class ExportError(ExchangeError):
    """The export could not be written (nothing was left at the target)."""


class ImportRefused(ExchangeError):
    """An import refused before anything was written (PAM or AIMEM). `findings` holds the
    validation errors when the input is not valid."""

    def __init__(
        self, message: str, findings: Sequence[Finding] = (), *, headline: str | None = None
    ) -> None:
        super().__init__(message)
        self.findings = list(findings)
        #: the message without the findings (for front ends that list them)
        self.headline = headline or message


class ConvertError(ExportError):
    """A conversion (a provider export, PAM or AIMEM to PAM or AIMEM files) that could not be
    done; nothing was written. `findings` lists what is wrong with the input (PAM findings or
    AIMEM problems), when that is why."""

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, message: str, findings: Sequence[Finding] = ()) -> None:
        super().__init__(message)
        self.findings = list(findings)
