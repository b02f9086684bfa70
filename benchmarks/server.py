"""A bounded load test of `memvault serve` on loopback (issue #18).

```sh
.venv/bin/python benchmarks/server.py                  # 60 s
.venv/bin/python benchmarks/server.py --seconds 5      # a slice (the test suite runs one)
.venv/bin/python benchmarks/server.py --backend both   # SQLite, then PostgreSQL, side by side
.venv/bin/python benchmarks/server.py --database-url postgresql://app@db/memvault
```

A fresh server with one tenant is served by the real command (its own process, background
embedding off): a server home of SQLite vault files (`--backend sqlite`, `memvault serve
--server-home`), or a PostgreSQL database (`--backend postgres`: Debian's PostgreSQL 15 started
in a temporary directory by the test harness, tests/pgkit.py, connected as the application
role; or the database of `--database-url`; `memvault serve` with MEMVAULT_DATABASE_URL).
With `--backend both` it runs on each and prints their figures side by side. For `--seconds`
the clients, each a thread with its own connection, run at once:

- `write`: `POST /v1/memories`, a new memory each time (`--writers`, default 4);
- `recall`: `GET /v1/recall?q=…&k=10` over what is there (`--readers`, default 4);
- `import`: `POST /v1/brain/import`, an AIMEM bundle of `--chunks` new chunks (1 client);
- `export`: `GET /v1/brain/export/stream`, the NDJSON stream read to its end (1 client).

A backend that keeps no recall index answers recall with an error: the readers are left out
there, and the run says so. Then it counts every acknowledged write back: each memory a 201
answered and each chunk an import reported inserted must be in the vault (`GET /v1/memories`,
every page). It prints, per endpoint, requests, errors, requests/s and latency p50/p95/p99, the
lost writes, and as a peer measured in the same run the same recalls and writes made through
the library in this process (`Vault.recall`, `Vault.add` on a vault of its own): the ratio is
what HTTP, the thread pool and the process boundary add. Exit status 1 when any request failed
or any acknowledged write is missing.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the AIMEM test kit builds the bundles

MEMVAULT_SERVE = (sys.executable, "-m", "memvault", "serve")
SERVER_KEY = "benchmark-server-key-" + "0" * 43
WORDS = (
    "lisbon",
    "oslo",
    "tea",
    "coffee",
    "marathon",
    "piano",
    "garden",
    "river",
    "python",
    "rust",
    "jazz",
    "bicycle",
    "kitchen",
    "mountain",
    "library",
    "harbour",
    "violin",
    "winter",
    "summer",
    "project",
    "deadline",
    "meeting",
    "sister",
    "doctor",
    "recipe",
    "holiday",
    "train",
    "museum",
    "festival",
)


@dataclass
class Tally:
    """One endpoint's requests: latencies (seconds) of the answered ones, errors."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str | None = None


@dataclass
class Load:
    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    written: list[str] = field(default_factory=list)  # contents acknowledged
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, name: str, started: float, error: str | None = None) -> None:
        elapsed = time.perf_counter() - started
        with self.lock:
            tally = self.tallies[name]
            if error is None:
                tally.latencies.append(elapsed)
            else:
                tally.errors += 1
                tally.first_error = tally.first_error or error

    def acknowledge(self, contents: list[str]) -> None:
        with self.lock:
            self.written.extend(contents)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def sentence(rng: random.Random, words: int = 6) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


@contextmanager
def postgres_database() -> Iterator[str]:
    """A throwaway PostgreSQL 15 (the test harness: initdb in a temporary directory, a free
    loopback port), its database URL as the application role; stopped at the end."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    import pgkit

    server = pgkit.start_server("bench", pgkit.DEBIAN_BIN, vector=False)
    try:
        yield server.app_url
    finally:
        server.stop()


@contextmanager
def served(home: Path, database_url: str | None = None) -> Iterator[tuple[str, str]]:
    """A server with tenant "bench" — a server home, or the tenants of the database at
    `database_url` — served by `memvault serve`: (base URL, API key)."""
    from memvault.tenancy import Tenants

    if database_url is None:
        tenants = Tenants.open(home, SERVER_KEY)
        where = ["--server-home", str(home)]
        env = {**os.environ, "MEMVAULT_SERVER_KEY": SERVER_KEY}
    else:
        tenants = Tenants.database(database_url, SERVER_KEY)
        where = []
        env = {**os.environ, "MEMVAULT_SERVER_KEY": SERVER_KEY}
        env["MEMVAULT_DATABASE_URL"] = database_url
        env.pop("MEMVAULT_SERVER_HOME", None)
    with tenants:
        _, api_key = tenants.create(f"bench-{os.getpid()}-{int(time.time() * 1000) % 10**8}")
    port = free_port()
    process = subprocess.Popen(
        [*MEMVAULT_SERVE, *where, "--port", str(port), "--no-embed"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"memvault serve exited: {process.communicate()[1]}")
            try:
                httpx.get(url + "/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise SystemExit("memvault serve did not start in 60 s") from None
                time.sleep(0.1)
        yield url, api_key
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        if "Traceback" in (err or ""):
            print(err, file=sys.stderr)


def client(url: str, api_key: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {api_key}"}, timeout=120)


def run_client(
    name: str,
    load: Load,
    until: float,
    step: Callable[[httpx.Client, int], list[str] | None],
    url: str,
    api_key: str,
) -> None:
    with client(url, api_key) as http:
        n = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                acknowledged = step(http, n)
            except Exception as exc:  # a failed request is counted, never fatal
                load.record(name, started, f"{type(exc).__name__}: {exc}"[:300])
            else:
                load.record(name, started)
                if acknowledged:
                    load.acknowledge(acknowledged)
            n += 1


def expect(response: httpx.Response, *statuses: int) -> httpx.Response:
    if response.status_code not in statuses:
        raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
    return response


def writer(index: int, rng: random.Random) -> Callable[[httpx.Client, int], list[str]]:
    def step(http: httpx.Client, n: int) -> list[str]:
        content = f"write {index}-{n}: {sentence(rng)}"
        expect(http.post("/v1/memories", json={"content": content, "type": "fact"}), 201)
        return [content]

    return step


def reader(rng: random.Random) -> Callable[[httpx.Client, int], None]:
    def step(http: httpx.Client, n: int) -> None:
        response = http.get("/v1/recall", params={"q": sentence(rng, 3), "k": 10, "mode": "fts"})
        expect(response, 200).json()

    return step


def sentence_bundle(
    producer: str, local: str, text: str, chunks: int, rng: random.Random
) -> tuple[bytes, list[str]]:
    """An AIMEM bundle of `chunks` fact chunks of random sentences — ids
    ``urn:aimem:PRODUCER:{local}{c}``, contents ``{text}{c}: sentence`` — and their contents."""
    from aimemkit import bundle, chunk  # tests/aimemkit.py

    records = [
        chunk(f"{local}{c}", f"{text}{c}: {sentence(rng)}", producer=producer)
        for c in range(chunks)
    ]
    return orjson.dumps(bundle(records, producer=producer)), [r["content"] for r in records]


def importer(chunks: int, rng: random.Random) -> Callable[[httpx.Client, int], list[str]]:
    def step(http: httpx.Client, n: int) -> list[str]:
        body, contents = sentence_bundle("bench", f"{n}-", f"import {n}-", chunks, rng)
        response = expect(
            http.post(
                "/v1/brain/import",
                content=body,
                headers={"content-type": "application/json"},
            ),
            200,
        )
        summary = response.json()
        if summary.get("inserted") != chunks or summary.get("rejected"):
            raise RuntimeError(f"import summary: {str(summary)[:200]}")
        return contents

    return step


def exporter() -> Callable[[httpx.Client, int], None]:
    def step(http: httpx.Client, n: int) -> None:
        with http.stream("GET", "/v1/brain/export/stream") as response:
            expect(response, 200)
            lines = sum(1 for line in response.iter_lines() if line)
        if lines < 1:
            raise RuntimeError("the export stream was empty")

    return step


def held_contents(url: str, api_key: str) -> set[str]:
    """Every memory's content, read page by page."""
    found: set[str] = set()
    with client(url, api_key) as http:
        offset = 0
        while True:
            page = expect(
                http.get("/v1/memories", params={"status": "all", "limit": 1000, "offset": offset}),
                200,
            ).json()
            found.update(m["content"] for m in page["memories"])
            offset += len(page["memories"])
            if not page["memories"] or offset >= page["total"]:
                return found


def recall_kept(url: str, api_key: str) -> bool:
    """Whether the server's vaults keep a recall index (a recall answers 200)."""
    with client(url, api_key) as http:
        return http.get("/v1/recall", params={"q": "probe", "k": 1}).status_code == 200


def library_peer(
    seconds: float, rng: random.Random, work: Path, database_url: str | None, recall: bool
) -> dict[str, list[float]]:
    """The same writes and recalls through the library, one thread, on a vault of its own on
    the same backend."""
    from memvault.vault import Vault

    timings: dict[str, list[float]] = {"write": [], "recall": []}
    if database_url is None:
        vault = Vault.init(work / "peer", "benchmark passphrase", kdf_iter=2)
    else:
        from memvault.store.factory import create_database_store
        from memvault.store.serverkey import ServerKey

        key = ServerKey(SERVER_KEY.encode())
        tenant = f"peer-{os.getpid()}-{int(time.time() * 1000) % 10**8}"
        vault = Vault.create(create_database_store(database_url, tenant, server_key=key))
    with vault:
        until = time.monotonic() + seconds
        n = 0
        while time.monotonic() < until:
            started = time.perf_counter()
            vault.add(f"write peer-{n}: {sentence(rng)}", "fact")
            timings["write"].append(time.perf_counter() - started)
            if recall:
                started = time.perf_counter()
                vault.recall(sentence(rng, 3), 10, mode="fts")
                timings["recall"].append(time.perf_counter() - started)
            n += 1
    return timings


@dataclass
class Outcome:
    """One backend's run."""

    backend: str
    load: Load
    elapsed: float
    lost: list[str]
    peer: dict[str, list[float]]
    recall: bool


def run_backend(
    args: argparse.Namespace, backend: str, database_url: str | None, work: Path
) -> Outcome:
    load = Load()
    with served(work / f"home-{backend}", database_url) as (url, api_key):
        recall = recall_kept(url, api_key)
        until = time.monotonic() + args.seconds
        plan: list[tuple[str, Callable[[httpx.Client, int], Any]]] = []
        plan += [("write", writer(i, random.Random(args.seed + i))) for i in range(args.writers)]
        if recall:
            plan += [
                ("recall", reader(random.Random(args.seed + 100 + i))) for i in range(args.readers)
            ]
        plan += [("import", importer(args.chunks, random.Random(args.seed + 200)))]
        plan += [("export", exporter())]
        threads = [
            threading.Thread(target=run_client, args=(name, load, until, step, url, api_key))
            for name, step in plan
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        held = held_contents(url, api_key)
    lost = [c for c in load.written if c not in held]
    peer = library_peer(
        min(args.seconds, 10.0), random.Random(args.seed + 300), work, database_url, recall
    )
    return Outcome(backend, load, elapsed, lost, peer, recall)


def report(args: argparse.Namespace, outcome: Outcome) -> int:
    """Print one backend's figures; the number of failed requests and lost writes."""
    load, elapsed, peer = outcome.load, outcome.elapsed, outcome.peer
    print(
        f"memvault serve on loopback ({outcome.backend}), {args.seconds:g} s: {args.writers} "
        f"writers, {args.readers if outcome.recall else 0} readers, 1 importer "
        f"({args.chunks} chunks a bundle), 1 exporter"
    )
    if not outcome.recall:
        print("  recall: not kept on this backend (its route answers an error): readers off")
    print(
        f"{'endpoint':<8} {'requests':>8} {'errors':>6} {'req/s':>8} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
    )
    errors = 0
    for name in ("write", "recall", "import", "export"):
        if name == "recall" and not outcome.recall:
            continue
        tally = load.tallies[name]
        done = len(tally.latencies)
        errors += tally.errors
        print(
            f"{name:<8} {done + tally.errors:>8} {tally.errors:>6} {done / elapsed:>8.1f} "
            f"{percentile(tally.latencies, 0.50) * 1000:>8.1f} "
            f"{percentile(tally.latencies, 0.95) * 1000:>8.1f} "
            f"{percentile(tally.latencies, 0.99) * 1000:>8.1f}"
        )
        if tally.first_error:
            print(f"  first error: {tally.first_error}")
    lost = outcome.lost
    print(f"acknowledged writes: {len(load.written)}; lost writes: {len(lost)}; errors: {errors}")
    for name in ("write", "recall"):
        if not peer[name]:
            continue
        http_p50 = percentile(load.tallies[name].latencies, 0.50)
        lib_p50 = percentile(peer[name], 0.50)
        print(
            f"peer (library, one thread, same process) {name}: p50 {lib_p50 * 1000:.2f} ms; "
            f"HTTP under load / library = {http_p50 / lib_p50:.1f}x"
        )
    for content in lost[:5]:
        print(f"  lost: {content}")
    return errors + len(lost)


def side_by_side(outcomes: list[Outcome]) -> None:
    """Each endpoint's req/s and p50/p95 on every backend, and each against the first."""
    base = outcomes[0]
    print(f"\nside by side (ratios against {base.backend}, measured in this run)")
    print(
        f"{'endpoint':<8} {'backend':<10} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'p50 ratio':>10}"
    )
    for name in ("write", "recall", "import", "export"):
        for outcome in outcomes:
            if name == "recall" and not outcome.recall:
                print(f"{name:<8} {outcome.backend:<10} {'(recall not kept here)':>37}")
                continue
            lat = outcome.load.tallies[name].latencies
            base_p50 = percentile(base.load.tallies[name].latencies, 0.50)
            p50 = percentile(lat, 0.50)
            print(
                f"{name:<8} {outcome.backend:<10} {len(lat) / outcome.elapsed:>8.1f} "
                f"{p50 * 1000:>8.1f} {percentile(lat, 0.95) * 1000:>8.1f} "
                f"{p50 / base_p50 if base_p50 == base_p50 else float('nan'):>9.2f}x"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--chunks", type=int, default=200, help="chunks per imported bundle")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres", "both"),
        default="sqlite",
        help="where the tenants' vaults live (postgres: a throwaway PostgreSQL 15)",
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="serve the tenants of this PostgreSQL database (the application role) instead of "
        "starting one",
    )
    args = parser.parse_args(argv)
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    if args.database_url and args.backend == "sqlite":
        backends = ["postgres"]
    work = Path(tempfile.mkdtemp(prefix="memvault-server-bench-"))
    outcomes: list[Outcome] = []
    try:
        for backend in backends:
            if backend == "sqlite":
                outcomes.append(run_backend(args, backend, None, work))
            elif args.database_url:
                outcomes.append(run_backend(args, backend, args.database_url, work))
            else:
                with postgres_database() as url:
                    outcomes.append(run_backend(args, backend, url, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    failures = 0
    for outcome in outcomes:
        failures += report(args, outcome)
    if len(outcomes) > 1:
        side_by_side(outcomes)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
