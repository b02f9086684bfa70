"""`memvault import` of a memory system's file and `memvault export --format NAME` for the
hub formats (docs/formats.md). The rules live in `memvault.hub`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from memvault.cli.common import (
    IMPORT_COMMITTED,
    VaultOptions,
    console,
    done_so_far,
    fail,
    open_vault,
    plural,
    print_json,
    print_warnings,
)
from memvault.errors import VaultError
from memvault.hub.base import Tally
from memvault.hub.reading import HubImporter
from memvault.importers.base import ImportFormatError
from memvault.jsonread import JSONDocumentError
from memvault.sources import SourceError, open_target


def _carried(tally: Tally) -> None:
    out = console()
    for line in tally.lines():
        out.print(escape(line))


def import_hub_file(path: str, importer: HubImporter, options: VaultOptions, as_json: bool) -> None:
    """Import a hub format's file in one transaction and say what was carried."""
    from memvault.hub.reading import import_hub
    from memvault.importers.ingest import file_checksum, make_context

    with open_vault(options) as vault:
        try:
            with open_target(path) as target:
                context = make_context(path, file_checksum(path))
                result = import_hub(vault, importer, target, context)
        except (ImportFormatError, SourceError, JSONDocumentError) as exc:
            fail(f"{exc}; nothing was imported")
        except VaultError as exc:
            fail(f"{path}: {exc}; nothing was imported")
        done_so_far(IMPORT_COMMITTED)
    if as_json:
        print_json(result.to_json())
        return
    out = console()
    out.print(
        f"[green]✓[/] Imported [bold]{escape(path)}[/] ({escape(importer.id.importer_version)}): "
        f"memories {result.created} new, {result.reinforced} reinforced, {result.updated} "
        f"updated, {result.unchanged} unchanged; {plural(result.relations, 'relation')}"
    )
    _carried(result.tally)
    print_warnings(out, result.warnings)


def export_hub_file(
    name: str, output: Path, overwrite: bool, options: VaultOptions, as_json: bool
) -> None:
    """`export --format NAME -o PATH` for a hub format."""
    from memvault.hub.exporting import export_hub

    with open_vault(options) as vault:
        try:
            exported = export_hub(vault, name, output, overwrite=overwrite)
        except VaultError as exc:
            fail(f"{exc}; nothing was written")
    if as_json:
        print_json({"path": str(exported.path), "carried": exported.tally.to_json()})
        return
    console().print(f"[green]✓[/] Wrote [bold]{escape(str(exported.path))}[/] ({name}):")
    _carried(exported.tally)
