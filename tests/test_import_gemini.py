"""The Gemini importer (PAM §25, importer mappings §3): a Google Takeout activity log becomes
normalized conversations that validate against the official schema, lose nothing, and get
the same ids however often and in whatever packaging the export is read."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from clikit import home, mv, ok, snapshot
from importkit import context as make_context
from importkit import conversation_validator, input_bytes, leaves, messages, progress_of
from memvault.importers import gemini
from memvault.importers.base import ImportContext, ImportedConversation, ImportFormatError
from memvault.importers.detect import detect
from memvault.importers.html_markdown import html_to_markdown
from memvault.sources import open_target
from providergen import gemini as gen
from providergen import write_folder, write_zip

__all__ = ["home"]  # the fixture, imported for pytest

IMPORTED_AT = "2026-11-21T10:00:00Z"
LOCALES = ("en", "pt")
FORMS = ("zip", "folder", "file")


def context(source: str = "takeout.zip") -> ImportContext:
    return make_context(source, IMPORTED_AT)


def place(tmp_path: Path, files: dict[str, bytes], form: str, locale: str = "en") -> Path:
    if form == "zip":
        return write_zip(files, tmp_path / "takeout-20261121.zip")
    if form == "folder":
        return write_folder(files, tmp_path / "takeout")
    path = tmp_path / gen.ACTIVITY_PATH[locale].rsplit("/", 1)[1]
    path.write_bytes(files[gen.ACTIVITY_PATH[locale]])
    return path


def read(path: Path) -> list[dict[str, Any]]:
    with open_target(path) as target:
        records = list(gemini.IMPORTER.read(target, context(path.name)))
    assert all(isinstance(r, ImportedConversation) for r in records)
    return [dict(r.document) for r in records]  # type: ignore[union-attr]


def utc(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)


def text_of(message: dict[str, Any]) -> str:
    """A message's text: its content text, or its text parts joined."""
    content = message["content"]
    if content["type"] == "text":
        return str(content["text"])
    return "\n\n".join(p["text"] for p in content["parts"] if p["type"] == "text")


def carries_messages(event: dict[str, Any]) -> bool:
    """Whether a generated event holds a prompt or a response (else it is a record of
    something done: "Used Gemini Apps", feedback)."""
    requests = ("Request", "Response")
    return (
        "safeHtmlItem" in event
        or "userInteractions" in event
        or any(d.get("name") in requests for d in event.get("details", []))
    )


@pytest.fixture(scope="module")
def validator() -> Any:
    return conversation_validator()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("form", FORMS)
def test_pam_25_every_prompt_response_and_time_arrives(
    tmp_path: Path, form: str, locale: str, validator: Any
) -> None:
    docs = read(place(tmp_path, gen.export(locale=locale), form, locale))
    for doc in docs:
        errors = [e.message for e in validator.iter_errors(doc)]
        assert errors == [], errors
    users = {text_of(m) for m in messages(docs) if m["role"] == "user"}
    # Markdown escapes a pipe inside a table cell
    answers = "\n".join(text_of(m) for m in messages(docs) if m["role"] == "assistant")
    answers = answers.replace("\\|", "|")
    created = {utc(m["created_at"]) for m in messages(docs)}
    for event in gen.events(locale=locale):
        for detail in event.get("details", []):
            if detail["name"] not in ("Request", "Response"):
                continue
            target = users if detail["name"] == "Request" else answers
            assert detail["value"] in target
        for item in event.get("userInteractions", []):
            inner = item["userInteraction"]
            for text in _strings(json.loads(inner["request"])):
                assert any(text in u for u in users), text
            for text in _strings(json.loads(inner["response"])):
                assert text in answers
        title = event["title"]
        for prefix in ("Prompted ", "Comando: "):
            if title.startswith(prefix):
                assert title[len(prefix) :] in users
        for html in event.get("safeHtmlItem", []):
            # every run of visible text (tags removed, entities decoded) is in the answer
            for run in re.split(r"<[^>]+>", html["html"]):
                visible = run.replace("&amp;", "&").replace("&nbsp;", "\u00a0").strip()
                assert " ".join(visible.split()) in " ".join(answers.split()), visible
        carries = ("details", "userInteractions", "safeHtmlItem")
        if "time" in event and any(key in event for key in carries):
            assert utc(event["time"]) in created
    assert "gatos cinzentos" not in json.dumps(docs, ensure_ascii=False)  # Search is not Gemini


def _strings(value: Any) -> Iterator[str]:
    for _, leaf in leaves(value):
        if isinstance(leaf, str) and len(leaf) > 3:
            yield leaf


@pytest.mark.parametrize("locale", LOCALES)
def test_pam_25_every_provider_field_is_kept_in_raw_metadata(tmp_path: Path, locale: str) -> None:
    docs = read(place(tmp_path, gen.export(locale=locale), "zip"))
    found = [leaf for _, leaf in leaves(docs)]
    for event in gen.events(locale=locale):
        for _, value in leaves(event):
            assert value in found, (value, event)
    html_kept = [
        m["raw_metadata"]["safeHtmlItem"]
        for m in messages(docs)
        if "safeHtmlItem" in m["raw_metadata"]
    ]
    assert html_kept and all(isinstance(h[0]["html"], str) for h in html_kept)


def test_pam_25_conversations_follow_titleurl_then_time_gaps(tmp_path: Path) -> None:
    log = gen.events()
    docs = read(place(tmp_path, gen.export(), "file"))
    by_id = {d["provider"]["conversation_id"]: d for d in docs if d["provider"]["conversation_id"]}
    urls = {
        e["titleUrl"].rsplit("/", 1)[1]
        for e in log
        if "/app/" in e.get("titleUrl", "") and carries_messages(e)
    }
    assert set(by_id) == urls
    for cid, doc in by_id.items():
        events = [e for e in log if e.get("titleUrl", "").endswith(cid)]
        assert doc["temporal"]["created_at"] == min(e["time"] for e in events)
        assert doc["raw_metadata"]["grouping"] == "titleUrl"
    # Without ids: sorted by time, a new conversation after a gap of more than 30 minutes.
    # An event without time takes the time of the event before it in the file.
    filled = list(itertools.accumulate(log, lambda before, e: e.get("time", before), initial=""))
    loose = sorted(
        utc(when)
        for e, when in zip(log, filled[1:], strict=True)
        if "/app/" not in e.get("titleUrl", "") and carries_messages(e)
    )
    sessions = 1 + sum(1 for a, b in itertools.pairwise(loose) if b - a > gemini.SESSION_GAP)
    gap_docs = [d for d in docs if d["raw_metadata"]["grouping"] == "time-gap"]
    assert len(gap_docs) == sessions >= 2
    for doc in gap_docs:
        times = [utc(m["created_at"]) for m in doc["messages"]]
        assert times == sorted(times)
        assert all(b - a <= gemini.SESSION_GAP for a, b in itertools.pairwise(times))
    for doc in docs:
        first_user = next((m for m in doc["messages"] if m["role"] == "user"), None)
        if first_user is None:  # a Canvas alone: titled by its event
            assert doc["title"] == doc["messages"][0]["raw_metadata"]["takeout_event"]["title"]
            continue
        assert doc["title"] == first_user["content"]["text"].split("\n")[0][:100]
        assert doc["provider"]["name"] == "gemini"
        assert all(m["role"] in ("user", "assistant") for m in doc["messages"])


def test_pam_25_missing_time_falls_back_to_the_event_before_it_never_now(tmp_path: Path) -> None:
    log = gen.events()
    at = next(i for i, e in enumerate(log) if "time" not in e)
    docs = read(place(tmp_path, gen.export(), "file"))
    marked = [m for m in messages(docs) if m["raw_metadata"].get("time_missing")]
    assert marked, "the event without time must be imported"
    assert {m["created_at"] for m in marked} == {log[at - 1]["time"]}


def test_pam_25_event_without_messages_is_kept_on_its_conversation(tmp_path: Path) -> None:
    docs = read(place(tmp_path, gen.export(), "file"))
    kept = [
        e["event"]
        for d in docs
        for field in ("events_without_messages", "standalone_events")
        for e in d["raw_metadata"].get(field, [])
    ]
    silent = [e for e in gen.events() if not carries_messages(e)]
    assert sorted(map(json.dumps, kept)) == sorted(map(json.dumps, silent))


def test_attached_files_become_attachments(tmp_path: Path) -> None:
    docs = read(place(tmp_path, gen.export(), "zip"))
    names = {a["name"]: a for m in messages(docs) for a in m.get("attachments", [])}
    expected = {n for e in gen.events() for n in e.get("attachedFiles", [])} - set(gen.GENERATED)
    assert set(names) == expected
    assert names["foto-do-gato.jpg"]["type"] == "image"
    assert names["notes.pdf"]["type"] == "document"


def test_pam_25_import_metadata_comes_from_the_context(tmp_path: Path) -> None:
    docs = read(place(tmp_path, gen.export(), "zip"))
    for doc in docs:
        assert doc["import_metadata"] == {
            "importer": "memvault/0.1.0",
            "importer_version": "gemini-importer/2026.11.1",
            "imported_at": IMPORTED_AT,
            "source_file": "takeout-20261121.zip",
        }


def test_reading_twice_and_in_any_packaging_gives_identical_ids(tmp_path: Path) -> None:
    ids = []
    for form in FORMS:
        (tmp_path / form).mkdir()
        path = place(tmp_path / form, gen.export(), form)
        first, second = read(path), read(path)
        assert first == second
        ids.append([(d["id"], [m["id"] for m in d["messages"]]) for d in first])
    assert ids[0] == ids[1] == ids[2]
    flat = [i for conv, msgs in ids[0] for i in (conv, *msgs)]
    assert len(flat) == len(set(flat))


def test_a_newer_export_only_adds(tmp_path: Path) -> None:
    """Stable ids (UUID v5 from provider data): an older export's conversations and messages
    are found unchanged in a newer one that holds more events."""
    log = gen.events()
    older = [e for e in log if e.get("time", "9999") < "2025-03-06"]
    assert 0 < len(older) < len(log)
    (tmp_path / "old.json").write_text(json.dumps(older), "utf-8")
    (tmp_path / "new.json").write_text(json.dumps(log), "utf-8")
    old = {m["id"]: m for m in messages(read(tmp_path / "old.json"))}
    new = {m["id"]: m for m in messages(read(tmp_path / "new.json"))}
    assert set(old) < set(new)
    for mid, message in old.items():
        assert new[mid]["content"] == message["content"]


def test_small_batches_give_the_same_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory stays bounded: with a tiny batch the log is read in many passes, same result."""
    path = place(tmp_path, gen.export(), "zip")
    whole = read(path)
    monkeypatch.setattr(gemini, "BATCH_BYTES", 1)
    assert read(path) == whole


def test_the_same_event_in_two_files_is_read_once(tmp_path: Path) -> None:
    files = gen.export()
    data = files[gen.ACTIVITY_PATH["en"]]
    twice = {"a/Gemini Apps/MyActivity.json": data, "b/Gemini Apps/MyActivity.json": data}
    once = read(write_folder({"a/Gemini Apps/MyActivity.json": data}, tmp_path / "one"))
    both = read(write_folder(twice, tmp_path / "two"))
    assert [m["id"] for m in messages(once)] == [m["id"] for m in messages(both)]


def test_html_response_to_markdown() -> None:
    html = (
        "<h2>Título</h2><p>It is <b>4</b> &amp; more.</p><ol><li>one</li><li>dois</li></ol>"
        "<pre>a  b\n\n\n c</pre>x<br>y<script>no()</script><ul><li>a<ul><li>b</li></ul></li></ul>"
    )
    assert html_to_markdown(html).text == (
        "## Título\n\nIt is 4 & more.\n\n1. one\n2. dois\n\n```\na  b\n\n\n c\n```\n\nx\ny"
        "\n\n- a\n  - b"
    )


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("locale", LOCALES)
def test_sniff_and_detect_recognize_takeout(tmp_path: Path, form: str, locale: str) -> None:
    with open_target(place(tmp_path, gen.export(locale=locale), form, locale)) as target:
        assert gemini.IMPORTER.sniff(target)
        assert detect(target) is gemini.IMPORTER


def test_sniff_refuses_other_activity_and_other_providers(tmp_path: Path) -> None:
    search = {
        "Takeout/My Activity/Search/MyActivity.json": _log(
            {"header": "Search", "title": "Searched for x", "time": T0}
        )
    }
    chatgpt = tmp_path / "conversations.json"
    chatgpt.write_text('[{"title": "x", "mapping": {}}]', "utf-8")
    csv_file = tmp_path / "copilot-activity-history.csv"
    csv_file.write_text("Conversation,Time,Author,Message\n", "utf-8")
    for path in (write_folder(search, tmp_path / "search"), chatgpt, csv_file):
        with open_target(path) as target:
            assert not gemini.IMPORTER.sniff(target), path


T0 = "2025-01-01T00:00:00Z"


def _log(*events: object) -> bytes:
    return json.dumps(events).encode("utf-8")


BAD = [
    ("object", b'{"header": "Gemini Apps"}', "expected a JSON array"),
    ("empty", b"", "the file is empty"),
    ("not-object", _log({"header": "Gemini", "time": T0}, 7), "event 1: expected an object"),
    ("bad-time", _log({"title": "Prompted x", "time": "yesterday"}), "event 0: field 'time'"),
    ("time-type", _log({"title": "Prompted x", "time": 12}), "field 'time': expected a string"),
    ("details", _log({"time": T0, "details": "Request"}), "field 'details': expected an array"),
    (
        "detail-value",
        _log({"time": T0, "details": [{"name": "Request", "value": 3}]}),
        "details[0]'.value",
    ),
    (
        "interaction",
        _log({"time": T0, "userInteractions": [{"x": 1}]}),
        "userInteractions[0]'.userInteraction",
    ),
    ("html", _log({"time": T0, "safeHtmlItem": [{"html": None}]}), "safeHtmlItem[0].html"),
    ("url", _log({"time": T0, "titleUrl": ["x"]}), "field 'titleUrl'"),
    ("truncated", _log({"title": "Prompted x", "time": T0})[:-1] + b', {"head', "not valid JSON"),
    ("not-utf8", b'[{"title": "Prompted caf\xe9"}]', "event 0: not valid JSON (lexical error"),
    ("overflow", b'[{"time": "2025-01-01T00:00:00Z", "n": 1e999}]', "event 0: not valid JSON"),
]


@pytest.mark.parametrize(("name", "data", "message"), BAD, ids=[b[0] for b in BAD])
def test_malformed_activity_is_a_clear_import_format_error(
    tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / "MyActivity.json"
    path.write_bytes(data)
    with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
        list(gemini.IMPORTER.read(target, context()))
    assert message in str(caught.value)
    assert str(path) in caught.value.where


def test_a_bad_event_deep_in_the_log_fails_before_anything_is_yielded(tmp_path: Path) -> None:
    log = gen.events()
    log.append({"header": "Gemini Apps", "time": "2020-01-01T00:00:00Z", "details": {}})
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps(log), "utf-8")
    with open_target(path) as target:
        records = gemini.IMPORTER.read(target, context())
        with pytest.raises(ImportFormatError, match=f"event {len(log) - 1}: field 'details'"):
            next(records)


def test_takeout_without_gemini_activity_is_an_error(tmp_path: Path) -> None:
    folder = write_folder({"Takeout/archive_browser.json": b"[]"}, tmp_path / "t")
    with (
        open_target(folder) as target,
        pytest.raises(ImportFormatError, match="no Gemini activity"),
    ):
        list(gemini.IMPORTER.read(target, context()))


def test_timestamps_are_rfc3339_utc(tmp_path: Path) -> None:
    log = [
        {"header": "Gemini Apps", "title": "Prompted a", "time": "2025-01-01T10:00:00+02:00"},
        {"header": "Gemini Apps", "title": "Prompted b", "time": "2025-01-01T08:10:00.5Z"},
    ]
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps(log), "utf-8")
    (doc,) = read(path)
    assert [m["created_at"] for m in doc["messages"]] == [
        "2025-01-01T08:00:00Z",
        "2025-01-01T08:10:00.500Z",
    ]
    assert doc["temporal"] == {
        "created_at": "2025-01-01T08:00:00Z",
        "updated_at": "2025-01-01T08:10:00.500Z",
    }
    assert utc(doc["temporal"]["updated_at"]) - utc(doc["temporal"]["created_at"]) == timedelta(
        minutes=10, seconds=0.5
    )


def test_conversation_id_from_every_url_spelling(tmp_path: Path) -> None:
    urls = {
        "https://gemini.google.com/app/c/0a1b2c3d4e": "0a1b2c3d4e",
        "https://gemini.google.com/app/0a1b2c3d4f?hl=pt-BR": "0a1b2c3d4f",
        "https://bard.google.com/chat/9f8e7d6c5b": "9f8e7d6c5b",
        "https://gemini.google.com/app": None,
        "https://myactivity.google.com/product/gemini": None,
    }
    log = [
        {"header": "Gemini Apps", "title": f"Prompted {i}", "titleUrl": url, "time": T0}
        for i, url in enumerate(urls)
    ]
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps(log), "utf-8")
    found = {
        m["raw_metadata"]["takeout_event"]["titleUrl"]: d["provider"]["conversation_id"]
        for d in read(path)
        for m in d["messages"]
    }
    assert found == urls


@pytest.mark.parametrize("form", ["folder", "file"])
def test_progress_advances_and_ends_at_the_size_read(tmp_path: Path, form: str) -> None:
    """ImportContext.progress: the bytes of the activity log read so far (the first pass;
    later passes reread batches and report nothing), rising, ending at its size."""
    log = [event for seed in range(16) for event in gen.events(seed=seed)]
    files = {gen.ACTIVITY_PATH["en"]: b"\xef\xbb\xbf" + json.dumps(log).encode()}
    path = place(tmp_path, files, form)
    seen = progress_of(gemini.IMPORTER, path)
    assert len(seen) > 1 and seen == sorted(set(seen))
    assert seen[-1] == input_bytes(path) > 64 << 10


# -- issue #15 §5: real Takeout shapes ---------------------------------------------------------


def by_title(docs: list[dict[str, Any]], title: str) -> dict[str, Any]:
    return next(d for d in docs if d["title"] == title)


def answer_to(docs: list[dict[str, Any]], prompt: str) -> dict[str, Any]:
    for doc in docs:
        for before, message in itertools.pairwise(doc["messages"]):
            if before["role"] == "user" and before["content"]["text"] == prompt:
                assert message["role"] == "assistant"
                return message
    raise AssertionError(prompt)


@pytest.mark.parametrize("locale", LOCALES)
def test_gemini_generated_images_are_the_answers_not_the_users_uploads(
    tmp_path: Path, locale: str, validator: Any
) -> None:
    """Issue #15 §5: Takeout lists the images Gemini generated among an event's files, like
    uploads; the response HTML shows them. They are image parts of the answer (importer
    mappings §3 maps the response to the assistant), never attachments of the prompt."""
    docs = read(place(tmp_path, gen.export(locale=locale), "zip", locale))
    doc = by_title(docs, "Draw this cat as a lighthouse keeper.")
    assert [e.message for e in validator.iter_errors(doc)] == []
    prompt, answer = doc["messages"][:2]
    assert [a["name"] for a in prompt["attachments"]] == [gen.UPLOAD]
    assert answer["content"] == {
        "type": "multipart",
        "parts": [
            {"type": "text", "text": "Here he is, on duty:"},
            {"type": "image", "ref": gen.GENERATED[0], "mime_type": "image/png"},
        ],
    }
    attached = [a["name"] for m in messages(docs) for a in m.get("attachments", [])]
    assert not set(attached) & set(gen.GENERATED)


def test_gemini_an_inline_image_is_not_copied_out_of_its_html(tmp_path: Path) -> None:
    """A response image given inline (a data: URI) is an image part without a ref: its
    bytes stay once, in the HTML kept in raw_metadata."""
    html = '<p>Here:</p><img src="data:image/png;base64,iVBORw0KGgo=">'
    event = {"header": "Gemini Apps", "title": "Prompted draw", "time": "2025-01-01T00:00:00Z",
             "safeHtmlItem": [{"html": html}]}  # fmt: skip
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps([event]), "utf-8")
    (doc,) = read(path)
    assert doc["messages"][1]["content"]["parts"] == [
        {"type": "text", "text": "Here:"},
        {"type": "image", "ref": None, "mime_type": "image/png"},
    ]
    assert doc["messages"][1]["raw_metadata"]["safeHtmlItem"] == [{"html": html}]


def test_gemini_an_upload_listed_twice_is_attached_once(tmp_path: Path) -> None:
    """Issue #15 §5: Takeout names an upload in both `attachedFiles` and `imageFile`; the
    prompt carries it once."""
    event = next(e for e in gen.events() if e.get("imageFile") == gen.UPLOAD)
    assert gen.UPLOAD in event["attachedFiles"]
    docs = read(place(tmp_path, gen.export(), "folder"))
    attached = [a["name"] for m in messages(docs) for a in m.get("attachments", [])]
    assert attached.count(gen.UPLOAD) == 2  # once here, once on an older prompt that sent it
    prompt = by_title(docs, "Draw this cat as a lighthouse keeper.")["messages"][0]
    assert prompt["attachments"] == [
        {"type": "image", "name": gen.UPLOAD, "mime_type": "image/jpeg", "ref": gen.UPLOAD}
    ]


def test_gemini_an_image_only_answer_is_an_image_not_an_empty_message(tmp_path: Path) -> None:
    """Issue #15 §5: an answer that is an image and nothing else was an empty assistant
    message; it is the image. No assistant message is left without content."""
    docs = read(place(tmp_path, gen.export(), "file"))
    answer = answer_to(docs, "Agora à noite, só a imagem.")
    assert answer["content"] == {
        "type": "multipart",
        "parts": [{"type": "image", "ref": gen.GENERATED[1], "mime_type": "image/jpeg"}],
    }
    for message in messages(docs):
        content = message["content"]
        assert content.get("text") or content.get("parts"), message


def test_gemini_standalone_events_make_no_empty_conversations(tmp_path: Path) -> None:
    """Issue #15 §5: events that carry no message ("Used Gemini Apps", feedback) with a
    conversation id of their own, or far in time from any prompt, made conversations with no
    message. None is written; each event is kept, verbatim, with the conversation nearest
    in time (`raw_metadata.standalone_events`)."""
    log = gen.events()
    docs = read(place(tmp_path, gen.export(), "file"))
    assert all(doc["messages"] for doc in docs)
    shell_id = next(
        e["titleUrl"].rsplit("/", 1)[1]
        for e in log
        if not carries_messages(e) and "/app/" in e.get("titleUrl", "")
        and not any(carries_messages(o) and o.get("titleUrl") == e["titleUrl"] for o in log)
    )  # fmt: skip
    assert shell_id not in {d["provider"]["conversation_id"] for d in docs}
    standalone = [e["event"] for d in docs for e in d["raw_metadata"].get("standalone_events", [])]
    assert len(standalone) >= 3
    assert any(e.get("titleUrl", "").endswith(shell_id) for e in standalone)
    canvas = by_title(docs, gen._WORDS["en"]["canvas"] + gen.CANVAS_TITLE)
    # The Canvas is the last conversation before them: they are kept with it.
    assert [e["event"]["time"] for e in canvas["raw_metadata"]["standalone_events"]] == sorted(
        e["time"] for e in standalone if e["time"] > canvas["temporal"]["created_at"]
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_gemini_canvas_documents_are_read_as_assistant_messages(
    tmp_path: Path, locale: str, validator: Any
) -> None:
    """Issue #15 §5: a "Created Gemini Canvas titled …" event holds the document Gemini
    wrote (text and code) beside a `details` entry that is neither Request nor Response; it
    was read as no message at all. It is an assistant message: headings, table and code as
    Markdown, the code exactly as written."""
    docs = read(place(tmp_path, gen.export(locale=locale), "zip", locale))
    title = gen._WORDS[locale]["canvas"] + gen.CANVAS_TITLE
    doc = by_title(docs, title)
    assert [e.message for e in validator.iter_errors(doc)] == []
    (message,) = doc["messages"]
    assert message["role"] == "assistant"
    text = message["content"]["text"]
    assert text.startswith("# Plano de estudos\n\nQuatro semanas, uma hora por dia.")
    assert "| Semana | Tema |\n| --- | --- |\n| 1 | Tipos e funções |" in text
    assert "| 2 | Listas \\| dicionários |" in text
    assert f"```python\n{gen.CANVAS_CODE.rstrip()}\n```" in text
    assert "[o tutorial oficial](https://docs.python.org/3/tutorial/)" in text


def test_gemini_links_keep_their_urls_in_message_text(tmp_path: Path) -> None:
    """Issue #15 §5: a link's URL was lost from the message text (only its words stayed);
    it is kept as a Markdown link."""
    docs = read(place(tmp_path, gen.export(), "file"))
    answers = [text_of(m) for m in messages(docs) if m["role"] == "assistant"]
    linked = [a for a in answers if "Fonte:" in a]
    assert linked
    for answer in linked:
        assert "Fonte: [example\u00a0org](https://example.org/x?a=1&b=2)" in answer or (
            "Fonte: [example org](https://example.org/x?a=1&b=2)" in answer
        )


def test_gemini_tables_stay_markdown_tables(tmp_path: Path) -> None:
    """Issue #15 §5: an HTML table was flattened into a run of words; it is a Markdown pipe
    table, its first row the header."""
    docs = read(place(tmp_path, gen.export(), "file"))
    answer = answer_to(docs, "Quanto tempo leva cada pão?")
    assert answer["content"]["text"] == (
        "Compare:\n\n| Pão | Tempo |\n| --- | --- |\n| Broa de milho | 1 h |\n"
        "| Pão de forma | 3 h |"
    )


def assistant_log(tmp_path: Path) -> Path:
    path = tmp_path / "Takeout" / "My Activity" / "Assistant" / "MyActivity.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(gen.assistant_events()), "utf-8")
    return path


def test_gemini_importer_refuses_a_log_with_nothing_conversational(tmp_path: Path) -> None:
    """Issue #15 §5: a Google Assistant activity log read as Gemini's gave one empty
    conversation per event, silently. The importer refuses it, naming what it found."""
    path = assistant_log(tmp_path)
    with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
        list(gemini.IMPORTER.read(target, context(path.name)))
    message = str(caught.value)
    assert "none of its 12 activity events is a Gemini prompt, response or Canvas" in message
    assert "'Assistant' ×12" in message and "not a Gemini Apps activity log" in message


def test_import_from_gemini_of_an_assistant_log_is_refused_and_writes_nothing(
    home: Path, tmp_path: Path
) -> None:
    """Issue #15 §5: `memvault import --from gemini` of a Google Assistant activity log
    exits non-zero with the reason, and the vault is left exactly as it was."""
    ok("init")
    before = snapshot()
    run = mv("import", assistant_log(tmp_path), "--from", "gemini")
    assert run.exit_code == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert "not a Gemini Apps activity log" in run.stderr
    assert "nothing was imported" in run.stderr
    assert snapshot() == before
    assert ok("stats", "--json").json()["conversations"] == 0


def test_gemini_a_log_of_only_records_imports_nothing_with_a_warning(tmp_path: Path) -> None:
    """Issue #15 §5: a Gemini log whose events carry no message (activity paused: only
    "Used Gemini Apps" records) writes no empty conversation, and says why."""
    log = [e for e in gen.events() if not carries_messages(e)]
    path = tmp_path / "MyActivity.json"
    path.write_text(json.dumps(log), "utf-8")
    ctx = context(path.name)
    with open_target(path) as target:
        assert list(gemini.IMPORTER.read(target, ctx)) == []
    assert ctx.warnings == [
        f"MyActivity.json: none of its {len(log)} activity events carries a Gemini prompt, "
        "response or Canvas (was Gemini Apps Activity paused?); nothing to import"
    ]


def test_gemini_an_empty_activity_log_is_said(tmp_path: Path) -> None:
    path = tmp_path / "MyActivity.json"
    path.write_text("[]", "utf-8")
    ctx = context(path.name)
    with open_target(path) as target:
        assert list(gemini.IMPORTER.read(target, ctx)) == []
    assert ctx.warnings == ["MyActivity.json: the activity log holds no events"]
