"""An export made while no memory or relation changed since the last one sends that one's
kept records under a new envelope (`KeptRecords`): the checksum comes from the kept SHA-256
state plus the new envelope (AIMEM §2.8, §3.1: the envelope line goes out at once), and the
bytes are exactly those of an export that reads and maps everything again."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from memvault.exchange.aimem import export_bundle
from memvault.exchange.aimem_wire import export_download, import_stream
from memvault.formats.aimem import bundle_checksum
from memvault.vault import Vault
from test_aimem_export_cache import graph_bundle
from vaultkit import make_vault

FIRST = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
LATER = FIRST + timedelta(minutes=5)


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    with make_vault(tmp_path / "v") as made:
        import_stream(made, io.BytesIO(graph_bundle()))
        yield made


def download(vault: Vault, form: str, now: datetime, scope: str = "FULL") -> tuple[str, bytes]:
    got = export_download(vault, scope=scope, form=form, now=now)
    return got.checksum, b"".join(got.blocks)


def written(vault: Vault, tmp_path: Path, form: str, now: datetime, scope: str = "FULL") -> bytes:
    """The same export written to a file: every record read and mapped again."""
    path = tmp_path / f"out-{form}-{now:%H%M%S}.{'ndjson' if form == 'ndjson' else 'aimem.json'}"
    export_bundle(vault, path, scope=scope, form=form, now=now, overwrite=True)  # type: ignore[arg-type]
    return path.read_bytes()


@pytest.mark.parametrize("form", ["ndjson", "json"])
def test_aimem_2_8_export_again_gives_the_bytes_of_a_new_export(
    vault: Vault, tmp_path: Path, form: str
) -> None:
    download(vault, form, FIRST)  # keeps its records
    checksum, body = download(vault, form, LATER)  # sent again under a new envelope
    assert body == written(vault, tmp_path, form, LATER)
    envelope = orjson.loads(body.splitlines()[0] if form == "ndjson" else body)
    assert envelope["exported_at"] == "2026-11-27T12:05:00Z"
    assert envelope["checksum"] == checksum
    if form == "json":
        assert bundle_checksum(envelope) == checksum


def test_aimem_2_8_export_again_per_scope(vault: Vault, tmp_path: Path) -> None:
    download(vault, "ndjson", FIRST)
    download(vault, "ndjson", FIRST, scope="DNA_ONLY")
    _, body = download(vault, "ndjson", LATER, scope="DNA_ONLY")
    assert body == written(vault, tmp_path, "ndjson", LATER, scope="DNA_ONLY")


def test_aimem_2_8_a_change_makes_the_next_export_read_again(vault: Vault, tmp_path: Path) -> None:
    download(vault, "ndjson", FIRST)
    memory_id = vault.list().items[0].id
    vault.update(memory_id, content="changed since the last export")
    _, body = download(vault, "ndjson", LATER)
    assert b"changed since the last export" in body
    assert body == written(vault, tmp_path, "ndjson", LATER)


def test_aimem_2_8_a_new_memory_makes_the_next_export_read_again(
    vault: Vault, tmp_path: Path
) -> None:
    download(vault, "ndjson", FIRST)
    vault.add("a memory added after the last export", "fact")
    _, body = download(vault, "ndjson", LATER)
    assert b"a memory added after the last export" in body
    assert body == written(vault, tmp_path, "ndjson", LATER)


def test_aimem_5_2_an_erased_memory_is_not_sent_again(vault: Vault, tmp_path: Path) -> None:
    download(vault, "ndjson", FIRST)
    gone = vault.list().items[0]
    vault.erase(gone.id)
    _, body = download(vault, "ndjson", LATER)
    assert gone.content.encode() not in body
    assert body == written(vault, tmp_path, "ndjson", LATER)
