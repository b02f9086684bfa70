"""The labeled recall set: long multi-session conversations between a person and an assistant,
in English and Portuguese, and questions each labeled with the messages that answer them.

```sh
.venv/bin/python benchmarks/recallgen.py            # (re)writes benchmarks/recall_set/
.venv/bin/python benchmarks/recallgen.py --check    # exit 1 if the committed set differs
```

The output is the same for the same seed (`SEED`); the committed files are what this makes.
Material (people, events, questions, distractors, everyday exchanges) is hand-written in
`recallgen_templates.py`. See `benchmarks/recall_set/README.md` for what the files hold.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recallgen_templates as T

SEED = 20261127
OUT = Path(__file__).resolve().parent / "recall_set"
LANGS = ("en", "pt")
#: Conversations per language kept out of tuning (the held-out split), chosen by the seed.
HELD_OUT_PER_LANG = 4
EVENTS_PER_PERSON = 12
ACCOUNT_EMAIL = "{slug}@example.org"


@dataclass
class Message:
    id: str
    conversation: str
    session: int
    role: str  # "user" | "assistant"
    time: datetime
    text: str
    #: the person's full name on the user's messages (the export's participant name)
    name: str | None = None


@dataclass
class Conversation:
    id: str
    lang: str
    split: str
    person: str
    account: str
    title: str
    messages: list[Message] = field(default_factory=list)


@dataclass
class Question:
    id: str
    lang: str
    split: str
    kind: str  # "fact" | "paraphrase" | "when" | "two_turn"
    conversation: str
    person: str
    question: str
    answers: list[str]
    answer: str
    event: str


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Fill(dict[str, str]):
    """Format values; a missing key is a bug in the templates, said loudly."""

    def __missing__(self, key: str) -> str:
        raise KeyError(f"template slot {{{key}}} has no value")


def _slot_values(rng: random.Random, lang: str, slots: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for slot in slots:
        options = T.SLOTS[lang][slot]
        first, second = rng.sample(range(len(options)), 2)
        values.update(options[first])
        values.update({f"{k}2": v for k, v in options[second].items()})
    return values


class _Writer:
    """Appends one conversation's messages with moving timestamps."""

    def __init__(self, rng: random.Random, conv: Conversation) -> None:
        self.rng = rng
        self.conv = conv
        self.clock = datetime(2023, 1, 1, tzinfo=UTC)

    def session(self, start: datetime) -> None:
        self.clock = start

    def say(self, session: int, role: str, text: str) -> Message:
        self.clock += timedelta(seconds=self.rng.randint(15, 240))
        message = Message(
            id=_uuid(self.rng),
            conversation=self.conv.id,
            session=session,
            role=role,
            time=self.clock,
            text=_cap(text),
            name=self.conv.person if role == "user" else None,
        )
        self.conv.messages.append(message)
        return message


def _conversation(
    rng: random.Random, lang: str, index: int, person: str, split: str
) -> tuple[Conversation, list[Question]]:
    first = person.split()[0]
    conv = Conversation(
        id=_uuid(rng),
        lang=lang,
        split=split,
        person=person,
        account=_uuid(rng),
        title=rng.choice(T.TITLES[lang]),
    )
    events = rng.sample(T.EVENTS, EVENTS_PER_PERSON)
    chosen = {e["key"] for e in events}
    others = [e for e in T.EVENTS if e["key"] not in chosen]
    sessions = rng.randint(6, 8)
    day = datetime(2023, 1, 9, tzinfo=UTC) + timedelta(days=rng.randint(0, 420))
    starts = []
    for _ in range(sessions):
        starts.append(day + timedelta(hours=rng.randint(7, 21), minutes=rng.randint(0, 59)))
        day += timedelta(days=rng.randint(3, 30))

    # What each session holds: (what, event or None, lines), shuffled within the session.
    plan: list[list[tuple[str, dict[str, Any] | None, dict[str, str]]]] = [
        [] for _ in range(sessions)
    ]
    values: dict[str, dict[str, str]] = {}
    for event in events:
        v = _slot_values(rng, lang, event["slots"])
        v.update(name=person, first=first)
        values[event["key"]] = v
        has_later = "later" in event[lang]
        at = rng.randrange(sessions - 1 if has_later else sessions)
        plan[at].append(("say", event, v))
        if has_later:
            plan[rng.randrange(at + 1, sessions)].append(("later", event, v))
        if rng.random() < 0.6:
            plan[rng.randrange(sessions)].append(("distract", event, v))
    for event in rng.sample(others, 4):  # topics this person never had: pure distractors
        v = _slot_values(rng, lang, event["slots"])
        v.update(name=person, first=first)
        plan[rng.randrange(sessions)].append(("distract", event, v))
    fillers = list(T.FILLER[lang])
    rng.shuffle(fillers)
    longs = list(T.LONG_ANSWERS[lang])
    for number in range(sessions):
        for _ in range(rng.randint(3, 4)):
            if fillers:
                plan[number].append(("filler", None, {}))
        if longs and rng.random() < 0.3:
            plan[number].append(("long", None, {}))
        rng.shuffle(plan[number])

    writer = _Writer(rng, conv)
    said: dict[tuple[str, str], Message] = {}
    for number, items in enumerate(plan):
        writer.session(starts[number])
        if number == 0:
            writer.say(number, "user", rng.choice(T.GREETINGS[lang]).format(first=first))
            writer.say(
                number, "assistant", rng.choice(T.GREETING_REPLIES[lang]).format(first=first)
            )
        elif rng.random() < 0.5:
            writer.say(number, "user", rng.choice(T.RETURNS[lang]))
            writer.say(number, "assistant", rng.choice(T.RETURN_REPLIES[lang]))
        for what, event, v in items:
            fill = _Fill(v)
            if what == "filler":
                if not fillers:
                    continue
                ask, answer = fillers.pop()
                writer.say(number, "user", ask)
                writer.say(number, "assistant", answer)
            elif what == "long":
                if not longs:
                    continue
                ask, answer = longs.pop(rng.randrange(len(longs)))
                writer.say(number, "user", ask)
                writer.say(number, "assistant", answer)
            else:
                assert event is not None
                t = event[lang]
                if what == "say":
                    line = rng.choice(t["say"]).format_map(fill)
                    reply = rng.choice(t["reply"]).format_map(fill)
                elif what == "later":
                    line = t["later"].format_map(fill)
                    reply = rng.choice(T.ACKS[lang][2:])
                else:
                    line = rng.choice(t["distract"]).format_map(fill)
                    reply = rng.choice(T.ACKS[lang][:3])
                message = writer.say(number, "user", line)
                writer.say(number, "assistant", reply)
                if what != "distract":
                    said[(event["key"], what)] = message

    questions: list[Question] = []

    def ask(kind: str, event: str, text: str, answers: list[Message], answer: str) -> None:
        questions.append(
            Question(
                id="",
                lang=lang,
                split=split,
                kind=kind,
                conversation=conv.id,
                person=person,
                question=_cap(text),
                answers=[m.id for m in answers],
                answer=answer,
                event=event,
            )
        )

    for event in events:
        key = event["key"]
        t = event[lang]
        fill = _Fill(values[key])
        turn = said[(key, "say")]
        ask("fact", key, t["fact"].format_map(fill), [turn], turn.text)
        ask("paraphrase", key, t["para"].format_map(fill), [turn], turn.text)
        if "when" in t:
            ask("when", key, t["when"].format_map(fill), [turn], turn.time.date().isoformat())
        if "later" in t:
            later = said[(key, "later")]
            ask("two_turn", key, t["two"].format_map(fill), [turn, later], later.text)
    for pair in T.PAIRS:
        a, b = pair["events"]
        if a in chosen and b in chosen:
            turns = [said[(a, "say")], said[(b, "say")]]
            text = pair[lang].format_map(_Fill(name=person, first=first))
            ask("two_turn", f"{a}+{b}", text, turns, " / ".join(m.text for m in turns))
    return conv, questions


def build(seed: int = SEED) -> tuple[list[Conversation], list[Question]]:
    rng = random.Random(seed)
    conversations: list[Conversation] = []
    questions: list[Question] = []
    for lang in LANGS:
        people = T.PEOPLE[lang]
        held = set(rng.sample(range(len(people)), HELD_OUT_PER_LANG))
        for index, person in enumerate(people):
            split = "heldout" if index in held else "dev"
            conv, asked = _conversation(rng, lang, index, person, split)
            conversations.append(conv)
            questions.extend(asked)
    for number, q in enumerate(questions, 1):
        q.id = f"q{number:04d}"
    return conversations, questions


# ---------------------------------------------------------------------------------------------
# Export formats
# ---------------------------------------------------------------------------------------------


def _epoch(moment: datetime) -> float:
    return round(moment.timestamp(), 6)


def _claude_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def chatgpt_export(conversations: list[Conversation]) -> list[dict[str, Any]]:
    """`conversations.json` as ChatGPT's data export writes it: a `mapping` of nodes whose
    ids are the messages' ids, one linear branch per conversation."""
    out = []
    for conv in conversations:
        mapping: dict[str, Any] = {}
        root = "client-created-root"
        mapping[root] = {"id": root, "message": None, "parent": None, "children": []}
        parent = root
        for m in conv.messages:
            meta: dict[str, Any] = {}
            if m.role == "assistant":
                meta = {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}}
            mapping[m.id] = {
                "id": m.id,
                "message": {
                    "id": m.id,
                    "author": {"role": m.role, "name": None, "metadata": {}},
                    "create_time": _epoch(m.time),
                    "update_time": None,
                    "content": {"content_type": "text", "parts": [m.text]},
                    "status": "finished_successfully",
                    "end_turn": True if m.role == "assistant" else None,
                    "weight": 1.0,
                    "metadata": meta,
                    "recipient": "all",
                    "channel": None,
                },
                "parent": parent,
                "children": [],
            }
            mapping[parent]["children"].append(m.id)
            parent = m.id
        out.append(
            {
                "title": conv.title,
                "create_time": _epoch(conv.messages[0].time),
                "update_time": _epoch(conv.messages[-1].time),
                "mapping": mapping,
                "moderation_results": [],
                "current_node": parent,
                "plugin_ids": None,
                "conversation_id": conv.id,
                "conversation_template_id": None,
                "gizmo_id": None,
                "is_archived": False,
                "safe_urls": [],
                "default_model_slug": "gpt-4o",
                "id": conv.id,
            }
        )
    return out


def claude_export(conversations: list[Conversation]) -> dict[str, Any]:
    """`conversations.json` and `users.json` as Claude's data export writes them; each
    conversation names its account, whose `full_name` is the person's."""
    convs = []
    users = []
    for conv in conversations:
        slug = conv.person.split()[0].lower()
        users.append(
            {
                "uuid": conv.account,
                "full_name": conv.person,
                "email_address": ACCOUNT_EMAIL.format(slug=slug),
                "verified_phone_number": None,
            }
        )
        messages = []
        for m in conv.messages:
            stamp = _claude_time(m.time)
            messages.append(
                {
                    "uuid": m.id,
                    "text": m.text,
                    "content": [
                        {
                            "start_timestamp": stamp,
                            "stop_timestamp": stamp,
                            "flags": None,
                            "type": "text",
                            "text": m.text,
                            "citations": [],
                        }
                    ],
                    "sender": "human" if m.role == "user" else "assistant",
                    "created_at": stamp,
                    "updated_at": stamp,
                    "attachments": [],
                    "files": [],
                }
            )
        convs.append(
            {
                "uuid": conv.id,
                "name": conv.title,
                "summary": "",
                "created_at": _claude_time(conv.messages[0].time),
                "updated_at": _claude_time(conv.messages[-1].time),
                "account": {"uuid": conv.account},
                "chat_messages": messages,
            }
        )
    return {"conversations.json": convs, "users.json": users}


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def files(seed: int = SEED) -> dict[str, str]:
    """Every generated file of the set, by path relative to `recall_set/`."""
    conversations, questions = build(seed)
    claude = claude_export(conversations)
    return {
        "chatgpt/conversations.json": json.dumps(chatgpt_export(conversations), ensure_ascii=False),
        "claude/conversations.json": json.dumps(claude["conversations.json"], ensure_ascii=False),
        "claude/users.json": json.dumps(claude["users.json"], ensure_ascii=False, indent=1),
        "conversations.jsonl": _jsonl(
            [
                {
                    "id": c.id,
                    "lang": c.lang,
                    "split": c.split,
                    "person": c.person,
                    "title": c.title,
                    "messages": len(c.messages),
                    "sessions": c.messages[-1].session + 1,
                }
                for c in conversations
            ]
        ),
        "messages.jsonl": _jsonl(
            [
                {
                    "id": m.id,
                    "conversation": m.conversation,
                    "session": m.session,
                    "role": m.role,
                    "name": m.name,
                    "time": m.time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "text": m.text,
                }
                for c in conversations
                for m in c.messages
            ]
        ),
        "questions.jsonl": _jsonl(
            [
                {
                    "id": q.id,
                    "lang": q.lang,
                    "split": q.split,
                    "kind": q.kind,
                    "conversation": q.conversation,
                    "person": q.person,
                    "question": q.question,
                    "answers": q.answers,
                    "answer": q.answer,
                    "event": q.event,
                }
                for q in questions
            ]
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    made = files()
    if args.check:
        stale = [p for p, text in made.items() if _read(args.out / p) != text]
        for path in stale:
            print(f"{args.out / path}: differs from what recallgen.py makes", file=sys.stderr)
        return 1 if stale else 0
    for path, text in made.items():
        target = args.out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return 0


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


if __name__ == "__main__":
    raise SystemExit(main())
