"""No import loses data: a source that knows less than the vault changes nothing, a richer
one brings the vault to exactly what it alone gives, and the summary says how much of the
vault the source did not hold.

For every provider, pairs of a richer and a poorer source of the same account: the zip and
its bare main file, the export folder and one of its files, an export and an older one
(conversations and messages missing, values older). The vault is the archive (PAM §16.3 keeps
retracted data; PAM §25 conversations): what a newer or poorer source lacks stays.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from clikit import home, ok
from importkit import conversation_errors
from memvault.importers.detect import detect
from memvault.importers.ingest import IngestResult, ingest, make_context
from memvault.sources import open_target
from memvault.vault import Vault
from providergen import chatgpt, claude, copilot, gemini, grok, write_folder, write_zip
from vaultkit import PASSPHRASE, make_vault

__all__ = ["home"]  # the fixture, imported for pytest

NOW = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)


# -- importing and looking ----------------------------------------------------------------------


def run_import(vault: Vault, path: Path, *, readers: int = 0) -> IngestResult:
    """`path` imported as `memvault import` does, at a fixed moment."""
    with open_target(path) as target:
        return ingest(
            vault, detect(target), target, make_context(str(path), None, now=NOW), readers=readers
        )


#: Where in an export a record was read, inside `raw_metadata` (Gemini's entry names, the
#: file and row of Copilot's source rows): they differ with the packaging, not the data.
LOCATION = ("entry", "entries", "file", "row")


def _without_location(value: Any, raw: bool = False) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_location(v, raw or k == "raw_metadata")
            for k, v in value.items()
            if not (raw and k in LOCATION)
        }
    if isinstance(value, list):
        return [_without_location(v, raw) for v in value]
    return value


def documents(vault: Vault, *, provenance: bool = True) -> dict[str, bytes]:
    """Every stored conversation document, as the sorted-key JSON the store keeps; without
    `import_metadata` and the `LOCATION` members unless `provenance`."""
    return {
        c.id: orjson.dumps(
            c.document
            if provenance
            else _without_location({k: v for k, v in c.document.items() if k != "import_metadata"}),
            option=orjson.OPT_SORT_KEYS,
        )
        for c in vault.conversations()
    }


def message_ids(vault: Vault) -> dict[str, set[str]]:
    return {c.id: {m["id"] for m in c.document["messages"]} for c in vault.conversations()}


# -- the richer and poorer sources of each provider ---------------------------------------------


def _chatgpt_zip(dest: Path, files: dict[str, bytes]) -> Path:
    return write_zip(files, dest / "chatgpt-export.zip")


def chatgpt_bare(dest: Path) -> tuple[Path, Path]:
    files = chatgpt.export(seed=7, count=12)
    bare = dest / "bare"
    bare.mkdir()
    (bare / "conversations.json").write_bytes(files["conversations.json"])
    return _chatgpt_zip(dest, files), bare / "conversations.json"


def _chatgpt_older(conversations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same account's export before its last two conversations, and before the last
    message of every other conversation was written."""
    older = copy.deepcopy(conversations[:-2])
    for number, conversation in enumerate(older):
        if number % 2:
            continue
        mapping = conversation["mapping"]
        leaf = conversation["current_node"]
        parent = mapping[leaf]["parent"]
        gone = {leaf}
        stack = list(mapping[leaf]["children"])
        while stack:
            node = stack.pop()
            gone.add(node)
            stack.extend(mapping[node]["children"])
        for node in gone:
            del mapping[node]
        mapping[parent]["children"] = [c for c in mapping[parent]["children"] if c not in gone]
        conversation["current_node"] = parent
        conversation["update_time"] = conversation["update_time"] - 100.0
    return older


def chatgpt_older(dest: Path) -> tuple[Path, Path]:
    files = chatgpt.export(seed=7, count=12)
    older = _chatgpt_older(json.loads(files["conversations.json"]))
    old_files = dict(files)
    old_files["conversations.json"] = json.dumps(older, ensure_ascii=False).encode()
    old_files["message_feedback.json"] = json.dumps(chatgpt.feedback_for(older)).encode()
    (dest / "old").mkdir()
    return _chatgpt_zip(dest, files), _chatgpt_zip(dest / "old", old_files)


def claude_file(dest: Path) -> tuple[Path, Path]:
    files = claude.export()
    (dest / "zip").mkdir()
    (dest / "file").mkdir()
    return claude.write(dest / "zip", "zip", files), claude.write(dest / "file", "file", files)


def claude_older(dest: Path) -> tuple[Path, Path]:
    files = claude.export()
    older = copy.deepcopy(files)
    conversations = older["conversations.json"][:-1]
    for conversation in conversations:
        if len(conversation["chat_messages"]) >= 2:
            del conversation["chat_messages"][-1]
            conversation["updated_at"] = conversation["chat_messages"][-1]["updated_at"]
    older["conversations.json"] = conversations
    (dest / "new").mkdir()
    (dest / "old").mkdir()
    return claude.write(dest / "new", "zip", files), claude.write(dest / "old", "zip", older)


def grok_file(dest: Path) -> tuple[Path, Path]:
    files = grok.export()
    (dest / "zip").mkdir()
    (dest / "file").mkdir()
    return grok.write(dest / "zip", "zip", files), grok.write(dest / "file", "file", files)


def grok_older(dest: Path) -> tuple[Path, Path]:
    files = grok.export()
    older = copy.deepcopy(files)
    backend = grok.main_file(older)
    backend["conversations"] = backend["conversations"][:-1]
    for item in backend["conversations"]:
        responses = item["responses"]
        if len(responses) < 2:
            continue
        last = responses[-1].get("response", responses[-1])
        parents = {r.get("response", r).get("parent_response_id") for r in responses}
        if last["_id"] not in parents:
            del responses[-1]
            item["conversation"]["modify_time"] = item["conversation"]["create_time"]
    (dest / "new").mkdir()
    (dest / "old").mkdir()
    return grok.write(dest / "new", "zip", files), grok.write(dest / "old", "zip", older)


def gemini_file(dest: Path) -> tuple[Path, Path]:
    bare = dest / "MyActivity.json"
    bare.write_bytes(gemini.activity_bytes())
    return write_zip(gemini.export(), dest / "takeout.zip"), bare


def gemini_folder(dest: Path) -> tuple[Path, Path]:
    files = gemini.export()
    return write_zip(files, dest / "takeout.zip"), write_folder(files, dest / "Takeout")


def gemini_older(dest: Path) -> tuple[Path, Path]:
    """The log a few prompts earlier: it is newest first, so the first events go."""
    files = gemini.export()
    log = json.loads(files[gemini.ACTIVITY_PATH["en"]])
    older = dict(files)
    older[gemini.ACTIVITY_PATH["en"]] = json.dumps(log[3:], ensure_ascii=False).encode()
    return write_zip(files, dest / "takeout.zip"), write_zip(older, dest / "takeout-old.zip")


#: The chat of the Copilot generator that is in both the activity history and chat activity.
SHARED_CHAT = "Receitas vegetarianas"


def _activity_history(keep: Callable[[copilot.Row], bool]) -> bytes:
    """`copilot-activity-history.csv` with only the rows `keep` accepts (BOM, CRLF)."""
    body = [copilot.cells(r) for r in copilot.rows() if r.file == copilot.ACTIVITY and keep(r)]
    return copilot.csv_bytes(copilot.HEADERS[copilot.ACTIVITY], body, bom=True, crlf=True)


def copilot_folder(dest: Path) -> Path:
    """The dashboard export, where the shared chat's last exchange is in the chat activity
    only (the activity history stops before it): the activity history alone knows less."""
    files = copilot.export()
    files[copilot.ACTIVITY] = _activity_history(lambda r: r.chat != SHARED_CHAT or r.number < 4)
    return write_folder(files, dest / "copilot")


def copilot_history(dest: Path) -> tuple[Path, Path]:
    folder = copilot_folder(dest)
    return folder, folder / copilot.ACTIVITY


def copilot_chat(dest: Path) -> tuple[Path, Path]:
    """The chat activity alone holds the shared chat's answers cut to 100 characters."""
    folder = write_folder(copilot.export(), dest / "copilot")
    return folder, folder / copilot.CHAT


def copilot_older(dest: Path) -> tuple[Path, Path]:
    """An older export: each chat's last row not written yet."""
    truth = copilot.rows()
    last = {}
    for row in truth:
        last[(row.file, row.chat)] = row.number
    files = copilot.export()
    older = dict(files)
    for name, header in copilot.HEADERS.items():
        body = [
            copilot.cells(r) for r in truth if r.file == name and r.number < last[(name, r.chat)]
        ]
        raw = files[name]
        older[name] = copilot.csv_bytes(
            header, body, bom=raw.startswith(b"\xef\xbb\xbf"), crlf=b"\r\n" in raw
        )
    return write_folder(files, dest / "new"), write_folder(older, dest / "old")


@dataclass(frozen=True, slots=True)
class Pair:
    name: str
    make: Callable[[Path], tuple[Path, Path]]
    #: the poorer source holds the same data in another packaging: importing the richer one
    #: after it changes nothing either
    same_data: bool = False


PAIRS = [
    Pair("chatgpt-zip-vs-bare-conversations-json", chatgpt_bare),
    Pair("chatgpt-export-vs-older-export", chatgpt_older),
    Pair("claude-zip-vs-conversations-json", claude_file),
    Pair("claude-export-vs-older-export", claude_older),
    Pair("grok-zip-vs-backend-file", grok_file),
    Pair("grok-export-vs-older-export", grok_older),
    Pair("gemini-takeout-zip-vs-activity-file", gemini_file, same_data=True),
    Pair("gemini-takeout-zip-vs-extracted-folder", gemini_folder, same_data=True),
    Pair("gemini-log-vs-older-log", gemini_older),
    Pair("copilot-folder-vs-activity-history-alone", copilot_history),
    Pair("copilot-folder-vs-chat-activity-alone", copilot_chat),
    Pair("copilot-export-vs-older-export", copilot_older),
]


@pytest.fixture(params=PAIRS, ids=[p.name for p in PAIRS])
def pair(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Pair, Path, Path]:
    spec: Pair = request.param
    sources = tmp_path / "sources"
    sources.mkdir()
    rich, poor = spec.make(sources)
    return spec, rich, poor


# -- the rule, for every provider ---------------------------------------------------------------


def test_pam_16_3_a_poorer_source_after_a_richer_one_changes_nothing(
    pair: tuple[Pair, Path, Path], tmp_path: Path
) -> None:
    """Rich, then poor: every conversation unchanged, the stored documents byte for byte
    those of the rich import alone, and the summary counts what the poor source lacked."""
    _spec, rich, poor = pair
    with make_vault(tmp_path / "alone") as alone:
        run_import(alone, rich)
        expected = documents(alone)
        rich_messages = message_ids(alone)
    with make_vault(tmp_path / "poor-only") as poor_only:
        run_import(poor_only, poor)
        poor_messages = message_ids(poor_only)
    with make_vault(tmp_path / "v") as vault:
        run_import(vault, rich)
        result = run_import(vault, poor)
        assert documents(vault) == expected
        assert result.conversations_updated == 0
        assert result.conversations_new == len(set(poor_messages) - set(rich_messages))
        assert result.conversations_absent == len(set(rich_messages) - set(poor_messages))
        assert result.messages_absent == sum(
            len(rich_messages[c] - ids) for c, ids in poor_messages.items() if c in rich_messages
        )
        assert result.to_json()["conversations"]["absent"] == result.conversations_absent
        assert result.to_json()["messages"]["absent"] == result.messages_absent


def test_pam_16_3_rich_poor_rich_is_rich_alone_byte_for_byte(
    pair: tuple[Pair, Path, Path], tmp_path: Path
) -> None:
    """Rich, poor, rich again: the stored documents are those of the rich import alone, byte
    for byte (import_metadata included), and the last import finds nothing to change."""
    _spec, rich, poor = pair
    with make_vault(tmp_path / "alone") as alone:
        run_import(alone, rich)
        expected = documents(alone)
    with make_vault(tmp_path / "v") as vault:
        run_import(vault, rich)
        run_import(vault, poor)
        last = run_import(vault, rich)
        assert documents(vault) == expected
        assert (last.conversations_new, last.conversations_updated) == (0, 0)
        assert last.conversations_absent == last.messages_absent == 0


def test_pam_16_3_a_richer_source_after_a_poorer_one_gives_the_richer_state(
    pair: tuple[Pair, Path, Path], tmp_path: Path
) -> None:
    """Poor, then rich: the conversations are those of the rich import alone, apart from
    provenance (`import_metadata` and where in the export a record was read, kept from the
    import that last changed the conversation); where the poor source is the same data in
    another packaging, nothing is updated."""
    spec, rich, poor = pair
    with make_vault(tmp_path / "alone") as alone:
        run_import(alone, rich)
        expected = documents(alone, provenance=False)
    with make_vault(tmp_path / "v") as vault:
        run_import(vault, poor)
        before = documents(vault, provenance=False)
        result = run_import(vault, rich)
        if spec.same_data:
            assert result.conversations_updated == result.conversations_new == 0
            assert documents(vault, provenance=False) == before
        else:
            assert documents(vault, provenance=False) == expected
            assert result.conversations_updated > 0


def test_pam_25_the_merge_is_the_same_with_reader_processes(
    pair: tuple[Pair, Path, Path], tmp_path: Path
) -> None:
    """`memvault import` reads with child processes: the merge, done where the vault is
    written, stores the same bytes as an import without them, and every merged document is
    still a valid PAM conversation (official schema, PAM §25)."""
    _spec, rich, poor = pair
    stored = []
    for readers in (0, 2):
        with make_vault(tmp_path / f"v{readers}") as vault:
            run_import(vault, poor, readers=readers)
            run_import(vault, rich, readers=readers)
            run_import(vault, poor, readers=readers)
            stored.append(documents(vault))
    assert stored[0] == stored[1]
    for text in stored[0].values():
        assert conversation_errors(orjson.loads(text)) == []


# -- the findings, through the CLI --------------------------------------------------------------


def _stored(home: Path) -> tuple[int, dict[str, bytes]]:
    with Vault.open(home, PASSPHRASE) as vault:
        return sum(c.message_count for c in vault.conversations()), documents(vault)


def test_copilot_activity_history_alone_after_the_folder_keeps_every_message(
    home: Path, tmp_path: Path
) -> None:
    """Issue: the export folder, then `copilot-activity-history.csv` alone, then the folder:
    the vault went 160 → 149 → 160 messages. A source that knows less never removes what the
    vault holds; the summary says what it lacked."""
    folder, history = copilot_history(tmp_path)
    ok("init")
    ok("import", folder)
    count, after_folder = _stored(home)
    summary = ok("import", history, "--json").json()
    assert _stored(home) == (count, after_folder)
    assert summary["conversations"]["updated"] == 0
    assert summary["messages"]["absent"] == 2  # the shared chat's last exchange
    assert summary["conversations"]["absent"] > 0  # chats only in the other files
    text = ok("import", history).stdout
    assert "Nothing new" in text
    assert "were not in this source; kept" in text
    again = ok("import", folder, "--json").json()
    assert again["conversations"]["new"] == again["conversations"]["updated"] == 0
    assert _stored(home) == (count, after_folder)


def test_copilot_cut_copies_never_overwrite_the_full_text(home: Path, tmp_path: Path) -> None:
    """The chat activity alone holds answers cut at 100 characters plus "...": after the
    folder gave the full text, importing it leaves the full text (and `truncated: false`)."""
    folder, chat = copilot_chat(tmp_path)
    ok("init")
    ok("import", folder)
    _, before = _stored(home)
    summary = ok("import", chat, "--json").json()
    assert summary["conversations"]["updated"] == 0
    _, after = _stored(home)
    assert after == before
    texts = [
        m["content"]["text"]
        for d in after.values()
        for m in orjson.loads(d)["messages"]
        if m["raw_metadata"].get("truncated") is False and m["role"] == "assistant"
    ]
    assert copilot.LONG_PT in texts


def test_chatgpt_bare_conversations_json_after_the_zip_is_unchanged(
    home: Path, tmp_path: Path
) -> None:
    """Issue: the zip, its bare `conversations.json`, the zip again — every conversation was
    "updated" each time and `account_id` went back to null. The same data in another
    packaging is a no-op; a member the bare file lacks (the account from `user.json`, the
    ratings from `message_feedback.json`) is never erased."""
    zipped, bare = chatgpt_bare(tmp_path)
    ok("init")
    first = ok("import", zipped, "--json").json()
    _, after_zip = _stored(home)
    for source in (bare, zipped):
        summary = ok("import", source, "--json").json()
        assert summary["conversations"] == {
            "new": 0,
            "updated": 0,
            "unchanged": first["conversations"]["new"],
            "absent": 0,
        }
        assert _stored(home)[1] == after_zip
    accounts = {orjson.loads(d)["provider"]["account_id"] for d in after_zip.values()}
    assert accounts == {chatgpt.ACCOUNT_ID}
    assert any(
        "feedback" in m["raw_metadata"]
        for d in after_zip.values()
        for m in orjson.loads(d)["messages"]
    )


def test_chatgpt_older_export_keeps_newer_messages_and_values(home: Path, tmp_path: Path) -> None:
    """An older export after a newer one: the conversations and messages it lacks stay,
    its older `update_time` and `current_node` do not replace the newer ones, and the summary
    counts what it lacked."""
    newer, older = chatgpt_older(tmp_path)
    ok("init")
    ok("import", newer)
    count, before = _stored(home)
    summary = ok("import", older, "--json").json()
    assert _stored(home) == (count, before)
    assert summary["conversations"]["absent"] == 2
    assert summary["messages"]["absent"] == 5  # one leaf in every other of 10 conversations


def test_memory_text_a_shorter_list_removes_no_memory(home: Path, tmp_path: Path) -> None:
    """A pasted memory list, then part of it, then all of it: the memories the shorter paste
    lacks stay, and nothing is counted as new or reinforced (PAM §16.3)."""
    full = tmp_path / "full.txt"
    part = tmp_path / "part.txt"
    items = [
        "1. [2025-01-04]. User lives in Porto.",
        "2. [2025-02-11]. User prefers metric units.",
        "3. [2025-03-20]. Usuário gosta de café sem açúcar.",
    ]
    full.write_text("\n".join(items) + "\n", "utf-8")
    part.write_text(items[1] + "\n", "utf-8")
    ok("init")
    ok("import", full, "--from", "memory-text")
    memories = ok("list", "--json").json()
    for source in (part, full):
        summary = ok("import", source, "--from", "memory-text", "--json").json()
        assert summary["memories"]["new"] == summary["memories"]["reinforced"] == 0
        assert ok("list", "--json").json() == memories


# -- PAM imports: the same rule ---------------------------------------------------------------


def _pam_export(tmp_path: Path, name: str) -> Path:
    ok("export", "-o", tmp_path / name)
    return tmp_path / name


def _conversation_files(directory: Path) -> dict[str, int]:
    """Each exported conversation file and its number of messages."""
    return {
        path.name: len(json.loads(path.read_text("utf-8"))["messages"])
        for path in sorted((directory / "conversations").iterdir())
    }


def _fresh_export_id(store: Path, target: Path) -> Path:
    """The memory-store alone, as another export (a new export_id: not known to the vault)."""
    doc = json.loads(store.read_text("utf-8"))
    doc["export_id"] = "0b7c1f7e-3d4a-4c55-9a1e-2f6d8b9c0a11"
    target.write_text(json.dumps(doc), "utf-8")
    return target


def test_pam_16_3_a_memory_store_without_its_conversation_files_keeps_the_vaults_conversations(
    home: Path, tmp_path: Path
) -> None:
    """A PAM memory-store imported alone lists the conversations in its index but carries none
    of their files: the vault's conversation documents stay whole (it once replaced each with
    an empty document, so the next export wrote no conversation at all)."""
    ok("init")
    ok("import", write_zip(chatgpt.export(seed=3, count=8), tmp_path / "chatgpt.zip"))
    before = _conversation_files(_pam_export(tmp_path, "before"))
    alone = _fresh_export_id(tmp_path / "before" / "memory-store.json", tmp_path / "alone.json")
    summary = ok("import", alone, "--json").json()
    assert summary["conversations"] == 0  # nothing the vault did not hold
    assert _conversation_files(_pam_export(tmp_path, "after")) == before


def test_pam_16_3_an_older_pam_export_keeps_the_newer_messages(home: Path, tmp_path: Path) -> None:
    """An older PAM export of a conversation (fewer messages) imported after a newer one
    leaves every message the vault holds; the same export imported back is unchanged."""
    ok("init")
    ok("import", write_zip(chatgpt.export(seed=3, count=8), tmp_path / "chatgpt.zip"))
    full = _pam_export(tmp_path, "full")
    before = _conversation_files(full)
    older = tmp_path / "older"
    shutil.copytree(full, older)
    _fresh_export_id(full / "memory-store.json", older / "memory-store.json")
    name = max(before, key=lambda n: before[n])
    doc = json.loads((older / "conversations" / name).read_text("utf-8"))
    kept = doc["messages"][: len(doc["messages"]) // 2]
    kept_ids = {m["id"] for m in kept}
    for message in kept:
        message["children_ids"] = [c for c in message["children_ids"] if c in kept_ids]
    doc["messages"] = kept
    (older / "conversations" / name).write_text(json.dumps(doc), "utf-8")
    ok("import", older, "--allow-unverified")
    assert _conversation_files(_pam_export(tmp_path, "after")) == before


def test_copilot_a_source_without_a_chats_first_messages_finds_the_chat_by_its_messages(
    tmp_path: Path,
) -> None:
    """Copilot's export names no conversation: the importer names a chat by its name and first
    message. An activity history that lacks a chat's first two messages named it otherwise,
    and the vault kept the chat twice, its later messages in both. The chat is now found by
    the messages the vault already holds (same platform and title), whichever comes first."""
    files = copilot.export()
    text = files["copilot-activity-history.csv"].decode("utf-8-sig")
    header, *rows = text.splitlines(keepends=True)
    assert rows[0].startswith("Receitas vegetarianas,") and rows[1].startswith("Receitas")
    later = tmp_path / "later"
    later.mkdir()
    (later / "copilot-activity-history.csv").write_text(header + "".join(rows[2:]), "utf-8")
    folder = write_folder(files, tmp_path / "folder")
    for order in ((folder, later / "copilot-activity-history.csv"), (later, folder)):
        with make_vault(tmp_path / f"v-{order[0].name}") as vault:
            for source in order:
                run_import(vault, source)
            chats = [c for c in vault.conversations() if c.title == "Receitas vegetarianas"]
            assert len(chats) == 1, [c.id for c in chats]
            ids = [m["id"] for c in vault.conversations() for m in c.document["messages"]]
            assert len(ids) == len(set(ids))  # no message kept twice
            assert len(chats[0].document["messages"]) == 4
