"""Claude (Anthropic) data export → PAM normalized conversations and memories.

The export (Settings → Privacy → Export data) is a zip of four JSON files:

- ``conversations.json``: an array of conversations, each with a flat ``chat_messages``
  array whose ``content`` blocks are ``text``, ``thinking``, ``tool_use``, ``tool_result``
  and ``token_budget`` (read streaming, one conversation at a time);
- ``users.json``: the account (name, email, phone) → one ``identity`` memory per user;
- ``projects.json``: projects → one ``project`` memory each (name and description), plus an
  ``instruction`` memory for a project's custom instructions (``prompt_template``);
- ``memories.json``: what Claude remembers → ``conversations_memory`` split into one
  ``context`` memory per paragraph or list item, ``project_memories`` one ``project``
  memory per project.

Field mapping follows PAM importer-mappings §2. A Claude message is split where its blocks
change kind: a ``thinking`` block becomes its own message with ``is_thought`` (only that part
is a thought), each ``tool_result`` block becomes a ``tool`` message, and the text and
``tool_use`` blocks around them stay assistant messages. Every provider field with no PAM home
is kept in ``raw_metadata`` (memories: ``metadata.raw_metadata``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import ijson

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
    UTF8_BOM,
    BinaryReader,
    ExportReader,
    Progress,
    Rejoined,
    array_field,
    as_object,
    iso_field,
    json_reason,
    kind,
    rfc3339,
    text_field,
)
from memvault.importers.ids import stable_id
from memvault.sources import Entry, Target

PROVIDER: Final = "claude"
SCHEMA_VERSION: Final = "1.0"
_FILES: Final = ("conversations.json", "users.json", "projects.json", "memories.json")
_SNIFF_BYTES: Final = 64 << 10
#: What first bytes of each file look like, for a file given alone under another name.
_HEADS: Final = (
    ("conversations.json", re.compile(rb'"chat_messages"\s*:')),
    ("memories.json", re.compile(rb'"(conversations_memory|project_memories)"\s*:')),
    ("projects.json", re.compile(rb'"prompt_template"\s*:')),
    ("users.json", re.compile(rb'"(email_address|verified_phone_number)"\s*:')),
)
_EMPTY_ARRAY: Final = re.compile(rb"^\s*\[\s*\]\s*$")
_PATTERNS: Final = dict(_HEADS)
_CONVERSATION_FIELDS: Final = frozenset(
    {"uuid", "name", "created_at", "updated_at", "account", "chat_messages", "model"}
)
_MESSAGE_FIELDS: Final = frozenset(
    {"uuid", "sender", "content", "created_at", "attachments", "files", "text"}
)
_ROLES: Final = {"human": "user", "user": "user", "assistant": "assistant", "system": "system"}
_HEADING: Final = re.compile(
    r"^(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*:?|\*([^*\s][^*]*)\*:?|__(.+?)__:?)$"
)
_BULLET: Final = re.compile(r"^(?:[-*•+]|\d{1,3}[.)])\s+(.+)$")


class ClaudeImporter(Importer):
    id = ImporterId(PROVIDER, "2026.11")

    def sniff(self, target: Target) -> bool:
        """A file of the export whose first bytes have its telltale field (an empty
        conversations.json counts beside another file of the export)."""
        found = _locate(target)
        heads = {name: _head(entry) for name, entry in found.items()}
        if any(_PATTERNS[name].search(head) for name, head in heads.items()):
            return True
        empty = _EMPTY_ARRAY.match(heads.get("conversations.json", b"x")) is not None
        return empty and len(found) > 1

    def read(self, target: Target, context: ImportContext) -> Iterator[ImportRecord]:
        found = _locate(target)
        if not found:
            raise ImportFormatError(
                str(target.path),
                "no Claude export file found (expected conversations.json, memories.json, "
                "projects.json or users.json)",
            )
        return _Reader(self.id, context, found).records()


IMPORTER: Final = ClaudeImporter()


def _head(entry: Entry) -> bytes:
    with entry.stream() as stream:
        return stream.read(_SNIFF_BYTES)


def _locate(target: Target) -> dict[str, Entry]:
    """The export's files by their role. A file given alone is recognized by its first
    bytes whatever its name (users rename downloads); in a folder or zip by name, also one
    level down (an export folder inside the folder the user named)."""
    if target.kind == "file":
        alone = target.entries[0]
        head = _head(alone)
        by_content = next((name for name, pattern in _HEADS if pattern.search(head)), None)
        # Read (not sniffed) as what its content says, else as what its name says, else
        # as the conversations (the file users pick).
        name = by_content or (alone.name if alone.name in _FILES else "conversations.json")
        return {name: alone}
    found: dict[str, Entry] = {}
    for name in _FILES:
        entry = target.find(name)
        nested = [e for e in target.entries if e.name.endswith("/" + name)]
        if entry is None and len(nested) == 1:
            entry = nested[0]
        if entry is not None:
            found[name] = entry
    return found


# --------------------------------------------------------------------------------------------
# Reading JSON, streaming, with errors that name the entry and the record
# --------------------------------------------------------------------------------------------


def _json_start(stream: BinaryReader) -> tuple[bytes, bytes]:
    """The bytes read ahead (without a UTF-8 byte order mark, which ijson refuses) and the
    first significant character of the document (b"" for an empty one)."""
    head = stream.read(_SNIFF_BYTES)
    head = head.removeprefix(UTF8_BOM)
    while head and not head.strip():
        more = stream.read(_SNIFF_BYTES)
        if not more:
            break
        head += more
    return head, head.lstrip()[:1]


def _records(entry: Entry, what: str, progress: Progress) -> Iterator[tuple[int, Any]]:
    """The items of a JSON array file, one at a time (a lone object counts as one item)."""
    with entry.stream() as raw:
        stream = progress.counted(raw)
        head, first = _json_start(stream)
        if first not in (b"[", b"{"):
            found = "nothing" if not first else f"{first.decode('latin-1')!r}"
            raise ImportFormatError(
                entry.display, f"expected a JSON array of {what}s, found {found} first"
            )
        index = 0
        try:
            prefix = "item" if first == b"[" else ""
            for item in ijson.items(Rejoined(head, stream), prefix, use_float=True):
                yield index, item
                index += 1
        except (ijson.JSONError, UnicodeDecodeError) as exc:
            raise ImportFormatError(
                entry.display, f"not valid JSON (after {what} {index}): {json_reason(exc)}"
            ) from None


#: Projects every Claude account starts with: provider boilerplate, not memory.
STOCK_PROJECTS: Final = frozenset({"how to use claude"})


def _stock_project(project: Mapping[str, Any], name: str | None) -> bool:
    return project.get("is_starter_project") is True or (
        name is not None and name.strip().casefold() in STOCK_PROJECTS
    )


def _rest(record: Mapping[str, Any], mapped: frozenset[str] | set[str]) -> dict[str, Any]:
    """The fields of a provider record that have no PAM home (kept in raw_metadata)."""
    return {k: v for k, v in record.items() if k not in mapped}


_DOCUMENT_HINTS: Final = (
    "text/",
    "application/pdf",
    "application/vnd",
    "application/msword",
    "document",
    "txt",
    "md",
    "pdf",
    "doc",
    "docx",
    "csv",
    "rtf",
    "odt",
)


def _attachment_type(mime: str | None, kind: str | None = None) -> str:
    """PAM Attachment.type from a MIME type, a file kind or an extension."""
    hint = (kind or mime or "").lower()
    for family in ("image", "audio", "video"):
        if hint.startswith(family):
            return family
    if hint in _DOCUMENT_HINTS or hint.startswith(_DOCUMENT_HINTS[:4]):
        return "document"
    return "file"


def _uri(value: Any) -> str | None:
    """A URL for a Citation (schema format ``uri``): kept only when it has a scheme."""
    if isinstance(value, str) and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", value):
        return value
    return None


def slug(text: str) -> str:
    """A PAM tag (``^[a-z0-9][a-z0-9_-]*$``) from a heading, accents folded."""
    folded = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def split_memory_text(text: str) -> list[tuple[str | None, str]]:
    """Claude's ``conversations_memory`` is one Markdown text of headed sections. Each
    paragraph and each list item is one memory; a heading is not a memory but names the
    section of the items under it. Returns (section, item) pairs in order."""
    items: list[tuple[str | None, str]] = []
    section: str | None = None
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            items.append((section, " ".join(paragraph)))
            paragraph.clear()

    for raw_line in text.splitlines():
        line = raw_line.strip()
        if not line:
            flush()
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            flush()
            section = next(g for g in heading.groups() if g is not None).strip()
            continue
        bullet = _BULLET.match(line)
        if bullet is not None:
            flush()
            items.append((section, bullet.group(1).strip()))
            continue
        paragraph.append(line)
    flush()
    return items


# --------------------------------------------------------------------------------------------
# The reader
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Segment:
    """One PAM message cut from a Claude message: consecutive blocks of one kind."""

    role: str
    is_thought: bool = False
    texts: list[str] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, Any]] = field(default_factory=list)
    blocks: list[dict[str, Any]] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.texts or self.tool_calls or self.citations or self.blocks)


@dataclass(slots=True)
class _Reader(ExportReader):
    files: dict[str, Entry]
    #: account uuid → full name, from users.json (participants' names)
    names: dict[str, str] = field(default_factory=dict)
    #: project uuid → (name, updated or created time), from projects.json
    projects: dict[str, tuple[str | None, datetime | None]] = field(default_factory=dict)

    def records(self) -> Iterator[ImportRecord]:
        users = self._users()  # small; names are needed for conversation participants
        if "conversations.json" in self.files:
            yield from self._conversations(self.files["conversations.json"])
        if "projects.json" in self.files:
            yield from self._projects(self.files["projects.json"])
        for key, content, meta in users:
            user = meta["raw_metadata"].get("uuid")
            memory = self.memories.build(key, "identity", content, None, None, user, meta)
            if memory is not None:
                yield ImportedMemory(memory)
        if "memories.json" in self.files:
            yield from self._memories(self.files["memories.json"])

    # ---- users.json ------------------------------------------------------------------------

    def _users(self) -> list[tuple[tuple[str, ...], str, dict[str, Any]]]:
        """users.json: one identity memory per user (built once the export's latest time is
        known, since users.json carries none)."""
        entry = self.files.get("users.json")
        out: list[tuple[tuple[str, ...], str, dict[str, Any]]] = []
        if entry is None:
            return out
        for index, item in _records(entry, "user", self.progress):
            where = f"{entry.display}: user {index}"
            user = as_object(item, where, "user")
            uuid = text_field(user, "uuid", where) or ""
            name = text_field(user, "full_name", where)
            email = text_field(user, "email_address", where)
            if name:
                self.names[uuid] = name
            content = f"Name: {name}" if name else (f"Email address: {email}" if email else "")
            if not content:
                self.context.warnings.append(f"{where}: no name or email address; not imported")
                continue
            meta = {"source_entry": "users.json", "raw_metadata": dict(user)}
            out.append((("user", uuid, content_hash(content)), content, meta))
        return out

    # ---- conversations.json ----------------------------------------------------------------

    def _conversations(self, entry: Entry) -> Iterator[ImportRecord]:
        pending: list[tuple[str, Mapping[str, Any], list[dict[str, Any]]]] = []
        previous: str | None = None
        for index, item in _records(entry, "conversation", self.progress):
            where = f"{entry.display}: conversation {index}"
            record = as_object(item, where, "conversation")
            uuid = text_field(record, "uuid", where)
            if uuid:
                where += f" (uuid {uuid})"
            else:
                raise ImportFormatError(where, "field 'uuid': missing (every conversation has one)")
            messages, first_time = self._messages(record, uuid, where)
            created = iso_field(record, "created_at", where)
            updated = iso_field(record, "updated_at", where)
            self.memories.seen(updated or created)
            start = created or first_time or updated
            if start is None:
                if previous is None:  # wait for the next conversation that has a time
                    pending.append((where, record, messages))
                    continue
                start_text = previous
            else:
                start_text = rfc3339(start)
                for p_where, p_record, p_messages in pending:
                    yield self._conversation(p_where, p_record, p_messages, start_text, None)
                pending.clear()
            previous = start_text
            yield self._conversation(where, record, messages, start_text, updated)
        if pending:
            raise ImportFormatError(
                pending[0][0],
                "no timestamp anywhere (created_at, updated_at, messages) in this or any "
                "other conversation of the file",
            )

    def _conversation(
        self,
        where: str,
        record: Mapping[str, Any],
        messages: list[dict[str, Any]],
        created: str,
        updated: datetime | None,
    ) -> ImportRecord:
        uuid = str(record["uuid"])
        for message in messages:  # messages with no time of their own (and no neighbour's)
            message.setdefault("created_at", created)
        raw = _rest(record, _CONVERSATION_FIELDS)
        account_id: str | None = None
        if record.get("account") is not None:
            account = as_object(record["account"], where, "field 'account'")
            account_id = text_field(account, "uuid", where)
            if _rest(account, {"uuid"}):
                raw["account"] = _rest(account, {"uuid"})
        roles = {m["role"] for m in messages}
        participants: list[dict[str, Any]] = []
        for role in ("user", "assistant", "system", "tool"):
            if role in roles:
                who: dict[str, Any] = {"role": role}
                if role == "user" and account_id:
                    who["provider_id"] = account_id
                    if account_id in self.names:
                        who["name"] = self.names[account_id]
                participants.append(who)
        provider: dict[str, Any] = {"name": PROVIDER, "conversation_id": uuid}
        if account_id:
            provider["account_id"] = account_id
        temporal: dict[str, Any] = {"created_at": created}
        if updated is not None:
            temporal["updated_at"] = rfc3339(updated)
        document: dict[str, Any] = {
            "schema": "portable-ai-memory-conversation",
            "schema_version": SCHEMA_VERSION,
            "id": stable_id(PROVIDER, "conversation", uuid),
            "provider": provider,
            "title": text_field(record, "name", where) or None,
            "temporal": temporal,
            "participants": participants,
            "messages": messages,
        }
        model = record.get("model")
        if isinstance(model, str) and model:
            document["model"] = model
        elif model is not None:
            raw["model"] = model
        if raw:
            document["raw_metadata"] = raw
        document["import_metadata"] = self.context.import_metadata(self.importer)
        return ImportedConversation(document)

    def _messages(
        self, record: Mapping[str, Any], conversation: str, where: str
    ) -> tuple[list[dict[str, Any]], datetime | None]:
        """The conversation's PAM messages, and the time of the first one that has one.
        A message without a time takes its previous neighbour's, else its next one's; those
        with no neighbour's either get the conversation's time later (`_conversation`)."""
        out: list[dict[str, Any]] = []
        times: list[datetime | None] = []
        for index, item in enumerate(array_field(record, "chat_messages", where)):
            m_where = f"{where}: message {index}"
            message = as_object(item, m_where, "message")
            if isinstance(message.get("uuid"), str):
                m_where += f" (uuid {message['uuid']})"
            moment = iso_field(message, "created_at", m_where)
            for part in self._split(message, conversation, index, m_where):
                out.append(part)
                times.append(moment)
        known = [t for t in times if t is not None]
        previous: datetime | None = None
        for position, (message, moment) in enumerate(zip(out, times, strict=True)):
            if moment is None:
                later = next((t for t in times[position:] if t is not None), None)
                moment = previous or later
            if moment is not None:
                message["created_at"] = rfc3339(moment)
                previous = moment
        return out, (known[0] if known else None)

    def _split(
        self, message: Mapping[str, Any], conversation: str, index: int, where: str
    ) -> list[dict[str, Any]]:
        sender = text_field(message, "sender", where)
        if sender is None or sender.lower() not in _ROLES:
            raise ImportFormatError(
                where, f"field 'sender': expected 'human' or 'assistant', found {sender!r}"
            )
        role = _ROLES[sender.lower()]
        uuid = text_field(message, "uuid", where) or f"#{index}"
        blocks = array_field(message, "content", where)
        segments = self._segments(blocks, role, where)
        text = text_field(message, "text", where)
        block_text = "\n\n".join(t for s in segments if not s.is_thought for t in s.texts)
        raw = _rest(message, _MESSAGE_FIELDS)
        if sender not in ("human", "assistant"):
            raw["sender"] = sender
        if not blocks:
            segments = [_Segment(role, texts=[text] if text else [])]
        elif text and text.strip() != block_text.strip():
            raw["text"] = text  # the plain-text field says something the blocks do not
        attachments, attachment_raw = self._attachments(message, where)
        if attachment_raw:
            raw.update(attachment_raw)
        # Message-level fields go on the first visible part (the answer, not its thinking).
        home = next((i for i, s in enumerate(segments) if not s.is_thought), 0)
        out = []
        for number, segment in enumerate(segments):
            parts = (uuid,) if number == 0 else (uuid, f"part-{number}")
            pam: dict[str, Any] = {
                "id": stable_id(PROVIDER, "message", conversation, *parts),
                "provider_message_id": text_field(message, "uuid", where),
                "role": segment.role,
                "content": _content(segment.texts),
                "parent_id": None,
                "children_ids": [],
            }
            if segment.is_thought:
                pam["is_thought"] = True
            if segment.tool_calls:
                pam["tool_calls"] = segment.tool_calls
            if segment.citations:
                pam["citations"] = segment.citations
            message_raw: dict[str, Any] = {}
            if number == home:
                if attachments:
                    pam["attachments"] = attachments
                message_raw.update(raw)
            if len(segments) > 1:
                message_raw["part"] = {"index": number, "count": len(segments)}
            if segment.blocks:
                message_raw["content_blocks"] = segment.blocks
            if message_raw:
                pam["raw_metadata"] = message_raw
            out.append(pam)
        return out

    def _segments(self, blocks: list[Any], role: str, where: str) -> list[_Segment]:
        segments: list[_Segment] = []
        current = _Segment(role)
        calls: dict[str, dict[str, Any]] = {}

        def close() -> None:
            nonlocal current
            if not current.empty():
                segments.append(current)
            current = _Segment(role)

        for number, item in enumerate(blocks):
            b_where = f"{where}: content block {number}"
            block = as_object(item, b_where, "content block")
            block_type = text_field(block, "type", b_where)
            if block_type == "text":
                current.texts.append(text_field(block, "text", b_where) or "")
                current.blocks.append(_rest(block, {"text"}))
                for cite in array_field(block, "citations", b_where):
                    current.citations.append(_citation(as_object(cite, b_where, "citation")))
            elif block_type == "thinking":
                close()
                thought = _Segment("assistant", is_thought=True)
                thought.texts.append(text_field(block, "thinking", b_where) or "")
                thought.blocks.append(_rest(block, {"thinking"}))
                segments.append(thought)
            elif block_type == "tool_use":
                name = text_field(block, "name", b_where)
                if not name:
                    raise ImportFormatError(
                        b_where, "field 'name': a tool_use block names its tool"
                    )
                call: dict[str, Any] = {"id": text_field(block, "id", b_where), "name": name}
                tool_input = block.get("input")
                if tool_input is None or isinstance(tool_input, Mapping | str):
                    call["input"] = tool_input
                    rest = _rest(block, {"id", "name", "input"})
                else:  # PAM takes an object or a string: the odd value stays in raw_metadata
                    rest = _rest(block, {"id", "name"})
                current.tool_calls.append(call)
                current.blocks.append(rest)
                if call["id"]:
                    calls[call["id"]] = call
            elif block_type == "tool_result":
                close()
                segments.append(self._tool_result(block, b_where, calls))
            else:  # token_budget and blocks PAM has no home for: kept, in order
                current.blocks.append(dict(block))
        close()
        return segments

    def _tool_result(
        self, block: Mapping[str, Any], where: str, calls: Mapping[str, dict[str, Any]]
    ) -> _Segment:
        segment = _Segment("tool")
        content = block.get("content")
        items = content if isinstance(content, list) else []
        rest_items: list[Any] = []
        for item in items:
            if isinstance(item, Mapping) and item.get("type") == "text":
                segment.texts.append(text_field(item, "text", where) or "")
                rest_items.append(_rest(item, {"text"}))
            elif isinstance(item, Mapping) and item.get("type") == "knowledge":
                segment.citations.append(_citation(item, snippet="text"))
                rest_items.append(_rest(item, {"title", "url", "text"}))
            else:
                rest_items.append(item)
        rest = _rest(block, {"content"})
        if isinstance(content, str):
            segment.texts.append(content)
        elif isinstance(content, list):
            rest["content"] = rest_items
        elif content is not None:
            rest["content"] = content
        segment.blocks.append(rest)
        call = calls.get(str(block.get("tool_use_id")))
        if call is not None and segment.texts:
            call["output"] = "\n\n".join(segment.texts)
        return segment

    def _attachments(
        self, message: Mapping[str, Any], where: str
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """`attachments` (pasted or uploaded text, with its extracted content) and `files`
        (uploads referenced by uuid), merged into PAM attachments (importer-mappings §2).
        What PAM's Attachment has no member for (extracted_content…) stays in raw_metadata,
        index-aligned with the provider's arrays."""
        out: list[dict[str, Any]] = []
        raw: dict[str, Any] = {}
        for key in ("attachments", "files"):
            rests = []
            for number, item in enumerate(array_field(message, key, where)):
                a_where = f"{where}: {key} {number}"
                record = as_object(item, a_where, key[:-1])
                name = text_field(record, "file_name", a_where)
                declared = record.get("file_type")
                mime = declared if isinstance(declared, str) and "/" in declared else None
                file_kind = text_field(record, "file_kind", a_where)
                attachment: dict[str, Any] = {
                    "type": _attachment_type(
                        mime, file_kind or text_field(record, "file_type", a_where)
                    ),
                    "name": name,
                    "mime_type": mime,
                }
                used = {"file_name"} | ({"file_type"} if mime else set())
                size = record.get("file_size")
                if isinstance(size, int) and not isinstance(size, bool) and size >= 0:
                    attachment["size_bytes"] = size
                    used.add("file_size")
                provider_id = record.get("file_uuid") or record.get("id")
                if isinstance(provider_id, str):
                    attachment["provider_id"] = provider_id
                    used.add("file_uuid" if "file_uuid" in record else "id")
                out.append(attachment)
                rests.append(_rest(record, used))
            if any(rests):
                raw[key] = rests
        return out, raw

    # ---- projects.json ---------------------------------------------------------------------

    def _projects(self, entry: Entry) -> Iterator[ImportRecord]:
        for index, item in _records(entry, "project", self.progress):
            where = f"{entry.display}: project {index}"
            project = as_object(item, where, "project")
            uuid = text_field(project, "uuid", where) or f"#{index}"
            name = text_field(project, "name", where)
            description = text_field(project, "description", where)
            created = iso_field(project, "created_at", where)
            updated = iso_field(project, "updated_at", where)
            self.projects[uuid] = (name, updated or created)
            self.memories.seen(updated or created)
            creator = project.get("creator")
            user = text_field(creator, "uuid", where) if isinstance(creator, Mapping) else None
            meta = {
                "source_entry": "projects.json",
                "project_uuid": uuid,
                "raw_metadata": _rest(
                    project, {"uuid", "name", "description", "created_at", "updated_at"}
                ),
            }
            content = ": ".join(t for t in (name, description) if t)
            memory = self.memories.build(
                ("project", uuid, content_hash(content)),
                "project",
                content,
                created,
                updated,
                user,
                meta,
                summary=name,
            )
            if memory is not None and _stock_project(project, name):
                # Claude's example project says nothing about the person: kept (imports are
                # lossless) but archived and tagged, so recall and exports leave it out.
                memory["status"] = "archived"
                memory["tags"] = ["provider-boilerplate"]
            if content and memory is not None:
                yield ImportedMemory(memory)
            instructions = text_field(project, "prompt_template", where)
            if instructions:
                meta = {"source_entry": "projects.json", "project_uuid": uuid}
                memory = self.memories.project_instructions(
                    uuid, instructions, name, created, updated, user, meta
                )
                if memory is not None:
                    yield ImportedMemory(memory)

    # ---- memories.json ---------------------------------------------------------------------

    def _memories(self, entry: Entry) -> Iterator[ImportRecord]:
        for index, item in _records(entry, "memory record", self.progress):
            where = f"{entry.display}: record {index}"
            record = as_object(item, where, "memory record")
            account = text_field(record, "account_uuid", where)
            extra = _rest(record, {"conversations_memory", "project_memories", "account_uuid"})
            text = text_field(record, "conversations_memory", where)
            for section, item_text in split_memory_text(text or ""):
                meta: dict[str, Any] = {"source_entry": "memories.json"}
                if section is not None:
                    meta["section"] = section
                if extra:
                    meta["raw_metadata"] = extra
                tags = [slug(section)] if section and slug(section) else []
                memory = self.memories.build(
                    ("conversations_memory", account or "", content_hash(item_text)),
                    "context",
                    item_text,
                    None,
                    None,
                    account,
                    meta,
                    tags=tags,
                )
                if memory is not None:
                    yield ImportedMemory(memory)
            projects = record.get("project_memories")
            if projects is None:
                continue
            for uuid, value in as_object(projects, where, "field 'project_memories'").items():
                p_where = f"{where}: project_memories[{uuid!r}]"
                if not isinstance(value, str):
                    raise ImportFormatError(p_where, f"expected a string, found {kind(value)}")
                if not value.strip():
                    self.context.warnings.append(f"{p_where}: empty; not imported")
                    continue
                name, moment = self.projects.get(uuid, (None, None))
                meta = {"source_entry": "memories.json", "project_uuid": uuid}
                if name:
                    meta["project_name"] = name
                memory = self.memories.build(
                    ("project_memory", uuid, content_hash(value)),
                    "project",
                    value,
                    moment,
                    None,
                    account,
                    meta,
                    summary=name,
                )
                if memory is not None:
                    yield ImportedMemory(memory)


def _content(texts: list[str]) -> dict[str, Any]:
    if len(texts) <= 1:
        return {"type": "text", "text": texts[0] if texts else ""}
    return {"type": "multipart", "parts": [{"type": "text", "text": t} for t in texts]}


def _citation(record: Mapping[str, Any], snippet: str = "cited_text") -> dict[str, Any]:
    """A Claude citation or search result as a PAM Citation (title, url, snippet); the
    record itself also stays in the block kept in raw_metadata."""
    details = record.get("details")
    source = details if isinstance(details, Mapping) else record
    title = source.get("title", record.get("title"))
    text = record.get(snippet)
    return {
        "title": title if isinstance(title, str) else None,
        "url": _uri(source.get("url", record.get("url"))),
        "snippet": text if isinstance(text, str) else None,
    }
