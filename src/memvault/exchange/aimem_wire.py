"""AIMEM bundles over a wire (draft §3, the HTTP profile): an export as a stream of bytes, an
import from a stream, and the result shapes the profile names.

    download = export_download(vault, scope="FULL", form="ndjson")   # checksum known first
    for block in download.blocks: ...                                # envelope line first
    result = import_stream(vault, body, signature=header_bytes)      # ONE transaction

The HTTP routes (`memvault.server.routes.aimem`) only parse, call these and render. The rules
live in `memvault.exchange.aimem`; this module adds what a wire needs: no file at the end
(the records are spooled once, hashed from the spool, then streamed from it), the §5.3
signature as bytes beside the body, and the import summary with its per-chunk rejections.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Final

from memvault.crypto.agefile import is_age
from memvault.erasure_fence import redone_after_erasure
from memvault.errors import ExportError
from memvault.exchange.aimem import (
    AimemImportResult,
    BundleRefused,
    export_envelope,
    fill_bundle,
    import_bundle,
    plan_export,
    producer_namespace,
    record_bundle_export,
    record_export_made,
)
from memvault.exchange.aimem_kept import AppendableRecords, appended_download, kept_download
from memvault.formats.aimem.container import LocatedBundle
from memvault.formats.aimem.errors import BundleError, Problem
from memvault.formats.aimem.writer import BundleWriter, KeptRecords
from memvault.formats.mapping import MappingError
from memvault.vault import Vault

__all__ = [
    "BUNDLE_MEDIA_TYPE",
    "NDJSON_MEDIA_TYPE",
    "BundleDownload",
    "export_download",
    "import_stream",
    "import_summary",
    "prepare_download",
    "rejection",
]

#: §6: the bundle's media type; §3.1: the stream form's.
BUNDLE_MEDIA_TYPE: Final = "application/aimem-bundle+json"
NDJSON_MEDIA_TYPE: Final = "application/x-ndjson"
#: Memories mapped by a download from which the connections' memory is given back first.
_RELEASE_AFTER: Final = 5000


@dataclass(slots=True)
class BundleDownload:
    """An export ready to send: its checksum (and envelope) are known before the first byte;
    `blocks` reads the spooled records as it is consumed and closes the spools at its end."""

    checksum: str
    form: str
    media_type: str
    envelope: dict[str, Any]
    chunks: int
    withheld: int
    blocks: Iterator[bytes]
    #: the §5.3 COSE_Sign1 over the canonical bundle, when a signing key was given
    signature: bytes | None = None

    def close(self) -> None:
        """Release the spools when the body is not sent."""
        close = getattr(self.blocks, "close", None)
        if close is not None:
            close()


@redone_after_erasure
def export_download(
    vault: Vault,
    *,
    scope: str = "FULL",
    since: str | datetime | None = None,
    form: str = "json",
    sign_with: Any = None,
    now: datetime | None = None,
) -> BundleDownload:
    """Export the session's view of the vault as a bundle to stream: ``json`` (the
    `application/aimem-bundle+json` document) or ``ndjson`` (§3.1: the envelope with its
    checksum on the first line, then one tagged record a line).

    One pass maps every memory to its chunk and spools the chunk's RFC 8785 bytes; the
    checksum pass reads and hashes those bytes only; the body is then read from the spools
    (bounded memory: one record at a time). `sign_with` (a `SigningKey`) signs the canonical
    bytes (§5.3). The export is recorded in the vault's export registry. As for a file, an
    erasure that commits while the records are read makes the export start again before a
    byte is sent (AIMEM §5.2, `memvault.erasure_fence`). An unsigned owner's export keeps
    its records (`KeptRecords`): the next one of the same scope, while no memory or relation
    changed, sends them again under its own envelope, its checksum known at once.
    Raises ExportError.
    """
    if form not in ("json", "ndjson"):
        raise ExportError(f"form {form!r}: json or ndjson")
    view = vault.export_view()
    # The memories written since their chunk was kept are mapped first, in short write
    # transactions of their own (a write only notes them: `memvault.export_chunks`); what
    # mapping many left in the writer (its page cache, its statements) goes back before the
    # download's reads fill a reader's, so the two do not add up.
    if sign_with is None and view.map_pending() >= _RELEASE_AFTER:
        vault.release_memory()
    # Read before anything else: records kept under it are good only while it holds.
    state = view.export_state() if sign_with is None else None
    key = ("aimem-download", scope, str(since), producer_namespace(vault))
    if state is not None:
        previous = view.kept(key)
        again = _send_again(vault, previous, state, scope, since, form, now)
        if again is not None:
            return again
        # Else the last export with the memories added since appended, when that is all
        # that changed; else from the chunks kept as the memories were written: the
        # records are read and hashed, not mapped (`memvault.exchange.aimem_kept`).
        made = _appended(vault, previous, state, scope, since, now)
        if made is None:
            made = kept_download(vault, scope=scope, since=since, now=now, state=state)
        if made is not None:
            view.keep(
                key,
                _Kept(state, made.records, made.chunks, made.withheld, made.graph_generation),
            )
            return BundleDownload(
                checksum=made.checksum,
                form=form,
                media_type=NDJSON_MEDIA_TYPE if form == "ndjson" else BUNDLE_MEDIA_TYPE,
                envelope=made.envelope,
                chunks=made.chunks,
                withheld=made.withheld,
                # Recorded once the first block (the envelope) is on its way: the commit's
                # sync is not between the request and the first byte.
                blocks=_then(
                    made.records.blocks(made.envelope, "ndjson" if form == "ndjson" else "json"),
                    lambda: made.record(vault),
                ),
            )
    plan = plan_export(vault, scope=scope, since=since, now=now)
    workdir = Path(tempfile.mkdtemp(prefix="memvault-export-"))
    name = workdir / ("bundle.ndjson" if form == "ndjson" else "bundle.aimem.json")
    try:
        writer = BundleWriter(name, plan.envelope, form="ndjson" if form == "ndjson" else "json")
        try:
            fill_bundle(writer, plan)
            signature = None
            if sign_with is not None:
                from memvault.formats.aimem.cose import sign_payload

                signature = sign_payload(writer.canonical_bytes(), sign_with)
            # Kept for the next export while nothing changes (the first byte at once).
            kept = None if state is None else writer.keep(workdir)
            try:
                if plan.fence is not None:
                    with plan.fence.publishing():  # ErasedMeanwhile: read again
                        pass
                if kept is None:
                    checksum, blocks = writer.finish_stream()
                else:
                    # The kept records were hashed as they were kept: the checksum is their
                    # digest plus the envelope, and the body is read from them (the spools
                    # are not hashed or rewritten a second time).
                    checksum = kept.checksum(writer.envelope)
                    blocks = kept.blocks({**writer.envelope, "checksum": checksum}, writer.form)
                    writer.abort()
            except BaseException:
                if kept is not None:
                    kept.close()
                raise
            if kept is not None and state is not None:
                view.keep(key, _Kept(state, kept, plan.chunks, plan.withheld))
        except BaseException:
            writer.abort()
            raise
    except (BundleError, MappingError, OSError) as exc:
        raise ExportError(f"could not export the bundle: {exc}") from None
    finally:
        # The spools are unlinked temporary files: the directory is empty and goes now.
        shutil.rmtree(workdir, ignore_errors=True)
    record_bundle_export(vault, plan, checksum, None)
    return BundleDownload(
        checksum=checksum,
        form=form,
        media_type=NDJSON_MEDIA_TYPE if form == "ndjson" else BUNDLE_MEDIA_TYPE,
        envelope={**plan.envelope, "checksum": checksum},
        chunks=plan.chunks,
        withheld=plan.withheld,
        blocks=blocks,
        signature=signature,
    )


def prepare_download(vault: Vault) -> bool:
    """Make the owner's full unsigned download ready without sending it: its records are
    kept (`_Kept`), so the next download of the vault, while no memory or relation changes,
    is them under a new envelope and its first byte goes out at once. Not entered in the
    export registry (nothing was sent). False, doing nothing, when the records kept already
    hold the vault as it is (or the store keeps none: an agent's session, PostgreSQL)."""
    view = vault.export_view()
    state = view.export_state()
    if state is None:
        return False
    kept = view.kept(("aimem-download", "FULL", "None", producer_namespace(vault)))
    if isinstance(kept, _Kept) and kept.state == state:
        return False
    # The download's blocks, unread, never reach the registry entry (written after the
    # first block); the kept records stay for the next download.
    export_download(vault, form="ndjson").close()
    return True


def _then(blocks: Iterator[bytes], after: Callable[[], None]) -> Iterator[bytes]:
    """`blocks`, calling `after` once the first one was taken (or when there is none)."""
    started = False
    try:
        for block in blocks:
            yield block
            if not started:
                started = True
                after()
    finally:
        if not started:
            after()


@dataclass(slots=True)
class _Kept:
    """An export's records kept for the next one (`KeptRecords`), with the vault's
    `export_state` read before they were."""

    state: tuple[int, ...]
    records: KeptRecords
    chunks: int
    withheld: int
    #: `Store.export_graph_generation` when they were read (None: not known)
    graph_generation: int | None = None

    def close(self) -> None:
        self.records.close()


def _appended(
    vault: Vault,
    kept: _Kept | None,
    state: tuple[int, ...],
    scope: str,
    since: str | datetime | None,
    now: datetime | None,
) -> Any:
    """`appended_download` from the last export's records, when they can take more chunks
    (None otherwise)."""
    if kept is None or kept.graph_generation is None:
        return None
    if not isinstance(kept.records, AppendableRecords):
        return None
    return appended_download(
        vault, kept.records, kept_state=kept.state, graph_generation=kept.graph_generation,
        chunks=kept.chunks, withheld=kept.withheld, scope=scope, since=since, now=now,
        state=state,
    )  # fmt: skip


def _send_again(
    vault: Vault,
    kept: _Kept | None,
    state: tuple[int, ...],
    scope: str,
    since: str | datetime | None,
    form: str,
    now: datetime | None,
) -> BundleDownload | None:
    """The last export's records again under a new envelope when no memory or relation
    changed since they were read (`Store.export_state`): the checksum is the kept SHA-256
    state plus the new envelope's members, so the first byte goes out at once (an erasure
    deletes memories: it changes the state). None: export anew."""
    if kept is None or kept.state != state:
        return None
    envelope, moment = export_envelope(vault, scope=scope, since=since, now=now)
    if not kept.records.fits(envelope):
        return None
    checksum = kept.records.checksum(envelope)
    envelope["checksum"] = checksum
    record_export_made(vault, envelope, moment, kept.chunks, checksum, None)
    return BundleDownload(
        checksum=checksum,
        form=form,
        media_type=NDJSON_MEDIA_TYPE if form == "ndjson" else BUNDLE_MEDIA_TYPE,
        envelope=envelope,
        chunks=kept.chunks,
        withheld=kept.withheld,
        blocks=kept.records.blocks(envelope, "ndjson" if form == "ndjson" else "json"),
    )


def import_stream(
    vault: Vault,
    body: IO[bytes],
    *,
    name: str = "request body",
    signature: bytes | None = None,
    public_key: Any = None,
    allow_unverified: bool = False,
    now: datetime | None = None,
) -> AimemImportResult:
    """Import a bundle from a seekable binary stream in ONE transaction, the HTTP profile's
    way (§3.2): the checksum first (409), a malformed bundle or chunk refused whole (422,
    content_hash included), a chunk in conflict with the vault (§2.9 rule 2) rejected and
    listed while every accepted chunk commits together.

    `signature` is the §5.3 detached COSE_Sign1 delivered with the body; one that does not
    verify refuses the bundle unless `allow_unverified`. A bundle delivered without one is
    imported with the verification skipped, and that decision is an audit entry (§5.3).
    Raises `BundleRefused` (its `status` 409 or 422) or AccessDenied; an age-encrypted body
    (no passphrase travels with it) is refused as ``age-encrypted`` (422)."""
    body.seek(0)
    if is_age(body.read(64)):
        raise BundleRefused(
            f"{name} was not imported",
            [
                Problem(
                    "age-encrypted",
                    f"the {name} is an age-encrypted file, which cannot be decrypted here: "
                    "send the bundle's plaintext (JSON or NDJSON), decrypted with `age -d`",
                    file=name,
                )
            ],
            422,
        )
    located = LocatedBundle.from_stream(body, name, signature)
    return import_bundle(
        vault,
        located,
        verify_signature=signature is not None,
        allow_unverified=allow_unverified,
        public_key=public_key,
        refuse_bad_chunks=True,
        now=now,
    )


def rejection(problem: Problem) -> dict[str, Any]:
    """One rejected chunk as the HTTP profile reports it: which chunk, which field, which
    rule, which section, and why."""
    return {
        "chunk_id": problem.record,
        "field": problem.path,
        "rule": problem.code,
        "section": problem.section,
        "status": problem.status,
        "detail": problem.message,
    }


def import_summary(result: AimemImportResult) -> dict[str, Any]:
    """The 200 body of ``POST /v1/brain/import``: inserted / updated / skipped counts and
    the `rejected` chunks (§3.2), with the finer counts of `AimemImportResult` beside them.
    A chunk merged into an active memory of the same content (PAM §6) counts as updated;
    one the vault already had, or holds in a newer or final state, as skipped."""
    return {
        "inserted": result.created,
        "updated": result.updated + result.reinforced,
        "skipped": result.unchanged + result.kept,
        "rejected": [rejection(p) for p in result.rejected],
        "checksum": result.checksum,
        "producer": result.producer,
        "signature": result.signature,
        "relations": result.relations,
        "embeddings": result.embeddings,
        "embeddings_dropped": result.embeddings_dropped,
        "counts": {
            "created": result.created,
            "reinforced": result.reinforced,
            "updated": result.updated,
            "unchanged": result.unchanged,
            "kept": result.kept,
        },
        "warnings": result.warnings,
    }
