"""`memvault extract`: a dry run writes nothing, a real run writes and reports, bad input is a
clear one-line error with nothing changed (PAM §25.1 "Extract Memories")."""

from __future__ import annotations

import socket
from pathlib import Path

from pytest import MonkeyPatch

from clikit import home, mv, ok, refused, snapshot
from memvault.extract.evaluation import conversation_of
from memvault.extract.llm import LLM_MODEL_ENV, LLM_URL_ENV
from memvault.vault import Vault
from test_extract_llm import Stub, _memories, stub
from vaultkit import PASSPHRASE

__all__ = ["home", "stub"]  # fixtures


def _vault_with_conversations(path: Path) -> None:
    ok("init")
    with Vault.open(path, PASSPHRASE) as vault:
        vault.put_conversation(
            conversation_of(
                "c-old",
                [
                    (
                        "user",
                        "I live in Berlin. I'm a data engineer at Acme.",
                        "2024-03-01T09:00:00Z",
                    ),
                    ("assistant", "Got it. I live in the cloud.", "2024-03-01T09:00:05Z"),
                ],
                platform="chatgpt",
            )
        )
        vault.put_conversation(
            conversation_of(
                "c-new",
                [("user", "I moved from Berlin to Lisbon. Prefiro respostas curtas.",
                  "2025-06-01T09:00:00Z")],
                platform="claude",
            )
        )  # fmt: skip


def test_dry_run_shows_the_proposals_and_writes_nothing(home: Path) -> None:
    _vault_with_conversations(home)
    before = snapshot()
    run = ok("extract", "--dry-run")
    assert "User lives in Berlin" in run.stdout
    assert "supersede" in run.stdout and "User lives in Lisbon" in run.stdout
    assert "O usuário prefere respostas curtas" in run.stdout
    assert "cloud" not in run.stdout  # assistant text is never read
    assert "Dry run, nothing written: 2 user messages in 2 conversations" in run.stdout
    assert snapshot() == before


def test_dry_run_json(home: Path) -> None:
    _vault_with_conversations(home)
    payload = ok("extract", "--dry-run", "--json").json()
    assert payload["dry_run"] is True and "written" not in payload
    kinds = [(a["action"], a["content"]) for a in payload["actions"]]
    assert ("supersede", "User lives in Lisbon") in kinds
    lisbon = next(a for a in payload["actions"] if a["content"] == "User lives in Lisbon")
    assert lisbon["targets"] == ["User lives in Berlin"]
    assert lisbon["conversation"] == "c-new" and lisbon["message"] == "c-new-m1"


def test_real_run_writes_reports_and_a_second_run_changes_nothing(home: Path) -> None:
    _vault_with_conversations(home)
    payload = ok("extract", "--json").json()
    written = payload["written"]
    assert len(written["created"]) == 5
    assert len(written["superseded"]) == 1 and len(written["derived_from"]) == 1
    listed = ok("list", "--status", "all", "--json").json()
    contents = {m["content"]: m for m in listed["memories"]}
    assert contents["User lives in Berlin"]["status"] == "superseded"
    assert contents["User lives in Lisbon"]["provenance"]["platform"] == "claude"
    before = snapshot()
    again = ok("extract")
    assert "5 already extracted" in again.stdout
    assert snapshot() == before


def test_one_conversation_and_since(home: Path) -> None:
    _vault_with_conversations(home)
    only_old = ok("extract", "--dry-run", "--json", "--conversation", "c-old").json()
    assert only_old["conversations"] == 1 and only_old["messages"] == 1
    recent = ok("extract", "--dry-run", "--json", "--since", "2025-01-01").json()
    assert recent["messages"] == 1
    assert {a["conversation"] for a in recent["actions"]} == {"c-new"}


def test_errors_are_one_line_and_change_nothing(home: Path) -> None:
    _vault_with_conversations(home)
    before = snapshot()
    assert "no conversation with id 'nope'" in refused("extract", "--conversation", "nope")
    assert "--since 'last week' is not a date" in refused("extract", "--since", "last week")
    assert "no model" in refused("extract", "--llm-url", "http://127.0.0.1:9/v1")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    message = refused(
        "extract", "--llm-url", f"http://127.0.0.1:{port}/v1", "--llm-model", "m",
        "--llm-timeout", "1",
    )  # fmt: skip
    assert "cannot connect" in message and "nothing was written" in message
    assert snapshot() == before


def test_no_vault(tmp_path: Path, home: Path) -> None:
    run = mv("extract", "--home", tmp_path / "missing")
    assert run.exit_code == 1 and "no vault at" in run.stderr


def test_llm_endpoint_from_the_environment(
    home: Path, stub: Stub, monkeypatch: MonkeyPatch
) -> None:
    """`$MEMVAULT_LLM_URL` / `$MEMVAULT_LLM_MODEL` select the LLM extractor (a real HTTP server
    on 127.0.0.1 answering like llama.cpp)."""
    _vault_with_conversations(home)
    monkeypatch.setenv(LLM_URL_ENV, stub.url)
    monkeypatch.setenv(LLM_MODEL_ENV, "stub-model")
    stub.reply(
        _memories([{"message_id": "c-old-m1", "type": "fact", "content": "User lives in Berlin"}])
    )
    stub.reply(_memories([]))
    run = ok("extract", "--batch-size", "1")
    assert "User lives in Berlin" in run.stdout and "1 new" in run.stdout
    assert len(stub.requests) == 2
    (memory,) = ok("list", "--json").json()["memories"]
    assert memory["provenance"]["extraction_method"] == "llm_inference"
    assert memory["metadata"]["extraction"]["model"] == "stub-model"
