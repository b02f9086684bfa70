"""`memvault COMMAND` loads only the module that registers COMMAND (`COMMAND_MODULES`), so
commands that need no vault start without loading SQLCipher, the extractors or the HTTP
client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import typer

from aimemkit import bundle, chunk, write
from memvault.cli import COMMAND_MODULES, MODULES, build_app
from pamdocs import EXAMPLES


def _commands(app: typer.Typer) -> set[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return set(group.list_commands(typer.Context(group)))


def test_command_table_names_every_command_and_the_module_that_registers_it() -> None:
    every = _commands(build_app())
    assert set(COMMAND_MODULES) == every
    for module in MODULES:
        registered = _commands(build_app([module]))
        assert registered == {c for c, m in COMMAND_MODULES.items() if m == module}, module


def _loaded_after(*argv: str, env: dict[str, str] | None = None) -> set[str]:
    script = (
        "import sys\n"
        f"sys.argv = ['memvault', *{list(argv)!r}]\n"
        "from memvault.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    return set(run.stderr.split())


def test_validate_loads_neither_the_vault_nor_the_extractors() -> None:
    loaded = _loaded_after("validate", str(EXAMPLES / "memory-store.json"))
    assert "memvault.formats.pam.validate" in loaded
    heavy_modules = (
        "memvault.vault",
        "sqlcipher3",
        "memvault.extract.rules",
        "httpx",
        "memvault.formats.aimem.cose",  # a schema-first PAM file cannot be a bundle
    )
    for heavy in heavy_modules:
        assert heavy not in loaded, heavy


def test_version_loads_no_command_module() -> None:
    loaded = _loaded_after("--version")
    assert not any(f"memvault.cli.{m}" in loaded for m in MODULES)


def test_validate_still_reads_a_bundle_by_content(tmp_path: Path) -> None:
    """The PAM shortcut looks only at files that begin like a PAM document: a bundle, whatever
    its name, still goes to the AIMEM reader."""
    path = write(tmp_path / "memories.json", bundle([chunk("c1", "User prefers tea.")]))
    loaded = _loaded_after("validate", str(path))
    assert "memvault.formats.aimem.reader" in loaded
    assert "memvault.formats.pam.validate" in loaded  # the command module imports it anyway


def test_importing_a_provider_export_loads_no_pam_exchange_merge_aimem_or_extractor(
    tmp_path: Path,
) -> None:
    """`memvault import` of a ChatGPT export needs the vault and the importer only: the PAM
    import and export, the merge, the AIMEM bundle code and the extractors (for --extract)
    are loaded by the branches that use them (they cost ~0.3 s of every such import)."""
    export = tmp_path / "conversations.json"
    export.write_text("[]", encoding="utf-8")
    home = tmp_path / "home"
    init = subprocess.run(
        [sys.executable, "-m", "memvault", "init", "--home", str(home)],
        env={**os.environ, "MEMVAULT_PASSPHRASE": "pw"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert init.returncode == 0, init.stderr
    loaded = _loaded_after(
        "import",
        str(export),
        "--from",
        "chatgpt",
        "--home",
        str(home),
        "--json",
        env={**os.environ, "MEMVAULT_PASSPHRASE": "pw"},
    )
    assert "memvault.importers.chatgpt" in loaded and "memvault.vault" in loaded
    heavy_modules = (
        "memvault.exchange",
        "memvault.formats.pam.merge",
        "memvault.exchange.aimem",
        "memvault.formats.aimem.validate",
        "memvault.extract.rules",
        "memvault.extract.llm",
    )
    for heavy in heavy_modules:
        assert heavy not in loaded, heavy
