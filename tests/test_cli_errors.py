"""Every way a vault command can be refused: one clear line on stderr (the library's message,
naming the id, field or rule), exit 1 when the vault refuses and 2 for a usage error, never a
traceback — and the vault exactly as it was before (`snapshot`).
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clikit import home, ids, mv, ok, refused, sample_vault, snapshot
from conftest import memvault_script
from memvault import cli, local
from memvault.vault import Vault
from vaultkit import FAST_KDF, PASSPHRASE

__all__ = ["home", "ids", "sample_vault"]  # fixtures

# (command with {placeholders} for sample ids, exit code, what the message must say): a value
# the vault finds malformed is a usage error, exit 2, as the README's "Exit status" says.
REFUSALS: list[tuple[list[str], int, str]] = [
    (["add", "x", "--type", "bogus"], 2, "type 'bogus' is not a PAM memory type (§5)"),
    (["add", "x", "--type", "custom"], 2, 'custom_type is required when type is "custom"'),
    (["add", "x", "-t", "fact", "--custom-type", "y"], 2, "custom_type must be empty"),
    (["add", "x", "-t", "fact", "--tag", "Bad Tag"], 2, "tag 'Bad Tag' breaks the PAM tag rule"),
    (["add", "x", "-t", "fact", "--tag", "-x"], 2, "^[a-z0-9][a-z0-9_-]*$"),
    (["add", "x", "-t", "fact", "--visibility", "secret"], 2, "visibility 'secret' must be"),
    (["add", "x", "-t", "fact", "--confidence", "1.5"], 2, "confidence must be a number in [0, 1]"),
    (["add", "x", "-t", "fact", "--decay-model", "fast"], 2, "decay_model 'fast'"),
    (["add", "x", "-t", "fact", "--platform", "Chat GPT"], 2, "platform 'Chat GPT' breaks"),
    (["add", "   ", "-t", "fact"], 2, "content must be non-empty text (PAM §4.1)"),
    (["add", "x", "-t", "fact", "--confidence", "high"], 2, "Invalid value for '--confidence'"),
    (["add", "x"], 2, "Missing option '--type'"),
    (["edit", "{debian}", "--tag", "UPPER"], 2, "tag 'UPPER' breaks the PAM tag rule"),
    (["edit", "{debian}", "--set-tags", "ok,Not Ok"], 2, "tag 'Not Ok' breaks"),
    (["edit", "{debian}", "--type", "nope"], 2, "type 'nope' is not a PAM memory type"),
    (["edit", "{debian}", "--type", "custom"], 2, "custom_type is required"),
    (["edit", "{debian}", "--visibility", "everyone"], 2, "visibility 'everyone'"),
    (["edit", "{debian}", "--content", "Building memvault, a vault for AI memory"], 1, "same as"),
    (["edit", "{debian}", "--grant", "user:read"], 2, "entity 'user' is reserved"),
    (["edit", "{debian}", "--grant", "agent-x"], 2, "is not ENTITY:PERMISSIONS"),
    (["edit", "{debian}"], 2, "nothing to change"),
    (["show", "zzzz"], 1, "no memory with id or id prefix 'zzzz'"),
    (["show", "{debian}", "--as", ""], 2, "actor must be a non-empty string"),
    (["retract", "zzzz"], 1, "no memory with id or id prefix 'zzzz'"),
    (["supersede", "{debian}", "{debian}"], 2, "cannot supersede itself"),
    (["supersede", "{debian}", "zzzz"], 1, "no memory with id or id prefix 'zzzz'"),
    (["relate", "{debian}", "{python}", "--type", "likes"], 2, "relation type 'likes' is not"),
    (["relate", "{debian}", "{python}", "-t", "supports", "--confidence", "2"], 2, "[0, 1]"),
    (["relate", "{debian}", "{debian}", "-t", "supports"], 2, "cannot be related to itself"),
    (["relate", "{debian}", "{python}"], 2, "Missing option '--type'"),
    (["list", "--type", "bogus"], 2, "'bogus' is not a PAM memory type"),
    (["list", "--status", "gone"], 2, "'gone' is not a PAM status (§7)"),
    (["list", "--since", "yesterday"], 2, "'yesterday' is not a date"),
    (["list", "--limit", "-1"], 2, "Invalid value for '--limit'"),
    (["search", "x", "--status", "gone"], 2, "'gone' is not a PAM status"),
    (["decay", "--as", "agent-x"], 1, "only the owner or background work may run decay"),
    (["init"], 1, "a vault already exists at"),
    (["list", "--bogus"], 2, "No such option: --bogus"),
    (["stats", "--as", "agent-x"], 1, "'agent-x' may not read the vault's statistics"),
]


@pytest.mark.parametrize(
    ("command", "code", "message"), REFUSALS, ids=[" ".join(r[0]) for r in REFUSALS]
)
def test_refused_commands_change_nothing(
    ids: dict[str, str], command: list[str], code: int, message: str
) -> None:
    before = snapshot()
    run = mv(*(part.format(**ids) for part in command))
    assert run.exit_code == code, (run.stdout, run.stderr)
    assert message in run.stderr, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    if code == 1 or run.stderr.startswith("error: "):
        assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1
        assert run.stdout == ""
    assert snapshot() == before


def test_illegal_transitions_name_the_allowed_ones(ids: dict[str, str]) -> None:
    ok("archive", ids["coffee"])
    ok("supersede", ids["lisbon"], ids["lisboa"])
    ok("deprecate", ids["debian"])
    before = snapshot()
    message = refused("retract", ids["coffee"])
    assert "is archived, which is final: no transition is allowed (PAM §7.1)" in message
    message = refused("retract", ids["lisbon"])
    assert "PAM §7.1 allows superseded → archived, not superseded → retracted" in message
    message = refused("deprecate", ids["debian"])
    assert "allows deprecated → retracted | archived, not deprecated → deprecated" in message
    message = refused("supersede", ids["lisboa"], ids["coffee"])
    assert "the new memory" in message and "is archived" in message
    message = refused("edit", ids["lisbon"], "--content", "Lives in Lisbon again")
    assert "superseded: its content and type are kept" in message
    assert snapshot() == before


def test_second_init_leaves_the_vault_untouched(ids: dict[str, str], home: Path) -> None:
    before = snapshot()
    raw = (home / "vault.db").read_bytes()
    message = refused("init", "--owner-id", "someone-else")
    assert f"a vault already exists at {home}; it was left untouched" in message
    assert (home / "vault.db").read_bytes() == raw
    assert snapshot() == before


def test_wrong_passphrase(ids: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot()
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "not the passphrase")
    for command in (["stats"], ["add", "new memory", "-t", "fact"], ["retract", ids["debian"]]):
        message = refused(*command)
        assert "wrong passphrase" in message and "file is not a database" not in message
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    assert snapshot() == before


def test_passphrase_file(
    ids: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    good = tmp_path / "good"
    good.write_text(PASSPHRASE + "\n", encoding="utf-8")
    assert ok("stats", "--passphrase-file", good, "--json").json()["memories"] == 20
    wrong = tmp_path / "wrong"
    wrong.write_text("nope\n", encoding="utf-8")
    assert "wrong passphrase" in refused("stats", "--passphrase-file", wrong)
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    assert "is empty" in refused("stats", "--passphrase-file", empty, code=2)
    missing = tmp_path / "missing"
    message = refused("stats", "--passphrase-file", missing, code=2)
    assert "Invalid value for '--passphrase-file'" in message
    # The file wins over the environment.
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "not the passphrase")
    assert ok("stats", "--passphrase-file", good, "--json").json()["memories"] == 20


def test_no_passphrase_and_no_terminal(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    message = refused("init", code=2)
    assert "no passphrase" in message and "--passphrase-file" in message
    assert "MEMVAULT_PASSPHRASE" in message and "no terminal" in message
    assert not (home / "vault.db").exists()
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    ok("init")
    before = snapshot()
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    assert "no passphrase" in refused("add", "x", "-t", "fact", code=2)
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    assert snapshot() == before


def test_prompted_passphrase(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    monkeypatch.setattr(local, "interactive", lambda: True)  # the terminal memvault.local asks
    # init asks twice; two different answers, then nothing: no vault.
    assert "no passphrase given" in mv("init", input="one\ntwo\n").stderr
    assert not (home / "vault.db").exists()
    run = ok("init", input="s3cret\ns3cret\n")
    assert "New passphrase" in run.stderr and "Repeat the passphrase" in run.stderr
    assert "Created an encrypted vault" in run.stdout
    assert ok("stats", "--json", input="s3cret\n").json()["memories"] == 0
    run = mv("stats", input="wrong\n")
    assert run.exit_code == 1 and "wrong passphrase" in run.stderr


def test_missing_vault_says_run_init(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # not even asked for: the vault is not there
    for command in (["stats"], ["list"], ["add", "x", "-t", "fact"], ["audit", "verify"]):
        message = refused(*command)
        assert f"no vault at {home}" in message and "memvault init" in message
    assert not home.exists()


def test_home_option_and_environment(ids: dict[str, str], home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    assert ok("init", "--home", other, "--json").json()["home"] == str(other)
    assert ok("stats", "--home", other, "--json").json()["memories"] == 0
    assert ok("stats", "--json").json()["memories"] == 20  # $MEMVAULT_HOME
    ok("add", "only in the other vault", "-t", "fact", "--home", other)
    assert ok("stats", "--home", other, "--json").json()["memories"] == 1
    assert ok("audit", "verify", "--home", other, "--json").json()["ok"] is True
    assert ok("audit", "--home", other, "verify", "--json").json()["entries"] == 2


def test_unwritable_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    blocker = tmp_path / "x" / "file"
    blocker.parent.mkdir()
    blocker.write_text("a regular file, so nothing can be created under it (even as root)")
    target = blocker / "vault"
    monkeypatch.setenv("MEMVAULT_HOME", str(target))
    message = refused("init")
    assert f"cannot create the vault home {target}" in message and "MEMVAULT_HOME" in message
    assert blocker.read_text().startswith("a regular file")
    assert "memvault init" in refused("stats")
    monkeypatch.setenv("MEMVAULT_HOME", str(blocker))
    assert "exists and is not a directory" in refused("init")


def test_an_unexpected_error_is_one_line_not_a_traceback(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ok("init")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Vault, "stats", broken)
    monkeypatch.setattr(sys, "argv", ["memvault", "stats"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 70
    err = capsys.readouterr().err
    assert err.startswith("memvault: internal error: RuntimeError: boom")
    assert "Traceback" not in err and "MEMVAULT_DEBUG" in err
    monkeypatch.setenv("MEMVAULT_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main()


# -- the real console script --------------------------------------------------------------------


def script_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(MEMVAULT_HOME=str(home), MEMVAULT_KDF_ITER=FAST_KDF, **extra)
    return env


def script(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [memvault_script(), *args],
        env=script_env(home, **extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_script_tour(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    env = {"MEMVAULT_PASSPHRASE": "pw"}
    assert script(home, "init", **env).returncode == 0
    added = script(home, "add", "Mora em Lisboa, perto do rio", "-t", "fact", "--json", **env)
    assert added.returncode == 0, added.stderr
    memory_id = json.loads(added.stdout)["memory"]["id"]
    hits = json.loads(script(home, "search", "lisboa", "--json", **env).stdout)
    assert [h["memory"]["id"] for h in hits["results"]] == [memory_id]
    shown = script(home, "show", memory_id[:8], **env)
    assert shown.returncode == 0 and "Mora em Lisboa" in shown.stdout
    assert script(home, "audit", "verify", **env).returncode == 0


def test_script_errors_are_one_line_with_the_right_exit_code(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    cases = [
        (["stats"], {"MEMVAULT_PASSPHRASE": "pw"}, 1, "memvault init"),
        (["init"], {}, 2, "no passphrase"),  # stdin is /dev/null: no prompt, no hang
        (["init"], {"MEMVAULT_PASSPHRASE": "pw"}, 0, ""),
        (["stats"], {}, 2, "no passphrase"),
        (["stats"], {"MEMVAULT_PASSPHRASE": "wrong"}, 1, "wrong passphrase"),
        (["add", "x", "-t", "bogus"], {"MEMVAULT_PASSPHRASE": "pw"}, 2, "not a PAM memory type"),
        (["retract", "abc"], {"MEMVAULT_PASSPHRASE": "pw"}, 1, "no memory with id"),
        (["list", "--status", "nope"], {"MEMVAULT_PASSPHRASE": "pw"}, 2, "not a PAM status"),
    ]
    for args, env, code, message in cases:
        started = time.monotonic()
        done = script(home, *args, **env)
        assert done.returncode == code, (args, done.stderr)
        assert message in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        assert time.monotonic() - started < 30


def _read_until(fd: int, marker: bytes, timeout: float = 20) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, seen
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 1024)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.skipif(not hasattr(os, "login_tty"), reason="needs a pseudo-terminal")
def test_script_prompts_on_a_terminal(tmp_path: Path) -> None:
    """On a real terminal, init asks for the passphrase twice (hidden), other commands once."""
    home = tmp_path / "vault"

    def on_terminal(*args: str, answers: list[bytes]) -> tuple[int, bytes]:
        pid, fd = pty.fork()
        if pid == 0:  # the child: its terminal is the pty
            os.execve(memvault_script(), ["memvault", *args], script_env(home))
        output = b""
        for answer in answers:
            output += _read_until(fd, b": ")
            os.write(fd, answer + b"\n")
        output += _read_until(fd, b"\x00", timeout=20)
        _, status = os.waitpid(pid, 0)
        os.close(fd)
        return os.waitstatus_to_exitcode(status), output

    code, output = on_terminal("init", answers=[b"s3cret", b"s3cret"])
    assert code == 0, output
    assert b"New passphrase" in output and b"Repeat the passphrase" in output
    assert b"s3cret" not in output  # hidden input
    code, output = on_terminal("stats", answers=[b"s3cret"])
    assert code == 0 and b"Audit entries: 1" in output, output
