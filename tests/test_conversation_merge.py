"""The merge of an incoming conversation with the one the vault holds
(`memvault.conversation_merge`), rule by rule and as properties over arbitrary documents:
a source that knows less changes nothing, one that knows more gives exactly itself, conflicts
go to the newer side, and nothing stored is lost (PAM §16.3: the vault is the archive; PAM §25
normalized conversations)."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.conversation_merge import (
    MergedConversation,
    merge_conversation,
    same_as_stored,
    same_json,
)
from memvault.importers.ingest import stored
from memvault.store.documents import EncodedDocument
from vaultkit import make_vault

T1 = "2026-01-01T10:00:00Z"
T2 = "2026-01-02T10:00:00Z"


def message(ident: str, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "role": "user",
        "content": {"type": "text", "text": text},
        "created_at": T1,
        "parent_id": None,
        "children_ids": [],
        **extra,
    }


def conversation(messages: list[dict[str, Any]], *, updated: str = T1, **extra: Any) -> dict:
    return {
        "schema": "portable-ai-memory-conversation",
        "schema_version": "1.0",
        "id": "c0e0a8f4-1111-4c1a-9f0e-2d4b5a6c7e8f",
        "provider": {"name": "chatgpt", "conversation_id": "x", "account_id": "acct"},
        "title": "Title",
        "temporal": {"created_at": T1, "updated_at": updated},
        "messages": messages,
        "import_metadata": {"importer": "memvault/0.1.0", "imported_at": updated},
        **extra,
    }


def as_bytes(document: dict[str, Any]) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS)


def merged(old: dict[str, Any], new: dict[str, Any]) -> MergedConversation:
    return merge_conversation(old, new)


# -- the rules ----------------------------------------------------------------------------------


def test_pam_16_3_a_newer_export_updates_values_and_keeps_the_messages_it_lacks() -> None:
    old = conversation([message("a", "one"), message("b", "two"), message("c", "three")])
    new = conversation(
        [message("a", "one"), message("c", "three"), message("d", "four")],
        updated=T2,
        title="Renamed",
    )
    result = merged(old, new)
    assert result.changed
    assert result.document["title"] == "Renamed"
    assert result.document["temporal"]["updated_at"] == T2
    assert [m["id"] for m in result.document["messages"]] == ["a", "b", "c", "d"]
    assert (result.new_messages, result.absent_messages) == (1, 1)
    assert result.document["import_metadata"] == new["import_metadata"]


def test_pam_16_3_an_older_export_only_fills_gaps() -> None:
    """An older export's values never replace newer ones; what only it has is added."""
    new = conversation([message("a", "one"), message("c", "three")], updated=T2, title="New")
    old = conversation(
        [message("a", "one (first version)"), message("b", "deleted later")],
        updated=T1,
        title="Old",
    )
    result = merged(new, old)
    assert result.document["title"] == "New"
    assert result.document["temporal"]["updated_at"] == T2
    texts = [m["content"]["text"] for m in result.document["messages"]]
    assert texts == ["one", "deleted later", "three"]
    assert (result.new_messages, result.absent_messages) == (1, 1)


def test_pam_16_3_a_missing_or_null_member_never_erases_a_value() -> None:
    rich = conversation(
        [message("a", "one", raw_metadata={"feedback": {"rating": "thumbsUp"}})],
        system_instruction="Be brief.",
    )
    poor = copy.deepcopy(rich)
    poor["provider"]["account_id"] = None
    del poor["system_instruction"]
    del poor["messages"][0]["raw_metadata"]
    result = merged(rich, poor)
    assert not result.changed
    assert as_bytes(result.document) == as_bytes(rich)


def test_pam_25_a_kept_message_stays_its_parents_child() -> None:
    old = conversation(
        [message("a", "q", children_ids=["b"]), message("b", "answer", parent_id="a")]
    )
    new = conversation(
        [message("a", "q", children_ids=["c"]), message("c", "regenerated", parent_id="a")],
        updated=T2,
    )
    result = merged(old, new)
    first = result.document["messages"][0]
    assert first["children_ids"] == ["b", "c"]
    assert [m["id"] for m in result.document["messages"]] == ["a", "b", "c"]


def test_a_cut_copy_never_overwrites_the_whole_text() -> None:
    """Copilot cuts answers at 100 characters plus "..." in one file and not the other
    (`raw_metadata.truncated`): the whole text wins whichever comes first."""
    whole = "x" * 150
    full = conversation([message("a", whole, raw_metadata={"truncated": False})])
    cut = conversation([message("a", "x" * 100 + "...", raw_metadata={"truncated": True})])
    assert not merged(full, cut).changed
    assert as_bytes(merged(full, cut).document) == as_bytes(full)
    upgraded = merged(cut, full)
    assert upgraded.changed
    assert upgraded.document["messages"][0]["content"]["text"] == whole
    assert upgraded.document["messages"][0]["raw_metadata"]["truncated"] is False


def test_values_of_another_json_type_are_a_change() -> None:
    """1, 1.0 and true are equal in Python and different JSON: the merge compares what the
    store keeps."""
    base = conversation([message("a", "one", raw_metadata={"n": 1})])
    for other in (1.0, True):
        changed = copy.deepcopy(base)
        changed["messages"][0]["raw_metadata"]["n"] = other
        result = merged(base, changed)
        assert result.changed
        assert result.document["messages"][0]["raw_metadata"]["n"] is other


def test_where_a_record_was_read_alone_is_no_change() -> None:
    """The same record read from another packaging (the entry's path in the zip or alone,
    a row's number in an older file) leaves the stored conversation as it is; with a real
    change, those members follow the newer side like the rest."""
    stored_doc = conversation(
        [message("a", "one", raw_metadata={"entry": "Takeout/My Activity/A.json", "row": 8})]
    )
    packaging = copy.deepcopy(stored_doc)
    packaging["messages"][0]["raw_metadata"] = {"entry": "A.json", "row": 6}
    assert not merged(stored_doc, packaging).changed
    newer = copy.deepcopy(packaging)
    newer["title"] = "Renamed"
    result = merged(stored_doc, newer)
    assert result.changed
    assert result.document["messages"][0]["raw_metadata"] == {"entry": "A.json", "row": 6}


def test_pam_25_put_conversations_reports_absent_messages_and_audits_only_changes(
    tmp_path: Path,
) -> None:
    rich = conversation([message("a", "one"), message("b", "two")])
    poor = conversation([message("a", "one")])
    with make_vault(tmp_path / "v") as vault:
        vault.put_conversations([stored(rich)])
        audited = len(vault.audit_log())
        (outcome,) = vault.put_conversations([stored(poor)])
        assert (outcome.outcome, outcome.new_messages, outcome.absent_messages) == (
            "unchanged",
            0,
            1,
        )
        assert len(vault.audit_log()) == audited
        assert as_bytes(dict(vault.get_conversation(rich["id"]).document)) == as_bytes(rich)
        assert vault.get_conversation(rich["id"]).message_count == 2


def test_pam_25_the_same_document_again_is_recognised_without_parsing() -> None:
    """A re-import's fast path compares the stored JSON text with the incoming one, the
    `import_metadata` member cut out of both; any other difference — a value, a JSON type,
    text kept in another form by an older vault — goes to the merge."""
    document = conversation([message("a", "one", raw_metadata={"n": 1})])
    again = copy.deepcopy(document)
    again["import_metadata"]["imported_at"] = T2
    text = as_bytes(document)
    assert same_json(text, as_bytes(again))
    assert same_as_stored(text, EncodedDocument.of(again))
    assert same_as_stored(text, again)
    assert not same_as_stored(None, again)
    for value in (2, 1.0, True):
        other = copy.deepcopy(again)
        other["messages"][0]["raw_metadata"]["n"] = value
        assert not same_json(text, as_bytes(other))
    spaced = orjson.dumps(document, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
    assert not same_json(spaced, as_bytes(again))
    assert not same_json(b"[1]", as_bytes(again))
    assert not same_json(text + b" trailing", as_bytes(again))
    without = {k: v for k, v in again.items() if k != "import_metadata"}
    assert not same_json(text, as_bytes(without))
    assert not merged(document, without).changed


# -- properties over arbitrary documents -------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c", "row", "file", "n"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2, width=16)
    | st.text("xyé", max_size=3)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=10,
)


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(0, 5))
    ids = [f"m{i}" for i in range(count)]
    messages = []
    for ident in ids:
        children = draw(st.lists(st.sampled_from(ids), unique=True, max_size=3)) if ids else []
        messages.append(
            message(
                ident,
                draw(st.text("ab", max_size=3)),
                children_ids=children,
                raw_metadata=draw(st.dictionaries(KEYS, JSON, max_size=3)),
            )
        )
    return conversation(messages, raw_metadata=draw(st.dictionaries(KEYS, JSON, max_size=3)))


def poorer(value: Any, rng: random.Random) -> Any:
    """`value` knowing less: members dropped (never a null one: a null and a missing member
    both say nothing) or made null, array items dropped; the rest as it was."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("id", "schema", "temporal"):
                out[key] = item
                continue
            roll = rng.random()
            if roll < 0.2 and item is not None:
                continue
            out[key] = None if roll < 0.3 else poorer(item, rng)
        return out
    if isinstance(value, list):
        return [poorer(item, rng) for item in value if rng.random() >= 0.25]
    return value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.integers(0, 2**32))
def test_pam_16_3_a_source_knowing_less_changes_nothing_and_the_fuller_gives_itself(
    rich: dict[str, Any], seed: int
) -> None:
    poor = poorer(rich, random.Random(seed))
    # rich, then poor: nothing changes
    kept = merged(rich, poor)
    assert not kept.changed
    assert as_bytes(kept.document) == as_bytes(rich)
    # poor, then rich: exactly rich (its import_metadata too, when anything changed)
    fuller = merged(poor, rich)
    without = {k: v for k, v in fuller.document.items() if k != "import_metadata"}
    assert as_bytes(without) == as_bytes({k: v for k, v in rich.items() if k != "import_metadata"})
    # and again: a no-op
    assert not merged(fuller.document, rich).changed
    assert not merged(fuller.document, poor).changed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), documents(), st.booleans())
def test_pam_16_3_any_merge_keeps_every_stored_message_and_settles(
    old: dict[str, Any], new: dict[str, Any], newer: bool
) -> None:
    """Whatever two versions meet: every stored message id is still there, the result is
    the same every time, and merging the same source into it again changes nothing."""
    if newer:
        new["temporal"]["updated_at"] = T2
    first = merged(old, new)
    again = merged(old, new)
    assert as_bytes(first.document) == as_bytes(again.document)
    ids = [m["id"] for m in first.document["messages"]]
    assert {m["id"] for m in old["messages"]} <= set(ids)
    assert {m["id"] for m in new["messages"]} <= set(ids)
    assert len(ids) == len(set(ids))
    assert not merged(first.document, new).changed
