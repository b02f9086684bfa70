"""What the CLI says when something is wrong (issue #15 §7): exit 2 for every malformed value
on the command line (as the README's "Exit status" says), "no such file" for a missing input,
counts with the right plural, no guesses and no clause said twice."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from clikit import home, mv, ok, refused  # noqa: F401  (fixture)

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "memory-store.json"


def _clean(message: str) -> None:
    """One message: no traceback, no clause twice, no guess, no '1 errors'."""
    assert "Traceback" not in message
    clauses = [c.strip() for c in re.split(r"[;:]", message) if c.strip()]
    assert len(clauses) == len(set(clauses)), message
    assert "?)" not in message and "memory?" not in message
    assert not re.search(r"\b1 (errors|warnings|memories|problems|entries)\b", message), message


@pytest.mark.parametrize(
    "args",
    [
        ("add", "hello", "--type", "bogus"),
        ("add", "hello", "--type", "fact", "--confidence", "1.5"),
        ("add", "hello", "--type", "fact", "--confidence", "-0.5"),
        ("add", "hello", "--type", "fact", "--tag", "Not A Tag"),
        ("add", "hello", "--type", "custom"),
        ("add", "", "--type", "fact"),
        ("relate", "aaaa", "bbbb", "--type", "bogus"),
        ("decay", "--as", ""),
        ("export", "--since", "yesterday", "-o", "out"),
        ("export", "--format", "aimem", "--since", "yesterday", "-o", "out.aimem.json"),
    ],
    ids=lambda a: " ".join(a),
)
def test_malformed_values_exit_2_as_the_readme_says(
    args: tuple[str, ...],
    home: Path,  # noqa: F811
) -> None:
    ok("init")
    message = refused(*args, code=2)
    _clean(message)


def test_edit_with_a_malformed_type_exits_2(home: Path) -> None:  # noqa: F811
    ok("init")
    memory = ok("add", "Lives in Lisbon", "--type", "fact", "--json").json()["memory"]
    _clean(refused("edit", memory["id"], "--type", "bogus", code=2))
    _clean(refused("edit", memory["id"], "--grant", "agent-x:fly", code=2))


@pytest.mark.parametrize(
    ("option", "value"),
    [("--scope", "bogus"), ("--producer", "Not_A_Namespace")],
)
def test_a_bad_option_value_names_the_option_once(
    option: str,
    value: str,
    home: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """'Invalid value for '--scope': --scope 'bogus': …' said the option twice."""
    ok("init")
    run = mv("export", "--format", "aimem", option, value, "-o", tmp_path / "x.aimem.json")
    assert run.exit_code == 2
    text = " ".join(run.stderr.replace("│", " ").split())
    assert text.count(option) == 1, text


@pytest.mark.parametrize(
    "args",
    [
        ("import", "{missing}"),
        ("convert", "{missing}", "-o", "{out}"),
        ("convert", "{missing}", "--to", "aimem", "-o", "{out}.aimem.json"),
        ("merge", "{missing}", "{missing}", "-o", "{out}.json"),
    ],
    ids=lambda a: " ".join(a[:3]),
)
def test_a_missing_file_is_no_such_file(
    args: tuple[str, ...],
    home: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Not "it is not valid PAM (1 errors)": the file is not there; exit 2."""
    ok("init")
    missing = tmp_path / "nowhere.zip"
    filled = [a.format(missing=missing, out=tmp_path / "out") for a in args]
    message = refused(*filled, code=2)
    assert message.strip() == f"error: {missing}: no such file or directory"


def test_a_refusal_with_one_error_says_1_error(home: Path, tmp_path: Path) -> None:  # noqa: F811
    document = json.loads(EXAMPLE.read_bytes())
    document["memories"][0]["content_hash"] = "sha256:" + "0" * 64
    for member in ("integrity", "signature"):
        document.pop(member, None)
    bad = tmp_path / "one-error.json"
    bad.write_text(json.dumps(document))
    ok("init")
    cases = (
        (("import", bad), "nothing was changed"),
        (("merge", bad, bad, "-o", tmp_path / "m.json"), "nothing was written"),  # no vault
        (("convert", bad, "--to", "aimem", "-o", tmp_path / "b.aimem.json"), "nothing was written"),
    )
    for args, nothing in cases:
        message = refused(*args)
        assert "(1 error)" in message, message
        assert message.splitlines()[0].endswith(nothing), message
        _clean(message.splitlines()[0])
    assert "invalid (1 error)" in mv("inspect", bad).stdout


#: Message patterns the CLI once printed: a guess at the cause, a count with a fixed plural
#: (``{n} memories``, also ``{report.examined} active memories``).
_GUESS = re.compile(r"out of memory\?|memory\?\)")
_FIXED_PLURAL = re.compile(
    r"\{(len\([^)]*\)|[a-z_][a-z_.]*)\} (?:[a-z-]+ )?(errors|warnings|problems|memories"
    r"|conversations|messages|relations|entries|chunks|embeddings)\b"
)
#: Where a plural count is right: the count is never one there.
_ALWAYS_SEVERAL = ("more than {MAX_ENTRIES} entries", "{task.fields[conversations]}")
#: A literal's prefix and quotes.
_QUOTES = re.compile(r"^[rbfuRBFU]*('''|\"\"\"|'|\")|('''|\"\"\"|'|\")$")


def _literals(source: str) -> list[tuple[int, str]]:
    """Each string literal with its first line, adjacent literals joined: a message split
    over two source lines (``f"{n} active "`` then ``f"memories"``) is read whole."""
    found: list[tuple[int, str]] = []
    group: list[str] = []
    start = 0
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING:
            if not group:
                start = token.start[0]
            group.append(_QUOTES.sub("", token.string))
        elif group and token.type not in (tokenize.NL, tokenize.COMMENT):
            found.append((start, "".join(group)))
            group = []
    return found


def test_the_literal_reader_joins_a_message_split_over_two_lines() -> None:
    source = 'x = (\n    f"examined {n} active "\n    # why\n    f"memories"\n)\n'
    assert _literals(source) == [(2, "examined {n} active memories")]
    assert _FIXED_PLURAL.search(_literals(source)[0][1])


def test_the_sources_hold_no_guessed_cause_and_no_fixed_plural() -> None:
    """A scan of every message memvault can print (src/memvault) for the patterns above."""
    found = []
    for path in sorted((REPO / "src" / "memvault").rglob("*.py")):
        for number, text in _literals(path.read_text()):
            if any(a in text for a in _ALWAYS_SEVERAL):
                continue
            if _GUESS.search(text) or _FIXED_PLURAL.search(text):
                found.append(f"{path.relative_to(REPO)}:{number}: {text.strip()}")
    assert found == []


def test_decay_dry_run_of_one_memory_says_memory(home: Path) -> None:  # noqa: F811
    """'examined 1 active memories' was split over two source lines, out of the scan's sight."""
    ok("init")
    ok("add", "Lives in Lisbon", "--type", "fact")
    out = " ".join(ok("decay", "--dry-run").stdout.split())
    assert "examined 1 active memory:" in out, out
    _clean(out)


def test_merging_a_full_export_says_so_once_pam_16_3(tmp_path: Path) -> None:
    """A full export as the delta was refused for not being incremental and, again, for
    applying to "export None"."""
    message = refused("merge", EXAMPLE, EXAMPLE, "-o", tmp_path / "m.json")
    assert "is not an incremental export" in message and "None" not in message, message
    _clean(message)
