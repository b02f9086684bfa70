"""Grok (xAI) data export → PAM normalized conversations and memories.

The export (grok.com → Settings → Download your data) is a zip holding
``ttl/30d/export_data/<user uuid>/prod-grok-backend.json``: one JSON object with four arrays,
read in one streaming pass (one record in memory at a time):

- ``conversations``: ``{"conversation": {...}, "responses": [{"response": {...},
  "share_link": ...}]}`` — unwrapped twice (bare records are accepted too). Responses form a
  tree through ``parent_response_id`` (edits and regenerations branch it); PAM keeps it with
  ``parent_id``/``children_ids``, messages in time order;
- ``projects``: one ``project`` memory each, plus an ``instruction`` memory for the project's
  custom instructions (``custom_personality`` / ``instructions``);
- ``tasks`` (scheduled prompts): one ``custom`` memory each (``custom_type:
  scheduled_task``);
- ``media_posts`` (Grok Imagine images and videos): one conversation per post — the prompt as
  the user message, the media as attachments of the assistant message.

Times come as ISO 8601 strings or MongoDB extended JSON (``{"$date": {"$numberLong": "<ms>"}}``
or ``{"$date": "<ISO>"}``) at any level; both become RFC 3339 UTC, also inside
``raw_metadata``. Field mapping follows PAM importer-mappings §5; every field with no PAM home
is kept in ``raw_metadata`` (memories: ``metadata.raw_metadata``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import ijson
from ijson.common import ObjectBuilder

from memvault.canonical import content_hash
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    ImportedMemory,
    Importer,
    ImporterId,
    ImportFormatError,
    ImportRecord,
)
from memvault.importers.common import (
    SAFE_INT,
    UTF8_BOM,
    ExportReader,
    Progress,
    Rejoined,
    array_field,
    as_object,
    json_reason,
    kind,
    rfc3339,
    text_field,
)
from memvault.importers.ids import stable_id
from memvault.sources import Entry, Target

PROVIDER: Final = "grok"
SCHEMA_VERSION: Final = "1.0"
MAIN_FILE: Final = "prod-grok-backend.json"
#: The account profile beside it (sessions and billing files are account administration, not
#: memory, and are not read).
PROFILE_FILE: Final = "prod-mc-auth-mgmt-api.json"
SECTIONS: Final = ("conversations", "projects", "tasks", "media_posts")
#: Where the export keeps uploaded files, by asset id (importer-mappings §5).
ASSET_REF: Final = "prod-mc-asset-server/{}/content"
_SNIFF_BYTES: Final = 64 << 10
_HEAD: Final = re.compile(rb'^\s*\{\s*"(conversations|projects|tasks|media_posts)"\s*:')
_HEAD_HINTS: Final = (b'"responses"', b'"conversation"', b'"$date"', b'"media_posts"')
_CONVERSATION_FIELDS: Final = frozenset({"id", "title", "create_time", "modify_time", "user_id"})
_RESPONSE_FIELDS: Final = frozenset(
    {
        "_id",
        "message",
        "sender",
        "create_time",
        "parent_response_id",
        "model",
        "metadata",
        "cited_web_search_results",
        "generated_image_urls",
        "file_attachments",
    }
)
_URI: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
#: Sorts responses with no time at all (none in their conversation either) in file order.
_NO_TIME: Final = datetime.min.replace(tzinfo=UTC)
_ID_KEYS: Final = ("id", "_id", "post_id")


class GrokImporter(Importer):
    id = ImporterId(PROVIDER, "2026.11.1")

    def sniff(self, target: Target) -> bool:
        if _main_files(target) and target.kind != "file":
            return True
        if target.kind != "file":
            return False
        with target.entries[0].stream() as stream:
            head = stream.read(_SNIFF_BYTES)
        return _HEAD.match(head) is not None and any(h in head for h in _HEAD_HINTS)

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        entries = target.entries if target.kind == "file" else _main_files(target)
        if not entries:
            raise ImportFormatError(
                str(target.path), f"no Grok export file found (expected {MAIN_FILE})"
            )
        assets = _asset_sizes(target)
        profiles = [e for e in target.entries if e.name.rsplit("/", 1)[-1] == PROFILE_FILE]
        return _Reader(self.id, context, assets).records(entries, profiles)


IMPORTER: Final = GrokImporter()


def _main_files(target: Target) -> list[Entry]:
    """Every prod-grok-backend.json of the export (one per account folder)."""
    return sorted(
        (e for e in target.entries if e.name == MAIN_FILE or e.name.endswith("/" + MAIN_FILE)),
        key=lambda e: e.name,
    )


def _asset_sizes(target: Target) -> dict[str, int]:
    """Uploaded files the export holds (``prod-mc-asset-server/<asset id>/content``) and
    their sizes. Folder targets list only JSON entries, so a folder is looked at directly."""
    names = [(e.name, e.size) for e in target.entries]
    if target.kind == "directory":
        try:
            names = [
                (p.relative_to(target.path).as_posix(), p.stat().st_size)
                for p in target.path.glob("**/prod-mc-asset-server/*/content")
                if p.is_file() and not p.is_symlink()
            ]
        except OSError:
            names = []
    return {
        parts[-2]: size
        for name, size in names
        if len(parts := name.split("/")) >= 3 and parts[-3] == "prod-mc-asset-server"
    }


# --------------------------------------------------------------------------------------------
# Streaming the main file: the four arrays, one record at a time
# --------------------------------------------------------------------------------------------


def _build(event: str, value: Any, events: Iterator[tuple[str, str, Any]]) -> Any:
    """The JSON value that starts with (event, value), consuming its events."""
    if event not in ("start_map", "start_array"):
        return value
    builder = ObjectBuilder()
    builder.event(event, value)
    depth = 1
    for _, inner, inner_value in events:
        builder.event(inner, inner_value)
        if inner in ("start_map", "start_array"):
            depth += 1
        elif inner in ("end_map", "end_array"):
            depth -= 1
            if depth == 0:
                break
    return builder.value


def _top_level(
    entry: Entry,
    warnings: list[str],
    progress: Progress,
    sections: tuple[str, ...] = SECTIONS,
) -> Iterator[tuple[str, int, Any]]:
    """(section, index, record) for each record of the known arrays, in file order (a
    section that is an object is one record)."""
    section, index = "the top-level object", 0
    with entry.stream() as raw:
        stream = progress.counted(raw)
        head = stream.read(_SNIFF_BYTES).removeprefix(UTF8_BOM)  # ijson refuses a BOM
        events = ijson.parse(Rejoined(head, stream), use_float=True)
        try:
            first = next(events, None)
            if first is None:
                raise ImportFormatError(entry.display, "the file is empty (expected JSON)")
            if first[1] != "start_map":
                raise ImportFormatError(
                    entry.display,
                    f"expected a JSON object with {', '.join(sections)}; found a {first[1]}",
                )
            key = ""
            for prefix, event, value in events:
                if prefix == "" and event == "map_key":
                    key = value
                    continue
                if prefix == "" and event == "end_map":
                    return
                if key not in sections:
                    _build(event, value, events)
                    warnings.append(f"{entry.display}: top-level field {key!r} is not imported")
                    continue
                if event == "null":
                    continue
                if event == "start_map":
                    yield key, 0, _build(event, value, events)
                    continue
                if event != "start_array":
                    raise ImportFormatError(
                        entry.display, f"field {key!r}: expected an array, found {event}"
                    )
                section, index = key, 0
                for _, item_event, item_value in events:
                    if item_event == "end_array":
                        break
                    yield key, index, _build(item_event, item_value, events)
                    index += 1
        except (ijson.JSONError, UnicodeDecodeError) as exc:
            raise ImportFormatError(
                entry.display,
                f"not valid JSON (in {section}, after record {index}): {json_reason(exc)}",
            ) from None


# --------------------------------------------------------------------------------------------
# Values: checked access, BSON extended JSON, RFC 3339
# --------------------------------------------------------------------------------------------


def _strings(record: Mapping[str, Any], key: str, where: str) -> list[str]:
    items = array_field(record, key, where)
    for number, item in enumerate(items):
        if not isinstance(item, str):
            raise ImportFormatError(
                where, f"field {key!r}[{number}]: expected a string, found {kind(item)}"
            )
    return items


def _is_date(value: Any) -> bool:
    return isinstance(value, Mapping) and len(value) == 1 and "$date" in value


def _instant(value: Any) -> datetime:
    """An ISO 8601 string or a BSON ``$date`` (milliseconds since the epoch as
    ``$numberLong``, a number, or an ISO string) as an aware UTC datetime. Raises
    ValueError for anything else."""
    if _is_date(value):
        value = value["$date"]
        if isinstance(value, Mapping) and set(value) == {"$numberLong"}:
            value = int(value["$numberLong"])
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(value / 1000, tz=UTC)
    if isinstance(value, str) and value:
        moment = datetime.fromisoformat(value)
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    raise ValueError(value)


def _time(record: Mapping[str, Any], key: str, where: str) -> datetime | None:
    value = record.get(key)
    if value is None or value == "":
        return None
    try:
        return _instant(value)
    except (ValueError, TypeError, OverflowError, OSError):
        raise ImportFormatError(
            where,
            f"field {key!r}: {value!r} is not a timestamp (ISO 8601 or "
            '{"$date": {"$numberLong": "<milliseconds>"}})',
        ) from None


def plain(value: Any) -> Any:
    """MongoDB extended JSON made plain, at every level: ``$date`` → RFC 3339 UTC,
    ``$numberLong``/``$numberInt`` → int, ``$numberDouble`` → float, ``$oid`` → its hex
    string. A ``$date`` that is not a time is left as it is."""
    if isinstance(value, Mapping):
        if len(value) == 1:
            ((key, inner),) = value.items()
            if key == "$date":
                try:
                    return rfc3339(_instant(value))
                except (ValueError, TypeError, OverflowError, OSError):
                    return {key: plain(inner)}
            if key in ("$numberLong", "$numberInt") and isinstance(inner, str):
                try:
                    number = int(inner)
                except ValueError:
                    return dict(value)
                return number if abs(number) <= SAFE_INT else dict(value)
            if key == "$numberDouble" and isinstance(inner, str):
                return float(inner)
            if key == "$oid" and isinstance(inner, str):
                return inner
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _rest(record: Mapping[str, Any], mapped: frozenset[str] | set[str]) -> dict[str, Any]:
    """The fields with no PAM home, BSON made plain (kept in raw_metadata)."""
    return {k: plain(v) for k, v in record.items() if k not in mapped}


def _role(sender: str) -> str:
    """importer-mappings §5/§6: case-insensitive; "human" is the user and every other value —
    "assistant", "ASSISTANT", a model name like "grok-3", even "user" — the assistant, as the
    MUST says (docs/decisions.md); a sender other than "human"/"assistant" is kept in
    `raw_metadata.sender`."""
    return "user" if sender.lower() == "human" else "assistant"


def _pick(
    record: Mapping[str, Any], keys: tuple[str, ...], where: str, used: set[str]
) -> str | None:
    """The first non-empty string among fields that name one thing differently from one
    record kind (or export version) to another; its field is marked as mapped."""
    for key in keys:
        value = text_field(record, key, where)
        if value:
            used.add(key)
            return value
    return None


def _media_type(*hints: Any) -> str:
    for hint in hints:
        text = str(hint or "").lower()
        for family in ("video", "audio", "image"):
            if family in text:
                return family
    return "file"


# --------------------------------------------------------------------------------------------
# The reader
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Reader(ExportReader):
    #: uploaded files in the export: asset id → size in bytes
    assets: dict[str, int]
    #: conversations waiting for a neighbour's time (they have none of their own)
    pending: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    previous: str | None = None

    def records(self, entries: list[Entry], profiles: list[Entry]) -> Iterator[ImportRecord]:
        memories: list[tuple[str, int, Mapping[str, Any], str]] = []
        for entry in entries:
            for section, index, item in _top_level(entry, self.context.warnings, self.progress):
                where = f"{entry.display}: {section} {index}"
                if section == "conversations":
                    yield from self._timed(where, self._conversation(item, where))
                elif section == "media_posts":
                    yield from self._timed(where, self._media_post(item, where))
                else:  # small; built once the export's latest time is known
                    memories.append((section, index, as_object(item, where, section[:-1]), where))
        if self.pending:
            raise ImportFormatError(
                self.pending[0][0],
                "no timestamp anywhere (create_time, modify_time, responses) in this or any "
                "other conversation of the file",
            )
        for section, index, record, where in memories:
            if section == "projects":
                yield from self._project(record, index, where)
            else:
                yield from self._task(record, index, where)
        for entry in profiles:
            yield from self._profile(entry)

    def _profile(self, entry: Entry) -> Iterator[ImportRecord]:
        """The account's name, from the profile file, as an identity memory."""
        for section, _, item in _top_level(entry, [], self.progress, sections=("user",)):
            where = f"{entry.display}: {section}"
            user = as_object(item, where, section)
            name = " ".join(
                n
                for n in (
                    text_field(user, "givenName", where),
                    text_field(user, "familyName", where),
                )
                if n
            )
            meta = {"source_entry": PROFILE_FILE, "raw_metadata": _rest(user, set())}
            user_id = text_field(user, "userId", where)
            memory = self.memories.build(
                ("user", user_id or "", content_hash(name or "-")),
                "identity",
                f"Name: {name}" if name else "",
                _time(user, "createTime", where),
                None,
                user_id,
                meta,
            )
            if memory is not None:
                yield ImportedMemory(memory)

    def _timed(self, where: str, document: dict[str, Any]) -> Iterator[ImportRecord]:
        """Yield a conversation; one with no time at all takes its previous neighbour's,
        or waits for the next one's."""
        created = document["temporal"].get("created_at")
        if created is None:
            if self.previous is None:
                self.pending.append((where, document))
                return
            created = self.previous
        else:
            for _, waiting in self.pending:
                _settle(waiting, created)
                yield ImportedConversation(waiting)
            self.pending.clear()
        _settle(document, created)
        self.previous = created
        yield ImportedConversation(document)

    def _document(
        self,
        conversation_id: str,
        key: tuple[str, ...],
        title: str | None,
        account: str | None,
        messages: list[dict[str, Any]],
        created: datetime | None,
        updated: datetime | None,
        raw: dict[str, Any],
    ) -> dict[str, Any]:
        self.memories.seen(updated or created)
        provider: dict[str, Any] = {"name": PROVIDER, "conversation_id": conversation_id}
        if account:
            provider["account_id"] = account
        temporal: dict[str, Any] = {"created_at": rfc3339(created) if created else None}
        if updated is not None:
            temporal["updated_at"] = rfc3339(updated)
        roles = {m["role"] for m in messages}
        document: dict[str, Any] = {
            "schema": "portable-ai-memory-conversation",
            "schema_version": SCHEMA_VERSION,
            "id": stable_id(PROVIDER, *key),
            "provider": provider,
            "title": title or None,
            "temporal": temporal,
            "participants": [{"role": r} for r in ("user", "assistant") if r in roles],
            "messages": messages,
        }
        models = Counter(m["model"] for m in messages if m.get("model"))
        if models:
            document["model"] = models.most_common(1)[0][0]
        if raw:
            document["raw_metadata"] = raw
        document["import_metadata"] = self.context.import_metadata(self.importer)
        return document

    # ---- conversations ---------------------------------------------------------------------

    def _conversation(self, item: Any, where: str) -> dict[str, Any]:
        wrapper = as_object(item, where, "conversation")
        if "conversation" in wrapper:
            record = as_object(wrapper["conversation"], where, "field 'conversation'")
            extra = _rest(wrapper, {"conversation", "responses"})
        else:  # a bare conversation record
            record, extra = wrapper, {}
        conversation_id = text_field(record, "id", where)
        if not conversation_id:
            raise ImportFormatError(where, "field 'conversation.id': missing")
        where += f" (id {conversation_id})"
        raw = _rest(record, _CONVERSATION_FIELDS | {"responses"})
        if extra:
            raw["export_wrapper"] = extra
        created = _time(record, "create_time", where)
        updated = _time(record, "modify_time", where)
        responses = array_field(wrapper, "responses", where) or array_field(
            record, "responses", where
        )
        messages = self._messages(conversation_id, responses, where)
        stamps = [_instant(m["created_at"]) for m in messages if "created_at" in m]
        created = created or (min(stamps) if stamps else None) or updated
        document = self._document(
            conversation_id,
            ("conversation", conversation_id),
            text_field(record, "title", where),
            text_field(record, "user_id", where),
            messages,
            created,
            updated,
            raw,
        )
        return document

    def _messages(
        self, conversation: str, responses: list[Any], where: str
    ) -> list[dict[str, Any]]:
        parsed: list[tuple[Mapping[str, Any], dict[str, Any], datetime | None, str]] = []
        for index, item in enumerate(responses):
            r_where = f"{where}: response {index}"
            wrapper = as_object(item, r_where, "response")
            if isinstance(wrapper.get("response"), Mapping):
                response = wrapper["response"]
                outer = _rest(wrapper, {"response"})
            else:  # a bare response record
                response, outer = wrapper, {}
            provider_id = text_field(response, "_id", r_where)
            if not provider_id:
                raise ImportFormatError(r_where, "field 'response._id': missing")
            r_where += f" (_id {provider_id})"
            message = self._message(conversation, response, provider_id, r_where)
            if outer:
                message.setdefault("raw_metadata", {}).update(outer)
            parsed.append((response, message, _time(response, "create_time", r_where), r_where))
        # A response without a time takes its previous neighbour's (file order), else its
        # next one's; then messages go in time order (a stable sort keeps ties in file order).
        times = [p[2] for p in parsed]
        for position, moment in enumerate(times):
            if moment is None:
                later = next((t for t in times[position:] if t is not None), None)
                times[position] = (times[position - 1] if position else None) or later
        order = sorted(range(len(parsed)), key=lambda i: times[i] or _NO_TIME)
        messages = []
        for i in order:
            moment = times[i]
            if moment is not None:
                parsed[i][1]["created_at"] = rfc3339(moment)
            messages.append(parsed[i][1])
        self._link([(p[0], p[1], p[3]) for p in (parsed[i] for i in order)])
        return messages

    def _link(self, ordered: list[tuple[Mapping[str, Any], dict[str, Any], str]]) -> None:
        """parent_id/children_ids from parent_response_id (importer-mappings §5). A
        conversation without any parent ids is linear (PAM §25.3: null and []). A parent
        that is not in the conversation (or the response itself) is repaired: the message
        hangs from the one before it in time order, and the id given stays in raw_metadata."""
        by_provider: dict[str, dict[str, Any]] = {}
        for _, message, where in ordered:
            if message["provider_message_id"] in by_provider:
                raise ImportFormatError(where, "field 'response._id': the same id twice")
            by_provider[message["provider_message_id"]] = message
        parents = [response.get("parent_response_id") for response, _, _ in ordered]
        for message in by_provider.values():
            message["parent_id"] = None
            message["children_ids"] = []
        if not any(parents):
            return
        previous: dict[str, Any] | None = None
        for (_, message, where), parent_ref in zip(ordered, parents, strict=True):
            if parent_ref is not None and not isinstance(parent_ref, str):
                raise ImportFormatError(
                    where,
                    f"field 'parent_response_id': expected a string, found {kind(parent_ref)}",
                )
            parent = by_provider.get(parent_ref) if parent_ref else None
            if parent_ref and (parent is None or parent is message):
                message.setdefault("raw_metadata", {})["parent_response_id"] = parent_ref
                self.context.warnings.append(
                    f"{where}: parent_response_id {parent_ref!r} is not a response of this "
                    "conversation; attached to the message before it"
                )
                parent = previous
            if parent is not None:
                message["parent_id"] = parent["id"]
                parent["children_ids"].append(message["id"])
            previous = message

    def _message(
        self, conversation: str, response: Mapping[str, Any], provider_id: str, where: str
    ) -> dict[str, Any]:
        sender = text_field(response, "sender", where)
        if not sender:
            raise ImportFormatError(where, "field 'sender': missing")
        message: dict[str, Any] = {
            "id": stable_id(PROVIDER, "message", conversation, provider_id),
            "provider_message_id": provider_id,
            "role": _role(sender),
            "content": {"type": "text", "text": text_field(response, "message", where) or ""},
        }
        model = text_field(response, "model", where)
        if model:
            message["model"] = model
        raw = _rest(response, _RESPONSE_FIELDS)
        if sender not in ("human", "assistant"):
            raw["sender"] = sender
        if model == "":
            raw["model"] = model
        if response.get("metadata") is not None:
            raw["grok_metadata"] = plain(response["metadata"])
        attachments: list[dict[str, Any]] = [
            {"type": "image", "ref": url}
            for url in _strings(response, "generated_image_urls", where)
        ]
        attachments += [
            {"type": "file", "provider_id": asset, "ref": ASSET_REF.format(asset)}
            for asset in _strings(response, "file_attachments", where)
        ]
        for attachment in attachments:
            if attachment.get("provider_id") in self.assets:
                attachment["size_bytes"] = self.assets[attachment["provider_id"]]
        if attachments:
            message["attachments"] = attachments
        citations, rests = [], []
        for number, item in enumerate(array_field(response, "cited_web_search_results", where)):
            cited = as_object(item, f"{where}: cited_web_search_results {number}", "citation")
            url = cited.get("url")
            citations.append(
                {
                    "title": text_field(cited, "title", where),
                    "url": url if isinstance(url, str) and _URI.match(url) else None,
                    "snippet": text_field(cited, "preview", where),
                }
            )
            used = {"title", "preview"} | ({"url"} if citations[-1]["url"] else set())
            rests.append(_rest(cited, used))
        if citations:
            message["citations"] = citations
        if any(rests):
            raw["cited_web_search_results"] = rests
        if raw:
            message["raw_metadata"] = raw
        return message

    # ---- media posts -----------------------------------------------------------------------

    def _media_post(self, item: Any, where: str) -> dict[str, Any]:
        """A Grok Imagine post as a conversation: the prompt, then the media (the post's
        own and its child posts' — variations and videos made from it)."""
        post = as_object(item, where, "media post")
        used = {"create_time", "user_id", "child_posts"}
        post_id = _pick(post, _ID_KEYS, where, used)
        if not post_id:
            raise ImportFormatError(where, "field 'id': missing")
        where += f" (id {post_id})"
        created = _time(post, "create_time", where)
        prompt = _pick(post, ("original_prompt", "prompt"), where, used)
        attachments, rests = [], []
        for number, media in enumerate([post, *array_field(post, "child_posts", where)]):
            m_where = where if number == 0 else f"{where}: child_posts {number - 1}"
            media = as_object(media, m_where, "child post")
            media_used = used if number == 0 else set()
            media_id = post_id if number == 0 else _pick(media, _ID_KEYS, m_where, media_used)
            mime = _pick(media, ("mime_type",), m_where, media_used)
            attachments.append(
                {
                    "type": _media_type(media.get("media_type"), mime),
                    "mime_type": mime,
                    "ref": _pick(media, ("link", "media_url", "url"), m_where, media_used),
                    "provider_id": media_id,
                }
            )
            if number:
                rests.append(_rest(media, media_used))
        raw = {"grok_record": "media_post", **_rest(post, used)}
        if any(rests):
            raw["child_posts"] = rests
        stamp = rfc3339(created) if created else None
        messages: list[dict[str, Any]] = []
        if prompt:
            messages.append(
                {
                    "id": stable_id(PROVIDER, "message", "media_post", post_id, "prompt"),
                    "role": "user",
                    "content": {"type": "text", "text": prompt},
                }
            )
        messages.append(
            {
                "id": stable_id(PROVIDER, "message", "media_post", post_id, "media"),
                "provider_message_id": post_id,
                "role": "assistant",
                "content": {"type": "text", "text": ""},
                "attachments": attachments,
            }
        )
        for message in messages:
            message["parent_id"] = None
            message["children_ids"] = []
            if stamp:
                message["created_at"] = stamp
        title = prompt if not prompt or len(prompt) <= 80 else prompt[:79].rstrip() + "…"
        return self._document(
            post_id,
            ("media_post", post_id),
            title,
            text_field(post, "user_id", where),
            messages,
            created,
            None,
            raw,
        )

    # ---- projects and tasks ----------------------------------------------------------------

    def _project(self, record: Mapping[str, Any], index: int, where: str) -> Iterator[ImportRecord]:
        used = {"create_time", "description"}
        project_id = _pick(record, ("project_id", *_ID_KEYS), where, set()) or f"#{index}"
        name = _pick(record, ("name", "title"), where, used)
        description = text_field(record, "description", where)
        instructions = _pick(record, ("custom_personality", "instructions"), where, set())
        created = _time(record, "create_time", where)
        updated = self._updated(record, where, used)
        user = text_field(record, "user_id", where)
        meta = {
            "source_entry": MAIN_FILE,
            "project_id": project_id,
            "raw_metadata": _rest(record, used),
        }
        content = ": ".join(t for t in (name, description) if t)
        key = ("project", project_id, content_hash(content or "-"))
        memory = self.memories.build(
            key, "project", content, created, updated, user, meta, summary=name
        )
        if memory is not None:
            yield ImportedMemory(memory)
        if instructions:
            meta = {"source_entry": MAIN_FILE, "project_id": project_id}
            memory = self.memories.project_instructions(
                project_id, instructions, name, created, updated, user, meta
            )
            if memory is not None:
                yield ImportedMemory(memory)

    def _task(self, record: Mapping[str, Any], index: int, where: str) -> Iterator[ImportRecord]:
        """A scheduled task (a prompt Grok runs on a schedule): no PAM type fits, so a
        ``custom`` memory of ``custom_type`` ``scheduled_task``; schedule and state stay in
        metadata.raw_metadata."""
        used = {"create_time"}
        task_id = _pick(record, ("task_id", *_ID_KEYS), where, set()) or f"#{index}"
        title = _pick(record, ("title", "name"), where, used)
        prompt = _pick(record, ("prompt", "instruction"), where, used)
        content = ": ".join(t for t in (title, prompt) if t)
        created = _time(record, "create_time", where)
        updated = self._updated(record, where, used)
        meta = {"source_entry": MAIN_FILE, "task_id": task_id, "raw_metadata": _rest(record, used)}
        memory = self.memories.build(
            ("task", task_id, content_hash(content or "-")),
            "custom",
            content,
            created,
            updated,
            text_field(record, "user_id", where),
            meta,
            summary=title,
            custom_type="scheduled_task",
        )
        if memory is None:
            self.context.warnings.append(f"{where}: a task with no title or prompt; not imported")
        else:
            yield ImportedMemory(memory)

    def _updated(self, record: Mapping[str, Any], where: str, used: set[str]) -> datetime | None:
        for key in ("modify_time", "update_time"):
            moment = _time(record, key, where)
            if moment is not None:
                used.add(key)
                return moment
        return None


def _settle(document: dict[str, Any], created: str) -> None:
    """Give a conversation with no time of its own (and its messages) a neighbour's."""
    document["temporal"]["created_at"] = created
    for message in document["messages"]:
        message.setdefault("created_at", created)
