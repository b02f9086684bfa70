"""The memory list on a phone (390 px wide) and Claude's Markdown memories in the list,
through a real `memvault serve` and Debian's Chromium: no sideways scrolling, every memory's
text readable, and Markdown shown as text with inline emphasis — never as markup, never as
injected HTML."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from webkit import Served, Watched, chromium, serving, view

PHONE = {"width": 390, "height": 844}
CLAUDE_MEMORY = (
    "**Work context**\n"
    "Engineer using *Python* and `psql`.\n\n"
    "**Personal context**\n"
    "- Has a daughter with celiac disease.\n"
    "- Is vegetarian\n"
    "- Runs\n\n"
    "## Contexto pessoal\n"
    "See [the plan](https://example.com/plan)."
)
HOSTILE = 'Likes <img src=x onerror="window.injected=1"> and **<b>bold</b>** tags'


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "vault") as s:
        auth = {"Authorization": f"Bearer {s.token}"}
        with httpx.Client(base_url=s.url, headers=auth) as client:
            for content, kind in (
                (CLAUDE_MEMORY, "context"),
                (HOSTILE, "preference"),
                ("Prefers a_very_long_unbroken_identifier_" * 4, "fact"),
                ("Lives in Lisbon", "fact"),
            ):
                client.post("/v1/memories", json={"content": content, "type": kind})
        yield s


@pytest.fixture
def phone(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    watched = Watched(context.new_page())
    watched.page.goto(served.sign_in_url)
    watched.page.wait_for_selector("h1#view-title")
    yield watched.page
    context.close()
    watched.assert_clean()


def overflow(page: Page, selector: str) -> int:
    width: int = page.evaluate(
        f"(() => {{ const e = document.querySelector({selector!r});"
        " return e.scrollWidth - e.clientWidth; })()"
    )
    return width


def test_the_memory_list_does_not_scroll_sideways_on_a_phone(
    phone: Page, served: Served, tmp_path: Path
) -> None:
    view(phone, served, "memories")
    expect(phone.locator("tbody tr")).to_have_count(4)
    assert overflow(phone, "html") <= 0, "the page scrolls sideways"
    assert overflow(phone, "main .table-wrap") <= 0, "the memory table scrolls sideways"
    # Each row's memory uses the width of the screen, not a column squeezed beside others.
    link = phone.locator("tbody tr", has_text="Lives in Lisbon").locator("a").first
    cell = phone.locator("tbody tr", has_text="Lives in Lisbon").locator("td").first
    box = cell.bounding_box()
    assert box is not None and box["width"] >= 300, box
    expect(link).to_be_visible()
    # What a row says besides the text stays: type, status and the day.
    row = phone.locator("tbody tr", has_text="Lives in Lisbon")
    expect(row).to_contain_text("fact")
    expect(row).to_contain_text("active")
    phone.screenshot(path=str(tmp_path / "phone-memories.png"), full_page=True)


def test_markdown_memories_read_as_text_with_inline_emphasis(phone: Page, served: Served) -> None:
    view(phone, served, "memories")
    row = phone.locator("tbody tr", has_text="Work context")
    text = row.locator("td").first.inner_text()
    for mark in ("**", "## ", "\n- ", "[the plan]", "](", "`"):
        assert mark not in text, (mark, text)
    assert text == (
        "Work context: Engineer using Python and psql. Personal context: Has a "
        "daughter with celiac disease. Is vegetarian; Runs. Contexto pessoal: See the plan."
    ), text
    expect(row.locator("strong", has_text="Work context")).to_have_count(1)
    expect(row.locator("em", has_text="Python")).to_have_count(1)
    expect(row.locator("code", has_text="psql")).to_have_count(1)
    # A link's text is shown; no link to an address a memory names is made.
    expect(row.locator("a[href^='https://']")).to_have_count(0)


def test_markup_in_a_memory_is_shown_never_injected(phone: Page, served: Served) -> None:
    view(phone, served, "memories")
    row = phone.locator("tbody tr", has_text="Likes")
    expect(row.locator("img")).to_have_count(0)
    expect(row.locator("b")).to_have_count(0)
    assert "<img src=x" in row.locator("td").first.inner_text()
    assert phone.evaluate("window.injected") is None


def test_search_shows_a_markdown_memory_as_text(phone: Page, served: Served) -> None:
    phone.goto(f"{served.url}/#/search?q=plan")
    hit = phone.locator("li.hit", has_text="Work context")
    expect(hit).to_have_count(1)
    assert "**" not in hit.inner_text()
    expect(hit.locator("strong", has_text="Work context")).to_have_count(1)


def test_the_audit_log_is_readable_on_a_phone(phone: Page, served: Served, tmp_path: Path) -> None:
    """The audit table hid its Action and Details columns on a phone and scrolled sideways;
    its rows stack instead."""
    view(phone, served, "audit")
    expect(phone.locator("tbody tr").first).to_be_visible()
    assert overflow(phone, "main .table-wrap") <= 0, "the audit table scrolls sideways"
    first = phone.locator("tbody tr").first
    expect(first.locator("td").nth(3)).to_be_visible()  # the action
    expect(first.locator("td").nth(3)).to_have_text("add")
    phone.screenshot(path=str(tmp_path / "phone-audit.png"))


def test_the_conversation_list_fits_a_phone(phone: Page, served: Served, tmp_path: Path) -> None:
    """Without the columns a phone used to hide, the conversation list stacks as the memory
    list does: no column is cut off at the edge."""
    from webkit import chatgpt_export, upload_chatgpt

    upload_chatgpt(phone, served, chatgpt_export(tmp_path / "chatgpt.zip", count=3))
    view(phone, served, "conversations")
    expect(phone.locator("tbody tr").first).to_be_visible()
    assert overflow(phone, "main .table-wrap") <= 0, "the conversation list scrolls sideways"
    assert overflow(phone, "html") <= 0


def test_a_model_s_thinking_is_marked_in_a_conversation(
    phone: Page, served: Served, tmp_path: Path
) -> None:
    """Claude's extended thinking (`is_thought`) read as the assistant's answer; and a
    conversation whose messages keep no parent links showed only its last message."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from providergen import claude

    export = claude.write(tmp_path, "zip")
    auth = {"Authorization": f"Bearer {served.token}"}
    with httpx.Client(base_url=served.url, headers=auth, timeout=60) as http:
        http.post(
            "/v1/import",
            params={"filename": export.name},
            content=export.read_bytes(),
            headers={"content-type": "application/octet-stream"},
        ).raise_for_status()
        listed = http.get("/v1/conversations", params={"limit": 50}).json()["conversations"]
    cheese = next(c for c in listed if c["title"] == "Receita de pão de queijo")
    view(phone, served, f"conversation/{cheese['id']}")
    phone.wait_for_selector(".msg")
    thought = phone.locator(".msg", has_text="polvilho já é naturalmente")
    expect(thought.locator(".who")).to_contain_text("assistant (thinking)")
    answer = phone.locator(".msg", has_text="use polvilho azedo")
    expect(answer.locator(".who")).not_to_contain_text("thinking")
    texts = phone.locator(".msg .text").all_inner_texts()
    assert len(texts) == 3 and "Minha filha é celíaca" in texts[0], texts
