"""memvault: a local-first vault for the memory AI assistants keep about you.

The public Python API for documents is `memvault.pam` (load, validate).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memvault")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

__all__ = ["__version__"]
