"""Memories as the text assistants accept (PAM §20.2, `memvault.targets`, `memvault export
--to`): every text within its limit — ChatGPT's fields never over 1,500 characters — at the
limits, with vaults of 10 and 10,000 memories in English and Portuguese; DNA-class first;
superseded, retracted, archived and non-exportable memories never included; what was left
out, and why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from clikit import home as home
from clikit import mv, ok
from memvault.errors import InvalidInput
from memvault.model import Memory
from memvault.targets import CHATGPT_FIELD_LIMIT, TARGET_NAMES, Rendering, render
from memvault.targets.language import detect
from memvault.targets.selection import OVER_BUDGET, prioritized
from memvault.vault import Vault
from vaultkit import make_vault, pam_memory

EN_FACTS = (
    "Works as a data engineer at a logistics company in Rotterdam",
    "Has two cats named Pixel and Byte",
    "Is learning to play the cello on weekends",
    "Runs a small open source project about map tiles",
)
PT_FACTS = (
    "Trabalha como engenheira de dados numa empresa de logística no Porto",
    "Tem dois gatos chamados Pixel e Byte",
    "Está a aprender a tocar violoncelo aos fins de semana",
    "Mantém um pequeno projeto de código aberto sobre mapas",
)
EN_DNA = (
    ("instruction", "Always answer with the shortest correct answer first"),
    ("identity", "My name is Ana and I am a data engineer"),
    ("preference", "I prefer metric units and 24-hour time"),
)
PT_DNA = (
    ("instruction", "Responda sempre primeiro com a resposta correta mais curta"),
    ("identity", "O meu nome é Ana e sou engenheira de dados"),
    ("preference", "Prefiro unidades métricas e a hora em 24 horas"),
)
BUDGETS = (40, 120, 1500, 1501, 6000, 1_000_000)


def _memories(count: int, language: str, *, tagged: bool) -> list[Memory]:
    """`count` memories: every tenth DNA-class (one a decision), the rest facts, distinct
    content, confidence and dates spread; one superseded, one retracted, one archived, one
    not exportable among them."""
    facts, dna = (PT_FACTS, PT_DNA) if language == "pt" else (EN_FACTS, EN_DNA)
    metadata = {"language": "pt-BR" if language == "pt" else "en"} if tagged else {}
    out = []
    for i in range(count):
        kind, text = dna[i // 10 % len(dna)] if i % 10 == 0 else ("fact", facts[i % len(facts)])
        custom = None
        if i % 50 == 10:
            kind, custom, text = "custom", "decision", f"{dna[0][1]} ({i})"
        status = {3: "superseded", 5: "retracted", 7: "archived"}.get(i, "active")
        out.append(
            pam_memory(
                f"{text} #{i}",
                type=kind,
                custom_type=custom,
                status=status,
                confidence=0.5 + (i % 7) / 20,
                created_at=f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z",
                exportable=i != 9,
                metadata=dict(metadata),
                decay_model="none" if kind != "fact" else "time_linear",
            )
        )
    return out


class _Vaults(dict[tuple[int, str], Vault]):
    """The test vaults, each made the first time a test asks for it."""

    def __init__(self, root: pytest.TempPathFactory) -> None:
        super().__init__()
        self.root = root

    def __missing__(self, key: tuple[int, str]) -> Vault:
        count, language = key
        vault = make_vault(self.root.mktemp(f"v{count}{language}") / "v")
        # The small vaults carry no language tag: their words tell.
        vault.add_memories(_memories(count, language, tagged=count > 10))
        self[key] = vault
        return vault


@pytest.fixture(scope="module")
def vaults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[int, str], Vault]]:
    made = _Vaults(tmp_path_factory)
    yield made
    for vault in made.values():
        vault.close()


#: 10,000 memories take seconds to make: those tests are marked slow.
COUNTS = [10, pytest.param(10_000, marks=pytest.mark.slow)]


def _all_within(rendering: Rendering) -> None:
    for text in rendering.texts:
        assert len(text.text) <= text.limit <= rendering.budget, (text.name, len(text.text))
        if rendering.target == "chatgpt" and text.name in ("about", "respond"):
            assert len(text.text) <= CHATGPT_FIELD_LIMIT


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("language", ["en", "pt"])
@pytest.mark.parametrize("target", TARGET_NAMES)
def test_every_text_within_its_limit_at_every_budget(
    vaults: dict[tuple[int, str], Vault], count: int, language: str, target: str
) -> None:
    vault = vaults[count, language]
    for budget in BUDGETS:
        rendering = render(vault, target, budget=budget)
        _all_within(rendering)
        assert rendering.language == language
        # Every memory is accounted for: included, or left out with a reason.
        assert rendering.included + rendering.total_left_out == count


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("language", ["en", "pt"])
def test_chatgpt_fields_never_over_1500_characters(
    vaults: dict[tuple[int, str], Vault], count: int, language: str
) -> None:
    for budget in (None, 1499, 1500, 1501, 3000, 1_000_000):
        rendering = render(vaults[count, language], "chatgpt", budget=budget)
        fields = {t.name: t for t in rendering.texts}
        assert set(fields) == {"about", "respond", "memory"}
        assert len(fields["about"].text) <= CHATGPT_FIELD_LIMIT
        assert len(fields["respond"].text) <= CHATGPT_FIELD_LIMIT
        if count == 10_000:  # the fields are full: the next memory would not fit
            assert len(fields["about"].text) > min(CHATGPT_FIELD_LIMIT, budget or 3000) - 120


def test_superseded_retracted_archived_and_not_exportable_never_included(
    vaults: dict[tuple[int, str], Vault],
) -> None:
    vault = vaults[10, "en"]
    for target in TARGET_NAMES:
        rendering = render(vault, target, budget=1_000_000)
        text = "\n".join(t.text for t in rendering.texts)
        for i in (3, 5, 7, 9):
            assert f"#{i}\n" not in text + "\n" and f"#{i} " not in text
        assert dict(rendering.left_out) == {
            "superseded": 1,
            "retracted": 1,
            "archived": 1,
            "not exportable": 1,
        }
        assert rendering.included == 6
        assert "4 left out" in rendering.summary()


@pytest.mark.slow
def test_dna_class_first_when_the_budget_is_short(vaults: dict[tuple[int, str], Vault]) -> None:
    """AIMEM §5.1: with room for a few, the few are DNA-class (1,000 of 10,000 are)."""
    vault = vaults[10_000, "en"]
    rendering = render(vault, "system-prompt", budget=2000)
    ids = [i for t in rendering.texts for i in t.memory_ids]
    assert ids
    kinds = {vault.get(i).type for i in ids}
    assert kinds <= {"instruction", "identity", "preference", "custom"}
    assert rendering.left_out[OVER_BUDGET] > 9000
    assert "over the budget" in rendering.summary()


def test_priority_is_dna_then_confidence_then_recency() -> None:
    low_new = pam_memory("fact low new", confidence=0.5, created_at="2025-09-01T00:00:00Z")
    high_old = pam_memory("fact high old", confidence=0.9, created_at="2024-01-01T00:00:00Z")
    high_new = pam_memory("fact high new", confidence=0.9, created_at="2025-01-01T00:00:00Z")
    dna_low = pam_memory("pref low", type="preference", confidence=0.1)
    ordered = prioritized([low_new, high_old, high_new, dna_low])
    assert [m.content for m in ordered] == [
        "pref low",
        "fact high new",
        "fact high old",
        "fact low new",
    ]


def test_grouped_headings_follow_the_memories_language(
    vaults: dict[tuple[int, str], Vault],
) -> None:
    en = render(vaults[10, "en"], "system-prompt").texts[0].text
    pt = render(vaults[10, "pt"], "system-prompt").texts[0].text
    assert en.startswith("What you should know about me:\n\nHow to respond:\n- ")
    assert "\n\nOther things to know:\n- " in en
    assert pt.startswith("O que você deve saber sobre mim:\n\nComo responder:\n- ")
    assert "\n\nOutras coisas a saber:\n- " in pt
    assert detect([pam_memory("x", metadata={"language": "pt-BR"})]) == "pt"
    assert detect([pam_memory("Eu moro no Porto com a minha família", metadata={})]) == "pt"


def test_instructions_go_to_how_to_respond_fields(vaults: dict[tuple[int, str], Vault]) -> None:
    rendering = render(vaults[10, "en"], "chatgpt")
    fields = {t.name: t.text for t in rendering.texts}
    assert "Always answer with the shortest" in fields["respond"]
    assert "Always answer with the shortest" not in fields["about"]
    assert "Has two cats" in fields["about"]
    gem = {t.name: t.text for t in render(vaults[10, "en"], "gemini").texts}
    assert "Always answer with the shortest" in gem["gem"]
    assert "Has two cats named Pixel and Byte #1" in gem["saved"].splitlines()


def test_query_selects_by_recall(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        vault.add("Allergic to peanuts", "fact")
        vault.add("Prefers window seats on trains", "preference")
        vault.add("Uses Neovim for everything", "environment")
        rendering = render(vault, "system-prompt", query="peanuts allergy")
        text = rendering.texts[0].text
        assert "Allergic to peanuts" in text
        assert "Neovim" not in text and "window seats" not in text
        assert rendering.query == "peanuts allergy"


def test_an_agent_renders_only_what_it_may_read(tmp_path: Path) -> None:
    """PAM §9: a rendering made in an agent's session carries only memories it may read."""
    with make_vault(tmp_path / "v") as vault:
        vault.add("Private diary entry", "fact")
        vault.add("Shared: prefers tea", "preference", visibility="shared",
                  shared_with=[("agent-x", ["read"])])  # fmt: skip
        text = render(vault.acting_as("agent-x"), "system-prompt").texts[0].text
        assert "prefers tea" in text and "diary" not in text


def test_a_memory_longer_than_the_budget_is_left_out_and_said(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        vault.add("word " * 100, "fact")
        rendering = render(vault, "system-prompt", budget=100)
        assert rendering.texts[0].text == ""
        assert dict(rendering.left_out) == {"longer than the budget": 1}


def test_bad_target_budget_language_refused(tmp_path: Path) -> None:
    with make_vault(tmp_path / "v") as vault:
        for kwargs in ({"budget": 39}, {"budget": True}, {"language": "fr"}, {"query": " "}):
            with pytest.raises(InvalidInput):
                render(vault, "chatgpt", **kwargs)
        with pytest.raises(InvalidInput, match="unknown target 'copilot'"):
            render(vault, "copilot")


def test_cli_export_to_prints_text_and_summary(home: Path, tmp_path: Path) -> None:
    ok("init")
    ok("add", "Prefiro respostas curtas e em português", "-t", "preference")
    ok("add", "Moro em Lisboa com a minha família", "-t", "fact")
    run = ok("export", "--to", "chatgpt")
    assert "## O que o ChatGPT deve saber sobre você?" in run.stdout
    assert "- Moro em Lisboa com a minha família" in run.stdout
    assert "2 memories included; none left out." in run.stderr
    out = tmp_path / "prompt.txt"
    run = ok("export", "--to", "system-prompt", "-o", out, "--budget", "110")
    assert run.stdout == ""
    written = out.read_text()
    assert len(written.rstrip("\n")) <= 110 and "Preferências" in written
    assert "1 over the budget" in run.stderr
    body = json.loads(ok("export", "--to", "claude", "--json", "--query", "Lisboa").stdout)
    assert body["target"] == "claude" and body["unit"] == "characters"
    assert body["included"] == 1 and body["texts"][1]["estimated_tokens"] > 0


def test_cli_export_to_bad_values_exit_2(home: Path) -> None:
    ok("init")
    for args in (
        ("--to", "copilot"),
        ("--to", "chatgpt", "--budget", "10"),
        ("--budget", "100"),
        (),
    ):
        run = mv("export", *args)
        assert run.exit_code == 2, (args, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr


def test_line_texts_keep_the_priority_order(tmp_path: Path) -> None:
    """Saved info and ChatGPT's memory list are one entry per line, best first."""
    with make_vault(tmp_path / "v") as vault:
        vault.add("Works on maps", "fact", confidence=0.6)
        vault.add("Prefers tea", "preference", confidence=0.5)
        vault.add("Knows Rust", "skill", confidence=0.9)
        saved = {t.name: t.text for t in render(vault, "gemini").texts}["saved"]
        assert saved.splitlines() == ["Prefers tea", "Knows Rust", "Works on maps"]


def test_markdown_in_a_memory_becomes_plain_text_in_every_target(tmp_path: Path) -> None:
    """Claude's project memories are Markdown sections ("**Purpose**\\nReceitas…"): folded
    into one line they read "**Purpose** Receitas…", asterisks and all, in every text pasted
    into an assistant. Headings become "Purpose:", list items stay apart, emphasis goes."""
    with make_vault(tmp_path / "v") as vault:
        vault.add(
            "**Purpose**\nReceitas sem glúten para a família.\n\n**Current state**\nTestando pães.",
            "project",
        )
        vault.add("## Stack\n- Python 3.12\n- *PostgreSQL* 16\n* Redis", "environment")
        vault.add("Uses C++ and 2*3 maths; likes snake_case names", "fact")
        for target in TARGET_NAMES:
            text = "\n".join(t.text for t in render(vault, target).texts)
            assert (
                "Purpose: Receitas sem glúten para a família. Current state: Testando pães." in text
            ), (target, text)
            assert "Stack: Python 3.12; PostgreSQL 16; Redis" in text, (target, text)
            assert "Uses C++ and 2*3 maths; likes snake_case names" in text, (target, text)
            assert "**" not in text, (target, text)


def test_list_items_that_end_their_sentence_are_not_joined_with_a_semicolon(
    tmp_path: Path,
) -> None:
    """A Markdown list whose items are sentences ("- Has coeliac disease.\n- Is vegetarian.")
    reads "Has coeliac disease. Is vegetarian.", never "disease.; Is…"."""
    with make_vault(tmp_path / "v") as vault:
        vault.add("## Health\n- Has coeliac disease.\n- Is vegetarian\n- Runs", "fact")
        for target in TARGET_NAMES:
            text = "\n".join(t.text for t in render(vault, target).texts)
            assert "Health: Has coeliac disease. Is vegetarian; Runs" in text, (target, text)
            assert ".;" not in text, (target, text)
