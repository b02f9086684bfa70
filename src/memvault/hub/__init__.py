"""The hub: memory in and out of the memory systems people already use.

One module per format. Each holds the format's importer (behind `memvault.importers.base`'s
two-method interface, auto-detected by `memvault.importers.detect`) and its exporter (behind
`memvault.hub.base.Exporter`), so the mapping both ways is read in one place. The formats and
what each carries are listed in docs/formats.md.
"""
