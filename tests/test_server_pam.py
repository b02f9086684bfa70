"""PAM v1.0 over HTTP: ``GET /v1/pam/export`` (a zip, full or incremental, PAM §15-§16) and
``POST /v1/pam/import`` (one transaction, invalid input refused with its findings)."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime, timedelta

import httpx
import orjson

from memvault.store.base import MemoryQuery
from serverkit import Home, app_for, auth, client, home_on_each_backend

home = home_on_each_backend()


def contents(home: Home, tenant: str) -> set[str]:
    return {m.content for m in home.vault(tenant).iter_memories(MemoryQuery(limit=None))}


def call(home: Home, key: str, method: str, url: str, body: bytes = b"") -> httpx.Response:
    with client(app_for(home), key) as http:
        return http.request(method, url, content=body or None)


def store_of(zipped: bytes) -> dict[str, object]:
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        name = next(n for n in archive.namelist() if n.endswith("memory-store.json"))
        doc: dict[str, object] = orjson.loads(archive.read(name))
        return doc


def test_pam_15_export_zip_imports_into_another_tenant(home: Home) -> None:
    """PAM §15 over HTTP: the export is a zip holding memory-store.json; posted to another
    tenant it imports every memory; posted again it is already imported (nothing done)."""
    tenant, key = home.fresh()
    vault = home.vault(tenant)
    vault.add("Prefers tea to coffee.", "preference")
    vault.add("Lives in Lisbon.", "fact")
    response = call(home, key, "GET", "/v1/pam/export")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["PAM-Export-Type"] == "full"
    store = store_of(response.content)
    assert len(store["memories"]) == 2  # type: ignore[arg-type]
    other, other_key = home.fresh()
    imported = call(home, other_key, "POST", "/v1/pam/import", response.content)
    assert imported.status_code == 200, imported.text
    assert imported.json()["created"] == 2 and imported.json()["source"] == "request body"
    assert contents(home, other) == {"Prefers tea to coffee.", "Lives in Lisbon."}
    again = call(home, other_key, "POST", "/v1/pam/import", response.content)
    assert again.status_code == 200 and again.json()["already_imported"] is True


def test_pam_16_incremental_export_holds_what_changed(home: Home) -> None:
    """PAM §16 over HTTP: after a full export, `incremental=true` exports only what changed
    since, and names the full export as its base."""
    tenant, key = home.fresh()
    vault = home.vault(tenant)
    now = datetime.now(UTC)
    vault.add("First fact.", "fact", now=now - timedelta(hours=1))
    full = call(home, key, "GET", "/v1/pam/export")
    # A change a little later than the export (which is timestamped to the second).
    vault.add("Second fact.", "fact", now=now + timedelta(seconds=2))
    delta = call(home, key, "GET", "/v1/pam/export?incremental=true")
    assert delta.status_code == 200 and delta.headers["PAM-Export-Type"] == "incremental"
    store = store_of(delta.content)
    assert [m["content"] for m in store["memories"]] == ["Second fact."]  # type: ignore[attr-defined]
    assert store["base_export_id"] == full.headers["PAM-Export-Id"]


def test_pam_import_of_an_invalid_store_is_422_and_changes_nothing(home: Home) -> None:
    """An invalid memory-store (a memory without content) is refused whole with 422 and the
    finding; the vault is left as it was."""
    tenant, key = home.fresh()
    source, source_key = home.fresh()
    home.vault(source).add("Something true.", "fact")
    store = store_of(call(home, source_key, "GET", "/v1/pam/export").content)
    del store["memories"][0]["content"]  # type: ignore[index]
    response = call(home, key, "POST", "/v1/pam/import", orjson.dumps(store))
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert "content" in response.text
    assert contents(home, tenant) == set()


def test_pam_routes_401_without_credentials_403_without_the_scope(home: Home) -> None:
    with client(app_for(home)) as http:
        assert http.get("/v1/pam/export").status_code == 401
        assert http.post("/v1/pam/import", content=b"{}").status_code == 401
        reader = home.scoped("bob", "bundle:import")
        assert http.get("/v1/pam/export", headers=auth(reader)).status_code == 403
        writer = home.scoped("bob", "bundle:export")
        forbidden = http.post("/v1/pam/import", content=b"{}", headers=auth(writer))
        assert forbidden.status_code == 403


def test_pam_9_agent_token_exports_only_what_it_may_read(home: Home) -> None:
    """PAM §9 over HTTP: an agent's token exports the memories granted to it, no others."""
    tenant, _ = home.fresh()
    vault = home.vault(tenant)
    shared = vault.add("Shared with the agent.", "fact")
    vault.add("Private to the owner.", "fact")
    vault.grant(shared.memory.id, "agent-y", ["read"])
    agent = home.agent(tenant, "agent-y", "bundle:export")
    store = store_of(call(home, agent, "GET", "/v1/pam/export").content)
    assert [m["content"] for m in store["memories"]] == ["Shared with the agent."]  # type: ignore[attr-defined]
