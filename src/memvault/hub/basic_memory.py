"""basic-memory Markdown notes, both directions: a folder a person can browse in Obsidian.

A note is a Markdown file with YAML frontmatter (``title``, ``type``, ``permalink``,
``tags``, ``created``, ``modified``, any other key), observations ``- [category] content
#tag (context)`` and relations ``- relation_type [[Target]] (context)``, anywhere in the body.

Import (docs/formats.md): each observation becomes a memory (content as written, tags inside
it; the inline ``#tags`` and the note's tags as PAM tags; the category says the type —
``preference``, ``fact``, ``skill``/``expertise``, ``goal``, ``decision``/``instruction``, or a
PAM type's own name — else a custom type named after it; the ``(context)`` in metadata).
Each note also becomes an *anchor* memory (content: its title; ``project`` notes → project,
``person`` → relationship, else context) keeping the note's frontmatter, permalink, path and
prose in metadata. A relation becomes a PAM relation between the two notes' anchors
(``related_to`` unless its label is a PAM relation type), the label kept in the source
anchor's metadata. Times: ``created``/``modified`` (a time without an offset is read as UTC),
else the file's modification time.

Export: memories read from notes go back to their own note (path, frontmatter, prose,
observation order, labelled relations); other memories are grouped into one note per type,
``memvault/<type>.md``, one observation each, their tags as ``#tags``, and relations between
memories of different notes as relation lines. Each note's frontmatter key ``pam`` lists the
observations' PAM fields (JSON in YAML flow form). Only active memories are written.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Final

from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.memory_text import guess_type
from memvault.sources import Target

from .base import (
    PAM_TYPES,
    RELATION_TYPES,
    RESIDUE,
    Encoded,
    Exporter,
    Records,
    Tally,
    check_size,
    memory_id,
    pam_memory,
    relation,
    residue,
    restore,
    tag,
    tags_of,
    text_of,
    time_text,
    utc_text,
)
from .reading import HubImporter, HubRead

NAME: Final = "basic-memory"
#: The note format of basicmachines-co/basic-memory `docs/NOTE-FORMAT.md`.
VERSION: Final = "1"
META: Final = "basic-memory"
MAX_NOTES: Final = 20_000
MAX_FRONTMATTER: Final = 64 << 10
_FRONT: Final = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_OBSERVATION: Final = re.compile(r"^\s*[-*]\s+\[([^\[\]()]+)\]\s+(\S.*?)\s*$")
_RELATION: Final = re.compile(
    r"""^\s*[-*]\s+("[^"]+"|'[^']+'|[^\s\[\]]+)\s+\[\[([^\[\]]+)\]\](?:\s*\(([^()]*)\))?\s*$"""
)
_TAGGED: Final = re.compile(r"^\s*[-*]\s+(?!\[)(\S.*#\S.*?)\s*$")
_CONTEXT: Final = re.compile(r"^(.*?)\s*\(([^()]*)\)$")
_HASHTAG: Final = re.compile(r"(?<!\S)#([^\s#]+(?:#[^\s#]+)*)")
_CHECKBOX: Final = frozenset({" ", "x", "X", "-", "/", ">", "?"})
_TIMESTAMP: Final = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")
CATEGORY_TYPES: Final = {
    "preference": "preference", "fact": "fact", "skill": "skill", "expertise": "skill",
    "goal": "goal", "decision": "instruction", "instruction": "instruction",
}  # fmt: skip
_ENTITY_TYPES: Final = {"project": "project", "person": "relationship", "people": "relationship"}


# -- notes -------------------------------------------------------------------------------------


def _yaml_frontmatter(text: str, where: str) -> dict[str, Any]:
    """YAML frontmatter with PyYAML's safe loader, refusing aliases (no expansion bombs),
    deep nesting and anything past `MAX_FRONTMATTER`."""
    if len(text) > MAX_FRONTMATTER:
        raise ImportFormatError(where, f"frontmatter longer than {MAX_FRONTMATTER} bytes")
    yaml = importlib.import_module("yaml")

    class _Loader(yaml.SafeLoader):  # type: ignore[name-defined,misc]
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise ImportFormatError(where, "frontmatter: YAML aliases are not accepted")
            return super().compose_node(parent, index)

    try:
        value = yaml.load(text, Loader=_Loader)
    except RecursionError:
        raise ImportFormatError(where, "frontmatter nested too deeply") from None
    except yaml.YAMLError as exc:
        raise ImportFormatError(where, f"frontmatter is not YAML ({exc})") from None
    except ImportFormatError:
        raise
    except (ValueError, OverflowError) as exc:  # a date or time out of range: 2026-13-01
        raise ImportFormatError(where, f"frontmatter holds an impossible date ({exc})") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ImportFormatError(where, "frontmatter: expected a mapping")
    return {str(k): _plain(v) for k, v in value.items()}


def _plain(value: Any) -> Any:
    """YAML values as JSON values (dates as ISO text, as basic-memory normalises them)."""
    if isinstance(value, datetime):
        return value.isoformat()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@dataclass(slots=True)
class Note:
    path: str
    frontmatter: dict[str, Any]
    body: str
    mtime: str | None = None
    title: str = ""
    permalink: str = ""
    observations: list[tuple[str, str, str | None]] = field(default_factory=list)
    relations: list[tuple[str, str, str | None]] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)


def permalink_of(path: str) -> str:
    """A permalink from a note's path, by basic-memory's rules (lower case, ``-`` for what
    is not ``[a-z0-9/.-]``, runs collapsed, the extension dropped)."""
    stem = path[:-3] if path.lower().endswith(".md") else path
    stem = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", stem).lower().replace("_", "-")
    cleaned = re.sub(r"[^a-z0-9/.\-]+", "-", stem.replace("'", ""))
    return "/".join(p.strip("-") for p in re.sub(r"-+", "-", cleaned).split("/"))


def parse_note(path: str, text: str, where: str, mtime: str | None = None) -> Note:
    match = _FRONT.match(text)
    front = _yaml_frontmatter(match.group(1), where) if match else {}
    body = text[match.end() :] if match else text
    note = Note(path, front, body, mtime)
    stem = PurePosixPath(path).stem
    note.title = str(front.get("title") or stem)
    note.permalink = str(front.get("permalink") or permalink_of(path))
    for line in body.split("\n"):
        found = _OBSERVATION.match(line)
        if found and found.group(1) not in _CHECKBOX and not _TIMESTAMP.match(found.group(1)):
            content, context = _split_context(found.group(2))
            note.observations.append((found.group(1).strip(), content, context))
            continue
        linked = _RELATION.match(line)
        if linked:
            label = linked.group(1).strip("\"'")
            note.relations.append((label, linked.group(2).strip(), linked.group(3)))
            continue
        tagged = _TAGGED.match(line)
        if tagged and "[[" not in line and not re.search(r"\[[^\]]*\]\(", line):
            content, context = _split_context(tagged.group(1))
            note.observations.append(("Note", content, context))
            continue
        note.prose.append(line)
    return note


def _split_context(text: str) -> tuple[str, str | None]:
    found = _CONTEXT.match(text)
    if found and found.group(1):
        return found.group(1), found.group(2)
    return text, None


def _hashtags(content: str) -> list[str]:
    out: list[str] = []
    for token in _HASHTAG.findall(content):
        out.extend(t for t in token.split("#") if t)
    return out


# -- reading a folder ------------------------------------------------------------------------


def _folder_notes(root: Path, where: str) -> list[tuple[str, bytes, str | None]]:
    notes: list[tuple[str, bytes, str | None]] = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink() or not path.is_file():
            continue
        if len(notes) >= MAX_NOTES:
            raise ImportFormatError(where, f"more than {MAX_NOTES} notes")
        stat = path.stat()
        check_size(stat.st_size, f"{where}/{rel}")
        mtime = utc_text(datetime.fromtimestamp(stat.st_mtime, UTC))
        notes.append((rel, path.read_bytes(), mtime))
    return notes


def _target_notes(target: Target) -> list[tuple[str, bytes, str | None]]:
    if target.kind == "directory":
        return _folder_notes(target.path, str(target.path))
    notes: list[tuple[str, bytes, str | None]] = []
    for entry in target.entries:
        if not entry.name.lower().endswith(".md"):
            continue
        check_size(entry.size, entry.display)
        with entry.open() as buf:
            notes.append((entry.name, bytes(buf), None))
    return notes


def _looks_like_note(data: bytes) -> bool:
    head = data[:4096].decode("utf-8", "replace")
    match = _FRONT.match(head)
    if match is None:
        return False
    keys = {line.split(":", 1)[0].strip() for line in match.group(1).splitlines() if ":" in line}
    return "permalink" in keys or {"title", "type"} <= keys


class BasicMemoryImporter(HubImporter):
    id = ImporterId(NAME, VERSION)
    name = NAME

    def sniff(self, target: Target) -> bool:
        """Markdown notes with basic-memory frontmatter (``permalink``, or ``title`` and
        ``type``): a .md file, a folder of them, or a zip of one (the first 50 notes looked
        at)."""
        if target.kind == "directory":
            for count, path in enumerate(sorted(target.path.rglob("*.md"))):
                if count >= 50:
                    break
                if path.is_file() and not path.is_symlink():
                    with path.open("rb") as handle:
                        if _looks_like_note(handle.read(4096)):
                            return True
            return False
        for entry in target.entries[:200]:
            if entry.name.lower().endswith(".md"):
                with entry.stream() as stream:
                    if _looks_like_note(stream.read(4096)):
                        return True
        return False

    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        notes = []
        for path, data, mtime in _target_notes(target):
            where = f"{target.path}/{path}" if target.kind != "file" else str(target.path)
            notes.append(parse_note(path, text_of(data, where), where, mtime))
        if not notes:
            raise ImportFormatError(str(target.path), "no Markdown notes (.md) found")
        return read_notes(notes, context.imported_at, self.tally())


def _note_time(note: Note, key: str) -> str | None:
    value = note.frontmatter.get(key)
    return time_text(value) if value is not None else None


def read_notes(notes: Sequence[Note], now: str, tally: Tally) -> HubRead:
    memories: list[dict[str, Any]] = []
    relations: list[dict[str, Any]] = []
    anchors: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for note in notes:
        kept = note.frontmatter.get(RESIDUE)
        created = _note_time(note, "created") or note.mtime or now
        updated = _note_time(note, "modified")
        time_source = "frontmatter" if note.frontmatter.get("created") else (
            "file" if note.mtime else "import"
        )  # fmt: skip
        anchor_kept = kept.get("anchor") if isinstance(kept, Mapping) else None
        observation_kept = kept.get("observations") if isinstance(kept, Mapping) else None
        raw_tags = note.frontmatter.get("tags") or []
        if isinstance(raw_tags, str):
            raw_tags = [t.strip() for t in raw_tags.split(",")]
        note_tags = [str(t) for t in raw_tags if t is not None]
        front = {k: v for k, v in note.frontmatter.items() if k != RESIDUE}
        entity_type = str(note.frontmatter.get("type") or "note")
        meta: dict[str, Any] = {
            "role": "anchor", "path": note.path, "title": note.title,
            "permalink": note.permalink, "frontmatter": front, "prose": "\n".join(note.prose),
            "relations": [], "time_source": time_source,
        }  # fmt: skip
        anchor = restore(note.title, anchor_kept, f"{note.path}: frontmatter.pam.anchor")
        if anchor is None and kept is None:
            anchor = pam_memory(
                note.title,
                id=memory_id(NAME, "note", note.permalink),
                type=_ENTITY_TYPES.get(entity_type.lower(), "context"),
                created_at=created,
                updated_at=updated,
                platform=NAME,
                extraction_method="manual",
                extracted_at=now,
                tags=tags_of(note_tags),
                metadata={META: meta},
            )
            tally.mapped["notes"] += 1
            tally.metadata["note frontmatter, path and prose"] += 1
        elif anchor is not None:
            tally.mapped["memories (from their residue)"] += 1
        if anchor is not None:
            memories.append(anchor)
            anchors[note.permalink] = anchor
            names[note.title] = names[note.permalink] = note.permalink
        for index, (category, content, context) in enumerate(note.observations):
            one = (
                observation_kept[index]
                if isinstance(observation_kept, list) and index < len(observation_kept)
                else None
            )
            if isinstance(one, Mapping):
                exact = one.get("content")
                restored = restore(
                    exact if isinstance(exact, str) else content,
                    one.get("memory"),
                    f"{note.path}: frontmatter.pam.observations[{index}]",
                )
                if restored is not None:
                    memories.append(restored)
                    tally.mapped["memories (from their residue)"] += 1
                    continue
            declared = category.lower()
            kind = CATEGORY_TYPES.get(declared) or (
                declared if declared in PAM_TYPES and declared != "custom" else None
            )
            om: dict[str, Any] = {"role": "observation", "note": note.permalink,
                                  "category": category, "index": index}  # fmt: skip
            if context is not None:
                om["context"] = context
                tally.metadata["observation context"] += 1
            memories.append(
                pam_memory(
                    content,
                    id=memory_id(NAME, "observation", note.permalink, str(index), content),
                    type=kind or ("custom" if category != "Note" else guess_type(content)),
                    custom_type=tag(category) if kind is None and category != "Note" else None,
                    created_at=created,
                    updated_at=updated,
                    platform=NAME,
                    extraction_method="manual",
                    extracted_at=now,
                    tags=tags_of([*_hashtags(content), *note_tags]),
                    metadata={META: om},
                )
            )
            tally.mapped["observations"] += 1
    for note in notes:
        source = anchors.get(note.permalink)
        for label, target_name, context in note.relations:
            target = names.get(target_name) or names.get(target_name.replace("::", "/"))
            held = source.get("metadata", {}).get(META) if source is not None else None
            if isinstance(held, dict) and held.get("role") == "anchor":
                entry: dict[str, Any] = {"type": label, "target": target_name}
                if context is not None:
                    entry["context"] = context
                held["relations"].append(entry)
                tally.metadata["relation labels"] += 1
            if source is None and isinstance(note.frontmatter.get(RESIDUE), Mapping):
                continue  # a note memvault grouped: its residue holds the relations
            if source is None or target is None or anchors[target]["id"] == source["id"]:
                tally.lost["relations to notes not in the folder (label kept)"] += 1
                continue
            kind = label if label in RELATION_TYPES else "related_to"
            relations.append(
                relation(
                    source["id"], anchors[target]["id"], kind, source["temporal"]["created_at"]
                )
            )
            tally.mapped["relations"] += 1
        kept = note.frontmatter.get(RESIDUE)
        for item in (kept.get("relations") or []) if isinstance(kept, Mapping) else []:
            if isinstance(item, Mapping):
                relations.append(dict(item))
                tally.mapped["relations (from their residue)"] += 1
    return HubRead(memories, relations, tally)


# -- export --------------------------------------------------------------------------------------


def _flow(value: Any) -> str:
    """A YAML value in flow form: JSON, which YAML 1.2 reads as it is."""
    return json.dumps(value, ensure_ascii=False)


def _safe_path(path: str) -> str:
    parts = [re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "-", p).strip(" .") for p in path.split("/")]
    cleaned = "/".join(p for p in parts if p and p != "..")
    return cleaned if cleaned.lower().endswith(".md") else cleaned + ".md"


def _meta(memory: Mapping[str, Any]) -> Mapping[str, Any] | None:
    metadata = memory.get("metadata")
    meta = metadata.get(META) if isinstance(metadata, Mapping) else None
    return meta if isinstance(meta, Mapping) else None


@dataclass(slots=True)
class _Out:
    path: str
    title: str
    front: dict[str, Any]
    prose: str = ""
    anchor: dict[str, Any] | None = None
    observations: list[tuple[int, str, Mapping[str, Any]]] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    extra_relations: list[dict[str, Any]] = field(default_factory=list)


def note_files(
    memories: Sequence[Mapping[str, Any]], relations: Sequence[Mapping[str, Any]], tally: Tally
) -> dict[str, str]:
    """The notes' text by relative path (module docstring)."""
    notes: dict[str, _Out] = {}
    note_of: dict[str, str] = {}
    by_permalink: dict[str, str] = {}
    active = [m for m in memories if m.get("status", "active") == "active"]
    if len(active) != len(memories):
        tally.lost["memories not active (notes have no status)"] += len(memories) - len(active)
    for memory in active:
        meta = _meta(memory)
        if meta is not None and meta.get("role") == "anchor":
            path = _safe_path(str(meta.get("path") or meta.get("title") or memory["content"]))
            out = notes.setdefault(path, _Out(path, str(memory["content"]), {}))
            front = meta.get("frontmatter")
            out.front = dict(front) if isinstance(front, Mapping) else {}
            out.prose = str(meta.get("prose") or "")
            out.anchor = residue(memory)
            out.relations = [
                f"- {_label(r.get('type'))} [[{r.get('target')}]]"
                + (f" ({r['context']})" if r.get("context") else "")
                for r in meta.get("relations") or []
                if isinstance(r, Mapping)
            ]
            by_permalink[str(meta.get("permalink"))] = path
            note_of[str(memory["id"])] = path
    for memory in active:
        meta = _meta(memory)
        if meta is not None and meta.get("role") == "anchor":
            continue
        if (
            meta is not None
            and meta.get("role") == "observation"
            and meta.get("note") in by_permalink
        ):
            path = by_permalink[str(meta["note"])]
            category = str(meta.get("category") or "Note")
            raw = meta.get("index")
            index = raw if isinstance(raw, int) else 1 << 30
            context = meta.get("context")
        else:
            kind = str(memory.get("custom_type") or memory["type"])
            path = f"memvault/{kind}.md"
            notes.setdefault(path, _Out(path, f"Memories: {kind}", {"type": "memvault-memories"}))
            category, index, context = kind, 1 << 30, None
            if meta is not None and meta.get("role") == "observation":
                # an observation whose note did not come along keeps its category and context
                category = str(meta.get("category") or kind)
                context = meta.get("context")
        notes[path].observations.append((index, category, {"memory": memory, "context": context}))
        note_of[str(memory["id"])] = path
        tally.mapped["memories"] += 1
        tally.metadata["PAM fields (in the frontmatter's pam)"] += 1
    for rel in relations:
        source, target = note_of.get(str(rel.get("from"))), note_of.get(str(rel.get("to")))
        if source is None or target is None:
            tally.lost["relations to memories not exported"] += 1
            continue
        notes[source].extra_relations.append(dict(rel))
        tally.mapped["relations"] += 1
        if source != target and notes[source].anchor is None:
            line = f"- {_label(rel.get('type'))} [[{notes[target].title}]]"
            if line not in notes[source].relations:
                notes[source].relations.append(line)
    return {path: _render(out) for path, out in notes.items()}


def _label(value: object) -> str:
    text = str(value)
    return text if re.fullmatch(r"[^\s\[\]\"']+", text) else f'"{text}"'


def _render(out: _Out) -> str:
    observations = sorted(out.observations, key=lambda item: item[0])
    lines, kept = [], []
    for _index, category, item in observations:
        memory = item["memory"]
        content = str(memory["content"])
        tags = [t for t in memory.get("tags") or [] if f"#{t}" not in content]
        line = " ".join(content.split())
        if tags and _meta(memory) is None:
            line += " " + " ".join(f"#{t}" for t in tags)
        if item["context"]:
            line += f" ({item['context']})"
        # "- [x] …" is a ticked task, "- [12:30] …" a time: such a category is written with a
        # space inside its brackets, which readers strip, so the line stays an observation.
        unreadable = category in _CHECKBOX or _TIMESTAMP.match(category)
        written = f"{category} " if unreadable else category
        parsed = _OBSERVATION.match(f"- [{written}] {line}")
        one: dict[str, Any] = {"memory": residue(memory)}
        if parsed is None or _split_context(parsed.group(2))[0] != content:
            one["content"] = content  # the line cannot hold it exactly
        lines.append(f"- [{written}] {line}")
        kept.append(one)
    front = dict(out.front)
    front.setdefault("title", out.title)
    front.setdefault("type", "note")
    pam: dict[str, Any] = {"anchor": out.anchor, "observations": kept}
    relations = list(out.extra_relations)
    if relations:
        pam["relations"] = relations
    front[RESIDUE] = pam
    head = ["---"]
    for key in ("title", "type", "permalink"):
        if key in front:
            head.append(f"{key}: {_flow(front.pop(key))}")
    head.extend(f"{key}: {_flow(value)}" for key, value in front.items())
    head.append("---")
    body = out.prose.strip("\n") if out.prose.strip() else f"# {out.title}"
    # Observations and relations go under their customary headings when the prose has them.
    for heading, block in (("## Observations", lines), ("## Relations", out.relations)):
        if not block:
            continue
        found = re.search(rf"^{heading}[ \t]*$", body, re.M)
        if found is not None:
            body = body[: found.end()] + "\n" + "\n".join(block) + body[found.end() :]
        else:
            body += "\n\n" + "\n".join(block)
    return "\n".join(head) + "\n\n" + body + "\n"


def _encode(memories: Records, relations: Records, now: datetime, tally: Tally) -> Encoded:
    files = note_files(memories, relations, tally)
    return {path: text.encode() for path, text in files.items()}


IMPORTER: Final = BasicMemoryImporter()
EXPORTER: Final = Exporter(NAME, VERSION, _encode)
