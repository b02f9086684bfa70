"""Owner-only files are made with explicit modes, never by narrowing the process-wide umask:
in a threaded server, a vault opened in one thread must not change the mode of a file another
thread creates at that moment, and two vaults opened at once must both end owner-only (PAM
§21.1, encryption at rest: the database and its write-ahead log are private from their first
byte)."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memvault.paths import private_database
from memvault.store.sqlite import SQLiteStore
from vaultkit import PASSPHRASE

ROUNDS = 12
OPENERS = 3


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def all_owner_only(folder: Path) -> None:
    for path in folder.iterdir():
        assert mode_of(path) == 0o600, f"{path} is {oct(mode_of(path))}"


@contextmanager
def open_umask() -> Iterator[None]:
    """Files made inside the block would be world-readable if their mode came from the umask."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_opening_vaults_in_threads_changes_no_other_files_mode_and_leaves_the_umask(
    tmp_path: Path,
) -> None:
    previous = os.umask(0o022)
    try:
        stop = threading.Event()
        seen: list[tuple[str, int]] = []
        errors: list[BaseException] = []

        def make_plain_files() -> None:
            # A request thread writing an ordinary file while vaults open beside it.
            count = 0
            while not stop.is_set():
                path = tmp_path / "plain" / f"f{count}"
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
                os.close(fd)
                seen.append((path.name, mode_of(path)))
                count += 1

        def open_vaults(worker: int) -> None:
            try:
                for number in range(ROUNDS):
                    home = tmp_path / f"v{worker}-{number}"
                    home.mkdir()
                    store = SQLiteStore.create(home / "vault.db", PASSPHRASE, kdf_iter=2)
                    store.close()
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        (tmp_path / "plain").mkdir()
        plain = threading.Thread(target=make_plain_files)
        openers = [threading.Thread(target=open_vaults, args=(n,)) for n in range(OPENERS)]
        plain.start()
        for thread in openers:
            thread.start()
        for thread in openers:
            thread.join()
        stop.set()
        plain.join()

        assert not errors, errors
        assert seen, "the plain-file thread made no file"
        wrong = [(name, oct(mode)) for name, mode in seen if mode != 0o644]
        assert not wrong, f"files made beside an opening vault got another mode: {wrong[:5]}"
        for worker in range(OPENERS):
            for number in range(ROUNDS):
                home = tmp_path / f"v{worker}-{number}"
                all_owner_only(home)
        current = os.umask(0o022)
        assert current == 0o022, f"the process umask was left at {oct(current)}"
    finally:
        os.umask(previous)


def test_the_write_ahead_log_of_a_new_vault_is_owner_only_under_an_open_umask(
    tmp_path: Path,
) -> None:
    with open_umask():
        store = SQLiteStore.create(tmp_path / "vault.db", PASSPHRASE, kdf_iter=2)
        try:
            with store.transaction():
                store.set_meta("probe", "1")
            names = sorted(path.name for path in tmp_path.iterdir())
            assert "vault.db-wal" in names and "vault.db-shm" in names, names
            all_owner_only(tmp_path)
        finally:
            store.close()


def test_a_loose_database_file_is_restricted_before_sqlite_makes_its_log(tmp_path: Path) -> None:
    store = SQLiteStore.create(tmp_path / "vault.db", PASSPHRASE, kdf_iter=2)
    store.close()
    for path in tmp_path.glob("vault.db-*"):
        path.unlink()
    (tmp_path / "vault.db").chmod(0o644)
    with open_umask():
        store = SQLiteStore.open(tmp_path / "vault.db", PASSPHRASE)
        try:
            all_owner_only(tmp_path)
        finally:
            store.close()


def test_private_database_creates_an_empty_owner_only_file_and_leaves_a_missing_directory(
    tmp_path: Path,
) -> None:
    with open_umask():
        private_database(tmp_path / "new.db")
        assert mode_of(tmp_path / "new.db") == 0o600
        assert (tmp_path / "new.db").stat().st_size == 0
        private_database(tmp_path / "absent" / "new.db")  # SQLite reports it when opening
        assert not (tmp_path / "absent").exists()
