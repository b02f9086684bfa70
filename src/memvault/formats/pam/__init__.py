"""PAM v1.0 (Portable AI Memory): read, validate and inspect documents."""

from typing import Final

#: The file every PAM export holds (PAM §2): alone, or with conversations/ and embeddings.json
#: in a folder or zip. The one place the name is written.
STORE_FILE: Final = "memory-store.json"
