"""The Time view's monthly charts on a phone (390 px), through a real `memvault serve` and
Debian's Chromium: they were drawn 760 px wide and shrunk to the screen, so their month labels
were about 4 px high. They are now drawn at the screen's own scale with fewer month labels,
readable and apart."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from test_web_graph import overlapping
from vaultkit import make_vault
from webkit import Served, Watched, chromium, serving, view

PHONE = {"width": 390, "height": 844}

TICKS = """() => [...document.querySelectorAll('svg.chart')].map((svg) => {
  const frame = svg.getBoundingClientRect();
  const scale = frame.width / svg.viewBox.baseVal.width;
  return {
    scale,
    frame: {left: frame.left, right: frame.right},
    ticks: [...svg.querySelectorAll('text.tick')].map((t) => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              px: parseFloat(getComputedStyle(t).fontSize) * scale};
    }),
  };
})"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("time") / "vault"
    vault = make_vault(home)
    try:
        for n in range(30):  # thirty months, two types
            at = datetime(2023 + (n // 12), n % 12 + 1, 15, tzinfo=UTC)
            kind = "fact" if n % 2 else "preference"
            vault.add(f"User noted thing number {n}", kind, now=at)
    finally:
        vault.close()
    with serving(home, existing=True) as s:
        yield s


@pytest.fixture
def phone(served: Served) -> Iterator[Page]:
    with chromium() as browser:
        yield from _page(browser, served)


def _page(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    watched = Watched(context.new_page())
    watched.page.goto(served.sign_in_url)
    watched.page.wait_for_selector("h1#view-title")
    yield watched.page
    context.close()
    watched.assert_clean()


def test_the_monthly_charts_have_readable_month_labels_on_a_phone(
    phone: Page, served: Served, tmp_path: Path
) -> None:
    view(phone, served, "time")
    charts = phone.evaluate(TICKS)
    assert len(charts) == 2
    for chart in charts:
        assert chart["scale"] > 0.95, chart["scale"]
        months = [t for t in chart["ticks"] if "-" in (t["text"] or "")]
        assert 2 <= len(months) <= 5, months
        assert overlapping(chart["ticks"]) == []
        for tick in chart["ticks"]:
            assert tick["px"] >= 11, tick
            assert tick["right"] <= chart["frame"]["right"] + 0.5, tick
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    phone.screenshot(path=str(tmp_path / "phone-time.png"), full_page=True)
