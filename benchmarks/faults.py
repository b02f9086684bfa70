"""The fault campaign (issue #23): `memvault serve` keeps every acknowledged write through
crashes, lost database connections, full disks and hostile clients.

```sh
.venv/bin/python benchmarks/faults.py                                  # everything, both backends
.venv/bin/python benchmarks/faults.py --backend sqlite --injections 5  # a slice
.venv/bin/python benchmarks/faults.py --only kill,pg-restart           # some faults
```

All on loopback, with the real command (`python -m memvault serve`, its own process) and, for
PostgreSQL, a real server started by `tests/pgkit.py` with PostgreSQL's durable defaults
(fsync, synchronous commits). The faults:

- ``kill``: `kill -9` of the server at a random moment (seeded) while clients import AIMEM
  bundles, write memories and erase them; `--injections` times per backend (default 50). After
  each, with the server down, the vault is opened through the library and checked: every write
  a 2xx acknowledged is there (unless a 2xx erasure removed it), every acknowledged erasure is
  gone, no unacknowledged import is half there, the audit chain verifies, the engine's
  integrity check passes. Then the server is started again: its recovery time is the time
  from the restart to the first 2xx.
- ``pg-restart``: PostgreSQL restarted with `pg_ctl restart -m immediate` (a crash) under the
  same load, `--pg-restarts` times: requests in flight must fail with 503, `Retry-After` and
  `application/problem+json`, none half-applied, and the server must reconnect by itself
  (recovery: from the restart to the next 2xx write).
- ``full-disk``: `memvault import` into a vault on a filesystem too small for it, `memvault
  export` (PAM zip and AIMEM) onto one, and an AIMEM import over HTTP into a served vault on
  one: a clear error naming the full disk, the vault unchanged, no file left at the target.
  A tmpfs mounted for the run when it can be (root), else RLIMIT_FSIZE on the child.
- ``hostile``: a body trickled byte by byte (408), a body over the limit (413), 300
  connections held open, a burst of 200 bad tokens (429 after 20 failures) — while a client
  from another address is served; its p99 alone and under attack are printed side by side.
- ``two-writers``: the server writing and `memvault add` / `memvault import` on the same
  SQLite vault at once: each completes, or waits and says why; nothing lost.

It prints one table (fault, backend, injections, acknowledged writes, writes lost, requests
failed and how, recovery time) and exits 1 when any acknowledged write is lost, anything is
half-applied, a check fails or a request failed in a way its fault does not allow.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from diskkit import small_filesystem  # noqa: E402  (tests/diskkit.py)
from server import free_port, percentile, sentence, sentence_bundle  # noqa: E402  (benchmarks/server.py)

PASSPHRASE = "fault campaign passphrase"
MEMVAULT = (sys.executable, "-m", "memvault")
PROBLEM = "application/problem+json"
FAULTS = ("kill", "pg-restart", "full-disk", "hostile", "two-writers")
#: Seconds within which the server must answer a 2xx after PostgreSQL restarted (a hang bound:
#: a restart itself takes a few seconds, crash recovery included).
RECOVERY_BOUND = 30.0


# -- what a vault is served from ------------------------------------------------------------


@dataclass
class Target:
    """A vault to serve: the server's environment and how to open it through the library."""

    backend: str
    home: Path  # a personal vault's home (on PostgreSQL: where the local token is kept)
    env: dict[str, str]
    open_vault: Callable[[], Any]
    pg: Any = None  # the pgkit server, on PostgreSQL


def _base_env() -> dict[str, str]:
    drop = ("MEMVAULT_DATABASE_URL", "MEMVAULT_TENANT", "MEMVAULT_HOME", "MEMVAULT_SERVER_HOME")
    return {k: v for k, v in os.environ.items() if k not in drop}


def sqlite_target(work: Path) -> Target:
    from memvault.vault import Vault

    home = work / "vault"
    Vault.init(home, PASSPHRASE, kdf_iter=2).close()
    env = {**_base_env(), "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": PASSPHRASE}
    return Target("sqlite", home, env, lambda: Vault.open(home, PASSPHRASE))


_postgres: Any = None


def postgres_server() -> Any:
    """One durable PostgreSQL 15 for the run (stopped at exit)."""
    global _postgres
    if _postgres is None:
        import atexit

        import pgkit

        _postgres = pgkit.start_server("faults", pgkit.DEBIAN_BIN, vector=False, durable=True)
        atexit.register(_postgres.stop)
    return _postgres


def postgres_target(work: Path) -> Target:
    import pgkit
    from memvault.store.postgres import PostgresStore
    from memvault.store.serverkey import ServerKey
    from memvault.vault import Vault

    pg = postgres_server()
    tenant = pgkit.new_tenant()
    key = ServerKey.parse(pgkit.SERVER_KEY, "faults")
    Vault.create(PostgresStore.create(pg.app_url, tenant, server_key=key)).close()
    home = work / "pg-home"
    env = {
        **_base_env(),
        "MEMVAULT_HOME": str(home),
        "MEMVAULT_DATABASE_URL": pg.app_url,
        "MEMVAULT_TENANT": tenant,
        "MEMVAULT_SERVER_KEY": pgkit.SERVER_KEY,
    }
    return Target(
        "postgres",
        home,
        env,
        lambda: Vault(PostgresStore.open(pg.app_url, tenant, server_key=key, pool_size=2)),
        pg,
    )


class Server:
    """`memvault serve` on a free loopback port, in its own process."""

    def __init__(self, target: Target, *args: str) -> None:
        self.target = target
        self.args = args
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.token = ""

    def start(self, timeout: float = 60.0) -> float:
        """Start it; the seconds until it answered an authenticated request with 2xx."""
        from memvault.tenancy.localtoken import local_token_path

        started = time.monotonic()
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (read when it fails)
        self.process = subprocess.Popen(
            [*MEMVAULT, "serve", "--port", str(self.port), "--no-embed", *self.args],
            env=self.target.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        token_file = local_token_path(self.target.home)
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise SystemExit(
                    f"memvault serve exited with {self.process.returncode}: "
                    + self.log.read().decode(errors="replace")[-2000:]
                )
            if token_file.is_file():
                self.token = token_file.read_text().strip()
                with contextlib.suppress(httpx.TransportError):
                    answer = httpx.get(
                        self.url + "/v1/stats", headers=self.auth(), timeout=2, trust_env=False
                    )
                    if answer.status_code == 200:
                        return time.monotonic() - started
            time.sleep(0.02)
        raise SystemExit(f"memvault serve did not answer in {timeout:.0f} s")

    def log_tail(self, chars: int = 3000) -> str:
        """The end of what the server wrote to stderr (its log)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-chars:]

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self, local_address: str | None = None) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=local_address)
        return httpx.Client(base_url=self.url, headers=self.auth(), timeout=60, transport=transport)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)


# -- the load, and what it was told ----------------------------------------------------------


@dataclass
class Ledger:
    """What the clients sent and what the server acknowledged."""

    acked: dict[str, str] = field(default_factory=dict)  # content → memory id ("" if imported)
    erased: set[str] = field(default_factory=set)  # erasures a 2xx acknowledged
    erasing: set[str] = field(default_factory=set)  # erasures sent, never acknowledged
    unacked_imports: list[list[str]] = field(default_factory=list)
    erasable: list[tuple[str, str]] = field(default_factory=list)  # (id, content)
    failures: Counter[str] = field(default_factory=Counter)
    #: The first answer of each kind of failure, for the report.
    examples: dict[str, str] = field(default_factory=dict)
    requests: int = 0
    retried: int = 0
    last_ok: float = 0.0
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def failed(self, how: str, example: str = "") -> None:
        with self.lock:
            self.requests += 1
            self.failures[how] += 1
            self.examples.setdefault(how, example)
        if how.startswith("connection"):
            time.sleep(0.05)  # the server is down: do not spin

    def ok(self, started: float) -> None:
        now = time.monotonic()
        with self.lock:
            self.requests += 1
            self.last_ok = now
            self.latencies.append(now - started)


def failure_kind(answer: httpx.Response) -> str:
    """How a request failed: its status, and for 503 whether it came as the fault demands."""
    status = answer.status_code
    if status == 503:
        problem = answer.headers.get("content-type", "").startswith(PROBLEM)
        retry = answer.headers.get("retry-after", "").isdigit()
        return "503 problem+Retry-After" if problem and retry else "503 malformed"
    return str(status)


def _bundle(label: str, n: int, chunks: int, rng: random.Random) -> tuple[bytes, list[str]]:
    return sentence_bundle("faults", f"{label}-{n}-", f"{label} import {n}-", chunks, rng)


def _request(ledger: Ledger, send: Callable[[], httpx.Response]) -> httpx.Response | None:
    started = time.monotonic()
    try:
        answer = send()
    except httpx.TransportError as exc:
        ledger.failed(f"connection {type(exc).__name__}", str(exc))
        return None
    if answer.is_success:
        ledger.ok(started)
        return answer
    ledger.failed(
        failure_kind(answer),
        f"{answer.request.method} {answer.request.url.path}: {answer.text[:300]}",
    )
    return None


def writer(server: Server, ledger: Ledger, label: str, rng: random.Random) -> Callable[[], None]:
    def step(http: httpx.Client, n: int) -> None:
        content = f"{label} write {n}: {sentence(rng)}"
        answer = _request(
            ledger, lambda: http.post("/v1/memories", json={"content": content, "type": "fact"})
        )
        if answer is not None:
            memory_id = answer.json()["memory"]["id"]
            with ledger.lock:
                ledger.acked[content] = memory_id
                ledger.erasable.append((memory_id, content))

    return _loop(server, step)


def importer(
    server: Server, ledger: Ledger, label: str, rng: random.Random, chunks: int
) -> Callable[[], None]:
    def step(http: httpx.Client, n: int) -> None:
        body, contents = _bundle(label, n, chunks, rng)
        answer = _request(
            ledger,
            lambda: http.post(
                "/v1/brain/import", content=body, headers={"content-type": "application/json"}
            ),
        )
        summary = None if answer is None else answer.json()
        with ledger.lock:
            if summary is not None and summary.get("inserted") == chunks:
                ledger.acked.update(dict.fromkeys(contents, ""))
            else:
                ledger.unacked_imports.append(contents)

    return _loop(server, step)


def eraser(server: Server, ledger: Ledger) -> Callable[[], None]:
    def step(http: httpx.Client, n: int) -> None:
        with ledger.lock:
            if not ledger.erasable:
                victim = None
            else:
                victim = ledger.erasable.pop(0)
                ledger.erasing.add(victim[1])
        if victim is None:
            time.sleep(0.01)
            return
        memory_id, content = victim
        answer = _request(ledger, lambda: http.delete(f"/v1/memories/{memory_id}"))
        if answer is not None:
            with ledger.lock:
                ledger.erasing.discard(content)
                ledger.erased.add(content)

    return _loop(server, step)


_stop = threading.Event()


def _loop(server: Server, step: Callable[[httpx.Client, int], None]) -> Callable[[], None]:
    def run() -> None:
        with server.client() as http:
            n = 0
            while not _stop.is_set():
                step(http, n)
                n += 1

    return run


@contextlib.contextmanager
def load(
    server: Server, ledger: Ledger, label: str, rng: random.Random, *, chunks: int = 20
) -> Iterator[None]:
    """Two writers, an importer and an eraser against `server` until the block ends."""
    _stop.clear()
    runs = [
        writer(server, ledger, f"{label}a", random.Random(rng.random())),
        writer(server, ledger, f"{label}b", random.Random(rng.random())),
        importer(server, ledger, label, random.Random(rng.random()), chunks),
        eraser(server, ledger),
    ]
    threads = [threading.Thread(target=run, daemon=True) for run in runs]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        _stop.set()
        for thread in threads:
            thread.join(60)


# -- checking a vault against the ledger -----------------------------------------------------


@dataclass
class Verdict:
    lost: list[str]
    resurrected: list[str]
    half_imports: int
    audit_ok: bool
    integrity: list[str]

    @property
    def ok(self) -> bool:
        return (
            not self.lost
            and not self.resurrected
            and not self.half_imports
            and self.audit_ok
            and not self.integrity
        )

    def describe(self) -> str:
        parts = []
        if self.lost:
            parts.append(f"{len(self.lost)} lost (e.g. {self.lost[0]!r})")
        if self.resurrected:
            parts.append(f"{len(self.resurrected)} erased writes back")
        if self.half_imports:
            parts.append(f"{self.half_imports} half-applied imports")
        if not self.audit_ok:
            parts.append("audit chain does not verify")
        if self.integrity:
            parts.append(f"integrity: {self.integrity[0]}")
        return "; ".join(parts) or "ok"


def contents_of(vault: Any) -> set[str]:
    from memvault.store.base import MemoryQuery

    return {m.content for m in vault.list(MemoryQuery(statuses=None, limit=None)).items}


def check(target: Target, ledger: Ledger) -> Verdict:
    with target.open_vault() as vault:
        held = contents_of(vault)
        audit = vault.verify_audit()
        integrity = vault.check_integrity()
    with ledger.lock:
        lost = [
            c
            for c in ledger.acked
            if c not in held and c not in ledger.erased and c not in ledger.erasing
        ]
        resurrected = [c for c in ledger.erased if c in held]
        half = sum(
            1 for imp in ledger.unacked_imports if 0 < sum(c in held for c in imp) < len(imp)
        )
    return Verdict(lost, resurrected, half, audit.ok, integrity)


# -- the table -------------------------------------------------------------------------------


@dataclass
class Row:
    fault: str
    backend: str
    injections: int
    acknowledged: int
    lost: int
    failed: str
    recovery: str
    ok: bool
    note: str = ""


def _how(failures: Counter[str]) -> str:
    if not failures:
        return "0"
    total = sum(failures.values())
    return f"{total}: " + ", ".join(f"{n} {how}" for how, n in failures.most_common())


def _seconds(values: list[float]) -> str:
    if not values:
        return "—"
    return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"


def print_table(rows: list[Row]) -> None:
    head = (
        "fault",
        "backend",
        "injections",
        "acknowledged writes",
        "writes lost",
        "requests failed (how)",
        "recovery",
    )
    cells = [
        (
            r.fault,
            r.backend,
            str(r.injections),
            str(r.acknowledged),
            str(r.lost),
            r.failed,
            r.recovery,
        )
        for r in rows
    ]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(head)]
    line = " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))
    print(line)
    print("-+-".join("-" * w for w in widths))
    for c in cells:
        print(" | ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)))
    for r in rows:
        if r.note:
            print(f"  {r.fault} ({r.backend}): {r.note}")


# -- kill -9 ---------------------------------------------------------------------------------


def fault_kill(target: Target, injections: int, rng: random.Random) -> Row:
    ledger = Ledger()
    server = Server(target)
    recoveries: list[float] = []
    problems: list[str] = []
    for i in range(injections):
        recoveries.append(server.start())
        with load(server, ledger, f"k{i}", rng):
            began = time.monotonic()
            while ledger.last_ok <= began and time.monotonic() - began < 30:
                time.sleep(0.01)  # the load is running: answers are coming
            time.sleep(rng.uniform(0.0, 1.0))
            server.kill()
        verdict = check(target, ledger)
        if not verdict.ok:
            problems.append(f"injection {i}: {verdict.describe()}")
    # Transport errors are what a killed server gives; a 5xx would be a bug.
    bad = {k: v for k, v in ledger.failures.items() if not k.startswith("connection")}
    ok = not problems and not bad
    final = check(target, ledger)
    return Row(
        "kill -9 serve",
        target.backend,
        injections,
        len(ledger.acked),
        len(final.lost),
        _how(ledger.failures),
        _seconds(recoveries),
        ok and final.ok,
        "; ".join(problems[:3]) + (f"; unexpected failures {bad}" if bad else ""),
    )


# -- PostgreSQL restarted under load ---------------------------------------------------------


def restart_postgres(pg: Any) -> None:
    log = str(pg.root / "server.log")
    pg_ctl = str(pg.bin_dir / "pg_ctl")
    args = [pg_ctl, "-D", str(pg.data), "-l", log, "-m", "immediate", "-w", "restart"]
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    # No pipes: the postmaster it starts would hold them open.
    subprocess.run(
        args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120
    )


def fault_pg_restart(target: Target, restarts: int, rng: random.Random) -> Row:
    ledger = Ledger()
    server = Server(target)
    server.start()
    recoveries: list[float] = []
    problems: list[str] = []
    try:
        with load(server, ledger, "r", rng):
            for j in range(restarts):
                time.sleep(rng.uniform(0.5, 1.5))
                began = time.monotonic()
                restart_postgres(target.pg)
                while ledger.last_ok <= began:
                    if time.monotonic() - began > RECOVERY_BOUND:
                        problems.append(f"restart {j}: no 2xx within {RECOVERY_BOUND:.0f} s")
                        break
                    time.sleep(0.01)
                else:
                    recoveries.append(ledger.last_ok - began)
            time.sleep(0.5)
    finally:
        server.stop()
    verdict = check(target, ledger)
    if not verdict.ok:
        problems.append(verdict.describe())
    bad = {k: v for k, v in ledger.failures.items() if k != "503 problem+Retry-After"}
    if bad and os.environ.get("FAULTS_SHOW_LOG"):
        print(server.log_tail(20000), file=sys.stderr)
    return Row(
        "pg_ctl restart -m immediate",
        target.backend,
        restarts,
        len(ledger.acked),
        len(verdict.lost),
        _how(ledger.failures),
        _seconds(recoveries),
        not problems and not bad,
        "; ".join(problems[:3]) + (f"; unexpected failures {dict(bad)}" if bad else ""),
    )


# -- a full disk -----------------------------------------------------------------------------


def _limited(limit: int | None) -> Callable[[], None] | None:
    if limit is None:
        return None

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _cli(
    env: dict[str, str], *args: str, fsize: int | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MEMVAULT, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_limited(fsize),
    )


def _fingerprint(open_vault: Callable[[], Any]) -> tuple[int, str | None, bool, int]:
    with open_vault() as vault:
        report = vault.verify_audit()
        return len(contents_of(vault)), report.head, report.ok, len(vault.check_integrity())


def fault_full_disk(work: Path, rng: random.Random, memories: int) -> Row:
    from memvault.vault import Vault

    outcomes: list[str] = []
    problems: list[str] = []
    messages: list[str] = []
    # A vault with enough in it that its exports are larger than the small filesystem.
    big = work / "full-big"
    with Vault.init(big, PASSPHRASE, kdf_iter=2) as vault:
        for n in range(memories):
            vault.add(f"full-disk fact {n}: {sentence(rng, 12)}", "fact")
    env = {**_base_env(), "MEMVAULT_HOME": str(big), "MEMVAULT_PASSPHRASE": PASSPHRASE}
    bundle, _ = _bundle("fd", 0, 8000, rng)
    bundle_file = work / "full-import.aimem.json"
    bundle_file.write_bytes(bundle)

    def opener(home: Path) -> Callable[[], Any]:
        return lambda: Vault.open(home, PASSPHRASE)

    # Exports onto a small filesystem.
    for fmt, name in (("pam", "export.zip"), ("aimem", "export.aimem.json")):
        before = _fingerprint(opener(big))
        tiny = work / f"tiny-{fmt}"
        with small_filesystem(tiny, 128) as mounted:
            args = ["export", "-o", str(tiny / name)]
            if fmt == "aimem":
                args += ["--format", "aimem"]
            run = _cli(env, *args, fsize=None if mounted else 128 * 1024)
            left = sorted(p.name for p in tiny.iterdir())
        after = _fingerprint(opener(big))
        outcomes.append(_judge(messages, f"export {fmt}", run, left, before, after, problems))
    # An import into a vault on a small filesystem, by the command line and over HTTP.
    for how in ("cli", "http"):
        tiny = work / f"tiny-import-{how}"
        with small_filesystem(tiny, 4096) as mounted:
            home = tiny / "vault"
            with Vault.init(home, PASSPHRASE, kdf_iter=2) as vault:
                vault.add("already here", "fact")
            before = _fingerprint(opener(home))
            fsize = None if mounted else (home / "vault.db").stat().st_size + 256 * 1024
            if how == "cli":
                run = _cli(
                    {**env, "MEMVAULT_HOME": str(home)}, "import", str(bundle_file), fsize=fsize
                )
            else:
                run = _import_over_http(home, bundle, fsize)
            left = sorted(
                p.name
                for p in home.iterdir()
                if not p.name.startswith("vault") and p.name != "local-token"
            )
            after = _fingerprint(opener(home))
        outcomes.append(_judge(messages, f"import {how}", run, left, before, after, problems))
    return Row(
        "full disk (tmpfs)" if os.geteuid() == 0 else "full disk (RLIMIT_FSIZE)",
        "sqlite",
        len(outcomes),
        0,
        0,
        "; ".join(outcomes),
        "—",
        not problems,
        "\n    ".join(["what each said:", *messages, *problems]),
    )


def _import_over_http(
    home: Path, bundle: bytes, fsize: int | None
) -> subprocess.CompletedProcess[str]:
    """Serve the vault on the small filesystem and POST the bundle: the answer as a run."""
    env = {**_base_env(), "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": PASSPHRASE}
    target = Target("sqlite", home, env, lambda: None)
    server = Server(target)
    if fsize is not None:
        # The server itself must hit the limit: start it under RLIMIT_FSIZE too.
        old = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, old[1]))
        try:
            server.start()
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, old)
    else:
        server.start()
    try:
        with server.client() as http:
            answer = http.post(
                "/v1/brain/import", content=bundle, headers={"content-type": "application/json"}
            )
    finally:
        server.stop()
    detail = (
        answer.json().get("detail", "")
        if answer.headers.get("content-type", "").startswith(PROBLEM)
        else answer.text[:200]
    )
    return subprocess.CompletedProcess(
        [], answer.status_code, "", f"HTTP {answer.status_code}: {detail}"
    )


def _judge(
    messages: list[str],
    what: str,
    run: subprocess.CompletedProcess[str],
    left: list[str],
    before: tuple[int, str | None, bool, int],
    after: tuple[int, str | None, bool, int],
    problems: list[str],
) -> str:
    message = (run.stderr or run.stdout).strip().splitlines()
    first = message[0] if message else ""
    clear = "full" in first.lower() or "no space" in first.lower() or "too large" in first.lower()
    if run.returncode == 0:
        problems.append(f"{what}: succeeded though the disk is full")
    if "Traceback" in run.stderr:
        problems.append(f"{what}: a traceback")
    if not clear:
        problems.append(f"{what}: the error does not say the disk is full: {first[:160]!r}")
    if before != after or not after[2] or after[3]:
        problems.append(f"{what}: the vault changed or fails its checks ({before} → {after})")
    if what.startswith("export") and left:
        problems.append(f"{what}: left {left}")
    if what.startswith("import") and left:
        problems.append(f"{what}: left {left} in the home")
    status = "HTTP " + first[5:8] if first.startswith("HTTP") else f"exit {run.returncode}"
    messages.append(f"{what}: {first[:150]}")
    return f"{what} {status}"


# -- hostile clients -------------------------------------------------------------------------


def _raw(port: int, source: str = "127.0.0.4") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _status_of(sock: socket.socket, timeout: float) -> int:
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(OSError):
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def fault_hostile(target: Target, seconds: float) -> Row:
    server = Server(target, "--max-body", str(1024 * 1024), "--body-timeout", "2")
    server.start()
    answers: Counter[str] = Counter()
    problems: list[str] = []
    try:
        alone = _served_latencies(server, seconds)
        stop = threading.Event()
        held: list[socket.socket] = []

        def attack() -> None:
            # A body trickled byte by byte: 408 once its grace is over.
            sock = _raw(server.port)
            sock.sendall(
                b"POST /v1/memories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + server.token.encode()
                + b"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
            )
            began = time.monotonic()
            sock.setblocking(False)
            status = 0
            while time.monotonic() - began < 30 and not stop.is_set():
                with contextlib.suppress(BlockingIOError, OSError):
                    sock.send(b" ")
                with contextlib.suppress(BlockingIOError, OSError):
                    data = sock.recv(4096)
                    if data:
                        status = int(data.split(b" ", 2)[1])
                        break
                time.sleep(0.1)
            sock.close()
            answers[f"trickled body → {status or 'no answer'}"] += 1
            # A body over the limit: 413.
            with server.client("127.0.0.4") as http:
                big = http.post(
                    "/v1/memories",
                    content=b"x" * (2 * 1024 * 1024),
                    headers={"content-type": "application/json"},
                )
                answers[f"2 MiB body → {big.status_code}"] += 1
            # A burst of bad tokens from one address: 401, then 429 with Retry-After.
            with httpx.Client(
                base_url=server.url,
                transport=httpx.HTTPTransport(local_address="127.0.0.3"),
                timeout=30,
            ) as http:
                for n in range(200):
                    bad = http.get("/v1/stats", headers={"Authorization": f"Bearer wrong-{n}"})
                    kind = str(bad.status_code)
                    if bad.status_code == 429 and not bad.headers.get("retry-after"):
                        kind = "429 without Retry-After"
                    answers[f"bad token → {kind}"] += 1

        def hold() -> None:
            for _ in range(300):
                with contextlib.suppress(OSError):
                    sock = _raw(server.port, "127.0.0.5")
                    sock.sendall(b"GET /v1/stats HTTP/1.1\r\nHost: x\r\n")  # never finished
                    held.append(sock)

        holder = threading.Thread(target=hold)
        attacker = threading.Thread(target=attack)
        holder.start()
        attacker.start()
        under = _served_latencies(server, max(seconds, 4.0))
        attacker.join(60)
        holder.join(60)
        stop.set()
        for sock in held:
            sock.close()
        answers[f"{len(held)} connections held open"] += 1
    finally:
        server.stop()
    expected = ("trickled body → 408", "2 MiB body → 413", "bad token → 429")
    for want in expected:
        if not any(k.startswith(want) for k in answers):
            problems.append(f"no {want!r}")
    if under.failures:
        problems.append(f"the well-behaved client failed: {dict(under.failures)}")
    if answers.get("bad token → 401", 0) > 20:
        problems.append("more than 20 bad tokens were checked")
    note = (
        f"well-behaved client p99 alone {percentile(alone.latencies, 0.99) * 1000:.1f} ms, "
        f"under attack {percentile(under.latencies, 0.99) * 1000:.1f} ms "
        f"({len(under.latencies)} requests, {sum(under.failures.values())} failed)"
    )
    return Row(
        "hostile clients",
        target.backend,
        sum(answers.values()),
        0,
        0,
        ", ".join(f"{n} {k}" for k, n in sorted(answers.items())),
        "—",
        not problems,
        note + ("; " + "; ".join(problems) if problems else ""),
    )


def _served_latencies(server: Server, seconds: float) -> Ledger:
    """A well-behaved client from 127.0.0.2 for `seconds`: writes and lists."""
    ledger = Ledger()
    until = time.monotonic() + seconds
    with server.client("127.0.0.2") as http:
        n = 0
        while time.monotonic() < until:
            if n % 2:
                _request(ledger, lambda: http.get("/v1/memories", params={"limit": 20}))
            else:
                _request(
                    ledger,
                    lambda: http.post(
                        "/v1/memories", json={"content": f"calm {time.time_ns()}", "type": "fact"}
                    ),
                )
            n += 1
    return ledger


# -- two writers on one SQLite vault ---------------------------------------------------------


def fault_two_writers(target: Target, rng: random.Random, cli_writes: int) -> Row:
    ledger = Ledger()
    server = Server(target)
    server.start()
    outcomes: Counter[str] = Counter()
    waits: list[float] = []
    problems: list[str] = []
    cli_contents: list[str] = []
    bundle, bundle_contents = _bundle("twcli", 0, 2000, rng)
    bundle_file = target.home.parent / "two-writers.aimem.json"
    bundle_file.write_bytes(bundle)
    try:
        with load(server, ledger, "tw", rng, chunks=50):
            for n in range(cli_writes + 1):
                began = time.monotonic()
                if n == cli_writes:  # one long write transaction: the server waits for it
                    run = _cli(target.env, "import", str(bundle_file))
                    contents = bundle_contents
                else:
                    contents = [f"cli write {n}: {sentence(rng)}"]
                    run = _cli(target.env, "add", contents[0], "--type", "fact")
                waits.append(time.monotonic() - began)
                if run.returncode == 0:
                    outcomes["cli ok"] += 1
                    cli_contents.extend(contents)
                elif "busy" in run.stderr and "Traceback" not in run.stderr:
                    outcomes["cli waited, then said busy"] += 1
                else:
                    problems.append(f"cli exit {run.returncode}: {run.stderr.strip()[:200]}")
    finally:
        server.stop()
    for content in cli_contents:
        ledger.acked[content] = ""
    verdict = check(target, ledger)
    if not verdict.ok:
        problems.append(verdict.describe())
    # The server may answer 503 (busy, with Retry-After) while the CLI holds the lock.
    bad = {k: v for k, v in ledger.failures.items() if k != "503 problem+Retry-After"}
    if bad:
        problems.append(f"unexpected server failures {bad}")
    return Row(
        "two writers (serve + CLI)",
        "sqlite",
        cli_writes + 1,
        len(ledger.acked),
        len(verdict.lost),
        f"server {_how(ledger.failures)}; CLI "
        + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())),
        f"CLI command {_seconds(waits)}",
        not problems,
        "; ".join(problems),
    )


# -- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--injections", type=int, default=50, help="kill -9 per backend")
    parser.add_argument("--pg-restarts", type=int, default=10)
    parser.add_argument("--only", default=",".join(FAULTS), help="comma-separated faults")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--hostile-seconds", type=float, default=3.0)
    parser.add_argument("--cli-writes", type=int, default=4)
    parser.add_argument("--full-disk-memories", type=int, default=1500)
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    unknown = only - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    backends = ("sqlite", "postgres") if args.backend == "both" else (args.backend,)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="memvault-faults-"))
    rows: list[Row] = []
    try:
        for backend in backends:
            make = sqlite_target if backend == "sqlite" else postgres_target
            if "kill" in only:
                rows.append(fault_kill(make(work / f"kill-{backend}"), args.injections, rng))
            if "pg-restart" in only and backend == "postgres":
                rows.append(fault_pg_restart(make(work / "restart"), args.pg_restarts, rng))
            if "hostile" in only:
                rows.append(fault_hostile(make(work / f"hostile-{backend}"), args.hostile_seconds))
        if "full-disk" in only and "sqlite" in backends:
            rows.append(fault_full_disk(work, rng, args.full_disk_memories))
        if "two-writers" in only and "sqlite" in backends:
            rows.append(fault_two_writers(sqlite_target(work / "two"), rng, args.cli_writes))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows)
    lost = sum(r.lost for r in rows)
    failed = [r for r in rows if not r.ok]
    print(f"acknowledged writes lost: {lost}; faults failing their checks: {len(failed)}")
    return 1 if lost or failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
