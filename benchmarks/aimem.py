"""AIMEM bundles in and out of a vault at 50,000 chunks: chunks per second and peak RSS.

    .venv/bin/python benchmarks/aimem.py [--chunks 50000]

1. Generates (once; kept in benchmarks/data/) a valid bundle of `--chunks` chunks — every
   memory type, zones, pins, tags, half the chunks with a hebbian/semantic/temporal/causal
   edge, entities and chunk–entity links — written by memvault's streaming `BundleWriter`.
2. Runs, each as its own process measured with `peers.run_measured` (wall time, CPU time and
   peak RSS of that process): `memvault import` of the bundle into an empty vault, the same
   import again (§2.9: a no-op), `memvault export --format aimem` and `memvault export
   --format aimem --stream` (NDJSON, §3.1) of the vault it filled.

For scale: the AIMEM reference server imports about 1,000 chunks/s and held 595 MiB at
50,000 chunks (its published figures; it is not run here).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from peers import Measurement, fmt_bytes, run_measured

DATA = Path(__file__).resolve().parent / "data"
PASSPHRASE = "benchmark passphrase"
PRODUCER = "memoryai-bench"
TYPES = ("fact", "preference", "decision", "identity", "pitfall", "procedure", "episodic", "goal")
ZONES = ("critical", "important", "standard")
EDGE_TYPES = ("hebbian", "semantic", "temporal", "causal")
TEXT = (
    "user prefers postgresql over mongodb for transactional workloads and keeps backups nightly "
    "decided to deploy on tuesdays never on fridays because rollbacks are slow lives in lisbon "
    "works remotely speaks portuguese english spanish allergic to penicillin likes dark roast "
    "coffee runs the ci pipeline before merging avoids orm magic writes rust and python "
    "reuniões de manhã ação coração não gosta de esperar"
)
WORDS = TEXT.split()


def generate(path: Path, chunks: int, seed: int = 0) -> None:
    """Runs in a child process (a child's peak RSS as Linux reports it includes its parent's
    at fork time, so the parent stays small)."""
    from memvault.formats.aimem.writer import BundleWriter
    from memvault.formats.mapping import aimem_content_hash

    rng = random.Random(seed)
    envelope = {
        "format": "aimem-bundle",
        "version": "1",
        "producer": PRODUCER,
        "tenant_id": "11111111-1111-4111-8111-111111111111",
        "exported_at": "2026-06-12T10:00:00Z",
        "scope": "FULL",
    }

    def urn(i: int) -> str:
        return f"urn:aimem:{PRODUCER}:chunk-{i}"

    entities = max(1, chunks // 50)
    with BundleWriter(path, envelope, overwrite=True) as writer:
        for i in range(chunks):
            words = rng.choices(WORDS, k=rng.randint(6, 24))
            content = f"{' '.join(words).capitalize()} (note {i})."
            chunk: dict[str, object] = {
                "id": urn(i),
                "content": content,
                "content_hash": aimem_content_hash(content),
                "memory_type": TYPES[i % len(TYPES)],
                "created_at": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z",
                "tags": sorted(set(rng.choices(("db", "ops", "home", "work", "food"), k=2))),
            }
            if i % 3 == 0:
                chunk["zone"] = ZONES[i % 9 // 3]
            if i % 10 == 0:
                chunk["is_pinned"] = True
            writer.add_chunk(chunk)
        for e in range(entities):
            writer.add_entity(
                {
                    "id": f"urn:aimem:{PRODUCER}:entity-{e}",
                    "name": f"Entity {e}",
                    "kind": ("person", "technology", "place", "concept")[e % 4],
                    "created_at": "2026-01-01T00:00:00Z",
                }
            )
        for i in range(0, chunks - 1, 2):
            writer.add_edge(
                {
                    "source_id": urn(i),
                    "target_id": urn(rng.randrange(chunks)),
                    "edge_type": EDGE_TYPES[i % 4],
                    "weight": round(rng.random(), 3),
                    "created_at": "2026-04-15T08:00:00Z",
                }
            )
        for i in range(0, chunks, 5):
            writer.add_chunk_entity(
                {"chunk_id": urn(i), "entity_id": f"urn:aimem:{PRODUCER}:entity-{i % entities}"}
            )


def report(label: str, m: Measurement, chunks: int, output: Path | None = None) -> None:
    rate = chunks / m.seconds if m.ok and m.seconds > 0 else 0.0
    # Per CPU second too: on a shared 2-core machine the wall time depends on the neighbours.
    per_cpu = chunks / m.cpu_seconds if m.ok and m.cpu_seconds > 0 else 0.0
    size = f", {fmt_bytes(output.stat().st_size)}" if output is not None and output.exists() else ""
    print(f"  {label:<42} {rate:>7,.0f} chunks/s ({per_cpu:,.0f}/CPU-s)  {m.summary()}{size}")
    if not m.ok:
        print(f"    stdout: {m.stdout.strip()[-800:]}\n    stderr: {m.stderr.strip()[-800:]}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=50_000)
    parser.add_argument("--step", choices=["generate", "init"], help=argparse.SUPPRESS)
    parser.add_argument("--path", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "generate":
        generate(args.path, args.chunks)
        return
    if args.step == "init":
        from memvault.vault import Vault

        Vault.init(args.path, PASSPHRASE).close()
        return
    memvault = str(Path(sys.executable).with_name("memvault"))
    DATA.mkdir(exist_ok=True)
    bundle = DATA / f"aimem-{args.chunks}.aimem.json"

    def step(name: str, path: Path) -> None:
        argv = [sys.executable, __file__, "--step", name, "--path", str(path)]
        subprocess.run([*argv, "--chunks", str(args.chunks)], check=True)

    if not bundle.exists():
        step("generate", bundle)
    work = Path(tempfile.mkdtemp(prefix="aimem-", dir=DATA))
    try:
        home = work / "vault"
        step("init", home)
        env = {**os.environ, "MEMVAULT_PASSPHRASE": PASSPHRASE}
        n = args.chunks
        print(f"\naimem, {n:,} chunks ({sys.platform}, {os.cpu_count()} CPUs)")
        print(f"  bundle {bundle.name}: {fmt_bytes(bundle.stat().st_size)}")
        imported = run_measured([memvault, "import", "--home", str(home), str(bundle)], env=env)
        report("memvault import (empty vault)", imported, n)
        again = run_measured([memvault, "import", "--home", str(home), str(bundle)], env=env)
        report("memvault import again (§2.9 no-op)", again, n)
        out = work / "export.aimem.json"
        exported = run_measured(
            [memvault, "export", "--home", str(home), "--format", "aimem", "-o", str(out)], env=env
        )
        report("memvault export --format aimem", exported, n, out)
        stream = work / "export.ndjson"
        streamed = run_measured(
            [memvault, "export", "--home", str(home), "--format", "aimem", "--stream", "-o",
             str(stream)],
            env=env,
        )  # fmt: skip
        report("memvault export --format aimem --stream", streamed, n, stream)
        print(
            "  for scale: the AIMEM reference server imports ~1,000 chunks/s and held 595 MiB "
            "at 50,000 chunks (published figures, not measured here)"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
