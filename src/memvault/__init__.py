"""memvault: a local-first vault for the memory AI assistants keep about you.

The public Python API for documents is `memvault.pam` (load, validate).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
