"""Concurrency: several processes on one vault (WAL, one writer at a time, a busy timeout).

- Two processes writing at once, each 2,000 memories in small batches and single adds,
  interleaved, lose nothing: every memory of both is there, the counts add up, the audit chain
  verifies without gaps, and the two writers' entries really interleave.
- A reader is not blocked by a long write, and sees the vault as it was before it.
- A second writer waits (busy timeout) for the first to commit instead of failing.
- In one process (a server's threads on one opened vault), a reader thread is answered while
  another thread's import holds the write transaction open.
"""

from __future__ import annotations

import itertools
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memvault.importers.chatgpt import IMPORTER
from memvault.importers.ingest import BATCH as IMPORT_BATCH
from memvault.importers.ingest import ingest, make_context
from memvault.sources import open_target
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_zip
from storekit import answered_during_write
from vaultkit import PASSPHRASE, make_vault, spawn_ready

PER_WRITER = 2_000
BATCH = 40
SINGLES = 10  # single adds after each batch

#: A writer process. "mixed": waits for the file GO to exist, then adds N memories as batches
#: of BATCH alternating with SINGLES single adds. "hold": adds N memories inside one
#: transaction, says "holding", keeps the write lock for HOLD seconds, then commits.
CHILD = r"""
import sys, time, uuid
from pathlib import Path

from memvault.canonical import content_hash
from memvault.store.codec import memory_from_json
from memvault.vault import Vault

home, mode, tag, passphrase = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[5]
count = int(sys.argv[4])


def text(i):
    return f"Concurrency test {tag}: memory number {i} of {tag}."


def memory(i):
    content = text(i)
    return memory_from_json({
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"memvault-concurrency/{tag}/{i}")),
        "type": "fact", "custom_type": None, "status": "active",
        "content": content, "content_hash": content_hash(content), "summary": None,
        "tags": [tag], "confidence": {"initial": 0.8, "current": 0.8,
                                      "decay_model": "time_linear", "last_reinforced": None},
        "temporal": {"created_at": "2026-01-01T10:00:00Z", "updated_at": None,
                     "valid_from": None, "valid_until": None, "superseded_by": None},
        "provenance": {"platform": "claude", "platform_user_id": None,
                       "conversation_ref": None, "message_ref": None,
                       "extraction_method": "api_export", "extracted_at": None,
                       "extractor": None},
        "access": {"visibility": "private", "exportable": True, "shared_with": []},
        "embedding_ref": None, "metadata": {"language": "en"},
    })


with Vault.open(home, passphrase) as vault:
    if mode == "mixed":
        batch_size, singles = int(sys.argv[6]), int(sys.argv[7])
        go = home.parent / "GO"
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.005)
        i = 0
        while i < count:
            n = min(batch_size, count - i)
            session = vault.acting_as(f"system:{tag}")
            result = session.add_memories([memory(j) for j in range(i, i + n)])
            assert len(result.created) == n, result
            i += n
            for _ in range(min(singles, count - i)):
                added = vault.acting_as("user").add(text(i), "fact", tags=[tag], platform="claude")
                assert added.created
                i += 1
    else:
        hold = float(sys.argv[6])
        print("ready", flush=True)
        with vault.store.transaction():
            vault.add_memories([memory(j) for j in range(count)])
            print("holding", flush=True)
            time.sleep(hold)
        print("committed", flush=True)
print("done", flush=True)
"""


def _spawn(home: Path, *args: object) -> subprocess.Popen[str]:
    return spawn_ready(CHILD, home, *args[:3], PASSPHRASE, *args[3:])


def _expect(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdout is not None
    got = proc.stdout.readline().strip()
    if got != line:
        proc.kill()
        raise AssertionError(
            f"expected {line!r} from the writer, got {got!r}: {proc.communicate()}"
        )


def _tagged(vault: Vault, tag: str) -> int:
    return vault.list(MemoryQuery(tags=(tag,), statuses=None, limit=0)).total


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    with make_vault(home) as vault:
        vault.add("Written before the writers start", "fact")
        before_memories = vault.list(MemoryQuery(statuses=None, limit=0)).total
        before_entries = vault.store.count_audit()
    writers = {
        tag: _spawn(home, "mixed", tag, PER_WRITER, BATCH, SINGLES)
        for tag in ("writer-a", "writer-b")
    }
    (tmp_path / "GO").touch()  # both start at once
    for tag, proc in writers.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0 and out.splitlines()[-1] == "done", f"{tag}: {err}"
    with Vault.open(home, PASSPHRASE) as vault:
        for tag in writers:
            assert _tagged(vault, tag) == PER_WRITER, tag
            # Every imported memory is there under its own id.
            batch_ids = [
                str(uuid.uuid5(uuid.NAMESPACE_URL, f"memvault-concurrency/{tag}/{i}"))
                for i in range(0, PER_WRITER, BATCH + SINGLES)
            ]
            assert len(vault.store.get_memories(batch_ids)) == len(batch_ids), tag
        total = vault.list(MemoryQuery(statuses=None, limit=0)).total
        assert total == before_memories + 2 * PER_WRITER
        entries = vault.audit_log()
        assert len(entries) == before_entries + 2 * PER_WRITER
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))  # no gaps
        report = vault.verify_audit()
        assert report.ok, report.problems
        assert vault.check_integrity() == []
        # The two writers really ran at the same time: their entries interleave.
        owners = [e.actor for e in entries[before_entries:] if e.actor.startswith("system:")]
        switches = sum(1 for x, y in itertools.pairwise(owners) if x != y)
        assert switches >= 4, f"the writers did not overlap ({switches} switches)"


def test_a_reader_is_not_blocked_and_a_second_writer_waits(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    with make_vault(home) as vault:
        vault.add("The user lives in Lisbon", "fact", tags=["home"])
    hold = 1.5
    writer = _spawn(home, "hold", "long-write", 3_000, hold)
    try:
        _expect(writer, "holding")
        held_since = time.perf_counter()
        with Vault.open(home, PASSPHRASE) as vault:
            # Reads go on while the write lock is held, and see the committed state only.
            start = time.perf_counter()
            assert vault.list().total == 1
            assert [h.memory.content for h in vault.search("lisbon")] == [
                "The user lives in Lisbon"
            ]
            assert vault.search("concurrency") == []
            assert vault.stats()["memories"] == 1
            assert vault.verify_audit().ok
            read_time = time.perf_counter() - start
            assert time.perf_counter() - held_since < hold, "the reads took too long to prove it"
            assert read_time < hold / 2, f"reads took {read_time:.2f} s under a held write lock"
            # A second writer waits for the lock (busy timeout, 10 s) rather than failing.
            start = time.perf_counter()
            added = vault.add("Written while another process held the lock", "fact")
            waited = time.perf_counter() - start
            assert added.created
            assert waited >= hold - (start - held_since) - 0.1, f"waited only {waited:.2f} s"
            _expect(writer, "committed")
            assert _tagged(vault, "long-write") == 3_000
            assert vault.list().total == 3_002
            assert vault.verify_audit().ok
        _, err = writer.communicate(timeout=60)
        assert writer.returncode == 0, err
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.communicate()


def test_a_reader_thread_is_answered_while_an_import_writes(tmp_path: Path) -> None:
    """Issue 16: one opened vault, two threads. The import stops inside its transaction (its
    progress callback holds it, after a first batch of conversations was written), so it
    cannot commit before the reader thread has its answers — the vault as last committed."""
    count = IMPORT_BATCH + 20
    export = write_zip(gen.export(seed=5, count=count), tmp_path / "chatgpt.zip")
    results: list[Any] = []
    with make_vault(tmp_path / "vault") as vault:
        before = vault.add("The user lives in Lisbon", "fact", tags=["home"]).memory.id

        def run_import(hold: Callable[[], None]) -> None:
            def on_conversation(seen: int) -> None:
                if seen == IMPORT_BATCH + 1:  # the first batch is written, not committed
                    hold()

            with open_target(export) as target:
                results.append(
                    ingest(
                        vault,
                        IMPORTER,
                        target,
                        make_context(str(export), None),
                        on_conversation=on_conversation,
                        readers=0,
                    )
                )

        def read() -> dict[str, Any]:
            return {
                "memory": vault.get(before).content,
                "listed": vault.list().total,
                "found": [h.memory.id for h in vault.search("lisbon")],
                "conversations": vault.count_conversations(),
                "audit": [e.action for e in vault.audit_log()],
            }

        assert answered_during_write(run_import, read) == {
            "memory": "The user lives in Lisbon",
            "listed": 1,
            "found": [before],
            "conversations": 0,  # none committed yet
            "audit": ["init", "add"],
        }
        assert results[0].conversations_new == count
        assert vault.count_conversations() == count
        assert vault.verify_audit().ok
