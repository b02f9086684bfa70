"""Reconciling extracted candidates with the vault: reinforce, merge, supersede, contradict.

`plan` decides, reading only; `apply` writes the plan in ONE transaction (all of it or, on any
error, nothing). The rules, in order, for each candidate (oldest statement first; earlier
candidates of the same run count as known memories for later ones):

1. **already extracted** — a known memory of the same type already lists this message among
   its sources (``metadata.extraction.sources``) with the same meaning: skipped, so running
   extraction twice over the same conversations changes nothing.
2. **same fact** — an active memory with the same content hash: reinforced (PAM §6, the
   vault's own dedup does it).
3. **near-duplicate** — an active memory of the same type and language whose content has
   token overlap (Jaccard over folded, stop-word-free, singularized words) ≥ `NEAR_DUPLICATE`,
   and no conflicting subject slot; or the same single-valued slot with the same value and
   polarity: merged, i.e. that memory is reinforced and records the new source. No twin.
4. **update** — an active memory fills the same single-valued subject slot (residence,
   employer, occupation, name, age, origin, a "prefers"/"favorite" head…) with another value,
   or the same slot with the opposite polarity ("likes jazz" / "dislikes jazz", "lives in
   Berlin" / "no longer lives in Berlin"): when the new statement says something changed
   ("I moved to…", "now I prefer…", "já não moro em…") the new memory **supersedes** the old
   one (`Vault.supersede`: status superseded, `superseded_by`, a `supersedes` relation — never
   a deletion); otherwise both stay and the new one gets a **contradicts** relation to the old.
   Background actors may not supersede DNA-class memories (AIMEM §5.1): they contradict.
5. otherwise the candidate becomes a new memory.

A candidate inferred from another (`Candidate.derived_from`) gets a `derived_from` relation
to the memory its source became (PAM §13).
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

from memvault.canonical import content_hash
from memvault.extract.base import SINGLE_VALUED_SLOTS, Candidate, tokens
from memvault.extract.review import proposal
from memvault.model import (
    DNA_TYPES,
    Access,
    Confidence,
    Memory,
    Provenance,
    Temporal,
    parse_timestamp,
)
from memvault.recall.embedders import Embedder
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from memvault.vault_inputs import format_timestamp, is_background

__all__ = [
    "NEAR_DUPLICATE",
    "Action",
    "ApplyResult",
    "Plan",
    "apply",
    "jaccard",
    "plan",
]

#: Token-overlap (Jaccard) from which two memories of the same type and language are taken
#: as one statement in different words. Measured on pairs in tests/test_extract_reconcile.py:
#: rewordings of one fact score 0.67–1.0; different facts of the same type 0.17–0.33.
NEAR_DUPLICATE: Final = 0.6

Kind = Literal[
    "create", "reinforce", "merge", "supersede", "history", "propose", "contradict", "skip"
]
#: Two statements less than this apart are "of the same time": when they disagree neither
#: is newer, so they contradict each other.
SAME_TIME: Final = timedelta(seconds=60)


@dataclass(slots=True)
class _Known:
    """A memory the planner compares against: in the vault, or planned earlier in the run."""

    key: str  # vault id, or "new:<n>" for a memory planned in this run
    type: str
    content: str
    digest: str
    language: str | None
    slot: str | None
    value: str | None
    polarity: bool
    words: frozenset[str]
    sources: set[str]
    dna: bool
    #: When it was said (`temporal.valid_from`, else the record's `created_at`).
    at: str | None = None
    #: Who it is about: None for the vault's person, else a named speaker.
    subject: str | None = None


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a plan. `target` is the key of the known memory the step is about (a vault
    id, or ``new:<n>`` for a memory this plan creates); `key` is the key of the memory this
    candidate becomes (for create/supersede/contradict a new key, for reinforce/merge the
    target)."""

    kind: Kind
    candidate: Candidate
    key: str | None = None
    targets: tuple[str, ...] = ()
    similarity: float | None = None
    reason: str = ""
    target_content: tuple[str, ...] = ()
    derived_from: str | None = None


@dataclass(slots=True)
class Plan:
    actions: list[Action] = field(default_factory=list)

    def count(self, kind: Kind) -> int:
        return sum(1 for a in self.actions if a.kind == kind)


@dataclass(slots=True)
class ApplyResult:
    """What `apply` wrote: new memory ids, reinforced ids, relations made."""

    created: list[str] = field(default_factory=list)
    reinforced: list[str] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)
    contradicts: list[tuple[str, str]] = field(default_factory=list)
    derived: list[tuple[str, str]] = field(default_factory=list)
    #: (proposed, present) pairs flagged for the owner's review (memvault review)
    proposed: list[tuple[str, str]] = field(default_factory=list)
    id_map: dict[str, str] = field(default_factory=dict)


#: With an embedder: two values of one slot in different languages are the same value when the
#: values or the two statements reach this cosine (local multilingual model: "lisbon"/"lisboa"
#: 0.76, "User lives in Lisbon"/"O usuário mora em Lisboa" 0.82, ".../mora em Berlim" 0.54,
#: "lisbon"/"berlim" 0.37); two statements without a slot need `SAME_CONTENT` (kept high:
#: "prefers short answers" / "prefere respostas longas" scores 0.86).
SAME_VALUE: Final = 0.75
SAME_CONTENT: Final = 0.9
_PUNCTUATION: Final = re.compile(r"[^\w\s]+", re.UNICODE)


def normal_form(content: str) -> str:
    """A statement without the differences that do not change it: case, punctuation and
    whitespace ("O usuário mora em Lisboa." and "o usuário mora em  Lisboa" are one)."""
    return " ".join(_PUNCTUATION.sub(" ", content.casefold()).split())


class _Sameness:
    """Whether two statements or values say the same thing: by their words, and across
    languages by an embedder's vectors when one is given (vectors cached per text)."""

    def __init__(self, embedder: Embedder | None) -> None:
        self.embedder = embedder
        self._vectors: dict[str, list[float]] = {}

    def _cosine(self, a: str, b: str) -> float:
        assert self.embedder is not None
        missing = [t for t in dict.fromkeys((a, b)) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, self.embedder.embed(missing), strict=True):
                self._vectors[text] = vector
        return sum(x * y for x, y in zip(self._vectors[a], self._vectors[b], strict=True))

    def values(self, candidate: Candidate, known: _Known) -> bool:
        """Whether the candidate's slot value is the known memory's."""
        a, b = candidate.value, known.value
        if _same_value(a, b):
            return True
        if not _cross(candidate, known) or self.embedder is None or a is None or b is None:
            return False
        best = max(self._cosine(a, b), self._cosine(candidate.content, known.content))
        return best >= SAME_VALUE

    def contents(self, a: str, b: str) -> bool:
        return self.embedder is not None and self._cosine(a, b) >= SAME_CONTENT


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def _single(slot: str | None) -> bool:
    return slot is not None and (
        slot in SINGLE_VALUED_SLOTS or slot.startswith(("prefers:", "favorite:"))
    )


def _same_value(a: str | None, b: str | None) -> bool:
    """Values of one slot agree when one's words contain the other's ("lisbon" and
    "lisbon portugal")."""
    if a is None or b is None:
        return a == b
    ta, tb = tokens(a), tokens(b)
    return ta == tb or (bool(ta) and bool(tb) and (ta <= tb or tb <= ta))


def source_ref(candidate: Candidate) -> str:
    return f"{candidate.source.conversation_id}#{candidate.source.message_id}"


def _extraction_meta(memory: Memory) -> Mapping[str, Any]:
    meta = memory.metadata if isinstance(memory.metadata, Mapping) else {}
    block = meta.get("extraction")
    return block if isinstance(block, Mapping) else {}


def _known_from_memory(memory: Memory) -> _Known:
    meta = memory.metadata if isinstance(memory.metadata, Mapping) else {}
    block = _extraction_meta(memory)
    sources = block.get("sources")
    slot = block.get("slot")
    value = block.get("value")
    language = meta.get("language")
    return _Known(
        key=memory.id,
        type=memory.type,
        content=memory.content,
        digest=memory.content_hash,
        language=language if isinstance(language, str) else None,
        slot=slot if isinstance(slot, str) else None,
        value=value if isinstance(value, str) else None,
        polarity=block.get("polarity") is not False,
        words=tokens(memory.content),
        sources={s for s in sources if isinstance(s, str)} if isinstance(sources, list) else set(),
        dna=memory.is_dna,
        at=_when(memory),
        subject=block.get("subject") if isinstance(block.get("subject"), str) else None,
    )


def _when(memory: Memory) -> str | None:
    valid = memory.temporal.valid_from
    return valid if isinstance(valid, str) else memory.temporal.created_at


class _Index:
    """Known memories by content hash, by slot and by word, for the planner."""

    def __init__(self) -> None:
        self.items: dict[str, _Known] = {}
        self.by_digest: dict[str, str] = {}
        self.by_normal: dict[str, str] = {}
        self.by_type: dict[str, set[str]] = defaultdict(set)
        self.by_slot: dict[str, list[str]] = defaultdict(list)
        self.by_word: dict[str, set[str]] = defaultdict(set)
        #: message ref -> (type, content hash, words) of every memory extracted from it
        self.seen: dict[str, list[tuple[str, str, frozenset[str]]]] = defaultdict(list)

    def extracted(self, ref: str, type: str, digest: str, words: frozenset[str]) -> bool:
        """Whether this statement of this message is already in the vault, in any status."""
        return any(
            t == type and (d == digest or jaccard(w, words) >= NEAR_DUPLICATE)
            for t, d, w in self.seen.get(ref, ())
        )

    def add(self, known: _Known) -> None:
        self.items[known.key] = known
        self.by_digest.setdefault(known.digest, known.key)
        self.by_normal.setdefault(normal_form(known.content), known.key)
        self.by_type[known.type].add(known.key)
        if known.slot is not None:
            self.by_slot[known.slot].append(known.key)
        for word in known.words:
            self.by_word[word].add(known.key)

    def remove(self, key: str) -> None:
        known = self.items.pop(key, None)
        if known is None:
            return
        if self.by_digest.get(known.digest) == key:
            del self.by_digest[known.digest]
        if self.by_normal.get(normal_form(known.content)) == key:
            del self.by_normal[normal_form(known.content)]
        self.by_type[known.type].discard(key)
        if known.slot is not None and key in self.by_slot[known.slot]:
            self.by_slot[known.slot].remove(key)
        for word in known.words:
            self.by_word[word].discard(key)

    def neighbours(self, words: frozenset[str]) -> set[str]:
        found: set[str] = set()
        for word in words:
            found |= self.by_word.get(word, set())
        return found


def _known_from_candidate(key: str, candidate: Candidate) -> _Known:
    return _Known(
        key=key,
        type=candidate.type,
        content=candidate.content,
        digest=content_hash(candidate.content),
        language=candidate.language,
        slot=candidate.slot,
        value=candidate.value,
        polarity=candidate.polarity,
        words=tokens(candidate.content),
        sources={source_ref(candidate)},
        dna=candidate.type in DNA_TYPES,
        at=candidate.source.created_at,
        subject=candidate.subject,
    )


def _instant(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        return parse_timestamp(stamp)
    except ValueError:
        return None


def _order(candidate: Candidate, known: _Known) -> int:
    """+1 when the candidate was said after the known memory, -1 before, 0 at the same time
    (less than `SAME_TIME` apart) or when either is undated."""
    new, old = _instant(candidate.source.created_at), _instant(known.at)
    if new is None or old is None or abs(new - old) < SAME_TIME:
        return 0
    return 1 if new > old else -1


def _cross(candidate: Candidate, known: _Known) -> bool:
    return known.language is not None and known.language != candidate.language


def _conflicts(candidate: Candidate, known: _Known, same_as: _Sameness) -> bool:
    if candidate.slot is None or known.slot != candidate.slot:
        return False
    same = same_as.values(candidate, known)
    if same:
        return candidate.polarity != known.polarity
    # Another value of a single-valued slot conflicts only with a positive statement ("no
    # longer lives in Berlin" says nothing against "lives in Lisbon").
    return _single(candidate.slot) and known.polarity and candidate.polarity


def _statement_order(candidate: Candidate) -> str:
    return candidate.source.created_at or ""


#: The kinds of action that write a new memory.
_NEW: Final = frozenset({"create", "supersede", "history", "propose", "contradict"})


def plan(
    vault: Vault,
    candidates: Iterable[Candidate],
    *,
    embedder: Embedder | None = None,
) -> Plan:
    """Decide what to do with each candidate (nothing is written), as the session's actor
    would (`vault.actor`: background work keeps off DNA-class memories). With an `embedder`
    the same fact in another language is recognised (`SAME_VALUE`, `SAME_CONTENT`); without
    one, only a single-valued slot with the same value in both (an employer, an editor)."""
    same_as = _Sameness(embedder)
    actor = vault.actor
    index = _Index()
    # Every memory, whatever its status, remembers the messages it came from: a statement
    # already extracted is skipped even when its memory was superseded since.
    for memory in vault.iter_memories(MemoryQuery(statuses=None, limit=None)):
        known = _known_from_memory(memory)
        for ref in known.sources:
            index.seen[ref].append((known.type, known.digest, known.words))
        if memory.effective_status == "active":
            index.add(known)
    ordered = sorted(enumerate(candidates), key=lambda pair: (_statement_order(pair[1]), pair[0]))
    result = Plan()
    became: dict[int, str] = {}  # id(candidate) -> key of the memory it became
    counter = 0
    for _, candidate in ordered:
        parent = became.get(id(candidate.derived_from)) if candidate.derived_from else None
        action = _decide(candidate, index, actor, f"new:{counter}", parent, same_as)
        if action.kind in _NEW:
            counter += 1
            assert action.key is not None
            known = _known_from_candidate(action.key, candidate)
            if action.kind == "history":  # superseded at once: never active
                index.seen[source_ref(candidate)].append((known.type, known.digest, known.words))
            else:
                index.add(known)
            if action.kind == "supersede":
                for target in action.targets:
                    index.remove(target)
        elif action.kind in ("reinforce", "merge") and action.key is not None:
            index.items[action.key].sources.add(source_ref(candidate))
        if action.key is not None:
            became[id(candidate)] = action.key
        result.actions.append(action)
    return result


def _decide(
    candidate: Candidate,
    index: _Index,
    actor: str,
    new_key: str,
    parent: str | None,
    same_as: _Sameness,
) -> Action:
    ref = source_ref(candidate)
    digest = content_hash(candidate.content)
    words = tokens(candidate.content)
    # 1: already extracted (by an earlier run)
    if index.extracted(ref, candidate.type, digest, words):
        return Action("skip", candidate, None, (), None, "already extracted")
    # 2: the same statement
    twin = index.by_digest.get(digest) or index.by_normal.get(normal_form(candidate.content))
    if twin is not None and index.items[twin].subject != candidate.subject:
        twin = None
    if twin is not None:
        known = index.items[twin]
        if ref in known.sources:
            return Action("skip", candidate, twin, (twin,), 1.0, "already extracted")
        return Action(
            "reinforce",
            candidate,
            twin,
            (twin,),
            1.0,
            "same content",
            (known.content,),
            parent,
        )
    # 3: near-duplicates, and 4: conflicts
    best: tuple[float, _Known] | None = None
    conflicting: list[_Known] = []
    keys = set(index.neighbours(words))
    if candidate.slot is not None:
        keys |= set(index.by_slot.get(candidate.slot, ()))
    if same_as.embedder is not None:  # the same statement in another language shares no word
        keys |= {
            k for k in index.by_type.get(candidate.type, ()) if _cross(candidate, index.items[k])
        }
    for key in sorted(keys):
        known = index.items[key]
        if known.type != candidate.type or known.subject != candidate.subject:
            continue  # never merge or oppose statements about different people
        if _conflicts(candidate, known, same_as):
            conflicting.append(known)
            continue
        cross = _cross(candidate, known)
        same_slot_value = (
            candidate.slot is not None
            and known.slot == candidate.slot
            and _single(candidate.slot)
            and same_as.values(candidate, known)
            and known.polarity == candidate.polarity
        )
        similarity = jaccard(words, known.words)
        if cross and not same_slot_value:
            if not same_as.contents(candidate.content, known.content):
                continue
            similarity = 1.0  # the same statement in the other language
        rank = similarity + (1.0 if same_slot_value else 0.0)
        if (same_slot_value or similarity >= NEAR_DUPLICATE) and (best is None or rank > best[0]):
            best = (rank, known)
    if best is not None and not conflicting:
        rank, known = best
        similarity = jaccard(words, known.words)
        why = (
            f"same {candidate.slot} (token overlap {similarity:.2f})"
            if rank > 1.0
            else f"near-duplicate (token overlap {similarity:.2f} ≥ {NEAR_DUPLICATE})"
        )
        if ref in known.sources:
            return Action(
                "skip", candidate, known.key, (known.key,), similarity, "already extracted"
            )
        return Action(
            "merge",
            candidate,
            known.key,
            (known.key,),
            round(similarity, 2),
            why,
            (known.content,),
            parent,
        )
    if conflicting:
        return _resolve(candidate, conflicting, actor, new_key, parent)
    return Action("create", candidate, new_key, (), None, "new", (), parent)


def _resolve(
    candidate: Candidate, conflicting: list[_Known], actor: str, new_key: str, parent: str | None
) -> Action:
    """A candidate that disagrees with known memories: the newer statement wins (by when each
    was said, not when it was extracted or imported); statements of the same time contradict,
    unless the candidate itself says something changed. Background work never supersedes a
    DNA-class memory (AIMEM §5.1): it proposes the change for the owner's review."""
    targets = tuple(k.key for k in conflicting)
    contents = tuple(k.content for k in conflicting)
    orders = {_order(candidate, k) for k in conflicting}
    slot = candidate.slot
    if orders == {1} or (orders == {0} and candidate.change):
        kind: Kind = "supersede"
        reason = f"newer than the earlier value of {slot}"
    elif orders == {-1}:
        kind, reason = "history", f"older than the present value of {slot}: kept as history"
    else:
        reason = f"disagrees with a value of {slot} said at the same time"
        return Action("contradict", candidate, new_key, targets, None, reason, contents, parent)
    dna = candidate.type in DNA_TYPES or any(k.dna for k in conflicting)
    if is_background(actor) and dna:
        reason = f"{reason}; DNA-class, so proposed for the owner's review (memvault review)"
        return Action("propose", candidate, new_key, targets, None, reason, contents, parent)
    return Action(kind, candidate, new_key, targets, None, reason, contents, parent)


# -- writing -----------------------------------------------------------------------------------


def _memory(candidate: Candidate, memory_id: str, at: str, decay_model: str) -> Memory:
    meta: dict[str, Any] = {
        "language": candidate.language,
        "extraction": {
            "pattern": candidate.pattern,
            "slot": candidate.slot,
            "value": candidate.value,
            "polarity": candidate.polarity,
            "sources": [source_ref(candidate)],
            **candidate.extra,
        },
    }
    if candidate.subject is not None:
        meta["extraction"]["subject"] = candidate.subject
    dna = candidate.type in DNA_TYPES
    return Memory(
        id=memory_id,
        type=candidate.type,
        custom_type=None,
        status="active",
        content=candidate.content,
        content_hash=content_hash(candidate.content),
        summary=None,
        tags=tuple(dict.fromkeys(candidate.tags)),
        confidence=Confidence(
            initial=candidate.confidence,
            current=candidate.confidence,
            decay_model="none" if dna else decay_model,
            last_reinforced=None,
        ),
        temporal=Temporal(
            created_at=at,
            updated_at=None,
            valid_from=candidate.source.created_at,
            valid_until=None,
            superseded_by=None,
        ),
        provenance=Provenance(
            platform=candidate.source.platform,
            platform_user_id=None,
            # "" (a statement remembered by hand) is no conversation: null refs (PAM §11).
            conversation_ref=candidate.source.conversation_id or None,
            message_ref=candidate.source.message_id if candidate.source.conversation_id else None,
            extraction_method=candidate.method,
            extracted_at=at,
            extractor=candidate.extractor,
        ),
        access=Access(visibility="private", exportable=True, shared_with=()),
        embedding_ref=None,
        metadata=meta,
    )


def _record_source(vault: Vault, memory_id: str, candidate: Candidate) -> None:
    """Add the candidate's message to the memory's extraction sources (so a second run over
    the same conversation is a no-op). DNA-class memories stay untouched by background work."""
    memory = vault.get(memory_id)
    if is_background(vault.actor) and memory.is_dna:
        return
    meta = dict(memory.metadata) if isinstance(memory.metadata, Mapping) else {}
    block = dict(_extraction_meta(memory))
    sources = [s for s in block.get("sources", []) if isinstance(s, str)]
    ref = source_ref(candidate)
    if ref in sources:
        return
    block["sources"] = [*sources, ref]
    meta["extraction"] = block
    meta.setdefault("language", candidate.language)
    vault.update(memory_id, metadata=meta)


def apply(
    vault: Vault,
    the_plan: Plan,
    *,
    now: datetime | None = None,
) -> ApplyResult:
    """Write a plan in one transaction: on any error nothing of it stays."""
    moment = now or datetime.now(UTC)
    at = format_timestamp(moment.astimezone(UTC).replace(microsecond=0))
    decay_model = vault.settings.default_decay_model
    result = ApplyResult()
    ids = result.id_map
    with vault.transaction():
        for action in the_plan.actions:
            candidate = action.candidate
            if action.kind == "skip":
                continue
            if action.kind in ("reinforce", "merge"):
                assert action.key is not None
                target = ids.get(action.key, action.key)
                existing = vault.get(target)
                # Reinforced when the message said it again, not when extraction ran: decay
                # counts from there (PAM §8.1).
                vault.add(
                    existing.content,
                    existing.type,
                    tags=candidate.tags,
                    valid_from=_instant(candidate.source.created_at),
                    now=now,
                )
                _record_source(vault, target, candidate)
                result.reinforced.append(target)
                memory_id = target
            else:
                assert action.key is not None
                memory = _memory(candidate, str(uuid.uuid4()), at, decay_model)
                if action.kind == "propose":
                    targets = [ids.get(old, old) for old in action.targets]
                    memory = proposal(
                        memory,
                        targets,
                        action.reason,
                        at,
                        vault.actor,
                        "history" if _older(action) else "supersede",
                    )
                batch = vault.add_memories([memory], now=now)
                memory_id = batch.id_map[memory.id]
                ids[action.key] = memory_id
                if memory_id == memory.id:
                    result.created.append(memory_id)
                else:  # the vault found a twin after all (PAM §6)
                    result.reinforced.append(memory_id)
                for old in action.targets:
                    old_id = ids.get(old, old)
                    if action.kind == "supersede":
                        vault.supersede(old_id, memory_id, now=now)
                        result.superseded.append((memory_id, old_id))
                    elif action.kind == "history":
                        if vault.get(memory_id).status == "active":
                            vault.supersede(memory_id, old_id, now=now)
                            result.superseded.append((old_id, memory_id))
                    else:
                        vault.relate(memory_id, old_id, "contradicts", now=now)
                        result.contradicts.append((memory_id, old_id))
                        if action.kind == "propose":
                            result.proposed.append((memory_id, old_id))
            if action.derived_from is not None:
                source_id = ids.get(action.derived_from, action.derived_from)
                if source_id != memory_id:
                    vault.relate(memory_id, source_id, "derived_from", now=now)
                    result.derived.append((memory_id, source_id))
    return result


def _older(action: Action) -> bool:
    return action.reason.startswith("older")


def describe(action: Action) -> str:
    """One line for a report: what will happen to this candidate."""
    c = action.candidate
    text = f"{c.type}: {c.content}"
    if action.kind in ("supersede", "contradict", "merge", "reinforce"):
        return f"{text}  ({action.kind} {'; '.join(action.target_content)})"
    return text


def kinds(actions: Sequence[Action]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for action in actions:
        counts[action.kind] += 1
    return dict(counts)
