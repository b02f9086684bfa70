"""What the AIMEM import keeps per memory — the digest of the chunk a memory came from (AIMEM
§2.9) and the chunks merged into it (PAM §6) — lives in store tables deleted with the memory
(AIMEM §5.2), and a vault that kept it as meta keys (schema 2, memvault 0.1.0) keeps it through
migration 3."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import sqlcipher3  # type: ignore[import-untyped]

from aimemkit import bundle, chunk, write
from memvault.exchange import import_bundle
from memvault.store.migrations import LATEST
from memvault.vault import Vault
from vaultkit import make_vault

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIXTURE_PASSPHRASE = "fixture-vault-0.1.0"


def test_aimem_5_2_deleting_a_memory_deletes_its_chunk_digest_and_aliases(tmp_path: Path) -> None:
    """AIMEM §5.2: the store itself deletes a memory's AIMEM state with the memory — whoever
    deletes it — its digest, its own alias and the aliases of chunks merged into it."""
    same = "Allergic to penicillin."
    doc = bundle([chunk("c1", same), chunk("c2", same), chunk("c3", "Likes tea.")])
    first, merged, other = (f"urn:aimem:memoryai-prod:c{n}" for n in (1, 2, 3))
    with make_vault(tmp_path / "vault") as vault:
        result = import_bundle(vault, write(tmp_path / "in.aimem.json", doc))
        assert (result.created, result.reinforced) == (2, 1)
        store = vault.store
        assert set(store.chunk_digests([first, merged, other])) == {first, other}
        assert store.aliases([merged, first, other]) == {merged: first}
        assert store.delete_memory(first)
        assert set(store.chunk_digests([first, merged, other])) == {other}
        assert store.aliases([merged, first, other]) == {}
        # Nothing kept as meta keys either (where 0.1.0 kept it).
        assert store.meta_keys("aimem.chunk:") == store.meta_keys("aimem.alias:") == []


def test_aimem_2_9_reimporting_a_bundle_uses_the_stored_state(tmp_path: Path) -> None:
    """AIMEM §2.9: the same bundle again is a no-op — the merged chunk is found by its alias,
    the others by their digests — and the vault is unchanged."""
    same = "Allergic to penicillin."
    doc = bundle([chunk("c1", same), chunk("c2", same), chunk("c3", "Likes tea.")])
    path = write(tmp_path / "in.aimem.json", doc)
    with make_vault(tmp_path / "vault") as vault:
        import_bundle(vault, path)
        entries = len(vault.audit_log())
        again = import_bundle(vault, path)
        assert (again.created, again.reinforced, again.updated, again.unchanged) == (0, 0, 0, 3)
        assert not again.changed and len(vault.audit_log()) == entries


def _raw(db: Path) -> sqlcipher3.Connection:
    """The vault's database as memvault 0.1.0 wrote it, before a newer memvault opens it
    (which would migrate it): a plain SQLCipher connection with the vault's parameters."""
    params = json.loads(db.with_name("vault.params.json").read_text())
    conn = sqlcipher3.connect(str(db), isolation_level=None)
    conn.execute(f"PRAGMA key = '{FIXTURE_PASSPHRASE}'")
    conn.execute(f"PRAGMA kdf_iter = {int(params['kdf_iter'])}")
    conn.execute(f"PRAGMA cipher_page_size = {int(params['cipher_page_size'])}")
    conn.execute(f"PRAGMA cipher_hmac_algorithm = {params['cipher_hmac_algorithm']}")
    return conn


def test_a_0_1_0_vaults_aimem_meta_keys_move_to_the_tables_in_migration_3(tmp_path: Path) -> None:
    """A vault of schema 2 (memvault 0.1.0) kept per-memory AIMEM state as meta keys; opened
    by this memvault it is migrated: the keys of memories it holds become rows (deleted with
    the memory from then on, AIMEM §5.2), keys about memories it no longer holds are dropped,
    and no key is left behind."""
    home = tmp_path / "vault"
    shutil.copytree(FIXTURES / "vault-0.1.0", home)
    conn = _raw(home / "vault.db")
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
        keep, other = (r[0] for r in conn.execute("SELECT id FROM memories ORDER BY id LIMIT 2"))
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [
                ("aimem.chunk:" + keep, "a" * 64),
                ("aimem.chunk:" + other, "b" * 64),
                ("aimem.chunk:urn:aimem:gone:1", "c" * 64),
                ("aimem.alias:urn:aimem:merged:1", keep),
                ("aimem.alias:urn:aimem:merged:2", "urn:aimem:gone:1"),
                ("aimem.producer", "memvault-fixture"),
            ],
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    with Vault.open(home, FIXTURE_PASSPHRASE) as vault:
        store = vault.store
        assert store.schema_version == LATEST >= 3
        assert (3, "aimem_state") in [(v, n) for v, n, _ in store.migrations()]
        gone = ["urn:aimem:gone:1"]
        assert store.chunk_digests([keep, other, *gone]) == {keep: "a" * 64, other: "b" * 64}
        merged = ["urn:aimem:merged:1", "urn:aimem:merged:2"]
        assert store.aliases(merged) == {"urn:aimem:merged:1": keep}
        assert store.meta_keys("aimem.") == ["aimem.producer"]
        assert vault.exchange_meta("aimem.producer") == "memvault-fixture"
        # From now on the state goes with its memory.
        vault.erase(keep)
        assert store.chunk_digests([keep, other]) == {other: "b" * 64}
        assert store.aliases(merged) == {}
        assert vault.verify_audit().ok
