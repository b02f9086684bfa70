""" "Every command takes --json" (README): `sign --json` and `keys export-public --json` did
not exist (issue #15 §7); a walk over the command tree keeps the promise true."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import typer
from typer.core import TyperGroup

from clikit import home, ok  # noqa: F401  (fixture)
from memvault.cli import app
from pamdocs import EXAMPLES


def _leaves(command: object, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], object]]:
    if not isinstance(command, TyperGroup):
        return [(path, command)]
    found = [(path, command)] if command.invoke_without_command and path else []
    for name, sub in command.commands.items():
        found += _leaves(sub, (*path, name))
    return found


def test_every_command_takes_json() -> None:
    missing = [
        " ".join(path)
        for path, command in _leaves(typer.main.get_command(app))
        if "--json" not in {o for p in command.params for o in getattr(p, "opts", ())}  # type: ignore[attr-defined]
    ]
    assert missing == []


def test_sign_json_prints_the_signature_block_pam_18_1(
    home: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    ok("init")
    ok("keys", "generate")
    path = tmp_path / "work" / "memory-store.json"
    path.parent.mkdir()
    shutil.copyfile(EXAMPLES / "memory-store.json", path)
    payload = ok("sign", path, "--json").json()
    assert payload["path"] == str(path)
    assert payload["signature"] == json.loads(path.read_bytes())["signature"]
    assert payload["signature"]["algorithm"] == "Ed25519"


def test_keys_export_public_json(home: Path, tmp_path: Path) -> None:  # noqa: F811
    ok("init")
    (entry,) = [ok("keys", "generate", "--json").json()]
    payload = ok("keys", "export-public", "z6Mk", "--format", "block", "--json").json()
    assert payload["key_id"] == entry["key_id"] and payload["did"] == entry["did"]
    assert payload["public_key"] == entry["public_key"] and payload["path"] is None
    out = tmp_path / "key.pem"
    written = ok("keys", "export-public", "z6Mk", "-o", out, "--json").json()
    assert written["path"] == str(out) and written["format"] == "pem"
    assert out.read_text() == written["public_key"] and "PRIVATE" not in out.read_text()
