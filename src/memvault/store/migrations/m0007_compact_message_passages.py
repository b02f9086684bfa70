"""Migration 7: message passages point at their conversation by a small integer.

A message passage carried its conversation's id (a 36-character UUID) and platform, with an
index over the ids: some 40 % of what an import wrote into the recall index, and the index
had to be dropped and sorted again at the end of every large import. Now:

- ``recall_conversations``: one row per indexed conversation — its integer ``id`` (what its
  passages point at), its ``conversation_id`` and ``platform``, and the range of its message
  passages' ids (``first_id``, ``last_id``: a conversation's passages are written together,
  so their ids follow each other). A conversation filter reads its passages by that range of
  the primary key; a platform filter goes through these rows.
- ``recall_passages``: a message's passage has ``conversation`` (that integer) and no
  ``conversation_id`` or ``platform`` of its own; a memory's passage keeps both (the
  conversation it came from need not be indexed), indexed only where set.

Passage ids are kept, so their full-text entries and vectors stay as they are. A vault that
had no recall index yet (one made before migration 4) is indexed here (`run`).
"""

from __future__ import annotations

from typing import Any, Final

SQL: Final = """
CREATE TABLE recall_conversations (
    id               INTEGER PRIMARY KEY,
    conversation_id  TEXT NOT NULL UNIQUE,
    platform         TEXT,
    first_id         INTEGER NOT NULL,
    last_id          INTEGER NOT NULL
);
INSERT INTO recall_conversations (conversation_id, platform, first_id, last_id)
    SELECT conversation_id, max(platform), min(id), max(id) FROM recall_passages
    WHERE kind = 'message' AND conversation_id IS NOT NULL
    GROUP BY conversation_id ORDER BY min(id);

ALTER TABLE recall_passages RENAME TO recall_passages_m0006;
DROP INDEX IF EXISTS recall_passages_memory;
DROP INDEX IF EXISTS recall_passages_conversation;
CREATE TABLE recall_passages (
    id               INTEGER PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('memory', 'message')),
    memory_seq       INTEGER,
    conversation     INTEGER,
    conversation_id  TEXT,
    message_id       TEXT,
    part             INTEGER NOT NULL DEFAULT 0,
    role             TEXT,
    participant      TEXT,
    platform         TEXT,
    at_epoch         REAL,
    text             TEXT NOT NULL
);
INSERT INTO recall_passages (id, kind, memory_seq, conversation, conversation_id, message_id,
                             part, role, participant, platform, at_epoch, text)
    SELECT o.id, o.kind, o.memory_seq, c.id,
           CASE o.kind WHEN 'memory' THEN o.conversation_id END, o.message_id, o.part, o.role,
           o.participant, CASE o.kind WHEN 'memory' THEN o.platform END, o.at_epoch, o.text
    FROM recall_passages_m0006 o
    LEFT JOIN recall_conversations c
        ON o.kind = 'message' AND c.conversation_id = o.conversation_id
    ORDER BY o.id;
DROP TABLE recall_passages_m0006;
CREATE INDEX recall_passages_memory ON recall_passages (memory_seq)
    WHERE memory_seq IS NOT NULL;
CREATE INDEX recall_passages_source ON recall_passages (conversation_id)
    WHERE conversation_id IS NOT NULL;
"""


def run(conn: Any) -> None:
    """Index what a vault older than the recall index holds (its index is empty then; an
    indexed vault's passages were carried over above)."""
    if conn.execute("SELECT 1 FROM recall_passages LIMIT 1").fetchone() is not None:
        return
    held = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM memories) OR EXISTS (SELECT 1 FROM conversations)"
    ).fetchone()[0]
    if held:
        from memvault.store.sqlite_recall import rebuild

        rebuild(conn)
