"""PAM §21.1 encrypted files: age via pyrage, interoperable with Debian's `age` CLI both ways,
and opened transparently by `validate` (and everything built on `sources.open_target`).

The `age` binary is a test requirement (the Makefile's system-deps installs it); a missing one
fails these tests with that message rather than skipping them. Passphrase encryption uses
scrypt (about a second per operation by design), so the passphrase tests share their files.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import stat
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from memvault.crypto import agefile
from memvault.formats.pam.validate import validate_path
from memvault.sources import SourceError, open_target
from pamdocs import EXAMPLES

PASSPHRASE = "correct horse battery staple"
STORE = EXAMPLES / "memory-store.json"
EXPORT_ZIP = EXAMPLES / "export.zip"


def age_binary() -> str:
    found = shutil.which("age")
    if found is None:
        pytest.fail(
            "the `age` command-line tool is missing: install Debian's `age` package "
            "(`make system-deps` does it); these tests check interoperability with it"
        )
    return found


def run_age(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [age_binary(), *map(str, args)], capture_output=True, timeout=60, check=False
    )


def age_with_passphrase(args: list[str | Path], passphrase: str, prompts: int) -> None:
    """Run `age` on a pseudo-terminal (it reads passphrases from the terminal only) and answer
    its `prompts` passphrase prompts."""
    binary = age_binary()
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execv(binary, [binary, *map(str, args)])
    seen = b""
    answered = 0
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            if answered < prompts and seen.lower().count(b"passphrase") > answered:
                os.write(fd, passphrase.encode() + b"\r")
                answered += 1
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, seen.decode(errors="replace")


@pytest.fixture(scope="module")
def identity(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """An X25519 identity made by `age-keygen`: (key file, secret, recipient)."""
    keygen = shutil.which("age-keygen")
    if keygen is None:
        pytest.fail("`age-keygen` is missing: install Debian's `age` package")
    path = tmp_path_factory.mktemp("age") / "key.txt"
    subprocess.run([keygen, "-o", str(path)], check=True, capture_output=True, timeout=30)
    text = path.read_text()
    secret = next(line for line in text.splitlines() if line.startswith("AGE-SECRET-KEY-"))
    recipient = next(line.split(": ")[1] for line in text.splitlines() if "public key" in line)
    return path, secret, recipient


@pytest.fixture(scope="module")
def passphrase_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample memory-store encrypted by pyrage with PASSPHRASE (made once: scrypt)."""
    path = tmp_path_factory.mktemp("age") / "memory-store.json.age"
    agefile.write_encrypted(path, STORE.read_bytes(), passphrase=PASSPHRASE)
    return path


# ---------------------------------------------------------------------------------------------
# Interoperability with the age CLI
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("armor", [False, True])
def test_pam_21_1_age_cli_decrypts_what_pyrage_encrypts_to_a_recipient(
    tmp_path: Path, identity: tuple[Path, str, str], armor: bool
) -> None:
    key_file, _, recipient = identity
    sealed = tmp_path / "store.age"
    sealed.write_bytes(agefile.encrypt(STORE.read_bytes(), recipients=[recipient], armor=armor))
    out = tmp_path / "plain.json"
    done = run_age("--decrypt", "-i", key_file, "-o", out, sealed)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == STORE.read_bytes()


@pytest.mark.parametrize("armor", [False, True])
def test_pam_21_1_pyrage_decrypts_what_the_age_cli_encrypts_to_a_recipient(
    tmp_path: Path, identity: tuple[Path, str, str], armor: bool
) -> None:
    key_file, secret, recipient = identity
    sealed = tmp_path / "export.zip.age"
    args = ["-r", recipient, "-o", sealed, EXPORT_ZIP]
    done = run_age(*(["--armor", *args] if armor else args))
    assert done.returncode == 0, done.stderr
    assert agefile.is_age(sealed.read_bytes()[:64]) and not agefile.needs_passphrase(
        sealed.read_bytes()
    )
    assert agefile.decrypt(sealed.read_bytes(), identities=[secret]) == EXPORT_ZIP.read_bytes()
    # an identity file as age-keygen writes it (with comments) works too
    assert agefile.decrypt(sealed.read_bytes(), identities=[key_file.read_text()]) == (
        EXPORT_ZIP.read_bytes()
    )


def test_pam_21_1_age_cli_decrypts_what_pyrage_encrypts_with_a_passphrase(
    tmp_path: Path, passphrase_file: Path
) -> None:
    out = tmp_path / "plain.json"
    age_with_passphrase(["--decrypt", "-o", out, passphrase_file], PASSPHRASE, prompts=1)
    assert out.read_bytes() == STORE.read_bytes()


def test_pam_21_1_pyrage_decrypts_what_the_age_cli_encrypts_with_a_passphrase(
    tmp_path: Path,
) -> None:
    sealed = tmp_path / "store.age"
    age_with_passphrase(["--passphrase", "-o", sealed, STORE], PASSPHRASE, prompts=2)
    data = sealed.read_bytes()
    assert agefile.is_age(data[:64]) and agefile.needs_passphrase(data)
    assert agefile.decrypt(data, passphrase=PASSPHRASE) == STORE.read_bytes()


# ---------------------------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------------------------


def test_pam_21_1_wrong_identity_is_a_clear_error(identity: tuple[Path, str, str]) -> None:
    _, _, recipient = identity
    other_secret, _ = agefile.generate_identity()
    sealed = agefile.encrypt(b"{}", recipients=[recipient])
    with pytest.raises(agefile.AgeDecryptError, match="given identities"):
        agefile.decrypt(sealed, identities=[other_secret])
    with pytest.raises(agefile.AgeDecryptError, match="encrypted to recipients"):
        agefile.decrypt(sealed, passphrase="anything")


def test_age_arguments_are_checked() -> None:
    with pytest.raises(agefile.AgeError, match="one of the two"):
        agefile.encrypt(b"x")
    with pytest.raises(agefile.AgeError, match="not an age recipient"):
        agefile.encrypt(b"x", recipients=["age1nope"])
    with pytest.raises(agefile.AgeError, match="not an age identity"):
        agefile.decrypt(b"x", identities=["AGE-SECRET-KEY-1NOPE"])
    with pytest.raises(agefile.AgeError, match="empty"):
        agefile.encrypt(b"x", passphrase="")


def test_is_age() -> None:
    assert agefile.is_age(b"age-encryption.org/v1\n-> X25519 abc")
    assert agefile.is_age(b"-----BEGIN AGE ENCRYPTED FILE-----\nYWdl")
    assert agefile.is_age(b"\n  -----BEGIN AGE ENCRYPTED FILE-----\n")
    assert not agefile.is_age(b'{"schema": "portable-ai-memory"}')
    assert not agefile.is_age(b"PK\x03\x04")
    assert not agefile.is_age(b"age-encryption.org/v2\n")


def test_pam_21_1_write_encrypted_is_owner_only_and_atomic(
    tmp_path: Path, identity: tuple[Path, str, str]
) -> None:
    _, secret, recipient = identity
    target = tmp_path / "out.age"
    agefile.write_encrypted(target, b"secret memories", recipients=[recipient])
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert agefile.decrypt(target.read_bytes(), identities=[secret]) == b"secret memories"
    assert [p.name for p in tmp_path.iterdir()] == ["out.age"]  # no temporary left behind


def test_encryptor_and_decrypted_path(tmp_path: Path, identity: tuple[Path, str, str]) -> None:
    """The hooks an exporter/importer that works on paths uses; the plaintext of
    `decrypted_path` is an in-memory file, never written to disk."""
    _, secret, recipient = identity
    sealed = tmp_path / "store.age"
    agefile.encryptor(recipients=[recipient])(STORE, sealed)
    assert stat.S_IMODE(sealed.stat().st_mode) == 0o600
    with agefile.decrypted_path(sealed, identities=[secret]) as plain:
        assert plain is not None and plain.read_bytes() == STORE.read_bytes()
        assert not str(plain).startswith(str(tmp_path))
    with agefile.decrypted_path(STORE) as plain:
        assert plain is None


# ---------------------------------------------------------------------------------------------
# Transparent decryption in open_target and validate
# ---------------------------------------------------------------------------------------------


def test_pam_21_1_validate_decrypts_a_passphrase_file_transparently(
    passphrase_file: Path,
) -> None:
    """The passphrase is asked for (once) only when an age file needs it."""
    asked: list[int] = []

    def ask() -> str:
        asked.append(1)
        return PASSPHRASE

    assert validate_path(STORE, age_passphrase=ask).valid
    assert asked == []
    result = validate_path(passphrase_file, age_passphrase=ask)
    assert asked == [1]
    assert result.valid and not result.findings, result.findings
    assert result.kind == "memory-store" and result.facts["memory_store"]["memories"] == 14
    assert result.facts["encryption"] == "age"


def test_pam_21_1_open_target_gives_the_plaintext_as_the_file_it_was(
    tmp_path: Path, identity: tuple[Path, str, str]
) -> None:
    _, secret, recipient = identity
    sealed = tmp_path / "memory-store.json.age"
    sealed.write_bytes(agefile.encrypt(STORE.read_bytes(), recipients=[recipient], armor=True))
    with open_target(sealed, age_identities=[secret]) as target:
        assert (target.kind, target.encryption) == ("file", "age")
        assert target.entries[0].name == "memory-store.json"
        with target.entries[0].open() as data:
            assert data == STORE.read_bytes()


def test_pam_21_1_open_target_decrypts_an_encrypted_zip(
    tmp_path: Path, identity: tuple[Path, str, str]
) -> None:
    _, secret, recipient = identity
    sealed = tmp_path / "export.zip.age"
    sealed.write_bytes(agefile.encrypt(EXPORT_ZIP.read_bytes(), recipients=[recipient]))
    with open_target(sealed, age_identities=[secret]) as target:
        assert (target.kind, target.encryption) == ("zip", "age")
        with zipfile.ZipFile(EXPORT_ZIP) as original:
            expected = sorted(n.split("/", 1)[1] for n in original.namelist() if "." in n)
        assert sorted(e.name for e in target.entries) == expected
    result = validate_path(sealed, age_identities=[secret])
    assert result.valid and result.kind == "export zip", result.findings
    assert result.facts["encryption"] == "age"


def test_pam_21_1_validate_wrong_passphrase_is_unreadable_not_a_traceback(
    passphrase_file: Path,
) -> None:
    result = validate_path(passphrase_file, age_passphrase="wrong")
    assert result.unreadable and result.exit_code == 2
    assert [(f.code, f.message) for f in result.findings] == [
        ("age-decrypt", "cannot decrypt the age file: wrong passphrase (Decryption failed)")
    ]


def test_pam_21_1_validate_without_passphrase_says_how_to_give_one(
    passphrase_file: Path,
) -> None:
    for given in (None, lambda: None):
        result = validate_path(passphrase_file, age_passphrase=given)
        assert result.unreadable and result.exit_code == 2
        assert result.findings[0].code == "age-encrypted"
        assert "MEMVAULT_AGE_PASSPHRASE" in result.findings[0].message


def test_pam_21_1_truncated_age_file_is_a_clear_error(
    tmp_path: Path, identity: tuple[Path, str, str]
) -> None:
    _, secret, recipient = identity
    sealed = agefile.encrypt(STORE.read_bytes(), recipients=[recipient])
    cut = tmp_path / "cut.age"
    cut.write_bytes(sealed[: len(sealed) // 2])
    with pytest.raises(SourceError) as caught:
        open_target(cut, age_identities=[secret])
    assert caught.value.code == "age-decrypt"


def asking_2_to_the_40(data: bytes) -> bytes:
    """The age file `data` with its scrypt stanza asking for 2^40 work, beyond any machine."""
    header = re.search(rb"-> scrypt (\S+) (\d+)", data)
    assert header is not None
    return data.replace(header.group(0), b"-> scrypt " + header.group(1) + b" 40")


def test_pam_21_1_too_much_scrypt_work_is_refused_for_that_not_as_a_wrong_passphrase() -> None:
    """age accepts an scrypt work factor up to 16 times what takes a second on this machine,
    measured anew at each decryption (a busy machine can measure itself slow: the refusal
    is tried again before it is believed). A file asking for 2^40 is beyond any machine:
    the error says so, and does not blame the passphrase."""
    data = agefile.encrypt(b'{"a": 1}', passphrase="pw")
    greedy = asking_2_to_the_40(data)
    with pytest.raises(agefile.AgeDecryptError) as caught:
        agefile.decrypt(greedy, passphrase="pw")
    message = str(caught.value)
    assert "key derivation (scrypt) asks for more work than this machine accepts" in message
    assert "wrong passphrase" not in message
    assert agefile.decrypt(data, passphrase="pw") == b'{"a": 1}'


def test_pam_21_1_scrypt_refusal_and_wrong_passphrase_are_told_apart_whatever_pyrage_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pyrage raises one exception type for every failure, with an English message. Which
    failure it was (a work factor refused before any key derivation, and tried again; or a
    wrong passphrase, after it) is decided without reading that message: the same decisions
    come out when pyrage words its errors otherwise."""
    import pyrage  # type: ignore[import-untyped]

    real = pyrage.passphrase.decrypt
    calls: list[int] = []

    def reworded(data: bytes, passphrase: str) -> bytes:
        calls.append(1)
        try:
            return bytes(real(data, passphrase))
        except pyrage.DecryptError:
            raise pyrage.DecryptError("Entschlüsselung fehlgeschlagen") from None

    monkeypatch.setattr(pyrage.passphrase, "decrypt", reworded)
    data = agefile.encrypt(b'{"a": 1}', passphrase="pw")
    greedy = asking_2_to_the_40(data)

    with pytest.raises(agefile.AgeDecryptError) as caught:
        agefile.decrypt(greedy, passphrase="pw")
    assert "asks for more work than this machine accepts" in str(caught.value)
    assert "wrong passphrase" not in str(caught.value)
    assert len(calls) == agefile._WORK_ATTEMPTS  # the refusal was tried again

    calls.clear()
    with pytest.raises(agefile.AgeDecryptError) as caught:
        agefile.decrypt(data, passphrase="not it")
    assert "wrong passphrase" in str(caught.value)
    assert len(calls) == 1  # a wrong passphrase is not tried again
    assert agefile.decrypt(data, passphrase="pw") == b'{"a": 1}'
