"""Authenticating API keys: what the registry's SHA-256 lookup costs per request, against a
password hash (scrypt, as a server storing keys like passwords would verify them).

    .venv/bin/python benchmarks/tenancy.py [--tenants 20] [--seconds 2]

1. A server home with `--tenants` tenants (one key each) in a temporary directory.
2. `Tenants.authenticate` over their keys in a loop for `--seconds`: authentications/s.
3. The same keys verified with scrypt (N=2^14, r=8, p=1: the usual interactive setting), one
   per request: verifications/s — and the ratio.
4. `Tenants.session` from 8 threads, each tenant's vault shared: sessions/s.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import threading
import time
from pathlib import Path

from memvault.tenancy import Tenants

SERVER_KEY = "benchmark-server-key-" + "0" * 43


def _rate(work: object, seconds: float) -> float:
    assert callable(work)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        work()
        done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Tenants.open(Path(tmp), SERVER_KEY) as tenants:
        keys = [tenants.create(f"t{i}")[1] for i in range(args.tenants)]
        cycle = iter(range(1 << 62))

        def authenticate() -> None:
            tenants.authenticate(keys[next(cycle) % len(keys)])

        ours = _rate(authenticate, args.seconds)
        salt = os.urandom(16)
        stored = {k: hashlib.scrypt(k.encode(), salt=salt, n=1 << 14, r=8, p=1) for k in keys}

        def scrypt_verify() -> None:
            key = keys[next(cycle) % len(keys)]
            assert hashlib.scrypt(key.encode(), salt=salt, n=1 << 14, r=8, p=1) == stored[key]

        peer = _rate(scrypt_verify, args.seconds)
        print(f"authenticate (SHA-256, indexed lookup): {ours:10.0f} /s")
        print(f"scrypt verification (N=2^14, r=8, p=1): {peer:10.0f} /s")
        print(f"ratio: {ours / peer:.0f}× more requests authenticated per second per core")

        principals = [tenants.authenticate(k) for k in keys]
        counts = [0] * 8
        stop = time.perf_counter() + args.seconds

        def sessions(slot: int) -> None:
            i = slot
            while time.perf_counter() < stop:
                tenants.session(principals[i % len(principals)])
                counts[slot] += 1
                i += 1

        threads = [threading.Thread(target=sessions, args=(s,)) for s in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        rate = sum(counts) / args.seconds
        print(f"session() from 8 threads over {len(keys)} tenants: {rate:.0f} /s")


if __name__ == "__main__":
    main()
