"""The server side of the web UI: signing a browser in (a session cookie, as Jupyter does),
CSRF protection of cookie-authenticated changes, the page and its assets, and the endpoints
the UI reads (meta, timeline, graph, a conversation's memories, provider upload, erase)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from memvault.model import TRANSITIONS
from memvault.server.app import create_app
from memvault.server.config import ServerConfig
from memvault.server.routes.web import STATIC
from memvault.server.websession import COOKIE, CSRF_HEADER
from memvault.tenancy import Tenants
from providergen import claude, write_zip
from vaultkit import PASSPHRASE, make_vault
from webkit import chatgpt_export


@pytest.fixture
def personal(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    home = tmp_path / "vault"
    make_vault(home).close()
    with Tenants.personal(home, PASSPHRASE) as tenants:
        app = create_app(ServerConfig(tenants))
        with TestClient(app, base_url="http://127.0.0.1:8765") as client:
            yield client, tenants.local_token()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def signed_in(client: TestClient, token: str) -> str:
    """Sign in with `/?token=`; the CSRF token of the session."""
    answer = client.get("/", params={"token": token}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    session = client.get("/v1/session")
    assert session.status_code == 200
    csrf: str = session.json()["csrf"]
    return csrf


def test_token_in_the_address_sets_an_httponly_samesite_strict_cookie_and_redirects(
    personal: tuple[TestClient, str],
) -> None:
    client, token = personal
    answer = client.get("/", params={"token": token}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and token not in cookie
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert client.get("/v1/memories").status_code == 200


def test_a_wrong_token_in_the_address_signs_nobody_in(personal: tuple[TestClient, str]) -> None:
    client, _token = personal
    answer = client.get("/", params={"token": "nope"}, follow_redirects=False)
    assert answer.status_code == 303 and "failed" in answer.headers["location"]
    assert "set-cookie" not in answer.headers
    assert client.get("/v1/memories").status_code == 401


def test_the_sign_in_form_takes_json_only(personal: tuple[TestClient, str]) -> None:
    client, token = personal
    form = client.post("/v1/session", data={"token": token})
    assert form.status_code == 415 and COOKIE not in client.cookies
    made = client.post("/v1/session", json={"token": token})
    assert made.status_code == 200 and made.json()["csrf"]
    assert client.get("/v1/session").json()["identity"] == "owner"


def test_a_cookie_change_without_the_csrf_header_is_refused(
    personal: tuple[TestClient, str],
) -> None:
    client, token = personal
    csrf = signed_in(client, token)
    body = {"content": "Likes tea", "type": "preference"}
    refused = client.post("/v1/memories", json=body)
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    assert CSRF_HEADER in refused.json()["detail"]
    wrong = client.post("/v1/memories", json=body, headers={CSRF_HEADER: "x" + csrf})
    assert wrong.status_code == 403
    assert client.get("/v1/memories").json()["total"] == 0
    made = client.post("/v1/memories", json=body, headers={CSRF_HEADER: csrf})
    assert made.status_code == 201


def test_a_bearer_token_needs_no_csrf_header(personal: tuple[TestClient, str]) -> None:
    client, token = personal
    body = {"content": "Likes tea", "type": "preference"}
    assert client.post("/v1/memories", json=body, headers=bearer(token)).status_code == 201
    assert client.get("/v1/session", headers=bearer(token)).json()["csrf"] is None


def test_signing_out_ends_the_session(personal: tuple[TestClient, str]) -> None:
    client, token = personal
    csrf = signed_in(client, token)
    assert client.delete("/v1/session", headers={CSRF_HEADER: csrf}).status_code == 200
    client.cookies.clear()
    assert client.get("/v1/memories").status_code == 401


def test_the_page_forbids_other_origins_and_assets_stay_inside(
    personal: tuple[TestClient, str],
) -> None:
    client, _token = personal
    page = client.get("/")
    assert page.status_code == 200 and "<title>memvault</title>" in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "http" not in page.text.replace('name="viewport"', "")  # no CDN
    script = next(p.name for p in (STATIC / "assets").glob("index-*.js"))
    assert client.get(f"/assets/{script}").headers["content-type"].startswith("text/javascript")
    assert client.get("/assets/axe.min.js").status_code == 200
    assert client.get("/assets/../index.html").status_code == 404
    assert client.get("/assets/%2e%2e/%2e%2e/web.py").status_code == 404


def test_meta_offers_only_the_pam_7_1_transitions(personal: tuple[TestClient, str]) -> None:
    client, token = personal
    meta = client.get("/v1/meta", headers=bearer(token)).json()
    assert meta["transitions"] == {k: list(v) for k, v in TRANSITIONS.items()}
    assert meta["transitions"]["retracted"] == []


def test_provider_upload_imports_a_chatgpt_export_and_feeds_the_overviews(
    personal: tuple[TestClient, str], tmp_path: Path
) -> None:
    client, token = personal
    export = chatgpt_export(tmp_path / "chatgpt.zip")
    done = client.post(
        "/v1/import",
        content=export.read_bytes(),
        params={"filename": "x.zip"},
        headers=bearer(token),
    )
    assert done.status_code == 200, done.text
    part = done.json()["parts"][0]
    assert part["conversations"]["new"] == 6 and part["memories"]["new"] > 0
    memories = client.get("/v1/memories", params={"limit": 1000}, headers=bearer(token)).json()
    timeline = client.get("/v1/timeline", headers=bearer(token)).json()
    assert timeline["total"] == memories["total"]
    assert sum(sum(v) for v in timeline["by_type"].values()) == memories["total"]
    first, second = memories["memories"][:2]
    client.post(
        f"/v1/memories/{first['id']}/relations",
        json={"to": second["id"], "type": "supports"},
        headers=bearer(token),
    )
    graph = client.get("/v1/graph", headers=bearer(token)).json()
    assert graph["edges"] == [
        {"id": graph["edges"][0]["id"], "from": first["id"], "to": second["id"], "type": "supports"}
    ]
    assert {n["id"] for n in graph["nodes"]} == {first["id"], second["id"]}
    conversation = first["provenance"]["conversation_ref"]
    derived = client.get(f"/v1/conversations/{conversation}/memories", headers=bearer(token))
    assert first["id"] in {m["id"] for m in derived.json()["memories"]}


def test_an_upload_no_importer_recognizes_is_refused_and_imports_nothing(
    personal: tuple[TestClient, str],
) -> None:
    client, token = personal
    refused = client.post("/v1/import", content=b'{"hello": 1}', headers=bearer(token))
    assert refused.status_code == 422
    assert "not a provider export" in refused.json()["detail"]
    assert client.get("/v1/conversations", headers=bearer(token)).json()["total"] == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"PK\x03\x04truncated", 400),
        (b'[{"id": "x", "mapping": 5}]', 422),
    ],
    ids=["truncated-zip", "malformed-chatgpt-conversations"],
)
def test_a_refused_upload_names_the_uploaded_file_not_a_server_path(
    personal: tuple[TestClient, str], body: bytes, status: int
) -> None:
    """A damaged upload is refused naming the file the user chose (`filename`) and what is
    wrong, never the temporary file the server spooled the body to; nothing is imported."""
    client, token = personal
    params = {"filename": "my-export.zip"}
    refused = client.post("/v1/import", content=body, params=params, headers=bearer(token))
    assert refused.status_code == status, refused.text
    detail = refused.json()["detail"]
    assert detail.startswith("my-export.zip"), detail
    assert "/tmp" not in refused.text and "memvault-upload-" not in refused.text
    assert client.get("/v1/conversations", headers=bearer(token)).json()["total"] == 0


def test_an_upload_s_warnings_name_the_uploaded_file(
    personal: tuple[TestClient, str], tmp_path: Path
) -> None:
    """The warnings of an accepted upload (here a Claude project memory that is empty) name
    the uploaded file, not the server's temporary copy."""
    client, token = personal
    export = write_zip(claude.encode(claude.export()), tmp_path / "claude.zip")
    done = client.post(
        "/v1/import",
        content=export.read_bytes(),
        params={"filename": "claude.zip"},
        headers=bearer(token),
    )
    assert done.status_code == 200, done.text
    warnings = done.json()["parts"][0]["warnings"]
    assert warnings and all(w.startswith("claude.zip") for w in warnings), warnings


def test_erase_everything_needs_the_words_and_then_erases_aimem_5_2(
    personal: tuple[TestClient, str],
) -> None:
    client, token = personal
    client.post("/v1/memories", json={"content": "x", "type": "fact"}, headers=bearer(token))
    wrong = client.post("/v1/erase", json={"confirm": "yes"}, headers=bearer(token))
    assert wrong.status_code == 422 and "erase everything" in wrong.json()["detail"]
    assert client.get("/v1/memories", headers=bearer(token)).json()["total"] == 1
    done = client.post("/v1/erase", json={"confirm": "erase everything"}, headers=bearer(token))
    assert done.status_code == 200 and done.json()["erased"]["memories"] == 1
    assert client.get("/v1/memories", headers=bearer(token)).json()["total"] == 0


def test_list_filters_by_creation_date_range(personal: tuple[TestClient, str]) -> None:
    client, token = personal
    client.post("/v1/memories", json={"content": "x", "type": "fact"}, headers=bearer(token))
    listed = client.get("/v1/memories", params={"until": "2000-01-01"}, headers=bearer(token))
    assert listed.json()["total"] == 0
    later = client.get("/v1/memories", params={"until": "2999-01-01"}, headers=bearer(token))
    assert later.json()["total"] == 1
    bad = client.get("/v1/memories", params={"until": "soon"}, headers=bearer(token))
    assert bad.status_code == 422


def test_the_timeline_lists_every_month_between_the_first_and_the_last() -> None:
    """A chart's month axis reads as continuous time: months without memories between the
    first and the last are listed with zero counts (2024-05 is not drawn next to 2024-08)."""
    from memvault.overview import _calendar

    assert _calendar({"2024-05", "2024-08", "unknown"}) == [
        "2024-05",
        "2024-06",
        "2024-07",
        "2024-08",
        "unknown",
    ]
    assert _calendar({"2024-12", "2025-01"}) == ["2024-12", "2025-01"]
    assert _calendar({"unknown"}) == ["unknown"]
    # A stray date far away keeps the axis to the months that have memories.
    assert _calendar({"0001-01", "2025-01"}) == ["0001-01", "2025-01"]
