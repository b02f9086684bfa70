"""The web UI's test machinery: a real `memvault serve` on a temporary personal vault, and
Debian's Chromium driven by Playwright, with every console error and failed request of a page
collected (a test fails on any). Run as a script, it writes the README's screenshots:
``python tests/webkit.py --screenshots docs/screenshots`` (`make screenshots`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Request, Response, sync_playwright

from memvault.vault import Vault
from serverkit import free_port
from vaultkit import FAST_KDF, PASSPHRASE, make_vault

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The axe-core rule sets checked: WCAG 2.x levels A and AA.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@dataclass
class Served:
    url: str
    token: str
    home: Path
    printed: list[str] = field(default_factory=list)

    @property
    def sign_in_url(self) -> str:
        return f"{self.url}/?token={self.token}"


@contextmanager
def serving(home: Path, *, existing: bool = False) -> Iterator[Served]:
    """`memvault serve` on a new personal vault in `home` (or the one there, `existing`),
    stopped with Ctrl-C after."""
    if not existing:
        make_vault(home).close()
    port = free_port()
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(home),
        "MEMVAULT_PASSPHRASE": PASSPHRASE,
        "MEMVAULT_KDF_ITER": FAST_KDF,
        "COLUMNS": "300",
    }
    env.pop("MEMVAULT_DATABASE_URL", None)
    env.pop("MEMVAULT_TENANT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "memvault", "serve", "--port", str(port), "--no-embed"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    served = Served(url, "", home)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"memvault serve stopped: {process.communicate()}")
            try:
                httpx.get(url + "/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise RuntimeError("memvault serve did not start") from None
                time.sleep(0.1)
        served.token = (home / "local-token").read_text().strip()
        yield served
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        served.printed.extend(out.splitlines())
        if "Traceback" in err:
            raise AssertionError(err)


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Watched:
    """A page whose console errors and failed requests are collected in `problems`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)
        page.on("dialog", lambda dialog: dialog.accept())

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    def _failed(self, request: Request) -> None:
        self.problems.append(f"request failed: {request.method} {request.url} {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status}: {response.request.method} {response.url}")

    def assert_clean(self) -> None:
        assert self.problems == [], self.problems


def view(page: Page, served: Served, hash_: str) -> None:
    """Open a view by its address and wait for its title."""
    page.goto(f"{served.url}/#/{hash_}")
    page.wait_for_function(
        "h => document.getElementById('main').dataset.shown === h", arg=f"#/{hash_}"
    )
    page.wait_for_load_state("networkidle")


def axe_violations(page: Page, served: Served) -> list[dict[str, Any]]:
    """axe-core's level A and AA violations of the page as it is (axe served by memvault)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=f"{served.url}/assets/axe.min.js")
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
    ]


def chatgpt_export(path: Path, *, seed: int = 7, count: int = 6) -> Path:
    """A generated ChatGPT export (tests/providergen), as the user downloads it."""
    from providergen import chatgpt, write_zip

    return write_zip(chatgpt.export(seed, count), path)


def upload_chatgpt(page: Page, served: Served, export: Path) -> None:
    """Upload `export` on the Move view and wait for the import's summary."""
    view(page, served, "move")
    page.get_by_label("What it is").select_option("provider")
    page.get_by_label("File").set_input_files(str(export))
    page.get_by_role("button", name="Upload and import").click()
    page.wait_for_selector("#import-summary", timeout=60_000)


VIEWS = {
    "memories": "memories",
    "memory": None,  # the first memory's page
    "conversation": None,  # a conversation's page
    "search": "search?q=python&kind=all",
    "conversations": "conversations",
    "graph": "graph",
    "time": "time",
    "review": "review",
    "audit": "audit",
    "move": "move",
    "erase": "erase",
}


def propose(vault: Vault) -> None:
    """Background extraction proposes a DNA-class change for review (AIMEM §5.1): "User
    prefers concise answers" would replace "User prefers detailed answers"."""
    from memvault.extract.evaluation import conversation_of
    from memvault.extract.pipeline import run

    said = [("c1", "I prefer detailed answers.", "2024-03-01T09:00:00Z"),
            ("c2", "I prefer concise answers.", "2025-06-01T09:00:00Z")]  # fmt: skip
    for conversation, text, at in said:
        vault.put_conversation(conversation_of(conversation, [("user", text, at)]))
    report = run(vault.background("extract"))
    assert [a.kind for a in report.plan.actions] == ["create", "propose"]


def with_proposal(home: Path) -> Path:
    """A new vault in `home` holding a proposal (`propose`)."""
    vault = make_vault(home)
    try:
        propose(vault)
    finally:
        vault.close()
    return home


#: The views shown whole in the screenshots (the others as a window shows them).
FULL_PAGE = {"memory", "time", "move"}


def seed_vault(served: Served, export: Path) -> None:
    """The vault of the screenshots: a ChatGPT export and a few relations between memories."""
    headers = {"Authorization": f"Bearer {served.token}"}
    with httpx.Client(base_url=served.url, headers=headers, timeout=120) as client:
        imported = client.post(
            "/v1/import", content=export.read_bytes(), params={"filename": export.name}
        )
        imported.raise_for_status()
        ids = [m["id"] for m in client.get("/v1/memories", params={"limit": 12}).json()["memories"]]
        kinds = ["related_to", "supports", "extends", "contradicts"]
        for i in range(1, len(ids)):
            client.post(
                f"/v1/memories/{ids[i]}/relations",
                json={"to": ids[(i - 1) // 2], "type": kinds[i % len(kinds)]},
            ).raise_for_status()


def screenshots(out: Path) -> None:
    """A PNG of each main view, at a laptop's width, and the memory list and the graph at a
    phone's."""
    import tempfile

    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving(with_proposal(Path(tmp) / "vault"), existing=True) as served,
    ):
        seed_vault(served, chatgpt_export(Path(tmp) / "chatgpt.zip", count=24))
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(served.sign_in_url)
            page.wait_for_selector("h1#view-title")
            for name, where in VIEWS.items():
                if where is None:
                    # A memory, then the conversation it came from.
                    if name == "memory":
                        view(page, served, "memories")
                        page.locator("table a").first.click()
                    else:
                        page.locator("dd a[href^='#/conversation/']").click()
                    page.wait_for_selector("h2#h-facts" if name == "memory" else "h2#h-thread")
                    page.wait_for_load_state("networkidle")
                else:
                    view(page, served, where)
                page.screenshot(path=str(out / f"{name}.png"), full_page=name in FULL_PAGE)
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(served.sign_in_url)
            phone.wait_for_selector("h1#view-title")
            view(phone, served, "memories")
            phone.screenshot(path=str(out / "phone.png"))
            view(phone, served, "graph")
            phone.screenshot(path=str(out / "phone-graph.png"))
    print(json.dumps(sorted(p.name for p in out.glob("*.png"))))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--screenshots":
        screenshots(Path(sys.argv[2]))
    else:
        sys.exit("usage: python tests/webkit.py --screenshots DIR")
