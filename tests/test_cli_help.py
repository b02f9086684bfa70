"""Every command's and subcommand's `--help`, rendered at a fixed terminal width, reads as it
was written (issue #15 §7): no line broken mid-sentence by a docstring's hard wrap, no emoji
where text was meant (`did:key:` once rendered as `did🔑`), no empty parenthetical or doubled
punctuation (`(, AIMEM §2.3)` once, when `[a-z0-9-]` was read as a Rich style tag)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from memvault.cli import app
from memvault.cli.helptext import literal

WIDTH = 100


def _commands() -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []

    def walk(command: object, path: tuple[str, ...]) -> None:
        found.append(path)
        if isinstance(command, TyperGroup):
            for name, sub in command.commands.items():
                walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


COMMANDS = _commands()


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(
        app, [*path, "--help"], env={"COLUMNS": str(WIDTH), "TERM": "dumb", "NO_COLOR": "1"}
    )
    assert result.exit_code == 0, result.output
    return result.output


def _cell_lines(text: str) -> list[tuple[str, int, bool]]:
    """Each rendered line's text, the last column text may reach on it and whether it is in
    a panel: inside (│ … │), up to the padding before the right border; outside, the
    terminal's width."""
    lines = []
    for line in text.splitlines():
        if line.startswith("│") and line.rstrip().endswith("│"):
            inner = line.rstrip()[1:-1]
            lines.append((inner, len(inner) - 1, True))
        else:
            lines.append((line, WIDTH - 1, False))
    return lines


#: Lines that start on their own by design: Typer's annotations and list items.
_OWN_LINE = re.compile(r"\[(default|required|env var)|[-*•] |\d+[.)] ")
#: A panel's rows start in the first columns (an option, a command); a row's further lines
#: are indented to its help cell.
_ROW_START = 5


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def hard_breaks(text: str) -> list[str]:
    """Lines a word-wrapping renderer would have filled with the next line's first word: the
    break came from the text itself, not from the terminal's width."""
    found = []
    lines = _cell_lines(text)
    for (line, end, panel), (following, _, next_panel) in itertools.pairwise(lines):
        body = following.lstrip()
        if not line.strip() or not body or panel != next_panel:
            continue
        start = _indent(following)
        if panel:
            # The same cell goes on: indented past the row starts, aligned with a cell of
            # this line (a space before that column, text at it).
            if start <= _ROW_START or start >= len(line) or line[start - 1] != " ":
                continue
            if line[start] == " " and _indent(line) != start:
                continue
        elif start != _indent(line):
            continue
        if _OWN_LINE.match(body) or body.startswith(("Usage:", "╭", "╰")):
            continue
        word = body.split()[0]
        if len(line.rstrip()) + 1 + len(word) <= end:
            found.append(f"{line.rstrip()!r} / {body[:40]!r}")
    return found


#: Symbols help text may use; any other "other symbol" is an emoji Rich made of a code.
_SYMBOLS = set("§→←…·—–×✓✗│╭╮╰╯─")
_PUNCTUATION = re.compile(
    r"\(\s*[,;:]|\(\s*\.(?![A-Za-z])|\(\s*\)|[,;:]\s*\)|([,;:])\s*\1"
    r"|(?<![.\d])\.\.(?![./…\d])|\s[,;]"
)


def defects(text: str) -> list[str]:
    import unicodedata

    found = hard_breaks(text)
    found += [
        f"emoji {ch!r}"
        for ch in sorted(set(text))
        if unicodedata.category(ch) == "So" and ch not in _SYMBOLS
    ]
    found += [f"punctuation {m.group(0)!r}" for m in _PUNCTUATION.finditer(text)]
    return found


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "memvault")
def test_every_help_reads_as_written(path: tuple[str, ...]) -> None:
    assert defects(_help(path)) == []


def test_help_keeps_did_key_and_brackets_as_text() -> None:
    assert "did:key:z6Mk" in _help(("init",))
    assert "([a-z0-9-], AIMEM §2.3)" in " ".join(_help(("export",)).split())


def test_the_checks_find_what_they_look_for() -> None:
    """The detectors catch the defects the help once had."""
    rows = (" validate   checked against every MUST", "            of AIMEM §2, the checksum")
    hard = "".join(f"│{row:<60}│\n" for row in rows)
    assert hard_breaks(hard)
    full = (" validate   " + "word " * 9 + "last", rows[1])  # "of" would not fit: a soft wrap
    assert not hard_breaks("".join(f"│{row:<60}│\n" for row in full))
    assert defects("e.g. did🔑z6Mk")
    assert defects("the chunk URNs (, AIMEM §2.3)")
    assert literal("a\nb\n\n- c\n- d") == "a b\n\n- c\n- d"
    assert literal("did:key:z") != "did:key:z" and literal(literal("[x]")) == literal("[x]")


@pytest.mark.parametrize("argv", [("init", "--help"), ("keys",), ("export", "-h")])
def test_the_console_script_help_reads_as_written(argv: tuple[str, ...]) -> None:
    """`memvault COMMAND --help` loads one command's module: its help is prepared too."""
    import os
    import subprocess

    from conftest import memvault_script

    env = {**os.environ, "COLUMNS": str(WIDTH), "TERM": "dumb", "NO_COLOR": "1"}
    proc = subprocess.run(
        [memvault_script(), *argv], capture_output=True, text=True, env=env, timeout=60
    )
    assert proc.returncode in (0, 2), proc.stderr
    text = proc.stdout + proc.stderr
    assert "Usage:" in text and defects(text) == []


def _options(path: tuple[str, ...]) -> list[str]:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return [p.opts[0] for p in command.params if p.opts and p.opts[0].startswith("--")]


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "memvault")
def test_vault_and_server_options_stand_together(path: tuple[str, ...]) -> None:
    """A command that opens the vault takes --home, --passphrase-file and --as together, in
    that order, ahead of --json (`common.vault_command` puts them where the command's
    `options` parameter is); a tenants command likewise --server-home, --server-key-file."""
    options = _options(path)
    for group in (["--home", "--passphrase-file", "--as"], ["--server-home", "--server-key-file"]):
        if group[-1] in options:
            start = options.index(group[0])
            assert options[start : start + len(group)] == group, options
    if "--as" in options and "--json" in options:
        assert options.index("--json") > options.index("--as"), options


#: Groups that only list their subcommands (each of which shows its own example).
PURE_GROUPS = {("passphrase",), ("keys",), ("conversations",), ("tenants",), ("db",)}


@pytest.mark.parametrize("path", [p for p in COMMANDS if p], ids=" ".join)
def test_every_command_help_shows_an_example(path: tuple[str, ...]) -> None:
    """A new user's first question of `--help` is "what do I type?": every command that does
    something shows a command line that does it (`validate`, `sign`, `tenants revoke`… had
    none)."""
    if path in PURE_GROUPS:
        return
    text = " ".join(_help(path).split())
    example = re.search(r"Examples?(?: \([^)]*\))?: (.{0,200})", text)
    assert example, text
    assert "memvault" in example[1] and all(word in example[1] for word in path), text
