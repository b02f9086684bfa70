"""Full-text analysis for recall: the Python reference (docs/recall.md, "Analysis").

The rules: a text is split into tokens as FTS5's ``unicode61`` tokenizer splits it (runs of
letters and digits), each token is lower-cased and its diacritics folded (as
``remove_diacritics 2`` folds them), then stemmed with the Snowball English and the Snowball
Portuguese stemmers; both stems are index terms (one when they are equal). Stop words of both
languages are dropped from queries only: a passage keeps every word, so a phrase of stop words
still has something to match if a caller ever asks for it.

Here the stemming is done in Python (PyStemmer, Snowball's own C stemmers) and FTS5 is handed
the stems, space-separated (`indexable`), to split again with ``unicode61``. A C tokenizer can
take the same four names over and do the work inside FTS5 itself; nothing outside this module
knows which of the two is in use.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Final

__all__ = ["TOKENIZE", "indexable", "prepare", "query_terms"]

#: The FTS5 ``tokenize=`` argument of the recall full-text table. The text it sees is already
#: analysed (`indexable`), so this only splits it on the spaces.
TOKENIZE: Final = "unicode61 remove_diacritics 2"

#: A token as ``unicode61`` sees one: letters and digits (Unicode categories L and N); any
#: other character separates tokens. Applied after diacritics are folded.
_TOKEN: Final = re.compile(r"[^\W_]+")

#: Content words that the Portuguese stop-word lists carry but that name things a person asks
#: about ("caminho" is a path, "trabalho" work, "nome" a name): kept in queries.
_NOT_STOP_WORDS: Final = frozenset(
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


def prepare(conn: Any) -> None:
    """Make the tokenizer usable on `conn`: nothing to load for ``unicode61``."""


def _fold(text: str) -> str:
    """Lower-case and strip diacritics (NFD, combining marks dropped), as ``remove_diacritics
    2`` does for the letters it knows."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    if decomposed.isascii():
        return decomposed
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@functools.cache
def _stemmers() -> tuple[Any, Any]:
    import Stemmer  # PyStemmer: imported when text is first analysed, not at start-up

    return Stemmer.Stemmer("english"), Stemmer.Stemmer("portuguese")


#: token → its index terms ("stem" or "stem_en stem_pt"); bounded so a huge import of unique
#: tokens (ids, hashes) cannot grow it without end.
_CACHE_LIMIT: Final = 500_000
_terms_cache: dict[str, str] = {}


def _terms_of(tokens: list[str]) -> list[str]:
    """The index terms of each token (one string each, one or two stems)."""
    cache = _terms_cache
    missing = [t for t in dict.fromkeys(tokens) if t not in cache]
    if missing:
        english, portuguese = _stemmers()
        en = english.stemWords(missing)
        pt = portuguese.stemWords(missing)
        if len(cache) + len(missing) > _CACHE_LIMIT:
            cache.clear()
        for token, a, b in zip(missing, en, pt, strict=True):
            # A stem of a folded token is folded already, except that a stemmer may leave a
            # letter it does not know as it was: fold once more to be sure.
            a, b = _fold(a), _fold(b)
            cache[token] = a if a == b else f"{a} {b}"
        return [cache[t] if t in cache else _terms_of([t])[0] for t in tokens]
    return [cache[t] for t in tokens]


def tokens(text: str) -> list[str]:
    """The folded tokens of `text`, in order."""
    return _TOKEN.findall(_fold(text))


def indexable(text: str) -> str:
    """The text FTS5 indexes for a passage: each token's stems, space-separated."""
    found = tokens(text)
    if not found:
        return ""
    return " ".join(_terms_of(found))


@functools.cache
def stop_words() -> frozenset[str]:
    """English and Portuguese stop words, folded (the ``stopwords`` package's Snowball English
    list and its Brazilian and Portuguese lists, less `_NOT_STOP_WORDS`)."""
    import stopwords

    words: set[str] = set()
    for language in ("english", "brazilian", "portuguese"):
        for word in stopwords.get_stopwords(language):
            words.update(tokens(word))
    # "don't" splits into "don" and "t": the fragments are stop words too.
    return frozenset(words - _NOT_STOP_WORDS)


def query_terms(conn: Any, text: str) -> list[tuple[str, ...]]:
    """For each word of a query that is not a stop word, its alternatives (stems), in order."""
    stops = stop_words()
    kept = [t for t in tokens(text) if t not in stops]
    if not kept:
        return []
    return [tuple(terms.split(" ")) for terms in _terms_of(kept)]
