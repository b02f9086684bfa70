"""Schema version 6: the RFC 8785 bytes of each memory's AIMEM chunk, kept for exports.

An AIMEM export sends the checksum of the whole bundle first (§2.8, §3.1: the envelope is
the stream's first line), so the whole bundle is hashed before a byte goes out. Mapping a
memory to its chunk is the costly part; with the chunk's canonical bytes kept, the hashing
pass only reads and hashes bytes. ``aimem_export_cache`` holds, per memory and producer
namespace, the chunk as an export last wrote it, with what it depended on: its chunk id, the
graph it carried, the ids it referred to (an export that leaves one out writes the chunk
again), whether it is DNA-class and exportable.

A row is only good while the memory and its relations are as they were: triggers delete it
when the memory's row is updated or deleted, or a relation touching it is added, changed or
deleted — whoever writes. ``aimem_export_cache_generation`` counts those writes, so an export
that read a memory before a write does not keep bytes the write made stale.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
CREATE TABLE aimem_export_cache (
    memory_id   TEXT NOT NULL,
    producer    TEXT NOT NULL,
    chunk_id    TEXT NOT NULL,
    graph       BLOB NOT NULL,
    refs        TEXT NOT NULL,
    dna         INTEGER NOT NULL,
    exportable  INTEGER NOT NULL,
    block       BLOB,
    canonical   BLOB NOT NULL,
    PRIMARY KEY (memory_id, producer)
) WITHOUT ROWID;

CREATE TABLE aimem_export_cache_generation (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    n   INTEGER NOT NULL
);
INSERT INTO aimem_export_cache_generation (id, n) VALUES (1, 0);

CREATE TRIGGER memories_aimem_cache_update AFTER UPDATE ON memories
BEGIN
    DELETE FROM aimem_export_cache WHERE memory_id = OLD.id OR memory_id = NEW.id;
    UPDATE aimem_export_cache_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER memories_aimem_cache_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM aimem_export_cache WHERE memory_id = OLD.id;
    UPDATE aimem_export_cache_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER relations_aimem_cache_insert AFTER INSERT ON relations
BEGIN
    DELETE FROM aimem_export_cache WHERE memory_id IN (NEW.from_id, NEW.to_id);
    UPDATE aimem_export_cache_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER relations_aimem_cache_update AFTER UPDATE ON relations
BEGIN
    DELETE FROM aimem_export_cache
        WHERE memory_id IN (OLD.from_id, OLD.to_id, NEW.from_id, NEW.to_id);
    UPDATE aimem_export_cache_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER relations_aimem_cache_delete AFTER DELETE ON relations
BEGIN
    DELETE FROM aimem_export_cache WHERE memory_id IN (OLD.from_id, OLD.to_id);
    UPDATE aimem_export_cache_generation SET n = n + 1 WHERE id = 1;
END;
"""
