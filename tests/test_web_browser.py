"""The web UI in a real browser (Debian's Chromium, headless, driven by Playwright) against a
real `memvault serve` on a temporary vault. Every test fails on any console error or failed
request of its page (`webkit.Watched`)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from memvault.crypto.keys import SigningKey
from memvault.vault import Vault
from webkit import (
    Served,
    Watched,
    chatgpt_export,
    chromium,
    serving,
    upload_chatgpt,
    view,
    with_proposal,
)


def add_key(served: Served, signing: SigningKey) -> None:
    """Give the served vault a signing key (through the library, as `memvault keys` does)."""
    from vaultkit import PASSPHRASE

    vault = Vault.open(served.home, PASSPHRASE)
    try:
        vault.add_key(signing.to_record(), owner_did=True)
    finally:
        vault.close()


def add_memories(served: Served, contents: list[str]) -> None:
    auth = {"Authorization": f"Bearer {served.token}"}
    with httpx.Client(base_url=served.url, headers=auth) as client:
        for content in contents:
            client.post(
                "/v1/memories", json={"content": content, "type": "fact"}
            ).raise_for_status()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "vault") as s:
        yield s


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Watched]:
    context = browser.new_context(accept_downloads=True)
    watched = Watched(context.new_page())
    watched.page.goto(served.sign_in_url)
    watched.page.wait_for_selector("h1#view-title")
    yield watched
    context.close()
    watched.assert_clean()


def test_serve_prints_the_ui_address_with_the_token(tmp_path: Path) -> None:
    with serving(tmp_path / "vault") as served:
        assert httpx.get(served.sign_in_url, follow_redirects=False).status_code == 303
    assert f"web UI: {served.url}/?token={served.token}" in "\n".join(served.printed)


def test_the_token_address_signs_in_and_leaves_the_address_bar(
    page: Watched, served: Served
) -> None:
    assert page.page.url == served.url + "/#/memories" or page.page.url == served.url + "/"
    expect(page.page.locator("h1")).to_have_text("Memories")
    cookies = page.page.context.cookies()
    (cookie,) = [c for c in cookies if c["name"] == "memvault_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert page.page.evaluate("document.cookie") == ""


def test_without_a_session_the_sign_in_form_signs_in(browser: Browser, served: Served) -> None:
    context = browser.new_context()
    p = context.new_page()
    problems: list[str] = []
    p.on("pageerror", lambda exc: problems.append(str(exc)))
    p.goto(served.url + "/")
    expect(p.locator("h1")).to_have_text("Sign in")
    p.get_by_label("Token").fill(served.token)
    p.get_by_role("button", name="Sign in").click()
    expect(p.locator("h1")).to_have_text("Memories")
    context.close()
    assert problems == []


def test_upload_a_chatgpt_export_and_see_its_conversations_and_memories(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    expect(p.locator("#import-summary")).to_contain_text("6 new conversations")
    expect(p.locator("#u-progress")).to_have_attribute("value", "100")
    p.get_by_role("link", name="Conversations", exact=True).click()
    expect(p.locator("h1")).to_have_text("Conversations")
    expect(p.locator("tbody tr")).to_have_count(6)
    p.locator("tbody a").first.click()
    expect(p.locator("h2#h-thread")).to_have_text("Messages")
    expect(p.locator(".msg").first).to_be_visible()
    p.get_by_role("link", name="Memories", exact=True).click()
    expect(p.locator("h1")).to_have_text("Memories")
    assert p.locator("tbody tr").count() > 0
    p.locator("tbody a").first.click()
    expect(p.locator("h1")).to_have_text("Memory")
    # Provenance clicks through to the conversation the memory came from.
    p.locator("dd a[href^='#/conversation/']").click()
    expect(p.locator("h2#h-derived")).to_contain_text("Memories from this conversation")
    assert p.locator("#h-derived + div tbody tr").count() >= 1


def test_a_chatgpt_branch_can_be_followed(page: Watched, served: Served, tmp_path: Path) -> None:
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip", count=24))
    view(p, served, "conversations")
    titles = p.locator("tbody a")
    for i in range(titles.count()):
        view(p, served, "conversations")
        p.locator("tbody a").nth(i).click()
        p.wait_for_selector("h2#h-thread")
        if p.locator(".fork").count():
            break
    else:
        pytest.fail("no conversation with a branch in the generated export")
    fork = p.locator(".fork").first
    before = p.locator(".msg").all_inner_texts()
    label = fork.locator("span").inner_text()
    fork.get_by_role("button", name="Previous branch").click()
    assert p.locator(".fork span").first.inner_text() != label
    assert p.locator(".msg").all_inner_texts() != before


def test_search_finds_memories_and_messages(page: Watched, served: Served, tmp_path: Path) -> None:
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    p.get_by_role("link", name="Search", exact=True).click()
    p.get_by_label("Question or words").fill("Porto")
    p.get_by_role("button", name="Search").click()
    expect(p.locator("#hits")).to_contain_text("for “Porto”")
    kinds = set(p.locator(".hit .badge").all_inner_texts())
    assert kinds == {"memory", "message"}
    p.locator(".hit a").first.click()
    p.wait_for_selector("h1#view-title")


def test_retract_a_memory_leaves_the_active_list_and_enters_the_audit_view_pam_7_1(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    view(p, served, "memories")
    first = p.locator("tbody a").first
    content = first.inner_text()
    total = p.locator("#range").inner_text()
    first.click()
    expect(p.locator("h1")).to_have_text("Memory")
    memory_id = p.locator("dd code").inner_text()
    # Only PAM §7.1's transitions from `active` are offered.
    buttons = set(p.locator("[aria-labelledby=h-life] button").all_inner_texts())
    assert buttons == {"Supersede", "Deprecate", "Retract", "Archive"}
    p.get_by_role("button", name="Retract").click()
    expect(p.locator(".badge.retracted").first).to_be_visible()
    # A retracted memory takes no further transition.
    expect(p.locator("[aria-labelledby=h-life] button")).to_have_count(0)
    view(p, served, "memories")
    assert content not in p.locator("tbody").inner_text()
    assert p.locator("#range").inner_text() != total
    p.get_by_label("Status").select_option("retracted")
    p.get_by_role("button", name="Filter").click()
    expect(p.locator("tbody")).to_contain_text(content)
    p.get_by_role("link", name="Audit", exact=True).click()
    expect(p.locator("h1")).to_have_text("Audit")
    retraction = p.locator("tbody tr", has_text=memory_id).first
    expect(retraction).to_contain_text("transition")
    expect(retraction).to_contain_text("retracted")


def test_the_confidence_filter_narrows_the_memory_list_from_the_keyboard_pam_8(
    page: Watched, served: Served
) -> None:
    """The filter bar's labelled confidence bounds (stored confidence.current, inclusive):
    typed and submitted with Enter, they narrow the list, survive paging, and show the same
    total the API gives."""
    p = page.page
    auth = {"Authorization": f"Bearer {served.token}"}
    levels = [0.3, 0.55, 0.7, 0.85, 0.95]
    with httpx.Client(base_url=served.url, headers=auth) as client:
        for i in range(60):
            memory = {"content": f"memory {i}", "type": "fact", "confidence": levels[i % 5]}
            client.post("/v1/memories", json=memory).raise_for_status()
        client.post("/v1/memories", json={"content": "unsure", "type": "fact"}).raise_for_status()
    view(p, served, "memories")
    # The list of these 61 memories is painted (not an earlier one still being replaced).
    expect(p.locator("#range")).to_have_text("1–50 of 61")
    p.get_by_label("Confidence at least").fill("0.7")
    p.get_by_label("Confidence at least").press("Enter")
    p.wait_for_function("() => location.hash.includes('min_confidence=0.7')")
    p.wait_for_load_state("networkidle")
    expect(p.locator("#range")).to_have_text("1–37 of 37")  # 0.7, 0.85, 0.95 and the default 0.9
    shown = [float(t) for t in p.locator("tbody td.num").all_inner_texts()]
    assert len(shown) == 37 and min(shown) >= 0.7
    expect(p.get_by_label("Confidence at least")).to_have_value("0.7")
    p.get_by_label("Confidence at most").fill("0.85")
    p.get_by_role("button", name="Filter").click()
    expect(p.locator("#range")).to_have_text("1–24 of 24")
    p.get_by_label("Confidence at least").fill("")
    p.get_by_label("Confidence at most").fill("0.5")
    p.get_by_label("Confidence at most").press("Enter")
    expect(p.locator("#range")).to_have_text("1–12 of 12")
    p.get_by_label("Confidence at most").fill("0.2")
    p.get_by_label("Confidence at most").press("Enter")
    expect(p.locator("#range")).to_have_text("No memories match.")
    # Bounds that cross are stopped at the field, before any request.
    p.get_by_label("Confidence at least").fill("0.9")
    p.get_by_label("Confidence at most").fill("0.3")
    p.get_by_label("Confidence at most").press("Enter")
    assert p.evaluate("document.getElementById('f-max-conf').validationMessage") == (
        "The upper bound is below the lower one."
    )
    assert "min_confidence=0.9" not in p.evaluate("location.hash")


def test_download_a_pam_export_and_validate_it(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    from memvault.formats.pam.validate import validate_path

    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    with p.expect_download() as download:
        p.locator("#dl-pam").click()
    saved = tmp_path / "export.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        assert "memory-store.json" in archive.namelist()
    report = validate_path(saved)
    assert report.valid, report.findings


def test_download_a_signed_pam_export_and_verify_its_signature_pam_18(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    """Move → "Sign with the vault's key" downloads a PAM export whose memory-store.json the
    library verifies against the vault's key; it validates as a PAM export."""
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import verify_document
    from memvault.formats.pam.validate import validate_path

    signing = SigningKey.new("Ed25519")
    add_key(served, signing)
    p = page.page
    add_memories(served, ["Signed in the browser", "Also signed"])
    view(p, served, "move")
    p.get_by_label("Sign with the vault's key (PAM §18)").check()
    with p.expect_download() as download:
        p.get_by_role("button", name="Download PAM export").click()
    expect(p.locator("#protected-done")).to_have_text("Exported, signed.")
    assert download.value.suggested_filename.endswith(".zip")
    saved = tmp_path / "signed.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        store = json.loads(archive.read("memory-store.json"))
    verdict = verify_document(store, expected_key=signing.public_key)
    assert verdict.ok, verdict.reason
    assert {m["content"] for m in store["memories"]} == {"Signed in the browser", "Also signed"}
    report = validate_path(saved)
    assert report.valid, report.findings


def test_download_an_encrypted_pam_export_and_decrypt_it_pam_21_1(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    """Move → encrypted with a passphrase (typed into a password field, sent in the POST
    body, never in an address) downloads an age file the library decrypts to the export;
    then to an age recipient: the library and Debian's `age` CLI decrypt it with the
    identity."""
    from memvault.crypto.agefile import decrypt, generate_identity

    p = page.page
    add_memories(served, ["Sealed in the browser"])
    view(p, served, "move")
    urls: list[str] = []
    p.on("request", lambda r: urls.append(r.url))
    p.get_by_label("Encryption (age)").select_option("passphrase")
    p.get_by_label("Passphrase").fill("correct horse battery")
    with p.expect_download() as download:
        p.get_by_role("button", name="Download PAM export").click()
    expect(p.locator("#protected-done")).to_have_text("Exported, encrypted with age.")
    assert download.value.suggested_filename.endswith(".zip.age")
    sealed = tmp_path / "export.zip.age"
    download.value.save_as(sealed)
    assert not any("correct" in u for u in urls)
    opened = decrypt(sealed.read_bytes(), passphrase="correct horse battery")
    with zipfile.ZipFile(io.BytesIO(opened)) as archive:
        store = json.loads(archive.read("memory-store.json"))
    assert [m["content"] for m in store["memories"]] == ["Sealed in the browser"]
    identity, recipient = generate_identity()
    p.get_by_label("Encryption (age)").select_option("recipient")
    expect(p.get_by_label("Passphrase")).to_be_hidden()
    p.get_by_label("age recipient").fill(recipient)
    with p.expect_download() as second:
        p.get_by_role("button", name="Download PAM export").click()
    to_recipient = tmp_path / "recipient.zip.age"
    second.value.save_as(to_recipient)
    with zipfile.ZipFile(
        io.BytesIO(decrypt(to_recipient.read_bytes(), identities=[identity]))
    ) as z:
        assert "memory-store.json" in z.namelist()
    # Debian's age opens it too (`make system-deps` installs it; tests/test_agefile.py).
    key_file = tmp_path / "identity.txt"
    key_file.write_text(identity + "\n")
    age = shutil.which("age") or "age"
    run = subprocess.run(
        [age, "-d", "-i", str(key_file), str(to_recipient)], capture_output=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(io.BytesIO(run.stdout)) as z:
        assert json.loads(z.read("memory-store.json"))["memories"][0]["content"] == (
            "Sealed in the browser"
        )


def test_a_signed_export_without_a_vault_key_says_why(page: Watched, served: Served) -> None:
    """Signing when the vault has no key: the Move view shows the problem (404 from the
    server, which the page expects here) and nothing is downloaded."""
    p = page.page
    view(p, served, "move")
    p.get_by_label("Sign with the vault's key (PAM §18)").check()
    p.get_by_role("button", name="Download PAM export").click()
    expect(p.locator("#protected-export [role=alert]")).to_contain_text("key")
    # The refusal the page expects, and the browser's own note of it; nothing else.
    assert sorted(page.problems) == [
        f"404: POST {served.url}/v1/pam/export",
        "console error: Failed to load resource: the server responded with a status of 404 "
        "(Not Found)",
    ]
    page.problems.clear()


def test_assistant_texts_can_be_made_and_copied(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    p = page.page
    p.context.grant_permissions(["clipboard-read", "clipboard-write"])
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    p.get_by_label("Assistant", exact=True).select_option("system-prompt")
    p.get_by_role("button", name="Make the texts").click()
    area = p.locator("textarea").first
    expect(area).not_to_be_empty()
    p.locator("button", has_text="Copy").first.click()
    assert p.evaluate("navigator.clipboard.readText()") == area.input_value()


def test_the_erase_flow_is_guarded_then_erases_everything_aimem_5_2(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip"))
    p.get_by_role("link", name="Erase", exact=True).click()
    button = p.get_by_role("button", name="Erase everything")
    expect(button).to_be_disabled()
    p.get_by_label("Type erase everything to confirm").fill("erase")
    expect(button).to_be_disabled()
    p.get_by_label("Type erase everything to confirm").fill("erase everything")
    expect(button).to_be_enabled()
    button.click()  # the browser's confirmation dialog is accepted
    expect(p.locator("#erased")).to_contain_text("memories")
    view(p, served, "memories")
    expect(p.locator("#range")).to_have_text("No memories match.")
    view(p, served, "conversations")
    expect(p.locator("tbody tr")).to_have_count(0)


def test_a_background_proposal_is_reviewed_and_accepted_in_the_review_view_aimem_5_1(
    browser: Browser, tmp_path: Path
) -> None:
    with serving(with_proposal(tmp_path / "vault"), existing=True) as served:
        context = browser.new_context()
        page = Watched(context.new_page())
        p = page.page
        p.goto(served.sign_in_url)
        p.wait_for_selector("h1#view-title")
        p.get_by_role("link", name="Review", exact=True).click()
        expect(p.locator("h1")).to_have_text("Review")
        card = p.locator("#proposals li")
        expect(card).to_have_count(1)
        expect(card).to_contain_text("User prefers concise answers")
        expect(card).to_contain_text("Would replace")
        expect(card).to_contain_text("User prefers detailed answers")
        # From the keyboard: the labelled button, then Enter.
        p.get_by_role("button", name="Accept: User prefers concise answers").focus()
        p.keyboard.press("Enter")
        expect(p.locator("#no-proposals")).to_be_visible()
        expect(p.locator("#status")).to_contain_text("Accepted")
        auth = {"Authorization": f"Bearer {served.token}"}
        memories = httpx.get(
            served.url + "/v1/memories", params={"status": "all"}, headers=auth
        ).json()["memories"]
        status = {m["content"]: m["status"] for m in memories}
        assert status == {
            "User prefers concise answers": "active",
            "User prefers detailed answers": "superseded",
        }
        assert httpx.get(served.url + "/v1/review", headers=auth).json() == {"proposals": []}
        context.close()
        page.assert_clean()


def test_counts_on_the_pages_agree_in_number_with_the_count(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    """A count of one reads "1 new conversation", "1 message" — never "1 messages" (the
    upload's summary and a conversation's header)."""
    from providergen import claude, write_zip

    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip", count=1))
    expect(p.locator("#import-summary")).to_contain_text(": 1 new conversation (")
    export = write_zip(claude.encode(claude.export()), tmp_path / "claude.zip")
    auth = {"Authorization": f"Bearer {served.token}"}
    httpx.post(
        f"{served.url}/v1/import", content=export.read_bytes(), headers=auth, timeout=60
    ).raise_for_status()
    view(p, served, "conversations")
    p.get_by_role("link", name="Sem data").click()
    expect(p.locator("h1")).to_have_text("Sem data")
    expect(p.locator("main p").first).to_contain_text("· 1 message ·")


def test_the_audit_table_fits_the_window_with_long_details(page: Watched, served: Served) -> None:
    """Audit entries with long unbroken values (a did:key key id of 105 characters, a
    bundle's checksum, a memory id) wrap in their cells: the table is no wider than the page,
    so no column is cut off."""
    add_key(served, SigningKey.new("Ed25519"))
    auth = {"Authorization": f"Bearer {served.token}"}
    with httpx.Client(base_url=served.url, headers=auth, timeout=60) as client:
        client.post("/v1/memories", json={"content": "Likes jazz", "type": "preference"})
        bundle = client.get("/v1/brain/export")
        bundle.raise_for_status()
        # Importing it back logs the bundle's checksum (71 characters without a space).
        client.post("/v1/brain/import", content=bundle.content).raise_for_status()
        client.get("/v1/pam/export").raise_for_status()
    p = page.page
    p.set_viewport_size({"width": 1280, "height": 900})
    view(p, served, "audit")
    expect(p.locator("tbody tr").first).to_be_visible()
    overflow = p.evaluate(
        "(() => { const w = document.querySelector('main .table-wrap');"
        " return w.scrollWidth - w.clientWidth; })()"
    )
    assert overflow <= 0, f"the audit table is {overflow}px wider than its frame"


def test_the_sign_in_label_does_not_touch_its_field(browser: Browser, served: Served) -> None:
    """The "Token" label stands clear of its field and of the field's focus ring (3 px
    outline, 2 px offset)."""
    context = browser.new_context()
    p = context.new_page()
    p.goto(served.url + "/")
    expect(p.locator("h1")).to_have_text("Sign in")
    label = p.locator("label[for=token]").bounding_box()
    field = p.locator("#token").bounding_box()
    context.close()
    assert label is not None and field is not None
    beside = label["x"] + label["width"] + 5 <= field["x"]
    above = label["y"] + label["height"] + 5 <= field["y"]
    assert beside or above, (label, field)


def test_a_chatgpt_conversation_shows_no_empty_system_message(
    page: Watched, served: Served, tmp_path: Path
) -> None:
    """Every ChatGPT conversation starts with an empty, hidden system message: the thread
    showed it as a card with a speaker and a time and nothing said."""
    p = page.page
    upload_chatgpt(p, served, chatgpt_export(tmp_path / "chatgpt.zip", count=2))
    view(p, served, "conversations")
    p.locator("tbody a").first.click()
    p.wait_for_selector("h2#h-thread")
    texts = p.locator(".msg .text").all_inner_texts()
    assert texts and all(t.strip() for t in texts), texts


def test_a_memory_s_created_date_stays_on_one_line(page: Watched, served: Served) -> None:
    """At 1280 px the Created column broke "2026-11-27" into "2026-11-" and "27" beside a
    long memory."""
    add_memories(served, ["Is planning a week in Lisbon in May with a long list of " * 4])
    p = page.page
    p.set_viewport_size({"width": 1280, "height": 900})
    view(p, served, "memories")
    cell = p.locator("tbody tr td").nth(5)
    expect(cell).to_have_text(re.compile(r"^\d{4}-\d{2}-\d{2}$"))
    lines = cell.evaluate(
        "c => { const r = document.createRange(); r.selectNodeContents(c);"
        " return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"
    )
    assert lines == 1, lines
