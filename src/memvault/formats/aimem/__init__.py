"""AIMEM Bundle v1 (draft-vu-aimem-bundle-00): read, validate, write, checksum and sign.

The public API, re-exported from one module per concept:

- `open_bundle(path_or_stream)` → `BundleReader` (checksum verified first; `records()`
  streams `Record`s with their problems); `validate_bundle(path_or_stream)` → `BundleReport`.
- `BundleWriter` / `write_bundle` — streaming writer for ``.aimem.json`` and NDJSON.
- `bundle_checksum`, `canonical_bundle_bytes`, `CanonicalBundleHasher` — §2.8.
- `BundleRules` — the §2 checks one record at a time; `Problem` / `BundleError` — findings.
- `sign_bundle`, `verify_bundle_signature`, `cose_key` — §5.3 detached COSE_Sign1.
"""

from __future__ import annotations

from memvault.formats.aimem.checksum import (
    ARRAYS,
    CanonicalBundleHasher,
    bundle_checksum,
    canonical_bundle_bytes,
)
from memvault.formats.aimem.errors import (
    STATUS_CONFLICT,
    STATUS_UNPROCESSABLE,
    BundleError,
    Problem,
)
from memvault.formats.aimem.reader import (
    BundleReader,
    Record,
    detect_form,
    open_bundle,
    sniff,
    validate_bundle,
)
from memvault.formats.aimem.validate import (
    DNA_TYPES,
    EDGE_TYPES,
    ENTITY_KINDS,
    FORMATS,
    MEMORY_TYPES,
    BundleReport,
    BundleRules,
)
from memvault.formats.aimem.writer import BundleWriter, WriteSummary, write_bundle

__all__ = [
    "ARRAYS",
    "DNA_TYPES",
    "EDGE_TYPES",
    "ENTITY_KINDS",
    "FORMATS",
    "MEMORY_TYPES",
    "STATUS_CONFLICT",
    "STATUS_UNPROCESSABLE",
    "BundleError",
    "BundleReader",
    "BundleReport",
    "BundleRules",
    "BundleWriter",
    "CanonicalBundleHasher",
    "Problem",
    "Record",
    "WriteSummary",
    "bundle_checksum",
    "canonical_bundle_bytes",
    "detect_form",
    "open_bundle",
    "sniff",
    "validate_bundle",
    "write_bundle",
]
