"""Backing up a live vault and restoring it (docs/backup.md).

A vault in a SQLite file is copied with SQLite's online backup API (`Vault.backup_to`):
one read snapshot, still encrypted with the vault's passphrase, taken while a server or the
command line keeps writing. A vault in PostgreSQL (one tenant) is backed up as its complete PAM
export — signed when the vault has a signing key (PAM §18) — and its AIMEM bundle; the whole
database is the operator's, with ``pg_dump``.

A backup is a directory: the copy (``vault.db`` and ``vault.params.json``, a vault home as it
is) or the exports (``pam/`` and ``bundle.aimem.json``), and ``backup.json`` saying which. It
is built under a temporary name beside its destination and renamed into place, so a failed
backup (a full disk) leaves nothing half-written. `restore` builds the vault the same way, then
checks it — it opens with the passphrase, ``integrity_check`` passes, the audit chain verifies
— before it renames it into an empty home; a tenant is restored by importing the export into it
while it is still empty.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import orjson

from memvault.access import require_owner
from memvault.errors import InvalidInput, VaultExists
from memvault.paths import DB_NAME, DIR_MODE, PARAMS_NAME
from memvault.store.base import StoreError

if TYPE_CHECKING:
    from memvault.vault import Vault

__all__ = [
    "BACKUP_FORMAT",
    "MANIFEST",
    "BackupResult",
    "RestoreResult",
    "backup",
    "restore_home",
    "restore_into",
]

#: The manifest of a backup directory, and the format it names.
MANIFEST: Final = "backup.json"
BACKUP_FORMAT: Final = "memvault-backup/1"
#: The two kinds of backup: the encrypted database copy, or the exports of a tenant.
FILE_COPY: Final = "sqlite-copy"
EXPORTS: Final = "exports"
_PAM_DIR: Final = "pam"
_BUNDLE: Final = "bundle.aimem.json"


@dataclass(frozen=True, slots=True)
class BackupResult:
    path: Path
    kind: str
    taken_at: str
    owner_id: str
    bytes: int
    #: The exports of a tenant carry a signature (PAM §18) when the vault has a signing key.
    signed: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "kind": self.kind,
            "taken_at": self.taken_at,
            "owner_id": self.owner_id,
            "bytes": self.bytes,
            "signed": self.signed,
        }


@dataclass(frozen=True, slots=True)
class RestoreResult:
    target: str
    kind: str
    memories: int
    conversations: int
    audit_entries: int

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "kind": self.kind,
            "memories": self.memories,
            "conversations": self.conversations,
            "audit_entries": self.audit_entries,
        }


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _free_directory(path: Path, what: str) -> None:
    """`path` must not exist or be an empty directory: a backup or restore never overwrites."""
    if not path.exists():
        return
    if not path.is_dir() or any(path.iterdir()):
        raise VaultExists(f"{what} {path} is not empty; it was left untouched")


def _partial(path: Path) -> Path:
    """A new private directory beside `path`, renamed into place when complete."""
    parent = path.parent
    try:
        parent.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        partial = parent / f".{path.name}.partial-{uuid.uuid4().hex[:12]}"
        partial.mkdir(mode=DIR_MODE)
    except OSError as exc:
        raise StoreError(f"cannot write beside {path}: {exc.strerror or exc}") from None
    return partial


def _sync_tree(path: Path) -> None:
    for file in path.rglob("*"):
        if file.is_file():
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    for directory in (path, *[d for d in path.rglob("*") if d.is_dir()]):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _publish(partial: Path, path: Path) -> None:
    """Rename the complete `partial` to `path` (an empty directory there is replaced)."""
    _sync_tree(partial)
    with contextlib.suppress(FileNotFoundError):
        path.rmdir()
    try:
        partial.rename(path)
    except OSError as exc:
        raise StoreError(f"cannot move the result into {path}: {exc.strerror or exc}") from None
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def backup(vault: Vault, dest: Path | str) -> BackupResult:
    """Back the vault up into the directory `dest` (new, or empty). The owner's session only.

    A SQLite vault: an encrypted copy of its database, one consistent snapshot taken while
    others write. A PostgreSQL tenant: its full PAM export (conversations and embeddings
    included, signed with its signing key when it has one) and its AIMEM bundle. Raises
    VaultExists (`dest` is not empty), StoreError or ExportError (nothing is left at `dest`).
    """
    require_owner(vault.actor, "back the vault up")
    path = Path(dest).expanduser()
    _free_directory(path, "the backup destination")
    partial = _partial(path)
    try:
        signed = False
        if vault.backup_to(partial / DB_NAME):
            kind = FILE_COPY
        else:
            kind = EXPORTS
            signed = _export_tenant(vault, partial)
        taken_at = _now()
        manifest = {
            "format": BACKUP_FORMAT,
            "kind": kind,
            "taken_at": taken_at,
            "owner_id": vault.owner.id,
            "schema_version": vault.schema_version,
            "signed": signed,
        }
        (partial / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")
        size = _size(partial)
        _publish(partial, path)
    except OSError as exc:
        raise StoreError(f"cannot write the backup {path}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return BackupResult(path, kind, taken_at, vault.owner.id, size, signed)


def _export_tenant(vault: Vault, into: Path) -> bool:
    from memvault.crypto.keys import SigningKey
    from memvault.crypto.signing import signer
    from memvault.exchange import ExportHooks, export_bundle, export_vault

    hooks = ExportHooks()
    if vault.keys():
        did = vault.owner.did
        key = SigningKey.from_record(vault.signing_key())
        hooks = ExportHooks(sign=signer(key, owner_did=did if isinstance(did, str) else None))
    result = export_vault(vault, into / _PAM_DIR, hooks=hooks)
    export_bundle(vault, into / _BUNDLE, embeddings=True)
    return bool(result.signed)


def _manifest(source: Path) -> dict[str, Any]:
    file = source / MANIFEST
    try:
        manifest = orjson.loads(file.read_bytes())
    except FileNotFoundError:
        raise InvalidInput(
            f"{source} is not a memvault backup ({MANIFEST} is missing)", "source"
        ) from None
    except (OSError, orjson.JSONDecodeError) as exc:
        raise InvalidInput(f"cannot read {file}: {exc}", "source") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise InvalidInput(f"{file}: format is not {BACKUP_FORMAT!r}", "source")
    if manifest.get("kind") not in (FILE_COPY, EXPORTS):
        raise InvalidInput(f"{file}: unknown kind {manifest.get('kind')!r}", "source")
    return manifest


def restore_home(source: Path | str, home: Path | str, passphrase: str) -> RestoreResult:
    """Restore the database copy in the backup `source` into `home`, which must be new or
    empty. The vault is built beside `home` and checked before it is renamed into place: the
    passphrase opens it (pending migrations run), ``integrity_check`` passes, the audit chain
    verifies. Raises InvalidInput (not a backup, or one of a tenant's exports: `restore_into`),
    VaultExists (`home` is not empty), WrongPassphrase, StoreError (the copy is damaged;
    `home` is untouched)."""
    from memvault.vault import Vault

    src = Path(source).expanduser()
    manifest = _manifest(src)
    if manifest["kind"] != FILE_COPY:
        raise InvalidInput(
            f"{src} holds a tenant's exports: restore it into an empty tenant "
            "($MEMVAULT_DATABASE_URL), not into a home",
            "source",
        )
    for name in (DB_NAME, PARAMS_NAME):
        if not (src / name).is_file():
            raise InvalidInput(f"the backup {src} is incomplete: {name} is missing", "source")
    root = Path(home).expanduser()
    _free_directory(root, "the home")
    partial = _partial(root)
    try:
        for name in (DB_NAME, PARAMS_NAME):
            shutil.copyfile(src / name, partial / name)
            os.chmod(partial / name, 0o600)
        with Vault.open(partial, passphrase) as vault:
            result = _checked(vault, str(root), FILE_COPY)
        _publish(partial, root)
    except OSError as exc:
        raise StoreError(f"cannot restore into {root}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return result


def restore_into(vault: Vault, source: Path | str) -> RestoreResult:
    """Import the PAM export of the backup `source` into `vault` — a tenant with nothing in it
    yet — in one transaction (its signature is checked, PAM §18). Raises InvalidInput (not a
    backup of exports), VaultExists (the vault holds memories or conversations), what
    `import_into_vault` raises."""
    from memvault.exchange import import_into_vault

    src = Path(source).expanduser()
    manifest = _manifest(src)
    if manifest["kind"] != EXPORTS:
        raise InvalidInput(
            f"{src} is a copy of a vault file: restore it into an empty home "
            "(without $MEMVAULT_DATABASE_URL)",
            "source",
        )
    stats = vault.stats()
    if stats["memories"] or stats["conversations"]:
        raise VaultExists(
            f"the vault ({stats['memories']} memories, {stats['conversations']} "
            "conversations) is not empty; a backup is restored only into an empty one"
        )
    import_into_vault(vault, src / _PAM_DIR)
    return _checked(vault, "tenant", EXPORTS)


def _checked(vault: Vault, target: str, kind: str) -> RestoreResult:
    problems = vault.check_integrity()
    if problems:
        raise StoreError(f"the restored vault fails its integrity check: {problems[0]}")
    report = vault.verify_audit()
    if not report.ok:
        raise StoreError(f"the restored vault's audit chain does not verify: {report.problems[0]}")
    stats = vault.stats()
    return RestoreResult(
        target, kind, int(stats["memories"]), int(stats["conversations"]), report.entries
    )
