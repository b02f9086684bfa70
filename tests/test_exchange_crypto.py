"""`memvault export --sign / --encrypt / --recipient` and `memvault import` of signed and
age-encrypted exports, as a user runs them (PAM §18.3-§18.5, §21.1). Debian's `age` binary
decrypts what the export writes (driven as in tests/test_agefile.py)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from clikit import home, ids, mv, ok, refused, sample_vault, snapshot  # noqa: F401 - fixtures
from memvault.canonical import content_hash, integrity_checksum
from memvault.crypto import agefile
from test_agefile import age_with_passphrase, identity, run_age  # noqa: F401 - fixture

AGE_SECRET = "a long age passphrase for the export"
EXPORTED = 19  # the twenty samples but the one marked --not-exportable


@pytest.fixture
def signed_vault(ids: dict[str, str]) -> dict[str, str]:  # noqa: F811 - the clikit fixture
    """The sample vault in $MEMVAULT_HOME with one Ed25519 key."""
    ok("keys", "generate")
    return ids


@pytest.fixture
def age_secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "age-pass.txt"
    path.write_text(AGE_SECRET + "\n")
    return path


def empty_vault(tmp_path: Path) -> Path:
    other = tmp_path / "other-vault"
    ok("init", "--home", other)
    return other


def listed(vault_home: Path) -> dict[str, Any]:
    found: dict[str, Any] = ok(
        "list", "--home", vault_home, "--status", "all", "--limit", "0", "--json"
    ).json()
    return found


# -- §18.3 export --sign ----------------------------------------------------------------------


def test_pam_18_3_export_sign_verifies_and_validates_clean(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "signed.zip"
    ok("export", "--sign", "-o", out)
    ok("verify", out)
    assert ok("validate", out).exit_code == 0
    with zipfile.ZipFile(out) as archive:
        store = json.loads(archive.read("memory-store.json"))
    keys = ok("keys", "list", "--json").json()
    assert store["signature"]["key_id"] == keys[0]["key_id"]


def test_pam_18_3_export_sign_with_a_chosen_key(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    ok("keys", "generate", "--algorithm", "ES256")
    out = tmp_path / "signed.json"
    ok("export", "--sign", "--key", "ES256", "-o", out)
    assert json.loads(out.read_text())["signature"]["algorithm"] == "ES256"
    ok("verify", out)


def test_pam_18_export_sign_chooses_its_key_as_sign_does(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    """With several keys and none the owner's DID key, `export --sign` asks for --key as
    `memvault sign` does (one rule, `Vault.signing_key`), instead of taking the newest."""
    ok("keys", "generate", "--algorithm", "ES256")
    out = tmp_path / "signed.json"
    assert "choose one with --key" in refused("export", "--sign", "-o", out, code=2)
    assert not out.exists()


def test_pam_18_export_sign_without_a_key_says_to_generate_one(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    out = tmp_path / "signed.zip"
    message = refused("export", "--sign", "-o", out)
    assert "memvault keys generate" in message
    assert not out.exists()


# -- §21.1 export --encrypt / --recipient -----------------------------------------------------


def test_pam_21_1_export_encrypt_passphrase_file_decrypts_with_age_cli(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
    age_secret_file: Path,
) -> None:
    ok("export", "--encrypt-passphrase-file", age_secret_file, "-o", tmp_path / "backup.zip")
    sealed = tmp_path / "backup.zip.age"  # .age added to the name given
    assert sealed.is_file() and not (tmp_path / "backup.zip").exists()
    data = sealed.read_bytes()
    assert agefile.is_age(data[:64]) and agefile.needs_passphrase(data)
    plain = tmp_path / "plain.zip"
    age_with_passphrase(["--decrypt", "-o", plain, sealed], AGE_SECRET, prompts=1)
    assert zipfile.is_zipfile(plain)
    assert ok("validate", plain).exit_code == 0


def test_pam_21_1_export_recipient_decrypts_with_age_identity(
    signed_vault: dict[str, str],
    tmp_path: Path,
    identity: tuple[Path, str, str],  # noqa: F811
) -> None:
    key_file, _, recipient = identity
    sealed = tmp_path / "shared.zip.age"
    ok("export", "--sign", "--recipient", recipient, "-o", sealed)
    plain = tmp_path / "plain.zip"
    done = run_age("--decrypt", "-i", key_file, "-o", plain, sealed)
    assert done.returncode == 0, done.stderr
    ok("verify", plain)
    assert ok("validate", plain).exit_code == 0


def test_pam_21_1_encrypt_and_recipient_together_is_a_usage_error(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
    age_secret_file: Path,
) -> None:
    _, recipient = agefile.generate_identity()
    run = mv(
        "export",
        "--encrypt-passphrase-file",
        age_secret_file,
        "--recipient",
        recipient,
        "-o",
        tmp_path / "x.zip",
    )
    assert run.exit_code == 2
    assert not list(tmp_path.glob("x.zip*"))


# -- §21.1 import of age files ----------------------------------------------------------------


def test_pam_21_1_import_recipient_age_file_into_an_empty_vault(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
    identity: tuple[Path, str, str],  # noqa: F811
) -> None:
    key_file, _, recipient = identity
    sealed = tmp_path / "shared.age"
    ok("export", "--recipient", recipient, "-o", sealed)
    other = empty_vault(tmp_path)
    result = ok("import", sealed, "--age-identity", key_file, "--home", other, "--json").json()
    assert result["created"] == EXPORTED
    assert listed(other)["total"] == EXPORTED


def test_pam_21_1_import_passphrase_age_file(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
    age_secret_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sealed = tmp_path / "backup.json.age"
    ok("export", "--encrypt-passphrase-file", age_secret_file, "-o", sealed)
    other = empty_vault(tmp_path)
    monkeypatch.setenv(agefile.AGE_PASSPHRASE_ENV, AGE_SECRET)
    result = ok("import", sealed, "--home", other, "--json").json()
    assert result["created"] == EXPORTED


def test_pam_21_1_import_with_a_wrong_passphrase_changes_nothing(
    ids: dict[str, str],  # noqa: F811
    tmp_path: Path,
    age_secret_file: Path,
) -> None:
    sealed = tmp_path / "backup.zip.age"
    ok("export", "--encrypt-passphrase-file", age_secret_file, "-o", sealed)
    other = empty_vault(tmp_path)
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not the passphrase\n")
    before = listed(other)
    message = refused("import", sealed, "--age-passphrase-file", wrong, "--home", other)
    assert "wrong passphrase" in message and "nothing was imported" in message
    assert listed(other) == before and before["total"] == 0
    # the exporting vault is untouched as well by a refused import into itself
    state = snapshot()
    refused("import", sealed, "--age-passphrase-file", wrong)
    assert snapshot() == state


# -- §18.5 import verifies signatures ---------------------------------------------------------


def _tampered_signed_export(tmp_path: Path) -> Path:
    """A signed export edited afterwards, with content hash and checksum resealed: only the
    signature can tell."""
    out = tmp_path / "signed.json"
    ok("export", "--sign", "-o", out)
    store = json.loads(out.read_text())
    memory = store["memories"][0]
    memory["content"] = memory["content"] + " (edited after signing)"
    memory["content_hash"] = content_hash(memory["content"])
    store["integrity"]["checksum"] = integrity_checksum(store["memories"])
    out.write_text(json.dumps(store))
    return out


def test_pam_18_5_tampered_signed_export_is_refused_vault_unchanged(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    out = _tampered_signed_export(tmp_path)
    # only the signature is broken: validate warns (§21.4; --strict fails), verify fails
    checked = mv("validate", out)
    assert checked.exit_code == 0 and "signature-invalid" in checked.stdout
    assert mv("validate", "--strict", out).exit_code == 1
    assert mv("verify", out).exit_code == 1
    other = empty_vault(tmp_path)
    before = listed(other)
    message = refused("import", out, "--home", other)
    assert "signature does not verify" in message and "nothing was changed" in message
    assert "--allow-unverified" in message and "§18.4" in message
    assert listed(other) == before and before["total"] == 0
    # into the vault that signed it: unchanged as well (audit log included)
    state = snapshot()
    refused("import", out)
    assert snapshot() == state


def test_pam_18_5_allow_unverified_imports_with_a_loud_warning(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    out = _tampered_signed_export(tmp_path)
    other = empty_vault(tmp_path)
    run = ok("import", out, "--home", other, "--allow-unverified")
    assert "WARNING: SIGNATURE NOT VERIFIED" in run.stderr
    assert "signature-invalid" in run.stderr
    assert "SIGNATURE NOT VERIFIED" in run.stdout
    assert listed(other)["total"] == EXPORTED


def test_pam_18_5_signed_and_unsigned_exports_import_without_warnings(
    signed_vault: dict[str, str], tmp_path: Path
) -> None:
    signed = tmp_path / "signed.zip"
    unsigned = tmp_path / "unsigned.zip"
    ok("export", "--sign", "-o", signed)
    ok("export", "-o", unsigned)
    for path, name in ((signed, "a"), (unsigned, "b")):
        other = tmp_path / name
        ok("init", "--home", other)
        run = ok("import", path, "--home", other)
        assert "SIGNATURE" not in run.stdout + run.stderr
