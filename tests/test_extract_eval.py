"""The rules extractor meets its quality targets on the labeled set (precision ≥ 0.90, recall
≥ 0.70), on the part the patterns were tuned on and on the held-out part, which was written
before tuning and never tuned on. `benchmarks/extraction.py` prints the same figures per type."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.extract.evaluation import load_set, score
from memvault.extract.rules import extract_messages

EVAL_SET = Path(__file__).parent / "extraction_eval" / "messages.jsonl"
PRECISION = 0.90
RECALL = 0.70


def test_the_labeled_set_is_large_bilingual_and_full_of_negatives() -> None:
    items = load_set(EVAL_SET)
    assert len(items) >= 200
    assert {i.lang for i in items} == {"en", "pt"}
    assert {i.split for i in items} == {"tune", "heldout"}
    assert sum(1 for i in items if not i.expect) >= 80
    assert {i.role for i in items} >= {"user", "assistant", "system", "tool"}
    types = {t for i in items for t, _ in i.expect}
    assert types == {
        "fact", "preference", "skill", "context", "relationship",
        "goal", "instruction", "identity", "environment", "project",
    }  # fmt: skip
    assert len({i.id for i in items}) == len(items)


@pytest.mark.parametrize("split", ["tune", "heldout"])
def test_rules_precision_and_recall_meet_the_targets(split: str) -> None:
    items = [i for i in load_set(EVAL_SET) if i.split == split]
    result = score(items, extract_messages)
    assert result.precision() >= PRECISION, result.wrong
    assert result.recall() >= RECALL, result.misses


def test_scoring_counts_a_wrong_type_as_both_a_miss_and_a_wrong_proposal(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(
        '{"id": "a", "split": "tune", "lang": "en", "role": "user", '
        '"text": "I live in Porto.", "expect": [{"type": "identity", "key": ["porto"]}]}\n'
        '{"id": "b", "split": "tune", "lang": "en", "role": "assistant", '
        '"text": "I live in Porto.", "expect": []}\n',
        encoding="utf-8",
    )
    result = score(load_set(path), extract_messages)
    assert (result.precision(), result.recall()) == (0.0, 0.0)
    assert result.proposed["fact"] == 1 and result.expected["identity"] == 1


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "a"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"set.jsonl:1: not a labeled message"):
        load_set(path)
