"""Storage backends behind the vault: the contract (`base`), its implementations, and the
factory (`create_store`, `open_store`) that chooses one."""

from memvault.store.factory import create_store, open_store

__all__ = ["create_store", "open_store"]
