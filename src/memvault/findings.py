"""What a validation finds: errors, warnings and the result that collects them.

Every finding names the file, the JSON path, the record (usually a memory id), the rule that
was broken (a stable code) and the spec section that states it, so a user can go from a message
straight to the offending byte and the sentence of the spec behind it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 2

#: How a warning starts when the user allowed data whose signature does not verify
#: (`--allow-unverified`, PAM §18.4): front ends show such warnings loudly.
SIGNATURE_WARNING = "SIGNATURE NOT VERIFIED"


def unverified_warning(finding: Finding) -> str:
    """The loud warning for a signature finding the user chose to accept."""
    where = f"{finding.file}: " if finding.file else ""
    section = f" ({finding.section})" if finding.section else ""
    text = f"{where}{finding.path}: {finding.message}{section} [{finding.code}]"
    return f"{SIGNATURE_WARNING}: {text}"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``1 memory``, ``3 memories``: a count and its noun, for messages."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def errors_text(count: int) -> str:
    """``1 error``, ``2 errors``: how many errors a refusal found."""
    return counted(count, "error")


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    code: str
    message: str
    path: str = "$"
    section: str | None = None
    file: str | None = None
    record: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "section": self.section,
            "file": self.file,
            "record": self.record,
        }


@dataclass(slots=True)
class ValidationResult:
    """The outcome of validating one target (a file, an export directory or a zip)."""

    target: str
    kind: str = "unknown"
    findings: list[Finding] = field(default_factory=list)
    #: True when the target could not be read at all (missing, permission, not a PAM target).
    unreadable: bool = False
    #: Per-file facts gathered on the way (counts, checksum state), used by `inspect`.
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.unreadable and not self.errors

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_INVALID if self.errors else EXIT_VALID

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    def extend(self, findings: Iterable[Finding]) -> None:
        self.findings.extend(findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "kind": self.kind,
            "valid": self.valid,
            "exit_code": self.exit_code,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "findings": [f.to_json() for f in self.findings],
            "facts": self.facts,
        }


@dataclass(frozen=True, slots=True)
class RuleSummary:
    """The findings of one rule (severity and code) in one result: how many, and the first,
    whose message and place stand for the rest when they are shown one line per rule."""

    severity: Severity
    code: str
    count: int
    first: Finding


def by_rule(findings: Iterable[Finding]) -> list[RuleSummary]:
    """The findings grouped by rule, in the order each rule was first met (errors and
    warnings of the same code are separate rules)."""
    counts: dict[tuple[str, str], int] = {}
    firsts: dict[tuple[str, str], Finding] = {}
    for finding in findings:
        key = (finding.severity, finding.code)
        counts[key] = counts.get(key, 0) + 1
        firsts.setdefault(key, finding)
    return [
        RuleSummary(first.severity, first.code, counts[key], first) for key, first in firsts.items()
    ]
