"""ChatGPT's data export (Settings → Data Controls → Export): `conversations.json` and its
neighbours, as a zip, an extracted folder or the lone file.

`conversations.json` is one JSON array that runs to gigabytes; it is streamed one
conversation at a time (the C scanner finds each one's bytes, orjson parses them), so memory
stays bounded by the largest conversation.
Every conversation becomes a PAM normalized conversation (§25) and the memories ChatGPT itself
keeps are yielded as PAM memory objects:

- custom instructions (`user_editable_context` system messages: "about you" and "how to
  respond") → `identity`-guessed / `instruction` memories, `explicit_user_input`;
- the memory tool's writes (assistant messages addressed to `bio`) → one memory each,
  `api_export`, linked to their conversation and message;
- the model's memory context (`model_editable_context.model_set_context`, the numbered dated
  list) → one memory per item, `api_export`.

The mapping decisions (content types outside `parts`, the message graph, timestamps that are
0 or null, `message_feedback.json`) are in docs/importers.md, "ChatGPT".
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from typing import IO, Any, Final

import ijson
import orjson

from memvault._speedups import value_end
from memvault.canonical import content_hash
from memvault.importers._chatgpt import graph as _c_graph_of
from memvault.importers._chatgpt import message_ids as _c_message_ids
from memvault.importers._chatgpt import messages as _c_messages
from memvault.importers._chatgpt_direct import convert as _direct
from memvault.importers.base import (
    ConversationJson,
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    ImporterId,
    ImportFormatError,
    ImportRecord,
    ItemDone,
    Shard,
    ShardableImporter,
    ShardEnd,
    ShardRecord,
)
from memvault.importers.common import json_reason
from memvault.importers.ids import NAMESPACE, stable_id
from memvault.importers.memory_text import (
    extractor_of,
    item_memories,
    memory_object,
    parse_items,
)
from memvault.sources import Entry, SourceError, Target

PROVIDER: Final = "chatgpt"
SCHEMA_VERSION: Final = "1.0"
_BACKEND: Final = ijson.get_backend("yajl2_c")
_CONVERSATIONS: Final = re.compile(r"(?:^|/)conversations(?:-\d+)?\.json$")
#: How much of a file `sniff` reads.
SNIFF_BYTES: Final = 64 << 10
#: Side files read whole (they are small in real exports); larger ones are refused.
MAX_SIDE_FILE: Final = 256 << 20
_BUFFER: Final = 1 << 16
#: Bytes read at a time when scanning conversations.json.
_CHUNK: Final = 1 << 20
_WS: Final = re.compile(rb"[ \t\r\n]*")
_AT_BYTE: Final = re.compile(r"at byte (\d+)")
#: What `_stream_items` yields for an item another shard parses.
_SKIPPED: Final = object()

_ROLES: Final = {"user": "user", "assistant": "assistant", "system": "system", "tool": "tool"}
#: Roles ChatGPT uses beyond the four PAM ones, and what they normalize to.
_OTHER_ROLES: Final = {"developer": "system", "critic": "assistant", "function": "tool"}
#: Message members mapped to a PAM field; every other member goes to raw_metadata.
_MESSAGE_MAPPED: Final = frozenset({"id", "author", "create_time", "content", "metadata"})
_CONVERSATION_MAPPED: Final = frozenset(
    {"title", "create_time", "update_time", "mapping", "id", "conversation_id", "is_archived"}
)
_NODE_MAPPED: Final = frozenset({"id", "message", "parent", "children"})
#: Author members not worth keeping when they hold one of these.
_EMPTY: Final[tuple[Any, ...]] = (None, {}, [])
_FENCE: Final = re.compile(r"```\s*\n?(.*?)\n?```", re.S)


class ChatGPTImporter(ShardableImporter):
    id = ImporterId(PROVIDER, "2026.11.1")

    # -- detection --------------------------------------------------------------------------

    def sniff(self, target: Target) -> bool:
        entry = conversations_entry(target)
        if entry is None:
            return False
        try:
            with entry.stream() as stream:
                head = stream.read(SNIFF_BYTES)
        except SourceError:
            return False
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        return stripped[:1] == b"[" and b'"mapping"' in head

    # -- reading ----------------------------------------------------------------------------

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        for record in self._records(target, context, None):
            if isinstance(record, ShardEnd):
                context.warnings.extend(record.warnings)
            elif not isinstance(record, ItemDone):
                yield record

    def read_shard(
        self, target: Target, context: ImportContext, shard: Shard
    ) -> Iterator[ShardRecord]:
        return self._records(target, context, shard)

    def _records(
        self, target: Target, context: ImportContext, shard: Shard | None
    ) -> Iterator[ShardRecord]:
        entry = conversations_entry(target)
        if entry is None:
            raise ImportFormatError(
                str(target.path), "no conversations.json (a ChatGPT export has one at its root)"
            )
        before = len(context.warnings)
        account = _account(target, context)
        feedback = _feedback(target)
        comparisons = _comparisons(target)
        if shard is not None and not shard.mine(0):
            del context.warnings[before:]  # what the side files are worth saying is said once
        reader = _ConversationReader(self.id, context, account, feedback, comparisons)
        direct = reader.direct if context.conversations_as_json else None
        seen_memories = reader.memories_given
        for index, item in enumerate(_stream_items(entry, context, shard)):
            if item is _SKIPPED:
                continue
            where = f"{entry.display}: conversation {index}"
            converted = direct(item, where) if direct is not None else None
            if converted is not None:
                written, memories = converted
                yield written
            else:
                raw = _parse(item, where)
                if not isinstance(raw, dict):
                    raise ImportFormatError(where, f"expected an object, found {_kind(raw)}")
                conversation, memories = reader.convert(raw, where)
                yield ImportedConversation(conversation)
            for memory in memories:
                if memory["id"] not in seen_memories:
                    seen_memories.add(memory["id"])
                    yield ImportedMemory(memory)
            if shard is not None:
                yield ItemDone(index)
        # Side entries no conversation took (with shards: none of them).
        yield ShardEnd(
            tuple(
                f"{name}: {what} for conversation {entries[0]['conversation_id']}, which "
                "is not in conversations.json (kept nowhere)"
                for name, what, left in (
                    ("message_feedback.json", "feedback", feedback),
                    ("model_comparisons.json", "a model comparison", comparisons),
                )
                for entries in left.values()
            )
        )


def conversations_entry(target: Target) -> Entry | None:
    """The export's conversations file: `conversations.json` at the root (or in one folder),
    or the lone file the user named."""
    if target.kind == "file" and len(target.entries) == 1:
        return target.entries[0]
    named = [e for e in target.entries if _CONVERSATIONS.search(e.name)]
    named.sort(key=lambda e: (e.name.count("/"), e.name))
    return named[0] if named else None


def _stream_items(
    entry: Entry, context: ImportContext, shard: Shard | None = None
) -> Iterator[Any]:
    """The array's items one at a time, as bytes (`_parse` reads one). The C scanner finds each
    item's byte range in a sliding window over the stream: memory stays bounded by the
    largest conversation and no Python runs per JSON token. With `shard`, items that are not
    `shard.mine` are only scanned, and yielded as `_SKIPPED`."""
    progress = context.progress
    with entry.stream() as raw:
        buf: bytes = raw.read(_BUFFER)
        total = len(buf)
        base = 0  # stream offset of buf[0]
        if buf.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark is skipped
            buf, base = buf[3:], 3
        first = buf.lstrip(b" \t\r\n")[:1]
        if first != b"[":
            found = {b"{": "an object", b"": "nothing"}.get(first, f"{first!r}")
            raise ImportFormatError(
                entry.display, f"expected a JSON array of conversations, found {found}"
            )
        pos = buf.index(b"[") + 1
        eof = False
        index = 0
        expect_item = False  # after a ',' an item must follow

        def fail(reason: str) -> ImportFormatError:
            if shard is not None:  # the item is someone's, who stops here too
                shard.settle(index)
            return ImportFormatError(f"{entry.display}: conversation {index}", _not_json(reason))

        while True:
            pos = _skip_ws(buf, pos)
            if pos >= len(buf):
                if eof:
                    raise fail(f"unexpected end of data at byte {base + pos} (truncated?)")
                buf, base, pos, eof, total = _refill(raw, buf, base, pos, total, progress)
                continue
            if not expect_item and buf[pos] == 0x5D:  # ']'
                rest = buf[pos + 1 :].strip(b" \t\r\n")
                while not rest and not eof:
                    rest = raw.read(_BUFFER).strip(b" \t\r\n")
                    eof = not rest
                if rest:
                    raise fail(f"trailing data after the array at byte {base + pos + 1}")
                if shard is not None:
                    shard.settle(index)
                return
            try:
                end = value_end(buf, pos)
            except ValueError as exc:
                if str(exc).startswith("unexpected end of data") and not eof:
                    buf, base, pos, eof, total = _refill(raw, buf, base, pos, total, progress)
                    continue
                raise fail(_offset_reason(str(exc), base)) from None
            if shard is None or shard.mine(index):
                yield buf[pos:end]
            else:
                yield _SKIPPED  # another shard's: its structure is checked, nothing parsed
            index += 1
            pos = _skip_ws(buf, end)
            while pos >= len(buf) and not eof:
                buf, base, pos, eof, total = _refill(raw, buf, base, pos, total, progress)
                pos = _skip_ws(buf, pos)
            if pos >= len(buf):
                raise fail(f"unexpected end of data at byte {base + pos} (truncated?)")
            sep = buf[pos]
            if sep == 0x2C:  # ','
                pos += 1
                expect_item = True
            elif sep == 0x5D:
                expect_item = False
            else:
                raise fail(f"expected ',' or ']' at byte {base + pos}, found {bytes([sep])!r}")


def _skip_ws(buf: bytes, pos: int) -> int:
    match = _WS.match(buf, pos)
    return pos if match is None else match.end()


def _refill(
    raw: IO[bytes], buf: bytes, base: int, pos: int, total: int, progress: Any
) -> tuple[bytes, int, int, bool, int]:
    """Drop what was consumed and read more; at least as much as the partial item already
    held, so the window doubles for a large item and rescanning it stays linear."""
    data = raw.read(max(_CHUNK, len(buf) - pos))
    total += len(data)
    if progress is not None and data:
        progress(total)
    return buf[pos:] + data, base + pos, 0, not data, total


def _offset_reason(reason: str, base: int) -> str:
    """The scanner's message with its window offset turned into an offset in the file."""
    return _AT_BYTE.sub(lambda m: f"at byte {base + int(m.group(1))}", reason)


def _parse(item: bytes, where: str) -> Any:
    """One item of conversations.json, parsed by orjson; the few inputs orjson refuses that
    yajl reads (a lone UTF-16 surrogate escape, which yajl replaces) by yajl, so what the
    export may hold stays the same (see docs/importers.md)."""
    try:
        return orjson.loads(item)
    except orjson.JSONDecodeError:
        pass
    try:
        return next(_BACKEND.items(io.BytesIO(item), "", use_float=True))
    except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError) as exc:
        raise ImportFormatError(where, _not_json(json_reason(exc))) from None


def _not_json(reason: str) -> str:
    return (
        f"not valid JSON ({reason}); a ChatGPT conversations.json is one JSON array of "
        "conversation objects"
    )


def _side_file(target: Target, name: str) -> Any:
    entry = target.find(name)
    if entry is None:
        return None
    if entry.size > MAX_SIDE_FILE:
        raise ImportFormatError(entry.display, f"larger than {MAX_SIDE_FILE} bytes")
    with entry.stream() as stream:
        try:
            return next(_BACKEND.items(stream, "", use_float=True), None)
        except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError) as exc:
            raise ImportFormatError(entry.display, f"not valid JSON ({json_reason(exc)})") from None


def _account(target: Target, context: ImportContext) -> str | None:
    """The account id from `user.json` (→ `provider.account_id`, `platform_user_id`)."""
    user = _side_file(target, "user.json")
    if user is None:
        return None
    if isinstance(user, dict) and isinstance(user.get("id"), str):
        return str(user["id"])
    context.warnings.append("user.json: no account id found ('id')")
    return None


_HEX32: Final = re.compile(r"^[0-9a-fA-F]{32}$")


def side_key(identifier: str) -> str:
    """The key a side file's entry and a conversation or message are matched by: older
    `message_feedback.json` entries spell a UUID without dashes, so a UUID is keyed by its
    32 hex digits, lower-cased; any other id is its own key."""
    bare = identifier.replace("-", "")
    return bare.lower() if len(identifier) in (32, 36) and _HEX32.match(bare) else identifier


def _by_conversation(target: Target, name: str) -> dict[str, list[dict[str, Any]]]:
    """The entries of the side file `name` (a JSON array of objects naming their
    `conversation_id`) by `side_key` of their conversation id."""
    data = _side_file(target, name)
    if data is None:
        return {}
    if not isinstance(data, list):
        raise ImportFormatError(name, "expected a JSON array")
    by_conversation: dict[str, list[dict[str, Any]]] = {}
    for index, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("conversation_id"), str):
            raise ImportFormatError(
                f"{name}: entry {index}", "expected an object with conversation_id"
            )
        by_conversation.setdefault(side_key(item["conversation_id"]), []).append(item)
    return by_conversation


def _feedback(target: Target) -> dict[str, list[dict[str, Any]]]:
    """`message_feedback.json` by `side_key` of its conversation id. A rating names the
    message it rates by `message_id` (older entries) or else by `id` (newer ones, whose
    feedback endpoint is keyed by message)."""
    return _by_conversation(target, "message_feedback.json")


def _comparisons(target: Target) -> dict[str, list[dict[str, Any]]]:
    """`model_comparisons.json` (the user's choice between two answers) by `side_key` of its
    conversation id; each entry is kept whole in its conversation's
    `raw_metadata.model_comparisons` (docs/decisions.md)."""
    return _by_conversation(target, "model_comparisons.json")


def _rated_message(rating: dict[str, Any]) -> str | None:
    for field in ("message_id", "id"):
        value = rating.get(field)
        if isinstance(value, str):
            return value
    return None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def iso(epoch: float) -> str:
    """Unix seconds → RFC 3339 UTC, microseconds kept when there are any (rounded half to
    even, as `datetime.fromtimestamp` does; the day's date is looked up once per day)."""
    seconds = int(epoch)
    micros = round((epoch - seconds) * 1e6)
    if micros >= 1000000:
        seconds += 1
        micros -= 1000000
    day, rest = divmod(seconds, 86400)
    date = _DATES.get(day)
    if date is None:
        date = _DATES[day] = datetime.fromtimestamp(day * 86400, tz=UTC).date().isoformat()
    minute, secs = divmod(rest, 60)
    if micros:
        return f"{date}{_CLOCK[minute]}{_TWO[secs]}.{micros:06d}Z"
    return f"{date}{_CLOCK[minute]}{_TWO[secs]}Z"


_TWO: Final = [f"{n:02d}" for n in range(60)]
#: "THH:MM:" for each minute of a day.
_CLOCK: Final = [f"T{m // 60:02d}:{m % 60:02d}:" for m in range(1440)]
_DATES: dict[int, str] = {}


def _message_ids(provider_id: str, nodes: list[str]) -> dict[str, str]:
    """`stable_id("chatgpt", "message", provider_id, node)` for many nodes: the same ids,
    with the shared prefix of the name hashed once (a conversation has hundreds of nodes),
    each node's rest hashed and written in C (`_chatgpt.message_ids`; `_message_ids_py` is
    its reference)."""
    ids: dict[str, str] = _c_message_ids(_message_hash(provider_id), nodes)
    return ids


#: SHA-1 of memvault's id namespace, which every id's hash continues.
_NAMESPACE_HASH: Final = hashlib.sha1(NAMESPACE.bytes, usedforsecurity=False)


def _message_hash(provider_id: str) -> Any:
    """SHA-1 of memvault's namespace and the prefix every message name of the conversation
    shares."""
    prefix = "\x1f".join(f"{len(p)}:{p}" for p in (PROVIDER, "message", provider_id)) + "\x1f"
    return hashlib.sha1(NAMESPACE.bytes + prefix.encode(), usedforsecurity=False)


def _message_ids_py(provider_id: str, nodes: list[str]) -> dict[str, str]:
    """The reference for `_message_ids`."""
    base = _message_hash(provider_id)
    result = {}
    copy = base.copy
    variant = _VARIANT
    for node in nodes:
        digest = copy()
        digest.update(f"{len(node)}:{node}".encode())
        h = digest.hexdigest()
        # Version 4 in the 13th hex digit, the RFC 4122 variant in the 17th (`stable_id`).
        result[node] = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{variant[h[16]]}{h[17:20]}-{h[20:32]}"
    return result


_VARIANT: Final = {f"{n:x}": f"{(n & 0x3) | 0x8:x}" for n in range(16)}


def _epoch(value: Any) -> float | None:
    """A usable provider timestamp: a positive number (0 and null mean "unknown")."""
    if type(value) is float and 0 < value <= 32503680000:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value <= 0 or value > 32503680000:  # after year 3000: not a real time either
        return None
    return float(value)


# ---------------------------------------------------------------------------------------------
# One conversation
# ---------------------------------------------------------------------------------------------


class _Where:
    """Where a message is, formatted only when a warning names it (most never do)."""

    __slots__ = ("conversation", "node")

    def __init__(self, conversation: str, node: str) -> None:
        self.conversation = conversation
        self.node = node

    def __str__(self) -> str:
        return f"{self.conversation}: mapping[{self.node!r}]"


class _ConversationReader:
    def __init__(
        self,
        importer: ImporterId,
        context: ImportContext,
        account: str | None,
        feedback: dict[str, list[dict[str, Any]]],
        comparisons: dict[str, list[dict[str, Any]]] | None = None,
    ) -> None:
        self.importer = importer
        self.context = context
        self.account = account
        #: ratings and model comparisons by `side_key` of their conversation id
        self.feedback = feedback
        self.comparisons = comparisons if comparisons is not None else {}
        self.metadata_block = context.import_metadata(importer)
        self.extractor = extractor_of(context)
        #: ids of the memories the reading has yielded: one given again is not built again
        #: (custom instructions repeat in every conversation of an export)
        self.memories_given: set[str] = set()
        self._instruction_ids: dict[tuple[str, str], str] = {}
        self._metadata_json = orjson.dumps(self.metadata_block, option=orjson.OPT_SORT_KEYS)
        self._account_json = orjson.dumps(account)
        # The recall rows are cut as the document is written only where they are wanted (an
        # import's reader process); `convert` does not load the recall code.
        self._rows_of: Callable[[bytes, object], bytes] | None = None
        if context.conversations_as_json:
            from memvault.recall.index import message_rows_json

            self._rows_of = message_rows_json

    def direct(
        self, item: bytes, where: str
    ) -> tuple[ConversationJson, list[dict[str, Any]]] | None:
        """`convert` for the bytes of a conversation, written in C (`_chatgpt_direct.convert`)
        as its document's sorted-key JSON, and its memories; None when `convert` must read it
        (a graph to repair, JSON the C code does not reproduce, ratings). A message of another
        shape than the common one is converted by `_message`, as `convert` does. The tests
        hold the two to the same bytes, memories and warnings."""
        warned = len(self.context.warnings)
        holding: list[tuple[dict[str, Any], dict[str, Any]]] = []  # messages with memories

        def fallback(
            provider_id: str,
            node: str,
            holder_json: bytes,
            message_id: str,
            parent_id: str | None,
            children_ids: list[str],
            created_at: str,
            own_time: bool,
            parent: str | None,
        ) -> tuple[bytes, str, str | None]:
            holder = orjson.loads(holder_json)
            message = holder["message"]
            pam, extra = self._message(node, message, f"{where} (id {provider_id})")
            _place(
                pam,
                holder,
                message,
                message_id,
                parent_id,
                children_ids,
                created_at,
                own_time,
                parent,
                _NODE_MAPPED,
            )
            if extra:
                holding.append((pam, extra))
            json = orjson.dumps(pam, option=orjson.OPT_SORT_KEYS)
            return json, pam["role"], extra.get("instructions") or None

        done = _direct(
            item, _NAMESPACE_HASH, self._metadata_json, self._account_json, fallback,
            self._rows_of,
        )  # fmt: skip
        # Ratings and comparisons are `convert`'s to place.
        if (
            done is None
            or side_key(done[1]) in self.feedback
            or side_key(done[1]) in self.comparisons
        ):
            del self.context.warnings[warned:]  # `convert` says them again
            return None
        data, provider_id, cid, title, created_at, updated_at, count = done[:7]
        passages = done[7] if len(done) > 7 else None
        memories = [
            memory
            for pam, extra in holding
            for memory in self._memories(extra, cid, pam, provider_id)
        ]
        written = ConversationJson(
            cid, PROVIDER, title, created_at, updated_at, count, data, passages
        )
        return written, memories

    def convert(
        self, raw: dict[str, Any], where: str
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        provider_id = raw.get("conversation_id") or raw.get("id")
        mapping = raw.get("mapping")
        if not isinstance(mapping, dict):
            found = "missing" if "mapping" not in raw else f"{_kind(mapping)}"
            shown = f"{where} (id {provider_id})" if isinstance(provider_id, str) else where
            raise ImportFormatError(
                shown, f"field 'mapping': expected an object of message nodes, found {found}"
            )
        if not isinstance(provider_id, str) or not provider_id:
            # No id: derive one from what identifies the conversation, deterministically.
            provider_id = "untitled:" + content_hash(
                f"{raw.get('title')}|{raw.get('create_time')}|{sorted(mapping)[:1]}"
            )
            self.context.warnings.append(f"{where}: no conversation id; one was derived")
        where = f"{where} (id {provider_id})"
        cid = stable_id(PROVIDER, "conversation", provider_id)
        conv_created = _epoch(raw.get("create_time"))
        conv_updated = _epoch(raw.get("update_time"))
        graph = _Graph(mapping, where, conv_created, conv_updated)
        times = graph.times
        # A rating by the id of the message it rates; one with no string id rates no message
        # and is kept with the conversation's unmatched ratings.
        feedback: dict[Any, dict[str, Any]] = {
            side_key(rated) if (rated := _rated_message(f)) is not None else ("unmatched", n): f
            for n, f in enumerate(self.feedback.pop(side_key(provider_id), []))
        }
        comparisons = self.comparisons.pop(side_key(provider_id), [])
        memories: list[dict[str, Any]] = []
        instructions: list[str] = []
        ids = _message_ids(provider_id, graph.kept)
        nodes = graph.nodes
        messages, extras = _convert_messages(
            graph.order,
            nodes,
            ids,
            graph.parent,
            graph.children,
            times,
            graph.own,
            lambda node, message: self._message(node, message, where),
            *_TABLES,
        )
        if feedback:
            for node, pam in zip(graph.order, messages, strict=True):
                message_id = nodes[node]["message"].get("id")
                rating = feedback.pop(side_key(node), None) or (
                    feedback.pop(side_key(message_id), None)
                    if isinstance(message_id, str)
                    else None
                )
                if rating is not None:
                    pam["raw_metadata"]["feedback"] = rating
        for index, extra in extras:
            memories.extend(self._memories(extra, cid, messages[index], provider_id))
            if extra.get("instructions"):
                instructions.append(extra["instructions"])
        created = conv_created if conv_created is not None else graph.earliest(times)
        if created is None:
            created = conv_updated if conv_updated is not None else 0.0
            self.context.warnings.append(f"{where}: no time at all; 1970-01-01 used")
        document: dict[str, Any] = {
            "schema": "portable-ai-memory-conversation",
            "schema_version": SCHEMA_VERSION,
            "id": cid,
            "provider": {
                "name": PROVIDER,
                "conversation_id": provider_id,
                "account_id": self.account,
            },
            "title": raw.get("title") if isinstance(raw.get("title"), str) else None,
            "temporal": {
                "created_at": iso(created),
                "updated_at": None if conv_updated is None else iso(conv_updated),
            },
            "participants": [
                {"role": role}
                for role in ("system", "user", "assistant", "tool")
                if any(m["role"] == role for m in messages)
            ],
            "messages": messages,
            "model": raw.get("default_model_slug")
            if isinstance(raw.get("default_model_slug"), str)
            else None,
            "system_instruction": "\n\n".join(dict.fromkeys(instructions)) or None,
            "is_archived": raw.get("is_archived") is True,
            "raw_metadata": self._conversation_raw(raw, graph, feedback, comparisons),
            "import_metadata": self.metadata_block,
        }
        return document, memories

    def _conversation_raw(
        self,
        raw: dict[str, Any],
        graph: _Graph,
        feedback: dict[Any, dict[str, Any]],
        comparisons: list[dict[str, Any]],
    ) -> dict[str, Any]:
        extra = {k: v for k, v in raw.items() if k not in _CONVERSATION_MAPPED}
        for key in ("title", "create_time", "update_time", "is_archived"):
            value = raw.get(key)
            # Kept when its PAM field could not hold it as it was.
            if key in raw and (
                (key == "title" and not isinstance(value, str | None))
                or (key in ("create_time", "update_time") and _epoch(value) is None)
                or (key == "is_archived" and not isinstance(value, bool))
            ):
                extra[key] = value
        if raw.get("id") not in (None, raw.get("conversation_id")):
            extra["id"] = raw["id"]
        if graph.empty:
            extra["empty_nodes"] = graph.empty
        if feedback:
            extra["message_feedback"] = list(feedback.values())
        if comparisons:
            extra["model_comparisons"] = comparisons
        return extra

    def _message(
        self, node: str, message: dict[str, Any], conversation: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        where = _Where(conversation, node)
        author = message.get("author")
        if not isinstance(author, dict):
            author = {}
        role_value = author.get("role")
        role = _ROLES.get(role_value) if isinstance(role_value, str) else None
        raw_meta: dict[str, Any] = {
            k: v for k, v in message.items() if k not in _MESSAGE_MAPPED and v is not None
        }
        if role is None:
            role = _OTHER_ROLES.get(role_value, "tool") if isinstance(role_value, str) else "tool"
            self.context.warnings.append(
                f"{where}: author role {role_value!r} is not a PAM role; stored as {role!r}"
            )
        if len(author) > 1:
            for key, value in author.items():
                if (key != "role" or role != role_value) and value not in _EMPTY:
                    raw_meta["author"] = {
                        k: v for k, v in author.items() if k != "role" or role != role_value
                    }
                    break
        message_id = message.get("id")
        if message_id != node:
            raw_meta["message_id"] = message_id
        metadata = message.get("metadata")
        pam: dict[str, Any] = {
            "provider_message_id": message_id if isinstance(message_id, str) else node,
            "role": role,
        }
        extra: dict[str, Any] = {}
        if isinstance(metadata, dict):
            model = metadata.get("model_slug")
            if isinstance(model, str):
                pam["model"] = model
            # The message is not used after this: its metadata is kept as it is, not copied.
            rest = (
                {k: v for k, v in metadata.items() if k != "model_slug"}
                if "model_slug" in metadata
                else metadata
            )
            if rest:
                raw_meta["metadata"] = rest
            if "attachments" in metadata:
                attachments = _attachments(metadata["attachments"])
                if attachments:
                    pam["attachments"] = attachments
            if "citations" in metadata:
                citations = _citations(metadata["citations"])
                if citations:
                    pam["citations"] = citations
        elif metadata is not None:
            raw_meta["metadata"] = metadata
        content = message.get("content")
        content_raw, is_thought = _content(content, pam, extra, where, self.context)
        if content_raw:
            raw_meta["content"] = content_raw
        if is_thought:
            pam["is_thought"] = True
        recipient = message.get("recipient")
        if role == "assistant" and isinstance(recipient, str) and recipient not in ("all", ""):
            text = _plain_text(pam.get("content"))
            pam["tool_calls"] = [{"name": recipient, "input": text}]
            if recipient == "bio" and text and text.strip():
                extra["bio"] = text.strip()
        pam["raw_metadata"] = raw_meta
        return pam, extra

    def _memories(
        self, extra: dict[str, Any], cid: str, message: dict[str, Any], provider_id: str
    ) -> Iterator[dict[str, Any]]:
        at = message["created_at"]
        common: dict[str, Any] = {
            "platform": PROVIDER,
            "platform_user_id": self.account,
            "extracted_at": self.context.imported_at,
            "extractor": self.extractor,
        }
        bio = extra.get("bio")
        if bio:
            yield memory_object(
                bio,
                memory_id=stable_id(
                    PROVIDER, "memory", "bio", provider_id, message["provider_message_id"]
                ),
                created_at=at,
                extraction_method="api_export",
                conversation_ref=cid,
                message_ref=message["id"],
                metadata={"source": "chatgpt-bio-tool"},
                **common,
            )
        for key, kind in (("about_user", None), ("about_model", "instruction")):
            text = extra.get(key)
            if text:
                memory_id = self._instruction_ids.get((key, text))
                if memory_id is None:
                    memory_id = stable_id(PROVIDER, "memory", key, content_hash(text))
                    self._instruction_ids[key, text] = memory_id
                if memory_id in self.memories_given:
                    continue  # the reading keeps the first (its id is its text's)
                yield memory_object(
                    text,
                    memory_id=memory_id,
                    memory_type=kind or "identity",
                    created_at=at,
                    extraction_method="explicit_user_input",
                    metadata={"source": f"chatgpt-custom-instructions:{key}"},
                    **common,
                )
        context = extra.get("model_set_context")
        if context:
            for imported in item_memories(
                parse_items(context),
                self.context,
                platform=PROVIDER,
                extraction_method="api_export",
                source="chatgpt-model-set-context",
                extractor=self.extractor,
                conversation_ref=cid,
                message_ref=message["id"],
                fallback_time=at,
            ):
                memory = dict(imported.memory)
                memory["provenance"] = {**memory["provenance"], "platform_user_id": self.account}
                yield memory


MessageConverter = Callable[[str, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]
#: The PAM messages of a conversation, and (position, extra) for those that hold memories.
Converted = tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]]]


def _messages(
    order: list[str],
    nodes: dict[str, dict[str, Any]],
    ids: dict[str, str],
    parents: dict[str, str | None],
    children: dict[str, list[str]],
    times: dict[str, float],
    own: dict[str, float | None],
    convert: MessageConverter,
    roles: dict[str, str],
    message_mapped: frozenset[str],
    node_mapped: frozenset[str],
    empty: tuple[Any, ...],
) -> Converted:
    """The PAM messages of the nodes in `order`, each converted by `convert` (the reader's
    `_message`) and given its ids, its time and the node members with no PAM home; and the
    (position, extra) of each message that holds memories.

    The reference for the C loop the importer runs (`_chatgpt.messages`, same arguments),
    which converts a message of the common shape itself and calls `convert` for the rest;
    the tests hold the two to the same output. The last four arguments are `_TABLES`."""
    messages: list[dict[str, Any]] = []
    extras: list[tuple[int, dict[str, Any]]] = []
    for index, node in enumerate(order):
        holder = nodes[node]
        message = holder["message"]
        pam, extra = convert(node, message)
        parent = parents[node]
        _place(
            pam,
            holder,
            message,
            ids[node],
            None if parent is None else ids[parent],
            [ids[c] for c in children[node]],
            iso(times[node]),
            own[node] is not None,
            parent,
            node_mapped,
        )
        messages.append(pam)
        if extra:
            extras.append((index, extra))
    return messages, extras


def _place(
    pam: dict[str, Any],
    holder: dict[str, Any],
    message: dict[str, Any],
    message_id: str,
    parent_id: str | None,
    children_ids: list[str],
    created_at: str,
    own_time: bool,
    parent: str | None,
    node_mapped: frozenset[str],
) -> None:
    """Give a converted message what the graph says of it: its ids, its time, and in
    raw_metadata its own time when it had none, the parent the export named when the graph
    chose another (`parent` is the chosen node's key) and the node members with no PAM home."""
    pam["id"] = message_id
    pam["parent_id"] = parent_id
    pam["children_ids"] = children_ids
    pam["created_at"] = created_at
    raw_meta = pam["raw_metadata"]
    if not own_time:
        raw_meta["create_time"] = message.get("create_time")
    original_parent = holder.get("parent")
    if original_parent != parent:
        raw_meta["provider_parent"] = original_parent
    if not holder.keys() <= node_mapped:  # members beyond id, message, parent, children
        raw_meta["node"] = {k: v for k, v in holder.items() if k not in node_mapped}


_TABLES: Final = (_ROLES, _MESSAGE_MAPPED, _NODE_MAPPED, _EMPTY)
#: What the importer runs: `_messages` in C (tests hold the two equal).
_convert_messages: Callable[..., Converted] = _c_messages
#: A conversation's graph and times in C, or None where `_Graph`'s Python must decide (the
#: tests hold the two equal; they set this to one that always says None).
_c_graph: Callable[[dict[str, Any], float | None, float | None], tuple[Any, ...] | None] = (
    _c_graph_of
)


# ---------------------------------------------------------------------------------------------
# The message graph
# ---------------------------------------------------------------------------------------------


class _Graph:
    """`mapping` as a forest of the nodes that hold a message.

    Nodes with `message: null` (the hidden root, placeholders) are left out and their children
    attached to the nearest ancestor that holds one; a parent that is not in `mapping` makes
    the node a root (an orphan). Several roots are kept as they are. `order` lists the kept
    nodes depth first, children in the export's order (the conversation as read, branches
    after their first sibling); cycles are broken where they are met.
    """

    def __init__(
        self,
        mapping: dict[str, Any],
        where: str,
        conv_created: float | None = None,
        conv_updated: float | None = None,
    ) -> None:
        #: the nodes as the export has them (every value a node object)
        self.nodes: dict[str, dict[str, Any]] = mapping
        #: each message's own time (None: 0, null or not a time)
        self.own: dict[str, float | None]
        #: each message's time (`_times`)
        self.times: dict[str, float]
        self.empty: list[str] = []
        self.kept: list[str] = []
        self.parent: dict[str, str | None]
        self.children: dict[str, list[str]] = {}
        self.order: list[str]
        fast = _c_graph(mapping, conv_created, conv_updated)
        if fast is not None:  # the common graph, read in C (`_chatgpt.graph`)
            self.kept, self.empty, self.parent, self.children, self.order, self.own = fast[:6]
            self.times = fast[6]
            return
        for key, node in mapping.items():
            if not isinstance(node, dict):
                raise ImportFormatError(
                    f"{where}: mapping[{key!r}]", f"expected a node object, found {_kind(node)}"
                )
            message = node.get("message")
            if message is None:
                self.empty.append(key)
            elif not isinstance(message, dict):
                raise ImportFormatError(
                    f"{where}: mapping[{key!r}].message",
                    f"expected an object or null, found {_kind(message)}",
                )
            else:
                self.kept.append(key)
        nodes = mapping
        kept = set(self.kept)
        parents: dict[str, str | None] = {}
        for key in self.kept:
            parent = nodes[key].get("parent")
            # The common case (a parent that holds a message) without the walk; a parent that
            # is no node's key (a list, say) makes the node a root.
            parents[key] = (
                parent
                if isinstance(parent, str) and parent in kept
                else self._kept_ancestor(key, kept)
            )
        self.parent = parents
        for key in self.kept:
            raw_children = nodes[key].get("children")
            if type(raw_children) is list:
                # The common case: distinct kept children that name this node their parent.
                for child in raw_children:
                    if type(child) is not str or child not in kept or parents[child] != key:
                        break
                else:
                    if len(raw_children) < 2 or len(set(raw_children)) == len(raw_children):
                        self.children[key] = list(raw_children)
                        continue
            listed = _child_list(nodes[key])
            if all(c in kept and parents[c] == key for c in listed) and len(set(listed)) == len(
                listed
            ):
                self.children[key] = listed
                continue
            found: list[str] = []
            for child in self._kept_children(key, kept):
                if parents.get(child) == key and child not in found:
                    found.append(child)
            self.children[key] = found
        # Children the parent does not list (a damaged `children`) still belong to it.
        for key in self.kept:
            parent = self.parent[key]
            if parent is not None and key not in self.children[parent]:
                self.children[parent].append(key)
        self.order = self._depth_first()
        self.times = self._times(conv_created, conv_updated)

    def _kept_ancestor(self, key: str, kept: set[str]) -> str | None:
        seen = {key}
        current = self.nodes[key].get("parent")
        while isinstance(current, str) and current in self.nodes and current not in seen:
            if current in kept:
                return current
            seen.add(current)
            current = self.nodes[current].get("parent")
        return None

    def _kept_children(self, key: str, kept: set[str]) -> Iterator[str]:
        stack = list(reversed(_child_list(self.nodes[key])))
        seen: set[str] = set()
        while stack:
            child = stack.pop()
            if child in seen or child not in self.nodes:
                continue
            seen.add(child)
            if child in kept:
                yield child
            else:
                stack.extend(reversed(_child_list(self.nodes[child])))

    def _depth_first(self) -> list[str]:
        order: list[str] = []
        visited: set[str] = set()
        children = self.children
        roots = [k for k in self.kept if self.parent[k] is None]
        # A cycle has no root: start from its first node in export order.
        for start in [*roots, *self.kept]:
            if start in visited:
                continue
            stack = [start]
            while stack:
                node = stack.pop()
                if node in visited:
                    continue
                visited.add(node)
                order.append(node)
                kids = children[node]
                if len(kids) == 1:  # most nodes: one reply
                    if kids[0] not in visited:
                        stack.append(kids[0])
                elif kids:
                    stack.extend(reversed([c for c in kids if c not in visited]))
        if len(order) != len(self.kept):  # pragma: no cover - every kept node is reached
            raise AssertionError("message graph walk missed nodes")
        return order

    def _times(self, conv_created: float | None, conv_updated: float | None) -> dict[str, float]:
        """Each message's time. 0 or null falls back, deterministically, to the nearest
        ancestor's time, else the nearest descendant's (depth first), else the conversation's
        create_time, else its update_time, else 0 (1970-01-01)."""
        nodes = self.nodes
        own = {k: _epoch(nodes[k]["message"].get("create_time")) for k in self.kept}
        self.own = own
        result: dict[str, float] = {}
        for key in self.order:
            value = own[key]
            if value is None:
                parent = self.parent[key]
                value = result.get(parent) if parent is not None else None
            if value is None:
                value = self._descendant_time(key, own)
            if value is None:
                value = conv_created if conv_created is not None else conv_updated
            result[key] = value if value is not None else 0.0
        return result

    def _descendant_time(self, key: str, own: Mapping[str, float | None]) -> float | None:
        stack = list(reversed(self.children[key]))
        seen: set[str] = set()
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            if own[node] is not None:
                return own[node]
            stack.extend(reversed(self.children[node]))
        return None

    def earliest(self, times: Mapping[str, float]) -> float | None:
        known = [t for t in times.values() if t > 0]
        return min(known) if known else None


def _child_list(node: dict[str, Any]) -> list[str]:
    children = node.get("children")
    if not isinstance(children, list):
        return []
    return [c for c in children if isinstance(c, str)]


# ---------------------------------------------------------------------------------------------
# Content
# ---------------------------------------------------------------------------------------------


def _content(
    content: Any,
    pam: dict[str, Any],
    extra: dict[str, Any],
    where: _Where,
    context: ImportContext,
) -> tuple[dict[str, Any], bool]:
    """Fill `pam["content"]`; return the content members that have no PAM home (kept in
    raw_metadata.content, with content_type) and whether the message is a thought."""
    if type(content) is dict and len(content) == 2 and content.get("content_type") == "text":
        # The common message: one text part and nothing else (what the general path below
        # makes of it, without its bookkeeping).
        parts = content.get("parts")
        if type(parts) is list and len(parts) <= 1 and (not parts or type(parts[0]) is str):
            pam["content"] = {"type": "text", "text": parts[0] if parts else ""}
            return {}, False
    if content is None:
        pam["content"] = {"type": "text", "text": None}
        return {}, False
    if not isinstance(content, dict):
        pam["content"] = {"type": "text", "text": None}
        return {"value": content}, False
    kind = content.get("content_type")
    used: set[str] = {"content_type"}
    thought = False
    rest: dict[str, Any] = {}
    if kind in ("text", "multimodal_text") or (kind is None and "parts" in content):
        used.add("parts")
        parts, rest_parts = _parts(content.get("parts"))
        if rest_parts:
            rest["parts"] = rest_parts
        if kind == "text" and all(p["type"] == "text" for p in parts) and len(parts) <= 1:
            pam["content"] = {"type": "text", "text": parts[0]["text"] if parts else ""}
        else:
            pam["content"] = {"type": "multipart", "parts": parts}
    elif kind == "code":
        used.update(("text", "language"))
        language = content.get("language")
        part: dict[str, Any] = {"type": "code", "text": _str(content.get("text"))}
        if isinstance(language, str) and language not in ("unknown", ""):
            part["language"] = language
        if language is not None and "language" not in part:
            rest["language"] = language
        pam["content"] = {"type": "multipart", "parts": [part]}
    elif kind in ("execution_output", "system_error", "computer_output"):
        used.add("text")
        pam["content"] = {"type": "text", "text": _str(content.get("text"))}
    elif kind == "tether_browsing_display":
        used.add("result")
        result = content.get("result")
        summary = content.get("summary")
        text = result if isinstance(result, str) and result else summary
        if not (isinstance(result, str) and result):
            used.add("summary")
        pam["content"] = {"type": "text", "text": _str(text)}
    elif kind == "tether_quote":
        used.update(("text",))
        pam["content"] = {"type": "text", "text": _str(content.get("text"))}
        url, title = content.get("url"), content.get("title")
        if isinstance(url, str) and url.startswith(("http://", "https://")):
            pam.setdefault("citations", []).append(
                {"title": title if isinstance(title, str) else None, "url": url,
                 "snippet": _str(content.get("text"))}
            )  # fmt: skip
    elif kind == "user_editable_context":
        used.update(("user_profile", "user_instructions"))
        profile = _str(content.get("user_profile"))
        instructions = _str(content.get("user_instructions"))
        text = "\n\n".join(t for t in (profile, instructions) if t)
        # One text part per field (both kept verbatim); which field each came from is kept.
        fields = [
            k for k, v in (("user_profile", profile), ("user_instructions", instructions)) if v
        ]
        pam["content"] = {
            "type": "multipart",
            "parts": [{"type": "text", "text": content[k]} for k in fields],
        }
        rest["parts_from"] = fields
        about_user = _custom_instruction(profile)
        about_model = _custom_instruction(instructions)
        if about_user:
            extra["about_user"] = about_user
        if about_model:
            extra["about_model"] = about_model
        if text:
            extra["instructions"] = text
    elif kind == "model_editable_context":
        used.add("model_set_context")
        text = _str(content.get("model_set_context"))
        pam["content"] = {"type": "text", "text": text}
        if text:
            extra["model_set_context"] = text
    elif kind == "thoughts":
        used.add("thoughts")
        thought = True
        parts = []
        kept_thoughts = []
        thoughts = content.get("thoughts")
        for item in thoughts if isinstance(thoughts, list) else []:
            if isinstance(item, dict) and isinstance(item.get("content"), str):
                parts.append({"type": "text", "text": item["content"]})
                others = {k: v for k, v in item.items() if k != "content"}
                kept_thoughts.append(others)
            else:
                kept_thoughts.append({"value": item})
        if any(kept_thoughts):
            rest["thoughts"] = kept_thoughts
        pam["content"] = {"type": "multipart", "parts": parts}
    elif kind == "reasoning_recap":
        used.add("content")
        thought = True
        pam["content"] = {"type": "text", "text": _str(content.get("content"))}
    else:
        # Unknown content type: its text (if any) is shown, everything kept.
        text = next(
            (content[k] for k in ("text", "result", "content") if isinstance(content.get(k), str)),
            None,
        )
        pam["content"] = {"type": "text", "text": text}
        context.warnings.append(
            f"{where}: content type {kind!r} is not known; its fields are kept in raw_metadata"
        )
        used = set()
    rest.update({k: v for k, v in content.items() if k not in used})
    if rest or kind != "text":
        rest["content_type"] = kind
    return rest, thought


def _parts(value: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`parts[]` → PAM content parts; what PAM cannot hold is returned by position (a null
    part as None, an image's size and metadata, an unknown dict whole)."""
    parts: list[dict[str, Any]] = []
    rest: dict[str, Any] = {}
    for index, item in enumerate(value if isinstance(value, list) else []):
        if isinstance(item, str):
            parts.append({"type": "text", "text": item})
        elif item is None:
            rest[str(index)] = None
        elif isinstance(item, dict):
            kind = item.get("content_type")
            if kind == "image_asset_pointer":
                parts.append({"type": "image", "ref": _str(item.get("asset_pointer"))})
                rest[str(index)] = {k: v for k, v in item.items() if k != "asset_pointer"}
            elif kind in ("audio_asset_pointer", "real_time_user_audio_video_asset_pointer"):
                pointer = item.get("asset_pointer")
                if pointer is None and isinstance(item.get("audio_asset_pointer"), dict):
                    pointer = item["audio_asset_pointer"].get("asset_pointer")
                parts.append({"type": "audio", "ref": _str(pointer)})
                rest[str(index)] = item
            elif kind == "audio_transcription" and isinstance(item.get("text"), str):
                parts.append({"type": "text", "text": item["text"]})
                rest[str(index)] = {k: v for k, v in item.items() if k != "text"}
            elif isinstance(item.get("text"), str):
                parts.append({"type": "text", "text": item["text"]})
                rest[str(index)] = item
            else:
                parts.append({"type": "file"})
                rest[str(index)] = item
        else:
            parts.append({"type": "text", "text": str(item)})
            rest[str(index)] = item
    return parts, rest


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _plain_text(content: Any) -> str | None:
    if not isinstance(content, dict):
        return None
    if content.get("type") == "text":
        return _str(content.get("text"))
    texts = [p.get("text") for p in content.get("parts", []) if isinstance(p.get("text"), str)]
    return "\n".join(texts) if texts else None


def _custom_instruction(text: str | None) -> str | None:
    """The user's own words inside ChatGPT's custom-instruction wrapper ("The user provided
    the following information about themselves… ```<text>```"), or the text itself."""
    if not text or not text.strip():
        return None
    fenced = _FENCE.findall(text)
    if fenced:
        inner = fenced[-1].strip()
        return inner or None
    head, sep, tail = text.partition(":\n")
    if sep and head.startswith("The user provided"):
        return tail.strip() or None
    return text.strip()


def _attachments(value: Any) -> list[dict[str, Any]]:
    result = []
    for item in value if isinstance(value, list) else []:
        if not isinstance(item, dict):
            continue
        mime = _str(item.get("mime_type") or item.get("mimeType"))
        size = item.get("size")
        result.append(
            {
                "type": "image" if mime and mime.startswith("image/") else "file",
                "name": _str(item.get("name")),
                "mime_type": mime,
                "size_bytes": size if isinstance(size, int) and size >= 0 else None,
                "provider_id": _str(item.get("id")),
            }
        )
    return result


def _citations(value: Any) -> list[dict[str, Any]]:
    result = []
    for item in value if isinstance(value, list) else []:
        meta = item.get("metadata") if isinstance(item, dict) else None
        if not isinstance(meta, dict):
            continue
        url = meta.get("url")
        result.append(
            {
                "title": _str(meta.get("title")),
                "url": url
                if isinstance(url, str) and url.startswith(("http:", "https:"))
                else None,
                "snippet": _str(meta.get("text")),
            }
        )
    return result


IMPORTER: Final = ChatGPTImporter()
