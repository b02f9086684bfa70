"""The full-text analysis of recall (memvault.recall.analysis and its C extension): the
``memvault`` FTS5 tokenizer and ``memvault_terms`` against a Python reference (PyStemmer and
Python's Unicode folding), stemming and folding found through real FTS5 tables in SQLCipher,
stop words at query time, and hostile input."""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlcipher3  # type: ignore[import-untyped]

import analysiskit
from memvault.recall import analysis
from memvault.recall.analysis import TOKENIZE, indexable, prepare, query_terms


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[Any]:
    """A real SQLCipher database file (encrypted), with the analysis prepared."""
    connection = sqlcipher3.connect(str(tmp_path / "recall.db"))
    connection.execute("PRAGMA key = 'analysis test'")
    prepare(connection)
    yield connection
    connection.close()


def c_terms(conn: Any, text: str | bytes) -> list[tuple[str, ...]]:
    row = conn.execute("SELECT memvault_terms(?)", (text,)).fetchone()
    return [tuple(item) for item in orjson.loads(row[0])]


def index(conn: Any, texts: Sequence[str | bytes]) -> None:
    conn.execute(f"CREATE VIRTUAL TABLE passages USING fts5(text, tokenize='{TOKENIZE}')")
    conn.executemany(
        "INSERT INTO passages(rowid, text) VALUES (?, ?)",
        [(i + 1, indexable(t) if isinstance(t, str) else t) for i, t in enumerate(texts)],
    )


def search(conn: Any, query: str) -> list[int]:
    """Rowids matching any alternative of any query word, best BM25 first (the way recall
    builds its MATCH from query_terms)."""
    alternatives = [alt for word in query_terms(conn, query) for alt in word]
    if not alternatives:
        return []
    match = " OR ".join('"' + alt.replace('"', '""') + '"' for alt in alternatives)
    rows = conn.execute(
        "SELECT rowid FROM passages WHERE passages MATCH ? ORDER BY rank", (match,)
    ).fetchall()
    return [row[0] for row in rows]


# -- (a) the extension equals the Python reference ---------------------------------------------

CORPUS = analysiskit.corpus(seed=17, count=2500)


def test_corpus_stays_within_the_characters_both_sides_agree_on() -> None:
    assert all(analysiskit.agreed(ch) for text in CORPUS for ch in text)
    assert sum(len(text) for text in CORPUS) > 3_000_000  # large: ~4 MB of text
    assert "" in CORPUS and any("\u0327" in text for text in CORPUS)  # empty and NFD texts


@pytest.mark.slow
def test_memvault_terms_equals_pystemmer_reference_on_the_corpus(conn: Any) -> None:
    for text in CORPUS:
        assert c_terms(conn, text) == analysiskit.terms(text), text[:200]


@pytest.mark.slow
def test_tokenizer_index_terms_equal_pystemmer_reference_on_the_corpus(conn: Any) -> None:
    """Read back with fts5vocab 'instance': at each token position, the English stem and the
    Portuguese stem where it differs (colocated). FTS5 itself cuts index terms at 32,768
    bytes, the one difference with memvault_terms."""
    index(conn, CORPUS)
    conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(passages, 'instance')")
    got: dict[int, list[tuple[int, str]]] = {}
    for term, doc, _column, offset in conn.execute("SELECT * FROM vocab"):
        got.setdefault(doc, []).append((offset, term))
    for rowid, text in enumerate(CORPUS, start=1):
        expected = sorted(
            (position, stem.encode()[:32768].decode("utf-8", "ignore"))
            for position, (_token, *stems) in enumerate(analysiskit.terms(text))
            for stem in stems
        )
        assert sorted(got.get(rowid, [])) == expected, text[:200]


def test_word_cache_gives_what_the_stemmers_give(conn: Any) -> None:
    """The C side caches stems by word (16,384 slots, words of up to 28 bytes): more distinct
    words than slots, colliding and evicting one another, each seen three times, and words
    just past the cached length, still stem as PyStemmer does."""

    def letters(i: int) -> str:
        return "".join(chr(97 + (i // 26**k) % 26) for k in range(3))

    words = [letters(i) + end for i in range(9000) for end in ("ing", "s", "ções", "edly")]
    words += ["x" * 27 + "ing", "y" * 28 + "s", "ç" * 14 + "ões"]
    text = " ".join(words * 3)
    assert c_terms(conn, text) == analysiskit.terms(text)


def test_terms_are_folded_then_stemmed_english_first(conn: Any) -> None:
    assert c_terms(conn, "Shelters AÇÕES naïve 2024 東京") == [
        ("shelters", "shelter", "shelters"),
        ("acoes", "aco"),
        ("naive", "naiv"),
        ("2024", "2024"),
        ("東京", "東京"),
    ]


def test_known_differences_with_python_folding(conn: Any) -> None:
    """Where unicode61's tables (Unicode 6.1, simple case folding, its own diacritic table)
    part from Python's, the extension follows unicode61 — the analysis rule is "as unicode61
    folds" — and the reference does not: pinned here."""
    assert c_terms(conn, "ſ µ İ ǡ")[0][0] == "s"  # long s case-folds to s
    assert [t[0] for t in c_terms(conn, "µ İ ǡ ẛ")] == ["μ", "i", "ǡ", "s"]
    assert [t[0] for t in analysiskit.terms("µ İ ǡ ẛ")] != ["μ", "i", "ǡ", "s"]
    # Emoji newer than Unicode 6.1 are unassigned for unicode61, which keeps them as tokens.
    assert c_terms(conn, "ok 🤔 ok") == [("ok", "ok"), ("🤔", "🤔"), ("ok", "ok")]
    assert c_terms(conn, "ok 😀 ok") == [("ok", "ok"), ("ok", "ok")]
    # Only Latin letters lose their diacritics: Greek and Cyrillic keep them.
    assert [t[0] for t in c_terms(conn, "ÁRVORE Άλφα Йод")] == ["arvore", "άλφα", "йод"]


def test_fts_cuts_index_terms_at_32768_bytes_memvault_terms_does_not(conn: Any) -> None:
    long_token = "ab" * 40_000
    index(conn, [long_token])
    conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(passages, 'instance')")
    assert [len(row[0]) for row in conn.execute("SELECT term FROM vocab")] == [32768]
    assert len(c_terms(conn, long_token)[0][0]) == 80_000


# -- (b) stemming and folding find what the words alone would not ------------------------------


def test_stemming_finds_shelter_from_shelters(conn: Any) -> None:
    index(conn, ["We visited the animal shelter on Sunday.", "Nothing about it here."])
    assert search(conn, "shelters") == [1]
    assert search(conn, "sheltered") == [1]


def test_stemming_finds_volunteering_from_volunteer(conn: Any) -> None:
    index(conn, ["She has been volunteering at the food bank.", "A quiet week."])
    assert search(conn, "volunteer") == [1]
    assert search(conn, "volunteered") == [1]


@pytest.mark.parametrize("query", ["ações", "acoes", "AÇÕES", "AcOeS"])
def test_portuguese_with_and_without_accents_finds_acoes(conn: Any, query: str) -> None:
    nfd = unicodedata.normalize("NFD", "Comprei ações da empresa")
    index(conn, ["Comprei ações da empresa", "Vendi as acoes ontem", nfd, "Nada a ver"])
    assert sorted(search(conn, query)) == [1, 2, 3]


def test_portuguese_stem_finds_the_other_inflection(conn: Any) -> None:
    index(conn, ["Os abrigos aceitam voluntários", "Outra coisa"])
    assert search(conn, "abrigo voluntário") == [1]
    assert search(conn, "trabalhando") == []


def test_query_is_folded_but_not_stemmed_again(conn: Any) -> None:
    """A MATCH term is taken as the stem it is (query_terms made it): "RUNNING" at query
    time is the term "running" (the Portuguese stem of "running"), not the English stem
    "run" that "runs" shares."""
    index(conn, ["running", "runs"])
    assert c_terms(conn, "running runs") == [("running", "run", "running"), ("runs", "run", "runs")]
    rows = conn.execute("SELECT rowid FROM passages WHERE passages MATCH 'RUNNING'").fetchall()
    assert rows == [(1,)]
    rows = conn.execute("SELECT rowid FROM passages WHERE passages MATCH 'run'").fetchall()
    assert rows == [(1,), (2,)]


# -- stop words, the contract's other names -----------------------------------------------------


def test_query_terms_drop_english_and_portuguese_stop_words(conn: Any) -> None:
    assert query_terms(conn, "What did the shelters say?") == [("shelter", "shelters"), ("say",)]
    assert query_terms(conn, "Não sei quando é a reunião") == [("sei",), ("reuniao", "reunia")]


def test_query_terms_keep_content_words_of_the_portuguese_lists(conn: Any) -> None:
    """The Portuguese lists carry words a person asks about ("trabalho", "nome"): kept."""
    assert query_terms(conn, "o nome do trabalho") == [("nome", "nom"), ("trabalho", "trabalh")]


def test_query_terms_drop_each_part_of_a_split_stop_word(conn: Any) -> None:
    """ "don't" splits into "don" and "t": both parts are stop words, as the entry is."""
    assert query_terms(conn, "don't forget") == [("forget",)]


def test_query_terms_drop_stop_words_written_without_accents(conn: Any) -> None:
    assert query_terms(conn, "nao voce") == query_terms(conn, "não você") == []


def test_stop_words_stay_in_the_index(conn: Any) -> None:
    """Stop words are dropped at query time only: the text is indexed whole."""
    index(conn, ["the who"])
    assert conn.execute("SELECT rowid FROM passages WHERE passages MATCH 'who'").fetchall() == [
        (1,)
    ]


def test_query_terms_of_only_stop_words_or_symbols_is_empty(conn: Any) -> None:
    assert query_terms(conn, "the of and") == []
    assert query_terms(conn, "?! 😀 ...") == []
    assert query_terms(conn, "") == []


def test_indexable_hands_the_text_over_unchanged() -> None:
    assert indexable("Ações, shelters!") == "Ações, shelters!"


def test_prepare_twice_is_harmless_and_leaves_loading_disabled(conn: Any) -> None:
    prepare(conn)
    assert c_terms(conn, "dogs") == [("dogs", "dog", "dogs")]
    with pytest.raises(sqlcipher3.OperationalError, match="not authorized"):
        conn.execute("SELECT load_extension('whatever')").fetchone()


def test_every_connection_to_an_encrypted_file_prepares_after_its_key(tmp_path: Path) -> None:
    """A table made with TOKENIZE is read through the tokenizer: a later connection to the
    same SQLCipher file needs prepare() too, after its key."""
    path = str(tmp_path / "vault.db")
    first = sqlcipher3.connect(path)
    first.execute("PRAGMA key = 'k'")
    prepare(first)
    first.execute(f"CREATE VIRTUAL TABLE passages USING fts5(text, tokenize='{TOKENIZE}')")
    first.execute("INSERT INTO passages(text) VALUES ('Visiting shelters')")
    first.commit()
    first.close()
    unprepared = sqlcipher3.connect(path)
    unprepared.execute("PRAGMA key = 'k'")
    with pytest.raises(sqlcipher3.OperationalError, match="no such tokenizer: memvault"):
        unprepared.execute("SELECT rowid FROM passages WHERE passages MATCH 'shelter'")
    unprepared.close()
    before_key = sqlcipher3.connect(path)
    with pytest.raises(sqlcipher3.DatabaseError, match="file is not a database"):
        prepare(before_key)
    before_key.execute("PRAGMA key = 'k'")
    prepare(before_key)
    assert search(before_key, "shelter") == [1]
    before_key.close()


def test_extension_imports_as_an_empty_python_module() -> None:
    """setuptools builds it as a Python extension, so walking the package imports it."""
    module = importlib.import_module("memvault.recall._tokenizer")
    assert Path(module.__file__ or "") == analysis.extension_path()
    assert [name for name in vars(module) if not name.startswith("__")] == []


def test_tokenizer_refuses_options(conn: Any) -> None:
    with pytest.raises(sqlcipher3.Error):
        conn.execute("CREATE VIRTUAL TABLE bad USING fts5(x, tokenize='memvault porter')")


def test_extension_missing_raises_a_clear_vault_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    analysis.extension_path.cache_clear()
    monkeypatch.setattr(analysis, "__file__", str(tmp_path / "analysis.py"))
    try:
        connection = sqlcipher3.connect(":memory:")
        with pytest.raises(analysis.AnalysisUnavailable, match=r"_tokenizer\.c is not built"):
            prepare(connection)
    finally:
        analysis.extension_path.cache_clear()


# -- (c) hostile input never crashes -----------------------------------------------------------

HOSTILE: list[str | bytes] = [
    "x" * 5_000_000,  # one huge token
    "é" * 2_000_000,
    "ação " * 200_000,
    "a\x00b\x00c",  # NUL bytes inside text
    b"\xff\xfe\x00abc\x00\xc3\x28 caf\xc3\xa9s",  # invalid UTF-8 as a blob
    b"\xed\xa0\x80\xed\xbf\xbf z",  # encoded surrogates
    b"\xf4\x90\x80\x80" + b"\x80" * 64 + b"y",  # beyond U+10FFFF, endless continuation bytes
    b"\xc3",  # a truncated sequence
    b"\x80" * 1000,
    "\u0301\u0301\u0301a\u0301",  # marks before anything
    "\U0010ffff\ue000",  # private use: token characters
]


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:12]))
def test_hostile_input_is_tokenized_without_crash(conn: Any, value: str | bytes) -> None:
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS passages USING fts5(t, tokenize='{TOKENIZE}')"
    )
    conn.execute("INSERT INTO passages(t) VALUES (?)", (value,))
    conn.execute("INSERT INTO passages(passages) VALUES ('integrity-check')")
    json_text = conn.execute("SELECT memvault_terms(?)", (value,)).fetchone()[0]
    assert isinstance(orjson.loads(json_text), list)


def test_tokens_past_u10ffff_from_invalid_utf8_become_replacement_characters(conn: Any) -> None:
    """unicode61 reads b"\\xf4\\x90\\x80\\x80" as a code point past U+10FFFF and writes it
    back as invalid UTF-8; the tokenizer indexes U+FFFD for each such byte instead."""
    value = b"a\xf5\x80\x80\x80b \xf4\x90\x80\x80"
    assert c_terms(conn, value) == [("a\ufffd\ufffd\ufffd\ufffdb",) * 2, ("\ufffd" * 4,) * 2]
    index(conn, [value])
    conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(passages, 'instance')")
    terms = sorted(row[0] for row in conn.execute("SELECT term FROM vocab"))
    assert terms == ["a\ufffd\ufffd\ufffd\ufffdb", "\ufffd" * 4]


def test_memvault_terms_of_null_is_null(conn: Any) -> None:
    assert conn.execute("SELECT memvault_terms(NULL)").fetchone() == (None,)
