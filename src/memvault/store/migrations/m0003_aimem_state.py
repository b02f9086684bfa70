"""Schema version 3: what the AIMEM exchange keeps per memory lives in tables of its own.

Until now it was meta keys: ``aimem.chunk:<id>`` (SHA-256 of the AIMEM fields of the chunk the
memory was imported from, AIMEM §2.9) and ``aimem.alias:<incoming id>`` (the memory an
incoming chunk was merged into, PAM §6). Keys nobody deletes with the memory; rows in
``aimem_chunks`` and ``aimem_aliases`` go with it: a trigger on ``memories`` deletes them when
the memory's row is deleted, whoever deletes it (AIMEM §5.2, erasure leaves nothing behind).

The existing keys are moved here; keys about memories no longer in the vault are dropped.
"""

from __future__ import annotations

from typing import Final

SQL: Final = """
CREATE TABLE aimem_chunks (
    memory_id  TEXT PRIMARY KEY,
    digest     TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE aimem_aliases (
    alias_id   TEXT PRIMARY KEY,
    memory_id  TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX aimem_aliases_memory ON aimem_aliases (memory_id);

-- The cascade: a memory's row deleted takes its chunk digest, its own alias and the aliases
-- of the chunks merged into it.
CREATE TRIGGER memories_aimem_state AFTER DELETE ON memories
BEGIN
    DELETE FROM aimem_chunks WHERE memory_id = OLD.id;
    DELETE FROM aimem_aliases WHERE memory_id = OLD.id OR alias_id = OLD.id;
END;

-- 'aimem.chunk:' and 'aimem.alias:' are 12 characters; ';' follows ':' (a key range).
INSERT INTO aimem_chunks (memory_id, digest)
    SELECT substr(key, 13), value FROM meta
    WHERE key >= 'aimem.chunk:' AND key < 'aimem.chunk;'
      AND substr(key, 13) IN (SELECT id FROM memories);

INSERT INTO aimem_aliases (alias_id, memory_id)
    SELECT substr(key, 13), value FROM meta
    WHERE key >= 'aimem.alias:' AND key < 'aimem.alias;'
      AND value IN (SELECT id FROM memories);

DELETE FROM meta
    WHERE (key >= 'aimem.chunk:' AND key < 'aimem.chunk;')
       OR (key >= 'aimem.alias:' AND key < 'aimem.alias;');
"""
