"""Export and import for the MCP tools: PAM or AIMEM to a file or inline, and any input
memvault imports (a PAM file or export, an AIMEM bundle, a provider export) from a file —
each through the library's own operations (`memvault.exchange`, `memvault.importers`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import orjson

from memvault.errors import InvalidInput, VaultError
from memvault.formats.pam import STORE_FILE

if TYPE_CHECKING:
    from memvault.vault import Vault

FORMATS: Final = ("pam", "aimem")


def _check_format(format: str) -> None:
    if format not in FORMATS:
        raise InvalidInput(f"format {format!r} is not one of {', '.join(FORMATS)}", "format")


def export_file(vault: Vault, format: str, path: Path, overwrite: bool) -> dict[str, Any]:
    """Write the session's memories to `path`: PAM (a folder, .zip or .json) or an AIMEM
    bundle (.aimem.json, or NDJSON by its name). The result as `--json` prints it."""
    _check_format(format)
    if format == "aimem":
        from memvault.exchange import export_bundle

        return export_bundle(vault, path, overwrite=overwrite).to_json()
    from memvault.exchange import export_vault

    return export_vault(vault, path, overwrite=overwrite).to_json()


class _Unrecorded(Exception):
    """Ends the transaction an unrecorded export ran in, so its registry entry is undone."""

    def __init__(self, document: str, result: dict[str, Any]) -> None:
        super().__init__("unrecorded export")
        self.document = document
        self.result = result


def export_inline(vault: Vault, format: str, *, record: bool = True) -> tuple[str, dict[str, Any]]:
    """The session's memories as one JSON document: the PAM memory-store or the AIMEM
    bundle, and the export's result. `record` False: a read, not an export — the vault's
    export registry (the base of the next incremental export) and audit log keep no trace."""
    _check_format(format)
    with tempfile.TemporaryDirectory(prefix="memvault-mcp-") as tmp:
        name = "memories.aimem.json" if format == "aimem" else STORE_FILE
        target = Path(tmp) / name
        if record:
            result = export_file(vault, format, target, overwrite=False)
            return target.read_text(encoding="utf-8"), result
        try:
            with vault.transaction():
                result = export_file(vault, format, target, overwrite=False)
                raise _Unrecorded(target.read_text(encoding="utf-8"), result)
        except _Unrecorded as done:
            return done.document, done.result


def import_file(vault: Vault, path: Path) -> dict[str, Any]:
    """Import what `path` holds, decided as `memvault import` decides
    (`memvault.input_kind.classify`), in one transaction. The result as `--json` prints it."""
    from memvault.input_kind import classify

    if not path.exists():
        # Said as `memvault import` says it, not as a PAM document that fails validation.
        raise InvalidInput(f"path {str(path)!r}: no such file or directory", "path")
    kind = classify(path)
    if kind.kind == "aimem":
        from memvault.exchange import import_bundle

        return {"kind": "aimem", **import_bundle(vault, kind.bundle or path).to_json()}
    if kind.kind == "pam":
        from memvault.exchange import import_into_vault

        return {"kind": "pam", **import_into_vault(vault, path).to_json()}
    from memvault.importers.ingest import file_checksum, ingest, make_context
    from memvault.importers.parts import ingest_parts
    from memvault.input_kind import provider_parts
    from memvault.sources import open_target

    with open_target(path) as target:
        parts = provider_parts(target)
        digest = file_checksum(path)
        if len(parts) == 1:
            results = [ingest(vault, parts[0].importer, target, make_context(str(path), digest))]
        else:
            results = ingest_parts(vault, parts, lambda part: make_context(str(path), digest))
    return {"kind": "provider", "parts": [r.to_json() for r in results]}


def import_inline(vault: Vault, content: str | dict[str, Any]) -> dict[str, Any]:
    """Import a PAM document or an AIMEM bundle given inline, as an object or its JSON text
    (over HTTP, where the server reads no paths)."""
    if isinstance(content, str):
        try:
            document = orjson.loads(content)
        except orjson.JSONDecodeError as exc:
            raise InvalidInput(f"content is not JSON: {exc}", "content") from None
    else:
        document = content
        content = orjson.dumps(document).decode()
    if not isinstance(document, dict):
        raise InvalidInput(
            "content must be a JSON object (a PAM document or AIMEM bundle)", "content"
        )
    suffix = ".aimem.json" if "chunks" in document or "format" in document else ".json"
    with tempfile.TemporaryDirectory(prefix="memvault-mcp-") as tmp:
        source = Path(tmp) / f"import{suffix}"
        source.write_text(content, encoding="utf-8")
        # The temporary file is the server's business: messages name the content instead.
        try:
            result = import_file(vault, source)
        except VaultError as exc:
            told = str(exc).replace(str(source), _CONTENT)
            if told == str(exc):
                raise
            raise InvalidInput(told, "content") from None
        told_result: dict[str, Any] = orjson.loads(
            orjson.dumps(result).replace(str(source).encode(), _CONTENT.encode())
        )
        return told_result


#: How inline imports' messages name what was given (never the file it was spooled to).
_CONTENT: Final = "the content"
