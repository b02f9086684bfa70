"""What every hub format shares: the exporter interface, the tally of what was carried, and
the small mapping helpers (tags, timestamps, ids, the PAM residue).

An importer yields PAM memory objects (`ImportedMemory`), PAM relations (`ImportedRelation`)
and, last, one `ImportedTally` saying what was mapped, what went to metadata and what could
not be carried. An exporter takes PAM memory objects and relations (what the vault session
may export) and writes the format, returning the same kind of tally. Nothing is dropped
silently: every field left behind is counted.

The residue: a format that cannot hold a PAM field keeps the memory's PAM fields (all but
its content, which the format holds) in the place the format leaves for extra data (an extra
member, a metadata map, a frontmatter key), under the key ``pam``. Reading that residue back
restores the memory exactly; a file without it is read by the format's own rules.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import tempfile
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final
from zoneinfo import ZoneInfo

from memvault.atomic import write_atomic
from memvault.canonical import content_hash
from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.importers.base import ImportFormatError
from memvault.importers.ids import stable_id
from memvault.sources import Entry

#: PAM §4 memory types.
PAM_TYPES: Final = (
    "fact", "preference", "skill", "context", "relationship", "goal", "instruction",
    "identity", "environment", "project", "custom",
)  # fmt: skip
#: PAM §13 relation types.
RELATION_TYPES: Final = (
    "supports", "contradicts", "extends", "supersedes", "related_to", "derived_from",
)  # fmt: skip
STATUSES: Final = ("active", "superseded", "deprecated", "retracted", "archived")
#: The key a format's extra-data place keeps the PAM residue under.
RESIDUE: Final = "pam"
#: Largest single file a hub format reads whole (memory files are small; a mem0 dump of a
#: hundred thousand memories is about 30 MB).
MAX_FILE_BYTES: Final = 256 << 20
_TAG_BAD: Final = re.compile(r"[^a-z0-9_-]+")
PACIFIC: Final = ZoneInfo("America/Los_Angeles")


class HubError(VaultError):
    """An export cannot be written (a path in the way, a record the format cannot hold)."""

    http_status = HTTP_UNPROCESSABLE


@dataclass(slots=True)
class Tally:
    """What one import or export carried, by count: `mapped` (records that became records of
    the other side, by kind), `metadata` (source fields kept in metadata or the residue, by
    field), `lost` (what the other side cannot hold, by what)."""

    format: str
    version: str
    direction: str
    mapped: Counter[str] = field(default_factory=Counter)
    metadata: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "version": self.version,
            "direction": self.direction,
            "mapped": dict(sorted(self.mapped.items())),
            "metadata": dict(sorted(self.metadata.items())),
            "lost": dict(sorted(self.lost.items())),
        }

    def lines(self) -> list[str]:
        """The tally as text, one line per part; "nothing" where a part is empty."""

        def show(counts: Counter[str]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "nothing"

        return [
            f"{self.format} {self.version} ({self.direction})",
            f"  mapped: {show(self.mapped)}",
            f"  kept in metadata: {show(self.metadata)}",
            f"  not carried: {show(self.lost)}",
        ]


@dataclass(frozen=True, slots=True)
class Exported:
    """What an exporter wrote: where, and the tally."""

    path: Path
    tally: Tally


#: PAM memory objects or relations, as JSON objects.
Records = Sequence[Mapping[str, Any]]
#: One file's bytes, or each file's by its relative path (a tree).
Encoded = bytes | dict[str, bytes]


@dataclass(frozen=True, slots=True)
class Exporter:
    """One format's writer. `name` is the ``--format`` name, `version` the format version
    written; `encode(memories, relations, now, tally)` gives the format's bytes (a tree is
    written as a directory, or as a zip file when the output's name ends in .zip) and counts
    in `tally` what is mapped and lost."""

    name: str
    version: str
    encode: Callable[[Records, Records, datetime, Tally], Encoded]

    def write(
        self,
        memories: Records,
        relations: Records,
        output: Path,
        *,
        now: datetime,
        overwrite: bool = False,
    ) -> Tally:
        """Write PAM memory objects and relations as the format at `output` (complete or not
        at all: a temporary name renamed at the end). Returns the tally."""
        if output.exists() and not overwrite:
            raise HubError(f"{output} exists; give --overwrite to replace it")
        tally = Tally(self.name, self.version, "export")
        encoded = self.encode(memories, relations, now, tally)
        if isinstance(encoded, bytes):
            write_atomic(output, encoded)
        else:
            write_tree(output, encoded)
        return tally


def write_tree(output: Path, files: Mapping[str, bytes]) -> None:
    """`files` (relative path: bytes) as the directory `output`, or as a zip file when its
    name ends in .zip, replacing what is there: built under a temporary name beside it (an
    owner-only directory), then renamed, so it is complete or not there at all."""
    parent = output.parent if str(output.parent) else Path(".")
    temporary = Path(tempfile.mkdtemp(prefix=f".{output.name}.", dir=parent))
    try:
        written = temporary
        if output.suffix.lower() == ".zip":
            written = temporary / "files.zip"
            with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as archive:
                for path, data in sorted(files.items()):
                    archive.writestr(path, data)
        else:
            for path, data in files.items():
                (temporary / path).parent.mkdir(parents=True, exist_ok=True)
                (temporary / path).write_bytes(data)
        if output.is_dir():
            shutil.rmtree(output)
        elif output.exists():
            output.unlink()
        os.replace(written, output)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


# -- helpers ----------------------------------------------------------------------------------


def tag(text: str) -> str | None:
    """`text` as a PAM tag (``^[a-z0-9][a-z0-9_-]*$``): ASCII-folded, lower-cased, other
    characters as ``-``; None when nothing is left."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    cleaned = _TAG_BAD.sub("-", folded.replace(" ", "-")).strip("-_")
    return cleaned or None


def tags_of(values: Sequence[str]) -> list[str]:
    """PAM tags for source labels: normalized, unique, in order."""
    out: list[str] = []
    for value in values:
        t = tag(value)
        if t is not None and t not in out:
            out.append(t)
    return out


def utc_text(moment: datetime) -> str:
    """The vault's timestamp form: UTC, whole seconds, ``Z``."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: object, *, naive: Any = UTC) -> datetime | None:
    """An ISO 8601 time (a date alone is its midnight); a value without an offset is read in
    the zone `naive`. None for anything else."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=naive)
    return moment


def time_text(value: object, *, naive: Any = UTC) -> str | None:
    moment = parse_time(value, naive=naive)
    return None if moment is None else utc_text(moment)


def memory_id(fmt: str, *parts: str) -> str:
    """A deterministic memory id for a source record that has none of its own."""
    return stable_id(fmt, "memory", *parts)


def pam_memory(
    content: str,
    *,
    id: str,
    type: str,
    created_at: str,
    platform: str,
    extraction_method: str,
    extracted_at: str,
    status: str = "active",
    custom_type: str | None = None,
    updated_at: str | None = None,
    valid_from: str | None = None,
    valid_until: str | None = None,
    tags: Sequence[str] = (),
    platform_user_id: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    summary: str | None = None,
    confidence: float | None = None,
) -> dict[str, Any]:
    """A PAM memory object (memory-store schema) with its content hash computed."""
    temporal: dict[str, Any] = {"created_at": created_at}
    if updated_at is not None:
        temporal["updated_at"] = updated_at
    if valid_from is not None:
        temporal["valid_from"] = valid_from
    if valid_until is not None:
        temporal["valid_until"] = valid_until
    provenance: dict[str, Any] = {
        "platform": platform,
        "extraction_method": extraction_method,
        "extracted_at": extracted_at,
    }
    if platform_user_id is not None:
        provenance["platform_user_id"] = platform_user_id
    memory: dict[str, Any] = {
        "id": id,
        "type": type if type in PAM_TYPES else "custom",
        "status": status,
        "content": content,
        "content_hash": content_hash(content),
        "temporal": temporal,
        "provenance": provenance,
    }
    if memory["type"] == "custom":
        memory["custom_type"] = custom_type or tag(type) or "imported"
    if tags:
        memory["tags"] = list(tags)
    if summary is not None:
        memory["summary"] = summary
    if confidence is not None:
        value = min(1.0, max(0.0, float(confidence)))
        memory["confidence"] = {"initial": value, "current": value}
    if metadata:
        memory["metadata"] = dict(metadata)
    return memory


def residue(memory: Mapping[str, Any]) -> dict[str, Any]:
    """A PAM memory's fields a format does not hold (all but its content and hash)."""
    return {k: copy.deepcopy(v) for k, v in memory.items() if k not in ("content", "content_hash")}


def restore(content: str, kept: object, where: str) -> dict[str, Any] | None:
    """The PAM memory a residue and its content make, or None when `kept` is no residue."""
    if not isinstance(kept, Mapping):
        return None
    if not isinstance(kept.get("id"), str) or not isinstance(kept.get("temporal"), Mapping):
        raise ImportFormatError(where, f"'{RESIDUE}': not a PAM memory residue (id, temporal)")
    memory = {k: copy.deepcopy(v) for k, v in kept.items()}
    memory["content"] = content
    memory["content_hash"] = content_hash(content)
    return memory


def relation(from_: str, to: str, type: str, created_at: str) -> dict[str, Any]:
    """A PAM relation (§13) with a deterministic id."""
    return {
        "id": stable_id("hub", "relation", from_, to, type),
        "from": from_,
        "to": to,
        "type": type,
        "created_at": created_at,
    }


def file_limit() -> int:
    """The most bytes one file of a hub format may hold (read when asked, so a test can
    lower it)."""
    return MAX_FILE_BYTES


def check_size(size: int, where: str) -> None:
    """Refuse a file past `file_limit()`."""
    limit = file_limit()
    if size > limit:
        raise ImportFormatError(where, f"{size} bytes; the limit is {limit}")


def read_whole(entry: Entry, limit: int | None = None) -> bytes:
    """An entry's bytes, refused past `limit` (default `file_limit()`)."""
    limit = file_limit() if limit is None else limit
    if entry.size > limit:
        raise ImportFormatError(entry.display, f"{entry.size} bytes; the limit is {limit}")
    # Read whole, not through the depth-bounded stream: each JSON text is parsed with
    # `jsonread.loads`, which refuses deep nesting itself and names the place.
    with entry.open() as buf:
        if len(buf) > limit:
            raise ImportFormatError(entry.display, f"more than {limit} bytes")
        return bytes(buf)


def text_of(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFormatError(f"{where}: line {line}", "not valid UTF-8") from None


def strings(value: object, where: str, name: str) -> list[str]:
    """A list of strings, or ImportFormatError naming the field."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ImportFormatError(where, f"field '{name}': expected a list of strings")
    return list(value)


def text_field(record: Mapping[str, Any], name: str, where: str) -> str:
    value = record.get(name)
    if not isinstance(value, str):
        raise ImportFormatError(where, f"field '{name}': expected a string")
    return value
