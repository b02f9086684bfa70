"""Generators of memory systems' files, written from each format's documentation (not from
memvault's writers), for the hub tests: one module per format."""
