"""A soak of `memvault serve` (issue #23): bounded mixed load on loopback for a long time, on
each backend, with the server's resident memory and the p99 latency sampled as it goes.

```sh
.venv/bin/python benchmarks/soak.py                         # 15 minutes per backend
.venv/bin/python benchmarks/soak.py --minutes 2 --backend sqlite --png soak.png
make soak                                                   # SOAK_MINUTES=15
```

The load is paced, not flat out, and the vault keeps a steady size, so the first minute and
the last do the same work on the same amount of data (growth of resident memory then is a
leak, not a bigger vault): per second about `--rate` memory writes and as many erasures of
earlier writes (steadily, one at a time, exports in flight or not), `--rate` lists and reads;
every 2 s an AIMEM import of 10 chunks — one of 20 bundles in turn, so after the first round
an import finds its chunks already there (skipped) — and every 10 s a streamed export.
Every `--interval` seconds it samples the server process's RSS (``/proc/PID/status``), its CPU
time (user + sys, ``/proc/PID/stat``), the machine's load average, and the p99 of the
requests answered in that interval, and prints a line. At the end:
the RSS after warm-up (the first fifth) against the RSS at the end, p99 of the first and last
quarter, the server's CPU use and the load average, errors, and every acknowledged write
checked as in benchmarks/faults.py (audit chain, integrity). Any failed request is an error,
an export's 503 included (an export never gives up to erasures, docs/erasure.md). The curves
go to a PNG (`--png`, default soak.png): RSS and p99 over time, one line per backend.
Exit status 1 on any error, lost write or failed check.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import faults  # noqa: E402  (benchmarks/faults.py)
from server import percentile, sentence  # noqa: E402

#: How many distinct AIMEM bundles the imports take turns with.
BUNDLES = 20


@dataclass
class Sample:
    at: float  # seconds since the start
    rss_mb: float
    p99_ms: float
    requests: int
    errors: int
    cpu_s: float  # the server's CPU time so far (user + sys)
    load: float  # the machine's 1-minute load average


@dataclass
class Soak:
    backend: str
    samples: list[Sample] = field(default_factory=list)
    ledger: faults.Ledger = field(default_factory=faults.Ledger)
    verdict: faults.Verdict | None = None


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far (``/proc/PID/stat`` fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def paced(rate: float, stop: threading.Event, step: Callable[[int], None]) -> Callable[[], None]:
    """Run `step` `rate` times a second (never faster), until `stop`."""

    def run() -> None:
        began = time.monotonic()
        n = 0
        while not stop.is_set():
            step(n)
            n += 1
            delay = began + n / rate - time.monotonic()
            if delay > 0:
                stop.wait(delay)

    return run


def soak(target: faults.Target, minutes: float, rate: float, interval: float, seed: int) -> Soak:
    result = Soak(target.backend)
    ledger = result.ledger
    server = faults.Server(target)
    server.start()
    assert server.process is not None
    rng = random.Random(seed)
    stop = threading.Event()
    http = server.client()
    lock = threading.Lock()

    def write(n: int) -> None:
        content = f"soak write {n}: {sentence(rng)}"
        answer = faults._request(
            ledger, lambda: http.post("/v1/memories", json={"content": content, "type": "fact"})
        )
        if answer is not None:
            memory_id = answer.json()["memory"]["id"]
            with ledger.lock:
                ledger.acked[content] = memory_id
                ledger.erasable.append((memory_id, content))

    def erase(n: int) -> None:
        # Steady erasures, exports in flight or not: an erasure waits for the exports reading,
        # and no export gives up (AIMEM §5.2, docs/erasure.md).
        with ledger.lock:
            if len(ledger.erasable) < 50:
                return
            memory_id, content = ledger.erasable.pop(0)
            ledger.erasing.add(content)
        path = f"/v1/memories/{memory_id}"
        if faults._request(ledger, lambda: http.delete(path)):
            with ledger.lock:
                ledger.erasing.discard(content)
                ledger.erased.add(content)

    def read(n: int) -> None:
        if n % 2:
            faults._request(ledger, lambda: http.get("/v1/memories", params={"limit": 50}))
        else:
            faults._request(ledger, lambda: http.get("/v1/stats"))

    def bundle(n: int) -> None:
        # One of BUNDLES bundles in turn, the same bytes each time: the vault stays the size.
        turn = n % BUNDLES
        body, contents = faults._bundle("soak", turn, 10, random.Random(seed * 1000 + turn))
        answer = faults._request(
            ledger,
            lambda: http.post(
                "/v1/brain/import", content=body, headers={"content-type": "application/json"}
            ),
        )
        with ledger.lock:
            summary = {} if answer is None else answer.json()
            if summary.get("inserted", 0) + summary.get("skipped", 0) == 10:
                ledger.acked.update(dict.fromkeys(contents, ""))
            else:
                ledger.unacked_imports.append(contents)

    def export(n: int) -> None:
        # Any failure is an error, a 503 included: no export gives up to erasures.
        started = time.monotonic()
        try:
            head = b""
            with http.stream("GET", "/v1/brain/export/stream") as answer:
                for chunk in answer.iter_bytes():
                    head = head or chunk[:300]
        except httpx.TransportError as exc:
            ledger.failed(f"connection {type(exc).__name__}")
            return
        if answer.is_success:
            ledger.ok(started)
            return
        how = faults.failure_kind(answer)
        ledger.failed(how, f"GET /v1/brain/export/stream: {head.decode(errors='replace')}")

    runs = [
        paced(rate, stop, write),
        paced(rate, stop, erase),
        paced(rate, stop, read),
        paced(0.5, stop, bundle),
        paced(0.1, stop, export),
    ]
    threads = [threading.Thread(target=run, daemon=True) for run in runs]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    seen = 0
    try:
        while time.monotonic() - began < minutes * 60:
            time.sleep(interval)
            with ledger.lock, lock:
                window = ledger.latencies[seen:]
                seen = len(ledger.latencies)
                errors = sum(ledger.failures.values())
            sample = Sample(
                time.monotonic() - began,
                rss_mb(server.process.pid),
                percentile(window, 0.99) * 1000,
                len(window),
                errors,
                cpu_seconds(server.process.pid),
                os.getloadavg()[0],
            )
            result.samples.append(sample)
            print(
                f"{target.backend:8} {sample.at:7.0f} s  RSS {sample.rss_mb:7.1f} MB  "
                f"p99 {sample.p99_ms:7.1f} ms  {sample.requests:5} requests  "
                f"{sample.errors} errors  server CPU {sample.cpu_s:6.1f} s  "
                f"load {sample.load:4.2f}",
                flush=True,
            )
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        http.close()
        server.stop()
    result.verdict = faults.check(target, ledger)
    return result


def summary(result: Soak) -> tuple[str, bool]:
    samples = result.samples
    warm = samples[max(1, len(samples) // 5) :] or samples
    quarter = max(1, len(samples) // 4)
    rss_start, rss_end = warm[0].rss_mb, statistics.median(s.rss_mb for s in samples[-quarter:])
    p99_first = statistics.median(s.p99_ms for s in samples[:quarter])
    p99_last = statistics.median(s.p99_ms for s in samples[-quarter:])
    errors = sum(result.ledger.failures.values())
    cpu, wall = samples[-1].cpu_s - samples[0].cpu_s, samples[-1].at - samples[0].at
    load_mean = statistics.mean(s.load for s in samples)
    load_max = max(s.load for s in samples)
    verdict = result.verdict
    assert verdict is not None
    line = (
        f"{result.backend}: {len(result.ledger.acked)} acknowledged writes, "
        f"{result.ledger.requests} requests, {errors} errors {dict(result.ledger.failures)}, "
        "RSS after warm-up "
        f"{rss_start:.1f} MB → end {rss_end:.1f} MB ({(rss_end / rss_start - 1) * 100:+.1f} %); "
        f"p99 first quarter {p99_first:.1f} ms, last quarter {p99_last:.1f} ms "
        f"(×{p99_last / p99_first:.2f}); server CPU {cpu:.0f} s over {wall:.0f} s "
        f"({cpu / wall * 100:.0f} % of one core), load average {load_mean:.2f} "
        f"(max {load_max:.2f}) on {os.cpu_count()} cores; checks: {verdict.describe()}"
    )
    for how, example in result.ledger.examples.items():
        line += f"\n  first {how}: {example}"
    return line, errors == 0 and verdict.ok


def plot(results: list[Soak], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (rss_axis, p99_axis) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for result in results:
        minutes = [s.at / 60 for s in result.samples]
        rss_axis.plot(minutes, [s.rss_mb for s in result.samples], label=result.backend)
        p99_axis.plot(minutes, [s.p99_ms for s in result.samples], label=result.backend)
    rss_axis.set_ylabel("server RSS (MB)")
    rss_axis.set_ylim(bottom=0)
    p99_axis.set_ylabel("p99 per interval (ms)")
    p99_axis.set_ylim(bottom=0)
    p99_axis.set_xlabel("minutes")
    rss_axis.legend()
    rss_axis.set_title("memvault serve under bounded mixed load")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="per backend")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument(
        "--rate", type=float, default=5.0, help="writes (and erasures, and reads) per second"
    )
    parser.add_argument("--interval", type=float, default=10.0, help="seconds per sample")
    parser.add_argument("--png", type=Path, default=Path("soak.png"))
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    backends = ("sqlite", "postgres") if args.backend == "both" else (args.backend,)
    work = Path(tempfile.mkdtemp(prefix="memvault-soak-"))
    results = []
    try:
        for backend in backends:
            make = faults.sqlite_target if backend == "sqlite" else faults.postgres_target
            results.append(
                soak(make(work / backend), args.minutes, args.rate, args.interval, args.seed)
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    plot(results, args.png)
    ok = True
    for result in results:
        line, good = summary(result)
        ok = ok and good
        print(line)
    print(f"curves: {args.png}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
