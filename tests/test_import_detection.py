"""What `memvault import` takes a file for (`memvault.input_kind`): a document that declares
itself is read as what it declares — a PAM `schema` (PAM §2), an AIMEM envelope (AIMEM §2.1)
— and provider sniffing is only for documents that declare nothing, so no check (above all
the signature check, PAM §18.5) can be bypassed by content that looks like a provider's.
Several providers' exports in one folder are each imported, in one transaction."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from clikit import home, mv, ok, refused, snapshot
from memvault.input_kind import classify
from providergen import chatgpt, claude, copilot, gemini, write_folder, write_zip

__all__ = ["home"]  # the fixture, imported for pytest

CORPUS = Path(__file__).parent / "aimem_corpus"


@pytest.fixture
def vault(home: Path) -> Path:
    ok("init")
    return home


@pytest.fixture
def claude_store(vault: Path, tmp_path: Path) -> Path:
    """The vault's own PAM export after a Claude import: its memories carry Claude's
    `prompt_template` / `email_address` fields in their metadata."""
    ok("import", claude.write(tmp_path / "claude", "folder"))
    store = tmp_path / "store.json"
    ok("export", "-o", store)
    assert b"prompt_template" in store.read_bytes() or b"email_address" in store.read_bytes()
    return store


def test_pam_2_own_export_of_claude_memories_is_imported_as_pam_not_as_claude(
    claude_store: Path,
) -> None:
    """PAM §2: `export -o store.json` then `import store.json` was taken for a Claude export
    ("Nothing new (claude-importer)"): the document declares `"schema":
    "portable-ai-memory"`, so it is read as PAM."""
    run = ok("import", claude_store)
    assert "claude-importer" not in run.stdout
    assert "the vault already has export" in run.stdout  # the PAM path: its own export
    summary = ok("import", claude_store, "--json").json()
    assert summary["already_imported"] is True


def test_pam_18_5_tampered_signed_store_is_verified_not_sniffed_as_claude(
    vault: Path, tmp_path: Path
) -> None:
    """PAM §18.5: a signed store whose memories were changed after signing went the Claude
    importer's way and was never verified; now its signature is checked and it is refused,
    the vault unchanged."""
    ok("import", claude.write(tmp_path / "claude", "folder"))
    ok("keys", "generate")
    signed = tmp_path / "signed.json"
    ok("export", "--sign", "-o", signed)
    document = json.loads(signed.read_bytes())
    document["memories"][0]["content"] = "tampered after signing"
    tampered = tmp_path / "tampered.json"
    tampered.write_bytes(orjson.dumps(document))
    before = snapshot()
    stderr = refused("import", tampered)
    assert "signature does not verify" in stderr and "claude" not in stderr
    assert snapshot() == before


def test_pam_2_schema_declared_last_is_still_pam(claude_store: Path, tmp_path: Path) -> None:
    """PAM §2: the declaration counts wherever it stands: the same store with its members
    sorted (as RFC 8785 writes them: `schema` after `memories`) is still PAM, and a byte
    order mark does not hide it."""
    document = json.loads(claude_store.read_bytes())
    sorted_store = tmp_path / "sorted.json"
    sorted_store.write_bytes(b"\xef\xbb\xbf" + orjson.dumps(document, option=orjson.OPT_SORT_KEYS))
    assert sorted_store.read_bytes().index(b'"schema"') > sorted_store.read_bytes().index(
        b'"memories"'
    )
    decided = classify(sorted_store)
    assert (decided.kind, decided.declared) == ("pam", True)


def test_pam_2_from_pam_reads_the_input_as_pam(vault: Path, tmp_path: Path) -> None:
    """`--from pam`: a Claude export named as PAM is read by the PAM reader, which says
    what a PAM export lacks (PAM §2), and nothing is imported."""
    folder = claude.write(tmp_path / "claude", "folder")
    before = snapshot()
    stderr = refused("import", folder, "--from", "pam")
    assert "memory-store.json" in stderr and "PAM §2" in stderr
    assert snapshot() == before


def test_aimem_2_1_from_aimem_reads_the_input_as_a_bundle(claude_store: Path) -> None:
    """`--from aimem`: a PAM store named as a bundle is validated as one (AIMEM §2.1): its
    missing `format` is reported with the rule's code and status 422."""
    stderr = refused("import", claude_store, "--from", "aimem")
    assert "format-invalid" in stderr and "status 422" in stderr
    assert "§2.1" in stderr


def test_from_names_the_interchange_formats_in_its_error(vault: Path, tmp_path: Path) -> None:
    stderr = refused("import", tmp_path, "--from", "xml")
    assert "pam, aimem" in stderr


def _several(root: Path) -> Path:
    write_folder(chatgpt.export(seed=4, count=5), root / "chatgpt-export")
    claude.write(root / "claude", "folder")
    write_folder(gemini.export(), root / "Takeout")
    return root


def test_folder_of_several_providers_imports_each_in_one_transaction(
    vault: Path, tmp_path: Path
) -> None:
    """A folder holding ChatGPT, Claude and Gemini exports imported only the ChatGPT one,
    silently: each is detected, imported and named in the summary."""
    folder = _several(tmp_path / "exports")
    run = ok("import", folder)
    assert "3 exports" in run.stdout
    for name in ("chatgpt-importer", "claude-importer", "gemini-importer"):
        assert name in run.stdout
    stats = ok("stats", "--json").json()
    assert stats["conversations"] > 5
    summary = ok("import", folder, "--json").json()
    parts = summary["parts"]
    sources = {Path(p["source"]).name: p["importer"].split("-importer")[0] for p in parts}
    assert sources == {"chatgpt-export": "chatgpt", "claude": "claude", "Takeout": "gemini"}
    assert all(p["conversations"]["new"] == 0 for p in summary["parts"])


def test_zip_of_several_providers_imports_each(vault: Path, tmp_path: Path) -> None:
    """The same in a zip (one folder per provider inside it)."""
    files = {f"chatgpt/{k}": v for k, v in chatgpt.export(seed=4, count=3).items()}
    files.update({f"copilot/{k}": v for k, v in copilot.export().items()})
    archive = write_zip(files, tmp_path / "exports.zip")
    summary = ok("import", archive, "--json").json()
    assert sorted(p["importer"].split("-importer")[0] for p in summary["parts"]) == [
        "chatgpt",
        "copilot",
    ]


def test_folder_of_several_providers_is_all_or_nothing(vault: Path, tmp_path: Path) -> None:
    """One transaction: when one provider's export cannot be read, none is imported."""
    folder = _several(tmp_path / "exports")
    conversations = folder / "claude" / "claude-export" / "conversations.json"
    data = conversations.read_bytes()
    conversations.write_bytes(data[: len(data) // 2])
    before = snapshot()
    stderr = refused("import", folder)
    assert "conversations.json" in stderr and "nothing was imported" in stderr
    assert snapshot() == before


def test_providers_mixed_in_one_folder_are_refused_naming_them(vault: Path, tmp_path: Path) -> None:
    """Exports of two providers mixed in the same folder cannot be told apart: refused,
    naming both, nothing imported."""
    folder = write_folder(chatgpt.export(seed=4, count=3), tmp_path / "mixed")
    write_folder(copilot.export(), folder)
    before = snapshot()
    stderr = refused("import", folder)
    assert "chatgpt" in stderr and "copilot" in stderr and "--from" in stderr
    assert snapshot() == before
    assert mv("import", folder, "--from", "chatgpt").exit_code == 0


def test_aimem_2_1_bundle_without_format_is_reported_as_a_bundle(
    vault: Path, tmp_path: Path
) -> None:
    """AIMEM §2.1: a bundle whose `format` is missing was "not a PAM document", with no AIMEM
    code or status; it is recognized by its envelope, and `validate` and `import` name
    `format-invalid` (422)."""
    bundle = json.loads((CORPUS / "valid" / "minimal.aimem.json").read_bytes())
    del bundle["format"]
    path = tmp_path / "no-format.json"
    path.write_bytes(orjson.dumps(bundle))
    decided = classify(path)
    assert decided.kind == "aimem" and decided.bundle is not None
    [result] = json.loads(mv("validate", "--json", path).stdout)
    assert result["kind"] == "aimem-bundle" and result["status"] == 422
    assert [f["code"] for f in result["findings"]] == ["format-invalid"]
    before = snapshot()
    stderr = refused("import", path)
    assert "format-invalid" in stderr and "status 422" in stderr and "PAM" not in stderr
    assert snapshot() == before


def test_provider_export_is_not_taken_for_a_bundle(tmp_path: Path) -> None:
    """The envelope rule needs most of the §2.1 members: a ChatGPT `conversations.json` (a
    top-level array of conversations) and a Grok export (an object of other members) are
    still provider exports."""
    from providergen import grok

    conversations = write_folder(chatgpt.export(seed=4, count=2), tmp_path / "c")
    assert classify(conversations / "conversations.json").providers == ("chatgpt",)
    (tmp_path / "g").mkdir()
    grok_file = grok.write(tmp_path / "g", "file")
    assert classify(grok_file).providers == ("grok",)
