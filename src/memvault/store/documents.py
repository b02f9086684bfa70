"""How the store keeps a conversation document: a zstd frame of its JSON (orjson, sorted keys).

Conversations are most of a vault's bytes: a 300 MB ChatGPT export is ~270 MB of PAM
conversation documents. Compressed at zstd level 1 (~300 MB/s) they take a third of that or
less, so an import writes, encrypts and copies out of the write-ahead log a third as many pages,
and the vault file is that much smaller. Vaults from before schema version 2 keep documents as
JSON text; both forms are read (`document_json`).

An import compresses each document in the process that converts it (`memvault.importers.pipe`),
so the writing process stores the frame as it comes (`EncodedDocument`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any, Final

import orjson
import zstandard

__all__ = [
    "EncodedDocument",
    "compress_json",
    "document_frame",
    "document_json",
    "load_document",
]

#: zstd level 1: the fastest level with the standard ratio (~3.5× on generated PAM
#: conversations, 300 MB/s a core); levels 3 and up compressed them no smaller.
LEVEL: Final = 1
#: The first four bytes of every zstd frame (RFC 8878 §3.1.1); JSON text never starts so.
MAGIC: Final = b"\x28\xb5\x2f\xfd"

# A compressor or decompressor serves one operation at a time: one of each per thread.
_local = threading.local()


def _compressor() -> zstandard.ZstdCompressor:
    compressor: zstandard.ZstdCompressor | None = getattr(_local, "compressor", None)
    if compressor is None:
        compressor = _local.compressor = zstandard.ZstdCompressor(level=LEVEL)
    return compressor


def _decompressor() -> zstandard.ZstdDecompressor:
    decompressor: zstandard.ZstdDecompressor | None = getattr(_local, "decompressor", None)
    if decompressor is None:
        decompressor = _local.decompressor = zstandard.ZstdDecompressor()
    return decompressor


def compress_json(text: bytes) -> bytes:
    """The frame the store keeps for a document's JSON text (its size is in the frame)."""
    return _compressor().compress(text)


def document_json(value: bytes | str) -> bytes:
    """A stored document's JSON text: from its frame, or as an older vault kept it."""
    if isinstance(value, str):
        return value.encode()
    return _decompressor().decompress(value)


def load_document(value: bytes | str) -> dict[str, Any]:
    """A stored document, parsed."""
    document = orjson.loads(document_json(value))
    if not isinstance(document, dict):
        raise TypeError("a stored conversation document must be a JSON object")
    return document


def document_frame(document: Mapping[str, Any]) -> bytes:
    """The frame to store for a document (an `EncodedDocument` is one already)."""
    if isinstance(document, EncodedDocument):
        return document.frame
    return compress_json(orjson.dumps(dict(document), option=orjson.OPT_SORT_KEYS))


class EncodedDocument(Mapping[str, Any]):
    """A conversation document already in the form the store keeps (`compress_json` of its
    sorted-key JSON): stored as it is, parsed only if something reads it. An import encodes
    documents in the processes that convert them, so the writing process never builds them."""

    __slots__ = ("_value", "frame", "passages")

    def __init__(self, frame: bytes, passages: list[Any] | bytes | None = None) -> None:
        self.frame = frame
        self._value: dict[str, Any] | None = None
        #: The messages' recall passages, analysed by the process that encoded the document
        #: (`memvault.recall.index.message_rows`): the rows, or their JSON as that process
        #: sent it (the SQLite store writes it in C, `memvault_write_passages`); or None.
        self.passages = passages

    @classmethod
    def of(cls, document: Mapping[str, Any]) -> EncodedDocument:
        return cls(document_frame(document))

    def _loaded(self) -> dict[str, Any]:
        if self._value is None:
            self._value = load_document(self.frame)
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._loaded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())
