"""Migration 4: the recall index (docs/recall.md) over memories and conversation messages.

- ``recall_passages``: one row per indexed passage — a memory, or a piece of a message (long
  messages are split, each piece keeping its message id) — with what recall filters on and
  the text it shows. Its ``id`` is the rowid of the passage in the full-text table and the
  key of its vectors.
- ``recall_fts``: FTS5, contentless (the analysed text is not kept twice; rows are deleted by
  rowid), BM25-ranked over two columns: ``body`` (the words of the passage) and ``context``
  (who spoke, the conversation's title; a memory's tags and type).
- ``recall_models`` and ``recall_vectors``: embeddings per model and dimension, float32 blobs;
  each model also gets a sqlite-vec ``vec0`` table of their binary quantisation
  (``recall_vec_<model id>``), made when its first vector is stored.

Existing vaults are indexed in the migration's transaction, once the later migrations have
shaped the tables as the code writes them (`m0007_compact_message_passages.run`).
"""

from __future__ import annotations

from typing import Final

from memvault.recall.analysis import TOKENIZE

SQL: Final = f"""
CREATE TABLE recall_passages (
    id               INTEGER PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('memory', 'message')),
    memory_seq       INTEGER,
    conversation_id  TEXT,
    message_id       TEXT,
    part             INTEGER NOT NULL DEFAULT 0,
    role             TEXT,
    participant      TEXT,
    platform         TEXT,
    at_epoch         REAL,
    text             TEXT NOT NULL
);
CREATE INDEX recall_passages_memory ON recall_passages (memory_seq)
    WHERE memory_seq IS NOT NULL;
CREATE INDEX recall_passages_conversation ON recall_passages (conversation_id);

CREATE VIRTUAL TABLE recall_fts USING fts5(
    body, context,
    content = '',
    contentless_delete = 1,
    tokenize = "{TOKENIZE}"
);

CREATE TABLE recall_models (
    id         INTEGER PRIMARY KEY,
    model      TEXT NOT NULL,
    dimension  INTEGER NOT NULL,
    UNIQUE (model, dimension)
);

CREATE TABLE recall_vectors (
    model_id    INTEGER NOT NULL,
    passage_id  INTEGER NOT NULL,
    vector      BLOB NOT NULL,
    PRIMARY KEY (model_id, passage_id)
) WITHOUT ROWID;
CREATE INDEX recall_vectors_passage ON recall_vectors (passage_id);
"""
