"""Embedders (issue #17, "Build" 2): the specification, the OpenAI-compatible client against a
real HTTP server on 127.0.0.1 speaking the ``/v1/embeddings`` API with real vectors
(tests/embedserver.py), and every way an endpoint can fail, each a clear `EmbedderError`
naming the URL and the rule."""

from __future__ import annotations

import math
import socket
from collections.abc import Iterator

import pytest

from embedserver import EmbedServer, cosine, ngram_vector, serve
from memvault.errors import VaultError
from memvault.recall.embedders import (
    DimensionMismatch,
    Embedder,
    EmbedderConfigError,
    EmbedderSpec,
    EndpointBadReply,
    EndpointRefused,
    EndpointUnreachable,
    OpenAIEmbedder,
    load_embedder,
    normalise,
)


@pytest.fixture
def server() -> Iterator[EmbedServer]:
    with serve() as running:
        yield running


def _client(server: EmbedServer, **kwargs: object) -> OpenAIEmbedder:
    kwargs.setdefault("backoff", 0.0)
    return OpenAIEmbedder(server.url, "ngram", **kwargs)  # type: ignore[arg-type]


def _unit(vector: list[float]) -> bool:
    return math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-9)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- the specification -----------------------------------------------------------------------


def test_spec_round_trips_through_json() -> None:
    for spec in (
        EmbedderSpec(kind="openai", model="nomic-embed-text", url="http://localhost:11434/v1"),
        EmbedderSpec(kind="local", model="all-MiniLM-L6-v2"),
    ):
        assert EmbedderSpec.from_json(spec.to_json()) == spec
    assert EmbedderSpec(kind="local", model="m").to_json() == {"kind": "local", "model": "m"}


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ({"kind": "cloud", "model": "m"}, "kind 'cloud' is unknown: it is one of local, openai"),
        ({"kind": "openai", "model": "m"}, "must be an http:// or https:// URL"),
        ({"kind": "openai", "model": "m", "url": "localhost:11434"}, "http:// or https://"),
        ({"kind": "openai", "model": " ", "url": "http://h/v1"}, "needs a model name"),
        ({"kind": "local", "model": "m", "url": "http://h/v1"}, "takes no url"),
    ],
)
def test_spec_breaking_a_rule_names_it(fields: dict[str, str], rule: str) -> None:
    with pytest.raises(EmbedderConfigError, match=rule) as caught:
        EmbedderSpec(**fields)
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        (["local"], "is a JSON object, not list"),
        ({"kind": "local", "model": "m", "key": "secret"}, r"unknown field\(s\) key"),
        ({"kind": "local", "model": 3}, "model must be a string"),
        ({"kind": "openai", "model": "m", "url": 7}, "url must be a string"),
    ],
)
def test_spec_from_malformed_json_names_the_field(data: object, rule: str) -> None:
    with pytest.raises(EmbedderConfigError, match=rule):
        EmbedderSpec.from_json(data)  # type: ignore[arg-type]


def test_load_embedder_gives_the_openai_client_that_satisfies_the_protocol(
    server: EmbedServer,
) -> None:
    embedder: Embedder = load_embedder(
        EmbedderSpec(kind="openai", model="ngram", url=server.url), batch_size=5
    )
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.model == "ngram"
    assert embedder.dimension == 256  # learnt by asking the endpoint
    assert len(embedder.embed(["x"])[0]) == 256


# -- the client against the server -----------------------------------------------------------


def test_client_returns_one_unit_vector_per_text_in_order(server: EmbedServer) -> None:
    texts = ["I volunteer at the animal shelter", "Moro em Lisboa", "", "café com leite"]
    vectors = _client(server).embed(texts)
    assert len(vectors) == len(texts)
    for text, vector in zip(texts, vectors, strict=True):
        assert len(vector) == 256
        assert _unit(vector)  # the server sends them scaled by 3: the client normalised them
        assert cosine(vector, ngram_vector(text)) == pytest.approx(1.0)  # order kept
    assert server.requests[0] == {"model": "ngram", "input": texts, "encoding_format": "float"}


def test_client_batches_requests(server: EmbedServer) -> None:
    texts = [f"passage number {i}" for i in range(23)]
    vectors = _client(server, batch_size=10).embed(texts)
    assert [len(batch) for batch in server.inputs] == [10, 10, 3]
    assert [t for batch in server.inputs for t in batch] == texts
    assert [cosine(v, ngram_vector(t)) for v, t in zip(vectors, texts, strict=True)] == [
        pytest.approx(1.0)
    ] * 23


def test_client_embeds_nothing_without_a_request(server: EmbedServer) -> None:
    assert _client(server).embed([]) == []
    assert server.requests == []
    with pytest.raises(TypeError, match="not one string"):
        _client(server).embed("one string")


def test_similar_texts_get_closer_vectors_than_unrelated_ones(server: EmbedServer) -> None:
    """The stand-in server's vectors are real: shared word pieces make texts close."""
    shelter, shelters, tax = _client(server).embed(
        [
            "she volunteers at the animal shelter",
            "volunteering at animal shelters",
            "quarterly tax return deadline",
        ]
    )
    assert cosine(shelter, shelters) > 0.5 > cosine(shelter, tax)


def test_client_sends_the_api_key_as_a_bearer_token() -> None:
    with serve(api_key="s3cret") as server:
        assert len(_client(server, api_key="s3cret").embed(["a"])) == 1
        assert server.headers[0]["Authorization"] == "Bearer s3cret"
        with pytest.raises(EndpointRefused, match=r"HTTP 401.*wants an API key") as caught:
            _client(server).embed(["a"])
        assert caught.value.status == 401
        assert "s3cret" not in str(caught.value)


def test_client_accepts_the_full_embeddings_url(server: EmbedServer) -> None:
    embedder = OpenAIEmbedder(server.url + "/embeddings/", "ngram")
    assert embedder.endpoint == server.url + "/embeddings"
    assert len(embedder.embed(["a"])) == 1


def test_client_decodes_base64_float32_embeddings(server: EmbedServer) -> None:
    server.fail(base64=True)
    (vector,) = _client(server).embed(["grilled sardines"])
    assert _unit(vector)
    assert cosine(vector, ngram_vector("grilled sardines")) == pytest.approx(1.0, abs=1e-6)


# -- failures --------------------------------------------------------------------------------


def test_connection_refused_names_the_url() -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    embedder = OpenAIEmbedder(url, "ngram", retries=1, backoff=0.0)
    with pytest.raises(EndpointUnreachable) as caught:
        embedder.embed(["a"])
    message = str(caught.value)
    assert f"cannot connect to the embeddings endpoint {url}/embeddings (model ngram)" in message
    assert "2 tries" in message and "is the server running" in message
    assert caught.value.http_status == 502 and isinstance(caught.value, VaultError)


def test_timeout_is_reported_after_the_retries(server: EmbedServer) -> None:
    server.fail(delay=0.5)
    server.fail(delay=0.5)
    with pytest.raises(EndpointUnreachable, match=r"no answer within 0\.1 s \(timeout\), 2 tries"):
        _client(server, timeout=0.1, retries=1).embed(["a"])


def test_a_dropped_connection_then_a_5xx_are_retried(server: EmbedServer) -> None:
    server.fail(disconnect=True)
    server.fail(status=503, body='{"error": "loading model"}')
    sleeps: list[float] = []
    vectors = _client(server, retries=2, backoff=0.25, sleep=sleeps.append).embed(["a"])
    assert len(vectors) == 1 and len(server.requests) == 3
    assert sleeps == [0.25, 0.5]


def test_persistent_5xx_raises_with_the_status_and_body(server: EmbedServer) -> None:
    for _ in range(3):
        server.fail(status=500, body='{"error": "out of memory"}')
    with pytest.raises(EndpointRefused, match=r"HTTP 500: '\{\"error\": \"out of memory\"\}'"):
        _client(server, retries=2).embed(["a"])
    assert len(server.requests) == 3


def test_a_4xx_is_not_retried(server: EmbedServer) -> None:
    server.fail(status=400, body='{"error": {"message": "model \\"x\\" not found"}}')
    with pytest.raises(EndpointRefused, match="HTTP 400") as caught:
        _client(server, retries=2).embed(["a"])
    assert caught.value.status == 400 and len(server.requests) == 1


def test_a_wrong_route_hints_at_the_base_url(server: EmbedServer) -> None:
    embedder = OpenAIEmbedder(server.url.removesuffix("/v1"), "ngram", backoff=0.0)
    with pytest.raises(EndpointRefused, match=r"HTTP 404.*the API's base, e\.g\."):
        embedder.embed(["a"])


@pytest.mark.parametrize(
    ("failure", "rule"),
    [
        ({"body": "<html>gateway</html>"}, "malformed reply: not JSON"),
        ({"body": '{"vectors": []}'}, 'no "data" list'),
        ({"drop": 1}, "1 embedding for 2 inputs"),
        ({"duplicate_index": True}, r"data\[1\]\.index 0 appears twice"),
        ({"zero": True}, r"data\[0\]\.embedding \(input 1\) is a zero or non-finite vector"),
        ({"body": '{"data": [{"embedding": "not base64!"}, 2]}'}, "is not a list of numbers"),
        ({"body": '{"data": [{"embedding": [1, true]}, {}]}'}, "is not a list of numbers"),
        ({"body": '{"data": [{"index": 5, "embedding": [1]}, {}]}'}, "index 5 is not an input"),
    ],
)
def test_malformed_reply_names_the_rule(
    server: EmbedServer, failure: dict[str, object], rule: str
) -> None:
    server.fail(**failure)
    with pytest.raises(EndpointBadReply, match=rule) as caught:
        _client(server).embed(["first", "second"])
    assert server.url in str(caught.value)


def test_wrong_dimension_is_refused(server: EmbedServer) -> None:
    embedder = _client(server, batch_size=1)
    server.fail()  # first batch as usual: 256
    server.fail(dimension=128)
    with pytest.raises(DimensionMismatch, match="128-dimensional vector for input 1, not 256"):
        embedder.embed(["one", "two"])


def test_expected_dimension_is_checked_on_the_first_reply(server: EmbedServer) -> None:
    spec = EmbedderSpec(kind="openai", model="ngram", url=server.url)
    embedder = load_embedder(spec, dimension=384)
    assert embedder.dimension == 384  # what the caller's stored vectors have
    with pytest.raises(DimensionMismatch, match="256-dimensional vector for input 0, not 384"):
        embedder.embed(["a"])


def test_normalise_refuses_a_vector_with_no_direction() -> None:
    assert normalise([3.0, 4.0]) == [0.6, 0.8]
    for vector in ([0.0, 0.0], [math.inf, 1.0], [math.nan]):
        with pytest.raises(ValueError, match="zero or non-finite"):
            normalise(vector)
