"""The AIMEM conformance corpus (tests/aimem_corpus), in the JSON and the NDJSON form.

Every valid bundle validates clean in both forms and survives a rewrite with its checksum;
every invalid one yields exactly the finding its manifest entry names (code, HTTP status,
JSON path, section) and no other error.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from aimemkit import KINDS, to_ndjson
from clikit import home, mv, ok, refused, snapshot
from memvault.formats.aimem import open_bundle, validate_bundle, write_bundle
from memvault.formats.aimem.validate import BundleReport

CORPUS = Path(__file__).parent / "aimem_corpus"
MANIFEST = json.loads((CORPUS / "expected.json").read_text())
__all__ = ["home"]  # the fixture, imported for pytest


def cases(section: str) -> list[Any]:
    out = []
    for rel, entry in MANIFEST[section].items():
        for form in entry["forms"]:
            out.append(pytest.param(rel, form, id=f"{Path(rel).name}-{form}"))
    return out


def report_for(rel: str, form: str, tmp_path: Path) -> BundleReport:
    path = CORPUS / rel
    if form == "ndjson" and not rel.endswith(".ndjson"):
        path = to_ndjson(path, tmp_path / (path.name + ".ndjson"))
    report = validate_bundle(path)
    assert report.form in (form, "unknown")
    return report


@pytest.mark.parametrize(("rel", "form"), cases("valid"))
def test_aimem_2_valid_corpus_validates_clean(rel: str, form: str, tmp_path: Path) -> None:
    """§2, §4 Level 2: a consumer ingests every conforming bundle — both forms, no error."""
    report = report_for(rel, form, tmp_path)
    assert report.errors == [], [str(p) for p in report.errors]
    assert report.valid and report.status == 200 and report.exit_code == 0
    declared = json.loads((CORPUS / rel).read_bytes())["checksum"]
    assert report.facts["checksum"] == declared


@pytest.mark.parametrize(("rel", "form"), cases("invalid"))
def test_aimem_2_invalid_corpus_names_the_rule(rel: str, form: str, tmp_path: Path) -> None:
    """§2, §2.8, §3.2, §7: each invalid bundle gives its one finding with code/status/path."""
    expected = MANIFEST["invalid"][rel]
    report = report_for(rel, form, tmp_path)
    codes = {p.code for p in report.errors}
    assert codes == {expected["code"]}, [str(p) for p in report.errors]
    matching = [p for p in report.errors if p.code == expected["code"]]
    assert any(p.status == expected["status"] for p in matching)
    assert any(p.section == expected["section"] for p in matching)
    if form == "json" or expected["path"].startswith("/"):
        assert any(p.path == expected["path"] for p in matching), [p.path for p in matching]
    assert report.status == expected["status"]
    assert report.exit_code in (1, 2)
    assert all(p.file for p in report.problems)
    if expected["code"] == "checksum-mismatch":
        assert len(report.problems) == 1  # §2.8: nothing else is reported


@pytest.mark.parametrize("rel", list(MANIFEST["valid"]))
@pytest.mark.parametrize("form", ["json", "ndjson"])
def test_aimem_2_8_rewrite_keeps_checksum(rel: str, form: str, tmp_path: Path) -> None:
    """§2.8 / §4: reading a bundle and writing it again (either form) keeps its checksum
    whenever the four arrays were all present, and the output validates."""
    source = CORPUS / rel
    with open_bundle(source) as reader:
        envelope = dict(reader.envelope)
        arrays = {a: list(reader.iter_array(a)) for a in KINDS}
        had_all = set(reader.arrays) == set(KINDS)
        original = reader.checksum
    suffix = ".aimem.json" if form == "json" else ".ndjson"
    out = tmp_path / ("copy" + suffix)
    summary = write_bundle(
        out,
        envelope,
        arrays["chunks"],
        arrays["edges"],
        arrays["entities"],
        arrays["chunk_entities"],
    )
    if had_all:
        assert summary.checksum == original == envelope["checksum"]
    report = validate_bundle(out)
    assert report.valid, [str(p) for p in report.problems]
    assert report.form == form


def test_aimem_corpus_is_reproducible(tmp_path: Path) -> None:
    """The committed corpus is exactly what tests/aimem_corpus/build.py writes."""
    spec = importlib.util.spec_from_file_location("aimem_corpus_build", CORPUS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(
        p.relative_to(CORPUS)
        for p in CORPUS.rglob("*")
        if p.is_file() and p.name != "build.py" and "__pycache__" not in p.parts
    )
    assert built == committed
    for rel in built:
        assert (tmp_path / rel).read_bytes() == (CORPUS / rel).read_bytes(), rel


def test_aimem_2_corpus_covers_every_rule_code() -> None:
    """Every error code the §2 rules can raise on a bundle value has an invalid corpus file."""
    codes = {entry["code"] for entry in MANIFEST["invalid"].values()}
    for code in (
        "checksum-mismatch",
        "version-unsupported",
        "chunk-id-invalid",
        "content-hash-mismatch",
        "edge-unknown-chunk",
        "link-unknown-entity",
        "embedding-dim-mismatch",
        "duplicate-chunk-id",
        "duplicate-entity-id",
    ):
        assert code in codes


# -- the corpus through the command line -------------------------------------------------------
# The tests above call the validator directly; these go through the CLI's detection too, which
# once took a bundle with a wrong `format` for "not a PAM document" (no code, no status).


def corpus_file(rel: str, form: str, tmp_path: Path) -> Path:
    path = CORPUS / rel
    if form == "ndjson" and not rel.endswith(".ndjson"):
        path = to_ndjson(path, tmp_path / (path.name + ".ndjson"))
    return path


@pytest.mark.parametrize(("rel", "form"), cases("invalid"))
def test_aimem_2_invalid_corpus_through_the_cli_names_code_and_status(
    rel: str, form: str, home: Path, tmp_path: Path
) -> None:
    """§2, §2.1, §2.8, §7 through `memvault validate` and `memvault import --strict`: the
    manifest's code and status come out of the CLI (a bundle whose `format` is wrong is a
    bundle, `format-invalid` 422, not "not a PAM document"), and the refused import changes
    nothing."""
    expected = MANIFEST["invalid"][rel]
    path = corpus_file(rel, form, tmp_path)
    run = mv("validate", "--json", path)
    assert run.exit_code in (1, 2), run.stdout
    [result] = json.loads(run.stdout)
    assert result["kind"] == "aimem-bundle"
    assert result["status"] == expected["status"]
    assert expected["code"] in {f["code"] for f in result["findings"] if f["severity"] == "error"}
    ok("init")
    before = snapshot()
    # --strict: a bundle with one bad chunk is refused whole instead of imported without it
    stderr = refused("import", "--strict", path)
    assert expected["code"] in stderr and f"status {expected['status']}" in stderr
    assert snapshot() == before


@pytest.mark.parametrize(("rel", "form"), cases("valid"))
def test_aimem_4_valid_corpus_through_the_cli_validates_and_imports(
    rel: str, form: str, home: Path, tmp_path: Path
) -> None:
    """§4 Level 2 through the CLI: `validate` says valid, `import` takes every chunk, and a
    second import changes nothing (§2.9 idempotency)."""
    path = corpus_file(rel, form, tmp_path)
    assert ok("validate", path).exit_code == 0
    ok("init")
    first = ok("import", "--json", path).json()
    chunks = json.loads((CORPUS / rel).read_bytes()).get("chunks", [])
    assert first["rejected"] == [] and first["created"] + first["reinforced"] == len(chunks)
    again = ok("import", "--json", path).json()
    assert again["created"] == 0 and again["rejected"] == []
