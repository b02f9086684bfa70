"""A seeded mutation fuzzer over everything that reads untrusted bytes: the C entry points
(`memvault._speedups`, `memvault._memory_schema`, `memvault.importers._chatgpt`,
`memvault.importers._chatgpt_direct`, the SQLite extension `memvault.recall._tokenizer`), every
provider importer, and the PAM and AIMEM readers and validators.

It starts from valid inputs (the official PAM examples, examples/, the AIMEM corpus and the
provider generators in tests/providergen) and mutates them at the byte level (flips, inserted
tokens, deleted and repeated runs, truncation, splices, a run of brackets) and at the JSON level
(a value replaced by another type, a huge number, an escape-laden string, deep nesting, a
member removed or repeated). A finding is

- an exception that is not memvault's own error type (an internal error),
- a disagreement between a C path and its Python twin,
- a process over the memory limit, or a sanitizer report (both seen by `run_targets`, which
  runs each target in a child process and keeps the input it was on).

`python tests/fuzzing.py --seconds 600` runs every target for a share of the time (`make fuzz`
does it against a sanitizer build); `fuzz(target, seed, count)` runs one in-process for tests.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import orjson

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
if str(TESTS) not in sys.path:  # run as a script: the generators live beside this file
    sys.path.insert(0, str(TESTS))

from memvault._speedups import array_items, jcs_dumps, object_members, value_end  # noqa: E402

from memvault import canonical, jsonread  # noqa: E402
from memvault.errors import VaultError  # noqa: E402
from memvault.formats.aimem.errors import BundleError  # noqa: E402
from memvault.importers.base import ImportFormatError  # noqa: E402
from memvault.jsonread import JSONDocumentError  # noqa: E402
from memvault.sources import SourceError  # noqa: E402

#: What memvault raises for bad input: anything else escaping a target is a finding.
OWN_ERRORS: tuple[type[BaseException], ...] = (
    SourceError,
    ImportFormatError,
    JSONDocumentError,
    BundleError,
    VaultError,
    canonical.CanonicalizationError,
)
#: A child process whose peak resident memory passes this is a finding (MiB).
MEMORY_LIMIT_MB = int(os.environ.get("FUZZ_MEMORY_MB", "400"))
#: Every converter runs at this time: the C and Python paths are compared byte for byte.
NOW = datetime(2026, 11, 1, tzinfo=UTC)


class Finding(Exception):
    """A C/Python disagreement or a broken contract, found by a target's own check."""


# -- seeds -------------------------------------------------------------------------------------

Files = dict[str, bytes]


def _pam_seeds() -> list[bytes]:
    official = TESTS / "fixtures" / "pam-official"
    return [
        (official / "example-memory-store.json").read_bytes(),
        (official / "example-conversation.json").read_bytes(),
        (official / "example-embeddings.json").read_bytes(),
        (REPO / "examples" / "memory-store.json").read_bytes(),
        (REPO / "examples" / "export" / "memory-store.json").read_bytes(),
    ]


def _aimem_seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted((TESTS / "aimem_corpus" / "valid").glob("*.aimem.*"))]


def _provider_seeds() -> dict[str, list[Files]]:
    from providergen import chatgpt, claude, copilot, gemini, grok

    return {
        "chatgpt": [chatgpt.export(seed=s, count=3) for s in (1, 2)],
        "claude": [claude.encode(claude.export(seed=s)) for s in (0, 1)],
        "gemini": [gemini.export(seed=5), gemini.export(seed=6, locale="pt")],
        "copilot": [copilot.export(seed=3)],
        "grok": [grok.encode(grok.export(seed=s)) for s in (0, 1)],
        "memory_text": [
            {
                "memories.txt": "1. [2024-05-01]. Lives in Porto\n2. [2024-06-02]. Gosta de chá\n"
                "- Prefers metric units\n".encode()
            }
        ],
    }


def _read_tree(root: Path) -> Files:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}  # fmt: skip


def _hub_seeds() -> dict[str, list[Files]]:
    """The hub formats (memvault.hub), from the hub test generators (tests/hubgen)."""
    import tempfile

    from hubgen import basic_memory, letta, mcp_memory, mem0, portable_memory

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        mem0_zip = mem0.openmemory_zip(rng, work / "openmemory.zip")
        with zipfile.ZipFile(mem0_zip) as archive:
            openmemory = {name: archive.read(name) for name in archive.namelist()}
        notes = work / "notes"
        basic_memory.folder(rng, notes)
        bundle = portable_memory.write(work / "export.mem", portable_memory.bundle(rng))
        seeds = {
            "mcp_memory": [{"memory.jsonl": mcp_memory.dumps(mcp_memory.graph(rng)).encode()}],
            "mem0": [
                {"memories.json": json.dumps(mem0.get_all(rng)).encode()},
                {"memories.json": json.dumps(mem0.platform_list(rng, paged=True)).encode()},
                openmemory,
            ],
            "letta": [
                {"agent.af": json.dumps(letta.v2(rng)).encode()},
                {"agent.af": json.dumps(letta.legacy(rng)).encode()},
            ],
            "basic_memory": [_read_tree(notes)],
            "portable_memory": [_read_tree(bundle)],
        }
    return seeds


# -- mutation ----------------------------------------------------------------------------------

TOKENS = [b"{", b"}", b"[", b"]", b'"', b"\\", b"\\u", b"\\ud800", b"\x00", b"\xff", b",", b":",
          b"NaN", b"-0", b"1e999", b"18446744073709551616", b"\xef\xbb\xbf", b"null", b"true",
          b'"\\"', b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\r\n", b"[" * 64]  # fmt: skip
ODD_VALUES: list[Any] = [None, True, 0, -1, 2**53, 2**64, -(2**63) - 1, 1.5e308, 1e-320, "",
                         "\\", '"', "\u0000", "\ud7ff\ue000", "😀" * 3, "x" * 300, [], {},
                         [[[[]]]], {"": {"": None}}, "2024-13-45T99:99:99Z", "sha256:", "a" * 64,
                         "1970-01-01T00:00:00Z", 1700000000.5, -1e300]  # fmt: skip


def _deep(depth: int, rng: random.Random) -> Any:
    value: Any = rng.choice([1, "x", None])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"k": value}
    return value


def mutate_bytes(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(buf))
        kind = rng.randrange(8)
        if kind == 0 and buf:
            at = min(at, len(buf) - 1)
            buf[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            buf[at:at] = rng.choice(TOKENS)
        elif kind == 2:
            del buf[at : at + rng.randint(1, 64)]
        elif kind == 3:
            del buf[at:]
        elif kind == 4:
            run = bytes(buf[at : at + rng.randint(1, 256)])
            buf[at:at] = run * rng.randint(1, 8)
        elif kind == 5 and others:
            other = rng.choice(others)
            start = rng.randint(0, len(other))
            buf[at:at] = other[start : start + rng.randint(1, 512)]
        elif kind == 6:
            depth = rng.choice([50, 199, 200, 201, 256, 1100, 5000])
            buf[at:at] = rng.choice([b"[", b'{"a":']) * depth
        else:
            buf[at : at + 1] = bytes([rng.randrange(256)])
    return bytes(buf)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    stack = [(path, value)]
    while stack:
        where, node = stack.pop()
        yield where, node
        if isinstance(node, dict):
            stack.extend(((*where, k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend(((*where, i), v) for i, v in enumerate(node))


def mutate_value(value: Any, rng: random.Random) -> Any:
    """A copy of a parsed JSON value with one to three structural changes (the value itself,
    copied, when it is nested too deep to copy)."""
    try:
        return _mutate_value(_copy(value), rng)
    except RecursionError:
        return value


def _copy(value: Any) -> Any:
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:  # orjson stops at 255 levels
        return json.loads(json.dumps(value))


def _mutate_value(value: Any, rng: random.Random) -> Any:
    for _ in range(rng.randint(1, 3)):
        nodes = list(_nodes(value))
        where, node = rng.choice(nodes)
        kind = rng.randrange(6)
        if kind == 0 or not where:
            new: Any = _copy(rng.choice(ODD_VALUES))  # never the shared constant itself
        elif kind == 1:
            new = _deep(rng.choice([10, 150, 199, 201, 260]), rng)
        elif kind == 2 and isinstance(node, str):
            cut = rng.randint(0, len(node))
            new = node[:cut] + rng.choice(['"', "\\", "\n", "\u2028", "😀", "\x7f"]) + node[cut:]
        elif kind == 3 and isinstance(node, dict) and node:
            del node[rng.choice(list(node))]
            continue
        elif kind == 4 and isinstance(node, list) and node:
            node.append(_copy(rng.choice(node)))  # a copy: never a cycle
            continue
        else:
            new = rng.choice([type(node)(), None, 0, "x", [_copy(node)], {"x": _copy(node)}])
        if not where:
            value = new
            continue
        parent = value
        for step in where[:-1]:
            parent = parent[step]
        parent[where[-1]] = new
    return value


def _dumps(value: Any) -> bytes | None:
    try:
        return orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):
        pass
    try:
        return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except RecursionError:  # a value orjson read 1,024 levels deep: mutate its bytes instead
        return None


def mutate(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    """Half the time bytes, half the time JSON structure (when the data is JSON)."""
    if rng.random() < 0.5:
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            value = None
        if value is not None:
            out = _dumps(mutate_value(value, rng))
            if out is not None:
                return out if rng.random() < 0.8 else mutate_bytes(out, rng, others)
    return mutate_bytes(data, rng, others)


def mutate_files(files: Files, rng: random.Random) -> Files:
    out = dict(files)
    name = rng.choice(sorted(out))
    out[name] = mutate(out[name], rng, list(files.values()))
    return out


# -- targets -----------------------------------------------------------------------------------


@dataclass
class Target:
    name: str
    make: Callable[[random.Random], Any]  # one input from the seeds
    run: Callable[[Any, Path], None]  # raises Finding or a non-memvault exception on a bug
    save: Callable[[Any, Path], None] = field(default=lambda item, path: None)


def _scalar_json(rng: random.Random, seeds: list[bytes]) -> bytes:
    return mutate(rng.choice(seeds), rng, seeds)


def _run_nesting(data: bytes, work: Path) -> None:
    limit = 200
    c_state = py_state = 0
    pos = 0
    chunk_rng = random.Random(len(data))
    while pos <= len(data):
        size = chunk_rng.choice([1, 7, 64, 4096, len(data) + 1])
        chunk = data[pos : pos + size]
        c_state, c_over = jsonread.nesting_scan(chunk, c_state, limit)
        py_state, py_over = jsonread.nesting_scan_py(chunk, py_state, limit)
        if (c_state, c_over) != (py_state, py_over):
            raise Finding(f"nesting_scan C {(c_state, c_over)} != Python {(py_state, py_over)}")
        if c_over >= 0 or not chunk:
            break
        pos += size
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    if c_over < 0 and pos >= len(data):  # valid JSON within the limit: jsonread agrees
        jsonread.check_depth(data, "fuzz", limit=limit)


def _run_scanner(data: bytes, work: Path) -> None:
    """The span scanner against orjson: a text orjson parses ends where orjson says."""
    start = len(data) - len(data.lstrip(b" \t\r\n"))
    ends: list[int] = []
    for call in (
        lambda: ends.append(value_end(data, start)),
        lambda: array_items(data, start, stats=True),
        lambda: object_members(data, start, items_of=b'"memories"'),
        lambda: object_members(data, start),
    ):
        with contextlib.suppress(ValueError):
            call()
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    if start < len(data) and ends != [len(data.rstrip(b" \t\r\n"))]:
        raise Finding(f"value_end gives {ends} for a text orjson parses")


def _run_jcs(data: bytes, work: Path) -> None:
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    outcomes = []
    for encode in (jcs_dumps, canonical.jcs_dumps_python):
        try:
            outcomes.append(("ok", encode(value)))
        except (ValueError, TypeError, canonical.CanonicalizationError) as exc:
            outcomes.append(("error", type(exc).__name__))
    if outcomes[0][0] != outcomes[1][0] or (
        outcomes[0][0] == "ok" and outcomes[0][1] != outcomes[1][1]
    ):
        raise Finding(f"jcs_dumps C {outcomes[0]!r:.200} != Python {outcomes[1]!r:.200}")


def _memory_schema_run(memory: Any, work: Path) -> None:
    from memvault._memory_schema import unclear

    from memvault.formats.pam import schema

    cleared = unclear([memory]) == []
    if cleared and not schema._validator("memory-store", "Memory", True).is_valid([memory]):
        raise Finding(f"_memory_schema cleared a memory the schema refuses: {memory!r:.300}")


def _chatgpt_c_run(conversation: Any, work: Path) -> None:
    """_chatgpt (messages, graph): C and the Python reference convert alike."""
    from memvault.importers import chatgpt as module
    from memvault.importers.ingest import make_context

    if not _readable_item(conversation):
        return
    conversation = module._parse(_dumps(conversation) or b"{}", "w")  # as the reader parses it

    def convert() -> Any:
        context = make_context("conversations.json", None, now=NOW)
        reader = module._ConversationReader(module.IMPORTER.id, context, None, {})
        try:
            document, memories = reader.convert(conversation, "conversation 0")
        except ImportFormatError as exc:
            return ("refused", str(exc))
        return orjson.dumps(document, option=orjson.OPT_SORT_KEYS), memories, context.warnings

    in_c = convert()
    saved = module._convert_messages, module._c_graph
    module._convert_messages, module._c_graph = module._messages, lambda *args: None
    try:
        in_python = convert()
    finally:
        module._convert_messages, module._c_graph = saved
    if in_c != in_python:
        raise Finding(f"_chatgpt C != Python: {str(in_c)[:300]} / {str(in_python)[:300]}")


def _readable_item(value: Any) -> bool:
    """What the importer hands the converter: an object of conversations.json, whose nesting
    the stream reader has bounded (one level less than the file's, the array)."""
    if not isinstance(value, dict):
        return False
    try:
        jsonread.check_depth(_dumps(value) or b"", "item", limit=jsonread.MAX_DEPTH - 1)
    except JSONDocumentError:
        return False
    return True


def _chatgpt_direct_run(item: bytes, work: Path) -> None:
    """_chatgpt_direct.convert: the Python path's bytes, or declined; the recall passages it
    cuts as it writes them, the rows the reader cuts from the stored document."""
    from memvault.importers import chatgpt as module
    from memvault.importers.ingest import make_context, stored
    from memvault.recall.index import message_rows

    def reader() -> Any:
        context = make_context("conversations.json", "sha256:" + "0" * 64, now=NOW)
        context.conversations_as_json = True  # as an import's reader: passages cut in C
        return module._ConversationReader(module.IMPORTER.id, context, "user-Ab12", {})

    try:  # the stream reader bounds the nesting of what reaches the converter
        jsonread.check_depth(item, "item", limit=jsonread.MAX_DEPTH - 1)
    except JSONDocumentError:
        return
    ours = reader()
    direct = ours.direct(item, "w")
    if direct is None:
        if ours.context.warnings:
            raise Finding(f"declined with warnings {ours.context.warnings}")
        return
    python = reader()
    try:
        raw = module._parse(item, "w")
        if not isinstance(raw, dict):
            raise Finding("taken directly, not an object for Python")
        document, memories = python.convert(raw, "w")
    except ImportFormatError as exc:
        raise Finding(f"taken directly, refused by Python: {exc}") from None
    written, written_memories = direct
    if written.data != orjson.dumps(document, option=orjson.OPT_SORT_KEYS):
        raise Finding("_chatgpt_direct wrote other bytes than the Python path")
    if written.passages is None or orjson.loads(written.passages) != message_rows(document):
        raise Finding("_chatgpt_direct cut other recall passages than the reader")
    row = stored(document)
    if (written.id, written.title, written.message_count) != (
        row.id,
        row.title,
        row.message_count,
    ):
        raise Finding("_chatgpt_direct index columns differ from the Python path")
    if written_memories != memories or ours.context.warnings != python.context.warnings:
        raise Finding("_chatgpt_direct memories or warnings differ from the Python path")


@functools.cache
def _analysis_connection() -> Any:
    import sqlcipher3  # type: ignore[import-untyped]

    from memvault.recall import analysis

    conn = sqlcipher3.connect(":memory:")
    analysis.prepare(conn)
    conn.execute(f"CREATE VIRTUAL TABLE fuzz USING fts5(text, tokenize='{analysis.TOKENIZE}')")
    conn.execute("CREATE VIRTUAL TABLE fuzz_vocab USING fts5vocab(fuzz, 'instance')")
    return conn


def _tokenizer_run(data: bytes, work: Path) -> None:
    """The recall tokenizer and memvault_terms on any bytes (a blob: invalid UTF-8, NULs):
    the index terms are memvault_terms' stems, and on text of the characters both agree on,
    memvault_terms equals the Python reference (PyStemmer)."""
    import analysiskit

    conn = _analysis_connection()
    row = conn.execute("SELECT memvault_terms(?)", (data,)).fetchone()
    terms = [tuple(item) for item in orjson.loads(row[0])]
    conn.execute("INSERT INTO fuzz(rowid, text) VALUES (1, ?)", (data,))
    try:
        indexed = sorted(conn.execute("SELECT offset, term FROM fuzz_vocab").fetchall())
        conn.execute("INSERT INTO fuzz(fuzz) VALUES ('integrity-check')")
    finally:
        conn.execute("DELETE FROM fuzz")
    expected = sorted(
        (position, stem.encode()[:32768].decode("utf-8", "ignore"))
        for position, (_token, *stems) in enumerate(terms)
        for stem in stems
    )
    if indexed != expected:
        raise Finding(f"index terms {indexed!r:.200} != memvault_terms {expected!r:.200}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if all(analysiskit.agreed(ch) for ch in text) and terms != analysiskit.terms(text):
        raise Finding(
            f"memvault_terms {terms!r:.200} != PyStemmer {analysiskit.terms(text)!r:.200}"
        )


_ROWS_COLUMNS: Final = "message_id, part, role, participant, at_epoch, text, words, context"
_INT64: Final = (-(2**63), 2**63 - 1)


def _rows_seeds(rng: random.Random) -> list[bytes]:
    """Passages JSON as a reader process sends it (`memvault_rows`): rows of eight scalars."""
    words = ["m-1", "user", "assistant", "Ana", "é ñ 日本 😀", 'quote" back\\ tab\t', ""]
    scalars: list[Any] = [None, 0, -1, 2**63 - 1, 1714564800.25, -0.0, 1e300, 5e-324, *words]
    seeds = []
    for _ in range(40):
        rows = [[rng.choice(scalars) for _ in range(8)] for _ in range(rng.randrange(5))]
        seeds.append(orjson.dumps(rows))
    return seeds


def _plain_rows(value: Any) -> bool:
    """Whether orjson's reading is rows of eight values SQLite binds as they are."""

    def scalar(v: Any) -> bool:
        if isinstance(v, bool):
            return False
        if isinstance(v, int):
            return _INT64[0] <= v <= _INT64[1]
        return v is None or isinstance(v, (str, float))

    return isinstance(value, list) and all(
        isinstance(row, list) and len(row) == 8 and all(scalar(v) for v in row) for row in value
    )


def _rows_run(data: bytes, work: Path) -> None:
    """`memvault_rows` (recall's C reader of passages JSON) on any bytes: no crash, and where
    orjson reads plain rows of eight scalars, the same values, floats to the bit."""
    import sqlcipher3  # type: ignore[import-untyped]

    conn = _analysis_connection()
    try:
        read = conn.execute(f"SELECT {_ROWS_COLUMNS} FROM memvault_rows(?)", (data,)).fetchall()
    except sqlcipher3.Error:
        read = None
    try:
        expected = orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    if not _plain_rows(expected):
        return
    if read is None:
        raise Finding("memvault_rows refused rows orjson reads")

    def bits(v: Any) -> Any:
        return ("f", struct.pack("<d", v)) if isinstance(v, float) else (type(v).__name__, v)

    if [[bits(v) for v in row] for row in read] != [[bits(v) for v in row] for row in expected]:
        raise Finding(f"memvault_rows {read!r:.200} != orjson {expected!r:.200}")


def _batch_seeds(rng: random.Random, rows: list[bytes]) -> list[bytes]:
    """Batches of conversations' passages (`memvault_write_passages`): arrays of rows arrays."""
    return [b"[" + b",".join(rng.sample(rows, rng.randrange(4))) + b"]" for _ in range(40)]


_WRITE_TABLES: Final = (
    "CREATE TABLE recall_passages (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
    "memory_seq INTEGER, conversation INTEGER, conversation_id TEXT, message_id TEXT, "
    "part INTEGER NOT NULL DEFAULT 0, role TEXT, participant TEXT, platform TEXT, "
    "at_epoch REAL, text TEXT NOT NULL)",
    "CREATE VIRTUAL TABLE recall_fts USING fts5(body, context, content='', "
    "contentless_delete=1, tokenize='memvault')",
)


def _written(conn: Any) -> tuple[list[Any], list[Any]]:
    """The passages and full-text entries' sizes a connection holds (floats by their bits)."""

    def bits(v: Any) -> Any:
        return ("f", struct.pack("<d", v)) if isinstance(v, float) else (type(v).__name__, v)

    passages = conn.execute(
        "SELECT id, kind, conversation, message_id, part, role, participant, at_epoch, text "
        "FROM recall_passages ORDER BY id"
    ).fetchall()
    sizes = conn.execute("SELECT id, sz FROM recall_fts_docsize ORDER BY id").fetchall()
    return [[bits(v) for v in row] for row in passages], sizes


def _write_passages_run(data: bytes, work: Path) -> None:
    """`memvault_write_passages` (recall's C writer of a batch's passages) on any bytes: no
    crash, nothing left written when it fails, and where orjson reads a batch of plain rows,
    the counts it answers and exactly what Python writes binding the values orjson reads (the
    passages, with the table's type affinities, and each full-text entry's size), or a
    failure where Python's writing fails too (a passage without text)."""
    import sqlcipher3  # type: ignore[import-untyped]

    from memvault.recall import analysis

    def made() -> Any:  # a database of its own for each input
        conn = sqlcipher3.connect(":memory:", isolation_level=None)
        analysis.prepare(conn)
        for sql in _WRITE_TABLES:
            conn.execute(sql)
        conn.execute("BEGIN")
        return conn

    conn = made()
    try:
        (answer,) = conn.execute("SELECT memvault_write_passages(5, 7, ?)", (data,)).fetchone()
    except sqlcipher3.Error:
        conn.execute("ROLLBACK")
        answer = None
    else:
        conn.execute("COMMIT")
    got = _written(conn)
    if answer is None and (got[0] or got[1]):
        raise Finding("memvault_write_passages failed and left rows written")
    try:
        expected = orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    if not isinstance(expected, list) or not all(_plain_rows(c) for c in expected):
        return
    python = made()
    passages, entries, ident, handle = [], [], 5, 7
    for conversation in expected:
        for row in conversation:
            passages.append((ident, handle, *row[:6]))
            entries.append((ident, row[5] if row[6] is None else row[6], row[7]))
            ident += 1
        handle += 1 if conversation else 0
    try:
        python.executemany(
            "INSERT INTO recall_passages (id, kind, conversation, message_id, part, role, "
            "participant, at_epoch, text) VALUES (?, 'message', ?, ?, ?, ?, ?, ?, ?)",
            passages,
        )
        python.executemany(
            "INSERT INTO recall_fts (rowid, body, context) VALUES (?, ?, ?)", entries
        )
    except sqlcipher3.Error:
        if answer is not None:
            raise Finding("memvault_write_passages wrote what Python cannot") from None
        return
    python.execute("COMMIT")
    if answer is None:
        raise Finding("memvault_write_passages refused a batch Python writes")
    if orjson.loads(answer) != [len(c) for c in expected]:
        raise Finding(f"memvault_write_passages counts {answer!r:.200}")
    if got != _written(python):
        raise Finding(f"memvault_write_passages wrote {got[0]!r:.200}")


def _write_export(files: Files, work: Path, rng: random.Random) -> Path:
    if rng.random() < 0.5:
        path = work / "export.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        return path
    root = work / "export"
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def _importer_run(provider: str) -> Callable[[Any, Path], None]:
    def run(item: tuple[Files, int], work: Path) -> None:
        from memvault.importers import detect
        from memvault.importers.ingest import make_context
        from memvault.sources import open_target

        files, layout = item
        if layout == 2 and len(files) == 1:  # a hub format's one file, as itself
            [(name, data)] = files.items()
            path = work / name
            path.write_bytes(data)
        else:
            path = _write_export(files, work, random.Random(layout))
        importer = detect.load(provider)
        with contextlib.suppress(*OWN_ERRORS), open_target(path) as target:
            importer.sniff(target)
            context = make_context(str(path), None, now=NOW)
            for _ in importer.read(target, context):
                pass

    return run


def _pam_run(data: bytes, work: Path) -> None:
    from memvault import pam
    from memvault.findings import ValidationResult
    from memvault.formats.pam.validate import validate_path

    path = work / "memory-store.json"
    path.write_bytes(data)
    result = validate_path(path)
    if not isinstance(result, ValidationResult) or result.exit_code not in (0, 1, 2):
        raise Finding(f"validate_path gave {result!r:.200}")
    with contextlib.suppress(pam.PAMError):
        pam.load(path)


def _aimem_run(data: bytes, work: Path) -> None:
    from memvault.formats.aimem.reader import open_bundle, sniff_stream, validate_bundle

    sniff_stream(io.BytesIO(data))
    report = validate_bundle(io.BytesIO(data))
    if report is None:
        raise Finding("validate_bundle gave nothing")
    with contextlib.suppress(BundleError), open_bundle(io.BytesIO(data)) as reader:
        for _ in reader.records():
            pass


def _save_bytes(item: Any, path: Path) -> None:
    path.write_bytes(item if isinstance(item, bytes) else (_dumps(item) or b""))


def _save_files(item: Any, path: Path) -> None:
    files, _ = item
    with zipfile.ZipFile(path.parent / (path.name + ".zip"), "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)


@functools.cache
def targets() -> dict[str, Target]:
    pam = _pam_seeds()
    aimem = _aimem_seeds()
    providers = _provider_seeds()
    hub = _hub_seeds()
    json_seeds = pam + aimem + [p["conversations.json"] for p in providers["chatgpt"]]
    memories = [m for doc in pam[:1] + pam[3:4] for m in orjson.loads(doc)["memories"]]
    chatgpt_items = [
        c for files in providers["chatgpt"] for c in orjson.loads(files["conversations.json"])
    ]
    import analysiskit

    texts = [text.encode() for text in analysiskit.corpus(seed=5, count=200)]
    rows_seeds = _rows_seeds(random.Random(7))
    batch_seeds = _batch_seeds(random.Random(8), rows_seeds)

    def provider_input(name: str) -> Callable[[random.Random], Any]:
        return lambda rng: (mutate_files(rng.choice(providers[name]), rng), rng.randrange(2))

    found: dict[str, Target] = {
        "speedups.nesting_scan": Target(
            "speedups.nesting_scan", lambda rng: _scalar_json(rng, json_seeds), _run_nesting,
            _save_bytes),
        "speedups.scanner": Target(
            "speedups.scanner", lambda rng: _scalar_json(rng, json_seeds), _run_scanner,
            _save_bytes),
        "speedups.jcs_dumps": Target(
            "speedups.jcs_dumps", lambda rng: _scalar_json(rng, json_seeds), _run_jcs,
            _save_bytes),
        "memory_schema": Target(
            "memory_schema", lambda rng: mutate_value(rng.choice(memories), rng),
            _memory_schema_run, _save_bytes),
        "chatgpt.c": Target(
            "chatgpt.c", lambda rng: mutate_value(rng.choice(chatgpt_items), rng),
            _chatgpt_c_run, _save_bytes),
        "chatgpt.direct": Target(
            "chatgpt.direct",
            lambda rng: mutate(orjson.dumps(rng.choice(chatgpt_items)), rng, []),
            _chatgpt_direct_run, _save_bytes),
        "pam": Target("pam", lambda rng: mutate(rng.choice(pam), rng, pam), _pam_run, _save_bytes),
        "aimem": Target(
            "aimem", lambda rng: mutate(rng.choice(aimem), rng, aimem), _aimem_run, _save_bytes),
        "recall.tokenizer": Target(
            "recall.tokenizer", lambda rng: mutate_bytes(rng.choice(texts), rng, texts),
            _tokenizer_run, _save_bytes),
        "recall.rows": Target(
            "recall.rows", lambda rng: mutate(rng.choice(rows_seeds), rng, rows_seeds),
            _rows_run, _save_bytes),
        "recall.write_passages": Target(
            "recall.write_passages",
            lambda rng: mutate(rng.choice(batch_seeds), rng, batch_seeds),
            _write_passages_run, _save_bytes),
    }  # fmt: skip
    for provider in providers:
        name = f"importer.{provider}"
        found[name] = Target(name, provider_input(provider), _importer_run(provider), _save_files)
    for module, seeds in hub.items():
        name = f"importer.{module}"

        def hub_input(rng: random.Random, seeds: list[Files] = seeds) -> Any:
            return (mutate_files(rng.choice(seeds), rng), rng.randrange(3))

        found[name] = Target(name, hub_input, _importer_run(module), _save_files)
    return found


# -- running -----------------------------------------------------------------------------------


@dataclass
class Report:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    findings: list[str] = field(default_factory=list)


def peak_rss_mb() -> float:
    """This process's peak resident memory. VmHWM where there is /proc: getrusage's ru_maxrss
    keeps the high-water mark of the process that forked and exec'd this one (a pytest
    worker's, say)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fuzz(
    name: str,
    seed: int,
    *,
    count: int | None = None,
    seconds: float | None = None,
    out: Path | None = None,
    stop_at_first: bool = True,
) -> Report:
    """Run target `name` on `count` inputs (or for `seconds`) from `seed`. Findings are
    returned (and saved under `out`, with the input, when given)."""
    target = targets()[name]
    rng = random.Random(seed)
    report = Report(name)
    started = time.monotonic()
    current = out / f"{name}.current" if out is not None else None
    with tempfile.TemporaryDirectory(prefix="memvault-fuzz-") as tmp:
        work = Path(tmp)
        while True:
            if count is not None and report.inputs >= count:
                break
            if seconds is not None and time.monotonic() - started >= seconds:
                break
            item = target.make(rng)
            if current is not None:
                target.save(item, current)  # a sanitizer abort leaves the input behind
            problem = None
            try:
                target.run(item, work)
            except Finding as exc:
                problem = f"disagreement: {exc}"
            except OWN_ERRORS:
                pass
            except Exception as exc:
                problem = (
                    "internal error: "
                    + "".join(traceback.format_exception_only(type(exc), exc)).strip()
                )
            report.inputs += 1
            if problem is None and peak_rss_mb() > MEMORY_LIMIT_MB:
                problem = f"memory: peak RSS {peak_rss_mb():.0f} MB > {MEMORY_LIMIT_MB} MB"
            if problem is not None:
                report.findings.append(problem)
                if out is not None:
                    index = len(report.findings)
                    target.save(item, out / f"{name}.finding-{index}")
                    (out / f"{name}.finding-{index}.txt").write_text(problem + "\n")
                if stop_at_first or problem.startswith("memory"):
                    break
            for child in work.iterdir():
                if child.is_dir():
                    _rmtree(child)
                else:
                    child.unlink()
    if current is not None:
        current.unlink(missing_ok=True)
    report.seconds = time.monotonic() - started
    return report


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def run_targets(seconds: float, seed: int, out: Path, jobs: int = 2) -> list[Report]:
    """Every target in its own child process (this script with --one), `seconds` shared
    between them; a child that dies (a sanitizer report) is a finding with its input kept."""
    names = list(targets())
    share = seconds / len(names) * jobs
    out.mkdir(parents=True, exist_ok=True)
    reports: list[Report] = []
    pending = list(enumerate(names))
    running: list[tuple[str, subprocess.Popen[str], Path]] = []
    while pending or running:
        while pending and len(running) < jobs:
            index, name = pending.pop(0)
            result = out / f"{name}.json"
            command = [sys.executable, __file__, "--one", name, "--seconds", str(share),
                       "--seed", str(seed + index), "--out", str(out)]  # fmt: skip
            log = (out / f"{name}.log").open("w")
            running.append(
                (name, subprocess.Popen(command, stdout=log, stderr=log, text=True), result)
            )
        time.sleep(0.2)
        for entry in list(running):
            name, process, result = entry
            if process.poll() is None:
                continue
            running.remove(entry)
            if result.is_file():
                data = json.loads(result.read_text())
                reports.append(Report(name, data["inputs"], data["seconds"], data["findings"]))
            else:
                log_text = (out / f"{name}.log").read_text(errors="replace")
                tail = "\n".join(log_text.splitlines()[-15:])
                kept = next(out.glob(f"{name}.current*"), out / f"{name}.current")
                reports.append(Report(name, 0, share, [
                    f"the process died (exit {process.returncode}); input kept in {kept}:\n{tail}"
                ]))  # fmt: skip
    return reports


#: The C extensions: module path under src/, source, then the libraries it links.
EXTENSIONS = [
    ("memvault/_speedups", "memvault/_speedups.c"),
    ("memvault/_memory_schema", "memvault/_memory_schema.c"),
    ("memvault/importers/_chatgpt", "memvault/importers/_chatgpt.c"),
    ("memvault/importers/_chatgpt_direct", "memvault/importers/_chatgpt_direct.c"),
    ("memvault/recall/_tokenizer", "memvault/recall/_tokenizer.c", "-lstemmer"),
]
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]


def build_sanitized(dest: Path) -> None:
    """A copy of src/memvault in `dest` whose C extensions are built with AddressSanitizer
    and UndefinedBehaviorSanitizer (the working tree's own build is left alone); run with
    PYTHONPATH=dest and libasan preloaded."""
    import shutil
    import sysconfig

    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(REPO / "src" / "memvault", dest / "memvault",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))  # fmt: skip
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    include = sysconfig.get_paths()["include"]
    for module, source, *libraries in EXTENSIONS:
        flags = ["-shared", "-fPIC", "-std=c99", "-O1", "-g", "-Wall", *SANITIZE, f"-I{include}"]
        command = ["gcc", *flags, str(dest / source), *libraries, "-o",
                   str(dest / (module + suffix))]  # fmt: skip
        print(" ".join(command), flush=True)
        subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=REPO / "build" / "fuzz")
    parser.add_argument("--one", help="run one target in this process (used by the runner)")
    parser.add_argument("--count", type=int, help="with --one: this many inputs, not --seconds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--build-sanitized",
        type=Path,
        metavar="DIR",
        help="copy src/memvault to DIR with its C built under ASan and UBSan",
    )
    args = parser.parse_args(argv)
    if args.build_sanitized:
        build_sanitized(args.build_sanitized)
        return 0
    if args.one:
        args.out.mkdir(parents=True, exist_ok=True)
        seconds = None if args.count is not None else args.seconds
        report = fuzz(args.one, args.seed, count=args.count, seconds=seconds, out=args.out,
                      stop_at_first=False)  # fmt: skip
        (args.out / f"{args.one}.json").write_text(json.dumps(report.__dict__))
        return 0
    import memvault._speedups

    print(
        f"C extensions from {Path(memvault._speedups.__file__).parent}; "
        f"{args.seconds:.0f} s over {len(targets())} targets, seed {args.seed}",
        flush=True,
    )
    reports = run_targets(args.seconds, args.seed, args.out, args.jobs)
    total = 0
    print(f"{'target':26} {'inputs':>8} {'seconds':>8}  findings")
    for report in sorted(reports, key=lambda r: r.target):
        total += len(report.findings)
        print(
            f"{report.target:26} {report.inputs:8d} {report.seconds:8.1f}  {len(report.findings)}"
        )
    for report in reports:
        for finding in report.findings:
            print(f"\nFINDING {report.target}: {finding}")
    print(f"\n{sum(r.inputs for r in reports)} inputs, {total} findings (inputs in {args.out})")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
