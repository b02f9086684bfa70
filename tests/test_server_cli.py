"""`memvault serve` (issue #18): on a personal vault it serves that vault with its local
token and prints the URL and where the token is; with a server home it serves its tenants;
a network address without TLS is a usage error (PAM §21.1). The running tests start the real
command in a process and stop it with Ctrl-C (SIGINT)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from clikit import home, ok, refused  # noqa: F401 - `home` is a fixture
from memvault.tenancy import Tenants
from serverkit import SERVER_KEY, auth, free_port

MEMVAULT = [sys.executable, "-m", "memvault"]


@contextmanager
def serving(args: list[str], env: dict[str, str]) -> Iterator[tuple[str, list[str]]]:
    """`memvault serve ARGS` in a process; yields its base URL and the lines it printed."""
    port = free_port()
    process = subprocess.Popen(
        [*MEMVAULT, "serve", "--port", str(port), *args],
        env={**os.environ, **env, "COLUMNS": "200"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.communicate()
            try:
                httpx.get(url + "/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "memvault serve did not start"
                time.sleep(0.1)
        yield url, lines
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        lines.extend(out.splitlines())
        assert process.returncode == 0, (process.returncode, out, err)
        assert "Traceback" not in err, err


def test_serve_on_a_personal_vault_uses_its_local_token(home: Path) -> None:  # noqa: F811
    ok("init")
    ok("add", "Runs marathons", "--type", "fact")
    env = {"MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": os.environ["MEMVAULT_PASSPHRASE"]}
    with serving(["--print-token"], env) as (url, printed):
        token = (home / "local-token").read_text().strip()
        found = httpx.get(url + "/v1/recall", params={"q": "marathon"}, headers=auth(token))
        assert found.status_code == 200
        assert found.json()["results"][0]["text"] == "Runs marathons"
        assert httpx.get(url + "/v1/memories").status_code == 401
    text = "\n".join(printed)
    assert url in text and str(home / "local-token") in text and token in text


def test_serve_with_a_server_home_serves_its_tenants(tmp_path: Path) -> None:
    server_home = tmp_path / "server"
    with Tenants.open(server_home, SERVER_KEY) as tenants:
        _, alice = tenants.create("alice")
    env = {"MEMVAULT_SERVER_KEY": SERVER_KEY}
    with serving(["--server-home", str(server_home), "--no-embed"], env) as (url, printed):
        made = httpx.post(
            url + "/v1/memories", json={"content": "x", "type": "fact"}, headers=auth(alice)
        )
        assert made.status_code == 201
    assert any("tenants of" in line for line in printed)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20"])
def test_serve_on_a_network_address_without_tls_is_a_usage_error_pam_21_1(
    home: Path,  # noqa: F811
    host: str,
) -> None:
    ok("init")
    message = refused("serve", "--host", host, code=2)
    assert "PAM §21.1" in message and "--behind-tls-proxy" in message


def test_serve_with_half_of_the_tls_files_is_a_usage_error(home: Path, tmp_path: Path) -> None:  # noqa: F811
    ok("init")
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    assert "--tls-key is missing" in refused("serve", "--tls-cert", cert, code=2)


def test_serve_without_a_vault_says_how_to_make_one(home: Path) -> None:  # noqa: F811
    assert "memvault init" in refused("serve", code=1)


def test_serve_json_prints_where_it_serves_as_one_object(home: Path) -> None:  # noqa: F811
    """`serve --json`: the URL, the home and the token's file as one JSON object on stdout, for
    the program that started the server; the token itself only with --print-token."""
    import json

    ok("init")
    env = {"MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": os.environ["MEMVAULT_PASSPHRASE"]}
    with serving(["--json", "--no-embed"], env) as (url, printed):
        token = (home / "local-token").read_text().strip()
        assert httpx.get(url + "/v1/stats", headers=auth(token)).status_code == 200
    started = json.loads("\n".join(printed))
    assert started == {
        "url": url,
        "docs": url + "/docs",
        "tenants": "personal",
        "home": str(home),
        "token_path": str(home / "local-token"),
        "web": f"{url}/?token={token}",
    }


def test_serve_json_failure_is_a_json_error_body(tmp_path: Path) -> None:
    """A failure before the server serves (no vault in the home) is a JSON error body with
    --json, and the exit code says what kind."""
    import json

    done = subprocess.run(
        [*MEMVAULT, "serve", "--json", "--home", str(tmp_path / "none")],
        env={**os.environ, "MEMVAULT_PASSPHRASE": "x"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    body = json.loads(done.stdout)
    assert body["error"] and "Traceback" not in done.stderr


def test_serve_on_a_port_in_use_says_so_before_printing_an_address(home: Path) -> None:  # noqa: F811
    """A port another process listens on: one line naming the address, the cause and
    --port, exit 1 — not "serving on …" and a web UI address followed by uvicorn's own
    error and its exit status 3."""
    import socket

    ok("init")
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(home),
        "MEMVAULT_PASSPHRASE": os.environ["MEMVAULT_PASSPHRASE"],
    }
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*MEMVAULT, "serve", "--port", str(port), "--no-embed"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "serving on" not in done.stdout and "web UI" not in done.stdout, done.stdout
    assert f"127.0.0.1:{port}" in done.stderr and "already in use" in done.stderr
    assert "--port" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
