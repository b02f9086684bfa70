"""Memories in and out of a vault as files: PAM v1.0 exports (`memvault.exchange.pam`) and
AIMEM bundles (`memvault.exchange.aimem`), through the vault's public operations (a unit of
work for imports, an export view for exports; docs/exchange.md, docs/aimem-mapping.md).

    from memvault.exchange import export_vault, import_into_vault, export_bundle, import_bundle
"""

from __future__ import annotations

from memvault.exchange.aimem import (
    SCOPES,
    AimemExportResult,
    AimemImportResult,
    BundleRefused,
    ConvertError,
    ConvertResult,
    convert_file,
    export_bundle,
    import_bundle,
    producer_namespace,
)
from memvault.exchange.pam import (
    EXPORT_FORMATS,
    SIGNATURE_WARNING,
    ExchangeError,
    ExportError,
    ExportHooks,
    ExportResult,
    ImportConflict,
    ImportHooks,
    ImportRefused,
    ImportResult,
    UnknownBase,
    export_vault,
    import_into_vault,
)

__all__ = [
    "EXPORT_FORMATS",
    "SCOPES",
    "SIGNATURE_WARNING",
    "AimemExportResult",
    "AimemImportResult",
    "BundleRefused",
    "ConvertError",
    "ConvertResult",
    "ExchangeError",
    "ExportError",
    "ExportHooks",
    "ExportResult",
    "ImportConflict",
    "ImportHooks",
    "ImportRefused",
    "ImportResult",
    "UnknownBase",
    "convert_file",
    "export_bundle",
    "export_vault",
    "import_bundle",
    "import_into_vault",
    "producer_namespace",
]
