"""Migration 1: every table of a PostgreSQL vault, for many tenants in one database.

- The tenant id leads every primary key and every B-tree index, and every row carries it, so
  the tables distribute by tenant (Citus) without change. The two GIN indexes (full text,
  tags) cannot lead with a text column without the ``btree_gin`` extension, which not every
  PostgreSQL build ships; every query names its tenant, so they are read per tenant anyway.
- Row-level security on every tenant table, FORCED (it binds the tables' owner — the role
  that runs migrations and the store — too): a row is visible and writable only in a
  transaction whose ``memvault.tenant`` setting names its tenant. A session naming no tenant
  sees nothing.
- Full text: ``fts`` holds the words of content, summary and tags, diacritics folded by the
  store, under both the ``english`` and the ``portuguese`` configurations (built in).
- Memories are kept as their PAM JSON (``document``) plus the columns queries filter on.
"""

from __future__ import annotations

from typing import Final

TENANT_TABLES: Final = (
    "meta",
    "owner",
    "memories",
    "relations",
    "conversations",
    "embeddings",
    "exports",
    "audit_log",
    "keys",
    "aimem_chunks",
    "aimem_aliases",
)

_TABLES: Final = """
CREATE TABLE meta (
    tenant  text NOT NULL,
    key     text COLLATE "C" NOT NULL,
    value   text NOT NULL,
    PRIMARY KEY (tenant, key)
);

CREATE TABLE owner (
    tenant    text NOT NULL PRIMARY KEY,
    id        text NOT NULL,
    document  text NOT NULL
);

CREATE TABLE memories (
    tenant             text NOT NULL,
    seq                bigint GENERATED ALWAYS AS IDENTITY,
    id                 text COLLATE "C" NOT NULL,
    type               text NOT NULL,
    custom_type        text,
    status             text NOT NULL,
    content_hash       text NOT NULL,
    platform           text NOT NULL,
    extraction_method  text,
    created_epoch      double precision NOT NULL,
    updated_epoch      double precision,
    exportable         boolean NOT NULL,
    visibility         text NOT NULL,
    decay_anchor       double precision,
    tags               text[] NOT NULL,
    readers            text[] NOT NULL,
    fts                tsvector NOT NULL,
    document           text NOT NULL,
    PRIMARY KEY (tenant, id),
    UNIQUE (tenant, seq)
);
CREATE INDEX memories_content_hash ON memories (tenant, content_hash);
CREATE INDEX memories_status_created ON memories (tenant, status, created_epoch);
CREATE INDEX memories_created ON memories (tenant, created_epoch);
CREATE INDEX memories_type ON memories (tenant, type, status);
CREATE INDEX memories_platform ON memories (tenant, platform, status);
CREATE INDEX memories_fts ON memories USING gin (fts);
CREATE INDEX memories_tags ON memories USING gin (tags);

CREATE TABLE relations (
    tenant      text NOT NULL,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    id          text NOT NULL,
    from_id     text NOT NULL,
    to_id       text NOT NULL,
    type        text NOT NULL,
    created_at  text NOT NULL,
    document    text NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX relations_from ON relations (tenant, from_id);
CREATE INDEX relations_to ON relations (tenant, to_id);
CREATE INDEX relations_seq ON relations (tenant, seq);

CREATE TABLE conversations (
    tenant         text NOT NULL,
    seq            bigint GENERATED ALWAYS AS IDENTITY,
    id             text COLLATE "C" NOT NULL,
    platform       text NOT NULL,
    title          text,
    created_at     text,
    updated_at     text,
    message_count  integer NOT NULL DEFAULT 0,
    extra_index    text NOT NULL DEFAULT '{}',
    document       bytea NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX conversations_platform ON conversations (tenant, platform, title);
CREATE INDEX conversations_seq ON conversations (tenant, seq);

CREATE TABLE embeddings (
    tenant      text NOT NULL,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    memory_id   text NOT NULL,
    model       text NOT NULL,
    id          text NOT NULL,
    dimensions  integer NOT NULL,
    created_at  text NOT NULL,
    vector      bytea,
    storage     text,
    PRIMARY KEY (tenant, memory_id, model)
);

CREATE TABLE exports (
    tenant          text NOT NULL,
    seq             bigint GENERATED ALWAYS AS IDENTITY,
    export_id       text NOT NULL,
    direction       text NOT NULL CHECK (direction IN ('exported', 'imported')),
    export_type     text NOT NULL CHECK (export_type IN ('full', 'incremental')),
    at              text NOT NULL,
    format          text NOT NULL,
    base_export_id  text,
    since           text,
    checksum        text,
    memory_count    integer NOT NULL DEFAULT 0,
    path            text,
    PRIMARY KEY (tenant, export_id, direction)
);

CREATE TABLE audit_log (
    tenant        text NOT NULL,
    seq           bigint NOT NULL,
    at            text NOT NULL,
    actor         text NOT NULL,
    action        text NOT NULL,
    memory_id     text,
    content_hash  text,
    details       text NOT NULL,
    prev_hash     text NOT NULL,
    hash          text NOT NULL,
    PRIMARY KEY (tenant, seq)
);
CREATE INDEX audit_log_memory ON audit_log (tenant, memory_id, seq);

-- private_key: sealed with the operator's server key (memvault.store.serverkey).
CREATE TABLE keys (
    tenant       text NOT NULL,
    key_id       text COLLATE "C" NOT NULL,
    algorithm    text NOT NULL,
    public_key   bytea NOT NULL,
    private_key  bytea,
    created_at   text NOT NULL,
    did          text,
    PRIMARY KEY (tenant, key_id)
);

CREATE TABLE aimem_chunks (
    tenant     text NOT NULL,
    memory_id  text NOT NULL,
    digest     text NOT NULL,
    PRIMARY KEY (tenant, memory_id)
);

CREATE TABLE aimem_aliases (
    tenant     text NOT NULL,
    alias_id   text NOT NULL,
    memory_id  text NOT NULL,
    PRIMARY KEY (tenant, alias_id)
);
CREATE INDEX aimem_aliases_memory ON aimem_aliases (tenant, memory_id);
"""

_POLICY: Final = """
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE {table} FORCE ROW LEVEL SECURITY;
CREATE POLICY {table}_tenant ON {table}
    USING (tenant = current_setting('memvault.tenant', true))
    WITH CHECK (tenant = current_setting('memvault.tenant', true));
"""

SQL: Final = _TABLES + "".join(_POLICY.format(table=table) for table in TENANT_TABLES)
