"""Memories in and out of a vault as files: PAM v1.0 exports (`memvault.exchange.pam`) and
AIMEM bundles (`memvault.exchange.aimem`), through the vault's public operations (a unit of
work for imports, an export view for exports; docs/exchange.md, docs/aimem-mapping.md).

    from memvault.exchange import export_vault, import_into_vault, export_bundle, import_bundle
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: Which module each public name lives in: a command that exports PAM loads no AIMEM code
#: (the CLI loads only what a command needs).
_AIMEM: frozenset[str] = frozenset(
    {
        "SCOPES",
        "AimemExportResult",
        "AimemImportResult",
        "BundleRefused",
        "ConvertError",
        "ConvertResult",
        "convert_file",
        "export_bundle",
        "import_bundle",
        "producer_namespace",
    }
)


def __getattr__(name: str) -> Any:
    if name in ("pam", "aimem"):
        return importlib.import_module(f"{__name__}.{name}")
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(
        "memvault.exchange.aimem" if name in _AIMEM else "memvault.exchange.pam"
    )
    return getattr(module, name)
