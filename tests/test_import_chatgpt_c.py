"""The ChatGPT importer's C parts (`memvault.importers._chatgpt`) against their Python
reference: the message graph and times (`_Graph`), the per-message loop (`_messages`) and the
timestamps (`iso`) give the same documents, memories and warnings for every conversation,
generated exports, arbitrary messages and arbitrary graphs alike."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from importkit import heap_growth
from memvault.importers import _chatgpt
from memvault.importers import chatgpt as importer_module
from memvault.importers.base import ImportedConversation, ImportedMemory
from memvault.importers.ids import stable_id
from memvault.importers.ingest import make_context
from memvault.sources import open_target
from providergen import chatgpt as gen
from providergen import write_zip

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def read_all(path: Path) -> tuple[list[Any], list[Any], list[str]]:
    with open_target(path) as target:
        context = make_context(str(path), None, now=NOW)
        records = list(importer_module.IMPORTER.read(target, context))
    conversations = [dict(r.document) for r in records if isinstance(r, ImportedConversation)]
    memories = [dict(r.memory) for r in records if isinstance(r, ImportedMemory)]
    return conversations, memories, context.warnings


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_generated_exports_convert_the_same_in_c_and_python(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = write_zip(gen.export(seed=seed, count=30), tmp_path / "export.zip")
    calls: list[str] = []
    original = importer_module._ConversationReader._message

    def counting(reader: Any, node: str, *args: Any) -> Any:
        calls.append(node)
        return original(reader, node, *args)

    graphs: list[bool] = []  # per conversation: whether the C graph took it
    c_graph = importer_module._c_graph

    def counting_graph(*args: Any) -> Any:
        result = c_graph(*args)
        graphs.append(result is not None)
        return result

    monkeypatch.setattr(importer_module._ConversationReader, "_message", counting)
    monkeypatch.setattr(importer_module, "_c_graph", counting_graph)
    in_c = read_all(export)
    left_to_python = len(calls)
    in_python = python_reference(monkeypatch, lambda: read_all(export))
    total = len(calls) - left_to_python  # the reference converts every message in Python
    assert in_c == in_python
    assert total == sum(len(c["messages"]) for c in in_python[0])
    # Most messages are plain text and most graphs plain trees, taken in C; the rest still
    # came out the same.
    assert 0 < left_to_python < total / 2
    assert graphs.count(True) > len(graphs) / 2


def python_reference(monkeypatch: pytest.MonkeyPatch, run: Callable[[], Any]) -> Any:
    """What `run` gives with the importer's C parts replaced by their Python reference."""
    with monkeypatch.context() as patch:
        patch.setattr(importer_module, "_convert_messages", importer_module._messages)
        patch.setattr(importer_module, "_c_graph", lambda *args: None)
        return run()


def test_a_tool_call_is_left_to_python_and_placed_like_any_message() -> None:
    """An assistant message to a recipient is a tool call: the C loop hands it to the
    reader's Python code and gives the result its ids and time like any other message."""
    message = {
        "id": "m1",
        "author": {"role": "assistant"},
        "content": {"content_type": "text", "parts": ["x = 1"]},
        "recipient": "python",
        "create_time": 1700000000.5,
    }
    conversation = {"id": "c", "mapping": {"m1": {"id": "m1", "message": message}}}
    expected = python_reference(pytest.MonkeyPatch(), lambda: convert(conversation))
    assert convert(conversation) == expected
    (converted,) = expected[0]["messages"]
    assert converted["tool_calls"] == [{"name": "python", "input": "x = 1"}]
    assert converted["created_at"] == "2023-11-14T22:13:20.500000Z"


def test_a_node_without_an_id_keeps_its_own_members_in_c_and_python() -> None:
    """Lossless: the node members with no PAM home are kept in raw_metadata.node however
    many of id, message, parent and children the node has."""
    node = {"message": {"author": {"role": "user"}}, "parent": None, "weight": 1}
    conversation = {"id": "c", "create_time": 1.0, "mapping": {"n0": node}}
    expected = python_reference(pytest.MonkeyPatch(), lambda: convert(conversation))
    assert convert(conversation) == expected
    (converted,) = expected[0]["messages"]
    assert converted["raw_metadata"]["node"] == {"weight": 1}


def convert(raw: dict[str, Any]) -> tuple[dict[str, Any], list[Any], list[str]]:
    context = make_context("conversations.json", None, now=NOW)
    reader = importer_module._ConversationReader(importer_module.IMPORTER.id, context, None, {})
    document, memories = reader.convert(raw, "conversations.json: conversation 0")
    return document, memories, context.warnings


# -- arbitrary messages --------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "all", "text", "role", "user", "gpt-4o", "olá"]),
)
small = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=2), st.dictionaries(st.sampled_from("abc"), inner, max_size=2)
    ),
    max_leaves=4,
)
roles = st.sampled_from(["user", "assistant", "system", "tool", "developer", "critic", "odd"])
authors = st.one_of(
    st.fixed_dictionaries(
        {"role": st.one_of(roles, scalars)},
        optional={"name": st.one_of(st.none(), st.text(max_size=3)), "metadata": small},
    ),
    small,
)
texts = st.text(max_size=8)
contents = st.one_of(
    st.none(),
    st.fixed_dictionaries({"content_type": st.just("text"), "parts": st.lists(texts, max_size=2)}),
    st.fixed_dictionaries(
        {"content_type": st.sampled_from(["text", "code", "odd", None]), "parts": small}
    ),
    st.fixed_dictionaries(
        {"content_type": st.just("text"), "parts": st.lists(texts, max_size=1), "x": small}
    ),
    st.fixed_dictionaries({"content_type": st.just("code"), "text": texts, "language": scalars}),
    small,
)
metadatas = st.one_of(
    st.none(),
    st.just({}),
    st.fixed_dictionaries(
        {}, optional={"model_slug": st.one_of(scalars, texts), "finish_details": small}
    ),
    st.fixed_dictionaries(
        {"attachments": st.lists(st.fixed_dictionaries({"name": texts}), max_size=1)}
    ),
    st.fixed_dictionaries({"citations": small}),
    scalars,
)
times = st.one_of(
    st.none(),
    st.just(0),
    st.floats(1, 32503680000),
    st.integers(1, 2_000_000_000),
    st.just("x"),
)
messages = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.just("SAME"), texts, scalars),
        "author": authors,
        "content": contents,
        "metadata": metadatas,
        "recipient": st.one_of(st.sampled_from(["all", "", "bio", "python"]), scalars),
        "create_time": times,
        "status": scalars,
        "weight": scalars,
        "end_turn": scalars,
    },
)
#: Messages of the shape the C loop converts itself, varied where it must match Python.
common_messages = st.fixed_dictionaries(
    {
        "author": st.fixed_dictionaries(
            {"role": st.sampled_from(["user", "assistant", "system", "tool"])},
            optional={"name": st.one_of(st.none(), texts), "metadata": st.one_of(small)},
        ),
        "content": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {"content_type": st.just("text"), "parts": st.lists(texts, max_size=1)}
            ),
        ),
    },
    optional={
        "id": st.one_of(st.just("SAME"), texts, scalars),
        "metadata": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {}, optional={"model_slug": st.one_of(scalars, texts), "finish_details": small}
            ),
            scalars,
        ),
        "recipient": st.one_of(st.sampled_from(["all", ""]), scalars),
        "create_time": times,
        "status": scalars,
        "channel": scalars,
    },
)
holders_extra = st.dictionaries(st.sampled_from(["x", "y"]), small, max_size=1)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chain=st.lists(
        st.tuples(st.one_of(common_messages, messages), holders_extra), min_size=1, max_size=4
    ),
    moved=st.booleans(),
)
def test_any_message_converts_the_same_in_c_and_python(
    chain: list[tuple[dict[str, Any], dict[str, Any]]], moved: bool
) -> None:
    """A chain of arbitrary messages under an empty root, a node's parent sometimes named
    wrong: whatever C converts itself equals what the Python reference makes of it."""
    mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "children": ["n0"]}}
    for index, (message, extra) in enumerate(chain):
        node = f"n{index}"
        if message.get("id") == "SAME":
            message = {**message, "id": node}
        parent = "root" if index == 0 else f"n{index - 1}"
        if moved and index == len(chain) - 1 and index > 0:
            parent = "elsewhere"
        children = [f"n{index + 1}"] if index + 1 < len(chain) else []
        mapping[node] = {
            "id": node,
            "message": message,
            "parent": parent,
            "children": children,
            **extra,
        }
    raw = {"id": "conversation", "create_time": 1700000000.25, "mapping": mapping}
    expected = python_reference(pytest.MonkeyPatch(), lambda: convert(raw))
    assert convert(raw) == expected


@given(st.floats(0, 32503680000))
def test_iso_in_c_equals_python(epoch: float) -> None:
    assert _chatgpt.iso(epoch) == importer_module.iso(epoch)


@pytest.mark.parametrize(
    "epoch",
    [0.0, 0.5, 1e-7, 0.9999995, 0.9999994999, 86399.9999996, 951782400.0, 1709164800.0,
     4107542400.0, 32503680000.0, 1714564800.25, 1714564861.451832],
)  # fmt: skip
def test_iso_in_c_at_the_edges(epoch: float) -> None:
    """Leap days, centuries, rounding half to even up into the next second and day."""
    assert _chatgpt.iso(epoch) == importer_module.iso(epoch)


@pytest.mark.parametrize("epoch", [-1.0, math.inf, math.nan, 4e10])
def test_iso_in_c_refuses_what_is_no_chatgpt_time(epoch: float) -> None:
    with pytest.raises(ValueError, match="not a ChatGPT timestamp"):
        _chatgpt.iso(epoch)


def test_an_error_in_the_python_fallback_propagates() -> None:
    def failing(node: str, message: dict[str, Any]) -> Any:
        raise RuntimeError(f"cannot convert {node}")

    nodes = {"a": {"id": "a", "message": {"author": None}}}
    with pytest.raises(RuntimeError, match="cannot convert a"):
        _chatgpt.messages(
            ["a"],
            nodes,
            {"a": "id-a"},
            {"a": None},
            {"a": []},
            {"a": 1.0},
            {"a": 1.0},
            failing,
            *importer_module._TABLES,
        )


# -- arbitrary graphs --------------------------------------------------------------------------

KEYS = [f"k{n}" for n in range(6)]
references = st.one_of(st.sampled_from([*KEYS, "gone"]), st.none(), st.integers(0, 3))


@st.composite
def mappings(draw: st.DrawFn) -> dict[str, Any]:
    """A mapping of up to six nodes: mostly a well-formed tree (each node listed by its parent),
    with empty nodes, damaged parents and children lists, orphans, cycles and odd times."""
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=6, unique=True))
    parents: dict[str, Any] = {}
    for index, key in enumerate(keys):
        earlier = keys[:index]
        parents[key] = draw(st.sampled_from(earlier)) if earlier and draw(st.booleans()) else None
    mapping: dict[str, Any] = {}
    for key in keys:
        node: dict[str, Any] = {"id": key}
        if draw(st.integers(0, 5)) == 0:
            node["message"] = None
        else:
            node["message"] = draw(
                st.fixed_dictionaries({}, optional={"create_time": times, "id": texts})
            )
        node["parent"] = parents[key] if draw(st.integers(0, 5)) else draw(references)
        listed = [k for k in keys if parents[k] == key]
        damage = draw(st.integers(0, 7))
        if damage == 0:
            listed = draw(st.lists(references, max_size=3))
        elif damage == 1 and listed:
            listed = listed[1:]
        elif damage == 2:
            listed = listed + listed[:1]
        if damage != 3:
            node["children"] = listed
        mapping[key] = node
    return mapping


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mapping=mappings(),
    created=st.one_of(st.none(), st.floats(1, 2e9)),
    updated=st.one_of(st.none(), st.floats(1, 2e9)),
)
def test_any_graph_reads_the_same_in_c_and_python(
    mapping: dict[str, Any], created: float | None, updated: float | None
) -> None:
    """`_Graph` with the C reading and without it: the same kept and empty nodes, parents,
    children, order, own times and times (C declines what it does not read as Python does)."""

    def read() -> tuple[Any, ...]:
        graph = importer_module._Graph(mapping, "w", created, updated)
        return (graph.kept, graph.empty, graph.parent, graph.children, graph.order, graph.own,
                graph.times)  # fmt: skip

    assert read() == python_reference(pytest.MonkeyPatch(), read)


def test_the_c_graph_reads_a_plain_tree_and_declines_a_damaged_one() -> None:
    """What the generated-export test relies on: C takes the common tree itself."""
    tree = {
        "root": {"id": "root", "message": None, "parent": None, "children": ["a"]},
        "a": {"id": "a", "message": {"create_time": 0}, "parent": "root", "children": ["b"]},
        "b": {"id": "b", "message": {"create_time": 5.5}, "parent": "a", "children": []},
    }
    kept, empty, parents, children, order, own, when = _chatgpt.graph(tree, None, 9.0)
    assert (kept, empty, order) == (["a", "b"], ["root"], ["a", "b"])
    assert parents == {"a": None, "b": "a"} and children == {"a": ["b"], "b": []}
    assert own == {"a": None, "b": 5.5}
    assert when == {"a": 5.5, "b": 5.5}  # a's time from its descendant
    tree["a"]["children"] = []  # b is not listed by its parent: Python repairs that
    assert _chatgpt.graph(tree, None, None) is None


@given(
    provider_id=st.text(max_size=20),
    nodes=st.lists(st.text(max_size=40), max_size=8, unique=True),
)
def test_message_ids_in_c_equal_python_and_stable_id(provider_id: str, nodes: list[str]) -> None:
    """Each message id is `stable_id("chatgpt", "message", conversation, node)`, whatever the
    node's characters (lengths count code points, as in Python)."""
    fast = importer_module._message_ids(provider_id, nodes)
    assert fast == importer_module._message_ids_py(provider_id, nodes)
    for node in nodes:
        assert fast[node] == stable_id("chatgpt", "message", provider_id, node)


def test_the_c_parts_hold_no_reference_they_should_not() -> None:
    """Run every C function, on generated conversations, declined graphs, Python fallbacks
    and a fallback that fails, over and over: the memory Python allocates stays where it was
    (a leaked object per message would grow it by megabytes)."""
    conversations = json.loads(gen.export(seed=3, count=30)["conversations.json"])
    damaged = {"a": {"id": "a", "message": {}, "parent": None, "children": ["b"]}}

    def fallback(node: str, message: dict[str, Any]) -> Any:
        return {"raw_metadata": {"node": node}}, {"extra": True}

    def failing(node: str, message: dict[str, Any]) -> Any:
        raise RuntimeError(node)

    def run_all() -> None:
        for raw in conversations:
            mapping = raw["mapping"]
            read = _chatgpt.graph(mapping, 1.0, None)
            assert read is not None
            kept, _, parents, children, order, own, times = read
            ids = importer_module._message_ids("c", kept)
            for convert in (fallback, failing):
                with contextlib.suppress(RuntimeError):
                    _chatgpt.messages(
                        order, mapping, ids, parents, children, times, own, convert,
                        *importer_module._TABLES,
                    )  # fmt: skip
        assert _chatgpt.graph(damaged, None, None) is None
        with pytest.raises(ValueError):
            _chatgpt.iso(-1.0)

    grown = heap_growth(run_all)
    assert grown < 64 * 1024, grown
