"""The web UI's relation graph, through a real `memvault serve` and Debian's Chromium. On a
phone (390 px) its labels were drawn at 800 px scale shrunk to the screen (11 px became 5)
and ran over each other: the picture is now laid out at the screen's own scale, only labels
that overlap nothing are shown (the best-connected memories first), a tap shows a memory and
its relations and a second tap opens it, and the relations are listed below, open. On a wide
screen no two labels overlap either, and a click still opens the memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from webkit import Served, Watched, chromium, serving, view

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MEMORIES = [
    ("User prefers concise answers with code examples in Python.", "preference"),
    ("User prefers detailed answers when learning a new topic.", "preference"),
    ("User's name is Marta and she lives in Porto.", "identity"),
    ("O usuário trabalha como engenheira de dados em São Paulo.", "fact"),
    ("User prefers dark mode in every editor.", "preference"),
    ("Answer briefly, use metric units, and show code in Python.", "preference"),
    ("O usuário mora no Porto com o cachorro Bento.", "fact"),
    ("I am a data engineer in Porto. I speak Portuguese and English.", "identity"),
    ("User runs on Sunday mornings along the river.", "fact"),
    ("User is learning Rust for a side project about maps.", "fact"),
    ("User's sister is a nurse in Lisbon.", "fact"),
    ("User drinks green tea, never coffee after noon.", "preference"),
]
KINDS = ["related_to", "supports", "extends", "contradicts"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("graph") / "vault") as s:
        auth = {"Authorization": f"Bearer {s.token}"}
        with httpx.Client(base_url=s.url, headers=auth) as client:
            ids = []
            for content, kind in MEMORIES:
                made = client.post("/v1/memories", json={"content": content, "type": kind})
                made.raise_for_status()
                ids.append(made.json()["memory"]["id"])
            # A tree (each memory related to an earlier one) and two more: a hub or two.
            pairs = [(i, (i - 1) // 2) for i in range(1, len(ids))] + [(11, 1), (9, 1)]
            for n, (a, b) in enumerate(pairs):
                client.post(
                    f"/v1/memories/{ids[a]}/relations",
                    json={"to": ids[b], "type": KINDS[n % len(KINDS)]},
                ).raise_for_status()
        yield s


def signed_in(browser: Browser, served: Served, viewport: dict[str, int], **options: Any) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    watched = Watched(context.new_page())
    watched.page.goto(served.sign_in_url)
    watched.page.wait_for_selector("h1#view-title")
    view(watched.page, served, "graph")
    watched.page.wait_for_selector("svg.graph a.node")
    return context, watched


@pytest.fixture
def phone(browser: Browser, served: Served) -> Iterator[Page]:
    context, watched = signed_in(
        browser, served, PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    yield watched.page
    context.close()
    watched.assert_clean()


@pytest.fixture
def desktop(browser: Browser, served: Served) -> Iterator[Page]:
    context, watched = signed_in(browser, served, DESKTOP)
    yield watched.page
    context.close()
    watched.assert_clean()


LABELS = """() => {
  const svg = document.querySelector('svg.graph');
  const frame = svg.getBoundingClientRect();
  const shown = [...svg.querySelectorAll('text')]
    .filter((t) => getComputedStyle(t).display !== 'none');
  const scale = frame.width / svg.viewBox.baseVal.width;
  return {
    frame: {left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom},
    scale,
    total: svg.querySelectorAll('text').length,
    labels: shown.map((t) => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              px: parseFloat(getComputedStyle(t).fontSize) * scale};
    }),
  };
}"""


def overlapping(labels: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            if (
                a["left"] < b["right"]
                and b["left"] < a["right"]
                and a["top"] < b["bottom"]
                and b["top"] < a["bottom"]
            ):
                found.append((a["text"], b["text"]))
    return found


def check_labels(page: Page, *, smallest_px: float) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(LABELS)
    labels = seen["labels"]
    assert labels, "no label shown"
    assert overlapping(labels) == [], overlapping(labels)
    frame = seen["frame"]
    for label in labels:
        assert label["px"] >= smallest_px, label
        assert frame["left"] <= label["left"] and label["right"] <= frame["right"] + 0.5, label
    return seen


def test_the_graph_on_a_phone_has_readable_labels_that_do_not_overlap(
    phone: Page, tmp_path: Path
) -> None:
    seen = check_labels(phone, smallest_px=12)
    # Drawn at the screen's own scale, not 800 px squeezed into 370.
    assert seen["scale"] > 0.95, seen["scale"]
    assert seen["total"] == len(MEMORIES)
    assert len(seen["labels"]) >= len(MEMORIES) // 3, seen["labels"]
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    phone.screenshot(path=str(tmp_path / "phone-graph.png"), full_page=True)


def test_a_tap_shows_a_memory_of_the_graph_and_a_second_tap_opens_it(
    phone: Page, served: Served, tmp_path: Path
) -> None:
    hub = MEMORIES[1][0]  # five relations: to 0, from 3, 4, 9 and 11
    node = phone.locator("svg.graph a.node", has=phone.locator(f"text:text-is('{hub[:21]}…')"))
    expect(node).to_have_count(1)
    top = phone.locator("svg.graph").bounding_box()
    node.locator("circle").tap()
    focus = phone.locator("#graph-focus")
    expect(focus).to_contain_text(hub)
    expect(focus.locator("li")).to_have_count(5)
    expect(focus.locator("li").first).to_contain_text("→")
    assert phone.url.endswith("#/graph")  # shown, not opened
    # What it shows never moves the picture under the finger that taps again.
    assert phone.locator("svg.graph").bounding_box() == top
    expect(node.locator("text")).to_be_visible()
    phone.screenshot(path=str(tmp_path / "phone-graph-tapped.png"))
    # A memory whose label is hidden shows it when tapped.
    hidden = phone.locator("svg.graph text.quiet")
    assert hidden.count(), "every label fits: nothing to show on a tap"
    which = hidden.first.get_attribute("data-node")
    quiet = phone.locator(f"svg.graph a.node:has(text[data-node='{which}'])")
    expect(quiet.locator("text")).to_be_hidden()
    quiet.locator("circle").tap()
    expect(quiet.locator("text")).to_be_visible()
    node.locator("circle").tap()  # selects the hub again
    assert phone.url.endswith("#/graph")
    node.locator("circle").tap()  # and opens it
    phone.wait_for_selector("h2#h-facts")
    assert "#/memory/" in phone.url


def test_the_relations_are_listed_open_below_the_graph_on_a_phone(
    phone: Page, tmp_path: Path
) -> None:
    listing = phone.locator("details", has_text="The relations as a list")
    expect(listing).to_have_attribute("open", "")
    expect(listing.locator("tbody tr")).to_have_count(len(MEMORIES) + 1)
    wide: int = phone.evaluate(
        "(() => { const e = document.querySelector('main .table-wrap');"
        " return e.scrollWidth - e.clientWidth; })()"
    )
    assert wide <= 0, "the relations scroll sideways"
    row = listing.locator("tbody tr").first
    expect(row.locator("a")).to_have_count(2)
    listing.screenshot(path=str(tmp_path / "phone-relations.png"))


def test_the_graph_on_a_wide_screen_shows_every_label_it_can_without_overlap(
    desktop: Page, tmp_path: Path
) -> None:
    seen = check_labels(desktop, smallest_px=11)
    assert len(seen["labels"]) >= len(MEMORIES) // 2
    # A click opens the memory at once, as before (hover shows it).
    node = desktop.locator("svg.graph a.node").first
    node.hover()
    expect(desktop.locator("#graph-focus a").first).to_be_visible()
    desktop.screenshot(path=str(tmp_path / "desktop-graph.png"))
    node.locator("circle").click()
    desktop.wait_for_selector("h2#h-facts")
