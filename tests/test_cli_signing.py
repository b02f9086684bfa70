"""`memvault keys generate|list|export-public`, `sign`, `verify`, and age input to `validate`,
as a user runs them (PAM §17, §18, §21.1)."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from clikit import home, mv, ok, refused  # noqa: F401 - `home` is a fixture
from memvault.crypto import agefile
from memvault.crypto.keys import ALGORITHMS
from memvault.vault import Vault
from pamdocs import EXAMPLES, OFFICIAL_EXAMPLES, lone_store, write
from vaultkit import PASSPHRASE

STORE = EXAMPLES / "memory-store.json"
OFFICIAL_STORE = OFFICIAL_EXAMPLES / "example-memory-store.json"


@pytest.fixture
def vault(home: Path) -> Path:  # noqa: F811 - the clikit fixture
    """A vault with one Ed25519 key."""
    ok("init")
    ok("keys", "generate")
    return home


def copy_store(tmp_path: Path, name: str = "memory-store.json") -> Path:
    """A copy of the sample store in a directory of its own (the vault is in tmp_path)."""
    target = tmp_path / "work" / name
    target.parent.mkdir(exist_ok=True)
    shutil.copyfile(STORE, target)
    return target


def keys_json() -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = ok("keys", "list", "--json").json()
    return listed


# ---------------------------------------------------------------------------------------------
# keys
# ---------------------------------------------------------------------------------------------


def test_pam_18_2_keys_generate_every_algorithm_and_list(home: Path) -> None:  # noqa: F811
    ok("init")
    for algorithm in ALGORITHMS:
        generated = ok("keys", "generate", "--algorithm", algorithm, "--json").json()
        assert generated["algorithm"] == algorithm
    listed = keys_json()
    assert sorted(k["algorithm"] for k in listed) == sorted(ALGORITHMS)
    for entry in listed:
        if entry["algorithm"] in ("Ed25519", "ES256", "ES384"):
            assert entry["did"].startswith("did:key:z")
            assert entry["key_id"] == f"{entry['did']}#{entry['did'][len('did:key:') :]}"
        else:
            assert entry["did"] is None
            assert entry["key_id"].startswith("urn:ietf:params:oauth:jwk-thumbprint:sha-256:")
    table = ok("keys", "list").stdout
    for entry in listed:
        assert entry["key_id"] in table and entry["algorithm"] in table
    assert "did:key:z6Mk" in table  # printed as text (Rich would make ":key:" an emoji)


def test_pam_18_2_keys_generate_refuses_small_rsa_and_unknown_algorithms(
    home: Path,  # noqa: F811
) -> None:
    ok("init")
    assert "PAM §18.2" in refused("keys", "generate", "-a", "RS384", "--rsa-bits", "2048", code=2)
    assert "PAM §18.2" in refused("keys", "generate", "-a", "HS256", code=2)
    assert keys_json() == []


def test_pam_21_1_private_keys_live_only_inside_the_encrypted_vault(vault: Path) -> None:
    with Vault.open(vault, PASSPHRASE) as opened:
        (record,) = opened.store.list_keys()
    assert record.private_key is not None
    files = [p for p in vault.rglob("*") if p.is_file()]
    for path in files:
        data = path.read_bytes()
        assert record.private_key not in data and b"PRIVATE KEY" not in data, path
        assert record.private_key[-32:] not in data, path  # the raw Ed25519 seed
    database = max(files, key=lambda p: p.stat().st_size)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_keys_export_public_writes_only_the_public_key(vault: Path, tmp_path: Path) -> None:
    out = tmp_path / "key.pem"
    ok("keys", "export-public", "Ed25519", "-o", out)
    text = out.read_text()
    assert text.startswith("-----BEGIN PUBLIC KEY-----") and "PRIVATE" not in text
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    (entry,) = keys_json()
    assert (
        ok("keys", "export-public", "z6Mk", "--format", "block").stdout.strip()
        == (entry["public_key"])
    )
    jwk = json.loads(ok("keys", "export-public", "z6Mk", "--format", "jwk").stdout)
    assert jwk["kty"] == "OKP" and "d" not in jwk


# ---------------------------------------------------------------------------------------------
# sign and verify
# ---------------------------------------------------------------------------------------------


def test_pam_18_sign_then_verify_a_file(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    path.chmod(0o640)
    ok("sign", path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # replaced atomically, mode kept
    assert [p.name for p in path.parent.iterdir()] == ["memory-store.json"]  # no temp left
    signature = json.loads(path.read_text())["signature"]
    (entry,) = keys_json()
    assert signature["key_id"] == entry["key_id"] and signature["algorithm"] == "Ed25519"
    run = ok("verify", path)
    assert "✓ verified" in run.stdout and entry["key_id"] in run.stdout
    assert ok("verify", "--json", path).json()["verified"] is True
    assert ok("validate", path).exit_code == 0


def test_pam_18_sign_to_another_file_leaves_the_original(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    out = path.with_name("signed.json")
    ok("sign", path, "-o", out)
    assert path.read_bytes() == STORE.read_bytes()
    ok("verify", out)
    refused("verify", path)  # unsigned


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_pam_18_2_sign_with_each_algorithm(
    home: Path,  # noqa: F811
    tmp_path: Path,
    algorithm: str,
) -> None:
    ok("init")
    ok("keys", "generate", "-a", algorithm)
    path = copy_store(tmp_path)
    ok("sign", path, "--key", algorithm)
    result = ok("verify", "--json", path).json()
    assert result["verified"] and result["algorithm"] == algorithm


def test_pam_2_sign_an_export_directory_and_a_zip(vault: Path, tmp_path: Path) -> None:
    directory = tmp_path / "export"
    shutil.copytree(EXAMPLES / "export", directory)
    ok("sign", directory)
    ok("verify", directory)
    assert ok("validate", directory).exit_code == 0
    archive = tmp_path / "export.zip"
    signed = tmp_path / "signed.zip"
    shutil.copyfile(EXAMPLES / "export.zip", archive)
    ok("sign", archive, "-o", signed)
    assert archive.read_bytes() == (EXAMPLES / "export.zip").read_bytes()
    ok("verify", signed)
    assert ok("validate", signed).exit_code == 0
    ok("sign", archive)  # in place
    ok("verify", archive)


def test_pam_18_4_verify_a_tampered_file_names_the_reason(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    ok("sign", path)
    doc = json.loads(path.read_text())
    doc["export_date"] = "2025-11-03T08:00:01Z"
    write(path.parent, doc)
    run = mv("verify", path)
    assert run.exit_code == 1
    assert "✗ not verified" in run.stdout and "does not verify" in run.stdout
    assert "PAM §18.4" in run.stdout
    validated = mv("validate", path)  # §21.4: a warning there, an error with --strict
    assert validated.exit_code == 0 and "warning signature-invalid" in validated.stdout
    assert mv("validate", "--strict", path).exit_code == 1


def test_pam_18_4_official_example_does_not_verify() -> None:
    run = mv("verify", OFFICIAL_STORE)
    assert run.exit_code == 1 and "does not verify" in run.stdout


def test_pam_18_5_verify_unsigned_exits_1_and_says_so(tmp_path: Path) -> None:
    run = mv("verify", STORE)
    assert run.exit_code == 1 and "not signed" in run.stdout
    assert ok("validate", STORE).exit_code == 0  # but validate does not reject it (§18.5)


def test_verify_unreadable_exits_2(tmp_path: Path) -> None:
    assert "no such file" in refused("verify", tmp_path / "missing.json", code=2)
    conversation = OFFICIAL_EXAMPLES / "example-conversation.json"
    assert "not a PAM memory-store" in refused("verify", conversation, code=2)
    (tmp_path / "junk.json").write_text("{")
    refused("verify", tmp_path / "junk.json", code=2)


def test_verify_of_a_json_object_that_is_no_pam_document_says_what_it_lacks(
    tmp_path: Path,
) -> None:
    """A JSON object without a "schema" member is named as such — not "its schema is None"
    (a Python word); a document of another PAM kind is named by its schema."""
    (tmp_path / "wrong.json").write_text('{"foo": 1}')
    message = refused("verify", tmp_path / "wrong.json", code=2)
    assert "None" not in message and 'no "schema" member' in message, message
    conversation = OFFICIAL_EXAMPLES / "example-conversation.json"
    assert "'portable-ai-memory-conversation'" in refused("verify", conversation, code=2)


def test_pam_18_3_sign_refuses_a_file_whose_checksum_does_not_match(
    vault: Path, tmp_path: Path
) -> None:
    doc = lone_store()
    doc["memories"][0]["content_hash"] = doc["memories"][1]["content_hash"]
    path = write(tmp_path, doc)
    before = path.read_bytes()
    message = refused("sign", path)
    assert "does not match the memories" in message and "PAM §15.2" in message
    assert path.read_bytes() == before


def test_pam_18_3_sign_refuses_without_export_id(vault: Path, tmp_path: Path) -> None:
    doc = lone_store()
    doc["export_id"] = None
    path = write(tmp_path, doc)
    message = refused("sign", path)
    assert message.startswith("error: export_id") and "PAM §18.3" in message


def test_pam_17_2_sign_refuses_when_the_owner_did_is_another_key(
    vault: Path, tmp_path: Path
) -> None:
    doc = lone_store()
    doc["owner"]["did"] = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"
    path = write(tmp_path, doc)
    assert "does not belong to the owner" in refused("sign", path)


def test_sign_chooses_a_key(home: Path, tmp_path: Path) -> None:  # noqa: F811
    path = copy_store(tmp_path)
    ok("init")
    assert "no signing keys" in refused("sign", path)
    ok("keys", "generate")
    ok("keys", "generate", "-a", "ES256")
    assert "choose one with --key" in refused("sign", path, code=2)
    assert "no key in the vault matches" in refused("sign", path, "--key", "nothing-like-it")
    ok("sign", path, "--key", "zDn")
    assert ok("verify", "--json", path).json()["algorithm"] == "ES256"


def test_pam_18_5_sign_at_a_given_time(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    assert "PAM §18.5" in refused("sign", path, "--signed-at", "2025-11-03T07:00:00Z")
    ok("sign", path, "--signed-at", "2025-11-03T08:00:00Z")
    assert json.loads(path.read_text())["signature"]["signed_at"] == "2025-11-03T08:00:00Z"


def test_pam_18_4_verify_with_an_expected_public_key(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    ok("sign", path)
    pem = tmp_path / "key.pem"
    ok("keys", "export-public", "z6Mk", "-o", pem)
    ok("verify", path, "--public-key", pem)
    ok("keys", "generate", "-a", "ES256")
    other = ok("keys", "export-public", "zDn", "--format", "block").stdout.strip()
    run = mv("verify", path, "--public-key", other)
    assert run.exit_code == 1 and "different key than expected" in run.stdout
    assert "--public-key" in refused("verify", path, "--public-key", "not a key", code=2)


# ---------------------------------------------------------------------------------------------
# age input (§21.1)
# ---------------------------------------------------------------------------------------------


def test_pam_21_1_verify_and_validate_an_age_encrypted_export(vault: Path, tmp_path: Path) -> None:
    archive = tmp_path / "export.zip"
    shutil.copyfile(EXAMPLES / "export.zip", archive)
    ok("sign", archive)
    secret, recipient = agefile.generate_identity()
    key_file = tmp_path / "key.txt"
    key_file.write_text(f"# created: now\n# public key: {recipient}\n{secret}\n")
    sealed = agefile.write_encrypted(
        tmp_path / "export.zip.age", archive.read_bytes(), recipients=[recipient]
    )
    assert "give an identity" in mv("validate", sealed).stdout
    ok("verify", "--age-identity", key_file, sealed)
    ok("validate", "--age-identity", key_file, sealed)
    assert "age-encrypted" in refused("sign", sealed, code=2)


def test_pam_21_1_validate_age_passphrase_from_file_env_and_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sealed = agefile.write_encrypted(
        tmp_path / "store.json.age", STORE.read_bytes(), passphrase="open sesame"
    )
    monkeypatch.delenv(agefile.AGE_PASSPHRASE_ENV, raising=False)
    missing = mv("validate", sealed)  # no terminal in the test: never a hanging prompt
    assert missing.exit_code == 2 and "MEMVAULT_AGE_PASSPHRASE" in missing.stdout
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("not it\n")
    run = mv("validate", "--age-passphrase-file", wrong, sealed)
    assert run.exit_code == 2 and "wrong passphrase" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    monkeypatch.setenv(agefile.AGE_PASSPHRASE_ENV, "open sesame")
    assert ok("validate", sealed).exit_code == 0


def test_sign_to_an_unwritable_place_is_a_clear_error(vault: Path, tmp_path: Path) -> None:
    path = copy_store(tmp_path)
    (tmp_path / "a-directory").mkdir()
    message = refused("sign", path, "-o", tmp_path / "a-directory")
    assert message.startswith("error: cannot write")
    assert path.read_bytes() == STORE.read_bytes()


# -- §17: the owner's did:key derived from the signing key ----------------------------------


@pytest.mark.parametrize("algorithm", ["Ed25519", "ES256", "ES384"])
def test_pam_17_2_keys_generate_owner_did_signs_exports_that_verify(
    home: Path,  # noqa: F811
    tmp_path: Path,
    algorithm: str,
) -> None:
    """A vault whose owner DID is its signing key's did:key writes exports that carry both
    RECOMMENDED members — `owner.did` (§17.2) and `signature` (§18.5) — and verify."""
    ok("init")
    made = ok("keys", "generate", "-a", algorithm, "--owner-did", "--json").json()
    assert made["owner_did"] == made["did"] and made["did"].startswith("did:key:")
    ok("add", "User prefers short answers.", "--type", "preference")
    out = tmp_path / "signed.json"
    ok("export", "--sign", "-o", out)
    store = json.loads(out.read_text())
    assert store["owner"]["did"] == made["did"]
    assert store["signature"]["key_id"].startswith(made["did"] + "#")
    assert ok("verify", "--json", out).json()["verified"] is True
    ok("validate", out)
    audit = ok("audit", "--limit", "0", "--json").json()
    actions = [e["action"] for e in (audit["entries"] if isinstance(audit, dict) else audit)]
    assert "key" in actions and "owner-did" in actions


def test_pam_17_keys_generate_owner_did_refused_for_rsa_vault_unchanged(
    home: Path,  # noqa: F811
) -> None:
    ok("init")
    before = ok("audit", "--limit", "0", "--json").json()
    message = refused("keys", "generate", "-a", "RS256", "--owner-did", code=2)
    assert "has no did:key" in message and "§17" in message
    assert keys_json() == []
    assert ok("audit", "--limit", "0", "--json").json() == before
