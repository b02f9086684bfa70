"""Full-text analysis of recall: how text becomes index terms, and a query becomes terms.

The rules (the same on both sides): FTS5's ``unicode61`` splits the text into tokens,
lower-cases them and folds their diacritics (``remove_diacritics 2``); then each token is
stemmed by Snowball English and Snowball Portuguese, and both stems are index terms (one when
they are equal). English and Portuguese stop words are dropped from queries only.

The work is done in C, in the SQLite extension ``memvault/recall/_tokenizer*.so`` built with
the package (it links Debian's libstemmer): the FTS5 tokenizer ``memvault`` (``TOKENIZE``)
stems as it indexes, so indexing runs near FTS5's own speed, and the SQL function
``memvault_terms`` gives the query side the very same tokens and stems. The tokenizer stems
documents but not queries: a query's terms are the stems `query_terms` returns (a stem
stemmed again is not always the same stem).
"""

from __future__ import annotations

import functools
import importlib.machinery
from pathlib import Path
from typing import Any

import orjson
import sqlcipher3  # type: ignore[import-untyped]
from stopwords import get_stopwords

from memvault.errors import VaultError

__all__ = ["TOKENIZE", "AnalysisUnavailable", "indexable", "prepare", "query_terms"]

#: The FTS5 ``tokenize=`` argument of the recall tables (the tokenizer takes no options).
TOKENIZE = "memvault"


class AnalysisUnavailable(VaultError):
    """The full-text analysis extension could not be loaded into a connection."""


@functools.cache
def extension_path() -> Path:
    """The compiled extension beside this module (its name ends like a Python extension's:
    setuptools builds it with the package)."""
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = here / f"_tokenizer{suffix}"
        if candidate.is_file():
            return candidate
    raise AnalysisUnavailable(
        f"the full-text analysis extension is missing from {here} (_tokenizer.c is not "
        "built: reinstall memvault, with Debian's libstemmer-dev installed)"
    )


def _loaded(conn: Any) -> bool:
    try:
        conn.execute("SELECT memvault_terms(NULL)").fetchone()
    except sqlcipher3.OperationalError as exc:
        if "no such function" in str(exc):
            return False
        raise
    return True


def prepare(conn: Any) -> None:
    """Make the ``memvault`` tokenizer and ``memvault_terms`` usable on `conn` (a sqlcipher3
    connection); loading again on the same connection is a no-op. Call it after the key is
    set: SQLCipher runs no statement before (sqlcipher3.DatabaseError "file is not a
    database"). Every connection that reads or writes a table made with `TOKENIZE` needs it
    ("no such tokenizer: memvault" otherwise)."""
    if _loaded(conn):
        return
    path = extension_path()
    conn.enable_load_extension(True)
    try:
        # SQLite calls sqlite3_tokenizer_init: the name it derives from the file's.
        conn.load_extension(str(path))
    except sqlcipher3.Error as exc:  # libstemmer missing, say
        raise AnalysisUnavailable(
            f"cannot load the full-text analysis extension {path}: {exc} "
            "(it needs Debian's libstemmer0d)"
        ) from None
    finally:
        conn.enable_load_extension(False)


def indexable(text: str) -> str:
    """The text handed to FTS for a passage: the text itself (the tokenizer stems it)."""
    return text


def terms(conn: Any, text: str) -> list[tuple[str, ...]]:
    """Every token of `text` as the analysis sees it: (folded token, English stem[,
    Portuguese stem when it differs]), in order."""
    row = conn.execute("SELECT memvault_terms(?)", (text,)).fetchone()
    return [tuple(item) for item in orjson.loads(row[0])]


def query_terms(conn: Any, text: str) -> list[tuple[str, ...]]:
    """For each word of the query that is not a stop word, its alternatives (its distinct
    stems, English first), in order. `prepare(conn)` must have been called."""
    stop = stop_words(conn)
    return [tuple(stems) for token, *stems in terms(conn, text) if token not in stop]


#: The stop-word lists of the ``stopwords`` package used: Snowball's English list, and the
#: Brazilian and the Portuguese lists.
STOP_WORD_LANGUAGES = ("english", "brazilian", "portuguese")

#: Content words that the Portuguese lists carry but that name things a person asks about
#: ("caminho" is a path, "trabalho" work, "nome" a name): kept in queries.
NOT_STOP_WORDS = frozenset(
    [
        "apontar",
        "bom",
        "caminho",
        "comprido",
        "conhecido",
        "corrente",
        "desligado",
        "direita",
        "estado",
        "fim",
        "horas",
        "iniciar",
        "inicio",
        "ligado",
        "maioria",
        "maiorias",
        "nome",
        "novo",
        "parte",
        "pegar",
        "pessoas",
        "povo",
        "quieto",
        "saber",
        "tempo",
        "tentar",
        "tentaram",
        "tente",
        "tentei",
        "trabalhar",
        "trabalho",
        "usa",
        "usar",
        "valor",
        "veja",
        "ver",
        "verdade",
        "verdadeiro",
        "ultimo",
    ]
)

_stop_words: frozenset[str] | None = None


def stop_words(conn: Any) -> frozenset[str]:
    """English and Portuguese stop words as the analysis folds them (so "não" stops "nao"),
    less `NOT_STOP_WORDS`. An entry that folds to several tokens ("don't") makes each of them
    a stop word ("don", "t")."""
    global _stop_words
    if _stop_words is None:
        words = [word for language in STOP_WORD_LANGUAGES for word in get_stopwords(language)]
        rows = conn.execute(
            "SELECT memvault_terms(value) FROM json_each(?)", (orjson.dumps(words).decode(),)
        ).fetchall()
        folded = {token[0] for row in rows for token in orjson.loads(row[0])}
        _stop_words = frozenset(folded - NOT_STOP_WORDS)
    return _stop_words
