"""`memvault validate`, `inspect` and `verify` on AIMEM bundles and NDJSON streams (detected by
content, also age-encrypted or inside a zip): exit 0 valid / 1 invalid / 2 unreadable, and
``--json`` with code, path, section and the HTTP status the profile names (§3.2). Export,
import and convert are `test_aimem_cli.py`'s."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from aimemkit import to_ndjson
from clikit import mv
from memvault.crypto import agefile
from memvault.crypto.keys import SigningKey
from memvault.formats.aimem.cose import cose_key, sign_bundle, signature_path

CORPUS = Path(__file__).parent / "aimem_corpus"
VALID = CORPUS / "valid" / "full.aimem.json"


@pytest.mark.parametrize("form", ["json", "ndjson"])
def test_aimem_4_cli_validate_valid_bundle(tmp_path: Path, form: str) -> None:
    """§4 Level 2: a conforming bundle validates, in either form, exit 0."""
    path = VALID if form == "json" else to_ndjson(VALID, tmp_path / "full.ndjson")
    run = mv("validate", path)
    assert run.exit_code == 0, run.stdout
    assert "✓ valid" in run.stdout and f"{form} form, 3 chunks" in run.stdout
    data = json.loads(mv("validate", "--json", path).stdout)
    assert data[0]["kind"] == "aimem-bundle" and data[0]["valid"] and data[0]["status"] == 200


def test_aimem_2_8_cli_validate_checksum_mismatch_is_409() -> None:
    """§2.8 / §3.2: a checksum mismatch is the only finding, status 409, exit 1."""
    run = mv("validate", "--json", CORPUS / "invalid" / "checksum-mismatch.aimem.json")
    assert run.exit_code == 1
    (result,) = json.loads(run.stdout)
    assert result["status"] == 409
    (finding,) = result["findings"]
    assert finding["code"] == "checksum-mismatch"
    assert finding["status"] == 409 and finding["section"] == "§2.8"
    assert finding["path"] == "/checksum"


def test_aimem_3_2_cli_validate_reports_path_section_status() -> None:
    """§2.3 / §3.2: a malformed bundle is 422, the finding names the record and the rule."""
    path = CORPUS / "invalid" / "chunk-id-local-colon.aimem.json"
    run = mv("validate", path)
    assert run.exit_code == 1
    assert "chunk-id-invalid /chunks/2/id" in run.stdout and "§2.3" in run.stdout
    (result,) = json.loads(mv("validate", "--json", path).stdout)
    (finding,) = result["findings"]
    assert (finding["code"], finding["path"], finding["section"], finding["status"]) == (
        "chunk-id-invalid",
        "/chunks/2/id",
        "§2.3",
        422,
    )


def test_aimem_7_cli_validate_v2_is_refused() -> None:
    """§7: a version "2" bundle is refused with a message saying why."""
    run = mv("validate", CORPUS / "invalid" / "version-2.aimem.json")
    assert run.exit_code == 1
    assert "version-unsupported" in run.stdout and "major version" in run.stdout


def test_aimem_cli_validate_mixed_targets_exit_with_worst(tmp_path: Path) -> None:
    broken = tmp_path / "broken.aimem.json"
    broken.write_bytes((CORPUS / "invalid" / "truncated.aimem.json").read_bytes())
    run = mv("validate", VALID, CORPUS / "invalid" / "zone-unknown.aimem.json")
    assert run.exit_code == 1 and "1 of 2 valid" in run.stdout
    # a truncated bundle starts like one, so it is read as AIMEM and reported as such
    run = mv("validate", "--json", broken)
    assert run.exit_code == 1
    assert json.loads(run.stdout)[0]["findings"][0]["code"] == "json-truncated"


@pytest.mark.parametrize("form", ["json", "ndjson"])
def test_aimem_cli_inspect(tmp_path: Path, form: str) -> None:
    path = CORPUS / "valid" / "embeddings.aimem.json"
    if form == "ndjson":
        path = to_ndjson(path, tmp_path / "e.ndjson")
    run = mv("inspect", path)
    assert run.exit_code == 0
    assert f"{form} form" in run.stdout
    assert "Chunks: 3  Edges: 1  Entities: 1  Chunk-entity links: 1" in run.stdout
    assert "bge-small-en-v1.5 (4d)" in run.stdout
    data = json.loads(mv("inspect", "--json", path).stdout)
    assert data["producer"] == "memvault-corpus" and data["counts"]["chunks"] == 3


def test_aimem_cli_inspect_legacy_name() -> None:
    run = mv("inspect", CORPUS / "valid" / "legacy-format-name.aimem.json")
    assert run.exit_code == 0 and "legacy name" in run.stdout


@pytest.mark.parametrize("algorithm", ["Ed25519", "ES256"])
def test_aimem_5_3_cli_verify_signed_bundle(tmp_path: Path, algorithm: str) -> None:
    """§5.3: `memvault verify` checks <bundle-name>.sig; exit 0 verified, 1 otherwise."""
    bundle = tmp_path / "full.aimem.json"
    shutil.copy(VALID, bundle)
    run = mv("verify", bundle)
    assert run.exit_code == 1 and "no signature file" in run.stdout
    key = SigningKey.new(algorithm)
    sign_bundle(bundle, key)
    run = mv("verify", bundle)
    assert run.exit_code == 0 and "✓ verified" in run.stdout
    key_file = tmp_path / "signer.cose"
    key_file.write_bytes(cose_key(key))
    data = json.loads(mv("verify", "--json", "--public-key", key_file, bundle).stdout)
    assert data["verified"] and data["algorithm"] == algorithm and data["section"] == "§5.3"
    other = SigningKey.new(algorithm)
    run = mv("verify", "--public-key", other.encoded_public_key, bundle)
    assert run.exit_code == 1 and "not verified" in run.stdout
    signature_path(bundle).write_bytes(b"garbage")
    assert mv("verify", bundle).exit_code == 1


def age_copy(source: Path, target: Path, passphrase: str = "correct horse") -> Path:
    target.write_bytes(agefile.encrypt(source.read_bytes(), passphrase=passphrase))
    return target


def zip_of(target: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return target


def test_aimem_cli_validate_and_inspect_an_age_encrypted_bundle(tmp_path: Path) -> None:
    """An age-encrypted bundle is decrypted in memory and read as AIMEM, like an age PAM file;
    without its passphrase it is unreadable with a message that says so."""
    sealed = age_copy(VALID, tmp_path / "full.aimem.json.age")
    secret = tmp_path / "pass.txt"
    secret.write_text("correct horse\n")
    data = json.loads(mv("validate", "--json", "--age-passphrase-file", secret, sealed).stdout)
    assert (data[0]["valid"], data[0]["facts"]["encryption"]) == (True, "age")
    run = mv("inspect", "--age-passphrase-file", secret, sealed)
    assert run.exit_code == 0, run.stdout
    assert "aimem-bundle, valid" in run.stdout and "Chunks: 3" in run.stdout
    run = mv("validate", sealed)
    assert run.exit_code == 2 and "passphrase" in run.stdout
    # Named like a PAM file: read as PAM first (one decryption for PAM files), then as AIMEM.
    misnamed = age_copy(VALID, tmp_path / "backup.json.age")
    data = json.loads(mv("validate", "--json", "--age-passphrase-file", secret, misnamed).stdout)
    assert (data[0]["valid"], data[0]["facts"]["counts"]["chunks"]) == (True, 3)
    tampered = tmp_path / "bad.aimem.json.age"
    age_copy(CORPUS / "invalid" / "checksum-mismatch.aimem.json", tampered)
    data = json.loads(mv("validate", "--json", "--age-passphrase-file", secret, tampered).stdout)
    assert [(f["code"], f["status"]) for f in data[0]["findings"]] == [("checksum-mismatch", 409)]


def test_aimem_cli_validate_a_bundle_in_a_zip(tmp_path: Path) -> None:
    """A zip holding one bundle (and no PAM memory-store) is read as that bundle, named
    `zip:member`; one holding two is refused with both names (exit 2)."""
    one = zip_of(tmp_path / "one.zip", {"brain/full.aimem.json": VALID.read_bytes()})
    run = mv("validate", one)
    assert run.exit_code == 0, run.stdout
    assert "one.zip:brain/full.aimem.json" in run.stdout and "3 chunks" in run.stdout
    stream = to_ndjson(VALID, tmp_path / "full.ndjson").read_bytes()
    two = zip_of(tmp_path / "two.zip", {"a.aimem.json": VALID.read_bytes(), "b.jsonl": stream})
    run = mv("validate", two)
    assert run.exit_code == 2
    assert "zip-several-bundles" in run.stdout and "a.aimem.json, b.jsonl" in run.stdout
    bad = (CORPUS / "invalid" / "zone-unknown.aimem.json").read_bytes()
    run = mv("validate", zip_of(tmp_path / "bad.zip", {"x.json": bad}))
    assert run.exit_code == 1 and "zone-invalid" in run.stdout
    pam = zip_of(tmp_path / "pam.zip", {"notes.json": b"{}"})
    assert "no memory-store.json" in mv("validate", pam).stdout  # not a bundle: PAM's message
