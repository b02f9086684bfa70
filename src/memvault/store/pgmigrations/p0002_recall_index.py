"""Migration 2: the recall index of the PostgreSQL store (`memvault.store.postgres_recall`).

- ``recall_passages``: one row per memory and one or more per message (`memvault.recall.index`
  cuts them), keyed by (tenant, id); ``terms`` holds the passage's words (weight A) and its
  context (speaker, title; tags, type: weight B), diacritics folded by the store, under both
  the ``english`` and the ``portuguese`` configurations, with a GIN index.
- ``recall_models``: the embedding models whose vectors a tenant keeps (a name and a
  dimension).
- ``recall_vectors`` only where the ``vector`` extension (pgvector) is installed: one
  ``vector`` per passage and model. Its HNSW indexes, one per dimension (a partial index on
  ``embedding::vector(n)``), are made when a model of a new dimension is (`ensure_hnsw`).
  Without pgvector the store recalls by full text only; `VECTORS_SQL` makes the table when the
  extension is installed later (the store runs it when it opens).

The tenant leads every primary key and B-tree index; row-level security is forced on every
table, with the same policy as migration 1.
"""

from __future__ import annotations

from typing import Final

from memvault.store.pgmigrations.p0001_initial import _POLICY

#: The tables of this migration that hold tenant data (``recall_vectors`` when made).
TENANT_TABLES: Final = ("recall_passages", "recall_models", "recall_vectors")

_TABLES: Final = """
CREATE TABLE recall_passages (
    tenant           text NOT NULL,
    id               bigint NOT NULL,
    kind             text NOT NULL CHECK (kind IN ('memory', 'message')),
    memory_seq       bigint,
    conversation_id  text COLLATE "C",
    message_id       text,
    part             integer NOT NULL DEFAULT 0,
    role             text,
    participant      text,
    platform         text,
    at_epoch         double precision,
    text             text NOT NULL,
    context          text NOT NULL DEFAULT '',
    terms            tsvector NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX recall_passages_memory ON recall_passages (tenant, memory_seq);
CREATE INDEX recall_passages_conversation ON recall_passages (tenant, conversation_id, id);
CREATE INDEX recall_passages_terms ON recall_passages USING gin (terms);

CREATE TABLE recall_models (
    tenant     text NOT NULL,
    id         bigint NOT NULL,
    model      text NOT NULL,
    dimension  integer NOT NULL CHECK (dimension > 0),
    PRIMARY KEY (tenant, id),
    UNIQUE (tenant, model, dimension)
);
"""

#: The vectors table (pgvector only); idempotent, so it can run again when the extension is
#: installed after this migration.
VECTORS_SQL: Final = """
CREATE TABLE IF NOT EXISTS recall_vectors (
    tenant      text NOT NULL,
    model_id    bigint NOT NULL,
    passage_id  bigint NOT NULL,
    dimension   integer NOT NULL,
    embedding   vector NOT NULL,
    PRIMARY KEY (tenant, model_id, passage_id)
);
CREATE INDEX IF NOT EXISTS recall_vectors_passage ON recall_vectors (tenant, passage_id);
ALTER TABLE recall_vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE recall_vectors FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS recall_vectors_tenant ON recall_vectors;
CREATE POLICY recall_vectors_tenant ON recall_vectors
    USING (tenant = current_setting('memvault.tenant', true))
    WITH CHECK (tenant = current_setting('memvault.tenant', true));
"""

_VECTORS_IF_EXTENSION: Final = (
    "DO $memvault$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') "
    "THEN EXECUTE $sql$" + VECTORS_SQL + "$sql$; END IF; END $memvault$;\n"
)

SQL: Final = (
    _TABLES
    + "".join(_POLICY.format(table=table) for table in TENANT_TABLES[:2])
    + _VECTORS_IF_EXTENSION
)
