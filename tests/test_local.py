"""`memvault.local` (issue #16, "local concerns out of the vault"): where a vault opened on
this machine lives and where its passphrase comes from — the argument, else a passphrase file,
else ``$MEMVAULT_PASSPHRASE``, else a prompt, asked only at a terminal — on real vault files.

The order is shown by giving a wrong passphrase in one source and the right one in another:
the source that wins decides whether the vault opens or says "wrong passphrase"."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import platformdirs
import pytest

from memvault import local
from memvault.errors import InvalidInput, VaultExists, VaultNotFound
from memvault.paths import database_path
from memvault.store.base import WrongPassphrase
from vaultkit import FAST_KDF, PASSPHRASE, make_vault

WRONG = "not the passphrase"


def _never(new: bool) -> str:
    raise AssertionError(f"the prompt was asked (new={new}) although a passphrase was given")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("MEMVAULT_HOME", "MEMVAULT_PASSPHRASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMVAULT_KDF_ITER", FAST_KDF)
    return monkeypatch


@pytest.fixture
def vault_home(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "vault"
    make_vault(home).close()
    return home


def _file(tmp_path: Path, text: str, name: str = "pass.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the home -------------------------------------------------------------------------------


def test_home_argument_then_environment_then_platform_directory(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    assert local.find_home() == Path(platformdirs.user_data_dir("memvault"))
    clean_env.setenv("MEMVAULT_HOME", "~/somewhere")
    assert local.find_home() == Path("~/somewhere").expanduser()
    assert local.find_home(tmp_path / "explicit") == tmp_path / "explicit"


def test_open_and_init_find_the_home_in_the_environment(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    clean_env.setenv("MEMVAULT_HOME", str(tmp_path / "envhome"))
    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    with local.init_vault(prompt=_never) as created:
        owner = created.owner.id
    assert database_path(tmp_path / "envhome").is_file()
    with local.open_vault(prompt=_never) as vault:
        assert vault.home == tmp_path / "envhome" and vault.owner.id == owner
    # The argument wins over the environment: no vault there.
    with pytest.raises(VaultNotFound, match=f"no vault at {tmp_path / 'elsewhere'}"):
        local.open_vault(tmp_path / "elsewhere", prompt=_never)


def test_a_missing_vault_is_reported_before_the_passphrase_is_asked(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    with pytest.raises(VaultNotFound, match="create one with `memvault init`"):
        local.open_vault(tmp_path / "nowhere", prompt=_never)
    assert not (tmp_path / "nowhere").exists()


def test_an_existing_vault_is_reported_before_a_new_passphrase_is_asked(
    vault_home: Path,
) -> None:
    before = {p.name: p.read_bytes() for p in vault_home.iterdir()}
    with pytest.raises(VaultExists, match="already exists"):
        local.init_vault(vault_home, prompt=_never)
    assert {p.name: p.read_bytes() for p in vault_home.iterdir()} == before


# -- the passphrase: argument > file > environment > prompt ---------------------------------


def test_the_argument_wins_over_file_environment_and_prompt(
    vault_home: Path, tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    clean_env.setenv("MEMVAULT_PASSPHRASE", WRONG)
    wrong_file = _file(tmp_path, WRONG + "\n")
    with local.open_vault(vault_home, PASSPHRASE, passphrase_file=wrong_file, prompt=_never):
        pass
    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    right_file = _file(tmp_path, PASSPHRASE + "\n", "right.txt")
    with pytest.raises(WrongPassphrase):
        local.open_vault(vault_home, WRONG, passphrase_file=right_file, prompt=_never)


def test_the_file_wins_over_the_environment_and_its_first_line_is_read(
    vault_home: Path, tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    clean_env.setenv("MEMVAULT_PASSPHRASE", WRONG)
    with local.open_vault(
        vault_home, passphrase_file=_file(tmp_path, f"{PASSPHRASE}\nsecond line\n"), prompt=_never
    ) as vault:
        assert vault.home == vault_home
    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    with pytest.raises(WrongPassphrase):
        local.open_vault(vault_home, passphrase_file=_file(tmp_path, WRONG), prompt=_never)


def test_the_environment_wins_over_the_prompt(
    vault_home: Path, clean_env: pytest.MonkeyPatch
) -> None:
    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    with local.open_vault(vault_home, prompt=_never) as vault:
        assert vault.home == vault_home


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty (the first line is read)"),
        (b"\nsecond line\n", "is empty (the first line is read)"),
        (b"\xff\xfe not utf-8", "is not UTF-8 text"),
    ],
)
def test_a_passphrase_file_that_gives_none_names_the_file(
    vault_home: Path, tmp_path: Path, clean_env: pytest.MonkeyPatch, content: bytes, message: str
) -> None:
    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)  # not used instead of a bad file
    path = tmp_path / "pass.bin"
    path.write_bytes(content)
    with pytest.raises(InvalidInput, match=re.escape(message)) as caught:
        local.open_vault(vault_home, passphrase_file=path, prompt=_never)
    assert str(path) in str(caught.value) and caught.value.field == local.PASSPHRASE_FIELD
    with pytest.raises(InvalidInput, match="cannot read the passphrase file"):
        local.open_vault(vault_home, passphrase_file=tmp_path / "absent", prompt=_never)


def test_without_a_terminal_the_prompt_is_never_asked(
    vault_home: Path, clean_env: pytest.MonkeyPatch
) -> None:
    """Standard input is no terminal under pytest (and in scripts): nothing may wait on it."""
    assert not local.interactive()
    with pytest.raises(InvalidInput, match="there is no terminal to ask on") as caught:
        local.open_vault(vault_home, prompt=_never)
    assert caught.value.field == local.PASSPHRASE_FIELD
    with pytest.raises(InvalidInput, match="no passphrase"):
        local.open_vault(vault_home)  # no prompt at all: the same


_AT_A_TERMINAL = textwrap.dedent(
    """
    import sys
    from memvault import local

    asked = []

    def prompt(new):
        asked.append(new)
        return sys.argv[2]

    if sys.argv[3] == "init":
        vault = local.init_vault(sys.argv[1], prompt=prompt)
    else:
        vault = local.open_vault(sys.argv[1], prompt=prompt)
    vault.close()
    print("asked", asked)
    """
)


def _at_a_terminal(home: Path, answer: str, what: str) -> subprocess.CompletedProcess[str]:
    """`local.open_vault` / `init_vault` in a process whose standard input is a terminal (a
    pseudo-terminal), with a prompt that answers `answer`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["MEMVAULT_KDF_ITER"] = FAST_KDF
    leader, follower = pty.openpty()
    try:
        return subprocess.run(
            [sys.executable, "-c", _AT_A_TERMINAL, str(home), answer, what],
            stdin=follower,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
    finally:
        os.close(follower)
        os.close(leader)


def test_at_a_terminal_the_prompt_is_asked_last(tmp_path: Path) -> None:
    home = tmp_path / "vault"
    created = _at_a_terminal(home, PASSPHRASE, "init")
    assert created.returncode == 0, created.stderr
    assert "asked [True]" in created.stdout  # a new vault: the front end asks twice
    opened = _at_a_terminal(home, PASSPHRASE, "open")
    assert opened.returncode == 0, opened.stderr
    assert "asked [False]" in opened.stdout
    wrong = _at_a_terminal(home, WRONG, "open")
    assert wrong.returncode != 0 and "WrongPassphrase" in wrong.stderr


# -- the CLI uses it ------------------------------------------------------------------------


def test_cli_passphrase_file_wins_over_the_environment(
    vault_home: Path, tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    from clikit import mv

    clean_env.setenv("MEMVAULT_PASSPHRASE", PASSPHRASE)
    run = mv("stats", "--home", vault_home, "--passphrase-file", _file(tmp_path, WRONG))
    assert run.exit_code == 1 and "wrong passphrase" in run.stderr
    clean_env.delenv("MEMVAULT_PASSPHRASE")
    run = mv("stats", "--home", vault_home)
    assert run.exit_code == 2 and "there is no terminal to ask on" in run.stderr
