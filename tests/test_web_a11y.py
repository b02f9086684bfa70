"""Accessibility of each view of the web UI: axe-core (served by memvault from the UI's
build) finds no WCAG 2 level A or AA violation, at a laptop's and a phone's width; every view
works from the keyboard alone — Tab reaches each control in order with a visible focus ring,
and the main tasks complete without a mouse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from webkit import (
    VIEWS,
    Served,
    Watched,
    axe_violations,
    chatgpt_export,
    chromium,
    seed_vault,
    serving,
    view,
    with_proposal,
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("web-a11y")
    with serving(with_proposal(tmp / "vault"), existing=True) as s:
        seed_vault(s, chatgpt_export(tmp / "chatgpt.zip", count=12))
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def signed_in(browser: Browser, served: Served, width: int) -> tuple[Watched, Page]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    watched = Watched(page)
    page.goto(served.sign_in_url)
    page.wait_for_selector("h1#view-title")
    return watched, page


def open_view(page: Page, served: Served, name: str) -> None:
    where = VIEWS[name]
    if where is None:
        view(page, served, "memories" if name == "memory" else "conversations")
        page.locator("table a").first.click()
        page.wait_for_selector("h2#h-facts" if name == "memory" else "h2#h-thread")
        page.wait_for_load_state("networkidle")
    else:
        view(page, served, where)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", list(VIEWS))
def test_no_wcag_a_or_aa_violations_by_axe(
    browser: Browser, served: Served, name: str, width: int
) -> None:
    watched, page = signed_in(browser, served, width)
    open_view(page, served, name)
    for opener in page.locator("details summary").all():
        opener.click()  # the tables behind the charts are checked too
    assert axe_violations(page, served) == []
    page.close()
    watched.assert_clean()


def test_the_sign_in_form_has_no_violations(browser: Browser, served: Served) -> None:
    page = browser.new_page()
    page.goto(served.url + "/")
    expect(page.locator("h1")).to_have_text("Sign in")
    assert axe_violations(page, served) == []
    page.close()


FOCUSABLE = "a[href], button:not([disabled]), input, select, textarea, summary"


@pytest.mark.parametrize("name", list(VIEWS))
def test_tab_reaches_every_control_with_a_visible_focus_ring(
    browser: Browser, served: Served, name: str
) -> None:
    watched, page = signed_in(browser, served, 1280)
    open_view(page, served, name)
    expected = page.locator(f"body :is({FOCUSABLE}):visible").count()
    page.locator(".skip").focus()  # from the top of the page
    reached: list[str] = []
    for step in range(expected * 4 + 10):
        if step:
            page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement;
                if (!e || e === document.body) return null;
                const s = getComputedStyle(e);
                const key = e.tagName + '|' + (e.id || e.getAttribute('href') || e.textContent)
                    + '|' + Array.from(document.querySelectorAll('*')).indexOf(e);
                return {key, ring: s.outlineStyle !== 'none' && s.outlineWidth !== '0px'}; }"""
        )
        if focused is None:
            break
        assert focused["ring"], f"no focus ring on {focused['key']}"
        if reached and focused["key"] == reached[0]:
            break  # wrapped around
        if focused["key"] not in reached:  # a date field takes a Tab per part
            reached.append(focused["key"])
    # The skip link, the navigation and the view's controls (svg links of the graph too).
    assert len(reached) >= expected
    page.close()
    watched.assert_clean()


def test_keyboard_only_search_and_open_a_result(browser: Browser, served: Served) -> None:
    watched, page = signed_in(browser, served, 1280)
    expect(page.locator(":focus")).to_have_text("Memories")  # the view's title
    for _ in range(20):  # back from the title into the navigation
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.textContent") == "Search":
            break
    expect(page.locator(":focus")).to_have_text("Search")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Search")
    page.keyboard.type("Porto")
    page.keyboard.press("Enter")
    expect(page.locator("#hits")).to_contain_text("Porto")
    while page.evaluate("!document.activeElement.closest('.hit')"):
        page.keyboard.press("Tab")
    opened = page.evaluate("document.activeElement.getAttribute('href')")
    page.keyboard.press("Enter")
    expect(page.locator("h1")).not_to_have_text("Search")
    assert page.url.endswith(opened)
    expect(page.locator(":focus")).to_have_id("view-title")
    page.close()
    watched.assert_clean()


def test_keyboard_only_archive_a_memory(browser: Browser, served: Served, tmp_path: Path) -> None:
    watched, page = signed_in(browser, served, 1280)
    view(page, served, "memories")
    page.locator("tbody a").last.focus()
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Memory")
    page.locator("[aria-labelledby=h-life] button", has_text="Archive").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".badge.archived").first).to_be_visible()
    page.close()
    watched.assert_clean()
