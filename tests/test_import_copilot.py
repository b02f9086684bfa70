"""The Copilot importer (PAM §25, importer mappings §4): Privacy Dashboard CSV files become
normalized conversations that validate against the official schema, lose nothing, read the
same chat in two files once, and fail fast and clearly on hostile or malformed CSV."""

from __future__ import annotations

import codecs
import itertools
import json
import time
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from importkit import context as make_context
from importkit import conversation_validator, input_bytes, messages, progress_of
from memvault.importers import copilot
from memvault.importers.base import ImportContext, ImportFormatError
from memvault.importers.common import rfc3339
from memvault.importers.csvsafe import MAX_COLUMNS, MAX_FIELD_CHARS, MAX_RECORD_CHARS
from memvault.importers.detect import detect
from memvault.sources import open_target
from providergen import copilot as gen
from providergen import write_folder, write_zip

IMPORTED_AT = "2026-11-21T10:00:00Z"
FORMS = ("zip", "folder")


def read_target(path: Path, ctx: ImportContext | None = None) -> list[dict[str, Any]]:
    with open_target(path) as target:
        records = list(copilot.IMPORTER.read(target, ctx or context(path.name)))
    return [dict(r.document) for r in records]  # type: ignore[union-attr]


def context(source: str = "export.zip") -> ImportContext:
    return make_context(source, IMPORTED_AT)


def place(tmp_path: Path, form: str, files: dict[str, bytes] | None = None) -> Path:
    files = files if files is not None else gen.export()
    if form == "zip":
        return write_zip(files, tmp_path / "Copilot.zip", folder="Copilot")
    return write_folder(files, tmp_path / "copilot-export")


def single(tmp_path: Path, name: str, data: bytes | None = None) -> Path:
    path = tmp_path / name
    path.write_bytes(data if data is not None else gen.export()[name])
    return path


def by_source(docs: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """Each source row (file, row number) → the message it became."""
    found = {}
    for message in messages(docs):
        for source in message["raw_metadata"]["rows"]:
            found[(source["file"].rsplit("/", 1)[-1], source["row"])] = message
    return found


def stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture(scope="module")
def validator() -> Any:
    return conversation_validator()


@pytest.mark.parametrize("form", FORMS)
def test_pam_25_every_row_text_time_and_field_arrives(
    tmp_path: Path, form: str, validator: Any
) -> None:
    docs = read_target(place(tmp_path, form))
    for doc in docs:
        errors = [e.message for e in validator.iter_errors(doc)]
        assert errors == [], errors
    found = by_source(docs)
    truth = gen.rows()
    assert set(found) == {(r.file, r.number) for r in truth}
    for row in truth:
        message = found[(row.file, row.number)]
        # The full text wherever one exists in the export; a cut copy stays in raw_metadata.
        has_full = any(r.full == row.full and not r.truncated for r in truth if r.chat == row.chat)
        expected = row.full if has_full else row.text
        assert message["content"]["text"] == expected
        source = next(
            s for s in message["raw_metadata"]["rows"] if s["file"].endswith(row.file)
            and s["row"] == row.number
        )  # fmt: skip
        # Every cell written arrives: the text as the content (or, cut, beside it), every
        # other cell verbatim under its column name.
        text_column = next(c for c in gen.HEADERS[row.file] if c in gen.TEXT_COLUMNS)
        for column, cell in zip(gen.HEADERS[row.file], gen.cells(row), strict=True):
            if column == text_column and cell == expected:
                assert column not in source  # it is the content; not stored twice
            else:
                assert source[column] == cell, (column, source)
        if row.when is not None:
            assert message["created_at"] == stamp(row.when)
    assert all(m["role"] in ("user", "assistant") for m in messages(docs))


@pytest.mark.parametrize("name", [gen.ACTIVITY, gen.CHAT, gen.M365, gen.WINDOWS])
def test_pam_25_each_file_alone_gives_every_row(tmp_path: Path, name: str, validator: Any) -> None:
    docs = read_target(single(tmp_path, name))
    assert all(validator.is_valid(doc) for doc in docs)
    found = by_source(docs)
    truth = [r for r in gen.rows() if r.file == name]
    assert set(found) == {(r.file, r.number) for r in truth}
    for row in truth:
        message = found[(row.file, row.number)]
        assert message["content"]["text"] == row.text  # alone, a cut text has no full copy
        assert message["raw_metadata"]["truncated"] is row.truncated
        if row.when is not None:
            assert message["created_at"] == stamp(row.when)


def test_pam_25_the_same_chat_in_two_files_is_one_conversation(tmp_path: Path) -> None:
    docs = read_target(place(tmp_path, "folder"))
    shared = [d for d in docs if d["title"] == "Receitas vegetarianas"]
    assert len(shared) == 1
    (doc,) = shared
    truth = [r for r in gen.rows() if r.chat == "Receitas vegetarianas"]
    assert len(doc["messages"]) == len({(r.when, r.full) for r in truth}) < len(truth)
    assert doc["raw_metadata"]["files"] == [gen.ACTIVITY, gen.CHAT]
    for message in doc["messages"]:
        files = {s["file"] for s in message["raw_metadata"]["rows"]}
        assert files == {gen.ACTIVITY, gen.CHAT}
        assert message["raw_metadata"]["truncated"] is False
    roles = [m["role"] for m in doc["messages"]]
    assert roles == ["user", "assistant", "user", "assistant"]


def test_ids_come_from_content_not_from_files_or_their_order(tmp_path: Path) -> None:
    files = gen.export()
    both = read_target(place(tmp_path, "folder"))
    alone = read_target(single(tmp_path, gen.ACTIVITY))
    shared_both = next(d for d in both if d["title"] == "Receitas vegetarianas")
    shared_alone = next(d for d in alone if d["title"] == "Receitas vegetarianas")
    assert shared_both["id"] == shared_alone["id"]
    assert [m["id"] for m in shared_both["messages"]] == [m["id"] for m in shared_alone["messages"]]
    renamed = {f"z-{name}" if name == gen.ACTIVITY else f"a-{name}": d for name, d in files.items()}
    swapped = read_target(write_folder(renamed, tmp_path / "renamed"))
    assert [d["id"] for d in swapped] == [d["id"] for d in both]
    assert [[m["id"] for m in d["messages"]] for d in swapped] == [
        [m["id"] for m in d["messages"]] for d in both
    ]


def test_ai_text_cut_to_100_characters_is_flagged_truncated(tmp_path: Path) -> None:
    docs = read_target(place(tmp_path, "zip"))
    doc = next(d for d in docs if d["title"] == "Resumo de reunião")
    cut = [m for m in doc["messages"] if m["raw_metadata"]["truncated"]]
    assert len(cut) == 1
    text = cut[0]["content"]["text"]
    assert len(text) == 103 and text.endswith("...") and cut[0]["role"] == "assistant"
    assert gen.MEETING.startswith(text[:100])
    flagged = [m for m in messages(docs) if m["raw_metadata"]["truncated"]]
    only_here = next(d for d in docs if d["raw_metadata"]["chat_name"] == "Só aqui 🌧️")
    assert flagged == cut + [m for m in only_here["messages"] if m["role"] == "assistant"]


def test_copilot_cut_counts_utf16_code_units_so_emoji_texts_are_truncated_and_restored(
    tmp_path: Path,
) -> None:
    """Issue #15 §5 (importer-mappings §4): Microsoft cuts AI text at 100 UTF-16 code units
    plus "...", so a text with emoji is cut at fewer than 100 characters (or through an
    emoji's surrogate pair, written as U+FFFD). Such a cut copy is flagged truncated, and
    merges with its full copy in the other CSV, which it no longer duplicates."""
    for answer in (gen.EMOJI_WHOLE, gen.EMOJI_SPLIT, gen.EMOJI_ONLY_HERE):
        text = gen.cut(answer)
        assert len(text) < 103 or "\ufffd" in text  # the Python-character count is fooled
        assert copilot.is_truncated(text, "assistant")
        assert copilot.utf16_units(text) == 103
    docs = read_target(place(tmp_path, "folder"))
    (party,) = [d for d in docs if d["raw_metadata"]["chat_name"] == "Festa 🎉"]
    answers = [m for m in party["messages"] if m["role"] == "assistant"]
    assert [m["content"]["text"] for m in answers] == [gen.EMOJI_WHOLE, gen.EMOJI_SPLIT]
    for message in answers:
        assert message["raw_metadata"]["truncated"] is False
        rows = message["raw_metadata"]["rows"]
        assert {r["file"] for r in rows} == {gen.ACTIVITY, gen.CHAT}
        cut_copy = next(r for r in rows if r["file"] == gen.CHAT)
        assert cut_copy["MessageContent"] == gen.cut(message["content"]["text"])
    assert len(party["messages"]) == 4
    (alone,) = [d for d in docs if d["raw_metadata"]["chat_name"] == "Só aqui 🌧️"]
    (kept,) = [m for m in alone["messages"] if m["role"] == "assistant"]
    assert kept["raw_metadata"]["truncated"] is True
    assert kept["content"]["text"] == gen.cut(gen.EMOJI_ONLY_HERE)


def test_chat_name_then_time_gap_makes_conversations(tmp_path: Path) -> None:
    docs = read_target(place(tmp_path, "folder"))
    greetings = [d for d in docs if d["raw_metadata"]["chat_name"] == "Greeting"]
    assert len(greetings) == 2  # two sessions two days apart
    for doc in docs:
        times = [datetime.fromisoformat(m["created_at"]) for m in doc["messages"]]
        assert times == sorted(times)
        assert all(b - a <= copilot.CHAT_GAP for a, b in itertools.pairwise(times))
        assert doc["temporal"]["created_at"] == doc["messages"][0]["created_at"]
        assert doc["temporal"]["updated_at"] == doc["messages"][-1]["created_at"]
        assert doc["provider"] == {
            "name": "copilot",
            "conversation_id": None,
            "export_format_version": "privacy-dashboard-csv",
        }
        assert doc["import_metadata"]["importer_version"] == "copilot-importer/2026.11.1"
    starts = sorted(d["temporal"]["created_at"] for d in greetings)
    gap = datetime.fromisoformat(starts[1]) - datetime.fromisoformat(starts[0])
    assert gap > copilot.CHAT_GAP


def test_missing_time_falls_back_to_the_row_before_it_never_now(tmp_path: Path) -> None:
    truth = gen.rows()
    missing = next(r for r in truth if r.when is None)
    before = next(
        r for r in reversed(truth) if r.file == missing.file and r.number < missing.number
    )
    assert before.when is not None
    message = by_source(read_target(place(tmp_path, "zip")))[(missing.file, missing.number)]
    assert message["created_at"] == stamp(before.when)
    assert message["raw_metadata"]["rows"][0]["time_missing"] is True


def test_reading_twice_and_packaging_give_identical_documents(tmp_path: Path) -> None:
    zipped = place(tmp_path, "zip")
    first, second = read_target(zipped, context()), read_target(zipped, context())
    assert first == second
    folder = read_target(place(tmp_path, "folder"), context())
    assert [d["id"] for d in folder] == [d["id"] for d in first]
    flat = [i for d in first for i in (d["id"], *(m["id"] for m in d["messages"]))]
    assert len(flat) == len(set(flat))


def test_small_batches_give_the_same_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory stays bounded: with a tiny batch the files are read in many passes."""
    path = place(tmp_path, "zip")
    whole = read_target(path, context())
    monkeypatch.setattr(copilot, "BATCH_CHARS", 1)
    assert read_target(path, context()) == whole


def test_byte_order_marks_and_utf16_are_read(tmp_path: Path) -> None:
    data = gen.export()[gen.ACTIVITY]
    assert data.startswith(codecs.BOM_UTF8)
    (tmp_path / "utf8").mkdir()
    (tmp_path / "utf16").mkdir()
    utf8 = read_target(single(tmp_path / "utf8", gen.ACTIVITY, data))
    utf16_data = data.decode("utf-8-sig").encode("utf-16")
    utf16 = read_target(single(tmp_path / "utf16", gen.ACTIVITY, utf16_data))
    assert [m["content"] for m in messages(utf8)] == [m["content"] for m in messages(utf16)]
    assert [m["id"] for m in messages(utf8)] == [m["id"] for m in messages(utf16)]
    # the header's first column is read without the BOM
    assert all("Conversation" in m["raw_metadata"]["rows"][0] for m in messages(utf8))


def test_other_dashboard_files_are_skipped_with_a_warning(tmp_path: Path) -> None:
    ctx = context()
    docs = read_target(place(tmp_path, "zip"), ctx)
    assert "example.org" not in json.dumps(docs)
    assert len(ctx.warnings) == 1 and gen.OTHER in ctx.warnings[0]


@pytest.mark.parametrize("form", [*FORMS, "file"])
def test_sniff_and_detect_recognize_the_export(tmp_path: Path, form: str) -> None:
    path = single(tmp_path, gen.CHAT) if form == "file" else place(tmp_path, form)
    with open_target(path) as target:
        assert copilot.IMPORTER.sniff(target)
        assert detect(target) is copilot.IMPORTER


def test_sniff_knows_the_header_under_any_name(tmp_path: Path) -> None:
    renamed = single(tmp_path, "my-chats.csv", gen.export()[gen.CHAT])
    other = single(tmp_path, "browsing.csv", gen.export()[gen.OTHER])
    with open_target(renamed) as target:
        assert copilot.IMPORTER.sniff(target)
    with open_target(other) as target:
        assert not copilot.IMPORTER.sniff(target)


def test_times_in_both_formats_become_rfc3339_utc() -> None:
    cases = {
        "2026-02-17T14:36:11": "2026-02-17T14:36:11Z",
        "2026-02-17T14:36:11.1234567Z": "2026-02-17T14:36:11.123456Z",
        "2026-02-17 11:36:11-03:00": "2026-02-17T14:36:11Z",
        "2/17/2026 2:36:11 PM +00:00": "2026-02-17T14:36:11Z",
        "2/17/2026 11:36:11 AM -03:00": "2026-02-17T14:36:11Z",
        "2/17/2026 12:05:00 AM +00:00": "2026-02-17T00:05:00Z",
        "12/1/2026 15:36:11 +01:00": "2026-12-01T14:36:11Z",
        "2/17/2026 14:36": "2026-02-17T14:36:00Z",
    }
    for given, expected in cases.items():
        parsed = copilot.parse_time(given)
        assert parsed is not None
        assert rfc3339(parsed) == expected, given
    assert copilot.parse_time("  ") is None
    for bad in ("yesterday", "13/45/2026 10:00:00", "2/17/2026 13:00:00 PM"):
        with pytest.raises(ValueError):
            copilot.parse_time(bad)


HEADER = "Conversation,Time,Author,Message\n"
BAD = [
    (
        "columns-few",
        HEADER + "a,2026-01-01T00:00:00,user\n",
        "row 2: 3 columns where the header has 4",
    ),
    ("time", HEADER + "a,someday,user,hi\n", "row 2: field 'Time': 'someday' is not a timestamp"),
    ("author", HEADER + "a,2026-01-01T00:00:00,,hi\n", "row 2: field 'Author': empty"),
    ("header", "When,Who,What\n1,2,3\n", "row 1 (header): not a Copilot export header"),
    ("open-quote", HEADER + 'a,2026-01-01T00:00:00,user,"hi\n', "row 2: not valid CSV"),
    ("stray-quote", HEADER + 'a,2026-01-01T00:00:00,user,"hi" there\n', "row 2: not valid CSV"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_malformed_csv_is_a_clear_import_format_error(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = single(tmp_path, gen.ACTIVITY, text.encode("utf-8"))
    with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
        list(copilot.IMPORTER.read(target, context()))
    assert message in str(caught.value)
    assert str(path) in caught.value.where


def test_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    latin1 = (HEADER + "a,2026-01-01T00:00:00,user,caf\xe9\n").encode("latin-1")
    path = single(tmp_path, gen.ACTIVITY, latin1)
    with open_target(path) as target, pytest.raises(ImportFormatError, match="not UTF-8"):
        list(copilot.IMPORTER.read(target, context()))


def _hostile(tmp_path: Path, name: str, body: Iterator[bytes]) -> Path:
    path = tmp_path / name
    with path.open("wb") as handle:
        for chunk in body:
            handle.write(chunk)
    return path


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        # ten million columns of one character: 20 MB in one record
        (
            "wide",
            lambda: [HEADER.encode(), b"a," * 10_000_000, b"\n"],
            f"row 2: record longer than {MAX_RECORD_CHARS} characters (not a Copilot export",
        ),
        # four million empty columns: short enough for the record bound, not for the columns
        (
            "empty-columns",
            lambda: [HEADER.encode(), b"," * 4_000_000, b"\n"],
            f"row 2: more than {MAX_COLUMNS} columns; a Copilot export has a few",
        ),
        # a header of ten million columns
        (
            "wide-header",
            lambda: [b"Conversation,Time,Author,Message" + b",x" * 10_000_000 + b"\n"],
            "row 1: record longer than",
        ),
        # one quoted field of 20 MB spanning many lines
        (
            "huge-field",
            lambda: [
                HEADER.encode(),
                b'a,2026-01-01T00:00:00,user,"',
                (b"0123456789" * 100 + b"\n") * 20_000,
                b'"\n',
            ],
            f"row 2: not valid CSV (a field longer than {MAX_FIELD_CHARS} characters)",
        ),
    ],
    ids=["wide", "empty-columns", "wide-header", "huge-field"],
)
def test_hostile_csv_fails_fast_without_reading_it_whole(
    tmp_path: Path, name: str, body: Any, message: str
) -> None:
    path = _hostile(tmp_path, f"{name}.csv", iter(body()))
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
            list(copilot.IMPORTER.read(target, context()))
        elapsed = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert message in str(caught.value), str(caught.value)
    # parsed whole, ten million fields would take far more than this
    assert peak < 100 << 20, peak
    assert elapsed < 5, elapsed


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_ten_million_columns_in_utf16_or_utf8_fail_fast(tmp_path: Path, encoding: str) -> None:
    """The same bound whatever the encoding: a UTF-16 line of ten million columns is refused
    after MAX_RECORD_CHARS characters, not read whole."""
    line = HEADER + "a,2026-01-01T00:00:00,user," + "," * 10_000_000 + "\n"
    path = single(tmp_path, gen.ACTIVITY, line.encode(encoding))
    began = time.perf_counter()
    with open_target(path) as target, pytest.raises(ImportFormatError, match="row 2: record"):
        list(copilot.IMPORTER.read(target, context()))
    assert time.perf_counter() - began < 5


@pytest.mark.parametrize("form", ["folder", "file"])
def test_progress_advances_and_ends_at_the_size_read(tmp_path: Path, form: str) -> None:
    """ImportContext.progress: the bytes of the CSV files read so far (the first pass;
    later passes reread batches and report nothing), rising, ending at their size."""
    big = HEADER + "".join(
        f"Chat {n % 40},2026-01-{1 + n % 28:02d}T10:{n % 60:02d}:00,user,message {n} "
        + "x" * 80
        + "\n"
        for n in range(3000)
    )
    files = {gen.ACTIVITY: big.encode("utf-8"), gen.CHAT: gen.export()[gen.CHAT]}
    path = write_folder(files, tmp_path / "export") if form == "folder" else None
    path = path or single(tmp_path, gen.ACTIVITY, files[gen.ACTIVITY])
    seen = progress_of(copilot.IMPORTER, path)
    assert len(seen) > 1 and seen == sorted(set(seen))
    assert seen[-1] == input_bytes(path) > 128 << 10
