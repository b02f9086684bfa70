"""Google Gemini: the Takeout activity log `My Activity/Gemini Apps/MyActivity.json`
(Portuguese Takeout: `Minha atividade/Apps do Gemini/MinhaAtividade.json`), in the Takeout
zip, in its folder, or alone.

The log is one JSON array of events, one per prompt and response, newest first — not
conversations (PAM importer mappings §3). Three event shapes are read, per event:

- variant A: ``details: [{name: "Request"|"Response", value}]``;
- variant B: ``userInteractions: [{userInteraction: {request, response, …}}]`` where request
  and response are JSON strings;
- the common real shape: ``title: "Prompted <text>"`` (``"Comando: <text>"`` in Portuguese)
  with the response as HTML in ``safeHtmlItem: [{html}]`` — or a Canvas document, with no
  prompt; the HTML becomes Markdown here (links, tables, code kept: `html_markdown`) and
  stays verbatim in the message's ``raw_metadata``. Images the response shows are Gemini's
  (image parts of the answer); the event's other files are the user's uploads.

Events are grouped by the conversation id in ``titleUrl`` (``…/app/<id>``); events without
one are sorted by time and start a new conversation after a gap of more than
`SESSION_GAP` (see docs/importers.md). A group with no message at all is no conversation:
its events are kept with the conversation nearest in time. Every event is kept verbatim in
the ``raw_metadata`` of a message or conversation, so nothing the provider exported is
dropped; a log with no message at all (another product's) is refused.

The file is streamed twice (ijson): a first pass keeps a small index per event (ids, time,
size); later passes load only the events of a batch of conversations whose total size stays
under `BATCH_BYTES`, so memory is bounded however large the log.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import mimetypes
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final
from urllib.parse import unquote, urlsplit

import ijson
import orjson

from memvault import jsonread
from memvault.importers.base import (
    ImportContext,
    ImportedConversation,
    Importer,
    ImporterId,
    ImportFormatError,
    ImportRecord,
)
from memvault.importers.common import (
    UTF8_BOM,
    BinaryReader,
    Progress,
    Rejoined,
    batches,
    fill_times,
    json_reason,
    kind,
    parse_iso,
    short_title,
)
from memvault.importers.html_markdown import Image, html_to_markdown
from memvault.importers.ids import stable_id
from memvault.sources import Entry, SourceError, Target

PROVIDER: Final = "gemini"
#: Events without a conversation id further apart than this start a new conversation.
SESSION_GAP: Final = timedelta(minutes=30)
#: Upper bound (bytes of event JSON) of the events held in memory at once.
BATCH_BYTES: Final = 32 << 20
_SNIFF_BYTES: Final = 8192
_EXPORT_FORMAT: Final = "takeout-my-activity"

#: Activity file names, lower-cased, per Takeout locale: (folder, file).
_ACTIVITY_PATHS: Final = (
    ("gemini apps", "myactivity.json"),
    ("apps do gemini", "minhaatividade.json"),
)
_ACTIVITY_FILES: Final = frozenset(name for _, name in _ACTIVITY_PATHS)
#: `title` prefixes that carry the user's prompt (English and Portuguese Takeout).
_PROMPT_PREFIXES: Final = ("Prompted ", "Comando: ", "Comando ")
_REQUEST_NAMES: Final = frozenset({"request", "prompt", "solicitação", "pedido", "comando"})
_RESPONSE_NAMES: Final = frozenset({"response", "resposta"})
_CONVERSATION_ID: Final = re.compile(r"^[A-Za-z0-9_-]{6,}$")


class GeminiImporter(Importer):
    id = ImporterId(PROVIDER, "2026.11.1")

    def sniff(self, target: Target) -> bool:
        if any(_is_activity_path(e.name) for e in target.entries):
            return True
        candidates = [
            e for e in target.entries if target.kind == "file" or e.name.lower() in _ACTIVITY_FILES
        ]
        return any(_looks_like_activity(_head(e)) for e in candidates)

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        entries = _activity_entries(target)
        if not entries:
            raise ImportFormatError(
                str(target.path),
                "no Gemini activity file (My Activity/Gemini Apps/MyActivity.json) in it",
            )
        # The first pass reads every file whole, once: it is what the progress bar counts.
        progress = Progress(context.progress)
        headers: dict[str, int] = {}
        index = [
            slot
            for n, entry in enumerate(entries)
            for slot in _index_entry(n, entry, progress, headers)
        ]
        if not index:
            context.warnings.append(f"{target.path.name}: the activity log holds no events")
        elif all(slot.silent for slot in index):
            _nothing_conversational(target, len(index), headers, context)
            return
        for batch in batches(_group(index), lambda group: group.size, BATCH_BYTES):
            wanted = {(s.entry, s.ordinal) for group in batch for s in group.every_slot}
            events = _load_events(entries, wanted)
            for group in batch:
                yield ImportedConversation(_conversation(group, events, entries, context))


IMPORTER: Final = GeminiImporter()


def _nothing_conversational(
    target: Target, events: int, headers: dict[str, int], context: ImportContext
) -> None:
    """No event carries a message. A Gemini log (activity paused, only "Used Gemini Apps"
    records) imports nothing, with a warning; another product's log (Google Assistant's,
    read with --from gemini) is refused, naming the products its events are from."""
    common = sorted(headers.items(), key=lambda item: (-item[1], item[0]))
    found = ", ".join(f"{h!r} ×{n}" for h, n in common[:5])
    if len(common) > 5:
        found += f" and {len(common) - 5} more"
    if any(word in h.lower() for h in headers for word in ("gemini", "bard")):
        context.warnings.append(
            f"{target.path.name}: none of its {events} activity events carries a Gemini "
            "prompt, response or Canvas (was Gemini Apps Activity paused?); nothing to import"
        )
        return
    raise ImportFormatError(
        str(target.path),
        f"none of its {events} activity events is a Gemini prompt, response or Canvas "
        f"(event headers: {found}); it is not a Gemini Apps activity log "
        "(Takeout: My Activity → Gemini Apps)",
    )


# -- locating and sniffing -----------------------------------------------------------------


def _is_activity_path(name: str) -> bool:
    parts = name.lower().split("/")
    return len(parts) >= 2 and (parts[-2], parts[-1]) in _ACTIVITY_PATHS


def _head(entry: Entry) -> bytes:
    try:
        with entry.stream() as stream:
            return stream.read(_SNIFF_BYTES)
    except SourceError:
        return b""


def _looks_like_activity(head: bytes) -> bool:
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not text.startswith(b"["):
        return False
    body = text[1:].lstrip()
    return (
        body.startswith(b"{")
        and b'"header"' in text
        and (b"Gemini" in text or b"Bard" in text)
        and (b'"time"' in text or b'"title"' in text)
    )


def _activity_entries(target: Target) -> list[Entry]:
    named = [e for e in target.entries if _is_activity_path(e.name)]
    if named:
        return sorted(named, key=lambda e: e.name)
    if target.kind == "file":
        return list(target.entries)
    return [
        e
        for e in target.entries
        if e.name.lower() in _ACTIVITY_FILES and _looks_like_activity(_head(e))
    ]


# -- pass 1: a small index of every event ---------------------------------------------------


@dataclass(slots=True)
class _Slot:
    entry: int
    ordinal: int
    conversation_id: str | None
    time: datetime | None
    #: SHA-256 of the event's canonical JSON: the same event in two files is read once
    digest: str
    size: int
    #: the event carries no message (a "Used Gemini Apps" or feedback record, say)
    silent: bool


def _where(entry: Entry, ordinal: int) -> str:
    return f"{entry.display}: event {ordinal}"


def _events(entry: Entry, progress: Progress | None = None) -> Iterator[tuple[int, Any]]:
    """The entry's top-level array items, streamed; a clear error for anything else. The
    bytes read are reported to `progress` when one is given."""
    try:
        with entry.stream() as raw:
            stream = progress.counted(raw) if progress is not None else raw
            reader = _json_array(stream, entry.display)
            ordinal = -1
            try:
                for ordinal, event in enumerate(ijson.items(reader, "item", use_float=True)):
                    yield ordinal, event
            except (ijson.JSONError, UnicodeDecodeError) as exc:
                raise ImportFormatError(
                    f"{entry.display}: event {ordinal + 1}", f"not valid JSON ({json_reason(exc)})"
                ) from None
    except SourceError as exc:
        raise ImportFormatError(exc.target, exc.message) from None


def _json_array(stream: BinaryReader, where: str) -> Rejoined:
    """The stream minus a UTF-8 byte order mark, after checking that it holds a JSON array."""
    head = stream.read(_SNIFF_BYTES).removeprefix(UTF8_BOM)
    first = head.lstrip()[:1]
    if first != b"[":
        what = "the file is empty" if not first else f"it starts with {first!r}"
        raise ImportFormatError(
            where, f"expected a JSON array of Takeout activity events, but {what}"
        )
    return Rejoined(head, stream)


def _index_entry(
    n: int, entry: Entry, progress: Progress, headers: dict[str, int]
) -> Iterator[_Slot]:
    for ordinal, event in _events(entry, progress):
        where = _where(entry, ordinal)
        if not isinstance(event, dict):
            raise ImportFormatError(where, f"expected an object, got {kind(event)}")
        raw = orjson.dumps(event, option=orjson.OPT_SORT_KEYS)
        # every event is checked before anything is yielded
        silent = not _turns(event, where, convert=False)
        if silent:
            header = event.get("header")
            name = header if isinstance(header, str) else "(none)"
            headers[name] = headers.get(name, 0) + 1
        yield _Slot(
            entry=n,
            ordinal=ordinal,
            conversation_id=_conversation_id(event, where),
            time=_event_time(event, where),
            digest=hashlib.sha256(raw).hexdigest(),
            size=len(raw),
            silent=silent,
        )


def _event_time(event: dict[str, Any], where: str) -> datetime | None:
    value = event.get("time")
    if value is None:
        return None
    if not isinstance(value, str):
        raise ImportFormatError(where, f"field 'time': expected a string, got {kind(value)}")
    try:
        return parse_iso(value)  # Takeout writes UTC ("Z"); a bare time is read as UTC
    except ValueError:
        raise ImportFormatError(
            where, f"field 'time': {value!r} is not an ISO 8601 timestamp"
        ) from None


def _conversation_id(event: dict[str, Any], where: str) -> str | None:
    url = event.get("titleUrl")
    if url is None:
        return None
    if not isinstance(url, str):
        raise ImportFormatError(where, f"field 'titleUrl': expected a string, got {kind(url)}")
    try:
        path = urlsplit(url).path
    except ValueError:  # not a URL (an unclosed IPv6 bracket, say): it names no conversation
        return None
    parts = [p for p in path.split("/") if p]
    # https://gemini.google.com/app/<id> or …/app/c/<id> (Bard: …/chat/<id>); a bare …/app
    # names no conversation
    anchor = next((p for p in parts if p in ("app", "chat")), None)
    if anchor is None:
        return None
    tail = parts[parts.index(anchor) + 1 :]
    if tail[:1] == ["c"]:
        tail = tail[1:]
    if len(tail) == 1 and _CONVERSATION_ID.match(tail[0]):
        return tail[0]
    return None


# -- grouping --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Group:
    #: the provider's conversation id, or None for a time-gap session
    conversation_id: str | None
    slots: list[_Slot]
    #: events of no conversation that carry no message, kept with the conversation nearest
    #: to them in time (docs/importers.md)
    standalone: list[_Slot] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(s.size for s in self.every_slot)

    @property
    def every_slot(self) -> list[_Slot]:
        return self.slots + self.standalone

    @property
    def silent(self) -> bool:
        return all(s.silent for s in self.slots)


def _fill_times(slots: list[_Slot]) -> None:
    """An event without `time` takes the time of the event before it in its file (the log is
    ordered), else the first one of the file, else the Unix epoch (`fill_times`)."""
    by_entry: dict[int, list[_Slot]] = {}
    for slot in slots:
        by_entry.setdefault(slot.entry, []).append(slot)
    for entry_slots in by_entry.values():
        entry_slots.sort(key=lambda s: s.ordinal)
        for slot, moment in zip(
            entry_slots, fill_times([s.time for s in entry_slots]), strict=True
        ):
            slot.time = moment


def _group(slots: list[_Slot]) -> list[_Group]:
    _fill_times(slots)
    seen: set[str] = set()
    by_id: dict[str, list[_Slot]] = {}
    loose: list[_Slot] = []
    for slot in slots:
        if slot.digest in seen:  # the same event in two activity files
            continue
        seen.add(slot.digest)
        if slot.conversation_id is not None:
            by_id.setdefault(slot.conversation_id, []).append(slot)
        else:
            loose.append(slot)
    groups = [_Group(cid, sorted(group, key=_order)) for cid, group in by_id.items()]
    session: list[_Slot] = []
    for slot in sorted(loose, key=_order):
        assert slot.time is not None
        if session and slot.time - _time(session[-1]) > SESSION_GAP:
            groups.append(_Group(None, session))
            session = []
        session.append(slot)
    if session:
        groups.append(_Group(None, session))
    groups.sort(key=lambda g: (_time(g.slots[0]), g.slots[0].digest))
    return _fold_standalone(groups)


def _fold_standalone(groups: list[_Group]) -> list[_Group]:
    """Groups whose events carry no message at all are no conversations: each of their
    events joins the conversation that starts nearest to it in time (the earlier one on a
    tie), so no empty conversation is written and no event is lost."""
    spoken = [g for g in groups if not g.silent]
    if not spoken:
        return []
    starts = [_time(g.slots[0]) for g in spoken]
    for group in groups:
        if not group.silent:
            continue
        for slot in group.slots:
            at = bisect.bisect_right(starts, _time(slot))
            candidates = [i for i in (at - 1, at) if 0 <= i < len(spoken)]
            nearest = min(candidates, key=lambda i: (abs(starts[i] - _time(slot)), i))
            spoken[nearest].standalone.append(slot)
    return spoken


def _time(slot: _Slot) -> datetime:
    assert slot.time is not None
    return slot.time


def _order(slot: _Slot) -> tuple[datetime, str]:
    return (_time(slot), slot.digest)


def _load_events(entries: list[Entry], wanted: set[tuple[int, int]]) -> dict[tuple[int, int], Any]:
    loaded: dict[tuple[int, int], Any] = {}
    for n, entry in enumerate(entries):
        if not any(e == n for e, _ in wanted):
            continue
        for ordinal, event in _events(entry):
            if (n, ordinal) in wanted:
                loaded[(n, ordinal)] = event
    return loaded


# -- one event into messages -----------------------------------------------------------------


@dataclass(slots=True)
class _Turn:
    role: str
    text: str
    #: event members this message carries instead of the first message's copy of the event
    #: (the response HTML goes with the response)
    raw: dict[str, Any]
    #: the images of a response (those Gemini generated), in document order
    images: list[Image] = field(default_factory=list)


def _turns(event: dict[str, Any], where: str, *, convert: bool = True) -> list[_Turn]:
    """The messages of one event; `convert=False` only checks the event (HTML responses are
    left unconverted, as the first pass needs no text)."""
    if "details" in event:
        turns = _detail_turns(event["details"], where)
        if turns:
            return turns
        # Details of another kind (a Canvas event's, say): the event is read as the others.
    if "userInteractions" in event:
        return _interaction_turns(event["userInteractions"], where)
    turns = []
    title = event.get("title")
    if title is not None and not isinstance(title, str):
        raise ImportFormatError(where, f"field 'title': expected a string, got {kind(title)}")
    prompt = _strip_prompt_prefix(title) if title else None
    if prompt is not None:
        turns.append(_Turn("user", prompt, {}))
    html = event.get("safeHtmlItem")
    if html is not None:
        text, images = _html_items(html, where, convert)
        turns.append(_Turn("assistant", text, {"safeHtmlItem": html}, images))
    return turns


def _strip_prompt_prefix(title: str) -> str | None:
    for prefix in _PROMPT_PREFIXES:
        if title.startswith(prefix):
            return title[len(prefix) :]
    return None


def _detail_turns(details: Any, where: str) -> list[_Turn]:
    if not isinstance(details, list):
        raise ImportFormatError(where, f"field 'details': expected an array, got {kind(details)}")
    turns = []
    for i, item in enumerate(details):
        at = f"field 'details[{i}]'"
        if not isinstance(item, dict):
            raise ImportFormatError(where, f"{at}: expected an object, got {kind(item)}")
        name, value = item.get("name"), item.get("value")
        if not isinstance(name, str):
            raise ImportFormatError(where, f"{at}.name: expected a string, got {kind(name)}")
        role = (
            "user"
            if name.lower() in _REQUEST_NAMES
            else "assistant"
            if name.lower() in _RESPONSE_NAMES
            else None
        )
        if role is None:  # another detail (kept with the event in raw_metadata)
            continue
        if not isinstance(value, str):
            raise ImportFormatError(where, f"{at}.value: expected a string, got {kind(value)}")
        turns.append(_Turn(role, value, {}))
    return turns


def _interaction_turns(interactions: Any, where: str) -> list[_Turn]:
    if not isinstance(interactions, list):
        raise ImportFormatError(
            where, f"field 'userInteractions': expected an array, got {kind(interactions)}"
        )
    turns = []
    for i, item in enumerate(interactions):
        at = f"field 'userInteractions[{i}]'"
        inner = item.get("userInteraction") if isinstance(item, dict) else None
        if not isinstance(inner, dict):
            raise ImportFormatError(where, f"{at}.userInteraction: expected an object")
        for key, role in (("request", "user"), ("response", "assistant")):
            value = inner.get(key)
            if value is None:
                continue
            if not isinstance(value, str):
                raise ImportFormatError(
                    where, f"{at}.userInteraction.{key}: expected a JSON string, got {kind(value)}"
                )
            turns.append(_Turn(role, _embedded_text(value), {}))
    return turns


def _embedded_text(value: str) -> str:
    """The text of a request/response JSON string: its ``text`` members in order, else every
    string in it; a string that is not JSON, or nested deeper than the export may be
    (RFC 8259 §9; parsing it would recurse that deep), is the text itself."""
    encoded = value.encode("utf-8", "surrogatepass")
    if jsonread.nesting_scan(encoded, 0, jsonread.STREAM_MAX_DEPTH)[1] >= 0:
        return value
    try:
        parsed = json.loads(value)
    except ValueError:
        return value
    texts = list(_strings(parsed, only_text=True)) or list(_strings(parsed, only_text=False))
    return "\n".join(t for t in texts if t)


def _strings(value: Any, *, only_text: bool, key: str | None = None) -> Iterator[str]:
    if isinstance(value, str):
        if not only_text or key == "text":
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, only_text=only_text, key=key)
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from _strings(item, only_text=only_text, key=k)


def _html_items(items: Any, where: str, convert: bool) -> tuple[str, list[Image]]:
    """The Markdown text and the images of a response's HTML items."""
    if not isinstance(items, list):
        raise ImportFormatError(
            where, f"field 'safeHtmlItem': expected an array, got {kind(items)}"
        )
    texts: list[str] = []
    images: list[Image] = []
    for i, item in enumerate(items):
        html = item.get("html") if isinstance(item, dict) else None
        if not isinstance(html, str):
            raise ImportFormatError(where, f"field 'safeHtmlItem[{i}].html': expected a string")
        if convert:
            converted = html_to_markdown(html)
            texts.append(converted.text)
            images.extend(converted.images)
    return "\n\n".join(t for t in texts if t), images


_ATTACHMENT_FIELDS: Final = ("attachedFiles", "attachments", "imageFile")


def _file_names(event: dict[str, Any]) -> list[str]:
    """File names Takeout lists with an event (the files sit beside the activity log), each
    once though Takeout lists an upload in more than one field."""
    names: list[str] = []
    for name in _ATTACHMENT_FIELDS:
        value = event.get(name)
        if isinstance(value, str):
            names.append(value)
        elif isinstance(value, list):
            names.extend(v for v in value if isinstance(v, str))
    return list(dict.fromkeys(names))


def _file_kind(name: str) -> tuple[str, str | None]:
    mime = mimetypes.guess_type(name)[0]
    major = (mime or "").split("/")[0]
    file_kind = major if major in ("image", "audio", "video") else "file"
    if mime in ("application/pdf", "application/msword") or (mime or "").startswith(
        ("text/", "application/vnd.openxmlformats")
    ):
        file_kind = "document"
    return file_kind, mime


def _basename(ref: str) -> str:
    return unquote(urlsplit(ref).path.rsplit("/", 1)[-1])


def _split_files(
    event: dict[str, Any], images: list[Image]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The user's uploads (attachments of the prompt) and the images Gemini generated (image
    parts of the response). Takeout lists both among the event's files; a file the response
    HTML shows (``<img src>``, by file name) is Gemini's, every other one the user's. An
    image the response shows that no field lists is Gemini's too, referenced as written."""
    names = _file_names(event)
    by_base = {_basename(name): name for name in names}
    generated: list[dict[str, Any]] = []
    shown: set[str] = set()
    for image in images:
        if image.src.startswith("data:"):
            # inline bytes: they stay in the HTML kept in raw_metadata, not copied here
            mime = image.src[5:].split(";", 1)[0].split(",", 1)[0] or None
            generated.append({"type": "image", "ref": None, "mime_type": mime})
            continue
        name = by_base.get(_basename(image.src))
        ref = name if name is not None else image.src
        if ref in shown:
            continue
        shown.add(ref)
        mime = mimetypes.guess_type(_basename(ref))[0]
        generated.append({"type": "image", "ref": ref, "mime_type": mime})
    uploads = []
    for name in names:
        if name in shown:
            continue
        file_kind, mime = _file_kind(name)
        uploads.append({"type": file_kind, "name": name, "mime_type": mime, "ref": name})
    return uploads, generated


# -- documents ---------------------------------------------------------------------------------


def _rfc3339(when: datetime) -> str:
    """Milliseconds written out when the time has only milliseconds (``.500Z``), else
    microseconds — unlike `common.rfc3339`, which drops trailing zeros. Gemini's ids are
    made from this text (time-gap sessions), so it stays as gemini-importer/2026.11 wrote it
    (PAM §25.5)."""
    when = when.astimezone(UTC)
    if when.microsecond % 1000 == 0:
        stamp = when.strftime("%Y-%m-%dT%H:%M:%S") + (
            f".{when.microsecond // 1000:03d}" if when.microsecond else ""
        )
    else:
        stamp = when.strftime("%Y-%m-%dT%H:%M:%S.%f")
    return stamp + "Z"


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _conversation(
    group: _Group,
    events: dict[tuple[int, int], Any],
    entries: list[Entry],
    context: ImportContext,
) -> dict[str, Any]:
    first = group.slots[0]
    every_turns = [
        _turns(events[(s.entry, s.ordinal)], _where(entries[s.entry], s.ordinal))
        for s in group.slots
    ]
    prompts = [next((t.text for t in turns if t.role == "user"), "") for turns in every_turns]
    if group.conversation_id is not None:
        key: tuple[str, ...] = ("id", group.conversation_id)
    else:
        # A session is named by its first event: a newer export that adds later events to it
        # keeps its id.
        key = ("session", _rfc3339(_time(first)), _text_digest(prompts[0]))
    conversation_id = stable_id(PROVIDER, "conversation", *key)
    messages: list[dict[str, Any]] = []
    silent: list[Any] = []
    occurrences: dict[tuple[str, str], int] = {}
    for slot, prompt, turns in zip(group.slots, prompts, every_turns, strict=True):
        entry = entries[slot.entry]
        event = events[(slot.entry, slot.ordinal)]
        when = _rfc3339(_time(slot))
        event_key = (when, _text_digest(prompt))
        seen = occurrences.get(event_key, 0)
        occurrences[event_key] = seen + 1
        if not turns:
            silent.append({"entry": entry.name, "event": event})
            continue
        moved = {key for turn in turns for key in turn.raw}
        uploads, generated = _split_files(event, [im for t in turns for im in t.images])
        # The uploads go with the first prompt; with no prompt (a Canvas event), with the
        # first message.
        carrier = next((t for t in turns if t.role == "user"), turns[0])
        for i, turn in enumerate(turns):
            raw: dict[str, Any] = {"entry": entry.name, **turn.raw}
            if i == 0:
                raw["takeout_event"] = {k: v for k, v in event.items() if k not in moved}
            content: dict[str, Any] = {"type": "text", "text": turn.text}
            if turn.role == "assistant" and generated:
                # An answer with images Gemini made: its text, then the images.
                text_part = [{"type": "text", "text": turn.text}] if turn.text else []
                content = {"type": "multipart", "parts": text_part + generated}
            message: dict[str, Any] = {
                "id": stable_id(
                    PROVIDER, "message", *key, *event_key, str(seen), turn.role, str(i)
                ),
                "role": turn.role,
                "content": content,
                "created_at": when,
                "parent_id": None,
                "children_ids": [],
                "raw_metadata": raw,
            }
            if turn is carrier:
                message["attachments"] = uploads
            if event.get("time") is None:
                raw["time_missing"] = True
            messages.append(message)
    title = next(
        (m["content"]["text"] for m in messages if m["role"] == "user" and m["content"]["text"]),
        None,
    ) or _event_title(group, events)
    raw_metadata: dict[str, Any] = {
        "grouping": "titleUrl" if group.conversation_id is not None else "time-gap",
        "entries": sorted({entries[s.entry].name for s in group.slots}),
    }
    if silent:
        raw_metadata["events_without_messages"] = silent
    if group.standalone:
        raw_metadata["standalone_events"] = [
            {"entry": entries[s.entry].name, "event": events[(s.entry, s.ordinal)]}
            for s in group.standalone
        ]
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": conversation_id,
        "provider": {
            "name": PROVIDER,
            "conversation_id": group.conversation_id,
            "export_format_version": _EXPORT_FORMAT,
        },
        "title": short_title(title),
        "temporal": {
            "created_at": _rfc3339(_time(first)),
            "updated_at": _rfc3339(_time(group.slots[-1])),
        },
        "participants": _participants(messages),
        "messages": messages,
        "raw_metadata": raw_metadata,
        "import_metadata": context.import_metadata(GeminiImporter.id),
    }


def _event_title(group: _Group, events: dict[tuple[int, int], Any]) -> str | None:
    """A conversation with no prompt (a Canvas alone, say) is titled by its first event that
    carries a message: "Created Gemini Canvas titled …"."""
    for slot in group.slots:
        title = events[(slot.entry, slot.ordinal)].get("title")
        if not slot.silent and isinstance(title, str) and title.strip():
            return title
    return None


def _participants(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    roles = {m["role"] for m in messages}
    result = []
    if "user" in roles:
        result.append({"role": "user", "name": None})
    if "assistant" in roles:
        result.append({"role": "assistant", "name": "Gemini"})
    return result
