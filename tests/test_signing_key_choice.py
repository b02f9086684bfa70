"""Choosing the key to sign with (PAM §18.2, §17): one rule in the library,
`Vault.signing_key(key_id=None)` / `memvault.crypto.keys.choose_signing_key`, used by
`memvault sign`, `keys export` and `export --sign` alike (the CLI had two private helpers
with two different defaults)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from memvault.crypto.keys import SigningKey, choose_signing_key
from memvault.errors import AccessDenied, AmbiguousId, NotFound
from memvault.store.base import KeyRecord
from memvault.vault import Vault
from vaultkit import make_vault


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "home")
    yield v
    v.close()


def _add(vault: Vault, algorithm: str, *, owner_did: bool = False) -> KeyRecord:
    record = SigningKey.new(algorithm).to_record()
    vault.add_key(record, owner_did=owner_did)
    return record


def test_no_key_is_not_found(vault: Vault) -> None:
    with pytest.raises(NotFound, match="no signing keys"):
        vault.signing_key()
    with pytest.raises(NotFound):
        vault.signing_key("Ed25519")


def test_pam_18_2_the_only_key_is_the_default(vault: Vault) -> None:
    only = _add(vault, "Ed25519")
    assert vault.signing_key().key_id == only.key_id


def test_pam_17_the_owner_did_key_is_the_default_among_several(vault: Vault) -> None:
    _add(vault, "ES256")
    mine = _add(vault, "Ed25519", owner_did=True)
    _add(vault, "ES384")
    assert vault.signing_key().key_id == mine.key_id


def test_several_keys_and_none_the_owners_is_ambiguous_never_a_guess(vault: Vault) -> None:
    """`export --sign` used to take the most recent key here; the library names them all."""
    keys = {_add(vault, "Ed25519").key_id, _add(vault, "ES256").key_id}
    with pytest.raises(AmbiguousId) as caught:
        vault.signing_key()
    assert set(caught.value.candidates) == keys


def test_a_named_key_by_id_part_of_its_id_or_algorithm(vault: Vault) -> None:
    ed = _add(vault, "Ed25519")
    es = _add(vault, "ES256")
    assert vault.signing_key(es.key_id).key_id == es.key_id
    assert vault.signing_key(ed.key_id[:20]).key_id == ed.key_id  # did:key:z6Mk… prefix
    assert vault.signing_key("zDn").key_id == es.key_id  # a part of the P-256 did:key
    assert vault.signing_key("ES256").key_id == es.key_id
    with pytest.raises(NotFound, match="no key in the vault matches 'nothing-like-it'"):
        vault.signing_key("nothing-like-it")
    with pytest.raises(AmbiguousId, match="matches 2 keys") as caught:
        vault.signing_key("did:key:z")
    assert set(caught.value.candidates) == {ed.key_id, es.key_id}


def test_an_exact_id_wins_over_a_longer_id_containing_it() -> None:
    ed = SigningKey.new("Ed25519").to_record()
    records = [replace(ed, key_id=ed.key_id + "-other"), ed]
    assert choose_signing_key(records, ed.key_id) is ed


def test_signing_keys_are_the_owners_alone(vault: Vault) -> None:
    """docs/access.md: the private keys are the owner's; an agent is refused."""
    _add(vault, "Ed25519")
    with pytest.raises(AccessDenied):
        vault.acting_as("agent-x").signing_key()
