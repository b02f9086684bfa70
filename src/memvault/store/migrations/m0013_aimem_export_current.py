"""Schema version 13: the memories whose AIMEM chunk (migration 6's export cache) is due.

The stream form's first line is the envelope, which carries the checksum of the whole bundle
(AIMEM §2.8, §3.1): the hash must be known before the first byte. ``aimem_export_pending``
lists the memories written (added, changed, or touched by a relation) since their chunk was
last kept — the triggers are all a write pays; an export begins by mapping them and keeping
their chunks (`memvault.export_chunks`), then reads and hashes kept bytes only. It holds ids
alone, and a deleted memory's row goes with it.

``aimem_export_graph_generation`` counts the writes that can change the graph an export
carries (edges, entities, links: kept with the memories in their ``metadata.aimem`` block,
and the PAM relations): a kept chunk with such a block written or dropped, a relation
written, a memory deleted. An export keeps the graph records it built under that count
and builds them again only when it moved.

Written to run again harmlessly (``IF NOT EXISTS``): a vault whose record of applied
migrations was rewound applies it once more.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
CREATE TABLE IF NOT EXISTS aimem_export_pending (
    memory_id   TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS aimem_export_graph_generation (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    n   INTEGER NOT NULL
);
INSERT OR IGNORE INTO aimem_export_graph_generation (id, n) VALUES (1, 0);

CREATE TRIGGER IF NOT EXISTS memories_aimem_pending_insert AFTER INSERT ON memories
BEGIN
    INSERT OR IGNORE INTO aimem_export_pending (memory_id) VALUES (NEW.id);
END;

CREATE TRIGGER IF NOT EXISTS memories_aimem_pending_update AFTER UPDATE ON memories
BEGIN
    DELETE FROM aimem_export_pending WHERE memory_id = OLD.id AND OLD.id != NEW.id;
    INSERT OR IGNORE INTO aimem_export_pending (memory_id) VALUES (NEW.id);
END;

CREATE TRIGGER IF NOT EXISTS memories_aimem_pending_delete AFTER DELETE ON memories
BEGIN
    DELETE FROM aimem_export_pending WHERE memory_id = OLD.id;
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER IF NOT EXISTS relations_aimem_pending_insert AFTER INSERT ON relations
BEGIN
    INSERT OR IGNORE INTO aimem_export_pending (memory_id)
        SELECT id FROM memories WHERE id IN (NEW.from_id, NEW.to_id);
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER IF NOT EXISTS relations_aimem_pending_update AFTER UPDATE ON relations
BEGIN
    INSERT OR IGNORE INTO aimem_export_pending (memory_id)
        SELECT id FROM memories WHERE id IN (OLD.from_id, OLD.to_id, NEW.from_id, NEW.to_id);
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER IF NOT EXISTS relations_aimem_pending_delete AFTER DELETE ON relations
BEGIN
    INSERT OR IGNORE INTO aimem_export_pending (memory_id)
        SELECT id FROM memories WHERE id IN (OLD.from_id, OLD.to_id);
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER IF NOT EXISTS aimem_cache_graph_insert AFTER INSERT ON aimem_export_cache
    WHEN NEW.block IS NOT NULL
BEGIN
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER IF NOT EXISTS aimem_cache_graph_delete AFTER DELETE ON aimem_export_cache
    WHEN OLD.block IS NOT NULL
BEGIN
    UPDATE aimem_export_graph_generation SET n = n + 1 WHERE id = 1;
END;
"""
