"""An age-encrypted AIMEM bundle (PAM §21.1 encryption at rest) that cannot be decrypted — a
wrong passphrase, none given, or encrypted to another identity — is refused as what it is: the
error names the file and says it could not be decrypted and why, never that the ciphertext
"is not an object" (AIMEM §2); the exit code and HTTP status are those of docs/errors.md, and
the vault is left as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from clikit import home as home
from clikit import mv, ok, snapshot
from memvault.crypto import agefile
from memvault.exchange import BundleRefused, import_bundle
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from serverkit import app_for, running, server_home
from vaultkit import make_vault

CORPUS = Path(__file__).parent / "aimem_corpus"
BUNDLE = (CORPUS / "valid" / "full.aimem.json").read_bytes()
RIGHT = "the right passphrase"


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | str]:
    """The same bundle sealed to a passphrase and to a recipient, under a bundle's name and
    under a name that does not say "bundle"; an identity the recipient file is not for."""
    folder = tmp_path_factory.mktemp("sealed")
    _, recipient = agefile.generate_identity()
    other, _ = agefile.generate_identity()
    by_passphrase = agefile.encrypt(BUNDLE, passphrase=RIGHT)
    to_recipient = agefile.encrypt(BUNDLE, recipients=[recipient])
    files: dict[str, Path | str] = {"other_identity": other}
    for name, data in (
        ("brain.aimem.json.age", by_passphrase),
        ("brain.aimem.age", by_passphrase),
        ("sent.aimem.json.age", to_recipient),
    ):
        (folder / name).write_bytes(data)
        files[name] = folder / name
    (folder / "other.key").write_text(other + "\n")
    files["other.key"] = folder / "other.key"
    return files


def count(vault: Vault) -> int:
    return sum(1 for _ in vault.iter_memories(MemoryQuery(limit=None)))


def test_aimem_import_bundle_names_a_file_it_cannot_decrypt_and_why_pam_21_1(
    tmp_path: Path, sealed: dict[str, Path | str]
) -> None:
    vault = make_vault(tmp_path / "vault")
    try:
        before = (count(vault), len(vault.audit_entries()))
        cases = [
            (
                "brain.aimem.json.age",
                {"age_passphrase": "wrong"},
                "age-decrypt",
                "wrong passphrase",
            ),
            ("brain.aimem.age", {"age_passphrase": "wrong"}, "age-decrypt", "wrong passphrase"),
            ("brain.aimem.age", {}, "age-encrypted", "give the passphrase"),
            (
                "sent.aimem.json.age",
                {"age_identities": [str(sealed["other_identity"])]},
                "age-decrypt",
                "with the given identities",
            ),
            ("sent.aimem.json.age", {}, "age-encrypted", "give an identity"),
        ]
        for name, secrets, code, why in cases:
            path = sealed[name]
            with pytest.raises(BundleRefused) as caught:
                import_bundle(vault, path, **secrets)  # type: ignore[arg-type]
            refused = caught.value
            assert [p.code for p in refused.problems] == [code], (name, refused.problems)
            assert refused.status == refused.http_status == 422
            message = refused.problems[0].message
            assert str(path) in message and why in message, message
            assert refused.problems[0].file == str(path)
            assert "not an object" not in str(refused)
        assert (count(vault), len(vault.audit_entries())) == before
        imported = import_bundle(vault, sealed["brain.aimem.age"], age_passphrase=RIGHT)
        assert imported.created > 0
    finally:
        vault.close()


def test_cli_import_and_validate_name_an_undecryptable_bundle_exit_1_and_2(
    home: Path, sealed: dict[str, Path | str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ok("init")
    before = snapshot()
    monkeypatch.setenv(agefile.AGE_PASSPHRASE_ENV, "wrong")
    for name in ("brain.aimem.json.age", "brain.aimem.age"):
        run = mv("import", sealed[name])
        assert run.exit_code == 1, run
        assert f"cannot decrypt {sealed[name]}: wrong passphrase" in run.stderr, run.stderr
        assert "not an object" not in run.stderr and "Traceback" not in run.stderr
    run = mv("import", sealed["sent.aimem.json.age"], "--age-identity", sealed["other.key"])
    assert run.exit_code == 1, run
    assert f"cannot decrypt {sealed['sent.aimem.json.age']} with the given identities" in (
        run.stderr
    )
    run = mv("validate", sealed["brain.aimem.json.age"])
    assert run.exit_code == 2, run
    output = run.stdout + run.stderr
    assert "age-decrypt" in output and "wrong passphrase" in output, output
    assert str(sealed["brain.aimem.json.age"]) in output
    assert "not-an-object" not in output
    assert snapshot() == before


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, Vault]]:
    with server_home(tmp_path / "server", ("alice",)) as made, running(app_for(made)) as url:
        yield url, made.key("alice"), made.vault("alice")


def test_aimem_3_2_an_age_encrypted_request_body_is_refused_as_such_422(
    server: tuple[str, str, Vault], sealed: dict[str, Path | str]
) -> None:
    """Through a real server: the HTTP profile carries no passphrase, so an age file posted
    as the body is refused for being encrypted (422 problem+json), nothing imported."""
    url, key, vault = server
    before = count(vault)
    body = Path(sealed["brain.aimem.json.age"]).read_bytes()
    response = httpx.post(
        f"{url}/v1/brain/import",
        content=body,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert [e["rule"] for e in problem["errors"]] == ["age-encrypted"], problem
    assert "age-encrypted file" in problem["errors"][0]["detail"]
    assert "not an object" not in response.text
    assert count(vault) == before
