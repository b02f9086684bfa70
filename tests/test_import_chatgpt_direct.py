"""The ChatGPT importer's direct path (`memvault.importers._chatgpt_direct`): a conversation of
the common shape written from the export's bytes straight to the JSON the vault keeps. Whatever
it writes must be byte for byte what the importer's Python path (`orjson.loads`,
`_ConversationReader.convert`, `orjson.dumps` with sorted keys) makes of the same bytes, with
the same index columns, no memories and no warnings; anything else it must decline (None).

Held on generated exports, on arbitrary conversations and JSON values (hypothesis), on every
escape and number form JSON allows, and on damaged bytes."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from importkit import conversation_errors, heap_growth
from memvault.importers import chatgpt as importer_module
from memvault.importers.base import (
    ConversationJson,
    ImportedConversation,
    ImportedMemory,
    ImportFormatError,
)
from memvault.importers.ingest import make_context, stored
from memvault.recall.index import message_rows, message_rows_json
from memvault.sources import open_target
from providergen import chatgpt as gen
from providergen import write_zip
from test_import_chatgpt_c import common_messages, messages

NOW = datetime(2026, 11, 1, tzinfo=UTC)
ACCOUNT = "user-Ab12"


def reader(
    feedback: dict[str, list[dict[str, Any]]] | None = None,
    comparisons: dict[str, list[dict[str, Any]]] | None = None,
) -> Any:
    context = make_context("conversations.json", "sha256:" + "0" * 64, now=NOW)
    context.conversations_as_json = True  # as an import's reader process: passages cut too
    return importer_module._ConversationReader(
        importer_module.IMPORTER.id, context, ACCOUNT, feedback or {}, comparisons or {}
    )


def by_python(item: bytes) -> tuple[bytes, Any, list[Any], list[str]] | None:
    """What the importer's Python path makes of `item`: the document's sorted-key JSON, its
    index columns, memories and warnings; None when it refuses the item."""
    python = reader()
    try:
        raw = importer_module._parse(item, "w")
        if not isinstance(raw, dict):
            return None
        document, memories = python.convert(raw, "w")
    except ImportFormatError:
        return None
    row = stored(document)
    columns = (row.id, row.platform, row.title, row.created_at, row.updated_at, row.message_count)
    data = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    return data, columns, memories, python.context.warnings


def check(item: bytes) -> bool:
    """The direct path on `item` is the Python path (the same bytes, index columns, memories
    and warnings) or declines, saying nothing; whether it took it."""
    ours = reader()
    direct = ours.direct(item, "w")
    if direct is None:
        assert ours.context.warnings == []
        return False
    expected = by_python(item)
    assert expected is not None, "taken directly, refused by the Python path"
    data, columns, memories, warnings = expected
    written, written_memories = direct
    assert written.data == data
    # The recall passages cut as the document was written: the rows the reader cut from the
    # stored document before (ids, text, offsets, times: equal, floats included).
    assert written.passages is not None
    assert orjson.loads(written.passages) == message_rows(orjson.loads(data))
    assert (written.id, written.platform, written.title, written.created_at,
            written.updated_at, written.message_count) == columns  # fmt: skip
    assert written_memories == memories
    assert ours.context.warnings == warnings
    return True


def check_c(item: bytes) -> bool:
    """The C code alone (no message handed to Python): the Python path's bytes, or None;
    whether it wrote them."""
    ours = reader()
    done = importer_module._direct(
        item, importer_module._NAMESPACE_HASH, ours._metadata_json, ours._account_json, None
    )
    if done is None:
        return False
    expected = by_python(item)
    assert expected is not None and done[0] == expected[0]
    cut = importer_module._direct(
        item, importer_module._NAMESPACE_HASH, ours._metadata_json, ours._account_json, None,
        message_rows_json,
    )  # fmt: skip
    assert cut[:7] == done and orjson.loads(cut[7]) == message_rows(orjson.loads(done[0]))
    return True


# -- generated exports ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_generated_exports_are_written_directly_as_python_writes_them(seed: int) -> None:
    """Every conversation of a generated export (all the cases the generator covers, English
    and Portuguese) and plain chats: written directly, the same bytes, memories and
    warnings, messages of other shapes (tool calls, attachments, custom instructions, the
    memory tool) by the Python fallback; a graph to repair declined. The plain chats are
    written by the C code alone."""
    full = json.loads(gen.export(seed=seed, count=40)["conversations.json"])
    plain = gen.conversations(seed + 1000, 20, full=False)
    taken = [check(orjson.dumps(raw)) for raw in full + plain]
    assert sum(taken) >= 0.8 * len(taken)
    assert all(check_c(orjson.dumps(raw)) for raw in plain)
    assert not all(check_c(orjson.dumps(raw)) for raw in full)
    items = full + plain
    # Pretty-printed and ASCII-escaped bytes of the same conversations: the same documents.
    for raw in items[:10]:
        check(json.dumps(raw, indent=2, ensure_ascii=True).encode())


def test_pam_25_a_whole_export_reads_the_same_with_and_without_the_direct_path(
    tmp_path: Any,
) -> None:
    """PAM §25: the importer with `conversations_as_json` gives the same records in the same
    order (a `ConversationJson` where the document was written directly, valid against the
    official conversation schema), memories and warnings."""
    files = gen.export(seed=9, count=30)
    plain = gen.conversations(99, 30, full=False)
    files["conversations.json"] = json.dumps(
        [*json.loads(files["conversations.json"]), *plain]
    ).encode()
    export = write_zip(files, tmp_path / "export.zip")

    def read(as_json: bool) -> tuple[list[Any], list[str]]:
        context = make_context(str(export), None, now=NOW)
        context.conversations_as_json = as_json
        with open_target(export) as target:
            records = list(importer_module.IMPORTER.read(target, context))
        return records, context.warnings

    python, python_warnings = read(False)
    direct, direct_warnings = read(True)
    assert direct_warnings == python_warnings
    assert len(direct) == len(python)
    taken = 0
    for ours, theirs in zip(direct, python, strict=True):
        if isinstance(ours, ConversationJson):
            taken += 1
            assert isinstance(theirs, ImportedConversation)
            assert ours.data == orjson.dumps(theirs.document, option=orjson.OPT_SORT_KEYS)
            assert conversation_errors(orjson.loads(ours.data)) == []
        elif isinstance(ours, ImportedMemory):
            assert isinstance(theirs, ImportedMemory) and ours.memory == theirs.memory
        else:
            assert isinstance(ours, ImportedConversation) and ours == theirs
    assert taken >= 30


def test_a_conversation_with_ratings_is_left_to_python() -> None:
    """`message_feedback.json` ratings are placed by the Python path."""
    raw = json.loads(gen.export(seed=2, count=1)["conversations.json"])[0]
    raw["mapping"] = {k: v for k, v in raw["mapping"].items() if k == "client-created-root"}
    item = orjson.dumps({**raw, "conversation_id": "c-1"})
    assert reader().direct(item, "w") is not None
    assert reader({"c-1": [{"id": "x", "rating": "thumbsUp"}]}).direct(item, "w") is None


def test_a_conversation_with_dashless_ratings_or_comparisons_is_left_to_python() -> None:
    """Issue #15 §5: an older rating names its conversation without dashes, and a model
    comparison is placed by the Python path too: the C path declines both, so the two paths
    still agree on which conversations they write."""
    raw = json.loads(gen.export(seed=2, count=1)["conversations.json"])[0]
    raw["mapping"] = {k: v for k, v in raw["mapping"].items() if k == "client-created-root"}
    cid = raw["conversation_id"]
    item = orjson.dumps(raw)
    assert reader().direct(item, "w") is not None
    key = importer_module.side_key(cid.replace("-", ""))  # as `read` keys the side files
    assert key == importer_module.side_key(cid)
    rating = {"message_id": "x", "conversation_id": cid.replace("-", "")}
    assert reader({key: [rating]}).direct(item, "w") is None
    assert reader(comparisons={key: [{"conversation_id": cid}]}).direct(item, "w") is None


# -- arbitrary conversations ---------------------------------------------------------------

json_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        json_text,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(json_text, inner, max_size=3)
    ),
    max_leaves=8,
)
#: Values the direct path writes itself: keys that need no escape, integers of 18 digits at
#: most, floats Python writes without an exponent.
plain_keys = st.text(
    st.characters(min_codepoint=0x20, exclude_categories=["Cs"], exclude_characters='"\\'),
    max_size=6,
)
plain_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**18) + 1, 10**18 - 1),
        st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: "e" not in repr(f)),
        json_text,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(plain_keys, inner, max_size=3)
    ),
    max_leaves=8,
)
conversation_times = st.one_of(
    st.none(), st.just(0), st.floats(-5, 4e10), st.integers(-5, 2_000_000_000), st.just("x")
)


@st.composite
def conversations(draw: st.DrawFn) -> dict[str, Any]:
    """A conversation of up to four messages under an empty root, mostly of the common shape,
    with conversation members of every type where the importer tells types apart."""
    chain = draw(st.lists(st.one_of(*[common_messages] * 9, messages), max_size=4))
    mapping: dict[str, Any] = {
        "client-created-root": {
            "id": "client-created-root",
            "message": None,
            "parent": None,
            "children": ["n0"] if chain else [],
        }
    }
    for index, message in enumerate(chain):
        node = f"n{index}"
        if message.get("id") == "SAME":
            message = {**message, "id": node}
        mapping[node] = {
            "id": node,
            "message": message,
            "parent": "client-created-root" if index == 0 else f"n{index - 1}",
            "children": [f"n{index + 1}"] if index + 1 < len(chain) else [],
            **draw(st.dictionaries(st.sampled_from(["x", "weight"]), plain_values, max_size=1)),
        }
    conversation: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {
                # Mostly what the direct path takes; the rest the Python path words.
                "conversation_id": st.sampled_from(["c-1"] * 6 + [None, "", 5]),
                "create_time": st.one_of(*[st.floats(1, 2e9)] * 3, conversation_times),
            },
            optional={
                "title": st.one_of(json_text, st.none(), st.integers(0, 3)),
                "update_time": conversation_times,
                "is_archived": st.one_of(st.booleans(), st.none(), st.just("yes")),
                "default_model_slug": st.one_of(json_text, st.none()),
                "id": st.one_of(st.just("c-1"), st.just("c-2"), st.none(), st.just("")),
                "gizmo_id": st.one_of(plain_values, plain_values, plain_values, json_values),
                "moderation_results": plain_values,
            },
        )
    )
    conversation["mapping"] = mapping
    order = draw(st.permutations(list(conversation)))
    return {key: conversation[key] for key in order}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversation=conversations(), ascii_only=st.booleans(), indent=st.sampled_from([None, 1]))
def test_any_conversation_is_written_as_python_writes_it_or_declined(
    conversation: dict[str, Any], ascii_only: bool, indent: int | None
) -> None:
    item = json.dumps(conversation, ensure_ascii=ascii_only, indent=indent).encode()
    check(item)
    check_c(item)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=json_values,
    where=st.sampled_from(["conversation", "message", "metadata", "node", "author"]),
    ascii_only=st.booleans(),
)
@example(value={"b": 1, "a": {"d": [1.5, -0.0, 1e16], "c": "\u2028\x7f"}}, where="metadata",
         ascii_only=True)  # fmt: skip
def test_any_json_value_kept_in_raw_metadata_is_written_as_orjson_writes_it(
    value: Any, where: str, ascii_only: bool
) -> None:
    """Any JSON value (any string, number, nesting) where the importer keeps it as it is:
    the same bytes as orjson's sorted-key serialization of what orjson read."""
    message = {
        "id": "n0",
        "author": {"role": "user", "name": None},
        "content": {"content_type": "text", "parts": ["olá"]},
        "create_time": 1700000000.123456,
        "metadata": {"model_slug": "gpt-4o"},
    }
    node = {"id": "n0", "message": message, "parent": None, "children": []}
    conversation = {"id": "c-1", "create_time": 1700000000.5, "mapping": {"n0": node}}
    target = {
        "conversation": conversation,
        "message": message,
        "metadata": message["metadata"],
        "node": node,
        "author": message["author"],
    }[where]
    target["kept"] = value
    item = json.dumps(conversation, ensure_ascii=ascii_only).encode()
    assert check_c(item) or not _writable(value, ascii_only)
    assert check(item) or where == "conversation"


def _writable(value: Any, ascii_only: bool) -> bool:
    """Whether the direct path writes `value` (it leaves big integers, floats Python would
    write with an exponent and keys written with an escape to the Python path)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return len(str(abs(value))) <= 18
    if isinstance(value, float):
        return "e" not in repr(value)
    if isinstance(value, list):
        return all(_writable(v, ascii_only) for v in value)
    return all(
        json.dumps(k, ensure_ascii=ascii_only)[1:-1] == k and _writable(v, ascii_only)
        for k, v in value.items()
    )


# -- strings and numbers -------------------------------------------------------------------


def one_value(text: str) -> bytes:
    """A one-message conversation whose node keeps `text` (raw JSON) in raw_metadata."""
    return (
        b'{"id":"c-1","create_time":1700000000.5,"mapping":{"n0":{"id":"n0","parent":null,'
        b'"children":[],"kept":' + text.encode() + b',"message":{"id":"n0","author":'
        b'{"role":"user"},"content":{"content_type":"text","parts":["x"]}}}}}'
    )


@pytest.mark.parametrize("code", range(0x80))
def test_every_ascii_escape_is_written_as_orjson_writes_it(code: int) -> None:
    """`\\u00XX` for every ASCII character, upper and lower case hex: decoded and written the
    way orjson writes the character (short escapes, \\u00XX for other controls, else as is)."""
    for escape in (f"\\u{code:04x}", f"\\u{code:04X}"):
        assert check_c(one_value(f'"a{escape}b"'))


@pytest.mark.parametrize(
    "text",
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\ud83d\\ude00 \\u00e9 \\u2028"', '"é😀\u2028\x7f"',
     '"\\uD83D\\uDE00"', '""', '"\\u0000"'],
)  # fmt: skip
def test_escapes_and_characters_beyond_ascii(text: str) -> None:
    assert check_c(one_value(text))


@pytest.mark.parametrize(
    "text",
    ["0", "-0", "7", "-12", "123456789012345678", "1.5", "-0.0", "0.0", "5.0", "0.1",
     "1700000000.123456", "1e2", "1E+2", "2.5e-3", "0.0001", "1000000000000000.5",
     "9999999999999998.0", "100.10", "3.14159265358979323846"],
)  # fmt: skip
def test_numbers_are_written_as_orjson_writes_what_it_read(text: str) -> None:
    assert check_c(one_value(text))


@pytest.mark.parametrize(
    "text",
    ["1234567890123456789", "1e16", "1e-5", "1.5e300", '{"a":1,"a":2}', '{"\\u0061":1}'],
)  # fmt: skip
def test_what_the_c_code_does_not_write_goes_to_python(text: str) -> None:
    """Numbers orjson reads as floats or writes with an exponent, repeated and escaped keys:
    the message holding them is converted by the Python fallback."""
    assert not check_c(one_value(text))
    assert check(one_value(text))


@pytest.mark.parametrize(
    "text",
    ["1e400", '"\\ud800"', '"\\udc00x"', '"\\ud800\\u0041"', "NaN", "01", "1.", ".5", "-",
     '"\\x"', "[1,]"],
)  # fmt: skip
def test_what_orjson_refuses_is_declined(text: str) -> None:
    """Lone surrogates, numbers that overflow, invalid JSON: the whole conversation is left
    to the Python path (which reads some with yajl and refuses the rest)."""
    assert reader().direct(one_value(text), "w") is None
    check(one_value(text))


@settings(deadline=None)  # each example also cuts and compares the passages; a loaded machine
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_float_is_written_as_orjson_writes_it_or_declined(value: float) -> None:
    for text in (repr(value), json.dumps(value), f"{value:.17g}"):
        if "e" not in text.lower():
            text += "" if "." in text else ".0"
        assert check_c(one_value(text)) or "e" in repr(value)
        assert check(one_value(text))


def test_an_item_of_millions_of_tokens_is_left_to_python() -> None:
    """Past two million JSON tokens (80 MB of them) the C code gives the item up: hostile
    input such as a long array of zeros costs it no more memory than that."""
    zeros = "[" + ",".join(["0"] * (1 << 21)) + "]"
    assert reader().direct(one_value(zeros), "w") is None
    assert check_c(one_value("[" + ",".join(["0"] * 1000) + "]"))


def test_invalid_utf8_and_control_characters_are_declined() -> None:
    for raw in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x01"):
        item = one_value('"a"').replace(b'"a"', b'"' + raw + b'"')
        assert reader().direct(item, "w") is None
        check(item)


# -- damaged bytes ---------------------------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 4))
def test_damaged_bytes_are_the_python_path_or_declined(seed: int, edits: int) -> None:
    """A conversation with bytes replaced, inserted or cut: whatever the direct path still
    takes is what the Python path makes of the same bytes; what the Python path refuses, it
    declines."""
    rng = random.Random(seed)
    item = bytearray(SAMPLE)
    for _ in range(edits):
        at = rng.randrange(len(item))
        what = rng.randrange(3)
        byte = rng.choice(b'{}[]",:\\ 0123456789.eE-tfnulx\xc3\xa9\xff')
        if what == 0:
            item[at] = byte
        elif what == 1:
            item.insert(at, byte)
        else:
            del item[at : at + rng.randrange(1, 8)]
    check(bytes(item))
    check_c(bytes(item))


SAMPLE = orjson.dumps(
    {
        "title": "Receita de pão",
        "create_time": 1700000000.25,
        "update_time": 1700000100,
        "mapping": {
            "root": {"id": "root", "message": None, "parent": None, "children": ["a"]},
            "a": {
                "id": "a",
                "parent": "root",
                "children": ["b"],
                "message": {
                    "id": "a",
                    "author": {"role": "user", "name": None, "metadata": {}},
                    "content": {"content_type": "text", "parts": ["Como faço pão?"]},
                    "create_time": 1700000001.5,
                    "status": "finished_successfully",
                    "metadata": {"request_id": "r1"},
                },
            },
            "b": {
                "id": "b",
                "parent": "a",
                "children": [],
                "message": {
                    "id": "b",
                    "author": {"role": "assistant"},
                    "content": {"content_type": "text", "parts": ["Farinha, água, sal."]},
                    "create_time": None,
                    "recipient": "all",
                    "metadata": {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}},
                },
            },
        },
        "conversation_id": "c-1",
        "id": "c-1",
        "is_archived": False,
    }
)


def test_a_node_member_of_its_own_is_kept_when_the_node_has_no_id() -> None:
    """Lossless: a node's members beyond id, message, parent and children are kept in
    raw_metadata.node whatever the node lacks (a node without `id` once lost them)."""
    item = orjson.dumps(
        {
            "id": "c-1",
            "create_time": 1700000000.5,
            "mapping": {
                "n0": {
                    "message": {"author": {"role": "user"}, "content": None},
                    "parent": None,
                    "children": [],
                    "weight": 1,
                }
            },
        }
    )
    assert check_c(item)
    expected = by_python(item)
    assert expected is not None
    (message,) = orjson.loads(expected[0])["messages"]
    assert message["raw_metadata"]["node"] == {"weight": 1}


def test_the_sample_is_taken_directly() -> None:
    """What the damaged-bytes test starts from is of the common shape."""
    assert check_c(SAMPLE)


# -- memory ------------------------------------------------------------------------------------


def test_the_direct_path_holds_no_memory_it_should_not() -> None:
    """Conversations taken, declined at every stage and refused, over and over: the memory
    Python allocates stays where it was."""
    raws = json.loads(gen.export(seed=3, count=30)["conversations.json"])
    items = [orjson.dumps(raw) for raw in raws]
    items += [SAMPLE, SAMPLE[:-1], one_value("-1e999"), one_value('"\\ud800"'), b"[]", b"{}"]
    direct = reader().direct

    def run_all() -> None:
        for item in items:
            direct(item, "w")

    grown = heap_growth(run_all)
    assert grown < 64 * 1024, grown


# -- recall passages cut as the document is written ------------------------------------------


def one_text(text: str, title: str = '"A title"', time: str = "1700000000.5") -> bytes:
    """A one-message conversation whose message's one part is `text` (raw JSON)."""
    return (
        b'{"id":"c-1","title":' + title.encode() + b',"create_time":1700000000.5,"mapping":'
        b'{"n0":{"id":"n0","parent":null,"children":[],"message":{"id":"n0","author":'
        b'{"role":"user"},"create_time":' + time.encode() + b',"content":{"content_type":'
        b'"text","parts":[' + text.encode() + b"]}}}}}"
    )


@pytest.mark.parametrize(
    "text",
    ['"plain"', '""', '"   "', '" padded "', '"\\n\\nafter a blank line"', '"ends with\\n"',
     '"ends with \\u00a0"', '"\\u3000ideographic space"', '"ends with \u2028"', '"\u00a0x"',
     '"\\t"', '"quote at the end\\""', '"slash at the end\\/"', '"\\ud83d\\ude00 emoji"',
     '"emoji at the end \\ud83d\\ude00"', '"😀"', '"x\\u001f"', '"\\u001cx"', '"\\u0085x"',
     '"x\\u200b"', '"é" '],
)  # fmt: skip
def test_recall_passages_cut_in_c_are_the_readers_rows_at_the_ends_of_a_text(text: str) -> None:
    """White space `str.strip` would take (ASCII, Unicode, escaped or not) at either end of
    a message's text, or none: the passages cut by the C conversion are the rows
    `message_rows` cuts from the stored document (issue 17: the index unchanged)."""
    assert check_c(one_text(text))
    assert check(one_text(text))


@pytest.mark.parametrize("size", [1, 599, 1499, 1500, 1501, 3000, 7777])
@pytest.mark.parametrize("char", ["a", "é", "😀", "\\n", "\\u00e9", "a. ", "word "])
def test_recall_passages_cut_in_c_split_a_long_text_as_the_reader_does(
    size: int, char: str
) -> None:
    """Around MAX_PASSAGE_CHARS (code points, not bytes: multi-byte and escaped characters),
    a long text split at paragraphs, sentences or spaces: the reader's rows."""
    from memvault.recall.index import MAX_PASSAGE_CHARS

    assert check_c(one_text('"' + char * size + 'z"'))
    assert MAX_PASSAGE_CHARS == 1500  # the C code's MAX_PASSAGE_CHARS


@pytest.mark.parametrize(
    "title", ['"A title"', '" padded title "', "null", '""', '"\\u00a0esc\\u00e9\\n"', "7"]
)
@pytest.mark.parametrize(
    "time",
    ["1700000000.5", "1700000000", "1700000000.123456", "1700000000.1234567", "0.0000005",
     "1.0000005", "1699999999.9999996", "null", "1234567890.000001"],
)  # fmt: skip
def test_recall_passages_cut_in_c_keep_the_title_and_time_of_the_reader(
    title: str, time: str
) -> None:
    """Every row's context (the title, stripped) and time (the stored `created_at`, as
    `timestamp_epoch` reads it, to the last bit of the float)."""
    check_c(one_text('"words"', title, time))
    check(one_text('"words"', title, time))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(st.characters(blacklist_categories=["Cs"]), max_size=40)
    | st.text(alphabet=" \n.!?aé\u00a0\u3000", min_size=1400, max_size=1700),
    ascii_only=st.booleans(),
    time=st.floats(min_value=0, max_value=4102444800, allow_nan=False),
)
def test_recall_passages_cut_in_c_are_the_readers_rows_for_any_text_and_time(
    text: str, ascii_only: bool, time: float
) -> None:
    """Any text (any character, escaped or not, short or around the split) and any time."""
    item = one_text(json.dumps(text, ensure_ascii=ascii_only), time=repr(time))
    check(item)
    check_c(item)
