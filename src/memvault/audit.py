"""The tamper-evident audit log: every change to the vault appends one entry.

An entry records who (`actor`), what (`action`, `details`), when (`at`), which memory
(`memory_id`) and its `content_hash` — never the content itself, nor tags or summaries (AIMEM
§5.2: an auditor can tell *that* something happened without learning *what* the memory said).

Entries form a hash chain::

    hash = "sha256:" + hex(SHA-256(RFC 8785 JSON of {seq, at, actor, action, memory_id,
                                                      content_hash, details, prev_hash}))

with ``prev_hash`` the previous entry's ``hash`` (64 zeros for the first entry), and ``seq``
counting from 1 without gaps. The vault also keeps the chain head (last seq and hash) in its
meta table. `verify` recomputes everything and reports, by seq:

- an edited entry (its hash no longer matches its fields),
- a removed entry (a gap in seq, a broken prev_hash link, or a head that points past the end),
- a reordered entry (seq is hashed, so moved entries break their hashes and links),
- a memory whose current content hash is not the one its last audit entry recorded (changed
  outside the vault), or that has no audit entry at all.

Entries are appended inside the same transaction as the change they record, so a change and its
entry are committed together or not at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from memvault.canonical import jcs_dumps, sha256_prefixed
from memvault.store.base import AuditEntry, Store

__all__ = [
    "GENESIS",
    "HEAD_META_KEY",
    "AuditBatch",
    "AuditLog",
    "AuditReport",
    "PendingEntry",
    "entry_hash",
    "hash_of",
    "verify",
]

GENESIS: Final = "sha256:" + "0" * 64
HEAD_META_KEY: Final = "audit_head"
_MAX_PROBLEMS: Final = 100


def entry_hash(
    *,
    seq: int,
    at: str,
    actor: str,
    action: str,
    memory_id: str | None,
    content_hash: str | None,
    details: Mapping[str, Any],
    prev_hash: str,
) -> str:
    """The chain hash of an entry: SHA-256 over the RFC 8785 form of every field but `hash`."""
    body = {
        "seq": seq,
        "at": at,
        "actor": actor,
        "action": action,
        "memory_id": memory_id,
        "content_hash": content_hash,
        "details": dict(details),
        "prev_hash": prev_hash,
    }
    return sha256_prefixed(jcs_dumps(body))


def _quick_hash(
    seq: int,
    at_json: bytes,
    actor: str,
    action: str,
    memory_id: str | None,
    content_hash: str | None,
    details_json: bytes,
    prev_hash: str,
) -> str:
    """`entry_hash`, assembled by hand: the members in RFC 8785 order (all keys are ASCII, so
    code-unit order is plain byte order), strings escaped by orjson exactly as RFC 8785 does,
    `details_json` already canonical. Held equal to `entry_hash` by tests/test_audit.py."""
    dumps = orjson.dumps
    body = b"".join(
        (
            b'{"action":',
            dumps(action),
            b',"actor":',
            dumps(actor),
            b',"at":',
            at_json,
            b',"content_hash":',
            dumps(content_hash),
            b',"details":',
            details_json,
            b',"memory_id":',
            dumps(memory_id),
            b',"prev_hash":',
            dumps(prev_hash),
            b',"seq":',
            str(seq).encode(),
            b"}",
        )
    )
    return "sha256:" + hashlib.sha256(body).hexdigest()


def _head(actor: str, action: str, at_json: bytes, details_json: bytes) -> tuple[bytes, bytes]:
    """The fixed parts of an entry's canonical form around content_hash and memory_id (see
    `_quick_hash` for the member order)."""
    dumps = orjson.dumps
    return (
        b'{"action":'
        + dumps(action)
        + b',"actor":'
        + dumps(actor)
        + b',"at":'
        + at_json
        + b',"content_hash":',
        b',"details":' + details_json + b',"memory_id":',
    )


def hash_of(entry: AuditEntry) -> str:
    """`entry_hash` of a stored entry: what its ``hash`` must be."""
    return entry_hash(
        seq=entry.seq,
        at=entry.at,
        actor=entry.actor,
        action=entry.action,
        memory_id=entry.memory_id,
        content_hash=entry.content_hash,
        details=entry.details,
        prev_hash=entry.prev_hash,
    )


@dataclass(frozen=True, slots=True)
class PendingEntry:
    """An entry to append; the log assigns seq, prev_hash and hash."""

    action: str
    actor: str
    memory_id: str | None = None
    content_hash: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


class AuditLog:
    """Appends chained entries through a `Store`. Call inside `store.transaction()`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def append(self, entries: Iterable[PendingEntry], at: str) -> list[AuditEntry]:
        """Append entries in order, all stamped `at`; returns them as stored.

        A batch repeats the same actors, actions and details: each distinct combination is
        canonicalized once, entries given the same details object share one copy of it, and
        each entry then costs one SHA-256 over bytes joined around its ids."""
        with self._store.transaction():
            last = self._store.last_audit()
            seq = 0 if last is None else last.seq
            prev = GENESIS if last is None else last.hash
            written: list[AuditEntry] = []
            append = written.append
            at_json = orjson.dumps(at)
            # id(details object) -> (that object, actor, action, its copy, canonical head).
            # The object is held so that its id stays its own for the whole call.
            by_object: dict[int, tuple[Any, str, str, dict[str, Any], tuple[bytes, bytes]]] = {}
            # Canonical heads by value (types too: 1, 1.0 and True are equal keys but
            # different JSON).
            by_value: dict[Any, tuple[bytes, bytes]] = {}
            sha256 = hashlib.sha256
            dumps = orjson.dumps
            for pending in entries:
                seq += 1
                actor, action, given = pending.actor, pending.action, pending.details
                cached = by_object.get(id(given))
                if (
                    cached is not None
                    and cached[1] == actor
                    and cached[2] == action
                    and cached[3] == given  # not changed since (a generator might reuse it)
                ):
                    details, head = cached[3], cached[4]
                else:
                    details = dict(given)
                    try:
                        key: Any = (actor, action, *((k, type(v), v) for k, v in details.items()))
                        found = by_value.get(key)
                    except TypeError:  # an unhashable detail value
                        key, found = None, None
                    if found is None:
                        found = _head(actor, action, at_json, jcs_dumps(details))
                        if key is not None:
                            by_value[key] = found
                    head = found
                    by_object[id(given)] = (given, actor, action, details, head)
                memory_id, content_hash = pending.memory_id, pending.content_hash
                digest = (
                    "sha256:"
                    + sha256(
                        b"".join(
                            (
                                head[0],
                                dumps(content_hash),
                                head[1],
                                dumps(memory_id),
                                b',"prev_hash":',
                                dumps(prev),
                                b',"seq":',
                                str(seq).encode(),
                                b"}",
                            )
                        )
                    ).hexdigest()
                )
                append(
                    AuditEntry(
                        seq, at, actor, action, memory_id, content_hash, details, prev, digest
                    )
                )
                prev = digest
            if written:
                self._store.append_audit_many(written)
                self._store.set_meta(HEAD_META_KEY, f"{seq} {prev}")
            return written


class AuditBatch:
    """The entries a bulk operation (a PAM or AIMEM import) gathers as it goes, appended at
    once, all stamped `at`, inside its transaction (`flush`)."""

    def __init__(self, store: Store, at: str) -> None:
        self._log = AuditLog(store)
        self._at = at
        self._entries: list[PendingEntry] = []

    def append(self, entry: PendingEntry) -> None:
        self._entries.append(entry)

    def flush(self) -> None:
        if self._entries:
            self._log.append(self._entries, self._at)
            self._entries = []


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The result of `verify`: `ok` when no problem was found."""

    ok: bool
    entries: int
    problems: list[str]
    head: str | None = None


def verify(store: Store, *, check_memories: bool = True) -> AuditReport:
    """Check the whole chain (and, with `check_memories`, every memory against its last
    entry). Read-only."""
    problems: list[str] = []
    count = 0
    expected_seq = 1
    prev = GENESIS
    last_hash_by_memory: dict[str, tuple[str, str | None]] = {}
    last: AuditEntry | None = None
    for entry in store.iter_audit():
        count += 1
        if entry.seq != expected_seq:
            if entry.seq > expected_seq:
                missing = (
                    f"entry {expected_seq}"
                    if entry.seq == expected_seq + 1
                    else f"entries {expected_seq}–{entry.seq - 1}"
                )
                problems.append(f"{missing} removed: the log jumps to entry {entry.seq}")
            else:
                problems.append(f"entry {entry.seq} is out of order (after {expected_seq - 1})")
        if entry.prev_hash != prev:
            problems.append(
                f"entry {entry.seq}: the link to the previous entry is broken (an entry before "
                "it was removed, reordered or rewritten)"
            )
        if hash_of(entry) != entry.hash:
            problems.append(f"entry {entry.seq} was altered: its hash does not match its fields")
        if entry.memory_id is not None:
            last_hash_by_memory[entry.memory_id] = (entry.action, entry.content_hash)
        prev = entry.hash
        expected_seq = entry.seq + 1
        last = entry
    head = store.get_meta(HEAD_META_KEY)
    actual_head = None if last is None else f"{last.seq} {last.hash}"
    if head != actual_head:
        if head is None:
            problems.append("the vault's record of the last audit entry is missing")
        else:
            recorded = head.split(" ", 1)[0]
            problems.append(
                f"the log ends at entry {0 if last is None else last.seq} but the vault recorded "
                f"entry {recorded} as the last: entries were removed from the end or the log "
                "was replaced"
            )
    if check_memories:
        for memory_id, content_hash in store.memory_hashes():
            recorded_entry = last_hash_by_memory.get(memory_id)
            if recorded_entry is None:
                problems.append(f"memory {memory_id} has no audit entry (added outside the vault)")
            elif recorded_entry[0] == "erase":
                problems.append(f"memory {memory_id} was erased but is present again")
            elif recorded_entry[1] != content_hash:
                problems.append(
                    f"memory {memory_id}: its content hash differs from the one its last audit "
                    "entry recorded (changed outside the vault)"
                )
    if len(problems) > _MAX_PROBLEMS:
        extra = len(problems) - _MAX_PROBLEMS
        problems = [*problems[:_MAX_PROBLEMS], f"… and {extra} more"]
    return AuditReport(not problems, count, problems, None if last is None else last.hash)
