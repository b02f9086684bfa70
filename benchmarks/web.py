"""First paint of the web UI's memory list on a vault of 100,000 memories (issue #22).

```sh
.venv/bin/python benchmarks/web.py              # 100,000 memories
.venv/bin/python benchmarks/web.py --memories 5000
```

A personal vault gets `--memories` of storegen's memories (benchmarks/storegen.py), and the
real `memvault serve` serves it. Headless Chromium (Debian's, through Playwright) opens the
sign-in address and waits until the first page of the list is on screen; measured `--runs`
times, each in a fresh browser context (cold page, no cache). As a peer in the same run, the
list's own API request (`GET /v1/memories?limit=50`, the one the page makes) timed with httpx:
the ratio is what the page — sign-in redirect, script, styles, meta, render — adds to it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from memvault.store.codec import memory_from_json  # noqa: E402
from memvault.vault import Vault  # noqa: E402
from storegen import build_memories  # noqa: E402
from webkit import CHROMIUM, CHROMIUM_ARGS, serving  # noqa: E402


def fill(home: Path, n: int) -> None:
    from vaultkit import make_vault

    vault: Vault = make_vault(home)
    try:
        background = vault.background("import")
        documents = build_memories(n, 0)
        for start in range(0, n, 10_000):
            background.add_memories(memory_from_json(d) for d in documents[start : start + 10_000])
    finally:
        vault.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "vault"
        started = time.perf_counter()
        fill(home, args.memories)
        print(f"vault of {args.memories:,} memories made in {time.perf_counter() - started:.1f} s")
        with serving(home, existing=True) as served, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            paints: list[float] = []
            for _ in range(args.runs):
                context = browser.new_context()
                page = context.new_page()
                t0 = time.perf_counter()
                page.goto(served.sign_in_url)
                page.wait_for_selector("tbody tr")
                paints.append(time.perf_counter() - t0)
                total = page.locator("#range").inner_text()
                context.close()
            browser.close()
            headers = {"Authorization": f"Bearer {served.token}"}
            answers: list[float] = []
            with httpx.Client(base_url=served.url, headers=headers) as client:
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    client.get("/v1/memories", params={"limit": 50}).raise_for_status()
                    answers.append(time.perf_counter() - t0)
    page_ms = statistics.median(paints) * 1000
    api_ms = statistics.median(answers) * 1000
    print(f"list shows {total!r}")
    print(f"first paint of the memory list (median of {args.runs}): {page_ms:.0f} ms")
    print(f"peer, GET /v1/memories?limit=50 alone:            {api_ms:.0f} ms")
    print(f"ratio page / API request: {page_ms / api_ms:.1f}x")
    return 0 if page_ms < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
