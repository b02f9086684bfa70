"""An export read and converted in child processes while the importing process writes.

Parsing and converting a large export is Python work, and so is writing it to the encrypted
vault: on a machine with several cores they overlap. `reader_processes` forks; each child runs
the importer and encodes every conversation once, exactly as the store keeps it (the zstd frame
of its sorted-key JSON, `memvault.store.documents`), and sends it with its index columns
through a pipe; the parent gets `StoredConversation`s whose document is that frame
(`EncodedDocument`) and stores them without building, serializing or compressing them again.
Memories, read progress, warnings and the child's error come through the same pipe, so the
parent raises the same exception, with the same message, as if it had read the export itself.

With several children, an importer that can split its reading (`Importer.read_shard`) has
each child convert the items it claims as it is ready for the next (`_Claims`: a counter
under a lock, the claims logged in order through a pipe the parent reads), so a child slowed
by rich conversations takes fewer; every child scans every item to find where each ends. The
parent takes the items back in the export's order, following the log, so records, warnings,
the first error and which duplicate memory is kept are those of one reader.

The parent keeps its one transaction: an error on either side leaves the vault as it was.
Memory stays bounded: a pipe blocks its child while the parent is behind.
"""

from __future__ import annotations

import fcntl
import gc
import io
import mmap
import os
import pickle
import signal
import struct
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from typing import IO, Any, Final, Literal, overload

import orjson

from memvault.formats.pam.writer import conversation_filename, encode_document
from memvault.importers.base import (
    ConversationColumns,
    ConversationJson,
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    Importer,
    ImportFormatError,
    ItemDone,
    Shard,
    ShardableImporter,
    ShardEnd,
)
from memvault.recall.index import message_rows
from memvault.sources import Target
from memvault.store.base import StoredConversation
from memvault.store.documents import EncodedDocument, compress_json

__all__ = ["MAX_READERS", "EncodedConversation", "Form", "default_readers", "reader_processes"]

#: A frame: its kind and the length of its payload.
_FRAME: Final = struct.Struct("<cI")
_CONVERSATION: Final = b"C"  # index columns (JSON), a newline, the document (see `Form`)
_MEMORY: Final = b"M"  # a PAM memory object (JSON)
_PROGRESS: Final = b"P"  # bytes of the export read so far (decimal)
_WARNINGS: Final = b"W"  # new warnings (JSON array)
_ITEM_DONE: Final = b"I"  # the records of the child's run of items are all sent
_SHARD_END: Final = b"S"  # warnings that hold if every shard gives them (JSON array)
_ERROR: Final = b"E"  # the exception that stopped the reader (pickled type, args, members)
_DONE: Final = b"D"
_BUFFER: Final = 1 << 20
#: What a child's pipe holds. The parent takes the items in the export's order, so a child
#: whose next item is not wanted yet must be able to write ahead: with the default 64 KiB a
#: child spent a fifth of the import blocked, and the 300 MB benchmark ran 17 s, not 13 s.
_PIPE_CAPACITY: Final = 1 << 20
#: A child hands its bytes to the pipe in writes of this size, well within its capacity.
_CHILD_BUFFER: Final = 256 << 10
#: Conversations a child converts between two garbage collections.
_COLLECT_EVERY: Final = 2000
#: The next item to claim, in the file `_Claims` share.
_COUNTER: Final = struct.Struct("<q")
#: Items a reader claims at once: a claim costs some 5 µs (a lock, a write, an unlock), an
#: item of the 300 MB benchmark 140 µs of a reader's time on average.
_RUN: Final = 4

#: What a child sends a conversation as (`reader_processes`).
Form = Literal["store", "pam"]


@dataclass(frozen=True, slots=True)
class EncodedConversation(ConversationColumns):
    """A conversation as `memvault convert` writes it (`encode_document`: RFC 8785 JSON),
    encoded by the reader, with its index columns."""

    data: bytes


Record = StoredConversation | EncodedConversation | ImportedMemory


@dataclass(slots=True)
class _Child:
    pid: int
    stream: IO[bytes]
    finished: bool = False  # sent DONE or ERROR, or its end was read
    reaped: bool = False


class _Claims(Shard):
    """Items dealt to the readers as each is ready for the next, not in turn: the export's
    rich conversations (a fifth of them took half the readers' time in a generated export)
    would otherwise all fall to one reader while the others wait. A claim takes the next
    run of `_RUN` items from a counter shared by the readers, under a POSIX record lock
    (released if its holder dies), and writes the reader's number to the log the parent
    reads: the log names each run's reader in item order."""

    def __init__(self, number: int, count: int, shared: int, log: int) -> None:
        super().__init__(number, count)
        self._shared = shared  # the file holding the counter (the lock is on it)
        self._counter = mmap.mmap(shared, _COUNTER.size)
        self._log = log
        self._entry = bytes([number])
        self._first = self._end = 0  # the run claimed last: [first, end)

    def mine(self, index: int) -> bool:
        self.settle(index)
        return self._first <= index

    def settle(self, index: int) -> None:
        while self._end <= index:
            self._first = self._claim()
            self._end = self._first + _RUN

    def ends_run(self, index: int) -> bool:
        return index == self._end - 1

    def _claim(self) -> int:
        fcntl.lockf(self._shared, fcntl.LOCK_EX)
        try:
            first: int = _COUNTER.unpack_from(self._counter)[0]
            # Logged before the counter moves on: a reader that dies in between leaves a
            # claim the parent meets (and reports the reader's end), never a gap.
            os.write(self._log, self._entry)
            _COUNTER.pack_into(self._counter, 0, first + _RUN)
        finally:
            fcntl.lockf(self._shared, fcntl.LOCK_UN)
        return first


#: Reader processes at most: with more, the writing process is the bottleneck (a third
#: reader on two cores measured no faster).
MAX_READERS: Final = 2


def default_readers() -> int:
    """Reader processes for an import or a conversion: one per core, at most `MAX_READERS`;
    none (the calling process reads) where the platform cannot fork."""
    return min(MAX_READERS, os.cpu_count() or 1) if hasattr(os, "fork") else 0


@overload
def reader_processes(
    importer: Importer,
    target: Target,
    context: ImportContext,
    count: int = 1,
    *,
    form: Literal["store"] = "store",
) -> AbstractContextManager[Iterator[StoredConversation | ImportedMemory]]: ...


@overload
def reader_processes(
    importer: Importer,
    target: Target,
    context: ImportContext,
    count: int = 1,
    *,
    form: Literal["pam"],
) -> AbstractContextManager[Iterator[EncodedConversation | ImportedMemory]]: ...


def reader_processes(
    importer: Importer,
    target: Target,
    context: ImportContext,
    count: int = 1,
    *,
    form: Form = "store",
) -> AbstractContextManager[Iterator[Record]]:
    """Fork `count` children that read `target` with `importer` (several only when it is a
    `ShardableImporter`); yields the records they send, in the export's order. The context's
    progress callback is called, and its warnings extended, here.

    A conversation comes as `form` says: "store", a `StoredConversation` whose document is
    the text the vault keeps; "pam", an `EncodedConversation`, the bytes of the PAM file
    `memvault convert` writes."""
    return _reader_processes(importer, target, context, count, form)


@contextmanager
def _reader_processes(
    importer: Importer, target: Target, context: ImportContext, count: int, form: Form
) -> Iterator[Iterator[Record]]:
    if count > 1 and not (isinstance(importer, ShardableImporter) and _archive_reopenable(target)):
        count = 1
    children: list[_Child] = []
    shared = log = log_end = None
    if count > 1:
        shared = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
        os.ftruncate(shared.fileno(), _COUNTER.size)
        log_fd, log_end = os.pipe()
        log = os.fdopen(log_fd, "rb")
    try:
        for number in range(count):
            read_fd, write_fd = os.pipe()
            _widen(write_fd)
            pid = os.fork()
            if pid == 0:  # pragma: no cover - a child (its work is checked through the parent)
                # Whatever happens, the child never returns into the caller's code (its vault
                # transaction is the parent's).
                status = 1
                try:
                    # Ctrl-C reaches the whole process group: the parent handles it (and
                    # ends its readers), so it can say what became of the import.
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    os.close(read_fd)
                    for other in children:
                        other.stream.close()
                    shard = None
                    if shared is not None and log is not None and log_end is not None:
                        log.close()
                        _reopen_archive(target)
                        shard = _Claims(number, count, shared.fileno(), log_end)
                    status = _run_child(importer, target, context, write_fd, shard, form)
                finally:
                    os._exit(status)
            os.close(write_fd)
            children.append(_Child(pid, os.fdopen(read_fd, "rb", buffering=_BUFFER)))
        if log is None or log_end is None:
            yield _single(children[0], context, _DECODERS[form])
        else:
            os.close(log_end)  # the log ends when every reader has
            log_end = None
            yield _merged(children, log, context, _DECODERS[form])
    finally:
        if log_end is not None:
            os.close(log_end)
        if log is not None:
            log.close()
        if shared is not None:
            shared.close()
        for child in children:
            child.stream.close()  # a child still writing gets EPIPE and stops
            if not child.finished:
                # It has nothing to clean up (it only reads); do not wait for it to notice.
                with suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGKILL)
            if not child.reaped:
                os.waitpid(child.pid, 0)


def _widen(fd: int) -> None:
    """Give the pipe `_PIPE_CAPACITY` where the system allows (Linux; a pipe's default 64 KiB
    holds a few conversations only)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if set_size is not None:
        with suppress(OSError):  # above /proc/sys/fs/pipe-max-size: keep the default
            fcntl.fcntl(fd, set_size, _PIPE_CAPACITY)


def _archive_reopenable(target: Target) -> bool:
    """Whether each child can have its own handle on the target's zip archive: forked
    processes share a file's offset, and zipfile seeks before it reads. An archive in memory
    (decrypted) is copied with the process, one on disk is opened again by name."""
    archive = target._zip  # the archive the entries read from
    if archive is None or isinstance(archive.fp, io.BytesIO):
        return True
    return isinstance(archive.filename, str) and os.path.isfile(archive.filename)


def _reopen_archive(target: Target) -> None:  # pragma: no cover - runs in a child
    archive = target._zip  # the archive the entries read from
    if archive is not None and not isinstance(archive.fp, io.BytesIO) and archive.filename:
        archive.fp = open(archive.filename, "rb")  # noqa: SIM115 - lives as long as the child


def _signal_name(number: int) -> str:
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


def _frames(child: _Child, context: ImportContext) -> Iterator[tuple[bytes, bytes]]:
    read = child.stream.read
    unpack = _FRAME.unpack
    size_of_head = _FRAME.size
    while True:
        head = read(size_of_head)
        if len(head) < size_of_head:
            _, status = os.waitpid(child.pid, 0)
            child.finished = child.reaped = True
            code = os.waitstatus_to_exitcode(status)
            how = f"killed by {_signal_name(-code)}" if code < 0 else f"exit status {code}"
            # (the front end says what became of the import: this names only what happened)
            raise ImportFormatError(
                context.source_file,
                f"the process reading the export stopped before the end ({how})",
            )
        kind, size = unpack(head)
        payload = read(size)
        if kind == _ERROR:
            child.finished = True
            raise _unpickle_error(payload)
        if kind == _DONE:
            child.finished = True
        yield kind, payload


def _conversation(payload: bytes) -> StoredConversation:
    split = payload.index(b"\n")
    cid, platform, title, created, updated, count, size = orjson.loads(payload[:split])
    body = split + 1 + size  # (sliced from the payload: each part copied once)
    return StoredConversation(
        id=cid,
        platform=platform,
        # The passages stay JSON: the store reads them in C (`sqlite_recall.write_messages`).
        document=EncodedDocument(payload[body:], payload[split + 1 : body]),
        title=title,
        created_at=created,
        updated_at=updated,
        message_count=count,
    )


def _pam_conversation(payload: bytes) -> EncodedConversation:
    (cid, platform, title, created, updated, count), body = _split(payload)
    return EncodedConversation(cid, platform, title, created, updated, count, body)


def _split(payload: bytes) -> tuple[list[Any], bytes]:
    """A conversation frame's index columns (a JSON array) and its document's bytes."""
    split = payload.index(b"\n")
    return orjson.loads(payload[:split]), payload[split + 1 :]


_Decoder = Callable[[bytes], StoredConversation | EncodedConversation]
_DECODERS: Final[dict[str, _Decoder]] = {"store": _conversation, "pam": _pam_conversation}


def _single(child: _Child, context: ImportContext, decode: _Decoder) -> Iterator[Record]:
    loads = orjson.loads
    for kind, payload in _frames(child, context):
        if kind == _CONVERSATION:
            yield decode(payload)
        elif kind == _MEMORY:
            yield ImportedMemory(loads(payload))
        elif kind == _PROGRESS:
            if context.progress is not None:
                context.progress(int(payload))
        elif kind in (_WARNINGS, _SHARD_END):
            context.warnings.extend(loads(payload))
        elif kind == _DONE:
            return


def _merged(
    children: list[_Child], log: IO[bytes], context: ImportContext, decode: _Decoder
) -> Iterator[Record]:
    """Items i to i + `_RUN` from the child the log names (i / `_RUN`)-th, until that child
    has no more."""
    loads = orjson.loads
    frames = [_frames(child, context) for child in children]
    ends: list[list[str] | None] = [None] * len(children)
    seen_memories: set[str] = set()
    read_log = log.read
    while True:
        claim = read_log(1)
        if not claim:
            # Every reader stopped before claiming the next item (an error they all met,
            # such as an unreadable side file): the first one's frames say what it was.
            for kind, _ in frames[0]:
                if kind == _DONE:  # pragma: no cover - a reader ends after a claim
                    break
            raise ImportFormatError(  # pragma: no cover - as above
                context.source_file, "the processes reading the export stopped before the end"
            )
        shard = claim[0]
        for kind, payload in frames[shard]:
            if kind == _CONVERSATION:
                yield decode(payload)
            elif kind == _MEMORY:
                memory = loads(payload)
                if memory.get("id") not in seen_memories:
                    seen_memories.add(memory.get("id"))
                    yield ImportedMemory(memory)
            elif kind == _PROGRESS:
                if shard == 0 and context.progress is not None:
                    context.progress(int(payload))
            elif kind == _WARNINGS:
                context.warnings.extend(loads(payload))
            elif kind == _ITEM_DONE:
                break
            elif kind == _SHARD_END:
                ends[shard] = loads(payload)
            elif kind == _DONE:
                # The export has no item `index`: the others have no more either.
                for other, rest in enumerate(frames):
                    if other != shard:
                        for kind, payload in rest:
                            if kind == _SHARD_END:
                                ends[other] = loads(payload)
                            elif kind == _DONE:
                                break
                shared = [set(end or ()) for end in ends]
                context.warnings.extend(w for w in ends[0] or () if all(w in s for s in shared))
                return


def _run_child(
    importer: Importer,
    target: Target,
    context: ImportContext,
    fd: int,
    shard: Shard | None,
    form: Form,
) -> int:
    """Run the importer and send what it yields; the exit status."""
    from memvault.importers.ingest import stored

    # What the parent built is not this process's garbage to scan, and converting allocates
    # so many containers (none in cycles) that automatic collection costs a fifth of the
    # time: collect now and then instead, so memory stays bounded all the same.
    gc.freeze()
    gc.disable()
    converted = 0
    out = os.fdopen(fd, "wb", buffering=_CHILD_BUFFER)
    pack = _FRAME.pack
    write = out.write
    dumps = orjson.dumps
    sort_keys = orjson.OPT_SORT_KEYS

    def send(kind: bytes, payload: bytes) -> None:
        write(pack(kind, len(payload)))
        write(payload)

    def send_warnings() -> None:
        if context.warnings:
            send(_WARNINGS, dumps(context.warnings))
            context.warnings.clear()

    if context.progress is not None:
        context.progress = lambda done: send(_PROGRESS, str(done).encode())
    # The vault keeps the sorted-key JSON: an importer that can write it directly need not
    # build the document (this process's context is its own copy).
    context.conversations_as_json = form == "store"
    records: Iterator[Any] = (
        importer.read_shard(target, context, shard)
        if shard is not None and isinstance(importer, ShardableImporter)
        else importer.read(target, context)
    )
    try:
        for record in records:
            if isinstance(record, ImportedConversation):
                row = stored(record.document)
                if form == "pam":
                    body = encode_document(record.document, conversation_filename(row.id))
                    send(_CONVERSATION, _index_columns(row) + b"\n" + body)
                else:
                    body = compress_json(dumps(record.document, option=sort_keys))
                    passages = orjson.dumps(message_rows(record.document))
                    send(_CONVERSATION, _with_passages(row, passages, body))
                converted += 1
                if converted % _COLLECT_EVERY == 0:
                    gc.collect()
            elif isinstance(record, ConversationJson):
                body = compress_json(record.data)
                if form == "pam":
                    send(_CONVERSATION, _index_columns(record) + b"\n" + body)
                else:
                    cut = record.passages
                    if cut is None:  # not cut as the document was written
                        cut = orjson.dumps(message_rows(orjson.loads(record.data)))
                    send(_CONVERSATION, _with_passages(record, cut, body))
            elif isinstance(record, ImportedMemory):
                send(_MEMORY, dumps(dict(record.memory)))
            elif isinstance(record, ItemDone):
                send_warnings()
                if shard is not None and shard.ends_run(record.index):
                    send(_ITEM_DONE, b"")
            elif isinstance(record, ShardEnd):
                send_warnings()
                send(_SHARD_END, dumps(list(record.warnings)))
        send_warnings()
        send(_DONE, b"")
        out.flush()
        return 0
    except BrokenPipeError:  # the parent stopped reading: it has its own error
        return 1
    except BaseException as exc:
        try:
            send(_ERROR, _pickle_error(exc))
            out.flush()
        except OSError:
            pass
        return 1


def _index_columns(row: StoredConversation | ConversationJson) -> bytes:
    """What a conversation frame carries before its document (`_split` reads it back)."""
    return orjson.dumps(
        [row.id, row.platform, row.title, row.created_at, row.updated_at, row.message_count]
    )


def _with_passages(
    row: StoredConversation | ConversationJson, passages: bytes, body: bytes
) -> bytes:
    """A conversation frame for the vault: its index columns and the size of its recall
    passages (computed here, in the reader: `memvault.recall.index.message_rows`, or by the
    C conversion as it wrote the document), the passages (JSON), then the document's frame.
    The writing process only writes them."""
    head = orjson.dumps(
        [row.id, row.platform, row.title, row.created_at, row.updated_at, row.message_count,
         len(passages)]
    )  # fmt: skip
    return head + b"\n" + passages + body


def _pickle_error(exc: BaseException) -> bytes:
    """The exception as its type, args and members: exceptions whose constructor takes other
    arguments than their args (ImportFormatError, SourceError) come back whole."""
    members = dict(getattr(exc, "__dict__", {}))
    try:
        return pickle.dumps((type(exc), exc.args, members))
    except Exception:
        return pickle.dumps((RuntimeError, (f"{type(exc).__name__}: {exc}",), {}))


def _unpickle_error(payload: bytes) -> BaseException:
    kind, args, members = pickle.loads(payload)
    exc: BaseException = kind.__new__(kind, *args)
    exc.args = args
    exc.__dict__.update(members)
    return exc
