"""JSON-body routes take JSON only: a body sent with another ``Content-Type``, or none, is
refused with 415 before it is read (RFC 9110 §15.5.16), as a problem naming the type the
route takes, with ``Accept-Post`` / ``Accept-Patch`` (RFC 5789 §3.1); ``application/json``
and structured ``+json`` types (RFC 6839 §3.1) are taken. Bodies of other kinds (bundles,
PAM zips, provider exports) keep their own rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from memvault.server.bodies import is_json_media_type
from serverkit import BACKENDS, Home, app_for, auth, client, running, server_home

PROBLEM = "application/problem+json"
MEMORY = b'{"content": "Drinks green tea", "type": "preference"}'


@pytest.fixture(params=BACKENDS)
def home(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Home]:
    with server_home(tmp_path / "server", backend=request.param) as opened:
        yield opened


def json_body_operations(http: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every operation whose body the OpenAPI document says is JSON."""
    found = []
    for path, operations in http.get("/openapi.json").json()["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                found.append((method.upper(), path))
    return found


def assert_415(response: httpx.Response, accept: str) -> dict[str, Any]:
    assert response.status_code == 415, response.text
    assert response.headers["content-type"] == PROBLEM
    assert response.headers[accept] == "application/json"
    body: dict[str, Any] = response.json()
    assert body["status"] == 415 and body["type"] == "urn:memvault:error:UnsupportedMediaType"
    assert "application/json" in body["detail"] and body["field"] == "content-type"
    return body


def test_a_memory_sent_as_text_plain_or_without_a_type_is_415_and_nothing_is_written(
    home: Home,
) -> None:
    http = client(app_for(home), home.key("alice"))
    plain = assert_415(
        http.post("/v1/memories", content=MEMORY, headers={"content-type": "text/plain"}),
        "Accept-Post",
    )
    assert "'text/plain'" in plain["detail"]
    none = assert_415(http.post("/v1/memories", content=MEMORY), "Accept-Post")
    assert "no Content-Type" in none["detail"]
    form = http.post("/v1/memories", data={"content": "x", "type": "fact"})
    assert_415(form, "Accept-Post")
    assert http.get("/v1/memories").json()["total"] == 0


def test_every_json_body_route_refuses_another_media_type_with_415(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    made = http.post("/v1/memories", content=MEMORY, headers={"content-type": "application/json"})
    memory_id = made.json()["memory"]["id"]
    operations = json_body_operations(http)
    # Every JSON-document route, and none of the routes that take files.
    assert {("POST", "/v1/memories"), ("PATCH", "/v1/memories/{memory_id}")} <= set(operations)
    assert {("POST", "/v1/session"), ("POST", "/v1/erase"), ("POST", "/v1/pam/export")} <= set(
        operations
    )
    assert not {("POST", "/v1/brain/import"), ("POST", "/v1/pam/import")} & set(operations)
    for method, path in operations:
        url = path.replace("{memory_id}", memory_id)
        sent = http.request(method, url, content=b"{}", headers={"content-type": "text/plain"})
        assert_415(sent, "Accept-Patch" if method == "PATCH" else "Accept-Post")
    assert http.get(f"/v1/memories/{memory_id}").json()["status"] == "active"
    assert http.get("/v1/memories").json()["total"] == 1


def test_json_and_plus_json_media_types_are_taken(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    for n, media in enumerate(
        ("application/json", "application/json; charset=utf-8", "Application/JSON")
    ):
        body = b'{"content": "Fact %d", "type": "fact"}' % n
        made = http.post("/v1/memories", content=body, headers={"content-type": media})
        assert made.status_code == 201, (media, made.text)
    memory_id = made.json()["memory"]["id"]
    patched = http.patch(
        f"/v1/memories/{memory_id}",
        content=b'{"tags": ["x"]}',
        headers={"content-type": "application/merge-patch+json"},
    )
    assert patched.status_code == 200, patched.text


def test_is_json_media_type_reads_the_essence_of_the_header() -> None:
    assert is_json_media_type("application/json")
    assert is_json_media_type("application/problem+json; charset=utf-8")
    assert is_json_media_type(" APPLICATION/JSON ")
    for other in (None, "", "text/plain", "json", "application/jsonx", "text/json5", "+json"):
        assert not is_json_media_type(other), other


def test_the_openapi_document_lists_415_for_json_body_routes(home: Home) -> None:
    http = client(app_for(home), home.key("alice"))
    document = http.get("/openapi.json").json()
    for method, path in json_body_operations(http):
        responses = document["paths"][path][method.lower()]["responses"]
        assert "415" in responses and PROBLEM in responses["415"]["content"], (method, path)


def test_a_real_server_answers_415_before_reading_the_body(tmp_path: Path) -> None:
    csv = {"content-type": "text/csv"}
    with (
        server_home(tmp_path / "server") as home,
        running(app_for(home)) as url,
        httpx.Client(base_url=url, headers=auth(home.key("alice"))) as http,
    ):
        assert_415(http.post("/v1/memories", content=MEMORY, headers=csv), "Accept-Post")
        # Authentication still comes first: a bad key is 401 whatever the body.
        anonymous = {**csv, "Authorization": "Bearer nope"}
        assert http.post("/v1/memories", content=MEMORY, headers=anonymous).status_code == 401
        json_type = {"content-type": "application/json"}
        assert http.post("/v1/memories", content=MEMORY, headers=json_type).status_code == 201
