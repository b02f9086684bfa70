"""The AIMEM commands end to end: `memvault export --format aimem [--stream]`, `memvault import`
of a bundle in either form (routed by content; also age-encrypted or inside a zip), and
`memvault convert --to aimem|pam`. Validate, inspect and verify are
`test_aimem_cli_documents.py`'s."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import orjson

from aimemkit import bundle, chunk
from clikit import home, ids, mv, ok, refused, sample_vault, snapshot
from memvault.canonical import jcs_dumps
from memvault.crypto import agefile
from memvault.formats.aimem.reader import validate_bundle
from official import OFFICIAL_STORE

__all__ = ["home", "ids", "sample_vault"]  # fixtures

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_STORE = REPO / "examples" / "memory-store.json"
EXAMPLE_EXPORT = REPO / "examples" / "export"


def test_aimem_4_level_3_cli_export_then_import_is_a_no_op(
    ids: dict[str, str], tmp_path: Path
) -> None:
    """§4 Level 3: `export --format aimem` then `import` changes nothing a user can see —
    memories, stats and the audit log — for both forms."""
    for name, extra in (("brain.aimem.json", ()), ("brain.ndjson", ("--stream",))):
        out = tmp_path / name
        exported = ok("export", "--format", "aimem", *extra, "-o", out, "--json").json()
        assert (exported["chunks"], exported["withheld"]) == (19, 1)  # one is not exportable
        assert exported["form"] == ("ndjson" if extra else "json")
        assert validate_bundle(out).valid
        before = snapshot()
        result = ok("import", out, "--json").json()
        assert (result["created"], result["unchanged"], result["rejected"]) == (0, 19, [])
        assert snapshot() == before


def test_aimem_3_1_stream_form_starts_with_the_envelope(
    ids: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "brain.ndjson"
    ok("export", "--format", "aimem", "--stream", "-o", out)
    lines = out.read_bytes().splitlines()
    envelope = json.loads(lines[0])
    assert envelope["format"] == "aimem-bundle" and "chunks" not in envelope
    assert {json.loads(line)["_kind"] for line in lines[1:]} == {"chunk"}
    assert len(lines) == 20  # the envelope and 19 chunks (one memory is not exportable)


def test_aimem_export_scopes_on_the_command_line(ids: dict[str, str], tmp_path: Path) -> None:
    dna = ok(
        "export",
        "--format",
        "aimem",
        "--scope",
        "DNA_ONLY",
        "-o",
        tmp_path / "d.aimem.json",
        "--json",
    ).json()
    assert dna["scope"] == "DNA_ONLY" and 0 < dna["chunks"] < 19
    since = ok(
        "export",
        "--format",
        "aimem",
        "--since",
        "2999-01-01T00:00:00Z",
        "-o",
        tmp_path / "s.aimem.json",
        "--json",
    ).json()
    assert (since["scope"], since["chunks"]) == ("SINCE", 0)


def test_aimem_export_usage_errors(home: Path, tmp_path: Path) -> None:
    ok("init")
    out = tmp_path / "x.aimem.json"
    assert "--format aimem" in refused("export", "--scope", "FULL", "-o", out, code=2)
    assert "--sign" in refused("export", "--format", "aimem", "--sign", "-o", out, code=2)
    assert "DNA" in refused("export", "--format", "aimem", "--scope", "ALL", "-o", out, code=2)
    assert "[a-z0-9-]" in refused(
        "export", "--format", "aimem", "--producer", "Bad_NS", "-o", out, code=2
    )
    assert not out.exists()


def test_aimem_2_9_cli_lists_a_rejected_chunk_and_imports_the_rest(
    home: Path, tmp_path: Path
) -> None:
    ok("init")
    first = tmp_path / "a.aimem.json"
    first.write_bytes(orjson.dumps(bundle([chunk("c1", "Use Rust.", "decision")])))
    ok("import", first)
    second = tmp_path / "b.aimem.json"
    second.write_bytes(
        orjson.dumps(
            bundle(
                [chunk("c1", "Use Go.", "decision"), chunk("c2", "Ship on Tuesdays.", "decision")]
            )
        )
    )
    run = mv("import", second)
    assert run.exit_code == 1
    assert "chunk rejected" in run.stderr and "urn:aimem:memoryai-prod:c1" in run.stderr
    assert "§2.9" in run.stderr and "the rest of the bundle was imported" in run.stderr
    assert "Traceback" not in run.stderr
    shown = ok("show", "urn:aimem:memoryai-prod:c2", "--json").json()["memory"]
    assert shown["content"] == "Ship on Tuesdays."
    assert (
        ok("show", "urn:aimem:memoryai-prod:c1", "--json").json()["memory"]["content"]
        == "Use Rust."
    )


def test_aimem_2_8_cli_refuses_a_bundle_whose_checksum_fails(home: Path, tmp_path: Path) -> None:
    ok("init")
    doc = bundle([chunk("c1", "Use Rust.", "decision")])
    doc["producer"] = "someone-else"
    path = tmp_path / "bad.aimem.json"
    path.write_bytes(orjson.dumps(doc))
    before = snapshot()
    stderr = refused("import", path)
    assert "checksum" in stderr and "§2.8" in stderr and "nothing was changed" in stderr
    assert snapshot() == before


def memories_of(path: Path) -> list[bytes]:
    store = json.loads(path.read_text(encoding="utf-8"))
    return [jcs_dumps(m) for m in store["memories"]]


def test_cli_convert_pam_file_to_aimem_and_back_is_byte_identical(tmp_path: Path) -> None:
    bundle = tmp_path / "brain.aimem.json"
    done = ok("convert", EXAMPLE_STORE, "--to", "aimem", "-o", bundle, "--json").json()
    assert done["to"] == "aimem" and done["memories"] == len(memories_of(EXAMPLE_STORE))
    assert validate_bundle(bundle).valid
    back = tmp_path / "back.json"
    ok("convert", bundle, "--to", "pam", "-o", back)
    assert memories_of(back) == memories_of(EXAMPLE_STORE)
    original = json.loads(EXAMPLE_STORE.read_text(encoding="utf-8"))
    assert jcs_dumps(json.loads(back.read_text(encoding="utf-8"))) == jcs_dumps(original)


def test_cli_convert_export_directory_keeps_relations_and_embeddings(tmp_path: Path) -> None:
    stream = tmp_path / "brain.ndjson"
    ok("convert", EXAMPLE_EXPORT, "--to", "aimem", "--stream", "-o", stream)
    assert validate_bundle(stream).valid
    back = tmp_path / "back"
    result = ok("convert", stream, "--to", "pam", "-o", back, "--json").json()
    assert result["embeddings"] > 0
    store = json.loads((EXAMPLE_EXPORT / "memory-store.json").read_text(encoding="utf-8"))
    again = json.loads((back / "memory-store.json").read_text(encoding="utf-8"))
    assert [jcs_dumps(m) for m in again["memories"]] == [jcs_dumps(m) for m in store["memories"]]
    assert again["relations"] == store["relations"]
    embeddings = json.loads((EXAMPLE_EXPORT / "embeddings.json").read_text(encoding="utf-8"))
    assert jcs_dumps(json.loads((back / "embeddings.json").read_text())) == jcs_dumps(embeddings)
    # the result is a PAM export memvault validates
    ok("validate", back)


def test_cli_convert_refuses_bad_input_and_existing_output(tmp_path: Path) -> None:
    bad = tmp_path / "bad.aimem.json"
    doc = bundle([chunk("c1", "x", "decision")])
    doc["checksum"] = "sha256:" + "0" * 64
    bad.write_bytes(orjson.dumps(doc))
    stderr = refused("convert", bad, "--to", "pam", "-o", tmp_path / "out.json")
    assert "checksum" in stderr
    assert not (tmp_path / "out.json").exists()
    existing = tmp_path / "exists.aimem.json"
    existing.write_text("keep")
    assert "exists" in refused("convert", EXAMPLE_STORE, "--to", "aimem", "-o", existing)
    assert existing.read_text() == "keep"
    assert "aimem or pam" in refused(
        "convert", EXAMPLE_STORE, "--to", "xml", "-o", tmp_path / "o", code=2
    )


def test_pam_18_4_cli_convert_refuses_a_signature_that_does_not_verify(tmp_path: Path) -> None:
    """validate only warns about it (§21.4), but a conversion would pass the memories off as
    the signer's: the official example's placeholder signature stops it, nothing written."""
    official = OFFICIAL_STORE
    stderr = refused("convert", official, "--to", "aimem", "-o", tmp_path / "out.aimem.json")
    assert "signature does not verify" in stderr
    assert not (tmp_path / "out.aimem.json").exists()


def test_pam_18_4_cli_convert_allow_unverified_converts_the_official_example(
    tmp_path: Path,
) -> None:
    """PAM §18.4 (a failed verification SHOULD warn): `convert` had no --allow-unverified,
    so the official example store could not be converted at all. With it the bundle is
    written and valid, the failed signature named on stderr."""
    out = tmp_path / "out.aimem.json"
    run = mv("convert", OFFICIAL_STORE, "--to", "aimem", "-o", out, "--allow-unverified")
    assert run.exit_code == 0, run.stderr
    assert "SIGNATURE NOT VERIFIED" in run.stderr and "signature-invalid" in run.stderr
    assert ok("validate", out).exit_code == 0
    assert "--allow-unverified goes with --to" in refused(
        "convert", OFFICIAL_STORE, "-o", tmp_path / "p", "--allow-unverified", code=2
    )


def test_aimem_cli_imports_a_bundle_from_an_age_file_and_from_a_zip(
    home: Path, tmp_path: Path
) -> None:
    """`memvault import` routes an age-encrypted bundle and a zip holding one to the AIMEM
    import, as it does the bundle file; the same chunks again are a no-op (§2.9)."""
    ok("init")
    data = orjson.dumps(bundle([chunk("c1", "Use Rust.", "decision"), chunk("c2", "Tea.")]))
    sealed = tmp_path / "brain.aimem.json.age"
    sealed.write_bytes(agefile.encrypt(data, passphrase="pw"))
    secret = tmp_path / "pass.txt"
    secret.write_text("pw\n")
    first = ok("import", sealed, "--age-passphrase-file", secret, "--json").json()
    assert (first["format"], first["created"], first["source"]) == ("aimem", 2, str(sealed))
    archive = tmp_path / "brain.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("brain.aimem.json", data)
    before = snapshot()
    again = ok("import", archive, "--json").json()
    assert (again["created"], again["unchanged"]) == (0, 2)
    misnamed = tmp_path / "backup.zip.age"  # named like PAM: tried as PAM first, then AIMEM
    misnamed.write_bytes(agefile.encrypt(archive.read_bytes(), passphrase="pw"))
    third = ok("import", misnamed, "--age-passphrase-file", secret, "--json").json()
    assert (third["format"], third["unchanged"]) == ("aimem", 2)
    assert snapshot() == before
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as zf:
        zf.writestr("a.aimem.json", data)
        zf.writestr("b.aimem.json", data)
    stderr = refused("import", tmp_path / "two.zip")
    assert "a.aimem.json, b.aimem.json" in stderr and "nothing was changed" in stderr


def test_pam_12_1_bundle_without_embeddings_converts_to_a_valid_pam_export(
    home: Path,
    tmp_path: Path,
) -> None:
    """A vault whose memories have embeddings, exported as AIMEM without them (the default,
    §5.5), converts back to PAM with `embedding_ref` null (PAM §12.1: null when the
    embeddings are omitted) — a valid export — and with them to refs that resolve."""
    ok("init")
    ok("import", REPO / "examples" / "export.zip")
    for extra, embedded in (((), 0), (("--with-embeddings",), 14)):
        out = tmp_path / f"brain{len(extra)}.aimem.json"
        assert (
            ok("export", "--format", "aimem", *extra, "-o", out, "--json").json()["embeddings"]
            == embedded
        )
        back = tmp_path / f"back{len(extra)}"
        ok("convert", out, "--to", "pam", "-o", back)
        ok("validate", back)
        store = json.loads((back / "memory-store.json").read_text())
        refs = [m.get("embedding_ref") for m in store["memories"]]
        assert sum(isinstance(r, str) for r in refs) == embedded
        assert (back / "embeddings.json").exists() == bool(embedded)
        # the vault keeps its embeddings either way: re-importing the bundle changes nothing
        assert ok("import", out, "--json").json()["created"] == 0
