"""What memvault writes passes its own validator without a warning (issue #15 §7): imported
ids in the UUID v4 layout (PAM §4), a checksum for a folder export (`source_checksum`, PAM
§25), a UUID owner id for `convert` (PAM §3.1) — and a vault made by memvault 0.1.0, whose
imported ids are version 5, still takes the same export again without a duplicate."""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

import pytest

from clikit import home, ok  # noqa: F401  (fixture)
from memvault.importers.ids import legacy_twin, stable_id
from memvault.importers.ingest import file_checksum, folder_checksum
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from providergen import chatgpt, claude, copilot, gemini, grok, write_folder, write_zip

FIXTURES = Path(__file__).resolve().parent / "fixtures"
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def _export(provider: str, root: Path) -> Path:
    root.mkdir()
    if provider == "chatgpt-zip":
        return write_zip(chatgpt.export(), root / "chatgpt.zip")
    if provider == "chatgpt-folder":
        return write_folder(chatgpt.export(), root / "chatgpt")
    if provider == "claude-folder":
        return claude.write(root, "folder")
    if provider == "copilot-folder":
        return write_folder(copilot.export(), root / "copilot")
    if provider == "gemini-zip":
        return write_zip(gemini.export(), root / "gemini.zip")
    return grok.write(root, "folder")


PROVIDERS = (
    "chatgpt-zip",
    "chatgpt-folder",
    "claude-folder",
    "copilot-folder",
    "gemini-zip",
    "grok-folder",
)


def _findings(path: Path) -> list[tuple[str, str]]:
    report = ok("validate", path, "--json").json()
    results = report if isinstance(report, list) else report.get("results", [report])
    return [(f["code"], f["message"]) for r in results for f in r["findings"]]


def test_imported_ids_are_uuid_v4_layout_pam_4() -> None:
    """PAM §4: ids SHOULD be UUID v4. The derived id is the v5 name hash with version 4."""
    made = stable_id("chatgpt", "message", "conv", "node")
    assert UUID4.fullmatch(made)
    assert uuid.UUID(made).version == 4
    twin = legacy_twin(made)
    assert twin is not None and uuid.UUID(twin).version == 5
    key = "\x1f".join(f"{len(p)}:{p}" for p in ("chatgpt", "message", "conv", "node"))
    assert twin == str(uuid.uuid5(uuid.UUID("5b0a7c1e-3f52-5e8a-9c6d-6d656d766175"), key))
    assert legacy_twin("not-an-id") is None and legacy_twin(twin) is None


@pytest.mark.parametrize("provider", PROVIDERS)
def test_what_memvault_writes_validates_without_warnings(
    provider: str,
    home: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Import each generated provider export, export, validate: zero findings; `convert` of
    the same export, validate: zero findings (ids not UUID v4, source_checksum missing and
    owner.id 'local-user' were warned before)."""
    source = _export(provider, tmp_path / "src")
    ok("init")
    ok("import", source)
    ok("export", "-o", tmp_path / "store.json")
    assert _findings(tmp_path / "store.json") == []
    ok("convert", source, "-o", tmp_path / "converted")
    assert _findings(tmp_path / "converted") == []


def test_convert_of_a_pasted_list_validates_without_warnings(tmp_path: Path) -> None:
    ok(
        "convert", "-", "--from", "memory-text", "-o", tmp_path / "pasted",
        input="- Lives in Lisbon\n- Prefers tea over coffee\n",
    )  # fmt: skip
    assert _findings(tmp_path / "pasted") == []


def test_convert_owner_id_default_is_a_uuid_v4_derived_from_the_export_pam_3_1(
    tmp_path: Path,
) -> None:
    source = write_zip(chatgpt.export(), tmp_path / "chatgpt.zip")
    ok("convert", source, "-o", tmp_path / "a")
    ok("convert", source, "-o", tmp_path / "b")
    owners = [
        json.loads((tmp_path / d / "memory-store.json").read_bytes())["owner"]["id"]
        for d in ("a", "b")
    ]
    assert UUID4.fullmatch(owners[0]) and owners[0] == owners[1]
    ok("convert", source, "-o", tmp_path / "c", "--owner-id", "me")
    assert json.loads((tmp_path / "c" / "memory-store.json").read_bytes())["owner"]["id"] == "me"


def test_source_checksum_of_a_folder_import_is_recorded_pam_25(tmp_path: Path) -> None:
    """A folder export gets a checksum: over the files an import reads, by relative name."""
    files = copilot.export()
    one = write_folder(files, tmp_path / "one")
    two = write_folder(files, tmp_path / "elsewhere" / "two")
    (two / "notes.txt").write_text("not read by an import")
    assert folder_checksum(one) == folder_checksum(two) == file_checksum(one)
    assert str(file_checksum(one)).startswith("sha256:")
    first = sorted(p for p in two.rglob("*") if p.suffix in (".csv", ".json"))[0]
    first.write_bytes(first.read_bytes() + b"\n")
    assert folder_checksum(two) != folder_checksum(one)
    ok("convert", one, "-o", tmp_path / "out")
    conversation = next((tmp_path / "out" / "conversations").glob("*.json"))
    metadata = json.loads(conversation.read_bytes())["import_metadata"]
    assert metadata["source_checksum"] == folder_checksum(one)


def test_reimporting_into_the_0_1_0_vault_keeps_its_older_ids(tmp_path: Path) -> None:
    """A vault made by memvault 0.1.0 holds imported records under UUID v5 ids; importing the
    same export again adopts them (docs/decisions.md, "Imported ids"): no conversation,
    message or memory is added and no id changes."""
    vault_home = tmp_path / "vault"
    shutil.copytree(FIXTURES / "vault-0.1.0", vault_home)
    passphrase = "fixture-vault-0.1.0"
    with Vault.open(vault_home, passphrase) as vault:
        before = {c.id: dict(c.document) for c in vault.conversations()}
        memories_before = {m.id for m in vault.list(MemoryQuery(statuses=None, limit=1000)).items}
    from memvault.importers.chatgpt import ChatGPTImporter
    from memvault.importers.ingest import ingest, make_context
    from memvault.sources import open_target

    zip_path = FIXTURES / "vault-0.1.0-chatgpt.zip"
    with Vault.open(vault_home, passphrase) as vault, open_target(zip_path) as target:
        result = ingest(vault, ChatGPTImporter(), target, make_context(str(zip_path), None))
    assert (result.conversations_new, result.conversations_updated) == (0, 0)
    assert result.conversations_unchanged == 6 and result.messages_new == 0
    assert result.memories_new == 0
    with Vault.open(vault_home, passphrase) as vault:
        after = {c.id: dict(c.document) for c in vault.conversations()}
        every = MemoryQuery(statuses=None, limit=1000)
        assert {m.id for m in vault.list(every).items} == memories_before
    assert after.keys() == before.keys()
