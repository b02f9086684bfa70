"""`memvault recall`, `recall --batch`, `conversations`, `reindex`, `embed` through the CLI; the
recall index right after an import; the migration of a vault of the previous schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from clikit import home, mv, ok, refused, snapshot
from embedserver import MODEL, serve
from memvault.conversation_merge import conversation_row
from memvault.errors import InvalidInput
from memvault.vault import Vault
from providergen import chatgpt as gen
from providergen import write_zip
from test_recall import _conversation
from vaultkit import PASSPHRASE

__all__ = ["home"]  # the fixture, imported for pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIXTURE_PASSPHRASE = "fixture-vault-0.1.0"


@pytest.fixture
def vault(home: Path) -> Path:
    ok("init")
    with Vault.open(home, PASSPHRASE) as v:
        v.put_conversation(
            conversation_row(
                _conversation(
                    "conv-1",
                    [
                        ("m1", "user", "I adopted a dog named Biscuit last spring"),
                        ("m2", "assistant", "Congratulations on adopting Biscuit!"),
                        ("m3", "assistant", "What breed is Biscuit?"),
                    ],
                    title="New puppy",
                    parents={"m2": "m1", "m3": "m1"},
                )
            )
        )
        v.put_conversation(
            conversation_row(
                _conversation("conv-2", [("n1", "user", "My dog loves the beach")], title="Beach")
            )
        )
        v.add("Has a dog called Biscuit", "fact", conversation_ref="conv-1", message_ref="m1")
    return home


def _lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_recall_prints_one_row_a_result_with_its_provenance(vault: Path) -> None:
    run = ok("recall", "Biscuit the dog", "-k", "3")
    assert "conversation conv-1" in run.stdout
    assert "puppy" in run.stdout  # its title
    assert "no embedder" in run.stderr  # the note: full text only


def test_recall_json_and_the_conversation_filter(vault: Path) -> None:
    payload = ok("recall", "dog", "--conversation", "conv-2", "--json").json()
    assert payload["mode"] == "fts"
    assert payload["vectors_complete"] is False
    assert [(r["id"], r["conversation_id"]) for r in payload["results"]] == [("n1", "conv-2")]
    memories = ok("recall", "dog", "--kind", "memories", "--json").json()["results"]
    assert [r["kind"] for r in memories] == ["memory"]
    assert memories[0]["message_ids"] == ["m1"]


def test_recall_batch_prints_one_json_line_per_query_in_the_exact_shape(
    vault: Path, tmp_path: Path
) -> None:
    batch = tmp_path / "queries.jsonl"
    batch.write_text(
        '{"query": "Biscuit", "k": 2}\n'
        "\n"
        '{"query": "beach", "k": 5, "conversation": "conv-2"}\n'
        '{"query": "dog", "kind": "memories"}\n',
        encoding="utf-8",
    )
    lines = _lines(ok("recall", "--batch", batch).stdout)
    assert [line["query"] for line in lines] == ["Biscuit", "beach", "dog"]
    for line in lines:
        assert list(line) == ["query", "results"]
        for result in line["results"]:
            assert list(result) == [
                "kind",
                "id",
                "text",
                "score",
                "conversation_id",
                "message_ids",
            ]
            assert isinstance(result["score"], float)
    assert len(lines[0]["results"]) == 2
    assert lines[1]["results"] == [
        {
            "kind": "message",
            "id": "n1",
            "text": "My dog loves the beach",
            "score": lines[1]["results"][0]["score"],
            "conversation_id": "conv-2",
            "message_ids": ["n1"],
        }
    ]
    assert {r["kind"] for r in lines[2]["results"]} == {"memory"}


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("not json", "line 2: not JSON"),
        ('{"k": 3}', "line 2: field query"),
        ('{"query": "x", "k": 0}', "line 2: field k"),
        ('{"query": "x", "kind": "all of it"}', "line 2: recall filter kind"),
        ('{"query": "x", "colour": "red"}', "line 2: unknown recall filter"),
    ],
)
def test_a_bad_batch_line_is_named_and_nothing_is_printed(
    vault: Path, tmp_path: Path, line: str, rule: str
) -> None:
    batch = tmp_path / "queries.jsonl"
    batch.write_text('{"query": "dog"}\n' + line + "\n", encoding="utf-8")
    run = mv("recall", "--batch", batch)
    assert run.exit_code == 1
    assert rule in run.stderr and str(batch) in run.stderr
    assert run.stdout == ""


def test_recall_usage_errors(vault: Path, tmp_path: Path) -> None:
    assert "QUERY" in refused("recall", code=2)
    assert "--kind" in refused("recall", "x", "--kind", "both", code=2)
    assert "--mode" in refused("recall", "x", "--mode", "fuzzy", code=2)


@pytest.mark.parametrize(
    "command", [("recall",), ("search",), ("conversations", "search")], ids=" ".join
)
@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_query_is_a_usage_error(vault: Path, command: tuple[str, ...], query: str) -> None:
    """`search ""` printed "No memories match ''" and exited 0: a query names what to find."""
    message = refused(*command, query, code=2)
    assert "the query is empty" in message and "match" not in message, message


def test_vault_search_and_recall_refuse_an_empty_query(vault: Path) -> None:
    with Vault.open(vault, PASSPHRASE) as v:
        for call in (lambda: v.search(" "), lambda: v.recall("")):
            with pytest.raises(InvalidInput, match="empty"):
                call()


def test_an_agent_recalls_no_private_memory_and_no_message(vault: Path) -> None:
    """PAM §9 through the CLI (--as)."""
    assert ok("recall", "dog", "--as", "agent-x", "--json").json()["results"] == []


def test_conversations_list_show_with_branches_and_search(vault: Path) -> None:
    listed = ok("conversations", "list", "--json").json()
    assert {c["id"] for c in listed} == {"conv-1", "conv-2"}
    shown = ok("conversations", "show", "conv-1").stdout
    assert "New puppy" in shown
    assert "branch 1 of 2" in shown and "branch 2 of 2" in shown
    assert shown.index("Congratulations") < shown.index("What breed")
    found = ok("conversations", "search", "Biscuit", "--json").json()
    assert found[0]["conversation_id"] == "conv-1"
    assert "not a" not in refused("conversations", "show", "nope")
    assert refused("conversations", "list", "--as", "agent-x")


def test_recall_right_after_an_import_before_any_embedding(home: Path, tmp_path: Path) -> None:
    """An import never waits for embeddings: its messages are found at once, by full text."""
    ok("init")
    export = write_zip(gen.export(seed=4, count=6), tmp_path / "chatgpt-export.zip")
    ok("import", export)
    with Vault.open(home, PASSPHRASE) as v:
        stored = next(iter(v.conversations()))
        message = next(
            m
            for m in stored.document["messages"]
            if isinstance(m.get("content"), dict) and len(str(m["content"].get("text"))) > 40
        )
    words = " ".join(str(message["content"]["text"]).split()[:12])
    payload = ok("recall", words, "--kind", "messages", "--json", "-k", "20").json()
    assert payload["vectors_complete"] is False
    assert any(
        r["id"] == message["id"] and r["conversation_id"] == stored.id for r in payload["results"]
    )


def test_the_previous_schemas_vault_is_indexed_by_the_migration_and_by_reindex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/fixtures/vault-0.1.0 predates the recall index: opening it runs migrations 4 to
    7, the last of which indexes its memories and conversations; `memvault reindex` rebuilds
    the same."""
    copy = tmp_path / "vault"
    shutil.copytree(FIXTURES / "vault-0.1.0", copy)
    with Vault.open(copy, FIXTURE_PASSPHRASE) as v:
        assert 4 in [version for version, _, _ in v.store.migrations()]  # type: ignore[attr-defined]
        memory = next(iter(v.iter_memories()))
        conversation = next(iter(v.conversations()))
        with v.store.index_connection() as conn:  # type: ignore[attr-defined]
            before = conn.execute(
                "SELECT kind, count(*) FROM recall_passages GROUP BY kind ORDER BY kind"
            ).fetchall()
    assert [kind for kind, _ in before] == ["memory", "message"]
    monkeypatch.setenv("MEMVAULT_HOME", str(copy))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", FIXTURE_PASSPHRASE)
    words = " ".join(memory.content.split()[:6])
    hits = ok("recall", words, "--kind", "memories", "--json").json()["results"]
    assert memory.id in [h["id"] for h in hits]
    assert "Indexed 37 memories and 14 conversations." in ok("reindex").stdout
    with (
        Vault.open(copy, FIXTURE_PASSPHRASE) as v,
        v.store.index_connection() as conn,  # type: ignore[attr-defined]
    ):
        after = conn.execute(
            "SELECT kind, count(*) FROM recall_passages GROUP BY kind ORDER BY kind"
        ).fetchall()
    assert after == before
    found = ok("conversations", "search", conversation.title or "x", "--json").json()
    assert found


def test_embed_through_an_endpoint_then_recall_is_hybrid(vault: Path) -> None:
    with serve() as server:
        run = ok("embed", "--endpoint", server.url, "--model", MODEL)
        assert "5 of 5 passages have vectors" in run.stdout
        payload = ok("recall", "puppy adoption", "--json").json()
        assert payload["mode"] == "hybrid"
        assert payload["vectors_complete"] is True
        assert "Embedded 0 passages" in ok("embed").stdout  # incremental: nothing missing
        assert ok("embed", "--json").json() == {"embedded": 0, "with_vector": 5, "passages": 5}
    assert ok("reindex", "--json").json() == {"memories": 1, "conversations": 2}


def test_embed_usage_and_a_missing_local_model_change_nothing(vault: Path) -> None:
    assert "--model" in refused("embed", "--endpoint", "http://127.0.0.1:9/v1", code=2)
    before = snapshot()
    run = mv("embed", "--model", "no-such-local-model")
    assert run.exit_code != 0 and "Traceback" not in run.stderr
    assert "no-such-local-model" in run.stderr
    assert snapshot() == before
    assert "no embedder" in ok("recall", "dog").stderr  # the failed model was not stored


def test_embed_with_no_model_named_takes_the_local_model(vault: Path) -> None:
    """A vault with no embedder yet: `memvault embed` uses the local model of the
    [embeddings] extra and keeps it as the vault's embedder, so recall becomes hybrid."""
    assert "no embedder" in ok("recall", "dog").stderr
    run = ok("embed", "--json").json()
    assert run["embedded"] == run["passages"] > 0
    payload = ok("recall", "dog", "--json").json()
    assert payload["mode"] == "hybrid" and payload["vectors_complete"] is True
    assert "no embedder" not in ok("recall", "dog").stderr


def test_an_import_indexes_the_passages_a_reindex_builds(home: Path, tmp_path: Path) -> None:
    """The reader processes of an import analyse the messages (the writing process only writes
    them): what they index is what `reindex` builds from the stored documents."""
    ok("init")
    ok("import", write_zip(gen.export(seed=5, count=8), tmp_path / "chatgpt-export.zip"))
    query = (
        "SELECT p.kind, c.conversation_id, p.message_id, p.part, p.role, p.participant, "
        "c.platform, p.at_epoch, p.text FROM recall_passages p "
        "JOIN recall_conversations c ON c.id = p.conversation "
        "ORDER BY c.conversation_id, p.message_id, p.part"
    )
    with Vault.open(home, PASSPHRASE) as v, v.store.index_connection() as conn:  # type: ignore[attr-defined]
        imported = conn.execute(query).fetchall()
    hits = ok("recall", "python code", "--json", "-k", "20").json()["results"]
    ok("reindex")
    with Vault.open(home, PASSPHRASE) as v, v.store.index_connection() as conn:  # type: ignore[attr-defined]
        rebuilt = conn.execute(query).fetchall()
    assert len(imported) > 8 and imported == rebuilt
    assert ok("recall", "python code", "--json", "-k", "20").json()["results"] == hits


def test_an_endpoint_needing_a_key_gets_it_from_the_environment(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$MEMVAULT_EMBED_API_KEY is read by the CLI (never stored in the vault) for `embed` and
    for embedding each query."""
    with serve(api_key="s3cret") as server:
        refused("embed", "--endpoint", server.url, "--model", MODEL)
        monkeypatch.setenv("MEMVAULT_EMBED_API_KEY", "s3cret")
        ok("embed", "--endpoint", server.url, "--model", MODEL)
        assert ok("recall", "puppy", "--json").json()["mode"] == "hybrid"
        monkeypatch.delenv("MEMVAULT_EMBED_API_KEY")
        payload = ok("recall", "puppy", "--json").json()
        assert payload["mode"] == "fts" and payload["notes"]


#: Two conversation ids sharing their first eight characters, and one that does not.
TWINS = ("36f8bb7a-1111-4c3e-9a1e-6f2b8d1c0a11", "36f8bb7a-2222-4c3e-9a1e-6f2b8d1c0a22")
SINGLE = "9c0d5e7f-3333-4c3e-9a1e-6f2b8d1c0a33"


@pytest.fixture
def uuid_vault(home: Path) -> Path:
    ok("init")
    with Vault.open(home, PASSPHRASE) as v:
        for n, cid in enumerate((*TWINS, SINGLE)):
            messages = [(f"{cid}-m", "user", f"Message number {n} about a long road trip")]
            title = f"A fairly long conversation title about planning trip number {n}"
            v.put_conversation(conversation_row(_conversation(cid, messages, title=title)))
    return home


def test_conversations_show_and_erase_accept_a_unique_id_prefix(uuid_vault: Path) -> None:
    """`recall` names a conversation by its first eight characters; `conversations show` and
    `erase --conversation` take such a prefix, as the memory commands do."""
    assert SINGLE in ok("conversations", "show", SINGLE[:8]).stdout
    assert TWINS[0] in ok("conversations", "show", TWINS[0][:10]).stdout
    erased = ok("erase", "--conversation", SINGLE[:8], "--yes", "--json").json()
    assert erased["conversation"] == SINGLE
    assert {c["id"] for c in ok("conversations", "list", "--json").json()} == set(TWINS)


def test_an_ambiguous_conversation_prefix_is_a_usage_error_listing_the_candidates(
    uuid_vault: Path,
) -> None:
    before = snapshot()
    for args in (("conversations", "show", "36f8bb7a"), ("erase", "--conversation", "36f8")):
        message = refused(*args, "--yes", code=2) if args[0] == "erase" else refused(*args, code=2)
        assert "matches several conversations" in message, message
        assert TWINS[0] in message and TWINS[1] in message, message
    assert "no conversation with id or id prefix 'ffff'" in refused("conversations", "show", "ffff")
    assert snapshot() == before


def test_conversations_list_fits_an_80_column_terminal_with_short_ids(
    uuid_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One line a conversation in 80 columns: the ids are the shortest unique prefixes (at
    least eight characters), which `conversations show` accepts."""
    monkeypatch.setenv("COLUMNS", "80")
    lines = ok("conversations", "list").stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    cells = [line.split("│")[0].strip() for line in lines if "│" in line]
    rows = [cell for cell in cells if cell]
    assert sorted(rows) == sorted([TWINS[0][:10], TWINS[1][:10], SINGLE[:8]]), lines
    for prefix in rows:
        assert ok("conversations", "show", prefix).stdout


def test_conversations_show_of_a_branched_chatgpt_chat_reads_as_a_chat(
    home: Path, tmp_path: Path
) -> None:
    """A ChatGPT conversation (PAM §25.3 branches) as a person reads it: each message under
    its speaker and minute, with the short id recall prints (not a 36-character UUID and a
    microsecond timestamp on every line), and no "(no text)" line for the hidden empty
    system message every ChatGPT conversation starts with."""
    ok("init")
    ok("import", write_zip(gen.export(seed=7, count=2), tmp_path / "chatgpt-export.zip"))
    found = ok("recall", "fotossíntese", "--json").json()["results"]
    first = found[0]["conversation_id"]
    document = ok("conversations", "show", first, "--json").json()
    shown = ok("conversations", "show", first).stdout
    assert "branch 1 of 2" in shown and "branch 2 of 2" in shown
    assert "(no text)" not in shown
    for message in document["messages"]:
        assert message["id"] not in shown
        if (message.get("content") or {}).get("text"):
            assert message["id"][:8] in shown
        stamp = message["created_at"]
        assert stamp not in shown and f"{stamp[:10]} {stamp[11:16]}" in shown
    assert found[0]["id"][:8] in shown


def test_conversations_show_marks_a_model_s_thinking(home: Path, tmp_path: Path) -> None:
    """Claude's extended thinking is imported as its own message (`is_thought`); `show`
    printed it as the assistant's answer, so a reader took the model's reasoning for what it
    said."""
    from providergen import claude

    ok("init")
    ok("import", str(claude.write(tmp_path, "zip")))
    listed = ok("conversations", "list", "--json").json()
    cheese = next(c for c in listed if c["title"] == "Receita de pão de queijo")
    lines = ok("conversations", "show", cheese["id"]).stdout.splitlines()
    thought = next(i for i, line in enumerate(lines) if "polvilho já é naturalmente" in line)
    assert lines[thought - 1].startswith("assistant (thinking) "), lines
    answer = next(i for i, line in enumerate(lines) if "use polvilho azedo" in line)
    assert lines[answer - 1].startswith("assistant "), lines
    assert "(thinking)" not in lines[answer - 1]


def test_conversations_search_shows_the_short_id_that_list_shows(
    home: Path, tmp_path: Path
) -> None:
    """`conversations search` printed each conversation's whole id where `conversations list`
    prints the first 8 characters; both print the short one, which `show` takes."""
    ok("init")
    ok("import", write_zip(gen.export(seed=4, count=6), tmp_path / "chatgpt-export.zip"))
    listed = ok("conversations", "list", "--json").json()
    title = next(c["title"] for c in listed if c["title"])
    found = ok("conversations", "search", title, "--json").json()
    whole = found[0]["conversation_id"]
    assert len(whole) > 8
    table = ok("conversations", "search", title).stdout
    first = next(line for line in table.splitlines() if line.lstrip()[:1].isdigit())
    assert [cell.strip() for cell in first.split("│")][1] == whole[:8], table
    assert whole[:8] in ok("conversations", "list").stdout
    assert ok("conversations", "show", whole[:8]).stdout.strip()
