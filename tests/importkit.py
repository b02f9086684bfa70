"""What the provider importer tests share: an import context, reading a target through an
importer, validation of every conversation (official PAM conversation schema) and memory (PAM
memory store), walkers that check every provider value arrives, damaged-value runs, the
progress a read reports, the heap it peaks at and the heap repeated runs leave behind."""

from __future__ import annotations

import copy
import json
import random
import re
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import jsonschema_rs
import pytest

from memvault import pam
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    Importer,
    ImportFormatError,
)
from memvault.sources import open_target
from pamdocs import OFFICIAL_SCHEMAS

IMPORTED_AT = "2026-11-21T12:00:00Z"
IMPORTER_NAME = "memvault/0.1.0"
OWNER = "6f1d7c52-3b8e-4c1a-9f0e-2d4b5a6c7e8f"
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}")

Records = tuple[list[dict[str, Any]], list[dict[str, Any]], ImportContext]


def context(source: Path | str, imported_at: str = IMPORTED_AT) -> ImportContext:
    return ImportContext(imported_at=imported_at, importer=IMPORTER_NAME, source_file=str(source))


def read(importer: Importer, path: Path, ctx: ImportContext | None = None) -> Records:
    """(conversations, memories, context) of one import of `path`."""
    ctx = ctx or context(path)
    with open_target(path) as target:
        records = list(importer.read(target, ctx))
    conversations = [dict(r.document) for r in records if isinstance(r, ImportedConversation)]
    memories = [dict(r.memory) for r in records if isinstance(r, ImportedMemory)]
    assert len(conversations) + len(memories) == len(records)
    return conversations, memories, ctx


def messages(documents: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for d in documents for m in d["messages"]]


# -- validation ---------------------------------------------------------------------------------


@cache
def conversation_validator() -> Any:
    """The official conversation schema (PAM §25), formats checked."""
    schema = json.loads(
        (OFFICIAL_SCHEMAS / "portable-ai-memory-conversation.schema.json").read_text("utf-8")
    )
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def conversation_errors(document: dict[str, Any]) -> list[str]:
    return [e.message for e in conversation_validator().iter_errors(document)]


def memory_errors(memories: list[dict[str, Any]]) -> list[Any]:
    """What PAM validation finds in a memory store holding `memories` (PAM §4)."""
    store = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "owner": {"id": OWNER},
        "memories": memories,
    }
    return list(pam.validate(store).errors)


# -- every value arrives ------------------------------------------------------------------------


def is_bson_date(value: Any) -> bool:
    return isinstance(value, dict) and list(value) == ["$date"]


def leaves(
    value: Any, path: tuple[Any, ...] = (), *, atom: Callable[[Any], bool] = is_bson_date
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(path, leaf) of every scalar; a value for which `atom` holds (a BSON ``$date``) is one
    leaf."""
    if isinstance(value, dict) and not atom(value):
        for key, item in value.items():
            yield from leaves(item, (*path, key), atom=atom)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index), atom=atom)
    else:
        yield path, value


def paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value below `value` (objects and arrays included)."""
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*path, index))


def instant(value: Any) -> datetime | None:
    """The instant an ISO string or a BSON ``$date`` stands for (read independently of the
    importers), None for any other value."""
    if is_bson_date(value):
        inner = value["$date"]
        if isinstance(inner, dict):
            return datetime.fromtimestamp(int(inner["$numberLong"]) / 1000, tz=UTC)
        value = inner
    if not isinstance(value, str) or not _ISO.match(value):
        return None
    parsed = datetime.fromisoformat(value)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)


class Arrived:
    """Everything an import yielded, indexed to look provider values up: as JSON values, as
    (member name, JSON value) pairs and as instants."""

    def __init__(self, records: Iterable[dict[str, Any]]) -> None:
        found = [leaf for record in records for _, leaf in leaves(record)]
        self.values = {_json(v) for v in found}
        self.instants = {m for v in found if (m := instant(v)) is not None}
        self.pairs: set[tuple[str | None, str]] = set()
        for record in records:
            for where, leaf in leaves(record):
                key = where[-1] if where and isinstance(where[-1], str) else None
                self.pairs.add((key, _json(leaf)))

    def value(self, leaf: Any) -> bool:
        return _json(leaf) in self.values

    def member(self, names: Iterable[str], leaf: Any) -> bool:
        """`leaf` arrived under one of `names` (its provider name or its PAM names)."""
        text = _json(leaf)
        return any((name, text) in self.pairs for name in names)

    def check(
        self, name: str, where: tuple[Any, ...], leaf: Any, renamed: Mapping[str, Iterable[str]]
    ) -> None:
        """Assert that the provider value `leaf` (at `where` in file `name`) arrived: a
        timestamp as the same instant, a field under its own name or one of its PAM names
        (`renamed`), an array item anywhere."""
        key = where[-1]
        if instant(leaf) is not None:
            assert instant(leaf) in self.instants, (name, where, leaf)
        elif isinstance(key, str):  # the field arrives under its name or its PAM name
            assert self.member((key, *renamed.get(key, ())), leaf), (name, where, leaf)
        else:
            assert self.value(leaf), (name, where, leaf)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- generated exports --------------------------------------------------------------------------


class Generator(Protocol):
    """A provider module of `providergen` that writes its export in several layouts."""

    @property
    def LAYOUTS(self) -> tuple[str, ...]: ...  # a module constant: read-only here

    def export(self, seed: int = ...) -> dict[str, Any]: ...

    def write(self, dest: Path, layout: str, files: dict[str, Any] | None = None) -> Path: ...


#: Values of other types (and BSON dates that are not times) put in place of export values.
REPLACEMENTS: list[Any] = [
    None,
    7,
    -1.5,
    "x",
    "",
    [],
    {},
    True,
    [1, "a"],
    {"a": 1},
    {"$date": "nope"},
    {"$date": {"$numberLong": "99999999999999999"}},
    2**60,
]


def each_layout(tmp_path: Path, gen: Generator) -> Iterator[tuple[str, Path]]:
    """The generated export written in each of the generator's layouts, a folder each."""
    for layout in gen.LAYOUTS:
        (tmp_path / layout).mkdir()
        yield layout, gen.write(tmp_path / layout, layout)


def check_damaged_values(
    tmp_path: Path, gen: Generator, importer: Importer, rounds: int = 120, seed: int = 2026
) -> dict[str, int]:
    """One value anywhere in the export replaced by one of `REPLACEMENTS`, `rounds` times:
    each import fails with ImportFormatError or yields schema-valid conversations and
    memories (never a traceback). Returns how many ended each way."""
    rng = random.Random(seed)
    base = gen.export()
    spots = [(n, p) for n, v in base.items() if not isinstance(v, bytes) for p in paths(v)]
    outcomes = {"error": 0, "ok": 0}
    for number in range(rounds):
        files = copy.deepcopy(base)
        name, path = rng.choice(spots)
        holder = files[name]
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = copy.deepcopy(rng.choice(REPLACEMENTS))
        (tmp_path / str(number)).mkdir()
        source = gen.write(tmp_path / str(number), rng.choice(gen.LAYOUTS), files)
        try:
            conversations, memories, _ = read(importer, source)
        except ImportFormatError:
            outcomes["error"] += 1
            continue
        outcomes["ok"] += 1
        for document in conversations:
            assert conversation_errors(document) == [], (name, path)
        assert memory_errors(memories) == [], (name, path)
    return outcomes


# -- progress and memory ------------------------------------------------------------------------


def refused(importer: Importer, path: Path, expected: str) -> None:
    """Reading `path` fails with an ImportFormatError whose message starts with the path and
    matches the pattern `expected`."""
    with pytest.raises(ImportFormatError) as caught:
        read(importer, path)
    assert str(caught.value).startswith(str(path))
    assert re.search(expected, str(caught.value)), str(caught.value)


def progress_of(importer: Importer, path: Path) -> list[int]:
    """What one import of `path` reports to `ImportContext.progress`, in order."""
    seen: list[int] = []
    ctx = context(path)
    ctx.progress = seen.append
    read(importer, path, ctx)
    return seen


def input_bytes(path: Path) -> int:
    """The size of a file, or of every file below a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def peak_heap(importer: Importer, path: Path) -> tuple[int, int]:
    """(records yielded, the Python heap's peak in bytes) for reading `path` without keeping
    what is yielded."""
    ctx = context(path)
    tracemalloc.start()
    try:
        with open_target(path) as target:
            count = sum(1 for _ in importer.read(target, ctx))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return count, peak


def heap_growth(run: Callable[[], None], times: int = 50) -> int:
    """Bytes of Python heap `times` more calls of `run` leave allocated, after warm-up calls
    (a reference held per call in C code grows it by the size of what it holds)."""
    for _ in range(3):
        run()
    tracemalloc.start()
    try:
        run()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(times):
            run()
        return int(tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()
