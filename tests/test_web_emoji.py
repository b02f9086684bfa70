"""Emoji in the web UI, through a real `memvault serve` and Debian's Chromium.

Emoji in conversation titles showed as boxes in headless Chromium: the test machine has no
colour emoji font (only DejaVu Sans, which covers a few blocks such as U+1F600 😀 but not
U+1F389 🎉 or U+1F680 🚀; `fc-list ':charset=1f389'` finds none). The UI sends the titles
whole, which these tests check on the text the page holds, not on pixels. What the UI did
mangle: it cut long texts (a search hit's message, a graph label, a proposal) by UTF-16
units, which can keep half of an emoji, a lone surrogate that shows as a box with any font;
it now cuts by characters as a reader counts them (`clip` in web/src/markdown.ts)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from memvault.conversation_merge import conversation_row
from vaultkit import make_vault, pam_conversation
from webkit import Served, Watched, chromium, serving, view

TITLE = "Festa 🎉 de anos da família 👨‍👩‍👧 em 🇵🇹"
#: An emoji across the search hit's cut (UTF-16 units 158 and 159).
LAUNCH = "launch " + "b" * 151 + "🚀 and a few more words after the rocket"
#: An emoji across the wide graph label's cut (UTF-16 units 26 and 27).
PARTY = "a" * 26 + "🎉 party planning for Sunday"
WELL_FORMED = "e => e.textContent.isWellFormed()"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("emoji") / "vault"
    vault = make_vault(home)
    try:
        messages = [("m1", "user", LAUNCH), ("m2", "assistant", "Parabéns 🎂!")]
        vault.put_conversation(conversation_row(pam_conversation("c-emoji", messages, title=TITLE)))
    finally:
        vault.close()
    with serving(home, existing=True) as s:
        auth = {"Authorization": f"Bearer {s.token}"}
        with httpx.Client(base_url=s.url, headers=auth) as client:
            ids = []
            for content in (PARTY, "User likes Sunday lunches"):
                made = client.post("/v1/memories", json={"content": content, "type": "fact"})
                made.raise_for_status()
                ids.append(made.json()["memory"]["id"])
            client.post(
                f"/v1/memories/{ids[0]}/relations", json={"to": ids[1], "type": "related_to"}
            ).raise_for_status()
        yield s


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watched = Watched(context.new_page())
    watched.page.goto(served.sign_in_url)
    watched.page.wait_for_selector("h1#view-title")
    yield watched.page
    context.close()
    watched.assert_clean()


def test_an_emoji_title_reaches_the_page_whole(page: Page, served: Served) -> None:
    view(page, served, "conversations")
    link = page.locator("tbody a", has_text="Festa")
    expect(link).to_have_text(TITLE)
    link.click()
    page.wait_for_selector("h2#h-thread")
    expect(page.locator("h1#view-title")).to_have_text(TITLE)
    expect(page.locator(".msg .text").nth(1)).to_have_text("Parabéns 🎂!")


def test_a_long_message_is_cut_between_characters_never_inside_an_emoji(
    page: Page, served: Served
) -> None:
    view(page, served, "search?q=launch&kind=all")
    hit = page.locator("li.hit a", has_text="launch")
    expect(hit).to_have_count(1)
    assert hit.evaluate(WELL_FORMED), repr(hit.text_content())
    assert hit.text_content() == LAUNCH[:159] + "…"  # 158 letters, the rocket, the ellipsis


def test_a_graph_label_is_cut_between_characters_never_inside_an_emoji(
    page: Page, served: Served
) -> None:
    view(page, served, "graph")
    label = page.locator("svg.graph text", has_text="aaaa")
    expect(label).to_have_count(1)
    assert label.evaluate(WELL_FORMED), repr(label.text_content())
    assert label.text_content() == "a" * 26 + "🎉…"
