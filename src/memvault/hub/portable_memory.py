"""MacPaw Portable Memory ``.mem`` bundles, format 1.1.0, both directions.

A bundle is a directory (or a zip of one): ``manifest.json``, ``items/<kind>.jsonl``,
``audit/tombstones.jsonl`` and ``CHECKSUMS``, every record in the format's Canonical JSON
(`canonical`: keys sorted by code point, no whitespace, non-ASCII raw, ECMAScript numbers,
whole-second UTC times) so checksums match byte for byte across implementations.

Import (docs/formats.md) verifies first — every file's SHA-256 and size against
``manifest.files`` and ``CHECKSUMS``, ``bundleDigest`` when present, no path escaping the
bundle, no symbolic link, no file past the size bound — and refuses the whole bundle on any
failure. Then: an episode becomes a memory (``details`` the content, ``summary`` the summary,
``ingestionTime`` created, ``eventTime`` valid from, ``expirationDate`` valid until,
``categories`` tags, ``confidence`` the confidence; everything else in ``metadata["mem"]``,
foreign members under ``ext``); an episode with ``deletedAt`` is retracted; an
``episodeLink`` becomes a PAM relation (its ``linkType`` when that is a PAM relation type,
else ``related_to``; ``weight`` the confidence; the label in the source's metadata);
``core`` blocks, ``preference`` and ``procedure`` records become memories. A tombstone is
applied first: its target is not imported, and a memory of the vault with that id is
retracted (PAM keeps retracted memories). ``secretRef`` records are never imported (they hold
no value, and their hints are not memories); other kinds are counted as not carried.

Export writes one episode per memory that is not retracted (the PAM fields in its string
``metadata`` under ``pam``, as JSON text), ``episodeLink`` records for relations, and for each
retracted memory a tombstone (``op: delete``) instead of its row. Nothing of a secret is ever
written: memvault holds no secret values, and a ``secretRef`` read in is not kept.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, Final

from memvault import __version__, jsonread
from memvault.importers.base import ImportContext, ImporterId, ImportFormatError
from memvault.importers.ids import stable_id
from memvault.importers.memory_text import guess_type
from memvault.sources import Target

from .base import (
    PAM_TYPES,
    RELATION_TYPES,
    RESIDUE,
    Encoded,
    Exporter,
    HubError,
    Records,
    Tally,
    check_size,
    pam_memory,
    parse_time,
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

NAME: Final = "mem"
VERSION: Final = "1.1.0"
META: Final = "mem"
MANIFEST: Final = "manifest.json"
CHECKSUMS: Final = "CHECKSUMS"
TOMBSTONES: Final = "audit/tombstones.jsonl"
#: Most files a bundle may hold.
MAX_FILES: Final = 10_000
#: Episode members the format defines; any other is a foreign (``ext``) member.
EPISODE_FIELDS: Final = frozenset({
    "id", "eventTime", "mentionTime", "ingestionTime", "sourceType", "sourceID", "actors",
    "summary", "details", "sensitivity", "deletedAt", "metadata", "contextID", "categories",
    "importance", "confidence", "lifecycleState", "extractionState", "lastAccessed",
    "accessCount", "pinned", "expirationDate", "vaultRefs", "speaker",
})  # fmt: skip
_UUID: Final = re.compile(r"ep_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
_SUMMARY: Final = 200


# -- Canonical JSON ------------------------------------------------------------------------------


def _number(x: float) -> str:
    """ECMAScript Number::toString (RFC 8785 §3.2.2.3): the shortest round-trip digits."""
    if math.isnan(x) or math.isinf(x):
        raise HubError("NaN and infinities have no Canonical JSON form")
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e21:
        return str(int(x))
    sign = "-" if x < 0 else ""
    mantissa, _, exponent = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        text = (digits[0] + ("." + digits[1:] if k > 1 else "")) + ("e+" if e > 0 else "e-")
        text += str(abs(e))
    return sign + text


def canonical(value: Any) -> str:
    """Portable Memory Canonical JSON (spec §1.1) of a JSON value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda item: str(item[0]))
        return "{" + ",".join(f"{canonical(str(k))}:{canonical(v)}" for k, v in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    raise HubError(f"{type(value).__name__} has no JSON form")


def jsonl(records: Sequence[Mapping[str, Any]]) -> bytes:
    return "".join(canonical(r) + "\n" for r in records).encode("utf-8")


# -- reading a bundle -------------------------------------------------------------------------


@dataclass(slots=True)
class Bundle:
    """A verified bundle: its manifest and its files' bytes by relative path."""

    manifest: dict[str, Any]
    files: dict[str, bytes]
    where: str


def _safe(path: str, where: str) -> str:
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not path or "\\" in path:
        raise ImportFormatError(where, f"path {path!r} escapes the bundle (spec §4 step 1)")
    return pure.as_posix()


def _directory_files(root: Path, where: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            raise ImportFormatError(f"{where}/{rel}", "a symbolic link in the bundle (spec §4)")
        if not path.is_file():
            continue
        if len(files) >= MAX_FILES:
            raise ImportFormatError(where, f"more than {MAX_FILES} files")
        check_size(path.stat().st_size, f"{where}/{rel}")
        files[rel] = path.read_bytes()
    return files


def _target_files(target: Target) -> tuple[dict[str, bytes], str]:
    where = str(target.path)
    if target.kind == "directory":
        return _directory_files(target.path, where), where
    if target.kind == "file" and target.path.name == MANIFEST:
        return _directory_files(target.path.parent, str(target.path.parent)), str(
            target.path.parent
        )
    if target.kind != "zip":
        raise ImportFormatError(where, "a .mem bundle is a directory or a zip of one")
    files: dict[str, bytes] = {}
    names = [e.name for e in target.entries]
    prefix = ""
    manifests = [n for n in names if n.rsplit("/", 1)[-1] == MANIFEST]
    if len(manifests) == 1 and "/" in manifests[0]:
        prefix = manifests[0].rsplit("/", 1)[0] + "/"
    for entry in target.entries:
        if not entry.name.startswith(prefix):
            continue
        check_size(entry.size, entry.display)
        with entry.open() as buf:
            files[entry.name[len(prefix) :]] = bytes(buf)
    return files, where


def verify(files: dict[str, bytes], where: str) -> Bundle:
    """The bundle's integrity (spec §1.2, §4 step 1), or ImportFormatError naming what fails."""
    raw = files.get(MANIFEST)
    if raw is None:
        raise ImportFormatError(where, "no manifest.json (not a .mem bundle)")
    manifest = jsonread.loads(raw, f"{where}/{MANIFEST}")
    if not isinstance(manifest, dict):
        raise ImportFormatError(f"{where}/{MANIFEST}", "expected a JSON object")
    version = manifest.get("format")
    if not isinstance(version, str) or not version.startswith("1."):
        raise ImportFormatError(
            f"{where}/{MANIFEST}", f"field 'format': {version!r} is not a 1.x format this reads"
        )
    listed = manifest.get("files")
    if not isinstance(listed, list):
        raise ImportFormatError(f"{where}/{MANIFEST}", "field 'files': expected a list")
    expected: dict[str, str] = {}
    for index, item in enumerate(listed):
        at = f"{where}/{MANIFEST}: files[{index}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("path"), str):
            raise ImportFormatError(at, "expected {path, sha256, bytes}")
        path = _safe(item["path"], at)
        data = files.get(path)
        if data is None:
            raise ImportFormatError(at, f"{path} is listed but not in the bundle")
        digest = hashlib.sha256(data).hexdigest()
        if digest != item.get("sha256") or len(data) != item.get("bytes"):
            raise ImportFormatError(
                f"{where}/{path}", "its SHA-256 or size differs from manifest.files (spec §1.2)"
            )
        expected[path] = digest
    sums = files.get(CHECKSUMS)
    if sums is not None:
        lines = "".join(f"{d}  {p}\n" for p, d in sorted(expected.items()))
        if sums != lines.encode():
            raise ImportFormatError(
                f"{where}/{CHECKSUMS}", "does not list exactly manifest.files (spec §1.2)"
            )
        declared = manifest.get("bundleDigest")
        if declared is not None and declared != hashlib.sha256(sums).hexdigest():
            raise ImportFormatError(
                f"{where}/{MANIFEST}", "field 'bundleDigest': not the SHA-256 of CHECKSUMS"
            )
    kept = {p: files[p] for p in expected}
    return Bundle(manifest, kept, where)


def _records(bundle: Bundle, path: str) -> list[dict[str, Any]]:
    data = bundle.files.get(path)
    if data is None:
        return []
    text = text_of(data, f"{bundle.where}/{path}")
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        at = f"{bundle.where}/{path}: line {number}"
        value = jsonread.loads(line.encode(), at)
        if not isinstance(value, dict):
            raise ImportFormatError(at, "expected a JSON object")
        out.append(value)
    return out


def pam_id(episode_id: str) -> str:
    """The PAM id of an episode: the UUID of one memvault wrote (``ep_<uuid>``), else one
    derived from the episode id."""
    match = _UUID.fullmatch(episode_id)
    return match.group(1) if match else stable_id(NAME, "memory", episode_id)


def _time(record: Mapping[str, Any], name: str, at: str, *, required: bool) -> str | None:
    value = record.get(name)
    if value is None and not required:
        return None
    text = time_text(value)
    if text is None:
        raise ImportFormatError(at, f"field '{name}': expected an RFC 3339 time")
    return text


def episode_memory(episode: Mapping[str, Any], at: str, now: str, tally: Tally) -> dict[str, Any]:
    """An episode as a PAM memory (module docstring)."""
    episode_id = episode.get("id")
    if not isinstance(episode_id, str) or not episode_id:
        raise ImportFormatError(at, "field 'id': expected a string")
    details, summary = episode.get("details"), episode.get("summary")
    if not isinstance(details, str) or not isinstance(summary, str):
        raise ImportFormatError(at, "fields 'details' and 'summary': expected strings")
    metadata = episode.get("metadata") or {}
    if not isinstance(metadata, Mapping) or not all(isinstance(v, str) for v in metadata.values()):
        raise ImportFormatError(at, "field 'metadata': expected a map of strings")
    content = details if details.strip() else summary
    if not content.strip():
        raise ImportFormatError(at, "fields 'details' and 'summary' are both empty")
    kept = metadata.get(RESIDUE)
    if isinstance(kept, str):
        try:
            residue_value = json.loads(kept)
        except ValueError:
            raise ImportFormatError(at, f"metadata.{RESIDUE}: not JSON text") from None
        restored = restore(content, residue_value, f"{at}: metadata.{RESIDUE}")
        if restored is not None:
            tally.mapped["episodes (from their residue)"] += 1
            return restored
    categories = episode.get("categories") or []
    if not isinstance(categories, list) or not all(isinstance(c, str) for c in categories):
        raise ImportFormatError(at, "field 'categories': expected a list of strings")
    created = _time(episode, "ingestionTime", at, required=True)
    assert created is not None
    event = _time(episode, "eventTime", at, required=True)
    until = _time(episode, "expirationDate", at, required=False)
    deleted = _time(episode, "deletedAt", at, required=False)
    meta: dict[str, Any] = {"id": episode_id}
    ext: dict[str, Any] = {}
    for key, value in episode.items():
        if key in ("id", "details", "ingestionTime", "eventTime", "expirationDate"):
            continue
        if key in EPISODE_FIELDS:
            meta[key] = value
        else:
            ext[key] = value
    if ext:
        meta["ext"] = ext
        tally.metadata["foreign episode members (ext)"] += len(ext)
    tally.metadata["episode fields with no PAM home"] += 1
    declared = metadata.get("pam_type")
    kind = declared if declared in PAM_TYPES and declared != "custom" else guess_type(content)
    source = tag(str(metadata.get("transfer_source", ""))) or "portable-memory"
    confidence = episode.get("confidence")
    memory = pam_memory(
        content,
        id=pam_id(episode_id),
        type=kind,
        status="retracted" if deleted else "active",
        created_at=created,
        updated_at=deleted,
        valid_from=event,
        valid_until=until,
        platform=source if re.fullmatch(r"[a-z0-9_-]{2,32}", source) else "portable-memory",
        extraction_method="api_export",
        extracted_at=now,
        tags=tags_of(categories),
        summary=summary if summary != content else None,
        confidence=confidence if isinstance(confidence, int | float) else None,
        metadata={META: meta},
    )
    tally.mapped["episodes"] += 1
    return memory


def _other_kinds(bundle: Bundle, now: str, tally: Tally) -> list[dict[str, Any]]:
    """``core``, ``preference`` and ``procedure`` records as memories; other kinds counted."""
    memories = []
    for path in sorted(bundle.files):
        if not path.startswith("items/") or not path.endswith(".jsonl"):
            continue
        kind = path[len("items/") : -len(".jsonl")]
        if kind in ("episode", "episodeLink"):
            continue
        records = _records(bundle, path)
        if kind == "secretRef":
            tally.lost["secretRef records (never imported: they are vault references)"] += len(
                records
            )
            continue
        for number, record in enumerate(records, 1):
            at = f"{bundle.where}/{path}: line {number}"
            content, memory_type = _kind_content(kind, record, at)
            if content is None:
                tally.lost[f"{kind} records"] += 1
                continue
            memories.append(
                pam_memory(
                    content,
                    id=stable_id(NAME, kind, str(record.get("id", record.get("key", content)))),
                    type=memory_type,
                    custom_type="agent_persona" if memory_type == "custom" else None,
                    created_at=time_text(record.get("createdAt")) or now,
                    platform="portable-memory",
                    extraction_method="api_export",
                    extracted_at=now,
                    metadata={META: {"kind": kind, "record": record}},
                )
            )
            tally.mapped[f"{kind} records"] += 1
    return memories


def _kind_content(kind: str, record: Mapping[str, Any], at: str) -> tuple[str | None, str]:
    if kind == "core":
        content = record.get("content")
        if not isinstance(content, str) or not content.strip():
            return None, "identity"
        return content, "custom" if record.get("id") == "persona" else "identity"
    if kind == "preference":
        key, value = record.get("key"), record.get("value")
        if not isinstance(key, str) or not isinstance(value, str):
            raise ImportFormatError(at, "fields 'key' and 'value': expected strings")
        return f"{key}: {value}", "preference"
    if kind == "procedure":
        name, steps = record.get("name"), record.get("steps")
        if not isinstance(name, str) or not isinstance(steps, list):
            raise ImportFormatError(at, "fields 'name' and 'steps': expected a string, a list")
        return f"{name}: " + "; ".join(str(s) for s in steps), "instruction"
    return None, "fact"


def read_bundle(bundle: Bundle, now: str, tally: Tally) -> HubRead:
    tombstones = _records(bundle, TOMBSTONES)
    gone: dict[str, str] = {}
    for number, tomb in enumerate(tombstones, 1):
        at = f"{bundle.where}/{TOMBSTONES}: line {number}"
        target, kind = tomb.get("targetID"), tomb.get("targetKind")
        if not isinstance(target, str) or not isinstance(kind, str):
            raise ImportFormatError(at, "fields 'targetKind' and 'targetID': expected strings")
        if kind == "episode":
            gone[target] = _time(tomb, "deletedAt", at, required=True) or now
        else:
            tally.lost["tombstones of other kinds"] += 1
    memories: list[dict[str, Any]] = []
    by_episode: dict[str, dict[str, Any]] = {}
    for number, episode in enumerate(_records(bundle, "items/episode.jsonl"), 1):
        at = f"{bundle.where}/items/episode.jsonl: line {number}"
        if episode.get("id") in gone:
            tally.lost["episodes tombstoned (not imported)"] += 1
            continue
        memory = episode_memory(episode, at, now, tally)
        memories.append(memory)
        by_episode[str(episode["id"])] = memory
    relations = []
    for number, link in enumerate(_records(bundle, "items/episodeLink.jsonl"), 1):
        at = f"{bundle.where}/items/episodeLink.jsonl: line {number}"
        source, target, kind = (
            link.get("srcEpisodeID"),
            link.get("dstEpisodeID"),
            link.get("linkType"),
        )
        if not all(isinstance(v, str) for v in (source, target, kind)):
            raise ImportFormatError(at, "srcEpisodeID, dstEpisodeID, linkType: expected strings")
        if source not in by_episode or target not in by_episode or source == target:
            tally.lost["episode links to episodes not imported"] += 1
            continue
        made = relation(by_episode[str(source)]["id"], by_episode[str(target)]["id"],
                        kind if kind in RELATION_TYPES else "related_to", now)  # fmt: skip
        weight = link.get("weight")
        if isinstance(weight, int | float) and not isinstance(weight, bool):
            made["confidence"] = min(1.0, max(0.0, float(weight)))
        meta = by_episode[str(source)].setdefault("metadata", {}).setdefault(META, {})
        if isinstance(meta, dict) and kind not in RELATION_TYPES:
            meta.setdefault("links", []).append({"to": target, "linkType": kind})
            tally.metadata["episode link types"] += 1
        relations.append(made)
        tally.mapped["episode links"] += 1
    memories.extend(_other_kinds(bundle, now, tally))
    retractions = [(pam_id(target), at) for target, at in sorted(gone.items())]
    if retractions:
        tally.mapped["tombstones (retractions)"] += len(retractions)
    return HubRead(memories, relations, tally, retractions)


class PortableMemoryImporter(HubImporter):
    id = ImporterId(NAME, VERSION)
    name = NAME

    def sniff(self, target: Target) -> bool:
        """A manifest.json whose first bytes have the format's required members."""
        for entry in target.entries:
            if entry.name.rsplit("/", 1)[-1] != MANIFEST or entry.name.count("/") > 1:
                continue
            with entry.stream() as stream:
                head = stream.read(4096)
            if b'"conformanceLevel"' in head and b'"exportMode"' in head:
                return True
        return False

    def read_all(self, target: Target, context: ImportContext) -> HubRead:
        files, where = _target_files(target)
        bundle = verify(files, where)
        return read_bundle(bundle, context.imported_at, self.tally())


# -- export --------------------------------------------------------------------------------------


def episode_id(memory: Mapping[str, Any]) -> str:
    meta = (memory.get("metadata") or {}).get(META)
    if isinstance(meta, Mapping) and isinstance(meta.get("id"), str):
        return str(meta["id"])
    return f"ep_{memory['id']}"


def _summary(memory: Mapping[str, Any]) -> str:
    summary = memory.get("summary")
    if isinstance(summary, str) and summary:
        return summary
    first = str(memory["content"]).strip().split("\n", 1)[0]
    return first if len(first) <= _SUMMARY else first[: _SUMMARY - 1] + "…"


def episode_of(memory: Mapping[str, Any], tally: Tally) -> dict[str, Any]:
    """A memory as an episode, every required field filled (module docstring)."""
    temporal = memory["temporal"]
    created = time_text(temporal["created_at"])
    event = time_text(temporal.get("valid_from")) or created
    confidence = memory.get("confidence") or {}
    current = confidence.get("current") if isinstance(confidence, Mapping) else None
    episode: dict[str, Any] = {
        "id": episode_id(memory),
        "eventTime": event,
        "mentionTime": time_text(temporal.get("updated_at")) or created,
        "ingestionTime": created,
        "sourceType": "note",
        "actors": [],
        "summary": _summary(memory),
        "details": memory["content"],
        "sensitivity": "low",
        "metadata": {
            RESIDUE: canonical(residue(memory)),
            "pam_type": str(memory.get("custom_type") or memory["type"]),
        },
        "categories": list(memory.get("tags") or []),
        "importance": 0.5,
        "confidence": current if isinstance(current, int | float) else 0.5,
        "lifecycleState": "HOT",
        "extractionState": "done",
        "accessCount": 0,
        "pinned": False,
        "vaultRefs": [],
    }
    until = time_text(temporal.get("valid_until"))
    if until is not None:
        episode["expirationDate"] = until
    _original(memory, episode)
    if parse_time(temporal["created_at"]) != parse_time(created):
        tally.lost["sub-second time precision"] += 1
    tally.mapped["memories"] += 1
    tally.metadata["PAM fields (in metadata.pam)"] += 1
    return episode


def _original(memory: Mapping[str, Any], episode: dict[str, Any]) -> None:
    """A memory read from a bundle gets its episode's own fields back (X → memvault → X)."""
    meta = (memory.get("metadata") or {}).get(META)
    if not isinstance(meta, Mapping) or not isinstance(meta.get("id"), str):
        return
    for key, value in meta.items():
        if key in EPISODE_FIELDS and key not in ("id", "metadata", "deletedAt"):
            episode[key] = value
    if isinstance(meta.get("metadata"), Mapping):
        episode["metadata"] = {**meta["metadata"], **episode["metadata"]}
    if isinstance(meta.get("ext"), Mapping):
        for key, value in meta["ext"].items():
            episode.setdefault(key, value)


def tombstone_of(memory: Mapping[str, Any]) -> dict[str, Any]:
    temporal = memory["temporal"]
    target = episode_id(memory)
    return {
        "id": "tomb_" + hashlib.sha256(target.encode()).hexdigest()[:24],
        "op": "delete",
        "targetKind": "episode",
        "targetID": target,
        "deletedAt": time_text(temporal.get("updated_at") or temporal["created_at"]),
        "actor": "memvault",
        "reason": "retracted",
        "derived": {
            "sentenceIDs": [],
            "factIDs": [],
            "edgeIDs": [],
            "entityIDs": [],
            "chunkIDs": [],
            "episodeLinkCount": 0,
            "embeddingCacheKeys": [],
        },
    }


def bundle_files(
    memories: Sequence[Mapping[str, Any]],
    relations: Sequence[Mapping[str, Any]],
    now: datetime,
    tally: Tally,
) -> dict[str, bytes]:
    """Every file of the bundle, by relative path (manifest and CHECKSUMS included)."""
    episodes, tombstones = [], []
    exported: dict[str, str] = {}
    for memory in memories:
        if memory.get("status", "active") == "retracted":
            tombstones.append(tombstone_of(memory))
            tally.mapped["retracted memories (as tombstones, content not written)"] += 1
            continue
        episode = episode_of(memory, tally)
        episodes.append(episode)
        exported[str(memory["id"])] = episode["id"]
    # Link types with no PAM relation type were kept in the source's metadata on import.
    labels: dict[tuple[str, str], str] = {}
    for memory in memories:
        meta = (memory.get("metadata") or {}).get(META)
        if isinstance(meta, Mapping) and str(memory["id"]) in exported:
            for link in meta.get("links") or []:
                if isinstance(link, Mapping):
                    source_id = exported[str(memory["id"])]
                    labels[(source_id, str(link.get("to")))] = str(link.get("linkType"))
    links = []
    for rel in relations:
        source, target = exported.get(str(rel["from"])), exported.get(str(rel["to"]))
        if source is None or target is None:
            tally.lost["relations to memories not exported"] += 1
            continue
        weight = rel.get("confidence")
        label = str(rel["type"])
        if label == "related_to":
            label = labels.get((source, target), label)
        links.append({"srcEpisodeID": source, "dstEpisodeID": target, "linkType": label,
                      "weight": weight if isinstance(weight, int | float) else 1})  # fmt: skip
        tally.mapped["relations"] += 1
        if rel.get("created_at") is not None:
            tally.lost["relation ids and times"] += 1
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    for path, records, kind in (
        ("items/episode.jsonl", sorted(episodes, key=lambda e: e["id"]), "episode"),
        ("items/episodeLink.jsonl", links, "episodeLink"),
        (TOMBSTONES, sorted(tombstones, key=lambda t: t["id"]), "tombstone"),
    ):
        if records:
            files[path] = jsonl(records)
            counts[kind] = len(records)
    listed = [
        {"bytes": len(data), "path": path, "sha256": hashlib.sha256(data).hexdigest()}
        for path, data in sorted(files.items())
    ]
    sums = "".join(f"{f['sha256']}  {f['path']}\n" for f in listed).encode()
    manifest: dict[str, Any] = {
        "bundleDigest": hashlib.sha256(sums).hexdigest(),
        "capabilities": ["tombstones"] if tombstones else [],
        "conformanceLevel": "L1",
        "counts": counts,
        "createdAt": utc_text(now),
        "embeddingDim": 0,
        "embeddingModel": "",
        "embeddingsIncluded": False,
        "exportMode": "full",
        "files": listed,
        "format": VERSION,
        "generator": f"memvault/{__version__}",
        "schemaVersion": 0,
    }
    if episodes:
        times = sorted(e["eventTime"] for e in episodes)
        manifest["coverage"] = {"from": times[0], "to": times[-1]}
    files[MANIFEST] = canonical(manifest).encode()
    files[CHECKSUMS] = sums
    return files


def _encode(memories: Records, relations: Records, now: datetime, tally: Tally) -> Encoded:
    return bundle_files(memories, relations, now, tally)


IMPORTER: Final = PortableMemoryImporter()
EXPORTER: Final = Exporter(NAME, VERSION, _encode)
