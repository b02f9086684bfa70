"""The server's background mapping of AIMEM chunks (issue #18, `memvault.server.export_mapping`):
after an import has answered, a worker maps the memories it left pending, a window at a time
under the export's erasure gate, so a download that comes once ``GET /v1/stats`` says nothing
is pending reads kept chunks only. Through a real uvicorn server."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from aimemkit import bundle, chunk
from memvault.exchange.aimem import fill_bundle, plan_export, producer_namespace
from memvault.exchange.aimem_wire import export_download, import_stream, prepare_download
from memvault.formats.aimem.writer import BundleWriter
from memvault.server.embedding import owner_sessions
from memvault.server.export_mapping import ExportMapWorker
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from serverkit import Home, app_for, auth, running, server_home
from vaultkit import make_vault

STREAM = "/v1/brain/export/stream"


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    with server_home(tmp_path / "server", ("alice",)) as opened:
        yield opened


def import_body(n: int, prefix: str = "m") -> bytes:
    chunks = [
        chunk(f"{prefix}{i}", f"memory {prefix}{i} of the import", ("fact", "goal")[i % 2])
        for i in range(n)
    ]
    chunks[3]["is_pinned"] = True
    return orjson.dumps(bundle(chunks))


def until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def mapping(http: httpx.Client) -> dict[str, Any]:
    progress: dict[str, Any] = http.get("/v1/stats").json()["export_mapping"]
    return progress


def imported(http: httpx.Client, body: bytes) -> None:
    answer = http.post(
        "/v1/brain/import", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 200, answer.text


def from_scratch(vault: Vault, tmp_path: Path) -> list[bytes]:
    """The NDJSON lines of an export mapping every memory again (embeddings asked for: no
    kept chunk is read; these vaults have no vectors, so the bundle is the same)."""
    plan = plan_export(vault, scope="FULL", embeddings=True)
    assert plan.generation is None
    writer = BundleWriter(tmp_path / "reference.ndjson", plan.envelope, form="ndjson")
    fill_bundle(writer, plan)
    _, blocks = writer.finish_stream()
    return b"".join(blocks).splitlines()


def test_aimem_3_1_after_an_import_the_worker_maps_it_and_the_download_reads_kept_chunks(
    home: Home, tmp_path: Path
) -> None:
    """§3.1: once stats say nothing is pending (and the worker made the download ready), the
    download's bytes equal a from-scratch export's (its envelope but for `exported_at` and
    the checksum over it), and it came from the kept chunks: nothing was left for it to map.
    Only the download sent is in the export registry."""
    n = 1_203  # three windows of the worker
    app = app_for(home, map_interval=0.05)
    with (
        running(app) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice")), timeout=60) as http,
    ):
        imported(http, import_body(n))
        until(lambda: mapping(http)["pending"] == 0 and mapping(http)["state"] == "idle")
        progress = mapping(http)
        assert progress["mapped"] == n and progress["error"] is None and progress["runs"] >= 1
        until(lambda: mapping(http)["prepared"] >= 1)  # the download made ready, unsent
        exported = [e for e in home.vault("alice").exports() if e.direction != "imported"]
        assert not exported
        vault = home.vault("alice")
        assert vault.export_view().pending_count() == 0
        streamed = http.get(STREAM)
        assert streamed.status_code == 200
        lines = streamed.content.splitlines()
        expected = from_scratch(vault, tmp_path)
        assert lines[1:] == expected[1:]
        got, want = orjson.loads(lines[0]), orjson.loads(expected[0])
        for name in ("exported_at", "checksum"):
            got.pop(name), want.pop(name)
        assert got == want
        key = ("aimem-download", "FULL", "None", producer_namespace(vault))
        kept = vault.export_view().kept(key)
        # The kept path records the graph generation it read; the full path does not.
        assert kept is not None and kept.graph_generation is not None
        assert kept.chunks == n
        # The download sent is registered, not the one made ready.
        assert len([e for e in vault.exports() if e.direction != "imported"]) == 1


def test_a_download_before_the_worker_maps_what_is_pending_itself(
    home: Home, tmp_path: Path
) -> None:
    """Without the worker (or before it ran) a download maps what is pending, as before:
    the same bytes as from scratch, and nothing is pending after it."""
    app = app_for(home)  # no background mapping
    with (
        running(app) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice")), timeout=60) as http,
    ):
        imported(http, import_body(40))
        assert http.get("/v1/stats").json()["export_mapping"] is None
        vault = home.vault("alice")
        assert vault.export_view().pending_count() == 40
        lines = http.get(STREAM).content.splitlines()
        assert lines[1:] == from_scratch(vault, tmp_path)[1:]
        assert vault.export_view().pending_count() == 0


def test_aimem_5_2_erasure_racing_the_worker_never_leaves_erased_bytes_kept(
    home: Home,
) -> None:
    """§5.2: memories erased while the worker maps an import leave no kept chunk and are
    in no download."""
    n = 1_500
    app = app_for(home, map_interval=0.01)
    with (
        running(app) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice")), timeout=60) as http,
    ):
        imported(http, import_body(n, "r"))
        vault = home.vault("alice")
        ids = [m.id for m in vault.iter_memories(MemoryQuery(limit=None, order="created"))]
        victims = ids[::97]
        for memory_id in victims:
            assert http.delete(f"/v1/memories/{memory_id}").status_code in (200, 204)
        until(lambda: mapping(http)["pending"] == 0 and mapping(http)["state"] == "idle")
        producer = producer_namespace(vault)
        assert vault.export_view().cached_chunk_bytes(producer, victims) == {}
        body = http.get(STREAM).content
        for memory_id in victims:
            local = memory_id.rsplit(":", 1)[1]
            assert f'"{memory_id}"'.encode() not in body
            assert f"memory {local} of the import".encode() not in body
        assert len(body.splitlines()) - 1 >= n - len(victims)


def test_a_write_while_the_worker_maps_completes_before_the_mapping_ends(home: Home) -> None:
    """The worker holds the writer one window at a time: a memory written while it maps an
    import answers while much of the import is still pending."""
    app = app_for(home)
    # Slow between windows so the mapping lasts: the write must come in between.
    app.state.export_mapper = ExportMapWorker(
        owner_sessions(home.tenants, "export-mapper"), interval=0.01, pause=0.3
    )
    with (
        running(app) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice")), timeout=60) as http,
    ):
        imported(http, import_body(2_500, "w"))
        until(lambda: mapping(http)["mapped"] > 0 and mapping(http)["pending"] > 1_000)
        results: list[int] = []
        writer = threading.Thread(
            target=lambda: results.append(
                http.post(
                    "/v1/memories", json={"content": "written meanwhile", "type": "fact"}
                ).status_code
            )
        )
        writer.start()
        writer.join(60)
        assert results == [201]
        # The write did not wait for the whole mapping: most of the import is still pending.
        assert mapping(http)["pending"] > 500
        until(lambda: mapping(http)["pending"] == 0)
        assert mapping(http)["mapped"] == 2_501


def test_the_worker_shows_in_stats_only_when_it_runs_and_stops_with_the_application(
    home: Home,
) -> None:
    """`export_mapping` is null without the worker; with it, a tenant with nothing written
    is idle with nothing mapped, and the thread ends with the application."""
    app = app_for(home, map_interval=0.05)
    with (
        running(app) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice")), timeout=60) as http,
    ):
        until(lambda: mapping(http)["state"] == "idle")
        assert mapping(http) | {"last_run": None} == {
            "state": "idle",
            "mapped": 0,
            "prepared": 0,
            "runs": mapping(http)["runs"],
            "last_run": None,
            "error": None,
            "pending": 0,
        }
    assert app.state.export_mapper._thread is None


def test_a_prepared_download_is_sent_next_and_is_registered_only_when_sent(
    tmp_path: Path,
) -> None:
    """`prepare_download` keeps a download's records without sending it (no registry
    entry); made again only after the vault changed; the next download sends those records
    (§2.8: the same bytes as a from-scratch export's, but for the envelope's time)."""
    with make_vault(tmp_path / "vault") as vault:
        import_stream(vault, io.BytesIO(import_body(30, "p")))
        vault.export_view().map_pending()
        assert prepare_download(vault) is True
        assert prepare_download(vault) is False  # nothing changed: kept already
        assert [e for e in vault.exports() if e.direction != "imported"] == []
        sent = export_download(vault, form="ndjson")
        lines = b"".join(sent.blocks).splitlines()
        assert lines[1:] == from_scratch(vault, tmp_path)[1:]
        assert len([e for e in vault.exports() if e.direction != "imported"]) == 1
        vault.add("one more", "fact")
        vault.export_view().map_pending()
        assert prepare_download(vault) is True
