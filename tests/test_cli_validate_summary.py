"""`memvault validate` summarises a rule found many times in one line with a count (issue
#15 §7: a 100 MB export printed 9,516 warnings in 19,033 lines); `--verbose` lists every
finding and `--json` keeps them all."""

from __future__ import annotations

import json
from pathlib import Path

from clikit import ok
from providergen import chatgpt, write_zip


def _repeated_warnings(tmp_path: Path) -> tuple[Path, int]:
    """A converted export whose conversation files lack `source_checksum` (PAM §25.3): one
    warning per file."""
    ok("convert", write_zip(chatgpt.export(), tmp_path / "c.zip"), "-o", tmp_path / "pam")
    files = sorted((tmp_path / "pam" / "conversations").glob("*.json"))
    for file in files:
        document = json.loads(file.read_bytes())
        del document["import_metadata"]["source_checksum"]
        file.write_text(json.dumps(document))
    return tmp_path / "pam", len(files)


def test_validate_summarises_repeated_findings_one_line_per_rule_pam_25_3(
    tmp_path: Path,
) -> None:
    target, count = _repeated_warnings(tmp_path)
    assert count > 3
    lines = ok("validate", target).stdout.splitlines()
    assert f"0 errors, {count} warnings" in lines[0]
    rule = [line for line in lines if "import-metadata-incomplete" in line]
    assert len(rule) == 1 and f"×{count}" in rule[0] and "--verbose" in rule[0]
    assert len(lines) == 2


def test_validate_verbose_lists_every_finding(tmp_path: Path) -> None:
    target, count = _repeated_warnings(tmp_path)
    lines = ok("validate", target, "--verbose").stdout.splitlines()
    assert sum("import-metadata-incomplete" in line for line in lines) == count


def test_validate_json_keeps_every_finding(tmp_path: Path) -> None:
    target, count = _repeated_warnings(tmp_path)
    report = ok("validate", target, "--json").json()
    codes = [f["code"] for r in report for f in r["findings"]]
    assert codes.count("import-metadata-incomplete") == count
