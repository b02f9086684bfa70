"""The AIMEM HTTP profile under load: import 50,000 chunks over HTTP into a real server and
export them, printing chunks/s, the time to the NDJSON stream's first byte (at 50,000 and at
10,000 chunks) and the server's peak RSS.

    .venv/bin/python benchmarks/aimem_http.py [--chunks 50000] [--small 10000]
        [--backend sqlite|postgres|both] [--database-url URL]

1. Generates (once; kept in benchmarks/data/) the bundles of benchmarks/aimem.py: every
   memory type, zones, pins, tags, edges, entities and links.
2. Starts the server as `memvault serve` runs it — `create_app` on uvicorn, one process, on
   127.0.0.1 — over a fresh server home with two tenants, and measures from the client:
   ``POST /v1/brain/import`` of each bundle (streamed upload), the same import again (§2.9:
   a no-op), ``GET /v1/brain/export/stream`` (first byte, whole stream: right after the
   import, again with nothing changed, and after one memory written with ``POST
   /v1/memories``) and ``GET /v1/brain/export``; then, into two fresh tenants, the stream's
   first byte after an import of the small bundle at once, and once the server's background
   mapping (`memvault.server.export_mapping`) reports nothing pending in ``GET /v1/stats``.
   The server's peak RSS is its VmHWM: each step prints its own peak (VmHWM reset between
   steps, `Peaks`) beside the run's so far, and the run's is printed when it ends; its CPU
   time (all threads, from /proc) per request says what the server costs when other work
   shares the machine and the wall clock measures the load.
3. The peer measured in the same run: `memvault import` of the same bundle into a local vault
   (the library without HTTP), so the ratio says what HTTP costs. With `--peer-source DIR`
   (another checkout's tree, e.g. ``git archive main``, its C extensions built or copied in),
   the same steps run first against a server of that code (``PYTHONPATH=DIR/src``), and the
   figures are printed side by side: the change measured against its base in one run.

The tenants' vaults are SQLite files in a server home (`--backend sqlite`, the default), or
stores in a PostgreSQL database (`--backend postgres`: Debian's PostgreSQL 15 started in a
temporary directory by the test harness, tests/pgkit.py, as the application role; or the
database of `--database-url`); the peer then imports into a tenant of the same database.
`--backend both` runs each and prints the figures side by side, with PostgreSQL's against
SQLite's.

Targets (issue 18): ≥ 10,000 chunks/s import, first stream byte ≤ 100 ms at 10,000 chunks,
server peak RSS ≤ 200 MiB. For scale: the AIMEM reference server imports ~1,000 chunks/s,
holds 595 MiB at 50,000 chunks and sends the stream's first byte after ~90 % of its total
time (figures measured for issue 18, not run here).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aimem import DATA, generate
from peers import fmt_bytes, fmt_ratio, run_measured

if TYPE_CHECKING:
    # The client's only: the server process (this file run with --serve) loads what
    # `memvault serve` loads, and its resident size is what is measured.
    import httpx

SERVER_KEY = "benchmark-server-key-" + "k" * 43
PASSPHRASE = "benchmark passphrase"
TIMEOUT_SECONDS = 600.0
#: Seconds between the server's rounds of background AIMEM mapping (`memvault serve`'s).
MAP_INTERVAL = 1.0


@dataclass
class Timed:
    seconds: float
    first_byte: float = 0.0
    size: int = 0
    lines: int = 0
    status: int = 200
    body: bytes = b""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def open_tenants(home: Path, database_url: str | None) -> Any:
    """The server's tenants: a server home, or the database at `database_url`."""
    from memvault.tenancy import Tenants

    if database_url is None:
        return Tenants.open(home, SERVER_KEY)
    return Tenants.database(database_url, SERVER_KEY)


def serve(home: Path, port: int, database_url: str | None = None) -> None:
    """The server process: what `memvault serve` runs, on a server home or a database."""
    import uvicorn

    from memvault.server.app import create_app
    from memvault.server.config import ServerConfig

    # The background mapping of pending AIMEM chunks, as `memvault serve` runs it (a tree
    # older than it has none: `--peer-source`).
    options: dict[str, Any] = {}
    if "map_interval" in getattr(ServerConfig, "__dataclass_fields__", {}):
        options["map_interval"] = MAP_INTERVAL
    with open_tenants(home, database_url) as tenants:
        app = create_app(ServerConfig(tenants, port=port, **options))
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def make_tenants(home: Path, names: tuple[str, ...], database_url: str | None) -> dict[str, str]:
    keys = {}
    with open_tenants(home, database_url) as tenants:
        for name in names:
            _, keys[name] = tenants.create(name)
    return keys


@contextmanager
def postgres_database() -> Iterator[str]:
    """A throwaway PostgreSQL 15 (the test harness: initdb in a temporary directory, a free
    loopback port), its database URL as the application role; stopped at the end."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import pgkit

    server = pgkit.start_server("bench", pgkit.DEBIAN_BIN, vector=False)
    try:
        yield server.app_url
    finally:
        server.stop()


def ensure_bundle(chunks: int, data: Path = DATA) -> Path:
    data.mkdir(exist_ok=True)
    path = data / f"aimem-{chunks}.aimem.json"
    if not path.exists():
        # In a child, so this process stays small (as benchmarks/aimem.py does).
        here = Path(__file__).resolve().parent
        code = (
            f"import sys; sys.path.insert(0, {str(here)!r}); from aimem import generate; "
            f"from pathlib import Path; generate(Path({str(path)!r}), {chunks})"
        )
        subprocess.run([sys.executable, "-c", code], check=True)
    return path


def _file_blocks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            yield block


def post(client: httpx.Client, key: str, path: Path) -> Timed:
    start = time.perf_counter()
    response = client.post(
        "/v1/brain/import",
        content=_file_blocks(path),
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/aimem-bundle+json",
        },
    )
    return Timed(time.perf_counter() - start, status=response.status_code, body=response.content)


def fetch(client: httpx.Client, key: str, url: str) -> Timed:
    start = time.perf_counter()
    first = 0.0
    size = lines = 0
    with client.stream("GET", url, headers={"Authorization": f"Bearer {key}"}) as response:
        for block in response.iter_raw():
            if not first:
                first = time.perf_counter() - start
            size += len(block)
            lines += block.count(b"\n")
        status = response.status_code
    return Timed(time.perf_counter() - start, first, size, lines, status)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (all its threads) so far: on a machine
    shared with other work, the wall clock measures the load; this measures the server."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss(pid: int) -> int:
    """VmHWM of a live process (bytes): its peak resident set so far."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


class Peaks:
    """The server's peak resident size step by step: VmHWM read, then reset to the present
    size (Linux: ``/proc/PID/clear_refs`` 5), so each step shows its own peak (an import's,
    a download's); the run's peak is the largest of them. Where it cannot be reset, each
    step shows the peak so far."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.run = peak_rss(pid)
        #: the resident size when the step began (its peak's baseline)
        self.start = 0
        self.resettable = self._reset()

    def _reset(self) -> bool:
        try:
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")
        except OSError:
            return False
        self.start = peak_rss(self.pid)
        return True

    def step(self) -> int:
        """The peak since the last step (bytes)."""
        peak = peak_rss(self.pid)
        self.run = max(self.run, peak)
        if self.resettable:
            self._reset()
        return peak

    def text(self) -> str:
        """This step's peak (from the size it began at) and the run's so far."""
        start = self.start
        step = self.step()
        began = f" from {fmt_bytes(start)}" if start else ""
        return f"peak RSS {fmt_bytes(step)}{began}, run {fmt_bytes(self.run)}"


def wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited before it answered")
        try:
            httpx.get(url + "/openapi.json", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer within 60 s")


def check(label: str, timed: Timed) -> None:
    if timed.status != 200:
        raise RuntimeError(f"{label}: HTTP {timed.status}: {timed.body[:500]!r}")


def run(
    chunks: int,
    small: int,
    *,
    peer: bool = True,
    data: Path = DATA,
    database_url: str | None = None,
    source: Path | None = None,
) -> dict[str, float]:
    """Run the benchmark (bundles kept in `data`) on a server home, or on the database at
    `database_url`; returns the figures (also printed). `source`: a server of the code in
    that tree (``source/src`` first on its path) instead of this one's."""
    big_bundle = ensure_bundle(chunks, data)
    small_bundle = ensure_bundle(small, data)
    work = Path(tempfile.mkdtemp(prefix="aimem-http-", dir=data))
    figures: dict[str, float] = {}
    try:
        home = work / "server"
        suffix = f"{os.getpid()}-{int(time.time() * 1000) % 10**8}"
        names = ("big", "small", "now", "mapped")
        keys = make_tenants(home, tuple(f"{n}-{suffix}" for n in names), database_url)
        for name in names:
            keys[name] = keys[f"{name}-{suffix}"]
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        argv = [sys.executable, __file__, "--serve", str(home), "--port", str(port)]
        if database_url is not None:
            argv += ["--database-url", database_url]
        server_env = None
        if source is not None:
            server_env = {**os.environ, "PYTHONPATH": str(source / "src")}
        proc = subprocess.Popen(argv, env=server_env)
        try:
            wait_ready(url, proc)
            import httpx

            peaks = Peaks(proc.pid)
            with httpx.Client(base_url=url, timeout=httpx.Timeout(TIMEOUT_SECONDS)) as client:
                backend = "sqlite" if database_url is None else "postgres"
                code = "this tree" if source is None else str(source)
                print(f"\naimem over HTTP ({sys.platform}, {os.cpu_count()} CPUs), server {url}, "
                      f"tenants on {backend}, code of {code}; server RSS at start "
                      f"{fmt_bytes(peak_rss(proc.pid))}; load average "
                      f"{os.getloadavg()[0]:.1f}")  # fmt: skip
                for label, key, bundle, n in (
                    ("big", keys["big"], big_bundle, chunks),
                    ("small", keys["small"], small_bundle, small),
                ):
                    print(f"  bundle {bundle.name}: {fmt_bytes(bundle.stat().st_size)}")
                    cpu = cpu_seconds(proc.pid)
                    load = os.getloadavg()[0]
                    imported = post(client, key, bundle)
                    cpu = cpu_seconds(proc.pid) - cpu
                    check("import", imported)
                    rate = n / imported.seconds
                    figures[f"import_{label}_chunks_per_s"] = rate
                    figures[f"import_{label}_chunks_per_cpu_s"] = n / max(cpu, 1e-3)
                    figures[f"import_{label}_load"] = (load + os.getloadavg()[0]) / 2
                    print(f"    POST /v1/brain/import           {rate:>9,.0f} chunks/s "
                          f"({imported.seconds:.2f} s; server CPU {cpu:.2f} s: "
                          f"{n / max(cpu, 1e-3):,.0f} chunks per CPU-second; "
                          f"{peaks.text()})")  # fmt: skip
                    again = post(client, key, bundle)
                    check("import again", again)
                    print(f"    POST again (§2.9 no-op)         {n / again.seconds:>9,.0f} "
                          f"chunks/s ({again.seconds:.2f} s; {peaks.text()})")  # fmt: skip
                    # The first export after the import reads the chunk bytes the import
                    # kept; the next one, with nothing changed, sends the same records again
                    # under a new envelope (its checksum known at once); one after a single
                    # memory write maps that memory and reads the rest.
                    for when in ("first", "next", "write"):
                        if when == "write":
                            added = client.post(
                                "/v1/memories",
                                json={"content": f"one more memory {label}", "type": "fact"},
                                headers={"Authorization": f"Bearer {key}"},
                            )
                            if added.status_code not in (200, 201):
                                raise RuntimeError(f"memory write: HTTP {added.status_code}")
                        cpu = cpu_seconds(proc.pid)
                        stream = fetch(client, key, "/v1/brain/export/stream")
                        cpu = cpu_seconds(proc.pid) - cpu
                        check("stream", stream)
                        suffix = {"first": "_cold", "next": "", "write": "_after_write"}[when]
                        figures[f"first_byte_{label}{suffix}_ms"] = stream.first_byte * 1000
                        figures[f"stream_{label}{suffix}_s"] = stream.seconds
                        print(f"    GET /v1/brain/export/stream ({when + ')':<6} first byte "
                              f"{stream.first_byte * 1000:>7,.0f} ms, all {stream.seconds:.2f} s "
                              f"({stream.lines - 1:,} records, {fmt_bytes(stream.size)}; first "
                              f"byte at {100 * stream.first_byte / stream.seconds:.0f} % of "
                              f"the total; server CPU {cpu:.2f} s; "
                              f"{peaks.text()})")  # fmt: skip
                    whole = fetch(client, key, "/v1/brain/export")
                    check("export", whole)
                    figures[f"export_{label}_s"] = whole.seconds
                    print(f"    GET /v1/brain/export            {n / whole.seconds:>9,.0f} "
                          f"chunks/s ({whole.seconds:.2f} s, {fmt_bytes(whole.size)}; "
                          f"{peaks.text()})")  # fmt: skip
                after_import(client, peaks, keys, small_bundle, small, figures)
            peaks.step()
            rss = peaks.run
            figures["server_peak_rss_mib"] = rss / (1 << 20)
            print(f"  server peak RSS (VmHWM): {fmt_bytes(rss)}")
        finally:
            proc.terminate()
            proc.wait(30)
        if peer:
            vault_home = work / "vault"
            memvault = str(Path(sys.executable).with_name("memvault"))
            env = {**os.environ, "MEMVAULT_PASSPHRASE": PASSPHRASE}
            if database_url is not None:  # a tenant of the same database
                env.update(
                    MEMVAULT_DATABASE_URL=database_url,
                    MEMVAULT_TENANT=f"peer-{suffix}",
                    MEMVAULT_SERVER_KEY=SERVER_KEY,
                )
            subprocess.run(
                [memvault, "init", "--home", str(vault_home)], env=env, check=True,
                capture_output=True,
            )  # fmt: skip
            local = run_measured(
                [memvault, "import", "--home", str(vault_home), str(big_bundle)], env=env
            )
            if local.ok:
                peer_rate = chunks / local.seconds
                figures["peer_cli_import_chunks_per_s"] = peer_rate
                ours = chunks / figures["import_big_chunks_per_s"]
                print(f"  peer: memvault import (no HTTP)  {peer_rate:>9,.0f} chunks/s; HTTP "
                      f"import time vs the CLI's: {fmt_ratio(local.seconds, ours)}")  # fmt: skip
            else:
                print(f"  peer: memvault import failed: {local.stderr[-400:]}")
        print(
            "  targets: ≥ 10,000 chunks/s import, first stream byte ≤ 100 ms at 10,000 chunks, "
            "≤ 200 MiB; the reference server: ~1,000 chunks/s, 595 MiB, first byte at ~90 %"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def after_import(
    client: httpx.Client,
    peaks: Peaks,
    keys: dict[str, str],
    bundle: Path,
    n: int,
    figures: dict[str, float],
) -> None:
    """The stream's first byte right after an import, two ways, each into a fresh tenant:
    at once (the download maps what the import left pending itself), and once the server's
    background mapping reports nothing pending in ``GET /v1/stats`` (the download reads kept
    chunks only; the worker has made the download ready, `memvault.server.export_mapping`)."""
    print(f"  after an import of {n:,} chunks into a fresh tenant:")
    pid = peaks.pid
    for when, key in (("now", keys["now"]), ("mapped", keys["mapped"])):
        check("import", post(client, key, bundle))
        imported = peaks.text()
        headers = {"Authorization": f"Bearer {key}"}
        waited = cpu_waiting = 0.0
        if when == "mapped":
            started, cpu = time.perf_counter(), cpu_seconds(pid)
            while True:
                mapping = client.get("/v1/stats", headers=headers).json().get("export_mapping")
                if mapping is None:  # a server without the background mapping
                    print("    (this server maps nothing in the background)")
                    break
                if mapping["pending"] == 0 and mapping["state"] == "idle":
                    break  # mapped, and the download made ready
                time.sleep(0.05)
            waited, cpu_waiting = time.perf_counter() - started, cpu_seconds(pid) - cpu
            figures["mapped_after_import_wait_s"] = waited
            figures["mapped_after_import_cpu_s"] = cpu_waiting
        cpu = cpu_seconds(pid)
        load = os.getloadavg()[0]
        stream = fetch(client, key, "/v1/brain/export/stream")
        cpu = cpu_seconds(pid) - cpu
        check("stream", stream)
        figures[f"first_byte_after_import_{when}_ms"] = stream.first_byte * 1000
        label = "at once" if when == "now" else "mapped"
        wait = (
            f"; the worker caught up {waited:.2f} s after the import answered, "
            f"server CPU meanwhile {cpu_waiting:.2f} s"
            if when == "mapped"
            else ""
        )
        print(f"    GET /v1/brain/export/stream ({label + ')':<8} first byte "
              f"{stream.first_byte * 1000:>7,.0f} ms, all {stream.seconds:.2f} s "
              f"(server CPU {cpu:.2f} s; load average {load:.1f}{wait}; import: "
              f"{imported}; download: {peaks.text()})")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=50_000)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--no-peer", action="store_true", help="skip the CLI import peer")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres", "both"),
        default="sqlite",
        help="where the tenants' vaults live (postgres: a throwaway PostgreSQL 15)",
    )
    parser.add_argument(
        "--database-url", metavar="URL", help="use this PostgreSQL database (application role)"
    )
    parser.add_argument(
        "--peer-source",
        type=Path,
        metavar="DIR",
        help="also run a server of the code in DIR (e.g. `git archive main`) first, and print "
        "both side by side",
    )
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, args.port, args.database_url)
        return
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    if args.database_url and args.backend == "sqlite":
        backends = ["postgres"]
    results: dict[str, dict[str, float]] = {}
    if args.peer_source is not None and backends == ["sqlite"]:
        results["peer code"] = run(args.chunks, args.small, peer=False, source=args.peer_source)
        results["this code"] = run(args.chunks, args.small, peer=not args.no_peer)
        side_by_side(results)
        return
    for backend in backends:
        if backend == "sqlite":
            results[backend] = run(args.chunks, args.small, peer=not args.no_peer)
        elif args.database_url:
            results[backend] = run(
                args.chunks, args.small, peer=not args.no_peer, database_url=args.database_url
            )
        else:
            with postgres_database() as url:
                results[backend] = run(
                    args.chunks, args.small, peer=not args.no_peer, database_url=url
                )
    if len(results) > 1:
        side_by_side(results)


def side_by_side(results: dict[str, dict[str, float]]) -> None:
    """Every figure on each backend, and the second's against the first's (measured in this
    run)."""
    (first, a), (second, b) = list(results.items())[:2]
    print(f"\nside by side: {first} and {second} ({second} / {first})")
    for name in a:
        if name in b:
            ratio = b[name] / a[name] if a[name] else float("nan")
            print(f"  {name:<34} {a[name]:>12,.1f} {b[name]:>12,.1f} {ratio:>8.2f}x")


__all__ = ["generate", "main", "run"]

if __name__ == "__main__":
    main()
