"""Precision and recall of the rules extractor on the labeled set in tests/extraction_eval/.

    .venv/bin/python benchmarks/extraction.py [--split tune|heldout|all] [--errors]
                                               [--calibrate]

Prints precision and recall per memory type and overall, for the tuning part and the held-out
part (written before the patterns were tuned, and never used for tuning). `--errors` lists
every miss and every wrong proposal; `--calibrate` prints each pattern's precision on the
tuning part and the confidence it maps to (the `CALIBRATION` table in
src/memvault/extract/rules.py is this output).

Targets: precision ≥ 0.90, recall ≥ 0.70 (tests/test_extract_eval.py asserts them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memvault.extract.evaluation import Score, load_set, score
from memvault.extract.rules import extract_messages

EVAL_SET = Path(__file__).resolve().parents[1] / "tests" / "extraction_eval" / "messages.jsonl"


def _table(title: str, result: Score) -> None:
    print(f"\n{title}")
    print(
        f"{'type':<14}{'proposed':>9}{'correct':>9}{'expected':>9}{'found':>7}"
        f"{'precision':>11}{'recall':>8}"
    )
    for type in result.types:
        print(
            f"{type:<14}{result.proposed[type]:>9}{result.correct[type]:>9}"
            f"{result.expected[type]:>9}{result.found[type]:>7}"
            f"{result.precision(type):>11.2f}{result.recall(type):>8.2f}"
        )
    print(
        f"{'overall':<14}{sum(result.proposed.values()):>9}{sum(result.correct.values()):>9}"
        f"{sum(result.expected.values()):>9}{sum(result.found.values()):>7}"
        f"{result.precision():>11.2f}{result.recall():>8.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    parser.add_argument("--errors", action="store_true", help="list misses and wrong proposals")
    parser.add_argument("--calibrate", action="store_true", help="print per-pattern precision")
    args = parser.parse_args(argv)
    items = load_set(EVAL_SET)
    splits = ("tune", "heldout") if args.split == "all" else (args.split,)
    print(
        f"labeled set: {EVAL_SET.name}, {len(items)} messages "
        f"({sum(1 for i in items if not i.expect)} that must yield nothing)"
    )
    for split in splits:
        part = [i for i in items if i.split == split]
        result = score(part, extract_messages)
        _table(f"{split}: {len(part)} messages", result)
        if args.errors:
            for item_id, expected, text in result.misses:
                print(f"  MISS  {item_id}  {expected:<32} {text}")
            for item_id, proposed, text in result.wrong:
                print(f"  WRONG {item_id}  {proposed:<50} {text}")
        if args.calibrate and split == "tune":
            print("\npattern precision on the tuning part → confidence")
            for pattern in sorted(result.pattern_fired):
                fired = result.pattern_fired[pattern]
                right = result.pattern_correct[pattern]
                confidence = round(0.5 + 0.45 * (right + 1) / (fired + 2), 2)
                print(f'    "{pattern}": {confidence},  # {right}/{fired}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
