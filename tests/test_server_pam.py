"""PAM v1.0 over HTTP: ``GET /v1/pam/export`` (a zip, full or incremental, PAM §15-§16) and
``POST /v1/pam/import`` (one transaction, invalid input refused with its findings)."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime, timedelta

import httpx
import orjson
import pytest

from memvault.store.base import MemoryQuery
from serverkit import Home, app_for, auth, client, home_on_each_backend

home = home_on_each_backend()


def contents(home: Home, tenant: str) -> set[str]:
    return {m.content for m in home.vault(tenant).iter_memories(MemoryQuery(limit=None))}


def call(
    home: Home, key: str, method: str, url: str, body: bytes = b"", media: str | None = None
) -> httpx.Response:
    headers = {} if media is None else {"content-type": media}
    with client(app_for(home), key) as http:
        return http.request(method, url, content=body or None, headers=headers)


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


@pytest.mark.parametrize(
    "body",
    [b"PK\x03\x04truncated", b"", b"[1, 2]", b'{"format": "aimem-bundle", "version": "1"}'],
    ids=["truncated-zip", "empty", "array", "aimem-bundle"],
)
def test_a_refused_pam_import_names_the_request_body_not_a_server_path(
    home: Home, body: bytes
) -> None:
    """The refusal of a bad body (a truncated zip, nothing, a JSON array, an AIMEM bundle)
    names the request body in its detail and findings, never the temporary file the server
    spooled it to."""
    tenant, key = home.fresh()
    response = call(home, key, "POST", "/v1/pam/import", body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert "/tmp" not in response.text and "memvault-pam-" not in response.text, problem
    assert problem["detail"].startswith("request body was not imported"), problem
    assert {f["file"] for f in problem["findings"]} <= {"request body", None}, problem
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


def post_export(home: Home, key: str, body: object) -> httpx.Response:
    return call(home, key, "POST", "/v1/pam/export", orjson.dumps(body), "application/json")


def test_pam_18_export_signed_with_the_vault_key_verifies(home: Home) -> None:
    """`sign=true` (GET or POST) signs memory-store.json with the vault's key (PAM §18): the
    library verifies it against that key; without a key to sign with, 404 and nothing is
    exported; an agent's token may not sign with the owner's key (403)."""
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import verify_document

    tenant, key = home.fresh()
    vault = home.vault(tenant)
    vault.add("Signed and sealed.", "fact")
    assert call(home, key, "GET", "/v1/pam/export?sign=true").status_code == 404
    signing = SigningKey.new("Ed25519")
    vault.add_key(signing.to_record(), owner_did=True)
    for response in (
        call(home, key, "GET", "/v1/pam/export?sign=true"),
        post_export(home, key, {"sign": True}),
    ):
        assert response.status_code == 200, response.text
        assert response.headers["PAM-Signed"] == "true"
        verdict = verify_document(store_of(response.content), expected_key=signing.public_key)
        assert verdict.ok, verdict.reason
    unsigned = call(home, key, "GET", "/v1/pam/export")
    assert unsigned.headers["PAM-Signed"] == "false"
    assert store_of(unsigned.content).get("signature") is None
    agent = home.agent(tenant, "agent-y", "bundle:export")
    assert call(home, agent, "GET", "/v1/pam/export?sign=true").status_code == 403


def test_pam_21_1_export_encrypted_to_a_passphrase_or_recipient_decrypts(home: Home) -> None:
    """POST /v1/pam/export with `encrypt` answers the zip encrypted with age (PAM §21.1): a
    passphrase or an X25519 recipient, given in the body; the library decrypts it to the
    export, signed as well when asked."""
    from memvault.crypto.agefile import decrypt, generate_identity, is_age
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import verify_document

    tenant, key = home.fresh()
    vault = home.vault(tenant)
    vault.add("Kept under lock.", "fact")
    vault.add_key(SigningKey.new("Ed25519").to_record())
    sealed = post_export(home, key, {"sign": True, "encrypt": {"passphrase": "open sesame"}})
    assert sealed.status_code == 200, sealed.text
    assert sealed.headers["content-type"] == "application/age"
    assert sealed.headers["content-disposition"].endswith('.zip.age"')
    assert is_age(sealed.content[:64])
    store = store_of(decrypt(sealed.content, passphrase="open sesame"))
    assert [m["content"] for m in store["memories"]] == ["Kept under lock."]  # type: ignore[attr-defined]
    assert verify_document(store).ok
    identity, recipient = generate_identity()
    to_recipient = post_export(home, key, {"encrypt": {"recipients": [recipient]}})
    assert to_recipient.status_code == 200, to_recipient.text
    plain = store_of(decrypt(to_recipient.content, identities=[identity]))
    assert plain.get("signature") is None and len(plain["memories"]) == 1  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"encrypt": {"passphrase": "x", "recipients": ["age1x"]}}, "recipients"),
        ({"encrypt": {}}, "encrypt"),
        ({"encrypt": {"passphrase": ""}}, "passphrase"),
        ({"encrypt": {"recipients": ["not-a-recipient"]}}, "recipient"),
        ({"key": "ed25519"}, "key"),
        ({"sign": "yes"}, "sign"),
        ({"unknown": 1}, "unknown"),
    ],
)
def test_pam_export_refuses_a_bad_protection_request_with_422(
    home: Home, body: dict[str, object], field: str
) -> None:
    """A protection request that cannot be honoured is 422 problem+json naming the field;
    nothing is exported (the export registry is unchanged)."""
    tenant, key = home.fresh()
    home.vault(tenant).add("Nothing leaves.", "fact")
    response = post_export(home, key, body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert field in response.text
    assert home.vault(tenant).exports() == []
