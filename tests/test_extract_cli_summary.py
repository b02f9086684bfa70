"""`memvault extract` prints a summary by default, a row per memory with --verbose (issue #15
§7: a 100 MB export printed 16,823 lines, one per reinforcement)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from clikit import home, ok
from memvault.cli.extracting import SHOWN_ROWS
from memvault.extract.evaluation import conversation_of
from memvault.vault import Vault
from vaultkit import PASSPHRASE

__all__ = ["home"]  # fixture

STATEMENTS = (
    "I live in Berlin.",
    "I'm a data engineer at Acme.",
    "I prefer short answers.",
)


def _repetitive_vault(path: Path, conversations: int) -> None:
    """`conversations` conversations restating the same few facts: most of what extraction
    finds reinforces a memory it already found."""
    ok("init")
    with Vault.open(path, PASSPHRASE) as vault:
        for n in range(conversations):
            text = " ".join(STATEMENTS)
            vault.put_conversation(
                conversation_of(
                    f"c-{n}",
                    [("user", text, f"2025-01-{1 + n % 28:02d}T09:{n % 60:02d}:00Z")],
                    platform="chatgpt",
                )
            )


def test_extract_prints_a_summary_by_default_and_rows_with_verbose(home: Path) -> None:
    _repetitive_vault(home, 60)
    actions = ok("extract", "--dry-run", "--json").json()["actions"]
    kinds = Counter(a["action"] for a in actions)
    rows = sum(n for kind, n in kinds.items() if kind != "skip")
    assert rows > 2 * SHOWN_ROWS and kinds["reinforce"] + kinds["merge"] > SHOWN_ROWS, kinds

    summary = ok("extract", "--dry-run").stdout
    assert len(summary.splitlines()) <= SHOWN_ROWS + 6, summary
    assert "--verbose lists them all" in summary
    assert f"{kinds['reinforce']} reinforcing an existing one" in summary
    assert "User lives in Berlin" in summary  # the new memories are still shown

    verbose = ok("extract", "--dry-run", "--verbose").stdout
    listed = [line for line in verbose.splitlines() if line.split()[:1] and line.split()[0]
              in ("create", "reinforce", "merge", "supersede", "contradict")]  # fmt: skip
    assert len(listed) == rows
