"""What a provider export is, without importing it: the provider and importer that read it
(detected as `memvault import` detects it), and how many conversations, messages and memories
it holds, counted by streaming the importer over it (bounded memory, nothing written).

A document that declares itself — a PAM document or export, an AIMEM bundle — is never taken
for a provider export here, whatever a provider's sniffer would say of its content.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memvault.importers.base import (
    ConversationJson,
    ImportedConversation,
    ImportedMemory,
    ImportFormatError,
)
from memvault.importers.detect import DetectionError, detect, looks_like_pam
from memvault.importers.ingest import make_context
from memvault.sources import SourceError, open_target

__all__ = ["ExportSurvey", "survey_export"]


@dataclass(slots=True)
class ExportSurvey:
    """A provider export as `memvault inspect` describes it.

    `complete` is False when reading stopped at `error` (the counts are those read until
    then)."""

    target: str
    kind: str  # "zip", "directory" or "file"
    provider: str
    importer_version: str
    conversations: int = 0
    messages: int = 0
    memories: int = 0
    complete: bool = True
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "kind": "provider-export",
            "container": self.kind,
            "provider": self.provider,
            "importer_version": self.importer_version,
            "conversations": self.conversations,
            "messages": self.messages,
            "memories": self.memories,
            "complete": self.complete,
            "error": self.error,
            "warnings": list(self.warnings),
        }


def _declares_itself(path: Path) -> bool:
    """An AIMEM bundle file (its envelope says so)."""
    from memvault.formats.aimem import sniff

    return path.is_file() and sniff(path) is not None


def survey_export(
    path: str | os.PathLike[str], *, progress: Callable[[int], None] | None = None
) -> ExportSurvey | None:
    """The survey of the provider export at `path`, or None when it is not one (a PAM or
    AIMEM document, something no importer recognizes, or a file that cannot be opened: the
    caller's own reading reports those)."""
    where = Path(path)
    if _declares_itself(where):
        return None
    try:
        with open_target(where) as target:
            if looks_like_pam(target):
                return None
            try:
                importer = detect(target)
            except DetectionError:
                return None
            survey = ExportSurvey(
                str(path), target.kind, importer.id.provider, importer.id.importer_version
            )
            context = make_context(str(path), None, progress=progress)
            try:
                for record in importer.read(target, context):
                    if isinstance(record, ImportedConversation):
                        survey.conversations += 1
                        messages = record.document.get("messages")
                        survey.messages += len(messages) if isinstance(messages, list) else 0
                    elif isinstance(record, ConversationJson):
                        survey.conversations += 1
                        survey.messages += record.message_count
                    elif isinstance(record, ImportedMemory):
                        survey.memories += 1
            except (ImportFormatError, SourceError) as exc:
                survey.complete = False
                survey.error = str(exc)
            survey.warnings = list(context.warnings)
            return survey
    except SourceError:
        return None
