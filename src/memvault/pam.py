"""The Python API for PAM v1.0 documents.

    >>> from memvault import pam
    >>> store = pam.load("export/")              # a MemoryStore model
    >>> result = pam.validate("export.zip")      # errors and warnings
    >>> result.valid, [str(f.message) for f in result.errors]

`load` accepts a memory-store file, an export directory or a .zip of one; `validate` accepts
the same, or a document already parsed into a dict.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.findings import Finding, ValidationResult
from memvault.formats.pam import STORE_FILE, reader
from memvault.formats.pam.validate import validate_path, validate_value
from memvault.jsonread import JSONDocumentError
from memvault.model import MemoryStore
from memvault.sources import SourceError, open_target

__all__ = ["Finding", "MemoryStore", "PAMError", "ValidationResult", "load", "validate"]


class PAMError(VaultError):
    """A PAM document that cannot be loaded; the message names the file and the problem."""

    http_status = HTTP_UNPROCESSABLE


def load(path: str | os.PathLike[str]) -> MemoryStore:
    """Read a memory-store (file, export directory or zip) into the model.

    Only reading is checked here (JSON syntax, duplicate keys, document kind); call
    `validate` for the rules of the spec.
    """
    try:
        with open_target(path) as target:
            entry = target.entries[0] if target.kind == "file" else target.find(STORE_FILE)
            if entry is None:
                raise PAMError(f"{path}: no {STORE_FILE} in this {target.kind} (PAM §2)")
            with entry.open() as buf:
                doc = reader.parse(buf, entry.display)
                if doc.kind != "memory-store":
                    raise PAMError(f"{entry.display}: not a PAM memory-store (found {doc.kind})")
                value = doc.full()
    except (SourceError, JSONDocumentError) as exc:
        raise PAMError(str(exc)) from None
    memories = value.get("memories")
    if not isinstance(memories, list) or not all(isinstance(m, dict) for m in memories):
        raise PAMError(f"{path}: `memories` must be an array of objects (PAM §3.1, §4)")
    try:
        return MemoryStore.from_json(value)
    except ValueError as exc:
        raise PAMError(f"{path}: {exc}") from None


def validate(document: str | os.PathLike[str] | Mapping[str, Any]) -> ValidationResult:
    """Validate a path (file, directory, zip) or an in-memory document."""
    if isinstance(document, Mapping):
        return validate_value(document)
    return validate_path(document)
