"""Schema version 2: conversation documents are stored compressed.

`conversations.document` holds the zstd frame of the document's JSON (a BLOB) for every
conversation written from this version on (`memvault.store.documents`); rows written before
keep their JSON text, and both are read, so nothing is rewritten here. The version number is
what changes: a memvault that knows only version 1 would read a frame as text, so it refuses
this vault and asks to be upgraded instead.
"""

SQL = ""
