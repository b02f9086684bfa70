"""`memvault erase` (AIMEM §5.2, the right to erasure): by id or prefix, owner only, confirmed
at a terminal or with --yes, and complete — the memory's content is in no page of the vault's
files afterwards."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

from clikit import home, ids, mv, ok, refused, sample_vault, snapshot
from conftest import memvault_script
from pagescan import recoverable
from vaultkit import PASSPHRASE

__all__ = ["home", "ids", "sample_vault"]  # fixtures


def test_aimem_5_2_cli_erase_with_yes_erases_by_prefix(home: Path, ids: dict[str, str]) -> None:
    """AIMEM §5.2: `erase ID… --yes` erases every named memory (prefixes accepted), the audit
    log records the erasure, and the content is not in the vault's files any more."""
    allergy, coffee = ids["allergy"], ids["coffee"]
    assert recoverable(home / "vault.db", PASSPHRASE, b"penicillin") > 0
    payload = ok("erase", allergy[:8], coffee, "--yes", "--json").json()
    assert payload == {"erased": [allergy, coffee], "relations_removed": 0, "durable": True}
    listed = ok("list", "--status", "all", "--limit", "0", "--json").json()["memories"]
    assert {m["id"] for m in listed}.isdisjoint({allergy, coffee}) and len(listed) == 18
    audit = ok("audit", "--limit", "0", "--json").json()
    erased = [e for e in audit if e["action"] == "erase"]
    assert {e["memory_id"] for e in erased} == {allergy, coffee}
    assert "penicillin" not in str(audit)
    assert ok("audit", "verify").stdout
    assert recoverable(home / "vault.db", PASSPHRASE, b"penicillin") == 0
    assert ok("search", "penicillin", "--json").json()["results"] == []


def test_aimem_5_2_cli_erase_text_output(home: Path, ids: dict[str, str]) -> None:
    run = ok("erase", ids["allergy"], "-y")
    assert "Erased 1 memory" in run.stdout and ids["allergy"][:8] in run.stdout
    assert "AIMEM §5.2" in run.stdout
    assert "not what it said" in run.stdout and "they" not in run.stdout


def test_the_erasure_line_speaks_of_several_memories_in_the_plural(
    home: Path, ids: dict[str, str]
) -> None:
    run = ok("erase", ids["allergy"], ids["coffee"], "-y")
    assert "Erased 2 memories" in run.stdout and "not what they said" in run.stdout


def test_aimem_5_2_cli_erase_refuses_without_yes_when_stdin_is_not_a_terminal(
    home: Path, ids: dict[str, str]
) -> None:
    """Erasure cannot be undone: with no terminal to confirm on, --yes is required (exit 2),
    and the vault is left exactly as it was."""
    before = snapshot()
    stderr = refused("erase", ids["allergy"], code=2)
    assert "--yes" in stderr and "nothing was erased" in stderr
    assert snapshot() == before


def test_aimem_5_2_cli_erase_is_the_owners(home: Path, ids: dict[str, str]) -> None:
    """An agent (`--as`) cannot make an erasure request, even with the delete grant."""
    vault_id = ids["coffee"]
    before = snapshot()
    stderr = refused("erase", vault_id, "--as", "agent-x", "--yes")
    assert "only the owner" in stderr
    assert snapshot() == before


def test_aimem_5_2_cli_erase_unknown_id_erases_nothing(home: Path, ids: dict[str, str]) -> None:
    before = snapshot()
    stderr = refused("erase", ids["coffee"], "0000dead", "--yes")
    assert "0000dead" in stderr
    assert snapshot() == before


def test_cli_erase_without_an_id_is_a_usage_error(home: Path, ids: dict[str, str]) -> None:
    assert mv("erase", "--yes").exit_code == 2


def _at_terminal(args: list[str], answer: str, env: dict[str, str]) -> tuple[int, str]:
    """Run the console script with its stdin on a pseudo-terminal, typing `answer`."""
    master, slave = pty.openpty()
    try:
        os.write(master, answer.encode())
        proc = subprocess.run(
            [memvault_script(), *args],
            stdin=slave,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    finally:
        os.close(slave)
        os.close(master)
    return proc.returncode, proc.stdout + proc.stderr


def test_aimem_5_2_cli_erase_asks_at_a_terminal(home: Path, ids: dict[str, str]) -> None:
    """At a terminal, `erase` shows what it would erase and asks; only "y" erases."""
    env = dict(os.environ)
    code, output = _at_terminal(["erase", ids["allergy"]], "n\n", env)
    assert code == 1 and "Allergic to penicillin" in output and "nothing was erased" in output
    assert ids["allergy"] in ok("show", ids["allergy"], "--json").stdout
    code, output = _at_terminal(["erase", ids["allergy"]], "y\n", env)
    assert code == 0 and "Erased 1 memory" in output
    assert refused("show", ids["allergy"])


def test_aimem_5_2_cli_erase_says_when_another_reader_keeps_a_copy(
    home: Path, ids: dict[str, str]
) -> None:
    """A read open in another process keeps the write-ahead log from being emptied: the
    erasure commits, says so (`durable: false`, a warning), and the next scrub removes the
    copy once the reader is gone."""
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as other:
        # A read transaction held open on another connection (the vault's API never
        # leaves one open; a process reading a large export does, for a while).
        reader = other.store._conn  # type: ignore[attr-defined]
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM memories").fetchone()
        payload = ok("erase", ids["allergy"], "--yes", "--json").json()
        assert payload["durable"] is False and payload["erased"] == [ids["allergy"]]
        run = ok("erase", ids["coffee"], "--yes")
        assert "warning" in run.stdout and "write-ahead log" in run.stdout
        reader.execute("COMMIT")
    with Vault.open(home, PASSPHRASE) as vault:
        assert vault.store.scrub() is True
    assert recoverable(home / "vault.db", PASSPHRASE, b"penicillin") == 0
