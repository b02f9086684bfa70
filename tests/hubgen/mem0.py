"""mem0 and OpenMemory outputs, as their documentation and code describe them: the library's
`get_all` (`{"results": [MemoryItem…]}`; `hash` = MD5 of the text; US/Pacific offsets before
March 2026, UTC after), the platform's `GET /v1/memories/` (a bare array, or `{count, next,
previous, results}` when paged; `categories`, `replaced_by`, `structured_attributes`…) and
OpenMemory's export zip (`memories.json` tables and `memories.jsonl.gz`)."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import uuid
import zipfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

TEXTS = (
    "Prefers window seats on long flights", "Lives in Lisbon", "Is vegetarian",
    "Works as a nurse in Porto", "Has a daughter named Inês", "Plays the cello",
    "Allergic to peanuts", "Wants to visit Japan in 2027", "Uses a Linux laptop",
    "Drinks coffee black", "Prefere respostas curtas", "Runs on Saturday mornings",
)  # fmt: skip
CATEGORIES = ("user_preferences", "personal_details", "travel", "food", "health", "misc")
PACIFIC_OFFSET = timezone(timedelta(hours=-7))


def md5(text: str) -> str:
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def oss_item(rng: random.Random, text: str, *, pacific: bool) -> dict[str, Any]:
    moment = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 10**7))
    shown = moment.astimezone(PACIFIC_OFFSET if pacific else UTC).isoformat()
    item: dict[str, Any] = {
        "id": _uuid(rng),
        "memory": text,
        "hash": md5(text),
        "created_at": shown,
        "updated_at": shown,
        "user_id": "ana",
    }
    if rng.random() < 0.5:
        item["metadata"] = {"source": "chat"}
    if rng.random() < 0.3:
        item["agent_id"] = "travel-bot"
    return item


def get_all(rng: random.Random, count: int = 6, *, pacific: bool = True) -> dict[str, Any]:
    return {"results": [oss_item(rng, t, pacific=pacific) for t in rng.sample(TEXTS, count)]}


def platform_item(rng: random.Random, text: str) -> dict[str, Any]:
    moment = datetime(2026, 4, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 10**7))
    return {
        "id": _uuid(rng),
        "memory": text,
        "user_id": "ana",
        "metadata": None,
        "categories": rng.sample(CATEGORIES, rng.randint(0, 2)),
        "created_at": moment.isoformat(),
        "updated_at": moment.isoformat(),
        "expiration_date": None,
        "structured_attributes": {"year": moment.year, "month": moment.month},
        "replaced_by": None,
        "synthesized": False,
        "lifecycle_state": "active",
    }


def platform_list(rng: random.Random, count: int = 6, *, paged: bool) -> Any:
    items = [platform_item(rng, t) for t in rng.sample(TEXTS, count)]
    if not paged:
        return items
    return {"count": len(items), "next": None, "previous": None, "results": items}


def openmemory_zip(rng: random.Random, path: Path, count: int = 5) -> Path:
    """OpenMemory's `POST /api/v1/backup/export` answer (backup.py)."""
    user = _uuid(rng)
    app = _uuid(rng)
    cats = {name: _uuid(rng) for name in ("travel", "food", "health")}
    states = ("active", "paused", "archived", "deleted", "active")
    memories = []
    for index, text in enumerate(rng.sample(TEXTS, count)):
        chosen = rng.sample(sorted(cats), rng.randint(0, 2))
        memories.append({
            "id": _uuid(rng), "user_id": user, "app_id": app, "content": text, "metadata": {},
            "state": states[index % len(states)],
            "created_at": f"2026-05-0{index + 1}T08:30:00+00:00",
            "updated_at": f"2026-05-0{index + 1}T08:30:00+00:00",
            "archived_at": None, "deleted_at": None,
            "category_ids": [cats[c] for c in chosen],
        })  # fmt: skip
    tables = {
        "user": {"id": user, "user_id": "ana", "name": None, "email": None, "metadata": {},
                 "created_at": "2026-04-01T00:00:00+00:00", "updated_at": None},
        "apps": [{"id": app, "owner_id": user, "name": "cursor", "description": None,
                  "metadata": {}, "is_active": True, "created_at": "2026-04-01T00:00:00+00:00",
                  "updated_at": "2026-04-01T00:00:00+00:00"}],
        "categories": [{"id": i, "name": n, "description": None,
                        "created_at": "2026-04-01T00:00:00+00:00", "updated_at": None}
                       for n, i in cats.items()],
        "memories": memories,
        "memory_categories": [{"memory_id": m["id"], "category_id": c}
                              for m in memories for c in m["category_ids"]],
        "status_history": [], "access_controls": [],
        "export_meta": {"app_id_filter": None, "from_date": None, "to_date": None,
                        "version": "1", "generated_at": "2026-06-01T12:00:00+00:00"},
    }  # fmt: skip
    lines = [
        json.dumps({"id": m["id"], "content": m["content"], "metadata": {},
                    "created_at": m["created_at"], "updated_at": m["updated_at"],
                    "state": m["state"], "app": "cursor", "categories": []})
        for m in memories
    ]  # fmt: skip
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("memories.json", json.dumps(tables, indent=2))
        archive.writestr("memories.jsonl.gz", gzip.compress("\n".join(lines).encode()))
    return path
