"""Precision, recall, F1 and confidence ROC AUC of memory extraction on the conversation set
in benchmarks/extraction_set/ (per language and per memory type, dev and held-out splits).

    .venv/bin/python benchmarks/extraction.py [--split dev|heldout|all] [--only TEXT] [--errors]
    .venv/bin/python benchmarks/extraction.py --llm-url URL --llm-model NAME
    .venv/bin/python benchmarks/extraction.py --proposals FILE.jsonl --only blind3

The matching rule (benchmarks/extraction_set/README.md): a proposal matches an expected memory
of the same message when the types are equal, its content holds every key and no forbidden
string (case and diacritics folded); each expectation is matched once. Without `--llm-url` the
offline rules extractor is measured. `--calibrate` fits the confidence model
(`memvault.extract.confidence`) on the dev split and prints its `WEIGHTS`. `--errors` lists
misses and wrong proposals of the dev split only (the held-out split is not for tuning, so its
records are never printed). `--only TEXT` keeps the conversations whose id contains TEXT
(`--only=-blind-`: the first blind supplement, held out; `--only blind2`: the second blind
batch, now dev; `--only blind3`: the third, held out). `--proposals FILE.jsonl` scores memories
written elsewhere, one JSON object a line (``{"message_id": "eval-<conversation id>-m<n>",
"type": …, "content": …}``, n counting every message of the conversation from 1): a second
person's labels, scored as an extractor, measure how far two careful annotators agree.
`--second FILE.jsonl` (same format) prints, beside each table, the precision when a wrong
proposal also counts as right where the second person wrote a memory of the same type for the
same message: how much of the remaining "wrong" is two careful people disagreeing.

Targets (rules): precision ≥ 0.90 and recall ≥ 0.70 in each language, AUC ≥ 0.80.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.confidence import FEATURES, PRIOR
from memvault.extract.conversation_eval import Tally, load_conversations, score_conversations

SET = Path(__file__).resolve().parent / "extraction_set" / "conversations.jsonl"


def _table(
    title: str, tally: Tally, second: dict[str, list[tuple[str, str]]] | None = None
) -> None:
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
        f"   confidence AUC {_auc(tally)}"
    )
    if second is not None:
        agreed = sum(
            1
            for candidate, right in tally.judged
            if not right
            and any(
                type == candidate.type for type, _ in second.get(candidate.source.message_id, ())
            )
        )
        proposed = len(tally.judged)
        right = proposed - tally.wrong_count
        print(
            f"  with the second annotator: {agreed} of {tally.wrong_count} wrong proposals are "
            f"memories of the same type the second person wrote there; precision counting them "
            f"{(right + agreed) / proposed if proposed else 0:.2f}"
        )


def _auc(tally: Tally) -> str:
    """The AUC with its 95 % bootstrap interval and how many wrong proposals it rests on;
    "n/a" when there is no wrong (or no right) proposal to separate."""
    wrong, total = tally.wrong_count, len(tally.confidences)
    auc, interval = tally.auc(), tally.auc_interval()
    if auc is None or interval is None:
        return f"n/a ({wrong} wrong of {total})"
    return f"{auc:.2f} [{interval[0]:.2f}, {interval[1]:.2f}] ({wrong} wrong of {total})"


def fit(rows: list[tuple[dict[str, float], bool]], l2: float = 1.0) -> dict[str, float]:
    """Logistic regression (Newton's method) of right/wrong on the features, L2-regularised
    toward `PRIOR` (weights set by reasoning before any fit): a feature the dev split never
    shows keeps its prior weight instead of falling to 0; the bias is barely penalised."""
    import numpy as np

    names = list(FEATURES)
    x = np.array([[1.0] + [f.get(n, 0.0) for n in names] for f, _ in rows])
    y = np.array([1.0 if ok else 0.0 for _, ok in rows])
    prior = np.array([0.0] + [PRIOR[n] for n in names])
    w = prior.copy()
    penalty = np.eye(x.shape[1]) * l2
    # The bias is barely penalised: enough to keep it finite when the rows are separable.
    penalty[0, 0] = 0.01
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + penalty @ (w - prior)
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + penalty + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        # A damped Newton step: at most 2 in any weight, so a flat start cannot overshoot.
        w -= step * min(1.0, 2.0 / max(1e-12, float(np.abs(step).max())))
    return {"bias": round(float(w[0]), 2)} | {
        n: round(float(v), 2) for n, v in zip(names, w[1:], strict=True)
    }


def _calibrate(tally: Tally) -> None:
    """Fit the confidence model on the dev split's proposals and print `WEIGHTS`."""
    rows = [(dict(c.features), ok) for c, ok in tally.judged]
    wrong = sum(1 for _, ok in rows if not ok)
    print(f"\nconfidence model fitted on the dev split ({len(rows)} proposals, {wrong} wrong):")
    print("WEIGHTS: Final[Mapping[str, float]] = {")
    for name, value in fit(rows).items():
        print(f'    "{name}": {value},')
    print("}")


def _read_proposals(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Memories written elsewhere, by message id: ``[(type, content), …]``."""
    written: dict[str, list[tuple[str, str]]] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                entry = (str(record["type"]), str(record["content"]))
                written.setdefault(str(record["message_id"]), []).append(entry)
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(
                    f"{path}: line {number}: not a proposal "
                    f'{{"message_id", "type", "content"}}: {error}'
                ) from None
    return written


def _as_candidates(
    messages: list[UserMessage], written: dict[str, list[tuple[str, str]]]
) -> Iterable[Candidate]:
    for message in messages:
        for type, content in written.get(message.message_id, ()):
            yield Candidate(
                type=type,
                content=content,
                language="",
                confidence=1.0,
                source=message,
                method="explicit",
                extractor="annotator",
                pattern="annotator",
            )


def _extractor_name(args: argparse.Namespace) -> str:
    if args.proposals:
        return f"proposals in {args.proposals}"
    return "llm " + args.llm_url if args.llm_url else "rules"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument(
        "--only", metavar="TEXT", help="only the conversations whose id contains TEXT"
    )
    parser.add_argument("--errors", action="store_true", help="list misses and wrong proposals")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="fit the confidence model on the dev split and print its weights",
    )
    parser.add_argument("--llm-url", help="an OpenAI-compatible endpoint (…/v1)")
    parser.add_argument("--llm-model", default="", help="the model name for --llm-url")
    parser.add_argument(
        "--second",
        type=Path,
        metavar="FILE",
        help="a second annotator's memories (JSONL): how many wrong proposals they wrote too",
    )
    parser.add_argument(
        "--proposals",
        type=Path,
        metavar="FILE",
        help="score the memories in this JSONL file instead of running an extractor",
    )
    args = parser.parse_args(argv)
    written = _read_proposals(args.proposals) if args.proposals else None
    second = _read_proposals(args.second) if args.second else None

    def extract(messages: list[UserMessage]) -> Iterable[Candidate]:
        if written is not None:
            return _as_candidates(messages, written)
        if args.llm_url:
            from memvault.extract.llm import LLMConfig, LLMExtractor

            return (
                LLMExtractor(LLMConfig(args.llm_url, args.llm_model)).propose(messages).candidates
            )
        from memvault.extract.rules import extract_messages

        return extract_messages(messages)

    conversations = load_conversations(SET)
    if args.only:
        conversations = [c for c in conversations if args.only in c.id]
    users = sum(1 for c in conversations for m in c.messages if m.role == "user")
    print(
        f"set: {SET.name}{f' (ids containing {args.only!r})' if args.only else ''}, "
        f"{len(conversations)} conversations, {users} user messages; "
        f"extractor: {_extractor_name(args)}"
    )
    for split in ("dev", "heldout") if args.split == "all" else (args.split,):
        part = [c for c in conversations if c.split == split]
        if not part:
            continue
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
                _table(f"{split} · {lang} · {n} user messages", tallies[lang], second)
        if args.calibrate and split == "dev":
            _calibrate(tallies["all"])
        if args.errors and split != "dev":
            print(
                "  (errors are listed for the dev split only: the held-out split is not for tuning)"
            )
        elif args.errors:
            for mid, label, text in tallies["all"].misses:
                print(f"  MISS  {mid}  {label:<40} {text[:90]!r}")
            for mid, label, text in tallies["all"].wrong:
                print(f"  WRONG {mid}  {label:<60} {text[:90]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
