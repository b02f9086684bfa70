"""Keep two vaults in step: a local vault and a remote one (a `memvault serve` tenant), through
PAM §16 incremental exports.

    with HttpRemote("https://vault.example", token) as remote:
        result = sync(vault, remote)          # pull, then push; result.to_json() for a summary

One run:

1. **pull** — the remote's export of what changed since the last sync (`since` the export date
   of the last pull, on the remote's clock; a full export the first time) is imported into the
   local vault in one transaction, conflicts resolved (below);
2. **push** — the local vault's export of what changed since the last push (`since` its export
   date, on the local clock) is imported by the remote; nothing is sent when it is empty;
3. the two cursors are kept in the vault (per remote URL, tenant and identity) only once both
   directions succeeded: a failed run is simply done again.

Conflicts, by the vault's rules: an incoming memory with the content of an active local one
reinforces it (PAM §6 dedup); a memory changed on one side since the last sync takes the newer
copy (its own timestamps decide: an older copy never overwrites a newer one); a memory whose
*content* changed on both sides since the last sync is a true conflict: the newer statement
keeps the id on both sides, the other is kept as its own active memory, and a `contradicts`
relation (PAM §13) joins them — reported in `SyncResult.conflicts`.

Counts are effects: `pulled` are the local memories the pull created, updated or reinforced;
`pushed` those the remote did. A copy sent back and found unchanged counts for nothing, so a
second run reports 0 pushed, 0 pulled, 0 changed. docs/sync.md says what propagates: status
changes and retractions in the exports (PAM §16.3); erasures, which an export cannot carry,
beside them — from each side's audit log (ids only, AIMEM §5.2), the owner's sync only.

An agent's token (PAM §9) syncs the agent's view: the remote exports only what the agent may
read (always in full: deltas are built from the owner's audit log), and the local side imports
and exports as the same agent (`vault.acting_as`), so it sends only what that agent may read
and the remote accepts only what it may write.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Protocol, Self

import orjson

from memvault.errors import ExchangeError, NotFound, VaultError
from memvault.exchange.pam import HeldByReceiver, export_vault, import_into_vault
from memvault.formats.pam import reader
from memvault.formats.pam.merge import store_entry
from memvault.jsonread import JSONDocumentError
from memvault.model import Memory
from memvault.sources import SourceError, open_target
from memvault.store.codec import memory_from_json
from memvault.unit_of_work import MergePolicy
from memvault.vault import Vault

if TYPE_CHECKING:
    import httpx
from memvault.vault_inputs import is_privileged

__all__ = [
    "Conflict",
    "HttpRemote",
    "Identity",
    "Remote",
    "RemoteRefused",
    "RemoteUnreachable",
    "SyncError",
    "SyncResult",
    "VaultRemote",
    "erased_since",
    "sync",
]

#: Where a remote's cursors live in the vault's meta table (`UnitOfWork.set_exchange_meta`).
STATE_PREFIX: Final = "sync."
#: Namespace of the ids a sync derives (a conflict's second statement): the same on every run.
_NAMESPACE: Final = uuid.UUID("5b0c8f1e-3c52-4a51-9d3e-6d2f0a8c9e41")
_BLOCK: Final = 1 << 16
_UNAUTHORIZED: Final = 401
#: Incoming memories compared with the vault's copies per round trip.
_CHUNK: Final = 2000
_NOT_FOUND: Final = 404
#: Audit actions that change no memory's content or state (PAM §16 deltas skip them too).
_NOT_A_MEMORY_CHANGE: Final = frozenset({"relate", "erase", "export", "import"})


class SyncError(VaultError):
    """A sync that could not run; the local vault is as it was (or as a completed pull left
    it: every import is one transaction)."""


class RemoteUnreachable(SyncError):
    """The remote did not answer (refused connection, name unknown, timeout, TLS)."""


class RemoteRefused(SyncError):
    """The remote answered with an error (its problem+json detail is in the message)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status
        self.http_status = status


# ---------------------------------------------------------------------------------------------
# Remotes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Identity:
    """Who the remote takes us for: its tenant, and "owner" or an agent id (PAM §9)."""

    tenant: str
    identity: str
    scopes: frozenset[str]

    @property
    def is_owner(self) -> bool:
        return self.identity == "owner"


class Remote(Protocol):
    """The other vault, as a sync sees it: three calls."""

    #: names the remote in messages and in the vault's sync state
    label: str

    def identity(self) -> Identity: ...

    def export(self, target: Path, since: str | None) -> None:
        """Write the remote's PAM export (a zip) to `target`: full, or what changed at or
        after `since` (PAM §16)."""

    def import_export(self, path: Path) -> Mapping[str, Any]:
        """Import a PAM export (zip) into the remote; what it did (`ImportResult.to_json`)."""

    def erased_since(self, since: str) -> list[str]:
        """Ids of the memories erased on the remote at or after `since` (its audit log)."""

    def erase(self, memory_id: str) -> bool:
        """Erase a memory on the remote (AIMEM §5.2); False when it has no such memory."""


class HttpRemote:
    """A `memvault serve` tenant over its HTTP API (`GET /v1/sync`, `GET /v1/pam/export`,
    `POST /v1/pam/import`), with a bearer token. `transport` is httpx's, for tests."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        # Imported here: a server imports this module for its sync routes and never makes a
        # client, and httpx (with what it loads) is ~20 MiB of its resident size.
        import httpx

        self.label = url.rstrip("/")
        self._client = httpx.Client(
            base_url=self.label,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            transport=transport,
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def identity(self) -> Identity:
        body = self._json("GET", "/v1/sync")
        scopes = body.get("scopes")
        listed = scopes if isinstance(scopes, list) else []
        return Identity(
            str(body.get("tenant")),
            str(body.get("identity")),
            frozenset(s for s in listed if isinstance(s, str)),
        )

    def export(self, target: Path, since: str | None) -> None:
        import httpx

        params = {} if since is None else {"since": since}
        try:
            with self._client.stream("GET", "/v1/pam/export", params=params) as response:
                if response.status_code != 200:
                    response.read()
                    raise self._refused(response)
                with open(target, "wb") as out:
                    for block in response.iter_bytes(_BLOCK):
                        out.write(block)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from None

    def import_export(self, path: Path) -> Mapping[str, Any]:
        with open(path, "rb") as body:
            return self._json(
                "POST",
                "/v1/pam/import",
                params={"force": "true"},
                content=body,
                headers={"Content-Type": "application/zip"},
            )

    def erased_since(self, since: str) -> list[str]:
        body = self._json("GET", "/v1/sync/erasures", params={"since": since})
        erased = body.get("erased")
        return [i for i in erased if isinstance(i, str)] if isinstance(erased, list) else []

    def erase(self, memory_id: str) -> bool:
        response = self._send("DELETE", f"/v1/memories/{memory_id}")
        if response.status_code == _NOT_FOUND:
            return False
        if response.status_code != 200:
            raise self._refused(response)
        return True

    def _send(self, method: str, url: str, **options: Any) -> httpx.Response:
        import httpx

        try:
            return self._client.request(method, url, **options)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from None

    def _json(self, method: str, url: str, **options: Any) -> dict[str, Any]:
        response = self._send(method, url, **options)
        if response.status_code != 200:
            raise self._refused(response)
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            raise SyncError(f"{self.label}{url} did not answer a JSON object: is it memvault?")
        return body

    def _unreachable(self, exc: httpx.HTTPError) -> RemoteUnreachable:
        return RemoteUnreachable(f"cannot reach {self.label}: {exc or type(exc).__name__}")

    def _refused(self, response: httpx.Response) -> RemoteRefused:
        detail = ""
        try:
            problem = orjson.loads(response.content)
            if isinstance(problem, dict):
                detail = str(problem.get("detail") or problem.get("title") or "")
        except orjson.JSONDecodeError:
            detail = response.text[:200]
        where = f"{self.label}{response.request.url.path}"
        if response.status_code == _UNAUTHORIZED:
            message = f"{where} refused the token (401): {detail or 'unauthenticated'}"
        else:
            message = f"{where} answered {response.status_code}: {detail or response.reason_phrase}"
        return RemoteRefused(message, response.status_code)


class VaultRemote:
    """Another vault in this process, as a remote (a vault on a PostgreSQL store, a second
    vault file): the same exports and imports the HTTP routes make."""

    def __init__(self, vault: Vault, label: str, tenant: str = "local") -> None:
        self.vault = vault
        self.label = label
        self.tenant = tenant

    def identity(self) -> Identity:
        actor = self.vault.actor
        return Identity(self.tenant, "owner" if is_privileged(actor) else actor, frozenset())

    def export(self, target: Path, since: str | None) -> None:
        export_vault(self.vault, target, since=since)

    def import_export(self, path: Path) -> Mapping[str, Any]:
        return import_into_vault(self.vault, path, force=True).to_json()

    def erased_since(self, since: str) -> list[str]:
        return erased_since(self.vault, since)

    def erase(self, memory_id: str) -> bool:
        try:
            self.vault.erase(memory_id)
        except NotFound:
            return False
        return True


def erased_since(vault: Vault, since: str) -> list[str]:
    """Ids of the memories erased in `vault` at or after `since` (its audit log: ids, never
    content). The owner's: AccessDenied for an agent."""
    entries = vault.audit_entries(actions=["erase"])
    return list(dict.fromkeys(e.memory_id for e in entries if e.at >= since and e.memory_id))


# ---------------------------------------------------------------------------------------------
# Results and state
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conflict:
    """A memory whose content changed on both sides since the last sync: `kept` stays under
    `memory_id`, `other` lives on as `other_id`, `other_id` contradicts-related to it."""

    memory_id: str
    kept: str
    other_id: str
    other: str
    winner: str  # "local" or "remote": whose statement kept the id (the newer)

    def to_json(self) -> dict[str, Any]:
        return {
            "memory_id": self.memory_id,
            "kept": self.kept,
            "other_id": self.other_id,
            "other": self.other,
            "winner": self.winner,
        }


@dataclass(slots=True)
class SyncResult:
    remote: str
    tenant: str
    identity: str
    first: bool
    #: local memories the pull created, updated or reinforced
    pulled: int = 0
    #: remote memories the push created, updated or reinforced
    pushed: int = 0
    pull: dict[str, Any] = field(default_factory=dict)
    push: dict[str, Any] = field(default_factory=dict)
    #: memories in the pulled and pushed exports (what travelled, changed or not)
    received: int = 0
    sent: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    #: memories erased here because they were erased on the remote since the last sync
    erased_here: list[str] = field(default_factory=list)
    #: memories erased on the remote because they were erased here since the last sync
    erased_there: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> int:
        """Everything either side changed: memories, relations, conversations, embeddings,
        conflicts recorded, erasures."""
        sides = sum(_changes(side) for side in (self.pull, self.push))
        return sides + len(self.conflicts) + len(self.erased_here) + len(self.erased_there)

    def to_json(self) -> dict[str, Any]:
        return {
            "remote": self.remote,
            "tenant": self.tenant,
            "identity": self.identity,
            "first": self.first,
            "pulled": self.pulled,
            "pushed": self.pushed,
            "changed": self.changed,
            "received": self.received,
            "sent": self.sent,
            "conflicts": [c.to_json() for c in self.conflicts],
            "erased_here": self.erased_here,
            "erased_there": self.erased_there,
            "pull": self.pull,
            "push": self.push,
            "warnings": self.warnings,
        }


def _changes(side: Mapping[str, Any]) -> int:
    keys = ("created", "reinforced", "updated", "relations", "conversations", "embeddings")
    return sum(int(side.get(k) or 0) for k in keys)


def _memory_changes(side: Mapping[str, Any]) -> int:
    return sum(int(side.get(k) or 0) for k in ("created", "reinforced", "updated"))


@dataclass(frozen=True, slots=True)
class _State:
    #: the remote's export date of the last pull (its clock)
    remote_since: str | None = None
    #: the local export date of the last push (this vault's clock)
    local_since: str | None = None
    #: the local audit log's position when the last sync's push was made (what changed here
    #: since)
    audit_after: int | None = None
    at: str | None = None
    #: the local audit log's position when the last sync began: what it wrote here lies
    #: between this and `audit_after`
    began: int | None = None


def _state_key(remote: Remote, who: Identity) -> str:
    return f"{STATE_PREFIX}{remote.label}#{who.tenant}/{who.identity}"


def _load_state(vault: Vault, key: str) -> _State:
    text = vault.exchange_meta(key)
    if text is None:
        return _State()
    data = orjson.loads(text)
    return _State(
        data.get("remote_since"),
        data.get("local_since"),
        data.get("audit_after"),
        data.get("at"),
        data.get("began"),
    )


# ---------------------------------------------------------------------------------------------
# The sync
# ---------------------------------------------------------------------------------------------


def sync(vault: Vault, remote: Remote, *, now: datetime | None = None) -> SyncResult:
    """Pull what changed on `remote`, push what changed here (module docstring). `vault` is
    the owner's session; an agent's token makes both sides act as that agent. Raises
    `RemoteUnreachable`, `RemoteRefused` (401 for a bad token), `ExchangeError`."""
    who = remote.identity()  # before anything is written: a bad token changes nothing
    key = _state_key(remote, who)
    state = _load_state(vault, key)
    local = vault if who.is_owner else vault.acting_as(who.identity)
    result = SyncResult(remote.label, who.tenant, who.identity, first=state.at is None)
    began = vault.audit_position()
    workdir = Path(tempfile.mkdtemp(prefix="memvault-sync-"))
    try:
        # Erasures travel beside the exports (a PAM export carries no deletions): the owner's
        # alone, from each side's audit log since the last sync. Ours go first, so the pull
        # does not bring back what was erased here.
        _push_erasures(remote, _local_erasures(vault, who, state.audit_after), result)
        erased_remotely = _remote_erasures(remote, who, state.remote_since, result)
        pulled = workdir / "pull.zip"
        # An agent's export is always full: deltas come from the owner's audit log.
        remote.export(pulled, state.remote_since if who.is_owner else None)
        with _export_memories(pulled) as (header, incoming):
            remote_date = header.get("export_date")
            new_conversations = _new_conversations(vault, header)
            if who.is_owner:
                report = _pull_as_owner(vault, pulled, incoming, state.audit_after, now, result)
            else:
                result.received = sum(1 for _ in incoming)
                report = import_into_vault(local, pulled, force=True, now=now).to_json()
        result.pull = _summary(report)
        result.pulled = _memory_changes(report)
        result.warnings.extend(_warnings(report, "pull", pulled))
        if erased_remotely:
            present = list(vault.export_view().existing_ids(erased_remotely))
            if present:
                vault.erase_many(present, now=now)
                result.erased_here = present
        pushed = workdir / "push.zip"
        since = state.local_since if who.is_owner else None
        # What the pull just brought is on the server as it is here: not sent back.
        held = _held_by_remote(vault, pulled, new_conversations)
        if who.is_owner:
            held = _exchanged_last_time(vault, state, held)
        # Before the push is read: a write from here on is sent by the next sync.
        position = vault.audit_position()
        made = export_vault(local, pushed, since=since, now=now, held_by_receiver=held)
        result.sent = made.memories
        if made.memories or made.relations or made.conversations or made.embeddings:
            answer = remote.import_export(pushed)
            result.push = _summary(answer)
            result.pushed = _memory_changes(answer)
            result.warnings.extend(_warnings(answer, "push"))
        _save_state(
            vault,
            key,
            _State(
                remote_since=remote_date if isinstance(remote_date, str) else None,
                local_since=made.export_date,
                audit_after=position,
                at=made.export_date,
                began=_window_start(state, began, made.export_date),
            ),
            now,
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _remote_erasures(
    remote: Remote, who: Identity, since: str | None, result: SyncResult
) -> list[str]:
    """What the remote erased since the last pull; none on a first sync (its full export is
    what it holds) or for an agent. A key without the owner's `bundle:export` is told."""
    if since is None or not who.is_owner:
        return []
    try:
        return remote.erased_since(since)
    except RemoteRefused as exc:
        if exc.status == _UNAUTHORIZED:
            raise
        result.warnings.append(f"erasures on the remote were not pulled: {exc}")
        return []


def _local_erasures(vault: Vault, who: Identity, after: int | None) -> list[str]:
    """What this vault erased since the last sync (the owner's sync only)."""
    if after is None or not who.is_owner:
        return []
    entries = vault.audit_entries(after_seq=after, actions=["erase"])
    return list(dict.fromkeys(e.memory_id for e in entries if e.memory_id))


def _push_erasures(remote: Remote, memory_ids: list[str], result: SyncResult) -> None:
    """Erase on the remote what was erased here; a key without the `erase` scope is told (the
    rest of the sync stands)."""
    for memory_id in memory_ids:
        try:
            if remote.erase(memory_id):
                result.erased_there.append(memory_id)
        except RemoteRefused as exc:
            if exc.status == _UNAUTHORIZED:
                raise
            result.warnings.append(f"erasures made here were not pushed: {exc}")
            return


def _save_state(vault: Vault, key: str, state: _State, now: datetime | None) -> None:
    value = orjson.dumps(
        {
            "remote_since": state.remote_since,
            "local_since": state.local_since,
            "audit_after": state.audit_after,
            "at": state.at,
            "began": state.began,
        }
    ).decode()
    with vault.unit_of_work(now=now) as work:
        work.set_exchange_meta(key, value)


def _summary(report: Mapping[str, Any]) -> dict[str, Any]:
    keys = (
        "export_id",
        "export_type",
        "created",
        "reinforced",
        "updated",
        "unchanged",
        "kept",
        "relations",
        "conversations",
        "embeddings",
    )
    return {k: report.get(k) for k in keys}


#: Notices an import gives that say nothing about a sync (docs/sync.md): its deltas chain by
#: its cursors, not by base_export_id; the two vaults' owner ids differ when they were made
#: apart; a delta holds memories changed since `since` by the audit log (an import, a status
#: change) whose own timestamps are older.
_EXPECTED: Final = (
    "imported anyway",
    "its memories were imported as the vault owner's",
    "an incremental export includes only memories created or updated after it",
)


def _warnings(report: Mapping[str, Any], side: str, download: Path | None = None) -> list[str]:
    """The report's warnings worth showing, each marked with its side; the file a pull was
    downloaded to (a temporary one) is named as what it is, the remote's export."""
    found = report.get("warnings") or []
    return [
        f"{side}: {w.replace(str(download), _REMOTE_EXPORT) if download is not None else w}"
        for w in found
        if isinstance(w, str) and not any(notice in w for notice in _EXPECTED)
    ]


#: How a warning names the export pulled from the remote.
_REMOTE_EXPORT = "the remote's export"


@contextmanager
def _export_memories(path: Path) -> Iterator[tuple[dict[str, Any], Iterator[Memory]]]:
    """The header of a PAM export zip and its memories, read one at a time (an export may
    hold hundreds of thousands: memory stays bounded)."""
    try:
        with open_target(path) as target:
            entry = store_entry(target)
            if entry is None:
                raise ExchangeError("the remote's export holds no memory-store.json")
            with entry.open() as buf:
                doc = reader.parse(buf, entry.display)
                doc.complete_header()  # relations and conversations_index too
                memories = (
                    memory_from_json(value)
                    for _, _, value in doc.iter_memories(check_duplicates=False)
                )
                yield dict(doc.header), memories
    except (SourceError, JSONDocumentError) as exc:
        raise ExchangeError(f"the remote's export could not be read: {exc}") from None


# -- what the push leaves out ------------------------------------------------------------------


def _new_conversations(vault: Vault, header: Mapping[str, Any]) -> set[str]:
    """The conversations of the pulled export this vault does not hold yet: after the pull
    they are here exactly as the remote sent them."""
    index = header.get("conversations_index")
    ids = {
        entry["id"]
        for entry in (index if isinstance(index, list) else [])
        if isinstance(entry, dict) and isinstance(entry.get("id"), str)
    }
    view = vault.export_view()
    return {i for i in ids if view.conversation(i) is None}


def _held_by_remote(vault: Vault, pulled: Path, new_conversations: set[str]) -> HeldByReceiver:
    """What the pull left here exactly as the remote holds it — memories and relations equal
    to the pulled copies, conversations that were new — so the push does not send it back. A
    copy the pull did not apply as it came (a newer one kept here, a conflict, a final status)
    differs, and is sent."""
    view = vault.export_view()
    memories: set[str] = set()
    relations: set[str] = set()
    with _export_memories(pulled) as (header, incoming):
        for chunk in _chunks(incoming, _CHUNK):
            by_id = {m.id: m for m in chunk}
            memories.update(m.id for m in view.memories(list(by_id)) if m == by_id[m.id])
        pulled_relations = header.get("relations")
    by_source: dict[str, dict[str, Any]] = {}
    for value in pulled_relations if isinstance(pulled_relations, list) else []:
        if isinstance(value, dict) and isinstance(value.get("from"), str):
            by_source.setdefault(value["from"], {})[str(value.get("id"))] = value
    for source, wanted in by_source.items():
        for relation in view.relations_of(source):
            if wanted.get(relation.id) == relation.to_json():
                relations.add(relation.id)
    return HeldByReceiver(frozenset(memories), frozenset(relations), frozenset(new_conversations))


def _window_start(state: _State, began: int, export_date: str) -> int:
    """Where the next sync looks for what was exchanged: this sync's start, or the last
    sync's window when this one's push fell in the same second as the last one's. The next
    push exports what changed in or after this push's second, and a sync earlier in that
    second may have written memories then (its pull) that no later sync wrote again."""
    if (
        state.began is not None
        and state.at is not None
        and _second(state.at) == _second(export_date)
    ):
        return min(state.began, began)
    return began


def _second(date: str) -> datetime:
    return _parse(date).replace(microsecond=0)


def _exchanged_last_time(vault: Vault, state: _State, held: HeldByReceiver) -> HeldByReceiver:
    """`held` and the memories the last sync exchanged that have not changed here since. The
    push exports what changed at or after the last push's date, a whole second, so it would
    send again what the last sync wrote or sent in that second — everything its pull
    brought. The audit log's positions are exact: a memory the last sync wrote (between
    `began` and `audit_after`) with no entry after `audit_after` is on the server as it is
    here."""
    if state.began is None or state.audit_after is None:
        return held  # a state saved before `began` was kept
    exchanged: set[str] = set()
    changed: set[str] = set()
    for entry in vault.audit_entries(after_seq=state.began):
        if entry.memory_id is not None:
            (exchanged if entry.seq <= state.audit_after else changed).add(entry.memory_id)
    if not exchanged - changed:
        return held
    return HeldByReceiver(
        frozenset(held.memories) | (exchanged - changed), held.relations, held.conversations
    )


# -- the pull, with the conflict rules ---------------------------------------------------------


def _local_history(vault: Vault, after: int | None) -> dict[str, tuple[set[str], bool]]:
    """Memory id -> (the content hashes it had since audit entry `after`, whether its content
    changed or it was made since then), for the memories changed here since the last sync.
    The audit log's positions are exact where export dates are whole seconds."""
    history: dict[str, tuple[set[str], bool]] = {}
    if after is None:
        return history
    for entry in vault.audit_entries(after_seq=after):
        if entry.memory_id is None or entry.action in _NOT_A_MEMORY_CHANGE:
            continue
        hashes, content = history.get(entry.memory_id, (set(), False))
        previous = entry.details.get("previous_content_hash")
        if isinstance(previous, str):
            hashes.add(previous)
        if entry.content_hash:
            hashes.add(entry.content_hash)
        content = content or entry.action == "add" or isinstance(previous, str)
        history[entry.memory_id] = (hashes, content)
    return history


def _pull_as_owner(
    vault: Vault,
    pulled: Path,
    incoming: Iterator[Memory],
    local_after: int | None,
    now: datetime | None,
    result: SyncResult,
) -> dict[str, Any]:
    """Import the pulled export; then put back each local copy newer than the incoming one
    (an incremental import applies any copy, PAM §16.3), and record true conflicts. One
    transaction: on any error the vault is as it was. Only the incoming memories this vault
    also holds are compared, a chunk at a time."""
    view = vault.export_view()
    history = _local_history(vault, local_after)
    keep_local: list[Memory] = []
    conflicts: list[tuple[Memory, Memory, bool]] = []  # (local, incoming, local wins)
    for chunk in _chunks(incoming, _CHUNK):
        result.received += len(chunk)
        by_id = {m.id: m for m in chunk}
        for mine in view.memories(list(by_id)):
            theirs = by_id[mine.id]
            if local_after is None:
                seen_here, content_here = {mine.content_hash}, True
            elif mine.id in history:
                seen_here, content_here = history[mine.id]
            else:
                continue  # only the remote changed it: its copy applies
            local_wins = _newer_or_tie(mine, theirs)
            if (
                content_here
                and mine.content_hash != theirs.content_hash
                and theirs.content_hash not in seen_here
                and mine.effective_status == "active"
                and theirs.effective_status == "active"
            ):
                conflicts.append((mine, theirs, local_wins))
            elif local_wins and mine != theirs:
                keep_local.append(mine)
    with vault.transaction():
        report = import_into_vault(vault, pulled, force=True, now=now).to_json()
        restore = keep_local + [mine for mine, _, wins in conflicts if wins]
        if restore:
            with vault.unit_of_work(now=now) as work:
                stored = work.stored_memories([m.id for m in restore])
                for mine in restore:
                    if mine.id in stored:
                        work.merge_memory(stored[mine.id], mine, MergePolicy("sync", False))
        for mine, theirs, wins in conflicts:
            kept, other = (mine, theirs) if wins else (theirs, mine)
            other_id = _derived_id(f"{mine.id}:{other.content_hash}")
            copy = other.evolve(
                id=other_id,
                temporal=other.temporal.evolve(superseded_by=None),
                embedding_ref=None,
            )
            batch = vault.add_memories([copy], now=now)
            other_id = batch.id_map.get(other_id, other_id)
            if other_id != mine.id:
                vault.relate(mine.id, other_id, "contradicts", now=now)
            result.conflicts.append(
                Conflict(
                    mine.id, kept.content, other_id, other.content, "local" if wins else "remote"
                )
            )
    return report


def _derived_id(name: str) -> str:
    """A UUID v4 in form (PAM §4.1 ids), derived from `name`: the same on every run."""
    return str(uuid.UUID(bytes=uuid.uuid5(_NAMESPACE, name).bytes, version=4))


def _moment(memory: Memory) -> str:
    temporal = memory.temporal
    for text in (temporal.updated_at, temporal.created_at):
        if isinstance(text, str):
            return text
    return ""


def _newer_or_tie(mine: Memory, theirs: Memory) -> bool:
    """Whether the local copy wins: the later change, the greater content hash on a tie (the
    same answer on every run)."""
    a, b = _parse(_moment(mine)), _parse(_moment(theirs))
    if a != b:
        return a > b
    return mine.content_hash >= theirs.content_hash


def _parse(text: str) -> datetime:
    from memvault.model import parse_timestamp

    try:
        return parse_timestamp(text)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)


def _chunks(items: Iterator[Memory], size: int) -> Iterator[list[Memory]]:
    chunk: list[Memory] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
