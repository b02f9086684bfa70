"""`memvault.sync` between a vault file and a vault on a PostgreSQL store (Debian's
PostgreSQL 15, and PostgreSQL with pgvector), the remote taken in-process (`VaultRemote`):
both directions, a true conflict recorded as `contradicts`, and a second run that changes
nothing (PAM §16, §13)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import pgkit
from memvault.store.base import MemoryQuery
from memvault.sync import VaultRemote, sync
from memvault.vault import Vault
from storekit import new_postgres_store
from vaultkit import make_vault

SERVERS = [pytest.param("pg15", id="postgres15"), pytest.param("pgvector", id="pgvector")]


@pytest.fixture(params=SERVERS)
def vaults(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Vault, Vault]]:
    pgkit.server(request.param)
    remote = Vault.create(new_postgres_store(request.param))
    local = make_vault(tmp_path / "laptop")
    try:
        yield local, remote
    finally:
        local.close()
        remote.close()


def contents(vault: Vault) -> set[str]:
    return {m.content for m in vault.iter_memories(MemoryQuery(limit=None))}


def test_sync_with_a_postgres_vault_both_ways_conflicts_and_again(
    vaults: tuple[Vault, Vault],
) -> None:
    local, remote = vaults
    peer = VaultRemote(remote, "postgres")
    local.add("User lives in Lisbon", "fact")
    drink = remote.add("User drinks coffee", "preference").memory
    first = sync(local, peer)
    assert (first.pulled, first.pushed) == (1, 1)
    assert contents(local) == contents(remote) == {"User lives in Lisbon", "User drinks coffee"}
    now = datetime.now(UTC)
    local.update(drink.id, content="User drinks tea", now=now)
    remote.update(drink.id, content="User drinks mate", now=now + timedelta(hours=1))
    time.sleep(1.1)  # export dates are whole seconds
    second = sync(local, peer)
    assert [(c.kept, c.other, c.winner) for c in second.conflicts] == [
        ("User drinks mate", "User drinks tea", "remote")
    ]
    other = second.conflicts[0].other_id
    for vault in (local, remote):
        assert vault.get(drink.id).content == "User drinks mate"
        assert vault.get(other).content == "User drinks tea"
        assert [(r.type, r.to) for r in vault.relations(drink.id)] == [("contradicts", other)]
    time.sleep(1.1)
    third = sync(local, peer)
    assert (third.pulled, third.pushed, third.changed) == (0, 0, 0), third.to_json()
