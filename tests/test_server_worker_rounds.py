"""The background workers (the embedder, the AIMEM mapper) are event-driven: a successful
write over HTTP marks its tenant dirty, a round opens the sessions of the dirty tenants only,
a tenant whose work is unfinished stays dirty, and a slow sweep visits every tenant (the
first round, then every `sweep_interval` seconds)."""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from memvault.server.embedding import EmbedWorker
from memvault.server.export_mapping import ExportMapWorker
from memvault.server.tenant_worker import Sessions, TenantWorker, owner_sessions
from memvault.vault import Vault
from serverkit import Home, app_for, auth, client, running, server_home

MANY = tuple(f"t{n:02d}" for n in range(50))


class Counting:
    """`owner_sessions` that counts the sessions it opens."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.opened: list[str] = []

    def __call__(self, names: Collection[str] | None = None) -> Iterable[tuple[str, Vault]]:
        for name, vault in self.sessions(names):
            self.opened.append(name)
            yield name, vault

    def take(self) -> list[str]:
        opened, self.opened = self.opened, []
        return opened


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Home]:
    with server_home(tmp_path_factory.mktemp("server"), MANY) as home:
        yield home


def test_a_round_over_50_idle_tenants_opens_none_of_them(many: Home) -> None:
    for kind in (EmbedWorker, ExportMapWorker):
        counting = Counting(owner_sessions(many.tenants, "worker"))
        worker: TenantWorker[Any] = kind(counting, interval=1.0, sweep_interval=3600)
        worker.run_once()  # the first round sweeps: work left from before the server started
        assert sorted(counting.take()) == sorted(MANY)
        for _ in range(3):
            worker.run_once()
        assert counting.take() == [], kind


def test_a_write_marks_only_its_tenant_and_the_next_round_opens_only_it(many: Home) -> None:
    app = app_for(many, embed_interval=60, map_interval=60)
    counting = Counting(owner_sessions(many.tenants, "export-mapper"))
    app.state.export_mapper = ExportMapWorker(counting, interval=60, sweep_interval=3600)
    mapper: ExportMapWorker = app.state.export_mapper
    mapper.run_once()
    counting.take()
    http: TestClient = client(app, many.key("t07"))
    # Reads, and writes that are refused, mark nothing.
    assert http.get("/v1/memories").status_code == 200
    refused = http.post("/v1/memories", content=b"{}", headers={"content-type": "text/plain"})
    assert refused.status_code == 415
    assert mapper.dirty() == set() and app.state.embedder.dirty() == set()
    made = http.post("/v1/memories", json={"content": "Lives in Porto", "type": "fact"})
    assert made.status_code == 201
    assert mapper.dirty() == {"t07"} and app.state.embedder.dirty() == {"t07"}
    mapper.run_once()
    assert counting.take() == ["t07"]
    assert mapper.dirty() == set()  # done: nothing left pending
    mapper.run_once()
    assert counting.take() == []


def test_unfinished_work_keeps_the_tenant_dirty_and_the_sweep_visits_everyone(
    many: Home,
) -> None:
    class Flaky(TenantWorker[Any]):
        failing = True

        def _work(self, vault: Vault, progress: Any) -> bool:
            return not self.failing

    counting = Counting(owner_sessions(many.tenants, "worker"))
    worker = Flaky(counting, lambda: type("P", (), {"runs": 0, "last_run": None})(), interval=1)
    worker.run_once(sweep=False)
    assert counting.take() == []
    worker.mark_dirty("t03")
    worker.run_once(sweep=False)
    worker.run_once(sweep=False)
    assert counting.take() == ["t03", "t03"]  # failed: tried again
    worker.failing = False
    worker.run_once(sweep=False)
    worker.run_once(sweep=False)
    assert counting.take() == ["t03"]
    worker.run_once(sweep=True)
    assert len(counting.take()) == len(MANY)


def test_a_real_server_maps_only_the_tenant_written_to(tmp_path: Path) -> None:
    names = tuple(f"s{n}" for n in range(8))
    with server_home(tmp_path / "server", names) as home:
        app = app_for(home, map_interval=0.02)
        with (
            running(app) as url,
            httpx.Client(base_url=url, headers=auth(home.key("s5")), timeout=60) as http,
        ):
            mapper: ExportMapWorker = app.state.export_mapper
            assert mapper.wait_rounds(2, timeout=30)  # the first round swept every tenant
            before = {name: mapper.progress(name)["runs"] for name in names}
            assert all(runs >= 1 for runs in before.values()), before
            made = http.post("/v1/memories", json={"content": "Lives in Faro", "type": "fact"})
            assert made.status_code == 201
            deadline = time.monotonic() + 30
            while mapper.progress("s5")["runs"] == before["s5"]:
                assert time.monotonic() < deadline, "the written tenant was never visited"
                time.sleep(0.02)
            assert mapper.wait_rounds(3, timeout=30)
            after = {name: mapper.progress(name)["runs"] for name in names}
            assert {n for n in names if after[n] != before[n]} == {"s5"}, (before, after)


def test_a_personal_vault_written_beside_the_server_is_mapped_without_a_request(
    tmp_path: Path,
) -> None:
    """`memvault serve` on a personal vault: a memory the owner's CLI adds to the vault file
    while the server runs (no request announces it) is mapped by the next rounds, not only at
    the slow sweep."""
    from memvault.server.app import create_app
    from memvault.server.config import ServerConfig
    from memvault.tenancy import Tenants
    from vaultkit import PASSPHRASE, make_vault

    home = tmp_path / "vault"
    make_vault(home).close()
    with Tenants.personal(home, PASSPHRASE) as tenants:
        app = create_app(ServerConfig(tenants, map_interval=0.02))
        with running(app):
            mapper: ExportMapWorker = app.state.export_mapper
            assert mapper.wait_rounds(2, timeout=30)
            (tenant,) = [name for name, _ in owner_sessions(tenants)(None)]
            runs = mapper.progress(tenant)["runs"]
            beside = Vault.open(home, PASSPHRASE)
            try:
                beside.add("Lives in Faro", "fact")
            finally:
                beside.close()
            deadline = time.monotonic() + 30
            while mapper.progress(tenant)["mapped"] < 1:
                assert time.monotonic() < deadline, "the write beside the server was not mapped"
                time.sleep(0.05)
            assert mapper.progress(tenant)["runs"] > runs
