"""Precision, recall, F1 and confidence ROC AUC of memory extraction on the conversation set
in benchmarks/extraction_set/ (per language and per memory type, dev and held-out splits).

    .venv/bin/python benchmarks/extraction.py [--split dev|heldout|all] [--only TEXT] [--errors]
    .venv/bin/python benchmarks/extraction.py --llm-url URL --llm-model NAME
    .venv/bin/python benchmarks/extraction.py --proposals FILE.jsonl --only blind3
    .venv/bin/python benchmarks/extraction.py --train          # refit the learned stage
    .venv/bin/python benchmarks/extraction.py --leave-one-out  # its estimate on unseen batches
    .venv/bin/python benchmarks/extraction.py --curve          # its learning curve
    .venv/bin/python benchmarks/extraction.py --speed --split dev

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

Without `--llm-url` the extractor is the offline default: the rules with their learned stage
(`memvault.extract.stage`); `--rules-only` measures the rules alone, `--model FILE` the learned
stage with other weights. `--train` fits the clause classifier on the dev split only and writes
`src/memvault/extract/learned_weights.json` (deterministic); `--leave-one-out` prints, for each
batch of the dev split, the rules alone against the rules with a learned stage trained without
that batch (the estimate of what it does on chats it never saw), then where the memories it
misses there are lost (`training.recall_loss`: candidate generation, classification,
rewrite/type), per batch written as realistic chats. `--speed` times the rules
alone and the default on the same messages, in the same run (CPU seconds of the process).
`--curve` prints the learning curve: on `blind2` and `real2`, a classifier trained on a
quarter, half, three quarters and all of the other batches' conversations (two draws each),
how well it ranks the clauses the rules miss, and the stage's figures.

Targets (rules): precision ≥ 0.90 and recall ≥ 0.70 in each language, AUC ≥ 0.80.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memvault.extract.base import Candidate, UserMessage
from memvault.extract.confidence import FEATURES, PRIOR
from memvault.extract.conversation_eval import (
    Conversation,
    Tally,
    load_conversations,
    score_conversations,
)
from memvault.extract.learned import WEIGHTS_FILE, Model

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
    if args.llm_url:
        return "llm " + args.llm_url
    if args.rules_only:
        return "rules alone"
    return f"rules + learned stage ({args.model or WEIGHTS_FILE.name})"


def _model(args: argparse.Namespace) -> Model | None:
    if args.rules_only:
        return None
    path = args.model or WEIGHTS_FILE
    return Model.from_json(json.loads(path.read_text(encoding="utf-8")))


def _dev() -> list[Conversation]:
    return [c for c in load_conversations(SET) if c.split == "dev"]


def _train(args: argparse.Namespace) -> int:
    """`--train`: fit on the dev split and write the weights; `--leave-one-out`: the estimate
    per batch of a stage trained without it."""
    from memvault.extract import training

    started = time.process_time()
    samples = training.collect(_dev())
    print(f"dev split: {len(samples)} user messages, {sum(len(s.read) for s in samples)} clauses")
    if args.train:
        model = training.train(samples)
        path = args.model or WEIGHTS_FILE
        text = json.dumps(model.to_json(), ensure_ascii=False, separators=(",", ":"))
        path.write_text(text + "\n", encoding="utf-8")
        print(
            f"wrote {path} ({path.stat().st_size:,} bytes, {len(model.weights):,} features) "
            f"in {time.process_time() - started:.1f} CPU-s"
        )
        return 0
    shipped = _model(args)
    assert shipped is not None
    if args.curve:
        print("learning curve: trained on a share of the other batches' conversations")
        for batch in ("blind2", "real2"):
            for fraction, auc, tallies in training.curve(samples, shipped, batch):
                cells = "   ".join(f"{lang} {_brief(tallies[lang])}" for lang in ("en", "pt"))
                print(
                    f"  {batch:<7} {fraction:4.2f}: AUC on the clauses the rules miss "
                    f"{auc:.2f}   {cells}"
                )
        return 0
    probs = training.out_of_fold(samples)
    batches = sorted({training.batch_of(s.conversation.id) for s in samples})
    print("\nP / R · AUC per language: the rules alone | rules + a stage trained without the batch")
    for batch in [*batches, "all"]:
        chosen = [
            i
            for i, s in enumerate(samples)
            if batch == "all" or training.batch_of(s.conversation.id) == batch
        ]
        part = [samples[i] for i in chosen]
        p = [probs[i] for i in chosen]
        before = training.score(part, p, training.settings(), learned=False)
        after = training.score(part, p, shipped)
        cells = []
        for lang in ("en", "pt"):
            if lang in before:
                cells.append(f"{lang} {_brief(before[lang])} | {_brief(after[lang])}")
        print(f"  {batch:<8} " + "   ".join(cells))
    _recall_loss(samples, probs, shipped)
    return 0


def _recall_loss(samples: list[Any], probs: list[Any], shipped: Model) -> None:
    """Where the expected memories the stage misses out of fold are lost (`training.LOSSES`),
    per batch written as realistic chats and language."""
    from memvault.extract import training

    losses = training.recall_loss(samples, probs, shipped)
    names = [name for name, _ in training.LOSSES]
    print("\nmissed out of fold, by where they are lost (" + ", ".join(names) + "):")
    total: Counter[str] = Counter()
    for (batch, lang), counts in sorted(losses.items()):
        if batch in training.TEMPLATED or not counts:
            continue
        total.update(counts)
        cells = " ".join(f"{counts[name]:>4}" for name in names)
        print(f"  {batch:<8} {lang}  {cells}   ({sum(counts.values())} missed)")
    missed = sum(total.values()) or 1
    groups: Counter[str] = Counter()
    for name, group in training.LOSSES:
        groups[group] += total[name]
    print(
        "  realistic batches: "
        + ", ".join(f"{g} {n} ({n / missed:.0%})" for g, n in groups.items())
        + f" of {sum(total.values())} missed"
    )


def _brief(tally: Tally) -> str:
    auc = tally.auc()
    return (
        f"{tally.precision():.2f}/{tally.recall():.2f} · "
        f"{'n/a' if auc is None else f'{auc:.2f}'} ({len(tally.judged)})"
    )


def _speed(conversations: list[Conversation], model: Model | None) -> int:
    """The rules alone and the default over the same messages, each twice, in one run."""
    from memvault.extract.base import user_messages
    from memvault.extract.conversation_eval import stored
    from memvault.extract.rules import extract_messages as rules_only
    from memvault.extract.stage import extract_messages

    batches = [list(user_messages(stored(c))) for c in conversations]
    n = sum(len(b) for b in batches)
    timings: dict[str, list[float]] = {"rules alone": [], "rules + learned stage": []}
    for _ in range(2):
        for name in timings:
            started = time.process_time()
            for messages in batches:
                if name == "rules alone":
                    list(rules_only(messages))
                else:
                    list(extract_messages(messages, model=model))
            timings[name].append(time.process_time() - started)
    load = os.getloadavg()
    print(f"{n} user messages, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name, spent in timings.items():
        best = min(spent)
        print(f"  {name:<24} {best:6.2f} CPU-s   {n / best:8.0f} messages/CPU-s")
    ratio = min(timings["rules alone"]) / min(timings["rules + learned stage"])
    print(f"  the default runs at {ratio:.2f}x the speed of the rules alone")
    return 0


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
    parser.add_argument("--rules-only", action="store_true", help="the rules alone")
    parser.add_argument("--model", type=Path, metavar="FILE", help="learned-stage weights")
    parser.add_argument(
        "--train", action="store_true", help="fit the learned stage on dev and write it"
    )
    parser.add_argument(
        "--leave-one-out",
        action="store_true",
        help="per dev batch: rules alone vs a learned stage trained without that batch",
    )
    parser.add_argument(
        "--speed", action="store_true", help="messages/CPU-s of the rules alone and the default"
    )
    parser.add_argument(
        "--curve",
        action="store_true",
        help="the learned stage's learning curve on the dev batches written blind",
    )
    args = parser.parse_args(argv)
    if args.train or args.leave_one_out or args.curve:
        return _train(args)
    model = _model(args)
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
        from memvault.extract.stage import extract_messages

        return extract_messages(messages, model=model)

    conversations = load_conversations(SET)
    if args.only:
        conversations = [c for c in conversations if args.only in c.id]
    if args.speed:
        return _speed([c for c in conversations if args.split in ("all", c.split)], model)
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
