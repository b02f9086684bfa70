"""Migration 1: every table of the vault.

Memories are kept as their PAM JSON (``document``) plus index columns the queries filter and
sort on. The full-text index is FTS5 with external content: it reads content, summary, tags and
status from the view ``memories_fts_source`` (for 'rebuild' and snippets). Tags and access
grants are mirrored into small tables for filtering.

The store keeps the full-text index, tags and grants in step itself, with batched statements in
the same transaction as the write: triggers that re-parse the JSON document of every row cost
about three times as much per memory.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
CREATE TABLE schema_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    applied_at  TEXT NOT NULL
);

CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE owner (
    singleton  INTEGER PRIMARY KEY CHECK (singleton = 1),
    id         TEXT NOT NULL,
    document   TEXT NOT NULL
);

-- seq is the rowid alias: stable across VACUUM, which the external-content FTS index needs.
CREATE TABLE memories (
    seq                INTEGER PRIMARY KEY,
    id                 TEXT NOT NULL UNIQUE,
    type               TEXT NOT NULL,
    custom_type        TEXT,
    status             TEXT NOT NULL,
    content_hash       TEXT NOT NULL,
    platform           TEXT NOT NULL,
    extraction_method  TEXT,
    created_epoch      REAL NOT NULL,
    updated_epoch      REAL,
    exportable         INTEGER NOT NULL,
    visibility         TEXT NOT NULL,
    decay_anchor       REAL,
    tags_text          TEXT NOT NULL DEFAULT '',
    document           TEXT NOT NULL
);
-- Every index costs ~2 µs per inserted memory at 100k memories; extraction_method and
-- updated_epoch filters are rare (and exports read everything anyway), so they have none.
CREATE INDEX memories_content_hash ON memories (content_hash);
CREATE INDEX memories_status_created ON memories (status, created_epoch);
CREATE INDEX memories_type ON memories (type, status);
CREATE INDEX memories_custom_type ON memories (custom_type) WHERE custom_type IS NOT NULL;
CREATE INDEX memories_platform ON memories (platform, status);
CREATE INDEX memories_created ON memories (created_epoch);
CREATE INDEX memories_visibility ON memories (visibility) WHERE visibility <> 'private';

CREATE TABLE memory_tags (
    tag         TEXT NOT NULL,
    memory_seq  INTEGER NOT NULL,
    PRIMARY KEY (tag, memory_seq)
) WITHOUT ROWID;
CREATE INDEX memory_tags_memory ON memory_tags (memory_seq);

CREATE TABLE memory_grants (
    entity      TEXT NOT NULL,
    permission  TEXT NOT NULL,
    memory_seq  INTEGER NOT NULL,
    PRIMARY KEY (entity, permission, memory_seq)
) WITHOUT ROWID;
CREATE INDEX memory_grants_memory ON memory_grants (memory_seq);

CREATE VIEW memories_fts_source AS
    SELECT seq,
           json_extract(document, '$.content') AS content,
           json_extract(document, '$.summary') AS summary,
           tags_text AS tags,
           status
    FROM memories;

-- status is indexed too, so the usual "active only" filter is part of the full-text match
-- and a search never has to look rows up just to check their status.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, summary, tags, status,
    content = 'memories_fts_source',
    content_rowid = 'seq',
    tokenize = "unicode61 remove_diacritics 2"
);

CREATE TABLE relations (
    id          TEXT PRIMARY KEY,
    from_id     TEXT NOT NULL,
    to_id       TEXT NOT NULL,
    type        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    document    TEXT NOT NULL
);
CREATE INDEX relations_from ON relations (from_id, type);
CREATE INDEX relations_to ON relations (to_id, type);

CREATE TABLE conversations (
    id             TEXT PRIMARY KEY,
    platform       TEXT NOT NULL,
    title          TEXT,
    created_at     TEXT,
    updated_at     TEXT,
    message_count  INTEGER NOT NULL DEFAULT 0,
    extra_index    TEXT NOT NULL DEFAULT '{}',
    document       TEXT NOT NULL
);
CREATE INDEX conversations_platform ON conversations (platform);

CREATE TABLE embeddings (
    id          TEXT PRIMARY KEY,
    memory_id   TEXT NOT NULL,
    model       TEXT NOT NULL,
    dimensions  INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    vector      BLOB,
    storage     TEXT,
    UNIQUE (memory_id, model)
);

CREATE TABLE exports (
    export_id       TEXT NOT NULL,
    direction       TEXT NOT NULL CHECK (direction IN ('exported', 'imported')),
    export_type     TEXT NOT NULL CHECK (export_type IN ('full', 'incremental')),
    at              TEXT NOT NULL,
    format          TEXT NOT NULL,
    base_export_id  TEXT,
    since           TEXT,
    checksum        TEXT,
    memory_count    INTEGER NOT NULL DEFAULT 0,
    path            TEXT,
    PRIMARY KEY (export_id, direction)
);

CREATE TABLE audit_log (
    seq           INTEGER PRIMARY KEY,
    at            TEXT NOT NULL,
    actor         TEXT NOT NULL,
    action        TEXT NOT NULL,
    memory_id     TEXT,
    content_hash  TEXT,
    details       TEXT NOT NULL,
    prev_hash     TEXT NOT NULL,
    hash          TEXT NOT NULL
);

CREATE TABLE keys (
    key_id       TEXT PRIMARY KEY,
    algorithm    TEXT NOT NULL,
    public_key   BLOB NOT NULL,
    private_key  BLOB,
    created_at   TEXT NOT NULL,
    did          TEXT
);
"""
