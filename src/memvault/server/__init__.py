"""The HTTP server: a vault over HTTP."""
