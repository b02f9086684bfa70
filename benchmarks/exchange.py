"""Export and import of a 100,000-memory vault, with the official SDK's `pam validate` on the
exported file for scale.

    .venv/bin/python benchmarks/exchange.py [--memories 100000] [--embeddings 5000]

1. Builds (once; kept in benchmarks/data/) a vault with benchmarks/storegen.py's memories,
   added through `Vault.add_memories`, its relations and conversations index entries, and
   `--embeddings` 384-dimension vectors. Key derivation is SQLCipher's default (256,000).
2. Runs, each as its own process measured with `peers.run_measured` (wall time, CPU time and
   peak RSS of that process): `memvault export` to a .zip and to a directory, `memvault
   validate` of the zip, `memvault import` of the zip into an empty vault, and `memvault
   export --incremental` after 1 % of the memories changed.
3. Runs the official PAM SDK's `pam validate` on the exported memory-store.json (it reports a
   checksum mismatch on every spec-literal file, see benchmarks/README.md; its time is what is
   compared).
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from peers import Measurement, fmt_bytes, fmt_ratio, run_measured, sdk_venv

DATA = Path(__file__).resolve().parent / "data"
PASSPHRASE = "benchmark passphrase"
DIMENSIONS = 384


def build_vault(home: Path, n: int, embeddings: int) -> None:
    """Runs in a child process (see main): the parent stays small, because a child's peak RSS
    as Linux reports it is at least its parent's at the time of the fork."""
    from memvault.audit import AuditLog, PendingEntry
    from memvault.model import Relation
    from memvault.store.base import StoredConversation, StoredEmbedding
    from memvault.store.codec import memory_from_json
    from memvault.vault import Vault, format_timestamp
    from storegen import build_store

    start = time.perf_counter()
    store = build_store(n)
    with Vault.init(home, PASSPHRASE) as vault:
        batch = vault.add_memories(memory_from_json(m) for m in store["memories"])
        ids = batch.id_map
        backend = vault.store
        with backend.transaction():
            at = format_timestamp(datetime.now(UTC))
            hash_of = {m["id"]: m["content_hash"] for m in store["memories"]}
            entries = []
            for r in store["relations"]:
                source, target = ids[r["from"]], ids[r["to"]]
                if source == target:
                    continue
                relation = Relation.from_json({**r, "from": source, "to": target})
                backend.insert_relation(relation)
                entries.append(
                    PendingEntry(
                        "relate", "user", source, hash_of[source], {"relation_id": relation.id}
                    )
                )
            AuditLog(backend).append(entries, at)
            for entry in store["conversations_index"]:
                extra = {k: v for k, v in entry.items() if k not in ("id", "derived_memories",
                                                                   "storage")}  # fmt: skip
                vault.put_conversation(
                    StoredConversation(
                        id=entry["id"],
                        platform=entry["platform"],
                        document={},
                        title=entry.get("title"),
                        created_at=entry["temporal"]["created_at"],
                        updated_at=entry["temporal"].get("updated_at"),
                        message_count=entry.get("message_count") or 0,
                        extra_index=extra,
                    )
                )
            survivors = sorted(set(ids.values()))[:embeddings]
            for i, memory_id in enumerate(survivors):
                values = [((i * 31 + d * 17) % 997) / 997 - 0.5 for d in range(DIMENSIONS)]
                vault.put_embedding(
                    StoredEmbedding(
                        f"emb-{i}",
                        memory_id,
                        "all-minilm-l6-v2",
                        DIMENSIONS,
                        "2026-01-01T00:00:00Z",
                        struct.pack(f"<{DIMENSIONS}f", *values),
                    )
                )
        stats = vault.stats()
    print(
        f"built {home}: {stats['memories']:,} memories, {stats['relations']:,} relations, "
        f"{stats['conversations']:,} conversations, {len(survivors):,} embeddings "
        f"in {time.perf_counter() - start:.1f} s"
    )


def touch_one_percent(home: Path) -> int:
    """Retract every 100th active memory; returns how many."""
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as vault:
        chosen = [m.id for i, m in enumerate(vault.iter_memories()) if i % 100 == 0]
        for memory_id in chosen:
            vault.retract(memory_id)
    return len(chosen)


def _own_peak() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def size_of(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def report(label: str, m: Measurement, output: Path | None = None) -> None:
    size = f", {fmt_bytes(size_of(output))}" if output is not None and output.exists() else ""
    print(f"  {label:<34} {m.summary()}{size}")
    if not m.ok:
        print(f"    stdout: {m.stdout.strip()[-800:]}\n    stderr: {m.stderr.strip()[-800:]}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--embeddings", type=int, default=5_000)
    parser.add_argument("--step", choices=["build", "touch", "init"], help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step is not None:  # a child process doing one heavy step
        if args.step == "build":
            build_vault(args.home, args.memories, args.embeddings)
        elif args.step == "touch":
            print(f"retracted {touch_one_percent(args.home):,} memories")
        else:
            from memvault.vault import Vault

            Vault.init(args.home, PASSPHRASE).close()
        return
    memvault = str(Path(sys.executable).with_name("memvault"))
    source = DATA / f"exchange-vault-{args.memories}-{args.embeddings}"

    def step(name: str, home: Path) -> None:
        argv = [sys.executable, __file__, "--step", name, "--home", str(home)]
        argv += ["--memories", str(args.memories), "--embeddings", str(args.embeddings)]
        subprocess.run(argv, check=True)

    if not (source / "vault.db").exists():
        shutil.rmtree(source, ignore_errors=True)
        step("build", source)
    work = Path(tempfile.mkdtemp(prefix="exchange-", dir=DATA))
    try:
        home = work / "source"
        shutil.copytree(source, home)  # every run starts from the same vault
        env = {**os.environ, "MEMVAULT_PASSPHRASE": PASSPHRASE}
        zipped, directory = work / "export.zip", work / "export"
        print(f"\nexchange, {args.memories:,} memories ({sys.platform}, {os.cpu_count()} CPUs)")
        print(f"  (benchmark process itself: peak RSS {fmt_bytes(_own_peak())})")
        export_zip = run_measured([memvault, "export", "--home", str(home), "-o", str(zipped)],
                                  env=env)  # fmt: skip
        report("memvault export -o export.zip", export_zip, zipped)
        export_dir = run_measured(
            [memvault, "export", "--home", str(home), "-o", str(directory)], env=env
        )
        report("memvault export -o export/", export_dir, directory)
        validate = run_measured([memvault, "validate", "-q", str(zipped)])
        report("memvault validate export.zip", validate)
        target = work / "target"
        step("init", target)
        imported = run_measured([memvault, "import", "--home", str(target), str(zipped)], env=env)
        report("memvault import export.zip", imported)
        step("touch", home)
        delta = work / "delta.zip"
        incremental = run_measured(
            [memvault, "export", "--home", str(home), "--incremental", "-o", str(delta)], env=env
        )
        report("memvault export --incremental (1 %)", incremental, delta)
        try:
            pam = sdk_venv()
        except Exception as exc:  # the peer needs PyPI once; memvault's figures stand alone
            print(f"  (official SDK not available: {exc})")
            return
        store = directory / "memory-store.json"
        sdk = run_measured([str(pam), "validate", str(store)])
        verdict = "valid" if sdk.ok else "rejected (null-stripped checksum, see README)"
        report("pam validate memory-store.json", sdk)
        print(f"    SDK verdict: {verdict}")
        print(
            f"  ratio SDK validate / memvault export (zip): time "
            f"{fmt_ratio(sdk.seconds, export_zip.seconds)}, peak RSS "
            f"{fmt_ratio(sdk.peak_rss_bytes, export_zip.peak_rss_bytes)}"
        )
        print(
            f"  ratio SDK validate / memvault import: time "
            f"{fmt_ratio(sdk.seconds, imported.seconds)}, peak RSS "
            f"{fmt_ratio(sdk.peak_rss_bytes, imported.peak_rss_bytes)}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
