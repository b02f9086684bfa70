"""The server's frame (issue #18): route discovery, RFC 7807 problems for every status it
produces, limited streamed bodies, the TLS rule (PAM §21.1), and a real uvicorn server."""

from __future__ import annotations

import json
import ssl
from collections.abc import Iterator
from html import escape
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from memvault.errors import InvalidInput
from memvault.server.app import create_app, route_modules
from memvault.server.bodies import JSON_DOCUMENT_LIMIT
from memvault.server.config import ServerConfig, is_loopback
from serverkit import (
    BACKENDS,
    Home,
    app_for,
    auth,
    client,
    free_port,
    running,
    server_home,
)

PROBLEM = "application/problem+json"


@pytest.fixture(params=BACKENDS)
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Home]:
    with server_home(tmp_path / "server", backend=request.param) as opened:
        yield opened


def assert_problem(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body: dict = response.json()
    assert body["status"] == status
    assert {"type", "title", "status", "detail"} <= set(body)
    assert "Traceback" not in response.text
    return body


def new_memory(http: TestClient, content: str = "Prefers tea") -> str:
    response = http.post("/v1/memories", json={"content": content, "type": "preference"})
    assert response.status_code == 201, response.text
    memory_id: str = response.json()["memory"]["id"]
    return memory_id


# -- the application ------------------------------------------------------------------------


def test_every_route_module_with_a_router_is_included(home: Home) -> None:
    paths = set(client(app_for(home)).get("/openapi.json").json()["paths"])
    for name, router in route_modules():
        for route in router.routes:
            assert route.path in paths, f"{name}: {route.path}"  # type: ignore[attr-defined]
    assert {"memories", "recall", "conversations", "stats", "audit", "tenant"} <= {
        name for name, _ in route_modules()
    }


def test_openapi_document_declares_bearer_auth_and_the_routes(home: Home) -> None:
    http = client(app_for(home))
    document = http.get("/openapi.json").json()
    assert "/v1/memories" in document["paths"] and "/v1/recall" in document["paths"]
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    create = document["paths"]["/v1/memories"]["post"]
    assert "content" in create["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert http.get("/docs").status_code == 200


# -- every status as a problem --------------------------------------------------------------


def test_no_token_is_401_with_a_bearer_challenge(home: Home) -> None:
    http = client(app_for(home))
    body = assert_problem(http.get("/v1/memories"), 401)
    assert "Bearer" in body["detail"]
    assert http.get("/v1/memories").headers["www-authenticate"] == "Bearer"
    assert_problem(http.get("/v1/memories", headers=auth("not-a-key")), 401)


def test_a_token_without_the_scope_is_403(home: Home) -> None:
    reader = client(app_for(home), home.scoped("alice", "memories:read"))
    body = assert_problem(reader.post("/v1/memories", json={"content": "x", "type": "fact"}), 403)
    assert "memories:write" in body["detail"]
    assert_problem(reader.delete("/v1/tenant"), 403)
    assert_problem(reader.get("/v1/audit"), 403)


def test_unknown_memory_and_unknown_route_are_404(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    body = assert_problem(http.get("/v1/memories/0b1e4a5c-no-such"), 404)
    assert body["type"] == "urn:memvault:error:NotFound"
    assert_problem(http.get("/v1/nowhere"), 404)
    assert_problem(http.put("/v1/memories"), 405)


def test_a_refused_transition_is_409_naming_the_rule_pam_7_1(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    memory_id = new_memory(http)
    assert http.post(f"/v1/memories/{memory_id}/archive").status_code == 200
    body = assert_problem(http.post(f"/v1/memories/{memory_id}/deprecate"), 409)
    assert "PAM §7.1" in body["detail"]


def test_new_content_equal_to_another_memory_is_409_naming_the_field(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    new_memory(http, "first")
    second = new_memory(http, "second")
    body = assert_problem(http.patch(f"/v1/memories/{second}", json={"content": "first"}), 409)
    assert body["field"] == "content" and "PAM §6" in body["detail"]


def test_a_body_over_the_limit_is_413_declared_or_streamed(home: Home) -> None:
    http = client(app_for(home, max_body=1000), home.key("alice"))
    big = json.dumps({"content": "x" * 2000, "type": "fact"})
    body = assert_problem(
        http.post("/v1/memories", content=big, headers={"content-type": "application/json"}),
        413,
    )
    assert "1000 bytes" in body["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(20):
            yield b" " * 100

    json_type = {"content-type": "application/json"}
    assert_problem(http.post("/v1/memories", content=chunks(), headers=json_type), 413)
    assert http.get("/v1/memories").json()["total"] == 0


def test_a_json_document_has_its_own_limit_below_the_body_limit(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    big = b'{"content": "' + b"x" * JSON_DOCUMENT_LIMIT + b'", "type": "fact"}'
    headers = {"content-type": "application/json"}
    body = assert_problem(http.post("/v1/memories", content=big, headers=headers), 413)
    assert str(JSON_DOCUMENT_LIMIT) in body["detail"]


def test_malformed_json_is_422_naming_the_place(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    headers = {"content-type": "application/json"}
    body = assert_problem(http.post("/v1/memories", content=b'{"content": ', headers=headers), 422)
    assert "request body" in body["detail"]
    dup = b'{"content": "a", "content": "b", "type": "fact"}'
    assert (
        "duplicate"
        in assert_problem(http.post("/v1/memories", content=dup, headers=headers), 422)["detail"]
    )
    assert_problem(http.post("/v1/memories", content=b"", headers=headers), 422)


def test_json_nested_past_the_limit_is_422_rfc_8259_9(home: Home) -> None:
    http = client(app_for(home, max_depth=5), home.key("alice"))
    deep = {"content": "x", "type": "fact", "metadata": {"a": {"b": {"c": {"d": {"e": 1}}}}}}
    body = assert_problem(http.post("/v1/memories", json=deep), 422)
    assert "nesting" in body["detail"] and "RFC 8259 §9" in body["detail"]
    assert http.get("/v1/memories").json()["total"] == 0


def test_wrong_types_are_422_never_coerced(home: Home) -> None:
    """`"exportable": "false"` is not false (the AIMEM reference server stores it as true)."""
    http = client(app_for(home), home.key("alice"))
    wrong = {"content": "x", "type": "fact", "exportable": "false"}
    body = assert_problem(http.post("/v1/memories", json=wrong), 422)
    assert body["field"] == "exportable"
    assert_problem(http.post("/v1/memories", json={"content": "x", "type": "nonsense"}), 422)
    assert_problem(http.post("/v1/memories", json={"content": "x", "type": "fact", "z": 1}), 422)
    assert_problem(http.post("/v1/memories", json=["not", "an", "object"]), 422)
    assert_problem(http.get("/v1/memories", params={"limit": "many"}), 422)
    assert assert_problem(http.get("/v1/memories", params={"since": "soon"}), 422)["field"] == (
        "since"
    )
    assert_problem(http.get("/v1/recall", params={"q": "x", "since": "soon"}), 422)
    assert http.get("/v1/memories").json()["total"] == 0


def test_an_unexpected_error_is_a_500_problem_without_the_traceback(home: Home) -> None:
    app = app_for(home)

    def broken() -> None:
        raise RuntimeError("internal detail that must not leak")

    app.add_api_route("/v1/broken", broken)
    response = client(app).get("/v1/broken")
    body = assert_problem(response, 500)
    assert "internal detail" not in response.text and "RuntimeError" not in response.text
    assert body["type"] == "about:blank"


# -- the TLS rule (PAM §21.1) -----------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"])
def test_loopback_addresses_need_no_tls(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.org"])
def test_a_network_address_without_tls_is_refused_pam_21_1(home: Home, host: str) -> None:
    with pytest.raises(InvalidInput, match=r"PAM §21\.1") as refused:
        ServerConfig(home.tenants, host=host)
    assert refused.value.exit_code == 2
    assert ServerConfig(home.tenants, host=host, behind_tls_proxy=True).url.startswith("http:")


def test_a_network_address_with_certificate_and_key_is_served_over_https(
    home: Home, tmp_path: Path
) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("cert")
    key.write_text("key")
    config = ServerConfig(home.tenants, host="0.0.0.0", tls_cert=cert, tls_key=key)
    assert config.url == "https://0.0.0.0:8765"
    assert config.uvicorn_options()["ssl_certfile"] == str(cert)
    with pytest.raises(InvalidInput, match="--tls-key is missing"):
        ServerConfig(home.tenants, host="0.0.0.0", tls_cert=cert)
    with pytest.raises(InvalidInput, match="no such file"):
        ServerConfig(home.tenants, host="0.0.0.0", tls_cert=cert, tls_key=tmp_path / "nope")


# -- a real server ----------------------------------------------------------------------------


def test_a_real_uvicorn_server_answers_on_loopback(home: Home) -> None:
    app = create_app(ServerConfig(home.tenants))
    with running(app) as url, httpx.Client(base_url=url, headers=auth(home.key("alice"))) as http:
        made = http.post("/v1/memories", json={"content": "Runs marathons", "type": "fact"})
        assert made.status_code == 201
        found = http.get("/v1/recall", params={"q": "marathon"}).json()
        assert found["results"][0]["id"] == made.json()["memory"]["id"]
        assert_problem(http.get("/v1/memories", headers={"Authorization": ""}), 401)
        assert_problem(http.post("/v1/memories", content=b"{", headers={"content-type": "x"}), 415)
        json_type = {"content-type": "application/json"}
        assert_problem(http.post("/v1/memories", content=b"{", headers=json_type), 422)


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate and key for 127.0.0.1, made now."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert, key_file = directory / "cert.pem", directory / "key.pem"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, key_file


def test_with_a_certificate_the_server_speaks_only_tls_pam_21_1(home: Home, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    config = ServerConfig(home.tenants, tls_cert=cert, tls_key=key, port=free_port())
    options = config.uvicorn_options()
    with running(create_app(config), **options) as url:
        assert url.startswith("https://")
        trust = ssl.create_default_context(cafile=str(cert))
        with httpx.Client(base_url=url, verify=trust, headers=auth(home.key("alice"))) as http:
            assert http.get("/v1/memories").json()["total"] == 0
        with pytest.raises(httpx.TransportError):  # plain HTTP gets no answer
            httpx.get(url.replace("https://", "http://") + "/v1/memories", timeout=5)


def test_the_api_pages_at_docs_load_nothing_from_another_site(home: Home) -> None:
    """`/docs` (printed by `memvault serve`) was FastAPI's Swagger UI, fetched from a CDN: a
    blank page offline, and a third party's script running on the vault's own origin, next
    to the browser's session. It is one self-contained page made from the OpenAPI document:
    every route with its parameters, body and answers; no script; a policy allowing nothing
    else."""
    http = client(app_for(home))
    page = http.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    html = page.text
    assert "<script" not in html and "cdn." not in html and "https://" not in html
    document = http.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert f"{method.upper()} {path}" in html, (method, path)
            assert escape(operation["summary"]) in html, operation["summary"]
    assert "min_confidence" in html and "Authorization: Bearer" in html
    assert http.get("/redoc").status_code == 404
