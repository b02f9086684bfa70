"""What the vault keeps when an import brings a conversation it already holds: the stored
document and the incoming one merged field by field, never losing what the vault has.

The vault is the archive (PAM §16.3 keeps retracted data; DESIGN.md: never lose data). A
source can know less than the vault: an older export, one file of an export (Copilot's
activity history without its chat activity), the bare `conversations.json` without the
`user.json` beside it in the zip. Such a source changes nothing; a source that knows more
brings the vault to what it alone would have given. The rule (docs/importers.md, "When the
vault already holds a conversation"):

- **Messages** are matched by `id`. A stored message the source lacks is kept; a message
  only the source has is added; a message in both is merged as an object. The order is the
  precedent side's (see below), with what only the other side has placed after the message
  it followed there. `children_ids` is the union of both, ordered the same way (a kept
  message stays its parent's child).
- **Objects** are merged member by member. A member the source lacks, or gives as null,
  keeps the stored value.
- **Arrays**: when one knows no more than the other (`knows_no_more`: it is a subsequence of
  the other, each item knowing no more than the one it matches) the fuller one is kept;
  arrays of the same length are merged item by item; otherwise the precedent side's array is
  taken whole.
- **Values that differ** (a conflict, not a gap): the incoming value wins unless the incoming
  conversation is older (its `temporal.updated_at` is before the stored one's). A newer
  export, or a re-import by a corrected importer, updates the vault; an older export only
  fills gaps. A message that is a cut copy (`raw_metadata.truncated: true`, Copilot) never
  overwrites the same message stored whole, and the whole one replaces a cut one.
- **Provenance is not data.** `import_metadata` (the moment and file of an import) and, inside
  `raw_metadata`, the members naming where in the export a record was read
  (`PROVENANCE_KEYS`: Gemini's `entry`/`entries`, the `file` and `row` of Copilot's source
  rows) differ with the packaging — ``Takeout/My Activity/…`` in the extracted folder,
  ``My Activity/…`` in the zip, ``MyActivity.json`` alone; a row's number in an older CSV. A
  conversation whose merge differs from the stored one only there is unchanged and left as
  it is. When anything else changed, they follow the same precedence as the rest, and the
  merged document carries the incoming `import_metadata`.

The merge is deterministic. When the incoming document knows no more than the stored one
(provenance aside) the result is the stored document; when the stored one knows no more than
the incoming one and something else differs, the result is the incoming document, byte for
byte.

This runs only for a conversation the vault already holds: a first import stores documents
as they come (`Vault.put_conversations`), with no per-message work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, NamedTuple

import orjson

from memvault.canonical import jcs_dumps
from memvault.store.base import StoredConversation

__all__ = [
    "IGNORED",
    "PROVENANCE_KEYS",
    "MergedConversation",
    "PutOutcome",
    "conversation_row",
    "document_bytes",
    "incoming_is_older",
    "knows_no_more",
    "merge_conversation",
    "merge_values",
    "merged_row",
    "same_as_stored",
    "same_canonical",
    "same_index",
    "same_json",
]

#: Top-level members that describe the import rather than the conversation.
IGNORED: Final = frozenset({"import_metadata"})
#: Members inside `raw_metadata` that say where in the export a record was read.
PROVENANCE_KEYS: Final = frozenset({"entry", "entries", "file", "row"})
_RAW: Final = "raw_metadata"


class _Missing:
    """A member an object does not have (not a JSON null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()


class PutOutcome(NamedTuple):
    """What `Vault.put_conversations` did with one conversation."""

    id: str
    #: "new", "updated" or "unchanged"
    outcome: str
    #: messages whose id the stored version did not have
    new_messages: int
    #: stored messages the incoming version did not hold (kept)
    absent_messages: int


@dataclass(frozen=True, slots=True)
class MergedConversation:
    """The result of `merge_conversation`."""

    document: dict[str, Any]
    #: False when the result is the stored document (it may differ in provenance only)
    changed: bool
    new_messages: int
    absent_messages: int


def conversation_row(
    document: Mapping[str, Any],
    platform: str | None = None,
    extra_index: Mapping[str, Any] | None = None,
) -> StoredConversation:
    """A conversation document as the vault stores it: its index columns taken from it
    (the platform from `provider.name` unless given)."""
    provider = document.get("provider") or {}
    temporal = document.get("temporal") or {}
    messages = document.get("messages") or []
    title = document.get("title")
    return StoredConversation(
        id=str(document["id"]),
        platform=str(provider.get("name")) if platform is None else platform,
        document=document,
        title=title if isinstance(title, str) else None,
        created_at=temporal.get("created_at"),
        updated_at=temporal.get("updated_at"),
        message_count=len(messages),
        extra_index=dict(extra_index or {}),
    )


def same_json(stored: bytes, incoming: bytes, ignore: Iterable[str] = IGNORED) -> bool:
    """Two documents' JSON as the store keeps it (orjson, sorted keys) hold the same
    members but for the top-level ones in `ignore`: compared as bytes by the C scanner,
    nothing parsed. False for anything else (a document an older vault kept as other text
    is then merged and compared the slow way)."""
    from memvault import _speedups

    names = {orjson.dumps(name) for name in ignore}
    kept: list[bytes] = []
    for text in (stored, incoming):
        try:
            members, end = _speedups.object_members(text, 0)
        except ValueError:
            return False
        if end != len(text):
            return False
        # The text with the ignored members cut out (their separators stay: two documents
        # that differ in which members they have are compared the slow way).
        pieces, at = [], 0
        for key_start, key_end, _value_start, value_end in members:
            if text[key_start:key_end] in names:
                pieces.append(text[at:key_start])
                at = value_end
        pieces.append(text[at:])
        kept.append(b"".join(pieces))
    return kept[0] == kept[1]


def same_as_stored(
    stored_json: bytes | None, document: Mapping[str, Any], ignore: Iterable[str] = IGNORED
) -> bool:
    """An incoming document (maybe an `EncodedDocument`, as an import's reader made it) is
    the stored one, whose JSON is `stored_json`, but for the members in `ignore`."""
    from memvault.store.documents import EncodedDocument, document_json

    if stored_json is None:
        return False
    incoming = (
        document_json(document.frame)
        if isinstance(document, EncodedDocument)
        else orjson.dumps(dict(document), option=orjson.OPT_SORT_KEYS)
    )
    return same_json(stored_json, incoming, ignore)


def document_bytes(document: Mapping[str, Any], ignore: Iterable[str] = IGNORED) -> bytes:
    """A document's sorted-key JSON without the top-level members in `ignore`."""
    skip = frozenset(ignore)
    return orjson.dumps(
        {k: v for k, v in document.items() if k not in skip}, option=orjson.OPT_SORT_KEYS
    )


# -- comparing and merging values ---------------------------------------------------------------
#
# Values are JSON as orjson parses it: dict, list, str, int, float, bool, None (isinstance
# on dict is several times faster than on the Mapping ABC). `where` says where a value sits:
# 0 outside `raw_metadata`, 1 inside it, 2 inside one of its provenance members. `loose`
# (the first pass) treats any two provenance scalars as the same.

_OUTSIDE, _RAW_DATA, _PROVENANCE = 0, 1, 2


def _below(key: str, where: int) -> int:
    if where == _OUTSIDE:
        return _RAW_DATA if key == _RAW else _OUTSIDE
    if where == _RAW_DATA and key in PROVENANCE_KEYS:
        return _PROVENANCE
    return where


def _empty(value: Any) -> bool:
    return value is MISSING or value is None


def _same_scalar(a: Any, b: Any, loose: bool, where: int) -> bool:
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    if loose and where == _PROVENANCE:
        return True
    # JSON true is not 1, 1.0 is not 1: types must agree, as they do in the stored bytes.
    return type(a) is type(b) and a == b


def knows_no_more(a: Any, b: Any, *, loose: bool = False, where: int = _OUTSIDE) -> bool:
    """True when `a` holds nothing `b` lacks: `a` is missing or null; or both are objects
    and each member of `a` knows no more than `b`'s; or both are arrays and `a` is a
    subsequence of `b` (items matched in order, each knowing no more than its match); or
    both are the same scalar."""
    if _empty(a):
        return True
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return False
        return all(
            knows_no_more(value, b.get(key, MISSING), loose=loose, where=_below(key, where))
            for key, value in a.items()
        )
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) > len(b):
            return False
        # Greedy leftmost matching finds a subsequence embedding whenever one exists.
        at = 0
        for item in a:
            while at < len(b) and not knows_no_more(item, b[at], loose=loose, where=where):
                at += 1
            if at == len(b):
                return False
            at += 1
        return True
    return _same_scalar(a, b, loose, where)


def merge_values(
    old: Any, new: Any, new_wins: bool, *, loose: bool = False, where: int = _OUTSIDE
) -> Any:
    """`old` (stored) and `new` (incoming) merged; `new_wins` settles conflicts. MISSING
    when neither has the member."""
    if new is MISSING:
        return old
    if new is None:
        return None if old is MISSING else old
    if _empty(old):
        return new
    if isinstance(old, dict) and isinstance(new, dict):
        return _merge_objects(old, new, new_wins, loose, where)
    if isinstance(old, list) and isinstance(new, list):
        if knows_no_more(new, old, loose=loose, where=where):
            return old
        if knows_no_more(old, new, loose=loose, where=where):
            return new
        if len(old) == len(new):
            return [
                merge_values(a, b, new_wins, loose=loose, where=where)
                for a, b in zip(old, new, strict=True)
            ]
        return new if new_wins else old
    if _same_scalar(old, new, loose, where):
        return old
    return new if new_wins else old


def _merge_objects(
    old: Mapping[str, Any], new: Mapping[str, Any], new_wins: bool, loose: bool, where: int
) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for key in (*old, *(k for k in new if k not in old)):
        value = merge_values(
            old.get(key, MISSING),
            new.get(key, MISSING),
            new_wins,
            loose=loose,
            where=_below(key, where),
        )
        if value is not MISSING:
            merged[key] = value
    return merged


# -- conversations ------------------------------------------------------------------------------


def _same_bytes(a: Any, b: Any) -> bool:
    """The same JSON, as the store would write it (orjson's C, not a Python walk)."""
    if a is MISSING or b is MISSING:
        return a is b
    return bool(
        orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(b, option=orjson.OPT_SORT_KEYS)
    )


def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _updated_at(document: Mapping[str, Any]) -> datetime | None:
    temporal = document.get("temporal")
    return _instant(temporal.get("updated_at")) if isinstance(temporal, Mapping) else None


def incoming_is_older(stored: Mapping[str, Any], incoming: Mapping[str, Any]) -> bool:
    """The incoming conversation was last updated before the stored one (an older export)."""
    before, after = _updated_at(stored), _updated_at(incoming)
    return before is not None and after is not None and after < before


def _truncated(message: Mapping[str, Any]) -> bool | None:
    raw = message.get(_RAW)
    flag = raw.get("truncated") if isinstance(raw, Mapping) else None
    return flag if isinstance(flag, bool) else None


def _message_wins(old: Mapping[str, Any], new: Mapping[str, Any], new_wins: bool) -> bool:
    """A cut copy never overwrites the whole message, and the whole one replaces a cut one."""
    was, now = _truncated(old), _truncated(new)
    if was is False and now is True:
        return False
    if was is True and now is False:
        return True
    return new_wins


def _ordered_union(old: Sequence[Any], new: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    """`new` in its order, each item only `old` has placed after the item it followed in
    `old` (first when it followed none that `new` has). `key` names an item."""
    present = {key(item) for item in new}
    after: dict[Any, list[Any]] = {}
    leading: list[Any] = []
    anchor: Any = MISSING
    for item in old:
        name = key(item)
        if name in present:
            anchor = name
        elif anchor is MISSING:
            leading.append(item)
        else:
            after.setdefault(anchor, []).append(item)
    result = list(leading)
    for item in new:
        result.append(item)
        result.extend(after.pop(key(item), ()))
    return result


def _message_ids(messages: Any) -> list[str] | None:
    """The ids of a messages array; None when it is not an array of objects with distinct
    string ids (it is then merged as any other array)."""
    if not isinstance(messages, list):
        return None
    ids: list[str] = []
    for message in messages:
        ident = message.get("id") if isinstance(message, Mapping) else None
        if not isinstance(ident, str):
            return None
        ids.append(ident)
    return ids if len(set(ids)) == len(ids) else None


def _same_id(item: Any) -> Any:
    return item


@dataclass(frozen=True, slots=True)
class _Messages:
    merged: Any
    fresh: int
    absent: int


def _merge_messages(old: Any, new: Any, new_wins: bool, loose: bool) -> _Messages:
    old_ids, new_ids = _message_ids(old), _message_ids(new)
    if old_ids is None or new_ids is None:
        return _Messages(merge_values(old, new, new_wins, loose=loose), 0, 0)
    stored = dict(zip(old_ids, old, strict=True))
    incoming = dict(zip(new_ids, new, strict=True))
    merged: dict[str, Any] = {}
    for ident, message in incoming.items():
        before = stored.get(ident)
        if before is None:
            merged[ident] = message
            continue
        if _same_bytes(before, message):  # most messages: nothing to merge
            merged[ident] = before
            continue
        wins = _message_wins(before, message, new_wins)
        both = _merge_objects(before, message, wins, loose, _OUTSIDE)
        was, now = before.get("children_ids"), message.get("children_ids")
        if (
            isinstance(was, list)
            and isinstance(now, list)
            and all(isinstance(c, str) for c in (*was, *now))
        ):
            both["children_ids"] = (
                _ordered_union(was, now, _same_id) if wins else (_ordered_union(now, was, _same_id))
            )
        merged[ident] = both
    for ident, message in stored.items():
        merged.setdefault(ident, message)
    # The precedent side's order; what only the other side has goes after what it followed.
    order = (
        _ordered_union(old_ids, new_ids, _same_id)
        if new_wins
        else (_ordered_union(new_ids, old_ids, _same_id))
    )
    return _Messages(
        [merged[ident] for ident in order],
        sum(1 for i in new_ids if i not in stored),
        sum(1 for i in old_ids if i not in incoming),
    )


def _merge_documents(
    stored: Mapping[str, Any], incoming: Mapping[str, Any], skip: frozenset[str], loose: bool
) -> tuple[dict[str, Any], _Messages]:
    new_wins = not incoming_is_older(stored, incoming)
    merged: dict[str, Any] = {}
    messages = _Messages(MISSING, 0, 0)
    for key in (*stored, *(k for k in incoming if k not in stored)):
        if key in skip:
            continue
        old, new = stored.get(key, MISSING), incoming.get(key, MISSING)
        if key == "messages":
            messages = _merge_messages(old, new, new_wins, loose)
            value = messages.merged
        elif _same_bytes(old, new):
            value = old
        else:
            value = merge_values(old, new, new_wins, loose=loose, where=_below(key, _OUTSIDE))
        if value is not MISSING:
            merged[key] = value
    return merged, messages


def merge_conversation(
    stored: Mapping[str, Any], incoming: Mapping[str, Any], ignore: Iterable[str] = IGNORED
) -> MergedConversation:
    """The stored conversation document and an incoming one for the same id, merged (see
    the module's docstring)."""
    skip = frozenset(ignore)
    before = document_bytes(stored, skip)
    if document_bytes(incoming, skip) == before:  # the same export again: the common case
        return MergedConversation(dict(stored), False, 0, 0)
    # First with provenance aside: a difference only there leaves the conversation as it is.
    merged, messages = _merge_documents(stored, incoming, skip, loose=True)
    changed = document_bytes(merged, skip) != before
    if changed:
        merged, messages = _merge_documents(stored, incoming, skip, loose=False)
        changed = document_bytes(merged, skip) != before
    if not changed:
        return MergedConversation(dict(stored), False, 0, messages.absent)
    for key in skip:
        if key in incoming:
            merged[key] = incoming[key]
        elif key in stored:
            merged[key] = stored[key]
    return MergedConversation(merged, True, messages.fresh, messages.absent)


# -- PAM conversations_index entries: the row says more than the document ---------------------

#: Index entry members the stored columns already hold (compared and merged as columns).
COLUMN_MEMBERS: Final = frozenset({"platform", "title", "temporal", "message_count"})


def _index_extras(conversation: StoredConversation) -> dict[str, Any]:
    """What an index entry adds beyond the columns; a file reference names where the
    document was in the export, not data."""
    return {
        k: v
        for k, v in conversation.extra_index.items()
        if k not in COLUMN_MEMBERS
        and not (k == "storage" and isinstance(v, Mapping) and v.get("type") == "file")
    }


def same_canonical(
    a: Mapping[str, Any], b: Mapping[str, Any], ignore: Iterable[str] = IGNORED
) -> bool:
    """The same document in canonical form, the moment of its import aside: what memvault
    exported comes back as RFC 8785 text, where a stored 1.0 reads as 1."""
    skip = frozenset(ignore)
    return jcs_dumps({k: v for k, v in a.items() if k not in skip}) == jcs_dumps(
        {k: v for k, v in b.items() if k not in skip}
    )


def same_index(stored: StoredConversation, incoming: StoredConversation) -> bool:
    """Whether an incoming index entry adds nothing to the stored conversation's row."""
    return all(
        value in (None, getattr(stored, name))
        for name, value in (
            ("title", incoming.title),
            ("created_at", incoming.created_at),
            ("updated_at", incoming.updated_at),
        )
    ) and all(stored.extra_index.get(k) == v for k, v in _index_extras(incoming).items())


def merged_row(
    stored: StoredConversation, incoming: StoredConversation, document: dict[str, Any]
) -> StoredConversation:
    """The stored conversation with what an incoming one adds: its merged document, and its
    index columns where the incoming ones say something (a null or missing one keeps the
    stored value). The message count is the merged document's."""
    messages = document.get("messages")
    # The entry's own members come from the incoming entry where it has them (the export
    # writes them over the columns); the count is the merged document's.
    extras = {k: v for k, v in stored.extra_index.items() if k not in COLUMN_MEMBERS}
    incoming_extras = {
        k: v
        for k, v in incoming.extra_index.items()
        if k != "message_count"
        and not (k == "storage" and isinstance(v, Mapping) and v.get("type") == "file")
    }
    return StoredConversation(
        id=stored.id,
        platform=stored.platform,
        document=document,
        title=incoming.title if incoming.title is not None else stored.title,
        created_at=incoming.created_at or stored.created_at,
        updated_at=incoming.updated_at or stored.updated_at,
        message_count=(
            len(messages)
            if isinstance(messages, list) and messages
            else max(stored.message_count, incoming.message_count)
        ),
        extra_index={**extras, **incoming_extras},
    )
