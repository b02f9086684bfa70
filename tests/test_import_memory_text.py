"""Pasted memory lists (`--from memory-text`): ChatGPT's "Manage memories" copy, the Model Set
Context answer, any bullet list — one PAM memory per item, a guessed type (PAM §22.1), a
content hash per §6, English and Portuguese."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest

from clikit import home, mv, ok
from memvault.canonical import content_hash
from memvault.importers.base import ImportFormatError
from memvault.importers.ingest import make_context
from memvault.importers.memory_text import (
    IMPORTER,
    guess_language,
    guess_type,
    parse_items,
)
from memvault.sources import open_target
from official import OFFICIAL_SCHEMAS

STORE_SCHEMA = json.loads((OFFICIAL_SCHEMAS / "portable-ai-memory.schema.json").read_text("utf-8"))
MEMORY = jsonschema_rs.validator_for(
    {"$schema": STORE_SCHEMA["$schema"], "$defs": STORE_SCHEMA["$defs"],
     "$ref": "#/$defs/MemoryObject"}
)  # fmt: skip

__all__ = ["home"]  # the fixture, imported for pytest


@pytest.fixture
def vault_home(home: Path) -> Path:
    """A fresh vault in MEMVAULT_HOME."""
    ok("init")
    return home


MODEL_SET_CONTEXT = """Model Set Context:
1. [2024-05-01]. User's name is Marta and she lives in Porto.
2. [2024-05-03]. User prefers answers in European Portuguese.
3. [2024-06-12]. O usuário está aprendendo Rust para construir uma ferramenta
   de linha de comando.
"""
MANAGE_MEMORIES = """Is a data engineer
Prefers metric units
Has a dog named Bento

Gosta de café sem açúcar
"""
BULLETS = """Things to remember:
- Lives in Lisbon
* Enjoys hiking on weekends
• Trabalha como professora de matemática
1) Wants to run a marathon in 2027
"""


def test_model_set_context_lines_keep_their_dates() -> None:
    items = parse_items(MODEL_SET_CONTEXT)
    assert [(i.date, i.text) for i in items] == [
        ("2024-05-01", "User's name is Marta and she lives in Porto."),
        ("2024-05-03", "User prefers answers in European Portuguese."),
        (
            "2024-06-12",
            "O usuário está aprendendo Rust para construir uma ferramenta de linha de comando.",
        ),
    ]


def test_manage_memories_copy_is_one_memory_per_line() -> None:
    assert [i.text for i in parse_items(MANAGE_MEMORIES)] == [
        "Is a data engineer",
        "Prefers metric units",
        "Has a dog named Bento",
        "Gosta de café sem açúcar",
    ]


def test_any_bullet_list_and_headings_are_dropped() -> None:
    assert [i.text for i in parse_items(BULLETS)] == [
        "Lives in Lisbon",
        "Enjoys hiking on weekends",
        "Trabalha como professora de matemática",
        "Wants to run a marathon in 2027",
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("User prefers that you answer in bullet points", "instruction"),
        ("Quer que as respostas sejam curtas", "instruction"),
        ("Has a daughter named Inês", "relationship"),
        ("A esposa dele chama-se Ana", "relationship"),
        ("Loves Italian food", "preference"),
        ("Gosta de café sem açúcar", "preference"),
        ("Plans to move to Berlin next year", "goal"),
        ("Pretende correr uma maratona", "goal"),
        ("Is working on a budgeting app", "project"),
        ("Está desenvolvendo um projeto de jardinagem", "project"),
        ("Is fluent in German", "skill"),
        ("É fluente em espanhol", "skill"),
        ("Uses Neovim on Arch Linux", "environment"),
        ("Usa um MacBook no trabalho", "environment"),
        ("User's name is Marta", "identity"),
        ("Mora em Belo Horizonte", "identity"),
        ("The Eiffel Tower is 330 metres tall", "fact"),
    ],
)
def test_pam_22_1_type_heuristic_english_and_portuguese(text: str, kind: str) -> None:
    assert guess_type(text) == kind


def test_language_guess() -> None:
    assert guess_language("O usuário mora em Lisboa e não gosta de calor") == "pt"
    assert guess_language("The user lives in Lisbon and likes the heat") == "en"
    assert guess_language("Python 3.12") is None


def test_pam_6_memories_validate_and_hash(tmp_path: Path) -> None:
    path = tmp_path / "memories.txt"
    path.write_text(MODEL_SET_CONTEXT + MANAGE_MEMORIES, encoding="utf-8")  # one after the other
    with open_target(path) as target:
        assert IMPORTER.sniff(target)
        memories = [dict(r.memory) for r in IMPORTER.read(target, make_context(str(path), None))]  # type: ignore[union-attr]
    assert len(memories) == 7
    for memory in memories:
        assert not list(MEMORY.iter_errors(memory)), memory
        assert memory["content_hash"] == content_hash(memory["content"])
        assert memory["provenance"]["extraction_method"] == "manual"
    assert memories[0]["temporal"]["created_at"] == "2024-05-01T00:00:00Z"
    assert memories[2]["metadata"]["language"] == "pt"


def test_a_plain_list_is_not_detected_without_from(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text(MANAGE_MEMORIES, encoding="utf-8")
    with open_target(path) as target:
        assert not IMPORTER.sniff(target)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"\n\n  \n", "no memories found"),
        (b"- caf\xe9 au lait\n", "line 1: not valid UTF-8"),
        (b"- a\x00b\n", "binary data"),
    ],
)
def test_bad_lists_are_refused_with_the_reason(data: bytes, error: str) -> None:
    with pytest.raises(ImportFormatError, match=error):
        list(IMPORTER.read_text(data, "memories.txt", make_context("memories.txt", None)))


def test_cli_reads_standard_input_and_a_second_paste_adds_nothing(vault_home: Path) -> None:
    first = mv("import", "-", "--from", "memory-text", "--json", input=MODEL_SET_CONTEXT)
    assert first.json()["memories"] == {"new": 3, "reinforced": 0, "unchanged": 0}
    audit = mv("stats", "--json").json()["audit_entries"]
    again = mv("import", "-", "--from", "memory-text", "--json", input=MODEL_SET_CONTEXT)
    assert again.json()["memories"] == {"new": 0, "reinforced": 0, "unchanged": 3}
    assert mv("stats", "--json").json()["audit_entries"] == audit
    listed = mv("list", "--json").json()
    assert {m["content"] for m in listed["memories"]} == {
        i.text for i in parse_items(MODEL_SET_CONTEXT)
    }


def test_cli_platform_option(vault_home: Path) -> None:
    done = mv(
        "import", "-", "--from", "memory-text", "--platform", "claude", "--json", input=BULLETS
    )
    assert done.json()["memories"]["new"] == 4
    assert mv("stats", "--json").json()["by_platform"] == {"claude": 4}
