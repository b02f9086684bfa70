"""Generators of realistic provider data exports (as the user downloads them), for the
importer tests and benchmarks: deterministic from a seed, English and Portuguese text, written
as a zip, an extracted folder or the lone conversations file."""

from __future__ import annotations

import zipfile
from collections.abc import Mapping
from pathlib import Path


def write_folder(files: Mapping[str, bytes], root: Path) -> Path:
    """The export extracted into `root` (as a user unzips it)."""
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def write_zip(files: Mapping[str, bytes], path: Path, *, folder: str | None = None) -> Path:
    """The export as the provider ships it: one zip (optionally inside one folder)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(f"{folder}/{name}" if folder else name, data)
    return path
