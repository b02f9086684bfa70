"""A served vault keeps recall's bit index in its readers' page caches between whole-vault
vector searches, within a budget (``MEMVAULT_RECALL_CACHE_MIB``, `RECALL_CACHE_KIB` by
default), instead of reading and decrypting all of it again on every query; a budget too
small for the whole index raises nothing (a partial cache is evicted all the same), and
`Vault.release_memory` gives it back. Hits are the same with or without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from embedserver import EmbedServer
from embedserver import embed_server as embed_server
from memvault.errors import InvalidInput
from memvault.recall.embedders import EmbedderSpec
from memvault.store.factory import recall_cache_kib
from memvault.store.sqlite import RECALL_CACHE_KIB, SERVER_CACHE_KIB
from memvault.store.sqlite_recall import bits_cache_kib
from memvault.vault import Vault
from serverkit import auth, running
from test_recall_bits_cache import QUERIES, _answers, _fill
from vaultkit import PASSPHRASE, make_vault


def _reader_caches(vault: Vault) -> list[int]:
    """The page cache (KiB) of each idle connection of the served store: the writer (recall
    reads on it when it is free) and the readers."""
    store: Any = vault.store
    conns = [store._conn, *store._idle_readers]
    return [-int(c.execute("PRAGMA cache_size").fetchone()[0]) for c in conns]


def _filled(tmp_path: Path, embed_server: EmbedServer) -> tuple[Path, EmbedderSpec]:
    home = tmp_path / "home"
    with make_vault(home) as made:
        spec = _fill(made, embed_server)
    return home, spec


def test_a_served_vault_keeps_the_bit_index_cached_within_its_budget(
    tmp_path: Path, embed_server: EmbedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, spec = _filled(tmp_path, embed_server)
    monkeypatch.delenv("MEMVAULT_RECALL_CACHE_MIB", raising=False)
    with Vault.open(home, PASSPHRASE, serving=True) as served:
        hits = _answers(served, spec)
        caches = _reader_caches(served)
        assert max(caches) > SERVER_CACHE_KIB, caches
        store: Any = served.store
        assert sum(store._recall_grants.values()) <= RECALL_CACHE_KIB
        assert max(caches) <= bits_cache_kib(10_000, 1024, SERVER_CACHE_KIB)
        # Idle: the memory is given back.
        served.release_memory()
        assert all(c == SERVER_CACHE_KIB for c in _reader_caches(served))
        assert store._recall_grants == {}
    monkeypatch.setenv("MEMVAULT_RECALL_CACHE_MIB", "0")
    with Vault.open(home, PASSPHRASE, serving=True) as small:
        assert _answers(small, spec) == hits
        assert all(c == SERVER_CACHE_KIB for c in _reader_caches(small))


def test_a_budget_too_small_for_the_whole_bit_index_raises_no_cache(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    home, spec = _filled(tmp_path, embed_server)
    with Vault.open(home, PASSPHRASE, serving=True) as served:
        store: Any = served.store
        store.set_recall_cache_budget(1)  # 1 KiB: no bit index fits
        _answers(served, spec)
        assert all(c == SERVER_CACHE_KIB for c in _reader_caches(served))


def test_the_recall_cache_budget_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MEMVAULT_RECALL_CACHE_MIB", raising=False)
    assert recall_cache_kib() == RECALL_CACHE_KIB
    monkeypatch.setenv("MEMVAULT_RECALL_CACHE_MIB", "16")
    assert recall_cache_kib() == 16 * 1024
    monkeypatch.setenv("MEMVAULT_RECALL_CACHE_MIB", "lots")
    with pytest.raises(InvalidInput, match="MEMVAULT_RECALL_CACHE_MIB"):
        recall_cache_kib()


def test_a_real_server_keeps_the_bit_index_cached_between_recall_queries(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    from memvault.server.app import create_app
    from memvault.server.config import ServerConfig
    from memvault.tenancy import Tenants

    home, _spec = _filled(tmp_path, embed_server)
    with Tenants.personal(home, PASSPHRASE) as tenants:
        token = tenants.local_token()
        app = create_app(ServerConfig(tenants))
        with running(app) as url, httpx.Client(base_url=url, headers=auth(token)) as http:
            for query in QUERIES:
                found = http.get("/v1/recall", params={"q": query})
                assert found.status_code == 200, found.text
            served = tenants.session(tenants.authenticate(token))
            assert max(_reader_caches(served)) > SERVER_CACHE_KIB
