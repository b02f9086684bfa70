"""Provider imports read by child processes while the importing process writes (PAM §25
conversations, one transaction): whatever the number of readers, the vault ends up with the
same conversations, memories, counts, warnings and audit entries, and a bad conversation gives
the same error and changes nothing. Also the streamed reading of conversations.json: items
larger than the read window, pretty-printed files, escapes orjson refuses."""

from __future__ import annotations

import json
import os
import random
import signal
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    ImportFormatError,
    ImportRecord,
    ItemDone,
    Shard,
    ShardableImporter,
    ShardEnd,
    ShardRecord,
)
from memvault.importers.chatgpt import IMPORTER, ChatGPTImporter
from memvault.importers.ingest import IngestResult, ingest, make_context, store_records, stored
from memvault.sources import Target, open_target
from memvault.store.documents import EncodedDocument
from memvault.store.sqlite import BULK_CACHE_KIB, CACHE_KIB
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_folder, write_zip
from vaultkit import make_vault

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def damaged_export(seed: int) -> dict[str, bytes]:
    """An export whose graphs are damaged here and there (unknown roles, reordered or foreign
    children, lost parents, empty nodes), with feedback for a conversation it does not hold:
    every path that warns."""
    files = gen.export(seed=seed, count=23)
    convs = json.loads(files["conversations.json"])
    rng = random.Random(seed)
    for conv in convs:
        keys = list(conv["mapping"])
        for _ in range(3):
            node = conv["mapping"][rng.choice(keys)]
            op = rng.randrange(6)
            if op == 0:
                node["children"] = list(reversed(node.get("children", [])))
            elif op == 1:
                node["children"] = [*node.get("children", []), rng.choice(keys)]
            elif op == 2:
                node["parent"] = rng.choice([*keys, None, "missing"])
            elif op == 3:
                node["message"] = None
            elif op == 4 and node.get("message"):
                node["message"]["author"] = {"role": "critic", "name": "x", "metadata": {"a": 1}}
            elif op == 5 and node.get("message"):
                node["message"]["content"] = {"content_type": "mystery", "text": "?"}
    files["conversations.json"] = json.dumps(convs).encode()
    feedback = json.loads(files["message_feedback.json"])
    feedback.append({**feedback[0], "conversation_id": "not-in-this-export"})
    files["message_feedback.json"] = json.dumps(feedback).encode()
    return files


def imported(tmp_path: Path, path: Path, readers: int) -> tuple[Any, ...]:
    """Everything an import leaves in a fresh vault, minus the moment it ran."""
    with make_vault(tmp_path / f"vault-{readers}") as vault:
        with open_target(path) as target:
            result = ingest(
                vault, IMPORTER, target, make_context(str(path), None, now=NOW), readers=readers
            )
        return (
            result.to_json(),
            conversations(vault),
            sorted((m.id, m.content_hash) for m in vault.iter_memories()),
            [(e.action, e.actor, e.details) for e in vault.audit_log() if e.action != "init"],
            stored_frames(vault),
        )


def stored_frames(vault: Vault) -> list[tuple[str, bytes]]:
    """The conversations' documents as the vault file keeps them: zstd frames (schema
    version 2), the same bytes whichever process compressed them."""
    rows = vault._store.execute_raw(
        "SELECT id, typeof(document), document FROM conversations ORDER BY id"
    )
    assert rows and all(kind == "blob" for _, kind, _ in rows)
    return [(cid, frame) for cid, _, frame in rows]


def conversations(vault: Vault) -> list[tuple[str, Any]]:
    return sorted((c.id, dict(c.document)) for c in vault.conversations())


@pytest.mark.parametrize("shape", ["zip", "folder", "damaged"])
def test_pam_25_readers_in_child_processes_store_what_one_reader_stores(
    shape: str, tmp_path: Path
) -> None:
    files = damaged_export(4) if shape == "damaged" else gen.export(seed=5, count=17)
    if shape == "zip":
        path = write_zip(files, tmp_path / "export.zip")
    else:
        path = write_folder(files, tmp_path / "export")
    alone = imported(tmp_path, path, readers=0)
    assert alone[0]["conversations"]["new"] == (23 if shape == "damaged" else 17)
    if shape == "damaged":
        warnings = alone[0]["warnings"]
        assert any("not-in-this-export" in w for w in warnings)
        assert any("'critic'" in w for w in warnings)
    for readers in (1, 2):
        assert imported(tmp_path, path, readers) == alone, readers


@pytest.mark.parametrize("bad", [7, 8])
@pytest.mark.parametrize("readers", [0, 1, 2])
def test_a_bad_conversation_is_the_same_error_with_any_number_of_readers(
    bad: int, readers: int, tmp_path: Path
) -> None:
    files = gen.export(seed=9, count=12)
    convs = json.loads(files["conversations.json"])
    convs[bad]["mapping"] = "broken"
    convs[bad + 2]["mapping"] = ["also broken, but after the first"]
    files["conversations.json"] = json.dumps(convs).encode()
    path = write_zip(files, tmp_path / "bad.zip")
    with make_vault(tmp_path / "v") as vault:
        before = (vault.stats(), [e.hash for e in vault.audit_log()])
        with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
            ingest(vault, IMPORTER, target, make_context(str(path), None), readers=readers)
        assert (
            f"conversations.json: conversation {bad} (id {convs[bad]['conversation_id']}): "
            "field 'mapping': expected an object"
        ) in str(caught.value)
        assert (vault.stats(), [e.hash for e in vault.audit_log()]) == before


@pytest.mark.parametrize("readers", [0, 2])
def test_invalid_json_names_the_conversation_with_any_number_of_readers(
    readers: int, tmp_path: Path
) -> None:
    data = gen.export(seed=3, count=6)["conversations.json"]
    at = data.index(b"Conversa 5")
    path = tmp_path / "conversations.json"
    path.write_bytes(data[:at] + b"\xff" + data[at + 1 :])
    with make_vault(tmp_path / "v") as vault:
        with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
            ingest(vault, IMPORTER, target, make_context(str(path), None), readers=readers)
        assert "conversations.json: conversation 5: not valid JSON" in str(caught.value)
        assert vault.stats()["conversations"] == 0


def read_documents(path: Path) -> list[dict[str, Any]]:
    with open_target(path) as target:
        return [
            dict(r.document)
            for r in IMPORTER.read(target, make_context(path.name, None, now=NOW))
            if isinstance(r, ImportedConversation)
        ]


def test_items_larger_than_the_read_window_and_pretty_printed_files(tmp_path: Path) -> None:
    """A conversation of several MiB spans many reads; whitespace between and inside items
    (an indented file) is skipped; the documents equal those of the compact file."""
    convs = gen.conversations(6, 5)
    node = next(n for n in convs[2]["mapping"].values() if n["message"])
    node["message"]["content"] = {"content_type": "text", "parts": ["ação " * 700_000]}
    compact = tmp_path / "compact" / "conversations.json"
    pretty = tmp_path / "pretty" / "conversations.json"
    for path, text in ((compact, json.dumps(convs)), (pretty, json.dumps(convs, indent=2))):
        path.parent.mkdir()
        path.write_text("\n " + text + "\n\n", encoding="utf-8")
    documents = read_documents(compact)
    assert len(documents) == 5
    assert any(m["content"].get("text") == "ação " * 700_000 for m in documents[2]["messages"])
    assert read_documents(pretty) == documents


@pytest.mark.parametrize(
    ("tail", "reason"),
    [
        (b"", "unexpected end of data"),
        (b"] x", "trailing data after the array"),
        (b",]", "expected"),
        (b"}", "expected ',' or ']'"),
    ],
)
def test_a_damaged_array_is_refused_naming_the_conversation(
    tail: bytes, reason: str, tmp_path: Path
) -> None:
    data = gen.export(seed=3, count=2)["conversations.json"]
    path = tmp_path / "conversations.json"
    path.write_bytes(data[:-1] + tail)
    with pytest.raises(ImportFormatError) as caught:
        read_documents(path)
    assert "conversations.json: conversation 2: not valid JSON" in str(caught.value)
    assert reason in str(caught.value)


def test_a_lone_surrogate_escape_imports_as_before(tmp_path: Path) -> None:
    """orjson refuses a lone UTF-16 surrogate escape (a cut emoji); such a conversation is
    read by yajl instead, which replaces it, so the export still imports."""
    convs = gen.conversations(8, 2)
    node = next(n for n in convs[1]["mapping"].values() if n["message"])
    node["message"]["content"] = {"content_type": "text", "parts": ["cut emoji: MARK"]}
    path = tmp_path / "conversations.json"
    path.write_bytes(json.dumps(convs).encode().replace(b"MARK", b"\\ud83d!"))
    documents = read_documents(path)
    texts = [m["content"].get("text") or "" for m in documents[1]["messages"]]
    assert any(t.startswith("cut emoji: ") and t.endswith("!") for t in texts)


class _DyingImporter(ChatGPTImporter):
    """The ChatGPT importer in a process that is killed after its third conversation (as
    the out-of-memory killer would)."""

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        for count, record in enumerate(super().read(target, context)):
            if count == 3:
                os.kill(os.getpid(), signal.SIGKILL)
            yield record


def test_a_reader_that_dies_is_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    path = write_zip(gen.export(seed=2, count=8), tmp_path / "export.zip")
    with make_vault(tmp_path / "v") as vault:
        before = (vault.stats(), [e.hash for e in vault.audit_log()])
        with open_target(path) as target, pytest.raises(ImportFormatError) as caught:
            ingest(vault, _DyingImporter(), target, make_context(str(path), None), readers=1)
        assert "the process reading the export stopped before the end" in str(caught.value)
        assert "killed by signal 9" in str(caught.value)
        assert (vault.stats(), [e.hash for e in vault.audit_log()]) == before


def test_pam_25_the_same_conversation_twice_in_one_batch(tmp_path: Path) -> None:
    """`put_conversations` inserts a batch's new conversations in one statement; one that
    comes again later in the same batch is compared with the first (stored) version."""
    documents = read_documents(write_folder(gen.export(seed=1, count=1), tmp_path / "e"))
    first = stored(documents[0])
    longer = dict(documents[0], title="Renamed")
    encoded = replace(
        stored(longer),
        document=EncodedDocument.of(longer),
    )
    with make_vault(tmp_path / "v") as vault:
        outcomes = vault.put_conversations([first, first, encoded])
        assert [o[1] for o in outcomes] == ["new", "unchanged", "updated"]
        assert vault.get_conversation(first.id).document["title"] == "Renamed"
        # Both stores (the new one, then the update) in the batch's one entry.
        audited = [e.details for e in vault.audit_log() if e.action == "conversations"]
        assert [d["conversation_ids"] for d in audited] == [[first.id] * 2]


def test_a_childs_pipe_holds_a_megabyte_so_it_can_write_ahead() -> None:
    """The parent takes the children's items in the export's order: a child whose next item
    is not wanted yet keeps converting only while its pipe has room (the default 64 KiB holds a few
    conversations)."""
    import fcntl

    from memvault.importers import pipe

    read_fd, write_fd = os.pipe()
    try:
        pipe._widen(write_fd)
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        assert fcntl.fcntl(write_fd, fcntl.F_GETPIPE_SZ) == min(pipe._PIPE_CAPACITY, limit)
        assert pipe._CHILD_BUFFER < pipe._PIPE_CAPACITY
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_conversations_are_written_with_a_smaller_page_cache(tmp_path: Path) -> None:
    """While an import stores conversations SQLite's page cache is held to BULK_CACHE_KIB
    (their pages are written once, never read back); the vault's own size comes back after,
    also when the import fails."""
    seen: list[int] = []

    def records(fail: bool) -> Iterator[Any]:
        seen.append(vault.store.execute_raw("PRAGMA cache_size")[0][0])
        if fail:
            raise ImportFormatError("conversations.json", "cut short")
        yield from ()

    with make_vault(tmp_path / "vault") as vault:
        store_records(vault, records(False), IngestResult("chatgpt-importer/2026.11"))
        assert vault.store.execute_raw("PRAGMA cache_size") == [(-CACHE_KIB,)]
        with pytest.raises(ImportFormatError):
            store_records(vault, records(True), IngestResult("chatgpt-importer/2026.11"))
        assert vault.store.execute_raw("PRAGMA cache_size") == [(-CACHE_KIB,)]
    assert seen == [-BULK_CACHE_KIB, -BULK_CACHE_KIB]


def test_records_are_written_with_the_collector_paused_where_the_front_end_allows_it(
    tmp_path: Path,
) -> None:
    """The import's write loop runs with automatic garbage collection off inside
    `memvault.bulk.interpreter_tuning` (the CLI's bulk commands), on again after it, also
    when the import fails; outside that block (a server) the collector is left alone."""
    import gc

    from memvault.bulk import interpreter_tuning

    seen: list[bool] = []

    def records(fail: bool) -> Iterator[Any]:
        seen.append(gc.isenabled())
        if fail:
            raise ImportFormatError("conversations.json", "cut short")
        yield from ()

    assert gc.isenabled()
    with make_vault(tmp_path / "vault") as vault:
        with interpreter_tuning():
            store_records(vault, records(False), IngestResult("chatgpt-importer/2026.11"))
            assert gc.isenabled()
            with pytest.raises(ImportFormatError):
                store_records(vault, records(True), IngestResult("chatgpt-importer/2026.11"))
            assert gc.isenabled()
        store_records(vault, records(False), IngestResult("chatgpt-importer/2026.11"))
    assert seen == [False, False, True]
    assert gc.isenabled()


class _SlowFirstItem(ShardableImporter):
    """Items are the lines of a text file; each becomes a memory naming the process that
    converted it. Converting item 0 takes `pause` seconds (a very rich conversation)."""

    id = IMPORTER.id

    def __init__(self, pause: float) -> None:
        self.pause = pause

    def sniff(self, target: Target) -> bool:
        return True

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        for record in self.read_shard(target, context, Shard(0, 1)):
            if not isinstance(record, ItemDone | ShardEnd):
                yield record

    def read_shard(
        self, target: Target, context: ImportContext, shard: Shard
    ) -> Iterator[ShardRecord]:
        import time

        with target.entries[0].stream() as stream:
            lines = stream.read().decode().split()
        for index, line in enumerate(lines):
            if shard.mine(index):
                if index == 0:
                    time.sleep(self.pause)
                yield ImportedMemory({"id": line, "content": str(os.getpid())})
                yield ItemDone(index)
        shard.settle(len(lines))
        yield ShardEnd(())


def test_readers_claim_items_as_they_are_ready_so_a_slow_item_holds_back_no_other(
    tmp_path: Path,
) -> None:
    """Items go to the reader that is free, not to every n-th: while one reader converts a
    slow item, the other converts the items after it, and the parent still gets them all in
    the export's order, each once."""
    from memvault.importers.pipe import _RUN, reader_processes

    path = tmp_path / "items.txt"
    names = [f"item-{n:02d}" for n in range(40)]
    path.write_text("\n".join(names))
    context = make_context(str(path), None, now=NOW)
    with (
        open_target(path) as target,
        reader_processes(_SlowFirstItem(pause=1.0), target, context, 2) as records,
    ):
        got = [dict(r.memory) for r in records if isinstance(r, ImportedMemory)]
    assert [m["id"] for m in got] == names
    slow = got[0]["content"]
    others = [m["content"] for m in got[1:]]
    assert len(set(m["content"] for m in got)) == 2  # two readers took part
    # Dealt in turn, the slow reader would have converted every other item (19 of them);
    # claiming, it converts the rest of its run of items, and perhaps one run more.
    assert others.count(slow) <= 2 * _RUN, others


def test_pam_25_an_export_whose_rich_conversations_come_together_imports_as_with_one_reader(
    tmp_path: Path,
) -> None:
    """Uneven items (the generator's rich conversations, with custom instructions, code,
    attachments and thoughts, first; plain ones after): whichever reader claims which, the
    vault holds what one reader stores — records, warnings, memories and audit in order."""
    rich = json.loads(gen.export(seed=8, count=24)["conversations.json"])
    files = gen.export(seed=9, count=12, full=False)
    plain = json.loads(files["conversations.json"])
    full = [c for c in rich if len(json.dumps(c)) > 4000]
    assert full
    files["conversations.json"] = json.dumps(full * 1 + plain).encode()
    path = write_zip(files, tmp_path / "export.zip")
    alone = imported(tmp_path, path, readers=0)
    assert alone[0]["memories"]["new"] > 0
    assert imported(tmp_path, path, readers=2) == alone


def _outcome(tmp_path: Path, path: Path, readers: int) -> Any:
    """What an import of `path` with `readers` gives: its summary, or its error's message."""
    with make_vault(tmp_path / f"edge-{readers}") as vault, open_target(path) as target:
        try:
            return ingest(
                vault, IMPORTER, target, make_context(str(path), None, now=NOW), readers=readers
            ).to_json()
        except ImportFormatError as exc:
            return str(exc)


@pytest.mark.parametrize("count", [0, 1, 3, 4, 5, 9])
@pytest.mark.parametrize("tail", [b"]", b"", b"] x", b",]", b", 7]"])
def test_any_length_of_array_ends_as_with_one_reader(
    count: int, tail: bytes, tmp_path: Path
) -> None:
    """Readers claim items in runs: an array that ends before, inside or after a run, whole,
    cut short, with trailing data or a bad last item, imports (or is refused) exactly as
    with one reader."""
    items = json.loads(gen.export(seed=6, count=max(count, 1))["conversations.json"])[:count]
    path = tmp_path / "conversations.json"
    path.write_bytes(json.dumps(items).encode()[:-1] + tail)
    alone = _outcome(tmp_path, path, 0)
    assert isinstance(alone, dict if tail == b"]" else str)
    assert _outcome(tmp_path, path, 2) == alone


def test_an_import_into_a_vault_without_conversations_looks_up_no_older_ids_per_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ids of memvault 0.1.0 (`legacy_ids`) are looked up once, before the first write, in a
    vault that holds no conversation (it has no older id, and the import stores none);
    in a vault that holds some, once per batch, as `tests/test_fixture_vault.py` needs."""
    from memvault.importers.ingest import BATCH

    looked_up: list[int] = []
    original = Vault.conversation_ids

    def counted(self: Vault, ids: Any) -> set[str]:
        ids = list(ids)
        looked_up.append(len(ids))
        return original(self, ids)

    monkeypatch.setattr(Vault, "conversation_ids", counted)
    count = 2 * BATCH + 5
    path = write_zip(gen.export(seed=3, count=count, full=False), tmp_path / "export.zip")
    with make_vault(tmp_path / "v") as vault:
        for expected_lookups, new in ((1, count), (3, 0)):
            looked_up.clear()
            with open_target(path) as target:
                result = ingest(vault, IMPORTER, target, make_context(str(path), None), readers=0)
            assert result.conversations_new == new
            assert len(looked_up) == expected_lookups
