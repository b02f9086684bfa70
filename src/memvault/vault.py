"""The Vault: the one front door to a person's memories.

Every front end (CLI, HTTP, MCP, web UI, importers, exporters) calls these methods, and every
business rule is applied behind them. This module is the session — opening, the actor it is
bound to, the front-door checks (PAM §9 access, AIMEM §5.1 DNA protection), transactions —
with adding (§6 dedup and reinforcement), reading and conversations; each other capability
is a module of its own behind a thin method: `memvault.changes` (update, grants),
`memvault.lifecycle` (§7.1), `memvault.relations` (§13), `memvault.decay_run` (§8, formulas in
`memvault.decay`), `memvault.erasure` (AIMEM §5.2), `memvault.owner_keys`,
`memvault.audit_reads`, `memvault.stats`, `memvault.recall.operations`. The storage is behind
`memvault.store.base.Store` (SQLCipher by default).

Quick tour::

    vault = Vault.init(home, "passphrase")            # or Vault.open(home, "passphrase")
    result = vault.add("User lives in Lisbon", "fact", tags=["home"])
    vault.search("lisboa")                             # diacritics and case folded
    vault.supersede(old_id, new_id)                    # old → superseded, relation new → old
    vault.retract(result.memory.id)                    # PAM §7.1
    vault.verify_audit().ok

Sessions: a vault acts for one actor, fixed when the session is made, and no method takes
another. The vault as opened is the owner's session (``"user"``: everything allowed);
``vault.acting_as("agent-x")`` is a session of the same open vault for an agent entity, allowed
only what PAM §9 grants it; ``vault.background()`` is the owner's background work (``"system"``
or ``"system:<task>"``: decay, provider importers), with owner rights except that it can never
decay, delete, supersede, change or transition a DNA-class memory (AIMEM §5.1,
`DNAProtected`). The whole model: docs/access.md.

Timestamps the vault writes are UTC, ``YYYY-MM-DDTHH:MM:SSZ`` (whole seconds); the audit log's
``seq`` orders events within a second. New ids are UUID v4.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

import orjson

from memvault import __version__
from memvault.access import (
    as_created_by,
    require,
    require_owner,
    require_privileged,
)
from memvault.audit import AuditLog, AuditReport, PendingEntry
from memvault.audit_entries import conversation_entries, conversation_entry, embedding_entry
from memvault.bulk import gc_paused
from memvault.canonical import content_hash as compute_content_hash
from memvault.changes import UNCHANGED
from memvault.changes import Unchanged as _Unchanged
from memvault.conversation_merge import (
    PutOutcome,
    conversation_row,
    merge_conversation,
    merged_row,
    same_as_stored,
    same_canonical,
    same_index,
)
from memvault.decay import DecaySettings, reinforced_confidence

# The decay rules that adding and reinforcing read too (`memvault.decay`).
from memvault.decay import anchor_of as _anchor_of
from memvault.decay import confidence_block as _confidence_block
from memvault.decay import decay_start as _decay_start
from memvault.decay import is_number as _is_number
from memvault.decay import said_at as _said_at
from memvault.decay_run import DecayReport
from memvault.erasure import (
    ConversationErasure,
    ErasureReport,
    EverythingErasure,
)
from memvault.errors import (
    AccessDenied,
    AmbiguousId,
    ConflictingInput,
    DNAProtected,
    HomeNotWritable,
    InvalidInput,
    InvalidTransition,
    NotFound,
    VaultError,
    VaultExists,
    VaultNotFound,
)
from memvault.model import (
    Access,
    AccessGrant,
    Confidence,
    Memory,
    Owner,
    Provenance,
    Relation,
    Temporal,
    parse_timestamp,
)
from memvault.store.base import (
    AuditEntry,
    ConversationSummary,
    ExportRecord,
    IntegrityViolation,
    KeyRecord,
    MemoryQuery,
    Store,
    StoredConversation,
    StoredEmbedding,
    StoredMemory,
    StoreError,
    WrongPassphrase,
)
from memvault.store.factory import create_store, open_store, require_passphrase
from memvault.vault_inputs import (
    BACKGROUND_ACTOR,
    OWNER_ACTOR,
    check_actor,
    check_batch,
    check_confidence,
    check_content,
    check_decay_model,
    check_exportable,
    check_extraction_method,
    check_grants,
    check_id,
    check_memories,
    check_metadata,
    check_owner_fields,
    check_platform,
    check_query,
    check_search,
    check_tags,
    check_type,
    check_visibility,
    creator_access,
    format_timestamp,
    is_background,
    is_privileged,
    optional_text,
    timestamp_input,
)
from memvault.vault_inputs import DID_PATTERN as DID_PATTERN
from memvault.vault_inputs import LANGUAGE_PATTERN as LANGUAGE_PATTERN
from memvault.vault_inputs import PERMISSIONS as PERMISSIONS
from memvault.vault_inputs import PLATFORM_PATTERN as PLATFORM_PATTERN
from memvault.vault_inputs import TAG_PATTERN as TAG_PATTERN
from memvault.vault_inputs import VISIBILITIES as VISIBILITIES

if TYPE_CHECKING:
    from memvault.export_view import ExportView
    from memvault.recall.embedders import Embedder, EmbedderSpec
    from memvault.recall.engine import RecallResult
    from memvault.recall.ranking import Ranking
    from memvault.unit_of_work import UnitOfWork

__all__ = [
    "BACKGROUND_ACTOR",
    "OWNER_ACTOR",
    "UNCHANGED",
    "AccessDenied",
    "AddResult",
    "AmbiguousId",
    "AuditReport",
    "BatchResult",
    "ConflictingInput",
    "ConversationPage",
    "DNAProtected",
    "DecayReport",
    "DecaySettings",
    "HomeNotWritable",
    "InvalidInput",
    "InvalidTransition",
    "MemoryQuery",
    "NotFound",
    "Page",
    "SearchResult",
    "StoreError",
    "Vault",
    "VaultError",
    "VaultExists",
    "VaultNotFound",
    "WrongPassphrase",
    "format_timestamp",
]

SETTINGS_META_KEY: Final = "settings"
EXTRACTOR: Final = f"memvault/{__version__}" if __version__.count(".") == 2 else None

#: add_memories checks and writes a batch in chunks of this many memories: small enough that
#: little is left to write after the last chunk is checked, when the store writes one chunk
#: while the next is checked (`Store.insert_memory_batches`).
_CHUNK: Final = 1024


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddResult:
    """What `Vault.add` did: `created` a new memory, or `reinforced` the existing active memory
    with the same content hash (PAM §6). Exactly one of the two is true."""

    memory: Memory
    created: bool
    reinforced: bool


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What `Vault.add_memories` did, by incoming memory id.

    - `created`: ids inserted as new memories;
    - `reinforced`: incoming ids whose content matched an active memory (in the vault or
      earlier in the batch), which was reinforced instead — `id_map` says which;
    - `skipped`: incoming ids already in the vault with the same content (an idempotent
      re-import, AIMEM §8).

    `id_map` maps every incoming id to the id it lives under in the vault.
    """

    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    id_map: dict[str, str] = field(default_factory=dict)


_Item = TypeVar("_Item")


@dataclass(frozen=True, slots=True)
class Page(Generic[_Item]):
    """One page of a listing: the items and the total number of matches (`Vault.list`:
    memories; `Vault.conversation_page`: conversation summaries, without their messages)."""

    items: list[_Item]
    total: int
    offset: int = 0
    limit: int | None = None


#: The type of a `Vault.conversation_page` page: summaries (no messages) and the total.
ConversationPage = Page[ConversationSummary]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One full-text hit: the memory and its relevance (higher is better, bm25-based;
    comparable only within one result list)."""

    memory: Memory
    score: float


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


#: Tells the time (aware or naive UTC): what a vault calls when a method is given no `now`.
Clock = Callable[[], datetime]


def _now(now: datetime | None, clock: Clock | None = None) -> datetime:
    if now is None:
        now = datetime.now(UTC) if clock is None else clock()
    moment = now
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0)


def _initial_anchor(memory: Memory) -> float | None:
    """The decay anchor of a memory as it arrives (`_anchor_of` without a stored anchor)."""
    conf = memory.confidence
    if not isinstance(conf, Confidence):
        return None
    if _is_number(conf.initial):
        return float(conf.initial)  # type: ignore[arg-type]
    if _is_number(conf.current):
        return float(conf.current)  # type: ignore[arg-type]
    return None


def _tags_of(memory: Memory) -> tuple[str, ...]:
    return memory.tags if isinstance(memory.tags, tuple) else ()


def _stated_at(memory: Memory, at: str) -> str:
    """When an incoming duplicate was stated: its last_reinforced, else when it was said
    (`_said_at`), never later than now."""
    stated = _decay_start(memory)
    try:
        return stated if parse_timestamp(stated) <= parse_timestamp(at) else at
    except ValueError:
        return at


def _later(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    try:
        return a if parse_timestamp(a) >= parse_timestamp(b) else b
    except ValueError:
        return b


# ---------------------------------------------------------------------------------------------
# The vault
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Shared:
    """What the sessions of one opened vault share and may change: the owner record (a new
    DID from `add_key` is seen by every session)."""

    owner: Owner


class Vault:
    """The one front door. Create with `Vault.init`, open with `Vault.open` (or wrap an open
    `Store` with ``Vault(store)``). Use as a context manager or call `close()`.

    An instance is a session bound to its actor (`actor`): the vault as opened acts as the
    owner, `acting_as` and `background` make sessions for others over the same database."""

    def __init__(
        self, store: Store, home: Path | None = None, *, clock: Clock | None = None
    ) -> None:
        owner = store.get_owner()
        if owner is None:
            raise StoreError("the vault has no owner record; it was not created by Vault.init")
        self._store = store
        self._home = home
        self._shared = _Shared(owner)
        self._audit = AuditLog(store)
        # What "now" is when a method is not given `now=`: the system's UTC clock by default.
        self._clock = clock
        # Who is acting (docs/access.md): the vault as opened is the owner's session;
        # `acting_as` makes the others, which share everything above and own no store.
        self._actor: str = OWNER_ACTOR
        self._derived = False

    # -- opening and closing --------------------------------------------------------------

    @classmethod
    def init(
        cls,
        home: Path | str,
        passphrase: str,
        *,
        owner_id: str | None = None,
        did: str | None = None,
        kdf_iter: int | None = None,
        clock: Clock | None = None,
        serving: bool = False,
    ) -> Vault:
        """``Vault.init(home, passphrase, *, owner_id=None, did=None, kdf_iter=None,
        clock=None, serving=False) -> Vault``

        Create a vault in the directory `home` and its owner (PAM §3.1: `owner_id` defaults to
        a new UUID v4; `did` must look like ``did:<method>:<id>``, §17). `kdf_iter` defaults
        to SQLCipher's 256,000. The home and the passphrase are given, never looked up: to
        find them from ``$MEMVAULT_HOME``, ``$MEMVAULT_PASSPHRASE``, a file or a prompt, use
        `memvault.local.init_vault`. `serving`: as for `open`.

        Raises VaultExists (nothing touched), HomeNotWritable, InvalidInput.
        """
        require_passphrase(passphrase)
        check_owner_fields(owner_id, did, kdf_iter)
        root = Path(home).expanduser()
        store = create_store(root, passphrase, kdf_iter=kdf_iter, serving=serving)
        try:
            return cls.create(store, root, owner_id=owner_id, did=did, clock=clock)
        except BaseException:
            store.close()
            raise

    @classmethod
    def create(
        cls,
        store: Store,
        home: Path | None = None,
        *,
        owner_id: str | None = None,
        did: str | None = None,
        clock: Clock | None = None,
    ) -> Vault:
        """``Vault.create(store, home=None, *, owner_id=None, did=None, clock=None) -> Vault``

        Make a new, empty `store` a vault: its owner (PAM §3.1), the default settings and the
        audit log's first entry, in one transaction.
        """
        check_owner_fields(owner_id, did, None)
        at = format_timestamp(_now(None, clock))
        owner_json: dict[str, Any] = {"id": owner_id or str(uuid.uuid4())}
        if did is not None:
            owner_json["did"] = did
        owner_json["created_at"] = at
        owner = Owner.from_json(owner_json)
        details: dict[str, Any] = {"owner_id": owner.id, "schema_version": store.schema_version}
        # An encrypted store says how hard its key is to derive; the entry records it.
        kdf_iter = store.kdf_iter
        if kdf_iter is not None:
            details["kdf_iter"] = kdf_iter
        with store.transaction():
            store.set_owner(owner)
            store.set_meta(SETTINGS_META_KEY, orjson.dumps(DecaySettings().to_json()).decode())
            AuditLog(store).append([PendingEntry("init", OWNER_ACTOR, details=details)], at)
        return cls(store, home, clock=clock)

    @classmethod
    def open(
        cls,
        home: Path | str,
        passphrase: str,
        *,
        clock: Clock | None = None,
        serving: bool = False,
    ) -> Vault:
        """``Vault.open(home, passphrase, *, clock=None, serving=False) -> Vault``

        Open the existing vault in the directory `home` (pending schema migrations run). The
        home and the passphrase are given, never looked up: see `memvault.local.open_vault`.
        `serving`: opened by a server for its whole life (small caches: `open_store`).
        Raises VaultNotFound, WrongPassphrase, StoreError, InvalidInput (an empty passphrase).
        """
        root = Path(home).expanduser()
        store = open_store(root, passphrase, serving=serving)
        try:
            return cls(store, root, clock=clock)
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        """Close the database. The vault, and every session made from it, cannot be used
        afterwards. A session's own `close` (or the end of its ``with`` block) closes nothing:
        the vault it came from owns the database."""
        if not self._derived:
            self._store.close()

    def release_memory(self) -> int:
        """Give back what the store's idle connections hold between requests — page caches,
        prepared statements (`Store.release_memory`): a server calls it once a large request
        is done. Changes nothing of the vault's; returns the bytes released, where known."""
        return self._store.release_memory()

    # -- sessions -------------------------------------------------------------------------

    @property
    def actor(self) -> str:
        """Who this session acts as (docs/access.md): ``"user"`` (the owner: the vault as
        opened), ``"system"`` or ``"system:<task>"`` (background work), or an agent entity
        named as in a PAM §9 grant. Every method checks it; none takes another."""
        return self._actor

    def acting_as(self, actor: str) -> Vault:
        """``acting_as(actor) -> Vault`` — a session of this vault bound to `actor`: the same
        operations, the same database, settings, audit log and locks, every read and write
        checked against `actor` (PAM §9, docs/access.md). Only the owner's session makes
        others (an agent cannot make itself the owner): AccessDenied otherwise."""
        actor = check_actor(actor)
        require_owner(self._actor, f"act as {actor!r}")
        session = copy.copy(self)
        session._actor = actor
        session._derived = True
        return session

    def background(self, task: str | None = None) -> Vault:
        """``background(task=None) -> Vault`` — the session the owner's background work runs
        in: ``"system"`` (or ``"system:<task>"``), the owner's rights except on DNA-class
        memories (AIMEM §5.1). Work started by another session (an agent's provider import,
        its decay) stays that session's, so it is returned as it is."""
        if self._actor != OWNER_ACTOR:
            return self
        return self.acting_as(BACKGROUND_ACTOR if task is None else f"{BACKGROUND_ACTOR}:{task}")

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def owner(self) -> Owner:
        """The owner record (PAM §3.1)."""
        return self._shared.owner

    @property
    def _owner(self) -> Owner:
        return self._shared.owner

    @property
    def home(self) -> Path | None:
        """The directory holding the vault files (None for a vault on a non-file store)."""
        return self._home

    @property
    def store(self) -> Store:
        """The storage backend, for repair tools and tests: nothing it does checks who acts,
        so an agent's session is refused it (AccessDenied); library code uses the session."""
        require_privileged(self._actor, "reach the vault's store directly")
        return self._store

    # -- settings -------------------------------------------------------------------------

    @property
    def settings(self) -> DecaySettings:
        """Decay rates and defaults (PAM §8.1), stored in the vault's meta table."""
        text = self._store.get_meta(SETTINGS_META_KEY)
        if text is None:
            return DecaySettings()
        try:
            return DecaySettings.from_json(orjson.loads(text))
        except (ValueError, TypeError):
            return DecaySettings()

    def update_settings(self, *, now: datetime | None = None, **changes: Any) -> DecaySettings:
        """``update_settings(*, now=None, **changes) -> DecaySettings``

        Change settings, e.g. ``update_settings(half_life_days=90)``. Owner only."""
        self._require_owner(self._actor, "change settings")
        try:
            updated = self.settings.evolve(**changes)
        except (ValueError, TypeError) as exc:
            raise InvalidInput(str(exc), "settings") from None
        at = format_timestamp(_now(now, self._clock))
        with self._store.transaction():
            self._store.set_meta(SETTINGS_META_KEY, orjson.dumps(updated.to_json()).decode())
            self._audit.append(
                [PendingEntry("settings", self._actor, details={"changed": sorted(changes)})], at
            )
        return updated

    # -- access helpers -------------------------------------------------------------------
    # With `_store`, `_audit`, `_load` and `_moment`, these are what the capability modules
    # behind the public methods (`memvault.changes`, `lifecycle`, `relations`, `erasure`,
    # `decay_run`, `owner_keys`, `audit_reads`, `stats`) use of the session: the same
    # store, audit log, clock and front-door checks as the methods written here.

    def _require_owner(self, actor: str, what: str) -> None:
        require_owner(actor, what)

    @staticmethod
    def _require(memory: Memory, actor: str, permission: str, what: str) -> None:
        require(memory, actor, permission, what)

    @staticmethod
    def _protect_dna(memory: Memory, actor: str, what: str) -> None:
        if is_background(actor) and memory.is_dna:
            raise DNAProtected(
                f"memory {memory.id} is DNA-class ({memory.type}"
                f"{'/' + memory.custom_type if isinstance(memory.custom_type, str) else ''}"
                f"{', pinned' if memory.pinned else ''}): background work ({actor!r}) may not "
                f"{what} it (AIMEM §5.1)"
            )

    def _moment(self, now: datetime | None) -> datetime:
        """`now`, or the session's clock when None, as aware UTC in whole seconds."""
        return _now(now, self._clock)

    # -- adding ---------------------------------------------------------------------------

    def add(
        self,
        content: str,
        type: str,
        *,
        custom_type: str | None = None,
        tags: Iterable[str] = (),
        summary: str | None = None,
        platform: str = "manual",
        extraction_method: str | None = "manual",
        confidence: float | None = None,
        decay_model: str | None = None,
        visibility: str = "private",
        exportable: bool = True,
        shared_with: Iterable[AccessGrant | Mapping[str, Any] | tuple[str, Iterable[str]]] = (),
        metadata: Mapping[str, Any] | None = None,
        valid_from: datetime | str | None = None,
        valid_until: datetime | str | None = None,
        conversation_ref: str | None = None,
        message_ref: str | None = None,
        now: datetime | None = None,
    ) -> AddResult:
        """``add(content, type, *, custom_type=None, tags=(), summary=None, platform="manual",
        extraction_method="manual", confidence=None, decay_model=None, visibility="private",
        exportable=True, shared_with=(), metadata=None, valid_from=None, valid_until=None,
        conversation_ref=None, message_ref=None, now=None) -> AddResult``

        Add a memory, or reinforce the active memory that already has the same content hash
        (PAM §6; never a twin): its confidence rises (`memvault.decay.reinforced_confidence`),
        `temporal.updated_at` becomes now, `confidence.last_reinforced` becomes when the
        statement was made (`valid_from` when given and not later than now, else now), and new
        tags are added to its tags; nothing else changes.

        New memories get `confidence.initial` = `confidence` (default: settings
        ``default_confidence``, 0.9) and `decay_model` (default: "none" for DNA-class memories,
        else settings ``default_decay_model``). Raises InvalidInput naming the field and rule,
        AccessDenied when an agent would reinforce a memory it may not write.
        """
        actor = self._actor
        content = check_content(content)
        custom = check_type(type, custom_type)
        tag_list = check_tags(tags)
        summary = optional_text(summary, "summary")
        platform = check_platform(platform)
        method = check_extraction_method(extraction_method)
        settings = self.settings
        initial = (
            settings.default_confidence
            if confidence is None
            else check_confidence(confidence, "confidence")
        )
        model = check_decay_model(decay_model)
        visibility = check_visibility(visibility)
        exportable = check_exportable(exportable)
        visibility, grants = creator_access(actor, visibility, check_grants(shared_with))
        meta = check_metadata(metadata)
        start = timestamp_input(valid_from, "valid_from")
        until = timestamp_input(valid_until, "valid_until")
        conversation_ref = optional_text(conversation_ref, "conversation_ref")
        message_ref = optional_text(message_ref, "message_ref")
        moment = _now(now, self._clock)
        at = format_timestamp(moment)
        digest = compute_content_hash(content)

        memory = Memory(
            id=str(uuid.uuid4()),
            type=type,
            custom_type=custom,
            status="active",
            content=content,
            content_hash=digest,
            summary=summary,
            tags=tag_list,
            confidence=Confidence(initial=initial, current=initial, decay_model=None),
            temporal=Temporal(
                created_at=at,
                updated_at=None,
                valid_from=start,
                valid_until=until,
                superseded_by=None,
            ),
            provenance=Provenance(
                platform=platform,
                platform_user_id=None,
                conversation_ref=conversation_ref,
                message_ref=message_ref,
                extraction_method=method,
                extracted_at=at,
                extractor=EXTRACTOR,
            ),
            access=Access(visibility=visibility, exportable=exportable, shared_with=grants),
            embedding_ref=None,
            metadata=meta,
        )
        if model is None:
            model = "none" if memory.is_dna else settings.default_decay_model
        memory = memory.evolve(
            confidence=Confidence(
                initial=initial, current=initial, decay_model=model, last_reinforced=None
            )
        )

        with self._store.transaction():
            existing = self._active_twin(digest)
            if existing is not None:
                self._require(existing.memory, actor, "write", "reinforce")
                reinforced = self._reinforce(
                    existing, tag_list, at, settings, _stated_at(memory, at)
                )
                self._store.update_memory(reinforced)
                self._audit.append([self._reinforce_entry(reinforced.memory, actor, "add")], at)
                return AddResult(reinforced.memory, created=False, reinforced=True)
            self._store.insert_memories([StoredMemory(memory, initial)])
            self._audit.append([self._add_entry(memory, actor)], at)
        return AddResult(memory, created=True, reinforced=False)

    def _active_twin(self, digest: str) -> StoredMemory | None:
        for stored in self._store.find_by_content_hash(digest):
            if stored.memory.effective_status == "active":
                return stored
        return None

    @staticmethod
    def _reinforce(
        stored: StoredMemory,
        tags: Sequence[str],
        at: str,
        settings: DecaySettings,
        reinforced_at: str | None = None,
    ) -> StoredMemory:
        memory = stored.memory
        conf = _confidence_block(memory)
        anchor = _anchor_of(stored)
        current = (
            float(conf.current)  # type: ignore[arg-type]
            if conf is not None and _is_number(conf.current)
            else None
        )
        if anchor is None and current is None:
            anchor = settings.default_confidence
        value = reinforced_confidence(anchor, current, settings.reinforce_step)
        # Never earlier than the memory itself (an imported duplicate may be older).
        when = _later(reinforced_at or at, _said_at(memory)) or at
        if conf is None:
            conf = Confidence(initial=value, current=value, decay_model=None, last_reinforced=when)
        else:
            previous = conf.last_reinforced if isinstance(conf.last_reinforced, str) else None
            conf = conf.evolve(current=value, last_reinforced=_later(previous, when))
        old_tags = memory.tags if isinstance(memory.tags, tuple) else ()
        new_tags = tuple(dict.fromkeys((*old_tags, *tags)))
        changes: dict[str, Any] = {
            "confidence": conf,
            "temporal": memory.temporal.evolve(updated_at=at),
        }
        if new_tags != old_tags:
            changes["tags"] = new_tags
        return StoredMemory(memory.evolve(**changes), value)

    @staticmethod
    def _add_entry(memory: Memory, actor: str, action: str = "add") -> PendingEntry:
        details: dict[str, Any] = {"type": memory.type, "status": memory.effective_status}
        if isinstance(memory.custom_type, str):
            details["custom_type"] = memory.custom_type
        details["platform"] = memory.provenance.platform
        return PendingEntry(action, actor, memory.id, memory.content_hash, details)

    @staticmethod
    def _reinforce_entry(memory: Memory, actor: str, via: str) -> PendingEntry:
        conf = _confidence_block(memory)
        details: dict[str, Any] = {"via": via}
        if conf is not None and _is_number(conf.current):
            details["confidence"] = conf.current
        return PendingEntry("reinforce", actor, memory.id, memory.content_hash, details)

    def add_memories(
        self, memories: Iterable[Memory], *, now: datetime | None = None
    ) -> BatchResult:
        """``add_memories(memories, *, now=None) -> BatchResult``

        Add PAM memories as they are (ids, timestamps, provenance kept) in ONE transaction:
        all of them or, on any error, none. Every memory must validate against the PAM memory
        schema and carry the right content hash (§6); an error names its position, id, field
        and rule.

        Dedup (PAM §6), also within the batch: an incoming *active* memory whose content hash
        matches an active memory reinforces that memory instead of being stored (its
        `last_reinforced` becomes the later of the two statements). An incoming id already in
        the vault with the same content hash is skipped (idempotent re-import); with a
        different content hash it is an error — use `update` for that.
        """
        actor = self._actor
        at = format_timestamp(_now(now, self._clock))
        with gc_paused():
            return self._add_memories(builtins.list(memories), actor, at)

    def _add_memories(self, batch: builtins.list[Memory], actor: str, at: str) -> BatchResult:
        check_batch(batch)
        if not is_privileged(actor):
            batch = [as_created_by(memory, actor) for memory in batch]
        settings = self.settings
        result = BatchResult()
        created, skipped, id_map = result.created, result.skipped, result.id_map
        with self._batch_transaction():
            present = self._store.existing_ids([m.id for m in batch])
            twins = self._store.find_by_content_hashes(
                [m.content_hash for m in batch if m.effective_status == "active"],
                statuses=("active",),
            )
            # The memories to store: id -> position in the batch.
            new: dict[str, int] = {}
            # New memories reinforced later in the batch, as they will be stored.
            rewritten: dict[str, StoredMemory] = {}
            new_active_by_hash: dict[str, str] = {}
            touched: dict[str, StoredMemory] = {}
            reinforce_entries: builtins.list[PendingEntry] = []
            for index, memory in enumerate(batch):
                memory_id = memory.id
                digest = memory.content_hash
                if memory_id in new or memory_id in present:
                    known = (
                        present[memory_id]
                        if memory_id in present
                        else batch[new[memory_id]].content_hash
                    )
                    if known != digest:
                        raise InvalidInput(
                            f"memories[{index}] (id {memory_id}): a memory with this id and "
                            "different content is already in the vault; use update to change "
                            "it",
                            "id",
                        )
                    skipped.append(memory_id)
                    id_map[memory_id] = memory_id
                    continue
                if memory.effective_status == "active":
                    if digest in new_active_by_hash or digest in twins:
                        target = self._batch_twin(
                            digest, batch, new, rewritten, new_active_by_hash, touched, twins
                        )
                        self._require(target.memory, actor, "write", "reinforce")
                        target_id = target.memory.id
                        updated = self._reinforce(
                            target, _tags_of(memory), at, settings, _stated_at(memory, at)
                        )
                        if target_id in new:
                            # Reinforced within the batch: still new, not "updated".
                            rewritten[target_id] = StoredMemory(
                                updated.memory.evolve(temporal=target.memory.temporal),
                                updated.decay_anchor,
                            )
                        else:
                            touched[target_id] = updated
                        reinforce_entries.append(
                            self._reinforce_entry(updated.memory, actor, "batch")
                        )
                        result.reinforced.append(memory_id)
                        id_map[memory_id] = target_id
                        continue
                    new_active_by_hash[digest] = memory_id
                new[memory_id] = index
                created.append(memory_id)
                id_map[memory_id] = memory_id
            self._check_and_insert(batch, new, rewritten)
            if touched:
                self._store.update_memories(touched.values())
            entries = self._add_entries(batch, new, actor)
            entries.extend(reinforce_entries)
            self._audit.append(entries, at)
        return result

    def _batch_transaction(self) -> contextlib.AbstractContextManager[None]:
        """`add_memories`' transaction: every failure inside it ends it, so the store need
        not keep savepoints for the store calls nested in it."""
        return self._store.transaction(savepoints=False)

    def _check_and_insert(
        self,
        batch: Sequence[Memory],
        new: Mapping[str, int],
        rewritten: Mapping[str, StoredMemory],
    ) -> None:
        """Check every incoming memory (`check_memories`) and insert the new ones, chunk by
        chunk (bounded memory for the JSON texts). Inside the caller's transaction: any
        failure leaves nothing behind. The chunks are made lazily, so the store may write one
        while the next is checked (`Store.insert_memory_batches`)."""
        chunks = (
            self._checked_rows(batch, start, _CHUNK, new, rewritten)
            for start in range(0, len(batch), _CHUNK)
        )
        try:
            self._store.insert_memory_batches(chunks)
        except IntegrityViolation as exc:
            raise InvalidInput(str(exc), "id") from None

    @staticmethod
    def _checked_rows(
        batch: Sequence[Memory],
        start: int,
        size: int,
        new: Mapping[str, int],
        rewritten: Mapping[str, StoredMemory],
    ) -> builtins.list[StoredMemory]:
        """batch[start:start + size] checked (`check_memories`), as the rows to store: the
        memories to create (not skipped, not reinforcing another), with their JSON."""
        chunk = batch[start : start + size]
        documents = check_memories(chunk, start)
        rows: builtins.list[StoredMemory] = []
        for index, (memory, document) in enumerate(zip(chunk, documents, strict=True), start):
            if new.get(memory.id) != index:
                continue  # skipped, or reinforced another memory instead
            stored = rewritten.get(memory.id)
            if stored is None:
                stored = StoredMemory(memory, _initial_anchor(memory), document)
            rows.append(stored)
        return rows

    @staticmethod
    def _add_entries(
        batch: Sequence[Memory], new: Mapping[str, int], actor: str
    ) -> builtins.list[PendingEntry]:
        """The "add" audit entries of a batch's new memories (`_add_entry`, with one details
        object per distinct type, status and platform: the audit log canonicalizes each
        once)."""
        shared: dict[tuple[Any, ...], Mapping[str, Any]] = {}
        entries: builtins.list[PendingEntry] = []
        append = entries.append
        for memory_id, index in new.items():
            memory = batch[index]
            key = (memory.type, memory.custom_type, memory.status, memory.provenance.platform)
            details = shared.get(key)
            if details is None:
                details = shared[key] = Vault._add_entry(memory, actor).details
            append(PendingEntry("add", actor, memory_id, memory.content_hash, details))
        return entries

    @staticmethod
    def _batch_twin(
        digest: str,
        batch: Sequence[Memory],
        new: Mapping[str, int],
        rewritten: Mapping[str, StoredMemory],
        new_active_by_hash: Mapping[str, str],
        touched: Mapping[str, StoredMemory],
        twins: Mapping[str, Sequence[StoredMemory]],
    ) -> StoredMemory:
        """The active memory with this content hash: added earlier in the batch, or in the
        vault (as already reinforced earlier in the batch, if it was)."""
        earlier = new_active_by_hash.get(digest)
        if earlier is not None:
            stored = rewritten.get(earlier)
            if stored is None:
                memory = batch[new[earlier]]
                stored = StoredMemory(memory, _initial_anchor(memory))
            return stored
        found = twins[digest][0]
        return touched.get(found.memory.id) or found

    # -- reading --------------------------------------------------------------------------

    def resolve(self, id_or_prefix: str) -> str:
        """``resolve(id_or_prefix) -> str``

        The full id of the memory with this id, or the only one whose id starts with this
        prefix (like git). Raises NotFound, or AmbiguousId listing the candidates. An agent's
        prefix is matched only among the memories it may read (PAM §9): one it may not read
        answers as an unknown prefix, so a prefix never tells it that such a memory exists."""
        key = check_id(id_or_prefix)
        if self._store.get_memory(key) is not None:
            return key
        if is_privileged(self._actor):
            candidates = self._store.ids_with_prefix(key, limit=11)
        else:
            candidates = self._store.readable_ids_with_prefix(key, self._actor, limit=11)
        return _the_only(key, candidates, "memory", "memories")

    def _load(self, id_or_prefix: str) -> StoredMemory:
        memory_id = self.resolve(id_or_prefix)
        stored = self._store.get_memory(memory_id)
        if stored is None:  # pragma: no cover - resolve just found it
            raise NotFound(f"no memory with id {memory_id!r}")
        return stored

    def get(self, id_or_prefix: str) -> Memory:
        """``get(id_or_prefix) -> Memory``

        Raises NotFound, AmbiguousId, AccessDenied (an agent without read access, PAM §9)."""
        actor = self._actor
        memory = self._load(id_or_prefix).memory
        self._require(memory, actor, "read", "read")
        return memory

    def _scoped(self, query: MemoryQuery | None, actor: str) -> MemoryQuery:
        query = check_query(query)
        if not is_privileged(actor):
            query = replace(query, readable_by=actor)
        return query

    def list(self, query: MemoryQuery | None = None) -> Page[Memory]:
        """``list(query=None) -> Page``

        Memories matching the query (default: active ones, newest first, 50 per page); an
        agent sees only what it may read (PAM §9). `Page.total` counts every match."""
        actor = self._actor
        scoped = self._scoped(query, actor)
        items = [s.memory for s in self._store.query_memories(scoped)]
        total = self._store.count_memories(scoped)
        return Page(items, total, scoped.offset, scoped.limit)

    def iter_memories(self, query: MemoryQuery | None = None) -> Iterator[Memory]:
        """``iter_memories(query=None) -> Iterator[Memory]``

        Every matching memory (limit/offset ignored), streamed in batches — for exports."""
        actor = self._actor
        for stored in self._store.iter_memories(self._scoped(query, actor)):
            yield stored.memory

    def search(
        self,
        text: str,
        query: MemoryQuery | None = None,
        *,
        order: str = "relevance",
    ) -> builtins.list[SearchResult]:
        """``search(text, query=None, *, order="relevance")
        -> list[SearchResult]``

        Full-text search over content, summary and tags (the memory passages of the recall
        index); case and diacritics are folded ("acao" finds "ação", "Lisboa" finds "lisboa")
        and words match by their stems ("run" finds "running"). Every word must match;
        ``word*`` matches a prefix; punctuation is ignored. The query's filters, limit and
        offset apply (default: active memories, 50 results). `order` is "relevance" (bm25) or one of
        MemoryQuery's time orders ("-created", "created", "-updated", "updated")."""
        actor = self._actor
        check_search(text, order)
        scoped = replace(self._scoped(query, actor), text=text, order=order)  # type: ignore[arg-type]
        return [SearchResult(h.memory.memory, h.score) for h in self._store.search(scoped)]

    # -- recall (memvault.recall: the rules live there) -----------------------------------

    def recall(
        self,
        query: str,
        k: int = 10,
        *,
        mode: str = "hybrid",
        ranking: Ranking | None = None,
        embedder: Embedder | None = None,
        now: datetime | None = None,
        **filters: Any,
    ) -> RecallResult:
        """``recall(query, k=10, *, mode="hybrid", ranking=None, **filters) -> RecallResult``

        The `k` memories and conversation messages that best answer `query`, best first
        (``.hits``, each a `RecallHit`), found by full text and, when the vault has vectors,
        by meaning (docs/recall.md). Filters: kind ("all", "memories", "messages"),
        conversation, platform, type(s), tag(s), since, until, role, participant, status(es)
        or include_inactive (superseded, retracted and archived memories surface only when
        asked for). An agent's session finds only the memories PAM §9 lets it read."""
        from memvault.recall.operations import recall_in

        return recall_in(
            self._store,
            query,
            k,
            actor=self._actor,
            mode=mode,
            ranking=ranking,
            embedder=embedder,
            now=now,
            filters=filters,
        )

    def reindex(self) -> tuple[int, int]:
        """``reindex() -> (memories, conversations)``: rebuild the recall
        index from the vault's memories and conversations (owner only; vectors are computed
        again by `embed`)."""
        from memvault.recall.operations import reindex

        return reindex(self._store, self._actor)

    def embed(
        self,
        spec: EmbedderSpec | None = None,
        *,
        embedder: Embedder | None = None,
        api_key: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[int, int, int]:
        """``embed(spec=None, *, embedder=None, api_key=None, progress=None)
        -> (embedded, with_vector, passages)``: compute the vectors recall passages lack, with
        `spec` (then the vault's embedder from now on) or the vault's embedder (owner only)."""
        from memvault.recall.operations import embed

        return embed(
            self._store,
            self._actor,
            spec=spec,
            embedder=embedder,
            api_key=api_key,
            progress=progress,
        )

    def embedder_spec(self) -> EmbedderSpec | None:
        """The embedder the vault's vectors are made with (None until `embed` names one)."""
        from memvault.recall.operations import embedder_spec

        return embedder_spec(self._store)

    # -- changing -------------------------------------------------------------------------

    def update(
        self,
        id: str,
        *,
        content: str | _Unchanged = UNCHANGED,
        type: str | _Unchanged = UNCHANGED,
        custom_type: str | _Unchanged | None = UNCHANGED,
        tags: Iterable[str] | _Unchanged = UNCHANGED,
        add_tags: Iterable[str] = (),
        remove_tags: Iterable[str] = (),
        summary: str | _Unchanged | None = UNCHANGED,
        exportable: bool | _Unchanged = UNCHANGED,
        visibility: str | _Unchanged = UNCHANGED,
        metadata: Mapping[str, Any] | _Unchanged | None = UNCHANGED,
        valid_from: datetime | str | _Unchanged | None = UNCHANGED,
        valid_until: datetime | str | _Unchanged | None = UNCHANGED,
        now: datetime | None = None,
    ) -> Memory:
        """``update(id, *, content=UNCHANGED, type=UNCHANGED, custom_type=UNCHANGED,
        tags=UNCHANGED, add_tags=(), remove_tags=(), summary=UNCHANGED, exportable=UNCHANGED,
        visibility=UNCHANGED, metadata=UNCHANGED, valid_from=UNCHANGED, valid_until=UNCHANGED,
        now=None) -> Memory``

        Change some fields; the others stay. New content gets a new content hash (and may not
        equal another active memory's: supersede or reinforce that one instead). Content and
        type can change only while the memory is active or deprecated (a retracted, archived or
        superseded memory keeps its statement, PAM §16.3). `temporal.updated_at` moves only if
        something really changed; an update that changes nothing writes nothing.

        Tags: `tags` replaces them; `add_tags` appends (to `tags`, or to the stored tags) and
        `remove_tags` then takes tags away. The merge reads the stored tags inside the
        update's transaction, so a change another writer made meanwhile is not lost.

        Agents need the "write" grant; visibility and exportable are the owner's alone.
        Background work may not change DNA-class memories (DNAProtected).
        """
        from memvault.changes import update

        return update(
            self,
            id,
            content=content,
            type=type,
            custom_type=custom_type,
            tags=tags,
            add_tags=add_tags,
            remove_tags=remove_tags,
            summary=summary,
            exportable=exportable,
            visibility=visibility,
            metadata=metadata,
            valid_from=valid_from,
            valid_until=valid_until,
            now=now,
        )

    def edit(
        self,
        id: str,
        *,
        grants: Iterable[tuple[str, Iterable[str] | str]] = (),
        revokes: Iterable[tuple[str, Iterable[str] | str | None]] = (),
        now: datetime | None = None,
        **fields: Any,
    ) -> Memory:
        """``edit(id, *, grants=(), revokes=(), now=None, **fields) -> Memory``

        One edit patch, applied atomically: `update(id, **fields)` (any of its fields, tags
        merged as it merges them), then each ``(entity, permissions)`` of `grants`, then each
        ``(entity, permissions or None)`` of `revokes`, in one transaction; a refused part
        (e.g. a grant by an agent) leaves the memory as it was. InvalidInput when the patch
        is empty. Returns the memory as it ends up."""
        from memvault.changes import edit

        return edit(self, id, grants=grants, revokes=revokes, now=now, **fields)

    def grant(
        self,
        id: str,
        entity: str,
        permissions: Iterable[str] | str,
        *,
        now: datetime | None = None,
    ) -> Memory:
        """``grant(id, entity, permissions, *, now=None) -> Memory``

        Give an agent entity permissions (read / write / delete, PAM §9.1) on a memory, added
        to any it has. A private memory becomes "shared" (a grant on a private memory would
        have no effect). Owner only."""
        from memvault.changes import grant

        return grant(self, id, entity, permissions, now=now)

    def revoke(
        self,
        id: str,
        entity: str,
        permissions: Iterable[str] | str | None = None,
        *,
        now: datetime | None = None,
    ) -> Memory:
        """``revoke(id, entity, permissions=None, *, now=None) -> Memory``

        Take permissions away from an entity (all of them when `permissions` is None; the grant
        disappears when none is left). Owner only."""
        from memvault.changes import revoke

        return revoke(self, id, entity, permissions, now=now)

    # -- lifecycle ------------------------------------------------------------------------

    def transition(self, id: str, status: str, *, now: datetime | None = None) -> Memory:
        """``transition(id, status, *, now=None) -> Memory``

        Move a memory along PAM §7.1: active → superseded | deprecated | retracted | archived,
        superseded → archived, deprecated → retracted | archived; retracted and archived are
        final. Anything else raises InvalidTransition naming the current status and the allowed
        transitions. (Prefer `supersede`, which also records the replacement.) Agents need
        "write"; background work may not transition DNA-class memories (DNAProtected)."""
        from memvault.lifecycle import transition

        return transition(self, id, status, now=now)

    def retract(self, id: str, *, now: datetime | None = None) -> Memory:
        """``retract(id, *, now=None) -> Memory`` — the user invalidates it
        (kept, never deleted: PAM §16.3)."""
        return self.transition(id, "retracted", now=now)

    def archive(self, id: str, *, now: datetime | None = None) -> Memory:
        """``archive(id, *, now=None) -> Memory`` — kept for history only."""
        return self.transition(id, "archived", now=now)

    def deprecate(self, id: str, *, now: datetime | None = None) -> Memory:
        """``deprecate(id, *, now=None) -> Memory`` — still valid, no longer
        prioritized."""
        return self.transition(id, "deprecated", now=now)

    def supersede(self, old: str, new: str, *, now: datetime | None = None) -> Relation:
        """``supersede(old, new, *, now=None) -> Relation``

        `new` replaces `old`: old.status = superseded, old.temporal.superseded_by = new, and a
        `supersedes` relation new → old (PAM §7, §13). Both must be active (InvalidTransition
        otherwise). Agents need "write" on old and "read" on new; background work may not
        supersede a DNA-class memory (DNAProtected)."""
        from memvault.lifecycle import supersede

        return supersede(self, old, new, now=now)

    # -- relations ------------------------------------------------------------------------

    def relate(
        self,
        from_id: str,
        to_id: str,
        type: str,
        *,
        confidence: float | None = None,
        now: datetime | None = None,
    ) -> Relation:
        """``relate(from_id, to_id, type, *, confidence=None, now=None)
        -> Relation``

        A typed edge (PAM §13: supports, contradicts, extends, supersedes, related_to,
        derived_from) with an optional confidence in [0, 1]. Relating the same pair with the
        same type again returns the existing relation (with the new confidence, if one is
        given). Agents need "write" on `from_id` and "read" on `to_id`. A `supersedes`
        relation made here does not change any status; `supersede` does."""
        from memvault.relations import relate

        return relate(self, from_id, to_id, type, confidence=confidence, now=now)

    def relations(self, id: str) -> builtins.list[Relation]:
        """``relations(id) -> list[Relation]``

        Relations where the memory is the source or the target, oldest first; for an agent,
        only those whose other end it may read too."""
        from memvault.relations import relations_of

        return relations_of(self, id)

    def iter_relations(self) -> Iterator[Relation]:
        """``iter_relations() -> Iterator[Relation]``

        Every relation of the vault (the graph of it), streamed. The owner's or background
        work's: an agent reads relations one memory at a time (`relations`)."""
        from memvault.relations import all_relations

        yield from all_relations(self)

    # -- erasure --------------------------------------------------------------------------

    def erase(self, id: str, *, now: datetime | None = None) -> ErasureReport:
        """``erase(id, *, now=None) -> ErasureReport``

        Physically delete a memory with everything about it — relations, embeddings, full-text
        entry, AIMEM import state — and leave no copy in the database's files (the right to
        erasure, AIMEM §5.2; `memvault.erasure`). Lifecycle changes never delete; this does.
        The audit log keeps *that* it happened (id and content hash), never what it said.
        Agents need the "delete" grant (PAM §9); background work may not erase a DNA-class
        memory (AIMEM §5.1)."""
        from memvault.erasure import erase_memory

        return erase_memory(self, id, now=now)

    def erasure_request(self, ids: Sequence[str]) -> builtins.list[Memory]:
        """``erasure_request(ids) -> list[Memory]``

        The memories `erase_many` would erase, each once, in the order named (to show before
        asking for confirmation). Raises AccessDenied for anyone but the owner, InvalidInput
        for no ids, NotFound or AmbiguousId for an id that names no single memory."""
        from memvault.erasure import erasure_request

        return erasure_request(self, ids)

    def erase_many(self, ids: Sequence[str], *, now: datetime | None = None) -> ErasureReport:
        """``erase_many(ids, *, now=None) -> ErasureReport``

        The owner's right-to-erasure request (AIMEM §5.2) for several memories, by id or
        unique prefix: every id is resolved first, then all are erased in one transaction
        (one unknown or ambiguous id and nothing is erased), then the files are scrubbed
        once. Only the owner may make it: an agent's erasure, even with the "delete" grant,
        goes through `erase`, one memory at a time."""
        from memvault.erasure import erase_memories

        return erase_memories(self, ids, now=now)

    def erase_conversation(
        self, conversation_id: str, *, now: datetime | None = None
    ) -> ConversationErasure:
        """``erase_conversation(conversation_id, *, now=None) -> ConversationErasure``

        Physically delete a conversation with its messages, their recall passages, full-text
        entries and vectors, and leave no copy in the database's files (AIMEM §5.2,
        `memvault.erasure`). The memories derived from it stay, with their provenance ids
        (docs/erasure.md). Audited as the id and counts, never content. Owner only (PAM §9:
        conversations are the owner's, and an erasure request is too); NotFound for an
        unknown id."""
        from memvault.erasure import erase_conversation

        return erase_conversation(self, conversation_id, now=now)

    def erase_everything(self, *, now: datetime | None = None) -> EverythingErasure:
        """``erase_everything(*, now=None) -> EverythingErasure``

        Physically delete every memory, relation, conversation, embedding, recall passage and
        vector, the AIMEM exchange state and the export registry, in one transaction, then
        scrub the files (AIMEM §5.2, a tenant's whole erasure for a vault emptied in place).
        The owner, signing keys, settings and audit log stay; one audit entry records the
        counts. Owner only (PAM §9)."""
        from memvault.erasure import erase_everything

        return erase_everything(self, now=now)

    # -- passphrase ---------------------------------------------------------------------

    def change_passphrase(self, old: str, new: str, *, now: datetime | None = None) -> None:
        """``change_passphrase(old, new, *, now=None) -> None``

        Re-encrypt the vault with `new` (`memvault.rekey`): atomic — after a crash the vault
        opens with exactly one of the two — and checked by opening it afresh with `new`.
        `old` must be the current passphrase (WrongPassphrase otherwise). Owner only; raises
        InvalidInput for an empty `new` or `new` == `old`, StoreError while another process
        has the vault open. Nothing changes when it raises."""
        from memvault.rekey import change_passphrase

        self._require_owner(self._actor, "change the passphrase")
        at = format_timestamp(_now(now, self._clock))
        change_passphrase(self._store, self._audit, old, new, self._actor, at)

    # -- decay ----------------------------------------------------------------------------

    def decay(
        self,
        now: datetime | None = None,
        *,
        dry_run: bool = False,
    ) -> DecayReport:
        """``decay(now=None, *, dry_run=False) -> DecayReport``

        Recompute `confidence.current` of every active memory with a decaying model (PAM §8,
        formulas in `memvault.decay`). DNA-class memories are never decayed (AIMEM §5.1), nor
        are memories with model "none"/null or without a confidence block. Only
        `confidence.current` changes (not `updated_at`: decay is derived state, recomputable
        from the anchor and `last_reinforced`).

        The run goes through the vault in chunks of `decay_run.DECAY_CHUNK` memories (5,000), one
        transaction each: a chunk's memories are read and written under the same write lock,
        and other writers wait at most one chunk, never the whole run. Each chunk appends one
        audit entry (its counts and a digest of its changes), committed with it; a run that
        stops half-way leaves whole, recorded chunks, and running again finishes the job
        (decay is idempotent). Memories added while it runs are left to the next run.

        With `dry_run=True` the same computation runs and the same report comes back (what a
        real run at the same `now` would do), but nothing is written: no memory, no audit
        entry. It needs the same permission as a real run.

        The session's actor runs it and is recorded: the owner's scheduled decay runs in
        ``vault.background()`` ("system", as `memvault decay` does); an agent is refused."""
        from memvault.decay_run import run_decay

        return run_decay(self, now, dry_run=dry_run)

    # -- conversations, embeddings, exports ----------------------------------------------

    def put_conversation(
        self,
        conversation: StoredConversation,
        *,
        now: datetime | None = None,
    ) -> bool:
        """``put_conversation(conversation, *, now=None) -> bool``

        Store a normalized conversation (PAM §25); True when it was new or changed."""
        actor = self._actor
        if not is_privileged(actor):
            raise AccessDenied(f"{actor!r} may not store conversations (owner or system only)")
        check_platform(conversation.platform)
        at = format_timestamp(_now(now, self._clock))
        with self._store.transaction():
            changed = self._store.put_conversation(conversation)
            if changed:
                self._audit.append([conversation_entry(conversation, actor)], at)
        return changed

    def put_conversations(
        self,
        conversations: Iterable[StoredConversation],
        *,
        ignore: Iterable[str] = ("import_metadata",),
        index_entries: bool = False,
        now: datetime | None = None,
    ) -> builtins.list[PutOutcome]:
        """``put_conversations(conversations, *, ignore=("import_metadata",),
        index_entries=False, now=None) -> [PutOutcome(id, outcome, new_messages,
        absent_messages)]``

        Store a batch of normalized conversations (PAM §25) in one transaction, audited
        together: the conversations that are new or changed in one ``conversations`` entry per
        platform (ids and message counts), or one ``conversation`` entry when only one is
        (`memvault.audit_entries.conversation_entries`). A conversation the vault already holds
        is merged with the stored one (`memvault.conversation_merge`): nothing the vault holds
        is lost — a message or a value the incoming version lacks is kept — and a
        conversation whose merge equals the stored one except for the top-level members in
        `ignore` (by default `import_metadata`, which names the moment of an import) is left
        as it is, so importing the same data again, in any packaging, changes nothing.
        `outcome` is "new", "updated" or "unchanged"; `new_messages` counts message ids the
        stored version did not have, `absent_messages` stored messages the incoming version
        did not hold (kept).

        With `index_entries` the rows come from PAM ``conversations_index`` entries, whose
        columns and members (title, tags, a storage that is not a file) may say more than the
        document, or hold no document at all: they are merged into the stored row as well
        (`memvault.conversation_merge.merged_row`), and a conversation is unchanged only when
        neither its document nor its row gains anything."""
        actor = self._actor
        if not is_privileged(actor):
            raise AccessDenied(f"{actor!r} may not store conversations (owner or system only)")
        from memvault.store.documents import EncodedDocument

        skip = frozenset(ignore)
        at = format_timestamp(_now(now, self._clock))
        outcomes: builtins.list[PutOutcome] = []
        # What was stored, new or changed, in order: audited together at the end (one entry
        # per platform for a batch, `conversation_entries`).
        audited: builtins.list[StoredConversation] = []
        batch = builtins.list(conversations)
        for conversation in batch:
            check_platform(conversation.platform)
        store = self._store
        fresh_rows: builtins.list[StoredConversation] = []
        fresh_ids: set[str] = set()

        audit = audited.append

        def insert_fresh() -> None:
            store.add_conversations(fresh_rows)
            fresh_rows.clear()

        with store.transaction():
            # Which ids are stored, asked once for the batch (inside the write transaction):
            # an import into an empty or unrelated vault then inserts without reading back
            # (and merges nothing: a first import does no per-message work here).
            present = store.conversation_ids(c.id for c in batch)
            for conversation in batch:
                document = conversation.document
                if conversation.id not in present and conversation.id not in fresh_ids:
                    fresh_ids.add(conversation.id)
                    fresh_rows.append(conversation)
                    audit(conversation)
                    if isinstance(document, EncodedDocument):
                        # Serialized by an importer from a document of message_count messages.
                        count = conversation.message_count
                    else:
                        messages = document.get("messages")
                        count = len(messages) if isinstance(messages, builtins.list) else 0
                    outcomes.append(PutOutcome(conversation.id, "new", count, 0))
                    continue
                if fresh_rows:  # the same id twice in one batch: the first must be stored
                    insert_fresh()
                if not index_entries and same_as_stored(
                    store.conversation_json(conversation.id), conversation.document, skip
                ):  # the same export again, the common case: nothing parsed
                    outcomes.append(PutOutcome(conversation.id, "unchanged", 0, 0))
                    continue
                existing = store.get_conversation(conversation.id)
                if existing is None:
                    messages = document.get("messages")
                    count = len(messages) if isinstance(messages, builtins.list) else 0
                    outcome = PutOutcome(conversation.id, "new", count, 0)
                elif index_entries:
                    merged = merge_conversation(existing.document, document, skip)
                    if (
                        not merged.changed
                        or same_canonical(existing.document, merged.document, skip)
                    ) and same_index(existing, conversation):
                        outcomes.append(
                            PutOutcome(conversation.id, "unchanged", 0, merged.absent_messages)
                        )
                        continue
                    conversation = merged_row(existing, conversation, merged.document)
                    outcome = PutOutcome(
                        conversation.id, "updated", merged.new_messages, merged.absent_messages
                    )
                else:
                    merged = merge_conversation(existing.document, document, skip)
                    if not merged.changed:
                        outcomes.append(
                            PutOutcome(conversation.id, "unchanged", 0, merged.absent_messages)
                        )
                        continue
                    conversation = conversation_row(
                        merged.document, conversation.platform, conversation.extra_index
                    )
                    outcome = PutOutcome(
                        conversation.id, "updated", merged.new_messages, merged.absent_messages
                    )
                if store.put_conversation(conversation):
                    audit(conversation)
                    outcomes.append(outcome)
                else:
                    outcomes.append(PutOutcome(conversation.id, "unchanged", 0, 0))
            if fresh_rows:
                insert_fresh()
            if audited:
                self._audit.append(conversation_entries(audited, actor), at)
        return outcomes

    def add_memories_unless_known(
        self, memories: Iterable[Memory], *, now: datetime | None = None
    ) -> tuple[BatchResult, builtins.list[str]]:
        """``add_memories_unless_known(memories, *, now=None) -> (BatchResult,
        known_ids)``

        `add_memories` for memories a provider exports again with every export (custom
        instructions, the memory tool's writes): an incoming memory whose id is in the vault
        with the same content hash, or whose content hash is already an active memory's, is
        left out (listed in `known_ids`) instead of reinforcing it — an export restating a
        memory is not new evidence for it. The rest go through `add_memories` in the caller's
        transaction (or one of their own)."""
        actor = self._actor
        at = format_timestamp(_now(now, self._clock))
        batch = builtins.list(memories)
        with self._store.transaction():
            present = self._store.existing_ids([m.id for m in batch])
            active = self._store.find_by_content_hashes(
                [m.content_hash for m in batch], statuses=("active",)
            )
            known: builtins.list[str] = []
            fresh: builtins.list[Memory] = []
            for memory in batch:
                if present.get(memory.id) == memory.content_hash or memory.content_hash in active:
                    known.append(memory.id)
                else:
                    fresh.append(memory)
            if not fresh:
                return BatchResult(), known
            with gc_paused():
                return self._add_memories(fresh, actor, at), known

    def get_conversation(self, conversation_id: str) -> StoredConversation:
        """``get_conversation(conversation_id) -> StoredConversation``
        (NotFound if absent; AccessDenied for an agent: conversations are the owner's)."""
        require_privileged(self._actor, f"read conversation {conversation_id!r}")
        found = self._store.get_conversation(conversation_id)
        if found is None:
            raise NotFound(f"no conversation with id {conversation_id!r}")
        return found

    def resolve_conversation(self, id_or_prefix: str) -> str:
        """``resolve_conversation(id_or_prefix) -> str``

        The full id of the conversation with this id, or of the only one whose id starts with
        this prefix (as `resolve` does for memories). Raises NotFound, or AmbiguousId listing
        the candidates; AccessDenied for an agent (conversations are the owner's)."""
        require_privileged(self._actor, f"read conversation {id_or_prefix!r}")
        if not isinstance(id_or_prefix, str) or not id_or_prefix.strip():
            raise InvalidInput("a conversation id (or a unique prefix of one) is required", "id")
        key = id_or_prefix.strip()
        if self._store.conversation_ids([key]):
            return key
        candidates = self._store.conversation_ids_with_prefix(key, limit=11)
        return _the_only(key, candidates, "conversation", "conversations")

    def conversations(self) -> Iterator[StoredConversation]:
        """``conversations()``: every stored conversation, streamed
        (AccessDenied for an agent: conversations are the owner's)."""
        require_privileged(self._actor, "read conversations")
        return self._store.iter_conversations()

    def count_conversations(self, platform: str | None = None) -> int:
        """``count_conversations(platform=None) -> int``: stored
        conversations (of one platform, when given); AccessDenied for an agent."""
        require_privileged(self._actor, "count conversations")
        return self._store.count_conversations(platform)

    def conversation_page(
        self, platform: str | None = None, *, limit: int | None = 50, offset: int = 0
    ) -> ConversationPage:
        """``conversation_page(platform=None, *, limit=50, offset=0) -> ConversationPage``

        One page of the stored conversations, newest first (by `created_at`, those without
        one last), without their messages: read from the store's columns, so a page costs
        the same however many conversations there are. AccessDenied for an agent."""
        require_privileged(self._actor, "list conversations")
        if limit is not None and limit < 0:
            raise InvalidInput("limit must be ≥ 0", "limit")
        if offset < 0:
            raise InvalidInput("offset must be ≥ 0", "offset")
        items = self._store.conversation_summaries(platform, limit=limit, offset=offset)
        return Page(items, self._store.count_conversations(platform), offset, limit)

    def conversation_ids(self, ids: Iterable[str]) -> set[str]:
        """``conversation_ids(ids) -> set[str]``: those of `ids` the vault holds as
        conversations (AccessDenied for an agent: conversations are the owner's)."""
        require_privileged(self._actor, "look up conversations")
        return self._store.conversation_ids(ids)

    def conversation_ids_titled(self, platform: str, title: str) -> builtins.list[str]:
        """``conversation_ids_titled(platform, title) -> list[str]``: the stored
        conversations of `platform` with this title (AccessDenied for an agent)."""
        require_privileged(self._actor, "look up conversations")
        return self._store.conversation_ids_titled(platform, title)

    def memory_hashes(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """``memory_hashes(ids) -> {id: content_hash}`` for those of `ids` the vault holds,
        whatever their access block says: for an import deciding what it carries anew, so
        AccessDenied for an agent (it would learn that private memories exist)."""
        require_privileged(self._actor, "look up memories by id")
        return self._store.existing_ids(memory_ids)

    def transaction(self, *, bulk: bool = False) -> contextlib.AbstractContextManager[None]:
        """``with vault.transaction(bulk=False): ...`` — many calls of this session in one
        transaction (each still checked): on any error none of them stays. `bulk` says the
        rows are written once and not read back (an import's conversations), so the store may
        hold its caches smaller meanwhile, and that every failure inside ends the whole
        transaction (nothing inside catches one to go on), so the store keeps no savepoints:
        each one made the recall index write its pending full-text entries as a small segment
        of their own, merged again later."""
        if not bulk:
            return self._store.transaction()
        return self._bulk_transaction()

    @contextlib.contextmanager
    def _bulk_transaction(self) -> Iterator[None]:
        with self._store.transaction(savepoints=False), self._store.bulk_writes():
            yield

    def put_embedding(self, embedding: StoredEmbedding, *, now: datetime | None = None) -> None:
        """``put_embedding(embedding, *, now=None)`` — store a vector for a
        memory (PAM §12; replaces the one of the same model)."""
        actor = self._actor
        memory = self._load(embedding.memory_id).memory
        self._require(memory, actor, "write", "embed")
        at = format_timestamp(_now(now, self._clock))
        with self._store.transaction():
            self._store.put_embedding(embedding)
            self._audit.append(
                [embedding_entry(embedding, memory.id, memory.content_hash, actor)], at
            )

    def get_embedding(self, memory_id: str) -> StoredEmbedding | None:
        """``get_embedding(memory_id) -> StoredEmbedding | None`` —
        embeddings get the same access control as the content (AIMEM §5.5)."""
        memory = self.get(memory_id)
        return self._store.get_embedding(memory.id)

    def record_export(self, record: ExportRecord, *, now: datetime | None = None) -> None:
        """``record_export(record, *, now=None)`` — remember an export made or
        an import taken in (PAM §16 incremental exports need the base). The registry is the
        owner's: an agent's export or import is audited but not registered, so the export of
        what an agent may read never becomes the base of the owner's next delta."""
        actor = self._actor
        at = format_timestamp(_now(now, self._clock))
        with self._store.transaction():
            if is_privileged(actor):
                self._store.record_export(record)
            self._audit.append(
                [
                    PendingEntry(
                        "export" if record.direction == "exported" else "import",
                        actor,
                        details={
                            "export_id": record.export_id,
                            "export_type": record.export_type,
                            "format": record.format,
                            "memories": record.memory_count,
                        },
                    )
                ],
                at,
            )

    def exports(self) -> builtins.list[ExportRecord]:
        """``exports()``: exports made and imports taken in, oldest first.
        The export registry is the owner's: AccessDenied for an agent."""
        require_privileged(self._actor, "read the export registry")
        return self._store.list_exports()

    # -- bulk writes (imports) ----------------------------------------------------------------

    def unit_of_work(
        self, *, now: datetime | None = None, bulk: bool = False
    ) -> contextlib.AbstractContextManager[UnitOfWork]:
        """``with vault.unit_of_work(now=None, bulk=False) as work: ...``

        Many writes in ONE transaction, their audit entries appended at its end
        (`memvault.unit_of_work`): memories added or merged by policy, relations,
        embeddings, conversations. Every write checks the session's actor as the
        single-memory methods do; on any error nothing is applied. `bulk` as for
        `transaction`: rows written once and not read back (a bundle's), so the store may
        hold its caches smaller meanwhile."""
        from memvault.unit_of_work import open_unit

        return open_unit(self, self._store, self._actor, _now(now, self._clock), bulk=bulk)

    def export_view(self) -> ExportView:
        """``export_view() -> ExportView``: what an export reads, in bulk, on behalf of the
        session's actor (`memvault.export_view`)."""
        from memvault.export_view import ExportView

        return ExportView(self._store, self._actor)

    def exchange_meta(self, key: str) -> str | None:
        """``exchange_meta(key) -> str | None``: a vault-wide setting of the exchange
        (`memvault.unit_of_work.EXCHANGE_META`: the AIMEM producer namespace, the embedding
        models taken in)."""
        from memvault.unit_of_work import exchange_meta

        return exchange_meta(self._store, key)

    # -- signing keys and the owner's DID ---------------------------------------------------

    def add_key(
        self,
        record: KeyRecord,
        *,
        owner_did: bool = False,
        now: datetime | None = None,
    ) -> Owner:
        """``add_key(record, *, owner_did=False, now=None) -> Owner``

        Keep a signing key (PAM §18.2; the private part inside the encrypted database). With
        `owner_did`, the key's did:key becomes the owner's DID (§17: "derived from the signing
        key"), so exports carry a DID their signature verifies against. Owner only; audited.
        Returns the owner as it now is."""
        from memvault.owner_keys import add_key

        return add_key(self, record, owner_did=owner_did, now=now)

    def keys(self) -> builtins.list[KeyRecord]:
        """``keys() -> list[KeyRecord]`` — the vault's signing keys, private
        parts included, so the owner's alone: AccessDenied for anyone else, background work
        too (docs/access.md)."""
        from memvault.owner_keys import key_records

        return key_records(self)

    def signing_key(self, key_id: str | None = None) -> KeyRecord:
        """``signing_key(key_id=None) -> KeyRecord`` — the key to sign with:
        the one `key_id` names (exact id, a unique part of one, or an algorithm name), else
        the only key, else the owner's DID key (rule: `memvault.crypto.keys.choose_signing_key`).
        NotFound when none fits, AmbiguousId when several do; the owner's alone."""
        from memvault.owner_keys import signing_key

        return signing_key(self, key_id)

    # -- audit and stats ------------------------------------------------------------------

    def verify_audit(self) -> AuditReport:
        """``verify_audit() -> AuditReport(ok, entries, problems, head)``

        Recompute the audit chain and check every memory against its last entry; a problem
        names the entry seq or memory id (edited, removed, reordered, changed outside).
        The audit log is the owner's: AccessDenied for an agent."""
        from memvault.audit_reads import verify

        return verify(self)

    def audit_log(
        self,
        *,
        memory_id: str | None = None,
        limit: int | None = None,
    ) -> builtins.list[AuditEntry]:
        """``audit_log(*, memory_id=None, limit=None) -> list[AuditEntry]``

        Entries oldest first (the last `limit` of them), optionally for one memory (an id or a
        unique prefix; the entries of an erased memory are found by its full id). The audit
        log is the owner's (it names every memory, private ones too): AccessDenied for an
        agent."""
        from memvault.audit_reads import log_entries

        return log_entries(self, memory_id=memory_id, limit=limit)

    def audit_position(self) -> int:
        """``audit_position() -> int``: the sequence number of the audit log's last entry (0
        when empty): taken before an import, `audit_entries(after_seq=...)` then names what
        it wrote. AccessDenied for an agent."""
        from memvault.audit_reads import position

        return position(self)

    def audit_entries(
        self, *, after_seq: int = 0, actions: Sequence[str] | None = None
    ) -> builtins.list[AuditEntry]:
        """``audit_entries(*, after_seq=0, actions=None) -> list[AuditEntry]``: the entries
        after a position, oldest first, optionally of some actions only (AccessDenied for an
        agent)."""
        from memvault.audit_reads import entries_after

        return entries_after(self, after_seq=after_seq, actions=actions)

    def stats(self) -> dict[str, Any]:
        """``stats() -> dict``: memories by type, status, platform and
        extraction method; relations by type; conversations; audit entries; database size;
        schema version. The counts cover the whole vault (private memories, conversations,
        the audit log), so they are the owner's: AccessDenied for an agent."""
        from memvault.stats import vault_stats

        return vault_stats(self)

    def backup_to(self, target: Path) -> bool:
        """``backup_to(target) -> bool``: copy the vault's database into the new file
        `target`, one consistent snapshot while others write, still encrypted; False when the
        store is no file to copy (PostgreSQL: `memvault.backup` exports the tenant instead).
        The owner's only (docs/access.md)."""
        require_owner(self._actor, "back the vault up")
        return self._store.backup_to(target)

    @property
    def schema_version(self) -> int:
        """The schema version of the vault's store."""
        return self._store.schema_version

    def check_integrity(self) -> builtins.list[str]:
        """``check_integrity() -> list[str]``: problems the database engine finds in its own
        files (SQLite integrity_check, SQLCipher page HMACs, the full-text index); empty
        when healthy. The owner's or background work's (docs/access.md)."""
        require_privileged(self._actor, "check the vault's integrity")
        return self._store.check_integrity()


def _the_only(key: str, candidates: list[str], noun: str, nouns: str) -> str:
    """The one id that `key` names among the `candidates` found for it (at most 11 asked
    for). Raises NotFound for none, AmbiguousId listing the first ten for several."""
    if not candidates:
        raise NotFound(f"no {noun} with id or id prefix {key!r}")
    if len(candidates) > 1:
        shown = ", ".join(candidates[:10]) + (", …" if len(candidates) > 10 else "")
        raise AmbiguousId(
            f"id prefix {key!r} matches several {nouns}: {shown}; type more of the id",
            candidates[:10],
        )
    return candidates[0]
