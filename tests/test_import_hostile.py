"""Hostile provider exports: zip bombs (total, per entry, ratio, a header that lies), `..` and
absolute paths, symbolic links, nested and encrypted archives, a CSV line of ten million
columns, a JSON array of a million empty objects, invalid UTF-8. Each is refused with a clear
error naming the entry, no traceback, nothing written outside the test's directory and the
vault exactly as it was (counts and audit log)."""

from __future__ import annotations

import io
import json
import stat
import struct
import time
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from clikit import home, mv, ok, snapshot
from memvault.importers import copilot, detect
from memvault.importers.base import ImportContext, ImportFormatError
from memvault.importers.csvsafe import MAX_COLUMNS, MAX_RECORD_CHARS, read_csv
from memvault.sources import open_target
from providergen import chatgpt as gen
from providergen import write_zip

__all__ = ["home"]  # the fixture, imported for pytest


@pytest.fixture
def vault(home: Path) -> Path:
    ok("init")
    ok("import", "-", "--from", "memory-text", input="- Lives in Porto\n- Gosta de chá\n")
    return home


def forged_zip(path: Path, entries: list[tuple[str, int, int, int, int]]) -> Path:
    """A zip whose central directory declares what the test wants: (name, uncompressed size,
    compressed size, flag bits, unix mode) per entry, with zip64 sizes. The data is a few
    bytes: an importer must refuse from the directory alone, before reading anything."""
    body = io.BytesIO()
    central = io.BytesIO()
    for name, size, packed, flags, mode in entries:
        raw = name.encode()
        offset = body.tell()
        data = b"{}"
        extra = struct.pack("<HHQQ", 1, 16, size, packed)
        body.write(
            struct.pack(
                "<4s5H3I2H",
                b"PK\x03\x04",
                45,
                flags,
                0,
                0,
                0,
                zlib.crc32(data),
                0xFFFFFFFF,
                0xFFFFFFFF,
                len(raw),
                len(extra),
            )
            + raw
            + extra
            + data
        )
        cd_extra = struct.pack("<HHQQQ", 1, 24, size, packed, offset)
        central.write(
            struct.pack(
                "<4s6H3I5H2I",
                b"PK\x01\x02",
                0x031E,
                45,
                flags,
                0,
                0,
                0,
                zlib.crc32(data),
                0xFFFFFFFF,
                0xFFFFFFFF,
                len(raw),
                len(cd_extra),
                0,
                0,
                0,
                mode << 16,
                0xFFFFFFFF,
            )
            + raw
            + cd_extra
        )
    start = body.tell()
    directory = central.getvalue()
    body.write(directory)
    end64 = body.tell()
    n = len(entries)
    body.write(struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, n, n,
                           len(directory), start))  # fmt: skip
    body.write(struct.pack("<4sIQI", b"PK\x06\x07", 0, end64, 1))
    body.write(struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF,
                           0xFFFFFFFF, 0))  # fmt: skip
    path.write_bytes(body.getvalue())
    return path


REGULAR = stat.S_IFREG | 0o644


def zip_with(path: Path, name: str, data: bytes, *, mode: int = REGULAR) -> Path:
    files = gen.export(seed=1, count=2)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in files.items():
            archive.writestr(member, content)
        info = zipfile.ZipInfo(name)
        info.external_attr = mode << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, data)
    return path


def lying_zip(path: Path) -> Path:
    """conversations.json whose headers declare 2,000 bytes for ten megabytes of data."""
    real = b"[" + b" " * (10 << 20) + b"]"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", real)
    data = bytearray(path.read_bytes())
    declared = struct.pack("<I", len(real))
    for at in range(len(data) - 4):
        if data[at : at + 4] == declared:
            data[at : at + 4] = struct.pack("<I", 2000)
    path.write_bytes(bytes(data))
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "total": (
        lambda d: forged_zip(
            d / "export.zip",
            [(f"part{i}.json", 0xFFFF0000, 30_000_000, 0, REGULAR) for i in range(5)],
        ),
        "part4.json: archive expands to more than 16 GiB",
    ),
    "per-entry": (
        lambda d: forged_zip(
            d / "export.zip", [("conversations.json", 5 << 30, 100 << 20, 0, REGULAR)]
        ),
        "conversations.json: entry expands to 5368709120 bytes",
    ),
    "ratio": (
        lambda d: zip_with(d / "export.zip", "conversations-1.json", bytes(8 << 20)),
        "conversations-1.json: compression ratio",
    ),
    "header-lies": (lambda d: lying_zip(d / "export.zip"), "conversations.json"),
    "dotdot": (
        lambda d: zip_with(d / "export.zip", "../../evil.json", b"{}"),
        "../../evil.json: path escapes the archive",
    ),
    "absolute": (
        lambda d: zip_with(d / "export.zip", "/etc/evil.json", b"{}"),
        "/etc/evil.json: absolute path in archive",
    ),
    "symlink": (
        lambda d: zip_with(
            d / "export.zip", "link.json", b"/etc/passwd", mode=stat.S_IFLNK | 0o777
        ),
        "link.json: entry is a symbolic link",
    ),
    "nested": (
        lambda d: zip_with(d / "export.zip", "more/inner.zip", b"PK\x05\x06" + bytes(18)),
        "more/inner.zip: entry is an archive inside the archive",
    ),
    "encrypted": (
        lambda d: forged_zip(d / "export.zip", [("conversations.json", 2, 2, 0x1, REGULAR)]),
        "conversations.json: entry is encrypted",
    ),
}


def listing(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if "vault" not in p.parts}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["import", "convert"])
def test_hostile_archives_are_refused_and_nothing_changes(
    case: str, command: str, vault: Path, tmp_path: Path
) -> None:
    build, expected = CASES[case]
    work = tmp_path / "work"
    work.mkdir()
    path = build(work)
    before_files = listing(tmp_path)
    before = snapshot()
    args = ["--from", "chatgpt"] if case == "header-lies" else []
    if command == "import":
        run = mv("import", path, *args)
    else:
        run = mv("convert", path, "-o", work / "out", *args)
    assert run.exit_code == 1, (run.stdout, run.stderr)
    assert "Traceback" not in run.stdout + run.stderr
    assert expected in run.stderr, run.stderr
    assert str(path) in run.stderr or "conversations.json" in run.stderr
    assert listing(tmp_path) == before_files  # nothing extracted, no output left
    assert snapshot() == before


def test_a_million_empty_objects_is_refused_at_the_first(vault: Path, tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(b"[" + b"{}," * 999_999 + b"{}]")
    before = snapshot()
    run = mv("import", path, "--from", "chatgpt")
    assert run.exit_code == 1
    assert "conversations.json: conversation 0: field 'mapping'" in run.stderr
    # Without --from the file is not taken for a ChatGPT export at all.
    detected = mv("import", path)
    assert detected.exit_code == 1
    assert "Traceback" not in detected.stdout + detected.stderr
    assert snapshot() == before


def test_json_array_of_empty_objects_is_not_detected(vault: Path, tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_bytes(b"[" + b"{}," * 999_999 + b"{}]")
    run = mv("convert", path, "-o", tmp_path / "out")
    assert run.exit_code == 1
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists()


def test_invalid_utf8_names_the_entry_and_conversation(vault: Path, tmp_path: Path) -> None:
    files = gen.export(seed=2, count=5)
    data = files["conversations.json"]
    at = data.index(b"Conversation 4")
    files["conversations.json"] = data[:at] + b"\xff\xfe" + data[at + 2 :]
    path = write_zip(files, tmp_path / "export.zip")
    before = snapshot()
    run = mv("import", path)
    assert run.exit_code == 1
    assert "export.zip:conversations.json: conversation 4: not valid JSON" in run.stderr
    # The parser's own words, as text (yajl gives them as bytes), without its drawing.
    assert "(lexical error: invalid bytes in UTF8 string.)" in run.stderr
    assert "b'" not in run.stderr and "right here" not in run.stderr
    assert snapshot() == before


WIDE_LINE = b"c1,2024-05-01 10:00,user," + b"," * 10_000_000 + b"\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_ten_million_csv_columns_are_refused_fast_in_bounded_memory(
    tmp_path: Path, encoding: str
) -> None:
    """A Copilot-looking CSV whose second line has ten million columns (UTF-8, UTF-8 with a
    byte order mark, UTF-16 with one): the CSV reader refuses the row after at most
    MAX_RECORD_CHARS characters, before csv parses it — in well under a second per encoding
    and far less memory than the line."""
    path = tmp_path / "copilot-activity-history.csv"
    text = (b"Conversation,Time,Author,Message\n" + WIDE_LINE).decode()
    path.write_bytes(text.encode(encoding))
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with path.open("rb") as stream, pytest.raises(ImportFormatError) as caught:
            list(read_csv(stream, path.name))
        elapsed = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith(f"{path.name}: row 2: record longer than")
    assert elapsed < 3, elapsed
    assert peak < 4 * MAX_RECORD_CHARS, peak


def test_csv_rows_and_columns_are_bounded_and_quotes_kept() -> None:
    # A narrower line of too many columns is refused by its comma count, quotes aside.
    small = io.BytesIO(b"a,b\n" + b"," * (MAX_COLUMNS + 5) + b"\n")
    with pytest.raises(ImportFormatError, match=rf"x.csv: row 2: more than {MAX_COLUMNS} col"):
        list(read_csv(small, "x.csv"))
    quoted = io.BytesIO(b'a,b\n"' + b"," * (MAX_COLUMNS + 5) + b'",z\n')
    assert list(read_csv(quoted, "q.csv"))[1] == (2, ["," * (MAX_COLUMNS + 5), "z"])
    # Quoted newlines and commas stay inside their field; rows count records, not lines.
    for encoding in ("utf-8-sig", "utf-16"):
        good = io.BytesIO('a,b\r\n"x, y","line 1\nline 2"\r\nc,d\r\n'.encode(encoding))
        assert list(read_csv(good, "g.csv")) == [
            (1, ["a", "b"]),
            (2, ["x, y", "line 1\nline 2"]),
            (3, ["c", "d"]),
        ]


@pytest.mark.slow
def test_ten_million_csv_columns_through_the_cli(vault: Path, tmp_path: Path) -> None:
    path = tmp_path / "copilot-activity-history.csv"
    with path.open("wb") as out:
        out.write(b"Conversation,Time,Author,Message\n")
        out.write(WIDE_LINE)
    before = snapshot()
    run = mv("import", path)
    assert run.exit_code == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert f"{path.name}: row 2: record longer than" in run.stderr
    assert snapshot() == before


def test_bad_csv_utf8_names_the_row() -> None:
    stream = io.BytesIO(b"a,b\nc,d\n\xff,e\n")
    with pytest.raises(ImportFormatError, match=r"x.csv: row 2: not UTF-8 or UTF-16 text"):
        list(read_csv(stream, "x.csv"))
    # Decoding runs a chunk ahead of the rows: the row named is the one being read when the
    # chunk holding the bad byte was decoded, at most a chunk before it.
    far = io.BytesIO(b"a,b\n" + b"c,d\n" * 5000 + b"\xff,e\n")
    with pytest.raises(ImportFormatError, match=r"x.csv: row \d+: not UTF-8") as caught:
        list(read_csv(far, "x.csv"))
    row = int(caught.value.where.rsplit(" ", 1)[1])
    assert 5001 - 8192 // 4 <= row <= 5002


def test_copilot_reads_csv_through_the_bounded_reader(tmp_path: Path) -> None:
    """The Copilot importer has no CSV reading of its own: its errors are the reader's."""
    path = tmp_path / "copilot-activity-history.csv"
    path.write_bytes(b"Conversation,Time,Author,Message\n" + b"," * (MAX_COLUMNS + 1) + b"\n")
    with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
        list(copilot.IMPORTER.read(target, ImportContext("2026-01-01T00:00:00Z", "t", "p")))
    assert str(caught.value) == (
        f"{path}: row 2: more than {MAX_COLUMNS} columns; a Copilot export has a few"
    )


def test_nothing_recognized_lists_what_every_importer_looks_for(tmp_path: Path) -> None:
    """The error for an input no importer recognizes names, for every provider, what its
    sniff looks for — and those are the files and fields the importers really use."""
    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}', "utf-8")
    with open_target(path) as target, pytest.raises(detect.DetectionError) as caught:
        detect.detect(target)
    message = str(caught.value)
    assert set(detect.LOOKED_FOR) == set(detect.REGISTRY)
    for module in detect.REGISTRY:
        assert f"{module.replace('_', '-')}: {detect.LOOKED_FOR[module]}" in message
    assert "its own files" not in message
    looked = detect.LOOKED_FOR
    for name in ("conversations.json", "memories.json", "projects.json", "users.json"):
        assert name in looked["claude"]
    assert "chat_messages" in looked["claude"]
    from memvault.importers import claude, gemini, grok

    assert all(pattern.pattern.decode().split('"')[1].split("|")[0].strip("(") in looked["claude"]
               for _, pattern in claude._HEADS)  # fmt: skip
    assert grok.MAIN_FILE in looked["grok"]
    assert all(f"'{section}'" in looked["grok"] for section in grok.SECTIONS)
    assert "My Activity/Gemini Apps/MyActivity.json" in looked["gemini"]
    assert "MinhaAtividade.json" in looked["gemini"]
    assert all(p[1] in looked["gemini"].lower() for p in gemini._ACTIVITY_PATHS)
    for known in copilot._KNOWN_FILES:
        assert known in looked["copilot"].lower()
    for layout in copilot.LAYOUTS:
        assert all(column in looked["copilot"] for column in layout.required)


def test_forged_zip_helper_is_a_real_zip(tmp_path: Path) -> None:
    """The forging helper writes what zipfile reads (the tests above rely on it)."""
    path = forged_zip(tmp_path / "a.zip", [("x.json", 123, 45, 0, REGULAR)])
    with zipfile.ZipFile(path) as archive:
        (info,) = archive.infolist()
    assert (info.filename, info.file_size, info.compress_size) == ("x.json", 123, 45)
    assert json.loads(b"{}") == {}
