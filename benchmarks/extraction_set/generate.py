"""Write the extraction evaluation set (`conversations.jsonl`) from `templates.py`.

    python benchmarks/extraction_set/generate.py           # (re)write conversations.jsonl
    python benchmarks/extraction_set/generate.py --check   # exit 1 if the file differs

Deterministic: a fixed seed, templates in file order. The split is by *template*: a template
whose text hashes (SHA-256, first byte) to 0 mod 4 is held out, and held-out conversations are
built only from held-out templates — so held-out wording is never seen while tuning.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import blind2_en
import blind2_pt
import blind3_en
import blind3_pt
import blind4_en
import blind4_pt
import blind5_en
import blind5_pt
import heldout_supplement
import real2_en
import real2_pt
import realistic_dev
import supplement
import templates as t
import train4a_en
import train4a_pt
import train4b_en
import train4b_pt
import train5a_en
import train5a_pt
import train5b_en
import train5b_pt
import train5c_en
import train5c_pt

OUT = Path(__file__).resolve().parent / "conversations.jsonl"
SEED = 20
_FIELD = re.compile(r"\{(\w+)\}")


def heldout(text: str) -> bool:
    return hashlib.sha256(text.encode()).digest()[0] % 4 == 0


def _fill(
    rng: random.Random, template: t.Template, extra: dict[str, str]
) -> tuple[str, list[dict[str, Any]]]:
    text, expects = template
    values = dict(extra)
    names = set(_FIELD.findall(text))
    for _, keys, _forbid in expects:
        for key in keys:
            names.update(_FIELD.findall(key))
    for name in sorted(names):
        if name not in values:
            values[name] = rng.choice(t.FILL[name])
    filled = [
        {
            "type": type,
            "key": [k.format(**values) for k in keys],
            "forbid": list(forbid),
        }
        for type, keys, forbid in expects
    ]
    return text.format(**values), filled


def _pools(split: str, *pools: tuple[t.Template, ...]) -> list[list[t.Template]]:
    want = split == "heldout"
    return [[p for p in pool if heldout(p[0]) == want] for pool in pools]


def build() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    out: list[dict[str, Any]] = []
    plan = (
        ("en", t.EN_SELF, t.EN_NONE, t.EN_GROUP, 95, 10),
        ("pt", t.PT_SELF, t.PT_NONE, t.PT_GROUP, 80, 9),
    )
    for lang, selfs, nones, group, solo_count, group_count in plan:
        for number in range(solo_count + group_count):
            split = "heldout" if number % 4 == 3 else "dev"
            is_group = number >= solo_count
            day = 1 + number % 28
            month = 1 + number % 12
            base = f"2025-{month:02d}-{day:02d}T"
            messages: list[dict[str, Any]] = []
            speakers: list[str] = []
            if is_group:
                (gpool,) = _pools(split, group)
                if not gpool:
                    (gpool,) = _pools("dev", group)
                speakers = rng.sample(t.FILL["speaker"], 2 + number % 2)
                turns = 4 + number % 3
                for turn in range(turns):
                    speaker = speakers[turn % len(speakers)]
                    text, expect = _fill(rng, rng.choice(gpool), {"speaker": speaker})
                    messages.append(
                        {
                            "role": "user",
                            "speaker": speaker,
                            "text": text,
                            "at": f"{base}{9 + turn:02d}:00:00Z",
                            "expect": expect,
                        }
                    )
            else:
                spool, npool = _pools(split, selfs, nones)
                turns = 3 + rng.randrange(4)
                for turn in range(turns):
                    pool = spool if rng.random() < 0.38 else npool
                    text, expect = _fill(rng, rng.choice(pool), {})
                    messages.append(
                        {
                            "role": "user",
                            "text": text,
                            "at": f"{base}{9 + turn:02d}:00:00Z",
                            "expect": expect,
                        }
                    )
                    messages.append(
                        {
                            "role": "assistant",
                            "text": rng.choice(t.ASSISTANT),
                            "at": f"{base}{9 + turn:02d}:00:30Z",
                            "expect": [],
                        }
                    )
            out.append(
                {
                    "id": f"{lang}-{'group' if is_group else 'chat'}-{number:03d}",
                    "split": split,
                    "lang": lang,
                    "participants": speakers,
                    "messages": messages,
                }
            )
    out.extend(_supplement())
    out.extend(_heldout_supplement())
    out.extend(_realistic_dev())
    out.extend(_second_batch())
    out.extend(_third_batch())
    out.extend(_training_batches())
    out.extend(_fourth_batch())
    out.extend(_fifth_training_batches())
    out.extend(_fifth_batch())
    return out


def _supplement() -> list[dict[str, Any]]:
    """The hand-written dev conversations of `supplement.py`, after the generated ones (the
    generated conversations, and so the held-out split, stay byte for byte the same)."""
    out: list[dict[str, Any]] = []
    for lang, conversations in (("en", supplement.EN), ("pt", supplement.PT)):
        for number, turns in enumerate(conversations):
            base = f"2025-{1 + number % 12:02d}-{10 + number:02d}T"
            messages: list[dict[str, Any]] = []
            for turn, (text, expects) in enumerate(turns):
                messages.append(
                    {
                        "role": "user",
                        "text": text,
                        "at": f"{base}{9 + turn:02d}:00:00Z",
                        "expect": [
                            {"type": type, "key": list(keys), "forbid": list(forbid)}
                            for type, keys, forbid in expects
                        ],
                    }
                )
                messages.append(
                    {
                        "role": "assistant",
                        "text": t.ASSISTANT[(number + turn) % len(t.ASSISTANT)],
                        "at": f"{base}{9 + turn:02d}:00:30Z",
                        "expect": [],
                    }
                )
            out.append(
                {
                    "id": f"{lang}-extra-{number:03d}",
                    "split": "dev",
                    "lang": lang,
                    "participants": [],
                    "messages": messages,
                }
            )
    return out


def _heldout_supplement() -> list[dict[str, Any]]:
    """The blind held-out conversations of `heldout_supplement.py`, after every other one (so
    the earlier conversations stay byte for byte the same)."""
    return _hand_written(
        heldout_supplement.EN,
        heldout_supplement.PT,
        "blind",
        "heldout",
        lambda n: f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T",
    )


def _realistic_dev() -> list[dict[str, Any]]:
    """The realistic dev conversations of `realistic_dev.py`, after every other one (so the
    earlier conversations, the held-out split included, stay byte for byte the same)."""
    return _hand_written(
        realistic_dev.EN,
        realistic_dev.PT,
        "real",
        "dev",
        lambda n: f"2025-{1 + (n + 5) % 12:02d}-{1 + (n * 3) % 28:02d}T",
    )


def _second_batch() -> list[dict[str, Any]]:
    """The second batch of realistic chats, written blind as one population and dealt
    alternately into two halves (`real2_*.py`, ids ``*-real2-*``; `blind2_*.py`, ids
    ``*-blind2-*``), after every other conversation (so the earlier ones stay byte for byte
    the same). The `blind2` half was held out until its figures were recorded; it became dev
    when the third batch (`blind3_*.py`) took its place as unseen chats."""
    return _hand_written(
        real2_en.CONVERSATIONS,
        real2_pt.CONVERSATIONS,
        "real2",
        "dev",
        lambda n: f"2025-{1 + (n + 2) % 12:02d}-{1 + (n * 5) % 28:02d}T",
    ) + _hand_written(
        blind2_en.CONVERSATIONS,
        blind2_pt.CONVERSATIONS,
        "blind2",
        "dev",
        lambda n: f"2025-{1 + (n + 8) % 12:02d}-{1 + (n * 7) % 28:02d}T",
    )


def _third_batch() -> list[dict[str, Any]]:
    """The third batch of realistic chats (`blind3_*.py`, ids ``*-blind3-*``), written blind
    and held out: never used for tuning. After every other conversation (so the earlier ones
    stay byte for byte the same)."""
    return _hand_written(
        blind3_en.CONVERSATIONS,
        blind3_pt.CONVERSATIONS,
        "blind3",
        "heldout",
        lambda n: f"2025-{1 + (n + 4) % 12:02d}-{1 + (n * 11) % 28:02d}T",
    )


def _training_batches() -> list[dict[str, Any]]:
    """Two batches of realistic chats written blind to train the learned stage
    (`train4a_*.py`, ids ``*-train4a-*``; `train4b_*.py`, ids ``*-train4b-*``), split dev,
    after every other conversation (so the earlier ones stay byte for byte the same)."""
    return _hand_written(
        train4a_en.CONVERSATIONS,
        train4a_pt.CONVERSATIONS,
        "train4a",
        "dev",
        lambda n: f"2025-{1 + (n + 6) % 12:02d}-{1 + (n * 13) % 28:02d}T",
    ) + _hand_written(
        train4b_en.CONVERSATIONS,
        train4b_pt.CONVERSATIONS,
        "train4b",
        "dev",
        lambda n: f"2025-{1 + (n + 10) % 12:02d}-{1 + (n * 17) % 28:02d}T",
    )


def _fourth_batch() -> list[dict[str, Any]]:
    """The fourth batch of realistic chats (`blind4_*.py`, ids ``*-blind4-*``), written blind
    and held out: never used for tuning or training. After every other conversation (so the
    earlier ones stay byte for byte the same)."""
    return _hand_written(
        blind4_en.CONVERSATIONS,
        blind4_pt.CONVERSATIONS,
        "blind4",
        "heldout",
        lambda n: f"2025-{1 + (n + 1) % 12:02d}-{1 + (n * 19) % 28:02d}T",
    )


def _fifth_training_batches() -> list[dict[str, Any]]:
    """Three more batches of realistic chats written blind to train the learned stage
    (`train5a_*.py`, `train5b_*.py`, `train5c_*.py`; ids ``*-train5a-*`` …), split dev, after
    every other conversation (so the earlier ones stay byte for byte the same)."""
    return (
        _hand_written(
            train5a_en.CONVERSATIONS,
            train5a_pt.CONVERSATIONS,
            "train5a",
            "dev",
            lambda n: f"2025-{1 + (n + 3) % 12:02d}-{1 + (n * 23) % 28:02d}T",
        )
        + _hand_written(
            train5b_en.CONVERSATIONS,
            train5b_pt.CONVERSATIONS,
            "train5b",
            "dev",
            lambda n: f"2025-{1 + (n + 7) % 12:02d}-{1 + (n * 29) % 28:02d}T",
        )
        + _hand_written(
            train5c_en.CONVERSATIONS,
            train5c_pt.CONVERSATIONS,
            "train5c",
            "dev",
            lambda n: f"2025-{1 + (n + 11) % 12:02d}-{1 + (n * 31) % 28:02d}T",
        )
    )


def _fifth_batch() -> list[dict[str, Any]]:
    """The fifth batch of realistic chats (`blind5_*.py`, ids ``*-blind5-*``), written blind
    and held out: never used for tuning or training, read once with the final stage. After
    every other conversation (so the earlier ones stay byte for byte the same)."""
    return _hand_written(
        blind5_en.CONVERSATIONS,
        blind5_pt.CONVERSATIONS,
        "blind5",
        "heldout",
        lambda n: f"2025-{1 + (n + 9) % 12:02d}-{1 + (n * 37) % 28:02d}T",
    )


def _hand_written(
    en: Any, pt: Any, kind: str, split: str, day: Callable[[int], str]
) -> list[dict[str, Any]]:
    """Conversations written by hand, as records: one-person chats get an assistant reply
    after each user turn; group conversations name the speaker of each turn. `day` gives a
    conversation's date prefix from its number."""
    out: list[dict[str, Any]] = []
    for lang, conversations in (("en", en), ("pt", pt)):
        for number, (participants, turns) in enumerate(conversations):
            base = day(number)
            messages: list[dict[str, Any]] = []
            for turn, (speaker, text, expects) in enumerate(turns):
                message: dict[str, Any] = {"role": "user"}
                if speaker:
                    message["speaker"] = speaker
                message |= {
                    "text": text,
                    "at": f"{base}{9 + turn:02d}:00:00Z",
                    "expect": [
                        {"type": type, "key": list(keys), "forbid": list(forbid)}
                        for type, keys, forbid in expects
                    ],
                }
                messages.append(message)
                if not participants:
                    messages.append(
                        {
                            "role": "assistant",
                            "text": t.ASSISTANT[(number + turn) % len(t.ASSISTANT)],
                            "at": f"{base}{9 + turn:02d}:00:30Z",
                            "expect": [],
                        }
                    )
            out.append(
                {
                    "id": f"{lang}-{kind}-{number:03d}",
                    "split": split,
                    "lang": lang,
                    "participants": list(participants),
                    "messages": messages,
                }
            )
    return out


def render() -> bytes:
    return b"".join(orjson.dumps(c) + b"\n" for c in build())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file differs")
    args = parser.parse_args(argv)
    data = render()
    if args.check:
        if not OUT.exists() or OUT.read_bytes() != data:
            print(f"{OUT} is not what generate.py writes", file=sys.stderr)
            return 1
        return 0
    OUT.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
