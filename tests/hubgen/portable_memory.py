"""MacPaw Portable Memory `.mem` bundles (format 1.1.0), written from its specification
(§1 container, §1.1 Canonical JSON, §1.2 integrity files, §3 manifest, §5 tombstones) and its
JSON Schemas (episode, episodeLink, tombstone, manifest) — with Python's own JSON encoder,
not memvault's writer: keys sorted, no whitespace, non-ASCII raw; the generated values avoid
the numbers where Python and ECMAScript print differently (whole floats, exponents)."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

DETAILS = (
    "Prefers window seats on long flights.", "Lives in Київ (Kyiv); timezone Europe/Kyiv.",
    "Started learning Rust for a side project.", "Has a dog named Bit.",
    "Tone: direct, no filler.\nException: emoji are fine in casual chats.",
    "Always show the command to run before explaining it.", "Drinks tea, not coffee.",
    "Wants answers in English, even when asked in Ukrainian.",
)  # fmt: skip

#: `items/context.jsonl` of the published sample bundle `sample-1.1.mem` (MacPaw
#: portable-memory-swift, Conformance/fixtures): its manifest gives these bytes 341 bytes
#: and this SHA-256. Three short records of data, kept to check Canonical JSON byte for byte.
SAMPLE_CONTEXT = (
    '{"archived":false,"createdAt":"2023-11-14T22:13:20Z","id":"ctx_comms",'
    '"label":"Communication preferences","parentID":"ctx_root"}\n'
    '{"archived":false,"createdAt":"2023-11-14T22:13:20Z","id":"ctx_instructions",'
    '"label":"Instructions","parentID":"ctx_root"}\n'
    '{"archived":false,"createdAt":"2023-11-14T22:13:20Z","id":"ctx_root","label":"Personal"}\n'
)
SAMPLE_CONTEXT_SHA256 = "ad795d191c686a6a8afdf4ff0586fdffa3265ccdaf1887bf40da2bd826888370"
SAMPLE_CONTEXT_BYTES = 341


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def episode(rng: random.Random, index: int, details: str) -> dict[str, Any]:
    base = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 10**7))
    record: dict[str, Any] = {
        "id": f"ep_{index:04d}{rng.getrandbits(32):08x}",
        "eventTime": stamp(base - timedelta(days=rng.randint(0, 30))),
        "mentionTime": stamp(base),
        "ingestionTime": stamp(base + timedelta(hours=1)),
        "sourceType": rng.choice(("note", "chat", "text")),
        "actors": rng.sample(["user", "assistant"], rng.randint(0, 2)),
        "summary": details.split("\n")[0],
        "details": details,
        "sensitivity": "low",
        "metadata": {"transfer_source": "chatgpt", "transfer_line": str(index)},
        "categories": rng.sample(
            ["travel", "Communication preferences", "food"], rng.randint(0, 2)
        ),
        "importance": rng.choice((0.5, 0.25, 0.75)),
        "confidence": rng.choice((0.7, 0.92, 0.3)),
        "lifecycleState": "HOT",
        "extractionState": "done",
        "accessCount": rng.randint(0, 5),
        "pinned": rng.random() < 0.2,
        "vaultRefs": [],
    }
    if rng.random() < 0.3:
        record["vendorScore"] = 0.92  # a foreign member (spec §10: kept via `ext`)
    if rng.random() < 0.3:
        record["contextID"] = "ctx_comms"
    return record


def tombstone(target: str, at: str = "2026-06-30T00:00:00Z") -> dict[str, Any]:
    return {
        "id": "tomb_" + target, "op": "delete", "targetKind": "episode", "targetID": target,
        "deletedAt": at, "actor": "actor_7c3f", "reason": "erasure request",
        "derived": {"sentenceIDs": [], "factIDs": [], "edgeIDs": [], "entityIDs": [],
                    "chunkIDs": [], "episodeLinkCount": 0, "embeddingCacheKeys": []},
    }  # fmt: skip


def bundle(rng: random.Random, count: int = 6, *, extras: bool = True) -> dict[str, list[dict]]:
    """Records by bundle path: episodes (one deleted, one tombstoned), links, and with
    `extras` a secretRef, a core block, a preference and a procedure."""
    episodes = [episode(rng, i, d) for i, d in enumerate(rng.sample(DETAILS, count))]
    files: dict[str, list[dict]] = {"items/episode.jsonl": sorted(episodes, key=lambda e: e["id"])}
    if count >= 3:
        files["items/episodeLink.jsonl"] = [
            {"srcEpisodeID": episodes[0]["id"], "dstEpisodeID": episodes[1]["id"],
             "linkType": "supports", "weight": 0.5},
            {"srcEpisodeID": episodes[1]["id"], "dstEpisodeID": episodes[2]["id"],
             "linkType": "follows_up", "weight": 1},
        ]  # fmt: skip
    if extras:
        files["items/secretRef.jsonl"] = [{
            "id": "sec_01", "label": "bank PIN", "sensitivity": "high", "category": "finance",
            "preview": "••42", "encryptionMetadata": {"scheme": "keychain"},
            "createdAt": "2026-01-01T00:00:00Z",
        }]  # fmt: skip
        files["items/core.jsonl"] = [
            {"id": "human", "content": "Name: Olena. Lives in Kyiv.", "charBudget": 2000,
             "version": 3},
        ]  # fmt: skip
        files["items/preference.jsonl"] = [{"key": "units", "value": "metric"}]
        files["items/procedure.jsonl"] = [{
            "id": "proc_1", "name": "weekly review", "triggerPattern": "friday",
            "steps": ["list wins", "plan next week"], "successCount": 3, "failureCount": 0,
            "enabled": True,
        }]  # fmt: skip
    return files


def write(
    path: Path, records: dict[str, list[dict]], *, tombstones: list[dict] | None = None
) -> Path:
    """The bundle as §1.2 and §3 say: files, then manifest (with `bundleDigest`) and
    CHECKSUMS over every listed file."""
    files: dict[str, bytes] = {}
    for name, items in records.items():
        files[name] = "".join(canonical(r) + "\n" for r in items).encode()
    if tombstones:
        files["audit/tombstones.jsonl"] = "".join(canonical(t) + "\n" for t in tombstones).encode()
    listed = [{"bytes": len(d), "path": p, "sha256": hashlib.sha256(d).hexdigest()}
              for p, d in sorted(files.items())]  # fmt: skip
    sums = "".join(f"{f['sha256']}  {f['path']}\n" for f in listed).encode()
    counts = {name.split("/")[-1].removesuffix(".jsonl"): len(items)
              for name, items in records.items()}  # fmt: skip
    if tombstones:
        counts["tombstone"] = len(tombstones)
    manifest = {
        "format": "1.1.0", "generator": "hubgen/1.0", "conformanceLevel": "L2",
        "createdAt": "2026-09-14T08:15:02Z", "exportMode": "full", "schemaVersion": 0,
        "embeddingModel": "", "embeddingDim": 0, "embeddingsIncluded": False,
        "capabilities": ["bitemporal", "tombstones", "ext"], "counts": counts, "files": listed,
        "bundleDigest": hashlib.sha256(sums).hexdigest(),
    }  # fmt: skip
    path.mkdir(parents=True)
    for name, data in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    (path / "manifest.json").write_text(canonical(manifest), encoding="utf-8")
    (path / "CHECKSUMS").write_bytes(sums)
    return path
