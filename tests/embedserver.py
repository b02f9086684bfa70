"""A real OpenAI-compatible embeddings server on 127.0.0.1, for tests.

It stands in for Ollama, llama.cpp's ``llama-server`` or vLLM, which cannot run on the test
machines: same route (``POST /v1/embeddings``), same request (``{"model", "input":
[texts], "encoding_format"}``) and same reply (``{"object": "list", "data": [{"object":
"embedding", "index", "embedding"}], "model", "usage"}``). Its vectors are real and
deterministic: hashed character n-grams of the diacritic-folded, lower-cased words (see
`ngram_vector`), so texts that share words or word pieces ("shelters" / "shelter",
"coração" / "coracao") get close vectors and unrelated texts distant ones. It sends them
*unnormalised* (scaled by `scale`), as some servers do, so a client's normalisation shows.

Tests script failures with `EmbedServer.fail(...)` (an HTTP status, a raw body, a delay, a
wrong dimension or count…), read what was sent from `requests` / `headers`, and may require
an API key. `python tests/embedserver.py [PORT]` runs one in the foreground.

    with serve() as server:
        embedder = OpenAIEmbedder(server.url, "ngram")
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from httpkit import json_server

DIMENSION = 256
MODEL = "ngram-256"
#: n-gram sizes: 3 and 4 catch shared stems and inflections; whole words weigh in too.
NGRAMS = (3, 4)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def ngram_vector(text: str, dimension: int = DIMENSION) -> list[float]:
    """A unit vector for `text`: each character 3- and 4-gram of each word (padded with
    spaces) and each whole word adds ±1 to a coordinate chosen by a BLAKE2b hash (the sign
    from the same hash, so collisions cancel rather than pile up). Deterministic across runs
    and processes. A text with no word gets a fixed unit vector."""
    vector = [0.0] * dimension
    words = "".join(c if c.isalnum() else " " for c in _fold(text)).split()
    for word in words:
        padded = f" {word} "
        grams = [padded[i : i + n] for n in NGRAMS for i in range(len(padded) - n + 1)]
        for gram in [*grams, f"<{word}>"]:
            digest = hashlib.blake2b(gram.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            vector[value % dimension] += 1.0 if value >> 63 else -1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0.0:
        vector[0], norm = 1.0, 1.0
    return [x / norm for x in vector]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


@dataclass
class Failure:
    """One scripted answer instead of the normal one. `status`/`body`: answer this raw;
    `delay`: wait first (a timeout); `dimension`: vectors of this size; `drop`: leave this
    many items out; `duplicate_index`: every item says index 0; `zero`: zero vectors;
    `base64`: float32 base64 embeddings; `disconnect`: close the socket with no answer."""

    status: int = 200
    body: str | None = None
    delay: float = 0.0
    dimension: int | None = None
    drop: int = 0
    duplicate_index: bool = False
    zero: bool = False
    base64: bool = False
    disconnect: bool = False


@dataclass
class EmbedServer:
    dimension: int = DIMENSION
    scale: float = 3.0
    api_key: str | None = None
    #: Scripted answers, used one per request in order before normal service resumes.
    failures: list[Failure] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fail(self, **kwargs: Any) -> None:
        self.failures.append(Failure(**kwargs))

    @property
    def inputs(self) -> list[list[str]]:
        """The `input` list of every request, in order."""
        return [r["input"] for r in self.requests]

    def answer(
        self, request: dict[str, Any], headers: dict[str, str]
    ) -> tuple[int, bytes, Failure]:
        with self.lock:
            self.requests.append(request)
            self.headers.append(headers)
            failure = self.failures.pop(0) if self.failures else Failure()
        if failure.delay:
            time.sleep(failure.delay)
        if failure.body is not None or failure.status != 200:
            return failure.status, (failure.body or '{"error": "scripted"}').encode(), failure
        if self.api_key is not None and headers.get("Authorization") != f"Bearer {self.api_key}":
            return 401, b'{"error": {"message": "invalid api key"}}', failure
        texts = request.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 400, b'{"error": {"message": "input must be a string or strings"}}', failure
        dimension = failure.dimension or self.dimension
        data = []
        for index, text in enumerate(texts):
            vector = [x * self.scale for x in ngram_vector(text, dimension)]
            if failure.zero:
                vector = [0.0] * dimension
            embedding: Any = vector
            if failure.base64:
                import base64
                import struct

                embedding = base64.b64encode(struct.pack(f"<{dimension}f", *vector)).decode()
            data.append(
                {
                    "object": "embedding",
                    "index": 0 if failure.duplicate_index else index,
                    "embedding": embedding,
                }
            )
        # Servers may answer out of order: the index says which input a vector belongs to.
        data.reverse()
        if failure.drop:
            data = data[failure.drop :]
        tokens = sum(len(t.split()) for t in texts)
        reply = {
            "object": "list",
            "data": data,
            "model": request.get("model"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        return 200, json.dumps(reply).encode(), failure


@pytest.fixture
def embed_server() -> Iterator[EmbedServer]:
    """An `EmbedServer` for one test."""
    with serve() as running:
        yield running


@contextmanager
def serve(
    dimension: int = DIMENSION, *, api_key: str | None = None, port: int = 0
) -> Iterator[EmbedServer]:
    """An `EmbedServer` listening on 127.0.0.1 (a free port unless `port`), its base URL in
    `url` (``http://127.0.0.1:PORT/v1``); shut down on exit."""
    state = EmbedServer(dimension=dimension, api_key=api_key)

    def answer(path: str, raw: bytes, headers: dict[str, str]) -> tuple[int, bytes] | None:
        if path != "/v1/embeddings":
            return 404, b'{"error": {"message": "no such route"}}'
        try:
            request = json.loads(raw)
        except ValueError:
            return 400, b'{"error": {"message": "body is not JSON"}}'
        status, body, failure = state.answer(request, headers)
        return None if failure.disconnect else (status, body)

    with json_server(answer, port) as url:
        state.url = url
        yield state


if __name__ == "__main__":
    with serve(port=int(sys.argv[1]) if len(sys.argv) > 1 else 0) as running:
        print(f"serving {MODEL} at {running.url}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
