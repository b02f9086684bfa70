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

from importkit import context as make_context
from importkit import conversation_validator, input_bytes, leaves, messages, progress_of
from memvault.importers import gemini
from memvault.importers.base import ImportContext, ImportedConversation, ImportFormatError
from memvault.importers.detect import detect
from memvault.sources import open_target
from providergen import gemini as gen
from providergen import write_folder, write_zip

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
    users = {m["content"]["text"] for m in messages(docs) if m["role"] == "user"}
    answers = "\n".join(m["content"]["text"] for m in messages(docs) if m["role"] == "assistant")
    created = {utc(m["created_at"]) for m in messages(docs)}
    for event in gen.events(locale=locale):
        for detail in event.get("details", []):
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
    urls = {e["titleUrl"].rsplit("/", 1)[1] for e in log if "/app/" in e.get("titleUrl", "")}
    assert set(by_id) == urls
    for cid, doc in by_id.items():
        events = [e for e in log if e.get("titleUrl", "").endswith(cid)]
        assert doc["temporal"]["created_at"] == min(e["time"] for e in events)
        assert doc["raw_metadata"]["grouping"] == "titleUrl"
    # Without ids: sorted by time, a new conversation after a gap of more than 30 minutes.
    loose = sorted(
        utc(e["time"]) for e in log if "time" in e and "/app/" not in e.get("titleUrl", "")
    )
    sessions = 1 + sum(1 for a, b in itertools.pairwise(loose) if b - a > gemini.SESSION_GAP)
    gap_docs = [d for d in docs if d["raw_metadata"]["grouping"] == "time-gap"]
    assert len(gap_docs) == sessions >= 2
    for doc in gap_docs:
        times = [utc(m["created_at"]) for m in doc["messages"]]
        assert times == sorted(times)
        assert all(b - a <= gemini.SESSION_GAP for a, b in itertools.pairwise(times))
    for doc in docs:
        first_user = next(m for m in doc["messages"] if m["role"] == "user")
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
    kept = [e for d in docs for e in d["raw_metadata"].get("events_without_messages", [])]
    assert len(kept) == 1 and "details" not in kept[0]["event"]


def test_attached_files_become_attachments(tmp_path: Path) -> None:
    docs = read(place(tmp_path, gen.export(), "zip"))
    names = {a["name"]: a for m in messages(docs) for a in m.get("attachments", [])}
    expected = {n for e in gen.events() for n in e.get("attachedFiles", [])}
    assert set(names) == expected
    assert names["foto-do-gato.jpg"]["type"] == "image"
    assert names["notes.pdf"]["type"] == "document"


def test_pam_25_import_metadata_comes_from_the_context(tmp_path: Path) -> None:
    docs = read(place(tmp_path, gen.export(), "zip"))
    for doc in docs:
        assert doc["import_metadata"] == {
            "importer": "memvault/0.1.0",
            "importer_version": "gemini-importer/2026.11",
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


def test_html_response_to_text() -> None:
    html = (
        "<h2>Título</h2><p>It is <b>4</b> &amp; more.</p><ol><li>one</li><li>dois</li></ol>"
        "<pre>a  b\n c</pre>x<br>y<script>no()</script>"
    )
    assert (
        gemini.html_to_text(html)
        == "Título\n\nIt is 4 & more.\n\n- one\n- dois\n\na  b\n c\n\nx\ny"
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
