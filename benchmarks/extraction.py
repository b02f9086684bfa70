"""Precision, recall, F1 and confidence ROC AUC of memory extraction on the conversation set
in benchmarks/extraction_set/ (per language and per memory type, dev and held-out splits).

    .venv/bin/python benchmarks/extraction.py [--split dev|heldout|all] [--errors]
    .venv/bin/python benchmarks/extraction.py --llm-url URL --llm-model NAME

The matching rule (benchmarks/extraction_set/README.md): a proposal matches an expected memory
of the same message when the types are equal, its content holds every key and no forbidden
string (case and diacritics folded); each expectation is matched once. Without `--llm-url` the
offline rules extractor is measured. `--calibrate` prints each pattern's precision on the dev
split and the confidence it maps to (the formula of `CALIBRATION` in rules.py). `--errors`
lists misses and wrong proposals (use it on the dev split only: the held-out split is not for
tuning).

Targets (rules): precision ≥ 0.90 and recall ≥ 0.70 in each language, AUC ≥ 0.80.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.conversation_eval import Tally, load_conversations, score_conversations

SET = Path(__file__).resolve().parent / "extraction_set" / "conversations.jsonl"


def _table(title: str, tally: Tally) -> None:
    print(f"\n{title}")
    print(
        f"  {'type':<14}{'proposed':>9}{'correct':>9}{'expected':>9}{'found':>7}"
        f"{'precision':>11}{'recall':>8}{'F1':>7}"
    )
    for type in tally.types:
        print(
            f"  {type:<14}{tally.proposed[type]:>9}{tally.correct[type]:>9}"
            f"{tally.expected[type]:>9}{tally.found[type]:>7}"
            f"{tally.precision(type):>11.2f}{tally.recall(type):>8.2f}{tally.f1(type):>7.2f}"
        )
    print(
        f"  {'overall':<14}{sum(tally.proposed.values()):>9}{sum(tally.correct.values()):>9}"
        f"{sum(tally.expected.values()):>9}{sum(tally.found.values()):>7}"
        f"{tally.precision():>11.2f}{tally.recall():>8.2f}{tally.f1():>7.2f}"
        f"   confidence AUC {tally.auc():.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--errors", action="store_true", help="list misses and wrong proposals")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="print each pattern's precision on the dev split and the confidence it maps to",
    )
    parser.add_argument("--llm-url", help="an OpenAI-compatible endpoint (…/v1)")
    parser.add_argument("--llm-model", default="", help="the model name for --llm-url")
    args = parser.parse_args(argv)

    def extract(messages: list[UserMessage]) -> Iterable[Candidate]:
        if args.llm_url:
            from memvault.extract.llm import LLMConfig, LLMExtractor

            return (
                LLMExtractor(LLMConfig(args.llm_url, args.llm_model)).propose(messages).candidates
            )
        from memvault.extract.rules import extract_messages

        return extract_messages(messages)

    conversations = load_conversations(SET)
    users = sum(1 for c in conversations for m in c.messages if m.role == "user")
    print(
        f"set: {SET.name}, {len(conversations)} conversations, {users} user messages; "
        f"extractor: {'llm ' + args.llm_url if args.llm_url else 'rules'}"
    )
    for split in ("dev", "heldout") if args.split == "all" else (args.split,):
        part = [c for c in conversations if c.split == split]
        tallies = score_conversations(part, extract)
        for lang in ("en", "pt", "all"):
            if lang in tallies:
                n = sum(
                    1
                    for c in part
                    if lang in (c.lang, "all")
                    for m in c.messages
                    if m.role == "user"
                )
                _table(f"{split} · {lang} · {n} user messages", tallies[lang])
        if args.calibrate and split == "dev":
            every = tallies["all"]
            print("\npattern precision on the dev split → confidence")
            for pattern in sorted(every.pattern_fired):
                fired, right = every.pattern_fired[pattern], every.pattern_correct[pattern]
                confidence = round(0.5 + 0.45 * (right + 1) / (fired + 2), 2)
                print(f'    "{pattern}": {confidence},  # {right}/{fired}')
        if args.errors:
            for mid, label, text in tallies["all"].misses:
                print(f"  MISS  {mid}  {label:<40} {text[:90]!r}")
            for mid, label, text in tallies["all"].wrong:
                print(f"  WRONG {mid}  {label:<60} {text[:90]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
