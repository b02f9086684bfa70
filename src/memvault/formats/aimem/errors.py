"""Structured problems found in an AIMEM bundle (draft-vu-aimem-bundle-00).

A problem names the rule broken (a stable kebab-case `code`), where (a JSON Pointer such as
``/chunks/12/id``, the file and the record id), the section of the draft that states the rule,
and the HTTP status the profile (§3.2) gives it: 409 for a checksum mismatch, 422 for a
malformed bundle. The CLI, the HTTP layer and the importer all render the same objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal

from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.findings import Finding

__all__ = [
    "STATUS_CONFLICT",
    "STATUS_UNPROCESSABLE",
    "BundleError",
    "Problem",
    "Severity",
    "pointer",
]

Severity = Literal["error", "warning"]

#: §2.8 / §3.2: the checksum does not match the content.
STATUS_CONFLICT: Final = 409
#: §3.2 / §7: a malformed bundle (missing field, invalid URN, unknown reference, v2, ...).
STATUS_UNPROCESSABLE: Final = 422


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule: what (`code`), where (`path`, `file`, `record`), why (`section`).

    `status` is the HTTP status the AIMEM profile names for it (None for warnings).
    """

    code: str
    message: str
    path: str = ""
    section: str | None = None
    status: int | None = STATUS_UNPROCESSABLE
    severity: Severity = "error"
    file: str | None = None
    record: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The problem as a JSON object (the CLI's ``--json`` form)."""
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "section": self.section,
            "status": self.status,
            "file": self.file,
            "record": self.record,
        }

    def to_finding(self) -> Finding:
        """The problem as a `memvault.findings.Finding` (the PAM validator's form)."""
        return Finding(
            self.severity,
            self.code,
            self.message,
            self.path or "/",
            self.section,
            self.file,
            self.record,
        )

    def __str__(self) -> str:
        where = self.path or "/"
        record = f" (record {self.record})" if self.record else ""
        section = ""
        if self.section:
            section = f" [AIMEM {self.section}]" if self.section[0] == "§" else f" [{self.section}]"
        file = f"{self.file}: " if self.file else ""
        return f"{file}{where}{record}: {self.message}{section}"


class BundleError(VaultError, ValueError):
    """A bundle that cannot be read, verified or written; carries the problems that say why.

    `status` (also `http_status`, as every memvault error has) is the HTTP status of the first
    error (409 for a checksum mismatch, else 422).
    """

    http_status = HTTP_UNPROCESSABLE

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        errors = [p for p in self.problems if p.severity == "error"] or self.problems
        self.status: int = (errors[0].status if errors else None) or STATUS_UNPROCESSABLE
        self.http_status = self.status
        super().__init__("; ".join(str(p) for p in errors[:5]) or "invalid AIMEM bundle")

    @property
    def code(self) -> str:
        """The code of the first error (e.g. ``checksum-mismatch``)."""
        return self.problems[0].code if self.problems else "invalid-bundle"


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) to the member named by `parts`, e.g. ``/chunks/12/id``."""
    out = []
    for part in parts:
        text = str(part).replace("~", "~0").replace("/", "~1")
        out.append("/" + text)
    return "".join(out)
